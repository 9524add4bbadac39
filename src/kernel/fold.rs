//! [`fold`]: a reduction over every element of a layout, in the plan's order.

use crate::kernel::element::check_itemsize;
use crate::kernel::mapping::Mapping;
use crate::kernel::plan::Plan;
use crate::kernel::proof::{Across, InBounds, Windows};
use crate::kernel::raw;
use crate::{LayoutError, Operand};

/// Folds `f` over the element at every index of `layout` in `src`, starting from `init`.
///
/// The order is the [`Plan`]'s (memory order after flips and merges, not necessarily C
/// order), so `f` should be associative and commutative where the order matters (a float
/// sum may differ in the last bits from a C-order sum). A broadcast axis visits its element
/// once per index.
///
/// ```text
/// src (2,2):(1,2) over [1 2 3 4]     fold(0, +) = 10
/// ```
///
/// # Errors
///
/// - [`LayoutError::ItemsizeMismatch`] if the layout's itemsize is not `size_of::<T>()`;
/// - [`LayoutError::AxisOutOfRange`], [`LayoutError::FactorZero`],
///   [`LayoutError::OffsetOverflow`], [`LayoutError::RankOverflow`] from [`Plan::new`];
/// - [`LayoutError::OffsetBelowSlice`] ([`Operand::Source`]) if an offset is negative,
///   [`LayoutError::OffsetOutsideSlice`] if one is not less than `src.len()`.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError};
/// let src = [1u32, 2, 3, 4];
/// let sum = strided_layout::fold(&src, &Layout::new([2, 2], [1, 2], 4)?, 0, |a, x| a + x)?;
/// assert_eq!(sum, 10);
/// let evens = strided_layout::fold(&src, &Layout::new([2], [2], 4)?, 0, |a, x| a + x)?;
/// assert_eq!(evens, 4);
/// # Ok::<(), LayoutError>(())
/// ```
///
/// # Postconditions
///
/// - `f` is called exactly once per index, with that index's element
pub fn fold<T, A, const N: usize, L, F>(
    src: &[T],
    layout: &L,
    init: A,
    f: F,
) -> Result<A, LayoutError>
where
    T: Copy,
    L: Mapping<N> + ?Sized,
    F: FnMut(A, T) -> A,
{
    let l = layout.lowered();
    check_itemsize::<T>(Operand::Source, l.itemsize)?;
    let mut plan = Plan::empty();
    let (ops, lens, names) = ([l], [src.len()], [Operand::Source]);
    match plan.build(&ops) {
        Ok(()) => raw::fold(&InBounds::check(&plan, lens, names)?, src, init, f),
        // More pieces than one plan holds: planned and folded a window at a time, the
        // accumulator carried from one to the next.
        Err(e) => {
            let mut f = f;
            Windows::after(e, &ops, lens, names, Across::Bounds)?
                .fold_bounds(init, |acc, bounds| raw::fold(&bounds, src, acc, &mut f))
        }
    }
}
