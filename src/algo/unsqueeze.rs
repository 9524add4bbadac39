//! Inserting extent-1 axes (cuda.core's stride rule), on slices.

use super::checked::{to_isize, tri};
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
    shape: &[usize],
    strides: &[isize],
    axes: &[usize],
    out_shape: &mut [usize],
    out_strides: &mut [isize],
) -> Result<(), LayoutError> {
    let m = out_shape.len();
    if m != shape.len() + axes.len() || out_strides.len() != m {
        return Err(LayoutError::RankMismatch {
            expected: shape.len() + axes.len(),
            found: m,
        });
    }
    let mut k = 0;
    while k < axes.len() {
        if axes[k] >= m {
            return Err(LayoutError::AxisOutOfRange {
                axis: axes[k],
                ndim: m,
            });
        }
        let mut j = 0;
        while j < k {
            if axes[j] == axes[k] {
                return Err(LayoutError::DuplicateAxis { axis: axes[k] });
            }
            j += 1;
        }
        k += 1;
    }
    let mut src = shape.len();
    let mut last_stride: isize = if src > 0 { strides[src - 1] } else { 1 };
    let mut last_extent: isize = 1;
    let mut i = m;
    while i > 0 {
        i -= 1;
        if contains(axes, i) {
            out_shape[i] = 1;
            // The new axis has extent 1, so its stride never reaches an offset: when the
            // product overflows, 0 is as correct and keeps the operation infallible.
            out_strides[i] = match last_stride.checked_mul(last_extent) {
                Some(s) => s,
                None => 0,
            };
        } else {
            src -= 1;
            last_stride = strides[src];
            last_extent = tri!(to_isize(shape[src]));
            out_shape[i] = shape[src];
            out_strides[i] = last_stride;
        }
    }
    Ok(())
}

/// Whether `axes` holds `axis`.
const fn contains(axes: &[usize], wanted: usize) -> bool {
    let mut k = 0;
    while k < axes.len() {
        if axes[k] == wanted {
            return true;
        }
        k += 1;
    }
    false
}

/// Writes `shape`/`strides` without axis `axis` into the outputs (length `shape.len() - 1`).
pub(crate) const fn remove_axis(
    shape: &[usize],
    strides: &[isize],
    axis: usize,
    out_shape: &mut [usize],
    out_strides: &mut [isize],
) {
    let mut i = 0;
    let mut o = 0;
    while i < shape.len() && o < out_shape.len() {
        if i != axis {
            out_shape[o] = shape[i];
            out_strides[o] = strides[i];
            o += 1;
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unsqueeze_uses_cuda_core_strides() {
        let (mut sh, mut st) = ([0; 4], [0; 4]);
        unsqueeze(&[2, 3], &[3, 1], &[0, 3], &mut sh, &mut st).unwrap();
        assert_eq!((sh, st), ([1, 2, 3, 1], [6, 3, 1, 1]));
        let (mut sh, mut st) = ([0; 1], [0; 1]);
        unsqueeze(&[], &[], &[0], &mut sh, &mut st).unwrap();
        assert_eq!((sh, st), ([1], [1]));
    }

    #[test]
    fn unsqueeze_rejects_bad_positions() {
        let (mut sh, mut st) = ([0; 3], [0; 3]);
        assert_eq!(
            unsqueeze(&[2], &[1], &[1, 1], &mut sh, &mut st),
            Err(LayoutError::DuplicateAxis { axis: 1 })
        );
        assert_eq!(
            unsqueeze(&[2], &[1], &[0, 3], &mut sh, &mut st),
            Err(LayoutError::AxisOutOfRange { axis: 3, ndim: 3 })
        );
    }
}
