"""Measures the transformer (all-MiniLM-L6-v2, numpy forward pass) on the docs passages that `npm run bench:semantic`
exported (BENCH_EXPORT=file), as the ceiling the static model is compared against. Build venv + model folder needed:
  python compare_docs.py --export FILE --model-dir FOLDER_WITH_model.safetensors"""
import argparse
import json
import os
import sys
import time

import numpy as np
from tokenizers import Tokenizer

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from minilm import Bert  # noqa: E402


def embed(bert, tokenizer, texts, batch=32):
    tokenizer.no_padding()
    tokenizer.enable_truncation(256)
    encodings = tokenizer.encode_batch(texts)
    out = np.zeros((len(texts), 384))
    order = np.argsort([len(e.ids) for e in encodings])
    for start in range(0, len(texts), batch):
        rows = order[start:start + batch]
        width = max(len(encodings[i].ids) for i in rows)
        ids = np.zeros((len(rows), width), np.int64)
        mask = np.zeros_like(ids)
        for r, i in enumerate(rows):
            ids[r, :len(encodings[i].ids)] = encodings[i].ids
            mask[r, :len(encodings[i].ids)] = 1
        out[rows] = bert.sentence_embeddings(ids, mask)
    return out


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--export", required=True)
    parser.add_argument("--model-dir", required=True)
    args = parser.parse_args()
    data = json.load(open(args.export, encoding="utf-8"))
    bert = Bert(args.model_dir)
    tokenizer = Tokenizer.from_file(os.path.join(args.model_dir, "tokenizer.json"))
    started = time.time()
    packages = {}
    count = 0
    for package in data["packages"]:
        ids = [pid for pid, _ in package["passages"]]
        texts = [text for _, text in package["passages"]]
        packages[package["key"]] = (ids, texts, embed(bert, tokenizer, texts))
        count += len(texts)
    elapsed = time.time() - started
    hits = 0
    for question in data["questions"]:
        ids, texts, vectors = packages[question["key"]]
        query = embed(bert, tokenizer, [question["question"]])[0]
        top = np.argsort(-(vectors @ query))[:3]
        hits += any(question["expect"].lower() in texts[i] for i in top)
    print(f"transformer dense hit@3 {hits / len(data['questions']):.3f} (n={len(data['questions'])}); "
          f"{count} passages in {elapsed:.0f} s = {elapsed / count * 1000:.1f} ms each (numpy, "
          f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'default')})")


if __name__ == "__main__":
    main()
