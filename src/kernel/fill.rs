//! [`fill`]: write one value at every element of a layout.

use crate::algo::access::{get, set};
use crate::kernel::element::check_itemsize;
use crate::kernel::mapping::{Lowered, Mapping};
use crate::kernel::plan::Plan;
use crate::kernel::proof::{Across, InBounds, Windows};
use crate::kernel::raw;
use crate::{LayoutError, Operand};

/// Writes `value` at every element of `layout` in `dst`; other elements keep their values.
///
/// A broadcast destination (a zero stride on an axis of extent 2 or more) is allowed: every
/// element it names gets the same value.
///
/// ```text
/// dst (2,2):(4,2) +1 over 8 elements      . v . v . v . v
/// ```
///
/// # Errors
///
/// - [`LayoutError::ItemsizeMismatch`] if the layout's itemsize is not `size_of::<T>()`;
/// - [`LayoutError::AxisOutOfRange`], [`LayoutError::FactorZero`],
///   [`LayoutError::OffsetOverflow`], [`LayoutError::RankOverflow`] from [`Plan::new`];
/// - [`LayoutError::OffsetBelowSlice`] ([`Operand::Destination`]) if an offset is negative,
///   [`LayoutError::OffsetOutsideSlice`] if one is not less than `dst.len()`.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError};
/// let mut dst = [0u8; 8];
/// strided_layout::fill(&mut dst, &Layout::new([2, 2], [4, 2], 1)?.with_offset(1)?, 7)?;
/// assert_eq!(dst, [0, 7, 0, 7, 0, 7, 0, 7]);
/// # Ok::<(), LayoutError>(())
/// ```
///
/// # Postconditions
///
/// - `dst[layout.offset_of(i)] == value` for every index `i`; every other element unchanged
/// - on `Err`, `dst` is unchanged
pub fn fill<T, const N: usize, D>(dst: &mut [T], layout: &D, value: T) -> Result<(), LayoutError>
where
    T: Copy,
    D: Mapping<N> + ?Sized,
{
    let l = footprint(layout.lowered());
    check_itemsize::<T>(Operand::Destination, l.itemsize)?;
    let mut plan = Plan::empty();
    let (ops, lens, names) = ([l], [dst.len()], [Operand::Destination]);
    match plan.build(&ops) {
        Ok(()) => raw::fill(&InBounds::check(&plan, lens, names)?, dst, value),
        // More pieces than one plan holds: planned and run a window at a time.
        Err(e) => Windows::after(e, &ops, lens, names, Across::Bounds)?
            .each_bounds(|bounds| raw::fill(&bounds, dst, value)),
    }
}

/// The same set of offsets with every broadcast axis (stride 0) cut to one step: writing one
/// value is idempotent, so a fill need not visit an offset twice. An interleaved axis whose
/// block stride is 0 keeps one block (`min(extent, factor)` lanes). Extent-0 axes stay empty.
///
/// A fill of `(2^63 + 1):(0)` is then one write, not `2^63` of them.
pub(crate) const fn footprint<const N: usize>(l: Lowered<N>) -> Lowered<N> {
    let mut out = l;
    let mut k = 0;
    while k < N {
        if let (Some(e), Some(0)) = (get(&out.shape, k), get(&out.strides, k)) {
            // One outermost block of the axis's levels (1 with none), all of it when the
            // product passes `usize` (it then passes every extent).
            let keep = match out.blocks.block_on(k) {
                Some(b) => b,
                None => usize::MAX,
            };
            if e > keep {
                set(&mut out.shape, k, keep);
            }
        }
        k = k.saturating_add(1);
    }
    out
}
