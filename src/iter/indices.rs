//! [`Indices`]: every multi-index of a layout, in lexicographic (C) order.

use core::iter::FusedIterator;

use super::odometer::Odometer;
use crate::plan::Blocks;
use crate::{DynLayout, InterleavedLayout, Layout, Lowered, Mapping};

/// Iterator over every multi-index of a shape in lexicographic order (last axis fastest);
/// made by [`Layout::indices`], [`DynLayout::indices`] and [`InterleavedLayout::indices`].
///
/// Items are `[usize; N]`; for a [`DynLayout<MAX>`] of rank `r` the first `r` entries are
/// the index and the rest are 0 (as in `DynLayout`'s own storage). It is double-ended. The
/// state is `Copy` and lives on the stack; it shares its stepping core with
/// [`Offsets`](super::Offsets).
///
/// ```text
/// shape (2,2)   indices() -> [0,0] [0,1] [1,0] [1,1]
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Indices<const N: usize> {
    odometer: Odometer<N>,
    /// Leading padding axes (`N - rank`), shifted out of each item.
    pad: usize,
}

impl<const N: usize> Indices<N> {
    /// The indices of the shape of `low`, whose first `pad` axes are padding.
    fn of(low: &Lowered<N>, pad: usize) -> Self {
        let shape_only = Lowered {
            shape: low.shape,
            strides: [0; N],
            offset: 0,
            itemsize: 1,
            blocks: Blocks::NONE,
        };
        Self {
            odometer: Odometer::new(&shape_only),
            pad,
        }
    }

    /// `index` with the padding axes shifted out.
    fn unpadded(&self, index: [usize; N]) -> [usize; N] {
        if self.pad == 0 {
            return index;
        }
        let mut out = [0usize; N];
        for (o, i) in out.iter_mut().zip(index.iter().skip(self.pad)) {
            *o = *i;
        }
        out
    }
}

#[expect(
    clippy::copy_iterator,
    reason = "the state is a few stack words, and a copy is a checkpoint to resume from"
)]
impl<const N: usize> Iterator for Indices<N> {
    type Item = [usize; N];

    #[inline]
    fn next(&mut self) -> Option<[usize; N]> {
        let c = self.odometer.next_index()?;
        Some(self.unpadded(c))
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.odometer.len();
        (n, Some(n))
    }
}

impl<const N: usize> DoubleEndedIterator for Indices<N> {
    #[inline]
    fn next_back(&mut self) -> Option<[usize; N]> {
        let c = self.odometer.next_back_index()?;
        Some(self.unpadded(c))
    }
}

impl<const N: usize> ExactSizeIterator for Indices<N> {}
impl<const N: usize> FusedIterator for Indices<N> {}

impl<const N: usize> Layout<N> {
    /// Every multi-index of the shape, in lexicographic (C) order; none if an extent is 0,
    /// one (`[]`) at rank 0.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([2, 2], 4, Order::F)?;
    /// assert!(l.indices().eq([[0, 0], [0, 1], [1, 0], [1, 1]]));
    /// assert!(l.indices().rev().eq([[1, 1], [1, 0], [0, 1], [0, 0]]));
    /// assert!(l.indices().map(|i| l.offset_of(i)).eq(l.offsets().map(Ok)));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - yields every index of `self.shape()` once, in lexicographic order, `self.volume()`
    ///   items; `rev()` yields them in reverse
    #[must_use]
    pub fn indices(&self) -> Indices<N> {
        Indices::of(&self.lowered(), 0)
    }
}

impl<const MAX: usize> DynLayout<MAX> {
    /// Every multi-index of the shape in lexicographic order, padded with zeros past the
    /// rank; see [`Layout::indices`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// let d = DynLayout::<3>::new(&[1, 2], &[2, 1], 4)?;
    /// assert!(d.indices().eq([[0, 0, 0], [0, 1, 0]]));
    /// assert!(d.indices().rev().eq([[0, 1, 0], [0, 0, 0]]));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - yields every index of `self.shape()` once, in lexicographic order, zero-padded;
    ///   `rev()` yields them in reverse
    #[must_use]
    pub fn indices(&self) -> Indices<MAX> {
        Indices::of(&self.lowered(), MAX.saturating_sub(self.rank()))
    }
}

impl<const N: usize> InterleavedLayout<N> {
    /// Every multi-index of the shape, in lexicographic (C) order (as [`Layout::indices`]);
    /// `offset_of` maps them to [`offsets`](InterleavedLayout::offsets), in step.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let l = InterleavedLayout::new([2, 3], [2, 4], 4, InterleaveLayout::new(1, 2)?)?;
    /// assert!(l.indices().map(|i| l.offset_of(i)).eq(l.offsets().map(Ok)));
    /// assert_eq!(l.indices().next_back(), Some([1, 2]));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - yields every index of `self.shape()` once, in lexicographic order, `self.volume()`
    ///   items; `rev()` yields them in reverse
    #[must_use]
    pub fn indices(&self) -> Indices<N> {
        Indices::of(&self.lowered(), 0)
    }
}
