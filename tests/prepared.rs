//! Prepared kernels (`CopyPlan`, `FillPlan`, `ZipMapPlan`) against the reference model: plans
//! built once from random layouts (ranks 0..=4, extents 0..=4, strides -6..=6 with zeros,
//! flipped and permuted destinations), each run three times on fresh buffers with guard
//! slots; short buffers and wrong element sizes refused with the destination untouched; a
//! non-unique destination refused by `new`. 256 cases per rank and kernel (4 under Miri).

use crate::common;

use proptest::prelude::*;
use strided_layout::{
    CopyPlan, CopyWithinPlan, FillPlan, Layout, LayoutError, Operand, Order, ZipMapPlan,
    const_unwrap,
};

fn config() -> ProptestConfig {
    let mut c = ProptestConfig::with_cases(if cfg!(miri) {
        4
    } else {
        crate::common::cases(256)
    });
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
        let mut want_map = before.clone();
        for (&o, &i) in od.iter().zip(&os) {
            want_map[o as usize] = src[i as usize] ^ 1;
        }
        prop_assert_eq!(&mapped, &want_map);
        // Short buffers and wrong element sizes: refused, destination untouched.
        if plan.src_len() > 0 {
            let mut d = before.clone();
            let got = plan.run(&src[..plan.src_len() - 1], &mut d);
            prop_assert_eq!(
                got,
                Err(LayoutError::OffsetOutsideSlice {
                    operand: Operand::Source,
                    needed: plan.src_len(),
                    given: plan.src_len() - 1,
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
                    operand: Operand::Destination,
                    needed: plan.dst_len(),
                    given: plan.dst_len() - 1,
                })
            );
            prop_assert_eq!(&d, &before);
        }
        let mut wide: Vec<u64> = vec![9; plan.dst_len() + 2];
        let got = plan.run(&vec![1u64; plan.src_len()], &mut wide);
        let refused = matches!(got, Err(LayoutError::ItemsizeMismatch { .. }));
        prop_assert!(refused, "{:?}", got);
        prop_assert!(wide.iter().all(|&x| x == 9));
        if run == 0 {
            check_tuned(&plan, &src, &before, &want)?;
        }
    }
    Ok(())
}

/// Whether every nest of `plan` is untiled with its loops in operand `k`'s memory order.
fn in_order_of(plan: &CopyPlan, k: usize) -> bool {
    plan.plan().nests().iter().all(|n| {
        n.tile().is_none()
            && n.loops()
                .windows(2)
                .all(|w| w[0].strides[k].unsigned_abs() >= w[1].strides[k].unsigned_abs())
    })
}

/// `CopyPlan::tuned` with a clock that makes each candidate in turn the fastest: the copy is
/// done whichever wins, the kept plan is the planner's or a plain loop's order and copies as
/// the model, a clock that never moves keeps the planner's, and buffers the plan does not fit
/// are refused before the clock is read, the destination untouched.
fn check_tuned(
    plan: &CopyPlan,
    src: &[u32],
    before: &[u32],
    want: &[u32],
) -> Result<(), TestCaseError> {
    // How many candidates are timed (distinct ones): 7 rounds, two readings a run.
    let mut calls = 0usize;
    let mut dst = before.to_vec();
    let still = plan
        .tuned(src, &mut dst, || {
            calls += 1;
            0
        })
        .unwrap();
    prop_assert_eq!(&dst, want);
    prop_assert_eq!(still, *plan);
    let timed = calls / 14;
    prop_assert!(calls.is_multiple_of(14) && (1..=3).contains(&timed), "{} readings", calls);
    for winner in 0..timed {
        // Reading `c` starts (even) or ends (odd) run `c / 2`, of the `(c / 2) % timed`-th
        // candidate: the winner's runs take 1 tick, the others' 100.
        let (mut c, mut t) = (0usize, 0u64);
        let mut dst = before.to_vec();
        let kept = plan
            .tuned(src, &mut dst, || {
                if c % 2 == 1 {
                    t += if (c / 2) % timed == winner { 1 } else { 100 };
                }
                c += 1;
                t
            })
            .unwrap();
        prop_assert_eq!(&dst, want);
        match (winner, timed) {
            (0, _) => prop_assert_eq!(kept, *plan),
            (1, 3) => prop_assert!(in_order_of(&kept, 0), "{:?}", kept.plan()),
            (2, _) => prop_assert!(in_order_of(&kept, 1), "{:?}", kept.plan()),
            _ => prop_assert!(in_order_of(&kept, 0) || in_order_of(&kept, 1)),
        }
        let mut again = before.to_vec();
        kept.run(src, &mut again).unwrap();
        prop_assert_eq!(&again, want);
        prop_assert_eq!((kept.src_len(), kept.dst_len()), (plan.src_len(), plan.dst_len()));
    }
    if plan.dst_len() > 0 {
        let mut d = before.to_vec();
        let mut read = false;
        let got = plan.tuned(src, &mut d[..plan.dst_len() - 1], || {
            read = true;
            0
        });
        let refused = matches!(got, Err(LayoutError::OffsetOutsideSlice { .. }));
        prop_assert!(refused, "{:?}", got);
        prop_assert!(!read);
        prop_assert_eq!(&d[..], before);
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
        Err(LayoutError::OffsetBelowSlice {
            operand: Operand::Source,
            lowest: -2
        })
    );
    assert_eq!(
        CopyPlan::new(&ok, &l),
        Err(LayoutError::OffsetBelowSlice {
            operand: Operand::Destination,
            lowest: -2
        })
    );
}

/// An element type for the small-block tests: built from a counter, compared exactly.
trait Elem: Copy + PartialEq + core::fmt::Debug + 'static {
    fn of(i: usize) -> Self;
}

macro_rules! elems {
    ($($t:ty),*) => {$(
        impl Elem for $t {
            fn of(i: usize) -> Self {
                i as $t
            }
        }
    )*};
}
elems!(u8, i16, u32, f32, u64, f64);

/// A 2-byte element that is not a primitive (the kernels must not move it through vector
/// registers): the small-block paths leave it to the general loops.
#[derive(Clone, Copy, PartialEq, Debug)]
struct Pair(u8, u8);

impl Elem for Pair {
    fn of(i: usize) -> Self {
        Pair(i as u8, (i >> 8) as u8)
    }
}

/// A transpose-shaped pair of rank-2 layouts, the shape the small-block kernels take: the
/// destination's elements one apart along axis `unit`, its rows `eb + dpad` apart (flipped
/// with `dflip`), the source the other way round (`ea + spad`, `sflip`); `ea` rows of `eb`.
#[derive(Clone, Copy, Debug)]
struct Block {
    ea: usize,
    eb: usize,
    unit: usize,
    dpad: usize,
    spad: usize,
    dflip: bool,
    sflip: bool,
}

impl Block {
    fn layouts(&self, itemsize: usize) -> (Layout<2>, Layout<2>) {
        let q = 1 - self.unit;
        let (mut shape, mut ds, mut ss) = ([0usize; 2], [0isize; 2], [0isize; 2]);
        shape[self.unit] = self.eb;
        shape[q] = self.ea;
        let sign = |flip: bool| if flip { -1 } else { 1 };
        ds[self.unit] = 1;
        ds[q] = sign(self.dflip) * (self.eb + self.dpad) as isize;
        ss[q] = 1;
        ss[self.unit] = sign(self.sflip) * (self.ea + self.spad) as isize;
        let place = |strides: [isize; 2], slack: isize| {
            let raw = Layout::new(shape, strides, itemsize).unwrap();
            let min = raw.offset_bounds().map_or(0, |(lo, _)| lo);
            raw.with_offset(slack - min).unwrap()
        };
        (place(ss, 1), place(ds, 2))
    }
}

/// `copy()` and a prepared `CopyPlan` of `block`, for elements `T`, against the reference
/// model: every destination offset gets its source element, every other slot (guards
/// included) keeps its value; one element short on either side is refused, untouched.
fn check_small<T: Elem>(block: Block) -> Result<(), TestCaseError> {
    let (src_l, dst_l) = block.layouts(core::mem::size_of::<T>());
    let (os, od) = (common::offsets(&src_l), common::offsets(&dst_l));
    let (slen, dlen) = (max_offset(&src_l), max_offset(&dst_l));
    let src: Vec<T> = (0..slen + 2).map(|i| T::of(i * 3 + 1)).collect();
    let before: Vec<T> = (0..dlen + 2).map(|_| T::of(0)).collect();
    let mut want = before.clone();
    for (&o, &i) in od.iter().zip(&os) {
        want[o as usize] = src[i as usize];
    }
    let plan = CopyPlan::new(&src_l, &dst_l).unwrap();
    prop_assert_eq!((plan.src_len(), plan.dst_len()), (slen, dlen));
    let mut dst = before.clone();
    plan.run(&src, &mut dst).unwrap();
    prop_assert_eq!(&dst, &want, "prepared {:?}", block);
    let mut dst = before.clone();
    strided_layout::copy(&src, &src_l, &mut dst, &dst_l).unwrap();
    prop_assert_eq!(&dst, &want, "copy() {:?}", block);
    let short = [
        (slen - 1, dlen, Operand::Source, slen),
        (slen, dlen - 1, Operand::Destination, dlen),
    ];
    for (s, d, operand, needed) in short {
        let mut dst = before.clone();
        let got = strided_layout::copy(&src[..s], &src_l, &mut dst[..d], &dst_l);
        let given = needed - 1;
        prop_assert_eq!(
            got,
            Err(LayoutError::OffsetOutsideSlice {
                operand,
                needed,
                given
            })
        );
        prop_assert_eq!(plan.run(&src[..s], &mut dst[..d]), got);
        prop_assert_eq!(&dst, &before);
    }
    Ok(())
}

fn check_small_every_type(block: Block) -> Result<(), TestCaseError> {
    check_small::<u8>(block)?;
    check_small::<i16>(block)?;
    check_small::<u32>(block)?;
    check_small::<f32>(block)?;
    check_small::<u64>(block)?;
    check_small::<f64>(block)?;
    check_small::<Pair>(block)
}

fn small_block() -> impl Strategy<Value = Block> {
    // Under Miri, sides up to 16 (one whole 16 x 16, tails on either side of 8).
    let big = if cfg!(miri) {
        9usize..=16
    } else {
        13usize..=40
    };
    let side = prop_oneof![2usize..=12, Just(16usize), Just(8usize), big];
    (
        side.clone(),
        prop_oneof![Just(2usize), side],
        0usize..2,
        prop_oneof![3 => Just(0usize), 1 => 1usize..=3],
        prop_oneof![3 => Just(0usize), 1 => 1usize..=3],
        any::<bool>(),
        any::<bool>(),
    )
        .prop_map(|(ea, eb, unit, dpad, spad, dflip, sflip)| Block {
            ea,
            eb,
            unit,
            dpad,
            spad,
            dflip,
            sflip,
        })
}

proptest! {
    #![proptest_config(config())]
    /// Transposes and 2-channel interleaves of every element width, odd and negative row
    /// strides, either axis the destination's fastest.
    #[test]
    fn small_block_copies_match_the_model(block in small_block()) {
        check_small_every_type(block)?;
    }
}

/// Planar -> interleaved stereo of every frame count 2..=70 (every tail of the 16-byte
/// steps for 1-, 2-, 4- and 8-byte elements), dense and with padded or flipped planes.
#[test]
fn small_interleave2_of_every_frame_count_matches_the_model() {
    // Under Miri (the portable twin, 16-byte steps) a few: one step and a tail for 1-byte
    // elements, steps for the rest.
    let frames: Vec<usize> = if cfg!(miri) {
        vec![2, 5, 17]
    } else {
        (2..=70).collect()
    };
    for ea in frames {
        for (spad, sflip) in [(0, false), (3, false), (1, true)] {
            let block = Block {
                ea,
                eb: 2,
                unit: 0,
                dpad: 0,
                spad,
                dflip: false,
                sflip,
            };
            check_small_every_type(block).unwrap();
        }
    }
}

/// Transposes of every side 2..=40 (element by element under 8 x 8, one 4 x 4 block, whole
/// 8 x 8 tiles, and the edges after them), dense, padded and flipped. The quick scope (a debug
/// build, `small_scope::quick`): sides 2..=17 and the tile multiples 24, 32 and 40 with one
/// more each.
#[test]
fn small_transpose_of_every_side_matches_the_model() {
    let sides: Vec<usize> = if common::small_scope::quick() {
        (2..=17).chain([24, 25, 32, 33, 40]).collect()
    } else {
        (2..=40).collect()
    };
    // Under Miri (the portable twins) a block under a tile, a 4 x 4 block, and one whole
    // tile with an edge, each way round.
    let pairs: Vec<(usize, usize)> = if cfg!(miri) {
        vec![(3, 5), (4, 4), (8, 11), (11, 8)]
    } else {
        sides
            .iter()
            .flat_map(|&a| sides.iter().map(move |&b| (a, b)))
            .collect()
    };
    for (ea, eb) in pairs {
        {
            let (dpad, spad, flip) = ((ea + eb) % 3, (ea * eb) % 2, (ea + eb) % 4 == 1);
            for unit in 0..2 {
                let block = Block {
                    ea,
                    eb,
                    unit,
                    dpad,
                    spad,
                    dflip: flip,
                    sflip: !flip,
                };
                check_small_every_type(block).unwrap();
            }
        }
    }
}

/// Transposes around the largest block the small-block kernels take (32 KiB of the
/// destination), whose plans are tiled: a prepared plan runs the block whole, as `copy()`
/// does, below the limit, and the plan's tiles above it.
#[test]
#[cfg_attr(
    miri,
    ignore = "tiled plans need blocks of over 32 x 32 elements, minutes under Miri; the block \
              kernels they reach run under Miri in the tests above"
)]
fn tiled_transposes_at_the_small_block_limit_match_the_model() {
    let pairs = [
        (64, 64),
        (64, 65),
        (128, 64),
        (128, 65),
        (90, 91),
        (256, 16),
        (16, 256),
    ];
    for (ea, eb) in pairs {
        for (unit, dpad, flip) in [(0, 0, false), (1, 1, true)] {
            let block = Block {
                ea,
                eb,
                unit,
                dpad,
                spad: 0,
                dflip: flip,
                sflip: false,
            };
            check_small_every_type(block).unwrap();
        }
    }
}

/// Operands cut into more pieces than `CopyPlan::new`'s four nests hold (blocks of 2 against
/// blocks of 3 on an axis of 15: a piece per phase of their least common multiple and one for
/// the rest), prepared with room for them: every prepared kernel and the parts against the
/// model (each index's offset in both layouts), refusals of too little room. Small enough
/// for Miri.
#[test]
fn plans_with_room_for_more_nests_run_every_kernel_as_the_model() {
    const SENTINEL: u32 = 0xDEAD_BEEF;
    use strided_layout::plan::MAX_NESTS;
    use strided_layout::{InterleaveLayout, InterleavedLayout};
    let il = |f| InterleavedLayout::dense([15, 3], 4, InterleaveLayout::new(0, f).unwrap()).unwrap();
    let (src, dst) = (il(2), il(3));
    let model: Vec<[usize; 2]> = (0..15)
        .flat_map(|i| (0..3).map(move |j| [i, j]))
        .map(|ix| [dst.offset_of(ix).unwrap() as usize, src.offset_of(ix).unwrap() as usize])
        .collect();
    assert_eq!(CopyPlan::of(&src, &dst), Err(LayoutError::InterleaveConflict));
    let plan = CopyPlan::<8>::with_nests(&src, &dst).unwrap();
    let pieces = plan.plan().nests().len();
    assert!(pieces > MAX_NESTS && pieces <= 8, "{pieces} pieces");
    assert_eq!(plan.plan().volume(), 45);
    assert_eq!(
        plan,
        CopyPlan::<8>::with_nests_lowered(&src.lowered(), &dst.lowered()).unwrap()
    );
    // Room for one fewer: refused, naming the rule of differently blocked operands.
    match pieces {
        5 => assert_eq!(CopyPlan::<4>::with_nests(&src, &dst), Err(LayoutError::InterleaveConflict)),
        6 => assert_eq!(CopyPlan::<5>::with_nests(&src, &dst), Err(LayoutError::InterleaveConflict)),
        7 => assert_eq!(CopyPlan::<6>::with_nests(&src, &dst), Err(LayoutError::InterleaveConflict)),
        _ => assert_eq!(CopyPlan::<7>::with_nests(&src, &dst), Err(LayoutError::InterleaveConflict)),
    }
    let a: Vec<u32> = (0..plan.src_len() as u32).map(|x| x * 3 + 1).collect();
    let mut want = vec![SENTINEL; plan.dst_len()];
    for &[d, s] in &model {
        want[d] = a[s];
    }
    let mut got = vec![SENTINEL; plan.dst_len()];
    plan.run(&a, &mut got).unwrap();
    assert_eq!(got, want);
    let mut got = vec![SENTINEL; plan.dst_len()];
    plan.run_map(&a, &mut got, |x| x ^ 9).unwrap();
    assert!(model.iter().all(|&[d, s]| got[d] == a[s] ^ 9));
    // The destination (blocks of 3 on 15) has no padding: `run_uninit` hands it all back.
    let mut un = vec![core::mem::MaybeUninit::new(SENTINEL); plan.dst_len()];
    assert_eq!(plan.run_uninit(&a, &mut un).unwrap(), &want[..]);
    for parts in [1, 2, 5, 50] {
        let mut got = vec![SENTINEL; plan.dst_len()];
        let mut visited = 0;
        for part in plan.parts(&a, &mut got, parts).unwrap().rev() {
            visited += part.plan().volume();
            part.run();
        }
        assert_eq!((got == want, visited), (true, 45), "{parts} parts");
    }
    // A short source: named, nothing written.
    let mut got = vec![SENTINEL; plan.dst_len()];
    assert_eq!(
        plan.run(&a[..plan.src_len() - 1], &mut got),
        Err(LayoutError::OffsetOutsideSlice {
            operand: Operand::Source,
            needed: plan.src_len(),
            given: plan.src_len() - 1,
        })
    );
    assert!(got.iter().all(|&x| x == SENTINEL));
    // zip_map: both sources in blocks of 2.
    assert_eq!(ZipMapPlan::of(&src, &src, &dst), Err(LayoutError::InterleaveConflict));
    let zip = ZipMapPlan::<8>::with_nests(&src, &src, &dst).unwrap();
    let mut got = vec![SENTINEL; plan.dst_len()];
    zip.run(&a, &a, &mut got, |x, y| x.wrapping_mul(y)).unwrap();
    assert!(model.iter().all(|&[d, s]| got[d] == a[s].wrapping_mul(a[s])));
    // copy_within: the destination after the source, then overlapping it.
    let shift = plan.src_len();
    let moved = dst.with_offset(shift as isize).unwrap();
    assert_eq!(CopyWithinPlan::of(&src, &moved), Err(LayoutError::InterleaveConflict));
    let within = CopyWithinPlan::<8>::with_nests(&src, &moved).unwrap();
    let before: Vec<u32> = (0..within.len() as u32).collect();
    let mut buf = before.clone();
    within.run(&mut buf).unwrap();
    let mut want = before.clone();
    for &[d, s] in &model {
        want[d + shift] = before[s];
    }
    assert_eq!(buf, want);
    let near = dst.with_offset(1).unwrap();
    assert_eq!(
        CopyWithinPlan::<8>::with_nests(&src, &near),
        Err(LayoutError::OperandsOverlap)
    );
}
