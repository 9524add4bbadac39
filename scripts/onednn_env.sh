# Sourced by scripts/onednn_cases.sh and scripts/onednn_reorder_bench.sh, from the repo root,
# with VENV set: installs oneDNN 3.2.0 from pip into that venv (pinned; see onednn_cases.sh)
# and sets DNNL_INC (the directory holding oneapi/dnnl/dnnl.hpp's include root) and DNNL_LIB
# (the directory of libdnnl.so.3, absolute).

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
    echo "onednn_env.sh: no file matching $1 under $VENV" >&2
    exit 1
  fi
  dirname "$f"
}
DNNL_INC="$(dirname "$(dirname "$(find_dir '*/include/oneapi/dnnl/dnnl.hpp')")")"
DNNL_LIB="$(find_dir '*/libdnnl.so*')"
DNNL_LIB="$(cd "$DNNL_LIB" && pwd)"

