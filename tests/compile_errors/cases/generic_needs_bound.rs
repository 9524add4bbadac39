// A function generic over the rank that calls a rank change without stating its bound.
use strided_layout::{Layout, LayoutError};

fn first_row<const N: usize, const M: usize>(l: Layout<N>) -> Result<Layout<M>, LayoutError> {
    l.selected(0, 0)
}

fn main() {}
