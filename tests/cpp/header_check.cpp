// Reads KernelLayout values as raw bytes (written by tests/header.rs) with queries, answers them
// with include/strided_layout.h, and writes the answers as raw bytes.
//
// Input records:  u32 type (0: int32, 1: int64), u32 rank, u32 queries,
//                 the KernelLayout<I, rank> bytes, then per query rank indices and a linear
//                 position (each an I).
// Output records: volume(), then per query offset_of, offset_of_linear, checked (0/1), the
//                 checked offset (0 when refused), is_plain (0/1) and, for a plain layout,
//                 as_plain().offset_of_linear (else 0), each an I.
//
// Nested records: u32 type (2: int32, 3: int64), u32 rank | leaves << 8, u32 queries, the
//                 KernelNestedLayout<I, rank, leaves> bytes, then per query as above.
// Their output:   size, then per query offset_of, offset_of_linear, checked (0/1), the
//                 checked offset (0 when refused), is_current (0/1), each an I.
#include "strided_layout.h"

#include <cstdint>
#include <cstdio>

namespace {

template <typename T> bool read(std::FILE* in, T* v, std::size_t n = 1) {
  return std::fread(v, sizeof(T), n, in) == n;
}
template <typename T> void write(std::FILE* out, T v) { std::fwrite(&v, sizeof v, 1, out); }

// Reads `queries` queries for the parameter k (N indices and a linear position each) and
// writes the answers both parameter kinds give, then `extra(k, linear)`'s own.
template <typename I, int N, typename K, typename F>
bool answer(std::FILE* in, std::FILE* out, const K& k, std::uint32_t queries, F extra) {
  for (std::uint32_t q = 0; q < queries; ++q) {
    I index[N];
    I linear;
    if (!read(in, index, N) || !read(in, &linear)) return false;
    I checked = 0;
    bool ok = k.checked_offset_of(index, &checked);
    write(out, k.offset_of(index));
    write(out, k.offset_of_linear(linear));
    write(out, static_cast<I>(ok ? 1 : 0));
    write(out, ok ? checked : I(0));
    extra(linear);
  }
  return true;
}

template <typename I, int N> bool run(std::FILE* in, std::FILE* out, std::uint32_t queries) {
  strided_layout::KernelLayout<I, N> k;
  if (!read(in, &k)) return false;  // raw bytes, exactly as Rust laid them out
  write(out, k.volume());
  return answer<I, N>(in, out, k, queries, [&](I linear) {
    write(out, static_cast<I>(k.is_plain() ? 1 : 0));
    write(out, k.is_plain() ? k.as_plain().offset_of_linear(linear) : I(0));
  });
}

template <typename I, int N, int B>
bool run_nested(std::FILE* in, std::FILE* out, std::uint32_t queries) {
  strided_layout::KernelNestedLayout<I, N, B> k;
  if (!read(in, &k)) return false;  // raw bytes, exactly as Rust laid them out
  write(out, k.size);
  return answer<I, N>(in, out, k, queries,
                      [&](I) { write(out, static_cast<I>(k.is_current() ? 1 : 0)); });
}

template <typename I, int N>
bool nested_leaves(std::FILE* in, std::FILE* out, std::uint32_t leaves, std::uint32_t queries) {
  switch (leaves) {
    case 1: return run_nested<I, N, 1>(in, out, queries);
    case 2: return run_nested<I, N, 2>(in, out, queries);
    case 3: return run_nested<I, N, 3>(in, out, queries);
    default: return false;
  }
}

template <typename I>
bool dispatch_nested(std::FILE* in, std::FILE* out, std::uint32_t shape, std::uint32_t queries) {
  std::uint32_t leaves = shape >> 8;
  switch (shape & 0xff) {
    case 1: return nested_leaves<I, 1>(in, out, leaves, queries);
    case 2: return nested_leaves<I, 2>(in, out, leaves, queries);
    case 3: return nested_leaves<I, 3>(in, out, leaves, queries);
    case 4: return nested_leaves<I, 4>(in, out, leaves, queries);
    default: return false;
  }
}

template <typename I> bool dispatch(std::FILE* in, std::FILE* out, std::uint32_t rank,
                                    std::uint32_t queries) {
  switch (rank) {
    case 1: return run<I, 1>(in, out, queries);
    case 2: return run<I, 2>(in, out, queries);
    case 3: return run<I, 3>(in, out, queries);
    case 4: return run<I, 4>(in, out, queries);
    default: return false;
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  std::FILE* in = std::fopen(argv[1], "rb");
  std::FILE* out = std::fopen(argv[2], "wb");
  if (!in || !out) return 2;
  std::uint32_t head[3];
  long records = 0;
  while (read(in, head, 3)) {
    bool ok = false;
    switch (head[0]) {
      case 0: ok = dispatch<std::int32_t>(in, out, head[1], head[2]); break;
      case 1: ok = dispatch<std::int64_t>(in, out, head[1], head[2]); break;
      case 2: ok = dispatch_nested<std::int32_t>(in, out, head[1], head[2]); break;
      case 3: ok = dispatch_nested<std::int64_t>(in, out, head[1], head[2]); break;
      default: break;
    }
    if (!ok) {
      std::fprintf(stderr, "bad record %ld\n", records);
      return 3;
    }
    ++records;
  }
  std::fclose(out);
  std::printf("%ld records\n", records);
  return 0;
}
