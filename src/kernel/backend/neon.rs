//! The aarch64 backend: NEON, enabled at compile time (`neon_kernels`).

use super::Backend;
use crate::kernel::channels::{self, Band, neon::Neon as Unit};
use crate::kernel::transpose::{blocks, neon as tn};

/// aarch64 with NEON (see the module table of [`super`]).
pub(crate) struct Neon;

impl Backend for Neon {
    type Cpu = ();

    #[cfg(not(target_os = "none"))]
    #[inline]
    fn known() -> Option<()> {
        Some(())
    }

    #[inline]
    unsafe fn transpose8(d: *mut f64, dr: isize, s: *const f64, sr: isize, ea: usize, eb: usize) {
        let micro = |d: *mut f64, s: *const f64| {
            // SAFETY: `blocks` hands over a whole 2 × 2 block of the transpose (its contract),
            // for which the caller's contract holds; NEON is enabled at compile time.
            unsafe { tn::micro_f64(d, dr, s, sr) };
        };
        // SAFETY: the caller's contract; `micro` is sound for any whole 2 × 2 block.
        unsafe { blocks::<f64, 2>(d, dr, s, sr, ea, eb, micro) };
    }

    #[inline]
    unsafe fn square4(d: *mut f32, dr: isize, s: *const f32, sr: isize) {
        // SAFETY: NEON is enabled at compile time; the caller's contract.
        unsafe { tn::micro(d, dr, s, sr) };
    }

    /// No grouped transpose: its portable tiles lose to the nest's own blocks here.
    #[cfg(not(target_os = "none"))]
    #[inline]
    fn grouped_side(size: usize) -> Option<usize> {
        let _ = size;
        None
    }

    const SHUFFLES: bool = true;

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
        // SAFETY: NEON is enabled at compile time; the caller's contract (plain stores).
        unsafe { channels::run_on::<Unit, C, SIZE, INTER>(d, s, plane, n, false, used) }
    }

    #[inline]
    unsafe fn one_channel<const C: usize, const SIZE: usize, const INSERT: bool>(
        band: Band,
    ) -> usize {
        // SAFETY: NEON is enabled at compile time; the caller's contract.
        unsafe { channels::one_channel_on::<Unit, C, SIZE, INSERT>(band) }
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
        // SAFETY: NEON is enabled at compile time; the caller's contract.
        let done = unsafe { channels::zip_pairs::<Unit, SIZE>(d, l, r, n) };
        // SAFETY: the pairs from `done <= n` (the caller's contract).
        unsafe { channels::pairs_one_by_one::<SIZE>(d, l, r, done, n) };
        true
    }
}
