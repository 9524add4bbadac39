use strided_layout::{DynLayout, Layout, Order};

fn main() {
    let l = Layout::dense([2, 3, 4], 4, Order::C).unwrap();
    let _d: DynLayout<2> = l.into();
}
