//! The portable twin: the same loops and masks on `[u8; 16]` arrays (what Miri runs).

use super::algorithm::{Unit, store_each};

/// One group a vector, a plain byte array.
pub(crate) struct Portable;

impl Unit for Portable {
    type V = [u8; 16];
    const GROUPS: usize = 1;
    const STREAMS: bool = false;
    const ALIGN: usize = 16;
    #[inline(always)]
    unsafe fn zero() -> [u8; 16] {
        [0; 16]
    }
    #[inline(always)]
    unsafe fn mask(m: &[u8; 16]) -> [u8; 16] {
        *m
    }
    #[inline(always)]
    unsafe fn load_plane(p: *const u8) -> [u8; 16] {
        // SAFETY: no feature is needed; the memory is the caller's (the trait's
        // contract), read and written unaligned.
        unsafe { p.cast::<[u8; 16]>().read_unaligned() }
    }
    #[inline(always)]
    unsafe fn store_plane(p: *mut u8, v: [u8; 16], _stream: bool) {
        // SAFETY: no feature is needed; the memory is the caller's (the trait's
        // contract), read and written unaligned.
        unsafe { p.cast::<[u8; 16]>().write_unaligned(v) }
    }
    #[inline(always)]
    unsafe fn load_chunk(p: *const u8, _gap: isize) -> [u8; 16] {
        // SAFETY: no feature is needed; the memory is the caller's (the trait's
        // contract), read and written unaligned.
        unsafe { p.cast::<[u8; 16]>().read_unaligned() }
    }
    #[inline(always)]
    unsafe fn store_group(p: *mut u8, v: [u8; 16], _g: usize) {
        // SAFETY: no feature is needed; the memory is the caller's (the trait's
        // contract), read and written unaligned.
        unsafe { p.cast::<[u8; 16]>().write_unaligned(v) }
    }
    #[inline(always)]
    unsafe fn store_half_group(p: *mut u8, v: [u8; 16], _g: usize, hi: bool) {
        let (lo, high) = v.split_at(8);
        let half = if hi { high } else { lo };
        // SAFETY: no feature is needed; the memory is the caller's (the trait's
        // contract); 8 bytes from a 16-byte array.
        unsafe { core::ptr::copy_nonoverlapping(half.as_ptr(), p, 8) }
    }
    #[inline(always)]
    unsafe fn store_chunks<const C: usize>(p: *mut u8, chunks: [[u8; 16]; C], _stream: bool) {
        let store = |q: *mut u8, v: [u8; 16]| {
            // SAFETY: `store_each` hands over chunk `m`'s 16 bytes at `q = p + 16·m`, which
            // the trait's contract gives; written unaligned.
            unsafe { q.cast::<[u8; 16]>().write_unaligned(v) };
        };
        // SAFETY: no feature is needed; the memory is the caller's (the trait's contract);
        // `store` stores one 16-byte vector.
        unsafe { store_each(p, chunks, store) }
    }
    #[inline(always)]
    unsafe fn shuffle(v: [u8; 16], m: [u8; 16]) -> [u8; 16] {
        m.map(|i| {
            if i & 0x80 == 0 {
                v.get(usize::from(i & 15)).copied().unwrap_or(0)
            } else {
                0
            }
        })
    }
    #[inline(always)]
    unsafe fn or(mut a: [u8; 16], b: [u8; 16]) -> [u8; 16] {
        for (x, y) in a.iter_mut().zip(b) {
            *x |= y;
        }
        a
    }
    #[inline(always)]
    unsafe fn blend(mut a: [u8; 16], b: [u8; 16], sel: [u8; 16]) -> [u8; 16] {
        for ((x, y), m) in a.iter_mut().zip(b).zip(sel) {
            *x = (*x & !m) | (y & m);
        }
        a
    }
    #[inline(always)]
    unsafe fn zip(a: [u8; 16], b: [u8; 16], g: usize, hi: bool) -> [u8; 16] {
        // Output byte `o` is byte `o % g` of block `o / g`: block `2i` is `a`'s block `i`,
        // block `2i + 1` is `b`'s, counting from the high half's first block when `hi`.
        let half = if hi { 8 } else { 0 };
        core::array::from_fn(|o| {
            let (block, byte) = (o.checked_div(g).unwrap_or(0), o.checked_rem(g).unwrap_or(0));
            let from = if block % 2 == 0 { &a } else { &b };
            let at = (block / 2)
                .wrapping_mul(g)
                .wrapping_add(byte)
                .wrapping_add(half);
            from.get(at).copied().unwrap_or(0)
        })
    }
}
