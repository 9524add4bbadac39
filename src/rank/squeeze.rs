//! [`Layout::squeezed`]: drop every extent-1 axis.

use crate::algo::squeeze::squeeze;
use crate::{DynLayout, Layout};

impl<const N: usize> Layout<N> {
    /// Returns this layout without its extent-1 axes, as a [`DynLayout<N>`]; an empty layout
    /// (volume 0) becomes shape `(0,)` with stride 0, as in cuda.core.
    ///
    /// ```text
    /// (2,1,3):(3,7,1)      squeezed() -> (2,3):(3,1)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError};
    /// let l = Layout::new([2, 1, 3], [3, 7, 1], 4)?;
    /// let s = l.squeezed();
    /// assert_eq!((s.shape(), s.strides()), (&[2, 3][..], &[3, 1][..]));
    /// let empty = Layout::new([2, 0, 1], [1, 1, 1], 4)?.squeezed();
    /// assert_eq!((empty.shape(), empty.strides()), (&[0][..], &[0][..]));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - the offsets of `s` in C index order equal `self`'s
    /// - no extent of `s` is 1
    #[must_use]
    pub const fn squeezed(self) -> DynLayout<N> {
        let mut shape = [0usize; N];
        let mut strides = [0isize; N];
        let r = squeeze(self.parts(), &mut shape, &mut strides);
        // Dropping extent-1 axes (or, for an empty layout, replacing everything by an
        // empty axis) keeps every offset, so the invariants still hold.
        DynLayout::from_valid_parts(&shape, &strides, r, self.offset, self.itemsize)
    }
}
