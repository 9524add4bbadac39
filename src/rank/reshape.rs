//! [`Layout::reshaped`] and [`Layout::reshaped_f`]: a new shape over the same memory.

use crate::algo::checked::{tame_unit_strides, tri};
use crate::algo::reshape::{reshape_c, resolve_shape};
use crate::{AxisMask, Layout, LayoutError};

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
            &self.shape,
            &self.strides,
            &target,
            &mut strides,
            &mut s0,
            &mut s1,
            &mut s2
        ));
        tame_unit_strides(&target, &mut strides, self.itemsize);
        Layout::from_parts(target, strides, self.offset, self.itemsize)
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
    // Indexing is bounded by the loop conditions `i < N` and `j < M`; `N - 1 - i` and
    // `M - 1 - j` cannot wrap there.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    pub const fn reshaped_f<const M: usize>(
        self,
        shape: [isize; M],
    ) -> Result<Layout<M>, LayoutError> {
        let mut target = [0usize; M];
        tri!(resolve_shape(&shape, self.volume(), &mut target));
        let (mut rs, mut rt) = ([0usize; N], [0isize; N]);
        let mut i = 0;
        while i < N {
            rs[i] = self.shape[N - 1 - i];
            rt[i] = self.strides[N - 1 - i];
            i += 1;
        }
        let mut rtarget = [0usize; M];
        let mut j = 0;
        while j < M {
            rtarget[j] = target[M - 1 - j];
            j += 1;
        }
        let mut rstrides = [0isize; M];
        let (mut s0, mut s1, mut s2) = ([0usize; N], [0isize; N], [0usize; N]);
        match reshape_c(&rs, &rt, &rtarget, &mut rstrides, &mut s0, &mut s1, &mut s2) {
            Ok(()) => {}
            Err(LayoutError::NeedsCopy { axes }) => {
                let mut mask = AxisMask::EMPTY;
                i = 0;
                while i < N {
                    if axes.contains(i) {
                        mask = mask.with(N - 1 - i);
                    }
                    i += 1;
                }
                return Err(LayoutError::NeedsCopy { axes: mask });
            }
            Err(e) => return Err(e),
        }
        let mut strides = [0isize; M];
        j = 0;
        while j < M {
            strides[j] = rstrides[M - 1 - j];
            j += 1;
        }
        tame_unit_strides(&target, &mut strides, self.itemsize);
        Layout::from_parts(target, strides, self.offset, self.itemsize)
    }
}
