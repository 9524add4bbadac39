//! Stride order: a `const` insertion sort of axes by stride, with cuda.core's tie rules.

use super::access::{get, set, swap};
use super::parts::Parts;

/// Whether axis `i` sorts before axis `j`: cuda.core's key `(-|stride|, -extent, axis)`,
/// so larger `|stride|` first, then larger extent, then the smaller axis number. Zero strides
/// are not special: `(2,3,4):(0,0,0)` orders `[2, 1, 0]`.
const fn before(p: Parts<'_>, i: usize, j: usize) -> bool {
    let (ei, si) = p.axis(i);
    let (ej, sj) = p.axis(j);
    let (si, sj) = (si.unsigned_abs(), sj.unsigned_abs());
    if si != sj {
        return si > sj;
    }
    if ei != ej {
        return ei > ej;
    }
    i < j
}

/// Writes into `out` the axes `0..out.len()` ordered from the largest `|stride|` to the
/// smallest, ties broken as cuda.core's `stride_order` does (`out` is as long as the rank).
pub(crate) const fn stride_order(p: Parts<'_>, out: &mut [usize]) {
    let n = out.len();
    let mut i = 0;
    while i < n {
        set(out, i, i);
        i = i.saturating_add(1);
    }
    // Insertion sort: stable, allocation-free, O(n²) for the small ranks layouts have.
    i = 1;
    #[expect(
        clippy::arithmetic_side_effects,
        reason = "`1 <= j <= i < n` inside, so `j - 1` cannot wrap and `i + 1` cannot overflow."
    )]
    while i < n {
        let mut j = i;
        while j > 0 {
            let (Some(a), Some(b)) = (get(out, j), get(out, j - 1)) else {
                break;
            };
            if !before(p, a, b) {
                break;
            }
            swap(out, j, j - 1);
            j -= 1;
        }
        i += 1;
    }
}

/// Writes into `rank` the position of each axis counted from the smallest `|stride|`
/// (ArrayInterface's stride rank, 0-based): the inverse of [`stride_order`], reversed.
/// `order` is scratch; both are as long as the rank of `p`.
pub(crate) const fn stride_rank(p: Parts<'_>, order: &mut [usize], rank: &mut [usize]) {
    stride_order(p, order);
    let n = order.len();
    let mut j = 0;
    while let Some(axis) = get(order, j) {
        #[expect(
            clippy::arithmetic_side_effects,
            reason = "`j < n`, so `n - 1 - j` cannot wrap."
        )]
        set(rank, axis, n - 1 - j);
        j = j.saturating_add(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order<const N: usize>(shape: [usize; N], strides: [isize; N]) -> [usize; N] {
        let mut out = [0; N];
        stride_order(Parts::from_arrays(&shape, &strides, 0, 1), &mut out);
        out
    }

    #[test]
    fn stride_order_matches_cuda_core_examples() {
        assert_eq!(order([5, 3, 7], [21, 7, 1]), [0, 1, 2]);
        assert_eq!(order([5, 3, 7], [1, 5, 15]), [2, 1, 0]);
        assert_eq!(order([5, 3, 7], [3, 1, 15]), [2, 0, 1]);
    }

    #[test]
    fn stride_order_ties_prefer_larger_extent_then_lower_axis() {
        assert_eq!(order([2, 5, 5], [-4, 4, 4]), [1, 2, 0]);
        assert_eq!(order([2, 5], [0, 0]), [1, 0]);
        assert_eq!(order([2, 3, 4], [0, 0, 0]), [2, 1, 0]);
        assert_eq!(order([2, 0, 3], [0, 0, 0]), [2, 0, 1]);
        assert_eq!(order([], []), []);
    }
}
