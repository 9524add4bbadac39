//! Axis arguments: Python-style negative axes, counted from the end.

use crate::LayoutError;

/// `axis` as an index into `0..n`, a negative axis counting from the end (`-1` is the last),
/// or `SignedAxisOutOfRange` naming the axis as given.
pub(crate) const fn normalize_axis(axis: isize, n: usize) -> Result<usize, LayoutError> {
    let mag = axis.unsigned_abs();
    if axis >= 0 {
        if mag < n {
            return Ok(mag);
        }
    } else if mag <= n {
        #[expect(
            clippy::arithmetic_side_effects,
            reason = "`1 <= mag <= n`, so `n - mag` cannot wrap."
        )]
        return Ok(n - mag);
    }
    Err(LayoutError::SignedAxisOutOfRange { axis, ndim: n })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_axis_counts_negatives_from_the_end() {
        assert_eq!(normalize_axis(-1, 3), Ok(2));
        assert_eq!(normalize_axis(-3, 3), Ok(0));
        assert_eq!(normalize_axis(2, 3), Ok(2));
        assert_eq!(
            normalize_axis(3, 3),
            Err(LayoutError::SignedAxisOutOfRange { axis: 3, ndim: 3 })
        );
        assert_eq!(
            normalize_axis(-4, 3),
            Err(LayoutError::SignedAxisOutOfRange { axis: -4, ndim: 3 })
        );
        assert_eq!(
            normalize_axis(-1, 0),
            Err(LayoutError::SignedAxisOutOfRange { axis: -1, ndim: 0 })
        );
        assert_eq!(
            normalize_axis(isize::MIN, 3),
            Err(LayoutError::SignedAxisOutOfRange {
                axis: isize::MIN,
                ndim: 3
            })
        );
    }
}
