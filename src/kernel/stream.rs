//! Non-temporal ("streaming") stores for copies larger than the last-level cache.
//!
//! | target | streaming copy |
//! | --- | --- |
//! | x86-64 | AVX `vmovntdq` (32 bytes) when the CPU has AVX, else SSE2 `movntdq`; whole cache lines, the source prefetched 1 KiB ahead inside long runs |
//! | others, and under Miri | none (plain `copy_nonoverlapping`) |
//!
//! [`prefetch_run`] hints a run into the cache ahead of use (`prefetcht1` on x86-64, nothing
//! elsewhere), for kernels whose next reads the hardware cannot guess.

use core::mem::size_of;

use crate::kernel::backend::{Backend, Target};
use crate::kernel::element::is_plain;

/// Copies that touch at least this many bytes (read plus written) use non-temporal stores
/// where the target has them: the size of a common host's last-level cache, so the
/// destination would not stay cached anyway.
pub(crate) const STREAM_BYTES: usize = 32 << 20;

/// Whether a copy of `elements()` elements of `T` should stream its stores (`elements` is
/// only called when the target and `T` allow streaming at all).
#[inline]
pub(crate) fn stream_worthy<T: 'static>(elements: impl FnOnce() -> usize) -> bool {
    Target::STREAMS
        && is_plain::<T>()
        && elements().saturating_mul(size_of::<T>()).saturating_mul(2) >= STREAM_BYTES
}

/// Whether a copy that streams ([`stream_worthy`]), whose contiguous rows write `elements()`
/// elements of `T` in all, should stream those rows too.
///
/// On AMD (and other non-Intel) cores only when the destination alone is past
/// [`STREAM_BYTES`]: a smaller destination stays in the last-level cache for whoever reads it
/// next, which plain stores keep and streaming stores would evict (measured on Zen 3, 32 MiB
/// of L3: a 31.5 MiB strided-slice copy, `a[::-1, 10:250:2, :]` of 256³ `f32`, ran 0.53 of
/// `copy_from_slice` streamed, 0.6 and more with plain stores). On Intel cores whenever the
/// copy streams: measured on a server core (2 MiB of L2 per core, the mesh's L3 at about
/// 14 GB/s of copy for one core, the speed of memory), the same copy ran 0.68 of
/// `copy_from_slice` streamed against 0.41 with plain stores (ndarray 0.46), and that
/// pattern with a 19.5 MiB destination 0.91 against 0.81.
#[inline]
pub(crate) fn stream_rows_worthy<T: 'static>(elements: impl FnOnce() -> usize) -> bool {
    if Target::STREAMS && Target::stream_rows_always() {
        return is_plain::<T>();
    }
    Target::STREAMS && is_plain::<T>() && elements().saturating_mul(size_of::<T>()) >= STREAM_BYTES
}

/// Copies `n` elements from `s` to `d` with non-temporal stores (x86-64), or
/// `copy_nonoverlapping`;
/// call [`stream_fence`] after the last one.
///
/// # Safety
///
/// `d..d+n` and `s..s+n` are elements of two slices that do not overlap, and `T` is plain
/// ([`is_plain`]).
#[inline]
pub(crate) unsafe fn stream_copy_unchecked<T: 'static>(d: *mut T, s: *const T, n: usize) {
    debug_assert!(is_plain::<T>(), "stream_copy_unchecked: not a primitive");
    debug_assert!(
        n == 0 || d.cast_const().wrapping_add(n) <= s || s.wrapping_add(n) <= d.cast_const(),
        "stream_copy_unchecked: overlapping ranges"
    );
    // SAFETY: the caller's contract, in bytes (`n` elements of two slices, whose byte
    // count does not overflow).
    unsafe {
        Target::stream_copy(
            d.cast::<u8>(),
            s.cast::<u8>(),
            n.saturating_mul(size_of::<T>()),
        );
    }
}

/// Hints the cache to fetch the `n` elements from `p` ahead of use (x86-64: into the second
/// level, one `prefetcht1` per line); a hint only, which never faults wherever `p` points, and
/// nothing on other targets.
#[inline]
pub(crate) fn prefetch_run<T>(p: *const T, n: usize) {
    let bytes = n.saturating_mul(size_of::<T>());
    for k in (0..bytes).step_by(64) {
        Target::prefetch_l2(p.cast::<u8>().wrapping_add(k));
    }
}

/// Orders the streaming stores of [`stream_copy_unchecked`] before every later store.
#[inline]
pub(crate) fn stream_fence() {
    Target::fence();
}

#[cfg(x86_kernels)]
pub(crate) mod x86 {
    use core::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_sfence, _mm_stream_si128};
    use core::arch::x86_64::{
        __m256i, _MM_HINT_T0, _MM_HINT_T1, _mm_prefetch, _mm256_loadu_si256, _mm256_stream_si256,
    };

    /// Copies `n` bytes with 16-byte non-temporal stores; [`fence`] must follow before the
    /// kernel returns.
    ///
    /// # Safety
    ///
    /// `d..d+n` and `s..s+n` are initialised bytes of two non-overlapping allocations' slices.
    #[expect(
        clippy::arithmetic_side_effects,
        reason = "counters stay below `n`, a byte count inside one slice"
    )]
    #[expect(
        clippy::cast_ptr_alignment,
        reason = "the 16-byte vector pointers are only used with unaligned loads, and stores after the head aligned them"
    )]
    #[expect(
        clippy::many_single_char_names,
        reason = "d, s, n, i: the usual copy names"
    )]
    pub(crate) unsafe fn stream_bytes(d: *mut u8, s: *const u8, n: usize) {
        // Whole cache lines only: a partly streamed line costs a memory transaction of its own.
        let head = d.align_offset(64).min(n);
        // SAFETY: `head <= n` bytes of each range (contract).
        unsafe { core::ptr::copy_nonoverlapping(s, d, head) };
        let mut i = head;
        while n - i >= 64 {
            // 64 bytes at `i`, `i + 64 <= n` (contract); `d + i` is 64-byte aligned (`head`
            // aligned it, and `i - head` is a multiple of 64). SSE2 is part of x86-64.
            // SAFETY: `i < n`: a source byte (above).
            let sp = unsafe { s.add(i) }.cast::<__m128i>();
            // SAFETY: `i < n`: a destination byte (above).
            let dp = unsafe { d.add(i) }.cast::<__m128i>();
            // SAFETY: source bytes `i..i + 16` (above); an unaligned load.
            let a = unsafe { _mm_loadu_si128(sp) };
            // SAFETY: byte `i + 16 < n` of the source (above).
            let sp1 = unsafe { sp.add(1) };
            // SAFETY: source bytes `i + 16..i + 32` (above); an unaligned load.
            let b = unsafe { _mm_loadu_si128(sp1) };
            // SAFETY: byte `i + 32 < n` of the source (above).
            let sp2 = unsafe { sp.add(2) };
            // SAFETY: source bytes `i + 32..i + 48` (above); an unaligned load.
            let c = unsafe { _mm_loadu_si128(sp2) };
            // SAFETY: byte `i + 48 < n` of the source (above).
            let sp3 = unsafe { sp.add(3) };
            // SAFETY: source bytes `i + 48..i + 64` (above); an unaligned load.
            let e = unsafe { _mm_loadu_si128(sp3) };
            // SAFETY: destination bytes `i..i + 16`, 16-byte aligned (above).
            unsafe { _mm_stream_si128(dp, a) };
            // SAFETY: byte `i + 16 < n` of the destination (above).
            let dp1 = unsafe { dp.add(1) };
            // SAFETY: destination bytes `i + 16..i + 32`, 16-byte aligned (above).
            unsafe { _mm_stream_si128(dp1, b) };
            // SAFETY: byte `i + 32 < n` of the destination (above).
            let dp2 = unsafe { dp.add(2) };
            // SAFETY: destination bytes `i + 32..i + 48`, 16-byte aligned (above).
            unsafe { _mm_stream_si128(dp2, c) };
            // SAFETY: byte `i + 48 < n` of the destination (above).
            let dp3 = unsafe { dp.add(3) };
            // SAFETY: destination bytes `i + 48..i + 64`, 16-byte aligned (above).
            unsafe { _mm_stream_si128(dp3, e) };
            i += 64;
        }
        // SAFETY: `i <= n`: inside (or one past) the source range (contract).
        let sp = unsafe { s.add(i) };
        // SAFETY: `i <= n`: inside (or one past) the destination range (contract).
        let dp = unsafe { d.add(i) };
        // SAFETY: the last `n - i` bytes of each range (contract), which do not overlap.
        unsafe { core::ptr::copy_nonoverlapping(sp, dp, n - i) };
    }

    /// [`stream_bytes`] with 32-byte AVX loads and stores, two lines per iteration, the
    /// source prefetched `AHEAD` bytes on while that is still inside the run.
    ///
    /// # Safety
    ///
    /// AVX is present, and [`stream_bytes`]'s contract.
    #[target_feature(enable = "avx")]
    #[expect(
        clippy::arithmetic_side_effects,
        reason = "counters stay below `n`, a byte count inside one slice"
    )]
    #[expect(
        clippy::cast_ptr_alignment,
        reason = "the source is read with unaligned loads; the destination is 64-byte aligned after the head"
    )]
    #[expect(
        clippy::many_single_char_names,
        reason = "d, s, n, i: the usual copy names"
    )]
    pub(crate) unsafe fn stream_bytes_avx(d: *mut u8, s: *const u8, n: usize) {
        /// How far ahead of the loads the source is prefetched, in bytes.
        const AHEAD: usize = 1024;
        let head = d.align_offset(64).min(n);
        // SAFETY: `head <= n` bytes of each range (contract).
        unsafe { core::ptr::copy_nonoverlapping(s, d, head) };
        let mut i = head;
        while n - i >= 128 {
            // 128 bytes at `i`, `i + 128 <= n` (contract); `d + i` is 64-byte aligned (`head`
            // aligned it, and `i - head` is a multiple of 64), so each 32-byte store is
            // aligned.
            // Only inside the run: past its end may lie bytes the copy never reads (the rows a
            // strided slice skips). A prefetch is a hint that never faults, wherever it
            // points.
            if n - i >= AHEAD + 128 {
                prefetch_t0(s.wrapping_add(i + AHEAD));
                prefetch_t0(s.wrapping_add(i + AHEAD + 64));
            }
            // SAFETY: `i < n`: a source byte (above).
            let sp = unsafe { s.add(i) }.cast::<__m256i>();
            // SAFETY: `i < n`: a destination byte (above).
            let dp = unsafe { d.add(i) }.cast::<__m256i>();
            let v: [__m256i; 4] = core::array::from_fn(|k| {
                // SAFETY: byte `i + 32k < n` (`k < 4`) of the source (above).
                let at = unsafe { sp.add(k) };
                // SAFETY: source bytes `i + 32k..i + 32k + 32` (above); an unaligned load;
                // AVX is present (this function's feature).
                unsafe { _mm256_loadu_si256(at) }
            });
            for (k, x) in v.into_iter().enumerate() {
                // SAFETY: byte `i + 32k < n` (`k < 4`) of the destination (above).
                let at = unsafe { dp.add(k) };
                // SAFETY: destination bytes `i + 32k..i + 32k + 32`, 32-byte aligned (above);
                // AVX is present (this function's feature).
                unsafe { _mm256_stream_si256(at, x) };
            }
            i += 128;
        }
        // SAFETY: `i <= n`: inside (or one past) the destination range (contract).
        let dp = unsafe { d.add(i) };
        // SAFETY: `i <= n`: inside (or one past) the source range (contract).
        let sp = unsafe { s.add(i) };
        // SAFETY: the last `n - i` bytes of each range (contract).
        unsafe { stream_bytes(dp, sp, n - i) };
    }

    /// Hints the first-level cache to fetch the line at `p`; never faults. A safe function
    /// around the intrinsic, which is an `unsafe fn` on older compilers (the MSRV) and safe
    /// inside a feature-enabled function on newer ones, so no call site needs an `unsafe`
    /// block that one of them calls unused.
    #[expect(
        clippy::inline_always,
        reason = "a hint inside the streaming loop: a call there costs more than the hint"
    )]
    #[inline(always)]
    fn prefetch_t0(p: *const u8) {
        // SAFETY: SSE is part of x86-64; `prefetcht0` is a hint that never faults.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>()) };
    }

    /// Hints the second-level cache to fetch the line at `p`; never faults.
    #[inline]
    pub(crate) fn prefetch(p: *const u8) {
        // SAFETY: SSE is part of x86-64; `prefetcht1` is a hint that never faults.
        unsafe { _mm_prefetch::<_MM_HINT_T1>(p.cast::<i8>()) };
    }

    /// Orders earlier non-temporal stores before every later store.
    pub(crate) fn fence() {
        // SAFETY: SSE is part of x86-64; `sfence` has no other precondition.
        unsafe { _mm_sfence() };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::vec::Vec;

    #[test]
    fn stream_copy_copies_unaligned_ranges() {
        let src: Vec<u8> = (0..300u32)
            .map(|x| u8::try_from(x % 251).unwrap())
            .collect();
        let mut dst = std::vec![0u8; 301];
        // SAFETY: offset 1 is inside the 301-byte buffer.
        let d = unsafe { dst.as_mut_ptr().add(1) };
        // SAFETY: offset 1 is inside the 300-byte buffer.
        let s = unsafe { src.as_ptr().add(1) };
        // SAFETY: 299 bytes from offset 1 of each buffer, distinct buffers.
        unsafe { stream_copy_unchecked(d, s, 299) };
        assert_eq!(&dst[1..300], &src[1..300]);
        assert_eq!((dst[0], dst[300]), (0, 0));
    }
}
