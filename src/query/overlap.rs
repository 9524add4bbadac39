//! [`Layout::overlaps`]: whether two layouts over one buffer share a byte, decided exactly.

use crate::Layout;
use crate::algo::overlap::{Parts, overlaps};

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
        let mut order_a = [0usize; N];
        let mut order_b = [0usize; M];
        overlaps(
            Parts {
                shape: &self.shape,
                strides: &self.strides,
                offset: self.offset,
                itemsize: self.itemsize,
            },
            Parts {
                shape: &other.shape,
                strides: &other.strides,
                offset: other.offset,
                itemsize: other.itemsize,
            },
            &mut order_a,
            &mut order_b,
        )
    }
}
