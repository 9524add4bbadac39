//! [`DynLayout<MAX>`]: a layout whose rank is known only at run time, bounded by `MAX`.
//!
//! | file | what it adds |
//! | --- | --- |
//! | `dyn_layout.rs` | the value type, its invariants, accessors and the queries of [`Layout`] (uniqueness exact or budgeted) |
//! | `bytes.rs` | byte offsets, the byte span, index-type fits, overlap (exact or budgeted), `From<Layout<N>>` |
//! | `transform.rs` | the same-rank transforms |
//! | `mapping.rs` | [`Mapping<MAX>`](crate::plan::Mapping): a `DynLayout` is a kernel operand, lowered behind leading unit axes |

use core::fmt;

use crate::algo::access::{get, set};
use crate::algo::checked::{tri, volume};
use crate::algo::contiguity::{flattened_axis_mask, is_contiguous_any, is_contiguous_in};
use crate::algo::offset::{bounds, offset_of, required_size, validate};
use crate::algo::parts::Parts;
use crate::algo::sort::stride_order;
use crate::algo::unique::is_unique;
use crate::fmt::write_layout;
use crate::{AxisMask, Layout, LayoutError, Verdict};

mod bytes;
mod transform;
mod mapping;

/// A layout of rank at most `MAX`, stored inline (no heap): what rank changes that depend on
/// the data ([`squeezed`](Layout::squeezed), [`flattened`](Layout::flattened), ...) return.
///
/// It keeps the same three invariants as [`Layout`] and converts back to a fixed rank with
/// [`to_layout`](DynLayout::to_layout) or `TryFrom`. Slots past the rank are always zero, so
/// the derived `Eq` and `Hash` compare only the live axes. It iterates like a `Layout`
/// (`offsets`, `indices`, `strided_blocks`, double-ended) and the kernels take it as an
/// operand ([`Mapping<MAX>`](crate::plan::Mapping)).
///
/// ```text
/// Layout (2,1,3):(3,3,1)   squeezed() -> DynLayout<3> rank 2: (2,3):(3,1)
/// ```
///
/// # Examples
///
/// ```
/// use strided_layout::{DynLayout, Layout, LayoutError, Order};
/// let d: DynLayout<3> = Layout::dense([2, 1, 3], 4, Order::C)?.squeezed();
/// assert_eq!((d.ndim(), d.shape(), d.strides()), (2, &[2, 3][..], &[3, 1][..]));
/// let l: Layout<2> = d.to_layout()?;
/// assert_eq!(l.shape(), [2, 3]);
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct DynLayout<const MAX: usize> {
    shape: [usize; MAX],
    strides: [isize; MAX],
    rank: usize,
    offset: isize,
    itemsize: usize,
}

impl<const MAX: usize> DynLayout<MAX> {
    /// Builds a bounded-rank layout from slices, checking the invariants (values known to
    /// keep them take `from_valid_parts` instead).
    pub(crate) const fn from_parts(
        shape: &[usize],
        strides: &[isize],
        offset: isize,
        itemsize: usize,
    ) -> Result<Self, LayoutError> {
        const { assert!(MAX <= 64, "DynLayout<MAX>: MAX must be at most 64") };
        let rank = shape.len();
        if rank > MAX {
            return Err(LayoutError::RankOverflow { max: MAX });
        }
        if strides.len() != rank {
            return Err(LayoutError::RankMismatch {
                expected: rank,
                found: strides.len(),
            });
        }
        tri!(validate(tri!(Parts::new(shape, strides, offset, itemsize))));
        Ok(Self::from_valid_parts(
            shape, strides, rank, offset, itemsize,
        ))
    }

    /// Copies the first `rank` axes of parts already known to keep the invariants (they come
    /// from a valid layout by dropping or merging axes without changing any offset).
    pub(crate) const fn from_valid_parts(
        shape: &[usize],
        strides: &[isize],
        rank: usize,
        offset: isize,
        itemsize: usize,
    ) -> Self {
        const { assert!(MAX <= 64, "DynLayout<MAX>: MAX must be at most 64") };
        let mut rank = if rank < MAX { rank } else { MAX };
        if rank > shape.len() {
            rank = shape.len();
        }
        if rank > strides.len() {
            rank = strides.len();
        }
        let mut out = Self {
            shape: [0; MAX],
            strides: [0; MAX],
            rank,
            offset,
            itemsize,
        };
        let mut i = 0;
        while i < rank {
            if let (Some(e), Some(st)) = (get(shape, i), get(strides, i)) {
                set(&mut out.shape, i, e);
                set(&mut out.strides, i, st);
            }
            i = i.saturating_add(1);
        }
        out
    }

    /// The length-checked view every `algo` function takes: the only way from a `DynLayout`
    /// to the algorithms.
    pub(crate) const fn parts(&self) -> Parts<'_> {
        Parts::prefix(
            &self.shape,
            &self.strides,
            self.rank,
            self.offset,
            self.itemsize,
        )
    }

    /// Builds a layout of rank `shape.len()` from slices of extents and element strides.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::RankOverflow`] if `shape.len() > MAX`;
    /// - [`LayoutError::RankMismatch`] if `strides.len() != shape.len()`;
    /// - [`LayoutError::ItemsizeNotPowerOfTwo`], [`LayoutError::VolumeOverflow`],
    ///   [`LayoutError::OffsetOverflow`] as for [`Layout::new`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// let d = DynLayout::<4>::new(&[2, 3], &[3, 1], 4)?;
    /// assert_eq!(d.ndim(), 2);
    /// assert_eq!(DynLayout::<1>::new(&[2, 3], &[3, 1], 4), Err(LayoutError::RankOverflow { max: 1 }));
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn new(
        shape: &[usize],
        strides: &[isize],
        itemsize: usize,
    ) -> Result<Self, LayoutError> {
        Self::from_parts(shape, strides, 0, itemsize)
    }

    /// Returns this layout with its offset (of index `[0, ..]`, in elements) set to `offset`.
    ///
    /// ```text
    /// (2,2):(2,1) +0            with_offset(5) -> (2,2):(2,1) +5
    ///  0 1                       5 6
    ///  2 3                       7 8
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
    /// use strided_layout::{DynLayout, LayoutError};
    /// let d = DynLayout::<4>::new(&[2], &[1], 4)?.with_offset(5)?;
    /// assert_eq!(d.offset(), 5);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn with_offset(self, offset: isize) -> Result<Self, LayoutError> {
        Self::from_parts(self.shape(), self.strides(), offset, self.itemsize)
    }

    /// Converts a fixed-rank layout (rank `N <= MAX`).
    ///
    /// # Errors
    ///
    /// - [`LayoutError::RankOverflow`] if `N > MAX`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, Layout, LayoutError, Order};
    /// let l = Layout::dense([2, 3], 4, Order::C)?;
    /// assert_eq!(DynLayout::<4>::from_layout(&l)?.shape(), &[2, 3]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn from_layout<const N: usize>(layout: &Layout<N>) -> Result<Self, LayoutError> {
        if N > MAX {
            return Err(LayoutError::RankOverflow { max: MAX });
        }
        // A `Layout` already keeps the invariants: copy, don't validate again.
        Ok(Self::from_valid_parts(
            &layout.shape,
            &layout.strides,
            N,
            layout.offset,
            layout.itemsize,
        ))
    }

    /// Converts to a fixed-rank `Layout<M>`; the rank must be exactly `M`.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::RankMismatch`] if `self.ndim() != M`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, Layout, LayoutError};
    /// let d = DynLayout::<4>::new(&[2, 3], &[3, 1], 4)?;
    /// let l: Layout<2> = d.to_layout()?;
    /// assert_eq!(l.strides(), [3, 1]);
    /// assert_eq!(d.to_layout::<3>(), Err(LayoutError::RankMismatch { expected: 3, found: 2 }));
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[expect(
        clippy::indexing_slicing,
        clippy::arithmetic_side_effects,
        reason = "Indexing and the loop counter are bounded by `i < M == self.rank <= MAX`."
    )]
    pub const fn to_layout<const M: usize>(&self) -> Result<Layout<M>, LayoutError> {
        const { assert!(M <= 64, "Layout<M>: the rank M must be at most 64") };
        if self.rank != M {
            return Err(LayoutError::RankMismatch {
                expected: M,
                found: self.rank,
            });
        }
        let mut shape = [0usize; M];
        let mut strides = [0isize; M];
        let mut i = 0;
        while i < M {
            shape[i] = self.shape[i];
            strides[i] = self.strides[i];
            i += 1;
        }
        // `self` keeps the invariants, and the axes are the same: no validation needed.
        Ok(Layout {
            shape,
            strides,
            offset: self.offset,
            itemsize: self.itemsize,
        })
    }

    /// The rank (number of axes), at most `MAX`; the same name as [`Layout::ndim`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// assert_eq!(DynLayout::<4>::new(&[2, 3], &[3, 1], 1)?.ndim(), 2);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn ndim(&self) -> usize {
        self.rank
    }

    /// The rank; the same as [`ndim`](DynLayout::ndim), the name [`Layout`] uses.
    ///
    /// External conformance tests call `rank()` on `DynLayout` (`tests/api_names.rs` lists
    /// the names they call), so it stays, undeprecated; new code can use `ndim()` on both types.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// assert_eq!(DynLayout::<4>::new(&[2, 3], &[3, 1], 1)?.rank(), 2);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn rank(&self) -> usize {
        self.rank
    }

    /// The extents of the live axes.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// assert_eq!(DynLayout::<4>::new(&[2, 3], &[3, 1], 1)?.shape(), &[2, 3]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn shape(&self) -> &[usize] {
        match self.shape.split_at_checked(self.rank) {
            Some((live, _)) => live,
            // `rank <= MAX` is kept by every constructor.
            None => &self.shape,
        }
    }

    /// The strides of the live axes, in elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// assert_eq!(DynLayout::<4>::new(&[2, 3], &[3, 1], 1)?.strides(), &[3, 1]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn strides(&self) -> &[isize] {
        match self.strides.split_at_checked(self.rank) {
            Some((live, _)) => live,
            // `rank <= MAX` is kept by every constructor.
            None => &self.strides,
        }
    }

    /// The size of one element, in bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// assert_eq!(DynLayout::<4>::new(&[2], &[1], 8)?.itemsize(), 8);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn itemsize(&self) -> usize {
        self.itemsize
    }

    /// The offset of index `[0, ..]`, in elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// assert_eq!(DynLayout::<4>::new(&[2], &[1], 8)?.offset(), 0);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn offset(&self) -> isize {
        self.offset
    }

    /// The number of elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// assert_eq!(DynLayout::<4>::new(&[2, 3], &[3, 1], 1)?.volume(), 6);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn volume(&self) -> usize {
        match volume(self.shape()) {
            Ok(v) => v,
            // Invariant 2 holds for every constructed value.
            Err(_) => 0,
        }
    }

    /// The smallest and largest element offsets, `None` when the volume is 0.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// assert_eq!(DynLayout::<4>::new(&[2, 3], &[-3, 1], 1)?.offset_bounds(), Some((-3, 2)));
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn offset_bounds(&self) -> Option<(isize, isize)> {
        match bounds(self.parts()) {
            Ok(b) => b,
            // Invariant 3: the bounds were computed without overflow at construction.
            Err(_) => None,
        }
    }
}

/// The queries of [`Layout`], answered by the same slice-level algorithms.
impl<const MAX: usize> DynLayout<MAX> {
    /// The bytes a buffer starting at offset 0 needs: `(max offset + 1) * itemsize`, 0 when
    /// empty (as [`Layout::required_size_in_bytes`]).
    ///
    /// # Errors
    ///
    /// - [`LayoutError::NegativeOffset`] if some element lies below offset 0.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// assert_eq!(DynLayout::<4>::new(&[2, 3], &[3, 1], 4)?.required_size_in_bytes()?, 24);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn required_size_in_bytes(&self) -> Result<usize, LayoutError> {
        required_size(self.parts())
    }

    /// The element offset of `index` (as [`Layout::offset_of`]).
    ///
    /// # Errors
    ///
    /// - [`LayoutError::RankMismatch`] if `index.len() != self.ndim()`;
    /// - [`LayoutError::IndexOutOfRange`] if an index reaches its extent.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// let d = DynLayout::<4>::new(&[2, 3], &[3, 1], 4)?;
    /// assert_eq!(d.offset_of(&[1, 2])?, 5);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn offset_of(&self, index: &[usize]) -> Result<isize, LayoutError> {
        offset_of(self.parts(), index)
    }

    /// Whether C index order visits `offset, offset + 1, ..` (as [`Layout::is_contiguous_c`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// assert!(DynLayout::<4>::new(&[2, 3], &[3, 1], 4)?.is_contiguous_c());
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn is_contiguous_c(&self) -> bool {
        is_contiguous_in(self.parts(), false)
    }

    /// Whether F index order visits `offset, offset + 1, ..` (as [`Layout::is_contiguous_f`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// assert!(DynLayout::<4>::new(&[2, 3], &[1, 2], 4)?.is_contiguous_f());
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn is_contiguous_f(&self) -> bool {
        is_contiguous_in(self.parts(), true)
    }

    /// Whether some axis order is contiguous (as [`Layout::is_contiguous_any`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// assert!(DynLayout::<4>::new(&[2, 3, 4], &[4, 8, 1], 4)?.is_contiguous_any());
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn is_contiguous_any(&self) -> bool {
        is_contiguous_any(self.parts())
    }

    /// Whether the elements fill exactly `0..volume` (as [`Layout::is_dense`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// assert!(DynLayout::<4>::new(&[2, 3], &[3, 1], 4)?.is_dense());
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn is_dense(&self) -> bool {
        self.offset == 0 && self.is_contiguous_any()
    }

    /// Whether no two indices share an offset, exactly (as [`Layout::is_unique`], same cost).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// assert!(DynLayout::<4>::new(&[3, 3], &[3, 4], 4)?.is_unique());
    /// assert!(!DynLayout::<4>::new(&[3, 3], &[2, 1], 4)?.is_unique());
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn is_unique(&self) -> bool {
        // An unbounded budget always answers.
        matches!(self.is_unique_within(u64::MAX), Verdict::Yes)
    }

    /// Whether no two distinct indices map to the same offset, deciding with at most
    /// `budget` search steps (as [`Layout::is_unique_within`], same budget bound);
    /// [`Verdict::Unknown`] when that is not enough.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError, Verdict};
    /// let d = DynLayout::<6>::new(&[2; 6], &[1001, 1003, 1009, 1027, 1081, 1243], 1)?;
    /// assert_eq!(d.is_unique_within(1), Verdict::Unknown);
    /// assert_eq!(d.is_unique_within(1_000), Verdict::Yes);
    /// assert_eq!(DynLayout::<2>::new(&[5, 4], &[3, 4], 1)?.is_unique_within(10), Verdict::No);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `Yes` iff `is_unique()`, `No` iff not, whenever the answer is not `Unknown`
    #[must_use]
    pub const fn is_unique_within(&self, budget: u64) -> Verdict {
        let mut order = [0usize; MAX];
        match order.split_at_mut_checked(self.rank) {
            Some((live, _)) => Verdict::from_option(is_unique(self.parts(), live, budget)),
            // `rank <= MAX` is kept by every constructor.
            None => Verdict::Unknown,
        }
    }

    /// Which axes merge into their left neighbour when flattened (as
    /// [`Layout::flattened_axis_mask`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// assert_eq!(DynLayout::<4>::new(&[4, 5, 3], &[15, 3, 1], 4)?.flattened_axis_mask().bits(), 0b110);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn flattened_axis_mask(&self) -> AxisMask {
        AxisMask::from_bits(flattened_axis_mask(self.parts()))
    }

    /// The live axes from the largest `|stride|` to the smallest (as
    /// [`Layout::stride_order`]), in a fixed-capacity `heapless::Vec`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// let d = DynLayout::<4>::new(&[5, 3, 7], &[1, 5, 15], 4)?;
    /// assert_eq!(d.stride_order().as_slice(), &[2, 1, 0]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub fn stride_order(&self) -> heapless::Vec<usize, MAX> {
        let mut order = [0usize; MAX];
        let live = order.get_mut(..self.rank).unwrap_or_default();
        stride_order(self.parts(), live);
        let mut out = heapless::Vec::new();
        for &axis in live.iter() {
            // `rank <= MAX`, so every push fits; `extend` would panic if it did not.
            let _ = out.push(axis);
        }
        out
    }
}

/// CuTe notation, as for [`Layout`]: `(2,3):(3,1) +4 x4B`.
impl<const MAX: usize> fmt::Display for DynLayout<MAX> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_layout(f, self.shape(), self.strides(), self.offset, self.itemsize)
    }
}

impl<const MAX: usize, const M: usize> TryFrom<DynLayout<MAX>> for Layout<M> {
    type Error = LayoutError;

    /// Same as [`DynLayout::to_layout`].
    fn try_from(d: DynLayout<MAX>) -> Result<Self, LayoutError> {
        d.to_layout()
    }
}
