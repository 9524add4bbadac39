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
    #[allow(clippy::similar_names)] // `start`/`stop`/`step` are Python's names
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
