//! [`Layout::offset_bounds`], [`Layout::required_size_in_bytes`] and [`Layout::offset_of`]:
//! where the elements lie.

use crate::algo::offset::{bounds, offset_of, required_size};
use crate::{Layout, LayoutError};

impl<const N: usize> Layout<N> {
    /// The smallest and largest element offsets, in elements, offset included; `None` when the
    /// layout has no element.
    ///
    /// Deliberate difference from cuda.core, which returns `(0, -1)` for an empty layout: an
    /// `Option` cannot be mistaken for a range. A zero stride adds nothing, whatever the extent;
    /// extent-1 axes add nothing, whatever the stride.
    ///
    /// ```text
    /// (2,3):(-3,1) +3       offsets  3 4 5      bounds (0, 5)
    ///                                0 1 2
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError};
    /// let l = Layout::new([2, 3], [-3, 1], 4)?.with_offset(3)?;
    /// assert_eq!(l.offset_bounds(), Some((0, 5)));
    /// assert_eq!(Layout::new([2, 0], [1, 1], 4)?.offset_bounds(), None);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `Some((min, max))` of every element offset, `None` iff `volume() == 0`
    #[must_use]
    pub const fn offset_bounds(&self) -> Option<(isize, isize)> {
        match bounds(self.parts()) {
            Ok(b) => b,
            // Invariant 3: every element offset fits `isize`, so `bounds` cannot overflow.
            Err(_) => None,
        }
    }

    /// The bytes a buffer starting at offset 0 needs to hold every element:
    /// `(max offset + 1) * itemsize`, and 0 when the layout has no element.
    ///
    /// ```text
    /// (2,2):(2,1) +1 x4B     offsets 1 2        required (4 + 1) * 4 = 20 bytes
    ///                                3 4
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::NegativeOffset`] if the smallest element offset is negative (no buffer
    ///   starting at offset 0 holds it; cuda.core raises here too).
    /// - [`LayoutError::OffsetOverflow`] never on a valid layout (kept for checked arithmetic).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError};
    /// let l = Layout::new([2, 2], [2, 1], 4)?.with_offset(1)?;
    /// assert_eq!(l.required_size_in_bytes()?, 20);
    /// assert_eq!(Layout::new([0, 2], [2, 1], 4)?.required_size_in_bytes()?, 0);
    /// assert_eq!(l.with_offset(-1)?.required_size_in_bytes(), Err(LayoutError::NegativeOffset));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `Ok((max + 1) * itemsize)` when `offset_bounds() == Some((min, max))` and `min >= 0`
    /// - `Ok(0)` when `volume() == 0`; `Err(NegativeOffset)` when `min < 0`
    pub const fn required_size_in_bytes(&self) -> Result<usize, LayoutError> {
        required_size(self.parts())
    }

    /// The element offset of `index`: `offset + Σ index[k] * strides[k]`.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::IndexOutOfRange`] if some `index[k] >= shape[k]` (the first such axis).
    ///
    /// That is the only error: every in-range index has an offset that fits `isize`
    /// (invariant 3), including an index above `isize::MAX` on a broadcast (stride-0) axis.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError};
    /// let l = Layout::new([2, 3], [3, -1], 1)?.with_offset(2)?;
    /// assert_eq!(l.offset_of([1, 2])?, 3);
    /// assert_eq!(l.offset_of([2, 0]), Err(LayoutError::IndexOutOfRange { axis: 0 }));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - equals the model's `offset + Σ i_k s_k` for every index in the shape
    pub const fn offset_of(&self, index: [usize; N]) -> Result<isize, LayoutError> {
        offset_of(self.parts(), &index)
    }
}
