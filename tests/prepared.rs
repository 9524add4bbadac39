//! Prepared kernels (`CopyPlan`, `FillPlan`, `ZipMapPlan`) against the reference model: plans
//! built once from random layouts (ranks 0..=4, extents 0..=4, strides -6..=6 with zeros,
//! flipped and permuted destinations), each run three times on fresh buffers with guard
//! slots; short buffers and wrong element sizes refused with the destination untouched; a
//! non-unique destination refused by `new`. 256 cases per rank and kernel (4 under Miri).

mod common;

use proptest::prelude::*;
use strided_layout::{
    CopyPlan, CopyWithinPlan, FillPlan, Layout, LayoutError, Operand, Order, ZipMapPlan,
    const_unwrap,
};

fn config() -> ProptestConfig {
    let mut c = ProptestConfig::with_cases(if cfg!(miri) { 4 } else { 256 });
    if cfg!(miri) {
        c.failure_persistence = None;
    }
    c
}

/// A layout of `shape` with random strides, placed so its smallest offset is `slack`
/// (itemsize 4: the tests move `u32`).
fn placed<const N: usize>(shape: [usize; N]) -> impl Strategy<Value = Layout<N>> {
    (proptest::array::uniform::<_, N>(-6isize..=6), 0isize..3).prop_map(move |(st, slack)| {
        let raw = Layout::new(shape, st, 4).unwrap();
        let min = raw.offset_bounds().map_or(0, |(lo, _)| lo);
        raw.with_offset(slack - min).unwrap()
    })
}

/// A destination for `shape`: dense in a random axis order, sometimes flipped, or a random
/// strided layout (often not unique).
fn destination<const N: usize>(shape: [usize; N]) -> impl Strategy<Value = Layout<N>> {
    let perm = Just((0..N).collect::<Vec<usize>>()).prop_shuffle();
    let dense = (perm, proptest::collection::vec(any::<bool>(), N)).prop_map(move |(p, flips)| {
        let order: [usize; N] = core::array::from_fn(|i| p[i]);
        let mut l = Layout::dense(shape, 4, Order::Perm(order)).unwrap();
        for (axis, flip) in flips.into_iter().enumerate() {
            if flip {
                l = l.flipped(axis).unwrap();
            }
        }
        l
    });
    prop_oneof![2 => dense, 1 => placed(shape)]
}

fn shape<const N: usize>() -> impl Strategy<Value = [usize; N]> {
    proptest::array::uniform::<_, N>(0usize..=4)
}

fn max_offset<const N: usize>(l: &Layout<N>) -> usize {
    common::offsets(l)
        .into_iter()
        .max()
        .map_or(0, |m| m as usize + 1)
}

fn check_copy<const N: usize>(src_l: Layout<N>, dst_l: Layout<N>) -> Result<(), TestCaseError> {
    let (os, od) = (common::offsets(&src_l), common::offsets(&dst_l));
    let plan = CopyPlan::new(&src_l, &dst_l);
    if !common::unique_model(&od) {
        let refused = matches!(
            plan,
            Err(LayoutError::DestinationNotUnique | LayoutError::UniquenessUndecided)
        );
        prop_assert!(refused, "{:?}", plan);
        return Ok(());
    }
    let plan = plan.unwrap();
    prop_assert_eq!(plan.src_len(), max_offset(&src_l));
    prop_assert_eq!(plan.dst_len(), max_offset(&dst_l));
    for run in 0..3u32 {
        // Fresh buffers each run, two guard slots past the end.
        let src: Vec<u32> = (0..plan.src_len() as u32 + 2)
            .map(|x| x * 7 + run)
            .collect();
        let mut dst: Vec<u32> = vec![u32::MAX - run; plan.dst_len() + 2];
        let before = dst.clone();
        plan.run(&src, &mut dst).unwrap();
        let mut want = before.clone();
        for (&o, &i) in od.iter().zip(&os) {
            want[o as usize] = src[i as usize];
        }
        prop_assert_eq!(&dst, &want);
        // The prepared map agrees with the model too.
        let mut mapped = before.clone();
        plan.run_map(&src, &mut mapped, |x| x ^ 1).unwrap();
        let mut want = before.clone();
        for (&o, &i) in od.iter().zip(&os) {
            want[o as usize] = src[i as usize] ^ 1;
        }
        prop_assert_eq!(&mapped, &want);
        // Short buffers and wrong element sizes: refused, destination untouched.
        if plan.src_len() > 0 {
            let mut d = before.clone();
            let got = plan.run(&src[..plan.src_len() - 1], &mut d);
            prop_assert_eq!(
                got,
                Err(LayoutError::OffsetOutsideSlice {
                    operand: Operand::Source
                })
            );
            prop_assert_eq!(&d, &before);
        }
        if plan.dst_len() > 0 {
            let mut d = before.clone();
            let got = plan.run(&src, &mut d[..plan.dst_len() - 1]);
            prop_assert_eq!(
                got,
                Err(LayoutError::OffsetOutsideSlice {
                    operand: Operand::Destination
                })
            );
            prop_assert_eq!(&d, &before);
        }
        let mut wide: Vec<u64> = vec![9; plan.dst_len() + 2];
        let got = plan.run(&vec![1u64; plan.src_len()], &mut wide);
        let refused = matches!(got, Err(LayoutError::ItemsizeMismatch { .. }));
        prop_assert!(refused, "{:?}", got);
        prop_assert!(wide.iter().all(|&x| x == 9));
    }
    Ok(())
}

fn check_fill<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    let od = common::offsets(&l);
    let plan = FillPlan::new(&l).unwrap();
    prop_assert_eq!(plan.len(), max_offset(&l));
    for run in 0..3u32 {
        let mut dst = vec![run; plan.len() + 2];
        let mut want = dst.clone();
        plan.run(&mut dst, 77).unwrap();
        for &o in &od {
            want[o as usize] = 77;
        }
        prop_assert_eq!(&dst, &want);
    }
    Ok(())
}

fn check_zip<const N: usize>(
    a_l: Layout<N>,
    b_l: Layout<N>,
    dst_l: Layout<N>,
) -> Result<(), TestCaseError> {
    let (oa, ob, od) = (
        common::offsets(&a_l),
        common::offsets(&b_l),
        common::offsets(&dst_l),
    );
    let plan = ZipMapPlan::new(&a_l, &b_l, &dst_l);
    if !common::unique_model(&od) {
        prop_assert!(plan.is_err());
        return Ok(());
    }
    let plan = plan.unwrap();
    let [ld, la, lb] = plan.lens();
    for run in 0..3u32 {
        let a: Vec<u32> = (0..la as u32).map(|x| x + run).collect();
        let b: Vec<u32> = (0..lb as u32).map(|x| x * 1000).collect();
        let mut dst = vec![5u32; ld + 1];
        let mut want = dst.clone();
        plan.run(&a, &b, &mut dst, |x, y| x + y).unwrap();
        for ((&o, &i), &j) in od.iter().zip(&oa).zip(&ob) {
            want[o as usize] = a[i as usize] + b[j as usize];
        }
        prop_assert_eq!(&dst, &want);
    }
    Ok(())
}

/// The prepared in-place copy agrees with `copy_within` (itself checked against the model in
/// `tests/kernels.rs` and `tests/exhaustive_copy.rs`): same result or same error, on the same
/// buffer, run after run; the destination shifted by `shift` so that some pairs overlap.
fn check_within<const N: usize>(
    src_l: Layout<N>,
    dst_l: Layout<N>,
    shift: isize,
) -> Result<(), TestCaseError> {
    let dst_l = dst_l.with_offset(dst_l.offset() + shift).unwrap();
    let len = max_offset(&src_l).max(max_offset(&dst_l)) + 1;
    let plan = CopyWithinPlan::new(&src_l, &dst_l);
    for run in 0..3u32 {
        let buf0: Vec<u32> = (0..len as u32).map(|x| x * 3 + run).collect();
        let mut want = buf0.clone();
        let expected = strided_layout::copy_within(&mut want, &src_l, &dst_l);
        match (&plan, expected) {
            (Ok(p), Ok(())) => {
                let mut got = buf0.clone();
                p.run(&mut got).unwrap();
                prop_assert_eq!(&got, &want);
                prop_assert!(p.len() <= len);
            }
            (Err(e), Err(want_e)) => prop_assert_eq!(*e, want_e),
            (p, e) => prop_assert!(false, "prepared {:?}, kernel {:?}", p, e),
        }
    }
    Ok(())
}

macro_rules! ranks {
    ($($rank:ident = $n:literal),*) => {
        $(
            mod $rank {
                use super::*;
                proptest! {
                    #![proptest_config(config())]
                    #[test]
                    fn copy_plan_matches_the_model_run_after_run(
                        (s, d) in shape::<$n>().prop_flat_map(|sh| (placed(sh), destination(sh)))
                    ) {
                        check_copy(s, d)?;
                    }
                    #[test]
                    fn copy_within_plan_agrees_with_copy_within(
                        (s, d, shift) in shape::<$n>().prop_flat_map(|sh| (placed(sh), destination(sh), 0isize..8))
                    ) {
                        check_within(s, d, shift)?;
                    }
                    #[test]
                    fn fill_plan_matches_the_model_run_after_run(l in shape::<$n>().prop_flat_map(placed)) {
                        check_fill(l)?;
                    }
                    #[test]
                    fn zip_map_plan_matches_the_model_run_after_run(
                        (a, b, d) in shape::<$n>().prop_flat_map(|sh| (placed(sh), placed(sh), destination(sh)))
                    ) {
                        check_zip(a, b, d)?;
                    }
                }
            }
        )*
    };
}

ranks!(rank0 = 0, rank1 = 1, rank2 = 2, rank3 = 3, rank4 = 4);

/// The firmware case: a stereo planar -> interleaved copy planned and validated at compile
/// time, then run.
#[test]
fn const_copy_plan_runs() {
    const PLANAR: Layout<2> = const_unwrap(Layout::dense([2, 64], 2, Order::C));
    const FRAMES: Layout<2> = const_unwrap(Layout::dense([2, 64], 2, Order::F));
    const PLAN: CopyPlan = const_unwrap(CopyPlan::new(&PLANAR, &FRAMES));
    const _: () = assert!(PLAN.src_len() == 128 && PLAN.dst_len() == 128);
    let src: Vec<i16> = (0..128).collect();
    let mut dst = [0i16; 128];
    PLAN.run(&src, &mut dst).unwrap();
    for f in 0..64 {
        assert_eq!((dst[2 * f], dst[2 * f + 1]), (f as i16, 64 + f as i16));
    }
}

#[test]
fn copy_plan_refuses_a_negative_offset_at_planning() {
    let l = Layout::new([3], [-1], 4).unwrap();
    let ok = Layout::new([3], [1], 4).unwrap();
    assert_eq!(
        CopyPlan::new(&l, &ok),
        Err(LayoutError::OffsetOutsideSlice {
            operand: Operand::Source
        })
    );
    assert_eq!(
        CopyPlan::new(&ok, &l),
        Err(LayoutError::OffsetOutsideSlice {
            operand: Operand::Destination
        })
    );
}
