#!/usr/bin/env bash
# Record CuTe's own answers for random nested layouts in tests/data/cute_nested.tsv.
#
# What it does:
#   1. creates a Python venv under ${CUTE_VENV:-target/cute-venv} (relative to the repo root)
#      and pip-installs, pinned:
#        nvidia-cutlass==4.2.0.0            CUTLASS 4.2.0: CuTe's headers, shipped inside the
#                                           Python package at cutlass_library/source/include
#        nvidia-cuda-runtime-cu12==12.9.79  cuda_runtime_api.h (CuTe's debug.hpp includes it)
#        nvidia-cuda-nvcc-cu12==12.9.86     crt/host_defines.h (needed by cuda_runtime_api.h);
#                                           this wheel ships ptxas but no `nvcc` driver
#        nvidia-cuda-cccl-cu12==12.9.27     libcu++ (<cuda/std/...>, included by cutlass.h)
#   2. compiles scripts/cute_nested_cases.cu as plain host C++17 with the system g++ (no nvcc,
#      no GPU: CuTe's layout algebra is constexpr host/device code, and without __CUDACC__
#      CUTE_HOST_DEVICE is just `inline`), tested with g++ 12.2 (Debian 12);
#   3. runs it and writes tests/data/cute_nested.tsv (format: see the header comment of
#      scripts/cute_nested_cases.cu). The program's PRNG is its own xorshift64* with a fixed
#      seed, so the output is deterministic for one CUTLASS version.
#
# Usage: scripts/cute_nested_cases.sh
#   Needs PyPI and g++. `--no-deps` keeps the venv at about 190 MB: only the headers are used,
#   not the cutlass Python package nor its cuda-python/numpy/scipy dependencies. Takes about
#   10 s once the wheels are cached. Output verified identical from a fresh venv.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${CUTE_VENV:-target/cute-venv}"
CXX="${CXX:-g++}"
OUT_TSV=tests/data/cute_nested.tsv
BUILD_DIR="$VENV/build"

if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/pip" install --quiet --no-deps \
  nvidia-cutlass==4.2.0.0 \
  nvidia-cuda-runtime-cu12==12.9.79 \
  nvidia-cuda-nvcc-cu12==12.9.86 \
  nvidia-cuda-cccl-cu12==12.9.27

SITE="$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
# find_up PATTERN LEVELS: the directory LEVELS levels above the first file matching PATTERN.
find_up() {
  local f
  f="$(find "$SITE" -path "$1" -print -quit)"
  if [ -z "$f" ]; then
    echo "cute_nested_cases.sh: no file matching $1 under $SITE" >&2
    exit 1
  fi
  for _ in $(seq "$2"); do f="$(dirname "$f")"; done
  echo "$f"
}
CUTLASS_INC="$(find_up '*/include/cute/layout.hpp' 2)"
RUNTIME_INC="$(find_up '*/include/cuda_runtime_api.h' 1)"
NVCC_INC="$(find_up '*/include/crt/host_defines.h' 2)"
CCCL_INC="$(find_up '*/include/cuda/std/utility' 3)"

mkdir -p "$BUILD_DIR" "$(dirname "$OUT_TSV")"
"$CXX" -std=c++17 -O1 -x c++ \
  -I"$CUTLASS_INC" -I"$CCCL_INC" -I"$RUNTIME_INC" -I"$NVCC_INC" \
  scripts/cute_nested_cases.cu -o "$BUILD_DIR/cute_nested_cases"

"$BUILD_DIR/cute_nested_cases" > "$OUT_TSV.tmp"
mv "$OUT_TSV.tmp" "$OUT_TSV"
echo "wrote $OUT_TSV: $(wc -l < "$OUT_TSV") lines, $(wc -c < "$OUT_TSV") bytes"
