//! Flip: a loop that runs backwards (or stands still) in every operand is turned round, its
//! strides negated and each operand's offset moved to its last step. The one place this rule
//! is written: the nest builder, the peeler and the run-time copy's two-loop planner call it.

use super::Loop;
use super::operands::{add, mul};
use crate::LayoutError;

/// Flips `l` when it runs backwards (or stands still) in every operand: each stride negated
/// and each operand's offset moved to the loop's last step ([`Builder::finish`](super::builder::Builder::finish)'s first pass).
///
/// # Errors
///
/// [`LayoutError::OffsetOverflow`] if a step, an offset or a negation overflows `isize`.
pub(super) const fn flip<const K: usize>(
    l: &mut Loop<K>,
    offsets: &mut [isize; K],
) -> Result<(), LayoutError> {
    if !all_nonpositive_some_negative(&l.strides) {
        return Ok(());
    }
    turn(l, offsets)
}

/// Turns `l` round, whatever its strides' signs: each stride negated and each operand's
/// offset moved to the loop's last step, so the loop visits the same elements in the other
/// order. [`flip`] where every operand runs backwards, and the merge through a turn
/// ([`merge_turned`](super::merge::merge_turned)).
///
/// # Errors
///
/// [`LayoutError::OffsetOverflow`] if a step, an offset or a negation overflows `isize`.
pub(super) const fn turn<const K: usize>(
    l: &mut Loop<K>,
    offsets: &mut [isize; K],
) -> Result<(), LayoutError> {
    let steps = l.extent.saturating_sub(1);
    let (mut ss, mut os): (&mut [isize], &mut [isize]) = (&mut l.strides, offsets);
    while let ([s, st @ ..], [off, ot @ ..]) = (ss, os) {
        let moved = match mul(*s, steps) {
            Ok(d) => add(*off, d),
            Err(e) => Err(e),
        };
        match (moved, s.checked_neg()) {
            (Ok(v), Some(neg)) => (*off, *s) = (v, neg),
            (Err(e), _) => return Err(e),
            (_, None) => return Err(LayoutError::OffsetOverflow),
        }
        (ss, os) = (st, ot);
    }
    Ok(())
}

/// Whether every stride is `<= 0` and one is `< 0`: the loop runs backwards in every operand.
pub(super) const fn all_nonpositive_some_negative(strides: &[isize]) -> bool {
    let mut any = false;
    let mut rest = strides;
    while let [s, tail @ ..] = rest {
        if *s > 0 {
            return false;
        }
        any |= *s < 0;
        rest = tail;
    }
    any
}
