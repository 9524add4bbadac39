//! [`Offsets`]: every element offset of a layout, in logical C order.

use core::iter::FusedIterator;

use super::odometer::{Odometer, coalesced};
use crate::{DynLayout, InterleavedLayout, Layout, Lowered, Mapping};

/// Iterator over every element offset of a layout, in logical C order (last axis fastest);
/// made by [`Layout::offsets`], [`DynLayout::offsets`] and [`InterleavedLayout::offsets`].
///
/// Axes that C order lets merge are merged first, so the inner loop runs over the longest
/// possible row and is one add per element; `fold` (and so `sum`, `for_each`, ...) runs
/// each row as a tight loop. It is double-ended: `rev()` yields the same offsets last
/// first. The state is `Copy` and lives on the stack. Offsets may repeat (zero strides,
/// overlap) and may be negative.
///
/// ```text
/// (2,3):(1,2)   offsets() -> 0 2 4 1 3 5      rev() -> 5 3 1 4 2 0
///  0 2 4
///  1 3 5
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Offsets<const N: usize> {
    odometer: Odometer<N>,
}

impl<const N: usize> Offsets<N> {
    /// The offsets of the valid layout `low` describes.
    pub(crate) fn of(low: &Lowered<N>) -> Self {
        Self {
            odometer: Odometer::new(&coalesced(low)),
        }
    }
}

#[expect(
    clippy::copy_iterator,
    reason = "the state is a few stack words, and a copy is a checkpoint to resume from"
)]
impl<const N: usize> Iterator for Offsets<N> {
    type Item = isize;

    #[inline]
    fn next(&mut self) -> Option<isize> {
        self.odometer.next_offset()
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.odometer.len();
        (n, Some(n))
    }

    #[inline]
    fn fold<B, F: FnMut(B, isize) -> B>(self, init: B, f: F) -> B {
        self.odometer.fold(init, f)
    }
}

impl<const N: usize> DoubleEndedIterator for Offsets<N> {
    #[inline]
    fn next_back(&mut self) -> Option<isize> {
        self.odometer.next_back_offset()
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
    /// assert!(l.offsets().rev().eq([5, 3, 1, 4, 2, 0]));
    /// assert_eq!(l.offsets().len(), 6);
    /// assert!(Layout::new([], [], 1)?.with_offset(7)?.offsets().eq([7]));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - yields `self.offset_of(i)` for every index `i` in C order, `self.volume()` items;
    ///   `rev()` yields them in reverse
    #[must_use]
    pub fn offsets(&self) -> Offsets<N> {
        Offsets::of(&self.lowered())
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
    /// assert!(d.offsets().rev().eq([3, 1, 2, 0]));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - yields `self.offset_of(i)` for every index `i` in C order, `self.volume()` items;
    ///   `rev()` yields them in reverse
    #[must_use]
    pub fn offsets(&self) -> Offsets<MAX> {
        Offsets::of(&self.lowered())
    }
}

impl<const N: usize> InterleavedLayout<N> {
    /// Every element offset, in logical C order (last axis fastest); padding slots of a
    /// partial last block are not visited.
    ///
    /// ```text
    /// (2,3):(2,4) il(1,2)    offsets() -> 0 1 4 2 3 6
    ///   0 1 4
    ///   2 3 6
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let l = InterleavedLayout::new([2, 3], [2, 4], 4, InterleaveLayout::new(1, 2)?)?;
    /// assert!(l.offsets().eq([0, 1, 4, 2, 3, 6]));
    /// assert!(l.offsets().rev().eq([6, 3, 2, 4, 1, 0]));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - yields `self.offset_of(i)` for every index `i` in C order, `self.volume()` items;
    ///   `rev()` yields them in reverse
    #[must_use]
    pub fn offsets(&self) -> Offsets<N> {
        Offsets::of(&self.lowered())
    }
}
