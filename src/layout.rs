//! [`Layout<N>`]: the value type (shape, strides, offset, itemsize), its invariants,
//! constructors and plain accessors.

use crate::algo::checked::{to_isize, tri, volume};
use crate::algo::dense::{AxisWalk, fill_dense_strides};
use crate::algo::offset::validate;
use crate::algo::parts::Parts;
use crate::{LayoutError, Order};

/// How a rank-`N` tensor lies in a linear buffer: index `[i0, .., i(N-1)]` lives at element
/// offset `offset + Σ i_k · strides[k]`.
///
/// Strides and the offset are signed and counted in elements; `itemsize` (bytes, a power of
/// two) converts them to bytes. Extent-0 and extent-1 axes, zero strides (broadcast), negative
/// strides (flips) and overlapping layouts are all legal; the queries say which properties
/// hold. Every value keeps three invariants, checked once when it is built:
///
/// 1. `itemsize` is a power of two, at least 1;
/// 2. the volume (product of the extents) fits `usize`;
/// 3. every element offset, the base offset and every stride fit `isize`, in elements and in
///    bytes (so pointer arithmetic on any element is sound and later math cannot overflow).
///
/// A value that would break one is never built: the constructor or transform returns a
/// [`LayoutError`]. `Layout` is `Copy`; transforms take `self` and return a new value.
///
/// ```text
/// Layout::new([2, 3], [3, 1], 4)          (2,3):(3,1) x4B
///   offsets       0 1 2
///                 3 4 5
/// ```
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order};
/// let l = Layout::dense([2, 3], 4, Order::C)?;
/// assert_eq!((l.shape(), l.strides(), l.itemsize()), ([2, 3], [3, 1], 4));
/// assert_eq!(l.offset_of([1, 2])?, 5);
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Layout<const N: usize> {
    pub(crate) shape: [usize; N],
    pub(crate) strides: [isize; N],
    pub(crate) offset: isize,
    pub(crate) itemsize: usize,
}

impl<const N: usize> Layout<N> {
    /// The length-checked view every `algo` function takes: the only way from a `Layout` to
    /// the algorithms.
    pub(crate) const fn parts(&self) -> Parts<'_> {
        Parts::from_arrays(&self.shape, &self.strides, self.offset, self.itemsize)
    }

    /// Builds a layout from all four parts, checking the invariants: the checked way in for
    /// constructors and transforms. Transforms that provably keep the invariants take
    /// `from_valid_parts` (and its crate-internal siblings) instead, and
    /// [`DynLayout::to_layout`](crate::DynLayout::to_layout) copies a valid layout's parts.
    ///
    /// Unlike [`new`](Layout::new) followed by [`with_offset`](Layout::with_offset), it
    /// accepts a layout whose offsets fit `isize` only thanks to its offset (a view that walks
    /// backwards from near the top of the address range).
    ///
    /// ```text
    /// from_parts([4], [-2^61], 2^61, 2)    offsets 2^61, 0, -2^61, -2^62 (bytes fit isize)
    /// new([4], [-2^61], 2)                 offsets 0 .. -3·2^61: bytes overflow
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::ItemsizeNotPowerOfTwo`] if `itemsize` is 0 or not a power of two;
    /// - [`LayoutError::VolumeOverflow`] if the product of the extents overflows `usize`;
    /// - [`LayoutError::OffsetOverflow`] if a stride, the offset or an element offset, in
    ///   elements or bytes, overflows `isize`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError};
    /// let top = Layout::from_parts([4], [-(1 << 61)], 1 << 61, 2)?;
    /// assert_eq!(top.offset_bounds(), Some((-(1 << 62), 1 << 61)));
    /// assert_eq!(Layout::new([4], [-(1 << 61)], 2), Err(LayoutError::OffsetOverflow));
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn from_parts(
        shape: [usize; N],
        strides: [isize; N],
        offset: isize,
        itemsize: usize,
    ) -> Result<Self, LayoutError> {
        const { assert!(N <= 64, "Layout<N>: the rank N must be at most 64") };
        tri!(validate(Parts::from_arrays(
            &shape, &strides, offset, itemsize
        )));
        Ok(Self {
            shape,
            strides,
            offset,
            itemsize,
        })
    }

    /// Builds a layout from parts that already keep the invariants, without re-checking them.
    ///
    /// For transforms that provably keep them (each call site says why): a permutation of
    /// the axes, a subset of the elements, or a dropped axis leaves every offset one of a
    /// valid layout's, and every stride one it had.
    pub(crate) const fn from_valid_parts(
        shape: [usize; N],
        strides: [isize; N],
        offset: isize,
        itemsize: usize,
    ) -> Self {
        Self {
            shape,
            strides,
            offset,
            itemsize,
        }
    }

    /// Builds a layout whose element offsets are all offsets of a valid layout (the same
    /// elements re-indexed, or a subset of them, or none with an offset that fits in bytes),
    /// checking only what that does not imply: every stride fits `isize` in bytes.
    ///
    /// For `reshaped`, `split_axis`, `unsqueezed` and `sliced`: a new stride is a distance
    /// between two of the source's offsets (which can exceed `isize::MAX` bytes) or an
    /// invented stride of an extent-1 axis. O(N) multiplications instead of `from_parts`'
    /// full bounds computation.
    pub(crate) const fn from_same_offsets(
        shape: [usize; N],
        strides: [isize; N],
        offset: isize,
        itemsize: usize,
    ) -> Result<Self, LayoutError> {
        let item = tri!(to_isize(itemsize));
        let mut rest: &[isize] = &strides;
        while let [s, tail @ ..] = rest {
            if s.checked_mul(item).is_none() {
                return Err(LayoutError::OffsetOverflow);
            }
            rest = tail;
        }
        Ok(Self::from_valid_parts(shape, strides, offset, itemsize))
    }

    /// Builds a layout from a shape, element strides and an itemsize in bytes, with offset 0.
    ///
    /// Shape and strides are stored as given (extent-0 and extent-1 axes keep their strides).
    ///
    /// ```text
    /// Layout::new([2, 3], [1, 2], 1)          (2,3):(1,2)
    ///   offsets       0 2 4
    ///                 1 3 5
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::ItemsizeNotPowerOfTwo`] if `itemsize` is 0 or not a power of two;
    /// - [`LayoutError::VolumeOverflow`] if the product of the extents overflows `usize`;
    /// - [`LayoutError::OffsetOverflow`] if a stride or an element offset, in elements or
    ///   bytes, overflows `isize`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError};
    /// let l = Layout::new([2, 3], [1, 2], 8)?;
    /// assert_eq!(l.strides_in_bytes(), [8, 16]);
    /// assert_eq!(Layout::new([2], [1], 6), Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: 6 }));
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn new(
        shape: [usize; N],
        strides: [isize; N],
        itemsize: usize,
    ) -> Result<Self, LayoutError> {
        Self::from_parts(shape, strides, 0, itemsize)
    }

    /// Returns this layout with its offset (the offset of index `[0; N]`, in elements) set to
    /// `offset`; it replaces the old offset, it does not add to it.
    ///
    /// ```text
    /// (2,2):(2,1) +0            with_offset(3) -> (2,2):(2,1) +3
    ///  0 1                       3 4
    ///  2 3                       5 6
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::OffsetOverflow`] if an element offset, in elements or bytes,
    ///   overflows `isize`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([2, 2], 4, Order::C)?.with_offset(3)?;
    /// assert_eq!((l.offset(), l.offset_in_bytes(), l.offset_of([1, 1])?), (3, 12, 6));
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn with_offset(self, offset: isize) -> Result<Self, LayoutError> {
        Self::from_parts(self.shape, self.strides, offset, self.itemsize)
    }

    /// Builds a layout from strides in bytes (as `NumPy` and C APIs report them),
    /// dividing each by `itemsize`.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::ItemsizeNotPowerOfTwo`] if `itemsize` is 0 or not a power of two;
    /// - [`LayoutError::StrideNotMultipleOfItemsize`] if a byte stride is not a multiple of
    ///   `itemsize`;
    /// - [`LayoutError::VolumeOverflow`], [`LayoutError::OffsetOverflow`] as for [`Layout::new`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError};
    /// let l = Layout::from_byte_strides([2, 3], [24, 8], 8)?;
    /// assert_eq!(l.strides(), [3, 1]);
    /// assert_eq!(
    ///     Layout::from_byte_strides([2], [6], 4),
    ///     Err(LayoutError::StrideNotMultipleOfItemsize { axis: 0 })
    /// );
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[expect(
        clippy::indexing_slicing,
        clippy::arithmetic_side_effects,
        reason = "Indexing and the loop counter are bounded by `i < N`."
    )]
    pub const fn from_byte_strides(
        shape: [usize; N],
        byte_strides: [isize; N],
        itemsize: usize,
    ) -> Result<Self, LayoutError> {
        if !itemsize.is_power_of_two() {
            return Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize });
        }
        let item = tri!(to_isize(itemsize));
        let mut strides = [0isize; N];
        let mut i = 0;
        while i < N {
            // `item >= 1`, so neither division can fail; the checked forms leave no panic
            // path at any optimisation level (at opt-level 1 LLVM keeps the `%` check).
            match (
                byte_strides[i].checked_rem(item),
                byte_strides[i].checked_div(item),
            ) {
                (Some(0), Some(quot)) => strides[i] = quot,
                _ => return Err(LayoutError::StrideNotMultipleOfItemsize { axis: i }),
            }
            i += 1;
        }
        Self::from_parts(shape, strides, 0, itemsize)
    }

    /// Builds a dense layout (offset 0, every element at a distinct offset in `0..volume`)
    /// with strides in the given order.
    ///
    /// ```text
    /// dense([2, 3], _, C) -> (2,3):(3,1)    dense([2, 3], _, F) -> (2,3):(1,2)
    ///   0 1 2                                 0 2 4
    ///   3 4 5                                 1 3 5
    /// ```
    ///
    /// Following cuda.core, a shape with an extent-0 axis gets all-zero strides.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::ItemsizeNotPowerOfTwo`] if `itemsize` is 0 or not a power of two;
    /// - [`LayoutError::KeepOrderWithoutSource`] for [`Order::Keep`];
    /// - [`LayoutError::NotAPermutation`] if an [`Order::Perm`] is not a permutation of `0..N`;
    /// - [`LayoutError::VolumeOverflow`], [`LayoutError::OffsetOverflow`] if the shape is too
    ///   large for `usize` elements or `isize` offsets in bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// assert_eq!(Layout::dense([5, 3, 7], 1, Order::C)?.strides(), [21, 7, 1]);
    /// assert_eq!(Layout::dense([5, 3, 7], 1, Order::F)?.strides(), [1, 5, 15]);
    /// assert_eq!(Layout::dense([5, 3, 7], 1, Order::Perm([2, 0, 1]))?.strides(), [3, 1, 15]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn dense(
        shape: [usize; N],
        itemsize: usize,
        order: Order<N>,
    ) -> Result<Self, LayoutError> {
        if !itemsize.is_power_of_two() {
            return Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize });
        }
        let mut strides = [0isize; N];
        let walk = match order {
            Order::C => AxisWalk::C,
            Order::F => AxisWalk::F,
            Order::Perm(ref p) => AxisWalk::Perm(p),
            Order::Keep => return Err(LayoutError::KeepOrderWithoutSource),
        };
        tri!(fill_dense_strides(&shape, walk, &mut strides));
        Self::from_parts(shape, strides, 0, itemsize)
    }

    /// Builds a dense layout with the shape and itemsize of `other`, strides in `order`
    /// ([`Order::Keep`] keeps `other`'s [`stride_order`](Layout::stride_order)), offset 0.
    ///
    /// ```text
    /// other (3,2):(1,3)                dense_like(other, Keep) -> (3,2):(1,3)
    ///   0 3                            dense_like(other, C)    -> (3,2):(2,1)
    ///   1 4
    ///   2 5
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::NotAPermutation`] if an [`Order::Perm`] is not a permutation of `0..N`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([5, 3, 7], 1, Order::C)?.permuted([2, 0, 1])?;
    /// assert_eq!(l.strides(), [1, 21, 7]);
    /// assert_eq!(Layout::dense_like(&l, Order::Keep)?, l);
    /// assert_eq!(Layout::dense_like(&l, Order::C)?.strides(), [15, 3, 1]);
    /// assert_eq!(Layout::dense_like(&l, Order::F)?.strides(), [1, 7, 35]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn dense_like(other: &Layout<N>, order: Order<N>) -> Result<Self, LayoutError> {
        let order = match order {
            Order::Keep => Order::Perm(other.stride_order()),
            o => o,
        };
        Self::dense(other.shape, other.itemsize, order)
    }

    /// The extents, one per axis.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// assert_eq!(Layout::dense([2, 3], 1, Order::C)?.shape(), [2, 3]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn shape(&self) -> [usize; N] {
        self.shape
    }

    /// The strides, in elements, one per axis.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// assert_eq!(Layout::dense([2, 3], 1, Order::C)?.strides(), [3, 1]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn strides(&self) -> [isize; N] {
        self.strides
    }

    /// The size of one element, in bytes (a power of two).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// assert_eq!(Layout::dense([2, 3], 4, Order::C)?.itemsize(), 4);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn itemsize(&self) -> usize {
        self.itemsize
    }

    /// The offset of index `[0; N]`, in elements (cuda.core's `slice_offset`).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// assert_eq!(Layout::dense([4], 2, Order::C)?.with_offset(3)?.offset(), 3);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn offset(&self) -> isize {
        self.offset
    }

    /// The offset of index `[0; N]`, in bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// assert_eq!(Layout::dense([4], 2, Order::C)?.with_offset(3)?.offset_in_bytes(), 6);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn offset_in_bytes(&self) -> isize {
        #[expect(
            clippy::arithmetic_side_effects,
            clippy::cast_possible_wrap,
            reason = "Invariant 3: `offset * itemsize` fits `isize` (checked at construction), and the itemsize, a power of two whose byte product fits, fits `isize` too."
        )]
        let bytes = self.offset * self.itemsize as isize;
        bytes
    }

    /// The strides in bytes, one per axis.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// assert_eq!(Layout::dense([2, 3], 4, Order::C)?.strides_in_bytes(), [12, 4]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    #[expect(
        clippy::indexing_slicing,
        clippy::arithmetic_side_effects,
        reason = "Indexing and the loop counter are bounded by `i < N`; see the product's proof below."
    )]
    pub const fn strides_in_bytes(&self) -> [isize; N] {
        let mut out = [0isize; N];
        let mut i = 0;
        while i < N {
            #[expect(
                clippy::cast_possible_wrap,
                reason = "Invariant 3: every `stride * itemsize` fits `isize` (checked at construction)."
            )]
            let b = self.strides[i] * self.itemsize as isize;
            out[i] = b;
            i += 1;
        }
        out
    }

    /// The rank, `N`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// assert_eq!(Layout::dense([2, 3, 4], 1, Order::C)?.ndim(), 3);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn ndim(&self) -> usize {
        N
    }

    /// The number of elements: the product of the extents (1 for rank 0).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// assert_eq!(Layout::dense([2, 3, 4], 1, Order::C)?.volume(), 24);
    /// assert_eq!(Layout::dense([2, 0, 4], 1, Order::C)?.volume(), 0);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn volume(&self) -> usize {
        match volume(&self.shape) {
            Ok(v) => v,
            // Invariant 2: the volume was checked to fit at construction.
            Err(_) => 0,
        }
    }
}

// A layout is plain data: copied freely, shared across threads, usable as a map key.
const _: () = {
    const fn plain_data<T: Copy + Send + Sync + Eq + core::hash::Hash>() {}
    plain_data::<Layout<4>>();
};
