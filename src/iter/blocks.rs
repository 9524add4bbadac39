//! [`StridedBlocks`]: a layout's offsets as maximal runs of consecutive elements.

use core::iter::FusedIterator;

use super::odometer::{Odometer, coalesced};
use crate::{DynLayout, InterleavedLayout, Layout, Lowered, Mapping};

/// A run of `len` consecutive elements starting at element offset `start`: offsets
/// `start, start + 1, .., start + len - 1`; `len >= 1`.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError};
/// use strided_layout::iter::Block;
/// // Two rows of 3 elements, 4 apart: offsets 0 1 2 and 4 5 6.
/// let l = Layout::new([2, 3], [4, 1], 4)?;
/// let blocks: Vec<Block> = l.strided_blocks().collect();
/// assert_eq!(blocks, [Block { start: 0, len: 3 }, Block { start: 4, len: 3 }]);
/// // A block covers `start..start + len` of the slice.
/// let buf: Vec<f32> = (0..7).map(|i| i as f32).collect();
/// let b = blocks[1];
/// assert_eq!(&buf[b.start as usize..][..b.len], [4.0, 5.0, 6.0]);
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Block {
    /// Element offset of the run's first element.
    pub start: isize,
    /// Number of elements in the run, at least 1.
    pub len: usize,
}

/// Iterator over a layout's maximal contiguous runs, in logical C order; made by
/// [`Layout::strided_blocks`], [`DynLayout::strided_blocks`] and
/// [`InterleavedLayout::strided_blocks`].
///
/// It walks the *regular* blocks (the innermost axes that C order merges into one run of
/// stride 1, [`block_len`](StridedBlocks::block_len) elements each) and joins consecutive
/// ones whose offsets continue by `+1`, so every yielded [`Block`] is maximal even when the
/// join spans axes that do not merge in general (`(2,2,2):(1,-1,1)` yields
/// `[-1, 0, 1, 2]` as one block). The state is `Copy` and lives on the stack.
///
/// When the regular blocks are equally spaced ([`block_stride`](StridedBlocks::block_stride)
/// is `Some`), no two of them join and the iterator yields exactly
/// [`num_blocks`](StridedBlocks::num_blocks) blocks (burn's `(block_len, num_blocks,
/// block_stride)` triple); otherwise `num_blocks` is an upper bound and `size_hint` says so.
///
/// It is double-ended: `rev()` yields the same blocks last first (each still ascending
/// inside). An interleaved layout's regular blocks are its single elements (`block_len()
/// == 1`), joined into runs as above, so the lanes of a block come out as one run.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError};
/// use strided_layout::iter::Block;
/// // (2,2,2):(1,-1,1) + 1: offsets 1 2 0 1 | 2 3 1 2 in C order.
/// let l = Layout::new([2, 2, 2], [1, -1, 1], 4)?.with_offset(1)?;
/// let b = l.strided_blocks();
/// assert_eq!((b.block_len(), b.num_blocks(), b.block_stride()), (2, 4, None));
/// assert_eq!(b.size_hint(), (1, Some(4))); // blocks may join: at most `num_blocks`
/// let runs: Vec<Block> = b.collect();
/// assert_eq!(runs[0], Block { start: 1, len: 2 });
/// // Last first, each block still ascending inside.
/// assert_eq!(b.rev().next(), Some(Block { start: 1, len: 2 }));
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct StridedBlocks<const N: usize> {
    /// Odometer over the starts of the regular blocks.
    starts: Odometer<N>,
    block_len: usize,
    num_blocks: usize,
    block_stride: Option<isize>,
}

impl<const N: usize> StridedBlocks<N> {
    /// The blocks of the valid layout `low` describes.
    pub(crate) fn of(low: &Lowered<N>) -> Self {
        let mut low = coalesced(low);
        let empty = low.shape.contains(&0);
        let mut block_len = 1;
        if let (Some(e), Some(&1), false, None) = (
            low.shape.last_mut(),
            low.strides.last(),
            empty,
            low.blocks.as_interleave(),
        ) {
            // The innermost merged axis steps by one element: it is the regular block (an
            // empty layout has none: its axes may keep any stride).
            block_len = *e;
            *e = 1;
        }
        let starts = Odometer::new(&low);
        let mut outer = low.shape.iter().zip(&low.strides).filter(|&(&e, _)| e > 1);
        let block_stride = match (outer.next(), outer.next(), low.blocks.as_interleave()) {
            (None, _, _) => Some(0),
            (Some((_, &s)), None, None) => Some(s),
            _ => None,
        };
        Self {
            num_blocks: starts.len(),
            starts,
            block_len,
            block_stride,
        }
    }

    /// Elements in each regular block (burn's `block_len`); every yielded block's length is
    /// a multiple of it. 1 when the innermost merged axis does not have stride 1.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([3, 4, 5], 4, Order::C)?;
    /// assert_eq!(l.strided_blocks().block_len(), 60); // all axes merge into one run
    /// assert_eq!(l.narrowed(2, 0, 2)?.strided_blocks().block_len(), 2);
    /// assert_eq!(l.transposed(1, 2)?.strided_blocks().block_len(), 1);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn block_len(&self) -> usize {
        self.block_len
    }

    /// Number of regular blocks (burn's `num_blocks`): the layout's volume over
    /// [`block_len`](StridedBlocks::block_len). The iterator yields exactly this many when
    /// [`block_stride`](StridedBlocks::block_stride) is `Some`, at most this many otherwise.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError};
    /// // Rows of 3 elements, 8 apart: 4 regular blocks, yielded one by one.
    /// let b = Layout::new([4, 3], [8, 1], 4)?.strided_blocks();
    /// assert_eq!(b.num_blocks(), 4);
    /// assert_eq!(b.count(), 4);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn num_blocks(&self) -> usize {
        self.num_blocks
    }

    /// The distance between consecutive regular blocks' starts when it is constant (burn's
    /// `block_stride`): `Some(0)` for at most one block (or a broadcast), `None` when the
    /// blocks are not equally spaced.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError};
    /// assert_eq!(Layout::new([4, 3], [8, 1], 4)?.strided_blocks().block_stride(), Some(8));
    /// assert_eq!(Layout::new([4, 3], [-8, 1], 4)?.strided_blocks().block_stride(), Some(-8));
    /// // Two outer axes that do not merge: the spacing changes between rows and planes.
    /// let b = Layout::new([2, 2, 3], [20, 8, 1], 4)?.strided_blocks();
    /// assert_eq!(b.block_stride(), None);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn block_stride(&self) -> Option<isize> {
        self.block_stride
    }
}

#[expect(
    clippy::copy_iterator,
    reason = "the state is a few stack words, and a copy is a checkpoint to resume from"
)]
impl<const N: usize> Iterator for StridedBlocks<N> {
    type Item = Block;

    #[inline]
    fn next(&mut self) -> Option<Block> {
        let start = self.starts.next_offset()?;
        let mut len = self.block_len;
        if self.block_stride.is_none() {
            // Join following regular blocks while their offsets continue by `+1`. Inside a
            // row of a plain layout consecutive starts differ by the row's stride, which is
            // never the block length (an axis with that stride would have merged into the
            // block), so a plain layout's join can only happen where a row ends.
            while self.starts.front_at_row_start() {
                match (self.starts.peek_offset(), start.checked_add_unsigned(len)) {
                    (Some(next), Some(end)) if next == end => {
                        self.starts.next_offset();
                        // A block's elements are distinct offsets of one layout, so its
                        // length is at most the volume, which fits `usize`.
                        len = len.wrapping_add(self.block_len);
                    }
                    _ => break,
                }
            }
        }
        Some(Block { start, len })
    }

    #[inline]
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.starts.len();
        if self.block_stride.is_some() {
            (n, Some(n))
        } else {
            (n.min(1), Some(n))
        }
    }
}

impl<const N: usize> DoubleEndedIterator for StridedBlocks<N> {
    #[inline]
    fn next_back(&mut self) -> Option<Block> {
        let mut start = self.starts.next_back_offset()?;
        let mut len = self.block_len;
        if self.block_stride.is_none() {
            // Join preceding regular blocks while their offsets continue by `+1` (at a row's
            // end only, for a plain layout, as in `next`).
            while self.starts.back_at_row_end() {
                match self.starts.peek_back_offset() {
                    Some(prev) if prev.checked_add_unsigned(self.block_len) == Some(start) => {
                        self.starts.next_back_offset();
                        start = prev;
                        len = len.wrapping_add(self.block_len);
                    }
                    _ => break,
                }
            }
        }
        Some(Block { start, len })
    }
}

impl<const N: usize> FusedIterator for StridedBlocks<N> {}

impl<const N: usize> Layout<N> {
    /// The layout's offsets as maximal runs of consecutive elements, in logical C order.
    ///
    /// Within a block the offsets ascend by one; consecutive elements (in C order) whose
    /// offsets continue by `+1` are in the same block, even across several axes; the blocks'
    /// offsets, concatenated, are exactly [`offsets`](Layout::offsets). Zero and negative
    /// strides are handled (they give blocks of length 1 on those axes); an empty layout
    /// yields nothing, rank 0 one block of length 1.
    ///
    /// ```text
    /// (3,4):(5,1) (rows of a wider matrix)   strided_blocks() -> {0,4} {5,4} {10,4}
    ///   0  1  2  3
    ///   5  6  7  8
    ///  10 11 12 13
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::iter::Block;
    /// let l = Layout::new([3, 4], [5, 1], 4)?;
    /// let b = l.strided_blocks();
    /// assert_eq!((b.block_len(), b.num_blocks(), b.block_stride()), (4, 3, Some(5)));
    /// assert!(b.eq([0, 5, 10].map(|start| Block { start, len: 4 })));
    /// let dense = Layout::dense([2, 3, 4], 4, Order::C)?;
    /// assert!(dense.strided_blocks().eq([Block { start: 0, len: 24 }]));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - the blocks' offsets, concatenated, equal `self.offsets()`
    /// - every block has `len >= 1`; no block's end (`start + len`) equals the next's start
    /// - `rev()` yields the same blocks in reverse
    #[must_use]
    pub fn strided_blocks(&self) -> StridedBlocks<N> {
        StridedBlocks::of(&self.lowered())
    }
}

impl<const MAX: usize> DynLayout<MAX> {
    /// The layout's offsets as maximal runs of consecutive elements, in logical C order;
    /// see [`Layout::strided_blocks`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// use strided_layout::iter::Block;
    /// let d = DynLayout::<4>::new(&[2, 3], &[4, 1], 4)?;
    /// assert!(d.strided_blocks().eq([Block { start: 0, len: 3 }, Block { start: 4, len: 3 }]));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - the blocks' offsets, concatenated, equal `self.offsets()`
    #[must_use]
    pub fn strided_blocks(&self) -> StridedBlocks<MAX> {
        StridedBlocks::of(&self.lowered())
    }
}

impl<const N: usize> InterleavedLayout<N> {
    /// The layout's offsets as maximal runs of consecutive elements, in logical C order
    /// (as [`Layout::strided_blocks`]); padding slots of a partial last block are never
    /// part of a run.
    ///
    /// ```text
    /// (2,3):(2,4) il(1,2)    strided_blocks() -> {0,2} {4,1} {2,2} {6,1}
    ///   0 1 4
    ///   2 3 6
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// use strided_layout::iter::Block;
    /// let l = InterleavedLayout::new([2, 3], [2, 4], 4, InterleaveLayout::new(1, 2)?)?;
    /// let b = |start, len| Block { start, len };
    /// assert!(l.strided_blocks().eq([b(0, 2), b(4, 1), b(2, 2), b(6, 1)]));
    /// let hwc = InterleavedLayout::dense([3, 2, 2], 1, InterleaveLayout::new(0, 3)?)?;
    /// assert!(hwc.strided_blocks().eq([b(0, 1), b(3, 1), b(6, 1), b(9, 1), b(1, 1), b(4, 1), b(7, 1), b(10, 1), b(2, 1), b(5, 1), b(8, 1), b(11, 1)]));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - the blocks' offsets, concatenated, equal `self.offsets()`
    /// - every block has `len >= 1`; no block's end (`start + len`) equals the next's start
    /// - `rev()` yields the same blocks in reverse
    #[must_use]
    pub fn strided_blocks(&self) -> StridedBlocks<N> {
        StridedBlocks::of(&self.lowered())
    }
}
