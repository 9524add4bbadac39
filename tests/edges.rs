//! The core at its edges (issue "The core at its edges"): each example of the issue as a
//! named test, the documented step bound of the budgeted uniqueness and overlap queries, and
//! views of layouts near `isize::MAX` checked against the model.
#![expect(
    clippy::cast_possible_truncation,
    reason = "the model converts extents, strides and offsets between integer types, in range"
)]

use crate::common;

use proptest::prelude::*;
use strided_layout::{AxisMask, Layout, LayoutError, Order, Slice, Verdict};

// ---------------------------------------------------------------------------------------
// No refusal where a valid answer exists.

#[test]
fn offset_of_selected_unsqueezed_accept_a_broadcast_axis_longer_than_isize_max() {
    let l = Layout::new([usize::MAX, 1], [0, 1], 1)
        .unwrap()
        .with_offset(5)
        .unwrap();
    assert_eq!(l.offset_of([usize::MAX - 1, 0]), Ok(5));
    let s: Layout<1> = l.selected(0, usize::MAX - 1).unwrap();
    assert_eq!((s.shape(), s.offset()), ([1], 5));
    let u: Layout<3> = l.unsqueezed(1).unwrap();
    assert_eq!(u.shape(), [usize::MAX, 1, 1]);
    assert_eq!(u.offset_of([usize::MAX - 1, 0, 0]), Ok(5));
    // The axis in front of the broadcast one invents a stride from its extent: 0 here.
    let u: Layout<3> = l.unsqueezed(0).unwrap();
    assert_eq!(u.strides()[0], 0);
}

#[test]
fn flipped_and_negative_step_slices_work_where_offsets_fit_only_thanks_to_the_offset() {
    let l = Layout::from_parts([3], [-(1 << 62)], 1, 1).unwrap();
    assert_eq!(l.offset_bounds(), Some((isize::MIN + 1, 1)));
    let f = l.flipped(0).unwrap();
    assert_eq!((f.strides(), f.offset()), ([1 << 62], isize::MIN + 1));
    let s = l.sliced([Slice::new(None, None, -1)]).unwrap();
    assert_eq!(common::offsets(&s), common::offsets(&f));
    // Every second element: offsets 1 and 1 - 2^63 are 2^63 apart, a stride no `isize`
    // holds, so that view (and only that one) is an error.
    assert_eq!(
        l.sliced([Slice::new(None, None, -2)]),
        Err(LayoutError::OffsetOverflow)
    );
}

#[test]
fn from_parts_builds_what_new_then_with_offset_cannot() {
    assert_eq!(
        Layout::new([4], [-(1 << 61)], 2),
        Err(LayoutError::OffsetOverflow)
    );
    let l = Layout::from_parts([4], [-(1 << 61)], 1 << 61, 2).unwrap();
    assert_eq!(l.offset_bounds(), Some((-(1 << 62), 1 << 61)));
}

#[test]
fn sliced_with_a_huge_step_that_keeps_one_element_succeeds() {
    let l = Layout::new([5], [3], 4).unwrap();
    let s = l.sliced([Slice::new(Some(2), None, 1 << 62)]).unwrap();
    assert_eq!((s.shape(), s.strides(), s.offset()), ([1], [0], 6));
}

#[test]
fn repacked_ignores_strides_of_extent_one_axes() {
    // One row of a 5x7 f32 matrix (6 columns of it) viewed as complex64.
    let row = Layout::new([1, 6], [7, 1], 4).unwrap();
    let c = row.repacked(8, 0, -1).unwrap();
    assert_eq!((c.shape(), c.strides(), c.itemsize()), ([1, 3], [0, 1], 8));
    // A complex64 column unpacked to f32 pairs.
    let col = Layout::new([4, 1], [3, 3], 8).unwrap();
    let p = col.repacked(4, 0, -1).unwrap();
    assert_eq!((p.shape(), p.strides(), p.itemsize()), ([4, 2], [6, 1], 4));
    assert_eq!(col.max_compatible_itemsize(4, 0, -1), Ok(4));
}

// ---------------------------------------------------------------------------------------
// Errors that name the right thing.

#[test]
fn flattened_range_reversed_is_an_invalid_range() {
    let l = Layout::dense([2, 3, 4], 1, Order::C).unwrap();
    assert_eq!(
        l.flattened_range(2, 1),
        Err(LayoutError::AxisRangeInvalid { start: 2, end: 1 })
    );
    assert_eq!(
        l.flattened_range(0, 4),
        Err(LayoutError::AxisRangeInvalid { start: 0, end: 4 })
    );
}

#[test]
fn reshaped_zero_and_inferred_of_a_nonempty_layout_is_a_volume_mismatch() {
    let l = Layout::dense([6], 1, Order::C).unwrap();
    assert_eq!(l.reshaped::<2>([0, -1]), Err(LayoutError::VolumeMismatch));
    let empty = Layout::dense([0], 1, Order::C).unwrap();
    assert_eq!(
        empty.reshaped::<2>([0, -1]),
        Err(LayoutError::ExtentInvalid { axis: 1 })
    );
}

#[test]
fn merged_axes_failure_is_not_a_reshape_error() {
    let l = Layout::new([2, 3], [1, 2], 1).unwrap();
    let e = l.merged_axes::<1>(0).unwrap_err();
    assert_eq!(
        e,
        LayoutError::AxesNotMergeable {
            axes: AxisMask::from_bits(0b11)
        }
    );
    assert!(!e.as_str().contains("reshape"));
    assert_eq!(
        std::format!("{e}"),
        "axes cannot merge: their strides do not chain (axes 0, 1)"
    );
}

#[test]
fn repacked_names_a_negative_axis_as_given() {
    let l = Layout::dense([2, 3, 4], 1, Order::C).unwrap();
    assert_eq!(
        l.repacked(2, 0, -4),
        Err(LayoutError::SignedAxisOutOfRange { axis: -4, ndim: 3 })
    );
    assert_eq!(
        std::format!("{}", l.repacked(2, 0, -4).unwrap_err()),
        "signed axis is not in -rank..rank (axis -4, rank 3)"
    );
}

// ---------------------------------------------------------------------------------------
// Bounded time: the budgeted queries and their documented step bound.

/// The documented bound of `is_unique_within`: `1 + Σ_j Π_{k<j} (2 e_k - 1)` over the axes
/// of extent >= 2 and non-zero stride, largest `|stride|` first, the last two left out.
fn unique_bound<const N: usize>(l: &Layout<N>) -> u64 {
    let mut active: Vec<(usize, usize)> = (0..N)
        .filter(|&k| l.shape()[k] >= 2 && l.strides()[k] != 0)
        .map(|k| (l.strides()[k].unsigned_abs(), l.shape()[k]))
        .collect();
    active.sort_unstable_by(|a, b| b.cmp(a));
    let (mut product, mut sum) = (1u64, 1u64);
    for &(_, e) in active.iter().take(active.len().saturating_sub(2)) {
        product = product.saturating_mul(2 * e as u64 - 1);
        sum = sum.saturating_add(product);
    }
    sum.saturating_add(1)
}

/// Adversarial layouts: close strides in `[b, 2b)`, small extents on the axes the search
/// loops over, large extents (up to 10^6) on the two it solves in closed form.
fn adversarial<const N: usize>() -> impl Strategy<Value = Layout<N>> {
    (
        1_000isize..1_000_000,
        proptest::array::uniform::<_, N>(0.0f64..1.0),
        proptest::array::uniform::<_, N>(2usize..=5),
        (2usize..=1_000_000, 2usize..=1_000_000),
    )
        .prop_filter_map("valid", |(b, frac, small, (big0, big1))| {
            let mut strides = [0isize; N];
            for k in 0..N {
                strides[k] = b + (frac[k] * b as f64) as isize;
            }
            let mut order: Vec<usize> = (0..N).collect();
            order.sort_by_key(|&k| strides[k]);
            let mut shape = small;
            if let Some(&k) = order.first() {
                shape[k] = big0;
            }
            if let Some(&k) = order.get(1) {
                shape[k] = big1;
            }
            Layout::new(shape, strides, 1).ok()
        })
}

fn check_unique_bound<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    let bound = unique_bound(&l);
    let v = l.is_unique_within(bound);
    prop_assert_ne!(
        v,
        Verdict::Unknown,
        "bound {} not enough for {:?}",
        bound,
        l
    );
    prop_assert_eq!(v.known(), Some(l.is_unique()));
    Ok(())
}

fn check_overlap_bound<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    // Two layouts of close strides over one buffer: the layout and a shifted copy.
    let other = l.with_offset(l.strides()[0] / 2 + 1).unwrap();
    let mut bound = 1u64;
    for x in [&l, &other] {
        bound = bound.saturating_mul(unique_bound(x));
    }
    let v = l.overlaps_within(&other, bound);
    prop_assert_ne!(v, Verdict::Unknown);
    prop_assert_eq!(v.known(), Some(l.overlaps(&other)));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 2 } else { 64 }))]
    #[test] fn unique_bound_holds_rank2(l in adversarial::<2>()) { check_unique_bound(l)?; }
    #[test] fn unique_bound_holds_rank4(l in adversarial::<4>()) { check_unique_bound(l)?; }
    #[test] fn unique_bound_holds_rank6(l in adversarial::<6>()) { check_unique_bound(l)?; }
    #[test] fn unique_bound_holds_rank8(l in adversarial::<8>()) { check_unique_bound(l)?; }
    #[test] fn overlap_bound_holds_rank2(l in adversarial::<2>()) { check_overlap_bound(l)?; }
    #[test] fn overlap_bound_holds_rank3(l in adversarial::<3>()) { check_overlap_bound(l)?; }
}

#[test]
fn a_rank_14_uniqueness_check_fits_a_small_budget_or_says_unknown() {
    // Extent-2 axes with strides B + 3^k: the exact search triples per axis.
    let mut strides = [0isize; 14];
    let mut p = 1isize;
    for s in &mut strides {
        *s = 10_000_000 + p;
        p *= 3;
    }
    let l = Layout::new([2; 14], strides, 1).unwrap();
    let v = l.is_unique_within(10_000);
    assert!(matches!(v, Verdict::Unknown | Verdict::Yes), "{v:?}");
}

// ---------------------------------------------------------------------------------------
// Views near the edge of `isize`: every view of a valid layout is valid, and is the model's.

fn near_limit<const N: usize>() -> impl Strategy<Value = Layout<N>> {
    let stride = prop_oneof![
        -6isize..=6,
        (0u32..=62).prop_map(|k| 1isize << k),
        (0u32..=62).prop_map(|k| -(1isize << k)),
        Just(isize::MAX),
        Just(-isize::MAX),
    ];
    let extent = prop_oneof![0usize..=3, Just(usize::MAX)];
    let offset = prop_oneof![
        -40isize..=40,
        Just(isize::MAX),
        Just(isize::MIN),
        (0u32..=62).prop_map(|k| 1isize << k),
        (0u32..=62).prop_map(|k| -(1isize << k)),
    ];
    (
        proptest::array::uniform::<_, N>(extent),
        proptest::array::uniform::<_, N>(stride),
        offset,
        prop_oneof![Just(1usize), Just(2), Just(8)],
    )
        .prop_filter_map("valid", |(sh, st, off, item)| {
            Layout::from_parts(sh, st, off, item).ok()
        })
}

/// `offset_of` of `index` by the model, for layouts whose enumeration is too large.
fn at<const N: usize>(l: &Layout<N>, index: &[usize]) -> i128 {
    common::offset_of_model(&l.strides(), l.offset(), index)
}

/// A few indices of a layout: its corners (every extent is 0..=3 or a broadcast axis).
fn corners<const N: usize>(l: &Layout<N>) -> Vec<[usize; N]> {
    if l.shape().contains(&0) {
        return Vec::new();
    }
    (0..1usize << N)
        .map(|bits| {
            std::array::from_fn(|k| {
                if bits >> k & 1 == 1 {
                    l.shape()[k] - 1
                } else {
                    0
                }
            })
        })
        .collect()
}

fn views_of_valid_layouts_are_valid<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    for ix in corners(&l) {
        prop_assert_eq!(l.offset_of(ix).map(|o| o as i128), Ok(at(&l, &ix)));
    }
    for axis in 0..N {
        let e = l.shape()[axis];
        let f = l.flipped(axis);
        // The one view a stride cannot hold: `-stride * itemsize == 2^63` on an axis it steps.
        let unflippable =
            e >= 2 && (l.strides()[axis] as i128) * (l.itemsize() as i128) == isize::MIN as i128;
        if unflippable {
            prop_assert_eq!(f, Err(LayoutError::OffsetOverflow));
            continue;
        }
        prop_assert!(f.is_ok(), "flipped({}) of {:?}: {:?}", axis, l, f);
        let f = f.unwrap();
        for ix in corners(&l) {
            let mut j = ix;
            j[axis] = e - 1 - ix[axis];
            prop_assert_eq!(at(&f, &j), at(&l, &ix));
        }
        if e >= 1 {
            let n = l.narrowed(axis, e - 1, 1).unwrap();
            let s = l.sliced(std::array::from_fn(|k| {
                if k == axis {
                    Slice::new(None, None, -1)
                } else {
                    Slice::FULL
                }
            }));
            prop_assert!(s.is_ok(), "sliced ::-1 on {} of {:?}: {:?}", axis, l, s);
            prop_assert_eq!(s.unwrap().offset(), f.offset());
            for ix in corners(&n) {
                let mut j = ix;
                j[axis] = e - 1;
                prop_assert_eq!(at(&n, &ix), at(&l, &j));
            }
        }
        let mut perm: [usize; N] = std::array::from_fn(|k| k);
        perm.reverse();
        let p = l.permuted(perm).unwrap();
        prop_assert_eq!(p.offset_bounds(), l.offset_bounds());
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { crate::common::cases(512) }))]
    #[test] fn near_limit_views_rank1(l in near_limit::<1>()) { views_of_valid_layouts_are_valid(l)?; }
    #[test] fn near_limit_views_rank2(l in near_limit::<2>()) { views_of_valid_layouts_are_valid(l)?; }
    #[test] fn near_limit_views_rank3(l in near_limit::<3>()) { views_of_valid_layouts_are_valid(l)?; }
}
