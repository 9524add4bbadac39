// Every refusal of the layout algebra in a `const` item: the build fails at the item's line
// with the rule (and its figures, where it has some).
use strided_layout::algebra::{self, const_unwrap, Swizzle, SwizzledLayout};
use strided_layout::nested::{self, NestedLayout};

type N = NestedLayout<4>;
const fn p(text: &str) -> N {
    nested::const_unwrap(N::parse(text))
}

const STRIDE: N = const_unwrap(algebra::composition(&p("(4,6):(1,5)"), &p("2:6")));
const SHAPE: N = const_unwrap(algebra::composition(&p("(4,6):(1,5)"), &p("6:1")));
const OFFSET: N = const_unwrap(algebra::composition(&p("8:1"), &p("4:1 +1")));
const INJECTIVE: N = const_unwrap(algebra::complement(&p("(2,4):(2,1)"), 16));
const NEGATIVE: N = const_unwrap(algebra::complement(&p("4:-1 +3"), 16));
const LEFT: N = const_unwrap(algebra::left_inverse(&p("(2,2):(2,3)")));
const ZERO: N = const_unwrap(algebra::coalesce(&p("(0,3):(1,4)")));
const CUT: N = const_unwrap(algebra::coalesce(&p("((4,3)|10,5):((1,20),4)")));
const RANKS: N = const_unwrap(algebra::blocked_product(&p("(4):(1)"), &p("3:5")));
const TILER: N = const_unwrap(algebra::logical_divide_by_mode(&p("8:1"), &[p("2:1"), p("2:1")]));
const THREAD: N = const_unwrap(algebra::local_partition(&p("(8,8):(1,8)"), &p("(2,2):(4,1)"), 3));
const CAPACITY: NestedLayout<2> = const_unwrap(algebra::logical_divide(
    &nested::const_unwrap(NestedLayout::<2>::parse("(4,4):(1,8)")),
    &nested::const_unwrap(NestedLayout::<2>::parse("2:1")),
));
const MASKS: Swizzle = const_unwrap(Swizzle::new(3, 0, 2));
const BELOW: SwizzledLayout<4> = const_unwrap(SwizzledLayout::new(const_unwrap(Swizzle::new(0, 0, 1)), p("4:-1")));
const LANES: usize = const_unwrap(
    const_unwrap(SwizzledLayout::new(const_unwrap(Swizzle::new(0, 0, 1)), p("64:1"))).bank_conflicts(&p("33:1")),
);

fn main() {
    let _ = (STRIDE, SHAPE, OFFSET, INJECTIVE, NEGATIVE, LEFT, ZERO, CUT, RANKS);
    let _ = (TILER, THREAD, CAPACITY, MASKS, BELOW, LANES);
}
