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
    // SAFETY: the caller's contract for the block; each micro-kernel moves an 8 × 8
    // block inside the tile and the block, `out` 128 elements of a tile row to a
    // destination row of the block, the edges sub-blocks of the block; AVX is present for
    // the kernels.
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
            |d, t| row_out(d, t, 128, nt),
        );
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
            |d, t| row_out(d, t, 64, nt),
        );
    }
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
pub(super) unsafe fn micro_avx(d: *mut f32, dr: isize, s: *const f32, sr: isize) {
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
pub(super) unsafe fn line_avx<const NT: bool>(d: *mut f32, dr: isize, s: *const f32, sr: isize) {
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
