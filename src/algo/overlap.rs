//! Whether two layouts over the same buffer share a byte, exactly, with the search of
//! [`super::unique`].
//!
//! Element `i` of `a` covers bytes `[oa(i) * ia, oa(i) * ia + ia)` and element `j` of `b`
//! covers `[ob(j) * ib, ob(j) * ib + ib)`. Both starts and both lengths are multiples of
//! `g = min(ia, ib)` (itemsizes are powers of two), so counting in units of `g` bytes
//! (`ra = ia / g`, `rb = ib / g`, one of them 1) the two intervals meet iff
//! `oa(i) ra + u = ob(j) rb + v` for some `u` in `[0, ra)` and `v` in `[0, rb)`, that is
//!
//! ```text
//! Σ i_k (sa_k ra) - Σ j_k (sb_k rb) + w = ob rb - oa ra,    w = u - v in [1 - rb, ra - 1]
//! ```
//!
//! which is a [`search`] problem with `a`'s axes, `b`'s axes negated, and the slack `w`.

use super::contiguity::has_zero_extent;
use super::unique::{Problem, Side, has_multiple, search, sort_active};

/// One layout as slices: shape, strides, offset (elements) and itemsize (bytes).
#[derive(Clone, Copy)]
pub(crate) struct Parts<'a> {
    pub(crate) shape: &'a [usize],
    pub(crate) strides: &'a [isize],
    pub(crate) offset: isize,
    pub(crate) itemsize: usize,
}

/// Whether some element of `a` shares a byte with some element of `b` (same buffer).
///
/// `order_a` and `order_b` are scratch as long as the two shapes. `false` when either layout
/// has no element.
pub(crate) const fn overlaps(
    a: Parts<'_>,
    b: Parts<'_>,
    order_a: &mut [usize],
    order_b: &mut [usize],
) -> bool {
    if has_zero_extent(a.shape) || has_zero_extent(b.shape) {
        return false;
    }
    // Itemsizes are powers of two, so the smaller divides the larger; both are >= 1 and fit
    // `isize` (invariants 1 and 3), so the `i128` values below are exact.
    let unit = if a.itemsize < b.itemsize {
        a.itemsize
    } else {
        b.itemsize
    };
    let ra = (a.itemsize / unit) as i128;
    let rb = (b.itemsize / unit) as i128;
    let la = sort_active(a.shape, a.strides, order_a);
    let lb = sort_active(b.shape, b.strides, order_b);
    let sa = Side {
        shape: a.shape,
        strides: a.strides,
        order: order_a,
        len: la,
        scale: ra,
        negate: false,
        symmetric: false,
    };
    let sb = Side {
        shape: b.shape,
        strides: b.strides,
        order: order_b,
        len: lb,
        scale: rb,
        negate: true,
        symmetric: false,
    };
    let (w_lo, w_hi) = (1 - rb, ra - 1);
    let (amin, amax) = sa.range();
    let (bmin, bmax) = sb.range();
    // Offsets times `ra`/`rb` are offsets in units of `unit` bytes: they fit `isize` (invariant 3).
    let t = b.offset as i128 * rb - a.offset as i128 * ra;
    // Every value of the sum is a multiple of the gcd of all coefficients: one O(N + M)
    // test settles parity-like cases (even against odd elements) before any search.
    let g = sb.gcd_with(sa.gcd_with(0));
    if g > 0 && !has_multiple(g, t - w_hi, t - w_lo) {
        return false;
    }
    let prob = Problem {
        a: sa,
        b: sb,
        w_lo,
        w_hi,
    };
    search(
        &prob,
        la,
        lb,
        t,
        amin + bmin + w_lo,
        amax + bmax + w_hi,
        false,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts<'a>(
        shape: &'a [usize],
        strides: &'a [isize],
        offset: isize,
        itemsize: usize,
    ) -> Parts<'a> {
        Parts {
            shape,
            strides,
            offset,
            itemsize,
        }
    }

    fn ov(a: Parts<'_>, b: Parts<'_>) -> bool {
        let mut oa = [0; 8];
        let mut ob = [0; 8];
        overlaps(a, b, &mut oa[..a.shape.len()], &mut ob[..b.shape.len()])
    }

    #[test]
    fn interleaved_halves_do_not_overlap() {
        // Even and odd elements of one buffer.
        assert!(!ov(parts(&[4], &[2], 0, 4), parts(&[4], &[2], 1, 4)));
        assert!(ov(parts(&[4], &[2], 0, 4), parts(&[4], &[2], 2, 4)));
    }

    #[test]
    fn different_itemsizes_compare_bytes() {
        // Element 1 of an 8-byte layout covers bytes 8..16; a 4-byte element at offset 3
        // covers 12..16.
        assert!(ov(parts(&[2], &[1], 0, 8), parts(&[1], &[1], 3, 4)));
        assert!(!ov(parts(&[2], &[1], 0, 8), parts(&[1], &[1], 4, 4)));
        assert!(ov(parts(&[], &[], 1, 1), parts(&[], &[], 0, 2)));
        assert!(!ov(parts(&[], &[], 2, 1), parts(&[], &[], 0, 2)));
    }

    #[test]
    fn empty_layouts_overlap_nothing() {
        assert!(!ov(parts(&[0], &[1], 0, 1), parts(&[3], &[1], 0, 1)));
    }
}
