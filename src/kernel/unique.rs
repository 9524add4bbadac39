//! Uniqueness: the semantic checks a kernel runs once, after planning and the bounds check
//! (`proof/bounds.rs`) and before it writes anything: the destination is unique, and in-place
//! operands coincide or are disjoint (the same search, for two operands). Both read the plan's nests, so they see merged, extent-1-free loops.

use crate::LayoutError;
use crate::algo::access::{get, set};
use crate::algo::overlap::overlaps;
use crate::algo::parts::Parts;
use crate::algo::unique::{is_unique, two_axes_unique};
use crate::kernel::mapping::Lowered;
use crate::kernel::plan::{Loop, Nest, Plan};

/// Operand `k` of a nest of at most `L` loops as slices: extents, strides, depth and offset.
struct Operand<const L: usize> {
    shape: [usize; L],
    strides: [isize; L],
    depth: usize,
    offset: isize,
}

impl<const L: usize> Operand<L> {
    const fn of<const K: usize>(nest: &Nest<K, L>, k: usize) -> Self {
        let loops = nest.loops();
        let mut out = Self {
            shape: [1; L],
            strides: [0; L],
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

    /// The search budget this operand's checks may spend: one step per
    /// [`ELEMENTS_PER_STEP`] elements the kernel is about to touch, plus [`BUDGET_FLOOR`], so
    /// that validation costs about what the copy it guards does.
    const fn budget(&self) -> u64 {
        // The slots past the depth hold extent 1.
        budget_of(&self.shape)
    }
}

/// The search budget of an operand of extents `shape`: one step per [`ELEMENTS_PER_STEP`]
/// elements, plus [`BUDGET_FLOOR`].
const fn budget_of(shape: &[usize]) -> u64 {
    let mut volume = 1u64;
    let mut rest = shape;
    while let [e, tail @ ..] = rest {
        rest = tail;
        volume = volume.saturating_mul(*e as u64);
    }
    (volume / ELEMENTS_PER_STEP).saturating_add(BUDGET_FLOOR)
}

/// A plain operand as the searches read it: in elements (itemsize 1), as a nest's
/// operands are ([`Operand::parts`]).
const fn in_elements<const N: usize>(op: &Lowered<N>) -> Parts<'_> {
    Parts::from_arrays(&op.shape, &op.strides, op.offset, 1)
}

/// [`destination_unique`] of a whole plain operand (no blocked axis) of any rank, decided on
/// the operand rather than on a plan's nests, with the same core and budget: for operands
/// whose loops past a nest's are peeled into more pieces than one plan holds
/// (`proof/windows.rs`), where comparing every two pieces would cost the square of their
/// number.
///
/// # Errors
///
/// [`LayoutError::DestinationNotUnique`] if two indices share an element;
/// [`LayoutError::UniquenessUndecided`] if the search ran out of budget.
pub(crate) const fn operand_unique<const N: usize>(op: &Lowered<N>) -> Result<(), LayoutError> {
    let mut order = [0usize; N];
    match is_unique(in_elements(op), &mut order, budget_of(&op.shape)) {
        Some(true) => Ok(()),
        Some(false) => Err(LayoutError::DestinationNotUnique),
        None => Err(LayoutError::UniquenessUndecided),
    }
}

/// [`nests_apart`] of two whole plain operands of one buffer (as [`operand_unique`]):
/// `Ok` when they share no element.
///
/// # Errors
///
/// [`LayoutError::OperandsOverlap`] if they share one; [`LayoutError::UniquenessUndecided`]
/// if the search ran out of budget.
pub(crate) const fn operands_apart<const N: usize>(
    a: &Lowered<N>,
    b: &Lowered<N>,
) -> Result<(), LayoutError> {
    let (mut oa, mut ob) = ([0usize; N], [0usize; N]);
    match overlaps(
        in_elements(a),
        in_elements(b),
        &mut oa,
        &mut ob,
        budget_of(&a.shape).saturating_add(budget_of(&b.shape)),
    ) {
        Some(false) => Ok(()),
        Some(true) => Err(LayoutError::OperandsOverlap),
        None => Err(LayoutError::UniquenessUndecided),
    }
}

/// Elements a kernel touches per search step it may spend deciding uniqueness. Measured in a
/// release build on x86-64: a search step costs 100-230 ns (one node of the search and its
/// candidate loop), and a strided copy about 1 ns per element, so 128 elements buy one step
/// and validation never costs much more than the copy. The hardest unique destinations
/// measured need about one step per element (64 steps at 96 elements, 1,039 at 864, 1,692
/// at 1,944: 40 to 275 ns of search per element); the kernels refuse those with
/// [`LayoutError::UniquenessUndecided`] (`is_unique()` still answers them exactly).
const ELEMENTS_PER_STEP: u64 = 128;
/// Search steps every check may take, however small the operands: every unique layout of
/// rank <= 4 with extents <= 12 decides within 9 steps (measured exhaustively over strides up
/// to 9-40), a few microseconds at most.
const BUDGET_FLOOR: u64 = 16;

/// The first `n` elements of a scratch array (all of it past its length).
const fn first_mut<const L: usize>(s: &mut [usize; L], n: usize) -> &mut [usize] {
    let n = if n < L { n } else { L };
    let (head, _) = s.split_at_mut(n);
    head
}

/// Whether operand `a` of nest `x` and operand `b` of nest `y` share an element; `None` when
/// the budget (proportional to both volumes) ran out first.
const fn share<const K: usize, const L: usize>(
    x: &Nest<K, L>,
    a: usize,
    y: &Nest<K, L>,
    b: usize,
) -> Option<bool> {
    // Offset ranges that do not meet share nothing (the whole blocks and the partial last
    // block of an interleaved operand, usually): answered without the search and its stack.
    if let (Some((lo_a, hi_a)), Some((lo_b, hi_b))) = (get(&x.bounds(), a), get(&y.bounds(), b)) {
        if hi_a < lo_b || hi_b < lo_a {
            return Some(false);
        }
    }
    search_share(x, a, y, b)
}

/// [`share`] by the overlap search (budget proportional to both volumes); never inlined, so
/// its frame (the two operands' scratch, about 700 bytes on a Cortex-M) is only on the stack
/// while the search runs.
#[inline(never)]
const fn search_share<const K: usize, const L: usize>(
    x: &Nest<K, L>,
    a: usize,
    y: &Nest<K, L>,
    b: usize,
) -> Option<bool> {
    let (one, two) = (Operand::of(x, a), Operand::of(y, b));
    let (mut oa, mut ob) = ([0usize; L], [0usize; L]);
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
/// through a plain destination instead). Nests of at most two loops are decided exactly
/// without the search ([`small`]). A `const fn`, so prepared plans of layouts known at
/// compile time are validated by the compiler.
pub(crate) const fn destination_unique<const K: usize, const M: usize, const L: usize>(
    plan: &Plan<K, M, L>,
) -> Result<(), LayoutError> {
    let nests = plan.nests();
    let mut rest = nests;
    while let [nest, tail @ ..] = rest {
        rest = tail;
        if let Err(e) = nest_unique(nest) {
            return Err(e);
        }
    }
    // Every two nests (pieces of the shape) write disjoint elements.
    let mut xs = nests;
    while let [x, ys @ ..] = xs {
        xs = ys;
        let unique = LayoutError::DestinationNotUnique;
        if let Err(e) = nests_apart(core::slice::from_ref(x), 0, ys, 0, unique) {
            return Err(e);
        }
    }
    Ok(())
}

/// [`destination_unique`] for a plan of operands none of which is interleaved
/// ([`Plan::build_strided`]: one nest at most below a rank of
/// [`MAX_LOOPS`](crate::kernel::plan::MAX_LOOPS) (the default `L`), so no two nests to compare and no overlap search
/// linked). A plan of more nests is refused with [`LayoutError::UniquenessUndecided`] (never:
/// the plans of higher ranks, whose peeled loops make several nests, go to
/// [`destination_unique`]).
pub(crate) const fn strided_destination_unique<const K: usize, const M: usize, const L: usize>(
    plan: &Plan<K, M, L>,
) -> Result<(), LayoutError> {
    match plan.nests() {
        [] => Ok(()),
        [nest] => nest_unique(nest),
        _ => Err(LayoutError::UniquenessUndecided),
    }
}

/// [`strided_destination_unique`] for operands of rank `N <= 2`: their one nest has at most
/// two loops (the planner pushes one per axis and only merges them after), so [`small`]
/// decides it exactly and the search is not linked at all. A nest it cannot decide is
/// refused with [`LayoutError::UniquenessUndecided`] (never, by the bound above).
pub(crate) const fn small_destination_unique<const K: usize, const M: usize, const L: usize>(
    plan: &Plan<K, M, L>,
) -> Result<(), LayoutError> {
    match plan.nests() {
        [] => Ok(()),
        [nest] => small_loops_unique(nest.loops()),
        _ => Err(LayoutError::UniquenessUndecided),
    }
}

/// [`small_destination_unique`] for the loops of one nest of at most two loops (a
/// [`SmallNest`](crate::kernel::plan::block::SmallNest) a run-time copy runs without a plan,
/// or a plan's one nest).
#[expect(
    clippy::inline_always,
    reason = "as a call it took the nest's loops by address: 4 more instructions per \
              run-time Cortex-M4 copy"
)]
#[inline(always)]
pub(crate) const fn small_loops_unique<const K: usize>(
    loops: &[Loop<K>],
) -> Result<(), LayoutError> {
    match small_loops(loops, 0) {
        Some(true) => Ok(()),
        Some(false) => Err(LayoutError::DestinationNotUnique),
        None => Err(LayoutError::UniquenessUndecided),
    }
}

/// Whether the destination (operand 0) of one nest is unique: [`small`] first, the budgeted
/// search for what it leaves.
const fn nest_unique<const K: usize, const L: usize>(nest: &Nest<K, L>) -> Result<(), LayoutError> {
    match small(nest, 0) {
        Some(true) => Ok(()),
        Some(false) => Err(LayoutError::DestinationNotUnique),
        None => search_unique(nest),
    }
}

/// [`nest_unique`] by the search, for nests of three loops or more. Never inlined, so its
/// scratch is only on the stack while it runs.
#[inline(never)]
const fn search_unique<const K: usize, const L: usize>(
    nest: &Nest<K, L>,
) -> Result<(), LayoutError> {
    let op = Operand::of(nest, 0);
    let mut order = [0usize; L];
    match is_unique(op.parts(), first_mut(&mut order, op.depth), op.budget()) {
        Some(true) => Ok(()),
        Some(false) => Err(LayoutError::DestinationNotUnique),
        None => Err(LayoutError::UniquenessUndecided),
    }
}

/// The exact answer for operand `k` of a nest of at most two loops, without the search (the
/// shapes nearly every copy plans to once axes are merged): `Some(false)` when a loop does
/// not move it, else the two-axis test of [`two_axes_unique`] (mixed radix, or the smallest
/// colliding index pair out of range); `None` for deeper nests: the search decides.
///
/// The planner dropped extent-1 loops, so every loop here has an extent of at least 2, and
/// the answer is the one [`is_unique`] gives (its search takes one step for two axes, within
/// every budget of the kernels).
const fn small<const K: usize, const L: usize>(nest: &Nest<K, L>, k: usize) -> Option<bool> {
    small_loops(nest.loops(), k)
}

/// [`small`] on a nest's loops.
#[expect(
    clippy::inline_always,
    reason = "inlined into `small_loops_unique` for the run-time copy's sake (7 instructions \
              per Cortex-M4 copy); the const planner's calls run at compile time"
)]
#[inline(always)]
const fn small_loops<const K: usize>(loops: &[Loop<K>], k: usize) -> Option<bool> {
    match loops {
        [] => Some(true),
        [l] => Some(abs(l, k) != 0),
        [x, y] => Some(two_axes_unique(x.extent, abs(x, k), y.extent, abs(y, k))),
        _ => None,
    }
}

/// `|stride|` of operand `k` in loop `l` (0 past the end).
const fn abs<const K: usize>(l: &Loop<K>, k: usize) -> usize {
    match get(&l.strides, k) {
        Some(s) => s.unsigned_abs(),
        None => 0,
    }
}

/// Whether operands `a` and `b` of one buffer coincide (`true`: every index has the same
/// offset in both) or share no element (`false`).
///
/// # Errors
///
/// [`LayoutError::OperandsOverlap`] if they share an element without coinciding;
/// [`LayoutError::UniquenessUndecided`] if the search ran out of budget.
pub(crate) const fn operands_coincide<const K: usize, const M: usize, const L: usize>(
    plan: &Plan<K, M, L>,
    a: usize,
    b: usize,
) -> Result<bool, LayoutError> {
    let nests = plan.nests();
    if same_in_every_nest(nests, a, b) {
        return Ok(true);
    }
    match nests_apart(nests, a, nests, b, LayoutError::OperandsOverlap) {
        Ok(()) => Ok(false),
        Err(e) => Err(e),
    }
}

/// Checks that no nest of `xs` shares an element of operand `a` with a nest of `ys` in
/// operand `b`: the nests of one plan ([`destination_unique`], [`operands_coincide`]), or
/// two windows of one run-time kernel's pieces (`proof/windows.rs`). `shared` is the error when two
/// do (the destination's: [`LayoutError::DestinationNotUnique`]; in place:
/// [`LayoutError::OperandsOverlap`]); [`LayoutError::UniquenessUndecided`] when the search
/// ran out of budget.
pub(crate) const fn nests_apart<const K: usize, const L: usize>(
    xs: &[Nest<K, L>],
    a: usize,
    ys: &[Nest<K, L>],
    b: usize,
    shared: LayoutError,
) -> Result<(), LayoutError> {
    let mut rest = xs;
    while let [x, xt @ ..] = rest {
        rest = xt;
        let mut others = ys;
        while let [y, yt @ ..] = others {
            others = yt;
            match share(x, a, y, b) {
                Some(false) => {}
                Some(true) => return Err(shared),
                None => return Err(LayoutError::UniquenessUndecided),
            }
        }
    }
    Ok(())
}

/// Whether operands `a` and `b` have the same offset and strides in every nest.
pub(crate) const fn same_in_every_nest<const K: usize, const L: usize>(
    nests: &[Nest<K, L>],
    a: usize,
    b: usize,
) -> bool {
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

#[cfg(test)]
#[expect(
    clippy::unwrap_used,
    reason = "tests of layouts that are valid by construction"
)]
mod tests {
    use super::{destination_unique, small_destination_unique, strided_destination_unique};
    use crate::kernel::plan::Plan;
    use crate::{Layout, LayoutError};

    /// The destination check of a one-operand plan of `dst`.
    fn check<const N: usize>(dst: &Layout<N>) -> Result<(), LayoutError> {
        destination_unique(&Plan::new(&[dst.lowered()]).unwrap())
    }

    #[test]
    fn destination_of_two_loops_is_decided_without_the_search() {
        // Nested (mixed radix), either order and flipped: unique.
        assert_eq!(check(&Layout::new([4, 3], [1, 4], 4).unwrap()), Ok(()));
        assert_eq!(
            check(
                &Layout::new([4, 3], [-3, 1], 4)
                    .unwrap()
                    .with_offset(9)
                    .unwrap()
            ),
            Ok(())
        );
        // A loop that does not move: not unique.
        assert_eq!(
            check(&Layout::new([4, 3], [0, 1], 4).unwrap()),
            Err(LayoutError::DestinationNotUnique)
        );
        // Not nested but unique (0, 3, .., 12 and 5, .., 22 never meet): the two-axis gcd
        // test decides it.
        assert_eq!(check(&Layout::new([3, 5], [5, 3], 4).unwrap()), Ok(()));
        // Not nested and not unique (4·1 = 2·2).
        assert_eq!(
            check(&Layout::new([3, 4], [4, 2], 4).unwrap()),
            Err(LayoutError::DestinationNotUnique)
        );
    }

    #[test]
    fn hard_unique_destination_costs_more_than_its_copy_and_is_undecided() {
        // 96 elements, unique, but the search needs 64 steps: more than the 16 + 96 / 128
        // a copy of 96 elements may spend.
        let hard = Layout::new([2, 2, 2, 2, 3, 2], [197, 217, 195, 168, 225, 99], 4).unwrap();
        assert!(hard.is_unique());
        assert_eq!(check(&hard), Err(LayoutError::UniquenessUndecided));
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "safe code only, no unsafe on its path: the native x86-64 and i686 runs check it"
    )]
    fn strided_checks_of_rank_two_agree_with_the_general_check() {
        // Every rank-2 destination with extents 1..=4 and strides -6..=6: the one-nest check
        // with no search, the one-nest check with it, and the general check answer alike.
        let strides: &[isize] = &[-6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6];
        for e0 in 1..=4usize {
            for e1 in 1..=4usize {
                for &s0 in strides {
                    for &s1 in strides {
                        let dst = Layout::new([e0, e1], [s0, s1], 4).unwrap();
                        let dst = dst.with_offset(40).unwrap();
                        let plan = Plan::new(&[dst.lowered()]).unwrap();
                        let want = destination_unique(&plan);
                        assert_eq!(small_destination_unique(&plan), want, "{dst:?}");
                        assert_eq!(strided_destination_unique(&plan), want, "{dst:?}");
                        assert_eq!(want.is_ok(), dst.is_unique(), "{dst:?}");
                    }
                }
            }
        }
    }

    #[test]
    fn strided_check_of_rank_three_searches_like_the_general_check() {
        let unique = Layout::new([2, 2, 3], [5, 7, 3], 4).unwrap();
        let shared = Layout::new([2, 2, 3], [5, 3, 1], 4).unwrap();
        for dst in [unique, shared] {
            let plan = Plan::new(&[dst.lowered()]).unwrap();
            assert_eq!(strided_destination_unique(&plan), destination_unique(&plan));
            assert_eq!(destination_unique(&plan).is_ok(), dst.is_unique());
        }
        // The search is what decides here (neither nested nor two loops).
        assert!(unique.is_unique() && !shared.is_unique());
    }
}
