// CuTe's own answers for random nested run-time layouts: host code only, no GPU.
// Built and run by scripts/cute_nested_cases.sh, which writes tests/data/cute_nested.tsv.
// The file is plain C++17 (the `.cu` suffix only says where it comes from): the script
// compiles it with g++ against the CUTLASS/CuTe headers and the CUDA headers they include.
//
// Output: one header line, then one line per layout, fields separated by one tab:
//
//   layout   CuTe's printed form (operator<<), e.g. `((4,3),4):((1,4),12)`, `8:1`, `(8):(1)`
//   size     cute::size
//   cosize   cute::cosize when every stride is >= 0 and size > 0, otherwise `-`. (CUTLASS 4.2
//            computes cosize as 1 + sum over leaves of (extent-1)*|stride|: with a negative
//            stride that is the span max-min+1, not max+1, and with an extent 0 it is
//            meaningless, e.g. 6 for (0,3):(1,3) but 0 for (3,0):(1,3).)
//   rank     cute::rank
//   depth    cute::depth
//   offsets  layout(i) for i in 0..size, comma-separated (CuTe's colexicographic order);
//            `-` when size is 0
//   coords   up to 4 distinct samples `c0;c1;..=offset`, comma-separated (the first is the
//            last coordinate of every mode, the rest random): one integer per top-level
//            mode (c_k in 0..size(mode k)), offset = layout(make_coord(c0, c1, ..)); for an
//            integral layout a single integer `c=offset` with offset = layout(c); `-` when
//            size is 0
//
// The structures (shape profiles) are fixed C++ types listed below; the integers are drawn at
// run time from a fixed-seed xorshift64* generator, so the output is deterministic.

#include <cute/layout.hpp>

#include <array>
#include <cstdint>
#include <cstdio>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

using cute::tuple;

// ---------------------------------------------------------------------------------------------
// Deterministic PRNG (xorshift64*), independent of the standard library.

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

static uint64_t next_u64() {
  uint64_t x = rng_state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  rng_state = x;
  return x * 0x2545F4914F6CDD1Dull;
}

// Uniform-ish integer in [lo, hi] (inclusive); modulo bias is irrelevant here.
static int rand_range(int lo, int hi) {
  uint64_t span = uint64_t(int64_t(hi) - int64_t(lo) + 1);
  return lo + int((next_u64() >> 11) % span);
}

// ---------------------------------------------------------------------------------------------
// Profiles: a profile is `int` or `cute::tuple<profiles...>`. Leaves are filled in order
// (left to right, depth first) from a vector of values.

template <class P> struct Profile;

template <> struct Profile<int> {
  static constexpr int leaves = 1;
  static int make(std::vector<int> const& v, int& k) { return v[k++]; }
};

template <class... Ps> struct Profile<tuple<Ps...>> {
  static constexpr int leaves = (0 + ... + Profile<Ps>::leaves);
  static tuple<Ps...> make(std::vector<int> const& v, int& k) {
    // Braced initialisation evaluates its elements left to right.
    return tuple<Ps...>{Profile<Ps>::make(v, k)...};
  }
};

// ---------------------------------------------------------------------------------------------
// One output line for a layout.

template <class L>
static std::string layout_str(L const& l) {
  std::ostringstream os;
  os << l;
  return os.str();
}

template <class Shape, class Stride, size_t... Is>
static std::string coord_samples(cute::Layout<Shape, Stride> const& l, int nsamples,
                                 std::index_sequence<Is...>) {
  constexpr size_t R = sizeof...(Is);
  std::array<int, R> msz = {int(cute::size<Is>(l))...};
  std::string out;
  std::vector<std::array<int, R>> seen;
  for (int s = 0, got = 0; s < 4 * nsamples && got < nsamples; ++s) {
    std::array<int, R> c{};
    // The first sample is the last coordinate of every mode, the others are random and
    // distinct.
    for (size_t m = 0; m < R; ++m) c[m] = (s == 0) ? msz[m] - 1 : rand_range(0, msz[m] - 1);
    bool dup = false;
    for (auto const& d : seen) dup = dup || (d == c);
    if (dup) continue;
    seen.push_back(c);
    ++got;
    int off = int(l(cute::make_coord(c[Is]...)));
    if (!out.empty()) out += ",";
    for (size_t m = 0; m < R; ++m) {
      if (m) out += ";";
      out += std::to_string(c[m]);
    }
    out += "=" + std::to_string(off);
  }
  return out;
}

template <class Shape, class Stride>
static std::string coords_field(cute::Layout<Shape, Stride> const& l, int nsamples) {
  if constexpr (cute::is_tuple<Shape>::value) {
    return coord_samples(l, nsamples, std::make_index_sequence<cute::tuple_size<Shape>::value>{});
  } else {
    std::string out;
    int n = int(cute::size(l));
    std::vector<int> seen;
    for (int s = 0, got = 0; s < 4 * nsamples && got < nsamples; ++s) {
      int c = (s == 0) ? n - 1 : rand_range(0, n - 1);
      bool dup = false;
      for (int d : seen) dup = dup || (d == c);
      if (dup) continue;
      seen.push_back(c);
      ++got;
      if (!out.empty()) out += ",";
      out += std::to_string(c) + "=" + std::to_string(int(l(c)));
    }
    return out;
  }
}

template <class Shape, class Stride>
static void emit(cute::Layout<Shape, Stride> const& l, bool strides_nonneg) {
  int n = int(cute::size(l));
  std::string line = layout_str(l);
  line += "\t" + std::to_string(n);
  line += "\t" + ((strides_nonneg && n > 0) ? std::to_string(int(cute::cosize(l))) : std::string("-"));
  line += "\t" + std::to_string(int(cute::rank(l)));
  line += "\t" + std::to_string(int(cute::depth(l)));
  line += "\t";
  if (n == 0) {
    line += "-";
  } else {
    for (int i = 0; i < n; ++i) {
      if (i) line += ",";
      line += std::to_string(int(l(i)));
    }
  }
  line += "\t";
  line += (n == 0) ? std::string("-") : coords_field(l, 4);
  std::fputs(line.c_str(), stdout);
  std::fputc('\n', stdout);
}

// ---------------------------------------------------------------------------------------------
// Random layouts of a given profile.

constexpr int kMaxSize = 256;

template <class P>
static void random_layout() {
  constexpr int L = Profile<P>::leaves;
  static_assert(L >= 1 && L <= 8, "at most 8 leaves");
  std::vector<int> ext(L), str(L);
  // Extents 1..6, total size <= kMaxSize (rejection; some draws favour 1 and 2).
  for (;;) {
    int maxe = (rand_range(0, 3) == 0) ? 3 : 6;
    long prod = 1;
    for (int k = 0; k < L; ++k) {
      ext[k] = rand_range(1, maxe);
      prod *= ext[k];
    }
    if (prod <= kMaxSize) break;
  }
  // Strides: mixed signs in -8..16, or non-negative 0..16, or small -2..4.
  int kind = rand_range(0, 9);
  bool nonneg = true;
  for (int k = 0; k < L; ++k) {
    if (kind < 4) str[k] = rand_range(-8, 16);
    else if (kind < 8) str[k] = rand_range(0, 16);
    else str[k] = rand_range(-2, 4);
    if (str[k] < 0) nonneg = false;
  }
  int ks = 0, kd = 0;
  P shape = Profile<P>::make(ext, ks);
  P stride = Profile<P>::make(str, kd);
  emit(cute::make_layout(shape, stride), nonneg);
}

// The shape profiles (at most 8 leaves, depth at most 3).
using I = int;
template <class... Ts> using T = tuple<Ts...>;

using P00 = I;                                    // 8
using P01 = T<I>;                                 // (8)
using P02 = T<I, I>;                              // (a,b)
using P03 = T<I, I, I>;                           // (a,b,c)
using P04 = T<I, I, I, I>;                        // (a,b,c,d)
using P05 = T<T<I, I>, I>;                        // ((a,b),c)
using P06 = T<I, T<I, I>>;                        // (a,(b,c))
using P07 = T<T<I, I>, T<I, I>>;                  // ((a,b),(c,d))
using P08 = T<T<I, I, I>, I>;                     // ((a,b,c),d)
using P09 = T<T<T<I, I>, I>, I>;                  // (((a,b),c),d)
using P10 = T<I, T<I, T<I, I>>>;                  // (a,(b,(c,d)))
using P11 = T<T<I, I>, I, T<I, I>>;               // ((a,b),c,(d,e))
using P12 = T<T<I, I>>;                           // ((a,b))
using P13 = T<T<I>>;                              // ((a))
using P14 = T<I, T<I, I>, I>;                     // (a,(b,c),d)
using P15 = T<T<I, T<I, I>>, T<I, I>>;            // ((a,(b,c)),(d,e))
using P16 = T<T<T<I, I>, T<I, I>>, I>;            // (((a,b),(c,d)),e)
using P17 = T<T<I, I>, T<I, I>, T<I, I>, T<I, I>>;// ((a,b),(c,d),(e,f),(g,h))
using P18 = T<I, I, T<I, I, I>>;                  // (a,b,(c,d,e))
using P19 = T<T<I, I, I, I>, T<I, I, I, I>>;      // ((a,b,c,d),(e,f,g,h))
using P20 = T<T<T<I>>, I>;                        // (((a)),b)
using P21 = T<I, T<T<I, I>, T<I, I>>>;            // (a,((b,c),(d,e)))
using P22 = T<T<I, I>, T<T<I, I>, I>, I>;         // ((a,b),((c,d),e),f)
using P23 = T<T<T<I, I, I>, I>, T<I, I>>;         // (((a,b,c),d),(e,f))
using P24 = T<I, I, I, T<I, T<I, I>>>;            // (a,b,c,(d,(e,f)))
using P25 = T<T<I>, T<I, I>>;                     // ((a),(b,c))
constexpr int kProfiles = 26;

static void random_case(int p) {
  switch (p) {
    case 0: random_layout<P00>(); break;
    case 1: random_layout<P01>(); break;
    case 2: random_layout<P02>(); break;
    case 3: random_layout<P03>(); break;
    case 4: random_layout<P04>(); break;
    case 5: random_layout<P05>(); break;
    case 6: random_layout<P06>(); break;
    case 7: random_layout<P07>(); break;
    case 8: random_layout<P08>(); break;
    case 9: random_layout<P09>(); break;
    case 10: random_layout<P10>(); break;
    case 11: random_layout<P11>(); break;
    case 12: random_layout<P12>(); break;
    case 13: random_layout<P13>(); break;
    case 14: random_layout<P14>(); break;
    case 15: random_layout<P15>(); break;
    case 16: random_layout<P16>(); break;
    case 17: random_layout<P17>(); break;
    case 18: random_layout<P18>(); break;
    case 19: random_layout<P19>(); break;
    case 20: random_layout<P20>(); break;
    case 21: random_layout<P21>(); break;
    case 22: random_layout<P22>(); break;
    case 23: random_layout<P23>(); break;
    case 24: random_layout<P24>(); break;
    case 25: random_layout<P25>(); break;
  }
}

int main() {
  using cute::make_layout;
  using cute::make_shape;
  using cute::make_stride;

  std::puts("layout\tsize\tcosize\trank\tdepth\toffsets\tcoords");

  // Fixed edge cases first.
  emit(make_layout(8, 1), true);                                                   // 8:1
  emit(make_layout(make_shape(8), make_stride(1)), true);                          // (8):(1)
  emit(make_layout(make_shape(make_shape(4, 3), 4), make_stride(make_stride(1, 4), 12)), true);
  emit(make_layout(make_shape(2, 3), make_stride(0, 1)), true);                    // (2,3):(0,1)
  emit(make_layout(make_shape(1, 1), make_stride(0, 0)), true);                    // (1,1):(0,0)
  emit(make_layout(1, 0), true);                                                   // 1:0
  emit(make_layout(make_shape(2, 3), make_stride(-3, -1)), false);                 // (2,3):(-3,-1)
  emit(make_layout(make_shape(2, make_shape(3, make_shape(2, 2))),
                   make_stride(12, make_stride(4, make_stride(2, 1)))), true);     // (2,(3,(2,2)))
  emit(make_layout(make_shape(make_shape(2, 2), 3), make_stride(make_stride(-1, 6), 2)), false);
  emit(make_layout(make_shape(make_shape(3)), make_stride(make_stride(2))), true); // ((3)):((2))
  // Extent 0: CuTe accepts it (size 0); cosize is written as `-` (see the header comment).
  emit(make_layout(0, 1), true);                                                   // 0:1
  emit(make_layout(make_shape(3, 0), make_stride(1, 3)), true);                    // (3,0):(1,3)
  emit(make_layout(make_shape(0, 3), make_stride(1, 3)), true);                    // (0,3):(1,3)
  emit(make_layout(make_shape(make_shape(2, 0), 4), make_stride(make_stride(1, 2), 0)), true);

  // Random layouts: cycle through the profiles so that each gets the same share.
  constexpr int kCases = 10010;  // 385 per profile
  for (int i = 0; i < kCases; ++i) random_case(i % kProfiles);
  return 0;
}
