//! Reversing the index order of one axis.

use super::checked::{neg, offset_after_or_keep, to_isize, tri};
use super::parts::Parts;
use crate::LayoutError;

/// `(new stride, new offset)` of `p` with `axis` reversed: the stride negated and the offset
/// moved to the last index of the axis.
///
/// The set of offsets is unchanged and the new offset is an element's, so of the invariants
/// only the negated stride in bytes needs a check: it fails for `stride * itemsize ==
/// isize::MIN` alone, an error on an axis of two or more indices and stride 0 on one that
/// never uses its stride. Errors: `AxisOutOfRange`, then `OffsetOverflow`.
pub(crate) const fn flip(p: Parts<'_>, axis: usize) -> Result<(isize, isize), LayoutError> {
    if axis >= p.rank() {
        return Err(LayoutError::AxisOutOfRange {
            axis,
            ndim: p.rank(),
        });
    }
    let (extent, stride) = p.axis(axis);
    let mut flipped = tri!(neg(stride));
    if flipped.checked_mul(tri!(to_isize(p.itemsize()))).is_none() {
        if extent >= 2 {
            return Err(LayoutError::OffsetOverflow);
        }
        // An axis of at most one index never uses its stride.
        flipped = 0;
    }
    let offset = match extent.checked_sub(1) {
        // An empty axis: no element, so no offset moves.
        None => p.offset(),
        // No element anywhere (another axis is empty): the offset is never read, so it stays
        // rather than fail where the moved one would not fit.
        Some(last) => tri!(offset_after_or_keep(
            p.offset(),
            last,
            stride,
            p.has_zero_extent(),
            p.itemsize()
        )),
    };
    Ok((flipped, offset))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flip_negates_the_stride_and_starts_at_the_last_index() {
        let p = Parts::from_arrays(&[3, 4], &[4, 1], 0, 1);
        assert_eq!(flip(p, 0), Ok((-4, 8)));
        assert_eq!(flip(p, 1), Ok((-1, 3)));
        let empty = Parts::from_arrays(&[0, 4], &[4, 1], 5, 1);
        assert_eq!(flip(empty, 0), Ok((-4, 5)));
        // Issue "The core at its edges": offsets that fit only thanks to the offset (a
        // quarter of the `isize` range, so the case holds for every pointer width).
        let q = isize::MAX / 4 + 1;
        let strides = [-q];
        let big = Parts::from_arrays(&[3], &strides, isize::MAX, 1);
        assert_eq!(flip(big, 0), Ok((q, isize::MAX - q - q)));
    }
}
