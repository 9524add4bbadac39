//! [`Layout::sliced`]: Python `start:stop:step` on every axis.

use crate::algo::checked::{tame_unit_strides, tri};
use crate::algo::slice::slice_into;
use crate::{Layout, LayoutError, Slice};

impl<const N: usize> Layout<N> {
    /// Returns the layout of `x[s0, s1, ..]` for one [`Slice`] per axis, with Python's slice
    /// rules (negative bounds count from the end, out-of-range bounds clamp, `None` bounds
    /// are the ends in the step's direction, negative steps walk backwards).
    ///
    /// ```text
    /// (3,4):(4,1)            sliced([1:, ::-2]) -> (2,2):(4,-2) +7
    ///  0  1  2  3              7  5
    ///  4  5  6  7             11  9
    ///  8  9 10 11
    /// ```
    ///
    /// Axis `k` keeps indices `start + m * step` for `m < len` (as `range(*s.indices(e))`);
    /// its stride becomes `stride * step` and the offset moves by `start * stride`.
    /// Following cuda.core, an axis sliced to nothing sets every stride of the result to 0
    /// and does not move the offset (the other axes' starts still do), and an axis whose
    /// slice keeps it whole with step 1 is passed through untouched (its stride is kept even
    /// when its extent is 0).
    ///
    /// # Errors
    ///
    /// - [`LayoutError::ZeroStep`] for the first axis whose step is 0;
    /// - [`LayoutError::OffsetOverflow`] if a new stride (`stride * step`, in elements or
    ///   bytes) or the new offset overflows `isize`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order, Slice};
    /// let l = Layout::dense([3, 4], 4, Order::C)?;
    /// let s = l.sliced([Slice::new(Some(1), None, 1), Slice::new(None, None, -2)])?;
    /// assert_eq!((s.shape(), s.strides(), s.offset()), ([2, 2], [4, -2], 7));
    /// assert_eq!(s.grid_2d().to_text::<16>()?.as_str(), " 7  5\n11  9");
    /// assert_eq!(l.sliced([Slice::FULL, Slice::new(None, None, 0)]), Err(LayoutError::ZeroStep { axis: 1 }));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `s.shape()[k]` is the length of Python's `range(*slices[k].indices(e_k))`;
    /// - `s.offset_of(j) == self.offset_of(i)` where `i[k]` is element `j[k]` of that range;
    /// - an empty result made by a slice has all strides 0; itemsize is unchanged.
    pub const fn sliced(self, slices: [Slice; N]) -> Result<Self, LayoutError> {
        let mut shape = [0usize; N];
        let mut strides = [0isize; N];
        let offset = tri!(slice_into(self.parts(), &slices, &mut shape, &mut strides));
        // An axis that keeps one element never uses its stride: 0 where `stride * step`
        // would not fit in bytes (a step of 2^62 that picks one element is fine).
        tame_unit_strides(&shape, &mut strides, self.itemsize);
        // A subset of this layout's elements, or none with an offset that fits in bytes
        // (`algo::slice`): only the new strides need checking.
        Self::from_same_offsets(shape, strides, offset, self.itemsize)
    }
}
