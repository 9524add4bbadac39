//! [`Layout::reshaped`] and [`Layout::reshaped_f`]: a new shape over the same memory.

use crate::algo::checked::{tame_unit_strides, tri};
use crate::algo::reshape::{Scratch, reshape_c, reshape_f, resolve_shape};
use crate::{Layout, LayoutError};

impl<const N: usize> Layout<N> {
    /// Returns a rank-`M` layout with shape `shape` whose elements, in C index order, sit at
    /// the same offsets as this layout's; one extent may be `-1` (inferred). No copy.
    ///
    /// It succeeds exactly when such strides exist — on every layout NumPy reshapes without
    /// a copy and more: extent-1 axes with any stride never block it, zero and negative
    /// strides split and merge like any other, and an empty layout reshapes to any shape of
    /// volume 0 (with all-zero strides, as cuda.core). When no strides exist, the error names
    /// the source axes on each side of the boundary that a target axis would straddle.
    ///
    /// ```text
    /// (2,3):(3,1)          reshaped([3, 2]) -> (3,2):(2,1)
    ///  0 1 2                0 1
    ///  3 4 5                2 3
    ///                       4 5
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::ExtentInvalid`] for an extent below -1, a second -1, or a -1 whose
    ///   other extents multiply to 0;
    /// - [`LayoutError::VolumeMismatch`] if the volumes differ (or the -1 does not divide);
    /// - [`LayoutError::NeedsCopy`] if no strides give the same offsets (its mask names the
    ///   blocking source axes).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{AxisMask, Layout, LayoutError, Order};
    /// let l = Layout::dense([5, 3, 4], 1, Order::C)?;
    /// assert_eq!(l.reshaped([20, 3])?, Layout::dense([20, 3], 1, Order::C)?);
    /// assert_eq!(l.reshaped([4, -1])?.shape(), [4, 15]);
    /// let p = l.permuted([2, 0, 1])?;
    /// assert_eq!(p.reshaped([4, 15])?.strides(), [1, 4]);
    /// assert_eq!(
    ///     p.reshaped([20, 3]),
    ///     Err(LayoutError::NeedsCopy { axes: AxisMask::from_bits(0b011) })
    /// );
    /// // An extent-1 axis never blocks, whatever its stride:
    /// let odd = Layout::new([2, 1, 3], [3, 99, 1], 4)?;
    /// assert_eq!(odd.reshaped([6])?.strides(), [1]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - the offsets of `r` in C index order equal the offsets of `self` in C index order
    /// - `r.offset() == self.offset()`, `r.itemsize() == self.itemsize()`
    pub const fn reshaped<const M: usize>(
        self,
        shape: [isize; M],
    ) -> Result<Layout<M>, LayoutError> {
        let mut target = [0usize; M];
        tri!(resolve_shape(&shape, self.volume(), &mut target));
        let mut strides = [0isize; M];
        let (mut s0, mut s1, mut s2) = ([0usize; N], [0isize; N], [0usize; N]);
        tri!(reshape_c(
            self.parts(),
            &target,
            &mut strides,
            &mut s0,
            &mut s1,
            &mut s2
        ));
        tame_unit_strides(&target, &mut strides, self.itemsize);
        // The same elements re-indexed: only the new strides need checking.
        Layout::from_same_offsets(target, strides, self.offset, self.itemsize)
    }

    /// Like [`reshaped`](Layout::reshaped), in F (column-major) index order: the first axis
    /// varies fastest on both sides.
    ///
    /// ```text
    /// (2,3):(1,2)          reshaped_f([3, 2]) -> (3,2):(1,3)
    ///  0 2 4                0 3
    ///  1 3 5                1 4
    ///                       2 5
    /// ```
    ///
    /// # Errors
    ///
    /// As [`reshaped`](Layout::reshaped); the `NeedsCopy` mask uses this layout's axis numbers.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let f = Layout::dense([2, 3, 4], 8, Order::F)?;
    /// assert_eq!(f.reshaped_f([6, 4])?, Layout::dense([6, 4], 8, Order::F)?);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - the offsets of `r` in F index order equal the offsets of `self` in F index order
    pub const fn reshaped_f<const M: usize>(
        self,
        shape: [isize; M],
    ) -> Result<Layout<M>, LayoutError> {
        let mut target = [0usize; M];
        tri!(resolve_shape(&shape, self.volume(), &mut target));
        let mut strides = [0isize; M];
        let (mut s0, mut s1, mut s2) = ([0usize; N], [0isize; N], [0usize; N]);
        let (mut r0, mut r1) = ([0usize; N], [0isize; N]);
        let (mut r2, mut r3) = ([0usize; M], [0isize; M]);
        tri!(reshape_f(
            self.parts(),
            &target,
            &mut strides,
            &mut Scratch {
                shape: &mut s0,
                strides: &mut s1,
                starts: &mut s2,
                rev_shape: &mut r0,
                rev_strides: &mut r1,
                rev_target: &mut r2,
                rev_out: &mut r3,
            }
        ));
        tame_unit_strides(&target, &mut strides, self.itemsize);
        // The same elements re-indexed: only the new strides need checking.
        Layout::from_same_offsets(target, strides, self.offset, self.itemsize)
    }
}
