//! Tiling: the tile side for an element size, the one rule for whether a block is worth
//! tiles ([`tile_worth`], with the transposes' blocks that run whole: [`short_whole`] in
//! the plan, [`walk_whole`] where the element type is the transposes'), which loops a tile
//! cuts ([`tile`], [`tile2`]), the strips of a block whose rows read many far streams
//! ([`stream_strip`]), the rows of a short loop past the first-level cache
//! ([`SHORT_ROW_BYTES`], [`rows_stream`]), the swap of a block's short rows for its long
//! loop ([`rows_swap`], [`swap_rows`]), the long loop taken over short ones into the
//! block of rows that crowd their cache sets ([`long_over_short`]), and else the short loop
//! taken back inside such rows ([`short_back`]; in blocks of one tile or less that loops
//! outside repeat, [`small_back`]; for three operands, tiles whose rows are a whole short
//! loop, [`few_rows_inside`]).

use super::group::lines_of;
use super::operands::stride_or_0;
use super::order::{LINE_BYTES, SHORT_INNER, line_for, sink};
use super::sets::{L1_WAYS, L2_WAY_BYTES, L2_WAYS, crowds, l2_set_lines, set_lines};
use super::{Loop, TILE_BYTES};
use crate::algo::access::{get, set};

/// The largest power of two `p` with `p² · itemsize <= TILE_BYTES` (at least 1).
pub(super) const fn tile_side(itemsize: usize) -> usize {
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
pub(super) const SIDES: [usize; 5] = [
    tile_side(1),
    tile_side(2),
    tile_side(4),
    tile_side(8),
    tile_side(16),
];

/// [`tile_side`] from [`SIDES`] when `itemsize` is there (every primitive), so planning at
/// run time does not loop for it.
pub(crate) const fn side_for(itemsize: usize) -> usize {
    if itemsize.is_power_of_two() {
        if let Some(side) = get(&SIDES, itemsize.trailing_zeros() as usize) {
            return side;
        }
    }
    tile_side(itemsize)
}

/// A block whose rows read many far streams in strips ([`stream_strip`]), else `tile` (of
/// [`tile`]), or `None` when the block of the two innermost of `loops` is not
/// [`tile_worth`]: it runs whole, and a prepared run of a small transpose or a planar <->
/// interleaved block loops once; an untiled block whose rows are short ([`rows_swap`]) runs
/// with its two loops swapped.
pub(super) const fn untiled_small<const K: usize>(
    tile: Option<[usize; 2]>,
    loops: &mut [Loop<K>],
    side: usize,
    line: usize,
) -> Option<[usize; 2]> {
    match (tile, loops) {
        (Some(t), [.., a, b]) => match stream_strip(a, b, line) {
            Some(strip) => Some(strip),
            None if tile_worth(a, b, side, line) => Some(t),
            None => swap_rows(a, b, side, line),
        },
        _ => None,
    }
}

/// An untiled block `outer × inner` whose rows are short ([`rows_swap`]; `outer` a source's
/// fastest loop) with its two loops swapped, and its tile when the long rows it now has are
/// [`tile_worth`] (a row of 8886 `f64` written a line apart, 4 rows read 8886 apart: 4
/// passes over 568 KB of destination lines untiled); `None` (the loops as they were) for any
/// other block; a block [`short_whole`] runs whole with its short loop innermost. The one
/// rule of both planners after [`tile_worth`] said no.
pub(super) const fn swap_rows<const K: usize>(
    outer: &mut Loop<K>,
    inner: &mut Loop<K>,
    side: usize,
    line: usize,
) -> Option<[usize; 2]> {
    if short_whole(outer, inner, line) {
        // The short loop innermost (it may be there already).
        if outer.extent < inner.extent {
            core::mem::swap(outer, inner);
        }
        return None;
    }
    if !rows_swap(outer, inner, side) {
        return None;
    }
    core::mem::swap(outer, inner);
    if !interleaves(outer, inner) && tile_worth(outer, inner, side, line) {
        // The rows are the short loop's (fewer than `TILE_MIN_EXTENT`), whole.
        let ta = outer.extent;
        return Some([ta, run_side(outer, ta, inner, side, line)]);
    }
    None
}

/// The row side of a tile of `rows` rows (steps of `outer`) of `inner` (elements of `line` a
/// cache line), for tiles `side` a side: `side`, at most `inner`'s extent; where the rows are
/// a short loop whole (fewer than [`TILE_MIN_EXTENT`]), as many elements as a square tile
/// holds, in longer runs of `inner`, as long as a run's lines stay in [`ELEMENT_ROW_BYTES`]
/// for the next row to find them cached (never under `side`). A tile of 2 rows of 32 `u32`
/// pays a block's set-up per 64 elements; of 2 rows of 512, per 1024. Not for the channel
/// kernels' blocks (the rows the consecutive channels of `inner`'s pixels, [`interleaves`],
/// the pixels running the same way in both operands, [`same_way`], and one element a step in
/// one of them, [`unit_step`]: two channels of `f64` and `u16` ran 1.1-1.2x slower in longer
/// tiles; pixels read backwards into planes, which no channel kernel takes, 0.27-0.97x in
/// longer tiles, 14 plans of eleven sweeps at 0.60x in geometric mean, seed 17's 1288 lifted
/// above the plain loop; channels into planes written a few elements a step, which no
/// channel kernel takes either, 17 plans of six random and five power-of-two sweeps at
/// 0.56-1.12x, the power-of-two 240's 54, two `u16` channels into planes written every other
/// element, 113 -> 64 us against NumPy's 86), nor for elements of
/// 8 bytes or more whose rows gather the source (its fastest loop the tile's columns, as
/// [`tile`] makes them) one element a line or sparser (`f64` rows of 2 to 6 read 48 to 336
/// bytes apart ran 1.3-1.7x slower in runs of 42 to 128 than of 16; read 32 bytes apart or
/// less, 0.49-1.03x). [`swap_rows`]' blocks, whose rows read the source's fastest loop, run
/// long for any element size. Measured on eleven 2,000-case sweeps (seeds 7, 11, 13, 17, 19,
/// 23, 29, 31, 37, 41 and 43), each case whose plan changes (86) timed alone with the builds
/// alternating (medians of five or seven): 0.85x the time in geometric mean (seed 19's 1310,
/// `u8` 2 rows of 154,370 read 4 apart, 0.30x; seed 7's 78, `u8` 5 rows read 10 apart, 0.48x;
/// seed 11's 1091, `f64` 2 rows read 32 bytes apart, 0.49x, lifted above the plain loop), the
/// slowest within 1.03x over nine rounds. In a block of element loops (not both loops
/// stepping one element somewhere: not a transpose's), a row of elements under 8 bytes is at
/// most the lines its cache sets hold ([`set_room`]): tiles of 32 `u16` rows read 8 KiB
/// apart, one set, kept 8 of each row's 32 lines (seed 7's power-of-two 755: 174 -> 38 us
/// in tiles of 32 x 8, against the plain loop's 71). On the sweep's power-of-two cases
/// (`--pow2`), each case whose plan changes timed alone with the builds alternating
/// (medians of five): seeds 7 and 13, from which the rule was drawn, 13 and 12 plans at
/// 0.45x and 0.42x the time in geometric mean; seeds 11 and 17, 22 and 10 plans at 0.39x
/// and 0.38x (seed 17's 1826, `u8`, 536 -> 89 us against the loop's 152), the slowest
/// seed 13's 278 at 1.08x; the 240 cases' 2 plans 0.49x. No plan of the random sweeps
/// changes. The same bound on 8-byte rows (16 to 8) ran up to 4x slower (seed 13's 1147).
/// The one rule of a tile's row side: [`tile`], [`tile2`] and [`swap_rows`].
pub(super) const fn run_side<const K: usize>(
    outer: &Loop<K>,
    rows: usize,
    inner: &Loop<K>,
    side: usize,
    line: usize,
) -> usize {
    // The source's (operand 1) fastest loop is the rows' ([`swap_rows`]'s blocks), not the
    // tile's columns ([`tile`]'s); else the rows gather it `along` elements a step.
    let along = stride_or_0(get(&inner.strides, 1)).unsigned_abs();
    let rows_read = along != 0 && along < stride_or_0(get(&outer.strides, 1)).unsigned_abs();
    let run = if rows < TILE_MIN_EXTENT
        && (line > line_for(8) || rows_read || along <= line / 2)
        && !(interleaves(outer, inner) && same_way(inner) && unit_step(inner))
    {
        let square = match side.saturating_mul(side).checked_div(rows) {
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
        if square < cached { square } else { cached }
    } else {
        side
    };
    // Elements under 8 bytes in an element block: at most the lines the row's cache sets
    // hold ([`set_room`]).
    let room = if line <= line_for(8) || (unit_step(outer) && unit_step(inner)) {
        usize::MAX
    } else {
        set_room(inner, line)
    };
    let run = if room < run { room } else { run };
    if run < inner.extent {
        run
    } else {
        inner.extent
    }
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

/// The shortest and the longest short side of a transpose block that [`short_whole`] runs
/// whole (the shortest for 2-byte elements; see [`SHORT_SIDE_WIDE`]).
pub(super) const SHORT_SIDES: [usize; 2] = [16, 64];

/// The shortest short side of a transpose block of 8-byte or wider elements that
/// [`short_whole`] runs whole: two rows of their 4 x 4 micro-kernel. Blocks of 8 to 15 such
/// rows leave an edge of up to three rows in every tile of the short side.
pub(super) const SHORT_SIDE_WIDE: usize = 8;

/// Whether a transpose block `outer × inner` (each loop steps one element in some operand)
/// runs faster whole than in tiles, its short loop innermost: its elements are 2 bytes, or 8
/// bytes or wider (`line`, the elements of a cache line, that of 2 bytes or at most that of
/// 8), one side is within [`SHORT_SIDES`] (from [`SHORT_SIDE_WIDE`] for 8 bytes or wider)
/// and the other longer; a block of 2-byte elements not one of the
/// channel kernels' (the short loop the consecutive channels of the long loop's pixels,
/// [`interleaves`], at most [`CHANNEL_BLOCK`] of them: 16 channels of `u16` between planes and
/// pixels, whose blocks keep the channels outside). Each row of the short loop then touches at
/// most 64 lines of the operand it strides through, which the next row (one element on)
/// finds in the first-level cache, so the whole block reads and writes each line once, as
/// tiles would, while the transposes of those sizes leave edges in every tile of a short
/// side (8-byte elements go 4 x 4 a micro-kernel, 2-byte ones in tiles of 32 a side).
/// Measured on the 2,000-case sweep, each case alone with the builds alternating: the 14
/// such blocks of 8 bytes ran 0.72-1.00x their time in tiles (geometric mean 0.83x: `f64`
/// `55 x 1344` 0.80x, `16 x 47678` 0.77x), the 19 of 2 bytes 0.63-1.22x (0.88x: `u16`
/// `18 x 31704` 0.63x); of 1 and 4 bytes, whose transposes take 16 x 16 and AVX2's 8 x 8
/// tiles, 0.69-1.62x, so they keep their tiles. 8-byte blocks with a short side of 8 to 15
/// (the bound was 16): of the 2,000-case sweeps of seeds 7, 11 and 12, the 42 plans that
/// change, timed alone with the builds alternating (medians of five), ran 0.92x their time
/// in geometric mean, 18 more than 1.1x faster (`f64` `8 x 4402` 0.52x, seed 12's `8 x 1183`
/// blocks 0.62x), the slowest 1.02-1.11x over nine rounds; with the bound at 4, 78 plans
/// ran 0.94x, those of sides 4 to 7 0.98x.
pub(super) const fn short_whole<const K: usize>(
    outer: &Loop<K>,
    inner: &Loop<K>,
    line: usize,
) -> bool {
    let (short, long) = if outer.extent < inner.extent {
        (outer, inner)
    } else {
        (inner, outer)
    };
    let [fewest, most] = SHORT_SIDES;
    let fewest = if line <= line_for(8) {
        SHORT_SIDE_WIDE
    } else {
        fewest
    };
    // 2-byte elements: not a block of the channel kernels (which take no 8-byte one past 4
    // channels).
    let channels = short.extent <= CHANNEL_BLOCK && interleaves(short, long);
    (line <= line_for(8) || (line == line_for(2) && !channels))
        && short.extent >= fewest
        && short.extent <= most
        && long.extent > most
        && unit_step(outer)
        && unit_step(inner)
}

/// The most bytes of lines one walk of a transpose block (the kernel's band along the
/// destination's rows, [`walk_whole`]) may touch, over both operands, for the block to run
/// whole: a 512 KiB second-level cache (the smallest of the hosts measured), so a band's
/// lines are still there for the next band.
pub(super) const WALK_BYTES: usize = 512 << 10;

/// Whether a tiled transpose block `outer × inner` (the destination steps one element
/// along one loop, the walk, and the source one element along the other) of 2-, 4- or
/// 8-byte elements (`line`, the elements of a cache line, that of 8 bytes to that of 2) runs
/// faster whole than in its tiles when the transposes take it (the element type is
/// theirs: the run-time choice, by type, in the copy's driver): on hosts, when the lines one
/// walk touches ([`walk_bytes`]) fit [`WALK_BYTES`] and it is not a block of the channel
/// kernels' shape ([`interleaves`], at most [`CHANNEL_BLOCK`] channels). The transposes
/// take a whole block in bands of their micro-kernel's rows along the source's consecutive
/// loop, each band walking the destination's rows, so a band reads the source lines of the
/// walk and the next band (a few elements on) finds them cached: the block reads and writes
/// each line about once, as tiles would, without a call and a kernel choice per tile. The
/// element loops that take the same block for other types keep the plan's tiles: a row of
/// theirs past the first-level cache would miss it element by element. Measured on the
/// 2,000-case sweep (seed 7), the 76 blocks this takes whole, each timed alone with the
/// builds alternating (medians of five): 0.85x their time in tiles in geometric mean, 40
/// more than 1.1x faster (`f64` `28 x 60` blocks of a rank-3 copy 933 -> 386 us; `u16` `8 x
/// 896` 92 -> 38 us), 12 more than 1.1x slower in that pass, of which the six slowest timed
/// again over nine runs: five even or faster, one 1.31x (`u32` `29019 x 23`, whose old time
/// is bimodal); none slower than the plain loop. Bytes keep their tiles (their 8 x 8
/// micro-kernel; byte transposes run whole in another order were up to 1.35x slower) unless
/// their destination's rows crowd the first-level sets ([`rows_crowd`]), and so do the
/// channel kernels' shapes (seven of the sweep's ran 0.6-1.5x whole). Bare metal keeps its
/// tiles (no cache to save, and a Cortex-M's copy would pay the test).
pub(crate) const fn walk_whole<const K: usize>(
    outer: &Loop<K>,
    inner: &Loop<K>,
    line: usize,
) -> bool {
    if cfg!(target_os = "none") || line < line_for(8) {
        return false;
    }
    let (walk, band) = match (transpose_walk(outer, inner), transpose_walk(inner, outer)) {
        (true, _) => (inner, outer),
        (_, true) => (outer, inner),
        _ => return false,
    };
    let channels = (band.extent <= CHANNEL_BLOCK && interleaves(band, walk))
        || (walk.extent <= CHANNEL_BLOCK && interleaves(walk, band));
    !channels
        && walk_bytes(walk, line) <= WALK_BYTES
        && (line <= line_for(2) || rows_crowd(band, line))
}

/// The most lines the first-level sets of a byte transpose's destination rows may hold for
/// [`rows_crowd`]: rows a power-of-two 2 KiB or more apart, in two sets or one.
pub(super) const BYTE_ROW_LINES: usize = 16;

/// Whether the destination's rows of a byte transpose (`band`, the loop the source steps one
/// element along, of `line` elements a cache line) crowd the first-level sets they map to:
/// they lie a power-of-two 2 KiB or more apart, so those sets keep at most [`BYTE_ROW_LINES`]
/// of their lines ([`set_lines`]), and there are more rows than that. Such a block runs
/// whole ([`walk_whole`]: bands of the micro-kernel's 8 rows, each along the whole walk),
/// which measured faster than the plan's tiles; why the tiles lose there is not
/// established. Measured on the byte transposes the plans tile in seven 2,000-case
/// power-of-two sweeps (seeds 7, 11, 13 and 17; drawn after the rule, 19, 23 and 41), each
/// timed alone with the builds alternating (medians of five): 0.85-0.94x the time per
/// sweep, the slowest 1.09x; seed 7's 402 (`u8` 32 rows written 4 KiB apart, a walk of
/// 2048) 16.3 -> 6.2 us. Rows 512 bytes or 1 KiB apart ran up to 1.6x slower whole, and
/// random strides 2 KiB or more apart (rows that drift across the sets) 1.15-1.68x, so both
/// keep their tiles: none of the 95 tiled byte transposes of two random 2,000-case sweeps
/// takes this.
const fn rows_crowd<const K: usize>(band: &Loop<K>, line: usize) -> bool {
    let apart = stride_or_0(get(&band.strides, 0))
        .unsigned_abs()
        .saturating_mul(item_bytes(line));
    crowds(band.extent, apart, BYTE_ROW_LINES)
}

/// Whether `walk` is a transpose's walk against `band`: the destination (operand 0) steps
/// one element along `walk` and a copy's source (operand 1) one along `band`.
pub(super) const fn transpose_walk<const K: usize>(band: &Loop<K>, walk: &Loop<K>) -> bool {
    K == 2 && stride_or_0(get(&walk.strides, 0)) == 1 && stride_or_0(get(&band.strides, 1)) == 1
}

/// The bytes of the lines one step of `l` along its whole extent touches, over all operands
/// (elements of `line` a cache line): [`line_elements`] of each step, times its extent.
pub(super) const fn walk_bytes<const K: usize>(l: &Loop<K>, line: usize) -> usize {
    l.extent
        .saturating_mul(line_elements(l, line))
        .saturating_mul(item_bytes(line))
}

/// The most channels a planar <-> interleaved block of the channel kernels holds (1-, 2- and
/// 4-byte elements): a block of that many consecutive channels or fewer ([`interleaves`]) is
/// theirs, whatever [`short_whole`] would make of it.
pub(super) const CHANNEL_BLOCK: usize = 16;

/// The shortest loop a tile cuts while the block's rows fit [`ROW_CACHE_BYTES`].
pub(super) const TILE_MIN_EXTENT: usize = 8;

/// The most bytes of cache lines one row of a block may touch, over all operands, for the
/// next row to find them still cached (half a 512 KiB L2): past it, a block is tiled even
/// when a loop is short (a block of a short loop whose rows neither are interleaved
/// channels nor already stream is tiled from [`SHORT_ROW_BYTES`]).
pub(super) const ROW_CACHE_BYTES: usize = 256 << 10;

/// The most bytes of cache lines one row of a block of long loops that no transpose kernel
/// takes (a loop where no operand steps one element) may touch for the block to run untiled
/// (half a 32 KiB L1): the next row finds them in the first-level cache, so tiles of element
/// loops would add only their set-up.
pub(super) const ELEMENT_ROW_BYTES: usize = 16 << 10;

/// Whether a block `outer × inner` (`inner` the rows) is worth cutting into tiles of
/// `side × side` for elements of `line` a cache line: it holds more than one tile, and
/// either neither loop is shorter than [`TILE_MIN_EXTENT`] and each has an operand that
/// steps one element (a transpose kernel's block, unless its short side runs whole,
/// [`short_whole`]; the transposes may still take it whole, [`walk_whole`]), or a row's
/// lines overflow [`ELEMENT_ROW_BYTES`] (neither loop short) or [`ROW_CACHE_BYTES`] (one
/// short), or, one loop short, [`SHORT_ROW_BYTES`] where the rows are not interleaved
/// channels ([`interleaves`]) and do not already stream ([`rows_stream`]), or, both long
/// and a tile shorter than a row ([`cuts_rows`]), where a row's lines overflow the cache
/// sets they map to ([`sets_overflow`]: rows read or written a power-of-two number of lines
/// apart), which
/// holds for a block of one tile's elements or fewer too: each row comes back to the lines
/// the last row left, which its own lines evicted from their few sets (the power-of-two
/// sweep's case 72, `u8` rows of 128 read 1 KiB apart, 32 rows 2 bytes on: 26 -> 7.8 us
/// against the plain loop's 24; the 26 plans it changes in six 2,000-case power-of-two
/// sweeps: 0.13-1.09x the time, 0.50-0.75x per sweep, five lifted above the loop; no random
/// sweep's plan changes). A block of a few
/// rows whose lines stay in the first-level cache already reuses each source line row after
/// row; cut into tiles of a few elements a row it pays a block's set-up per tile and spreads
/// its stores over as many streams as rows; rows that stream (4 rows of 566 `f64` written
/// in order, read 66 KB apart) ran 1.5-1.8x slower in tiles. A block of long loops that
/// only element loops take gains nothing from tiles while its rows' lines stay in the
/// first-level cache and its rows' pages in the first-level TLB (a 3856 x 46 block of
/// `u16`: 1.18x the plain loop tiled, 2.26x untiled); past [`ROW_PAGES`] pages a row it is
/// tiled (a 960 x 175 block of `f64` read 2 and 1920 apart, written 350 and 1 apart:
/// 0.84-1.07x the plain loop untiled, 1.2-1.5x tiled, over 6 alternating processes). The
/// one tiling rule: the general planner's nests and the two-loop nests of the run-time
/// `copy()`.
pub(super) const fn tile_worth<const K: usize>(
    outer: &Loop<K>,
    inner: &Loop<K>,
    side: usize,
    line: usize,
) -> bool {
    let long = outer.extent >= TILE_MIN_EXTENT && inner.extent >= TILE_MIN_EXTENT;
    // The cache-sets rule, for blocks of any size (bare metal: no cache to save, and a
    // Cortex-M's planner would grow).
    let crowded = long
        && !cfg!(target_os = "none")
        && sets_overflow(inner, line)
        && cuts_rows(outer, inner, side, line);
    if outer.extent.saturating_mul(inner.extent) <= side.saturating_mul(side) {
        return crowded;
    }
    if long && unit_step(outer) && unit_step(inner) {
        return !short_whole(outer, inner, line);
    }
    let per = line_elements(inner, line);
    let bytes = inner
        .extent
        .saturating_mul(per)
        .saturating_mul(item_bytes(line));
    bytes
        > if long {
            ELEMENT_ROW_BYTES
        } else {
            ROW_CACHE_BYTES
        }
        || (!long
            // Bare metal: no cache to save, and a Cortex-M's planner would grow.
            && !cfg!(target_os = "none")
            && bytes > SHORT_ROW_BYTES
            && !interleaves(outer, inner)
            && !rows_stream(inner, line))
        || (long && row_pages(inner, line) > ROW_PAGES)
        || crowded
}

/// Whether a tile of a block of long loops `outer × inner` is shorter than a row: its row
/// side ([`run_side`]: `side`, or for elements under 8 bytes at most the lines the row's
/// cache sets hold) below `inner`'s extent. A tile no shorter than a row changes nothing but
/// adds its set-up; rows of 32 `u16` read 4 KiB apart, one set, go 8 a tile row (the
/// power-of-two sweep's case 95, 2048 such rows two bytes on written every other element:
/// 241 -> 47 us against the plain loop's 197). Measured on the sweep's power-of-two cases,
/// each case whose plan changes timed alone with the builds alternating (medians of five):
/// 2,000-case sweeps of seeds 7, 13, 11, 17 and 19, 11, 10, 10, 16 and 12 plans at 0.34x,
/// 0.33x, 0.29x, 0.39x and 0.31x the time in geometric mean, the slowest 0.76x (seed 17's
/// 1935), none slower than the plain loop (seed 7's 632, 101 -> 25 us against the loop's 51;
/// seed 13's 1761, 1027 -> 167 us against 481). No plan of the random sweeps changes.
pub(super) const fn cuts_rows<const K: usize>(
    outer: &Loop<K>,
    inner: &Loop<K>,
    side: usize,
    line: usize,
) -> bool {
    run_side(outer, side, inner, side, line) < inner.extent
}

/// Whether one row of `l` (elements of `line` a cache line) touches, in some operand
/// stepping a line or more, more lines than the first-level cache's sets they map to can
/// hold ([`set_room`]): a row of `f64` read 1 KiB apart keeps 32 of its lines, whatever its
/// bytes. The next row, a few bytes on in the same lines, then misses
/// them all, though [`ELEMENT_ROW_BYTES`] counted them cached. (A stride of no whole number
/// of lines drifts across all the sets.) Random copies rarely have such strides; images and
/// tensors of power-of-two extents have them everywhere. Measured on the sweep's
/// power-of-two cases (`--pow2`), each case whose plan changes timed alone with the builds
/// alternating (medians of five or seven): the 240 cases' 3 plans 0.43x the time in
/// geometric mean (case 21, `f64` rows read 1 KiB apart, 50 -> 15 us against the plain
/// loop's 63); 2,000-case sweeps of seeds 7, 13, 11 and 17, 6, 8, 12 and 7 plans at 0.48x,
/// 0.42x, 0.45x and 0.42x, none slower (seed 13's 1147, `f64` rows of 64 read 8 KiB apart,
/// 120 -> 32 us against the loop's 117). Of the random sweeps', two plans of eight
/// 2,000-case sweeps change (seed 23's 558 0.39x, lifted above the loop). Without the bound
/// on the row (a tile no shorter than a row of 16 changes nothing but adds its set-up), 20
/// and 21 plans of seeds 7 and 13 at 0.81x and 0.73x with five at 1.18-1.30x.
pub(crate) const fn sets_overflow<const K: usize>(l: &Loop<K>, line: usize) -> bool {
    l.extent > set_room(l, line)
}

/// Whether one row of `l` (elements of `line` a cache line), the innermost loop of an untiled
/// nest of three operands or more (`zip_map`'s), steps the destination a line or more and,
/// with the other operands that do, touches half again as many lines as the first-level
/// sets they map to hold ([`set_lines`]): each such operand's lines counted as a share of its
/// sets' room, as if they all shared the sets (they do where their bases agree, hence the
/// half again). The next row comes back a few bytes on to the lines its row left, which the
/// row's own lines evicted: the destination's and a second source's each miss at every
/// element. Such a nest runs in the destination's order instead (`builder.rs`,
/// [`by_operand`](super::order::by_operand)): a source read across that order reads few
/// lines a row, which stay. Not on bare metal (no cache to save). Measured in one process
/// against the order before (two builds linked side by side, alternating, medians of 9),
/// `zip_map` with the destination and the second source alike: the block grid's three
/// plans that change (`f64` read across blocks of 32 x 3, 32 x 5 and 16 x 5, written
/// 640-1,280 bytes a step) 0.45-0.58x the time (32 x 3: 0.74x -> 1.8x the plain loop); of
/// 14,000 random rank-3 calls (seeds 7, 11, 13 and 17), the 7 plans that change
/// 0.05-0.54x (`f64` `[240, 34, 32]` read 8 bytes and written 60 KB apart: 2,966 -> 223 us
/// against the plain loop's 674). Counting a share past the room once (not half again),
/// blocks of 16 x 7 and 32 x 7 (1.13x the room) changed too and ran 1.03-1.1x slower.
pub(super) const fn crowds_destination<const K: usize>(l: &Loop<K>, line: usize) -> bool {
    if cfg!(target_os = "none") {
        return false;
    }
    let item = item_bytes(line);
    let Some(dst) = l.strides.first() else {
        return false;
    };
    if dst.unsigned_abs().saturating_mul(item) < LINE_BYTES {
        return false;
    }
    // Half again the room: `shares > 1.5 · SET_ROOM`.
    set_shares(l, line) > SET_ROOM.saturating_add(SET_ROOM / 2)
}

/// A first-level set's room, in the shares [`set_shares`] counts.
pub(crate) const SET_ROOM: usize = 64;

/// The lines one row of `l` (elements of `line` a cache line) touches in the operands that
/// step a line or more, each operand's counted as a share of the lines its sets hold
/// ([`set_lines`]), [`SET_ROOM`] shares a set's room: as if they all shared the sets (they
/// do where their bases agree).
pub(crate) const fn set_shares<const K: usize>(l: &Loop<K>, line: usize) -> usize {
    let item = item_bytes(line);
    let mut shares = 0usize;
    let mut rest: &[isize] = &l.strides;
    while let [s, tail @ ..] = rest {
        let bytes = s.unsigned_abs().saturating_mul(item);
        if bytes >= LINE_BYTES {
            let share = match l
                .extent
                .saturating_mul(SET_ROOM)
                .checked_div(set_lines(bytes))
            {
                Some(share) => share,
                None => 0,
            };
            shares = shares.saturating_add(share);
        }
        rest = tail;
    }
    shares
}

/// The fewest lines the first-level cache sets a row of `l` maps its lines to hold (elements
/// of `line` a cache line), over the operands stepping a line or more ([`set_lines`]: a
/// step of `2^t` lines, times an odd number, visits `64 / 2^t` of the 64 sets, one at 4 KiB,
/// each of 8 lines); `usize::MAX` where no operand steps a line, and on bare metal. The
/// bound of [`sets_overflow`], and of [`run_side`]'s rows of elements under 8 bytes.
pub(super) const fn set_room<const K: usize>(l: &Loop<K>, line: usize) -> usize {
    if cfg!(target_os = "none") {
        return usize::MAX;
    }
    let item = item_bytes(line);
    let mut room = usize::MAX;
    let mut rest: &[isize] = &l.strides;
    while let [s, tail @ ..] = rest {
        let bytes = s.unsigned_abs().saturating_mul(item);
        if bytes >= LINE_BYTES {
            let lines = set_lines(bytes);
            if lines < room {
                room = lines;
            }
        }
        rest = tail;
    }
    room
}

/// The most pages one row of a block may read a source's elements from, each on a page of
/// its own, for the block to run untiled when the next row reads on in the same lines
/// ([`stream_strip`]).
pub(super) const STREAMS: usize = 16;

/// The fewest bytes a source's stream must run along a whole `outer` for
/// [`stream_strip`] to cut its block in strips: shorter streams (most of them along a loop
/// of 2 to 9 steps) ran 1.14x slower in strips in geometric mean (40 plans of three
/// 2,000-case sweeps; `f64` 7 x 35 read 27,720 apart: 2.8x).
pub(super) const STREAM_RUN: usize = 1024;

/// The rows of a strip of [`stream_strip`] (strips of 2 to 16 `u32` rows ran alike on seed
/// 7's 1504, 0.5-0.7x its time untiled; whole tiles of 16 x 16, 1.1-1.4x).
pub(super) const STREAM_STRIP: usize = 8;

/// The tile of a block `outer × inner` (`inner` the rows, `outer` a source's fastest loop,
/// as [`tile`] and [`tile2`] make them) whose rows each read more than [`STREAMS`] elements
/// of that source a page or more apart while the next row reads on less than a line from
/// each, for at least [`STREAM_RUN`] bytes: `outer` whole by [`STREAM_STRIP`] of `inner`, so
/// the block runs in strips, each reading [`STREAM_STRIP`] of the source's streams from end
/// to end. Untiled, each row reads as many streams as it has elements, each a few bytes on
/// from the last row: more than a core's prefetchers follow, so a line of each is a miss
/// in full. Tiles of a side would stop each stream before its prefetch pays, so the strips
/// come before [`tile_worth`]'s rule of a row's pages ([`ROW_PAGES`]), which tiled such
/// blocks of many rows (seed 29's 1916, `f64` rows of 268 read 105 KB apart: 1.5 ms in
/// tiles of 16 x 16 against the plain loop's 0.6, 0.5 ms in strips over nine rounds; the 42
/// plans of seeds 7, 13 and 29 that change, 0.94x the time, the slowest seed 29's 884 1.3x
/// over nine). Not for a
/// block whose loops each step one element in some operand (the transposes',
/// [`tile_worth`]), nor for one whose destination writes its rows side by side with gaps
/// between their elements (each row's elements more than one apart, the rows no farther
/// apart than a row's span: 12 such plans of three sweeps ran 1.2x slower in strips, `f64`
/// rows of 29 written 2 apart 2.5x), nor on bare metal (no prefetchers to follow streams,
/// and the planner's code on a Cortex-M would grow). `None` for any other block. Measured
/// on 2,000-case sweeps, each case whose plan changes timed alone with the builds
/// alternating (medians of five): seeds 7, 11 and 13, from which the rule was drawn, 41
/// plans 0.83x the time in geometric mean (seed 7's 1504, `u32` rows of 44 read 63 KB apart
/// over 7933 steps of 8 bytes, 2.7 -> 1.3 ms over nine rounds against the plain loop's 2.1,
/// lifted above it); seeds 17, 19 and 23, drawn afterwards, 47 plans 0.91x (seed 23's 226
/// 0.25x); the slowest, over nine rounds, seed 19's 751 (`f64` rows of 25 read 41 KB apart,
/// 1.5x: 50 -> 76 us against the loop's 111) and 421 (`u8`, 1.4x), none slower than the
/// plain loop.
pub(super) const fn stream_strip<const K: usize>(
    outer: &Loop<K>,
    inner: &Loop<K>,
    line: usize,
) -> Option<[usize; 2]> {
    let (d_outer, d_inner) = (
        stride_or_0(get(&outer.strides, 0)).unsigned_abs(),
        stride_or_0(get(&inner.strides, 0)).unsigned_abs(),
    );
    if cfg!(target_os = "none")
        || inner.extent <= STREAMS
        || (unit_step(outer) && unit_step(inner))
        || (d_inner > 1 && d_outer <= inner.extent.saturating_mul(d_inner))
    {
        return None;
    }
    let item = item_bytes(line);
    let mut k = 1;
    while k < K {
        let (a, b) = (
            stride_or_0(get(&outer.strides, k)).unsigned_abs(),
            stride_or_0(get(&inner.strides, k)).unsigned_abs(),
        );
        if a != 0
            && a < line
            && far_step(b, line)
            && outer.extent.saturating_mul(a).saturating_mul(item) >= STREAM_RUN
        {
            return Some([outer.extent, STREAM_STRIP]);
        }
        k = k.saturating_add(1);
    }
    None
}

/// Whether `l` steps the same way in a copy's destination and source (operands 0 and 1), as
/// the channel kernels' pixels do.
pub(super) const fn same_way<const K: usize>(l: &Loop<K>) -> bool {
    let (d, s) = (
        stride_or_0(get(&l.strides, 0)),
        stride_or_0(get(&l.strides, 1)),
    );
    (d < 0) == (s < 0)
}

/// Whether, in some operand, the rows `outer` are the consecutive channels of pixels `inner`
/// steps over, `outer.extent` elements apart: the rows of the block fill that operand's
/// lines between them, pass after pass, as a tile's rows would (planar into 7 interleaved
/// channels of `f64`: 0.85-1.2x the plain loop in tiles, 1.6x untiled).
pub(super) const fn interleaves<const K: usize>(outer: &Loop<K>, inner: &Loop<K>) -> bool {
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
pub(super) const fn line_elements<const K: usize>(l: &Loop<K>, line: usize) -> usize {
    let mut per = 0usize;
    let mut rest: &[isize] = &l.strides;
    while let [s, tail @ ..] = rest {
        let v = s.unsigned_abs();
        per = per.saturating_add(if v < line { v } else { line });
        rest = tail;
    }
    per
}

/// The most bytes of cache lines one row of a block of a short loop (fewer than
/// [`TILE_MIN_EXTENT`] rows) may touch, over all operands, for the block to run untiled
/// (a 32 KiB first-level cache): past it the next row no longer finds the lines the rows
/// share there, so [`tile_worth`] tiles the block, unless its rows are interleaved channels
/// ([`interleaves`]: the channel kernels' shapes, 25 plans of three sweeps at 1.05x the time
/// in tiles, seed 7's 1574 1.45x) or already stream ([`rows_stream`]). Past
/// [`ROW_CACHE_BYTES`] every such block is tiled. Measured on 2,000-case sweeps, each case
/// whose plan changes timed alone with the builds alternating (medians of nine): seeds 7
/// and 13, from which the rule was drawn, 23 and 23 plans at 0.85x and 0.88x the time in
/// geometric mean (the 240-case sweep's 79, `f64` 4 rows of 555 read 256 bytes apart and
/// written 32 apart, 14.0 -> 8.8 us against the plain loop's 11.5, lifted above it); seeds
/// 11, 17, 19 and 23, drawn afterwards, 21, 27, 29 and 19 plans at 0.78x, 0.83x, 0.81x and
/// 0.79x; the slowest, seed 19's 289 (`f64` 5 rows of 840 read in order, written 240 bytes
/// apart, 8.4 MB), 1.26x over nine rounds (2.1 -> 2.7 ms, the loop 3.0). A bound of 16 KiB
/// changed 24 more plans at 0.98x.
pub(super) const SHORT_ROW_BYTES: usize = 32 << 10;

/// Whether the rows of `l` (a block's inner loop, elements of `line` a cache line) already
/// stream, so that tiles of a short loop's rows ([`SHORT_ROW_BYTES`]) would only cut their
/// streams: a step writes the destination (operand 0) one element on and reads every source
/// less than a line on (11 plans of three sweeps at 1.02x the time in tiles, seed 7's 231
/// 1.21x), or moves elements of 8 bytes or more, whose tiles of a short loop's rows gather
/// 16 a row ([`run_side`]), either writing the destination one element on (seed 13's
/// 1467, `f64` 2 rows read 3.5 KB apart: 1.75x in tiles) or reading a source a page or more
/// on (seed 17's 180, `f64` 2 rows read 67 KB apart: 1.23x; `u32` rows read 4.4 KB apart,
/// seed 13's 1433, ran 0.84x in tiles of 2 x 215).
pub(super) const fn rows_stream<const K: usize>(l: &Loop<K>, line: usize) -> bool {
    let unit = stride_or_0(get(&l.strides, 0)).unsigned_abs() == 1;
    let wide = line <= line_for(8);
    let (mut within, mut far) = (true, false);
    let mut k = 1;
    while k < K {
        let s = stride_or_0(get(&l.strides, k)).unsigned_abs();
        within = within && s < line;
        far = far || far_step(s, line);
        k = k.saturating_add(1);
    }
    (wide && (unit || far)) || (unit && within)
}

/// The bytes of an element of `line` a cache line ([`LINE_BYTES`] over `line`; 1 for `line`
/// 0): the one conversion of the tiling rules, which take elements a line.
pub(super) const fn item_bytes(line: usize) -> usize {
    match LINE_BYTES.checked_div(line) {
        Some(b) => b,
        None => 1,
    }
}

/// The size of a page, for [`row_pages`]: the smallest the targets with memory management
/// use.
pub(super) const PAGE_BYTES: usize = 4096;

/// Whether a step of `stride` elements (elements of `line` a cache line) leaves the page at
/// every step: a page or more. The one page bound of [`stream_strip`], [`rows_stream`] and
/// [`row_pages`].
pub(super) const fn far_step(stride: usize, line: usize) -> bool {
    stride.saturating_mul(item_bytes(line)) >= PAGE_BYTES
}

/// The most pages one row of a block of long loops may touch, over all operands, for the
/// block to run whole: past it a row's translations no longer stay in the TLB's first levels
/// until the next row, each element of a row misses them, row after row, and tiles keep a
/// tile's pages there. Measured on random copies, the row's pages the only difference: a
/// 960 x 175 block of `f64` read 1920 apart (176 pages a row) 1.2-1.8x faster in tiles; of
/// 14 blocks of 49 to 96 pages a row, 13 faster whole (`f64` rows of 61 pages: 0.68x the
/// plain loop tiled, 1.1x whole); of 7 of 97 to 160 pages, 6 faster tiled. Blocks whose
/// rows read many far streams, that 960 x 175 block among them, run in strips before this
/// rule is asked ([`stream_strip`]).
pub(super) const ROW_PAGES: usize = 96;

/// The pages one row of `l` touches, over all operands (elements of `line` a cache line):
/// a page an element where an operand's step is a page or more, else the pages its span
/// covers.
pub(super) const fn row_pages<const K: usize>(l: &Loop<K>, line: usize) -> usize {
    let item = item_bytes(line);
    let mut pages = 0usize;
    let mut rest: &[isize] = &l.strides;
    while let [s, tail @ ..] = rest {
        let step = s.unsigned_abs().saturating_mul(item);
        pages = pages.saturating_add(if far_step(s.unsigned_abs(), line) {
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
pub(super) const fn unit_step<const K: usize>(l: &Loop<K>) -> bool {
    let mut rest: &[isize] = &l.strides;
    while let [s, tail @ ..] = rest {
        if s.unsigned_abs() == 1 {
            return true;
        }
        rest = tail;
    }
    false
}

/// [`tile`] of a nest of two loops, `outer` outside `inner`: `Some` tile (its row side
/// [`run_side`]) when a source's fastest loop (smallest nonzero `|stride|`, the inner of
/// equals) is `outer` while `inner` moves it, or, no source's being so, the destination's
/// as [`tile`] takes it; `None` as soon as a source moves in neither loop. Two loops never
/// move.
pub(super) const fn tile2<const K: usize>(
    outer: &Loop<K>,
    inner: &Loop<K>,
    side: usize,
    line: usize,
) -> Option<[usize; 2]> {
    // The sources (operands 1 to `K - 1`), then the destination.
    let mut turn = 1;
    while turn <= K {
        let k = if turn < K { turn } else { 0 };
        turn = turn.saturating_add(1);
        let a = stride_or_0(get(&outer.strides, k)).unsigned_abs();
        let b = stride_or_0(get(&inner.strides, k)).unsigned_abs();
        if a == 0 && b == 0 {
            return None;
        }
        if a != 0 && b != 0 && a < b && (k != 0 || (b >= line && a < line)) {
            let ta = if side < outer.extent {
                side
            } else {
                outer.extent
            };
            return Some([ta, run_side(outer, ta, inner, side, line)]);
        }
    }
    None
}

/// `|stride|` of operand `k` in loop `i` (0 past the end).
pub(super) const fn abs_stride<const K: usize>(loops: &[Loop<K>], i: usize, k: usize) -> usize {
    match get(loops, i) {
        Some(l) => stride_or_0(get(&l.strides, k)).unsigned_abs(),
        None => 0,
    }
}

/// When a source's fastest loop (of the first `depth`) is not the innermost one, moves it just
/// outside the innermost (shifting the loops between it and there out by one) and returns the
/// tile: at most `side` of the moved loop, and [`run_side`] of the innermost. No source's
/// being so, the destination's fastest loop, where it steps less than a line (`line`
/// elements) and the innermost a line or more: the innermost then writes a new line a step,
/// which the next steps of the other loop fill (seed 19's 2,000-case sweep's 43, `f64` rows
/// of 461 read in order and written 3 KB apart, 64 rows 48 bytes on: 96 us untiled against
/// the plain loop's 15, 16 us in tiles of 16 x 16). Measured on eight 2,000-case sweeps
/// (seeds 7, 11, 13, 17, 19, 23, 29, 31), the 11 plans that change, each timed alone with
/// the builds alternating (medians of nine): 0.79x the time in geometric mean, 0.92x
/// without 43 (seed 13's 141 0.72x and seed 31's 1031 0.83x, lifted above the loop), the
/// slowest seed 17's 1466 (1.09x). Without the line bounds, 36 plans of seed 19 changed,
/// 0.99x, the channel kernels' rows and rows written within lines losing up to 1.6x.
pub(super) const fn tile<const K: usize>(
    loops: &mut [Loop<K>],
    depth: usize,
    side: usize,
    line: usize,
) -> Option<[usize; 2]> {
    if let Some((nest, _)) = loops.split_at_mut_checked(depth) {
        if let Some(t) = long_over_short(nest, side, line) {
            return Some(t);
        }
    }
    let Some(inner) = depth.checked_sub(1) else {
        return None;
    };
    let Some(second) = inner.checked_sub(1) else {
        return None;
    };
    // The sources (operands 1 to `K - 1`), then the destination.
    let mut turn = 1;
    while turn <= K {
        let k = if turn < K { turn } else { 0 };
        turn = turn.saturating_add(1);
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
        if fastest != inner
            && at_inner != 0
            && at_fastest < at_inner
            && (k != 0 || (at_inner >= line && at_fastest < line))
        {
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
            return Some([ta, run_side(&a, ta, &b, side, line)]);
        }
    }
    None
}

/// The most lines the first-level sets a row's lines map to may hold for [`long_over_short`]
/// to take its block: lines a power-of-two multiple of 8 lines apart, in 8 of the 64 sets
/// or fewer. Rows in 16 or 32 sets (2 or 4 lines apart times an odd number, as random
/// strides often are) overflow by capacity more than by conflict, and their short loops'
/// cubes already run in strips that fit the sets (`raw::cube_strip`): of three random
/// 2,000-case sweeps' 10 plans the rule changed at any room, 8 ran 1.3-2.4x slower.
pub(super) const CROWDED_LINES: usize = 64;

/// When the innermost loop of `loops` is long and its rows overflow the cache sets their
/// lines map to ([`sets_overflow`]) in some operand in which the loops just outside it,
/// short ones (fewer than [`TILE_MIN_EXTENT`] steps) and the first long one out, each step
/// less than a line, moves that long loop just outside the innermost (the short loops
/// shift out by one) and returns the tile of the two ([`tile2`]), its rows at most the
/// lines their sets hold ([`set_room`], for every element size), where the block they make
/// is [`tile_worth`] and the tile's columns fit their sets ([`columns_fit`]); `None`, the
/// loops untouched, for any other nest. Asked before [`tile`] moves a source's fastest
/// loop inside, and again on the nest as the tiling left it where [`untiled_small`] left it
/// untiled (its short rows swapped for their long loop, [`swap_rows`]) or tiled with the
/// rows of a short loop (seed 7's power-of-two 477, `f64` rows of 512 written 16 KiB apart
/// in tiles of 2 x 128: 3.5 -> 1.3 ms against the plain loop's 2.1; of six power-of-two
/// sweeps' 14 plans that this last asking changes, 0.73x the time in geometric mean, five
/// lifted above the loop, the slowest seed 17's 1711 2.6x, 46 -> 122 us against 507). Each step of the short loops and of the
/// long one comes back to the lines the row left, which its own lines evicted from their
/// few sets: untiled, every access of that operand misses the first-level cache; with the
/// long loop in the block's tiles each line serves the tile's steps, and the short loops,
/// now outside, come back to it once a pass. Not where the row's lines spread over more
/// than [`CROWDED_LINES`], nor on bare metal (no cache to save, and a Cortex-M's planner
/// would grow). Measured on the sweep's power-of-two cases, each case whose plan changes
/// timed alone with the builds alternating (medians of five): 2,000-case sweeps of seeds
/// 7, 13, 11, 17, 19 and 23, 9, 14, 10, 13, 4 and 10 plans at 0.33x, 0.45x, 0.32x, 0.30x,
/// 0.23x and 0.25x the time in geometric mean, none slower than the plain loop; seed 13's
/// 1508 (`f32` 2 x 256 x 256 read 4 KiB apart down its rows, 4 and 8 bytes on in the loops
/// outside) 489 -> 87 us against the loop's 258, seed 7's 962, 604, 1088 and 1877 and 17
/// more lifted above the loop. The slowest, over nine rounds: seed 17's 79 (`u16` rows read
/// 512 bytes apart) 2.4x (40 -> 95 us, the loop 210), seed 13's 1269 1.6x and 1369 1.3x,
/// whose short loops' blocks the cube strips or the transposes already took well. Then the
/// rows of 8-byte elements clamped (they were refused), the columns bound only where they
/// come back to lines, and the second asking: 57 more plans of the same six sweeps at
/// 0.36-0.64x per sweep, none below the loop (seed 7's 838, `f64` rows written 16 KiB apart,
/// 827 -> 179 us against the loop's 267; seed 13's 1959, `u8`, 222 -> 36 us against 94),
/// the slowest 1.47x (seed 11's 264 and 17's 1944, in strips, 2.3x faster than the loop). Of
/// eight random 2,000-case sweeps, 5 plans change (seed 11's 557 0.48x, seed 13's 1874
/// 1.57x: 8 -> 13 us against the loop's 48).
pub(super) const fn long_over_short<const K: usize>(
    loops: &mut [Loop<K>],
    side: usize,
    line: usize,
) -> Option<[usize; 2]> {
    if cfg!(target_os = "none") {
        return None;
    }
    let Some(inner) = loops.len().checked_sub(1) else {
        return None;
    };
    let Some(rows) = get(loops, inner) else {
        return None;
    };
    if rows.extent < TILE_MIN_EXTENT || !sets_overflow(&rows, line) {
        return None;
    }
    // The innermost long loop outside the rows, past at least one short one.
    let mut i = inner;
    let long = loop {
        let Some(p) = i.checked_sub(1) else {
            return None;
        };
        i = p;
        let Some(l) = get(loops, i) else {
            return None;
        };
        if l.extent >= TILE_MIN_EXTENT {
            break l;
        }
    };
    if i.saturating_add(1) == inner {
        return None;
    }
    // An operand whose lines the rows step over and every loop from `long` in steps within.
    let mut reused = false;
    let mut k = 0;
    while k < K {
        let mut near = abs_stride(loops, inner, k) >= line;
        let mut j = i;
        while j < inner {
            near = near && abs_stride(loops, j, k) < line;
            j = j.saturating_add(1);
        }
        reused = reused || near;
        k = k.saturating_add(1);
    }
    // Lines crowded into a few sets, not a row past the whole cache's.
    let room = set_room(&rows, line);
    if !reused || room > CROWDED_LINES || !tile_worth(&long, &rows, side, line) {
        return None;
    }
    let Some([cols, run]) = tile2(&long, &rows, side, line) else {
        return None;
    };
    // The tile's rows at most the lines their sets hold; its columns fit theirs.
    let run = if run < room { run } else { room };
    if !columns_fit(&long, &rows, [cols, run], line) {
        return None;
    }
    let tile = [cols, run];
    sink(loops, i, inner.saturating_sub(1));
    Some(tile)
}

/// A block `outer × inner` of rows `inner` long over a short `outer` (what [`swap_rows`]
/// makes of short rows, [`rows_swap`] the other way round) with the short loop back
/// inside, untiled (`None`), where in some operand the rows step a power-of-two number of
/// lines whose first-level cache sets hold at most [`CROWDED_LINES`] lines ([`set_lines`]:
/// a step of 512 bytes or a multiple, 8 sets; of 4 KiB, one), fewer than the row has,
/// while the short loop steps less than a line: each step of the short loop
/// comes back to the lines the row left, which its own lines evicted from their few sets,
/// so every access of that operand misses the first-level cache. Rows of the short loop
/// keep their few lines while the long loop steps on. Tiles cut to the sets' lines ran rows
/// of 8 elements at 3.4x the time of the short rows (seed 13's power-of-two 1497, `f64`
/// rows of 256 written 8 KiB apart, 4 of them a line: 487 us swapped, 222 in tiles of
/// 4 x 8, 65 with the short loop inside, against the plain loop's 229). Else `tiled`, the
/// loops as they were: a block of a long loop that [`long_over_short`] took into the rows
/// is not one (its outer loop is long). Asked last by both planners (the general builder's
/// nests and the two-loop nests of the run-time `copy()`); not on bare metal (no cache to
/// save). Measured on the sweep's power-of-two cases, each case whose plan changes timed
/// alone with the builds alternating (medians of three): 2,000-case sweeps of seeds 7, 13,
/// 11, 17, 19, 23 and 29, 39 plans at 0.46-0.92x the time per sweep, 15 lifted above the
/// plain loop (seed 11's 1081, 797 -> 152 us against the loop's 802; seed 13's 1154,
/// 2,217 -> 421 against 2,264; seed 23's 914, 2,330 -> 615 against 1,855), seed 23's 328
/// still below it (917 -> 366 against 241), the slowest seed 29's 1978 (1.25x, 2.2x
/// faster than the loop) and seed 17's 1583 (1.22x); bounded at one set (4 KiB), 10 plans
/// at 0.13-1.22x. Of four random 2,000-case sweeps, 3 plans change (seed 13's 585, 58 -> 28
/// us against the loop's 56; 598 1.06x).
///
/// A block of one tile or less ([`rows_swap`] leaves those to the block kernels) swaps too
/// where a loop outside it repeats it (`repeated`: the nest has three loops or more) and
/// [`small_back`] says its rows are long enough to pay back the short rows. Asked first: a
/// nest of three operands or more tiled in tiles whose rows are a whole short loop runs
/// untiled, the short loop inside ([`few_rows_inside`]).
pub(super) const fn short_back<const K: usize>(
    tiled: Option<[usize; 2]>,
    [outer, inner]: [&mut Loop<K>; 2],
    repeated: bool,
    side: usize,
    [line, narrowest]: [usize; 2],
) -> Option<[usize; 2]> {
    if few_rows_inside(tiled, outer, narrowest) {
        core::mem::swap(outer, inner);
        return None;
    }
    let swaps = rows_swap(inner, outer, side) || (repeated && small_back(outer, inner, line));
    if !swaps || !evicts(inner, outer, line) {
        return match tiled {
            Some(t) => Some(tile_back(t, outer, inner, line)),
            None => None,
        };
    }
    core::mem::swap(outer, inner);
    None
}

/// Whether a nest of three operands or more (`zip_map`'s), every element of at least
/// [`WIDE_ITEM`] bytes (`narrowest`, the operands' smallest itemsize), tiled `tiled` in
/// tiles whose rows are a whole short loop `outer` (fewer than [`TILE_MIN_EXTENT`] steps),
/// runs untiled instead, `outer` moved inside the rows' loop ([`short_back`]; the untiled
/// nest's rules then order the rest). Such a tile runs each of its few rows as a run of the
/// long loop, one row after another, in every operand: with two operands laid out alike (the
/// destination and the second source) twice as many streams as rows, each stopped and
/// restarted tile after tile, where with the short loop inside all of them advance together,
/// as the plain loop's do. The random sweep's 61 (`f64` dense into four rows 11.6 MB apart,
/// tiles of 4 x 64) ran 1,927 us in tiles and 1,237 untiled with the four rows inside,
/// against the plain loop's 1,165; runs of 16 or 204 a tile, or strips of 64 with the short
/// loop inside, ran 0.87-1.32x the tiles' time, and the tiles dropped with the loops as
/// they were, 1.20x the time of the short loop inside. A copy's two operands keep their
/// tiles. So do narrower elements: the rows' path packs a source of 1 or 2 bytes through the
/// transposes, and rows of them vectorise (of the 2,000-case sweeps of seed 7, 30 random and
/// 21 power-of-two plans of `u8` and `u16` ran 0.94x and 0.93x the time untiled, but 94,
/// 515, 1478 and 1768, tiles of 4 x 32 to 7 x 146 packed from `u16`, 1.34-1.74x, and the
/// power-of-two 1173, 1117 and 842 1.54-1.78x, 1117 below the plain loop). Not on bare metal
/// (no cache to save). Measured on the sweep's `zip_map` cases whose plan changes, each timed
/// alone with the builds starting rounds in turn (medians of five): the random 240's 6 plans
/// 0.77x the time in geometric mean, the power-of-two 240's 6 0.85x (129, 1.14x the slowest);
/// the 2,000-case sweeps of seed 7, from which the bound on the elements was drawn, 36 random
/// plans 0.82x (the slowest 1143, 1.17x; 43, 0.92x the loop's speed before, now at it) and
/// 29 power-of-two 0.86x (459, 12.8 -> 16.3 us against the loop's 37.6, 1.27x); of seed 13,
/// drawn after, 36 and 22 plans at 0.84x and 0.89x, the slowest 1.16x; none below the loop.
pub(super) const fn few_rows_inside<const K: usize>(
    tiled: Option<[usize; 2]>,
    outer: &Loop<K>,
    narrowest: usize,
) -> bool {
    !cfg!(target_os = "none")
        && K > 2
        && narrowest >= WIDE_ITEM
        && matches!(tiled, Some([rows, _]) if rows == outer.extent && rows < TILE_MIN_EXTENT)
}

/// Whether a block `outer × inner` of one tile or less, repeated by the loops outside it,
/// whose rows evict from their first-level sets the lines the next step of the short
/// `outer` comes back to ([`evicts`], asked by [`short_back`]), runs faster with `outer`
/// inside: `outer` shorter than [`TILE_MIN_EXTENT`], `inner` longer, and half of `inner`'s
/// steps evict those lines too (the rows hold more than twice the lines their sets keep).
/// Untiled, each pass of the block fetches every line of the rows `outer.extent` times
/// from the second level (power-of-two seed 11's 409: `u16`, 2 rows of 256 read 8 KiB
/// apart, 1,024 times: 1,484 us, the plain loop 558); with `outer` inside, each line once,
/// in rows of a few elements (332 us). Rows of 16 in one set (twice its 8 lines), a row's
/// set-up for each 2 to 4 elements, ran 0.32-2.0x the time (power-of-two seed 37's 1471,
/// `u32`, 2.0x; seed 13's 618 and seed 7's 1867, `f64`, 1.58x and 1.23x). Measured on the
/// sweep's power-of-two cases, each case whose plan changes timed alone with the builds
/// alternating (medians of five): eleven 2,000-case sweeps (seeds 7, 11, 13, 17, 19 and 23,
/// from which the bound was drawn; 29, 31, 37, 41 and 43, drawn after), 35 plans at
/// 0.19-0.77x the time per sweep (none in seed 17's), ten lifted above the plain loop (seed
/// 23's 1736, 1,509 -> 400 us against 783; seed 43's 598, 726 -> 192 against 370), four
/// still below it but faster (seed 11's 131 and 459, 0.48x and 0.42x), the slowest seed
/// 29's 105 (`f64` rows of 32 read 64 KiB apart, 4 MB) at 1.21x, 1.27x faster than the
/// loop. No plan of the random sweeps (240 cases; 2,000 of the same seeds) or of the
/// power-of-two 240 changes. Not on bare metal ([`evicts`] is `false` there).
pub(super) const fn small_back<const K: usize>(
    outer: &Loop<K>,
    inner: &Loop<K>,
    line: usize,
) -> bool {
    let half = Loop {
        // Halving cannot fail.
        extent: inner.extent / 2,
        strides: inner.strides,
    };
    outer.extent < TILE_MIN_EXTENT && inner.extent > outer.extent && evicts(&half, outer, line)
}

/// Whether the plain loops' cube `c × a × b` (`b` innermost; elements of `line` a cache line)
/// that `map` and `zip_map` run short rows in (`raw::elementwise`) runs faster turned, as
/// `a × c × b`: `a`'s pass evicts from their few first-level sets the lines the next step
/// of `c` comes back to ([`evicts`]), but not from the second-level ones ([`evicts_far`]),
/// each element a miss; `c` has more than [`SHORT_INNER`] steps; and in every operand in
/// which `a` steps less than a line, whose lines the next step of `a` comes back to, a
/// pass of `c × b` keeps its lines ([`keeps_lines`]), the passes of all such operands at
/// most half the second-level cache counted on ([`TURNED_LINES`]). `false` on bare metal.
/// The power-of-two sweep's 66 (`u8` rows of 2, 32 of them 16 KiB apart in the source, one
/// set, under 1,024 steps of 4 bytes) ran `map` at 0.62x the plain loop's speed; turned,
/// 0.67x the time. Measured on the sweep's power-of-two cases, each case the rule changes
/// timed alone with the builds alternating (medians of five): the 2,000-case sweep of seed
/// 2026, from which the bounds were drawn, 11 `map` and 11 `zip_map` cases at 0.88x and
/// 0.87x the time in geometric mean; of seeds 7, 13, 11 and 17, drawn after, 27 `map` cases
/// at 0.75-0.96x per sweep and 25 `zip_map` at 0.47-0.96x, the slowest 1.40x (seed 11's
/// 103, `map`, still 2.4x faster than the plain loop), none put below the loop. No case of
/// the random sweeps (240 cases, and 2,000) turns, nor any block of the block grid.
pub(crate) const fn cube_turns<const K: usize>([c, a, b]: [&Loop<K>; 3], line: usize) -> bool {
    if c.extent <= SHORT_INNER || !evicts(a, c, line) || evicts_far(a, c, line) {
        return false;
    }
    let item = item_bytes(line);
    let mut lines = 0usize;
    let mut k = 0;
    while k < K {
        if stride_or_0(get(&a.strides, k)).unsigned_abs() < line {
            let Some(pass) = keeps_lines([c, b], k, item) else {
                return false;
            };
            lines = lines.saturating_add(pass);
        }
        k = k.saturating_add(1);
    }
    lines <= TURNED_LINES
}

/// The most lines [`cube_turns`] lets a turned cube's passes of `c × b` touch, in all the
/// operands the next step of `a` comes back to: half the second-level cache counted on
/// ([`L2_WAY_BYTES`] × [`L2_WAYS`]), so that they come back to lines it still holds. The
/// power-of-two sweep's 977 (`u8`, 8,192 lines of the destination a pass) ran `zip_map`,
/// whose second source is laid out as the destination, 1.43x slower turned.
const TURNED_LINES: usize = L2_WAY_BYTES * L2_WAYS / 2 / LINE_BYTES;

/// The lines a pass of `c × b` touches in operand `k` (`item` bytes an element) where the
/// first-level cache keeps them for the next pass: a few lines (at most [`L1_WAYS`], which
/// one set holds), or streams the hardware's prefetchers follow: `c` stepping at most two
/// lines, and `b` adding at most [`TURNED_STREAMS`] rows of them. `None` where neither: passes of
/// 64 steps 512 bytes apart by 8 rows 32 KiB apart (the power-of-two sweep's 1145 and 1303,
/// `f32`), or of 2,048 steps 256 bytes apart (its 1517, `f64`), ran 1.6-2.9x slower turned.
const fn keeps_lines<const K: usize>(
    [c, b]: [&Loop<K>; 2],
    k: usize,
    item: usize,
) -> Option<usize> {
    let (sc, sb) = (
        stride_or_0(get(&c.strides, k))
            .unsigned_abs()
            .saturating_mul(item),
        stride_or_0(get(&b.strides, k))
            .unsigned_abs()
            .saturating_mul(item),
    );
    let lines = loop_lines(c.extent, sc).saturating_mul(loop_lines(b.extent, sb));
    let streams = if sb < LINE_BYTES { 1 } else { b.extent };
    if lines <= L1_WAYS || (sc <= 2 * LINE_BYTES && streams <= TURNED_STREAMS) {
        Some(lines)
    } else {
        None
    }
}

/// The fewest bytes of every operand's elements for [`few_rows_inside`] to untile a nest.
pub(super) const WIDE_ITEM: usize = 4;

/// The most rows of streams [`keeps_lines`] counts on the prefetchers following.
const TURNED_STREAMS: usize = 4;

/// The lines `extent` steps `apart` bytes apart touch: one a step where a step is a line or
/// more, else the lines their bytes span ([`lines_of`], at least one).
const fn loop_lines(extent: usize, apart: usize) -> usize {
    if apart >= LINE_BYTES {
        extent
    } else {
        lines_of(extent.saturating_mul(apart), LINE_BYTES)
    }
}

/// A tile `[ta, tb]` of element loops (not a transpose's block: some loop steps no operand
/// one element) whose row, `tb` steps of `inner`, evicts from their few first-level sets
/// the lines that the next step of `outer` comes back to ([`evicts`]), but not from the
/// second-level ones ([`evicts_far`]), while a row of `ta` steps of `outer` would not evict
/// those of `inner`'s: the two loops swapped, and the tile `[tb, ta]`; else `tile` as it
/// was. [`tile`] keeps the destination's fastest loop inside a tile; where a source's lines
/// along it crowd a set, every read of the tile misses the first-level cache, while the
/// destination's lines along the source's fastest loop spread over several sets and stay
/// (the power-of-two 240's 21: `f64`, 32 rows of 1024 read in order, written 2 elements and
/// 512 bytes a step; in tiles of 16 × 16 the rows read 8 KiB apart, one set: 46 -> 19 us
/// swapped, against the plain loop's 26). Where the row's lines crowd the second-level sets
/// too (read 128 KiB apart or more), the swapped tiles ran 1.31-1.41x slower (power-of-two
/// seed 11's 148 and 1296, 4 MB of `f64`), so those keep their order. Measured on the
/// sweep's power-of-two cases, each case whose plan changes timed alone with the builds
/// alternating (medians of five): the 240 cases' 3 plans at 0.42-0.67x the time; 2,000-case
/// sweeps of seeds 7, 13, 11 and 17, from which the rule was drawn, 1, 3, 2 and 2 plans at
/// 0.43-0.69x; of seeds 19 and 23, drawn after, 4 and 5 plans at 0.41-0.85x but seed 19's
/// 1910 (`f64` rows read 32 KiB apart, 4 MB, into 8 MB of destination) at 1.18-1.29x, still
/// faster than the plain loop. No plan of the random sweeps changes (240 cases; 2,000 of
/// seeds 7, 11 and 13). Not on bare metal ([`evicts`] is `false` there). The one rule of
/// both planners, asked by [`short_back`].
pub(super) const fn tile_back<const K: usize>(
    [ta, tb]: [usize; 2],
    outer: &mut Loop<K>,
    inner: &mut Loop<K>,
    line: usize,
) -> [usize; 2] {
    if unit_step(outer) && unit_step(inner) {
        return [ta, tb];
    }
    let row = Loop {
        extent: tb,
        strides: inner.strides,
    };
    let turned = Loop {
        extent: ta,
        strides: outer.strides,
    };
    if !evicts(&row, outer, line) || evicts_far(&row, outer, line) || evicts(&turned, inner, line) {
        return [ta, tb];
    }
    core::mem::swap(outer, inner);
    [tb, ta]
}

/// Whether the steps of `back` come back to lines that a pass of `rows` evicts (elements of
/// `line` a cache line): in some operand, `back` steps less than a line while `rows` steps a
/// power-of-two number of lines whose first-level cache sets hold at most [`CROWDED_LINES`]
/// lines ([`set_lines`]), fewer than `rows` has. `false` on bare metal (no cache to save).
/// The one test of [`short_back`] and of the tiny cubes' long loop (`order::long_cube`).
pub(super) const fn evicts<const K: usize>(rows: &Loop<K>, back: &Loop<K>, line: usize) -> bool {
    comes_back(rows, back, line, false)
}

/// Whether the steps of `back` come back to lines that a pass of `rows` evicts from the
/// second-level cache too (elements of `line` a cache line): in some operand, `back` steps
/// less than a line while `rows` steps a line or more, more steps than the second-level
/// sets its lines land in hold ([`l2_set_lines`]: 256 lines of a step of 4 KiB). Each of
/// `back`'s steps then reads or writes its lines from the third level or memory. `false` on
/// bare metal. The test of `order::far_back`.
pub(super) const fn evicts_far<const K: usize>(
    rows: &Loop<K>,
    back: &Loop<K>,
    line: usize,
) -> bool {
    comes_back(rows, back, line, true)
}

/// [`evicts`] (`far` false: the first-level sets, at most [`CROWDED_LINES`] lines) or
/// [`evicts_far`] (`far` true: the second-level sets): the one loop over the operands.
const fn comes_back<const K: usize>(
    rows: &Loop<K>,
    back: &Loop<K>,
    line: usize,
    far: bool,
) -> bool {
    if cfg!(target_os = "none") {
        return false;
    }
    let item = item_bytes(line);
    let mut k = 0;
    while k < K {
        let (near, apart) = (
            stride_or_0(get(&back.strides, k)).unsigned_abs(),
            stride_or_0(get(&rows.strides, k))
                .unsigned_abs()
                .saturating_mul(item),
        );
        let crowded = if far {
            apart >= LINE_BYTES && rows.extent > l2_set_lines(apart)
        } else {
            crowds(rows.extent, apart, CROWDED_LINES)
        };
        if near < line && crowded {
            return true;
        }
        k = k.saturating_add(1);
    }
    false
}

/// Whether the `cols` steps of `long` of a tile `[cols, run]` over `rows` (elements of
/// `line` a cache line) keep their lines in the first-level sets they map to
/// ([`set_lines`]) in every operand whose lines the tile's next columns come back to: all
/// but those whose rows step one element and cover whole lines (`run` elements a multiple
/// of a line), each of whose lines a row reads or writes whole, once. Bounding every
/// operand refused 57 plans of six power-of-two sweeps that ran 0.36-0.64x the time per
/// sweep in tiles ([`long_over_short`]).
pub(super) const fn columns_fit<const K: usize>(
    long: &Loop<K>,
    rows: &Loop<K>,
    [cols, run]: [usize; 2],
    line: usize,
) -> bool {
    let item = item_bytes(line);
    let mut k = 0;
    while k < K {
        let across = stride_or_0(get(&long.strides, k))
            .unsigned_abs()
            .saturating_mul(item);
        // `LINE_BYTES` is not zero: the remainder cannot fail.
        let whole = stride_or_0(get(&rows.strides, k)).unsigned_abs() == 1
            && run.saturating_mul(item) % LINE_BYTES == 0;
        if !whole && across >= LINE_BYTES && cols > set_lines(across) {
            return false;
        }
        k = k.saturating_add(1);
    }
    true
}
