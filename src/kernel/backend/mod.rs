//! The one place a target's SIMD kernels are chosen: the [`Backend`] trait, one
//! implementation per target, and [`Target`], the one this build runs.
//!
//! Every kernel family (the transposes, the channel shuffles, the small blocks, the
//! streaming stores, the reversed runs) asks its vector work of `Target` through this trait,
//! and nowhere else names an architecture. A method's default body is the portable twin
//! (or, for the channel shuffles, "none": the caller's plain loops), so a backend overrides
//! only what its vector unit does better, the way a fixed-rank type overrides one method of
//! a generic trait. Inside a backend, the channel shuffles' vector operations are one more
//! trait, `channels::Unit` (one implementation per vector unit: SSSE3, AVX2, NEON, the
//! portable twin), on which the zips of the small blocks' stereo interleave run too.
//!
//! | backend | `Target` when | transposes | channel shuffles, small stereo blocks | streaming stores |
//! | --- | --- | --- | --- | --- |
//! | `X86` | `x86_kernels` (x86-64, not Miri) | SSE2, AVX, AVX2 by run-time detection ([`cpu`](super::cpu)), line kernels, grouped tiles | AVX2, else SSSE3 | non-temporal, AVX or SSE2 |
//! | `Neon` | `neon_kernels` (aarch64 with NEON, not Miri) | NEON 4 × 4 / 2 × 2, portable 1- and 2-byte | NEON | plain |
//! | `Miri` | under Miri | portable twins | the portable unit (the same loops on `[u8; 16]`) | plain |
//! | `Plain` | others (bare metal, other hosts) | portable twins | none: plain strided loops (smaller, and as fast without a vector unit) | plain |
//!
//! `build.rs` decides the two `cfg`s from `target_arch` and `target_feature`; this file turns
//! them into `Target`.
//!
//! Every method is `unsafe` where it touches memory: its contract is the one of the family's
//! entry point that calls it, restated on the method.

use super::channels::Band;
#[cfg(not(target_os = "none"))]
use super::transpose::Grouped;
use super::transpose::{blocks, micro_portable, transpose_unchecked};

#[cfg(x86_kernels)]
mod x86;
#[cfg(neon_kernels)]
mod neon;
#[cfg(not(any(x86_kernels, neon_kernels)))]
mod portable;

/// The backend this build runs (see the module table).
#[cfg(x86_kernels)]
pub(crate) type Target = x86::X86;
/// The backend this build runs (see the module table).
#[cfg(neon_kernels)]
pub(crate) type Target = neon::Neon;
/// The backend this build runs (see the module table).
#[cfg(miri)]
pub(crate) type Target = portable::Miri;
/// The backend this build runs (see the module table).
#[cfg(not(any(x86_kernels, neon_kernels, miri)))]
pub(crate) type Target = portable::Plain;

/// What a target's vector unit does for the kernels; default bodies are the portable twins
/// (see the module docs).
pub(crate) trait Backend: Sized {
    /// What a dispatch on a short path knows of the CPU without a call (x86-64: the detected
    /// features; elsewhere nothing to know).
    type Cpu: Copy;

    /// The CPU's features once known (`None` before detection has run: the caller runs
    /// [`detect_now`](Self::detect_now) on a cold path and asks again).
    #[cfg(not(target_os = "none"))]
    fn known() -> Option<Self::Cpu>;

    /// Runs the detection if it has not run.
    #[cfg(not(target_os = "none"))]
    #[inline]
    fn detect_now() {}

    // ----- transposes (`transpose/`) -----

    /// One 8 × 8 block of 1-byte elements, `d[i·dr + j] = s[i + j·sr]` (`i, j < 8`).
    ///
    /// # Safety
    ///
    /// Every `d + i·dr + j` and `s + i + j·sr` (`i, j < 8`) is an element of its slice, no
    /// destination element a source one.
    #[inline]
    unsafe fn micro1(d: *mut u8, dr: isize, s: *const u8, sr: isize) {
        // SAFETY: the caller's contract.
        unsafe { micro_portable::<u8, 8>(d, dr, s, sr) };
    }

    /// [`micro1`](Self::micro1) of 2-byte elements.
    ///
    /// # Safety
    ///
    /// As [`micro1`](Self::micro1).
    #[inline]
    unsafe fn micro2(d: *mut u16, dr: isize, s: *const u16, sr: isize) {
        // SAFETY: the caller's contract.
        unsafe { micro_portable::<u16, 8>(d, dr, s, sr) };
    }

    /// One 4 × 4 block of 4-byte elements.
    ///
    /// # Safety
    ///
    /// As [`micro1`](Self::micro1), for `i, j < 4`.
    #[inline]
    unsafe fn square4(d: *mut f32, dr: isize, s: *const f32, sr: isize) {
        // SAFETY: the caller's contract.
        unsafe { micro_portable::<f32, 4>(d, dr, s, sr) };
    }

    /// One 2 × 2 block of 8-byte elements.
    ///
    /// # Safety
    ///
    /// As [`micro1`](Self::micro1), for `i, j < 2`.
    #[inline]
    unsafe fn square8(d: *mut f64, dr: isize, s: *const f64, sr: isize) {
        // SAFETY: the caller's contract.
        unsafe { micro_portable::<f64, 2>(d, dr, s, sr) };
    }

    /// `dst[i·dr + j] = src[i + j·sr]` (`i < ea`, `j < eb`) of 1-byte elements:
    /// [`micro1`](Self::micro1) blocks, the edges element by element.
    ///
    /// # Safety
    ///
    /// [`transpose_unchecked`]'s contract, for 1-byte elements.
    #[inline]
    unsafe fn transpose1(d: *mut u8, dr: isize, s: *const u8, sr: isize, ea: usize, eb: usize) {
        let micro = |d: *mut u8, s: *const u8| {
            // SAFETY: `blocks` hands over a whole 8 × 8 block of the transpose (its contract),
            // for which the caller's contract holds.
            unsafe { Self::micro1(d, dr, s, sr) };
        };
        // SAFETY: the caller's contract; `micro` is sound for any whole 8 × 8 block of it.
        unsafe { blocks::<u8, 8>(d, dr, s, sr, ea, eb, micro) };
    }

    /// [`transpose1`](Self::transpose1) of 2-byte elements, in [`micro2`](Self::micro2)
    /// blocks.
    ///
    /// # Safety
    ///
    /// [`transpose_unchecked`]'s contract, for 2-byte elements.
    #[inline]
    unsafe fn transpose2(d: *mut u16, dr: isize, s: *const u16, sr: isize, ea: usize, eb: usize) {
        let micro = |d: *mut u16, s: *const u16| {
            // SAFETY: `blocks` hands over a whole 8 × 8 block of the transpose (its contract),
            // for which the caller's contract holds.
            unsafe { Self::micro2(d, dr, s, sr) };
        };
        // SAFETY: the caller's contract; `micro` is sound for any whole 8 × 8 block of it.
        unsafe { blocks::<u16, 8>(d, dr, s, sr, ea, eb, micro) };
    }

    /// A whole transpose of 4-byte elements by the unit's wide kernels, where it has them
    /// for this CPU; `false`, with nothing written, where not (the default).
    ///
    /// # Safety
    ///
    /// [`transpose_unchecked`]'s contract, for 4-byte elements.
    #[inline]
    unsafe fn wide4(
        d: *mut u32,
        dr: isize,
        s: *const u32,
        sr: isize,
        ea: usize,
        eb: usize,
    ) -> bool {
        let _ = (d, dr, s, sr, ea, eb);
        false
    }

    /// [`wide4`](Self::wide4) of 8-byte elements.
    ///
    /// # Safety
    ///
    /// [`transpose_unchecked`]'s contract, for 8-byte elements.
    #[inline]
    unsafe fn wide8(
        d: *mut f64,
        dr: isize,
        s: *const f64,
        sr: isize,
        ea: usize,
        eb: usize,
    ) -> bool {
        let _ = (d, dr, s, sr, ea, eb);
        false
    }

    /// [`transpose1`](Self::transpose1) of 4-byte elements: [`wide4`](Self::wide4) where it
    /// runs, else [`square4`](Self::square4) blocks.
    ///
    /// # Safety
    ///
    /// [`transpose_unchecked`]'s contract, for 4-byte elements.
    #[inline]
    unsafe fn transpose4(d: *mut f32, dr: isize, s: *const f32, sr: isize, ea: usize, eb: usize) {
        // SAFETY: the caller's contract, the bits moved as `u32` bits.
        if unsafe { Self::wide4(d.cast(), dr, s.cast(), sr, ea, eb) } {
            return;
        }
        let micro = |d: *mut f32, s: *const f32| {
            // SAFETY: `blocks` hands over a whole 4 × 4 block of the transpose (its contract),
            // for which the caller's contract holds.
            unsafe { Self::square4(d, dr, s, sr) };
        };
        // SAFETY: the caller's contract; `micro` is sound for any whole 4 × 4 block.
        unsafe { blocks::<f32, 4>(d, dr, s, sr, ea, eb, micro) };
    }

    /// [`transpose1`](Self::transpose1) of 8-byte elements: [`wide8`](Self::wide8) where it
    /// runs, else [`square8`](Self::square8) blocks.
    ///
    /// # Safety
    ///
    /// [`transpose_unchecked`]'s contract, for 8-byte elements.
    #[inline]
    unsafe fn transpose8(d: *mut f64, dr: isize, s: *const f64, sr: isize, ea: usize, eb: usize) {
        // SAFETY: the caller's contract.
        if unsafe { Self::wide8(d, dr, s, sr, ea, eb) } {
            return;
        }
        let micro = |d: *mut f64, s: *const f64| {
            // SAFETY: `blocks` hands over a whole 2 × 2 block of the transpose (its contract),
            // for which the caller's contract holds.
            unsafe { Self::square8(d, dr, s, sr) };
        };
        // SAFETY: the caller's contract; `micro` is sound for any whole 2 × 2 block.
        unsafe { blocks::<f64, 2>(d, dr, s, sr, ea, eb, micro) };
    }

    /// Whether [`tiles8`](Self::tiles8) has a kernel of its own here (else it is
    /// [`transpose4`](Self::transpose4)).
    #[cfg(not(target_os = "none"))]
    #[inline]
    fn has_tiles8(cpu: Self::Cpu) -> bool {
        let _ = cpu;
        false
    }

    /// A transpose of 4-byte elements whose sides are multiples of 8, in 8 × 8 tiles (the
    /// small blocks' whole tiles).
    ///
    /// # Safety
    ///
    /// [`transpose_unchecked`]'s contract, for 4-byte elements, `ea` and `eb` multiples of
    /// 8, and [`has_tiles8`](Self::has_tiles8) said so for the CPU.
    #[cfg(not(target_os = "none"))]
    #[inline]
    unsafe fn tiles8(d: *mut u32, dr: isize, s: *const u32, sr: isize, ea: usize, eb: usize) {
        // SAFETY: the caller's contract, the bits of 4-byte elements moved as `f32` bits.
        unsafe { Self::transpose4(d.cast(), dr, s.cast(), sr, ea, eb) };
    }

    /// Whether a streaming line kernel exists for elements of `size` bytes
    /// ([`transpose_lines`](Self::transpose_lines)).
    #[inline]
    fn line_kernel(size: usize) -> bool {
        let _ = size;
        false
    }

    /// A large transpose in line kernels (`transpose::transpose_stream_unchecked`): with `nt`,
    /// the whole destination lines by non-temporal stores (the caller fences).
    ///
    /// # Safety
    ///
    /// `transpose_stream_unchecked`'s contract: [`line_kernel`](Self::line_kernel) holds for
    /// `T`'s size, and [`transpose_unchecked`]'s contract.
    #[inline]
    unsafe fn transpose_lines<T: 'static>(
        dst: *mut T,
        dr: isize,
        src: *const T,
        sr: isize,
        [ea, eb]: [usize; 2],
        nt: bool,
    ) {
        let _ = nt;
        // SAFETY: the caller's contract; the cached transpose is correct for any block.
        unsafe { transpose_unchecked(dst, dr, src, sr, ea, eb) };
    }

    /// The side of the grouped transpose's tile for plain elements of `size` bytes, where it
    /// runs: 8 × 8 tiles of 2- and 4-byte elements, 4 × 4 of 8-byte ones.
    #[cfg(not(target_os = "none"))]
    #[inline]
    fn grouped_side(size: usize) -> Option<usize> {
        match size {
            2 | 4 => Some(8),
            8 => Some(4),
            _ => None,
        }
    }

    /// A grouped transpose's cube of 2-byte elements (`Grouped::run`).
    ///
    /// # Safety
    ///
    /// `Grouped::run`'s contract, for 2-byte elements.
    #[cfg(not(target_os = "none"))]
    #[inline]
    unsafe fn grouped2<T: 'static>(g: &Grouped<T>, d: *mut u16, s: *const u16) {
        // SAFETY: the caller's contract.
        unsafe { grouped_portable::<T, u16, 8>(g, d, s) };
    }

    /// A grouped transpose's cube of 4-byte elements.
    ///
    /// # Safety
    ///
    /// `Grouped::run`'s contract, for 4-byte elements.
    #[cfg(not(target_os = "none"))]
    #[inline]
    unsafe fn grouped4<T: 'static>(g: &Grouped<T>, d: *mut u32, s: *const u32) {
        // SAFETY: the caller's contract.
        unsafe { grouped_portable::<T, u32, 8>(g, d, s) };
    }

    /// A grouped transpose's cube of 8-byte elements.
    ///
    /// # Safety
    ///
    /// `Grouped::run`'s contract, for 8-byte elements.
    #[cfg(not(target_os = "none"))]
    #[inline]
    unsafe fn grouped8<T: 'static>(g: &Grouped<T>, d: *mut u64, s: *const u64) {
        // SAFETY: the caller's contract.
        unsafe { grouped_portable::<T, u64, 4>(g, d, s) };
    }

    // ----- channel shuffles (`channels/`) and the small blocks' stereo interleave -----

    /// Whether this target shuffles channels at all (else channel blocks take the plain
    /// strided loops).
    const SHUFFLES: bool = false;

    /// The 16-byte groups of each plane a step of [`channels`](Backend::channels) moves, for
    /// pixels of `lanes` lanes: 0 where it moves none (the default: no shuffles).
    #[inline]
    fn channel_groups(lanes: usize) -> usize {
        let _ = lanes;
        0
    }

    /// Whole groups of `C` channels of `SIZE` bytes, planar -> interleaved (`INTER`) or back
    /// (`channels::by_shape`); returns the pixels done, a prefix (0 by default: none).
    ///
    /// # Safety
    ///
    /// `channels::by_shape`'s contract in bytes, with `c == C` and elements of `SIZE` bytes.
    #[inline]
    unsafe fn channels<const C: usize, const SIZE: usize, const INTER: bool>(
        d: *mut u8,
        s: *const u8,
        plane: isize,
        n: usize,
        stream: bool,
        used: usize,
    ) -> usize {
        let _ = (d, s, plane, n, stream, used);
        0
    }

    /// One channel of pixels of `C` lanes of `SIZE` bytes gathered (or scattered, `INSERT`)
    /// for a band of rows (`channels::one_channel`); returns the pixels done in every row.
    ///
    /// # Safety
    ///
    /// `channels::one_channel`'s contract in bytes.
    #[inline]
    unsafe fn one_channel<const C: usize, const SIZE: usize, const INSERT: bool>(
        band: Band,
    ) -> usize {
        let _ = band;
        0
    }

    /// A partial interleave block of `C` (2 to 4) 4-byte channels in pixels of `px` lanes
    /// (`channels::interleave_partial`, in bytes); returns the pixels done.
    ///
    /// # Safety
    ///
    /// `channels::interleave_partial`'s contract, in bytes, for 4-byte elements.
    #[inline]
    unsafe fn partial4<const C: usize>(
        d: *mut u8,
        px: usize,
        s: *const u8,
        plane: isize,
        n: usize,
    ) -> usize {
        let _ = (d, px, s, plane, n);
        0
    }

    /// `d[2i] = l[i]`, `d[2i + 1] = r[i]` (`i < n`) of `SIZE`-byte elements by the units'
    /// zips (`channels::pairs`); returns whether it ran (else the caller's loop does it).
    ///
    /// # Safety
    ///
    /// `channels::pairs`'s contract, in bytes.
    #[inline]
    unsafe fn pairs<const SIZE: usize>(
        cpu: Self::Cpu,
        d: *mut u8,
        l: *const u8,
        r: *const u8,
        n: usize,
    ) -> bool {
        let _ = (cpu, d, l, r, n);
        false
    }

    /// The small blocks' stereo interleave, `d[2i] = s[i]`, `d[2i + 1] = s[sr + i]` for
    /// `i < n`: the channel kernels' zips ([`pairs`](Self::pairs)) where there are any, else
    /// the channel kernels' two-channel loop.
    ///
    /// # Safety
    ///
    /// `T` is a plain 1-, 2-, 4- or 8-byte primitive; `d..d + 2n`, `s..s + n` and
    /// `s + sr..s + sr + n` are elements of their allocations, and the destination elements
    /// are none of the source ones.
    #[cfg(not(target_os = "none"))]
    #[inline]
    unsafe fn interleave2<T: Copy + 'static>(
        cpu: Self::Cpu,
        d: *mut T,
        s: *const T,
        sr: isize,
        n: usize,
    ) {
        let r = s.wrapping_offset(sr);
        // SAFETY: the second channel starts at source element `r = s + sr`, and the contract
        // is `pairs`'s for the two channels (`T` a plain primitive).
        if unsafe { super::channels::pairs::<T, Self>(cpu, d, s, r, n) } {
            return;
        }
        // SAFETY: the contract is `channels::interleave`'s for `c = 2` channels `sr` apart in
        // dense pixels of `px = 2` elements.
        unsafe { super::channels::interleave(d, 2, s, sr, 2, n, false) };
    }

    // ----- streaming stores (`stream.rs`) and reversed runs (`raw/rows.rs`) -----

    /// Whether this target stores non-temporally at all.
    const STREAMS: bool = false;

    /// Whether contiguous rows stream whenever the copy does (Intel cores), not only past
    /// the streaming size of destination.
    #[inline]
    fn stream_rows_always() -> bool {
        false
    }

    /// Copies `n` bytes from `s` to `d`, non-temporally where [`STREAMS`](Self::STREAMS)
    /// (then [`fence`](Self::fence) follows the last).
    ///
    /// # Safety
    ///
    /// `s..s + n` and `d..d + n` are within their allocations and do not overlap.
    #[inline]
    unsafe fn stream_copy(d: *mut u8, s: *const u8, n: usize) {
        // SAFETY: the caller's contract.
        unsafe { core::ptr::copy_nonoverlapping(s, d, n) };
    }

    /// The run length, in bytes, below which the C library's `memcpy` of a run whose
    /// destination lies 1 to 63 bytes past its source modulo 4096 may take a slow case, so
    /// that [`copy_run`](super::raw::copy_run) moves such a run in pieces instead (default:
    /// 0, never).
    #[inline]
    fn memcpy_slow_below() -> usize {
        0
    }

    /// Hints the cache to fetch the line at `p` into the second level; never faults.
    #[inline]
    fn prefetch_l2(p: *const u8) {
        let _ = p;
    }

    /// Orders the non-temporal stores before every later store.
    #[inline]
    fn fence() {}

    /// `rows` reversed runs: `d[i·dr + j] = s[i·sr + n − 1 − j]` for `i < rows`, `j < n`.
    ///
    /// # Safety
    ///
    /// `raw::rows::reverse_rows`'s contract.
    #[inline]
    unsafe fn reverse_rows<T: Copy>(
        d: *mut T,
        dr: isize,
        s: *const T,
        sr: isize,
        rows: usize,
        n: usize,
    ) {
        // SAFETY: the caller's contract.
        unsafe { super::raw::reverse_rows_portable(d, dr, s, sr, rows, n) };
    }
}

/// A grouped transpose's cube in the portable `W × W` tiles (the default `grouped*`).
///
/// # Safety
///
/// `Grouped::run`'s contract, for elements of `E`'s size.
#[cfg(not(target_os = "none"))]
#[inline]
unsafe fn grouped_portable<T: 'static, E: Copy, const W: usize>(
    g: &Grouped<T>,
    d: *mut E,
    s: *const E,
) {
    let tile = |dst, src| {
        // SAFETY: `run_with` hands over tiles of the cube (its contract).
        unsafe { super::transpose::tile_portable::<E, W>(dst, src) };
    };
    // SAFETY: the caller's contract; the tile copies exactly the tile it is handed.
    unsafe { g.run_with::<E, W>(d, s, tile) };
}

/// The channel methods of a backend with one unit `U` and no target feature to enable at run
/// time (NEON, enabled at compile time; the portable twin): the shuffles, one channel and the
/// stereo zips of `channels/` on `U`, plain stores.
#[cfg(any(neon_kernels, miri))]
macro_rules! one_unit_channels {
    ($unit:ty) => {
        const SHUFFLES: bool = true;

        #[inline]
        fn channel_groups(lanes: usize) -> usize {
            let _ = lanes;
            <$unit as crate::kernel::channels::Unit>::GROUPS
        }

        #[inline]
        unsafe fn channels<const C: usize, const SIZE: usize, const INTER: bool>(
            d: *mut u8,
            s: *const u8,
            plane: isize,
            n: usize,
            stream: bool,
            used: usize,
        ) -> usize {
            let _ = stream;
            // SAFETY: the unit's feature is enabled at compile time (or needs none); the
            // caller's contract (plain stores).
            unsafe {
                crate::kernel::channels::run_on::<$unit, C, SIZE, INTER>(
                    d, s, plane, n, false, used,
                )
            }
        }

        #[inline]
        unsafe fn one_channel<const C: usize, const SIZE: usize, const INSERT: bool>(
            band: crate::kernel::channels::Band,
        ) -> usize {
            // SAFETY: as above; the caller's contract.
            unsafe { crate::kernel::channels::one_channel_on::<$unit, C, SIZE, INSERT>(band) }
        }

        #[inline]
        unsafe fn pairs<const SIZE: usize>(
            cpu: (),
            d: *mut u8,
            l: *const u8,
            r: *const u8,
            n: usize,
        ) -> bool {
            let () = cpu;
            // SAFETY: as above; the caller's contract.
            let done = unsafe { crate::kernel::channels::zip_pairs::<$unit, SIZE>(d, l, r, n) };
            // SAFETY: the pairs from `done <= n` (the caller's contract).
            unsafe { crate::kernel::channels::pairs_one_by_one::<SIZE>(d, l, r, done, n) };
            true
        }
    };
}
#[cfg(any(neon_kernels, miri))]
use one_unit_channels;

#[cfg(test)]
#[expect(
    clippy::cast_possible_wrap,
    clippy::expect_used,
    reason = "small test sizes; a test's expectations fail loudly"
)]
mod tests;
