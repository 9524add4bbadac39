//! Merge: two loops as one where every operand allows it (the outer's stride is the inner's
//! times its extent in each, or minus that in each once one of the two is turned round,
//! [`merge_turned`]), the push-and-merge step of planning, an axis at a time, and the merge
//! of loops apart in the loop order into a kernel's block ([`merge_apart`]).
//! The one place this rule is written ([`merges_in`], an operand's test): the nest builder and
//! the peeler call [`merge`], the run-time copy's two-loop planner [`merge2`], the same test
//! written out for two operands.

use super::Loop;
use super::flip::turn;
use super::operands::{moved, mul};
use super::order::{sink, unit_in_all};
use crate::LayoutError;
use crate::algo::access::{get, set};

/// Step 2 of planning, one axis at a time: `loops[..depth]` with an axis of `extent` and
/// `strides` appended inside the others, dropped at extent 1 and merged into the previous
/// loop when it merges in every operand ([`merge`]). Returns the new depth, or `None` when
/// the axis needs a loop and `loops` has no room for it. The one place this rule runs:
/// [`Builder::push`](super::builder::Builder::push), and the peeler of loops past a nest's (`plan/peel.rs`), whose
/// `loops` have room for every axis.
#[expect(
    clippy::inline_always,
    reason = "a nest's planning is the run-time kernels' per-call cost: inlined into `push`, \
              it compiles as it did before it was its own function"
)]
#[inline(always)]
pub(super) const fn append<const K: usize>(
    loops: &mut [Loop<K>],
    depth: usize,
    extent: usize,
    strides: [isize; K],
) -> Option<usize> {
    if extent == 1 {
        return Some(depth);
    }
    let inner = Loop { extent, strides };
    if let Some(p) = depth.checked_sub(1) {
        if let Some(prev) = get(loops, p) {
            if let Some(merged) = merge(&prev, &inner) {
                set(loops, p, merged);
                return Some(depth);
            }
        }
    }
    if depth >= loops.len() {
        return None;
    }
    set(loops, depth, inner);
    Some(depth.saturating_add(1))
}

/// `outer` and `inner` as one loop, when `outer`'s stride is `inner`'s times its extent in
/// every operand ([`merges_in`]).
pub(super) const fn merge<const K: usize>(outer: &Loop<K>, inner: &Loop<K>) -> Option<Loop<K>> {
    let (mut os, mut is): (&[isize], &[isize]) = (&outer.strides, &inner.strides);
    while let ([o, ot @ ..], [i, it @ ..]) = (os, is) {
        if !merges_in(*o, *i, inner.extent) {
            return None;
        }
        (os, is) = (ot, it);
    }
    joined(outer, inner)
}

/// Loops that merge in every operand ([`merge`]) but lie apart in the loop order, where the
/// merge lengthens a kernel's block or the loop under one: the inner one and the loop just
/// outside it make a block with a run in every operand ([`unit_in_all`]: a channel block, a
/// transpose), or the inner one is innermost and the loop just outside it makes such a block
/// with the next loop out ([`over_block`]); the outer one, further out, is taken into the
/// inner one, in its place (the merged loop keeps the inner one's strides, and so its weight
/// in the order), the loops between moving out by one. Returns how many loops remain, in
/// `loops[..count]`. Two axes of a permutation stay neighbours in memory in both operands
/// while an axis the destination runs along sorts between them: the power-of-two seed 13's
/// 1049 (`u32`, 8 planar channels of 2 × 4096 pixels interleaved) ran 26.5 us as blocks of
/// 8 × 2 and 5.7 us as one block of 8 × 8192. Under a block, the merged loop is tiled with
/// the block's two: the power-of-two 240's 203 (`u8`, a permutation `[a][m][b] -> [b][m][a]`
/// with `m` split in two around `a`) ran 334 us as transposes of 8 × 16 under 1024 steps and
/// 152 us tiled 16 × 64. Without a kernel's block the longer inner loop only crowds cache
/// sets (seed 11's 45: 16 rows read 2 KiB apart merged into 256, 4.6x slower), so those keep
/// their loops. Hosts only: bare metal keeps the merges of neighbours (no measurement there,
/// and a Cortex-M's general planner would carry the code).
pub(super) const fn merge_apart<const K: usize>(loops: &mut [Loop<K>], count: usize) -> usize {
    if cfg!(target_os = "none") {
        return count;
    }
    let mut count = count;
    let mut at = 2;
    while at < count {
        let (Some(inner), Some(block)) = (get(loops, at), get(loops, at.saturating_sub(1))) else {
            break;
        };
        // The outer loop of a merge, searched from the outermost, not the neighbour (the
        // order's own merge asked it).
        let mut outer_at: usize = 0;
        let mut found = None;
        let own = unit_in_all(&block, &inner);
        while outer_at.saturating_add(1) < at {
            if let Some(outer) = get(loops, outer_at) {
                if let Some(merged) = merge(&outer, &inner) {
                    if own
                        || (at.saturating_add(1) == count
                            && over_block(loops, at, outer_at, &block))
                    {
                        found = Some((outer_at, merged));
                    }
                    break;
                }
            }
            outer_at = outer_at.saturating_add(1);
        }
        match found {
            Some((taken, merged)) => {
                set(loops, at, merged);
                // `loops[taken]` taken out: the loops past it move in by one.
                count = count.saturating_sub(1);
                sink(loops, taken, count);
                at = 2;
            }
            None => at = at.saturating_add(1),
        }
    }
    count
}

/// Whether `block` (`loops[at - 1]`) and the nearest loop outside it other than
/// `loops[taken]` (the loop [`merge_apart`] takes out) make a kernel's block
/// ([`unit_in_all`]).
const fn over_block<const K: usize>(
    loops: &[Loop<K>],
    at: usize,
    taken: usize,
    block: &Loop<K>,
) -> bool {
    let beyond = if at.saturating_sub(2) == taken {
        at.checked_sub(3)
    } else {
        at.checked_sub(2)
    };
    match beyond {
        Some(b) => match get(loops, b) {
            Some(o) => unit_in_all(&o, block),
            None => false,
        },
        None => false,
    }
}

/// [`merge`] for two operands, written out: the run-time copy's two-loop planner
/// (`block.rs`). At `opt-level = "s"` the general form's loop over operands stays a loop,
/// which cost a Cortex-M4 copy 11 instructions; this form as a call, 24.
#[expect(
    clippy::inline_always,
    reason = "a call per merge attempt cost a Cortex-M4 copy 24 instructions (for 156 bytes)"
)]
#[inline(always)]
pub(super) fn merge2(outer: &Loop<2>, inner: &Loop<2>) -> Option<Loop<2>> {
    let ([o0, o1], [i0, i1]) = (outer.strides, inner.strides);
    if merges_in(o0, i0, inner.extent) && merges_in(o1, i1, inner.extent) {
        // `joined`, written out: through it the merged loop cost a Cortex-M4 copy 72 bytes.
        Some(Loop {
            extent: outer.extent.checked_mul(inner.extent)?,
            strides: inner.strides,
        })
    } else {
        None
    }
}

/// The merge test of one operand: a loop of stride `outer` takes whole passes of `extent`
/// steps of stride `inner` (`outer = inner · extent`, exactly).
const fn merges_in(outer: isize, inner: isize, extent: usize) -> bool {
    match moved(inner, extent) {
        Some(p) => p == outer,
        None => false,
    }
}

/// `outer` and `inner` merged: `inner`'s strides over both extents, `None` if their product
/// overflows `usize`.
const fn joined<const K: usize>(outer: &Loop<K>, inner: &Loop<K>) -> Option<Loop<K>> {
    match outer.extent.checked_mul(inner.extent) {
        Some(extent) => Some(Loop {
            extent,
            strides: inner.strides,
        }),
        None => None,
    }
}

/// `outer` and `inner` as one loop where they merge only once one of them is turned round
/// ([`turn`]): `outer`'s stride is minus `inner`'s times its extent in every operand (blocks
/// of a flipped row, `(73, 3):(-3, 1)` against `(3, -1)`: one run of 219 backwards). The loop
/// turned is the one the destination (operand 0) runs backwards, so the merged loop runs
/// forwards in it; `offsets` move as [`turn`] moves them. `Ok(None)`, nothing changed, where
/// they do not merge so.
///
/// # Errors
///
/// [`LayoutError::OffsetOverflow`] if the turn overflows `isize` (see [`turn`]).
pub(super) const fn merge_turned<const K: usize>(
    outer: &Loop<K>,
    inner: &Loop<K>,
    offsets: &mut [isize; K],
) -> Result<Option<Loop<K>>, LayoutError> {
    let (mut os, mut is): (&[isize], &[isize]) = (&outer.strides, &inner.strides);
    while let ([o, ot @ ..], [i, it @ ..]) = (os, is) {
        match (mul(*i, inner.extent), o.checked_neg()) {
            (Ok(p), Some(n)) if p == n => {}
            _ => return Ok(None),
        }
        (os, is) = (ot, it);
    }
    let (mut outer, mut inner, mut moved) = (*outer, *inner, *offsets);
    let turned = match inner.strides.first() {
        Some(d) if *d < 0 => turn(&mut inner, &mut moved),
        _ => turn(&mut outer, &mut moved),
    };
    if let Err(e) = turned {
        return Err(e);
    }
    match merge(&outer, &inner) {
        Some(m) => {
            *offsets = moved;
            Ok(Some(m))
        }
        None => Ok(None),
    }
}
