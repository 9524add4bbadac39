//! DLPack interop (feature `dlpack`): round trips through `DlpackView` and raw `DLTensor`s,
//! C-contiguous null strides, and every rejection by name.
//!
//! The one `unsafe fn` (`DlpackView::from_tensor`) runs under Miri:
//! `PROPTEST_CASES=4 cargo +nightly miri test --features dlpack --test suite -- dlpack::`.
#![cfg(feature = "dlpack")]

use strided_layout::dlpack::{DLDataType, DLDevice, DLTensor, DlpackError, DlpackView};
use strided_layout::{DynLayout, Layout, LayoutError, Order};

const F32: DLDataType = DLDataType {
    code: DLDataType::FLOAT,
    bits: 32,
    lanes: 1,
};

/// A dtype of `itemsize` bytes (bytes as lanes of u8).
fn dtype(itemsize: usize) -> DLDataType {
    DLDataType {
        code: DLDataType::UINT,
        bits: 8,
        lanes: itemsize as u16,
    }
}

fn view<'a>(shape: &'a [i64], strides: Option<&'a [i64]>, byte_offset: u64) -> DlpackView<'a> {
    DlpackView {
        shape,
        strides,
        byte_offset,
        dtype: F32,
    }
}

fn cpu() -> DLDevice {
    DLDevice {
        device_type: DLDevice::CPU,
        device_id: 0,
    }
}

#[test]
fn to_layout_reads_element_strides_and_byte_offset() {
    let l: Layout<2> = view(&[2, 3], Some(&[1, 2]), 8).to_layout().unwrap();
    assert_eq!(
        (l.shape(), l.strides(), l.offset(), l.itemsize()),
        ([2, 3], [1, 2], 2, 4)
    );
    assert_eq!(l.offset_of([1, 2]).unwrap(), 7);
}

#[test]
fn null_strides_mean_c_contiguous() {
    let l: Layout<3> = view(&[3, 4, 5], None, 0).to_layout().unwrap();
    assert_eq!(l, Layout::dense([3, 4, 5], 4, Order::C).unwrap());
    let d: DynLayout<4> = view(&[3, 4, 5], None, 0).to_dyn_layout().unwrap();
    assert_eq!(d.strides(), &[20, 5, 1]);
    // An empty C-contiguous tensor is fine too.
    let e: Layout<2> = view(&[0, 7], None, 0).to_layout().unwrap();
    assert_eq!(e.volume(), 0);
}

#[test]
fn to_layout_rejects_a_dtype_of_no_whole_bytes() {
    for (bits, lanes) in [(0, 1), (4, 1), (1, 4), (8, 0)] {
        let dt = DLDataType {
            code: 0,
            bits,
            lanes,
        };
        let v = DlpackView {
            dtype: dt,
            ..view(&[2], None, 0)
        };
        assert_eq!(
            v.to_layout::<1>(),
            Err(DlpackError::DtypeInvalid),
            "{bits} x {lanes}"
        );
    }
    // 4 bits x 2 lanes is one byte: accepted.
    let dt = DLDataType {
        code: 0,
        bits: 4,
        lanes: 2,
    };
    let v = DlpackView {
        dtype: dt,
        ..view(&[2], None, 0)
    };
    assert_eq!(v.to_layout::<1>().unwrap().itemsize(), 1);
}

#[test]
fn to_layout_rejects_an_itemsize_that_is_not_a_power_of_two() {
    let rgb = DLDataType {
        code: DLDataType::FLOAT,
        bits: 32,
        lanes: 3,
    };
    let v = DlpackView {
        dtype: rgb,
        ..view(&[2], None, 0)
    };
    assert_eq!(
        v.to_layout::<1>(),
        Err(DlpackError::Layout(LayoutError::ItemsizeNotPowerOfTwo {
            itemsize: 12
        }))
    );
}

#[test]
fn to_layout_rejects_a_byte_offset_that_is_not_a_multiple_of_the_itemsize() {
    assert_eq!(
        view(&[2], None, 6).to_layout::<1>(),
        Err(DlpackError::ByteOffsetNotMultiple)
    );
    assert_eq!(
        view(&[2], None, 6).to_dyn_layout::<2>(),
        Err(DlpackError::ByteOffsetNotMultiple)
    );
}

#[test]
fn to_layout_rejects_another_rank_or_strides_of_another_length() {
    assert_eq!(
        view(&[2, 3], None, 0).to_layout::<3>(),
        Err(DlpackError::Layout(LayoutError::RankMismatch {
            expected: 3,
            found: 2
        }))
    );
    assert_eq!(
        view(&[2, 3], Some(&[1]), 0).to_layout::<2>(),
        Err(DlpackError::Layout(LayoutError::RankMismatch {
            expected: 2,
            found: 1
        }))
    );
}

#[test]
fn to_dyn_layout_rejects_a_rank_above_its_bound() {
    assert_eq!(
        view(&[1, 2, 3], None, 0).to_dyn_layout::<2>(),
        Err(DlpackError::Layout(LayoutError::RankOverflow { max: 2 }))
    );
}

#[test]
fn to_layout_rejects_a_negative_extent() {
    assert_eq!(
        view(&[2, -1], None, 0).to_layout::<2>(),
        Err(DlpackError::Layout(LayoutError::ExtentInvalid { axis: 1 }))
    );
}

#[test]
fn to_layout_rejects_offsets_beyond_isize() {
    // Strides whose offsets leave isize (invariant 3 of Layout).
    assert_eq!(
        view(&[3], Some(&[i64::MAX]), 0).to_layout::<1>(),
        Err(DlpackError::Layout(LayoutError::OffsetOverflow))
    );
    // A C-contiguous shape whose volume leaves usize.
    assert!(view(&[1 << 40, 1 << 40], None, 0).to_layout::<2>().is_err());
    // A byte offset beyond isize.
    assert_eq!(
        view(&[1], None, u64::MAX - 3).to_layout::<1>(),
        Err(DlpackError::Layout(LayoutError::OffsetOverflow))
    );
}

#[test]
fn from_layout_rejects_a_dtype_of_another_size() {
    let l = Layout::dense([2, 3], 4, Order::C).unwrap();
    let (mut sh, mut st) = ([0; 2], [0; 2]);
    assert_eq!(
        DlpackView::from_layout(&l, dtype(8), &mut sh, &mut st),
        Err(DlpackError::DtypeSizeMismatch {
            expected: 4,
            found: 8
        })
    );
}

#[test]
fn from_layout_rejects_a_negative_offset() {
    let l = Layout::new([3], [1], 4).unwrap().with_offset(-1).unwrap();
    let (mut sh, mut st) = ([0; 1], [0; 1]);
    assert_eq!(
        DlpackView::from_layout(&l, F32, &mut sh, &mut st),
        Err(DlpackError::Layout(LayoutError::NegativeOffset))
    );
}

#[test]
fn from_dyn_layout_rejects_buffers_shorter_than_the_rank() {
    let d = DynLayout::<4>::new(&[2, 2, 2], &[4, 2, 1], 4).unwrap();
    let (mut sh, mut st) = ([0; 2], [0; 4]);
    assert_eq!(
        DlpackView::from_dyn_layout(&d, F32, &mut sh, &mut st),
        Err(DlpackError::Layout(LayoutError::RankOverflow { max: 2 }))
    );
}

/// A raw `DLTensor` over `shape` / `strides`, as a C producer would hand it over.
fn raw(shape: &mut [i64], strides: Option<&mut [i64]>, byte_offset: u64) -> DLTensor {
    DLTensor {
        data: core::ptr::null_mut(),
        device: cpu(),
        ndim: shape.len() as i32,
        dtype: F32,
        shape: shape.as_mut_ptr(),
        strides: strides.map_or(core::ptr::null_mut(), |s| s.as_mut_ptr()),
        byte_offset,
    }
}

#[test]
fn from_tensor_reads_shape_strides_and_null_strides() {
    let (mut shape, mut strides) = ([4i64, 5, 6], [1i64, 4, 20]);
    let t = raw(&mut shape, Some(&mut strides), 12);
    // SAFETY: shape and strides hold ndim = 3 values each and outlive the view.
    let v = unsafe { DlpackView::from_tensor(&t) }.unwrap();
    assert_eq!(
        (v.shape, v.strides, v.byte_offset),
        (&[4, 5, 6][..], Some(&[1, 4, 20][..]), 12)
    );
    assert_eq!(v.to_layout::<3>().unwrap().offset(), 3);
    let t = raw(&mut shape, None, 0);
    // SAFETY: as above; strides are null.
    let v = unsafe { DlpackView::from_tensor(&t) }.unwrap();
    assert_eq!(v.strides, None);
    assert_eq!(v.to_layout::<3>().unwrap().strides(), [30, 6, 1]);
}

#[test]
fn from_tensor_of_rank_0_reads_no_pointer() {
    let t = DLTensor {
        ndim: 0,
        shape: core::ptr::null_mut(),
        strides: core::ptr::null_mut(),
        ..raw(&mut [], None, 8)
    };
    // SAFETY: ndim = 0: no pointer is read.
    let v = unsafe { DlpackView::from_tensor(&t) }.unwrap();
    assert_eq!(v.to_layout::<0>().unwrap().offset(), 2);
}

#[test]
fn from_tensor_rejects_a_null_shape_or_negative_ndim() {
    let t = DLTensor {
        ndim: 2,
        shape: core::ptr::null_mut(),
        ..raw(&mut [], None, 0)
    };
    // SAFETY: the null shape is detected before any read.
    assert_eq!(
        unsafe { DlpackView::from_tensor(&t) },
        Err(DlpackError::ShapeUnreadable)
    );
    let t = DLTensor { ndim: -1, ..t };
    // SAFETY: negative ndim is detected before any read.
    assert_eq!(
        unsafe { DlpackView::from_tensor(&t) },
        Err(DlpackError::ShapeUnreadable)
    );
}

#[test]
fn to_tensor_points_at_the_view_buffers() {
    let l = Layout::dense([2, 3], 4, Order::F)
        .unwrap()
        .with_offset(5)
        .unwrap();
    let (mut sh, mut st) = ([0; 2], [0; 2]);
    let v = DlpackView::from_layout(&l, F32, &mut sh, &mut st).unwrap();
    let mut data = [0f32; 16];
    let t = v.to_tensor(data.as_mut_ptr().cast(), cpu()).unwrap();
    assert_eq!((t.ndim, t.byte_offset, t.dtype), (2, 20, F32));
    // SAFETY: the tensor's pointers are the view's buffers, alive here.
    let back = unsafe { DlpackView::from_tensor(&t) }.unwrap();
    assert_eq!(back.to_layout::<2>().unwrap(), l);
}

// Not under Miri: proptest's fixed cost there is large; the tests above cover the unsafe path.
#[cfg(not(miri))]
mod round_trip {
    use super::*;
    use crate::common;
    use proptest::prelude::*;

    /// Layout -> view -> Layout is the identity for a non-negative offset, and refused with
    /// `NegativeOffset` otherwise; the same through a raw `DLTensor` and through `DynLayout`.
    fn round_trips<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
        let dt = dtype(l.itemsize());
        let (mut sh, mut st) = ([0i64; N], [0i64; N]);
        let v = DlpackView::from_layout(&l, dt, &mut sh, &mut st);
        if l.offset() < 0 {
            prop_assert_eq!(v, Err(DlpackError::Layout(LayoutError::NegativeOffset)));
            return Ok(());
        }
        let v = v.unwrap();
        prop_assert_eq!(v.to_layout::<N>(), Ok(l));
        let t = v.to_tensor(core::ptr::null_mut(), cpu()).unwrap();
        // SAFETY: the tensor points at `sh` / `st`, alive for this scope.
        let back = unsafe { DlpackView::from_tensor(&t) }.unwrap();
        prop_assert_eq!(back.to_layout::<N>(), Ok(l));
        let d: DynLayout<6> = back.to_dyn_layout().unwrap();
        prop_assert_eq!(d.shape(), &l.shape()[..]);
        prop_assert_eq!(d.strides(), &l.strides()[..]);
        prop_assert_eq!((d.offset(), d.itemsize()), (l.offset(), l.itemsize()));
        let (mut sh2, mut st2) = ([0i64; 6], [0i64; 6]);
        let v2 = DlpackView::from_dyn_layout(&d, dt, &mut sh2, &mut st2).unwrap();
        prop_assert_eq!(v2.to_layout::<N>(), Ok(l));
        // Dense C layouts with elements also survive as null strides (an empty one may get
        // other strides: they never reach an offset).
        let dense = Layout::dense(l.shape(), l.itemsize(), Order::C)
            .and_then(|c| c.with_offset(l.offset()))
            .unwrap();
        if dense == l && l.volume() > 0 {
            let c = DlpackView { strides: None, ..v };
            prop_assert_eq!(c.to_layout::<N>(), Ok(l));
        }
        Ok(())
    }

    for_ranks!(dlpack_round_trips_every_layout, layout, round_trips);
}

/// A nested layout has a DLPack view exactly where every top-level mode is a leaf: the view
/// of its flat layout; a blocked or cut mode is refused by name, as is another rank.
#[test]
fn nested_layouts_have_a_view_only_where_no_mode_is_blocked() {
    use strided_layout::nested::NestedLayout;
    for tag in ["nchw", "nhwc", "chwn", "nChw8c", "nChw16c"] {
        let n = NestedLayout::<8>::onednn(tag, &[2, 20, 3, 2], 4).unwrap();
        let (mut shape, mut strides) = ([0; 4], [0; 4]);
        let got = DlpackView::from_nested(&n, F32, &mut shape, &mut strides);
        match n.to_layout::<4>() {
            Ok(flat) => {
                let v = got.unwrap();
                assert_eq!(v.to_layout::<4>().unwrap(), flat, "{tag}");
                assert_eq!(v.shape, &[2, 20, 3, 2][..], "{tag}");
            }
            Err(_) => assert_eq!(got.map(|_| ()), Err(DlpackError::Blocked { mode: 1 }), "{tag}"),
        }
    }
    let n = NestedLayout::<8>::onednn("nchw", &[2, 20, 3, 2], 4).unwrap();
    let (mut shape, mut strides) = ([0; 3], [0; 3]);
    assert_eq!(
        DlpackView::from_nested(&n, F32, &mut shape, &mut strides).map(|_| ()),
        Err(DlpackError::Layout(LayoutError::RankMismatch {
            expected: 3,
            found: 4
        }))
    );
    let cut: NestedLayout<8> = "(4,3)|10:(1,4)".parse().unwrap();
    let (mut shape, mut strides) = ([0; 2], [0; 2]);
    assert!(matches!(
        DlpackView::from_nested(&cut, F32, &mut shape, &mut strides),
        Err(DlpackError::Blocked { .. })
    ));
    assert_eq!(
        DlpackError::Blocked { mode: 1 }.to_string(),
        "a blocked mode has no DLPack form (one extent and stride an axis) (mode 1)"
    );
}
