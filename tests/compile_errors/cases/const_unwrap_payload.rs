// A failed `const` check prints the error's rule and its payload.
use strided_layout::{const_unwrap, Layout, Order};

const L: Layout<2> = const_unwrap(Layout::dense([2, 3], 4, Order::C));
const T: Layout<2> = const_unwrap(L.transposed(0, 5));

fn main() {
    let _ = T;
}
