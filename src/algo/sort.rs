//! Stride order: a `const` insertion sort of axes by stride, with cuda.core's tie rules.

/// Whether axis `i` sorts before axis `j`: cuda.core's key `(-|stride|, -extent, axis)`,
/// i.e. larger `|stride|` first, then larger extent, then the smaller axis number. Zero
/// strides are not special: `(2,3,4):(0,0,0)` orders `[2, 1, 0]`.
const fn before(shape: &[usize], strides: &[isize], i: usize, j: usize) -> bool {
    let si = strides[i].unsigned_abs();
    let sj = strides[j].unsigned_abs();
    if si != sj {
        return si > sj;
    }
    if shape[i] != shape[j] {
        return shape[i] > shape[j];
    }
    i < j
}

/// Writes into `out` (same length as `shape`) the axes ordered from the largest `|stride|`
/// to the smallest, ties broken as cuda.core's `stride_order` does.
pub(crate) const fn stride_order(shape: &[usize], strides: &[isize], out: &mut [usize]) {
    let n = out.len();
    let mut i = 0;
    while i < n {
        out[i] = i;
        i += 1;
    }
    // Insertion sort: stable, allocation-free, O(n²) for the small ranks layouts have.
    i = 1;
    while i < n {
        let mut j = i;
        while j > 0 && before(shape, strides, out[j], out[j - 1]) {
            let t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
            j -= 1;
        }
        i += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order<const N: usize>(shape: [usize; N], strides: [isize; N]) -> [usize; N] {
        let mut out = [0; N];
        stride_order(&shape, &strides, &mut out);
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
