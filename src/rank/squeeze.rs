//! [`Layout::squeezed`]: drop every extent-1 axis.

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
    // Indexing is bounded by `i < N` and `r <= i`; the counters cannot overflow.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    pub const fn squeezed(self) -> DynLayout<N> {
        let mut shape = [0usize; N];
        let mut strides = [0isize; N];
        let mut r = 0;
        if self.volume() == 0 {
            // Volume 0 means some extent is 0, so N >= 1.
            shape[0] = 0;
            strides[0] = 0;
            r = 1;
        } else {
            let mut i = 0;
            while i < N {
                if self.shape[i] != 1 {
                    shape[r] = self.shape[i];
                    strides[r] = self.strides[i];
                    r += 1;
                }
                i += 1;
            }
        }
        // Dropping extent-1 axes (or, for an empty layout, replacing everything by an
        // empty axis) keeps every offset, so the invariants still hold.
        DynLayout::from_valid_parts(&shape, &strides, r, self.offset, self.itemsize)
    }
}
