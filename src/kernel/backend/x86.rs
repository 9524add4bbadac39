//! The x86-64 backend: SSE2 (part of x86-64), and AVX, AVX2 and SSSE3 where the CPU has them
//! ([`crate::kernel::cpu`]: compiled in, or detected at run time once).

use core::mem::size_of;

use super::Backend;
use crate::kernel::channels::{self, Band};
use crate::kernel::cpu::{self, Features, has_avx, has_avx2, has_ssse3};
use crate::kernel::drive::step;
use crate::kernel::raw::reverse_rows_portable;
use crate::kernel::stream;
#[cfg(not(target_os = "none"))]
use crate::kernel::transpose::Grouped;
use crate::kernel::transpose::x86 as tx;

/// x86-64 (see the module table of [`super`]).
pub(crate) struct X86;

impl Backend for X86 {
    type Cpu = Features;

    #[cfg(not(target_os = "none"))]
    #[inline]
    fn known() -> Option<Features> {
        Features::known()
    }

    #[cfg(not(target_os = "none"))]
    #[inline]
    fn detect_now() {
        cpu::detect_now();
    }

    #[inline]
    unsafe fn micro1(d: *mut u8, dr: isize, s: *const u8, sr: isize) {
        // SAFETY: SSE2 is part of x86-64; the caller's contract.
        unsafe { tx::micro_sse2_u8(d, dr, s, sr) };
    }

    #[inline]
    unsafe fn micro2(d: *mut u16, dr: isize, s: *const u16, sr: isize) {
        // SAFETY: SSE2 is part of x86-64; the caller's contract.
        unsafe { tx::micro_sse2_u16(d, dr, s, sr) };
    }

    #[inline]
    unsafe fn square4(d: *mut f32, dr: isize, s: *const f32, sr: isize) {
        // SAFETY: SSE2 is part of x86-64; the caller's contract.
        unsafe { tx::micro_sse2(d, dr, s, sr) };
    }

    #[inline]
    unsafe fn square8(d: *mut f64, dr: isize, s: *const f64, sr: isize) {
        // SAFETY: SSE2 is part of x86-64; the caller's contract.
        unsafe { tx::micro_sse2_f64(d, dr, s, sr) };
    }

    /// AVX2's 8 × 8 tiles, where the CPU has AVX2.
    #[inline]
    unsafe fn wide4(
        d: *mut u32,
        dr: isize,
        s: *const u32,
        sr: isize,
        ea: usize,
        eb: usize,
    ) -> bool {
        if !has_avx2() {
            return false;
        }
        // SAFETY: AVX2 is present (checked above); the caller's contract.
        unsafe { tx::transpose_avx2(d, dr, s, sr, ea, eb) };
        true
    }

    /// AVX's 8 × 8 line kernels (4 × 4 at the edges), where the CPU has AVX.
    #[inline]
    unsafe fn wide8(
        d: *mut f64,
        dr: isize,
        s: *const f64,
        sr: isize,
        ea: usize,
        eb: usize,
    ) -> bool {
        if !has_avx() {
            return false;
        }
        // SAFETY: AVX is present (checked above); the caller's contract.
        unsafe { tx::transpose_avx_f64(d, dr, s, sr, ea, eb) };
        true
    }

    #[cfg(not(target_os = "none"))]
    #[inline]
    fn has_tiles8(cpu: Features) -> bool {
        cpu.avx2()
    }

    #[cfg(not(target_os = "none"))]
    #[inline]
    unsafe fn tiles8(d: *mut u32, dr: isize, s: *const u32, sr: isize, ea: usize, eb: usize) {
        // SAFETY: AVX2 is present (`has_tiles8`, the caller's contract); the rest of it.
        unsafe { tx::tiles8_avx2(d, dr, s, sr, ea, eb) };
    }

    #[inline]
    fn line_kernel(size: usize) -> bool {
        if size == 4 { has_avx2() } else { has_avx() }
    }

    #[inline]
    unsafe fn transpose_lines<T: 'static>(
        dst: *mut T,
        dr: isize,
        src: *const T,
        sr: isize,
        extents: [usize; 2],
        nt: bool,
    ) {
        // SAFETY: the caller's contract (a line kernel exists for `T`'s size).
        unsafe { tx::transpose_lines(dst, dr, src, sr, extents, nt) };
    }

    #[cfg(not(target_os = "none"))]
    #[inline]
    fn grouped_side(size: usize) -> Option<usize> {
        match size {
            2 => Some(8),
            4 if has_avx2() => Some(8),
            8 if has_avx() => Some(4),
            _ => None,
        }
    }

    #[cfg(not(target_os = "none"))]
    #[inline]
    unsafe fn grouped2<T: 'static>(g: &Grouped<T>, d: *mut u16, s: *const u16) {
        let tile = |dst, src| {
            // SAFETY: `run_with` hands over tiles of the cube (its contract); SSE2 is part of
            // x86-64.
            unsafe { tx::tile_u16_of_pointers(dst, src) };
        };
        // SAFETY: the caller's contract; the tile copies exactly the tile it is handed.
        unsafe { g.run_with::<u16, 8>(d, s, tile) };
    }

    #[cfg(not(target_os = "none"))]
    #[inline]
    unsafe fn grouped4<T: 'static>(g: &Grouped<T>, d: *mut u32, s: *const u32) {
        // SAFETY: `Grouped::of` minted `g` for 4-byte elements only where AVX2 is present
        // (`grouped_side`); the caller's contract is `grouped_avx2`'s.
        unsafe { tx::grouped_avx2(g, d, s) };
    }

    #[cfg(not(target_os = "none"))]
    #[inline]
    unsafe fn grouped8<T: 'static>(g: &Grouped<T>, d: *mut u64, s: *const u64) {
        // SAFETY: `Grouped::of` minted `g` for 8-byte elements only where AVX is present
        // (`grouped_side`); the caller's contract is `grouped_avx_f64`'s.
        unsafe { tx::grouped_avx_f64(g, d.cast::<f64>(), s.cast::<f64>()) };
    }

    const SHUFFLES: bool = true;

    #[inline]
    fn channel_groups(lanes: usize) -> usize {
        // AVX2's two groups a step; else SSSE3's one (CPUs from before 2013), for 2 to 4 lanes
        // only: more would double the code of the largest kernels for few machines.
        if has_avx2() {
            2
        } else {
            usize::from(lanes <= 4 && has_ssse3())
        }
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
        match Self::channel_groups(C) {
            // SAFETY: two groups only where AVX2 is present (`channel_groups`); the caller's
            // contract.
            2 => unsafe { channels::x86::avx2::<C, SIZE, INTER>(d, s, plane, n, stream, used) },
            // SAFETY: one only where SSSE3 is present (`channel_groups`); the caller's contract.
            1 => unsafe { channels::x86::ssse3::<C, SIZE, INTER>(d, s, plane, n, stream, used) },
            _ => 0,
        }
    }

    #[inline]
    unsafe fn one_channel<const C: usize, const SIZE: usize, const INSERT: bool>(
        band: Band,
    ) -> usize {
        if has_avx2() {
            // SAFETY: AVX2 is present (checked); the caller's contract.
            return unsafe { channels::x86::avx2_one::<C, SIZE, INSERT>(band) };
        }
        if C <= 4 && has_ssse3() {
            // SAFETY: SSSE3 is present (checked); the caller's contract.
            return unsafe { channels::x86::ssse3_one::<C, SIZE, INSERT>(band) };
        }
        0
    }

    #[inline]
    unsafe fn partial4<const C: usize>(
        d: *mut u8,
        px: usize,
        s: *const u8,
        plane: isize,
        n: usize,
    ) -> usize {
        if cfg!(target_os = "none") || !has_avx2() {
            return 0;
        }
        // SAFETY: AVX2 is present (checked); the caller's contract in bytes, with `c == C`.
        unsafe { channels::x86::avx2_partial4::<C>(d, px, s, plane, n) }
    }

    #[inline]
    unsafe fn pairs<const SIZE: usize>(
        cpu: Features,
        d: *mut u8,
        l: *const u8,
        r: *const u8,
        n: usize,
    ) -> bool {
        if cpu.avx2() {
            // SAFETY: AVX2 is present (checked); the caller's contract.
            unsafe { channels::x86::avx2_pairs::<SIZE>(d, l, r, n) };
        } else if cpu.ssse3() {
            // SAFETY: SSSE3 is present (checked); the caller's contract.
            unsafe { channels::x86::ssse3_pairs::<SIZE>(d, l, r, n) };
        } else {
            return false;
        }
        true
    }

    /// One call to the channel kernels' zips (32-byte steps with AVX2, then 16, then a frame
    /// a step), or, below one 16-byte step a channel or without SSSE3, one frame a step here.
    #[cfg(not(target_os = "none"))]
    #[inline]
    unsafe fn interleave2<T: Copy + 'static>(
        cpu: Features,
        d: *mut T,
        s: *const T,
        sr: isize,
        n: usize,
    ) {
        let r = s.wrapping_offset(sr);
        // `n` elements of each channel exist (contract), so `n·size` bytes do not wrap. Less
        // than one 16-byte step a channel (a 2 × 2 transpose) goes one frame a step, without
        // the vector paths' call (113 -> 88 instructions a prepared 2 × 2 `f32` call, harness
        // included).
        if n.wrapping_mul(size_of::<T>()) >= 16 {
            // SAFETY: the second channel starts at source element `r = s + sr`; the contract
            // is `pairs`'s (`T` a plain primitive).
            if unsafe { channels::pairs::<T, Self>(cpu, d, s, r, n) } {
                return;
            }
        }
        // SAFETY: the contract, every frame (the right channel at `r = s + sr`).
        unsafe { interleave2_frames(d, s, r, n) };
    }

    const STREAMS: bool = true;

    #[inline]
    fn stream_rows_always() -> bool {
        cpu::is_intel()
    }

    /// The length from which the C library stops using `rep movsb` ([`cpu::rep_movsb_below`]):
    /// at those distances `rep movsb` runs about 15 times slower on AMD Zen cores (a 128 KiB
    /// `f64` copy 8 bytes past the source: 42 us against 3.0 in pieces), while pieces of a
    /// longer run forgo the library's loops for such runs, fast at any distance (2 MiB 16
    /// bytes past: 53 us in pieces, 47 whole; 8 MiB: 278 and 224).
    #[inline]
    fn memcpy_slow_below() -> usize {
        cpu::rep_movsb_below()
    }

    #[inline]
    unsafe fn stream_copy(d: *mut u8, s: *const u8, n: usize) {
        if has_avx() {
            // SAFETY: AVX is present (checked); the caller's contract.
            unsafe { stream::x86::stream_bytes_avx(d, s, n) };
        } else {
            // SAFETY: the caller's contract.
            unsafe { stream::x86::stream_bytes(d, s, n) };
        }
    }

    #[inline]
    fn prefetch_l2(p: *const u8) {
        stream::x86::prefetch(p);
    }

    #[inline]
    fn fence() {
        stream::x86::fence();
    }

    #[inline]
    unsafe fn reverse_rows<T: Copy>(
        d: *mut T,
        dr: isize,
        s: *const T,
        sr: isize,
        rows: usize,
        n: usize,
    ) {
        if has_avx2() {
            // SAFETY: AVX2 is present (checked); the contract.
            unsafe { reverse_rows_avx2(d, dr, s, sr, rows, n) };
            return;
        }
        // SAFETY: the contract.
        unsafe { reverse_rows_portable(d, dr, s, sr, rows, n) }
    }
}

/// The reversed rows' loops compiled for AVX2 (32-byte shuffles), the row loop included.
///
/// # Safety
///
/// AVX2 is present, and [`Backend::reverse_rows`]'s contract.
#[target_feature(enable = "avx2")]
unsafe fn reverse_rows_avx2<T: Copy>(
    d: *mut T,
    dr: isize,
    s: *const T,
    sr: isize,
    rows: usize,
    n: usize,
) {
    // SAFETY: the contract.
    unsafe { reverse_rows_portable(d, dr, s, sr, rows, n) }
}

/// The scalar stereo interleave, one frame a step: `d[2i] = l[i]`, `d[2i + 1] = r[i]` for
/// `i < n`.
///
/// # Safety
///
/// `d..d + 2n`, `l..l + n` and `r..r + n` are elements of their allocations, and the
/// destination elements are none of the source ones.
#[inline]
#[expect(
    clippy::many_single_char_names,
    reason = "`d`, `l`, `r`, `n`: the destination, left and right channels and the frame count, as in the contract"
)]
unsafe fn interleave2_frames<T: Copy>(d: *mut T, l: *const T, r: *const T, n: usize) {
    for i in 0..n {
        // Frame `i < n`: `d + 2i`, `d + 2i + 1`, `l + i`, `r + i` are elements of their
        // allocations (contract).
        // SAFETY: `d + 2i` is a destination element (above).
        let f = unsafe { d.offset(step(i, 2)) };
        // SAFETY: `l + i` is an element of the left channel (above).
        let lp = unsafe { l.add(i) };
        // SAFETY: `lp` is an element of the left channel (above).
        let left = unsafe { lp.read() };
        // SAFETY: `f` is a destination element, no source element (above).
        unsafe { f.write(left) };
        // SAFETY: `r + i` is an element of the right channel (above).
        let rp = unsafe { r.add(i) };
        // SAFETY: `rp` is an element of the right channel (above).
        let right = unsafe { rp.read() };
        // SAFETY: `d + 2i + 1` is a destination element (above).
        let f1 = unsafe { f.add(1) };
        // SAFETY: `f1` is a destination element, no source element (above).
        unsafe { f1.write(right) };
    }
}
