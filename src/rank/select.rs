//! [`Layout::selected`]: fix one index of an axis, dropping the axis.

use crate::algo::checked::tri;
use crate::algo::select::select;
use crate::rank::{OneLess, Rank};
use crate::{Layout, LayoutError};

impl<const N: usize> Layout<N> {
    /// Returns the rank-`M` layout (`M == N - 1`, checked at compile time) of the elements
    /// whose index along `axis` is `index`; the offset moves to that slice.
    ///
    /// ```text
    /// (2,3):(3,1)           selected::<1>(0, 1) -> (3):(1) +3
    ///  0 1 2                 3 4 5
    ///  3 4 5
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::AxisOutOfRange`] if `axis >= N`;
    /// - [`LayoutError::IndexOutOfRange`] if `index` is not less than the extent of `axis`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([2, 3], 4, Order::C)?;
    /// let row = l.selected::<1>(0, 1)?;
    /// assert_eq!((row.shape(), row.strides(), row.offset()), ([3], [1], 3));
    /// let col: Layout<1> = l.selected(1, 2)?;
    /// assert_eq!((col.shape(), col.strides(), col.offset()), ([2], [3], 2));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `s.offset_of(j) == self.offset_of(j with index inserted at axis)` for every `j`
    pub const fn selected<const M: usize>(
        self,
        axis: usize,
        index: usize,
    ) -> Result<Layout<M>, LayoutError>
    where
        Rank<N>: OneLess<N, M>,
    {
        let mut shape = [0usize; M];
        let mut strides = [0isize; M];
        let offset = tri!(select(self.parts(), axis, index, &mut shape, &mut strides));
        // Dropping an axis and moving the offset to an element keeps every remaining offset
        // one of this layout's, so the invariants hold: no re-validation.
        Ok(Layout::from_valid_parts(
            shape,
            strides,
            offset,
            self.itemsize,
        ))
    }
}
