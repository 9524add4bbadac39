//! Ranks past `MAX_LOOPS` whose axes merge nowhere: the loops a nest cannot hold are peeled
//! into pieces (a nest per combination of their indices), planned in one plan up to
//! `MAX_NESTS` pieces (or the `M` a plan is made `with_nests`) and by the run-time kernels a
//! window at a time, as many as there are (checked whole, not piece against piece); every
//! kernel against the model (each index's offsets in both layouts), refusals untouched.

use strided_layout::plan::{MAX_LOOPS, MAX_NESTS, MAX_PIECES, Plan};
#[allow(unused_imports)]
use strided_layout::plan::Mapping as _;
use strided_layout::{CopyPlan, CopyWithinPlan, FillPlan, Layout, LayoutError, Operand, Order, ZipMapPlan};

const SENTINEL: u32 = 0xdead_beef;

/// `k`-th power strides of base `b`, the last axis fastest: no two axes merge when `b` is
/// larger than the extents.
fn powers<const R: usize>(extent: usize, b: isize) -> Layout<R> {
    Layout::new([extent; R], core::array::from_fn(|k| b.pow((R - 1 - k) as u32)), 4).unwrap()
}

fn data(len: usize, seed: u32) -> Vec<u32> {
    (0..len as u32).map(|i| i.wrapping_mul(2_654_435_761).wrapping_add(seed) >> 3).collect()
}

/// Every index's `[dst offset, src offset]` (the model of a copy), in C order: the tests'
/// own offsets (`common::offsets`), not the library's `offset_of`.
fn pairs<const R: usize>(dst: &Layout<R>, src: &Layout<R>) -> Vec<[usize; 2]> {
    assert_eq!(dst.shape(), src.shape(), "pairs: one shape");
    let (d, s) = (crate::common::offsets(dst), crate::common::offsets(src));
    d.into_iter().zip(s).map(|(d, s)| [d as usize, s as usize]).collect()
}

fn len<const R: usize>(l: &Layout<R>) -> usize {
    l.required_len().unwrap()
}

/// A destination slice one short of the whole layout's last offset: the whole layout's
/// length is named, nothing written.
fn refuses_one_short<const R: usize>(a: &[u32], src: &Layout<R>, dst: &Layout<R>) {
    let mut short = vec![SENTINEL; len(dst) - 1];
    assert_eq!(
        strided_layout::copy(a, src, &mut short, dst),
        Err(LayoutError::OffsetOutsideSlice {
            operand: Operand::Destination,
            needed: len(dst),
            given: len(dst) - 1,
        })
    );
    assert!(short.iter().all(|&x| x == SENTINEL));
}

/// Extent 2 on 12 axes, C order into F order: each alone is one loop, together no two axes
/// merge (every axis reversed): 4 loops past a nest's, 16 pieces, 4 windows, in 4096
/// elements.
fn twelve() -> (Layout<12>, Layout<12>) {
    let src = Layout::dense([2; 12], 4, Order::C).unwrap();
    let dst = Layout::dense([2; 12], 4, Order::F).unwrap();
    (src, dst)
}

#[test]
#[cfg_attr(miri, ignore = "hundreds of thousands of elements; `peel::small_ranks_past_max_loops_under_miri` runs the same paths small")]
fn every_kernel_of_a_rank_past_max_loops_matches_the_model() {
    let (src, dst) = twelve();
    const { assert!(16 > MAX_NESTS && 16 <= MAX_PIECES && 12 > MAX_LOOPS) };
    assert_eq!(
        Plan::new(&[dst.lowered(), src.lowered()]),
        Err(LayoutError::RankOverflow { max: MAX_LOOPS })
    );
    let model = pairs(&dst, &src);
    let a = data(len(&src), 1);
    // copy
    let mut got = vec![SENTINEL; len(&dst) + 3];
    strided_layout::copy(&a, &src, &mut got[..len(&dst)], &dst).unwrap();
    let mut want = vec![SENTINEL; len(&dst) + 3];
    for &[d, s] in &model {
        want[d] = a[s];
    }
    assert_eq!(got, want);
    // map
    let mut got = vec![SENTINEL; len(&dst)];
    strided_layout::map(&a, &src, &mut got, &dst, |x| x ^ 0x55).unwrap();
    for &[d, s] in &model {
        assert_eq!(got[d], a[s] ^ 0x55);
    }
    // zip_map, the second source C-dense
    let c = Layout::dense([2; 12], 4, Order::C).unwrap();
    let b = data(len(&c), 2);
    let mut got = vec![SENTINEL; len(&dst)];
    strided_layout::zip_map(&a, &src, &b, &c, &mut got, &dst, |x, y| x.wrapping_add(y)).unwrap();
    for i in dst.indices() {
        let (d, s, t) = (dst.offset_of(i).unwrap(), src.offset_of(i).unwrap(), c.offset_of(i).unwrap());
        assert_eq!(got[d as usize], a[s as usize].wrapping_add(b[t as usize]));
    }
    // fill and fold take one layout: one that merges nowhere alone (strides 3^k, 16 pieces
    // too), its elements only, each once.
    let one = powers::<12>(2, 3);
    assert_eq!(Plan::new(&[one.lowered()]), Err(LayoutError::RankOverflow { max: MAX_LOOPS }));
    let offs: Vec<usize> = one.indices().map(|i| one.offset_of(i).unwrap() as usize).collect();
    let mut got = vec![SENTINEL; len(&one) + 2];
    strided_layout::fill(&mut got[..len(&one)], &one, 7).unwrap();
    let mut want = vec![SENTINEL; len(&one) + 2];
    for &o in &offs {
        want[o] = 7;
    }
    assert_eq!(got, want);
    let b = data(len(&one), 4);
    let sum = strided_layout::fold(&b, &one, 0u64, |acc, x| acc + u64::from(x)).unwrap();
    assert_eq!(sum, offs.iter().map(|&o| u64::from(b[o])).sum::<u64>());
    assert_eq!(strided_layout::fold(&b, &one, 0usize, |n, _| n + 1), Ok(4096));
    // copy_within, the destination after the source
    let shift = len(&src);
    let moved = dst.with_offset(shift as isize).unwrap();
    let before = data(shift + len(&dst), 3);
    let mut buf = before.clone();
    strided_layout::copy_within(&mut buf, &src, &moved).unwrap();
    let mut want = before.clone();
    for &[d, s] in &model {
        want[d + shift] = before[s];
    }
    assert_eq!(buf, want);
    // One plan: the prepared plan refuses. copy_uninit plans in windows, as copy, the
    // destination checked dense over all of them first.
    assert_eq!(CopyPlan::new(&src, &dst).err(), Some(LayoutError::RankOverflow { max: MAX_LOOPS }));
    let mut un = vec![core::mem::MaybeUninit::new(SENTINEL); len(&dst)];
    let got = strided_layout::copy_uninit(&a, &src, &mut un, &dst).unwrap();
    let mut want = vec![SENTINEL; len(&dst)];
    for &[d, s] in &model {
        want[d] = a[s];
    }
    assert_eq!(got, &want[..]);
    #[cfg(all(feature = "rayon", not(miri)))]
    {
        let mut one = vec![SENTINEL; len(&dst)];
        strided_layout::copy(&a, &src, &mut one, &dst).unwrap();
        let mut par = vec![SENTINEL; len(&dst)];
        strided_layout::par_copy(&a, &src, &mut par, &dst).unwrap();
        assert_eq!(par, one);
        let mut par = vec![SENTINEL; len(&dst)];
        strided_layout::par_map(&a, &src, &mut par, &dst, |x| x).unwrap();
        assert_eq!(par, one);
        let mut par = vec![SENTINEL; len(&dst)];
        strided_layout::par_fill(&mut par, &dst, 9).unwrap();
        assert!(model.iter().all(|&[d, _]| par[d] == 9));
    }
}

#[test]
#[cfg_attr(miri, ignore = "hundreds of thousands of elements; `peel::small_ranks_past_max_loops_under_miri` runs the same paths small")]
fn a_rank_whose_pieces_fit_one_plan_takes_every_plan() {
    // Rank 9: one loop past a nest's, 2 pieces: Plan::new, the prepared plan and copy_uninit
    // hold them.
    let src = powers::<9>(2, 3).flipped(4).unwrap(); // 9,842 elements
    let dst = Layout::dense([2; 9], 4, Order::F).unwrap();
    let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
    assert_eq!(plan.nests().len(), 2);
    assert!(plan.nests().iter().all(|n| n.loops().len() <= MAX_LOOPS));
    let a = data(len(&src), 4);
    let mut want = vec![SENTINEL; len(&dst)];
    for [d, s] in pairs(&dst, &src) {
        want[d] = a[s];
    }
    let prepared = CopyPlan::new(&src, &dst).unwrap();
    let mut got = vec![SENTINEL; len(&dst)];
    prepared.run(&a, &mut got).unwrap();
    assert_eq!(got, want);
    let mut un = vec![core::mem::MaybeUninit::new(SENTINEL); len(&dst)];
    let got = strided_layout::copy_uninit(&a, &src, &mut un, &dst).unwrap();
    assert_eq!(got, &want[..]);
    // Axes that merge once ordered are not peeled: an F-order copy of rank 12 is one loop.
    let f = twelve().1.flipped(3).unwrap();
    let plan = Plan::new(&[f.lowered(), f.lowered()]).unwrap();
    assert_eq!((plan.nests().len(), plan.nests()[0].loops().len()), (1, 1));
}

#[test]
#[cfg_attr(miri, ignore = "hundreds of thousands of elements; `peel::small_ranks_past_max_loops_under_miri` runs the same paths small")]
fn random_layouts_past_max_loops_copy_as_the_model_says_or_are_refused_untouched() {
    // Rank 10, extents 1 to 3 (mostly 2 and 3), each side a dense buffer in a random axis
    // order with random flips and gaps (steps of 2 that stop merges): every one copies as the
    // model says, however many pieces its peeled loops make.
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move |n: u64| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed % n
    };
    let (mut copied, mut peeled, mut windowed) = (0, 0, 0);
    for _ in 0..if cfg!(miri) { 3 } else { 300 } {
        let shape: [usize; 10] = core::array::from_fn(|_| [1, 2, 2, 3][next(4) as usize]);
        let mut side = || {
            let mut order: [usize; 10] = core::array::from_fn(|k| k);
            for i in (1..10).rev() {
                order.swap(i, next(i as u64 + 1) as usize);
            }
            let mut strides = [0isize; 10];
            let mut step = 1isize;
            for &k in order.iter().rev() {
                strides[k] = step;
                step *= shape[k] as isize * (1 + next(2) as isize);
            }
            let mut l = Layout::new(shape, strides, 4).unwrap();
            for k in 0..10 {
                if next(3) == 0 {
                    l = l.flipped(k).unwrap();
                }
            }
            l
        };
        let (src, dst) = (side(), side());
        let a = data(len(&src), 5);
        let mut got = vec![SENTINEL; len(&dst)];
        match Plan::new(&[dst.lowered(), src.lowered()]) {
            Ok(p) if p.nests().len() > 1 => peeled += 1,
            Err(_) => windowed += 1,
            Ok(_) => {}
        }
        match strided_layout::copy(&a, &src, &mut got, &dst) {
            Ok(()) => {
                let mut want = vec![SENTINEL; len(&dst)];
                for [d, s] in pairs(&dst, &src) {
                    want[d] = a[s];
                }
                assert_eq!(got, want, "{src:?} -> {dst:?}");
                copied += 1;
            }
            Err(e) => panic!("{e:?}: {src:?} -> {dst:?}"),
        }
    }
    if !cfg!(miri) {
        assert!(
            copied == 300 && peeled > 10 && windowed >= 5,
            "copied {copied}, peeled {peeled}, windowed {windowed}"
        );
    }
}

#[test]
#[cfg_attr(miri, ignore = "hundreds of thousands of elements; `peel::small_ranks_past_max_loops_under_miri` runs the same paths small")]
fn destinations_that_meet_across_pieces_are_refused_untouched() {
    // C order into F order with the destination's two outermost axes one step apart: the
    // peeled loops' pieces write the same elements. Rank 9 (two pieces, one plan) and rank 12
    // (windows).
    fn check<const R: usize>() {
        let src = Layout::dense([2; R], 4, Order::C).unwrap();
        let mut s: [isize; R] = core::array::from_fn(|k| 1 << k);
        s[R - 1] = s[R - 2];
        let dst = Layout::new([2; R], s, 4).unwrap();
        assert!(!dst.is_unique());
        let a = data(len(&src), 6);
        let mut got = vec![SENTINEL; len(&dst)];
        assert_eq!(
            strided_layout::copy(&a, &src, &mut got, &dst),
            Err(LayoutError::DestinationNotUnique)
        );
        assert_eq!(
            strided_layout::map(&a, &src, &mut got, &dst, |x| x),
            Err(LayoutError::DestinationNotUnique)
        );
        assert!(got.iter().all(|&x| x == SENTINEL));
        // The same destination filled is fine (fill needs no unique destination).
        strided_layout::fill(&mut got, &dst, 1).unwrap();
        assert_eq!(got.iter().filter(|&&x| x == 1).count(), 3 << (R - 2));
    }
    check::<9>();
    check::<12>();
}

#[test]
#[cfg_attr(miri, ignore = "hundreds of thousands of elements; `peel::small_ranks_past_max_loops_under_miri` runs the same paths small")]
fn in_place_past_max_loops_coincides_overlaps_or_is_too_short() {
    let (src, dst) = twelve();
    let before = data(len(&src) + 1, 7);
    // The destination one element over: overlapping without coinciding, refused, untouched.
    let mut buf = before.clone();
    let near = dst.with_offset(1).unwrap();
    assert_eq!(
        strided_layout::copy_within(&mut buf, &src, &near),
        Err(LayoutError::OperandsOverlap)
    );
    assert_eq!(buf, before);
    // A destination slice one short of the whole layout's last offset: the whole layout's
    // length is named, nothing written.
    let a = data(len(&src), 8);
    refuses_one_short(&a, &src, &dst);
    // One layout onto itself coincides: nothing moves (a layout that merges nowhere alone:
    // strides 3^k, 265,720 elements; natively only).
    if !cfg!(miri) {
        let l = powers::<12>(2, 3);
        let before = data(len(&l), 9);
        let mut buf = before.clone();
        strided_layout::copy_within(&mut buf, &l, &l).unwrap();
        assert_eq!(buf, before);
    }
}

/// Extents 2 on axes 0-7 and 3 on axes 8-11; strides in F order with a gap after every axis
/// (`Π_{j<k} (e_j + 1)`), so that no two axes merge: the 4 axes of extent 3 are peeled, 81
/// pieces.
fn gapped() -> Layout<12> {
    let shape: [usize; 12] = core::array::from_fn(|k| if k < 8 { 2 } else { 3 });
    let mut strides = [0isize; 12];
    let mut step = 1isize;
    for k in 0..12 {
        strides[k] = step;
        step *= shape[k] as isize + 1;
    }
    Layout::new(shape, strides, 4).unwrap()
}

#[test]
#[cfg_attr(miri, ignore = "millions of elements; `peel::small_ranks_past_max_loops_under_miri` runs the same paths small")]
fn more_pieces_than_max_pieces_plan_window_by_window_checked_whole() {
    // C order into F order, extents 2 then 3: the loops of extent 3 are the destination's
    // outermost and are peeled, 3^4 = 81 pieces (21 windows), past MAX_PIECES (a bound for
    // differently blocked operands, which are checked piece against piece).
    const { assert!(81 > MAX_PIECES) };
    let shape = gapped().shape();
    let src = Layout::dense(shape, 4, Order::C).unwrap();
    let dst = Layout::dense(shape, 4, Order::F).unwrap();
    let model = pairs(&dst, &src);
    let a = data(len(&src), 12);
    let mut want = vec![SENTINEL; len(&dst) + 1];
    for &[d, s] in &model {
        want[d] = a[s];
    }
    let mut got = vec![SENTINEL; len(&dst) + 1];
    strided_layout::copy(&a, &src, &mut got[..len(&dst)], &dst).unwrap();
    assert_eq!(got, want);
    let mut got = vec![SENTINEL; len(&dst) + 1];
    strided_layout::map(&a, &src, &mut got[..len(&dst)], &dst, |x| x).unwrap();
    assert_eq!(got, want);
    // One layout that merges nowhere alone: fill and fold, 81 pieces too.
    let one = gapped();
    let offs: Vec<usize> = one.indices().map(|i| one.offset_of(i).unwrap() as usize).collect();
    let mut got = vec![SENTINEL; len(&one)];
    strided_layout::fill(&mut got, &one, 5).unwrap();
    assert_eq!(got.iter().filter(|&&x| x == 5).count(), offs.len());
    assert!(offs.iter().all(|&o| got[o] == 5));
    let b = data(len(&one), 13);
    let sum = strided_layout::fold(&b, &one, 0u64, |acc, x| acc + u64::from(x)).unwrap();
    assert_eq!(sum, offs.iter().map(|&o| u64::from(b[o])).sum::<u64>());
    // In place: apart (the destination after the source), overlapping (one element over:
    // refused, untouched), coinciding (nothing moves).
    let shift = len(&src);
    let before = data(shift + len(&dst), 14);
    let mut buf = before.clone();
    strided_layout::copy_within(&mut buf, &src, &dst.with_offset(shift as isize).unwrap())
        .unwrap();
    let mut moved = before.clone();
    for &[d, s] in &model {
        moved[d + shift] = before[s];
    }
    assert!(buf == moved);
    let mut buf = before.clone();
    assert_eq!(
        strided_layout::copy_within(&mut buf, &src, &dst.with_offset(1).unwrap()),
        Err(LayoutError::OperandsOverlap)
    );
    assert!(buf == before);
    let before = data(len(&one), 15);
    let mut buf = before.clone();
    strided_layout::copy_within(&mut buf, &one, &one).unwrap();
    assert!(buf == before);
    // A destination whose outermost two axes meet: refused, untouched.
    let mut s = dst.strides();
    s[11] = s[10];
    let meets = Layout::new(shape, s, 4).unwrap();
    let mut got = vec![SENTINEL; len(&meets)];
    assert_eq!(
        strided_layout::copy(&a, &src, &mut got, &meets),
        Err(LayoutError::DestinationNotUnique)
    );
    assert!(got.iter().all(|&x| x == SENTINEL));
    // A slice one short: the whole layout's length named, nothing written.
    refuses_one_short(&a, &src, &dst);
    #[cfg(all(feature = "rayon", not(miri)))]
    {
        let mut par = vec![SENTINEL; len(&dst) + 1];
        strided_layout::par_copy(&a, &src, &mut par[..len(&dst)], &dst).unwrap();
        assert_eq!(par, want);
    }
}

#[test]
fn small_ranks_past_max_loops_under_miri() {
    // The peeled paths in few elements (Miri runs this): C order into F order, rank 9 (2
    // pieces, one plan: copy, the prepared plan) and rank 11 (8 pieces, two windows: copy,
    // copy_within apart and overlapping, a destination that meets across pieces).
    fn check<const R: usize>(pieces_fit: bool) {
        let src = Layout::dense([2; R], 4, Order::C).unwrap();
        let dst = Layout::dense([2; R], 4, Order::F).unwrap();
        assert_eq!(Plan::new(&[dst.lowered(), src.lowered()]).is_ok(), pieces_fit);
        let a = data(len(&src), 10);
        let mut want = vec![SENTINEL; len(&dst)];
        for [d, s] in pairs(&dst, &src) {
            want[d] = a[s];
        }
        let mut got = vec![SENTINEL; len(&dst)];
        strided_layout::copy(&a, &src, &mut got, &dst).unwrap();
        assert_eq!(got, want);
        if pieces_fit {
            let mut got = vec![SENTINEL; len(&dst)];
            CopyPlan::new(&src, &dst).unwrap().run(&a, &mut got).unwrap();
            assert_eq!(got, want);
        }
        let shift = len(&src);
        let mut buf = data(2 * shift, 11);
        let before = buf.clone();
        strided_layout::copy_within(&mut buf, &src, &dst.with_offset(shift as isize).unwrap()).unwrap();
        let mut moved = before.clone();
        for [d, s] in pairs(&dst, &src) {
            moved[d + shift] = before[s];
        }
        assert!(buf == moved, "copy_within of rank {R}");
        let mut buf = before.clone();
        assert_eq!(
            strided_layout::copy_within(&mut buf, &src, &dst.with_offset(1).unwrap()),
            Err(LayoutError::OperandsOverlap)
        );
        assert_eq!(buf, before);
        let mut s: [isize; R] = core::array::from_fn(|k| 1 << k);
        s[R - 1] = s[R - 2];
        let meets = Layout::new([2; R], s, 4).unwrap();
        let mut got = vec![SENTINEL; len(&meets)];
        assert_eq!(
            strided_layout::copy(&a, &src, &mut got, &meets),
            Err(LayoutError::DestinationNotUnique)
        );
        assert!(got.iter().all(|&x| x == SENTINEL));
        // copy_uninit, in one plan or in windows: the whole span, initialised; a destination
        // with a gap (one step of 2) or that meets across pieces refused, nothing written.
        let mut un = vec![core::mem::MaybeUninit::new(SENTINEL); len(&dst) + 1];
        let got = strided_layout::copy_uninit(&a, &src, &mut un, &dst.with_offset(1).unwrap());
        assert_eq!(got.unwrap(), &want[..], "copy_uninit of rank {R}");
        let mut g: [isize; R] = dst.strides();
        g[R - 1] *= 2;
        let gappy = Layout::new([2; R], g, 4).unwrap();
        for (bad, err) in [(gappy, LayoutError::DestinationHasGaps), (meets, LayoutError::DestinationNotUnique)] {
            let mut un = vec![core::mem::MaybeUninit::new(SENTINEL); len(&bad)];
            assert_eq!(strided_layout::copy_uninit(&a, &src, &mut un, &bad).err(), Some(err), "rank {R}");
            // SAFETY: every element was initialised above and the refused copy wrote none.
            assert!(un.iter().all(|x| unsafe { x.assume_init() } == SENTINEL));
        }
    }
    check::<9>(true);
    check::<11>(false);
}

#[test]
#[cfg_attr(miri, ignore = "minutes under Miri; `prepared::plans_with_room_for_more_nests_run_every_kernel_as_the_model` runs the same paths small")]
fn prepared_plans_with_room_for_the_pieces_run_every_kernel_as_the_model() {
    // Rank 11, C order into F order: 3 loops peeled, 8 pieces (2048 elements). Refused by the prepared plans' four nests and by room for 7; with room for 8
    // (or more) every prepared kernel, and the parts, match the model.
    const R: usize = 11;
    let src = Layout::dense([2; R], 4, Order::C).unwrap();
    let dst = Layout::dense([2; R], 4, Order::F).unwrap();
    let overflow = Some(LayoutError::RankOverflow { max: MAX_LOOPS });
    assert_eq!(CopyPlan::new(&src, &dst).err(), overflow);
    assert_eq!(CopyPlan::<7>::with_nests(&src, &dst).err(), overflow);
    let plan = CopyPlan::<8>::with_nests(&src, &dst).unwrap();
    assert_eq!(plan.plan().nests().len(), 8);
    assert_eq!(plan, CopyPlan::<8>::with_nests_lowered(&src.lowered(), &dst.lowered()).unwrap());
    assert_eq!(CopyPlan::<9>::with_nests(&src, &dst).unwrap().plan().nests(), plan.plan().nests());
    assert_eq!((plan.src_len(), plan.dst_len()), (len(&src), len(&dst)));
    let model = pairs(&dst, &src);
    let a = data(len(&src), 12);
    let mut want = vec![SENTINEL; len(&dst)];
    for &[d, s] in &model {
        want[d] = a[s];
    }
    let mut got = vec![SENTINEL; len(&dst)];
    plan.run(&a, &mut got).unwrap();
    assert_eq!(got, want);
    let mut got = vec![SENTINEL; len(&dst)];
    plan.run_map(&a, &mut got, |x| x ^ 0x33).unwrap();
    assert!(model.iter().all(|&[d, s]| got[d] == a[s] ^ 0x33));
    let mut un = vec![core::mem::MaybeUninit::new(SENTINEL); len(&dst)];
    assert_eq!(plan.run_uninit(&a, &mut un).unwrap(), &want[..]);
    for parts in [1, 3, 8, 13] {
        let mut got = vec![SENTINEL; len(&dst)];
        let mut n = 0;
        for part in plan.parts(&a, &mut got, parts).unwrap().rev() {
            n += part.plan().volume();
            part.run();
        }
        assert_eq!((got == want, n), (true, model.len()), "{parts} parts");
    }
    // A slice one short: named whole, untouched.
    let mut short = vec![SENTINEL; len(&dst) - 1];
    assert_eq!(
        plan.run(&a, &mut short),
        Err(LayoutError::OffsetOutsideSlice {
            operand: Operand::Destination,
            needed: len(&dst),
            given: len(&dst) - 1,
        })
    );
    assert!(short.iter().all(|&x| x == SENTINEL));
    // A destination that meets across pieces: refused at planning, as by `copy`.
    let mut s: [isize; R] = core::array::from_fn(|k| 1 << k);
    s[R - 1] = s[R - 2];
    let meets = Layout::new([2; R], s, 4).unwrap();
    assert_eq!(CopyPlan::<8>::with_nests(&src, &meets).err(), Some(LayoutError::DestinationNotUnique));
    // zip_map, the second source C-dense.
    let zip = ZipMapPlan::<8>::with_nests(&src, &src, &dst).unwrap();
    assert_eq!(ZipMapPlan::of(&src, &src, &dst).err(), overflow);
    let b = data(len(&src), 13);
    let mut got = vec![SENTINEL; len(&dst)];
    zip.run(&a, &b, &mut got, |x, y| x.wrapping_sub(y)).unwrap();
    assert!(model.iter().all(|&[d, s]| got[d] == a[s].wrapping_sub(b[s])));
    // fill, of a layout that merges nowhere alone.
    let one = powers::<R>(2, 3);
    assert_eq!(FillPlan::new(&one).err(), overflow);
    let fill = FillPlan::<8>::with_nests(&one).unwrap();
    let mut got = vec![SENTINEL; fill.len() + 1];
    fill.run(&mut got[..len(&one)], 5).unwrap();
    let mut want_fill = vec![SENTINEL; len(&one) + 1];
    for i in one.indices() {
        want_fill[one.offset_of(i).unwrap() as usize] = 5;
    }
    assert_eq!(got, want_fill);
    // copy_within: apart (moved), overlapping (refused at planning).
    let shift = len(&src);
    let within = CopyWithinPlan::<8>::with_nests(&src, &dst.with_offset(shift as isize).unwrap()).unwrap();
    assert_eq!(CopyWithinPlan::new(&src, &dst.with_offset(shift as isize).unwrap()).err(), overflow);
    let before = data(2 * shift, 14);
    let mut buf = before.clone();
    within.run(&mut buf).unwrap();
    let mut moved = before.clone();
    for &[d, s] in &model {
        moved[d + shift] = before[s];
    }
    assert_eq!(buf, moved);
    assert_eq!(
        CopyWithinPlan::<8>::with_nests(&src, &dst.with_offset(1).unwrap()).err(),
        Some(LayoutError::OperandsOverlap)
    );
}

/// Every `[dst, src]` offset pair the nests of `plan` visit, walked naively, and the most
/// loops a nest has.
fn walk<const M: usize, const L: usize>(plan: &Plan<2, M, L>) -> (Vec<[usize; 2]>, usize) {
    let (mut out, mut most) = (Vec::new(), 0);
    for nest in plan.nests() {
        let loops = nest.loops();
        most = most.max(loops.len());
        let mut idx = vec![0usize; loops.len()];
        loop {
            let mut o = nest.offsets();
            for (l, &i) in loops.iter().zip(&idx) {
                for (o, s) in o.iter_mut().zip(l.strides) {
                    *o += i as isize * s;
                }
            }
            out.push([o[0] as usize, o[1] as usize]);
            let Some(k) = (0..loops.len()).rev().find(|&k| idx[k] + 1 < loops[k].extent) else {
                break;
            };
            idx[k] += 1;
            idx[k + 1..].iter_mut().for_each(|i| *i = 0);
        }
    }
    (out, most)
}

/// A plan made [`with_loops`](Plan::with_loops) with room for `L` loops a nest, from one loop
/// to past the rank: its nests visit exactly the model's offset pairs, none holds more than
/// `L` loops (the loops past it peeled into pieces), and where the pieces outnumber its 16
/// nests it is refused with `RankOverflow { max: L }`; with room for the rank, a copy that
/// merges nowhere is one nest. Ranks 3 and 5 with flips, and rank 12 (C order into F order).
#[test]
fn plans_with_room_for_l_loops_visit_the_model() {
    // No two axes of these layouts merge and every extent is `e`: `R` loops, the `R - L`
    // outermost peeled into `e^(R - L)` pieces.
    fn check<const R: usize, const L: usize>(dst: &Layout<R>, src: &Layout<R>) {
        let mut want = pairs(dst, src);
        want.sort_unstable();
        let e = dst.shape()[0];
        let pieces = e.pow(R.saturating_sub(L) as u32);
        match Plan::<2, 16, L>::with_loops(&[dst.lowered(), src.lowered()]) {
            Ok(plan) => {
                let (mut got, most) = walk(&plan);
                got.sort_unstable();
                assert_eq!(got, want, "rank {R}, L {L}");
                assert_eq!((plan.nests().len(), most), (pieces, R.min(L)), "rank {R}, L {L}");
            }
            Err(e) => {
                assert_eq!(e, LayoutError::RankOverflow { max: L }, "rank {R}");
                assert!(pieces > 16, "rank {R}, L {L}: {pieces} pieces refused");
            }
        }
    }
    fn all_l<const R: usize>(dst: &Layout<R>, src: &Layout<R>) {
        check::<R, 1>(dst, src);
        check::<R, 2>(dst, src);
        check::<R, 3>(dst, src);
        check::<R, 4>(dst, src);
        check::<R, 8>(dst, src);
        check::<R, 12>(dst, src);
        check::<R, 16>(dst, src);
    }
    let three = powers::<3>(3, 10);
    all_l(&three, &powers::<3>(3, 7).flipped(1).unwrap());
    all_l(&three.flipped(0).unwrap(), &three);
    let five = powers::<5>(2, 10);
    all_l(&five, &powers::<5>(2, 3).flipped(4).unwrap().flipped(2).unwrap());
    if !cfg!(miri) {
        let (src, dst) = twelve();
        all_l(&dst, &src);
    }
    // The refusal, by name: rank 12 peeled past 3 loops is 512 pieces.
    let (src, dst) = twelve();
    assert_eq!(
        Plan::<2, 16, 3>::with_loops(&[dst.lowered(), src.lowered()]),
        Err(LayoutError::RankOverflow { max: 3 })
    );
}

/// A prepared copy made [`with_loops`](CopyPlan::with_loops) with room for `L` loops a nest:
/// `run`, `run_map` and `run_uninit` (and, with the `rayon` feature, its parts run one after
/// another) write what the model says, for `L` from 1 to past the rank.
#[test]
fn prepared_copies_with_room_for_l_loops_run_as_the_model() {
    fn check<const R: usize, const L: usize>(dst: &Layout<R>, src: &Layout<R>) {
        let a = data(len(src), 7);
        let mut want = vec![SENTINEL; len(dst)];
        for [d, s] in pairs(dst, src) {
            want[d] = a[s];
        }
        let plan = CopyPlan::<16, L>::with_loops(src, dst).unwrap();
        assert!(plan.plan().nests().iter().all(|n| n.loops().len() <= L), "rank {R}, L {L}");
        let mut got = vec![SENTINEL; len(dst)];
        plan.run(&a, &mut got).unwrap();
        assert_eq!(got, want, "run, rank {R}, L {L}");
        let mut mapped = vec![0u32; len(dst)];
        plan.run_map(&a, &mut mapped, |x| x ^ 1).unwrap();
        assert!(pairs(dst, src).iter().all(|&[d, s]| mapped[d] == a[s] ^ 1));
        let mut un = vec![core::mem::MaybeUninit::new(SENTINEL); len(dst)];
        assert_eq!(plan.run_uninit(&a, &mut un).unwrap(), &want[..], "rank {R}, L {L}");
        #[cfg(feature = "rayon")]
        {
            let mut parted = vec![SENTINEL; len(dst)];
            for part in plan.parts(&a, &mut parted, 3).unwrap() {
                part.run();
            }
            assert_eq!(parted, want, "parts, rank {R}, L {L}");
        }
    }
    fn all_l<const R: usize>(dst: &Layout<R>, src: &Layout<R>) {
        check::<R, 1>(dst, src);
        check::<R, 2>(dst, src);
        check::<R, 3>(dst, src);
        check::<R, 8>(dst, src);
        check::<R, 12>(dst, src);
    }
    // Dense destinations (for `run_uninit`): F order of the source's C order.
    let c3 = Layout::dense([3; 3], 4, Order::C).unwrap();
    all_l(&Layout::dense([3; 3], 4, Order::F).unwrap(), &c3.flipped(1).unwrap());
    let c5 = Layout::dense([2; 5], 4, Order::C).unwrap();
    all_l(&Layout::dense([2; 5], 4, Order::F).unwrap(), &c5);
}

/// Rank 12 that merges nowhere in a prepared copy with room for all 12 loops: one nest, whose
/// drivers walk ten outer loops and whose uniqueness check searches twelve; and a
/// destination that meets itself across those loops refused, nothing written.
#[test]
#[cfg_attr(miri, ignore = "4096 elements through a twelve-loop uniqueness search; the smaller ranks above run the same paths")]
fn a_prepared_copy_with_room_for_every_loop_of_rank_twelve() {
    let (src, dst) = twelve();
    let plan = CopyPlan::<1, 12>::with_loops(&src, &dst).unwrap();
    assert_eq!(plan.plan().nests().len(), 1);
    assert_eq!(plan.plan().nests()[0].loops().len(), 12);
    let a = data(len(&src), 3);
    let mut want = vec![SENTINEL; len(&dst)];
    for [d, s] in pairs(&dst, &src) {
        want[d] = a[s];
    }
    let mut got = vec![SENTINEL; len(&dst)];
    plan.run(&a, &mut got).unwrap();
    assert_eq!(got, want);
    // Axes 0 and 1 both one element apart: the two innermost loops meet (past the first
    // eight, outermost first, that a nest of the default room holds).
    let mut s: [isize; 12] = dst.strides();
    s[1] = s[0];
    let meets = Layout::new([2; 12], s, 4).unwrap();
    assert_eq!(
        CopyPlan::<1, 12>::with_loops(&src, &meets).err(),
        Some(LayoutError::DestinationNotUnique)
    );
}
