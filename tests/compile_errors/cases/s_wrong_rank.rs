// `s!` keeps one axis per slice: two slices on a rank-3 layout give rank 2, not 3.
use strided_layout::{s, Layout, Order};

fn main() {
    let l = Layout::dense([2, 3, 4], 4, Order::C).unwrap();
    let _wrong: Layout<3> = s![l; 1, .., ..].unwrap();
}
