//! Bounds: each operand's lowest and highest offset over a nest's loops, the one measure the
//! validation checks against the slices.

use super::Loop;
use super::operands::{add, mul, stride_or_0};
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
            match mul(stride_or_0(get(&l.strides, o)), l.extent.saturating_sub(1)) {
                Ok(d) if d < 0 => match add(lo, d) {
                    Ok(v) => lo = v,
                    Err(e) => return Err(e),
                },
                Ok(d) => match add(hi, d) {
                    Ok(v) => hi = v,
                    Err(e) => return Err(e),
                },
                Err(e) => return Err(e),
            }
        }
        *b = (lo, hi);
        (bs, os, o) = (bt, ot, o.saturating_add(1));
    }
    Ok(())
}
