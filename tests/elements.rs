//! Sizes in elements: the typed constructors (`dense_of`, `new_of`) against their itemsize
//! forms, the element-size rule, and `required_len` against the reference model on every
//! layout kind.

use crate::common;

use proptest::prelude::*;
use strided_layout::{
    DynLayout, InterleaveLayout, InterleavedLayout, Layout, LayoutError, Order, const_unwrap,
};

/// What `required_len` must answer, from the enumerated offsets.
fn required_len_model(offs: &[i128]) -> Result<usize, LayoutError> {
    match common::bounds_model(offs) {
        None => Ok(0),
        Some((lo, _)) if lo < 0 => Err(LayoutError::NegativeOffset),
        Some((_, hi)) => Ok(usize::try_from(hi + 1).unwrap()),
    }
}

fn check_layout<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    let want = required_len_model(&common::offsets(&l));
    prop_assert_eq!(l.required_len(), want);
    if let Ok(n) = want {
        prop_assert_eq!(l.required_size_in_bytes(), Ok(n * l.itemsize()));
    }
    // The same layout with a run-time rank answers the same.
    let d = DynLayout::<N>::from_layout(&l).unwrap();
    prop_assert_eq!(d.required_len(), want);
    // And as a rank-(N + 1) interleaved layout with factor 1 (the plain strided form).
    let il = InterleavedLayout::<N>::new(l.shape(), l.strides(), l.itemsize(), {
        match InterleaveLayout::new(0, 1) {
            Ok(il) if N > 0 => il,
            _ => return Ok(()),
        }
    })
    .and_then(|x| x.with_offset(l.offset()))
    .unwrap();
    prop_assert_eq!(il.required_len(), want);
    Ok(())
}
for_ranks!(required_len_matches_model, layout, check_layout);

/// Small interleaved layouts: extents 0..=6, strides -6..=6, offset -40..=40, factor 1..=4.
fn interleaved<const N: usize>() -> impl Strategy<Value = InterleavedLayout<N>> {
    (
        common::parts::<N>(),
        proptest::array::uniform::<_, N>(0usize..=6),
        0..N,
        1usize..=4,
    )
        .prop_map(|((_, st, off, item), sh, d, f)| {
            InterleavedLayout::new(sh, st, item, InterleaveLayout::new(d, f).unwrap())
                .and_then(|l| l.with_offset(off))
                .expect("small interleaved layouts are valid")
        })
}

/// CoreAI's formula, enumerated: `offset + (i_d / f) s_d + i_d % f + Σ_{k != d} i_k s_k`.
fn interleaved_offsets<const N: usize>(l: &InterleavedLayout<N>) -> Vec<i128> {
    let (d, f) = (l.interleave().dimension(), l.interleave().factor());
    let st = l.strides();
    common::indices(&l.shape())
        .iter()
        .map(|ix| {
            let mut o = l.offset() as i128;
            for (k, &i) in ix.iter().enumerate() {
                o += if k == d {
                    (i / f) as i128 * st[k] as i128 + (i % f) as i128
                } else {
                    i as i128 * st[k] as i128
                };
            }
            o
        })
        .collect()
}

fn check_interleaved<const N: usize>(l: InterleavedLayout<N>) -> Result<(), TestCaseError> {
    let want = required_len_model(&interleaved_offsets(&l));
    prop_assert_eq!(l.required_len(), want);
    if let Ok(n) = want {
        prop_assert_eq!(l.required_size_in_bytes(), Ok(n * l.itemsize()));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::common::cases(256)))]
    #[test] fn interleaved_required_len_matches_model_rank1(l in interleaved::<1>()) { check_interleaved(l)?; }
    #[test] fn interleaved_required_len_matches_model_rank2(l in interleaved::<2>()) { check_interleaved(l)?; }
    #[test] fn interleaved_required_len_matches_model_rank3(l in interleaved::<3>()) { check_interleaved(l)?; }
    #[test] fn interleaved_required_len_matches_model_rank4(l in interleaved::<4>()) { check_interleaved(l)?; }

    #[test]
    fn typed_constructors_equal_itemsize_forms(
        shape in proptest::array::uniform::<_, 3>(0usize..=4),
        strides in proptest::array::uniform::<_, 3>(-6isize..=6),
        d in 0..3usize,
        f in 1usize..=4,
    ) {
        prop_assert_eq!(Layout::dense_of::<u8>(shape, Order::C), Layout::dense(shape, 1, Order::C));
        prop_assert_eq!(Layout::dense_of::<i16>(shape, Order::F), Layout::dense(shape, 2, Order::F));
        prop_assert_eq!(Layout::new_of::<f32>(shape, strides), Layout::new(shape, strides, 4));
        prop_assert_eq!(Layout::new_of::<u64>(shape, strides), Layout::new(shape, strides, 8));
        prop_assert_eq!(Layout::new_of::<u128>(shape, strides), Layout::new(shape, strides, 16));
        let il = InterleaveLayout::new(d, f).unwrap();
        prop_assert_eq!(InterleavedLayout::dense_of::<i16>(shape, il), InterleavedLayout::dense(shape, 2, il));
        prop_assert_eq!(InterleavedLayout::new_of::<[u8; 4]>(shape, strides, il), InterleavedLayout::new(shape, strides, 4, il));
    }
}

#[test]
fn typed_constructors_reject_zero_sized_and_non_power_of_two_elements() {
    fn rule<T>(itemsize: usize) -> Result<T, LayoutError> {
        Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize })
    }
    let il = InterleaveLayout::new(0, 2).unwrap();
    assert_eq!(Layout::dense_of::<()>([2, 3], Order::C), rule(0));
    assert_eq!(Layout::dense_of::<[u8; 3]>([2, 3], Order::C), rule(3));
    assert_eq!(Layout::new_of::<[f32; 3]>([2, 3], [3, 1]), rule(12));
    assert_eq!(Layout::new_of::<[u8; 0]>([2], [1]), rule(0));
    assert_eq!(InterleavedLayout::dense_of::<[u8; 3]>([2, 3], il), rule(3));
    assert_eq!(InterleavedLayout::new_of::<()>([2, 3], [6, 2], il), rule(0));
    // The interleave's axis is checked first, as in `dense` and `new`.
    let far = InterleaveLayout::new(5, 2).unwrap();
    assert_eq!(
        InterleavedLayout::dense_of::<[u8; 3]>([2, 3], far),
        Err(LayoutError::AxisOutOfRange { axis: 5, ndim: 2 })
    );
}

#[test]
fn rgb_pixels_become_a_u8_layout_with_a_channel_axis() -> Result<(), LayoutError> {
    let pixels: Vec<[u8; 3]> = (0..6u8).map(|p| [p, 10 + p, 20 + p]).collect();
    let hwc = Layout::dense_of::<u8>([2, 3, 3], Order::C)?;
    assert_eq!(hwc.required_len()?, pixels.as_flattened().len());
    // The green plane, gathered through the channel axis.
    let green = hwc.selected::<2>(2, 1)?;
    let mut plane = [0u8; 6];
    strided_layout::copy(
        pixels.as_flattened(),
        &green,
        &mut plane,
        &Layout::dense_of::<u8>([2, 3], Order::C)?,
    )?;
    assert_eq!(plane, [10, 11, 12, 13, 14, 15]);
    Ok(())
}

#[test]
fn required_len_is_what_the_kernels_accept() -> Result<(), LayoutError> {
    let l = Layout::dense_of::<i16>([2, 3], Order::C)?
        .transposed(0, 1)?
        .with_offset(4)?;
    let n = l.required_len()?;
    assert_eq!(n, 10);
    let src = [7i16; 10];
    let mut dst = [0i16; 6];
    let dense = Layout::dense_of::<i16>([3, 2], Order::C)?;
    strided_layout::copy(&src[..n], &l, &mut dst, &dense)?;
    assert!(strided_layout::copy(&src[..n - 1], &l, &mut dst, &dense).is_err());
    Ok(())
}

// Typed constructors and `required_len` are `const fn`.
const STEREO: InterleavedLayout<2> = const_unwrap(InterleavedLayout::dense_of::<i16>(
    [2, 256],
    const_unwrap(InterleaveLayout::new(0, 2)),
));
const PLANAR: Layout<2> = const_unwrap(Layout::dense_of::<i16>([2, 256], Order::C));
const COLUMN_MAJOR: Layout<2> = const_unwrap(Layout::new_of::<f32>([4, 3], [1, 4]));
const _: () = assert!(matches!(STEREO.required_len(), Ok(512)));
const _: () = assert!(matches!(PLANAR.required_len(), Ok(512)));
const _: () = assert!(matches!(COLUMN_MAJOR.required_len(), Ok(12)));
const _: () = assert!(STEREO.itemsize() == 2 && COLUMN_MAJOR.itemsize() == 4);

#[test]
fn const_typed_layouts_match_runtime_ones() -> Result<(), LayoutError> {
    assert_eq!(
        STEREO,
        InterleavedLayout::dense([2, 256], 2, InterleaveLayout::new(0, 2)?)?
    );
    assert_eq!(PLANAR, Layout::dense([2, 256], 2, Order::C)?);
    assert_eq!(COLUMN_MAJOR, Layout::new([4, 3], [1, 4], 4)?);
    Ok(())
}
