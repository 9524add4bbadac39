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

use super::algorithm::{
    Band, Unit, at, one_channel_on, pairs_one_by_one, run, store_each, zip_pairs,
};
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
    if stream {
        // SAFETY: the caller's contract: 16 writable bytes at `p`, 16-byte aligned; SSE2 is
        // part of x86-64.
        unsafe { _mm_stream_si128(p.cast(), v) };
    } else {
        // SAFETY: the caller's contract: 16 writable bytes at `p`; an unaligned store; SSE2
        // is part of x86-64.
        unsafe { _mm_storeu_si128(p.cast(), v) };
    }
}

/// The low (`hi` false) or high 8 bytes of `v` to `p`.
///
/// # Safety
///
/// `p..p+8` are bytes of one allocation we may write.
#[inline(always)]
unsafe fn store_eight(p: *mut u8, v: __m128i, hi: bool) {
    if hi {
        // SAFETY: SSE2 is part of x86-64; a cast only renames the 16 bytes.
        let v = unsafe { _mm_castsi128_pd(v) };
        // SAFETY: the caller's contract: 8 writable bytes at `p`; SSE2 is part of x86-64,
        // and the store has no alignment requirement.
        unsafe { _mm_storeh_pd(p.cast(), v) };
    } else {
        // SAFETY: the caller's contract: 8 writable bytes at `p`; SSE2 is part of x86-64,
        // and the store has no alignment requirement.
        unsafe { _mm_storel_epi64(p.cast(), v) };
    }
}

/// Lane `g` (0 or 1) of `v`.
///
/// # Safety
///
/// AVX2 is enabled in the caller.
#[inline(always)]
unsafe fn lane(v: __m256i, g: usize) -> __m128i {
    if g == 0 {
        // SAFETY: the caller's contract (AVX2 is enabled); a cast only renames the low half.
        unsafe { _mm256_castsi256_si128(v) }
    } else {
        // SAFETY: the caller's contract (AVX2 is enabled); a register extract.
        unsafe { _mm256_extracti128_si256::<1>(v) }
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
        let store = |q: *mut u8, v: __m128i| {
            // SAFETY: `store_each` hands over chunk `m`'s 16 bytes at `q = p + 16·m`, which
            // the trait's contract gives (aligned when `stream`: `p` is, and `q` is 16·m on).
            unsafe { store_half(q, v, stream) };
        };
        // SAFETY: the trait's contract (the memory is the caller's); `store` stores one
        // 16-byte vector.
        unsafe { store_each(p, chunks, store) }
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
        // SAFETY: SSE2 is part of x86-64; a register operation.
        let from_b = unsafe { _mm_and_si128(sel, b) };
        // SAFETY: SSE2 is part of x86-64; a register operation.
        let from_a = unsafe { _mm_andnot_si128(sel, a) };
        // SAFETY: SSE2 is part of x86-64; a register operation.
        unsafe { _mm_or_si128(from_b, from_a) }
    }
    #[inline(always)]
    unsafe fn zip(a: __m128i, b: __m128i, g: usize, hi: bool) -> __m128i {
        match (g, hi) {
            // SAFETY: SSE2 is part of x86-64; a register unpack.
            (1, false) => unsafe { _mm_unpacklo_epi8(a, b) },
            // SAFETY: SSE2 is part of x86-64; a register unpack.
            (1, true) => unsafe { _mm_unpackhi_epi8(a, b) },
            // SAFETY: SSE2 is part of x86-64; a register unpack.
            (2, false) => unsafe { _mm_unpacklo_epi16(a, b) },
            // SAFETY: SSE2 is part of x86-64; a register unpack.
            (2, true) => unsafe { _mm_unpackhi_epi16(a, b) },
            // SAFETY: SSE2 is part of x86-64; a register unpack.
            (4, false) => unsafe { _mm_unpacklo_epi32(a, b) },
            // SAFETY: SSE2 is part of x86-64; a register unpack.
            (4, true) => unsafe { _mm_unpackhi_epi32(a, b) },
            // SAFETY: SSE2 is part of x86-64; a register unpack.
            (_, false) => unsafe { _mm_unpacklo_epi64(a, b) },
            // SAFETY: SSE2 is part of x86-64; a register unpack.
            (_, true) => unsafe { _mm_unpackhi_epi64(a, b) },
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
    if stream {
        // SAFETY: the caller's contract: AVX is enabled, 32 writable bytes at `p`, 32-byte
        // aligned.
        unsafe { _mm256_stream_si256(p.cast(), v) };
    } else {
        // SAFETY: the caller's contract: AVX is enabled, 32 writable bytes at `p`; an
        // unaligned store.
        unsafe { _mm256_storeu_si256(p.cast(), v) };
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
        // SAFETY: `m` is 16 initialised bytes.
        let group = unsafe { load(m.as_ptr()) };
        // SAFETY: the trait's contract (the unit's feature is enabled); a register
        // broadcast.
        unsafe { _mm256_broadcastsi128_si256(group) }
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
        // SAFETY: the trait's contract: group 0's 16 bytes at `p` are the caller's.
        let g0 = unsafe { load(p) };
        // SAFETY: the trait's contract (the unit's feature is enabled); a cast only renames
        // the bytes (the high lane is set below).
        let low = unsafe { _mm256_castsi128_si256(g0) };
        // SAFETY: the trait's contract: group 1's bytes at `p + gap` are the caller's, so
        // the offset stays in their allocation.
        let q = unsafe { p.offset(gap) };
        // SAFETY: the trait's contract: group 1's 16 bytes at `q` are the caller's.
        let g1 = unsafe { load(q) };
        // SAFETY: the trait's contract (the unit's feature is enabled); a register insert.
        unsafe { _mm256_inserti128_si256::<1>(low, g1) }
    }
    #[inline(always)]
    unsafe fn store_group(p: *mut u8, v: __m256i, g: usize) {
        // SAFETY: the trait's contract (the unit's feature is enabled).
        let group = unsafe { lane(v, g) };
        // SAFETY: the trait's contract (the memory is the caller's); an unaligned store;
        // SSE2 is part of x86-64.
        unsafe { _mm_storeu_si128(p.cast(), group) }
    }
    #[inline(always)]
    unsafe fn store_half_group(p: *mut u8, v: __m256i, g: usize, hi: bool) {
        // SAFETY: the trait's contract (the unit's feature is enabled).
        let group = unsafe { lane(v, g) };
        // SAFETY: the trait's contract (the memory is the caller's).
        unsafe { store_eight(p, group, hi) }
    }
    #[inline(always)]
    unsafe fn store_chunks<const C: usize>(p: *mut u8, chunks: [__m256i; C], stream: bool) {
        // Lane `g` of `chunks[m]` is memory chunk `g·C + m`: each 32-byte store takes two
        // consecutive memory chunks from their lanes.
        //
        // Each store below: 32 of the step's `32·C` interleaved bytes at `p` (the trait's
        // contract), `p` `ALIGN`-aligned when `stream`, and each store 32 bytes on; each
        // permute: the unit's feature is enabled (the trait's contract).
        match *chunks.as_slice() {
            [a, b] => {
                // SAFETY: AVX2 is enabled (the trait's contract); a register permute.
                let v0 = unsafe { _mm256_permute2x128_si256::<0x20>(a, b) };
                // SAFETY: bytes `0..32` of the step (the trait's contract).
                unsafe { store_full(p, v0, stream) };
                // SAFETY: byte 32 of the step's 64 is the caller's (the trait's contract).
                let p1 = unsafe { p.add(32) };
                // SAFETY: AVX2 is enabled (the trait's contract); a register permute.
                let v1 = unsafe { _mm256_permute2x128_si256::<0x31>(a, b) };
                // SAFETY: bytes `32..64` of the step (the trait's contract).
                unsafe { store_full(p1, v1, stream) };
            }
            [a, b, c] => {
                // SAFETY: AVX2 is enabled (the trait's contract); a register permute.
                let v0 = unsafe { _mm256_permute2x128_si256::<0x20>(a, b) };
                // SAFETY: bytes `0..32` of the step (the trait's contract).
                unsafe { store_full(p, v0, stream) };
                // SAFETY: byte 32 of the step's 96 is the caller's (the trait's contract).
                let p1 = unsafe { p.add(32) };
                // SAFETY: AVX2 is enabled (the trait's contract); a register permute.
                let v1 = unsafe { _mm256_permute2x128_si256::<0x30>(c, a) };
                // SAFETY: bytes `32..64` of the step (the trait's contract).
                unsafe { store_full(p1, v1, stream) };
                // SAFETY: byte 64 of the step's 96 is the caller's (the trait's contract).
                let p2 = unsafe { p.add(64) };
                // SAFETY: AVX2 is enabled (the trait's contract); a register permute.
                let v2 = unsafe { _mm256_permute2x128_si256::<0x31>(b, c) };
                // SAFETY: bytes `64..96` of the step (the trait's contract).
                unsafe { store_full(p2, v2, stream) };
            }
            [a, b, c, e] => {
                // SAFETY: AVX2 is enabled (the trait's contract); a register permute.
                let v0 = unsafe { _mm256_permute2x128_si256::<0x20>(a, b) };
                // SAFETY: bytes `0..32` of the step (the trait's contract).
                unsafe { store_full(p, v0, stream) };
                // SAFETY: byte 32 of the step's 128 is the caller's (the trait's contract).
                let p1 = unsafe { p.add(32) };
                // SAFETY: AVX2 is enabled (the trait's contract); a register permute.
                let v1 = unsafe { _mm256_permute2x128_si256::<0x20>(c, e) };
                // SAFETY: bytes `32..64` of the step (the trait's contract).
                unsafe { store_full(p1, v1, stream) };
                // SAFETY: byte 64 of the step's 128 is the caller's (the trait's contract).
                let p2 = unsafe { p.add(64) };
                // SAFETY: AVX2 is enabled (the trait's contract); a register permute.
                let v2 = unsafe { _mm256_permute2x128_si256::<0x31>(a, b) };
                // SAFETY: bytes `64..96` of the step (the trait's contract).
                unsafe { store_full(p2, v2, stream) };
                // SAFETY: byte 96 of the step's 128 is the caller's (the trait's contract).
                let p3 = unsafe { p.add(96) };
                // SAFETY: AVX2 is enabled (the trait's contract); a register permute.
                let v3 = unsafe { _mm256_permute2x128_si256::<0x31>(c, e) };
                // SAFETY: bytes `96..128` of the step (the trait's contract).
                unsafe { store_full(p3, v3, stream) };
            }
            _ => {
                // Memory chunks `t` and `t + 1` (`t` even, below `2C`) side by side:
                // chunk `t` is lane `t / C` of `chunks[t % C]`.
                let lane = |t: usize| {
                    let (g, m) = (t >= C, if t >= C { t.wrapping_sub(C) } else { t });
                    // SAFETY: AVX is enabled (the trait's contract); a register zero.
                    let zero = unsafe { _mm256_setzero_si256() };
                    (g, chunks.get(m).copied().unwrap_or(zero))
                };
                for t in (0..C.wrapping_mul(2)).step_by(2) {
                    let ((g0, x), (g1, y)) = (lane(t), lane(t.wrapping_add(1)));
                    let v = match (g0, g1) {
                        // SAFETY: AVX2 is enabled (the trait's contract); a register permute.
                        (false, false) => unsafe { _mm256_permute2x128_si256::<0x20>(x, y) },
                        // SAFETY: AVX2 is enabled (the trait's contract); a register permute.
                        (false, true) => unsafe { _mm256_permute2x128_si256::<0x30>(x, y) },
                        // SAFETY: AVX2 is enabled (the trait's contract); a register permute.
                        _ => unsafe { _mm256_permute2x128_si256::<0x31>(x, y) },
                    };
                    // SAFETY: byte `16t < 32·C` of the step is the caller's (the trait's
                    // contract).
                    let at = unsafe { p.offset(step(t, 16)) };
                    // SAFETY: bytes `16t..16t + 32` of the step (the trait's contract).
                    unsafe { store_full(at, v, stream) };
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
        match (g, hi) {
            // SAFETY: the trait's contract (AVX2 is enabled); a register unpack.
            (1, false) => unsafe { _mm256_unpacklo_epi8(a, b) },
            // SAFETY: the trait's contract (AVX2 is enabled); a register unpack.
            (1, true) => unsafe { _mm256_unpackhi_epi8(a, b) },
            // SAFETY: the trait's contract (AVX2 is enabled); a register unpack.
            (2, false) => unsafe { _mm256_unpacklo_epi16(a, b) },
            // SAFETY: the trait's contract (AVX2 is enabled); a register unpack.
            (2, true) => unsafe { _mm256_unpackhi_epi16(a, b) },
            // SAFETY: the trait's contract (AVX2 is enabled); a register unpack.
            (4, false) => unsafe { _mm256_unpacklo_epi32(a, b) },
            // SAFETY: the trait's contract (AVX2 is enabled); a register unpack.
            (4, true) => unsafe { _mm256_unpackhi_epi32(a, b) },
            // SAFETY: the trait's contract (AVX2 is enabled); a register unpack.
            (_, false) => unsafe { _mm256_unpacklo_epi64(a, b) },
            // SAFETY: the trait's contract (AVX2 is enabled); a register unpack.
            (_, true) => unsafe { _mm256_unpackhi_epi64(a, b) },
        }
    }
}

/// [`super::by_shape`] with SSSE3, in the direction `INTER` names.
///
/// # Safety
///
/// SSSE3 is present, and [`super::by_shape`]'s contract holds in bytes.
#[target_feature(enable = "ssse3")]
pub(crate) unsafe fn ssse3<const C: usize, const SIZE: usize, const INTER: bool>(
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
pub(crate) unsafe fn avx2<const C: usize, const SIZE: usize, const INTER: bool>(
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

/// [`super::pairs`] with SSSE3, in bytes: 16-byte steps, then one pair a step. Not inlined
/// (a target feature): the small block makes this one call.
///
/// # Safety
///
/// SSSE3 is present, and [`zip_pairs`]'s contract holds.
#[target_feature(enable = "ssse3")]
pub(crate) unsafe fn ssse3_pairs<const SIZE: usize>(
    d: *mut u8,
    l: *const u8,
    r: *const u8,
    n: usize,
) {
    // SAFETY: SSSE3 is enabled here; the caller's contract.
    let done = unsafe { zip_pairs::<Ssse3, SIZE>(d, l, r, n) };
    // SAFETY: the pairs from `done <= n` (the caller's contract).
    unsafe { pairs_one_by_one::<SIZE>(d, l, r, done, n) };
}

/// [`super::pairs`] with AVX2, in bytes: 32-byte steps, then a 16-byte one (AVX2 has
/// SSSE3) where 16 bytes a plane are left, then one pair a step.
///
/// # Safety
///
/// AVX2 is present, and [`zip_pairs`]'s contract holds.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn avx2_pairs<const SIZE: usize>(
    d: *mut u8,
    l: *const u8,
    r: *const u8,
    n: usize,
) {
    // SAFETY: AVX2 is enabled here; the caller's contract.
    let wide = unsafe { zip_pairs::<Avx2, SIZE>(d, l, r, n) };
    // The pairs from `wide` (`wide <= n`): the same contract from their bytes.
    let (planar, inter) = at::<2, SIZE>(wide);
    // SAFETY: AVX2 implies SSSE3; the caller's contract for the pairs from `wide`, whose
    // bytes start `planar` into each plane and `inter` into the destination.
    let narrow = unsafe {
        zip_pairs::<Ssse3, SIZE>(
            d.wrapping_offset(inter),
            l.wrapping_offset(planar),
            r.wrapping_offset(planar),
            n.wrapping_sub(wide),
        )
    };
    // SAFETY: the pairs from `wide + narrow <= n` (the caller's contract).
    unsafe { pairs_one_by_one::<SIZE>(d, l, r, wide.wrapping_add(narrow), n) };
}

/// [`super::one_channel`] with SSSE3, in bytes.
///
/// # Safety
///
/// SSSE3 is present, and [`super::one_channel`]'s contract holds in bytes.
#[target_feature(enable = "ssse3")]
pub(crate) unsafe fn ssse3_one<const C: usize, const SIZE: usize, const INSERT: bool>(
    band: Band,
) -> usize {
    // SAFETY: SSSE3 is enabled here; the caller's contract.
    unsafe { one_channel_on::<Ssse3, C, SIZE, INSERT>(band) }
}

/// [`super::one_channel`] with AVX2, in bytes.
///
/// # Safety
///
/// AVX2 is present, and [`super::one_channel`]'s contract holds in bytes.
#[target_feature(enable = "avx2")]
pub(crate) unsafe fn avx2_one<const C: usize, const SIZE: usize, const INSERT: bool>(
    band: Band,
) -> usize {
    // SAFETY: AVX2 is enabled here; the caller's contract.
    unsafe { one_channel_on::<Avx2, C, SIZE, INSERT>(band) }
}

/// The first `C` (2 to 4) 4-byte lanes of `v` to `p`, by plain stores of 8, 8 + 4 or 16
/// bytes: the lanes `C..4` are never written.
///
/// # Safety
///
/// SSE2 (part of x86-64); `p..p + 4·C` are bytes of one allocation we may write.
#[inline(always)]
unsafe fn store_lanes<const C: usize>(p: *mut u8, v: __m128i) {
    // Each store: the caller's contract; the stores have no alignment requirement and
    // write exactly the first `4·C` bytes.
    match C {
        // SAFETY: bytes `0..8` of the `4·C = 8` (contract); SSE2 is part of x86-64.
        2 => unsafe { _mm_storel_epi64(p.cast(), v) },
        3 => {
            // SAFETY: bytes `0..8` of the `4·C = 12` (contract); SSE2 is part of x86-64.
            unsafe { _mm_storel_epi64(p.cast(), v) };
            // SAFETY: byte 8 of the `4·C = 12` is the caller's (contract).
            let q = unsafe { p.add(8) };
            // SAFETY: SSE2 is part of x86-64; a register unpack.
            let upper = unsafe { _mm_unpackhi_epi64(v, v) };
            // SAFETY: bytes `8..12` of the `4·C = 12` (contract); SSE2 is part of x86-64.
            unsafe { _mm_storeu_si32(q.cast(), upper) };
        }
        // SAFETY: bytes `0..16` of the `4·C = 16` (contract); SSE2 is part of x86-64.
        _ => unsafe { _mm_storeu_si128(p.cast(), v) },
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
pub(crate) unsafe fn avx2_partial4<const C: usize>(
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
        // AVX2 is enabled here. Plane `k < C` holds the 8 elements `j..j+8` (`j + 8 <= n`,
        // contract); pixel `j + q` (`q < 8`) gets its lanes `0..C`, which are destination
        // elements (contract), and nothing else.
        // SAFETY: element `j < n` of plane 0 is a source element (contract).
        let src = unsafe { s.add(j.wrapping_mul(4)) };
        let load = |k: usize| {
            if k < C {
                // SAFETY: element `j` of plane `k < C` is a source element (contract).
                let at = unsafe { src.offset(step(k, plane)) };
                // SAFETY: plane `k`'s 8 elements `j..j + 8` (above); an unaligned load;
                // AVX2 is enabled here.
                unsafe { _mm256_loadu_si256(at.cast()) }
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
        // SAFETY: pixel `j < n` starts a destination element (contract).
        let dst = unsafe { d.add(j.wrapping_mul(pixel_bytes)) };
        for (q, v) in u.into_iter().enumerate() {
            // SAFETY: pixel `j + q < j + 8 <= n` starts a destination element (contract).
            let lo = unsafe { dst.add(q.wrapping_mul(pixel_bytes)) };
            // SAFETY: pixel `j + q + 4 < j + 8 <= n` starts a destination element
            // (contract).
            let hi = unsafe { lo.add(pixel_bytes.wrapping_mul(4)) };
            let (low, high) = (_mm256_castsi256_si128(v), _mm256_extracti128_si256::<1>(v));
            // SAFETY: pixel `j + q`'s lanes `0..C` are destination bytes (contract); SSE2 is
            // part of x86-64.
            unsafe { store_lanes::<C>(lo, low) };
            // SAFETY: pixel `j + q + 4`'s lanes `0..C` are destination bytes (contract);
            // SSE2 is part of x86-64.
            unsafe { store_lanes::<C>(hi, high) };
        }
    }
    steps.wrapping_mul(8)
}
