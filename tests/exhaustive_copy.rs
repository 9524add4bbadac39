//! Proof by exhaustion in a small scope: the kernels `copy`, `fill` and `copy_within` on
//! *every* operand (pair) of a small scope, plain [`Layout`]s and [`InterleavedLayout`]s on
//! either side, against the model (`small_scope::Model`): the destination buffer has guard
//! slots filled with a sentinel, and the expected buffer is computed from the offsets of
//! every index.
//!
//! | test | scope | cases |
//! | --- | --- | --- |
//! | `copy_rankN_matches_the_model_on_every_pair` | ranks 0..=2, extents 0..=3, strides -2..=2, elements of `u32` (itemsize 4); plain and interleaved operands (every dimension, factors 1..=3), each with its smallest offset at 0 and at 1; every (source, destination) pair of one shape: plain/plain, plain/interleaved, interleaved/plain, interleaved/interleaved with the same interleave, and each pair of different interleaves once | rank 0: 4 pairs, rank 1: 4,024, rank 2: 760,480 |
//! | `fill_matches_the_model` | ranks 0..=2, extents 0..=3, strides -3..=3, offsets 0..=2 (negative smallest offsets included), plain and interleaved (factors 1..=3) | 2,439 plain + 14,364 interleaved operands |
//! | `copy_within_matches_the_model_on_every_pair` | ranks 0..=2, extents 0..=2, strides -2..=2, offsets 0..=3, plain, every pair of one shape in one buffer | 91,216 pairs |
//! | `copy_of_different_shapes_is_shape_mismatch` | every two different shapes of ranks 1 and 2, extents 0..=3 | 252 pairs |
//!
//! Each copy pair runs three times: with exact-length slices, with the source one element
//! short, and with the destination one element short (the last two must fail and leave the
//! destination untouched): 1.3 million checked cases, printed per test, in an optimised
//! build. A debug build (README's `cargo test`) takes the quick scope
//! (`small_scope::quick`): extents 0..=2 and strides -1..=1 for the rank-2 copy pairs;
//! `STRIDED_LAYOUT_EXHAUSTIVE=full` gives it the table's scope.
//!
//! `STRIDED_LAYOUT_EXHAUSTIVE=wide` takes the copy pairs' strides to -3..=3 and factors to
//! 1..=4: 10,240 pairs at rank 1 and 3,842,496 at rank 2, 42 s of CPU (249 s at `nice 19`
//! on two busy cores).
#![allow(
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::cast_possible_truncation,
    clippy::too_many_lines
)]

use crate::common;

use common::small_scope::{Model, Scope, Tally, for_each_index, odometer, quick, wide};
use strided_layout::{
    InterleaveLayout, InterleavedLayout, Layout, LayoutError, Operand, copy, copy_within, fill,
};

/// What a destination slot holds before a kernel runs.
const SENTINEL: u32 = 0xDEAD_BEEF;
/// Guard slots past the largest destination offset.
const GUARD: usize = 2;

/// A kernel operand: a plain or an interleaved layout.
#[derive(Clone, Copy, Debug)]
enum Op<const N: usize> {
    Plain(Layout<N>),
    Il(InterleavedLayout<N>),
}

impl<const N: usize> Op<N> {
    fn model(&self) -> Model {
        match self {
            Op::Plain(l) => Model::of(l),
            Op::Il(l) => Model::of_il(l),
        }
    }

    fn spec(&self) -> Option<(usize, usize)> {
        match self {
            Op::Plain(_) => None,
            Op::Il(l) => Some((l.interleave().dimension(), l.interleave().factor())),
        }
    }
}

impl<const N: usize> std::fmt::Display for Op<N> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Op::Plain(l) => write!(f, "{l}"),
            Op::Il(l) => write!(f, "{l}"),
        }
    }
}

fn run_copy<const N: usize>(
    src: &[u32],
    s: &Op<N>,
    dst: &mut [u32],
    d: &Op<N>,
) -> Result<(), LayoutError> {
    match (s, d) {
        (Op::Plain(s), Op::Plain(d)) => copy(src, s, dst, d),
        (Op::Plain(s), Op::Il(d)) => copy(src, s, dst, d),
        (Op::Il(s), Op::Plain(d)) => copy(src, s, dst, d),
        (Op::Il(s), Op::Il(d)) => copy(src, s, dst, d),
    }
}

fn run_fill<const N: usize>(dst: &mut [u32], d: &Op<N>, v: u32) -> Result<(), LayoutError> {
    match d {
        Op::Plain(d) => fill(dst, d, v),
        Op::Il(d) => fill(dst, d, v),
    }
}

/// One past the largest offset (0 when empty): the shortest slice that holds the operand.
fn span(m: &Model) -> usize {
    m.bounds().map_or(0, |(_, hi)| hi as usize + 1)
}

/// The operands of `shape` in the copy scope, plain and interleaved (every dimension, every
/// factor), each with its smallest offset at 0 and at 1.
fn operands<const N: usize>(shape: [usize; N], s: isize, factors: usize) -> Vec<(Op<N>, Model)> {
    let mut out = Vec::new();
    odometer([-s; N], [s; N], |strides| {
        let base = Model::raw(&shape, &strides, 0, 4);
        let lo = base.bounds().map_or(0, |(lo, _)| lo as isize);
        for extra in 0..=1 {
            let l = Layout::new(shape, strides, 4)
                .and_then(|l| l.with_offset(extra - lo))
                .unwrap();
            out.push((Op::Plain(l), Model::of(&l)));
        }
        for d in 0..N {
            for f in 1..=factors {
                let il = InterleaveLayout::new(d, f).unwrap();
                let l = InterleavedLayout::new(shape, strides, 4, il).unwrap();
                let lo = Model::of_il(&l).bounds().map_or(0, |(lo, _)| lo as isize);
                for extra in 0..=1 {
                    let l = l.with_offset(extra - lo).unwrap();
                    out.push((Op::Il(l), Model::of_il(&l)));
                }
            }
        }
    });
    out
}

/// Runs `copy` for one pair three ways (exact slices, source short, destination short) and
/// checks each against the model.
fn check_copy_pair<const N: usize>(s: &Op<N>, sm: &Model, d: &Op<N>, dm: &Model, t: &mut Tally) {
    let what = || format!("copy {s} -> {d}");
    let src: Vec<u32> = (0..span(sm) as u32).map(|i| 1000 + i).collect();
    let fresh = || vec![SENTINEL; span(dm) + GUARD];
    // Factors that do not divide one another on one axis may need more nests than a plan
    // holds: the run-time copy plans them in windows, and refuses none.
    let empty = dm.volume() == 0;

    let mut dst = fresh();
    let got = run_copy(&src, s, &mut dst, d);
    if !empty && !dm.unique() {
        assert!(
            matches!(
                got,
                Err(LayoutError::DestinationNotUnique | LayoutError::UniquenessUndecided)
            ),
            "{}: {got:?}",
            what()
        );
        assert_eq!(dst, fresh(), "{}: dst touched", what());
    } else {
        assert_eq!(got, Ok(()), "{}", what());
        let mut want = fresh();
        for (&o, &i) in dm.offs.iter().zip(&sm.offs) {
            want[o as usize] = src[i as usize];
        }
        assert_eq!(dst, want, "{}", what());
    }
    t.tick();

    if empty {
        // Nothing is read or written: even empty slices are accepted.
        let mut none: Vec<u32> = Vec::new();
        assert_eq!(run_copy(&[], s, &mut none, d), Ok(()), "{}", what());
        return;
    }
    // The source one element short.
    let mut dst = fresh();
    let got = run_copy(&src[..src.len() - 1], s, &mut dst, d);
    assert_eq!(
        got,
        Err(LayoutError::OffsetOutsideSlice {
            operand: Operand::Source,
            needed: span(sm),
            given: span(sm) - 1,
        }),
        "{} short src",
        what()
    );
    assert_eq!(dst, fresh(), "{}: dst touched", what());
    // The destination one element short (its guard slots dropped too).
    let mut short = vec![SENTINEL; span(dm) - 1];
    let got = run_copy(&src, s, &mut short, d);
    assert_eq!(
        got,
        Err(LayoutError::OffsetOutsideSlice {
            operand: Operand::Destination,
            needed: span(dm),
            given: span(dm) - 1,
        }),
        "{} short dst",
        what()
    );
    assert!(
        short.iter().all(|&x| x == SENTINEL),
        "{}: dst touched",
        what()
    );
    t.tick();
}

fn check_copy_rank<const N: usize>(name: &'static str) {
    let mut t = Tally::new(name);
    let (max_e, max_s, factors) = if wide() {
        (3, 3, 4)
    } else if quick() && N >= 2 {
        (2, 1, 3)
    } else {
        (3, 2, 3)
    };
    let mut pairs = 0u64;
    odometer([0; N], [max_e; N], |shape| {
        let shape = shape.map(|e| e as usize);
        let ops = operands(shape, max_s, factors);
        // The first operand of each interleave stands for it in the conflict checks.
        let mut seen = Vec::new();
        let first: Vec<bool> = ops
            .iter()
            .map(|(o, _)| {
                let new = !seen.contains(&o.spec());
                seen.push(o.spec());
                new
            })
            .collect();
        for (i, (s, sm)) in ops.iter().enumerate() {
            for (j, (d, dm)) in ops.iter().enumerate() {
                // Conflicting interleaves: each pair of interleaves once.
                if let (Some(a), Some(b)) = (s.spec(), d.spec()) {
                    if a != b && !(first[i] && first[j]) {
                        continue;
                    }
                }
                pairs += 1;
                check_copy_pair(s, sm, d, dm, &mut t);
            }
        }
    });
    eprintln!("{name}: {pairs} pairs");
}

/// `copy` on every pair of rank-0 operands of the copy scope (4 pairs).
#[test]
fn copy_rank0_matches_the_model_on_every_pair() {
    check_copy_rank::<0>("copy_rank0_matches_the_model_on_every_pair");
}

/// `copy` on every pair of rank-1 operands of the copy scope (4,024 pairs).
#[test]
fn copy_rank1_matches_the_model_on_every_pair() {
    check_copy_rank::<1>("copy_rank1_matches_the_model_on_every_pair");
}

/// `copy` on every pair of rank-2 operands of the copy scope (760,480 pairs).
#[test]
fn copy_rank2_matches_the_model_on_every_pair() {
    check_copy_rank::<2>("copy_rank2_matches_the_model_on_every_pair");
}

fn check_fill<const N: usize>(op: &Op<N>, t: &mut Tally) {
    let m = op.model();
    let what = || format!("fill {op}");
    let len = span(&m) + GUARD;
    let mut dst = vec![SENTINEL; len];
    let got = run_fill(&mut dst, op, 7);
    match m.bounds() {
        None => {
            assert_eq!(got, Ok(()), "{}", what());
            assert!(dst.iter().all(|&x| x == SENTINEL), "{}", what());
        }
        Some((lo, _)) if lo < 0 => {
            assert_eq!(
                got,
                Err(LayoutError::OffsetBelowSlice {
                    operand: Operand::Destination,
                    lowest: lo as isize,
                }),
                "{}",
                what()
            );
            assert!(
                dst.iter().all(|&x| x == SENTINEL),
                "{}: dst touched",
                what()
            );
        }
        Some((_, hi)) => {
            assert_eq!(got, Ok(()), "{}", what());
            let mut want = vec![SENTINEL; len];
            for &o in &m.offs {
                want[o as usize] = 7;
            }
            assert_eq!(dst, want, "{}", what());
            let mut short = vec![SENTINEL; hi as usize];
            assert_eq!(
                run_fill(&mut short, op, 7),
                Err(LayoutError::OffsetOutsideSlice {
                    operand: Operand::Destination,
                    needed: hi as usize + 1,
                    given: hi as usize,
                }),
                "{} short",
                what()
            );
            assert!(
                short.iter().all(|&x| x == SENTINEL),
                "{}: dst touched",
                what()
            );
        }
    }
    t.tick();
}

/// `fill` on every operand of the fill scope: ranks 0..=2, extents 0..=3, strides -3..=3,
/// offsets 0..=2 (so some smallest offsets are negative: `OffsetOutsideSlice`), plain
/// (2,439 layouts) and interleaved on every dimension by factors 1..=3 (14,364 more at
/// ranks 1 and 2); a broadcast destination is allowed.
#[test]
fn fill_matches_the_model() {
    let mut t = Tally::new("fill_matches_the_model");
    let s = Scope {
        max_extent: 3,
        max_stride: 3,
        offsets: (0, 2),
        itemsizes: &[4],
        itemsize_by_offset: false,
    };
    s.for_each::<0>(|l| check_fill(&Op::Plain(l), &mut t));
    s.for_each::<1>(|l| check_fill(&Op::Plain(l), &mut t));
    s.for_each::<2>(|l| check_fill(&Op::Plain(l), &mut t));
    s.for_each_interleaved::<1>((1, 3), |l| check_fill(&Op::Il(l), &mut t));
    s.for_each_interleaved::<2>((1, 3), |l| check_fill(&Op::Il(l), &mut t));
}

fn check_copy_within_rank<const N: usize>(t: &mut Tally) {
    let s = Scope {
        max_extent: 2,
        max_stride: 2,
        offsets: (0, 3),
        itemsizes: &[4],
        itemsize_by_offset: false,
    };
    let mut by_shape: Vec<(Layout<N>, Model)> = Vec::new();
    s.for_each::<N>(|l| by_shape.push((l, Model::of(&l))));
    for (src, sm) in &by_shape {
        for (dst, dm) in &by_shape {
            if src.shape() != dst.shape() {
                continue;
            }
            let what = || format!("copy_within {src} -> {dst}");
            let len = span(sm).max(span(dm)) + 1;
            let buf0: Vec<u32> = (0..len as u32).map(|i| 1000 + i).collect();
            let mut buf = buf0.clone();
            let got = copy_within(&mut buf, src, dst);
            let lo = |m: &Model| m.bounds().is_some_and(|(lo, _)| lo < 0);
            if dm.volume() == 0 {
                assert_eq!(got, Ok(()), "{}", what());
                assert_eq!(buf, buf0, "{}", what());
            } else if lo(dm) || lo(sm) {
                let (operand, m) = if lo(dm) {
                    (Operand::Destination, dm)
                } else {
                    (Operand::Source, sm)
                };
                let lowest = m.bounds().map_or(0, |(lo, _)| lo as isize);
                assert_eq!(
                    got,
                    Err(LayoutError::OffsetBelowSlice { operand, lowest }),
                    "{}",
                    what()
                );
                assert_eq!(buf, buf0, "{}: buf touched", what());
            } else if !dm.unique() {
                assert!(
                    matches!(
                        got,
                        Err(LayoutError::DestinationNotUnique | LayoutError::UniquenessUndecided)
                    ),
                    "{}: {got:?}",
                    what()
                );
                assert_eq!(buf, buf0, "{}: buf touched", what());
            } else if sm.offs == dm.offs {
                assert_eq!(got, Ok(()), "{} coincide", what());
                assert_eq!(buf, buf0, "{}", what());
            } else if sm
                .offset_set()
                .iter()
                .any(|o| dm.offset_set().binary_search(o).is_ok())
            {
                assert!(
                    matches!(
                        got,
                        Err(LayoutError::OperandsOverlap | LayoutError::UniquenessUndecided)
                    ),
                    "{}: {got:?}",
                    what()
                );
                assert_eq!(buf, buf0, "{}: buf touched", what());
            } else {
                assert_eq!(got, Ok(()), "{}", what());
                let mut want = buf0.clone();
                for (&o, &i) in dm.offs.iter().zip(&sm.offs) {
                    want[o as usize] = buf0[i as usize];
                }
                assert_eq!(buf, want, "{}", what());
            }
            t.tick();
        }
    }
}

/// `copy_within` on every pair of one shape of the in-place scope: ranks 0..=2, extents
/// 0..=2, strides -2..=2, offsets 0..=3 (4 + 60 + 900 plain layouts, 91,216 pairs), in a buffer one
/// element longer than both spans: coinciding operands leave it as it is, overlapping
/// ones are refused untouched, disjoint ones copy.
#[test]
fn copy_within_matches_the_model_on_every_pair() {
    let mut t = Tally::new("copy_within_matches_the_model_on_every_pair");
    check_copy_within_rank::<0>(&mut t);
    check_copy_within_rank::<1>(&mut t);
    check_copy_within_rank::<2>(&mut t);
}

/// The model's expected buffer for a copy is what the formula says, index by index (a
/// self-check of the helpers the tests above rest on).
#[test]
fn copy_model_reads_every_index_once() {
    let l = Layout::new([2, 2], [1, 2], 4).unwrap();
    let m = Model::of(&l);
    assert_eq!(m.offs, [0, 2, 1, 3]);
    let mut n = 0;
    for_each_index(&[2, 2], |_| n += 1);
    assert_eq!((n, span(&m)), (4, 4));
}

fn check_shape_mismatch<const N: usize>(t: &mut Tally) {
    odometer([0; N], [3; N], |a| {
        odometer([0; N], [3; N], |b| {
            let (a, b) = (a.map(|e| e as usize), b.map(|e| e as usize));
            let Some(axis) = (0..N).find(|&k| a[k] != b[k]) else {
                return;
            };
            let src_l = Layout::dense(a, 4, strided_layout::Order::C).unwrap();
            let il = InterleaveLayout::new(N - 1, 2).unwrap();
            let dst_il = InterleavedLayout::dense(b, 4, il).unwrap();
            let dst_l = Layout::dense(b, 4, strided_layout::Order::F).unwrap();
            let src = vec![1u32; 64];
            let mut dst = vec![SENTINEL; 64];
            let want = Err(LayoutError::ShapeMismatch { axis });
            assert_eq!(copy(&src, &src_l, &mut dst, &dst_l), want, "{a:?} -> {b:?}");
            assert_eq!(
                copy(&src, &src_l, &mut dst, &dst_il),
                want,
                "{a:?} -> {b:?} il"
            );
            assert_eq!(
                copy_within(&mut dst, &src_l, &dst_l),
                want,
                "{a:?} -> {b:?} within"
            );
            assert!(
                dst.iter().all(|&x| x == SENTINEL),
                "{a:?} -> {b:?}: dst touched"
            );
            t.tick();
        });
    });
}

/// `copy` and `copy_within` between every two different shapes of ranks 1 and 2 with
/// extents 0..=3 (12 + 240 ordered pairs, empty shapes included): `ShapeMismatch` naming
/// the first axis that differs, the destination untouched.
#[test]
fn copy_of_different_shapes_is_shape_mismatch() {
    let mut t = Tally::new("copy_of_different_shapes_is_shape_mismatch");
    check_shape_mismatch::<1>(&mut t);
    check_shape_mismatch::<2>(&mut t);
}
