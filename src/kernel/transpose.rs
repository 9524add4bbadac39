//! 2-D transposes of 1-, 2-, 4- and 8-byte elements: SIMD micro-kernels in blocks, each
//! with a portable twin, and a streaming macro-kernel for transposes past the last-level
//! cache.
//!
//! | target | micro-kernel (1-byte / 2-byte / 4-byte / 8-byte) |
//! | --- | --- |
//! | x86-64 | 8 × 8 / 8 × 8 SSE2; 16 × 16 / 8 × 8 AVX line kernels (edges 8 × 8 / 4 × 4) when the CPU has AVX ([`cpu`](super::cpu): compiled in or detected at run time), else 4 × 4 / 2 × 2 SSE2 |
//! | aarch64 with NEON | 8 × 8 / 8 × 8 portable; 4 × 4 / 2 × 2 NEON |
//! | others, and under Miri | 8 × 8 / 8 × 8 / 4 × 4 / 2 × 2 portable (scalar, the same block order) |
//!
//! A *line kernel* reads each of its source rows as one whole 64-byte cache line and writes
//! whole destination lines, so a line crosses the memory bus once even where power-of-two
//! row strides make the rows alias in the L1 cache. [`transpose_stream_unchecked`] (copies
//! of 32 MiB and more, destination rows a whole number of lines apart) cuts the block at the
//! destination's line boundaries into line kernels that store with non-temporal stores,
//! groups them in macro-tiles of 16 × 16 kernels for the TLB, and prefetches the source four
//! kernels ahead (the HPTT recipe). Where both row strides are whole pages (4096² `f32`),
//! one line per destination row would land every write on the same memory bank, so
//! [`tile_blocks`] transposes 128 source rows by 64 columns into a 32 KiB stack tile first and
//! writes each destination row 512 bytes at a time.
//!
//! AVX-512 is not used: its intrinsics are stable from Rust 1.89, above this crate's MSRV,
//! and the AVX kernels already keep one core at the memory bus on the 64 MiB transposes.
//!
//! The micro-kernels move elements through vector registers, so they run only for element
//! types whose every byte is initialised ([`is_plain`]).

#![expect(
    clippy::inline_always,
    reason = "micro-kernels must inline into their target-feature callers"
)]

use core::mem::{MaybeUninit, size_of};

#[cfg(all(target_arch = "x86_64", not(miri)))]
use crate::kernel::cpu::has_avx;
use crate::kernel::drive::step;
use crate::kernel::element::is_plain;

/// Whether [`transpose_unchecked`] has a micro-kernel for `T` worth taking: 1-, 2-, 4- and
/// 8-byte primitives; on bare metal (no vector unit) 4- and 8-byte ones only, since the
/// portable 8 × 8 block of 1- and 2-byte elements costs more than the paired strided rows
/// of the small blocks firmware moves (a 64-frame stereo `i16` copy: about 1,500
/// instructions through the block against 719 on a Cortex-M4).
#[inline]
pub(crate) fn transposes<T: 'static>() -> bool {
    let sizes = if cfg!(target_os = "none") {
        matches!(size_of::<T>(), 4 | 8)
    } else {
        matches!(size_of::<T>(), 1 | 2 | 4 | 8)
    };
    sizes && is_plain::<T>()
}

/// `dst[i·dr + j] = src[i + j·sr]` for `i < ea`, `j < eb`: a transpose of 1-, 2-, 4- or
/// 8-byte elements.
///
/// # Safety
///
/// `T` is a 1-, 2-, 4- or 8-byte plain type ([`transposes`]); every `dst + i·dr + j` and
/// `src + i + j·sr` is an element of its slice, and no destination element is a source
/// element.
#[inline]
pub(crate) unsafe fn transpose_unchecked<T: 'static>(
    dst: *mut T,
    dr: isize,
    src: *const T,
    sr: isize,
    ea: usize,
    eb: usize,
) {
    debug_assert!(
        transposes::<T>(),
        "transpose_unchecked: not a 1-, 2-, 4- or 8-byte primitive"
    );
    debug_assert!(
        ea == 0 || eb == 0 || (!dst.is_null() && !src.is_null()),
        "transpose_unchecked: null block"
    );
    match size_of::<T>() {
        8 => {
            // SAFETY: the caller's contract, for 8-byte elements.
            unsafe { transpose64(dst.cast::<f64>(), dr, src.cast::<f64>(), sr, ea, eb) };
            return;
        }
        1 => {
            let (d, s) = (dst.cast::<u8>(), src.cast::<u8>());
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            // SAFETY: SSE2 is part of x86-64; the caller's contract, for 1-byte elements.
            unsafe {
                blocks::<u8, 8>(d, dr, s, sr, ea, eb, |d, s| {
                    x86::micro_sse2_u8(d, dr, s, sr);
                });
            }
            #[cfg(not(all(target_arch = "x86_64", not(miri))))]
            // SAFETY: the caller's contract, for 1-byte elements.
            unsafe {
                blocks::<u8, 8>(d, dr, s, sr, ea, eb, |d, s| {
                    micro_portable::<u8, 8>(d, dr, s, sr);
                });
            }
            return;
        }
        2 => {
            let (d, s) = (dst.cast::<u16>(), src.cast::<u16>());
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            // SAFETY: SSE2 is part of x86-64; the caller's contract, for 2-byte elements.
            unsafe {
                blocks::<u16, 8>(d, dr, s, sr, ea, eb, |d, s| {
                    x86::micro_sse2_u16(d, dr, s, sr);
                });
            }
            #[cfg(not(all(target_arch = "x86_64", not(miri))))]
            // SAFETY: the caller's contract, for 2-byte elements.
            unsafe {
                blocks::<u16, 8>(d, dr, s, sr, ea, eb, |d, s| {
                    micro_portable::<u16, 8>(d, dr, s, sr);
                });
            }
            return;
        }
        _ => {}
    }
    let (d, s) = (dst.cast::<f32>(), src.cast::<f32>());
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        if has_avx() {
            // SAFETY: AVX is present (checked above); the caller's contract.
            unsafe { x86::transpose_avx(d, dr, s, sr, ea, eb) };
        } else {
            // SAFETY: SSE2 is part of x86-64; the caller's contract.
            unsafe { blocks::<f32, 4>(d, dr, s, sr, ea, eb, |d, s| x86::micro_sse2(d, dr, s, sr)) };
        }
    }
    #[cfg(all(target_arch = "aarch64", target_feature = "neon", not(miri)))]
    {
        // SAFETY: NEON is enabled at compile time; the caller's contract.
        unsafe { blocks::<f32, 4>(d, dr, s, sr, ea, eb, |d, s| neon::micro(d, dr, s, sr)) };
    }
    #[cfg(not(any(
        all(target_arch = "x86_64", not(miri)),
        all(target_arch = "aarch64", target_feature = "neon", not(miri))
    )))]
    {
        // SAFETY: the caller's contract.
        unsafe {
            blocks::<f32, 4>(d, dr, s, sr, ea, eb, |d, s| {
                micro_portable::<f32, 4>(d, dr, s, sr);
            });
        };
    }
}

/// [`transpose_unchecked`] for 8-byte elements, moved as `f64` bits.
///
/// # Safety
///
/// As [`transpose_unchecked`], for 8-byte elements.
#[inline]
unsafe fn transpose64(d: *mut f64, dr: isize, s: *const f64, sr: isize, ea: usize, eb: usize) {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        if has_avx() {
            // SAFETY: AVX is present (checked above); the caller's contract.
            unsafe { x86::transpose_avx_f64(d, dr, s, sr, ea, eb) };
        } else {
            // SAFETY: SSE2 is part of x86-64; the caller's contract.
            unsafe {
                blocks::<f64, 2>(d, dr, s, sr, ea, eb, |d, s| {
                    x86::micro_sse2_f64(d, dr, s, sr);
                });
            }
        }
    }
    #[cfg(all(target_arch = "aarch64", target_feature = "neon", not(miri)))]
    {
        // SAFETY: NEON is enabled at compile time; the caller's contract.
        unsafe { blocks::<f64, 2>(d, dr, s, sr, ea, eb, |d, s| neon::micro_f64(d, dr, s, sr)) };
    }
    #[cfg(not(any(
        all(target_arch = "x86_64", not(miri)),
        all(target_arch = "aarch64", target_feature = "neon", not(miri))
    )))]
    {
        // SAFETY: the caller's contract.
        unsafe {
            blocks::<f64, 2>(d, dr, s, sr, ea, eb, |d, s| {
                micro_portable::<f64, 2>(d, dr, s, sr);
            });
        };
    }
}

/// Runs `micro` on every whole `W × W` block of the `ea × eb` transpose, then the edges
/// element by element.
///
/// # Safety
///
/// `transpose_unchecked`'s contract, and `micro(d, s)` must be sound for a `W × W` block at
/// `d`/`s` with the same row strides.
#[inline(always)]
#[expect(
    clippy::arithmetic_side_effects,
    reason = "Every counter is below `ea` or `eb`, and every offset is an element offset (contract)."
)]
unsafe fn blocks<E: Copy, const W: usize>(
    d: *mut E,
    dr: isize,
    s: *const E,
    sr: isize,
    ea: usize,
    eb: usize,
    mut micro: impl FnMut(*mut E, *const E),
) {
    let (fa, fb) = (ea - ea % W, eb - eb % W);
    let mut i = 0;
    while i < fa {
        let mut j = 0;
        while j < fb {
            // SAFETY: the block's corner is an element of each slice (contract); `micro`
            // stays inside the block.
            unsafe {
                micro(
                    d.offset(step(i, dr).wrapping_add(step(j, 1))),
                    s.offset(step(i, 1).wrapping_add(step(j, sr))),
                );
            }
            j += W;
        }
        i += W;
    }
    for i in 0..ea {
        let start = if i < fa { fb } else { 0 };
        for j in start..eb {
            // SAFETY: `i < ea`, `j < eb` (contract).
            unsafe {
                *d.offset(step(i, dr).wrapping_add(step(j, 1))) =
                    *s.offset(step(i, 1).wrapping_add(step(j, sr)));
            }
        }
    }
}

/// Bytes of a cache line: the streaming transpose reads and writes whole lines.
const LINE: usize = 64;

/// Line micro-kernels per side of one macro-tile of the streaming transpose: a macro-tile
/// is `MACRO · L` destination rows by `MACRO · L` columns (256 × 256 `f32`, 128 × 128 `f64`),
/// whose source and destination lines (2 × 256 pages at most) fit the second-level TLB while
/// it runs.
const MACRO: usize = 16;

/// How many micro-kernels ahead the streaming transpose prefetches its source lines.
const AHEAD: usize = 4;

/// Whether [`transpose_stream_unchecked`] takes an `ea × eb` transpose whose destination rows
/// are `dr` elements apart: 4- and 8-byte primitives, on a target with a streaming line
/// kernel (AVX), destination rows a whole number of cache lines apart, and at least one
/// line-sized micro-kernel each way.
#[inline]
pub(crate) fn streams<T: 'static>(dr: isize, ea: usize, eb: usize) -> bool {
    let line = LINE.checked_div(size_of::<T>()).unwrap_or(1);
    has_line_kernel()
        && matches!(size_of::<T>(), 4 | 8)
        && transposes::<T>()
        && dr > 0
        && dr.unsigned_abs().is_multiple_of(line)
        && ea >= line
        && eb >= line.saturating_mul(2)
}

/// Whether this machine has a streaming line kernel (AVX on x86-64).
#[inline]
fn has_line_kernel() -> bool {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        has_avx()
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri))))]
    {
        false
    }
}

/// `dst[i·dr + j] = src[i + j·sr]` for `i < ea`, `j < eb`, for a transpose larger than the
/// last-level cache: every destination line that lies wholly in the block is written once,
/// with non-temporal stores, by a line × line micro-kernel that reads each of its source
/// lines whole; the columns before the first destination line boundary and after the last,
/// and the last `ea mod L` rows, go through [`transpose_unchecked`]. Call
/// [`stream_fence`](super::stream::stream_fence) after the last one.
///
/// # Safety
///
/// [`streams`]`::<T>(dr, ea, eb)` holds, and [`transpose_unchecked`]'s contract.
#[inline]
pub(crate) unsafe fn transpose_stream_unchecked<T: 'static>(
    dst: *mut T,
    dr: isize,
    src: *const T,
    sr: isize,
    ea: usize,
    eb: usize,
) {
    debug_assert!(
        streams::<T>(dr, ea, eb),
        "transpose_stream_unchecked: no line kernel"
    );
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        if aliasing::<T>(dr, sr) {
            // SAFETY: AVX is present (`streams`); the caller's contract.
            unsafe {
                if size_of::<T>() == 8 {
                    x86::transpose_tiled_avx_f64(dst.cast(), dr, src.cast(), sr, ea, eb);
                } else {
                    x86::transpose_tiled_avx(dst.cast(), dr, src.cast(), sr, ea, eb);
                }
            }
            return;
        }
        if size_of::<T>() == 8 {
            let (d, s) = (dst.cast::<f64>(), src.cast::<f64>());
            // SAFETY: AVX is present (`streams`); the caller's contract, with 8-byte
            // elements; `line_blocks` hands the micro-kernel only line-aligned destination
            // rows.
            unsafe {
                line_blocks::<f64, 8>(
                    d,
                    dr,
                    s,
                    sr,
                    [ea, eb],
                    |d, s| x86::line_avx_f64::<true>(d, dr, s, sr),
                    |d, s, ea, eb| transpose_unchecked(d, dr, s, sr, ea, eb),
                    x86::prefetch,
                );
            }
        } else {
            let (d, s) = (dst.cast::<f32>(), src.cast::<f32>());
            // SAFETY: as above, for 4-byte elements.
            unsafe {
                line_blocks::<f32, 16>(
                    d,
                    dr,
                    s,
                    sr,
                    [ea, eb],
                    |d, s| x86::line_avx::<true>(d, dr, s, sr),
                    |d, s, ea, eb| transpose_unchecked(d, dr, s, sr, ea, eb),
                    x86::prefetch,
                );
            }
        }
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri))))]
    {
        // `streams` is false here; the cached transpose is correct for any block.
        // SAFETY: the caller's contract.
        unsafe { transpose_unchecked(dst, dr, src, sr, ea, eb) };
    }
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
    not(any(all(target_arch = "x86_64", not(miri)), test)),
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
unsafe fn line_blocks<E: Copy, const L: usize>(
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
                for j0 in (j1..j_end).step_by(L) {
                    for i0 in (i1..i_end).step_by(L) {
                        kernel(i0, j0);
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
const PAGE: usize = 4096;

/// Whether both row strides of a streaming transpose are whole pages (`4096²` `f32`, say):
/// then one line per destination row (the line kernel's stores) lands each write on the
/// same memory bank as the last, and [`tile_blocks`] writes 512-byte runs instead.
/// (Measured on a 4096² `f32` transpose: 0.55 of `copy_from_slice` with line kernels,
/// about 0.8 with the stack tile; on 4000² the line kernels stay ahead.)
#[cfg_attr(
    not(any(all(target_arch = "x86_64", not(miri)), test)),
    expect(dead_code, reason = "only the x86-64 streaming transpose asks")
)]
#[inline]
fn aliasing<T>(dr: isize, sr: isize) -> bool {
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
/// the last whole `C`).
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
/// destination row `d` that starts on a line boundary, `edge` for any sub-block of the block.
#[cfg_attr(
    not(any(all(target_arch = "x86_64", not(miri)), test)),
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
unsafe fn tile_blocks<E: Copy, const R: usize, const C: usize, const W: usize>(
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
    // Columns `head..head + body` of rows `..rows` go through the tiles. A pointer that
    // cannot be aligned (`usize::MAX`) leaves no body.
    let head = d.align_offset(LINE).min(eb);
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

/// The portable twin of the SIMD micro-kernels: one `W × W` block, element by element.
///
/// # Safety
///
/// Every `d + i·dr + j` and `s + i + j·sr` (`i, j < W`) is an element of its slice.
#[cfg_attr(
    all(target_arch = "x86_64", not(miri), not(test)),
    expect(
        dead_code,
        reason = "the portable twin runs only where no SIMD unit does, and under Miri"
    )
)]
#[inline(always)]
unsafe fn micro_portable<E: Copy, const W: usize>(d: *mut E, dr: isize, s: *const E, sr: isize) {
    let block: [[E; W]; W] = core::array::from_fn(|j| {
        core::array::from_fn(|i| {
            // SAFETY: `i, j < W` (contract). Read as raw bits: no float arithmetic happens.
            unsafe { s.offset(step(i, 1).wrapping_add(step(j, sr))).read() }
        })
    });
    for (j, row) in block.iter().enumerate() {
        for (i, &x) in row.iter().enumerate() {
            // SAFETY: `i, j < W` (contract).
            unsafe { d.offset(step(i, dr).wrapping_add(step(j, 1))).write(x) };
        }
    }
}

/// One 8 × 8 `f32` tile with AVX (also the small-block kernels' tile).
#[cfg(all(target_arch = "x86_64", not(miri)))]
pub(crate) use x86::micro_avx;

#[cfg(all(target_arch = "x86_64", not(miri)))]
mod x86 {
    use core::arch::x86_64::{
        __m128i, _mm_loadl_epi64, _mm_loadu_si128, _mm_storel_epi64, _mm_storeu_si128,
        _mm_unpackhi_epi16, _mm_unpackhi_epi32, _mm_unpackhi_epi64, _mm_unpacklo_epi8,
        _mm_unpacklo_epi16, _mm_unpacklo_epi32, _mm_unpacklo_epi64,
    };
    use core::arch::x86_64::{
        __m256, __m256d, _MM_HINT_T1, _mm_prefetch, _mm256_setzero_pd, _mm256_setzero_ps,
        _mm256_stream_pd, _mm256_stream_ps,
    };
    use core::arch::x86_64::{
        _mm_loadu_pd, _mm_storeu_pd, _mm_unpackhi_pd, _mm_unpacklo_pd, _mm256_loadu_pd,
        _mm256_permute2f128_pd, _mm256_storeu_pd, _mm256_unpackhi_pd, _mm256_unpacklo_pd,
    };
    use core::arch::x86_64::{
        _mm_loadu_ps, _mm_movehl_ps, _mm_movelh_ps, _mm_storeu_ps, _mm_unpackhi_ps,
        _mm_unpacklo_ps, _mm256_loadu_ps, _mm256_permute2f128_ps, _mm256_shuffle_ps,
        _mm256_storeu_ps, _mm256_unpackhi_ps, _mm256_unpacklo_ps,
    };

    use core::arch::x86_64::{__m256i, _MM_HINT_T0, _mm256_load_si256, _mm256_stream_si256};

    use super::{blocks, tile_blocks};
    use crate::kernel::drive::step;

    /// One 8 × 8 block of bytes: `d[i·dr + j] = s[i + j·sr]`, SSE2 (each row one 8-byte
    /// load or store).
    ///
    /// # Safety
    ///
    /// Every `d + i·dr + j` and `s + i + j·sr` (`i, j < 8`) is an element of its slice.
    #[expect(
        clippy::cast_ptr_alignment,
        reason = "the vector pointers are only used with unaligned loads and stores"
    )]
    #[inline(always)]
    pub(super) unsafe fn micro_sse2_u8(d: *mut u8, dr: isize, s: *const u8, sr: isize) {
        // SAFETY: rows `j < 8` of 8 bytes at `s + j·sr` (contract); 8-byte unaligned loads.
        let r: [__m128i; 8] = unsafe {
            core::array::from_fn(|j| _mm_loadl_epi64(s.offset(step(j, sr)).cast::<__m128i>()))
        };
        // SAFETY: SSE2 is part of x86-64 (the unpacks).
        let out = unsafe {
            // Pairs of rows interleaved by byte, then by 2 and 4 bytes: `c[k]` holds columns
            // `2k` and `2k + 1`, eight bytes each.
            let a0 = _mm_unpacklo_epi8(r[0], r[1]);
            let a1 = _mm_unpacklo_epi8(r[2], r[3]);
            let a2 = _mm_unpacklo_epi8(r[4], r[5]);
            let a3 = _mm_unpacklo_epi8(r[6], r[7]);
            let b0 = _mm_unpacklo_epi16(a0, a1);
            let b1 = _mm_unpackhi_epi16(a0, a1);
            let b2 = _mm_unpacklo_epi16(a2, a3);
            let b3 = _mm_unpackhi_epi16(a2, a3);
            [
                _mm_unpacklo_epi32(b0, b2),
                _mm_unpackhi_epi32(b0, b2),
                _mm_unpacklo_epi32(b1, b3),
                _mm_unpackhi_epi32(b1, b3),
            ]
        };
        for (k, c) in out.into_iter().enumerate() {
            // SAFETY: rows `2k` and `2k + 1 < 8` of 8 bytes at `d + i·dr` (contract); 8-byte
            // unaligned stores; SSE2 is part of x86-64.
            unsafe {
                let row = |i: usize| d.offset(step(i, dr)).cast::<__m128i>();
                let i = k.wrapping_mul(2);
                _mm_storel_epi64(row(i), c);
                _mm_storel_epi64(row(i | 1), _mm_unpackhi_epi64(c, c));
            }
        }
    }

    /// One 8 × 8 block of 2-byte elements: `d[i·dr + j] = s[i + j·sr]`, SSE2.
    ///
    /// # Safety
    ///
    /// Every `d + i·dr + j` and `s + i + j·sr` (`i, j < 8`) is an element of its slice.
    #[expect(
        clippy::many_single_char_names,
        reason = "d, s, r, a, b: pointers, rows and the two unpack stages"
    )]
    #[expect(
        clippy::cast_ptr_alignment,
        reason = "the vector pointers are only used with unaligned loads and stores"
    )]
    #[inline(always)]
    pub(super) unsafe fn micro_sse2_u16(d: *mut u16, dr: isize, s: *const u16, sr: isize) {
        // SAFETY: rows `j < 8` of 8 elements at `s + j·sr` (contract); unaligned loads.
        let r: [__m128i; 8] = unsafe {
            core::array::from_fn(|j| _mm_loadu_si128(s.offset(step(j, sr)).cast::<__m128i>()))
        };
        // SAFETY: SSE2 is part of x86-64 (the unpacks).
        let out = unsafe {
            // Pairs of rows interleaved by element, then by 2 and 4 elements.
            let [r0, r1, r2, r3, r4, r5, r6, r7] = r;
            let a = [
                _mm_unpacklo_epi16(r0, r1),
                _mm_unpackhi_epi16(r0, r1),
                _mm_unpacklo_epi16(r2, r3),
                _mm_unpackhi_epi16(r2, r3),
                _mm_unpacklo_epi16(r4, r5),
                _mm_unpackhi_epi16(r4, r5),
                _mm_unpacklo_epi16(r6, r7),
                _mm_unpackhi_epi16(r6, r7),
            ];
            let b = [
                _mm_unpacklo_epi32(a[0], a[2]),
                _mm_unpackhi_epi32(a[0], a[2]),
                _mm_unpacklo_epi32(a[1], a[3]),
                _mm_unpackhi_epi32(a[1], a[3]),
                _mm_unpacklo_epi32(a[4], a[6]),
                _mm_unpackhi_epi32(a[4], a[6]),
                _mm_unpacklo_epi32(a[5], a[7]),
                _mm_unpackhi_epi32(a[5], a[7]),
            ];
            [
                _mm_unpacklo_epi64(b[0], b[4]),
                _mm_unpackhi_epi64(b[0], b[4]),
                _mm_unpacklo_epi64(b[1], b[5]),
                _mm_unpackhi_epi64(b[1], b[5]),
                _mm_unpacklo_epi64(b[2], b[6]),
                _mm_unpackhi_epi64(b[2], b[6]),
                _mm_unpacklo_epi64(b[3], b[7]),
                _mm_unpackhi_epi64(b[3], b[7]),
            ]
        };
        for (i, v) in out.into_iter().enumerate() {
            // SAFETY: row `i < 8` of 8 elements at `d + i·dr` (contract); unaligned store.
            unsafe { _mm_storeu_si128(d.offset(step(i, dr)).cast::<__m128i>(), v) };
        }
    }

    /// One 4 × 4 block: `d[i·dr + j] = s[i + j·sr]`, SSE2.
    ///
    /// # Safety
    ///
    /// Every `d + i·dr + j` and `s + i + j·sr` (`i, j < 4`) is an element of its slice.
    #[inline(always)]
    pub(super) unsafe fn micro_sse2(d: *mut f32, dr: isize, s: *const f32, sr: isize) {
        // SAFETY: rows `j < 4` of 4 elements each at `s + j·sr` (contract); unaligned loads.
        let (r0, r1, r2, r3) = unsafe {
            (
                _mm_loadu_ps(s),
                _mm_loadu_ps(s.offset(sr)),
                _mm_loadu_ps(s.offset(step(2, sr))),
                _mm_loadu_ps(s.offset(step(3, sr))),
            )
        };
        // SAFETY: SSE is part of x86-64 (the shuffles); rows `i < 4` of 4 elements each at
        // `d + i·dr` (contract).
        unsafe {
            let t0 = _mm_unpacklo_ps(r0, r1);
            let t1 = _mm_unpacklo_ps(r2, r3);
            let t2 = _mm_unpackhi_ps(r0, r1);
            let t3 = _mm_unpackhi_ps(r2, r3);
            _mm_storeu_ps(d, _mm_movelh_ps(t0, t1));
            _mm_storeu_ps(d.offset(dr), _mm_movehl_ps(t1, t0));
            _mm_storeu_ps(d.offset(step(2, dr)), _mm_movelh_ps(t2, t3));
            _mm_storeu_ps(d.offset(step(3, dr)), _mm_movehl_ps(t3, t2));
        }
    }

    /// The whole transpose with 8 × 8 AVX blocks.
    ///
    /// # Safety
    ///
    /// AVX is present, and `transpose_unchecked`'s contract holds.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn transpose_avx(
        d: *mut f32,
        dr: isize,
        s: *const f32,
        sr: isize,
        ea: usize,
        eb: usize,
    ) {
        let (fa, fb) = (ea & !15, eb & !15);
        // SAFETY: the caller's contract, for the sub-blocks `..fa × ..fb` (whole 16 × 16
        // line kernels, each reading its source lines whole), `.. × fb..` and `fa.. × ..fb`
        // (their corners wrap past the block only when they are empty, and are then never
        // read); the kernels need AVX, which this function has.
        unsafe {
            blocks::<f32, 16>(d, dr, s, sr, fa, fb, |d, s| line_avx::<false>(d, dr, s, sr));
            let (d1, s1) = (
                d.wrapping_offset(step(fb, 1)),
                s.wrapping_offset(step(fb, sr)),
            );
            blocks::<f32, 8>(d1, dr, s1, sr, ea, eb % 16, |d, s| micro_avx(d, dr, s, sr));
            let (d2, s2) = (
                d.wrapping_offset(step(fa, dr)),
                s.wrapping_offset(step(fa, 1)),
            );
            blocks::<f32, 8>(d2, dr, s2, sr, ea % 16, fb, |d, s| micro_avx(d, dr, s, sr));
        }
    }

    /// The streaming transpose of `f32` for page-sized row strides: 128-source-row by
    /// 64-column stack tiles of 8 × 8 AVX blocks, written out with non-temporal stores.
    ///
    /// # Safety
    ///
    /// AVX is present, `transpose_unchecked`'s contract holds, and `dr` is a positive
    /// multiple of 16 (a whole number of lines).
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn transpose_tiled_avx(
        d: *mut f32,
        dr: isize,
        s: *const f32,
        sr: isize,
        ea: usize,
        eb: usize,
    ) {
        // SAFETY: the caller's contract for the block; each micro-kernel moves an 8 × 8
        // block inside the tile and the block, `out` 128 elements of a tile row to a
        // line-aligned destination row of the block (a whole number of lines apart), the
        // edges sub-blocks of the block; AVX is present for the kernels.
        unsafe {
            tile_blocks::<f32, 128, 64, 8>(
                d,
                dr,
                s,
                sr,
                [ea, eb],
                |t, s| micro_avx(t, 128, s, sr),
                |d, s, ea, eb| super::transpose_unchecked(d, dr, s, sr, ea, eb),
                prefetch_t0,
                |d, t| stream_row_avx(d.cast(), t.cast(), 128 * 4),
            );
        }
    }

    /// [`transpose_tiled_avx`] for `f64`: 64-source-row by 32-column tiles of 4 × 4 blocks.
    ///
    /// # Safety
    ///
    /// AVX is present, `transpose_unchecked`'s contract holds for 8-byte elements, and `dr`
    /// is a positive multiple of 8.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn transpose_tiled_avx_f64(
        d: *mut f64,
        dr: isize,
        s: *const f64,
        sr: isize,
        ea: usize,
        eb: usize,
    ) {
        // SAFETY: as in `transpose_tiled_avx`, with 8-byte elements.
        unsafe {
            tile_blocks::<f64, 64, 32, 4>(
                d,
                dr,
                s,
                sr,
                [ea, eb],
                |t, s| micro_avx_f64(t, 64, s, sr),
                |d, s, ea, eb| super::transpose_unchecked(d, dr, s, sr, ea, eb),
                prefetch_t0,
                |d, t| stream_row_avx(d.cast(), t.cast(), 64 * 8),
            );
        }
    }

    /// Writes `n` bytes (a multiple of 64) from the 64-byte-aligned `t` to the 64-byte-aligned
    /// `d` with non-temporal stores, a line's two halves back to back.
    ///
    /// # Safety
    ///
    /// AVX is present; `t..t + n` are initialised bytes of the tile and `d..d + n` bytes of
    /// the destination slice, both 32-byte aligned.
    #[target_feature(enable = "avx")]
    #[inline]
    #[expect(
        clippy::cast_ptr_alignment,
        reason = "both pointers are 32-byte aligned (contract)"
    )]
    unsafe fn stream_row_avx(d: *mut u8, t: *const u8, n: usize) {
        for k in (0..n).step_by(32) {
            // SAFETY: 32 bytes at `k < n`, in both ranges (contract), 32-byte aligned.
            unsafe {
                let v = _mm256_load_si256(t.wrapping_add(k).cast::<__m256i>());
                _mm256_stream_si256(d.wrapping_add(k).cast::<__m256i>(), v);
            }
        }
    }

    /// Hints the first-level cache to fetch the line at `p` (never faults, whatever `p`): the
    /// tiled transpose reads a prefetched line within one tile.
    #[inline(always)]
    fn prefetch_t0<E>(p: *const E) {
        // SAFETY: SSE is part of x86-64; `prefetcht0` is a hint that never faults.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>()) };
    }

    /// One 8 × 8 block with AVX.
    ///
    /// # Safety
    ///
    /// AVX is present; every `d + i·dr + j` and `s + i + j·sr` (`i, j < 8`) is an element of
    /// its slice.
    #[target_feature(enable = "avx")]
    #[inline]
    pub(crate) unsafe fn micro_avx(d: *mut f32, dr: isize, s: *const f32, sr: isize) {
        // SAFETY: rows `j < 8` of 8 elements at `s + j·sr` (contract).
        let r = unsafe { core::array::from_fn(|j| _mm256_loadu_ps(s.offset(step(j, sr)))) };
        for (i, v) in t8(r).into_iter().enumerate() {
            // SAFETY: row `i < 8` of 8 elements at `d + i·dr` (contract).
            unsafe { _mm256_storeu_ps(d.offset(step(i, dr)), v) };
        }
    }

    /// The transpose of eight rows of eight `f32` lanes.
    #[target_feature(enable = "avx")]
    #[inline]
    fn t8(r: [__m256; 8]) -> [__m256; 8] {
        let t0 = _mm256_unpacklo_ps(r[0], r[1]);
        let t1 = _mm256_unpackhi_ps(r[0], r[1]);
        let t2 = _mm256_unpacklo_ps(r[2], r[3]);
        let t3 = _mm256_unpackhi_ps(r[2], r[3]);
        let t4 = _mm256_unpacklo_ps(r[4], r[5]);
        let t5 = _mm256_unpackhi_ps(r[4], r[5]);
        let t6 = _mm256_unpacklo_ps(r[6], r[7]);
        let t7 = _mm256_unpackhi_ps(r[6], r[7]);
        let u0 = _mm256_shuffle_ps::<0x44>(t0, t2);
        let u1 = _mm256_shuffle_ps::<0xEE>(t0, t2);
        let u2 = _mm256_shuffle_ps::<0x44>(t1, t3);
        let u3 = _mm256_shuffle_ps::<0xEE>(t1, t3);
        let u4 = _mm256_shuffle_ps::<0x44>(t4, t6);
        let u5 = _mm256_shuffle_ps::<0xEE>(t4, t6);
        let u6 = _mm256_shuffle_ps::<0x44>(t5, t7);
        let u7 = _mm256_shuffle_ps::<0xEE>(t5, t7);
        [
            _mm256_permute2f128_ps::<0x20>(u0, u4),
            _mm256_permute2f128_ps::<0x20>(u1, u5),
            _mm256_permute2f128_ps::<0x20>(u2, u6),
            _mm256_permute2f128_ps::<0x20>(u3, u7),
            _mm256_permute2f128_ps::<0x31>(u0, u4),
            _mm256_permute2f128_ps::<0x31>(u1, u5),
            _mm256_permute2f128_ps::<0x31>(u2, u6),
            _mm256_permute2f128_ps::<0x31>(u3, u7),
        ]
    }

    /// One 16 × 16 block of `f32` (one 64-byte line per row on each side); with `NT` its
    /// destination rows are written with non-temporal stores, each line's two halves back to
    /// back so the write-combining buffer fills and leaves as one memory transaction.
    ///
    /// # Safety
    ///
    /// AVX is present; every `d + i·dr + j` and `s + i + j·sr` (`i, j < 16`) is an element of
    /// its slice, and with `NT` every `d + i·dr` is 32-byte aligned.
    #[target_feature(enable = "avx")]
    #[inline]
    pub(super) unsafe fn line_avx<const NT: bool>(
        d: *mut f32,
        dr: isize,
        s: *const f32,
        sr: isize,
    ) {
        // Each source row's whole line is loaded at once (`lo`, `hi`), so a line is read
        // from memory once even where the rows alias in the L1 cache (power-of-two strides).
        let mut out = [[[_mm256_setzero_ps(); 8]; 2]; 2];
        for (g, half) in out.iter_mut().enumerate() {
            let row = |j: usize| s.wrapping_offset(step(g.wrapping_mul(8).wrapping_add(j), sr));
            // SAFETY: rows `8g + j < 16` of 16 elements at `s + (8g + j)·sr` (contract).
            let (lo, hi): ([__m256; 8], [__m256; 8]) = unsafe {
                (
                    core::array::from_fn(|j| _mm256_loadu_ps(row(j))),
                    core::array::from_fn(|j| _mm256_loadu_ps(row(j).add(8))),
                )
            };
            *half = [t8(lo), t8(hi)];
        }
        let [left, right] = out;
        for (h, (l, r)) in left.iter().zip(&right).enumerate() {
            for (i, (&a, &b)) in l.iter().zip(r).enumerate() {
                // SAFETY: row `8h + i < 16` of 16 elements at `d + (8h + i)·dr`, 32-byte
                // aligned (contract).
                unsafe {
                    let p = d.offset(step(h.wrapping_mul(8).wrapping_add(i), dr));
                    if NT {
                        _mm256_stream_ps(p, a);
                        _mm256_stream_ps(p.add(8), b);
                    } else {
                        _mm256_storeu_ps(p, a);
                        _mm256_storeu_ps(p.add(8), b);
                    }
                }
            }
        }
    }

    /// One 8 × 8 block of `f64` (one 64-byte line per row on each side), its rows stored as
    /// [`line_avx`] stores them.
    ///
    /// # Safety
    ///
    /// AVX is present; every `d + i·dr + j` and `s + i + j·sr` (`i, j < 8`) is an element of
    /// its slice, and with `NT` every `d + i·dr` is 32-byte aligned.
    #[target_feature(enable = "avx")]
    #[inline]
    pub(super) unsafe fn line_avx_f64<const NT: bool>(
        d: *mut f64,
        dr: isize,
        s: *const f64,
        sr: isize,
    ) {
        let mut out = [[[_mm256_setzero_pd(); 4]; 2]; 2];
        for (g, half) in out.iter_mut().enumerate() {
            let row = |j: usize| s.wrapping_offset(step(g.wrapping_mul(4).wrapping_add(j), sr));
            // SAFETY: rows `4g + j < 8` of 8 elements at `s + (4g + j)·sr` (contract).
            let (lo, hi): ([__m256d; 4], [__m256d; 4]) = unsafe {
                (
                    core::array::from_fn(|j| _mm256_loadu_pd(row(j))),
                    core::array::from_fn(|j| _mm256_loadu_pd(row(j).add(4))),
                )
            };
            *half = [t4(lo), t4(hi)];
        }
        let [left, right] = out;
        for (h, (l, r)) in left.iter().zip(&right).enumerate() {
            for (i, (&a, &b)) in l.iter().zip(r).enumerate() {
                // SAFETY: row `4h + i < 8` of 8 elements at `d + (4h + i)·dr`, 32-byte
                // aligned (contract).
                unsafe {
                    let p = d.offset(step(h.wrapping_mul(4).wrapping_add(i), dr));
                    if NT {
                        _mm256_stream_pd(p, a);
                        _mm256_stream_pd(p.add(4), b);
                    } else {
                        _mm256_storeu_pd(p, a);
                        _mm256_storeu_pd(p.add(4), b);
                    }
                }
            }
        }
    }

    /// Hints the second-level cache to fetch the line at `p` (never faults, whatever `p`); the
    /// first level would lose it again where the source rows alias (power-of-two strides).
    #[inline(always)]
    pub(super) fn prefetch<E>(p: *const E) {
        // SAFETY: SSE is part of x86-64; `prefetcht1` is a hint that never faults.
        unsafe { _mm_prefetch::<_MM_HINT_T1>(p.cast::<i8>()) };
    }

    /// One 2 × 2 block of 8-byte elements: `d[i·dr + j] = s[i + j·sr]`, SSE2.
    ///
    /// # Safety
    ///
    /// Every `d + i·dr + j` and `s + i + j·sr` (`i, j < 2`) is an element of its slice.
    #[inline(always)]
    pub(super) unsafe fn micro_sse2_f64(d: *mut f64, dr: isize, s: *const f64, sr: isize) {
        // SAFETY: SSE2 is part of x86-64; rows of 2 elements at `s + j·sr` and `d + i·dr`
        // (contract).
        unsafe {
            let (r0, r1) = (_mm_loadu_pd(s), _mm_loadu_pd(s.offset(sr)));
            _mm_storeu_pd(d, _mm_unpacklo_pd(r0, r1));
            _mm_storeu_pd(d.offset(dr), _mm_unpackhi_pd(r0, r1));
        }
    }

    /// The whole 8-byte transpose with 4 × 4 AVX blocks.
    ///
    /// # Safety
    ///
    /// AVX is present, and `transpose_unchecked`'s contract holds for 8-byte elements.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn transpose_avx_f64(
        d: *mut f64,
        dr: isize,
        s: *const f64,
        sr: isize,
        ea: usize,
        eb: usize,
    ) {
        let (fa, fb) = (ea & !7, eb & !7);
        // SAFETY: as in `transpose_avx`, with 8 × 8 line kernels and 4 × 4 blocks.
        unsafe {
            blocks::<f64, 8>(d, dr, s, sr, fa, fb, |d, s| {
                line_avx_f64::<false>(d, dr, s, sr);
            });
            let (d1, s1) = (
                d.wrapping_offset(step(fb, 1)),
                s.wrapping_offset(step(fb, sr)),
            );
            blocks::<f64, 4>(d1, dr, s1, sr, ea, eb % 8, |d, s| {
                micro_avx_f64(d, dr, s, sr);
            });
            let (d2, s2) = (
                d.wrapping_offset(step(fa, dr)),
                s.wrapping_offset(step(fa, 1)),
            );
            blocks::<f64, 4>(d2, dr, s2, sr, ea % 8, fb, |d, s| {
                micro_avx_f64(d, dr, s, sr);
            });
        }
    }

    /// One 4 × 4 block of 8-byte elements with AVX.
    ///
    /// # Safety
    ///
    /// AVX is present; every `d + i·dr + j` and `s + i + j·sr` (`i, j < 4`) is an element of
    /// its slice.
    #[target_feature(enable = "avx")]
    #[inline]
    unsafe fn micro_avx_f64(d: *mut f64, dr: isize, s: *const f64, sr: isize) {
        // SAFETY: rows `j < 4` of 4 elements at `s + j·sr` (contract).
        let r = unsafe { core::array::from_fn(|j| _mm256_loadu_pd(s.offset(step(j, sr)))) };
        for (i, v) in t4(r).into_iter().enumerate() {
            // SAFETY: row `i < 4` of 4 elements at `d + i·dr` (contract).
            unsafe { _mm256_storeu_pd(d.offset(step(i, dr)), v) };
        }
    }

    /// The transpose of four rows of four `f64` lanes.
    #[target_feature(enable = "avx")]
    #[inline]
    fn t4(r: [__m256d; 4]) -> [__m256d; 4] {
        // t0 = a0b0 a0b1 a2b0 a2b1, t1 = a1b0 a1b1 a3b0 a3b1, t2/t3 the same for b2, b3.
        let t0 = _mm256_unpacklo_pd(r[0], r[1]);
        let t1 = _mm256_unpackhi_pd(r[0], r[1]);
        let t2 = _mm256_unpacklo_pd(r[2], r[3]);
        let t3 = _mm256_unpackhi_pd(r[2], r[3]);
        [
            _mm256_permute2f128_pd::<0x20>(t0, t2),
            _mm256_permute2f128_pd::<0x20>(t1, t3),
            _mm256_permute2f128_pd::<0x31>(t0, t2),
            _mm256_permute2f128_pd::<0x31>(t1, t3),
        ]
    }
}

#[cfg(all(target_arch = "aarch64", target_feature = "neon", not(miri)))]
mod neon {
    use core::arch::aarch64::{
        vld1q_f32, vreinterpretq_f32_f64, vreinterpretq_f64_f32, vst1q_f32, vtrn1q_f32, vtrn1q_f64,
        vtrn2q_f32, vtrn2q_f64,
    };
    use core::arch::aarch64::{vld1q_f64, vst1q_f64};

    use crate::kernel::drive::step;

    /// One 2 × 2 block of 8-byte elements: `d[i·dr + j] = s[i + j·sr]`, NEON.
    ///
    /// # Safety
    ///
    /// Every `d + i·dr + j` and `s + i + j·sr` (`i, j < 2`) is an element of its slice.
    #[inline(always)]
    pub(super) unsafe fn micro_f64(d: *mut f64, dr: isize, s: *const f64, sr: isize) {
        // SAFETY: NEON is enabled (the module's cfg); rows of 2 elements at `s + j·sr` and
        // `d + i·dr` (contract).
        unsafe {
            let (r0, r1) = (vld1q_f64(s), vld1q_f64(s.offset(sr)));
            vst1q_f64(d, vtrn1q_f64(r0, r1));
            vst1q_f64(d.offset(dr), vtrn2q_f64(r0, r1));
        }
    }

    /// One 4 × 4 block: `d[i·dr + j] = s[i + j·sr]`, NEON.
    ///
    /// # Safety
    ///
    /// Every `d + i·dr + j` and `s + i + j·sr` (`i, j < 4`) is an element of its slice.
    #[inline(always)]
    pub(super) unsafe fn micro(d: *mut f32, dr: isize, s: *const f32, sr: isize) {
        // SAFETY: rows `j < 4` of 4 elements at `s + j·sr` (contract).
        let (r0, r1, r2, r3) = unsafe {
            (
                vld1q_f32(s),
                vld1q_f32(s.offset(sr)),
                vld1q_f32(s.offset(step(2, sr))),
                vld1q_f32(s.offset(step(3, sr))),
            )
        };
        // SAFETY: NEON is enabled (the module's cfg), which the shuffles need; rows `i < 4`
        // of 4 elements at `d + i·dr` (contract).
        unsafe {
            // Pairs of rows: t0 = a0b0 a0b1 a2b0 a2b1, t1 = a1b0 a1b1 a3b0 a3b1, ...
            let t0 = vtrn1q_f32(r0, r1);
            let t1 = vtrn2q_f32(r0, r1);
            let t2 = vtrn1q_f32(r2, r3);
            let t3 = vtrn2q_f32(r2, r3);
            let o0 = vtrn1q_f64(vreinterpretq_f64_f32(t0), vreinterpretq_f64_f32(t2));
            let o1 = vtrn1q_f64(vreinterpretq_f64_f32(t1), vreinterpretq_f64_f32(t3));
            let o2 = vtrn2q_f64(vreinterpretq_f64_f32(t0), vreinterpretq_f64_f32(t2));
            let o3 = vtrn2q_f64(vreinterpretq_f64_f32(t1), vreinterpretq_f64_f32(t3));
            vst1q_f32(d, vreinterpretq_f32_f64(o0));
            vst1q_f32(d.offset(dr), vreinterpretq_f32_f64(o1));
            vst1q_f32(d.offset(step(2, dr)), vreinterpretq_f32_f64(o2));
            vst1q_f32(d.offset(step(3, dr)), vreinterpretq_f32_f64(o3));
        }
    }
}

#[cfg(test)]
#[expect(
    clippy::cast_precision_loss,
    clippy::cast_possible_wrap,
    clippy::float_cmp,
    reason = "small test sizes; the transposes move bits, so equality is exact"
)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// Every width 1..=70 (a few around the block sizes under Miri, which is slow).
    fn widths() -> &'static [usize] {
        const ALL: [usize; 70] = {
            let mut w = [0; 70];
            let mut i = 0;
            while i < 70 {
                w[i] = i + 1;
                i += 1;
            }
            w
        };
        if cfg!(miri) { &[1, 5, 9, 17, 33] } else { &ALL }
    }

    fn check(ea: usize, eb: usize) {
        // dst (ea, eb) C order, src the transpose: src[i + j·ea].
        let src: Vec<f32> = (0..ea * eb).map(|x| x as f32).collect();
        let mut dst = std::vec![-1f32; ea * eb];
        // SAFETY: both buffers hold `ea·eb` elements and are distinct.
        unsafe {
            transpose_unchecked(
                dst.as_mut_ptr(),
                eb as isize,
                src.as_ptr(),
                ea as isize,
                ea,
                eb,
            );
        }
        for i in 0..ea {
            for j in 0..eb {
                assert_eq!(dst[i * eb + j], src[i + j * ea], "{ea}x{eb} at ({i},{j})");
            }
        }
    }

    #[test]
    fn transpose_matches_scalar_for_widths_1_to_70() {
        for &ea in widths() {
            for &eb in widths() {
                check(ea, eb);
                check64(ea, eb);
                check_small(ea, eb, 3, |x| u8::try_from(x % 251).unwrap());
                check_small(ea, eb, 1, |x| u16::try_from(x % 65521).unwrap());
                check_small(ea, eb, 1, |x| x as f32);
                check_small(ea, eb, 2, |x| x as u64);
            }
        }
    }

    /// A transpose with padded row strides (`eb + pad`, `ea + pad + 2`), against
    /// the index formula; the padding stays untouched.
    fn check_small<E: Copy + PartialEq + core::fmt::Debug + Default + 'static>(
        ea: usize,
        eb: usize,
        pad: usize,
        val: fn(usize) -> E,
    ) {
        let (dr, sr) = (eb + pad, ea + pad + 2);
        let src: Vec<E> = (0..sr * eb).map(val).collect();
        let mut dst = std::vec![E::default(); dr * ea];
        // SAFETY: the block's offsets `i·dr + j < dr·ea` and `i + j·sr < sr·eb` lie in the
        // buffers, which are distinct.
        unsafe {
            transpose_unchecked(
                dst.as_mut_ptr(),
                dr as isize,
                src.as_ptr(),
                sr as isize,
                ea,
                eb,
            );
        }
        for i in 0..ea {
            for j in 0..dr {
                let want = if j < eb {
                    src[i + j * sr]
                } else {
                    E::default()
                };
                assert_eq!(dst[i * dr + j], want, "{ea}x{eb} at ({i},{j})");
            }
        }
    }

    fn check64(ea: usize, eb: usize) {
        let src: Vec<u64> = (0..ea * eb).map(|x| x as u64 * 0x1_0000_0001).collect();
        let mut dst = std::vec![0u64; ea * eb];
        // SAFETY: both buffers hold `ea·eb` elements and are distinct.
        unsafe {
            transpose_unchecked(
                dst.as_mut_ptr(),
                eb as isize,
                src.as_ptr(),
                ea as isize,
                ea,
                eb,
            );
        }
        for i in 0..ea {
            for j in 0..eb {
                assert_eq!(dst[i * eb + j], src[i + j * ea], "{ea}x{eb} at ({i},{j})");
            }
        }
    }

    /// The streaming transpose of an `ea × eb` block against the index formula: destination
    /// rows `dr` apart (a whole number of lines), the destination starting `shift` elements
    /// into a 64-byte-aligned buffer, source rows `sr = ea + pad` apart (odd pads included);
    /// elements outside the block stay untouched.
    fn check_stream<E: Copy + PartialEq + core::fmt::Debug + 'static>(
        ea: usize,
        eb: usize,
        shift: usize,
        pad: usize,
        rev: bool,
        val: impl Fn(usize) -> E,
        fill: E,
    ) {
        let line = LINE / size_of::<E>();
        let dr = eb.div_ceil(line) * line + line;
        let sr = ea + pad;
        let src: Vec<E> = (0..sr * eb).map(&val).collect();
        // A 64-byte-aligned destination: over-allocate and start at the aligned element.
        let mut buf = std::vec![fill; dr * ea + 2 * line + shift];
        let aligned = buf.as_ptr().align_offset(LINE);
        if aligned >= line {
            // No element of the buffer starts a line: `E`'s alignment is below its size (`f64`
            // on i686 is 4-aligned) and the allocation landed between lines. Nothing to test
            // with this buffer.
            return;
        }
        let base = aligned + shift;
        let dst = &mut buf[base..];
        let ok = streams::<E>(dr as isize, ea, eb);
        // With `rev`, the source's rows run backwards: row `j` of the block is row
        // `eb - 1 - j` of `src`.
        let (sp, srs) = if rev {
            // From the whole buffer's pointer: the block reads rows before this one.
            (src.as_ptr().wrapping_add((eb - 1) * sr), -(sr as isize))
        } else {
            (src.as_ptr(), sr as isize)
        };
        assert_eq!(ok, has_line_kernel() && ea >= line && eb >= 2 * line);
        // SAFETY: the block's destination `i·dr + j < ea·dr` lies in `dst`, its source
        // `i ± j·sr` in `src` (`i + j·sr < sr·eb` either way round); distinct buffers.
        // Without a line kernel, the cached transpose runs instead.
        unsafe {
            if ok {
                transpose_stream_unchecked(dst.as_mut_ptr(), dr as isize, sp, srs, ea, eb);
                crate::kernel::stream::stream_fence();
            } else {
                line_blocks::<E, 4>(
                    dst.as_mut_ptr(),
                    dr as isize,
                    sp,
                    srs,
                    [ea, eb],
                    |d, s| micro_portable::<E, 4>(d, dr as isize, s, srs),
                    |d, s, a, b| portable_block(d, dr as isize, s, srs, a, b),
                    |_| {},
                );
            }
        }
        for i in 0..ea {
            for j in 0..dr {
                let want = match (j < eb, rev) {
                    (false, _) => fill,
                    (true, false) => src[i + j * sr],
                    (true, true) => src[i + (eb - 1 - j) * sr],
                };
                assert_eq!(
                    dst[i * dr + j],
                    want,
                    "{ea}x{eb} shift {shift} pad {pad} at ({i},{j})"
                );
            }
        }
    }

    /// The portable edge: element by element.
    unsafe fn portable_block<E: Copy>(
        d: *mut E,
        dr: isize,
        s: *const E,
        sr: isize,
        ea: usize,
        eb: usize,
    ) {
        for i in 0..ea {
            for j in 0..eb {
                // SAFETY: `i < ea`, `j < eb` (the caller's block).
                unsafe {
                    *d.offset(i as isize * dr + j as isize) =
                        *s.offset(i as isize + j as isize * sr);
                }
            }
        }
    }

    #[test]
    fn transpose_stream_matches_scalar_for_widths_1_to_70() {
        for &ea in widths() {
            for &eb in widths() {
                let (shift, pad) = ((ea + eb) % 17, (ea * 3 + eb) % 4);
                let rev = (ea + eb) % 3 == 0;
                check_stream(ea, eb, shift % 16, pad, rev, |x| x as f32, -1.0);
                check_stream(
                    ea,
                    eb,
                    shift % 8,
                    pad + 1,
                    rev,
                    |x| x as u64 * 0x1_0000_0001,
                    0,
                );
            }
        }
    }

    /// The streaming transpose with page-sized row strides (the stack-tile path on x86-64
    /// with AVX) against the index formula: an `ea × eb` block whose destination starts
    /// `shift` elements into a line, both row strides `stride` elements (a multiple of a
    /// page), the source rows backwards with `rev`; elements outside the block stay
    /// untouched.
    fn check_tiled<E: Copy + PartialEq + core::fmt::Debug + 'static>(
        [ea, eb]: [usize; 2],
        shift: usize,
        rev: bool,
        val: impl Fn(usize) -> E,
        fill: E,
    ) {
        // Two pages a row (one under Miri, which is slow).
        let stride = if cfg!(miri) { PAGE } else { 2 * PAGE } / size_of::<E>();
        assert!(ea <= stride && eb + shift <= stride);
        let (dr, sr) = (stride as isize, stride as isize);
        assert!(aliasing::<E>(dr, sr));
        let src: Vec<E> = (0..stride * eb).map(&val).collect();
        let line = LINE / size_of::<E>();
        let mut buf = std::vec![fill; stride * ea + 2 * line];
        let aligned = buf.as_ptr().align_offset(LINE);
        if aligned >= line {
            return; // no element starts a line (see `check_stream`)
        }
        let dst = &mut buf[aligned + shift..];
        let (sp, srs) = if rev {
            (src.as_ptr().wrapping_add((eb - 1) * stride), -sr)
        } else {
            (src.as_ptr(), sr)
        };
        let ok = streams::<E>(dr, ea, eb);
        assert_eq!(ok, has_line_kernel() && ea >= line && eb >= 2 * line);
        // SAFETY: the block's destination `i·dr + j < ea·dr` lies in `dst`, its source
        // `i ± j·sr` in `src`; distinct buffers. Without a line kernel, the portable tiles
        // run instead.
        unsafe {
            if ok {
                transpose_stream_unchecked(dst.as_mut_ptr(), dr, sp, srs, ea, eb);
                crate::kernel::stream::stream_fence();
            } else {
                tile_blocks::<E, 8, 4, 2>(
                    dst.as_mut_ptr(),
                    dr,
                    sp,
                    srs,
                    [ea, eb],
                    |t, s| micro_portable::<E, 2>(t, 8, s, srs),
                    |d, s, a, b| portable_block(d, dr, s, srs, a, b),
                    |_| {},
                    |d, t| core::ptr::copy_nonoverlapping(t, d, 8),
                );
            }
        }
        for i in 0..ea {
            for j in 0..stride - shift {
                let want = match (j < eb, rev) {
                    (false, _) => fill,
                    (true, false) => src[i + j * stride],
                    (true, true) => src[i + (eb - 1 - j) * stride],
                };
                assert_eq!(
                    dst[i * stride + j],
                    want,
                    "{ea}x{eb} shift {shift} rev {rev} at ({i},{j})"
                );
            }
        }
    }

    #[test]
    fn transpose_stream_with_page_strides_matches_scalar_around_the_tiles() {
        // The f32 tile is 64 destination rows by 128 columns, the f64 one 32 by 64: sizes
        // below, at and past one and two tiles, with heads and tails of odd widths.
        let sizes: &[usize] = if cfg!(miri) {
            &[1, 21]
        } else {
            &[
                1, 7, 31, 32, 33, 63, 64, 65, 70, 127, 128, 129, 200, 257, 300,
            ]
        };
        for (k, &ea) in sizes.iter().enumerate() {
            for (l, &eb) in sizes.iter().enumerate() {
                let rev = (k + l) % 3 == 0;
                check_tiled([ea, eb], (k * 5 + l) % 16, rev, |x| x as f32, -1.0);
                check_tiled(
                    [ea, eb],
                    (k + l * 3) % 8,
                    rev,
                    |x| x as u64 * 0x1_0000_0001,
                    0,
                );
            }
        }
        // Every width 1..=70 on one side, a tile and a half on the other (not under Miri:
        // the portable tiles ran above).
        if cfg!(miri) {
            return;
        }
        for &w in widths() {
            check_tiled([w, 200], w % 16, w % 2 == 0, |x| x as f32, -1.0);
            check_tiled([100, w], w % 16, w % 3 == 0, |x| x as f32, -1.0);
            check_tiled([w, 100], w % 8, false, |x| x as u64, u64::MAX);
            check_tiled([50, w], w % 8, true, |x| x as u64, u64::MAX);
        }
    }

    #[test]
    fn tile_blocks_portable_matches_scalar_at_odd_sizes() {
        for &ea in widths() {
            for eb in [1, 9, 17, 33, 70] {
                for shift in [0, 1, 3] {
                    check_tile_portable(ea, eb, shift);
                }
            }
        }
    }

    /// `tile_blocks` with portable 2 × 2 micro-kernels in 8 × 4 tiles, on `u128` rows
    /// (lines of 4 elements), against the index formula; every tile row written out starts
    /// on a line.
    fn check_tile_portable(ea: usize, eb: usize, shift: usize) {
        let dr = eb.div_ceil(4) * 4 + 4;
        let sr = ea + 3;
        let src: Vec<u128> = (0..sr * eb).map(|x| x as u128).collect();
        let mut buf = std::vec![u128::MAX; dr * ea + 8 + shift];
        let base = buf.as_ptr().align_offset(LINE) + shift;
        let dst = &mut buf[base..];
        // SAFETY: as in `check_stream`.
        unsafe {
            tile_blocks::<u128, 8, 4, 2>(
                dst.as_mut_ptr(),
                dr as isize,
                src.as_ptr(),
                sr as isize,
                [ea, eb],
                |t, s| micro_portable::<u128, 2>(t, 8, s, sr as isize),
                |d, s, a, b| portable_block(d, dr as isize, s, sr as isize, a, b),
                |_| {},
                |d, t| {
                    assert_eq!(d.align_offset(LINE), 0, "tile row not line-aligned");
                    core::ptr::copy_nonoverlapping(t, d, 8);
                },
            );
        }
        for i in 0..ea {
            for j in 0..dr {
                let want = if j < eb { src[i + j * sr] } else { u128::MAX };
                assert_eq!(
                    dst[i * dr + j],
                    want,
                    "{ea}x{eb} shift {shift} at ({i},{j})"
                );
            }
        }
    }

    #[test]
    fn line_blocks_portable_matches_scalar_at_odd_sizes() {
        for (ea, eb) in [
            (1, 1),
            (4, 4),
            (5, 9),
            (12, 70),
            (33, 17),
            (64, 64),
            (70, 3),
        ] {
            for shift in [0, 1, 3] {
                check_portable(ea, eb, shift);
            }
        }
    }

    /// `line_blocks` with the portable 4 × 4 micro-kernel, on a buffer whose lines hold 4
    /// elements (16-byte elements are not needed: the kernel only aligns to `LINE` bytes, so
    /// `u128` rows of 4 are lines).
    fn check_portable(ea: usize, eb: usize, shift: usize) {
        let dr = eb.div_ceil(4) * 4 + 4;
        let sr = ea + 1;
        let src: Vec<u128> = (0..sr * eb).map(|x| x as u128).collect();
        let mut buf = std::vec![u128::MAX; dr * ea + 8 + shift];
        let base = buf.as_ptr().align_offset(LINE) + shift;
        let dst = &mut buf[base..];
        // SAFETY: as in `check_stream`.
        unsafe {
            line_blocks::<u128, 4>(
                dst.as_mut_ptr(),
                dr as isize,
                src.as_ptr(),
                sr as isize,
                [ea, eb],
                |d, s| {
                    assert_eq!(d.align_offset(LINE), 0, "micro-kernel row not line-aligned");
                    micro_portable::<u128, 4>(d, dr as isize, s, sr as isize);
                },
                |d, s, a, b| portable_block(d, dr as isize, s, sr as isize, a, b),
                |_| {},
            );
        }
        for i in 0..ea {
            for j in 0..dr {
                let want = if j < eb { src[i + j * sr] } else { u128::MAX };
                assert_eq!(
                    dst[i * dr + j],
                    want,
                    "{ea}x{eb} shift {shift} at ({i},{j})"
                );
            }
        }
    }

    #[test]
    fn portable_micro_kernel_transposes_a_block() {
        let src: Vec<f32> = (0..16).map(|x| x as f32).collect();
        let mut dst = [0f32; 16];
        // SAFETY: 4 × 4 elements in each buffer.
        unsafe { micro_portable::<f32, 4>(dst.as_mut_ptr(), 4, src.as_ptr(), 4) };
        for i in 0..4 {
            for j in 0..4 {
                assert_eq!(dst[i * 4 + j], src[i + j * 4]);
            }
        }
    }
}
