//! [`FillPlan`]: a fill planned and validated once.

use crate::kernel::fill::footprint;
use crate::kernel::mapping::{Lowered, Mapping};
use crate::kernel::plan::MAX_NESTS;
use crate::kernel::proof::Checked;
use crate::kernel::raw;
use crate::{Layout, LayoutError, Operand};

/// A fill of one layout, planned once; [`run`](FillPlan::run) only checks the buffer.
///
/// # Examples
///
/// ```
/// use strided_layout::{FillPlan, Layout, LayoutError, const_unwrap};
/// const EVERY_OTHER: FillPlan = const_unwrap(FillPlan::new(&const_unwrap(Layout::new([3], [2], 1))));
/// let mut buf = [0u8; 6];
/// EVERY_OTHER.run(&mut buf, 9)?;
/// assert_eq!(buf, [9, 0, 9, 0, 9, 0]);
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct FillPlan<const M: usize = MAX_NESTS> {
    checked: Checked<1, (), M>,
}

impl FillPlan {
    /// Plans a fill of `layout` once.
    ///
    /// # Errors
    ///
    /// - the errors of [`Plan::new`](crate::plan::Plan::new);
    /// - [`LayoutError::OffsetBelowSlice`] if an offset is negative (no slice holds it).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{FillPlan, Layout, LayoutError};
    /// let plan = FillPlan::new(&Layout::new([2, 2], [4, 1], 4)?)?;
    /// assert_eq!(plan.len(), 6);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn new<const N: usize>(layout: &Layout<N>) -> Result<Self, LayoutError> {
        Self::from_lowered(&layout.lowered())
    }

    /// [`FillPlan::new`] for any operand.
    ///
    /// # Errors
    ///
    /// As [`FillPlan::new`], and the interleave errors of [`Plan::new`](crate::plan::Plan::new).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{FillPlan, InterleaveLayout, InterleavedLayout, LayoutError};
    /// let il = InterleavedLayout::dense([3, 2], 4, InterleaveLayout::new(0, 2)?)?;
    /// let plan = FillPlan::of(&il)?;
    /// let mut buf = [0f32; 8];
    /// plan.run(&mut buf, 1.0)?;
    /// assert_eq!(buf, [1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 0.0]); // padding lanes untouched
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn of<const N: usize, L: Mapping<N> + ?Sized>(layout: &L) -> Result<Self, LayoutError> {
        Self::from_lowered(&layout.lowered())
    }

    /// [`FillPlan::new`] from a lowered operand (`const`).
    ///
    /// # Errors
    ///
    /// As [`FillPlan::of`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{FillPlan, Layout, LayoutError};
    /// let plan = FillPlan::from_lowered(&Layout::new([4], [1], 2)?.lowered())?;
    /// assert_eq!(plan.len(), 4);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn from_lowered<const N: usize>(layout: &Lowered<N>) -> Result<Self, LayoutError> {
        Self::with_nests_lowered(layout)
    }
}

impl<const M: usize> FillPlan<M> {
    /// [`FillPlan::of`] with room for `M` nests where [`FillPlan::new`] has
    /// [`MAX_NESTS`]: for a layout of a rank so far past
    /// [`MAX_LOOPS`](crate::plan::MAX_LOOPS) without merging that its loops past a nest's,
    /// peeled, make more pieces than that (the run-time [`fill()`](crate::fill()) plans them
    /// a few at a time instead).
    ///
    /// # Errors
    ///
    /// As [`FillPlan::of`], with [`LayoutError::RankOverflow`] when the pieces outnumber `M`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{FillPlan, Layout, LayoutError};
    /// // Rank 11, extent 2, strides 3^k: nothing merges, 3 loops peeled into 8 pieces.
    /// let s: [isize; 11] = core::array::from_fn(|k| 3isize.pow(10 - k as u32));
    /// let l = Layout::new([2; 11], s, 1)?;
    /// assert_eq!(FillPlan::new(&l), Err(LayoutError::RankOverflow { max: 8 }));
    /// let plan = FillPlan::<8>::with_nests(&l)?;
    /// let mut buf = vec![0u8; plan.len()];
    /// plan.run(&mut buf, 1)?;
    /// assert_eq!(buf.iter().filter(|&&x| x == 1).count(), 2048);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn with_nests<const N: usize, L: Mapping<N> + ?Sized>(
        layout: &L,
    ) -> Result<Self, LayoutError> {
        Self::with_nests_lowered(&layout.lowered())
    }

    /// [`FillPlan::with_nests`] from a lowered operand (`const`).
    ///
    /// # Errors
    ///
    /// As [`FillPlan::with_nests`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{FillPlan, Layout, LayoutError};
    /// let plan = FillPlan::<1>::with_nests_lowered(&Layout::new([4], [1], 2)?.lowered())?;
    /// assert_eq!(plan.len(), 4);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn with_nests_lowered<const N: usize>(
        layout: &Lowered<N>,
    ) -> Result<Self, LayoutError> {
        match Checked::new(&[footprint(*layout)], [Operand::Destination]) {
            Ok(checked) => Ok(Self { checked }),
            Err(e) => Err(e),
        }
    }

    /// The shortest slice [`run`](FillPlan::run) accepts, in elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{FillPlan, Layout, LayoutError, Operand};
    /// // The diagonal of a 3 × 3 matrix: offsets 0, 4, 8.
    /// let plan = FillPlan::new(&Layout::new([3], [4], 4)?)?;
    /// assert_eq!(plan.len(), 9);
    /// let mut m = [0f32; 9];
    /// plan.run(&mut m, 1.0)?;
    /// assert_eq!(m, [1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0]);
    /// assert_eq!(
    ///     plan.run(&mut m[..8], 2.0),
    ///     Err(LayoutError::OffsetOutsideSlice { operand: Operand::Destination, needed: 9, given: 8 })
    /// );
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn len(&self) -> usize {
        self.checked.lens()[0]
    }

    /// Whether the plan writes nothing (an extent is 0).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{FillPlan, Layout, LayoutError, Order};
    /// assert!(FillPlan::new(&Layout::dense([4, 0], 4, Order::C)?)?.is_empty());
    /// assert!(!FillPlan::new(&Layout::dense([4, 1], 4, Order::C)?)?.is_empty());
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.checked.plan().volume() == 0
    }

    /// Writes `value` at every offset as planned: [`fill`](crate::fill) without the planning.
    ///
    /// # Errors
    ///
    /// [`LayoutError::ItemsizeMismatch`] or [`LayoutError::OffsetOutsideSlice`], `dst`
    /// untouched.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{FillPlan, Layout, LayoutError};
    /// let plan = FillPlan::new(&Layout::new([2], [1], 4)?)?;
    /// assert!(plan.run(&mut [0u8; 2], 1).is_err()); // 1-byte elements, itemsize 4
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn run<T: Copy>(&self, dst: &mut [T], value: T) -> Result<(), LayoutError> {
        let bounds = self.checked.bounds([size_of::<T>()], [dst.len()])?;
        raw::fill(&bounds, dst, value)
    }
}
