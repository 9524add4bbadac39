//! Inserting extent-1 axes (cuda.core's stride rule), on slices.

use super::access::{contains, set};
use super::checked::to_isize;
use super::parts::Parts;
use crate::LayoutError;

/// Writes `shape`/`strides` with extent-1 axes inserted at the output positions `axes`
/// into `out_shape`/`out_strides` (length `shape.len() + axes.len()`).
///
/// A new axis gets the stride that keeps the layout's contiguity: the stride times the
/// extent of the nearest original axis to its right, or the innermost stride times 1 when
/// there is none, or 1 for a rank-0 source (cuda.core); 0 where that product overflows
/// (cuda.core raises there). Errors: `AxisOutOfRange` for an
/// output position past the output rank, `DuplicateAxis` for a repeated one.
pub(crate) const fn unsqueeze(
    p: Parts<'_>,
    axes: &[usize],
    out_shape: &mut [usize],
    out_strides: &mut [isize],
) -> Result<(), LayoutError> {
    let m = out_shape.len();
    let expected = p.rank().saturating_add(axes.len());
    if m != expected || out_strides.len() != m {
        return Err(LayoutError::RankMismatch { expected, found: m });
    }
    let mut rest = axes;
    while let [a, tail @ ..] = rest {
        if *a >= m {
            return Err(LayoutError::AxisOutOfRange { axis: *a, ndim: m });
        }
        if contains(tail, *a) {
            return Err(LayoutError::DuplicateAxis { axis: *a });
        }
        rest = tail;
    }
    // Walk the output from the right; `src` counts the source axes not yet placed. The output
    // has exactly `rank` non-inserted positions (axes are distinct and `< m`), so `src`
    // reaches 0 exactly at the end and `src - 1` below never wraps.
    let mut src = p.rank();
    let mut last_stride = match src.checked_sub(1) {
        Some(k) => p.stride(k),
        None => 1,
    };
    let mut last_extent: usize = 1;
    let mut i = m;
    while let Some(k) = i.checked_sub(1) {
        i = k;
        if contains(axes, k) {
            set(out_shape, k, 1);
            // 0 where the product does not fit (the new axis has one index, so its stride is
            // never used), an extent above `isize::MAX` on a broadcast axis included.
            let stride = match to_isize(last_extent) {
                Ok(e) => match last_stride.checked_mul(e) {
                    Some(s) => s,
                    None => 0,
                },
                Err(_) => 0,
            };
            set(out_strides, k, stride);
        } else {
            let Some(s) = src.checked_sub(1) else {
                return Err(LayoutError::RankMismatch { expected, found: m });
            };
            src = s;
            (last_extent, last_stride) = p.axis(src);
            set(out_shape, k, last_extent);
            set(out_strides, k, last_stride);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsqueeze_uses_cuda_core_strides() {
        let (mut sh, mut st) = ([0; 4], [0; 4]);
        unsqueeze(
            Parts::from_arrays(&[2, 3], &[3, 1], 0, 1),
            &[0, 3],
            &mut sh,
            &mut st,
        )
        .unwrap();
        assert_eq!((sh, st), ([1, 2, 3, 1], [6, 3, 1, 1]));
        let (mut sh, mut st) = ([0; 1], [0; 1]);
        unsqueeze(Parts::from_arrays(&[], &[], 0, 1), &[0], &mut sh, &mut st).unwrap();
        assert_eq!((sh, st), ([1], [1]));
    }

    #[test]
    fn unsqueeze_rejects_bad_positions() {
        let (mut sh, mut st) = ([0; 3], [0; 3]);
        assert_eq!(
            unsqueeze(
                Parts::from_arrays(&[2], &[1], 0, 1),
                &[1, 1],
                &mut sh,
                &mut st
            ),
            Err(LayoutError::DuplicateAxis { axis: 1 })
        );
        assert_eq!(
            unsqueeze(
                Parts::from_arrays(&[2], &[1], 0, 1),
                &[0, 3],
                &mut sh,
                &mut st
            ),
            Err(LayoutError::AxisOutOfRange { axis: 3, ndim: 3 })
        );
    }
}
