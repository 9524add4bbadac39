use strided_layout::{InterleavedLayout, Layout, Order};

fn main() {
    let s = Layout::dense([2, 4, 4], 4, Order::C).unwrap();
    let _wrong = InterleavedLayout::<3>::from_strided(&s, 0);
}
