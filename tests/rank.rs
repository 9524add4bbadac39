//! Rank changes against the reference model: every result maps the same elements, in C
//! (or F) index order, to the same offsets.
use crate::common;

use proptest::prelude::*;
use strided_layout::rank::{Merged, NotLower, OneLess, OneMore, Rank};
use strided_layout::{AxisMask, DynLayout, Layout, LayoutError};

/// Offsets of a bounded-rank layout in C index order.
fn dyn_offsets<const MAX: usize>(d: &DynLayout<MAX>) -> Vec<i128> {
    common::offsets_raw(d.shape(), d.strides(), d.offset())
}

/// Offsets in F index order (first axis fastest).
fn offsets_f(shape: &[usize], strides: &[isize], offset: isize) -> Vec<i128> {
    let rs: Vec<usize> = shape.iter().rev().copied().collect();
    let rt: Vec<isize> = strides.iter().rev().copied().collect();
    common::offsets_raw(&rs, &rt, offset)
}

/// Whether some strides for `target` give, in C index order, exactly `offs` (brute force:
/// each candidate stride is read off the element one step along that axis).
fn reshape_exists(offs: &[i128], target: &[usize]) -> bool {
    let vol: usize = target.iter().product();
    if vol != offs.len() {
        return false;
    }
    if vol == 0 {
        return true;
    }
    let mut step = vec![0i128; target.len()];
    let mut inner = 1usize;
    for j in (0..target.len()).rev() {
        if target[j] > 1 {
            step[j] = offs[inner] - offs[0];
        }
        inner *= target[j];
    }
    common::indices(target).iter().enumerate().all(|(k, ix)| {
        offs[0]
            + ix.iter()
                .zip(&step)
                .map(|(&i, &s)| i as i128 * s)
                .sum::<i128>()
            == offs[k]
    })
}

/// Every shape of rank `m` with extents in `0..=max` whose product is `vol`.
fn shapes_with_volume(m: usize, max: usize, vol: usize) -> Vec<Vec<usize>> {
    let all = common::indices(&vec![max + 1; m]);
    all.into_iter()
        .filter(|s| s.iter().product::<usize>() == vol)
        .collect()
}

fn check_reshape_to<const N: usize, const M: usize>(l: &Layout<N>, target: &[usize]) {
    let t: [isize; M] = core::array::from_fn(|j| target[j] as isize);
    let offs = common::offsets(l);
    match l.reshaped(t) {
        Ok(r) => {
            assert_eq!(common::offsets(&r), offs, "{l:?} -> {target:?}");
            assert_eq!(r.shape().to_vec(), target);
            assert_eq!((r.offset(), r.itemsize()), (l.offset(), l.itemsize()));
        }
        Err(LayoutError::NeedsCopy { axes }) => {
            assert!(
                !reshape_exists(&offs, target),
                "{l:?} -> {target:?} wrongly needs a copy"
            );
            assert!(axes.count() >= 1 && axes.bits() >> N == 0, "{axes:?}");
        }
        Err(e) => panic!("{l:?} -> {target:?}: {e:?}"),
    }
}

fn brute_force_reshape<const N: usize>(
    extents: std::ops::RangeInclusive<usize>,
    strides: std::ops::RangeInclusive<isize>,
) {
    let ext: Vec<usize> = extents.collect();
    let st: Vec<isize> = strides.collect();
    let mut count = 0;
    for sh in common::indices(&[ext.len(); N]) {
        let shape: [usize; N] = core::array::from_fn(|k| ext[sh[k]]);
        for si in common::indices(&[st.len(); N]) {
            let strides: [isize; N] = core::array::from_fn(|k| st[si[k]]);
            let l = Layout::new(shape, strides, 2).unwrap();
            let vol = l.volume();
            for t in shapes_with_volume(1, 8, vol) {
                check_reshape_to::<N, 1>(&l, &t);
            }
            for t in shapes_with_volume(2, 4, vol) {
                check_reshape_to::<N, 2>(&l, &t);
            }
            for t in shapes_with_volume(3, 3, vol) {
                check_reshape_to::<N, 3>(&l, &t);
                count += 1;
            }
        }
    }
    assert!(count > 0);
}

#[test]
fn reshaped_succeeds_exactly_when_strides_exist_rank2() {
    brute_force_reshape::<2>(0..=4, -5..=5);
}

#[test]
fn reshaped_succeeds_exactly_when_strides_exist_rank3() {
    brute_force_reshape::<3>(0..=3, -3..=3);
}

#[test]
fn reshaped_succeeds_where_cuda_core_historically_failed() {
    let l = Layout::new([2, 1, 3], [3, 99, 1], 4).unwrap();
    assert_eq!(l.reshaped([6]).unwrap().strides(), [1]);
}

#[test]
fn reshaped_names_the_blocking_axes() {
    // (2,3,4) with axes 1 and 2 swapped: merging 0 with 1 is fine, 1 with 2 is not.
    let l = Layout::new([2, 4, 3], [12, 1, 4], 1).unwrap();
    assert_eq!(
        l.reshaped([24]),
        Err(LayoutError::NeedsCopy {
            axes: AxisMask::from_bits(0b110)
        })
    );
    assert_eq!(
        l.reshaped([8, 3]),
        Err(LayoutError::NeedsCopy {
            axes: AxisMask::from_bits(0b011)
        })
    );
    assert_eq!(l.reshaped([2, 4, 3]).unwrap().strides(), [12, 1, 4]);
}

#[test]
fn reshaped_rejects_bad_targets() {
    let l = Layout::new([2, 3], [3, 1], 1).unwrap();
    assert_eq!(
        l.reshaped([-1, -1, 6]),
        Err(LayoutError::ExtentInvalid { axis: 1 })
    );
    assert_eq!(
        l.reshaped([-3, 2]),
        Err(LayoutError::ExtentInvalid { axis: 0 })
    );
    assert_eq!(l.reshaped([4, 2]), Err(LayoutError::VolumeMismatch));
    assert_eq!(l.reshaped([4, -1]), Err(LayoutError::VolumeMismatch));
    let e = Layout::new([2, 0], [3, 1], 1).unwrap();
    assert_eq!(
        e.reshaped([0, -1]),
        Err(LayoutError::ExtentInvalid { axis: 1 })
    );
    assert_eq!(e.reshaped([5, 0, 7]).unwrap().strides(), [0, 0, 0]);
}

#[test]
fn reshaped_f_matches_model_in_f_order() {
    for st in common::indices(&[7, 7]) {
        let strides = [st[0] as isize - 3, st[1] as isize - 3];
        let l = Layout::new([2, 3], strides, 1).unwrap();
        let want = offsets_f(&l.shape(), &l.strides(), 0);
        for t in [[6, 1], [1, 6], [3, 2], [2, 3]] {
            let tf: Vec<usize> = t.iter().rev().copied().collect();
            match l.reshaped_f([t[0] as isize, t[1] as isize]) {
                Ok(r) => assert_eq!(offsets_f(&r.shape(), &r.strides(), 0), want),
                Err(LayoutError::NeedsCopy { .. }) => assert!(!reshape_exists(&want, &tf)),
                Err(e) => panic!("{e:?}"),
            }
        }
    }
}

fn check_rank_changes<const N: usize, const P: usize>(l: Layout<N>) -> Result<(), TestCaseError>
where
    Rank<N>: OneMore<N, P> + NotLower<N, P>,
{
    let offs = common::offsets(&l);
    // unsqueezed at every position: same offsets in C order, an extent 1 at the position.
    for axis in 0..=N {
        let u: Layout<P> = l.unsqueezed(axis).unwrap();
        prop_assert_eq!(common::offsets(&u), offs.clone());
        prop_assert_eq!(u.shape()[axis], 1);
    }
    prop_assert_eq!(
        l.unsqueezed::<P>(N + 1),
        Err(LayoutError::AxisOutOfRange {
            axis: N + 1,
            ndim: P
        })
    );
    // squeezed, flattened: same offsets in C order; no extent 1 left; nothing left to merge.
    let s = l.squeezed();
    prop_assert_eq!(dyn_offsets(&s), offs.clone());
    if l.volume() > 0 {
        prop_assert!(s.shape().iter().all(|&e| e != 1));
    } else {
        prop_assert_eq!((s.shape(), s.strides()), (&[0usize][..], &[0isize][..]));
    }
    let f = l.flattened();
    prop_assert_eq!(dyn_offsets(&f), offs.clone());
    for i in 1..f.ndim() {
        let (sh, st) = (f.shape(), f.strides());
        prop_assert!(
            !(sh[i] != 1 && sh[i - 1] != 1 && st[i - 1] as i128 == st[i] as i128 * sh[i] as i128)
        );
    }
    // every range and every mask keeps the offsets.
    for start in 0..=N {
        for end in start..=N {
            let r = l.flattened_range(start, end).unwrap();
            prop_assert_eq!(dyn_offsets(&r), offs.clone());
            prop_assert!(r.ndim() >= N - (end - start).saturating_sub(1));
        }
    }
    prop_assert!(l.flattened_range(0, N + 1).is_err());
    for bits in 0..(1u64 << N) {
        let r = l.flattened_with_mask(AxisMask::from_bits(bits)).unwrap();
        prop_assert_eq!(dyn_offsets(&r), offs.clone());
    }
    prop_assert_eq!(
        l.flattened_with_mask(AxisMask::from_bits(1 << N)),
        Err(LayoutError::MaskOutOfRange)
    );
    // DynLayout round trip.
    let d = DynLayout::<6>::from_layout(&l).unwrap();
    prop_assert_eq!(d.to_layout::<N>(), Ok(l));
    prop_assert_eq!(Layout::<N>::try_from(d), Ok(l));
    prop_assert_eq!(
        d.offset_bounds(),
        common::bounds_model(&offs).map(|(a, b)| (a as isize, b as isize))
    );
    // broadcast_to one more leading axis of extent 3, stretching extent-1 axes to 2.
    let target: [usize; P] = core::array::from_fn(|j| {
        if j == 0 {
            3
        } else if l.shape()[j - 1] == 1 {
            2
        } else {
            l.shape()[j - 1]
        }
    });
    let b = l.broadcast_to(target).unwrap();
    for ix in common::indices(&target) {
        let src: Vec<usize> = (0..N)
            .map(|k| if l.shape()[k] == 1 { 0 } else { ix[k + 1] })
            .collect();
        prop_assert_eq!(
            common::offset_of_model(&b.strides(), b.offset(), &ix),
            common::offset_of_model(&l.strides(), l.offset(), &src)
        );
    }
    Ok(())
}

fn check_select_split<const N: usize, const Q: usize, const P: usize>(
    l: Layout<N>,
) -> Result<(), TestCaseError>
where
    Rank<N>: OneLess<N, Q> + OneMore<N, P>,
{
    for axis in 0..N {
        for index in 0..=l.shape()[axis] {
            let r = l.selected::<Q>(axis, index);
            if index == l.shape()[axis] {
                prop_assert_eq!(r, Err(LayoutError::IndexOutOfRange { axis }));
                continue;
            }
            let r = r.unwrap();
            for ix in common::indices(&r.shape()) {
                let mut full = ix.clone();
                full.insert(axis, index);
                prop_assert_eq!(
                    common::offset_of_model(&r.strides(), r.offset(), &ix),
                    common::offset_of_model(&l.strides(), l.offset(), &full)
                );
            }
        }
        for inner in 0..=4 {
            let e = l.shape()[axis];
            match l.split_axis::<P>(axis, inner) {
                Ok(s) => {
                    prop_assert!(inner != 0 && e % inner == 0);
                    prop_assert_eq!(common::offsets(&s), common::offsets(&l));
                    prop_assert_eq!((s.shape()[axis], s.shape()[axis + 1]), (e / inner, inner));
                }
                Err(err) => {
                    prop_assert!(inner == 0 || e % inner != 0);
                    prop_assert_eq!(err, LayoutError::ExtentNotDivisible { axis });
                }
            }
        }
    }
    prop_assert_eq!(
        l.selected::<Q>(N, 0),
        Err(LayoutError::AxisOutOfRange { axis: N, ndim: N })
    );
    Ok(())
}

fn check_merge<const N: usize, const Q: usize>(l: Layout<N>) -> Result<(), TestCaseError>
where
    Rank<N>: Merged<N, Q>,
{
    // merged_axes::<Q> merges two axes: it succeeds exactly when flattened_range does merge.
    for start in 0..N.saturating_sub(1) {
        let f = l.flattened_range(start, start + 2).unwrap();
        match l.merged_axes::<Q>(start) {
            Ok(m) => {
                prop_assert_eq!(f.ndim(), Q);
                prop_assert_eq!(common::offsets(&m), common::offsets(&l));
            }
            Err(e) => {
                prop_assert_eq!(f.ndim(), N);
                prop_assert_eq!(
                    e,
                    LayoutError::AxesNotMergeable {
                        axes: AxisMask::from_bits(0b11 << start)
                    }
                );
            }
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::common::cases(256)))]
    #[test] fn rank_changes_rank0(l in common::layout::<0>()) { check_rank_changes::<0, 1>(l)?; }
    #[test] fn rank_changes_rank1(l in common::layout::<1>()) { check_rank_changes::<1, 2>(l)?; }
    #[test] fn rank_changes_rank2(l in common::layout::<2>()) { check_rank_changes::<2, 3>(l)?; }
    #[test] fn rank_changes_rank3(l in common::layout::<3>()) { check_rank_changes::<3, 4>(l)?; }
    #[test] fn rank_changes_rank4(l in common::layout::<4>()) { check_rank_changes::<4, 5>(l)?; }
    #[test] fn rank_changes_rank5(l in common::layout::<5>()) { check_rank_changes::<5, 6>(l)?; }
    #[test] fn select_split_rank1(l in common::layout::<1>()) { check_select_split::<1, 0, 2>(l)?; }
    #[test] fn select_split_rank2(l in common::layout::<2>()) { check_select_split::<2, 1, 3>(l)?; check_merge::<2, 1>(l)?; }
    #[test] fn select_split_rank3(l in common::layout::<3>()) { check_select_split::<3, 2, 4>(l)?; check_merge::<3, 2>(l)?; }
    #[test] fn select_split_rank4(l in common::layout::<4>()) { check_select_split::<4, 3, 5>(l)?; check_merge::<4, 3>(l)?; }
    #[test] fn select_split_rank5(l in common::layout::<5>()) { check_select_split::<5, 4, 6>(l)?; check_merge::<5, 4>(l)?; }
    #[test] fn reshape_rank4_to_2(l in common::layout::<4>(), split in 0usize..=4) {
        let sh = l.shape();
        let a: usize = sh[..split].iter().product();
        let b: usize = sh[split..].iter().product();
        check_reshape_to::<4, 2>(&l, &[a, b]);
    }
    #[test] fn reshape_rank5_to_3(l in common::layout::<5>(), s1 in 0usize..=5, s2 in 0usize..=5) {
        let (s1, s2) = (s1.min(s2), s1.max(s2));
        let sh = l.shape();
        let t = [sh[..s1].iter().product(), sh[s1..s2].iter().product(), sh[s2..].iter().product()];
        check_reshape_to::<5, 3>(&l, &t);
    }
}

#[test]
fn broadcast_to_rejects_incompatible_extents() {
    let l = Layout::new([2, 3], [3, 1], 4).unwrap();
    assert_eq!(
        l.broadcast_to([2, 4]),
        Err(LayoutError::BroadcastIncompatible { axis: 1 })
    );
    assert_eq!(
        l.broadcast_to([5, 3, 3]),
        Err(LayoutError::BroadcastIncompatible { axis: 1 })
    );
    let one = Layout::new([1], [7], 4).unwrap();
    assert_eq!(one.broadcast_to([0]).unwrap().strides(), [0]);
    assert_eq!(one.broadcast_to([1]).unwrap().strides(), [7]);
}

#[test]
fn unsqueezed_axes_rejects_duplicates() {
    let l = Layout::new([2, 3], [3, 1], 4).unwrap();
    assert_eq!(
        l.unsqueezed_axes::<2, 4>([1, 1]),
        Err(LayoutError::DuplicateAxis { axis: 1 })
    );
    assert_eq!(
        l.unsqueezed_axes::<2, 4>([0, 4]),
        Err(LayoutError::AxisOutOfRange { axis: 4, ndim: 4 })
    );
}

#[test]
fn merged_axes_rejects_range_past_rank() {
    let l = Layout::new([2, 3, 4], [12, 4, 1], 4).unwrap();
    assert_eq!(
        l.merged_axes::<2>(2),
        Err(LayoutError::AxisRangeInvalid { start: 2, end: 4 })
    );
    assert_eq!(l.merged_axes::<1>(0).unwrap().shape(), [24]);
}

#[test]
fn dyn_layout_conversions_check_rank() {
    let l = Layout::new([2, 3, 4], [12, 4, 1], 4).unwrap();
    assert_eq!(
        DynLayout::<2>::from_layout(&l),
        Err(LayoutError::RankOverflow { max: 2 })
    );
    let d = DynLayout::<3>::from_layout(&l).unwrap();
    assert_eq!(
        d.to_layout::<2>(),
        Err(LayoutError::RankMismatch {
            expected: 2,
            found: 3
        })
    );
    assert_eq!(
        DynLayout::<3>::new(&[2], &[1, 1], 1),
        Err(LayoutError::RankMismatch {
            expected: 1,
            found: 2
        })
    );
    assert_eq!(d.with_offset(isize::MAX), Err(LayoutError::OffsetOverflow));
}

#[test]
fn flatten_of_permuted_f_contiguous_view_merges_in_c_order_only() {
    // F-contiguous (2,3,4) permuted to (4,3,2): C-contiguous in the new axis order.
    let f = Layout::new([2, 3, 4], [1, 2, 6], 8).unwrap();
    let p = Layout::new([4, 3, 2], [6, 2, 1], 8).unwrap();
    assert_eq!(f.flattened().shape(), &[2, 3, 4]);
    assert_eq!(p.flattened().shape(), &[24]);
}

#[test]
fn invented_strides_of_extent_one_axes_never_overflow() {
    // Valid layouts whose natural stride for a new extent-1 axis overflows isize (in elements
    // or in bytes): the rank change still succeeds, with offsets unchanged.
    let big = Layout::new([1 << 61], [2], 2).unwrap();
    let u: Layout<2> = big.unsqueezed(0).unwrap();
    assert_eq!((u.shape(), u.strides()[1]), ([1, 1 << 61], 2));
    assert_eq!(u.offset_bounds(), big.offset_bounds());
    let s: Layout<2> = big.split_axis(0, 1 << 61).unwrap();
    assert_eq!((s.shape(), s.strides()[1]), ([1, 1 << 61], 2));
    let r = big.reshaped([1, -1, 1]).unwrap();
    assert_eq!((r.shape(), r.strides()[1]), ([1, 1 << 61, 1], 2));
    let empty = Layout::new([0, 3], [isize::MAX / 2, 1], 2).unwrap();
    assert!(empty.unsqueezed::<3>(0).is_ok());
    assert!(empty.split_axis::<3>(0, 5).is_ok());
}
