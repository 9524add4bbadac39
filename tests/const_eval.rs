//! Layouts built and checked in `const` items (mdspan `compilation_tests` style).
//!
//! Each `const` below is evaluated by the compiler; `const_assert!` turns a wrong value into
//! a build error. So "this is a `const fn`" is tested, not claimed: if a constructor, query
//! or transform stops being `const`, this file stops compiling. Add one block per new
//! `const fn`.
//!
//! Arrays cannot be compared with `==` in a const context on stable, hence `eq_u`/`eq_i`.

use static_assertions::const_assert;
use strided_layout::{Layout, LayoutError, Order, const_unwrap};

/// Defines `const fn $name(a: &[$t], b: &[$t]) -> bool`, slice equality in a const context.
macro_rules! const_slice_eq {
    ($name:ident, $t:ty) => {
        const fn $name(a: &[$t], b: &[$t]) -> bool {
            if a.len() != b.len() {
                return false;
            }
            let mut i = 0;
            while i < a.len() {
                if a[i] != b[i] {
                    return false;
                }
                i += 1;
            }
            true
        }
    };
}
const_slice_eq!(eq_u, usize);
const_slice_eq!(eq_i, isize);
const_slice_eq!(eq_bytes, u8);

/// `a == b` for `&str` in a const context.
const fn eq_str(a: &str, b: &str) -> bool {
    eq_bytes(a.as_bytes(), b.as_bytes())
}

/// Whether a const-evaluated result is the given error.
const fn is_err(r: &Result<Layout<2>, LayoutError>, msg: &str) -> bool {
    match r {
        Ok(_) => false,
        Err(e) => eq_str(e.as_str(), msg),
    }
}

// The design's first example: a dense 8-bit CHW image.
const IMG: Layout<3> = const_unwrap(Layout::dense([3, 480, 640], 1, Order::C));
const_assert!(eq_u(&IMG.shape(), &[3, 480, 640]));
const_assert!(eq_i(&IMG.strides(), &[480 * 640, 640, 1]));
const_assert!(IMG.volume() == 3 * 480 * 640);
const_assert!(IMG.ndim() == 3 && IMG.itemsize() == 1 && IMG.offset() == 0);
const_assert!(eq_u(&IMG.stride_order(), &[0, 1, 2]));

// Column-major and permuted dense orders.
const F: Layout<3> = const_unwrap(Layout::dense([2, 3, 4], 4, Order::F));
const_assert!(eq_i(&F.strides(), &[1, 2, 6]));
const_assert!(eq_u(&F.stride_order(), &[2, 1, 0]));
const_assert!(eq_i(&F.strides_in_bytes(), &[4, 8, 24]));
const P: Layout<3> = const_unwrap(Layout::dense([2, 3, 4], 1, Order::Perm([1, 2, 0])));
const_assert!(eq_i(&P.strides(), &[1, 8, 2]));
const_assert!(eq_u(&P.stride_order(), &[1, 2, 0]));

// `new` keeps strides as given, including negative and zero ones; `with_offset` sets the offset.
const NEG: Layout<2> = const_unwrap(Layout::new([2, 3], [-3, 0], 8));
const_assert!(eq_i(&NEG.strides(), &[-3, 0]));
const SHIFTED: Layout<2> = const_unwrap(NEG.with_offset(3));
const_assert!(SHIFTED.offset() == 3 && SHIFTED.offset_in_bytes() == 24);
const_assert!(const_unwrap(SHIFTED.with_offset(5)).offset() == 5);

// Byte strides convert to element strides.
const BYTES: Layout<2> = const_unwrap(Layout::from_byte_strides([2, 3], [24, 8], 8));
const_assert!(eq_i(&BYTES.strides(), &[3, 1]));

// Rank 0: one element, volume 1; an extent-0 axis gives volume 0.
const SCALAR: Layout<0> = const_unwrap(Layout::dense([], 2, Order::C));
const_assert!(SCALAR.volume() == 1 && SCALAR.ndim() == 0);
const EMPTY: Layout<2> = const_unwrap(Layout::dense([0, 5], 4, Order::C));
const_assert!(EMPTY.volume() == 0);

// Errors are values in const context too, with a const message.
const_assert!(is_err(
    &Layout::new([2, 3], [3, 1], 3),
    "itemsize is not a power of two"
));
const_assert!(is_err(
    &Layout::new([usize::MAX, 2], [0, 0], 1),
    LayoutError::VolumeOverflow.as_str()
));
const_assert!(is_err(
    &Layout::new([2, 2], [isize::MAX, 1], 1),
    LayoutError::OffsetOverflow.as_str()
));
const_assert!(is_err(
    &Layout::dense([2, 2], 1, Order::Keep),
    LayoutError::KeepOrderWithoutSource.as_str()
));
const_assert!(is_err(
    &Layout::dense([2, 2], 1, Order::Perm([0, 0])),
    LayoutError::NotAPermutation.as_str()
));

#[test]
fn const_items_evaluate_to_the_asserted_values() {
    // The assertions above ran at compile time; re-check two at run time against plain math
    // so the file also reports a test result.
    assert_eq!(IMG.strides(), [480 * 640, 640, 1]);
    assert_eq!(
        Layout::new([2, 3], [3, 1], 3),
        Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: 3 })
    );
}

/// A realistic case (a camera frame) and the rank changes, in `const` items.
mod rank_changes {
    use static_assertions::const_assert;
    use strided_layout::{DynLayout, Layout, LayoutError, Order, const_layout, const_unwrap};

    // The realistic case: a planar image, viewed as HWC, split into 16-row tiles.
    const CHW: Layout<3> = const_unwrap(Layout::dense([3, 480, 640], 1, Order::C));
    const HWC: Layout<3> = const_unwrap(CHW.permuted([1, 2, 0]));
    const TILES: Layout<4> = const_unwrap(HWC.split_axis(0, 16));
    const_assert!(CHW.is_contiguous_c());
    const_assert!(!HWC.is_contiguous_c() && HWC.is_contiguous_any());
    const_assert!(TILES.volume() == CHW.volume());
    const_assert!(TILES.shape()[0] == 30 && TILES.shape()[1] == 16);
    const_assert!(TILES.strides()[0] == 16 * 640 && TILES.strides()[3] == 480 * 640);
    const_assert!(match TILES.required_size_in_bytes() {
        Ok(n) => n == 3 * 480 * 640,
        Err(_) => false,
    });

    // Rank changes in const items.
    const ROW: Layout<2> = const_unwrap(CHW.selected(0, 2));
    const_assert!(ROW.offset() == 2 * 480 * 640);
    const BATCH: Layout<4> = const_unwrap(CHW.unsqueezed(0));
    const_assert!(BATCH.shape()[0] == 1 && BATCH.is_contiguous_c());
    const FLAT: Layout<1> = const_unwrap(CHW.reshaped([-1]));
    const_assert!(FLAT.shape()[0] == 921_600);
    const SQUEEZED: DynLayout<4> = BATCH.squeezed();
    const_assert!(SQUEEZED.ndim() == 3);
    const BACK: Layout<3> = const_unwrap(SQUEEZED.to_layout());
    const_assert!(BACK.strides()[2] == 1);
    const NEEDS_COPY: bool = matches!(HWC.reshaped([-1]), Err(LayoutError::NeedsCopy { .. }));
    const_assert!(NEEDS_COPY);
    const MSG: &str = LayoutError::VolumeMismatch.as_str();
    const_assert!(!MSG.is_empty());

    #[test]
    fn const_layouts_match_their_runtime_twins() {
        let chw = Layout::dense([3, 480, 640], 1, Order::C).unwrap();
        assert_eq!(CHW, chw);
        assert_eq!(
            TILES,
            chw.permuted([1, 2, 0]).unwrap().split_axis(0, 16).unwrap()
        );
        assert_eq!(
            const_layout!(Layout::dense([2, 2], 8, Order::F)).strides(),
            [1, 2]
        );
    }
}

/// The user surface (byte helpers and the rest) is `const fn` too: byte helpers, `normalized_axis`, and
/// `DynLayout`'s transforms, evaluated in `const` items.
mod surface {
    use static_assertions::const_assert;
    use strided_layout::{DynLayout, Layout, Order, Slice, const_unwrap};

    const M: Layout<2> = const_unwrap(Layout::dense([2, 3], 4, Order::C));
    const R: Layout<2> = const_unwrap(M.flipped(0));
    const_assert!(matches!(R.byte_span(), Some((0, 23))));
    const_assert!(matches!(M.offset_of_in_bytes([1, 2]), Ok(20)));
    const_assert!(!M.is_empty());
    const_assert!(matches!(M.normalized_axis(-1), Ok(1)));

    const D: DynLayout<4> = const_unwrap(DynLayout::new(&[2, 3], &[3, 1], 4));
    const DT: DynLayout<4> = const_unwrap(const_unwrap(D.permuted(&[1, 0])).flipped(1));
    const_assert!(DT.strides()[0] == 1 && DT.strides()[1] == -3 && DT.offset() == 3);
    const DS: DynLayout<4> = const_unwrap(D.sliced(&[Slice::FULL, Slice::new(None, None, -1)]));
    const_assert!(DS.offset() == 2 && DS.offset_in_bytes() == 8);
    const DN: DynLayout<4> = const_unwrap(const_unwrap(D.narrowed(1, 1, 2)).transposed(0, 1));
    const_assert!(DN.shape()[0] == 2 && DN.offset() == 1);
    const_assert!(D.overlaps(&DN) && !D.is_empty());
    const_assert!(matches!(D.byte_span(), Some((0, 23))));
    const_assert!(matches!(D.offset_of_in_bytes(&[1, 1]), Ok(16)));
}

// --- KernelLayout: packed for the device at compile time ---------------------------------

/// A rank-3 `i32` kernel parameter of a flipped, permuted CHW view, packed by the compiler.
const KERNEL_HWC: strided_layout::gpu::KernelLayout<i32, 3> = {
    let chw = const_unwrap(Layout::dense([3, 480, 640], 4, Order::C));
    let hwc = const_unwrap(const_unwrap(chw.permuted([1, 2, 0])).flipped(1));
    match strided_layout::gpu::KernelLayout::<i32, 3>::from_layout(&hwc) {
        Ok(k) => k,
        Err(_) => panic!("the view fits i32"),
    }
};
const_assert!(KERNEL_HWC.extents()[0] == 480 && KERNEL_HWC.extents()[2] == 3);
const_assert!(KERNEL_HWC.strides()[1] == -1 && KERNEL_HWC.offset() == 639);

/// An interleaved one (oneDNN's nChw8c), and a layout too large for `i16`, at compile time.
const KERNEL_BLOCKED: strided_layout::gpu::KernelLayout<u32, 4> = {
    let il = const_unwrap(strided_layout::InterleaveLayout::new(1, 8));
    match strided_layout::gpu::KernelLayout::<u32, 4>::from_interleaved(&const_unwrap(
        strided_layout::InterleavedLayout::dense([1, 20, 4, 4], 4, il),
    )) {
        Ok(k) => k,
        Err(_) => panic!("fits u32"),
    }
};
const_assert!(KERNEL_BLOCKED.extents()[1] == 20 && KERNEL_BLOCKED.strides()[1] == 128);
const_assert!(matches!(
    strided_layout::gpu::KernelLayout::<i16, 2>::from_layout(&const_unwrap(Layout::dense(
        [300, 300],
        4,
        Order::C
    ))),
    Err(LayoutError::IndexTypeOverflow)
));

#[test]
fn kernel_layouts_packed_at_compile_time_match_the_run_time_packing() {
    let chw = Layout::dense([3, 480, 640], 4, Order::C).unwrap();
    let hwc = chw.permuted([1, 2, 0]).unwrap().flipped(1).unwrap();
    assert_eq!(
        KERNEL_HWC,
        strided_layout::gpu::KernelLayout::try_from(&hwc).unwrap()
    );
    assert_eq!(
        KERNEL_HWC.offset_of_linear(3 * 640),
        hwc.offset_of([1, 0, 0]).unwrap() as i32
    );
}

// --- const_chain!: fallible transforms chained in a const item ---------------------------

/// Three steps, each a `const fn` returning a `Result`.
const CHAINED: Layout<2> = const_unwrap(strided_layout::const_chain!(
    Layout::dense([4, 6], 4, Order::C) => transposed(0, 1) => flipped(0) => with_offset(5),
));
const_assert!(eq_u(&CHAINED.shape(), &[6, 4]));
const_assert!(eq_i(&CHAINED.strides(), &[-1, 6]));

/// The first failing step is the result; the later steps do not run.
const CHAIN_ERR: Result<Layout<2>, LayoutError> = strided_layout::const_chain!(
    Layout::dense([4, 6], 4, Order::C) => transposed(0, 2) => flipped(7)
);
const_assert!(matches!(
    CHAIN_ERR,
    Err(LayoutError::AxisOutOfRange { axis: 2, ndim: 2 })
));

#[test]
fn const_chain_is_the_steps_one_by_one() {
    let by_hand = Layout::dense([4, 6], 4, Order::C)
        .and_then(|l| l.transposed(0, 1))
        .and_then(|l| l.flipped(0))
        .and_then(|l| l.with_offset(5));
    assert_eq!(Ok(CHAINED), by_hand);
    // At run time too (no const needed), and a start with no step is the start.
    let start = strided_layout::const_chain!(Layout::dense([4, 6], 4, Order::C));
    assert_eq!(start, Layout::dense([4, 6], 4, Order::C));
    assert_eq!(
        CHAIN_ERR,
        Layout::dense([4, 6], 4, Order::C).and_then(|l| l.transposed(0, 2))
    );
}
