//! Group tiling: a copy whose loops fall into a destination's fast group and a source's,
//! reordered into tiles that read whole source lines and write whole destination lines
//! ([`group`]).

use super::Loop;
use super::operands::{mul, stride_or_0};
use super::order::put;
use super::sets::{L1_SETS, L1_WAYS, orbit};
use super::tiling::{abs_stride, item_bytes};
use crate::algo::access::{get, set, swap};

/// The largest 2-D block (elements of the two innermost loops) [`group`] regroups: a larger
/// one pays its set-up over enough elements already.
pub(super) const GROUP_BLOCK: usize = 64;

/// The cache lines of the source's run [`group`] aims for in its innermost loops.
pub(super) const GROUP_LINES: usize = 4;

/// The most cache lines one group tile may touch, over both operands (32 KiB, the
/// first-level data cache of the hosts measured), for its lines to stay cached while it
/// runs.
pub(super) const GROUP_MAX_LINES: usize = 512;

/// The fewest elements of the destination's group for [`group`] to regroup: each reads its
/// own stream of the source, and up to this many the hardware prefetchers follow them all in
/// the builder's order (a group of 10: 1.25x slower regrouped; one of 40: 2.2-2.5x faster).
pub(super) const GROUP_STREAMS: usize = 16;

/// The most divisors [`group`] tries when it cuts a loop (the nearest to its aim first), so
/// that planning at run time stays a few hundred cycles.
pub(super) const GROUP_TRIES: usize = 32;

/// Group tiling of a copy (two operands) whose loops fall into two disjoint groups, the
/// destination's fast loops (a stride below a cache line in the destination) and the
/// source's (below a line in the source), when the builder's order (the destination's
/// fastest loops innermost) leaves 2-D blocks of a few elements ([`GROUP_BLOCK`]) and the
/// two-loop tile of [`tile`](super::tiling::tile) found nothing to cut: a transposition between two groups of
/// loops, each of which [`merge`](super::merge::merge()) could not make one. The loops are reordered into the
/// other loops, then the destination's group, then the source's (its slowest loop cut to a
/// divisor of its extent so that the run covers about [`GROUP_LINES`] lines, or half as
/// many down to one where the tile would pass [`GROUP_MAX_LINES`] and the source's streams
/// crowd their sets, [`streams_crowd`]): each tile
/// reads whole lines of the source and writes each line of the destination whole before it
/// leaves ([`GROUP_MAX_LINES`]), in blocks of tens of elements. Returns the new depth
/// (`depth + 1` with a loop cut, `depth` unchanged when nothing is regrouped: a loop fast in
/// both operands, no divisor near the aim among [`GROUP_TRIES`], no room for one more loop,
/// or a tile past [`GROUP_MAX_LINES`]). An innermost loop that is a run of both operands
/// counts with the source's group, innermost ([`run_of_both`]), and then the copy is
/// regrouped only where the source's streams crowd their sets ([`streams_crowd`]).
///
/// The sweep's case 106 (`f64`, loops of 7018, 10, 2 and 4 steps, the source fast in the
/// first and third, the destination in the others): 2-D blocks of 8 elements became blocks
/// of 22, the source read in runs of 22.
pub(super) const fn group<const K: usize, const L: usize>(
    all: &mut [Loop<K>; L],
    depth: usize,
    line: usize,
) -> usize {
    if K != 2 || depth < 3 || depth >= all.len() {
        return depth;
    }
    let Some((loops, _)) = all.split_at_checked(depth) else {
        return depth;
    };
    match group_cut(loops, line) {
        Some((fast, steps)) => regroup::<K, L>(all, depth, fast, steps, line),
        None => depth,
    }
}

/// Where [`group`] cuts `loops` (a copy's, in the builder's order): the source's slowest
/// fast loop and the steps of it kept inside, or `None` to keep the order.
pub(super) const fn group_cut<const K: usize>(
    loops: &[Loop<K>],
    line: usize,
) -> Option<(usize, usize)> {
    let block = match loops {
        [.., a, b] => a.extent.saturating_mul(b.extent),
        _ => return None,
    };
    if block >= GROUP_BLOCK {
        return None;
    }
    // The destination's group (the product of its extents), the source's slowest fast loop
    // and the product of the source's other fast loops.
    let (mut pd, mut ps, mut fast) = (1usize, 1usize, None);
    let mut i = 0;
    while let Some(l) = get(loops, i) {
        let (ds, ss) = (abs_stride(loops, i, 0), abs_stride(loops, i, 1));
        let run = run_of_both(loops, i);
        let (near_d, near_s) = (near_dst(ds, line) && !run, near_src(ss, line));
        // A loop fast in both (but an innermost run of both), or an innermost loop the
        // destination does not lead: the order is not the one this regroups.
        if (near_d && near_s) || (!near_d && !run && i.saturating_add(1) == loops.len()) {
            return None;
        }
        if near_d {
            pd = pd.saturating_mul(l.extent);
        }
        if near_s {
            fast = match fast {
                Some(j) if abs_stride(loops, j, 1) >= ss => {
                    ps = ps.saturating_mul(l.extent);
                    Some(j)
                }
                Some(j) => {
                    ps = ps.saturating_mul(match get(loops, j) {
                        Some(prev) => prev.extent,
                        None => 1,
                    });
                    Some(i)
                }
                None => Some(i),
            };
        }
        i = i.saturating_add(1);
    }
    let Some(fi) = fast else {
        return None;
    };
    let Some(fl) = get(loops, fi) else {
        return None;
    };
    if pd <= GROUP_STREAMS {
        return None;
    }
    // Under an innermost run of both, each stream is read a run at a time already: only
    // streams that crowd their sets are regrouped.
    if run_of_both(loops, loops.len().saturating_sub(1)) && !streams_crowd(loops, line) {
        return None;
    }
    // The cut: steps of the loop inside, so that the span of the source's group, those steps
    // of its largest stride, covers about `GROUP_LINES` lines; where the tile's lines pass
    // `GROUP_MAX_LINES` and the source's streams crowd their sets, half as many, down to one
    // line (power-of-two seed 47's 203, `f32`, 256 streams 8 and 64 KiB apart: 1,496 ->
    // 192 us; random strides lose there, random seed 7's 53 2.2x slower).
    let sf = abs_stride(loops, fi, 1);
    let mut want = GROUP_LINES;
    let steps = loop {
        let aim = match want.saturating_mul(line).checked_div(sf) {
            Some(0) | None => 1,
            Some(a) => a,
        };
        // A source's group short enough to run whole already runs whole inside the builder's
        // order, the destination's loops around it (regrouped: 0.7-1.1x as fast, measured).
        if fl.extent <= aim.saturating_mul(2) {
            return None;
        }
        let Some(steps) = divisor_near(fl.extent, aim) else {
            return None;
        };
        // Lines of a tile: each of the destination group's elements reads its own span of
        // the source, and each of the source group's elements writes the destination group's
        // lines.
        let lines = pd
            .saturating_mul(lines_of(steps.saturating_mul(sf), line))
            .saturating_add(steps.saturating_mul(ps).saturating_mul(lines_of(pd, line)));
        if lines <= GROUP_MAX_LINES {
            break steps;
        }
        if want <= 1 || !streams_crowd(loops, line) {
            return None;
        }
        want /= 2;
    };
    Some((fi, steps))
}

/// [`group`]'s new order of `all[..depth]`: loop `fast` cut into its outer part (at its
/// place) and `steps` steps of it (appended), then every loop sorted by class, outermost
/// first: the other loops, the outer part, the destination's group, the inner part, the
/// source's other fast loops (by stride, largest outermost). Returns the new depth.
pub(super) const fn regroup<const K: usize, const L: usize>(
    all: &mut [Loop<K>],
    depth: usize,
    fast: usize,
    steps: usize,
    line: usize,
) -> usize {
    let Some(whole) = get(all, fast) else {
        return depth;
    };
    // The outer part: `extent / steps` steps of `steps` of its strides;
    // `(extent / steps - 1) · steps · |s| <= (extent - 1) · |s|` for every operand, inside
    // the nest's bounds, so no stride overflows (checked all the same).
    let mut outer = whole;
    outer.extent = match whole.extent.checked_div(steps) {
        Some(e) => e,
        None => return depth,
    };
    let mut op = 0;
    while op < K {
        match mul(stride_or_0(get(&whole.strides, op)), steps) {
            Ok(stride) => set(&mut outer.strides, op, stride),
            Err(_) => return depth,
        }
        op = op.saturating_add(1);
    }
    let mut inner = whole;
    inner.extent = steps;
    let mut class = [0u8; L];
    // An innermost run of both joins the source's group, as `group_cut` counted it.
    let run = match all.split_at_checked(depth) {
        Some((loops, _)) => run_of_both(loops, depth.saturating_sub(1)),
        None => false,
    };
    let mut i = 0;
    while i < depth {
        let (ds, ss) = (abs_stride(all, i, 0), abs_stride(all, i, 1));
        let c = if i == fast {
            1
        } else if near_dst(ds, line) && !(run && i.saturating_add(1) == depth) {
            2
        } else if near_src(ss, line) {
            4
        } else {
            0
        };
        set(&mut class, i, c);
        i = i.saturating_add(1);
    }
    put(all, fast, outer);
    put(all, depth, inner);
    set(&mut class, depth, 3);
    let count = depth.saturating_add(1);
    // Stable insertion sort by class; the source's fast loops by stride, largest outermost.
    let mut i = 1;
    while i < count {
        let mut j = i;
        while let Some(p) = j.checked_sub(1) {
            let (Some(cp), Some(cj)) = (get(&class, p), get(&class, j)) else {
                break;
            };
            let later =
                cp > cj || (cp == 4 && cj == 4 && abs_stride(all, p, 1) < abs_stride(all, j, 1));
            if !later {
                break;
            }
            swap(all, p, j);
            swap(&mut class, p, j);
            j = p;
        }
        i = i.saturating_add(1);
    }
    count
}

/// Whether loop `i` of `loops` is the innermost and a run of both operands (both strides 1
/// or -1: pairs of `u16` or `(x, y)` points copied whole). It joins [`group`]'s source
/// group, innermost, as a wider element would: the destination's group is then the loops
/// outside it (power-of-two seed 11's 528, `u16` pairs, 32 streams of the source 16 KiB
/// apart: 468 -> 123 us, against the plain loop's 308).
const fn run_of_both<const K: usize>(loops: &[Loop<K>], i: usize) -> bool {
    i.saturating_add(1) == loops.len()
        && abs_stride(loops, i, 0) == 1
        && abs_stride(loops, i, 1) == 1
}

/// Whether the source's streams of a copy's destination group (one for each of its elements:
/// the loops of `loops` a destination stride [`near_dst`], but an innermost run of both,
/// [`run_of_both`]) crowd the first-level sets they start in: more streams than the sets hold,
/// each loop reaching the [`orbit`] of its source stride's sets (at most its steps). Random
/// strides reach every set, and the prefetchers follow 63 streams there (random seed 53's 1778
/// ran 1.49x slower regrouped, random seed 7's 53 2.2x in tiles cut smaller); tensors of
/// power-of-two extents come back to one set.
const fn streams_crowd<const K: usize>(loops: &[Loop<K>], line: usize) -> bool {
    let item = item_bytes(line);
    let (mut streams, mut sets) = (1usize, 1usize);
    let mut i = 0;
    while let Some(l) = get(loops, i) {
        if near_dst(abs_stride(loops, i, 0), line) && !run_of_both(loops, i) {
            streams = streams.saturating_mul(l.extent);
            let reach = orbit(abs_stride(loops, i, 1).saturating_mul(item));
            sets = sets.saturating_mul(if reach < l.extent { reach } else { l.extent });
        }
        i = i.saturating_add(1);
    }
    let sets = if sets < L1_SETS { sets } else { L1_SETS };
    streams > sets.saturating_mul(L1_WAYS)
}

/// Whether a destination stride of `|stride|` elements makes a loop of [`group`]'s
/// destination group: it moves, at most a line (`line` elements) a step (a loop a line apart
/// continues the run of the loops inside it).
pub(super) const fn near_dst(stride: usize, line: usize) -> bool {
    stride != 0 && stride <= line
}

/// Whether a source stride of `|stride|` elements makes a loop of [`group`]'s source group: it
/// moves, within a line a step (the span [`group`] cuts is contiguous lines).
pub(super) const fn near_src(stride: usize, line: usize) -> bool {
    stride != 0 && stride < line
}

/// `ceil(elements / line)`, at least 1.
pub(super) const fn lines_of(elements: usize, line: usize) -> usize {
    match elements.checked_div(line) {
        Some(q) if q.saturating_mul(line) < elements => q.saturating_add(1),
        Some(0) | None => 1,
        Some(q) => q,
    }
}

/// The divisor of `n` nearest `aim` between `aim / 2` and `2 · aim` (at least 2), trying at
/// most [`GROUP_TRIES`] candidates from `aim` outwards, the smaller first of two as near.
pub(super) const fn divisor_near(n: usize, aim: usize) -> Option<usize> {
    let (lo, hi) = (if aim / 2 > 2 { aim / 2 } else { 2 }, aim.saturating_mul(2));
    let mut off = 0usize;
    let mut tries = 0usize;
    while tries < GROUP_TRIES {
        let (below, above) = (aim.checked_sub(off), aim.saturating_add(off));
        let (below_in, above_in) = (
            matches!(below, Some(b) if b >= lo),
            above <= hi && above < n,
        );
        if !below_in && !above_in {
            return None;
        }
        if let (Some(b), true) = (below, below_in) {
            tries = tries.saturating_add(1);
            if matches!(n.checked_rem(b), Some(0)) {
                return Some(b);
            }
        }
        if above_in && off != 0 {
            tries = tries.saturating_add(1);
            if matches!(n.checked_rem(above), Some(0)) {
                return Some(above);
            }
        }
        off = off.saturating_add(1);
    }
    None
}
