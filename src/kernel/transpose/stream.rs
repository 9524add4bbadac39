//! The streaming macro-kernel: transposes past the last-level cache, line kernels with
//! non-temporal stores in TLB-sized macro-tiles, and the stack tile for page-strided rows.

use core::mem::{MaybeUninit, size_of};

use super::transposes;
use crate::kernel::backend::{Backend, Target};
use crate::kernel::drive::step;

/// Bytes of a cache line: the streaming transpose reads and writes whole lines.
pub(super) const LINE: usize = 64;

/// Line micro-kernels per side of one macro-tile of the streaming transpose: a macro-tile
/// is `MACRO · L` destination rows by `MACRO · L` columns (512 × 512 `f32`, 256 × 256 `f64`),
/// whose source and destination lines (2 × 512 pages at most) fit the second-level TLB
/// (2,048 entries on recent Intel and AMD cores) while it runs. Measured on an Intel server
/// core, 4000² `f32`: 7.4-7.9 ms with 32, 8.6-8.7 ms with 16 (the earlier value, chosen on
/// AMD Zen 3), 10.3-10.6 ms with 8; prefetching 2, 8 or 16 kernels ahead instead of
/// [`AHEAD`] was no faster.
const MACRO: usize = 32;

/// How many micro-kernels ahead the streaming transpose prefetches its source lines.
const AHEAD: usize = 4;

/// The smallest extent, both ways, of a transpose that stays in the cache and still takes
/// the macro-kernels of [`transpose_stream_unchecked`] (with plain stores) rather than the
/// plan's 32 × 32 tiles: their macro-tiles, prefetches and whole-line kernels pay from
/// about 96 × 96 `f32` up (measured on an Intel server core, alternating runs of the two
/// builds, ratio to `copy_from_slice`: 256² 0.33 -> 0.48, 768² 0.43-0.48 -> 0.53-0.71,
/// 1536² 0.38 -> 0.64, 2000² 0.44 -> 0.72, 1023² 0.40 -> 0.59). Widths whose rows are not
/// whole lines then run the cached transpose on the whole block
/// ([`transpose_stream_unchecked`]).
pub(crate) const MACRO_MIN: usize = 64;

/// Whether [`transpose_stream_unchecked`] takes an `ea × eb` transpose whose destination rows
/// are `dr` elements apart: 4- and 8-byte primitives, on a target with a streaming line
/// kernel for them ([`has_line_kernel`]), destination rows forwards, and at least one
/// line-sized micro-kernel each way. Rows a whole number of cache lines apart take the line
/// kernels (or the stack tiles where both strides are whole pages), others the stack tiles
/// ([`whole_lines`]) or, in the cache, the cached transpose.
#[inline]
pub(crate) fn streams<T: 'static>(dr: isize, ea: usize, eb: usize) -> bool {
    let line = LINE.checked_div(size_of::<T>()).unwrap_or(1);
    has_line_kernel(size_of::<T>())
        && matches!(size_of::<T>(), 4 | 8)
        && transposes::<T>()
        && dr > 0
        && ea >= line
        && eb >= line.saturating_mul(2)
}

/// Whether destination rows `dr` elements of `T` apart are a whole number of cache lines
/// apart, so that one line boundary is a line boundary of every row.
///
/// Where they are not (a 3000² `f32` transpose: rows 12,000 bytes apart), the streaming
/// transpose writes through the stack tiles ([`tile_blocks`]), each destination row 128
/// elements at a time with non-temporal stores between its first and last line boundary:
/// measured on an Intel server core, 3000² `f32` 12.2 -> 4.1 ms, 5000² 38.8 -> 23.1 ms,
/// 8184² 133 -> 67 ms (against 28 ms for 8176², whose rows are whole lines), where these
/// transposes took the cached tiles before.
#[inline]
pub(super) fn whole_lines<T>(dr: isize) -> bool {
    dr.unsigned_abs()
        .checked_mul(size_of::<T>())
        .is_some_and(|b| b.is_multiple_of(LINE))
}

/// Whether this machine has a streaming line kernel for elements of `size` bytes (on x86-64,
/// AVX2 for 4-byte elements, whose tiles are the AVX2 8 × 8 tile; AVX for the others).
#[inline]
pub(super) fn has_line_kernel(size: usize) -> bool {
    Target::line_kernel(size)
}

/// `dst[i·dr + j] = src[i + j·sr]` for `i < ea`, `j < eb`, for a large transpose (the
/// macro-kernels): every destination line that lies wholly in the block is written once, by
/// a line × line micro-kernel that reads each of its source lines whole; the columns before
/// the first destination line boundary and after the last, and the last `ea mod L` rows,
/// go through [`transpose_unchecked`](super::transpose_unchecked). Destination rows that are not a whole number of
/// lines apart, or both strides whole pages, go through the stack tiles instead
/// ([`tile_blocks`]), except that a transpose staying in the cache (`nt` false) whose rows are
/// not whole lines, with strides that are not whole pages, is [`transpose_unchecked`](super::transpose_unchecked)'s
/// whole. With `nt` (a transpose past the last-level cache) the whole lines are
/// written with non-temporal stores: call
/// [`stream_fence`](crate::kernel::stream::stream_fence) after the last one; without, with
/// plain stores (one that stays in the cache, at least [`MACRO_MIN`] both ways).
///
/// # Safety
///
/// [`streams`]`::<T>(dr, ea, eb)` holds, and [`transpose_unchecked`](super::transpose_unchecked)'s contract.
#[inline]
pub(crate) unsafe fn transpose_stream_unchecked<T: 'static>(
    dst: *mut T,
    dr: isize,
    src: *const T,
    sr: isize,
    ea: usize,
    eb: usize,
    nt: bool,
) {
    debug_assert!(
        streams::<T>(dr, ea, eb),
        "transpose_stream_unchecked: no line kernel"
    );
    // SAFETY: the caller's contract (`streams` found a line kernel for `T`).
    unsafe { Target::transpose_lines(dst, dr, src, sr, [ea, eb], nt) };
}

/// The macro-kernel of the streaming transpose: the `ea × eb` block cut into `L × L`
/// micro-kernels whose destination rows start on a line boundary (`micro`), grouped in
/// `MACRO × MACRO` macro-tiles, with the source lines of the micro-kernel `AHEAD` steps on
/// prefetched; `edge(d, s, ea, eb)` moves the sub-blocks left over (the columns before the
/// first line boundary and after the last, the rows past the last whole `L`).
///
/// # Safety
///
/// `transpose_unchecked`'s contract for the block; `micro(d, s)` must be sound for an
/// `L × L` block at `d`/`s` whose destination rows start on a `LINE`-byte boundary, and
/// `edge` for any sub-block of the block.
#[cfg_attr(
    not(any(x86_kernels, test)),
    expect(
        dead_code,
        reason = "only the x86-64 line kernels run the macro-kernel"
    )
)]
#[inline(always)]
#[expect(
    clippy::arithmetic_side_effects,
    reason = "every counter is below `ea` or `eb` plus one macro-tile, and every offset formed is an element offset of the block (contract) or a wrapping prefetch hint"
)]
#[expect(
    clippy::too_many_arguments,
    reason = "the block (two pointers, two strides, the extents) and its three kernels"
)]
pub(super) unsafe fn line_blocks<E: Copy, const L: usize>(
    d: *mut E,
    dr: isize,
    s: *const E,
    sr: isize,
    [ea, eb]: [usize; 2],
    mut micro: impl FnMut(*mut E, *const E),
    mut edge: impl FnMut(*mut E, *const E, usize, usize),
    prefetch: impl Fn(*const E),
) {
    let at = |i: usize, j: usize| {
        (
            d.wrapping_offset(step(i, dr).wrapping_add(step(j, 1))),
            s.wrapping_offset(step(i, 1).wrapping_add(step(j, sr))),
        )
    };
    // Columns `head..head + body` of rows `..rows` go through the line kernel. A pointer that
    // cannot be aligned (`usize::MAX`) leaves no body.
    let head = d.align_offset(LINE).min(eb);
    let body = (eb - head) / L * L;
    let rows = ea / L * L;
    for (j0, width) in [(0, head), (head + body, eb - head - body)] {
        if width > 0 {
            let (dp, sp) = at(0, j0);
            edge(dp, sp, ea, width);
        }
    }
    if rows < ea && body > 0 {
        let (dp, sp) = at(rows, head);
        edge(dp, sp, ea - rows, body);
    }
    // Inside a macro-tile the kernels walk along the side whose rows lie farther apart, so
    // that side is visited in line-after-line bursts: along the source's rows (`i` inner)
    // for square transposes, along the destination's when its rows are farther apart (a
    // permute that moves the slowest axis innermost, whose destination rows are 256 KiB
    // apart).
    let along_dst = dr.unsigned_abs() > sr.unsigned_abs();
    let span = MACRO * L;
    let mut i1 = 0;
    while i1 < rows {
        let i_end = rows.min(i1 + span);
        let mut j1 = head;
        while j1 < head + body {
            let j_end = (head + body).min(j1 + span);
            let mut kernel = |i0: usize, j0: usize| {
                // The source lines `AHEAD` kernels on along the walk (past the block: a hint
                // only).
                let ahead = if along_dst {
                    step(i0, 1).wrapping_add(step(j0 + AHEAD * L, sr))
                } else {
                    step(i0 + AHEAD * L, 1).wrapping_add(step(j0, sr))
                };
                for j in 0..L {
                    prefetch(s.wrapping_offset(ahead.wrapping_add(step(j, sr))));
                }
                let (dp, sp) = at(i0, j0);
                micro(dp, sp);
            };
            if along_dst {
                for i0 in (i1..i_end).step_by(L) {
                    for j0 in (j1..j_end).step_by(L) {
                        kernel(i0, j0);
                    }
                }
            } else {
                // Two kernels side by side a step, so that each destination row's two lines
                // are written back to back (4000² `f32` 7.25 -> 6.57 ms, `f64` 14.5 -> 12.7
                // ms, 2896² `f64` 7.8 -> 7.0 ms; 6000² and 8176² `f32` within 3%).
                for j0 in (j1..j_end).step_by(2 * L) {
                    for i0 in (i1..i_end).step_by(L) {
                        kernel(i0, j0);
                        if j0 + L < j_end {
                            kernel(i0, j0 + L);
                        }
                    }
                }
            }
            j1 = j_end;
        }
        i1 = i_end;
    }
}

/// Bytes of the stack tile of [`tile_blocks`]: 32 KiB, the first-level data cache of common
/// hosts.
const TILE_BYTES: usize = 32 << 10;

/// Bytes of a page: row strides that are a multiple of it map every row's column to the
/// same cache sets and memory banks.
pub(super) const PAGE: usize = 4096;

/// Whether both row strides of a streaming transpose are whole pages (`4096²` `f32`, say):
/// then one line per destination row (the line kernel's stores) lands each write on the
/// same memory bank as the last, and [`tile_blocks`] writes 512-byte runs instead.
/// (Measured on a 4096² `f32` transpose: 0.55 of `copy_from_slice` with line kernels,
/// about 0.8 with the stack tile; on 4000² the line kernels stay ahead.)
#[cfg_attr(
    not(any(x86_kernels, test)),
    expect(dead_code, reason = "only the x86-64 streaming transpose asks")
)]
#[inline]
pub(super) fn aliasing<T>(dr: isize, sr: isize) -> bool {
    let page = |r: isize| {
        r.unsigned_abs()
            .checked_mul(size_of::<T>())
            .is_some_and(|b| b != 0 && b.is_multiple_of(PAGE))
    };
    page(dr) && page(sr)
}

/// One stack tile of [`tile_blocks`], cache-line aligned.
#[repr(C, align(64))]
struct StackTile<T>(MaybeUninit<T>);

/// The macro-kernel of the streaming transpose for page-sized row strides (HPTT's recipe
/// with a stack buffer): the `ea × eb` block is cut into tiles of `C` destination rows by
/// `R` destination columns (`R` source rows of `C` elements); each tile is transposed by
/// `W × W` micro-kernels into a `C × R` stack tile, walking `W` source rows at a time along
/// `C` columns while the next tile's source lines are prefetched, and then written out row by
/// row (`out(d, t)`: `R` elements from the tile row `t` to the line-aligned destination row
/// `d`), so every destination row receives `R` elements at once and every source row gives
/// `C`. Tiles walk along the source rows. `edge(d, s, ea, eb)` moves the sub-blocks left over
/// (the columns before the first line boundary and after the last whole `R`, the rows past
/// the last whole `C`). Where the destination rows are not a whole number of lines apart
/// ([`whole_lines`]) no column is a line boundary of every row: the tiles start at column 0
/// and `out` meets each row at its own alignment.
///
/// ```text
/// src rows j0..j0+R ─ C cols ─▶  W × W micro ─▶  tile[C][R] ─ rows of R ─▶ dst rows i0..i0+C
/// ```
///
/// # Safety
///
/// `transpose_unchecked`'s contract for the block; `R` and `C` are multiples of `W` and
/// `C · R` elements fit [`TILE_BYTES`]; `micro(t, s)` must be sound for a `W × W` block from
/// `s` (row stride `sr`) to `t` (row stride `R`), `out(d, t)` for `R` elements from `t` to a
/// destination row `d` (which starts on a line boundary when the rows are whole lines apart),
/// `edge` for any sub-block of the block.
#[cfg_attr(
    not(any(x86_kernels, test)),
    expect(
        dead_code,
        reason = "only the x86-64 streaming transpose runs the tiles"
    )
)]
#[inline(always)]
#[expect(
    clippy::arithmetic_side_effects,
    reason = "every counter is below `ea` or `eb` (or a tile index below `R` or `C`), and every offset formed is an element offset of the block or the tile (contract), or a wrapping prefetch hint"
)]
#[expect(
    clippy::too_many_arguments,
    reason = "the block (two pointers, two strides, the extents) and its four kernels"
)]
pub(super) unsafe fn tile_blocks<E: Copy, const R: usize, const C: usize, const W: usize>(
    d: *mut E,
    dr: isize,
    s: *const E,
    sr: isize,
    [ea, eb]: [usize; 2],
    mut micro: impl FnMut(*mut E, *const E),
    mut edge: impl FnMut(*mut E, *const E, usize, usize),
    prefetch: impl Fn(*const E),
    mut out: impl FnMut(*mut E, *const E),
) {
    const {
        assert!(
            W > 0 && R.is_multiple_of(W) && C.is_multiple_of(W),
            "tiles of whole micro-kernels"
        );
        assert!(
            R * C * size_of::<E>() <= TILE_BYTES,
            "the tile fits the stack buffer"
        );
    };
    let at = |i: usize, j: usize| {
        (
            d.wrapping_offset(step(i, dr).wrapping_add(step(j, 1))),
            s.wrapping_offset(step(i, 1).wrapping_add(step(j, sr))),
        )
    };
    // Columns `head..head + body` of rows `..rows` go through the tiles: from the first line
    // boundary when it is one of every row. A pointer that cannot be aligned (`usize::MAX`)
    // leaves no body.
    let head = if whole_lines::<E>(dr) {
        d.align_offset(LINE).min(eb)
    } else {
        0
    };
    let body = (eb - head) / R * R;
    let rows = ea / C * C;
    for (j0, width) in [(0, head), (head + body, eb - head - body)] {
        if width > 0 {
            let (dp, sp) = at(0, j0);
            edge(dp, sp, ea, width);
        }
    }
    if rows < ea && body > 0 {
        let (dp, sp) = at(rows, head);
        edge(dp, sp, ea - rows, body);
    }
    let mut tile = StackTile(MaybeUninit::<[[E; R]; C]>::uninit());
    let t = tile.0.as_mut_ptr().cast::<E>();
    let line = (LINE / size_of::<E>().max(1)).max(1);
    for j0 in (head..head + body).step_by(R) {
        for i0 in (0..rows).step_by(C) {
            // The next tile along the source rows, or the first of the next strip (past the
            // block: a hint only).
            let (ni, nj) = if i0 + C < rows {
                (i0 + C, j0)
            } else {
                (0, j0 + R)
            };
            for jj in (0..R).step_by(W) {
                for j in jj..jj + W {
                    for l in (0..C).step_by(line) {
                        prefetch(at(ni + l, nj + j).1);
                    }
                }
                for ii in (0..C).step_by(W) {
                    // `t + ii·R + jj` and the `W × W` block from it lie in the tile
                    // (`ii + W <= C`, `jj + W <= R`).
                    micro(t.wrapping_add(ii * R + jj), at(i0 + ii, j0 + jj).1);
                }
            }
            for i in 0..C {
                // Every element of the tile was written above (the micro-kernels cover
                // `C × R`).
                out(at(i0 + i, j0).0, t.wrapping_add(i * R).cast_const());
            }
        }
    }
}
