//! What planning reads from the operands: their offsets and strides, checked to share one
//! shape, and the checked offset arithmetic.

use super::tiling::side_for;
use crate::LayoutError;
use crate::algo::access::{contains, get, set};
use crate::kernel::mapping::Lowered;

/// `&s[i]`, or `None` past the end.
pub(super) const fn at<T>(s: &[T], i: usize) -> Option<&T> {
    match s.split_at_checked(i) {
        Some((_, [x, ..])) => Some(x),
        _ => None,
    }
}

/// Whether no operand is interleaved (every `interleave` is `None`): one nest plans them.
#[expect(
    clippy::inline_always,
    reason = "it must fold where the operands are built (see `Plan::build`)"
)]
#[inline(always)]
pub(crate) const fn all_strided<const N: usize, const K: usize>(ops: &[Lowered<N>; K]) -> bool {
    let mut rest: &[Lowered<N>] = ops;
    while let [op, tail @ ..] = rest {
        if !op.blocks.is_empty() {
            return false;
        }
        rest = tail;
    }
    true
}

/// The checks of [`Plan::new`](super::Plan::new) that come before any nest, in order: every
/// operand has operand 0's shape (the first differing axis is the error), every interleave
/// names an axis `< N` and a factor `>= 1`. `Ok(None)` when the shape has an extent 0 (no nest); else
/// whether an interleave (factor > 1) splits the shape, and the tile side of the largest
/// itemsize.
pub(crate) const fn check_operands<const N: usize, const K: usize>(
    ops: &[Lowered<N>; K],
) -> Result<Option<(bool, usize)>, LayoutError> {
    let Some(first) = ops.first() else {
        return Ok(None);
    };
    let shape = first.shape;
    let mut split = false;
    let mut itemsize = 1;
    let mut rest: &[Lowered<N>] = ops;
    let mut index = 0usize;
    while let [op, tail @ ..] = rest {
        rest = tail;
        // Operand 0 has its own shape: only the others are compared.
        if index > 0 {
            let (mut a, mut b): (&[usize], &[usize]) = (&op.shape, &shape);
            let mut k = 0usize;
            while let ([x, at @ ..], [y, bt @ ..]) = (a, b) {
                if *x != *y {
                    return Err(LayoutError::ShapeMismatch { axis: k });
                }
                (a, b, k) = (at, bt, k.saturating_add(1));
            }
        }
        index = index.saturating_add(1);
        let mut levels = op.blocks.levels();
        while let [l, tail @ ..] = levels {
            levels = tail;
            if l.axis >= N {
                return Err(LayoutError::AxisOutOfRange {
                    axis: l.axis,
                    ndim: N,
                });
            }
            if l.extent == 0 {
                return Err(LayoutError::FactorZero);
            }
            // A level of one coordinate is the plain strided formula: it cuts nothing.
            split |= l.extent > 1;
        }
        if op.itemsize > itemsize {
            itemsize = op.itemsize;
        }
    }
    if contains(&shape, 0) {
        return Ok(None);
    }
    Ok(Some((split, side_for(itemsize))))
}

/// Each operand's offset.
pub(super) const fn offsets_of<const N: usize, const K: usize>(
    ops: &[Lowered<N>; K],
) -> [isize; K] {
    let mut out = [0isize; K];
    let mut o = 0;
    while o < K {
        if let Some(op) = at(ops, o) {
            set(&mut out, o, op.offset);
        }
        o = o.saturating_add(1);
    }
    out
}

/// Each operand's stride on axis `k`.
pub(super) const fn strides_at<const N: usize, const K: usize>(
    ops: &[Lowered<N>; K],
    k: usize,
) -> [isize; K] {
    let mut out = [0isize; K];
    let mut o = 0;
    while o < K {
        if let Some(op) = at(ops, o) {
            set(&mut out, o, stride_at(op, k));
        }
        o = o.saturating_add(1);
    }
    out
}

/// A stride or offset read with [`get`], 0 past the end.
pub(super) const fn stride_or_0(v: Option<isize>) -> isize {
    match v {
        Some(x) => x,
        None => 0,
    }
}

pub(super) const fn stride_at<const N: usize>(op: &Lowered<N>, k: usize) -> isize {
    match get(&op.strides, k) {
        Some(s) => s,
        None => 0,
    }
}

/// `s · n`, exact or an error ([`moved`]'s answer as a `Result`).
pub(super) const fn mul(s: isize, n: usize) -> Result<isize, LayoutError> {
    match moved(s, n) {
        Some(v) => Ok(v),
        None => Err(LayoutError::OffsetOverflow),
    }
}

/// `s · n`, what `n` steps of stride `s` move an offset, exact, or `None`: the one product of
/// the planner. A zero stride is 0 for any `n`: an axis of more than `isize::MAX` elements
/// (legal when it never moves the offset) must not fail here. An `Option`, not a `Result`:
/// on a Cortex-M an `Option<isize>` comes back in two registers, a `Result` with a
/// [`LayoutError`] through memory (the run-time copy's two-loop planner calls it for every
/// merge test and bound).
pub(super) const fn moved(s: isize, n: usize) -> Option<isize> {
    if s == 0 {
        return Some(0);
    }
    if n > isize::MAX.unsigned_abs() {
        return None;
    }
    #[expect(
        clippy::cast_possible_wrap,
        reason = "`n <= isize::MAX`, checked above"
    )]
    s.checked_mul(n as isize)
}

pub(super) const fn add(a: isize, b: isize) -> Result<isize, LayoutError> {
    match a.checked_add(b) {
        Some(v) => Ok(v),
        None => Err(LayoutError::OffsetOverflow),
    }
}

/// The smallest and the largest itemsize of the operands, `[narrowest, widest]`, each at
/// least 1 (1 for none): the widest sets the elements of a cache line (`line_for`), the
/// narrowest what the tiling rules that ask for every operand's elements at least so wide
/// read (`tiling::few_rows_inside`).
pub(super) const fn item_bounds<const N: usize, const K: usize>(
    ops: &[Lowered<N>; K],
) -> [usize; 2] {
    let (mut narrowest, mut widest) = (usize::MAX, 1);
    let mut o = 0;
    while let Some(op) = at(ops, o) {
        if op.itemsize < narrowest {
            narrowest = op.itemsize;
        }
        if op.itemsize > widest {
            widest = op.itemsize;
        }
        o = o.saturating_add(1);
    }
    if narrowest == usize::MAX || narrowest == 0 {
        narrowest = 1;
    }
    [narrowest, widest]
}

/// The largest itemsize of the operands ([`item_bounds`]' widest).
pub(super) const fn itemsize_of<const N: usize, const K: usize>(ops: &[Lowered<N>; K]) -> usize {
    let [_, widest] = item_bounds(ops);
    widest
}
