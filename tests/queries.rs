//! Queries against the reference model: named edge cases, then one property per documented
//! postcondition for ranks 0..=5.
#![expect(
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    reason = "the model converts small extents, strides and offsets between integer types"
)]
use crate::common;

use std::collections::BTreeSet;

use proptest::prelude::*;
use strided_layout::{Layout, LayoutError, Order};

// ---------------------------------------------------------------- model helpers

/// Offsets in F index order (first axis fastest): C order of the axis-reversed layout.
fn offsets_f<const N: usize>(l: &Layout<N>) -> Vec<i128> {
    let mut sh = l.shape();
    let mut st = l.strides();
    sh.reverse();
    st.reverse();
    common::offsets_raw(&sh, &st, l.offset())
}

/// Whether `offs` is `start, start + 1, ..`.
fn is_run_from(offs: &[i128], start: isize) -> bool {
    offs.iter()
        .enumerate()
        .all(|(k, &o)| o == start as i128 + k as i128)
}

/// Every permutation of `0..n`.
fn permutations(n: usize) -> Vec<Vec<usize>> {
    if n == 0 {
        return vec![vec![]];
    }
    let mut out = Vec::new();
    for p in permutations(n - 1) {
        for pos in 0..=p.len() {
            let mut q = p.clone();
            q.insert(pos, n - 1);
            out.push(q);
        }
    }
    out
}

/// Model: some permutation of the axes makes the C-order offsets a run from the offset.
fn contiguous_any_model<const N: usize>(l: &Layout<N>) -> bool {
    let (sh, st) = (l.shape(), l.strides());
    permutations(N).iter().any(|p| {
        let psh: Vec<usize> = p.iter().map(|&a| sh[a]).collect();
        let pst: Vec<isize> = p.iter().map(|&a| st[a]).collect();
        is_run_from(&common::offsets_raw(&psh, &pst, l.offset()), l.offset())
    })
}

/// Whether `offs` is an arithmetic progression (vacuously for fewer than 3 values).
fn is_progression(offs: &[i128]) -> bool {
    offs.windows(3).all(|w| w[1] - w[0] == w[2] - w[1])
}

/// Model of the flatten mask: greedy from axis 0, axis `j` joins the current group iff the
/// C-order offsets of the group's axes plus `j` form an arithmetic progression; with no
/// element at all, every axis but axis 0 merges (cuda.core).
fn flatten_mask_model<const N: usize>(l: &Layout<N>) -> u64 {
    let (sh, st) = (l.shape(), l.strides());
    if l.volume() == 0 {
        return (1..N).map(|j| 1u64 << j).sum();
    }
    let mut mask = 0u64;
    let mut start = 0;
    for j in 1..N {
        if is_progression(&common::offsets_raw(&sh[start..=j], &st[start..=j], 0)) {
            mask |= 1 << j;
        } else {
            start = j;
        }
    }
    mask
}

/// Every byte covered by the elements of `l`.
fn bytes<const N: usize>(l: &Layout<N>) -> BTreeSet<i128> {
    let item = l.itemsize() as i128;
    common::offsets(l)
        .iter()
        .flat_map(|&o| (0..item).map(move |b| o * item + b))
        .collect()
}

/// Whether `v` fits `i8` (the model of `fits_in::<i8>`).
fn fits_i8(v: i128) -> bool {
    i8::try_from(v).is_ok()
}

// ---------------------------------------------------------------- named edge cases

#[test]
fn contiguity_ignores_strides_of_extent_one_axes() {
    let l = Layout::new([2, 1, 3], [3, -77, 1], 4).unwrap();
    assert!(l.is_contiguous_c() && l.is_contiguous_any() && l.is_dense());
    let f = Layout::new([1, 2, 3], [0, 1, 2], 4).unwrap();
    assert!(f.is_contiguous_f() && !f.is_contiguous_c());
    assert!(Layout::new([1, 1], [5, 9], 4).unwrap().is_contiguous_c());
    assert!(Layout::new([1, 1], [5, 9], 4).unwrap().is_contiguous_f());
}

#[test]
fn contiguity_holds_for_empty_layouts_whatever_the_strides() {
    let l = Layout::new([3, 0, 2], [0, -4, 0], 2).unwrap();
    assert!(l.is_contiguous_c() && l.is_contiguous_f() && l.is_contiguous_any() && l.is_dense());
    assert!(!l.with_offset(3).unwrap().is_dense());
    assert!(l.is_unique());
    assert_eq!(l.flattened_axis_mask().bits(), 0b110);
}

#[test]
fn zero_strides_are_never_contiguous_nor_unique() {
    let l = Layout::new([3, 2], [0, 1], 1).unwrap();
    assert!(!l.is_contiguous_c() && !l.is_contiguous_f() && !l.is_contiguous_any());
    assert!(!l.is_dense() && !l.is_unique());
    let scalar_like = Layout::new([1, 1, 1], [0, 0, 0], 1).unwrap();
    assert!(scalar_like.is_contiguous_c() && scalar_like.is_unique());
}

#[test]
fn negative_strides_are_unique_but_not_contiguous() {
    let l = Layout::new([2, 3], [-3, -1], 4)
        .unwrap()
        .with_offset(5)
        .unwrap();
    assert!(!l.is_contiguous_c() && !l.is_contiguous_any());
    assert!(l.is_unique());
    assert_eq!(l.offset_bounds(), Some((0, 5)));
    assert!(!l.has_positive_strides());
    assert_eq!(l.inner_stride(), 1);
    assert!(l.has_contiguous_inner());
}

#[test]
fn contiguity_ignores_the_offset_but_dense_does_not() {
    let l = Layout::dense([2, 3], 4, Order::C)
        .unwrap()
        .with_offset(-7)
        .unwrap();
    assert!(l.is_contiguous_c() && l.is_contiguous_any());
    assert!(!l.is_dense());
    assert_eq!(l.contiguous_offsets(), None);
    assert_eq!(
        l.with_offset(7).unwrap().contiguous_offsets(),
        Some((7, 13))
    );
}

#[test]
fn offset_bounds_are_none_and_required_size_zero_when_empty() {
    let l = Layout::new([2, 0], [5, 1], 8)
        .unwrap()
        .with_offset(-9)
        .unwrap();
    assert_eq!(l.offset_bounds(), None);
    assert_eq!(l.required_size_in_bytes(), Ok(0));
    assert_eq!(l.contiguous_offsets(), None);
}

#[test]
fn required_size_rejects_negative_min_offset() {
    let l = Layout::new([3], [-1], 2).unwrap().with_offset(1).unwrap();
    assert_eq!(l.required_size_in_bytes(), Err(LayoutError::NegativeOffset));
    assert_eq!(l.with_offset(2).unwrap().required_size_in_bytes(), Ok(6));
}

#[test]
fn offset_of_rejects_the_first_index_out_of_range() {
    let l = Layout::new([2, 3, 4], [12, 4, 1], 1).unwrap();
    assert_eq!(l.offset_of([1, 2, 3]), Ok(23));
    assert_eq!(
        l.offset_of([2, 3, 4]),
        Err(LayoutError::IndexOutOfRange { axis: 0 })
    );
    assert_eq!(
        l.offset_of([0, 3, 4]),
        Err(LayoutError::IndexOutOfRange { axis: 1 })
    );
    assert_eq!(
        Layout::<0>::new([], [], 1)
            .unwrap()
            .with_offset(4)
            .unwrap()
            .offset_of([]),
        Ok(4)
    );
}

#[test]
fn flatten_mask_matches_cuda_core_examples() {
    let c = Layout::dense([4, 5, 3], 4, Order::C).unwrap();
    let other = Layout::new([4, 5, 3], [1, 12, 4], 4).unwrap();
    assert_eq!(c.flattened_axis_mask().bits(), 0b110);
    assert_eq!(other.flattened_axis_mask().bits(), 0b100);
    assert_eq!(
        (c.flattened_axis_mask() & other.flattened_axis_mask()).bits(),
        0b100
    );
    assert_eq!(
        Layout::new([2, 3], [0, 0], 1)
            .unwrap()
            .flattened_axis_mask()
            .bits(),
        0b10
    );
    assert_eq!(
        Layout::new([1, 3], [9, 2], 1)
            .unwrap()
            .flattened_axis_mask()
            .bits(),
        0b10
    );
    assert_eq!(
        Layout::new([2, 3], [3, -1], 1)
            .unwrap()
            .flattened_axis_mask()
            .bits(),
        0
    );
    assert_eq!(
        Layout::new([7], [3], 1)
            .unwrap()
            .flattened_axis_mask()
            .bits(),
        0
    );
}

#[test]
fn is_unique_is_exact_where_cuda_core_says_false() {
    // cuda.core's sufficient test fails here (4 <= 3 * 2), but no offset repeats.
    assert!(Layout::new([3, 3], [3, 4], 1).unwrap().is_unique());
    assert!(!Layout::new([5, 4], [3, 4], 1).unwrap().is_unique());
    assert!(Layout::new([2, 2, 2], [3, 4, 5], 1).unwrap().is_unique());
    assert!(!Layout::new([4, 2, 2], [3, 4, 5], 1).unwrap().is_unique());
}

#[test]
fn overlap_compares_bytes_across_itemsizes_and_ranks() {
    let even = Layout::new([4], [2], 4).unwrap();
    assert!(!even.overlaps(&even.with_offset(1).unwrap()));
    assert!(even.overlaps(&even.with_offset(6).unwrap()));
    assert!(!even.overlaps(&even.with_offset(7).unwrap()));
    // Rows 0 and 2 of a 4x4 matrix against its column 1: they meet at (0,1) and (2,1).
    let rows = Layout::new([2, 4], [8, 1], 2).unwrap();
    let col = Layout::new([4], [4], 2).unwrap().with_offset(1).unwrap();
    assert!(rows.overlaps(&col) && col.overlaps(&rows));
    // Bytes 8..16 against 2-byte elements at bytes 16, 18: no shared byte.
    let wide = Layout::new([2], [1], 8).unwrap();
    let narrow = Layout::new([2], [1], 2).unwrap().with_offset(8).unwrap();
    assert!(!wide.overlaps(&narrow));
    assert!(wide.overlaps(&narrow.with_offset(7).unwrap()));
    let empty = Layout::new([0, 3], [1, 1], 1).unwrap();
    assert!(!empty.overlaps(&empty) && !wide.overlaps(&empty));
    assert!(wide.overlaps(&wide));
}

#[test]
fn queries_at_the_edge_of_isize() {
    let max = isize::MAX;
    let l = Layout::new([2], [max], 1).unwrap();
    assert_eq!(l.offset_bounds(), Some((0, max)));
    assert_eq!(l.required_size_in_bytes(), Ok(max as usize + 1));
    assert!(l.is_unique() && !l.is_contiguous_any());
    let point = Layout::<0>::new([], [], 1).unwrap();
    assert!(l.overlaps(&point.with_offset(max).unwrap()));
    assert!(!l.overlaps(&point.with_offset(max - 1).unwrap()));
    let half = max / 2;
    let twin = Layout::new([2, 2], [half, half], 1).unwrap();
    assert!(!twin.is_unique());
    let flip = Layout::new([3, 2], [-half, 1], 1)
        .unwrap()
        .with_offset(max - 1)
        .unwrap();
    assert!(flip.is_unique());
    assert_eq!(flip.offset_bounds(), Some((max - 1 - 2 * half, max)));
    assert_eq!(flip.flattened_axis_mask().bits(), 0);
    assert!(!flip.fits_in::<i32>() && flip.fits_in::<i64>());
}

#[test]
fn contiguous_axis_and_stride_rank_examples() {
    let l = Layout::new([4, 3], [10, 1], 1).unwrap();
    assert_eq!((l.contiguous_axis(), l.stride_rank()), (Some(1), [1, 0]));
    assert_eq!(
        Layout::new([1, 3], [1, 2], 1).unwrap().contiguous_axis(),
        None
    );
    assert_eq!(
        Layout::new([2, 2], [1, 1], 1).unwrap().contiguous_axis(),
        Some(1)
    );
    assert_eq!(Layout::<0>::new([], [], 1).unwrap().contiguous_axis(), None);
    assert_eq!(Layout::<0>::new([], [], 1).unwrap().stride_rank(), []);
}

#[test]
fn burn_conveniences_define_rank_zero() {
    let s = Layout::<0>::new([], [], 4).unwrap().with_offset(3).unwrap();
    assert_eq!(s.inner_stride(), 1);
    assert!(s.has_contiguous_inner() && s.has_positive_strides());
    assert_eq!(s.contiguous_offsets(), Some((3, 4)));
    assert_eq!(s.as_2d_strides(), None);
}

#[test]
fn fits_in_checks_the_largest_offset() {
    let top = i32::MAX as isize;
    let l = Layout::new([2], [top], 4).unwrap();
    assert!(l.fits_in::<i32>());
    assert!(!l.with_offset(1).unwrap().fits_in::<i32>());
    assert!(l.fits_in::<u32>());
    assert!(!l.with_offset(-1).unwrap().fits_in::<u32>());
    assert!(
        !Layout::new([1usize << 33, 0], [0, 0], 1)
            .unwrap()
            .fits_in::<i32>()
    );
}

// ---------------------------------------------------------------- is_unique: exhaustive and stress

#[test]
fn is_unique_matches_the_model_on_every_small_rank3_layout() {
    let mut checked = 0;
    for e0 in 1..=3 {
        for e1 in 1..=3 {
            for e2 in 1..=3 {
                for s0 in -4..=4 {
                    for s1 in -4..=4 {
                        for s2 in -4..=4 {
                            let l = Layout::new([e0, e1, e2], [s0, s1, s2], 1).unwrap();
                            let want = common::unique_model(&common::offsets(&l));
                            assert_eq!(l.is_unique(), want, "{l:?}");
                            checked += 1;
                        }
                    }
                }
            }
        }
    }
    assert_eq!(checked, 27 * 729);
}

/// Asserts that `a` and `b` are distinct indices of `l` with the same offset.
fn assert_collision<const N: usize>(l: &Layout<N>, a: [usize; N], b: [usize; N]) {
    assert_ne!(a, b);
    assert_eq!(l.offset_of(a).unwrap(), l.offset_of(b).unwrap());
}

#[test]
fn is_unique_answers_big_adversarial_layouts() {
    let m = 1_000_000usize;
    let mi = m as isize;
    // gcd(10^6, 10^6 + 1) = 1: a repeat needs |d_0| >= 10^6 + 1. Unique, ~10^6 x 10^6 elements.
    assert!(Layout::new([m, m], [mi, mi + 1], 1).unwrap().is_unique());
    // One more index on each axis and the repeat fits.
    let l = Layout::new([m + 2, m + 1], [mi, mi + 1], 1).unwrap();
    assert!(!l.is_unique());
    assert_collision(&l, [m + 1, 0], [0, m]);
    // Three near strides: the only repeats are multiples of d = (2, -3, 1).
    let l = Layout::new([1000, 1000, 1000], [mi, mi + 1, mi + 3], 1).unwrap();
    assert!(!l.is_unique());
    assert_collision(&l, [2, 0, 1], [0, 3, 0]);
    // ... so with |d_0| <= 1 it is unique, though volume <= span leaves pigeonhole silent.
    assert!(
        Layout::new([2, 1000, 1000], [mi, mi + 1, mi + 3], 1)
            .unwrap()
            .is_unique()
    );
    assert!(
        Layout::new([1000, 2, 1000], [mi + 1, mi, -mi - 3], 1)
            .unwrap()
            .is_unique()
    );
    // Pigeonhole: 10^18 elements in a span of 3 * 10^12.
    assert!(
        !Layout::new([m, m, m], [mi, mi + 1, mi + 3], 1)
            .unwrap()
            .is_unique()
    );
    // Broadcast of a huge extent; and a huge dense layout, permuted and flipped (mixed radix).
    assert!(
        !Layout::new([usize::MAX / 2, 2], [0, 1], 1)
            .unwrap()
            .is_unique()
    );
    let d = Layout::new([1 << 20, 1 << 20, 1 << 10], [-(1 << 10), 1 << 30, 1], 1).unwrap();
    assert!(d.is_unique());
    // Four axes with two wide search levels; the repeat (0, 1, 1, -1)... is found, or none.
    let l = Layout::new([30, 30, 30, 30], [mi, mi + 7, mi + 11, mi + 18], 1).unwrap();
    assert!(!l.is_unique());
    assert_collision(&l, [1, 0, 0, 1], [0, 1, 1, 0]);
}

#[test]
fn overlaps_answers_big_layouts() {
    let m = 1_000_000usize;
    let mi = m as isize;
    // Two interleaved lattices that never meet: even and odd columns of a huge matrix.
    let even = Layout::new([m, m / 2], [mi, 2], 4).unwrap();
    let odd = even.with_offset(1).unwrap();
    assert!(!even.overlaps(&odd));
    assert!(even.overlaps(&odd.with_offset(mi).unwrap()));
    // A 1-byte view of the same buffer meets the 4-byte one inside an element.
    let bytes = Layout::new([m], [mi * 4 + 3], 1).unwrap();
    assert!(even.overlaps(&bytes));
}

// ---------------------------------------------------------------- strategies

/// A layout made dense in a random axis order, then perturbed: an extent-1 axis (or any axis)
/// given a random stride, a stride negated, or the offset moved. Mostly contiguous layouts.
fn near_dense<const N: usize>() -> impl Strategy<Value = Layout<N>> {
    (
        proptest::array::uniform::<_, N>(0usize..=4),
        Just((0..N).collect::<Vec<usize>>()).prop_shuffle(),
        0usize..4,
        0usize..N.max(1),
        -6isize..=6,
        prop_oneof![Just(1usize), Just(2), Just(4), Just(8)],
    )
        .prop_map(|(shape, perm, kind, axis, v, item)| {
            let perm: [usize; N] = perm.try_into().unwrap();
            let d = Layout::dense(shape, item, Order::Perm(perm)).unwrap();
            let mut strides = d.strides();
            let mut offset = 0;
            match kind {
                1 if N > 0 => strides[axis] = v,
                2 if N > 0 => strides[axis] = -strides[axis],
                3 => offset = v,
                _ => {}
            }
            Layout::new(shape, strides, item)
                .unwrap()
                .with_offset(offset)
                .unwrap()
        })
}

/// Wider layouts for the uniqueness search: extents 1..=6, strides -20..=20.
fn wide<const N: usize>() -> impl Strategy<Value = Layout<N>> {
    (
        proptest::array::uniform::<_, N>(1usize..=6),
        proptest::array::uniform::<_, N>(-20isize..=20),
    )
        .prop_map(|(sh, st)| Layout::new(sh, st, 1).unwrap())
}

/// Large strided layouts for the search's gcd and pruning paths: rank 2 with extents up to 40
/// and strides up to ±300, rank 3 with extents up to 16; any itemsize and a small offset.
fn big2() -> impl Strategy<Value = Layout<2>> {
    big::<2>(40)
}
fn big3() -> impl Strategy<Value = Layout<3>> {
    big::<3>(16)
}
fn big<const N: usize>(max_extent: usize) -> impl Strategy<Value = Layout<N>> {
    (
        proptest::array::uniform::<_, N>(1usize..=max_extent),
        proptest::array::uniform::<_, N>(-300isize..=300),
        -300isize..=300,
        prop_oneof![Just(1usize), Just(2), Just(4), Just(8)],
    )
        .prop_map(|(sh, st, off, item)| {
            Layout::new(sh, st, item).unwrap().with_offset(off).unwrap()
        })
}

/// [`for_ranks!`] for strategies defined in this file.
macro_rules! for_ranks_here {
    ($name:ident, $strategy:ident, $check:ident) => {
        mod $name {
            use super::*;
            proptest::proptest! {
                #![proptest_config(proptest::prelude::ProptestConfig::with_cases(crate::common::cases(256)))]
                #[test] fn rank0(l in $strategy::<0>()) { $check(l)?; }
                #[test] fn rank1(l in $strategy::<1>()) { $check(l)?; }
                #[test] fn rank2(l in $strategy::<2>()) { $check(l)?; }
                #[test] fn rank3(l in $strategy::<3>()) { $check(l)?; }
                #[test] fn rank4(l in $strategy::<4>()) { $check(l)?; }
                #[test] fn rank5(l in $strategy::<5>()) { $check(l)?; }
            }
        }
    };
}

// ---------------------------------------------------------------- properties

fn bounds_match_model<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    let offs = common::offsets(&l);
    let want = common::bounds_model(&offs);
    prop_assert_eq!(l.offset_bounds().map(|(a, b)| (a as i128, b as i128)), want);
    let size = match want {
        None => Ok(0),
        Some((lo, _)) if lo < 0 => Err(LayoutError::NegativeOffset),
        Some((_, hi)) => Ok(((hi + 1) * l.itemsize() as i128) as usize),
    };
    prop_assert_eq!(l.required_size_in_bytes(), size);
    for (ix, off) in common::indices(&l.shape()).iter().zip(&offs) {
        let ix: [usize; N] = ix.clone().try_into().unwrap();
        prop_assert_eq!(l.offset_of(ix).map(|o| o as i128), Ok(*off));
    }
    Ok(())
}
for_ranks!(bounds, layout, bounds_match_model);

fn contiguity_matches_model<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    let c = is_run_from(&common::offsets(&l), l.offset());
    let f = is_run_from(&offsets_f(&l), l.offset());
    let any = contiguous_any_model(&l);
    prop_assert_eq!(l.is_contiguous_c(), c);
    prop_assert_eq!(l.is_contiguous_f(), f);
    prop_assert_eq!(l.is_contiguous_any(), any);
    prop_assert_eq!(l.is_dense(), any && l.offset() == 0);
    let range =
        (l.offset() >= 0 && c).then(|| (l.offset() as usize, l.offset() as usize + l.volume()));
    prop_assert_eq!(l.contiguous_offsets(), range);
    Ok(())
}
for_ranks!(contiguity, layout, contiguity_matches_model);
for_ranks_here!(contiguity_near_dense, near_dense, contiguity_matches_model);

fn flatten_mask_matches_model<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    prop_assert_eq!(l.flattened_axis_mask().bits(), flatten_mask_model(&l));
    Ok(())
}
for_ranks!(flatten_mask, layout, flatten_mask_matches_model);
for_ranks_here!(
    flatten_mask_near_dense,
    near_dense,
    flatten_mask_matches_model
);

fn unique_matches_model<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    prop_assert_eq!(l.is_unique(), common::unique_model(&common::offsets(&l)));
    Ok(())
}
for_ranks!(unique, layout, unique_matches_model);
for_ranks_here!(unique_wide, wide, unique_matches_model);
for_ranks_here!(unique_near_dense, near_dense, unique_matches_model);

fn axes_match_model<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    let (sh, st) = (l.shape(), l.strides());
    let order = l.stride_order();
    let rank = l.stride_rank();
    for j in 0..N {
        prop_assert_eq!(rank[order[j]], N - 1 - j);
    }
    let axis = (0..N).rev().find(|&a| sh[a] > 1 && st[a] == 1);
    prop_assert_eq!(l.contiguous_axis(), axis);
    let inner = st.last().map_or(1, |s| s.unsigned_abs());
    prop_assert_eq!(l.inner_stride(), inner);
    prop_assert_eq!(l.has_contiguous_inner(), inner == 1);
    prop_assert_eq!(l.has_positive_strides(), st.iter().all(|&s| s >= 0));
    let two = (N == 2).then(|| (sh[0], sh[1], st[0], st[1]));
    prop_assert_eq!(l.as_2d_strides(), two);
    let bounds = common::bounds_model(&common::offsets(&l));
    let fits = sh.iter().all(|&e| fits_i8(e as i128))
        && st.iter().all(|&s| fits_i8(s as i128))
        && fits_i8(l.offset() as i128)
        && bounds.is_none_or(|(lo, hi)| fits_i8(lo) && fits_i8(hi));
    prop_assert_eq!(l.fits_in::<i8>(), fits);
    Ok(())
}
for_ranks!(axes, layout, axes_match_model);

fn overlaps_match_model<const N: usize, const M: usize>(
    a: Layout<N>,
    b: Layout<M>,
) -> Result<(), TestCaseError> {
    let want = !bytes(&a).is_disjoint(&bytes(&b));
    prop_assert_eq!(a.overlaps(&b), want);
    prop_assert_eq!(b.overlaps(&a), want);
    prop_assert_eq!(a.overlaps(&a), a.volume() > 0);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::common::cases(256)))]
    #[test] fn overlaps_rank0_rank0(a in common::layout::<0>(), b in common::layout::<0>()) { overlaps_match_model(a, b)?; }
    #[test] fn overlaps_rank1_rank1(a in common::layout::<1>(), b in common::layout::<1>()) { overlaps_match_model(a, b)?; }
    #[test] fn overlaps_rank1_rank3(a in common::layout::<1>(), b in common::layout::<3>()) { overlaps_match_model(a, b)?; }
    #[test] fn overlaps_rank2_rank2(a in common::layout::<2>(), b in common::layout::<2>()) { overlaps_match_model(a, b)?; }
    #[test] fn overlaps_rank3_rank2(a in common::layout::<3>(), b in common::layout::<2>()) { overlaps_match_model(a, b)?; }
    #[test] fn overlaps_rank3_rank3(a in common::layout::<3>(), b in common::layout::<3>()) { overlaps_match_model(a, b)?; }
    #[test] fn overlaps_rank4_rank1(a in common::layout::<4>(), b in common::layout::<1>()) { overlaps_match_model(a, b)?; }
    #[test] fn overlaps_rank5_rank0(a in common::layout::<5>(), b in common::layout::<0>()) { overlaps_match_model(a, b)?; }
    #[test] fn overlaps_rank4_rank4(a in common::layout::<4>(), b in common::layout::<4>()) { overlaps_match_model(a, b)?; }
    #[test] fn overlaps_rank5_rank5(a in common::layout::<5>(), b in common::layout::<5>()) { overlaps_match_model(a, b)?; }
    #[test] fn overlaps_big2_big2(a in big2(), b in big2()) { overlaps_match_model(a, b)?; }
    #[test] fn overlaps_big3_big2(a in big3(), b in big2()) { overlaps_match_model(a, b)?; }
    #[test] fn unique_big2(l in big2()) { unique_matches_model(l)?; }
    #[test] fn unique_big3(l in big3()) { unique_matches_model(l)?; }
    #[test] fn overlaps_near_dense(a in near_dense::<3>(), b in near_dense::<2>()) { overlaps_match_model(a, b)?; }
}

// ---------------------------------------------------------------- const evaluation

/// Every query but `fits_in` is a `const fn`: evaluate them in a `const` item.
#[test]
fn queries_evaluate_in_const_items() {
    const L: Layout<2> = strided_layout::const_unwrap(Layout::new([3, 3], [3, 4], 4));
    const M: Layout<1> = strided_layout::const_unwrap(Layout::new([4], [2], 4));
    const ANSWERS: [bool; 8] = [
        L.is_unique(),
        L.is_contiguous_c(),
        L.is_contiguous_f(),
        L.is_contiguous_any(),
        L.is_dense(),
        L.overlaps(&M),
        L.has_contiguous_inner(),
        L.has_positive_strides(),
    ];
    const BOUNDS: Option<(isize, isize)> = L.offset_bounds();
    const SIZE: Result<usize, LayoutError> = L.required_size_in_bytes();
    const AT: Result<isize, LayoutError> = L.offset_of([2, 2]);
    const MASK: u64 = L.flattened_axis_mask().bits();
    const AXES: (Option<usize>, [usize; 2], usize) =
        (L.contiguous_axis(), L.stride_rank(), L.inner_stride());
    const TWO: Option<(usize, usize, isize, isize)> = L.as_2d_strides();
    const RANGE: Option<(usize, usize)> = M.contiguous_offsets();
    assert_eq!(
        ANSWERS,
        [true, false, false, false, false, true, false, true]
    );
    assert_eq!((BOUNDS, SIZE, AT, MASK), (Some((0, 14)), Ok(60), Ok(14), 0));
    assert_eq!(AXES, (None, [0, 1], 4));
    assert_eq!((TWO, RANGE), (Some((3, 3, 3, 4)), None));
}

// The documented rule: a reversed dense view covers `0..volume` once each but is
// not dense (negative stride, nonzero offset).
#[test]
fn is_dense_rejects_a_reversed_dense_view_that_covers_every_offset() {
    let l = Layout::dense([2, 3], 4, Order::C).unwrap();
    let r = l.flipped(0).unwrap().flipped(1).unwrap();
    assert_eq!((r.strides(), r.offset()), ([-3, -1], 5));
    assert!(l.is_dense() && !r.is_dense());
    assert!(r.is_unique() && r.offset_bounds() == Some((0, 5)));
}

// ---------------------------------------------------------------- byte helpers

/// `v` as a value of the integer type whose range is `[lo, hi]`.
fn within(v: i128, lo: i128, hi: i128) -> bool {
    (lo..=hi).contains(&v)
}

fn byte_helpers_match_the_model<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    let item = l.itemsize() as i128;
    let offs = common::offsets(&l);
    // byte_span: first byte of the lowest element, last byte of the highest.
    let span = common::bounds_model(&offs).map(|(lo, hi)| (lo * item, hi * item + item - 1));
    prop_assert_eq!(l.byte_span().map(|(a, b)| (a as i128, b as i128)), span);
    prop_assert_eq!(l.is_empty(), offs.is_empty());
    prop_assert_eq!(l.is_empty(), l.volume() == 0);
    for ix in common::indices(&l.shape()) {
        let arr: [usize; N] = ix.clone().try_into().unwrap();
        let want = common::offset_of_model(&l.strides(), l.offset(), &ix) * item;
        prop_assert_eq!(l.offset_of_in_bytes(arr).map(|b| b as i128), Ok(want));
    }
    // fits_in_bytes: every extent, byte stride, byte offset and both span ends fit.
    for (lo, hi, got) in [
        (i8::MIN as i128, i8::MAX as i128, l.fits_in_bytes::<i8>()),
        (0, u8::MAX as i128, l.fits_in_bytes::<u8>()),
        (i16::MIN as i128, i16::MAX as i128, l.fits_in_bytes::<i16>()),
    ] {
        let want = l.shape().iter().all(|&e| within(e as i128, lo, hi))
            && l.strides()
                .iter()
                .all(|&s| within(s as i128 * item, lo, hi))
            && within(l.offset() as i128 * item, lo, hi)
            && span.is_none_or(|(a, b)| within(a, lo, hi) && within(b, lo, hi));
        prop_assert_eq!(got, want);
    }
    Ok(())
}
for_ranks!(byte_helpers_prop, layout, byte_helpers_match_the_model);

#[test]
fn byte_span_of_a_reversed_view_starts_below_the_base() {
    // A GPU host copying a view with a negative stride needs the lowest byte, not offset 0.
    let l = Layout::dense([3], 8, Order::C)
        .unwrap()
        .flipped(0)
        .unwrap()
        .with_offset(0)
        .unwrap();
    assert_eq!(l.offset_bounds(), Some((-2, 0)));
    assert_eq!(l.byte_span(), Some((-16, 7)));
    assert_eq!(l.offset_of_in_bytes([2]), Ok(-16));
}

#[test]
fn byte_span_last_byte_fits_at_the_edge_of_isize() {
    // The highest element starts at the largest multiple of 8 below isize::MAX; its last
    // byte is isize::MAX itself.
    let top = (isize::MAX / 8) * 8;
    let l = Layout::new([2], [top / 8], 8).unwrap();
    assert_eq!(l.byte_span(), Some((0, isize::MAX)));
    assert!(l.fits_in_bytes::<i64>() && !l.fits_in_bytes::<i32>());
}

#[test]
fn fits_in_bytes_is_stricter_than_fits_in_for_big_itemsizes() {
    let l = Layout::dense([1 << 20, 1 << 10], 4, Order::C).unwrap(); // 4 GiB of f32
    assert!(l.fits_in::<i32>());
    assert!(!l.fits_in_bytes::<i32>());
    assert!(l.fits_in_bytes::<u32>());
}
