//! 2-D transposes of 4- and 8-byte elements: SIMD micro-kernels in blocks, each with a
//! portable twin.
//!
//! | target | micro-kernel (4-byte / 8-byte) |
//! | --- | --- |
//! | x86-64 | 8 × 8 / 4 × 4 AVX when the CPU has it ([`cpu`](super::cpu): compiled in or detected at run time); else 4 × 4 / 2 × 2 SSE2 (always present) |
//! | aarch64 with NEON | 4 × 4 / 2 × 2 NEON |
//! | others, and under Miri | 4 × 4 / 2 × 2 portable (scalar, the same block order) |
//!
//! AVX-512 is not used: its intrinsics are stable from Rust 1.89, above this crate's MSRV.
//!
//! The micro-kernels move elements through vector registers, so they run only for element
//! types whose every byte is initialised ([`is_plain`]).

#![expect(
    clippy::inline_always,
    reason = "micro-kernels must inline into their target-feature callers"
)]

use core::mem::size_of;

#[cfg(all(target_arch = "x86_64", not(miri)))]
use crate::kernel::cpu::has_avx;
use crate::kernel::drive::step;
use crate::kernel::element::is_plain;

/// Whether [`transpose_unchecked`] has a SIMD micro-kernel for `T` (4- and 8-byte
/// primitives).
#[inline]
pub(crate) fn transposes<T: 'static>() -> bool {
    matches!(size_of::<T>(), 4 | 8) && is_plain::<T>()
}

/// elements.
///
/// # Safety
///
/// `T` is a 4- or 8-byte plain type ([`transposes`]); every `dst + i·dr + j` and
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
        "transpose_unchecked: not a 4- or 8-byte primitive"
    );
    debug_assert!(
        ea == 0 || eb == 0 || (!dst.is_null() && !src.is_null()),
        "transpose_unchecked: null block"
    );
    if size_of::<T>() == 8 {
        // SAFETY: the caller's contract, for 8-byte elements.
        unsafe { transpose64(dst.cast::<f64>(), dr, src.cast::<f64>(), sr, ea, eb) };
        return;
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
                micro_portable::<f32, 4>(d, dr, s, sr)
            })
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
                micro_portable::<f64, 2>(d, dr, s, sr)
            })
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

/// The portable twin of the SIMD micro-kernels: one `W × W` block, element by element.
///
/// # Safety
///
/// Every `d + i·dr + j` and `s + i + j·sr` (`i, j < W`) is an element of its slice.
#[cfg_attr(
    all(
        any(
            target_arch = "x86_64",
            all(target_arch = "aarch64", target_feature = "neon")
        ),
        not(miri),
        not(test)
    ),
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

#[cfg(all(target_arch = "x86_64", not(miri)))]
mod x86 {
    use core::arch::x86_64::{
        _mm_loadu_pd, _mm_storeu_pd, _mm_unpackhi_pd, _mm_unpacklo_pd, _mm256_loadu_pd,
        _mm256_permute2f128_pd, _mm256_storeu_pd, _mm256_unpackhi_pd, _mm256_unpacklo_pd,
    };
    use core::arch::x86_64::{
        _mm_loadu_ps, _mm_movehl_ps, _mm_movelh_ps, _mm_storeu_ps, _mm_unpackhi_ps,
        _mm_unpacklo_ps, _mm256_loadu_ps, _mm256_permute2f128_ps, _mm256_shuffle_ps,
        _mm256_storeu_ps, _mm256_unpackhi_ps, _mm256_unpacklo_ps,
    };

    use super::blocks;
    use crate::kernel::drive::step;

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
        // SAFETY: the caller's contract; `micro_avx` needs AVX, which this function has.
        unsafe { blocks::<f32, 8>(d, dr, s, sr, ea, eb, |d, s| micro_avx(d, dr, s, sr)) };
    }

    /// One 8 × 8 block with AVX.
    ///
    /// # Safety
    ///
    /// AVX is present; every `d + i·dr + j` and `s + i + j·sr` (`i, j < 8`) is an element of
    /// its slice.
    #[target_feature(enable = "avx")]
    #[inline]
    unsafe fn micro_avx(d: *mut f32, dr: isize, s: *const f32, sr: isize) {
        // SAFETY: rows `j < 8` of 8 elements at `s + j·sr` (contract).
        let r = unsafe {
            [
                _mm256_loadu_ps(s),
                _mm256_loadu_ps(s.offset(sr)),
                _mm256_loadu_ps(s.offset(step(2, sr))),
                _mm256_loadu_ps(s.offset(step(3, sr))),
                _mm256_loadu_ps(s.offset(step(4, sr))),
                _mm256_loadu_ps(s.offset(step(5, sr))),
                _mm256_loadu_ps(s.offset(step(6, sr))),
                _mm256_loadu_ps(s.offset(step(7, sr))),
            ]
        };
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
        let out = [
            _mm256_permute2f128_ps::<0x20>(u0, u4),
            _mm256_permute2f128_ps::<0x20>(u1, u5),
            _mm256_permute2f128_ps::<0x20>(u2, u6),
            _mm256_permute2f128_ps::<0x20>(u3, u7),
            _mm256_permute2f128_ps::<0x31>(u0, u4),
            _mm256_permute2f128_ps::<0x31>(u1, u5),
            _mm256_permute2f128_ps::<0x31>(u2, u6),
            _mm256_permute2f128_ps::<0x31>(u3, u7),
        ];
        for (i, v) in out.into_iter().enumerate() {
            // SAFETY: row `i < 8` of 8 elements at `d + i·dr` (contract).
            unsafe { _mm256_storeu_ps(d.offset(step(i, dr)), v) };
        }
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
        // SAFETY: the caller's contract; `micro_avx_f64` needs AVX, which this function has.
        unsafe { blocks::<f64, 4>(d, dr, s, sr, ea, eb, |d, s| micro_avx_f64(d, dr, s, sr)) };
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
        let (r0, r1, r2, r3) = unsafe {
            (
                _mm256_loadu_pd(s),
                _mm256_loadu_pd(s.offset(sr)),
                _mm256_loadu_pd(s.offset(step(2, sr))),
                _mm256_loadu_pd(s.offset(step(3, sr))),
            )
        };
        // t0 = a0b0 a0b1 a2b0 a2b1, t1 = a1b0 a1b1 a3b0 a3b1, t2/t3 the same for b2, b3.
        let t0 = _mm256_unpacklo_pd(r0, r1);
        let t1 = _mm256_unpackhi_pd(r0, r1);
        let t2 = _mm256_unpacklo_pd(r2, r3);
        let t3 = _mm256_unpackhi_pd(r2, r3);
        let out = [
            _mm256_permute2f128_pd::<0x20>(t0, t2),
            _mm256_permute2f128_pd::<0x20>(t1, t3),
            _mm256_permute2f128_pd::<0x31>(t0, t2),
            _mm256_permute2f128_pd::<0x31>(t1, t3),
        ];
        for (i, v) in out.into_iter().enumerate() {
            // SAFETY: row `i < 4` of 4 elements at `d + i·dr` (contract).
            unsafe { _mm256_storeu_pd(d.offset(step(i, dr)), v) };
        }
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
    fn transpose_matches_scalar_at_block_sizes_and_tails() {
        for (ea, eb) in [
            (1, 1),
            (4, 4),
            (8, 8),
            (3, 5),
            (9, 17),
            (16, 16),
            (13, 8),
            (8, 13),
        ] {
            check(ea, eb);
            check64(ea, eb);
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
