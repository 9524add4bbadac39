//! Narrowing one axis to a sub-range of its indices.

use super::checked::advance;
use super::parts::Parts;
use crate::LayoutError;

/// The offset of `p` narrowed to indices `start..start + len` of `axis` (the caller sets the
/// extent to `len`; strides do not change).
///
/// Errors: `AxisOutOfRange`, then `RangeOutOfBounds` when `start + len` exceeds the extent
/// (no clamping), then `OffsetOverflow` (possible only for `len == 0` at `start == extent`).
pub(crate) const fn narrow(
    p: Parts<'_>,
    axis: usize,
    start: usize,
    len: usize,
) -> Result<isize, LayoutError> {
    if axis >= p.rank() {
        return Err(LayoutError::AxisOutOfRange {
            axis,
            ndim: p.rank(),
        });
    }
    let (extent, stride) = p.axis(axis);
    match start.checked_add(len) {
        Some(end) if end <= extent => {}
        _ => return Err(LayoutError::RangeOutOfBounds { axis }),
    }
    advance(p.offset(), start, stride)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn narrow_moves_the_offset_and_never_clamps() {
        let p = Parts::from_arrays(&[4, 5], &[5, 1], 2, 1);
        assert_eq!(narrow(p, 0, 1, 2), Ok(7));
        assert_eq!(
            narrow(p, 1, 4, 2),
            Err(LayoutError::RangeOutOfBounds { axis: 1 })
        );
        assert_eq!(
            narrow(p, 1, usize::MAX, 2),
            Err(LayoutError::RangeOutOfBounds { axis: 1 })
        );
        assert_eq!(
            narrow(p, 2, 0, 0),
            Err(LayoutError::AxisOutOfRange { axis: 2, ndim: 2 })
        );
    }
}
