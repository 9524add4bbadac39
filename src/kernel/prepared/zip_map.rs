//! [`ZipMapPlan`]: an element-wise function of two sources, planned and validated once.

use crate::kernel::mapping::{Lowered, Mapping};
use crate::kernel::plan::MAX_NESTS;
use crate::kernel::proof::{Checked, UniqueFact};
use crate::kernel::raw;
use crate::{Layout, LayoutError, Operand};

/// An element-wise function of two layouts into a third, planned and validated once.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order, ZipMapPlan};
/// let a = Layout::dense([2, 2], 4, Order::C)?;
/// let plan = ZipMapPlan::new(&a, &a.transposed(0, 1)?, &a)?; // A + Aᵀ
/// let m = [1.0f32, 2.0, 3.0, 4.0];
/// let mut out = [0f32; 4];
/// plan.run(&m, &m, &mut out, |x, y| x + y)?;
/// assert_eq!(out, [2.0, 5.0, 5.0, 8.0]);
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ZipMapPlan<const M: usize = MAX_NESTS> {
    checked: Checked<3, UniqueFact, M>,
}

impl ZipMapPlan {
    /// Plans and validates `dst[i] = f(a[i], b[i])` once.
    ///
    /// # Errors
    ///
    /// As [`CopyPlan::new`](crate::CopyPlan::new), for three operands.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, ZipMapPlan};
    /// let l = Layout::new([3], [1], 4)?;
    /// let plan = ZipMapPlan::new(&l, &l, &l)?;
    /// assert_eq!(plan.lens(), [3, 3, 3]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn new<const N: usize>(
        a: &Layout<N>,
        b: &Layout<N>,
        dst: &Layout<N>,
    ) -> Result<Self, LayoutError> {
        Self::from_lowered(&a.lowered(), &b.lowered(), &dst.lowered())
    }

    /// [`ZipMapPlan::new`] for any operands.
    ///
    /// # Errors
    ///
    /// As [`CopyPlan::of`](crate::CopyPlan::of), for three operands.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, ZipMapPlan};
    /// let l = Layout::new([3], [1], 4)?;
    /// assert!(ZipMapPlan::of(&l, &l, &Layout::new([3], [0], 4)?).is_err());
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn of<const N: usize, LA, LB, D>(a: &LA, b: &LB, dst: &D) -> Result<Self, LayoutError>
    where
        LA: Mapping<N> + ?Sized,
        LB: Mapping<N> + ?Sized,
        D: Mapping<N> + ?Sized,
    {
        Self::from_lowered(&a.lowered(), &b.lowered(), &dst.lowered())
    }

    /// [`ZipMapPlan::new`] from lowered operands (`const`).
    ///
    /// # Errors
    ///
    /// As [`ZipMapPlan::of`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, ZipMapPlan};
    /// let l = Layout::new([3], [1], 4)?.lowered();
    /// assert_eq!(ZipMapPlan::from_lowered(&l, &l, &l)?.lens(), [3, 3, 3]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn from_lowered<const N: usize>(
        a: &Lowered<N>,
        b: &Lowered<N>,
        dst: &Lowered<N>,
    ) -> Result<Self, LayoutError> {
        Self::with_nests_lowered(a, b, dst)
    }
}

impl<const M: usize> ZipMapPlan<M> {
    /// [`ZipMapPlan::of`] with room for `M` nests where [`ZipMapPlan::new`] has
    /// [`MAX_NESTS`]: for operands that cut the shape into more pieces than that
    /// ([`CopyPlan::with_nests`](crate::CopyPlan::with_nests) says when).
    ///
    /// # Errors
    ///
    /// As [`ZipMapPlan::of`], with [`LayoutError::InterleaveConflict`] or
    /// [`LayoutError::RankOverflow`] when the pieces outnumber `M`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, Layout, LayoutError, Order, ZipMapPlan};
    /// // Blocks of 2 plus blocks of 3 into a plain 13 x 13: six pieces.
    /// let a = InterleavedLayout::dense([13, 13], 4, InterleaveLayout::new(0, 2)?)?;
    /// let b = InterleavedLayout::dense([13, 13], 4, InterleaveLayout::new(0, 3)?)?;
    /// let d = Layout::dense([13, 13], 4, Order::C)?;
    /// assert_eq!(ZipMapPlan::of(&a, &b, &d), Err(LayoutError::InterleaveConflict));
    /// let plan = ZipMapPlan::<8>::with_nests(&a, &b, &d)?;
    /// let [nd, na, nb] = plan.lens();
    /// let (x, y) = (vec![1u32; na], vec![2u32; nb]);
    /// let mut out = vec![0u32; nd];
    /// plan.run(&x, &y, &mut out, |p, q| p + q)?;
    /// assert!(out.iter().all(|&v| v == 3));
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn with_nests<const N: usize, LA, LB, D>(
        a: &LA,
        b: &LB,
        dst: &D,
    ) -> Result<Self, LayoutError>
    where
        LA: Mapping<N> + ?Sized,
        LB: Mapping<N> + ?Sized,
        D: Mapping<N> + ?Sized,
    {
        Self::with_nests_lowered(&a.lowered(), &b.lowered(), &dst.lowered())
    }

    /// [`ZipMapPlan::with_nests`] from lowered operands (`const`).
    ///
    /// # Errors
    ///
    /// As [`ZipMapPlan::with_nests`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, ZipMapPlan};
    /// let l = Layout::new([4], [1], 4)?.lowered();
    /// let plan = ZipMapPlan::<1>::with_nests_lowered(&l, &l, &l)?;
    /// assert_eq!(plan.lens(), [4, 4, 4]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn with_nests_lowered<const N: usize>(
        a: &Lowered<N>,
        b: &Lowered<N>,
        dst: &Lowered<N>,
    ) -> Result<Self, LayoutError> {
        let names = [Operand::Destination, Operand::Source, Operand::SecondSource];
        let checked = match Checked::new(&[*dst, *a, *b], names) {
            Ok(c) => c,
            Err(e) => return Err(e),
        };
        match checked.unique() {
            Ok(checked) => Ok(Self { checked }),
            Err(e) => Err(e),
        }
    }

    /// The shortest `dst`, `a` and `b` slices [`run`](ZipMapPlan::run) accepts, in elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order, ZipMapPlan};
    /// // A + Aᵀ of a 2 × 2 matrix: `b` reads `a`'s buffer transposed.
    /// let a = Layout::dense([2, 2], 4, Order::C)?;
    /// let plan = ZipMapPlan::new(&a, &a.transposed(0, 1)?, &a)?;
    /// assert_eq!(plan.lens(), [4, 4, 4]);
    /// let m = [1f32, 2.0, 3.0, 4.0];
    /// let mut sum = [0f32; 4];
    /// plan.run(&m, &m, &mut sum, |x, y| x + y)?;
    /// assert_eq!(sum, [2.0, 5.0, 5.0, 8.0]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn lens(&self) -> [usize; 3] {
        self.checked.lens()
    }

    /// Writes `f(a[i], b[i])` at every index as planned: [`zip_map`](crate::zip_map) without
    /// the planning and validation.
    ///
    /// # Errors
    ///
    /// [`LayoutError::ItemsizeMismatch`] or [`LayoutError::OffsetOutsideSlice`] naming the
    /// argument, `dst` untouched and `f` never called.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Operand, ZipMapPlan};
    /// let l = Layout::new([2], [1], 4)?;
    /// let plan = ZipMapPlan::new(&l, &l, &l)?;
    /// let got = plan.run(&[1i32, 2], &[3i32], &mut [0i32; 2], |x, y| x * y);
    /// assert_eq!(
    ///     got,
    ///     Err(LayoutError::OffsetOutsideSlice { operand: Operand::SecondSource, needed: 2, given: 1 })
    /// );
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn run<A, B, U, F>(&self, a: &[A], b: &[B], dst: &mut [U], f: F) -> Result<(), LayoutError>
    where
        A: Copy + 'static,
        B: Copy + 'static,
        U: Copy,
        F: FnMut(A, B) -> U,
    {
        let sizes = [size_of::<U>(), size_of::<A>(), size_of::<B>()];
        let unique = self
            .checked
            .unique_for(sizes, [dst.len(), a.len(), b.len()])?;
        raw::zip_map(&unique, dst, a, b, f)
    }
}
