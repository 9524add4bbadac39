// oneDNN's own reorder, timed: the peer for benches/benches/reorder.rs's `table/` rows that
// README's reorder table quotes. Single thread (run with OMP_NUM_THREADS=1), CPU engine, f32
// (and bf16 for the weight reorders in 2 bytes).
//
// For each case: the reorder primitive is created once, both buffers are filled (not the
// kernel's zero page), the reorder runs 5 times to warm up, then `reps` timed runs; the
// median of 15 batches is printed as microseconds per reorder and GB/s counting bytes read
// plus bytes written (the source's and the destination's logical elements, 8 bytes each for
// f32, 4 for bf16), as the Rust benchmark counts them.
//
// Built and run by scripts/onednn_reorder_bench.sh (g++, oneDNN from pip).
#include <oneapi/dnnl/dnnl.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

using dnnl::memory;
using tag = dnnl::memory::format_tag;

static void time_case(const char *name, memory::dims dims, tag from, tag to, int reps,
                      memory::data_type dt = memory::data_type::f32) {
  dnnl::engine eng(dnnl::engine::kind::cpu, 0);
  dnnl::stream strm(eng);
  memory::desc src_md(dims, dt, from);
  memory::desc dst_md(dims, dt, to);
  memory src(src_md, eng), dst(dst_md, eng);
  // Bytes, not values: a reorder moves them as they are (no conversion between equal types).
  unsigned char *s = static_cast<unsigned char *>(src.get_data_handle());
  unsigned char *d = static_cast<unsigned char *>(dst.get_data_handle());
  for (size_t i = 0; i < src_md.get_size(); i++) s[i] = static_cast<unsigned char>(i % 61 + 64);
  for (size_t i = 0; i < dst_md.get_size(); i++) d[i] = 2;
  dnnl::reorder r(src, dst);
  for (int i = 0; i < 5; i++) r.execute(strm, src, dst);
  strm.wait();
  std::vector<double> us;
  for (int batch = 0; batch < 15; batch++) {
    auto t0 = std::chrono::steady_clock::now();
    for (int i = 0; i < reps; i++) r.execute(strm, src, dst);
    strm.wait();
    auto t1 = std::chrono::steady_clock::now();
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count() / reps);
  }
  std::sort(us.begin(), us.end());
  double median = us[us.size() / 2];
  size_t elements = 1;
  for (auto x : dims) elements *= static_cast<size_t>(x);
  double size = dt == memory::data_type::f32 ? 4.0 : 2.0;
  double gbs = 2.0 * size * static_cast<double>(elements) / (median * 1e3);
  std::printf("onednn\t%s\t%.1f us\t%.2f GB/s\n", name, median, gbs);
}

int main() {
  time_case("nChw8c -> nChw16c 1x128x112x112", {1, 128, 112, 112}, tag::nChw8c, tag::nChw16c,
            20);
  time_case("oihw -> OIhw16i16o 256x256x3x3", {256, 256, 3, 3}, tag::oihw, tag::OIhw16i16o,
            50);
  time_case("OIhw16i16o -> oihw 256x256x3x3", {256, 256, 3, 3}, tag::OIhw16i16o, tag::oihw,
            50);
  time_case("oihw -> OIhw8i8o 256x256x3x3", {256, 256, 3, 3}, tag::oihw, tag::OIhw8i8o, 50);
  time_case("oihw -> OIhw16i16o 256x256x3x3 bf16", {256, 256, 3, 3}, tag::oihw, tag::OIhw16i16o,
            50, memory::data_type::bf16);
  time_case("OIhw16i16o -> oihw 256x256x3x3 bf16", {256, 256, 3, 3}, tag::OIhw16i16o, tag::oihw,
            50, memory::data_type::bf16);
  time_case("OIhw16i16o -> OIhw4i16o4i 256x256x3x3", {256, 256, 3, 3}, tag::OIhw16i16o,
            tag::OIhw4i16o4i, 50);
  time_case("OIhw16i16o -> OIhw4i16o4i 258x262x3x3", {258, 262, 3, 3}, tag::OIhw16i16o,
            tag::OIhw4i16o4i, 50);
  return 0;
}
