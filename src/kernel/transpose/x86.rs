//! The x86-64 micro-kernels: SSE2 blocks, the AVX 8 × 8 tile and the AVX line kernels.

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
    _mm_loadu_ps, _mm_movehl_ps, _mm_movelh_ps, _mm_storeu_ps, _mm_unpackhi_ps, _mm_unpacklo_ps,
    _mm256_loadu_ps, _mm256_permute2f128_ps, _mm256_shuffle_ps, _mm256_storeu_ps,
    _mm256_unpackhi_ps, _mm256_unpacklo_ps,
};

use core::arch::x86_64::{__m256i, _MM_HINT_T0, _mm256_load_si256, _mm256_stream_si256};
use core::ptr;

use super::blocks;
use super::stream::{LINE, tile_blocks};
use crate::kernel::drive::step;
use crate::kernel::stream::stream_copy_unchecked;

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
pub(super) unsafe fn micro_sse2_u16(d: *mut u16, dr: isize, s: *const u16, sr: isize) {
    let r: [__m128i; 8] = core::array::from_fn(|j| {
        // SAFETY: `s + j·sr` (`j < 8`) is an element of the source slice (contract).
        let row = unsafe { s.offset(step(j, sr)) };
        // SAFETY: row `j` of 8 elements at `row` (contract); an unaligned load; SSE2 is part
        // of x86-64.
        unsafe { _mm_loadu_si128(row.cast::<__m128i>()) }
    });
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
    for (i, v) in [c0, c1, c2, c3, c4, c5, c6, c7].into_iter().enumerate() {
        // SAFETY: `d + i·dr` (`i < 8`) is an element of the destination slice (contract).
        let row = unsafe { d.offset(step(i, dr)) };
        // SAFETY: row `i` of 8 elements at `row` (contract); an unaligned store; SSE2 is part
        // of x86-64.
        unsafe { _mm_storeu_si128(row.cast::<__m128i>(), v) };
    }
}

/// One 4 × 4 block: `d[i·dr + j] = s[i + j·sr]`, SSE2.
///
/// # Safety
///
/// Every `d + i·dr + j` and `s + i + j·sr` (`i, j < 4`) is an element of its slice.
#[inline(always)]
pub(super) unsafe fn micro_sse2(d: *mut f32, dr: isize, s: *const f32, sr: isize) {
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
    let line = |d: *mut f32, s: *const f32| {
        // SAFETY: `blocks` hands over one whole 16 × 16 block of the sub-block `..fa × ..fb`
        // (its contract), which the caller's contract covers; the kernel needs AVX, which
        // this function has.
        unsafe { line_avx::<false>(d, dr, s, sr) }
    };
    let micro = |d: *mut f32, s: *const f32| {
        // SAFETY: `blocks` hands over one whole 8 × 8 block of an edge sub-block (its
        // contract), which the caller's contract covers; the kernel needs AVX, which this
        // function has.
        unsafe { micro_avx(d, dr, s, sr) }
    };
    // SAFETY: the caller's contract, for the sub-block `..fa × ..fb` (whole 16 × 16 line
    // kernels, each reading its source lines whole).
    unsafe { blocks::<f32, 16>(d, dr, s, sr, fa, fb, line) };
    let (d1, s1) = (
        d.wrapping_offset(step(fb, 1)),
        s.wrapping_offset(step(fb, sr)),
    );
    // SAFETY: the caller's contract, for the sub-block `.. × fb..` (its corner wraps past
    // the block only when it is empty, and is then never read).
    unsafe { blocks::<f32, 8>(d1, dr, s1, sr, ea, eb % 16, micro) };
    let (d2, s2) = (
        d.wrapping_offset(step(fa, dr)),
        s.wrapping_offset(step(fa, 1)),
    );
    // SAFETY: the caller's contract, for the sub-block `fa.. × ..fb` (its corner wraps past
    // the block only when it is empty, and is then never read).
    unsafe { blocks::<f32, 8>(d2, dr, s2, sr, ea % 16, fb, micro) };
}

/// The large transpose of `f32` for page-sized row strides, or destination rows that are
/// not a whole number of lines apart: 128-source-row by 64-column stack tiles of 8 × 8 AVX
/// blocks, written out with non-temporal stores with `nt`, else plain ones ([`row_out`]).
///
/// # Safety
///
/// AVX is present, `transpose_unchecked`'s contract holds, and `dr` is positive.
#[target_feature(enable = "avx")]
pub(super) unsafe fn transpose_tiled_avx(
    d: *mut f32,
    dr: isize,
    s: *const f32,
    sr: isize,
    ea: usize,
    eb: usize,
    nt: bool,
) {
    let micro = |t: *mut f32, s: *const f32| {
        // SAFETY: `tile_blocks` hands over an 8 × 8 block inside the tile and the block (its
        // contract), which the caller's contract covers; AVX is present for the kernel.
        unsafe { micro_avx(t, 128, s, sr) }
    };
    let edge = |d: *mut f32, s: *const f32, ea: usize, eb: usize| {
        // SAFETY: `tile_blocks` hands over an edge sub-block of the block (its contract),
        // for which the caller's contract holds.
        unsafe { super::transpose_unchecked(d, dr, s, sr, ea, eb) }
    };
    let out = |d: *mut f32, t: *const f32| {
        // SAFETY: `tile_blocks` hands over 128 initialised elements of a tile row and a
        // destination row of the block (its contract, and the caller's); AVX is present.
        unsafe { row_out(d, t, 128, nt) }
    };
    // SAFETY: the caller's contract for the block; the kernels above do what
    // `tile_blocks` asks of them.
    unsafe {
        tile_blocks::<f32, 128, 64, 8>(d, dr, s, sr, [ea, eb], micro, edge, prefetch_t0, out);
    }
}

/// [`transpose_tiled_avx`] for `f64`: 64-source-row by 32-column tiles of 4 × 4 blocks.
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
        // SAFETY: as in `transpose_tiled_avx`: a 4 × 4 block inside the tile and the block.
        unsafe { micro_avx_f64(t, 64, s, sr) }
    };
    let edge = |d: *mut f64, s: *const f64, ea: usize, eb: usize| {
        // SAFETY: as in `transpose_tiled_avx`: an edge sub-block of the block, for which the
        // caller's contract holds for 8-byte elements.
        unsafe { super::transpose_unchecked(d, dr, s, sr, ea, eb) }
    };
    let out = |d: *mut f64, t: *const f64| {
        // SAFETY: as in `transpose_tiled_avx`: 64 elements of a tile row and a destination
        // row of the block.
        unsafe { row_out(d, t, 64, nt) }
    };
    // SAFETY: as in `transpose_tiled_avx`, with 8-byte elements.
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

/// One 8 × 8 block with AVX.
///
/// # Safety
///
/// AVX is present; every `d + i·dr + j` and `s + i + j·sr` (`i, j < 8`) is an element of
/// its slice.
#[target_feature(enable = "avx")]
#[inline]
pub(super) unsafe fn micro_avx(d: *mut f32, dr: isize, s: *const f32, sr: isize) {
    let r = core::array::from_fn(|j| {
        // SAFETY: `s + j·sr` (`j < 8`) is an element of the source slice (contract).
        let row = unsafe { s.offset(step(j, sr)) };
        // SAFETY: row `j` of 8 elements at `row` (contract); AVX is present (contract).
        unsafe { _mm256_loadu_ps(row) }
    });
    for (i, v) in t8(r).into_iter().enumerate() {
        // SAFETY: `d + i·dr` (`i < 8`) is an element of the destination slice (contract).
        let row = unsafe { d.offset(step(i, dr)) };
        // SAFETY: row `i` of 8 elements at `row` (contract); AVX is present (contract).
        unsafe { _mm256_storeu_ps(row, v) };
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
pub(super) unsafe fn line_avx<const NT: bool>(d: *mut f32, dr: isize, s: *const f32, sr: isize) {
    // Each source row's whole line is loaded at once (`lo`, `hi`), so a line is read
    // from memory once even where the rows alias in the L1 cache (power-of-two strides).
    let mut out = [[[_mm256_setzero_ps(); 8]; 2]; 2];
    for (g, half) in out.iter_mut().enumerate() {
        let row = |j: usize| s.wrapping_offset(step(g.wrapping_mul(8).wrapping_add(j), sr));
        let lo: [__m256; 8] = core::array::from_fn(|j| {
            // SAFETY: row `8g + j < 16` of 16 elements at `s + (8g + j)·sr` (contract), its
            // first 8; AVX is present (contract).
            unsafe { _mm256_loadu_ps(row(j)) }
        });
        let hi: [__m256; 8] = core::array::from_fn(|j| {
            // SAFETY: element 8 of row `8g + j < 16` (16 elements, contract) is an element
            // of the source slice.
            let p = unsafe { row(j).add(8) };
            // SAFETY: the last 8 of the row's 16 elements at `p` (contract); AVX.
            unsafe { _mm256_loadu_ps(p) }
        });
        *half = [t8(lo), t8(hi)];
    }
    let [left, right] = out;
    for (h, (l, r)) in left.iter().zip(&right).enumerate() {
        for (i, (&a, &b)) in l.iter().zip(r).enumerate() {
            // SAFETY: `d + (8h + i)·dr` (`8h + i < 16`) is an element of the destination
            // slice (contract).
            let p = unsafe { d.offset(step(h.wrapping_mul(8).wrapping_add(i), dr)) };
            // SAFETY: element 8 of the row's 16 (contract) is an element of the destination
            // slice.
            let q = unsafe { p.add(8) };
            if NT {
                // SAFETY: the row's first 8 elements at `p`, 32-byte aligned (contract); AVX.
                unsafe { _mm256_stream_ps(p, a) };
                // SAFETY: the row's last 8 elements at `q`, 32-byte aligned (`p` is, and
                // `q` is 32 bytes on); AVX.
                unsafe { _mm256_stream_ps(q, b) };
            } else {
                // SAFETY: the row's first 8 elements at `p` (contract); AVX.
                unsafe { _mm256_storeu_ps(p, a) };
                // SAFETY: the row's last 8 elements at `q` (contract); AVX.
                unsafe { _mm256_storeu_ps(q, b) };
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
pub(super) unsafe fn micro_sse2_f64(d: *mut f64, dr: isize, s: *const f64, sr: isize) {
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
pub(super) unsafe fn transpose_avx_f64(
    d: *mut f64,
    dr: isize,
    s: *const f64,
    sr: isize,
    ea: usize,
    eb: usize,
) {
    let (fa, fb) = (ea & !7, eb & !7);
    let line = |d: *mut f64, s: *const f64| {
        // SAFETY: as in `transpose_avx`: one whole 8 × 8 block of the sub-block
        // `..fa × ..fb`; AVX.
        unsafe { line_avx_f64::<false>(d, dr, s, sr) };
    };
    let micro = |d: *mut f64, s: *const f64| {
        // SAFETY: as in `transpose_avx`: one whole 4 × 4 block of an edge sub-block; AVX.
        unsafe { micro_avx_f64(d, dr, s, sr) };
    };
    // SAFETY: as in `transpose_avx`, with 8 × 8 line kernels: the sub-block `..fa × ..fb`.
    unsafe { blocks::<f64, 8>(d, dr, s, sr, fa, fb, line) };
    let (d1, s1) = (
        d.wrapping_offset(step(fb, 1)),
        s.wrapping_offset(step(fb, sr)),
    );
    // SAFETY: as in `transpose_avx`, with 4 × 4 blocks: the sub-block `.. × fb..`.
    unsafe { blocks::<f64, 4>(d1, dr, s1, sr, ea, eb % 8, micro) };
    let (d2, s2) = (
        d.wrapping_offset(step(fa, dr)),
        s.wrapping_offset(step(fa, 1)),
    );
    // SAFETY: as in `transpose_avx`, with 4 × 4 blocks: the sub-block `fa.. × ..fb`.
    unsafe { blocks::<f64, 4>(d2, dr, s2, sr, ea % 8, fb, micro) };
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
