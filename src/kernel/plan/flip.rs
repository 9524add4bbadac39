//! Flip: a loop that runs backwards (or stands still) in every operand is turned round, its
//! strides negated and each operand's offset moved to its last step; and a block (the two
//! innermost loops) whose destination steps one element backwards in one loop while a source
//! steps one forwards in the other has that loop turned, so the block is a transpose's
//! ([`face`]). The one place these rules are written: the nest builder, the peeler and the
//! run-time copy's two-loop planner call them (the last through [`turn2`] and [`backwards2`],
//! the turn and its test written out for two operands on the one step [`last_step`]).

use super::Loop;
use super::operands::moved;
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

/// Turns one loop of the block `outer × inner` (a nest's two innermost loops, after tiling)
/// round where the destination (operand 0) steps one element backwards in it and forwards in
/// neither loop, while a source steps one element forwards in the other loop: the block then
/// has the destination's consecutive elements forwards along one loop and a source's along the
/// other, a transpose's or a channel block's shape, which the vector kernels take (a transpose
/// into rows written backwards, `(832,690):(1,832) -> (690,-1)` of `f64`, ran element by
/// element at 0.5-0.8x the plain loop, and at 2-3x turned). The mirror too: where the
/// destination steps one element forwards in one loop while a source steps one backwards in
/// the other (and no source forwards in either), that loop is turned, so the source steps one
/// forwards (a transpose from columns read backwards, `u32` `(212,293):(-1,-212) -> (293,1)`:
/// 21 -> 6.5 us, the plain loop 33). Then the innermost loop is turned where the destination
/// steps two elements or more backwards in it and no source one forwards ([`forwards`]), so
/// rows write forwards. Other loops keep their direction: turned, an element loop whose
/// source ran forwards reads it backwards, and ran up to 1.5x slower so.
///
/// # Postcondition
///
/// If a source steps 1 in one loop and the destination -1 in the other, with no destination
/// step of 1, then afterwards the destination steps 1 where it stepped -1 (the source's step
/// of 1 unchanged). If the destination steps 1 in one loop and a source -1 in the other, with
/// no source step of 1, then afterwards that source steps 1 where it stepped -1 (the
/// destination's step of 1 unchanged). Afterwards the destination steps -2 or less in `inner`
/// only where a source steps 1 in it.
///
/// # Errors
///
/// [`LayoutError::OffsetOverflow`] if a step, an offset or a negation overflows `isize`.
pub(super) const fn face<const K: usize>(
    outer: &mut Loop<K>,
    inner: &mut Loop<K>,
    offsets: &mut [isize; K],
) -> Result<(), LayoutError> {
    if let Err(e) = unit_face(outer, inner, offsets) {
        return Err(e);
    }
    forwards(inner, offsets)
}

/// [`face`]'s rules for unit steps (the transposes' and channel blocks' shapes).
const fn unit_face<const K: usize>(
    outer: &mut Loop<K>,
    inner: &mut Loop<K>,
    offsets: &mut [isize; K],
) -> Result<(), LayoutError> {
    let (Some(&o), Some(&i)) = (outer.strides.first(), inner.strides.first()) else {
        return Ok(());
    };
    if o == 1 || i == 1 {
        // The mirror: the destination forwards along one loop, a source one element
        // backwards along the other (forwards in neither): that loop turned round.
        if source_unit(&outer.strides) || source_unit(&inner.strides) {
            return Ok(());
        }
        return if i == 1 && source_step(&outer.strides, -1) {
            turn(outer, offsets)
        } else if o == 1 && source_step(&inner.strides, -1) {
            turn(inner, offsets)
        } else {
            Ok(())
        };
    }
    if i == -1 && source_unit(&outer.strides) {
        turn(inner, offsets)
    } else if o == -1 && source_unit(&inner.strides) {
        turn(outer, offsets)
    } else {
        Ok(())
    }
}

/// Turns the innermost loop `inner` round where the destination steps two elements or more
/// backwards in it and no source steps one forwards: each row of the block then writes the
/// destination forwards, as NumPy's `copyto` does (it turns every axis its destination runs
/// backwards). Written backwards, a row of few elements in each of the destination's lines
/// ran the caches' and the prefetchers' worst way: seed 7's case 454 (`f64` rows of 29, the
/// destination 2 elements apart backwards, the source 36,265 forwards) 315-435 us against
/// 204-216 us turned, NumPy 242-341. A source stepping one forwards keeps its direction (its
/// rows are the vector kernels' runs).
const fn forwards<const K: usize>(
    inner: &mut Loop<K>,
    offsets: &mut [isize; K],
) -> Result<(), LayoutError> {
    match inner.strides.first() {
        Some(&d) if d <= -2 && !source_unit(&inner.strides) => turn(inner, offsets),
        _ => Ok(()),
    }
}

/// Whether some source (an operand past the first) has stride 1.
const fn source_unit(strides: &[isize]) -> bool {
    source_step(strides, 1)
}

/// Whether some source (an operand past the first) has stride `step`.
const fn source_step(strides: &[isize], step: isize) -> bool {
    let [_, sources @ ..] = strides else {
        return false;
    };
    let mut rest: &[isize] = sources;
    while let [s, tail @ ..] = rest {
        if *s == step {
            return true;
        }
        rest = tail;
    }
    false
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
        match turned(*s, *off, steps) {
            Some((o, n)) => (*off, *s) = (o, n),
            None => return Err(LayoutError::OffsetOverflow),
        }
        (ss, os) = (st, ot);
    }
    Ok(())
}

/// One operand of a loop of `steps + 1` steps turned round: its offset moved to the last
/// step and its stride negated, `(offset, stride)`; `None` if either overflows `isize`.
const fn turned(stride: isize, offset: isize, steps: usize) -> Option<(isize, isize)> {
    let Some(o) = last_step(offset, stride, steps) else {
        return None;
    };
    match stride.checked_neg() {
        Some(n) => Some((o, n)),
        None => None,
    }
}

/// The offset `steps` steps of `stride` past `offset`: where a loop turned round starts.
const fn last_step(offset: isize, stride: isize, steps: usize) -> Option<isize> {
    match moved(stride, steps) {
        Some(d) => offset.checked_add(d),
        None => None,
    }
}

/// [`turn`] for two operands, as an `Option` (the run-time copy's two-loop planner,
/// `block.rs`, which reports `None` as an overflow).
#[inline(never)]
pub(super) fn turn2(l: &mut Loop<2>, offsets: &mut [isize; 2]) -> Option<()> {
    let steps = l.extent.saturating_sub(1);
    // [`turned`] written out: its pair comes back through memory on a Cortex-M.
    for (s, off) in l.strides.iter_mut().zip(offsets.iter_mut()) {
        *off = last_step(*off, *s, steps)?;
        *s = s.checked_neg()?;
    }
    Some(())
}

/// Whether `l` runs backwards or stands still in both of two operands, so that [`turn2`]
/// turns it round ([`flip`]'s test, [`all_nonpositive_some_negative`], for two operands;
/// most loops run forwards). It also answers `true` for a loop that stands still in both,
/// which `flip` leaves alone: turning it changes nothing, and one comparison fewer is cheaper
/// than the rare call.
#[expect(
    clippy::inline_always,
    reason = "as a call it took the loop by address, out of registers: 7 more instructions \
              per Cortex-M4 copy"
)]
#[inline(always)]
pub(super) fn backwards2(l: &Loop<2>) -> bool {
    let [s0, s1] = l.strides;
    s0 <= 0 && s1 <= 0
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
