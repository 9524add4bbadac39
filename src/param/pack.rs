//! The packing of a [`KernelLayout`](super::KernelLayout), written once as `const fn`s over
//! `i128` words for an index type given by its range: which layouts fit the type, and the
//! words to store. The per-type `const fn from_layout` and the generic `TryFrom` impls both
//! convert these words, each exactly (every word is checked to lie in the type's range).

use super::fast_div::magic_u128;
use crate::algo::access::{get, set};
use crate::{InterleavedLayout, Layout, LayoutError};

/// A word of the packing (within the type's range) as the index type `$t`: its low
/// `size_of::<$t>()` bytes, which for a value in range is the value (two's complement).
macro_rules! word_as {
    ($t:ty, $word:expr) => {
        match $word
            .to_le_bytes()
            .first_chunk::<{ core::mem::size_of::<$t>() }>()
        {
            Some(bytes) => <$t>::from_le_bytes(*bytes),
            None => 0,
        }
    };
}
pub(crate) use word_as;

/// The values an index type holds, and its width in bits.
///
/// Public only so that the sealed [`KernelIndex`](super::KernelIndex) can name it in a hidden
/// associated constant; the module is private, so nobody outside the crate can.
#[derive(Clone, Copy, Debug)]
pub struct IndexRange {
    /// The smallest value (0 for an unsigned type).
    pub min: i128,
    /// The largest value.
    pub max: i128,
    /// The width in bits.
    pub bits: u32,
}

impl IndexRange {
    /// The whole `i128` range: every `isize` and `usize` fits (a type as wide as 128 bits).
    pub(crate) const ALL: Self = Self {
        min: i128::MIN,
        max: i128::MAX,
        bits: 128,
    };

    pub(super) const fn holds(self, v: i128) -> bool {
        self.min <= v && v <= self.max
    }

    const fn holds_u(self, v: usize) -> bool {
        // usize is at most 64 bits wide on every target Rust supports: `as` is exact.
        self.holds(v as i128)
    }

    const fn holds_i(self, v: isize) -> bool {
        // isize is at most 64 bits wide: `as` is exact.
        self.holds(v as i128)
    }
}

/// Whether the type holds every extent, every stride that reaches an offset (on an axis of
/// extent 2 or more), the offset and both offset bounds: the rule of
/// [`Layout::fits_in`](crate::Layout::fits_in) and of every kernel-parameter conversion.
pub(crate) const fn parts_fit(
    range: IndexRange,
    shape: &[usize],
    strides: &[isize],
    offset: isize,
    bounds: Option<(isize, isize)>,
) -> bool {
    let (mut shape, mut strides) = (shape, strides);
    while let [e, shape_rest @ ..] = shape {
        if !range.holds_u(*e) {
            return false;
        }
        // A stride on an axis of extent 0 or 1 never reaches an offset, so it need not fit.
        if let [s, strides_rest @ ..] = strides {
            if *e > 1 && !range.holds_i(*s) {
                return false;
            }
            strides = strides_rest;
        }
        shape = shape_rest;
    }
    if !range.holds_i(offset) {
        return false;
    }
    match bounds {
        Some((lo, hi)) => range.holds_i(lo) && range.holds_i(hi),
        None => true,
    }
}

/// The words of a packed layout, each within the index type's range.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Words<const N: usize> {
    pub(crate) extents: [i128; N],
    pub(crate) strides: [i128; N],
    pub(crate) offset: i128,
    pub(crate) dimension: i128,
    pub(crate) factor: i128,
    pub(crate) pitch_multipliers: [i128; N],
    pub(crate) pitch_shifts: [i128; N],
    pub(crate) factor_multiplier: i128,
    pub(crate) factor_shift: i128,
}

/// The multiply-high constants of `divisor` (`0 <= divisor <= range.max`) as words of the
/// type: the `bits`-wide multiplier pattern, read as signed for a signed type.
pub(super) const fn magic(range: IndexRange, divisor: i128) -> Option<(i128, i128)> {
    if divisor < 0 {
        return None;
    }
    // divisor >= 0: the same value.
    let Some((m, l)) = magic_u128(divisor.cast_unsigned(), range.bits) else {
        return None;
    };
    // m < 2^bits <= 2^64 (magic_u128 checks it) for the supported widths: the same value.
    let m = m.cast_signed();
    let m = if range.min < 0 && m > range.max {
        // A signed type: the same bit pattern read as signed, m - 2^bits.
        match 1i128.checked_shl(range.bits) {
            Some(two_bits) => match m.checked_sub(two_bits) {
                Some(m) => m,
                None => return None,
            },
            None => return None,
        }
    } else {
        m
    };
    if !range.holds(m) {
        return None;
    }
    // l <= 128: `as` from u32 is lossless.
    Some((m, l as i128))
}

/// Packs a layout's parts for the index type of `range`; `interleave` is `(dimension < N,
/// factor >= 1)` or `None`, `bounds` the layout's offset bounds.
///
/// # Errors
///
/// [`LayoutError::IndexTypeOverflow`] if an extent, a stride that reaches an offset, the
/// offset, an offset bound, the volume, the interleave dimension or factor does not fit.
pub(crate) const fn pack<const N: usize>(
    range: IndexRange,
    shape: &[usize; N],
    strides: &[isize; N],
    offset: isize,
    bounds: Option<(isize, isize)>,
    volume: usize,
    interleave: Option<(usize, usize)>,
) -> Result<Words<N>, LayoutError> {
    const ERR: LayoutError = LayoutError::IndexTypeOverflow;
    if !parts_fit(range, shape, strides, offset, bounds) || !range.holds_u(volume) {
        return Err(ERR);
    }
    let (dimension, factor) = match interleave {
        Some(il) => il,
        None => (0, 1),
    };
    if !range.holds_u(dimension) || !range.holds_u(factor) {
        return Err(ERR);
    }
    // Checked above: the casts are exact.
    let Some((factor_multiplier, factor_shift)) = magic(range, factor as i128) else {
        return Err(ERR);
    };
    let mut out = Words {
        extents: [0; N],
        strides: [0; N],
        offset: offset as i128,
        dimension: dimension as i128,
        factor: factor as i128,
        pitch_multipliers: [0; N],
        pitch_shifts: [0; N],
        factor_multiplier,
        factor_shift,
    };
    // pitch_k = Π_{j>k} extents[j]: at most the volume, which fits. An empty layout (where no
    // linear index is in range) packs every pitch as 0.
    let mut pitch: i128 = if volume == 0 { 0 } else { 1 };
    let mut k = N;
    while let Some(j) = k.checked_sub(1) {
        k = j;
        let (Some(extent), Some(stride)) = (get(shape, k), get(strides, k)) else {
            return Err(ERR);
        };
        // Checked by `parts_fit`: `as` from usize and isize is lossless.
        set(&mut out.extents, k, extent as i128);
        // A stride on an axis of extent 0 or 1 never reaches an offset (the only index there
        // is 0, or there is none): packed as 0, and not asked to fit.
        set(
            &mut out.strides,
            k,
            if extent <= 1 { 0 } else { stride as i128 },
        );
        let Some((m, sh)) = magic(range, pitch) else {
            return Err(ERR);
        };
        set(&mut out.pitch_multipliers, k, m);
        set(&mut out.pitch_shifts, k, sh);
        // At most the volume, which fits (0 throughout for an empty layout).
        pitch = match pitch.checked_mul(extent as i128) {
            Some(p) if range.holds(p) => p,
            _ => return Err(ERR),
        };
    }
    Ok(out)
}

/// [`pack`] of a strided layout.
///
/// # Errors
///
/// As [`pack`].
pub(crate) const fn pack_layout<const N: usize>(
    range: IndexRange,
    layout: &Layout<N>,
) -> Result<Words<N>, LayoutError> {
    let bounds = layout.offset_bounds();
    pack(
        range,
        &layout.shape(),
        &layout.strides(),
        layout.offset(),
        bounds,
        layout.volume(),
        None,
    )
}

/// [`pack`] of an interleaved layout: its strided parts, dimension and factor.
///
/// # Errors
///
/// As [`pack`].
pub(crate) const fn pack_interleaved<const N: usize>(
    range: IndexRange,
    layout: &InterleavedLayout<N>,
) -> Result<Words<N>, LayoutError> {
    let il = Some((
        layout.interleave().dimension(),
        layout.interleave().factor(),
    ));
    let bounds = layout.offset_bounds();
    pack(
        range,
        &layout.shape(),
        &layout.strides(),
        layout.offset(),
        bounds,
        layout.volume(),
        il,
    )
}
