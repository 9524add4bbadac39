//! [`Layout::merged_axes`]: merge a fixed number of consecutive axes into one.

use crate::algo::checked::tri;
use crate::algo::flatten::range_mask;
use crate::rank::{Merged, Rank};
use crate::{AxisMask, Layout, LayoutError};

impl<const N: usize> Layout<N> {
    /// Returns the rank-`M` layout (`1 <= M <= N`, checked at compile time) with the
    /// `N - M + 1` axes starting at `start` merged into one, when their strides allow it in
    /// C index order.
    ///
    /// ```text
    /// (2,3,4):(12,4,1)     merged_axes::<2>(1) -> (2,12):(12,1)
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::AxisRangeInvalid`] if the range `start..start + N - M + 1` passes `N`;
    /// - [`LayoutError::AxesNotMergeable`] naming the range if the axes cannot merge.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([2, 3, 4], 4, Order::C)?;
    /// let m: Layout<2> = l.merged_axes(1)?;
    /// assert_eq!((m.shape(), m.strides()), ([2, 12], [12, 1]));
    /// assert!(l.transposed(1, 2)?.merged_axes::<2>(1).is_err());
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - the offsets of `m` in C index order equal `self`'s
    #[expect(
        clippy::arithmetic_side_effects,
        reason = "`N - M + 1 >= 1` by the `Merged` bound (`M <= N`); `start + count` is checked before use."
    )]
    pub const fn merged_axes<const M: usize>(self, start: usize) -> Result<Layout<M>, LayoutError>
    where
        Rank<N>: Merged<N, M>,
    {
        let count = N - M + 1;
        let end = match start.checked_add(count) {
            Some(e) if e <= N => e,
            _ => {
                return Err(LayoutError::AxisRangeInvalid {
                    start,
                    end: start.saturating_add(count),
                });
            }
        };
        let merged = tri!(self.flattened_with_mask(range_mask(start, end)));
        if merged.ndim() != M {
            let mut axes = AxisMask::EMPTY;
            let mut k = start;
            while k < end {
                axes = axes.with(k);
                k += 1;
            }
            return Err(LayoutError::AxesNotMergeable { axes });
        }
        merged.to_layout()
    }
}
