//! The byte-level and pairwise questions of [`Layout`] on a [`DynLayout`]: byte offsets and
//! strides, the byte span, whether an integer type suffices, emptiness, overlap; and the
//! infallible conversion from a `Layout<N>` with `N <= MAX`.

use num_traits::PrimInt;

use crate::algo::bytes::{byte_span, fits_in_bytes, offset_of_in_bytes, to_bytes};
use crate::algo::overlap::overlaps;
use crate::query::index_type::parts_fit_in;
use crate::rank::{NotLower, Rank};
use crate::{DynLayout, Layout, LayoutError, Verdict};

impl<const MAX: usize> DynLayout<MAX> {
    /// The offset of index `[0, ..]`, in bytes (as [`Layout::offset_in_bytes`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// assert_eq!(DynLayout::<4>::new(&[4], &[1], 2)?.with_offset(3)?.offset_in_bytes(), 6);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn offset_in_bytes(&self) -> isize {
        match to_bytes(self.offset, self.itemsize) {
            Ok(b) => b,
            // Invariant 3: the offset in bytes fits `isize`.
            Err(_) => 0,
        }
    }

    /// The strides of the live axes in bytes (as [`Layout::strides_in_bytes`]), in a
    /// fixed-capacity `heapless::Vec`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// let d = DynLayout::<4>::new(&[2, 3], &[3, -1], 4)?;
    /// assert_eq!(d.strides_in_bytes().as_slice(), &[12, -4]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub fn strides_in_bytes(&self) -> heapless::Vec<isize, MAX> {
        let mut out = heapless::Vec::new();
        for &s in self.strides() {
            // Invariant 3: every stride in bytes fits `isize`; `rank <= MAX`, so every push
            // fits (`collect` would panic if one did not).
            let _ = out.push(to_bytes(s, self.itemsize).unwrap_or(0));
        }
        out
    }

    /// The byte offset of `index` (as [`Layout::offset_of_in_bytes`]).
    ///
    /// # Errors
    ///
    /// - [`LayoutError::RankMismatch`] if `index.len() != self.ndim()`;
    /// - [`LayoutError::IndexOutOfRange`] if an index reaches its extent.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// let d = DynLayout::<4>::new(&[2, 3], &[3, 1], 4)?;
    /// assert_eq!(d.offset_of_in_bytes(&[1, 2])?, 20);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn offset_of_in_bytes(&self, index: &[usize]) -> Result<isize, LayoutError> {
        offset_of_in_bytes(self.parts(), index)
    }

    /// The first and the last byte (inclusive) that any element covers, `None` when empty
    /// (as [`Layout::byte_span`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// let d = DynLayout::<4>::new(&[2, 3], &[-3, 1], 4)?.with_offset(3)?;
    /// assert_eq!(d.byte_span(), Some((0, 23)));
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn byte_span(&self) -> Option<(isize, isize)> {
        byte_span(self.parts())
    }

    /// Whether element-offset index math in `I` suffices (as [`Layout::fits_in`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// let d = DynLayout::<4>::new(&[1 << 20, 4096], &[4096, 1], 4)?;
    /// assert!(!d.fits_in::<i32>() && d.fits_in::<i64>());
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub fn fits_in<I: PrimInt>(&self) -> bool {
        parts_fit_in::<I>(
            self.shape(),
            self.strides(),
            self.offset,
            self.offset_bounds(),
        )
    }

    /// Whether byte-offset index math in `I` suffices (as [`Layout::fits_in_bytes`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// let d = DynLayout::<4>::new(&[1 << 20, 1024], &[1024, 1], 4)?; // 4 GiB
    /// assert!(d.fits_in::<i32>() && !d.fits_in_bytes::<i32>());
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub fn fits_in_bytes<I: PrimInt>(&self) -> bool {
        fits_in_bytes::<I>(self.parts())
    }

    /// Whether the layout has no element (as [`Layout::is_empty`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// assert!(DynLayout::<4>::new(&[2, 0], &[1, 1], 4)?.is_empty());
    /// assert!(!DynLayout::<4>::new(&[], &[], 4)?.is_empty());
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.parts().has_zero_extent()
    }

    /// Whether some element of `self` and some element of `other`, over the same buffer,
    /// share a byte (as [`Layout::overlaps`], same cost).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// let even = DynLayout::<4>::new(&[4], &[2], 4)?;
    /// assert!(!even.overlaps(&even.with_offset(1)?));
    /// assert!(even.overlaps(&even.with_offset(2)?));
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn overlaps<const M: usize>(&self, other: &DynLayout<M>) -> bool {
        // With an unbounded budget the search always answers.
        matches!(self.overlaps_within(other, u64::MAX), Verdict::Yes)
    }

    /// Whether some element of `self` shares a byte with some element of `other`, deciding
    /// with at most `budget` search steps (as [`Layout::overlaps_within`], same budget
    /// bound); [`Verdict::Unknown`] when that is not enough.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError, Verdict};
    /// let even = DynLayout::<4>::new(&[4], &[2], 4)?;
    /// assert_eq!(even.overlaps_within(&even.with_offset(1)?, 10), Verdict::No);
    /// assert_eq!(even.overlaps_within(&even.with_offset(2)?, 10), Verdict::Yes);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `Yes` iff `overlaps(other)`, `No` iff not, whenever the answer is not `Unknown`
    #[must_use]
    pub const fn overlaps_within<const M: usize>(
        &self,
        other: &DynLayout<M>,
        budget: u64,
    ) -> Verdict {
        let mut order_a = [0usize; MAX];
        let mut order_b = [0usize; M];
        match (
            order_a.split_at_mut_checked(self.rank),
            order_b.split_at_mut_checked(other.rank),
        ) {
            (Some((a, _)), Some((b, _))) => {
                Verdict::from_option(overlaps(self.parts(), other.parts(), a, b, budget))
            }
            // `rank <= MAX` is kept by every constructor.
            _ => Verdict::Unknown,
        }
    }
}

/// Infallible: the bound `Rank<N>: NotLower<N, MAX>` asks for `N <= MAX` at compile time; use
/// [`DynLayout::from_layout`] for a run-time check.
///
/// ```
/// use strided_layout::{DynLayout, Layout, LayoutError, Order};
/// let d: DynLayout<4> = Layout::dense([2, 3], 4, Order::C)?.into();
/// assert_eq!(d.shape(), &[2, 3]);
/// # Ok::<(), LayoutError>(())
/// ```
impl<const N: usize, const MAX: usize> From<Layout<N>> for DynLayout<MAX>
where
    Rank<N>: NotLower<N, MAX>,
{
    fn from(l: Layout<N>) -> Self {
        // A `Layout` keeps the invariants, and `N <= MAX`: a copy, not a validation.
        Self::from_valid_parts(&l.shape, &l.strides, N, l.offset, l.itemsize)
    }
}
