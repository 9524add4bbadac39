//! The same-rank transforms of [`Layout`](crate::Layout) on a [`DynLayout`]: permute,
//! transpose, flip, narrow, slice. Each is the same thin glue over the same `algo` cores as
//! the `Layout` version, with slices where `Layout` takes arrays, and a length check where
//! `Layout`'s type does the checking.

use crate::algo::access::set;
use crate::algo::checked::{tame_unit_strides, tri};
use crate::algo::flip::flip;
use crate::algo::narrow::narrow;
use crate::algo::permute::{permute, transposition};
use crate::algo::slice::slice_into;
use crate::{DynLayout, LayoutError, Slice};

/// The first `rank` entries of `a` (all of it if shorter).
const fn live<T>(a: &[T], rank: usize) -> &[T] {
    match a.split_at_checked(rank) {
        Some((l, _)) => l,
        None => a,
    }
}

/// The first `rank` entries of `a`, mutably (all of it if shorter).
const fn live_mut<T>(a: &mut [T], rank: usize) -> &mut [T] {
    let n = a.len();
    match a.split_at_mut_checked(if rank < n { rank } else { n }) {
        Some((l, _)) => l,
        None => &mut [],
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
    pub const fn permuted(self, axes: &[usize]) -> Result<Self, LayoutError> {
        let rank = self.ndim();
        let mut shape = [0usize; MAX];
        let mut strides = [0isize; MAX];
        tri!(permute(
            self.parts(),
            axes,
            live_mut(&mut shape, rank),
            live_mut(&mut strides, rank)
        ));
        // The same axes in another order keep the invariants.
        Ok(Self::from_valid_parts(
            &shape,
            &strides,
            rank,
            self.offset,
            self.itemsize,
        ))
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
    pub const fn transposed(self, a: usize, b: usize) -> Result<Self, LayoutError> {
        let mut axes = [0usize; MAX];
        tri!(transposition(a, b, live_mut(&mut axes, self.ndim())));
        self.permuted(live(&axes, self.ndim()))
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
    pub const fn flipped(self, axis: usize) -> Result<Self, LayoutError> {
        let (stride, offset) = tri!(flip(self.parts(), axis));
        let mut strides = self.strides;
        set(&mut strides, axis, stride);
        // Same offsets, an element's offset, and the one new stride checked by `flip`.
        Ok(Self::from_valid_parts(
            &self.shape,
            &strides,
            self.rank,
            offset,
            self.itemsize,
        ))
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
    pub const fn narrowed(
        self,
        axis: usize,
        start: usize,
        len: usize,
    ) -> Result<Self, LayoutError> {
        let offset = tri!(narrow(self.parts(), axis, start, len));
        let mut shape = self.shape;
        set(&mut shape, axis, len);
        // A sub-box of the elements starting at an element keeps the invariants (with no
        // element, `algo::narrow` moved the offset only where it still fits in bytes), as in
        // `Layout::narrowed`.
        Ok(Self::from_valid_parts(
            &shape,
            &self.strides,
            self.rank,
            offset,
            self.itemsize,
        ))
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
        let mut shape = [0usize; MAX];
        let mut strides = [0isize; MAX];
        let offset = tri!(slice_into(
            self.parts(),
            slices,
            live_mut(&mut shape, rank),
            live_mut(&mut strides, rank)
        ));
        tame_unit_strides(&shape, &mut strides, self.itemsize);
        Self::from_parts(
            live(&shape, rank),
            live(&strides, rank),
            offset,
            self.itemsize,
        )
    }
}
