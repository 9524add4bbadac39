//! [`Layout::fits_in`]: whether 32-bit (or any integer type's) index math is enough.

use num_traits::PrimInt;

use crate::param::{IndexRange, parts_fit};

use crate::Layout;

impl<const N: usize> Layout<N> {
    /// Whether every extent, every stride of an axis of extent 2 or more, the offset and every
    /// element offset (checked through [`offset_bounds`](Layout::offset_bounds)) fit the
    /// integer type `I`, so that a kernel can compute offsets in `I` (for example `i32` on a
    /// GPU).
    ///
    /// A stride on an axis of extent 0 or 1 never reaches an offset, so it is not checked:
    /// `(1, 2^30):(2^31, 1)` fits `i32`.
    ///
    /// Values are in elements, not bytes, and the volume is not checked (a kernel that
    /// iterates a linear index `0..volume` should also check `I::from(volume)`). The partial
    /// sums `offset + Σ_{k<j} i_k s_k` that index math forms are element offsets themselves,
    /// so they fit too. Not `const`: it is generic over a trait.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([1024, 1024, 1024], 4, Order::C)?;
    /// assert!(l.fits_in::<i32>());
    /// assert!(!l.fits_in::<i16>());
    /// assert!(!Layout::new([3], [-1], 4)?.with_offset(2)?.fits_in::<u32>());
    /// assert!(Layout::dense([3000, 3000], 4, Order::C)?.fits_in::<i32>());
    /// assert!(!Layout::dense([3000, 3000, 300], 4, Order::C)?.fits_in::<i32>());
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `true` iff `I` holds every extent, every stride of an axis of extent 2 or more, the
    ///   offset, and both offset bounds
    #[must_use]
    pub fn fits_in<I: PrimInt>(&self) -> bool {
        parts_fit_in::<I>(
            &self.shape,
            &self.strides,
            self.offset,
            self.offset_bounds(),
        )
    }
}

/// The rule behind [`Layout::fits_in`], on the parts of any layout kind: whether `I` holds
/// every extent, every stride of an axis of extent 2 or more (the others never reach an
/// offset), the offset and both offset `bounds` (`None`: no elements). The rule itself is the
/// kernel-parameter packing's (`param/pack.rs`), given `I`'s range.
pub(crate) fn parts_fit_in<I: PrimInt>(
    shape: &[usize],
    strides: &[isize],
    offset: isize,
    bounds: Option<(isize, isize)>,
) -> bool {
    // A type wider than i128 (none of Rust's) or `u128` saturates to the whole i128 range,
    // which every `isize` and `usize` is inside anyway.
    let all = IndexRange::ALL;
    let range = IndexRange {
        min: I::min_value().to_i128().unwrap_or(all.min),
        max: I::max_value().to_i128().unwrap_or(all.max),
        bits: u32::try_from(size_of::<I>().saturating_mul(8)).unwrap_or(all.bits),
    };
    parts_fit(range, shape, strides, offset, bounds)
}
