//! Dense strides and permutation checks, on slices.

use super::access::{contains, get, set};
use super::checked::{mul, to_isize, tri, volume};
use crate::LayoutError;

/// Whether `perm` holds each of `0..perm.len()` exactly once. O(n²), no scratch.
pub(crate) const fn is_permutation(perm: &[usize]) -> bool {
    let n = perm.len();
    let mut seen = perm;
    while let [x, rest @ ..] = seen {
        if *x >= n || contains(rest, *x) {
            return false;
        }
        seen = rest;
    }
    true
}

/// How [`fill_dense_strides`] walks the axes, fastest last.
#[derive(Clone, Copy)]
pub(crate) enum AxisWalk<'a> {
    /// Last axis fastest.
    C,
    /// First axis fastest.
    F,
    /// `perm[k]` is the axis at position `k`, slowest first; must be a permutation.
    Perm(&'a [usize]),
}

/// Writes dense strides for `shape` into `out` (same length) following `walk`, as cuda.core
/// does: the fastest axis gets stride 1, each slower one the product of the faster extents,
/// and if the volume is 0 every stride is 0. Errors with `NotAPermutation` for a bad `Perm`.
pub(crate) const fn fill_dense_strides(
    shape: &[usize],
    walk: AxisWalk<'_>,
    out: &mut [isize],
) -> Result<(), LayoutError> {
    let n = shape.len();
    if out.len() != n {
        return Err(LayoutError::RankMismatch {
            expected: n,
            found: out.len(),
        });
    }
    if let AxisWalk::Perm(p) = walk {
        if p.len() != n || !is_permutation(p) {
            return Err(LayoutError::NotAPermutation);
        }
    }
    let empty = tri!(volume(shape)) == 0;
    let mut stride: isize = if empty { 0 } else { 1 };
    let mut k = n;
    while k > 0 {
        #[expect(
            clippy::arithmetic_side_effects,
            reason = "`k >= 1` by the loop condition."
        )]
        let pos = k - 1;
        let axis = match walk {
            AxisWalk::C => pos,
            #[expect(
                clippy::arithmetic_side_effects,
                reason = "`pos < n`, so `n - 1 - pos` cannot wrap."
            )]
            AxisWalk::F => n - 1 - pos,
            // A permutation of `0..n` (checked above), so `get` finds every position.
            AxisWalk::Perm(p) => match get(p, pos) {
                Some(a) => a,
                None => return Err(LayoutError::NotAPermutation),
            },
        };
        set(out, axis, stride);
        // The slowest axis needs no further product: the volume itself may exceed `isize`
        // while the largest offset, `volume - 1`, still fits. Any earlier overflow is an
        // error because some element offset would not fit `isize` either.
        if pos > 0 && !empty {
            let Some(extent) = get(shape, axis) else {
                return Err(LayoutError::NotAPermutation);
            };
            stride = tri!(mul(stride, tri!(to_isize(extent))));
        }
        k = pos;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn permutation_check_rejects_repeats_and_out_of_range() {
        assert!(is_permutation(&[2, 0, 1]));
        assert!(is_permutation(&[]));
        assert!(!is_permutation(&[0, 0, 1]));
        assert!(!is_permutation(&[0, 3, 1]));
    }

    #[test]
    fn dense_strides_match_cuda_core_examples() {
        let mut s = [0isize; 3];
        fill_dense_strides(&[5, 3, 7], AxisWalk::C, &mut s).unwrap();
        assert_eq!(s, [21, 7, 1]);
        fill_dense_strides(&[5, 3, 7], AxisWalk::F, &mut s).unwrap();
        assert_eq!(s, [1, 5, 15]);
        fill_dense_strides(&[5, 3, 7], AxisWalk::Perm(&[2, 0, 1]), &mut s).unwrap();
        assert_eq!(s, [3, 1, 15]);
    }

    #[test]
    fn dense_strides_of_empty_shape_are_zero() {
        let mut s = [9isize; 3];
        fill_dense_strides(&[5, 0, 7], AxisWalk::C, &mut s).unwrap();
        assert_eq!(s, [0, 0, 0]);
    }
}
