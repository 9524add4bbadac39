//! Reshape without copy, in C index order: flatten the source into maximal groups, then
//! split each group into target axes (cuda.core's method, which needs no special case for
//! extent-1 axes, zero strides or negative strides).

use super::checked::checked_stride_mul;
use super::checked::{mul_volume, tri, volume};
use super::coalesce::{flatten, range_mask};
use crate::{AxisMask, LayoutError};

/// Resolves a target shape with at most one `-1` (inferred extent) into `out`.
///
/// Errors: `ExtentInvalid` for an extent below -1, a second -1, or a -1 whose known
/// sub-volume is 0 (ambiguous); `VolumeMismatch` when the volumes differ or do not divide.
pub(crate) const fn resolve_shape(
    target: &[isize],
    volume: usize,
    out: &mut [usize],
) -> Result<(), LayoutError> {
    let mut inferred = target.len();
    let mut known: usize = 1;
    let mut i = 0;
    while i < target.len() {
        let e = target[i];
        if e == -1 && inferred == target.len() {
            inferred = i;
        } else if e < 0 {
            return Err(LayoutError::ExtentInvalid { axis: i });
        } else {
            out[i] = e.unsigned_abs();
            known = match mul_volume(known, out[i]) {
                Ok(v) => v,
                // A product that overflows `usize` cannot equal (or divide) the volume.
                Err(_) => return Err(LayoutError::VolumeMismatch),
            };
        }
        i += 1;
    }
    if inferred == target.len() {
        return if known == volume {
            Ok(())
        } else {
            Err(LayoutError::VolumeMismatch)
        };
    }
    if known == 0 {
        return Err(LayoutError::ExtentInvalid { axis: inferred });
    }
    // `known >= 1`, so neither `%` nor `/` divides by zero.
    if !volume.is_multiple_of(known) {
        return Err(LayoutError::VolumeMismatch);
    }
    out[inferred] = volume / known;
    Ok(())
}

/// Writes into `out_strides` strides for the resolved `target` shape that give every
/// element, in C index order, the same offset as in the source; `NeedsCopy` (naming the
/// source axes on each side of the first boundary a target axis would straddle) if none do.
///
/// `scratch_shape`, `scratch_strides` and `scratch_starts` must be at least as long as
/// `shape`. An empty source gives all-zero strides, as cuda.core does; extent-1 target axes
/// get the stride the split produces (the product of the inner extents and strides).
pub(crate) const fn reshape_c(
    shape: &[usize],
    strides: &[isize],
    target: &[usize],
    out_strides: &mut [isize],
    scratch_shape: &mut [usize],
    scratch_strides: &mut [isize],
    scratch_starts: &mut [usize],
) -> Result<(), LayoutError> {
    let vol = tri!(volume(shape));
    if vol != tri!(volume(target)) {
        return Err(LayoutError::VolumeMismatch);
    }
    let mut j = 0;
    while j < out_strides.len() {
        out_strides[j] = 0;
        j += 1;
    }
    if vol == 0 {
        return Ok(());
    }
    let (groups, _) = tri!(flatten(
        shape,
        strides,
        range_mask(0, shape.len()),
        scratch_shape,
        scratch_strides,
        scratch_starts
    ));
    let mut new_i = target.len();
    let mut g = groups;
    while g > 0 {
        g -= 1;
        let extent = scratch_shape[g];
        let mut stride = scratch_strides[g];
        let mut group_vol: usize = 1;
        while new_i > 0 && (target[new_i - 1] == 1 || group_vol < extent) {
            new_i -= 1;
            let t = target[new_i];
            out_strides[new_i] = stride;
            // Inside a group the product is an offset difference and fits `isize`; it can
            // overflow only after the group is complete, where it is used solely as the
            // stride of extent-1 axes, for which any value (here 0) is correct.
            stride = match checked_stride_mul(stride, t) {
                Some(s) => s,
                None => 0,
            };
            group_vol = group_vol.saturating_mul(t);
        }
        if group_vol != extent {
            return Err(LayoutError::NeedsCopy {
                axes: boundary_axes(shape, scratch_starts, g),
            });
        }
    }
    Ok(())
}

/// The non-unit source axes on each side of the start of group `g`.
const fn boundary_axes(shape: &[usize], starts: &[usize], g: usize) -> AxisMask {
    let mut mask = AxisMask::EMPTY;
    let start = starts[g];
    let mut k = start;
    while k < shape.len() {
        if shape[k] != 1 {
            mask = mask.with(k);
            break;
        }
        k += 1;
    }
    k = start;
    while k > 0 {
        k -= 1;
        if shape[k] != 1 {
            mask = mask.with(k);
            break;
        }
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reshape<const N: usize, const M: usize>(
        shape: [usize; N],
        strides: [isize; N],
        target: [usize; M],
    ) -> Result<[isize; M], LayoutError> {
        let mut out = [0; M];
        let (mut a, mut b, mut c) = ([0; N], [0; N], [0; N]);
        reshape_c(&shape, &strides, &target, &mut out, &mut a, &mut b, &mut c)?;
        Ok(out)
    }

    #[test]
    fn reshape_matches_cuda_core_examples() {
        assert_eq!(reshape([5, 3, 4], [12, 4, 1], [20, 3]), Ok([3, 1]));
        assert_eq!(reshape([4, 5, 3], [1, 12, 4], [4, 15]), Ok([1, 4]));
        assert_eq!(
            reshape([4, 5, 3], [1, 12, 4], [20, 3]),
            Err(LayoutError::NeedsCopy {
                axes: AxisMask::from_bits(0b11)
            })
        );
    }

    #[test]
    fn reshape_ignores_extent_one_strides() {
        assert_eq!(reshape([2, 1, 3], [3, 99, 1], [6]), Ok([1]));
    }

    #[test]
    fn reshape_splits_zero_and_negative_strides() {
        assert_eq!(reshape([4], [0], [2, 2]), Ok([0, 0]));
        assert_eq!(reshape([6], [-1], [2, 3]), Ok([-3, -1]));
        assert_eq!(reshape([6], [2], [1, 2, 1, 3, 1]), Ok([12, 6, 6, 2, 2]));
    }

    #[test]
    fn resolve_shape_infers_one_extent() {
        let mut out = [0; 3];
        assert_eq!(resolve_shape(&[2, -1, 3], 24, &mut out), Ok(()));
        assert_eq!(out, [2, 4, 3]);
        assert_eq!(
            resolve_shape(&[-1, -1], 4, &mut [0; 2]),
            Err(LayoutError::ExtentInvalid { axis: 1 })
        );
        assert_eq!(
            resolve_shape(&[-2], 4, &mut [0; 1]),
            Err(LayoutError::ExtentInvalid { axis: 0 })
        );
        assert_eq!(
            resolve_shape(&[0, -1], 0, &mut [0; 2]),
            Err(LayoutError::ExtentInvalid { axis: 1 })
        );
        assert_eq!(
            resolve_shape(&[5, -1], 24, &mut [0; 2]),
            Err(LayoutError::VolumeMismatch)
        );
        assert_eq!(
            resolve_shape(&[5], 24, &mut [0; 1]),
            Err(LayoutError::VolumeMismatch)
        );
    }
}
