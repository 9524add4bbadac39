//! [`Layout::overlaps`]: whether two layouts over one buffer share a byte, decided exactly.

use crate::algo::overlap::overlaps;
use crate::{Layout, Verdict};

impl<const N: usize> Layout<N> {
    /// Whether some element of `self` and some element of `other`, laid over the same buffer,
    /// share a byte.
    ///
    /// Element offsets count from the same base pointer; each element covers the bytes
    /// `[offset * itemsize, offset * itemsize + itemsize)` of its own layout, so layouts with
    /// different itemsizes compare byte ranges. Exact: `true` iff such a pair exists (a
    /// layout with no element overlaps nothing; a non-empty layout overlaps itself). Use it
    /// to check that a kernel's output does not alias its input.
    ///
    /// ```text
    /// buffer          0 1 2 3 4 5 6 7
    /// (4):(2) +0      a . a . a . a .
    /// (4):(2) +1      . b . b . b . b     -> no overlap
    /// ```
    ///
    /// # Cost
    ///
    /// No allocation. O(N + M) when either layout is empty. Otherwise both layouts' axes are
    /// first sorted by stride (an insertion sort, O(N² + M²)); after that the answer is
    /// immediate when no byte offset difference is a multiple of the gcd of all byte
    /// strides (for example even against odd elements), O(N + M), or when the two byte
    /// ranges are disjoint (the search's first range test). Otherwise the same depth-first search
    /// as [`is_unique`](Layout::is_unique), counting in units of the smaller itemsize: the axes
    /// of both layouts with extent >= 2 and a nonzero stride, sorted by byte stride (axes with
    /// equal byte strides, such as the same axis of two views of one matrix, merge into one),
    /// plus a slack of `max(ia, ib) / min(ia, ib) - 1` units for bytes inside an element. At a
    /// merged axis of stride `c_k` and index range `n_k` it tries at most
    /// `min(n_k + 1, ⌊R_<k / c_k⌋ + 1)` values, `R_<k` being the span of the smaller axes plus
    /// the slack, and it solves the last two merged axes with the extended gcd (once per slack
    /// value, when that is fewer). So two views with the same strides cost O((N + M)² + log c);
    /// unrelated strides can cost up to the product of those counts over all but the two
    /// smallest merged axes.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError};
    /// let even = Layout::new([4], [2], 4)?;
    /// let odd = even.with_offset(1)?;
    /// assert!(!even.overlaps(&odd));
    /// assert!(even.overlaps(&even.with_offset(2)?));
    /// // 8-byte element 1 covers bytes 8..16; 4-byte element at offset 3 covers 12..16.
    /// assert!(Layout::new([2], [1], 8)?.overlaps(&Layout::new([], [], 4)?.with_offset(3)?));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `true` iff the byte sets `{o * itemsize + b : o an element offset, b < itemsize}` of
    ///   the two layouts intersect
    #[must_use]
    pub const fn overlaps<const M: usize>(&self, other: &Layout<M>) -> bool {
        // With an unbounded budget the search always answers.
        matches!(self.overlaps_within(other, u64::MAX), Verdict::Yes)
    }

    /// Whether some element of `self` shares a byte with some element of `other`, deciding
    /// with at most `budget` search steps; [`Verdict::Unknown`] when that is not enough.
    ///
    /// The gcd and range tests of [`overlaps`](Layout::overlaps) are free; each search step
    /// is one node, O(N + M) work. A budget of `1 + Σ_j Π_{k<j} e_k` over both layouts' axes
    /// of extent >= 2, largest coefficient first and the last two left out, times the
    /// itemsize ratio, always suffices.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Verdict};
    /// let even = Layout::new([4], [2], 4)?;
    /// assert_eq!(even.overlaps_within(&even.with_offset(1)?, 10), Verdict::No);
    /// assert_eq!(even.overlaps_within(&even.with_offset(2)?, 10), Verdict::Yes);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `Yes` iff `overlaps(other)`, `No` iff not, whenever the answer is not `Unknown`
    #[must_use]
    pub const fn overlaps_within<const M: usize>(&self, other: &Layout<M>, budget: u64) -> Verdict {
        let mut order_a = [0usize; N];
        let mut order_b = [0usize; M];
        Verdict::from_option(overlaps(
            self.parts(),
            other.parts(),
            &mut order_a,
            &mut order_b,
            budget,
        ))
    }
}
