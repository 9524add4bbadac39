//! The one interleave mapping core: the offset of an index, the offset bounds, and the
//! rank-`N + 1` strided pieces of a layout whose axis `d` is stored in blocks of `f`.
//!
//! ```text
//! offset(i) = offset + (i_d / f) * s_d + i_d % f + Σ_{k != d} i_k * s_k
//! ```
//!
//! is written here and nowhere else. A plain strided layout is the same formula with factor
//! 1 ([`InterleaveLayout::PLAIN`]: `(i / 1) * s + i % 1 == i * s`), so `algo/offset.rs`
//! (`Layout`, `DynLayout`), `InterleavedLayout` (its constructors, `offset_of`, bounds,
//! strided forms, uniqueness, overlap and iteration), `Grid` (the cells of a printed section
//! and their widths) and the copy planner (`kernel/plan/pieces.rs`: the offsets and strides
//! of every piece of operands interleaved alike or differently, through [`step`]) all call
//! these functions. `KernelLayout`'s device-side twin
//! (`param/`, also `include/strided_layout.h`) evaluates the same formula in the kernel's
//! index type, and is tested against [`offset_of`]'s answers.
//!
//! | function | answers |
//! | --- | --- |
//! | [`step`] | `offset + (i / f) * s + i % f` along one axis, checked |
//! | [`offset_of`] | the offset of a whole index, every entry checked against its extent |
//! | [`span`] | the least and greatest term of one axis over `0..e`, exactly, in `i128` |
//! | [`bounds`] | the least and greatest offset of the layout, `None` when empty |
//! | [`piece`] | the full blocks, the partial tail block or the padded form as a strided layout of rank `N + 1`, lane axis last |
//!
//! The pieces of `(10):(4) il(0,4)`, drawn as offsets:
//!
//! ```text
//! layout          0 1 2 3 | 4 5 6 7 | 8 9
//! Full  (2,4):(4,1)        0 1 2 3 / 4 5 6 7        blocks 0 and 1, all 4 lanes
//! Tail  (1,2):(4,1) +8     8 9                      block 2, its 2 used lanes
//! Padded (3,4):(4,1)       .. 8 9 [10] [11]         every block with 4 lanes
//! ```

use super::access::{get, set};
use super::checked::{offset_after, tri};
use super::parts::Parts;
use crate::{InterleaveLayout, LayoutError};

// one formula: a blocked axis's offset is built from `level` alone, here. Its callers: `step`
// (one level of lanes one element apart: the interleave term), and through it `offset_of` and
// `bounds` below (so `algo/offset.rs`, `Layout` and `DynLayout`), `InterleavedLayout`'s
// constructors, `offset_of`, `offset_bounds`, strided forms, uniqueness and overlap
// (`interleave/`), its iterators (`iter/`) and `Grid` (`fmt.rs`); and the copy planner's
// general blocked form (`plan::Blocks::offset_on`, any levels on any axes). `KernelLayout` is
// to call `piece` and `offset_of` rather than re-derive them.

/// One level of a blocked axis: `offset` moved `stride` elements for each step of the digit
/// `q % extent`, with the quotient `q / extent` left for the next level (or, after the last,
/// for the axis's own stride). `Err(FactorZero)` for `extent == 0`, `Err(OffsetOverflow)`
/// when the offset overflows.
pub(crate) const fn level(
    offset: isize,
    q: usize,
    extent: usize,
    stride: isize,
) -> Result<(isize, usize), LayoutError> {
    let (Some(digit), Some(next)) = (q.checked_rem(extent), q.checked_div(extent)) else {
        return Err(LayoutError::FactorZero);
    };
    Ok((tri!(offset_after(offset, digit, stride)), next))
}

/// `offset + (i / f) * s + i % f`: the offset `i` steps along an axis of stride `s` stored in
/// blocks of `f` (`f == 1`: the plain `offset + i * s`), or `Err(OffsetOverflow)`: one
/// [`level`] of `f` lanes one element apart, then the blocks.
pub(crate) const fn step(
    offset: isize,
    i: usize,
    s: isize,
    il: InterleaveLayout,
) -> Result<isize, LayoutError> {
    let (moved, block) = tri!(level(offset, i, il.factor(), 1));
    offset_after(moved, block, s)
}

/// The offset of `index` in the layout `p` interleaved by `il` (axis `il.dimension()`
/// stepped in blocks of `il.factor()`); every `index[k] < shape[k]` is checked.
///
/// # Errors
///
/// `RankMismatch` when `index` has another length than the rank, `IndexOutOfRange` for the
/// first index past its extent, `OffsetOverflow` (never on a valid layout).
pub(crate) const fn offset_of(
    p: Parts<'_>,
    il: InterleaveLayout,
    index: &[usize],
) -> Result<isize, LayoutError> {
    if index.len() != p.rank() {
        return Err(LayoutError::RankMismatch {
            expected: p.rank(),
            found: index.len(),
        });
    }
    let mut off = p.offset();
    let mut k = 0;
    while let Some(i) = get(index, k) {
        let (extent, stride) = p.axis(k);
        if i >= extent {
            return Err(LayoutError::IndexOutOfRange { axis: k });
        }
        off = tri!(step(off, i, stride, il.factor_at(k)));
        k = k.saturating_add(1);
    }
    Ok(off)
}

/// The least and greatest value of `(i / f) * s + i % f` over `i` in `0..e`, `e >= 1`.
///
/// With `nb = (e - 1) / f` full-or-last blocks and `r = (e - 1) % f` the last block's last
/// lane, the least is at lane 0 of block 0 or block `nb` (`min(0, nb * s)`); the greatest at
/// the last lane of the last block (`nb * s + r`) or of the best full block
/// (`max(0, (nb - 1) * s) + f - 1`, when there is a full block before the last). With
/// `f == 1` this is `(min(0, (e - 1) s), max(0, (e - 1) s))`. The least is at most 0 and the
/// greatest at least 0 (index 0 adds 0). `|nb * s| < 2^127` and `f < 2^64`, so nothing here
/// overflows `i128`.
pub(crate) const fn span(e: usize, s: isize, il: InterleaveLayout) -> (i128, i128) {
    let (nb, r) = il.split(e.saturating_sub(1));
    // `nb < 2^64`, `|s| <= 2^63`: the product is below 2^127 in magnitude; `r < f < 2^64`.
    #[expect(clippy::arithmetic_side_effects, reason = "bounded as said above")]
    let (last, top) = (nb as i128 * s as i128, nb as i128 * s as i128 + r as i128);
    let lo = if last < 0 { last } else { 0 };
    let mut hi = if top > 0 { top } else { 0 };
    if nb >= 1 {
        // `nb >= 1`: `nb - 1` cannot wrap; `f >= 1`: `f - 1` cannot wrap; both products and
        // sums are below 2^127 + 2^64 in magnitude.
        #[expect(clippy::arithmetic_side_effects, reason = "bounded as said above")]
        let full = {
            let base = (nb - 1) as i128 * s as i128;
            (if base > 0 { base } else { 0 }) + (il.factor() - 1) as i128
        };
        if full > hi {
            hi = full;
        }
    }
    (lo, hi)
}

/// The smallest and largest element offsets of `p` interleaved by `il`, `None` when some
/// extent is 0.
///
/// Each axis adds its [`span`]; the negative and positive sides are summed apart in `i128`,
/// so a layout whose offsets fit only thanks to its base offset (`(3,):(-2^62,) +2^63-1`) is
/// measured exactly: once a side's sum passes `2^127` its bound cannot fit `isize` whatever
/// the offset is, which is the error returned. On a validated layout no error is possible
/// (invariant 3).
///
/// # Errors
///
/// `OffsetOverflow` when a bound does not fit `isize`.
pub(crate) const fn bounds(
    p: Parts<'_>,
    il: InterleaveLayout,
) -> Result<Option<(isize, isize)>, LayoutError> {
    if p.has_zero_extent() {
        return Ok(None);
    }
    let (mut neg, mut pos) = (0i128, 0i128);
    let mut k = 0;
    while k < p.rank() {
        let (e, s) = p.axis(k);
        let (lo, hi) = span(e, s, il.factor_at(k));
        match (neg.checked_add(lo), pos.checked_add(hi)) {
            (Some(n), Some(q)) => (neg, pos) = (n, q),
            _ => return Err(LayoutError::OffsetOverflow),
        }
        k = k.saturating_add(1);
    }
    let base = p.offset() as i128;
    match (base.checked_add(neg), base.checked_add(pos)) {
        (Some(lo), Some(hi)) => match (fit_isize(lo), fit_isize(hi)) {
            (Some(lo), Some(hi)) => Ok(Some((lo, hi))),
            _ => Err(LayoutError::OffsetOverflow),
        },
        _ => Err(LayoutError::OffsetOverflow),
    }
}

/// `v` as `isize`, or `None` when it does not fit.
const fn fit_isize(v: i128) -> Option<isize> {
    if v < isize::MIN as i128 || v > isize::MAX as i128 {
        None
    } else {
        Some(v as isize)
    }
}

/// Which rank-`N + 1` strided piece [`piece`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Piece {
    /// The full blocks: axis `d` of extent `e / f` (the block index), a last axis of `f`
    /// lanes. Empty (extent 0 on axis `d`) when `e < f`.
    Full,
    /// The partial last block: axis `d` of extent 1 at block `e / f`, a last axis of
    /// `e % f` lanes. Empty (extent 0 lanes) when `f` divides `e`.
    Tail,
    /// Every block with all `f` lanes, a partial last block padded: `ceil(e / f)` blocks.
    Padded,
}

/// Writes the rank-`r + 1` strided `which` piece of the rank-`r` layout `p` cut along axis
/// `d = il.dimension()` into blocks of `f = il.factor()` into `shape` and `strides` (which
/// must hold at least `r + 1` entries; entries past `r + 1` are left alone) and returns its
/// offset. Axis `k != d` keeps its extent and stride; axis `d` becomes the block index; the
/// appended last axis is the lane inside a block.
///
/// The full and tail pieces together hold every element once; the padded piece holds them
/// and the padding slots of a partial last block.
///
/// # Errors
///
/// `RankMismatch` when the output is shorter than `r + 1`, `AxisOutOfRange` when
/// `d >= r`, `OffsetOverflow` when a padding slot's offset overflows
/// `isize` (never for the full or tail piece of an interleaved layout).
pub(crate) const fn piece(
    p: Parts<'_>,
    il: InterleaveLayout,
    which: Piece,
    shape: &mut [usize],
    strides: &mut [isize],
) -> Result<isize, LayoutError> {
    let r = p.rank();
    if shape.len() <= r || strides.len() <= r {
        return Err(LayoutError::RankMismatch {
            expected: r.saturating_add(1),
            found: shape.len(),
        });
    }
    let (d, f) = (il.dimension(), il.factor());
    if d >= r {
        return Err(LayoutError::AxisOutOfRange { axis: d, ndim: r });
    }
    let mut k = 0;
    while k < r {
        let (e, s) = p.axis(k);
        set(shape, k, e);
        set(strides, k, s);
        k = k.saturating_add(1);
    }
    let (e, s) = p.axis(d);
    let (full, rem) = il.split(e);
    let (blocks, lane_count) = match which {
        Piece::Full => (full, f),
        Piece::Tail => (if rem > 0 { 1 } else { 0 }, rem),
        Piece::Padded => (il.blocks(e), f),
    };
    // The tail starts at block `full`.
    let offset = match which {
        Piece::Tail if rem > 0 => tri!(offset_after(p.offset(), full, s)),
        _ => p.offset(),
    };
    set(shape, d, blocks);
    set(strides, d, s);
    set(shape, r, lane_count);
    set(strides, r, 1);
    Ok(offset)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn il(d: usize, f: usize) -> InterleaveLayout {
        InterleaveLayout::new(d, f).unwrap()
    }

    #[test]
    fn span_is_the_extremes_of_every_term() {
        for e in 1..=9usize {
            for s in -7..=7isize {
                for f in 1..=4usize {
                    let terms = (0..e).map(|i| ((i / f) as i128) * s as i128 + (i % f) as i128);
                    let want = (terms.clone().min().unwrap(), terms.max().unwrap());
                    assert_eq!(span(e, s, il(0, f)), want, "e {e} s {s} f {f}");
                }
            }
        }
    }

    #[test]
    fn pieces_of_a_partial_block_cover_each_element_once() {
        let p = Parts::from_arrays(&[10], &[4], 0, 1);
        let (mut sh, mut st) = ([0usize; 2], [0isize; 2]);
        let o = piece(p, il(0, 4), Piece::Full, &mut sh, &mut st);
        assert_eq!((o, sh, st), (Ok(0), [2, 4], [4, 1]));
        let o = piece(p, il(0, 4), Piece::Tail, &mut sh, &mut st);
        assert_eq!((o, sh, st), (Ok(8), [1, 2], [4, 1]));
        let o = piece(p, il(0, 4), Piece::Padded, &mut sh, &mut st);
        assert_eq!((o, sh, st), (Ok(0), [3, 4], [4, 1]));
        let o = piece(p, il(0, 5), Piece::Tail, &mut sh, &mut st);
        assert_eq!((o, sh[1]), (Ok(0), 0));
        assert_eq!(
            piece(p, il(1, 4), Piece::Full, &mut sh, &mut st),
            Err(LayoutError::AxisOutOfRange { axis: 1, ndim: 1 })
        );
    }

    #[test]
    fn offset_of_and_bounds_follow_the_formula() {
        let p = Parts::from_arrays(&[2, 6], &[4, 8], 1, 1);
        assert_eq!(offset_of(p, il(1, 4), &[1, 5]), Ok(1 + 4 + 8 + 1));
        assert_eq!(
            offset_of(p, il(1, 4), &[1, 6]),
            Err(LayoutError::IndexOutOfRange { axis: 1 })
        );
        assert_eq!(bounds(p, il(1, 4)), Ok(Some((1, 1 + 4 + 8 + 1))));
        assert_eq!(
            bounds(p, InterleaveLayout::PLAIN),
            Ok(Some((1, 1 + 4 + 40)))
        );
    }
}
