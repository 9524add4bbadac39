//! Channel shuffles: planar <-> interleaved for 2 to 16 channels of 1-, 2- or 4-byte plain
//! elements, and 2 to 4 channels of 8-byte ones (CHW <-> HWC, stereo, 5.1 and 7.1 audio, 8-
//! and 16-slot TDM, RGBA, blocks of 4), a whole vector of pixels at a time; and one channel
//! gathered from its pixels.
//!
//! One algorithm serves every shape. A *group* is 16 bytes of each of the `C` planes, that
//! is `E = 16 / SIZE` pixels, which interleaved are `C` chunks of 16 bytes. Three ways turn
//! the `C` plane vectors into the interleaved pixels and back:
//!
//! - **Square transposes**, when `C` (5 or more) is a multiple of `E` (8 or 16 channels of
//!   `i16`, 16 of `u8`, 8, 12 or 16 of `f32`): the channels split into blocks of `E`, and each
//!   `E × E` block is transposed in registers by `log2 E` rounds of zips (`punpckl*` /
//!   `punpckh*`, `zip1` / `zip2`), `E·log2 E` instructions for `E²` elements. Towards the
//!   interleaved side, unless the stores stream, the pixels are stored as the padded
//!   transposes below store them.
//! - **Byte shuffles** otherwise: chunk `m` of the interleaved group is the OR of byte
//!   shuffles of the planes it draws from, with the masks of [`Masks`](masks::Masks) (a mask
//!   byte `0x80` yields zero); the way back shuffles the chunks with the inverse masks. `C`
//!   shuffles per 16 bytes, so these keep the counts up to 5 or 9 channels (by element size
//!   and way).
//! - **Padded transposes** (`padded.rs`) for more channels that are not a multiple of `E`
//!   (6 to 15 `u8`, ...): each block of `E` channels is transposed with the missing planes
//!   as zeros, and each pixel is stored (or loaded) whole with overlapping 16- or 8-byte
//!   accesses, about `log2 E` zips per 16 bytes whatever `C`.
//!
//! - **One channel** of pixels of `C` elements (a row whose source elements are `C` apart and
//!   whose destination's are consecutive: a crop of one channel, every other sample; 8-byte
//!   elements too, 2 to 4 apart, where the group is the same 16 bytes of two) is
//!   plane 0 alone: the OR of `C` shuffles of the group's chunks by plane 0's masks, `C`
//!   shuffles per 16 bytes instead of a load and a store per element. The way back (the
//!   destination's elements `C` apart) shuffles the run into each chunk and blends it into
//!   the chunk as it was, rewriting the pixels' other lanes with their own values: only where
//!   the destination is the copy's alone (not a part of a parallel copy, whose neighbours
//!   may write those lanes). [`one_channel`]: a block of rows a call, either side running
//!   backwards.
//! - **Two planes** of a small stereo block (the small kernels' planar -> interleaved block,
//!   `small/`) are one round of zips a step, no masks ([`pairs`]): the same units, so the
//!   small blocks have no vector code of their own.
//!
//! The byte shuffle is `pshufb` (SSSE3, and AVX2 per 128-bit lane, two groups at once) on
//! x86-64 and `tbl` on NEON; the portable twin runs the same loops, masks and zips on
//! `[u8; 16]` arrays, and is what Miri executes.
//!
//! | target | backend | pixels per step (`u8`) |
//! | --- | --- | --- |
//! | x86-64 with AVX2 (compile time, or detected at run time, [`cpu`](super::cpu)) | `vpshufb`, `vpunpck*` | 32 |
//! | x86-64 with SSSE3 but not AVX2 (2 to 4 channels) | `pshufb` | 16 |
//! | aarch64 with NEON | `tbl`, `zip1` / `zip2` | 16 |
//! | under Miri | portable twin | 16 |
//! | others (bare metal) | none: channel blocks take the plain strided loops, which are as fast there and smaller | - |
//!
//! Large interleaves (the copy is past [`STREAM_BYTES`](super::stream::STREAM_BYTES)) store
//! with non-temporal stores once the destination is aligned, so the destination is not read
//! for ownership (the padded transposes' overlapping stores towards the interleaved side
//! are plain).
//!
//! Every function here moves whole groups and returns how many pixels it did, from the
//! first; the caller's scalar loop does the rest. Pointers are byte pointers into the
//! caller's slices, of plain elements ([`is_plain`]): every byte is initialised.

#![expect(
    clippy::many_single_char_names,
    clippy::inline_always,
    reason = "`d`, `s`, `p`, `m`, `c`: destination, source, pixel, chunk and channel, as in the formulas."
)]
// Targets without a backend keep the entry points (which return 0) and compile the rest away.
#![cfg_attr(
    not(any(x86_kernels, neon_kernels, miri, test)),
    expect(
        dead_code,
        reason = "targets without a backend keep the entry points and compile the rest away"
    )
)]

mod masks;
mod algorithm;
mod padded;
#[cfg(x86_kernels)]
pub(crate) mod x86;
#[cfg(neon_kernels)]
pub(crate) mod neon;
#[cfg(any(miri, test))]
pub(crate) mod portable;

pub(crate) use algorithm::Band;
#[cfg(any(neon_kernels, miri))]
pub(crate) use algorithm::{Unit, one_channel_on, pairs_one_by_one, run as run_on, zip_pairs};
#[cfg(test)]
#[expect(
    clippy::cast_possible_wrap,
    clippy::cast_possible_truncation,
    reason = "small test sizes"
)]
mod tests;

use core::mem::size_of;
use core::slice;

use crate::kernel::backend::{Backend, Target};
use crate::kernel::drive::step;
use crate::kernel::element::is_plain;
use crate::kernel::plan::Loop;
use crate::kernel::raw::strided_copy_unchecked;

/// CHW -> HWC for whole groups: `d[p·c + k] = s[k·plane + p]` for `k < c` and the returned
/// number of pixels `p` (a prefix of `0..n`).
///
/// # Safety
///
/// `T` is any `Copy` type (only plain types are shuffled; others return 0). Every
/// `s + k·plane + p` (`k < c`, `p < n`) is an element of the source slice, the `n·c`
/// elements from `d` are elements of the destination slice, and the slices are distinct.
#[inline]
unsafe fn interleave_groups<T: 'static>(
    d: *mut T,
    s: *const T,
    plane: isize,
    c: usize,
    n: usize,
    stream: bool,
) -> usize {
    // SAFETY: the caller's contract is `by_shape`'s with `INTER`.
    unsafe { by_shape::<T, true>(d, s, plane, c, n, stream, c) }
}

/// HWC -> CHW for whole groups: `d[k·plane + p] = s[p·px + k]` for `k < c` and the returned
/// number of pixels `p` (a prefix of `0..n`); pixels of `px > c` lanes are a partial
/// interleave block, whose lanes `c..px` are read and dropped.
///
/// # Safety
///
/// `T` is any `Copy` type (only plain types are shuffled; others return 0); `c <= px`. The
/// `n·px` elements from `s` are elements of the source slice, every `d + k·plane + p` (`k <
/// c`, `p < n`) is an element of the destination slice, all distinct, and the slices are
/// distinct.
#[inline]
unsafe fn deinterleave_groups<T: 'static>(
    d: *mut T,
    plane: isize,
    s: *const T,
    px: usize,
    c: usize,
    n: usize,
    stream: bool,
) -> usize {
    // SAFETY: the caller's contract is `by_shape`'s without `INTER`, for `px` lanes of which
    // `c` are stored.
    unsafe { by_shape::<T, false>(d, s, plane, px, n, stream, c) }
}

/// [`interleave_groups`] (`INTER`, `used == c`) or [`deinterleave_groups`] (not, pixels of
/// `c` lanes of which planes `0..used` are stored): the planar side's planes are `plane`
/// elements apart; picks the monomorphic kernel for `c` and `T`'s size.
///
/// # Safety
///
/// [`interleave_groups`]'s contract when `INTER`, else [`deinterleave_groups`]'s.
#[inline]
unsafe fn by_shape<T: 'static, const INTER: bool>(
    d: *mut T,
    s: *const T,
    plane: isize,
    c: usize,
    n: usize,
    stream: bool,
    used: usize,
) -> usize {
    if !is_plain::<T>() {
        return 0;
    }
    let size = size_of::<T>();
    let stream = stream && long_run(n, c, size);
    // `plane · size` is the byte distance between two elements of the planar slice, and a
    // slice spans at most `isize::MAX` bytes, so the product is exact.
    let plane = step(size, plane);
    let (d, s) = (d.cast::<u8>(), s.cast::<u8>());
    // Each arm: the caller's contract, in bytes, for the shape it matched (`c == C`,
    // `size == SIZE`).
    macro_rules! shapes {
        ($($c:literal)*) => {
            match (c, size) {
                $(
                    // SAFETY: the caller's contract, in bytes, for `c` channels of 1 byte.
                    ($c, 1) => unsafe { Target::channels::<$c, 1, INTER>(d, s, plane, n, stream, used) },
                    // SAFETY: the caller's contract, in bytes, for `c` channels of 2 bytes.
                    ($c, 2) => unsafe { Target::channels::<$c, 2, INTER>(d, s, plane, n, stream, used) },
                    // SAFETY: the caller's contract, in bytes, for `c` channels of 4 bytes.
                    ($c, 4) => unsafe { Target::channels::<$c, 4, INTER>(d, s, plane, n, stream, used) },
                )*
                // SAFETY: the caller's contract, in bytes, for 2 channels of 8 bytes.
                (2, 8) => unsafe { Target::channels::<2, 8, INTER>(d, s, plane, n, stream, used) },
                // SAFETY: the caller's contract, in bytes, for 3 channels of 8 bytes.
                (3, 8) => unsafe { Target::channels::<3, 8, INTER>(d, s, plane, n, stream, used) },
                // SAFETY: the caller's contract, in bytes, for 4 channels of 8 bytes.
                (4, 8) => unsafe { Target::channels::<4, 8, INTER>(d, s, plane, n, stream, used) },
                _ => 0,
            }
        };
    }
    shapes!(2 3 4 5 6 7 8 9 10 11 12 13 14 15 16)
}

/// Whether a run of `n` pixels of `c` elements of `size` bytes is long enough to stream:
/// its first and last lines mix plain and non-temporal stores, which costs a round trip to
/// memory each, so short runs store plainly.
fn long_run(n: usize, c: usize, size: usize) -> bool {
    n.saturating_mul(c).saturating_mul(size) >= 16 << 10
}

/// Whether this target has a byte-shuffle backend (see the module table).
const HAS_BACKEND: bool = Target::SHUFFLES || cfg!(test);

/// Which channel kernel takes the block `a × b` of `T` (operand 0 the destination):
/// `interleave` when the destination's pixels hold `a.extent` consecutive channels and the
/// source is planar, `!interleave` the other way round (see [`channels`] for the shapes).
pub(crate) fn channel_block<T: 'static>(a: Loop<2>, b: Loop<2>) -> Option<Channels> {
    // Without a shuffle backend (bare-metal targets) the plain strided loops move channel
    // blocks as fast, in less code: no block is a channel block there.
    if !HAS_BACKEND {
        return None;
    }
    let ([da, sa], [db, sb]) = (a.strides, b.strides);
    if da == 1 && sb == 1 && channels::<T>(a.extent, db, true) {
        Some(Channels::Interleave)
    } else if sa == 1 && db == 1 && channels::<T>(a.extent, sb, false) {
        Some(Channels::Deinterleave)
    } else if db.unsigned_abs() == 1 && one_channel_pixel::<T>(sb) {
        Some(Channels::Extract)
    } else if sb.unsigned_abs() == 1 && one_channel_pixel::<T>(db) {
        Some(Channels::Insert)
    } else {
        None
    }
}

/// Whether rows whose strided side's elements are `stride` apart (either way) and whose
/// other side's are consecutive (either way) move one channel of `|stride|`-element pixels by
/// shuffles ([`one_channel`]): a plain 1-, 2- or 4-byte `T` and a pixel of 2 to 16 elements
/// that fits a 16-byte chunk (2 to 16 `u8`, 2 to 8 `u16`, 2 to 4 `f32`), or a plain 8-byte
/// `T` in pixels of 2 to 4 (the shapes the channel masks hold for 8-byte lanes; a step of
/// four `f64` is then one 32-byte store instead of four).
fn one_channel_pixel<T: 'static>(stride: isize) -> bool {
    let (px, size) = (stride.unsigned_abs(), size_of::<T>());
    let fits = match size {
        1 | 2 | 4 => px.checked_mul(size).is_some_and(|bytes| bytes <= 16),
        8 => px <= 4,
        _ => false,
    };
    fits && px >= 2 && is_plain::<T>()
}

/// Whether `rows` rows of `n` elements of `T` in pixels `stride` elements apart (one block)
/// are worth [`one_channel`]'s setup (masks, a call per block), by the instructions a 16
/// bytes of the consecutive side costs against the element loop's load and store an element.
/// Gathered: `|stride|` loads, shuffles and ORs; 16 elements and more than 32 bytes (a
/// 32-byte step, short of the last element, moves none of 32 `u8`), 96 elements where the
/// pixel is 13 to 16 bytes (8 `u16`, 4 `f32`), 512 of 8-byte elements (shorter rows of them,
/// a block's call and masks a few hundred elements, ran up to 1.14x the element loop's time:
/// rows of 128 `f64` 4 apart). Scattered: `|stride|` loads, shuffles, blends and stores,
/// which repay only pixels of at most 8 bytes, from the same lengths, in blocks of at least
/// [`INSERT_BLOCK`] elements.
#[inline]
pub(crate) fn one_channel_worth<T>(stride: isize, n: usize, rows: usize, insert: bool) -> bool {
    let size = size_of::<T>();
    let bytes = stride.unsigned_abs().saturating_mul(size);
    let least = match (insert, bytes) {
        (_, 0..=8) | (false, 9..=12) => 16,
        (false, _) if size == 8 => 512,
        (false, _) => 96,
        (true, _) => return false,
    };
    n >= least && n.saturating_mul(size) > 32 && (!insert || n.saturating_mul(rows) >= INSERT_BLOCK)
}

/// The fewest elements a block scattered into pixels ([`one_channel`] inserting) holds for
/// the kernel: below it, a block's call, masks and blends cost more than the element loops
/// the planner inlines into the driver take for the whole block (2 rows of 16 `f32` scattered
/// into pixels of 2, under a loop of 16,384 steps, ran 2.5x the element loop's time).
pub(crate) const INSERT_BLOCK: usize = 256;

/// Whether the channel kernel of `c` takes the block `a × b` of `T` that [`channel_block`]
/// found `c` (the channels along `a`, the pixels along `b`): the one rule the block kinds,
/// the same blocks turned and their tiles read (`raw::block_kind`, `raw::turned_channels`,
/// `raw::block_tile`). A planar <-> interleaved block holds enough pixels ([`worth`]) and at
/// least one step of this target's shuffles ([`shuffles_a_step`]; into pixels with lanes
/// past their channels, enough pixels alone); rows of one channel, [`one_channel_worth`]'s
/// lengths.
#[inline]
pub(crate) fn takes<T>(c: Channels, a: Loop<2>, b: Loop<2>) -> bool {
    let [db, sb] = b.strides;
    match c {
        // Pixels with lanes past their channels: their kernel's steps, or its element loop.
        Channels::Interleave => {
            let px = db.unsigned_abs();
            worth(b.extent) && (px != a.extent || shuffles_a_step::<T>(b.extent, px, a.extent))
        }
        Channels::Deinterleave => {
            worth(b.extent) && shuffles_a_step::<T>(b.extent, sb.unsigned_abs(), a.extent)
        }
        Channels::Extract => one_channel_worth::<T>(sb, b.extent, a.extent, false),
        Channels::Insert => one_channel_worth::<T>(db, b.extent, a.extent, true),
    }
}

/// Whether a channel block of `pixels` pixels is worth a channel kernel's setup: at least 16
/// pixels (a vector of 1-byte channels' worth). Thinner blocks (2 channels × 11 pixels
/// inside a rank-4 copy) cost a plain element loop's time plus the setup, and the planner's
/// element loops take them.
#[inline]
const fn worth(pixels: usize) -> bool {
    pixels >= 16
}

/// Whether this target's shuffles move at least one step of a channel block of `pixels`
/// pixels of `px` lanes of `T`, `c` of them channels ([`whole_pixels`]): a step moves
/// [`Backend::channel_groups`] 16-byte groups of each plane. Where they move none, the
/// kernel's setup buys nothing, and the block is an element loop ([`deinterleave`]'s and
/// [`interleave`]'s rest, after a call and the kernel's choice): blocks of 16 `u8` pixels of
/// 5 channels into pixels, under AVX2's 32-pixel steps, ran at 0.8x the plain loop's speed
/// through the kernel.
#[inline]
pub(crate) fn shuffles_a_step<T>(pixels: usize, px: usize, c: usize) -> bool {
    let per = algorithm::pixels_a_step(Target::channel_groups(px), size_of::<T>());
    per > 0 && whole_pixels(px, c, pixels) >= per
}

/// The pixels of `n` the shuffles may take whole: all of dense ones (`px == c`); all but the
/// last where they have lanes past their channels, which may lie past the slice.
#[inline]
const fn whole_pixels(px: usize, c: usize, n: usize) -> usize {
    if px == c { n } else { n.saturating_sub(1) }
}

/// The direction of a channel block.
#[derive(Clone, Copy)]
pub(crate) enum Channels {
    /// Planar source, interleaved destination.
    Interleave,
    /// Interleaved source, planar destination.
    Deinterleave,
    /// Rows of one channel, gathered: each row's source elements are pixels 2 to 16 elements
    /// (2 to 4 of 8 bytes) apart (the block's `b` loop), its destination elements consecutive (either way round):
    /// [`one_channel`].
    Extract,
    /// Rows of one channel, scattered: the destination's elements pixels apart, the source's
    /// consecutive ([`one_channel`], blending into the destination's pixels: only where the
    /// destination is the copy's alone).
    Insert,
}

/// Whether a block is a planar <-> interleaved conversion with a channel kernel (`inter`:
/// towards the interleaved side): `c` channels of `T` whose pixels are `stride` elements
/// apart, `c <= stride <= 16`. A pixel wider than its channels is a partial interleave block,
/// whose other lanes stay untouched: the shuffles read whole pixels and drop those lanes on
/// the way to planes, and [`interleave`] writes such pixels with masked stores or loops. 2 to 4 channels of
/// any `T`; 5 to 16 of a 1-, 2- or 4-byte plain `T`, except partial blocks towards the
/// interleaved side, which take the transposes or the strided loops.
fn channels<T: 'static>(c: usize, stride: isize, inter: bool) -> bool {
    if stride <= 0 {
        return false;
    }
    let stride = stride.unsigned_abs();
    let shuffled = matches!(size_of::<T>(), 1 | 2 | 4) && is_plain::<T>();
    match c {
        2..=4 => (c..=16).contains(&stride),
        5..=16 => shuffled && (stride == c || (!inter && (c..=16).contains(&stride))),
        _ => false,
    }
}

/// CHW -> HWC for one block: `d[j·px + k] = s[k·plane + j]` for `k < c`, `j < n`; when
/// the pixels are dense (`px == c`), whole vectors of pixels by byte shuffles
/// (`channels.rs`), in a partial block of 4-byte elements by stores of each pixel's
/// channels only ([`interleave_partial`]), the rest here. With `stream`, the shuffled part
/// may use non-temporal stores.
///
/// # Safety
///
/// `2 <= c <= px`; every `s + k·plane + j` is an element of the source slice and every
/// `d + j·px + k` an element of the destination slice.
#[inline]
pub(crate) unsafe fn interleave<T: Copy + 'static>(
    d: *mut T,
    px: usize,
    s: *const T,
    plane: isize,
    c: usize,
    n: usize,
    stream: bool,
) {
    debug_assert!(
        2 <= c && c <= px,
        "interleave: pixels narrower than their channels"
    );
    let done = if px == c {
        // SAFETY: the caller's contract, dense pixels.
        unsafe { interleave_groups(d, s, plane, c, n, stream) }
    } else {
        // SAFETY: the caller's contract.
        unsafe { interleave_partial(d, px, s, plane, c, n) }
    };
    // `interleave_groups` or `interleave_partial` did the pixels `0..done` (`done <= n`), so
    // the rest is the same contract for the pixels from `done`, whose offsets `done` (planes)
    // and `done·px` (pixels) lie inside the slices.
    // SAFETY: offset `done·px` lies inside the destination slice (above).
    let d = unsafe { d.add(done.wrapping_mul(px)) };
    // SAFETY: offset `done` lies inside the source slice (above).
    let s = unsafe { s.add(done) };
    let n = n.wrapping_sub(done);
    match c {
        // SAFETY: the caller's contract for the pixels from `done` (above), `c == 2`.
        2 => unsafe { interleave_n::<T, 2>(d, px, s, plane, n) },
        // SAFETY: the caller's contract for the pixels from `done` (above), `c == 3`.
        3 => unsafe { interleave_n::<T, 3>(d, px, s, plane, n) },
        // SAFETY: the caller's contract for the pixels from `done` (above), `c == 4`.
        4 => unsafe { interleave_n::<T, 4>(d, px, s, plane, n) },
        // SAFETY: the caller's contract for the pixels from `done` (above).
        _ => unsafe { interleave_any(d, px, s, plane, c, n) },
    }
}

/// CHW -> partial interleave block (`px > c`) for whole steps of pixels: `d[j·px + k] =
/// s[k·plane + j]` for `k < c` and the returned number of pixels `j` (a prefix of `0..n`),
/// lanes `c..px` untouched. With AVX2, 2 to 4 channels of a 4-byte plain `T` in pixels of 4
/// or 8 lanes (the nChw4c and nChw8c tails) go eight pixels a step through a register
/// transpose and stores of each pixel's first `c` lanes; other shapes and targets return 0.
///
/// # Safety
///
/// As [`interleave`].
#[inline]
unsafe fn interleave_partial<T: 'static>(
    d: *mut T,
    px: usize,
    s: *const T,
    plane: isize,
    c: usize,
    n: usize,
) -> usize {
    if size_of::<T>() != 4 || !is_plain::<T>() {
        return 0;
    }
    // `plane · 4` is the byte distance between two elements of the source slice, exact.
    let plane = step(4, plane);
    let (d, s) = (d.cast::<u8>(), s.cast::<u8>());
    match c {
        // SAFETY: `T` is a plain 4-byte type (checked), and the caller's contract in bytes,
        // with `c == 2`.
        2 => unsafe { Target::partial4::<2>(d, px, s, plane, n) },
        // SAFETY: as above, with `c == 3`.
        3 => unsafe { Target::partial4::<3>(d, px, s, plane, n) },
        // SAFETY: as above, with `c == 4`.
        4 => unsafe { Target::partial4::<4>(d, px, s, plane, n) },
        _ => 0,
    }
}

/// [`interleave`] element by element, with the channel count `C` known to the compiler so
/// that the dense case vectorizes.
///
/// # Safety
///
/// As [`interleave`] with `c == C`.
#[inline]
unsafe fn interleave_n<T: Copy, const C: usize>(
    d: *mut T,
    px: usize,
    s: *const T,
    plane: isize,
    n: usize,
) {
    let planes: [&[T]; C] = core::array::from_fn(|k| {
        // SAFETY: plane `k < C` starts at an element of the source slice (contract).
        let start = unsafe { s.offset(step(k, plane)) };
        // SAFETY: the plane's `n` elements are elements of the source slice (contract), cut
        // to exactly `n`; the source is only read while they live.
        unsafe { slice::from_raw_parts(start, n) }
    });
    if px == C {
        // SAFETY: dense pixels: `[T; C]` has the layout of `C` consecutive `T`, and the `n`
        // pixels are elements of the distinct destination borrow (contract), so their
        // exclusive slice aliases no plane.
        let out = unsafe { slice::from_raw_parts_mut(d.cast::<[T; C]>(), n) };
        for (j, pixel) in out.iter_mut().enumerate() {
            for (slot, p) in pixel.iter_mut().zip(&planes) {
                // SAFETY: each plane holds exactly `n` elements and `j < n` (it enumerates
                // the `n` pixels), so `j` is in range.
                *slot = unsafe { *p.get_unchecked(j) };
            }
        }
    } else {
        for j in 0..n {
            // SAFETY: `d + j·px` (`j < n`) is an element of the destination (contract).
            let pixel = unsafe { d.add(j.wrapping_mul(px)) };
            for (k, p) in planes.iter().enumerate() {
                // SAFETY: each plane holds exactly `n` elements and `j < n`, so `j` is in
                // range.
                let x = unsafe { *p.get_unchecked(j) };
                // SAFETY: wider pixels: `d + j·px + k` (`k < C <= px`) is an element of the
                // destination (contract).
                let slot = unsafe { pixel.add(k) };
                // SAFETY: `slot` is an element of the destination, which no plane aliases
                // (distinct slices, contract).
                unsafe { *slot = x };
            }
        }
    }
}

/// [`interleave`] element by element for any `c` (the few pixels the shuffles leave: at most
/// a step's worth).
///
/// # Safety
///
/// As [`interleave`].
#[inline(never)]
unsafe fn interleave_any<T: Copy>(
    d: *mut T,
    px: usize,
    s: *const T,
    plane: isize,
    c: usize,
    n: usize,
) {
    for j in 0..n {
        for k in 0..c {
            // SAFETY: `k < c`: plane `k` starts at an element of the source slice (contract).
            let plane_k = unsafe { s.offset(step(k, plane)) };
            // SAFETY: `j < n`: element `j` of plane `k` is an element of the source slice
            // (contract).
            let from = unsafe { plane_k.add(j) };
            // SAFETY: `from` is an element of the source slice (above).
            let x = unsafe { *from };
            // SAFETY: `j < n`, `k < c <= px`: an element of the destination slice (contract).
            let to = unsafe { d.add(j.wrapping_mul(px).wrapping_add(k)) };
            // SAFETY: `to` is an element of the destination slice, no source element
            // (contract).
            unsafe { *to = x };
        }
    }
}

/// [`deinterleave`] element by element for dense pixels (`px == c`) of any `c` (the few
/// pixels the shuffles leave).
///
/// # Safety
///
/// As [`deinterleave`] with `px == c`.
#[inline(never)]
unsafe fn deinterleave_any<T: Copy>(d: *mut T, plane: isize, s: *const T, c: usize, n: usize) {
    for j in 0..n {
        for k in 0..c {
            // SAFETY: `j < n`, `k < c == px`: an element of the source slice (contract).
            let from = unsafe { s.add(j.wrapping_mul(c).wrapping_add(k)) };
            // SAFETY: `from` is an element of the source slice (above).
            let x = unsafe { *from };
            // SAFETY: `k < c`: plane `k` starts at an element of the destination slice
            // (contract).
            let plane_k = unsafe { d.offset(step(k, plane)) };
            // SAFETY: `j < n`: element `j` of plane `k` is an element of the destination
            // slice (contract).
            let to = unsafe { plane_k.add(j) };
            // SAFETY: `to` is an element of the destination slice, no source element
            // (contract).
            unsafe { *to = x };
        }
    }
}

/// HWC -> CHW for one block: `d[k·plane + j] = s[j·px + k]` for `k < c`, `j < n`; when the
/// pixels are dense (`px == c`), whole vectors of pixels by byte shuffles (`channels.rs`),
/// the rest here.
///
/// # Safety
///
/// `2 <= c <= px`; every `s + j·px + k` is an element of the source slice;
/// every `d + k·plane + j` is an element of the destination slice, all distinct.
#[inline]
pub(crate) unsafe fn deinterleave<T: Copy + 'static>(
    d: *mut T,
    plane: isize,
    s: *const T,
    px: usize,
    c: usize,
    n: usize,
    stream: bool,
) {
    debug_assert!(
        2 <= c && c <= px,
        "deinterleave: pixels narrower than their channels"
    );
    let whole = whole_pixels(px, c, n);
    // SAFETY: as in `interleave`, with the roles swapped. A partial block (`px > c`) reads
    // whole pixels: their lanes lie between elements of the source slice, except past the
    // last pixel's channels, so the shuffles stop before the last pixel.
    let done = unsafe { deinterleave_groups(d, plane, s, px, c, whole, stream) };
    // `deinterleave_groups` did the pixels `0..done` (`done <= n`): the rest is the same
    // contract for the pixels from `done`.
    // SAFETY: offset `done` lies inside the destination slice (above).
    let d = unsafe { d.add(done) };
    // SAFETY: offset `done·px` lies inside the source slice (above).
    let s = unsafe { s.add(done.wrapping_mul(px)) };
    let n = n.wrapping_sub(done);
    if px != c {
        // SAFETY: the caller's contract for the pixels from `done` (above).
        unsafe { deinterleave_strips(d, plane, s, px, c, n) };
        return;
    }
    match c {
        // SAFETY: the caller's contract for the dense pixels from `done` (above), `c == 2`.
        2 => unsafe { deinterleave_n::<T, 2>(d, plane, s, n) },
        // SAFETY: the caller's contract for the dense pixels from `done` (above), `c == 3`.
        3 => unsafe { deinterleave_n::<T, 3>(d, plane, s, n) },
        // SAFETY: the caller's contract for the dense pixels from `done` (above), `c == 4`.
        4 => unsafe { deinterleave_n::<T, 4>(d, plane, s, n) },
        // SAFETY: the caller's contract for the dense pixels from `done` (above).
        _ => unsafe { deinterleave_any(d, plane, s, c, n) },
    }
}

/// Source bytes a strip of [`deinterleave_strips`] spans: half a 32 KiB L1D, so its lines
/// are still there when the strip's next plane reads them again.
const STRIP_BYTES: usize = 16 << 10;

/// [`deinterleave`] by the element loop where the pixels have lanes past their channels
/// (`px > c`, which the shuffles leave): in strips of pixels spanning at most
/// [`STRIP_BYTES`] of the source, plane by plane, each plane's run of the strip one strided
/// row ([`strided_copy_unchecked`]). A channel at a time ran 1.1-2.7x faster than a pixel at
/// a time (its `c` stores to as many planes) on 1-, 2-, 4- and 8-byte channels, 2 to 4 of 3
/// to 16 lanes, 16 to 100,000 pixels; unstripped, a source past the second-level cache read
/// once per plane from memory ran 0.56x.
///
/// # Safety
///
/// As [`deinterleave`]'s.
unsafe fn deinterleave_strips<T: Copy>(
    d: *mut T,
    plane: isize,
    s: *const T,
    px: usize,
    c: usize,
    n: usize,
) {
    // `px` lanes of `T` are bytes of the source slice, so the product does not overflow;
    // `max(1)` keeps a zero-sized `T`'s strip finite.
    let strip = STRIP_BYTES
        .checked_div(px.wrapping_mul(size_of::<T>()))
        .unwrap_or(STRIP_BYTES)
        .max(1);
    // `px` is a distance between elements of the source slice: it fits `isize`.
    let lane = px.cast_signed();
    let mut j0 = 0;
    while j0 < n {
        let m = strip.min(n.wrapping_sub(j0));
        for k in 0..c {
            // Plane `k`'s pixel `j0` and the source's pixel `j0`, channel `k`: elements of the
            // slices for `k < c`, `j0 < n` (contract), so the offsets are exact.
            let to = d.wrapping_offset(step(k, plane)).wrapping_add(j0);
            let from = s.wrapping_add(j0.wrapping_mul(px).wrapping_add(k));
            // SAFETY: `to + j` and `from + j·px` for `j < m` (`j0 + m <= n`) are plane `k`'s
            // pixel `j0 + j` and its source channel: elements of their slices, the destination
            // none of the source's (contract).
            unsafe { strided_copy_unchecked(to, 1, from, lane, m) };
        }
        j0 = j0.wrapping_add(m);
    }
}

/// Two planes, `l` and `r`, interleaved into pairs by zips (a small stereo block): `d[2p] =
/// l[p]`, `d[2p + 1] = r[p]` for `p < n`, whole vector steps, then the pairs they leave one
/// by one: the small blocks' one call, with no masks, on the backend `B` ([`Backend::pairs`]:
/// on x86-64 AVX2's 32- then 16-byte steps where `cpu` has AVX2, else SSSE3's; NEON on
/// aarch64; the portable twin under Miri). `false`, with nothing written, for a `T` of
/// another size than 1, 2, 4 or 8 bytes, or where `B` has no zips (bare metal; on x86-64,
/// without SSSE3).
///
/// # Safety
///
/// `T` is a plain type ([`is_plain`]: every byte initialised); `d..d + 2n`, `l..l + n` and `r..r + n` are elements of their
/// allocations, and the destination elements none of the source ones.
#[inline]
pub(crate) unsafe fn pairs<T: 'static, B: Backend>(
    cpu: B::Cpu,
    d: *mut T,
    l: *const T,
    r: *const T,
    n: usize,
) -> bool {
    let (d, l, r) = (d.cast::<u8>(), l.cast::<u8>(), r.cast::<u8>());
    match size_of::<T>() {
        // SAFETY: the caller's contract, in bytes, for 1-byte elements.
        1 => unsafe { B::pairs::<1>(cpu, d, l, r, n) },
        // SAFETY: as above, 2-byte elements.
        2 => unsafe { B::pairs::<2>(cpu, d, l, r, n) },
        // SAFETY: as above, 4-byte elements.
        4 => unsafe { B::pairs::<4>(cpu, d, l, r, n) },
        // SAFETY: as above, 8-byte elements.
        8 => unsafe { B::pairs::<8>(cpu, d, l, r, n) },
        _ => false,
    }
}

/// Rows of one channel by shuffles, for a block of `rows` rows of `n` pixels of `px` lanes
/// ([`Channels::Extract`], [`Channels::Insert`]). Gathered (`INSERT` false): `d[r·dr ± j] =
/// s[r·sr + j·px]`, plane 0 of the pixels deinterleaved; scattered (`INSERT`): `d[r·dr +
/// j·px] = s[r·sr ± j]`, plane 0 blended into the pixels, their other lanes rewritten with
/// the values they hold. `-` when `rev`: the consecutive side runs backwards. Done for the
/// returned number of pixels `j`, the same for every row (a prefix of `0..n`, short of the
/// last, whose lanes past its first may lie past the slice); the caller's element loop does
/// the rest of each row.
///
/// # Safety
///
/// `T` is any `Copy` type (only plain 1-, 2- and 4-byte types in pixels of at most 16 bytes,
/// and 8-byte ones in pixels of 2 to 4, are shuffled, [`one_channel_pixel`]; others return 0); for every `r < rows` and `j < n`,
/// the elements named above are elements of their slices, no destination element a source
/// element, and nothing else writes them. Gathered, the lanes of every pixel but the last lie
/// in the source slice; scattered, in the destination slice, initialised, and nothing else
/// reads or writes them while this runs.
#[inline]
#[expect(
    clippy::too_many_arguments,
    reason = "a block of rows: both operands' row strides, the pixel, the direction, the extents"
)]
pub(crate) unsafe fn one_channel<T: 'static, const INSERT: bool>(
    d: *mut T,
    dr: isize,
    s: *const T,
    sr: isize,
    px: usize,
    rev: bool,
    rows: usize,
    n: usize,
) -> usize {
    if !is_plain::<T>() {
        return 0;
    }
    let size = size_of::<T>();
    // Row strides in bytes: distances between elements of one slice, exact.
    let band = algorithm::Band {
        d: d.cast::<u8>(),
        dr: step(size, dr),
        s: s.cast::<u8>(),
        sr: step(size, sr),
        rev,
        rows,
        n,
    };
    // Each arm: the caller's contract in bytes, for pixels of `px == C` lanes of `SIZE`
    // bytes.
    macro_rules! shapes {
        ($size:literal: $($c:literal)*) => {
            match px {
                $(
                    // SAFETY: the caller's contract, in bytes (above).
                    $c => unsafe { Target::one_channel::<$c, $size, INSERT>(band) },
                )*
                _ => 0,
            }
        };
    }
    match size {
        1 => shapes!(1: 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16),
        2 => shapes!(2: 2 3 4 5 6 7 8),
        4 => shapes!(4: 2 3 4),
        8 => shapes!(8: 2 3 4),
        _ => 0,
    }
}

/// [`deinterleave`] element by element for dense pixels (`px == C`), with the channel count
/// `C` known to the compiler.
///
/// # Safety
///
/// As [`deinterleave`] with `px == c == C`.
#[inline]
unsafe fn deinterleave_n<T: Copy, const C: usize>(d: *mut T, plane: isize, s: *const T, n: usize) {
    let mut planes: [&mut [T]; C] = core::array::from_fn(|k| {
        // SAFETY: plane `k < C` starts at an element of the destination slice (contract).
        let start = unsafe { d.offset(step(k, plane)) };
        // SAFETY: the planes are pairwise disjoint (distinct destination elements,
        // contract), so each is an exclusive slice, cut to `n` elements.
        unsafe { slice::from_raw_parts_mut(start, n) }
    });
    // SAFETY: dense pixels: `[T; C]` has the layout of `C` consecutive `T`, and the `n`
    // pixels are elements of the distinct source borrow (contract).
    let pixels = unsafe { slice::from_raw_parts(s.cast::<[T; C]>(), n) };
    for (j, pixel) in pixels.iter().enumerate() {
        for (p, &v) in planes.iter_mut().zip(pixel) {
            if let Some(slot) = p.get_mut(j) {
                *slot = v;
            }
        }
    }
}
