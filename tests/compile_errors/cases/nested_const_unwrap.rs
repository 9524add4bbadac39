// A nested layout written wrong in a `const` item: the build fails at this line with the rule
// and where the text broke.
use strided_layout::nested::{const_unwrap, NestedLayout};

const TILE: NestedLayout<4> = const_unwrap(NestedLayout::parse("((4,8),(2,16)):((1,64),(4,8)"));

const CUT: NestedLayout<4> = const_unwrap(NestedLayout::parse("((4,3)|13,5):((1,20),4)"));

fn main() {
    let _ = (TILE, CUT);
}
