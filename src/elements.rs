//! Sizes in elements: constructors that take the element type instead of an itemsize, and
//! the slice length a layout needs.
//!
//! | item | what it saves |
//! | --- | --- |
//! | [`Layout::dense_of::<T>`](Layout::dense_of), [`Layout::new_of::<T>`](Layout::new_of) | passing `size_of::<T>()` by hand next to the shape |
//! | [`InterleavedLayout::dense_of::<T>`](InterleavedLayout::dense_of), [`InterleavedLayout::new_of::<T>`](InterleavedLayout::new_of) | the same for interleaved layouts |
//! | `required_len()` on [`Layout`](Layout::required_len), [`DynLayout`](DynLayout::required_len), [`InterleavedLayout`](InterleavedLayout::required_len) | dividing `required_size_in_bytes()` by `itemsize()`: the shortest `&[T]` a kernel accepts |
//!
//! The element-size rule (a power of two; describe a `[u8; 3]` pixel as a `u8` layout with a
//! channel axis) is in [`Layout::dense_of`].

use crate::{DynLayout, InterleaveLayout, InterleavedLayout, Layout, LayoutError, Order};

/// `(max + 1)` from a layout's offset bounds: 0 with no element, an error when the lowest
/// offset is negative. The one rule behind every `required_len`.
const fn len_from_bounds(bounds: Option<(isize, isize)>) -> Result<usize, LayoutError> {
    match bounds {
        None => Ok(0),
        Some((lo, _)) if lo < 0 => Err(LayoutError::NegativeOffset),
        // `hi >= lo >= 0`, so `hi as usize + 1 <= isize::MAX + 1` cannot overflow `usize`;
        // checked all the same, since that costs nothing.
        Some((_, hi)) => match hi.unsigned_abs().checked_add(1) {
            Some(n) => Ok(n),
            None => Err(LayoutError::OffsetOverflow),
        },
    }
}

impl<const N: usize> Layout<N> {
    /// Builds a dense layout of elements of type `T`, in `order`, at offset 0: [`dense`]
    /// with `itemsize = size_of::<T>()`.
    ///
    /// [`dense`]: Layout::dense
    ///
    /// ```text
    /// dense_of::<i16>([2, 3], C) -> (2,3):(3,1) x2B
    ///   0 1 2
    ///   3 4 5
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::ItemsizeNotPowerOfTwo`] if `size_of::<T>()` is 0 or not a power of
    ///   two (see [the element-size rule](#the-element-size-rule));
    /// - [`LayoutError::KeepOrderWithoutSource`] for [`Order::Keep`];
    /// - [`LayoutError::NotAPermutation`] if an [`Order::Perm`] is not a permutation of `0..N`;
    /// - [`LayoutError::VolumeOverflow`], [`LayoutError::OffsetOverflow`] if the shape is too
    ///   large for `usize` elements or `isize` offsets in bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// // Planar stereo audio: 2 channels of 480 `i16` samples.
    /// let planar = Layout::dense_of::<i16>([2, 480], Order::C)?;
    /// assert_eq!(planar, Layout::dense([2, 480], 2, Order::C)?);
    /// assert_eq!(planar.required_len()?, 960);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # The element-size rule
    ///
    /// An itemsize is a power of two (invariant 1), so the typed constructors of [`Layout`]
    /// and [`InterleavedLayout`] accept a `T` whose `size_of::<T>()` is 1, 2, 4, 8, ... and
    /// return [`LayoutError::ItemsizeNotPowerOfTwo`] for every other type: a zero-sized type
    /// (size 0) and a type whose size is not a power of two, such as a 3-byte RGB pixel
    /// `[u8; 3]` or a 12-byte `[f32; 3]`.
    ///
    /// Describe such elements by their components, with the component axis in the layout: an
    /// image of `[u8; 3]` pixels is a `u8` layout of shape `[h, w, 3]`, and the kernels take
    /// the `&[u8]` that `as_flattened()` makes of a `&[[u8; 3]]`:
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    ///
    /// type Rgb = [u8; 3];
    /// assert_eq!(
    ///     Layout::dense_of::<Rgb>([480, 640], Order::C),
    ///     Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: 3 })
    /// );
    /// assert_eq!(
    ///     Layout::dense_of::<()>([480, 640], Order::C),
    ///     Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: 0 })
    /// );
    /// // The same image as bytes: the channel axis is the last one.
    /// let hwc = Layout::dense_of::<u8>([480, 640, 3], Order::C)?;
    /// let pixels: Vec<Rgb> = vec![[0; 3]; 480 * 640];
    /// assert_eq!(hwc.required_len()?, pixels.as_flattened().len());
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `Layout::dense_of::<T>(s, o) == Layout::dense(s, size_of::<T>(), o)`
    pub const fn dense_of<T>(shape: [usize; N], order: Order<N>) -> Result<Self, LayoutError> {
        Self::dense(shape, size_of::<T>(), order)
    }

    /// Builds a layout of elements of type `T` from a shape and strides in elements, at offset
    /// 0: [`new`] with `itemsize = size_of::<T>()`.
    ///
    /// [`new`]: Layout::new
    ///
    /// ```text
    /// new_of::<f32>([2, 3], [1, 2]) -> (2,3):(1,2) x4B
    ///   0 2 4
    ///   1 3 5
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::ItemsizeNotPowerOfTwo`] if `size_of::<T>()` is 0 or not a power of
    ///   two;
    /// - [`LayoutError::VolumeOverflow`] if the volume does not fit `usize`;
    /// - [`LayoutError::OffsetOverflow`] if an element offset does not fit `isize`, in
    ///   elements or in bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError};
    /// // A 1080x1920 `f32` image stored column-major.
    /// let l = Layout::new_of::<f32>([1080, 1920], [1, 1080])?;
    /// assert_eq!((l.itemsize(), l.required_len()?), (4, 1080 * 1920));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `Layout::new_of::<T>(s, t) == Layout::new(s, t, size_of::<T>())`
    pub const fn new_of<T>(shape: [usize; N], strides: [isize; N]) -> Result<Self, LayoutError> {
        Self::new(shape, strides, size_of::<T>())
    }

    /// The shortest slice, in elements, that holds every element: `max offset + 1`, and 0
    /// when the layout has no element; the length the kernels check a `&[T]` against.
    ///
    /// ```text
    /// (2,2):(2,1) +1         offsets 1 2        required_len 4 + 1 = 5
    ///                                3 4
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::NegativeOffset`] if the smallest element offset is negative (no slice
    ///   starting at offset 0 holds it).
    /// - [`LayoutError::OffsetOverflow`] never on a valid layout (kept for checked arithmetic).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError};
    /// let l = Layout::new_of::<u32>([2, 2], [2, 1])?.with_offset(1)?;
    /// assert_eq!(l.required_len()?, 5);
    /// assert_eq!(l.required_size_in_bytes()?, 5 * 4);
    /// assert_eq!(Layout::new_of::<u32>([0, 2], [2, 1])?.required_len()?, 0);
    /// assert_eq!(l.flipped(0)?.with_offset(0)?.required_len(), Err(LayoutError::NegativeOffset));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `Ok(max + 1)` when `offset_bounds() == Some((min, max))` and `min >= 0`;
    ///   `Ok(0)` when `volume() == 0`; `Err(NegativeOffset)` when `min < 0`
    /// - `required_len()? * itemsize() == required_size_in_bytes()?`
    pub const fn required_len(&self) -> Result<usize, LayoutError> {
        len_from_bounds(self.offset_bounds())
    }
}

impl<const MAX: usize> DynLayout<MAX> {
    /// The shortest slice, in elements, that holds every element: `max offset + 1`, and 0
    /// when the layout has no element (as [`Layout::required_len`]).
    ///
    /// # Errors
    ///
    /// - [`LayoutError::NegativeOffset`] if the smallest element offset is negative.
    /// - [`LayoutError::OffsetOverflow`] never on a valid layout (kept for checked arithmetic).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, Layout, LayoutError, Order};
    /// let l = Layout::dense_of::<f32>([1, 3, 1, 4], Order::C)?.with_offset(2)?;
    /// let d: DynLayout<4> = l.squeezed();
    /// assert_eq!((d.rank(), d.required_len()?), (2, 14));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `Ok(max + 1)` when `offset_bounds() == Some((min, max))` and `min >= 0`;
    ///   `Ok(0)` when `volume() == 0`; `Err(NegativeOffset)` when `min < 0`
    pub const fn required_len(&self) -> Result<usize, LayoutError> {
        len_from_bounds(self.offset_bounds())
    }
}

impl<const N: usize> InterleavedLayout<N> {
    /// Builds a dense interleaved layout of elements of type `T`: [`dense`] with
    /// `itemsize = size_of::<T>()`.
    ///
    /// [`dense`]: InterleavedLayout::dense
    ///
    /// ```text
    /// dense_of::<i16>([2, 3], il(0, 2))  (stereo, L R L R ...): (2,3):(6,2) il(0,2) x2B
    ///   left:  0 2 4
    ///   right: 1 3 5
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::AxisOutOfRange`] if `interleave.dimension() >= N`;
    /// - [`LayoutError::ItemsizeNotPowerOfTwo`] if `size_of::<T>()` is 0 or not a power of
    ///   two;
    /// - [`LayoutError::VolumeOverflow`], [`LayoutError::OffsetOverflow`] if the padded shape
    ///   is too large for `usize` elements or `isize` offsets in bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let lrlr = InterleavedLayout::dense_of::<i16>([2, 480], InterleaveLayout::new(0, 2)?)?;
    /// assert_eq!((lrlr.itemsize(), lrlr.offset_of([1, 3])?), (2, 7));
    /// assert_eq!(lrlr.required_len()?, 960);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `InterleavedLayout::dense_of::<T>(s, il) == InterleavedLayout::dense(s, size_of::<T>(), il)`
    pub const fn dense_of<T>(
        shape: [usize; N],
        interleave: InterleaveLayout,
    ) -> Result<Self, LayoutError> {
        Self::dense(shape, size_of::<T>(), interleave)
    }

    /// Builds an interleaved layout of elements of type `T` from a shape and strides in
    /// elements (`strides[dimension]` is the block stride): [`new`] with
    /// `itemsize = size_of::<T>()`.
    ///
    /// [`new`]: InterleavedLayout::new
    ///
    /// # Errors
    ///
    /// The errors of [`InterleavedLayout::new`]:
    /// - [`LayoutError::AxisOutOfRange`] if `interleave.dimension() >= N`;
    /// - [`LayoutError::ItemsizeNotPowerOfTwo`] if `size_of::<T>()` is 0 or not a power of
    ///   two;
    /// - [`LayoutError::VolumeOverflow`], [`LayoutError::OffsetOverflow`] if the volume or an
    ///   element offset does not fit.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let il = InterleaveLayout::new(0, 2)?;
    /// let l = InterleavedLayout::new_of::<f32>([2, 3], [6, 2], il)?;
    /// assert_eq!(l, InterleavedLayout::dense_of::<f32>([2, 3], il)?);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `InterleavedLayout::new_of::<T>(s, t, il) == InterleavedLayout::new(s, t, size_of::<T>(), il)`
    pub const fn new_of<T>(
        shape: [usize; N],
        strides: [isize; N],
        interleave: InterleaveLayout,
    ) -> Result<Self, LayoutError> {
        Self::new(shape, strides, size_of::<T>(), interleave)
    }

    /// The shortest slice, in elements, that holds every element: `max offset + 1`, and 0
    /// when the layout has no element; the unused slots of a partial last block inside that
    /// span count.
    ///
    /// ```text
    /// dense([3, 2], _, il(0, 2)): (3,2):(4,2) il(0,2)      required_len 6 + 1 = 7
    ///   channel 0:  0 2
    ///   channel 1:  1 3     (block 0: channels 0 and 1)
    ///   channel 2:  4 6     (block 1: channel 2 alone; slot 5 unused)
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::NegativeOffset`] if the smallest element offset is negative.
    /// - [`LayoutError::OffsetOverflow`] never on a valid layout (kept for checked arithmetic).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let l = InterleavedLayout::dense_of::<u8>([3, 2], InterleaveLayout::new(0, 2)?)?;
    /// assert_eq!(l.offset_bounds(), Some((0, 6)));
    /// assert_eq!(l.required_len()?, 7);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `Ok(max + 1)` when `offset_bounds() == Some((min, max))` and `min >= 0`;
    ///   `Ok(0)` when `volume() == 0`; `Err(NegativeOffset)` when `min < 0`
    /// - `required_len()? * itemsize() == required_size_in_bytes()?`
    pub const fn required_len(&self) -> Result<usize, LayoutError> {
        len_from_bounds(self.offset_bounds())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn len_from_bounds_counts_max_plus_one_and_refuses_negative() {
        assert_eq!(len_from_bounds(None), Ok(0));
        assert_eq!(len_from_bounds(Some((0, 0))), Ok(1));
        assert_eq!(len_from_bounds(Some((3, 9))), Ok(10));
        assert_eq!(
            len_from_bounds(Some((0, isize::MAX))),
            Ok(isize::MAX.unsigned_abs() + 1)
        );
        assert_eq!(
            len_from_bounds(Some((-1, 5))),
            Err(LayoutError::NegativeOffset)
        );
    }
}
