//! [`Layout::is_unique`]: whether no two indices share an offset, decided exactly.

use crate::algo::unique::is_unique;
use crate::{Layout, Verdict};

impl<const N: usize> Layout<N> {
    /// Whether no two distinct indices map to the same offset; exact.
    ///
    /// Deliberate difference from cuda.core: its `is_unique` is only a sufficient test (after
    /// sorting by stride, each stride must exceed the span of the smaller ones) and says
    /// `false` for some unique layouts, such as `(3,3):(3,4)`; this one is true if and only if
    /// the layout is unique. A layout with at most one element is unique; an axis of extent
    /// at least 2 with stride 0 (a broadcast) makes it not unique; extent-1 axes and the signs
    /// of the strides do not matter.
    ///
    /// ```text
    /// (3,3):(3,4)   offsets 0 4 8       unique (cuda.core: false)
    ///                       3 7 11
    ///                       6 10 14
    /// (5,4):(3,4)   index [4,0] and [0,3] both at 4·3 = 3·4 = 12: not unique
    /// ```
    ///
    /// # Cost
    ///
    /// No allocation. O(N) when the layout has at most one element, an extent-0 axis, a
    /// broadcast axis (extent >= 2, stride 0), or more elements than offsets in its span
    /// (pigeonhole). Otherwise the `K` axes of extent >= 2 are sorted by `|stride|` ascending
    /// (O(N²) insertion sort; `s_k`, extents `e_k`, `S_<k = Σ_{j<k} s_j (e_j - 1)`), two equal
    /// `|stride|`s answer `false` at once, and a depth-first search looks for a nonzero index
    /// difference `d`, `|d_k| < e_k`, with `Σ d_k s_k = 0`, largest stride first. At axis `k` it
    /// tries only the `d_k` that the smaller axes can still cancel, at most
    /// `min(2 e_k - 1, ⌊2 S_<k / s_k⌋ + 1)` values (the first nonzero `d_k` is taken positive),
    /// and it solves the last two axes at once with the extended gcd. So it visits at most
    /// `Π_{k=2}^{K-1} min(2 e_k - 1, ⌊2 S_<k / s_k⌋ + 1)` leaves, each O(log s), with O(K) work
    /// per node above them. When `s_k > S_<k` for every `k` (every layout made from a dense one
    /// by permuting, slicing with steps, flipping, selecting or squeezing), a mixed-radix pass
    /// of O(K) adds and multiplies answers before any search; two axes of extent >= 2 are
    /// always O(log s). Adversarial layouts (many axes with close strides and extents large
    /// enough to dodge the pigeonhole test) can take as long as the product says: extent-2
    /// axes with strides `B + 3^k` triple the work per axis. Where that cost must be bounded
    /// (a kernel validating its destination, a `const` item), use
    /// [`is_unique_within`](Layout::is_unique_within).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// assert!(Layout::dense([4, 5], 8, Order::C)?.is_unique());
    /// assert!(Layout::new([3, 3], [3, 4], 1)?.is_unique());
    /// assert!(!Layout::new([5, 4], [3, 4], 1)?.is_unique());
    /// assert!(!Layout::new([2, 3], [0, 1], 1)?.is_unique());
    /// assert!(Layout::new([1, 3], [0, -1], 1)?.is_unique());
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `true` iff the offsets of all indices are pairwise distinct
    #[must_use]
    pub const fn is_unique(&self) -> bool {
        // With an unbounded budget the search always answers.
        matches!(self.is_unique_within(u64::MAX), Verdict::Yes)
    }

    /// Whether no two distinct indices map to the same offset, deciding with at most
    /// `budget` search steps; [`Verdict::Unknown`] when that is not enough.
    ///
    /// The fast tests of [`is_unique`](Layout::is_unique) (O(N²) at most) are free; each
    /// step of the search that follows is one node, O(N) work. A budget of
    /// `1 + Σ_j Π_{k<j} (2 e_k - 1)` over the axes of extent >= 2, largest `|stride|` first and
    /// the last two left out, always suffices; a budget proportional to the volume (what the
    /// kernels use) bounds the check by the cost of touching every element once.
    ///
    /// ```text
    /// (2,2,2,2,2,2):(1001,1003,1009,1027,1081,1243)   within(1) -> Unknown   exact -> Yes
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Verdict};
    /// let l = Layout::new([2; 6], [1001, 1003, 1009, 1027, 1081, 1243], 1)?;
    /// assert_eq!(l.is_unique_within(1), Verdict::Unknown);
    /// assert_eq!(l.is_unique_within(1_000), Verdict::Yes);
    /// assert_eq!(Layout::new([5, 4], [3, 4], 1)?.is_unique_within(10), Verdict::No);
    /// assert_eq!(Layout::new([2, 3], [0, 1], 1)?.is_unique_within(0), Verdict::No); // a fast test
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `Yes` iff `is_unique()`, `No` iff not, whenever the answer is not `Unknown`
    /// - never `Unknown` with a budget of at least the bound above
    #[must_use]
    pub const fn is_unique_within(&self, budget: u64) -> Verdict {
        let mut order = [0usize; N];
        Verdict::from_option(is_unique(self.parts(), &mut order, budget))
    }
}
