//! The aarch64 backend: NEON, enabled at compile time (`neon_kernels`).

use super::{Backend, one_unit_channels};
use crate::kernel::channels::neon::Neon as Unit;
use crate::kernel::transpose::neon as tn;

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
    unsafe fn square8(d: *mut f64, dr: isize, s: *const f64, sr: isize) {
        // SAFETY: NEON is enabled at compile time; the caller's contract.
        unsafe { tn::micro_f64(d, dr, s, sr) };
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

    one_unit_channels!(Unit);
}
