// A strided copy over strided_layout::KernelLayout, compiled at run time by NVRTC (the example
// examples/gpu_host.rs, which prepends the header's text, `strided_layout::KERNEL_HEADER`, and
// the GPU test tests/gpu.rs, which passes the crate's include/ directory as an include path),
// and by nvcc in CI (scripts/gpu-device-check). The include is guarded so that both work.
//
// The header's grid-stride loop (grid_stride_offsets): each thread computes both offsets with
// offset_of_linear (multiply-high, add, shift per axis; no division), the loop cannot overflow
// `int` for any volume KernelLayout<int, N> accepts, and plain layouts skip the interleave
// tests. `n` is the volume; the host checked both buffers hold `required_len()` elements.
#ifndef STRIDED_LAYOUT_H
#include "strided_layout.h"
#endif

using strided_layout::KernelLayout;

#define STRIDED_COPY(T, NAME, N)                                                                  \
  extern "C" __global__ void NAME##_##N(const T* __restrict__ src, KernelLayout<int, N> sl,       \
                                        T* __restrict__ dst, KernelLayout<int, N> dl, int n) {   \
    strided_layout::grid_stride_offsets(dl, sl, n, [&](int d, int s) { dst[d] = src[s]; });       \
  }

STRIDED_COPY(float, strided_copy_f32, 1)
STRIDED_COPY(float, strided_copy_f32, 2)
STRIDED_COPY(float, strided_copy_f32, 3)
STRIDED_COPY(float, strided_copy_f32, 4)

// The same copy over strided_layout::KernelNestedLayout: nested layouts of N modes with at most
// B leaves each (oneDNN's blocked formats: B = 2 for nChw16c, 3 for OIhw4i16o4i), one fast
// division per leaf. `n` is the size; both layouts must have the same mode sizes.
using strided_layout::KernelNestedLayout;

#define NESTED_COPY(T, NAME, N, B)                                                                \
  extern "C" __global__ void NAME##_##N##_##B(const T* __restrict__ src,                          \
                                              KernelNestedLayout<int, N, B> sl,                   \
                                              T* __restrict__ dst,                                \
                                              KernelNestedLayout<int, N, B> dl, int n) {          \
    strided_layout::grid_stride_offsets(dl, sl, n, [&](int d, int s) { dst[d] = src[s]; });       \
  }

NESTED_COPY(float, nested_copy_f32, 4, 2)
NESTED_COPY(float, nested_copy_f32, 4, 3)
