//! Contiguity and the flatten mask, on slices, with cuda.core's semantics.
//!
//! Shared rules (cuda.core's `_base_is_dense` and its C-order flatten):
//! - a layout with an extent-0 axis (no element) is contiguous in every order, whatever its
//!   strides, and every axis but axis 0 of it merges with its left neighbour;
//! - an extent-1 axis is skipped: its stride is never read;
//! - a stride that must equal an expected value is compared exactly, so a zero stride on an
//!   axis of extent > 1 is never contiguous and a negative one never is either;
//! - the offset is not read (cuda.core's contiguity ignores the slice offset).

use super::checked::checked_stride_mul;
use super::flatten::{flatten, range_mask};
use super::parts::Parts;

/// Whether the offsets in C index order (`fortran == false`: last axis fastest) or F index
/// order (`fortran == true`: first axis fastest) are `offset, offset + 1, ..`.
///
/// Walks from the fastest axis, skipping extent-1 axes: each stride must equal the product of
/// the extents walked so far. `true` for rank 0 and for any layout with an extent-0 axis.
pub(crate) const fn is_contiguous_in(p: Parts<'_>, fortran: bool) -> bool {
    if p.has_zero_extent() {
        return true;
    }
    let n = p.rank();
    let mut expected: Option<isize> = Some(1);
    let mut j = 0;
    while j < n {
        #[expect(
            clippy::arithmetic_side_effects,
            reason = "`j < n`, so `n - 1 - j` cannot wrap."
        )]
        let (extent, stride) = p.axis(if fortran { j } else { n - 1 - j });
        if extent != 1 {
            match expected {
                Some(e) if stride == e => expected = checked_stride_mul(e, extent),
                _ => return false,
            }
        }
        j = j.saturating_add(1);
    }
    true
}

/// Whether some permutation of the axes is C-contiguous (cuda.core's `is_contiguous_any`).
///
/// Builds the chain from stride 1 upward: at each step some axis of extent > 1 must have
/// exactly the expected stride. The expected stride strictly grows (extents at least 2,
/// expected at least 1), so each step picks a new axis; after as many steps as there are such axes, all of
/// them are used once. O(n²), no scratch.
pub(crate) const fn is_contiguous_any(p: Parts<'_>) -> bool {
    if p.has_zero_extent() {
        return true;
    }
    let n = p.rank();
    let mut wanted = 0usize;
    let mut rest = p.shape();
    while let [e, tail @ ..] = rest {
        if *e != 1 {
            wanted = wanted.saturating_add(1);
        }
        rest = tail;
    }
    let mut expected: isize = 1;
    let mut step = 0;
    while step < wanted {
        // The axis of extent > 1 whose stride is the next expected one.
        let mut found = None;
        let mut i = 0;
        while i < n {
            let (extent, stride) = p.axis(i);
            if extent != 1 && stride == expected {
                found = Some(extent);
                break;
            }
            i = i.saturating_add(1);
        }
        let Some(extent) = found else {
            return false;
        };
        step = step.saturating_add(1);
        match checked_stride_mul(expected, extent) {
            Some(e) => expected = e,
            // Overflow: fine only if this was the last axis of the chain.
            None => return step == wanted,
        }
    }
    true
}

/// cuda.core's flatten mask in C order: bit `j` set iff axis `j` merges into axis `j - 1`.
///
/// Greedy from axis 0: a group of adjacent axes grows while its offsets in C index order stay
/// an arithmetic progression. Concretely, axis `j` merges when the layout has no element, when
/// its extent is 1, when the group so far has only extent-1 axes, or when
/// `strides[j] * shape[j]` equals the stride of the group's last axis of extent > 1. Bit 0 is
/// never set; axes from 64 on cannot be named by the mask and are left out.
pub(crate) const fn flattened_axis_mask(p: Parts<'_>) -> u64 {
    // One merge rule for the crate: `flatten` with every bit allowed, outputs not written.
    match flatten(p, range_mask(0, p.rank()), &mut [], &mut [], &mut []) {
        Ok((_, merged)) => merged.bits(),
        // `flatten` fails only on a mask bit at or above the rank (none here) or a volume
        // overflow, which the layout invariants rule out.
        Err(_) => 0,
    }
}

/// The last axis with extent > 1 and stride 1 (ArrayInterface's contiguous axis), if any.
pub(crate) const fn contiguous_axis(p: Parts<'_>) -> Option<usize> {
    let mut i = p.rank();
    while let Some(a) = i.checked_sub(1) {
        let (e, s) = p.axis(a);
        if e > 1 && s == 1 {
            return Some(a);
        }
        i = a;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::algo::parts::p;

    #[test]
    fn contiguity_skips_extent_one_axes_and_rejects_zero_strides() {
        assert!(is_contiguous_in(p(&[2, 1, 3], &[3, 99, 1]), false));
        assert!(!is_contiguous_in(p(&[2, 3], &[0, 1]), false));
        assert!(is_contiguous_in(p(&[2, 3], &[1, 2]), true));
        assert!(is_contiguous_in(p(&[0, 3], &[5, 5]), false));
        assert!(is_contiguous_in(p(&[], &[]), true));
        assert!(!is_contiguous_in(p(&[2], &[-1]), false));
    }

    #[test]
    fn contiguous_any_finds_the_permutation() {
        assert!(is_contiguous_any(p(&[7, 5, 3], &[1, 21, 7])));
        assert!(is_contiguous_any(p(&[5, 3, 6], &[18, 6, 1])));
        assert!(!is_contiguous_any(p(&[5, 3, 6], &[18, 6, 2])));
        assert!(!is_contiguous_any(p(&[2, 2], &[1, 1])));
        assert!(!is_contiguous_any(p(&[2, 3], &[3, 2])));
        assert!(is_contiguous_any(p(&[1, 1], &[0, -4])));
    }

    #[test]
    fn flatten_mask_follows_cuda_core() {
        assert_eq!(flattened_axis_mask(p(&[4, 5, 3], &[15, 3, 1])), 0b110);
        assert_eq!(flattened_axis_mask(p(&[4, 5, 3], &[1, 12, 4])), 0b100);
        assert_eq!(flattened_axis_mask(p(&[2, 0, 3], &[1, 1, 1])), 0b110);
        assert_eq!(flattened_axis_mask(p(&[1, 3], &[7, 5])), 0b10);
        assert_eq!(flattened_axis_mask(p(&[2, 3], &[0, 0])), 0b10);
        assert_eq!(flattened_axis_mask(p(&[5], &[1])), 0);
        assert_eq!(flattened_axis_mask(p(&[], &[])), 0);
    }
}
