//! [`InterleavedLayout<N>`]: a layout with one axis stored in blocks; its invariants,
//! constructors, accessors and `offset_of`.

#[cfg(doc)]
use crate::Layout;
use crate::algo::access::{get, set};
use crate::algo::checked::{mul, to_isize, tri, volume};
use crate::algo::interleave::{bounds, offset_of};
use crate::algo::offset::validate;
use crate::algo::parts::Parts;
use crate::{InterleaveLayout, LayoutError};

/// A layout with one axis stored in blocks of `factor` consecutive elements (the semantics of
/// Apple Core AI's `NDArray.InterleaveLayout`); the spec it carries, which axis and what
/// factor, is an [`InterleaveLayout`].
///
/// With `(d, f)` the spec's dimension and factor, index `i` lives at element offset
///
/// ```text
/// offset + (i_d / f) * strides[d] + (i_d % f) + Σ_{k != d} i_k * strides[k]
/// ```
///
/// so `strides[d]` is the *block stride* (the distance between blocks), and inside a block
/// consecutive `i_d` are consecutive elements. `f` need not divide `shape[d]`: the last
/// block is then partial and its unused slots are padding (counted by
/// [`required_size_in_bytes`](InterleavedLayout::required_size_in_bytes)).
///
/// It keeps the three invariants of [`Layout`] (power-of-two itemsize; volume fits `usize`;
/// every element offset, the offset and every stride fit `isize` in elements and in bytes),
/// plus `d < N`, checked once when it is built.
///
/// ```text
/// (2,4):(2,4) il(1,2): rows 2 apart, blocks of 2 columns 4 apart
///   0 1 4 5
///   2 3 6 7
/// ```
///
/// # Examples
///
/// ```
/// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
/// let il = InterleaveLayout::new(1, 2)?;
/// let l = InterleavedLayout::new([2, 4], [2, 4], 4, il)?;
/// assert_eq!(l.offset_of([1, 3])?, 2 + 4 + 1);
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct InterleavedLayout<const N: usize> {
    pub(crate) shape: [usize; N],
    pub(crate) strides: [isize; N],
    pub(crate) offset: isize,
    pub(crate) itemsize: usize,
    pub(crate) interleave: InterleaveLayout,
}

impl<const N: usize> InterleavedLayout<N> {
    /// The one length-checked view of this layout's parts (its interleave aside).
    pub(crate) const fn parts(&self) -> Parts<'_> {
        Parts::from_arrays(&self.shape, &self.strides, self.offset, self.itemsize)
    }
}

impl<const N: usize> InterleavedLayout<N> {
    /// Builds an interleaved layout from all its parts, checking the invariants; every
    /// public constructor and transform of `InterleavedLayout` ends here.
    pub(crate) const fn from_parts(
        shape: [usize; N],
        strides: [isize; N],
        offset: isize,
        itemsize: usize,
        interleave: InterleaveLayout,
    ) -> Result<Self, LayoutError> {
        let d = interleave.dimension();
        if d >= N {
            return Err(LayoutError::AxisOutOfRange { axis: d, ndim: N });
        }
        if !itemsize.is_power_of_two() {
            return Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize });
        }
        tri!(volume(&shape));
        // Itemsize, offset and strides in bytes, and the other axes' offsets: `Layout`'s
        // check with axis `d` shrunk to one element (or kept empty).
        let mut reduced = shape;
        if let Some(e) = get(&shape, d) {
            if e > 1 {
                set(&mut reduced, d, 1);
            }
        }
        tri!(validate(Parts::from_arrays(
            &reduced, &strides, offset, itemsize
        )));
        // Every element offset lies between the bounds, so checking both in bytes checks all.
        let whole = Parts::from_arrays(&shape, &strides, offset, itemsize);
        if let Some((lo, hi)) = tri!(bounds(whole, interleave)) {
            let item = tri!(to_isize(itemsize));
            tri!(mul(lo, item));
            tri!(mul(hi, item));
        }
        Ok(Self {
            shape,
            strides,
            offset,
            itemsize,
            interleave,
        })
    }

    /// Builds an interleaved layout from a shape, element strides (the block stride on the
    /// interleaved axis), an itemsize in bytes and the interleave spec, with offset 0.
    ///
    /// ```text
    /// new([2, 4], [2, 4], _, il(1, 2))     new([2, 3], [2, 4], _, il(1, 2))
    ///   0 1 4 5                              0 1 4     (partial last block:
    ///   2 3 6 7                              2 3 6      slots 5 and 7 unused)
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::AxisOutOfRange`] if `interleave.dimension() >= N`;
    /// - [`LayoutError::ItemsizeNotPowerOfTwo`] if `itemsize` is 0 or not a power of two;
    /// - [`LayoutError::VolumeOverflow`] if the product of the extents overflows `usize`;
    /// - [`LayoutError::OffsetOverflow`] if a stride or an element offset, in elements or
    ///   bytes, overflows `isize`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let il = InterleaveLayout::new(1, 2)?;
    /// let l = InterleavedLayout::new([2, 3], [2, 4], 4, il)?;
    /// assert_eq!(l.offset_bounds(), Some((0, 6)));
    /// assert_eq!(
    ///     InterleavedLayout::new([2, 3], [2, 4], 4, InterleaveLayout::new(2, 2)?),
    ///     Err(LayoutError::AxisOutOfRange { axis: 2, ndim: 2 })
    /// );
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn new(
        shape: [usize; N],
        strides: [isize; N],
        itemsize: usize,
        interleave: InterleaveLayout,
    ) -> Result<Self, LayoutError> {
        Self::from_parts(shape, strides, 0, itemsize, interleave)
    }

    /// Returns this layout with its offset (of index `[0; N]`, in elements) set to `offset`.
    ///
    /// ```text
    /// (2,4):(4,2) il(1,2) +0    with_offset(8) -> (2,4):(4,2) il(1,2) +8
    ///  0 1 2 3                   8  9 10 11
    ///  4 5 6 7                  12 13 14 15
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
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let l = InterleavedLayout::dense([4], 1, InterleaveLayout::new(0, 2)?)?.with_offset(8)?;
    /// assert_eq!(l.offset_of([3])?, 8 + 2 + 1);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn with_offset(self, offset: isize) -> Result<Self, LayoutError> {
        Self::from_parts(
            self.shape,
            self.strides,
            offset,
            self.itemsize,
            self.interleave,
        )
    }

    /// Builds a dense interleaved layout: the factor-sized block innermost, then the other
    /// axes in C order, with the block index of the interleaved axis in that axis's place.
    ///
    /// The strides are those of `Layout::dense` (C order) on the shape with axis `d` split
    /// into `(ceil(e_d / f), f)`, without the last. When `f` does not divide `e_d` the last
    /// block keeps all `f` slots, the unused ones padding. An extent-0 shape gets all-zero
    /// strides, as [`Layout::dense`] does.
    ///
    /// ```text
    /// dense([3, 2, 2], _, il(0, 3))  (CHW stored HWC): (3,2,2):(12,6,3)
    ///   channel 0:  0  3     channel 1:  1  4     channel 2:  2  5
    ///               6  9                 7 10                 8 11
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::AxisOutOfRange`] if `interleave.dimension() >= N`;
    /// - [`LayoutError::ItemsizeNotPowerOfTwo`] if `itemsize` is 0 or not a power of two;
    /// - [`LayoutError::VolumeOverflow`], [`LayoutError::OffsetOverflow`] if the padded shape
    ///   is too large for `usize` elements or `isize` offsets in bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let l = InterleavedLayout::dense([8, 256, 256], 4, InterleaveLayout::new(0, 4)?)?;
    /// assert_eq!(l.strides(), [262144, 1024, 4]);
    /// assert!(l.is_dense());
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `is_dense()` when `f` divides `shape[d]`; `to_strided()` is then `Layout::dense(.., C)`
    pub const fn dense(
        shape: [usize; N],
        itemsize: usize,
        interleave: InterleaveLayout,
    ) -> Result<Self, LayoutError> {
        let (d, f) = (interleave.dimension(), interleave.factor());
        if d >= N {
            return Err(LayoutError::AxisOutOfRange { axis: d, ndim: N });
        }
        if !itemsize.is_power_of_two() {
            return Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize });
        }
        // C-order dense strides of the split shape, innermost (the block, stride 1) first.
        let mut strides = [0isize; N];
        let mut acc: isize = tri!(to_isize(f));
        let empty = tri!(volume(&shape)) == 0;
        let mut k = N;
        while let Some(prev) = k.checked_sub(1) {
            k = prev;
            set(&mut strides, k, if empty { 0 } else { acc });
            if k == 0 {
                // The outermost axis's extent scales no stride: multiplying by it could
                // overflow on a layout that `new` builds.
                break;
            }
            let extent = match get(&shape, k) {
                Some(x) => x,
                None => 1,
            };
            let e = if k == d {
                interleave.blocks(extent)
            } else {
                extent
            };
            acc = tri!(mul(acc, tri!(to_isize(e))));
        }
        Self::from_parts(shape, strides, 0, itemsize, interleave)
    }

    /// The extents.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let l = InterleavedLayout::dense([3, 4], 1, InterleaveLayout::new(0, 3)?)?;
    /// assert_eq!(l.shape(), [3, 4]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn shape(&self) -> [usize; N] {
        self.shape
    }

    /// The element strides; `strides()[d]` is the block stride of the interleaved axis.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let l = InterleavedLayout::dense([3, 4], 1, InterleaveLayout::new(0, 3)?)?;
    /// assert_eq!(l.strides(), [12, 3]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn strides(&self) -> [isize; N] {
        self.strides
    }

    /// The offset of index `[0; N]`, in elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let l = InterleavedLayout::dense([4], 1, InterleaveLayout::new(0, 2)?)?;
    /// assert_eq!(l.offset(), 0);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn offset(&self) -> isize {
        self.offset
    }

    /// Bytes per element, a power of two.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let l = InterleavedLayout::dense([4], 2, InterleaveLayout::new(0, 2)?)?;
    /// assert_eq!(l.itemsize(), 2);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn itemsize(&self) -> usize {
        self.itemsize
    }

    /// The interleave spec: which axis, how many elements per block.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let il = InterleaveLayout::new(0, 2)?;
    /// assert_eq!(InterleavedLayout::dense([4], 2, il)?.interleave(), il);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn interleave(&self) -> InterleaveLayout {
        self.interleave
    }

    /// The rank, `N`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// assert_eq!(InterleavedLayout::dense([4, 1], 2, InterleaveLayout::new(0, 2)?)?.ndim(), 2);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn ndim(&self) -> usize {
        N
    }

    /// The number of elements, the product of the extents (padding slots not counted).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let l = InterleavedLayout::dense([10, 3], 1, InterleaveLayout::new(0, 4)?)?;
    /// assert_eq!(l.volume(), 30);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn volume(&self) -> usize {
        // The volume fits `usize` (invariant 2), so this never takes the `Err` arm.
        match volume(&self.shape) {
            Ok(v) => v,
            Err(_) => 0,
        }
    }

    /// The element offset of `index`:
    /// `offset + (i_d / f) * strides[d] + i_d % f + Σ_{k != d} i_k * strides[k]`.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::IndexOutOfRange`] if `index[k] >= shape[k]` for some `k`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let l = InterleavedLayout::dense([8, 256, 256], 4, InterleaveLayout::new(0, 4)?)?;
    /// assert_eq!(l.offset_of([5, 1, 2])?, 262144 + 1 + 1024 + 2 * 4);
    /// assert_eq!(l.offset_of([8, 0, 0]), Err(LayoutError::IndexOutOfRange { axis: 0 }));
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn offset_of(&self, index: [usize; N]) -> Result<isize, LayoutError> {
        offset_of(self.parts(), self.interleave, &index)
    }

    /// Elements in the last block of the interleaved axis: `f` when `f` divides the extent
    /// (or the extent is 0), else `extent % f` (the partial block's used lanes).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let l = InterleavedLayout::dense([10], 1, InterleaveLayout::new(0, 4)?)?;
    /// assert_eq!(l.last_block_len(), 2);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn last_block_len(&self) -> usize {
        let (d, f) = (self.interleave.dimension(), self.interleave.factor());
        let extent = match get(&self.shape, d) {
            Some(e) => e,
            None => 0,
        };
        let (_, r) = self.interleave.split(extent);
        if r == 0 { f } else { r }
    }
}
