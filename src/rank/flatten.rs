//! [`Layout::flattened`], [`Layout::flattened_range`], [`Layout::flattened_with_mask`]:
//! merge runs of axes whose strides allow it.

use crate::algo::checked::tri;
use crate::algo::flatten::{flatten, range_mask};
use crate::{AxisMask, DynLayout, Layout, LayoutError};

impl<const N: usize> Layout<N> {
    /// Returns this layout with every run of axes that can merge (in C index order) merged,
    /// as a [`DynLayout<N>`]; cuda.core's `flattened()`.
    ///
    /// Axis `i` merges into axis `i - 1` when `strides[i - 1] == strides[i] * shape[i]`;
    /// extent-1 axes merge with anything; an empty layout merges into one axis of extent 0
    /// and stride 0. A rank-0 layout flattens to itself (cuda.core returns shape `(1,)`).
    /// The last three are deliberate differences from cuda.core, which keeps an extent-1 or
    /// empty axis whose stride breaks its test: [`doc::cuda_core`](crate::doc::cuda_core)
    /// entries 9 and 10.
    ///
    /// ```text
    /// (2,3,4):(12,4,1)      flattened() -> (24):(1)
    /// (2,3,4):(1,8,2)       flattened() -> (2,12):(1,2)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([4, 5, 3], 4, Order::C)?;
    /// assert_eq!(l.flattened().shape(), &[60]);
    /// let l2 = Layout::new([4, 5, 3], [1, 12, 4], 4)?;
    /// assert_eq!((l2.flattened().shape(), l2.flattened().strides()), (&[4, 15][..], &[1, 4][..]));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - the offsets of `f` in C index order equal `self`'s
    /// - no two neighbouring axes of `f` can merge further
    #[must_use]
    pub const fn flattened(self) -> DynLayout<N> {
        match self.flattened_with_mask(range_mask(0, N)) {
            Ok(d) => d,
            // `range_mask(0, N)` names only axes below N, the one error `flatten` reports
            // for valid layouts; unreachable, and the unmerged layout is a correct answer.
            Err(_) => DynLayout::from_valid_parts(
                &self.shape,
                &self.strides,
                N,
                self.offset,
                self.itemsize,
            ),
        }
    }

    /// Returns this layout with the mergeable axes of `start..end` (end exclusive) merged;
    /// a range of fewer than two axes leaves the layout unchanged.
    ///
    /// ```text
    /// (2,3,4):(12,4,1)      flattened_range(0, 2) -> (6,4):(4,1)
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::AxisRangeInvalid`] unless `start <= end <= N`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([2, 3, 4], 4, Order::C)?;
    /// assert_eq!(l.flattened_range(0, 2)?.shape(), &[6, 4]);
    /// assert_eq!(l.flattened_range(1, 1)?.shape(), &[2, 3, 4]);
    /// assert!(l.flattened_range(2, 4).is_err());
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - the offsets of `f` in C index order equal `self`'s
    pub const fn flattened_range(
        self,
        start: usize,
        end: usize,
    ) -> Result<DynLayout<N>, LayoutError> {
        if end > N || start > end {
            return Err(LayoutError::AxisRangeInvalid { start, end });
        }
        self.flattened_with_mask(range_mask(start, end))
    }

    /// Returns this layout with axis `i` merged into axis `i - 1` for every bit `i` of
    /// `mask` where the strides allow it (cuda.core's `flattened(mask=..)`); combine masks
    /// of several layouts with `&` to flatten them alike.
    ///
    /// ```text
    /// (4,5,3):(15,3,1)  & (4,5,3):(1,12,4)  masks 0b110 & 0b100 = 0b100
    /// flattened_with_mask(0b100) -> (4,15):(15,1)  and  (4,15):(1,4)
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::MaskOutOfRange`] if `mask` has a bit at or above `N`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{AxisMask, Layout, LayoutError, Order};
    /// let a = Layout::dense([4, 5, 3], 4, Order::C)?;
    /// let b = Layout::new([4, 5, 3], [1, 12, 4], 4)?;
    /// let mask = AxisMask::from_bits(0b110) & AxisMask::from_bits(0b100);
    /// assert_eq!(a.flattened_with_mask(mask)?.strides(), &[15, 1]);
    /// assert_eq!(b.flattened_with_mask(mask)?.strides(), &[1, 4]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - the offsets of `f` in C index order equal `self`'s
    pub const fn flattened_with_mask(self, mask: AxisMask) -> Result<DynLayout<N>, LayoutError> {
        let mut shape = [0usize; N];
        let mut strides = [0isize; N];
        let (rank, _) = tri!(flatten(
            self.parts(),
            mask,
            &mut shape,
            &mut strides,
            &mut []
        ));
        // Merging only where the strides allow keeps every offset; the new extents are
        // products of old ones, whose product fits; so the invariants still hold.
        Ok(DynLayout::from_valid_parts(
            &shape,
            &strides,
            rank,
            self.offset,
            self.itemsize,
        ))
    }
}
