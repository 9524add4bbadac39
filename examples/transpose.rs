//! Transpose a matrix into a dense buffer with `copy`, and show the plan it runs.
//!
//! Run: `cargo run --release --example transpose`

use strided_layout::plan::Plan;
use strided_layout::{Layout, LayoutError, Order};

fn main() -> Result<(), LayoutError> {
    const ROWS: usize = 3;
    const COLS: usize = 5;
    // A 3 x 5 matrix, row-major.
    let a: Vec<f32> = (0..ROWS * COLS).map(|i| i as f32).collect();
    let a_layout = Layout::dense([ROWS, COLS], 4, Order::C)?;
    // Its transpose is a view: swap the axes, no data moves...
    let view = a_layout.transposed(0, 1)?;
    // ...and `copy` makes it dense: a 5 x 3 row-major matrix.
    let t_layout = Layout::dense([COLS, ROWS], 4, Order::C)?;
    let mut t = vec![0.0f32; COLS * ROWS];
    strided_layout::copy(&a, &view, &mut t, &t_layout)?;

    for row in t.chunks(ROWS) {
        println!("{row:?}");
    }
    assert_eq!(t[ROWS], 1.0); // t[1][0] == a[0][1]

    // The loops `copy` ran: the source's fastest axis is not the destination's, so the two
    // loops are tiled (and 4-byte elements go through SIMD transposes).
    println!("{}", Plan::new(&[t_layout.lowered(), view.lowered()])?);
    Ok(())
}
