use strided_layout::{Layout, Order};

fn main() {
    let l = Layout::dense([2, 3], 4, Order::C).unwrap();
    let _wrong = l.broadcast_to([6]);
}
