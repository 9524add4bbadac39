//! [`Mapping`]: what a kernel operand lowers to, so every kernel is written once for
//! [`Layout`] and for any other layout that decomposes into a few strided pieces.

use crate::{InterleavedLayout, Layout};

/// What a kernel operand lowers to: a strided description, optionally with one axis split
/// into blocks of `factor` consecutive elements (CoreAI `InterleaveLayout` semantics).
///
/// ```text
/// offset(i) = offset + Σ_{k ≠ d} i_k·strides[k] + (i_d / f)·strides[d] + (i_d % f)
/// ```
///
/// where `(d, f) = (dimension, factor)` of `interleave`; with `interleave == None` this is
/// the plain strided formula. `factor` need not divide `shape[d]` (partial last block).
///
/// ```text
/// shape [5], strides [4], interleave Some((0, 2))     offsets 0 1 4 5 8
/// ```
///
/// The fields are public plain data, so a caller can build one by hand; the kernels check
/// every field they rely on (a bad interleave is an error, and every offset is checked
/// against its slice), so a wrong value is an error, never undefined behaviour.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError};
/// use strided_layout::plan::{Lowered, Mapping};
/// let l = Layout::new([2, 3], [3, 1], 4)?.with_offset(1)?;
/// let low: Lowered<2> = l.lowered();
/// assert_eq!((low.shape, low.strides, low.offset, low.interleave), ([2, 3], [3, 1], 1, None));
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Lowered<const N: usize> {
    /// Extent of each axis.
    pub shape: [usize; N],
    /// Stride of each axis in elements; at the interleaved axis, the stride of one block.
    pub strides: [isize; N],
    /// Offset of index `[0; N]`, in elements.
    pub offset: isize,
    /// Bytes per element (a power of two). The kernels check it against the element type
    /// first ([`LayoutError::ItemsizeMismatch`](crate::LayoutError::ItemsizeMismatch) unless it
    /// is `size_of::<T>()` of the slice the operand comes with), and the planner sizes its
    /// tiles from it.
    pub itemsize: usize,
    /// `Some((dimension, factor))`: axis `dimension` is split into blocks of `factor`
    /// consecutive elements (`dimension < N`, `factor >= 1`).
    pub interleave: Option<(usize, usize)>,
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
/// - **Well-formed**: `interleave`, when `Some((d, f))`, has `d < N` and `f >= 1`; `itemsize`
///   is the element size of the slices the operand is used with (the kernels refuse the call
///   with [`LayoutError::ItemsizeMismatch`](crate::LayoutError::ItemsizeMismatch) otherwise,
///   and size their tiles from it).
/// - **Pure**: `lowered()` returns the same value for the same `self`, without side effects.
///
/// What the kernels check on every `Lowered`, before any element moves, whoever built it:
///
/// | check | error |
/// | --- | --- |
/// | the operands' shapes are equal | [`LayoutError::ShapeMismatch`](crate::LayoutError::ShapeMismatch) |
/// | an interleave's axis is `< N`, its factor `>= 1`, and the operands' interleaves cut the shape into at most [`MAX_NESTS`](crate::plan::MAX_NESTS) strided pieces | [`AxisOutOfRange`](crate::LayoutError::AxisOutOfRange), [`FactorZero`](crate::LayoutError::FactorZero), [`InterleaveConflict`](crate::LayoutError::InterleaveConflict) |
/// | every offset and stride the plan computes fits `isize` (checked arithmetic) | [`OffsetOverflow`](crate::LayoutError::OffsetOverflow) |
/// | the merged loops fit [`MAX_LOOPS`](crate::plan::MAX_LOOPS) | [`RankOverflow`](crate::LayoutError::RankOverflow) |
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
    /// use strided_layout::plan::Mapping;
    /// // Generic code reads any operand through its lowered form.
    /// fn innermost_stride<const N: usize>(m: &impl Mapping<N>) -> Option<isize> {
    ///     m.lowered().strides.last().copied()
    /// }
    /// let hwc = InterleavedLayout::dense([3, 2, 2], 1, InterleaveLayout::new(0, 3)?)?;
    /// assert_eq!(innermost_stride(&hwc), Some(3));
    /// assert_eq!(hwc.lowered().interleave, Some((0, 3)));
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
    /// assert_eq!((LOW.shape, LOW.strides, LOW.interleave), ([3], [2], None));
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn lowered(&self) -> Lowered<N> {
        Lowered {
            shape: self.shape,
            strides: self.strides,
            offset: self.offset,
            itemsize: self.itemsize,
            interleave: None,
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
    /// assert_eq!(il.lowered().interleave, Some((0, 2)));
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
            interleave: Some((il.dimension(), il.factor())),
        }
    }
}

impl<const N: usize> Mapping<N> for Lowered<N> {
    fn lowered(&self) -> Lowered<N> {
        *self
    }
}
