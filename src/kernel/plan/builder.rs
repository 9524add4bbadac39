//! A nest under construction: axes pushed, then flipped, ordered, merged and tiled, each
//! operand's bounds measured; and the tile side for an element size.

use super::operands::{add, at, mul, stride_or_0};
use super::{Loop, MAX_LOOPS, Nest, TILE_BYTES};
use crate::LayoutError;
use crate::algo::access::{get, set, swap};

/// The largest power of two `p` with `p² · itemsize <= TILE_BYTES` (at least 1).
const fn tile_side(itemsize: usize) -> usize {
    let item = if itemsize == 0 { 1 } else { itemsize };
    let mut p: usize = 1;
    while p < TILE_BYTES {
        let q = p.saturating_mul(2);
        if q.saturating_mul(q).saturating_mul(item) > TILE_BYTES {
            break;
        }
        p = q;
    }
    p
}

/// [`tile_side`] of itemsizes 1, 2, 4, 8 and 16, computed by the compiler.
const SIDES: [usize; 5] = [
    tile_side(1),
    tile_side(2),
    tile_side(4),
    tile_side(8),
    tile_side(16),
];

/// [`tile_side`] from [`SIDES`] when `itemsize` is there (every primitive), so planning at
/// run time does not loop for it.
pub(super) const fn side_for(itemsize: usize) -> usize {
    if itemsize.is_power_of_two() {
        if let Some(side) = get(&SIDES, itemsize.trailing_zeros() as usize) {
            return side;
        }
    }
    tile_side(itemsize)
}

/// A nest under construction.
pub(super) struct Builder<'a, const K: usize> {
    pub(super) nest: &'a mut Nest<K>,
}

impl<const K: usize> Builder<'_, K> {
    /// Appends an axis inside the others: dropped at extent 1, merged into the previous loop
    /// when it merges in every operand.
    pub(super) const fn push(
        &mut self,
        extent: usize,
        strides: [isize; K],
    ) -> Result<(), LayoutError> {
        match append(&mut self.nest.loops, self.nest.depth, extent, strides) {
            Some(depth) => {
                self.nest.depth = depth;
                Ok(())
            }
            None => Err(LayoutError::RankOverflow { max: MAX_LOOPS }),
        }
    }

    /// Flips, orders and merges ([`order`]), then tiles the pushed loops, then measures each
    /// operand's bounds.
    ///
    /// Each pass walks the loops as a slice where it can (no index to check per step).
    pub(super) const fn finish(self, side: usize, line: usize) -> Result<(), LayoutError> {
        let Nest {
            loops: all,
            depth: nest_depth,
            offsets,
            bounds,
            tile: nest_tile,
        } = self.nest;
        let Some((loops, _)) = all.split_at_mut_checked(*nest_depth) else {
            return Err(LayoutError::RankOverflow { max: MAX_LOOPS });
        };
        let out = match order(loops, offsets, line) {
            Ok(out) => out,
            Err(e) => return Err(e),
        };
        *nest_depth = out;
        let Some((loops, _)) = loops.split_at_mut_checked(out) else {
            return Err(LayoutError::RankOverflow { max: MAX_LOOPS });
        };
        *nest_tile = untiled_small(tile(loops, out, side), loops, side, line);
        if nest_tile.is_none() {
            *nest_depth = group(all, out, line);
        }
        let Some((loops, _)) = all.split_at_mut_checked(*nest_depth) else {
            return Err(LayoutError::RankOverflow { max: MAX_LOOPS });
        };
        if nest_tile.is_none() {
            long_inside(loops, line);
        }
        measure(loops, offsets, bounds)
    }
}

/// Step 2 of planning, one axis at a time: `loops[..depth]` with an axis of `extent` and
/// `strides` appended inside the others, dropped at extent 1 and merged into the previous
/// loop when it merges in every operand ([`merge`]). Returns the new depth, or `None` when
/// the axis needs a loop and `loops` has no room for it. The one place this rule runs:
/// [`Builder::push`], and the peeler of loops past a nest's (`plan/peel.rs`), whose
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

/// Steps 3 and 4 of planning on `loops` (pushed, neighbours merged): loops that run
/// backwards in every operand flipped (`offsets` moved to their last step), all ordered by
/// [`outer_first`] (stable), and neighbours merged again in that order. Returns how many
/// loops remain, in `loops[..n]`. The one place these rules run: a nest's
/// [`Builder::finish`], and the peeler of loops past a nest's (`plan/peel.rs`) before it
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
    // Order by weighted stride, largest outermost (stable insertion sort). The weights
    // are computed at each comparison: an array of them would be cleared first and take
    // 64 bytes of stack, and the nests of real copies have two or three loops.
    let mut i = 1;
    while i < loops.len() {
        let mut j = i;
        while let Some(p) = j.checked_sub(1) {
            let (Some(a), Some(b)) = (at(loops, p), at(loops, j)) else {
                break;
            };
            if outer_first(a, b, line) {
                break;
            }
            swap(loops, p, j);
            j = p;
        }
        i = i.saturating_add(1);
    }
    // Merge again in the new order: `loops[..out]` are the merged loops so far.
    let mut out = 0usize;
    let mut i = 0;
    while let Some(cur) = get(loops, i) {
        let merged = match out.checked_sub(1) {
            Some(p) => match at(loops, p) {
                Some(prev) => match merge(prev, &cur) {
                    Some(m) => Some((p, m)),
                    None => None,
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
    Ok(out)
}

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

/// `tile` (of [`tile`]), or `None` when the block of the two innermost of `loops` is not
/// [`tile_worth`]: it runs whole, and a prepared run of a small transpose or a planar <->
/// interleaved block loops once. An untiled block whose rows are short ([`rows_swap`]) runs
/// with its two loops swapped.
const fn untiled_small<const K: usize>(
    tile: Option<[usize; 2]>,
    loops: &mut [Loop<K>],
    side: usize,
    line: usize,
) -> Option<[usize; 2]> {
    match (tile, loops) {
        (Some(t), [.., a, b]) if tile_worth(a, b, side, line) => Some(t),
        (Some(_), [.., a, b]) => swap_rows(a, b, side, line),
        _ => None,
    }
}

/// An untiled block `outer × inner` whose rows are short ([`rows_swap`]; `outer` a source's
/// fastest loop) with its two loops swapped, and its tile when the long rows it now has are
/// [`tile_worth`] (a row of 8886 `f64` written a line apart, 4 rows read 8886 apart: 4
/// passes over 568 KB of destination lines untiled); `None` (the loops as they were) for any
/// other block. The one rule of both planners after [`tile_worth`] said no.
pub(super) const fn swap_rows<const K: usize>(
    outer: &mut Loop<K>,
    inner: &mut Loop<K>,
    side: usize,
    line: usize,
) -> Option<[usize; 2]> {
    if !rows_swap(outer, inner, side) {
        return None;
    }
    core::mem::swap(outer, inner);
    if !interleaves(outer, inner) && tile_worth(outer, inner, side, line) {
        // The rows are the short loop's (fewer than `TILE_MIN_EXTENT`), whole: a tile holds
        // as many elements as a square one, in longer runs of the row loop, as long as a
        // run's lines stay in [`ELEMENT_ROW_BYTES`] for the next row to find them cached.
        let ta = outer.extent;
        let square = match side.saturating_mul(side).checked_div(ta) {
            Some(r) if r > side => r,
            _ => side,
        };
        let cached = match (ELEMENT_ROW_BYTES / LINE_BYTES)
            .saturating_mul(line)
            .checked_div(line_elements(inner, line))
        {
            Some(r) if r > side => r,
            _ => side,
        };
        let run = if square < cached { square } else { cached };
        let tb = if run < inner.extent {
            run
        } else {
            inner.extent
        };
        return Some([ta, tb]);
    }
    None
}

/// Whether an untiled block `outer × inner`, where `outer` is a source's fastest loop (what
/// [`tile`] put there), runs faster with `outer` inside: when the block holds more than one
/// tile and `inner` is shorter than [`TILE_MIN_EXTENT`] while `outer` is longer. Each row
/// then costs its set-up for a few elements (rows of 3 `f32` in a 16 x 7 x 1012 block ran
/// at 0.74x the plain loop), while rows of `outer` read their source in consecutive runs and
/// stride through the destination, whose lines the next loop out finds again. Blocks of one
/// tile or less (a small transpose) keep their order: their block kernels take them whole.
/// The one rule: the general builder's nests and the two-loop nests of the run-time
/// `copy()`.
pub(super) const fn rows_swap<const K: usize>(
    outer: &Loop<K>,
    inner: &Loop<K>,
    side: usize,
) -> bool {
    inner.extent < TILE_MIN_EXTENT
        && outer.extent > inner.extent
        && outer.extent.saturating_mul(inner.extent) > side.saturating_mul(side)
}

/// The shortest loop a tile cuts while the block's rows fit [`ROW_CACHE_BYTES`].
const TILE_MIN_EXTENT: usize = 8;

/// The most bytes of cache lines one row of a block may touch, over all operands, for the
/// next row to find them still cached (half a 512 KiB L2): past it, a block is tiled even
/// when a loop is short.
const ROW_CACHE_BYTES: usize = 256 << 10;

/// The most bytes of cache lines one row of a block of long loops that no transpose kernel
/// takes (a loop where no operand steps one element) may touch for the block to run untiled
/// (half a 32 KiB L1): the next row finds them in the first-level cache, so tiles of element
/// loops would add only their set-up.
const ELEMENT_ROW_BYTES: usize = 16 << 10;

/// Whether a block `outer × inner` (`inner` the rows) is worth cutting into tiles of
/// `side × side` for elements of `line` a cache line: it holds more than one tile, and
/// either neither loop is shorter than [`TILE_MIN_EXTENT`] and each has an operand that
/// steps one element (a transpose kernel's block), or a row's lines overflow
/// [`ELEMENT_ROW_BYTES`] (neither loop short) or [`ROW_CACHE_BYTES`] (one short). A block of
/// a few rows whose lines stay cached (4 rows of 566 elements) already reuses each source
/// line row after row; cut into tiles of a few elements a row it pays a block's set-up per
/// tile and spreads its stores over as many streams as rows (measured: 1.5x slower on such
/// an 8-byte copy). A block of long loops that only element loops take gains nothing from
/// tiles while its rows' lines stay in the first-level cache and its rows' pages in the
/// first-level TLB (a 3856 x 46 block of `u16`: 1.18x the plain loop tiled, 2.26x untiled);
/// past [`ROW_PAGES`] pages a row it is tiled (a 960 x 175 block of `f64` read 2 and 1920
/// apart, written 350 and 1 apart: 0.84-1.07x the plain loop untiled, 1.2-1.5x tiled, over
/// 6 alternating processes). The one tiling rule: the general planner's nests and the
/// two-loop nests of the run-time `copy()`.
pub(super) const fn tile_worth<const K: usize>(
    outer: &Loop<K>,
    inner: &Loop<K>,
    side: usize,
    line: usize,
) -> bool {
    if outer.extent.saturating_mul(inner.extent) <= side.saturating_mul(side) {
        return false;
    }
    let long = outer.extent >= TILE_MIN_EXTENT && inner.extent >= TILE_MIN_EXTENT;
    if long && unit_step(outer) && unit_step(inner) {
        return true;
    }
    let per = line_elements(inner, line);
    let bytes =
        inner
            .extent
            .saturating_mul(per)
            .saturating_mul(match LINE_BYTES.checked_div(line) {
                Some(b) => b,
                None => 1,
            });
    bytes
        > if long {
            ELEMENT_ROW_BYTES
        } else {
            ROW_CACHE_BYTES
        }
        || (long && row_pages(inner, line) > ROW_PAGES)
}

/// Whether, in some operand, the rows `outer` are the consecutive channels of pixels `inner`
/// steps over, `outer.extent` elements apart: the rows of the block fill that operand's
/// lines between them, pass after pass, as a tile's rows would (planar into 7 interleaved
/// channels of `f64`: 0.85-1.2x the plain loop in tiles, 1.6x untiled).
const fn interleaves<const K: usize>(outer: &Loop<K>, inner: &Loop<K>) -> bool {
    let mut k = 0;
    while k < K {
        let (a, b) = (
            stride_or_0(get(&outer.strides, k)).unsigned_abs(),
            stride_or_0(get(&inner.strides, k)).unsigned_abs(),
        );
        if a == 1 && b == outer.extent {
            return true;
        }
        k = k.saturating_add(1);
    }
    false
}

/// The lines a step of `l` touches, in elements of `line` a cache line: over all operands,
/// `|stride|` elements where they are closer than a line, a line where farther.
const fn line_elements<const K: usize>(l: &Loop<K>, line: usize) -> usize {
    let mut per = 0usize;
    let mut rest: &[isize] = &l.strides;
    while let [s, tail @ ..] = rest {
        let v = s.unsigned_abs();
        per = per.saturating_add(if v < line { v } else { line });
        rest = tail;
    }
    per
}

/// The size of a page, for [`row_pages`]: the smallest the targets with memory management
/// use.
const PAGE_BYTES: usize = 4096;

/// The most pages one row of a block of long loops may touch, over all operands, for the
/// block to run whole: past it a row's translations no longer stay in the TLB's first levels
/// until the next row, each element of a row misses them, row after row, and tiles keep a
/// tile's pages there. Measured on random copies, the row's pages the only difference: a
/// 960 x 175 block of `f64` read 1920 apart (176 pages a row) 1.2-1.8x faster in tiles; of
/// 14 blocks of 49 to 96 pages a row, 13 faster whole (`f64` rows of 61 pages: 0.68x the
/// plain loop tiled, 1.1x whole); of 7 of 97 to 160 pages, 6 faster tiled.
const ROW_PAGES: usize = 96;

/// The pages one row of `l` touches, over all operands (elements of `line` a cache line):
/// a page an element where an operand's step is a page or more, else the pages its span
/// covers.
const fn row_pages<const K: usize>(l: &Loop<K>, line: usize) -> usize {
    let item = match LINE_BYTES.checked_div(line) {
        Some(b) => b,
        None => 1,
    };
    let mut pages = 0usize;
    let mut rest: &[isize] = &l.strides;
    while let [s, tail @ ..] = rest {
        let step = s.unsigned_abs().saturating_mul(item);
        pages = pages.saturating_add(if step >= PAGE_BYTES {
            l.extent
        } else {
            // The span's pages, plus one for a span that straddles a page boundary.
            match l.extent.saturating_mul(step).checked_div(PAGE_BYTES) {
                Some(p) => p.saturating_add(1),
                None => 1,
            }
        });
        rest = tail;
    }
    pages
}

/// Whether some operand steps one element per step of `l`.
const fn unit_step<const K: usize>(l: &Loop<K>) -> bool {
    let mut rest: &[isize] = &l.strides;
    while let [s, tail @ ..] = rest {
        if s.unsigned_abs() == 1 {
            return true;
        }
        rest = tail;
    }
    false
}

/// `loops[i] = l` (nothing past the end), field by field: a whole-`Loop` store from one
/// element of the array into another is compiled to a `memmove` call (the optimiser cannot
/// tell the two apart), which links 1.5 KB on a Cortex-M.
const fn put<const K: usize>(loops: &mut [Loop<K>], i: usize, l: Loop<K>) {
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

/// [`tile`] of a nest of two loops, `outer` outside `inner`: `Some` tile when a source's
/// fastest loop (smallest nonzero `|stride|`, the inner of equals) is `outer` while `inner`
/// moves it; `None` as soon as a source moves in neither loop. Two loops never move.
pub(super) const fn tile2<const K: usize>(
    outer: &Loop<K>,
    inner: &Loop<K>,
    side: usize,
) -> Option<[usize; 2]> {
    let mut k = 1;
    while k < K {
        let a = stride_or_0(get(&outer.strides, k)).unsigned_abs();
        let b = stride_or_0(get(&inner.strides, k)).unsigned_abs();
        if a == 0 && b == 0 {
            return None;
        }
        if a != 0 && b != 0 && a < b {
            let ta = if side < outer.extent {
                side
            } else {
                outer.extent
            };
            let tb = if side < inner.extent {
                side
            } else {
                inner.extent
            };
            return Some([ta, tb]);
        }
        k = k.saturating_add(1);
    }
    None
}

/// The largest 2-D block (elements of the two innermost loops) [`group`] regroups: a larger
/// one pays its set-up over enough elements already.
const GROUP_BLOCK: usize = 64;

/// The cache lines of the source's run [`group`] aims for in its innermost loops.
const GROUP_LINES: usize = 4;

/// The most cache lines one group tile may touch, over both operands (32 KiB, the
/// first-level data cache of the hosts measured), for its lines to stay cached while it
/// runs.
const GROUP_MAX_LINES: usize = 512;

/// The fewest elements of the destination's group for [`group`] to regroup: each reads its
/// own stream of the source, and up to this many the hardware prefetchers follow them all in
/// the builder's order (a group of 10: 1.25x slower regrouped; one of 40: 2.2-2.5x faster).
const GROUP_STREAMS: usize = 16;

/// The most divisors [`group`] tries when it cuts a loop (the nearest to its aim first), so
/// that planning at run time stays a few hundred cycles.
const GROUP_TRIES: usize = 32;

/// Group tiling of a copy (two operands) whose loops fall into two disjoint groups, the
/// destination's fast loops (a stride below a cache line in the destination) and the
/// source's (below a line in the source), when the builder's order (the destination's
/// fastest loops innermost) leaves 2-D blocks of a few elements ([`GROUP_BLOCK`]) and the
/// two-loop tile of [`tile`] found nothing to cut: a transposition between two groups of
/// loops, each of which [`merge`] could not make one. The loops are reordered into the
/// other loops, then the destination's group, then the source's (its slowest loop cut to a
/// divisor of its extent so that the run covers about [`GROUP_LINES`] lines): each tile
/// reads whole lines of the source and writes each line of the destination whole before it
/// leaves ([`GROUP_MAX_LINES`]), in blocks of tens of elements. Returns the new depth
/// (`depth + 1` with a loop cut, `depth` unchanged when nothing is regrouped: a loop fast in
/// both operands, no divisor near the aim among [`GROUP_TRIES`], no room for one more loop,
/// or a tile past [`GROUP_MAX_LINES`]).
///
/// The sweep's case 106 (`f64`, loops of 7018, 10, 2 and 4 steps, the source fast in the
/// first and third, the destination in the others): 2-D blocks of 8 elements became blocks
/// of 22, the source read in runs of 22.
const fn group<const K: usize>(all: &mut [Loop<K>], depth: usize, line: usize) -> usize {
    if K != 2 || depth < 3 || depth >= all.len() {
        return depth;
    }
    let Some((loops, _)) = all.split_at_checked(depth) else {
        return depth;
    };
    match group_cut(loops, line) {
        Some((fast, steps)) => regroup(all, depth, fast, steps, line),
        None => depth,
    }
}

/// Where [`group`] cuts `loops` (a copy's, in the builder's order): the source's slowest
/// fast loop and the steps of it kept inside, or `None` to keep the order.
const fn group_cut<const K: usize>(loops: &[Loop<K>], line: usize) -> Option<(usize, usize)> {
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
        let (near_d, near_s) = (near_dst(ds, line), near_src(ss, line));
        // A loop fast in both, or an innermost loop the destination does not lead: the
        // order is not the one this regroups.
        if (near_d && near_s) || (!near_d && i.saturating_add(1) == loops.len()) {
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
    // The cut: steps of the loop inside, so that the span of the source's group, those steps
    // of its largest stride, covers about `GROUP_LINES` lines.
    let sf = abs_stride(loops, fi, 1);
    let aim = match GROUP_LINES.saturating_mul(line).checked_div(sf) {
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
    // Lines of a tile: each of the destination group's elements reads its own span of the
    // source, and each of the source group's elements writes the destination group's lines.
    let lines = pd
        .saturating_mul(lines_of(steps.saturating_mul(sf), line))
        .saturating_add(steps.saturating_mul(ps).saturating_mul(lines_of(pd, line)));
    if lines > GROUP_MAX_LINES {
        return None;
    }
    Some((fi, steps))
}

/// [`group`]'s new order of `all[..depth]`: loop `fast` cut into its outer part (at its
/// place) and `steps` steps of it (appended), then every loop sorted by class, outermost
/// first: the other loops, the outer part, the destination's group, the inner part, the
/// source's other fast loops (by stride, largest outermost). Returns the new depth.
const fn regroup<const K: usize>(
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
    let mut class = [0u8; MAX_LOOPS];
    let mut i = 0;
    while i < depth {
        let (ds, ss) = (abs_stride(all, i, 0), abs_stride(all, i, 1));
        let c = if i == fast {
            1
        } else if near_dst(ds, line) {
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

/// The largest 2-D block (elements of the two innermost loops) [`long_inside`] takes for
/// tiny.
const TINY_BLOCK: usize = 8;

/// The fewest steps of a loop [`long_inside`] moves inside.
const LONG_LOOP: usize = 16;

/// When the two innermost loops of an untiled nest make a block of at most [`TINY_BLOCK`]
/// elements, moves the innermost loop of at least [`LONG_LOOP`] steps whose every stride is
/// below a line (`line` elements) to the innermost place (the loops between shift out by
/// one): rows of it then read and write consecutive lines.
const fn long_inside<const K: usize>(loops: &mut [Loop<K>], line: usize) {
    let count = loops.len();
    let tiny = match &*loops {
        [.., a, b] => a.extent.saturating_mul(b.extent) <= TINY_BLOCK,
        _ => false,
    };
    if !tiny {
        return;
    }
    let mut i = count.saturating_sub(2);
    while let Some(p) = i.checked_sub(1) {
        i = p;
        let Some(cand) = get(loops, i) else {
            return;
        };
        let mut near = true;
        let mut op = 0;
        while op < K {
            if abs_stride(loops, i, op) >= line {
                near = false;
            }
            op = op.saturating_add(1);
        }
        if cand.extent >= LONG_LOOP && near {
            let mut j = i;
            while j.saturating_add(1) < count {
                swap(loops, j, j.saturating_add(1));
                j = j.saturating_add(1);
            }
            return;
        }
    }
}

/// Whether a destination stride of `|stride|` elements makes a loop of [`group`]'s
/// destination group: it moves, at most a line (`line` elements) a step (a loop a line apart
/// continues the run of the loops inside it).
const fn near_dst(stride: usize, line: usize) -> bool {
    stride != 0 && stride <= line
}

/// Whether a source stride of `|stride|` elements makes a loop of [`group`]'s source group: it
/// moves, within a line a step (the span [`group`] cuts is contiguous lines).
const fn near_src(stride: usize, line: usize) -> bool {
    stride != 0 && stride < line
}

/// `ceil(elements / line)`, at least 1.
const fn lines_of(elements: usize, line: usize) -> usize {
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

/// Flips `l` when it runs backwards (or stands still) in every operand: each stride negated
/// and each operand's offset moved to the loop's last step ([`Builder::finish`]'s first pass).
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
const fn all_nonpositive_some_negative(strides: &[isize]) -> bool {
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

/// `outer` and `inner` as one loop, when `outer`'s stride is `inner`'s times its extent in
/// every operand.
pub(super) const fn merge<const K: usize>(outer: &Loop<K>, inner: &Loop<K>) -> Option<Loop<K>> {
    let (mut os, mut is): (&[isize], &[isize]) = (&outer.strides, &inner.strides);
    while let ([o, ot @ ..], [i, it @ ..]) = (os, is) {
        match mul(*i, inner.extent) {
            Ok(p) if p == *o => {}
            _ => return None,
        }
        (os, is) = (ot, it);
    }
    match outer.extent.checked_mul(inner.extent) {
        Some(extent) => Some(Loop {
            extent,
            strides: inner.strides,
        }),
        None => None,
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
const LINE_BYTES: usize = 64;

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
const fn weights<const K: usize>(l: &Loop<K>, cap: usize) -> (usize, Weight) {
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

/// `|stride|` of operand `k` in loop `i` (0 past the end).
const fn abs_stride<const K: usize>(loops: &[Loop<K>], i: usize, k: usize) -> usize {
    match get(loops, i) {
        Some(l) => stride_or_0(get(&l.strides, k)).unsigned_abs(),
        None => 0,
    }
}

/// When a source's fastest loop (of the first `depth`) is not the innermost one, moves it just
/// outside the innermost (shifting the loops between it and there out by one) and returns the
/// tile.
const fn tile<const K: usize>(
    loops: &mut [Loop<K>],
    depth: usize,
    side: usize,
) -> Option<[usize; 2]> {
    let Some(inner) = depth.checked_sub(1) else {
        return None;
    };
    let Some(second) = inner.checked_sub(1) else {
        return None;
    };
    let mut k = 1;
    while k < K {
        // The loop with the smallest nonzero `|stride|` for operand `k`, the innermost of
        // equals.
        let mut fastest = None;
        let mut i = 0;
        while i < depth {
            let s = abs_stride(loops, i, k);
            if s != 0 {
                fastest = match fastest {
                    Some(f) if abs_stride(loops, f, k) < s => Some(f),
                    _ => Some(i),
                };
            }
            i = i.saturating_add(1);
        }
        let Some(fastest) = fastest else {
            return None;
        };
        let (at_inner, at_fastest) = (abs_stride(loops, inner, k), abs_stride(loops, fastest, k));
        if fastest != inner && at_inner != 0 && at_fastest < at_inner {
            let Some(moved) = get(loops, fastest) else {
                return None;
            };
            let mut i = fastest;
            while i < second {
                let next = i.saturating_add(1);
                if let Some(l) = get(loops, next) {
                    set(loops, i, l);
                }
                i = next;
            }
            set(loops, second, moved);
            let (Some(a), Some(b)) = (get(loops, second), get(loops, inner)) else {
                return None;
            };
            let ta = if side < a.extent { side } else { a.extent };
            let tb = if side < b.extent { side } else { b.extent };
            return Some([ta, tb]);
        }
        k = k.saturating_add(1);
    }
    None
}
