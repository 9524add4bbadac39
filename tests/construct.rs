//! Constructors and plain accessors against the reference model.
use crate::common;

use proptest::prelude::*;
use strided_layout::{DynLayout, Layout, LayoutError, Order};

fn accessors_match_model<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    let offs = common::offsets(&l);
    prop_assert_eq!(l.volume(), offs.len());
    prop_assert_eq!(l.ndim(), N);
    prop_assert_eq!(
        l.offset_in_bytes() as i128,
        l.offset() as i128 * l.itemsize() as i128
    );
    for (b, s) in l.strides_in_bytes().iter().zip(l.strides()) {
        prop_assert_eq!(*b as i128, s as i128 * l.itemsize() as i128);
    }
    Ok(())
}
for_ranks!(accessors, layout, accessors_match_model);

fn dense_orders_are_dense<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    for order in [Order::C, Order::F, Order::Perm(l.stride_order())] {
        let d = Layout::dense(l.shape(), l.itemsize(), order).unwrap();
        let mut offs = common::offsets(&d);
        offs.sort_unstable();
        prop_assert_eq!(offs, (0..d.volume() as i128).collect::<Vec<_>>());
    }
    Ok(())
}
for_ranks!(dense, layout, dense_orders_are_dense);

#[test]
fn new_rejects_bad_itemsize() {
    for item in [0, 3, 6, 12] {
        assert_eq!(
            Layout::new([1], [1], item),
            Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: item })
        );
    }
}

#[test]
fn new_keeps_strides_of_extent_one_and_zero_axes() {
    let l = Layout::new([1, 0, 3], [99, -7, 1], 2).unwrap();
    assert_eq!(l.strides(), [99, -7, 1]);
    assert_eq!(l.volume(), 0);
}

#[test]
fn offsets_at_the_edge_of_isize_are_accepted_then_rejected() {
    let max = isize::MAX;
    assert!(Layout::new([2], [max], 1).is_ok());
    assert_eq!(Layout::new([2], [max], 2), Err(LayoutError::OffsetOverflow));
    assert!(Layout::new([1], [max], 1).unwrap().with_offset(0).is_ok());
    assert_eq!(
        Layout::new([2], [max], 1).unwrap().with_offset(1),
        Err(LayoutError::OffsetOverflow)
    );
    assert_eq!(
        Layout::new([2], [-max], 1).unwrap().with_offset(-2),
        Err(LayoutError::OffsetOverflow)
    );
    assert!(Layout::new([2], [-max], 1).unwrap().with_offset(-1).is_ok());
}

#[test]
fn volume_at_the_edge_of_usize() {
    assert_eq!(
        Layout::new([usize::MAX, 2], [0, 0], 1),
        Err(LayoutError::VolumeOverflow)
    );
    assert!(Layout::new([usize::MAX, 1], [0, 0], 1).is_ok());
    assert_eq!(
        Layout::new([usize::MAX, 2, 0], [0, 0, 0], 1).map(|l| l.volume()),
        Ok(0)
    );
}

#[test]
fn dense_rejects_keep_and_bad_permutations() {
    assert_eq!(
        Layout::dense([2, 3], 1, Order::Keep),
        Err(LayoutError::KeepOrderWithoutSource)
    );
    assert_eq!(
        Layout::dense([2, 3], 1, Order::Perm([0, 0])),
        Err(LayoutError::NotAPermutation)
    );
    assert_eq!(
        Layout::dense([2, 3], 1, Order::Perm([0, 2])),
        Err(LayoutError::NotAPermutation)
    );
}

#[test]
fn dense_with_largest_offset_at_isize_max_is_accepted() {
    // volume - 1 == isize::MAX: the last offset fits although the volume does not fit isize.
    let half = 1usize << (usize::BITS - 1);
    let l = Layout::dense([2, half / 2], 1, Order::C).unwrap();
    assert_eq!(l.strides(), [(half / 2) as isize, 1]);
    assert_eq!(
        Layout::dense([2, half / 2], 2, Order::C),
        Err(LayoutError::OffsetOverflow)
    );
}

#[test]
fn from_byte_strides_divides_or_rejects() {
    assert_eq!(
        Layout::from_byte_strides([2, 3], [-24, 8], 8)
            .unwrap()
            .strides(),
        [-3, 1]
    );
    assert_eq!(
        Layout::from_byte_strides([2, 3], [24, 9], 8),
        Err(LayoutError::StrideNotMultipleOfItemsize { axis: 1 })
    );
}

// ---------------------------------------------------------------- the user surface

#[test]
// `1..=-1` is a Python bound (to the end), not an empty Rust range.
#[allow(clippy::reversed_empty_ranges)]
fn slice_from_ranges_is_python_slicing() {
    use strided_layout::Slice;
    assert_eq!(Slice::from(1..3), Slice::new(Some(1), Some(3), 1));
    assert_eq!(Slice::from(-2..), Slice::new(Some(-2), None, 1));
    assert_eq!(Slice::from(..-1), Slice::new(None, Some(-1), 1));
    assert_eq!(Slice::from(..), Slice::FULL);
    assert_eq!(Slice::from(1..=3), Slice::new(Some(1), Some(4), 1));
    assert_eq!(Slice::from(..=2), Slice::new(None, Some(3), 1));
    // An inclusive end of -1 is the last index: to the end, not `:0`.
    assert_eq!(Slice::from(1..=-1), Slice::new(Some(1), None, 1));
    assert_eq!(Slice::from(..=-1), Slice::FULL);
    assert_eq!(Slice::from(..=-2), Slice::new(None, Some(-1), 1));
    assert_eq!(Slice::from(0..=isize::MAX), Slice::new(Some(0), None, 1));
    assert_eq!(Slice::stepped(1..=4, -1), Slice::new(Some(1), Some(5), -1));
    assert_eq!(Slice::stepped(.., -1), Slice::new(None, None, -1));
}

#[test]
fn slice_from_inclusive_range_picks_through_its_end_on_every_small_axis() {
    use strided_layout::Slice;
    for e in 0usize..=5 {
        let l = Layout::new([e], [1], 1).unwrap();
        for a in -7isize..=7 {
            for b in -7isize..=7 {
                // Python's a..=b picks the positions of `a` through `b` (negatives from the end).
                let norm = |i: isize| if i < 0 { i + e as isize } else { i };
                let (lo, hi) = (norm(a).max(0), norm(b).min(e as isize - 1));
                let want: Vec<isize> = (lo..=hi).collect();
                let s = l.sliced([Slice::from(a..=b)]).unwrap();
                let got: Vec<isize> = (0..s.shape()[0])
                    .map(|j| s.offset_of([j]).unwrap())
                    .collect();
                assert_eq!(got, want, "extent {e}, {a}..={b}");
            }
        }
    }
}

#[test]
fn dyn_layout_from_layout_is_infallible_within_max() {
    let l = Layout::dense([2, 3, 4], 4, Order::C)
        .unwrap()
        .with_offset(5)
        .unwrap();
    let d: DynLayout<3> = l.into();
    assert_eq!(Ok(d), DynLayout::<3>::from_layout(&l));
    assert_eq!(d.to_layout::<3>(), Ok(l));
    assert_eq!(d.ndim(), l.ndim());
    let wide = DynLayout::<8>::from(l);
    assert_eq!(
        (wide.shape(), wide.strides(), wide.offset()),
        (&[2, 3, 4][..], &[12, 4, 1][..], 5)
    );
}
