"""Distils a static (per-token) embedding table from a BERT sentence encoder, model2vec's method: every vocabulary
token is passed through the encoder alone, mean-pooled, reduced by PCA and re-weighted. Build-time only; numpy only."""
import json
import sys

import numpy as np

from minilm import Bert


def token_vectors(bert, vocab_size, batch=1024, cls_id=101, sep_id=102):
    """One vector per vocabulary id: the encoder's mean-pooled output for the input [CLS] token [SEP]."""
    out = np.zeros((vocab_size, bert.config["hidden_size"]), np.float64)
    for start in range(0, vocab_size, batch):
        ids = np.arange(start, min(start + batch, vocab_size))
        seq = np.stack([np.full_like(ids, cls_id), ids, np.full_like(ids, sep_id)], axis=1)
        states = bert.hidden_states(seq, np.ones_like(seq))
        out[ids] = states.mean(1)
        print(f"distil: {ids[-1] + 1}/{vocab_size}", file=sys.stderr, flush=True)
    return out


def pca(vectors, dims):
    """Projects onto the top principal components; each component's sign is fixed so its largest loading is positive,
    which keeps the output the same across BLAS builds up to rounding."""
    centred = vectors - vectors.mean(0)
    cov = centred.T @ centred / len(centred)
    values, components = np.linalg.eigh(cov)
    order = np.argsort(values)[::-1][:dims]
    components = components[:, order]
    signs = np.sign(components[np.abs(components).argmax(0), np.arange(components.shape[1])])
    components *= signs
    return centred @ components


def sif_weights(vocab_size, coefficient=1e-4):
    """model2vec's SIF weighting with a Zipf prior over vocabulary rank: frequent (low id) tokens count less."""
    inv_rank = 1.0 / np.arange(2, vocab_size + 2)
    proba = inv_rank / inv_rank.sum()
    return coefficient / (coefficient + proba)
