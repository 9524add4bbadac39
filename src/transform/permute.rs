//! [`Layout::permuted`] and [`Layout::transposed`]: reorder the axes; no element moves.

use crate::algo::checked::tri;
use crate::algo::permute::{permute, transposition};
use crate::{Layout, LayoutError};

impl<const N: usize> Layout<N> {
    /// Returns this layout with its axes reordered: result axis `i` is source axis `axes[i]`.
    ///
    /// ```text
    /// (2,3,4):(12,4,1)        permuted([2, 0, 1]) -> (4,2,3):(1,12,4)
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::NotAPermutation`] if `axes` repeats an axis or names one `>= N`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([2, 3, 4], 4, Order::C)?.permuted([2, 0, 1])?;
    /// assert_eq!((l.shape(), l.strides()), ([4, 2, 3], [1, 12, 4]));
    /// assert_eq!(l.permuted([0, 0, 1]), Err(LayoutError::NotAPermutation));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `p.offset_of(j) == self.offset_of(i)` for every index `j` of `p`, where
    ///   `i[axes[k]] == j[k]`; offset and itemsize are unchanged.
    pub const fn permuted(self, axes: [usize; N]) -> Result<Self, LayoutError> {
        let mut shape = [0usize; N];
        let mut strides = [0isize; N];
        tri!(permute(self.parts(), &axes, &mut shape, &mut strides));
        // The same axes in another order: every offset, stride and the volume are unchanged,
        // so the invariants still hold.
        Ok(Self::from_valid_parts(
            shape,
            strides,
            self.offset,
            self.itemsize,
        ))
    }

    /// Returns this layout with axes `a` and `b` swapped; no element moves.
    ///
    /// ```text
    /// (2,3):(3,1)            transposed(0, 1) -> (3,2):(1,3)
    ///  0 1 2                  0 3
    ///  3 4 5                  1 4
    ///                         2 5
    /// ```
    ///
    /// `a == b` (in range) returns the layout unchanged.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::AxisOutOfRange`] if `a >= N` (checked first) or `b >= N`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([2, 3], 4, Order::C)?;
    /// let t = l.transposed(0, 1)?;
    /// assert_eq!((t.shape(), t.strides()), ([3, 2], [1, 3]));
    /// assert_eq!(l.transposed(0, 2), Err(LayoutError::AxisOutOfRange { axis: 2, ndim: 2 }));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `t.offset_of(j) == self.offset_of(i)` where `j` is `i` with entries `a` and `b`
    ///   swapped; offset and itemsize are unchanged.
    pub const fn transposed(self, a: usize, b: usize) -> Result<Self, LayoutError> {
        let mut axes = [0usize; N];
        tri!(transposition(a, b, &mut axes));
        self.permuted(axes)
    }
}
