//! The semantic checks a kernel runs once, after planning and the bounds check and before
//! it writes anything: the destination is unique, and in-place operands coincide or are
//! disjoint. Both read the plan's nests, so they see merged, extent-1-free loops.

use crate::LayoutError;
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
    fn of<const K: usize>(nest: &Nest<K>, k: usize) -> Self {
        let mut out = Self {
            shape: [1; MAX_LOOPS],
            strides: [0; MAX_LOOPS],
            depth: nest.loops().len(),
            offset: nest.offsets().get(k).copied().unwrap_or(0),
        };
        for ((e, s), l) in out.shape.iter_mut().zip(&mut out.strides).zip(nest.loops()) {
            *e = l.extent;
            *s = l.strides.get(k).copied().unwrap_or(0);
        }
        out
    }

    fn parts(&self) -> Parts<'_> {
        Parts::prefix(&self.shape, &self.strides, self.depth, self.offset, 1)
    }

    /// The search budget this operand's checks may spend: proportional to the elements the
    /// kernel is about to touch, so validation never costs more than the work it guards
    /// (each search step is one node of a few loops' worth of arithmetic).
    fn budget(&self) -> u64 {
        let volume = self
            .shape
            .iter()
            .take(self.depth)
            .fold(1u64, |v, &e| v.saturating_mul(e as u64));
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

/// Whether operand `a` of nest `x` and operand `b` of nest `y` share an element; `None` when
/// the budget (proportional to both volumes) ran out first.
fn share<const K: usize>(x: &Nest<K>, a: usize, y: &Nest<K>, b: usize) -> Option<bool> {
    let (one, two) = (Operand::of(x, a), Operand::of(y, b));
    let (mut oa, mut ob) = ([0usize; MAX_LOOPS], [0usize; MAX_LOOPS]);
    overlaps(
        one.parts(),
        two.parts(),
        oa.get_mut(..one.depth).unwrap_or(&mut []),
        ob.get_mut(..two.depth).unwrap_or(&mut []),
        one.budget().saturating_add(two.budget()),
    )
}

/// Whether each stride of `op`, from the smallest `|stride|` up, exceeds the span of the
/// smaller ones: a sufficient test for uniqueness (cuda.core's) that costs a sort of a few
/// loops, so dense and sliced destinations skip the exact search.
fn nested(op: &Operand) -> bool {
    // `(|stride|, extent)` per loop, sorted by `|stride|` (insertion sort of a few loops; the
    // swaps go through a two-element window, so no index can be out of range).
    let mut pairs = [(0usize, 1usize); MAX_LOOPS];
    let pairs = pairs.get_mut(..op.depth).unwrap_or(&mut []);
    for ((pair, &s), &e) in pairs.iter_mut().zip(&op.strides).zip(&op.shape) {
        *pair = (s.unsigned_abs(), e);
    }
    for i in 1..pairs.len() {
        let mut j = i;
        while let Some(p) = j.checked_sub(1) {
            match pairs.get_mut(p..=j) {
                Some([x, y]) if x.0 > y.0 => core::mem::swap(x, y),
                _ => break,
            }
            j = p;
        }
    }
    // `span` is at most the largest offset difference of a valid nest, which fits `isize`.
    let mut span = 0usize;
    for &(a, e) in pairs.iter() {
        if a <= span {
            return false;
        }
        match e
            .checked_sub(1)
            .and_then(|m| m.checked_mul(a))
            .and_then(|d| span.checked_add(d))
        {
            Some(s) => span = s,
            None => return false,
        }
    }
    true
}

/// Checks that no two indices of the destination (operand 0) share an element.
///
/// The one place the kernels decide uniqueness: cuda.core's nesting test first, then the
/// search of [`is_unique_within`](crate::Layout::is_unique_within) with a budget proportional
/// to the volume; a layout it cannot decide within that budget is
/// [`LayoutError::UniquenessUndecided`] (copy through a plain destination instead).
pub(crate) fn destination_unique<const K: usize>(plan: &Plan<K>) -> Result<(), LayoutError> {
    let nests = plan.nests();
    for nest in nests {
        let op = Operand::of(nest, 0);
        if nested(&op) {
            continue;
        }
        let mut order = [0usize; MAX_LOOPS];
        match is_unique(
            op.parts(),
            order.get_mut(..op.depth).unwrap_or(&mut []),
            op.budget(),
        ) {
            Some(true) => {}
            Some(false) => return Err(LayoutError::DestinationNotUnique),
            None => return Err(LayoutError::UniquenessUndecided),
        }
    }
    if let [x, y] = nests {
        match share(x, 0, y, 0) {
            Some(false) => {}
            Some(true) => return Err(LayoutError::DestinationNotUnique),
            None => return Err(LayoutError::UniquenessUndecided),
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
pub(crate) fn operands_coincide<const K: usize>(
    plan: &Plan<K>,
    a: usize,
    b: usize,
) -> Result<bool, LayoutError> {
    let nests = plan.nests();
    let same = nests.iter().all(|n| {
        n.offsets().get(a) == n.offsets().get(b)
            && n.loops()
                .iter()
                .all(|l| l.strides.get(a) == l.strides.get(b))
    });
    if same {
        return Ok(true);
    }
    for x in nests {
        for y in nests {
            match share(x, a, y, b) {
                Some(false) => {}
                Some(true) => return Err(LayoutError::OperandsOverlap),
                None => return Err(LayoutError::UniquenessUndecided),
            }
        }
    }
    Ok(false)
}
