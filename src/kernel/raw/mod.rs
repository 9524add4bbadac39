//! The kernels' memory accesses: the loops over a plan's nests, blocks and rows, and their
//! `unsafe` blocks. The SIMD kernels they call keep their own `unsafe` blocks, each resting on
//! the same witnesses: `transpose/`, `channels/`, `stream/`, `small/` (hosts) and `zip_tiles`
//! (`split/` runs one part of a plan through a raw destination pointer).
//!
//! Soundness rests on the witnesses of `proof/`, which only validation mints, and which each
//! loop below takes as an argument:
//!
//! - [`InBounds`](crate::kernel::proof::InBounds): every offset of every nest of the
//!   [`Plan`] (bounds computed by [`Plan::new`] with checked arithmetic) lies in `0..lens[k]`
//!   for operand `k`. The loop driver (`drive.rs`) visits only offsets of the nest, so every
//!   pointer formed below points at an element of its slice; each loop re-checks that it was
//!   handed slices of exactly the checked lengths
//!   ([`InBounds::plan_for`](crate::kernel::proof::InBounds::plan_for)).
//! - [`Unique`]: no two indices of the destination share an element, so a destination row or
//!   plane may become an exclusive `&mut [T]` beside the others.
//! - [`Disjoint`]: in [`copy_within`]'s one buffer, the two operands share no element.
//!
//! Source and destination slices of the other kernels are distinct borrows (`&[T]` and
//! `&mut [T]`), so they never overlap. The element type's facts (plain bytes, size) come from
//! `element.rs`, decided by type.

use core::mem::MaybeUninit;
use core::slice;

use crate::LayoutError;
use crate::kernel::channels::{self, Channels, channel_block};
use crate::kernel::drive::{
    for_each_block_of, for_each_block_tiled, for_each_cube, step, stepped, tiles,
};
use crate::kernel::element::is_plain;
use crate::kernel::plan::{
    L1_WAYS, LINE_BYTES, Loop, MAX_LOOPS, Plan, TINY_CUBE, l2_set_lines, line_for, set_lines,
    walk_whole,
};
use crate::kernel::proof::{Dense, Disjoint, Unique, UniqueBlock, Windows};
use crate::kernel::{stream, transpose};

/// `$call` compiled once per row length, `$r` a `const` holding `$len` where it is 2 to 8
/// (the row's loop then unrolled whole, with no exit to mispredict a row); for other lengths
/// `$other`, or else `$call` with `$r` 0 (the length read at run time). The one dispatch of
/// the kernels' loops compiled per row length: `copy()`'s tiny cubes, and `map`'s, `zip_map`'s,
/// `fill`'s and `fold`'s short rows (`elementwise.rs`).
macro_rules! per_row_len {
    ($len:expr, $r:ident => $call:expr) => {
        per_row_len!($len, $r => $call, {
            const $r: usize = 0;
            $call
        })
    };
    ($len:expr, $r:ident => $call:expr, $other:expr) => {
        match $len {
            2 => {
                const $r: usize = 2;
                $call
            }
            3 => {
                const $r: usize = 3;
                $call
            }
            4 => {
                const $r: usize = 4;
                $call
            }
            5 => {
                const $r: usize = 5;
                $call
            }
            6 => {
                const $r: usize = 6;
                $call
            }
            7 => {
                const $r: usize = 7;
                $call
            }
            8 => {
                const $r: usize = 8;
                $call
            }
            _ => $other,
        }
    };
}

/// `dst[i] = src[i]` over the plan (operand 0 `dst`, operand 1 `src`).
pub(crate) fn copy<T: Copy + 'static, const M: usize, const L: usize>(
    unique: &Unique<'_, 2, M, L>,
    dst: &mut [T],
    src: &[T],
) -> Result<(), LayoutError> {
    let plan = unique.bounds().plan_for([dst.len(), src.len()])?;
    let stream = stream::stream_worthy::<T>(|| plan.volume());
    let stream_rows = stream && stream::stream_rows_worthy::<T>(|| plan.volume());
    // SAFETY: every offset of the plan is inside `dst` and `src` by the `InBounds` witness
    // (and `plan_for` matched the lengths); `dst` and `src` are distinct borrows, and the
    // destination is unique (`Unique` witness). `owned` where `T` is plain: `dst` is this
    // call's alone (an exclusive borrow), and every byte of a slice of a plain type is
    // initialised.
    unsafe {
        copy_nests(
            plan,
            dst.as_mut_ptr(),
            src.as_ptr(),
            [stream, stream_rows, is_plain::<T>()],
        );
    };
    if stream {
        stream::stream_fence();
    }
    Ok(())
}

/// `dst[i] = src[i]` over one nest of at most two loops ([`UniqueBlock`]: a run-time copy's
/// nest planned without a plan, or a prepared plan's one nest): its block handed to
/// [`copy_block`] (tile by tile when tiled, as [`copy_nests`] does). `Ok(false)`, with
/// nothing written, when the copy is large enough to stream its stores: the caller runs
/// [`copy`] over its plan, whose loops stream (never on targets without streaming stores,
/// where this is all of a small copy's loops).
pub(crate) fn copy_small<T: Copy + 'static>(
    block: &UniqueBlock<'_>,
    dst: &mut [T],
    src: &[T],
) -> Result<bool, LayoutError> {
    copy_small_inlined(block, dst, src)
}

/// [`copy_small`], inlined into its caller on bare metal: what a prepared plan's run calls,
/// so that a `const` plan's block folds into the call (the run-time `copy()` keeps one
/// out-of-line copy, which is smaller there).
#[cfg_attr(
    target_os = "none",
    expect(
        clippy::inline_always,
        reason = "a `const` plan's run folds into immediates only when inlined into its caller"
    )
)]
#[cfg_attr(target_os = "none", inline(always))]
pub(crate) fn copy_small_inlined<T: Copy + 'static>(
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
    // One contiguous run each side (a dense copy): moved at once, without the block kernel's
    // dispatch (hosts; on bare metal the block kernel's row loop is the same move, in less
    // code).
    #[cfg(not(target_os = "none"))]
    if a.extent == 1 && b.strides == [1, 1] {
        // The run's `b.extent` elements from `od` and from `os` are the nest's, inside `dst`
        // and `src` (the `UniqueBlock` witness, whose lengths `nest_for` matched); `dst` and
        // `src` are distinct borrows.
        // SAFETY: `od` is inside `dst` (above).
        let dp = unsafe { d.offset(od) };
        // SAFETY: `os` is inside `src` (above).
        let sp = unsafe { s.offset(os) };
        // SAFETY: the run's elements from `dp` and `sp` (above), distinct borrows.
        unsafe { copy_run(dp, sp, b.extent) };
        return Ok(true);
    }
    if macro_block::<T>(a, b, false) {
        // SAFETY: `od` is an offset of the nest, inside `dst` (the `UniqueBlock` witness,
        // whose lengths `nest_for` matched).
        let dp = unsafe { d.offset(od) };
        // SAFETY: `os` is an offset of the nest, inside `src` (likewise).
        let sp = unsafe { s.offset(os) };
        // SAFETY: the nest's block, whose every offset is inside `dst` and `src` (the
        // `UniqueBlock` witness, whose lengths `nest_for` matched); distinct borrows, a
        // unique destination (the witness).
        unsafe { macro_transpose(dp, sp, a, b, false) };
        return Ok(true);
    }
    // Every offset of the nest is inside `dst` and `src` (the `UniqueBlock` witness, whose
    // lengths `nest_for` matched), and so are the block's and every tile's, which are
    // offsets of the nest; `dst` and `src` are distinct borrows, and the destination is
    // unique (the witness). That is `copy_block`'s contract for the block and each tile.
    if let Some([ta, tb]) = block_tile::<T>(a, b, nest.tile()) {
        let mut kinds = Kinds::default();
        tiles(
            [od, os],
            a,
            b,
            ta.max(1),
            tb.max(1),
            &mut |[od, os], a, b| {
                // SAFETY: the tile's first offset is an offset of the nest, inside `dst`
                // (above).
                let dp = unsafe { d.offset(od) };
                // SAFETY: likewise inside `src` (above).
                let sp = unsafe { s.offset(os) };
                let flags = [false, false, is_plain::<T>()];
                // SAFETY: a tile of the nest (above); `owned` where `T` is plain, as in
                // `copy`; `kinds` holds the kinds of this block's tiles only.
                unsafe { copy_block(dp, sp, a, b, &mut kinds, flags) };
            },
        );
    } else {
        // SAFETY: the block's first offset is an offset of the nest, inside `dst` (above).
        let dp = unsafe { d.offset(od) };
        // SAFETY: likewise inside `src` (above).
        let sp = unsafe { s.offset(os) };
        let flags = [false, false, is_plain::<T>()];
        // SAFETY: the nest's block (above); `owned` where `T` is plain, as in `copy`; a
        // new `kinds`.
        unsafe { copy_block(dp, sp, a, b, &mut Kinds::default(), flags) };
    }
    Ok(true)
}

/// `d[i] = s[i]` over the nests of `plan` (operand 0 `d`, operand 1 `s`); `[stream, rows,
/// owned]`: transposes and channel blocks store non-temporally with `stream`, contiguous rows
/// with `rows` (then call [`stream::stream_fence`] after it); with `owned`, the destination's
/// allocation is this call's alone, so rows of one channel may rewrite the bytes between
/// its elements with their own values ([`BlockKind::Insert`]). The loops of [`copy`], and of
/// one part of a split plan (not `owned`: other parts write between its elements).
///
/// # Safety
///
/// Every offset of every nest of `plan` is an element of the allocation behind `d`
/// (destination) and `s` (source); no destination element is a source element; no two
/// indices of the plan's destination share an element (a `Unique` witness); and nothing else
/// reads or writes the destination elements of `plan`, or writes its source elements, while
/// it runs. With `owned`, every byte of the destination's allocation from its lowest element
/// to its highest is initialised, and nothing else reads or writes any of them while it
/// runs.
pub(crate) unsafe fn copy_nests<T: Copy + 'static, const M: usize, const L: usize>(
    plan: &Plan<2, M, L>,
    d: *mut T,
    s: *const T,
    [stream, stream_rows, owned]: [bool; 3],
) {
    for nest in plan.nests() {
        let large = match nest.loops() {
            [.., a, b] => macro_block::<T>(*a, *b, stream),
            _ => false,
        };
        if large {
            for_each_block_tiled(nest, None, |[od, os], a, b| {
                // SAFETY: `od` is an offset of the nest, inside the destination allocation
                // (the caller's contract).
                let dp = unsafe { d.offset(od) };
                // SAFETY: `os` is an offset of the nest, inside the source allocation (the
                // caller's contract).
                let sp = unsafe { s.offset(os) };
                // SAFETY: the whole block's offsets are offsets of the nest, inside the
                // allocations, the destination's unique and not source elements (the caller's
                // contract); `macro_block` took the nest's two innermost loops, which every
                // block has.
                unsafe { macro_transpose(dp, sp, a, b, stream) };
            });
            continue;
        }
        // Tiled or not: the grouped transpose visits each cube in tiles of its own.
        #[cfg(not(target_os = "none"))]
        if let [.., c, a, b] = nest.loops() {
            if transpose::Grouped::<T>::fits(*c, *a, *b)
                // SAFETY: the caller's contract, for the nest, whose innermost loops these are.
                && unsafe { copy_grouped([*c, *a, *b], nest, d, s) }
            {
                continue;
            }
        }
        match inline_nest::<T, L>(nest, [stream, stream_rows, owned]) {
            Some(Inline::Cubes) => {
                // SAFETY: the caller's contract, for `nest`.
                if unsafe { tiny_cubes(nest, d, s) } {
                    continue;
                }
                // The strip of the third loop, the same for every cube (its rows are the
                // nest's innermost loop): found once, not per cube (a division).
                let steps = nest
                    .loops()
                    .last_chunk::<3>()
                    .map_or(CUBE_STRIP, |cube| cube_strip::<T>(*cube));
                for_each_cube(nest, |offs, c, a, b| {
                    // SAFETY: every offset of the cube `c × a × b` at `offs` is an offset of
                    // the nest, inside the allocations (the caller's contract), the
                    // destination's unique and not source elements: `small_cube`'s contract.
                    unsafe { small_cube(d, s, offs, [c, a, b], steps) };
                });
                continue;
            }
            Some(Inline::Runs) => {
                for_each_cube(nest, |offs, c, a, b| {
                    for k in 0..c.extent {
                        let block = stepped(offs, k, c.strides);
                        for i in 0..a.extent {
                            let [od, os] = stepped(block, i, a.strides);
                            let (dp, sp) = (d.wrapping_offset(od), s.wrapping_offset(os));
                            // SAFETY: row `i` of the block at step `k` of the cube `c × a × b`
                            // at `offs`: `b.extent` consecutive elements of each operand
                            // (`Inline::Runs`: its rows are `BlockKind::Rows`), offsets of the
                            // nest, inside the allocations, the destination's not source
                            // elements (the caller's contract): `copy_run`'s contract.
                            unsafe { copy_run(dp, sp, b.extent) };
                        }
                    }
                });
                continue;
            }
            Some(Inline::Tiles) => {
                for_each_block_of(nest, nest.tile(), |[od, os], a, b| {
                    // SAFETY: `od` and `os` are offsets of the nest, inside the allocations, and
                    // every offset of the block is one too (the caller's contract), the
                    // destination's unique and not source elements: `strided_block`'s contract.
                    unsafe { strided_block(d.wrapping_offset(od), s.wrapping_offset(os), a, b) }
                });
                continue;
            }
            None => {}
        }
        // The blocks' kind, found once per block shape ([`Kinds`]).
        let mut kinds = Kinds::default();
        for_each_block_of(nest, nest_tile::<T, L>(nest), |[od, os], a, b| {
            // SAFETY: `od` is an offset of the nest, inside the destination allocation (the
            // caller's contract).
            let dp = unsafe { d.offset(od) };
            // SAFETY: `os` is an offset of the nest, inside the source allocation (the
            // caller's contract).
            let sp = unsafe { s.offset(os) };
            // SAFETY: the block's offsets are offsets of the nest too, inside the
            // allocations, and its destination elements are unique and not source elements
            // (the caller's contract); `kinds` holds the kinds of this nest's blocks only.
            unsafe { copy_block(dp, sp, a, b, &mut kinds, [stream, stream_rows, owned]) };
        });
    }
}

/// `buf[dst(i)] = buf[src(i)]` over the plan, in one buffer whose two operands are disjoint.
pub(crate) fn copy_within<T: Copy + 'static, const M: usize>(
    disjoint: &Disjoint<'_, M>,
    buf: &mut [T],
) -> Result<(), LayoutError> {
    let plan = disjoint
        .unique()
        .bounds()
        .plan_for([buf.len(), buf.len()])?;
    let p = buf.as_mut_ptr();
    for nest in plan.nests() {
        let mut kinds = Kinds::default();
        for_each_block_tiled(nest, nest_tile::<T, MAX_LOOPS>(nest), |[od, os], a, b| {
            // SAFETY: as in `copy`, `od` is inside `buf` (`InBounds` witness).
            let dp = unsafe { p.offset(od) };
            // SAFETY: as in `copy`, `os` is inside `buf` (`InBounds` witness).
            let sp = unsafe { p.offset(os) };
            let flags = [false, false, is_plain::<T>()];
            // SAFETY: as in `copy`, the block's offsets are inside `buf` (`InBounds` witness);
            // the operands share no element (`Disjoint`), so `copy_block`'s copies never
            // overlap, and the destination is unique (`Unique`). `owned` where `T` is plain:
            // `buf` is this call's alone (an exclusive borrow), and source elements between
            // destination elements get their own values back from this one thread between
            // its reads. `kinds` has seen only this nest's blocks.
            unsafe { copy_block(dp, sp.cast_const(), a, b, &mut kinds, flags) };
        });
    }
    Ok(())
}

/// `dst[i] = src[i]` over the plan into uninitialised slots; returns the destination's span,
/// every element of which the copy wrote, as initialised elements.
pub(crate) fn copy_uninit<'d, T: Copy + 'static, const M: usize, const L: usize>(
    dense: &Dense<'_, M, L>,
    dst: &'d mut [MaybeUninit<T>],
    src: &[T],
) -> Result<&'d mut [T], LayoutError> {
    copy(dense.unique(), dst, uninit_source(src))?;
    // SAFETY: the `Dense` witness: the destination's offsets are unique and fill `span`
    // exactly, and `copy` above wrote a `T` at every one of them.
    unsafe { initialised(dst, dense.span()) }
}

/// [`copy_uninit`] over windows checked for a dense destination ([`Across::Dense`]): each
/// window copied through its own plan's witnesses, then the whole span handed back.
///
/// [`Across::Dense`]: crate::kernel::proof::Across::Dense
pub(crate) fn copy_uninit_windows<'d, T: Copy + 'static, const N: usize>(
    windows: &Windows<'_, N, 2>,
    dst: &'d mut [MaybeUninit<T>],
    src: &[T],
) -> Result<&'d mut [T], LayoutError> {
    // Windows checked for less than density hold no span: refused (never, from `copy_uninit`).
    let span = windows.span().ok_or(LayoutError::DestinationHasGaps)?;
    let src = uninit_source(src);
    windows.each_unique(|unique| copy(unique, dst, src))?;
    // SAFETY: `span` is the range the destination's offsets over all windows fill, each once
    // (`Windows::check` with `Across::Dense`), and `each_unique` ran `copy` over every window
    // (it returned `Ok`), so a `T` was written at every element of `span`.
    unsafe { initialised(dst, span) }
}

/// `src` as a slice of `MaybeUninit<T>`, the element type of the destination it is copied to.
/// (Moving `MaybeUninit<T>` takes the scalar paths: its bytes are not known initialised, and
/// each is a plain copy of the element.)
fn uninit_source<T>(src: &[T]) -> &[MaybeUninit<T>] {
    // SAFETY: `MaybeUninit<T>` has the size, alignment and layout of `T`, and every `T` is a
    // valid `MaybeUninit<T>`; the new slice is a shared borrow of the same elements.
    unsafe { slice::from_raw_parts(src.as_ptr().cast::<MaybeUninit<T>>(), src.len()) }
}

/// `dst[span]` as initialised elements.
///
/// # Safety
///
/// Every element of `dst[span]` holds a `T` (was written).
unsafe fn initialised<T>(
    dst: &mut [MaybeUninit<T>],
    span: core::ops::Range<usize>,
) -> Result<&mut [T], LayoutError> {
    let len = span.len();
    let (needed, given) = (span.end, dst.len());
    let part = dst.get_mut(span).ok_or(LayoutError::OffsetOutsideSlice {
        operand: crate::Operand::Destination,
        needed,
        given,
    })?;
    // SAFETY: every element of `part` is initialised (the caller's contract); `MaybeUninit<T>`
    // has `T`'s layout; `part` is borrowed for as long as `dst`.
    Ok(unsafe { slice::from_raw_parts_mut(part.as_mut_ptr().cast::<T>(), len) })
}

/// Whether the block `a × b` (operand 0 the destination) is a transpose for the
/// macro-kernels ([`macro_transpose`]): the destination runs along one loop and the source
/// along the other, [`transpose::streams`] takes the destination's row stride, and the copy
/// streams its stores (`nt`) or the block is at least [`transpose::MACRO_MIN`] both ways.
fn macro_block<T: 'static>(a: Loop<2>, b: Loop<2>, nt: bool) -> bool {
    let ([da, sa], [db, sb]) = (a.strides, b.strides);
    let large = nt || (a.extent >= transpose::MACRO_MIN && b.extent >= transpose::MACRO_MIN);
    large
        && ((db == 1 && sa == 1 && transpose::streams::<T>(da, a.extent, b.extent))
            || (da == 1 && sb == 1 && transpose::streams::<T>(db, b.extent, a.extent)))
}

/// The block `a × b` at `d`/`s` through the macro-kernels, with non-temporal stores when
/// `nt` (then call [`stream::stream_fence`] after the last).
///
/// # Safety
///
/// [`macro_block`]`::<T>(a, b, _)` holds, and [`copy_block`]'s contract for the block.
unsafe fn macro_transpose<T: 'static>(d: *mut T, s: *const T, a: Loop<2>, b: Loop<2>, nt: bool) {
    let ([da, sa], [db, sb]) = (a.strides, b.strides);
    if db == 1 {
        // SAFETY: the caller's contract; `macro_block` checked `streams` for this
        // orientation (`db == 1`: the destination runs along `b`), which is
        // `transpose_stream_unchecked`'s precondition.
        unsafe { transpose::transpose_stream_unchecked(d, da, s, sb, a.extent, b.extent, nt) };
    } else {
        // SAFETY: the caller's contract; `macro_block` checked `streams` for this
        // orientation (`da == 1`: the destination runs along `a`), which is
        // `transpose_stream_unchecked`'s precondition.
        unsafe { transpose::transpose_stream_unchecked(d, db, s, sa, b.extent, a.extent, nt) };
    }
}

/// Copies the `a × b` block at `d`/`s` (operand 0 the destination); `[stream, rows, owned]`:
/// the channel kernels use non-temporal stores with `stream`, contiguous rows with `rows`;
/// rows of one channel blend into the destination's pixels with `owned`.
///
/// # Safety
///
/// Every `d + i·a.strides[0] + j·b.strides[0]` and `s + i·a.strides[1] + j·b.strides[1]`
/// (`i < a.extent`, `j < b.extent`) is an element of the destination and source slices,
/// no destination element is a source element, and no two destination indices share an
/// element (the `Unique` witness of the caller). With `owned`, the bytes of the destination
/// slice between the block's elements are initialised and nothing else reads or writes them
/// while it runs ([`copy_nests`]'s `owned`). `kinds` has seen only blocks with the strides
/// of `a` and `b` (the blocks of one nest, or the tiles of one block).
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
    kinds: &mut Kinds,
    flags: [bool; 3],
) {
    let kind = kinds.of::<T>(a, b);
    // SAFETY: the caller's contract, the same loops, whose kind `kind` is where found.
    unsafe { block_kernel(d, s, a.extent, a.strides, b.extent, b.strides, kind, flags) }
}

/// The kind of the blocks of one nest (or the tiles of one block), found once per block
/// shape, not per block: the blocks share their strides, and only the tiles at the edges
/// have other extents. Bare metal finds none ([`KIND_IN_KERNEL`]).
#[derive(Default)]
struct Kinds(Option<([usize; 2], BlockKind)>);

impl Kinds {
    /// The kind of the block `a × b` of `T`, whose strides are those of every block this
    /// has seen; `None` on bare metal.
    fn of<T: 'static>(&mut self, a: Loop<2>, b: Loop<2>) -> Option<BlockKind> {
        match self.0 {
            _ if KIND_IN_KERNEL => None,
            Some((extents, kind)) if extents == [a.extent, b.extent] => Some(kind),
            _ => {
                let kind = block_kind::<T>(a, b);
                self.0 = Some(([a.extent, b.extent], kind));
                Some(kind)
            }
        }
    }
}

/// [`copy_block`] with each loop passed as its extent and strides: scalars and pairs go in
/// registers, where a `Loop` is passed by address, so the caller's loops had to be copied to
/// memory first (a `const` plan's 64-frame stereo run: 15 instructions fewer on a
/// Cortex-M4).
///
/// `kind` is the block's [`block_kind`], found by the caller: once per block shape of a
/// nest ([`copy_nests`]; a tiled nest's blocks differ only at its edges), not per block;
/// `None` where [`KIND_IN_KERNEL`] (bare metal), which finds it here.
///
/// # Safety
///
/// As [`copy_block`] for the loops `(ea, [da, sa])` and `(eb, [db, sb])`, whose
/// [`block_kind`] `kind` is where `Some`.
// Not inlined: `copy` calls it from the one-block path and from the tiled driver, and one
// copy of its dispatch serves both (and `copy_within`).
#[inline(never)]
#[expect(
    clippy::too_many_arguments,
    reason = "scalars and pairs in registers (above); the kind found once per block shape"
)]
unsafe fn block_kernel<T: Copy + 'static>(
    d: *mut T,
    s: *const T,
    ea: usize,
    [da, sa]: [isize; 2],
    eb: usize,
    [db, sb]: [isize; 2],
    kind: Option<BlockKind>,
    [stream, stream_rows, owned]: [bool; 3],
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
    let kind = match kind {
        Some(kind) if !KIND_IN_KERNEL => kind,
        _ => block_kind::<T>(a, b),
    };
    match kind {
        BlockKind::Rows if PAIR_ROWS => {
            // SAFETY: the caller's contract: `a.extent` rows of `b.extent` consecutive
            // elements, `da` and `sa` apart.
            unsafe { pair_rows_contiguous(d, da, s, sa, a.extent, b.extent) };
        }
        BlockKind::Rows => {
            // SAFETY: the caller's contract: `a.extent` rows of `b.extent` consecutive
            // elements, `da` and `sa` apart.
            if !stream && unsafe { copy_short_rows(d, da, s, sa, a.extent, b.extent) } {
                return;
            }
            for i in 0..a.extent {
                let (dp, sp) = (
                    d.wrapping_offset(step(i, da)),
                    s.wrapping_offset(step(i, sa)),
                );
                if stream_rows {
                    // SAFETY: row `i` of the block, `b.extent` consecutive elements in each
                    // slice (caller's contract), disjoint.
                    unsafe { stream::stream_copy_unchecked(dp, sp, b.extent) };
                } else {
                    // SAFETY: as above.
                    unsafe { copy_run(dp, sp, b.extent) };
                }
            }
        }
        BlockKind::Interleave | BlockKind::InterleaveTurned => {
            // The channels along `a` and the pixels along `b`, or turned (`turned_channels`).
            let (chans, pixels, px, plane) = if kind == BlockKind::Interleave {
                (a.extent, b.extent, db, sa)
            } else {
                (b.extent, a.extent, da, sb)
            };
            // SAFETY: the caller's contract: `chans` source planes of `pixels` elements,
            // `plane` apart, and `pixels` destination pixels of `chans` consecutive elements,
            // `px` apart.
            unsafe {
                channels::interleave(d, px.unsigned_abs(), s, plane, chans, pixels, stream);
            }
        }
        BlockKind::Deinterleave | BlockKind::DeinterleaveTurned => {
            let (chans, pixels, plane, px) = if kind == BlockKind::Deinterleave {
                (a.extent, b.extent, da, sb)
            } else {
                (b.extent, a.extent, db, sa)
            };
            // SAFETY: as above with the roles swapped; the destination planes are disjoint
            // because the destination is unique (the caller's `Unique` witness), so each is its
            // own exclusive sub-slice.
            unsafe {
                channels::deinterleave(d, plane, s, px.unsigned_abs(), chans, pixels, stream);
            }
        }
        BlockKind::Extract => {
            // SAFETY: the caller's contract, for a block `block_kind` found of this kind.
            unsafe { one_channel_rows::<T, false>(d, s, a, b) };
        }
        BlockKind::Insert if owned => {
            // SAFETY: the caller's contract, for a block `block_kind` found of this kind,
            // whose destination's bytes are this call's alone (`owned`).
            unsafe { one_channel_rows::<T, true>(d, s, a, b) };
        }
        BlockKind::TransposeSwapped => {
            // The destination runs along `a` and the source along `b`: a transpose with the
            // roles of the loops swapped (a planar -> blocked copy with 5 or more lanes, say).
            // SAFETY: the caller's contract is `transpose_unchecked`'s, with `dst` rows along
            // `b` and `src` rows along `a`.
            unsafe { transpose::transpose_unchecked(d, db, s, sa, b.extent, a.extent) };
        }
        BlockKind::Transpose => {
            // SAFETY: the caller's contract is `transpose_unchecked`'s, with `dst` rows along
            // `a` and `src` rows along `b`. (Streaming a tile's rows was measured slower: rows
            // of one tile are a few cache lines, rarely line-aligned; large transposes stream
            // whole blocks instead, see `stream_transpose`.)
            unsafe { transpose::transpose_unchecked(d, da, s, sb, a.extent, b.extent) };
        }
        BlockKind::Reverse => {
            // Each row's `n` elements, from its lowest in each operand: the first row's, then
            // `da`, `sa` on, row by row.
            let (dl, sl) = lowest(d, s, db, b.extent);
            // SAFETY: the caller's contract: row `i`'s `b.extent` elements are `dl + i·da ..`
            // of the destination and `sl + i·sa ..` of the source (one of them runs backwards
            // from its row start, the other forwards), disjoint.
            unsafe { reverse_rows(dl, da, sl, sa, a.extent, b.extent) };
        }
        BlockKind::Elements if PAIR_ROWS => {
            // SAFETY: the caller's contract: the block's rows.
            unsafe { pair_rows(d, da, db, s, sa, sb, a.extent, b.extent) };
        }
        BlockKind::Elements | BlockKind::Insert => {
            // SAFETY: the caller's contract is `strided_block`'s.
            unsafe { strided_block(d, s, a, b) };
        }
    }
}

/// A [`BlockKind::Extract`] block (`INSERT` false) or [`BlockKind::Insert`] block: each row
/// of `b` moved by [`channels::one_channel`] as far as its whole steps go, the rest of every
/// row by [`strided_block`].
///
/// # Safety
///
/// [`copy_block`]'s contract; the consecutive side's stride along `b` is `±1` and the strided
/// side's (the source's when gathering, the destination's when `INSERT`) 2 to 16 either way;
/// when `INSERT`, the destination's bytes between its elements are initialised bytes of its
/// allocation and nothing else reads or writes them while this runs.
#[inline(never)]
unsafe fn one_channel_rows<T: Copy + 'static, const INSERT: bool>(
    d: *mut T,
    s: *const T,
    a: Loop<2>,
    b: Loop<2>,
) {
    let ([da, sa], [db, sb]) = (a.strides, b.strides);
    // Each row walked from its strided side's lowest element: from its last when that side
    // runs backwards (both operands' rows then run the other way).
    let strided = if INSERT { db } else { sb };
    let last = b.extent.saturating_sub(1);
    let (d0, s0, db, sb) = if strided < 0 {
        (
            d.wrapping_offset(step(last, db)),
            s.wrapping_offset(step(last, sb)),
            db.wrapping_neg(),
            sb.wrapping_neg(),
        )
    } else {
        (d, s, db, sb)
    };
    let (px, rev) = if INSERT { (db, sb < 0) } else { (sb, db < 0) };
    // SAFETY: the caller's contract: the block's rows, each `b.extent` elements, the strided
    // side's `px` apart from its lowest and the other side's consecutive (running down when
    // `rev`), no destination element a source element; when `INSERT`, the destination's
    // bytes between its elements as `one_channel` asks.
    let done = unsafe {
        channels::one_channel::<T, INSERT>(
            d0,
            da,
            s0,
            sa,
            px.unsigned_abs(),
            rev,
            a.extent,
            b.extent,
        )
    };
    let rest = Loop {
        extent: b.extent.saturating_sub(done),
        strides: [db, sb],
    };
    // SAFETY: every row's elements from `done` (`done <= b.extent`), offsets of the block:
    // the caller's contract is `strided_block`'s for them.
    unsafe {
        strided_block(
            d0.wrapping_offset(step(done, db)),
            s0.wrapping_offset(step(done, sb)),
            a,
            rest,
        );
    };
}

/// Which loop moves a block `a × b` of `T` (operand 0 the destination): the one rule
/// [`block_kernel`] dispatches on, found by [`copy_nests`] once per nest for its inlined
/// forms and once per block shape for the blocks it hands to [`block_kernel`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum BlockKind {
    /// Rows of consecutive elements in both operands (`b` strides 1).
    Rows,
    /// A channel block, planar source to interleaved destination, the channel kernels'
    /// ([`channels::takes`]: enough pixels, at least one step of the target's shuffles).
    Interleave,
    /// A channel block, interleaved source to planar destination, likewise.
    Deinterleave,
    /// An [`Interleave`](BlockKind::Interleave) block turned: the pixels along `a`, the
    /// channels along `b` ([`turned_channels`]).
    InterleaveTurned,
    /// A [`Deinterleave`](BlockKind::Deinterleave) block turned likewise.
    DeinterleaveTurned,
    /// Rows of one channel, the source's elements 2 to 16 apart and the destination's
    /// consecutive, of enough elements: gathered by shuffles ([`Channels::Extract`]).
    Extract,
    /// Rows of one channel, the destination's elements 2 to 16 apart and the source's
    /// consecutive, of enough elements: scattered by shuffles and blends where the
    /// destination is the copy's alone ([`Channels::Insert`]), else element by element.
    Insert,
    /// A transpose, the destination running along `a` and the source along `b`, holding a
    /// whole micro-kernel block ([`transpose::worth`]).
    TransposeSwapped,
    /// A transpose, the destination running along `b` and the source along `a`, likewise.
    Transpose,
    /// Rows of consecutive elements running forwards in one operand and backwards in the
    /// other (a flip, [`flipped`]), on hosts, long enough or many enough
    /// ([`reverse_worth`]): each row one reversed run, the block one call
    /// ([`reverse_rows`]).
    Reverse,
    /// None of these: element by element.
    Elements,
}

/// Whether [`block_kernel`] finds its block's kind itself rather than taking the caller's:
/// on bare metal, where the compiler then sees which kinds its blocks can be (rows, element
/// loops and the portable transposes: no channel kernels there) and leaves the other arms
/// out of the image (a kind passed in kept every arm: the prepared stereo firmware grew from
/// 1,932 to 5,324 B); hosts find it once per block shape ([`copy_nests`]).
const KIND_IN_KERNEL: bool = cfg!(target_os = "none");

/// The [`BlockKind`] of the block `a × b` of `T`.
fn block_kind<T: 'static>(a: Loop<2>, b: Loop<2>) -> BlockKind {
    let ([da, sa], [db, sb]) = (a.strides, b.strides);
    if db == 1 && sb == 1 {
        return BlockKind::Rows;
    }
    if flipped(db, sb) && reverse_worth::<T>(a.extent, b.extent) {
        return BlockKind::Reverse;
    }
    match channel_block::<T>(a, b) {
        Some(c) if channels::takes::<T>(c, a, b) => {
            return match c {
                Channels::Interleave => BlockKind::Interleave,
                Channels::Deinterleave => BlockKind::Deinterleave,
                Channels::Extract => BlockKind::Extract,
                Channels::Insert => BlockKind::Insert,
            };
        }
        _ => {}
    }
    match turned_channels::<T>(a, b) {
        Some(Channels::Interleave) => return BlockKind::InterleaveTurned,
        Some(Channels::Deinterleave) => return BlockKind::DeinterleaveTurned,
        _ => {}
    }
    let transposes = transpose::transposes::<T>();
    if da == 1 && sb == 1 && transposes && transpose::worth::<T>(b.extent, a.extent) {
        BlockKind::TransposeSwapped
    } else if db == 1 && sa == 1 && transposes && transpose::worth::<T>(a.extent, b.extent) {
        BlockKind::Transpose
    } else {
        BlockKind::Elements
    }
}

/// The channel kernel that takes the block `a × b` of `T` turned (`b × a`: the channels along
/// `b`, the pixels along `a`), where that block is a channel block the kernels take
/// ([`channel_block`], [`channels::takes`]); `None` for any other. The planner orders the
/// loops by their strides, not by the kernels, and puts the channel loop inside where its
/// planes lie further apart than the pixels' steps weigh (9 to 16 channels of 4 bytes
/// planar into pixels: the pixel loop weighs `2 · 9 + 1 = 19` against the channel loop's
/// `2 + 16`), which the transposes then took at 2.4x the channel kernels' time (the
/// seed-7 sweep's case 1567, `u32` `9 x 164` blocks, 77 against 32 us). A block is a set of
/// element pairs, so the same kernel takes it either way round. The one rule
/// [`block_kind`] and [`block_tile`] read.
fn turned_channels<T: 'static>(a: Loop<2>, b: Loop<2>) -> Option<Channels> {
    match channel_block::<T>(b, a) {
        Some(c @ (Channels::Interleave | Channels::Deinterleave))
            if channels::takes::<T>(c, b, a) =>
        {
            Some(c)
        }
        _ => None,
    }
}

/// The tile `nest`'s blocks of `T` run in: the plan's, or `None` (whole) where a block
/// kernel takes the whole block better than its tiles ([`block_tile`]): chosen by type, at
/// run time, as the kernel is.
fn nest_tile<T: 'static, const L: usize>(
    nest: &crate::kernel::plan::Nest<2, L>,
) -> Option<[usize; 2]> {
    match nest.loops() {
        [.., a, b] => block_tile::<T>(*a, *b, nest.tile()),
        _ => nest.tile(),
    }
}

/// [`nest_tile`] for the block `a × b` (the two innermost loops) and its `tile`: `None` for
/// a planar <-> interleaved channel block the channel kernels take ([`channels::takes`]:
/// they read and write every line of such a block once, and tiles would only cut their runs
/// short) and for a transpose of
/// `T` whose walk stays cached ([`walk_whole`]: the transposes' bands reuse the lines the
/// last band read, and each tile would pay a call and a kernel choice); the plan's tile for
/// any other block, whose element loops it keeps cached.
fn block_tile<T: 'static>(a: Loop<2>, b: Loop<2>, tile: Option<[usize; 2]>) -> Option<[usize; 2]> {
    if turned_channels::<T>(a, b).is_some() {
        return None;
    }
    match channel_block::<T>(a, b) {
        Some(c @ (Channels::Interleave | Channels::Deinterleave))
            if channels::takes::<T>(c, a, b) =>
        {
            None
        }
        Some(Channels::Extract | Channels::Insert) => tile,
        _ if tile.is_some()
            && transpose::transposes::<T>()
            && walk_whole(&a, &b, line_for(size_of::<T>())) =>
        {
            None
        }
        _ => tile,
    }
}

/// How [`copy_nests`] runs a nest's blocks inlined into the driver, without
/// [`block_kernel`]'s call and dispatch per block (hosts, where the strided loop is unrolled);
/// `None`: through [`block_kernel`].
#[derive(Clone, Copy, PartialEq, Eq)]
enum Inline {
    /// Untiled, its blocks [`BlockKind::Elements`] or short [`BlockKind::Rows`] (at most
    /// [`SHORT_ROW_BYTES`] a row, not streamed): three loops at a time ([`for_each_cube`]),
    /// each of the third loop's steps a [`small_block`]. Such blocks are often a few elements
    /// each (the two innermost loops of a copy whose every axis is short or strided, or two
    /// rows of 8 channels of a blocks-of-8 -> blocks-of-16 reorder).
    Cubes,
    /// Tiled, its blocks [`BlockKind::Elements`]: each tile a [`strided_block`].
    Tiles,
    /// Untiled, its blocks [`BlockKind::Rows`] longer than [`SHORT_ROW_BYTES`] (rows not
    /// streamed): three loops at a time, each row one [`copy_run`]. A block of a few long rows
    /// (two rows of 1 KiB, in a copy that swaps halves of its rows) paid about half of
    /// its rows' time again in [`block_kernel`]'s call and dispatch.
    Runs,
}

/// The [`Inline`] form of `nest`'s blocks, if any (`[stream, stream_rows, owned]` as
/// [`copy_nests`] takes them: `stream`, the copy streams its transposes' stores;
/// `stream_rows`, its contiguous rows' too; `owned`, its destination is its alone, else rows
/// of one channel scattered are element loops, [`BlockKind::Insert`], and inline as those
/// do).
fn inline_nest<T: 'static, const L: usize>(
    nest: &crate::kernel::plan::Nest<2, L>,
    [stream, stream_rows, owned]: [bool; 3],
) -> Option<Inline> {
    let (a, b) = match nest.loops() {
        [.., a, b] => (*a, *b),
        [b] => (Loop::UNIT, *b),
        [] => return None,
    };
    if PAIR_ROWS {
        return None;
    }
    let kind = match block_kind::<T>(a, b) {
        BlockKind::Insert if !owned => BlockKind::Elements,
        kind => kind,
    };
    let short = kind == BlockKind::Rows
        && !stream
        && b.extent
            .checked_mul(size_of::<T>())
            .is_some_and(|n| n <= SHORT_ROW_BYTES);
    match (kind, nest.tile()) {
        (BlockKind::Elements, None) => Some(Inline::Cubes),
        (_, None) if short => Some(Inline::Cubes),
        (BlockKind::Rows, None) if !stream_rows => Some(Inline::Runs),
        (BlockKind::Elements, Some(_)) => Some(Inline::Tiles),
        _ => None,
    }
}

/// Copies `nest`, whose three innermost loops `[c, a, b]` (its tile, if any, ignored) have the grouped transpose's shape
/// ([`transpose::Grouped::fits`]: a transpose whose columns come in groups, consecutive on
/// one side), as grouped transposes: each cube in whole tiles where the blocks' own
/// transposes would leave an edge in every block (`oihw -> OIhw16i16o`: one column of nine).
/// `false`, with nothing written, where it has not (never, after `fits`: the same rule). Not
/// inlined: the table of the columns lives in this frame only.
///
/// # Safety
///
/// [`copy_nests`]'s contract, for `nest`.
#[cfg(not(target_os = "none"))]
#[inline(never)]
#[expect(
    clippy::many_single_char_names,
    reason = "the operands and loops are named as in the module"
)]
unsafe fn copy_grouped<T: 'static, const L: usize>(
    [c, a, b]: [Loop<2>; 3],
    nest: &crate::kernel::plan::Nest<2, L>,
    d: *mut T,
    s: *const T,
) -> bool {
    let Some(grouped) = transpose::Grouped::<T>::of(c, a, b) else {
        return false;
    };
    for_each_cube(nest, |[od, os], _, _, _| {
        // SAFETY: `grouped` was minted for the nest's three innermost loops, whose every
        // cube at `[od, os]` is offsets of the nest, inside the allocations (the caller's
        // contract), the destination's unique and not source elements: `Grouped::run`'s
        // contract.
        unsafe { grouped.run(d.wrapping_offset(od), s.wrapping_offset(os)) };
    });
    true
}

/// The most steps of the third innermost loop a [`small_cube`] takes at a time when it runs
/// that loop inside the second.
const CUBE_STRIP: usize = 64;

/// Bytes of both operands' cache lines one strip of a [`small_cube`] may touch for one step
/// of the second loop: half a 32 KiB L1D, so the strip's lines are still there when the next
/// step of the second loop comes back to them.
const CUBE_BYTES: usize = 16 << 10;

/// The farthest apart, in bytes, an operand's steps of the second loop `a` may be for
/// [`cube_strip`] to count its lines as reused: each line then serves at least four steps of
/// `a`, and a line the strip evicts between two of them is fetched again at each.
const REUSE_BYTES: usize = 16;

/// The fewest steps of `a` for that reuse to count ([`cube_strip`]), and the fewest steps of
/// `c` the sets' bound leaves a strip: strips of fewer ran 2-3x slower (3 steps of rows of
/// 17 lines against 5 to 14: 950 against 330 us), as `a`'s few steps cannot repay the
/// evictions they would save.
const REUSE_STEPS: usize = 8;

/// The fewest steps of `a` that, coming back to lines whose steps of `c` all map to one
/// first-level set, keep a [`small_cube`] in its order where a pass of `c` stays in the
/// second level ([`cube_strip`]).
const BACK_SET_STEPS: usize = 4;

/// The farthest apart, in bytes, consecutive rows of a [`small_cube`] may start in every
/// operand for [`cube_strip`] to leave the cube in its order (four lines: the rows then
/// read and write each operand as one stream with gaps).
const ROW_STREAM_BYTES: usize = 256;

/// The fewest steps of the second loop of a [`small_cube`] for [`cube_strip`] to leave the
/// cube in its order: each call then moves that many rows, as a strip's would. Of the cubes
/// of three 2,000-case sweeps whose rows run on, those of 32 steps or more (33) ran 0.85x
/// the time in their order, those of fewer (78) 1.20x.
const ROW_STREAM_STEPS: usize = 32;

/// The longest rows, in bytes of elements, of a [`small_cube`] that [`cube_strip`] leaves
/// in its order where strips would not cut its calls by more than [`STRIP_CALLS`].
const STRIP_ROW_BYTES: usize = 32;

/// How many times fewer calls a [`small_cube`]'s strips must make than its order for
/// [`cube_strip`] to take them where its rows are short and no operand's lines are reused.
const STRIP_CALLS: usize = 3;

/// The most lines a row of `b` may touch in the operand whose lines the few steps of `a`
/// come back to for [`cube_strip`] to keep the cube in its order: rows of 8 to 16 lines
/// read 1 KiB on a step of `c` (the random sweeps' seed 13's 1348 and seed 23's 371, the
/// power-of-two seed 13's 1385) ran 1.13-1.27x slower in the cube's order than in strips.
const BACK_ROW_LINES: usize = 4;

/// How many steps of the third loop `c` a [`small_cube`] strip takes for the cube `c × a × b`
/// of `T`: 1 (no strips, the cube in its order) where its rows run on, at least
/// [`ROW_STREAM_STEPS`] rows, each at most [`ROW_STREAM_BYTES`] on from the last in each
/// operand and, in each, consecutive elements or strided ones that end before the next row
/// starts (`|b stride| · b extent <= |a stride|`): the order then reads and writes
/// each operand as one stream a step of `c`, where strips read and write as many streams
/// as they have steps (measured on 2,000-case sweeps, each such cube timed alone with the
/// builds alternating, medians of five: seeds 7, 13 and 29, from which the rule was drawn,
/// 33 cubes 0.85x the time in geometric mean, seed 29's 973, `f64` rows of 7 written 56
/// bytes and read 168 bytes apart, 2.4 -> 1.1 ms against the plain loop's 1.4, lifted above
/// it; seeds 11, 17, 19 and 23, drawn afterwards, 33 cubes 0.78x; the slowest, over nine
/// rounds, seed 13's 1770, `f64` rows of 2 written 64 bytes apart, 1.5x: 2.6 -> 4.0 ms
/// against the loop's 5.1, and seed 29's 130 1.3x). Rows of strided elements joined the
/// rule later (seed 19's 1964, `f64` rows of 2 written 16 bytes apart, 64 bytes from the
/// last: 213 -> 52 us against the plain loop's 147, lifted above it; 28 cubes of six
/// 2,000-case sweeps 0.83x the time in geometric mean, the slowest seed 7's 703, `f64` rows
/// of 2 written 24 bytes apart, 144 bytes from the last, 1.39x, still 2.6x faster than the
/// loop; 11 cubes of two power-of-two sweeps 0.61x, seed 13's 823 83 -> 12 us against the
/// loop's 19). Else as many as keep the lines its rows touch within [`CUBE_BYTES`], at most
/// [`CUBE_STRIP`], and, for each operand whose lines [`REUSE_BYTES`] and [`REUSE_STEPS`] say
/// the steps of `a` reuse, as many as its lines fit the first-level sets they map to (at least
/// [`REUSE_STEPS`]). A row touches `extent · |stride|` bytes of an operand where its elements
/// are less than a line apart, a line per element where they are farther. Steps of `c` a line
/// or more apart map a strip's rows to the sets that hold [`set_lines`] of its lines (steps of
/// 256 bytes come back to the same 16 sets, steps of a page to one). Measured on the random sweep:
/// 48 steps of rows of 5 lines, 256 bytes apart, reused by 16 steps of `a`, ran at 0.42-0.8x
/// the plain loop; in 25 steps, 1.5x it (the 14 strips of ten 2,000-case sweeps this bound
/// shortens: 0.83x the time in geometric mean).
///
/// A cube of rows of at most [`STRIP_ROW_BYTES`] whose strips would cut its calls (`c.extent`
/// in its order, `a.extent · ⌈c.extent / steps⌉` in strips) at most [`STRIP_CALLS`] times
/// keeps its order too, where no operand's lines are reused by the steps of `a` (the sets'
/// bound above), no operand's rows of `b` overflow the sets their lines map to, and the
/// destination's rows of `a` fit theirs: strips then save few calls and
/// cut each step of `c`'s block of short rows into passes. Measured (496 such cubes of four
/// 2,000-case sweeps forced into their order, three rounds: the rule's features and bounds;
/// then the 49 cubes it orders in eight sweeps, seven rounds): 0.78-0.98x the time per
/// sweep, the slowest 1.23x and still 1.6x faster than the plain loop; seed 37's 999 (`f64`
/// rows of 4 read 24 bytes apart, 5 rows a step of 11) 1.4 -> 0.72 ms against the loop's
/// 0.74, 681 and seed 19's 1872 lifted above the loop too, the power-of-two sweep's seed 7's
/// 1215 0.31x. Without the sets' guards, power-of-two cubes whose destination rows of `a`
/// were 32-128 KiB apart ran up to 2.6x slower.
///
/// A cube whose few steps of `a` (fewer than [`REUSE_STEPS`]) come back within a line in some
/// operand whose rows of `b` touch at most [`BACK_ROW_LINES`] lines, while `c` steps a line or more
/// there, so far apart that the sets those lines map to hold no more than [`REUSE_STEPS`] steps'
/// rows and a pass of `c` fills or overflows the second level's sets (`l2_set_lines`) or, where `a`
/// comes back [`BACK_SET_STEPS`] times or more, lands all its steps in one first-level set (`c` a
/// page apart, or a multiple), keeps its order too: a strip's steps of `c` evict each other's lines
/// before `a` comes back to them, and in the cube's order each step of `c` takes its few lines
/// whole. Not where the block `a × b` itself overflows the sets its lines map to in some operand
/// (the power-of-two seed 11's 280, `f64` blocks of 4 x 4 written 16 and 64 KiB apart: 2.8x slower
/// in the cube's order). Measured on the sweep's power-of-two cases (seeds 7, 11, 13, 17, 19, 23
/// and 29), each cube it orders timed alone with the builds alternating (medians of five): 12
/// cubes, 0.52-1.05x the time (seed 23's 328, `f64` 4 x 2 blocks written 4 KiB a step of `c`, 294
/// -> 153 us against the plain loop's 175; seed 13's 162 1,268 -> 662 us against 1,086; 1768 and
/// seed 19's 142 lifted above the loop too). No cube of four random 2,000-case sweeps changes. A
/// pass that fills the sets exactly (as many steps of `c` as `l2_set_lines`) joined later: the
/// strip's lines and the other operand's share those sets. Its cubes in eleven power-of-two
/// 2,000-case sweeps (seeds 7, 11, 13, 17, 19, 23, 29, 31, 37, 41 and 43), 13, timed alone with the
/// builds alternating (medians of seven): 0.83x the time in geometric mean, 0.42-1.74x, three
/// lifted above the plain loop (seed 19's 91, `f64` rows of 2 read 8 KiB a step of `c`: 82 -> 48 us
/// against the loop's 53; seed 23's 112, 778 -> 368 us against 512; seed 31's 1764, 322 -> 232
/// against 257), the slowest seed 37's 1610 (`u16` blocks of 2 x 4, 64 steps 16 KiB apart: 148 ->
/// 258 us, the loop 331), whose strips made 32 times fewer calls; no cube of four random 2,000-case
/// sweeps or either 240-case sweep changes. Last, the one-set case: where the second level holds
/// the pass, each step of `a` still came back to lines its first-level set had evicted. Without
/// that bound every cube whose pass the second level holds kept its order: 30 cubes of eight
/// power-of-two sweeps (the 240 and seeds 7-29), 0.45-1.45x, those whose `a` comes back twice
/// mostly slower (10 of 13 at 1.07-1.30x, seed 19's 720 put below the loop), those of steps 1 and 2
/// KiB apart 1.12-1.45x. With it, 20 cubes of thirteen power-of-two sweeps (seeds 7-53; 37-53 drawn
/// after the rule, six cubes 0.76-1.00x) ran 0.42-1.05x, 0.84x in geometric mean, none slower than
/// the noise: seed 23's 240, `u16` rows of 2 read 16 KiB a step, 260 -> 109 us (the loop 100), seed
/// 19's 1776 123 -> 73 (72), seed 19's 430, seed 29's 1658 and seed 53's 641 lifted above the loop.
/// No cube of the random or 240-case sweeps changes.
fn cube_strip<T>([c, a, b]: [Loop<2>; 3]) -> usize {
    let size = size_of::<T>().max(1);
    if a.extent >= ROW_STREAM_STEPS
        && a.strides.into_iter().zip(b.strides).all(|(sa, sb)| {
            let (sa, sb) = (sa.unsigned_abs(), sb.unsigned_abs());
            (sb == 1 || sb.saturating_mul(b.extent) <= sa)
                && sa.saturating_mul(size) <= ROW_STREAM_BYTES
        })
    {
        return 1;
    }
    let (mut row, mut steps) = (0usize, CUBE_STRIP);
    let (mut reuse, mut crowded, mut back, mut spill) = (false, false, false, false);
    for ((sc, sa), sb) in c.strides.into_iter().zip(a.strides).zip(b.strides) {
        let step = sb
            .unsigned_abs()
            .saturating_mul(size)
            .clamp(size, LINE_BYTES);
        let bytes = b.extent.saturating_mul(step);
        row = row.saturating_add(bytes);
        let apart = sc.unsigned_abs().saturating_mul(size);
        let (near, across) = (
            sa.unsigned_abs().saturating_mul(size),
            sb.unsigned_abs().saturating_mul(size),
        );
        // The lines of a row of `b`, and the strip's steps of `c` their sets hold.
        let lines = bytes.div_ceil(LINE_BYTES);
        let fit = set_lines(apart).checked_div(lines).unwrap_or(CUBE_STRIP);
        if apart >= LINE_BYTES && a.extent >= REUSE_STEPS && near <= REUSE_BYTES {
            reuse = true;
            steps = steps.min(fit.max(REUSE_STEPS));
        }
        // Fewer steps of `a` within a line, rows of a few lines, `REUSE_STEPS` steps of `c`
        // past their sets and a pass of `c` past the second level's.
        back |= apart >= LINE_BYTES
            && a.extent < REUSE_STEPS
            && near < LINE_BYTES
            && lines <= BACK_ROW_LINES
            && fit <= REUSE_STEPS
            && (c.extent >= l2_set_lines(apart)
                || a.extent >= BACK_SET_STEPS && set_lines(apart) <= L1_WAYS);
        // The block `a × b`'s lines, past the sets they map to.
        let block = if near >= LINE_BYTES {
            a.extent.saturating_mul(lines)
        } else {
            lines
        };
        spill |= block > set_lines(near).min(set_lines(across));
        // The rows of `b` in this operand, one line each where its steps are a line or more.
        crowded |= b.extent > set_lines(across);
    }
    if back && !spill {
        return 1;
    }
    let steps = CUBE_BYTES.checked_div(row).unwrap_or(CUBE_STRIP).min(steps);
    let calls = a.extent.saturating_mul(c.extent.div_ceil(steps.max(1)));
    let [da, _] = a.strides;
    if !reuse
        && !crowded
        && a.extent <= set_lines(da.unsigned_abs().saturating_mul(size))
        && b.extent.saturating_mul(size) <= STRIP_ROW_BYTES
        && c.extent <= calls.saturating_mul(STRIP_CALLS)
    {
        return 1;
    }
    steps
}

/// Copies the cube `c × a × b` at offsets `offs` of `d`/`s` (`b` innermost): when the second
/// loop `a` is shorter than `c` (two rows of 8 channels at each of 12544 positions), in strips
/// of `steps` steps of `c` ([`cube_strip`]; at least 2), each strip a [`small_block`] per step of `a` with `c` as
/// its rows, so each call moves many rows and a strip's destination lines are all written
/// while in the cache; else a [`small_block`] per step of `c`.
///
/// # Safety
///
/// Every offset `offs + k·c.strides + i·a.strides + j·b.strides` (`k < c.extent`, `i <
/// a.extent`, `j < b.extent`) is an element of the allocation behind `d` (destination) and
/// `s` (source); no destination element is a source element; no two indices share a
/// destination element.
#[expect(
    clippy::inline_always,
    reason = "inlined into the driver's closure: the point is to save a call per block"
)]
#[inline(always)]
unsafe fn small_cube<T: Copy>(
    dst: *mut T,
    src: *const T,
    [od, os]: [isize; 2],
    [c, a, b]: [Loop<2>; 3],
    steps: usize,
) {
    if a.extent < c.extent && steps >= 2 {
        let mut k0 = 0;
        while k0 < c.extent {
            let rows = Loop {
                extent: steps.min(c.extent.wrapping_sub(k0)),
                strides: c.strides,
            };
            let first = stepped([od, os], k0, c.strides);
            for i in 0..a.extent {
                let [di, si] = stepped(first, i, a.strides);
                // SAFETY: the block `rows × b` at step `i` of `a` of the strip from step `k0`
                // of `c`: offsets of the cube (`k0 + rows.extent <= c.extent`), the caller's
                // contract is `small_block`'s for it.
                unsafe { small_block(dst.wrapping_offset(di), src.wrapping_offset(si), rows, b) };
            }
            k0 = k0.wrapping_add(steps);
        }
    } else {
        for k in 0..c.extent {
            let [dk, sk] = stepped([od, os], k, c.strides);
            // SAFETY: the block `a × b` at step `k` of `c`: offsets of the cube, the caller's
            // contract is `small_block`'s for it.
            unsafe { small_block(dst.wrapping_offset(dk), src.wrapping_offset(sk), a, b) };
        }
    }
}

/// Copies `nest` cube by cube when its cubes are tiny (at most [`TINY_CUBE`] elements, rows
/// of 2 to 8 strided elements): the row's length chosen once for the nest, so each cube is
/// three plain loops with the row's moves unrolled, where [`small_cube`] would choose its
/// path cube by cube. `false`, with nothing written, for other nests.
///
/// # Safety
///
/// [`copy_nests`]'s contract, for `nest`.
#[expect(
    clippy::inline_always,
    reason = "inlined into `copy_nests`: one loop per row length"
)]
#[expect(
    clippy::many_single_char_names,
    reason = "the operands and loops are named as in the module"
)]
#[inline(always)]
unsafe fn tiny_cubes<T: Copy, const L: usize>(
    nest: &crate::kernel::plan::Nest<2, L>,
    d: *mut T,
    s: *const T,
) -> bool {
    let (c, a, b) = match nest.loops() {
        [.., c, a, b] => (*c, *a, *b),
        _ => return false,
    };
    let cube = c.extent.saturating_mul(a.extent).saturating_mul(b.extent);
    if cube > TINY_CUBE || (b.strides[0] == 1 && b.strides[1] == 1) {
        return false;
    }
    per_row_len!(
        b.extent,
        B => {
            // SAFETY: the caller's contract, for `nest`, whose innermost loop has `B` steps.
            unsafe { tiny_cubes_of::<T, B, L>(nest, d, s) }
        },
        return false
    );
    true
}

/// [`tiny_cubes`] for rows of `B` elements.
///
/// # Safety
///
/// [`copy_nests`]'s contract, for `nest`, whose innermost loop has `B` steps.
#[expect(clippy::inline_always, reason = "one copy per row length, inlined")]
#[inline(always)]
unsafe fn tiny_cubes_of<T: Copy, const B: usize, const L: usize>(
    nest: &crate::kernel::plan::Nest<2, L>,
    d: *mut T,
    s: *const T,
) {
    for_each_cube(nest, |[od, os], c, a, b| {
        let ([dc, sc], [da, sa], [db, sb]) = (c.strides, a.strides, b.strides);
        let (mut dk, mut sk) = (d.wrapping_offset(od), s.wrapping_offset(os));
        for _ in 0..c.extent {
            // SAFETY: the block `a × b` at this step of `c`: offsets of the cube at
            // `[od, os]`, which the caller's contract covers (`rows_of_n`'s contract).
            unsafe { rows_of_n::<T, B>(dk, da, db, sk, sa, sb, a.extent) };
            // Past the last step the pointers may leave the slices: `wrapping_offset` keeps
            // that defined, and they are never dereferenced there.
            dk = dk.wrapping_offset(dc);
            sk = sk.wrapping_offset(sc);
        }
    });
}

/// Copies the `a × b` block at `d`/`s`: rows of consecutive elements of at most
/// [`SHORT_ROW_BYTES`] with fixed-size moves, other blocks with [`strided_block`].
///
/// # Safety
///
/// [`copy_block`]'s contract.
#[expect(
    clippy::inline_always,
    reason = "inlined into the driver's closure: the point is to save a call per block"
)]
#[inline(always)]
unsafe fn small_block<T: Copy>(d: *mut T, s: *const T, a: Loop<2>, b: Loop<2>) {
    let ([da, sa], [db, sb]) = (a.strides, b.strides);
    // SAFETY: the caller's contract: `a.extent` rows of `b.extent` consecutive elements.
    if db == 1 && sb == 1 && unsafe { copy_short_rows(d, da, s, sa, a.extent, b.extent) } {
        return;
    }
    // SAFETY: the caller's contract is `strided_block`'s.
    unsafe { strided_block(d, s, a, b) };
}

mod elementwise;
mod rows;

use rows::{
    PAIR_ROWS, SHORT_ROW_BYTES, copy_short_rows, flipped, lowest, pair_rows, pair_rows_contiguous,
    reverse_rows, reverse_worth, rows_of_n, strided_block,
};
pub(crate) use rows::{copy_run, reverse_rows_portable, strided_copy_unchecked};

pub(crate) use elementwise::{fill, fold, map, zip_map};
#[cfg(feature = "rayon")]
pub(crate) use elementwise::{fill_nests, map_nests, zip_map_nests};

#[cfg(test)]
mod tests {
    use super::channels::shuffles_a_step;
    use super::{
        BlockKind, CUBE_STRIP, Inline, Kinds, Loop, PAIR_ROWS, ROW_STREAM_BYTES, ROW_STREAM_STEPS,
        SHORT_ROW_BYTES, block_kernel, block_kind, block_tile, cube_strip, inline_nest, nest_tile,
    };
    use crate::kernel::backend::{Backend, Target};
    use crate::kernel::plan::{MAX_LOOPS, Plan};
    use crate::{CopyPlan, Layout, copy};

    /// `Kinds` finds a block's kind once per shape, and each block's is `block_kind`'s for it:
    /// the tiles of a `u32` transpose (`8 x 8`, the transposes') and its edges (one row, or
    /// rows of 3: element loops) in the order a tiled block meets them.
    #[test]
    fn kinds_are_each_blocks_own() {
        let lp = |extent, strides| Loop { extent, strides };
        let shapes = [(8, 8), (8, 8), (8, 3), (1, 8), (1, 3), (8, 8)];
        let kind = |(a, b)| block_kind::<u32>(lp(a, [100, 1]), lp(b, [1, 100]));
        assert!(kind((8, 8)) == BlockKind::Transpose);
        assert!(kind((8, 3)) == BlockKind::Elements && kind((1, 8)) == BlockKind::Elements);
        let mut kinds = Kinds::default();
        for (a, b) in shapes {
            let found = kinds.of::<u32>(lp(a, [100, 1]), lp(b, [1, 100]));
            assert!(found == Some(kind((a, b))), "{a} x {b}");
        }
    }

    /// An 8-byte transpose block goes to the transposes where it holds four whole 4 × 4
    /// blocks (4 × 16, 8 × 8, 6 × 1024 either way round), and one of fewer (4 × 4, 4 × 8,
    /// 6 × 12, 15 × 7) to the element loops, which then run it inlined; 4-byte blocks from
    /// 8 × 8 as before.
    #[test]
    fn small_eight_byte_transposes_take_the_element_loops() {
        let lp = |extent, strides| Loop { extent, strides };
        let kind = |a, b| block_kind::<f64>(lp(a, [2048, 1]), lp(b, [1, 2048]));
        for (a, b) in [(4, 16), (16, 4), (8, 8), (9, 9), (6, 1024), (1024, 6)] {
            assert!(kind(a, b) == BlockKind::Transpose, "{a} x {b}");
        }
        for (a, b) in [
            (4, 4),
            (4, 8),
            (8, 4),
            (6, 12),
            (12, 6),
            (15, 7),
            (4, 15),
            (3, 64),
        ] {
            assert!(kind(a, b) == BlockKind::Elements, "{a} x {b}");
        }
        let four = |a, b| block_kind::<u32>(lp(a, [2048, 1]), lp(b, [1, 2048]));
        assert!(four(8, 8) == BlockKind::Transpose && four(4, 16) == BlockKind::Elements);
        // 64 blocks of 4 x 4 `f64`, each transposed: cubes inlined (on hosts that do not pair
        // rows), copied as the model does.
        let src = Layout::new([64, 4, 4], [16, 1, 4], 8).unwrap();
        let dst = Layout::new([64, 4, 4], [16, 4, 1], 8).unwrap();
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        let want = if PAIR_ROWS { None } else { Some(Inline::Cubes) };
        assert!(inline_nest::<f64, MAX_LOOPS>(&plan.nests()[0], [false; 3]) == want);
        let loops =
            cube_copied_as_the_model(&src, &dst, |i| f64::from(u32::try_from(i).unwrap()), -1.0);
        assert_eq!(loops, [(64, [16, 16]), (4, [4, 1]), (4, [1, 4])]);
    }

    /// A block of one channel scattered into pixels takes the channel kernel from
    /// `INSERT_BLOCK` elements (rows of 16 `f32` into pixels of 2: 16 rows, not 2 or 15);
    /// gathered, from the row's length alone (2 rows of 64 bytes).
    #[test]
    fn scattered_channels_take_the_kernel_in_blocks_of_256() {
        let lp = |extent, strides| Loop { extent, strides };
        let insert = |rows| block_kind::<f32>(lp(rows, [64, 16]), lp(16, [2, 1]));
        assert!(insert(16) == BlockKind::Insert);
        assert!(insert(15) == BlockKind::Elements && insert(2) == BlockKind::Elements);
        let extract = block_kind::<u8>(lp(2, [64, 256]), lp(64, [1, -2]));
        assert!(extract == BlockKind::Extract);
    }

    /// The plan of `src -> dst`'s one nest: its tile, and the tile its blocks of `T` run in.
    fn tiles<T: 'static>(
        dst: &Layout<2>,
        src: &Layout<2>,
    ) -> (Option<[usize; 2]>, Option<[usize; 2]>) {
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        let nest = &plan.nests()[0];
        (nest.tile(), nest_tile::<T, MAX_LOOPS>(nest))
    }

    /// A tiled transpose `rows x walk` read down the columns (`gap` elements apart) into
    /// rows, of `itemsize` bytes.
    fn transpose(rows: usize, walk: usize, gap: isize, itemsize: usize) -> (Layout<2>, Layout<2>) {
        let src = Layout::new([rows, walk], [1, gap], itemsize).unwrap();
        let dst = Layout::new([rows, walk], [walk.cast_signed(), 1], itemsize).unwrap();
        (dst, src)
    }

    /// The walk rule (`walk_whole`), chosen by type: a tiled transpose of a type the
    /// transposes take (2, 4 or 8 bytes) whose walk along the destination's rows touches at
    /// most 512 KiB of lines runs whole; bytes (but for rows that crowd their sets, the next
    /// test), other types of the same size (element loops), a walk past the bound and blocks
    /// of the channel kernels' shape keep the plan's tiles; each copies as the model does.
    #[test]
    fn transposes_whose_walk_stays_cached_run_whole() {
        // The sweep's case 1980: `f32` 547 x 59, a walk of 59 steps (4 KB of lines), and its
        // transpose, a walk of 547 (37 KB): tiled plans, whole for `f32`, tiled for pixels
        // of four bytes.
        for (dst, src) in [transpose(547, 59, 547, 4), transpose(59, 547, 59, 4)] {
            let (tile, _) = tiles::<f32>(&dst, &src);
            assert!(tile.is_some());
            assert_eq!(tiles::<f32>(&dst, &src), (tile, None));
            assert_eq!(tiles::<u32>(&dst, &src), (tile, None));
            assert_eq!(tiles::<[u8; 4]>(&dst, &src), (tile, tile));
        }
        // A walk of 200 steps: whole for 2-, 4- and 8-byte primitives, tiled for bytes; of
        // 8000 steps (528 to 576 KB of lines), tiled.
        let (dst, src) = transpose(200, 200, 200, 1);
        let (tile, _) = tiles::<u8>(&dst, &src);
        assert!(tile.is_some());
        assert_eq!(tiles::<u8>(&dst, &src), (tile, tile));
        for walk in [200, 8000] {
            let whole = walk == 200;
            let (d, s) = transpose(200, walk, 200, 2);
            assert_eq!(nest_tile_is_none::<u16>(&d, &s), whole, "u16 x {walk}");
            let (d, s) = transpose(200, walk, 200, 4);
            assert_eq!(nest_tile_is_none::<f32>(&d, &s), whole, "f32 x {walk}");
            let (d, s) = transpose(200, walk, 200, 8);
            assert_eq!(nest_tile_is_none::<f64>(&d, &s), whole, "f64 x {walk}");
        }
        // The walk's bytes count the source's lines: 8 rows 9 `f32` apart (36 bytes a step)
        // over 6000 steps are 6000 x (4 + 36) = 240 KB, whole; 33 apart (a line a step),
        // 6000 x (4 + 64) = 408 KB, whole; 8000 steps of that, 544 KB: tiled.
        for (walk, gap, whole) in [(6000, 9, true), (6000, 33, true), (8000, 33, false)] {
            let (d, s) = transpose(8, walk, gap, 4);
            assert_eq!(nest_tile_is_none::<f32>(&d, &s), whole, "{walk} x {gap}");
        }
        // Five `f64` channels of 8000 pixels into planes (the channel kernels' shape, which
        // they do not take in 8 bytes; a short side under 8, which `short_whole` leaves to
        // tiles; a walk of 8000 x (8 + 40) = 384 KB, whole but for the shape): tiled. (Ten
        // channels, the sweep's case 1969, run whole by the short-side rule.)
        let (d, s) = transpose(5, 8000, 5, 8);
        assert!(tiles::<f64>(&d, &s).0.is_some());
        assert!(!nest_tile_is_none::<f64>(&d, &s));
        let (d, s) = transpose(10, 3088, 10, 8);
        assert_eq!(tiles::<f64>(&d, &s), (None, None));
        // Copied against the model, both ways round, by the run-time copy and a prepared
        // plan, at a size Miri runs (37 x 29: tiled plans, whole blocks).
        transposes_as_the_model::<u16>(|i| u16::try_from(i).unwrap(), u16::MAX, true);
        transposes_as_the_model::<f32>(|i| f32::from(u16::try_from(i).unwrap()), -1.0, true);
        transposes_as_the_model::<u64>(|i| u64::try_from(i).unwrap(), u64::MAX, true);
        transposes_as_the_model::<[u8; 4]>(
            |i| u32::try_from(i).unwrap().to_le_bytes(),
            [0xff; 4],
            false,
        );
    }

    /// Byte transposes keep the plan's tiles unless their destination's rows crowd the
    /// first-level sets (`rows_crowd`): rows a power-of-two 2 KiB or more apart (the sets
    /// keep 16 lines of rows 2 KiB apart, 8 of rows 4 KiB apart) and more rows than the sets
    /// keep run whole. Each bound one past its edge keeps the tiles, and so do rows 1 KiB
    /// apart, rows that drift across the sets and a walk past the walk rule's bound; a whole
    /// byte block copies as the model does.
    #[test]
    fn byte_transposes_whose_rows_crowd_their_sets_run_whole() {
        // `rows` destination rows `row` bytes apart, read down the source's columns 64 bytes
        // apart (more than the rows: no channel block).
        let block = |rows: usize, walk: usize, row: isize| {
            let src = Layout::new([rows, walk], [1, 64], 1).unwrap();
            let dst = Layout::new([rows, walk], [row, 1], 1).unwrap();
            (dst, src)
        };
        for (rows, walk, row, whole) in [
            (17, 2048, 2048, true),
            // As many rows as the sets keep.
            (16, 2048, 2048, false),
            (9, 2048, 4096, true),
            (8, 2048, 4096, false),
            // Three times 2 KiB apart: the same two sets.
            (64, 1024, 6144, true),
            // 1 KiB apart: the sets keep 32 lines, of 64 rows.
            (64, 2048, 1024, false),
            // 2000 bytes apart: the rows drift across the sets.
            (24, 176, 2000, false),
            // A walk of 9000 steps, 65 bytes of lines each: past 512 KiB.
            (64, 9000, 16384, false),
        ] {
            let (dst, src) = block(rows, walk, row);
            assert!(
                tiles::<u8>(&dst, &src).0.is_some(),
                "{rows} x {walk}, {row} apart"
            );
            assert_eq!(
                nest_tile_is_none::<u8>(&dst, &src),
                whole,
                "{rows} x {walk}, {row} apart"
            );
        }
        // Copied against the model, by the run-time copy and a prepared plan, at a size Miri
        // runs (24 x 176, rows 2 KiB apart: whole).
        let (dst, src) = block(24, 176, 2048);
        assert!(nest_tile_is_none::<u8>(&dst, &src));
        copied_as_the_model(&src, &dst, |i| u8::try_from(i % 251).unwrap(), 0xff);
    }

    /// 37 x 29 of `T` transposed both ways round, by the run-time copy and a prepared plan,
    /// against the model; its blocks run `whole` or in the plan's tiles.
    fn transposes_as_the_model<T: Copy + PartialEq + core::fmt::Debug + 'static>(
        of: impl Fn(usize) -> T,
        fill: T,
        whole: bool,
    ) {
        let size = size_of::<T>();
        for (dst, src) in [transpose(37, 29, 37, size), transpose(29, 37, 29, size)] {
            assert_eq!(nest_tile_is_none::<T>(&dst, &src), whole, "{size} bytes");
            copied_as_the_model(&src, &dst, &of, fill);
        }
    }

    /// `src -> dst` of `T` (element `i` of the source's buffer `value(i)`, the destination's
    /// buffer `fill` before), by the run-time copy and by a prepared plan, each against the
    /// model: every destination offset holds its index's source element, the rest `fill`.
    fn copied_as_the_model<T, const N: usize>(
        src: &Layout<N>,
        dst: &Layout<N>,
        value: impl Fn(usize) -> T,
        fill: T,
    ) where
        T: Copy + PartialEq + core::fmt::Debug + 'static,
    {
        let input: std::vec::Vec<T> = (0..src.required_len().unwrap()).map(value).collect();
        let len = dst.required_len().unwrap();
        let mut want = std::vec![fill; len];
        for (s, d) in src.offsets().zip(dst.offsets()) {
            want[d.unsigned_abs()] = input[s.unsigned_abs()];
        }
        let mut out = std::vec![fill; len];
        copy(&input, src, &mut out, dst).unwrap();
        assert_eq!(out, want, "{} bytes, copy()", size_of::<T>());
        let mut out = std::vec![fill; len];
        CopyPlan::new(src, dst)
            .unwrap()
            .run(&input, &mut out)
            .unwrap();
        assert_eq!(out, want, "{} bytes, CopyPlan", size_of::<T>());
    }

    /// Whether the one nest of `src -> dst` runs its blocks of `T` whole.
    fn nest_tile_is_none<T: 'static>(dst: &Layout<2>, src: &Layout<2>) -> bool {
        tiles::<T>(dst, src).1.is_none()
    }

    /// The loop of `extent` elements `[dst, src]` apart.
    fn lp(extent: usize, strides: [isize; 2]) -> Loop<2> {
        Loop { extent, strides }
    }

    /// A channel block turned (the pixels along `a`, the channels along `b`) is the channel
    /// kernels' ([`turned_channels`]) where the block the right way round is: `c` planes
    /// `plane` apart into pixels of `c` (and back), of 1-, 2- and 4-byte elements, 2 to 16
    /// channels, planes either way, wherever the target's shuffles move a step of them
    /// ([`channels::takes`]); blocks of too few pixels, of 8-byte elements past 4 channels,
    /// and the block the right way round are not [`BlockKind::InterleaveTurned`].
    #[test]
    fn turned_channel_blocks_take_the_channel_kernels() {
        for c in 2..=16usize {
            let ci = c.cast_signed();
            // Where the target's shuffles move a step of 40 pixels of `c` lanes (every count
            // on AVX2, NEON and the portable unit; 2 to 4 on SSSE3 alone; none on i686).
            let step = |size: usize| match size {
                1 => shuffles_a_step::<u8>(40, c, c),
                2 => shuffles_a_step::<u16>(40, c, c),
                _ => shuffles_a_step::<u32>(40, c, c),
            };
            for plane in [300isize, -300] {
                let (pixels, channels) = (lp(40, [ci, 1]), lp(c, [1, plane]));
                let turned = |kind: BlockKind| kind == BlockKind::InterleaveTurned;
                assert_eq!(turned(block_kind::<u8>(pixels, channels)), step(1));
                assert_eq!(turned(block_kind::<u32>(pixels, channels)), step(4));
                let right_way = block_kind::<u32>(channels, pixels) == BlockKind::Interleave;
                assert_eq!(right_way, step(4));
                let whole = block_tile::<u16>(pixels, channels, Some([8, 8])).is_none();
                assert_eq!(whole, step(2));
                let (pixels, channels) = (lp(40, [1, ci]), lp(c, [plane, 1]));
                let turned = block_kind::<u16>(pixels, channels) == BlockKind::DeinterleaveTurned;
                assert_eq!(turned, step(2));
                // The block the right way round, where the target shuffles: the same
                // kernel; else (i686) the element loops.
                let right_way = block_kind::<u16>(channels, pixels);
                assert_eq!(right_way == BlockKind::Deinterleave, step(2));
                assert!(right_way != BlockKind::DeinterleaveTurned);
                // 15 pixels: too few for the kernels (`channels::takes`).
                let few = lp(15, [1, ci]);
                assert!(block_kind::<u16>(few, channels) != BlockKind::DeinterleaveTurned);
                assert!(block_tile::<u16>(few, channels, Some([8, 8])).is_some());
                let wide = block_kind::<u64>(pixels, channels) == BlockKind::DeinterleaveTurned;
                let wide_step = c <= 4 && shuffles_a_step::<u64>(40, c, c);
                assert_eq!(wide, wide_step, "{c} channels of 8 bytes");
            }
        }
    }

    /// Both turned kernels, driven as the copy drives a block, write what the model says and
    /// nothing else: `c` planes of 37 pixels, planes forwards and backwards, 2 to 16 channels
    /// of `u16` (2, 5 and 16 under Miri).
    #[test]
    fn turned_channel_blocks_copy_as_the_model() {
        let count = 37usize;
        let all: std::vec::Vec<usize> = (2..=16).collect();
        let counts: &[usize] = if cfg!(miri) { &[2, 5, 16] } else { &all };
        for &c in counts {
            let (ci, ni) = (c.cast_signed(), count.cast_signed());
            let len = count * c + 8;
            for plane in [ni + 3, -(ni + 3)] {
                // The planes' side: plane `k` at `base + k·plane`, its pixels consecutive.
                let base = if plane < 0 { (c - 1) * (count + 3) } else { 0 };
                let planar = |k: usize, j: usize| {
                    (base.cast_signed() + k.cast_signed() * plane).cast_unsigned() + j
                };
                let packed = |k: usize, j: usize| 4 + j * c + k;
                let input: std::vec::Vec<u16> = (0..len.max(c * (count + 3)))
                    .map(|i| u16::try_from(i).unwrap())
                    .collect();
                for inter in [true, false] {
                    let fill = u16::MAX;
                    let out_len = if inter { len } else { c * (count + 3) };
                    let mut want = std::vec![fill; out_len];
                    for k in 0..c {
                        for j in 0..count {
                            let (to, from) = if inter {
                                (packed(k, j), planar(k, j))
                            } else {
                                (planar(k, j), packed(k, j))
                            };
                            want[to] = input[from];
                        }
                    }
                    let mut out = std::vec![fill; out_len];
                    let (d0, s0, outer, inner) = if inter {
                        (4, base, lp(count, [ci, 1]), lp(c, [1, plane]))
                    } else {
                        (base, 4, lp(count, [1, ci]), lp(c, [plane, 1]))
                    };
                    let kind = block_kind::<u16>(outer, inner);
                    let turned = if inter {
                        BlockKind::InterleaveTurned
                    } else {
                        BlockKind::DeinterleaveTurned
                    };
                    // Where the target's shuffles move no step (i686), the element loops
                    // take the block; the turned kernel, driven below, still copies it.
                    let step = shuffles_a_step::<u16>(count, c, c);
                    assert_eq!(kind == turned, step, "{c} channels");
                    let dp = out.as_mut_ptr().wrapping_add(d0);
                    let sp = input.as_ptr().wrapping_add(s0);
                    // SAFETY: every `dp + i·outer.strides[0] + j·inner.strides[0]` and `sp + i·outer.strides[1]
                    // + j·inner.strides[1]` is an element of `out` and `input` (the model's indices
                    // above), distinct in `out`, and the two vectors are disjoint.
                    unsafe {
                        block_kernel(
                            dp,
                            sp,
                            outer.extent,
                            outer.strides,
                            inner.extent,
                            inner.strides,
                            Some(turned),
                            [false, false, true],
                        );
                    }
                    assert_eq!(out, want, "{c} channels, plane {plane}, interleave {inter}");
                }
            }
        }
    }

    /// The planner turns planar -> interleaved copies of 9 to 16 channels of 4 bytes (their
    /// planes weigh less than the pixels' steps), and the run-time copy and a prepared plan
    /// copy them as the model does.
    #[test]
    fn turned_planar_to_interleaved_copies_as_the_model() {
        for c in [3usize, 9, 16] {
            let n = 50usize;
            let src = Layout::new([c, n], [n.cast_signed(), 1], 4).unwrap();
            let dst = Layout::new([c, n], [1, c.cast_signed()], 4).unwrap();
            let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
            let inner = plan.nests()[0].loops().last().map(|l| l.extent);
            assert_eq!(inner, Some(if c >= 9 { c } else { n }), "{c} channels");
            let input: std::vec::Vec<u32> = (0..c * n).map(|i| u32::try_from(i).unwrap()).collect();
            let mut want = std::vec![u32::MAX; c * n];
            for (s, d) in src.offsets().zip(dst.offsets()) {
                want[d.unsigned_abs()] = input[s.unsigned_abs()];
            }
            let mut out = std::vec![u32::MAX; c * n];
            copy(&input, &src, &mut out, &dst).unwrap();
            assert_eq!(out, want, "{c} channels");
            let mut out = std::vec![u32::MAX; c * n];
            CopyPlan::new(&src, &dst)
                .unwrap()
                .run(&input, &mut out)
                .unwrap();
            assert_eq!(out, want, "{c} channels");
        }
    }

    /// The strip of a small cube (`cube_strip`): its lines' bound alone (48 steps of rows of
    /// 5 `u32`, 4 B and 788 KB apart), shortened to the 16 sets 256-byte steps map to (5
    /// lines a row: 25 steps) where 32 steps of the second loop reuse each source line, not
    /// where they are few (4) or a line apart; never under 8 for the sets (rows of 17 lines
    /// 47 KB apart: 14 -> 8, not 3), nor for steps of a page (one set: 8).
    #[test]
    fn strips_fit_the_first_level_sets_their_rows_map_to() {
        let (c, b) = (lp(3081, [480, 64]), lp(5, [1, 197_184]));
        assert_eq!(cube_strip::<u32>([c, lp(32, [15, 1]), b]), 25);
        assert_eq!(cube_strip::<u32>([c, lp(4, [15, 1]), b]), 48);
        // Rows of 9 (36 bytes, past `STRIP_ROW_BYTES`): 14 steps for the sets where the
        // steps of `a` reuse the source lines, the bytes' 26 where they are a line apart.
        let b9 = lp(9, [1, 197_184]);
        assert_eq!(cube_strip::<u32>([c, lp(32, [15, 1]), b9]), 14);
        assert_eq!(cube_strip::<u32>([c, lp(32, [15, 16]), b9]), 26);
        // 64-byte steps of `c`: 64 sets, room for 102 steps; the bytes' bound decides.
        assert_eq!(
            cube_strip::<u32>([lp(3081, [480, 16]), lp(32, [15, 1]), b]),
            48
        );
        let (c, b) = (lp(353, [1088, 11_904]), lp(17, [1, -384]));
        assert_eq!(cube_strip::<u32>([c, lp(64, [17, 3]), b]), 8);
        assert_eq!(cube_strip::<u32>([c, lp(64, [17, 64]), b]), 14);
        assert_eq!(
            cube_strip::<u64>([lp(100, [3, 512]), lp(40, [9, 1]), lp(4, [1, 2])]),
            8
        );
    }

    /// A cube whose rows run on (at least `ROW_STREAM_STEPS` rows, each at most
    /// `ROW_STREAM_BYTES` on from the last, in each operand of consecutive elements or of
    /// strided ones that end before the next row) keeps its order (`cube_strip` 1); fewer
    /// rows, rows farther apart or rows of strided elements that reach into the next row are
    /// cut in strips as before.
    #[test]
    fn cubes_whose_rows_run_on_keep_their_order() {
        // Seed 29's 973: `f64` rows of 7 written 56 bytes and read 168 bytes apart.
        let (c, b) = (lp(1106, [819, 2464]), lp(7, [1, 1]));
        assert_eq!(cube_strip::<u64>([c, lp(117, [7, 21]), b]), 1);
        assert_eq!(cube_strip::<u64>([c, lp(ROW_STREAM_STEPS, [7, 21]), b]), 1);
        assert_eq!(
            cube_strip::<u64>([c, lp(ROW_STREAM_STEPS - 1, [7, 21]), b]),
            CUBE_STRIP
        );
        // Rows read 264 bytes apart.
        const { assert!(33 * 8 > ROW_STREAM_BYTES) };
        assert_eq!(cube_strip::<u64>([c, lp(117, [7, 33]), b]), CUBE_STRIP);
        // Rows read from every other element (14 steps of the 21 to the next row), and
        // from every third one (21: up to the next row), run on; every fourth reaches
        // past the next row's start.
        assert_eq!(cube_strip::<u64>([c, lp(117, [7, 21]), lp(7, [1, 2])]), 1);
        assert_eq!(cube_strip::<u64>([c, lp(117, [7, 21]), lp(7, [1, 3])]), 1);
        assert!(cube_strip::<u64>([c, lp(117, [7, 21]), lp(7, [1, 4])]) > 1);
        // Seed 19's 1964: `f64` rows of 2 written backwards every other element.
        assert_eq!(
            cube_strip::<u64>([lp(426, [2304, 288]), lp(144, [8, 2]), lp(2, [-2, 1])]),
            1
        );
        // The same cube in a copy.
        let (planes, rows) = (64usize, 40usize);
        let src = Layout::new([planes, rows, 7], [847, 21, 1], 8).unwrap();
        let dst = Layout::new([planes, rows, 7], [280, 7, 1], 8).unwrap();
        assert_eq!(
            cube_copied_as_the_model(&src, &dst, |i| u64::try_from(i).unwrap(), u64::MAX),
            [(planes, [280, 847]), (rows, [7, 21]), (7, [1, 1])]
        );
    }

    /// A cube whose strips would not cut its calls by more than `STRIP_CALLS`, of rows of at
    /// most `STRIP_ROW_BYTES`, keeps its order (`cube_strip` 1) unless the steps of `a` reuse
    /// an operand's lines, the rows of `b` crowd an operand's cache sets or the destination's
    /// rows of `a` crowd theirs; each of those, more calls saved or longer rows, strips.
    #[test]
    fn cubes_whose_strips_save_few_calls_keep_their_order() {
        // Seed 37's 999: `f64` rows of 4 read 3 apart, 5 rows a step of the third loop.
        let (a, b) = (lp(5, [4, 13]), lp(4, [1, 3]));
        assert_eq!(cube_strip::<u64>([lp(11, [80, 65]), a, b]), 1);
        // Strips of 64 steps: 5 calls for 15 steps of `c` (3x fewer) keep the order, for 16
        // they strip.
        assert_eq!(cube_strip::<u64>([lp(15, [80, 65]), a, b]), 1);
        assert_eq!(cube_strip::<u64>([lp(16, [80, 65]), a, b]), CUBE_STRIP);
        // Rows of 5 `f64` (40 bytes).
        let b5 = lp(5, [1, 3]);
        assert_eq!(cube_strip::<u64>([lp(11, [80, 65]), a, b5]), CUBE_STRIP);
        // Eight steps of `a` 16 bytes apart reuse the source's lines.
        assert_eq!(
            cube_strip::<u64>([lp(11, [80, 65]), lp(8, [4, 2]), b]),
            CUBE_STRIP
        );
        // Rows of bytes a page apart in the source take one set's 8 lines: rows of 8 fit,
        // rows of 9 strip (the bytes' 28 steps); 64 bytes apart, rows of 16 fit.
        let (c, a) = (lp(11, [300, 90_000]), lp(5, [20, 17]));
        assert_eq!(cube_strip::<u8>([c, a, lp(8, [1, 4096])]), 1);
        assert_eq!(cube_strip::<u8>([c, a, lp(9, [1, 4096])]), 28);
        assert_eq!(cube_strip::<u8>([c, a, lp(16, [1, 64])]), 1);
        // The destination's rows of `a` a page apart: 8 fit one set, 9 do not.
        let b4 = lp(4, [1, 2]);
        assert_eq!(cube_strip::<u8>([c, lp(8, [4096, 17]), b4]), 1);
        assert_eq!(cube_strip::<u8>([c, lp(9, [4096, 17]), b4]), CUBE_STRIP);
        // The cube in a copy.
        let src = Layout::new([11, 5, 4], [65, 13, 3], 8).unwrap();
        let dst = Layout::new([11, 5, 4], [80, 4, 1], 8).unwrap();
        assert_eq!(
            cube_copied_as_the_model(&src, &dst, |i| u64::try_from(i).unwrap(), u64::MAX),
            [(11, [80, 65]), (5, [4, 13]), (4, [1, 3])]
        );
    }

    /// A cube whose few steps of `a` come back within a line in an operand whose steps of
    /// `c` crowd their sets and fill or overflow the second level's keeps its order
    /// (`cube_strip` 1): the power-of-two sweep's seed 23 case 328 (`f64`, 4 x 2 blocks
    /// written 4 KiB a step of `c`) and seed 19's 91. Each guard past its bound strips: a
    /// pass of `c` the second level's sets hold with room where `a` comes back fewer than 4
    /// times or the steps of `c` map to more than one first-level set, 8 steps of `a`, `a` a
    /// line a step, rows of 5 lines, rows whose sets hold more than 8 steps' rows, a block `a × b`
    /// past its own sets. The cube copies as the model does.
    #[test]
    fn cubes_whose_few_steps_come_back_to_crowded_lines_keep_their_order() {
        let (c, a, b) = (lp(512, [512, -1]), lp(4, [4, -512]), lp(2, [2, 2048]));
        assert_eq!(cube_strip::<u64>([c, a, b]), 1);
        // 256 steps 4 KiB apart fill the second level's sets (256 lines): the order kept.
        // 128 steps, which those sets hold twice over, strip where `a` comes back fewer
        // than 4 times, and keep the order where it comes back 4 times (below).
        let a3 = lp(3, [4, -512]);
        assert_eq!(cube_strip::<u64>([lp(256, [512, -1]), a3, b]), 1);
        assert_eq!(cube_strip::<u64>([lp(128, [512, -1]), a3, b]), CUBE_STRIP);
        // The power-of-two seed 19's 91: `f64` rows of 2 read 16 elements apart, 4 steps of
        // `a` within their lines, 128 steps of `c` 8 KiB apart, which fill the 128 lines
        // their second-level sets hold; 64 such steps strip with 3 steps of `a`.
        let (a91, b91) = (lp(4, [512, 2]), lp(2, [2, -16]));
        assert_eq!(cube_strip::<u64>([lp(128, [-4, 1024]), a91, b91]), 1);
        assert_eq!(
            cube_strip::<u64>([lp(64, [-4, 1024]), lp(3, [512, 2]), b91]),
            CUBE_STRIP
        );
        // A pass of `c` the second level holds, whose steps all land in one first-level set
        // (a page apart): 4 steps of `a` keep the order (the power-of-two seed 19's 1776,
        // `u32` rows of 2 read a page a step of `c`; and 128 steps above), 3 strip; steps 2
        // KiB apart, in two sets, strip (rows of 2 lines, whose sets hold 8 steps' rows).
        let (a4, b4) = (lp(4, [256, 1]), lp(2, [2, -4]));
        assert_eq!(cube_strip::<u32>([lp(64, [4, 1024]), a4, b4]), 1);
        assert_eq!(cube_strip::<u64>([lp(128, [512, -1]), a, b]), 1);
        assert!(cube_strip::<u32>([lp(64, [4, 1024]), lp(3, [256, 1]), b4]) > 1);
        let b16 = lp(2, [2, -16]);
        assert_eq!(cube_strip::<u32>([lp(64, [4, 1024]), a4, b16]), 1);
        assert!(cube_strip::<u32>([lp(64, [4, 512]), a4, b16]) > 1);
        // 8 steps of `a` (rows read one line each, so the block fits its sets); `a` 64
        // bytes a step.
        let b1 = lp(2, [2, 1]);
        assert_eq!(cube_strip::<u64>([c, lp(7, [4, -512]), b1]), 1);
        assert_eq!(cube_strip::<u64>([c, lp(8, [4, -512]), b1]), CUBE_STRIP);
        assert_eq!(cube_strip::<u64>([c, lp(4, [8, -512]), b]), CUBE_STRIP);
        // Rows written a line an element: 4 lines keep the order, 5 strip.
        assert_eq!(cube_strip::<u64>([c, a, lp(4, [16, 1])]), 1);
        assert_eq!(cube_strip::<u64>([c, a, lp(5, [16, 1])]), 45);
        // Steps of `c` 1 KiB apart: their sets hold 32 steps' rows.
        assert_eq!(cube_strip::<u64>([lp(2048, [128, -1]), a, b]), CUBE_STRIP);
        // The power-of-two seed 11's 280: blocks of 4 x 4 written 16 and 64 KiB apart, 16
        // lines in one set, strip; of 4 x 2, 8 lines, keep the order.
        let (c, a) = (lp(512, [2, 512]), lp(4, [2048, 4]));
        assert_eq!(cube_strip::<u64>([c, a, lp(4, [8192, -1])]), 56);
        assert_eq!(cube_strip::<u64>([c, a, lp(2, [8192, -1])]), 1);
        // The cube of case 328 in a copy: a 2 MiB destination, which takes Miri minutes
        // (the cubes kept in their order run under Miri in the tests above).
        if cfg!(miri) {
            return;
        }
        let src = Layout::from_parts([512, 4, 2], [-1, -512, 2048], 2047, 8).unwrap();
        let dst = Layout::new([512, 4, 2], [512, 4, 2], 8).unwrap();
        assert_eq!(
            cube_copied_as_the_model(&src, &dst, |i| u64::try_from(i).unwrap(), u64::MAX),
            [(512, [512, -1]), (4, [4, -512]), (2, [2, 2048])]
        );
    }

    /// The loops of the plan of a copy of `src` into `dst`, after checking that the run-time
    /// copy and a prepared plan write what the model does (`T` the values, `fill` the rest).
    fn cube_copied_as_the_model<T>(
        src: &Layout<3>,
        dst: &Layout<3>,
        value: impl Fn(usize) -> T,
        fill: T,
    ) -> std::vec::Vec<(usize, [isize; 2])>
    where
        T: Copy + PartialEq + core::fmt::Debug + 'static,
    {
        copied_as_the_model(src, dst, value, fill);
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        plan.nests()[0]
            .loops()
            .iter()
            .map(|l| (l.extent, l.strides))
            .collect()
    }

    /// An interleave block the target's shuffles move no step of (`u8`, 5 planes into pixels
    /// of 5, 16 pixels: no step on AVX2's 32 pixels, where the kernel ran at 0.8x the plain
    /// loop's speed) is an element loop, and so is the block turned; 48 pixels are the
    /// channel kernel's wherever the target's shuffles take 5 lanes; both copy as the model
    /// does, the run-time copy and a prepared plan.
    #[test]
    fn interleave_blocks_shorter_than_a_step_are_element_loops() {
        for n in [16usize, 48] {
            let ni = n.cast_signed();
            let (chans, pixels) = (lp(5, [1, ni]), lp(n, [5, 1]));
            let step = shuffles_a_step::<u8>(n, 5, 5);
            let (kind, turned) = if step {
                (BlockKind::Interleave, BlockKind::InterleaveTurned)
            } else {
                (BlockKind::Elements, BlockKind::Elements)
            };
            assert!(block_kind::<u8>(chans, pixels) == kind, "{n} pixels");
            assert!(
                block_kind::<u8>(pixels, chans) == turned,
                "{n} pixels turned"
            );
            // AVX2 moves 32 pixels a step; NEON and the portable unit (Miri) 16; i686 none.
            let per = Target::channel_groups(5) * 16;
            assert_eq!(step, per > 0 && n >= per, "{n} pixels");
            let rows = if cfg!(miri) { 2 } else { 6 };
            let src = Layout::new([rows, n, 5], [5 * ni + 3, 1, ni], 1).unwrap();
            let dst = Layout::new([rows, n, 5], [5 * ni, 5, 1], 1).unwrap();
            let loops =
                cube_copied_as_the_model(&src, &dst, |i| u8::try_from(i % 251).unwrap(), u8::MAX);
            let inner = loops.last_chunk::<2>().map(|[a, b]| (a.0, b.0, b.1));
            assert_eq!(inner, Some((5, n, [5, 1])), "{n} pixels");
        }
    }

    /// A deinterleave block the target's shuffles move no step of (`u8`, 4 of 12 lanes, 24
    /// pixels: no step on AVX2's 32 pixels) is an element loop; 70 pixels are the channel
    /// kernel's on every backend that shuffles; both copy as the model does, the run-time copy and a
    /// prepared plan.
    #[test]
    fn deinterleave_blocks_shorter_than_a_step_are_element_loops() {
        let (chans, pixels) = (lp(4, [105, 1]), lp(24, [1, 12]));
        let short = super::channels::shuffles_a_step::<u8>(24, 12, 4);
        let kind = block_kind::<u8>(chans, pixels);
        assert!(
            kind == if short {
                BlockKind::Deinterleave
            } else {
                BlockKind::Elements
            }
        );
        // Where the target has no shuffles (i686), no block is theirs.
        let shuffled = if Target::SHUFFLES {
            BlockKind::Deinterleave
        } else {
            BlockKind::Elements
        };
        assert!(block_kind::<u8>(chans, lp(70, [1, 12])) == shuffled);
        // Miri (the portable unit's 16-pixel steps: both are channel blocks there): one,
        // two rows deep.
        let (widths, rows): (&[usize], usize) = if cfg!(miri) {
            (&[24], 2)
        } else {
            (&[24, 70], 6)
        };
        for &n in widths {
            let ni = n.cast_signed();
            let src = Layout::new([n, 4, rows], [12, -1, 12 * ni + 5], 1)
                .and_then(|l| l.with_offset(3))
                .unwrap();
            let dst = Layout::new([n, 4, rows], [1, ni + 9, 4 * (ni + 9) + 2], 1).unwrap();
            let loops =
                cube_copied_as_the_model(&src, &dst, |i| u8::try_from(i % 251).unwrap(), u8::MAX);
            let inner = loops.last_chunk::<2>().map(|[a, b]| (a.0, b.0, b.1));
            assert_eq!(inner, Some((4, n, [1, 12])), "{n} pixels");
        }
    }

    /// Blocks of rows longer than [`SHORT_ROW_BYTES`] run inlined, a run a row
    /// ([`Inline::Runs`]), unless their rows stream; shorter ones are cubes, or runs too where
    /// the copy streams its transposes but not its rows (as the block kernel moves them). Copies of three,
    /// two and one loops whose rows run both ways (a copy swapping the halves of its rows, one
    /// flipping the blocks of its source) write what the model does, the run-time copy and a
    /// prepared plan.
    #[test]
    fn long_rows_run_inlined_as_the_model() {
        let form = |src: &Layout<3>, dst: &Layout<3>, flags| {
            let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
            inline_nest::<u32, MAX_LOOPS>(&plan.nests()[0], flags)
        };
        let (runs, cubes) = if PAIR_ROWS {
            (None, None)
        } else {
            (Some(Inline::Runs), Some(Inline::Cubes))
        };
        // Rows of 40 and 33 `u32` (160 and 132 bytes), and 32 (128 bytes, the short rows').
        for (n, want) in [(40usize, runs), (33, runs), (32, cubes)] {
            let ni = n.cast_signed();
            assert!(SHORT_ROW_BYTES < 4 * n || want == cubes);
            // Halves of each row of 2n swapped: blocks of two rows, the destination's backwards.
            let src = Layout::new([7, 2, n], [2 * ni, ni, 1], 4).unwrap();
            let dst = Layout::new([7, 2, n], [2 * ni, -ni, 1], 4)
                .and_then(|l| l.with_offset(ni))
                .unwrap();
            assert!(form(&src, &dst, [false; 3]) == want, "{n}");
            assert!(form(&src, &dst, [true, false, true]) == runs, "{n}");
            assert!(form(&src, &dst, [true, true, true]).is_none(), "{n}");
            let loops = cube_copied_as_the_model(&src, &dst, |i| u32::try_from(i).unwrap(), 0);
            assert_eq!(loops, [(7, [2 * ni, 2 * ni]), (2, [-ni, ni]), (n, [1, 1])]);
            // Blocks of the source flipped, rows 3 apart in the destination: two loops.
            let src = Layout::new([1, 9, n], [0, -ni - 5, 1], 4)
                .and_then(|l| l.with_offset(8 * (ni + 5)))
                .unwrap();
            let dst = Layout::new([1, 9, n], [0, ni + 3, 1], 4).unwrap();
            assert!(form(&src, &dst, [false; 3]) == want, "{n}");
            let loops = cube_copied_as_the_model(&src, &dst, |i| u32::try_from(i).unwrap(), 0);
            assert_eq!(loops, [(9, [ni + 3, -ni - 5]), (n, [1, 1])]);
        }
        // One run: a contiguous copy of one loop.
        let src = Layout::new([1, 1, 300], [300, 300, 1], 4).unwrap();
        assert!(form(&src, &src, [false; 3]) == runs);
        let loops = cube_copied_as_the_model(&src, &src, |i| u32::try_from(i).unwrap(), 0);
        assert_eq!(loops, [(300, [1, 1])]);
    }

    /// Copies through strips the sets shorten (25 steps of the third loop: two whole strips
    /// and a partial one of 10), the run-time copy and a prepared plan as the model does;
    /// the plan checked to end in the cube the strip rule takes.
    #[test]
    fn copies_in_strips_fit_to_the_sets_as_the_model() {
        let (planes, rows, cols) = (5usize, if cfg!(miri) { 27 } else { 60 }, 32usize);
        let plane = isize::try_from(rows * 64).unwrap();
        let src = Layout::new([planes, rows, cols], [plane, 64, 1], 4).unwrap();
        let dst = Layout::new([planes, rows, cols], [1, 480, 15], 4).unwrap();
        assert_eq!(
            cube_copied_as_the_model(&src, &dst, |i| u32::try_from(i).unwrap(), u32::MAX),
            [(rows, [480, 64]), (cols, [15, 1]), (planes, [1, plane])]
        );
    }
}
