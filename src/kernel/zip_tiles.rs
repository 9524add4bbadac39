//! `zip_map` over a block where a source runs across the destination's rows (`A + Aᵀ`):
//! square tiles whose transposed sources are packed row-major on the stack first (a SIMD
//! transpose for 4- and 8-byte primitives, whose micro-kernels read whole lines), so every
//! source line is read from memory once, whole, and every destination row of a tile is
//! written once, in one pass of `f` that vectorises over contiguous rows.
//!
//! ```text
//! dst tile (i0.., j0..)  =  f( a rows i0.. (as they lie),  b packed: bᵀ rows j0.. → rows i0.. )
//! tiles: p × p, p the largest power of two with p² · itemsize <= ZIP_TILE_BYTES
//!        (64 × 64 f32, 32 × 32 f64 on hosts; 8 × 8 f32 on bare metal)
//! ```

use core::mem::{MaybeUninit, align_of, size_of};
use core::slice;

use crate::kernel::drive::step;
use crate::kernel::transpose;

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
    let item = if item == 0 { 1 } else { item };
    let mut p: usize = 1;
    while p
        .saturating_mul(2)
        .saturating_mul(p.saturating_mul(2))
        .saturating_mul(item)
        <= ZIP_TILE_BYTES
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
        // SAFETY: the tile `i0..i0 + ti`, `j0..j0 + tj` lies in the block (contract), and
        // `takes` and `side` make it fit a `Tile`; the packed copies are ours. Each
        // destination row of the tile is `tj` elements of `dst`, no source's.
        unsafe {
            let pa = pack(&mut ta, a.offset(at(i0, j0, ar, asr)), ar, asr, ti, tj);
            let pb = pack(&mut tb, b.offset(at(i0, j0, br, bs)), br, bs, ti, tj);
            for i in 0..ti {
                let dp = d.offset(at(i0 + i, j0, dr, 1));
                let (ap, bp) = (pa.0.offset(step(i, pa.1)), pb.0.offset(step(i, pb.1)));
                apply(dp, (ap, pa.2), (bp, pb.2), tj, f);
            }
        }
    };
    // `b` is `a` transposed (`A + Aᵀ`: the same memory, the strides swapped): tile `(J, I)`
    // reads the memory tile `(I, J)` read just before, so the two run back to back and the
    // second finds its sources in cache: each source element crosses the memory bus once.
    let mirrored = ea == eb && a.cast::<u8>() == b.cast::<u8>() && ar == bs && asr == br;
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
        // SAFETY: the contract, as slices (distinct from `out`).
        let (o, x, y) = unsafe {
            (
                slice::from_raw_parts_mut(out.cast::<MaybeUninit<U>>(), n),
                slice::from_raw_parts(a, n),
                slice::from_raw_parts(b, n),
            )
        };
        for ((o, &x), &y) in o.iter_mut().zip(x).zip(y) {
            o.write(f(x, y));
        }
    } else {
        for j in 0..n {
            // SAFETY: `j < n` (contract).
            let (x, y) = unsafe { (*a.offset(step(j, asr)), *b.offset(step(j, bs))) };
            // SAFETY: `j < n` (contract).
            unsafe { out.add(j).write(f(x, y)) };
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
                // SAFETY: as above; `i·tj + j < ti·tj`.
                unsafe {
                    buf.offset(step(i, row).wrapping_add(step(j, 1)))
                        .write(*p.offset(step(i, r).wrapping_add(step(j, s))));
                }
            }
        }
    }
    (buf.cast_const(), row, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn side_fills_the_tile() {
        assert_eq!(side(4) * side(4) * 4, ZIP_TILE_BYTES);
        assert!(side(8) * side(8) * 8 <= ZIP_TILE_BYTES);
        assert!(side(1) * side(1) <= ZIP_TILE_BYTES && side(1) * side(1) * 4 > ZIP_TILE_BYTES);
    }
}
