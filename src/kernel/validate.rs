//! The semantic checks a kernel runs once, after planning and the bounds check and before
//! it writes anything: the destination is unique, and in-place operands coincide or are
//! disjoint. Both read the plan's nests, so they see merged, extent-1-free loops.

use crate::LayoutError;
use crate::algo::access::{get, set};
use crate::algo::overlap::overlaps;
use crate::algo::parts::Parts;
use crate::algo::unique::is_unique;
use crate::kernel::plan::{MAX_LOOPS, Nest, Plan};

/// Operand `k` of `nest` as slices: extents, strides, depth and offset.
struct Operand {
    shape: [usize; MAX_LOOPS],
    strides: [isize; MAX_LOOPS],
    depth: usize,
    offset: isize,
}

impl Operand {
    const fn of<const K: usize>(nest: &Nest<K>, k: usize) -> Self {
        let loops = nest.loops();
        let mut out = Self {
            shape: [1; MAX_LOOPS],
            strides: [0; MAX_LOOPS],
            depth: loops.len(),
            offset: match get(&nest.offsets(), k) {
                Some(o) => o,
                None => 0,
            },
        };
        let mut i = 0;
        while i < loops.len() {
            if let Some(l) = get(loops, i) {
                set(&mut out.shape, i, l.extent);
                if let Some(s) = get(&l.strides, k) {
                    set(&mut out.strides, i, s);
                }
            }
            i = i.saturating_add(1);
        }
        out
    }

    const fn parts(&self) -> Parts<'_> {
        Parts::prefix(&self.shape, &self.strides, self.depth, self.offset, 1)
    }

    /// The search budget this operand's checks may spend: proportional to the elements the
    /// kernel is about to touch, so validation never costs more than the work it guards
    /// (each search step is one node of a few loops' worth of arithmetic).
    const fn budget(&self) -> u64 {
        let mut volume = 1u64;
        let mut i = 0;
        while i < self.depth {
            if let Some(e) = get(&self.shape, i) {
                volume = volume.saturating_mul(e as u64);
            }
            i = i.saturating_add(1);
        }
        volume
            .saturating_mul(BUDGET_PER_ELEMENT)
            .saturating_add(BUDGET_FLOOR)
    }
}

/// Search steps allowed per element the kernel touches.
const BUDGET_PER_ELEMENT: u64 = 4;
/// Search steps every check may take, however small the operands (tiny layouts decide in a
/// handful of steps).
const BUDGET_FLOOR: u64 = 256;

/// The first `n` elements of a scratch array (all of it past its length).
const fn first_mut(s: &mut [usize; MAX_LOOPS], n: usize) -> &mut [usize] {
    let n = if n < MAX_LOOPS { n } else { MAX_LOOPS };
    let (head, _) = s.split_at_mut(n);
    head
}

/// Whether operand `a` of nest `x` and operand `b` of nest `y` share an element; `None` when
/// the budget (proportional to both volumes) ran out first.
const fn share<const K: usize>(x: &Nest<K>, a: usize, y: &Nest<K>, b: usize) -> Option<bool> {
    let (one, two) = (Operand::of(x, a), Operand::of(y, b));
    let (mut oa, mut ob) = ([0usize; MAX_LOOPS], [0usize; MAX_LOOPS]);
    overlaps(
        one.parts(),
        two.parts(),
        first_mut(&mut oa, one.depth),
        first_mut(&mut ob, two.depth),
        one.budget().saturating_add(two.budget()),
    )
}

/// Checks that no two indices of the destination (operand 0) share an element.
///
/// The one place the kernels decide uniqueness: the query's own core
/// ([`is_unique_within`](crate::Layout::is_unique_within): its fast tests, cuda.core's
/// nesting test among them, then the search) with a budget proportional to the volume; a
/// layout it cannot decide within that budget is [`LayoutError::UniquenessUndecided`] (copy
/// through a plain destination instead). A `const fn`, so prepared plans of layouts known at
/// compile time are validated by the compiler.
pub(crate) const fn destination_unique<const K: usize>(plan: &Plan<K>) -> Result<(), LayoutError> {
    let nests = plan.nests();
    let mut rest = nests;
    while let [nest, tail @ ..] = rest {
        rest = tail;
        let op = Operand::of(nest, 0);
        let mut order = [0usize; MAX_LOOPS];
        match is_unique(op.parts(), first_mut(&mut order, op.depth), op.budget()) {
            Some(true) => {}
            Some(false) => return Err(LayoutError::DestinationNotUnique),
            None => return Err(LayoutError::UniquenessUndecided),
        }
    }
    // Every two nests (pieces of the shape) write disjoint elements.
    let mut xs = nests;
    while let [x, ys @ ..] = xs {
        xs = ys;
        let mut rest = ys;
        while let [y, tail @ ..] = rest {
            rest = tail;
            match share(x, 0, y, 0) {
                Some(false) => {}
                Some(true) => return Err(LayoutError::DestinationNotUnique),
                None => return Err(LayoutError::UniquenessUndecided),
            }
        }
    }
    Ok(())
}

/// Whether operands `a` and `b` of one buffer coincide (`true`: every index has the same
/// offset in both) or share no element (`false`).
///
/// # Errors
///
/// [`LayoutError::OperandsOverlap`] if they share an element without coinciding;
/// [`LayoutError::UniquenessUndecided`] if the search ran out of budget.
pub(crate) const fn operands_coincide<const K: usize>(
    plan: &Plan<K>,
    a: usize,
    b: usize,
) -> Result<bool, LayoutError> {
    let nests = plan.nests();
    if same_in_every_nest(nests, a, b) {
        return Ok(true);
    }
    let mut xs = nests;
    while let [x, xt @ ..] = xs {
        xs = xt;
        let mut ys = nests;
        while let [y, yt @ ..] = ys {
            ys = yt;
            match share(x, a, y, b) {
                Some(false) => {}
                Some(true) => return Err(LayoutError::OperandsOverlap),
                None => return Err(LayoutError::UniquenessUndecided),
            }
        }
    }
    Ok(false)
}

/// Whether operands `a` and `b` have the same offset and strides in every nest.
const fn same_in_every_nest<const K: usize>(nests: &[Nest<K>], a: usize, b: usize) -> bool {
    let mut rest = nests;
    while let [n, tail @ ..] = rest {
        rest = tail;
        let offsets = n.offsets();
        if !same(get(&offsets, a), get(&offsets, b)) {
            return false;
        }
        let mut loops = n.loops();
        while let [l, more @ ..] = loops {
            loops = more;
            if !same(get(&l.strides, a), get(&l.strides, b)) {
                return false;
            }
        }
    }
    true
}

/// `x == y` for two reads that may be past the end (`const`: `Option`'s `==` is not).
const fn same(x: Option<isize>, y: Option<isize>) -> bool {
    match (x, y) {
        (Some(p), Some(q)) => p == q,
        (None, None) => true,
        _ => false,
    }
}
