#!/usr/bin/env bash
# Record CuTe's own answers for its layout algebra in tests/data/cute_algebra.tsv, and inputs
# CuTe refuses at compile time in tests/data/cute_algebra_refused.tsv.
#
# What it does:
#   1. sets up CuTe's headers, pinned, in a venv under ${CUTE_VENV:-target/cute-venv}
#      (scripts/cute_headers.sh, shared with scripts/cute_nested_cases.sh: CUTLASS 4.2.0 and
#      the CUDA headers CuTe includes, found inside those packages' own folders);
#   2. runs scripts/cute_algebra_cases.py, which draws the cases from a fixed-seed PRNG, keeps
#      those CuTe accepts (judged by a Python port of cute/layout.hpp), and writes C++17
#      translation units with one `case_<id>()` per case, every layout a static type such as
#      Layout<Shape<Int<4>,Shape<Int<2>,Int<3>>>, Stride<Int<1>,Stride<Int<4>,Int<8>>>>
#      (and, for the swizzle group, a static Swizzle<B,M,S>). It draws in three passes from one
#      PRNG: the original 18,000 cases, then 300 more of each cheap group, then 600 swizzle
#      cases, and writes them in that order, so the first 18,000 lines of the TSV do not change
#      when later passes are added;
#   3. compiles the translation units one after the other as plain host C++17 with the system
#      g++ (no nvcc, no GPU: CuTe's layout algebra is constexpr host/device code, and without
#      __CUDACC__ CUTE_HOST_DEVICE is just `inline`), -O1 (faster to compile here than -O0),
#      tested with g++ 12.2 (Debian 12). Should g++ refuse a case after all, the case ids named
#      in its error output are dropped and the unit recompiled (with the port exact this does
#      not happen; the script says so when it does);
#   4. runs them and writes tests/data/cute_algebra.tsv, then compares every result with the
#      port's prediction and reports the number of differences (C++ is the authority; the
#      TSV always holds what C++ printed);
#   5. compiles, with -fsyntax-only, up to 50 inputs per function that the port says CuTe
#      refuses, and writes the ones g++ does reject (its error output names their case function)
#      to tests/data/cute_algebra_refused.tsv.
#
# Format (both files): a header line `function<TAB>a<TAB>b<TAB>result`, then one line per case:
#   function  CuTe's name: coalesce composition complement right_inverse left_inverse
#             logical_divide zipped_divide tiled_divide flat_divide logical_product
#             zipped_product tiled_product blocked_product raked_product, the by-mode
#             (tiler) forms composition_tile logical_divide_tile zipped_divide_tile, which call
#             the same CuTe function with the tiler cute::make_tile(b0, b1), and swizzle:
#             composition(Swizzle<B,M,S>{}, a) (cute/swizzle_layout.hpp), a ComposedLayout
#   a         the first operand in CuTe's notation without the `_` of static integers:
#             `8:1`, `(4,2):(1,4)`, `((4,3),4):((1,4),12)`, `(8):(1)` (a rank-1 tuple)
#   b         the second operand: a layout; for complement the static integer cotarget n;
#             for the *_tile forms `b0;b1`; `-` for the unary coalesce/right_inverse/left_inverse;
#             for swizzle the Swizzle's `B,M,S`, e.g. `3,4,3` or `2,0,-3`
#   result    CuTe's printed result (operator<<) with the `_` removed, e.g. `(4,3):(1,4)`;
#             for swizzle the composed layout's offsets sl(i) for i = 0..size(a)-1,
#             comma-separated, e.g. `swizzle<TAB>4:4<TAB>1,2,-3<TAB>0,36,8,44` (Swizzle::apply:
#             o ^ shiftr(o & yyy_msk, S), yyy_msk = ((1<<B)-1) << (M + max(0,S)), a negative
#             S shifting left);
#             `refused` in cute_algebra_refused.tsv (the call fails to compile: a static_assert
#             such as "Stride Divisibility Condition" or "Non-injective Layout detected in
#             complement." fires)
# Every shape and stride is static (cute::Int<N>), so CuTe merges/drops modes as it can only do
# for static values. Deterministic: the same files on every run for one CUTLASS version.
#
# Usage: scripts/cute_algebra_cases.sh
#   Needs PyPI (once; wheels are cached), python3 and g++. Takes about 30 minutes on a 2-core
#   machine (1,809 s measured, with other work running), nearly all of it g++: 27 minutes for
#   the 20,100 template-heavy cases in 43 units (15-35 s per unit of 300 cases of one function,
#   about 13 s per unit of 300 swizzle cases, 30-130 s per unit of a function group), then
#   3.5 minutes for the refused file. Runs one g++ at a time, using up to 2.3 GB.
set -euo pipefail
cd "$(dirname "$0")/.."

# shellcheck source=scripts/cute_headers.sh
. scripts/cute_headers.sh
CXX="${CXX:-g++}"
OUT_TSV=tests/data/cute_algebra.tsv
OUT_REFUSED=tests/data/cute_algebra_refused.tsv
BUILD_DIR="$VENV/build/cute_algebra"
SRC_DIR="$BUILD_DIR/src"
EXCLUDE="$BUILD_DIR/exclude.txt"
HEADER="$(printf 'function\ta\tb\tresult')"
CXXFLAGS=(-std=c++17 -O1 -x c++ "${CUTE_INCLUDES[@]}")

rm -rf "$BUILD_DIR"
mkdir -p "$SRC_DIR" "$(dirname "$OUT_TSV")"
: > "$EXCLUDE"
generate() { "$VENV/bin/python" scripts/cute_algebra_cases.py "$SRC_DIR" "$EXCLUDE"; }
generate

# failing_ids ERR CPP: the ids of the `case_<id>()` functions that g++'s errors in ERR point
# at, by name or by a `CPP:LINE:` location ("required from here") inside their body.
failing_ids() {
  {
    grep -o 'case_[0-9][0-9]*' "$1" | sed 's/case_//' || true
    { grep -o "$(basename "$2"):[0-9][0-9]*:" "$1" || true; } | cut -d: -f2 | sort -un |
      awk 'NR == FNR { want[$1] = 1; next }
           /^(static )?void case_[0-9]+\(\)/ { match($0, /case_[0-9]+/); id = substr($0, RSTART + 5, RLENGTH - 5) }
           (FNR in want) && id != "" { print id }' - "$2"
  } | sort -un
}

start=$SECONDS
: > "$BUILD_DIR/body.tsv"
while read -r tu; do
  for attempt in 1 2 3 4 5 6; do
    if "$CXX" "${CXXFLAGS[@]}" "$SRC_DIR/$tu.cpp" -o "$BUILD_DIR/$tu" 2> "$BUILD_DIR/$tu.err"; then
      break
    fi
    ids="$(failing_ids "$BUILD_DIR/$tu.err" "$SRC_DIR/$tu.cpp")"
    if [ -z "$ids" ] || [ "$attempt" = 6 ]; then
      head -50 "$BUILD_DIR/$tu.err" >&2
      echo "cute_algebra_cases.sh: $tu does not compile" >&2
      exit 1
    fi
    echo "cute_algebra_cases.sh: $tu: g++ refused case(s) $(echo $ids), dropping them" >&2
    echo "$ids" >> "$EXCLUDE"
    generate
  done
  "$BUILD_DIR/$tu" >> "$BUILD_DIR/body.tsv"
  echo "$tu: $((SECONDS - start)) s" >&2
done < "$SRC_DIR/manifest.txt"

{ echo "$HEADER"; cat "$BUILD_DIR/body.tsv"; } > "$OUT_TSV.tmp"
mv "$OUT_TSV.tmp" "$OUT_TSV"
echo "wrote $OUT_TSV: $(($(wc -l < "$OUT_TSV") - 1)) cases, $(wc -c < "$OUT_TSV") bytes" \
     "($((SECONDS - start)) s of compiling and running)"

# The port's predictions against C++ (informative only: the TSV holds C++'s answers).
"$VENV/bin/python" - "$SRC_DIR/expected.tsv" "$OUT_TSV" <<'EOF'
import sys
expected = {}
for line in open(sys.argv[1]):
    f = line.rstrip("\n").split("\t")
    expected[tuple(f[:3])] = f[3]
checked = differ = 0
for line in list(open(sys.argv[2]))[1:]:
    f = line.rstrip("\n").split("\t")
    e = expected.get(tuple(f[:3]), "?")
    if e == "?":
        continue
    checked += 1
    if e != f[3]:
        differ += 1
        if differ <= 10:
            print("port differs: %s  port=%s" % ("\t".join(f), e))
print("Python port vs C++: %d results compared, %d differ" % (checked, differ))
EOF

# Refused inputs: keep those g++ rejects.
rstart=$SECONDS
: > "$BUILD_DIR/refused_ids.txt"
while read -r tu; do
  [ -n "$tu" ] || continue
  if "$CXX" "${CXXFLAGS[@]}" -fsyntax-only "$SRC_DIR/$tu.cpp" 2> "$BUILD_DIR/$tu.err"; then
    echo "cute_algebra_cases.sh: $tu compiled: none of its cases is refused" >&2
  fi
  failing_ids "$BUILD_DIR/$tu.err" "$SRC_DIR/$tu.cpp" >> "$BUILD_DIR/refused_ids.txt"
done < "$SRC_DIR/refused_manifest.txt"
{
  echo "$HEADER"
  awk -F'\t' 'NR == FNR { ok[$1] = 1; next } ($1 in ok) { print $2 "\t" $3 "\t" $4 "\t" $5 }' \
    "$BUILD_DIR/refused_ids.txt" "$SRC_DIR/refused.tsv"
} > "$OUT_REFUSED.tmp"
mv "$OUT_REFUSED.tmp" "$OUT_REFUSED"
echo "wrote $OUT_REFUSED: $(($(wc -l < "$OUT_REFUSED") - 1)) of" \
     "$(grep -c . "$SRC_DIR/refused.tsv") candidates confirmed refused ($((SECONDS - rstart)) s)"
