//! The backends without a vector unit of their own: the portable twins under Miri, and the
//! plain loops elsewhere (bare metal, hosts other than x86-64 and aarch64).

use super::Backend;
#[cfg(miri)]
use crate::kernel::channels::{self, Band, portable::Portable as Unit};

/// Under Miri: the portable twins of every kernel, the channel shuffles' included (the same
/// loops, masks and zips on `[u8; 16]` arrays), so Miri checks the code every target shares.
#[cfg(miri)]
pub(crate) struct Miri;

#[cfg(miri)]
impl Backend for Miri {
    type Cpu = ();

    #[inline]
    fn known() -> Option<()> {
        Some(())
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
        // SAFETY: the portable unit needs no feature; the caller's contract (plain stores).
        unsafe { channels::run_on::<Unit, C, SIZE, INTER>(d, s, plane, n, false, used) }
    }

    #[inline]
    unsafe fn one_channel<const C: usize, const SIZE: usize, const INSERT: bool>(
        band: Band,
    ) -> usize {
        // SAFETY: the portable unit needs no feature; the caller's contract.
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
        // SAFETY: the portable unit needs no feature; the caller's contract.
        let done = unsafe { channels::zip_pairs::<Unit, SIZE>(d, l, r, n) };
        // SAFETY: the pairs from `done <= n` (the caller's contract).
        unsafe { channels::pairs_one_by_one::<SIZE>(d, l, r, done, n) };
        true
    }
}

/// Elsewhere (bare metal, other hosts): every default, the transposes' portable twins and no
/// channel shuffles (the plain strided loops are as fast without a vector unit, and smaller).
#[cfg(not(miri))]
pub(crate) struct Plain;

#[cfg(not(miri))]
impl Backend for Plain {
    type Cpu = ();

    #[cfg(not(target_os = "none"))]
    #[inline]
    fn known() -> Option<()> {
        Some(())
    }
}
