//! Same-rank transforms against the reference model: named edge cases per operation (every
//! error variant reached) and proptest properties for ranks 0..=5.
#![allow(
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::cast_possible_truncation
)]

use crate::common;

use std::collections::BTreeSet;

use proptest::prelude::*;
use strided_layout::{Layout, LayoutError, Order, Slice, const_unwrap};

// ---------------------------------------------------------------------------------------
// Models written in the test, independent of the crate.
// ---------------------------------------------------------------------------------------

/// Byte addresses covered by a layout: each element offset times the itemsize, plus
/// `0..itemsize`, as a set.
fn byte_set<const N: usize>(l: &Layout<N>) -> BTreeSet<i128> {
    let item = l.itemsize() as i128;
    common::offsets(l)
        .into_iter()
        .flat_map(|o| (0..item).map(move |b| o * item + b))
        .collect()
}

/// The model offset of `index` in `l`.
fn model_at<const N: usize>(l: &Layout<N>, index: &[usize]) -> i128 {
    common::offset_of_model(&l.strides(), l.offset(), index)
}

/// cuda.core's repack rules, in their documented order, as the model says them.
fn repack_model<const N: usize>(
    l: &Layout<N>,
    new: usize,
    ptr: usize,
    axis: isize,
) -> Result<(), LayoutError> {
    if !new.is_power_of_two() {
        return Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: new });
    }
    let ax = if axis < 0 { axis + N as isize } else { axis };
    if ax < 0 || ax >= N as isize {
        return Err(LayoutError::SignedAxisOutOfRange { axis, ndim: N });
    }
    let ax = ax as usize;
    let old = l.itemsize();
    if new == old {
        return Ok(());
    }
    if l.shape()[ax] == 0 {
        return Err(LayoutError::ExtentZero { axis: ax });
    }
    // The stride of an extent-1 axis is never used, so it is never checked.
    if l.strides()[ax] != 1 && l.shape()[ax] != 1 {
        return Err(LayoutError::StrideNotOne { axis: ax });
    }
    if new > old {
        let f = new / old;
        if !l.shape()[ax].is_multiple_of(f) {
            return Err(LayoutError::ExtentNotDivisible { axis: ax });
        }
        for (i, s) in l.strides().iter().enumerate() {
            if i != ax && l.shape()[i] != 1 && s.rem_euclid(f as isize) != 0 {
                return Err(LayoutError::StrideNotDivisible { axis: i });
            }
        }
        if l.offset().rem_euclid(f as isize) != 0 {
            return Err(LayoutError::OffsetNotDivisible);
        }
        if !ptr.is_multiple_of(new) {
            return Err(LayoutError::PointerMisaligned);
        }
    }
    Ok(())
}

/// `l` with the stride of every extent-1 axis set to 0 (a stride no offset reads).
fn unit_strides_zeroed<const N: usize>(l: &Layout<N>) -> Layout<N> {
    let mut strides = l.strides();
    for (s, e) in strides.iter_mut().zip(l.shape()) {
        if e == 1 {
            *s = 0;
        }
    }
    Layout::new(l.shape(), strides, l.itemsize())
        .and_then(|x| x.with_offset(l.offset()))
        .unwrap()
}

/// Parses the `Display` text back: `(e,..):(s,..)[ +o| -o] xIB`.
fn parse_layout<const N: usize>(text: &str) -> Layout<N> {
    let (tuples, rest) = text.split_once(' ').unwrap();
    let (shape, strides) = tuples.split_once("):(").unwrap();
    let list = |s: &str| -> Vec<String> {
        let s = s.trim_start_matches('(').trim_end_matches(')');
        if s.is_empty() {
            vec![]
        } else {
            s.split(',').map(str::to_owned).collect()
        }
    };
    let shape: Vec<usize> = list(shape).iter().map(|x| x.parse().unwrap()).collect();
    let strides: Vec<isize> = list(strides).iter().map(|x| x.parse().unwrap()).collect();
    let mut offset = 0isize;
    let mut itemsize = 0usize;
    for word in rest.split(' ') {
        if let Some(o) = word.strip_prefix('+') {
            offset = o.parse().unwrap();
        } else if word.starts_with('-') {
            offset = word.parse().unwrap();
        } else {
            itemsize = word
                .strip_prefix('x')
                .unwrap()
                .strip_suffix('B')
                .unwrap()
                .parse()
                .unwrap();
        }
    }
    Layout::new(
        shape.try_into().unwrap(),
        strides.try_into().unwrap(),
        itemsize,
    )
    .and_then(|l| l.with_offset(offset))
    .unwrap()
}

/// A spread of Python slices, the named cases first.
fn slice_cases() -> Vec<Slice> {
    vec![
        Slice::FULL,
        Slice::new(None, None, -1),    // [::-1]
        Slice::new(Some(10), None, 1), // [10:]
        Slice::new(Some(-100), Some(2), 1),
        Slice::new(Some(3), Some(1), -1),
        Slice::new(Some(1), None, 1),
        Slice::new(None, Some(-1), 1),
        Slice::new(None, None, 2),
        Slice::new(None, None, -2),
        Slice::new(Some(-1), Some(-5), -2),
        Slice::new(Some(2), Some(2), 1),
        Slice::new(Some(-2), None, 3),
        Slice::new(Some(100), Some(-100), -1),
        Slice::new(None, None, isize::MIN),
    ]
}

// ---------------------------------------------------------------------------------------
// Properties (one per documented postcondition), ranks 0..=5.
// ---------------------------------------------------------------------------------------

/// Every permutation of `0..n` reachable by the rotations and the reversal, plus every
/// transposition: enough to move each axis everywhere.
fn some_permutations<const N: usize>() -> Vec<[usize; N]> {
    let mut out = Vec::new();
    for r in 0..N.max(1) {
        out.push(std::array::from_fn(|i| (i + r) % N.max(1)));
        out.push(std::array::from_fn(|i| (N + r - 1 - i) % N.max(1)));
    }
    out
}

fn permuted_maps_index_back<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    for axes in some_permutations::<N>() {
        let p = l.permuted(axes).unwrap();
        prop_assert_eq!((p.offset(), p.itemsize()), (l.offset(), l.itemsize()));
        for j in common::indices(&p.shape()) {
            let mut i = [0usize; N];
            for k in 0..N {
                i[axes[k]] = j[k];
            }
            prop_assert_eq!(model_at(&p, &j), model_at(&l, &i));
        }
    }
    Ok(())
}
for_ranks!(permuted_prop, layout, permuted_maps_index_back);

fn transposed_swaps_index<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    for a in 0..N {
        for b in 0..N {
            let t = l.transposed(a, b).unwrap();
            for i in common::indices(&l.shape()) {
                let mut j = i.clone();
                j.swap(a, b);
                prop_assert_eq!(model_at(&t, &j), model_at(&l, &i));
            }
            prop_assert_eq!(t.transposed(a, b).unwrap(), l);
        }
    }
    Ok(())
}
for_ranks!(transposed_prop, layout, transposed_swaps_index);

fn flipped_reverses_axis<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    for axis in 0..N {
        let f = l.flipped(axis).unwrap();
        prop_assert_eq!((f.shape(), f.itemsize()), (l.shape(), l.itemsize()));
        for i in common::indices(&l.shape()) {
            let mut j = i.clone();
            j[axis] = l.shape()[axis] - 1 - i[axis];
            prop_assert_eq!(model_at(&f, &j), model_at(&l, &i));
        }
        prop_assert_eq!(f.flipped(axis).unwrap(), l);
    }
    Ok(())
}
for_ranks!(flipped_prop, layout, flipped_reverses_axis);

fn narrowed_maps_index_plus_start<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    for axis in 0..N {
        let e = l.shape()[axis];
        for start in 0..=e + 1 {
            for len in 0..=e + 1 {
                let r = l.narrowed(axis, start, len);
                if start + len > e {
                    prop_assert_eq!(r, Err(LayoutError::RangeOutOfBounds { axis }));
                    continue;
                }
                let n = r.unwrap();
                let mut shape = l.shape();
                shape[axis] = len;
                prop_assert_eq!((n.shape(), n.strides()), (shape, l.strides()));
                prop_assert_eq!(
                    n.offset() as i128,
                    l.offset() as i128 + start as i128 * l.strides()[axis] as i128
                );
                for j in common::indices(&n.shape()) {
                    let mut i = j.clone();
                    i[axis] += start;
                    prop_assert_eq!(model_at(&n, &j), model_at(&l, &i));
                }
            }
        }
    }
    Ok(())
}
for_ranks!(narrowed_prop, layout, narrowed_maps_index_plus_start);

fn sliced_matches_python_model<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    let cases = slice_cases();
    for k in 0..cases.len() {
        let slices: [Slice; N] = std::array::from_fn(|a| cases[(k + 5 * a) % cases.len()]);
        let picks: Vec<Vec<usize>> = (0..N)
            .map(|a| {
                common::py_indices(
                    l.shape()[a],
                    slices[a].start,
                    slices[a].stop,
                    slices[a].step,
                )
            })
            .collect();
        // An axis that is neither untouched nor emptied stores `stride * step`, which must
        // fit `isize` in elements and in bytes (`::isize::MIN` overflows for |stride| >= 2).
        let emptied =
            (0..N).any(|a| picks[a].is_empty() && !(l.shape()[a] == 0 && slices[a].step == 1));
        let overflows = !emptied
            && (0..N).any(|a| {
                let untouched = picks[a].len() == l.shape()[a] && slices[a].step == 1;
                let step = (slices[a].step as i128).max(-(isize::MAX as i128));
                let bytes = l.strides()[a] as i128 * step * l.itemsize() as i128;
                // An axis that keeps one element never uses its stride: no overflow there.
                !untouched && picks[a].len() > 1 && isize::try_from(bytes).is_err()
            });
        let r = l.sliced(slices);
        if overflows {
            prop_assert_eq!(r, Err(LayoutError::OffsetOverflow));
            continue;
        }
        let s = r.unwrap();
        prop_assert_eq!(s.itemsize(), l.itemsize());
        let lens: Vec<usize> = picks.iter().map(Vec::len).collect();
        prop_assert_eq!(s.shape().to_vec(), lens);
        for j in common::indices(&s.shape()) {
            let i: Vec<usize> = (0..N).map(|a| picks[a][j[a]]).collect();
            prop_assert_eq!(model_at(&s, &j), model_at(&l, &i));
        }
        // An empty result made by a slice (not an untouched empty axis) has zero strides.
        if emptied {
            prop_assert_eq!(s.strides(), [0isize; N]);
        }
    }
    Ok(())
}
for_ranks!(sliced_prop, layout, sliced_matches_python_model);

fn repacked_preserves_bytes<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    for new in [1usize, 2, 4, 8, 16, 32, 3] {
        for axis in -(N as isize) - 1..=N as isize {
            for ptr in [0usize, 4, 8, 16] {
                let r = l.repacked(new, ptr, axis);
                let model = repack_model(&l, new, ptr, axis);
                match r {
                    Ok(r) => {
                        prop_assert_eq!(model, Ok(()));
                        prop_assert_eq!(r.itemsize(), new);
                        prop_assert_eq!(r.volume() * new, l.volume() * l.itemsize());
                        prop_assert_eq!(byte_set(&r), byte_set(&l));
                        // Back again, up to the strides of extent-1 axes (never used, so
                        // repacking may set them to 0).
                        if ptr.is_multiple_of(l.itemsize()) {
                            let back = r.repacked(l.itemsize(), ptr, axis).unwrap();
                            prop_assert_eq!(unit_strides_zeroed(&back), unit_strides_zeroed(&l));
                        }
                    }
                    // The model only knows the rules; overflow on unpacking is the invariants'.
                    Err(e) => prop_assert_eq!(Err(e), model),
                }
            }
        }
    }
    Ok(())
}
for_ranks!(repacked_prop, layout, repacked_preserves_bytes);

fn max_compatible_is_the_largest_accepted<const N: usize>(
    l: Layout<N>,
) -> Result<(), TestCaseError> {
    for max in [1usize, 2, 4, 8, 16, 64] {
        for axis in -(N as isize)..N as isize {
            for ptr in [0usize, 2, 8, 0x1000] {
                let accepted: Vec<usize> = (0..=max.trailing_zeros())
                    .map(|p| 1usize << p)
                    // A candidate the pointer is not aligned to is never the answer.
                    .filter(|&c| ptr.is_multiple_of(c) && l.repacked(c, ptr, axis).is_ok())
                    .collect();
                match l.max_compatible_itemsize(max, ptr, axis) {
                    Ok(m) => prop_assert_eq!(Some(&m), accepted.last()),
                    Err(_) => prop_assert!(accepted.is_empty()),
                }
            }
        }
    }
    Ok(())
}
for_ranks!(
    max_compatible_prop,
    layout,
    max_compatible_is_the_largest_accepted
);

fn to_dense_is_dense_with_same_shape<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    for order in [
        Order::C,
        Order::F,
        Order::Keep,
        Order::Perm(l.stride_order()),
    ] {
        let d = l.to_dense(order).unwrap();
        prop_assert_eq!(
            (d.shape(), d.itemsize(), d.offset()),
            (l.shape(), l.itemsize(), 0)
        );
        let mut offs = common::offsets(&d);
        offs.sort_unstable();
        prop_assert_eq!(offs, (0..l.volume() as i128).collect::<Vec<_>>());
    }
    Ok(())
}
for_ranks!(to_dense_prop, layout, to_dense_is_dense_with_same_shape);

fn display_round_trips<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    let text = l.to_string();
    prop_assert_eq!(parse_layout::<N>(&text), l);
    let fixed = l.to_text::<128>().unwrap();
    prop_assert_eq!(fixed.as_str(), text.as_str());
    Ok(())
}
for_ranks!(display_prop, layout, display_round_trips);

// ---------------------------------------------------------------------------------------
// Named edge cases.
// ---------------------------------------------------------------------------------------

fn c<const N: usize>(shape: [usize; N]) -> Layout<N> {
    Layout::dense(shape, 4, Order::C).unwrap()
}

#[test]
fn permuted_rejects_repeated_axis() {
    assert_eq!(
        c([2, 3, 4]).permuted([0, 0, 1]),
        Err(LayoutError::NotAPermutation)
    );
}

#[test]
fn permuted_rejects_axis_out_of_range() {
    assert_eq!(
        c([2, 3]).permuted([0, 2]),
        Err(LayoutError::NotAPermutation)
    );
}

#[test]
fn permuted_rank_zero_is_identity() {
    let l = Layout::<0>::new([], [], 2).unwrap().with_offset(5).unwrap();
    assert_eq!(l.permuted([]), Ok(l));
}

#[test]
fn transposed_rejects_each_axis_out_of_range() {
    assert_eq!(
        c([2, 3]).transposed(2, 0),
        Err(LayoutError::AxisOutOfRange { axis: 2, ndim: 2 })
    );
    assert_eq!(
        c([2, 3]).transposed(0, 7),
        Err(LayoutError::AxisOutOfRange { axis: 7, ndim: 2 })
    );
    assert_eq!(c([2, 3]).transposed(1, 1), Ok(c([2, 3])));
}

#[test]
fn flipped_rejects_axis_out_of_range() {
    assert_eq!(
        c([2, 3]).flipped(2),
        Err(LayoutError::AxisOutOfRange { axis: 2, ndim: 2 })
    );
}

#[test]
fn flipped_extent_zero_negates_stride_and_keeps_offset() {
    let l = Layout::new([0, 3], [3, 1], 1)
        .unwrap()
        .with_offset(2)
        .unwrap();
    let f = l.flipped(0).unwrap();
    assert_eq!((f.strides(), f.offset()), ([-3, 1], 2));
}

#[test]
fn flipped_extent_one_with_any_stride_keeps_offset() {
    let l = Layout::new([1, 3], [99, 1], 1).unwrap();
    let f = l.flipped(0).unwrap();
    assert_eq!((f.strides(), f.offset()), ([-99, 1], 0));
}

#[test]
fn flipped_zero_stride_is_unchanged() {
    let l = Layout::new([4], [0], 8).unwrap().with_offset(3).unwrap();
    assert_eq!(l.flipped(0), Ok(l));
}

#[test]
fn flipped_at_the_edge_of_isize() {
    let max = isize::MAX;
    let f = Layout::new([2], [max], 1).unwrap().flipped(0).unwrap();
    assert_eq!((f.strides(), f.offset()), ([-max], max));
    assert_eq!(f.flipped(0).unwrap().offset(), 0);
    // isize::MIN has no negation.
    let l = Layout::new([1], [isize::MIN], 1).unwrap();
    assert_eq!(l.flipped(0), Err(LayoutError::OffsetOverflow));
    // An empty layout bounds no element offset, so moving its offset can overflow: the
    // offset is never read, so it stays (issue "The core at its edges": no refusal).
    let l = Layout::new([0, 3], [1, max], 1)
        .unwrap()
        .with_offset(1)
        .unwrap();
    let f = l.flipped(1).unwrap();
    assert_eq!((f.strides(), f.offset()), ([1, -max], 1));
}

#[test]
fn narrowed_rejects_range_past_the_extent() {
    assert_eq!(
        c([2, 4]).narrowed(1, 3, 2),
        Err(LayoutError::RangeOutOfBounds { axis: 1 })
    );
    assert_eq!(
        c([2, 4]).narrowed(1, 5, 0),
        Err(LayoutError::RangeOutOfBounds { axis: 1 })
    );
}

#[test]
fn narrowed_rejects_start_plus_len_overflow() {
    let r = c([2, 4]).narrowed(0, usize::MAX, 2);
    assert_eq!(r, Err(LayoutError::RangeOutOfBounds { axis: 0 }));
}

#[test]
fn narrowed_rejects_axis_out_of_range() {
    assert_eq!(
        c([2, 4]).narrowed(2, 0, 1),
        Err(LayoutError::AxisOutOfRange { axis: 2, ndim: 2 })
    );
}

#[test]
fn narrowed_to_nothing_at_the_end_moves_offset_past_it() {
    let n = c([2, 4]).narrowed(1, 4, 0).unwrap();
    assert_eq!((n.shape(), n.strides(), n.offset()), ([2, 0], [4, 1], 4));
}

#[test]
fn narrowed_on_an_empty_layout_keeps_an_offset_that_would_overflow() {
    let l = Layout::new([0, 3], [1, isize::MAX], 1)
        .unwrap()
        .with_offset(1)
        .unwrap();
    let n = l.narrowed(1, 1, 1).unwrap();
    assert_eq!((n.shape(), n.offset()), ([0, 1], 1));
}

fn s1(start: Option<isize>, stop: Option<isize>, step: isize) -> Layout<1> {
    Layout::new([5], [3], 2)
        .unwrap()
        .with_offset(1)
        .unwrap()
        .sliced([Slice::new(start, stop, step)])
        .unwrap()
}

#[test]
fn sliced_reverse_whole_axis() {
    let s = s1(None, None, -1); // [::-1]
    assert_eq!((s.shape(), s.strides(), s.offset()), ([5], [-3], 13));
}

#[test]
fn sliced_start_past_end_is_empty_with_zero_strides() {
    let s = s1(Some(10), None, 1); // [10:]
    assert_eq!((s.shape(), s.strides(), s.offset()), ([0], [0], 1));
}

#[test]
fn sliced_clamps_very_negative_start() {
    let s = s1(Some(-100), Some(2), 1); // [-100:2]
    assert_eq!((s.shape(), s.strides(), s.offset()), ([2], [3], 1));
}

#[test]
fn sliced_backwards_range() {
    let s = s1(Some(3), Some(1), -1); // [3:1:-1]
    assert_eq!((s.shape(), s.strides(), s.offset()), ([2], [-3], 10));
}

#[test]
fn sliced_rejects_zero_step() {
    let l = c([2, 3]);
    let r = l.sliced([Slice::FULL, Slice::new(None, None, 0)]);
    assert_eq!(r, Err(LayoutError::ZeroStep { axis: 1 }));
}

#[test]
fn sliced_empty_keeps_offset_of_other_axes() {
    // cuda.core: the emptied axis does not move the offset, the others still do.
    let s = c([3, 4])
        .sliced([Slice::range(1, 3), Slice::range(3, 1)])
        .unwrap();
    assert_eq!((s.shape(), s.strides(), s.offset()), ([2, 0], [0, 0], 4));
}

#[test]
fn sliced_untouched_empty_axis_keeps_strides() {
    let l = Layout::new([0, 4], [4, 1], 1).unwrap();
    let s = l.sliced([Slice::FULL, Slice::new(None, None, 2)]).unwrap();
    assert_eq!((s.shape(), s.strides(), s.offset()), ([0, 2], [4, 2], 0));
    // A reversed empty axis is "sliced to nothing": every stride becomes 0.
    let s = l.sliced([Slice::new(None, None, -1), Slice::FULL]).unwrap();
    assert_eq!(s.strides(), [0, 0]);
}

#[test]
fn sliced_with_a_step_that_keeps_one_element_never_overflows() {
    // Issue "The core at its edges": `stride * step` overflows, but one element never uses
    // its stride. (With two or more kept elements `stride * step` is the distance between
    // two of the layout's offsets: see tests/edges.rs for the one case that cannot fit.)
    let l = Layout::new([3], [1 << 40], 1).unwrap();
    let s = l.sliced([Slice::new(None, None, 1 << 40)]).unwrap();
    assert_eq!((s.shape(), s.strides(), s.offset()), ([1], [0], 0));
    let l = Layout::new([2], [1], 1).unwrap();
    let s = l.sliced([Slice::new(None, None, 1 << 62)]).unwrap();
    assert_eq!((s.shape(), s.offset()), ([1], 0));
    // The same step on an emptied result computes no stride, so it cannot overflow.
    let s = l.sliced([Slice::new(Some(3), None, 1 << 40)]).unwrap();
    assert_eq!(s.strides(), [0]);
}

#[test]
fn sliced_step_isize_min_reads_as_minus_isize_max() {
    let s = Layout::new([5], [1], 1)
        .unwrap()
        .sliced([Slice::new(None, None, isize::MIN)])
        .unwrap();
    assert_eq!(
        (s.shape(), s.strides(), s.offset()),
        ([1], [-isize::MAX], 4)
    );
}

#[test]
fn sliced_rank1_exhaustive_against_python_model() {
    let bounds: Vec<Option<isize>> = std::iter::once(None)
        .chain((-8..=8).map(Some))
        .chain([Some(isize::MIN), Some(isize::MAX)])
        .collect();
    for n in 0..=6usize {
        let l = Layout::new([n], [1], 1).unwrap();
        for &start in &bounds {
            for &stop in &bounds {
                for step in [-7, -3, -2, -1, 1, 2, 3, 7, isize::MIN, isize::MAX] {
                    let s = l.sliced([Slice::new(start, stop, step)]).unwrap();
                    let want = common::py_indices(n, start, stop, step);
                    assert_eq!(s.shape()[0], want.len(), "{n} {start:?}:{stop:?}:{step}");
                    let got: Vec<i128> = common::offsets(&s);
                    let want: Vec<i128> = want.iter().map(|&i| i as i128).collect();
                    assert_eq!(got, want, "{n} {start:?}:{stop:?}:{step}");
                }
            }
        }
    }
}

#[test]
fn repacked_reaches_every_error_in_order() {
    let l = Layout::new([3, 4], [4, 1], 1).unwrap();
    assert_eq!(
        l.repacked(3, 0, -1),
        Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: 3 })
    );
    assert_eq!(
        l.repacked(0, 0, -1),
        Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: 0 })
    );
    assert_eq!(
        l.repacked(4, 0, 2),
        Err(LayoutError::SignedAxisOutOfRange { axis: 2, ndim: 2 })
    );
    assert_eq!(
        l.repacked(4, 0, -3),
        Err(LayoutError::SignedAxisOutOfRange { axis: -3, ndim: 2 })
    );
    assert_eq!(
        l.repacked(4, 0, 0),
        Err(LayoutError::StrideNotOne { axis: 0 })
    );
    let empty = Layout::new([3, 0], [4, 2], 1).unwrap();
    assert_eq!(
        empty.repacked(4, 0, -1),
        Err(LayoutError::ExtentZero { axis: 1 })
    );
    assert_eq!(
        l.repacked(8, 0, -1),
        Err(LayoutError::ExtentNotDivisible { axis: 1 })
    );
    let odd = Layout::new([3, 4], [6, 1], 1).unwrap();
    assert_eq!(
        odd.repacked(4, 0, -1),
        Err(LayoutError::StrideNotDivisible { axis: 0 })
    );
    assert_eq!(
        l.with_offset(2).unwrap().repacked(4, 0, -1),
        Err(LayoutError::OffsetNotDivisible)
    );
    assert_eq!(l.repacked(4, 2, -1), Err(LayoutError::PointerMisaligned));
    let p = l.with_offset(8).unwrap().repacked(4, 4, -1).unwrap();
    assert_eq!(
        (p.shape(), p.strides(), p.offset(), p.itemsize()),
        ([3, 1], [1, 1], 2, 4)
    );
}

#[test]
fn repacked_checks_extent_before_stride() {
    let l = Layout::new([3, 0], [4, 2], 1).unwrap();
    assert_eq!(
        l.repacked(2, 1, -1),
        Err(LayoutError::ExtentZero { axis: 1 })
    );
    assert_eq!(
        l.repacked(2, 1, 0),
        Err(LayoutError::StrideNotOne { axis: 0 })
    );
}

#[test]
fn repacked_same_itemsize_is_identity_without_axis_rules() {
    let l = Layout::new([3, 0], [4, 2], 8).unwrap();
    assert_eq!(l.repacked(8, 3, -1), Ok(l));
    assert_eq!(
        l.repacked(8, 3, 2),
        Err(LayoutError::SignedAxisOutOfRange { axis: 2, ndim: 2 })
    );
}

#[test]
fn repacked_rank_zero_has_no_axis() {
    let l = Layout::<0>::new([], [], 4).unwrap();
    assert_eq!(
        l.repacked(4, 0, -1),
        Err(LayoutError::SignedAxisOutOfRange { axis: -1, ndim: 0 })
    );
}

#[test]
fn repacked_unpack_volume_overflow() {
    // A broadcast axis holds 2^(bits-3) elements; unpacking 2-byte items to bytes would
    // make the volume 2^bits.
    let big = 1usize << (usize::BITS - 3);
    let l = Layout::new([big, 4], [0, 1], 2).unwrap();
    assert_eq!(l.repacked(1, 0, -1), Err(LayoutError::VolumeOverflow));
}

#[test]
fn repacked_unpack_then_pack_round_trips_with_negative_strides() {
    let l = Layout::new([3, 2], [-2, 1], 8)
        .unwrap()
        .with_offset(4)
        .unwrap();
    let u = l.repacked(2, 0, 1).unwrap();
    assert_eq!((u.shape(), u.strides(), u.offset()), ([3, 8], [-8, 1], 16));
    assert_eq!(u.repacked(8, 0, 1), Ok(l));
}

#[test]
fn max_compatible_itemsize_errors() {
    let l = Layout::new([3, 8], [8, 1], 2).unwrap();
    assert_eq!(
        l.max_compatible_itemsize(12, 0, -1),
        Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: 12 })
    );
    assert_eq!(
        l.max_compatible_itemsize(16, 0, 2),
        Err(LayoutError::SignedAxisOutOfRange { axis: 2, ndim: 2 })
    );
    // Below the current itemsize only unpacking can help, and axis 0 has stride 8.
    assert_eq!(
        l.max_compatible_itemsize(1, 0, 0),
        Err(LayoutError::StrideNotOne { axis: 0 })
    );
    assert_eq!(l.max_compatible_itemsize(1, 0, 1), Ok(1));
}

#[test]
fn max_compatible_itemsize_never_answers_itemsize_for_misaligned_pointer() {
    // An odd pointer cannot hold 2-byte items: cuda.core's gcd answer 1 (unpack to bytes),
    // or an error when the axis cannot unpack (cuda.core answers 2 there).
    let l = Layout::new([3, 8], [8, 1], 2).unwrap();
    assert_eq!(l.max_compatible_itemsize(16, 1, -1), Ok(1));
    assert_eq!(
        l.max_compatible_itemsize(16, 1, 0),
        Err(LayoutError::PointerMisaligned)
    );
    assert_eq!(l.max_compatible_itemsize(16, 6, -1), Ok(2));
    assert_eq!(l.max_compatible_itemsize(16, 0, -1), Ok(16));
    assert_eq!(
        l.with_offset(4).unwrap().max_compatible_itemsize(16, 0, -1),
        Ok(8)
    );
}

#[test]
fn to_dense_rejects_bad_permutation() {
    assert_eq!(
        c([2, 3]).to_dense(Order::Perm([1, 1])),
        Err(LayoutError::NotAPermutation)
    );
}

#[test]
fn to_dense_keep_follows_stride_order() {
    let l = Layout::new([2, 3, 4], [1, -8, 2], 4)
        .unwrap()
        .with_offset(16)
        .unwrap();
    let d = l.to_dense(Order::Keep).unwrap();
    assert_eq!((d.strides(), d.offset()), ([1, 8, 2], 0));
}

#[test]
fn display_examples() {
    let l = c([2, 3]);
    assert_eq!(l.to_string(), "(2,3):(3,1) x4B");
    assert_eq!(l.with_offset(4).unwrap().to_string(), "(2,3):(3,1) +4 x4B");
    assert_eq!(
        l.flipped(0).unwrap().flipped(1).unwrap().to_string(),
        "(2,3):(-3,-1) +5 x4B"
    );
    assert_eq!(l.with_offset(-4).unwrap().to_string(), "(2,3):(3,1) -4 x4B");
    assert_eq!(Layout::new([5], [1], 1).unwrap().to_string(), "(5):(1) x1B");
    assert_eq!(
        Layout::<0>::new([], [], 8).unwrap().to_string(),
        "():() x8B"
    );
}

#[test]
fn to_text_rejects_too_small_capacity() {
    let l = c([2, 3]);
    assert_eq!(l.to_text::<15>().unwrap().as_str(), "(2,3):(3,1) x4B");
    assert_eq!(l.to_text::<14>(), Err(LayoutError::CapacityExceeded));
}

// Every transform is a `const fn`: these are evaluated by the compiler.
const BASE: Layout<2> = const_unwrap(Layout::dense([2, 3], 4, Order::C));
const T: Layout<2> = const_unwrap(BASE.transposed(0, 1));
const P: Layout<2> = const_unwrap(BASE.permuted([1, 0]));
const F: Layout<2> = const_unwrap(BASE.flipped(1));
const NR: Layout<2> = const_unwrap(BASE.narrowed(1, 1, 2));
const S: Layout<2> = const_unwrap(BASE.sliced([Slice::new(None, None, -1), Slice::FULL]));
const R: Layout<2> = const_unwrap(BASE.repacked(2, 0, -1));
const D: Layout<2> = const_unwrap(F.to_dense(Order::Keep));
const M: usize = match BASE.max_compatible_itemsize(16, 0, -1) {
    Ok(m) => m,
    Err(_) => 0,
};
const G: bool = BASE.grid(0, 1, [0, 0]).is_ok();

#[test]
fn transforms_evaluate_in_const_items() {
    assert_eq!((T.shape(), T.strides()), ([3, 2], [1, 3]));
    assert_eq!(P, T);
    assert_eq!((F.strides(), F.offset()), ([3, -1], 2));
    assert_eq!((NR.shape(), NR.offset()), ([2, 2], 1));
    assert_eq!((S.strides(), S.offset()), ([-3, 1], 3));
    assert_eq!((R.shape(), R.strides(), R.itemsize()), ([2, 6], [6, 1], 2));
    assert_eq!(D, BASE);
    assert_eq!(M, 4);
    const { assert!(G) };
}

// ---------------------------------------------------------------------------------------
// DynLayout's transforms agree with Layout's ("DynLayout does what Layout does").
// ---------------------------------------------------------------------------------------

/// The result of a `DynLayout` transform as a `Layout<N>`, for comparison.
fn fixed<const N: usize>(
    r: Result<strided_layout::DynLayout<6>, LayoutError>,
) -> Result<Layout<N>, LayoutError> {
    r.and_then(|d| d.to_layout::<N>())
}

fn dyn_transforms_agree_with_layout<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError>
where
    strided_layout::rank::Rank<N>: strided_layout::rank::NotLower<N, 6>,
{
    let d: strided_layout::DynLayout<6> = l.into();
    prop_assert_eq!(d.ndim(), N);
    for axes in some_permutations::<N>() {
        prop_assert_eq!(fixed(d.permuted(&axes)), l.permuted(axes));
    }
    let twice: Vec<usize> = (0..N).map(|_| 0).collect();
    prop_assert_eq!(fixed::<N>(d.permuted(&twice)), l.permuted([0; N]));
    prop_assert_eq!(
        fixed::<N>(d.permuted(&[0; 7])),
        Err(LayoutError::RankMismatch {
            expected: N,
            found: 7
        })
    );
    for a in 0..=N {
        for b in 0..=N {
            prop_assert_eq!(fixed(d.transposed(a, b)), l.transposed(a, b));
        }
        prop_assert_eq!(fixed(d.flipped(a)), l.flipped(a));
        for start in 0..=5 {
            for len in [0, 1, 2, 5, usize::MAX] {
                prop_assert_eq!(fixed(d.narrowed(a, start, len)), l.narrowed(a, start, len));
            }
        }
    }
    let cases = slice_cases();
    for t in 0..cases.len() {
        let slices: [Slice; N] = std::array::from_fn(|k| cases[(t + 3 * k) % cases.len()]);
        prop_assert_eq!(fixed(d.sliced(&slices)), l.sliced(slices));
    }
    for off in [-3, 0, 7] {
        prop_assert_eq!(fixed(d.with_offset(off)), l.with_offset(off));
        let other = l.with_offset(off).unwrap();
        let od: strided_layout::DynLayout<6> = other.into();
        prop_assert_eq!(d.overlaps(&od), l.overlaps(&other));
    }
    prop_assert_eq!(d.offset_in_bytes(), l.offset_in_bytes());
    prop_assert_eq!(d.strides_in_bytes().to_vec(), l.strides_in_bytes().to_vec());
    prop_assert_eq!(d.byte_span(), l.byte_span());
    prop_assert_eq!(d.is_empty(), l.is_empty());
    prop_assert_eq!(d.fits_in::<i8>(), l.fits_in::<i8>());
    prop_assert_eq!(d.fits_in_bytes::<i8>(), l.fits_in_bytes::<i8>());
    for ix in common::indices(&l.shape()).into_iter().take(8) {
        let arr: [usize; N] = ix.clone().try_into().unwrap();
        prop_assert_eq!(d.offset_of_in_bytes(&ix), l.offset_of_in_bytes(arr));
    }
    Ok(())
}
for_ranks!(
    dyn_transforms_prop,
    layout,
    dyn_transforms_agree_with_layout
);

// ---------------------------------------------------------------------------------------
// s! / Layout::indexed against the model: Python's index and slice rules, then drop axes.
// ---------------------------------------------------------------------------------------

/// Python's position for index `i` on an axis of extent `n`, or `None` (IndexError).
fn py_index(n: usize, i: isize) -> Option<usize> {
    let p = if i < 0 {
        n as i128 + i as i128
    } else {
        i as i128
    };
    (0..n as i128).contains(&p).then_some(p as usize)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::common::cases(256)))]

    /// `x[i, s1, s2]` (rank 3 -> 2): every offset of the result is the model's.
    #[test]
    fn indexed_index_then_slices_matches_python_model(
        l in common::layout::<3>(),
        i in -5isize..5,
        a in 0usize..14,
        b in 0usize..14,
    ) {
        let cases = slice_cases();
        let (s1, s2) = (cases[a], cases[b]);
        let r: Result<Layout<2>, LayoutError> = l.indexed((i, (s1, (s2, ()))));
        let Some(p) = py_index(l.shape()[0], i) else {
            prop_assert_eq!(r, Err(LayoutError::IndexOutOfRange { axis: 0 }));
            return Ok(());
        };
        let picks1 = common::py_indices(l.shape()[1], s1.start, s1.stop, s1.step);
        let picks2 = common::py_indices(l.shape()[2], s2.start, s2.stop, s2.step);
        let Ok(v) = r else {
            // Only a stride times a step can overflow (`isize::MIN` steps).
            prop_assert_eq!(r, Err(LayoutError::OffsetOverflow));
            return Ok(());
        };
        prop_assert_eq!(v.shape(), [picks1.len(), picks2.len()]);
        for (j1, &i1) in picks1.iter().enumerate() {
            for (j2, &i2) in picks2.iter().enumerate() {
                prop_assert_eq!(model_at(&v, &[j1, j2]), model_at(&l, &[p, i1, i2]));
            }
        }
    }

    /// `x[s0, i, j]` (rank 3 -> 1) and `x[i, j, k]` (rank 3 -> 0).
    #[test]
    fn indexed_two_and_three_indices_match_python_model(
        l in common::layout::<3>(),
        i in -5isize..5,
        j in -5isize..5,
        k in -5isize..5,
        a in 0usize..14,
    ) {
        let s0 = slice_cases()[a];
        let sh = l.shape();
        let r1: Result<Layout<1>, LayoutError> = l.indexed((s0, (i, (j, ()))));
        let r0: Result<Layout<0>, LayoutError> = l.indexed((i, (j, (k, ()))));
        match (py_index(sh[1], i), py_index(sh[2], j)) {
            (Some(p1), Some(p2)) => {
                let picks = common::py_indices(sh[0], s0.start, s0.stop, s0.step);
                if let Ok(v) = r1 {
                    prop_assert_eq!(v.shape(), [picks.len()]);
                    for (t, &i0) in picks.iter().enumerate() {
                        prop_assert_eq!(model_at(&v, &[t]), model_at(&l, &[i0, p1, p2]));
                    }
                } else {
                    prop_assert_eq!(r1, Err(LayoutError::OffsetOverflow));
                }
            }
            (None, _) => prop_assert_eq!(r1, Err(LayoutError::IndexOutOfRange { axis: 1 })),
            (Some(_), None) => prop_assert_eq!(r1, Err(LayoutError::IndexOutOfRange { axis: 2 })),
        }
        let pos = [py_index(sh[0], i), py_index(sh[1], j), py_index(sh[2], k)];
        match pos.iter().position(Option::is_none) {
            Some(axis) => prop_assert_eq!(r0, Err(LayoutError::IndexOutOfRange { axis })),
            None => {
                let idx: Vec<usize> = pos.iter().map(|p| p.unwrap()).collect();
                prop_assert_eq!(r0.map(|v| v.offset() as i128), Ok(model_at(&l, &idx)));
            }
        }
    }
}

#[test]
fn s_macro_matches_numpy_examples() {
    use strided_layout::s;
    let l = c([2, 3, 4]);
    let v: Layout<2> = s![l; 1, .., 2..5;2].unwrap();
    // x[1, :, 2:5:2] of arange(24).reshape(2, 3, 4): offsets 14 16 / 18 20 / 22 24 - 12.
    assert_eq!((v.shape(), v.strides(), v.offset()), ([3, 1], [4, 2], 14));
    let rev: Layout<3> = s![l; .., ..;-1, -2..=-1].unwrap();
    assert_eq!(
        (rev.shape(), rev.strides(), rev.offset()),
        ([2, 3, 2], [12, -4, 1], 10)
    );
    let back: Layout<1> = s![l; -1, -1, ..;-1].unwrap();
    assert_eq!(
        (back.shape(), back.strides(), back.offset()),
        ([4], [-1], 23)
    );
    let s = Slice::new(Some(1), None, 1);
    let with_values: Layout<2> = s![l; s, 0, ..=1,].unwrap();
    assert_eq!((with_values.shape(), with_values.offset()), ([1, 2], 12));
    let err: Result<Layout<2>, LayoutError> = s![l; 2, .., ..];
    assert_eq!(err, Err(LayoutError::IndexOutOfRange { axis: 0 }));
    let zero: Result<Layout<3>, LayoutError> = s![l; .., ..;0, ..];
    assert_eq!(zero, Err(LayoutError::ZeroStep { axis: 1 }));
    let i: isize = -3;
    let from_var: Layout<2> = s![l; .., i, ..].unwrap();
    assert_eq!(from_var.offset(), 0);
    let u: usize = 2;
    let from_usize: Layout<2> = s![l; .., u, ..].unwrap();
    assert_eq!(from_usize.offset(), 8);
    let past: Result<Layout<2>, LayoutError> = s![l; .., 3usize, ..];
    assert_eq!(past, Err(LayoutError::IndexOutOfRange { axis: 1 }));
}

#[test]
fn s_macro_usize_index_reaches_past_isize_max_on_a_broadcast_axis() {
    use strided_layout::s;
    // An extent above isize::MAX is legal on a stride-0 axis; a usize index reaches all of it.
    let l = Layout::new([usize::MAX, 1], [0, 1], 4)
        .unwrap()
        .with_offset(3)
        .unwrap();
    let row: Layout<1> = s![l; usize::MAX - 1, ..].unwrap();
    assert_eq!((row.shape(), row.offset()), ([1], 3));
    let far: Result<Layout<1>, LayoutError> = s![l; usize::MAX, ..];
    assert_eq!(far, Err(LayoutError::IndexOutOfRange { axis: 0 }));
}

#[test]
fn dyn_transforms_report_rank_mismatch_for_wrong_lengths() {
    let d: strided_layout::DynLayout<4> = c([2, 3]).into();
    assert_eq!(
        d.sliced(&[Slice::FULL]),
        Err(LayoutError::RankMismatch {
            expected: 2,
            found: 1
        })
    );
    assert_eq!(
        d.offset_of_in_bytes(&[0, 0, 0]),
        Err(LayoutError::RankMismatch {
            expected: 2,
            found: 3
        })
    );
    assert_eq!(d.permuted(&[1, 1]), Err(LayoutError::NotAPermutation));
}
