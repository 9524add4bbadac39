//! The aarch64 unit: NEON `tbl`.

use core::arch::aarch64::{
    uint8x16_t, vbslq_u8, vdupq_n_u8, vget_high_u8, vget_low_u8, vld1q_u8, vorrq_u8, vqtbl1q_u8,
    vreinterpretq_u8_u16, vreinterpretq_u8_u32, vreinterpretq_u8_u64, vreinterpretq_u16_u8,
    vreinterpretq_u32_u8, vreinterpretq_u64_u8, vst1_u8, vst1q_u8, vzip1q_u8, vzip1q_u16,
    vzip1q_u32, vzip1q_u64, vzip2q_u8, vzip2q_u16, vzip2q_u32, vzip2q_u64,
};

use super::algorithm::{Unit, store_each};

/// NEON: one group a vector; `tbl` yields zero for an index past 15, as `0x80` is.
pub(crate) struct Neon;

impl Unit for Neon {
    type V = uint8x16_t;
    const GROUPS: usize = 1;
    const STREAMS: bool = false;
    const ALIGN: usize = 16;
    #[inline(always)]
    unsafe fn zero() -> uint8x16_t {
        // SAFETY: the trait's contract (NEON is enabled at compile time; the memory is
        // the caller's).
        unsafe { vdupq_n_u8(0) }
    }
    #[inline(always)]
    unsafe fn mask(m: &[u8; 16]) -> uint8x16_t {
        // SAFETY: the trait's contract (NEON is enabled at compile time; the memory is
        // the caller's).
        unsafe { vld1q_u8(m.as_ptr()) }
    }
    #[inline(always)]
    unsafe fn load_plane(p: *const u8) -> uint8x16_t {
        // SAFETY: the trait's contract (NEON is enabled at compile time; the memory is
        // the caller's).
        unsafe { vld1q_u8(p) }
    }
    #[inline(always)]
    unsafe fn store_plane(p: *mut u8, v: uint8x16_t, _stream: bool) {
        // SAFETY: the trait's contract (NEON is enabled at compile time; the memory is
        // the caller's).
        unsafe { vst1q_u8(p, v) }
    }
    #[inline(always)]
    unsafe fn load_chunk(p: *const u8, _gap: isize) -> uint8x16_t {
        // SAFETY: the trait's contract (NEON is enabled at compile time; the memory is
        // the caller's).
        unsafe { vld1q_u8(p) }
    }
    #[inline(always)]
    unsafe fn store_group(p: *mut u8, v: uint8x16_t, _g: usize) {
        // SAFETY: the trait's contract (NEON is enabled at compile time; the memory is
        // the caller's).
        unsafe { vst1q_u8(p, v) }
    }
    #[inline(always)]
    unsafe fn store_half_group(p: *mut u8, v: uint8x16_t, _g: usize, hi: bool) {
        let half = if hi {
            // SAFETY: NEON is enabled at compile time (the trait's contract); a register
            // move.
            unsafe { vget_high_u8(v) }
        } else {
            // SAFETY: NEON is enabled at compile time (the trait's contract); a register
            // move.
            unsafe { vget_low_u8(v) }
        };
        // SAFETY: the trait's contract (NEON is enabled at compile time; the 8 bytes at `p`
        // are the caller's).
        unsafe { vst1_u8(p, half) }
    }
    #[inline(always)]
    unsafe fn store_chunks<const C: usize>(p: *mut u8, chunks: [uint8x16_t; C], _stream: bool) {
        let store = |q: *mut u8, v: uint8x16_t| {
            // SAFETY: `store_each` hands over chunk `m`'s 16 bytes at `q = p + 16·m`, which
            // the trait's contract gives; NEON is enabled at compile time.
            unsafe { vst1q_u8(q, v) };
        };
        // SAFETY: the trait's contract (the memory is the caller's); `store` stores one
        // 16-byte vector.
        unsafe { store_each(p, chunks, store) }
    }
    #[inline(always)]
    unsafe fn shuffle(v: uint8x16_t, m: uint8x16_t) -> uint8x16_t {
        // SAFETY: the trait's contract (NEON is enabled at compile time; the memory is
        // the caller's).
        unsafe { vqtbl1q_u8(v, m) }
    }
    #[inline(always)]
    unsafe fn or(a: uint8x16_t, b: uint8x16_t) -> uint8x16_t {
        // SAFETY: the trait's contract (NEON is enabled at compile time; the memory is
        // the caller's).
        unsafe { vorrq_u8(a, b) }
    }
    #[inline(always)]
    unsafe fn blend(a: uint8x16_t, b: uint8x16_t, sel: uint8x16_t) -> uint8x16_t {
        // SAFETY: the trait's contract (NEON is enabled at compile time; the memory is
        // the caller's).
        unsafe { vbslq_u8(sel, b, a) }
    }
    #[inline(always)]
    unsafe fn zip(a: uint8x16_t, b: uint8x16_t, g: usize, hi: bool) -> uint8x16_t {
        // Every operation below: the trait's contract (NEON is enabled at compile time); a
        // register zip, or a reinterpret, which only renames the 16 bytes.
        match (g, hi) {
            // SAFETY: NEON (the trait's contract); a register zip.
            (1, false) => unsafe { vzip1q_u8(a, b) },
            // SAFETY: NEON (the trait's contract); a register zip.
            (1, true) => unsafe { vzip2q_u8(a, b) },
            (2, hi) => {
                // SAFETY: NEON (the trait's contract); a reinterpret.
                let a = unsafe { vreinterpretq_u16_u8(a) };
                // SAFETY: NEON (the trait's contract); a reinterpret.
                let b = unsafe { vreinterpretq_u16_u8(b) };
                let z = if hi {
                    // SAFETY: NEON (the trait's contract); a register zip.
                    unsafe { vzip2q_u16(a, b) }
                } else {
                    // SAFETY: NEON (the trait's contract); a register zip.
                    unsafe { vzip1q_u16(a, b) }
                };
                // SAFETY: NEON (the trait's contract); a reinterpret.
                unsafe { vreinterpretq_u8_u16(z) }
            }
            (4, hi) => {
                // SAFETY: NEON (the trait's contract); a reinterpret.
                let a = unsafe { vreinterpretq_u32_u8(a) };
                // SAFETY: NEON (the trait's contract); a reinterpret.
                let b = unsafe { vreinterpretq_u32_u8(b) };
                let z = if hi {
                    // SAFETY: NEON (the trait's contract); a register zip.
                    unsafe { vzip2q_u32(a, b) }
                } else {
                    // SAFETY: NEON (the trait's contract); a register zip.
                    unsafe { vzip1q_u32(a, b) }
                };
                // SAFETY: NEON (the trait's contract); a reinterpret.
                unsafe { vreinterpretq_u8_u32(z) }
            }
            (_, hi) => {
                // SAFETY: NEON (the trait's contract); a reinterpret.
                let a = unsafe { vreinterpretq_u64_u8(a) };
                // SAFETY: NEON (the trait's contract); a reinterpret.
                let b = unsafe { vreinterpretq_u64_u8(b) };
                let z = if hi {
                    // SAFETY: NEON (the trait's contract); a register zip.
                    unsafe { vzip2q_u64(a, b) }
                } else {
                    // SAFETY: NEON (the trait's contract); a register zip.
                    unsafe { vzip1q_u64(a, b) }
                };
                // SAFETY: NEON (the trait's contract); a reinterpret.
                unsafe { vreinterpretq_u8_u64(z) }
            }
        }
    }
}
