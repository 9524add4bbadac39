//! [`Layout::stride_order`]: the axes from the largest stride to the smallest.

use crate::Layout;
use crate::algo::sort::stride_order;

impl<const N: usize> Layout<N> {
    /// The axes ordered from the largest `|stride|` to the smallest.
    ///
    /// Ties follow cuda.core: on equal non-zero `|stride|` the larger extent comes first,
    /// otherwise the lower axis number. `Order::Perm(l.stride_order())` rebuilds the order.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// assert_eq!(Layout::dense([5, 3, 7], 1, Order::C)?.stride_order(), [0, 1, 2]);
    /// assert_eq!(Layout::dense([5, 3, 7], 1, Order::F)?.stride_order(), [2, 1, 0]);
    /// assert_eq!(Layout::dense([5, 3, 7], 1, Order::Perm([2, 0, 1]))?.stride_order(), [2, 0, 1]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn stride_order(&self) -> [usize; N] {
        let mut out = [0usize; N];
        stride_order(self.parts(), &mut out);
        out
    }
}
