//! The edges found by a randomised review of the layout API, one named test each.

use strided_layout::{DynLayout, InterleaveLayout, InterleavedLayout, Layout, LayoutError, Order};

fn il(d: usize, f: usize) -> InterleaveLayout {
    InterleaveLayout::new(d, f).unwrap()
}

/// A `[2^31, 2^31]` section has 2^62 cells: the grid must not visit them before writing.
#[test]
fn interleaved_grid_2d_of_huge_layout_answers_capacity_exceeded_at_once() {
    let l = InterleavedLayout::dense([1 << 31, 1 << 31], 1, il(0, 2)).unwrap();
    assert_eq!(
        l.grid_2d().to_text::<64>(),
        Err(LayoutError::CapacityExceeded)
    );
    let plain = Layout::dense([1 << 31, 1 << 31], 1, Order::C).unwrap();
    assert_eq!(
        plain.grid_2d().to_text::<64>(),
        Err(LayoutError::CapacityExceeded)
    );
}

#[test]
fn interleaved_grid_1d_of_huge_layout_answers_capacity_exceeded_at_once() {
    let l = InterleavedLayout::dense([1 << 62], 1, il(0, 4)).unwrap();
    assert_eq!(
        l.grid_1d().to_text::<64>(),
        Err(LayoutError::CapacityExceeded)
    );
}

/// The grid's column width still comes from the section's true extremes, which along an
/// interleaved axis may sit at a block's last lane rather than at a corner.
#[test]
fn interleaved_grid_width_comes_from_the_section_bounds() {
    // Blocks of 4 lanes 1 apart from offset 7: 7 8 9 10 | 8; the widest, 10, is mid-row.
    let l = InterleavedLayout::new([1, 5], [1, 1], 1, il(1, 4))
        .unwrap()
        .with_offset(7)
        .unwrap();
    assert_eq!(
        l.grid_2d().to_text::<64>().unwrap().as_str(),
        " 7  8  9 10  8"
    );
    let l = InterleavedLayout::new([1, 8], [1, -10], 1, il(1, 4))
        .unwrap()
        .with_offset(10)
        .unwrap();
    assert_eq!(
        l.grid_2d().to_text::<64>().unwrap().as_str(),
        "10 11 12 13  0  1  2  3"
    );
}

/// `dense` multiplied the running stride once more after the outermost axis.
#[test]
fn interleaved_dense_builds_what_new_builds_at_the_offset_limit() {
    // Blocks of 2 along axis 0, so 2 blocks of `2 * 2^61` elements: strides (2^62, 2).
    let by_new = InterleavedLayout::new([3, 1 << 61], [1 << 62, 2], 1, il(0, 2)).unwrap();
    let by_dense = InterleavedLayout::dense([3, 1 << 61], 1, il(0, 2));
    assert_eq!(by_dense, Ok(by_new));
}

/// The documented variant for a signed axis outside `-N..N` is `SignedAxisOutOfRange`.
#[test]
fn signed_axis_arguments_out_of_range_are_signed_axis_out_of_range() {
    let l = Layout::dense([4, 2], 4, Order::C).unwrap();
    let d = DynLayout::<3>::from_layout(&l).unwrap();
    let e = |axis| LayoutError::SignedAxisOutOfRange { axis, ndim: 2 };
    assert_eq!(l.normalized_axis(2), Err(e(2)));
    assert_eq!(l.normalized_axis(-3), Err(e(-3)));
    assert_eq!(d.normalized_axis(-3), Err(e(-3)));
    assert_eq!(l.repacked(8, 0, 2), Err(e(2)));
    assert_eq!(l.repacked(8, 0, -3), Err(e(-3)));
    assert_eq!(l.repacked_dropping_axis(8, 0, 5), Err(e(5)));
    assert_eq!(l.max_compatible_itemsize(16, 0, -9), Err(e(-9)));
}

/// The range converts first (`a..=b` is `a:b+1`), then takes the step: with a negative step
/// the inclusive end is not reached, as the docs of `Slice::stepped` now say.
#[test]
#[expect(
    clippy::reversed_empty_ranges,
    reason = "Python bounds: with a negative step the range walks from 5 down"
)]
fn stepped_inclusive_range_with_negative_step_is_python_a_to_b_plus_1() {
    use strided_layout::Slice;
    let l = Layout::dense([7], 1, Order::C).unwrap();
    let picks = |s: Slice| l.sliced([s]).unwrap().offsets().collect::<Vec<_>>();
    assert_eq!(Slice::stepped(5..=1, -1), Slice::new(Some(5), Some(2), -1));
    assert_eq!(picks(Slice::stepped(5..=1, -1)), [5, 4, 3]);
    assert_eq!(picks(Slice::new(Some(5), Some(0), -1)), [5, 4, 3, 2, 1]);
    assert_eq!(picks(Slice::new(Some(5), None, -1)), [5, 4, 3, 2, 1, 0]);
}
