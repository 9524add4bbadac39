//! [`KernelLayout<I, N>`]: a layout as a `#[repr(C)]` kernel parameter over an index type `I`.
//!
//! A GPU (or DSP) kernel takes its operands' layouts by value, as plain data, and does its
//! offset math in a narrow integer type (`i32` is the fast one on most GPUs). This module is
//! the bridge: a host-side checked conversion from [`Layout<N>`] that fails instead of
//! narrowing silently, and device-side offset math that is `#[inline]`, generic over `I`,
//! free of panics, and builds for `nvptx64-nvidia-cuda` (CI builds it with `-Zbuild-std=core`).
//!
//! The packing, the proof that the device math is exact, and the examples are on
//! [`KernelLayout`] itself (this module is private; its items are re-exported at the root).

use num_traits::{CheckedRem, NumCast, PrimInt, WrappingAdd, WrappingMul};

use crate::query::index_type::parts_fit_in;
use crate::{InterleavedLayout, Layout, LayoutError};

/// The integer types a [`KernelLayout`] can use for its offset math: `i32`, `i64`, `u32`,
/// `u64`, `isize`, `usize`, and the narrower primitive integers.
///
/// Implemented for every type with the listed `num-traits` bounds; nothing to implement.
pub trait KernelIndex: PrimInt + WrappingAdd + WrappingMul + CheckedRem {}

impl<T: PrimInt + WrappingAdd + WrappingMul + CheckedRem> KernelIndex for T {}

/// A layout packed as a `#[repr(C)]` kernel parameter over the index type `I`: extents,
/// strides, offset, then an interleave dimension and factor (factor 1: plain strided).
///
/// Values are in elements; the kernel knows its element type. Build one on the host with
/// [`KernelLayout::from_layout`] (or `TryFrom`), pass it to a kernel by value, and call
/// [`offset_of`](KernelLayout::offset_of) or [`offset_of_linear`](KernelLayout::offset_of_linear)
/// on the device.
///
/// The packing is the one `CCCL` and `CuPy` use for strided kernel arguments, extents then
/// strides then offset, followed by an interleave descriptor (dimension, factor; factor 1 means
/// plain strided) so that an interleaved layout lowers to the same type:
///
/// ```text
/// #[repr(C)] KernelLayout<I, N>      size (2N + 3) * size_of::<I>(), align align_of::<I>()
/// +-------------+-------------+--------+----------------------+-------------------+
/// | extents [N] | strides [N] | offset | interleave_dimension | interleave_factor |
/// +-------------+-------------+--------+----------------------+-------------------+
///   offset_of(i) = offset + Σ_{k ≠ d} i_k·s_k + (i_d / f)·s_d + (i_d % f)   (d, f: interleave)
/// ```
///
/// Every field has type `I`, so the struct has no padding for any `N` and any `I` (each field's
/// size is a multiple of `align_of::<I>()`): with the `bytemuck` feature it is `Pod` for every
/// `I: Pod`, with the `cudarc` feature it is `DeviceRepr` for every `I: DeviceRepr`.
///
/// # Why the device math cannot go wrong
///
/// [`KernelLayout::from_layout`] accepts a layout only if `I` holds every extent, every stride,
/// the offset, the volume and both offset bounds (the rule of [`Layout::fits_in`], plus the
/// volume). Then for any in-range index the true offset lies between the bounds, so it fits
/// `I`. A single term `i_k·s_k` need not fit a signed `I` (offset `i32::MAX`, stride `-3`,
/// extent `1431655766`: the last element sits at exactly `i32::MIN`, yet the term
/// `1431655765·(-3)` does not fit `i32`), so the math is done with wrapping operations. Wrapping addition and
/// multiplication are exact modulo `2^bits`; a result that is known to lie in `I`'s range is
/// therefore the true result. For an unsigned `I` the strides and offset are non-negative, so
/// no intermediate value even exceeds the final one. Division and remainder (interleave,
/// linear indices) use `checked_div`/`checked_rem` with a zero fallback, so a value built from
/// arbitrary bytes (through `bytemuck`) gives an unspecified offset, never a panic.
///
/// ```text
/// Layout (2,3):(1,2) +1        KernelLayout<i32, 2>
///  1 3 5                       extents [2, 3], strides [1, 2], offset 1,
///  2 4 6                       interleave_dimension 0, interleave_factor 1
/// ```
///
/// # Examples
///
/// ```
/// use strided_layout::{KernelLayout, Layout, LayoutError, Order};
/// let l = Layout::dense([2, 3], 4, Order::F)?.with_offset(1)?;
/// let k = KernelLayout::<i32, 2>::from_layout(&l)?;
/// assert_eq!(k.offset_of([1, 2]), 6);
/// assert_eq!(core::mem::size_of_val(&k), (2 * 2 + 3) * 4);
/// # Ok::<(), LayoutError>(())
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct KernelLayout<I, const N: usize> {
    extents: [I; N],
    strides: [I; N],
    offset: I,
    interleave_dimension: I,
    interleave_factor: I,
}

impl<I: KernelIndex, const N: usize> KernelLayout<I, N> {
    /// Packs `layout` for a kernel whose offset math uses `I`, checking that nothing narrows.
    ///
    /// The check is [`Layout::fits_in::<I>`](Layout::fits_in) (every extent, stride, the
    /// offset and both offset bounds) plus the volume, so a kernel may also iterate a linear
    /// index `0..volume` in `I`.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::IndexTypeOverflow`] if an extent, a stride, the offset, the volume or
    ///   an element offset does not fit `I`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{KernelLayout, Layout, LayoutError, Order};
    /// let l = Layout::dense([3000, 3000, 300], 4, Order::C)?;
    /// assert_eq!(KernelLayout::<i32, 3>::from_layout(&l), Err(LayoutError::IndexTypeOverflow));
    /// let k = KernelLayout::<i64, 3>::from_layout(&l)?;
    /// assert_eq!(k.offset_of([2999, 2999, 299]), 3000 * 3000 * 300 - 1);
    /// // A negative stride or offset never fits an unsigned index type.
    /// let flipped = l.flipped(0)?;
    /// assert!(KernelLayout::<u64, 3>::from_layout(&flipped).is_err());
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `Ok(k)` iff `layout.fits_in::<I>()` and `I` holds `layout.volume()`
    /// - `k.offset_of(i) == layout.offset_of(i)` for every in-range index `i`
    /// - `k.interleave() == None`
    pub fn from_layout(layout: &Layout<N>) -> Result<Self, LayoutError> {
        Self::from_parts(
            &layout.shape(),
            &layout.strides(),
            layout.offset(),
            layout.offset_bounds(),
            layout.volume(),
            None,
        )
    }

    /// The one conversion behind every `from_*`: the caller passes its own offset bounds
    /// (strided or interleaved), and `interleave` as `(dimension < N, factor >= 1)`.
    /// Packs an interleaved layout: its strided parts plus the interleave dimension and
    /// factor, which the device math reads (`(i_d / f) * strides[d] + i_d % f` on axis `d`).
    ///
    /// # Errors
    ///
    /// - [`LayoutError::IndexTypeOverflow`] if an extent, a stride, the offset, the volume,
    ///   an element offset, the dimension or the factor does not fit `I`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, KernelLayout, LayoutError};
    /// let hwc = InterleavedLayout::dense([3, 4, 5], 1, InterleaveLayout::new(0, 3)?)?;
    /// let k = KernelLayout::<i32, 3>::from_interleaved(&hwc)?;
    /// assert_eq!(k.interleave(), Some((0, 3)));
    /// assert_eq!(k.offset_of([2, 1, 4]), hwc.offset_of([2, 1, 4])? as i32);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `k.offset_of(i) == l.offset_of(i)` (as `I`) for every index `i`
    pub fn from_interleaved(layout: &InterleavedLayout<N>) -> Result<Self, LayoutError> {
        let il = layout.interleave();
        Self::from_parts(
            &layout.shape(),
            &layout.strides(),
            layout.offset(),
            layout.offset_bounds(),
            layout.volume(),
            Some((il.dimension(), il.factor())),
        )
    }

    pub(crate) fn from_parts(
        shape: &[usize; N],
        strides: &[isize; N],
        offset: isize,
        bounds: Option<(isize, isize)>,
        volume: usize,
        interleave: Option<(usize, usize)>,
    ) -> Result<Self, LayoutError> {
        const ERR: LayoutError = LayoutError::IndexTypeOverflow;
        if !parts_fit_in::<I>(shape, strides, offset, bounds) {
            return Err(ERR);
        }
        let narrow_u = |v: usize| <I as NumCast>::from(v).ok_or(ERR);
        let narrow_i = |v: isize| <I as NumCast>::from(v).ok_or(ERR);
        narrow_u(volume)?;
        let (dimension, factor) = interleave.unwrap_or((0, 1));
        let mut out = Self {
            extents: [I::zero(); N],
            strides: [I::zero(); N],
            offset: narrow_i(offset)?,
            interleave_dimension: narrow_u(dimension)?,
            interleave_factor: narrow_u(factor)?,
        };
        // `parts_fit_in` already said these fit; converting again keeps this function
        // panic-free without relying on that.
        for (dst, &e) in out.extents.iter_mut().zip(shape) {
            *dst = narrow_u(e)?;
        }
        for (dst, &s) in out.strides.iter_mut().zip(strides) {
            *dst = narrow_i(s)?;
        }
        Ok(out)
    }

    /// The element offset of `index` (each `index[k]` in `0..extents[k]`), computed in `I`.
    ///
    /// Device-side math: `#[inline]`, no bounds checks, no panics. An index outside the
    /// extents gives an unspecified offset (never a panic); use
    /// [`checked_offset_of`](Self::checked_offset_of) where indices are not known to be in
    /// range.
    ///
    /// ```text
    /// KernelLayout [2, 3] : [3, 1] + 0
    ///  offset_of([i, j]) = 3i + j:   0 1 2
    ///                                3 4 5
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{KernelLayout, Layout, LayoutError, Order};
    /// let k = KernelLayout::<u32, 2>::from_layout(&Layout::dense([2, 3], 2, Order::C)?)?;
    /// assert_eq!(k.offset_of([1, 1]), 4);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - for `k` from [`from_layout`](Self::from_layout) and an in-range index,
    ///   `k.offset_of(i)` equals the layout's `offset_of(i)`
    #[inline]
    #[must_use]
    pub fn offset_of(&self, index: [I; N]) -> I {
        let split = self.split_axis();
        let mut acc = self.offset;
        for (k, (&i, &s)) in index.iter().zip(&self.strides).enumerate() {
            acc = acc.wrapping_add(&term(i, s, k, split));
        }
        acc
    }

    /// The element offset of the element at position `linear` in logical C order (last axis
    /// fastest), for `linear` in `0..volume`, computed in `I`.
    ///
    /// The usual grid-stride kernel loop: thread `t` handles `t, t + T, t + 2T, ...`. Device-side
    /// math, like [`offset_of`](Self::offset_of): one division and remainder per axis, no panics;
    /// `linear` outside `0..volume` gives an unspecified offset.
    ///
    /// ```text
    /// KernelLayout [2, 3] : [1, 2] + 0
    ///  linear   0 1 2 3 4 5
    ///  offset   0 2 4 1 3 5
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{KernelLayout, Layout, LayoutError, Order};
    /// let k = KernelLayout::<i32, 2>::from_layout(&Layout::dense([2, 3], 4, Order::F)?)?;
    /// let offsets: Vec<i32> = (0..6).map(|t| k.offset_of_linear(t)).collect();
    /// assert_eq!(offsets, [0, 2, 4, 1, 3, 5]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `k.offset_of_linear(t)` equals `k.offset_of(i)` where `i` is the `t`-th index in C order
    #[inline]
    #[must_use]
    pub fn offset_of_linear(&self, linear: I) -> I {
        let split = self.split_axis();
        let mut acc = self.offset;
        let mut rest = linear;
        let axes = self.extents.iter().zip(&self.strides).enumerate();
        for (k, (&e, &s)) in axes.rev() {
            // `e == 0` only in an empty layout, where no `linear` is in range.
            let i = rest.checked_rem(&e).unwrap_or_else(I::zero);
            rest = rest.checked_div(&e).unwrap_or_else(I::zero);
            acc = acc.wrapping_add(&term(i, s, k, split));
        }
        acc
    }

    /// The element offset of `index`, or `None` if some `index[k]` is outside `0..extents[k]`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{KernelLayout, Layout, LayoutError, Order};
    /// let k = KernelLayout::<i32, 2>::from_layout(&Layout::dense([2, 3], 4, Order::C)?)?;
    /// assert_eq!(k.checked_offset_of([1, 2]), Some(5));
    /// assert_eq!(k.checked_offset_of([2, 0]), None);
    /// assert_eq!(k.checked_offset_of([0, -1]), None);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `Some(k.offset_of(i))` iff `0 <= i[k] < extents[k]` for every axis `k`
    #[inline]
    #[must_use]
    pub fn checked_offset_of(&self, index: [I; N]) -> Option<I> {
        let in_range = index
            .iter()
            .zip(&self.extents)
            .all(|(&i, &e)| i >= I::zero() && i < e);
        if in_range {
            Some(self.offset_of(index))
        } else {
            None
        }
    }

    /// The number of elements, the product of the extents, computed in `I`.
    ///
    /// Exact for a value built by [`from_layout`](Self::from_layout) (which checked that the
    /// volume fits `I`); wrapped modulo `2^bits` for arbitrary bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{KernelLayout, Layout, LayoutError, Order};
    /// let k = KernelLayout::<u32, 3>::from_layout(&Layout::dense([2, 3, 4], 1, Order::C)?)?;
    /// assert_eq!(k.volume(), 24);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn volume(&self) -> I {
        self.extents
            .iter()
            .fold(I::one(), |acc, &e| acc.wrapping_mul(&e))
    }

    /// The interleave axis and factor `(dimension, factor)`, or `None` for a plain strided
    /// layout (factor 1).
    ///
    /// A factor below 2 or a dimension that is not an axis (possible only in a value made from
    /// arbitrary bytes) also reads as `None`, and the math treats the layout as plain.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{KernelLayout, Layout, LayoutError, Order};
    /// let k = KernelLayout::<i32, 2>::from_layout(&Layout::dense([2, 3], 4, Order::C)?)?;
    /// assert_eq!(k.interleave(), None);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn interleave(&self) -> Option<(usize, usize)> {
        let (d, f) = self.split_axis()?;
        Some((d, f.to_usize()?))
    }

    /// `(dimension, factor)` when the value describes a real split (`factor > 1`, dimension an
    /// axis), else `None`.
    #[inline]
    fn split_axis(&self) -> Option<(usize, I)> {
        let f = self.interleave_factor;
        if f <= I::one() {
            return None;
        }
        let d = self.interleave_dimension.to_usize()?;
        if d < N { Some((d, f)) } else { None }
    }
}

impl<I: Copy, const N: usize> KernelLayout<I, N> {
    /// The extents, one per axis.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{KernelLayout, Layout, LayoutError, Order};
    /// let k = KernelLayout::<i32, 2>::from_layout(&Layout::dense([2, 3], 4, Order::C)?)?;
    /// assert_eq!(k.extents(), [2, 3]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn extents(&self) -> [I; N] {
        self.extents
    }

    /// The strides, in elements, one per axis (for the interleave axis: the block stride).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{KernelLayout, Layout, LayoutError, Order};
    /// let k = KernelLayout::<i32, 2>::from_layout(&Layout::dense([2, 3], 4, Order::C)?)?;
    /// assert_eq!(k.strides(), [3, 1]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn strides(&self) -> [I; N] {
        self.strides
    }

    /// The offset of the element at index `[0; N]`, in elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{KernelLayout, Layout, LayoutError, Order};
    /// let l = Layout::dense([2, 3], 4, Order::C)?.with_offset(7)?;
    /// assert_eq!(KernelLayout::<i32, 2>::from_layout(&l)?.offset(), 7);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn offset(&self) -> I {
        self.offset
    }
}

/// One axis's contribution to an offset: `i·s`, or `(i / f)·s + i % f` on the interleave axis.
///
/// Wrapping operations: see "Why the device math cannot go wrong" on [`KernelLayout`] for
/// why the sum is exact. `f > 1`
/// (checked by `split_axis`), so the checked division and remainder never take the fallback.
#[inline]
fn term<I: KernelIndex>(index: I, stride: I, axis: usize, split: Option<(usize, I)>) -> I {
    match split {
        Some((dimension, factor)) if dimension == axis => {
            let block = index.checked_div(&factor).unwrap_or_else(I::zero);
            let lane = index.checked_rem(&factor).unwrap_or_else(I::zero);
            block.wrapping_mul(&stride).wrapping_add(&lane)
        }
        _ => index.wrapping_mul(&stride),
    }
}

impl<I: KernelIndex, const N: usize> TryFrom<&Layout<N>> for KernelLayout<I, N> {
    type Error = LayoutError;

    /// Same as [`KernelLayout::from_layout`].
    fn try_from(layout: &Layout<N>) -> Result<Self, LayoutError> {
        Self::from_layout(layout)
    }
}

impl<I: KernelIndex, const N: usize> TryFrom<&InterleavedLayout<N>> for KernelLayout<I, N> {
    type Error = LayoutError;

    /// Same as [`KernelLayout::from_interleaved`].
    fn try_from(layout: &InterleavedLayout<N>) -> Result<Self, LayoutError> {
        Self::from_interleaved(layout)
    }
}

impl<I: KernelIndex, const N: usize> TryFrom<Layout<N>> for KernelLayout<I, N> {
    type Error = LayoutError;

    /// Same as [`KernelLayout::from_layout`].
    fn try_from(layout: Layout<N>) -> Result<Self, LayoutError> {
        Self::from_layout(&layout)
    }
}

// SAFETY: `KernelLayout<I, N>` is `#[repr(C)]` and every field is `I` or
// `[I; N]`. A type's size is a multiple of its alignment, so each field ends on a multiple of
// `align_of::<I>()` and the next starts right there: no padding, for every `N` (including 0)
// and every `I`. The all-zero value is valid when `I`'s is (`Zeroable`), and every bit pattern
// is valid when `I`'s are (`Pod`): no field has a validity invariant beyond `I`'s own, and the
// methods are total over all values (see `KernelLayout`).
#[cfg(feature = "bytemuck")]
#[allow(unsafe_code)]
unsafe impl<I: bytemuck::Zeroable, const N: usize> bytemuck::Zeroable for KernelLayout<I, N> {}

// SAFETY: as for `Zeroable` just above: `#[repr(C)]`, no padding, every field an `I: Pod`.
#[cfg(feature = "bytemuck")]
#[allow(unsafe_code)]
unsafe impl<I: bytemuck::Pod, const N: usize> bytemuck::Pod for KernelLayout<I, N> {}

// SAFETY: cudarc copies a `DeviceRepr` value's bytes into the kernel's parameter buffer, so the
// type must be plain data with a C layout; `KernelLayout` is `#[repr(C)]`, padding-free (see
// above) and made only of `I`, which is `DeviceRepr` itself. The CUDA side declares the
// matching struct `{ I extents[N]; I strides[N]; I offset; I dim; I factor; }`.
#[cfg(feature = "cudarc")]
#[allow(unsafe_code)]
unsafe impl<I: cudarc::driver::DeviceRepr, const N: usize> cudarc::driver::DeviceRepr
    for KernelLayout<I, N>
{
}

#[cfg(test)]
#[allow(
    clippy::many_single_char_names,
    clippy::cast_possible_wrap,
    clippy::cast_possible_truncation
)]
mod tests {
    use super::*;

    /// The interleaved formula of the kernel mapping spec, in i128:
    /// `offset + Σ_{k ≠ d} i_k·s_k + (i_d / f)·s_d + (i_d % f)`.
    fn model(
        shape: [usize; 2],
        strides: [isize; 2],
        offset: isize,
        d: usize,
        f: usize,
        i: [usize; 2],
    ) -> i128 {
        let mut o = offset as i128;
        for k in 0..2 {
            let s = strides[k] as i128;
            o += if k == d {
                (i[k] / f) as i128 * s + (i[k] % f) as i128
            } else {
                i[k] as i128 * s
            };
        }
        let _ = shape;
        o
    }

    #[test]
    fn interleaved_parts_follow_the_block_formula_including_a_partial_last_block() {
        // CHW-like [6, 5] interleaved on axis 0 by 4 (blocks of 4 lanes, the last one partial):
        // block stride 20 on axis 0, stride 4 on axis 1, offset 3.
        let (shape, strides, offset) = ([6, 5], [20, 4], 3);
        for (d, f) in [(0, 4), (1, 2), (0, 1)] {
            let offs: std::vec::Vec<i128> = (0..6)
                .flat_map(|a| (0..5).map(move |b| model(shape, strides, offset, d, f, [a, b])))
                .collect();
            let lo = *offs.iter().min().unwrap() as isize;
            let hi = *offs.iter().max().unwrap() as isize;
            let k = KernelLayout::<i16, 2>::from_parts(
                &shape,
                &strides,
                offset,
                Some((lo, hi)),
                30,
                Some((d, f)),
            )
            .unwrap();
            assert_eq!(k.interleave(), if f > 1 { Some((d, f)) } else { None });
            for a in 0..6usize {
                for b in 0..5usize {
                    let want = model(shape, strides, offset, d, f, [a, b]);
                    let got = k.offset_of([a as i16, b as i16]);
                    assert_eq!(
                        <i128 as From<i16>>::from(got),
                        want,
                        "({d}, {f}) at [{a}, {b}]"
                    );
                    let linear = k.offset_of_linear((a * 5 + b) as i16);
                    assert_eq!(<i128 as From<i16>>::from(linear), want);
                }
            }
        }
    }

    #[test]
    fn from_parts_rejects_a_factor_or_dimension_that_does_not_fit_the_index_type() {
        let r = KernelLayout::<i8, 1>::from_parts(&[4], &[1], 0, Some((0, 3)), 4, Some((0, 300)));
        assert_eq!(r, Err(LayoutError::IndexTypeOverflow));
    }
}
