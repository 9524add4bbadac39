//! [`Layout::to_dense`]: the dense layout with the same shape and itemsize.

use crate::{Layout, LayoutError, Order};

impl<const N: usize> Layout<N> {
    /// Returns a dense layout (offset 0, every element at a distinct offset in `0..volume`)
    /// with this shape and itemsize; the same as [`Layout::dense_like`]`(&self, order)`.
    ///
    /// ```text
    /// (2,3):(1,4) +7         to_dense(Keep) -> (2,3):(1,2)    to_dense(C) -> (2,3):(3,1)
    ///  7  11 15               0 2 4                            0 1 2
    ///  8  12 16               1 3 5                            3 4 5
    /// ```
    ///
    /// [`Order::Keep`] keeps this layout's [`stride_order`](Layout::stride_order): the
    /// allocation-friendly copy target of cuda.core's `to_dense()`.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::NotAPermutation`] if an [`Order::Perm`] is not a permutation of `0..N`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::new([2, 3], [1, 4], 2)?.with_offset(7)?;
    /// assert_eq!(l.to_dense(Order::Keep)?.strides(), [1, 2]);
    /// assert_eq!(l.to_dense(Order::C)?, Layout::dense([2, 3], 2, Order::C)?);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `d.shape() == self.shape()`, `d.itemsize() == self.itemsize()`, `d.offset() == 0`;
    /// - the offsets of `d` are exactly `0..volume`, each once.
    pub const fn to_dense(self, order: Order<N>) -> Result<Self, LayoutError> {
        Self::dense_like(&self, order)
    }
}
