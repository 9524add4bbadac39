//! Every layout kind as a first-class operand, against the reference model: the iterators
//! of `Layout`, `DynLayout` and `InterleavedLayout` forwards and backwards, and the
//! uniqueness, overlap and index-type questions of `InterleavedLayout` and `DynLayout`.
//!
//! Layouts: ranks 0..=5 (1..=5 when interleaved), extents 0..=4, strides -6..=6 (0
//! included), interleave factors 1..=4 on every axis.

use crate::common;

use proptest::prelude::*;
use strided_layout::iter::Block;
use strided_layout::plan::Mapping;
use strided_layout::{DynLayout, InterleaveLayout, InterleavedLayout, Layout, Verdict};

/// CoreAI's formula in `i128`, by the plain model: index `i_d` sits at block `i_d / f`
/// (stride `s_d`) plus lane `i_d % f` (stride 1).
fn model_offset<const N: usize>(l: &InterleavedLayout<N>, ix: &[usize]) -> i128 {
    let (d, f) = (l.interleave().dimension(), l.interleave().factor());
    let mut blocks = ix.to_vec();
    blocks[d] = ix[d] / f;
    common::offset_of_model(&l.strides(), l.offset(), &blocks) + (ix[d] % f) as i128
}

fn model_offsets<const N: usize>(l: &InterleavedLayout<N>) -> Vec<i128> {
    common::indices(&l.shape())
        .iter()
        .map(|ix| model_offset(l, ix))
        .collect()
}

/// Small interleaved layouts: extents 0..=4, strides -6..=6, offset -40..=40, factor
/// 1..=4 on any axis, itemsize 1, 2, 4 or 8.
fn interleaved<const N: usize>() -> impl Strategy<Value = InterleavedLayout<N>> {
    (common::parts::<N>(), 0..N, 1usize..=4).prop_map(|((sh, st, off, item), d, f)| {
        let il = InterleaveLayout::new(d, f).unwrap();
        InterleavedLayout::new(sh, st, item, il)
            .and_then(|l| l.with_offset(off))
            .expect("small interleaved layouts are valid")
    })
}

/// The offsets covered by `blocks`, in order.
fn expand(blocks: impl Iterator<Item = Block>) -> Vec<i128> {
    blocks
        .flat_map(|b| (0..b.len).map(move |j| b.start as i128 + j as i128))
        .collect()
}

/// Checks the blocks' contract: they expand to `offsets`, have `len >= 1`, are maximal,
/// and `rev()` yields the same blocks in reverse.
fn check_blocks(fwd: Vec<Block>, back: Vec<Block>, offsets: &[i128]) -> Result<(), TestCaseError> {
    prop_assert_eq!(expand(fwd.iter().copied()), offsets.to_vec());
    prop_assert!(fwd.iter().all(|b| b.len >= 1));
    for w in fwd.windows(2) {
        prop_assert_ne!(w[0].start as i128 + w[0].len as i128, w[1].start as i128);
    }
    let mut rev = back;
    rev.reverse();
    prop_assert_eq!(rev, fwd);
    Ok(())
}

/// The bytes `{o * itemsize + b}` every element covers.
fn bytes_of(offsets: &[i128], itemsize: usize) -> std::collections::BTreeSet<i128> {
    offsets
        .iter()
        .flat_map(|&o| (0..itemsize as i128).map(move |b| o * itemsize as i128 + b))
        .collect()
}

/// Whether `I` holds `v`.
fn fits<I: TryFrom<i128>>(v: i128) -> bool {
    I::try_from(v).is_ok()
}

fn check_layout_iterators<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    let model = common::offsets(&l);
    let fwd: Vec<i128> = l.offsets().map(|o| o as i128).collect();
    let mut back: Vec<i128> = l.offsets().rev().map(|o| o as i128).collect();
    back.reverse();
    prop_assert_eq!(&fwd, &model);
    prop_assert_eq!(&back, &model);
    // Alternating ends meet in the middle without repeating an item.
    let mut it = l.offsets();
    let (mut front, mut tail) = (Vec::new(), Vec::new());
    while let Some(o) = it.next() {
        front.push(o as i128);
        match it.next_back() {
            Some(o) => tail.push(o as i128),
            None => break,
        }
    }
    tail.reverse();
    front.extend(tail);
    prop_assert_eq!(&front, &model);
    let ix: Vec<Vec<usize>> = l.indices().rev().map(|i| i.to_vec()).collect();
    let mut want = common::indices(&l.shape());
    want.reverse();
    prop_assert_eq!(ix, want);
    check_blocks(
        l.strided_blocks().collect(),
        l.strided_blocks().rev().collect(),
        &model,
    )
}
for_ranks!(
    layout_iterators_rev_match_model,
    layout,
    check_layout_iterators
);

fn check_dyn_layout<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    let d = DynLayout::<6>::from_layout(&l).unwrap();
    let model = common::offsets(&l);
    let back: Vec<i128> = d.offsets().rev().map(|o| o as i128).collect();
    prop_assert_eq!(back.into_iter().rev().collect::<Vec<_>>(), model.clone());
    let ix: Vec<Vec<usize>> = d.indices().rev().map(|i| i[..N].to_vec()).collect();
    let mut want = common::indices(&l.shape());
    want.reverse();
    prop_assert_eq!(ix, want);
    check_blocks(
        d.strided_blocks().collect(),
        d.strided_blocks().rev().collect(),
        &model,
    )?;
    // Lowered: padded in front with extent-1, stride-0 axes.
    let low = d.lowered();
    prop_assert_eq!(&low.shape[6 - N..], &l.shape()[..]);
    prop_assert_eq!(&low.strides[6 - N..], &l.strides()[..]);
    prop_assert!(low.shape[..6 - N].iter().all(|&e| e == 1));
    prop_assert!(low.strides[..6 - N].iter().all(|&s| s == 0));
    // Budgeted questions agree with the model whenever they answer, and always with a
    // large budget.
    let unique = common::unique_model(&model);
    for budget in [0, 3, u64::MAX] {
        match d.is_unique_within(budget) {
            Verdict::Yes => prop_assert!(unique),
            Verdict::No => prop_assert!(!unique),
            Verdict::Unknown => prop_assert!(budget != u64::MAX),
        }
    }
    let other = DynLayout::<6>::from_layout(&l.with_offset(l.offset() + 3).unwrap()).unwrap();
    let meet = !bytes_of(&model, l.itemsize()).is_disjoint(&bytes_of(
        &common::offsets(&l.with_offset(l.offset() + 3).unwrap()),
        l.itemsize(),
    ));
    prop_assert_eq!(d.overlaps(&other), meet);
    prop_assert_eq!(d.overlaps_within(&other, u64::MAX).known(), Some(meet));
    prop_assert_eq!(d.fits_in::<i8>(), l.fits_in::<i8>());
    Ok(())
}
for_ranks!(dyn_layout_matches_model, layout, check_dyn_layout);

/// `DynLayout` as a kernel operand: a copy through it lands every element where the model
/// says.
fn check_dyn_copy<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    let Ok(src_layout) = DynLayout::<5>::from_layout(&l) else {
        return Ok(());
    };
    let model = common::offsets(&l);
    if model.iter().any(|&o| o < 0) {
        return Ok(());
    }
    let len = model.iter().max().map_or(0, |&m| m as usize + 1);
    let src: Vec<u64> = (0..len as u64).map(|v| v * 7 + 1).collect();
    let mut dst_shape = [1usize; 5];
    dst_shape[5 - N..].copy_from_slice(&l.shape());
    let dst_layout = Layout::dense(dst_shape, 8, strided_layout::Order::C).unwrap();
    let mut dst = vec![0u64; dst_layout.volume()];
    let src_layout = DynLayout::<5>::new(src_layout.shape(), src_layout.strides(), 8)
        .and_then(|s| s.with_offset(l.offset()))
        .unwrap();
    strided_layout::copy(&src, &src_layout, &mut dst, &dst_layout).unwrap();
    let want: Vec<u64> = model.iter().map(|&o| src[o as usize]).collect();
    prop_assert_eq!(dst, want);
    Ok(())
}
for_ranks!(dyn_layout_copy_matches_model, layout, check_dyn_copy);

fn check_interleaved<const N: usize>(l: InterleavedLayout<N>) -> Result<(), TestCaseError> {
    let model = model_offsets(&l);
    let fwd: Vec<i128> = l.offsets().map(|o| o as i128).collect();
    prop_assert_eq!(&fwd, &model);
    prop_assert_eq!(l.offsets().len(), model.len());
    let back: Vec<i128> = l.offsets().rev().map(|o| o as i128).collect();
    prop_assert_eq!(back.into_iter().rev().collect::<Vec<_>>(), model.clone());
    prop_assert_eq!(
        l.offsets().fold(0i128, |a, o| a + o as i128),
        model.iter().sum::<i128>()
    );
    let ix: Vec<Vec<usize>> = l.indices().map(|i| i.to_vec()).collect();
    prop_assert_eq!(&ix, &common::indices(&l.shape()));
    let rix: Vec<Vec<usize>> = l.indices().rev().map(|i| i.to_vec()).collect();
    prop_assert_eq!(rix.into_iter().rev().collect::<Vec<_>>(), ix);
    check_blocks(
        l.strided_blocks().collect(),
        l.strided_blocks().rev().collect(),
        &model,
    )?;

    let unique = common::unique_model(&model);
    prop_assert_eq!(l.is_unique(), unique);
    for budget in [0, 3, u64::MAX] {
        match l.is_unique_within(budget) {
            Verdict::Yes => prop_assert!(unique),
            Verdict::No => prop_assert!(!unique),
            Verdict::Unknown => prop_assert!(budget != u64::MAX),
        }
    }
    for shift in [-3isize, 0, 1, 2, 5] {
        let other = l.with_offset(l.offset() + shift).unwrap();
        let meet = !bytes_of(&model, l.itemsize())
            .is_disjoint(&bytes_of(&model_offsets(&other), other.itemsize()));
        prop_assert_eq!(l.overlaps(&other), meet, "shift {}", shift);
        for budget in [0, 3, u64::MAX] {
            match l.overlaps_within(&other, budget) {
                Verdict::Yes => prop_assert!(meet),
                Verdict::No => prop_assert!(!meet),
                Verdict::Unknown => prop_assert!(budget != u64::MAX),
            }
        }
    }

    // The index-type rule, on the model's bounds.
    let item = l.itemsize() as i128;
    let b = common::bounds_model(&model);
    let parts_fit = |f: &dyn Fn(i128) -> bool, scale: i128| {
        l.shape().iter().all(|&e| f(e as i128))
            && l.strides().iter().all(|&s| f(s as i128 * scale))
            && f(l.offset() as i128 * scale)
    };
    let want =
        parts_fit(&fits::<i8>, 1) && b.is_none_or(|(lo, hi)| fits::<i8>(lo) && fits::<i8>(hi));
    prop_assert_eq!(l.fits_in::<i8>(), want);
    let want_bytes = parts_fit(&fits::<i8>, item)
        && b.is_none_or(|(lo, hi)| fits::<i8>(lo * item) && fits::<i8>(hi * item + item - 1));
    prop_assert_eq!(l.fits_in_bytes::<i8>(), want_bytes);
    prop_assert!(l.fits_in::<i64>() && l.fits_in_bytes::<i64>());
    Ok(())
}

mod interleaved_matches_model {
    use super::*;
    proptest! {
        #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { crate::common::cases(256) }))]
        #[test] fn rank1(l in interleaved::<1>()) { check_interleaved(l)?; }
        #[test] fn rank2(l in interleaved::<2>()) { check_interleaved(l)?; }
        #[test] fn rank3(l in interleaved::<3>()) { check_interleaved(l)?; }
        #[test] fn rank4(l in interleaved::<4>()) { check_interleaved(l)?; }
        #[test] fn rank5(l in interleaved::<5>()) { check_interleaved(l)?; }
    }
}

#[test]
fn interleaved_iterators_visit_a_partial_last_block_without_padding() {
    let l = InterleavedLayout::new([10], [4], 1, InterleaveLayout::new(0, 4).unwrap()).unwrap();
    assert!(l.offsets().eq([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
    assert!(l.strided_blocks().eq([Block { start: 0, len: 10 }]));
    let gapped =
        InterleavedLayout::new([10], [8], 1, InterleaveLayout::new(0, 4).unwrap()).unwrap();
    assert!(
        gapped
            .offsets()
            .rev()
            .eq([17, 16, 11, 10, 9, 8, 3, 2, 1, 0])
    );
    assert!(gapped.strided_blocks().rev().eq([
        Block { start: 16, len: 2 },
        Block { start: 8, len: 4 },
        Block { start: 0, len: 4 }
    ]));
}
