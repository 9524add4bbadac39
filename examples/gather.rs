//! Gather a flipped, strided slice of a volume into a dense buffer: `v[::-1, 10:250:2, :]`.
//!
//! Run: `cargo run --release --example gather`

use strided_layout::plan::Plan;
use strided_layout::{Layout, LayoutError, Order, Slice};

fn main() -> Result<(), LayoutError> {
    const E: usize = 256;
    // A 256^3 volume of f32, C order.
    let volume: Vec<f32> = (0..E * E * E).map(|i| (i % 4093) as f32).collect();
    let v = Layout::dense([E, E, E], 4, Order::C)?;
    // The view: first axis reversed, rows 10..250 step 2, all columns. No data moves.
    let view = v.sliced([
        Slice::new(None, None, -1),
        Slice::new(Some(10), Some(250), 2),
        Slice::FULL,
    ])?;
    println!("view: {view}");

    // Gather it into a dense buffer.
    let dense = Layout::dense(view.shape(), 4, Order::C)?;
    let mut out = vec![0.0f32; dense.volume()];
    strided_layout::copy(&volume, &view, &mut out, &dense)?;

    // out[i][j][k] == volume[255 - i][10 + 2j][k]
    let (i, j, k) = (3, 7, 11);
    let got = out[dense.offset_of([i, j, k])?.unsigned_abs()];
    let want = volume[v.offset_of([E - 1 - i, 10 + 2 * j, k])?.unsigned_abs()];
    assert_eq!(got.to_bits(), want.to_bits());
    println!("out[{i}][{j}][{k}] = {got}");

    // Whole rows of 256 elements are contiguous in both: the plan copies runs of 256.
    println!("{}", Plan::new(&[dense.lowered(), view.lowered()])?);
    Ok(())
}
