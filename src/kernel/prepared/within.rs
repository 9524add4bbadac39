//! [`CopyWithinPlan`]: a copy inside one buffer, planned and validated once.

use super::CopyPlan;
use crate::kernel::mapping::{Lowered, Mapping};
use crate::kernel::plan::MAX_NESTS;
use crate::kernel::proof::{Checked, InPlace, WithinFact};
use crate::kernel::raw;
use crate::{Layout, LayoutError};

/// A copy inside one buffer, planned and validated once (the destination unique, the two
/// layouts coinciding or disjoint); [`run`](CopyWithinPlan::run) only checks the buffer.
///
/// ```text
/// buf 0 1 2 3 4 5     src (3):(1) +0, dst (3):(-1) +5      buf after: 0 1 2 2 1 0
/// ```
///
/// # Examples
///
/// ```
/// use strided_layout::{CopyWithinPlan, Layout, LayoutError, const_unwrap};
/// const FRONT: Layout<1> = const_unwrap(Layout::new([3], [1], 4));
/// const BACK_REVERSED: Layout<1> = const_unwrap(const_unwrap(Layout::new([3], [-1], 4)).with_offset(5));
/// const MIRROR: CopyWithinPlan = const_unwrap(CopyWithinPlan::new(&FRONT, &BACK_REVERSED));
/// let mut buf = [0, 1, 2, 3, 4, 5];
/// MIRROR.run(&mut buf)?;
/// assert_eq!(buf, [0, 1, 2, 2, 1, 0]);
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct CopyWithinPlan<const M: usize = MAX_NESTS> {
    /// The plan, its destination unique, its operands disjoint or coinciding (then nothing
    /// moves).
    checked: Checked<2, WithinFact, M>,
}

impl CopyWithinPlan {
    /// Plans and validates a copy from `src` to `dst` inside one buffer, once.
    ///
    /// # Errors
    ///
    /// As [`CopyPlan::new`], and [`LayoutError::OperandsOverlap`] if the layouts share an
    /// element without coinciding ([`LayoutError::UniquenessUndecided`] if the search could
    /// not tell within its budget).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyWithinPlan, Layout, LayoutError};
    /// let a = Layout::new([3], [1], 4)?;
    /// assert_eq!(
    ///     CopyWithinPlan::new(&a, &a.with_offset(1)?),
    ///     Err(LayoutError::OperandsOverlap)
    /// );
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn new<const N: usize>(
        src: &Layout<N>,
        dst: &Layout<N>,
    ) -> Result<Self, LayoutError> {
        Self::from_lowered(&src.lowered(), &dst.lowered())
    }

    /// [`CopyWithinPlan::new`] for any operands.
    ///
    /// # Errors
    ///
    /// As [`CopyWithinPlan::new`], and the interleave errors of [`Plan::new`](crate::plan::Plan::new).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyWithinPlan, Layout, LayoutError};
    /// let l = Layout::new([2], [1], 1)?;
    /// assert_eq!(CopyWithinPlan::of(&l, &l)?.len(), 2);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn of<const N: usize, S, D>(src: &S, dst: &D) -> Result<Self, LayoutError>
    where
        S: Mapping<N> + ?Sized,
        D: Mapping<N> + ?Sized,
    {
        Self::from_lowered(&src.lowered(), &dst.lowered())
    }

    /// [`CopyWithinPlan::new`] from lowered operands (`const`).
    ///
    /// # Errors
    ///
    /// As [`CopyWithinPlan::of`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyWithinPlan, Layout, LayoutError};
    /// let l = Layout::new([2], [1], 1)?.lowered();
    /// assert_eq!(CopyWithinPlan::from_lowered(&l, &l)?.len(), 2);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn from_lowered<const N: usize>(
        src: &Lowered<N>,
        dst: &Lowered<N>,
    ) -> Result<Self, LayoutError> {
        Self::with_nests_lowered(src, dst)
    }
}

impl<const M: usize> CopyWithinPlan<M> {
    /// [`CopyWithinPlan::of`] with room for `M` nests where [`CopyWithinPlan::new`] has
    /// [`MAX_NESTS`]: for operands that cut the shape into more
    /// pieces than that ([`CopyPlan::with_nests`] says when).
    ///
    /// # Errors
    ///
    /// As [`CopyWithinPlan::of`], with [`LayoutError::InterleaveConflict`] or
    /// [`LayoutError::RankOverflow`] when the pieces outnumber `M`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyWithinPlan, InterleaveLayout, InterleavedLayout, LayoutError};
    /// // 13 x 13 in blocks of 2 at 0, copied to blocks of 3 at 200 in the same buffer: six
    /// // pieces.
    /// let a = InterleavedLayout::dense([13, 13], 4, InterleaveLayout::new(0, 2)?)?;
    /// let b = InterleavedLayout::dense([13, 13], 4, InterleaveLayout::new(0, 3)?)?.with_offset(200)?;
    /// assert_eq!(CopyWithinPlan::of(&a, &b), Err(LayoutError::InterleaveConflict));
    /// let plan = CopyWithinPlan::<8>::with_nests(&a, &b)?;
    /// let mut buf: Vec<u32> = (0..plan.len() as u32).collect();
    /// plan.run(&mut buf)?;
    /// assert_eq!(buf[b.offset_of([12, 5])? as usize], a.offset_of([12, 5])? as u32);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn with_nests<const N: usize, S, D>(src: &S, dst: &D) -> Result<Self, LayoutError>
    where
        S: Mapping<N> + ?Sized,
        D: Mapping<N> + ?Sized,
    {
        Self::with_nests_lowered(&src.lowered(), &dst.lowered())
    }

    /// [`CopyWithinPlan::with_nests`] from lowered operands (`const`).
    ///
    /// # Errors
    ///
    /// As [`CopyWithinPlan::with_nests`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyWithinPlan, Layout, LayoutError};
    /// let (src, dst) = (Layout::new([4], [1], 2)?, Layout::new([4], [1], 2)?.with_offset(4)?);
    /// let plan = CopyWithinPlan::<1>::with_nests_lowered(&src.lowered(), &dst.lowered())?;
    /// assert_eq!(plan.len(), 8);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn with_nests_lowered<const N: usize>(
        src: &Lowered<N>,
        dst: &Lowered<N>,
    ) -> Result<Self, LayoutError> {
        let checked = match CopyPlan::unique_plan(src, dst) {
            Ok(c) => c,
            Err(e) => return Err(e),
        };
        match checked.in_place() {
            Ok(checked) => Ok(Self { checked }),
            Err(e) => Err(e),
        }
    }

    /// The shortest buffer [`run`](CopyWithinPlan::run) accepts, in elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyWithinPlan, Layout, LayoutError};
    /// // The first 3 elements to offsets 5, 6, 7: the buffer needs 8.
    /// let src = Layout::new([3], [1], 4)?;
    /// let plan = CopyWithinPlan::new(&src, &src.with_offset(5)?)?;
    /// assert_eq!(plan.len(), 8);
    /// let mut buf = [1u32, 2, 3, 0, 0, 0, 0, 0];
    /// plan.run(&mut buf)?;
    /// assert_eq!(buf, [1, 2, 3, 0, 0, 1, 2, 3]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn len(&self) -> usize {
        let [dst, src] = self.checked.lens();
        if dst > src { dst } else { src }
    }

    /// Whether the plan moves nothing (an extent is 0, or the layouts coincide).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyWithinPlan, Layout, LayoutError};
    /// let l = Layout::new([3], [1], 4)?;
    /// assert!(CopyWithinPlan::new(&l, &l)?.is_empty()); // onto itself
    /// let empty = Layout::new([0], [1], 4)?;
    /// assert!(CopyWithinPlan::new(&empty, &empty.with_offset(1)?)?.is_empty());
    /// assert!(!CopyWithinPlan::new(&l, &l.with_offset(3)?)?.is_empty());
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.checked.coincide() || self.checked.plan().volume() == 0
    }

    /// Copies inside `buf` as planned: [`copy_within`](crate::copy_within) without the
    /// planning and validation.
    ///
    /// # Errors
    ///
    /// [`LayoutError::ItemsizeMismatch`] or [`LayoutError::OffsetOutsideSlice`], `buf`
    /// untouched.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyWithinPlan, Layout, LayoutError};
    /// let plan = CopyWithinPlan::new(&Layout::new([2], [1], 2)?, &Layout::new([2], [1], 2)?.with_offset(2)?)?;
    /// let mut buf = [1i16, 2, 0, 0];
    /// plan.run(&mut buf)?;
    /// assert_eq!(buf, [1, 2, 1, 2]);
    /// assert!(plan.run(&mut buf[..3]).is_err());
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn run<T: Copy + 'static>(&self, buf: &mut [T]) -> Result<(), LayoutError> {
        match self.checked.in_place_for(size_of::<T>(), buf.len())? {
            InPlace::Coincide => Ok(()),
            InPlace::Disjoint(disjoint) => raw::copy_within(&disjoint, buf),
        }
    }
}
