//! [`Layout::max_compatible_itemsize`]: the largest itemsize [`Layout::repacked`] accepts.

use crate::algo::repack::max_compatible_itemsize;
use crate::{Layout, LayoutError};

impl<const N: usize> Layout<N> {
    /// The largest power of two `<= max_itemsize` that
    /// [`repacked`](Layout::repacked)`(_, data_ptr, axis)` accepts.
    ///
    /// It runs `repacked`'s own checks on each power of two from `max_itemsize` down, so
    /// `self.repacked(self.max_compatible_itemsize(m, p, a)?, p, a)` always succeeds. When
    /// `max_itemsize >= self.itemsize()` the answer is at least the current itemsize (a
    /// factor of 1 is always accepted). Unlike cuda.core, which folds `data_ptr` into a gcd
    /// even when it would unpack, and returns `min(max_itemsize, itemsize)` for an axis it
    /// cannot repack even when `repacked` would reject that size, the answer here is exact.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::ItemsizeNotPowerOfTwo`] if `max_itemsize` is 0 or not a power of two;
    /// - [`LayoutError::AxisOutOfRange`] if `axis` is not in `-N..N`;
    /// - when `max_itemsize < self.itemsize()` and no smaller itemsize is accepted (the axis
    ///   has extent 0 or a stride other than 1): the error `repacked(1, data_ptr, axis)`
    ///   returns, [`LayoutError::ExtentZero`] or [`LayoutError::StrideNotOne`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([3, 8], 2, Order::C)?;
    /// assert_eq!(l.max_compatible_itemsize(64, 0, -1)?, 16);
    /// assert_eq!(l.max_compatible_itemsize(64, 0x1004, -1)?, 4);
    /// assert_eq!(l.max_compatible_itemsize(64, 0, 0)?, 2); // axis 0 has stride 8
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `self.repacked(m, data_ptr, axis)` succeeds for the returned `m`, and fails for every
    ///   power of two between `m` and `max_itemsize` (exclusive of `m`).
    pub const fn max_compatible_itemsize(
        &self,
        max_itemsize: usize,
        data_ptr: usize,
        axis: isize,
    ) -> Result<usize, LayoutError> {
        let mut shape = [0usize; N];
        let mut strides = [0isize; N];
        max_compatible_itemsize(
            self.parts(),
            max_itemsize,
            data_ptr,
            axis,
            &mut shape,
            &mut strides,
        )
    }
}
