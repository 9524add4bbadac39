//! Selecting one index of an axis (the rank drops by one), and dropping an axis.

use super::access::set;
use super::checked::offset_after_or_keep;
use super::parts::Parts;
use crate::LayoutError;

/// Writes `p` without `axis` into `out_shape`/`out_strides` (each `rank - 1` long) and
/// returns the offset of index `index` on that axis.
///
/// Errors: `AxisOutOfRange`, then `IndexOutOfRange`, then `OffsetOverflow` (impossible on a
/// valid layout: the offset is that of an element).
pub(crate) const fn select(
    p: Parts<'_>,
    axis: usize,
    index: usize,
    out_shape: &mut [usize],
    out_strides: &mut [isize],
) -> Result<isize, LayoutError> {
    if axis >= p.rank() {
        return Err(LayoutError::AxisOutOfRange {
            axis,
            ndim: p.rank(),
        });
    }
    let (extent, stride) = p.axis(axis);
    if index >= extent {
        return Err(LayoutError::IndexOutOfRange { axis });
    }
    remove_axis(p, axis, out_shape, out_strides);
    // An empty result (another axis is empty) keeps the offset where the move would overflow.
    offset_after_or_keep(p.offset(), index, stride, p.has_zero_extent(), p.itemsize())
}

/// Copies every axis of `p` but `axis` into `out_shape`/`out_strides`, in order, as far as
/// they reach.
pub(crate) const fn remove_axis(
    p: Parts<'_>,
    axis: usize,
    out_shape: &mut [usize],
    out_strides: &mut [isize],
) {
    let mut i = 0;
    let mut o = 0;
    #[expect(
        clippy::arithmetic_side_effects,
        reason = "`i < rank` and `o <= i`, so neither increment can overflow."
    )]
    while i < p.rank() {
        if i != axis {
            let (e, s) = p.axis(i);
            set(out_shape, o, e);
            set(out_strides, o, s);
            o += 1;
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn select_drops_the_axis_and_moves_the_offset() {
        let (mut sh, mut st) = ([0; 2], [0; 2]);
        let p = Parts::from_arrays(&[2, 3, 4], &[12, 4, 1], 5, 1);
        assert_eq!(select(p, 1, 2, &mut sh, &mut st), Ok(13));
        assert_eq!((sh, st), ([2, 4], [12, 1]));
        assert_eq!(
            select(p, 3, 0, &mut sh, &mut st),
            Err(LayoutError::AxisOutOfRange { axis: 3, ndim: 3 })
        );
        assert_eq!(
            select(p, 0, 2, &mut sh, &mut st),
            Err(LayoutError::IndexOutOfRange { axis: 0 })
        );
    }

    #[test]
    fn select_on_a_broadcast_axis_longer_than_isize_max() {
        let (mut sh, mut st) = ([0; 1], [0; 1]);
        let p = Parts::from_arrays(&[usize::MAX, 2], &[0, 1], 0, 1);
        assert_eq!(select(p, 0, usize::MAX - 1, &mut sh, &mut st), Ok(0));
    }
}
