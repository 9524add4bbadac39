//! [`KernelLayout`]: the packing (checked, on the host) and the offset math (on the device).

use super::KernelIndex;
use super::pack::{Words, pack_interleaved, pack_layout, word_as};
use crate::algo::access::{get, set};
use crate::{InterleavedLayout, Layout, LayoutError};

/// A layout packed as a `#[repr(C)]` kernel parameter over the index type `I`: extents,
/// strides, offset, an interleave dimension and factor, then the fast-division constants.
///
/// Values are in elements; the kernel knows its element type. Build one on the host with
/// [`KernelLayout::from_layout`] (or `TryFrom`), pass it to a kernel by value, and call
/// [`offset_of`](KernelLayout::offset_of) or [`offset_of_linear`](KernelLayout::offset_of_linear)
/// on the device, in Rust (`nvptx64-nvidia-cuda`) or in C++ with `include/strided_layout.h`,
/// which declares the same struct and the same math.
///
/// # What is packed
///
/// `4N + 5` values of type `I`, in this order, with no padding:
///
/// ```text
/// #[repr(C)] KernelLayout<I, N>      size (4N + 5) * size_of::<I>(), align align_of::<I>()
/// +-------------+-------------+--------+----------------------+-------------------+
/// | extents [N] | strides [N] | offset | interleave_dimension | interleave_factor |
/// +-------------+-------------+--------+----------------------+-------------------+
/// | pitch_multipliers [N] | pitch_shifts [N] | factor_multiplier | factor_shift |
/// +-----------------------+------------------+-------------------+--------------+
///   offset_of(i) = offset + Σ_{k ≠ d} i_k·s_k + (i_d / f)·s_d + (i_d % f)   (d, f: interleave)
/// ```
///
/// | `N` | `I = i32` / `u32` | `I = i64` / `u64` |
/// | --- | --- | --- |
/// | 0 | 20 bytes | 40 bytes |
/// | 1 | 36 | 72 |
/// | 2 | 52 | 104 |
/// | 3 | 68 | 136 |
/// | 4 | 84 | 168 |
/// | 5 | 100 | 200 |
/// | 6 | 116 | 232 |
/// | 8 | 148 | 296 |
///
/// - A stride on an axis of extent 0 or 1 never reaches an offset, so it is packed as `0` (and
///   not checked against `I`): `(1, 2^30):(2^31, 1)` packs into `i32`.
/// - Factor 1 means plain strided (dimension 0). For an interleaved layout the stride of the
///   interleave axis is the block stride, as in [`InterleavedLayout`].
/// - `pitch_multipliers[k]`, `pitch_shifts[k]` are [`KernelIndex::division_magic`] of the
///   pitch of axis `k`, `Π_{j>k} extents[j]` (the linear positions one step of axis `k`
///   spans; 1 for the innermost axis, 0 for every axis of an empty layout), and
///   `factor_multiplier`, `factor_shift` that of the factor: what `offset_of_linear` (and the
///   interleave split) need to divide without a division instruction. Dividing `linear` by
///   each pitch directly, rather than by each extent in a chain, keeps the divisions
///   independent of one another.
///
/// This is the crate's own packing; it is not byte-compatible with CCCL or `CuPy`. CCCL's
/// `cuda::layout_stride_relaxed::mapping<Extents, Strides, OffsetType>` defaults its
/// `OffsetType` to `ptrdiff_t` whatever `Extents::index_type` is, so with `int` extents and
/// strides its offset takes 8 bytes (aligned to 8) where ours takes 4; it also requires a
/// non-negative offset and every mapped offset non-negative, keeps its members private (their
/// order is an implementation detail), and has no interleave descriptor or division constants.
/// What does line up: the first `2N + 1` values here are the extents, strides and offset a
/// kernel passes to `mapping<dextents<I, N>, dstrides<I, N>, I>(extents, strides, offset)` to
/// build the CCCL mapping from this struct on the device (for a layout whose offsets are all
/// non-negative). `CuPy` passes its own `CArray` (data pointer, size, shape and strides in
/// bytes). See [`doc::gpu`](crate::doc::gpu).
///
/// Every field has type `I`, so the struct has no padding for any `N` and any `I` (each field's
/// size is a multiple of `align_of::<I>()`): with the `bytemuck` feature it is `Pod` for every
/// `I: Pod`, with the `cudarc` feature it is `DeviceRepr` for every `I: DeviceRepr`. The size
/// and field offsets are asserted at compile time (`param/abi.rs`) and by the header itself
/// (`static_assert`s).
///
/// # Why the device math cannot go wrong
///
/// [`KernelLayout::from_layout`] accepts a layout only if `I` holds every extent, every stride
/// that reaches an offset, the offset, the volume and both offset bounds (the rule of
/// [`Layout::fits_in`], plus the volume). Then for any in-range index the true offset lies
/// between the bounds, so it fits `I`. A single term `i_k·s_k` need not fit a signed `I` (offset
/// `i32::MAX`, stride `-3`, extent `1431655766`: the last element sits at exactly `i32::MIN`,
/// yet the term `1431655765·(-3)` does not fit `i32`), so the math is done with wrapping
/// operations. Wrapping addition and multiplication are exact modulo `2^bits`; a result that is
/// known to lie in `I`'s range is therefore the true result. For an unsigned `I` the strides
/// and offset are non-negative, so no intermediate value even exceeds the final one. Division
/// and remainder (interleave, linear indices) are [`KernelIndex::divide_fast`], exact for every
/// dividend in `0..=I::MAX` (proof in its module); the remainder is `n − q·d`. A value built
/// from arbitrary bytes (through `bytemuck`) gives an unspecified offset, never a panic.
///
/// ```text
/// Layout (2,3):(1,2) +1        KernelLayout<i32, 2>
///  1 3 5                       extents [2, 3], strides [1, 2], offset 1,
///  2 4 6                       interleave_dimension 0, interleave_factor 1,
///                              pitch multipliers [1431655766, 1], shifts [2, 0],
///                              factor multiplier 1, factor shift 0
/// ```
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order};
/// use strided_layout::gpu::KernelLayout;
/// let l = Layout::dense([2, 3], 4, Order::F)?.with_offset(1)?;
/// let k = KernelLayout::<i32, 2>::from_layout(&l)?;
/// assert_eq!(k.offset_of([1, 2]), 6);
/// assert_eq!(core::mem::size_of_val(&k), (4 * 2 + 5) * 4);
/// # Ok::<(), LayoutError>(())
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct KernelLayout<I, const N: usize> {
    pub(super) extents: [I; N],
    pub(super) strides: [I; N],
    pub(super) offset: I,
    pub(super) interleave_dimension: I,
    pub(super) interleave_factor: I,
    pub(super) pitch_multipliers: [I; N],
    pub(super) pitch_shifts: [I; N],
    pub(super) factor_multiplier: I,
    pub(super) factor_shift: I,
}

impl<I: KernelIndex, const N: usize> KernelLayout<I, N> {
    /// The packing of explicit parts (the unit tests' way in: a partial last block, a factor
    /// that does not fit), as the `TryFrom` impls pack a layout's.
    #[cfg(test)]
    pub(crate) fn from_parts(
        shape: &[usize; N],
        strides: &[isize; N],
        offset: isize,
        bounds: Option<(isize, isize)>,
        volume: usize,
        interleave: Option<(usize, usize)>,
    ) -> Result<Self, LayoutError> {
        let w = super::pack::pack(I::RANGE, shape, strides, offset, bounds, volume, interleave)?;
        Ok(Self::of_words(&w))
    }

    /// The packing's words as values of `I`, each within `I`'s range: the generic `TryFrom`
    /// impls' conversion (the `const fn`s convert the same words per type).
    fn of_words(w: &Words<N>) -> Self {
        Self {
            extents: w.extents.map(I::from_word),
            strides: w.strides.map(I::from_word),
            offset: I::from_word(w.offset),
            interleave_dimension: I::from_word(w.dimension),
            interleave_factor: I::from_word(w.factor),
            pitch_multipliers: w.pitch_multipliers.map(I::from_word),
            pitch_shifts: w.pitch_shifts.map(I::from_word),
            factor_multiplier: I::from_word(w.factor_multiplier),
            factor_shift: I::from_word(w.factor_shift),
        }
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
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::gpu::KernelLayout;
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
        // Every array is read at the loop counter only (never at the split axis's number), so
        // once the loop over the constant `N` is unrolled a GPU keeps the layout in registers
        // instead of copying it to local memory to index it.
        let split = self.split();
        let terms = index.iter().zip(&self.strides).enumerate();
        terms.fold(self.offset, |acc, (k, (&i, &s))| match split {
            Some(split) if split.dimension == k => acc.wrapping_add(&term(i, s, split)),
            _ => acc.wrapping_add(&i.wrapping_mul(&s)),
        })
    }

    /// The element offset of the element at position `linear` in logical C order (last axis
    /// fastest), for `linear` in `0..volume`, computed in `I`.
    ///
    /// The usual grid-stride kernel loop: thread `t` handles `t, t + T, t + 2T, ...`. Device-side
    /// math, like [`offset_of`](Self::offset_of): for each axis but the innermost one
    /// multiply-high, add and shift (the packed [`KernelIndex::divide_fast`] constants of the
    /// axis pitch, the product of the extents after it) and one multiply-add by a coefficient
    /// that depends on the layout only (hoisted out of a grid-stride loop); no division
    /// instruction, no chain of dependent divisions, no panics. `linear` outside `0..volume` gives an unspecified
    /// offset.
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
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::gpu::KernelLayout;
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
        // q_k = linear / pitch_k, each straight from `linear` (no chain of divisions): the
        // innermost pitch is 1, so q_{N-1} = linear. With i_0 = q_0 and
        // i_k = q_k - extents[k]·q_{k-1}, the offset Σ i_k·s_k regroups as
        // Σ q_k·(s_k - extents[k+1]·s_{k+1}) (the last term without the product): one
        // multiply-add per axis, and the coefficients depend on the layout only, so a
        // grid-stride loop computes them once. All modulo 2^bits, like the rest of the device
        // math. The `k` tests fold away once the loop over the constant `N` is unrolled, and
        // every array is read at `k` only (see `offset_of`).
        let split = self.split();
        let mut acc = self.offset;
        // q_{k-1}; 0 before axis 0 (`linear` < volume).
        let mut outer = I::zero();
        for k in 0..N {
            let (Some(&extent), Some(&stride), Some(&mult), Some(&shift)) = (
                self.extents.get(k),
                self.strides.get(k),
                self.pitch_multipliers.get(k),
                self.pitch_shifts.get(k),
            ) else {
                break;
            };
            let next = k.wrapping_add(1);
            let (q, coefficient) = match (self.extents.get(next), self.strides.get(next)) {
                (Some(&e), Some(&s)) => (
                    I::divide_fast(linear, mult, shift),
                    stride.wrapping_sub(&e.wrapping_mul(&s)),
                ),
                _ => (linear, stride),
            };
            acc = acc.wrapping_add(&q.wrapping_mul(&coefficient));
            if let Some(split) = split.filter(|split| split.dimension == k) {
                // The interleaved axis (a branch that is the same for every thread): its term
                // corrected from `i·s` to `(i / f)·s + i % f`.
                let i = q.wrapping_sub(&extent.wrapping_mul(&outer));
                acc = acc
                    .wrapping_sub(&i.wrapping_mul(&stride))
                    .wrapping_add(&term(i, stride, split));
            }
            outer = q;
        }
        acc
    }

    /// The element offset of `index`, or `None` if some `index[k]` is outside `0..extents[k]`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::gpu::KernelLayout;
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
        super::below(&index, &self.extents).then(|| self.offset_of(index))
    }

    /// The number of elements, the product of the extents, computed in `I`.
    ///
    /// Exact for a value built by [`from_layout`](Self::from_layout) (which checked that the
    /// volume fits `I`); wrapped modulo `2^bits` for arbitrary bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::gpu::KernelLayout;
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
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::gpu::KernelLayout;
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

    /// The same layout with the interleave fields of a plain one (dimension 0, factor 1), or
    /// `None` if an axis is interleaved: for a kernel's loop, which tests it once, outside.
    ///
    /// The offsets are the same; what changes is what the compiler knows. Inside the loop,
    /// `offset_of_linear` on the copy sees the constant factor 1, so the interleave tests and
    /// corrections leave the loop (on an H100-class target, rank 4 `i32`: about half the
    /// instructions per element of the loop over the original). The header's `is_plain()`,
    /// `as_plain()` and `grid_stride_offsets` do the same in C++.
    ///
    /// ```text
    /// match (src.as_plain(), dst.as_plain()) {
    ///     (Some(s), Some(d)) => grid_loop(&s, &d),   // plain layouts: no interleave tests
    ///     _ => grid_loop(&src, &dst),
    /// }
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, Layout, LayoutError, Order};
    /// use strided_layout::gpu::KernelLayout;
    /// let k = KernelLayout::<i32, 2>::from_layout(&Layout::dense([2, 3], 4, Order::F)?)?;
    /// let plain = k.as_plain().ok_or(LayoutError::IndexTypeOverflow)?;
    /// assert_eq!(plain.offset_of_linear(4), k.offset_of_linear(4));
    /// let hwc = InterleavedLayout::dense([3, 4, 5], 1, InterleaveLayout::new(0, 3)?)?;
    /// assert_eq!(KernelLayout::<i32, 3>::from_interleaved(&hwc)?.as_plain(), None);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn as_plain(&self) -> Option<Self> {
        match self.split_axis() {
            Some(_) => None,
            None => Some(Self {
                interleave_dimension: I::zero(),
                interleave_factor: I::one(),
                ..*self
            }),
        }
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

    /// The interleave split with its division constants, for [`term`].
    #[inline]
    fn split(&self) -> Option<Split<I>> {
        let (dimension, factor) = self.split_axis()?;
        Some(Split {
            dimension,
            factor,
            multiplier: self.factor_multiplier,
            shift: self.factor_shift,
        })
    }

    /// The packed values in memory order (`4N + 5` of them), as the header reads them: write
    /// each with `to_ne_bytes` to get the bytes of this value without `bytemuck`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::gpu::KernelLayout;
    /// let k = KernelLayout::<i32, 1>::from_layout(&Layout::dense([6], 4, Order::C)?)?;
    /// let words: Vec<i32> = k.words().collect();
    /// // extents, strides, offset, dimension, factor, pitch multiplier and shift, factor ones
    /// assert_eq!(words, [6, 1, 0, 0, 1, 1, 0, 1, 0]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn words(&self) -> impl Iterator<Item = I> + use<I, N> {
        let k = *self;
        let mid = [k.offset, k.interleave_dimension, k.interleave_factor];
        k.extents
            .into_iter()
            .chain(k.strides)
            .chain(mid)
            .chain(k.pitch_multipliers)
            .chain(k.pitch_shifts)
            .chain([k.factor_multiplier, k.factor_shift])
    }
}

impl<I: Copy, const N: usize> KernelLayout<I, N> {
    /// The extents, one per axis.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::gpu::KernelLayout;
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
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::gpu::KernelLayout;
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
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::gpu::KernelLayout;
    /// let l = Layout::dense([2, 3], 4, Order::C)?.with_offset(7)?;
    /// assert_eq!(KernelLayout::<i32, 2>::from_layout(&l)?.offset(), 7);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn offset(&self) -> I {
        self.offset
    }
}

/// The packing's words as a `KernelLayout` of one index type, in a `const fn` (each word lies
/// in the type's range, so every `as` is exact).
macro_rules! const_packing {
    ($t:ty; $(#[$la:meta])* ; $(#[$ia:meta])*) => {
        impl<const N: usize> KernelLayout<$t, N> {
            $(#[$la])*
            pub const fn from_layout(layout: &Layout<N>) -> Result<Self, LayoutError> {
                Self::from_words(pack_layout(<$t as KernelIndex>::RANGE, layout))
            }

            $(#[$ia])*
            pub const fn from_interleaved(
                layout: &InterleavedLayout<N>,
            ) -> Result<Self, LayoutError> {
                Self::from_words(pack_interleaved(<$t as KernelIndex>::RANGE, layout))
            }

            const fn from_words(words: Result<Words<N>, LayoutError>) -> Result<Self, LayoutError> {
                let w = match words {
                    Ok(w) => w,
                    Err(e) => return Err(e),
                };
                let mut out = Self {
                    extents: [0; N],
                    strides: [0; N],
                    offset: word_as!($t, w.offset),
                    interleave_dimension: word_as!($t, w.dimension),
                    interleave_factor: word_as!($t, w.factor),
                    pitch_multipliers: [0; N],
                    pitch_shifts: [0; N],
                    factor_multiplier: word_as!($t, w.factor_multiplier),
                    factor_shift: word_as!($t, w.factor_shift),
                };
                let mut k = 0;
                while k < N {
                    let (Some(e), Some(s), Some(m), Some(sh)) = (
                        get(&w.extents, k),
                        get(&w.strides, k),
                        get(&w.pitch_multipliers, k),
                        get(&w.pitch_shifts, k),
                    ) else {
                        break;
                    };
                    set(&mut out.extents, k, word_as!($t, e));
                    set(&mut out.strides, k, word_as!($t, s));
                    set(&mut out.pitch_multipliers, k, word_as!($t, m));
                    set(&mut out.pitch_shifts, k, word_as!($t, sh));
                    k = k.saturating_add(1);
                }
                Ok(out)
            }
        }
    };
}

const_packing!(i32;
/// Packs `layout` for a kernel whose offset math uses this index type, checking that
/// nothing narrows; `const`, so a layout known at compile time is packed at compile time.
///
/// The check is [`Layout::fits_in`] (every extent, stride, the
/// offset and both offset bounds) plus the volume, so a kernel may also iterate a linear
/// index `0..volume` in the index type.
///
/// One `const fn` per index type (`i8` to `u64`); generic code over `I: KernelIndex` uses
/// `KernelLayout::<I, N>::try_from(&layout)`, the same conversion.
///
/// # Errors
///
/// - [`LayoutError::IndexTypeOverflow`] if an extent, a stride, the offset, the volume or
///   an element offset does not fit the index type.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order};
/// use strided_layout::gpu::KernelLayout;
/// let l = Layout::dense([3000, 3000, 300], 4, Order::C)?;
/// assert_eq!(KernelLayout::<i32, 3>::from_layout(&l), Err(LayoutError::IndexTypeOverflow));
/// let k = KernelLayout::<i64, 3>::from_layout(&l)?;
/// assert_eq!(k.offset_of([2999, 2999, 299]), 3000 * 3000 * 300 - 1);
/// // A negative stride or offset never fits an unsigned index type.
/// let flipped = l.flipped(0)?;
/// assert!(KernelLayout::<u64, 3>::from_layout(&flipped).is_err());
/// // At compile time:
/// const K: KernelLayout<i32, 2> = match KernelLayout::<i32, 2>::from_layout(
///     &strided_layout::const_unwrap(Layout::dense([1080, 1920], 4, Order::C)),
/// ) {
///     Ok(k) => k,
///     Err(_) => panic!("does not fit i32"),
/// };
/// assert_eq!(K.offset_of([1, 2]), 1922);
/// # Ok::<(), LayoutError>(())
/// ```
///
/// # Postconditions
///
/// - `Ok(k)` iff `layout.fits_in::<I>()` and `I` (this index type) holds `layout.volume()`
/// - `k.offset_of(i) == layout.offset_of(i)` for every in-range index `i`
/// - `k.interleave() == None`
;
/// Packs an interleaved layout (`const`, like [`from_layout`](Self::from_layout)): its strided parts plus the interleave dimension and
/// factor, which the device math reads (`(i_d / f) * strides[d] + i_d % f` on axis `d`).
///
/// # Errors
///
/// - [`LayoutError::IndexTypeOverflow`] if an extent, a stride, the offset, the volume,
///   an element offset, the dimension or the factor does not fit the index type.
///
/// # Examples
///
/// ```
/// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
/// use strided_layout::gpu::KernelLayout;
/// let hwc = InterleavedLayout::dense([3, 4, 5], 1, InterleaveLayout::new(0, 3)?)?;
/// let k = KernelLayout::<i32, 3>::from_interleaved(&hwc)?;
/// assert_eq!(k.interleave(), Some((0, 3)));
/// assert_eq!(k.offset_of([2, 1, 4]), hwc.offset_of([2, 1, 4])? as i32);
/// # Ok::<(), LayoutError>(())
/// ```
///
/// # Postconditions
///
/// - `k.offset_of(i) == l.offset_of(i)` (in the index type) for every index `i`
);
const_packing!(i8;
/// Packs `layout` for this index type: the conversion of
/// [`KernelLayout::<i32, N>::from_layout`](KernelLayout::from_layout), rules, errors and
/// postconditions included.
///
/// # Errors
///
/// - [`LayoutError::IndexTypeOverflow`] if an extent, a stride, the offset, the volume or
///   an element offset does not fit the index type.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order, const_unwrap};
/// use strided_layout::gpu::KernelLayout;
/// const F: Layout<2> = const_unwrap(Layout::dense([3, 5], 4, Order::F));
/// const K: Result<KernelLayout<i8, 2>, LayoutError> = KernelLayout::<i8, 2>::from_layout(&F);
/// assert_eq!(K?.offset_of([2, 4]), 14);
/// # Ok::<(), LayoutError>(())
/// ```
;
/// Packs an interleaved layout for this index type: the conversion of
/// [`KernelLayout::<i32, N>::from_interleaved`](KernelLayout::from_interleaved).
///
/// # Errors
///
/// - [`LayoutError::IndexTypeOverflow`] if an extent, a stride, the offset, the volume,
///   an element offset, the dimension or the factor does not fit the index type.
///
/// # Examples
///
/// ```
/// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
/// use strided_layout::gpu::KernelLayout;
/// let hwc = InterleavedLayout::dense([3, 4, 5], 1, InterleaveLayout::new(0, 3)?)?;
/// let k = KernelLayout::<i8, 3>::from_interleaved(&hwc)?;
/// assert_eq!(k.interleave(), Some((0, 3)));
/// # Ok::<(), LayoutError>(())
/// ```
);
const_packing!(i16;
/// Packs `layout` for this index type: the conversion of
/// [`KernelLayout::<i32, N>::from_layout`](KernelLayout::from_layout), rules, errors and
/// postconditions included.
///
/// # Errors
///
/// - [`LayoutError::IndexTypeOverflow`] if an extent, a stride, the offset, the volume or
///   an element offset does not fit the index type.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order, const_unwrap};
/// use strided_layout::gpu::KernelLayout;
/// const F: Layout<2> = const_unwrap(Layout::dense([3, 5], 4, Order::F));
/// const K: Result<KernelLayout<i16, 2>, LayoutError> = KernelLayout::<i16, 2>::from_layout(&F);
/// assert_eq!(K?.offset_of([2, 4]), 14);
/// # Ok::<(), LayoutError>(())
/// ```
;
/// Packs an interleaved layout for this index type: the conversion of
/// [`KernelLayout::<i32, N>::from_interleaved`](KernelLayout::from_interleaved).
///
/// # Errors
///
/// - [`LayoutError::IndexTypeOverflow`] if an extent, a stride, the offset, the volume,
///   an element offset, the dimension or the factor does not fit the index type.
///
/// # Examples
///
/// ```
/// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
/// use strided_layout::gpu::KernelLayout;
/// let hwc = InterleavedLayout::dense([3, 4, 5], 1, InterleaveLayout::new(0, 3)?)?;
/// let k = KernelLayout::<i16, 3>::from_interleaved(&hwc)?;
/// assert_eq!(k.interleave(), Some((0, 3)));
/// # Ok::<(), LayoutError>(())
/// ```
);
const_packing!(i64;
/// Packs `layout` for this index type: the conversion of
/// [`KernelLayout::<i32, N>::from_layout`](KernelLayout::from_layout), rules, errors and
/// postconditions included.
///
/// # Errors
///
/// - [`LayoutError::IndexTypeOverflow`] if an extent, a stride, the offset, the volume or
///   an element offset does not fit the index type.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order, const_unwrap};
/// use strided_layout::gpu::KernelLayout;
/// const F: Layout<2> = const_unwrap(Layout::dense([3, 5], 4, Order::F));
/// const K: Result<KernelLayout<i64, 2>, LayoutError> = KernelLayout::<i64, 2>::from_layout(&F);
/// assert_eq!(K?.offset_of([2, 4]), 14);
/// # Ok::<(), LayoutError>(())
/// ```
;
/// Packs an interleaved layout for this index type: the conversion of
/// [`KernelLayout::<i32, N>::from_interleaved`](KernelLayout::from_interleaved).
///
/// # Errors
///
/// - [`LayoutError::IndexTypeOverflow`] if an extent, a stride, the offset, the volume,
///   an element offset, the dimension or the factor does not fit the index type.
///
/// # Examples
///
/// ```
/// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
/// use strided_layout::gpu::KernelLayout;
/// let hwc = InterleavedLayout::dense([3, 4, 5], 1, InterleaveLayout::new(0, 3)?)?;
/// let k = KernelLayout::<i64, 3>::from_interleaved(&hwc)?;
/// assert_eq!(k.interleave(), Some((0, 3)));
/// # Ok::<(), LayoutError>(())
/// ```
);
const_packing!(u8;
/// Packs `layout` for this index type: the conversion of
/// [`KernelLayout::<i32, N>::from_layout`](KernelLayout::from_layout), rules, errors and
/// postconditions included.
///
/// # Errors
///
/// - [`LayoutError::IndexTypeOverflow`] if an extent, a stride, the offset, the volume or
///   an element offset does not fit the index type.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order, const_unwrap};
/// use strided_layout::gpu::KernelLayout;
/// const F: Layout<2> = const_unwrap(Layout::dense([3, 5], 4, Order::F));
/// const K: Result<KernelLayout<u8, 2>, LayoutError> = KernelLayout::<u8, 2>::from_layout(&F);
/// assert_eq!(K?.offset_of([2, 4]), 14);
/// # Ok::<(), LayoutError>(())
/// ```
;
/// Packs an interleaved layout for this index type: the conversion of
/// [`KernelLayout::<i32, N>::from_interleaved`](KernelLayout::from_interleaved).
///
/// # Errors
///
/// - [`LayoutError::IndexTypeOverflow`] if an extent, a stride, the offset, the volume,
///   an element offset, the dimension or the factor does not fit the index type.
///
/// # Examples
///
/// ```
/// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
/// use strided_layout::gpu::KernelLayout;
/// let hwc = InterleavedLayout::dense([3, 4, 5], 1, InterleaveLayout::new(0, 3)?)?;
/// let k = KernelLayout::<u8, 3>::from_interleaved(&hwc)?;
/// assert_eq!(k.interleave(), Some((0, 3)));
/// # Ok::<(), LayoutError>(())
/// ```
);
const_packing!(u16;
/// Packs `layout` for this index type: the conversion of
/// [`KernelLayout::<i32, N>::from_layout`](KernelLayout::from_layout), rules, errors and
/// postconditions included.
///
/// # Errors
///
/// - [`LayoutError::IndexTypeOverflow`] if an extent, a stride, the offset, the volume or
///   an element offset does not fit the index type.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order, const_unwrap};
/// use strided_layout::gpu::KernelLayout;
/// const F: Layout<2> = const_unwrap(Layout::dense([3, 5], 4, Order::F));
/// const K: Result<KernelLayout<u16, 2>, LayoutError> = KernelLayout::<u16, 2>::from_layout(&F);
/// assert_eq!(K?.offset_of([2, 4]), 14);
/// # Ok::<(), LayoutError>(())
/// ```
;
/// Packs an interleaved layout for this index type: the conversion of
/// [`KernelLayout::<i32, N>::from_interleaved`](KernelLayout::from_interleaved).
///
/// # Errors
///
/// - [`LayoutError::IndexTypeOverflow`] if an extent, a stride, the offset, the volume,
///   an element offset, the dimension or the factor does not fit the index type.
///
/// # Examples
///
/// ```
/// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
/// use strided_layout::gpu::KernelLayout;
/// let hwc = InterleavedLayout::dense([3, 4, 5], 1, InterleaveLayout::new(0, 3)?)?;
/// let k = KernelLayout::<u16, 3>::from_interleaved(&hwc)?;
/// assert_eq!(k.interleave(), Some((0, 3)));
/// # Ok::<(), LayoutError>(())
/// ```
);
const_packing!(u32;
/// Packs `layout` for this index type: the conversion of
/// [`KernelLayout::<i32, N>::from_layout`](KernelLayout::from_layout), rules, errors and
/// postconditions included.
///
/// # Errors
///
/// - [`LayoutError::IndexTypeOverflow`] if an extent, a stride, the offset, the volume or
///   an element offset does not fit the index type.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order, const_unwrap};
/// use strided_layout::gpu::KernelLayout;
/// const F: Layout<2> = const_unwrap(Layout::dense([3, 5], 4, Order::F));
/// const K: Result<KernelLayout<u32, 2>, LayoutError> = KernelLayout::<u32, 2>::from_layout(&F);
/// assert_eq!(K?.offset_of([2, 4]), 14);
/// # Ok::<(), LayoutError>(())
/// ```
;
/// Packs an interleaved layout for this index type: the conversion of
/// [`KernelLayout::<i32, N>::from_interleaved`](KernelLayout::from_interleaved).
///
/// # Errors
///
/// - [`LayoutError::IndexTypeOverflow`] if an extent, a stride, the offset, the volume,
///   an element offset, the dimension or the factor does not fit the index type.
///
/// # Examples
///
/// ```
/// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
/// use strided_layout::gpu::KernelLayout;
/// let hwc = InterleavedLayout::dense([3, 4, 5], 1, InterleaveLayout::new(0, 3)?)?;
/// let k = KernelLayout::<u32, 3>::from_interleaved(&hwc)?;
/// assert_eq!(k.interleave(), Some((0, 3)));
/// # Ok::<(), LayoutError>(())
/// ```
);
const_packing!(u64;
/// Packs `layout` for this index type: the conversion of
/// [`KernelLayout::<i32, N>::from_layout`](KernelLayout::from_layout), rules, errors and
/// postconditions included.
///
/// # Errors
///
/// - [`LayoutError::IndexTypeOverflow`] if an extent, a stride, the offset, the volume or
///   an element offset does not fit the index type.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order, const_unwrap};
/// use strided_layout::gpu::KernelLayout;
/// const F: Layout<2> = const_unwrap(Layout::dense([3, 5], 4, Order::F));
/// const K: Result<KernelLayout<u64, 2>, LayoutError> = KernelLayout::<u64, 2>::from_layout(&F);
/// assert_eq!(K?.offset_of([2, 4]), 14);
/// # Ok::<(), LayoutError>(())
/// ```
;
/// Packs an interleaved layout for this index type: the conversion of
/// [`KernelLayout::<i32, N>::from_interleaved`](KernelLayout::from_interleaved).
///
/// # Errors
///
/// - [`LayoutError::IndexTypeOverflow`] if an extent, a stride, the offset, the volume,
///   an element offset, the dimension or the factor does not fit the index type.
///
/// # Examples
///
/// ```
/// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
/// use strided_layout::gpu::KernelLayout;
/// let hwc = InterleavedLayout::dense([3, 4, 5], 1, InterleaveLayout::new(0, 3)?)?;
/// let k = KernelLayout::<u64, 3>::from_interleaved(&hwc)?;
/// assert_eq!(k.interleave(), Some((0, 3)));
/// # Ok::<(), LayoutError>(())
/// ```
);

/// The interleave split of a [`KernelLayout`]: axis, factor and the factor's division
/// constants.
#[derive(Clone, Copy)]
struct Split<I> {
    dimension: usize,
    factor: I,
    multiplier: I,
    shift: I,
}

/// The interleave axis's contribution to an offset: `(i / f)·s + i % f`.
///
/// Wrapping operations: see "Why the device math cannot go wrong" on [`KernelLayout`] for
/// why the sum is exact. The split uses the packed division constants of `f`.
#[inline]
fn term<I: KernelIndex>(index: I, stride: I, split: Split<I>) -> I {
    let block = I::divide_fast(index, split.multiplier, split.shift);
    let lane = index.wrapping_sub(&block.wrapping_mul(&split.factor));
    block.wrapping_mul(&stride).wrapping_add(&lane)
}

impl<I: KernelIndex, const N: usize> TryFrom<&Layout<N>> for KernelLayout<I, N> {
    type Error = LayoutError;

    /// Same as [`KernelLayout::from_layout`].
    fn try_from(layout: &Layout<N>) -> Result<Self, LayoutError> {
        Ok(Self::of_words(&pack_layout(I::RANGE, layout)?))
    }
}

impl<I: KernelIndex, const N: usize> TryFrom<&InterleavedLayout<N>> for KernelLayout<I, N> {
    type Error = LayoutError;

    /// Same as [`KernelLayout::from_interleaved`].
    fn try_from(layout: &InterleavedLayout<N>) -> Result<Self, LayoutError> {
        Ok(Self::of_words(&pack_interleaved(I::RANGE, layout)?))
    }
}

impl<I: KernelIndex, const N: usize> TryFrom<Layout<N>> for KernelLayout<I, N> {
    type Error = LayoutError;

    /// Same as [`KernelLayout::from_layout`].
    fn try_from(layout: Layout<N>) -> Result<Self, LayoutError> {
        Self::try_from(&layout)
    }
}

#[cfg(test)]
#[expect(
    clippy::many_single_char_names,
    clippy::cast_possible_wrap,
    clippy::cast_possible_truncation,
    reason = "test models: short formula names, small values cast between index types"
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
