//! Bounds: each operand's lowest and highest offset over a nest's loops, the one measure the
//! validation checks against the slices. One step, [`widen_by`] (an operand's bounds widened
//! by a loop), under both forms: [`measure`] for any operands and loops, and [`measure2`],
//! the same written out for two operands and two loops (the run-time copy's two-loop
//! planner, where the loops over operands would cost a Cortex-M4 copy instructions).

use super::Loop;
use super::operands::{moved, stride_or_0};
use crate::LayoutError;
use crate::algo::access::get;

/// Each operand's smallest and largest offset over `loops` into `bounds`: the start in
/// `offsets` plus the negative and the positive steps of every loop.
///
/// # Errors
///
/// [`LayoutError::OffsetOverflow`] if a step or a sum overflows `isize` (never for operands
/// that keep the invariants of [`Layout`](crate::Layout)).
pub(crate) const fn measure<const K: usize>(
    loops: &[Loop<K>],
    offsets: &[isize; K],
    bounds: &mut [(isize, isize); K],
) -> Result<(), LayoutError> {
    // Operand by operand, so that the two running sums stay in registers.
    let (mut bs, mut os): (&mut [(isize, isize)], &[isize]) = (bounds, offsets);
    let mut o = 0usize;
    while let ([b, bt @ ..], [start, ot @ ..]) = (bs, os) {
        let (mut lo, mut hi) = (*start, *start);
        let mut rest: &[Loop<K>] = loops;
        while let [l, tail @ ..] = rest {
            rest = tail;
            if widen_by(&mut lo, &mut hi, stride_or_0(get(&l.strides, o)), l.extent).is_none() {
                return Err(LayoutError::OffsetOverflow);
            }
        }
        *b = (lo, hi);
        (bs, os, o) = (bt, ot, o.saturating_add(1));
    }
    Ok(())
}

/// [`measure`] of a nest of `depth` loops `outer`, `inner` (a loop past the depth moves
/// nothing) for two operands, written out: the run-time copy's two-loop planner
/// (`block.rs`) and its specialisations; `None` on an overflow of `isize`.
#[expect(
    clippy::inline_always,
    reason = "the run-time copy's nest stays in registers (its planner is inlined on a \
              Cortex-M)"
)]
#[inline(always)]
pub(super) fn measure2(
    offsets: [isize; 2],
    outer: &Loop<2>,
    inner: &Loop<2>,
    depth: usize,
) -> Option<[(isize, isize); 2]> {
    let [od, os] = offsets;
    let mut bounds = [(od, od), (os, os)];
    if depth >= 1 {
        widen2(&mut bounds, outer)?;
    }
    if depth == 2 {
        widen2(&mut bounds, inner)?;
    }
    Some(bounds)
}

/// Each of two operands' bounds widened by `l` ([`widen_by`] written out for two operands).
#[expect(
    clippy::inline_always,
    reason = "called twice per run-time copy: as a call it cost a Cortex-M4 copy 24 more \
              instructions (for 146 bytes of flash)"
)]
#[inline(always)]
fn widen2(bounds: &mut [(isize, isize); 2], l: &Loop<2>) -> Option<()> {
    let [(lo0, hi0), (lo1, hi1)] = bounds;
    let [s0, s1] = l.strides;
    widen_by(lo0, hi0, s0, l.extent)?;
    widen_by(lo1, hi1, s1, l.extent)
}

/// One operand's `(lo, hi)` bounds widened by a loop of `extent` steps of `stride`: what one
/// step short of its extent moves the offset, added to `lo` when negative, else to `hi` (a
/// branch per end, not a pointer chosen between them, so the bounds stay in registers);
/// `None` on an overflow of `isize`. The one step of the measure.
const fn widen_by(lo: &mut isize, hi: &mut isize, stride: isize, extent: usize) -> Option<()> {
    let Some(d) = moved(stride, extent.saturating_sub(1)) else {
        return None;
    };
    if d < 0 {
        match lo.checked_add(d) {
            Some(v) => *lo = v,
            None => return None,
        }
    } else {
        match hi.checked_add(d) {
            Some(v) => *hi = v,
            None => return None,
        }
    }
    Some(())
}
