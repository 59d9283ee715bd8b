#!/usr/bin/env python3
"""An independent numpy reference for chapter 4's norm-weighted composite,
written to models/minilm/reference-composite.json for tests/models/composite.rs.

Maintainer script; `cargo test` and the book never run it. It shares no code
with the book: a BERT forward pass in numpy (float64) from the vendored
float16 weights (models/minilm/model.safetensors), the tokenizer from
`tokenizers` on models/minilm/tokenizer.json (padding and truncation off).

What it recomputes, on the first SENTENCES A sentences of models/contexts.txt:
    composite   C = N_6 ⋯ N_1, N_l[i, j] = ‖Σ_h α^h_ij f^h(x_j)‖ + δ_ij ‖x_i‖,
                rows normalised, f^h(x_j) = v^h_j W_O^h (Kobayashi et al.)
    effect      E[i, j] = ‖h_6(i) − h_6(i | x_j replaced by the mean of x)‖,
                x the embeddings' output (mean ablation, the book's default)
    rho_raw     mean over word rows i (not [CLS], [SEP]) of Spearman ρ over
                keys j ≠ i between the last layer's head-mean attention row
                and the effect row
    rho_carried the same with the composite's row

Requirements (tested with Python 3.11):
    python3 -m venv /tmp/refenv
    /tmp/refenv/bin/pip install "numpy==2.1.3" "safetensors==0.4.5" "tokenizers==0.20.3"

Usage (from the repository root; about 5 seconds):
    /tmp/refenv/bin/python scripts/reference_composite.py

Two runs write the same file byte for byte.

What it writes (JSON): {"sentences": [{text, ids, rho_raw, rho_carried,
composite (first sentence only, row-major, n × n)}], "header": {...}}.
"""

import json
import math

import numpy as np
from safetensors.numpy import load_file
from tokenizers import Tokenizer

SENTENCES = 20
HEADS, DK, LAYERS, EPS = 12, 32, 6, 1e-12
OUT = "models/minilm/reference-composite.json"


def weights():
    raw = load_file("models/minilm/model.safetensors")
    return {k: v.astype(np.float64) for k, v in raw.items()}


def layer_norm(x, w, prefix):
    mu = x.mean(axis=1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=1, keepdims=True)
    return (x - mu) / np.sqrt(var + EPS) * w[prefix + ".weight"] + w[prefix + ".bias"]


def linear(x, w, prefix):
    return x @ w[prefix + ".weight"].T + w[prefix + ".bias"]


def gelu(z):
    erf = np.vectorize(math.erf)
    return 0.5 * z * (1.0 + erf(z / math.sqrt(2.0)))


def embed(w, ids):
    n = len(ids)
    x = (
        w["embeddings.word_embeddings.weight"][ids]
        + w["embeddings.position_embeddings.weight"][:n]
        + w["embeddings.token_type_embeddings.weight"][0]
    )
    return layer_norm(x, w, "embeddings.LayerNorm")


def run(w, x):
    """The stream after each layer, and each layer's (weights, f, input)."""
    layers = []
    for l in range(LAYERS):
        p = f"encoder.layer.{l}."
        q = linear(x, w, p + "attention.self.query")
        k = linear(x, w, p + "attention.self.key")
        v = linear(x, w, p + "attention.self.value")
        wo = w[p + "attention.output.dense.weight"]  # (d, d): out × in
        alphas, fs, ctx = [], [], np.zeros_like(x)
        for h in range(HEADS):
            s = slice(h * DK, (h + 1) * DK)
            scores = q[:, s] @ k[:, s].T / math.sqrt(DK)
            scores -= scores.max(axis=1, keepdims=True)
            a = np.exp(scores)
            a /= a.sum(axis=1, keepdims=True)
            f = v[:, s] @ wo[:, s].T  # f^h(x_j) = v_j W_O^h, (n, d)
            alphas.append(a)
            fs.append(f)
            ctx += a @ f
        layers.append((alphas, fs, x))
        u = ctx + w[p + "attention.output.dense.bias"] + x
        a = layer_norm(u, w, p + "attention.output.LayerNorm")
        ffn = linear(gelu(linear(a, w, p + "intermediate.dense")), w, p + "output.dense")
        x = layer_norm(ffn + a, w, p + "output.LayerNorm")
    return x, layers


def carried(alphas, fs, x):
    n = x.shape[0]
    mix = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            mix[i, j] = np.linalg.norm(sum(a[i, j] * f[j] for a, f in zip(alphas, fs)))
        mix[i, i] += np.linalg.norm(x[i])
        mix[i] /= mix[i].sum()
    return mix


def ranks(v):
    order = np.argsort(v, kind="stable")
    r = np.empty(len(v))
    r[order] = np.arange(len(v), dtype=float)
    # average ranks over ties
    for value in np.unique(v):
        at = v == value
        r[at] = r[at].mean()
    return r


def spearman(a, b):
    ra, rb = ranks(np.asarray(a)), ranks(np.asarray(b))
    return float(np.corrcoef(ra, rb)[0, 1])


def main():
    w = weights()
    tok = Tokenizer.from_file("models/minilm/tokenizer.json")
    tok.no_padding()
    tok.no_truncation()
    lines = [
        l for l in open("models/contexts.txt", encoding="utf-8").read().splitlines()
        if l.strip() and not l.startswith("#")
    ]
    out = []
    for s, line in enumerate(lines[:SENTENCES]):
        text = line.split("\t")[1]
        ids = tok.encode(text).ids
        n = len(ids)
        x0 = embed(w, ids)
        h, layers = run(w, x0)
        c = np.eye(n)
        for alphas, fs, x in layers:
            c = carried(alphas, fs, x) @ c
        raw = sum(layers[-1][0]) / HEADS
        mean_row = x0.mean(axis=0)
        effect = np.zeros((n, n))
        for j in range(n):
            xj = x0.copy()
            xj[j] = mean_row
            hj, _ = run(w, xj)
            effect[:, j] = np.linalg.norm(h - hj, axis=1)
        rows = range(1, n - 1)
        keys = lambda i: [j for j in range(n) if j != i]
        rho = lambda m: float(np.mean([spearman(m[i, keys(i)], effect[i, keys(i)]) for i in rows]))
        record = {"text": text, "ids": ids, "rho_raw": rho(raw), "rho_carried": rho(c)}
        if s == 0:
            record["composite"] = [float(v) for v in c.flatten()]
        out.append(record)
    header = {
        "numpy": np.__version__,
        "sentences": SENTENCES,
        "protocol": "mean ablation, each word's final state, all keys",
    }
    with open(OUT, "w", encoding="utf-8") as f:
        json.dump({"header": header, "sentences": out}, f, indent=None, separators=(",", ":"))
        f.write("\n")


if __name__ == "__main__":
    main()
