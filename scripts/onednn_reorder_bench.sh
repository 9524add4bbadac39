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

. scripts/onednn_env.sh

mkdir -p "$BUILD_DIR"
"$CXX" -std=c++17 -O2 -I"$DNNL_INC" \
  scripts/onednn_reorder_bench.cpp -o "$BUILD_DIR/onednn_reorder_bench" \
  -L"$DNNL_LIB" -Wl,-rpath,"$DNNL_LIB" -l:libdnnl.so.3
OMP_NUM_THREADS=1 "$BUILD_DIR/onednn_reorder_bench"
