//! Operands blocked differently: the shape cut into pieces that are strided in every
//! operand, one nest per piece.
//!
//! An operand whose axis `d` has levels of extents `e_1, e_2, ..` (an interleave by `f` is
//! the one level `f`) is strided along `d` only inside a block of one level, or across whole
//! blocks of it: its *place values* on `d` are `e_1, e_1·e_2, ..`. Each axis with a place
//! value > 1 in some operand (below, its "factors": every operand's place values on it) is
//! cut into *segments*, runs of indices
//! `start + Σ t_j · unit_j` over which every operand's offset is affine, so each segment is
//! a few strided loops. The nests are the cartesian product of the cut axes' segments (a
//! segment with no index is skipped); offsets and strides come from
//! [`Blocks::offset_on`](crate::plan::Blocks::offset_on), the one place the blocked formula is
//! written.
//!
//! With the distinct factors of one axis `f_1 < .. < f_m`:
//!
//! - **a chain** (`f_1 | f_2 | .. | f_m`, so also every single factor) cuts into `m + 1`
//!   segments: the whole `f_m` blocks as loops `(e / f_m, f_m / f_{m-1}, .., f_2 / f_1, f_1)`,
//!   then, inside the partial last `f_m` block, the whole `f_{m-1}` blocks, and so on down to
//!   the last `< f_1` indices;
//! - **otherwise** (4 and 6): with `g = gcd` and `L = lcm`, the chunks of `g` indices at
//!   phase `q` of each period of `L` (`q · g + p · L + 0..g`) are one segment per phase (the
//!   same loops, another start), then the last `< g` indices: `L / g + 1` segments at most
//!   (fewer when the axis is shorter than `L`).
//!
//! ```text
//! nChw8c -> nChw16c, C = 40 (axis 1 cut by 8 and 16: a chain)
//!   segment 0: C = 0..32    loops (2 blocks of 16) x (2 blocks of 8) x (8 lanes)
//!   segment 1: C = 32..40   loops (1 block of 8)  x (8 lanes)
//!   segment 2: C = 40..40   (empty: skipped)
//! blocks of 4 -> blocks of 6, e = 7 (g = 2, L = 12: shorter than one period)
//!   phases q = 0..3: C = 2q + 0..2         loops (2 lanes)
//!   last:            C = 6..7              loops (1 lane)
//! ```
//!
//! The pieces are numbered in that product's order (the first cut's segment slowest), and a
//! plan holds `M` of them ([`MAX_NESTS`](super::MAX_NESTS) for [`Plan::new`]; a prepared plan
//! made `with_nests` holds its own `M`): past that [`LayoutError::InterleaveConflict`], while
//! the run-time kernels plan them a *window* of [`MAX_NESTS`](super::MAX_NESTS) pieces at a time
//! (`proof/windows.rs`), up to [`MAX_PIECES`]: oneDNN's `OIhw16i16o -> OIhw4i16o4i` with
//! partial blocks on both blocked axes is 2 x 3 pieces. Refused everywhere: more than
//! [`MAX_CUTS`] distinct place values on one axis or cut axes in one plan, and more than
//! [`MAX_PIECES`] pieces.

use super::{MAX_PIECES, Plan, at, item_bounds, stride_at};
use crate::LayoutError;
use crate::algo::access::{get, set};
use crate::algo::checked::tri;
use crate::kernel::mapping::Lowered;

/// The most distinct interleave factors (> 1) one axis is cut by, and the most axes cut in
/// one plan (each operand adds at most one of each: more than [`MAX_CUTS`] is
/// [`LayoutError::InterleaveConflict`]).
pub(crate) const MAX_CUTS: usize = 4;

/// The most loops of one segment: a chain of [`MAX_CUTS`] factors and the lane loop.
const SEG_LOOPS: usize = MAX_CUTS + 1;

/// `a / b`, 0 when `b == 0` (never for the factors here, all `>= 2`).
const fn div(a: usize, b: usize) -> usize {
    match a.checked_div(b) {
        Some(v) => v,
        None => 0,
    }
}

/// `a % b`, `a` when `b == 0` (never for the factors here).
const fn rem(a: usize, b: usize) -> usize {
    match a.checked_rem(b) {
        Some(v) => v,
        None => a,
    }
}

const fn gcd(a: usize, b: usize) -> usize {
    let (mut x, mut y) = (a, b);
    while y != 0 {
        (x, y) = (y, rem(x, y));
    }
    x
}

/// One axis cut by the interleave factors of the operands interleaved on it.
#[derive(Clone, Copy)]
struct Cut {
    axis: usize,
    extent: usize,
    /// The distinct factors, ascending, each `>= 2`; the first `count` are used.
    factors: [usize; MAX_CUTS],
    count: usize,
    /// Whether each factor divides the next.
    chain: bool,
    gcd: usize,
    /// `None` when the lcm overflows `usize` (then it exceeds every extent).
    lcm: Option<usize>,
}

/// A run of indices along a cut axis: `start + Σ t_j · unit_j`, `t_j < extent_j`.
#[derive(Clone, Copy)]
struct Segment {
    start: usize,
    /// `(extent, unit)` of each loop, outermost first; the first `depth` are used.
    loops: [(usize, usize); SEG_LOOPS],
    depth: usize,
}

impl Segment {
    const NONE: Self = Self {
        start: 0,
        loops: [(1, 1); SEG_LOOPS],
        depth: 0,
    };

    /// Appends a loop; `false` when it has no step (the segment is empty).
    const fn push(&mut self, extent: usize, unit: usize) -> bool {
        set(&mut self.loops, self.depth, (extent, unit));
        self.depth = self.depth.saturating_add(1);
        extent > 0
    }
}

impl Cut {
    const NONE: Self = Self {
        axis: 0,
        extent: 0,
        factors: [1; MAX_CUTS],
        count: 0,
        chain: true,
        gcd: 1,
        lcm: Some(1),
    };

    /// Adds factor `f >= 2` (kept ascending and distinct); `false` when the cut is full.
    const fn add(&mut self, f: usize) -> bool {
        let mut i = 0;
        while i < self.count {
            let Some(x) = get(&self.factors, i) else {
                return false;
            };
            if x == f {
                return true;
            }
            if x > f {
                break;
            }
            i = i.saturating_add(1);
        }
        if self.count >= MAX_CUTS {
            return false;
        }
        // Shift the larger factors up by one, then put `f` at `i`.
        let mut j = self.count;
        while j > i {
            let p = j.saturating_sub(1);
            if let Some(x) = get(&self.factors, p) {
                set(&mut self.factors, j, x);
            }
            j = p;
        }
        set(&mut self.factors, i, f);
        self.count = self.count.saturating_add(1);
        true
    }

    /// Factor `i` of the chain, `f_0 = 1` below the first: `f(0) == 1`, `f(count)` the largest.
    const fn f(&self, i: usize) -> usize {
        match i.checked_sub(1) {
            Some(j) => match get(&self.factors, j) {
                Some(x) => x,
                None => 1,
            },
            None => 1,
        }
    }

    /// Derives `chain`, `gcd` and `lcm` from the factors, for an axis of `extent`.
    #[expect(
        clippy::many_single_char_names,
        reason = "`g`, `l`, `f`, `i`: gcd, lcm, a factor and its counter, as in the module doc"
    )]
    const fn finish(&mut self, extent: usize) {
        self.extent = extent;
        let (mut g, mut l) = (self.f(1), Some(self.f(1)));
        let mut chain = true;
        let mut i = 2;
        while i <= self.count {
            let (prev, f) = (self.f(i.saturating_sub(1)), self.f(i));
            chain &= rem(f, prev) == 0;
            g = gcd(g, f);
            l = match l {
                Some(x) => div(x, gcd(x, f)).checked_mul(f),
                None => None,
            };
            i = i.saturating_add(1);
        }
        (self.chain, self.gcd, self.lcm) = (chain, g, l);
    }

    /// `(whole periods of lcm, indices after them)`.
    const fn periods(&self) -> (usize, usize) {
        match self.lcm {
            Some(l) => (div(self.extent, l), rem(self.extent, l)),
            None => (0, self.extent),
        }
    }

    /// The phases with at least one chunk of `gcd` (not a chain).
    const fn phases(&self) -> usize {
        match (self.periods(), self.lcm) {
            ((0, r), _) | ((_, r), None) => div(r, self.gcd),
            ((_, _), Some(l)) => div(l, self.gcd),
        }
    }

    /// The segment slots [`segment`](Self::segment) answers for, some possibly empty.
    const fn slots(&self) -> usize {
        if self.chain {
            self.count.saturating_add(1)
        } else {
            self.phases().saturating_add(1)
        }
    }

    /// The non-empty segments.
    const fn nonempty(&self) -> usize {
        let mut n = 0usize;
        let mut j = 0;
        let slots = self.slots();
        while j < slots {
            if self.segment(j).is_some() {
                n = n.saturating_add(1);
            }
            j = j.saturating_add(1);
        }
        n
    }

    /// Segment `j`, `None` when it holds no index.
    #[expect(
        clippy::many_single_char_names,
        reason = "`j`, `s`, `g`, `r`, `i`: slot, segment, gcd, indices left, counter"
    )]
    const fn segment(&self, j: usize) -> Option<Segment> {
        let mut s = Segment::NONE;
        let mut nonempty = true;
        if self.chain {
            // Level `count - j`: the whole blocks of `f(level)` left after the levels above.
            let mut left = self.extent;
            let mut level = self.count;
            let mut i = 0;
            while i < j {
                left = rem(left, self.f(level));
                level = level.saturating_sub(1);
                i = i.saturating_add(1);
            }
            // `left <= extent`: the subtraction cannot wrap.
            s.start = self.extent.saturating_sub(left);
            nonempty &= s.push(div(left, self.f(level)), self.f(level));
            while level > 0 {
                let lower = self.f(level.saturating_sub(1));
                nonempty &= s.push(div(self.f(level), lower), lower);
                level = level.saturating_sub(1);
            }
        } else {
            let (full, r) = self.periods();
            let g = self.gcd;
            let phases = self.phases();
            if j < phases {
                // Phase `j`: chunk `j` of every whole period, and of the partial one when it
                // holds that chunk whole. `j · g + g <= lcm` or `<= extent`: no wrap.
                s.start = j.saturating_mul(g);
                let partial = s.start.saturating_add(g) <= r;
                let count = if partial {
                    full.saturating_add(1)
                } else {
                    full
                };
                let unit = match self.lcm {
                    Some(l) => l,
                    None => self.extent,
                };
                nonempty &= s.push(count, unit);
                nonempty &= s.push(g, 1);
            } else {
                // The last `r % g` indices, after the whole chunks of the partial period.
                let whole = r.saturating_sub(rem(r, g));
                s.start = self.extent.saturating_sub(r).saturating_add(whole);
                nonempty &= s.push(rem(r, g), 1);
            }
        }
        if nonempty { Some(s) } else { None }
    }
}

/// The cut of axis `k`, if any.
const fn cut_on(cuts: &[Cut], k: usize) -> Option<usize> {
    let mut c = 0;
    while let Some(cut) = at(cuts, c) {
        if cut.axis == k {
            return Some(c);
        }
        c = c.saturating_add(1);
    }
    None
}

impl<const K: usize, const M: usize, const L: usize> Plan<K, M, L> {
    /// The nests of operands of which at least one is interleaved (factor > 1): the shape
    /// cut into pieces strided in every operand (see the module doc), pieces
    /// `first..first + M` of them planned (a window; `first` is 0 for a whole plan).
    /// Returns the number of pieces in all. `shape` has no extent 0, and every interleave was
    /// checked (`d < N`, `f >= 1`).
    pub(super) const fn build_pieces<const N: usize>(
        &mut self,
        ops: &[Lowered<N>; K],
        offsets: [isize; K],
        side: usize,
        first: usize,
    ) -> Result<usize, LayoutError> {
        let Some(head) = ops.first() else {
            return Ok(0);
        };
        let shape = head.shape;
        let mut cuts = [Cut::NONE; MAX_CUTS];
        let mut ncuts = 0usize;
        // Every place value (> 1) of every operand's levels, on the level's axis.
        let (mut operand, mut index) = (0, 0);
        while let Some(op) = at(ops, operand) {
            let Some(level) = at(op.blocks.levels(), index) else {
                (operand, index) = (operand.saturating_add(1), 0);
                continue;
            };
            // `None` past `usize`: it exceeds every extent, and no index reaches the next
            // level, so it cuts nothing.
            let (d, place) = (level.axis, op.blocks.place_value(index));
            index = index.saturating_add(1);
            let Some(f) = place else {
                continue;
            };
            if f <= 1 {
                continue;
            }
            let c = match cut_on(first_n(&cuts, ncuts), d) {
                Some(c) => c,
                None if ncuts < MAX_CUTS => {
                    let mut cut = Cut::NONE;
                    cut.axis = d;
                    set(&mut cuts, ncuts, cut);
                    ncuts = ncuts.saturating_add(1);
                    ncuts.saturating_sub(1)
                }
                None => return Err(LayoutError::InterleaveConflict),
            };
            let Some(mut cut) = get(&cuts, c) else {
                return Err(LayoutError::InterleaveConflict);
            };
            if !cut.add(f) {
                return Err(LayoutError::InterleaveConflict);
            }
            set(&mut cuts, c, cut);
        }
        // Finish each cut and count the pieces: the product of the non-empty segments.
        let mut total = 1usize;
        let mut c = 0;
        while c < ncuts {
            let Some(mut cut) = get(&cuts, c) else { break };
            cut.finish(match get(&shape, cut.axis) {
                Some(e) => e,
                None => 1,
            });
            // Past `MAX_PIECES` slots the count alone could take long (phases of a large
            // lcm): refused before counting.
            if cut.slots() > MAX_PIECES {
                return Err(LayoutError::InterleaveConflict);
            }
            total = total.saturating_mul(cut.nonempty());
            set(&mut cuts, c, cut);
            c = c.saturating_add(1);
        }
        if total > MAX_PIECES {
            return Err(LayoutError::InterleaveConflict);
        }
        // Every combination of segments, the first cut's slot slowest; `piece` counts the
        // non-empty ones, and those in the window are planned.
        let end = first.saturating_add(M);
        let (mut slot, mut piece) = ([0usize; MAX_CUTS], 0usize);
        loop {
            if let Some(segs) = segments_at(first_n(&cuts, ncuts), &slot) {
                if piece >= first && piece < end {
                    tri!(self.piece_nest(ops, offsets, side, first_n(&cuts, ncuts), &segs));
                }
                piece = piece.saturating_add(1);
            }
            // Odometer over the slots, the last cut fastest.
            let mut c = ncuts;
            loop {
                let Some(p) = c.checked_sub(1) else {
                    return Ok(total);
                };
                c = p;
                let (Some(cut), Some(i)) = (get(&cuts, c), get(&slot, c)) else {
                    return Ok(total);
                };
                let next = i.saturating_add(1);
                if next < cut.slots() {
                    set(&mut slot, c, next);
                    break;
                }
                set(&mut slot, c, 0);
            }
        }
    }

    /// One nest: each cut axis replaced by the loops of its segment, the others kept.
    const fn piece_nest<const N: usize>(
        &mut self,
        ops: &[Lowered<N>; K],
        offsets: [isize; K],
        side: usize,
        cuts: &[Cut],
        segs: &[Segment; MAX_CUTS],
    ) -> Result<(), LayoutError> {
        let Some(first) = ops.first() else {
            return Ok(());
        };
        let shape = first.shape;
        // The offsets at each segment's start (`step` adds to its offset argument, so the
        // cut axes' starts accumulate; each partial sum is an element's offset).
        let mut offsets = offsets;
        let mut c = 0;
        while let (Some(cut), Some(seg)) = (at(cuts, c), get(segs, c)) {
            let mut o = 0;
            while let Some(op) = at(ops, o) {
                let s = stride_at(op, cut.axis);
                let start = match get(&offsets, o) {
                    Some(v) => v,
                    None => 0,
                };
                set(
                    &mut offsets,
                    o,
                    tri!(op.blocks.offset_on(cut.axis, seg.start, s, start)),
                );
                o = o.saturating_add(1);
            }
            c = c.saturating_add(1);
        }
        let mut b = tri!(self.builder(offsets));
        let mut k = 0;
        while k < N {
            if let Some(c) = cut_on(cuts, k) {
                let Some(seg) = get(segs, c) else {
                    return Err(LayoutError::InterleaveConflict);
                };
                let mut j = 0;
                while j < seg.depth {
                    let Some((extent, unit)) = get(&seg.loops, j) else {
                        break;
                    };
                    tri!(b.push(extent, tri!(unit_strides(ops, k, &seg, extent, unit))));
                    j = j.saturating_add(1);
                }
            } else {
                let extent = match get(&shape, k) {
                    Some(e) => e,
                    None => 1,
                };
                tri!(b.push(extent, super::strides_at(ops, k)));
            }
            k = k.saturating_add(1);
        }
        let [narrowest, widest] = item_bounds(ops);
        tri!(b.finish(side, super::line_for(widest), narrowest));
        self.count = self.count.saturating_add(1);
        Ok(())
    }
}

/// Each operand's stride for a loop of `extent` steps of `unit` indices along axis `k` from
/// the segment's start: the difference of two element offsets (the segment is affine in
/// every operand), 0 for a loop of one step.
#[expect(
    clippy::many_single_char_names,
    reason = "`k`, `o`, `s`, `a`, `b`, `d`: axis, operand, stride, two offsets, their difference"
)]
const fn unit_strides<const N: usize, const K: usize>(
    ops: &[Lowered<N>; K],
    k: usize,
    seg: &Segment,
    extent: usize,
    unit: usize,
) -> Result<[isize; K], LayoutError> {
    let mut out = [0isize; K];
    if extent <= 1 {
        return Ok(out);
    }
    let Some(next) = seg.start.checked_add(unit) else {
        return Err(LayoutError::OffsetOverflow);
    };
    let mut o = 0;
    while let Some(op) = at(ops, o) {
        let s = stride_at(op, k);
        let (a, b) = (
            tri!(op.blocks.offset_on(k, seg.start, s, op.offset)),
            tri!(op.blocks.offset_on(k, next, s, op.offset)),
        );
        match b.checked_sub(a) {
            Some(d) => set(&mut out, o, d),
            None => return Err(LayoutError::OffsetOverflow),
        }
        o = o.saturating_add(1);
    }
    Ok(out)
}

/// The segment of each cut at its slot, `None` when one of them is empty.
const fn segments_at(cuts: &[Cut], slot: &[usize; MAX_CUTS]) -> Option<[Segment; MAX_CUTS]> {
    let mut out = [Segment::NONE; MAX_CUTS];
    let mut c = 0;
    while let Some(cut) = at(cuts, c) {
        let j = match get(slot, c) {
            Some(j) => j,
            None => 0,
        };
        match cut.segment(j) {
            Some(s) => set(&mut out, c, s),
            None => return None,
        }
        c = c.saturating_add(1);
    }
    Some(out)
}

/// The first `n` cuts.
const fn first_n(cuts: &[Cut; MAX_CUTS], n: usize) -> &[Cut] {
    match cuts.split_at_checked(n) {
        Some((used, _)) => used,
        None => cuts,
    }
}
