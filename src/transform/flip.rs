//! [`Layout::flipped`]: reverse one axis by negating its stride.

use crate::algo::access::set;
use crate::algo::checked::tri;
use crate::algo::flip::flip;
use crate::{Layout, LayoutError};

impl<const N: usize> Layout<N> {
    /// Returns this layout with `axis` reversed: index `i` along it maps where `e - 1 - i`
    /// did (`e` its extent); the stride is negated and the offset moves to the old last
    /// element along the axis.
    ///
    /// ```text
    /// (2,3):(3,1)            flipped(1) -> (2,3):(3,-1) +2
    ///  0 1 2                  2 1 0
    ///  3 4 5                  5 4 3
    /// ```
    ///
    /// An axis of extent 0 or 1 has nothing to move: its stride is negated and the offset
    /// is unchanged, so `flipped(a)` applied twice always gives back the same layout. (This
    /// differs from [`sliced`](Layout::sliced) with `::-1` on an extent-0 axis, which follows
    /// cuda.core and zeroes every stride of the empty result.)
    ///
    /// # Errors
    ///
    /// - [`LayoutError::AxisOutOfRange`] if `axis >= N`;
    /// - [`LayoutError::OffsetOverflow`] if the stride is `isize::MIN` (it has no negation),
    ///   or, for a layout with no elements, the new offset overflows `isize`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let f = Layout::dense([2, 3], 4, Order::C)?.flipped(1)?;
    /// assert_eq!((f.strides(), f.offset()), ([3, -1], 2));
    /// assert_eq!(f.grid_2d().to_text::<16>()?.as_str(), "2 1 0\n5 4 3");
    /// assert_eq!(f.flipped(1)?, Layout::dense([2, 3], 4, Order::C)?);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `f.offset_of(j) == self.offset_of(i)` where `j` is `i` with `j[axis] = e - 1 - i[axis]`;
    /// - `f.flipped(axis) == self`; shape and itemsize are unchanged.
    pub const fn flipped(self, axis: usize) -> Result<Self, LayoutError> {
        let (stride, offset) = tri!(flip(self.parts(), axis));
        let mut strides = self.strides;
        set(&mut strides, axis, stride);
        // Same offsets, an element's offset, and the one new stride checked by `flip`.
        Ok(Self::from_valid_parts(
            self.shape,
            strides,
            offset,
            self.itemsize,
        ))
    }
}
