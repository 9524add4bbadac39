//! Checked `const` arithmetic that turns overflow into a [`LayoutError`].

use crate::LayoutError;

/// `a * b`, or `Err(VolumeOverflow)`.
pub(crate) const fn mul_volume(a: usize, b: usize) -> Result<usize, LayoutError> {
    match a.checked_mul(b) {
        Some(v) => Ok(v),
        None => Err(LayoutError::VolumeOverflow),
    }
}

/// `a * b`, or `Err(OffsetOverflow)`.
pub(crate) const fn mul(a: isize, b: isize) -> Result<isize, LayoutError> {
    match a.checked_mul(b) {
        Some(v) => Ok(v),
        None => Err(LayoutError::OffsetOverflow),
    }
}

/// `a + b`, or `Err(OffsetOverflow)`.
pub(crate) const fn add(a: isize, b: isize) -> Result<isize, LayoutError> {
    match a.checked_add(b) {
        Some(v) => Ok(v),
        None => Err(LayoutError::OffsetOverflow),
    }
}

/// `-a`, or `Err(OffsetOverflow)` for `isize::MIN`.
pub(crate) const fn neg(a: isize) -> Result<isize, LayoutError> {
    match a.checked_neg() {
        Some(v) => Ok(v),
        None => Err(LayoutError::OffsetOverflow),
    }
}

/// `a` as `isize`, or `Err(OffsetOverflow)`.
pub(crate) const fn to_isize(a: usize) -> Result<isize, LayoutError> {
    if a > isize::MAX as usize {
        Err(LayoutError::OffsetOverflow)
    } else {
        #[expect(
            clippy::cast_possible_wrap,
            reason = "Cast cannot wrap: `a <= isize::MAX` was checked above."
        )]
        Ok(a as isize)
    }
}

/// `offset + index * stride`: the offset `index` steps along an axis, or `Err(OffsetOverflow)`.
///
/// A zero stride adds nothing for any index: a broadcast axis may be longer than `isize::MAX`.
/// The product and sum are formed in `i128` (`|index * stride| < 2^127`), so only a result
/// outside `isize` is an error: `MAX + 2 * -MAX` is `-MAX`, though `2 * -MAX` alone
/// overflows.
pub(crate) const fn offset_after(
    offset: isize,
    index: usize,
    stride: isize,
) -> Result<isize, LayoutError> {
    if stride == 0 {
        return Ok(offset);
    }
    #[expect(
        clippy::arithmetic_side_effects,
        reason = "`index < 2^64` and `|stride| <= 2^63`, so the product is below 2^127 in magnitude and adding an `isize` cannot overflow `i128`."
    )]
    let v = offset as i128 + index as i128 * stride as i128;
    if v < isize::MIN as i128 || v > isize::MAX as i128 {
        Err(LayoutError::OffsetOverflow)
    } else {
        // In range: checked on the line above.
        Ok(v as isize)
    }
}

/// `stride * extent`, or `None` when it does not fit `isize`.
pub(crate) const fn checked_stride_mul(stride: isize, extent: usize) -> Option<isize> {
    match to_isize(extent) {
        Ok(e) => stride.checked_mul(e),
        Err(_) => None,
    }
}

/// The product of `shape`, or `Err(VolumeOverflow)`; 0 whenever an extent is 0, whatever
/// the others are.
pub(crate) const fn volume(shape: &[usize]) -> Result<usize, LayoutError> {
    let mut v: usize = 1;
    let mut overflow = false;
    let mut rest = shape;
    while let [e, tail @ ..] = rest {
        if *e == 0 {
            return Ok(0);
        }
        match v.checked_mul(*e) {
            Some(x) => v = x,
            None => overflow = true,
        }
        rest = tail;
    }
    if overflow {
        Err(LayoutError::VolumeOverflow)
    } else {
        Ok(v)
    }
}

/// Sets to 0 the stride of every extent-0 or extent-1 axis whose stride does not fit `isize`
/// in bytes. Such a stride never reaches an offset, so any value is correct; rank changes
/// that invent strides for new extent-1 axes (a product that may exceed `isize`) use this
/// instead of failing on a layout that is fine.
pub(crate) const fn tame_unit_strides(shape: &[usize], strides: &mut [isize], itemsize: usize) {
    let Ok(item) = to_isize(itemsize) else {
        return;
    };
    let mut rest = shape;
    let mut out = strides;
    while let ([e, shape_tail @ ..], [s, strides_tail @ ..]) = (rest, out) {
        if *e <= 1 && s.checked_mul(item).is_none() {
            *s = 0;
        }
        rest = shape_tail;
        out = strides_tail;
    }
}

/// [`offset_after`] for a result that may hold no element (`empty`). With elements, the moved
/// offset is an element's and fits in elements and bytes (invariant 3). Without, it is never
/// read: it moves only where it still fits `isize` in bytes of `itemsize`, and stays where it
/// is otherwise, so the result keeps invariant 3 without failing.
pub(crate) const fn offset_after_or_keep(
    offset: isize,
    index: usize,
    stride: isize,
    empty: bool,
    itemsize: usize,
) -> Result<isize, LayoutError> {
    if !empty {
        return offset_after(offset, index, stride);
    }
    match (offset_after(offset, index, stride), to_isize(itemsize)) {
        (Ok(o), Ok(item)) if o.checked_mul(item).is_some() => Ok(o),
        _ => Ok(offset),
    }
}

/// Unwraps a `Result` inside a `const fn` returning `Result`, propagating the error.
///
/// `?` is not available in `const fn` on stable, so this macro stands in for it.
macro_rules! tri {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return Err(e),
        }
    };
}
pub(crate) use tri;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn volume_of_empty_shape_is_one() {
        assert_eq!(volume(&[]), Ok(1));
    }

    #[test]
    fn volume_overflow_is_an_error_unless_an_extent_is_zero() {
        assert_eq!(volume(&[usize::MAX, 2]), Err(LayoutError::VolumeOverflow));
        assert_eq!(volume(&[0, usize::MAX, 2]), Ok(0));
        assert_eq!(volume(&[usize::MAX, 2, 0]), Ok(0));
    }

    #[test]
    fn arithmetic_overflows_are_errors() {
        assert_eq!(mul(isize::MAX, 2), Err(LayoutError::OffsetOverflow));
        assert_eq!(add(isize::MAX, 1), Err(LayoutError::OffsetOverflow));
        assert_eq!(neg(isize::MIN), Err(LayoutError::OffsetOverflow));
        assert_eq!(to_isize(usize::MAX), Err(LayoutError::OffsetOverflow));
        assert_eq!(to_isize(5), Ok(5));
    }
}
