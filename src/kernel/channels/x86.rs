//! The x86-64 units: SSSE3 (`pshufb`) and AVX2 (`vpshufb`, two groups a vector).

use core::arch::x86_64::{
    __m128i, __m256i, _mm_and_si128, _mm_andnot_si128, _mm_castsi128_pd, _mm_loadu_si128,
    _mm_or_si128, _mm_setzero_si128, _mm_shuffle_epi8, _mm_storeh_pd, _mm_storel_epi64,
    _mm_storeu_si32, _mm_storeu_si128, _mm_stream_si128, _mm_unpackhi_epi8, _mm_unpackhi_epi16,
    _mm_unpackhi_epi32, _mm_unpackhi_epi64, _mm_unpacklo_epi8, _mm_unpacklo_epi16,
    _mm_unpacklo_epi32, _mm_unpacklo_epi64, _mm256_blendv_epi8, _mm256_broadcastsi128_si256,
    _mm256_castsi128_si256, _mm256_castsi256_si128, _mm256_extracti128_si256,
    _mm256_inserti128_si256, _mm256_loadu_si256, _mm256_or_si256, _mm256_permute2x128_si256,
    _mm256_setzero_si256, _mm256_shuffle_epi8, _mm256_storeu_si256, _mm256_stream_si256,
    _mm256_unpackhi_epi8, _mm256_unpackhi_epi16, _mm256_unpackhi_epi32, _mm256_unpackhi_epi64,
    _mm256_unpacklo_epi8, _mm256_unpacklo_epi16, _mm256_unpacklo_epi32, _mm256_unpacklo_epi64,
};

use super::algorithm::{Unit, run, store_each};
use crate::kernel::drive::step;

/// 16 bytes at `p`, unaligned.
///
/// # Safety
///
/// `p..p+16` are initialised bytes of one allocation.
#[inline(always)]
unsafe fn load(p: *const u8) -> __m128i {
    // SAFETY: the caller's contract; `loadu` has no alignment requirement.
    unsafe { _mm_loadu_si128(p.cast()) }
}

/// 16 bytes to `p`; non-temporal when `stream`.
///
/// # Safety
///
/// `p..p+16` are bytes of one allocation we may write; 16-byte aligned when `stream`.
#[inline(always)]
unsafe fn store_half(p: *mut u8, v: __m128i, stream: bool) {
    // SAFETY: the caller's contract.
    unsafe {
        if stream {
            _mm_stream_si128(p.cast(), v);
        } else {
            _mm_storeu_si128(p.cast(), v);
        }
    }
}

/// The low (`hi` false) or high 8 bytes of `v` to `p`.
///
/// # Safety
///
/// `p..p+8` are bytes of one allocation we may write.
#[inline(always)]
unsafe fn store_eight(p: *mut u8, v: __m128i, hi: bool) {
    // SAFETY: the caller's contract; SSE2 is part of x86-64, and the stores have no
    // alignment requirement.
    unsafe {
        if hi {
            _mm_storeh_pd(p.cast(), _mm_castsi128_pd(v));
        } else {
            _mm_storel_epi64(p.cast(), v);
        }
    }
}

/// Lane `g` (0 or 1) of `v`.
///
/// # Safety
///
/// AVX2 is enabled in the caller.
#[inline(always)]
unsafe fn lane(v: __m256i, g: usize) -> __m128i {
    // SAFETY: the caller's contract.
    unsafe {
        if g == 0 {
            _mm256_castsi256_si128(v)
        } else {
            _mm256_extracti128_si256::<1>(v)
        }
    }
}

/// SSSE3: one group a vector.
pub(super) struct Ssse3;

impl Unit for Ssse3 {
    type V = __m128i;
    const GROUPS: usize = 1;
    const STREAMS: bool = true;
    const ALIGN: usize = 16;
    #[inline(always)]
    unsafe fn zero() -> __m128i {
        // SAFETY: the trait's contract (the unit's feature is enabled; the memory is
        // the caller's).
        unsafe { _mm_setzero_si128() }
    }
    #[inline(always)]
    unsafe fn mask(m: &[u8; 16]) -> __m128i {
        // SAFETY: the trait's contract (the unit's feature is enabled; the memory is
        // the caller's).
        unsafe { load(m.as_ptr()) }
    }
    #[inline(always)]
    unsafe fn load_plane(p: *const u8) -> __m128i {
        // SAFETY: the trait's contract (the unit's feature is enabled; the memory is
        // the caller's).
        unsafe { load(p) }
    }
    #[inline(always)]
    unsafe fn store_plane(p: *mut u8, v: __m128i, stream: bool) {
        // SAFETY: the trait's contract (the unit's feature is enabled; the memory is
        // the caller's).
        unsafe { store_half(p, v, stream) }
    }
    #[inline(always)]
    unsafe fn load_chunk(p: *const u8, _gap: isize) -> __m128i {
        // SAFETY: the trait's contract (the unit's feature is enabled; the memory is
        // the caller's).
        unsafe { load(p) }
    }
    #[inline(always)]
    unsafe fn store_group(p: *mut u8, v: __m128i, _g: usize) {
        // SAFETY: the trait's contract (the unit's feature is enabled; the memory is
        // the caller's).
        unsafe { _mm_storeu_si128(p.cast(), v) }
    }
    #[inline(always)]
    unsafe fn store_half_group(p: *mut u8, v: __m128i, _g: usize, hi: bool) {
        // SAFETY: the trait's contract (the unit's feature is enabled; the memory is
        // the caller's).
        unsafe { store_eight(p, v, hi) }
    }
    #[inline(always)]
    unsafe fn store_chunks<const C: usize>(p: *mut u8, chunks: [__m128i; C], stream: bool) {
        // SAFETY: the trait's contract (the unit's feature is enabled; the memory is
        // the caller's).
        unsafe { store_each(p, chunks, |q, v| store_half(q, v, stream)) }
    }
    #[inline(always)]
    unsafe fn shuffle(v: __m128i, m: __m128i) -> __m128i {
        // SAFETY: the trait's contract (the unit's feature is enabled; the memory is
        // the caller's).
        unsafe { _mm_shuffle_epi8(v, m) }
    }
    #[inline(always)]
    unsafe fn or(a: __m128i, b: __m128i) -> __m128i {
        // SAFETY: the trait's contract (the unit's feature is enabled; the memory is
        // the caller's).
        unsafe { _mm_or_si128(a, b) }
    }
    #[inline(always)]
    unsafe fn blend(a: __m128i, b: __m128i, sel: __m128i) -> __m128i {
        // SSSE3 has no byte blend (`pblendvb` is SSE4.1).
        // SAFETY: the trait's contract (the unit's feature is enabled; the memory is
        // the caller's).
        unsafe { _mm_or_si128(_mm_and_si128(sel, b), _mm_andnot_si128(sel, a)) }
    }
    #[inline(always)]
    unsafe fn zip(a: __m128i, b: __m128i, g: usize, hi: bool) -> __m128i {
        // SAFETY: the trait's contract (the unit's feature is enabled; SSE2 is part of
        // x86-64).
        unsafe {
            match (g, hi) {
                (1, false) => _mm_unpacklo_epi8(a, b),
                (1, true) => _mm_unpackhi_epi8(a, b),
                (2, false) => _mm_unpacklo_epi16(a, b),
                (2, true) => _mm_unpackhi_epi16(a, b),
                (4, false) => _mm_unpacklo_epi32(a, b),
                (4, true) => _mm_unpackhi_epi32(a, b),
                (_, false) => _mm_unpacklo_epi64(a, b),
                (_, true) => _mm_unpackhi_epi64(a, b),
            }
        }
    }
}

/// 32 bytes to `p`; non-temporal when `stream`.
///
/// # Safety
///
/// AVX is enabled in the caller; `p..p+32` are bytes of one allocation we may write;
/// 32-byte aligned when `stream`.
#[inline(always)]
unsafe fn store_full(p: *mut u8, v: __m256i, stream: bool) {
    // SAFETY: the caller's contract.
    unsafe {
        if stream {
            _mm256_stream_si256(p.cast(), v);
        } else {
            _mm256_storeu_si256(p.cast(), v);
        }
    }
}

/// AVX2: two groups a vector, one per 128-bit lane.
pub(super) struct Avx2;

impl Unit for Avx2 {
    type V = __m256i;
    const GROUPS: usize = 2;
    const STREAMS: bool = true;
    const ALIGN: usize = 32;
    #[inline(always)]
    unsafe fn zero() -> __m256i {
        // SAFETY: the trait's contract (the unit's feature is enabled; the memory is
        // the caller's).
        unsafe { _mm256_setzero_si256() }
    }
    #[inline(always)]
    unsafe fn mask(m: &[u8; 16]) -> __m256i {
        // SAFETY: the trait's contract (the unit's feature is enabled; the memory is
        // the caller's).
        unsafe { _mm256_broadcastsi128_si256(load(m.as_ptr())) }
    }
    #[inline(always)]
    unsafe fn load_plane(p: *const u8) -> __m256i {
        // SAFETY: the trait's contract (the unit's feature is enabled; the memory is
        // the caller's).
        unsafe { _mm256_loadu_si256(p.cast()) }
    }
    #[inline(always)]
    unsafe fn store_plane(p: *mut u8, v: __m256i, stream: bool) {
        // SAFETY: the trait's contract (the unit's feature is enabled; the memory is
        // the caller's).
        unsafe { store_full(p, v, stream) }
    }
    #[inline(always)]
    unsafe fn load_chunk(p: *const u8, gap: isize) -> __m256i {
        // SAFETY: the trait's contract (the unit's feature is enabled; the memory is
        // the caller's).
        unsafe {
            _mm256_inserti128_si256::<1>(_mm256_castsi128_si256(load(p)), load(p.offset(gap)))
        }
    }
    #[inline(always)]
    unsafe fn store_group(p: *mut u8, v: __m256i, g: usize) {
        // SAFETY: the trait's contract (the unit's feature is enabled; the memory is
        // the caller's).
        unsafe { _mm_storeu_si128(p.cast(), lane(v, g)) }
    }
    #[inline(always)]
    unsafe fn store_half_group(p: *mut u8, v: __m256i, g: usize, hi: bool) {
        // SAFETY: the trait's contract (the unit's feature is enabled; the memory is
        // the caller's).
        unsafe { store_eight(p, lane(v, g), hi) }
    }
    #[inline(always)]
    unsafe fn store_chunks<const C: usize>(p: *mut u8, chunks: [__m256i; C], stream: bool) {
        // Lane `g` of `chunks[m]` is memory chunk `g·C + m`: each 32-byte store takes two
        // consecutive memory chunks from their lanes.
        // SAFETY: the trait's contract (the unit's feature is enabled; the memory is
        // the caller's).
        unsafe {
            match *chunks.as_slice() {
                [a, b] => {
                    store_full(p, _mm256_permute2x128_si256::<0x20>(a, b), stream);
                    store_full(p.add(32), _mm256_permute2x128_si256::<0x31>(a, b), stream);
                }
                [a, b, c] => {
                    store_full(p, _mm256_permute2x128_si256::<0x20>(a, b), stream);
                    store_full(p.add(32), _mm256_permute2x128_si256::<0x30>(c, a), stream);
                    store_full(p.add(64), _mm256_permute2x128_si256::<0x31>(b, c), stream);
                }
                [a, b, c, e] => {
                    store_full(p, _mm256_permute2x128_si256::<0x20>(a, b), stream);
                    store_full(p.add(32), _mm256_permute2x128_si256::<0x20>(c, e), stream);
                    store_full(p.add(64), _mm256_permute2x128_si256::<0x31>(a, b), stream);
                    store_full(p.add(96), _mm256_permute2x128_si256::<0x31>(c, e), stream);
                }
                _ => {
                    // Memory chunks `t` and `t + 1` (`t` even, below `2C`) side by side:
                    // chunk `t` is lane `t / C` of `chunks[t % C]`.
                    let lane = |t: usize| {
                        let (g, m) = (t >= C, if t >= C { t.wrapping_sub(C) } else { t });
                        (g, chunks.get(m).copied().unwrap_or(_mm256_setzero_si256()))
                    };
                    for t in (0..C.wrapping_mul(2)).step_by(2) {
                        let ((g0, x), (g1, y)) = (lane(t), lane(t.wrapping_add(1)));
                        let v = match (g0, g1) {
                            (false, false) => _mm256_permute2x128_si256::<0x20>(x, y),
                            (false, true) => _mm256_permute2x128_si256::<0x30>(x, y),
                            _ => _mm256_permute2x128_si256::<0x31>(x, y),
                        };
                        store_full(p.offset(step(t, 16)), v, stream);
                    }
                }
            }
        }
    }
    #[inline(always)]
    unsafe fn shuffle(v: __m256i, m: __m256i) -> __m256i {
        // SAFETY: the trait's contract (the unit's feature is enabled; the memory is
        // the caller's).
        unsafe { _mm256_shuffle_epi8(v, m) }
    }
    #[inline(always)]
    unsafe fn or(a: __m256i, b: __m256i) -> __m256i {
        // SAFETY: the trait's contract (the unit's feature is enabled; the memory is
        // the caller's).
        unsafe { _mm256_or_si256(a, b) }
    }
    #[inline(always)]
    unsafe fn blend(a: __m256i, b: __m256i, sel: __m256i) -> __m256i {
        // SAFETY: the trait's contract (the unit's feature is enabled; the memory is
        // the caller's).
        unsafe { _mm256_blendv_epi8(a, b, sel) }
    }
    #[inline(always)]
    unsafe fn zip(a: __m256i, b: __m256i, g: usize, hi: bool) -> __m256i {
        // SAFETY: the trait's contract (the unit's feature is enabled).
        unsafe {
            match (g, hi) {
                (1, false) => _mm256_unpacklo_epi8(a, b),
                (1, true) => _mm256_unpackhi_epi8(a, b),
                (2, false) => _mm256_unpacklo_epi16(a, b),
                (2, true) => _mm256_unpackhi_epi16(a, b),
                (4, false) => _mm256_unpacklo_epi32(a, b),
                (4, true) => _mm256_unpackhi_epi32(a, b),
                (_, false) => _mm256_unpacklo_epi64(a, b),
                (_, true) => _mm256_unpackhi_epi64(a, b),
            }
        }
    }
}

/// [`super::by_shape`] with SSSE3, in the direction `INTER` names.
///
/// # Safety
///
/// SSSE3 is present, and [`super::by_shape`]'s contract holds in bytes.
#[target_feature(enable = "ssse3")]
pub(super) unsafe fn ssse3<const C: usize, const SIZE: usize, const INTER: bool>(
    d: *mut u8,
    s: *const u8,
    plane: isize,
    n: usize,
    stream: bool,
    used: usize,
) -> usize {
    // SAFETY: SSSE3 is enabled here; the caller's contract.
    unsafe { run::<Ssse3, C, SIZE, INTER>(d, s, plane, n, stream, used) }
}

/// [`super::by_shape`] with AVX2, in the direction `INTER` names.
///
/// # Safety
///
/// AVX2 is present, and [`super::by_shape`]'s contract holds in bytes.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn avx2<const C: usize, const SIZE: usize, const INTER: bool>(
    d: *mut u8,
    s: *const u8,
    plane: isize,
    n: usize,
    stream: bool,
    used: usize,
) -> usize {
    // SAFETY: AVX2 is enabled here; the caller's contract.
    unsafe { run::<Avx2, C, SIZE, INTER>(d, s, plane, n, stream, used) }
}

/// The first `C` (2 to 4) 4-byte lanes of `v` to `p`, by plain stores of 8, 8 + 4 or 16
/// bytes: the lanes `C..4` are never written.
///
/// # Safety
///
/// SSE2 (part of x86-64); `p..p + 4·C` are bytes of one allocation we may write.
#[inline(always)]
unsafe fn store_lanes<const C: usize>(p: *mut u8, v: __m128i) {
    // SAFETY: the caller's contract; the stores have no alignment requirement and write
    // exactly the first `4·C` bytes.
    unsafe {
        match C {
            2 => _mm_storel_epi64(p.cast(), v),
            3 => {
                _mm_storel_epi64(p.cast(), v);
                _mm_storeu_si32(p.add(8).cast(), _mm_unpackhi_epi64(v, v));
            }
            _ => _mm_storeu_si128(p.cast(), v),
        }
    }
}

/// Planar -> partial interleave block of 4-byte elements with AVX2: `d[j·px + k] =
/// s[k·plane + j]` for `k < C` and the returned number of pixels `j` (whole steps of 8);
/// lanes `C..px` of every pixel are never written.
/// Returns 0 unless `px` is 4 or 8.
///
/// Eight pixels a step: the `C` plane vectors (a missing fourth plane reads as zero) are
/// transposed as a 4 × 8 block by two rounds of zips, which leaves pixels `j + q` and `j +
/// q + 4` in the halves of vector `q`; each pixel's first `C` lanes are stored by plain
/// 8-, 12- or 16-byte stores. (Masked stores, `vpmaskmovd`, were measured 2x slower than
/// the scalar loop on AMD Zen, where they are microcoded.)
///
/// # Safety
///
/// AVX2 is present; `2 <= C <= 4`, `C <= px`; every `s + (k·plane + j)·4` (`k < C`, `j <
/// n`) starts an element of the source slice, every `d + (j·px + k)·4` an element of the
/// destination slice, and the slices are distinct.
#[target_feature(enable = "avx2")]
pub(super) unsafe fn avx2_partial4<const C: usize>(
    d: *mut u8,
    px: usize,
    s: *const u8,
    plane: isize,
    n: usize,
) -> usize {
    if !(px == 4 || px == 8) || !(2..=4).contains(&C) {
        return 0;
    }
    let steps = n / 8;
    let pixel_bytes = px.wrapping_mul(4);
    for i in 0..steps {
        // `i·8 < n` pixels and `i·8·px·4` bytes lie inside the slices (contract), so the
        // offsets are exact.
        let j = i.wrapping_mul(8);
        // SAFETY: AVX2 is enabled here. Plane `k < C` holds the 8 elements `j..j+8` (`j + 8
        // <= n`, contract); pixel `j + q` (`q < 8`) gets its lanes `0..C`, which are
        // destination elements (contract), and nothing else.
        unsafe {
            let src = s.add(j.wrapping_mul(4));
            let load = |k: usize| {
                if k < C {
                    _mm256_loadu_si256(src.offset(step(k, plane)).cast())
                } else {
                    _mm256_setzero_si256()
                }
            };
            let (a, b, c, e) = (load(0), load(1), load(2), load(3));
            let (t0, t1) = (_mm256_unpacklo_epi32(a, b), _mm256_unpackhi_epi32(a, b));
            let (t2, t3) = (_mm256_unpacklo_epi32(c, e), _mm256_unpackhi_epi32(c, e));
            // `u[q]` holds pixel `j + q` in its low half and `j + q + 4` in its high half.
            let u = [
                _mm256_unpacklo_epi64(t0, t2),
                _mm256_unpackhi_epi64(t0, t2),
                _mm256_unpacklo_epi64(t1, t3),
                _mm256_unpackhi_epi64(t1, t3),
            ];
            let dst = d.add(j.wrapping_mul(pixel_bytes));
            for (q, v) in u.into_iter().enumerate() {
                let lo = dst.add(q.wrapping_mul(pixel_bytes));
                let hi = lo.add(pixel_bytes.wrapping_mul(4));
                store_lanes::<C>(lo, _mm256_castsi256_si128(v));
                store_lanes::<C>(hi, _mm256_extracti128_si256::<1>(v));
            }
        }
    }
    steps.wrapping_mul(8)
}
