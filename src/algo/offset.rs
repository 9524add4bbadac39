//! Offsets: the three invariants, offset bounds and `offset_of`, on slices.

use super::checked::{advance, mul, to_isize, tri, volume};
use super::index::get;
use super::parts::Parts;
use crate::LayoutError;

/// Checks the invariants of a layout; returns its volume.
///
/// 1. `itemsize` is a power of two;
/// 2. the volume fits `usize`;
/// 3. every element offset, the base `offset` and every stride fit `isize` in elements and
///    in bytes (strides of extent-0 and extent-1 axes included, so `strides_in_bytes` and
///    `flipped` never overflow later).
pub(crate) const fn validate(p: Parts<'_>) -> Result<usize, LayoutError> {
    let itemsize = p.itemsize();
    if !itemsize.is_power_of_two() {
        return Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize });
    }
    let vol = tri!(volume(p.shape()));
    let item = tri!(to_isize(itemsize));
    tri!(mul(p.offset(), item));
    let mut rest = p.strides();
    while let [s, tail @ ..] = rest {
        tri!(mul(*s, item));
        rest = tail;
    }
    if let Some((lo, hi)) = tri!(bounds(p)) {
        tri!(mul(lo, item));
        tri!(mul(hi, item));
    }
    Ok(vol)
}

/// The smallest and largest element offsets, `None` when some extent is 0.
///
/// The sums run in `i128`, apart for the negative and the positive spans, so a layout whose
/// offsets fit only thanks to its base offset (`(3,):(-2^62,) +2^63-1`) is measured exactly:
/// each span is below `2^127` (`(2^64 - 1) * 2^63`), and once a side's sum passes `2^127`
/// that side's bound cannot fit `isize` whatever the offset is, which is the error returned.
/// On a validated layout no error is possible (invariant 3).
pub(crate) const fn bounds(p: Parts<'_>) -> Result<Option<(isize, isize)>, LayoutError> {
    if p.has_zero_extent() {
        return Ok(None);
    }
    let (mut neg, mut pos) = (0i128, 0i128);
    let mut rest = p;
    while let Some(((extent, stride), tail)) = rest.split_first() {
        rest = tail;
        // `extent >= 1` (no zero extent), so `extent - 1` cannot wrap; both factors are
        // below 2^64 and 2^63 in magnitude, so the product fits `i128`.
        #[allow(clippy::arithmetic_side_effects)]
        let span = (extent - 1) as i128 * stride as i128;
        let sum = if span < 0 {
            neg.checked_add(span)
        } else {
            pos.checked_add(span)
        };
        match sum {
            Some(v) if span < 0 => neg = v,
            Some(v) => pos = v,
            None => return Err(LayoutError::OffsetOverflow),
        }
    }
    let base = p.offset() as i128;
    match (base.checked_add(neg), base.checked_add(pos)) {
        (Some(lo), Some(hi)) => match (narrow(lo), narrow(hi)) {
            (Some(lo), Some(hi)) => Ok(Some((lo, hi))),
            _ => Err(LayoutError::OffsetOverflow),
        },
        _ => Err(LayoutError::OffsetOverflow),
    }
}

/// `v` as `isize`, or `None` when it does not fit.
const fn narrow(v: i128) -> Option<isize> {
    if v < isize::MIN as i128 || v > isize::MAX as i128 {
        None
    } else {
        // In range: checked on the line above.
        #[allow(clippy::cast_possible_truncation)]
        Some(v as isize)
    }
}

/// `(max offset + 1) * itemsize`: the bytes a buffer starting at offset 0 needs; 0 when
/// there is no element, `NegativeOffset` when some element lies below offset 0.
pub(crate) const fn required_size(p: Parts<'_>) -> Result<usize, LayoutError> {
    let Some((lo, hi)) = tri!(bounds(p)) else {
        return Ok(0);
    };
    if lo < 0 {
        return Err(LayoutError::NegativeOffset);
    }
    // `hi >= lo >= 0`, and `hi * itemsize` fits `isize` (invariant 3), so neither step can
    // overflow on a valid layout; checked all the same.
    match hi.unsigned_abs().checked_add(1) {
        Some(n) => match n.checked_mul(p.itemsize()) {
            Some(b) => Ok(b),
            None => Err(LayoutError::OffsetOverflow),
        },
        None => Err(LayoutError::OffsetOverflow),
    }
}

/// `offset + sum(index[i] * strides[i])`, after checking every `index[i] < shape[i]`.
///
/// An index on a broadcast axis (stride 0) adds nothing, however large it is (an extent
/// above `isize::MAX` is legal there).
pub(crate) const fn offset_of(p: Parts<'_>, index: &[usize]) -> Result<isize, LayoutError> {
    if index.len() != p.rank() {
        return Err(LayoutError::RankMismatch {
            expected: p.rank(),
            found: index.len(),
        });
    }
    let mut off = p.offset();
    let mut k = 0;
    while let Some(i) = get(index, k) {
        let (extent, stride) = p.axis(k);
        if i >= extent {
            return Err(LayoutError::IndexOutOfRange { axis: k });
        }
        off = tri!(advance(off, i, stride));
        // `k < index.len() <= usize::MAX`, so `k + 1` cannot overflow.
        #[allow(clippy::arithmetic_side_effects)]
        {
            k += 1;
        }
    }
    Ok(off)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_cover_negative_and_positive_strides() {
        assert_eq!(
            bounds(Parts::from_arrays(&[2, 3], &[-3, 1], 3, 1)),
            Ok(Some((0, 5)))
        );
        assert_eq!(
            bounds(Parts::from_arrays(&[2, 0], &[-3, 1], 3, 1)),
            Ok(None)
        );
        assert_eq!(bounds(Parts::from_arrays(&[], &[], 7, 1)), Ok(Some((7, 7))));
    }

    #[test]
    fn validate_rejects_each_invariant() {
        assert_eq!(
            validate(Parts::from_arrays(&[2], &[1], 0, 3)),
            Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: 3 })
        );
        assert_eq!(
            validate(Parts::from_arrays(&[usize::MAX, 2], &[0, 0], 0, 1)),
            Err(LayoutError::VolumeOverflow)
        );
        assert_eq!(
            validate(Parts::from_arrays(&[3], &[isize::MAX / 2 + 1], 0, 1)),
            Err(LayoutError::OffsetOverflow)
        );
        assert_eq!(
            validate(Parts::from_arrays(&[1], &[isize::MAX], 0, 2)),
            Err(LayoutError::OffsetOverflow)
        );
        assert_eq!(
            validate(Parts::from_arrays(&[1], &[isize::MAX], 0, 1)),
            Ok(1)
        );
        assert_eq!(
            validate(Parts::from_arrays(&[0], &[1], isize::MAX, 2)),
            Err(LayoutError::OffsetOverflow)
        );
    }

    #[test]
    fn offset_of_checks_each_index() {
        assert_eq!(
            offset_of(Parts::from_arrays(&[2, 3], &[3, 1], 1, 1), &[1, 2]),
            Ok(6)
        );
        assert_eq!(
            offset_of(Parts::from_arrays(&[2, 3], &[3, 1], 1, 1), &[1, 3]),
            Err(LayoutError::IndexOutOfRange { axis: 1 })
        );
    }
}
