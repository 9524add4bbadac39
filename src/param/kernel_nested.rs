//! [`KernelNestedLayout`]: a nested layout (several blocked modes, an axis blocked several
//! times, partial last blocks) packed as a kernel parameter, with one fast division per leaf.

use super::KernelIndex;
use super::pack::{IndexRange, magic};
use crate::LayoutError;
use crate::nested::{NestedError, NestedLayout, RankedNested};

/// The version of the kernel-parameter ABI this crate packs: the first word of every
/// [`KernelNestedLayout`], and `STRIDED_LAYOUT_ABI_VERSION` in `include/strided_layout.h`.
///
/// Version 1 was the header with [`KernelLayout`](super::KernelLayout) alone (whose bytes
/// are unchanged); version 2 adds [`KernelNestedLayout`]. A kernel compiled against another
/// version of the header can test [`KernelNestedLayout::is_current`] (C++: `is_current()`) and
/// refuse the parameter instead of reading fields that moved.
///
/// # Examples
///
/// ```
/// use strided_layout::gpu::ABI_VERSION;
/// assert!(strided_layout::gpu::KERNEL_HEADER
///     .contains(&format!("#define STRIDED_LAYOUT_ABI_VERSION {ABI_VERSION}")));
/// ```
pub const ABI_VERSION: u32 = 2;

/// A nested layout packed as a `#[repr(C)]` kernel parameter over the index type `I`: `N`
/// top-level modes (the axes), each of at most `B` leaves, with the fast-division constants
/// of every leaf, so a kernel computes an offset with one multiply-high per leaf and no
/// division instruction.
///
/// It carries what [`KernelLayout`](super::KernelLayout) cannot: several blocked axes, an axis
/// blocked twice (oneDNN's `OIhw16i16o`, `OIhw4i16o4i`, `gOIhw2i8o4i`), CuTe's tiled modes, and a
/// partial last block on each mode (Core AI's interleave, oneDNN's padded channels). Build one
/// on the host with [`from_nested`](Self::from_nested) from a
/// [`NestedLayout`] (a [`Layout`](crate::Layout) or an
/// [`InterleavedLayout`](crate::InterleavedLayout) converts to one losslessly), pass it by
/// value, and call [`offset_of`](Self::offset_of) or
/// [`offset_of_linear`](Self::offset_of_linear) on the device, in Rust or in C++ with
/// `include/strided_layout.h` (the same struct, `KernelNestedLayout<I, N, B>`).
///
/// # What is packed
///
/// `3 + 3N + 5NB` values of type `I`, in this order, with no padding:
///
/// ```text
/// #[repr(C)] KernelNestedLayout<I, N, B>     size (3 + 3N + 5NB) * size_of::<I>()
/// +---------+--------+------+-----------+----------------------+-----------------+
/// | version | offset | size | sizes [N] | mode_multipliers [N] | mode_shifts [N] |
/// +---------+--------+------+-----------+----------------------+-----------------+
/// | extents [N][B] | strides [N][B] | weights [N][B] | leaf_multipliers [N][B] | leaf_shifts [N][B] |
/// +----------------+----------------+----------------+-------------------------+--------------------+
/// ```
///
/// - `version` is [`ABI_VERSION`]; `size` the number of coordinates; `sizes[k]` the size of
///   mode `k` (a partial last block included).
/// - Mode `k`'s leaves are `extents[k][0..]`, `strides[k][0..]`, the fastest first, as CuTe
///   decomposes a coordinate (colexicographically); a mode of fewer than `B` leaves is padded
///   with leaves of extent 1 and stride 0. The outermost leaf is the mode's last block level:
///   its extent is the number of blocks, the last of which may be partial. A stride on a leaf
///   of extent 0 or 1 never reaches an offset, so it is packed as 0.
/// - With `p_b` the product of the extents of the leaves before leaf `b` (its *pitch*, 1 for
///   the first), coordinate `c` of the mode has digit `(c / p_b) % e_b` on leaf `b` (no
///   remainder on the outermost). The offset regroups as `Σ_b (c / p_b) · w_b` with the
///   *weights* `w_0 = s_0`, `w_b = s_b − e_{b−1} · s_{b−1}` (packed modulo `2^bits`), so each
///   leaf costs one division by its pitch (`leaf_multipliers`, `leaf_shifts`:
///   [`KernelIndex::division_magic`] of `p_b`) and one multiply-add; padding leaves weigh 0.
/// - A 1-D coordinate `t` (first mode fastest, as CuTe's `layout(t)`) gives mode `k` the
///   coordinate `(t / P_k) % sizes[k]` with `P_k` the product of the sizes before mode `k`
///   (`mode_multipliers`, `mode_shifts`; every pitch 0 for a layout of no coordinate).
///
/// ```text
///   offset_of(c) = offset + Σ_k Σ_b (c_k / p_kb) · w_kb
/// ```
///
/// # Why the device math cannot go wrong
///
/// As for [`KernelLayout`](super::KernelLayout): [`from_nested`](Self::from_nested) accepts a
/// layout only if `I` holds every extent, every stride that reaches an offset, every pitch,
/// every mode size, the size, the offset and both offset bounds. For in-range coordinates the
/// true offset lies between the bounds, so it fits `I`; the sum is taken with wrapping
/// operations, exact modulo `2^bits`, so the result is the true offset even where a single
/// weight or product wraps. Every dividend is a coordinate below a size that fits `I`, where
/// [`KernelIndex::divide_fast`] is exact. Arbitrary bytes (through `bytemuck`) give an
/// unspecified offset, never a panic.
///
/// ```text
/// nChw4c of 10 channels by 5 pixels: ((4,3)|10,5):((1,20),4)     KernelNestedLayout<i32, 2, 2>
///  channel  0 1 2 3 4  5  6  7  8  9                            sizes [10, 5]
///  pixel 0  0 1 2 3 20 21 22 23 40 41                           extents [[4, 3], [5, 1]]
///  pixel 1  4 5 6 7 24 25 26 27 44 45                           strides [[1, 20], [4, 0]]
///                                                               weights [[1, 16], [4, -20]]
/// ```
///
/// (Mode 1's padding leaf weighs `0 − 5·4`, but its quotient `c / 5` is 0 for every
/// coordinate `c < 5`; weights past a mode's leaves are only packed as 0.)
///
/// # Examples
///
/// ```
/// use strided_layout::gpu::KernelNestedLayout;
/// use strided_layout::nested::NestedLayout;
/// // oneDNN's OIhw4i16o4i: `i` blocked twice, `o` once, 20 x 20 (padded to 32 x 32) x 3 x 3.
/// let w = NestedLayout::<8>::onednn("OIhw4i16o4i", &[20, 20, 3, 3], 4)?;
/// let k = KernelNestedLayout::<i32, 4, 3>::from_nested(&w)?;
/// assert_eq!(k.offset_of([17, 6, 2, 1]) as isize, w.offset_of(&[17, 6, 2, 1])?);
/// assert_eq!(k.offset_of_linear(1234) as isize, w.offset_of_linear(1234)?);
/// assert!(k.is_current());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct KernelNestedLayout<I, const N: usize, const B: usize> {
    pub(super) version: I,
    pub(super) offset: I,
    pub(super) size: I,
    pub(super) sizes: [I; N],
    pub(super) mode_multipliers: [I; N],
    pub(super) mode_shifts: [I; N],
    pub(super) extents: [[I; B]; N],
    pub(super) strides: [[I; B]; N],
    pub(super) weights: [[I; B]; N],
    pub(super) leaf_multipliers: [[I; B]; N],
    pub(super) leaf_shifts: [[I; B]; N],
}

/// `v` as a word of the type of `range`, or `IndexTypeOverflow`.
fn fit(range: IndexRange, v: i128) -> Result<i128, NestedError> {
    if range.holds(v) {
        Ok(v)
    } else {
        Err(NestedError::Layout(LayoutError::IndexTypeOverflow))
    }
}

/// `v` modulo `2^bits`, as the word of the type of `range` with that bit pattern: what wrapping
/// arithmetic in the type computes with it.
fn wrapped(range: IndexRange, v: i128) -> i128 {
    // bits <= 64 for every index type: the shift and the subtraction below are exact.
    let Some(modulus) = 1i128.checked_shl(range.bits) else {
        return v;
    };
    let r = v.rem_euclid(modulus);
    if range.min < 0 && r > range.max {
        r.wrapping_sub(modulus)
    } else {
        r
    }
}

/// `magic` of `divisor` as words of the type, or `IndexTypeOverflow`.
fn magic_of(range: IndexRange, divisor: i128) -> Result<(i128, i128), NestedError> {
    magic(range, divisor).ok_or(NestedError::Layout(LayoutError::IndexTypeOverflow))
}

impl<I: KernelIndex, const N: usize, const B: usize> KernelNestedLayout<I, N, B> {
    /// Packs `layout` for a kernel whose offset math uses the index type `I`, checking that
    /// nothing narrows and that every mode fits `B` leaves.
    ///
    /// The layout goes through [`NestedLayout::lowered`], the form every kernel of the crate
    /// reads, so the kernel parameter takes exactly the layouts the host kernels take: each
    /// top-level mode an axis whose leaves (leaves of extent 1 dropped) are its block levels,
    /// fastest first, with a partial block only at the mode's outermost level.
    ///
    /// # Errors
    ///
    /// - [`NestedError::RankMismatch`] if the layout's rank is not `N`;
    /// - [`NestedError::CutMode`] for a partial block below the top of a mode, or a layout
    ///   that is cut itself (as [`NestedLayout::lowered`]);
    /// - [`NestedError::TooManyLeaves`] with `max: B` if a mode has more than `B` leaves of
    ///   extent other than 1;
    /// - [`NestedError::Layout`] with [`LayoutError::IndexTypeOverflow`] if an extent, a
    ///   stride that reaches an offset, a leaf's pitch, a mode's size, the size, the offset or
    ///   an element offset does not fit `I`, and the lowering's own errors (more than
    ///   [`MAX_LEVELS`](crate::plan::MAX_LEVELS) block levels in all).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::gpu::KernelNestedLayout;
    /// use strided_layout::nested::{NestedError, NestedLayout};
    /// use strided_layout::LayoutError;
    /// let nchw16c = NestedLayout::<8>::onednn("nChw16c", &[1, 40, 7, 7], 2)?;
    /// let k = KernelNestedLayout::<u32, 4, 2>::from_nested(&nchw16c)?;
    /// assert_eq!(k.sizes(), [1, 40, 7, 7]);
    /// assert_eq!(k.extents()[1], [16, 3]); // channels: 16 lanes, 3 blocks (the last half full)
    /// // A mode of two leaves needs B >= 2; a channel offset past i8 needs a wider type.
    /// assert_eq!(
    ///     KernelNestedLayout::<u32, 4, 1>::from_nested(&nchw16c),
    ///     Err(NestedError::TooManyLeaves { max: 1 })
    /// );
    /// assert_eq!(
    ///     KernelNestedLayout::<i8, 4, 2>::from_nested(&nchw16c),
    ///     Err(NestedError::Layout(LayoutError::IndexTypeOverflow))
    /// );
    /// # Ok::<(), NestedError>(())
    /// ```
    pub fn from_nested<const L: usize>(layout: &NestedLayout<L>) -> Result<Self, NestedError> {
        let range = I::RANGE;
        let low = layout.lowered::<N>()?;
        // The structure first, then the values: each mode's block levels and its outermost
        // level (none for a mode of no coordinate) must fit `B` leaves.
        for (k, &size) in low.shape.iter().enumerate() {
            let levels = low.blocks.levels().iter().filter(|l| l.axis == k).count();
            if levels.saturating_add(usize::from(size != 0)) > B {
                return Err(NestedError::TooManyLeaves { max: B });
            }
        }
        let too_big = NestedError::Layout(LayoutError::IndexTypeOverflow);
        // usize and isize are at most 64 bits wide on every target: each `as i128` below is
        // exact.
        let volume = layout.size() as i128;
        if let Some((lo, hi)) = layout.offset_bounds() {
            fit(range, lo as i128)?;
            fit(range, hi as i128)?;
        }
        let word = |v: i128| I::from_word(v);
        let one = magic_of(range, 1)?;
        let mut out = Self {
            version: word(i128::from(ABI_VERSION)),
            offset: word(fit(range, low.offset as i128)?),
            size: word(fit(range, volume)?),
            sizes: [I::zero(); N],
            mode_multipliers: [I::zero(); N],
            mode_shifts: [I::zero(); N],
            extents: [[I::one(); B]; N],
            strides: [[I::zero(); B]; N],
            weights: [[I::zero(); B]; N],
            leaf_multipliers: [[word(one.0); B]; N],
            leaf_shifts: [[word(one.1); B]; N],
        };
        // P_k: the product of the sizes before mode k, at most the size (0 throughout for a
        // layout of no coordinate, where no 1-D coordinate is in range).
        let mut pitch: i128 = i128::from(volume != 0);
        let modes = out
            .sizes
            .iter_mut()
            .zip(out.mode_multipliers.iter_mut().zip(&mut out.mode_shifts))
            .zip(low.shape.iter().zip(&low.strides));
        let leaves = out
            .extents
            .iter_mut()
            .zip(out.strides.iter_mut().zip(&mut out.weights))
            .zip(out.leaf_multipliers.iter_mut().zip(&mut out.leaf_shifts));
        for (k, (((size_w, (mult_w, shift_w)), (&size, &outer_stride)), leaf_w)) in
            modes.zip(leaves).enumerate()
        {
            let size = size as i128;
            *size_w = word(fit(range, size)?);
            let (m, sh) = magic_of(range, pitch)?;
            (*mult_w, *shift_w) = (word(m), word(sh));
            pitch = fit(range, pitch.checked_mul(size).ok_or(too_big)?)?;
            // The mode's leaves: its block levels (fastest first), then its outermost level,
            // whose extent is the number of blocks (the last perhaps partial).
            let levels = low.blocks.levels().iter().filter(|l| l.axis == k);
            let inner = levels
                .clone()
                .try_fold(1i128, |p, l| p.checked_mul(l.extent as i128))
                .ok_or(too_big)?;
            // ceil(size / inner); inner >= 1 (every level's extent is at least 1).
            let blocks = size
                .checked_add(inner.saturating_sub(1))
                .and_then(|s| s.checked_div(inner))
                .ok_or(too_big)?;
            let outer = (size != 0).then_some((blocks, outer_stride as i128));
            let ((extent_row, (stride_row, weight_row)), (mult_row, shift_row)) = leaf_w;
            let mut slots = extent_row
                .iter_mut()
                .zip(stride_row.iter_mut().zip(weight_row.iter_mut()))
                .zip(mult_row.iter_mut().zip(shift_row.iter_mut()));
            let mut leaf_pitch: i128 = 1;
            // e_{b-1} · s_{b-1}, wrapped as the weights are.
            let mut before: i128 = 0;
            for (e, s) in levels
                .map(|l| (l.extent as i128, l.stride as i128))
                .chain(outer)
            {
                // Counted above: a slot for every leaf.
                let Some(((extent_w, (stride_w, weight_w)), (leaf_mult, leaf_shift))) =
                    slots.next()
                else {
                    return Err(NestedError::TooManyLeaves { max: B });
                };
                let s = if e <= 1 { 0 } else { fit(range, s)? };
                *extent_w = word(fit(range, e)?);
                *stride_w = word(s);
                *weight_w = word(wrapped(range, s.wrapping_sub(before)));
                let (m, sh) = magic_of(range, fit(range, leaf_pitch)?)?;
                (*leaf_mult, *leaf_shift) = (word(m), word(sh));
                before = wrapped(range, e.wrapping_mul(s));
                leaf_pitch = leaf_pitch.checked_mul(e).ok_or(too_big)?;
            }
        }
        Ok(out)
    }
}

impl<I: KernelIndex, const N: usize, const B: usize> KernelNestedLayout<I, N, B> {
    /// `Σ_{b >= 1} (c / p_b)·w_b` of mode `k`: the part of its coordinate `c`'s offset on
    /// the mode's leaves past the first (one division by each leaf's pitch, one multiply-add
    /// by its weight); the first leaf's, `c·w_0`, is the caller's.
    ///
    /// Every array is read at loop counters and `k` only, by index (no reference kept), so
    /// once the loops over the constants `N` and `B` are unrolled a GPU keeps the parameter in
    /// registers instead of copying it to local memory.
    #[inline]
    fn upper(&self, k: usize, c: I) -> I {
        let mut acc = I::zero();
        for b in 1..B {
            let (Some(&w), Some(&m), Some(&sh)) = (
                self.weights.get(k).and_then(|r| r.get(b)),
                self.leaf_multipliers.get(k).and_then(|r| r.get(b)),
                self.leaf_shifts.get(k).and_then(|r| r.get(b)),
            ) else {
                break;
            };
            acc = acc.wrapping_add(&I::divide_fast(c, m, sh).wrapping_mul(&w));
        }
        acc
    }

    /// The first leaf's weight of mode `k` (0 past the modes, or with no leaf).
    #[inline]
    fn first_weight(&self, k: usize) -> I {
        self.weights
            .get(k)
            .and_then(|r| r.first())
            .copied()
            .unwrap_or(I::zero())
    }

    /// The element offset of the multi-index `index` (one coordinate per top-level mode, each
    /// in `0..sizes()[k]`), computed in `I`.
    ///
    /// Device-side math: `#[inline]`, no bounds checks, no panics, no division instruction;
    /// every array is read at a loop counter only, so a GPU keeps the parameter in registers.
    /// A coordinate out of range gives an unspecified offset; use
    /// [`checked_offset_of`](Self::checked_offset_of) where coordinates are not known to be
    /// in range.
    ///
    /// ```text
    /// ((4,3)|10,5):((1,20),4)     offset_of([c, p]) = c % 4 + (c / 4)·20 + 4p
    ///  c      0 1 2 3 4  5  ..  9
    ///  p = 1  4 5 6 7 24 25 ..  45
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::gpu::KernelNestedLayout;
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<4> = "((4,3)|10,5):((1,20),4)".parse()?;
    /// let k = KernelNestedLayout::<i32, 2, 2>::from_nested(&l)?;
    /// assert_eq!(k.offset_of([9, 1]), 1 + 2 * 20 + 4);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - for `k` from [`from_nested`](Self::from_nested) and an in-range index,
    ///   `k.offset_of(i)` equals the layout's `offset_of(&i)`
    #[inline]
    #[must_use]
    pub fn offset_of(&self, index: [I; N]) -> I {
        let mut acc = self.offset;
        for (k, &c) in index.iter().enumerate() {
            acc = acc
                .wrapping_add(&c.wrapping_mul(&self.first_weight(k)))
                .wrapping_add(&self.upper(k, c));
        }
        acc
    }

    /// The element offset of the 1-D coordinate `linear` (the first mode fastest, as CuTe's
    /// `layout(linear)` and [`NestedLayout::offset_of_linear`]), for `linear` in `0..size()`,
    /// computed in `I`.
    ///
    /// For a grid-stride loop: each mode's coordinate is `linear / P_k` less `sizes[k]` times
    /// the next mode's quotient (one division per mode but the first), then
    /// [`offset_of`](Self::offset_of)'s one division per leaf. Out of range: an unspecified
    /// offset, never a panic.
    ///
    /// ```text
    /// ((2,2),3):((1,6),2)
    ///  linear  0 1 2 3 4 5 6 7 8 9 10 11
    ///  offset  0 1 6 7 2 3 8 9 4 5 10 11
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::gpu::KernelNestedLayout;
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<4> = "((2,2),3):((1,6),2)".parse()?;
    /// let k = KernelNestedLayout::<u32, 2, 2>::from_nested(&l)?;
    /// let offsets: Vec<u32> = (0..12).map(|t| k.offset_of_linear(t)).collect();
    /// assert_eq!(offsets, [0, 1, 6, 7, 2, 3, 8, 9, 4, 5, 10, 11]);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `k.offset_of_linear(t)` equals `k.offset_of(i)` where `i` is the `t`-th multi-index,
    ///   the first mode fastest
    #[inline]
    #[must_use]
    pub fn offset_of_linear(&self, linear: I) -> I {
        // q_k = linear / P_k (P_0 = 1), each straight from `linear`; mode k's coordinate is
        // c_k = q_k - sizes[k]·q_{k+1} (the last mode's is q_{N-1}). The first leaves' terms
        // Σ c_k·w_k0 regroup as Σ q_k·(w_k0 - sizes[k-1]·w_{k-1,0}), coefficients that depend
        // on the layout only (a grid-stride loop computes them once), so a mode of one leaf
        // costs one division and one multiply-add, as an axis of `KernelLayout` does; the
        // other leaves take c_k. All modulo 2^bits; arrays read by index (see `upper`).
        let mut acc = self.offset;
        // q_{k-1}
        let mut outer = I::zero();
        for k in 0..N {
            let (Some(&m), Some(&sh)) = (self.mode_multipliers.get(k), self.mode_shifts.get(k))
            else {
                break;
            };
            let q = if k == 0 {
                linear
            } else {
                I::divide_fast(linear, m, sh)
            };
            let mut coefficient = self.first_weight(k);
            if let Some(prev) = k.checked_sub(1) {
                let size = self.sizes.get(prev).copied().unwrap_or(I::zero());
                coefficient =
                    coefficient.wrapping_sub(&size.wrapping_mul(&self.first_weight(prev)));
                if B > 1 {
                    let c = outer.wrapping_sub(&size.wrapping_mul(&q));
                    acc = acc.wrapping_add(&self.upper(prev, c));
                }
            }
            acc = acc.wrapping_add(&q.wrapping_mul(&coefficient));
            outer = q;
        }
        if let Some(last) = N.checked_sub(1) {
            if B > 1 {
                acc = acc.wrapping_add(&self.upper(last, outer));
            }
        }
        acc
    }

    /// The element offset of `index`, or `None` if some coordinate is outside `0..sizes()[k]`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::gpu::KernelNestedLayout;
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<4> = "((4,3)|10,5):((1,20),4)".parse()?;
    /// let k = KernelNestedLayout::<i32, 2, 2>::from_nested(&l)?;
    /// assert_eq!(k.checked_offset_of([9, 4]), Some(1 + 40 + 16));
    /// assert_eq!(k.checked_offset_of([10, 0]), None); // channel 10 is padding
    /// assert_eq!(k.checked_offset_of([0, -1]), None);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `Some(k.offset_of(i))` iff `0 <= i[k] < sizes()[k]` for every mode `k`
    #[inline]
    #[must_use]
    pub fn checked_offset_of(&self, index: [I; N]) -> Option<I> {
        let in_range = index
            .iter()
            .zip(&self.sizes)
            .all(|(&i, &s)| i >= I::zero() && i < s);
        in_range.then(|| self.offset_of(index))
    }

    /// Whether the value was packed for this crate's [`ABI_VERSION`] (its first word).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::gpu::KernelNestedLayout;
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<2> = "(4,8):(8,1)".parse()?;
    /// assert!(KernelNestedLayout::<i32, 2, 1>::from_nested(&l)?.is_current());
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    #[inline]
    #[must_use]
    pub fn is_current(&self) -> bool {
        self.version.to_u32() == Some(ABI_VERSION)
    }

    /// The packed values in memory order (`3 + 3N + 5NB` of them), as the header reads them.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::gpu::{ABI_VERSION, KernelNestedLayout};
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<1> = "6:1".parse()?;
    /// let words: Vec<i32> = KernelNestedLayout::<i32, 1, 1>::from_nested(&l)?.words().collect();
    /// // version, offset, size; sizes, mode multiplier and shift; extent, stride, weight,
    /// // leaf multiplier and shift
    /// assert_eq!(words, [ABI_VERSION as i32, 0, 6, 6, 1, 0, 6, 1, 1, 1, 0]);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    pub fn words(&self) -> impl Iterator<Item = I> + use<I, N, B> {
        let k = *self;
        [k.version, k.offset, k.size]
            .into_iter()
            .chain(k.sizes)
            .chain(k.mode_multipliers)
            .chain(k.mode_shifts)
            .chain(k.extents.into_iter().flatten())
            .chain(k.strides.into_iter().flatten())
            .chain(k.weights.into_iter().flatten())
            .chain(k.leaf_multipliers.into_iter().flatten())
            .chain(k.leaf_shifts.into_iter().flatten())
    }
}

impl<I: Copy, const N: usize, const B: usize> KernelNestedLayout<I, N, B> {
    /// The number of coordinates (the product of the modes' sizes).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::gpu::KernelNestedLayout;
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<4> = "((4,3)|10,5):((1,20),4)".parse()?;
    /// assert_eq!(KernelNestedLayout::<i32, 2, 2>::from_nested(&l)?.size(), 50);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    #[must_use]
    pub const fn size(&self) -> I {
        self.size
    }

    /// Each top-level mode's size, a partial last block included.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::gpu::KernelNestedLayout;
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<4> = "((4,3)|10,5):((1,20),4)".parse()?;
    /// assert_eq!(KernelNestedLayout::<i32, 2, 2>::from_nested(&l)?.sizes(), [10, 5]);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    #[must_use]
    pub const fn sizes(&self) -> [I; N] {
        self.sizes
    }

    /// Each mode's leaf extents, the fastest first (padded with 1); the outermost used one
    /// counts the mode's blocks.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::gpu::KernelNestedLayout;
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<4> = "((4,3)|10,5):((1,20),4)".parse()?;
    /// assert_eq!(KernelNestedLayout::<i32, 2, 2>::from_nested(&l)?.extents(), [[4, 3], [5, 1]]);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    #[must_use]
    pub const fn extents(&self) -> [[I; B]; N] {
        self.extents
    }

    /// Each mode's leaf strides in elements, the fastest first (0 on a leaf of extent 0 or 1,
    /// padding included).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::gpu::KernelNestedLayout;
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<4> = "((4,3)|10,5):((1,20),4)".parse()?;
    /// assert_eq!(KernelNestedLayout::<i32, 2, 2>::from_nested(&l)?.strides(), [[1, 20], [4, 0]]);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    #[must_use]
    pub const fn strides(&self) -> [[I; B]; N] {
        self.strides
    }

    /// The offset of the first coordinate, in elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::gpu::KernelNestedLayout;
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<2> = "(4,8):(8,1) +3".parse()?;
    /// assert_eq!(KernelNestedLayout::<i32, 2, 1>::from_nested(&l)?.offset(), 3);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    #[must_use]
    pub const fn offset(&self) -> I {
        self.offset
    }
}

impl<I: KernelIndex, const N: usize, const B: usize, const L: usize> TryFrom<&NestedLayout<L>>
    for KernelNestedLayout<I, N, B>
{
    type Error = NestedError;

    /// Same as [`KernelNestedLayout::from_nested`].
    fn try_from(layout: &NestedLayout<L>) -> Result<Self, NestedError> {
        Self::from_nested(layout)
    }
}

impl<I: KernelIndex, const N: usize, const B: usize, const L: usize> TryFrom<&RankedNested<N, L>>
    for KernelNestedLayout<I, N, B>
{
    type Error = NestedError;

    /// [`KernelNestedLayout::from_nested`] of the fixed-rank layout (whose rank is `N`).
    fn try_from(layout: &RankedNested<N, L>) -> Result<Self, NestedError> {
        Self::from_nested(layout.layout())
    }
}
