//! [`Layout::repacked_dropping_axis`]: repack and drop the axis when its extent becomes 1.

use crate::algo::axis::normalize_axis;
use crate::algo::checked::tri;
use crate::algo::select::remove_axis;
use crate::{DynLayout, Layout, LayoutError};

impl<const N: usize> Layout<N> {
    /// Like [`repacked`](Layout::repacked), but when packing leaves the extent at `axis` equal
    /// to 1 that axis is dropped (cuda.core's `repacked(.., keep_dim=False)`), so the result is
    /// a [`DynLayout<N>`].
    ///
    /// ```text
    /// (5,4):(4,1) x4B      repacked_dropping_axis(16, 0, -1) -> (5):(1) x16B
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`repacked`](Layout::repacked), in the same order.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([5, 4], 4, Order::C)?;
    /// let d = l.repacked_dropping_axis(16, 0, -1)?;
    /// assert_eq!((d.shape(), d.strides(), d.itemsize()), (&[5][..], &[1][..], 16));
    /// assert_eq!(l.repacked_dropping_axis(8, 0, -1)?.shape(), &[5, 2]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - the byte offsets covered are those of `self.repacked(itemsize, data_ptr, axis)`
    pub const fn repacked_dropping_axis(
        self,
        itemsize: usize,
        data_ptr: usize,
        axis: isize,
    ) -> Result<DynLayout<N>, LayoutError> {
        let r = tri!(self.repacked(itemsize, data_ptr, axis));
        let ax = tri!(normalize_axis(axis, N));
        if r.parts().extent(ax) != 1 || itemsize <= self.itemsize {
            return DynLayout::from_layout(&r);
        }
        let mut shape = [0usize; N];
        let mut strides = [0isize; N];
        remove_axis(r.parts(), ax, &mut shape, &mut strides);
        // Dropping an extent-1 axis keeps every offset of a valid layout.
        Ok(DynLayout::from_valid_parts(
            &shape,
            &strides,
            N.saturating_sub(1),
            r.offset,
            r.itemsize,
        ))
    }
}
