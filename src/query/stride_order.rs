//! [`Layout::stride_order`]: the axes from the largest stride to the smallest.

use crate::Layout;
use crate::algo::sort::stride_order;

impl<const N: usize> Layout<N> {
    /// The axes ordered from the largest `|stride|` to the smallest.
    ///
    /// Ties follow cuda.core, whose sort key is `(-|stride|, -extent, axis)`: on equal
    /// `|stride|` (zero included) the larger extent comes first, then the lower axis
    /// number. `Order::Perm(l.stride_order())` rebuilds the order.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// assert_eq!(Layout::dense([5, 3, 7], 1, Order::C)?.stride_order(), [0, 1, 2]);
    /// assert_eq!(Layout::dense([5, 3, 7], 1, Order::F)?.stride_order(), [2, 1, 0]);
    /// assert_eq!(Layout::dense([5, 3, 7], 1, Order::Perm([2, 0, 1]))?.stride_order(), [2, 0, 1]);
    /// assert_eq!(Layout::new([2, 3, 4], [0, 0, 0], 1)?.stride_order(), [2, 1, 0]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn stride_order(&self) -> [usize; N] {
        let mut out = [0usize; N];
        stride_order(self.parts(), &mut out);
        out
    }
}
