//! [`Layout::broadcast_to`]: stretch extent-1 axes and add leading axes with stride 0.

use crate::algo::broadcast::broadcast;
use crate::algo::checked::{tri, volume};
use crate::rank::{NotLower, Rank};
use crate::{Layout, LayoutError};

impl<const N: usize> Layout<N> {
    /// Returns this layout broadcast to `shape` (`M >= N`, checked at compile time): shapes
    /// align on the right; each extent must equal the target or be 1 (then its stride
    /// becomes 0); new leading axes get stride 0 (NumPy and cuda.core rules).
    ///
    /// ```text
    /// (3):(1)              broadcast_to([2, 3]) -> (2,3):(0,1)
    ///  0 1 2                 0 1 2
    ///                        0 1 2
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::BroadcastIncompatible`] naming the target axis where an extent is
    ///   neither 1 nor the target extent.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let row = Layout::dense([1, 3], 4, Order::C)?;
    /// let b = row.broadcast_to([4, 2, 3])?;
    /// assert_eq!((b.shape(), b.strides()), ([4, 2, 3], [0, 0, 1]));
    /// assert!(!b.is_unique());
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `b.offset_of(j) == self.offset_of(i)` where `i` is the last `N` entries of `j` with
    ///   every index of a stretched axis replaced by 0
    pub const fn broadcast_to<const M: usize>(
        self,
        shape: [usize; M],
    ) -> Result<Layout<M>, LayoutError>
    where
        Rank<N>: NotLower<N, M>,
    {
        let mut strides = [0isize; M];
        tri!(broadcast(self.parts(), &shape, &mut strides));
        // The same elements (a stretched axis repeats them with stride 0) or none, with the
        // offset and every stride unchanged or 0: only the new volume needs checking.
        tri!(volume(&shape));
        Ok(Layout::from_valid_parts(
            shape,
            strides,
            self.offset,
            self.itemsize,
        ))
    }
}
