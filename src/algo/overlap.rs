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

use super::parts::Parts;
use super::unique::{Budget, Problem, Side, Wide, has_multiple, search, sort_active, wide};

/// Whether some element of `a` shares a byte with some element of `b` (same buffer);
/// `None` when the search needed more than `budget` steps.
///
/// `order_a` and `order_b` are scratch as long as the two ranks. `false` when either layout
/// has no element.
#[expect(
    clippy::arithmetic_side_effects,
    reason = "Bounds of `unique`'s module doc: every `i128` value below is < 2^127 in magnitude."
)]
pub(crate) const fn overlaps(
    a: Parts<'_>,
    b: Parts<'_>,
    order_a: &mut [usize],
    order_b: &mut [usize],
    budget: Budget,
) -> Option<bool> {
    if a.has_zero_extent() || b.has_zero_extent() {
        return Some(false);
    }
    // Itemsizes are powers of two, so the smaller divides the larger; both are >= 1 and fit
    // `isize` (invariants 1 and 3), so the `i128` values below are exact.
    let unit = if a.itemsize() < b.itemsize() {
        a.itemsize()
    } else {
        b.itemsize()
    };
    let (ra, rb) = match (
        a.itemsize().checked_div(unit),
        b.itemsize().checked_div(unit),
    ) {
        (Some(x), Some(y)) => (wide(x), wide(y)),
        _ => (1, 1),
    };
    let la = sort_active(a, order_a);
    let lb = sort_active(b, order_b);
    let sa = Side {
        p: a,
        order: order_a,
        len: la,
        scale: ra,
        negate: false,
        symmetric: false,
    };
    let sb = Side {
        p: b,
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
    let t = b.offset() as Wide * rb - a.offset() as Wide * ra;
    // Every value of the sum is a multiple of the gcd of all coefficients: one O(N + M)
    // test settles parity-like cases (even against odd elements) before any search.
    let g = sb.gcd_with(sa.gcd_with(0));
    if g > 0 && !has_multiple(g, t - w_hi, t - w_lo) {
        return Some(false);
    }
    let prob = Problem {
        a: sa,
        b: sb,
        w_lo,
        w_hi,
    };
    let mut budget = budget;
    search(
        &prob,
        la,
        lb,
        t,
        amin + bmin + w_lo,
        amax + bmax + w_hi,
        false,
        &mut budget,
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
        Parts::new(shape, strides, offset, itemsize).unwrap()
    }

    fn ov(a: Parts<'_>, b: Parts<'_>) -> bool {
        let mut oa = [0; 8];
        let mut ob = [0; 8];
        overlaps(a, b, &mut oa[..a.rank()], &mut ob[..b.rank()], Budget::MAX).unwrap()
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
