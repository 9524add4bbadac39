//! A tour of strided-layout: build layouts, transform them without touching data, check
//! their properties, and look at them as offset grids.
//!
//! Run: `cargo run --release --example tour`

use strided_layout::{Layout, LayoutError, Order, Slice, const_unwrap};

/// A planar RGB image, checked at compile time.
const CHW: Layout<3> = const_unwrap(Layout::dense_of::<u8>([3, 4, 6], Order::C));
const _: () = assert!(
    CHW.is_contiguous_c() && CHW.is_unique(),
    "planar CHW is C-contiguous, no pixel shared"
);

fn show<const N: usize>(title: &str, l: &Layout<N>) {
    println!("{title}: {l}");
    println!(
        "  volume {}, contiguous C/F/any {}/{}/{}, dense {}, unique {}, bounds {:?}, stride order {:?}",
        l.volume(),
        l.is_contiguous_c(),
        l.is_contiguous_f(),
        l.is_contiguous_any(),
        l.is_dense(),
        l.is_unique(),
        l.offset_bounds(),
        l.stride_order(),
    );
}

fn main() -> Result<(), LayoutError> {
    println!("== 1. An image: 3 channels of 4x6 pixels, planar (CHW)\n");
    show("CHW", &CHW);
    println!(
        "channel 1 (rows = H, cols = W):\n{}\n",
        CHW.grid(1, 2, [1, 0, 0])?
    );

    println!("== 2. The same bytes seen as interleaved HWC: a permutation, no copy\n");
    let hwc = CHW.permuted([1, 2, 0])?;
    show("HWC view of planar data", &hwc);
    println!(
        "pixel row 0 (rows = W, cols = C):\n{}\n",
        hwc.grid(1, 2, [0, 0, 0])?
    );
    let hwc_dense = hwc.to_dense(Order::C)?;
    show(
        "an interleaved buffer (what a copy into HWC would produce)",
        &hwc_dense,
    );
    println!(
        "merging H and W is free in both: {} and {}",
        hwc_dense.reshaped([-1, 3])?,
        hwc.reshaped([-1, 3])?
    );
    println!(
        "flattening everything is free for the buffer: {}",
        hwc_dense.reshaped([-1])?
    );
    match hwc.reshaped([-1]) {
        Err(e) => println!("but not for the planar view: {e}\n"),
        Ok(l) => println!("unexpected: {l}\n"),
    }

    println!("== 3. A transposed matrix\n");
    let m = Layout::dense([3, 5], 8, Order::C)?;
    show("matrix", &m);
    println!("{}\n", m.grid_2d());
    let t = m.transposed(0, 1)?;
    show("transposed", &t);
    println!("{}\n", t.grid_2d());

    println!("== 4. A flipped and strided slice: m[::-1, 1::2]\n");
    let s = m.sliced([Slice::new(None, None, -1), Slice::new(Some(1), None, 2)])?;
    show("slice", &s);
    println!("{}\n", s.grid_2d());
    let f = m.flipped(1)?;
    show("flipped columns", &f);
    println!("{}\n", f.grid_2d());

    println!("== 5. Broadcasting a row: stride 0, not unique\n");
    let row = Layout::dense([1, 5], 4, Order::C)?;
    let b = row.broadcast_to([3, 5])?;
    show("broadcast", &b);
    println!("{}\n", b.grid_2d());

    println!("== 6. Rank changes keep the rank in the type\n");
    let tiles: Layout<4> = CHW.split_axis(1, 2)?;
    show("CHW split into 2-row tiles", &tiles);
    let squeezed = CHW.selected::<2>(0, 2)?.unsqueezed::<3>(0)?.squeezed();
    println!(
        "select channel 2, unsqueeze, squeeze: rank {}, {squeezed}",
        squeezed.ndim()
    );
    println!(
        "flattened CHW: {}; flattened HWC view: {}",
        CHW.flattened(),
        hwc.flattened()
    );

    println!("\n== 7. Errors name the rule\n");
    for err in [
        Layout::new([2, 3], [3, 1], 3).err(),
        CHW.transposed(0, 7).err(),
        m.narrowed(1, 3, 4).err(),
        m.sliced([Slice::new(None, None, 0), Slice::FULL]).err(),
    ]
    .into_iter()
    .flatten()
    {
        println!("  {err}");
    }
    Ok(())
}
