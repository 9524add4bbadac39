//! The row loops of the block kernel: contiguous and strided rows, one or two at a time.

use core::mem::MaybeUninit;
use core::{ptr, slice};

use crate::kernel::backend::{Backend, Target};
use crate::kernel::drive::step;
use crate::kernel::plan::Loop;

/// Whether strided rows are copied two at a time ([`strided_copy_pair`]): on bare metal,
/// where the compiler does not unroll the inner loop (code size first), so that a planar
/// <-> interleaved stereo block costs what a hand loop over its frames does (two loads, two
/// stores, two pointer bumps and the loop branch per frame on a Cortex-M4, against six
/// instructions a sample row by row).
pub(super) const PAIR_ROWS: bool = cfg!(target_os = "none");

/// Copies `rows` rows of `n` consecutive elements (`d + i·dr`, `s + i·sr`) with the pair loop
/// where the inner loop is not unrolled (bare metal): in 4-byte words when the rows and both
/// operands allow, else element by element. No `memcpy` call: the pair loop's two loads, two
/// stores, two pointer bumps and branch move two words (about four instructions a word on a
/// Cortex-M4, where `memcpy`'s multi-register moves take fewer on long rows), and the image
/// leaves out `compiler_builtins`' 730-byte `memcpy`, which a plan built once (in `const`
/// too) could not prove unused.
///
/// # Safety
///
/// As [`copy_short_rows`].
#[inline]
pub(super) unsafe fn pair_rows_contiguous<T: Copy>(
    d: *mut T,
    dr: isize,
    s: *const T,
    sr: isize,
    rows: usize,
    n: usize,
) {
    /// The word: alignment 4, any bytes (padding included) move unchanged.
    type Word = MaybeUninit<u32>;
    const W: usize = size_of::<Word>();
    let size = size_of::<T>();
    // Words when every row starts on a word and is whole words: the byte offsets of both
    // operands' rows, and the row's bytes, are multiples of 4 (a checked product that
    // overflows just takes the element loop).
    let words = |x: usize| {
        x.checked_mul(size)
            .filter(|b| b.is_multiple_of(W))
            .map(|b| b / W)
    };
    let aligned = |p: usize| p.is_multiple_of(W);
    let word_rows = (size < W && aligned(d.addr()) && aligned(s.addr()))
        .then(|| {
            Some((
                words(n)?,
                words(dr.unsigned_abs())?,
                words(sr.unsigned_abs())?,
            ))
        })
        .flatten();
    if let Some((wn, wd, ws)) = word_rows {
        // `wd`, `ws` are at most `|dr|`, `|sr|` (a word is at least one element), which are
        // `isize`; the signs come back from the element strides.
        let sign = |w: usize, e: isize| {
            let w = w.cast_signed();
            if e < 0 { w.wrapping_neg() } else { w }
        };
        let (wdr, wsr) = (sign(wd, dr), sign(ws, sr));
        // SAFETY: row `i`'s `n` elements are the `wn` words at `d + i·dr` and `s + i·sr`
        // bytes (`wn · 4 = n · size`, both starts word-aligned), inside their slices
        // (contract); `MaybeUninit<u32>` reads any bytes.
        unsafe { pair_rows(d.cast::<Word>(), wdr, 1, s.cast::<Word>(), wsr, 1, rows, wn) };
    } else {
        // SAFETY: the contract, rows of `n` elements one apart.
        unsafe { pair_rows(d, dr, 1, s, sr, 1, rows, n) };
    }
}

/// The block's rows two at a time with [`strided_copy_pair`] (the last row alone, written
/// twice, when `rows` is odd).
///
/// # Safety
///
/// As [`strided_copy_pair`] for every pair of rows `i`, `i + 1` (`d + i·dr + j·ds`,
/// `s + i·sr + j·ss` for `i < rows`, `j < n`).
#[expect(
    clippy::too_many_arguments,
    reason = "two pointers, their three strides, two counts"
)]
#[inline]
pub(super) unsafe fn pair_rows<T: Copy>(
    d: *mut T,
    dr: isize,
    ds: isize,
    s: *const T,
    sr: isize,
    ss: isize,
    rows: usize,
    n: usize,
) {
    let (mut d, mut s, mut left) = (d, s, rows);
    while left > 0 {
        // Rows `i` and `i + 1`, or the last row twice (`0` apart: each element is written
        // twice with the same value) when one is left: one loop, less code on the targets
        // that take it.
        let next = if left >= 2 { (dr, sr) } else { (0, 0) };
        // SAFETY: `d` and `s` are the first elements of row `rows - left` of the block, and
        // the rows `next` further, of row `rows - left + 1` (or the same row) (contract).
        unsafe { strided_copy_pair(d, next.0, ds, s, next.1, ss, n) };
        // Two rows on; past the last row the pointers may leave the slices:
        // `wrapping_offset` keeps that defined, and they are never dereferenced there.
        d = d.wrapping_offset(dr.wrapping_mul(2));
        s = s.wrapping_offset(sr.wrapping_mul(2));
        left = left.saturating_sub(2);
    }
}

/// `d[j·ds] = s[j·ss]` and `d[dr + j·ds] = s[sr + j·ss]` for `j < n`: two rows of a block in
/// one pass.
///
/// # Safety
///
/// As [`strided_copy_unchecked`] for both rows (`d`, `s` and `d + dr`, `s + sr`; with
/// `dr = sr = 0` the two rows are one, each element written twice).
#[inline]
unsafe fn strided_copy_pair<T: Copy>(
    d: *mut T,
    dr: isize,
    ds: isize,
    s: *const T,
    sr: isize,
    ss: isize,
    n: usize,
) {
    let (mut dp, mut sp) = (d, s);
    for _ in 0..n {
        // `dp`, `sp` and `dp + dr`, `sp + sr` are element `j < n` of the two rows
        // (contract); the destination and source elements are distinct.
        // SAFETY: `sp` is element `j` of the first source row (above).
        let first = unsafe { *sp };
        // SAFETY: `sp + sr` is element `j` of the second source row (above).
        let sp2 = unsafe { sp.offset(sr) };
        // SAFETY: `sp2` is element `j` of the second source row (above).
        let second = unsafe { *sp2 };
        // SAFETY: `dp` is element `j` of the first destination row, no source element
        // (above).
        unsafe { *dp = first };
        // SAFETY: `dp + dr` is element `j` of the second destination row (above).
        let dp2 = unsafe { dp.offset(dr) };
        // SAFETY: `dp2` is element `j` of the second destination row, no source element
        // (above).
        unsafe { *dp2 = second };
        // Past the last element the pointers may leave the slices: `wrapping_offset` keeps
        // that defined, and they are never dereferenced there.
        dp = dp.wrapping_offset(ds);
        sp = sp.wrapping_offset(ss);
    }
}

/// The longest row [`copy_short_rows`] moves (bytes): two 64-byte moves.
pub(super) const SHORT_ROW_BYTES: usize = 128;

/// Copies `rows` rows of `n` consecutive elements (`d + i·dr`, `s + i·sr`) with at most two
/// fixed-size moves a row, when a row is 1 to 128 bytes, and returns `true`; else copies
/// nothing and returns `false`. A row of `W` to `2W` bytes (`W` a power of two) moves its
/// first `W` and its last `W` bytes, which overlap in the middle and write those bytes twice
/// with the same source values. A `memcpy` call a row costs more than the move itself for
/// rows this short (the rows of 8 `f32` of a blocks of 8 -> blocks of 16 reorder; the 2-byte
/// runs of a flipped stereo crop cost 2.5x a plain element loop through `memcpy`).
///
/// # Safety
///
/// Every row `i < rows` is `n` elements of the destination and of the source slice, which do
/// not overlap.
#[inline]
pub(super) unsafe fn copy_short_rows<T>(
    d: *mut T,
    dr: isize,
    s: *const T,
    sr: isize,
    rows: usize,
    n: usize,
) -> bool {
    /// The rows as one or two moves of `[MaybeUninit<u8>; W]` (alignment 1, no validity
    /// requirement: any bytes, padding included, move unchanged): bytes `0..W` and
    /// `tail..tail + W` of each row, `tail + W` the row's bytes, `tail <= W`.
    ///
    /// # Safety
    ///
    /// As [`copy_short_rows`], with rows of `tail + W` bytes, `tail <= W`.
    #[inline]
    unsafe fn rows_of<T, const W: usize>(
        d: *mut T,
        dr: isize,
        s: *const T,
        sr: isize,
        rows: usize,
        tail: usize,
    ) {
        type Bytes<const W: usize> = [MaybeUninit<u8>; W];
        let (mut dp, mut sp) = (d.cast::<u8>(), s.cast::<u8>());
        let (dr, sr) = (
            dr.wrapping_mul(size_of::<T>().cast_signed()),
            sr.wrapping_mul(size_of::<T>().cast_signed()),
        );
        for _ in 0..rows {
            // SAFETY: `dp`, `sp` point at a row of `tail + W` bytes (contract): its first `W`.
            unsafe { ptr::copy_nonoverlapping(sp.cast::<Bytes<W>>(), dp.cast(), 1) };
            if tail > 0 {
                // SAFETY: the row's last `W` bytes, from `tail` (`tail + W` is the row).
                let (ds, ss) = (dp.wrapping_add(tail), sp.wrapping_add(tail));
                // SAFETY: as above.
                unsafe { ptr::copy_nonoverlapping(ss.cast::<Bytes<W>>(), ds.cast(), 1) };
            }
            // Past the last row the pointers may leave the slices: `wrapping_offset` keeps
            // that defined, and they are never dereferenced there.
            dp = dp.wrapping_offset(dr);
            sp = sp.wrapping_offset(sr);
        }
    }
    let Some(bytes) = n.checked_mul(size_of::<T>()) else {
        return false;
    };
    // SAFETY (each arm): the contract, with the row's bytes `tail + W`, `tail <= W`.
    match bytes {
        0 => {}
        // SAFETY: as above.
        1 => unsafe { rows_of::<T, 1>(d, dr, s, sr, rows, 0) },
        // SAFETY: as above.
        2..=3 => unsafe { rows_of::<T, 2>(d, dr, s, sr, rows, bytes.wrapping_sub(2)) },
        // SAFETY: as above.
        4..=7 => unsafe { rows_of::<T, 4>(d, dr, s, sr, rows, bytes.wrapping_sub(4)) },
        // SAFETY: as above.
        8..=15 => unsafe { rows_of::<T, 8>(d, dr, s, sr, rows, bytes.wrapping_sub(8)) },
        // SAFETY: as above.
        16..=31 => unsafe { rows_of::<T, 16>(d, dr, s, sr, rows, bytes.wrapping_sub(16)) },
        // SAFETY: as above.
        32..=63 => unsafe { rows_of::<T, 32>(d, dr, s, sr, rows, bytes.wrapping_sub(32)) },
        // SAFETY: as above.
        64..=128 => unsafe { rows_of::<T, 64>(d, dr, s, sr, rows, bytes.wrapping_sub(64)) },
        _ => return false,
    }
    true
}

/// Copies `n` consecutive elements from `s` to `d`: one `memcpy`, except where the C
/// library's `memcpy` of the run could take a slow case (the destination 1 to 63 bytes past
/// the source modulo 4096 and the run longer than [`RUN_PIECE`] bytes, shorter than the
/// backend's [`memcpy_slow_below`](crate::kernel::backend::Backend::memcpy_slow_below): on
/// x86-64, short enough for the library's `rep movsb`): then in pieces of [`RUN_PIECE`] bytes.
/// Shorter pieces take the library's vector loops, whose speed does not depend on the
/// distance.
///
/// # Safety
///
/// `s..s + n` and `d..d + n` are elements of the source and destination slices, which do not
/// overlap.
#[inline]
pub(crate) unsafe fn copy_run<T>(dst: *mut T, src: *const T, len: usize) {
    let size = size_of::<T>();
    // At most the run's bytes, which fit in `isize` (elements of one slice).
    let bytes = len.wrapping_mul(size);
    let gap = dst.addr().wrapping_sub(src.addr()) % 4096;
    if bytes > RUN_PIECE && (1..64).contains(&gap) && bytes < Target::memcpy_slow_below() {
        // At least one element a piece (`size > 0`: the run has more bytes than a piece).
        let per = RUN_PIECE.checked_div(size).unwrap_or(1).max(1);
        let mut done = 0;
        while done < len {
            let piece = per.min(len.wrapping_sub(done));
            let (d, s) = (dst.wrapping_add(done), src.wrapping_add(done));
            // SAFETY: elements `done..done + piece` of the run (`done + piece <= len`),
            // inside both slices (contract), which do not overlap.
            unsafe { ptr::copy_nonoverlapping(s, d, piece) };
            done = done.wrapping_add(piece);
        }
    } else {
        // SAFETY: the contract.
        unsafe { ptr::copy_nonoverlapping(src, dst, len) };
    }
}

/// Whether a block whose inner loop runs forwards in one operand and backwards in the other,
/// one element a step (a flip), copies each row as one reversed run ([`reverse_run`]): on
/// hosts, where the compiler vectorises the run with vector shuffles; bare-metal builds keep
/// the element loops (code size).
pub(super) const REVERSES: bool = cfg!(not(target_os = "none"));

/// The shortest row, in bytes, [`reverse_rows`] takes in a block of any number of rows; rows
/// of [`REVERSE_CHUNK_BYTES`] up to this take it in blocks of [`REVERSE_MIN_ROWS`] rows or
/// more, and shorter rows (or fewer) run inlined in the element loops, without a block
/// kernel's call.
pub(super) const REVERSE_MIN_BYTES: usize = 128;

/// Whether `rows` flipped rows of `n` elements of `T` are worth [`reverse_rows`]: rows of
/// [`REVERSE_MIN_BYTES`] or more, or of elements under 8 bytes, of a vector chunk
/// ([`REVERSE_CHUNK_BYTES`]) or more in blocks of [`REVERSE_MIN_ROWS`] rows. (Rows of 4 to
/// 15 `f64` are a few chunks whose 32-byte moves split cache lines where 8-byte ones never
/// do: sweep cases of them ran 1.1-3x slower reversed than in the element loops, whose
/// 8-byte moves take as many instructions an element as the chunks' loads, shuffles and
/// stores.)
pub(super) const fn reverse_worth<T>(rows: usize, n: usize) -> bool {
    let bytes = n.saturating_mul(size_of::<T>());
    bytes >= REVERSE_MIN_BYTES
        || (size_of::<T>() < 8 && bytes >= REVERSE_CHUNK_BYTES && rows >= REVERSE_MIN_ROWS)
}

/// The fewest rows of a block whose reversed rows are shorter than [`REVERSE_MIN_BYTES`] for
/// [`reverse_rows`] to repay the block's call: measured on an AMD EPYC (600,000 elements in
/// blocks of `rows` flipped rows of 32 to 96 bytes, 1- to 8-byte elements), blocks of 8 rows
/// ran 0.66-0.81x the element loops' time, of 16 and 64 0.54-0.77x, of 4 0.81-1.12x and of
/// 2 1.07-2.0x.
pub(super) const REVERSE_MIN_ROWS: usize = 8;

/// Whether an inner loop of strides `db` (destination) and `sb` (source) is a flipped row:
/// one element a step forwards in one operand and backwards in the other, on hosts
/// ([`REVERSES`]). The one rule `copy()`'s block kinds and `map`'s rows read.
pub(super) const fn flipped(db: isize, sb: isize) -> bool {
    REVERSES && db == sb.wrapping_neg() && db.unsigned_abs() == 1
}

/// The lowest element of a flipped row of `n` elements in each operand, from the elements
/// of its index 0 (`d`, `s`): the operand running backwards (`db < 0`: the destination)
/// starts `n - 1` elements before it. Wrapping: the caller dereferences only a row's
/// elements.
pub(super) fn lowest<D, S>(d: *mut D, s: *const S, db: isize, n: usize) -> (*mut D, *const S) {
    let back = n.saturating_sub(1);
    if db < 0 {
        (d.wrapping_sub(back), s)
    } else {
        (d, s.wrapping_sub(back))
    }
}

/// `d[n - 1 - i] = s[i]` for `i < n`: a run copied in reverse order, both sides given by their
/// lowest element. The loop runs over two slices, so the compiler vectorises it with vector
/// shuffles (for AVX2, detected at run time, in a copy of the loop compiled for it): a flipped
/// row moves at near `memcpy` speed instead of one element a step.
///
/// # Safety
///
/// `d..d + n` are elements of the destination allocation and `s..s + n` of the source
/// allocation, and the two ranges do not overlap.
#[expect(
    clippy::inline_always,
    reason = "inlined into `reverse_rows_portable`'s row loop, which the x86-64 backend's AVX2 \
              copy compiles for AVX2"
)]
#[inline(always)]
unsafe fn reverse_run<T: Copy>(d: *mut T, s: *const T, n: usize) {
    // SAFETY: `d..d + n` are elements of the destination allocation, which nothing else reads
    // or writes while this slice lives (contract: the source does not overlap them).
    let dst = unsafe { slice::from_raw_parts_mut(d, n) };
    // SAFETY: `s..s + n` are elements of the source allocation, not written while this slice
    // lives (contract).
    let src = unsafe { slice::from_raw_parts(s, n) };
    // `map`'s flipped row with `f` the identity: chunks of 32 bytes (64 past 128 bytes) of
    // `T`, the destination's from its start and the source's from its end, each a fixed-size
    // array the compiler loads, shuffles and stores in vector registers, then the few elements
    // left. (One loop over the run left the vector loop to runs past 128 bytes, since it kept a
    // scalar step for the end: rows of exactly 16 `f64` ran element by element, 2x slower than
    // rows of 17; a loop over each chunk's elements moved 1-byte elements one at a time.)
    map_reversed(dst, src, false, &mut |x: T| x);
}

/// `f` over a flipped row, both sides given as slices from their lowest element:
/// `dst[n - 1 - i] = f(src[i])` when the destination runs backwards (`dst_backwards`), else
/// `dst[i] = f(src[n - 1 - i])`. `f` is called in the row's order (the source's from its
/// start, or from its end). In chunks of 32 bytes of `T` (64 for rows past
/// [`MAP_CHUNKS_UP_TO`]), each a fixed-size array the compiler maps and reverses in vector
/// registers, then element by element: one loop over the row left rows up to 128 bytes to its
/// scalar end (rows of 8 `f32` ran at the plain loop's speed).
#[expect(
    clippy::inline_always,
    reason = "inlined into `map`'s row loop with its `f`, which it calls once an element, and \
              into `reverse_run`'s, with the identity"
)]
#[inline(always)]
pub(super) fn map_reversed<T: Copy, U, F: FnMut(T) -> U>(
    dst: &mut [U],
    src: &[T],
    dst_backwards: bool,
    f: &mut F,
) {
    let (dst, src) = if size_of_val(src) > MAP_CHUNKS_UP_TO {
        match size_of::<T>() {
            1 => map_reversed_chunks::<T, U, F, 64>(dst, src, dst_backwards, f),
            2 => map_reversed_chunks::<T, U, F, 32>(dst, src, dst_backwards, f),
            4 => map_reversed_chunks::<T, U, F, 16>(dst, src, dst_backwards, f),
            8 => map_reversed_chunks::<T, U, F, 8>(dst, src, dst_backwards, f),
            _ => (dst, src),
        }
    } else {
        match size_of::<T>() {
            1 => map_reversed_chunks::<T, U, F, 32>(dst, src, dst_backwards, f),
            2 => map_reversed_chunks::<T, U, F, 16>(dst, src, dst_backwards, f),
            4 => map_reversed_chunks::<T, U, F, 8>(dst, src, dst_backwards, f),
            8 => map_reversed_chunks::<T, U, F, 4>(dst, src, dst_backwards, f),
            _ => (dst, src),
        }
    };
    map_reversed_chunks::<T, U, F, 1>(dst, src, dst_backwards, f);
}

/// The longest source row (bytes) [`map_reversed`] takes in chunks of 32 bytes; longer rows go
/// in chunks of 64, which kept long `f32` rows at the one loop's time where chunks of 32 were
/// about 10 % slower.
const MAP_CHUNKS_UP_TO: usize = 4 * REVERSE_CHUNK_BYTES;

/// [`map_reversed`] `L` elements a step (`L >= 1`) over as many whole chunks as the row holds:
/// the backward side's chunks from its end against the forward side's from its start, each
/// chunk's `L` results made in the row's order into an array and stored reversed. Returns what
/// is left of each side (fewer than `L` elements, the same number on both).
#[expect(
    clippy::inline_always,
    reason = "inlined into `map_reversed`, so into `map`'s row loop"
)]
#[inline(always)]
fn map_reversed_chunks<'a, 'b, T: Copy, U, F: FnMut(T) -> U, const L: usize>(
    dst: &'a mut [U],
    src: &'b [T],
    dst_backwards: bool,
    f: &mut F,
) -> (&'a mut [U], &'b [T]) {
    if dst_backwards {
        let mut to = dst.rchunks_exact_mut(L);
        let mut from = src.chunks_exact(L);
        for (x, y) in (&mut to).zip(&mut from) {
            // Each chunk has exactly `L` elements (`chunks_exact`), so both conversions succeed.
            if let (Ok(x), Ok(y)) = (<&mut [U; L]>::try_from(x), <&[T; L]>::try_from(y)) {
                #[expect(
                    clippy::indexing_slicing,
                    reason = "`k < L`: `from_fn` calls with the indices of an array of `L`"
                )]
                let mut out = core::array::from_fn::<U, L, _>(|k| f(y[k]));
                out.reverse();
                *x = out;
            }
        }
        (to.into_remainder(), from.remainder())
    } else {
        let mut to = dst.chunks_exact_mut(L);
        let mut from = src.rchunks_exact(L);
        for (x, y) in (&mut to).zip(&mut from) {
            // As above: chunks of exactly `L` elements.
            if let (Ok(x), Ok(y)) = (<&mut [U; L]>::try_from(x), <&[T; L]>::try_from(y)) {
                #[expect(
                    clippy::indexing_slicing,
                    clippy::arithmetic_side_effects,
                    reason = "`k < L`: `from_fn` calls with the indices of an array of `L`, so \
                              `L - 1 - k` is one too (an array's `map` compiles to slower code)"
                )]
                let out = core::array::from_fn::<U, L, _>(|k| f(y[L - 1 - k]));
                *x = out;
            }
        }
        (to.into_remainder(), from.remainder())
    }
}

/// Whether [`zip_reversed`] takes a row of `n` elements of sources `A` and `B`: it holds a
/// whole chunk (32 bytes of the wider source, 16 of bytes); shorter rows go element by
/// element.
pub(super) const fn zip_reversed_worth<A, B>(n: usize) -> bool {
    let wide = wider::<A, B>();
    n.saturating_mul(wide)
        >= if wide == 1 {
            REVERSE_CHUNK_BYTES / 2
        } else {
            REVERSE_CHUNK_BYTES
        }
}

/// The size of the wider of `A` and `B`, which sets [`zip_reversed`]'s chunk.
const fn wider<A, B>() -> usize {
    if size_of::<A>() > size_of::<B>() {
        size_of::<A>()
    } else {
        size_of::<B>()
    }
}

/// `f` over a row of three operands that each step one element, at least one backwards, all
/// given as slices of one length from their lowest element (`backwards`: which run
/// backwards, destination first): the destination's element for each index of the row is
/// `f` of the sources' elements for that index, `f` called once an element in an order of
/// its own (`zip_map` promises none). Relative to the destination, each source runs forwards
/// or backwards: one backward source is read from its end a chunk at a time, the
/// destination and the other forwards; two are read forwards and the destination written
/// from its end. Chunks of 32 bytes of the wider source (16 in rows of fewer than 32 bytes;
/// each chunk's results made into a fixed-size array, which the compiler builds with vector
/// loads and shuffles), then element by element.
#[expect(
    clippy::inline_always,
    reason = "inlined into `zip_map`'s row loop with its `f`, which it calls once an element"
)]
#[inline(always)]
pub(super) fn zip_reversed<A: Copy, B: Copy, U, F: FnMut(A, B) -> U>(
    dst: &mut [U],
    a: &[A],
    b: &[B],
    backwards: [bool; 3],
    f: &mut F,
) {
    let [bd, ba, bb] = backwards;
    // Which of the three runs backwards relative to the others: the destination when both
    // sources run the other way (reversing all three visits the same triples in the other
    // order), else the source that differs from the destination.
    let (ra, rb) = (ba != bd, bb != bd);
    let which = match (ra, rb) {
        (true, true) => Back::Destination,
        (true, false) => Back::A,
        (false, true) => Back::B,
        (false, false) => Back::None,
    };
    let done = match wider::<A, B>() {
        // Rows of 16 to 31 bytes in chunks of 16 (only bytes: rows of 8 `f32` in chunks of 4
        // ran 1.2-1.7x slower than element by element).
        1 if dst.len() < 32 => zip_chunks::<A, B, U, F, 16>(dst, a, b, which, f),
        1 => zip_chunks::<A, B, U, F, 32>(dst, a, b, which, f),
        2 => zip_chunks::<A, B, U, F, 16>(dst, a, b, which, f),
        4 => zip_chunks::<A, B, U, F, 8>(dst, a, b, which, f),
        8 => zip_chunks::<A, B, U, F, 4>(dst, a, b, which, f),
        _ => 0,
    };
    // The rest, element by element: `done` elements from the start of every forward slice
    // and from the end of the backward one are done.
    let n = dst.len();
    let (head, tail) = (..n.saturating_sub(done), done..);
    match which {
        Back::Destination => {
            if let (Some(x), Some(y), Some(z)) =
                (dst.get_mut(head), a.get(tail.clone()), b.get(tail))
            {
                for ((x, &y), &z) in x.iter_mut().rev().zip(y).zip(z) {
                    *x = f(y, z);
                }
            }
        }
        Back::A => {
            if let (Some(x), Some(y), Some(z)) =
                (dst.get_mut(tail.clone()), a.get(head), b.get(tail))
            {
                for ((x, &y), &z) in x.iter_mut().zip(y.iter().rev()).zip(z) {
                    *x = f(y, z);
                }
            }
        }
        Back::B => {
            if let (Some(x), Some(y), Some(z)) =
                (dst.get_mut(tail.clone()), a.get(tail), b.get(head))
            {
                for ((x, &y), &z) in x.iter_mut().zip(y).zip(z.iter().rev()) {
                    *x = f(y, z);
                }
            }
        }
        Back::None => {
            for ((x, &y), &z) in dst.iter_mut().zip(a).zip(b) {
                *x = f(y, z);
            }
        }
    }
}

/// Which operand of [`zip_reversed`]'s row runs backwards relative to the other two.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Back {
    Destination,
    A,
    B,
    None,
}

/// [`zip_reversed`]'s whole chunks of `L` elements (`L >= 1`): the backward operand's from
/// its end, the others' from their start, each chunk's `L` results made into an array (and
/// stored reversed when the destination is the backward one). Returns how many elements of
/// each it did (a multiple of `L`).
#[expect(
    clippy::inline_always,
    reason = "inlined into `zip_reversed` with `f`, which it calls once an element"
)]
#[inline(always)]
fn zip_chunks<A: Copy, B: Copy, U, F: FnMut(A, B) -> U, const L: usize>(
    dst: &mut [U],
    a: &[A],
    b: &[B],
    which: Back,
    f: &mut F,
) -> usize {
    let n = dst.len();
    #[expect(
        clippy::indexing_slicing,
        clippy::arithmetic_side_effects,
        reason = "`k < L`: `from_fn` calls with the indices of an array of `L`, so `L - 1 - k` \
                  is one too"
    )]
    match which {
        Back::Destination => {
            let mut to = dst.rchunks_exact_mut(L);
            for ((x, y), z) in (&mut to).zip(a.chunks_exact(L)).zip(b.chunks_exact(L)) {
                if let (Ok(x), Ok(y), Ok(z)) = (
                    <&mut [U; L]>::try_from(x),
                    <&[A; L]>::try_from(y),
                    <&[B; L]>::try_from(z),
                ) {
                    let mut out = core::array::from_fn::<U, L, _>(|k| f(y[k], z[k]));
                    out.reverse();
                    *x = out;
                }
            }
            n.saturating_sub(to.into_remainder().len())
        }
        Back::A => {
            let mut to = dst.chunks_exact_mut(L);
            for ((x, y), z) in (&mut to).zip(a.rchunks_exact(L)).zip(b.chunks_exact(L)) {
                if let (Ok(x), Ok(y), Ok(z)) = (
                    <&mut [U; L]>::try_from(x),
                    <&[A; L]>::try_from(y),
                    <&[B; L]>::try_from(z),
                ) {
                    *x = core::array::from_fn::<U, L, _>(|k| f(y[L - 1 - k], z[k]));
                }
            }
            n.saturating_sub(to.into_remainder().len())
        }
        Back::B => {
            let mut to = dst.chunks_exact_mut(L);
            for ((x, y), z) in (&mut to).zip(a.chunks_exact(L)).zip(b.rchunks_exact(L)) {
                if let (Ok(x), Ok(y), Ok(z)) = (
                    <&mut [U; L]>::try_from(x),
                    <&[A; L]>::try_from(y),
                    <&[B; L]>::try_from(z),
                ) {
                    *x = core::array::from_fn::<U, L, _>(|k| f(y[k], z[L - 1 - k]));
                }
            }
            n.saturating_sub(to.into_remainder().len())
        }
        Back::None => 0,
    }
}

/// Whether [`strided_block`] takes rows of 5 to 16 elements unrolled too: on hosts (rows of 2
/// to 4 everywhere); a bare-metal image does without the code. A row of 9 to 16 as one
/// straight run of moves, not [`strided_copy_unchecked`]'s loop of four and its tail, ran
/// 0.81x the time over the random sweep's blocks of such rows (rows of 11 `u32` read 15
/// apart: 24 -> 19 us); the same for longer rows (chunks of 8, then a row of the rest) ran
/// as often slower as faster.
const UNROLLS_TO_16: bool = cfg!(not(target_os = "none"));

/// The chunk [`map_reversed`] (so [`reverse_run`]) reverses at a time in rows up to
/// [`MAP_CHUNKS_UP_TO`]: one AVX2 vector.
pub(super) const REVERSE_CHUNK_BYTES: usize = 32;

/// `rows` reversed runs of `n` elements ([`reverse_run`]), row `i`'s from `d + i·dr` and
/// `s + i·sr` (each run given by its lowest element on both sides): one call for a whole
/// block, for the target's loop ([`Target`]'s, AVX2 where the CPU has it), so that rows of a
/// few vectors pay neither a call nor the CPU test each.
///
/// # Safety
///
/// For every `i < rows`, [`reverse_run`]'s contract for `d + i·dr`, `s + i·sr` and `n`.
#[inline]
pub(super) unsafe fn reverse_rows<T: Copy>(
    d: *mut T,
    dr: isize,
    s: *const T,
    sr: isize,
    rows: usize,
    n: usize,
) {
    // SAFETY: the contract.
    unsafe { Target::reverse_rows(d, dr, s, sr, rows, n) }
}

/// [`reverse_rows`]'s loop, for the target the caller was compiled for.
///
/// # Safety
///
/// [`reverse_rows`]'s contract.
#[expect(
    clippy::inline_always,
    reason = "inlined into the x86-64 backend's AVX2 copy, so that the loop is vectorised for AVX2 there"
)]
#[inline(always)]
pub(crate) unsafe fn reverse_rows_portable<T: Copy>(
    d: *mut T,
    dr: isize,
    s: *const T,
    sr: isize,
    rows: usize,
    n: usize,
) {
    let (mut dp, mut sp) = (d, s);
    for _ in 0..rows {
        // SAFETY: `dp`, `sp` are row `i`'s lowest elements (`i` rows from `d`, `s`), whose
        // `n` elements are the contract's for that row.
        unsafe { reverse_run(dp, sp, n) };
        // Past the last row the pointers may leave the slices: `wrapping_offset` keeps that
        // defined, and they are never dereferenced there.
        dp = dp.wrapping_offset(dr);
        sp = sp.wrapping_offset(sr);
    }
}

/// The piece [`copy_run`] moves at a time where the C library's `memcpy` would be slow:
/// 1 KiB, below the lengths from which C libraries take `rep movsb`.
pub(crate) const RUN_PIECE: usize = 1024;

/// `d[j·ds] = s[j·ss]` for `j < n`, one element an iteration, the two pointers bumped by
/// their strides (no multiply per element: five instructions an element on a Cortex-M4).
/// Hosts' compilers unroll it themselves; unrolled by hand (four elements an iteration,
/// offsets `u·ds` and `u·ss` from the bumped pointers) it ran slower on an x86-64 host.
///
/// # Safety
///
/// Every `d + j·ds` and `s + j·ss` (`j < n`) is an element of its slice, and no `d` element
/// is an `s` element.
#[inline]
pub(crate) unsafe fn strided_copy_unchecked<T: Copy>(
    d: *mut T,
    ds: isize,
    s: *const T,
    ss: isize,
    n: usize,
) {
    debug_assert!(
        n == 0 || (!d.is_null() && !s.is_null()),
        "strided_copy_unchecked: null run"
    );
    let (mut dp, mut sp) = (d, s);
    for _ in 0..n {
        // SAFETY: `sp` points at element `j < n` of the source run (contract).
        let x = unsafe { *sp };
        // SAFETY: `dp` points at element `j < n` of the destination run, no source element
        // (contract).
        unsafe { *dp = x };
        dp = dp.wrapping_offset(ds);
        sp = sp.wrapping_offset(ss);
    }
}

/// Copies the `a × b` block at `d`/`s` element by element, row by row (`b` the inner loop);
/// rows of 2 to 4 elements (2 to 16 on hosts) with that many moves a row, unrolled.
///
/// # Safety
///
/// The block kernel's contract (`copy_block` in `raw/mod.rs`): every `d + i·a.strides[0] +
/// j·b.strides[0]` and `s + i·a.strides[1] + j·b.strides[1]` (`i < a.extent`, `j < b.extent`)
/// is an element of its slice, no destination element is a source element, and the
/// destination's are distinct.
#[expect(
    clippy::inline_always,
    reason = "inlined into the driver's closure: the point is to save a call per block"
)]
#[inline(always)]
pub(super) unsafe fn strided_block<T: Copy>(d: *mut T, s: *const T, a: Loop<2>, b: Loop<2>) {
    let ([da, sa], [db, sb]) = (a.strides, b.strides);
    // SAFETY (each arm): the caller's contract, the block's rows of `b.extent` elements.
    match b.extent {
        // SAFETY: as above.
        2 => unsafe { rows_of_n::<T, 2>(d, da, db, s, sa, sb, a.extent) },
        // SAFETY: as above.
        3 => unsafe { rows_of_n::<T, 3>(d, da, db, s, sa, sb, a.extent) },
        // SAFETY: as above.
        4 => unsafe { rows_of_n::<T, 4>(d, da, db, s, sa, sb, a.extent) },
        // SAFETY: as above (hosts: each row length is code bare metal does without).
        5 if UNROLLS_TO_16 => unsafe { rows_of_n::<T, 5>(d, da, db, s, sa, sb, a.extent) },
        // SAFETY: as above.
        6 if UNROLLS_TO_16 => unsafe { rows_of_n::<T, 6>(d, da, db, s, sa, sb, a.extent) },
        // SAFETY: as above.
        7 if UNROLLS_TO_16 => unsafe { rows_of_n::<T, 7>(d, da, db, s, sa, sb, a.extent) },
        // SAFETY: as above.
        8 if UNROLLS_TO_16 => unsafe { rows_of_n::<T, 8>(d, da, db, s, sa, sb, a.extent) },
        // SAFETY: as above.
        9 if UNROLLS_TO_16 => unsafe { rows_of_n::<T, 9>(d, da, db, s, sa, sb, a.extent) },
        // SAFETY: as above.
        10 if UNROLLS_TO_16 => unsafe { rows_of_n::<T, 10>(d, da, db, s, sa, sb, a.extent) },
        // SAFETY: as above.
        11 if UNROLLS_TO_16 => unsafe { rows_of_n::<T, 11>(d, da, db, s, sa, sb, a.extent) },
        // SAFETY: as above.
        12 if UNROLLS_TO_16 => unsafe { rows_of_n::<T, 12>(d, da, db, s, sa, sb, a.extent) },
        // SAFETY: as above.
        13 if UNROLLS_TO_16 => unsafe { rows_of_n::<T, 13>(d, da, db, s, sa, sb, a.extent) },
        // SAFETY: as above.
        14 if UNROLLS_TO_16 => unsafe { rows_of_n::<T, 14>(d, da, db, s, sa, sb, a.extent) },
        // SAFETY: as above.
        15 if UNROLLS_TO_16 => unsafe { rows_of_n::<T, 15>(d, da, db, s, sa, sb, a.extent) },
        // SAFETY: as above.
        16 if UNROLLS_TO_16 => unsafe { rows_of_n::<T, 16>(d, da, db, s, sa, sb, a.extent) },
        // SAFETY: the caller's contract.
        _ => unsafe { strided_rows(d, s, a, b) },
    }
}

/// [`strided_block`]'s rows longer than it unrolls: each row [`strided_copy_unchecked`].
/// Out of line on hosts, one call a block: inlined into the block kernel's dispatch, the
/// row loop's pointers and strides did not all stay in registers (bare metal inlines it:
/// code size first).
///
/// # Safety
///
/// [`strided_block`]'s.
#[cfg_attr(not(target_os = "none"), inline(never))]
unsafe fn strided_rows<T: Copy>(d: *mut T, s: *const T, a: Loop<2>, b: Loop<2>) {
    let ([da, sa], [db, sb]) = (a.strides, b.strides);
    let (mut dp, mut sp) = (d, s);
    for _ in 0..a.extent {
        // SAFETY: `dp`, `sp` are the first elements of a row of the block (the caller's
        // contract).
        unsafe { strided_copy_unchecked(dp, db, sp, sb, b.extent) };
        // Past the last row the pointers may leave the slices: `wrapping_offset` keeps that
        // defined, and they are never dereferenced there.
        dp = dp.wrapping_offset(da);
        sp = sp.wrapping_offset(sa);
    }
}

/// `rows` rows of `W` elements each (`d + i·dr + j·ds`, `s + i·sr + j·ss`), the row's `W`
/// moves unrolled.
///
/// # Safety
///
/// Every `d + i·dr + j·ds` and `s + i·sr + j·ss` (`i < rows`, `j < W`) is an element of its
/// slice, no destination element is a source element, and the destination's are distinct.
#[expect(
    clippy::inline_always,
    reason = "inlined into `strided_block`'s arms and the tiny cubes' loops"
)]
#[inline(always)]
pub(super) unsafe fn rows_of_n<T: Copy, const W: usize>(
    d: *mut T,
    dr: isize,
    ds: isize,
    s: *const T,
    sr: isize,
    ss: isize,
    rows: usize,
) {
    let (mut dp, mut sp) = (d, s);
    for _ in 0..rows {
        for j in 0..W {
            let (dj, sj) = (
                dp.wrapping_offset(step(j, ds)),
                sp.wrapping_offset(step(j, ss)),
            );
            // SAFETY: element `j < W` of the current row of the source (contract).
            let v = unsafe { *sj };
            // SAFETY: element `j < W` of the current row of the destination (contract).
            unsafe { *dj = v };
        }
        // Past the last row the pointers may leave the slices: `wrapping_offset` keeps that
        // defined, and they are never dereferenced there.
        dp = dp.wrapping_offset(dr);
        sp = sp.wrapping_offset(sr);
    }
}

#[cfg(test)]
#[expect(
    clippy::unwrap_used,
    clippy::indexing_slicing,
    reason = "a test of 16-element buffers: every offset is checked by `unwrap` and indexing"
)]
mod tests {
    use super::{
        REVERSE_CHUNK_BYTES, REVERSE_MIN_BYTES, REVERSE_MIN_ROWS, RUN_PIECE, copy_run,
        copy_short_rows, pair_rows_contiguous, reverse_worth, strided_block, strided_copy_pair,
    };
    use crate::kernel::plan::Loop;

    /// A flipped row goes to the reversed runs from 128 bytes on, whatever the element size
    /// or the block's rows; of elements under 8 bytes from one 32-byte chunk on in blocks of
    /// 8 rows or more (27 two-byte elements: element loops in a block of 7 rows, reversed
    /// runs in one of 8); shorter rows never.
    #[test]
    fn reversed_runs_from_128_bytes_or_from_32_in_8_rows() {
        assert_eq!(
            (REVERSE_MIN_BYTES, REVERSE_CHUNK_BYTES, REVERSE_MIN_ROWS),
            (128, 32, 8)
        );
        assert!(!reverse_worth::<u16>(1, 27) && !reverse_worth::<u16>(7, 63));
        assert!(reverse_worth::<u16>(8, 27) && reverse_worth::<u16>(1000, 16));
        assert!(!reverse_worth::<u16>(1000, 15) && !reverse_worth::<u64>(1000, 3));
        assert!(reverse_worth::<u32>(8, 8) && !reverse_worth::<u64>(1000, 15));
        assert!(reverse_worth::<u16>(1, 64) && reverse_worth::<u8>(1, 128));
        assert!(!reverse_worth::<u64>(1, 15) && reverse_worth::<u64>(1, 16));
        assert!(!reverse_worth::<[u8; 3]>(1, 42) && reverse_worth::<[u8; 3]>(1, 43));
        assert!(reverse_worth::<u8>(1, usize::MAX) && reverse_worth::<u8>(usize::MAX, 32));
    }

    /// Reversed rows of every length from 0 to 40 (one chunk and its remainders, for 1-, 4-
    /// and 8-byte elements), 3 rows apart by more than a row, against the model; nothing
    /// between the rows written.
    #[test]
    fn reversed_rows_of_every_short_length_match_the_model() {
        fn check<T: Copy + PartialEq + core::fmt::Debug + From<u8>>() {
            let lengths = if cfg!(miri) { 0..=9 } else { 0..=40 };
            for n in lengths {
                let (rows, dr, sr) = (3usize, n + 3, n + 1);
                let src: std::vec::Vec<T> = (0..rows * sr)
                    .map(|i| T::from(u8::try_from(i % 251).unwrap()))
                    .collect();
                let mut want = std::vec![T::from(255); rows * dr];
                for i in 0..rows {
                    for j in 0..n {
                        want[i * dr + j] = src[i * sr + n - 1 - j];
                    }
                }
                let mut got = std::vec![T::from(255); rows * dr];
                // SAFETY: row `i`'s `n` elements from `i·dr` and `i·sr` of two distinct
                // buffers of `rows·dr` and `rows·sr` elements.
                unsafe {
                    super::reverse_rows(
                        got.as_mut_ptr(),
                        dr.cast_signed(),
                        src.as_ptr(),
                        sr.cast_signed(),
                        rows,
                        n,
                    );
                };
                assert_eq!(got, want, "{n} elements of {} bytes", size_of::<T>());
            }
        }
        check::<u8>();
        check::<u32>();
        check::<u64>();
    }

    /// `map` over a flipped row of every length from 0 to 80 (the 32- and 64-byte chunks and
    /// what is left after them, for 1-, 2-, 4- and 8-byte elements, into wider elements),
    /// either side running backwards, against the model: every element mapped once, `f`
    /// called in the row's order.
    #[test]
    fn mapped_reversed_rows_of_every_length_match_the_model() {
        fn check<T: Copy + Into<u64> + From<u8>>() {
            let lengths = if cfg!(miri) { 0..=10 } else { 0..=80 };
            for n in lengths {
                let src: std::vec::Vec<T> = (0..n)
                    .map(|i| T::from(u8::try_from(i % 251).unwrap()))
                    .collect();
                for backwards in [false, true] {
                    let mut got = std::vec![u64::MAX; n];
                    let mut seen = std::vec::Vec::new();
                    super::map_reversed(&mut got, &src, backwards, &mut |x: T| {
                        let x: u64 = x.into();
                        seen.push(x);
                        x * 3 + 1
                    });
                    let row: std::vec::Vec<u64> = if backwards {
                        src.iter().map(|&x| x.into()).collect()
                    } else {
                        src.iter().rev().map(|&x| x.into()).collect()
                    };
                    assert_eq!(seen, row, "{n} of {} bytes: f's order", size_of::<T>());
                    let mut want: std::vec::Vec<u64> = row.iter().map(|x| x * 3 + 1).collect();
                    if backwards {
                        want.reverse();
                    }
                    assert_eq!(got, want, "{n} of {} bytes, {backwards}", size_of::<T>());
                }
            }
        }
        check::<u8>();
        check::<u16>();
        check::<u32>();
        check::<u64>();
    }

    /// `zip_reversed` against the model: rows of 0 to 80 elements (10 under Miri), sources of
    /// 1, 2, 4 and 8 bytes (the chunk follows the wider), every direction of the three
    /// operands; each destination element is `f` of the sources' elements at its index of
    /// the row, once.
    #[test]
    fn zipped_reversed_rows_of_every_length_match_the_model() {
        fn check<A: Copy + Into<u64> + From<u8>, B: Copy + Into<u64> + From<u8>>() {
            let lengths = if cfg!(miri) { 0..=10 } else { 0..=80 };
            for n in lengths {
                let of = |i: usize, k: usize| u8::try_from((i * k + 3) % 251).unwrap();
                let a: std::vec::Vec<A> = (0..n).map(|i| A::from(of(i, 1))).collect();
                let b: std::vec::Vec<B> = (0..n).map(|i| B::from(of(i, 7))).collect();
                for bits in 0u8..8 {
                    let back = [bits & 1 != 0, bits & 2 != 0, bits & 4 != 0];
                    // Index `j` of the row is element `j` of a forward slice and `n - 1 - j`
                    // of a backward one.
                    let at = |j: usize, backwards: bool| if backwards { n - 1 - j } else { j };
                    let mut want = std::vec![0u64; n];
                    for j in 0..n {
                        let (x, y): (u64, u64) =
                            (a[at(j, back[1])].into(), b[at(j, back[2])].into());
                        want[at(j, back[0])] = x * 1000 + y;
                    }
                    let mut got = std::vec![u64::MAX; n];
                    let mut calls = 0;
                    super::zip_reversed(&mut got, &a, &b, back, &mut |x: A, y: B| {
                        calls += 1;
                        let (x, y): (u64, u64) = (x.into(), y.into());
                        x * 1000 + y
                    });
                    assert_eq!(calls, n);
                    assert_eq!(
                        got,
                        want,
                        "{n} of {} and {} bytes, {back:?}",
                        size_of::<A>(),
                        size_of::<B>()
                    );
                }
            }
        }
        check::<u8, u8>();
        check::<u16, u8>();
        check::<u32, u64>();
        check::<u64, u16>();
        check::<u8, u32>();
    }

    /// 4-byte aligned storage, so the word path is taken where the offsets allow.
    #[repr(C, align(4))]
    #[derive(Clone, Copy, PartialEq, Debug)]
    struct Aligned<T, const L: usize>([T; L]);

    /// Contiguous rows (the bare-metal path of `copy_block`), words or elements, for every
    /// start offset modulo a word, row length, row count and row stride in a small scope
    /// (forward and backward), against the element-by-element model; nothing outside the rows
    /// is written.
    fn contiguous_rows_match_model<T: Copy + PartialEq + core::fmt::Debug>(of: fn(usize) -> T) {
        const L: usize = 96;
        let src = Aligned::<T, L>(core::array::from_fn(of));
        let gap = of(L); // a value no source element has
        let scope = if cfg!(miri) { 2 } else { 1 };
        for n in (0usize..=9).step_by(scope) {
            for rows in 0usize..=3 {
                for extra in (0..=5).step_by(scope) {
                    let stride = (n + extra).cast_signed();
                    for (d0, s0) in [(0, 0), (1, 0), (0, 2), (2, 2), (3, 1), (4, 8)] {
                        for (dr, sr) in [(stride, stride), (-stride, stride), (stride + 2, -stride)]
                        {
                            // The first row's offset: far enough in for backward rows.
                            let at = |o: usize, r: isize| {
                                o + if r < 0 { 3 * r.unsigned_abs() } else { 0 }
                            };
                            let (od, os) = (at(d0, dr), at(s0, sr));
                            let mut want = Aligned::<T, L>([gap; L]);
                            for i in 0..rows {
                                for j in 0..n {
                                    let d =
                                        od.checked_add_signed(dr * i.cast_signed()).unwrap() + j;
                                    let s =
                                        os.checked_add_signed(sr * i.cast_signed()).unwrap() + j;
                                    want.0[d] = src.0[s];
                                }
                            }
                            let mut got = Aligned::<T, L>([gap; L]);
                            // SAFETY: `od` lies in the 96-element buffer (below).
                            let dp = unsafe { got.0.as_mut_ptr().add(od) };
                            // SAFETY: `os` lies in the 96-element buffer (below).
                            let sp = unsafe { src.0.as_ptr().add(os) };
                            // SAFETY: every row lies in the 96-element buffers (offsets at
                            // most 4 + 3·(11 + 2) + 9 < 96), distinct allocations.
                            unsafe { pair_rows_contiguous(dp, dr, sp, sr, rows, n) };
                            assert_eq!(got, want, "n {n} rows {rows} dr {dr} sr {sr} at {od} {os}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    #[expect(clippy::cast_possible_truncation, reason = "the values are below 97")]
    fn contiguous_rows_of_bytes_halves_words_and_triples_match_the_model() {
        contiguous_rows_match_model::<u8>(|i| i as u8);
        contiguous_rows_match_model::<u16>(|i| i as u16);
        contiguous_rows_match_model::<u32>(|i| i as u32);
        contiguous_rows_match_model::<[u8; 3]>(|i| [i as u8, 1, 2]);
    }

    /// Two rows copied in one pass, against the element-by-element model, for forward,
    /// backward and interleaved strides.
    #[test]
    fn strided_copy_pair_matches_two_rows_copied_one_by_one() {
        // (dr, ds, sr, ss, n, d0, s0): rows and element strides, count, starting offsets.
        let cases: [(isize, isize, isize, isize, usize, usize, usize); 6] = [
            (1, 2, 8, 1, 8, 0, 0),    // planar -> interleaved stereo
            (8, 1, 1, 2, 8, 0, 0),    // interleaved -> planar
            (-1, -2, 8, 1, 8, 15, 0), // backwards in the destination
            (3, 1, -4, -1, 3, 0, 11), // backwards in the source
            (2, 1, 1, 3, 0, 0, 0),    // empty rows
            (0, 3, 0, -2, 5, 1, 9),   // one row twice (the odd last row of a block)
        ];
        for (dr, ds, sr, ss, n, d0, s0) in cases {
            let src: [usize; 16] = core::array::from_fn(|i| i);
            let mut got = [99usize; 16];
            let mut want = got;
            for j in 0..n {
                for (r_d, r_s) in [(0, 0), (dr, sr)] {
                    let od = d0.checked_add_signed(r_d + ds * j.cast_signed()).unwrap();
                    let os = s0.checked_add_signed(r_s + ss * j.cast_signed()).unwrap();
                    want[od] = src[os];
                }
            }
            // SAFETY: `d0` lies in the 16-element buffer (below).
            let dp = unsafe { got.as_mut_ptr().add(d0) };
            // SAFETY: `s0` lies in the 16-element buffer (below).
            let sp = unsafe { src.as_ptr().add(s0) };
            // SAFETY: every offset above lies in the 16-element buffers, and they are
            // distinct allocations.
            unsafe { strided_copy_pair(dp, dr, ds, sp, sr, ss, n) };
            assert_eq!(got, want, "dr {dr} ds {ds} sr {sr} ss {ss} n {n}");
        }
    }

    /// `copy_run` in one buffer, the destination `4096 + gap` bytes past the source, so every
    /// distance modulo a page is tried (the pieces where it is 1 to 63): the run's bytes, and
    /// nothing else written, for runs shorter and longer than a piece.
    #[test]
    fn copy_run_at_every_page_distance_matches_the_model() {
        let gaps: &[usize] = if cfg!(miri) {
            &[0, 8, 64]
        } else {
            &[0, 1, 7, 8, 9, 63, 64, 65, 2048]
        };
        let lens: &[usize] = if cfg!(miri) {
            &[RUN_PIECE + 8]
        } else {
            &[1, 100, RUN_PIECE, RUN_PIECE + 1, 3 * RUN_PIECE + 17]
        };
        for &gap in gaps {
            for &n in lens {
                const TOTAL: usize = 4096 + 2048 + 3 * RUN_PIECE + 17 + 64;
                let mut buf: [u8; TOTAL] = core::array::from_fn(|i| u8::try_from(i % 251).unwrap());
                let mut want = buf;
                want[4096 + gap..4096 + gap + n].copy_from_slice(&buf[..n]);
                let p = buf.as_mut_ptr();
                // SAFETY: `4096 + gap` lies in the buffer (below).
                let d = unsafe { p.add(4096 + gap) };
                // SAFETY: `0..n` and `4096 + gap..4096 + gap + n` lie in the buffer and do not
                // overlap (`n < 4096 + gap` is not needed: `n <= 3 KiB + 17 < 4096`).
                unsafe { copy_run(d, p.cast_const(), n) };
                assert_eq!(buf, want, "gap {gap} n {n}");
            }
        }
    }

    /// Blocks of strided element rows of every length, each of its own arm (2 to 16 on hosts,
    /// unrolled a row at a time; 2 to 4 on bare metal) or the loop past them, one operand
    /// stepping backwards: every element where the model puts it, nothing else written.
    #[test]
    fn strided_blocks_of_every_row_length_match_the_model() {
        fn check<T: Copy + PartialEq + core::fmt::Debug + From<u8>>() {
            let lengths = if cfg!(miri) { 1..=18 } else { 1..=40 };
            for n in lengths {
                // Source rows read 3 apart, 4 rows `3n + 1` apart; destination rows written
                // backwards, 2 apart, rows `2n + 1` apart from the end.
                let rows = 4usize;
                let (ss, sr) = (3usize, 3 * n + 1);
                let (ds, dr) = (2usize, 2 * n + 1);
                let src: [T; 4 * 121] =
                    core::array::from_fn(|i| T::from(u8::try_from(i % 251).unwrap()));
                let mut got = [T::from(0xEE); 4 * 81 + 1];
                let mut want = got;
                let last = (rows - 1) * dr + (n - 1) * ds;
                for i in 0..rows {
                    for j in 0..n {
                        want[last - i * dr - j * ds] = src[i * sr + j * ss];
                    }
                }
                let neg = |x: usize| -x.cast_signed();
                let a = Loop {
                    extent: rows,
                    strides: [neg(dr), sr.cast_signed()],
                };
                let b = Loop {
                    extent: n,
                    strides: [neg(ds), ss.cast_signed()],
                };
                // SAFETY: `last` lies in `got` (its length is past `4·81`).
                let d = unsafe { got.as_mut_ptr().add(last) };
                // SAFETY: every element `last - i·dr - j·ds` of `got` and `i·sr + j·ss` of
                // `src` (`i < 4`, `j < n`) lies inside them, distinct allocations, and the
                // destination's are distinct.
                unsafe { strided_block(d, src.as_ptr(), a, b) };
                assert_eq!(got, want, "n {n}");
            }
        }
        check::<u8>();
        check::<u16>();
        check::<u32>();
        check::<u64>();
    }

    /// Short contiguous rows of every byte count up to 130 (one or two fixed moves, or the
    /// `false` that sends longer rows to `memcpy`), against the model; nothing else written.
    #[test]
    fn copy_short_rows_of_every_width_match_the_model() {
        let widths = if cfg!(miri) { 1..=20 } else { 1..=130 };
        for n in widths {
            let rows = 3;
            let (sr, dr) = (n + 5, n + 2);
            let src: [u8; 3 * 135] = core::array::from_fn(|i| u8::try_from(i % 253).unwrap());
            let mut got = [0xEEu8; 3 * 132 + 1];
            let mut want = got;
            for i in 0..rows {
                want[1 + i * dr..1 + i * dr + n].copy_from_slice(&src[i * sr..i * sr + n]);
            }
            // SAFETY: offset 1 lies in `got` (below).
            let d = unsafe { got.as_mut_ptr().add(1) };
            // SAFETY: each row `i` is `n` bytes at `1 + i·dr` of `got` and `i·sr` of `src`,
            // inside both, distinct allocations.
            let done = unsafe {
                copy_short_rows(d, dr.cast_signed(), src.as_ptr(), sr.cast_signed(), rows, n)
            };
            assert_eq!(done, n <= 128, "n {n}");
            if done {
                assert_eq!(got, want, "n {n}");
            }
        }
    }
}
