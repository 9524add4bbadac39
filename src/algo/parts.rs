//! [`Parts`]: the one length-checked view of a layout that every `algo` function takes.
//!
//! A layout is four parts: shape, strides, offset and itemsize. `Parts` holds them with
//! `shape.len() == strides.len()` as an invariant of its constructors, so an algorithm never
//! indexes one slice under the other's bound. Reads go through [`Parts::axis`], which is total:
//! past the rank it answers the unit axis `(1, 0)` (extent 1, stride 0), an axis that adds
//! nothing to any offset, so a read out of range cannot panic in release builds and cannot
//! change an answer; no caller makes one, which debug builds assert.
//! `Layout::parts()` and `DynLayout::parts()` are the only ways in from the typed fronts.

use super::access::get;
use crate::LayoutError;

/// Shape, strides, offset and itemsize of one layout, with `shape.len() == strides.len()`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Parts<'a> {
    shape: &'a [usize],
    strides: &'a [isize],
    offset: isize,
    itemsize: usize,
}

impl<'a> Parts<'a> {
    /// The rank-0 view with offset 0 and itemsize 1.
    pub(crate) const EMPTY: Parts<'static> = Parts {
        shape: &[],
        strides: &[],
        offset: 0,
        itemsize: 1,
    };

    /// The view of a fixed-rank layout: the array types prove the lengths equal.
    pub(crate) const fn from_arrays<const N: usize>(
        shape: &'a [usize; N],
        strides: &'a [isize; N],
        offset: isize,
        itemsize: usize,
    ) -> Self {
        Self {
            shape,
            strides,
            offset,
            itemsize,
        }
    }

    /// The view of two slices that must be as long as each other.
    ///
    /// # Errors
    ///
    /// `RankMismatch` when the lengths differ.
    pub(crate) const fn new(
        shape: &'a [usize],
        strides: &'a [isize],
        offset: isize,
        itemsize: usize,
    ) -> Result<Self, LayoutError> {
        if shape.len() != strides.len() {
            return Err(LayoutError::RankMismatch {
                expected: shape.len(),
                found: strides.len(),
            });
        }
        Ok(Self {
            shape,
            strides,
            offset,
            itemsize,
        })
    }

    /// The first `rank` axes of two arrays (clamped to the shorter of them): how `DynLayout`
    /// views its live axes.
    pub(crate) const fn prefix(
        shape: &'a [usize],
        strides: &'a [isize],
        rank: usize,
        offset: isize,
        itemsize: usize,
    ) -> Self {
        let mut n = if shape.len() < strides.len() {
            shape.len()
        } else {
            strides.len()
        };
        if rank < n {
            n = rank;
        }
        match (shape.split_at_checked(n), strides.split_at_checked(n)) {
            (Some((shape, _)), Some((strides, _))) => Self {
                shape,
                strides,
                offset,
                itemsize,
            },
            // Unreachable (`n` is at most both lengths); the empty view is still a valid one.
            _ => Self {
                shape: &[],
                strides: &[],
                offset,
                itemsize,
            },
        }
    }

    /// The number of axes.
    pub(crate) const fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The extents.
    pub(crate) const fn shape(&self) -> &'a [usize] {
        self.shape
    }

    /// The strides, in elements.
    pub(crate) const fn strides(&self) -> &'a [isize] {
        self.strides
    }

    /// The offset of index 0, in elements.
    pub(crate) const fn offset(&self) -> isize {
        self.offset
    }

    /// Bytes per element.
    pub(crate) const fn itemsize(&self) -> usize {
        self.itemsize
    }

    /// `(extent, stride)` of axis `k`; the unit axis `(1, 0)` when `k >= rank`.
    ///
    /// Every caller asks for an axis below the rank (the unit-axis answer is the safe
    /// fallback that keeps this total, not a value any algorithm relies on), which debug
    /// builds check.
    pub(crate) const fn axis(&self, k: usize) -> (usize, isize) {
        debug_assert!(k < self.rank(), "Parts::axis: axis past the rank");
        match (get(self.shape, k), get(self.strides, k)) {
            (Some(e), Some(s)) => (e, s),
            _ => (1, 0),
        }
    }

    /// The extent of axis `k` (1 past the rank).
    pub(crate) const fn extent(&self, k: usize) -> usize {
        self.axis(k).0
    }

    /// The stride of axis `k` (0 past the rank).
    pub(crate) const fn stride(&self, k: usize) -> isize {
        self.axis(k).1
    }

    /// The first axis and the view of the rest, or `None` at rank 0.
    pub(crate) const fn split_first(&self) -> Option<((usize, isize), Parts<'a>)> {
        match (self.shape, self.strides) {
            ([e, shape @ ..], [s, strides @ ..]) => Some((
                (*e, *s),
                Parts {
                    shape,
                    strides,
                    offset: self.offset,
                    itemsize: self.itemsize,
                },
            )),
            _ => None,
        }
    }

    /// Whether some extent is 0 (the layout holds no element).
    pub(crate) const fn has_zero_extent(&self) -> bool {
        let mut rest = self.shape;
        while let [e, tail @ ..] = rest {
            if *e == 0 {
                return true;
            }
            rest = tail;
        }
        false
    }
}

/// A view of test slices with offset 0 and itemsize 1 (unit tests only).
#[cfg(test)]
pub(crate) fn p<'a>(shape: &'a [usize], strides: &'a [isize]) -> Parts<'a> {
    Parts::new(shape, strides, 0, 1).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_reject_unequal_lengths() {
        assert_eq!(
            Parts::new(&[2, 3], &[1], 0, 1).err(),
            Some(LayoutError::RankMismatch {
                expected: 2,
                found: 1
            })
        );
        let p = Parts::from_arrays(&[2, 3], &[3, 1], 0, 4);
        assert_eq!((p.axis(1), p.rank()), ((3, 1), 2));
        assert_eq!(Parts::prefix(&[2, 3, 0], &[3, 1, 0], 2, 0, 1).rank(), 2);
        assert!(!p.has_zero_extent());
        assert!(Parts::from_arrays(&[2, 0], &[1, 1], 0, 1).has_zero_extent());
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "past the rank")]
    fn parts_axis_past_the_rank_is_asserted_in_debug_builds() {
        let _ = Parts::from_arrays(&[2, 3], &[3, 1], 0, 4).axis(2);
    }

    #[test]
    #[cfg(not(debug_assertions))]
    fn parts_axis_past_the_rank_is_the_unit_axis_in_release_builds() {
        assert_eq!(Parts::from_arrays(&[2, 3], &[3, 1], 0, 4).axis(2), (1, 0));
    }
}
