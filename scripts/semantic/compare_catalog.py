"""Reproduces the catalog rows of docs/semantic.md's decision table: BM25, the transformer (all-MiniLM-L6-v2, numpy
forward pass) and the built static model, as pure retrieval over data/catalog.jsonl.gz on the labelled query sets.
  python compare_catalog.py --model-dir FOLDER_WITH_model.safetensors --static-dir TOOLDEX_SEMANTIC_MODEL_DIR"""
import argparse
import gzip
import json
import math
import os
import re
import sys
import time
from collections import Counter

import numpy as np
from tokenizers import Tokenizer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare_docs import embed  # noqa: E402
from minilm import Bert  # noqa: E402

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
WORD = re.compile(r"[a-z0-9]+")


def tool_text(tool):
    keywords = ", ".join(tool.get("keywords") or [])
    return f"{tool['name']}: {tool.get('description') or ''}" + (f" Keywords: {keywords}." if keywords else "")


def load_queries(name, slugs):
    rows = [line.rstrip("\n").split("\t") for line in open(os.path.join(ROOT, "bench", name), encoding="utf-8")][1:]
    return [(q, {a for a in acc.split(",") if a in slugs}) for q, acc in rows if q]


class Bm25:
    def __init__(self, texts, k1=1.2, b=0.75):
        docs = [WORD.findall(t.lower()) for t in texts]
        self.n, self.avg, self.k1, self.b = len(docs), sum(map(len, docs)) / len(docs), k1, b
        self.lengths = np.array([len(d) for d in docs])
        self.df = Counter(w for d in docs for w in set(d))
        self.postings = {}
        for i, d in enumerate(docs):
            for w, f in Counter(d).items():
                self.postings.setdefault(w, []).append((i, f))

    def scores(self, query):
        out = np.zeros(self.n)
        for w in set(WORD.findall(query.lower())):
            idf = math.log(1 + (self.n - self.df[w] + 0.5) / (self.df[w] + 0.5)) if w in self.df else 0
            for i, f in self.postings.get(w, []):
                out[i] += idf * f * (self.k1 + 1) / (f + self.k1 * (1 - self.b + self.b * self.lengths[i] / self.avg))
        return out


def report(label, queries, slugs, score):
    hit5 = mrr = 0.0
    for query, acceptable in queries:
        top = np.argsort(-score(query))[:10]
        ranks = [r for r, i in enumerate(top) if slugs[i] in acceptable]
        if ranks:
            hit5 += ranks[0] < 5
            mrr += 1 / (ranks[0] + 1)
    print(f"{label:40s} hit@5={hit5 / len(queries):.3f} mrr@10={mrr / len(queries):.3f} (n={len(queries)})", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--model-dir", required=True)
    parser.add_argument("--static-dir", required=True)
    args = parser.parse_args()
    tools = [json.loads(line) for line in gzip.open(os.path.join(ROOT, "data", "catalog.jsonl.gz"), "rt", encoding="utf-8")]
    slugs = [t["slug"] for t in tools]
    texts = [tool_text(t) for t in tools]
    sets = {name: load_queries(file, set(slugs)) for name, file in
            (("tuning", "search-queries.tsv"), ("held-out", "search-queries-holdout.tsv"))}
    bm25 = Bm25(texts)
    tokenizer = Tokenizer.from_file(os.path.join(args.static_dir, "tokenizer.json"))
    tokenizer.no_padding()
    tokenizer.no_truncation()
    manifest = json.load(open(os.path.join(args.static_dir, "manifest.json")))
    table = np.fromfile(os.path.join(args.static_dir, "vectors.f32"), dtype="<f4").reshape(-1, manifest["dimensions"])

    def static(strings):
        out = np.zeros((len(strings), table.shape[1]))
        for k, enc in enumerate(tokenizer.encode_batch(strings, add_special_tokens=False)):
            if enc.ids:
                out[k] = table[enc.ids[:256]].mean(0)
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-12)

    static_tools = static(texts)
    bert = Bert(args.model_dir)
    started = time.time()
    transformer_tools = embed(bert, Tokenizer.from_file(os.path.join(args.model_dir, "tokenizer.json")), texts)
    print(f"transformer: {len(texts)} tool texts in {time.time() - started:.0f} s", flush=True)
    model_tokenizer = Tokenizer.from_file(os.path.join(args.model_dir, "tokenizer.json"))
    for name, queries in sets.items():
        report(f"{name} bm25", queries, slugs, bm25.scores)
        report(f"{name} transformer dense", queries, slugs, lambda q: transformer_tools @ embed(bert, model_tokenizer, [q])[0])
        report(f"{name} bm25 + transformer", queries, slugs,
               lambda q: 0.5 * bm25.scores(q) / max(bm25.scores(q).max(), 1e-9) + transformer_tools @ embed(bert, model_tokenizer, [q])[0])
        report(f"{name} {manifest['id']} dense", queries, slugs, lambda q: static_tools @ static([q])[0])


if __name__ == "__main__":
    main()
