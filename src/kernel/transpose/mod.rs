//! 2-D transposes of 1-, 2-, 4- and 8-byte elements: SIMD micro-kernels in blocks, each
//! with a portable twin, and a streaming macro-kernel for transposes past the last-level
//! cache.
//!
//! | target | micro-kernel (1-byte / 2-byte / 4-byte / 8-byte) |
//! | --- | --- |
//! | x86-64 | 8 × 8 / 8 × 8 SSE2; 4-byte: 8 × 8 AVX2 tiles (one shuffle network, `x86::network`, for every 4-byte path: tiles loaded by rows of strided blocks, `x86::band`, or through a row pointer each, the grouped transpose) when the CPU has AVX2, else 4 × 4 SSE2; 8-byte: 8 × 8 AVX line kernels (edges 4 × 4) when it has AVX, else 2 × 2 SSE2 ([`cpu`](super::cpu): compiled in or detected at run time) |
//! | aarch64 with NEON | 8 × 8 / 8 × 8 portable; 4 × 4 / 2 × 2 NEON |
//! | others, and under Miri | 8 × 8 / 8 × 8 / 4 × 4 / 2 × 2 portable (scalar, the same block order) |
//!
//! A *line kernel* reads each of its source rows as one whole 64-byte cache line and writes
//! whole destination lines, so a line crosses the memory bus once even where power-of-two
//! row strides make the rows alias in the L1 cache. [`transpose_stream_unchecked`] (copies
//! of 32 MiB and more) cuts the block at the destination's line boundaries into line
//! kernels that store with non-temporal stores, groups them in macro-tiles of 32 × 32
//! kernels for the TLB, and prefetches the source four kernels ahead (the HPTT recipe).
//! Where both row strides are whole pages (4096² `f32`), one line per destination row would
//! land every write on the same memory bank, and where the destination rows are not a
//! whole number of lines apart (3000² `f32`) no column starts a line in every row; in both
//! cases [`tile_blocks`](stream::tile_blocks) transposes 128 source rows by 64 columns into
//! a 32 KiB stack tile first and writes each destination row 512 bytes at a time, its whole
//! lines with non-temporal stores. Transposes that stay in the cache but are at least
//! [`MACRO_MIN`] both ways take the same macro-kernels with plain stores.
//!
//! AVX-512 is not used: its intrinsics are stable from Rust 1.89, above this crate's MSRV,
//! the AVX kernels already keep one core at the memory bus on the 64 MiB transposes, and on
//! the Intel core measured (Golden Cove) it would not move more bytes a cycle where the
//! kernels are not memory-bound: 512-bit in-lane shuffles issue one a cycle (port 5), 256-bit
//! integer ones two (ports 1 and 5), 64 bytes a cycle either way; while 512-bit instructions
//! are in flight port 1 takes no vector work, so 256-bit shuffles beside them drop to one a
//! cycle too; and one 64-byte store a cycle writes what two 32-byte stores into one line do
//! (the benchmarks guide has the loops that measured this).
//!
//! The micro-kernels move elements through vector registers, so they run only for element
//! types whose every byte is initialised ([`is_plain`]).

#![expect(
    clippy::inline_always,
    reason = "micro-kernels must inline into their target-feature callers"
)]

use core::mem::size_of;

use crate::kernel::backend::{Backend, Target};
use crate::kernel::drive::step;
use crate::kernel::element::is_plain;

/// Whether [`transpose_unchecked`] has a micro-kernel for `T` worth taking: 1-, 2-, 4- and
/// 8-byte primitives; on bare metal (no vector unit) 4- and 8-byte ones only, since the
/// portable 8 × 8 block of 1- and 2-byte elements costs more than the paired strided rows
/// of the small blocks firmware moves (a 64-frame stereo `i16` copy: about 1,500
/// instructions through the block against 719 on a Cortex-M4).
#[inline]
pub(crate) fn transposes<T: 'static>() -> bool {
    let sizes = if cfg!(target_os = "none") {
        matches!(size_of::<T>(), 4 | 8)
    } else {
        matches!(size_of::<T>(), 1 | 2 | 4 | 8)
    };
    sizes && is_plain::<T>()
}

/// Whether [`transpose_unchecked`] of an `ea × eb` block of `T` is worth its setup: on
/// hosts, the block holds a whole 8 × 8 tile of 1-, 2- or 4-byte elements, or four whole
/// 4 × 4 blocks of 8-byte ones (the smallest blocks of the AVX and SSE2 kernels alike), so
/// the kernel does more than its scalar edge loops and its call. A thinner block (2 × 11
/// `f32`, 5 × 7076 `u8`) costs a plain element loop's time plus the setup, and so does an
/// 8-byte one of one to three such blocks (4 × 4, 4 × 8, 6 × 12 `f64`: the call and the
/// strips' set-up, about 20 ns a block, where the inlined element loops take 8), and the
/// element loops take it. On bare metal (portable blocks, code size first) every block of
/// more than one row.
#[inline]
pub(crate) fn worth<T>(ea: usize, eb: usize) -> bool {
    if cfg!(target_os = "none") {
        return ea > 1;
    }
    let (side, blocks) = if size_of::<T>() == 8 { (4, 4) } else { (8, 1) };
    let whole = |n: usize| n.checked_div(side).unwrap_or(0);
    whole(ea).saturating_mul(whole(eb)) >= blocks
}

/// `dst[i·dr + j] = src[i + j·sr]` for `i < ea`, `j < eb`: a transpose of 1-, 2-, 4- or
/// 8-byte elements.
///
/// # Safety
///
/// `T` is a 1-, 2-, 4- or 8-byte plain type ([`transposes`]); every `dst + i·dr + j` and
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
        "transpose_unchecked: not a 1-, 2-, 4- or 8-byte primitive"
    );
    debug_assert!(
        ea == 0 || eb == 0 || (!dst.is_null() && !src.is_null()),
        "transpose_unchecked: null block"
    );
    match size_of::<T>() {
        // SAFETY: the caller's contract, for 1-byte elements, moved as `u8` bits.
        1 => unsafe { Target::transpose1(dst.cast(), dr, src.cast(), sr, ea, eb) },
        // SAFETY: the caller's contract, for 2-byte elements, moved as `u16` bits.
        2 => unsafe { Target::transpose2(dst.cast(), dr, src.cast(), sr, ea, eb) },
        // SAFETY: the caller's contract, for 4-byte elements, moved as `f32` bits.
        4 => unsafe { Target::transpose4(dst.cast(), dr, src.cast(), sr, ea, eb) },
        // SAFETY: the caller's contract, for 8-byte elements, moved as `f64` bits.
        _ => unsafe { Target::transpose8(dst.cast(), dr, src.cast(), sr, ea, eb) },
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
pub(crate) unsafe fn blocks<E: Copy, const W: usize>(
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
            // SAFETY: the block's corner `(i, j)` (`i < ea`, `j < eb`) is an element of the
            // destination slice (contract).
            let dp = unsafe { d.offset(step(i, dr).wrapping_add(step(j, 1))) };
            // SAFETY: the block's corner is an element of the source slice (contract).
            let sp = unsafe { s.offset(step(i, 1).wrapping_add(step(j, sr))) };
            // `micro` stays inside the block (contract).
            micro(dp, sp);
            j += W;
        }
        i += W;
    }
    for i in 0..ea {
        let start = if i < fa { fb } else { 0 };
        for j in start..eb {
            // SAFETY: `i < ea`, `j < eb`: `s + i + j·sr` is an element of the source slice
            // (contract).
            let sp = unsafe { s.offset(step(i, 1).wrapping_add(step(j, sr))) };
            // SAFETY: `sp` points at an element of the source slice (above).
            let x = unsafe { *sp };
            // SAFETY: `i < ea`, `j < eb`: `d + i·dr + j` is an element of the destination
            // slice (contract).
            let dp = unsafe { d.offset(step(i, dr).wrapping_add(step(j, 1))) };
            // SAFETY: `dp` points at an element of the destination slice, no source element
            // (contract).
            unsafe { *dp = x };
        }
    }
}

/// Runs `big` on every whole `B × B` block of the sub-block `..fa × ..fb` (the largest whose
/// sides are multiples of `B`), then [`blocks`] of `S × S` with `small` on the two edge strips
/// left (`.. × fb..` and `fa.. × ..fb`), whose last elements go one by one: the order of the
/// AVX transposes, with their large and small micro-kernels.
///
/// # Safety
///
/// `transpose_unchecked`'s contract, `big(d, s)` sound for a `B × B` block at `d`/`s` with
/// the same row strides, and `small` for an `S × S` one.
#[cfg(x86_kernels)]
#[inline(always)]
unsafe fn blocks_and_strips<E: Copy, const B: usize, const S: usize>(
    d: *mut E,
    dr: isize,
    s: *const E,
    sr: isize,
    [ea, eb]: [usize; 2],
    big: impl FnMut(*mut E, *const E),
    mut small: impl FnMut(*mut E, *const E),
) {
    let (ra, rb) = (
        ea.checked_rem(B).unwrap_or(0),
        eb.checked_rem(B).unwrap_or(0),
    );
    let (fa, fb) = (ea.wrapping_sub(ra), eb.wrapping_sub(rb));
    // SAFETY: the caller's contract, for the sub-block `..fa × ..fb` (whole `B × B` blocks).
    unsafe { blocks::<E, B>(d, dr, s, sr, fa, fb, big) };
    let (d1, s1) = (
        d.wrapping_offset(step(fb, 1)),
        s.wrapping_offset(step(fb, sr)),
    );
    // SAFETY: the caller's contract, for the strip `.. × fb..` (its corner wraps past the
    // block only when it is empty, and is then never read).
    unsafe { blocks::<E, S>(d1, dr, s1, sr, ea, rb, &mut small) };
    let (d2, s2) = (
        d.wrapping_offset(step(fa, dr)),
        s.wrapping_offset(step(fa, 1)),
    );
    // SAFETY: the caller's contract, for the strip `fa.. × ..fb` (likewise).
    unsafe { blocks::<E, S>(d2, dr, s2, sr, ra, fb, small) };
}

#[cfg(not(target_os = "none"))]
mod grouped;
#[cfg(not(target_os = "none"))]
pub(crate) use grouped::Grouped;

mod stream;
pub(crate) use stream::{MACRO_MIN, streams, transpose_stream_unchecked};

/// The portable twin of the SIMD micro-kernels: one `W × W` block, element by element
/// ([`tile_portable`] with the block's rows).
///
/// # Safety
///
/// Every `d + i·dr + j` and `s + i + j·sr` (`i, j < W`) is an element of its slice, no
/// destination element a source one.
#[inline(always)]
pub(crate) unsafe fn micro_portable<E: Copy, const W: usize>(
    d: *mut E,
    dr: isize,
    s: *const E,
    sr: isize,
) {
    let dst = core::array::from_fn(|i| d.wrapping_offset(step(i, dr)));
    let src = core::array::from_fn(|j| s.wrapping_offset(step(j, sr)));
    // SAFETY: destination row `i` (`d + i·dr`) and source row `j` (`s + j·sr`), `W` elements
    // each, are elements of their slices (contract): `tile_portable`'s contract.
    unsafe { tile_portable::<E, W>(dst, src) };
}

/// The portable twin of every tile: `dst[k] + i = src[i] + k` (`i, k < W`), element by
/// element, each row wherever its pointer says (the blocks' rows, [`micro_portable`], or the
/// grouped transpose's scattered columns).
///
/// # Safety
///
/// Every `src[i] + k` and `dst[k] + i` (`i, k < W`) is an element of its allocation, no
/// destination element a source one.
#[inline(always)]
pub(crate) unsafe fn tile_portable<E: Copy, const W: usize>(dst: [*mut E; W], src: [*const E; W]) {
    for (i, &sp) in src.iter().enumerate() {
        for (k, &dp) in dst.iter().enumerate() {
            // SAFETY: element `k` of source row `i` (contract).
            let x = unsafe { sp.wrapping_add(k).read() };
            // SAFETY: element `i` of destination row `k`, not a source element (contract).
            unsafe { dp.wrapping_add(i).write(x) };
        }
    }
}

#[cfg(x86_kernels)]
pub(crate) mod x86;

#[cfg(neon_kernels)]
pub(crate) mod neon;

#[cfg(test)]
#[expect(
    clippy::cast_precision_loss,
    clippy::cast_possible_wrap,
    clippy::float_cmp,
    reason = "small test sizes; the transposes move bits, so equality is exact"
)]
mod tests;
