//! The one nest of operands of rank `N <= 2` that no interleave splits, planned on its own: at
//! most two loops, so it needs none of a [`Plan`]'s [`MAX_LOOPS`](super::MAX_LOOPS)
//! slots.
//!
//! | planner | operands | used by |
//! | --- | --- | --- |
//! | [`small_nest`] (`const`) | any count `K` | [`Plan::build_small`](super::Plan::build_small), which stores the nest in a plan (`const` plans, every kernel over plain layouts of rank `<= 2`) |
//! | [`copy_nest`] | a copy's two, written out | the run-time [`copy()`](crate::copy()), which runs the nest as it is, with no plan to clear (a plan of two operands is about 140 bytes on a 32-bit target, this nest 64) |
//! | [`SmallNest::of_loops`] | a copy's two, whose loops the operands' shape gives | the run-time `copy()`'s specialisations on hosts (one run each side, a small-block kernel's transpose): the loops written down, bounds measured, no order or tile (their kernels run the block whole) |
//!
//! The first two plan what the general builder plans (`Plan::build_nest`), down to the slot
//! a merged-away loop leaves; a test compares the three on every small rank-2 pair. Every
//! nest of this module goes through the same validation ([`UniqueBlock::check`](crate::kernel::proof::UniqueBlock::check)).

use super::{
    Loop, Plan, backwards2, crowded_in_destination_order, face, flip, item_bounds, itemsize_of,
    line_for, measure, measure2, merge, merge_turned, merge2, offsets_of, outer_first,
    outer_first2, short_back, side_for, strides_at, tile2, turn2, untiled_small,
};
use crate::LayoutError;
use crate::algo::access::get;
use crate::kernel::mapping::Lowered;

/// A nest of at most two loops with its offsets, bounds and tile, as the general builder
/// plans it (down to the slot a merged-away loop leaves: `loops` past `depth`). Only this
/// module builds one, and always measures `bounds` from the loops and offsets: the copy's
/// bounds check ([`UniqueBlock`](crate::kernel::proof::UniqueBlock)) reads them as the nest's
/// true bounds, as [`InBounds`](crate::kernel::proof::InBounds) reads a plan nest's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub(crate) struct SmallNest<const K: usize> {
    /// The nest's first two loop slots, outermost first; `depth` of them are its loops.
    pub(super) loops: [Loop<K>; 2],
    /// How many loops the nest has: 0, 1 or 2.
    pub(super) depth: usize,
    /// Each operand's offset at the first element.
    pub(super) offsets: [isize; K],
    /// Each operand's smallest and largest offset.
    pub(super) bounds: [(isize, isize); K],
    /// The tile of the two loops, when the block is worth tiling.
    pub(super) tile: Option<[usize; 2]>,
}

#[cfg(not(target_os = "none"))]
impl SmallNest<2> {
    /// The nest of a copy whose plan the operands' shape already gives (a specialisation of
    /// the planner chosen by that shape: one run each side, or the two loops of a transpose):
    /// `loops`, outermost first, each of extent at least 2 and moving in at least one operand,
    /// from `offsets` (destination first), untiled, with its bounds measured as the planner
    /// measures them. `None` when there are more than two loops or a bound overflows `isize`
    /// (the general planner then plans the copy and reports it).
    #[expect(
        clippy::inline_always,
        reason = "inlined, the run-time copy's specialisations keep the nest in registers"
    )]
    #[inline(always)]
    pub(crate) fn of_loops(loops: &[Loop<2>], offsets: [isize; 2]) -> Option<Self> {
        let ([outer, inner], depth) = match *loops {
            [a] => ([a, Loop::UNIT], 1),
            [a, b] => ([a, b], 2),
            _ => return None,
        };
        let bounds = measure2(offsets, &outer, &inner, depth)?;
        Some(Self {
            loops: [outer, inner],
            depth,
            offsets,
            bounds,
            tile: None,
        })
    }
}

impl<const K: usize> SmallNest<K> {
    /// The nest of `plan` when the plan is one nest of at most two loops (nearly every small
    /// copy), as the drivers would hand it to the block kernels: its loops, offsets, bounds
    /// and tile; `None` for any other plan, an empty one included. A `const fn`: a plan built
    /// at compile time is decoded at compile time.
    pub(crate) const fn of_plan<const M: usize, const L: usize>(
        plan: &Plan<K, M, L>,
    ) -> Option<Self> {
        let [nest] = plan.nests() else {
            return None;
        };
        let (loops, depth) = match nest.loops() {
            [a, b] => ([*a, *b], 2),
            [a] => ([*a, Loop::UNIT], 1),
            [] => ([Loop::UNIT, Loop::UNIT], 0),
            _ => return None,
        };
        Some(Self {
            loops,
            depth,
            offsets: nest.offsets(),
            bounds: nest.bounds(),
            tile: nest.tile(),
        })
    }

    /// The block the loop drivers take: the inner loop `b` and the one outside it `a`, a
    /// one-step loop where the nest has fewer than two loops.
    pub(crate) const fn block(&self) -> (Loop<K>, Loop<K>) {
        let [outer, inner] = self.loops;
        match self.depth {
            0 => (Loop::UNIT, Loop::UNIT),
            1 => (Loop::UNIT, outer),
            _ => (outer, inner),
        }
    }

    /// The loops, outermost first.
    pub(crate) const fn loops(&self) -> &[Loop<K>] {
        match self.loops.split_at_checked(self.depth) {
            Some((used, _)) => used,
            None => &self.loops,
        }
    }

    /// Each operand's offset at the first element.
    pub(crate) const fn offsets(&self) -> [isize; K] {
        self.offsets
    }

    /// Each operand's smallest and largest offset.
    pub(crate) const fn bounds(&self) -> [(isize, isize); K] {
        self.bounds
    }

    /// The tile of the two loops, or `None` when the block runs whole.
    pub(crate) const fn tile(&self) -> Option<[usize; 2]> {
        self.tile
    }

    /// How many indices the nest visits.
    pub(crate) const fn volume(&self) -> usize {
        let (a, b) = self.block();
        a.extent.saturating_mul(b.extent)
    }
}

/// Plans operands of rank `N <= 2` that no interleave splits and [`check_operands`](super::check_operands) passed
/// (`side`: the tile side it gave): the general builder's steps (push, flip, order, merge,
/// tile, the destination's order where three operands' rows crowd its sets, face, measure) on
/// two slots, named once, with the tile's block test first (the blocks of real small copies
/// rule tiling out at once). No operands: a nest of no loops.
///
/// # Errors
///
/// The general builder's: an offset or bound that overflows `isize`.
pub(crate) const fn small_nest<const N: usize, const K: usize>(
    ops: &[Lowered<N>; K],
    side: usize,
) -> Result<SmallNest<K>, LayoutError> {
    let empty = Loop {
        extent: 0,
        strides: [0; K],
    };
    let mut offsets = offsets_of(ops);
    let (mut outer, mut inner) = (empty, empty);
    let mut depth = 0usize;
    let Some(first) = ops.first() else {
        return Ok(SmallNest {
            loops: [empty, empty],
            depth,
            offsets,
            bounds: [(0, 0); K],
            tile: None,
        });
    };
    // Push: extent-1 axes dropped, the second merged into the first where it can.
    let mut k = 0;
    while k < N {
        let extent = match get(&first.shape, k) {
            Some(e) => e,
            None => 1,
        };
        if extent != 1 {
            let l = Loop {
                extent,
                strides: strides_at(ops, k),
            };
            if depth == 0 {
                (outer, depth) = (l, 1);
            } else if let Some(m) = merge(&outer, &l) {
                outer = m;
            } else {
                (inner, depth) = (l, 2);
            }
        }
        k = k.saturating_add(1);
    }
    // Flip loops that go backwards (or stand still) in every operand.
    if depth >= 1 {
        if let Err(e) = flip(&mut outer, &mut offsets) {
            return Err(e);
        }
    }
    if depth == 2 {
        if let Err(e) = flip(&mut inner, &mut offsets) {
            return Err(e);
        }
        // Order (largest weight outermost, stable), then merge again; like the general
        // builder, the merged-away loop stays in its slot past the depth.
        if !outer_first(&outer, &inner, line_for(itemsize_of(ops))) {
            (outer, inner) = (inner, outer);
        }
        if let Some(m) = merge(&outer, &inner) {
            (outer, depth) = (m, 1);
        } else {
            match merge_turned(&outer, &inner, &mut offsets) {
                Ok(Some(m)) => (outer, depth) = (m, 1),
                Ok(None) => {}
                Err(e) => return Err(e),
            }
        }
    }
    let [narrowest, widest] = item_bounds(ops);
    let line = line_for(widest);
    let tile = block_tile(&mut outer, &mut inner, depth, side, [line, narrowest]);
    // The general builder's last order step, on the two loops.
    if depth == 2 {
        let mut pair = [outer, inner];
        depth = match crowded_in_destination_order(&mut pair, &mut offsets, tile.is_some(), line) {
            Ok(n) => n,
            Err(e) => return Err(e),
        };
        [outer, inner] = pair;
    }
    if depth == 2 {
        if let Err(e) = face(&mut outer, &mut inner, &mut offsets) {
            return Err(e);
        }
    }
    let mut nest = SmallNest {
        loops: [outer, inner],
        depth,
        offsets,
        bounds: [(0, 0); K],
        tile,
    };
    let loops = match nest.loops.split_at_checked(depth) {
        Some((used, _)) => used,
        None => &nest.loops,
    };
    if let Err(e) = measure(loops, &nest.offsets, &mut nest.bounds) {
        return Err(e);
    }
    Ok(nest)
}

/// [`check_operands`](super::check_operands) and [`small_nest`] for a copy's two operands
/// (destination first) of rank `N <= 2`, neither interleaved, written out operand by operand
/// and axis by axis: the run-time [`copy()`](crate::copy()) plans with it. At
/// `opt-level = "s"` the compiler keeps the generic planner's loops over operands and axes as
/// loops (two steps each), which cost a Cortex-M4 about three times the work they do; this
/// plans the same nest (tested against the generic planner on every small rank-2 pair) in
/// about a third of the instructions. `Ok(None)` when an extent is 0 (nothing to visit).
///
/// # Errors
///
/// As the generic planner: [`LayoutError::ShapeMismatch`] at the first axis where the
/// shapes differ, [`LayoutError::OffsetOverflow`] if an offset or bound overflows `isize`.
///
/// `line`: [`line_for`] the larger itemsize, which the caller knows from the element types
/// (a constant: no division at run time).
pub(crate) fn copy_nest<const N: usize>(
    dst: &Lowered<N>,
    src: &Lowered<N>,
    line: usize,
) -> Result<Option<SmallNest<2>>, LayoutError> {
    let ((dst_shape, ds), (src_shape, ss)) = (rank2(dst), rank2(src));
    let [e0, e1] = dst_shape;
    if src_shape[0] != e0 {
        return Err(LayoutError::ShapeMismatch { axis: 0 });
    }
    if src_shape[1] != e1 {
        return Err(LayoutError::ShapeMismatch { axis: 1 });
    }
    if e0 == 0 || e1 == 0 {
        return Ok(None);
    }
    let side = side_for(dst.itemsize.max(src.itemsize).max(1));
    let empty = Loop {
        extent: 0,
        strides: [0; 2],
    };
    let mut offsets = [dst.offset, src.offset];
    // Push: extent-1 axes dropped, the second merged into the first where it can.
    let l0 = Loop {
        extent: e0,
        strides: [ds[0], ss[0]],
    };
    let l1 = Loop {
        extent: e1,
        strides: [ds[1], ss[1]],
    };
    let (mut outer, mut inner, mut depth) = match (e0 != 1, e1 != 1) {
        (false, false) => (empty, empty, 0usize),
        (true, false) => (l0, empty, 1),
        (false, true) => (l1, empty, 1),
        (true, true) => match merge2(&l0, &l1) {
            Some(m) => (m, empty, 1),
            None => (l0, l1, 2),
        },
    };
    // Every arithmetic error below is an overflow of `isize`.
    let overflow = LayoutError::OffsetOverflow;
    // Whether the second merge test below can answer otherwise than the push's: the push
    // tried these two loops, unflipped, in this order. Flipping both negates both sides of
    // each operand's test `outer stride == inner stride · inner extent` (and `turn2` refuses
    // a stride it cannot negate), so only one flip or a swap can let them merge now; every
    // other case skips the test's four multiplies.
    let mut retry = false;
    if depth >= 1 && backwards2(&outer) {
        turn2(&mut outer, &mut offsets).ok_or(overflow)?;
        retry = !retry;
    }
    if depth == 2 {
        if backwards2(&inner) {
            turn2(&mut inner, &mut offsets).ok_or(overflow)?;
            retry = !retry;
        }
        // Order (largest weight outermost, stable), then merge again; the merged-away loop
        // stays in its slot past the depth.
        if !outer_first2(&outer, &inner, line) {
            (outer, inner) = (inner, outer);
            retry = true;
        }
        if retry {
            if let Some(m) = merge2(&outer, &inner) {
                (outer, depth) = (m, 1);
            }
        }
        // Hosts: the merge through a turn, as the general builder's. Bare metal leaves it
        // out of the run-time copy (a 2-D copy of flipped blocks is rare in firmware, and the
        // test costs every copy whose loops do not merge); a prepared plan, planned at compile
        // time, still merges so.
        if depth == 2 && cfg!(not(target_os = "none")) {
            if let Some(m) = merge_turned(&outer, &inner, &mut offsets)? {
                (outer, depth) = (m, 1);
            }
        }
    }
    // Bare metal: the run-time copy does not tile. A tile orders a large block's steps for a
    // data cache, which most microcontrollers lack (their SRAM answers every access alike),
    // and the tile driver cost the run-time copy about 300 bytes of flash on a Cortex-M4. A
    // prepared plan still tiles where its planner says so (its tile is known at compile
    // time, so its driver is linked only then).
    let tile = if cfg!(target_os = "none") {
        None
    } else {
        block_tile(
            &mut outer,
            &mut inner,
            depth,
            side,
            [line, dst.itemsize.min(src.itemsize)],
        )
    };
    // Hosts: the block faced for the vector kernels, as the general builder's (bare metal
    // has none that a turn would let in, and the test costs every Cortex-M copy).
    if depth == 2 && cfg!(not(target_os = "none")) {
        face(&mut outer, &mut inner, &mut offsets)?;
    }
    let bounds = measure2(offsets, &outer, &inner, depth).ok_or(overflow)?;
    Ok(Some(SmallNest {
        loops: [outer, inner],
        depth,
        offsets,
        bounds,
        tile,
    }))
}

/// The tile of a nest of `depth` loops `outer`, `inner`: the general builder's steps for two
/// loops, [`tile2`]'s tile through [`untiled_small`] (strips, the block test, the swap of
/// short rows), then [`short_back`].
const fn block_tile<const K: usize>(
    outer: &mut Loop<K>,
    inner: &mut Loop<K>,
    depth: usize,
    side: usize,
    [line, narrowest]: [usize; 2],
) -> Option<[usize; 2]> {
    if depth != 2 {
        return None;
    }
    let mut pair = [*outer, *inner];
    let tile = untiled_small(tile2(outer, inner, side, line), &mut pair, side, line);
    let [a, b] = &mut pair;
    let tile = short_back(tile, [a, b], false, side, [line, narrowest]);
    [*outer, *inner] = pair;
    tile
}

/// An operand of rank `N <= 2` as rank 2: a missing axis is an extent-1 axis after the
/// others, which the planner drops (rank 0 is `[1, 1]`; `N > 2`, which the caller rules
/// out, reads as rank 0).
fn rank2<const N: usize>(op: &Lowered<N>) -> ([usize; 2], [isize; 2]) {
    match (op.shape.as_slice(), op.strides.as_slice()) {
        (&[e0, e1], &[s0, s1]) => ([e0, e1], [s0, s1]),
        (&[e0], &[s0]) => ([e0, 1], [s0, 0]),
        _ => ([1, 1], [0, 0]),
    }
}
