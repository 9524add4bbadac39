// A rank named in the call that breaks the bound: the rule and both ranks, at this line.
use strided_layout::{Layout, Order};

fn main() {
    let img = Layout::dense([3, 480, 640], 1, Order::C).unwrap();
    let _wrong = img.unsqueezed::<5>(0);
}
