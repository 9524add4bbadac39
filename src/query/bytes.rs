//! Byte-level questions a GPU or DMA host asks before it hands a pointer to a kernel:
//! [`Layout::offset_of_in_bytes`], [`Layout::byte_span`], [`Layout::fits_in_bytes`] and
//! [`Layout::is_empty`]. [`DynLayout`](crate::DynLayout) answers them with the same cores.
//!
//! ```text
//! (2,3):(-3,1) +3 x4B    element offsets  3 4 5        byte span (0, 23):
//!                                         0 1 2        first byte 0 * 4, last byte 5 * 4 + 3
//! ```

use num_traits::{NumCast, PrimInt};

use crate::algo::checked::{add, mul, to_isize, tri};
use crate::algo::contiguity::has_zero_extent;
use crate::algo::offset::{bounds, offset_of};
use crate::{Layout, LayoutError};

/// `offset * itemsize`, for an offset that is an element offset of a valid layout.
///
/// Invariant 3: every element offset in bytes fits `isize`, so the checked product always
/// succeeds; `OffsetOverflow` is kept for checked arithmetic only.
pub(crate) const fn to_bytes(offset: isize, itemsize: usize) -> Result<isize, LayoutError> {
    mul(offset, tri!(to_isize(itemsize)))
}

/// The byte offset of `index`: [`offset_of`] times the itemsize.
pub(crate) const fn offset_of_in_bytes(
    shape: &[usize],
    strides: &[isize],
    offset: isize,
    itemsize: usize,
    index: &[usize],
) -> Result<isize, LayoutError> {
    to_bytes(tri!(offset_of(shape, strides, offset, index)), itemsize)
}

/// `Ok` value of a result, or `return None`.
macro_rules! tri_opt {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(_) => return None,
        }
    };
}

/// The first and the last byte (inclusive) that any element covers, `None` when empty.
///
/// The last byte is `max * itemsize + itemsize - 1`. It fits `isize`: `max * itemsize` does
/// (invariant 3) and is a multiple of the itemsize, a power of two `p`, and the largest
/// multiple of `p` not above `isize::MAX = 2^k - 1` is `2^k - p`, so adding `p - 1` stays at
/// most `isize::MAX`. The checked steps therefore never fail on a valid layout.
pub(crate) const fn byte_span(
    shape: &[usize],
    strides: &[isize],
    offset: isize,
    itemsize: usize,
) -> Option<(isize, isize)> {
    let Ok(Some((lo, hi))) = bounds(shape, strides, offset) else {
        return None;
    };
    let (Ok(first), Ok(last_start)) = (to_bytes(lo, itemsize), to_bytes(hi, itemsize)) else {
        return None;
    };
    let Ok(last) = add(last_start, tri_opt!(to_isize(itemsize.saturating_sub(1)))) else {
        return None;
    };
    Some((first, last))
}

/// Whether `I` holds every extent, every byte stride, the byte offset and both ends of the
/// byte span.
pub(crate) fn fits_in_bytes<I: PrimInt>(
    shape: &[usize],
    strides: &[isize],
    offset: isize,
    itemsize: usize,
) -> bool {
    let fits_i = |v: isize| <I as NumCast>::from(v).is_some();
    let fits_u = |v: usize| <I as NumCast>::from(v).is_some();
    let bytes_fit = |v: isize| to_bytes(v, itemsize).is_ok_and(fits_i);
    shape.iter().all(|&e| fits_u(e))
        && strides.iter().all(|&s| bytes_fit(s))
        && bytes_fit(offset)
        && byte_span(shape, strides, offset, itemsize)
            .is_none_or(|(lo, hi)| fits_i(lo) && fits_i(hi))
}

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
        offset_of_in_bytes(
            &self.shape,
            &self.strides,
            self.offset,
            self.itemsize,
            &index,
        )
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
        byte_span(&self.shape, &self.strides, self.offset, self.itemsize)
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
        fits_in_bytes::<I>(&self.shape, &self.strides, self.offset, self.itemsize)
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
        has_zero_extent(&self.shape)
    }
}
