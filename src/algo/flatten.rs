//! Flattening: merging runs of axes into one, in C index order (cuda.core's stride test,
//! extended to extent-1 axes and empty layouts: `doc::cuda_core` entry 10).

use super::access::set;
use super::checked::{checked_stride_mul, mul_volume, tri, volume};
use super::parts::Parts;
use crate::{AxisMask, LayoutError};

/// Merges axes into groups in C index order, writing each group's extent and stride into
/// `out_shape`/`out_strides` and its first source axis into `starts` (each only as far as the
/// slice is long, so empty slices ask for the count and mask alone); returns the number of
/// groups and the mask of the axes that merged into their left neighbour.
///
/// Axis `i` (`i >= 1`) joins the group on its left when bit `i` of `mask` is set and the
/// merge keeps every offset: the layout is empty, or axis `i` has extent 1, or the group so
/// far holds only extent-1 axes, or `strides[i] * shape[i]` equals the stride of the group's
/// last axis of extent > 1 (cuda.core's test, but cuda.core compares with axis `i - 1`
/// whatever its extent and never merges by the other rules: see `doc::cuda_core`). A group
/// of one axis keeps its stride; a merged group of extent-1 axes only has stride 1 (its
/// stride is never used); a merged group of an empty layout has stride 0. Bits at or above
/// `shape.len()` are `MaskOutOfRange`; bit 0 names no merge and is ignored. Rank 0 flattens
/// to itself (0 groups) — cuda.core returns shape `(1,)` there.
pub(crate) const fn flatten(
    p: Parts<'_>,
    mask: AxisMask,
    out_shape: &mut [usize],
    out_strides: &mut [isize],
    starts: &mut [usize],
) -> Result<(usize, AxisMask), LayoutError> {
    let n = p.rank();
    if n < 64 && (mask.bits() >> n) != 0 {
        return Err(LayoutError::MaskOutOfRange);
    }
    let empty = tri!(volume(p.shape())) == 0;
    let mut merged = AxisMask::EMPTY;
    let mut out = 0;
    let mut start = 0;
    #[expect(
        clippy::arithmetic_side_effects,
        reason = "Each pass consumes at least axis `start`, so `start` and `end` stay <= n and `out` counts at most `n` groups: none of the `+ 1` below can overflow."
    )]
    while start < n {
        let (mut group_vol, first_stride) = p.axis(start);
        // Stride of the group's last axis of extent > 1 (None while there is none).
        let mut last: Option<isize> = if empty || group_vol == 1 {
            None
        } else {
            Some(first_stride)
        };
        let mut end = start + 1;
        while end < n && mask.contains(end) {
            let (extent, stride) = p.axis(end);
            if !empty && extent != 1 {
                if let Some(s) = last {
                    match checked_stride_mul(stride, extent) {
                        Some(q) if q == s => {}
                        _ => break,
                    }
                }
                last = Some(stride);
            }
            group_vol = tri!(mul_volume(group_vol, extent));
            merged = merged.with(end);
            end += 1;
        }
        set(out_shape, out, group_vol);
        set(
            out_strides,
            out,
            match last {
                Some(s) => s,
                // Nothing merged: the axis keeps its stride, so a range of fewer than two
                // axes leaves the layout unchanged (cuda.core's rule).
                None if end == start + 1 => first_stride,
                None if empty => 0,
                None => 1,
            },
        );
        set(starts, out, start);
        out += 1;
        start = end;
    }
    Ok((out, merged))
}

/// The mask with bits `start + 1 .. end` set: merging axes `start..end` (end exclusive).
pub(crate) const fn range_mask(start: usize, end: usize) -> AxisMask {
    let mut mask = AxisMask::EMPTY;
    let mut i = start.saturating_add(1);
    while i < end {
        mask = mask.with(i);
        i = i.saturating_add(1);
    }
    mask
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::{vec, vec::Vec};

    fn flat<const N: usize>(
        shape: [usize; N],
        strides: [isize; N],
        mask: u64,
    ) -> (Vec<usize>, Vec<isize>) {
        let (mut sh, mut st, mut starts) = ([0; N], [0; N], [0; N]);
        let (r, _) = flatten(
            Parts::from_arrays(&shape, &strides, 0, 1),
            AxisMask::from_bits(mask),
            &mut sh,
            &mut st,
            &mut starts,
        )
        .unwrap();
        (sh[..r].to_vec(), st[..r].to_vec())
    }

    #[test]
    fn flatten_matches_cuda_core_examples() {
        assert_eq!(flat([3, 2], [2, 1], !0 >> 62), (vec![6], vec![1]));
        assert_eq!(flat([3, 2], [1, 3], 0b10), (vec![3, 2], vec![1, 3]));
        assert_eq!(flat([4, 5, 3], [15, 3, 1], 0b110), (vec![60], vec![1]));
        assert_eq!(
            flat([4, 5, 3], [1, 12, 4], 0b110),
            (vec![4, 15], vec![1, 4])
        );
        assert_eq!(
            flat([4, 5, 3], [15, 3, 1], 0b100),
            (vec![4, 15], vec![15, 1])
        );
    }

    #[test]
    fn flatten_ignores_strides_of_extent_one_axes() {
        assert_eq!(flat([2, 1, 3], [3, 99, 1], 0b110), (vec![6], vec![1]));
        assert_eq!(flat([1, 1], [7, 9], 0b10), (vec![1], vec![1]));
    }

    #[test]
    fn flatten_of_empty_layout_has_zero_strides() {
        assert_eq!(flat([2, 0, 3], [5, 7, 1], 0b110), (vec![0], vec![0]));
    }

    #[test]
    fn flatten_keeps_the_stride_of_an_axis_that_merges_with_nothing() {
        assert_eq!(flat([1, 2], [5, 1], 0), (vec![1, 2], vec![5, 1]));
        assert_eq!(
            flat([2, 0, 3], [5, 7, 1], 0),
            (vec![2, 0, 3], vec![5, 7, 1])
        );
        assert_eq!(flat([2, 0, 3], [5, 7, 1], 0b100), (vec![2, 0], vec![5, 0]));
    }

    #[test]
    fn flatten_rejects_mask_bits_beyond_rank() {
        let (mut sh, mut st) = ([0; 2], [0; 2]);
        assert_eq!(
            flatten(
                Parts::from_arrays(&[2, 2], &[2, 1], 0, 1),
                AxisMask::from_bits(0b100),
                &mut sh,
                &mut st,
                &mut []
            ),
            Err(LayoutError::MaskOutOfRange)
        );
    }

    #[test]
    fn range_mask_sets_inner_bits() {
        assert_eq!(range_mask(1, 4).bits(), 0b1100);
        assert_eq!(range_mask(2, 2).bits(), 0);
    }
}
