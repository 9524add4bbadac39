//! Channel shuffles: planar <-> interleaved for 2, 3 or 4 channels of 1-, 2-, 4- or 8-byte
//! plain elements (CHW <-> HWC, stereo, RGBA, blocks of 4), a whole vector of pixels at a
//! time.
//!
//! One algorithm serves every shape. A *group* is 16 bytes of each of the `C` planes, that
//! is `16 / SIZE` pixels, which interleaved are `C` chunks of 16 bytes. Chunk `m` of the
//! interleaved group is the OR of `C` byte shuffles, one of each plane vector, with the masks
//! of [`Masks`] (a mask byte `0x80` yields zero); the way back shuffles the chunks with the
//! inverse masks. The byte shuffle is `pshufb` (SSSE3, and AVX2 per 128-bit lane, two groups
//! at once) on x86-64 and `tbl` on NEON; the portable twin runs the same loops and masks on
//! `[u8; 16]` arrays, and is what Miri executes.
//!
//! | target | backend | pixels per step (`u8`) |
//! | --- | --- | --- |
//! | x86-64 with AVX2 (compile time, or detected at run time with `std`) | `vpshufb` | 32 |
//! | x86-64 with SSSE3 (same) | `pshufb` | 16 |
//! | aarch64 with NEON | `tbl` | 16 |
//! | under Miri | portable twin | 16 |
//! | others | none: the caller's scalar loop does every pixel | - |
//!
//! Large interleaves (the copy is past [`STREAM_BYTES`](super::simd::STREAM_BYTES)) store
//! with non-temporal stores once the destination is 16-byte aligned, so the destination is
//! not read for ownership.
//!
//! Every function here moves whole groups and returns how many pixels it did, from the
//! first; the caller's scalar loop does the rest. Pointers are byte pointers into the
//! caller's slices, of plain elements ([`is_plain`]): every byte is initialised.

// `d`, `s`, `p`, `m`, `c`: destination, source, pixel, chunk and channel, as in the formulas.
#![allow(clippy::many_single_char_names, clippy::inline_always)]
// Targets without a backend keep the entry points (which return 0) and compile the rest away.
#![cfg_attr(
    not(any(
        target_arch = "x86_64",
        all(target_arch = "aarch64", target_feature = "neon"),
        miri,
        test
    )),
    allow(dead_code)
)]

use core::mem::size_of;

use crate::kernel::simd::is_plain;
use crate::kernel::walk::step;

/// Byte-shuffle masks for `C` channels of `SIZE`-byte elements.
struct Masks<const C: usize, const SIZE: usize>;

impl<const C: usize, const SIZE: usize> Masks<C, SIZE> {
    /// `INTERLEAVE[m][c]`: which byte of plane `c`'s 16-byte vector goes to each byte of
    /// interleaved chunk `m` (`0x80`: none).
    const INTERLEAVE: [[[u8; 16]; C]; C] = masks::<C>(SIZE, true);
    /// `DEINTERLEAVE[c][m]`: which byte of interleaved chunk `m` goes to each byte of plane
    /// `c`'s vector (`0x80`: none).
    const DEINTERLEAVE: [[[u8; 16]; C]; C] = masks::<C>(SIZE, false);
    /// Whether each plane byte position feeds exactly one chunk (3 channels: `16 % 3 != 0`
    /// rotates the channel from chunk to chunk). Then one shuffle per plane puts every byte
    /// at its final position, and chunks are blends of those: `C` shuffles a group instead
    /// of `C²`.
    const BLEND: bool = blendable(&Self::INTERLEAVE);
    /// `SELECT[m][c]`: `0xFF` where interleaved chunk `m` holds a byte of channel `c`.
    const SELECT: [[[u8; 16]; C]; C] = select(&Self::INTERLEAVE, false);
    /// `SELECT_BACK[c][m]`: `SELECT[m][c]`.
    const SELECT_BACK: [[[u8; 16]; C]; C] = select(&Self::INTERLEAVE, true);
    /// With [`Masks::BLEND`], plane `c` shuffled by `ROTATE[c]` has each byte where its
    /// chunk wants it.
    const ROTATE: [[u8; 16]; C] = rotate(&Self::INTERLEAVE, false);
    /// With [`Masks::BLEND`], the blend of the chunks by `SELECT_BACK[c]` shuffled by
    /// `ROTATE_BACK[c]` is plane `c`.
    const ROTATE_BACK: [[u8; 16]; C] = rotate(&Self::DEINTERLEAVE, true);
}

/// Whether every `(plane c, position b)` has exactly one chunk `m` with
/// `table[m][c][b] != 0x80`.
#[allow(
    clippy::indexing_slicing, // `m`, `c < C` and `b < 16` index arrays of those lengths
    clippy::arithmetic_side_effects // counters below `C` or 16
)]
const fn blendable<const C: usize>(table: &[[[u8; 16]; C]; C]) -> bool {
    let mut c = 0;
    while c < C {
        let mut b = 0;
        while b < 16 {
            let (mut m, mut count) = (0, 0u32);
            while m < C {
                if table[m][c][b] != 0x80 {
                    count = count.saturating_add(1);
                }
                m += 1;
            }
            if count != 1 {
                return false;
            }
            b += 1;
        }
        c += 1;
    }
    true
}

/// `out[m][c]` (or `out[c][m]` when `back`): `0xFF` where `table[m][c]` picks a byte.
#[allow(
    clippy::indexing_slicing, // `m`, `c < C` and `b < 16` index arrays of those lengths
    clippy::arithmetic_side_effects // counters below `C` or 16
)]
const fn select<const C: usize>(table: &[[[u8; 16]; C]; C], back: bool) -> [[[u8; 16]; C]; C] {
    let mut out = [[[0u8; 16]; C]; C];
    let mut m = 0;
    while m < C {
        let mut c = 0;
        while c < C {
            let mut b = 0;
            while b < 16 {
                if table[m][c][b] != 0x80 {
                    if back {
                        out[c][m][b] = 0xFF;
                    } else {
                        out[m][c][b] = 0xFF;
                    }
                }
                b += 1;
            }
            c += 1;
        }
        m += 1;
    }
    out
}

/// `out[c][b]`: the byte that picks for position `b` of plane `c` in any chunk, from
/// `table[m][c]` (or `table[c][m]` when `back`); `0x80` where none does.
#[allow(
    clippy::indexing_slicing, // `m`, `c < C` and `b < 16` index arrays of those lengths
    clippy::arithmetic_side_effects // counters below `C` or 16
)]
const fn rotate<const C: usize>(table: &[[[u8; 16]; C]; C], back: bool) -> [[u8; 16]; C] {
    let mut out = [[0x80u8; 16]; C];
    let mut m = 0;
    while m < C {
        let mut c = 0;
        while c < C {
            let mut b = 0;
            while b < 16 {
                let x = if back { table[c][m][b] } else { table[m][c][b] };
                if x != 0x80 {
                    out[c][b] = x;
                }
                b += 1;
            }
            c += 1;
        }
        m += 1;
    }
    out
}

/// The masks of [`Masks`]: interleaved byte `o = 16·m + b` of a group is byte `o % SIZE` of
/// element `o / SIZE`, that is of pixel `o / SIZE / C` in channel `o / SIZE % C`.
#[allow(
    clippy::indexing_slicing, // `x < C`, `y < C`, `b < 16` index arrays of those lengths
    clippy::arithmetic_side_effects, // every value is below 16·C·SIZE <= 512
    clippy::cast_possible_truncation // a byte index below 16
)]
const fn masks<const C: usize>(size: usize, interleave: bool) -> [[[u8; 16]; C]; C] {
    let mut out = [[[0x80u8; 16]; C]; C];
    let mut x = 0;
    while x < C {
        let mut y = 0;
        while y < C {
            let mut b = 0;
            while b < 16 {
                if interleave {
                    // Chunk `x`, plane `y`: the element at interleaved byte `16x + b`.
                    let o = 16 * x + b;
                    let e = o / size;
                    if e % C == y {
                        out[x][y][b] = ((e / C) * size + o % size) as u8;
                    }
                } else {
                    // Plane `x`, chunk `y`: byte `b` of the plane vector is byte `b % size`
                    // of pixel `b / size`, channel `x`.
                    let o = ((b / size) * C + x) * size + b % size;
                    if o / 16 == y {
                        out[x][y][b] = (o % 16) as u8;
                    }
                }
                b += 1;
            }
            y += 1;
        }
        x += 1;
    }
    out
}

/// CHW -> HWC for whole groups: `d[p·c + k] = s[k·plane + p]` for `k < c` and the returned
/// number of pixels `p` (a prefix of `0..n`).
///
/// # Safety
///
/// `T` is any `Copy` type (only plain types are shuffled; others return 0). Every
/// `s + k·plane + p` (`k < c`, `p < n`) is an element of the source slice, the `n·c`
/// elements from `d` are elements of the destination slice, and the slices are distinct.
#[inline]
pub(crate) unsafe fn interleave<T>(
    d: *mut T,
    s: *const T,
    plane: isize,
    c: usize,
    n: usize,
    stream: bool,
) -> usize {
    // SAFETY: the caller's contract is `by_shape`'s with `INTER`.
    unsafe { by_shape::<T, true>(d, s, plane, c, n, stream) }
}

/// HWC -> CHW for whole groups: `d[k·plane + p] = s[p·c + k]` for `k < c` and the returned
/// number of pixels `p` (a prefix of `0..n`).
///
/// # Safety
///
/// `T` is any `Copy` type (only plain types are shuffled; others return 0). The `n·c`
/// elements from `s` are elements of the source slice, every `d + k·plane + p` (`k < c`,
/// `p < n`) is an element of the destination slice, all distinct, and the slices are
/// distinct.
#[inline]
pub(crate) unsafe fn deinterleave<T>(
    d: *mut T,
    plane: isize,
    s: *const T,
    c: usize,
    n: usize,
    stream: bool,
) -> usize {
    // SAFETY: the caller's contract is `by_shape`'s without `INTER`.
    unsafe { by_shape::<T, false>(d, s, plane, c, n, stream) }
}

/// [`interleave`] (`INTER`) or [`deinterleave`] (not): the planar side's planes are `plane`
/// elements apart; picks the monomorphic kernel for `c` and `T`'s size.
///
/// # Safety
///
/// [`interleave`]'s contract when `INTER`, else [`deinterleave`]'s.
#[inline]
unsafe fn by_shape<T, const INTER: bool>(
    d: *mut T,
    s: *const T,
    plane: isize,
    c: usize,
    n: usize,
    stream: bool,
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
    // SAFETY: the caller's contract, in bytes, for the matching shape.
    unsafe {
        match (c, size) {
            (2, 1) => backend::<2, 1, INTER>(d, s, plane, n, stream),
            (2, 2) => backend::<2, 2, INTER>(d, s, plane, n, stream),
            (2, 4) => backend::<2, 4, INTER>(d, s, plane, n, stream),
            (2, 8) => backend::<2, 8, INTER>(d, s, plane, n, stream),
            (3, 1) => backend::<3, 1, INTER>(d, s, plane, n, stream),
            (3, 2) => backend::<3, 2, INTER>(d, s, plane, n, stream),
            (3, 4) => backend::<3, 4, INTER>(d, s, plane, n, stream),
            (3, 8) => backend::<3, 8, INTER>(d, s, plane, n, stream),
            (4, 1) => backend::<4, 1, INTER>(d, s, plane, n, stream),
            (4, 2) => backend::<4, 2, INTER>(d, s, plane, n, stream),
            (4, 4) => backend::<4, 4, INTER>(d, s, plane, n, stream),
            (4, 8) => backend::<4, 8, INTER>(d, s, plane, n, stream),
            _ => 0,
        }
    }
}

/// Whether a run of `n` pixels of `c` elements of `size` bytes is long enough to stream:
/// its first and last lines mix plain and non-temporal stores, which costs a round trip to
/// memory each, so short runs store plainly.
fn long_run(n: usize, c: usize, size: usize) -> bool {
    n.saturating_mul(c).saturating_mul(size) >= 16 << 10
}

/// The backend for this target (see the module table), in either direction.
///
/// # Safety
///
/// [`by_shape`]'s contract in bytes, with `c == C` and elements of `SIZE` bytes.
#[inline]
#[allow(unused_variables)] // on targets without a backend every argument is unused
unsafe fn backend<const C: usize, const SIZE: usize, const INTER: bool>(
    d: *mut u8,
    s: *const u8,
    plane: isize,
    n: usize,
    stream: bool,
) -> usize {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    {
        if crate::kernel::simd::has_avx2() {
            // SAFETY: AVX2 is present (checked); the caller's contract.
            return unsafe { x86::avx2::<C, SIZE, INTER>(d, s, plane, n, stream) };
        }
        if crate::kernel::simd::has_ssse3() {
            // SAFETY: SSSE3 is present (checked); the caller's contract.
            return unsafe { x86::ssse3::<C, SIZE, INTER>(d, s, plane, n, stream) };
        }
        0
    }
    #[cfg(all(target_arch = "aarch64", target_feature = "neon", not(miri)))]
    {
        // SAFETY: NEON is enabled at compile time; the caller's contract.
        unsafe { run::<neon::Neon, C, SIZE, INTER>(d, s, plane, n, false) }
    }
    #[cfg(miri)]
    {
        // SAFETY: the portable unit needs no feature; the caller's contract.
        unsafe { run::<portable::Portable, C, SIZE, INTER>(d, s, plane, n, false) }
    }
    #[cfg(not(any(
        all(target_arch = "x86_64", not(miri)),
        all(target_arch = "aarch64", target_feature = "neon", not(miri)),
        miri
    )))]
    {
        0
    }
}

/// [`interleave_on`] or [`deinterleave_on`] by `INTER`.
///
/// # Safety
///
/// `U`'s target feature is enabled, and [`by_shape`]'s contract holds in bytes.
#[inline(always)]
unsafe fn run<U: Unit, const C: usize, const SIZE: usize, const INTER: bool>(
    d: *mut u8,
    s: *const u8,
    plane: isize,
    n: usize,
    stream: bool,
) -> usize {
    // SAFETY: the caller's contract, for the direction it names.
    unsafe {
        if INTER {
            interleave_on::<U, C, SIZE>(d, s, plane, n, stream)
        } else {
            deinterleave_on::<U, C, SIZE>(d, plane, s, n, stream)
        }
    }
}

/// How the pixels `0..n` split for a backend that moves `per` pixels a step: `head` pixels
/// one by one (so that a streaming destination is aligned), then `steps` steps.
#[derive(Clone, Copy)]
struct Split {
    head: usize,
    steps: usize,
}

impl Split {
    /// Starts at once, or, when `align` is given, after the fewest pixels that make
    /// `dst + p·stride` `align`-aligned (none when no head of at most `n - per` pixels does).
    fn new(n: usize, per: usize, dst: usize, stride: usize, align: Option<usize>) -> Self {
        let head = align
            .and_then(|a| {
                (0..a).find(|&p| {
                    dst.wrapping_add(p.wrapping_mul(stride))
                        .checked_rem(a)
                        .is_some_and(|r| r == 0)
                })
            })
            .filter(|&h| n.saturating_sub(h) >= per)
            .unwrap_or(0);
        Self {
            head,
            steps: n.saturating_sub(head).checked_div(per).unwrap_or(0),
        }
    }

    /// The pixels done by the head and the steps: `head + steps·per <= n`.
    // `steps·per <= n - head` by construction.
    #[allow(clippy::arithmetic_side_effects)]
    const fn done(self, per: usize) -> usize {
        self.head + self.steps * per
    }
}

/// Pixels a step of `U` moves: `16·GROUPS / SIZE` (2 at least: `SIZE <= 8`).
const fn pixels_per<U: Unit, const SIZE: usize>() -> usize {
    match U::GROUPS.wrapping_mul(16).checked_div(SIZE) {
        Some(p) => p,
        None => 0,
    }
}

/// Whether `addr + off` is a multiple of `align`.
fn aligned(addr: usize, off: isize, align: usize) -> bool {
    addr.wrapping_add_signed(off).checked_rem(align) == Some(0)
}

/// The byte offsets of pixel `p` in a plane of `SIZE`-byte elements and in the interleaved
/// run of `C` channels: exact for every pixel of a run, whose bytes lie in a slice.
#[inline(always)]
const fn at<const C: usize, const SIZE: usize>(p: usize) -> (isize, isize) {
    let planar = step(p, step(SIZE, 1));
    (planar, planar.wrapping_mul(step(C, 1)))
}

/// A vector unit with a byte shuffle: one vector is `GROUPS` 16-byte groups side by side,
/// shuffled lane by lane, and a mask byte `0x80` yields zero.
///
/// Every method is `unsafe`: the backend's target feature must be enabled in the caller
/// (they are only called from the backend's `#[target_feature]` entry points), and the
/// memory ones read or write the bytes they name.
trait Unit {
    /// The vector.
    type V: Copy;
    /// 16-byte groups per vector.
    const GROUPS: usize;
    /// Whether `stream` stores are non-temporal (else they are plain stores).
    const STREAMS: bool;
    /// The alignment streaming stores need (and plain stores like).
    const ALIGN: usize;
    /// All zeros.
    unsafe fn zero() -> Self::V;
    /// The 16-byte mask in every group.
    unsafe fn mask(m: &[u8; 16]) -> Self::V;
    /// `16·GROUPS` consecutive bytes at `p`.
    unsafe fn load_plane(p: *const u8) -> Self::V;
    /// `16·GROUPS` consecutive bytes to `p` (`ALIGN`-aligned when `stream`).
    unsafe fn store_plane(p: *mut u8, v: Self::V, stream: bool);
    /// Group `g`'s 16 bytes at `p + g·gap`.
    unsafe fn load_chunk(p: *const u8, gap: isize) -> Self::V;
    /// A step's `16·C·GROUPS` interleaved bytes to `p`: chunk `m` of group `g` (lane `g` of
    /// `chunks[m]`) at `p + 16·(g·C + m)` (`p` is `ALIGN`-aligned when `stream`).
    unsafe fn store_chunks<const C: usize>(p: *mut u8, chunks: [Self::V; C], stream: bool);
    /// Byte `b` of each group is byte `m[b]` of `v`'s group, or zero when `m[b] >= 0x80`.
    unsafe fn shuffle(v: Self::V, m: Self::V) -> Self::V;
    /// `a | b`.
    unsafe fn or(a: Self::V, b: Self::V) -> Self::V;
    /// `b` where `sel`'s byte is `0xFF`, `a` where it is zero.
    unsafe fn blend(a: Self::V, b: Self::V, sel: Self::V) -> Self::V;
}

/// [`Unit::store_chunks`] for a one-group unit: chunk `m` at `p + 16·m`.
///
/// # Safety
///
/// As [`Unit::store_chunks`], with `store(q, v)` storing one 16-byte vector at `q`.
#[inline(always)]
unsafe fn store_each<V: Copy, const C: usize>(
    p: *mut u8,
    chunks: [V; C],
    mut store: impl FnMut(*mut u8, V),
) {
    for (m, v) in chunks.into_iter().enumerate() {
        store(p.wrapping_offset(step(m, 16)), v);
    }
}

/// The masks as vectors of `U`.
///
/// # Safety
///
/// `U`'s target feature is enabled.
#[inline(always)]
unsafe fn vectors<U: Unit, const C: usize>(table: &[[[u8; 16]; C]; C]) -> [[U::V; C]; C] {
    // SAFETY: the caller's contract.
    let mut out = [[unsafe { U::zero() }; C]; C];
    for (row, masks) in out.iter_mut().zip(table) {
        for (v, m) in row.iter_mut().zip(masks) {
            // SAFETY: the caller's contract.
            *v = unsafe { U::mask(m) };
        }
    }
    out
}

/// The masks as vectors of `U`, one per plane.
///
/// # Safety
///
/// `U`'s target feature is enabled.
#[inline(always)]
unsafe fn vector_row<U: Unit, const C: usize>(table: &[[u8; 16]; C]) -> [U::V; C] {
    // SAFETY: the caller's contract.
    let mut out = [unsafe { U::zero() }; C];
    for (v, m) in out.iter_mut().zip(table) {
        // SAFETY: the caller's contract.
        *v = unsafe { U::mask(m) };
    }
    out
}

/// `out[x] = OR over y of shuffle(inp[y], masks[x][y])`.
///
/// # Safety
///
/// `U`'s target feature is enabled.
#[inline(always)]
unsafe fn mix_or<U: Unit, const C: usize>(inp: &[U::V; C], masks: &[[U::V; C]; C]) -> [U::V; C] {
    // SAFETY: the caller's contract.
    let mut out = [unsafe { U::zero() }; C];
    for (o, row) in out.iter_mut().zip(masks) {
        for (v, m) in inp.iter().zip(row) {
            // SAFETY: the caller's contract.
            *o = unsafe { U::or(*o, U::shuffle(*v, *m)) };
        }
    }
    out
}

/// `out[x]`: `inp[0]`, then `inp[y]` blended in where `select[x][y]` is set, `y = 1..C`.
///
/// # Safety
///
/// `U`'s target feature is enabled.
#[inline(always)]
unsafe fn mix_blend<U: Unit, const C: usize>(
    inp: &[U::V; C],
    select: &[[U::V; C]; C],
) -> [U::V; C] {
    // SAFETY: the caller's contract.
    let mut out = [unsafe { U::zero() }; C];
    if let Some((first, rest)) = inp.split_first() {
        for (o, row) in out.iter_mut().zip(select) {
            *o = *first;
            for (v, sel) in rest.iter().zip(row.iter().skip(1)) {
                // SAFETY: the caller's contract.
                *o = unsafe { U::blend(*o, *v, *sel) };
            }
        }
    }
    out
}

/// Each `inp[y]` shuffled by `masks[y]`.
///
/// # Safety
///
/// `U`'s target feature is enabled.
#[inline(always)]
unsafe fn shuffle_each<U: Unit, const C: usize>(
    mut inp: [U::V; C],
    masks: &[U::V; C],
) -> [U::V; C] {
    for (v, m) in inp.iter_mut().zip(masks) {
        // SAFETY: the caller's contract.
        *v = unsafe { U::shuffle(*v, *m) };
    }
    inp
}

/// [`interleave`] for `C` channels of `SIZE` bytes on the unit `U`.
///
/// # Safety
///
/// `U`'s target feature is enabled, and [`interleave`]'s contract holds in bytes.
#[inline(always)]
unsafe fn interleave_on<U: Unit, const C: usize, const SIZE: usize>(
    d: *mut u8,
    s: *const u8,
    plane: isize,
    n: usize,
    stream: bool,
) -> usize {
    let per = pixels_per::<U, SIZE>();
    let stride = C.wrapping_mul(SIZE);
    let stream = stream && U::STREAMS;
    // Aligned stores when streaming (they must be) or when the run is long (they are
    // cheaper, and the head is short beside the run).
    let align = (stream || n >= per.saturating_mul(8)).then_some(U::ALIGN);
    let split = Split::new(n, per, d.addr(), stride, align);
    // The stores are aligned when pixel `head` is: a step advances `16·C·GROUPS` bytes.
    let stream = stream && aligned(d.addr(), at::<C, SIZE>(split.head).1, U::ALIGN);
    for p in 0..split.head {
        // SAFETY: `p < head <= n` (contract).
        unsafe { interleave_pixel::<C, SIZE>(d, s, plane, p) };
    }
    let blend = Masks::<C, SIZE>::BLEND;
    // SAFETY: the caller's contract (`U`'s feature is enabled), for the three.
    let (masks, select, rotate) = unsafe {
        (
            vectors::<U, C>(&Masks::<C, SIZE>::INTERLEAVE),
            vectors::<U, C>(&Masks::<C, SIZE>::SELECT),
            vector_row::<U, C>(&Masks::<C, SIZE>::ROTATE),
        )
    };
    let mut p = split.head;
    for _ in 0..split.steps {
        let (planar, inter) = at::<C, SIZE>(p);
        // SAFETY: the caller's contract.
        let mut v = [unsafe { U::zero() }; C];
        for (k, vk) in v.iter_mut().enumerate() {
            // SAFETY: plane `k`'s pixels `p..p + per` are in the source (`p + per <= n`).
            *vk = unsafe { U::load_plane(s.offset(step(k, plane).wrapping_add(planar))) };
        }
        // SAFETY: the caller's contract.
        let chunks = unsafe {
            if blend {
                mix_blend::<U, C>(&shuffle_each::<U, C>(v, &rotate), &select)
            } else {
                mix_or::<U, C>(&v, &masks)
            }
        };
        // SAFETY: the `per` pixels' `16·C·GROUPS` interleaved bytes are in the destination;
        // aligned when streaming.
        unsafe { U::store_chunks::<C>(d.offset(inter), chunks, stream) };
        p = p.wrapping_add(per);
    }
    split.done(per)
}

/// [`deinterleave`] for `C` channels of `SIZE` bytes on the unit `U`.
///
/// # Safety
///
/// `U`'s target feature is enabled, and [`deinterleave`]'s contract holds in bytes.
#[inline(always)]
unsafe fn deinterleave_on<U: Unit, const C: usize, const SIZE: usize>(
    d: *mut u8,
    plane: isize,
    s: *const u8,
    n: usize,
    stream: bool,
) -> usize {
    let per = pixels_per::<U, SIZE>();
    // Streaming needs every plane aligned at once: only when the planes are a multiple of
    // the alignment apart.
    let stream = stream && U::STREAMS && plane.unsigned_abs().checked_rem(U::ALIGN) == Some(0);
    let split = Split::new(n, per, d.addr(), SIZE, stream.then_some(U::ALIGN));
    let stream = stream && aligned(d.addr(), at::<C, SIZE>(split.head).0, U::ALIGN);
    for p in 0..split.head {
        // SAFETY: `p < head <= n` (contract).
        unsafe { deinterleave_pixel::<C, SIZE>(d, plane, s, p) };
    }
    let blend = Masks::<C, SIZE>::BLEND;
    // SAFETY: the caller's contract (`U`'s feature is enabled), for the three.
    let (masks, select, rotate) = unsafe {
        (
            vectors::<U, C>(&Masks::<C, SIZE>::DEINTERLEAVE),
            vectors::<U, C>(&Masks::<C, SIZE>::SELECT_BACK),
            vector_row::<U, C>(&Masks::<C, SIZE>::ROTATE_BACK),
        )
    };
    let gap = step(C, 16);
    let mut p = split.head;
    for _ in 0..split.steps {
        let (planar, inter) = at::<C, SIZE>(p);
        // SAFETY: the caller's contract.
        let mut u = [unsafe { U::zero() }; C];
        for (m, um) in u.iter_mut().enumerate() {
            // SAFETY: chunk `m` of each of the step's groups, among the `per` pixels'
            // `16·C·GROUPS` interleaved source bytes.
            *um = unsafe { U::load_chunk(s.offset(inter.wrapping_add(step(m, 16))), gap) };
        }
        // SAFETY: the caller's contract.
        let planes = unsafe {
            if blend {
                shuffle_each::<U, C>(mix_blend::<U, C>(&u, &select), &rotate)
            } else {
                mix_or::<U, C>(&u, &masks)
            }
        };
        for (k, t) in planes.into_iter().enumerate() {
            // SAFETY: plane `k`'s pixels `p..p + per` in the destination; aligned when
            // streaming (every plane is aligned after the head, and a step advances
            // `16·GROUPS` bytes, a multiple of `ALIGN`).
            unsafe { U::store_plane(d.offset(step(k, plane).wrapping_add(planar)), t, stream) };
        }
        p = p.wrapping_add(per);
    }
    split.done(per)
}

/// Pixel `p`'s `C` elements, one by one, for an interleave.
///
/// # Safety
///
/// As [`interleave`] for a pixel `p < n`, in bytes.
#[inline(always)]
unsafe fn interleave_pixel<const C: usize, const SIZE: usize>(
    d: *mut u8,
    s: *const u8,
    plane: isize,
    p: usize,
) {
    let (planar, inter) = at::<C, SIZE>(p);
    for k in 0..C {
        // SAFETY: element `k` of pixel `p` in each slice (contract), `SIZE` bytes each,
        // distinct slices.
        unsafe {
            core::ptr::copy_nonoverlapping(
                s.offset(step(k, plane).wrapping_add(planar)),
                d.offset(inter.wrapping_add(step(k, step(SIZE, 1)))),
                SIZE,
            );
        }
    }
}

/// Pixel `p`'s `C` elements, one by one, for a deinterleave.
///
/// # Safety
///
/// As [`deinterleave`] for a pixel `p < n`, in bytes.
#[inline(always)]
unsafe fn deinterleave_pixel<const C: usize, const SIZE: usize>(
    d: *mut u8,
    plane: isize,
    s: *const u8,
    p: usize,
) {
    let (planar, inter) = at::<C, SIZE>(p);
    for k in 0..C {
        // SAFETY: element `k` of pixel `p` in each slice (contract), `SIZE` bytes each,
        // distinct slices.
        unsafe {
            core::ptr::copy_nonoverlapping(
                s.offset(inter.wrapping_add(step(k, step(SIZE, 1)))),
                d.offset(step(k, plane).wrapping_add(planar)),
                SIZE,
            );
        }
    }
}

#[cfg(all(target_arch = "x86_64", not(miri)))]
mod x86 {
    use core::arch::x86_64::{
        __m128i, __m256i, _mm_and_si128, _mm_andnot_si128, _mm_loadu_si128, _mm_or_si128,
        _mm_setzero_si128, _mm_shuffle_epi8, _mm_storeu_si128, _mm_stream_si128,
        _mm256_blendv_epi8, _mm256_broadcastsi128_si256, _mm256_castsi128_si256,
        _mm256_castsi256_si128, _mm256_extracti128_si256, _mm256_inserti128_si256,
        _mm256_loadu_si256, _mm256_or_si256, _mm256_permute2x128_si256, _mm256_setzero_si256,
        _mm256_shuffle_epi8, _mm256_storeu_si256, _mm256_stream_si256,
    };

    use super::{Unit, run, store_each};
    use crate::kernel::walk::step;

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
                        for (m, v) in chunks.into_iter().enumerate() {
                            let q = p.offset(step(m, 16));
                            store_half(q, _mm256_castsi256_si128(v), stream);
                            let hi = _mm256_extracti128_si256::<1>(v);
                            store_half(q.offset(step(C, 16)), hi, stream);
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
    ) -> usize {
        // SAFETY: SSSE3 is enabled here; the caller's contract.
        unsafe { run::<Ssse3, C, SIZE, INTER>(d, s, plane, n, stream) }
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
    ) -> usize {
        // SAFETY: AVX2 is enabled here; the caller's contract.
        unsafe { run::<Avx2, C, SIZE, INTER>(d, s, plane, n, stream) }
    }
}

#[cfg(all(target_arch = "aarch64", target_feature = "neon", not(miri)))]
mod neon {
    use core::arch::aarch64::{
        uint8x16_t, vbslq_u8, vdupq_n_u8, vld1q_u8, vorrq_u8, vqtbl1q_u8, vst1q_u8,
    };

    use super::{Unit, store_each};

    /// NEON: one group a vector; `tbl` yields zero for an index past 15, as `0x80` is.
    pub(super) struct Neon;

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
        unsafe fn store_chunks<const C: usize>(p: *mut u8, chunks: [uint8x16_t; C], _stream: bool) {
            // SAFETY: the trait's contract (NEON is enabled at compile time; the memory is
            // the caller's).
            unsafe { store_each(p, chunks, |q, v| vst1q_u8(q, v)) }
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
    }
}

/// The portable twin: the same loops and masks on `[u8; 16]` arrays (what Miri runs).
#[cfg(any(miri, test))]
mod portable {
    use super::{Unit, store_each};

    /// One group a vector, a plain byte array.
    pub(super) struct Portable;

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
        unsafe fn store_chunks<const C: usize>(p: *mut u8, chunks: [[u8; 16]; C], _stream: bool) {
            // SAFETY: no feature is needed; the memory is the caller's (the trait's
            // contract), read and written unaligned.
            unsafe { store_each(p, chunks, |q, v| q.cast::<[u8; 16]>().write_unaligned(v)) }
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
    }
}

#[cfg(test)]
#[allow(clippy::cast_possible_wrap, clippy::cast_possible_truncation)] // small test sizes
mod tests {
    use super::*;
    use std::vec::Vec;

    /// Planar source of `c` planes `plane` elements apart (pattern bytes), interleaved
    /// destination of `n·c` elements plus guard bytes, both starting `skew` bytes into their
    /// buffers; checks `f` against the formula and the guards.
    fn check_interleave(
        c: usize,
        size: usize,
        n: usize,
        plane: usize,
        skew: usize,
        f: impl FnOnce(*mut u8, *const u8, isize) -> usize,
    ) {
        let src: Vec<u8> = (0..skew + c * plane * size)
            .map(|x| (x * 7 + 3) as u8)
            .collect();
        let mut dst = std::vec![0xEEu8; skew + n * c * size + 32];
        let done = f(
            dst[skew..].as_mut_ptr(),
            src[skew..].as_ptr(),
            (plane * size) as isize,
        );
        assert!(done <= n, "c {c} size {size} n {n}: did {done}");
        for p in 0..done {
            for k in 0..c {
                for t in 0..size {
                    assert_eq!(
                        dst[skew + (p * c + k) * size + t],
                        src[skew + (k * plane + p) * size + t],
                        "c {c} size {size} n {n} pixel {p} channel {k} byte {t}"
                    );
                }
            }
        }
        assert!(
            dst[..skew]
                .iter()
                .chain(&dst[skew + done * c * size..])
                .all(|&b| b == 0xEE)
        );
    }

    /// The way back: interleaved source, planar destination with guard bytes between planes.
    fn check_deinterleave(
        c: usize,
        size: usize,
        n: usize,
        plane: usize,
        skew: usize,
        f: impl FnOnce(*mut u8, isize, *const u8) -> usize,
    ) {
        let src: Vec<u8> = (0..skew + n * c * size)
            .map(|x| (x * 5 + 1) as u8)
            .collect();
        let mut dst = std::vec![0xEEu8; skew + c * plane * size];
        let done = f(
            dst[skew..].as_mut_ptr(),
            (plane * size) as isize,
            src[skew..].as_ptr(),
        );
        assert!(done <= n, "c {c} size {size} n {n}: did {done}");
        for k in 0..c {
            for p in 0..plane {
                for t in 0..size {
                    let got = dst[skew + (k * plane + p) * size + t];
                    if p < done {
                        assert_eq!(
                            got,
                            src[skew + (p * c + k) * size + t],
                            "c {c} size {size} n {n} pixel {p} channel {k} byte {t}"
                        );
                    } else {
                        assert_eq!(got, 0xEE, "c {c} size {size}: wrote past pixel {done}");
                    }
                }
            }
        }
    }

    fn portable_shape<const C: usize, const SIZE: usize>() {
        let per = 16 / SIZE;
        let (lengths, skews): (&[usize], &[usize]) = if cfg!(miri) {
            (&[per - 1, per + 1], &[1])
        } else {
            (&[0, 1, per - 1, per, per + 1, 3 * per + 1, 64], &[0, 1, 5])
        };
        for &n in lengths {
            for &skew in skews {
                let plane = n + 3;
                check_interleave(C, SIZE, n, plane, skew, |d, s, pl| {
                    // SAFETY: the buffers hold the planes and the pixels (the helper's sizes).
                    let done =
                        unsafe { run::<portable::Portable, C, SIZE, true>(d, s, pl, n, false) };
                    assert_eq!(done, n - n % per, "whole groups only");
                    done
                });
                check_deinterleave(C, SIZE, n, plane, skew, |d, pl, s| {
                    // SAFETY: as above.
                    let done =
                        unsafe { run::<portable::Portable, C, SIZE, false>(d, s, pl, n, false) };
                    assert_eq!(done, n - n % per, "whole groups only");
                    done
                });
            }
        }
    }

    #[test]
    fn portable_twin_moves_every_shape() {
        portable_shape::<2, 1>();
        portable_shape::<2, 2>();
        portable_shape::<2, 4>();
        portable_shape::<2, 8>();
        portable_shape::<3, 1>();
        portable_shape::<3, 2>();
        portable_shape::<3, 4>();
        portable_shape::<3, 8>();
        portable_shape::<4, 1>();
        portable_shape::<4, 2>();
        portable_shape::<4, 4>();
        portable_shape::<4, 8>();
    }

    /// Whether this target has a backend (else the entry points do nothing, by design).
    fn has_backend() -> bool {
        #[cfg(all(target_arch = "x86_64", not(miri)))]
        {
            crate::kernel::simd::has_ssse3()
        }
        #[cfg(not(all(target_arch = "x86_64", not(miri))))]
        {
            cfg!(any(
                miri,
                all(target_arch = "aarch64", target_feature = "neon")
            ))
        }
    }

    /// The target's backend through the public entry points, with and without streaming.
    fn backend<T: Copy>() {
        let size = size_of::<T>();
        // Miri runs the portable twin, slowly: a few lengths, one skew, no streaming.
        let (lengths, skews, streams): (&[usize], &[usize], &[bool]) = if cfg!(miri) {
            (&[1, 33], &[size], &[false])
        } else {
            (
                &[0, 1, 7, 31, 32, 33, 100, 257],
                &[0, size, 3 * size],
                &[false, true],
            )
        };
        for c in 2..=4 {
            for &n in lengths {
                for &skew in skews {
                    for &stream in streams {
                        let plane = n + 2;
                        // A run of two or more steps is shuffled, not left to the caller.
                        let shuffled = |done: usize| {
                            assert!(!has_backend() || n < 64 || done > 0, "c {c} n {n}: none");
                            done
                        };
                        check_interleave(c, size, n, plane, skew, |d, s, pl| {
                            // SAFETY: the buffers hold the planes and the pixels; `T`-sized
                            // steps, and `T` is only moved as bytes.
                            shuffled(unsafe {
                                interleave::<T>(
                                    d.cast(),
                                    s.cast(),
                                    pl / size as isize,
                                    c,
                                    n,
                                    stream,
                                )
                            })
                        });
                        check_deinterleave(c, size, n, plane, skew, |d, pl, s| {
                            // SAFETY: as above.
                            shuffled(unsafe {
                                deinterleave::<T>(
                                    d.cast(),
                                    pl / size as isize,
                                    s.cast(),
                                    c,
                                    n,
                                    stream,
                                )
                            })
                        });
                    }
                }
            }
        }
    }

    /// SSSE3 directly (the dispatch prefers AVX2 where both exist).
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    fn ssse3_shape<const C: usize, const SIZE: usize>() {
        if !crate::kernel::simd::has_ssse3() {
            return;
        }
        for n in [0, 1, 15, 16, 17, 100] {
            for (skew, stream) in [(0, false), (1, true), (3, true)] {
                check_interleave(C, SIZE, n, n + 1, skew, |d, s, pl| {
                    // SAFETY: SSSE3 is present; the buffers hold the planes and the pixels.
                    unsafe { x86::ssse3::<C, SIZE, true>(d, s, pl, n, stream) }
                });
                check_deinterleave(C, SIZE, n, n + 16, skew, |d, pl, s| {
                    // SAFETY: as above.
                    unsafe { x86::ssse3::<C, SIZE, false>(d, s, pl, n, stream) }
                });
            }
        }
    }

    #[cfg(all(target_arch = "x86_64", not(miri)))]
    #[test]
    fn ssse3_backend_moves_every_shape() {
        ssse3_shape::<2, 1>();
        ssse3_shape::<3, 1>();
        ssse3_shape::<4, 1>();
        ssse3_shape::<3, 2>();
        ssse3_shape::<3, 4>();
        ssse3_shape::<2, 8>();
        ssse3_shape::<4, 8>();
    }

    #[test]
    fn backend_moves_every_primitive_size() {
        backend::<u8>();
        backend::<i16>();
        backend::<f32>();
        backend::<u64>();
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "the portable twin does not stream; long runs are slow there"
    )]
    fn streaming_aligns_planes_that_allow_it() {
        // Planes a multiple of 64 bytes apart: every plane can be aligned at once.
        // Runs long enough to stream (`long_run`), with every skew of the destination.
        let n = 6000;
        assert!(long_run(n, 3, 1) && !long_run(100, 3, 4));
        for skew in 0..8 {
            check_deinterleave(3, 1, n, n + 64 - n % 64, skew, |d, pl, s| {
                // SAFETY: the buffers hold the planes and the pixels.
                unsafe { deinterleave::<u8>(d, pl, s, 3, n, true) }
            });
            check_interleave(3, 4, n, n + 1, skew * 4, |d, s, pl| {
                // SAFETY: as above.
                unsafe { interleave::<f32>(d.cast(), s.cast(), pl / 4, 3, n, true) }
            });
        }
    }

    #[test]
    fn other_shapes_and_types_are_left_to_the_caller() {
        #[derive(Clone, Copy)]
        struct Rgb(#[allow(dead_code)] u8);
        let (mut d, s) = ([0u8; 64], [0u8; 64]);
        // SAFETY: 5 channels are not shuffled, so nothing is touched.
        let done = unsafe { interleave::<u8>(d.as_mut_ptr(), s.as_ptr(), 8, 5, 8, false) };
        assert_eq!(done, 0);
        // SAFETY: a user type is not plain, so nothing is touched.
        let done = unsafe {
            interleave::<Rgb>(d.as_mut_ptr().cast(), s.as_ptr().cast(), 16, 2, 16, false)
        };
        assert_eq!(done, 0);
    }

    #[test]
    fn masks_pick_each_byte_once() {
        // Every interleaved byte of a group comes from exactly one plane byte, and back.
        fn once<const C: usize>(size: usize) {
            let inter = masks::<C>(size, true);
            for chunk in &inter {
                for b in 0..16 {
                    assert_eq!(chunk.iter().filter(|m| m[b] != 0x80).count(), 1);
                }
            }
            let de = masks::<C>(size, false);
            for plane in &de {
                for b in 0..16 {
                    assert_eq!(plane.iter().filter(|m| m[b] != 0x80).count(), 1);
                }
            }
        }
        for size in [1, 2, 4, 8] {
            once::<2>(size);
            once::<3>(size);
            once::<4>(size);
        }
    }
}
