//! [`Layout::split_axis`]: one axis into outer × inner.

use crate::algo::checked::checked_stride_mul;
use crate::algo::checked::tame_unit_strides;
use crate::{Layout, LayoutError};

impl<const N: usize> Layout<N> {
    /// Returns the rank-`M` layout (`M == N + 1`, checked at compile time) with axis `axis`
    /// split into an outer axis of extent `extent / inner` and an inner axis of extent
    /// `inner` (stride unchanged), in that order; no element moves. This is how tiles are made.
    ///
    /// ```text
    /// (6):(1)            split_axis::<2>(0, 3) -> (2,3):(3,1)
    ///  0 1 2 3 4 5         0 1 2
    ///                      3 4 5
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::AxisOutOfRange`] if `axis >= N`;
    /// - [`LayoutError::ExtentNotDivisible`] if `inner` is 0 or does not divide the extent.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let rows = Layout::dense([480, 640], 1, Order::C)?;
    /// let tiled: Layout<3> = rows.split_axis(0, 16)?;
    /// assert_eq!((tiled.shape(), tiled.strides()), ([30, 16, 640], [10240, 640, 1]));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - the offsets of `s` in C index order equal `self`'s
    /// - `s.offset_of([.., o, i, ..]) == self.offset_of([.., o * inner + i, ..])`
    // Indexing is bounded by `axis < N` (checked) and the loop conditions; `k + 1` and
    // `k - 1` stay in `0..M` where they are used.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    pub const fn split_axis<const M: usize>(
        self,
        axis: usize,
        inner: usize,
    ) -> Result<Layout<M>, LayoutError> {
        const {
            assert!(M == N + 1, "split_axis: the output rank M must be N + 1");
        }
        if axis >= N {
            return Err(LayoutError::AxisOutOfRange { axis, ndim: N });
        }
        let extent = self.shape[axis];
        if inner == 0 || !extent.is_multiple_of(inner) {
            return Err(LayoutError::ExtentNotDivisible { axis });
        }
        let stride = self.strides[axis];
        let mut shape = [0usize; M];
        let mut strides = [0isize; M];
        let mut k = 0;
        while k < M {
            if k < axis {
                shape[k] = self.shape[k];
                strides[k] = self.strides[k];
            } else if k == axis {
                shape[k] = extent / inner;
                // With two or more outer indices the product is an offset difference and
                // fits; otherwise the outer stride never reaches an offset and may overflow.
                strides[k] = match checked_stride_mul(stride, inner) {
                    Some(s) => s,
                    None => 0,
                };
            } else if k == axis + 1 {
                shape[k] = inner;
                strides[k] = stride;
            } else {
                shape[k] = self.shape[k - 1];
                strides[k] = self.strides[k - 1];
            }
            k += 1;
        }
        tame_unit_strides(&shape, &mut strides, self.itemsize);
        Layout::from_parts(shape, strides, self.offset, self.itemsize)
    }
}
