//! [`Slice`]: a Python-style `start:stop:step` for [`Layout::sliced`](crate::Layout::sliced).

/// A Python slice `start:stop:step` along one axis.
///
/// `None` bounds mean "from the beginning" / "to the end" in the direction of `step`;
/// negative bounds count from the end of the axis; out-of-range bounds are clamped, as in
/// Python. A zero step is rejected by [`Layout::sliced`](crate::Layout::sliced), not here.
///
/// | slice | on an axis of extent 5, picks |
/// | --- | --- |
/// | `Slice::FULL` (`:`) | 0 1 2 3 4 |
/// | `Slice::new(Some(1), Some(-1), 1)` (`1:-1`) | 1 2 3 |
/// | `Slice::new(None, None, -2)` (`::-2`) | 4 2 0 |
/// | `Slice::new(Some(10), None, 1)` (`10:`) | nothing |
///
/// # Examples
///
/// ```
/// use strided_layout::Slice;
/// let s = Slice::new(Some(1), None, 2);
/// assert_eq!((s.start, s.stop, s.step), (Some(1), None, 2));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Slice {
    /// First index, or `None` for the start in the step's direction.
    pub start: Option<isize>,
    /// One past the last index (exclusive), or `None` for the end in the step's direction.
    pub stop: Option<isize>,
    /// Distance between picked indices; negative walks backwards; zero is an error when used.
    pub step: isize,
}

impl Slice {
    /// The whole axis, `:`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order, Slice};
    /// // `a[1, :]` of a 2 × 3 matrix, the first axis kept with extent 1.
    /// let l = Layout::dense([2, 3], 4, Order::C)?;
    /// let row = l.sliced([Slice::new(Some(1), Some(2), 1), Slice::FULL])?;
    /// assert_eq!((row.shape(), row.offset()), ([1, 3], 3));
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const FULL: Self = Self::new(None, None, 1);

    /// A slice `start:stop:step` (Python rules; see the type's docs).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::Slice;
    /// assert_eq!(Slice::new(None, None, 1), Slice::FULL);
    /// ```
    #[must_use]
    #[expect(
        clippy::similar_names,
        reason = "`start`/`stop`/`step` are Python's names"
    )]
    pub const fn new(start: Option<isize>, stop: Option<isize>, step: isize) -> Self {
        Self { start, stop, step }
    }

    /// The slice `start..stop` with step 1.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::Slice;
    /// assert_eq!(Slice::range(1, 3), Slice::new(Some(1), Some(3), 1));
    /// ```
    #[must_use]
    pub const fn range(start: isize, stop: isize) -> Self {
        Self::new(Some(start), Some(stop), 1)
    }
}

/// Range syntax for [`Slice`]: `a..b`, `a..`, `..b`, `..`, `a..=b` and `..=b` are the Python
/// slices `a:b`, `a:`, `:b`, `:`, and `a:b+1`, `:b+1`, with step 1.
///
/// Bounds are `isize`, as in Python (negative bounds count from the end), so integer literals
/// infer `isize`: `Slice::from(1..-1)` is `1:-1`. `usize` ranges are deliberately not
/// accepted: a second integer type would make a literal range ambiguous; write
/// `Slice::range(a as isize, b as isize)` or convert the bounds with `isize::try_from`.
/// An inclusive end of `-1` means "through the last index" (`a:`), and an inclusive end of
/// `isize::MAX` means "to the end", as Python would clamp it.
///
/// Clippy's `reversed_empty_ranges` lint (deny by default) rejects a literal range whose
/// start exceeds its end, such as `1..-1`, not knowing that the bounds are Python's; write
/// such a slice as `Slice::range(1, -1)`, or allow the lint where you use the range form.
///
/// | range | slice | on an axis of extent 5, picks |
/// | --- | --- | --- |
/// | `1..3` | `1:3` | 1 2 |
/// | `-2..` | `-2:` | 3 4 |
/// | `..-1` | `:-1` | 0 1 2 3 |
/// | `..` | `:` | 0 1 2 3 4 |
/// | `1..=3` | `1:4` | 1 2 3 |
/// | `..=-1` | `:` | 0 1 2 3 4 |
///
/// # Examples
///
/// ```
/// use strided_layout::Slice;
/// assert_eq!(Slice::from(1..3), Slice::range(1, 3));
/// assert_eq!(Slice::from(..), Slice::FULL);
/// assert_eq!(Slice::from(-2..), Slice::new(Some(-2), None, 1));
/// assert_eq!(Slice::from(1..=3), Slice::range(1, 4));
/// assert_eq!(Slice::from(..=-1), Slice::FULL);
/// ```
impl From<core::ops::Range<isize>> for Slice {
    fn from(r: core::ops::Range<isize>) -> Self {
        Self::new(Some(r.start), Some(r.end), 1)
    }
}

/// `a..` is Python's `a:` (see [`From<Range<isize>>`](#impl-From%3CRange%3Cisize%3E%3E-for-Slice)).
impl From<core::ops::RangeFrom<isize>> for Slice {
    fn from(r: core::ops::RangeFrom<isize>) -> Self {
        Self::new(Some(r.start), None, 1)
    }
}

/// `..b` is Python's `:b`.
impl From<core::ops::RangeTo<isize>> for Slice {
    fn from(r: core::ops::RangeTo<isize>) -> Self {
        Self::new(None, Some(r.end), 1)
    }
}

/// `..` is Python's `:`, [`Slice::FULL`].
impl From<core::ops::RangeFull> for Slice {
    fn from(_: core::ops::RangeFull) -> Self {
        Self::FULL
    }
}

/// `a..=b` is Python's `a:b+1` (`a:` when `b` is `-1` or `isize::MAX`).
impl From<core::ops::RangeInclusive<isize>> for Slice {
    fn from(r: core::ops::RangeInclusive<isize>) -> Self {
        Self::new(Some(*r.start()), inclusive_stop(*r.end()), 1)
    }
}

/// `..=b` is Python's `:b+1` (`:` when `b` is `-1` or `isize::MAX`).
impl From<core::ops::RangeToInclusive<isize>> for Slice {
    fn from(r: core::ops::RangeToInclusive<isize>) -> Self {
        Self::new(None, inclusive_stop(r.end), 1)
    }
}

/// The exclusive stop after an inclusive end: `end + 1`, or `None` ("to the end") when
/// `end + 1` would be 0 (which would count from the end and select nothing) or overflow.
const fn inclusive_stop(end: isize) -> Option<isize> {
    match end.checked_add(1) {
        Some(0) | None => None,
        Some(stop) => Some(stop),
    }
}

impl Slice {
    /// The slice `range` with step `step`: Python's `start:stop:step` from a Rust range.
    ///
    /// As in Python, a negative step walks backwards from `start` down to (not including)
    /// `stop`, so `(..).into()` with step -1 reverses an axis, and a range whose start is
    /// below its stop selects nothing with a negative step.
    ///
    /// The range converts first, by the table of [`From<Range<isize>>`](#impl-From%3CRange%3Cisize%3E%3E-for-Slice)
    /// (`a..=b` is `a:b+1`), and the step applies to the result, so an inclusive end is
    /// inclusive only going forwards: `Slice::stepped(5..=1, -1)` is Python's `5:2:-1`,
    /// which picks 5, 4, 3 (not 1 or 2). To walk from 5 down to 1, write
    /// `Slice::new(Some(5), Some(0), -1)` (`5:0:-1`; the range forms of a reversed range
    /// trip clippy's `reversed_empty_ranges`, see [`From<Range<isize>>`](#impl-From%3CRange%3Cisize%3E%3E-for-Slice)).
    ///
    /// | call | Python | on an axis of extent 7, picks |
    /// | --- | --- | --- |
    /// | `Slice::stepped(1..7, 2)` | `1:7:2` | 1 3 5 |
    /// | `Slice::stepped(.., -1)` | `::-1` | 6 5 4 3 2 1 0 |
    /// | `Slice::new(Some(5), Some(0), -1)` | `5:0:-1` | 5 4 3 2 1 |
    /// | `Slice::stepped(5..=1, -1)` | `5:2:-1` | 5 4 3 |
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::Slice;
    /// assert_eq!(Slice::stepped(1..7, 2), Slice::new(Some(1), Some(7), 2));
    /// assert_eq!(Slice::stepped(.., -1), Slice::new(None, None, -1)); // ::-1
    /// assert_eq!(Slice::stepped(5..=1, -1), Slice::new(Some(5), Some(2), -1)); // 5 4 3
    /// ```
    #[must_use]
    pub fn stepped(range: impl Into<Slice>, step: isize) -> Self {
        Self {
            step,
            ..range.into()
        }
    }
}
