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
/// use strided_layout::{Layout, LayoutError, Lowered, Mapping};
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
    /// Bytes per element (a power of two); the kernels read it only to size their tiles.
    pub itemsize: usize,
    /// `Some((dimension, factor))`: axis `dimension` is split into blocks of `factor`
    /// consecutive elements (`dimension < N`, `factor >= 1`).
    pub interleave: Option<(usize, usize)>,
}

/// A layout the kernels can read or write: anything that lowers to [`Lowered`].
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Mapping, Order};
/// let l = Layout::dense([2, 3], 4, Order::F)?;
/// assert_eq!(l.lowered().strides, [1, 2]);
/// # Ok::<(), LayoutError>(())
/// ```
pub trait Mapping<const N: usize> {
    /// The lowered form; the implementor guarantees it keeps the invariants of `Layout`
    /// (every reachable offset and its byte offset fit `isize`).
    fn lowered(&self) -> Lowered<N>;
}

impl<const N: usize> Layout<N> {
    /// This layout's [`Lowered`] form; the `const` twin of [`Mapping::lowered`], for prepared
    /// plans built at compile time.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Lowered};
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
