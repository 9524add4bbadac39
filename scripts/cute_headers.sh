# Sourced by scripts/cute_nested_cases.sh and scripts/cute_algebra_cases.sh (from the repo
# root): a Python venv under ${CUTE_VENV:-target/cute-venv} holding CuTe's headers, pinned, and
# CUTE_INCLUDES, the g++ include flags that compile CuTe as plain host C++17.
#
#   nvidia-cutlass==4.2.0.0            CUTLASS 4.2.0: CuTe's headers, shipped inside the Python
#                                      package at cutlass_library/source/include
#   nvidia-cuda-runtime-cu12==12.9.79  cuda_runtime_api.h (CuTe's debug.hpp includes it)
#   nvidia-cuda-nvcc-cu12==12.9.86     crt/host_defines.h (needed by cuda_runtime_api.h);
#                                      this wheel ships ptxas but no `nvcc` driver
#   nvidia-cuda-cccl-cu12==12.9.27     libcu++ (<cuda/std/...>, included by cutlass.h)
#
# `--no-deps` keeps the venv at about 190 MB: only the headers are used. The include
# directories are looked up inside those packages' own folders (nvidia/cuda_runtime,
# nvidia/cuda_nvcc, nvidia/cuda_cccl), so other CUDA wheels in the same venv (nvidia/cu13, say)
# are not picked up by accident. Sets VENV; defines no other names but find_up.

VENV="${CUTE_VENV:-target/cute-venv}"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
"$VENV/bin/pip" install --quiet --no-deps \
  nvidia-cutlass==4.2.0.0 \
  nvidia-cuda-runtime-cu12==12.9.79 \
  nvidia-cuda-nvcc-cu12==12.9.86 \
  nvidia-cuda-cccl-cu12==12.9.27

CUTE_SITE="$("$VENV/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
# find_up PATTERN LEVELS: the directory LEVELS levels above the first file matching PATTERN.
find_up() {
  local f
  f="$(find "$CUTE_SITE" -path "$1" -print -quit)"
  if [ -z "$f" ]; then
    echo "cute_headers.sh: no file matching $1 under $CUTE_SITE" >&2
    exit 1
  fi
  for _ in $(seq "$2"); do f="$(dirname "$f")"; done
  echo "$f"
}
CUTE_INCLUDES=(
  -I"$(find_up '*/cutlass_library/source/include/cute/layout.hpp' 2)"
  -I"$(find_up '*/nvidia/cuda_cccl/include/cuda/std/utility' 3)"
  -I"$(find_up '*/nvidia/cuda_runtime/include/cuda_runtime_api.h' 1)"
  -I"$(find_up '*/nvidia/cuda_nvcc/include/crt/host_defines.h' 2)"
)
