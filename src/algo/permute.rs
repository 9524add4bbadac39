//! Reordering axes: permutation and transposition.

use super::access::{get, set, swap};
use super::dense::is_permutation;
use super::parts::Parts;
use crate::LayoutError;

/// Writes axis `axes[i]` of `p` as axis `i` of `out_shape`/`out_strides` (all as long as the
/// rank); `RankMismatch` unless `axes` is as long as the rank, then `NotAPermutation` unless
/// it holds each of `0..rank` once.
pub(crate) const fn permute(
    p: Parts<'_>,
    axes: &[usize],
    out_shape: &mut [usize],
    out_strides: &mut [isize],
) -> Result<(), LayoutError> {
    if axes.len() != p.rank() {
        return Err(LayoutError::RankMismatch {
            expected: p.rank(),
            found: axes.len(),
        });
    }
    if !is_permutation(axes) {
        return Err(LayoutError::NotAPermutation);
    }
    let mut i = 0;
    while let Some(a) = get(axes, i) {
        let (e, s) = p.axis(a);
        set(out_shape, i, e);
        set(out_strides, i, s);
        i = i.saturating_add(1);
    }
    Ok(())
}

/// Writes into `axes` (as long as the rank) the identity with `a` and `b` swapped;
/// `AxisOutOfRange` naming the first of them that is not less than the rank.
pub(crate) const fn transposition(
    a: usize,
    b: usize,
    axes: &mut [usize],
) -> Result<(), LayoutError> {
    let n = axes.len();
    if a >= n {
        return Err(LayoutError::AxisOutOfRange { axis: a, ndim: n });
    }
    if b >= n {
        return Err(LayoutError::AxisOutOfRange { axis: b, ndim: n });
    }
    let mut i = 0;
    while i < n {
        set(axes, i, i);
        i = i.saturating_add(1);
    }
    swap(axes, a, b);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permute_moves_axes_and_rejects_non_permutations() {
        let p = Parts::from_arrays(&[2, 3, 4], &[12, 4, 1], 0, 1);
        let (mut sh, mut st) = ([0; 3], [0; 3]);
        permute(p, &[2, 0, 1], &mut sh, &mut st).unwrap();
        assert_eq!((sh, st), ([4, 2, 3], [1, 12, 4]));
        assert_eq!(
            permute(p, &[0, 0, 1], &mut sh, &mut st),
            Err(LayoutError::NotAPermutation)
        );
        let mut axes = [0; 3];
        transposition(0, 2, &mut axes).unwrap();
        assert_eq!(axes, [2, 1, 0]);
        assert_eq!(
            transposition(1, 3, &mut axes),
            Err(LayoutError::AxisOutOfRange { axis: 3, ndim: 3 })
        );
    }
}
