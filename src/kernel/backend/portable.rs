//! The backends without a vector unit of their own: the portable twins under Miri, and the
//! plain loops elsewhere (bare metal, hosts other than x86-64 and aarch64).

use super::Backend;
#[cfg(miri)]
use super::one_unit_channels;
#[cfg(miri)]
use crate::kernel::channels::portable::Portable as Unit;

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

    one_unit_channels!(Unit);

    /// As on x86-64 hosts (every run length), so that Miri checks the pieces' loop.
    #[inline]
    fn memcpy_slow_below() -> usize {
        if cfg!(target_arch = "x86_64") {
            usize::MAX
        } else {
            0
        }
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
