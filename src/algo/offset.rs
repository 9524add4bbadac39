//! Offsets: the three invariants, offset bounds and `offset_of`, on slices.

use super::checked::{mul, to_isize, tri, volume};
use super::interleave;
use super::parts::Parts;
use crate::{InterleaveLayout, LayoutError};

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

/// The smallest and largest element offsets, `None` when some extent is 0: the interleave
/// core's [`bounds`](super::interleave::bounds) with factor 1 (see there for the `i128`
/// sums). On a validated layout no error is possible (invariant 3).
pub(crate) const fn bounds(p: Parts<'_>) -> Result<Option<(isize, isize)>, LayoutError> {
    interleave::bounds(p, InterleaveLayout::PLAIN)
}

/// `(max offset + 1) * itemsize`: the bytes a buffer starting at offset 0 needs; 0 when
/// there is no element, `NegativeOffset` when some element lies below offset 0.
pub(crate) const fn required_size(p: Parts<'_>) -> Result<usize, LayoutError> {
    required_size_of(tri!(bounds(p)), p.itemsize())
}

/// `(hi + 1) * itemsize` for the offset bounds `(lo, hi)` of any layout kind (0 without
/// bounds, `NegativeOffset` when `lo < 0`): the one required-size rule.
pub(crate) const fn required_size_of(
    bounds: Option<(isize, isize)>,
    itemsize: usize,
) -> Result<usize, LayoutError> {
    let Some((lo, hi)) = bounds else {
        return Ok(0);
    };
    if lo < 0 {
        return Err(LayoutError::NegativeOffset);
    }
    // `hi >= lo >= 0`, and `hi * itemsize` fits `isize` (invariant 3), so neither step can
    // overflow on a valid layout; checked all the same.
    match hi.unsigned_abs().checked_add(1) {
        Some(n) => match n.checked_mul(itemsize) {
            Some(b) => Ok(b),
            None => Err(LayoutError::OffsetOverflow),
        },
        None => Err(LayoutError::OffsetOverflow),
    }
}

/// `offset + sum(index[i] * strides[i])`, after checking every `index[i] < shape[i]`: the
/// interleave core's [`offset_of`](super::interleave::offset_of) with factor 1.
///
/// An index on a broadcast axis (stride 0) adds nothing, however large it is (an extent
/// above `isize::MAX` is legal there).
pub(crate) const fn offset_of(p: Parts<'_>, index: &[usize]) -> Result<isize, LayoutError> {
    interleave::offset_of(p, InterleaveLayout::PLAIN, index)
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
