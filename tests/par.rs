//! Split plans and the parallel kernels against the one-thread kernels and the reference
//! model: the parts of a plan ([`Plan::part`]) visit disjoint index sets that cover the plan
//! exactly, for every parts count 1..=9, on random layouts of ranks 0..=5 (extents 0..=4,
//! strides -6..=6, 0 included) and on interleaved operands; the parts of a copy
//! ([`CopyPlan::parts`]), run in any order on any thread, write the bytes `copy` writes; and
//! with the `rayon` feature `par_copy`, `par_map`, `par_zip_map` and `par_fill` give the bytes
//! and the errors of their one-thread twins, on small random cases (one thread, below
//! `PAR_BYTES`) and on large ones (split).
#![allow(
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::cast_possible_truncation,
    clippy::needless_range_loop
)]

use crate::common;
use common::{Placed, place};

use proptest::prelude::*;
use strided_layout::plan::Plan;
use strided_layout::{CopyPlan, InterleaveLayout, InterleavedLayout, Layout, LayoutError, Order};

const CASES: u32 = if cfg!(miri) { 4 } else { 256 };

/// The largest parts count tried.
const MAX_PARTS: usize = 9;

/// `CASES` cases; under Miri also no failure persistence (it needs the file system).
fn config() -> ProptestConfig {
    let mut c = ProptestConfig::with_cases(if cfg!(miri) {
        CASES
    } else {
        crate::common::cases(CASES)
    });
    if cfg!(miri) {
        c.failure_persistence = None;
    }
    c
}

fn placed<const N: usize>(shape: [usize; N]) -> impl Strategy<Value = Placed<N>> {
    (
        proptest::array::uniform::<_, N>(-6isize..=6),
        0isize..3,
        prop_oneof![8 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)],
    )
        .prop_map(move |(st, slack, spoil)| place(shape, st, slack, 0, spoil))
}

/// Two placed layouts of one shape (extents 0..=4).
fn pair<const N: usize>() -> impl Strategy<Value = (Placed<N>, Placed<N>)> {
    proptest::array::uniform::<_, N>(0usize..=4).prop_flat_map(|s| (placed(s), placed(s)))
}

/// Three placed layouts of one shape.
#[cfg(feature = "rayon")]
fn triple<const N: usize>() -> impl Strategy<Value = (Placed<N>, Placed<N>, Placed<N>)> {
    proptest::array::uniform::<_, N>(0usize..=4)
        .prop_flat_map(|s| (placed(s), placed(s), placed(s)))
}

fn buffer(len: usize, base: i32) -> Vec<i32> {
    (0..len as i32).map(|x| base + x).collect()
}

/// Every `(dst, src)` offset pair a plan visits, by walking its loops naively.
fn visits<const K: usize>(plan: &Plan<K>) -> Vec<[i128; K]> {
    let mut out = Vec::new();
    for nest in plan.nests() {
        let loops = nest.loops();
        let mut idx = vec![0usize; loops.len()];
        loop {
            let mut o = nest.offsets().map(|x| x as i128);
            for (l, &i) in loops.iter().zip(&idx) {
                for k in 0..K {
                    o[k] += i as i128 * l.strides[k] as i128;
                }
            }
            out.push(o);
            let mut k = loops.len();
            loop {
                if k == 0 {
                    break;
                }
                k -= 1;
                idx[k] += 1;
                if idx[k] < loops[k].extent {
                    break;
                }
                idx[k] = 0;
            }
            if idx.iter().all(|&i| i == 0) {
                break;
            }
        }
    }
    out
}

/// Checks that the parts of `plan`, for every parts count 1..=`MAX_PARTS`, visit disjoint
/// sets of its index tuples that together are exactly `want` (the model's tuples), each part
/// within one outer step (times the tile grain) of `volume / parts`, and that part `parts` and
/// beyond are empty.
fn check_parts_cover<const K: usize>(
    plan: &Plan<K>,
    mut want: Vec<[i128; K]>,
) -> Result<(), TestCaseError> {
    want.sort_unstable();
    let mut whole = visits(plan);
    whole.sort_unstable();
    prop_assert_eq!(&whole, &want, "the plan itself against the model");
    let volume = plan.volume();
    // The most elements one cut may be off by: a step of the loop cut (the outer one, or the
    // inner one of a tiled pair), times its grain (at most 8 tile rows: a group of tiles).
    let slack = plan
        .nests()
        .iter()
        .map(|n| {
            let fewest = n
                .loops()
                .iter()
                .take(2)
                .map(|l| l.extent)
                .min()
                .unwrap_or(1);
            let grain = n.tile().map_or(1, |[ta, tb]| 8 * ta.max(tb));
            n.volume() / fewest * grain
        })
        .max()
        .unwrap_or(0);
    for parts in 1..=MAX_PARTS {
        let mut union = Vec::new();
        for i in 0..parts {
            let part = plan.part(i, parts);
            let got = visits(&part);
            prop_assert_eq!(got.len(), part.volume());
            prop_assert!(
                part.volume() <= volume / parts + slack + 1,
                "part {} of {}: {} elements of {}",
                i,
                parts,
                part.volume(),
                volume
            );
            union.extend(got);
        }
        prop_assert_eq!(plan.part(parts, parts).volume(), 0);
        union.sort_unstable();
        // Sorted equal multisets: together every tuple once, so the parts are disjoint.
        prop_assert_eq!(&union, &want, "{} parts", parts);
    }
    prop_assert_eq!(plan.part(0, 0).volume(), 0);
    Ok(())
}

fn check_parts_of_copy_plan<const N: usize>(
    (d, s): (Placed<N>, Placed<N>),
) -> Result<(), TestCaseError> {
    let (od, os) = (common::offsets(&d.layout), common::offsets(&s.layout));
    let plan = match Plan::new(&[d.layout.lowered(), s.layout.lowered()]) {
        Ok(p) => p,
        Err(e) => return Err(TestCaseError::fail(format!("{e:?}"))),
    };
    let want: Vec<[i128; 2]> = od.iter().zip(&os).map(|(&a, &b)| [a, b]).collect();
    check_parts_cover(&plan, want)
}

/// The parts of a copy, run in reverse order, on threads, or one by one after `split_at`,
/// write what `copy` writes; a refused copy is refused by `parts` with the same error.
fn check_copy_parts<const N: usize>((d, s): (Placed<N>, Placed<N>)) -> Result<(), TestCaseError> {
    let src = buffer(s.len, 1_000);
    let mut want = buffer(d.len, -1_000_000);
    let before = want.clone();
    let expected = strided_layout::copy(&src, &s.layout, &mut want, &d.layout);
    let plan = match CopyPlan::new(&s.layout, &d.layout) {
        Ok(p) => p,
        // A plan refused up front (a negative offset, a destination not unique): `copy`
        // refuses the call too (it checks the slices first, so its error may differ).
        Err(_) => {
            prop_assert!(expected.is_err());
            return Ok(());
        }
    };
    for parts in 1..=MAX_PARTS {
        let mut dst = before.clone();
        match plan.parts(&src, &mut dst, parts) {
            Err(e) => {
                prop_assert_eq!(expected, Err(e));
                prop_assert_eq!(&dst, &before);
                continue;
            }
            Ok(split) => {
                prop_assert_eq!(expected, Ok(()));
                prop_assert_eq!(split.len(), parts);
                match parts % 3 {
                    0 => split.rev().for_each(|p| p.run()),
                    1 => std::thread::scope(|sc| {
                        for p in split {
                            sc.spawn(move || p.run());
                        }
                    }),
                    _ => {
                        let (a, b) = split.split_at(parts / 2);
                        std::thread::scope(|sc| {
                            sc.spawn(move || a.for_each(|p| p.run()));
                            b.for_each(|p| p.run());
                        });
                    }
                }
            }
        }
        prop_assert_eq!(&dst, &want, "{} parts", parts);
    }
    Ok(())
}

macro_rules! for_kernel_ranks {
    ($name:ident, $strategy:ident, $check:ident) => {
        mod $name {
            use super::*;
            proptest! {
                #![proptest_config(config())]
                #[test] fn rank0(c in $strategy::<0>()) { $check(c)?; }
                #[test] fn rank1(c in $strategy::<1>()) { $check(c)?; }
                #[test] fn rank2(c in $strategy::<2>()) { $check(c)?; }
                #[test] fn rank3(c in $strategy::<3>()) { $check(c)?; }
                #[test] fn rank4(c in $strategy::<4>()) { $check(c)?; }
                #[test] fn rank5(c in $strategy::<5>()) { $check(c)?; }
            }
        }
    };
}

for_kernel_ranks!(
    plan_parts_cover_the_plan_disjointly,
    pair,
    check_parts_of_copy_plan
);
for_kernel_ranks!(copy_parts_write_the_bytes_of_copy, pair, check_copy_parts);

/// The tuples of an interleaved layout (axis `d` in blocks of `f`), by the model.
fn interleaved_offsets<const N: usize>(l: &InterleavedLayout<N>) -> Vec<i128> {
    let (d, f) = (l.interleave().dimension(), l.interleave().factor());
    let mut out = Vec::new();
    common::for_each_index(&l.shape(), |ix| {
        let mut o = l.offset() as i128;
        for k in 0..N {
            if k == d {
                o += (ix[k] / f) as i128 * l.strides()[k] as i128 + (ix[k] % f) as i128;
            } else {
                o += ix[k] as i128 * l.strides()[k] as i128;
            }
        }
        out.push(o);
    });
    out
}

proptest! {
    #![proptest_config(config())]

    /// Planar -> interleaved copies (two nests when the last block is partial): the parts
    /// cover the plan, and run in parts the copy writes what `copy` writes.
    #[test]
    fn interleaved_copy_parts_cover_and_match_copy(
        shape in proptest::array::uniform::<_, 3>(0usize..=5),
        d in 0usize..3,
        f in 1usize..=4,
        flip in any::<bool>(),
    ) {
        let il = InterleavedLayout::dense(shape, 4, InterleaveLayout::new(d, f).unwrap()).unwrap();
        let mut planar = Layout::dense(shape, 4, Order::C).unwrap();
        if flip {
            planar = planar.flipped(d).unwrap();
        }
        let want: Vec<[i128; 2]> = interleaved_offsets(&il)
            .into_iter()
            .zip(common::offsets(&planar))
            .map(|(a, b)| [a, b])
            .collect();
        let plan = Plan::new(&[il.lowered(), planar.lowered()]).unwrap();
        check_parts_cover(&plan, want)?;
        let copy_plan = CopyPlan::of(&planar, &il).unwrap();
        let src = buffer(copy_plan.src_len(), 7);
        let mut want = vec![-1; copy_plan.dst_len()];
        strided_layout::copy(&src, &planar, &mut want, &il).unwrap();
        for parts in 1..=MAX_PARTS {
            let mut dst = vec![-1; copy_plan.dst_len()];
            copy_plan.parts(&src, &mut dst, parts).unwrap().for_each(|p| p.run());
            prop_assert_eq!(&dst, &want);
        }
    }
}

/// The parts of reorders between oneDNN's formats (operands blocked on several axes, one axis
/// twice, partial last blocks: up to four nests) cover each plan exactly, against both
/// layouts' own offsets.
#[test]
fn parts_of_reorders_between_blocked_formats_cover_the_plan() {
    use strided_layout::nested::NestedLayout;
    let cases = [
        ("OIhw16i16o", "OIhw4i16o4i", [17, 5, 1, 1]),
        ("nChw8c", "nChw16c", [1, 20, 2, 3]),
        ("oihw", "OIhw16i16o", [18, 20, 1, 2]),
        ("OIhw8i8o", "IOhw16o16i", [9, 17, 1, 1]),
    ];
    // Under Miri the first (four nests, 85 elements) only.
    let cases = if cfg!(miri) { &cases[..1] } else { &cases[..] };
    for &(a, b, dims) in cases {
        let from = NestedLayout::<8>::onednn(a, &dims, 4).unwrap();
        let to = NestedLayout::<8>::onednn(b, &dims, 4).unwrap();
        let plan = Plan::new(&[to.lowered::<4>().unwrap(), from.lowered::<4>().unwrap()]).unwrap();
        let mut want = Vec::new();
        for i in common::indices(&dims) {
            want.push([
                i128::from(to.offset_of(&i).unwrap() as i64),
                i128::from(from.offset_of(&i).unwrap() as i64),
            ]);
        }
        if let Err(e) = check_parts_cover(&plan, want) {
            panic!("{a} -> {b} {dims:?}: {e}");
        }
    }
}

#[test]
fn plan_part_of_a_transpose_cuts_at_whole_tile_rows() {
    let dst = Layout::dense([100, 70], 4, Order::C).unwrap();
    let src = dst.transposed(0, 1).unwrap().to_dense(Order::C).unwrap();
    let src = src.transposed(0, 1).unwrap();
    let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
    let [ta, _] = plan.nests()[0].tile().unwrap();
    for parts in 2..=5 {
        let mut rows = 0;
        for i in 0..parts {
            let part = plan.part(i, parts);
            for nest in part.nests() {
                let outer = nest.loops()[0].extent;
                // With a tile row for every part, every part but the last ends on one.
                if i + 1 < parts && 100 / ta >= parts {
                    assert_eq!(outer % ta, 0, "part {i} of {parts}: {outer} rows");
                }
                assert_eq!(nest.offsets()[0], (rows * 70) as isize);
                rows += outer;
            }
        }
        assert_eq!(rows, 100);
    }
}

// Parts cross threads when the element does (`Send` to write it, `Sync` to share the
// source), are handed out once (not `Clone`), and a part's plan is plain data.
static_assertions::assert_impl_all!(strided_layout::plan::CopyPart<'static, f32>: Send, core::fmt::Debug);
static_assertions::assert_impl_all!(strided_layout::plan::CopyParts<'static, f32>: Send, ExactSizeIterator);
static_assertions::assert_not_impl_any!(strided_layout::plan::CopyPart<'static, f32>: Clone, Sync);
static_assertions::assert_not_impl_any!(strided_layout::plan::CopyPart<'static, std::cell::Cell<u8>>: Send);
static_assertions::assert_impl_all!(Plan<2>: Send, Sync, Copy);

#[test]
fn plan_part_of_a_permute_cuts_the_inner_loop_at_whole_tile_groups() {
    // (2,0,1) of 64³ f32: loops [64 (dst 4096, src 1), 4096 (dst 1, src 64)], 32 x 32 tiles.
    // The 64 outer steps are a quarter of a group of 8 x 8 tiles: the parts cut the inner
    // loop, at multiples of 256 steps, so each keeps every row and the driver's tile groups.
    let cube = Layout::dense([64, 64, 64], 4, Order::C).unwrap();
    let plan = Plan::new(&[cube.lowered(), cube.permuted([2, 0, 1]).unwrap().lowered()]).unwrap();
    let nest = &plan.nests()[0];
    assert_eq!(
        (nest.loops()[0].extent, nest.loops()[1].extent, nest.tile()),
        (64, 4096, Some([32, 32]))
    );
    for parts in 2..=9 {
        let mut start = 0;
        for i in 0..parts {
            let part = plan.part(i, parts);
            let n = &part.nests()[0];
            let [outer, inner] = [n.loops()[0].extent, n.loops()[1].extent];
            assert_eq!(outer, 64);
            assert_eq!(n.offsets(), [start as isize, (start * 64) as isize]);
            if i + 1 < parts {
                assert_eq!(inner % 256, 0, "part {i} of {parts}: {inner} steps");
            }
            start += inner;
        }
        assert_eq!(start, 4096);
    }
}

#[test]
fn copy_parts_refuse_what_run_refuses() {
    let l = Layout::new([4], [1], 4).unwrap();
    let plan = CopyPlan::new(&l, &l).unwrap();
    let mut dst = [0u32; 4];
    assert_eq!(
        plan.parts(&[1u32, 2, 3], &mut dst, 2).err(),
        Some(LayoutError::OffsetOutsideSlice {
            operand: strided_layout::Operand::Source,
            needed: 4,
            given: 3,
        })
    );
    assert_eq!(
        plan.parts(&[1u16, 2, 3, 4], &mut [0u16; 4], 2).err(),
        plan.run(&[1u16, 2, 3, 4], &mut [0u16; 4]).err()
    );
    // Zero parts: nothing to run, nothing written.
    assert_eq!(
        plan.parts(&[1u32, 2, 3, 4], &mut dst, 0).unwrap().count(),
        0
    );
    assert_eq!(dst, [0; 4]);
}

/// Larger cases for the split paths of the `rayon` kernels (each moves more than
/// `PAR_BYTES`); small under Miri.
#[cfg(feature = "rayon")]
mod rayon_kernels {
    use super::*;
    use strided_layout::nested::NestedLayout;
    use strided_layout::plan::Mapping;
    use strided_layout::{PAR_BYTES, Slice};

    /// The side of the big square cases: 2 MiB of `f32` per operand (Miri: tiny, one thread).
    const SIDE: usize = if cfg!(miri) { 8 } else { 724 };

    fn floats(n: usize) -> Vec<f32> {
        (0..n).map(|x| x as f32 * 0.5 - 3.0).collect()
    }

    /// `par_copy` and `copy` write the same bytes (or fail alike, leaving `dst` as it was).
    fn same_copy<const N: usize, S, D>(src: &[f32], sl: &S, dl: &D, dst_len: usize)
    where
        S: Mapping<N>,
        D: Mapping<N>,
    {
        let mut want = vec![-1f32; dst_len];
        let mut got = want.clone();
        let a = strided_layout::copy(src, sl, &mut want, dl);
        let b = strided_layout::par_copy(src, sl, &mut got, dl);
        assert_eq!(a, b);
        assert!(
            want.iter()
                .map(|x| x.to_bits())
                .eq(got.iter().map(|x| x.to_bits()))
        );
    }

    #[test]
    fn par_copy_of_large_transposes_and_permutes_matches_copy() {
        let n = SIDE;
        let src = floats(n * n);
        let c = Layout::dense([n, n], 4, Order::C).unwrap();
        same_copy(
            &src,
            &c,
            &Layout::dense([n, n], 4, Order::F).unwrap(),
            n * n,
        );
        same_copy(&src, &c.transposed(0, 1).unwrap(), &c, n * n);
        // An odd side (no whole tiles) and a copy past the streaming threshold's half.
        let m = if cfg!(miri) { 5 } else { 1001 };
        let src = floats(m * m);
        let c = Layout::dense([m, m], 4, Order::C).unwrap();
        same_copy(&src, &c.transposed(0, 1).unwrap(), &c, m * m);
        // (2,0,1) permute of a cube, and a flipped, stepped slice of it.
        let k = if cfg!(miri) { 4 } else { 96 };
        let src = floats(k * k * k);
        let cube = Layout::dense([k, k, k], 4, Order::C).unwrap();
        let dst = Layout::dense([k, k, k], 4, Order::C).unwrap();
        same_copy(&src, &cube.permuted([2, 0, 1]).unwrap(), &dst, k * k * k);
        let sliced = cube
            .sliced([
                Slice::new(None, None, -1),
                Slice::new(Some(1), None, 2),
                Slice::new(None, None, 1),
            ])
            .unwrap();
        let dst = Layout::dense(sliced.shape(), 4, Order::C).unwrap();
        same_copy(&src, &sliced, &dst, dst.volume());
        // Planar -> interleaved with a partial last block: two nests.
        let il = InterleavedLayout::dense([5, k, 3 * k], 4, InterleaveLayout::new(0, 4).unwrap())
            .unwrap();
        let planar = Layout::dense([5, k, 3 * k], 4, Order::C).unwrap();
        let len = CopyPlan::of(&planar, &il).unwrap().dst_len();
        let src = floats(len);
        same_copy(&src, &planar, &il, len);
        same_copy(&src, &il, &planar, planar.volume());
        // A reorder between oneDNN's weight formats, both blocked on two axes, `i` twice in
        // the destination, O and I not multiples of the blocks: four nests.
        let dims = if cfg!(miri) { [17, 5, 1, 1] } else { [40, 36, 8, 8] };
        let from = NestedLayout::<8>::onednn("OIhw16i16o", &dims, 4).unwrap();
        let to = NestedLayout::<8>::onednn("OIhw4i16o4i", &dims, 4).unwrap();
        let (fl, tl) = (from.lowered::<4>().unwrap(), to.lowered::<4>().unwrap());
        assert_eq!(Plan::new(&[tl, fl]).unwrap().nests().len(), 4);
        let src = floats(from.required_len().unwrap());
        same_copy(&src, &fl, &tl, to.required_len().unwrap());
    }

    #[test]
    fn par_kernels_below_par_bytes_run_one_thread_and_match() {
        // Not a timing test: the small call gives the same bytes as the one-thread kernel.
        let n = (PAR_BYTES / 8).isqrt().max(2) / 2;
        let src = floats(n * n);
        let c = Layout::dense([n, n], 4, Order::C).unwrap();
        same_copy(&src, &c.transposed(0, 1).unwrap(), &c, n * n);
    }

    proptest! {
        #![proptest_config(ProptestConfig {
            cases: if cfg!(miri) { 1 } else { 12 },
            failure_persistence: None,
            ..ProptestConfig::default()
        })]

        /// Random large rank-3 copies: a permutation, flips and an offset of a dense
        /// layout on each side, over 2 MiB moved each.
        #[test]
        fn par_copy_of_random_large_permutes_matches_copy(
            shape in proptest::array::uniform::<_, 3>(if cfg!(miri) { 1usize..=3 } else { 64usize..=96 }),
            ps in Just([0usize, 1, 2]).prop_shuffle(),
            pd in Just([0usize, 1, 2]).prop_shuffle(),
            fs in proptest::array::uniform::<_, 3>(any::<bool>()),
            fd in proptest::array::uniform::<_, 3>(any::<bool>()),
        ) {
            let mk = |perm: [usize; 3], flips: [bool; 3]| {
                let mut l = Layout::dense(shape, 4, Order::Perm(perm)).unwrap();
                for (k, &f) in flips.iter().enumerate() {
                    if f {
                        l = l.flipped(k).unwrap();
                    }
                }
                l
            };
            let (sl, dl) = (mk(ps, fs), mk(pd, fd));
            let vol = sl.volume();
            let src = floats(vol);
            same_copy(&src, &sl, &dl, vol);
            // map and zip_map on the same operands.
            let mut want = vec![0i32; vol];
            let mut got = want.clone();
            let f = |x: f32| (x * 3.0) as i32;
            let dli = Layout::new(dl.shape(), dl.strides(), 4).unwrap().with_offset(dl.offset()).unwrap();
            prop_assert_eq!(
                strided_layout::map(&src, &sl, &mut want, &dli, f),
                strided_layout::par_map(&src, &sl, &mut got, &dli, f)
            );
            prop_assert_eq!(&want, &got);
            let g = |x: f32, y: f32| (x - 2.0 * y) as i32;
            prop_assert_eq!(
                strided_layout::zip_map(&src, &sl, &src, &dl, &mut want, &dli, g),
                strided_layout::par_zip_map(&src, &sl, &src, &dl, &mut got, &dli, g)
            );
            prop_assert_eq!(&want, &got);
        }
    }

    #[test]
    fn par_zip_map_of_a_plus_a_transposed_matches_zip_map() {
        let n = SIDE;
        let a = floats(n * n);
        let c = Layout::dense([n, n], 4, Order::C).unwrap();
        let t = c.transposed(0, 1).unwrap();
        let (mut want, mut got) = (vec![0f32; n * n], vec![0f32; n * n]);
        strided_layout::zip_map(&a, &c, &a, &t, &mut want, &c, |x, y| x + y).unwrap();
        strided_layout::par_zip_map(&a, &c, &a, &t, &mut got, &c, |x, y| x + y).unwrap();
        assert!(
            want.iter()
                .map(|x| x.to_bits())
                .eq(got.iter().map(|x| x.to_bits()))
        );
    }

    fn same_fill<const N: usize>(l: &Layout<N>, n: usize) {
        let (mut want, mut got) = (vec![0u32; n], vec![0u32; n]);
        assert_eq!(
            strided_layout::fill(&mut want, l, 9),
            strided_layout::par_fill(&mut got, l, 9)
        );
        assert_eq!(want, got, "{l:?}");
    }

    #[test]
    fn par_fill_matches_fill_for_unique_broadcast_and_overlapping_layouts() {
        let n = if cfg!(miri) { 16 } else { 1 << 20 };
        same_fill(
            &Layout::new([n / 2], [2], 4)
                .unwrap()
                .with_offset(1)
                .unwrap(),
            n,
        );
        let rows = Layout::new([n / 4, 4], [4, -1], 4).unwrap();
        same_fill(&rows.with_offset(3).unwrap(), n);
        // Broadcast: every row writes the same elements.
        same_fill(&Layout::new([n / 8, 8], [0, 1], 4).unwrap(), n);
        // Not unique (offsets repeat): one thread.
        same_fill(&Layout::new([n / 2, 2], [1, 1], 4).unwrap(), n);
        // Too short a slice: the same error.
        same_fill(
            &Layout::new([n], [1], 4).unwrap().with_offset(1).unwrap(),
            n,
        );
    }

    fn check_par_copy_small<const N: usize>(
        (d, s): (Placed<N>, Placed<N>),
    ) -> Result<(), TestCaseError> {
        let src = buffer(s.len, 1_000);
        let mut want = buffer(d.len, -1_000_000);
        let mut got = want.clone();
        let a = strided_layout::copy(&src, &s.layout, &mut want, &d.layout);
        let b = strided_layout::par_copy(&src, &s.layout, &mut got, &d.layout);
        prop_assert_eq!(a, b);
        prop_assert_eq!(&want, &got);
        let f = |x: i32| x.wrapping_mul(3);
        let a = strided_layout::map(&src, &s.layout, &mut want, &d.layout, f);
        let b = strided_layout::par_map(&src, &s.layout, &mut got, &d.layout, f);
        prop_assert_eq!(a, b);
        prop_assert_eq!(&want, &got);
        let a = strided_layout::fill(&mut want, &d.layout, 5);
        let b = strided_layout::par_fill(&mut got, &d.layout, 5);
        prop_assert_eq!(a, b);
        prop_assert_eq!(&want, &got);
        Ok(())
    }

    fn check_par_zip_map_small<const N: usize>(
        (d, a, b): (Placed<N>, Placed<N>, Placed<N>),
    ) -> Result<(), TestCaseError> {
        let (va, vb) = (buffer(a.len, 10), buffer(b.len, 100));
        let mut want = buffer(d.len, -1_000_000);
        let mut got = want.clone();
        let f = |x: i32, y: i32| x - 2 * y;
        let r1 = strided_layout::zip_map(&va, &a.layout, &vb, &b.layout, &mut want, &d.layout, f);
        let r2 =
            strided_layout::par_zip_map(&va, &a.layout, &vb, &b.layout, &mut got, &d.layout, f);
        prop_assert_eq!(r1, r2);
        prop_assert_eq!(&want, &got);
        Ok(())
    }

    for_kernel_ranks!(
        par_kernels_match_one_thread_kernels,
        pair,
        check_par_copy_small
    );
    for_kernel_ranks!(par_zip_map_matches_zip_map, triple, check_par_zip_map_small);
}

/// Part indices and counts from the whole range of `usize`, biased to the edges.
fn any_count() -> impl Strategy<Value = usize> {
    prop_oneof![
        0usize..=10,
        Just(usize::MAX),
        Just(usize::MAX - 1),
        Just(usize::MAX / 2),
        any::<usize>()
    ]
}

proptest! {
    #![proptest_config(config())]

    /// No index or count makes `part` panic (debug build: overflow would); a part is never
    /// larger than the plan, and `i >= parts` is empty.
    #[test]
    fn plan_part_of_any_index_and_count_never_panics(
        (d, s) in pair::<3>(),
        i in any_count(),
        parts in any_count(),
    ) {
        if let Ok(plan) = Plan::new(&[d.layout.lowered(), s.layout.lowered()]) {
            let part = plan.part(i, parts);
            prop_assert!(part.volume() <= plan.volume());
            if i >= parts {
                prop_assert_eq!(part.volume(), 0);
            }
            // The last two parts of a huge count still cover the tail of the plan.
            if parts == usize::MAX {
                let tail = plan.part(parts - 1, parts).volume() + plan.part(parts - 2, parts).volume();
                prop_assert!(tail <= plan.volume());
            }
        }
    }
}

/// Two operands interleaved differently (other factors, other axes, partial last blocks, one
/// of them plain or flipped): every plan shape the planner produces, up to its most nests.
/// The parts cover the plan exactly, and the parts of the copy write what `copy` writes.
fn check_differently_interleaved(
    shape: [usize; 3],
    (da, fa): (usize, usize),
    (db, fb): (usize, usize),
    flip: Option<usize>,
) -> Result<(), TestCaseError> {
    let il = |d: usize, f: usize| {
        InterleavedLayout::dense(shape, 4, InterleaveLayout::new(d, f).unwrap()).unwrap()
    };
    let (a, b) = (il(da, fa), il(db, fb));
    let plan = match Plan::new(&[b.lowered(), a.lowered()]) {
        Ok(p) => p,
        // More pieces than a plan holds: no parts (they cut one plan), `par_copy` plans
        // them in windows and writes what `copy` writes (not under Miri: this test runs with
        // strict provenance there, which stops rayon's workers inside crossbeam; Miri's rayon
        // job runs `par_copy`).
        Err(e) => {
            prop_assert_eq!(e, LayoutError::InterleaveConflict);
            prop_assert_eq!(CopyPlan::of(&a, &b).map(|_| ()), Err(e));
            #[cfg(all(feature = "rayon", not(miri)))]
            {
                let src = buffer(a.required_len().unwrap(), 7);
                let mut want = vec![-1; b.required_len().unwrap()];
                let mut got = want.clone();
                strided_layout::copy(&src, &a, &mut want, &b).unwrap();
                strided_layout::par_copy(&src, &a, &mut got, &b).unwrap();
                prop_assert_eq!(want, got);
            }
            return Ok(());
        }
    };
    let want: Vec<[i128; 2]> = interleaved_offsets(&b)
        .into_iter()
        .zip(interleaved_offsets(&a))
        .map(|(x, y)| [x, y])
        .collect();
    check_parts_cover(&plan, want)?;
    let copy_plan = CopyPlan::of(&a, &b).unwrap();
    let src = buffer(copy_plan.src_len(), 7);
    let mut want = vec![-1; copy_plan.dst_len()];
    strided_layout::copy(&src, &a, &mut want, &b).unwrap();
    for parts in 1..=MAX_PARTS {
        let mut dst = vec![-1; copy_plan.dst_len()];
        copy_plan
            .parts(&src, &mut dst, parts)
            .unwrap()
            .for_each(|p| p.run());
        prop_assert_eq!(&dst, &want, "{} parts", parts);
    }
    // One side planar (flipped on an axis or not) against an interleaved other.
    let mut planar = Layout::dense(shape, 4, Order::C).unwrap();
    if let Some(k) = flip {
        planar = planar.flipped(k).unwrap();
    }
    let plan = Plan::new(&[b.lowered(), planar.lowered()]).unwrap();
    let want: Vec<[i128; 2]> = interleaved_offsets(&b)
        .into_iter()
        .zip(common::offsets(&planar))
        .map(|(x, y)| [x, y])
        .collect();
    check_parts_cover(&plan, want)
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn differently_interleaved_parts_cover_and_match_copy(
        shape in proptest::array::uniform::<_, 3>(1usize..=if cfg!(miri) { 5 } else { 11 }),
        da in 0usize..3,
        fa in 1usize..=6,
        db in 0usize..3,
        fb in 1usize..=6,
        flip in proptest::option::of(0usize..3),
    ) {
        check_differently_interleaved(shape, (da, fa), (db, fb), flip)?;
    }
}

#[test]
fn nchw8c_to_nchw16c_parts_cover_all_three_nests() {
    // 28 channels: blocks of 8 against blocks of 16, both partial: three nests.
    let blocked = |f| {
        InterleavedLayout::dense([1, 28, 1, 1], 4, InterleaveLayout::new(1, f).unwrap()).unwrap()
    };
    let (b8, b16) = (blocked(8), blocked(16));
    let plan = CopyPlan::of(&b8, &b16).unwrap();
    assert_eq!(plan.plan().nests().len(), 3);
    assert_eq!(plan.plan().part(0, 1).volume(), 28);
    for parts in 1..=MAX_PARTS {
        let total: usize = (0..parts)
            .map(|i| plan.plan().part(i, parts).volume())
            .sum();
        assert_eq!(total, 28, "{parts} parts");
    }
    // Two axes blocked, each with a partial last block: four nests, the most a plan holds.
    let a = InterleavedLayout::dense([1, 28, 6, 1], 4, InterleaveLayout::new(1, 8).unwrap());
    let b = InterleavedLayout::dense([1, 28, 6, 1], 4, InterleaveLayout::new(2, 4).unwrap());
    let plan = CopyPlan::of(&a.unwrap(), &b.unwrap()).unwrap();
    assert_eq!(plan.plan().nests().len(), strided_layout::plan::MAX_NESTS);
    for parts in 1..=MAX_PARTS {
        let total: usize = (0..parts)
            .map(|i| plan.plan().part(i, parts).volume())
            .sum();
        assert_eq!(total, 168, "{parts} parts");
    }
}

/// `par_copy`, `par_map`, `par_zip_map` and `par_fill` between operands interleaved
/// differently, large enough to split: the bytes of the one-thread kernels, `f` called once
/// per index; blocks of 4 against blocks of 6 are more pieces than one plan holds (planned in
/// windows, each split).
#[cfg(feature = "rayon")]
#[test]
fn par_kernels_of_differently_interleaved_operands_match_one_thread() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let hw = if cfg!(miri) { 2 } else { 128 };
    let shape = [1, 28, hw, hw];
    let blocked =
        |d, f| InterleavedLayout::dense(shape, 4, InterleaveLayout::new(d, f).unwrap()).unwrap();
    let cases = [
        (blocked(1, 8), blocked(1, 16)),
        (blocked(1, 16), blocked(1, 8)),
        (blocked(1, 8), blocked(2, 4)),
        (blocked(3, 5), blocked(1, 3)),
        (blocked(1, 4), blocked(1, 6)),
    ];
    for (a, b) in cases {
        let windows = CopyPlan::of(&a, &b) == Err(LayoutError::InterleaveConflict);
        assert_eq!(windows, a.interleave().factor() == 4, "{:?}", a.interleave());
        let src = buffer(a.required_len().unwrap(), 3);
        let mut want = vec![-1; b.required_len().unwrap()];
        let mut got = want.clone();
        strided_layout::copy(&src, &a, &mut want, &b).unwrap();
        strided_layout::par_copy(&src, &a, &mut got, &b).unwrap();
        assert_eq!(
            want,
            got,
            "par_copy {:?} -> {:?}",
            a.interleave(),
            b.interleave()
        );
        let calls = AtomicUsize::new(0);
        let f = |x: i32| {
            calls.fetch_add(1, Ordering::Relaxed);
            x.wrapping_mul(5)
        };
        strided_layout::map(&src, &a, &mut want, &b, |x: i32| x.wrapping_mul(5)).unwrap();
        strided_layout::par_map(&src, &a, &mut got, &b, f).unwrap();
        assert_eq!(want, got, "par_map");
        assert_eq!(calls.load(Ordering::Relaxed), a.volume(), "par_map calls");
        let g = |x: i32, y: i32| x.wrapping_sub(y.wrapping_mul(2));
        strided_layout::zip_map(&src, &a, &src, &a, &mut want, &b, g).unwrap();
        strided_layout::par_zip_map(&src, &a, &src, &a, &mut got, &b, g).unwrap();
        assert_eq!(want, got, "par_zip_map");
        strided_layout::fill(&mut want, &b, 9).unwrap();
        strided_layout::par_fill(&mut got, &b, 9).unwrap();
        assert_eq!(want, got, "par_fill");
    }
}
