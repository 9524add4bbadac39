//! The kernels' memory accesses: every `unsafe` block of the inner loops lives here.
//!
//! Soundness rests on the witnesses of `proof.rs`, which only validation mints, and which each
//! loop below takes as an argument:
//!
//! - [`InBounds`]: every offset of every nest of the [`Plan`] (bounds computed by
//!   [`Plan::new`] with checked arithmetic) lies in `0..lens[k]` for operand `k`. The loop
//!   driver (`drive.rs`) visits only offsets of the nest, so every pointer formed below
//!   points at an element of its slice; each loop re-checks that it was handed slices of
//!   exactly the checked lengths ([`InBounds::plan_for`]).
//! - [`Unique`]: no two indices of the destination share an element, so a destination row or
//!   plane may become an exclusive `&mut [T]` beside the others.
//! - [`Disjoint`]: in [`copy_within`]'s one buffer, the two operands share no element.
//!
//! Source and destination slices of the other kernels are distinct borrows (`&[T]` and
//! `&mut [T]`), so they never overlap. The element type's facts (plain bytes, size) come from
//! `element.rs`, decided by type.

use core::mem::{MaybeUninit, align_of, size_of};
use core::ptr;
use core::slice;

use crate::LayoutError;
use crate::kernel::channels::{self, Channels, channel_block, untiled_block, untiled_channels};
use crate::kernel::drive::{
    for_each_block, for_each_block_of, for_each_block_tiled, for_each_run, step, tiles,
};
use crate::kernel::plan::{INNER_UNROLL, Loop, Nest, OneBlock, Plan, TILE_BYTES};
use crate::kernel::proof::{Dense, Disjoint, InBounds, Unique, UniqueBlock};
use crate::kernel::{stream, transpose, zip_tiles};

/// `dst[i] = src[i]` over the plan (operand 0 `dst`, operand 1 `src`).
pub(crate) fn copy<T: Copy + 'static>(
    unique: &Unique<'_, 2>,
    dst: &mut [T],
    src: &[T],
) -> Result<(), LayoutError> {
    let plan = unique.bounds().plan_for([dst.len(), src.len()])?;
    let stream = stream::stream_worthy::<T>(|| plan.volume());
    let stream_rows = stream && stream::stream_rows_worthy::<T>(|| plan.volume());
    // SAFETY: every offset of the plan is inside `dst` and `src` by the `InBounds` witness
    // (and `plan_for` matched the lengths); `dst` and `src` are distinct borrows, and the
    // destination is unique (`Unique` witness).
    unsafe { copy_nests(plan, dst.as_mut_ptr(), src.as_ptr(), [stream, stream_rows]) };
    if stream {
        stream::stream_fence();
    }
    Ok(())
}

/// `dst[i] = src[i]` over `one`, the plan's one block ([`OneBlock::of_plan`], kept beside the
/// plan by a prepared copy): the block handed to [`copy_block`] at once, as [`copy_nests`]
/// would hand it after walking the plan. `Ok(false)`, nothing written, when the copy is large
/// enough to stream its stores: the caller runs [`copy`], whose loops stream.
///
/// `one` must be the block of the plan `unique` proves; the caller keeps the two together.
#[inline]
pub(crate) fn copy_one<T: Copy + 'static>(
    unique: &Unique<'_, 2>,
    one: &OneBlock,
    dst: &mut [T],
    src: &[T],
) -> Result<bool, LayoutError> {
    unique.bounds().plan_for([dst.len(), src.len()])?;
    if stream::stream_worthy::<T>(|| one.volume()) {
        return Ok(false);
    }
    let [od, os] = one.offsets;
    // SAFETY: `one` is the plan's one untiled nest of at most two loops (the caller's
    // contract), so its first offsets and every offset of its block are offsets of the plan,
    // inside `dst` and `src` by the `InBounds` witness (`plan_for` matched the lengths); `dst`
    // and `src` are distinct borrows, and the destination is unique (`Unique` witness). Not
    // streaming, this is the block `copy_nests` hands `copy_block` (no channel tile: the nest
    // has no tile).
    unsafe {
        copy_block(
            dst.as_mut_ptr().offset(od),
            src.as_ptr().offset(os),
            one.a,
            one.b,
            [false; 2],
        );
    }
    Ok(true)
}

/// `dst[i] = src[i]` over a copy planned without a plan ([`UniqueBlock`]): its one block
/// handed to [`copy_block`] (tile by tile when tiled, as [`copy_nests`] does). `Ok(false)`,
/// with nothing written, when the copy is large enough to stream its stores: the caller
/// plans it and runs [`copy`], whose loops stream (never on targets without streaming
/// stores, where this is all of a small copy's loops).
pub(crate) fn copy_small<T: Copy + 'static>(
    block: &UniqueBlock<'_>,
    dst: &mut [T],
    src: &[T],
) -> Result<bool, LayoutError> {
    let nest = block.nest_for([dst.len(), src.len()])?;
    if stream::stream_worthy::<T>(|| nest.volume()) {
        return Ok(false);
    }
    let (a, b) = nest.block();
    let [od, os] = nest.offsets();
    let (d, s) = (dst.as_mut_ptr(), src.as_ptr());
    // Every offset of the nest is inside `dst` and `src` (the `UniqueBlock` witness, whose
    // lengths `nest_for` matched), and so are the block's and every tile's, which are
    // offsets of the nest; `dst` and `src` are distinct borrows, and the destination is
    // unique (the witness). That is `copy_block`'s contract for the block and each tile.
    match untiled_block::<T>(a, b, nest.tile()) {
        Some([ta, tb]) => {
            tiles(
                [od, os],
                a,
                b,
                ta.max(1),
                tb.max(1),
                &mut |[od, os], a, b| {
                    // SAFETY: a tile of the nest (above).
                    unsafe { copy_block(d.offset(od), s.offset(os), a, b, [false; 2]) };
                },
            );
        }
        _ => {
            // SAFETY: the nest's block (above).
            unsafe { copy_block(d.offset(od), s.offset(os), a, b, [false; 2]) };
        }
    }
    Ok(true)
}

/// `d[i] = s[i]` over the nests of `plan` (operand 0 `d`, operand 1 `s`); `[stream, rows]`:
/// transposes and channel blocks store non-temporally with `stream`, contiguous rows with
/// `rows` (then call [`stream::stream_fence`] after it). The loops of [`copy`], and of one
/// part of a split plan.
///
/// # Safety
///
/// Every offset of every nest of `plan` is an element of the allocation behind `d`
/// (destination) and `s` (source); no destination element is a source element; no two
/// indices of the plan's destination share an element (a `Unique` witness); and nothing else
/// reads or writes the destination elements of `plan`, or writes its source elements, while
/// it runs.
pub(crate) unsafe fn copy_nests<T: Copy + 'static>(
    plan: &Plan<2>,
    d: *mut T,
    s: *const T,
    [stream, stream_rows]: [bool; 2],
) {
    for nest in plan.nests() {
        if stream && stream_transpose::<T>(nest) {
            for_each_block_tiled(nest, None, |[od, os], a, b| {
                // SAFETY: the whole block's offsets are offsets of the nest, inside the
                // allocations, the destination's unique and not source elements (the caller's
                // contract); `stream_transpose` checked `streams` for the block's
                // orientation, which is `transpose_stream_unchecked`'s precondition.
                unsafe {
                    let (dp, sp) = (d.offset(od), s.offset(os));
                    let ([da, sa], [db, sb]) = (a.strides, b.strides);
                    if db == 1 {
                        transpose::transpose_stream_unchecked(dp, da, sp, sb, a.extent, b.extent);
                    } else {
                        transpose::transpose_stream_unchecked(dp, db, sp, sa, b.extent, a.extent);
                    }
                }
            });
            continue;
        }
        for_each_block_of(nest, untiled_channels::<T>(nest), |[od, os], a, b| {
            // SAFETY: `od` and `os` are offsets of the nest, inside the allocations (the
            // caller's contract); `copy_block` reads and writes only offsets of the block,
            // which are offsets of the nest too, and its destination elements are unique and
            // not source elements (the caller's contract).
            unsafe { copy_block(d.offset(od), s.offset(os), a, b, [stream, stream_rows]) }
        });
    }
}

/// `buf[dst(i)] = buf[src(i)]` over the plan, in one buffer whose two operands are disjoint.
pub(crate) fn copy_within<T: Copy + 'static>(
    disjoint: &Disjoint<'_>,
    buf: &mut [T],
) -> Result<(), LayoutError> {
    let plan = disjoint
        .unique()
        .bounds()
        .plan_for([buf.len(), buf.len()])?;
    let p = buf.as_mut_ptr();
    for nest in plan.nests() {
        for_each_block_tiled(nest, untiled_channels::<T>(nest), |[od, os], a, b| {
            // SAFETY: as in `copy`, both offsets are inside `buf` (`InBounds` witness); the two
            // operands share no element (`Disjoint` witness), so the copies of `copy_block`
            // never overlap, and the destination is unique (`Unique` witness).
            unsafe {
                copy_block(p.offset(od), p.offset(os).cast_const(), a, b, [false; 2]);
            }
        });
    }
    Ok(())
}

/// `dst[i] = src[i]` over the plan into uninitialised slots; returns the destination's span,
/// every element of which the copy wrote, as initialised elements.
pub(crate) fn copy_uninit<'d, T: Copy + 'static>(
    dense: &Dense<'_>,
    dst: &'d mut [MaybeUninit<T>],
    src: &[T],
) -> Result<&'d mut [T], LayoutError> {
    // SAFETY: `MaybeUninit<T>` has the size, alignment and layout of `T`, and every `T` is a
    // valid `MaybeUninit<T>`; the new slice is a shared borrow of the same elements.
    let src = unsafe { slice::from_raw_parts(src.as_ptr().cast::<MaybeUninit<T>>(), src.len()) };
    // Moving `MaybeUninit<T>` takes the scalar paths (its bytes are not known initialised),
    // each a plain copy of the element.
    copy(dense.unique(), dst, src)?;
    let span = dense.span();
    let len = span.len();
    let part = dst.get_mut(span).ok_or(LayoutError::OffsetOutsideSlice {
        operand: crate::Operand::Destination,
    })?;
    // SAFETY: the `Dense` witness: the destination's offsets are unique and fill `span`
    // exactly, and `copy` above wrote a `T` at every one of them, so every element of `part`
    // is initialised; `MaybeUninit<T>` has `T`'s layout; `part` is borrowed for `'d`.
    Ok(unsafe { slice::from_raw_parts_mut(part.as_mut_ptr().cast::<T>(), len) })
}

/// Whether the two innermost loops of `nest` are a transpose for the streaming line kernel:
/// the destination runs along one and the source along the other, and
/// [`transpose::streams`] takes the destination's row stride.
fn stream_transpose<T: 'static>(nest: &Nest<2>) -> bool {
    let [.., a, b] = nest.loops() else {
        return false;
    };
    let ([da, sa], [db, sb]) = (a.strides, b.strides);
    (db == 1 && sa == 1 && transpose::streams::<T>(da, a.extent, b.extent))
        || (da == 1 && sb == 1 && transpose::streams::<T>(db, b.extent, a.extent))
}

/// Copies the `a × b` block at `d`/`s` (operand 0 the destination); `[stream, rows]`: the
/// channel kernels use non-temporal stores with `stream`, contiguous rows with `rows`.
///
/// # Safety
///
/// Every `d + i·a.strides[0] + j·b.strides[0]` and `s + i·a.strides[1] + j·b.strides[1]`
/// (`i < a.extent`, `j < b.extent`) is an element of the destination and source slices,
/// no destination element is a source element, and no two destination indices share an
/// element (the `Unique` witness of the caller).
#[expect(
    clippy::inline_always,
    reason = "only unpacks the loops for `block_kernel`, which is not inlined"
)]
#[inline(always)]
unsafe fn copy_block<T: Copy + 'static>(
    d: *mut T,
    s: *const T,
    a: Loop<2>,
    b: Loop<2>,
    flags: [bool; 2],
) {
    // SAFETY: the caller's contract, the same loops.
    unsafe { block_kernel(d, s, a.extent, a.strides, b.extent, b.strides, flags) }
}

/// [`copy_block`] with each loop passed as its extent and strides: scalars and pairs go in
/// registers, where a `Loop` is passed by address, so the caller's loops had to be copied to
/// memory first (a `const` plan's 64-frame stereo run: 15 instructions fewer on a
/// Cortex-M4).
///
/// # Safety
///
/// As [`copy_block`] for the loops `(ea, [da, sa])` and `(eb, [db, sb])`.
// Not inlined: `copy` calls it from the one-block path and from the tiled driver, and one
// copy of its dispatch serves both (and `copy_within`).
#[inline(never)]
unsafe fn block_kernel<T: Copy + 'static>(
    d: *mut T,
    s: *const T,
    ea: usize,
    [da, sa]: [isize; 2],
    eb: usize,
    [db, sb]: [isize; 2],
    [stream, stream_rows]: [bool; 2],
) {
    let (a, b) = (
        Loop {
            extent: ea,
            strides: [da, sa],
        },
        Loop {
            extent: eb,
            strides: [db, sb],
        },
    );
    if PAIR_ROWS && db == 1 && sb == 1 {
        // SAFETY: the caller's contract: `a.extent` rows of `b.extent` consecutive elements,
        // `da` and `sa` apart.
        unsafe { pair_rows_contiguous(d, da, s, sa, a.extent, b.extent) };
    } else if db == 1 && sb == 1 {
        // SAFETY: the caller's contract: `a.extent` rows of `b.extent` consecutive elements,
        // `da` and `sa` apart.
        if !stream && unsafe { copy_short_rows(d, da, s, sa, a.extent, b.extent) } {
            return;
        }
        for i in 0..a.extent {
            // SAFETY: row `i` of the block, `b.extent` consecutive elements in each slice
            // (caller's contract), disjoint.
            unsafe {
                let (dp, sp) = (d.offset(step(i, da)), s.offset(step(i, sa)));
                if stream_rows {
                    stream::stream_copy_unchecked(dp, sp, b.extent);
                } else {
                    ptr::copy_nonoverlapping(sp, dp, b.extent);
                }
            }
        }
    } else if let Some(Channels::Interleave) = channel_block::<T>(a, b) {
        // SAFETY: the caller's contract: `a.extent` source planes of `b.extent` elements,
        // `sa` apart, and `b.extent` destination pixels of `a.extent` consecutive elements.
        unsafe { channels::interleave(d, db.unsigned_abs(), s, sa, a.extent, b.extent, stream) }
    } else if let Some(Channels::Deinterleave) = channel_block::<T>(a, b) {
        // SAFETY: as above with the roles swapped; the destination planes are disjoint because
        // the destination is unique (the caller's `Unique` witness), so each is its own
        // exclusive sub-slice.
        unsafe { channels::deinterleave(d, da, s, sb.unsigned_abs(), a.extent, b.extent, stream) }
    } else if da == 1 && sb == 1 && b.extent > 1 && transpose::transposes::<T>() {
        // The destination runs along `a` and the source along `b`: a transpose with the roles
        // of the loops swapped (a planar -> blocked copy with 5 or more lanes, say).
        // SAFETY: the caller's contract is `transpose_unchecked`'s, with `dst` rows along `b`
        // and `src` rows along `a`.
        unsafe { transpose::transpose_unchecked(d, db, s, sa, b.extent, a.extent) }
    } else if db == 1 && sa == 1 && a.extent > 1 && transpose::transposes::<T>() {
        // SAFETY: the caller's contract is `transpose_unchecked`'s, with `dst` rows along `a`
        // and `src` rows along `b`. (Streaming a tile's rows was measured slower: rows of one
        // tile are a few cache lines, rarely line-aligned; large transposes stream whole
        // blocks instead, see `stream_transpose`.)
        unsafe { transpose::transpose_unchecked(d, da, s, sb, a.extent, b.extent) }
    } else {
        if PAIR_ROWS {
            // SAFETY: the caller's contract: the block's rows.
            unsafe { pair_rows(d, da, db, s, sa, sb, a.extent, b.extent) };
            return;
        }
        for i in 0..a.extent {
            // SAFETY: row `i` of the block (caller's contract).
            unsafe {
                strided_copy_unchecked(
                    d.offset(step(i, da)),
                    db,
                    s.offset(step(i, sa)),
                    sb,
                    b.extent,
                );
            }
        }
    }
}

/// Whether strided rows are copied two at a time ([`strided_copy_pair`]): on bare metal,
/// where the inner loop is not unrolled, so that a planar <-> interleaved stereo block costs
/// what a hand loop over its frames does (two loads, two stores, two pointer bumps and the
/// loop branch per frame on a Cortex-M4, against six instructions a sample row by row).
const PAIR_ROWS: bool = INNER_UNROLL == 1;

/// Copies `rows` rows of `n` consecutive elements (`d + i·dr`, `s + i·sr`) with the pair loop
/// where the inner loop is not unrolled (bare metal): in 4-byte words when the rows and both
/// operands allow, else element by element. No `memcpy` call: the pair loop's two loads, two
/// stores, two pointer bumps and branch move two words (about four instructions a word on a
/// Cortex-M4, where `memcpy`'s multi-register moves take fewer on long rows), and the image
/// leaves out `compiler_builtins`' 730-byte `memcpy`, which a plan built once (in `const`
/// too) could not prove unused.
///
/// # Safety
///
/// As [`copy_short_rows`].
#[inline]
unsafe fn pair_rows_contiguous<T: Copy>(
    d: *mut T,
    dr: isize,
    s: *const T,
    sr: isize,
    rows: usize,
    n: usize,
) {
    /// The word: alignment 4, any bytes (padding included) move unchanged.
    type Word = MaybeUninit<u32>;
    const W: usize = size_of::<Word>();
    let size = size_of::<T>();
    // Words when every row starts on a word and is whole words: the byte offsets of both
    // operands' rows, and the row's bytes, are multiples of 4 (a checked product that
    // overflows just takes the element loop).
    let words = |x: usize| {
        x.checked_mul(size)
            .filter(|b| b.is_multiple_of(W))
            .map(|b| b / W)
    };
    let aligned = |p: usize| p.is_multiple_of(W);
    let word_rows = (size < W && aligned(d.addr()) && aligned(s.addr()))
        .then(|| {
            Some((
                words(n)?,
                words(dr.unsigned_abs())?,
                words(sr.unsigned_abs())?,
            ))
        })
        .flatten();
    if let Some((wn, wd, ws)) = word_rows {
        // `wd`, `ws` are at most `|dr|`, `|sr|` (a word is at least one element), which are
        // `isize`; the signs come back from the element strides.
        let sign = |w: usize, e: isize| {
            let w = w.cast_signed();
            if e < 0 { w.wrapping_neg() } else { w }
        };
        let (wdr, wsr) = (sign(wd, dr), sign(ws, sr));
        // SAFETY: row `i`'s `n` elements are the `wn` words at `d + i·dr` and `s + i·sr`
        // bytes (`wn · 4 = n · size`, both starts word-aligned), inside their slices
        // (contract); `MaybeUninit<u32>` reads any bytes.
        unsafe { pair_rows(d.cast::<Word>(), wdr, 1, s.cast::<Word>(), wsr, 1, rows, wn) };
    } else {
        // SAFETY: the contract, rows of `n` elements one apart.
        unsafe { pair_rows(d, dr, 1, s, sr, 1, rows, n) };
    }
}

/// The block's rows two at a time with [`strided_copy_pair`] (the last row alone, written
/// twice, when `rows` is odd).
///
/// # Safety
///
/// As [`strided_copy_pair`] for every pair of rows `i`, `i + 1` (`d + i·dr + j·ds`,
/// `s + i·sr + j·ss` for `i < rows`, `j < n`).
#[expect(
    clippy::too_many_arguments,
    reason = "two pointers, their three strides, two counts"
)]
#[inline]
unsafe fn pair_rows<T: Copy>(
    d: *mut T,
    dr: isize,
    ds: isize,
    s: *const T,
    sr: isize,
    ss: isize,
    rows: usize,
    n: usize,
) {
    let (mut d, mut s, mut left) = (d, s, rows);
    while left > 0 {
        // Rows `i` and `i + 1`, or the last row twice (`0` apart: each element is written
        // twice with the same value) when one is left: one loop, less code on the targets
        // that take it.
        let next = if left >= 2 { (dr, sr) } else { (0, 0) };
        // SAFETY: `d` and `s` are the first elements of row `rows - left` of the block, and
        // the rows `next` further, of row `rows - left + 1` (or the same row) (contract).
        unsafe { strided_copy_pair(d, next.0, ds, s, next.1, ss, n) };
        // Two rows on; past the last row the pointers may leave the slices:
        // `wrapping_offset` keeps that defined, and they are never dereferenced there.
        d = d.wrapping_offset(dr.wrapping_mul(2));
        s = s.wrapping_offset(sr.wrapping_mul(2));
        left = left.saturating_sub(2);
    }
}

/// `d[j·ds] = s[j·ss]` and `d[dr + j·ds] = s[sr + j·ss]` for `j < n`: two rows of a block in
/// one pass.
///
/// # Safety
///
/// As [`strided_copy_unchecked`] for both rows (`d`, `s` and `d + dr`, `s + sr`; with
/// `dr = sr = 0` the two rows are one, each element written twice).
#[inline]
unsafe fn strided_copy_pair<T: Copy>(
    d: *mut T,
    dr: isize,
    ds: isize,
    s: *const T,
    sr: isize,
    ss: isize,
    n: usize,
) {
    let (mut dp, mut sp) = (d, s);
    for _ in 0..n {
        // SAFETY: `dp`, `sp` and `dp + dr`, `sp + sr` are element `j < n` of the two rows
        // (contract); the destination and source elements are distinct.
        unsafe {
            let (first, second) = (*sp, *sp.offset(sr));
            *dp = first;
            *dp.offset(dr) = second;
        }
        // Past the last element the pointers may leave the slices: `wrapping_offset` keeps
        // that defined, and they are never dereferenced there.
        dp = dp.wrapping_offset(ds);
        sp = sp.wrapping_offset(ss);
    }
}

/// Copies `rows` rows of `n` consecutive elements (`d + i·dr`, `s + i·sr`) with one
/// fixed-size move a row, when a row is 8, 16, 32 or 64 bytes, and returns `true`; else
/// copies nothing and returns `false`. A `memcpy` call a row costs more than the move itself
/// for rows this short (the rows of 8 `f32` of a blocks of 8 -> blocks of 16 reorder).
///
/// # Safety
///
/// Every row `i < rows` is `n` elements of the destination and of the source slice, which do
/// not overlap.
#[inline]
unsafe fn copy_short_rows<T>(
    d: *mut T,
    dr: isize,
    s: *const T,
    sr: isize,
    rows: usize,
    n: usize,
) -> bool {
    /// The rows as moves of one `[MaybeUninit<u8>; W]` (alignment 1, no validity
    /// requirement: any bytes, padding included, move unchanged).
    ///
    /// # Safety
    ///
    /// As [`copy_short_rows`], with rows of `W` bytes.
    #[inline]
    unsafe fn rows_of<T, const W: usize>(
        d: *mut T,
        dr: isize,
        s: *const T,
        sr: isize,
        rows: usize,
    ) {
        let (mut dp, mut sp) = (d, s);
        for _ in 0..rows {
            // SAFETY: `dp`, `sp` point at a row of `W` bytes (contract).
            unsafe {
                ptr::copy_nonoverlapping(sp.cast::<[MaybeUninit<u8>; W]>(), dp.cast(), 1);
            }
            // Past the last row the pointers may leave the slices: `wrapping_offset` keeps
            // that defined, and they are never dereferenced there.
            dp = dp.wrapping_offset(dr);
            sp = sp.wrapping_offset(sr);
        }
    }
    let bytes = n.checked_mul(size_of::<T>());
    // SAFETY: the contract, with the row's byte count matched to `W` in each arm.
    unsafe {
        match bytes {
            Some(8) => rows_of::<T, 8>(d, dr, s, sr, rows),
            Some(16) => rows_of::<T, 16>(d, dr, s, sr, rows),
            Some(32) => rows_of::<T, 32>(d, dr, s, sr, rows),
            Some(64) => rows_of::<T, 64>(d, dr, s, sr, rows),
            _ => return false,
        }
    }
    true
}

/// `d[j·ds] = s[j·ss]` for `j < n`, `INNER_UNROLL` elements per iteration, the two pointers
/// bumped by their strides (no multiply per element: five instructions an element on a
/// Cortex-M4 when `INNER_UNROLL` is 1).
///
/// # Safety
///
/// Every `d + j·ds` and `s + j·ss` (`j < n`) is an element of its slice, and no `d` element
/// is an `s` element.
#[inline]
unsafe fn strided_copy_unchecked<T: Copy>(d: *mut T, ds: isize, s: *const T, ss: isize, n: usize) {
    debug_assert!(
        n == 0 || (!d.is_null() && !s.is_null()),
        "strided_copy_unchecked: null run"
    );
    let (mut dp, mut sp) = (d, s);
    let mut rest = n;
    if INNER_UNROLL > 1 {
        while rest >= INNER_UNROLL {
            for u in 0..INNER_UNROLL {
                // SAFETY: `dp`, `sp` are the pointers of element `j = n - rest`, and
                // `j + u < n` (contract).
                unsafe { *dp.offset(step(u, ds)) = *sp.offset(step(u, ss)) };
            }
            // Past the last element the pointers may leave the slices: `wrapping_offset`
            // keeps that defined, and they are never dereferenced there.
            dp = dp.wrapping_offset(step(INNER_UNROLL, ds));
            sp = sp.wrapping_offset(step(INNER_UNROLL, ss));
            rest = rest.wrapping_sub(INNER_UNROLL);
        }
    }
    for _ in 0..rest {
        // SAFETY: `dp`, `sp` point at an element `j < n` (contract).
        unsafe { *dp = *sp };
        dp = dp.wrapping_offset(ds);
        sp = sp.wrapping_offset(ss);
    }
}

/// `dst[i] = value` over the plan (operand 0).
pub(crate) fn fill<T: Copy>(
    ib: &InBounds<'_, 1>,
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
pub(crate) unsafe fn fill_nests<T: Copy>(plan: &Plan<1>, d: *mut T, value: T) {
    for nest in plan.nests() {
        for_each_run(nest, |[o], run| {
            let [s] = run.strides;
            // SAFETY: the run's `run.extent` elements `o + j·s` are inside the allocation
            // (the caller's contract); a unit-stride run is one exclusive sub-slice of it.
            unsafe {
                let p = d.offset(o);
                if s == 1 {
                    slice::from_raw_parts_mut(p, run.extent).fill(value);
                } else {
                    for j in 0..run.extent {
                        *p.offset(step(j, s)) = value;
                    }
                }
            }
        });
    }
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

/// Where a block's rows of one source lie: base, row stride, element stride.
type Rows<T> = (*const T, isize, isize);

/// The rows of an `ea × eb` source block at `p` (row stride `sa`, element stride `sb`): when
/// the source runs across the rows (`|sa| < |sb|`, a transposed operand) and the block fits
/// `scratch`, packs it there row-major (a SIMD transpose for 4- and 8-byte primitives) so every row
/// is contiguous; otherwise the block as it lies.
///
/// # Safety
///
/// Every `p + i·sa + j·sb` (`i < ea`, `j < eb`) is an element of the source slice.
#[inline]
unsafe fn packed_rows<T: Copy + 'static>(
    scratch: &mut Scratch,
    p: *const T,
    sa: isize,
    sb: isize,
    ea: usize,
    eb: usize,
) -> Rows<T> {
    let Ok(row) = isize::try_from(eb) else {
        return (p, sa, sb);
    };
    if !fits::<T>(ea, eb) || ea < 2 || sb.unsigned_abs() <= sa.unsigned_abs() {
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
                // SAFETY: as above; `i·eb + j < ea·eb`.
                unsafe {
                    buf.offset(step(i, row).wrapping_add(step(j, 1)))
                        .write(*p.offset(step(i, sa).wrapping_add(step(j, sb))));
                }
            }
        }
    }
    (buf.cast_const(), row, 1)
}

/// `dst[i] = f(src[i])` over the plan (operand 0 `dst`, operand 1 `src`).
pub(crate) fn map<T: Copy + 'static, U: Copy, F: FnMut(T) -> U>(
    unique: &Unique<'_, 2>,
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
/// As [`copy_nests`].
pub(crate) unsafe fn map_nests<T: Copy + 'static, U: Copy, F: FnMut(T) -> U>(
    plan: &Plan<2>,
    d: *mut U,
    s: *const T,
    f: &mut F,
) {
    let mut scratch = Scratch::new();
    for nest in plan.nests() {
        for_each_block(nest, |[od, os], a, b| {
            let ([da, sa], [db, sb]) = (a.strides, b.strides);
            // SAFETY: the block's elements are inside the allocations (the caller's
            // contract); a packed source is a copy of its block in `scratch`. Destination and
            // source do not overlap (contract, and `scratch` is ours), so unit-stride rows do
            // not alias.
            unsafe {
                let (sp, sr, se) =
                    packed_rows(&mut scratch, s.offset(os), sa, sb, a.extent, b.extent);
                for i in 0..a.extent {
                    let (dp, sp) = (d.offset(od).offset(step(i, da)), sp.offset(step(i, sr)));
                    if db == 1 && se == 1 {
                        let (dr, srow) = (
                            slice::from_raw_parts_mut(dp, b.extent),
                            slice::from_raw_parts(sp, b.extent),
                        );
                        for (x, &y) in dr.iter_mut().zip(srow) {
                            *x = f(y);
                        }
                    } else {
                        for j in 0..b.extent {
                            *dp.offset(step(j, db)) = f(*sp.offset(step(j, se)));
                        }
                    }
                }
            }
        });
    }
}

/// `dst[i] = f(a[i], b[i])` over the plan (operands `dst`, `a`, `b`).
pub(crate) fn zip_map<A: Copy + 'static, B: Copy + 'static, U: Copy, F: FnMut(A, B) -> U>(
    unique: &Unique<'_, 3>,
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
/// As [`copy_nests`], for the destination and each of the two sources.
pub(crate) unsafe fn zip_map_nests<
    A: Copy + 'static,
    B: Copy + 'static,
    U: Copy,
    F: FnMut(A, B) -> U,
>(
    plan: &Plan<3>,
    d: *mut U,
    pa: *const A,
    pb: *const B,
    f: &mut F,
) {
    let (mut scratch_a, mut scratch_b) = (Scratch::new(), Scratch::new());
    for nest in plan.nests() {
        let tiled = match nest.loops() {
            [.., rows, run] if nest.tile().is_some() => {
                let ([_, ar, br], [ds, sa, sb]) = (rows.strides, run.strides);
                zip_tiles::takes::<A, B, U>(ds, [ar, sa], [br, sb])
            }
            _ => false,
        };
        if tiled {
            for_each_block_tiled(nest, None, |[od, oa, ob], rows, run| {
                let ([dr, ar, br], [_, sa, sb]) = (rows.strides, run.strides);
                // SAFETY: the whole block's offsets are offsets of the nest, inside the
                // allocations; the destination overlaps neither source and is unique (the
                // caller's contract); `takes` held for these strides.
                unsafe {
                    zip_tiles::zip_block(
                        (d.offset(od), dr),
                        (pa.offset(oa), ar, sa),
                        (pb.offset(ob), br, sb),
                        [rows.extent, run.extent],
                        f,
                    );
                }
            });
            continue;
        }
        for_each_block(nest, |[od, oa, ob], rows, run| {
            let ([dr, ar, br], [ds, sa, sb]) = (rows.strides, run.strides);
            let (ea, eb) = (rows.extent, run.extent);
            // SAFETY: the block's elements are inside the allocations (the caller's
            // contract); packed sources are copies in our own scratch. The destination
            // overlaps neither source (contract), so its unit-stride rows alias neither.
            unsafe {
                let (ap, ar, sa) = packed_rows(&mut scratch_a, pa.offset(oa), ar, sa, ea, eb);
                let (bp, br, sb) = packed_rows(&mut scratch_b, pb.offset(ob), br, sb, ea, eb);
                for i in 0..ea {
                    let dp = d.offset(od).offset(step(i, dr));
                    let (ap, bp) = (ap.offset(step(i, ar)), bp.offset(step(i, br)));
                    if ds == 1 && sa == 1 && sb == 1 {
                        let drow = slice::from_raw_parts_mut(dp, eb);
                        let arow = slice::from_raw_parts(ap, eb);
                        let brow = slice::from_raw_parts(bp, eb);
                        for ((x, &y), &z) in drow.iter_mut().zip(arow).zip(brow) {
                            *x = f(y, z);
                        }
                    } else {
                        for j in 0..eb {
                            *dp.offset(step(j, ds)) =
                                f(*ap.offset(step(j, sa)), *bp.offset(step(j, sb)));
                        }
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
        for_each_run(nest, |[o], run| {
            let [ss] = run.strides;
            let Some(mut a) = acc.take() else { return };
            // SAFETY: the run's elements are inside `src` (`InBounds` witness).
            unsafe {
                let p = s.offset(o);
                if ss == 1 {
                    for &x in slice::from_raw_parts(p, run.extent) {
                        a = f(a, x);
                    }
                } else {
                    for j in 0..run.extent {
                        a = f(a, *p.offset(step(j, ss)));
                    }
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
    reason = "a test of 16-element buffers: every offset is checked by `unwrap` and indexing"
)]
mod tests {
    use super::{pair_rows_contiguous, strided_copy_pair};

    /// 4-byte aligned storage, so the word path is taken where the offsets allow.
    #[repr(C, align(4))]
    #[derive(Clone, Copy, PartialEq, Debug)]
    struct Aligned<T, const L: usize>([T; L]);

    /// Contiguous rows (the bare-metal path of `copy_block`), words or elements, for every
    /// start offset modulo a word, row length, row count and row stride in a small scope
    /// (forward and backward), against the element-by-element model; nothing outside the rows
    /// is written.
    fn contiguous_rows_match_model<T: Copy + PartialEq + core::fmt::Debug>(of: fn(usize) -> T) {
        const L: usize = 96;
        let src = Aligned::<T, L>(core::array::from_fn(of));
        let gap = of(L); // a value no source element has
        let scope = if cfg!(miri) { 2 } else { 1 };
        for n in (0usize..=9).step_by(scope) {
            for rows in 0usize..=3 {
                for extra in (0..=5).step_by(scope) {
                    let stride = (n + extra).cast_signed();
                    for (d0, s0) in [(0, 0), (1, 0), (0, 2), (2, 2), (3, 1), (4, 8)] {
                        for (dr, sr) in [(stride, stride), (-stride, stride), (stride + 2, -stride)]
                        {
                            // The first row's offset: far enough in for backward rows.
                            let at = |o: usize, r: isize| {
                                o + if r < 0 { 3 * r.unsigned_abs() } else { 0 }
                            };
                            let (od, os) = (at(d0, dr), at(s0, sr));
                            let mut want = Aligned::<T, L>([gap; L]);
                            for i in 0..rows {
                                for j in 0..n {
                                    let d =
                                        od.checked_add_signed(dr * i.cast_signed()).unwrap() + j;
                                    let s =
                                        os.checked_add_signed(sr * i.cast_signed()).unwrap() + j;
                                    want.0[d] = src.0[s];
                                }
                            }
                            let mut got = Aligned::<T, L>([gap; L]);
                            // SAFETY: every row lies in the 96-element buffers (offsets at
                            // most 4 + 3·(11 + 2) + 9 < 96), distinct allocations.
                            unsafe {
                                pair_rows_contiguous(
                                    got.0.as_mut_ptr().add(od),
                                    dr,
                                    src.0.as_ptr().add(os),
                                    sr,
                                    rows,
                                    n,
                                );
                            }
                            assert_eq!(got, want, "n {n} rows {rows} dr {dr} sr {sr} at {od} {os}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    #[expect(clippy::cast_possible_truncation, reason = "the values are below 97")]
    fn contiguous_rows_of_bytes_halves_words_and_triples_match_the_model() {
        contiguous_rows_match_model::<u8>(|i| i as u8);
        contiguous_rows_match_model::<u16>(|i| i as u16);
        contiguous_rows_match_model::<u32>(|i| i as u32);
        contiguous_rows_match_model::<[u8; 3]>(|i| [i as u8, 1, 2]);
    }

    /// Two rows copied in one pass, against the element-by-element model, for forward,
    /// backward and interleaved strides.
    #[test]
    fn strided_copy_pair_matches_two_rows_copied_one_by_one() {
        // (dr, ds, sr, ss, n, d0, s0): rows and element strides, count, starting offsets.
        let cases: [(isize, isize, isize, isize, usize, usize, usize); 6] = [
            (1, 2, 8, 1, 8, 0, 0),    // planar -> interleaved stereo
            (8, 1, 1, 2, 8, 0, 0),    // interleaved -> planar
            (-1, -2, 8, 1, 8, 15, 0), // backwards in the destination
            (3, 1, -4, -1, 3, 0, 11), // backwards in the source
            (2, 1, 1, 3, 0, 0, 0),    // empty rows
            (0, 3, 0, -2, 5, 1, 9),   // one row twice (the odd last row of a block)
        ];
        for (dr, ds, sr, ss, n, d0, s0) in cases {
            let src: [usize; 16] = core::array::from_fn(|i| i);
            let mut got = [99usize; 16];
            let mut want = got;
            for j in 0..n {
                for (r_d, r_s) in [(0, 0), (dr, sr)] {
                    let od = d0.checked_add_signed(r_d + ds * j.cast_signed()).unwrap();
                    let os = s0.checked_add_signed(r_s + ss * j.cast_signed()).unwrap();
                    want[od] = src[os];
                }
            }
            // SAFETY: every offset above lies in the 16-element buffers, and they are
            // distinct allocations.
            unsafe {
                strided_copy_pair(
                    got.as_mut_ptr().add(d0),
                    dr,
                    ds,
                    src.as_ptr().add(s0),
                    sr,
                    ss,
                    n,
                );
            }
            assert_eq!(got, want, "dr {dr} ds {ds} sr {sr} ss {ss} n {n}");
        }
    }
}
