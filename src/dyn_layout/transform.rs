//! The same-rank transforms of [`Layout`](crate::Layout) on a [`DynLayout`]: permute,
//! transpose, flip, narrow, slice. Each is the same thin glue over the same `algo` cores as
//! the `Layout` version, with slices where `Layout` takes arrays, and a length check where
//! `Layout`'s type does the checking.

use crate::algo::checked::{advance, neg, tri};
use crate::algo::dense::is_permutation;
use crate::algo::slice::slice_into;
use crate::{DynLayout, LayoutError, Slice};

/// The first `rank` entries of a scratch array (`rank <= MAX` is kept by every value).
const fn live<T>(a: &[T], rank: usize) -> &[T] {
    match a.split_at_checked(rank) {
        Some((l, _)) => l,
        None => a,
    }
}

impl<const MAX: usize> DynLayout<MAX> {
    /// Returns this layout with its axes reordered: result axis `i` is source axis `axes[i]`
    /// (as [`Layout::permuted`](crate::Layout::permuted)).
    ///
    /// ```text
    /// (2,3,4):(12,4,1)        permuted(&[2, 0, 1]) -> (4,2,3):(1,12,4)
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::RankMismatch`] if `axes.len() != self.ndim()`;
    /// - [`LayoutError::NotAPermutation`] if `axes` repeats an axis or names one `>= ndim`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// let d = DynLayout::<4>::new(&[2, 3, 4], &[12, 4, 1], 4)?.permuted(&[2, 0, 1])?;
    /// assert_eq!((d.shape(), d.strides()), (&[4, 2, 3][..], &[1, 12, 4][..]));
    /// assert_eq!(d.permuted(&[0, 1]), Err(LayoutError::RankMismatch { expected: 3, found: 2 }));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - as [`Layout::permuted`](crate::Layout::permuted), on the live axes
    // Indexing is bounded: `i < rank == axes.len() <= MAX` and `axes[i] < rank` once
    // `is_permutation` holds.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    pub const fn permuted(self, axes: &[usize]) -> Result<Self, LayoutError> {
        let rank = self.ndim();
        if axes.len() != rank {
            return Err(LayoutError::RankMismatch {
                expected: rank,
                found: axes.len(),
            });
        }
        if !is_permutation(axes) {
            return Err(LayoutError::NotAPermutation);
        }
        let (sh, st) = (self.shape(), self.strides());
        let mut shape = [0usize; MAX];
        let mut strides = [0isize; MAX];
        let mut i = 0;
        while i < rank {
            shape[i] = sh[axes[i]];
            strides[i] = st[axes[i]];
            i += 1;
        }
        Self::from_parts(
            live(&shape, rank),
            live(&strides, rank),
            self.offset(),
            self.itemsize(),
        )
    }

    /// Returns this layout with axes `a` and `b` swapped (as
    /// [`Layout::transposed`](crate::Layout::transposed)).
    ///
    /// ```text
    /// (2,3):(3,1)            transposed(0, 1) -> (3,2):(1,3)
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::AxisOutOfRange`] if `a >= ndim` (checked first) or `b >= ndim`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// let d = DynLayout::<4>::new(&[2, 3], &[3, 1], 4)?.transposed(0, 1)?;
    /// assert_eq!((d.shape(), d.strides()), (&[3, 2][..], &[1, 3][..]));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - as [`Layout::transposed`](crate::Layout::transposed)
    // Indexing is bounded by the two range checks (`a, b < rank <= MAX`).
    #[allow(clippy::indexing_slicing)]
    pub const fn transposed(self, a: usize, b: usize) -> Result<Self, LayoutError> {
        let rank = self.ndim();
        if a >= rank {
            return Err(LayoutError::AxisOutOfRange {
                axis: a,
                ndim: rank,
            });
        }
        if b >= rank {
            return Err(LayoutError::AxisOutOfRange {
                axis: b,
                ndim: rank,
            });
        }
        let mut shape = self.shape;
        let mut strides = self.strides;
        shape[a] = self.shape[b];
        shape[b] = self.shape[a];
        strides[a] = self.strides[b];
        strides[b] = self.strides[a];
        Self::from_parts(
            live(&shape, rank),
            live(&strides, rank),
            self.offset(),
            self.itemsize(),
        )
    }

    /// Returns this layout with axis `axis` reversed (as
    /// [`Layout::flipped`](crate::Layout::flipped)).
    ///
    /// ```text
    /// (2,3):(3,1)            flipped(0) -> (2,3):(-3,1) +3
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::AxisOutOfRange`] if `axis >= ndim`;
    /// - [`LayoutError::OffsetOverflow`] if the negated stride or the new offset overflows.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// let d = DynLayout::<4>::new(&[2, 3], &[3, 1], 4)?.flipped(0)?;
    /// assert_eq!((d.strides(), d.offset()), (&[-3, 1][..], 3));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - as [`Layout::flipped`](crate::Layout::flipped)
    // Indexing is bounded by the range check (`axis < rank <= MAX`).
    #[allow(clippy::indexing_slicing)]
    pub const fn flipped(self, axis: usize) -> Result<Self, LayoutError> {
        let rank = self.ndim();
        if axis >= rank {
            return Err(LayoutError::AxisOutOfRange { axis, ndim: rank });
        }
        let stride = self.strides[axis];
        let extent = self.shape[axis];
        let mut strides = self.strides;
        strides[axis] = tri!(neg(stride));
        let offset = if extent > 1 && stride != 0 {
            // `extent >= 2`, so `extent - 1` cannot wrap.
            #[allow(clippy::arithmetic_side_effects)]
            let last = extent - 1;
            tri!(advance(self.offset(), last, stride))
        } else {
            self.offset()
        };
        Self::from_parts(self.shape(), live(&strides, rank), offset, self.itemsize())
    }

    /// Returns this layout with axis `axis` narrowed to `start..start + len` (as
    /// [`Layout::narrowed`](crate::Layout::narrowed); no clamping).
    ///
    /// ```text
    /// (2,4):(4,1)            narrowed(1, 1, 2) -> (2,2):(4,1) +1
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::AxisOutOfRange`] if `axis >= ndim`;
    /// - [`LayoutError::RangeOutOfBounds`] if `start + len` exceeds the extent;
    /// - [`LayoutError::OffsetOverflow`] if the new offset overflows.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// let d = DynLayout::<4>::new(&[2, 4], &[4, 1], 4)?.narrowed(1, 1, 2)?;
    /// assert_eq!((d.shape(), d.offset()), (&[2, 2][..], 1));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - as [`Layout::narrowed`](crate::Layout::narrowed)
    // Indexing is bounded by the range check (`axis < rank <= MAX`).
    #[allow(clippy::indexing_slicing)]
    pub const fn narrowed(
        self,
        axis: usize,
        start: usize,
        len: usize,
    ) -> Result<Self, LayoutError> {
        let rank = self.ndim();
        if axis >= rank {
            return Err(LayoutError::AxisOutOfRange { axis, ndim: rank });
        }
        let Some(end) = start.checked_add(len) else {
            return Err(LayoutError::RangeOutOfBounds { axis });
        };
        if end > self.shape[axis] {
            return Err(LayoutError::RangeOutOfBounds { axis });
        }
        let stride = self.strides[axis];
        let offset = if start == 0 || stride == 0 {
            self.offset()
        } else {
            tri!(advance(self.offset(), start, stride))
        };
        let mut shape = self.shape;
        shape[axis] = len;
        Self::from_parts(live(&shape, rank), self.strides(), offset, self.itemsize())
    }

    /// Returns the layout of `x[s0, s1, ..]` for one [`Slice`] per axis, with Python's rules
    /// (as [`Layout::sliced`](crate::Layout::sliced)).
    ///
    /// ```text
    /// (3,4):(4,1)            sliced(&[1:, ::-2]) -> (2,2):(4,-2) +7
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::RankMismatch`] if `slices.len() != self.ndim()`;
    /// - [`LayoutError::ZeroStep`] for the first axis whose step is 0;
    /// - [`LayoutError::OffsetOverflow`] if a new stride or the new offset overflows.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError, Slice};
    /// let d = DynLayout::<4>::new(&[3, 4], &[4, 1], 4)?;
    /// let s = d.sliced(&[Slice::from(1..), Slice::new(None, None, -2)])?;
    /// assert_eq!((s.shape(), s.strides(), s.offset()), (&[2, 2][..], &[4, -2][..], 7));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - as [`Layout::sliced`](crate::Layout::sliced)
    pub const fn sliced(self, slices: &[Slice]) -> Result<Self, LayoutError> {
        let rank = self.ndim();
        if slices.len() != rank {
            return Err(LayoutError::RankMismatch {
                expected: rank,
                found: slices.len(),
            });
        }
        let mut shape = [0usize; MAX];
        let mut strides = [0isize; MAX];
        let (Some((out_shape, _)), Some((out_strides, _))) = (
            shape.split_at_mut_checked(rank),
            strides.split_at_mut_checked(rank),
        ) else {
            return Err(LayoutError::RankOverflow { max: MAX });
        };
        let offset = tri!(slice_into(
            self.shape(),
            self.strides(),
            self.offset(),
            slices,
            out_shape,
            out_strides
        ));
        Self::from_parts(
            live(&shape, rank),
            live(&strides, rank),
            offset,
            self.itemsize(),
        )
    }
}
