//! Reshape without copy, in C index order: flatten the source into maximal groups, then
//! split each group into target axes (cuda.core's method, which needs no special case for
//! extent-1 axes, zero strides or negative strides).

use super::access::{get, reverse_into, set};
use super::checked::checked_stride_mul;
use super::checked::{mul_volume, tri, volume};
use super::flatten::{flatten, range_mask};
use super::parts::Parts;
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
    let mut inferred = None;
    let mut known: usize = 1;
    let mut i = 0;
    while let Some(e) = get(target, i) {
        if e == -1 && inferred.is_none() {
            inferred = Some(i);
        } else if e < 0 {
            return Err(LayoutError::ExtentInvalid { axis: i });
        } else {
            set(out, i, e.unsigned_abs());
            known = match mul_volume(known, e.unsigned_abs()) {
                Ok(v) => v,
                // A product that overflows `usize` cannot equal (or divide) the volume.
                Err(_) => return Err(LayoutError::VolumeMismatch),
            };
        }
        i = i.saturating_add(1);
    }
    let Some(inferred) = inferred else {
        return if known == volume {
            Ok(())
        } else {
            Err(LayoutError::VolumeMismatch)
        };
    };
    if known == 0 {
        // `0 * x` is never a non-zero volume; for a zero volume the -1 is ambiguous.
        return Err(if volume == 0 {
            LayoutError::ExtentInvalid { axis: inferred }
        } else {
            LayoutError::VolumeMismatch
        });
    }
    #[expect(
        clippy::arithmetic_side_effects,
        reason = "`known >= 1`, so neither `%` nor `/` divides by zero."
    )]
    if volume.is_multiple_of(known) {
        set(out, inferred, volume / known);
        Ok(())
    } else {
        Err(LayoutError::VolumeMismatch)
    }
}

/// Writes into `out_strides` strides for the resolved `target` shape that give every
/// element, in C index order, the same offset as in the source; `NeedsCopy` (naming the
/// source axes on each side of the first boundary a target axis would straddle) if none do.
///
/// `scratch_shape`, `scratch_strides` and `scratch_starts` must be at least as long as the
/// rank. An empty source gives all-zero strides, as cuda.core does; extent-1 target axes
/// get the stride the split produces (the product of the inner extents and strides).
pub(crate) const fn reshape_c(
    p: Parts<'_>,
    target: &[usize],
    out_strides: &mut [isize],
    scratch_shape: &mut [usize],
    scratch_strides: &mut [isize],
    scratch_starts: &mut [usize],
) -> Result<(), LayoutError> {
    let vol = tri!(volume(p.shape()));
    if vol != tri!(volume(target)) {
        return Err(LayoutError::VolumeMismatch);
    }
    let mut j = 0;
    while j < out_strides.len() {
        set(out_strides, j, 0);
        j = j.saturating_add(1);
    }
    if vol == 0 {
        return Ok(());
    }
    let (groups, _) = tri!(flatten(
        p,
        range_mask(0, p.rank()),
        scratch_shape,
        scratch_strides,
        scratch_starts
    ));
    let mut new_i = target.len();
    let mut g = groups;
    while let Some(gg) = g.checked_sub(1) {
        g = gg;
        let (Some(extent), Some(mut stride)) = (get(scratch_shape, g), get(scratch_strides, g))
        else {
            return Err(LayoutError::RankMismatch {
                expected: groups,
                found: scratch_shape.len(),
            });
        };
        let mut group_vol: usize = 1;
        while let Some(k) = new_i.checked_sub(1) {
            let Some(t) = get(target, k) else {
                break;
            };
            if !(t == 1 || group_vol < extent) {
                break;
            }
            new_i = k;
            set(out_strides, k, stride);
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
                axes: boundary_axes(p.shape(), scratch_starts, g),
            });
        }
    }
    Ok(())
}

/// Like [`reshape_c`] in F index order (first axis fastest): the C reshape of the
/// reversed source onto the reversed target, reversed back. `rev_shape`/`rev_strides` are
/// scratch as long as the rank, `rev_target`/`rev_out` as long as the target; `NeedsCopy`
/// names the source axes in the caller's numbering.
pub(crate) const fn reshape_f(
    p: Parts<'_>,
    target: &[usize],
    out_strides: &mut [isize],
    scratch: &mut Scratch<'_>,
) -> Result<(), LayoutError> {
    let n = p.rank();
    reverse_into(p.shape(), scratch.rev_shape);
    reverse_into(p.strides(), scratch.rev_strides);
    reverse_into(target, scratch.rev_target);
    let q = tri!(Parts::new(
        scratch.rev_shape,
        scratch.rev_strides,
        p.offset(),
        p.itemsize()
    ));
    match reshape_c(
        q,
        scratch.rev_target,
        scratch.rev_out,
        scratch.shape,
        scratch.strides,
        scratch.starts,
    ) {
        Ok(()) => {}
        Err(LayoutError::NeedsCopy { axes }) => {
            let mut mask = AxisMask::EMPTY;
            let mut i = 0;
            while i < n {
                if axes.contains(i) {
                    #[expect(
                        clippy::arithmetic_side_effects,
                        reason = "`i < n`, so `n - 1 - i` cannot wrap."
                    )]
                    {
                        mask = mask.with(n - 1 - i);
                    }
                }
                i = i.saturating_add(1);
            }
            return Err(LayoutError::NeedsCopy { axes: mask });
        }
        Err(e) => return Err(e),
    }
    reverse_into(scratch.rev_out, out_strides);
    Ok(())
}

/// Scratch buffers for a reshape: `shape`, `strides`, `starts` and the two `rev_*` of the
/// source as long as the source rank; `rev_target`, `rev_out` as long as the target rank
/// (the `rev_*` are used by [`reshape_f`] only).
pub(crate) struct Scratch<'a> {
    pub(crate) shape: &'a mut [usize],
    pub(crate) strides: &'a mut [isize],
    pub(crate) starts: &'a mut [usize],
    pub(crate) rev_shape: &'a mut [usize],
    pub(crate) rev_strides: &'a mut [isize],
    pub(crate) rev_target: &'a mut [usize],
    pub(crate) rev_out: &'a mut [isize],
}

/// The non-unit source axes on each side of the start of group `g`.
const fn boundary_axes(shape: &[usize], starts: &[usize], g: usize) -> AxisMask {
    let mut mask = AxisMask::EMPTY;
    let Some(start) = get(starts, g) else {
        return mask;
    };
    let mut k = start;
    while let Some(e) = get(shape, k) {
        if e != 1 {
            mask = mask.with(k);
            break;
        }
        k = k.saturating_add(1);
    }
    k = start;
    while let Some(kk) = k.checked_sub(1) {
        k = kk;
        if let Some(e) = get(shape, k) {
            if e != 1 {
                mask = mask.with(k);
                break;
            }
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
        reshape_c(
            Parts::from_arrays(&shape, &strides, 0, 1),
            &target,
            &mut out,
            &mut a,
            &mut b,
            &mut c,
        )?;
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
