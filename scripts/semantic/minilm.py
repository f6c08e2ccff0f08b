"""A numpy forward pass of a BERT sentence encoder (all-MiniLM-L6-v2) read straight from model.safetensors.
Used only at build time (distilling the static model, measuring quality); the service never runs it."""
import json
import math
import struct

import numpy as np

DTYPES = {"F32": np.float32, "F16": np.float16, "I64": np.int64}


def load_safetensors(path):
    with open(path, "rb") as handle:
        (header_len,) = struct.unpack("<Q", handle.read(8))
        header = json.loads(handle.read(header_len))
        data = handle.read()
    tensors = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        start, end = meta["data_offsets"]
        array = np.frombuffer(data[start:end], dtype=DTYPES[meta["dtype"]]).reshape(meta["shape"])
        tensors[name] = array.astype(np.float32) if array.dtype != np.int64 else array
    return tensors


def _erf(x):
    # Abramowitz & Stegun 7.1.26 (|error| < 1.5e-7): BERT's exact GELU without scipy.
    sign = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))))
    return sign * (1.0 - poly * np.exp(-a * a))


def _gelu(x):
    return 0.5 * x * (1.0 + _erf(x / math.sqrt(2.0)))


def _layer_norm(x, weight, bias, eps):
    mean = x.mean(-1, keepdims=True)
    var = ((x - mean) ** 2).mean(-1, keepdims=True)
    return (x - mean) / np.sqrt(var + eps) * weight + bias


class Bert:
    def __init__(self, model_dir):
        with open(f"{model_dir}/config.json") as handle:
            self.config = json.load(handle)
        self.w = load_safetensors(f"{model_dir}/model.safetensors")
        self.heads = self.config["num_attention_heads"]
        self.layers = self.config["num_hidden_layers"]
        self.eps = self.config["layer_norm_eps"]

    def _p(self, name):
        return self.w[name]

    def hidden_states(self, ids, mask):
        """ids, mask: int arrays [batch, length] → last hidden states [batch, length, hidden]."""
        p = self._p
        batch, length = ids.shape
        x = p("embeddings.word_embeddings.weight")[ids]
        x = x + p("embeddings.position_embeddings.weight")[:length][None, :, :]
        x = x + p("embeddings.token_type_embeddings.weight")[0][None, None, :]
        x = _layer_norm(x, p("embeddings.LayerNorm.weight"), p("embeddings.LayerNorm.bias"), self.eps)
        hidden = x.shape[-1]
        head_dim = hidden // self.heads
        bias = (1.0 - mask[:, None, None, :].astype(np.float32)) * -1e9
        for i in range(self.layers):
            pre = f"encoder.layer.{i}."
            def lin(v, name):
                return v @ p(pre + name + ".weight").T + p(pre + name + ".bias")
            q = lin(x, "attention.self.query").reshape(batch, length, self.heads, head_dim).transpose(0, 2, 1, 3)
            k = lin(x, "attention.self.key").reshape(batch, length, self.heads, head_dim).transpose(0, 2, 3, 1)
            v = lin(x, "attention.self.value").reshape(batch, length, self.heads, head_dim).transpose(0, 2, 1, 3)
            scores = (q @ k) / math.sqrt(head_dim) + bias
            scores = scores - scores.max(-1, keepdims=True)
            probs = np.exp(scores)
            probs /= probs.sum(-1, keepdims=True)
            context = (probs @ v).transpose(0, 2, 1, 3).reshape(batch, length, hidden)
            x = _layer_norm(x + lin(context, "attention.output.dense"),
                            p(pre + "attention.output.LayerNorm.weight"), p(pre + "attention.output.LayerNorm.bias"), self.eps)
            inner = _gelu(lin(x, "intermediate.dense"))
            x = _layer_norm(x + lin(inner, "output.dense"),
                            p(pre + "output.LayerNorm.weight"), p(pre + "output.LayerNorm.bias"), self.eps)
        return x

    def sentence_embeddings(self, ids, mask):
        """Mean pooling over real tokens, then L2 normalisation (the model's modules.json: Pooling + Normalize)."""
        states = self.hidden_states(ids, mask)
        m = mask[:, :, None].astype(np.float32)
        pooled = (states * m).sum(1) / np.maximum(m.sum(1), 1e-9)
        return pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
