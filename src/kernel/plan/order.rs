//! Loop order: the loops sorted by the cache lines their steps touch (the destination weighted
//! most), then merged again in that order ([`order`]); and the reorders of an untiled nest:
//! its short loops inside long ones whose pass evicts their lines from the second-level
//! cache ([`far_back`]), and, of tiny blocks, its long fine-strided loop innermost
//! ([`long_inside`]) and its longest loop into a tiny cube ([`long_cube`]); and the plain
//! loops' orders a tuned copy times against the planner's ([`by_operand`]).

use super::Loop;
use super::flip::flip;
use super::merge::{merge, merge_apart, merge_turned};
use super::operands::{at, stride_or_0};
use super::tiling::{
    TILE_MIN_EXTENT, abs_stride, crowds_destination, evicts, evicts_far, transpose_walk,
};
use crate::LayoutError;
use crate::algo::access::{get, set, swap};

/// Steps 3 and 4 of planning on `loops` (pushed, neighbours merged): loops that run
/// backwards in every operand flipped (`offsets` moved to their last step), all ordered by
/// [`outer_first`] (stable), and neighbours merged again in that order, then loops apart
/// that merge into a kernel's block ([`merge_apart`]). Returns how many
/// loops remain, in `loops[..n]`. The one place these rules run: a nest's
/// [`Builder::finish`](super::builder::Builder::finish), and the peeler of loops past a nest's (`plan/peel.rs`) before it
/// counts them.
///
/// # Errors
///
/// [`LayoutError::OffsetOverflow`] if a flipped offset overflows `isize`.
#[expect(
    clippy::inline_always,
    reason = "a nest's planning is the run-time kernels' per-call cost: inlined into `finish`, \
              it compiles as it did before it was its own function (the firmware figures \
              are unchanged)"
)]
#[inline(always)]
pub(super) const fn order<const K: usize>(
    loops: &mut [Loop<K>],
    offsets: &mut [isize; K],
    line: usize,
) -> Result<usize, LayoutError> {
    // Flip axes that go backwards (or stand still) in every operand.
    let mut rest: &mut [Loop<K>] = loops;
    while let [l, tail @ ..] = rest {
        rest = tail;
        if let Err(e) = flip(l, offsets) {
            return Err(e);
        }
    }
    // Order by weighted stride, largest outermost.
    sort(loops, Outer::Weighted(line));
    remerge(loops, offsets)
}

/// The loops sorted by operand `k`'s `|stride|`, largest outermost (stable), then merged
/// again as [`order`] merges them: the order of the plain loop that walks operand `k` through
/// memory, untiled. Returns how many loops remain, in `loops[..n]`. The candidates
/// [`CopyPlan::tuned`](crate::CopyPlan::tuned) times against the planner's order
/// ([`Nest::in_order_of`](super::Nest::in_order_of)).
///
/// # Errors
///
/// [`LayoutError::OffsetOverflow`] if a turned merge's offset overflows `isize`.
pub(super) const fn by_operand<const K: usize>(
    loops: &mut [Loop<K>],
    offsets: &mut [isize; K],
    k: usize,
) -> Result<usize, LayoutError> {
    sort(loops, Outer::Operand(k));
    remerge(loops, offsets)
}

/// The planners' last order step (the general builder's and the two-loop one's): an untiled
/// nest of three operands or more whose innermost rows crowd the destination's lines out of
/// their first-level sets ([`crowds_destination`]) runs in the destination's order
/// ([`by_operand`]). Returns how many loops remain, in `loops[..n]` (all of them where the
/// step leaves the nest as it is).
///
/// # Errors
///
/// [`by_operand`]'s.
pub(super) const fn crowded_in_destination_order<const K: usize>(
    loops: &mut [Loop<K>],
    offsets: &mut [isize; K],
    tiled: bool,
    line: usize,
) -> Result<usize, LayoutError> {
    match loops {
        [.., inner] if K >= 3 && !tiled && crowds_destination(inner, line) => {
            by_operand(loops, offsets, 0)
        }
        _ => Ok(loops.len()),
    }
}

/// Which loop of two goes outside the other, for [`sort`].
#[derive(Clone, Copy)]
enum Outer {
    /// [`outer_first`]'s weights, lines of `line` elements: the planner's order ([`order`]).
    Weighted(usize),
    /// The larger `|stride|` of operand `k`: the plain loop's order ([`by_operand`]).
    Operand(usize),
}

/// `loops` sorted by `key`, the outermost first: a stable insertion sort (the nests of real
/// copies have two to four loops). The one sort of [`order`] and [`by_operand`]; inlined into
/// each with its key a constant, so the key's test folds away. The weights are computed at
/// each comparison: an array of them would be cleared first and take 64 bytes of stack.
#[expect(
    clippy::inline_always,
    reason = "inlined into `order` with its key a constant, it compiles as the sort written \
              there did (the firmware figures are unchanged)"
)]
#[inline(always)]
const fn sort<const K: usize>(loops: &mut [Loop<K>], key: Outer) {
    let mut i = 1;
    while i < loops.len() {
        let mut j = i;
        while let Some(prev) = j.checked_sub(1) {
            let (Some(outer), Some(inner)) = (at(loops, prev), at(loops, j)) else {
                break;
            };
            let stays = match key {
                Outer::Weighted(line) => outer_first(outer, inner, line),
                Outer::Operand(k) => abs_stride(loops, prev, k) >= abs_stride(loops, j, k),
            };
            if stays {
                break;
            }
            swap(loops, prev, j);
            j = prev;
        }
        i = i.saturating_add(1);
    }
}

/// Neighbours merged again in their order (straight, or through a turn), then loops apart
/// that merge into a kernel's block ([`merge_apart`]): the last step of [`order`] and of
/// [`by_operand`]. Returns how many loops remain, in `loops[..n]`.
///
/// # Errors
///
/// [`LayoutError::OffsetOverflow`] if a turned merge's offset overflows `isize`.
#[expect(
    clippy::inline_always,
    reason = "inlined into `order` as it was written there before `by_operand` shared it \
              (the firmware figures are unchanged)"
)]
#[inline(always)]
const fn remerge<const K: usize>(
    loops: &mut [Loop<K>],
    offsets: &mut [isize; K],
) -> Result<usize, LayoutError> {
    // `loops[..out]` are the merged loops so far.
    let mut out = 0usize;
    let mut i = 0;
    while let Some(cur) = get(loops, i) {
        let merged = match out.checked_sub(1) {
            Some(p) => match at(loops, p) {
                Some(prev) => match merge(prev, &cur) {
                    Some(m) => Some((p, m)),
                    None => match merge_turned(prev, &cur, offsets) {
                        Ok(Some(m)) => Some((p, m)),
                        Ok(None) => None,
                        Err(e) => return Err(e),
                    },
                },
                None => None,
            },
            None => None,
        };
        if let Some((p, m)) = merged {
            set(loops, p, m);
        } else {
            // `out <= i`; a loop already in place is not rewritten.
            if out != i {
                put(loops, out, cur);
            }
            out = out.saturating_add(1);
        }
        i = i.saturating_add(1);
    }
    Ok(merge_apart(loops, out))
}

/// `loops[i] = l` (nothing past the end), field by field: a whole-`Loop` store from one
/// element of the array into another is compiled to a `memmove` call (the optimiser cannot
/// tell the two apart), which links 1.5 KB on a Cortex-M.
pub(super) const fn put<const K: usize>(loops: &mut [Loop<K>], i: usize, l: Loop<K>) {
    if let Some((_, [x, ..])) = loops.split_at_mut_checked(i) {
        x.extent = l.extent;
        let mut o = 0;
        while o < K {
            if let Some(s) = get(&l.strides, o) {
                set(&mut x.strides, o, s);
            }
            o = o.saturating_add(1);
        }
    }
}

/// Moves `loops[from]` to `loops[to]` (`from <= to`; nothing past the end), the loops
/// between moving out by one: the one shift of the reorders ([`long_inside`],
/// [`long_cube`], `tiling::long_over_short`) and of [`merge_apart`]'s merged-out loop.
pub(super) const fn sink<const K: usize>(loops: &mut [Loop<K>], from: usize, to: usize) {
    let mut j = from;
    while j < to {
        swap(loops, j, j.saturating_add(1));
        j = j.saturating_add(1);
    }
}

/// The largest 2-D block (elements of the two innermost loops) [`long_inside`] takes for
/// tiny.
pub(super) const TINY_BLOCK: usize = 8;

/// The fewest steps of a loop [`long_inside`] moves inside.
pub(super) const LONG_LOOP: usize = 16;

/// Whether every operand steps one element (either way) in `a` or in `b`: the block of the
/// two is a kernel's (rows of a run, a transpose, a channel block), which keeps its loops.
pub(super) const fn unit_in_all<const K: usize>(a: &Loop<K>, b: &Loop<K>) -> bool {
    let mut k = 0;
    while k < K {
        let in_a = matches!(get(&a.strides, k), Some(1 | -1));
        if !in_a && !matches!(get(&b.strides, k), Some(1 | -1)) {
            return false;
        }
        k = k.saturating_add(1);
    }
    true
}

/// The most steps of an innermost loop [`long_inside`] moves out from under a long one.
pub(super) const SHORT_INNER: usize = 3;

/// When the two innermost loops of an untiled nest make a block of at most [`TINY_BLOCK`]
/// elements, moves the innermost loop of at least [`LONG_LOOP`] steps whose every stride is
/// at most half a line (`line / 2` elements) to the innermost place (the loops between shift
/// out by one): rows of it then read and write consecutive lines, each line serving two
/// steps or more. A stride between half a line and a line makes the rows touch a line a
/// step in that operand, and the tiny block's loops, now outside, come back to every line
/// once the row has left the first-level cache: seed 29's 1272 (`u32` rows of 1153 written
/// 56 and read 48 bytes apart, the block 2 far steps of 4 pixels of 4 channels) ran 14.2 us
/// with the long loop inside, against the plain loop's 9.8, and 5.7 us in rows of the
/// block's 4 channels. The 25 plans of ten 2,000-case random sweeps (seeds 7, 11, 13, 17,
/// 19, 23, 29, 31, 37 and 41) the half-line bound changes ran 0.68x the time in geometric
/// mean (each timed alone with the builds alternating, medians of five), none slower, five
/// lifted above the plain loop.
///
/// On hosts, likewise a short innermost loop alone (at most [`SHORT_INNER`] steps) under a
/// long loop of near strides just outside it, in a nest of three loops or more, unless the
/// two make a kernel's block ([`unit_in_all`]: a run in every operand, a transpose, a
/// channel block): the two swap, and rows of 2 or 3 elements, a row's set-up each, become
/// long rows. The random sweep's case 111 (`u16`, rows of 2 pixels 3 apart under 136 steps
/// of 6 and 2 elements) ran 103 -> 74 us; the 84 plans of twelve sweeps (the 240 random and
/// power-of-two cases, 2,000-case random seeds 7, 11, 13, 17, 19 and power-of-two seeds 7,
/// 11, 13, 17, 19) 0.71-0.88x the time per sweep, the slowest 1.08x, none slower than the
/// plain loop; four sweeps drawn after the rule (random and power-of-two seeds 23 and 29),
/// 27 plans, 0.77-0.83x, the slowest 1.07x. Each refusal was measured: a run in both
/// operands (pairs of `f32` and `f64` as long strided rows: about 2x slower), a kernel's
/// block (seed 11's 785, 1.21x), a long loop further out (the power-of-two seed 11's 1100,
/// `u8`: 16 steps coming back to 128 KiB of lines, 1.43x) and nests of two loops (the
/// two-loop planner's, whose short rows its block kernel unrolls: rank-2 cases 1.2-1.6x).
pub(super) const fn long_inside<const K: usize>(loops: &mut [Loop<K>], line: usize) {
    let count = loops.len();
    // A tiny block: the innermost long loop outside it, its two loops staying together;
    // else a short innermost loop and the loop just outside it.
    let (from, lowest) = match &*loops {
        [.., a, b] if a.extent.saturating_mul(b.extent) <= TINY_BLOCK => (2, 0),
        // Three loops or more: a nest of two keeps its order, as the two-loop planner does.
        [_, .., a, b]
            if !cfg!(target_os = "none") && b.extent <= SHORT_INNER && !unit_in_all(a, b) =>
        {
            (1, count.saturating_sub(2))
        }
        _ => return,
    };
    let mut i = count.saturating_sub(from);
    while let Some(p) = i.checked_sub(1) {
        i = p;
        if i < lowest {
            return;
        }
        let Some(cand) = get(loops, i) else {
            return;
        };
        let mut near = true;
        let mut op = 0;
        while op < K {
            if abs_stride(loops, i, op) > line / 2 {
                near = false;
            }
            op = op.saturating_add(1);
        }
        if cand.extent >= LONG_LOOP && near {
            sink(loops, i, count.saturating_sub(1));
            return;
        }
    }
}

/// Moves each short loop (fewer than [`TILE_MIN_EXTENT`] steps, or that many where they use
/// up the lines they come back to: [`goes_back`]) of an untiled nest inside the long loop
/// just inside it, where that loop's pass evicts the short loop's lines from
/// the second-level cache ([`evicts_far`]: in some operand the short loop steps within a
/// line, the long one a line or more, more steps than its lines' second-level sets hold):
/// each step of the short loop came back to lines gone to the third level or memory; inside,
/// it takes the few lines it shares while they are cached. The innermost pair only where
/// the two make no kernel's block ([`unit_in_all`]: moved, transposes' blocks ran up to 1.4x
/// slower, the power-of-two seed 7's 1867) and the short loop's steps use up the lines they
/// come back to ([`uses_up`]: where a loop further out comes back to the rest of a line,
/// the short loop inside saves fewer fetches than its rows of 2 or 4 cost, the power-of-two
/// seed 37's 1471, `u32`, 1.43x slower, seed 29's 105 1.29x), in a nest of three loops or
/// more (the two-loop planner's nests keep their order). The innermost pair was measured on
/// eighteen 2,000-case power-of-two sweeps (seeds 7-41 and the primes 43-73), each case whose
/// plan changes timed alone with the builds alternating (medians of five): six plans change
/// (seeds 7, 11, 23, 31, 67 and 73), 0.27-0.89x the time (seed 7's 1856, `f64` rows of 32
/// read 64 KiB apart, 4 steps of 2 outside them: 262 -> 154 us against the plain loop's
/// 211; seed 23's 53, `u32`, 257 -> 68 us); no plan of the ten random sweeps of seeds 7-41
/// or of the two 240-case sweeps changes. A loop of [`TILE_MIN_EXTENT`] steps that use up
/// their lines moves too (power-of-two seed 7's 1976, `u16`, 8 steps of 4 elements outside
/// rows of 256 read 8 KiB apart: 369 -> 169 us against the loop's 261): of the same
/// eighteen power-of-two sweeps and ten random ones, nine plans change, 0.43-0.85x the
/// time, none slower. Nor a long loop that makes a transposes' block with the
/// innermost (moved, the power-of-two seed 13's 652, `u8`, ran 2.1x slower, its 256 x 16
/// transposes cut into rows of 2 x 16). Measured on the sweep's power-of-two cases (seeds
/// 7, 11, 13, 17, 19, 23 and 29), each case whose plan changes timed alone with the builds
/// alternating (medians of five): 11 plans, 0.80-1.01x the time per sweep, the slowest
/// seed 23's 1382 at 1.04x; seed 23's 328 (`f64`, the destination written 4 KiB apart in
/// rows of 512, the 4 steps outside them 32 bytes on each) 354 -> 296 us, and with its
/// cubes kept in their order (`raw::cube_strip`) 153 us, against the plain loop's 175. No
/// plan of four random 2,000-case sweeps changes. Bare metal keeps its order.
pub(super) const fn far_back<const K: usize>(loops: &mut [Loop<K>], line: usize) {
    if cfg!(target_os = "none") {
        return;
    }
    let Some(inner) = loops.last().copied() else {
        return;
    };
    // The innermost pair too, in a nest of three loops or more, where it makes no kernel's
    // block and `back` uses up the lines it comes back to (`goes_back`'s `innermost`).
    let count = loops.len();
    if let [outer @ .., back, rows] = loops {
        if !outer.is_empty()
            && goes_back(back, outer, line, true)
            && !unit_in_all(back, rows)
            && evicts_far(rows, back, line)
        {
            swap(loops, count.saturating_sub(2), count.saturating_sub(1));
            return;
        }
    }
    let mut i = loops.len().saturating_sub(2);
    while let Some(p) = i.checked_sub(1) {
        let (Some(back), Some(rows)) = (get(loops, p), get(loops, i)) else {
            return;
        };
        // (`evicts_far` asks more steps of `rows` than a second-level set's ways, at least
        // `TILE_MIN_EXTENT`.)
        let Some((outer, _)) = loops.split_at_checked(p) else {
            return;
        };
        if goes_back(&back, outer, line, false)
            && !transpose_walk(&rows, &inner)
            && !transpose_walk(&inner, &rows)
            && evicts_far(&rows, &back, line)
        {
            swap(loops, p, i);
        }
        i = p;
    }
}

/// Whether `back` (the loops `outer` outside it; `innermost`: `back` is the innermost
/// pair's outer loop) is short enough for [`far_back`] to move inside the loop just inside
/// it: fewer than [`TILE_MIN_EXTENT`] steps and not the innermost pair's, or at most
/// [`TILE_MIN_EXTENT`] steps that use up the lines they come back to ([`uses_up`]).
const fn goes_back<const K: usize>(
    back: &Loop<K>,
    outer: &[Loop<K>],
    line: usize,
    innermost: bool,
) -> bool {
    (back.extent < TILE_MIN_EXTENT && !innermost)
        || (back.extent <= TILE_MIN_EXTENT && uses_up(back, outer, line))
}

/// Whether `back`'s steps use up the lines they come back to (elements of `line` a cache
/// line): in every operand where `back` steps less than a line, its steps cover a line, or
/// no loop of `outer` (the loops outside it) steps less than a line, so that no later step
/// comes back to those lines.
const fn uses_up<const K: usize>(back: &Loop<K>, outer: &[Loop<K>], line: usize) -> bool {
    let mut k = 0;
    while k < K {
        let near = stride_or_0(get(&back.strides, k)).unsigned_abs();
        if near < line && near.saturating_mul(back.extent) < line {
            let mut rest = outer;
            while let [l, tail @ ..] = rest {
                if stride_or_0(get(&l.strides, k)).unsigned_abs() < line {
                    return false;
                }
                rest = tail;
            }
        }
        k = k.saturating_add(1);
    }
    true
}

/// The most elements of a tiny cube: the three innermost loops of a nest, which the copy's
/// driver hands its kernels at once (`raw::tiny_cubes` takes cubes of at most this many
/// elements in rows of 2 to 8), paying an odometer step and a cube's set-up each.
pub(crate) const TINY_CUBE: usize = 64;

/// When the three innermost loops of an untiled nest make a cube of at most [`TINY_CUBE`]
/// elements whose outer loop is shorter than [`LONG_LOOP`], moves the longest loop outside
/// the cube, if it has [`TINY_CUBE`] steps or more, to the cube's outer place (the loops
/// between shift out by one), on hosts: the driver then pays a cube's set-up once per step
/// of the loops still outside, not once per few elements, and the kernels run the long loop
/// in strips (`u16` `2 x 2 x 2` cubes, 3466 of them: 0.51x the time as 2 cubes of 3466 x 2
/// x 2). Its steps then come inside the loops it passed, which may split their runs of the
/// destination. Measured on the 2,000-case sweeps of seeds 7, 11 and 12, each case whose
/// plan changes (26) timed alone with the builds alternating (medians of five, nine for the
/// slowest): 0.79x the time in geometric mean, 13 more than 1.2x faster, three cases below
/// the plain loop lifted above it (seed 11's case 96: 0.69x -> 2.28x the loop; seed 7's 397
/// `u16`: 0.79x -> 1.78x), one 1.20x slower (seed 12's case 857, 45-element cubes whose
/// destination runs the loop passed continues: 1.58x the loop). Not a loop whose pass
/// evicts the lines the cube's outer loop comes back to (`tiling::evicts`: in some operand
/// the loop steps lines that crowd a few cache sets while the cube's outer loop steps
/// within a line); the longest of the others moves. Seed 13's power-of-two 564 (`f32`
/// cubes of 8 x 2 x 2 written in 128-byte runs, the 512-step loop written 8 KiB apart, one
/// set) ran 4.2 ms with that loop moved in, each of the 8 outer steps missing its 512
/// lines, 2.7 ms with the 64-step loop moved instead (the plain loop 2.7 ms); of seven
/// 2,000-case power-of-two sweeps (seeds 7, 13, 11, 17, 19, 23, 29; three rounds) the 21
/// plans that change ran 0.60-0.95x per sweep but seed 11's (1.15x: its 152 1.33x, still
/// 1.8x faster than the loop), seed 29's 1960 4.1 -> 3.0 ms (the loop 2.1); no plan of four
/// random sweeps changes. Bare metal keeps its order (no measurement there, and a
/// Cortex-M's general planner would carry the code).
pub(super) const fn long_cube<const K: usize>(loops: &mut [Loop<K>], line: usize) {
    if cfg!(target_os = "none") {
        return;
    }
    let outer = match &*loops {
        [.., c, a, b]
            if c.extent < LONG_LOOP
                && c.extent.saturating_mul(a.extent).saturating_mul(b.extent) <= TINY_CUBE =>
        {
            *c
        }
        _ => return,
    };
    // The longest loop outside the cube (the outermost of equals), of at least
    // `TINY_CUBE` steps, whose pass keeps the lines the cube's outer loop comes back to.
    let cube = loops.len().saturating_sub(3);
    let mut longest: Option<(usize, usize)> = None;
    let mut i = 0;
    while let Some(l) = get(loops, i) {
        if i >= cube {
            break;
        }
        let longer = !evicts(&l, &outer, line)
            && match longest {
                Some((_, extent)) => l.extent > extent,
                None => l.extent >= TINY_CUBE,
            };
        if longer {
            longest = Some((i, l.extent));
        }
        i = i.saturating_add(1);
    }
    if let Some((j, _)) = longest {
        sink(loops, j, cube);
    }
}

/// A loop's weight: `u64` where `usize` is 32 bits wide (exact there: `K · 2³¹` for any
/// operand count that fits memory), `u128` on 64-bit targets. 128-bit arithmetic costs a
/// Cortex-M a library call per multiply; it is never needed there.
#[cfg(not(target_pointer_width = "64"))]
pub(super) type Weight = u64;
#[cfg(target_pointer_width = "64")]
pub(super) type Weight = u128;

/// Bytes of a cache line, for the loop order: a stride of a line or more costs a new line
/// at every step, whatever its size.
pub(crate) const LINE_BYTES: usize = 64;

/// Elements of `itemsize` bytes in a cache line (at least 1).
pub(crate) const fn line_for(itemsize: usize) -> usize {
    match LINE_BYTES.checked_div(itemsize) {
        Some(0) | None => 1,
        Some(l) => l,
    }
}

/// Whether loop `a` stays outside loop `b` in the loop order: the one whose steps touch
/// more new cache lines goes outside. A loop's weight is `Σ w_k |stride_k|`, the destination
/// (operand 0) weighted `K` and every source 1 (Strided.jl's rule), with each `|stride|`
/// capped at a line (`line` elements); ties are broken by the uncapped sum. Without the cap a
/// source stride of thousands of elements outweighs the destination's strides, and puts the
/// destination's stride-1 axis outermost (a 3-D transpose: 0.42x NumPy's `copyto`); with it,
/// every stride past a line counts alike and the destination's weight decides. `true` on a
/// tie of both (a stable sort keeps the order).
pub(super) const fn outer_first<const K: usize>(a: &Loop<K>, b: &Loop<K>, line: usize) -> bool {
    let ((ca, wa), (cb, wb)) = (weights(a, line), weights(b, line));
    ca > cb || (ca == cb && wa >= wb)
}

/// [`outer_first`] of a copy's two operands, written out: the same rule (a test compares the
/// two), in straight-line code for the run-time [`copy()`](crate::copy()), whose rank-2
/// planner is written out operand by operand for the same reason (at `opt-level = "s"` the
/// generic loop over operands stays a loop: about 60 instructions a call more on a
/// Cortex-M4).
#[expect(
    clippy::arithmetic_side_effects,
    reason = "as `weights`: three terms of at most `cap <= 64`, and three of at most \
              2^(bits - 1) in `Weight`, twice as wide"
)]
pub(super) const fn outer_first2(a: &Loop<2>, b: &Loop<2>, line: usize) -> bool {
    const fn pair(l: &Loop<2>, cap: usize) -> (usize, Weight) {
        let [d, s] = l.strides;
        let (d, s) = (d.unsigned_abs(), s.unsigned_abs());
        let (cd, cs) = (if d < cap { d } else { cap }, if s < cap { s } else { cap });
        (cd + cd + cs, d as Weight + d as Weight + s as Weight)
    }
    let ((ca, wa), (cb, wb)) = (pair(a, line), pair(b, line));
    ca > cb || (ca == cb && wa >= wb)
}

/// The capped weight (each `|stride|` at most `cap`) and the uncapped one of `l`, in one
/// pass: `Σ |stride_k|` plus `K - 1` more of the destination's, a multiply by a constant (none
/// for a copy's `K = 2`). Plain adds: saturating ones in a double-width integer cost a
/// Cortex-M a dozen instructions each, and they cannot overflow (the lint's reason).
#[expect(
    clippy::arithmetic_side_effects,
    reason = "each `|stride| <= 2^(bits - 1)` of `usize`, and `Weight` has twice its bits: \
              `2K - 1` such terms fit for any operand count `K < 2^(bits - 1)`; the capped \
              sum has `2K - 1` terms of at most `cap <= 64`"
)]
pub(super) const fn weights<const K: usize>(l: &Loop<K>, cap: usize) -> (usize, Weight) {
    let more = K.saturating_sub(1);
    let d = stride_or_0(get(&l.strides, 0)).unsigned_abs();
    let mut capped = (if d < cap { d } else { cap }) * more;
    let mut full = d as Weight * more as Weight;
    let mut rest: &[isize] = &l.strides;
    while let [s, tail @ ..] = rest {
        let v = s.unsigned_abs();
        capped += if v < cap { v } else { cap };
        full += v as Weight;
        rest = tail;
    }
    (capped, full)
}
