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
pub(crate) unsafe fn micro_f64(d: *mut f64, dr: isize, s: *const f64, sr: isize) {
    // SAFETY: row 0 of 2 elements at `s` (contract); NEON is enabled (the module's cfg).
    let r0 = unsafe { vld1q_f64(s) };
    // SAFETY: `s + sr` is an element of the source slice (contract).
    let s1 = unsafe { s.offset(sr) };
    // SAFETY: row 1 of 2 elements at `s1` (contract); NEON.
    let r1 = unsafe { vld1q_f64(s1) };
    // SAFETY: NEON is enabled (the module's cfg); a register shuffle.
    let o0 = unsafe { vtrn1q_f64(r0, r1) };
    // SAFETY: row 0 of 2 elements at `d` (contract); NEON.
    unsafe { vst1q_f64(d, o0) };
    // SAFETY: `d + dr` is an element of the destination slice (contract).
    let d1 = unsafe { d.offset(dr) };
    // SAFETY: NEON is enabled (the module's cfg); a register shuffle.
    let o1 = unsafe { vtrn2q_f64(r0, r1) };
    // SAFETY: row 1 of 2 elements at `d1` (contract); NEON.
    unsafe { vst1q_f64(d1, o1) };
}

/// One 4 × 4 block: `d[i·dr + j] = s[i + j·sr]`, NEON.
///
/// # Safety
///
/// Every `d + i·dr + j` and `s + i + j·sr` (`i, j < 4`) is an element of its slice.
#[inline(always)]
pub(crate) unsafe fn micro(d: *mut f32, dr: isize, s: *const f32, sr: isize) {
    // SAFETY: row 0 of 4 elements at `s` (contract); NEON is enabled (the module's cfg).
    let r0 = unsafe { vld1q_f32(s) };
    // SAFETY: `s + sr` is an element of the source slice (contract).
    let s1 = unsafe { s.offset(sr) };
    // SAFETY: row 1 of 4 elements at `s1` (contract); NEON.
    let r1 = unsafe { vld1q_f32(s1) };
    // SAFETY: `s + 2·sr` is an element of the source slice (contract).
    let s2 = unsafe { s.offset(step(2, sr)) };
    // SAFETY: row 2 of 4 elements at `s2` (contract); NEON.
    let r2 = unsafe { vld1q_f32(s2) };
    // SAFETY: `s + 3·sr` is an element of the source slice (contract).
    let s3 = unsafe { s.offset(step(3, sr)) };
    // SAFETY: row 3 of 4 elements at `s3` (contract); NEON.
    let r3 = unsafe { vld1q_f32(s3) };
    // Pairs of rows: t0 = a0b0 a0b1 a2b0 a2b1, t1 = a1b0 a1b1 a3b0 a3b1, ...
    // SAFETY: NEON is enabled (the module's cfg); a register shuffle.
    let t0 = unsafe { vtrn1q_f32(r0, r1) };
    // SAFETY: NEON; a register shuffle.
    let t1 = unsafe { vtrn2q_f32(r0, r1) };
    // SAFETY: NEON; a register shuffle.
    let t2 = unsafe { vtrn1q_f32(r2, r3) };
    // SAFETY: NEON; a register shuffle.
    let t3 = unsafe { vtrn2q_f32(r2, r3) };
    // SAFETY: NEON; a reinterpret only renames the 16 bytes.
    let w0 = unsafe { vreinterpretq_f64_f32(t0) };
    // SAFETY: NEON; a reinterpret only renames the 16 bytes.
    let w1 = unsafe { vreinterpretq_f64_f32(t1) };
    // SAFETY: NEON; a reinterpret only renames the 16 bytes.
    let w2 = unsafe { vreinterpretq_f64_f32(t2) };
    // SAFETY: NEON; a reinterpret only renames the 16 bytes.
    let w3 = unsafe { vreinterpretq_f64_f32(t3) };
    // SAFETY: NEON; a register shuffle.
    let o0 = unsafe { vtrn1q_f64(w0, w2) };
    // SAFETY: NEON; a register shuffle.
    let o1 = unsafe { vtrn1q_f64(w1, w3) };
    // SAFETY: NEON; a register shuffle.
    let o2 = unsafe { vtrn2q_f64(w0, w2) };
    // SAFETY: NEON; a register shuffle.
    let o3 = unsafe { vtrn2q_f64(w1, w3) };
    // SAFETY: NEON; a reinterpret only renames the 16 bytes.
    let v0 = unsafe { vreinterpretq_f32_f64(o0) };
    // SAFETY: row 0 of 4 elements at `d` (contract); NEON.
    unsafe { vst1q_f32(d, v0) };
    // SAFETY: `d + dr` is an element of the destination slice (contract).
    let d1 = unsafe { d.offset(dr) };
    // SAFETY: NEON; a reinterpret only renames the 16 bytes.
    let v1 = unsafe { vreinterpretq_f32_f64(o1) };
    // SAFETY: row 1 of 4 elements at `d1` (contract); NEON.
    unsafe { vst1q_f32(d1, v1) };
    // SAFETY: `d + 2·dr` is an element of the destination slice (contract).
    let d2 = unsafe { d.offset(step(2, dr)) };
    // SAFETY: NEON; a reinterpret only renames the 16 bytes.
    let v2 = unsafe { vreinterpretq_f32_f64(o2) };
    // SAFETY: row 2 of 4 elements at `d2` (contract); NEON.
    unsafe { vst1q_f32(d2, v2) };
    // SAFETY: `d + 3·dr` is an element of the destination slice (contract).
    let d3 = unsafe { d.offset(step(3, dr)) };
    // SAFETY: NEON; a reinterpret only renames the 16 bytes.
    let v3 = unsafe { vreinterpretq_f32_f64(o3) };
    // SAFETY: row 3 of 4 elements at `d3` (contract); NEON.
    unsafe { vst1q_f32(d3, v3) };
}
