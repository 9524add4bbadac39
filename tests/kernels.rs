//! The kernels against an element-by-element reference: random layout pairs of ranks 0..=5,
//! extents 0..=6, strides -6..=6 (0 included, so sources overlap), every result compared
//! with the model, untouched elements checked, and every rejection checked to be the right
//! error with the destination unchanged.
#![allow(
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::cast_possible_truncation,
    clippy::needless_range_loop
)]

use crate::common;
use common::{Placed, place};

use proptest::prelude::*;
use strided_layout::plan::{Blocks, Level, Lowered, Mapping, Plan};
use strided_layout::{Layout, LayoutError, Operand, Order};

const CASES: u32 = if cfg!(miri) { 4 } else { 256 };

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
        0usize..3,
        prop_oneof![8 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)],
    )
        .prop_map(move |(st, slack, extra, spoil)| place(shape, st, slack, extra, spoil))
}

fn shape<const N: usize>() -> impl Strategy<Value = [usize; N]> {
    proptest::array::uniform::<_, N>(0usize..=6)
}

/// Two placed layouts of one shape.
fn pair<const N: usize>() -> impl Strategy<Value = (Placed<N>, Placed<N>)> {
    shape::<N>().prop_flat_map(|s| (placed(s), placed(s)))
}

/// A C-contiguous layout of `shape`, placed (sometimes spoiled: one before its slice, or its
/// slice one short).
fn dense_placed<const N: usize>(shape: [usize; N]) -> impl Strategy<Value = Placed<N>> {
    let mut strides = [0isize; N];
    let mut step = 1isize;
    for k in (0..N).rev() {
        strides[k] = step;
        step *= shape[k].max(1) as isize;
    }
    (
        0isize..3,
        0usize..3,
        prop_oneof![6 => Just(0u8), 1 => Just(1u8), 1 => Just(2u8)],
    )
        .prop_map(move |(slack, extra, spoil)| place(shape, strides, slack, extra, spoil))
}

/// A C-contiguous destination and a source of one small shape, C-contiguous itself or any
/// placed layout (extents up to 4: the dense copies and the rank-3 blocks of at most 64
/// elements that `copy()` copies without planning, and larger ones past them).
fn dense_pair<const N: usize>() -> impl Strategy<Value = (Placed<N>, Placed<N>)> {
    proptest::array::uniform::<_, N>(0usize..=4).prop_flat_map(|shape| {
        (
            dense_placed(shape),
            prop_oneof![placed(shape).boxed(), dense_placed(shape).boxed()],
        )
    })
}

/// Three placed layouts of one shape.
fn triple<const N: usize>() -> impl Strategy<Value = (Placed<N>, Placed<N>, Placed<N>)> {
    shape::<N>().prop_flat_map(|s| (placed(s), placed(s), placed(s)))
}

/// `l` with the itemsize of `T`: the kernels refuse a layout whose itemsize is not the
/// element's size.
fn sized<T, const N: usize>(l: &Layout<N>) -> Layout<N> {
    Layout::new(l.shape(), l.strides(), size_of::<T>())
        .unwrap()
        .with_offset(l.offset())
        .unwrap()
}

fn offsets_of<const N: usize>(l: &Layout<N>) -> Vec<i128> {
    common::offsets(l)
}

/// The error the kernels must return for operands `ops` (operand 0 the destination, or the
/// source when `unique_dst` is false and there is one operand, as in `fold`; `unique_dst`
/// whether operand 0 must be unique), or `None` when the call is valid.
fn expected_error(ops: &[(&[i128], usize)], unique_dst: bool) -> Option<LayoutError> {
    if ops.first().is_some_and(|(o, _)| o.is_empty()) {
        return None;
    }
    for (k, (offs, len)) in ops.iter().enumerate() {
        let operand = match k {
            0 => Operand::Destination,
            1 => Operand::Source,
            _ => Operand::SecondSource,
        };
        let (lo, hi) = (offs.iter().min()?, offs.iter().max()?);
        if *lo < 0 {
            let lowest = isize::try_from(*lo).unwrap();
            return Some(LayoutError::OffsetBelowSlice { operand, lowest });
        }
        if *hi >= *len as i128 {
            let needed = usize::try_from(hi + 1).unwrap();
            return Some(LayoutError::OffsetOutsideSlice {
                operand,
                needed,
                given: *len,
            });
        }
    }
    if unique_dst && !common::unique_model(ops[0].0) {
        return Some(LayoutError::DestinationNotUnique);
    }
    None
}

fn buffer(len: usize, base: i32) -> Vec<i32> {
    (0..len as i32).map(|x| base + x).collect()
}

fn check_copy<const N: usize>((d, s): (Placed<N>, Placed<N>)) -> Result<(), TestCaseError> {
    let (od, os) = (offsets_of(&d.layout), offsets_of(&s.layout));
    let src = buffer(s.len, 1_000);
    let mut dst = buffer(d.len, -1_000_000);
    let before = dst.clone();
    let got = strided_layout::copy(&src, &s.layout, &mut dst, &d.layout);
    match expected_error(&[(&od, d.len), (&os, s.len)], true) {
        Some(e) => {
            prop_assert_eq!(got, Err(e));
            prop_assert_eq!(&dst, &before);
        }
        None => {
            prop_assert_eq!(got, Ok(()));
            let mut want = before;
            for (&o, &i) in od.iter().zip(&os) {
                want[o as usize] = src[i as usize];
            }
            prop_assert_eq!(&dst, &want);
        }
    }
    Ok(())
}

fn check_fill<const N: usize>((d, _): (Placed<N>, Placed<N>)) -> Result<(), TestCaseError> {
    let od = offsets_of(&d.layout);
    let mut dst = buffer(d.len, 0);
    let before = dst.clone();
    let got = strided_layout::fill(&mut dst, &d.layout, -7);
    match expected_error(&[(&od, d.len)], false) {
        Some(e) => {
            prop_assert_eq!(got, Err(e));
            prop_assert_eq!(&dst, &before);
        }
        None => {
            prop_assert_eq!(got, Ok(()));
            let mut want = before;
            for &o in &od {
                want[o as usize] = -7;
            }
            prop_assert_eq!(&dst, &want);
        }
    }
    Ok(())
}

fn check_map<const N: usize>((d, s): (Placed<N>, Placed<N>)) -> Result<(), TestCaseError> {
    let (od, os) = (offsets_of(&d.layout), offsets_of(&s.layout));
    let src: Vec<u16> = (0..s.len as u16).collect();
    let mut dst: Vec<i64> = (0..d.len as i64).map(|x| -x - 1).collect();
    let before = dst.clone();
    let mut calls = 0usize;
    let (sl, dl) = (sized::<u16, N>(&s.layout), sized::<i64, N>(&d.layout));
    let got = strided_layout::map(&src, &sl, &mut dst, &dl, |x| {
        calls += 1;
        i64::from(x) * 3
    });
    match expected_error(&[(&od, d.len), (&os, s.len)], true) {
        Some(e) => {
            prop_assert_eq!(got, Err(e));
            prop_assert_eq!(&dst, &before);
            prop_assert_eq!(calls, 0);
        }
        None => {
            prop_assert_eq!(got, Ok(()));
            prop_assert_eq!(calls, od.len());
            let mut want = before;
            for (&o, &i) in od.iter().zip(&os) {
                want[o as usize] = i64::from(src[i as usize]) * 3;
            }
            prop_assert_eq!(&dst, &want);
        }
    }
    Ok(())
}

fn check_zip_map<const N: usize>(
    (d, a, b): (Placed<N>, Placed<N>, Placed<N>),
) -> Result<(), TestCaseError> {
    let (od, oa, ob) = (
        offsets_of(&d.layout),
        offsets_of(&a.layout),
        offsets_of(&b.layout),
    );
    let av = buffer(a.len, 10);
    let bv: Vec<f32> = (0..b.len).map(|x| x as f32 * 0.5).collect();
    let mut dst: Vec<f64> = vec![-1.0; d.len];
    let before = dst.clone();
    let got = strided_layout::zip_map(
        &av,
        &a.layout,
        &bv,
        &b.layout,
        &mut dst,
        &sized::<f64, N>(&d.layout),
        |x, y| f64::from(x) * 1000.0 + f64::from(y),
    );
    match expected_error(&[(&od, d.len), (&oa, a.len), (&ob, b.len)], true) {
        Some(e) => {
            prop_assert_eq!(got, Err(e));
            prop_assert_eq!(&dst, &before);
        }
        None => {
            prop_assert_eq!(got, Ok(()));
            let mut want = before;
            for ((&o, &i), &j) in od.iter().zip(&oa).zip(&ob) {
                want[o as usize] = f64::from(av[i as usize]) * 1000.0 + f64::from(bv[j as usize]);
            }
            prop_assert_eq!(&dst, &want);
        }
    }
    Ok(())
}

fn check_fold<const N: usize>((_, s): (Placed<N>, Placed<N>)) -> Result<(), TestCaseError> {
    let os = offsets_of(&s.layout);
    let src: Vec<u64> = (0..s.len as u64).map(|x| x * x + 1).collect();
    // Order-independent summaries: the sum and the sorted multiset of visited values.
    let sl = sized::<u64, N>(&s.layout);
    let got = strided_layout::fold(&src, &sl, (0u64, Vec::new()), |(sum, mut seen), x| {
        seen.push(x);
        (sum + x, seen)
    });
    // `fold`'s one operand is its source.
    let want = expected_error(&[(&os, s.len)], false).map(|e| match e {
        LayoutError::OffsetOutsideSlice { needed, given, .. } => LayoutError::OffsetOutsideSlice {
            operand: Operand::Source,
            needed,
            given,
        },
        LayoutError::OffsetBelowSlice { lowest, .. } => LayoutError::OffsetBelowSlice {
            operand: Operand::Source,
            lowest,
        },
        e => e,
    });
    match want {
        Some(e) => prop_assert_eq!(got.map(|_| ()), Err(e)),
        None => {
            let (sum, mut seen) = got.unwrap();
            let mut want: Vec<u64> = os.iter().map(|&o| src[o as usize]).collect();
            prop_assert_eq!(sum, want.iter().sum::<u64>());
            seen.sort_unstable();
            want.sort_unstable();
            prop_assert_eq!(seen, want);
        }
    }
    Ok(())
}

/// `copy_within` in one buffer: both layouts placed in a buffer of the larger length.
fn check_copy_within<const N: usize>((d, s): (Placed<N>, Placed<N>)) -> Result<(), TestCaseError> {
    let len = d.len.max(s.len);
    let (od, os) = (offsets_of(&d.layout), offsets_of(&s.layout));
    let mut buf = buffer(len, 0);
    let before = buf.clone();
    let got = strided_layout::copy_within(&mut buf, &s.layout, &d.layout);
    let mut want_err = expected_error(&[(&od, len), (&os, len)], true);
    if want_err.is_none() && !od.is_empty() {
        let coincide = od == os;
        let share = od.iter().any(|o| os.contains(o));
        if !coincide && share {
            want_err = Some(LayoutError::OperandsOverlap);
        }
    }
    match want_err {
        Some(e) => {
            prop_assert_eq!(got, Err(e));
            prop_assert_eq!(&buf, &before);
        }
        None => {
            prop_assert_eq!(got, Ok(()));
            let mut want = before.clone();
            for (&o, &i) in od.iter().zip(&os) {
                want[o as usize] = before[i as usize];
            }
            prop_assert_eq!(&buf, &want);
        }
    }
    Ok(())
}

macro_rules! ranks {
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

ranks!(copy_matches_model, pair, check_copy);
ranks!(copy_into_dense_matches_model, dense_pair, check_copy);
ranks!(fill_matches_model, pair, check_fill);
ranks!(map_matches_model, pair, check_map);
ranks!(zip_map_matches_model, triple, check_zip_map);
ranks!(fold_visits_every_index_once, pair, check_fold);
ranks!(copy_within_matches_model, pair, check_copy_within);

#[test]
fn copy_rejects_shape_mismatch_and_leaves_dst() {
    let a = Layout::dense([2, 3], 4, Order::C).unwrap();
    let b = Layout::dense([2, 4], 4, Order::C).unwrap();
    let mut dst = [9i32; 8];
    let got = strided_layout::copy(&[0i32; 6], &a, &mut dst, &b);
    assert_eq!(got, Err(LayoutError::ShapeMismatch { axis: 1 }));
    assert_eq!(dst, [9; 8]);
}

// ---- the tiled (transpose) path at sizes that hit the SIMD blocks and their tails ----

/// A permuted copy of a dense `shape` tensor, checked against the model, for element type
/// `T` built from an index by `mk`.
fn check_permuted<T, const N: usize>(shape: [usize; N], perm: [usize; N], mk: fn(usize) -> T)
where
    T: Copy + PartialEq + std::fmt::Debug + 'static,
{
    let src_l = Layout::dense(shape, size_of::<T>(), Order::C).unwrap();
    let pshape = perm.map(|p| shape[p]);
    let view = src_l.permuted(perm).unwrap();
    let dst_l = Layout::dense(pshape, size_of::<T>(), Order::C).unwrap();
    let vol = src_l.volume();
    let src: Vec<T> = (0..vol).map(mk).collect();
    let mut dst: Vec<T> = (0..vol + 3).map(|i| mk(i + 1_000_000)).collect();
    let dst_l = dst_l.with_offset(1).unwrap();
    strided_layout::copy(&src, &view, &mut dst, &dst_l).unwrap();
    let (od, os) = (common::offsets(&dst_l), common::offsets(&view));
    for (&o, &i) in od.iter().zip(&os) {
        assert_eq!(dst[o as usize], src[i as usize], "{shape:?} {perm:?}");
    }
    assert_eq!(dst[0], mk(1_000_000));
    assert_eq!(dst[vol + 1], mk(vol + 1 + 1_000_000));
}

#[test]
fn copy_transposes_at_simd_block_sizes_and_tails() {
    let sizes: &[usize] = if cfg!(miri) {
        &[1, 5, 9]
    } else {
        &[
            1, 2, 3, 4, 5, 7, 8, 9, 15, 16, 17, 31, 32, 33, 40, 63, 64, 65, 100,
        ]
    };
    for &r in sizes {
        for &c in sizes {
            check_permuted([r, c], [1, 0], |i| i as f32);
            check_permuted([r, c], [1, 0], |i| i as u32);
            if r * c < 2000 {
                check_permuted([r, c], [1, 0], |i| i as u8);
                check_permuted([r, c], [1, 0], |i| i as f64);
                check_permuted([r, c], [1, 0], |i| (i as u8, i as u16));
            }
        }
    }
}

/// The small blocks' 8 × 8 `f32` tiles with either operand's axes flipped (negative row and
/// element strides) and padded destination rows, through `copy` and a prepared plan, against
/// the model, with the padding and the guard elements untouched.
#[test]
fn copy_transposes_flipped_and_padded_tiles() {
    let shapes: &[[usize; 2]] = if cfg!(miri) {
        &[[8, 16]]
    } else {
        &[[8, 8], [16, 16], [8, 24], [32, 16]]
    };
    for &[r, c] in shapes {
        for flips in 0..16u32 {
            let src_l = Layout::dense([r, c], 4, Order::C).unwrap();
            // The destination: `c × r`, rows padded by 3 elements, one guard element first.
            let dst_l = Layout::new([c, r], [r as isize + 3, 1], 4)
                .unwrap()
                .with_offset(1)
                .unwrap();
            let (mut view, mut dst_v) = (src_l.permuted([1, 0]).unwrap(), dst_l);
            for axis in 0..2 {
                if flips & (1 << axis) != 0 {
                    view = view.flipped(axis).unwrap();
                }
                if flips & (4 << axis) != 0 {
                    dst_v = dst_v.flipped(axis).unwrap();
                }
            }
            let src: Vec<f32> = (0..r * c).map(|i| i as f32).collect();
            let len = 1 + c * (r + 3) + 1;
            let fresh = || -> Vec<f32> { (0..len).map(|i| -(i as f32) - 1.0).collect() };
            let mut want = fresh();
            for (&o, &i) in common::offsets(&dst_v).iter().zip(&common::offsets(&view)) {
                want[o as usize] = src[i as usize];
            }
            let mut dst = fresh();
            strided_layout::copy(&src, &view, &mut dst, &dst_v).unwrap();
            assert_eq!(dst, want, "{r}x{c} flips {flips:#06b}");
            let plan = strided_layout::CopyPlan::new(&view, &dst_v).unwrap();
            let mut dst = fresh();
            plan.run(&src, &mut dst).unwrap();
            assert_eq!(dst, want, "prepared {r}x{c} flips {flips:#06b}");
        }
    }
}

/// Rank-2 copies whose block is tiled, planned by the run-time copy's own two-operand planner
/// (no `Plan`): transposes of plain-data element types no block kernel takes (under Miri too:
/// the tile driver is safe code around `copy_block`), and of `u16` past the block kernels'
/// 32 KiB (natively: Miri checks `copy_block`'s transposes through the smaller cases).
#[test]
fn copy_tiles_rank2_blocks_planned_without_a_plan() {
    let (r, c) = if cfg!(miri) { (40, 36) } else { (150, 130) };
    check_permuted([r, c], [1, 0], |i| (i as u8, i as u16));
    check_permuted([c, r], [1, 0], |i| [i as u16, 1, 2, (i >> 16) as u16]);
    if !cfg!(miri) {
        check_permuted([190, 180], [1, 0], |i| i as u16);
    }
}

#[test]
fn copy_permutes_rank3_tensors() {
    let shapes: &[[usize; 3]] = if cfg!(miri) {
        &[[3, 5, 9]]
    } else {
        &[[3, 32, 32], [3, 5, 9], [17, 9, 33], [2, 64, 3]]
    };
    for &s in shapes {
        for perm in [[0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            check_permuted(s, perm, |i| i as f32);
            check_permuted(s, perm, |i| i as u8);
        }
    }
}

/// Every other row of a 36 MiB source (rows of 4,099 bytes, an odd length, from an odd
/// offset): a copy past the streaming size whose destination (18 MiB) is not, which streams
/// its rows on Intel cores and stores them plainly elsewhere; either way the bytes match and
/// the guards stay.
#[test]
fn copy_of_every_other_long_row_matches_whether_or_not_rows_stream() {
    let (rows, len) = if cfg!(miri) { (8, 37) } else { (9216, 4099) };
    let src: Vec<u8> = (0..rows * len).map(|i| (i * 13 + i / 7) as u8).collect();
    let sl = Layout::new([rows / 2, len], [2 * len as isize, 1], 1).unwrap();
    let dl = Layout::new([rows / 2, len], [len as isize, 1], 1)
        .unwrap()
        .with_offset(3)
        .unwrap();
    let mut dst = vec![0xA5u8; rows / 2 * len + 4];
    strided_layout::copy(&src, &sl, &mut dst, &dl).unwrap();
    for r in 0..rows / 2 {
        let (d, s) = (3 + r * len, 2 * r * len);
        assert_eq!(&dst[d..d + len], &src[s..s + len], "row {r}");
    }
    assert_eq!(
        (&dst[..3], dst[rows / 2 * len + 3]),
        (&[0xA5u8; 3][..], 0xA5)
    );
}

#[test]
fn copy_of_large_contiguous_buffer_streams_and_matches() {
    // 33 MiB of u8 crosses the streaming threshold; an odd offset makes the head unaligned.
    let n = if cfg!(miri) { 1000 } else { (33 << 20) + 77 };
    let src: Vec<u8> = (0..n).map(|i| (i * 7) as u8).collect();
    let mut dst = vec![0u8; n + 2];
    let sl = Layout::new([n], [1], 1).unwrap();
    let dl = sl.with_offset(1).unwrap();
    strided_layout::copy(&src, &sl, &mut dst, &dl).unwrap();
    assert_eq!(&dst[1..=n], &src[..]);
    assert_eq!((dst[0], dst[n + 1]), (0, 0));
}

// ---- interleaved operands, through a test-only mapping ----

/// An interleaved layout as the interleave issue will define it: axis `d` in blocks of `f`.
#[derive(Clone, Copy, Debug)]
struct Interleaved<const N: usize>(Lowered<N>);

impl<const N: usize> Mapping<N> for Interleaved<N> {
    fn lowered(&self) -> Lowered<N> {
        self.0
    }
}

impl<const N: usize> Interleaved<N> {
    fn offsets(&self) -> Vec<i128> {
        let l = self.0;
        let mut out = Vec::new();
        common::for_each_index(&l.shape, |ix| out.push(common::lowered_offset(&l, ix)));
        out
    }
}

/// A dense interleaved layout: block-major with lanes innermost, like `InterleavedLayout::dense`.
fn interleaved<const N: usize>(shape: [usize; N], d: usize, f: usize) -> Interleaved<N> {
    // The factor axis is innermost (stride 1); the block axis of `d` sits in `d`'s place.
    let mut blocks = shape;
    blocks[d] = shape[d].div_ceil(f);
    let mut strides = [0isize; N];
    let mut acc = f as isize;
    for k in (0..N).rev() {
        strides[k] = acc;
        acc *= blocks[k] as isize;
    }
    Interleaved(Lowered {
        shape,
        strides,
        offset: 0,
        itemsize: 4,
        blocks: Blocks::interleave(d, f),
    })
}

fn interleave_case() -> impl Strategy<Value = ([usize; 3], usize, usize)> {
    (
        proptest::array::uniform::<_, 3>(0usize..=7),
        0usize..3,
        1usize..=5,
    )
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn copy_planar_to_interleaved_matches_model((shape, d, f) in interleave_case()) {
        let src_l = Layout::dense(shape, 4, Order::C).unwrap();
        let dst_l = interleaved(shape, d, f);
        let od = dst_l.offsets();
        let len = od.iter().max().map_or(0, |&m| m as usize + 1) + 2;
        let src = buffer(src_l.volume(), 1);
        let mut dst = vec![0i32; len];
        strided_layout::copy(&src, &src_l, &mut dst, &dst_l).unwrap();
        let mut want = vec![0i32; len];
        for (&o, &i) in od.iter().zip(&common::offsets(&src_l)) {
            want[o as usize] = src[i as usize];
        }
        prop_assert_eq!(dst, want);
    }

    #[test]
    fn copy_interleaved_to_flipped_planar_matches_model((shape, d, f) in interleave_case()) {
        let src_l = interleaved(shape, d, f);
        let os = src_l.offsets();
        let len = os.iter().max().map_or(0, |&m| m as usize + 1);
        let dst_l = Layout::dense(shape, 4, Order::F).unwrap().flipped(d).unwrap();
        let src = buffer(len, 5);
        let mut dst = vec![0i32; dst_l.volume()];
        strided_layout::copy(&src, &src_l, &mut dst, &dst_l).unwrap();
        let mut want = vec![0i32; dst_l.volume()];
        for (&o, &i) in common::offsets(&dst_l).iter().zip(&os) {
            want[o as usize] = src[i as usize];
        }
        prop_assert_eq!(dst, want);
    }

    #[test]
    fn zip_map_of_two_interleaved_operands_matches_model((shape, d, f) in interleave_case()) {
        let il = interleaved(shape, d, f);
        let offs = il.offsets();
        let len = offs.iter().max().map_or(0, |&m| m as usize + 1);
        let a = buffer(len, 3);
        let dst_l = Layout::dense(shape, 4, Order::C).unwrap();
        let mut dst = vec![0i32; dst_l.volume()];
        strided_layout::zip_map(&a, &il, &a, &il, &mut dst, &dst_l, |x, y| x * 2 + y).unwrap();
        for (&o, &i) in common::offsets(&dst_l).iter().zip(&offs) {
            prop_assert_eq!(dst[o as usize], a[i as usize] * 3);
        }
    }
}

#[test]
fn plan_splits_a_partial_last_block_into_a_second_nest() {
    let il = interleaved([5, 2], 0, 2); // blocks of 2 along axis 0: 2 whole, 1 partial
    let dense = Layout::dense([5, 2], 4, Order::C).unwrap();
    let plan = Plan::new(&[il.lowered(), dense.lowered()]).unwrap();
    assert_eq!(plan.nests().len(), 2);
    assert_eq!(plan.volume(), 10);
    let exact = interleaved([4, 2], 0, 2);
    let dense4 = Layout::dense([4, 2], 4, Order::C).unwrap();
    assert_eq!(
        Plan::new(&[exact.lowered(), dense4.lowered()])
            .unwrap()
            .nests()
            .len(),
        1
    );
}

#[test]
fn interleave_errors_are_reported() {
    let dense = Layout::dense([4, 2], 4, Order::C).unwrap();
    let mut bad = interleaved([4, 2], 0, 2);
    bad.0.blocks = Blocks::interleave(2, 2);
    let mut buf = [0i32; 16];
    assert_eq!(
        strided_layout::copy(&[0; 8], &dense, &mut buf, &bad),
        Err(LayoutError::AxisOutOfRange { axis: 2, ndim: 2 })
    );
    bad.0.blocks = Blocks::interleave(0, 0);
    assert_eq!(
        strided_layout::fill(&mut buf, &bad, 1),
        Err(LayoutError::FactorZero)
    );
    // Factors that do not divide one another on one axis, more phases than a plan holds:
    // planned in windows by the run-time kernels, refused by a plan.
    let (x, y) = (interleaved([12, 2], 0, 3), interleaved([12, 2], 0, 4));
    let mut big = [0i32; 32];
    let src: Vec<i32> = (1..=32).collect();
    assert_eq!(strided_layout::copy(&src, &x, &mut big, &y), Ok(()));
    assert_eq!(
        strided_layout::plan::Plan::new(&[y.lowered(), x.lowered()]),
        Err(LayoutError::InterleaveConflict)
    );
    // Factors 7 and 11 on an axis of 100: 77 phases, more than `MAX_PIECES`: refused.
    let (x, y) = (interleaved([100, 1], 0, 7), interleaved([100, 1], 0, 11));
    let mut big = [0i32; 128];
    assert_eq!(
        strided_layout::copy(&[0; 128], &x, &mut big, &y),
        Err(LayoutError::InterleaveConflict)
    );
    assert_eq!(big, [0; 128]);
}

// ---- the plan ----

#[test]
fn plan_of_transpose_is_tiled_and_of_contiguous_copy_is_one_loop() {
    let dst = Layout::dense([64, 48], 4, Order::C).unwrap();
    let src = Layout::dense([48, 64], 4, Order::C)
        .unwrap()
        .transposed(0, 1)
        .unwrap();
    let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
    assert_eq!(plan.nests()[0].tile(), Some([32, 32]));
    assert_eq!(
        plan.to_string(),
        "nest 0: offsets [0, 0], 3072 elements\n  loop 0: extent 64, strides [48, 1], tile 32\n  loop 1: extent 48, strides [1, 64], tile 32"
    );
    let plan = Plan::new(&[dst.lowered(), dst.lowered()]).unwrap();
    assert_eq!(
        plan.to_string(),
        "nest 0: offsets [0, 0], 3072 elements\n  loop 0: extent 3072, strides [1, 1]"
    );
}

#[test]
fn plan_flips_axes_negative_in_every_operand() {
    let l = Layout::dense([3, 4], 4, Order::C).unwrap();
    let f = l.flipped(0).unwrap().flipped(1).unwrap();
    let plan = Plan::new(&[f.lowered(), f.lowered()]).unwrap();
    assert_eq!(
        plan.to_string(),
        "nest 0: offsets [0, 0], 12 elements\n  loop 0: extent 12, strides [1, 1]"
    );
}

/// The flip's and the face's postconditions on every plan: no loop runs backwards (or stands
/// still) in every operand with a step somewhere, and no block (the two innermost loops) has
/// the destination step one element backwards in one loop, forwards in neither, while a
/// source steps one forwards in the other; nor, the mirror, the destination step one element
/// forwards in one loop while a source steps one backwards in the other and none steps one
/// forwards in either; nor the destination step two or more backwards in the innermost loop
/// while no source steps one forwards there. Exhaustive over two operands of shape 2 x 2 to
/// 3 x 3 with strides -3..=3 (the general planner; the run-time copy's two-loop planner is
/// checked against it by the unit tests), and over three operands with strides -2..=2
/// without 0.
#[test]
fn plan_faces_blocks_forwards_where_the_destination_steps_one_element() {
    fn check<const K: usize>(ops: &[Lowered<2>; K]) {
        let plan = Plan::new(ops).unwrap();
        for nest in plan.nests() {
            for l in nest.loops() {
                let backwards = l.strides.iter().all(|&s| s <= 0) && l.strides.iter().any(|&s| s < 0);
                assert!(!backwards, "{ops:?}: {l:?}");
            }
            if let [.., a, b] = nest.loops() {
                let unit = |l: &strided_layout::plan::Loop<K>| l.strides[1..].contains(&1);
                let forwards = a.strides[0] == 1 || b.strides[0] == 1;
                let unfaced = (b.strides[0] == -1 && unit(a)) || (a.strides[0] == -1 && unit(b));
                assert!(forwards || !unfaced, "{ops:?}: {a:?} {b:?}");
                let down = |l: &strided_layout::plan::Loop<K>| l.strides[1..].contains(&-1);
                let mirror = !unit(a)
                    && !unit(b)
                    && ((b.strides[0] == 1 && down(a)) || (a.strides[0] == 1 && down(b)));
                assert!(!mirror, "{ops:?}: {a:?} {b:?}");
                assert!(b.strides[0] > -2 || unit(b), "{ops:?}: {a:?} {b:?}");
            }
        }
    }
    let lay = |shape: [usize; 2], strides: [isize; 2]| {
        let lo: isize = strides
            .iter()
            .zip(shape)
            .map(|(&s, e)| s.min(0) * (e as isize - 1))
            .sum();
        Layout::new(shape, strides, 4).unwrap().with_offset(-lo).unwrap().lowered()
    };
    // Planning is safe code: Miri runs a corner of it (strides -1..=1, 2 x 2, two operands).
    let (shapes, m): (&[[usize; 2]], isize) = if cfg!(miri) {
        (&[[2, 2]], 1)
    } else {
        (&[[2, 2], [2, 3], [3, 2], [3, 3]], 3)
    };
    for &shape in shapes {
        for a in -m..=m {
            for b in -m..=m {
                for c in -m..=m {
                    for d in -m..=m {
                        check(&[lay(shape, [a, b]), lay(shape, [c, d])]);
                    }
                }
            }
        }
    }
    let s: &[isize] = if cfg!(miri) { &[] } else { &[-2, -1, 1, 2] };
    for &a in s {
        for &b in s {
            for &c in s {
                for &d in s {
                    for &e in s {
                        for &f in s {
                            let shape = [3, 2];
                            check(&[lay(shape, [a, b]), lay(shape, [c, d]), lay(shape, [e, f])]);
                        }
                    }
                }
            }
        }
    }
}

/// Rows whose destination steps backwards by more than an element (seed 7's case 454 of the
/// sweep, smaller): the plan turns the innermost loop so each row writes the destination
/// forwards (and reads the source backwards), and every planner's copy agrees with the model.
#[test]
fn copy_writes_rows_forwards_where_the_destination_steps_backwards() {
    let (rows, n) = (61usize, 29usize);
    let src = Layout::new([rows, n], [1, 70], 8).unwrap();
    let dst = Layout::new([rows, n], [58, -2], 8)
        .unwrap()
        .with_offset(56)
        .unwrap();
    let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
    let inner = *plan.nests()[0].loops().last().unwrap();
    assert_eq!(inner.strides, [2, -70]);
    let s: Vec<u64> = (0..src.required_len().unwrap() as u64).map(|i| i * 7 + 1).collect();
    let len = dst.required_len().unwrap();
    let mut want = vec![0u64; len];
    for i in 0..rows {
        for j in 0..n {
            want[56 + 58 * i - 2 * j] = s[i + 70 * j];
        }
    }
    let mut got = vec![0u64; len];
    strided_layout::copy(&s, &src, &mut got, &dst).unwrap();
    assert_eq!(got, want);
    let mut prepared = vec![0u64; len];
    strided_layout::CopyPlan::new(&src, &dst)
        .unwrap()
        .run(&s, &mut prepared)
        .unwrap();
    assert_eq!(prepared, want);
}

/// A transpose into rows written backwards: the destination's rows step -1, the source's
/// columns many elements; the plan turns that loop, so the destination steps +1 and the
/// block is a transpose's (SIMD on hosts), and every planner's copy agrees with the model.
#[test]
fn copy_transposes_into_rows_written_backwards() {
    let (rows, cols) = (67usize, 45usize);
    let src = Layout::dense([cols, rows], 8, Order::C)
        .unwrap()
        .permuted([1, 0])
        .unwrap();
    let dst = Layout::dense([rows, cols], 8, Order::C)
        .unwrap()
        .flipped(1)
        .unwrap();
    let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
    let inner = *plan.nests()[0].loops().last().unwrap();
    assert_eq!(inner.strides, [1, -(rows as isize)]);
    let s: Vec<u64> = (0..(rows * cols) as u64).map(|i| i * 7 + 1).collect();
    let mut want = vec![0u64; rows * cols];
    for i in 0..rows {
        for j in 0..cols {
            want[i * cols + (cols - 1 - j)] = s[j * rows + i];
        }
    }
    let mut got = vec![0u64; rows * cols];
    strided_layout::copy(&s, &src, &mut got, &dst).unwrap();
    assert_eq!(got, want);
    let mut prepared = vec![0u64; rows * cols];
    strided_layout::CopyPlan::new(&src, &dst)
        .unwrap()
        .run(&s, &mut prepared)
        .unwrap();
    assert_eq!(prepared, want);
}

/// The mirror: a transpose from columns read backwards (the source's rows step -1, the
/// destination's rows forwards): the plan turns that loop, so the source steps +1 and the
/// block is a transpose's, and every planner's copy agrees with the model.
#[test]
fn copy_transposes_from_columns_read_backwards() {
    fn check<T: Copy + PartialEq + core::fmt::Debug + From<u8> + 'static>(rows: usize, cols: usize) {
        let item = core::mem::size_of::<T>();
        let src = Layout::dense([cols, rows], item, Order::C)
            .unwrap()
            .permuted([1, 0])
            .unwrap()
            .flipped(0)
            .unwrap();
        let dst = Layout::dense([rows, cols], item, Order::C).unwrap();
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        let [.., a, b] = plan.nests()[0].loops() else {
            panic!("a block of two loops");
        };
        let faced = (a.strides[1], b.strides[0]) == (1, 1) || (a.strides[0], b.strides[1]) == (1, 1);
        assert!(faced, "{a:?} {b:?}");
        let s: Vec<T> = (0..rows * cols).map(|i| T::from((i % 251) as u8)).collect();
        let mut want = vec![T::from(0); rows * cols];
        for i in 0..rows {
            for j in 0..cols {
                want[i * cols + j] = s[j * rows + (rows - 1 - i)];
            }
        }
        let mut got = vec![T::from(0); rows * cols];
        strided_layout::copy(&s, &src, &mut got, &dst).unwrap();
        assert_eq!(got, want, "{rows} x {cols}");
        let mut prepared = vec![T::from(0); rows * cols];
        strided_layout::CopyPlan::new(&src, &dst)
            .unwrap()
            .run(&s, &mut prepared)
            .unwrap();
        assert_eq!(prepared, want, "{rows} x {cols}");
    }
    let shapes: &[(usize, usize)] = if cfg!(miri) {
        &[(9, 5), (10, 12)]
    } else {
        &[(67, 45), (9, 5), (2, 300), (40, 73)]
    };
    for &(rows, cols) in shapes {
        check::<u8>(rows, cols);
        check::<u16>(rows, cols);
        check::<u32>(rows, cols);
        check::<u64>(rows, cols);
    }
}

/// `zip_map` over rows each operand steps one element, every combination of directions
/// (rows of 16 to 70 elements of 1 and 4 bytes: the chunked path and its rest), against the
/// model.
#[test]
fn zip_map_over_flipped_rows_matches_the_model() {
    fn check<T: Copy + PartialEq + core::fmt::Debug + Default + From<u8> + 'static>(
        n: usize,
        f: fn(T, T) -> T,
    ) {
        let rows = 3;
        let lay = |back: bool| {
            let l = Layout::dense([rows, n], size_of::<T>(), Order::C).unwrap();
            if back { l.flipped(1).unwrap() } else { l }
        };
        let a: Vec<T> = (0..rows * n).map(|i| T::from((i % 97) as u8)).collect();
        let b: Vec<T> = (0..rows * n).map(|i| T::from((i * 5 % 89) as u8)).collect();
        for bits in 0u8..8 {
            let (ld, la, lb) = (lay(bits & 1 != 0), lay(bits & 2 != 0), lay(bits & 4 != 0));
            let mut want = vec![T::default(); rows * n];
            for i in 0..rows {
                for j in 0..n {
                    let at = |l: &Layout<2>| l.offset_of([i, j]).unwrap() as usize;
                    want[at(&ld)] = f(a[at(&la)], b[at(&lb)]);
                }
            }
            let mut got = vec![T::default(); rows * n];
            strided_layout::zip_map(&a, &la, &b, &lb, &mut got, &ld, f).unwrap();
            assert_eq!(got, want, "{n} of {} bytes, directions {bits:03b}", size_of::<T>());
        }
    }
    let lengths: &[usize] = if cfg!(miri) { &[17, 40] } else { &[16, 17, 31, 32, 33, 64, 70] };
    for &n in lengths {
        check::<u8>(n, |x, y| x.wrapping_mul(3).wrapping_add(y));
        check::<u32>(n, |x, y| x * 1000 + y);
    }
}

#[test]
fn plan_of_empty_shape_has_no_nest() {
    let l = Layout::dense([3, 0], 4, Order::C).unwrap();
    let plan = Plan::new(&[l.lowered()]).unwrap();
    assert!(plan.nests().is_empty());
    assert_eq!(plan.to_string(), "empty plan");
}

#[test]
fn plan_peels_loops_past_those_a_nest_holds_into_nests() {
    // Extent 2 on every axis, strides 3^k: nothing merges. Rank MAX_LOOPS + 1 peels the
    // outermost loop into 2 nests; + 3 makes 8 pieces, more than a plan holds.
    const M: usize = strided_layout::plan::MAX_LOOPS;
    fn pow3<const R: usize>() -> Layout<R> {
        Layout::<R>::new([2; R], core::array::from_fn(|k| 3isize.pow((R - 1 - k) as u32)), 1).unwrap()
    }
    let l = pow3::<{ M + 1 }>();
    let plan = Plan::new(&[l.lowered()]).unwrap();
    assert_eq!(plan.nests().len(), 2);
    for (n, nest) in plan.nests().iter().enumerate() {
        assert_eq!(nest.loops().len(), M);
        assert_eq!(nest.offsets(), [n as isize * 3isize.pow(M as u32)]);
    }
    assert_eq!(plan.volume(), 1 << (M + 1));
    assert_eq!(
        Plan::new(&[pow3::<{ M + 3 }>().lowered()]),
        Err(LayoutError::RankOverflow { max: M })
    );
    // One loop fewer fits one nest.
    let fits = pow3::<M>();
    assert_eq!(
        Plan::new(&[fits.lowered()]).map(|p| (p.nests().len(), p.nests()[0].loops().len())),
        Ok((1, M))
    );
}

// ---- packed tiles of map and zip_map (transposed sources) ----

/// `dst = f(a, aᵀ)` on an `r × c` matrix with layouts of itemsize `item`, against the model.
fn check_a_plus_at<T>(r: usize, c: usize, item: usize, mk: fn(usize) -> T)
where
    T: Copy + PartialEq + std::fmt::Debug + std::ops::Add<Output = T> + 'static,
{
    let n = r.max(c);
    let l = Layout::dense([n, n], item, Order::C).unwrap();
    let l = l.narrowed(0, 0, r).unwrap().narrowed(1, 0, c).unwrap();
    let t = Layout::dense([n, n], item, Order::C)
        .unwrap()
        .transposed(0, 1)
        .unwrap()
        .narrowed(0, 0, r)
        .unwrap()
        .narrowed(1, 0, c)
        .unwrap();
    let a: Vec<T> = (0..n * n).map(mk).collect();
    let d = Layout::dense([r, c], item, Order::C).unwrap();
    let mut dst: Vec<T> = (0..r * c).map(|i| mk(i + 7)).collect();
    strided_layout::zip_map(&a, &l, &a, &t, &mut dst, &d, |x, y| x + y).unwrap();
    let mut mapped: Vec<T> = (0..r * c).map(|i| mk(i + 7)).collect();
    strided_layout::map(&a, &t, &mut mapped, &d, |x| x).unwrap();
    for i in 0..r {
        for j in 0..c {
            assert_eq!(
                dst[i * c + j],
                a[i * n + j] + a[j * n + i],
                "{r}x{c} ({i},{j})"
            );
            assert_eq!(mapped[i * c + j], a[j * n + i], "{r}x{c} ({i},{j})");
        }
    }
}

#[test]
fn zip_map_and_map_pack_transposed_tiles_at_tails() {
    let sizes: &[usize] = if cfg!(miri) {
        &[3, 9]
    } else {
        &[1, 2, 7, 8, 9, 31, 32, 33, 47, 64, 65, 100]
    };
    for &r in sizes {
        for &c in sizes {
            check_a_plus_at(r, c, 4, |i| i as f32);
            check_a_plus_at(r, c, 4, |i| i as u32);
            check_a_plus_at(r, c, 1, |i| (i % 100) as u8);
            check_a_plus_at(r, c, 8, |i| i as f64);
            check_a_plus_at(r, c, 8, |i| i as u64);
        }
    }
}

/// `dst = f(a, bᵀ)` with `a` an `r × c` view of a parent whose rows are `pitch` apart and
/// `bᵀ` the transpose of a `c × r` view (rows `pitch` apart, an odd pitch included), the two
/// of different element types, against the index formula; elements outside the
/// destination's view keep their values.
fn check_mixed_zip<A, B>(r: usize, c: usize, pitch: usize, ma: fn(usize) -> A, mb: fn(usize) -> B)
where
    A: Copy + Into<f64> + 'static,
    B: Copy + Into<f64> + 'static,
{
    let (ia, ib) = (std::mem::size_of::<A>(), std::mem::size_of::<B>());
    let la = Layout::new([r, c], [pitch as isize, 1], ia).unwrap();
    let lb = Layout::new([c, r], [pitch as isize, 1], ib)
        .unwrap()
        .transposed(0, 1)
        .unwrap();
    // Each buffer ends at its view's last element (`r, c >= 1`).
    let a: Vec<A> = (0..(r - 1) * pitch + c).map(ma).collect();
    let b: Vec<B> = (0..(c - 1) * pitch + r).map(mb).collect();
    let dp = c + 3;
    let d = Layout::new([r, c], [dp as isize, 1], 8).unwrap();
    let mut dst = vec![-1.0f64; dp * r];
    strided_layout::zip_map(&a, &la, &b, &lb, &mut dst, &d, |x, y| {
        x.into() * 1000.0 + y.into()
    })
    .unwrap();
    for i in 0..r {
        for j in 0..dp {
            let want = if j < c {
                a[i * pitch + j].into() * 1000.0 + b[j * pitch + i].into()
            } else {
                -1.0
            };
            assert_eq!(dst[i * dp + j], want, "{r}x{c} pitch {pitch} ({i},{j})");
        }
    }
}

#[test]
fn zip_map_packs_transposed_tiles_for_widths_1_to_70_and_odd_pitches() {
    let widths: Vec<usize> = if cfg!(miri) {
        vec![1, 5, 17]
    } else {
        (1..=70).collect()
    };
    for &r in &widths {
        let c = (r * 37) % 70 + 1;
        for (x, y) in [(r, c), (c, r)] {
            let pitch = x.max(y) + 1 + 2 * (x % 3);
            check_mixed_zip(x, y, pitch, |i| i as f32, |i| (i % 997) as f32);
            check_mixed_zip(x, y, pitch, |i| (i % 251) as u8, |i| (i % 65521) as u16);
            check_mixed_zip(x, y, pitch, |i| (i % 65521) as u16, |i| i as f64);
            check_mixed_zip(x, y, pitch, |i| i as f64, |i| (i % 251) as u8);
            check_mixed_zip(x, y, pitch, |i| i as u32, |i| i as u32);
        }
    }
}

// ---- hand-made `Lowered` values: any field values are an error or a correct result ----

fn wild_lowered() -> impl Strategy<Value = Lowered<2>> {
    let extent = prop_oneof![0usize..=5, Just(usize::MAX), Just(usize::MAX / 2 + 2)];
    let stride = prop_oneof![
        -6isize..=6,
        Just(isize::MAX),
        Just(isize::MIN),
        Just(1isize << 61)
    ];
    let offset = prop_oneof![-3isize..=12, Just(isize::MAX), Just(isize::MIN)];
    // No level, Core AI's interleave (axis 2 and factor 0 invalid), a huge factor, and two
    // levels of any strides on one axis or on both.
    let level = (0usize..=2, 0usize..=3, -4isize..=4).prop_map(|(axis, extent, stride)| Level {
        axis,
        extent,
        stride,
    });
    let interleave = prop_oneof![
        Just(Blocks::NONE),
        (0usize..=2, 0usize..=3).prop_map(|(d, f)| Blocks::interleave(d, f)),
        Just(Blocks::interleave(0, usize::MAX)),
        (level.clone(), level).prop_map(|(a, b)| Blocks::NONE.with(a).unwrap().with(b).unwrap()),
    ];
    (
        [extent.clone(), extent],
        [stride.clone(), stride],
        offset,
        prop_oneof![Just(0usize), Just(1), Just(4), Just(usize::MAX)],
        interleave,
    )
        .prop_map(|(shape, strides, offset, itemsize, interleave)| Lowered {
            shape,
            strides,
            offset,
            itemsize,
            blocks: interleave,
        })
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn fill_of_any_lowered_value_is_an_error_or_fills_exactly_its_offsets(l in wild_lowered()) {
        let mut dst = vec![0u8; 16];
        match strided_layout::fill(&mut dst, &l, 1) {
            Err(_) => prop_assert_eq!(dst, vec![0u8; 16]),
            Ok(()) => {
                // Small enough to enumerate: every filled element is an offset of `l`.
                let mut want = vec![0u8; 16];
                // A broadcast axis (stride 0) repeats offsets: one outermost block of it names
                // them all (and a fill of `usize::MAX` repeats is legal and writes just those).
                let shape: Vec<usize> = (0..2)
                    .map(|k| match l.strides[k] {
                        0 => common::broadcast_keep(&l, k),
                        _ => l.shape[k],
                    })
                    .collect();
                for ix in common::indices(&shape) {
                    want[common::lowered_offset(&l, &ix) as usize] = 1;
                }
                prop_assert_eq!(dst, want);
            }
        }
    }

    #[test]
    fn copy_between_any_lowered_values_never_writes_on_error(a in wild_lowered(), b in wild_lowered()) {
        let src = vec![7u16; 16];
        let mut dst = vec![0u16; 16];
        if strided_layout::copy(&src, &a, &mut dst, &b).is_err() {
            prop_assert_eq!(dst, vec![0u16; 16]);
        }
    }
}

#[test]
fn copy_converts_planar_and_interleaved_pixels_for_2_3_4_channels() {
    let sizes: &[[usize; 2]] = if cfg!(miri) {
        &[[3, 5]]
    } else {
        &[[1, 1], [3, 5], [32, 32], [17, 33]]
    };
    for c in 2..=5 {
        for &[h, w] in sizes {
            // CHW -> HWC and HWC -> CHW, for 1-, 2- and 4-byte elements.
            check_permuted([c, h, w], [1, 2, 0], |i| i as u8);
            check_permuted([h, w, c], [2, 0, 1], |i| i as u8);
            check_permuted([c, h, w], [1, 2, 0], |i| i as u16);
            check_permuted([h, w, c], [2, 0, 1], |i| i as u16);
            check_permuted([c, h, w], [1, 2, 0], |i| i as f32);
            check_permuted([h, w, c], [2, 0, 1], |i| i as f32);
        }
    }
}

// ---- element types: the itemsize must be the element's size; plain-ness by type ----

#[test]
fn copy_refuses_an_element_type_of_another_size_and_leaves_dst() {
    let l4 = Layout::dense([2, 3], 4, Order::C).unwrap();
    let l1 = Layout::dense([2, 3], 1, Order::C).unwrap();
    let src = [1i16; 6];
    let mut dst = [7i16; 6];
    let got = strided_layout::copy(&src, &l4, &mut dst, &l4);
    let want = LayoutError::ItemsizeMismatch {
        operand: Operand::Destination,
        itemsize: 4,
        element_size: 2,
    };
    assert_eq!(got, Err(want));
    let l2 = Layout::dense([2, 3], 2, Order::C).unwrap();
    let got = strided_layout::copy(&src, &l1, &mut dst, &l2);
    let want = LayoutError::ItemsizeMismatch {
        operand: Operand::Source,
        itemsize: 1,
        element_size: 2,
    };
    assert_eq!(got, Err(want));
    assert_eq!(dst, [7; 6]);
    assert_eq!(
        want.to_string(),
        "the element type's size is not the layout's itemsize (source: itemsize 1, element size 2)"
    );
}

#[test]
fn every_kernel_checks_the_element_size() {
    let l4 = Layout::dense([4], 4, Order::C).unwrap();
    let l8 = Layout::dense([4], 8, Order::C).unwrap();
    let mut d64 = [0u64; 4];
    let mismatch = |operand, itemsize, element_size| {
        Err(LayoutError::ItemsizeMismatch {
            operand,
            itemsize,
            element_size,
        })
    };
    assert_eq!(
        strided_layout::fill(&mut d64, &l4, 1),
        mismatch(Operand::Destination, 4, 8)
    );
    assert_eq!(
        strided_layout::fold(&d64, &l4, 0, |a, x| a + x).map(|_| ()),
        mismatch(Operand::Source, 4, 8)
    );
    assert_eq!(
        strided_layout::map(&[0u32; 4], &l4, &mut d64, &l4, u64::from),
        mismatch(Operand::Destination, 4, 8)
    );
    assert_eq!(
        strided_layout::zip_map(&[0u32; 4], &l4, &[0u32; 4], &l8, &mut d64, &l8, |a, b| {
            u64::from(a + b)
        }),
        mismatch(Operand::SecondSource, 8, 4)
    );
    assert_eq!(
        strided_layout::copy_within(&mut d64, &l4, &l8),
        mismatch(Operand::Source, 4, 8)
    );
    assert_eq!(d64, [0; 4]);
}

#[test]
fn zero_sized_and_non_power_of_two_elements_are_refused() {
    let l1 = Layout::dense([3], 1, Order::C).unwrap();
    let mut units = [(); 3];
    assert!(matches!(
        strided_layout::copy(&[(); 3], &l1, &mut units, &l1),
        Err(LayoutError::ItemsizeMismatch {
            element_size: 0,
            ..
        })
    ));
    // A 3-byte pixel has no itemsize; describe it as bytes with a channel axis instead.
    let mut px = [[0u8; 3]; 2];
    let l = Layout::dense([2], 4, Order::C).unwrap();
    assert!(matches!(
        strided_layout::copy(&[[1u8; 3]; 2], &l, &mut px, &l),
        Err(LayoutError::ItemsizeMismatch {
            element_size: 3,
            ..
        })
    ));
    assert_eq!(px, [[0; 3]; 2]);
}

/// A 4-byte type that is not a primitive (it has a padding byte): the kernels must take the
/// scalar paths for it, and still copy every element.
#[derive(Clone, Copy, Debug, PartialEq)]
#[repr(C)]
struct Padded {
    a: u8,
    b: u16,
}

#[test]
fn non_primitive_elements_take_the_scalar_paths_correctly() {
    let n = 40;
    let src_l = Layout::dense([n, n], 4, Order::C).unwrap();
    let dst_l = Layout::dense([n, n], 4, Order::F).unwrap();
    let src: Vec<Padded> = (0..n * n)
        .map(|i| Padded {
            a: (i % 251) as u8,
            b: i as u16,
        })
        .collect();
    let mut dst = vec![Padded { a: 0, b: 0 }; n * n];
    strided_layout::copy(&src, &src_l, &mut dst, &dst_l).unwrap();
    for i in 0..n {
        for j in 0..n {
            assert_eq!(dst[i + j * n], src[i * n + j]);
        }
    }
    // Planar -> interleaved pixels of 3 channels (the byte-shuffle shape for primitives).
    let planar = Layout::dense([3, 64], 4, Order::C).unwrap();
    let hwc = Layout::dense([3, 64], 4, Order::F).unwrap();
    let src = &src[..192];
    let mut dst = vec![Padded { a: 0, b: 0 }; 192];
    strided_layout::copy(src, &planar, &mut dst, &hwc).unwrap();
    for c in 0..3 {
        for p in 0..64 {
            assert_eq!(dst[p * 3 + c], src[c * 64 + p]);
        }
    }
}

#[test]
fn errors_name_the_argument() {
    let l = Layout::dense([4], 4, Order::C).unwrap();
    let mut dst = [0f32; 4];
    let got = strided_layout::zip_map(&[0f32; 4], &l, &[0f32; 3], &l, &mut dst, &l, |a, b| a + b);
    let short = |operand| LayoutError::OffsetOutsideSlice {
        operand,
        needed: 4,
        given: 3,
    };
    assert_eq!(got, Err(short(Operand::SecondSource)));
    assert_eq!(
        got.unwrap_err().to_string(),
        "a second-source offset lies past the end of its slice (needs 4 elements, given 3)"
    );
    let got = strided_layout::copy(&[0f32; 4], &l, &mut dst[..3], &l);
    assert_eq!(got, Err(short(Operand::Destination)));
    assert_eq!(
        strided_layout::fold(&[0f32; 3], &l, 0.0, |a, x| a + x),
        Err(short(Operand::Source))
    );
    // A flipped layout without the offset that brings it back to 0..: the lowest offset is
    // named, before any length is looked at.
    let flipped = Layout::new([4], [-1], 4).unwrap();
    let got = strided_layout::copy(&[0f32; 4], &flipped, &mut dst, &l);
    assert_eq!(
        got,
        Err(LayoutError::OffsetBelowSlice {
            operand: Operand::Source,
            lowest: -3
        })
    );
    assert_eq!(
        got.unwrap_err().to_string(),
        "a source offset is negative, before its slice (lowest offset -3)"
    );
}

#[test]
fn plan_accepts_a_broadcast_axis_longer_than_isize_max() {
    // Offsets never move along a stride-0 axis, so the layout is valid however long it is;
    // the plan used to multiply the stride by the extent as `isize` and refuse it.
    let long = (isize::MAX as usize) + 2;
    let l = Layout::new([long], [0], 4).unwrap();
    let plan = Plan::new(&[l.lowered()]).unwrap();
    assert_eq!(plan.nests()[0].bounds(), [(0, 0)]);
    assert_eq!(plan.volume(), long);
    let plan = Plan::new(&[l.lowered(), l.lowered()]).unwrap();
    assert_eq!(plan.volume(), long);
}

// ---- copies into uninitialised memory ----

/// Every rank-2 layout with extents 0..=3 and strides -3..=3 as a destination of
/// `copy_uninit` (784 layouts, each from a C- and an F-order source: 1,568 copies; under Miri
/// extents 0..=2 and strides -2..=2, 450 copies): a destination whose offsets fill one range
/// is written and returned as exactly that range; one with a gap or a repeat is refused.
#[test]
fn copy_uninit_initialises_exactly_the_covered_span() {
    use core::mem::MaybeUninit;
    let (emax, smax) = if cfg!(miri) { (2usize, 2isize) } else { (3, 3) };
    let mut checked = 0usize;
    for e0 in 0..=emax {
        for e1 in 0..=emax {
            let src_c = Layout::dense([e0, e1], 4, Order::C).unwrap();
            let src_f = Layout::dense([e0, e1], 4, Order::F).unwrap();
            for s0 in -smax..=smax {
                for s1 in -smax..=smax {
                    let raw = Layout::new([e0, e1], [s0, s1], 4).unwrap();
                    let min = raw.offset_bounds().map_or(0, |(lo, _)| lo);
                    let dst_l = raw.with_offset(1 - min).unwrap();
                    let od = common::offsets(&dst_l);
                    let len = od.iter().max().map_or(0, |&m| m as usize + 2);
                    for src_l in [src_c, src_f] {
                        let os = common::offsets(&src_l);
                        let src: Vec<u32> = (0..e0 * e1).map(|x| x as u32 + 100).collect();
                        let mut dst = vec![MaybeUninit::<u32>::uninit(); len];
                        let got = strided_layout::copy_uninit(&src, &src_l, &mut dst, &dst_l);
                        let mut sorted = od.clone();
                        sorted.sort_unstable();
                        sorted.dedup();
                        let unique = sorted.len() == od.len();
                        let dense = od.is_empty()
                            || (unique
                                && (sorted[sorted.len() - 1] - sorted[0] + 1) as usize == od.len());
                        match got {
                            Ok(out) => {
                                assert!(dense, "{dst_l:?} accepted with a gap");
                                assert_eq!(out.len(), od.len());
                                let lo = sorted.first().copied().unwrap_or(0);
                                for (&o, &i) in od.iter().zip(&os) {
                                    assert_eq!(out[(o - lo) as usize], src[i as usize]);
                                }
                            }
                            Err(e) => {
                                assert!(!dense, "{dst_l:?} refused: {e:?}");
                                let want = if unique {
                                    LayoutError::DestinationHasGaps
                                } else {
                                    LayoutError::DestinationNotUnique
                                };
                                assert_eq!(e, want, "{dst_l:?}");
                            }
                        }
                        checked += 1;
                    }
                }
            }
        }
    }
    let (e, st) = (emax + 1, (2 * smax + 1) as usize);
    assert_eq!(checked, e * e * st * st * 2);
}

#[test]
fn fill_of_a_broadcast_axis_longer_than_isize_max_writes_its_one_offset() {
    // Legal (every offset is 3) and accepted by the plan; a fill visits each offset once.
    let long = (isize::MAX as usize) + 2;
    let l = Layout::new([long], [0], 1).unwrap().with_offset(3).unwrap();
    let mut dst = [0u8; 6];
    strided_layout::fill(&mut dst, &l, 9).unwrap();
    assert_eq!(dst, [0, 0, 0, 9, 0, 0]);
    let plan = strided_layout::FillPlan::new(&l).unwrap();
    assert_eq!(plan.len(), 4);
    // Interleaved by 2 with a zero block stride: lanes 0 and 1 of one block.
    let il = strided_layout::InterleavedLayout::new(
        [long - 1],
        [0],
        1,
        strided_layout::InterleaveLayout::new(0, 2).unwrap(),
    )
    .unwrap();
    let mut dst = [0u8; 4];
    strided_layout::fill(&mut dst, &il, 5).unwrap();
    assert_eq!(dst, [5, 5, 0, 0]);
}

/// The host's plan-free block copies (64 stereo frames of `i16`, a 16 × 16 `f32` transpose)
/// check their offsets as the planner does: a layout shifted one element before its slice,
/// or a slice one element short, is `OffsetOutsideSlice` naming that operand with `dst`
/// untouched; shifted one element into slices one longer, every element lands where the
/// model (the strides, index by index) puts it.
#[test]
fn small_block_copies_refuse_offsets_outside_either_slice() -> Result<(), LayoutError> {
    fn check<T: Copy + PartialEq + core::fmt::Debug + 'static>(
        sl: Layout<2>,
        dl: Layout<2>,
        value: impl Fn(usize) -> T,
        fill: T,
    ) -> Result<(), LayoutError> {
        let n = sl.shape().iter().product::<usize>();
        let src: Vec<T> = (0..=n).map(&value).collect();
        let below = |operand| {
            Err(LayoutError::OffsetBelowSlice {
                operand,
                lowest: -1,
            })
        };
        let short = |operand| {
            Err(LayoutError::OffsetOutsideSlice {
                operand,
                needed: n,
                given: n - 1,
            })
        };
        let (dst_op, src_op) = (Operand::Destination, Operand::Source);
        let mut dst = vec![fill; n + 1];
        let copy = strided_layout::copy::<T, 2, Layout<2>, Layout<2>>;
        assert_eq!(
            copy(&src[..n], &sl, &mut dst, &dl.with_offset(-1)?),
            below(dst_op)
        );
        assert_eq!(
            copy(&src[..n], &sl.with_offset(-1)?, &mut dst, &dl),
            below(src_op)
        );
        assert_eq!(copy(&src[..n - 1], &sl, &mut dst, &dl), short(src_op));
        assert_eq!(copy(&src[..n], &sl, &mut dst[..n - 1], &dl), short(dst_op));
        assert!(dst.iter().all(|&x| x == fill), "dst touched");
        // One element into slices one longer.
        copy(&src, &sl.with_offset(1)?, &mut dst, &dl.with_offset(1)?)?;
        let mut want = vec![fill; n + 1];
        let ([e0, e1], [s0, s1], [d0, d1]) = (sl.shape(), sl.strides(), dl.strides());
        for i in 0..e0 as isize {
            for j in 0..e1 as isize {
                want[(1 + i * d0 + j * d1) as usize] = src[(1 + i * s0 + j * s1) as usize];
            }
        }
        assert_eq!(dst, want);
        Ok(())
    }
    check(
        Layout::dense([2, 64], 2, Order::C)?,
        Layout::dense([2, 64], 2, Order::F)?,
        |i| i as i16,
        -1,
    )?;
    check(
        Layout::dense([16, 16], 4, Order::C)?,
        Layout::dense([16, 16], 4, Order::F)?,
        |i| i as f32,
        -1.0,
    )
}

/// Every element of a copy from `src` (layout `sl`) to `dst` (layout `dl`) against the
/// model, and every other destination element untouched (`fill`).
fn check_copied<T>(src: &[T], sl: &Layout<2>, dst: &[T], dl: &Layout<2>, fill: T, what: &str)
where
    T: Copy + PartialEq + std::fmt::Debug,
{
    let (od, os) = (common::offsets(dl), common::offsets(sl));
    let mut written = vec![false; dst.len()];
    for (&o, &i) in od.iter().zip(&os) {
        assert_eq!(dst[o as usize], src[i as usize], "{what}: offset {o}");
        written[o as usize] = true;
    }
    for (k, (&w, &x)) in written.iter().zip(dst).enumerate() {
        assert!(
            w || x == fill,
            "{what}: element {k} outside the layout was written"
        );
    }
}

/// Transposes of whole 8 × 8 tiles of 4-byte elements (the AVX tile kernel on x86-64, the
/// portable transpose elsewhere) with row pitches wider than the rows, rows flipped, and
/// offsets off any vector boundary, through the run-time `copy()` and a prepared plan, each
/// against the model with the padding untouched.
#[test]
fn tile_transposes_with_pitched_flipped_and_offset_rows_match_the_model() {
    let sides: &[usize] = if cfg!(miri) { &[8] } else { &[8, 16, 24, 32] };
    for &r in sides {
        for &c in sides {
            for (src_pad, dst_pad) in [(0, 0), (3, 0), (0, 5), (1, 7)] {
                for flip in [false, true] {
                    let (sp, dp) = ((c + src_pad) as isize, (r + dst_pad) as isize);
                    // Source rows of `c` elements `sp` apart; its transpose written into rows of
                    // `r` elements `dp` apart, from one element in (off any 16-byte boundary).
                    let sl = if flip {
                        Layout::new([r, c], [-sp, 1], 4)
                            .unwrap()
                            .with_offset((r as isize - 1) * sp)
                            .unwrap()
                    } else {
                        Layout::new([r, c], [sp, 1], 4).unwrap()
                    };
                    let dl = Layout::new([r, c], [1, dp], 4)
                        .unwrap()
                        .with_offset(1)
                        .unwrap();
                    let src: Vec<f32> = (0..r * sp as usize).map(|i| i as f32).collect();
                    let what = format!("{r}x{c} pads {src_pad},{dst_pad} flip {flip}");
                    let len = 1 + c * dp as usize + 2;
                    let mut dst = vec![-1f32; len];
                    strided_layout::copy(&src, &sl, &mut dst, &dl).unwrap();
                    check_copied(&src, &sl, &dst, &dl, -1.0, &format!("copy {what}"));
                    let plan = strided_layout::CopyPlan::new(&sl, &dl).unwrap();
                    let mut dst = vec![-1f32; len];
                    plan.run(&src, &mut dst).unwrap();
                    check_copied(&src, &sl, &dst, &dl, -1.0, &format!("plan {what}"));
                    // The same bits as `u32`.
                    let src: Vec<u32> = src.iter().map(|x| x.to_bits()).collect();
                    let mut dst = vec![u32::MAX; len];
                    plan.run(&src, &mut dst).unwrap();
                    check_copied(&src, &sl, &dst, &dl, u32::MAX, &format!("plan u32 {what}"));
                }
            }
        }
    }
}

/// A prepared plan of one block hands it to the block kernel at once; past the streaming
/// threshold (32 MiB written and read) it takes the streaming loops instead. Both give the
/// model's bytes, on the first run and on a second into a fresh buffer.
#[test]
fn prepared_one_block_copies_match_below_and_past_the_streaming_threshold() {
    let sizes: &[usize] = if cfg!(miri) {
        &[40]
    } else {
        &[40, 1 << 10, (17 << 20) + 5]
    };
    for &n in sizes {
        // A contiguous copy into a reversed destination: one nest, one loop.
        let sl = Layout::new([n], [1], 1).unwrap();
        let dl = Layout::new([n], [-1], 1)
            .unwrap()
            .with_offset(n as isize)
            .unwrap();
        let plan = strided_layout::CopyPlan::new(&sl, &dl).unwrap();
        assert_eq!(plan.plan().nests().len(), 1);
        let src: Vec<u8> = (0..n).map(|i| (i * 7 + 3) as u8).collect();
        for _ in 0..2 {
            let mut dst = vec![0u8; n + 2];
            plan.run(&src, &mut dst).unwrap();
            assert_eq!(dst[0], 0, "{n}");
            assert_eq!(dst[n + 1], 0, "{n}");
            assert!(dst[1..=n].iter().rev().eq(&src), "{n}");
        }
    }
}

/// Planes from pixels that overlap: `c` channels read from pixels `px < c` elements apart
/// (a source with overlapping rows, which a copy may read), into dense planes, for `T`.
/// The channel kernels take pixels of `px >= c` lanes only; mistaking these for pixels of
/// `c` lanes left planes unwritten (found by the aarch64 run of `copy_matches_model`).
fn check_overlapping_pixels<T>(n: usize, c: usize, px: usize, mk: fn(usize) -> T)
where
    T: Copy + PartialEq + std::fmt::Debug + 'static,
{
    let size = size_of::<T>();
    let d = Layout::from_parts([n, c], [1, n as isize], 0, size).unwrap();
    let s = Layout::from_parts([n, c], [px as isize, 1], 0, size).unwrap();
    let src: Vec<T> = (0..(n - 1) * px + c).map(mk).collect();
    let mut dst: Vec<T> = (0..n * c).map(|i| mk(i + 100)).collect();
    strided_layout::copy(&src, &s, &mut dst, &d).unwrap();
    for p in 0..n {
        for k in 0..c {
            assert_eq!(
                dst[k * n + p],
                src[p * px + k],
                "n {n} c {c} px {px} pixel {p} channel {k}"
            );
        }
    }
}

#[test]
fn copy_to_planes_from_overlapping_pixels_matches_the_model() {
    let (ns, cs): (&[usize], &[usize]) = if cfg!(miri) {
        (&[17], &[3, 6, 9])
    } else {
        (
            &[5, 8, 17, 40, 100],
            &[2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16],
        )
    };
    for &n in ns {
        for &c in cs {
            for px in 1..c {
                check_overlapping_pixels(n, c, px, |i| i as u8);
                check_overlapping_pixels(n, c, px, |i| i as u16);
                check_overlapping_pixels(n, c, px, |i| i as f32);
            }
        }
    }
}

/// The case of the aarch64 run (CI, stop 26): a 6 x 5 copy whose destination axis runs
/// backwards and whose source rows overlap (stride 2 along 6-long rows), which took the
/// plane kernel there.
#[test]
fn copy_transposes_a_flipped_destination_over_overlapping_source_rows() {
    let d = Layout::from_parts([5, 6, 1], [-1, 5, 0], 4, 4).unwrap();
    let s = Layout::from_parts([5, 6, 1], [-2, 1, 0], 8, 4).unwrap();
    check_copy((Placed { layout: d, len: 30 }, Placed { layout: s, len: 14 })).unwrap();
}

/// `copy` of `src_l` into `dst_l` (each over its own buffer, padded by 3 elements) against
/// the model: every destination offset holds its source element, every other element is
/// untouched. The same through a prepared [`strided_layout::CopyPlan`].
fn check_against_model<T, const N: usize>(src_l: &Layout<N>, dst_l: &Layout<N>, mk: fn(usize) -> T)
where
    T: Copy + PartialEq + std::fmt::Debug + 'static,
{
    let (od, os) = (common::offsets(dst_l), common::offsets(src_l));
    let len = |o: &[i128]| o.iter().max().map_or(0, |&m| m as usize + 1) + 3;
    let src: Vec<T> = (0..len(&os)).map(mk).collect();
    let before: Vec<T> = (0..len(&od)).map(|i| mk(i + 1_000_000)).collect();
    let mut want = before.clone();
    for (&d, &s) in od.iter().zip(&os) {
        want[d as usize] = src[s as usize];
    }
    let mut dst = before.clone();
    strided_layout::copy(&src, src_l, &mut dst, dst_l).unwrap();
    assert_eq!(dst, want, "copy {src_l:?} -> {dst_l:?}");
    let mut dst = before;
    strided_layout::CopyPlan::new(src_l, dst_l)
        .unwrap()
        .run(&src, &mut dst)
        .unwrap();
    assert_eq!(dst, want, "CopyPlan {src_l:?} -> {dst_l:?}");
}

/// Flipped rows (one operand one element a step forwards, the other backwards), which hosts
/// copy as reversed runs from 16 elements a row: every length around that threshold and
/// around the vector widths, each element size and a 32-byte type, flipped on either side, as
/// one run (rank 1), as rows of a rank-2 copy (the destination's rows reversed too), through
/// `map`, and in place.
#[test]
fn copy_reverses_flipped_rows_of_every_length() {
    let lens: &[usize] = if cfg!(miri) {
        &[15, 16, 33]
    } else {
        &[1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 100, 257]
    };
    fn both<T: Copy + PartialEq + std::fmt::Debug + 'static>(n: usize, mk: fn(usize) -> T) {
        let size = size_of::<T>();
        let fwd = Layout::new([n], [1], size).unwrap();
        let back = fwd.flipped(0).unwrap();
        check_against_model::<T, 1>(&fwd, &back, mk);
        check_against_model::<T, 1>(&back, &fwd, mk);
        // Three rows `n + 5` apart in the source, the destination's rows and elements flipped.
        let rows = Layout::new([3, n], [(n + 5) as isize, 1], size).unwrap();
        let flipped = Layout::dense([3, n], size, Order::C)
            .unwrap()
            .flipped(1)
            .unwrap()
            .flipped(0)
            .unwrap();
        check_against_model::<T, 2>(&rows, &flipped, mk);
        check_against_model::<T, 2>(&flipped, &rows, mk);
        // `map` over the same flipped rows, counting its calls.
        for (sl, dl) in [(&rows, &flipped), (&flipped, &rows)] {
            let (od, os) = (common::offsets(dl), common::offsets(sl));
            let src: Vec<T> = (0..=*os.iter().max().unwrap() as usize).map(mk).collect();
            let mut dst = vec![mk(1 << 20); *od.iter().max().unwrap() as usize + 2];
            let mut want = dst.clone();
            for (&d, &s) in od.iter().zip(&os) {
                want[d as usize] = src[s as usize];
            }
            let mut calls = 0;
            strided_layout::map(&src, sl, &mut dst, dl, |x: T| {
                calls += 1;
                x
            })
            .unwrap();
            assert_eq!((dst, calls), (want, 3 * n), "map {sl:?} -> {dl:?}");
        }
        // In place: the first `n` elements of one buffer into the next `n`, reversed.
        let mut buf: Vec<T> = (0..2 * n).map(mk).collect();
        let at = fwd.with_offset(n as isize).unwrap().flipped(0).unwrap();
        strided_layout::copy_within(&mut buf, &fwd, &at).unwrap();
        let want: Vec<T> = (0..n).map(mk).chain((0..n).rev().map(mk)).collect();
        assert_eq!(buf, want, "copy_within of {n} reversed");
    }
    for &n in lens {
        both::<u8>(n, |i| i as u8);
        both::<u16>(n, |i| i as u16);
        both::<f32>(n, |i| i as f32);
        both::<u64>(n, |i| i as u64);
        both::<[u64; 4]>(n, |i| [i as u64, !(i as u64), 7, i as u64 * 3]);
    }
}

/// The block kinds the kernel chooses per nest, each forced by the operands' shape, at the
/// edges of the choice: rows of every byte count from 1 to 130 (one or two fixed moves a row
/// up to 128 bytes, `memcpy` past it), channel blocks just under and at the pixel count that
/// takes the channel kernels, transposes just thinner than and as thick as a whole
/// micro-kernel block, and element blocks of rows of 1 to 6 elements (unrolled up to 4)
/// inside rank-4 copies, forward and flipped.
#[test]
fn copy_takes_each_block_kind_at_the_edges_of_its_choice() {
    // Contiguous rows of `w` elements, rows 3 apart more in the source: short-row moves.
    let rows = |w: usize, size: usize| {
        let s = Layout::new([5, w], [(w + 3) as isize, 1], size).unwrap();
        let d = Layout::new([5, w], [(w + 1) as isize, 1], size).unwrap();
        (s, d)
    };
    let widths = if cfg!(miri) { 13 } else { 1 };
    for w in (1..=130).step_by(widths) {
        let (s, d) = rows(w, 1);
        check_against_model::<u8, 2>(&s, &d, |i| i as u8);
        let (s, d) = rows(w.div_ceil(2), 2);
        check_against_model::<u16, 2>(&s, &d, |i| i as u16);
        let (s, d) = rows(w.div_ceil(8), 8);
        check_against_model::<u64, 2>(&s, &d, |i| i as u64);
    }
    // Channel blocks: `c` planes of `n` pixels into pixels of `c` channels (and back), with
    // `n` around the 16 pixels from which the channel kernels run; inside a rank-3 copy so
    // the run-time path plans them.
    let (cs, ns): (&[usize], &[usize]) = if cfg!(miri) {
        (&[2, 8], &[2, 15, 16])
    } else {
        (&[2, 3, 4, 8], &[1, 2, 7, 15, 16, 17, 33])
    };
    for &c in cs {
        for &n in ns {
            let planar = Layout::dense([3, c, n], 4, Order::C).unwrap();
            let inter = Layout::dense([3, n, c], 4, Order::C)
                .unwrap()
                .permuted([0, 2, 1])
                .unwrap();
            check_against_model::<u32, 3>(&planar, &inter, |i| i as u32);
            check_against_model::<u32, 3>(&inter, &planar, |i| i as u32);
            let inter16 = Layout::dense([3, n, c], 2, Order::C)
                .unwrap()
                .permuted([0, 2, 1])
                .unwrap();
            let planar16 = Layout::dense([3, c, n], 2, Order::C).unwrap();
            check_against_model::<u16, 3>(&planar16, &inter16, |i| i as u16);
        }
    }
    // Transposes `a × b` around a whole micro-kernel block (8 × 8, 4 × 4 for 8-byte).
    let pairs: &[(usize, usize)] = if cfg!(miri) {
        &[(2, 11), (8, 8), (9, 4)]
    } else {
        &[
            (2, 11),
            (3, 40),
            (7, 7),
            (7, 9),
            (8, 8),
            (9, 8),
            (40, 3),
            (4, 4),
            (3, 4),
        ]
    };
    for &(a, b) in pairs {
        let src = Layout::dense([2, a, b], 4, Order::C).unwrap();
        let dst = Layout::dense([2, b, a], 4, Order::C)
            .unwrap()
            .permuted([0, 2, 1])
            .unwrap();
        check_against_model::<f32, 3>(&src, &dst, |i| i as f32);
        check_against_model::<u8, 3>(
            &Layout::dense([2, a, b], 1, Order::C).unwrap(),
            &Layout::dense([2, b, a], 1, Order::C)
                .unwrap()
                .permuted([0, 2, 1])
                .unwrap(),
            |i| i as u8,
        );
        check_against_model::<u64, 3>(
            &Layout::dense([2, a, b], 8, Order::C).unwrap(),
            &Layout::dense([2, b, a], 8, Order::C)
                .unwrap()
                .permuted([0, 2, 1])
                .unwrap(),
            |i| i as u64,
        );
    }
    // Element blocks: rows of `w` strided elements (stride 3 in the source, 2 in the
    // destination) inside a rank-4 copy, forward and with the row axis flipped.
    for w in 1..=6 {
        let shape = [3, 2, 5, w];
        let src = Layout::dense([3, 2, 5, 3 * w], 2, Order::C).unwrap();
        let src = Layout::new(
            shape,
            [src.strides()[0], src.strides()[1], src.strides()[2], 3],
            2,
        )
        .unwrap();
        let dst = Layout::new(
            shape,
            [20 * w as isize, -10 * w as isize, 2 * w as isize, 2],
            2,
        )
        .unwrap()
        .with_offset(10 * w as isize)
        .unwrap();
        check_against_model::<u16, 4>(&src, &dst, |i| i as u16);
        check_against_model::<u16, 4>(&src, &dst.flipped(3).unwrap(), |i| i as u16);
    }
}

/// A long contiguous run whose destination lies a few bytes past the source modulo 4096 is
/// moved in pieces: the bytes are the model's at every such distance and at others.
#[test]
fn copy_of_contiguous_runs_at_every_page_distance_matches() {
    let n = if cfg!(miri) { 300 } else { 3000 };
    let src: Vec<u64> = (0..n).map(|i| i as u64 * 7 + 1).collect();
    let mut buf = vec![0u64; n + 600];
    let l = Layout::dense([n], 8, Order::C).unwrap();
    for shift in [0usize, 1, 2, 7, 8, 9, 100, 511] {
        buf.fill(0);
        let (head, dst) = buf.split_at_mut(shift);
        strided_layout::copy(&src, &l, &mut dst[..n], &l).unwrap();
        assert!(head.iter().all(|&x| x == 0));
        assert_eq!(&dst[..n], &src[..], "shift {shift}");
        assert!(dst[n..].iter().all(|&x| x == 0));
        // The same run inside a rank-2 copy (rows of it), through the row loop.
        let rows = Layout::new([2, n / 2], [(n / 2) as isize, 1], 8).unwrap();
        buf.fill(0);
        strided_layout::copy(&src, &rows, &mut buf[shift..shift + n], &rows).unwrap();
        assert_eq!(&buf[shift..shift + n], &src[..], "rows, shift {shift}");
    }
}

/// Three innermost loops moved at a time: short rows and strided elements, with the second
/// loop shorter than the third (in strips of the third, a partial last one) and not, forward
/// and flipped, against the model.
#[test]
fn copy_of_cubes_of_short_blocks_matches_the_model() {
    let (cubes, widths): (&[(usize, usize)], &[usize]) = if cfg!(miri) {
        (&[(9, 2), (3, 5)], &[1, 8])
    } else {
        (
            &[
                (1, 2),
                (3, 2),
                (64, 2),
                (130, 2),
                (130, 3),
                (5, 9),
                (200, 1),
            ],
            &[1, 2, 3, 8, 20],
        )
    };
    for &(c, a) in cubes {
        for &w in widths {
            // Rows of `w` contiguous elements; the destination's `a` rows follow each other
            // within a step of `c`, the source's are a long way apart.
            let shape = [2, c, a, w];
            let dst = Layout::dense(shape, 4, Order::C).unwrap();
            let src = Layout::dense([2, a, c, w + 1], 4, Order::C).unwrap();
            let src = Layout::new(
                shape,
                [src.strides()[0], src.strides()[2], src.strides()[1], 1],
                4,
            )
            .unwrap();
            check_against_model::<u32, 4>(&src, &dst, |i| i as u32);
            check_against_model::<u32, 4>(&src, &dst.flipped(1).unwrap(), |i| i as u32);
            // Strided elements: every second element of the source's rows.
            let src2 = Layout::dense([2, a, c, 2 * w], 2, Order::C).unwrap();
            let src2 = Layout::new(
                shape,
                [src2.strides()[0], src2.strides()[2], src2.strides()[1], 2],
                2,
            )
            .unwrap();
            let dst2 = Layout::dense(shape, 2, Order::C).unwrap();
            check_against_model::<u16, 4>(&src2, &dst2, |i| i as u16);
            check_against_model::<u16, 4>(&src2.flipped(3).unwrap(), &dst2, |i| i as u16);
        }
    }
}

/// Cubes of a few elements (nests whose three innermost loops make at most 64 elements, rows
/// of 2 to 8 strided elements), which hosts copy with the row length chosen once a nest: the
/// random sweep's cases that ran at 0.23-0.43x the plain loop before (`(2,2,3466,2)` and
/// `(2,5484,2,3)` of `u16`, `(1021,8,2,2)` of `u64`, the long axis shortened), each row
/// length the destination stays unique with, forward and flipped, 2- and 8-byte elements,
/// through `copy` and `CopyPlan` against the model; the plans checked to end in such cubes.
/// The long axis has fewer than 64 steps: a longer one moves into the cube (`long_cube`), so
/// its nests no longer end in tiny cubes.
#[test]
fn copy_of_tiny_cubes_matches_the_model() {
    let long = if cfg!(miri) { 5 } else { 63 };
    let li = long as isize;
    // Shape but the last extent, source strides, destination strides, the last extents.
    type Case = ([usize; 3], [isize; 4], [isize; 4], &'static [usize]);
    let cases: [Case; 4] = [
        ([2, 2, long], [-16, 1, 96, -4], [4, 8, -16, 1], &[2, 3, 4]),
        ([2, 2, long], [-64, 1, 384, -4], [8, 16, -32, 1], &[5, 6, 7, 8]),
        ([2, long, 2], [12 * li, 6, 24 * li, 1], [12, 48, 6, -2], &[2, 3]),
        ([long, 8, 2], [32, 4, 1, 2], [128, -16, 4, 1], &[2, 3, 4]),
    ];
    // Strides and the offset that puts the lowest element at 0.
    let at_zero = |shape: [usize; 4], strides: [isize; 4], size: usize| {
        let low: isize = shape
            .iter()
            .zip(strides)
            .map(|(&e, s)| (s * (e as isize - 1)).min(0))
            .sum();
        Layout::new(shape, strides, size).unwrap().with_offset(-low).unwrap()
    };
    let (mut tiny, mut planned) = (0, 0);
    for (head, ss, ds, lasts) in cases {
        for &b in lasts {
            let shape = [head[0], head[1], head[2], b];
            let sizes: &[usize] = if cfg!(miri) { &[2] } else { &[2, 8] };
            for &size in sizes {
                let (src, dst) = (at_zero(shape, ss, size), at_zero(shape, ds, size));
                let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
                planned += 1;
                let is_tiny = match plan.nests()[0].loops() {
                    [.., c, a, l] => {
                        (2..=8).contains(&l.extent)
                            && c.extent * a.extent * l.extent <= 64
                            && plan.nests()[0].tile().is_none()
                    }
                    _ => false,
                };
                tiny += usize::from(is_tiny);
                let flipped = src.flipped(2).unwrap();
                if size == 2 {
                    check_against_model::<u16, 4>(&src, &dst, |i| i as u16);
                    check_against_model::<u16, 4>(&flipped, &dst, |i| i as u16);
                } else {
                    check_against_model::<u64, 4>(&src, &dst, |i| i as u64);
                    check_against_model::<u64, 4>(&flipped, &dst, |i| i as u64);
                }
            }
        }
    }
    assert!(tiny * 3 >= planned * 2, "{tiny} of {planned} plans end in tiny cubes");
}

/// The loop order weighs strides past a cache line alike: in a 3-D transpose of `u16` whose
/// source strides are thousands of elements, the destination's stride-1 axis is one of the
/// two innermost loops, not outermost as a plain stride sum puts it: a short side (35
/// elements) of `u16`, it runs innermost, untiled (`short_whole`); a long one, tiled with the
/// source's.
#[test]
fn plan_of_a_3d_transpose_keeps_the_destination_stride_1_axis_inside() {
    // The plan of a `(n, 6, 419)` transpose, and the destination's strides of its two
    // innermost loops.
    let planned = |n: usize| {
        let src = Layout::dense([n, 6, 419], 2, Order::C).unwrap();
        let dst = Layout::dense([n, 6, 419], 2, Order::F).unwrap();
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        let loops = plan.nests()[0].loops();
        let inner: Vec<_> = loops[loops.len() - 2..]
            .iter()
            .map(|l| l.strides[0])
            .collect();
        (plan, inner, src, dst)
    };
    let (plan, inner, src, dst) = planned(35);
    assert_eq!(inner[1], 1, "{plan}");
    assert!(plan.nests()[0].tile().is_none(), "{plan}");
    if !cfg!(miri) {
        check_against_model::<u16, 3>(&src, &dst, |i| i as u16);
    }
    let (plan, inner, ..) = planned(135);
    assert!(inner.contains(&1), "{plan}");
    assert!(plan.nests()[0].tile().is_some(), "{plan}");
}

/// Grouped transposes (a transpose whose columns come in groups, consecutive on one side and
/// scattered on the other: `oihw -> OIhw16i16o`'s shape, which hosts copy in whole tiles, 8 ×
/// 8 of 2- and 4-byte elements, 4 × 4 of 8-byte ones): a scattered destination (planned rows
/// innermost) and a scattered source (planned columns innermost), groups that are not a
/// multiple of the tile side, partial tiles of rows and columns, groups running backwards on
/// the scattered side; the plan checked to be that shape, every element against the model
/// through `copy`, `CopyPlan` and, with `rayon`, `par_copy`, for each element size.
#[test]
fn grouped_transposes_match_the_model() {
    let cubes: &[[usize; 3]] = if cfg!(miri) {
        &[[2, 9, 11]]
    } else {
        &[[16, 9, 16], [3, 5, 8], [2, 9, 11], [17, 3, 19], [5, 12, 9], [16, 25, 16], [4, 3, 5]]
    };
    fn layouts(
        [ec, ea, eb]: [usize; 3],
        dst_scattered: bool,
        flip: bool,
        itemsize: usize,
    ) -> (Layout<3>, Layout<3>) {
        let cols = ec * ea;
        let col = (eb + 1) as isize;
        let mut scattered =
            Layout::new([ec, ea, eb], [col, col * ec as isize, 1], itemsize).unwrap();
        if flip {
            scattered = scattered.flipped(0).unwrap();
        }
        let merged =
            Layout::new([ec, ea, eb], [ea as isize, 1, (cols + 3) as isize], itemsize).unwrap();
        if dst_scattered { (merged, scattered) } else { (scattered, merged) }
    }
    // Cubes planned in the grouped transpose's shape, by element size and orientation.
    let mut shaped = [[0usize; 2]; 3];
    for &[ec, ea, eb] in cubes {
        for dst_scattered in [true, false] {
            for flip in [false, true] {
                for itemsize in [2, 4, 8] {
                    let (src, dst) = layouts([ec, ea, eb], dst_scattered, flip, itemsize);
                    let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
                    let extents: Vec<usize> =
                        plan.nests()[0].loops().iter().map(|l| l.extent).collect();
                    let want = if dst_scattered { [ec, ea, eb] } else { [ec, eb, ea] };
                    // (The loop order weighs strides by cache lines, so a small cube of
                    // short rows may plan otherwise: then another kernel copies it.)
                    if extents == want {
                        shaped[itemsize / 4][usize::from(dst_scattered)] += 1;
                    }
                    match itemsize {
                        2 => check_against_model::<u16, 3>(&src, &dst, |i| i as u16),
                        4 => {
                            check_against_model::<f32, 3>(&src, &dst, |i| i as f32);
                            check_against_model::<u32, 3>(&src, &dst, |i| i as u32);
                        }
                        _ => check_against_model::<f64, 3>(&src, &dst, |i| i as f64),
                    }
                }
                #[cfg(feature = "rayon")]
                {
                    let (src, dst) = layouts([ec, ea, eb], dst_scattered, flip, 4);
                    let data: Vec<u32> = (0..src.required_len().unwrap() as u32).collect();
                    let mut serial = vec![0u32; dst.required_len().unwrap()];
                    strided_layout::copy(&data, &src, &mut serial, &dst).unwrap();
                    let mut par = vec![0u32; serial.len()];
                    strided_layout::par_copy(&data, &src, &mut par, &dst).unwrap();
                    assert_eq!(par, serial, "par_copy {src:?} -> {dst:?}");
                }
            }
        }
    }
    let least = if cfg!(miri) { 1 } else { 5 };
    assert!(shaped.iter().flatten().all(|&n| n >= least), "{shaped:?}");
}

/// A grouped transpose whose rows the planner tiled (swapped short rows whose long rows
/// overflow the cache): planar `u16` into 78-element pixels, 3 x 26 channels, the
/// destination's pixels made of both loops outside the rows. The grouped transpose takes
/// the cube whole, its own tiles in place of the plan's; every element against the model
/// through `copy` and `CopyPlan`.
#[test]
#[cfg_attr(miri, ignore = "312,000 elements; `grouped_transposes_match_the_model` runs the kernel under Miri")]
fn a_tiled_nest_of_grouped_transposes_matches_the_model() {
    let n = 4000;
    let src = Layout::dense([3, 26, n], 2, Order::C).unwrap();
    let dst = Layout::new([3, 26, n], [1, 3, 78], 2).unwrap();
    let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
    let nest = &plan.nests()[0];
    assert_eq!(nest.loops().last().map(|l| l.extent), Some(n));
    assert!(nest.tile().is_some(), "{plan}");
    check_against_model::<u16, 3>(&src, &dst, |i| i as u16);
}

/// Rows of one channel (the strided side's elements 2 to 16 elements apart, the other side's
/// consecutive, either running backwards), which hosts gather (`Channels::Extract`) or
/// scatter (`Channels::Insert`, blending into the destination's pixels) by byte shuffles
/// where a row is long enough: every pixel a 16-byte chunk holds, for 1-, 2- and 4-byte
/// elements, and pixels of 2 to 4 8-byte ones (gathered from rows of 512), both ways, rows around the vector widths and the rule's thresholds, one and
/// several rows; the plan checked to end in such a loop, every element (and every other
/// element of the destination, kept) against the model through `copy` and `CopyPlan`; with
/// `rayon`, `par_copy` (whose parts never blend) against `copy`; and a scatter in place.
#[test]
fn rows_of_one_channel_move_as_the_model_says() {
    let (lens, pixels): (&[usize], &[usize]) = if cfg!(miri) {
        (&[40], &[2, 3])
    } else {
        (&[16, 17, 31, 33, 40, 64, 95, 96, 97, 130, 257, 511, 512, 513], &[2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16])
    };
    fn layouts(
        px: usize,
        n: usize,
        rows: usize,
        flip: u8,
        size: usize,
        scatter: bool,
    ) -> (Layout<2>, Layout<2>) {
        let mut pixels =
            Layout::new([rows, n], [(n * px + 3) as isize, px as isize], size).unwrap();
        let mut run = Layout::new([rows, n], [(n + 1) as isize, 1], size).unwrap();
        match flip {
            1 => pixels = pixels.flipped(1).unwrap(),
            2 => run = run.flipped(1).unwrap(),
            _ => {}
        }
        if scatter { (run, pixels) } else { (pixels, run) }
    }
    let (mut shaped, mut cases) = (0, 0);
    let rows_of: &[usize] = if cfg!(miri) { &[3] } else { &[1, 3] };
    for &n in lens {
        for &rows in rows_of {
            for flip in 0..3 {
                for scatter in [false, true] {
                    for size in [1, 2, 4, 8] {
                        let taken = |px: usize| if size == 8 { px <= 4 } else { px * size <= 16 };
                        for &px in pixels.iter().filter(|&&px| taken(px)) {
                            cases += 1;
                            let (src, dst) = layouts(px, n, rows, flip, size, scatter);
                            let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
                            let inner = plan.nests()[0].loops().last().unwrap();
                            let [d, s] = inner.strides.map(isize::unsigned_abs);
                            if inner.extent == n && (if scatter { [s, d] } else { [d, s] }) == [1, px] {
                                shaped += 1;
                            }
                            match size {
                                1 => check_against_model::<u8, 2>(&src, &dst, |i| i as u8),
                                2 => check_against_model::<u16, 2>(&src, &dst, |i| i as u16),
                                4 => check_against_model::<f32, 2>(&src, &dst, |i| i as f32),
                                _ => check_against_model::<f64, 2>(&src, &dst, |i| i as f64),
                            }
                        }
                    }
                    #[cfg(feature = "rayon")]
                    {
                        let (src, dst) = layouts(3, n, rows, flip, 1, scatter);
                        let data: Vec<u8> =
                            (0..src.required_len().unwrap()).map(|i| i as u8).collect();
                        let mut serial = vec![7u8; dst.required_len().unwrap()];
                        strided_layout::copy(&data, &src, &mut serial, &dst).unwrap();
                        let mut par = vec![7u8; serial.len()];
                        strided_layout::par_copy(&data, &src, &mut par, &dst).unwrap();
                        assert_eq!(par, serial, "par_copy {src:?} -> {dst:?}");
                    }
                }
            }
        }
        // In place: a run scattered into pixels of 2 lanes after it in the same buffer.
        let run = Layout::new([n], [1], 1).unwrap();
        let pixels = Layout::from_parts([n], [2], n as isize, 1).unwrap();
        let mut buf: Vec<u8> = (0..3 * n).map(|i| (i * 3 + 1) as u8).collect();
        let mut want = buf.clone();
        for j in 0..n {
            want[n + 2 * j] = want[j];
        }
        strided_layout::copy_within(&mut buf, &run, &pixels).unwrap();
        assert_eq!(buf, want, "copy_within, n {n}");
    }
    // Every case plans its rows innermost (the consecutive side's unit stride weighs most).
    assert_eq!(shaped, cases);
}
