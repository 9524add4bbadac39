// A user's program over strided_layout.h, built by build.rs with g++ (as C++) and with nvcc (as
// CUDA, device code included). Reads layouts packed by the Rust crate as text and prints the
// offset of every element in C order, computed by the header.
//
// Input, one layout per line: rank, then the (4 * rank + 5) words of KernelLayout<int, rank>
// in memory order. Output, one line per layout: offset_of_linear(t) for t in 0..volume().
#include "strided_layout.h"

#include <cstdio>

using strided_layout::KernelLayout;

#if defined(__CUDACC__)
// The device side a user writes: compiled for the GPU by nvcc, not run here.
extern "C" __global__ void copy_f32_3(const float* src, KernelLayout<int, 3> sl, float* dst,
                                      KernelLayout<int, 3> dl, int n) {
  strided_layout::grid_stride_offsets(dl, sl, n, [&](int d, int s) { dst[d] = src[s]; });
}
#endif

namespace {

template <int N> bool answer(std::FILE* in) {
  KernelLayout<int, N> k;
  int* words = reinterpret_cast<int*>(&k);
  for (int w = 0; w < 4 * N + 5; ++w) {
    if (std::fscanf(in, "%d", &words[w]) != 1) return false;
  }
  int n = k.volume();
  for (int t = 0; t < n; ++t) std::printf(t ? " %d" : "%d", k.offset_of_linear(t));
  std::printf("\n");
  return true;
}

}  // namespace

int main() {
  int rank;
  while (std::scanf("%d", &rank) == 1) {
    bool ok = rank == 1   ? answer<1>(stdin)
              : rank == 2 ? answer<2>(stdin)
              : rank == 3 ? answer<3>(stdin)
              : rank == 4 ? answer<4>(stdin)
                          : false;
    if (!ok) return 1;
  }
  return 0;
}
