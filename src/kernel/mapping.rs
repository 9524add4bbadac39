//! [`Mapping`]: what a kernel operand lowers to, so every kernel is written once for
//! [`Layout`] and for any other layout that decomposes into a few strided pieces.

use crate::algo::access::{get, set};
use crate::algo::checked::{offset_after, tri};
use crate::algo::interleave::level;
use crate::{InterleavedLayout, Layout, LayoutError};

/// The most inner [`Level`]s one [`Lowered`] holds, over all its axes: oneDNN's formats need
/// up to four (`OIhw4i16o4i`: `i` blocked twice, `o` once; `OIhw4o8i8o4i`: both twice).
///
/// # Examples
///
/// ```
/// use strided_layout::nested::NestedLayout;
/// use strided_layout::plan::MAX_LEVELS;
/// let w = NestedLayout::<8>::onednn("OIhw4o8i8o4i", &[64, 64, 3, 3], 4)?;
/// assert_eq!(w.lowered::<4>()?.blocks.levels().len(), MAX_LEVELS);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub const MAX_LEVELS: usize = 4;

/// One inner level of a blocked axis: `extent` coordinates `stride` elements apart. The axis's
/// next level (or, after its last, the axis's own stride in [`Lowered::strides`]) steps whole
/// blocks of this one.
///
/// # Examples
///
/// ```
/// use strided_layout::plan::Level;
/// // Lanes of 16 channels, one element apart (the `16c` of nChw16c).
/// let lanes = Level { axis: 1, extent: 16, stride: 1 };
/// assert_eq!((lanes.axis, lanes.extent, lanes.stride), (1, 16, 1));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Level {
    /// The axis this level belongs to.
    pub axis: usize,
    /// Coordinates in one block of this level (at least 1).
    pub extent: usize,
    /// Elements between consecutive coordinates of this level.
    pub stride: isize,
}

/// The inner levels of an operand's blocked axes, at most [`MAX_LEVELS`], each axis's
/// fastest first: an axis with levels `(e_1, s_1), .., (e_m, s_m)` and stride `s` (in
/// [`Lowered::strides`]) places coordinate `i` at
///
/// ```text
/// Σ_j ((i / (e_1 ⋯ e_{j-1})) % e_j) · s_j  +  (i / (e_1 ⋯ e_m)) · s
/// ```
///
/// (CuTe's colexicographic decomposition with the outermost level unbounded, so the axis's
/// extent need not be a multiple of `e_1 ⋯ e_m`: a partial last block). No levels is the
/// plain strided formula; one level `(f, 1)` is Core AI's interleave by `f`.
///
/// ```text
/// axis of extent 10, levels [(4, 1)], stride 12:    offsets 0 1 2 3 12 13 14 15 24 25
/// ```
///
/// # Examples
///
/// ```
/// use strided_layout::LayoutError;
/// use strided_layout::plan::{Blocks, Level};
/// // `i` of OIhw4i16o4i: blocks of 4 one apart, 4 of those 64 apart.
/// let i = Blocks::NONE
///     .with(Level { axis: 1, extent: 4, stride: 1 })?
///     .with(Level { axis: 1, extent: 4, stride: 64 })?;
/// assert_eq!(i.levels().len(), 2);
/// assert_eq!(i.offset_on(1, 6, 256, 0)?, 2 + 64);
/// assert_eq!(i.offset_on(1, 17, 256, 0)?, 1 + 256);
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Blocks {
    levels: [Level; MAX_LEVELS],
    len: usize,
}

impl Blocks {
    /// No level: every axis plain.
    pub const NONE: Self = Self {
        levels: [Level {
            axis: 0,
            extent: 1,
            stride: 0,
        }; MAX_LEVELS],
        len: 0,
    };

    /// Core AI's interleave: axis `dimension` in blocks of `factor` lanes one element apart.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::plan::{Blocks, Level};
    /// let hwc = Blocks::interleave(0, 3);
    /// assert_eq!(hwc.levels(), [Level { axis: 0, extent: 3, stride: 1 }]);
    /// ```
    #[must_use]
    pub const fn interleave(dimension: usize, factor: usize) -> Self {
        let mut out = Self::NONE;
        set(
            &mut out.levels,
            0,
            Level {
                axis: dimension,
                extent: factor,
                stride: 1,
            },
        );
        out.len = 1;
        out
    }

    /// These levels and `level`, which becomes the outermost inner level of its axis so far.
    ///
    /// # Errors
    ///
    /// [`LayoutError::RankOverflow`] with `max: MAX_LEVELS` when every level is in use.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{LayoutError, plan::{Blocks, Level, MAX_LEVELS}};
    /// let lanes = Level { axis: 0, extent: 2, stride: 1 };
    /// let mut b = Blocks::NONE;
    /// for _ in 0..MAX_LEVELS {
    ///     b = b.with(lanes)?;
    /// }
    /// assert_eq!(b.with(lanes), Err(LayoutError::RankOverflow { max: MAX_LEVELS }));
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn with(self, level: Level) -> Result<Self, LayoutError> {
        if self.len >= MAX_LEVELS {
            return Err(LayoutError::RankOverflow { max: MAX_LEVELS });
        }
        let mut out = self;
        set(&mut out.levels, self.len, level);
        out.len = self.len.saturating_add(1);
        Ok(out)
    }

    /// The levels in use, in the order they were added.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::plan::Blocks;
    /// assert!(Blocks::NONE.levels().is_empty());
    /// ```
    #[must_use]
    pub const fn levels(&self) -> &[Level] {
        match self.levels.split_at_checked(self.len) {
            Some((used, _)) => used,
            None => &self.levels,
        }
    }

    /// Whether there is no level (the plain strided formula on every axis).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::plan::Blocks;
    /// assert!(Blocks::NONE.is_empty() && !Blocks::interleave(0, 1).is_empty());
    /// ```
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// `Some((dimension, factor))` when these are exactly Core AI's interleave (one level of
    /// lanes one element apart), the form [`InterleavedLayout`] lowers to.
    pub(crate) const fn as_interleave(&self) -> Option<(usize, usize)> {
        match self.levels() {
            [l] if l.stride == 1 => Some((l.axis, l.extent)),
            _ => None,
        }
    }

    /// The product of the extents of `axis`'s levels (one outermost block, 1 with none), `None`
    /// past `usize`.
    pub(crate) const fn block_on(&self, axis: usize) -> Option<usize> {
        // The place value of the axis's last level.
        let levels = self.levels();
        let mut i = levels.len();
        while let Some(j) = i.checked_sub(1) {
            i = j;
            if let Some(l) = get(levels, j) {
                if l.axis == axis {
                    return self.place_value(j);
                }
            }
        }
        Some(1)
    }

    /// The place value of level `index` on its axis: the product of the extents of that axis's
    /// levels up to and including it (the coordinates one of its steps moves); `None` past
    /// `usize` (then it exceeds every extent) or past the levels.
    pub(crate) const fn place_value(&self, index: usize) -> Option<usize> {
        let levels = self.levels();
        let Some(level) = get(levels, index) else {
            return None;
        };
        let mut place = 1usize;
        let mut j = 0;
        while j <= index {
            if let Some(below) = get(levels, j) {
                if below.axis == level.axis {
                    place = match place.checked_mul(below.extent) {
                        Some(v) => v,
                        None => return None,
                    };
                }
            }
            j = j.saturating_add(1);
        }
        Some(place)
    }

    /// `offset` plus the offset of coordinate `i` along `axis`, whose own stride is `stride`:
    /// the formula above, the one place it is written (the planner cuts blocked axes with
    /// it).
    ///
    /// # Errors
    ///
    /// [`LayoutError::OffsetOverflow`] when the offset leaves `isize`;
    /// [`LayoutError::FactorZero`] for a level of extent 0 on `axis`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{LayoutError, plan::Blocks};
    /// // Interleaved by 2 with block stride 4: coordinates 0..5 at 0 1 4 5 8.
    /// let b = Blocks::interleave(0, 2);
    /// let offsets: Result<Vec<_>, _> = (0..5).map(|i| b.offset_on(0, i, 4, 0)).collect();
    /// assert_eq!(offsets?, [0, 1, 4, 5, 8]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn offset_on(
        &self,
        axis: usize,
        i: usize,
        stride: isize,
        offset: isize,
    ) -> Result<isize, LayoutError> {
        let (mut q, mut off) = (i, offset);
        let mut rest = self.levels();
        while let [l, tail @ ..] = rest {
            rest = tail;
            if l.axis != axis {
                continue;
            }
            (off, q) = tri!(level(off, q, l.extent, l.stride));
        }
        offset_after(off, q, stride)
    }
}

/// What a kernel operand lowers to: a strided description whose axes may be blocked, each
/// into inner [`Level`]s of its own (several axes, an axis blocked twice, a partial last
/// block: see [`Blocks`]):
///
/// ```text
/// offset(i) = offset + Σ_k axis_k(i_k)     axis_k(i) = Σ_j digit_j(i)·s_j + (i / e_1⋯e_m)·strides[k]
/// ```
///
/// with `(e_j, s_j)` the levels of axis `k` in [`blocks`](Self::blocks) and `digit_j` the
/// colexicographic digits of `i` under them; an axis with no level is the plain
/// `i·strides[k]`. Core AI's interleave by `f` on axis `d` is the one level `(f, 1)` on `d`.
///
/// ```text
/// shape [5], strides [4], blocks [(axis 0, extent 2, stride 1)]     offsets 0 1 4 5 8
/// ```
///
/// The fields are public plain data, so a caller can build one by hand; the kernels check
/// every field they rely on (a bad level is an error, and every offset is checked
/// against its slice), so a wrong value is an error, never undefined behaviour.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError};
/// use strided_layout::plan::{Lowered, Mapping};
/// let l = Layout::new([2, 3], [3, 1], 4)?.with_offset(1)?;
/// let low: Lowered<2> = l.lowered();
/// assert_eq!((low.shape, low.strides, low.offset), ([2, 3], [3, 1], 1));
/// assert!(low.blocks.is_empty());
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Lowered<const N: usize> {
    /// Extent of each axis.
    pub shape: [usize; N],
    /// Stride of each axis in elements; at a blocked axis, the stride of one outermost block.
    pub strides: [isize; N],
    /// Offset of index `[0; N]`, in elements.
    pub offset: isize,
    /// Bytes per element (a power of two). The kernels check it against the element type
    /// first ([`LayoutError::ItemsizeMismatch`] unless it
    /// is `size_of::<T>()` of the slice the operand comes with), and the planner sizes its
    /// tiles from it.
    pub itemsize: usize,
    /// The inner levels of the blocked axes (each level's `axis < N`, `extent >= 1`).
    pub blocks: Blocks,
}

/// A layout the kernels can read or write: anything that lowers to [`Lowered`].
///
/// # Implementing it for another layout type
///
/// The trait is open: a layout type outside this crate (a tiled format, another library's
/// view) becomes a kernel operand by describing itself as a [`Lowered`]. The contract:
///
/// - **Meaning**: index `i` of the operand is element `offset(i)` of the slice passed with
///   it, by the formula on [`Lowered`]; the kernels follow that description and nothing else.
/// - **Well-formed**: every level of `blocks` has `axis < N` and `extent >= 1`; `itemsize`
///   is the element size of the slices the operand is used with (the kernels refuse the call
///   with [`LayoutError::ItemsizeMismatch`] otherwise,
///   and size their tiles from it).
/// - **Pure**: `lowered()` returns the same value for the same `self`, without side effects.
///
/// What the kernels check on every `Lowered`, before any element moves, whoever built it:
///
/// | check | error |
/// | --- | --- |
/// | the operands' shapes are equal | [`LayoutError::ShapeMismatch`] |
/// | a level's axis is `< N`, its extent `>= 1`, and the operands' levels cut the shape into at most [`MAX_NESTS`](crate::plan::MAX_NESTS) strided pieces (a plan) or [`MAX_PIECES`](crate::plan::MAX_PIECES) (a run-time kernel, a window of [`MAX_NESTS`](crate::plan::MAX_NESTS) at a time) | [`AxisOutOfRange`](crate::LayoutError::AxisOutOfRange), [`FactorZero`](crate::LayoutError::FactorZero), [`InterleaveConflict`](crate::LayoutError::InterleaveConflict) |
/// | every offset and stride the plan computes fits `isize` (checked arithmetic) | [`OffsetOverflow`](crate::LayoutError::OffsetOverflow) |
/// | the merged loops fit [`MAX_LOOPS`](crate::plan::MAX_LOOPS), or those past it (the outermost), peeled into a nest per combination of their indices, make at most [`MAX_NESTS`](crate::plan::MAX_NESTS) pieces (a plan; a run-time kernel plans any number, a window at a time) | [`RankOverflow`](crate::LayoutError::RankOverflow) |
/// | every offset of every operand lies inside its slice (`0 <= offset < len`) | [`OffsetBelowSlice`](crate::LayoutError::OffsetBelowSlice), [`OffsetOutsideSlice`](crate::LayoutError::OffsetOutsideSlice) |
/// | no two indices of a destination share an element | [`DestinationNotUnique`](crate::LayoutError::DestinationNotUnique) |
///
/// So a wrong `Lowered` is an error, or (when it is valid but does not say what your type
/// means) a copy of the wrong elements; it is never undefined behaviour: the kernels' only
/// `unsafe` rests on these checks, not on the implementor. What they cannot check is the
/// meaning: test an implementation by comparing `strided_layout::copy` through it with a
/// loop over your type's own index-to-offset function.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order};
/// use strided_layout::plan::Mapping;
/// let l = Layout::dense([2, 3], 4, Order::F)?;
/// assert_eq!(l.lowered().strides, [1, 2]);
/// # Ok::<(), LayoutError>(())
/// ```
pub trait Mapping<const N: usize> {
    /// The lowered form: what the kernels read and write for this operand (see the contract
    /// above). Keeping the invariants of [`Layout`] (every offset fits `isize`, in elements and
    /// in bytes) makes every check pass that does not depend on the slices; a value that
    /// breaks them is refused with an error, never trusted.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError, Order};
    /// use strided_layout::plan::{Blocks, Mapping};
    /// // Generic code reads any operand through its lowered form.
    /// fn innermost_stride<const N: usize>(m: &impl Mapping<N>) -> Option<isize> {
    ///     m.lowered().strides.last().copied()
    /// }
    /// let hwc = InterleavedLayout::dense([3, 2, 2], 1, InterleaveLayout::new(0, 3)?)?;
    /// assert_eq!(innermost_stride(&hwc), Some(3));
    /// assert_eq!(hwc.lowered().blocks, Blocks::interleave(0, 3));
    /// # Ok::<(), LayoutError>(())
    /// ```
    fn lowered(&self) -> Lowered<N>;
}

impl<const N: usize> Layout<N> {
    /// This layout's [`Lowered`] form; the `const` twin of [`Mapping::lowered`], for prepared
    /// plans built at compile time.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError};
    /// use strided_layout::plan::Lowered;
    /// const L: Layout<1> = strided_layout::const_unwrap(Layout::new([3], [2], 4));
    /// const LOW: Lowered<1> = L.lowered();
    /// assert_eq!((LOW.shape, LOW.strides, LOW.blocks.is_empty()), ([3], [2], true));
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn lowered(&self) -> Lowered<N> {
        Lowered {
            shape: self.shape,
            strides: self.strides,
            offset: self.offset,
            itemsize: self.itemsize,
            blocks: Blocks::NONE,
        }
    }
}

impl<const N: usize> Mapping<N> for Layout<N> {
    fn lowered(&self) -> Lowered<N> {
        Layout::lowered(self)
    }
}

/// An interleaved layout lowers to its strided parts plus the split of its interleaved axis:
/// the kernels read and write it through the same plan as a [`Layout`], a partial last block
/// included.
///
/// # Examples
///
/// ```
/// use strided_layout::{InterleaveLayout, InterleavedLayout, Layout, LayoutError, Order};
/// // Planar CHW (3 x 2 x 2) to interleaved HWC: channels in blocks of 3.
/// let chw = Layout::dense([3, 2, 2], 1, Order::C)?;
/// let hwc = InterleavedLayout::dense([3, 2, 2], 1, InterleaveLayout::new(0, 3)?)?;
/// let src: Vec<u8> = (0..12).collect();
/// let mut dst = vec![0u8; 12];
/// strided_layout::copy(&src, &chw, &mut dst, &hwc)?;
/// assert_eq!(dst, [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]);
/// # Ok::<(), LayoutError>(())
/// ```
impl<const N: usize> Mapping<N> for InterleavedLayout<N> {
    fn lowered(&self) -> Lowered<N> {
        InterleavedLayout::lowered(self)
    }
}

impl<const N: usize> InterleavedLayout<N> {
    /// This layout's [`Lowered`] form; the `const` twin of [`Mapping::lowered`], for prepared
    /// plans built at compile time.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let il = InterleavedLayout::dense([4, 2], 4, InterleaveLayout::new(0, 2)?)?;
    /// assert_eq!(il.lowered().blocks, strided_layout::plan::Blocks::interleave(0, 2));
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn lowered(&self) -> Lowered<N> {
        let il = self.interleave();
        Lowered {
            shape: self.shape(),
            strides: self.strides(),
            offset: self.offset(),
            itemsize: self.itemsize(),
            blocks: Blocks::interleave(il.dimension(), il.factor()),
        }
    }
}

impl<const N: usize> Mapping<N> for Lowered<N> {
    fn lowered(&self) -> Lowered<N> {
        *self
    }
}
