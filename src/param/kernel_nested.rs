//! [`KernelNestedLayout`]: a nested layout (several blocked modes, an axis blocked several
//! times, partial last blocks) packed as a kernel parameter, with one fast division per leaf.

use super::KernelIndex;
use super::pack::{IndexRange, magic, word_as};
use crate::LayoutError;
use crate::algo::access::{get, set};
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
///                                                               weights [[1, 16], [4, 0]]
/// ```
///
/// (Mode 0's second weight is `20 − 4·1`; mode 1's second leaf is padding, extent 1, weight 0.)
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

/// The words of a packed nested layout, each within the index type's range (the `3 + 3N +
/// 5NB` values of [`KernelNestedLayout`], in `i128`): what the per-type `const fn
/// from_nested` and the generic `TryFrom` both convert.
#[derive(Clone, Copy, Debug)]
pub(crate) struct NestedWords<const N: usize, const B: usize> {
    version: i128,
    offset: i128,
    size: i128,
    sizes: [i128; N],
    mode_multipliers: [i128; N],
    mode_shifts: [i128; N],
    extents: [[i128; B]; N],
    strides: [[i128; B]; N],
    weights: [[i128; B]; N],
    leaf_multipliers: [[i128; B]; N],
    leaf_shifts: [[i128; B]; N],
}

/// The error of a value that does not fit the index type.
const TOO_BIG: NestedError = NestedError::Layout(LayoutError::IndexTypeOverflow);

/// `v` modulo `2^bits`, as the word of the type of `range` with that bit pattern: what wrapping
/// arithmetic in the type computes with it.
const fn wrapped(range: IndexRange, v: i128) -> i128 {
    // bits <= 64 for every index type: the shift is exact.
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

/// `*slot[k][b] = v` (nothing out of range).
const fn put<const N: usize, const B: usize>(
    slot: &mut [[i128; B]; N],
    k: usize,
    b: usize,
    v: i128,
) {
    if let Some(mut row) = get(slot, k) {
        set(&mut row, b, v);
        set(slot, k, row);
    }
}

/// The leaves of one mode packed so far: the next slot, its pitch (the product of the extents
/// before it) and `e_{b-1}·s_{b-1}` of the leaf before (wrapped as the weights are).
struct Leaves {
    b: usize,
    pitch: i128,
    before: i128,
}

impl Leaves {
    /// Packs the next leaf `(extent, stride)` of mode `k` into `out`: extent, stride (0 on a leaf of
    /// extent 0 or 1, which never reaches an offset), weight and pitch constants.
    const fn push<const N: usize, const B: usize>(
        &mut self,
        range: IndexRange,
        out: &mut NestedWords<N, B>,
        k: usize,
        extent: i128,
        stride: i128,
    ) -> Result<(), NestedError> {
        let stride = if extent <= 1 { 0 } else { stride };
        if self.b >= B {
            // Counted before any value: never here.
            return Err(NestedError::TooManyLeaves { max: B });
        }
        if !range.holds(extent) || !range.holds(stride) || !range.holds(self.pitch) {
            return Err(TOO_BIG);
        }
        let Some((mult, shift)) = magic(range, self.pitch) else {
            return Err(TOO_BIG);
        };
        put(&mut out.extents, k, self.b, extent);
        put(&mut out.strides, k, self.b, stride);
        // |s|, |before| < 2^64: the difference is exact.
        put(
            &mut out.weights,
            k,
            self.b,
            wrapped(range, stride.wrapping_sub(self.before)),
        );
        put(&mut out.leaf_multipliers, k, self.b, mult);
        put(&mut out.leaf_shifts, k, self.b, shift);
        // 0 <= e < 2^64, |s| < 2^64: the product is exact.
        self.before = wrapped(range, extent.wrapping_mul(stride));
        self.pitch = match self.pitch.checked_mul(extent) {
            Some(product) => product,
            None => return Err(TOO_BIG),
        };
        self.b = self.b.saturating_add(1);
        Ok(())
    }
}

/// The structure's rule, checked before any value: each mode's block levels and its outermost
/// level (none for a mode of no coordinate) fit `B` leaves.
const fn fits_leaves<const N: usize, const B: usize>(
    low: &crate::plan::Lowered<N>,
) -> Result<(), NestedError> {
    let levels = low.blocks.levels();
    let mut k = 0;
    while k < N {
        let mut count = 0usize;
        let mut at = 0;
        while let Some(level) = get(levels, at) {
            if level.axis == k {
                count = count.saturating_add(1);
            }
            at = at.saturating_add(1);
        }
        if let Some(size) = get(&low.shape, k) {
            if size != 0 {
                count = count.saturating_add(1);
            }
        }
        if count > B {
            return Err(NestedError::TooManyLeaves { max: B });
        }
        k = k.saturating_add(1);
    }
    Ok(())
}

/// Packs `layout` for the index type of `range` with `N` modes of at most `B` leaves: the
/// rules of [`KernelNestedLayout::from_nested`], checked in its order (the structure, then
/// the values), written once for every index type and for `const`.
///
/// # Errors
///
/// As [`KernelNestedLayout::from_nested`].
pub(crate) const fn pack_nested<const N: usize, const B: usize, const L: usize>(
    range: IndexRange,
    layout: &NestedLayout<L>,
) -> Result<NestedWords<N, B>, NestedError> {
    let low = match layout.lowered::<N>() {
        Ok(low) => low,
        Err(e) => return Err(e),
    };
    if let Err(e) = fits_leaves::<N, B>(&low) {
        return Err(e);
    }
    let levels = low.blocks.levels();
    // Then the values. usize and isize are at most 64 bits wide on every target: each
    // `as i128` below is exact.
    let volume = layout.size() as i128;
    if let Some((lo, hi)) = layout.offset_bounds() {
        if !range.holds(lo as i128) || !range.holds(hi as i128) {
            return Err(TOO_BIG);
        }
    }
    if !range.holds(volume) || !range.holds(low.offset as i128) {
        return Err(TOO_BIG);
    }
    let Some(one) = magic(range, 1) else {
        return Err(TOO_BIG);
    };
    let mut out = NestedWords {
        // A u32 (2): the same value, within every index type.
        version: ABI_VERSION as i128,
        offset: low.offset as i128,
        size: volume,
        sizes: [0; N],
        mode_multipliers: [0; N],
        mode_shifts: [0; N],
        extents: [[1; B]; N],
        strides: [[0; B]; N],
        weights: [[0; B]; N],
        leaf_multipliers: [[one.0; B]; N],
        leaf_shifts: [[one.1; B]; N],
    };
    // P_k: the product of the sizes before mode k, at most the size (0 throughout for a
    // layout of no coordinate, where no 1-D coordinate is in range).
    let mut pitch: i128 = if volume == 0 { 0 } else { 1 };
    let mut k = 0;
    while k < N {
        let (Some(size), Some(outer_stride)) = (get(&low.shape, k), get(&low.strides, k)) else {
            break;
        };
        let size = size as i128;
        set(&mut out.sizes, k, size);
        let Some((mult, shift)) = magic(range, pitch) else {
            return Err(TOO_BIG);
        };
        set(&mut out.mode_multipliers, k, mult);
        set(&mut out.mode_shifts, k, shift);
        pitch = match pitch.checked_mul(size) {
            Some(product) if range.holds(product) => product,
            _ => return Err(TOO_BIG),
        };
        if !range.holds(size) {
            return Err(TOO_BIG);
        }
        // The mode's leaves: its block levels (fastest first), then its outermost level,
        // whose extent is the number of blocks (the last perhaps partial), with the axis's
        // own stride.
        let mut leaves = Leaves {
            b: 0,
            pitch: 1,
            before: 0,
        };
        let mut at = 0;
        while let Some(level) = get(levels, at) {
            if level.axis == k {
                if let Err(e) = leaves.push(
                    range,
                    &mut out,
                    k,
                    level.extent as i128,
                    level.stride as i128,
                ) {
                    return Err(e);
                }
            }
            at = at.saturating_add(1);
        }
        if size != 0 {
            // ceil(size / inner); inner >= 1 (every level's extent is at least 1).
            let blocks = match size.checked_add(leaves.pitch.saturating_sub(1)) {
                Some(t) => match t.checked_div(leaves.pitch) {
                    Some(q) => q,
                    None => return Err(TOO_BIG),
                },
                None => return Err(TOO_BIG),
            };
            if let Err(e) = leaves.push(range, &mut out, k, blocks, outer_stride as i128) {
                return Err(e);
            }
        }
        k = k.saturating_add(1);
    }
    Ok(out)
}

impl<I: KernelIndex, const N: usize, const B: usize> KernelNestedLayout<I, N, B> {
    /// The packing's words as values of `I`, each within `I`'s range: the generic `TryFrom`
    /// impls' conversion (the `const fn`s convert the same words per type).
    fn of_words(w: &NestedWords<N, B>) -> Self {
        let word = |v: i128| I::from_word(v);
        let rows = |a: [[i128; B]; N]| a.map(|r| r.map(word));
        Self {
            version: word(w.version),
            offset: word(w.offset),
            size: word(w.size),
            sizes: w.sizes.map(word),
            mode_multipliers: w.mode_multipliers.map(word),
            mode_shifts: w.mode_shifts.map(word),
            extents: rows(w.extents),
            strides: rows(w.strides),
            weights: rows(w.weights),
            leaf_multipliers: rows(w.leaf_multipliers),
            leaf_shifts: rows(w.leaf_shifts),
        }
    }
}

/// `w`'s rows as values of `$t` (each word within its range, so `word_as!` is exact).
macro_rules! rows_as {
    ($t:ty, $w:expr) => {{
        let w = $w;
        let mut out = [[0 as $t; B]; N];
        let mut k = 0;
        while k < N {
            if let (Some(row), Some(mut into)) = (get(&w, k), get(&out, k)) {
                let mut b = 0;
                while b < B {
                    if let Some(v) = get(&row, b) {
                        set(&mut into, b, word_as!($t, v));
                    }
                    b = b.saturating_add(1);
                }
                set(&mut out, k, into);
            }
            k = k.saturating_add(1);
        }
        out
    }};
}

/// `w` as values of `$t`.
macro_rules! line_as {
    ($t:ty, $w:expr) => {{
        let w = $w;
        let mut out = [0 as $t; N];
        let mut k = 0;
        while k < N {
            if let Some(v) = get(&w, k) {
                set(&mut out, k, word_as!($t, v));
            }
            k = k.saturating_add(1);
        }
        out
    }};
}

/// The packing as a `KernelNestedLayout` of one index type, in a `const fn`.
macro_rules! const_nested {
    ($t:ty; $(#[$doc:meta])*) => {
        impl<const N: usize, const B: usize> KernelNestedLayout<$t, N, B> {
            $(#[$doc])*
            pub const fn from_nested<const L: usize>(
                layout: &NestedLayout<L>,
            ) -> Result<Self, NestedError> {
                let w = match pack_nested::<N, B, L>(<$t as KernelIndex>::RANGE, layout) {
                    Ok(w) => w,
                    Err(e) => return Err(e),
                };
                Ok(Self {
                    version: word_as!($t, w.version),
                    offset: word_as!($t, w.offset),
                    size: word_as!($t, w.size),
                    sizes: line_as!($t, w.sizes),
                    mode_multipliers: line_as!($t, w.mode_multipliers),
                    mode_shifts: line_as!($t, w.mode_shifts),
                    extents: rows_as!($t, w.extents),
                    strides: rows_as!($t, w.strides),
                    weights: rows_as!($t, w.weights),
                    leaf_multipliers: rows_as!($t, w.leaf_multipliers),
                    leaf_shifts: rows_as!($t, w.leaf_shifts),
                })
            }
        }
    };
}

const_nested!(i32;
/// Packs `layout` for a kernel whose offset math uses this index type, checking that nothing
/// narrows and that every mode fits `B` leaves; `const`, so a layout known at compile time is
/// packed at compile time.
///
/// The layout goes through [`NestedLayout::lowered`], the form every kernel of the crate
/// reads, so the kernel parameter takes exactly the layouts the host kernels take: each
/// top-level mode an axis whose leaves (leaves of extent 1 dropped) are its block levels,
/// fastest first, with a partial block only at the mode's outermost level. The rules are
/// checked in the order below: the structure first, then the values.
///
/// One `const fn` per index type (`i8` to `u64`); generic code over `I: KernelIndex` uses
/// `KernelNestedLayout::<I, N, B>::try_from(&layout)`, the same conversion.
///
/// # Errors
///
/// - [`NestedError::RankMismatch`] if the layout's rank is not `N`;
/// - [`NestedError::CutMode`] for a partial block below the top of a mode, or a layout that
///   is cut itself (as [`NestedLayout::lowered`]), and the lowering's own errors (more than
///   [`MAX_LEVELS`](crate::plan::MAX_LEVELS) block levels in all);
/// - [`NestedError::TooManyLeaves`] with `max: B` if a mode has more than `B` leaves of
///   extent other than 1;
/// - [`NestedError::Layout`] with [`LayoutError::IndexTypeOverflow`] if an element offset,
///   the size, the offset, a mode's size, an extent, a stride that reaches an offset or a
///   leaf's pitch does not fit the index type.
///
/// # Examples
///
/// ```
/// use strided_layout::gpu::KernelNestedLayout;
/// use strided_layout::nested::{self, NestedError, NestedLayout};
/// use strided_layout::LayoutError;
/// let nchw16c = NestedLayout::<8>::onednn("nChw16c", &[1, 40, 7, 7], 2)?;
/// let k = KernelNestedLayout::<i32, 4, 2>::from_nested(&nchw16c)?;
/// assert_eq!(k.sizes(), [1, 40, 7, 7]);
/// assert_eq!(k.extents()[1], [16, 3]); // channels: 16 lanes, 3 blocks (the last half full)
/// // A mode of two leaves needs B >= 2; a channel offset past i8 needs a wider type.
/// assert_eq!(
///     KernelNestedLayout::<i32, 4, 1>::from_nested(&nchw16c),
///     Err(NestedError::TooManyLeaves { max: 1 })
/// );
/// assert_eq!(
///     KernelNestedLayout::<i8, 4, 2>::from_nested(&nchw16c),
///     Err(NestedError::Layout(LayoutError::IndexTypeOverflow))
/// );
/// // At compile time:
/// const W: NestedLayout<8> =
///     nested::const_unwrap(NestedLayout::onednn("OIhw16i16o", &[40, 24, 3, 3], 4));
/// const K: KernelNestedLayout<i32, 4, 2> =
///     nested::const_unwrap(KernelNestedLayout::<i32, 4, 2>::from_nested(&W));
/// assert_eq!(K.offset_of([17, 6, 2, 1]) as isize, W.offset_of(&[17, 6, 2, 1])?);
/// # Ok::<(), NestedError>(())
/// ```
///
/// # Postconditions
///
/// - `k.offset_of(i) == layout.offset_of(&i)` and `k.offset_of_linear(t) ==
///   layout.offset_of_linear(t)` (in the index type) for every in-range `i` and `t`
);
const_nested!(i8;
/// Packs `layout` for this index type: the conversion of
/// [`KernelNestedLayout::<i32, N, B>::from_nested`](KernelNestedLayout::from_nested), rules,
/// order, errors and postconditions included.
///
/// # Errors
///
/// As [`KernelNestedLayout::<i32, N, B>::from_nested`](KernelNestedLayout::from_nested);
/// [`NestedError::Layout`] with [`LayoutError::IndexTypeOverflow`] for a value past `i8`.
///
/// # Examples
///
/// ```
/// use strided_layout::gpu::KernelNestedLayout;
/// use strided_layout::nested::NestedLayout;
/// let l: NestedLayout<4> = "(2,(4,3)|10):(64,(1,4))".parse()?;
/// let k = KernelNestedLayout::<i8, 2, 2>::from_nested(&l)?;
/// assert_eq!(k.offset_of([1, 9]), 64 + 1 + 8);
/// # Ok::<(), strided_layout::nested::NestedError>(())
/// ```
);
const_nested!(i16;
/// Packs `layout` for this index type: the conversion of
/// [`KernelNestedLayout::<i32, N, B>::from_nested`](KernelNestedLayout::from_nested), rules,
/// order, errors and postconditions included.
///
/// # Errors
///
/// As [`KernelNestedLayout::<i32, N, B>::from_nested`](KernelNestedLayout::from_nested);
/// [`NestedError::Layout`] with [`LayoutError::IndexTypeOverflow`] for a value past `i16`.
///
/// # Examples
///
/// ```
/// use strided_layout::gpu::KernelNestedLayout;
/// use strided_layout::nested::NestedLayout;
/// let l: NestedLayout<4> = "((8,2),5):((1,40),8)".parse()?;
/// let k = KernelNestedLayout::<i16, 2, 2>::from_nested(&l)?;
/// assert_eq!(k.offset_of([9, 4]), 1 + 40 + 32);
/// # Ok::<(), strided_layout::nested::NestedError>(())
/// ```
);
const_nested!(i64;
/// Packs `layout` for this index type: the conversion of
/// [`KernelNestedLayout::<i32, N, B>::from_nested`](KernelNestedLayout::from_nested), rules,
/// order, errors and postconditions included.
///
/// # Errors
///
/// As [`KernelNestedLayout::<i32, N, B>::from_nested`](KernelNestedLayout::from_nested);
/// [`NestedError::Layout`] with [`LayoutError::IndexTypeOverflow`] for a value past `i64`.
///
/// # Examples
///
/// ```
/// use strided_layout::gpu::KernelNestedLayout;
/// use strided_layout::nested::NestedLayout;
/// let l: NestedLayout<4> = "((16,4)|50,7):((1,112),16)".parse()?;
/// let k = KernelNestedLayout::<i64, 2, 2>::from_nested(&l)?;
/// assert_eq!(k.offset_of([49, 6]), 1 + 3 * 112 + 96);
/// # Ok::<(), strided_layout::nested::NestedError>(())
/// ```
);
const_nested!(u8;
/// Packs `layout` for this index type: the conversion of
/// [`KernelNestedLayout::<i32, N, B>::from_nested`](KernelNestedLayout::from_nested), rules,
/// order, errors and postconditions included.
///
/// # Errors
///
/// As [`KernelNestedLayout::<i32, N, B>::from_nested`](KernelNestedLayout::from_nested);
/// [`NestedError::Layout`] with [`LayoutError::IndexTypeOverflow`] for a value past `u8`.
///
/// # Examples
///
/// ```
/// use strided_layout::gpu::KernelNestedLayout;
/// use strided_layout::nested::NestedLayout;
/// let l: NestedLayout<4> = "(3,(2,2)):(1,(3,12))".parse()?;
/// let k = KernelNestedLayout::<u8, 2, 2>::from_nested(&l)?;
/// assert_eq!(k.offset_of([2, 3]), 2 + 3 + 12);
/// # Ok::<(), strided_layout::nested::NestedError>(())
/// ```
);
const_nested!(u16;
/// Packs `layout` for this index type: the conversion of
/// [`KernelNestedLayout::<i32, N, B>::from_nested`](KernelNestedLayout::from_nested), rules,
/// order, errors and postconditions included.
///
/// # Errors
///
/// As [`KernelNestedLayout::<i32, N, B>::from_nested`](KernelNestedLayout::from_nested);
/// [`NestedError::Layout`] with [`LayoutError::IndexTypeOverflow`] for a value past `u16`.
///
/// # Examples
///
/// ```
/// use strided_layout::gpu::KernelNestedLayout;
/// use strided_layout::nested::NestedLayout;
/// let l: NestedLayout<4> = "((4,4),9):((1,36),4)".parse()?;
/// let k = KernelNestedLayout::<u16, 2, 2>::from_nested(&l)?;
/// assert_eq!(k.offset_of([5, 8]), 1 + 36 + 32);
/// # Ok::<(), strided_layout::nested::NestedError>(())
/// ```
);
const_nested!(u32;
/// Packs `layout` for this index type: the conversion of
/// [`KernelNestedLayout::<i32, N, B>::from_nested`](KernelNestedLayout::from_nested), rules,
/// order, errors and postconditions included.
///
/// # Errors
///
/// As [`KernelNestedLayout::<i32, N, B>::from_nested`](KernelNestedLayout::from_nested);
/// [`NestedError::Layout`] with [`LayoutError::IndexTypeOverflow`] for a value past `u32`.
///
/// # Examples
///
/// ```
/// use strided_layout::gpu::KernelNestedLayout;
/// use strided_layout::nested::NestedLayout;
/// let l: NestedLayout<4> = "((8,3)|20,5):((1,40),8)".parse()?;
/// let k = KernelNestedLayout::<u32, 2, 2>::from_nested(&l)?;
/// assert_eq!(k.offset_of([19, 4]), 3 + 2 * 40 + 32);
/// # Ok::<(), strided_layout::nested::NestedError>(())
/// ```
);
const_nested!(u64;
/// Packs `layout` for this index type: the conversion of
/// [`KernelNestedLayout::<i32, N, B>::from_nested`](KernelNestedLayout::from_nested), rules,
/// order, errors and postconditions included.
///
/// # Errors
///
/// As [`KernelNestedLayout::<i32, N, B>::from_nested`](KernelNestedLayout::from_nested);
/// [`NestedError::Layout`] with [`LayoutError::IndexTypeOverflow`] for a value past `u64`.
///
/// # Examples
///
/// ```
/// use strided_layout::gpu::KernelNestedLayout;
/// use strided_layout::nested::NestedLayout;
/// let l: NestedLayout<4> = "((4,8),(2,16)):((1,64),(4,8))".parse()?;
/// let k = KernelNestedLayout::<u64, 2, 2>::from_nested(&l)?;
/// assert_eq!(k.offset_of([5, 3]), 1 + 64 + 4 + 8);
/// # Ok::<(), strided_layout::nested::NestedError>(())
/// ```
);

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
        super::below(&index, &self.sizes).then(|| self.offset_of(index))
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

    /// The conversion of [`KernelNestedLayout::from_nested`], for any index type.
    fn try_from(layout: &NestedLayout<L>) -> Result<Self, NestedError> {
        Ok(Self::of_words(&pack_nested::<N, B, L>(I::RANGE, layout)?))
    }
}

impl<I: KernelIndex, const N: usize, const B: usize, const L: usize> TryFrom<&RankedNested<N, L>>
    for KernelNestedLayout<I, N, B>
{
    type Error = NestedError;

    /// [`KernelNestedLayout::from_nested`] of the fixed-rank layout (whose rank is `N`).
    fn try_from(layout: &RankedNested<N, L>) -> Result<Self, NestedError> {
        Self::try_from(layout.layout())
    }
}
