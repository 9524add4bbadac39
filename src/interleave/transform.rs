//! Transforms that keep a layout interleaved: [`InterleavedLayout::permuted`],
//! [`InterleavedLayout::narrowed`] and [`InterleavedLayout::selected`]; no element moves.

use crate::algo::access::{get, set};
use crate::algo::checked::tri;
use crate::algo::narrow::narrow_blocked;
use crate::algo::parts::Parts;
use crate::algo::permute::permute;
use crate::algo::select::select;
use crate::rank::{OneLess, Rank};
use crate::{InterleavedLayout, LayoutError};

impl<const N: usize> InterleavedLayout<N> {
    /// Returns this layout with its axes reordered: axis `k` of the result is axis `axes[k]`
    /// of `self`; the interleave follows its axis.
    ///
    /// ```text
    /// (2,4):(2,4) il(1,2)        permuted([1, 0]) -> (4,2):(4,2) il(0,2)
    ///   0 1 4 5                    0 2
    ///   2 3 6 7                    1 3
    ///                              4 6
    ///                              5 7
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::NotAPermutation`] if `axes` is not a permutation of `0..N`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let chw = InterleavedLayout::dense([3, 4, 5], 1, InterleaveLayout::new(0, 3)?)?;
    /// let hwc = chw.permuted([1, 2, 0])?;
    /// assert_eq!((hwc.shape(), hwc.interleave().dimension()), ([4, 5, 3], 2));
    /// assert_eq!(hwc.offset_of([1, 2, 0])?, chw.offset_of([0, 1, 2])?);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `p.offset_of(j) == self.offset_of(i)` where `i[axes[k]] == j[k]`
    pub const fn permuted(self, axes: [usize; N]) -> Result<Self, LayoutError> {
        let (mut shape, mut strides) = (self.shape, self.strides);
        tri!(permute(
            Parts::from_arrays(&self.shape, &self.strides, self.offset, self.itemsize),
            &axes,
            &mut shape,
            &mut strides
        ));
        // The interleaved dimension follows its axis.
        let d = self.interleave.dimension();
        let mut new_d = 0;
        let mut k = 0;
        while let Some(a) = get(&axes, k) {
            if a == d {
                new_d = k;
            }
            k = k.saturating_add(1);
        }
        Self::from_parts(
            shape,
            strides,
            self.offset,
            self.itemsize,
            self.interleave.on(new_d),
        )
    }

    /// Returns the sub-layout `start..start + len` of axis `axis`; on the interleaved axis
    /// `start` must be a multiple of the factor (the result starts on a block boundary; its
    /// last block may be partial).
    ///
    /// ```text
    /// (6):(4) il(0,2)   0 1 | 4 5 | 8 9     narrowed(0, 2, 3) -> (3):(4) il(0,2) +4
    ///                                         4 5 | 8
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::AxisOutOfRange`] if `axis >= N`;
    /// - [`LayoutError::RangeOutOfBounds`] if `start + len > shape[axis]`;
    /// - [`LayoutError::BlockMisaligned`] if `axis` is the interleaved axis and `start` is
    ///   not a multiple of the factor.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let l = InterleavedLayout::new([6], [4], 1, InterleaveLayout::new(0, 2)?)?;
    /// let n = l.narrowed(0, 2, 3)?;
    /// assert_eq!((n.shape(), n.offset(), n.offset_of([2])?), ([3], 4, 8));
    /// assert_eq!(l.narrowed(0, 1, 2), Err(LayoutError::BlockMisaligned { axis: 0 }));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `n.offset_of(j) == self.offset_of(j with j[axis] + start)` for every `j`
    pub const fn narrowed(
        self,
        axis: usize,
        start: usize,
        len: usize,
    ) -> Result<Self, LayoutError> {
        let offset = tri!(narrow_blocked(
            self.parts(),
            self.interleave,
            axis,
            start,
            len
        ));
        let mut shape = self.shape;
        set(&mut shape, axis, len);
        Self::from_parts(shape, self.strides, offset, self.itemsize, self.interleave)
    }

    /// Returns the rank-`M == N - 1` layout of index `index` along `axis`, which must not be
    /// the interleaved axis; the interleave moves down one axis when `axis` is before it.
    ///
    /// ```text
    /// (2,4):(2,4) il(1,2)        selected(0, 1) -> (4):(4) il(0,2) +2
    ///   0 1 4 5                    2 3 6 7
    ///   2 3 6 7
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::AxisOutOfRange`] if `axis >= N`;
    /// - [`LayoutError::InterleavedAxis`] if `axis` is the interleaved axis (select there
    ///   through [`to_strided`](InterleavedLayout::to_strided) instead);
    /// - [`LayoutError::IndexOutOfRange`] if `index >= shape[axis]`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let l = InterleavedLayout::new([2, 4], [2, 4], 1, InterleaveLayout::new(1, 2)?)?;
    /// let row: InterleavedLayout<1> = l.selected(0, 1)?;
    /// assert_eq!((row.offset(), row.interleave().dimension()), (2, 0));
    /// assert_eq!(l.selected::<1>(1, 0), Err(LayoutError::InterleavedAxis { axis: 1 }));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `s.offset_of(j) == self.offset_of(j with index inserted at axis)` for every `j`
    pub const fn selected<const M: usize>(
        self,
        axis: usize,
        index: usize,
    ) -> Result<InterleavedLayout<M>, LayoutError>
    where
        Rank<N>: OneLess<N, M>,
    {
        if axis >= N {
            return Err(LayoutError::AxisOutOfRange { axis, ndim: N });
        }
        let d = self.interleave.dimension();
        if axis == d {
            return Err(LayoutError::InterleavedAxis { axis });
        }
        let (mut shape, mut strides) = ([0usize; M], [0isize; M]);
        let offset = tri!(select(
            Parts::from_arrays(&self.shape, &self.strides, self.offset, self.itemsize),
            axis,
            index,
            &mut shape,
            &mut strides
        ));
        let new_d = if axis < d { d.saturating_sub(1) } else { d };
        InterleavedLayout::from_parts(
            shape,
            strides,
            offset,
            self.itemsize,
            self.interleave.on(new_d),
        )
    }
}
