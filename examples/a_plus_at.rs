//! `A + Aᵀ` with `zip_map`: one operand is read across its rows, so the plan tiles the
//! loops (the Strided.jl / `ArrayInterface` example of disagreeing iteration orders).
//!
//! Run: `cargo run --release --example a_plus_at`

use strided_layout::plan::Plan;
use strided_layout::{Layout, LayoutError, Order};

fn main() -> Result<(), LayoutError> {
    const N: usize = 1000;
    let a: Vec<f64> = (0..N * N).map(|i| i as f64).collect();
    let l = Layout::dense([N, N], 8, Order::C)?;
    let at = l.transposed(0, 1)?;
    let mut sum = vec![0.0f64; N * N];
    strided_layout::zip_map(&a, &l, &a, &at, &mut sum, &l, |x, y| x + y)?;

    // sum[i][j] == a[i][j] + a[j][i]; the result is symmetric.
    let (i, j) = (12, 345);
    assert_eq!(
        sum[i * N + j].to_bits(),
        (a[i * N + j] + a[j * N + i]).to_bits()
    );
    assert_eq!(sum[i * N + j].to_bits(), sum[j * N + i].to_bits());
    println!("sum[{i}][{j}] = {}", sum[i * N + j]);

    println!("{}", Plan::new(&[l.lowered(), l.lowered(), at.lowered()])?);
    Ok(())
}
