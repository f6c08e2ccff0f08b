"""The on-disk form of tooldex's static model: int8 rows with one float32 scale per row (vectors.q8), the published
tokenizer.json, and manifest.json (source hashes, recipe, sha256 of each file). Written by build_model.py; read here
only to compare a rebuild with the shipped model (the service reads it in src/semantic/model-files.ts)."""
import hashlib
import json
import os

import numpy as np

FORMAT = "tooldex-static-embedding"
QUANTIZATION = {
    "kind": "int8-row",
    "layout": "int8 values, vocabSize rows of dimensions, row-major; then vocabSize float32 LE scales; value = int8 * scale",
    "rounding": "round half to even of value / (max |row| / 127)",
}


def sha256_file(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def quantize(table):
    """Per-row symmetric int8: each row keeps its direction to ~0.4% of its largest value."""
    table = np.asarray(table, np.float32)
    scales = (np.abs(table).max(1) / 127.0).astype(np.float32)
    safe = np.where(scales > 0, scales, 1.0).astype(np.float32)
    values = np.clip(np.rint(table / safe[:, None]), -127, 127).astype(np.int8)
    return values, scales


def dequantize(values, scales):
    return values.astype(np.float32) * scales[:, None]


def write_model(out, table, tokenizer_source, manifest_fields):
    """Writes vectors.q8, tokenizer.json and manifest.json into `out`; returns the manifest."""
    os.makedirs(out, exist_ok=True)
    values, scales = quantize(table)
    vectors_path = os.path.join(out, "vectors.q8")
    with open(vectors_path, "wb") as handle:
        handle.write(values.tobytes(order="C"))
        handle.write(scales.astype("<f4").tobytes())
    tokenizer_path = os.path.join(out, "tokenizer.json")
    with open(tokenizer_source, "rb") as src, open(tokenizer_path, "wb") as dst:
        dst.write(src.read())
    manifest = {
        "format": FORMAT,
        **manifest_fields,
        "dimensions": int(table.shape[1]),
        "vocabSize": int(table.shape[0]),
        "quantization": QUANTIZATION,
        "files": {"vectors.q8": sha256_file(vectors_path), "tokenizer.json": sha256_file(tokenizer_path)},
    }
    with open(os.path.join(out, "manifest.json"), "w", encoding="utf-8") as handle:
        json.dump(manifest, handle, indent=2)
        handle.write("\n")
    return manifest


def read_model(folder):
    """The dequantised table of a model folder, after checking vectors.q8 against its manifest."""
    with open(os.path.join(folder, "manifest.json"), encoding="utf-8") as handle:
        manifest = json.load(handle)
    path = os.path.join(folder, "vectors.q8")
    if sha256_file(path) != manifest["files"]["vectors.q8"]:
        raise ValueError(f"{path} does not have the sha256 its manifest records")
    rows, dims = manifest["vocabSize"], manifest["dimensions"]
    data = np.fromfile(path, dtype=np.uint8)
    values = data[:rows * dims].view(np.int8).reshape(rows, dims)
    scales = data[rows * dims:].view("<f4")
    return manifest, dequantize(values, scales)


def compare(table, shipped):
    """Row cosines between a rebuilt float table and a shipped (dequantised) one, and the share of identical int8 rows."""
    a = np.asarray(table, np.float64)
    b = np.asarray(shipped, np.float64)
    norms = np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1)
    cosines = (a * b).sum(1) / np.maximum(norms, 1e-30)
    return cosines
