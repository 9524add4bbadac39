// Kernels whose machine code `scripts/gpu_sass.py` counts: the grid-stride strided copy over
// strided_layout::KernelLayout (rank 1-4, `int` and `long long`), the same copy with the
// interleave axis known to the compiler (what an interleaved layout's elements cost), and a
// naive copy that divides by every extent with the division operator, as a kernel written
// without the packed constants would; and the copy over strided_layout::KernelNestedLayout
// (rank 4, `int`, 1-3 leaves per mode: plain, channel-blocked, blocked twice). Compiled, never run: CI builds it for every target
// architecture with warnings as errors, and the script reads the instructions of each loop.
#include "strided_layout.h"

using strided_layout::KernelLayout;
using strided_layout::KernelNestedLayout;

namespace {

// The naive kernel's loop: the header's grid-stride loop without its plain-layout branch.
template <typename I, typename F>
__device__ __forceinline__ void grid_stride(I n, F body) {
  unsigned long long first =
      static_cast<unsigned long long>(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned long long step = static_cast<unsigned long long>(blockDim.x) * gridDim.x;
  if (n < I(0) || first >= static_cast<unsigned long long>(n)) return;
  if (step > static_cast<unsigned long long>(n)) step = static_cast<unsigned long long>(n);
  const I s = static_cast<I>(step);
  for (I t = static_cast<I>(first);; t += s) {
    body(t);
    if (n - t <= s) break;
  }
}

template <typename I, int N>
__device__ __forceinline__ void copy(const float* __restrict__ src, const KernelLayout<I, N>& sl,
                                     float* __restrict__ dst, const KernelLayout<I, N>& dl, I n) {
  strided_layout::grid_stride_offsets(dl, sl, n, [&](I d, I s) { dst[d] = src[s]; });
}

// One division and one remainder per axis, innermost first.
template <typename I, int N>
__device__ __forceinline__ I naive_offset(const KernelLayout<I, N>& l, I t) {
  I acc = l.offset;
#pragma unroll
  for (int k = N - 1; k >= 0; --k) {
    acc += (t % l.extents[k]) * l.strides[k];
    t /= l.extents[k];
  }
  return acc;
}

}  // namespace

#define SASS_KERNELS(I, NAME, N)                                                                 \
  extern "C" __global__ void copy_##NAME##_##N(const float* __restrict__ src,                    \
                                               KernelLayout<I, N> sl, float* __restrict__ dst,   \
                                               KernelLayout<I, N> dl, I n) {                     \
    copy(src, sl, dst, dl, n);                                                                   \
  }                                                                                              \
  /* The interleave axis fixed (the factor still read): the loop an interleaved layout runs. */ \
  extern "C" __global__ void interleaved_##NAME##_##N(const float* __restrict__ src,             \
                                                      KernelLayout<I, N> sl,                     \
                                                      float* __restrict__ dst,                   \
                                                      KernelLayout<I, N> dl, I n) {              \
    KernelLayout<I, N> s = sl, d = dl;                                                           \
    s.interleave_dimension = d.interleave_dimension = N > 1 ? 1 : 0;                             \
    copy(src, s, dst, d, n);                                                                     \
  }                                                                                              \
  extern "C" __global__ void naive_##NAME##_##N(const float* __restrict__ src,                   \
                                                KernelLayout<I, N> sl, float* __restrict__ dst,  \
                                                KernelLayout<I, N> dl, I n) {                    \
    grid_stride(n, [&](I t) { dst[naive_offset(dl, t)] = src[naive_offset(sl, t)]; });          \
  }

SASS_KERNELS(int, int, 1)
SASS_KERNELS(int, int, 2)
SASS_KERNELS(int, int, 3)
SASS_KERNELS(int, int, 4)
SASS_KERNELS(long long, longlong, 1)
SASS_KERNELS(long long, longlong, 2)
SASS_KERNELS(long long, longlong, 3)
SASS_KERNELS(long long, longlong, 4)

// Nested layouts: 4 modes of B leaves each, every leaf's division done (the loop a oneDNN
// format such as OIhw4i16o4i, B = 3, runs).
#define SASS_NESTED(B)                                                                          \
  extern "C" __global__ void nested_int_4_##B(const float* __restrict__ src,                    \
                                              KernelNestedLayout<int, 4, B> sl,                 \
                                              float* __restrict__ dst,                          \
                                              KernelNestedLayout<int, 4, B> dl, int n) {        \
    strided_layout::grid_stride_offsets(dl, sl, n, [&](int d, int s) { dst[d] = src[s]; });     \
  }

SASS_NESTED(1)
SASS_NESTED(2)
SASS_NESTED(3)
