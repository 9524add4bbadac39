//! ndarray interop (feature `ndarray`): a view's layout, a view through a layout, and the
//! copy kernel on views.
//!
//! An ndarray view is a pointer to its index-0 element plus shape and strides in elements,
//! any of them negative. A [`Layout`] describes the same elements as offsets into a slice;
//! the pair `(slice, Layout)` is the safe form of a view, and this module converts both ways:
//!
//! | from | to | call |
//! | --- | --- | --- |
//! | a view (any kind, any strides) and a slice holding its elements | its `Layout` in that slice | [`Layout::from_view_in`] |
//! | a slice and a layout | an `ArrayView` / `ArrayViewMut` | [`Layout::view`], [`Layout::view_mut`] |
//! | two views | the copy kernel on them | [`copy_view`] |
//!
//! ```text
//! base slice    0  1  2  3  4  5          view = base as 2x3, then invert_axis(1)
//!                                         ptr -> element 2, shape [2, 3], strides [3, -1]
//!               view[0, 0] = 2  view[0, 1] = 1  view[0, 2] = 0
//!               view[1, 0] = 5  view[1, 1] = 4  view[1, 2] = 3
//!
//! Layout::from_view_in(&view, &base) -> (2,3):(3,-1) +2     (the offset is index 0's place)
//! ```
//!
//! No `unsafe` is needed: a view's pointer is only compared with the slice's address range,
//! never dereferenced, and the way back goes through ndarray's checked `from_shape` with
//! non-negative strides, then `invert_axis` for each negative one.

use ::ndarray::{ArrayBase, ArrayView, ArrayViewMut, Axis, Dim, Dimension, RawData, ShapeBuilder};

use crate::{Layout, LayoutError, Operand};

/// A layout as ndarray's `from_shape` takes it: shape and non-negative strides, the slice
/// position of index 0, and the axes to invert afterwards.
struct NdParts<const N: usize> {
    shape: Dim<[usize; N]>,
    strides: Dim<[usize; N]>,
    start: usize,
    flipped: [bool; N],
}

/// `Dim<[usize; N]>` with the given extents (or strides stored as `usize`, as ndarray does).
fn dim_of<const N: usize>(values: [usize; N]) -> Dim<[usize; N]>
where
    Dim<[usize; N]>: Dimension,
{
    let mut d = Dim::<[usize; N]>::zeros(N);
    for (slot, v) in d.slice_mut().iter_mut().zip(values) {
        *slot = v;
    }
    d
}

/// Copies a length-`N` slice into an array, or `RankMismatch`.
fn array_of<T: Copy + Default, const N: usize>(s: &[T]) -> Result<[T; N], LayoutError> {
    let mut out = [T::default(); N];
    if s.len() != N {
        return Err(LayoutError::RankMismatch {
            expected: N,
            found: s.len(),
        });
    }
    out.copy_from_slice(s);
    Ok(out)
}

/// The layout of the elements at `addr` (index 0), `shape`, `strides`, as offsets into the
/// `len` elements of type `A` starting at `base`.
fn layout_at<A, const N: usize>(
    shape: [usize; N],
    strides: [isize; N],
    addr: usize,
    base: usize,
    len: usize,
) -> Result<Layout<N>, LayoutError> {
    // Checks the element size first (a zero-sized `A` is refused, so the division below has a
    // non-zero divisor).
    let unplaced = Layout::new_of::<A>(shape, strides)?;
    let size = size_of::<A>();
    if addr < base {
        // Index 0 lies below the slice: outside it, whatever the strides.
        return Err(LayoutError::NegativeOffset);
    }
    let bytes = addr.abs_diff(base);
    let offset = match (bytes.checked_rem(size), bytes.checked_div(size)) {
        (Some(0), Some(elements)) => {
            isize::try_from(elements).map_err(|_| LayoutError::OffsetOverflow)?
        }
        (Some(_), _) => return Err(LayoutError::PointerMisaligned),
        // `size` is a power of two (checked by `new_of`), so never 0.
        _ => return Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: size }),
    };
    let layout = unplaced.with_offset(offset)?;
    holds(&layout, len, Operand::Source)?;
    Ok(layout)
}

/// `layout.required_len()`, when a slice of `len` elements holds it; else the error naming
/// `operand` with both lengths.
fn holds<const N: usize>(
    layout: &Layout<N>,
    len: usize,
    operand: Operand,
) -> Result<usize, LayoutError> {
    let needed = layout.required_len()?;
    if needed > len {
        return Err(LayoutError::OffsetOutsideSlice {
            operand,
            needed,
            given: len,
        });
    }
    Ok(needed)
}

impl<const N: usize> Layout<N>
where
    Dim<[usize; N]>: Dimension,
{
    /// The layout of an ndarray view's elements as offsets into `base`, a slice that holds
    /// them all (the buffer the view was cut from); strides of any sign, as the view has them.
    ///
    /// The offset is the place of the view's index-0 element in `base`; the kernels then run
    /// on `base` with this layout. `view` may be any array or view over elements of `A`
    /// (`Array`, `ArrayView`, `ArrayViewMut`, a raw view): its pointer is compared with
    /// `base`'s address range, never read.
    ///
    /// ```text
    /// base 0 1 2 3 4 5 6 7 8 9 10 11 as 3x4, sliced [..;-1, ..;2]
    ///   view[i, j] = base[8 - 4 i + 2 j]    ->  (3,2):(-4,2) +8
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::RankMismatch`] if the view's rank is not `N`;
    /// - [`LayoutError::ItemsizeNotPowerOfTwo`] if `size_of::<A>()` is 0 or not a power of two;
    /// - [`LayoutError::NegativeOffset`] if an element of the view lies below `base`;
    /// - [`LayoutError::OffsetOutsideSlice`] if an element lies past the end of `base`;
    /// - [`LayoutError::PointerMisaligned`] if the view's pointer is not at an element of
    ///   `base` (it was not cut from it);
    /// - [`LayoutError::VolumeOverflow`], [`LayoutError::OffsetOverflow`] never for a view
    ///   ndarray built (kept for checked arithmetic).
    ///
    /// # Examples
    ///
    /// ```
    /// use ndarray::{Array2, s};
    /// use strided_layout::Layout;
    ///
    /// let a = Array2::from_shape_fn((3, 4), |(i, j)| 4 * i + j); // 0 1 2 3 / 4 5 6 7 / ...
    /// let view = a.slice(s![..;-1, ..;2]);
    /// let base = a.as_slice().ok_or("a fresh array is contiguous")?;
    /// let l = Layout::<2>::from_view_in(&view, base)?;
    /// assert_eq!((l.shape(), l.strides(), l.offset()), ([3, 2], [-4, 2], 8));
    /// assert_eq!(base[usize::try_from(l.offset_of([1, 1])?)?], view[[1, 1]]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `base[l.offset_of(i)?] == view[i]` for every index `i`
    pub fn from_view_in<A, S, D>(view: &ArrayBase<S, D>, base: &[A]) -> Result<Self, LayoutError>
    where
        S: RawData<Elem = A>,
        D: Dimension,
    {
        layout_at::<A, N>(
            array_of(view.shape())?,
            array_of(view.strides())?,
            view.as_ptr().addr(),
            base.as_ptr().addr(),
            base.len(),
        )
    }

    /// This layout with every negative stride flipped to positive, and the axes flipped.
    fn unflipped(&self) -> Result<(Self, [bool; N]), LayoutError> {
        let mut out = *self;
        let mut flipped = [false; N];
        for (axis, (f, &s)) in flipped.iter_mut().zip(&self.strides()).enumerate() {
            if s < 0 {
                out = out.flipped(axis)?;
                *f = true;
            }
        }
        Ok((out, flipped))
    }

    /// Shape and (non-negative) strides as ndarray dims, and the offset of index 0.
    fn ndarray_parts(&self) -> Result<NdParts<N>, LayoutError> {
        if self.volume() == 0 {
            // No element: ndarray bounds even an empty view's strides by the slice, so give
            // it zero strides (there is nothing for them to reach).
            return Ok(NdParts {
                shape: dim_of(self.shape()),
                strides: dim_of([0; N]),
                start: 0,
                flipped: [false; N],
            });
        }
        let (pos, flipped) = self.unflipped()?;
        // Index 0 of the unflipped layout is its lowest offset; every stride is >= 0.
        let start = usize::try_from(pos.offset()).map_err(|_| LayoutError::NegativeOffset)?;
        let strides = pos.strides().map(isize::unsigned_abs);
        Ok(NdParts {
            shape: dim_of(pos.shape()),
            strides: dim_of(strides),
            start,
            flipped,
        })
    }

    /// A read-only ndarray view of `slice` through this layout: `view[i] == slice[offset_of(i)]`,
    /// negative and zero strides included.
    ///
    /// ```text
    /// slice 0 1 2 3 4 5 through (2,3):(3,-1) +2  ->  view  2 1 0
    ///                                                      5 4 3
    /// ```
    ///
    /// The layout's offsets count elements of `A`; its itemsize is not consulted. A layout
    /// with no element gives an empty view with zero strides.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::NegativeOffset`] if an element's offset is negative;
    /// - [`LayoutError::OffsetOutsideSlice`] if an element's offset is not less than
    ///   `slice.len()`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError};
    /// let l = Layout::new_of::<i32>([2, 3], [3, -1])?.with_offset(2)?;
    /// let data = [0, 1, 2, 3, 4, 5];
    /// let v = l.view(&data)?;
    /// assert_eq!(v, ndarray::arr2(&[[2, 1, 0], [5, 4, 3]]));
    /// assert_eq!(Layout::<2>::from_view_in(&v, &data)?, l);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `view[i] == slice[offset_of(i)]` for every index `i`
    /// - `Layout::from_view_in(&view, slice)` has the same shape and the same offset at every
    ///   index as `self`
    pub fn view<'a, A>(
        &self,
        slice: &'a [A],
    ) -> Result<ArrayView<'a, A, Dim<[usize; N]>>, LayoutError> {
        let needed = holds(self, slice.len(), Operand::Source)?;
        let NdParts {
            shape,
            strides,
            start,
            flipped,
        } = self.ndarray_parts()?;
        let rest = slice.get(start..).unwrap_or(&[]);
        let mut view = ArrayView::from_shape(shape.strides(strides), rest).map_err(|_| {
            LayoutError::OffsetOutsideSlice {
                operand: Operand::Source,
                needed,
                given: slice.len(),
            }
        })?;
        for (axis, _) in flipped.iter().enumerate().filter(|(_, f)| **f) {
            view.invert_axis(Axis(axis));
        }
        Ok(view)
    }

    /// A mutable ndarray view of `slice` through this layout: `view[i]` is
    /// `slice[offset_of(i)]`, negative strides included.
    ///
    /// The layout must be unique, and ndarray must see that it is: ndarray accepts a mutable
    /// view only when, with the axes sorted by stride, each stride exceeds the span of the
    /// faster axes (a test that is sufficient, not necessary, for uniqueness).
    ///
    /// # Errors
    ///
    /// - [`LayoutError::NegativeOffset`] if an element's offset is negative;
    /// - [`LayoutError::OffsetOutsideSlice`] if an element's offset is not less than
    ///   `slice.len()`;
    /// - [`LayoutError::DestinationNotUnique`] if two indices share an element (a broadcast
    ///   axis), or ndarray's test cannot tell that they do not.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// // Write the transpose of a 2x3 C-order buffer through a view.
    /// let l = Layout::dense_of::<u8>([2, 3], Order::C)?.transposed(0, 1)?.flipped(0)?;
    /// let mut data = [0u8; 6];
    /// let mut v = l.view_mut(&mut data)?;
    /// v[[0, 1]] = 9; // column 2, row 1
    /// assert_eq!(data, [0, 0, 0, 0, 0, 9]);
    /// let broadcast = Layout::new_of::<u8>([2, 3], [0, 1])?;
    /// assert_eq!(broadcast.view_mut(&mut data).err(), Some(LayoutError::DestinationNotUnique));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - a write to `view[i]` is a write to `slice[offset_of(i)]`
    pub fn view_mut<'a, A>(
        &self,
        slice: &'a mut [A],
    ) -> Result<ArrayViewMut<'a, A, Dim<[usize; N]>>, LayoutError> {
        holds(self, slice.len(), Operand::Destination)?;
        let NdParts {
            shape,
            strides,
            start,
            flipped,
        } = self.ndarray_parts()?;
        let rest = match slice.get_mut(start..) {
            Some(rest) => rest,
            None => &mut [],
        };
        // The bounds are checked above, so ndarray refuses only what it cannot prove unique.
        let mut view = ArrayViewMut::from_shape(shape.strides(strides), rest)
            .map_err(|_| LayoutError::DestinationNotUnique)?;
        for (axis, _) in flipped.iter().enumerate().filter(|(_, f)| **f) {
            view.invert_axis(Axis(axis));
        }
        Ok(view)
    }
}

/// Copies `src` into `dst`, two ndarray views of the same shape: the copy kernel when both
/// views' elements are contiguous in memory (any axis order, flips included), ndarray's own
/// `assign` otherwise.
///
/// ```text
/// src = a.t() (3x2 of a 2x3 C array)      dst = b.view_mut() (3x2, C)
///   0 3                                     0 3     dst[i, j] = src[i, j]
///   1 4                                     1 4
///   2 5                                     2 5
/// ```
///
/// Every array and most views of this crate's users are contiguous in memory: an owned
/// array, its transpose, a permutation of its axes, an axis inverted. A step slice
/// (`s![..;2]`) is not: to run this crate's kernel on it, describe it in its base buffer
/// with [`Layout::from_view_in`] and call [`copy`](crate::copy) on the buffers.
///
/// # Errors
///
/// - [`LayoutError::RankMismatch`] if a view's rank is not `N` (never for fixed-rank views);
/// - [`LayoutError::ShapeMismatch`] if the shapes differ (the first axis where they do);
/// - [`LayoutError::ItemsizeNotPowerOfTwo`] if `size_of::<A>()` is 0 or not a power of two;
/// - the errors of [`copy`](crate::copy), which cannot occur for views ndarray built.
///
/// # Examples
///
/// ```
/// use ndarray::{Array2, arr2};
/// use strided_layout::LayoutError;
/// use strided_layout::ndarray::copy_view;
///
/// let a = arr2(&[[0.0f32, 1.0, 2.0], [3.0, 4.0, 5.0]]);
/// let mut b = Array2::<f32>::zeros((3, 2));
/// copy_view(&a.t(), &mut b.view_mut())?; // the transpose, by the kernel
/// assert_eq!(b, arr2(&[[0.0, 3.0], [1.0, 4.0], [2.0, 5.0]]));
/// # Ok::<(), LayoutError>(())
/// ```
///
/// # Postconditions
///
/// - `dst[i] == src[i]` for every index `i`; nothing outside `dst`'s elements is written
pub fn copy_view<A, const N: usize>(
    src: &ArrayView<'_, A, Dim<[usize; N]>>,
    dst: &mut ArrayViewMut<'_, A, Dim<[usize; N]>>,
) -> Result<(), LayoutError>
where
    A: Copy + 'static,
    Dim<[usize; N]>: Dimension,
{
    if let Some(axis) = src
        .shape()
        .iter()
        .zip(dst.shape())
        .position(|(a, b)| a != b)
    {
        return Err(LayoutError::ShapeMismatch { axis });
    }
    let (dst_shape, dst_strides, dst_addr) = (
        array_of::<usize, N>(dst.shape())?,
        array_of::<isize, N>(dst.strides())?,
        dst.as_ptr().addr(),
    );
    let src_buf = src.to_slice_memory_order();
    if let (Some(src_buf), Some(dst_buf)) = (src_buf, dst.as_slice_memory_order_mut()) {
        {
            let src_layout = Layout::<N>::from_view_in(src, src_buf)?;
            let dst_layout = layout_at::<A, N>(
                dst_shape,
                dst_strides,
                dst_addr,
                dst_buf.as_ptr().addr(),
                dst_buf.len(),
            )?;
            crate::copy(src_buf, &src_layout, dst_buf, &dst_layout)
        }
    } else {
        // The element size rule holds on both paths.
        Layout::<N>::new_of::<A>(dst_shape, dst_strides)?;
        dst.assign(src);
        Ok(())
    }
}
