//! Channel counts that are not a multiple of a group's `E = 16 / SIZE` elements (6 to 15
//! channels of `u8`, 6 of `i16`, ...): padded transposes and overlapping stores (or loads)
//! of whole pixels. Multiples of `E` interleave here too (no padding, no overlap) unless
//! they stream: storing whole pixels costs less than regrouping them into 32-byte chunks.
//!
//! A pixel of `C` channels spans `Q = ⌈C / E⌉` blocks of `E` channels, the last one short.
//! Towards the interleaved side, each block's `E` planes (those past `C` read as zero) are
//! transposed in registers ([`transpose_square`]: `E·log2 E` zips), which gives each of the
//! group's `E` pixels that block of channels as one 16-byte vector, stored whole at the
//! pixel's block. A last block of at most 8 bytes takes only `R = 8 / SIZE` planes and
//! `log2 R` rounds ([`interleave_rows`]), which leave two pixels a vector, stored 8 bytes
//! each, or, where that block is the whole pixel (6 to 8 `u8`), compacted by one byte
//! shuffle and stored as one 16-byte store a pair. Either way the last block's store runs a
//! few bytes into the next pixel, whose own stores come later and overwrite them. The way
//! back loads each pixel's blocks 16 bytes at a time (the last one reading a few bytes of
//! the next pixel) and transposes them into planes.
//!
//! The byte-shuffle masks need `C` shuffles (and `C` ORs or blends) per 16 bytes moved; this
//! needs about `Q·E·log2 E / C` zips and `Q·E / C` stores, so it takes over where the masks
//! cost more ([`padded_shape`]). The stores are plain (the overlap rules out non-temporal
//! stores towards the interleaved side), and the last pixels of a run (enough to cover the
//! overrun) are left to the caller's scalar loop, so no store or load leaves the run.

use super::algorithm::{
    Unit, at, elements, interleave_rows, pixels_per, transpose_square, transposes,
};
use crate::kernel::drive::step;

/// Whether `C` channels of `SIZE` bytes take the padded transposes towards the interleaved
/// side (`INTER`) or back ([`padded_shape`]).
pub(super) const fn padded<const C: usize, const SIZE: usize, const INTER: bool>() -> bool {
    padded_shape(C, SIZE, INTER)
}

/// Whether `c` channels of `size` bytes that are not a multiple of a group's `E` elements
/// take the padded transposes towards the interleaved side (`inter`) or back: where the
/// masks cost more. Measured on x86-64 with AVX2 (256 Ki pixels, the times of both ways
/// side by side): towards the interleaved side the masks keep `u8` up to 5 channels, `i16`
/// up to 5 and 7 to 9, `f32` up to 9; the way back, `u8` and `i16` up to 5, `f32` up to 8.
/// (Multiples of `E` take the square transposes; towards the interleaved side see
/// [`pixel_stores`].)
pub(super) const fn padded_shape(c: usize, size: usize, inter: bool) -> bool {
    let square = match 16usize.checked_div(size) {
        Some(e) => matches!(c.checked_rem(e), Some(0)),
        None => true,
    };
    let wins = match (size, inter) {
        (1, _) | (2, false) => c >= 6,
        (2, true) => c == 6 || c >= 10,
        (4, true) => c >= 10,
        (4, false) => c >= 9,
        _ => false,
    };
    wins && c <= 16 && !square
}

/// Whether a step towards the interleaved side stores whole pixels ([`interleave_padded`]):
/// the [`padded`] shapes, and the multiples of `E` unless the stores `stream` (non-temporal
/// stores need the whole aligned chunks of the square transposes); storing their pixels
/// unpadded costs less than regrouping them into chunks (16 `u8`: 1.05 of `copy_from_slice`
/// against 0.34).
pub(super) const fn pixel_stores<const C: usize, const SIZE: usize>(stream: bool) -> bool {
    padded::<C, SIZE, true>() || (transposes::<C, SIZE>() && !stream)
}

/// The blocks of `E` channels a pixel of `c` channels of `size` bytes spans, `⌈c / E⌉`, and
/// how many bytes from the start of the last pixel's last block a step stores towards the
/// interleaved side (`inter`) or loads back: 16, but towards the interleaved side 8 where a
/// last block of at most 8 bytes follows others (two pixels a vector, 8 bytes each), and
/// `16 − width` where it is the pixel's only block (two pixels compacted into one 16-byte
/// store, which starts a pixel earlier).
const fn blocks(c: usize, size: usize, inter: bool) -> (usize, usize) {
    let width = c.wrapping_mul(size);
    let q = width.div_ceil(16);
    let last = width.wrapping_sub(q.wrapping_sub(1).wrapping_mul(16));
    let reach = match (inter && last <= 8, q) {
        (false, _) => 16,
        (true, 1) => 16usize.wrapping_sub(width),
        (true, _) => 8,
    };
    (q, reach)
}

/// The compaction of two pixels of `C` channels of `SIZE` bytes, computed at compile time.
struct Pair<const C: usize, const SIZE: usize>;

impl<const C: usize, const SIZE: usize> Pair<C, SIZE> {
    /// [`pair_mask`] for the pixel's width.
    const MASK: [u8; 16] = pair_mask(C.wrapping_mul(SIZE));
}

/// The byte-shuffle mask that compacts two pixels of `width <= 8` bytes, the first in a
/// vector's low half and the second in its high half, into the vector's first `2·width`
/// bytes (zeros after them).
#[expect(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    reason = "evaluated at compile time: `b < 16` indexes the mask, `8 + b - width < 16` for \
              `width <= b < 2·width <= 16` fits a byte"
)]
const fn pair_mask(width: usize) -> [u8; 16] {
    let mut m = [0x80u8; 16];
    let mut b = 0;
    while b < 16 {
        if b < width {
            m[b] = b as u8;
        } else if b < 2 * width {
            m[b] = (8 + b - width) as u8;
        }
        b += 1;
    }
    m
}

/// Pixels at the end of a run of `c` channels of `size` bytes that the padded steps leave to
/// the scalar loop: enough that the bytes a pixel's last block runs past it lie inside the
/// run (0 for shapes that are not [`padded_shape`]).
pub(super) const fn slack(c: usize, size: usize, inter: bool) -> usize {
    if !padded_shape(c, size, inter) {
        return 0;
    }
    let width = c.wrapping_mul(size);
    let (q, reach) = blocks(c, size, inter);
    // The last pixel's accesses end `pad` bytes past it.
    let pad = q
        .wrapping_sub(1)
        .wrapping_mul(16)
        .wrapping_add(reach)
        .wrapping_sub(width);
    match (pad.checked_div(width), pad.checked_rem(width)) {
        (Some(q), Some(0)) => q,
        (Some(q), _) => q.wrapping_add(1),
        (None, _) => 0,
    }
}

/// The pixels of a run of `n` that padded steps may cover: all but the [`slack`].
pub(super) const fn reach<const C: usize, const SIZE: usize, const INTER: bool>(n: usize) -> usize {
    n.saturating_sub(const { slack(C, SIZE, INTER) })
}

/// Planar -> interleaved for `C` channels of `SIZE` bytes ([`padded`]) on the unit `U`, in
/// whole steps: `d[p·C + k] = s[k·plane + p]` (in elements) for the returned number of
/// pixels `p`. The pixels from there to the end of the run may hold scratch bytes, which the
/// caller's loop overwrites.
///
/// # Safety
///
/// `U`'s target feature is enabled, and [`interleave_on`](super::algorithm::interleave_on)'s
/// contract holds.
#[inline(always)]
pub(super) unsafe fn interleave_padded<U: Unit, const C: usize, const SIZE: usize>(
    d: *mut u8,
    s: *const u8,
    plane: isize,
    n: usize,
) -> usize {
    let (q, extent) = blocks(C, SIZE, true);
    let per = pixels_per::<U, SIZE>();
    let steps = reach::<C, SIZE, true>(n).checked_div(per).unwrap_or(0);
    for i in 0..steps {
        let (planar, inter) = at::<C, SIZE>(i.wrapping_mul(per));
        let (d, s) = (d.wrapping_offset(inter), s.wrapping_offset(planar));
        // The last block first: its stores run into the next pixel's first block, which
        // the full blocks' stores then write (for one block, the next pixel's own store).
        // SAFETY: the step's pixels `p..p + per` (`p + per <= n - slack`): the caller's
        // contract for the last block of each.
        unsafe { interleave_block::<U, C, SIZE>(d, s, plane, q.wrapping_sub(1), extent < 16) };
        for j in 0..q.wrapping_sub(1) {
            // SAFETY: the step's pixels `p..p + per` (`p + per <= n - slack`): the caller's
            // contract for block `j` of each.
            unsafe { interleave_block::<U, C, SIZE>(d, s, plane, j, false) };
        }
    }
    steps.wrapping_mul(per)
}

/// Block `j` (channels `j·E..`) of a step's pixels, whose first bytes are at `d` and, in
/// plane 0, at `s`: with `halves` (the last block, of at most 8 bytes) from `8 / SIZE` planes,
/// two pixels a vector, stored 8 bytes each or, where the block is the pixel's only one,
/// compacted and stored 16 bytes a pair; else from `E` planes, 16 bytes a pixel.
///
/// # Safety
///
/// `U`'s target feature is enabled; the planes' `per` elements from `s` are source bytes,
/// and the pixels' block `j` and the bytes it runs past a pixel are destination bytes.
#[inline(always)]
#[expect(
    clippy::indexing_slicing,
    reason = "`k < E <= 16` and `k / 2` index the 16 rows"
)]
unsafe fn interleave_block<U: Unit, const C: usize, const SIZE: usize>(
    d: *mut u8,
    s: *const u8,
    plane: isize,
    j: usize,
    halves: bool,
) {
    let e = elements::<SIZE>();
    let count = if halves { e / 2 } else { e };
    let (pixel, group) = (step(C, step(SIZE, 1)), step(C, 16));
    // SAFETY: the caller's contract.
    let zero = unsafe { U::zero() };
    let mut rows = [zero; 16];
    for (k, row) in rows.iter_mut().enumerate().take(count) {
        let channel = j.wrapping_mul(e).wrapping_add(k);
        if channel < C {
            // SAFETY: plane `channel < C` starts at a source byte (contract).
            let at = unsafe { s.offset(step(channel, plane)) };
            // SAFETY: plane `channel < C`'s `per` elements from `at` (contract).
            *row = unsafe { U::load_plane(at) };
        }
    }
    // SAFETY: the caller's contract.
    let t = unsafe { interleave_rows::<U, SIZE>(rows, count) };
    let width = C.wrapping_mul(SIZE);
    if halves && width <= 8 {
        // SAFETY: the caller's contract.
        let mask = unsafe { U::mask(&Pair::<C, SIZE>::MASK) };
        for g in 0..U::GROUPS {
            for (k, &v) in t.iter().enumerate().take(count) {
                let at = step(g, group).wrapping_add(step(k.wrapping_mul(2), pixel));
                let v = if width == 8 {
                    v
                } else {
                    // SAFETY: the caller's contract (`U`'s target feature is enabled).
                    unsafe { U::shuffle(v, mask) }
                };
                // SAFETY: pixel `g·E + 2k` of the step starts a destination byte (contract).
                let to = unsafe { d.offset(at) };
                // SAFETY: pixels `g·E + 2k` and `g·E + 2k + 1` of the step, and the bytes the
                // 16-byte store runs past them (contract).
                unsafe { U::store_group(to, v, g) };
            }
        }
        return;
    }
    for g in 0..U::GROUPS {
        for k in 0..e {
            let at = step(g, group)
                .wrapping_add(step(k, pixel))
                .wrapping_add(step(j, 16));
            // SAFETY: block `j` of pixel `g·E + k` of the step starts a destination byte
            // (contract).
            let to = unsafe { d.offset(at) };
            if halves {
                // SAFETY: block `j` of pixel `g·E + k` of the step, and the bytes it runs
                // past the pixel (contract).
                unsafe { U::store_half_group(to, t[k / 2], g, k % 2 == 1) };
            } else {
                // SAFETY: block `j` of pixel `g·E + k` of the step, and the bytes it runs
                // past the pixel (contract).
                unsafe { U::store_group(to, t[k], g) };
            }
        }
    }
}

/// The `C` planes of a step (the `per` pixels whose first byte is at `s`) of pixels of `C`
/// lanes of `SIZE` bytes ([`padded`] the way back): plane `k` is lane `k` of each pixel.
///
/// # Safety
///
/// `U`'s target feature is enabled; the step's `per·C·SIZE` bytes from `s` and the bytes
/// its last pixel's last block runs past it are source bytes.
#[inline(always)]
#[expect(
    clippy::indexing_slicing,
    reason = "`j·E + r < C <= 16` indexes the planes"
)]
pub(super) unsafe fn deinterleave_step<U: Unit, const C: usize, const SIZE: usize>(
    s: *const u8,
) -> [U::V; C] {
    let e = elements::<SIZE>();
    let (q, _) = blocks(C, SIZE, false);
    let (pixel, group) = (step(C, step(SIZE, 1)), step(C, 16));
    // SAFETY: the caller's contract.
    let zero = unsafe { U::zero() };
    let mut planes = [zero; C];
    for j in 0..q {
        let mut rows = [zero; 16];
        for (k, row) in rows.iter_mut().enumerate().take(e) {
            let at = step(k, pixel).wrapping_add(step(j, 16));
            // SAFETY: block `j` of pixel `p + k` of the step starts a source byte (contract).
            let from = unsafe { s.offset(at) };
            // SAFETY: block `j` of pixels `p + k` and `p + E + k` (`group` bytes later),
            // and for the last block the bytes after it (contract).
            *row = unsafe { U::load_chunk(from, group) };
        }
        // SAFETY: the caller's contract.
        let t = unsafe { transpose_square::<U, SIZE>(rows) };
        for (r, &v) in t.iter().enumerate().take(e) {
            let channel = j.wrapping_mul(e).wrapping_add(r);
            if channel < C {
                planes[channel] = v;
            }
        }
    }
    planes
}
