//! The loop order of a piece whose short runs would leave destination lines half-written:
//! strips, so that every part of a line is written while the line is in L1.

use super::pieces::{div, rem};
use super::{Loop, MAX_LOOPS, Nest};
use crate::algo::access::{get, set};
use crate::algo::checked::to_isize;

/// Bytes of a cache line: a shorter run leaves destination lines part-written.
const LINE_BYTES: usize = 64;

/// Bytes of the destination one strip of [`whole_lines`] writes: an eighth of a small L1D.
const STRIP_BYTES: usize = 4096;

/// When the innermost loop is a run contiguous in every operand and shorter than a cache line
/// (the lanes of the smaller factor), and an outer loop continues the destination's run (its
/// destination stride is the run's length: the smaller blocks inside one larger block),
/// strip-mines the loop just outside the run and moves the continuing loop between the
/// strips and the strip: each pass of the continuing loop then writes its part of the same
/// few kilobytes of destination lines, which stay in L1 until every part is written.
///
/// ```text
/// nChw8c -> nChw16c, HW = 12544:   (C/16) (2 halves) (HW) (8 lanes)
///                           ->     (C/16) (HW/64) (2 halves) (64) (8 lanes)
/// ```
///
/// The strip is the largest divisor of that loop's extent, at most half of it, whose
/// destination lines fit [`STRIP_BYTES`]; without one of at least 8 steps the nest is left
/// as it is. Untiled nests
/// only; the visited offsets, and so the bounds, are unchanged.
#[expect(
    clippy::many_single_char_names,
    reason = "`o`, `s`, `j`, `p`, `l`, `t`, `v`, `i`: operand, stride, loop positions and values"
)]
pub(super) const fn whole_lines<const K: usize>(nest: &mut Nest<K>, itemsize: usize) {
    let depth = nest.depth;
    let (Some(inner), Some(second)) = (depth.checked_sub(1), depth.checked_sub(2)) else {
        return;
    };
    let (Some(run), Some(rows)) = (get(&nest.loops, inner), get(&nest.loops, second)) else {
        return;
    };
    let run_bytes = run.extent.saturating_mul(itemsize);
    if nest.tile.is_some() || run_bytes >= LINE_BYTES || depth >= MAX_LOOPS {
        return;
    }
    let mut o = 0;
    while let Some(s) = get(&run.strides, o) {
        if s != 1 {
            return;
        }
        o = o.saturating_add(1);
    }
    let Ok(len) = to_isize(run.extent) else {
        return;
    };
    // The innermost loop outside the rows whose destination stride continues the run.
    let mut j = second;
    let halves = loop {
        let Some(p) = j.checked_sub(1) else {
            return;
        };
        j = p;
        let Some(l) = get(&nest.loops, j) else {
            return;
        };
        if matches!(get(&l.strides, 0), Some(s) if s == len) {
            break l;
        }
    };
    // The strip: the largest divisor of the rows' extent within the byte budget.
    let per_row = run_bytes.saturating_mul(halves.extent);
    let mut strip = div(STRIP_BYTES, per_row);
    // At least two strips, else there is nothing to reorder.
    if strip > div(rows.extent, 2) {
        strip = div(rows.extent, 2);
    }
    while strip >= 8 && rem(rows.extent, strip) != 0 {
        strip = strip.saturating_sub(1);
    }
    if strip < 8 {
        return;
    }
    let mut outer = Loop {
        extent: div(rows.extent, strip),
        strides: rows.strides,
    };
    let mut o = 0;
    while let Some(s) = get(&rows.strides, o) {
        let Ok(t) = to_isize(strip) else { return };
        let Some(v) = s.checked_mul(t) else { return };
        set(&mut outer.strides, o, v);
        o = o.saturating_add(1);
    }
    let strip_loop = Loop {
        extent: strip,
        strides: rows.strides,
    };
    // Loops j+1..second shift out by one into j..second-1; then the strips, the halves, the
    // strip and the run: one loop more than before.
    let mut i = j;
    while i < second {
        let after = i.saturating_add(1);
        if let Some(l) = get(&nest.loops, after) {
            set(&mut nest.loops, i, l);
        }
        i = after;
    }
    let Some(before) = second.checked_sub(1) else {
        return;
    };
    set(&mut nest.loops, before, outer);
    set(&mut nest.loops, second, halves);
    set(&mut nest.loops, inner, strip_loop);
    set(&mut nest.loops, depth, run);
    nest.depth = depth.saturating_add(1);
}
