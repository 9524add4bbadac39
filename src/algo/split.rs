//! Splitting one axis into outer × inner.

use super::access::set;
use super::checked::checked_stride_mul;
use super::parts::Parts;
use crate::LayoutError;

/// Writes `p` with axis `axis` split into `(extent / inner, inner)` into
/// `out_shape`/`out_strides` (one longer than the rank): the outer axis gets stride
/// `stride * inner` (0 when that overflows: then the outer extent is 1 and the stride is
/// never used), the inner one keeps `stride`.
///
/// Errors: `AxisOutOfRange`, then `ExtentNotDivisible` when `inner` is 0 or does not divide
/// the extent.
pub(crate) const fn split(
    p: Parts<'_>,
    axis: usize,
    inner: usize,
    out_shape: &mut [usize],
    out_strides: &mut [isize],
) -> Result<(), LayoutError> {
    if axis >= p.rank() {
        return Err(LayoutError::AxisOutOfRange {
            axis,
            ndim: p.rank(),
        });
    }
    let (extent, stride) = p.axis(axis);
    let Some(outer) = extent.checked_div(inner) else {
        return Err(LayoutError::ExtentNotDivisible { axis });
    };
    if !extent.is_multiple_of(inner) {
        return Err(LayoutError::ExtentNotDivisible { axis });
    }
    let mut k = 0;
    let mut rest = p;
    while let Some(((e, s), tail)) = rest.split_first() {
        rest = tail;
        if k == axis {
            set(out_shape, k, outer);
            // With two or more outer indices the product is an offset difference and fits;
            // otherwise the outer stride never reaches an offset and may overflow.
            set(
                out_strides,
                k,
                match checked_stride_mul(stride, inner) {
                    Some(v) => v,
                    None => 0,
                },
            );
            k = k.saturating_add(1);
            set(out_shape, k, inner);
            set(out_strides, k, stride);
        } else {
            set(out_shape, k, e);
            set(out_strides, k, s);
        }
        k = k.saturating_add(1);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_makes_outer_and_inner_axes() {
        let p = Parts::from_arrays(&[6, 5], &[5, 1], 0, 1);
        let (mut sh, mut st) = ([0; 3], [0; 3]);
        split(p, 0, 2, &mut sh, &mut st).unwrap();
        assert_eq!((sh, st), ([3, 2, 5], [10, 5, 1]));
        assert_eq!(
            split(p, 0, 4, &mut sh, &mut st),
            Err(LayoutError::ExtentNotDivisible { axis: 0 })
        );
        assert_eq!(
            split(p, 1, 0, &mut sh, &mut st),
            Err(LayoutError::ExtentNotDivisible { axis: 1 })
        );
    }
}
