#!/usr/bin/env bash
# oneDNN's own reorder timed on this machine (scripts/onednn_reorder_bench.cpp), the peer of
# `cargo bench -p strided-layout-bench --bench reorder -- table/`: run the two one after the
# other on a quiet machine and compare their GB/s (both count bytes read plus written).
#
# Installs oneDNN 3.2.0 from pip into the venv scripts/onednn_cases.sh uses (see there), builds
# the program with the system g++ at -O2, and runs it on one thread.
#
# Usage: scripts/onednn_reorder_bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${ONEDNN_VENV:-target/onednn-venv}"
CXX="${CXX:-g++}"
BUILD_DIR="$VENV/build"

if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/pip" install --quiet --no-deps \
  onednn-cpu-gomp==2023.2.0 \
  onednn-devel-cpu-gomp==2023.2.0

# find_dir PATTERN: the directory holding the first file under the venv matching PATTERN.
find_dir() {
  local f
  f="$(find "$VENV" -path "$1" -print -quit)"
  if [ -z "$f" ]; then
    echo "onednn_reorder_bench.sh: no file matching $1 under $VENV" >&2
    exit 1
  fi
  dirname "$f"
}
DNNL_INC="$(dirname "$(dirname "$(find_dir '*/include/oneapi/dnnl/dnnl.hpp')")")"
DNNL_LIB="$(find_dir '*/libdnnl.so*')"
DNNL_LIB="$(cd "$DNNL_LIB" && pwd)"

mkdir -p "$BUILD_DIR"
"$CXX" -std=c++17 -O2 -I"$DNNL_INC" \
  scripts/onednn_reorder_bench.cpp -o "$BUILD_DIR/onednn_reorder_bench" \
  -L"$DNNL_LIB" -Wl,-rpath,"$DNNL_LIB" -l:libdnnl.so.3
OMP_NUM_THREADS=1 "$BUILD_DIR/onednn_reorder_bench"
