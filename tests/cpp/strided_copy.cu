// A strided copy over strided_layout::KernelLayout, compiled at run time by NVRTC (the example
// examples/gpu_host.rs and the GPU test tests/gpu.rs). `#include "strided_layout.h"` is found
// through NVRTC's include path (the crate's include/ directory).
//
// Grid-stride loop over the linear position t in C order: each thread computes both offsets
// with offset_of_linear (multiply-high, add, shift per axis; no division).
#include "strided_layout.h"

using strided_layout::KernelLayout;

#define STRIDED_COPY(T, NAME, N)                                                                  \
  extern "C" __global__ void NAME##_##N(const T* __restrict__ src, KernelLayout<int, N> sl,       \
                                        T* __restrict__ dst, KernelLayout<int, N> dl, int n) {   \
    int stride = blockDim.x * gridDim.x;                                                         \
    for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < n; t += stride) {                   \
      dst[dl.offset_of_linear(t)] = src[sl.offset_of_linear(t)];                                 \
    }                                                                                            \
  }

STRIDED_COPY(float, strided_copy_f32, 1)
STRIDED_COPY(float, strided_copy_f32, 2)
STRIDED_COPY(float, strided_copy_f32, 3)
STRIDED_COPY(float, strided_copy_f32, 4)
