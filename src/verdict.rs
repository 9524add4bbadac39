//! [`Verdict`]: the answer of a query that may stop at a budget.

/// The answer of a budgeted query such as [`Layout::is_unique_within`](crate::Layout::is_unique_within):
/// yes, no, or unknown because the budget ran out first.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Verdict};
/// let l = Layout::new([3, 3], [3, 4], 1)?;
/// assert_eq!(l.is_unique_within(1_000), Verdict::Yes);
/// assert_eq!(Verdict::Yes.known(), Some(true));
/// assert_eq!(Verdict::Unknown.known(), None);
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Verdict {
    /// The property holds.
    Yes,
    /// The property does not hold.
    No,
    /// The budget ran out before the answer was known.
    Unknown,
}

impl Verdict {
    /// `Some(true)` for [`Yes`](Verdict::Yes), `Some(false)` for [`No`](Verdict::No), `None`
    /// for [`Unknown`](Verdict::Unknown).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::Verdict;
    /// assert_eq!(Verdict::No.known(), Some(false));
    /// ```
    #[must_use]
    pub const fn known(self) -> Option<bool> {
        match self {
            Self::Yes => Some(true),
            Self::No => Some(false),
            Self::Unknown => None,
        }
    }

    /// The verdict of an `Option<bool>` (`None` is unknown).
    pub(crate) const fn from_option(v: Option<bool>) -> Self {
        match v {
            Some(true) => Self::Yes,
            Some(false) => Self::No,
            None => Self::Unknown,
        }
    }
}
