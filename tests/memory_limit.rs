//! The large-copy paths against the reference model, at the sizes that take them: a transpose
//! past the streaming threshold whose two row strides are whole pages, or whose destination
//! rows are not a whole number of lines apart (the stack-tile paths), the transposes that
//! take the same macro-kernels while they stay in the cache (plain stores), and `A + Aᵀ`
//! past the staged tiles' threshold, each with odd extents and offsets so the tiles' edges
//! run too. Too large for Miri, which runs the kernels' portable twins in the unit tests
//! instead.
#![allow(
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::cast_possible_truncation,
    clippy::cast_precision_loss
)]

use crate::common;
use common::offset_of_model;

use strided_layout::{Layout, LayoutError};

/// `copy` of an `ea × eb` block from a source laid out transposed (rows `stride` apart) to a
/// destination with rows `stride` apart, both shifted by a few elements; every destination
/// element outside the block keeps its value.
fn check_page_transpose<T: Copy + PartialEq + core::fmt::Debug + 'static>(
    [ea, eb]: [usize; 2],
    stride: usize,
    [dshift, sshift]: [isize; 2],
    val: impl Fn(usize) -> T,
    fill: T,
) -> Result<(), LayoutError> {
    let size = size_of::<T>();
    let s = stride as isize;
    let dl = Layout::new([ea, eb], [s, 1], size)?.with_offset(dshift)?;
    let sl = Layout::new([ea, eb], [1, s], size)?.with_offset(sshift)?;
    let src: Vec<T> = (0..stride * eb + sshift as usize).map(&val).collect();
    let mut dst = vec![fill; stride * ea + dshift as usize];
    let mut want = dst.clone();
    for i in 0..ea {
        for j in 0..eb {
            let d = offset_of_model(&dl.strides(), dl.offset(), &[i, j]) as usize;
            let o = offset_of_model(&sl.strides(), sl.offset(), &[i, j]) as usize;
            want[d] = src[o];
        }
    }
    strided_layout::copy(&src, &sl, &mut dst, &dl)?;
    assert!(
        dst == want,
        "{ea}x{eb} stride {stride} shifts {dshift},{sshift}"
    );
    Ok(())
}

#[test]
#[cfg_attr(miri, ignore = "hundreds of megabytes")]
fn copy_transpose_with_page_strides_past_the_cache_matches_the_model() -> Result<(), LayoutError> {
    // Past the 32 MiB streaming threshold (read plus written), rows 16 KiB apart.
    check_page_transpose([1500, 3000], 4096, [5, 7], |x| x as f32, -1.0)?;
    check_page_transpose([1037, 3001], 4096, [0, 3], |x| x as f32, -1.0)?;
    check_page_transpose([1100, 2000], 2048, [3, 1], |x| x as u64, u64::MAX)?;
    check_page_transpose([1100, 2000], 2048, [0, 0], |x| x as i64, -1)
}

#[test]
#[cfg_attr(miri, ignore = "hundreds of megabytes")]
fn copy_transpose_with_rows_off_the_lines_past_the_cache_matches_the_model()
-> Result<(), LayoutError> {
    // Past the threshold, row strides that are not a whole number of 64-byte lines (the
    // stack tiles meeting each destination row at its own alignment): 3001 `f32` (12,004
    // bytes), 3000 `f32` (12,000: every other row 32 bytes into a line), 2001 `u64`.
    check_page_transpose([1500, 3000], 3001, [5, 7], |x| x as f32, -1.0)?;
    check_page_transpose([1537, 2900], 3000, [0, 3], |x| x as f32, -1.0)?;
    check_page_transpose([1100, 2000], 2001, [3, 1], |x| x as u64, u64::MAX)
}

#[test]
#[cfg_attr(miri, ignore = "megabytes; the unit tests run the portable twins")]
fn copy_transpose_large_in_the_cache_matches_the_model() -> Result<(), LayoutError> {
    // Under the streaming threshold, at least 64 both ways: the macro-kernels with plain
    // stores. Rows a whole number of lines apart, off the lines, and whole pages; the
    // smallest block taken, and blocks whose edges cut kernels and tiles.
    check_page_transpose([64, 64], 64, [0, 0], |x| x as f32, -1.0)?;
    check_page_transpose([65, 130], 144, [3, 5], |x| x as f32, -1.0)?;
    check_page_transpose([100, 300], 301, [1, 2], |x| x as f32, -1.0)?;
    check_page_transpose([257, 130], 1024, [7, 0], |x| x as f32, -1.0)?;
    check_page_transpose([300, 301], 303, [0, 9], |x| x as f32, -1.0)?;
    check_page_transpose([64, 100], 104, [2, 1], |x| x as u64, u64::MAX)?;
    check_page_transpose([129, 200], 203, [0, 3], |x| x as i64, -1)?;
    check_page_transpose([130, 70], 512, [5, 5], |x| x as u64, 0)
}

/// `zip_map(a, aᵀ)` of an `e × e` block of `a` whose rows are `ar` apart, into a destination
/// with rows `e + 1` apart, as pairs, against the model.
fn check_mirrored<T: Copy + PartialEq + core::fmt::Debug + 'static>(
    e: usize,
    ar: usize,
    val: impl Fn(usize) -> T,
    fill: T,
) -> Result<(), LayoutError> {
    let size = size_of::<T>();
    let la = Layout::new([e, e], [ar as isize, 1], size)?.with_offset(2)?;
    let lt = la.transposed(0, 1)?;
    let ld = Layout::new([e, e], [e as isize + 1, 1], 2 * size)?;
    let a: Vec<T> = (0..ar * e + 2).map(&val).collect();
    let mut dst = vec![(fill, fill); (e + 1) * e];
    let mut want = dst.clone();
    for i in 0..e {
        for j in 0..e {
            let d = offset_of_model(&ld.strides(), ld.offset(), &[i, j]) as usize;
            let x = offset_of_model(&la.strides(), la.offset(), &[i, j]) as usize;
            let y = offset_of_model(&lt.strides(), lt.offset(), &[i, j]) as usize;
            want[d] = (a[x], a[y]);
        }
    }
    strided_layout::zip_map(&a, &la, &a, &lt, &mut dst, &ld, |x, y| (x, y))?;
    assert!(dst == want, "{e}x{e} rows {ar} apart");
    Ok(())
}

#[test]
#[cfg_attr(miri, ignore = "tens of megabytes")]
fn zip_map_a_plus_a_transposed_past_the_threshold_matches_the_model() -> Result<(), LayoutError> {
    // 2 MiB of `a` and more: the staged tiles (128 × 128 for `f32`, 64 × 64 for `f64`).
    check_mirrored(1031, 1031, |x| x as f32, -1.0)?;
    check_mirrored(1000, 1024, |x| x as f32, -1.0)?;
    check_mirrored(777, 800, |x| x as f64, -1.0)?;
    check_mirrored(1500, 1501, |x| (x % 251) as u8, 0)
}
