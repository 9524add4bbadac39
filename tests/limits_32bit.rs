//! The invariants at the edge of a 32-bit `usize`/`isize`: `u32::MAX` extents, `i32::MAX`
//! strides, offsets at `isize::MAX` and `isize::MIN`, volumes at `2^32`.
//!
//! Every test states its outcome for both pointer widths, so the file runs natively on 64-bit
//! hosts and under Miri on `i686-unknown-linux-gnu` (.ci/run), where the same calls hit the
//! 32-bit edge. Nothing here enumerates elements: the layouts are huge, the checks are O(N).

use strided_layout::gpu::KernelLayout;
use strided_layout::{Layout, LayoutError, Slice};

const W32: bool = cfg!(target_pointer_width = "32");

/// `Ok` on 64-bit targets, `Err(err)` on 32-bit ones.
fn on_64_only<T: core::fmt::Debug>(r: Result<T, LayoutError>, err: LayoutError) {
    if W32 {
        assert_eq!(r.err(), Some(err));
    } else {
        assert!(r.is_ok(), "{r:?}");
    }
}

const TWO_31: usize = 1 << 31;
const I32_MAX: isize = i32::MAX as isize;

#[test]
fn new_with_u32_max_extent_rejects_offsets_past_isize_max_on_32_bit() {
    on_64_only(
        Layout::new([u32::MAX as usize], [1], 1),
        LayoutError::OffsetOverflow,
    );
    // A broadcast axis of the same extent has one offset, 0: fine everywhere.
    let l = Layout::new([u32::MAX as usize], [0], 1).unwrap();
    assert_eq!(l.volume(), u32::MAX as usize);
    assert_eq!(l.offset_bounds(), Some((0, 0)));
    assert_eq!(l.required_size_in_bytes(), Ok(1));
    assert_eq!(l.offset_of([0]), Ok(0));
    let n = l.narrowed(0, u32::MAX as usize - 1, 1).unwrap();
    assert_eq!((n.shape(), n.offset()), ([1], 0));
    assert_eq!(
        l.offset_of([u32::MAX as usize]),
        Err(LayoutError::IndexOutOfRange { axis: 0 })
    );
}

// Issue "The core at its edges": a zero stride adds nothing for any index, so an index past
// isize::MAX on a broadcast axis is at offset 0 (`checked::advance` skips zero strides). On
// 64-bit hosts the second half covers extents past isize::MAX.
#[test]
fn index_past_isize_max_on_a_broadcast_axis_has_offset_zero() {
    let l = Layout::new([u32::MAX as usize], [0], 1).unwrap();
    assert_eq!(l.offset_of([u32::MAX as usize - 1]), Ok(0));
    assert_eq!(
        l.selected::<0>(0, u32::MAX as usize - 1)
            .map(|s| s.offset()),
        Ok(0)
    );
    assert_eq!(
        l.narrowed(0, u32::MAX as usize - 1, 1).map(|s| s.offset()),
        Ok(0)
    );
    let big = Layout::new([usize::MAX], [0], 1).unwrap();
    assert_eq!(big.offset_of([usize::MAX - 1]), Ok(0));
    assert_eq!(
        big.selected::<0>(0, usize::MAX - 1).map(|s| s.offset()),
        Ok(0)
    );
    assert_eq!(
        big.narrowed(0, usize::MAX - 1, 1).map(|s| s.offset()),
        Ok(0)
    );
}

#[test]
fn new_accepts_last_offset_at_isize_max_and_rejects_one_more() {
    // 2^31 elements at stride 1: the last sits at 2^31 - 1 = i32::MAX, isize::MAX on 32-bit.
    let l = Layout::new([TWO_31], [1], 1).unwrap();
    assert_eq!(l.offset_of([TWO_31 - 1]), Ok(I32_MAX));
    assert_eq!(l.offset_bounds(), Some((0, I32_MAX)));
    assert_eq!(l.required_size_in_bytes(), Ok(TWO_31));
    // One element further, in elements (offset + 1) or in bytes (itemsize 2), is too far.
    on_64_only(l.with_offset(1), LayoutError::OffsetOverflow);
    on_64_only(Layout::new([TWO_31], [1], 2), LayoutError::OffsetOverflow);
    on_64_only(
        Layout::new([TWO_31 + 1], [1], 1),
        LayoutError::OffsetOverflow,
    );
}

#[test]
fn new_rejects_volume_of_2_pow_32_on_32_bit_only() {
    on_64_only(
        Layout::new([65_536, 65_536], [0, 0], 1),
        LayoutError::VolumeOverflow,
    );
    // 2^32 - 2^16 elements still fit a 32-bit usize.
    let l = Layout::new([65_536, 65_535], [0, 0], 1).unwrap();
    assert_eq!(l.volume(), 65_536 * 65_535);
}

#[test]
fn new_accepts_i32_max_stride_while_the_offsets_fit() {
    let l = Layout::new([2], [I32_MAX], 1).unwrap();
    assert_eq!(l.offset_of([1]), Ok(I32_MAX));
    assert_eq!(l.strides_in_bytes(), [I32_MAX]);
    on_64_only(Layout::new([3], [I32_MAX], 1), LayoutError::OffsetOverflow);
    on_64_only(Layout::new([2], [I32_MAX], 2), LayoutError::OffsetOverflow);
    // A stride that itself does not fit isize in bytes fails even on an extent-1 axis.
    on_64_only(Layout::new([1], [I32_MAX], 2), LayoutError::OffsetOverflow);
}

#[test]
fn with_offset_reaches_isize_min_and_no_further() {
    // Stride -i32::MAX from offset -1: the second element sits at i32::MIN = isize::MIN on
    // 32-bit targets.
    let l = Layout::new([2], [-I32_MAX], 1).unwrap();
    let at_min = l.with_offset(-1).unwrap();
    assert_eq!(at_min.offset_bounds(), Some((i32::MIN as isize, -1)));
    assert_eq!(at_min.offset_of([1]), Ok(i32::MIN as isize));
    assert_eq!(
        at_min.required_size_in_bytes(),
        Err(LayoutError::NegativeOffset)
    );
    on_64_only(l.with_offset(-2), LayoutError::OffsetOverflow);
}

#[test]
fn flipped_and_sliced_keep_offsets_at_isize_max() {
    let l = Layout::new([TWO_31], [1], 1).unwrap();
    let f = l.flipped(0).unwrap();
    assert_eq!((f.offset(), f.strides()), (I32_MAX, [-1]));
    assert_eq!(f.offset_of([TWO_31 - 1]), Ok(0));
    // ::-2 from the end: 2^30 elements, first at i32::MAX, stride -2.
    let s = l.sliced([Slice::new(None, None, -2)]).unwrap();
    assert_eq!(
        (s.shape(), s.strides(), s.offset()),
        ([1 << 30], [-2], I32_MAX)
    );
    assert_eq!(s.offset_bounds(), Some((1, I32_MAX)));
    // Step isize::MAX: on 32-bit it reaches index 2^31 - 1, the last one (stride isize::MAX,
    // last offset isize::MAX); on 64-bit only the first element.
    let s = l.sliced([Slice::new(None, None, isize::MAX)]).unwrap();
    if W32 {
        assert_eq!((s.shape(), s.strides()), ([2], [isize::MAX]));
        assert_eq!(s.offset_bounds(), Some((0, isize::MAX)));
    } else {
        assert_eq!(s.shape(), [1]);
    }
}

#[test]
fn broadcast_to_rejects_a_2_pow_32_volume_on_32_bit_only() {
    let one = Layout::new([1], [0], 4).unwrap();
    let b = one.broadcast_to::<2>([65_536, 65_535]).unwrap();
    assert_eq!(
        (b.volume(), b.offset_bounds()),
        (65_536 * 65_535, Some((0, 0)))
    );
    on_64_only(
        one.broadcast_to::<2>([65_536, 65_536]),
        LayoutError::VolumeOverflow,
    );
}

#[test]
fn fits_in_and_kernel_layout_agree_at_the_i32_and_u32_edges() {
    // Extent 2^31 fits u32 but not i32.
    let l = Layout::new([TWO_31], [1], 1).unwrap();
    assert!(!l.fits_in::<i32>());
    assert!(l.fits_in::<u32>());
    assert_eq!(
        KernelLayout::<i32, 1>::from_layout(&l),
        Err(LayoutError::IndexTypeOverflow)
    );
    let k = KernelLayout::<u32, 1>::from_layout(&l).unwrap();
    assert_eq!(k.offset_of_linear((1 << 31) - 1), (1 << 31) - 1);
    // A broadcast axis of extent u32::MAX: volume u32::MAX fits u32, not i32.
    let b = Layout::new([u32::MAX as usize], [0], 1).unwrap();
    let k = KernelLayout::<u32, 1>::from_layout(&b).unwrap();
    assert_eq!(
        (k.volume(), k.offset_of_linear(u32::MAX - 1)),
        (u32::MAX, 0)
    );
    assert!(KernelLayout::<i32, 1>::from_layout(&b).is_err());
}
