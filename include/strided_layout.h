// strided_layout.h: the device side of the Rust crate `strided-layout`'s `KernelLayout<I, N>`.
//
// C++17, no dependencies (no standard headers, so NVRTC compiles it as is). Under nvcc or NVRTC
// (`__CUDACC__` / `__CUDACC_RTC__`) every function is `__host__ __device__`; otherwise it is
// plain inline C++. The struct's bytes are exactly those of the Rust
// `strided_layout::KernelLayout<I, N>` (pass it by value, e.g. cudarc `builder.arg(&param)`):
//
//   I extents[N]; I strides[N]; I offset; I interleave_dimension; I interleave_factor;
//   I pitch_multipliers[N]; I pitch_shifts[N]; I factor_multiplier; I factor_shift;
//
// size (4N + 5) * sizeof(I), no padding; asserted below and on the Rust side. Values are in
// elements. The crate's `tests/header.rs` compiles this header and checks every function
// against the crate on thousands of random layouts, so the two cannot drift.
//
//   offset_of(i) = offset + sum_{k != d} i_k * s_k + (i_d / f) * s_d + i_d % f   (d, f: interleave)
//
// `offset_of_linear(t)` is the offset of the t-th element in C order (last axis fastest), for the
// grid-stride loop; it divides by each axis pitch (the product of the extents after the axis)
// with a multiply-high, an add and a shift (Granlund-Montgomery round-up method, the constants
// packed by the host), never with a division instruction. Arithmetic is modulo 2^bits (done in
// the unsigned type), exactly as the Rust side's wrapping operations; for a layout packed by
// the crate every result is the true offset.
//
// A kernel does no bounds checks: before a launch, check on the host that each device buffer
// holds its layout's `required_len()` elements (Rust `Layout::required_len`, in elements like
// every offset here), and pass the volume as the loop's bound (`grid_stride_offsets` below).
//
// I is one of: signed char, short, int, long, long long and their unsigned forms (so also
// int8_t..int64_t, uint8_t..uint64_t; the crate's i8..i64, u8..u64 of the same width).
// N >= 1 (a rank-0 layout is its `offset`).
//
// `KernelNestedLayout<I, N, B>` is the Rust `strided_layout::gpu::KernelNestedLayout<I, N, B>`:
// a nested layout (CuTe's modes; oneDNN's formats, blocked on several axes or one axis twice;
// partial last blocks), N top-level modes of at most B leaves each, one fast division per leaf:
//
//   I version; I offset; I size; I sizes[N]; I mode_multipliers[N]; I mode_shifts[N];
//   I extents[N][B]; I strides[N][B]; I weights[N][B]; I leaf_multipliers[N][B];
//   I leaf_shifts[N][B];
//
// size (3 + 3N + 5NB) * sizeof(I), no padding. Its first word is the ABI version below
// (`strided_layout::gpu::ABI_VERSION` in Rust); `is_current()` tests it.
//
//   offset_of(c) = offset + sum_k sum_b (c_k / p_kb) * weights[k][b]
//
// with p_kb the pitch of leaf b in mode k (the product of the extents of the leaves before it)
// and weights[k][b] = s_b - e_{b-1} * s_{b-1}: the digits (c_k / p_b) % e_b regrouped, so each
// leaf costs one multiply-high division and one multiply-add. `offset_of_linear(t)` takes the
// 1-D coordinate first mode fastest (CuTe's `layout(t)`).
//
// SPDX-License-Identifier: MIT OR Apache-2.0

#ifndef STRIDED_LAYOUT_H
#define STRIDED_LAYOUT_H

// The version of the parameter ABI: 1 was this header with KernelLayout alone (unchanged), 2
// adds KernelNestedLayout, whose first word holds it.
#define STRIDED_LAYOUT_ABI_VERSION 2

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define STRIDED_LAYOUT_HD __host__ __device__ __forceinline__
#else
#define STRIDED_LAYOUT_HD inline
#endif

namespace strided_layout {

namespace detail {

// The unsigned type of the same width, and the width, for each supported index type.
template <typename I> struct index_traits;
// `arith_type` is where the offset math runs: at least `unsigned int`, so that no operand is
// promoted to (signed, overflowing) `int`; results are truncated back to the width of I.
#define STRIDED_LAYOUT_INDEX(T, UT, AT, BITS, SIGNED)                                           \
  template <> struct index_traits<T> {                                                         \
    typedef UT unsigned_type;                                                                  \
    typedef AT arith_type;                                                                     \
    static constexpr unsigned bits = BITS;                                                     \
    static constexpr bool is_signed = SIGNED;                                                  \
  };
STRIDED_LAYOUT_INDEX(signed char, unsigned char, unsigned, 8, true)
STRIDED_LAYOUT_INDEX(unsigned char, unsigned char, unsigned, 8, false)
STRIDED_LAYOUT_INDEX(short, unsigned short, unsigned, 16, true)
STRIDED_LAYOUT_INDEX(unsigned short, unsigned short, unsigned, 16, false)
STRIDED_LAYOUT_INDEX(int, unsigned int, unsigned int, 32, true)
STRIDED_LAYOUT_INDEX(unsigned int, unsigned int, unsigned int, 32, false)
STRIDED_LAYOUT_INDEX(long long, unsigned long long, unsigned long long, 64, true)
STRIDED_LAYOUT_INDEX(unsigned long long, unsigned long long, unsigned long long, 64, false)
STRIDED_LAYOUT_INDEX(long, unsigned long, unsigned long, 8 * sizeof(long), true)
STRIDED_LAYOUT_INDEX(unsigned long, unsigned long, unsigned long, 8 * sizeof(long), false)
#undef STRIDED_LAYOUT_INDEX

static_assert(sizeof(short) == 2 && sizeof(int) == 4 && sizeof(long long) == 8,
              "strided_layout.h assumes 16-bit short, 32-bit int, 64-bit long long");

// The high half of the double-width product a * b.
STRIDED_LAYOUT_HD unsigned char mulhi(unsigned char a, unsigned char b) {
  return static_cast<unsigned char>((static_cast<unsigned>(a) * b) >> 8);
}
STRIDED_LAYOUT_HD unsigned short mulhi(unsigned short a, unsigned short b) {
  return static_cast<unsigned short>((static_cast<unsigned>(a) * b) >> 16);
}
STRIDED_LAYOUT_HD unsigned int mulhi(unsigned int a, unsigned int b) {
#if defined(__CUDA_ARCH__)
  return __umulhi(a, b);
#else
  return static_cast<unsigned int>((static_cast<unsigned long long>(a) * b) >> 32);
#endif
}
STRIDED_LAYOUT_HD unsigned long long mulhi(unsigned long long a, unsigned long long b) {
#if defined(__CUDA_ARCH__)
  return __umul64hi(a, b);
#elif defined(__SIZEOF_INT128__)
  __extension__ typedef unsigned __int128 wide;  // GCC, Clang: no -Wpedantic warning
  return static_cast<unsigned long long>((static_cast<wide>(a) * b) >> 64);
#else
  // Schoolbook on 32-bit halves.
  const unsigned long long lo_mask = 0xffffffffull;
  unsigned long long a0 = a & lo_mask, a1 = a >> 32, b0 = b & lo_mask, b1 = b >> 32;
  unsigned long long p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
  unsigned long long mid = (p00 >> 32) + (p01 & lo_mask) + (p10 & lo_mask);
  return p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
#endif
}

// `long` (int64_t on LP64 Linux, 32 bits on Windows): as the fixed type of its width.
template <unsigned Size> struct same_width;
template <> struct same_width<4> { typedef unsigned int type; };
template <> struct same_width<8> { typedef unsigned long long type; };
STRIDED_LAYOUT_HD unsigned long mulhi(unsigned long a, unsigned long b) {
  typedef same_width<sizeof(unsigned long)>::type T;
  return static_cast<unsigned long>(mulhi(static_cast<T>(a), static_cast<T>(b)));
}

// n / d from the constants the host packed for d (`KernelIndex::divide_fast` in Rust): the
// signed form (n < 2^(W-1), so t + n does not overflow) and the unsigned one.
template <typename U, bool Signed> struct divider;
template <typename U> struct divider<U, true> {
  STRIDED_LAYOUT_HD static U divide(U n, U m, U shift, unsigned bits) {
    U t = mulhi(n, m);
    U sum = static_cast<U>(t + n);
    return static_cast<U>(sum >> (static_cast<unsigned>(shift) & (bits - 1)));
  }
};
template <typename U> struct divider<U, false> {
  STRIDED_LAYOUT_HD static U divide(U n, U m, U shift, unsigned bits) {
    U t = mulhi(n, m);
    U s1 = shift < U(1) ? shift : U(1);
    U s2 = static_cast<U>(shift - s1);
    U diff = static_cast<U>(n - t);
    U half = static_cast<U>(diff >> static_cast<unsigned>(s1));
    U sum = static_cast<U>(t + half);
    return static_cast<U>(sum >> (static_cast<unsigned>(s2) & (bits - 1)));
  }
};

// n / d for n >= 0, from d's packed multiplier and shift (both parameter kinds).
template <typename I> STRIDED_LAYOUT_HD I divide_fast(I n, I multiplier, I shift) {
  typedef typename index_traits<I>::unsigned_type U;
  return static_cast<I>(divider<U, index_traits<I>::is_signed>::divide(
      static_cast<U>(n), static_cast<U>(multiplier), static_cast<U>(shift),
      index_traits<I>::bits));
}

// Whether v < 0 (never for an unsigned I), without a comparison compilers warn about.
template <typename I> STRIDED_LAYOUT_HD bool is_negative(I v) {
  typedef typename index_traits<I>::unsigned_type U;
  return index_traits<I>::is_signed &&
         ((static_cast<U>(v) >> (index_traits<I>::bits - 1)) & 1u);
}

}  // namespace detail

template <typename I, int N>
struct KernelLayout {
  static_assert(N >= 1, "KernelLayout<I, N>: N >= 1 (a rank-0 layout is its offset)");

  typedef typename detail::index_traits<I>::unsigned_type U;
  typedef typename detail::index_traits<I>::arith_type A;
  static constexpr unsigned bits = detail::index_traits<I>::bits;
  static constexpr bool is_signed = detail::index_traits<I>::is_signed;

  I extents[N];
  I strides[N];
  I offset;
  I interleave_dimension;
  I interleave_factor;
  I pitch_multipliers[N];
  I pitch_shifts[N];
  I factor_multiplier;
  I factor_shift;

  // n / d for n >= 0, from d's packed multiplier and shift.
  STRIDED_LAYOUT_HD static I divide_fast(I n, I multiplier, I shift) {
    return detail::divide_fast(n, multiplier, shift);
  }

  // Whether v < 0 (never for an unsigned I).
  STRIDED_LAYOUT_HD static bool is_negative(I v) { return detail::is_negative(v); }

  // The interleave axis, or -1 for a plain strided layout (factor <= 1 or no such axis).
  STRIDED_LAYOUT_HD int split_axis() const {
    if (!(interleave_factor > I(1))) return -1;
    // A negative signed dimension reads as "no axis", as in Rust (`to_usize` fails).
    if (is_negative(interleave_dimension)) return -1;
    U d = static_cast<U>(interleave_dimension);
    return d < static_cast<U>(N) ? static_cast<int>(d) : -1;
  }

  // (i / f) * s + i % f on the interleave axis, modulo 2^bits.
  STRIDED_LAYOUT_HD A split_term(I i, I s) const {
    A block = static_cast<U>(divide_fast(i, factor_multiplier, factor_shift));
    A lane = static_cast<A>(static_cast<U>(i)) - block * static_cast<U>(interleave_factor);
    return block * static_cast<U>(s) + lane;
  }

  // The element offset of `index` (each index[k] in 0..extents[k]); unspecified otherwise.
  // Every array is indexed by the loop counter only (no `index[d]`), so that under nvcc the
  // unrolled loop keeps the parameter in registers instead of copying it to local memory.
  STRIDED_LAYOUT_HD I offset_of(const I* index) const {
    static_assert(sizeof(KernelLayout) == (4 * N + 5) * sizeof(I),
                  "KernelLayout must be (4N + 5) values of I, as in Rust");
    const int d = split_axis();
    A acc = static_cast<U>(offset);
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#pragma unroll
#endif
    for (int k = 0; k < N; ++k) {
      acc += k == d ? split_term(index[k], strides[k])
                    : static_cast<A>(static_cast<U>(index[k])) * static_cast<U>(strides[k]);
    }
    return static_cast<I>(static_cast<U>(acc));
  }

  // The offset of the element at position `linear` in C order, for linear in 0..volume().
  STRIDED_LAYOUT_HD I offset_of_linear(I linear) const {
    const int d = split_axis();
    A acc = static_cast<U>(offset);
    // q_{k-1} = linear / pitch_{k-1}; 0 before axis 0 (linear < volume).
    A outer = 0;
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#pragma unroll
#endif
    for (int k = 0; k < N; ++k) {
      // q_k = linear / pitch_k (the innermost pitch is 1). The offset sum of i_k * s_k, with
      // i_k = q_k - extents[k] * q_{k-1}, regroups as the sum of q_k * (s_k - extents[k+1] *
      // s_{k+1}): one multiply-add per axis by a coefficient a grid-stride loop hoists.
      A q = (k + 1 == N)
                ? static_cast<A>(static_cast<U>(linear))
                : static_cast<A>(static_cast<U>(
                      divide_fast(linear, pitch_multipliers[k], pitch_shifts[k])));
      A c = static_cast<U>(strides[k]);
      if (k + 1 < N) {
        c -= static_cast<A>(static_cast<U>(extents[k + 1])) * static_cast<U>(strides[k + 1]);
      }
      acc += q * c;
      if (k == d) {
        // The interleaved axis: its term i_d * s_d becomes (i_d / f) * s_d + i_d % f.
        U i = static_cast<U>(q - static_cast<A>(static_cast<U>(extents[k])) * outer);
        acc -= static_cast<A>(i) * static_cast<U>(strides[k]);
        acc += split_term(static_cast<I>(i), strides[k]);
      }
      outer = q;
    }
    return static_cast<I>(static_cast<U>(acc));
  }

  // Whether no axis is interleaved (the interleave factor is 1, or the value names no axis).
  STRIDED_LAYOUT_HD bool is_plain() const { return split_axis() < 0; }

  // This layout with its interleave factor the constant 1: the same offsets for a plain
  // layout (is_plain()), computed without the interleave tests, which a compiler drops once it
  // sees the constant. Take it once, outside a loop, after testing is_plain(); for an
  // interleaved layout it is the layout without its interleave (other offsets).
  STRIDED_LAYOUT_HD KernelLayout as_plain() const {
    KernelLayout plain = *this;
    plain.interleave_dimension = I(0);
    plain.interleave_factor = I(1);
    return plain;
  }

  // The offset of `index` into *out and true, or false if some index[k] is outside 0..extents[k].
  STRIDED_LAYOUT_HD bool checked_offset_of(const I* index, I* out) const {
    for (int k = 0; k < N; ++k) {
      if (is_negative(index[k]) || !(index[k] < extents[k])) return false;
    }
    *out = offset_of(index);
    return true;
  }

  // The number of elements (product of the extents, modulo 2^bits).
  STRIDED_LAYOUT_HD I volume() const {
    A v = 1;
    for (int k = 0; k < N; ++k) v *= static_cast<U>(extents[k]);
    return static_cast<I>(static_cast<U>(v));
  }
};

template <typename I, int N, int B>
struct KernelNestedLayout {
  static_assert(N >= 1 && B >= 1, "KernelNestedLayout<I, N, B>: N >= 1 modes of B >= 1 leaves");

  typedef typename detail::index_traits<I>::unsigned_type U;
  typedef typename detail::index_traits<I>::arith_type A;
  static constexpr unsigned bits = detail::index_traits<I>::bits;
  static constexpr bool is_signed = detail::index_traits<I>::is_signed;

  I version;
  I offset;
  I size;
  I sizes[N];
  I mode_multipliers[N];
  I mode_shifts[N];
  I extents[N][B];
  I strides[N][B];
  I weights[N][B];
  I leaf_multipliers[N][B];
  I leaf_shifts[N][B];

  // Whether the host packed this value for this header's ABI.
  STRIDED_LAYOUT_HD bool is_current() const {
    return version == static_cast<I>(STRIDED_LAYOUT_ABI_VERSION);
  }

  // n / d for n >= 0, from d's packed multiplier and shift.
  STRIDED_LAYOUT_HD static I divide_fast(I n, I multiplier, I shift) {
    return detail::divide_fast(n, multiplier, shift);
  }

  // Mode k's leaves past the first: sum_{b >= 1} (c / p_b) * weights[k][b], modulo 2^bits.
  STRIDED_LAYOUT_HD A upper_offset(int k, I c) const {
    A acc = 0;
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#pragma unroll
#endif
    for (int b = 1; b < B; ++b) {
      I q = divide_fast(c, leaf_multipliers[k][b], leaf_shifts[k][b]);
      acc += static_cast<A>(static_cast<U>(q)) * static_cast<U>(weights[k][b]);
    }
    return acc;
  }

  // The element offset of `index` (index[k] in 0..sizes[k], mode k's coordinate); unspecified
  // otherwise. Arrays are indexed by the loop counters only (registers under nvcc).
  STRIDED_LAYOUT_HD I offset_of(const I* index) const {
    static_assert(sizeof(KernelNestedLayout) == (3 + 3 * N + 5 * N * B) * sizeof(I),
                  "KernelNestedLayout must be 3 + 3N + 5NB values of I, as in Rust");
    A acc = static_cast<U>(offset);
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#pragma unroll
#endif
    for (int k = 0; k < N; ++k) {
      acc += static_cast<A>(static_cast<U>(index[k])) * static_cast<U>(weights[k][0]);
      acc += upper_offset(k, index[k]);
    }
    return static_cast<I>(static_cast<U>(acc));
  }

  // The offset of the 1-D coordinate `linear` (first mode fastest, as CuTe's layout(linear)),
  // for linear in 0..size. With q_k = linear / P_k, mode k's coordinate is
  // c_k = q_k - sizes[k] * q_{k+1}; the first leaves' terms, sum_k c_k * weights[k][0], regroup
  // as sum_k q_k * (weights[k][0] - sizes[k-1] * weights[k-1][0]) (coefficients a grid-stride
  // loop hoists), so a mode of one leaf costs one division and one multiply-add, as an axis of
  // KernelLayout does; the other leaves take c_k.
  STRIDED_LAYOUT_HD I offset_of_linear(I linear) const {
    A acc = static_cast<U>(offset);
    I outer = 0;  // q_{k-1}
#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#pragma unroll
#endif
    for (int k = 0; k < N; ++k) {
      I q = k == 0 ? linear : divide_fast(linear, mode_multipliers[k], mode_shifts[k]);
      A c = static_cast<U>(weights[k][0]);
      if (k > 0) {
        c -= static_cast<A>(static_cast<U>(sizes[k - 1])) * static_cast<U>(weights[k - 1][0]);
        if (B > 1) {
          A inner = static_cast<A>(static_cast<U>(outer)) -
                    static_cast<A>(static_cast<U>(sizes[k - 1])) * static_cast<U>(q);
          acc += upper_offset(k - 1, static_cast<I>(static_cast<U>(inner)));
        }
      }
      acc += static_cast<A>(static_cast<U>(q)) * c;
      outer = q;
    }
    if (B > 1) acc += upper_offset(N - 1, outer);
    return static_cast<I>(static_cast<U>(acc));
  }

  // The offset of `index` into *out and true, or false if some index[k] is outside 0..sizes[k].
  STRIDED_LAYOUT_HD bool checked_offset_of(const I* index, I* out) const {
    for (int k = 0; k < N; ++k) {
      if (detail::is_negative(index[k]) || !(index[k] < sizes[k])) return false;
    }
    *out = offset_of(index);
    return true;
  }
};

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
namespace detail {
// Runs run(x, y) on the two layouts; for two plain KernelLayouts, on their as_plain() copies,
// so the interleave corrections and their tests leave the loop.
template <typename LA, typename LB, typename R>
__device__ __forceinline__ void with_plain(const LA& a, const LB& b, const R& run) {
  run(a, b);
}
template <typename I, int N, typename R>
__device__ __forceinline__ void with_plain(const KernelLayout<I, N>& a,
                                           const KernelLayout<I, N>& b, const R& run) {
  if (a.is_plain() && b.is_plain()) {
    run(a.as_plain(), b.as_plain());
  } else {
    run(a, b);
  }
}

// The loop of grid_stride_offsets (below) from this thread's first position: f(x's offset,
// y's offset) at every position it owns. A function object, not a generic lambda, which NVRTC
// before 13 refuses in JIT mode (no execution space on its call operator).
template <typename I, typename F> struct grid_loop {
  const unsigned long long& first;
  const I& step;
  const I& n;
  F& f;
  template <typename LA, typename LB>
  __device__ __forceinline__ void operator()(const LA& x, const LB& y) const {
    for (I t = static_cast<I>(first);; t += step) {
      f(x.offset_of_linear(t), y.offset_of_linear(t));
      if (n - t <= step) break;
    }
  }
};

// The grid-stride loop of grid_stride_offsets (below) over any two layouts with
// offset_of_linear.
template <typename I, typename LA, typename LB, typename F>
__device__ __forceinline__ void grid_stride(const LA& a, const LB& b, I n, F& f) {
  typedef unsigned long long W;
  W first = static_cast<W>(blockIdx.x) * blockDim.x + threadIdx.x;
  W step = static_cast<W>(blockDim.x) * gridDim.x;
  if (is_negative(n) || first >= static_cast<W>(n)) return;
  if (step > static_cast<W>(n)) step = static_cast<W>(n);
  const I s = static_cast<I>(step);
  const grid_loop<I, F> run = {first, s, n, f};
  with_plain(a, b, run);
}
}  // namespace detail

// The grid-stride loop of a kernel over two layouts of the same extents: calls
// f(a_offset, b_offset) for every position t in 0..n this thread owns (t = its global thread
// number, then every blockDim.x * gridDim.x), with n the layouts' volume (pass `volume()`,
// which `KernelLayout::from_layout` checked fits I).
//
// - It never overflows I: the first position and the step are taken in 64 bits, the step
//   capped at n, and a position advances only while n - t > step, so t + step < n.
// - When both layouts are plain (the same test for every thread), the loop runs over
//   as_plain() copies, so the interleave corrections and their tests leave the loop.
//
// The device buffers must hold required_len() elements of each layout (checked on the host).
template <typename I, int N, typename F>
__device__ __forceinline__ void grid_stride_offsets(const KernelLayout<I, N>& a,
                                                    const KernelLayout<I, N>& b, I n, F f) {
  detail::grid_stride(a, b, n, f);
}

// The same loop over two nested layouts of the same sizes (the first mode fastest): pass
// n = size, which `KernelNestedLayout::from_nested` checked fits I. A layout may have fewer
// leaves per mode than the other (BA, BB), a plain one B = 1.
template <typename I, int N, int BA, int BB, typename F>
__device__ __forceinline__ void grid_stride_offsets(const KernelNestedLayout<I, N, BA>& a,
                                                    const KernelNestedLayout<I, N, BB>& b, I n,
                                                    F f) {
  detail::grid_stride(a, b, n, f);
}
#endif

// The byte layout (field offsets in units of sizeof(I)), for the common instantiations; the
// Rust side asserts the same table with `offset_of!` (`src/param/abi.rs`).
// NVRTC before 13.5 (12.8 and 13.0 tried) has neither `offsetof` nor `__builtin_offsetof`: there
// the field checks are left to the other compilers, and the size and alignment checks stay (every
// field is an `I` or an array of `I`, declared in the order below, so with the size right no
// padding can move one).
#if defined(offsetof)
#define STRIDED_LAYOUT_FIELD_AT(T, F, AT) (offsetof(T, F) == (AT))
#elif !defined(__CUDACC_RTC__)
#define STRIDED_LAYOUT_FIELD_AT(T, F, AT) (__builtin_offsetof(T, F) == (AT))
#else
#define STRIDED_LAYOUT_FIELD_AT(T, F, AT) true
#endif
namespace detail {
template <typename I, int N> struct abi {
  typedef KernelLayout<I, N> K;
  static constexpr unsigned long long w = sizeof(I);
  static constexpr bool ok =
      sizeof(K) == (4 * N + 5) * w && alignof(K) == alignof(I) &&
      STRIDED_LAYOUT_FIELD_AT(K, extents, 0) && STRIDED_LAYOUT_FIELD_AT(K, strides, N * w) &&
      STRIDED_LAYOUT_FIELD_AT(K, offset, 2 * N * w) &&
      STRIDED_LAYOUT_FIELD_AT(K, interleave_dimension, (2 * N + 1) * w) &&
      STRIDED_LAYOUT_FIELD_AT(K, interleave_factor, (2 * N + 2) * w) &&
      STRIDED_LAYOUT_FIELD_AT(K, pitch_multipliers, (2 * N + 3) * w) &&
      STRIDED_LAYOUT_FIELD_AT(K, pitch_shifts, (3 * N + 3) * w) &&
      STRIDED_LAYOUT_FIELD_AT(K, factor_multiplier, (4 * N + 3) * w) &&
      STRIDED_LAYOUT_FIELD_AT(K, factor_shift, (4 * N + 4) * w);
};
template <typename I, int N, int B> struct nested_abi {
  typedef KernelNestedLayout<I, N, B> K;
  static constexpr unsigned long long w = sizeof(I);
  static constexpr unsigned long long n = N, nb = N * B;
  static constexpr bool ok =
      sizeof(K) == (3 + 3 * n + 5 * nb) * w && alignof(K) == alignof(I) &&
      STRIDED_LAYOUT_FIELD_AT(K, version, 0) && STRIDED_LAYOUT_FIELD_AT(K, offset, w) &&
      STRIDED_LAYOUT_FIELD_AT(K, size, 2 * w) && STRIDED_LAYOUT_FIELD_AT(K, sizes, 3 * w) &&
      STRIDED_LAYOUT_FIELD_AT(K, mode_multipliers, (3 + n) * w) &&
      STRIDED_LAYOUT_FIELD_AT(K, mode_shifts, (3 + 2 * n) * w) &&
      STRIDED_LAYOUT_FIELD_AT(K, extents, (3 + 3 * n) * w) &&
      STRIDED_LAYOUT_FIELD_AT(K, strides, (3 + 3 * n + nb) * w) &&
      STRIDED_LAYOUT_FIELD_AT(K, weights, (3 + 3 * n + 2 * nb) * w) &&
      STRIDED_LAYOUT_FIELD_AT(K, leaf_multipliers, (3 + 3 * n + 3 * nb) * w) &&
      STRIDED_LAYOUT_FIELD_AT(K, leaf_shifts, (3 + 3 * n + 4 * nb) * w);
};
}  // namespace detail
#undef STRIDED_LAYOUT_FIELD_AT
static_assert(detail::abi<int, 1>::ok && detail::abi<int, 2>::ok && detail::abi<int, 3>::ok &&
                  detail::abi<int, 4>::ok && detail::abi<int, 5>::ok,
              "KernelLayout<int32, N>: (4N + 5) * 4 bytes, fields as in Rust");
static_assert(detail::abi<unsigned int, 4>::ok && detail::abi<long long, 1>::ok &&
                  detail::abi<long long, 4>::ok && detail::abi<unsigned long long, 4>::ok &&
                  detail::abi<short, 3>::ok && detail::abi<unsigned char, 2>::ok,
              "KernelLayout<I, N>: (4N + 5) * sizeof(I) bytes, fields as in Rust");
static_assert(detail::nested_abi<int, 1, 1>::ok && detail::nested_abi<int, 2, 2>::ok &&
                  detail::nested_abi<int, 4, 3>::ok && detail::nested_abi<int, 5, 4>::ok &&
                  detail::nested_abi<unsigned int, 4, 3>::ok &&
                  detail::nested_abi<long long, 2, 2>::ok &&
                  detail::nested_abi<long long, 4, 3>::ok &&
                  detail::nested_abi<unsigned long long, 4, 3>::ok &&
                  detail::nested_abi<short, 3, 2>::ok && detail::nested_abi<unsigned char, 2, 2>::ok,
              "KernelNestedLayout<I, N, B>: (3 + 3N + 5NB) * sizeof(I) bytes, fields as in Rust");

}  // namespace strided_layout

#endif  // STRIDED_LAYOUT_H
