//! The x86-64 small-block kernels: the stereo interleave (SSE2, AVX2) and the 8 × 8 tile
//! transposes, each behind the CPU feature it needs.

use core::mem::size_of;

use crate::kernel::cpu::Features as Cpu;
use crate::kernel::drive::step;
use core::arch::x86_64::{
    __m128i, _mm_loadu_si128, _mm_storeu_si128, _mm_unpackhi_epi8, _mm_unpackhi_epi16,
    _mm_unpackhi_epi32, _mm_unpackhi_epi64, _mm_unpacklo_epi8, _mm_unpacklo_epi16,
    _mm_unpacklo_epi32, _mm_unpacklo_epi64,
};
use core::arch::x86_64::{
    __m256, _mm_loadu_ps, _mm256_blend_ps, _mm256_castps128_ps256, _mm256_insertf128_ps,
    _mm256_shuffle_ps, _mm256_storeu_ps, _mm256_unpackhi_ps, _mm256_unpacklo_ps,
};
use core::arch::x86_64::{
    __m256i, _mm256_loadu_si256, _mm256_permute2x128_si256, _mm256_storeu_si256,
    _mm256_unpackhi_epi8, _mm256_unpackhi_epi16, _mm256_unpackhi_epi32, _mm256_unpackhi_epi64,
    _mm256_unpacklo_epi8, _mm256_unpacklo_epi16, _mm256_unpacklo_epi32, _mm256_unpacklo_epi64,
};

/// [`super::interleave2`]: 32 bytes of each channel a step with AVX2, then 16 with
/// SSE2, then one frame a step; each path whole in one function, so a small block
/// makes one call after one cached feature test.
///
/// # Safety
///
/// As [`super::interleave2`].
#[inline]
pub(super) unsafe fn interleave2<T: Copy>(d: *mut T, l: *const T, r: *const T, n: usize, cpu: Cpu) {
    if cpu.avx2() {
        // SAFETY: the contract; AVX2 is present.
        unsafe { interleave2_avx2(d, l, r, n) }
    } else {
        // SAFETY: the contract.
        unsafe { interleave2_sse2(d, l, r, n) }
    }
}

/// [`interleave2`] without AVX2: the [`narrow`] steps, not inlined, so that the
/// dispatch around it needs no saved registers.
///
/// # Safety
///
/// As [`super::interleave2`].
#[inline(never)]
unsafe fn interleave2_sse2<T: Copy>(d: *mut T, l: *const T, r: *const T, n: usize) {
    // SAFETY: the contract.
    unsafe { narrow(d, l, r, 0, n) }
}

/// Frames `from..n` of [`interleave2`] (`from <= n`): 16-byte SSE2 steps, then one
/// frame a step.
///
/// # Safety
///
/// As [`super::interleave2`], and `from <= n`.
#[inline(always)]
unsafe fn narrow<T: Copy>(d: *mut T, l: *const T, r: *const T, from: usize, n: usize) {
    let size = size_of::<T>();
    // Frames `from..n`: `from <= n`, so the offsets stay inside the channels and the
    // frames (contract).
    let (b, rest) = (from.wrapping_mul(size), n.wrapping_sub(from));
    let (db, lb, rb) = (
        d.cast::<u8>().wrapping_add(b.wrapping_mul(2)),
        l.cast::<u8>().wrapping_add(b),
        r.cast::<u8>().wrapping_add(b),
    );
    // SAFETY: in each arm, the contract for frames `from..n`; the unpacks are SSE2, part
    // of x86-64.
    let done = unsafe {
        match size {
            1 => steps::<__m128i, 16>(db, lb, rb, rest, |a, b| {
                (_mm_unpacklo_epi8(a, b), _mm_unpackhi_epi8(a, b))
            }),
            2 => steps::<__m128i, 8>(db, lb, rb, rest, |a, b| {
                (_mm_unpacklo_epi16(a, b), _mm_unpackhi_epi16(a, b))
            }),
            4 => steps::<__m128i, 4>(db, lb, rb, rest, |a, b| {
                (_mm_unpacklo_epi32(a, b), _mm_unpackhi_epi32(a, b))
            }),
            8 => steps::<__m128i, 2>(db, lb, rb, rest, |a, b| {
                (_mm_unpacklo_epi64(a, b), _mm_unpackhi_epi64(a, b))
            }),
            _ => 0,
        }
    };
    // SAFETY: frames `from + done..n` (contract; `done <= rest`).
    unsafe { super::interleave2_portable(d, l, r, from.wrapping_add(done), n) };
}

/// [`interleave2`] with AVX2: 32-byte steps (the in-lane unpacks, then the two halves
/// put back in order with `vperm2i128`), then the [`narrow`] tail.
///
/// # Safety
///
/// As [`super::interleave2`]; AVX2 is present.
#[target_feature(enable = "avx2")]
unsafe fn interleave2_avx2<T: Copy>(d: *mut T, l: *const T, r: *const T, n: usize) {
    let (db, lb, rb) = (d.cast::<u8>(), l.cast::<u8>(), r.cast::<u8>());
    // The frames of the two unpacked halves in order (a closure: it has AVX2 too).
    let order = |(lo, hi): (__m256i, __m256i)| {
        (
            _mm256_permute2x128_si256::<0x20>(lo, hi),
            _mm256_permute2x128_si256::<0x31>(lo, hi),
        )
    };
    // SAFETY: in each arm, the contract; AVX2 is present.
    let wide = unsafe {
        match size_of::<T>() {
            1 => steps::<__m256i, 32>(db, lb, rb, n, |a, b| {
                order((_mm256_unpacklo_epi8(a, b), _mm256_unpackhi_epi8(a, b)))
            }),
            2 => steps::<__m256i, 16>(db, lb, rb, n, |a, b| {
                order((_mm256_unpacklo_epi16(a, b), _mm256_unpackhi_epi16(a, b)))
            }),
            4 => steps::<__m256i, 8>(db, lb, rb, n, |a, b| {
                order((_mm256_unpacklo_epi32(a, b), _mm256_unpackhi_epi32(a, b)))
            }),
            8 => steps::<__m256i, 4>(db, lb, rb, n, |a, b| {
                order((_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b)))
            }),
            _ => 0,
        }
    };
    // SAFETY: frames `wide..n` (`wide <= n`; contract).
    unsafe { narrow(d, l, r, wide, n) }
}

/// `n / PER` steps of one vector `V` of each channel, `PER` frames each, interleaved by
/// `unpack` into two destination vectors; returns the frames done.
///
/// # Safety
///
/// As [`interleave2`], with `PER` frames filling one `V`; the CPU has `V`'s loads.
#[inline(always)]
unsafe fn steps<V: Vector, const PER: usize>(
    d: *mut u8,
    l: *const u8,
    r: *const u8,
    n: usize,
    unpack: impl Fn(V, V) -> (V, V),
) -> usize {
    let w = size_of::<V>();
    let steps = n.checked_div(PER).unwrap_or(0);
    let mut k = 0usize;
    while k < steps {
        // `k < steps`, so `w·k + w <= n·size` and `2w·k + 2w <= 2n·size`: in bounds.
        let (i, o) = (k.wrapping_mul(w), k.wrapping_mul(w.wrapping_mul(2)));
        // SAFETY: `w` bytes of each channel at byte `w·k`, `2w` destination bytes at
        // `2w·k` (contract, by the bound above); unaligned loads and stores.
        unsafe {
            let (lo, hi) = unpack(V::load(l.add(i)), V::load(r.add(i)));
            lo.store(d.add(o));
            hi.store(d.add(o).add(w));
        }
        k = k.wrapping_add(1);
    }
    steps.wrapping_mul(PER)
}

/// A vector register moved with unaligned loads and stores.
trait Vector: Copy {
    /// # Safety
    ///
    /// `size_of::<Self>()` bytes at `p` are readable; the CPU has the load.
    unsafe fn load(p: *const u8) -> Self;
    /// # Safety
    ///
    /// `size_of::<Self>()` bytes at `p` are writable; the CPU has the store.
    unsafe fn store(self, p: *mut u8);
}

#[expect(
    clippy::cast_ptr_alignment,
    reason = "the vector pointers are only used with unaligned loads and stores"
)]
impl Vector for __m128i {
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: the caller's contract; SSE2 is part of x86-64.
        unsafe { _mm_loadu_si128(p.cast::<__m128i>()) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: the caller's contract; SSE2 is part of x86-64.
        unsafe { _mm_storeu_si128(p.cast::<__m128i>(), self) }
    }
}

#[expect(
    clippy::cast_ptr_alignment,
    reason = "the vector pointers are only used with unaligned loads and stores"
)]
impl Vector for __m256i {
    #[inline(always)]
    unsafe fn load(p: *const u8) -> Self {
        // SAFETY: the caller's contract (the CPU has AVX).
        unsafe { _mm256_loadu_si256(p.cast::<__m256i>()) }
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut u8) {
        // SAFETY: the caller's contract (the CPU has AVX).
        unsafe { _mm256_storeu_si256(p.cast::<__m256i>(), self) }
    }
}

/// `d[i·dr + j] = s[i + j·sr]` for `i < ea`, `j < eb`, in 8 × 8 tiles of `f32` bits
/// ([`tile8_avx`]).
///
/// # Safety
///
/// AVX is present; `ea` and `eb` are multiples of 8; every `d + i·dr + j` and
/// `s + i + j·sr` is an element of its slice, no destination element a source one.
#[target_feature(enable = "avx")]
pub(super) unsafe fn tiles8_avx(
    d: *mut f32,
    dr: isize,
    s: *const f32,
    sr: isize,
    ea: usize,
    eb: usize,
) {
    if ea == 16 && eb == 16 {
        // SAFETY: the contract, with `ea = eb = 16`.
        unsafe { square16_avx(d, dr, s, sr) };
        return;
    }
    let mut i = 0usize;
    while i < ea {
        let mut j = 0usize;
        while j < eb {
            // SAFETY: the contract, with `i + 8 <= ea`, `j + 8 <= eb` (multiples of 8).
            unsafe { tile_at(d, dr, s, sr, i, j) };
            j = j.wrapping_add(8);
        }
        i = i.wrapping_add(8);
    }
}

/// [`tiles8_avx`] of a 16 × 16 block, the commonest small transpose: its four tiles in
/// straight-line code, in a function of its own. A block standalone (an Intel Xeon server
/// core): 15.7-17.3 ns against 19.4-23 ns through the tile loop; with this case inside
/// [`tiles8_avx`] itself, LLVM prepared the loop's address arithmetic for both paths and
/// spilled it to the stack (25-27 ns).
///
/// # Safety
///
/// As [`tiles8_avx`] with `ea = eb = 16`.
#[target_feature(enable = "avx")]
#[inline(never)]
unsafe fn square16_avx(d: *mut f32, dr: isize, s: *const f32, sr: isize) {
    for (i, j) in [(0, 0), (0, 8), (8, 0), (8, 8)] {
        // SAFETY: the contract, with `i + 8 <= 16`, `j + 8 <= 16`.
        unsafe { tile_at(d, dr, s, sr, i, j) };
    }
}

/// The tile at `(i, j)` of a [`tiles8_avx`] block: [`tile8_avx`] on destination rows
/// `i..i + 8` from column `j` and source rows `j..j + 8` from column `i`.
///
/// # Safety
///
/// As [`tiles8_avx`], with `i + 8 <= ea` and `j + 8 <= eb`.
#[target_feature(enable = "avx")]
#[inline]
unsafe fn tile_at(d: *mut f32, dr: isize, s: *const f32, sr: isize, i: usize, j: usize) {
    let (dt, st) = (
        d.wrapping_offset(step(i, dr).wrapping_add(step(j, 1))),
        s.wrapping_offset(step(i, 1).wrapping_add(step(j, sr))),
    );
    // SAFETY: source rows `j + q` (`q < 8`), 8 elements each from `i`, are elements of the
    // source (contract); destination rows `i + q`, 8 elements each from `j`, of the
    // destination; AVX is present.
    unsafe { tile8_avx(dt, dr, st, sr) };
}

/// One 8 × 8 tile of `f32` bits, `d[i·dr + j] = s[i + j·sr]` (`i, j < 8`), with few
/// instructions on the one vector shuffle port of Intel cores: 12, against 24 for the large
/// transposes' 8 × 8 tile (`micro_avx`), whose eight lane swaps and 16 in-lane shuffles
/// all need it:
///
/// - each register holds half a row in each lane, source rows `q` and `q + 4`, put
///   together by the load (`vinsertf128` from memory runs on any vector port), so no lane
///   swap is left to do;
/// - the first in-lane step interleaves pairs of rows by element (8 `vunpck*ps`);
/// - the second takes 64-bit halves of two registers: one `vshufps` makes the crossed pair,
///   two blends (any vector port) the two results (LLVM would fold the three back into two
///   shuffles: [`opaque`] keeps them).
///
/// Measured on one 16 × 16 block with strides known at compile time (an Intel Xeon server
/// core, 3.5 GHz): 13.5-14.7 ns, against 25-27 ns for four `micro_avx` tiles and 17-18 ns
/// with the second step as shuffles. Tried and slower there: half the tile's first step
/// made of blends of loads one element apart (18.4 ns), and a 16 × 16 AVX-512 block of
/// 128-bit inserts and in-lane shuffles (16.6-18.8 ns). On AMD Zen 3, with two shuffle
/// ports, `micro_avx` had measured about 12% faster than the inserting loads (with shuffles
/// for both in-lane steps) where destination rows start on a 32-byte boundary, and as fast
/// elsewhere; this tile has not been measured there.
///
/// # Safety
///
/// AVX is present; every `d + i·dr + j` and `s + i + j·sr` (`i, j < 8`) is an element of
/// its slice, no destination element a source one.
#[target_feature(enable = "avx")]
#[inline]
unsafe fn tile8_avx(d: *mut f32, dr: isize, s: *const f32, sr: isize) {
    // `halves(c)[q]`: columns `c..c + 4` of source rows `q` (low lane) and `q + 4` (high).
    let halves = |c: usize| -> [__m256; 4] {
        core::array::from_fn(|q| {
            let at = |q: usize| s.wrapping_offset(step(q, sr).wrapping_add(step(c, 1)));
            // SAFETY: source rows `q` and `q + 4 < 8`, four elements each from column
            // `c <= 4`, are elements of the source (contract); unaligned loads; AVX.
            unsafe {
                _mm256_insertf128_ps::<1>(
                    _mm256_castps128_ps256(_mm_loadu_ps(at(q))),
                    _mm_loadu_ps(at(q.wrapping_add(4))),
                )
            }
        })
    };
    // The 64-bit halves of `a` and `b` crossed: `[a.lo, b.lo]` and `[a.hi, b.hi]` in each
    // lane, by one shuffle and two blends.
    let cross = |a: __m256, b: __m256| {
        let x = opaque(_mm256_shuffle_ps::<0x4E>(a, b));
        (_mm256_blend_ps::<0xCC>(a, x), _mm256_blend_ps::<0xCC>(x, b))
    };
    // Four registers of `halves(c)` to four columns: `[k]` holds source column `c + k` of
    // rows 0..4 (low lane) and 4..8 (high), destination row `c + k` whole.
    let transpose = |r: [__m256; 4]| {
        let (c0, c1) = cross(
            _mm256_unpacklo_ps(r[0], r[1]),
            _mm256_unpacklo_ps(r[2], r[3]),
        );
        let (c2, c3) = cross(
            _mm256_unpackhi_ps(r[0], r[1]),
            _mm256_unpackhi_ps(r[2], r[3]),
        );
        [c0, c1, c2, c3]
    };
    for c in [0, 4] {
        for (k, v) in transpose(halves(c)).into_iter().enumerate() {
            // SAFETY: destination row `c + k < 8`, eight elements (contract); unaligned
            // store; AVX.
            unsafe { _mm256_storeu_ps(d.wrapping_offset(step(c.wrapping_add(k), dr)), v) };
        }
    }
}

/// `v` unchanged, hidden from the optimiser: an empty `asm!` block that takes and gives
/// back the register, so LLVM cannot merge the shuffles around it into others (it would
/// rebuild [`tile8_avx`]'s shuffle-and-blend steps as two shuffles on the same port).
#[target_feature(enable = "avx")]
#[inline]
fn opaque(mut v: __m256) -> __m256 {
    // SAFETY: the block is empty: it reads and writes no memory, no flags and no other
    // register; `v` comes back as it went in.
    unsafe {
        core::arch::asm!(
            "/* {0} */",
            inout(ymm_reg) v,
            options(pure, nomem, nostack, preserves_flags)
        );
    }
    v
}
