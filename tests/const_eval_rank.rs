//! Layouts built and checked in `const` items: "this is a `const fn`" is tested, not claimed.

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
const_assert!(SQUEEZED.rank() == 3);
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
