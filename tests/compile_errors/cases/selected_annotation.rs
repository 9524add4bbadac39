// An annotation that disagrees with the one rank the bound allows: a type mismatch here.
use strided_layout::{Layout, Order};

fn main() {
    let img = Layout::dense([3, 480, 640], 1, Order::C).unwrap();
    let _wrong: Result<Layout<3>, _> = img.selected(0, 1);
}
