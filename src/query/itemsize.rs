//! [`Layout::max_compatible_itemsize`]: the largest itemsize [`Layout::repacked`] accepts.

use crate::algo::repack::max_compatible_itemsize;
use crate::{Layout, LayoutError};

impl<const N: usize> Layout<N> {
    /// The largest power of two `<= max_itemsize` that
    /// [`repacked`](Layout::repacked)`(_, data_ptr, axis)` accepts.
    ///
    /// It runs `repacked`'s own checks on each power of two from cuda.core's
    /// `gcd(max_itemsize, data_ptr)` down, so
    /// `self.repacked(self.max_compatible_itemsize(m, p, a)?, p, a)` always succeeds. When
    /// `data_ptr` is aligned to the current itemsize and `max_itemsize >= self.itemsize()`,
    /// the answer is at least the current itemsize (a factor of 1 is always accepted).
    ///
    /// A `data_ptr` **not aligned to the current itemsize** is never answered the current
    /// itemsize (that would invite misaligned reads): the answer is cuda.core's gcd value,
    /// below the itemsize, when the layout can be unpacked to it along `axis` (stride 1,
    /// extent > 0), else [`LayoutError::PointerMisaligned`] (where cuda.core answers the
    /// itemsize). A `max_itemsize` below the current itemsize is answered too (cuda.core
    /// raises): the largest itemsize `repacked` accepts. See
    /// [`doc::cuda_core`](crate::doc::cuda_core), difference 12.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::ItemsizeNotPowerOfTwo`] if `max_itemsize` is 0 or not a power of two;
    /// - [`LayoutError::SignedAxisOutOfRange`] if `axis` is not in `-N..N`;
    /// - [`LayoutError::PointerMisaligned`] if `data_ptr` is not a multiple of the current
    ///   itemsize and the layout cannot be unpacked along `axis` to an itemsize it is aligned
    ///   to;
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
    /// // A pointer aligned to 1 byte only: unpack to bytes, never answer 2.
    /// assert_eq!(l.max_compatible_itemsize(64, 0x1001, -1)?, 1);
    /// assert_eq!(l.max_compatible_itemsize(64, 0x1001, 0), Err(LayoutError::PointerMisaligned));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `self.repacked(m, data_ptr, axis)` succeeds for the returned `m`, and `data_ptr` is
    ///   a multiple of `m`;
    /// - every power of two `k` with `m < k <= max_itemsize` is rejected by `repacked` or
    ///   does not divide `data_ptr`.
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
