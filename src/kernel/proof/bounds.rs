//! Bounds: the one rule for whether an operand's offsets lie in its slice. A plan's nests
//! measure each operand's lowest and highest offset (`plan/measure.rs`); here they are
//! joined over the nests ([`spans`]) and checked against the slices' lengths ([`inside`],
//! with the shortest slice that holds them, [`needed_len`]), for every witness that
//! vouches for bounds and for the errors that name them.

use crate::algo::access::{get, set};
use crate::kernel::plan::Plan;
use crate::{LayoutError, Operand};

/// Each operand's lowest and highest offset over every nest of `plan` (`None` when the plan
/// visits nothing), so an error names the whole layout's lowest offset or needed length,
/// not one piece's.
pub(crate) const fn spans<const K: usize, const M: usize, const L: usize>(
    plan: &Plan<K, M, L>,
) -> Option<[(isize, isize); K]> {
    let [first, rest @ ..] = plan.nests() else {
        return None;
    };
    let mut spans = first.bounds();
    let mut rest = rest;
    while let [nest, tail @ ..] = rest {
        rest = tail;
        let bounds = nest.bounds();
        let mut k = 0;
        while k < K {
            let (Some((lo, hi)), Some((slo, shi))) = (get(&bounds, k), get(&spans, k)) else {
                break;
            };
            let lo = if lo < slo { lo } else { slo };
            let hi = if hi > shi { hi } else { shi };
            set(&mut spans, k, (lo, hi));
            k = k.saturating_add(1);
        }
    }
    Some(spans)
}

/// Checks that each operand's offsets `bounds[k]` lie in `0..lens[k]`; `names[k]` is what an
/// error calls operand `k`.
pub(super) fn within<const K: usize>(
    bounds: &[(isize, isize); K],
    lens: &[usize; K],
    names: &[Operand; K],
) -> Result<(), LayoutError> {
    for ((&(lo, hi), &len), &operand) in bounds.iter().zip(lens).zip(names) {
        inside(operand, lo, hi, len)?;
    }
    Ok(())
}

/// The shortest slice that holds the offsets `lo..=hi` of `operand`: `hi + 1` elements, or
/// [`LayoutError::OffsetBelowSlice`] when `lo < 0` (no slice holds it).
#[inline]
pub(crate) const fn needed_len(
    operand: Operand,
    lo: isize,
    hi: isize,
) -> Result<usize, LayoutError> {
    if lo < 0 {
        return Err(LayoutError::OffsetBelowSlice {
            operand,
            lowest: lo,
        });
    }
    // `0 <= lo <= hi <= isize::MAX`, so `hi + 1` does not saturate.
    Ok(hi.unsigned_abs().saturating_add(1))
}

/// Checks that the offsets `lo..=hi` of `operand` lie in a slice of `len` elements.
#[inline]
pub(crate) const fn inside(
    operand: Operand,
    lo: isize,
    hi: isize,
    len: usize,
) -> Result<(), LayoutError> {
    match needed_len(operand, lo, hi) {
        Ok(needed) if needed > len => Err(LayoutError::OffsetOutsideSlice {
            operand,
            needed,
            given: len,
        }),
        Ok(_) => Ok(()),
        Err(e) => Err(e),
    }
}

/// The error for operand `k`, whose slice has `given[k]` elements where a proof was made for
/// `needed[k]` (a kernel handed other slices than the ones checked).
#[cold]
pub(crate) fn outside<const K: usize>(
    names: &[Operand; K],
    needed: &[usize; K],
    given: &[usize; K],
    k: usize,
) -> LayoutError {
    LayoutError::OffsetOutsideSlice {
        operand: names.get(k).copied().unwrap_or(Operand::Destination),
        needed: needed.get(k).copied().unwrap_or(0),
        given: given.get(k).copied().unwrap_or(0),
    }
}
