// `s!` takes one argument per axis: two on a rank-3 layout do not fit.
use strided_layout::{s, Layout, Order};

fn main() {
    let l = Layout::dense([2, 3, 4], 4, Order::C).unwrap();
    let _wrong = s![l; 1, ..];
}
