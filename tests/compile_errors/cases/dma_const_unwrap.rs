// A DMA chain lowered in a `const` item with too little room: the build fails at this line
// with the rule and the count the chain needs.
use strided_layout::dma::{const_unwrap, rp2040};
use strided_layout::{CopyPlan, Layout};

const SRC: Layout<2> = strided_layout::const_unwrap(Layout::new([4, 8], [32, 1], 1));
const DST: Layout<2> = strided_layout::const_unwrap(Layout::new([4, 8], [8, 1], 1));
const PLAN: CopyPlan = strided_layout::const_unwrap(CopyPlan::new(&SRC, &DST));

const BLOCKS: [rp2040::Descriptor; 4] = {
    let mut out = [rp2040::Descriptor::NULL; 4];
    let _ = const_unwrap(rp2040::lower(&PLAN, 0, 0, &mut out));
    out
};

fn main() {
    let _ = BLOCKS;
}
