//! Queries of an [`InterleavedLayout`]: offset bounds, required size, density,
//! and ArrayInterface's axis questions (`contiguous_axis`, `stride_rank`,
//! `contiguous_batch_size`).

use crate::InterleavedLayout;
use crate::LayoutError;
use crate::algo::access::{get, set};
use crate::algo::contiguity::contiguous_axis;
use crate::algo::interleave::bounds;
use crate::algo::offset::required_size_of;
use crate::algo::parts::Parts;
use crate::algo::sort::stride_rank;

impl<const N: usize> InterleavedLayout<N> {
    /// The smallest and largest element offsets, `None` when the layout has no element.
    ///
    /// Computed in O(N) (no enumeration): along the interleaved axis the extremes are at
    /// lane 0 of the first or last block, and at the last lane of the last block or of the
    /// last *full* block (which can lie higher when the block stride is small).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// // 10 channels in blocks of 4, 3 pixels: blocks 12 apart, pixels 4 apart.
    /// let l = InterleavedLayout::dense([10, 3], 1, InterleaveLayout::new(0, 4)?)?;
    /// assert_eq!(l.offset_bounds(), Some((0, 2 * 12 + 2 * 4 + 1)));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `None` iff `volume() == 0`, else the min and max of `offset_of` over every index
    #[must_use]
    pub const fn offset_bounds(&self) -> Option<(isize, isize)> {
        // A valid layout's bounds never overflow (invariant 3), so `Err` cannot occur.
        match bounds(self.parts(), self.interleave) {
            Ok(b) => b,
            Err(_) => None,
        }
    }

    /// Bytes a buffer starting at offset 0 needs: `(max offset + 1) * itemsize`, 0 when the
    /// layout has no element.
    ///
    /// A partial last block is padded: its unused slots between elements are inside this
    /// span and counted; slots past the largest offset are not (the padded strided form,
    /// [`to_strided_padded`](InterleavedLayout::to_strided_padded), may need more).
    ///
    /// ```text
    /// (10):(4) il(0,4), 10 channels in blocks of 4:   0 1 2 3 | 4 5 6 7 | 8 9 . .
    ///   max offset 9, required size 10 elements; the two `.` slots lie past it
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::NegativeOffset`] if the smallest offset is negative.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let l = InterleavedLayout::dense([10, 3], 4, InterleaveLayout::new(0, 4)?)?;
    /// assert_eq!(l.required_size_in_bytes()?, (2 * 12 + 2 * 4 + 1 + 1) * 4);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `Ok((hi + 1) * itemsize)` with `(lo, hi) = offset_bounds()`, `Ok(0)` when empty,
    ///   `Err(NegativeOffset)` when `lo < 0`
    pub const fn required_size_in_bytes(&self) -> Result<usize, LayoutError> {
        required_size_of(self.offset_bounds(), self.itemsize)
    }

    /// Whether the elements fill exactly offsets `0..volume()` (no padding, no gap, no
    /// overlap); an empty layout is dense when its offset is 0, as for
    /// [`Layout::is_dense`](crate::Layout::is_dense).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let il = InterleaveLayout::new(0, 4)?;
    /// assert!(InterleavedLayout::dense([8, 3], 1, il)?.is_dense());
    /// assert!(!InterleavedLayout::dense([10, 3], 1, il)?.is_dense()); // padded last block
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `true` iff the sorted offsets are exactly `0, 1, .., volume() - 1`
    #[must_use]
    pub const fn is_dense(&self) -> bool {
        let v = self.volume();
        match self.offset_bounds() {
            None => self.offset == 0,
            Some((lo, hi)) => {
                lo == 0 && hi.unsigned_abs() == v.saturating_sub(1) && self.is_unique()
            }
        }
    }

    /// The strides with the interleaved axis's block stride replaced by its element step 1
    /// when the axis holds a single block (`shape[d] <= f`): the block stride is then never
    /// used, and the axis steps by one element like a stride-1 axis.
    const fn effective_strides(&self) -> [isize; N] {
        let (d, f) = (self.interleave.dimension(), self.interleave.factor());
        let mut s = self.strides;
        if let Some(e) = get(&self.shape, d) {
            if e <= f {
                set(&mut s, d, 1);
            }
        }
        s
    }

    /// The extent of the interleaved axis.
    const fn interleaved_extent(&self) -> usize {
        match get(&self.shape, self.interleave.dimension()) {
            Some(e) => e,
            // `dimension < N` is an invariant of every constructor.
            None => 0,
        }
    }

    /// The axis along which consecutive indices are consecutive elements, at least in
    /// blocks (ArrayInterface's `contiguous_axis`, 0-based): the interleaved axis when its
    /// factor and extent are both at least 2, else as [`Layout::contiguous_axis`](crate::Layout::contiguous_axis)
    /// (the axis of extent >= 2 and stride exactly 1, the highest such).
    ///
    /// ArrayInterface counts from 1: its `Contiguous{k}` is `Some(k - 1)` here, and its
    /// `-1` (none) is `None`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// // ArrayInterface's 2 x 16 example: sets of 8 of axis 1, block stride 16, row stride 8.
    /// let a = InterleavedLayout::new([2, 16], [8, 16], 8, InterleaveLayout::new(1, 8)?)?;
    /// assert_eq!(a.contiguous_axis(), Some(1)); // Contiguous{2}
    /// assert_eq!(a.stride_rank(), [0, 1]); // StrideRank{(1, 2)}
    /// assert_eq!(a.contiguous_batch_size(), Some(8)); // ContiguousBatch{8}
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `Some(d)` when `f >= 2` and `shape[d] >= 2`
    #[must_use]
    pub const fn contiguous_axis(&self) -> Option<usize> {
        if self.interleave.factor() >= 2 && self.interleaved_extent() >= 2 {
            return Some(self.interleave.dimension());
        }
        let s = self.effective_strides();
        contiguous_axis(Parts::from_arrays(
            &self.shape,
            &s,
            self.offset,
            self.itemsize,
        ))
    }

    /// The rank of each axis's `|stride|` among all axes, smallest = 0 (ArrayInterface's
    /// `StrideRank`, 1-based there), reading the interleaved axis's *block* stride as
    /// CoreAI and ArrayInterface report it (its element step 1 when it holds one block).
    ///
    /// Ties are broken as by [`Layout::stride_rank`](crate::Layout::stride_rank).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let a = InterleavedLayout::new([2, 16], [8, 16], 8, InterleaveLayout::new(1, 8)?)?;
    /// assert_eq!(a.stride_rank().map(|r| r + 1), [1, 2]); // ArrayInterface's (1, 2)
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - a permutation of `0..N`
    #[must_use]
    pub const fn stride_rank(&self) -> [usize; N] {
        let s = self.effective_strides();
        let mut order = [0usize; N];
        let mut rank = [0usize; N];
        stride_rank(
            Parts::from_arrays(&self.shape, &s, self.offset, self.itemsize),
            &mut order,
            &mut rank,
        );
        rank
    }

    /// How many consecutive elements of the contiguous axis lie together before the layout
    /// moves along another axis (ArrayInterface's `contiguous_batch_size`): `None` when there
    /// is no [`contiguous_axis`](InterleavedLayout::contiguous_axis) (ArrayInterface's `-1`),
    /// `Some(f)` when that axis is the interleaved one, split into more than one block
    /// (`2 <= f < shape[d]`) whose block stride does not rank lowest, otherwise `Some(0)`:
    /// the axis runs along its whole extent (ArrayInterface's `0`, no batching).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let il = InterleaveLayout::new(1, 8)?;
    /// assert_eq!(InterleavedLayout::new([2, 16], [8, 16], 4, il)?.contiguous_batch_size(), Some(8));
    /// // One block per row: plain rows of 8, no batching.
    /// assert_eq!(InterleavedLayout::new([2, 8], [8, 99], 4, il)?.contiguous_batch_size(), Some(0));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `None` iff `contiguous_axis()` is `None`; `Some(f)` iff `contiguous_axis() == Some(d)`,
    ///   `2 <= f < shape[d]` and `stride_rank()[d] != 0`; `Some(0)` otherwise
    #[must_use]
    pub const fn contiguous_batch_size(&self) -> Option<usize> {
        let Some(a) = self.contiguous_axis() else {
            return None;
        };
        let (d, f) = (self.interleave.dimension(), self.interleave.factor());
        let ranked_lowest = matches!(get(&self.stride_rank(), d), Some(0));
        if a == d && f >= 2 && self.interleaved_extent() > f && !ranked_lowest {
            Some(f)
        } else {
            Some(0)
        }
    }
}
