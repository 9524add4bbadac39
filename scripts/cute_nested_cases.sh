#!/usr/bin/env bash
# Record CuTe's own answers for random nested layouts in tests/data/cute_nested.tsv.
#
# What it does:
#   1. sets up CuTe's headers, pinned, in a venv under ${CUTE_VENV:-target/cute-venv}
#      (scripts/cute_headers.sh, shared with scripts/cute_algebra_cases.sh: CUTLASS 4.2.0 and
#      the CUDA headers CuTe includes);
#   2. compiles scripts/cute_nested_cases.cu as plain host C++17 with the system g++ (no nvcc,
#      no GPU: CuTe's layout algebra is constexpr host/device code, and without __CUDACC__
#      CUTE_HOST_DEVICE is just `inline`), tested with g++ 12.2 (Debian 12);
#   3. runs it and writes tests/data/cute_nested.tsv (format: see the header comment of
#      scripts/cute_nested_cases.cu). The program's PRNG is its own xorshift64* with a fixed
#      seed, so the output is deterministic for one CUTLASS version.
#
# Usage: scripts/cute_nested_cases.sh
#   Needs PyPI and g++. Takes about 10 s once the wheels are cached. Output verified identical from a fresh venv.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/cute_headers.sh
. scripts/cute_headers.sh
CXX="${CXX:-g++}"
OUT_TSV=tests/data/cute_nested.tsv
BUILD_DIR="$VENV/build"

mkdir -p "$BUILD_DIR" "$(dirname "$OUT_TSV")"
"$CXX" -std=c++17 -O1 -x c++ "${CUTE_INCLUDES[@]}" \
  scripts/cute_nested_cases.cu -o "$BUILD_DIR/cute_nested_cases"

"$BUILD_DIR/cute_nested_cases" > "$OUT_TSV.tmp"
mv "$OUT_TSV.tmp" "$OUT_TSV"
echo "wrote $OUT_TSV: $(wc -l < "$OUT_TSV") lines, $(wc -c < "$OUT_TSV") bytes"
