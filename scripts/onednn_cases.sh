#!/usr/bin/env bash
# Record oneDNN's own answers for where each logical element of a tensor lies in memory under
# its format tags (plain permutations, blocked activations/weights, padded or not) in
# tests/data/onednn_formats.tsv.
#
# What it does:
#   1. creates a Python venv under ${ONEDNN_VENV:-target/onednn-venv} (relative to the repo
#      root) and pip-installs, pinned:
#        onednn-cpu-gomp==2023.2.0         oneDNN 3.2.0's libdnnl.so.3 (CPU engine, GNU OpenMP
#                                          runtime: links the system's libgomp.so.1), in the
#                                          venv's lib/
#        onednn-devel-cpu-gomp==2023.2.0   its headers (include/oneapi/dnnl/dnnl.hpp, ...) and
#                                          the libdnnl.so link
#      (2023.2.0 is the newest release of these two package names on PyPI; the later `onednn`
#      / `onednn-devel` packages are a different line.)
#   2. compiles scripts/onednn_cases.cpp with the system g++ -std=c++17 against them, with an
#      rpath to the venv's lib (tested with g++ 12.2, Debian 12);
#   3. runs it (CPU only, no accelerator) and writes tests/data/onednn_formats.tsv.
#
# Output format (see also the header comment of scripts/onednn_cases.cpp): one header line
# `tag dims size offsets`, then one line per (tag, dims) case, fields separated by one tab:
#   tag      the tag's name exactly as oneDNN's C++ enum dnnl::memory::format_tag spells it,
#            e.g. nChw16c, OIhw4i16o4i, gOIhw2i8o4i, aBcd16b, nhwc (aliases get own lines)
#   dims     the logical dims in oneDNN's order, comma-separated (N,C,H,W / O,I,H,W / G,O,I,H,W)
#   size     the destination memory's size in elements, get_desc().get_size() / 4 (padding in)
#   offsets  the element offset of every logical element, row-major logical order (last dim
#            fastest), comma-separated
# The offsets come from oneDNN's reorder primitive (s32, plain row-major source holding k + 1
# at logical element k, zero-filled destination), cross-checked by the program against the
# descriptor's blocking description. Every blocked tag has at least one padded case (a blocked
# dim that is not a multiple of its block). Deterministic for one oneDNN version.
#
# Usage: scripts/onednn_cases.sh
#   Needs PyPI and g++ (no GPU). The venv is about 185 MB. Takes about 3 s once the wheels are
#   cached. Output verified identical from a fresh venv and with 1 or all OpenMP threads.
set -euo pipefail
cd "$(dirname "$0")/.."

VENV="${ONEDNN_VENV:-target/onednn-venv}"
CXX="${CXX:-g++}"
OUT_TSV=tests/data/onednn_formats.tsv
BUILD_DIR="$VENV/build"

. scripts/onednn_env.sh

mkdir -p "$BUILD_DIR" "$(dirname "$OUT_TSV")"
"$CXX" -std=c++17 -O1 -I"$DNNL_INC" \
  scripts/onednn_cases.cpp -o "$BUILD_DIR/onednn_cases" \
  -L"$DNNL_LIB" -Wl,-rpath,"$DNNL_LIB" -l:libdnnl.so.3

OMP_NUM_THREADS=1 "$BUILD_DIR/onednn_cases" > "$OUT_TSV.tmp"
mv "$OUT_TSV.tmp" "$OUT_TSV"
echo "wrote $OUT_TSV: $(wc -l < "$OUT_TSV") lines, $(wc -c < "$OUT_TSV") bytes"
