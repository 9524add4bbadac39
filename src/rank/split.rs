//! [`Layout::split_axis`]: one axis into outer × inner.

use crate::algo::checked::{tame_unit_strides, tri};
use crate::algo::split::split;
use crate::rank::{OneMore, Rank};
use crate::{Layout, LayoutError};

impl<const N: usize> Layout<N> {
    /// Returns the rank-`M` layout (`M == N + 1`, checked at compile time) with axis `axis`
    /// split into an outer axis of extent `extent / inner` and an inner axis of extent
    /// `inner` (stride unchanged), in that order; no element moves. This is how tiles are made.
    ///
    /// ```text
    /// (6):(1)            split_axis::<2>(0, 3) -> (2,3):(3,1)
    ///  0 1 2 3 4 5         0 1 2
    ///                      3 4 5
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::AxisOutOfRange`] if `axis >= N`;
    /// - [`LayoutError::ExtentNotDivisible`] if `inner` is 0 or does not divide the extent.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let rows = Layout::dense([480, 640], 1, Order::C)?;
    /// let tiled: Layout<3> = rows.split_axis(0, 16)?;
    /// assert_eq!((tiled.shape(), tiled.strides()), ([30, 16, 640], [10240, 640, 1]));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - the offsets of `s` in C index order equal `self`'s
    /// - `s.offset_of([.., o, i, ..]) == self.offset_of([.., o * inner + i, ..])`
    pub const fn split_axis<const M: usize>(
        self,
        axis: usize,
        inner: usize,
    ) -> Result<Layout<M>, LayoutError>
    where
        Rank<N>: OneMore<N, M>,
    {
        let mut shape = [0usize; M];
        let mut strides = [0isize; M];
        tri!(split(self.parts(), axis, inner, &mut shape, &mut strides));
        tame_unit_strides(&shape, &mut strides, self.itemsize);
        // The same elements re-indexed: only the new strides need checking.
        Layout::from_same_offsets(shape, strides, self.offset, self.itemsize)
    }
}
