//! Byte-level questions a GPU or DMA host asks before it hands a pointer to a kernel:
//! [`Layout::offset_of_in_bytes`], [`Layout::byte_span`], [`Layout::fits_in_bytes`] and
//! [`Layout::is_empty`]. [`DynLayout`](crate::DynLayout) answers them with the same cores.
//!
//! ```text
//! (2,3):(-3,1) +3 x4B    element offsets  3 4 5        byte span (0, 23):
//!                                         0 1 2        first byte 0 * 4, last byte 5 * 4 + 3
//! ```

use num_traits::PrimInt;

use crate::algo::bytes::{byte_span, fits_in_bytes, offset_of_in_bytes};
use crate::{Layout, LayoutError};

impl<const N: usize> Layout<N> {
    /// The byte offset of `index`: [`offset_of`](Layout::offset_of) times the itemsize, what
    /// a host adds to a base pointer.
    ///
    /// ```text
    /// (2,3):(3,1) x4B     offset_of([1, 2]) = 5     offset_of_in_bytes([1, 2]) = 20
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::IndexOutOfRange`] if some `index[k] >= shape[k]` (the first such
    ///   axis). Every in-range index has a byte offset that fits `isize` (invariant 3).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([2, 3], 4, Order::C)?;
    /// assert_eq!(l.offset_of_in_bytes([1, 2])?, 20);
    /// assert_eq!(l.offset_of_in_bytes([2, 0]), Err(LayoutError::IndexOutOfRange { axis: 0 }));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `offset_of_in_bytes(i) == offset_of(i).map(|o| o * itemsize)` for every index
    pub const fn offset_of_in_bytes(&self, index: [usize; N]) -> Result<isize, LayoutError> {
        offset_of_in_bytes(self.parts(), &index)
    }

    /// The first and the last byte (both inclusive, relative to the base pointer) that any
    /// element covers; `None` when the layout has no element.
    ///
    /// With negative strides the first byte can be below the base pointer: a host copies
    /// `last - first + 1` bytes starting at `base + first`.
    ///
    /// ```text
    /// (2,3):(-3,1) +3 x4B     offsets 3 4 5      byte_span() == Some((0, 23))
    ///                                 0 1 2
    /// (3):(-1) +0 x2B         offsets 0 -1 -2    byte_span() == Some((-4, 1))
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError};
    /// let l = Layout::new([2, 3], [-3, 1], 4)?.with_offset(3)?;
    /// assert_eq!(l.byte_span(), Some((0, 23)));
    /// assert_eq!(Layout::new([3], [-1], 2)?.byte_span(), Some((-4, 1)));
    /// assert_eq!(Layout::new([0, 3], [3, 1], 2)?.byte_span(), None);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `Some((min * itemsize, max * itemsize + itemsize - 1))` when
    ///   `offset_bounds() == Some((min, max))`, `None` iff `is_empty()`
    #[must_use]
    pub const fn byte_span(&self) -> Option<(isize, isize)> {
        byte_span(self.parts())
    }

    /// Whether byte-offset index math in the integer type `I` suffices: every extent, every
    /// stride in bytes, the offset in bytes and both ends of the [`byte_span`](Layout::byte_span)
    /// fit `I`; the byte counterpart of [`fits_in`](Layout::fits_in).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([1024, 1024, 256], 4, Order::C)?; // 1 GiB
    /// assert!(l.fits_in::<i32>() && l.fits_in_bytes::<i32>());
    /// let big = Layout::dense([1024, 1024, 1024], 4, Order::C)?; // 4 GiB
    /// assert!(big.fits_in::<i32>() && !big.fits_in_bytes::<i32>());
    /// assert!(big.fits_in_bytes::<u32>() && big.fits_in_bytes::<i64>());
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `true` iff `I` holds every extent, every `stride * itemsize`, `offset * itemsize`
    ///   and both ends of `byte_span()`
    #[must_use]
    pub fn fits_in_bytes<I: PrimInt>(&self) -> bool {
        fits_in_bytes::<I>(self.parts())
    }

    /// Whether the layout has no element (some extent is 0).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// assert!(Layout::dense([2, 0, 3], 4, Order::C)?.is_empty());
    /// assert!(!Layout::<0>::dense([], 4, Order::C)?.is_empty()); // rank 0: one element
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `true` iff `volume() == 0` iff `offset_bounds().is_none()`
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.parts().has_zero_extent()
    }
}
