//! Offsets: the three invariants, offset bounds and `offset_of`, on slices.

use super::checked::{add, advance, mul, to_isize, tri, volume};
use crate::LayoutError;

/// Checks the invariants of a layout given as slices; returns its volume.
///
/// 1. `itemsize` is a power of two;
/// 2. the volume fits `usize`;
/// 3. every element offset, the base `offset` and every stride fit `isize` in elements and
///    in bytes (strides of extent-0 and extent-1 axes included, so `strides_in_bytes` and
///    `flipped` never overflow later).
pub(crate) const fn validate(
    shape: &[usize],
    strides: &[isize],
    offset: isize,
    itemsize: usize,
) -> Result<usize, LayoutError> {
    if !itemsize.is_power_of_two() {
        return Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize });
    }
    let vol = tri!(volume(shape));
    let item = tri!(to_isize(itemsize));
    tri!(mul(offset, item));
    let mut i = 0;
    while i < strides.len() {
        tri!(mul(strides[i], item));
        i += 1;
    }
    if let Some((lo, hi)) = tri!(bounds(shape, strides, offset)) {
        tri!(mul(lo, item));
        tri!(mul(hi, item));
    }
    Ok(vol)
}

/// The smallest and largest element offsets, `None` when some extent is 0.
///
/// Overflow is an error here; on a validated layout it cannot happen (invariant 3).
pub(crate) const fn bounds(
    shape: &[usize],
    strides: &[isize],
    offset: isize,
) -> Result<Option<(isize, isize)>, LayoutError> {
    let mut lo = offset;
    let mut hi = offset;
    let mut i = 0;
    while i < shape.len() {
        if shape[i] == 0 {
            return Ok(None);
        }
        i += 1;
    }
    i = 0;
    while i < shape.len() {
        if strides[i] == 0 {
            // A broadcast axis adds nothing, however long it is.
            i += 1;
            continue;
        }
        // `shape[i] >= 1` (checked above), so the subtraction cannot wrap.
        let last = tri!(to_isize(shape[i] - 1));
        let span = tri!(mul(last, strides[i]));
        if span < 0 {
            lo = tri!(add(lo, span));
        } else {
            hi = tri!(add(hi, span));
        }
        i += 1;
    }
    Ok(Some((lo, hi)))
}

/// `(max offset + 1) * itemsize`: the bytes a buffer starting at offset 0 needs; 0 when
/// there is no element, `NegativeOffset` when some element lies below offset 0.
pub(crate) const fn required_size(
    shape: &[usize],
    strides: &[isize],
    offset: isize,
    itemsize: usize,
) -> Result<usize, LayoutError> {
    let Some((lo, hi)) = tri!(bounds(shape, strides, offset)) else {
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

/// `offset + sum(index[i] * strides[i])`, after checking every `index[i] < shape[i]`.
pub(crate) const fn offset_of(
    shape: &[usize],
    strides: &[isize],
    offset: isize,
    index: &[usize],
) -> Result<isize, LayoutError> {
    let mut off = offset;
    let mut i = 0;
    while i < shape.len() && i < index.len() {
        if index[i] >= shape[i] {
            return Err(LayoutError::IndexOutOfRange { axis: i });
        }
        off = tri!(advance(off, index[i], strides[i]));
        i += 1;
    }
    Ok(off)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_cover_negative_and_positive_strides() {
        assert_eq!(bounds(&[2, 3], &[-3, 1], 3), Ok(Some((0, 5))));
        assert_eq!(bounds(&[2, 0], &[-3, 1], 3), Ok(None));
        assert_eq!(bounds(&[], &[], 7), Ok(Some((7, 7))));
    }

    #[test]
    fn validate_rejects_each_invariant() {
        assert_eq!(
            validate(&[2], &[1], 0, 3),
            Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: 3 })
        );
        assert_eq!(
            validate(&[usize::MAX, 2], &[0, 0], 0, 1),
            Err(LayoutError::VolumeOverflow)
        );
        assert_eq!(
            validate(&[3], &[isize::MAX / 2 + 1], 0, 1),
            Err(LayoutError::OffsetOverflow)
        );
        assert_eq!(
            validate(&[1], &[isize::MAX], 0, 2),
            Err(LayoutError::OffsetOverflow)
        );
        assert_eq!(validate(&[1], &[isize::MAX], 0, 1), Ok(1));
        assert_eq!(
            validate(&[0], &[1], isize::MAX, 2),
            Err(LayoutError::OffsetOverflow)
        );
    }

    #[test]
    fn offset_of_checks_each_index() {
        assert_eq!(offset_of(&[2, 3], &[3, 1], 1, &[1, 2]), Ok(6));
        assert_eq!(
            offset_of(&[2, 3], &[3, 1], 1, &[1, 3]),
            Err(LayoutError::IndexOutOfRange { axis: 1 })
        );
    }
}
