//! `zip_map` over a block where a source runs across the destination's rows (`A + Aᵀ`):
//! square tiles whose transposed sources are packed row-major on the stack first (a SIMD
//! transpose for 4- and 8-byte primitives, whose micro-kernels read whole lines), so every
//! source line is read from memory once, whole, and every destination row of a tile is
//! written once, in one pass of `f` that vectorises over contiguous rows.
//!
//! When `b` is `a` itself transposed (one slice, one type: `A + Aᵀ`), each pair of mirrored
//! memory tiles is copied once into stack tiles and both destination tiles are made from
//! there ([`zip_mirrored`]).
//!
//! ```text
//! dst tile (i0.., j0..)  =  f( a rows i0.. (as they lie),  b packed: bᵀ rows j0.. → rows i0.. )
//! tiles: p × p, p the largest power of two with p² · itemsize <= ZIP_TILE_BYTES
//!        (64 × 64 f32, 32 × 32 f64 on hosts; 8 × 8 f32 on bare metal)
//! ```

use core::any::TypeId;
use core::mem::{MaybeUninit, align_of, size_of};
use core::slice;

use crate::kernel::drive::step;
use crate::kernel::{stream, transpose};

/// Bytes of one packed source tile on the stack: 16 KiB on targets with an OS (two of them
/// and a row of results sit in a 32 KiB+ L1D), 512 on bare metal.
const ZIP_TILE_BYTES: usize = if cfg!(target_os = "none") {
    512
} else {
    16 << 10
};

/// One packed source tile, cache-line aligned.
#[repr(C, align(64))]
struct Tile([MaybeUninit<u8>; ZIP_TILE_BYTES]);

impl Tile {
    const fn new() -> Self {
        Self([MaybeUninit::uninit(); ZIP_TILE_BYTES])
    }
}

/// The tile side for elements of at most `item` bytes: the largest power of two `p` with
/// `p² · item <= ZIP_TILE_BYTES` (at least 1).
const fn side(item: usize) -> usize {
    side_for(item, ZIP_TILE_BYTES)
}

/// The largest power of two `p` with `p² · item <= bytes` (at least 1).
const fn side_for(item: usize, bytes: usize) -> usize {
    let item = if item == 0 { 1 } else { item };
    let mut p: usize = 1;
    while p
        .saturating_mul(2)
        .saturating_mul(p.saturating_mul(2))
        .saturating_mul(item)
        <= bytes
    {
        p = p.saturating_mul(2);
    }
    p
}

/// Where one source's tile rows lie: base, row stride, element stride.
type Rows<T> = (*const T, isize, isize);

/// Whether [`zip_block`] takes a block: the destination runs along the block's rows (`ds ==
/// 1`), a source runs across them (its row stride `1`, element stride longer), and every
/// element type fits a [`Tile`] (size and alignment).
pub(crate) fn takes<A, B, U>(ds: isize, [ar, asr]: [isize; 2], [br, bs]: [isize; 2]) -> bool {
    let across = |r: isize, s: isize| r == 1 && s.unsigned_abs() > 1;
    let fits = |size: usize, align: usize| {
        size != 0 && size <= ZIP_TILE_BYTES && align <= align_of::<Tile>()
    };
    ds == 1
        && (across(ar, asr) || across(br, bs))
        && fits(size_of::<A>(), align_of::<A>())
        && fits(size_of::<B>(), align_of::<B>())
        && fits(size_of::<U>(), align_of::<U>())
}

/// `dst[i·dr + j] = f(a[i·ar + j·as], b[i·br + j·bs])` for `i < ea`, `j < eb`, in `p × p`
/// tiles walked row by row, each transposed source tile packed first.
///
/// (Streaming the destination rows out of a row buffer was measured no faster here, and
/// would need `U: 'static` to know that `U` is a plain type.)
///
/// # Safety
///
/// [`takes`] holds for the strides; every `dst + i·dr + j`, `a + i·ar + j·as` and
/// `b + i·br + j·bs` (`i < ea`, `j < eb`) is an element of its slice; no destination element
/// is a source element, and no two destination indices share one.
#[expect(
    clippy::many_single_char_names,
    reason = "three operands' pointers and strides, the extents and the function"
)]
#[expect(
    clippy::arithmetic_side_effects,
    reason = "counters stay below `ea` or `eb`; offsets are element offsets of the block (contract)"
)]
pub(crate) unsafe fn zip_block<A, B, U, F>(
    (d, dr): (*mut U, isize),
    (a, ar, asr): Rows<A>,
    (b, br, bs): Rows<B>,
    [ea, eb]: [usize; 2],
    f: &mut F,
) where
    A: Copy + 'static,
    B: Copy + 'static,
    U: Copy,
    F: FnMut(A, B) -> U,
{
    let p = side(size_of::<A>().max(size_of::<B>()).max(size_of::<U>()));
    let (mut ta, mut tb) = (Tile::new(), Tile::new());
    let at = |i: usize, j: usize, r: isize, s: isize| step(i, r).wrapping_add(step(j, s));
    let mut tile = |i0: usize, j0: usize| {
        let (ti, tj) = (p.min(ea - i0), p.min(eb - j0));
        // The tile `i0..i0 + ti`, `j0..j0 + tj` lies in the block (contract), and `takes`
        // and `side` make it fit a `Tile`; the packed copies are ours. Each destination row
        // of the tile is `tj` elements of `dst`, no source's.
        // SAFETY: the tile's corner is an element of `a` (above).
        let a0 = unsafe { a.offset(at(i0, j0, ar, asr)) };
        // SAFETY: the tile of `a` lies in the block and fits a `Tile` (above).
        let pa = unsafe { pack(&mut ta, a0, ar, asr, ti, tj) };
        // SAFETY: the tile's corner is an element of `b` (above).
        let b0 = unsafe { b.offset(at(i0, j0, br, bs)) };
        // SAFETY: the tile of `b` lies in the block and fits a `Tile` (above).
        let pb = unsafe { pack(&mut tb, b0, br, bs, ti, tj) };
        for i in 0..ti {
            // SAFETY: row `i0 + i` (`i < ti`) of the tile starts at an element of `dst`
            // (above).
            let dp = unsafe { d.offset(at(i0 + i, j0, dr, 1)) };
            // SAFETY: row `i < ti` of the tile of `a`, as it lies or packed, starts at an
            // element of `a` or of the packed copy (above).
            let ap = unsafe { pa.0.offset(step(i, pa.1)) };
            // SAFETY: row `i < ti` of the tile of `b`, likewise.
            let bp = unsafe { pb.0.offset(step(i, pb.1)) };
            // SAFETY: the destination row is `tj` elements of `dst`, no source's; the source
            // rows' `tj` elements are elements of `a` and `b` or of the packed copies (above).
            unsafe { apply(dp, (ap, pa.2), (bp, pb.2), tj, f) };
        }
    };
    // `b` is `a` transposed (`A + Aᵀ`: the same memory, the strides swapped): tile `(J, I)`
    // reads the memory tile `(I, J)` read just before, so the two run back to back and the
    // second finds its sources in cache: each source element crosses the memory bus once.
    let mirrored = ea == eb && a.cast::<u8>() == b.cast::<u8>() && ar == bs && asr == br;
    if mirrored
        && asr == 1
        && TypeId::of::<A>() == TypeId::of::<B>()
        && ea.saturating_mul(ea).saturating_mul(size_of::<A>()) >= MIRROR_MIN_BYTES
    {
        // SAFETY: the caller's contract, for `b` the transpose of `a` (checked above) with
        // unit element stride, and `A` and `B` one type.
        unsafe { zip_mirrored((d, dr), (a, ar), ea, f) };
        return;
    }
    let mut i0 = 0;
    while i0 < ea {
        let mut j0 = if mirrored { i0 } else { 0 };
        while j0 < eb {
            tile(i0, j0);
            if mirrored && j0 != i0 {
                tile(j0, i0);
            }
            j0 += p;
        }
        i0 += p;
    }
}

/// Bytes of one stack tile of [`zip_mirrored`]: 64 KiB on targets with an OS (128 × 128
/// `f32`: rows of 512 bytes, which page-sized row strides need to reach the memory's speed;
/// the three tiles sit in a 512 KiB second-level cache; measured on `A + Aᵀ` 4096² `f32`:
/// 0.48 of the roofline with 32 × 32 tiles and with 64 × 64, 0.58 with 128 × 128), 512 on
/// bare metal.
const MIRROR_TILE_BYTES: usize = if cfg!(target_os = "none") {
    512
} else {
    64 << 10
};

/// The smallest `A + Aᵀ` (bytes of `a`) that [`zip_mirrored`] takes: below it `a` stays in
/// the second-level cache, where reading each tile twice costs less than staging the tiles
/// (measured on `f32`: 64² and 256² ran 2 to 3 times slower staged, 1000² and more faster).
const MIRROR_MIN_BYTES: usize = 2 << 20;

/// How many destination rows ahead [`zip_mirrored`] hints its stores' lines.
const DST_AHEAD: usize = 4;

/// One stack tile of [`zip_mirrored`], cache-line aligned.
#[repr(C, align(64))]
struct MirrorTile([MaybeUninit<u8>; MIRROR_TILE_BYTES]);

impl MirrorTile {
    #[cfg_attr(
        not(target_os = "none"),
        expect(
            clippy::large_stack_arrays,
            reason = "the tiles are the point: three 64 KiB tiles on a host's stack (512 bytes on bare metal)"
        )
    )]
    const fn new() -> Self {
        Self([MaybeUninit::uninit(); MIRROR_TILE_BYTES])
    }
}

/// `dst[i·dr + j] = f(a[i·ar + j], a[j·ar + i])` for `i, j < e` (`b = aᵀ` of one type `T`):
/// the memory tiles `X = a(I, J)` and `Y = a(J, I)` are each copied once into a stack tile,
/// whose rows are contiguous whatever `ar` is (at page-sized row strides the rows of a tile
/// share cache sets and evict one another, so reading a tile twice from `a` reads it twice
/// from memory); then `dst(I, J) = f(X, Yᵀ)` and `dst(J, I) = f(Y, Xᵀ)` run from the stack,
/// each transpose made once, in the cache.
///
/// ```text
/// a:  X = a(I, J) ──copy──▶ x      dst(I, J) = f(x, yᵀ)
///     Y = a(J, I) ──copy──▶ y      dst(J, I) = f(y, xᵀ)
/// ```
///
/// # Safety
///
/// `A` and `B` are one type; `zip_block`'s contract with `b = a`, `br = 1`, `bs = ar`,
/// `asr = 1` and `ea = eb = e`.
#[expect(
    clippy::arithmetic_side_effects,
    reason = "counters stay below `e`; offsets are element offsets of the block (contract)"
)]
#[expect(
    clippy::many_single_char_names,
    reason = "the destination, the source, the extent and the function, as in the formula"
)]
// Not inlined: its three tiles would make every `zip_block` frame (and its stack probe)
// 192 KiB.
#[inline(never)]
unsafe fn zip_mirrored<A, B, U, F>(
    (d, dr): (*mut U, isize),
    (a, ar): (*const A, isize),
    e: usize,
    f: &mut F,
) where
    A: Copy + 'static,
    B: Copy + 'static,
    U: Copy,
    F: FnMut(A, B) -> U,
{
    debug_assert!(
        TypeId::of::<A>() == TypeId::of::<B>(),
        "zip_mirrored: two types"
    );
    // The tiles hold `A` only: the results go straight to the destination.
    let p = side_for(size_of::<A>(), MIRROR_TILE_BYTES);
    let (mut tx, mut ty, mut tt) = (MirrorTile::new(), MirrorTile::new(), MirrorTile::new());
    let (bx, by, bt) = (
        tx.0.as_mut_ptr().cast::<A>(),
        ty.0.as_mut_ptr().cast::<A>(),
        tt.0.as_mut_ptr().cast::<A>(),
    );
    let at = |i: usize, j: usize| a.wrapping_offset(step(i, ar).wrapping_add(step(j, 1)));
    // Copies the `r × c` memory tile at `(i0, j0)` into `buf`, rows of `c`, and prefetches
    // the rows of the tile `next` rows on (the next pair's `Y`, which the hardware cannot
    // guess: its rows start anew each time).
    let stage = |buf: *mut A, i0: usize, j0: usize, r: usize, c: usize, next: usize| {
        for i in 0..r {
            if next > 0 {
                stream::prefetch_run(at(i0 + next + i, j0), c);
            }
            // SAFETY: row `i` of the tile (`r·c` elements fit it: `side_for`) starts inside
            // it.
            let row = unsafe { buf.add(i * c) };
            // SAFETY: row `i0 + i`, columns `j0..j0 + c` of the block (contract), into row
            // `i` of the tile (`r·c` elements fit it: `side_for`).
            unsafe { core::ptr::copy_nonoverlapping(at(i0 + i, j0), row, c) };
        }
    };
    // `out = bufᵀ`: `buf` is `r × c`, `out` is `c × r`.
    let flip = |out: *mut A, buf: *const A, r: usize, c: usize| {
        let (Ok(ri), Ok(ci)) = (isize::try_from(r), isize::try_from(c)) else {
            return;
        };
        if transpose::transposes::<A>() {
            // SAFETY: both tiles hold `r·c` elements of `A` (`side_for`), aligned, ours and
            // distinct.
            unsafe { transpose::transpose_unchecked(out, ri, buf, ci, c, r) };
        } else {
            for i in 0..c {
                for j in 0..r {
                    // SAFETY: `j·c + i < r·c`: an element of the tile `buf` (as above).
                    let from = unsafe { buf.add(j * c + i) };
                    // SAFETY: `from` is an initialised element of `buf` (as above).
                    let x = unsafe { *from };
                    // SAFETY: `i·r + j < r·c`: an element of the tile `out` (as above).
                    let to = unsafe { out.add(i * r + j) };
                    // SAFETY: `to` is an element of `out`, ours, distinct from `buf`.
                    unsafe { to.write(x) };
                }
            }
        }
    };
    // `dst(i0.., j0..) = f(x, t)`, both `r × c` tiles.
    let mut write = |i0: usize, j0: usize, x: *const A, t: *const A, r: usize, c: usize| {
        for i in 0..r {
            // The destination row `DST_AHEAD` rows on, hinted into the cache before its
            // stores (they would each wait for the line to be read for ownership).
            let ahead = d.wrapping_offset(step(i0 + i + DST_AHEAD, dr).wrapping_add(step(j0, 1)));
            if i + DST_AHEAD < r {
                stream::prefetch_run(ahead.cast_const(), c);
            }
            // SAFETY: row `i0 + i`, column `j0` of the destination block (contract).
            let dp = unsafe { d.offset(step(i0 + i, dr).wrapping_add(step(j0, 1))) };
            // SAFETY: row `i` of the `r × c` tile `x`.
            let xp = unsafe { x.add(i * c) };
            // SAFETY: row `i` of the `r × c` tile `t`.
            let tp = unsafe { t.add(i * c) };
            // SAFETY: row `i0 + i`, columns `j0..j0 + c` of the destination block (contract),
            // no source's; rows `i` of the two tiles; `A` is `B` (contract).
            unsafe { apply(dp, (xp, 1), (tp.cast::<B>(), 1), c, f) };
        }
    };
    let mut i0 = 0;
    while i0 < e {
        let ti = p.min(e - i0);
        stage(bx, i0, i0, ti, ti, 0);
        flip(bt, bx, ti, ti);
        write(i0, i0, bx, bt, ti, ti);
        let mut j0 = i0 + p;
        while j0 < e {
            let tj = p.min(e - j0);
            stage(bx, i0, j0, ti, tj, 0);
            // The next pair's `Y` starts `p` rows on, if there is one.
            let next = if j0 + p < e { p } else { 0 };
            stage(by, j0, i0, tj, ti, next);
            flip(bt, by, tj, ti);
            write(i0, j0, bx, bt, ti, tj);
            flip(bt, bx, ti, tj);
            write(j0, i0, by, bt, tj, ti);
            j0 += p;
        }
        i0 += p;
    }
}

/// `out[j] = f(a[j·as], b[j·bs])` for `j < n`, through slices when both sources are
/// contiguous (so `f` vectorises).
///
/// # Safety
///
/// `out..out + n` are writable elements no source shares; every `a + j·as`, `b + j·bs` an
/// element of its slice.
#[inline(always)]
#[expect(clippy::inline_always, reason = "the element loop must inline `f`")]
#[expect(
    clippy::many_single_char_names,
    reason = "out, a, b, n, f, o, x, y: the usual element-loop names"
)]
unsafe fn apply<A: Copy, B: Copy, U, F: FnMut(A, B) -> U>(
    out: *mut U,
    (a, asr): (*const A, isize),
    (b, bs): (*const B, isize),
    n: usize,
    f: &mut F,
) {
    if asr == 1 && bs == 1 {
        // SAFETY: the contract: `out..out + n` are writable elements no source shares, an
        // exclusive slice of `MaybeUninit<U>` (the layout of `U`).
        let o = unsafe { slice::from_raw_parts_mut(out.cast::<MaybeUninit<U>>(), n) };
        // SAFETY: the contract: `a..a + n` are elements of `a`'s slice (unit stride),
        // distinct from `out`.
        let x = unsafe { slice::from_raw_parts(a, n) };
        // SAFETY: the contract: `b..b + n` are elements of `b`'s slice (unit stride),
        // distinct from `out`.
        let y = unsafe { slice::from_raw_parts(b, n) };
        for ((o, &x), &y) in o.iter_mut().zip(x).zip(y) {
            o.write(f(x, y));
        }
    } else {
        for j in 0..n {
            // SAFETY: `j < n`: `a + j·as` is an element of `a`'s slice (contract).
            let ap = unsafe { a.offset(step(j, asr)) };
            // SAFETY: `ap` is an element of `a`'s slice (above).
            let x = unsafe { *ap };
            // SAFETY: `j < n`: `b + j·bs` is an element of `b`'s slice (contract).
            let bp = unsafe { b.offset(step(j, bs)) };
            // SAFETY: `bp` is an element of `b`'s slice (above).
            let y = unsafe { *bp };
            let v = f(x, y);
            // SAFETY: `j < n`: `out + j` is a writable element (contract).
            let o = unsafe { out.add(j) };
            // SAFETY: `o` is a writable element no source shares (contract).
            unsafe { o.write(v) };
        }
    }
}

/// The rows of a `ti × tj` source tile at `p` (row stride `r`, element stride `s`): packed
/// row-major into `tile` when the source runs across the rows (`r == 1`, a SIMD transpose for
/// 4- and 8-byte primitives), otherwise as it lies.
///
/// # Safety
///
/// Every `p + i·r + j·s` (`i < ti`, `j < tj`) is an element of the source slice, and
/// `ti·tj·size_of::<T>() <= ZIP_TILE_BYTES`, `align_of::<T>() <= 64` ([`takes`], [`side`]).
unsafe fn pack<T: Copy + 'static>(
    tile: &mut Tile,
    p: *const T,
    r: isize,
    s: isize,
    ti: usize,
    tj: usize,
) -> Rows<T> {
    let Ok(row) = isize::try_from(tj) else {
        return (p, r, s);
    };
    if r != 1 || s.unsigned_abs() <= 1 || ti < 2 {
        return (p, r, s);
    }
    let buf = tile.0.as_mut_ptr().cast::<T>();
    if transpose::transposes::<T>() {
        // SAFETY: `buf` holds `ti·tj` elements of `T`, aligned (contract), ours; the source
        // tile is the caller's; they are distinct memory.
        unsafe { transpose::transpose_unchecked(buf, row, p, s, ti, tj) };
    } else {
        for j in 0..tj {
            for i in 0..ti {
                // SAFETY: as above: `p + i·r + j·s` (`i < ti`, `j < tj`) is an element of the
                // source slice.
                let from = unsafe { p.offset(step(i, r).wrapping_add(step(j, s))) };
                // SAFETY: `from` is an element of the source slice (above).
                let x = unsafe { *from };
                // SAFETY: as above; `i·tj + j < ti·tj`: an element of `buf`.
                let to = unsafe { buf.offset(step(i, row).wrapping_add(step(j, 1))) };
                // SAFETY: `to` is an element of `buf`, ours, distinct from the source.
                unsafe { to.write(x) };
            }
        }
    }
    (buf.cast_const(), row, 1)
}

#[cfg(test)]
#[expect(
    clippy::cast_precision_loss,
    clippy::cast_possible_truncation,
    clippy::many_single_char_names,
    reason = "test values below 2^24 (exact in f32), wrapped on purpose for u8 and u16; the formula's names"
)]
mod tests {
    use super::*;

    /// `dst = f(a, aᵀ)` through `zip_mirrored` (`direct`) or `zip_block` for an `e × e` block of `a` whose rows are `ar`
    /// elements apart, against the index formula; the destination's padding stays untouched.
    fn check_mirrored<T: Copy + PartialEq + core::fmt::Debug + 'static>(
        direct: bool,
        e: usize,
        pad: usize,
        val: impl Fn(usize) -> T,
        f: impl Fn(T, T) -> (T, T) + Copy,
        fill: (T, T),
    ) {
        let ar = e + pad;
        let a: std::vec::Vec<T> = (0..ar * e).map(val).collect();
        let dr = e + 1;
        let mut dst = std::vec![fill; dr * e];
        let arr = isize::try_from(ar).unwrap();
        let mut g = f;
        // The block's offsets `i·ar + j` (`i, j < e`) lie in `a`, `i·dr + j` in `dst`;
        // distinct buffers; `takes` holds (`b` runs across the rows).
        assert!(takes::<T, T, (T, T)>(1, [arr, 1], [1, arr]) || e < 2);
        let d = (dst.as_mut_ptr(), isize::try_from(dr).unwrap());
        if direct {
            // SAFETY: the block (above), `b` the transpose of `a`, one type.
            unsafe { zip_mirrored(d, (a.as_ptr(), arr), e, &mut g) };
        } else {
            // SAFETY: the block (above).
            unsafe {
                zip_block(
                    d,
                    (a.as_ptr(), arr, 1),
                    (a.as_ptr(), 1, arr),
                    [e, e],
                    &mut g,
                );
            }
        }
        for i in 0..e {
            for j in 0..dr {
                let want = if j < e {
                    f(a[i * ar + j], a[j * ar + i])
                } else {
                    fill
                };
                assert_eq!(dst[i * dr + j], want, "{e}x{e} pad {pad} at ({i},{j})");
            }
        }
    }

    #[test]
    fn zip_block_mirrored_matches_the_formula_around_the_tiles() {
        // Tiles of 256 (`u8`), 128 (`u16`, `f32`), 64 (`f64`), 32 (64-byte elements).
        let sizes: &[usize] = if cfg!(miri) {
            &[1, 2, 9, 33]
        } else {
            &[1, 2, 3, 7, 31, 63, 64, 65, 70, 127, 128, 129, 200, 257, 300]
        };
        for (k, &e) in sizes.iter().enumerate() {
            let pad = k % 4;
            check_mirrored(true, e, pad, |x| x as f32, |x, y| (x, y), (-1.0, -1.0));
            check_mirrored(true, e, pad, |x| x as f64, |x, y| (x, y), (-1.0, -1.0));
            check_mirrored(true, e, pad + 1, |x| x as u16, |x, y| (x, y), (0, 0));
            check_mirrored(true, e, pad, |x| (x % 251) as u8, |x, y| (x, y), (0, 0));
        }
        // A 64-byte element: no SIMD transpose, tiles of 32.
        let big = if cfg!(miri) { [9, 40] } else { [40, 70] };
        for e in big {
            check_mirrored(
                true,
                e,
                1,
                |x| [x as u64; 8],
                |x, y| (x, y),
                ([0; 8], [0; 8]),
            );
        }
        if !cfg!(miri) {
            // Through `zip_block`: below `MIRROR_MIN_BYTES` (the cached tiles) and past it.
            for e in [5, 300, 800, 1030] {
                check_mirrored(false, e, 3, |x| x as f32, |x, y| (x, y), (-1.0, -1.0));
            }
            check_mirrored(false, 600, 1, |x| x as f64, |x, y| (x, y), (-1.0, -1.0));
            for e in 1..=70 {
                check_mirrored(true, e, e % 5, |x| x as f32, |x, y| (x, y), (-1.0, -1.0));
            }
        }
    }

    #[test]
    fn side_fills_the_tile() {
        assert_eq!(side(4) * side(4) * 4, ZIP_TILE_BYTES);
        assert!(side(8) * side(8) * 8 <= ZIP_TILE_BYTES);
        assert!(side(1) * side(1) <= ZIP_TILE_BYTES && side(1) * side(1) * 4 > ZIP_TILE_BYTES);
    }
}
