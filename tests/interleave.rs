//! `InterleavedLayout` against a naive reference model: every index enumerated, every
//! offset computed from CoreAI's formula in `i128`.

use crate::common;

use proptest::prelude::*;
use strided_layout::rank::{OneLess, OneMore, Rank};
use strided_layout::{InterleaveLayout, InterleavedLayout, Layout, LayoutError, Order};

/// CoreAI's formula: `offset + (i_d / f) s_d + i_d % f + Σ_{k != d} i_k s_k`.
fn model_offset<const N: usize>(l: &InterleavedLayout<N>, ix: &[usize]) -> i128 {
    let (d, f) = (l.interleave().dimension(), l.interleave().factor());
    let st = l.strides();
    let mut o = l.offset() as i128;
    for (k, &i) in ix.iter().enumerate() {
        o += if k == d {
            (i / f) as i128 * st[k] as i128 + (i % f) as i128
        } else {
            i as i128 * st[k] as i128
        };
    }
    o
}

fn model_offsets<const N: usize>(l: &InterleavedLayout<N>) -> Vec<i128> {
    common::indices(&l.shape())
        .iter()
        .map(|ix| model_offset(l, ix))
        .collect()
}

fn sorted(mut v: Vec<i128>) -> Vec<i128> {
    v.sort_unstable();
    v
}

/// Small interleaved layouts: extents 0..=6, strides -6..=6 (0 included), offset -40..=40,
/// factor 1..=4, any dimension, itemsize 1, 2, 4 or 8.
fn interleaved<const N: usize>() -> impl Strategy<Value = InterleavedLayout<N>> {
    (
        common::parts::<N>(),
        proptest::array::uniform::<_, N>(0usize..=6),
        0..N,
        1usize..=4,
    )
        .prop_map(|((_, st, off, item), sh, d, f)| {
            let il = InterleaveLayout::new(d, f).unwrap();
            InterleavedLayout::new(sh, st, item, il)
                .and_then(|l| l.with_offset(off))
                .expect("small interleaved layouts are valid")
        })
}

/// The index of the strided form that holds element `ix`: `[.., i_d / f, .., i_d % f]`.
fn split_index<const N: usize, const M: usize>(ix: &[usize], d: usize, f: usize) -> [usize; M] {
    let mut out = [0usize; M];
    out[..N].copy_from_slice(ix);
    out[d] = ix[d] / f;
    out[N] = ix[d] % f;
    out
}

fn check<const N: usize, const M: usize>(l: InterleavedLayout<N>) -> Result<(), TestCaseError>
where
    Rank<N>: OneMore<N, M>,
    Rank<M>: OneLess<M, N>,
{
    let (d, f) = (l.interleave().dimension(), l.interleave().factor());
    let model = model_offsets(&l);
    let idx = common::indices(&l.shape());

    // offset_of, element by element; out of range is an error.
    for (ix, &m) in idx.iter().zip(&model) {
        let a: [usize; N] = ix.as_slice().try_into().unwrap();
        prop_assert_eq!(l.offset_of(a).map(|o| o as i128), Ok(m));
    }
    if let Some(first) = idx.first() {
        let mut over: [usize; N] = first.as_slice().try_into().unwrap();
        over[d] = l.shape()[d];
        prop_assert_eq!(
            l.offset_of(over),
            Err(LayoutError::IndexOutOfRange { axis: d })
        );
    }
    prop_assert_eq!(l.volume(), model.len());

    // offset_bounds and required_size_in_bytes: (max + 1) elements, padding included.
    let bounds = common::bounds_model(&model);
    prop_assert_eq!(
        l.offset_bounds().map(|(a, b)| (a as i128, b as i128)),
        bounds
    );
    let expect_size = match bounds {
        None => Ok(0),
        Some((lo, _)) if lo < 0 => Err(LayoutError::NegativeOffset),
        Some((_, hi)) => Ok((hi as usize + 1) * l.itemsize()),
    };
    prop_assert_eq!(l.required_size_in_bytes(), expect_size);

    // is_unique and is_dense, by brute force.
    prop_assert_eq!(l.is_unique(), common::unique_model(&model), "{}", l);
    let dense = if model.is_empty() {
        l.offset() == 0
    } else {
        sorted(model.clone()) == (0..model.len() as i128).collect::<Vec<_>>()
    };
    prop_assert_eq!(l.is_dense(), dense, "{}", l);

    // to_strided / from_strided: same offsets at split indices, same offset set, round trip.
    let divides = l.shape()[d] % f == 0;
    match l.to_strided::<M>() {
        Ok(s) => {
            prop_assert!(divides);
            prop_assert_eq!((s.shape()[N], s.strides()[N]), (f, 1));
            for (ix, &m) in idx.iter().zip(&model) {
                let j = split_index::<N, M>(ix, d, f);
                prop_assert_eq!(s.offset_of(j).map(|o| o as i128), Ok(m));
            }
            prop_assert_eq!(sorted(common::offsets(&s)), sorted(model.clone()));
            prop_assert_eq!(InterleavedLayout::<N>::from_strided(&s, d), Ok(l));
        }
        Err(e) => {
            prop_assert!(!divides);
            prop_assert_eq!(e, LayoutError::ExtentNotDivisible { axis: d });
        }
    }

    // The padded form: elements at split indices; exactly `volume` indices pass the mask.
    let p = l
        .to_strided_padded::<M>()
        .expect("small padded forms are valid");
    for (ix, &m) in idx.iter().zip(&model) {
        let j = split_index::<N, M>(ix, d, f);
        prop_assert_eq!(p.offset_of(j).map(|o| o as i128), Ok(m));
    }
    let e = l.shape()[d];
    let kept = common::indices(&p.shape())
        .iter()
        .filter(|j| j[d] * f + j[N] < e)
        .count();
    prop_assert_eq!(kept, model.len());
    if divides {
        prop_assert_eq!(Ok(p), l.to_strided::<M>());
    }
    Ok(())
}

/// Transforms keep the formula: permuted, narrowed (every axis, every start), selected.
fn check_transforms<const N: usize, const R: usize>(
    l: InterleavedLayout<N>,
    perm: [usize; N],
) -> Result<(), TestCaseError>
where
    Rank<N>: OneLess<N, R>,
{
    let (d, f) = (l.interleave().dimension(), l.interleave().factor());
    let idx = common::indices(&l.shape());

    let p = l.permuted(perm).unwrap();
    prop_assert_eq!(p.interleave().factor(), f);
    prop_assert_eq!(perm[p.interleave().dimension()], d);
    for ix in &idx {
        let mut j = [0usize; N];
        for k in 0..N {
            j[k] = ix[perm[k]];
        }
        prop_assert_eq!(
            p.offset_of(j),
            l.offset_of(ix.as_slice().try_into().unwrap())
        );
    }
    let mut bad = perm;
    if N >= 2 {
        bad[0] = bad[1];
        prop_assert_eq!(l.permuted(bad), Err(LayoutError::NotAPermutation));
    }

    for axis in 0..N {
        let e = l.shape()[axis];
        for start in 0..=e {
            for len in 0..=e - start {
                let r = l.narrowed(axis, start, len);
                if axis == d && start % f != 0 {
                    prop_assert_eq!(r, Err(LayoutError::BlockMisaligned { axis }));
                    continue;
                }
                let n = r.unwrap();
                for jx in common::indices(&n.shape()) {
                    let mut i: [usize; N] = jx.as_slice().try_into().unwrap();
                    i[axis] += start;
                    prop_assert_eq!(
                        n.offset_of(jx.as_slice().try_into().unwrap()),
                        l.offset_of(i)
                    );
                }
            }
        }
        prop_assert_eq!(
            l.narrowed(axis, e, 1),
            Err(LayoutError::RangeOutOfBounds { axis })
        );
        for index in 0..e {
            let r = l.selected::<R>(axis, index);
            if axis == d {
                prop_assert_eq!(r, Err(LayoutError::InterleavedAxis { axis }));
                continue;
            }
            let s = r.unwrap();
            for jx in common::indices(&s.shape()) {
                let mut i = jx.clone();
                i.insert(axis, index);
                prop_assert_eq!(
                    s.offset_of(jx.as_slice().try_into().unwrap()),
                    l.offset_of(i.as_slice().try_into().unwrap())
                );
            }
        }
    }
    Ok(())
}

/// `from_strided` on any strided layout whose last axis is a stride-1 block.
fn check_from_strided<const N: usize, const M: usize>(
    s: Layout<M>,
    d: usize,
) -> Result<(), TestCaseError>
where
    Rank<N>: OneMore<N, M>,
    Rank<M>: OneLess<M, N>,
{
    let f = s.shape()[N];
    let r = InterleavedLayout::<N>::from_strided(&s, d);
    if f == 0 {
        prop_assert_eq!(r, Err(LayoutError::FactorZero));
        return Ok(());
    }
    if f > 1 && s.strides()[N] != 1 {
        prop_assert_eq!(r, Err(LayoutError::NotABlock { axis: N }));
        return Ok(());
    }
    let l = r.unwrap();
    prop_assert_eq!(l.interleave(), InterleaveLayout::new(d, f).unwrap());
    for ix in common::indices(&l.shape()) {
        let j = split_index::<N, M>(&ix, d, f);
        prop_assert_eq!(
            l.offset_of(ix.as_slice().try_into().unwrap()),
            s.offset_of(j)
        );
    }
    if s.strides()[N] == 1 {
        prop_assert_eq!(l.to_strided::<M>(), Ok(s));
    }
    Ok(())
}

fn perm<const N: usize>() -> impl Strategy<Value = [usize; N]> {
    Just((0..N).collect::<Vec<usize>>())
        .prop_shuffle()
        .prop_map(|v| v.try_into().unwrap())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::common::cases(256)))]
    #[test] fn formula_queries_and_strided_form_rank1(l in interleaved::<1>()) { check::<1, 2>(l)?; }
    #[test] fn formula_queries_and_strided_form_rank2(l in interleaved::<2>()) { check::<2, 3>(l)?; }
    #[test] fn formula_queries_and_strided_form_rank3(l in interleaved::<3>()) { check::<3, 4>(l)?; }
    #[test] fn formula_queries_and_strided_form_rank4(l in interleaved::<4>()) { check::<4, 5>(l)?; }
    #[test] fn transforms_keep_formula_rank1(l in interleaved::<1>(), p in perm::<1>()) { check_transforms::<1, 0>(l, p)?; }
    #[test] fn transforms_keep_formula_rank2(l in interleaved::<2>(), p in perm::<2>()) { check_transforms::<2, 1>(l, p)?; }
    #[test] fn transforms_keep_formula_rank3(l in interleaved::<3>(), p in perm::<3>()) { check_transforms::<3, 2>(l, p)?; }
    #[test] fn from_strided_reads_last_axis_as_block_rank2(s in common::layout::<3>(), d in 0..2usize, unit in any::<bool>()) {
        let s = if unit { Layout::new(s.shape(), [s.strides()[0], s.strides()[1], 1], s.itemsize()).unwrap() } else { s };
        check_from_strided::<2, 3>(s, d)?;
    }
    #[test] fn from_strided_reads_last_axis_as_block_rank3(s in common::layout::<4>(), d in 0..3usize) {
        let st = s.strides();
        let s = Layout::new(s.shape(), [st[0], st[1], st[2], 1], s.itemsize()).unwrap().with_offset(s.offset()).unwrap();
        check_from_strided::<3, 4>(s, d)?;
    }
}

#[test]
fn dense_matches_coreai_example() -> Result<(), LayoutError> {
    let il = InterleaveLayout::new(0, 4)?;
    let l = InterleavedLayout::dense([8, 256, 256], 4, il)?;
    assert_eq!(l.strides(), [262144, 1024, 4]);
    let s: Layout<4> = l.to_strided()?;
    assert_eq!(s, Layout::dense([2, 256, 256, 4], 4, Order::C)?);
    assert_eq!(
        std::format!("{l}"),
        "(8,256,256):(262144,1024,4) il(0,4) x4B"
    );
    assert!(l.is_dense() && l.is_unique());
    assert_eq!(l.required_size_in_bytes()?, 8 * 256 * 256 * 4);
    Ok(())
}

#[test]
fn dense_with_partial_last_block_is_padded_not_dense() -> Result<(), LayoutError> {
    // 10 channels in blocks of 4, 3 pixels: blocks of 4 lanes * 3 pixels = 12 apart.
    let l = InterleavedLayout::dense([10, 3], 1, InterleaveLayout::new(0, 4)?)?;
    assert_eq!(l.strides(), [12, 4]);
    assert_eq!(l.last_block_len(), 2);
    assert!(l.is_unique() && !l.is_dense());
    assert_eq!(l.offset_bounds(), Some((0, 33)));
    assert_eq!(l.required_size_in_bytes()?, 34);
    assert_eq!(
        l.to_strided::<3>(),
        Err(LayoutError::ExtentNotDivisible { axis: 0 })
    );
    assert_eq!(l.to_strided_padded::<3>()?.required_size_in_bytes()?, 36);
    Ok(())
}

#[test]
fn array_interface_two_by_sixteen_example() -> Result<(), LayoutError> {
    // A[1,1..8], A[2,1..8], A[1,9..16], ...: axis 1 in sets of 8, block stride 16, row 8.
    let a = InterleavedLayout::new([2, 16], [8, 16], 8, InterleaveLayout::new(1, 8)?)?;
    let order: Vec<[usize; 2]> = {
        let mut v: Vec<([usize; 2], isize)> = (0..2)
            .flat_map(|i| (0..16).map(move |j| [i, j]))
            .map(|ix| (ix, a.offset_of(ix).unwrap()))
            .collect();
        v.sort_by_key(|&(_, o)| o);
        v.into_iter().map(|(ix, _)| ix).collect()
    };
    let expect: Vec<[usize; 2]> = [(0, 0..8), (1, 0..8), (0, 8..16), (1, 8..16)]
        .into_iter()
        .flat_map(|(i, js)| js.map(move |j| [i, j]))
        .collect();
    assert_eq!(order, expect);
    assert!(a.is_dense());
    // 0-based here; ArrayInterface's 1-based answers are these + 1 (batch size as is).
    assert_eq!(a.stride_rank(), [0, 1]); // StrideRank{(1, 2)}
    assert_eq!(a.contiguous_axis(), Some(1)); // Contiguous{2}
    assert_eq!(a.contiguous_batch_size(), Some(8)); // ContiguousBatch{8}
    // The same memory as a strided layout: no batching on the strided side.
    let s: Layout<3> = a.to_strided()?;
    assert_eq!(
        (s.contiguous_axis(), s.contiguous_batch_size()),
        (Some(2), Some(0))
    );
    Ok(())
}

#[test]
fn factor_one_answers_as_the_strided_layout() -> Result<(), LayoutError> {
    for st in [[3, 1], [1, 2], [0, 1], [-1, 4], [5, 7]] {
        let s = Layout::new([2, 3], st, 4)?;
        for d in 0..2 {
            let l = InterleavedLayout::new([2, 3], st, 4, InterleaveLayout::new(d, 1)?)?;
            assert_eq!(l.contiguous_axis(), s.contiguous_axis());
            assert_eq!(l.stride_rank(), s.stride_rank());
            assert_eq!(l.contiguous_batch_size(), s.contiguous_batch_size());
            assert_eq!((l.is_unique(), l.is_dense()), (s.is_unique(), s.is_dense()));
        }
    }
    Ok(())
}

#[test]
fn grid_shows_where_blocks_lie() -> Result<(), LayoutError> {
    let l = InterleavedLayout::new([3, 6], [4, 12], 1, InterleaveLayout::new(1, 4)?)?;
    assert_eq!(
        std::format!("{}", l.grid_2d()),
        " 0  1  2  3 12 13\n 4  5  6  7 16 17\n 8  9 10 11 20 21"
    );
    Ok(())
}

#[test]
fn constructors_reject_each_rule() {
    assert_eq!(InterleaveLayout::new(0, 0), Err(LayoutError::FactorZero));
    let il = InterleaveLayout::new(1, 2).unwrap();
    assert_eq!(
        InterleavedLayout::new([4], [1], 1, il),
        Err(LayoutError::AxisOutOfRange { axis: 1, ndim: 1 })
    );
    let il = InterleaveLayout::new(0, 2).unwrap();
    assert_eq!(
        InterleavedLayout::new([4], [1], 3, il),
        Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: 3 })
    );
    assert_eq!(
        InterleavedLayout::new([usize::MAX, 2], [1, 1], 1, il),
        Err(LayoutError::VolumeOverflow)
    );
    assert_eq!(
        InterleavedLayout::new([8], [isize::MAX / 2], 1, il),
        Err(LayoutError::OffsetOverflow)
    );
    assert_eq!(
        InterleavedLayout::new([3], [isize::MAX / 2], 4, il),
        Err(LayoutError::OffsetOverflow)
    );
}

// Built and checked at compile time: the constructors and queries are `const fn`.
const HWC: InterleavedLayout<3> = strided_layout::const_unwrap(InterleavedLayout::dense(
    [3, 480, 640],
    1,
    strided_layout::const_unwrap(InterleaveLayout::new(0, 3)),
));
static_assertions::const_assert!(HWC.is_dense());
static_assertions::const_assert!(HWC.is_unique());
static_assertions::const_assert!(HWC.strides()[2] == 3);
const TAIL: InterleavedLayout<2> = strided_layout::const_unwrap(InterleavedLayout::dense(
    [10, 3],
    1,
    strided_layout::const_unwrap(InterleaveLayout::new(0, 4)),
));
static_assertions::const_assert!(!TAIL.is_dense());
static_assertions::const_assert!(TAIL.last_block_len() == 2);
static_assertions::assert_impl_all!(
    InterleavedLayout<3>: Copy, Send, Sync, Eq, core::hash::Hash, core::fmt::Display
);
static_assertions::assert_impl_all!(InterleaveLayout: Copy, Send, Sync, Eq, core::hash::Hash);

#[test]
fn const_layouts_match_runtime_ones() -> Result<(), LayoutError> {
    let il = InterleaveLayout::new(0, 3)?;
    assert_eq!(HWC, InterleavedLayout::dense([3, 480, 640], 1, il)?);
    assert_eq!(
        HWC.to_strided::<4>()?,
        Layout::dense([1, 480, 640, 3], 1, Order::C)?
    );
    Ok(())
}

/// Interleaved layouts with huge extents, strides, offsets and factors (valid ones only).
fn big_interleaved<const N: usize>() -> impl Strategy<Value = InterleavedLayout<N>> {
    let ext = prop_oneof![
        0usize..=9,
        Just(usize::MAX),
        1usize..(1 << 40),
        any::<usize>()
    ];
    let st = prop_oneof![
        -6isize..=6,
        Just(isize::MIN),
        Just(isize::MAX),
        any::<isize>()
    ];
    let fac = prop_oneof![1usize..=8, Just(usize::MAX), any::<usize>()];
    (
        proptest::array::uniform::<_, N>(ext),
        proptest::array::uniform::<_, N>(st),
        prop_oneof![-40isize..=40, any::<isize>()],
        0..N,
        fac,
        prop_oneof![Just(1usize), Just(8), Just(1 << 20)],
    )
        .prop_filter_map("invalid layout", |(sh, st, off, d, f, item)| {
            let il = InterleaveLayout::new(d, f).ok()?;
            InterleavedLayout::new(sh, st, item, il)
                .and_then(|l| l.with_offset(off))
                .ok()
        })
}

/// Every interleaved API on a huge layout and arbitrary arguments: errors allowed, no panic;
/// bounds and offsets agree wherever both exist.
fn exercise<const N: usize, const M: usize, const R: usize>(
    l: InterleavedLayout<N>,
    a: usize,
    b: usize,
    perm: [usize; N],
) -> Result<(), TestCaseError>
where
    Rank<N>: OneMore<N, M> + OneLess<N, R>,
    Rank<M>: OneLess<M, N>,
{
    let idx = [a % 3; N];
    if let (Ok(o), Some((lo, hi))) = (l.offset_of(idx), l.offset_bounds()) {
        prop_assert!(lo <= o && o <= hi);
    }
    let _ = (
        l.required_size_in_bytes(),
        l.is_unique(),
        l.is_dense(),
        l.volume(),
    );
    let _ = (
        l.contiguous_axis(),
        l.stride_rank(),
        l.contiguous_batch_size(),
    );
    let _ = (l.last_block_len(), std::format!("{l}"));
    if let Ok(s) = l.to_strided::<M>() {
        prop_assert_eq!(
            InterleavedLayout::<N>::from_strided(&s, l.interleave().dimension()),
            Ok(l)
        );
    }
    let _ = l.to_strided_padded::<M>();
    let _ = (
        l.permuted(perm),
        l.permuted([a; N]),
        l.narrowed(a % N, b, a),
        l.narrowed(a, b, a),
    );
    let _ = (
        l.selected::<R>(a % N, b),
        l.selected::<R>(a, b),
        l.with_offset(b as isize),
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::common::cases(512)))]
    #[test] fn interleaved_api_never_panics_rank1(l in big_interleaved::<1>(), a in any::<usize>(), b in any::<usize>()) {
        exercise::<1, 2, 0>(l, a, b, [0])?;
    }
    #[test] fn interleaved_api_never_panics_rank2(l in big_interleaved::<2>(), a in prop_oneof![0usize..4, any::<usize>()], b in prop_oneof![0usize..4, any::<usize>()], p in perm::<2>()) {
        exercise::<2, 3, 1>(l, a, b, p)?;
    }
    #[test] fn interleaved_api_never_panics_rank3(l in big_interleaved::<3>(), a in prop_oneof![0usize..4, any::<usize>()], b in prop_oneof![0usize..4, any::<usize>()], p in perm::<3>()) {
        exercise::<3, 4, 2>(l, a, b, p)?;
    }
}
