//! [`Offsets`]: every element offset of a layout, in logical C order.

use core::iter::FusedIterator;

use super::walk::{Walk, coalesced};
use crate::{DynLayout, Layout};

/// Iterator over every element offset of a layout, in logical C order (last axis fastest);
/// made by [`Layout::offsets`] and [`DynLayout::offsets`].
///
/// Axes that C order lets merge are merged first, so the inner loop runs over the longest
/// possible row and is one add per element; `fold` (and so `sum`, `for_each`, ...) runs
/// each row as a tight loop. The state is `Copy` and lives on the stack. Offsets may
/// repeat (zero strides, overlap) and may be negative.
///
/// ```text
/// (2,3):(1,2)   offsets() -> 0 2 4 1 3 5
///  0 2 4
///  1 3 5
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Offsets<const N: usize> {
    walk: Walk<N>,
}

impl<const N: usize> Offsets<N> {
    pub(crate) fn from_slices(shape: &[usize], strides: &[isize], offset: isize) -> Self {
        let (sh, st) = coalesced::<N>(shape, strides);
        Self {
            walk: Walk::new(sh, st, offset),
        }
    }
}

// `Copy` is deliberate: the state is a few stack words, and a copy is a checkpoint (a
// saved position to resume from), as with `core::ops::Range` in spirit.
#[allow(clippy::copy_iterator)]
impl<const N: usize> Iterator for Offsets<N> {
    type Item = isize;

    #[inline]
    fn next(&mut self) -> Option<isize> {
        self.walk.next()
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.walk.len();
        (n, Some(n))
    }

    #[inline]
    fn fold<B, F: FnMut(B, isize) -> B>(self, init: B, f: F) -> B {
        self.walk.fold(init, f)
    }
}

impl<const N: usize> ExactSizeIterator for Offsets<N> {}
impl<const N: usize> FusedIterator for Offsets<N> {}

impl<const N: usize> Layout<N> {
    /// Every element offset, in logical C order (last axis fastest).
    ///
    /// ```text
    /// (2,3):(1,2)   offsets() -> 0 2 4 1 3 5
    ///  0 2 4
    ///  1 3 5
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([2, 3], 4, Order::F)?;
    /// assert!(l.offsets().eq([0, 2, 4, 1, 3, 5]));
    /// assert_eq!(l.offsets().len(), 6);
    /// assert!(Layout::new([], [], 1)?.with_offset(7)?.offsets().eq([7]));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - yields `self.offset_of(i)` for every index `i` in C order, `self.volume()` items
    #[must_use]
    pub fn offsets(&self) -> Offsets<N> {
        Offsets::from_slices(&self.shape, &self.strides, self.offset)
    }
}

impl<const MAX: usize> DynLayout<MAX> {
    /// Every element offset, in logical C order (last axis fastest); see [`Layout::offsets`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// let d = DynLayout::<4>::new(&[2, 2], &[1, 2], 4)?;
    /// assert!(d.offsets().eq([0, 2, 1, 3]));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - yields `self.offset_of(i)` for every index `i` in C order, `self.volume()` items
    #[must_use]
    pub fn offsets(&self) -> Offsets<MAX> {
        Offsets::from_slices(self.shape(), self.strides(), self.offset())
    }
}
