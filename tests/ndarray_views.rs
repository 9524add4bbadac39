//! ndarray interop (feature `ndarray`): `(slice, Layout)` pairs to views and back, negative
//! and zero strides included, against the reference model; `copy_view` on random views.
#![cfg(feature = "ndarray")]

use crate::common;

use ndarray::{Array, ArrayView, Axis, Dimension, IxDyn, Slice as NdSlice};
use proptest::prelude::*;
use strided_layout::ndarray::copy_view;
use strided_layout::{Layout, LayoutError};

/// A random small layout retyped to `u32` and shifted so that its lowest offset is `pad`
/// (every element lies in a slice of `required_len() + tail` elements).
fn placed<const N: usize>(l: Layout<N>, pad: isize) -> Layout<N> {
    let lo = l.offset_bounds().map_or(0, |(lo, _)| lo);
    Layout::new_of::<u32>(l.shape(), l.strides())
        .and_then(|t| t.with_offset(l.offset() - lo + pad))
        .unwrap()
}

/// ndarray's own test for a mutable view (`dim_stride_overlap`): with the axes sorted by
/// |stride|, each axis of extent >= 2 must step past everything the faster ones reach.
fn ndarray_accepts_mut(shape: &[usize], strides: &[isize]) -> bool {
    if shape.contains(&0) {
        return true;
    }
    let mut axes: Vec<usize> = (0..shape.len()).collect();
    axes.sort_by_key(|&k| strides[k].unsigned_abs());
    let mut reach = 0usize;
    for k in axes {
        if shape[k] >= 2 {
            let s = strides[k].unsigned_abs();
            if s <= reach {
                return false;
            }
            reach += (shape[k] - 1) * s;
        }
    }
    true
}

fn check_round_trip<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError>
where
    ndarray::Dim<[usize; N]>: Dimension,
{
    let l = placed(l, 1);
    let len = l.required_len().unwrap() + 2;
    let buf: Vec<u32> = (0..len as u32).map(|x| x * 7 + 3).collect();
    let view = l.view(&buf).unwrap();
    prop_assert_eq!(view.shape(), &l.shape()[..]);
    if l.volume() > 0 {
        prop_assert_eq!(view.strides(), &l.strides()[..]);
    }
    let dynamic = view.into_dyn();
    for ix in common::indices(&l.shape()) {
        let off = usize::try_from(l.offset_of(ix.clone().try_into().unwrap()).unwrap()).unwrap();
        prop_assert_eq!(dynamic[&ix[..]], buf[off]);
    }
    // And back: the same shape and the same offset at every index.
    let back = Layout::<N>::from_view_in(&view, &buf).unwrap();
    prop_assert_eq!(back.shape(), l.shape());
    prop_assert_eq!(common::offsets(&back), common::offsets(&l));
    if l.volume() > 0 {
        prop_assert_eq!(back, l);
    }
    // A slice one element too short is refused.
    let short = &buf[..l.required_len().unwrap().saturating_sub(1)];
    if l.volume() > 0 {
        prop_assert_eq!(
            l.view(short).err(),
            Some(LayoutError::OffsetOutsideSlice {
                operand: strided_layout::Operand::Source,
                needed: l.required_len().unwrap(),
                given: short.len(),
            })
        );
    }
    Ok(())
}
for_ranks!(view_and_back_match_model, layout, check_round_trip);

fn check_view_mut<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError>
where
    ndarray::Dim<[usize; N]>: Dimension,
{
    let l = placed(l, 0);
    let len = l.required_len().unwrap() + 1;
    let mut buf = vec![0u32; len];
    let accepted = ndarray_accepts_mut(&l.shape(), &l.strides());
    match l.view_mut(&mut buf) {
        Ok(view) => {
            prop_assert!(accepted);
            prop_assert!(l.is_unique());
            let mut dynamic = view.into_dyn();
            let all = common::indices(&l.shape());
            for (n, ix) in all.iter().enumerate() {
                dynamic[&ix[..]] = n as u32 + 1;
            }
            let mut want = vec![0u32; len];
            for (n, ix) in all.iter().enumerate() {
                let off = l.offset_of(ix.clone().try_into().unwrap()).unwrap();
                want[usize::try_from(off).unwrap()] = n as u32 + 1;
            }
            prop_assert_eq!(buf, want);
        }
        Err(e) => {
            prop_assert!(!accepted);
            prop_assert_eq!(e, LayoutError::DestinationNotUnique);
        }
    }
    Ok(())
}
for_ranks!(view_mut_writes_at_layout_offsets, layout, check_view_mut);

/// A random view of a random rank-3 array: per-axis start, end and step (negative steps
/// included), then a permutation of the axes.
/// Shape of the array, per-axis `(start, end, step)`, and the axis permutation.
type ViewSpec = ([usize; 3], [(isize, isize, isize); 3], Vec<usize>);

fn sliced_view() -> impl Strategy<Value = ViewSpec> {
    (
        proptest::array::uniform3(0usize..=5),
        proptest::array::uniform3((
            -5isize..=5,
            -5isize..=5,
            prop_oneof![Just(-3isize), Just(-2), Just(-1), Just(1), Just(2), Just(3)],
        )),
        Just(vec![0usize, 1, 2]).prop_shuffle(),
    )
}

fn make_view<'a>(
    a: &'a Array<i32, ndarray::Ix3>,
    cuts: [(isize, isize, isize); 3],
    perm: &[usize],
) -> ArrayView<'a, i32, ndarray::Ix3> {
    a.slice_each_axis(|ax| {
        let (start, end, step) = cuts[ax.axis.index()];
        let n = ax.len as isize;
        // Clamp to a valid ndarray range (it panics on out-of-range bounds).
        let s = start.clamp(-n, n);
        let e = end.clamp(-n, n);
        let (s0, e0) = (if s < 0 { s + n } else { s }, if e < 0 { e + n } else { e });
        if s0 <= e0 {
            NdSlice::new(s, Some(e), step)
        } else {
            NdSlice::new(0, Some(0), step)
        }
    })
    .permuted_axes([perm[0], perm[1], perm[2]])
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { crate::common::cases(256) }))]

    #[test]
    fn from_view_in_matches_ndarray_indexing((shape, cuts, perm) in sliced_view()) {
        let a = Array::from_shape_vec(shape, (0..shape.iter().product::<usize>() as i32).collect()).unwrap();
        let base = a.as_slice_memory_order().unwrap();
        let view = make_view(&a, cuts, &perm);
        let l = Layout::<3>::from_view_in(&view, base).unwrap();
        for ix in common::indices(&l.shape()) {
            let off = usize::try_from(l.offset_of([ix[0], ix[1], ix[2]]).unwrap()).unwrap();
            prop_assert_eq!(base[off], view[[ix[0], ix[1], ix[2]]]);
        }
        // And back to a view: the same elements, the same strides.
        let again = l.view(base).unwrap();
        prop_assert_eq!(&again, &view);
        if !view.is_empty() {
            prop_assert_eq!(again.strides(), view.strides());
        }
    }

    #[test]
    fn copy_view_copies_every_element((shape, cuts, perm) in sliced_view(),
                                      dst_perm in Just(vec![0usize, 1, 2]).prop_shuffle(),
                                      flip in 0usize..4) {
        let a = Array::from_shape_vec(shape, (0..shape.iter().product::<usize>() as i32).collect()).unwrap();
        let src = make_view(&a, cuts, &perm);
        // A destination of the same shape, stored in another axis order, maybe flipped.
        let sh = src.shape().to_vec();
        let mut b = Array::<i32, _>::from_elem([sh[dst_perm[0]], sh[dst_perm[1]], sh[dst_perm[2]]], -1);
        let mut inv = [0usize; 3];
        for (i, &p) in dst_perm.iter().enumerate() { inv[p] = i; }
        let mut dst = b.view_mut().permuted_axes(inv);
        if flip < 3 { dst.invert_axis(Axis(flip)); }
        copy_view(&src, &mut dst).unwrap();
        prop_assert_eq!(&dst, &src);
        // The same copy of the whole, contiguous source runs the kernel.
        let mut c = Array::<i32, _>::from_elem(a.raw_dim(), -1);
        copy_view(&a.view(), &mut c.view_mut()).unwrap();
        prop_assert_eq!(&c, &a);
    }
}

#[test]
fn copy_view_runs_the_kernel_on_a_transpose() -> Result<(), LayoutError> {
    let a = ndarray::arr2(&[[0u16, 1, 2], [3, 4, 5]]);
    let mut b = Array::<u16, _>::zeros((3, 2));
    copy_view(&a.t(), &mut b.view_mut())?;
    assert_eq!(b, ndarray::arr2(&[[0, 3], [1, 4], [2, 5]]));
    Ok(())
}

#[test]
fn copy_view_rejects_different_shapes() {
    let a = Array::<u8, _>::zeros((2, 3));
    let mut b = Array::<u8, _>::zeros((2, 4));
    assert_eq!(
        copy_view(&a.view(), &mut b.view_mut()),
        Err(LayoutError::ShapeMismatch { axis: 1 })
    );
}

#[test]
fn from_view_in_rejects_views_outside_the_base() {
    let a = Array::<u32, _>::zeros((2, 3));
    let other = vec![0u32; 6];
    let r = Layout::<2>::from_view_in(&a.view(), &other);
    assert!(matches!(
        r,
        Err(LayoutError::NegativeOffset | LayoutError::OffsetOutsideSlice { .. })
    ));
    // A view of the base's second half, against the first half only.
    let base = a.as_slice().unwrap();
    let half = a.slice(ndarray::s![1.., ..]);
    assert_eq!(
        Layout::<2>::from_view_in(&half, &base[..3]),
        Err(LayoutError::OffsetOutsideSlice {
            operand: strided_layout::Operand::Source,
            needed: 6,
            given: 3,
        })
    );
    assert_eq!(
        Layout::<2>::from_view_in(&a.view(), &base[1..]),
        Err(LayoutError::NegativeOffset)
    );
    assert_eq!(
        Layout::<3>::from_view_in(&a.view(), base),
        Err(LayoutError::RankMismatch {
            expected: 3,
            found: 2
        })
    );
}

#[test]
fn from_view_in_applies_the_element_size_rule() {
    let units = Array::from_elem(4, ());
    assert_eq!(
        Layout::<1>::from_view_in(&units.view(), units.as_slice().unwrap()),
        Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: 0 })
    );
    let rgb = Array::from_elem(4, [0u8; 3]);
    assert_eq!(
        Layout::<1>::from_view_in(&rgb.view(), rgb.as_slice().unwrap()),
        Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: 3 })
    );
}

#[test]
fn view_of_a_dynamic_rank_array_works_through_into_dyn() -> Result<(), LayoutError> {
    let l = Layout::new_of::<i64>([2, 2], [-2, 1])?.with_offset(2)?;
    let data = [10i64, 11, 12, 13];
    let v = l.view(&data)?.into_dyn();
    assert_eq!(v[IxDyn(&[0, 0])], 12);
    assert_eq!(v[IxDyn(&[1, 1])], 11);
    Ok(())
}
