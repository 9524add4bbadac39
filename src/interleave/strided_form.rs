//! The strided form of an interleaved layout: [`InterleavedLayout::to_strided`] (rank
//! `N + 1`, the block as a last stride-1 axis), its inverse
//! [`InterleavedLayout::from_strided`], and the padded form for a partial last block.

use crate::algo::access::get;
use crate::algo::checked::tri;
use crate::algo::interleave::{Piece, piece};
use crate::rank::{OneLess, OneMore, Rank};
use crate::{InterleaveLayout, InterleavedLayout, Layout, LayoutError};

impl<const N: usize> InterleavedLayout<N> {
    /// The core's `which` piece of this layout (rank `N + 1`, lane axis last) written into
    /// `shape` and `strides`; its offset.
    pub(crate) const fn piece(
        &self,
        which: Piece,
        shape: &mut [usize],
        strides: &mut [isize],
    ) -> Result<isize, LayoutError> {
        piece(self.parts(), self.interleave, which, shape, strides)
    }

    /// The same offsets as a strided layout of rank `M == N + 1`: axis `d` becomes the block
    /// index (extent `e_d / f`, the block stride) and a last axis of extent `f`, stride 1,
    /// is the position inside the block (CoreAI's "equivalent shape/stride form").
    ///
    /// ```text
    /// (2,4):(2,4) il(1,2)         to_strided() -> (2,2,2):(2,4,1)
    ///   0 1 4 5                   [i, j] of the left is [i, j/2, j%2] of the right
    ///   2 3 6 7
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::ExtentNotDivisible`] if `f` does not divide `shape[d]` (use
    ///   [`to_strided_padded`](InterleavedLayout::to_strided_padded), or split off the tail).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, Layout, LayoutError};
    /// let l = InterleavedLayout::dense([8, 256, 256], 4, InterleaveLayout::new(0, 4)?)?;
    /// let s: Layout<4> = l.to_strided()?;
    /// assert_eq!((s.shape(), s.strides()), ([2, 256, 256, 4], [262144, 1024, 4, 1]));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `s.offset_of([.., i_d / f, .., i_d % f]) == self.offset_of(i)` for every index `i`
    /// - `InterleavedLayout::from_strided(&s, d) == Ok(self)`
    pub const fn to_strided<const M: usize>(&self) -> Result<Layout<M>, LayoutError>
    where
        Rank<N>: OneMore<N, M>,
    {
        let (d, f) = (self.interleave.dimension(), self.interleave.factor());
        match get(&self.shape, d) {
            Some(e) if e.is_multiple_of(f) => {}
            _ => return Err(LayoutError::ExtentNotDivisible { axis: d }),
        }
        let (mut shape, mut strides) = ([0usize; M], [0isize; M]);
        let offset = tri!(self.piece(Piece::Full, &mut shape, &mut strides));
        Layout::from_parts(shape, strides, offset, self.itemsize)
    }

    /// The strided form of rank `M == N + 1` with a partial last block padded to `f` lanes:
    /// axis `d` has `ceil(e_d / f)` blocks, the last axis `f` lanes (stride 1).
    ///
    /// **Mask rule**: index `[.., b, .., l]` of the padded layout (`b` on axis `d`, `l` last)
    /// is an element of `self` (index `i_d = b * f + l`) iff `b * f + l < shape[d]`, that is
    /// `b < shape[d] / f`, or `b == shape[d] / f` and `l < shape[d] % f`; every other index
    /// is a padding slot (the last [`last_block_len`](InterleavedLayout::last_block_len)
    /// lanes of the last block are used, the rest are padding). Padding slots may lie past
    /// the largest element offset, so a buffer that a kernel walks through the padded form
    /// needs the padded layout's own `required_size_in_bytes`, which can exceed
    /// [`self.required_size_in_bytes()`](InterleavedLayout::required_size_in_bytes); writing
    /// padding clobbers whatever those slots hold.
    ///
    /// ```text
    /// (3):(2) il(0,2)          to_strided_padded() -> (2,2):(2,1)
    ///   0 1 2                    0 1
    ///                            2 [3]   <- b = 1, l = 1: 1*2 + 1 = 3 >= 3, padding
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::OffsetOverflow`] if a padding slot's offset, in elements or bytes,
    ///   overflows `isize` (the elements themselves always fit).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, Layout, LayoutError};
    /// let l = InterleavedLayout::dense([10, 5], 4, InterleaveLayout::new(0, 4)?)?;
    /// let p: Layout<3> = l.to_strided_padded()?;
    /// assert_eq!((p.shape(), p.strides()), ([3, 5, 4], [20, 4, 1]));
    /// assert_eq!(l.last_block_len(), 2); // block 2 uses lanes 0 and 1 of 4
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `p.offset_of([.., i_d / f, .., i_d % f]) == self.offset_of(i)` for every index `i`
    /// - equals `to_strided()` when `f` divides `shape[d]`
    pub const fn to_strided_padded<const M: usize>(&self) -> Result<Layout<M>, LayoutError>
    where
        Rank<N>: OneMore<N, M>,
    {
        let (mut shape, mut strides) = ([0usize; M], [0isize; M]);
        let offset = tri!(self.piece(Piece::Padded, &mut shape, &mut strides));
        Layout::from_parts(shape, strides, offset, self.itemsize)
    }

    /// Reads a strided layout of rank `M == N + 1` whose last axis is a block (stride 1) of
    /// axis `dimension` as an interleaved layout of rank `N`: the inverse of
    /// [`to_strided`](InterleavedLayout::to_strided).
    ///
    /// The result has `shape[d] = layout.shape()[d] * f` with `f = layout.shape()[N]`, keeps
    /// every other extent and every stride but the last, and the offset. A last axis of
    /// extent 1 is accepted with any stride (factor 1: nothing to interleave).
    ///
    /// ```text
    /// (2,2,2):(2,4,1)        from_strided(_, 1) -> (2,4):(2,4) il(1,2)
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::AxisOutOfRange`] if `dimension >= N`;
    /// - [`LayoutError::FactorZero`] if the last extent is 0;
    /// - [`LayoutError::NotABlock`] if the last axis has extent > 1 and a stride other than 1;
    /// - [`LayoutError::VolumeOverflow`], [`LayoutError::OffsetOverflow`] as for
    ///   [`InterleavedLayout::new`] (not on the output of `to_strided`).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleavedLayout, Layout, LayoutError, Order};
    /// // HWC (480,640,3) read as CHW interleaved on the channel axis by 3.
    /// let hwc = Layout::dense([1, 480, 640, 3], 1, Order::C)?;
    /// let chw = InterleavedLayout::<3>::from_strided(&hwc, 0)?;
    /// assert_eq!(chw.shape(), [3, 480, 640]);
    /// assert_eq!(chw.offset_of([2, 1, 1])?, 640 * 3 + 3 + 2);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `r.to_strided() == Ok(*layout)` when the last axis has stride 1 and extent >= 1
    #[expect(
        clippy::indexing_slicing,
        clippy::arithmetic_side_effects,
        reason = "Indexing is bounded by `k < N < M` and `dimension < N`, checked first; `k + 1 <= N`."
    )]
    pub const fn from_strided<const M: usize>(
        layout: &Layout<M>,
        dimension: usize,
    ) -> Result<Self, LayoutError>
    where
        Rank<M>: OneLess<M, N>,
    {
        if dimension >= N {
            return Err(LayoutError::AxisOutOfRange {
                axis: dimension,
                ndim: N,
            });
        }
        let f = layout.shape[N];
        if f == 0 {
            return Err(LayoutError::FactorZero);
        }
        if f > 1 && layout.strides[N] != 1 {
            return Err(LayoutError::NotABlock { axis: N });
        }
        let (mut shape, mut strides) = ([0usize; N], [0isize; N]);
        let mut k = 0;
        while k < N {
            shape[k] = layout.shape[k];
            strides[k] = layout.strides[k];
            k += 1;
        }
        shape[dimension] = match shape[dimension].checked_mul(f) {
            Some(e) => e,
            None => return Err(LayoutError::VolumeOverflow),
        };
        let il = tri!(InterleaveLayout::new(dimension, f));
        Self::from_parts(shape, strides, layout.offset, layout.itemsize, il)
    }
}
