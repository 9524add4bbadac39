//! The aarch64 NEON micro-kernels: 4 × 4 blocks of 4-byte and 2 × 2 of 8-byte elements.

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
