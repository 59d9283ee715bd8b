#!/usr/bin/env python3
"""Independent reference for chapter 5's fitted lens and norm-matched null,
recomputed in numpy from models/smollm2/ and written to
models/smollm2/reference-lens.json for tests/models/lens.rs.

Maintainer script; `cargo test` and the book never run it.

It shares no code with the library: it dequantises the extract's Q4_1 and
Q8_0 blocks itself (models/smollm2/README.md), runs SmolLM2's forward pass
in numpy (f32 activations, RMSNorm's mean in f64, interleaved RoPE,
query head h reading key/value head h // 3), tokenises with the `tokenizers`
package on models/smollm2/tokenizer.json, and fits its own lens:

    u(x) = x / rms(x)                            per row
    A_l  = (X~ᵀX~ + λ I)⁻¹ X~ᵀY~,  λ = ridge · tr(X~ᵀX~) / d     X~, Y~ centred
    lens_l(h) = argmax (rms(u(h) A_l + ȳ − x̄ A_l) ⊙ g_out) · E

on the held-out text (models/corpus.txt, then models/paraphrases.txt),
evaluated on every position of the first 12 context sentences of
models/contexts.txt (every pair's A sentence), as the book does.

The norm-matched null (each trained write Δ_l = h_(l+1) − h_l turned by a
Haar-random rotation per block) draws its rotations from numpy's generator,
not the book's ChaCha8 stream, so its numbers are compared as statistics:
the script reports the mean and the between-seed sd over SEEDS seeds, and
the per-block write share ‖Δ_l‖ / ‖h_(l+1)‖ that the null keeps by
construction (seed-independent, compared exactly).

Requirements (tested with Python 3.11):
    pip install "numpy==2.4.6" "safetensors==0.8.0" "tokenizers==0.23.3"

Usage (from the repository root; 589 s of CPU measured, 41 minutes of wall time on
a machine shared with other jobs; 1 GB of memory):
    python3 scripts/reference_lens.py

What it writes (JSON):
    header     versions, ridge, seeds, counts
    small      the fast check: the lens fitted on the first SMALL_FIT held-out
               sentences and read on the first SMALL_EVAL evaluation sentences:
               held_ids, eval_ids, top1[s][l][i] (the fitted lens's top-1 at
               boundary l, position i of sentence s; boundary 30 is the model's)
    book       the book's setting: fitted lens on the trained model (first,
               settled and stay on the positions not answered at boundary 0;
               agreement at 0 and 29 over every position), the plain lens's
               agreement at 29, the write share per block, and the null's
               plain-lens first / stay / agreement at 29 (mean and sd over seeds)
"""

import json
import sys

import numpy as np
from safetensors import safe_open
from tokenizers import Tokenizer

import importlib.metadata

OUT = "models/smollm2/reference-lens.json"
DIR = "models/smollm2/"
RIDGE = 0.1
SEEDS = 8
SMALL_FIT = 16
SMALL_EVAL = 3
EVAL = 12
D, HEADS, KV, HD, LAYERS, THETA, EPS = 576, 9, 3, 64, 30, 1e5, 1e-5


def f16(b):
    return b.view(np.float16).astype(np.float32)


def q4_1(raw, inputs):
    """(out, in) from rows of 20-byte blocks: d, m (f16), 16 bytes of nibbles."""
    out = raw.shape[0]
    blocks = raw.reshape(out, inputs // 32, 20)
    d, m = f16(blocks[:, :, 0:2].copy()), f16(blocks[:, :, 2:4].copy())
    qs = blocks[:, :, 4:20]
    w = np.concatenate([qs & 0xF, qs >> 4], axis=2).astype(np.float32)
    return (d * w + m).reshape(out, inputs)


def q8_0(raw, inputs):
    out = raw.shape[0]
    blocks = raw.reshape(out, inputs // 32, 34)
    d = f16(blocks[:, :, 0:2].copy())
    q = blocks[:, :, 2:34].copy().view(np.int8).astype(np.float32)
    return (d * q).reshape(out, inputs)


def load():
    e = safe_open(DIR + "embedding.safetensors", "np")
    emb = q8_0(e.get_tensor("token_embd.weight"), D)
    g_out = e.get_tensor("output_norm.weight")
    blocks = []
    for l in range(LAYERS):
        f = safe_open(DIR + ("layers-00-14" if l < 15 else "layers-15-29") + ".safetensors", "np")
        t = lambda name, inputs: q4_1(f.get_tensor(f"blk.{l}.{name}.weight"), inputs).T.copy()
        blocks.append(dict(
            q=t("attn_q", D), k=t("attn_k", D), v=t("attn_v", D), o=t("attn_output", D),
            gate=t("ffn_gate", D), up=t("ffn_up", D), down=t("ffn_down", 1536),
            g_attn=f.get_tensor(f"blk.{l}.attn_norm.weight"),
            g_ffn=f.get_tensor(f"blk.{l}.ffn_norm.weight"),
        ))
    return emb, g_out, blocks


def rms(x, g):
    ms = (x.astype(np.float64) ** 2).mean(axis=1, keepdims=True)
    return (x * (1.0 / np.sqrt(ms + EPS)).astype(np.float32)) * g


def rope(x, n_heads):
    n = x.shape[0]
    x = x.reshape(n, n_heads, HD // 2, 2)
    ang = np.arange(n)[:, None] * THETA ** (-2.0 * np.arange(HD // 2) / HD)[None, :]
    c, s = np.cos(ang).astype(np.float32)[:, None, :], np.sin(ang).astype(np.float32)[:, None, :]
    a, b = x[..., 0], x[..., 1]
    return np.stack([a * c - b * s, a * s + b * c], axis=-1).reshape(n, n_heads * HD)


def states(model, ids):
    """The stream at every boundary 0..30, (31, n, 576) in f64."""
    emb, _, blocks = model
    x = emb[ids].astype(np.float32)
    out = [x.astype(np.float64)]
    n = len(ids)
    mask = np.triu(np.full((n, n), -np.inf, dtype=np.float32), 1)
    for b in blocks:
        a = rms(x, b["g_attn"])
        q, k, v = rope(a @ b["q"], HEADS), rope(a @ b["k"], KV), a @ b["v"]
        ctx = []
        for h in range(HEADS):
            g = h // (HEADS // KV)
            s = q[:, h * HD:(h + 1) * HD] @ k[:, g * HD:(g + 1) * HD].T / 8.0 + mask
            w = np.exp(s - s.max(axis=1, keepdims=True))
            w /= w.sum(axis=1, keepdims=True)
            ctx.append(w @ v[:, g * HD:(g + 1) * HD])
        x = x + np.concatenate(ctx, axis=1) @ b["o"]
        c = rms(x, b["g_ffn"])
        z = c @ b["gate"]
        x = x + ((z / (1.0 + np.exp(-z))) * (c @ b["up"])) @ b["down"]
        out.append(x.astype(np.float64))
    return np.stack(out)


def top1(model, x):
    emb, g_out, _ = model
    return np.argmax(rms(x.astype(np.float32), g_out) @ emb.T, axis=1)


def unit(x):
    return x / np.sqrt((x ** 2).mean(axis=1, keepdims=True))


def fit(runs):
    """Per boundary 0..29: (A, x̄, ȳ) from held-out runs (31, n, d)."""
    y = np.concatenate([unit(r[-1]) for r in runs])
    y_mean = y.mean(axis=0)
    maps = []
    for l in range(LAYERS):
        x = np.concatenate([unit(r[l]) for r in runs])
        x_mean = x.mean(axis=0)
        xc = x - x_mean
        gram = xc.T @ xc
        gram += RIDGE * np.trace(gram) / D * np.eye(D)
        maps.append((np.linalg.solve(gram, xc.T @ (y - y_mean)), x_mean, y_mean))
    return maps


def read(model, maps, run):
    """(31, n) top-1 of the fitted lens; boundary 30 the model's own."""
    rows = [top1(model, (unit(run[l]) - x_mean) @ a + y_mean) for l, (a, x_mean, y_mean) in enumerate(maps)]
    return np.stack(rows + [top1(model, run[-1])])


def plain(model, run):
    return np.stack([top1(model, run[l]) for l in range(LAYERS + 1)])


def stats(tops):
    """first, settled, stay (lists per position) and agree (boundaries × positions)."""
    agree = np.concatenate([t == t[-1] for t in tops], axis=1)
    first = agree.argmax(axis=0)
    settled = np.array([max([l + 1 for l in range(LAYERS + 1) if not agree[l, i]], default=0) for i in range(agree.shape[1])])
    stay = [agree[f + 1:LAYERS, i].mean() if f + 1 < LAYERS else None for i, f in enumerate(first)]
    return agree, first, settled, stay


def summary(tops):
    agree, first, settled, stay = stats(tops)
    open_ = ~agree[0]
    st = [s for s, o in zip(stay, open_) if o and s is not None]
    return dict(
        first_all=float(first.mean()),
        settled_open=float(settled[open_].mean()),
        stay_open=float(np.mean(st)),
        agree0=float(agree[0].mean()),
        agree29=float(agree[LAYERS - 1].mean()),
        tokens=int(agree.shape[1]),
    )


def main():
    tok = Tokenizer.from_file(DIR + "tokenizer.json")
    enc = lambda s: tok.encode(s, add_special_tokens=False).ids
    corpus = [l for l in open("models/corpus.txt").read().split("\n") if l.strip()]
    para = []
    for l in open("models/paraphrases.txt").read().split("\n"):
        if l.strip():
            a, b = l.split("\t")
            para += [a.strip(), b.strip()]
    pairs = [l.split("\t") for l in open("models/contexts.txt").read().split("\n") if l.strip() and not l.startswith("#")]
    contexts = [p[1] for p in pairs] + [p[2] for p in pairs]
    held_ids = [enc(s) for s in corpus + para]
    eval_ids = [enc(s) for s in contexts[:EVAL]]
    model = load()
    held = [states(model, i) for i in held_ids]
    ev = [states(model, i) for i in eval_ids]

    small_maps = fit(held[:SMALL_FIT])
    small = dict(
        held_ids=held_ids[:SMALL_FIT], eval_ids=eval_ids[:SMALL_EVAL],
        top1=[read(model, small_maps, r).tolist() for r in ev[:SMALL_EVAL]],
    )

    maps = fit(held)
    fitted = summary([read(model, maps, r) for r in ev])
    plain_trained = summary([plain(model, r) for r in ev])
    share = []
    for l in range(LAYERS):
        w = np.concatenate([np.linalg.norm(r[l + 1] - r[l], axis=1) / np.linalg.norm(r[l + 1], axis=1) for r in ev])
        share.append(float(w.mean()))
    null = []
    for seed in range(SEEDS):
        rng = np.random.default_rng(seed)
        rots = []
        for _ in range(LAYERS):
            q, r = np.linalg.qr(rng.standard_normal((D, D)))
            rots.append(q * np.sign(np.diag(r)))
        turned = []
        for run in ev:
            h = [run[0]]
            for l in range(LAYERS):
                h.append(h[-1] + (run[l + 1] - run[l]) @ rots[l])
            turned.append(plain(model, np.stack(h)))
        null.append(summary(turned))
    keys = ["first_all", "stay_open", "agree29"]
    book = dict(
        held_out_tokens=sum(map(len, held_ids)), eval_ids=eval_ids,
        fitted=fitted, plain=plain_trained, write_share=share,
        null_plain={k: dict(mean=float(np.mean([n[k] for n in null])), sd=float(np.std([n[k] for n in null], ddof=1))) for k in keys},
    )
    header = dict(
        numpy=np.__version__, safetensors=importlib.metadata.version("safetensors"),
        tokenizers=importlib.metadata.version("tokenizers"), ridge=RIDGE, seeds=SEEDS,
        small_fit=SMALL_FIT, small_eval=SMALL_EVAL, sentences=EVAL,
    )
    with open(OUT, "w") as f:
        json.dump(dict(header=header, small=small, book=book), f, indent=1)
        f.write("\n")
    json.dump(dict(fitted=fitted, plain=plain_trained, null=book["null_plain"]), sys.stdout, indent=1)


if __name__ == "__main__":
    main()
