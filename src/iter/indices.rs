//! [`Indices`]: every multi-index of a layout, in lexicographic (C) order.

use core::iter::FusedIterator;

use super::walk::{Walk, right_aligned};
use crate::{DynLayout, Layout};

/// Iterator over every multi-index of a shape in lexicographic order (last axis fastest);
/// made by [`Layout::indices`] and [`DynLayout::indices`].
///
/// Items are `[usize; N]`; for a [`DynLayout<MAX>`] of rank `r` the first `r` entries are
/// the index and the rest are 0 (as in `DynLayout`'s own storage). The state is `Copy` and
/// lives on the stack; it shares its stepping core with [`Offsets`](super::Offsets).
///
/// ```text
/// shape (2,2)   indices() -> [0,0] [0,1] [1,0] [1,1]
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Indices<const N: usize> {
    walk: Walk<N>,
    /// Leading padding axes (`N - rank`), shifted out of each item.
    pad: usize,
}

impl<const N: usize> Indices<N> {
    fn from_shape(shape: &[usize]) -> Self {
        let (sh, st) = right_aligned::<N>(shape, &[0; N]);
        Self {
            walk: Walk::new(sh, st, 0),
            pad: N.saturating_sub(shape.len()),
        }
    }
}

// `Copy` is deliberate: the state is a few stack words, and a copy is a checkpoint (a
// saved position to resume from), as with `core::ops::Range` in spirit.
#[allow(clippy::copy_iterator)]
impl<const N: usize> Iterator for Indices<N> {
    type Item = [usize; N];

    #[inline]
    fn next(&mut self) -> Option<[usize; N]> {
        self.walk.next()?;
        let mut idx = self.walk.idx;
        if let Some(last) = idx.last_mut() {
            // `inner_left < inner_extent` after `next`, so this cannot wrap.
            *last = self
                .walk
                .inner_extent
                .wrapping_sub(self.walk.inner_left)
                .wrapping_sub(1);
        }
        if self.pad == 0 {
            return Some(idx);
        }
        let mut out = [0usize; N];
        for (o, i) in out.iter_mut().zip(idx.iter().skip(self.pad)) {
            *o = *i;
        }
        Some(out)
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.walk.len();
        (n, Some(n))
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
    /// assert!(l.indices().map(|i| l.offset_of(i)).eq(l.offsets().map(Ok)));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - yields every index of `self.shape()` once, in lexicographic order, `self.volume()` items
    #[must_use]
    pub fn indices(&self) -> Indices<N> {
        Indices::from_shape(&self.shape)
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
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - yields every index of `self.shape()` once, in lexicographic order, zero-padded
    #[must_use]
    pub fn indices(&self) -> Indices<MAX> {
        Indices::from_shape(self.shape())
    }
}
