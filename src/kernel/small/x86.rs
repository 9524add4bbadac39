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
    __m256i, _mm256_castsi128_si256, _mm256_inserti128_si256, _mm256_loadu_si256,
    _mm256_permute2x128_si256, _mm256_storeu_si256, _mm256_unpackhi_epi8, _mm256_unpackhi_epi16,
    _mm256_unpackhi_epi32, _mm256_unpackhi_epi64, _mm256_unpacklo_epi8, _mm256_unpacklo_epi16,
    _mm256_unpacklo_epi32, _mm256_unpacklo_epi64,
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
    // `n` elements of each channel exist (contract), so `n·size` bytes do not wrap.
    if n.wrapping_mul(size_of::<T>()) < 16 {
        // Less than one 16-byte step a channel (a 2 × 2 transpose): one frame a step, without
        // the vector paths' setup (113 -> 88 instructions a prepared 2 × 2 `f32` call,
        // harness included).
        // SAFETY: the contract.
        unsafe { super::interleave2_portable(d, l, r, 0, n) };
    } else if cpu.avx2() {
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
    // In each arm, the contract for frames `from..n`; the unpacks are SSE2, part of x86-64.
    let done = match size {
        1 => {
            let unpack = |a: __m128i, b: __m128i| {
                // SAFETY: SSE2 is part of x86-64; a register unpack.
                let lo = unsafe { _mm_unpacklo_epi8(a, b) };
                // SAFETY: SSE2 is part of x86-64; a register unpack.
                let hi = unsafe { _mm_unpackhi_epi8(a, b) };
                (lo, hi)
            };
            // SAFETY: the contract for frames `from..n` of 1-byte elements; SSE2 has the
            // loads.
            unsafe { steps::<__m128i, 16>(db, lb, rb, rest, unpack) }
        }
        2 => {
            let unpack = |a: __m128i, b: __m128i| {
                // SAFETY: SSE2 is part of x86-64; a register unpack.
                let lo = unsafe { _mm_unpacklo_epi16(a, b) };
                // SAFETY: SSE2 is part of x86-64; a register unpack.
                let hi = unsafe { _mm_unpackhi_epi16(a, b) };
                (lo, hi)
            };
            // SAFETY: the contract for frames `from..n` of 2-byte elements; SSE2 has the
            // loads.
            unsafe { steps::<__m128i, 8>(db, lb, rb, rest, unpack) }
        }
        4 => {
            let unpack = |a: __m128i, b: __m128i| {
                // SAFETY: SSE2 is part of x86-64; a register unpack.
                let lo = unsafe { _mm_unpacklo_epi32(a, b) };
                // SAFETY: SSE2 is part of x86-64; a register unpack.
                let hi = unsafe { _mm_unpackhi_epi32(a, b) };
                (lo, hi)
            };
            // SAFETY: the contract for frames `from..n` of 4-byte elements; SSE2 has the
            // loads.
            unsafe { steps::<__m128i, 4>(db, lb, rb, rest, unpack) }
        }
        8 => {
            let unpack = |a: __m128i, b: __m128i| {
                // SAFETY: SSE2 is part of x86-64; a register unpack.
                let lo = unsafe { _mm_unpacklo_epi64(a, b) };
                // SAFETY: SSE2 is part of x86-64; a register unpack.
                let hi = unsafe { _mm_unpackhi_epi64(a, b) };
                (lo, hi)
            };
            // SAFETY: the contract for frames `from..n` of 8-byte elements; SSE2 has the
            // loads.
            unsafe { steps::<__m128i, 2>(db, lb, rb, rest, unpack) }
        }
        _ => 0,
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
    // The unpacks (closures: they have AVX2 too) are safe calls here.
    let wide = match size_of::<T>() {
        1 => {
            let unpack = |a, b| order((_mm256_unpacklo_epi8(a, b), _mm256_unpackhi_epi8(a, b)));
            // SAFETY: the contract, for 1-byte elements; AVX2 is present.
            unsafe { steps::<__m256i, 32>(db, lb, rb, n, unpack) }
        }
        2 => {
            let unpack = |a, b| order((_mm256_unpacklo_epi16(a, b), _mm256_unpackhi_epi16(a, b)));
            // SAFETY: the contract, for 2-byte elements; AVX2 is present.
            unsafe { steps::<__m256i, 16>(db, lb, rb, n, unpack) }
        }
        4 => {
            let unpack = |a, b| order((_mm256_unpacklo_epi32(a, b), _mm256_unpackhi_epi32(a, b)));
            // SAFETY: the contract, for 4-byte elements; AVX2 is present.
            unsafe { steps::<__m256i, 8>(db, lb, rb, n, unpack) }
        }
        8 => {
            let unpack = |a, b| order((_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b)));
            // SAFETY: the contract, for 8-byte elements; AVX2 is present.
            unsafe { steps::<__m256i, 4>(db, lb, rb, n, unpack) }
        }
        _ => 0,
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
        // `w` bytes of each channel at byte `w·k`, `2w` destination bytes at `2w·k`
        // (contract, by the bound above); unaligned loads and stores.
        // SAFETY: byte `w·k` of the left channel (above).
        let lp = unsafe { l.add(i) };
        // SAFETY: `w` bytes of the left channel at `lp` (above); the CPU has the load
        // (contract).
        let left = unsafe { V::load(lp) };
        // SAFETY: byte `w·k` of the right channel (above).
        let rp = unsafe { r.add(i) };
        // SAFETY: `w` bytes of the right channel at `rp` (above); the CPU has the load.
        let right = unsafe { V::load(rp) };
        let (lo, hi) = unpack(left, right);
        // SAFETY: byte `2w·k` of the destination (above).
        let dp = unsafe { d.add(o) };
        // SAFETY: destination bytes `2w·k..2w·k + w` (above); the CPU has the store.
        unsafe { lo.store(dp) };
        // SAFETY: byte `2w·k + w` of the destination (above).
        let dp2 = unsafe { dp.add(w) };
        // SAFETY: destination bytes `2w·k + w..2w·k + 2w` (above); the CPU has the store.
        unsafe { hi.store(dp2) };
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

/// `d[i·dr + j] = s[i + j·sr]` for `i < ea`, `j < eb`, in 8 × 8 tiles of 4-byte elements
/// ([`quarter`], [`band`]); a 16 × 16 block two tiles side by side.
///
/// # Safety
///
/// AVX2 is present; `ea` and `eb` are multiples of 8; every `d + i·dr + j` and
/// `s + i + j·sr` is an element of its slice, no destination element a source one.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn tiles8_avx2(
    d: *mut u32,
    dr: isize,
    s: *const u32,
    sr: isize,
    ea: usize,
    eb: usize,
) {
    if ea == 16 && eb == 16 {
        // SAFETY: the contract, with `ea = eb = 16`.
        unsafe { square16_avx2(d, dr, s, sr) };
        return;
    }
    if ea == 8 && eb == 8 {
        // One tile, without the loops' set-up (7.8 -> 7.0 ns on an Intel Xeon server core).
        // SAFETY: the contract, with `ea = eb = 8`.
        unsafe { band::<1>(d, dr, s, sr, 0, 0) };
        return;
    }
    // One tile a step: in this loop, two tiles side by side (as in `square16_avx2`) measured
    // slower, 39 against 33 ns for 24 × 24 and 66 against 59 ns for 32 × 32 on that core.
    let mut i = 0usize;
    while i < ea {
        let mut j = 0usize;
        while j < eb {
            // SAFETY: the contract, with `i + 8 <= ea` and `j + 8 <= eb` (multiples of 8).
            unsafe { band::<1>(d, dr, s, sr, i, j) };
            j = j.wrapping_add(8);
        }
        i = i.wrapping_add(8);
    }
}

/// [`tiles8_avx2`] of a 16 × 16 block, the commonest small transpose: its two bands in
/// straight-line code, in a function of its own (inside [`tiles8_avx2`], LLVM prepared the
/// loop's address arithmetic for both paths and spilled it to the stack: 25-27 ns against
/// 15.7-17.3 ns for the older float kernel on an Intel Xeon server core).
///
/// # Safety
///
/// As [`tiles8_avx2`] with `ea = eb = 16`.
#[target_feature(enable = "avx2")]
#[inline(never)]
unsafe fn square16_avx2(d: *mut u32, dr: isize, s: *const u32, sr: isize) {
    for i in [0, 8] {
        // SAFETY: the contract, with `i + 8 <= 16` and `0 + 16 <= 16`.
        unsafe { band::<2>(d, dr, s, sr, i, 0) };
    }
}

/// Destination rows `i..i + 8`, columns `j..j + 8·W` of a [`tiles8_avx2`] block: `W` tiles
/// side by side, each destination row's `W` pieces stored one after the other. Consecutive
/// stores into one cache line retire two a cycle on the Intel cores measured, stores to
/// different lines one: on one 16 × 16 block (Intel Xeon server core, 4 GHz), a row's two
/// halves stored together took 44 cycles against 51-54 a tile at a time.
///
/// # Safety
///
/// As [`tiles8_avx2`], with `i + 8 <= ea` and `j + 8·W <= eb`.
#[target_feature(enable = "avx2")]
#[inline]
#[expect(
    clippy::cast_ptr_alignment,
    reason = "the vector pointers are only used with unaligned stores"
)]
unsafe fn band<const W: usize>(
    d: *mut u32,
    dr: isize,
    s: *const u32,
    sr: isize,
    i: usize,
    j: usize,
) {
    for c in [0, 4] {
        // Tile `t`'s source: rows `j + 8t..` from column `i` (in bounds by the contract).
        let quarters: [[__m256i; 4]; W] = core::array::from_fn(|t| {
            let at = j.wrapping_add(t.wrapping_mul(8));
            let st = s.wrapping_offset(step(i, 1).wrapping_add(step(at, sr)));
            // SAFETY: source rows `at + q` (`q < 8`, `at + 8 <= eb`), columns `i + c..i +
            // c + 4` (`c + 4 <= 8`, `i + 8 <= ea`), are elements of the source (contract);
            // AVX2 is present.
            unsafe { quarter(st, sr, c) }
        });
        for k in 0..4 {
            let row = d.wrapping_offset(step(i.wrapping_add(c).wrapping_add(k), dr));
            for (t, q) in quarters.iter().enumerate() {
                let at = row.wrapping_add(j.wrapping_add(t.wrapping_mul(8)));
                if let Some(&v) = q.get(k) {
                    // SAFETY: destination row `i + c + k < i + 8 <= ea`, eight elements from
                    // column `j + 8t` (`j + 8t + 8 <= eb`), of the destination (contract);
                    // unaligned store; AVX.
                    unsafe { _mm256_storeu_si256(at.cast::<__m256i>(), v) };
                }
            }
        }
    }
}

/// Columns `c..c + 4` of eight source rows `sr` apart, as four destination rows of eight
/// elements: `[k]` holds column `c + k` of rows 0..4 (low lane) and 4..8 (high), with 4 +
/// 4 integer unpacks after the loads:
///
/// - each register holds half a row in each lane, source rows `q` and `q + 4`, put together
///   by the load (`vinserti128` from memory runs on any vector port), so no lane swap is
///   left to do;
/// - the first step interleaves pairs of rows by element, the second by 64-bit halves.
///
/// The unpacks are the integer ones ([`unpack`]): on Intel's Golden Cove cores they issue
/// two a cycle (ports 1 and 5), the `f32` / `f64` forms one (port 5 only), which bound the
/// older kernel (12 shuffle-port instructions a tile with blends; 24 in `micro_avx`). Tried
/// and slower on that core: the second step as one shuffle and two blends (the older
/// kernel), half the first step as 64-bit shifts and blends, or as blends of loads one
/// element apart, and a 16 × 16 AVX-512 block of 128-bit inserts and in-lane shuffles
/// (16.6-18.8 ns). On AMD Zen 3, whose shuffles of every form issue two a cycle, the tile
/// has not been measured.
///
/// # Safety
///
/// AVX2 is present; `s + q·sr + c + e` (`q < 8`, `e < 4`) are elements of the source.
#[target_feature(enable = "avx2")]
#[inline]
#[expect(
    clippy::cast_ptr_alignment,
    reason = "the vector pointers are only used with unaligned loads"
)]
unsafe fn quarter(s: *const u32, sr: isize, c: usize) -> [__m256i; 4] {
    let r: [__m256i; 4] = core::array::from_fn(|q| {
        let at = |q: usize| {
            s.wrapping_offset(step(q, sr).wrapping_add(step(c, 1)))
                .cast::<__m128i>()
        };
        // SAFETY: source row `q < 8`, four elements from column `c`, are elements of the
        // source (contract); an unaligned load; AVX2.
        let low = unsafe { _mm_loadu_si128(at(q)) };
        // SAFETY: source row `q + 4 < 8`, four elements from column `c`, are elements of the
        // source (contract); an unaligned load; AVX2.
        let high = unsafe { _mm_loadu_si128(at(q.wrapping_add(4))) };
        _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(low), high)
    });
    let (l01, h01) = unpack::<32>(r[0], r[1]);
    let (l23, h23) = unpack::<32>(r[2], r[3]);
    let (c0, c1) = unpack::<64>(l01, l23);
    let (c2, c3) = unpack::<64>(h01, h23);
    [c0, c1, c2, c3]
}

/// The low and high in-lane interleaves of `a` and `b` by `BITS`-bit elements (32 or 64):
/// `vpunpckl*` / `vpunpckh*`, written out, because LLVM turns `_mm256_unpacklo_epi32` of
/// loaded data into `vunpcklps`, the form with half the throughput on Intel cores
/// ([`quarter`]).
#[target_feature(enable = "avx2")]
#[inline]
fn unpack<const BITS: u32>(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    // The two instructions for `$lo` / `$hi`, on `a` and `b` into `lo` and `hi`.
    macro_rules! pair {
        ($lo:literal, $hi:literal) => {{
            let (lo, hi);
            // SAFETY: two register-to-register unpacks (AVX2, present by the target
            // feature): they read `a` and `b`, write `lo` and `hi`, and touch no memory,
            // flags or other register.
            unsafe {
                core::arch::asm!(
                    concat!($lo, " {lo}, {a}, {b}"),
                    concat!($hi, " {hi}, {a}, {b}"),
                    a = in(ymm_reg) a,
                    b = in(ymm_reg) b,
                    lo = out(ymm_reg) lo,
                    hi = out(ymm_reg) hi,
                    options(pure, nomem, nostack, preserves_flags)
                );
            }
            (lo, hi)
        }};
    }
    if BITS == 64 {
        pair!("vpunpcklqdq", "vpunpckhqdq")
    } else {
        pair!("vpunpckldq", "vpunpckhdq")
    }
}
