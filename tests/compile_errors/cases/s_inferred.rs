// The rank `s!` gives is inferred: using it as another rank is a type mismatch.
use strided_layout::{s, Layout, Order};

fn takes_rank_3(_: Layout<3>) {}

fn main() {
    let l = Layout::dense([2, 3, 4], 4, Order::C).unwrap();
    let row = s![l; 1, 2, ..].unwrap();
    assert_eq!(row.shape(), [4]);
    takes_rank_3(row);
}
