//! [`Layout::contiguous_axis`], [`Layout::stride_rank`] and
//! [`Layout::contiguous_batch_size`]: Julia ArrayInterface's axis questions, in this crate's
//! conventions (the interleaved answers are on
//! [`InterleavedLayout`](crate::InterleavedLayout)).

use crate::Layout;
use crate::algo::contiguity::contiguous_axis;
use crate::algo::sort::stride_rank;

impl<const N: usize> Layout<N> {
    /// The axis along which consecutive indices are consecutive elements: the axis of extent
    /// at least 2 whose stride is exactly `+1` (ArrayInterface's `contiguous_axis`, 0-based).
    ///
    /// Extent-1 axes are ignored whatever their stride (stepping along them is impossible), so
    /// a layout whose extents are all 0 or 1 has none; stride `-1` does not count (the elements
    /// run backwards); if several axes have stride 1 (an overlapping layout), the highest
    /// numbered one is returned. `None` for rank 0. The layout need not be contiguous:
    /// `(4,3):(10,1)` (a row slice of a wider matrix) has contiguous axis 1.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// assert_eq!(Layout::dense([4, 3], 1, Order::C)?.contiguous_axis(), Some(1));
    /// assert_eq!(Layout::dense([4, 3], 1, Order::F)?.contiguous_axis(), Some(0));
    /// assert_eq!(Layout::new([4, 1], [1, 1], 1)?.contiguous_axis(), Some(0));
    /// assert_eq!(Layout::new([4, 3], [-1, 4], 1)?.contiguous_axis(), None);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `Some(a)` iff `shape[a] > 1`, `strides[a] == 1`, and no higher axis has both
    #[must_use]
    pub const fn contiguous_axis(&self) -> Option<usize> {
        contiguous_axis(self.parts())
    }

    /// The rank of each axis's `|stride|` among all axes, smallest = 0 (ArrayInterface's
    /// `StrideRank`, which is 1-based).
    ///
    /// The inverse of [`stride_order`](Layout::stride_order), read from the other end:
    /// `stride_rank()[stride_order()[j]] == N - 1 - j`, so ties are broken as there (on equal
    /// nonzero `|stride|` the larger extent ranks higher, otherwise the lower axis number).
    /// C order gives `[N-1, .., 1, 0]`, F order `[0, 1, .., N-1]`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// assert_eq!(Layout::dense([5, 3, 7], 1, Order::C)?.stride_rank(), [2, 1, 0]);
    /// assert_eq!(Layout::dense([5, 3, 7], 1, Order::F)?.stride_rank(), [0, 1, 2]);
    /// assert_eq!(Layout::new([5, 3, 7], [3, 1, 15], 1)?.stride_rank(), [1, 0, 2]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - a permutation of `0..N` with `stride_rank()[stride_order()[j]] == N - 1 - j`
    #[must_use]
    pub const fn stride_rank(&self) -> [usize; N] {
        let mut order = [0usize; N];
        let mut rank = [0usize; N];
        stride_rank(self.parts(), &mut order, &mut rank);
        rank
    }

    /// How many consecutive elements of the contiguous axis lie together before the layout
    /// moves along another axis (ArrayInterface's `contiguous_batch_size`): `None` when there
    /// is no [`contiguous_axis`](Layout::contiguous_axis) (ArrayInterface's `-1`), else
    /// `Some(0)`: a strided axis of stride 1 runs its whole extent (no batching). Blocked
    /// layouts answer with their factor:
    /// [`InterleavedLayout::contiguous_batch_size`](crate::InterleavedLayout::contiguous_batch_size).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// assert_eq!(Layout::dense([4, 3], 1, Order::C)?.contiguous_batch_size(), Some(0));
    /// assert_eq!(Layout::new([4, 3], [3, 7], 1)?.contiguous_batch_size(), None);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `None` iff `contiguous_axis()` is `None`, else `Some(0)`
    #[must_use]
    pub const fn contiguous_batch_size(&self) -> Option<usize> {
        match self.contiguous_axis() {
            Some(_) => Some(0),
            None => None,
        }
    }
}
