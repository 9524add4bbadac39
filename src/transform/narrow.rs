//! [`Layout::narrowed`]: keep the index range `start..start + len` of one axis.

use crate::algo::access::set;
use crate::algo::checked::tri;
use crate::algo::narrow::narrow;
use crate::{Layout, LayoutError};

impl<const N: usize> Layout<N> {
    /// Returns this layout restricted to indices `start..start + len` along `axis`; the
    /// strides are unchanged and the offset moves to index `start`.
    ///
    /// ```text
    /// (2,4):(4,1)            narrowed(1, 1, 2) -> (2,2):(4,1) +1
    ///  0 1 2 3                1 2
    ///  4 5 6 7                5 6
    /// ```
    ///
    /// Unlike [`sliced`](Layout::sliced), nothing is clamped: a range that does not fit is an
    /// error. An empty range (`len == 0`) keeps the strides and still moves the offset by
    /// `start * stride` (as `torch.narrow` does), whereas an emptying `sliced` zeroes them.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::AxisOutOfRange`] if `axis >= N`;
    /// - [`LayoutError::RangeOutOfBounds`] if `start + len` exceeds the extent (or overflows);
    /// - [`LayoutError::OffsetOverflow`] if the new offset overflows `isize` (possible only
    ///   when the result has no elements).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([2, 4], 4, Order::C)?;
    /// let n = l.narrowed(1, 1, 2)?;
    /// assert_eq!((n.shape(), n.strides(), n.offset()), ([2, 2], [4, 1], 1));
    /// assert_eq!(l.narrowed(1, 3, 2), Err(LayoutError::RangeOutOfBounds { axis: 1 }));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `n.shape()[axis] == len`, other extents and all strides unchanged;
    /// - `n.offset_of(j) == self.offset_of(i)` where `i` is `j` with `i[axis] = j[axis] + start`;
    /// - `n.offset() == self.offset() + start * self.strides()[axis]`.
    pub const fn narrowed(
        self,
        axis: usize,
        start: usize,
        len: usize,
    ) -> Result<Self, LayoutError> {
        let offset = tri!(narrow(self.parts(), axis, start, len));
        let mut shape = self.shape;
        set(&mut shape, axis, len);
        // A sub-box of the elements with the same strides, starting at an element: every
        // offset is one of this layout's, so the invariants still hold (with no element, the
        // offset moved only where it still fits in bytes: `algo::narrow`).
        Ok(Self::from_valid_parts(
            shape,
            self.strides,
            offset,
            self.itemsize,
        ))
    }
}
