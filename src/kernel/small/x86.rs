//! The x86-64 small-block kernel: the stereo interleave by the channel kernels' zips
//! ([`channels::pairs`]: AVX2, else SSSE3) after one cached feature test. (The 8 × 8 tile
//! transposes are the transposes' own, `transpose::x86`.)

use core::mem::size_of;

use crate::kernel::channels;
use crate::kernel::cpu::Features as Cpu;

/// [`super::interleave2`]: one call to the channel kernels' zips (32-byte steps with AVX2,
/// then 16, then a frame a step), or, below one 16-byte step a channel or without SSSE3,
/// one frame a step here.
///
/// # Safety
///
/// As [`super::interleave2`].
#[inline]
pub(super) unsafe fn interleave2<T: Copy + 'static>(
    d: *mut T,
    l: *const T,
    r: *const T,
    n: usize,
    cpu: Cpu,
) {
    // `n` elements of each channel exist (contract), so `n·size` bytes do not wrap. Less
    // than one 16-byte step a channel (a 2 × 2 transpose) goes one frame a step, without the
    // vector paths' call (113 -> 88 instructions a prepared 2 × 2 `f32` call, harness
    // included).
    if n.wrapping_mul(size_of::<T>()) >= 16 && (cpu.avx2() || cpu.ssse3()) {
        // SAFETY: the contract (`T` is a plain primitive); AVX2 is present when asked for,
        // else SSSE3 (checked).
        if unsafe { channels::pairs(d, l, r, n, cpu.avx2()) } {
            return;
        }
    }
    // SAFETY: the contract, every frame.
    unsafe { super::interleave2_portable(d, l, r, 0, n) };
}
