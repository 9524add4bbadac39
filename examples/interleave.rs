//! Interleaved layouts: CHW <-> HWC, stereo planar vs interleaved, and 10 channels in blocks
//! of 4 (a partial last block), as offsets and then as data moved by `strided_layout::copy`,
//! which takes an `InterleavedLayout` on either side.
//!
//! Run: `cargo run --example interleave`

use strided_layout::{InterleaveLayout, InterleavedLayout, Layout, LayoutError, Order};

fn main() -> Result<(), LayoutError> {
    // CHW image, 3 channels of 2x4 pixels. Planar: one plane per channel.
    let planar = Layout::dense([3, 2, 4], 1, Order::C)?;
    // The same logical CHW tensor stored HWC: channels interleaved, factor 3 on axis 0.
    let hwc = InterleavedLayout::dense([3, 2, 4], 1, InterleaveLayout::new(0, 3)?)?;
    println!("planar CHW   {planar}");
    println!("interleaved  {hwc}");
    println!("  = strided  {}", hwc.to_strided::<4>()?);
    for c in 0..3 {
        println!(
            "channel {c}: planar {:?} -> interleaved {:?}",
            row(&planar, c)?,
            irow(&hwc, c)?
        );
    }
    // And back: an HWC buffer viewed as CHW is `from_strided` of its dense (1,H,W,C) form.
    let hwc_strided = Layout::dense([1, 2, 4, 3], 1, Order::C)?;
    let again = InterleavedLayout::<3>::from_strided(&hwc_strided, 0)?;
    assert_eq!(again, hwc);
    println!("HWC buffer read as CHW: {again}");
    // Move the pixels: CHW -> HWC and back.
    let chw_data: Vec<u8> = (0..24).collect();
    let mut hwc_data = vec![0u8; 24];
    strided_layout::copy(&chw_data, &planar, &mut hwc_data, &hwc)?;
    println!("CHW data {chw_data:?}\n  as HWC {hwc_data:?}");
    let mut back = vec![0u8; 24];
    strided_layout::copy(&hwc_data, &hwc, &mut back, &planar)?;
    assert_eq!(back, chw_data);
    println!();

    // Stereo audio, 2 channels x 6 samples: planar LLLLLLRRRRRR vs interleaved LRLRLR...
    let stereo_planar = Layout::dense([2, 6], 4, Order::C)?;
    let stereo = InterleavedLayout::dense([2, 6], 4, InterleaveLayout::new(0, 2)?)?;
    println!(
        "stereo planar      {stereo_planar}\n{}",
        stereo_planar.grid_2d()
    );
    println!("stereo interleaved {stereo}\n{}", stereo.grid_2d());
    let left_right: Vec<f32> = (0..12).map(|x| x as f32).collect();
    let mut lrlr = vec![0.0f32; 12];
    strided_layout::copy(&left_right, &stereo_planar, &mut lrlr, &stereo)?;
    println!("planar {left_right:?}\n  -> interleaved {lrlr:?}\n");

    // 10 channels in blocks of 4 (nChw4c-like), 3 pixels: the last block holds channels 8
    // and 9 in lanes 0 and 1; lanes 2 and 3 are padding.
    let blocked = InterleavedLayout::dense([10, 3], 4, InterleaveLayout::new(0, 4)?)?;
    println!("10 channels in blocks of 4: {blocked}");
    println!("{}", blocked.grid_2d());
    println!(
        "last block uses {} of 4 lanes; offsets {:?}; required size {} bytes; dense: {}",
        blocked.last_block_len(),
        blocked.offset_bounds(),
        blocked.required_size_in_bytes()?,
        blocked.is_dense()
    );
    let channels: Vec<f32> = (0..30).map(|x| x as f32).collect();
    let mut blocks = vec![f32::NAN; blocked.required_size_in_bytes()? / 4];
    strided_layout::copy(
        &channels,
        &Layout::dense([10, 3], 4, Order::C)?,
        &mut blocks,
        &blocked,
    )?;
    println!("blocked data (NaN = padding lane): {blocks:?}");
    let padded = blocked.to_strided_padded::<3>()?;
    println!(
        "padded strided form {padded} (index [b, p, l] is channel 4b + l, real iff 4b + l < 10)"
    );
    Ok(())
}

/// The offsets of channel `c`'s pixels in C order, for a planar layout.
fn row(l: &Layout<3>, c: usize) -> Result<[isize; 8], LayoutError> {
    let mut out = [0; 8];
    for (k, o) in out.iter_mut().enumerate() {
        *o = l.offset_of([c, k / 4, k % 4])?;
    }
    Ok(out)
}

/// The same for an interleaved layout.
fn irow(l: &InterleavedLayout<3>, c: usize) -> Result<[isize; 8], LayoutError> {
    let mut out = [0; 8];
    for (k, o) in out.iter_mut().enumerate() {
        *o = l.offset_of([c, k / 4, k % 4])?;
    }
    Ok(out)
}
