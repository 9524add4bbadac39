//! [`Order<N>`]: which axis order dense strides follow.

/// The order in which dense strides grow, for [`Layout::dense`](crate::Layout::dense),
/// [`Layout::dense_like`](crate::Layout::dense_like) and [`Layout::to_dense`](crate::Layout::to_dense).
///
/// | order | strides of shape `[2, 3, 4]` |
/// | --- | --- |
/// | `C` (row-major, last axis fastest) | `[12, 4, 1]` |
/// | `F` (column-major, first axis fastest) | `[1, 2, 6]` |
/// | `Perm([1, 2, 0])` (listed slowest first; the last entry has stride 1) | `[1, 8, 2]` |
/// | `Keep` (the source layout's [`stride_order`](crate::Layout::stride_order)) | depends on the source |
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order};
/// let l = Layout::dense([2, 3, 4], 1, Order::Perm([1, 2, 0]))?;
/// assert_eq!(l.strides(), [1, 8, 2]);
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive] // more dense orders may come (blocked, Morton); a `match` needs a `_` arm
pub enum Order<const N: usize> {
    /// Row-major: the last axis has stride 1.
    C,
    /// Column-major: the first axis has stride 1.
    F,
    /// Axes listed from the largest stride to the smallest; the last entry has stride 1.
    Perm([usize; N]),
    /// The stride order of a source layout; valid only in `dense_like` and `to_dense`.
    Keep,
}
