//! Fill, map, zip-map and fold over a plan: one value or one function per element.

use core::mem::MaybeUninit;
use core::slice;

use super::rows::{
    REVERSE_CHUNK_BYTES, flipped, lowest, map_reversed, zip_reversed, zip_reversed_worth,
};
use crate::LayoutError;
use crate::kernel::drive::{
    for_each_block, for_each_block_tiled, for_each_cube, for_each_run, step,
};
use crate::kernel::plan::{
    LINE_BYTES, Plan, SET_ROOM, TILE_BYTES, cube_turns, line_for, set_shares, sets_overflow,
    side_for,
};
use crate::kernel::plan::{Loop, MAX_LOOPS, Nest};
use crate::kernel::proof::{InBounds, Unique};
use crate::kernel::{transpose, zip_tiles};

/// `dst[i] = value` over the plan (operand 0).
pub(crate) fn fill<T: Copy, const M: usize>(
    ib: &InBounds<'_, 1, M>,
    dst: &mut [T],
    value: T,
) -> Result<(), LayoutError> {
    let plan = ib.plan_for([dst.len()])?;
    // SAFETY: every offset of the plan is inside `dst` (`InBounds` witness), which is
    // borrowed exclusively.
    unsafe { fill_nests(plan, dst.as_mut_ptr(), value) };
    Ok(())
}

/// `d[i] = value` over the nests of `plan` (operand 0): the loops of [`fill`], and of one part
/// of a split plan.
///
/// # Safety
///
/// Every offset of every nest of `plan` is an element of the allocation behind `d`, and
/// nothing else reads or writes those elements while it runs.
pub(crate) unsafe fn fill_nests<T: Copy, const M: usize>(plan: &Plan<1, M>, d: *mut T, value: T) {
    for nest in plan.nests() {
        if short_cubes(nest) {
            // SAFETY: the caller's contract, for `nest`.
            unsafe { fill_short(nest, d, value) };
            continue;
        }
        for_each_run(nest, |[o], run| {
            let [s] = run.strides;
            // The run's `run.extent` elements `o + j·s` are inside the allocation (the
            // caller's contract).
            // SAFETY: `o` is the run's first offset, inside the allocation (above).
            let p = unsafe { d.offset(o) };
            if s == 1 {
                // SAFETY: a unit-stride run is one sub-slice of the allocation (above), which
                // nothing else reads or writes while this runs (the caller's contract).
                let elements = unsafe { slice::from_raw_parts_mut(p, run.extent) };
                elements.fill(value);
            } else {
                for j in 0..run.extent {
                    // SAFETY: `j < run.extent`: `o + j·s` is inside the allocation (above).
                    let q = unsafe { p.offset(step(j, s)) };
                    // SAFETY: `q` is an element of the allocation, which nothing else reads
                    // or writes while this runs (the caller's contract).
                    unsafe { *q = value };
                }
            }
        });
    }
}

/// Whether [`fill_nests`] and [`fold`] run `nest` cube by cube as plain loops ([`fill_short`],
/// [`fold_short`]; hosts): its rows are [`short_rows`], except runs of consecutive elements
/// longer than [`UNROLLED_ROW`], which a slice's `fill` and a fold over a slice take faster
/// (the random sweep's 38, `fill` of `u8` runs of 14: 1.6x the time as plain loops). Bare
/// metal keeps every nest's runs.
fn short_cubes<const L: usize>(nest: &Nest<1, L>) -> bool {
    cfg!(not(target_os = "none"))
        && short_rows(nest).is_some_and(|row| row_len(nest) != 0 || !unit_row(&row))
}

/// [`fill_nests`] of one nest whose rows are [`short_rows`]: cube by cube as plain loops
/// compiled for the nest's row length ([`row_len`]), as [`map_short`]: a run's set-up (a
/// slice's `fill`, a call of the C library's `memset` for bytes) costs more than its few
/// elements.
///
/// # Safety
///
/// [`fill_nests`]' contract, for `nest`.
#[inline(never)]
unsafe fn fill_short<T: Copy, const L: usize>(nest: &Nest<1, L>, d: *mut T, value: T) {
    per_row_len!(row_len(nest), R => {
        // SAFETY: the caller's contract, for `nest`, whose rows have `R` elements unless `R`
        // is 0.
        unsafe { fill_short_of::<T, L, R>(nest, d, value) }
    });
}

/// [`fill_short`] for rows of `R` elements (`R` 0: the row's length read at run time).
///
/// # Safety
///
/// [`fill_nests`]' contract, for `nest`, whose innermost loop has `R` steps unless `R` is 0.
#[expect(clippy::inline_always, reason = "one copy per row length, inlined")]
#[inline(always)]
unsafe fn fill_short_of<T: Copy, const L: usize, const R: usize>(
    nest: &Nest<1, L>,
    d: *mut T,
    value: T,
) {
    fold_offsets::<(), L, R>(nest, (), |(), o| {
        // SAFETY: `o` is an offset of the nest (`fold_offsets`), inside the allocation, which
        // nothing else reads or writes while this runs (the caller's contract).
        let at = unsafe { d.offset(o) };
        // SAFETY: `at` is an element of the allocation (above).
        unsafe { *at = value };
    });
}

/// Folds `f` over the offsets of `nest`'s elements (one operand) in its order, from `init`:
/// each cube `c × a × b` ([`for_each_cube`]) as three plain loops, rows of `R` elements (`R`
/// 0: the row's length read at run time). `Some` state after every cube. The loops of
/// [`fill_short`] and [`fold_short`].
#[expect(clippy::inline_always, reason = "one copy per row length, inlined")]
#[inline(always)]
fn fold_offsets<S, const L: usize, const R: usize>(
    nest: &Nest<1, L>,
    init: S,
    mut f: impl FnMut(S, isize) -> S,
) -> Option<S> {
    let mut state = Some(init);
    for_each_cube(nest, |[o], c, a, b| {
        let Some(mut x) = state.take() else { return };
        let row = row_of::<R>(b.extent);
        let ([sc], [sa], [sb]) = (c.strides, a.strides, b.strides);
        let mut ok = o;
        for _ in 0..c.extent {
            let mut oi = ok;
            for _ in 0..a.extent {
                let mut oj = oi;
                for _ in 0..row {
                    x = f(x, oj);
                    // Past the last step the offset may leave the nest: it is never used
                    // there (nor can it wrap, the nest's extent times its stride being an
                    // offset's span).
                    oj = oj.wrapping_add(sb);
                }
                oi = oi.wrapping_add(sa);
            }
            ok = ok.wrapping_add(sc);
        }
        state = Some(x);
    });
    state
}

/// [`fold`] of one nest whose rows are [`short_rows`], from `acc`, as [`fill_short`]: the
/// cubes' elements in the nest's order.
///
/// # Safety
///
/// Every offset of `nest` is an element of the allocation behind `s`.
#[inline(never)]
unsafe fn fold_short<T: Copy, A, F: FnMut(A, T) -> A, const L: usize>(
    nest: &Nest<1, L>,
    s: *const T,
    acc: A,
    f: &mut F,
) -> Option<A> {
    per_row_len!(row_len(nest), R => {
        // SAFETY: the caller's contract, for `nest`, whose rows have `R` elements unless `R`
        // is 0.
        unsafe { fold_short_of::<T, A, F, L, R>(nest, s, acc, f) }
    })
}

/// [`fold_short`] for rows of `R` elements (`R` 0: the row's length read at run time).
///
/// # Safety
///
/// [`fold_short`]'s contract, for `nest`, whose innermost loop has `R` steps unless `R` is 0.
#[expect(clippy::inline_always, reason = "one copy per row length, inlined")]
#[inline(always)]
unsafe fn fold_short_of<T: Copy, A, F: FnMut(A, T) -> A, const L: usize, const R: usize>(
    nest: &Nest<1, L>,
    s: *const T,
    acc: A,
    f: &mut F,
) -> Option<A> {
    fold_offsets::<A, L, R>(nest, acc, |x, o| {
        // SAFETY: `o` is an offset of the nest (`fold_offsets`), inside the allocation (the
        // caller's contract).
        let at = unsafe { s.offset(o) };
        // SAFETY: `at` is an element of the allocation (above).
        f(x, unsafe { *at })
    })
}

/// Scratch for one packed tile: `TILE_BYTES` bytes on the stack, cache-line aligned.
#[repr(C, align(64))]
struct Scratch([MaybeUninit<u8>; TILE_BYTES]);

impl Scratch {
    const fn new() -> Self {
        Self([MaybeUninit::uninit(); TILE_BYTES])
    }
}

/// Whether an `ea × eb` block of `T` fits a [`Scratch`].
fn fits<T>(ea: usize, eb: usize) -> bool {
    ea.checked_mul(eb)
        .and_then(|n| n.checked_mul(size_of::<T>()))
        .is_some_and(|bytes| bytes <= TILE_BYTES)
        && align_of::<T>() <= align_of::<Scratch>()
}

/// The tile [`map_nests`] runs `nest`'s blocks in where the plan runs them whole: an untiled
/// block too large for a [`Scratch`], whose source or destination runs across its rows one
/// element a step ([`across`]: a transpose the plan leaves whole for `copy()`'s transposes)
/// and whose rows step lines that crowd their first-level sets ([`sets_overflow`]), so the
/// next row, one element on, finds none of them: tiles that fit a [`Scratch`], each packed
/// whole, and turned where the destination runs across ([`map_tiled`]). Blocks of 2 x 32
/// `f64` read 4 KiB a step ran at 0.7x the plain loop's speed whole; 1,024 x 32 `f64`
/// written 8 KiB a step (the power-of-two sweep's 222), 0.22x. Blocks whose rows' lines stay
/// cached keep running whole: in tiles, 3 x 32 `f64` read 4080 bytes a step ran 1.5x slower.
fn crowded_tile<T, const L: usize>(nest: &Nest<2, L>) -> Option<[usize; 2]> {
    match (nest.tile(), nest.loops()) {
        (None, [.., a, b])
            if (across(a, b, 1) || across(a, b, 0))
                && !fits::<T>(a.extent, b.extent)
                && sets_overflow(b, line_for(size_of::<T>())) =>
        {
            let side = side_for(size_of::<T>());
            Some([side, side])
        }
        _ => None,
    }
}

/// Whether operand `k` of the block `a × b` runs across its rows: one element a step along
/// `a`, more along the rows (`b`).
fn across<const K: usize>(a: &Loop<K>, b: &Loop<K>, k: usize) -> bool {
    match (a.strides.get(k), b.strides.get(k)) {
        (Some(sa), Some(sb)) => sa.unsigned_abs() == 1 && sb.unsigned_abs() > 1,
        _ => false,
    }
}

/// Whether [`zip_map_nests`] runs `nest`'s blocks through [`zip_tiles::zip_block`]: a source
/// runs across the destination's rows ([`zip_tiles::takes`]) in a tiled nest, or in an
/// untiled one whose blocks do not fit a [`Scratch`] whole (a transpose the plan leaves
/// whole for `copy()`'s transposes), which would otherwise read that source's rows as they
/// lie: in tiles, blocks of 2 x 16 `u16` read 2 KiB a step ran 2.5x faster, 5 x 16 `f64`
/// read 8,160 bytes a step 1.5x, 2 x 32 `f64` read 4 KiB a step 3.9x.
fn zip_tiled<A, B, U>(nest: &Nest<3>) -> bool {
    match nest.loops() {
        [.., rows, run]
            if nest.tile().is_some()
                || !(fits::<A>(rows.extent, run.extent) && fits::<B>(rows.extent, run.extent)) =>
        {
            let ([_, ar, br], [ds, sa, sb]) = (rows.strides, run.strides);
            zip_tiles::takes::<A, B, U>(ds, [ar, sa], [br, sb])
        }
        _ => false,
    }
}

/// Rows shorter than this (elements) in an untiled nest run as plain loops three at a time
/// ([`short_rows`]): a row's set-up, and a transposed source's packing, cost more than its
/// few elements.
const SHORT_ROW: usize = 16;

/// The innermost loop of `nest` when it is untiled and its rows are shorter than [`SHORT_ROW`],
/// or strided in some operand (not one element a step in all) under fewer than [`THIN_ROWS`]
/// rows of the loop outside them in a block (in a tile, where the nest is tiled):
/// [`zip_map_nests`] then runs its elements as plain loops, three at a time ([`for_each_cube`],
/// [`zip_cube`]) or a tile at a time ([`zip_thin`]), and so does [`map_nests`] ([`map_cube`],
/// [`map_thin`]) unless the rows are [`reversed`] (both kernels ask more of tiled nests:
/// [`map_plain`], [`zip_plain`]). Blocks of 3 x 3 `f64` transposed ran at 0.3x the plain loop's
/// speed through the blocks' rows and packing, 1.6x as plain loops; rows of 2 `f64` with a gap
/// after each, 0.2-0.4x and 1.5-2x; blocks of 2 x 16 `f32` transposed, 0.6x by rows. Tiles of 4
/// x 16 (`map` from `u16` into `u64`, the source packed: the power-of-two sweep's 210) ran 0.6x
/// the time as plain loops, and tiles of at most 32 elements a row 0.68-0.75x in geometric mean
/// (every sweep's thin tiles, `map`, `zip_map` and `map` into another size).
fn short_rows<const K: usize, const L: usize>(nest: &Nest<K, L>) -> Option<Loop<K>> {
    match (nest.tile(), nest.loops()) {
        (None, [.., b]) if b.extent < SHORT_ROW => Some(*b),
        (_, [.., a, b])
            if tile_block(nest).map_or(a.extent, |[rows, _]| rows.extent) < THIN_ROWS
                && !unit_row(b) =>
        {
            Some(*b)
        }
        _ => None,
    }
}

/// A tiled `nest`'s tile: its two innermost loops, each cut to the tile's side (the whole
/// tiles', not the edge's); `None` where the nest is untiled.
fn tile_block<const K: usize, const L: usize>(nest: &Nest<K, L>) -> Option<[Loop<K>; 2]> {
    match (nest.tile(), nest.loops()) {
        (Some([ta, tb]), [.., a, b]) => Some([
            Loop {
                extent: ta.min(a.extent),
                strides: a.strides,
            },
            Loop {
                extent: tb.min(b.extent),
                strides: b.strides,
            },
        ]),
        _ => None,
    }
}

/// Whether an untiled `nest`'s rows, strided in some operand and shorter than twice
/// [`SHORT_ROW`], run as plain loops on hosts, as [`short_rows`]' do ([`map_short`],
/// [`zip_short`]), where the rows' path would run them as they lie: no source's block packed
/// (`packed`, given the rows' strides, the rows and the row). The caller asks it of nests it
/// does not tile. That path ran such rows slower than the plain loop (the random sweep's 114,
/// `zip_map` of `f32` rows of 19 written 2 apart: 0.9x the plain loop's speed, 0.66x that
/// time as plain loops); where it packs a transposed source, the packed rows run faster (the
/// power-of-two 184, `map` of blocks of 512 x 16 transposed: 7x the time as plain loops).
/// Bare metal keeps the rows' path, whose code it has anyway.
fn loose_rows<const K: usize, const L: usize>(
    nest: &Nest<K, L>,
    packed: impl FnOnce([isize; K], &Loop<K>, &Loop<K>) -> bool,
) -> bool {
    match nest.loops() {
        [.., a, b] if cfg!(not(target_os = "none")) && nest.tile().is_none() => {
            b.extent < SHORT_ROW.saturating_mul(2) && !unit_row(b) && !packed(a.strides, a, b)
        }
        _ => false,
    }
}

/// Whether the rows' path packs operand `k`'s tiles of a tiled `nest` through the SIMD
/// transpose of 1- or 2-byte elements into rows of at least [`PACKED_ROW`] ([`packed_rows`]):
/// such a nest keeps that path even where its tiles hold fewer than [`THIN_ROWS`] rows. The
/// narrow elements' transpose packs many a step, and the packed rows run as slices, which the
/// compiler vectorises. As plain loops, `zip_map` of `u16` tiles of 4 x 32 to 7 x 146 so packed
/// ran 1.1-1.8x the time (the random sweep of 2,000 with seed 7: 94, 515, 1478, 1768), and
/// `map` from `u8` into `u32` of tiles of 2 x 512 to 7 x 146, 1.1-1.4x (231, 496, 629, 1482);
/// tiles of wider elements, or of rows of 16 (`map` from `u16` into `u64`, the same sweep's
/// 94, 881, 1478; the power-of-two sweep's 210), ran faster as plain loops.
fn narrow_packed<T: 'static, const K: usize, const L: usize>(nest: &Nest<K, L>, k: usize) -> bool {
    match tile_block(nest) {
        Some([rows, run]) if size_of::<T>() <= 2 && transpose::transposes::<T>() => {
            run.extent >= PACKED_ROW
                && rows.strides.get(k) == Some(&1)
                && packs::<T, K>(1, rows.extent, &run, k)
        }
        _ => false,
    }
}

/// Whether `nest` is tiled in rows longer than [`PACKED_ROW`] that step more than one
/// element in the destination: [`map_nests`] keeps the rows' path for such tiles even where
/// they hold fewer than [`THIN_ROWS`] rows. As plain loops, `map`'s such tiles (every
/// sweep's, `map` and `map` into another size) ran 1.1x the time in geometric mean where the
/// source steps more than one element too (34 cases, up to 1.5x), and alike where it steps
/// one (51 cases, 0.99x); [`map_block`]'s element loop takes those rows faster. `zip_map`'s
/// such tiles ran 0.83x the time as plain loops (63 cases), and so it takes them.
fn long_strided_tiles<const K: usize, const L: usize>(nest: &Nest<K, L>) -> bool {
    tile_block(nest).is_some_and(|[_, run]| {
        run.extent > PACKED_ROW && run.strides.first().is_some_and(|s| s.unsigned_abs() != 1)
    })
}

/// The shortest packed rows [`narrow_packed`] keeps on the rows' path, and the longest tiles'
/// rows [`map_nests`] runs as plain loops wherever they step ([`long_strided_tiles`]).
const PACKED_ROW: usize = 32;

/// The fewest rows of strided elements [`short_rows`] leaves to the rows' path, however long:
/// a block of fewer pays a transposed source's packing, or a row's set-up, for few elements
/// a row of the loop outside.
const THIN_ROWS: usize = 8;

/// Whether `row` steps one element in every operand, either way.
fn unit_row<const K: usize>(row: &Loop<K>) -> bool {
    row.strides.iter().all(|s| s.unsigned_abs() == 1)
}

/// Whether `row` is a [`unit_row`] backwards in some operand: `map`'s reversed chunks, which
/// the compiler vectorises, take such rows faster than plain loops (8 `f32` read backwards:
/// 67 us a MiB against 95).
fn reversed<const K: usize>(row: &Loop<K>) -> bool {
    unit_row(row) && row.strides.contains(&-1)
}

/// Whether [`map_nests`] runs `row` (a nest's innermost loop) through [`map_reversed`]'s
/// vector chunks rather than as plain loops: a [`reversed`] row of at least one chunk
/// ([`REVERSE_CHUNK_BYTES`]). A shorter row is no chunk, only the row's set-up: the random
/// sweep's 179 (`u8` rows of 2 written backwards) ran at 0.52x the plain loop's speed that
/// way; as plain loops, 0.40x the time, and five more such (rows of 2 to 5 `u8`, `u16`,
/// `f32`) 0.56-0.70x, all above the loop.
fn chunked<T>(row: &Loop<2>) -> bool {
    reversed(row) && row.extent.saturating_mul(size_of::<T>()) >= REVERSE_CHUNK_BYTES
}

/// Whether [`map_short`] and [`zip_short`] run `nest`'s cubes `c × a × b` (its three innermost
/// loops) turned, as `a × c × b` ([`cube_turns`], elements of `size` bytes).
fn cube_turned<const K: usize, const L: usize>(nest: &Nest<K, L>, size: usize) -> bool {
    match nest.loops() {
        [.., c, a, b] => cube_turns([c, a, b], line_for(size)),
        _ => false,
    }
}

/// Calls `f(offsets, [outer, middle, inner])` for every cube of `nest` ([`for_each_cube`]),
/// its loops in the order [`map_short`] and [`zip_short`] run them: `c × a × b`, or turned to
/// `a × c × b` where [`cube_turned`] (elements of `size` bytes). Either order holds the same
/// offsets.
///
/// `copy()`'s cubes (`raw::small_cube`) take a rule of their own, strips of `c` under `a`
/// (`raw::cube_strip`), made partly to cut that kernel's calls per block; these plain loops
/// make no call a row. Tried here too (through a strip walker shared with `copy()`, not
/// kept), it measured mixed: the cases of the random 240 whose cubes it changes ran `map`
/// 1.00x and `zip_map` 1.03x the time in geometric mean (0.23-1.54x and 0.68-3.05x, two
/// `zip_map` cases put below the plain loop), the power-of-two 240's `map` 0.93x (medians
/// of 5 alternating rounds, Zen 3).
#[inline]
fn for_each_short_cube<const K: usize, const L: usize, F>(nest: &Nest<K, L>, size: usize, mut f: F)
where
    F: FnMut([isize; K], [Loop<K>; 3]),
{
    let turn = cube_turned(nest, size);
    for_each_cube(nest, |offs, c, a, b| {
        f(offs, if turn { [a, c, b] } else { [c, a, b] });
    });
}

/// The row length [`map_short`], [`zip_short`], [`fill_short`] and [`fold_short`] compile a
/// nest's cubes for (`per_row_len!`): its innermost loop's extent where it is 2 to
/// [`UNROLLED_ROW`] (hosts), so that each row's loop is unrolled whole and has no exit to
/// predict, as `copy()`'s rows of a few elements (`raw::tiny_cubes`); else 0, the row's length
/// read at run time.
fn row_len<const K: usize, const L: usize>(nest: &Nest<K, L>) -> usize {
    match nest.loops() {
        [.., b] if cfg!(not(target_os = "none")) && (2..=UNROLLED_ROW).contains(&b.extent) => {
            b.extent
        }
        _ => 0,
    }
}

/// The length of a row of `extent` elements in loops compiled for rows of `R` (`R` 0: the
/// extent, read at run time; [`row_len`]).
#[expect(
    clippy::inline_always,
    reason = "a constant in every loop compiled for one length"
)]
#[inline(always)]
const fn row_of<const R: usize>(extent: usize) -> usize {
    if R == 0 { extent } else { R }
}

/// The longest rows [`row_len`] unrolls: the longest `per_row_len!` compiles a loop for (a
/// longer one would run at its run-time length), `copy()`'s tiny cubes' bound.
const UNROLLED_ROW: usize = 8;

/// [`map_nests`] of one nest whose rows are [`short_rows`]: cube by cube as plain loops
/// ([`for_each_short_cube`]), compiled for the nest's row length ([`row_len`]).
/// Out of line, so that the rows' path beside it compiles as it did.
///
/// # Safety
///
/// [`map_nests`]' contract, for `nest`.
#[inline(never)]
unsafe fn map_short<T: Copy, U, F: FnMut(T) -> U, const L: usize>(
    nest: &Nest<2, L>,
    d: *mut U,
    s: *const T,
    f: &mut F,
) {
    per_row_len!(row_len(nest), R => {
        // SAFETY: the caller's contract, for `nest`, whose rows have `R` elements unless `R`
        // is 0.
        unsafe { map_short_of::<T, U, F, L, R>(nest, d, s, f) }
    });
}

/// [`map_short`] for rows of `R` elements (`R` 0: the row's length read at run time).
///
/// # Safety
///
/// [`map_nests`]' contract, for `nest`, whose innermost loop has `R` steps unless `R` is 0.
#[expect(clippy::inline_always, reason = "one copy per row length, inlined")]
#[inline(always)]
unsafe fn map_short_of<T: Copy, U, F: FnMut(T) -> U, const L: usize, const R: usize>(
    nest: &Nest<2, L>,
    d: *mut U,
    s: *const T,
    f: &mut F,
) {
    for_each_short_cube(nest, size_of::<T>(), |offs, cube| {
        // SAFETY: every offset of the cube at `offs` is an offset of the nest (in either
        // order), inside the allocations, the destination's unique and no source's (the
        // caller's contract), its rows of `R` elements unless `R` is 0: `map_cube`'s
        // contract.
        unsafe { map_cube::<T, U, F, R>(d, s, offs, cube, f) };
    });
}

/// [`zip_map_nests`] of one nest whose rows are [`short_rows`], as [`map_short`].
///
/// # Safety
///
/// [`zip_map_nests`]' contract, for `nest`.
#[inline(never)]
unsafe fn zip_short<A: Copy, B: Copy, U, F: FnMut(A, B) -> U, const L: usize>(
    nest: &Nest<3, L>,
    d: *mut U,
    pa: *const A,
    pb: *const B,
    f: &mut F,
) {
    per_row_len!(row_len(nest), R => {
        // SAFETY: the caller's contract, for `nest`, whose rows have `R` elements unless `R`
        // is 0.
        unsafe { zip_short_of::<A, B, U, F, L, R>(nest, d, pa, pb, f) }
    });
}

/// [`zip_short`] for rows of `R` elements (`R` 0: the row's length read at run time).
///
/// # Safety
///
/// [`zip_map_nests`]' contract, for `nest`, whose innermost loop has `R` steps unless `R` is
/// 0.
#[expect(clippy::inline_always, reason = "one copy per row length, inlined")]
#[inline(always)]
unsafe fn zip_short_of<A: Copy, B: Copy, U, F: FnMut(A, B) -> U, const L: usize, const R: usize>(
    nest: &Nest<3, L>,
    d: *mut U,
    pa: *const A,
    pb: *const B,
    f: &mut F,
) {
    for_each_short_cube(nest, size_of::<A>(), |offs, cube| {
        // SAFETY: every offset of the cube at `offs` is an offset of the nest (in either
        // order), inside the allocations, the destination's unique and neither source's (the
        // caller's contract), its rows of `R` elements unless `R` is 0: `zip_cube`'s
        // contract.
        unsafe { zip_cube::<A, B, U, F, R>(d, pa, pb, offs, cube, f) };
    });
}

/// [`map_nests`] of one tiled nest whose tiles' rows are [`short_rows`] (fewer than
/// [`THIN_ROWS`] a tile): tile by tile in the plan's order, each as plain loops
/// ([`map_cube`]), rows of the tile's length. Out of line, apart from [`map_short`], so that
/// the untiled nests' loops compile as they did.
///
/// # Safety
///
/// [`map_nests`]' contract, for `nest`.
#[inline(never)]
unsafe fn map_thin<T: Copy, U, F: FnMut(T) -> U, const L: usize>(
    nest: &Nest<2, L>,
    d: *mut U,
    s: *const T,
    f: &mut F,
) {
    for_each_block(nest, |offs, a, b| {
        // SAFETY: every offset of the tile `a × b` at `offs` is an offset of the nest, inside
        // the allocations, the destination's unique and no source's (the caller's contract);
        // a one-step outer loop adds none, and `R` is 0: `map_cube`'s contract.
        unsafe { map_cube::<T, U, F, 0>(d, s, offs, [Loop::UNIT, a, b], f) };
    });
}

/// [`zip_map_nests`] of one tiled nest whose tiles' rows are [`short_rows`], as [`map_thin`].
///
/// # Safety
///
/// [`zip_map_nests`]' contract, for `nest`.
#[inline(never)]
unsafe fn zip_thin<A: Copy, B: Copy, U, F: FnMut(A, B) -> U, const L: usize>(
    nest: &Nest<3, L>,
    d: *mut U,
    pa: *const A,
    pb: *const B,
    f: &mut F,
) {
    for_each_block(nest, |offs, a, b| {
        // SAFETY: every offset of the tile `a × b` at `offs` is an offset of the nest, inside
        // the allocations, the destination's unique and neither source's (the caller's
        // contract); a one-step outer loop adds none, and `R` is 0: `zip_cube`'s contract.
        unsafe { zip_cube::<A, B, U, F, 0>(d, pa, pb, offs, [Loop::UNIT, a, b], f) };
    });
}

/// `d[x] = f(s[x])` over the cube `c × a × b` at offsets `[od, os]` (`b` innermost), as the
/// plain loops step it: one pointer an operand, moved by its strides ([`short_rows`]); rows of
/// `R` elements, or of `b.extent` where `R` is 0.
///
/// # Safety
///
/// `R` is 0 or `b.extent`. Every `od + k·c + i·a + j·b` (`k < c.extent`, `i < a.extent`, `j <
/// b.extent`, each loop's stride of the operand) is an element of the destination's
/// allocation, and `os + ...` likewise of the source's; no two indices share a destination
/// element, and no destination element is a source element.
#[expect(
    clippy::many_single_char_names,
    reason = "the operands and loops are named as in the module"
)]
#[expect(
    clippy::inline_always,
    reason = "inlined into the driver's closure: the point is to save a call per cube"
)]
#[inline(always)]
unsafe fn map_cube<T: Copy, U, F: FnMut(T) -> U, const R: usize>(
    d: *mut U,
    s: *const T,
    [od, os]: [isize; 2],
    [c, a, b]: [Loop<2>; 3],
    f: &mut F,
) {
    let ([dc, sc], [da, sa], [db, sb]) = (c.strides, a.strides, b.strides);
    let row = row_of::<R>(b.extent);
    let (mut dk, mut sk) = (d.wrapping_offset(od), s.wrapping_offset(os));
    for _ in 0..c.extent {
        let (mut di, mut si) = (dk, sk);
        for _ in 0..a.extent {
            let (mut dj, mut sj) = (di, si);
            for _ in 0..row {
                // SAFETY: `sj` is the source element of the index `(k, i, j)` at hand (the
                // pointers stepped by the loops' strides), inside its allocation (contract).
                let value = unsafe { *sj };
                let mapped = f(value);
                // SAFETY: `dj` is that index's destination element, unique, no source's
                // (contract).
                unsafe { *dj = mapped };
                (dj, sj) = (dj.wrapping_offset(db), sj.wrapping_offset(sb));
            }
            (di, si) = (di.wrapping_offset(da), si.wrapping_offset(sa));
        }
        (dk, sk) = (dk.wrapping_offset(dc), sk.wrapping_offset(sc));
    }
}

/// `d[x] = f(a[x], b[x])` over the cube `c × a × b` at offsets `[od, oa, ob]`, as
/// [`map_cube`] with two sources (`pa`, `pb`).
///
/// # Safety
///
/// As [`map_cube`], for the destination and each of the two sources.
#[expect(
    clippy::many_single_char_names,
    reason = "the operands and loops are named as in the module"
)]
#[expect(
    clippy::inline_always,
    reason = "inlined into the driver's closure: the point is to save a call per cube"
)]
#[inline(always)]
unsafe fn zip_cube<A: Copy, B: Copy, U, F: FnMut(A, B) -> U, const R: usize>(
    d: *mut U,
    pa: *const A,
    pb: *const B,
    [od, oa, ob]: [isize; 3],
    [c, a, b]: [Loop<3>; 3],
    f: &mut F,
) {
    let row = row_of::<R>(b.extent);
    let (mut dk, mut ak, mut bk) = (
        d.wrapping_offset(od),
        pa.wrapping_offset(oa),
        pb.wrapping_offset(ob),
    );
    for _ in 0..c.extent {
        let (mut di, mut ai, mut bi) = (dk, ak, bk);
        for _ in 0..a.extent {
            let (mut dj, mut aj, mut bj) = (di, ai, bi);
            for _ in 0..row {
                // SAFETY: `aj` is the first source's element of the index `(k, i, j)` at hand
                // (the pointers stepped by the loops' strides), inside its allocation
                // (contract).
                let va = unsafe { *aj };
                // SAFETY: `bj` is the second source's element of that index, likewise.
                let vb = unsafe { *bj };
                let zipped = f(va, vb);
                // SAFETY: `dj` is that index's destination element, unique, neither source's
                // (contract).
                unsafe { *dj = zipped };
                let [sd, sa, sb] = b.strides;
                (dj, aj, bj) = (
                    dj.wrapping_offset(sd),
                    aj.wrapping_offset(sa),
                    bj.wrapping_offset(sb),
                );
            }
            let [sd, sa, sb] = a.strides;
            (di, ai, bi) = (
                di.wrapping_offset(sd),
                ai.wrapping_offset(sa),
                bi.wrapping_offset(sb),
            );
        }
        let [sd, sa, sb] = c.strides;
        (dk, ak, bk) = (
            dk.wrapping_offset(sd),
            ak.wrapping_offset(sa),
            bk.wrapping_offset(sb),
        );
    }
}

/// Where a block's rows of one source lie: base, row stride, element stride.
type Rows<T> = (*const T, isize, isize);

/// The rows of operand `k`'s block at `p`: `ea` rows `sa` apart, each the block's `run` (its
/// extent `eb`, operand `k`'s element stride `sb`; the destination's first): where [`packs`]
/// says so, the block packed into `scratch` row-major (by the SIMD transpose where
/// [`transpose::transposes`]), so every row is contiguous; otherwise the block as it lies.
///
/// # Safety
///
/// Every `p + i·sa + j·sb` (`i < ea`, `j < eb`) is an element of the source slice.
#[inline]
unsafe fn packed_rows<T: Copy + 'static, const K: usize>(
    scratch: &mut Scratch,
    p: *const T,
    sa: isize,
    ea: usize,
    run: &Loop<K>,
    k: usize,
) -> Rows<T> {
    let (eb, sb) = (run.extent, run.strides.get(k).copied().unwrap_or(0));
    let Ok(row) = isize::try_from(eb) else {
        return (p, sa, sb);
    };
    if !packs::<T, K>(sa, ea, run, k) {
        return (p, sa, sb);
    }
    let buf = scratch.0.as_mut_ptr().cast::<T>();
    if sa == 1 && transpose::transposes::<T>() {
        // SAFETY: `buf` holds `ea·eb` elements of `T` (`fits`, aligned), exclusively ours;
        // the source block is the caller's contract; they are distinct memory.
        unsafe { transpose::transpose_unchecked(buf, row, p, sb, ea, eb) };
    } else {
        for j in 0..eb {
            for i in 0..ea {
                // SAFETY: `p + i·sa + j·sb` (`i < ea`, `j < eb`) is an element of the source
                // slice (the caller's contract).
                let from = unsafe { p.offset(step(i, sa).wrapping_add(step(j, sb))) };
                // SAFETY: `from` is an element of the source slice (above).
                let x = unsafe { *from };
                // SAFETY: as above; `i·eb + j < ea·eb`: an element of `buf`.
                let to = unsafe { buf.offset(step(i, row).wrapping_add(step(j, 1))) };
                // SAFETY: `to` is an element of `buf`, exclusively ours.
                unsafe { to.write(x) };
            }
        }
    }
    (buf.cast_const(), row, 1)
}

/// Whether [`packed_rows`] packs operand `k`'s block of `ea` rows `sa` apart, each the
/// block's `run` (operand `k` stepping `sb`, the destination `ds`): the source runs across
/// the rows (`|sa| < |sb|`, a transposed operand), the block fits a [`Scratch`], holds two
/// rows or more, and the packing buys something. It does where the destination's rows step
/// one element (either way: the rows then run as slices), or where the source's rows step a
/// line or more and the run's lines, in every operand that steps a line or more, fill their
/// first-level sets ([`set_shares`]: the next row, an element on, would come back to evicted
/// lines). A block written a strided element at a time whose rows' lines stay cached reads
/// its source as it lies, even where the SIMD transpose could pack it: packing it only
/// copied each element once more (the random sweep's 27, `u8` rows stepping 4 bytes written
/// 6 bytes apart, ran `map` at 0.61x the plain loop's speed packed; its 217, `f32` tiles of
/// 3 x 124 whose rows step 480 bytes in the destination and the second source, ran `zip_map`
/// at 0.33-0.8x; its 61, `f64` tiles of 4 x 64 written 24 bytes a step, transposed into the
/// scratch, `map` at 0.5-0.6x).
fn packs<T: 'static, const K: usize>(sa: isize, ea: usize, run: &Loop<K>, k: usize) -> bool {
    let (Some(&ds), Some(&sb)) = (run.strides.first(), run.strides.get(k)) else {
        return false;
    };
    fits::<T>(ea, run.extent)
        && ea >= 2
        && sb.unsigned_abs() > sa.unsigned_abs()
        && (ds.unsigned_abs() == 1
            || (sb.unsigned_abs().saturating_mul(size_of::<T>()) >= LINE_BYTES
                && set_shares(run, line_for(size_of::<T>())) >= SET_ROOM))
}

/// Whether [`map_nests`] runs `nest` as plain loops ([`map_short`]; [`map_thin`] where it is
/// tiled), `tile` its [`crowded_tile`]: its rows are [`short_rows`] (but [`chunked`] ones),
/// unless the rows' path packs its tiles' narrow source ([`narrow_packed`]) or runs its long
/// strided tiles' rows ([`long_strided_tiles`]); or, untiled, they are [`loose_rows`] no source
/// packs.
fn map_plain<T: 'static, const L: usize>(nest: &Nest<2, L>, tile: Option<[usize; 2]>) -> bool {
    short_rows(nest).is_some_and(|row| !chunked::<T>(&row))
        && !narrow_packed::<T, 2, L>(nest, 1)
        && !long_strided_tiles(nest)
        || (tile.is_none()
            && loose_rows(nest, |[_, sa], rows, run| {
                packs::<T, 2>(sa, rows.extent, run, 1)
            }))
}

/// Whether [`zip_map_nests`] runs `nest` as plain loops ([`zip_short`]; [`zip_thin`] where it
/// is tiled), `tiled` whether it takes [`zip_tiled`]: its rows are [`short_rows`], unless the
/// rows' path packs either source's tiles of narrow elements ([`narrow_packed`]); or, untiled,
/// they are [`loose_rows`] neither source packs.
fn zip_plain<A: 'static, B: 'static>(nest: &Nest<3>, tiled: bool) -> bool {
    short_rows(nest).is_some()
        && !narrow_packed::<A, 3, MAX_LOOPS>(nest, 1)
        && !narrow_packed::<B, 3, MAX_LOOPS>(nest, 2)
        || (!tiled
            && loose_rows(nest, |[_, ar, br], rows, run| {
                packs::<A, 3>(ar, rows.extent, run, 1) || packs::<B, 3>(br, rows.extent, run, 2)
            }))
}

/// `dst[i] = f(src[i])` over the plan (operand 0 `dst`, operand 1 `src`).
pub(crate) fn map<T: Copy + 'static, U: Copy, F: FnMut(T) -> U, const M: usize, const L: usize>(
    unique: &Unique<'_, 2, M, L>,
    dst: &mut [U],
    src: &[T],
    mut f: F,
) -> Result<(), LayoutError> {
    let plan = unique.bounds().plan_for([dst.len(), src.len()])?;
    // SAFETY: as in `copy`: in bounds (`InBounds`), distinct borrows, unique destination
    // (`Unique`).
    unsafe { map_nests(plan, dst.as_mut_ptr(), src.as_ptr(), &mut f) };
    Ok(())
}

/// `d[i] = f(s[i])` over the nests of `plan`: the loops of [`map`], and of one part of a split
/// plan.
///
/// # Safety
///
/// As [`copy_nests`](super::copy_nests).
pub(crate) unsafe fn map_nests<
    T: Copy + 'static,
    U: Copy,
    F: FnMut(T) -> U,
    const M: usize,
    const L: usize,
>(
    plan: &Plan<2, M, L>,
    d: *mut U,
    s: *const T,
    f: &mut F,
) {
    let mut scratch = Scratch::new();
    for nest in plan.nests() {
        let tile = crowded_tile::<T, L>(nest);
        if map_plain::<T, L>(nest, tile) {
            if nest.tile().is_some() {
                // SAFETY: the caller's contract, for `nest`.
                unsafe { map_thin(nest, d, s, f) };
            } else {
                // SAFETY: the caller's contract, for `nest`.
                unsafe { map_short(nest, d, s, f) };
            }
            continue;
        }
        if let Some(tile) = tile {
            // SAFETY: the caller's contract, for `nest`.
            unsafe { map_tiled(nest, tile, &mut scratch, d, s, f) };
            continue;
        }
        for_each_block(nest, |offs, a, b| {
            // SAFETY: the block's offsets are offsets of the nest (the caller's contract):
            // `map_block`'s contract.
            unsafe { map_block(&mut scratch, d, s, offs, [a, b], f) };
        });
    }
}

/// [`map_nests`] of one nest whose blocks run in tiles of `tile` ([`crowded_tile`]), each
/// packed before its rows run, turned where the destination runs across its rows. Out of
/// line, so that the untiled blocks' path compiles as it did.
///
/// # Safety
///
/// [`map_nests`]' contract, for `nest`.
#[inline(never)]
unsafe fn map_tiled<T: Copy + 'static, U, F: FnMut(T) -> U, const L: usize>(
    nest: &Nest<2, L>,
    tile: [usize; 2],
    scratch: &mut Scratch,
    d: *mut U,
    s: *const T,
    f: &mut F,
) {
    for_each_block_tiled(nest, Some(tile), |offs, a, b| {
        // A tile whose destination runs across its rows, turned: its rows are then the
        // destination's runs, and the source's tile is packed to match.
        let block = if across(&a, &b, 0) { [b, a] } else { [a, b] };
        // SAFETY: the tile's offsets are offsets of the nest (the caller's contract), and a
        // tile turned holds the same elements: `map_block`'s contract.
        unsafe { map_block(scratch, d, s, offs, block, f) };
    });
}

/// `d[x] = f(s[x])` over the block `a × b` at offsets `[od, os]` (`a.extent` rows of `b`), row
/// by row: a source that runs across the rows packed into `scratch` first where it fits
/// ([`packed_rows`]); each row as slices where both sides step one element (or one of them
/// backwards), else element by element.
///
/// # Safety
///
/// Every offset `od + i·a + j·b` (`i < a.extent`, `j < b.extent`, each loop's destination
/// stride) is an element of the destination's allocation, and `os + ...` likewise of the
/// source's; no two indices share a destination element, and no destination element is a
/// source element.
#[expect(
    clippy::inline_always,
    reason = "inlined into the driver's closure: one body for whole blocks and tiles"
)]
#[expect(
    clippy::many_single_char_names,
    reason = "the operands and loops are named as in the module"
)]
#[inline(always)]
unsafe fn map_block<T: Copy + 'static, U, F: FnMut(T) -> U>(
    scratch: &mut Scratch,
    d: *mut U,
    s: *const T,
    [od, os]: [isize; 2],
    [a, b]: [Loop<2>; 2],
    f: &mut F,
) {
    let ([da, sa], [db, _]) = (a.strides, b.strides);
    // The block's elements are inside the allocations (the caller's contract); a
    // packed source is a copy of its block in `scratch`. Destination and source do
    // not overlap (contract, and `scratch` is ours), so unit-stride rows do not
    // alias.
    // SAFETY: `os` is an offset of the block, inside the source allocation (above).
    let s0 = unsafe { s.offset(os) };
    // SAFETY: every element of the source block at `s0` is in the source allocation
    // (above).
    let (sp, sr, se) = unsafe { packed_rows(scratch, s0, sa, a.extent, &b, 1) };
    for i in 0..a.extent {
        // SAFETY: `od` is an offset of the block, inside the destination allocation
        // (above).
        let d0 = unsafe { d.offset(od) };
        // SAFETY: row `i < a.extent` of the destination block starts inside the
        // allocation (above).
        let dp = unsafe { d0.offset(step(i, da)) };
        // SAFETY: row `i` of the source block, as it lies or packed in `scratch`,
        // starts inside its memory (above).
        let sp = unsafe { sp.offset(step(i, sr)) };
        if db == 1 && se == 1 {
            // SAFETY: the row's `b.extent` consecutive destination elements, unique and
            // aliasing no source row (above).
            let dr = unsafe { slice::from_raw_parts_mut(dp, b.extent) };
            // SAFETY: the row's `b.extent` consecutive source (or `scratch`) elements
            // (above).
            let srow = unsafe { slice::from_raw_parts(sp, b.extent) };
            for (x, &y) in dr.iter_mut().zip(srow) {
                *x = f(y);
            }
        } else if flipped(db, se) {
            // A flipped row (one side one element a step backwards): both as slices
            // from their lowest element, one walked in reverse a chunk at a time, so
            // that the compiler vectorises it as it does `copy()`'s reversed runs; `f`
            // still sees the source in the row's order.
            let (dl, sl) = lowest(dp, sp, db, b.extent);
            // SAFETY: the row's `b.extent` destination elements, from its lowest, unique
            // and aliasing no source row (above).
            let dr = unsafe { slice::from_raw_parts_mut(dl, b.extent) };
            // SAFETY: the row's `b.extent` source (or `scratch`) elements, from its
            // lowest (above).
            let srow = unsafe { slice::from_raw_parts(sl, b.extent) };
            map_reversed(dr, srow, db < 0, f);
        } else {
            for j in 0..b.extent {
                // SAFETY: element `j < b.extent` of the source row (above).
                let from = unsafe { sp.offset(step(j, se)) };
                // SAFETY: `from` is a source (or `scratch`) element (above).
                let value = unsafe { *from };
                let mapped = f(value);
                // SAFETY: element `j < b.extent` of the destination row (above).
                let to = unsafe { dp.offset(step(j, db)) };
                // SAFETY: `to` is a destination element, unique, no source's (above).
                unsafe { *to = mapped };
            }
        }
    }
}

/// `dst[i] = f(a[i], b[i])` over the plan (operands `dst`, `a`, `b`).
pub(crate) fn zip_map<
    A: Copy + 'static,
    B: Copy + 'static,
    U: Copy,
    F: FnMut(A, B) -> U,
    const M: usize,
>(
    unique: &Unique<'_, 3, M>,
    dst: &mut [U],
    a: &[A],
    b: &[B],
    mut f: F,
) -> Result<(), LayoutError> {
    let plan = unique.bounds().plan_for([dst.len(), a.len(), b.len()])?;
    // SAFETY: as in `copy`: in bounds (`InBounds`), distinct borrows, unique destination
    // (`Unique`).
    unsafe { zip_map_nests(plan, dst.as_mut_ptr(), a.as_ptr(), b.as_ptr(), &mut f) };
    Ok(())
}

/// `d[i] = f(pa[i], pb[i])` over the nests of `plan`: the loops of [`zip_map`], and of one
/// part of a split plan.
///
/// # Safety
///
/// As [`copy_nests`](super::copy_nests), for the destination and each of the two sources.
pub(crate) unsafe fn zip_map_nests<
    A: Copy + 'static,
    B: Copy + 'static,
    U: Copy,
    F: FnMut(A, B) -> U,
    const M: usize,
>(
    plan: &Plan<3, M>,
    d: *mut U,
    pa: *const A,
    pb: *const B,
    f: &mut F,
) {
    let (mut scratch_a, mut scratch_b) = (Scratch::new(), Scratch::new());
    for nest in plan.nests() {
        let tiled = zip_tiled::<A, B, U>(nest);
        if zip_plain::<A, B>(nest, tiled) {
            if nest.tile().is_some() {
                // SAFETY: the caller's contract, for `nest`.
                unsafe { zip_thin(nest, d, pa, pb, f) };
            } else {
                // SAFETY: the caller's contract, for `nest`.
                unsafe { zip_short(nest, d, pa, pb, f) };
            }
            continue;
        }
        if tiled {
            for_each_block_tiled(nest, None, |[od, oa, ob], rows, run| {
                let ([dr, ar, br], [_, sa, sb]) = (rows.strides, run.strides);
                // SAFETY: `od` is an offset of the nest, inside the destination allocation (the
                // caller's contract).
                let dp = unsafe { d.offset(od) };
                // SAFETY: `oa` is an offset of the nest, inside `a`'s allocation (likewise).
                let ap = unsafe { pa.offset(oa) };
                // SAFETY: `ob` is an offset of the nest, inside `b`'s allocation (likewise).
                let bp = unsafe { pb.offset(ob) };
                // SAFETY: the whole block's offsets are offsets of the nest, inside the
                // allocations; the destination overlaps neither source and is unique (the
                // caller's contract); `takes` held for these strides.
                unsafe {
                    zip_tiles::zip_block(
                        (dp, dr),
                        (ap, ar, sa),
                        (bp, br, sb),
                        [rows.extent, run.extent],
                        f,
                    );
                }
            });
            continue;
        }
        for_each_block(nest, |[od, oa, ob], rows, run| {
            let ([dr, ar, br], ds) = (rows.strides, run.strides[0]);
            let (ea, eb) = (rows.extent, run.extent);
            // The block's elements are inside the allocations (the caller's contract);
            // packed sources are copies in our own scratch. The destination overlaps neither
            // source (contract), so its unit-stride rows alias neither.
            // SAFETY: `oa` is an offset of the nest, inside `a`'s allocation (above).
            let a0 = unsafe { pa.offset(oa) };
            // SAFETY: every element of `a`'s block at `a0` is in its allocation (above).
            let (ap, ar, sa) = unsafe { packed_rows(&mut scratch_a, a0, ar, ea, &run, 1) };
            // SAFETY: `ob` is an offset of the nest, inside `b`'s allocation (above).
            let b0 = unsafe { pb.offset(ob) };
            // SAFETY: every element of `b`'s block at `b0` is in its allocation (above).
            let (bp, br, sb) = unsafe { packed_rows(&mut scratch_b, b0, br, ea, &run, 2) };
            for i in 0..ea {
                // SAFETY: `od` is an offset of the nest, inside the destination allocation
                // (above).
                let d0 = unsafe { d.offset(od) };
                // SAFETY: row `i < ea` of the destination block starts inside the
                // allocation (above).
                let dp = unsafe { d0.offset(step(i, dr)) };
                // SAFETY: row `i` of `a`'s block, as it lies or packed, starts inside its
                // memory (above).
                let ap = unsafe { ap.offset(step(i, ar)) };
                // SAFETY: row `i` of `b`'s block, likewise.
                let bp = unsafe { bp.offset(step(i, br)) };
                if ds == 1 && sa == 1 && sb == 1 {
                    // SAFETY: the row's `eb` consecutive destination elements, unique and
                    // aliasing neither source (above).
                    let drow = unsafe { slice::from_raw_parts_mut(dp, eb) };
                    // SAFETY: the row's `eb` consecutive elements of `a` (or its scratch).
                    let arow = unsafe { slice::from_raw_parts(ap, eb) };
                    // SAFETY: the row's `eb` consecutive elements of `b` (or its scratch).
                    let brow = unsafe { slice::from_raw_parts(bp, eb) };
                    for ((x, &y), &z) in drow.iter_mut().zip(arow).zip(brow) {
                        *x = f(y, z);
                    }
                } else if ds.unsigned_abs() == 1
                    && sa.unsigned_abs() == 1
                    && sb.unsigned_abs() == 1
                    && zip_reversed_worth::<A, B>(eb)
                {
                    // A row each operand steps one element, some backwards: each as a slice
                    // from its lowest element, the backward ones walked from their ends a
                    // chunk at a time.
                    let n = eb.saturating_sub(1);
                    let low = |p: isize| if p < 0 { n } else { 0 };
                    // SAFETY: the row's `eb` destination elements, from its lowest (its first
                    // minus `eb - 1` when it runs backwards): inside the allocation, unique,
                    // aliasing neither source (above).
                    let drow = unsafe { slice::from_raw_parts_mut(dp.wrapping_sub(low(ds)), eb) };
                    // SAFETY: the row's `eb` elements of `a` (or its scratch), from its lowest.
                    let arow = unsafe { slice::from_raw_parts(ap.wrapping_sub(low(sa)), eb) };
                    // SAFETY: the row's `eb` elements of `b` (or its scratch), from its lowest.
                    let brow = unsafe { slice::from_raw_parts(bp.wrapping_sub(low(sb)), eb) };
                    zip_reversed(drow, arow, brow, [ds < 0, sa < 0, sb < 0], f);
                } else {
                    for j in 0..eb {
                        // SAFETY: element `j < eb` of `a`'s row (above).
                        let from_a = unsafe { ap.offset(step(j, sa)) };
                        // SAFETY: `from_a` is an element of `a` (or its scratch).
                        let va = unsafe { *from_a };
                        // SAFETY: element `j < eb` of `b`'s row (above).
                        let from_b = unsafe { bp.offset(step(j, sb)) };
                        // SAFETY: `from_b` is an element of `b` (or its scratch).
                        let vb = unsafe { *from_b };
                        let zipped = f(va, vb);
                        // SAFETY: element `j < eb` of the destination row (above).
                        let to = unsafe { dp.offset(step(j, ds)) };
                        // SAFETY: `to` is a destination element, unique, no source's (above).
                        unsafe { *to = zipped };
                    }
                }
            }
        });
    }
}

/// Folds `f` over the elements of operand 0 in the plan's order.
pub(crate) fn fold<T: Copy, A, F: FnMut(A, T) -> A>(
    ib: &InBounds<'_, 1>,
    src: &[T],
    init: A,
    mut f: F,
) -> Result<A, LayoutError> {
    let plan = ib.plan_for([src.len()])?;
    let s = src.as_ptr();
    let mut acc = Some(init);
    for nest in plan.nests() {
        if short_cubes(nest) {
            if let Some(a) = acc.take() {
                // SAFETY: every offset of the nest is inside `src` (`InBounds` witness).
                acc = unsafe { fold_short(nest, s, a, &mut f) };
            }
            continue;
        }
        for_each_run(nest, |[o], run| {
            let [ss] = run.strides;
            let Some(mut a) = acc.take() else { return };
            // The run's elements are inside `src` (`InBounds` witness).
            // SAFETY: `o`, the run's first offset, is inside `src` (above).
            let p = unsafe { s.offset(o) };
            if ss == 1 {
                // SAFETY: a unit-stride run: `run.extent` consecutive elements of `src`
                // (above), borrowed shared.
                let elements = unsafe { slice::from_raw_parts(p, run.extent) };
                for &x in elements {
                    a = f(a, x);
                }
            } else {
                for j in 0..run.extent {
                    // SAFETY: `j < run.extent`: `o + j·ss` is inside `src` (above).
                    let at = unsafe { p.offset(step(j, ss)) };
                    // SAFETY: `at` is an element of `src` (above).
                    let value = unsafe { *at };
                    a = f(a, value);
                }
            }
            acc = Some(a);
        });
    }
    // `acc` is `Some` again after every run.
    acc.ok_or(LayoutError::OffsetOverflow)
}

#[cfg(test)]
#[expect(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    reason = "a test: every offset is checked by `unwrap` and indexing"
)]
mod tests {
    use super::{
        SHORT_ROW, THIN_ROWS, UNROLLED_ROW, chunked, crowded_tile, cube_turned, loose_rows,
        map_plain, packs, reversed, row_len, short_cubes, short_rows, zip_plain, zip_tiled,
    };
    use crate::kernel::plan::{Loop, MAX_LOOPS, Nest, Plan, cube_turns, line_for};
    use crate::{Layout, map, zip_map};
    use core::ops::{Add, Mul, Sub};
    use std::vec::Vec;

    /// `map` of `x + 0.5` from `src` and `zip_map` of `x - y` from the two `zip` operands,
    /// each into a new buffer of `len` elements laid out as `dst` (filled with -1 first).
    fn mapped_and_zipped<T, const N: usize>(
        (src, src_l): (&[T], &Layout<N>),
        [(a, a_l), (b, b_l)]: [(&[T], &Layout<N>); 2],
        (dst, len): (&Layout<N>, usize),
    ) -> (Vec<T>, Vec<T>)
    where
        T: Copy + 'static + From<f32> + Add<Output = T> + Sub<Output = T>,
    {
        let (mut mapped, mut zipped) =
            (std::vec![T::from(-1.0); len], std::vec![T::from(-1.0); len]);
        map(src, src_l, &mut mapped, dst, |x: T| x + T::from(0.5)).unwrap();
        zip_map(a, a_l, b, b_l, &mut zipped, dst, |x: T, y: T| x - y).unwrap();
        (mapped, zipped)
    }

    /// Blocks the plan leaves whole whose destination runs across their rows, written a
    /// line or more a step into lines that crowd their first-level sets, run in tiles turned
    /// so that their rows are the destination's runs (`crowded_tile`, `map_tiled`); `map`
    /// writes what the model does, tiles' edges included; blocks whose rows' lines stay
    /// cached run whole.
    #[test]
    fn blocks_written_across_map_in_turned_tiles_as_the_model() {
        // (k, n, tiled): the power-of-two sweep's 222 and smaller, `(k, 2, n)` read `(-2, -1,
        // 64)`, written `(2n, n, 1)`: the nest's rows of 2k written n apart. 16 rows 4 KiB
        // apart (one set of 8 lines), 32 rows 2 KiB apart (two sets) and 8 KiB: tiled; 16
        // rows 2,400 bytes apart (no whole number of lines: every set): whole; 64 x 8, tiled
        // by the plan: not this rule's.
        let cases = [
            (8usize, 512usize, true),
            (8, 300, false),
            (16, 256, true),
            (16, 1024, true),
            (4, 64, false),
        ];
        // Under Miri, the first two (a turned tile's path, and a whole block's).
        let take = if cfg!(miri) { 2 } else { cases.len() };
        for &(k, n, tiled) in &cases[..take] {
            let (ki, ni) = (k.cast_signed(), n.cast_signed());
            let src_l = Layout::new([k, 2, n], [-2, -1, 64], 8)
                .and_then(|l| l.with_offset(2 * ki - 1))
                .unwrap();
            let dst_l = Layout::new([k, 2, n], [2 * ni, ni, 1], 8).unwrap();
            let plan = Plan::new(&[dst_l.lowered(), src_l.lowered()]).unwrap();
            let nest = &plan.nests()[0];
            assert_eq!(
                crowded_tile::<f64, MAX_LOOPS>(nest).is_some(),
                tiled,
                "{k} x 2 x {n}"
            );
            let src: Vec<f64> = (0..src_l.required_len().unwrap())
                .map(|i| f64::from(u32::try_from(i).unwrap()))
                .collect();
            let len = dst_l.required_len().unwrap();
            let mut out = std::vec![-1.0f64; len];
            map(&src, &src_l, &mut out, &dst_l, |x: f64| x * 2.0).unwrap();
            let mut want = std::vec![-1.0f64; len];
            for (s, d) in src_l.offsets().zip(dst_l.offsets()) {
                want[d.unsigned_abs()] = src[s.unsigned_abs()] * 2.0;
            }
            assert!(out == want, "{k} x 2 x {n}");
        }
    }

    /// Blocks `n x k1 x k2` whose source is transposed block by block (`k1` consecutive along
    /// the rows, `k2` the destination's consecutive): untiled nests whose rows are shorter
    /// than [`SHORT_ROW`], or strided under fewer than [`THIN_ROWS`] rows, run as plain loops
    /// (`short_rows`), others by rows; `map` and `zip_map` write what the model does either
    /// way, for 1- and 8-byte elements.
    #[test]
    #[expect(
        clippy::many_single_char_names,
        reason = "indices and strides named as the layouts' axes"
    )]
    fn short_rows_map_and_zip_as_the_model() {
        let mut taken = [0; 2];
        for (k1, k2) in [
            (1usize, 1usize),
            (2, 3),
            (3, 3),
            (4, 4),
            (5, 15),
            (2, 16),
            (7, 17),
            (16, 2),
            (9, 17),
            (16, 16),
        ] {
            // Under Miri 17 blocks, still a row of 16 elements or more where they merge.
            let n = if cfg!(miri) { 17usize } else { 37 };
            let (a, b, bb) = (k1.cast_signed(), k2.cast_signed(), (k1 * k2).cast_signed());
            let len = n * k1 * k2;
            let src_l = Layout::new([n, k1, k2], [bb, 1, a], 8).unwrap();
            let dst_l = Layout::new([n, k1, k2], [bb, b, 1], 8).unwrap();
            let plan = Plan::new(&[dst_l.lowered(), src_l.lowered()]).unwrap();
            let nest = &plan.nests()[0];
            let row = nest.loops().last().unwrap().extent;
            let short = short_rows(nest).is_some_and(|row| !chunked::<f64>(&row));
            let thin =
                nest.loops().len() > 1 && nest.loops()[nest.loops().len() - 2].extent < THIN_ROWS;
            let strided = nest.loops().last().unwrap().strides != [1, 1];
            assert_eq!(
                short,
                nest.tile().is_none() && (row < SHORT_ROW || thin && strided)
            );
            taken[usize::from(short)] += 1;
            let src: Vec<f64> = (0..len)
                .map(|i| f64::from(u32::try_from(i).unwrap()))
                .collect();
            let twice: Vec<f64> = src.iter().map(|x| 2.0 * x).collect();
            let (dst, sum) = mapped_and_zipped(
                (&src, &src_l),
                [(&src, &src_l), (&twice, &dst_l)],
                (&dst_l, len),
            );
            let bytes: Vec<u8> = (0..len).map(|i| u8::try_from(i % 251).unwrap()).collect();
            let src_b = Layout::new([n, k1, k2], [bb, 1, a], 1).unwrap();
            let dst_b = Layout::new([n, k1, k2], [bb, b, 1], 1).unwrap();
            let mut dst8 = std::vec![0u8; len];
            map(&bytes, &src_b, &mut dst8, &dst_b, |x: u8| x ^ 0x5a).unwrap();
            for i in 0..n {
                for p in 0..k1 {
                    for q in 0..k2 {
                        let (s, d) = (i * k1 * k2 + q * k1 + p, i * k1 * k2 + p * k2 + q);
                        assert_eq!(
                            dst[d].to_bits(),
                            (src[s] + 0.5).to_bits(),
                            "{k1} x {k2} at {i}, {p}, {q}"
                        );
                        assert_eq!(
                            sum[d].to_bits(),
                            (src[s] - twice[d]).to_bits(),
                            "{k1} x {k2} at {i}, {p}, {q}"
                        );
                        assert_eq!(dst8[d], bytes[s] ^ 0x5a, "{k1} x {k2} at {i}, {p}, {q}");
                    }
                }
            }
        }
        // Both paths ran: by rows 1 x 1 (merged into rows of 37, one element a step), 9 x 17
        // and 16 x 16; the rest as plain loops (2 x 16, 7 x 17 and 16 x 2, whose rows are the
        // 16 the source reads in a run, under fewer than `THIN_ROWS` rows).
        assert_eq!(taken, [3, 7]);
    }

    /// `map` of `3x` from `src` and `zip_map` of `y + x` from `src` and `other` (laid out as
    /// the destination), each into a destination of `other.len()` elements filled with
    /// `blank` first: what the tests of short rows and thin tiles compare with the model.
    fn map_and_zip<S, D, const N: usize>(
        src: &[S],
        src_l: &Layout<N>,
        other: &[D],
        dst_l: &Layout<N>,
        blank: D,
    ) -> (Vec<D>, Vec<D>)
    where
        S: Copy + 'static,
        D: Copy + From<S> + From<u8> + Add<Output = D> + Mul<Output = D> + 'static,
    {
        let mut mapped = std::vec![blank; other.len()];
        let mut zipped = std::vec![blank; other.len()];
        let three = <D as From<u8>>::from(3);
        map(src, src_l, &mut mapped, dst_l, |x: S| {
            <D as From<S>>::from(x) * three
        })
        .unwrap();
        zip_map(
            src,
            src_l,
            other,
            dst_l,
            &mut zipped,
            dst_l,
            |x: S, y: D| y + <D as From<S>>::from(x),
        )
        .unwrap();
        (mapped, zipped)
    }

    /// Tiles of fewer than [`THIN_ROWS`] rows (4 rows read across, the source's elements one
    /// apart from row to row): [`map_plain`] and [`zip_plain`] run them as plain loops, tile by
    /// tile, unless the rows' path packs a 2-byte source into rows of `PACKED_ROW` or more
    /// (`narrow_packed`, both kernels) or, for `map`, the tiles' rows are longer than that and
    /// strided in the destination (`long_strided_tiles`); `zip_map`'s operands of 4 bytes or
    /// more are planned untiled, the 4 rows inside (the planner's `few_rows_inside`); each way
    /// as the model, elements outside the destination's layout untouched.
    #[test]
    fn thin_tiles_run_as_plain_loops_unless_the_rows_pack_narrow_or_stride_long() {
        // Rows of 16 written 3 apart (u64), rows of 227-240 packed from u16 into dense u32,
        // the same from u32 (not narrow), and long rows written 3 apart, into u32 and u64
        // (zip_map's operands all 4 bytes or more: untiled).
        thin_tiles::<u16, u64>(3, 8, [Some(true), Some(true)]);
        thin_tiles::<u16, u32>(1, 16, [Some(false), Some(false)]);
        thin_tiles::<u32, u32>(1, 16, [Some(true), None]);
        thin_tiles::<u32, u32>(3, 16, [Some(false), None]);
        thin_tiles::<u32, u64>(3, 16, [Some(true), None]);
    }

    /// One case of [`thin_tiles_run_as_plain_loops_unless_the_rows_pack_narrow_or_stride_long`]:
    /// 4 rows of 512, the source's elements `sj` apart along a row and one apart across, the
    /// destination's `dj` apart along its rows (C order); `expect` says whether `map` and
    /// `zip_map` run them as plain loops, `None` where the plan has no such tiles (`zip_map`'s
    /// untiled, the rows' loop innermost).
    fn thin_tiles<S, D>(dj: usize, sj: usize, expect: [Option<bool>; 2])
    where
        S: Copy + TryFrom<usize> + 'static,
        D: Copy + From<S> + From<u8> + TryFrom<usize> + Add<Output = D> + Mul<Output = D>,
        D: PartialEq + core::fmt::Debug + 'static,
        <S as TryFrom<usize>>::Error: core::fmt::Debug,
        <D as TryFrom<usize>>::Error: core::fmt::Debug,
    {
        /// The nest's thin tiles where `tiled` (the test expects them), else no tile and the
        /// rows' loop innermost.
        fn tiles<const K: usize, const L: usize>(nest: &Nest<K, L>, tiled: bool, rows: usize) {
            let tile = nest.tile();
            if tiled {
                assert!(tile.is_some_and(|[ta, _]| ta < THIN_ROWS), "{tile:?}");
            } else {
                assert_eq!(tile, None);
                assert_eq!(nest.loops().last().map(|l| l.extent), Some(rows));
            }
        }
        let (rows, len) = (4usize, 512usize);
        let src_l = Layout::new([rows, len], [1, sj.cast_signed()], size_of::<S>()).unwrap();
        let dst_l = Layout::new(
            [rows, len],
            [(len * dj).cast_signed(), dj.cast_signed()],
            size_of::<D>(),
        )
        .unwrap();
        let case = std::format!(
            "{} from {} bytes, written {dj} apart",
            size_of::<D>(),
            size_of::<S>()
        );
        let map_plan = Plan::new(&[dst_l.lowered(), src_l.lowered()]).unwrap();
        let map_nest = &map_plan.nests()[0];
        let zip_plan = Plan::new(&[dst_l.lowered(), src_l.lowered(), dst_l.lowered()]).unwrap();
        let zip_nest = &zip_plan.nests()[0];
        tiles(map_nest, expect[0].is_some(), rows);
        tiles(zip_nest, expect[1].is_some(), rows);
        let taken = [
            Some(map_plain::<S, MAX_LOOPS>(
                map_nest,
                crowded_tile::<S, MAX_LOOPS>(map_nest),
            )),
            expect[1].map(|_| zip_plain::<S, D>(zip_nest, zip_tiled::<S, D, D>(zip_nest))),
        ];
        assert_eq!(taken, expect, "{case}");
        let (dst_len, src_len) = (rows * len * dj, (len - 1) * sj + rows);
        let src: Vec<S> = (0..src_len)
            .map(|k| S::try_from(k % 251).unwrap())
            .collect();
        let other: Vec<D> = (0..dst_len).map(|k| D::try_from(k << 8).unwrap()).collect();
        let blank = D::try_from(7).unwrap();
        let (mapped, zipped) = map_and_zip(&src, &src_l, &other, &dst_l, blank);
        let three = <D as From<u8>>::from(3);
        for at in 0..dst_len {
            let (row, along) = (at / (len * dj), at % (len * dj));
            let col = along / dj;
            if along % dj == 0 {
                let value = <D as From<S>>::from(src[row + col * sj]);
                assert_eq!(mapped[at], value * three, "{case}, at {row}, {col}");
                assert_eq!(zipped[at], other[at] + value, "{case}, at {row}, {col}");
            } else {
                assert_eq!([mapped[at], zipped[at]], [blank; 2], "{case}, element {at}");
            }
        }
    }

    /// Rows of [`SHORT_ROW`] to twice as many elements, strided in some operand, run as plain
    /// loops where the rows' path would run them as they lie ([`loose_rows`]: rows written 2
    /// apart from a source's rows), and keep the rows' path where it packs a transposed
    /// source (the destination's rows consecutive, the source read across them); `map` and
    /// `zip_map` write what the model does for rows of 14 to 33 elements either way.
    #[test]
    fn loose_rows_run_as_plain_loops_unless_a_source_packs() {
        let n = 6usize;
        let lengths: &[usize] = if cfg!(miri) {
            &[15, 16, 31, 32]
        } else {
            &[14, 15, 16, 17, 19, 24, 31, 32, 33]
        };
        for &r in lengths {
            let (ni, ri) = (n.cast_signed(), r.cast_signed());
            // Rows written 2 apart, read as they lie; and a source read across the rows.
            let apart = (
                Layout::new([n, r], [2 * ri + 3, 2], 4).unwrap(),
                Layout::new([n, r], [ri + 1, 1], 2).unwrap(),
            );
            let across = (
                Layout::new([n, r], [ri, 1], 4).unwrap(),
                Layout::new([n, r], [1, ni], 2).unwrap(),
            );
            for (case, (dst_l, src_l)) in [("apart", apart), ("across", across)] {
                let plan = Plan::new(&[dst_l.lowered(), src_l.lowered()]).unwrap();
                let nest = &plan.nests()[0];
                assert_eq!(
                    nest.loops().last().unwrap().extent,
                    r,
                    "{case}, rows of {r}"
                );
                let loose = loose_rows(nest, |[_, sa], rows, run| {
                    packs::<u16, 2>(sa, rows.extent, run, 1)
                });
                let zplan =
                    Plan::new(&[dst_l.lowered(), src_l.lowered(), dst_l.lowered()]).unwrap();
                let zloose = loose_rows(&zplan.nests()[0], |[_, ar, br], rows, run| {
                    packs::<u16, 3>(ar, rows.extent, run, 1)
                        || packs::<u32, 3>(br, rows.extent, run, 2)
                });
                let expect = cfg!(not(target_os = "none")) && case == "apart" && r < 2 * SHORT_ROW;
                assert_eq!((loose, zloose), (expect, expect), "{case}, rows of {r}");
                // Every stride is positive: the last element is the one past each axis' end.
                let span = |l: &Layout<2>| {
                    let [s0, s1] = l.strides().map(isize::unsigned_abs);
                    (n - 1) * s0 + (r - 1) * s1 + 1
                };
                let (dst_len, src_len) = (span(&dst_l), span(&src_l));
                let src: Vec<u16> = (0..src_len).map(|i| u16::try_from(i).unwrap()).collect();
                let other: Vec<u32> = (0..dst_len)
                    .map(|i| u32::try_from(i).unwrap() << 16)
                    .collect();
                let (mapped, zipped) = map_and_zip(&src, &src_l, &other, &dst_l, u32::MAX);
                let ([d0, d1], [s0, s1]) = (dst_l.strides(), src_l.strides());
                let mut written = 0;
                for i in 0..n {
                    for j in 0..r {
                        let (ii, jj) = (i.cast_signed(), j.cast_signed());
                        let d = usize::try_from(ii * d0 + jj * d1).unwrap();
                        let s = usize::try_from(ii * s0 + jj * s1).unwrap();
                        let at = std::format!("{case}, rows of {r}, at {i}, {j}");
                        assert_eq!(mapped[d], u32::from(src[s]) * 3, "{at}");
                        assert_eq!(zipped[d], other[d] + u32::from(src[s]), "{at}");
                        written += 1;
                    }
                }
                // Nothing else written.
                let untouched = mapped.iter().filter(|&&x| x == u32::MAX).count();
                assert_eq!(untouched + written, dst_len, "{case}, rows of {r}");
                let zipped_untouched = zipped.iter().filter(|&&x| x == u32::MAX).count();
                assert_eq!(zipped_untouched, untouched, "{case}, rows of {r}");
            }
        }
    }

    /// Short rows run in cubes compiled for their length where it is 2 to [`UNROLLED_ROW`]
    /// (`row_len`, hosts), at run-time length otherwise: `map` (into elements of another size)
    /// and `zip_map` write what the model does for rows of 1 to 11 elements, every arm.
    #[test]
    fn short_rows_of_each_length_map_and_zip_as_the_model() {
        let mut lengths = [false; UNROLLED_ROW + 1];
        for r in 1..=11usize {
            let (n, k) = (5usize, 3usize);
            let len = n * k * r;
            let (kr, ki, ri) = ((k * r).cast_signed(), k.cast_signed(), r.cast_signed());
            // The source read across the destination's rows: rows of `r` strided elements.
            let src_l = Layout::new([n, k, r], [kr, 1, ki], 1).unwrap();
            let dst_l = Layout::new([n, k, r], [kr, ri, 1], 4).unwrap();
            let plan = Plan::new(&[dst_l.lowered(), src_l.lowered()]).unwrap();
            let nest = &plan.nests()[0];
            let row = row_len(nest);
            if r >= 2 {
                assert!(short_rows(nest).is_some(), "rows of {r}");
                assert_eq!(nest.loops().last().unwrap().extent, r, "rows of {r}");
            }
            let expect = if cfg!(target_os = "none") || !(2..=UNROLLED_ROW).contains(&r) {
                0
            } else {
                r
            };
            assert_eq!(row, expect, "rows of {r}");
            if let Some(seen) = lengths.get_mut(row) {
                *seen = true;
            }
            let src: Vec<u8> = (0..len).map(|i| u8::try_from(i % 251).unwrap()).collect();
            let other: Vec<u32> = (0..len).map(|i| u32::try_from(i).unwrap() << 8).collect();
            let (mapped, zipped) = map_and_zip(&src, &src_l, &other, &dst_l, u32::MAX);
            for i in 0..n {
                for p in 0..k {
                    for q in 0..r {
                        let (s, d) = (i * k * r + q * k + p, i * k * r + p * r + q);
                        assert_eq!(
                            mapped[d],
                            u32::from(src[s]) * 3,
                            "rows of {r} at {i}, {p}, {q}"
                        );
                        assert_eq!(
                            zipped[d],
                            other[d] + u32::from(src[s]),
                            "rows of {r} at {i}, {p}, {q}"
                        );
                    }
                }
            }
        }
        // Every length's loop ran, and the run-time length's.
        assert!(
            lengths[0]
                && lengths[2..]
                    .iter()
                    .all(|&seen| seen || cfg!(target_os = "none"))
        );
    }

    /// `fill` and `fold` of rows of 1 to 11 elements, consecutive or every second one, with a
    /// gap after each row: cubes of plain loops compiled for the row's length where it is 2
    /// to [`UNROLLED_ROW`], at run-time length for strided rows past it, runs of a slice for
    /// consecutive ones past it (`short_cubes`, hosts); every element filled and folded, in
    /// order, as the model.
    #[test]
    fn short_rows_of_each_length_fill_and_fold_as_the_model() {
        let mut paths = [0usize; 2];
        // Under Miri the lengths at the arms' edges and two past them.
        let lengths: &[usize] = if cfg!(miri) {
            &[1, 2, 5, 8, 9, 11]
        } else {
            &[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]
        };
        for &r in lengths {
            for step in [1usize, 2] {
                let (n, k) = (4usize, 3usize);
                let strides = [k * (r + 1) * step, (r + 1) * step, step].map(usize::cast_signed);
                let l = Layout::new([n, k, r], strides, 2).unwrap();
                let len = n * k * (r + 1) * step;
                let plan = Plan::new(&[l.lowered()]).unwrap();
                let cubes = short_cubes(&plan.nests()[0]);
                if r >= 2 {
                    let expect = cfg!(not(target_os = "none")) && (step == 2 || r <= UNROLLED_ROW);
                    assert_eq!(cubes, expect, "rows of {r}, step {step}");
                }
                paths[usize::from(cubes)] += 1;
                let offsets: Vec<usize> = (0..n)
                    .flat_map(|i| (0..k).flat_map(move |p| (0..r).map(move |q| (i, p, q))))
                    .map(|(i, p, q)| (i * k * (r + 1) + p * (r + 1) + q) * step)
                    .collect();
                let mut inside = std::vec![false; len];
                for &o in &offsets {
                    inside[o] = true;
                }
                let mut dst = std::vec![7u16; len];
                crate::fill(&mut dst, &l, 9u16).unwrap();
                for (o, (&x, &filled)) in dst.iter().zip(&inside).enumerate() {
                    assert_eq!(
                        x,
                        if filled { 9 } else { 7 },
                        "rows of {r}, step {step}, offset {o}"
                    );
                }
                let src: Vec<u16> = (0..len).map(|i| u16::try_from(i % 997).unwrap()).collect();
                // An order-sensitive fold: the plan's order is the index order here.
                let order = |acc: u64, x: u16| acc.wrapping_mul(31).wrapping_add(u64::from(x));
                let want = offsets.iter().fold(0u64, |acc, &o| order(acc, src[o]));
                assert_eq!(
                    crate::fold(&src, &l, 0u64, order).unwrap(),
                    want,
                    "rows of {r}, step {step}"
                );
            }
        }
        // Both paths ran: runs for consecutive rows past `UNROLLED_ROW`, cubes for the rest.
        assert!(paths[0] > 0 && (paths[1] > 0 || cfg!(target_os = "none")));
    }

    /// Short rows' cubes `c × a × b` turn (`a` outside `c`) where `a`'s rows evict the lines
    /// the next step of `c` comes back to and a pass of `c × b` keeps its own ([`cube_turns`]);
    /// `map` and `zip_map` write what the model does turned and not.
    #[test]
    #[expect(
        clippy::many_single_char_names,
        reason = "the loops named as the cube's, `c × a × b`"
    )]
    fn short_rows_cubes_turn_where_their_rows_evict_what_the_outer_loop_comes_back_to() {
        let l = |extent: usize, strides: [isize; 2]| Loop { extent, strides };
        let (u8_line, f32_line) = (line_for(1), line_for(4));
        // The power-of-two sweep's 66: `u8` rows of 2, 32 of them 16 KiB apart in the source
        // (one set), under 1,024 steps 4 bytes on: turned. With 3 steps outside, or 8 rows
        // (the set holds them): not.
        let (c, a, b) = (l(1024, [64, 4]), l(32, [-2, 16384]), l(2, [-1, 1]));
        assert!(cube_turns([&c, &a, &b], u8_line));
        assert!(!cube_turns([&l(3, [64, 4]), &a, &b], u8_line));
        assert!(!cube_turns([&c, &l(8, [-2, 16384]), &b], u8_line));
        // The sweep's 1145: `f32` passes of 64 steps 512 bytes apart by 8 rows 32 KiB apart,
        // no streams and more lines than a set holds: not turned. Steps two lines apart
        // stream: turned by 4 rows, not by 8.
        let a = l(128, [-512, 1]);
        let (b4, b8) = (l(4, [1, -8192]), l(8, [1, -8192]));
        assert!(!cube_turns([&l(64, [8, 128]), &a, &b8], f32_line));
        assert!(cube_turns([&l(64, [8, 32]), &a, &b4], f32_line));
        assert!(!cube_turns([&l(64, [8, 32]), &a, &b8], f32_line));
        // A few lines a pass (its 1687: 4 steps by 2 rows, `f64`): turned, whatever the steps.
        let wide = [&l(4, [4, 64]), &l(32, [2048, 2]), &l(2, [1, 65536])];
        assert!(cube_turns(wide, line_for(8)));
        // The sweep's 977: a pass of 8,192 lines of the destination, half the second level's
        // lines: turned for `map`; for `zip_map`, whose second source is laid out as the
        // destination, twice that: not.
        let m = [&l(8192, [-64, 2]), &l(32, [-2, 16384]), &l(2, [1, 1])];
        assert!(cube_turns(m, u8_line));
        let z = |extent, [d, s]: [isize; 2]| Loop {
            extent,
            strides: [d, s, d],
        };
        let zip = [&z(8192, [-64, 2]), &z(32, [-2, 16384]), &z(2, [1, 1])];
        assert!(!cube_turns(zip, u8_line));
        // `map` and `zip_map` (the second source laid out as the destination) of `f32` rows of
        // 2, 16 or 8 rows 4 KiB apart in the source, under 64 steps 8 bytes on; the
        // destination written 8 bytes a row and 128 or 64 bytes a step outside: turned with
        // 16 rows, not with 8 (the set holds them).
        for (k, turned) in [(16usize, true), (8, false)] {
            let ki = k.cast_signed();
            let src_l = Layout::new([k, 2, 64, 2], [1024, 1, 2, 512], 4).unwrap();
            let dst_l = Layout::new([k, 2, 64, 2], [-2, -1, 2 * ki, -128 * ki], 4)
                .and_then(|l| l.with_offset(2 * ki - 1 + 128 * ki))
                .unwrap();
            let (d, s) = (dst_l.lowered(), src_l.lowered());
            let map_plan = Plan::new(&[d, s]).unwrap();
            let zip_plan = Plan::new(&[d, s, d]).unwrap();
            let (map_nest, zip_nest) = (&map_plan.nests()[0], &zip_plan.nests()[0]);
            assert!(
                short_rows(map_nest).is_some() && short_rows(zip_nest).is_some(),
                "{k}"
            );
            assert_eq!(cube_turned(map_nest, 4), turned, "{k}");
            assert_eq!(cube_turned(zip_nest, 4), turned, "{k}");
            let len = 256 * k;
            let src: Vec<f32> = (0..1024 * k)
                .map(|i| f32::from(u16::try_from(i % 1999).unwrap()))
                .collect();
            let other: Vec<f32> = (0..len)
                .map(|i| f32::from(u16::try_from(3 * i % 997).unwrap()))
                .collect();
            let (mapped, zipped) = mapped_and_zipped(
                (&src, &src_l),
                [(&src, &src_l), (&other, &dst_l)],
                (&dst_l, len),
            );
            for (s, d) in src_l.offsets().zip(dst_l.offsets()) {
                let (s, d) = (s.unsigned_abs(), d.unsigned_abs());
                assert_eq!(mapped[d].to_bits(), (src[s] + 0.5).to_bits(), "{k} at {d}");
                assert_eq!(
                    zipped[d].to_bits(),
                    (src[s] - other[d]).to_bits(),
                    "{k} at {d}"
                );
            }
        }
    }

    /// Rows of 2 to 17 `f32` read backwards: `map` keeps its reversed chunks for those of a
    /// chunk or more (`chunked`: 8 `f32`), and runs shorter ones as plain loops, as `zip_map`
    /// runs those under [`SHORT_ROW`]; both write what the model does.
    #[test]
    fn short_reversed_rows_map_and_zip_as_the_model() {
        for row in [2usize, 3, 8, 15, 16, 17] {
            let rows = 29;
            let dense = Layout::new([rows, row], [row.cast_signed(), 1], 4).unwrap();
            let back = dense.flipped(1).unwrap();
            let plan = Plan::new(&[dense.lowered(), back.lowered()]).unwrap();
            let nest = &plan.nests()[0];
            let short = short_rows(nest);
            assert_eq!(short.is_some(), row < SHORT_ROW, "{row}");
            assert!(short.is_none_or(|r| reversed(&r)), "{row}");
            let chunks = short.is_some_and(|r| chunked::<f32>(&r));
            assert_eq!(chunks, (8..SHORT_ROW).contains(&row), "{row}");
            let n = rows * row;
            let src: Vec<f32> = (0..n)
                .map(|i| f32::from(u16::try_from(i).unwrap()))
                .collect();
            let other: Vec<f32> = src.iter().map(|x| 3.0 * x).collect();
            let (mapped, zipped) = mapped_and_zipped(
                (&src, &back),
                [(&other, &dense), (&src, &back)],
                (&dense, n),
            );
            for i in 0..rows {
                for j in 0..row {
                    let (d, s) = (i * row + j, i * row + row - 1 - j);
                    assert_eq!(
                        mapped[d].to_bits(),
                        (src[s] + 0.5).to_bits(),
                        "{row}: {i}, {j}"
                    );
                    assert_eq!(zipped[d].to_bits(), (other[d] - src[s]).to_bits(), "{row}");
                }
            }
        }
    }
    /// Blocks read across (`n` rows one element apart in the source, each row's `k2`
    /// elements `stride` apart, the destination dense), which the plan leaves untiled:
    /// `map` runs them in packed tiles where the rows' lines crowd their sets
    /// ([`crowded_tile`]: 4 KiB and 2 KiB a step), whole otherwise (4,080 bytes a step, and
    /// blocks that fit the scratch); `zip_map` takes its tiles for every such block too large
    /// for the scratch ([`zip_tiled`]); both write what the model does, tile edges included.
    #[test]
    fn blocks_read_across_map_and_zip_in_tiles_as_the_model() {
        // (n, k1, k2, source row stride in elements, map tiled, zip tiled)
        let cases = [
            (256usize, 2usize, 32usize, 512usize, true, true),
            (170, 3, 32, 510, false, true),
            (100, 2, 32, 512, true, true),
            (75, 3, 19, 256, true, true),
            (72, 1, 16, 512, true, true),
            (72, 1, 16, 510, false, true),
            (12, 2, 16, 510, false, false),
        ];
        // Under Miri, the cases of about a thousand elements (the tiles' edges, each rule).
        let skip = if cfg!(miri) { 4 } else { 0 };
        for &(n, k1, k2, stride, crowded, zipped) in cases.iter().skip(skip) {
            let (nk, len) = (k1 * stride, n * k1 * k2);
            let src_l =
                Layout::new([n, k1, k2], [1, stride.cast_signed(), nk.cast_signed()], 8).unwrap();
            let dst_l = Layout::new(
                [n, k1, k2],
                [(k1 * k2).cast_signed(), k2.cast_signed(), 1],
                8,
            )
            .unwrap();
            let plan = Plan::new(&[dst_l.lowered(), src_l.lowered()]).unwrap();
            let nest = &plan.nests()[0];
            assert!(
                nest.tile().is_none() && short_rows(nest).is_none(),
                "{n} x {k1} x {k2}"
            );
            assert_eq!(
                crowded_tile::<f64, MAX_LOOPS>(nest).is_some(),
                crowded,
                "{n} x {k1} x {k2}"
            );
            let zplan = Plan::new(&[dst_l.lowered(), src_l.lowered(), dst_l.lowered()]).unwrap();
            assert_eq!(
                zip_tiled::<f64, f64, f64>(&zplan.nests()[0]),
                zipped,
                "{n} x {k1} x {k2}"
            );
            let src: Vec<f64> = (0..nk * k2)
                .map(|i| f64::from(u32::try_from(i).unwrap()))
                .collect();
            let other: Vec<f64> = (0..len)
                .map(|i| f64::from(u32::try_from(3 * i).unwrap()))
                .collect();
            let (mapped, summed) = mapped_and_zipped(
                (&src, &src_l),
                [(&src, &src_l), (&other, &dst_l)],
                (&dst_l, len),
            );
            for i in 0..n {
                for p in 0..k1 {
                    for q in 0..k2 {
                        let (s, d) = (i + p * stride + q * nk, (i * k1 + p) * k2 + q);
                        let at = || std::format!("{n} x {k1} x {k2} at {i}, {p}, {q}");
                        assert_eq!(mapped[d].to_bits(), (src[s] + 0.5).to_bits(), "{}", at());
                        assert_eq!(
                            summed[d].to_bits(),
                            (src[s] - other[d]).to_bits(),
                            "{}",
                            at()
                        );
                    }
                }
            }
        }
    }

    /// A source block read across its rows packs where the packing buys something
    /// ([`packs`]): its destination's rows step one element, or its rows step a line or more
    /// into lines that fill their sets; a block written a strided element at a time whose
    /// rows' lines stay cached is read as it lies, whether or not the SIMD transpose could
    /// pack it. `map` and `zip_map` write what the model does either way.
    #[test]
    fn blocks_written_strided_pack_their_source_only_where_it_pays() {
        // The rule: blocks of 8 rows of 100 `u8` read (-1, 4) and written 6 apart: as they
        // lie, and so read (1, 4), which the SIMD transpose could pack; the same written one
        // element apart: packed.
        let run = |extent: usize, strides: [isize; 2]| Loop { extent, strides };
        assert!(!packs::<u8, 2>(-1, 8, &run(100, [6, 4]), 1));
        assert!(!packs::<u8, 2>(1, 8, &run(100, [6, 4]), 1));
        assert!(packs::<u8, 2>(-1, 8, &run(100, [1, 4]), 1));
        assert!(packs::<u8, 2>(-1, 8, &run(100, [-1, 4]), 1));
        assert!(packs::<u8, 2>(1, 8, &run(100, [1, 4]), 1));
        // Rows stepping a line or more: packed where their lines fill their sets (rows of 8
        // `f64` 4 KiB apart, one set; 16 of 2 KiB, two; 64 of 64 bytes under the
        // destination's 64 of 4 KiB), as they lie where they do not (8 of 2 KiB, 64 of 64
        // bytes alone, 100 `u8` 63 bytes apart).
        assert!(packs::<f64, 2>(-1, 8, &run(8, [6, 512]), 1));
        assert!(packs::<f64, 2>(-1, 8, &run(16, [6, 256]), 1));
        assert!(packs::<f64, 2>(-1, 8, &run(64, [512, 8]), 1));
        assert!(!packs::<f64, 2>(-1, 8, &run(8, [6, 256]), 1));
        assert!(!packs::<f64, 2>(-1, 8, &run(64, [6, 8]), 1));
        assert!(!packs::<u8, 2>(-1, 8, &run(100, [6, 63]), 1));
        // Three operands: the second source's run counted with the destination's.
        let zip = Loop {
            extent: 16,
            strides: [256, 1, 256],
        };
        assert!(packs::<f64, 3>(-2, 8, &zip, 2) && !packs::<f64, 3>(512, 8, &zip, 1));
        // A single row, a source along the rows, a block past the scratch: never.
        assert!(!packs::<u8, 2>(-1, 1, &run(100, [1, 4]), 1));
        assert!(!packs::<u8, 2>(-4, 8, &run(100, [1, 1]), 1));
        assert!(!packs::<u8, 2>(-1, 8, &run(1000, [1, 4]), 1));
        // Under Miri, the 1-byte ones (read backwards and forwards along the rows).
        check::<u8>(-1);
        check::<u8>(1);
        if !cfg!(miri) {
            check::<u16>(-1);
            check::<u16>(1);
        }
    }

    /// [`blocks_written_strided_pack_their_source_only_where_it_pays`] for one element type and
    /// the source's step along the block's rows (`sa`, ±1): the plan's block, read as it lies
    /// (its rows are written 6 apart), and `map` and `zip_map` against the model.
    fn check<T>(sa: isize)
    where
        T: Copy + 'static + From<u8> + Add<Output = T> + PartialEq + core::fmt::Debug,
    {
        let size = size_of::<T>();
        let src_l = Layout::new([8, 100, 6], [sa, 8, 800], size)
            .and_then(|l| l.with_offset(if sa < 0 { 7 } else { 0 }))
            .unwrap();
        let dst_l = Layout::new([8, 100, 6], [600, 6, 1], size).unwrap();
        let (d, s) = (dst_l.lowered(), src_l.lowered());
        let map_plan = Plan::new(&[d, s]).unwrap();
        let zip_plan = Plan::new(&[d, s, d]).unwrap();
        // Blocks by rows: not short rows, nor `map`'s or `zip_map`'s tiles.
        let (map_nest, zip_nest) = (&map_plan.nests()[0], &zip_plan.nests()[0]);
        assert!(short_rows(map_nest).is_none() && short_rows(zip_nest).is_none());
        assert!(crowded_tile::<T, MAX_LOOPS>(map_nest).is_none());
        assert!(!zip_tiled::<T, T, T>(zip_nest));
        let blocks = [
            block(map_plan.nests()[0].loops()).unwrap(),
            block(zip_plan.nests()[0].loops()).unwrap(),
        ];
        for (extents, strides) in blocks {
            assert_eq!(extents, [8, 100], "{size} bytes");
            assert_eq!(strides[0], 600, "{size} bytes");
            assert_eq!(strides[2], 6, "{size} bytes");
            let run = Loop {
                extent: extents[1],
                strides: [strides[2], strides[3]],
            };
            assert!(
                !packs::<T, 2>(strides[1], extents[0], &run, 1),
                "{size} bytes"
            );
        }
        let src: Vec<T> = (0..4800)
            .map(|i| T::from(u8::try_from(i % 97).unwrap()))
            .collect();
        let other: Vec<T> = (0..4800)
            .map(|i| T::from(u8::try_from(i % 89).unwrap()))
            .collect();
        let (mut mapped, mut zipped) = (std::vec![T::from(0); 4800], std::vec![T::from(0); 4800]);
        map(&src, &src_l, &mut mapped, &dst_l, |x: T| x + T::from(1)).unwrap();
        zip_map(
            &src,
            &src_l,
            &other,
            &dst_l,
            &mut zipped,
            &dst_l,
            |x: T, y: T| x + y,
        )
        .unwrap();
        for (s, d) in src_l.offsets().zip(dst_l.offsets()) {
            let (s, d) = (s.unsigned_abs(), d.unsigned_abs());
            assert_eq!(mapped[d], src[s] + T::from(1), "{size} bytes at {d}");
            assert_eq!(zipped[d], src[s] + other[d], "{size} bytes at {d}");
        }
    }

    /// The block of a nest's last two loops: its extents, and its destination's and first
    /// source's strides (rows, then run).
    fn block<const K: usize>(loops: &[Loop<K>]) -> Option<([usize; 2], [isize; 4])> {
        let [.., a, b] = loops else { return None };
        Some((
            [a.extent, b.extent],
            [a.strides[0], a.strides[1], b.strides[0], b.strides[1]],
        ))
    }
}
