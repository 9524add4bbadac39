//! The x86-64 micro-kernels: SSE2 blocks; the one 8 × 8 4-byte tile of AVX2 ([`band`]), with
//! the 4-byte transposes built on it, and its shuffles ([`network`]) through a row pointer
//! each for the grouped transpose; the AVX `f64` blocks and line kernels.

use core::arch::x86_64::{
    __m128i, _mm_loadl_epi64, _mm_loadu_si128, _mm_storel_epi64, _mm_storeu_si128,
    _mm_unpackhi_epi16, _mm_unpackhi_epi32, _mm_unpackhi_epi64, _mm_unpacklo_epi8,
    _mm_unpacklo_epi16, _mm_unpacklo_epi32, _mm_unpacklo_epi64,
};
use core::arch::x86_64::{__m256d, _MM_HINT_T1, _mm_prefetch, _mm256_setzero_pd, _mm256_stream_pd};
use core::arch::x86_64::{
    __m256i, _MM_HINT_T0, _mm256_castsi128_si256, _mm256_inserti128_si256, _mm256_load_si256,
    _mm256_storeu_si256, _mm256_stream_si256,
};
use core::arch::x86_64::{
    _mm_loadu_pd, _mm_storeu_pd, _mm_unpackhi_pd, _mm_unpacklo_pd, _mm256_loadu_pd,
    _mm256_permute2f128_pd, _mm256_storeu_pd, _mm256_unpackhi_pd, _mm256_unpacklo_pd,
};
use core::arch::x86_64::{
    _mm_loadu_ps, _mm_movehl_ps, _mm_movelh_ps, _mm_storeu_ps, _mm_unpackhi_ps, _mm_unpacklo_ps,
};
use core::arch::x86_64::{_mm256_loadu_si256, _mm256_permute2x128_si256, _mm256_setzero_si256};
use core::ptr;

use super::blocks_and_strips;
#[cfg(not(target_os = "none"))]
use super::grouped::Grouped;
use super::stream::{LINE, aliasing, line_blocks, tile_blocks, whole_lines};
use super::transpose_unchecked;
use crate::kernel::drive::step;
use crate::kernel::stream::stream_copy_unchecked;
use core::mem::size_of;

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
pub(crate) unsafe fn micro_sse2_u8(d: *mut u8, dr: isize, s: *const u8, sr: isize) {
    let r: [__m128i; 8] = core::array::from_fn(|j| {
        // SAFETY: `s + j·sr` (`j < 8`) is an element of the source slice (contract).
        let row = unsafe { s.offset(step(j, sr)) };
        // SAFETY: row `j` of 8 bytes at `row` (contract); an 8-byte unaligned load; SSE2 is
        // part of x86-64.
        unsafe { _mm_loadl_epi64(row.cast::<__m128i>()) }
    });
    // Pairs of rows interleaved by byte, then by 2 and 4 bytes: `c[k]` holds columns
    // `2k` and `2k + 1`, eight bytes each.
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let a0 = unsafe { _mm_unpacklo_epi8(r[0], r[1]) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let a1 = unsafe { _mm_unpacklo_epi8(r[2], r[3]) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let a2 = unsafe { _mm_unpacklo_epi8(r[4], r[5]) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let a3 = unsafe { _mm_unpacklo_epi8(r[6], r[7]) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let b0 = unsafe { _mm_unpacklo_epi16(a0, a1) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let b1 = unsafe { _mm_unpackhi_epi16(a0, a1) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let b2 = unsafe { _mm_unpacklo_epi16(a2, a3) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let b3 = unsafe { _mm_unpackhi_epi16(a2, a3) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let c0 = unsafe { _mm_unpacklo_epi32(b0, b2) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let c1 = unsafe { _mm_unpackhi_epi32(b0, b2) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let c2 = unsafe { _mm_unpacklo_epi32(b1, b3) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let c3 = unsafe { _mm_unpackhi_epi32(b1, b3) };
    for (k, c) in [c0, c1, c2, c3].into_iter().enumerate() {
        let i = k.wrapping_mul(2);
        // SAFETY: `d + 2k·dr` (`2k < 8`) is an element of the destination slice (contract).
        let lo = unsafe { d.offset(step(i, dr)) };
        // SAFETY: row `2k` of 8 bytes at `lo` (contract); an 8-byte unaligned store; SSE2 is
        // part of x86-64.
        unsafe { _mm_storel_epi64(lo.cast::<__m128i>(), c) };
        // SAFETY: `d + (2k + 1)·dr` (`2k + 1 < 8`) is an element of the destination slice
        // (contract).
        let hi = unsafe { d.offset(step(i | 1, dr)) };
        // SAFETY: SSE2 is part of x86-64 (a register unpack).
        let upper = unsafe { _mm_unpackhi_epi64(c, c) };
        // SAFETY: row `2k + 1` of 8 bytes at `hi` (contract); an 8-byte unaligned store;
        // SSE2 is part of x86-64.
        unsafe { _mm_storel_epi64(hi.cast::<__m128i>(), upper) };
    }
}

/// One 8 × 8 block of 2-byte elements: `d[i·dr + j] = s[i + j·sr]`, SSE2.
///
/// # Safety
///
/// Every `d + i·dr + j` and `s + i + j·sr` (`i, j < 8`) is an element of its slice.
#[expect(
    clippy::cast_ptr_alignment,
    reason = "the vector pointers are only used with unaligned loads and stores"
)]
#[inline(always)]
pub(crate) unsafe fn micro_sse2_u16(d: *mut u16, dr: isize, s: *const u16, sr: isize) {
    let r: [__m128i; 8] = core::array::from_fn(|j| {
        // SAFETY: `s + j·sr` (`j < 8`) is an element of the source slice (contract).
        let row = unsafe { s.offset(step(j, sr)) };
        // SAFETY: row `j` of 8 elements at `row` (contract); an unaligned load; SSE2 is part
        // of x86-64.
        unsafe { _mm_loadu_si128(row.cast::<__m128i>()) }
    });
    for (i, v) in network_u16(r).into_iter().enumerate() {
        // SAFETY: `d + i·dr` (`i < 8`) is an element of the destination slice (contract).
        let row = unsafe { d.offset(step(i, dr)) };
        // SAFETY: row `i` of 8 elements at `row` (contract); an unaligned store; SSE2 is part
        // of x86-64.
        unsafe { _mm_storeu_si128(row.cast::<__m128i>(), v) };
    }
}

/// The shuffles of the 8 × 8 2-byte tile: eight rows of eight elements, as the eight columns.
#[inline(always)]
fn network_u16(r: [__m128i; 8]) -> [__m128i; 8] {
    // Pairs of rows interleaved by element, then by 2 and 4 elements.
    let [r0, r1, r2, r3, r4, r5, r6, r7] = r;
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let a0 = unsafe { _mm_unpacklo_epi16(r0, r1) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let a1 = unsafe { _mm_unpackhi_epi16(r0, r1) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let a2 = unsafe { _mm_unpacklo_epi16(r2, r3) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let a3 = unsafe { _mm_unpackhi_epi16(r2, r3) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let a4 = unsafe { _mm_unpacklo_epi16(r4, r5) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let a5 = unsafe { _mm_unpackhi_epi16(r4, r5) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let a6 = unsafe { _mm_unpacklo_epi16(r6, r7) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let a7 = unsafe { _mm_unpackhi_epi16(r6, r7) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let b0 = unsafe { _mm_unpacklo_epi32(a0, a2) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let b1 = unsafe { _mm_unpackhi_epi32(a0, a2) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let b2 = unsafe { _mm_unpacklo_epi32(a1, a3) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let b3 = unsafe { _mm_unpackhi_epi32(a1, a3) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let b4 = unsafe { _mm_unpacklo_epi32(a4, a6) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let b5 = unsafe { _mm_unpackhi_epi32(a4, a6) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let b6 = unsafe { _mm_unpacklo_epi32(a5, a7) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let b7 = unsafe { _mm_unpackhi_epi32(a5, a7) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let c0 = unsafe { _mm_unpacklo_epi64(b0, b4) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let c1 = unsafe { _mm_unpackhi_epi64(b0, b4) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let c2 = unsafe { _mm_unpacklo_epi64(b1, b5) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let c3 = unsafe { _mm_unpackhi_epi64(b1, b5) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let c4 = unsafe { _mm_unpacklo_epi64(b2, b6) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let c5 = unsafe { _mm_unpackhi_epi64(b2, b6) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let c6 = unsafe { _mm_unpacklo_epi64(b3, b7) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let c7 = unsafe { _mm_unpackhi_epi64(b3, b7) };
    [c0, c1, c2, c3, c4, c5, c6, c7]
}

/// One 4 × 4 block: `d[i·dr + j] = s[i + j·sr]`, SSE2.
///
/// # Safety
///
/// Every `d + i·dr + j` and `s + i + j·sr` (`i, j < 4`) is an element of its slice.
#[inline(always)]
pub(crate) unsafe fn micro_sse2(d: *mut f32, dr: isize, s: *const f32, sr: isize) {
    // SAFETY: row 0 of 4 elements at `s` (contract); an unaligned load; SSE is part of
    // x86-64.
    let r0 = unsafe { _mm_loadu_ps(s) };
    // SAFETY: `s + sr` is an element of the source slice (contract).
    let s1 = unsafe { s.offset(sr) };
    // SAFETY: row 1 of 4 elements at `s1` (contract); an unaligned load; SSE.
    let r1 = unsafe { _mm_loadu_ps(s1) };
    // SAFETY: `s + 2·sr` is an element of the source slice (contract).
    let s2 = unsafe { s.offset(step(2, sr)) };
    // SAFETY: row 2 of 4 elements at `s2` (contract); an unaligned load; SSE.
    let r2 = unsafe { _mm_loadu_ps(s2) };
    // SAFETY: `s + 3·sr` is an element of the source slice (contract).
    let s3 = unsafe { s.offset(step(3, sr)) };
    // SAFETY: row 3 of 4 elements at `s3` (contract); an unaligned load; SSE.
    let r3 = unsafe { _mm_loadu_ps(s3) };
    // SAFETY: SSE is part of x86-64 (a register shuffle).
    let t0 = unsafe { _mm_unpacklo_ps(r0, r1) };
    // SAFETY: SSE is part of x86-64 (a register shuffle).
    let t1 = unsafe { _mm_unpacklo_ps(r2, r3) };
    // SAFETY: SSE is part of x86-64 (a register shuffle).
    let t2 = unsafe { _mm_unpackhi_ps(r0, r1) };
    // SAFETY: SSE is part of x86-64 (a register shuffle).
    let t3 = unsafe { _mm_unpackhi_ps(r2, r3) };
    // SAFETY: SSE is part of x86-64 (a register shuffle).
    let o0 = unsafe { _mm_movelh_ps(t0, t1) };
    // SAFETY: row 0 of 4 elements at `d` (contract); an unaligned store; SSE.
    unsafe { _mm_storeu_ps(d, o0) };
    // SAFETY: `d + dr` is an element of the destination slice (contract).
    let d1 = unsafe { d.offset(dr) };
    // SAFETY: SSE is part of x86-64 (a register shuffle).
    let o1 = unsafe { _mm_movehl_ps(t1, t0) };
    // SAFETY: row 1 of 4 elements at `d1` (contract); an unaligned store; SSE.
    unsafe { _mm_storeu_ps(d1, o1) };
    // SAFETY: `d + 2·dr` is an element of the destination slice (contract).
    let d2 = unsafe { d.offset(step(2, dr)) };
    // SAFETY: SSE is part of x86-64 (a register shuffle).
    let o2 = unsafe { _mm_movelh_ps(t2, t3) };
    // SAFETY: row 2 of 4 elements at `d2` (contract); an unaligned store; SSE.
    unsafe { _mm_storeu_ps(d2, o2) };
    // SAFETY: `d + 3·dr` is an element of the destination slice (contract).
    let d3 = unsafe { d.offset(step(3, dr)) };
    // SAFETY: SSE is part of x86-64 (a register shuffle).
    let o3 = unsafe { _mm_movehl_ps(t3, t2) };
    // SAFETY: row 3 of 4 elements at `d3` (contract); an unaligned store; SSE.
    unsafe { _mm_storeu_ps(d3, o3) };
}

/// The large transpose of 4-byte elements for page-sized row strides, or destination rows
/// that are not a whole number of lines apart: 128-source-row by 64-column stack tiles of
/// 8 × 8 blocks ([`band`]), written out with non-temporal stores with `nt`, else plain ones
/// ([`row_out`]).
///
/// # Safety
///
/// AVX2 is present, `transpose_unchecked`'s contract holds for 4-byte elements, and `dr` is
/// positive.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn transpose_tiled_avx2(
    d: *mut u32,
    dr: isize,
    s: *const u32,
    sr: isize,
    ea: usize,
    eb: usize,
    nt: bool,
) {
    let micro = |t: *mut u32, s: *const u32| {
        // SAFETY: `tile_blocks` hands over an 8 × 8 block inside the tile and the block (its
        // contract), which the caller's contract covers; AVX2 is present for the kernel.
        unsafe { band::<1, false>(t, 128, s, sr, 0, 0) }
    };
    let edge = |d: *mut u32, s: *const u32, ea: usize, eb: usize| {
        // SAFETY: `tile_blocks` hands over an edge sub-block of the block (its contract),
        // for which the caller's contract holds.
        unsafe { super::transpose_unchecked(d, dr, s, sr, ea, eb) }
    };
    let out = |d: *mut u32, t: *const u32| {
        // SAFETY: `tile_blocks` hands over 128 initialised elements of a tile row and a
        // destination row of the block (its contract, and the caller's); AVX is present.
        unsafe { row_out(d, t, 128, nt) }
    };
    // SAFETY: the caller's contract for the block; the kernels above do what
    // `tile_blocks` asks of them.
    unsafe {
        tile_blocks::<u32, 128, 64, 8>(d, dr, s, sr, [ea, eb], micro, edge, prefetch_t0, out);
    }
}

/// [`transpose_tiled_avx2`] for `f64`: 64-source-row by 32-column tiles of 4 × 4 blocks.
///
/// # Safety
///
/// AVX is present, `transpose_unchecked`'s contract holds for 8-byte elements, and `dr`
/// is positive.
#[target_feature(enable = "avx")]
pub(super) unsafe fn transpose_tiled_avx_f64(
    d: *mut f64,
    dr: isize,
    s: *const f64,
    sr: isize,
    ea: usize,
    eb: usize,
    nt: bool,
) {
    let micro = |t: *mut f64, s: *const f64| {
        // SAFETY: as in `transpose_tiled_avx2`: a 4 × 4 block inside the tile and the block.
        unsafe { micro_avx_f64(t, 64, s, sr) }
    };
    let edge = |d: *mut f64, s: *const f64, ea: usize, eb: usize| {
        // SAFETY: as in `transpose_tiled_avx2`: an edge sub-block of the block, for which the
        // caller's contract holds for 8-byte elements.
        unsafe { super::transpose_unchecked(d, dr, s, sr, ea, eb) }
    };
    let out = |d: *mut f64, t: *const f64| {
        // SAFETY: as in `transpose_tiled_avx2`: 64 elements of a tile row and a destination
        // row of the block.
        unsafe { row_out(d, t, 64, nt) }
    };
    // SAFETY: as in `transpose_tiled_avx2`, with 8-byte elements.
    unsafe { tile_blocks::<f64, 64, 32, 4>(d, dr, s, sr, [ea, eb], micro, edge, prefetch_t0, out) };
}

/// Writes the `n` elements of a tile row `t` (`n · size` a multiple of 64) to the
/// destination row `d`: without `nt` with plain stores; with `nt` with non-temporal ones,
/// [`stream_row_avx`] where `d` starts a line (every row, when the rows are a whole number
/// of lines apart: `tile_blocks` starts the tiles on a line boundary then), else the
/// streaming copy for any alignment, whose first and last partial lines take plain stores.
///
/// # Safety
///
/// AVX is present; `t..t + n` are initialised elements of the 64-byte-aligned tile, and
/// `d..d + n` elements of the destination slice; `E` is a plain 4- or 8-byte primitive.
#[target_feature(enable = "avx")]
#[inline]
unsafe fn row_out<E: 'static>(d: *mut E, t: *const E, n: usize, nt: bool) {
    if !nt {
        // SAFETY: the contract: `n` elements each side, a tile on the stack and the
        // destination slice, which do not overlap.
        unsafe { ptr::copy_nonoverlapping(t, d, n) };
    } else if d.cast::<u8>().align_offset(LINE) == 0 {
        // SAFETY: the contract, in bytes (`n · size` is a multiple of 64), `d` 64-byte
        // aligned (tested) and `t` too (the tile's rows).
        unsafe { stream_row_avx(d.cast(), t.cast(), n.wrapping_mul(size_of::<E>())) };
    } else {
        // SAFETY: the contract: `n` elements each side, a tile on the stack and the
        // destination slice, which do not overlap; `E` plain.
        unsafe { stream_copy_unchecked(d, t, n) };
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
        // SAFETY: 32 bytes at `k < n` of the tile (contract), 32-byte aligned; AVX is
        // present (this function's feature).
        let v = unsafe { _mm256_load_si256(t.wrapping_add(k).cast::<__m256i>()) };
        // SAFETY: 32 bytes at `k < n` of the destination (contract), 32-byte aligned; AVX.
        unsafe { _mm256_stream_si256(d.wrapping_add(k).cast::<__m256i>(), v) };
    }
}

/// Hints the first-level cache to fetch the line at `p` (never faults, whatever `p`): the
/// tiled transpose reads a prefetched line within one tile.
#[inline(always)]
fn prefetch_t0<E>(p: *const E) {
    // SAFETY: SSE is part of x86-64; `prefetcht0` is a hint that never faults.
    unsafe { _mm_prefetch::<_MM_HINT_T0>(p.cast::<i8>()) };
}

/// One 16 × 16 block of 4-byte elements (one 64-byte line per row on each side), each
/// destination row's two halves stored back to back. With `NT` (past the last-level cache)
/// its destination rows are written with non-temporal stores, so the write-combining buffer
/// fills and leaves as one memory transaction, and each source row's whole line is loaded at
/// once (two loads), so a line is read from memory once even where the rows alias in the L1
/// cache; the tiles are [`band`]'s, their lane pairs formed in registers
/// ([`tile_of_rows`]). Without, two [`band`]s of two tiles, unless the source rows are a
/// multiple of 2 KiB apart (they alias in the L1 cache: whole lines then too).
///
/// Both choices were measured on an AMD EPYC host (Zen, AVX2) against the other: two bands
/// streaming took 4000² 10% longer; whole lines in the cache took 256² and 2000² 10-15%
/// longer, 512² (rows 2 KiB apart) 5% shorter.
///
/// # Safety
///
/// AVX2 is present; every `d + i·dr + j` and `s + i + j·sr` (`i, j < 16`) is an element of
/// its slice, and with `NT` every `d + i·dr` is 32-byte aligned.
#[target_feature(enable = "avx2")]
#[inline]
#[expect(
    clippy::cast_ptr_alignment,
    reason = "the vector pointers are only used with unaligned loads and stores, or aligned \
              ones where the contract gives the alignment"
)]
pub(super) unsafe fn line_avx2<const NT: bool>(d: *mut u32, dr: isize, s: *const u32, sr: isize) {
    // Source rows a multiple of 2 KiB apart fall in at most two sets of a 64-set L1 cache,
    // eight rows a set: read half a line at a time, they would evict each other.
    if !NT
        && !sr
            .unsigned_abs()
            .wrapping_mul(size_of::<u32>())
            .is_multiple_of(2048)
    {
        for i in [0, 8] {
            // SAFETY: the contract, with `i + 8 <= 16` and `0 + 16 <= 16`.
            unsafe { band::<2, false>(d, dr, s, sr, i, 0) };
        }
        return;
    }
    let zero = _mm256_setzero_si256();
    let mut out = [[[zero; 8]; 2]; 2];
    for (g, half) in out.iter_mut().enumerate() {
        let row = |j: usize| s.wrapping_offset(step(g.wrapping_mul(8).wrapping_add(j), sr));
        let lo: [__m256i; 8] = core::array::from_fn(|j| {
            // SAFETY: row `8g + j < 16` of 16 elements at `s + (8g + j)·sr` (contract), its
            // first 8; AVX2 is present (contract).
            unsafe { _mm256_loadu_si256(row(j).cast::<__m256i>()) }
        });
        let hi: [__m256i; 8] = core::array::from_fn(|j| {
            // SAFETY: the last 8 of row `8g + j`'s 16 elements (contract); AVX2.
            unsafe { _mm256_loadu_si256(row(j).wrapping_add(8).cast::<__m256i>()) }
        });
        *half = [tile_of_rows(&lo), tile_of_rows(&hi)];
    }
    let [left, right] = out;
    for (h, (l, r)) in left.iter().zip(&right).enumerate() {
        for (i, (&a, &b)) in l.iter().zip(r).enumerate() {
            // Destination row `8h + i < 16`: its first 8 elements from source rows 0..8, its
            // last 8 from rows 8..16.
            let p = d.wrapping_offset(step(h.wrapping_mul(8).wrapping_add(i), dr));
            let q = p.wrapping_add(8);
            if NT {
                // SAFETY: the row's first 8 elements at `p` (contract), 32-byte aligned; AVX.
                unsafe { _mm256_stream_si256(p.cast::<__m256i>(), a) };
                // SAFETY: the row's last 8 elements at `q`, 32-byte aligned (`p` is, and `q`
                // is 32 bytes on); AVX.
                unsafe { _mm256_stream_si256(q.cast::<__m256i>(), b) };
            } else {
                // SAFETY: the row's first 8 elements at `p` (contract); AVX.
                unsafe { _mm256_storeu_si256(p.cast::<__m256i>(), a) };
                // SAFETY: the row's last 8 elements at `q` (contract); AVX.
                unsafe { _mm256_storeu_si256(q.cast::<__m256i>(), b) };
            }
        }
    }
}

/// `d[i·dr + j] = s[i + j·sr]` for `i < ea`, `j < eb`, in 8 × 8 tiles of 4-byte elements
/// ([`band`]), the edge strips in 4 × 4 SSE2 blocks, then the last elements one by one: the
/// cached 4-byte transpose of a CPU with AVX2.
///
/// # Safety
///
/// AVX2 is present, and `transpose_unchecked`'s contract holds for 4-byte elements.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn transpose_avx2(
    d: *mut u32,
    dr: isize,
    s: *const u32,
    sr: isize,
    ea: usize,
    eb: usize,
) {
    let tile = |d: *mut u32, s: *const u32| {
        // SAFETY: `blocks_and_strips` hands over one whole 8 × 8 block of the transpose (its
        // contract), which the caller's contract covers; AVX2 is present (this function's
        // feature).
        unsafe { band::<1, false>(d, dr, s, sr, 0, 0) }
    };
    let micro = |d: *mut u32, s: *const u32| {
        // SAFETY: `blocks_and_strips` hands over one whole 4 × 4 block of an edge strip (its
        // contract), which the caller's contract covers; SSE2 is part of x86-64.
        unsafe { micro_sse2(d.cast::<f32>(), dr, s.cast::<f32>(), sr) }
    };
    // SAFETY: the caller's contract; the kernels are sound for the blocks they are handed.
    unsafe { blocks_and_strips::<u32, 8, 4>(d, dr, s, sr, [ea, eb], tile, micro) };
}

/// `d[i·dr + j] = s[i + j·sr]` for `i < ea`, `j < eb`, in 8 × 8 tiles of 4-byte elements
/// ([`quarter`], [`band`]); a 16 × 16 block two tiles side by side.
///
/// # Safety
///
/// AVX2 is present; `ea` and `eb` are multiples of 8; every `d + i·dr + j` and
/// `s + i + j·sr` is an element of its slice, no destination element a source one.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn tiles8_avx2(
    d: *mut u32,
    dr: isize,
    s: *const u32,
    sr: isize,
    ea: usize,
    eb: usize,
) {
    if ea == 16 && eb == 16 {
        // SAFETY: the contract, with `ea = eb = 16`.
        unsafe { square16_avx2(d, dr, s, sr) };
        return;
    }
    if ea == 8 && eb == 8 {
        // One tile, without the loops' set-up (7.8 -> 7.0 ns on an Intel Xeon server core).
        // SAFETY: the contract, with `ea = eb = 8`.
        unsafe { band::<1, false>(d, dr, s, sr, 0, 0) };
        return;
    }
    // One tile a step: in this loop, two tiles side by side (as in `square16_avx2`) measured
    // slower, 39 against 33 ns for 24 × 24 and 66 against 59 ns for 32 × 32 on that core.
    let mut i = 0usize;
    while i < ea {
        let mut j = 0usize;
        while j < eb {
            // SAFETY: the contract, with `i + 8 <= ea` and `j + 8 <= eb` (multiples of 8).
            unsafe { band::<1, false>(d, dr, s, sr, i, j) };
            j = j.wrapping_add(8);
        }
        i = i.wrapping_add(8);
    }
}

/// [`tiles8_avx2`] of a 16 × 16 block, the commonest small transpose: its two bands in
/// straight-line code, in a function of its own (inside [`tiles8_avx2`], LLVM prepared the
/// loop's address arithmetic for both paths and spilled it to the stack: 25-27 ns against
/// 15.7-17.3 ns for the older float kernel on an Intel Xeon server core).
///
/// # Safety
///
/// As [`tiles8_avx2`] with `ea = eb = 16`.
#[target_feature(enable = "avx2")]
#[inline(never)]
unsafe fn square16_avx2(d: *mut u32, dr: isize, s: *const u32, sr: isize) {
    for i in [0, 8] {
        // SAFETY: the contract, with `i + 8 <= 16` and `0 + 16 <= 16`.
        unsafe { band::<2, false>(d, dr, s, sr, i, 0) };
    }
}

/// The grouped transpose ([`Grouped::run_with`]) with AVX2's 8 × 8 tile ([`tile_of_pointers`]).
///
/// # Safety
///
/// AVX2 is present, and [`Grouped::run`]'s contract holds for `g`, whose `T` is 4 bytes.
#[cfg(not(target_os = "none"))]
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn grouped_avx2<T: 'static>(g: &Grouped<T>, d: *mut u32, s: *const u32) {
    let tile = |dst: [*mut u32; 8], src: [*const u32; 8]| {
        // SAFETY: `run_with` hands over tiles of the cube (its contract); AVX2 is present
        // (this function's feature).
        unsafe { tile_of_pointers(dst, src) };
    };
    // SAFETY: the caller's contract; the tile copies exactly the tile it is handed.
    unsafe { g.run_with::<u32, 8>(d, s, tile) };
}

/// One 8 × 8 tile of 2-byte elements through row pointers: `dst[k] + i = src[i] + k` (`i, k
/// < 8`), SSE2 ([`network_u16`], the shuffles of [`micro_sse2_u16`]).
///
/// # Safety
///
/// Every `src[i] + k` and `dst[k] + i` (`i, k < 8`) is an element of its allocation, no
/// destination element a source one.
#[cfg(not(target_os = "none"))]
#[inline(always)]
#[expect(
    clippy::cast_ptr_alignment,
    reason = "the vector pointers are only used with unaligned loads and stores"
)]
pub(crate) unsafe fn tile_u16_of_pointers(dst: [*mut u16; 8], src: [*const u16; 8]) {
    let rows = src.map(|p| {
        // SAFETY: source row `i < 8`, its eight elements (contract); an unaligned load; SSE2
        // is part of x86-64.
        unsafe { _mm_loadu_si128(p.cast::<__m128i>()) }
    });
    for (p, v) in dst.into_iter().zip(network_u16(rows)) {
        // SAFETY: destination row `k < 8`, its eight elements (contract); an unaligned store;
        // SSE2.
        unsafe { _mm_storeu_si128(p.cast::<__m128i>(), v) };
    }
}

/// The grouped transpose ([`Grouped::run_with`]) of 8-byte elements with AVX's 4 × 4 tile
/// ([`t4`]) through row pointers.
///
/// # Safety
///
/// AVX is present, and [`Grouped::run`]'s contract holds for `g`, whose `T` is 8 bytes.
#[cfg(not(target_os = "none"))]
#[target_feature(enable = "avx")]
pub(crate) unsafe fn grouped_avx_f64<T: 'static>(g: &Grouped<T>, d: *mut f64, s: *const f64) {
    let tile = |dst: [*mut f64; 4], src: [*const f64; 4]| {
        let rows = src.map(|p| {
            // SAFETY: `run_with` hands over tiles of the cube (its contract): source row
            // `i < 4`, its four elements; AVX is present (this function's feature).
            unsafe { _mm256_loadu_pd(p) }
        });
        for (p, v) in dst.into_iter().zip(t4(rows)) {
            // SAFETY: destination row `k < 4`, its four elements (likewise); AVX.
            unsafe { _mm256_storeu_pd(p, v) };
        }
    };
    // SAFETY: the caller's contract; the tile copies exactly the tile it is handed.
    unsafe { g.run_with::<f64, 4>(d, s, tile) };
}

/// One 8 × 8 tile of 4-byte elements through row pointers: `dst[k] + i = src[i] + k` (`i, k <
/// 8`), each source row read and each destination row written as eight consecutive
/// elements, the rows wherever they are ([`quarter`]'s loads and [`network`]).
///
/// # Safety
///
/// AVX2 is present; every `src[i] + k` and `dst[k] + i` (`i, k < 8`) is an element of its
/// allocation, no destination element a source one.
#[cfg(not(target_os = "none"))]
#[target_feature(enable = "avx2")]
#[inline]
#[expect(
    clippy::cast_ptr_alignment,
    reason = "the vector pointers are only used with unaligned loads and stores"
)]
unsafe fn tile_of_pointers(dst: [*mut u32; 8], src: [*const u32; 8]) {
    let rows = src.map(|p| {
        // SAFETY: source row `i < 8`, its eight elements (contract); an unaligned load; AVX.
        unsafe { _mm256_loadu_si256(p.cast::<__m256i>()) }
    });
    for (p, v) in dst.into_iter().zip(tile_of_rows(&rows)) {
        // SAFETY: destination row `k < 8`, its eight elements (contract); an unaligned
        // store; AVX.
        unsafe { _mm256_storeu_si256(p.cast::<__m256i>(), v) };
    }
}

/// Destination rows `i..i + 8`, columns `j..j + 8·W` of a 4-byte transpose: `W` 8 × 8 tiles
/// side by side, each destination row's `W` pieces stored one after the other, with
/// non-temporal stores with `NT`. The 8 × 8 4-byte transpose of x86-64's strided blocks:
/// every AVX2 path over rows a stride apart (small blocks, cached transposes, their edges,
/// the line and stack-tile kernels of the streaming transpose) takes it, and every 4-byte
/// tile, these and the grouped transpose's ([`tile_of_pointers`]), ends in its shuffles
/// ([`network`]). Consecutive
/// stores into one cache line retire two a cycle on the Intel cores measured, stores to
/// different lines one: on one 16 × 16 block (Intel Xeon server core, 4 GHz), a row's two
/// halves stored together took 44 cycles against 51-54 a tile at a time.
///
/// # Safety
///
/// As [`tiles8_avx2`], with `i + 8 <= ea` and `j + 8·W <= eb` (whatever `ea` and `eb`); with
/// `NT`, every destination row from column `j` is 32-byte aligned.
#[target_feature(enable = "avx2")]
#[inline]
#[expect(
    clippy::cast_ptr_alignment,
    reason = "the vector pointers are only used with unaligned stores"
)]
unsafe fn band<const W: usize, const NT: bool>(
    d: *mut u32,
    dr: isize,
    s: *const u32,
    sr: isize,
    i: usize,
    j: usize,
) {
    for c in [0, 4] {
        // Tile `t`'s source: rows `j + 8t..` from column `i` (in bounds by the contract).
        let quarters: [[__m256i; 4]; W] = core::array::from_fn(|t| {
            let at = j.wrapping_add(t.wrapping_mul(8));
            let st = s.wrapping_offset(step(i, 1).wrapping_add(step(at, sr)));
            // SAFETY: source rows `at + q` (`q < 8`, `at + 8 <= eb`), columns `i + c..i +
            // c + 4` (`c + 4 <= 8`, `i + 8 <= ea`), are elements of the source (contract);
            // AVX2 is present.
            unsafe { quarter(st, sr, c) }
        });
        for k in 0..4 {
            let row = d.wrapping_offset(step(i.wrapping_add(c).wrapping_add(k), dr));
            for (t, q) in quarters.iter().enumerate() {
                let at = row.wrapping_add(j.wrapping_add(t.wrapping_mul(8)));
                if let Some(&v) = q.get(k) {
                    if NT {
                        // SAFETY: destination row `i + c + k < i + 8 <= ea`, eight elements
                        // from column `j + 8t` (`j + 8t + 8 <= eb`), of the destination,
                        // 32-byte aligned (contract: the row is from `j`, and `8t` elements
                        // are 32 bytes on); AVX.
                        unsafe { _mm256_stream_si256(at.cast::<__m256i>(), v) };
                    } else {
                        // SAFETY: destination row `i + c + k < i + 8 <= ea`, eight elements
                        // from column `j + 8t` (`j + 8t + 8 <= eb`), of the destination
                        // (contract); unaligned store; AVX.
                        unsafe { _mm256_storeu_si256(at.cast::<__m256i>(), v) };
                    }
                }
            }
        }
    }
}

/// Columns `c..c + 4` of eight source rows `sr` apart, as four destination rows of eight
/// elements: `[k]` holds column `c + k` of rows 0..4 (low lane) and 4..8 (high), with 4 +
/// 4 integer unpacks after the loads:
///
/// - each register holds half a row in each lane, source rows `q` and `q + 4`, put together
///   by the load (`vinserti128` from memory runs on any vector port), so no lane swap is
///   left to do;
/// - the first step interleaves pairs of rows by element, the second by 64-bit halves.
///
/// The unpacks are the integer ones ([`unpack`]): on Intel's Golden Cove cores they issue
/// two a cycle (ports 1 and 5), the `f32` / `f64` forms one (port 5 only), which bound the
/// older kernel (12 shuffle-port instructions a tile with blends; 24 in the float kernel of
/// unpacks, shuffles and lane permutes this one replaced). Tried
/// and slower on that core: the second step as one shuffle and two blends (the older
/// kernel), half the first step as 64-bit shifts and blends, or as blends of loads one
/// element apart, and a 16 × 16 AVX-512 block of 128-bit inserts and in-lane shuffles
/// (16.6-18.8 ns). On AMD Zen 3, whose shuffles of every form issue two a cycle, the tile
/// has not been measured.
///
/// # Safety
///
/// AVX2 is present; `s + q·sr + c + e` (`q < 8`, `e < 4`) are elements of the source.
#[target_feature(enable = "avx2")]
#[inline]
#[expect(
    clippy::cast_ptr_alignment,
    reason = "the vector pointers are only used with unaligned loads"
)]
unsafe fn quarter(s: *const u32, sr: isize, c: usize) -> [__m256i; 4] {
    let r: [__m256i; 4] = core::array::from_fn(|q| {
        let at = |q: usize| {
            s.wrapping_offset(step(q, sr).wrapping_add(step(c, 1)))
                .cast::<__m128i>()
        };
        // SAFETY: source row `q < 8`, four elements from column `c`, are elements of the
        // source (contract); an unaligned load; AVX2.
        let low = unsafe { _mm_loadu_si128(at(q)) };
        // SAFETY: source row `q + 4 < 8`, four elements from column `c`, are elements of the
        // source (contract); an unaligned load; AVX2.
        let high = unsafe { _mm_loadu_si128(at(q.wrapping_add(4))) };
        _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(low), high)
    });
    network(r)
}

/// The shuffle network of the 8 × 8 4-byte tile: from four registers `r[q]` holding four
/// columns of source rows `q` (low lane) and `q + 4` (high lane), the four columns as
/// destination rows of eight elements, in 4 + 4 integer unpacks ([`quarter`]).
#[target_feature(enable = "avx2")]
#[inline]
fn network(r: [__m256i; 4]) -> [__m256i; 4] {
    let (l01, h01) = unpack::<32>(r[0], r[1]);
    let (l23, h23) = unpack::<32>(r[2], r[3]);
    let (c0, c1) = unpack::<64>(l01, l23);
    let (c2, c3) = unpack::<64>(h01, h23);
    [c0, c1, c2, c3]
}

/// The 8 × 8 tile of eight source rows already in registers (`rows[q]`: eight elements of
/// row `q`), as eight destination rows: the lane pairs [`network`] takes, formed with lane
/// permutes instead of [`quarter`]'s loads.
#[target_feature(enable = "avx2")]
#[inline]
fn tile_of_rows(rows: &[__m256i; 8]) -> [__m256i; 8] {
    let [r0, r1, r2, r3, r4, r5, r6, r7] = *rows;
    let low = [
        _mm256_permute2x128_si256::<0x20>(r0, r4),
        _mm256_permute2x128_si256::<0x20>(r1, r5),
        _mm256_permute2x128_si256::<0x20>(r2, r6),
        _mm256_permute2x128_si256::<0x20>(r3, r7),
    ];
    let high = [
        _mm256_permute2x128_si256::<0x31>(r0, r4),
        _mm256_permute2x128_si256::<0x31>(r1, r5),
        _mm256_permute2x128_si256::<0x31>(r2, r6),
        _mm256_permute2x128_si256::<0x31>(r3, r7),
    ];
    let ([c0, c1, c2, c3], [c4, c5, c6, c7]) = (network(low), network(high));
    [c0, c1, c2, c3, c4, c5, c6, c7]
}

/// The low and high in-lane interleaves of `a` and `b` by `BITS`-bit elements (32 or 64):
/// `vpunpckl*` / `vpunpckh*`, written out, because LLVM turns `_mm256_unpacklo_epi32` of
/// loaded data into `vunpcklps`, the form with half the throughput on Intel cores
/// ([`quarter`]).
#[target_feature(enable = "avx2")]
#[inline]
fn unpack<const BITS: u32>(a: __m256i, b: __m256i) -> (__m256i, __m256i) {
    // The two instructions for `$lo` / `$hi`, on `a` and `b` into `lo` and `hi`.
    macro_rules! pair {
        ($lo:literal, $hi:literal) => {{
            let (lo, hi);
            // SAFETY: two register-to-register unpacks (AVX2, present by the target
            // feature): they read `a` and `b`, write `lo` and `hi`, and touch no memory,
            // flags or other register.
            unsafe {
                core::arch::asm!(
                    concat!($lo, " {lo}, {a}, {b}"),
                    concat!($hi, " {hi}, {a}, {b}"),
                    a = in(ymm_reg) a,
                    b = in(ymm_reg) b,
                    lo = out(ymm_reg) lo,
                    hi = out(ymm_reg) hi,
                    options(pure, nomem, nostack, preserves_flags)
                );
            }
            (lo, hi)
        }};
    }
    if BITS == 64 {
        pair!("vpunpcklqdq", "vpunpckhqdq")
    } else {
        pair!("vpunpckldq", "vpunpckhdq")
    }
}

/// One 8 × 8 block of `f64` (one 64-byte line per row on each side); with `NT` its
/// destination rows are written with non-temporal stores, each line's two halves back to
/// back so the write-combining buffer fills and leaves as one memory transaction. Each source
/// row's whole line is loaded at once, so a line is read from memory once even where the rows
/// alias in the L1 cache.
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
        let lo: [__m256d; 4] = core::array::from_fn(|j| {
            // SAFETY: row `4g + j < 8` of 8 elements at `s + (4g + j)·sr` (contract), its
            // first 4; AVX is present (contract).
            unsafe { _mm256_loadu_pd(row(j)) }
        });
        let hi: [__m256d; 4] = core::array::from_fn(|j| {
            // SAFETY: element 4 of row `4g + j < 8` (8 elements, contract) is an element of
            // the source slice.
            let p = unsafe { row(j).add(4) };
            // SAFETY: the last 4 of the row's 8 elements at `p` (contract); AVX.
            unsafe { _mm256_loadu_pd(p) }
        });
        *half = [t4(lo), t4(hi)];
    }
    let [left, right] = out;
    for (h, (l, r)) in left.iter().zip(&right).enumerate() {
        for (i, (&a, &b)) in l.iter().zip(r).enumerate() {
            // SAFETY: `d + (4h + i)·dr` (`4h + i < 8`) is an element of the destination
            // slice (contract).
            let p = unsafe { d.offset(step(h.wrapping_mul(4).wrapping_add(i), dr)) };
            // SAFETY: element 4 of the row's 8 (contract) is an element of the destination
            // slice.
            let q = unsafe { p.add(4) };
            if NT {
                // SAFETY: the row's first 4 elements at `p`, 32-byte aligned (contract); AVX.
                unsafe { _mm256_stream_pd(p, a) };
                // SAFETY: the row's last 4 elements at `q`, 32-byte aligned (`p` is, and
                // `q` is 32 bytes on); AVX.
                unsafe { _mm256_stream_pd(q, b) };
            } else {
                // SAFETY: the row's first 4 elements at `p` (contract); AVX.
                unsafe { _mm256_storeu_pd(p, a) };
                // SAFETY: the row's last 4 elements at `q` (contract); AVX.
                unsafe { _mm256_storeu_pd(q, b) };
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
pub(crate) unsafe fn micro_sse2_f64(d: *mut f64, dr: isize, s: *const f64, sr: isize) {
    // SAFETY: row 0 of 2 elements at `s` (contract); an unaligned load; SSE2 is part of
    // x86-64.
    let r0 = unsafe { _mm_loadu_pd(s) };
    // SAFETY: `s + sr` is an element of the source slice (contract).
    let s1 = unsafe { s.offset(sr) };
    // SAFETY: row 1 of 2 elements at `s1` (contract); an unaligned load; SSE2.
    let r1 = unsafe { _mm_loadu_pd(s1) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let o0 = unsafe { _mm_unpacklo_pd(r0, r1) };
    // SAFETY: row 0 of 2 elements at `d` (contract); an unaligned store; SSE2.
    unsafe { _mm_storeu_pd(d, o0) };
    // SAFETY: `d + dr` is an element of the destination slice (contract).
    let d1 = unsafe { d.offset(dr) };
    // SAFETY: SSE2 is part of x86-64 (a register unpack).
    let o1 = unsafe { _mm_unpackhi_pd(r0, r1) };
    // SAFETY: row 1 of 2 elements at `d1` (contract); an unaligned store; SSE2.
    unsafe { _mm_storeu_pd(d1, o1) };
}

/// The whole 8-byte transpose with 4 × 4 AVX blocks.
///
/// # Safety
///
/// AVX is present, and `transpose_unchecked`'s contract holds for 8-byte elements.
#[target_feature(enable = "avx")]
pub(crate) unsafe fn transpose_avx_f64(
    d: *mut f64,
    dr: isize,
    s: *const f64,
    sr: isize,
    ea: usize,
    eb: usize,
) {
    let line = |d: *mut f64, s: *const f64| {
        // SAFETY: `blocks_and_strips` hands over one whole 8 × 8 block of the transpose (its
        // contract), which the caller's contract covers; AVX is present.
        unsafe { line_avx_f64::<false>(d, dr, s, sr) };
    };
    let micro = |d: *mut f64, s: *const f64| {
        // SAFETY: `blocks_and_strips` hands over one whole 4 × 4 block of an edge strip (its
        // contract), which the caller's contract covers; AVX is present.
        unsafe { micro_avx_f64(d, dr, s, sr) };
    };
    // SAFETY: the caller's contract; the kernels are sound for the blocks they are handed
    // (the 8 × 8 line kernels read their source lines whole).
    unsafe { blocks_and_strips::<f64, 8, 4>(d, dr, s, sr, [ea, eb], line, micro) };
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
    let r = core::array::from_fn(|j| {
        // SAFETY: `s + j·sr` (`j < 4`) is an element of the source slice (contract).
        let row = unsafe { s.offset(step(j, sr)) };
        // SAFETY: row `j` of 4 elements at `row` (contract); AVX is present (contract).
        unsafe { _mm256_loadu_pd(row) }
    });
    for (i, v) in t4(r).into_iter().enumerate() {
        // SAFETY: `d + i·dr` (`i < 4`) is an element of the destination slice (contract).
        let row = unsafe { d.offset(step(i, dr)) };
        // SAFETY: row `i` of 4 elements at `row` (contract); AVX is present (contract).
        unsafe { _mm256_storeu_pd(row, v) };
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

/// The streaming transpose's line kernels (`super::stream::transpose_stream_unchecked`, the
/// x86-64 backend's [`Backend::transpose_lines`](crate::kernel::backend::Backend::transpose_lines)):
/// the cached transpose where the stack tiles would not pay, the stack tiles where the
/// strides alias or the destination rows are not whole lines, else line × line kernels in
/// macro-tiles.
///
/// # Safety
///
/// `transpose_stream_unchecked`'s contract (AVX2 for 4-byte elements, AVX for 8-byte ones).
#[inline]
pub(crate) unsafe fn transpose_lines<T: 'static>(
    dst: *mut T,
    dr: isize,
    src: *const T,
    sr: isize,
    [ea, eb]: [usize; 2],
    nt: bool,
) {
    // In the cache, with destination rows that are not a whole number of lines apart
    // (and strides that do not alias in the L1 cache), the stack tiles' extra pass costs
    // more than it saves: the cached transpose's 8 × 8 tiles straight into place
    // (measured on an AMD EPYC host, `f32`: 200² 9.4 -> 5.1 us, 500² 69 -> 42 us, 1000²
    // 335 -> 190 us, 1500² 0.83-0.91 -> 0.58-0.66 ms). Where the rows are whole lines the
    // line kernels stay faster (128² 2.0 against 3.2 us, 768² 96 against 137-158 us).
    if !nt && !aliasing::<T>(dr, sr) && !whole_lines::<T>(dr) {
        // SAFETY: the caller's contract.
        unsafe { transpose_unchecked(dst, dr, src, sr, ea, eb) };
        return;
    }
    if aliasing::<T>(dr, sr) || !whole_lines::<T>(dr) {
        if size_of::<T>() == 8 {
            // SAFETY: AVX is present (`streams`); the caller's contract, for 8-byte
            // elements.
            unsafe { transpose_tiled_avx_f64(dst.cast(), dr, src.cast(), sr, ea, eb, nt) };
        } else {
            // SAFETY: AVX2 is present (`streams`, for 4-byte elements); the caller's
            // contract, for 4-byte elements.
            unsafe { transpose_tiled_avx2(dst.cast(), dr, src.cast(), sr, ea, eb, nt) };
        }
        return;
    }
    if size_of::<T>() == 8 {
        let (d, s) = (dst.cast::<f64>(), src.cast::<f64>());
        let micro = |d: *mut f64, s: *const f64| {
            if nt {
                // SAFETY: AVX is present (`streams`); `line_blocks` hands over an 8 × 8
                // block of the block (the caller's contract covers it) whose destination
                // rows start on a line boundary (its contract), so they are 32-byte
                // aligned.
                unsafe { line_avx_f64::<true>(d, dr, s, sr) };
            } else {
                // SAFETY: AVX is present (`streams`); an 8 × 8 block of the block (the
                // caller's contract covers it).
                unsafe { line_avx_f64::<false>(d, dr, s, sr) };
            }
        };
        let edge = |d: *mut f64, s: *const f64, ea: usize, eb: usize| {
            // SAFETY: `line_blocks` hands over a sub-block of the block, for which the
            // caller's contract holds.
            unsafe { transpose_unchecked(d, dr, s, sr, ea, eb) }
        };
        // SAFETY: the caller's contract, with 8-byte elements; `micro` is sound for the
        // line-aligned blocks and `edge` for any sub-block.
        unsafe { line_blocks::<f64, 8>(d, dr, s, sr, [ea, eb], micro, edge, prefetch) };
    } else {
        let (d, s) = (dst.cast::<u32>(), src.cast::<u32>());
        let micro = |d: *mut u32, s: *const u32| {
            if nt {
                // SAFETY: as above, for a 16 × 16 block of 4-byte elements; AVX2 is
                // present (`streams`, for 4-byte elements).
                unsafe { line_avx2::<true>(d, dr, s, sr) };
            } else {
                // SAFETY: as above, for a 16 × 16 block of 4-byte elements; AVX2.
                unsafe { line_avx2::<false>(d, dr, s, sr) };
            }
        };
        let edge = |d: *mut u32, s: *const u32, ea: usize, eb: usize| {
            // SAFETY: as above: a sub-block of the block.
            unsafe { transpose_unchecked(d, dr, s, sr, ea, eb) }
        };
        // SAFETY: as above, for 4-byte elements.
        unsafe { line_blocks::<u32, 16>(d, dr, s, sr, [ea, eb], micro, edge, prefetch) };
    }
}
