//! Any interleave to any interleave: `copy`, `map`, `zip_map`, `CopyPlan` and `ZipMapPlan`
//! between operands interleaved differently (other factors, other axes, partial last blocks,
//! factor 1, empty shapes), every pair of a small scope against the reference model: each
//! element's offset from each layout's own `offset_of`, every other slot untouched.
#![allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]

use crate::common;

use strided_layout::plan::{MAX_NESTS, MAX_PIECES, Plan};
use strided_layout::{
    CopyPlan, InterleaveLayout, InterleavedLayout, Layout, LayoutError, Order, ZipMapPlan,
};

/// What no kernel writes: a slot the destination layout does not name keeps it.
const SENTINEL: u32 = 0xDEAD_BEEF;
/// Slots past the destination's last offset, checked untouched.
const GUARD: usize = 3;

/// The small scope: extents, factors, and whether to add a layout with gaps (strides
/// doubled, offset 1) beside each dense one. Smaller under Miri.
struct Scope {
    extents: &'static [usize],
    factors: &'static [usize],
    gaps: bool,
}

const FULL: Scope = Scope {
    extents: &[0, 1, 2, 3, 4, 5, 6, 7],
    factors: &[1, 2, 3, 4, 5],
    gaps: true,
};

/// Rank 3: every factor on every axis, dense, extents 0 to 7 less 2 and 6 (the pairs grow
/// as the cube of the extents).
const RANK3: Scope = Scope {
    extents: &[0, 1, 3, 4, 5, 7],
    factors: &[1, 2, 3, 4, 5],
    gaps: false,
};

const MIRI: Scope = Scope {
    extents: &[0, 3, 5],
    factors: &[1, 2, 3],
    gaps: false,
};

/// Rank 3 under Miri: one shape with partial blocks of 2 (and the empty one).
const MIRI3: Scope = Scope {
    extents: &[0, 3],
    factors: &[1, 2, 3],
    gaps: false,
};

/// Rank 3 in the quick scope (a debug build, README's `cargo test`; `small_scope::quick`):
/// extents 0, 1, 3 and 5, factors 1 to 4.
const QUICK3: Scope = Scope {
    extents: &[0, 1, 3, 5],
    factors: &[1, 2, 3, 4],
    gaps: false,
};

/// Rank 2 in the quick scope: extents 0 to 7 less 4 and 6, factors 1 to 4.
const QUICK: Scope = Scope {
    extents: &[0, 1, 2, 3, 5, 7],
    factors: &[1, 2, 3, 4],
    gaps: true,
};

const fn scope(full: &'static Scope, miri: &'static Scope) -> &'static Scope {
    if cfg!(miri) { miri } else { full }
}

/// Every operand of `shape` in the scope: interleaved on each axis by each factor, dense
/// (and with gaps).
fn operands<const N: usize>(shape: [usize; N], sc: &Scope) -> Vec<InterleavedLayout<N>> {
    let mut out = Vec::new();
    for d in 0..N {
        for &f in sc.factors {
            let il = InterleaveLayout::new(d, f).unwrap();
            let dense = InterleavedLayout::dense(shape, 4, il).unwrap();
            out.push(dense);
            if sc.gaps {
                let strides = dense.strides().map(|s| 2 * s);
                let gapped = InterleavedLayout::new(shape, strides, 4, il)
                    .and_then(|l| l.with_offset(1))
                    .unwrap();
                out.push(gapped);
            }
        }
    }
    out
}

/// The shortest slice holding every offset of `l` (0 when empty).
fn len_of<const N: usize>(l: &InterleavedLayout<N>) -> usize {
    l.offset_bounds().map_or(0, |(_, hi)| hi as usize + 1)
}

/// `(offset in src, offset in dst)` of every index, from each layout's own `offset_of`.
fn model<const N: usize>(shape: [usize; N], ls: &[&InterleavedLayout<N>]) -> Vec<Vec<usize>> {
    common::indices(&shape)
        .iter()
        .map(|ix| {
            let ix: [usize; N] = ix.as_slice().try_into().unwrap();
            ls.iter()
                .map(|l| l.offset_of(ix).unwrap() as usize)
                .collect()
        })
        .collect()
}

/// Whether every index of `l` has its own offset (by the model: each index's `offset_of`).
fn distinct_offsets<const N: usize>(l: &InterleavedLayout<N>) -> bool {
    let offs: Vec<usize> = model(l.shape(), &[l]).iter().map(|p| p[0]).collect();
    let mut sorted = offs.clone();
    sorted.sort_unstable();
    sorted.dedup();
    sorted.len() == offs.len()
}

/// Source values: distinct, so a misplaced element shows.
fn data(len: usize, base: u32) -> Vec<u32> {
    (0..len as u32).map(|i| base + i).collect()
}

/// Whether `a` and `b` interleave one axis by factors neither of which divides the other:
/// the only pairs one plan may not hold (more phases than `MAX_NESTS`), which the run-time
/// kernels plan in windows.
fn may_conflict<const N: usize>(a: &InterleavedLayout<N>, b: &InterleavedLayout<N>) -> bool {
    let (x, y) = (a.interleave(), b.interleave());
    let (f, g) = (x.factor(), y.factor());
    x.dimension() == y.dimension() && f % g != 0 && g % f != 0
}

/// [`check_pair`]; where one plan cannot hold the pair (only where [`may_conflict`] allows),
/// the prepared plans refuse it and the run-time kernels plan it in windows. Whether it
/// took windows.
fn check_or_conflict<const N: usize>(
    src: &InterleavedLayout<N>,
    dst: &InterleavedLayout<N>,
) -> bool {
    let windows = CopyPlan::of(src, dst) == Err(LayoutError::InterleaveConflict);
    assert!(!windows || may_conflict(src, dst));
    check_pair_with(src, dst, !windows);
    windows
}

/// Checks every kernel for one pair (`src` to `dst`; `zip_map` adds `dst`'s layout as the
/// second source) against the model.
fn check_pair<const N: usize>(src: &InterleavedLayout<N>, dst: &InterleavedLayout<N>) {
    check_pair_with(src, dst, true);
}

/// [`check_pair`]; the prepared plans checked when `prepared`, else checked to refuse with
/// `InterleaveConflict` (more pieces than a plan holds).
fn check_pair_with<const N: usize>(
    src: &InterleavedLayout<N>,
    dst: &InterleavedLayout<N>,
    prepared: bool,
) {
    let shape = src.shape();
    let what = || format!("{:?} -> {:?}", src.lowered(), dst.lowered());
    let (sl, dl) = (len_of(src), len_of(dst));
    let (a, b) = (data(sl, 1000), data(dl, 50_000));
    let fresh = || vec![SENTINEL; dl + GUARD];
    let pairs = model(shape, &[src, dst]);
    let expect = |f: &dyn Fn(u32, u32) -> u32| {
        let mut want = fresh();
        for p in &pairs {
            want[p[1]] = f(a[p[0]], b[p[1]]);
        }
        want
    };

    let want = expect(&|x, _| x);
    let mut got = fresh();
    assert_eq!(
        strided_layout::copy(&a, src, &mut got[..dl], dst),
        Ok(()),
        "copy {}",
        what()
    );
    assert_eq!(got, want, "copy {}", what());

    if prepared {
        let mut got = fresh();
        let plan = CopyPlan::of(src, dst).unwrap_or_else(|e| panic!("CopyPlan {}: {e}", what()));
        assert_eq!(plan.run(&a, &mut got[..dl]), Ok(()), "CopyPlan {}", what());
        assert_eq!(got, want, "CopyPlan {}", what());
        let low = CopyPlan::from_lowered(&src.lowered(), &dst.lowered()).unwrap();
        assert_eq!(low, plan, "from_lowered {}", what());
    } else {
        let conflict = Err(LayoutError::InterleaveConflict);
        assert_eq!(CopyPlan::of(src, dst).map(|_| ()), conflict, "{}", what());
        assert_eq!(ZipMapPlan::of(src, dst, dst).map(|_| ()), conflict, "{}", what());
        // With room for every piece a plan can have, the prepared plan holds them all, each
        // a nest, and copies as the model says.
        let plan = CopyPlan::<MAX_PIECES>::with_nests(src, dst)
            .unwrap_or_else(|e| panic!("CopyPlan::<MAX_PIECES> {}: {e}", what()));
        assert!(plan.plan().nests().len() > MAX_NESTS, "{}", what());
        let mut got = fresh();
        assert_eq!(plan.run(&a, &mut got[..dl]), Ok(()), "CopyPlan::<MAX_PIECES> {}", what());
        assert_eq!(got, want, "CopyPlan::<MAX_PIECES> {}", what());
    }

    let want = expect(&|x, _| x.wrapping_mul(3) ^ 1);
    let mut got = fresh();
    let mapped = strided_layout::map(&a, src, &mut got[..dl], dst, |x: u32| x.wrapping_mul(3) ^ 1);
    assert_eq!(mapped, Ok(()), "map {}", what());
    assert_eq!(got, want, "map {}", what());

    let want = expect(&|x, y| x.wrapping_add(y.wrapping_mul(7)));
    let mut got = fresh();
    let f = |x: u32, y: u32| x.wrapping_add(y.wrapping_mul(7));
    let zipped = strided_layout::zip_map(&a, src, &b, dst, &mut got[..dl], dst, f);
    assert_eq!(zipped, Ok(()), "zip_map {}", what());
    assert_eq!(got, want, "zip_map {}", what());

    if !prepared {
        return;
    }
    let mut got = fresh();
    let plan =
        ZipMapPlan::of(src, dst, dst).unwrap_or_else(|e| panic!("ZipMapPlan {}: {e}", what()));
    assert_eq!(
        plan.run(&a, &b, &mut got[..dl], f),
        Ok(()),
        "ZipMapPlan {}",
        what()
    );
    assert_eq!(got, want, "ZipMapPlan {}", what());
}

/// Every pair of operands of every shape of rank `N` in the scope; the number of pairs
/// copied through one plan and in windows.
fn every_pair<const N: usize>(sc: &Scope) -> (usize, usize) {
    let (mut n, mut windowed) = (0, 0);
    let mut shape = [0usize; N];
    let mut idx = [0usize; N];
    loop {
        for k in 0..N {
            shape[k] = sc.extents[idx[k]];
        }
        let ops = operands(shape, sc);
        for s in &ops {
            for d in &ops {
                if check_or_conflict(s, d) {
                    windowed += 1;
                } else {
                    n += 1;
                }
            }
        }
        let mut k = N;
        loop {
            if k == 0 {
                eprintln!("rank {N}: {n} pairs copied through one plan, {windowed} in windows");
                return (n, windowed);
            }
            k -= 1;
            idx[k] += 1;
            if idx[k] < sc.extents.len() {
                break;
            }
            idx[k] = 0;
        }
    }
}

#[test]
fn every_pair_rank1_matches_the_model() {
    let (copied, windowed) = every_pair::<1>(scope(&FULL, &MIRI));
    assert!(copied > windowed && windowed > 0);
}

#[test]
fn every_pair_rank2_matches_the_model() {
    let full = if common::small_scope::quick() {
        &QUICK
    } else {
        &FULL
    };
    let (copied, windowed) = every_pair::<2>(scope(full, &MIRI));
    assert!(copied > windowed && windowed > 0);
}

#[test]
fn every_pair_rank3_matches_the_model() {
    let full = if common::small_scope::quick() {
        &QUICK3
    } else {
        &RANK3
    };
    let (copied, windowed) = every_pair::<3>(scope(full, &MIRI3));
    // Miri's rank-3 scope (extents 3) is cut into at most three pieces.
    assert!(copied > windowed && (windowed > 0 || cfg!(miri)));
}

/// An nChw8c or nChw16c layout of `[n, c, h, w]` (`c` in blocks of `f`, the block innermost).
fn nchw_blocked(shape: [usize; 4], f: usize) -> InterleavedLayout<4> {
    InterleavedLayout::dense(shape, 4, InterleaveLayout::new(1, f).unwrap()).unwrap()
}

#[test]
#[cfg_attr(
    miri,
    ignore = "thousands of elements: slow under Miri; the pair scope covers the same paths"
)]
fn copy_nchw8c_to_nchw16c_is_one_nest_and_matches_the_model() {
    let shape = [2, 32, 3, 5];
    let (src, dst) = (nchw_blocked(shape, 8), nchw_blocked(shape, 16));
    check_pair(&src, &dst);
    check_pair(&dst, &src);
    let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
    assert_eq!(plan.nests().len(), 1, "{plan}");
    // The innermost loop is the run of 8 channels, contiguous in both.
    let inner = plan.nests()[0].loops().last().copied().unwrap();
    assert_eq!((inner.extent, inner.strides), (8, [1, 1]), "{plan}");
}

#[test]
#[cfg_attr(
    miri,
    ignore = "thousands of elements: slow under Miri; the pair scope covers the same paths"
)]
fn copy_nchw8c_to_nchw16c_writes_destination_lines_whole() {
    // H·W = 120 positions of 64-byte destination lines: the positions outside the two
    // blocks of 8 channels, so the two halves of each line are written back to back (the
    // kernel runs the positions in strips inside the two blocks, many rows a call).
    let shape = [2, 48, 10, 12];
    let (src, dst) = (nchw_blocked(shape, 8), nchw_blocked(shape, 16));
    check_pair(&src, &dst);
    let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
    let loops = plan.nests()[0].loops();
    let tail: Vec<_> = loops[loops.len() - 3..]
        .iter()
        .map(|l| (l.extent, l.strides))
        .collect();
    assert_eq!(tail, [(120, [16, 8]), (2, [8, 960]), (8, [1, 1])], "{plan}");
    assert_eq!(plan.volume(), 2 * 48 * 120);
}

#[test]
#[cfg_attr(
    miri,
    ignore = "thousands of elements: slow under Miri; the pair scope covers the same paths"
)]
fn copy_nchw8c_to_nchw16c_with_partial_blocks_matches_the_model() {
    for c in [1, 7, 8, 9, 15, 16, 17, 20, 24, 33] {
        let shape = [1, c, 2, 3];
        check_pair(&nchw_blocked(shape, 8), &nchw_blocked(shape, 16));
        check_pair(&nchw_blocked(shape, 16), &nchw_blocked(shape, 8));
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "thousands of elements: slow under Miri; the pair scope covers the same paths"
)]
fn copy_blocks_of_4_to_blocks_of_8_matches_the_model() {
    for e in [0, 3, 4, 8, 11, 12, 16, 29] {
        let il =
            |f| InterleavedLayout::dense([e, 3], 4, InterleaveLayout::new(0, f).unwrap()).unwrap();
        check_pair(&il(4), &il(8));
        check_pair(&il(8), &il(4));
    }
}

#[test]
fn copy_blocks_of_4_to_blocks_of_6_uses_one_nest_per_phase() {
    // gcd 2, lcm 12, an axis of 7: three phases of two lanes, then the last index.
    let il = |f| InterleavedLayout::dense([7, 2], 4, InterleaveLayout::new(0, f).unwrap()).unwrap();
    check_pair(&il(4), &il(6));
    let plan = Plan::new(&[il(6).lowered(), il(4).lowered()]).unwrap();
    assert_eq!(plan.nests().len(), 4, "{plan}");
    assert_eq!(plan.volume(), 14);
}

#[test]
fn copy_interleaved_on_another_axis_matches_the_model() {
    let a = InterleavedLayout::dense([6, 5, 4], 4, InterleaveLayout::new(0, 4).unwrap()).unwrap();
    let b = InterleavedLayout::dense([6, 5, 4], 4, InterleaveLayout::new(2, 3).unwrap()).unwrap();
    check_pair(&a, &b);
    check_pair(&b, &a);
    // Full and tail blocks of each: four pieces.
    let plan = Plan::new(&[b.lowered(), a.lowered()]).unwrap();
    assert_eq!(plan.nests().len(), 4, "{plan}");
    assert_eq!(plan.volume(), 120);
}

#[test]
fn copy_factor_1_on_two_different_axes_is_a_plain_copy() {
    let a = InterleavedLayout::dense([3, 4], 4, InterleaveLayout::new(0, 1).unwrap()).unwrap();
    let b = InterleavedLayout::dense([3, 4], 4, InterleaveLayout::new(1, 1).unwrap()).unwrap();
    check_pair(&a, &b);
    let plan = Plan::new(&[b.lowered(), a.lowered()]).unwrap();
    assert_eq!(plan.nests().len(), 1, "{plan}");
    let plain = Layout::dense([3, 4], 4, Order::C).unwrap();
    assert_eq!(
        plan,
        Plan::new(&[plain.lowered(), plain.lowered()]).unwrap()
    );
}

#[test]
fn copy_empty_between_different_interleaves_writes_nothing() {
    let a = InterleavedLayout::dense([4, 0, 3], 4, InterleaveLayout::new(0, 2).unwrap()).unwrap();
    let b = InterleavedLayout::dense([4, 0, 3], 4, InterleaveLayout::new(2, 3).unwrap()).unwrap();
    let mut dst = [SENTINEL; 4];
    assert_eq!(strided_layout::copy(&[1u32; 0], &a, &mut dst, &b), Ok(()));
    assert_eq!(dst, [SENTINEL; 4]);
    assert_eq!(
        CopyPlan::of(&a, &b).map(|p| (p.src_len(), p.dst_len())),
        Ok((0, 0))
    );
    check_pair(&a, &b);
}

#[test]
fn copy_three_factors_on_one_axis_plans_as_a_chain() {
    // zip_map of blocks of 2, 4 and 8 on one axis of 21: 8 | whole blocks, 4, 2, 1 left.
    let il =
        |f| InterleavedLayout::dense([21, 2], 4, InterleaveLayout::new(0, f).unwrap()).unwrap();
    let plan = Plan::new(&[il(8).lowered(), il(4).lowered(), il(2).lowered()]).unwrap();
    assert_eq!(plan.volume(), 42);
    assert!(plan.nests().len() <= 4, "{plan}");
    let (a, b) = (data(len_of(&il(4)), 1), data(len_of(&il(2)), 100));
    let mut got = vec![SENTINEL; len_of(&il(8))];
    strided_layout::zip_map(&a, &il(4), &b, &il(2), &mut got, &il(8), |x, y| {
        x * 1000 + y
    })
    .unwrap();
    for p in model([21, 2], &[&il(4), &il(2), &il(8)]) {
        assert_eq!(got[p[2]], a[p[0]] * 1000 + b[p[1]]);
    }
}

#[test]
fn kernels_plan_more_pieces_than_max_nests_in_windows() {
    // Blocks of 4 and of 6 on one axis of 25: six phases and a last index, seven pieces,
    // more than one plan holds: the prepared plans refuse, the run-time kernels plan them
    // a window at a time, every one against the model.
    let il = |f| InterleavedLayout::dense([25], 4, InterleaveLayout::new(0, f).unwrap()).unwrap();
    const { assert!(7 > strided_layout::plan::MAX_NESTS) };
    assert_eq!(
        Plan::new(&[il(6).lowered(), il(4).lowered()]),
        Err(LayoutError::InterleaveConflict)
    );
    // copy, map and zip_map (and the prepared plans' refusal).
    check_or_conflict(&il(4), &il(6));
    assert!(check_or_conflict(&il(6), &il(4)));
    let pairs = model([25], &[&il(4), &il(6)]);
    // fill: every element of the layout, nothing else.
    let mut got = vec![SENTINEL; len_of(&il(6)) + GUARD];
    strided_layout::fill(&mut got[..len_of(&il(6))], &il(6), 7).unwrap();
    let mut want = vec![SENTINEL; len_of(&il(6)) + GUARD];
    for p in &pairs {
        want[p[1]] = 7;
    }
    assert_eq!(got, want);
    // fold: every element once, in some order.
    let a = data(len_of(&il(4)), 1);
    let sum = strided_layout::fold(&a, &il(4), 0u64, |s, x| s + u64::from(x) * u64::from(x)).unwrap();
    let want: u64 = pairs.iter().map(|p| u64::from(a[p[0]]) * u64::from(a[p[0]])).sum();
    assert_eq!(sum, want);
    let count = strided_layout::fold(&a, &il(4), 0usize, |n, _| n + 1).unwrap();
    assert_eq!(count, 25);
    // copy_within: both layouts in one buffer, apart (the destination after the source).
    let shift = len_of(&il(4)) as isize;
    let (src, dst) = (il(4), il(6).with_offset(shift).unwrap());
    let mut buf = data(len_of(&dst), 1);
    let before = buf.clone();
    strided_layout::copy_within(&mut buf, &src, &dst).unwrap();
    let mut want = before.clone();
    for p in &pairs {
        want[p[1] + shift as usize] = before[p[0]];
    }
    assert_eq!(buf, want);
    // In place, one layout onto itself coincides: nothing moves.
    let mut same = before.clone();
    strided_layout::copy_within(&mut same, &il(6), &il(6)).unwrap();
    assert_eq!(same, before);
    // Overlapping without coinciding, across two windows: refused, untouched.
    let mut buf = before.clone();
    let near = il(6).with_offset(1).unwrap();
    assert_eq!(
        strided_layout::copy_within(&mut buf, &il(4), &near),
        Err(LayoutError::OperandsOverlap)
    );
    assert_eq!(buf, before);
    // A slice too short for the last window's offsets: refused with the whole layout's
    // needed length, untouched.
    let mut short = vec![SENTINEL; len_of(&il(6)) - 1];
    assert_eq!(
        strided_layout::copy(&a, &il(4), &mut short, &il(6)),
        Err(LayoutError::OffsetOutsideSlice {
            operand: strided_layout::Operand::Destination,
            needed: len_of(&il(6)),
            given: len_of(&il(6)) - 1,
        })
    );
    assert!(short.iter().all(|&x| x == SENTINEL));
}

#[test]
fn windows_whose_destinations_meet_are_refused_untouched() {
    // Blocks of 4 against blocks of 6 on an axis of 25 (seven pieces, two windows), the
    // destination's block stride cut so that blocks overlap: pieces of two windows (and of
    // one) write one element; refused before anything is written. Also stride 0 on the
    // lanes (every piece repeats within itself).
    let src = InterleavedLayout::dense([25], 4, InterleaveLayout::new(0, 4).unwrap()).unwrap();
    let a = data(len_of(&src), 1);
    let il = InterleaveLayout::new(0, 6).unwrap();
    let mut refused = 0;
    for stride in 1..=4isize {
        let dst = InterleavedLayout::new([25], [stride], 4, il).unwrap();
        let mut got = vec![SENTINEL; len_of(&dst)];
        let r = strided_layout::copy(&a, &src, &mut got, &dst);
        if distinct_offsets(&dst) {
            assert_eq!(r, Ok(()), "stride {stride}");
        } else {
            assert_eq!(r, Err(LayoutError::DestinationNotUnique), "stride {stride}");
            assert!(got.iter().all(|&x| x == SENTINEL));
            let mut got = vec![SENTINEL; len_of(&dst)];
            let r = strided_layout::map(&a, &src, &mut got, &dst, |x| x);
            assert_eq!(r, Err(LayoutError::DestinationNotUnique), "stride {stride}");
            assert!(got.iter().all(|&x| x == SENTINEL));
            refused += 1;
        }
    }
    assert!(refused > 0);
}

#[test]
fn copy_to_a_destination_that_repeats_across_pieces_is_refused_untouched() {
    // Source interleaved on axis 1 by 3, destination on axis 0 by 2 with small strides: four
    // pieces; a destination whose offsets repeat (within a piece or across two) is refused.
    let shape = [3, 4];
    let src = InterleavedLayout::dense(shape, 4, InterleaveLayout::new(1, 3).unwrap()).unwrap();
    let a = data(len_of(&src), 1);
    let (mut refused, mut copied) = (0, 0);
    for s0 in -3..=3isize {
        for s1 in -3..=3isize {
            let il = InterleaveLayout::new(0, 2).unwrap();
            let raw = InterleavedLayout::new(shape, [s0, s1], 4, il).unwrap();
            let lo = raw.offset_bounds().unwrap().0;
            let dst = raw.with_offset(-lo).unwrap();
            let mut got = vec![SENTINEL; len_of(&dst)];
            let r = strided_layout::copy(&a, &src, &mut got, &dst);
            if distinct_offsets(&dst) {
                assert_eq!(r, Ok(()), "strides {s0} {s1}");
                copied += 1;
            } else {
                assert!(
                    matches!(
                        r,
                        Err(LayoutError::DestinationNotUnique | LayoutError::UniquenessUndecided)
                    ),
                    "strides {s0} {s1}: {r:?}"
                );
                assert!(got.iter().all(|&x| x == SENTINEL));
                refused += 1;
            }
        }
    }
    assert!(refused > 0 && copied > 0);
}

/// Rows of `n` elements of `T`, `gap` elements apart in the source, packed in the destination:
/// every row copied, nothing else touched.
fn check_rows<T: Copy + PartialEq + std::fmt::Debug + From<u8> + 'static>(n: usize, gap: usize) {
    let rows = 5;
    let size = size_of::<T>();
    let src_l = Layout::new([rows, n], [(n + gap) as isize, 1], size).unwrap();
    let dst_l = Layout::dense([rows, n], size, Order::C).unwrap();
    let src: Vec<T> = (0..rows * (n + gap)).map(|i| T::from(i as u8)).collect();
    let mut dst = vec![T::from(255); rows * n + GUARD];
    strided_layout::copy(&src, &src_l, &mut dst[..rows * n], &dst_l).unwrap();
    for r in 0..rows {
        for j in 0..n {
            assert_eq!(
                dst[r * n + j],
                src[r * (n + gap) + j],
                "row {r} lane {j}, n {n}"
            );
        }
    }
    assert!(dst[rows * n..].iter().all(|&x| x == T::from(255)));
}

#[test]
fn copy_of_short_rows_matches_the_model_at_every_row_size() {
    for n in 1..=20 {
        check_rows::<u8>(n, 3);
        check_rows::<u16>(n, 1);
        check_rows::<u32>(n, 2);
        check_rows::<u64>(n, 1);
    }
}

#[test]
#[cfg_attr(
    miri,
    ignore = "thousands of elements: slow under Miri; the pair scope covers the same paths"
)]
fn copy_nchw8c_to_nchw16c_in_strips_of_every_length_matches_the_model() {
    // H·W positions: fewer than one strip of 64, several with a partial last one, a whole
    // number of them; with a partial last block of 16 too (C = 40).
    for hw in [(1, 7), (5, 13), (8, 16), (13, 23)] {
        for c in [16, 32, 40] {
            let shape = [1, c, hw.0, hw.1];
            check_pair(&nchw_blocked(shape, 8), &nchw_blocked(shape, 16));
            check_pair(&nchw_blocked(shape, 16), &nchw_blocked(shape, 8));
        }
    }
}
