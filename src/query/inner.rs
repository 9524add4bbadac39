//! burn's `Layout` conveniences: [`Layout::contiguous_offsets`],
//! [`inner_stride`](Layout::inner_stride), [`has_contiguous_inner`](Layout::has_contiguous_inner),
//! [`as_2d_strides`](Layout::as_2d_strides), [`has_positive_strides`](Layout::has_positive_strides).

use crate::Layout;

impl<const N: usize> Layout<N> {
    /// If the layout is C-contiguous with a non-negative offset, the element range
    /// `(start, end)` it fills, for direct slice access `&buf[start..end]` (burn).
    ///
    /// `start` is the offset and `end = start + volume`; a layout with no element gives
    /// `(offset, offset)`, rank 0 gives `(offset, offset + 1)`. `None` when the layout is not
    /// [`is_contiguous_c`](Layout::is_contiguous_c) or its offset is negative.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([2, 3], 4, Order::C)?.with_offset(5)?;
    /// assert_eq!(l.contiguous_offsets(), Some((5, 11)));
    /// assert_eq!(Layout::dense([2, 3], 4, Order::F)?.contiguous_offsets(), None);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `Some((o, o + volume))` iff `is_contiguous_c()` and `offset() = o >= 0`
    #[must_use]
    pub const fn contiguous_offsets(&self) -> Option<(usize, usize)> {
        if self.offset < 0 || !self.is_contiguous_c() {
            return None;
        }
        #[expect(
            clippy::cast_sign_loss,
            reason = "`offset >= 0` was checked, so the cast is exact."
        )]
        let start = self.offset as usize;
        // The last element `offset + volume - 1` fits `isize` (invariant 3), so this fits
        // `usize`; checked anyway.
        match start.checked_add(self.volume()) {
            Some(end) => Some((start, end)),
            None => None,
        }
    }

    /// `|stride|` of the last axis (burn's `inner_stride`); 1 for rank 0 (a scalar is its own
    /// contiguous run).
    ///
    /// The extent of the last axis is not read: an extent-1 last axis reports its stride as
    /// stored.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// assert_eq!(Layout::dense([2, 3], 4, Order::C)?.inner_stride(), 1);
    /// assert_eq!(Layout::dense([2, 3], 4, Order::F)?.inner_stride(), 2);
    /// assert_eq!(Layout::new([3], [-5], 4)?.inner_stride(), 5);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `|strides[N - 1]|` for `N > 0`, 1 for `N == 0`
    #[must_use]
    pub const fn inner_stride(&self) -> usize {
        match self.strides.last() {
            Some(s) => s.unsigned_abs(),
            None => 1,
        }
    }

    /// Whether the last axis steps by one element, either way: `inner_stride() == 1` (burn's
    /// `has_contiguous_inner`, which enables vectorised inner loops); `true` for rank 0.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// assert!(Layout::dense([2, 3], 4, Order::C)?.has_contiguous_inner());
    /// assert!(Layout::new([2, 3], [3, -1], 4)?.has_contiguous_inner());
    /// assert!(!Layout::dense([2, 3], 4, Order::F)?.has_contiguous_inner());
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `true` iff `inner_stride() == 1`
    #[must_use]
    pub const fn has_contiguous_inner(&self) -> bool {
        self.inner_stride() == 1
    }

    /// For a rank-2 layout, `(outer extent, inner extent, outer stride, inner stride)`;
    /// `None` for any other rank (burn's `as_2d_strides`).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// assert_eq!(Layout::dense([2, 3], 4, Order::C)?.as_2d_strides(), Some((2, 3, 3, 1)));
    /// assert_eq!(Layout::dense([2, 3, 4], 4, Order::C)?.as_2d_strides(), None);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `Some((shape[0], shape[1], strides[0], strides[1]))` iff `N == 2`
    #[must_use]
    pub const fn as_2d_strides(&self) -> Option<(usize, usize, isize, isize)> {
        match (self.shape.as_slice(), self.strides.as_slice()) {
            ([e0, e1], [s0, s1]) => Some((*e0, *e1, *s0, *s1)),
            _ => None,
        }
    }

    /// Whether every stride is non-negative (burn's name, kept for compatibility: zero
    /// strides count as positive here).
    ///
    /// Every stride is read, extent-1 axes included; `true` for rank 0. Unlike cuda.core's
    /// internal "no negative stride" test, an extent-1 axis with a negative stride makes it
    /// `false`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError};
    /// assert!(Layout::new([2, 3], [0, 1], 4)?.has_positive_strides());
    /// assert!(!Layout::new([2, 3], [3, -1], 4)?.has_positive_strides());
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `true` iff `strides[k] >= 0` for every `k`
    #[must_use]
    pub const fn has_positive_strides(&self) -> bool {
        let mut i = 0;
        while i < N {
            #[expect(
                clippy::indexing_slicing,
                clippy::arithmetic_side_effects,
                reason = "`i < N` bounds the indexing and the counter."
            )]
            {
                if self.strides[i] < 0 {
                    return false;
                }
                i += 1;
            }
        }
        true
    }
}
