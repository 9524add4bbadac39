//! Narrowing one axis to a sub-range of its indices.

use super::checked::offset_after_or_keep;
use super::parts::Parts;
use crate::{InterleaveLayout, LayoutError};

/// The offset of `p` narrowed to indices `start..start + len` of `axis` (the caller sets the
/// extent to `len`; strides do not change).
///
/// Errors: `AxisOutOfRange`, then `RangeOutOfBounds` when `start + len` exceeds the extent
/// (no clamping). An empty result keeps the offset where moving it would overflow.
pub(crate) const fn narrow(
    p: Parts<'_>,
    axis: usize,
    start: usize,
    len: usize,
) -> Result<isize, LayoutError> {
    narrow_blocked(p, InterleaveLayout::PLAIN, axis, start, len)
}

/// [`narrow`] for a layout read under the interleave `il`: on the interleaved axis `start`
/// must be a multiple of the factor (`BlockMisaligned`, checked after the range), and the
/// offset moves by `start / f` blocks.
pub(crate) const fn narrow_blocked(
    p: Parts<'_>,
    il: InterleaveLayout,
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
    let (steps, lane) = il.factor_at(axis).split(start);
    if lane != 0 {
        return Err(LayoutError::BlockMisaligned { axis });
    }
    // With no element in the result, the offset is never read: it stays where the moved one
    // would not fit.
    offset_after_or_keep(
        p.offset(),
        steps,
        stride,
        len == 0 || p.has_zero_extent(),
        p.itemsize(),
    )
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
