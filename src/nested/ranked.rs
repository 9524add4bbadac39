//! A fixed-rank front over [`NestedLayout`]: the rank in the type, as
//! [`Layout<N>`](crate::Layout) has it and [`DynLayout`](crate::DynLayout) does not.
//! Multi-indices are arrays, and the transforms that change the rank say so in their types
//! (the bounds of [`crate::rank`]); everything else is the run-time-rank layout's, through
//! [`RankedNested::layout`].

use core::fmt;
use core::str::FromStr;

use super::{NestedError, NestedLayout};
use crate::rank::{OneLess, OneMore, Rank};

/// A [`NestedLayout<L>`] whose rank (its number of top-level modes) is `N`, checked once when
/// it is made: multi-indices are `[usize; N]`, and [`selected`](Self::selected) and
/// [`unsqueezed`](Self::unsqueezed) give the rank they make in their types. Converts to and
/// from `NestedLayout<L>` ([`new`](Self::new), [`into_layout`](Self::into_layout), `From`,
/// `TryFrom`); every query of the run-time-rank layout is on [`layout`](Self::layout).
///
/// # Examples
///
/// ```
/// use strided_layout::nested::{NestedLayout, RankedNested, const_unwrap};
/// // nChw16c's channels and pixels as two modes: channel blocks of 16, then 7 x 7 pixels.
/// const L: RankedNested<2, 4> =
///     const_unwrap(RankedNested::parse("((16,2),(7,7)):((1,784),(112,16))"));
/// assert_eq!(L.offset_of([17, 8])?, 784 + 1 + 112 + 16);
/// assert_eq!(L.layout().size(), 32 * 49);
/// let c: RankedNested<1, 4> = L.selected(1, 0)?;
/// assert_eq!(c.offset_of([17])?, 785);
/// # Ok::<(), strided_layout::nested::NestedError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct RankedNested<const N: usize, const L: usize> {
    layout: NestedLayout<L>,
}

impl<const N: usize, const L: usize> RankedNested<N, L> {
    /// `layout` with its rank checked to be `N`.
    ///
    /// # Errors
    ///
    /// [`NestedError::RankMismatch`] (`expected: N`, `found`: the layout's rank) if the rank
    /// is not `N`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::{NestedError, NestedLayout, RankedNested};
    /// let l: NestedLayout<4> = "((4,3),5):((1,4),12)".parse()?;
    /// assert_eq!(RankedNested::<2, 4>::new(l)?.layout(), &l);
    /// assert_eq!(RankedNested::<3, 4>::new(l), Err(NestedError::RankMismatch { expected: 3, found: 2 }));
    /// # Ok::<(), NestedError>(())
    /// ```
    pub const fn new(layout: NestedLayout<L>) -> Result<Self, NestedError> {
        let found = layout.rank();
        if found == N {
            Ok(Self { layout })
        } else {
            Err(NestedError::RankMismatch { expected: N, found })
        }
    }

    /// Reads CuTe's notation as [`NestedLayout::parse`] does, then checks the rank.
    ///
    /// # Errors
    ///
    /// Every error of [`NestedLayout::parse`]; [`NestedError::RankMismatch`] if the layout
    /// read has a rank other than `N`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::{NestedError, RankedNested};
    /// let l = RankedNested::<2, 4>::parse("((4,3),5):((1,4),12)")?;
    /// assert_eq!(l.offset_of([7, 2])?, 7 % 4 + 4 * (7 / 4) + 24);
    /// assert!(matches!(RankedNested::<1, 4>::parse("(4,5):(1,4)"), Err(NestedError::RankMismatch { .. })));
    /// # Ok::<(), NestedError>(())
    /// ```
    pub const fn parse(text: &str) -> Result<Self, NestedError> {
        match NestedLayout::parse(text) {
            Ok(layout) => Self::new(layout),
            Err(e) => Err(e),
        }
    }

    /// The layout, with its run-time rank (`N`) and every query of [`NestedLayout`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::RankedNested;
    /// let l = RankedNested::<2, 4>::parse("((4,3),5):((1,4),12)")?;
    /// assert_eq!((l.layout().rank(), l.layout().size(), l.layout().cosize()), (2, 60, 60));
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    #[must_use]
    pub const fn layout(&self) -> &NestedLayout<L> {
        &self.layout
    }

    /// The kernels' form of the layout, its rank from the type: what
    /// [`NestedLayout::lowered`] gives for `N` (see there for the form and the rules).
    ///
    /// # Errors
    ///
    /// As [`NestedLayout::lowered`], but never `RankMismatch`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, Order, nested::RankedNested};
    /// // 10 channels in blocks of 4 (the last partial), into planar CHW.
    /// let blocked = RankedNested::<2, 4>::parse("((4,3)|10,5):((1,20),4)")?;
    /// let planar = Layout::dense([10, 5], 1, Order::C)?;
    /// let src: Vec<u8> = (0..60).collect();
    /// let mut dst = [0u8; 50];
    /// strided_layout::copy(&src, &blocked.lowered()?, &mut dst, &planar)?;
    /// assert_eq!(dst[5 * 6 + 2], src[blocked.offset_of([6, 2])? as usize]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn lowered(&self) -> Result<crate::plan::Lowered<N>, NestedError> {
        self.layout.lowered::<N>()
    }

    /// The layout, giving up the rank in the type.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::{NestedLayout, RankedNested};
    /// let l = RankedNested::<2, 4>::parse("((4,3),5):((1,4),12)")?;
    /// let n: NestedLayout<4> = l.into_layout();
    /// assert_eq!(n.to_string(), "((4,3),5):((1,4),12)");
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    #[must_use]
    pub const fn into_layout(self) -> NestedLayout<L> {
        self.layout
    }

    /// `N`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::RankedNested;
    /// assert_eq!(RankedNested::<2, 4>::parse("((4,3),5):((1,4),12)")?.rank(), 2);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    #[must_use]
    pub const fn rank(&self) -> usize {
        N
    }

    /// The offset of `index` (one coordinate per top-level mode), as
    /// [`NestedLayout::offset_of`].
    ///
    /// # Errors
    ///
    /// [`NestedError::IndexOutOfRange`] if a coordinate is not below its mode's size (or, in
    /// a layout cut at its root, the index is past the cut).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::{NestedError, RankedNested};
    /// let l = RankedNested::<2, 4>::parse("((4,3),5):((1,4),12)")?;
    /// assert_eq!(l.offset_of([11, 4])?, 3 + 8 + 48);
    /// assert_eq!(l.offset_of([12, 0]), Err(NestedError::IndexOutOfRange { mode: 0 }));
    /// # Ok::<(), NestedError>(())
    /// ```
    pub const fn offset_of(&self, index: [usize; N]) -> Result<isize, NestedError> {
        self.layout.offset_of(&index)
    }

    /// The modes in the order `axes` gives, as [`NestedLayout::permuted`].
    ///
    /// ```text
    /// ((4,3),5):((1,4),12)     permuted([1, 0])     (5,(4,3)):(12,(1,4))
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`NestedLayout::permuted`]: `axes` not a permutation of `0..N`, a layout cut
    /// at its root.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::RankedNested;
    /// let l = RankedNested::<2, 4>::parse("((4,3),5):((1,4),12)")?;
    /// let p = l.permuted([1, 0])?;
    /// assert_eq!(p.offset_of([4, 11])?, l.offset_of([11, 4])?);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    pub const fn permuted(&self, axes: [usize; N]) -> Result<Self, NestedError> {
        match self.layout.permuted(&axes) {
            Ok(layout) => Ok(Self { layout }),
            Err(e) => Err(e),
        }
    }

    /// Mode `mode` fixed at coordinate `index`: rank `M = N - 1`, as
    /// [`NestedLayout::selected`].
    ///
    /// ```text
    /// ((4,3),5):((1,4),12)     selected(1, 2)     ((4,3)):((1,4)) +24
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`NestedLayout::selected`]. A wrong `M` is a compile error.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::RankedNested;
    /// let l = RankedNested::<2, 4>::parse("((4,3),5):((1,4),12)")?;
    /// let s: RankedNested<1, 4> = l.selected(1, 2)?;
    /// assert_eq!(s.offset_of([5])?, l.offset_of([5, 2])?);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    ///
    /// A rank other than `N - 1` does not compile:
    ///
    /// ```compile_fail,E0277
    /// use strided_layout::nested::RankedNested;
    /// let l = RankedNested::<2, 4>::parse("((4,3),5):((1,4),12)")?;
    /// let s: RankedNested<2, 4> = l.selected(1, 2)?;
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    pub const fn selected<const M: usize>(
        &self,
        mode: usize,
        index: usize,
    ) -> Result<RankedNested<M, L>, NestedError>
    where
        Rank<N>: OneLess<N, M>,
    {
        match self.layout.selected(mode, index) {
            Ok(layout) => RankedNested::new(layout),
            Err(e) => Err(e),
        }
    }

    /// A mode of one coordinate inserted at `at`: rank `M = N + 1`, as
    /// [`NestedLayout::unsqueezed`].
    ///
    /// ```text
    /// ((4,3),5):((1,4),12)     unsqueezed(1)     ((4,3),1,5):((1,4),0,12)
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`NestedLayout::unsqueezed`]. A wrong `M` is a compile error.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::RankedNested;
    /// let l = RankedNested::<2, 4>::parse("((4,3),5):((1,4),12)")?;
    /// let u: RankedNested<3, 4> = l.unsqueezed(1)?;
    /// assert_eq!(u.offset_of([7, 0, 2])?, l.offset_of([7, 2])?);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    pub const fn unsqueezed<const M: usize>(
        &self,
        at: usize,
    ) -> Result<RankedNested<M, L>, NestedError>
    where
        Rank<N>: OneMore<N, M>,
    {
        match self.layout.unsqueezed(at) {
            Ok(layout) => RankedNested::new(layout),
            Err(e) => Err(e),
        }
    }

    /// Mode `mode`'s coordinates reversed, as [`NestedLayout::flipped`].
    ///
    /// ```text
    /// (3,(2,2)):(1,(3,6))     flipped(1)     (3,(2,2)):(1,(-3,-6)) +9
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`NestedLayout::flipped`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::RankedNested;
    /// let l = RankedNested::<2, 3>::parse("(3,(2,2)):(1,(3,6))")?;
    /// assert_eq!(l.flipped(1)?.offset_of([2, 0])?, l.offset_of([2, 3])?);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    pub const fn flipped(&self, mode: usize) -> Result<Self, NestedError> {
        match self.layout.flipped(mode) {
            Ok(layout) => Ok(Self { layout }),
            Err(e) => Err(e),
        }
    }

    /// Mode `mode` narrowed to its whole blocks `start..start + len`, as
    /// [`NestedLayout::narrowed_blocks`].
    ///
    /// ```text
    /// ((4,3)|10,5):((1,4),12)      narrowed_blocks(0, 1, 2)     ((4,2)|6,5):((1,4),12) +4
    /// ```
    ///
    /// # Errors
    ///
    /// Those of [`NestedLayout::narrowed_blocks`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::RankedNested;
    /// let l = RankedNested::<2, 3>::parse("((4,3)|10,5):((1,4),12)")?;
    /// let n = l.narrowed_blocks(0, 1, 2)?;
    /// assert_eq!(n.offset_of([5, 3])?, l.offset_of([9, 3])?);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    pub const fn narrowed_blocks(
        &self,
        mode: usize,
        start: usize,
        len: usize,
    ) -> Result<Self, NestedError> {
        match self.layout.narrowed_blocks(mode, start, len) {
            Ok(layout) => Ok(Self { layout }),
            Err(e) => Err(e),
        }
    }
}

impl<const N: usize, const L: usize> From<RankedNested<N, L>> for NestedLayout<L> {
    /// [`RankedNested::into_layout`].
    fn from(l: RankedNested<N, L>) -> Self {
        l.layout
    }
}

impl<const N: usize, const L: usize> TryFrom<NestedLayout<L>> for RankedNested<N, L> {
    type Error = NestedError;

    /// [`RankedNested::new`].
    fn try_from(layout: NestedLayout<L>) -> Result<Self, NestedError> {
        Self::new(layout)
    }
}

impl<const N: usize, const L: usize> FromStr for RankedNested<N, L> {
    type Err = NestedError;

    /// [`RankedNested::parse`].
    fn from_str(text: &str) -> Result<Self, NestedError> {
        Self::parse(text)
    }
}

impl<const N: usize, const L: usize> fmt::Display for RankedNested<N, L> {
    /// The layout's text ([`NestedLayout`]'s `Display`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.layout, f)
    }
}
