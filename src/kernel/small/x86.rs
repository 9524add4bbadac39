//! The x86-64 small-block kernel: the stereo interleave (SSE2, AVX2), behind the CPU
//! feature it needs. (The 8 × 8 tile transposes are the transposes' own, `transpose::x86`.)

use core::mem::size_of;

use crate::kernel::cpu::Features as Cpu;
use core::arch::x86_64::{
    __m128i, _mm_loadu_si128, _mm_storeu_si128, _mm_unpackhi_epi8, _mm_unpackhi_epi16,
    _mm_unpackhi_epi32, _mm_unpackhi_epi64, _mm_unpacklo_epi8, _mm_unpacklo_epi16,
    _mm_unpacklo_epi32, _mm_unpacklo_epi64,
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
