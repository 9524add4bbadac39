//! Splitting a plan into disjoint parts that any runtime can run: threads, an embedded
//! executor's tasks, GPU blocks.
//!
//! [`Plan::part`] is plain data (`const`, no allocation): part `i` of `parts` is a
//! sub-range of the outermost loop of each nest, the cut points placed so that every part
//! visits about `volume / parts` elements (whole tile rows where the outer loop is tiled). The
//! parts of a plan visit disjoint sets of its indices and, together, every index once; since
//! a kernel's destination is validated unique before it runs (the `Unique` witness of
//! `proof/`), their destination elements are disjoint too.
//!
//! [`CopyParts`] turns that into work a runtime can schedule safely: built from one exclusive
//! borrow of the destination (after the checks of [`CopyPlan::run`](crate::CopyPlan::run)),
//! it yields each part once as a `Send` [`CopyPart`] that runs by value;
//! [`CopyParts::split_at`] halves the set for fork-join runtimes. The parallel kernels of the
//! `rayon` feature drive the same parts.
//!
//! The only `unsafe` here (`work.rs`) runs one part through a raw destination pointer: the
//! parts of one borrow write disjoint elements, so no two of them ever touch one element,
//! whichever thread runs them.

use crate::algo::access::{get, set};
use crate::kernel::drive::SUPER;
use crate::kernel::plan::{Nest, Plan};

impl<const K: usize, const M: usize, const L: usize> Plan<K, M, L> {
    /// Part `i` of `parts` of this plan: a sub-range of one loop of each nest, so that the
    /// parts `0..parts` visit disjoint sets of the plan's indices, together every index once,
    /// each about `volume / parts` of them.
    ///
    /// The loop cut is the outermost, at whole steps; in a tiled nest of two loops, the one
    /// that splits into whole groups of tiles (the loop driver's visiting order, so each
    /// part keeps the whole copy's locality), else into whole tile rows, for every part. A
    /// part may be empty (more parts than steps); parts are balanced to within one step (or
    /// grain). `i >= parts` (and every `i` when `parts` is 0) gives the empty plan. A
    /// `const fn` of the plan alone: a GPU host can size one block per part from
    /// [`nests`](Plan::nests), a firmware executor can hand part `i` to task `i`. Where the plan
    /// is a kernel's whose destination was validated unique, the parts write disjoint
    /// destination elements.
    ///
    /// ```text
    /// 4 x 3 copy, one loop nest: loop 0 (rows) extent 4, loop 1 extent 3
    /// part(0, 2): rows 0..2     part(1, 2): rows 2..4
    /// part(0, 3): row 0..1      part(1, 3): rows 1..3      part(2, 3): row 3..4
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::plan::{Mapping, Plan};
    /// let dst = Layout::dense([4, 3], 4, Order::C)?;
    /// let src = Layout::dense([4, 3], 4, Order::F)?;
    /// let plan = Plan::new(&[dst.lowered(), src.lowered()])?;
    /// let (a, b) = (plan.part(0, 2), plan.part(1, 2));
    /// assert_eq!((a.volume(), b.volume()), (6, 6));
    /// assert_eq!(b.nests()[0].offsets(), [6, 2]); // row 2 of dst, column 2 of src
    /// assert_eq!(plan.part(2, 2).volume(), 0);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn part(&self, i: usize, parts: usize) -> Self {
        if i >= parts {
            return Self::EMPTY;
        }
        let (from, to) = (self.cut(i, parts), self.cut(i.saturating_add(1), parts));
        let mut nests: [Option<Nest<K, L>>; M] = [None; M];
        let mut j = 0;
        let mut rest = self.nests();
        while let [nest, tail @ ..] = rest {
            rest = tail;
            let (lo, hi) = match (get(&from, j), get(&to, j)) {
                (Some(lo), Some(hi)) => (lo, hi),
                _ => (0, 0),
            };
            if lo < hi {
                let (axis, _, _) = split_loop(nest, parts);
                set(&mut nests, j, Some(nest.range(axis, lo, hi)));
            }
            j = j.saturating_add(1);
        }
        Self::from_nests(nests)
    }

    /// Where part `i` of `parts` starts: for each nest, the steps of the loop it cuts that
    /// come before (`i == parts`: every step). Non-decreasing in `i` in each nest, so the
    /// parts `[cut(i), cut(i + 1))` are disjoint and cover every step.
    #[expect(
        clippy::many_single_char_names,
        reason = "`i`, `j`, `t`, `k`, `g`: part and nest counters, target, step count, grain"
    )]
    const fn cut(&self, i: usize, parts: usize) -> [usize; M] {
        let total = self.volume() as u128;
        // `i <= parts`, so the target is at most the volume.
        let target = div((i as u128).saturating_mul(total), parts as u128);
        let mut out = [0usize; M];
        let mut before = 0u128;
        let mut j = 0;
        let mut rest = self.nests();
        while let [nest, tail @ ..] = rest {
            rest = tail;
            let (_, steps, grain) = split_loop(nest, parts);
            let volume = nest.volume() as u128;
            let t = target.saturating_sub(before);
            let cut = if i >= parts || t >= volume {
                steps
            } else {
                // Elements per step (a planned nest has at least one), the nearest whole
                // step, then the nearest whole grain; at most `steps`.
                let per = div(volume, steps as u128);
                let k = div(t.saturating_add(per / 2), per);
                let g = grain as u128;
                let k = div(k.saturating_add(g / 2), g).saturating_mul(g);
                // `k < steps`, a `usize`, when it is cast.
                if k >= steps as u128 {
                    steps
                } else {
                    k as usize
                }
            };
            set(&mut out, j, cut);
            before = before.saturating_add(volume);
            j = j.saturating_add(1);
        }
        out
    }
}

/// `a / b`, 1 when `b` is 0 (an empty nest or no grain: never in a planned one).
const fn div(a: u128, b: u128) -> u128 {
    match a.checked_div(b) {
        Some(v) => v,
        None => 1,
    }
}

/// The loop of `nest` that `parts` parts cut, its steps, and the grain the cuts keep to.
///
/// The outermost loop, at whole steps, except in a tiled nest of two loops, whose parts
/// keep to whole groups of tiles as the loop driver visits them (`SUPER × SUPER` tiles; so a
/// part's traversal is a piece of the whole one's, with its cache and TLB behaviour), else
/// to whole tile rows: the first of (outer loop, tile groups), (inner loop, tile groups),
/// (outer, tile rows), (inner, tile rows) with at least one grain for every part, else the
/// outer loop at single steps. (A (2,0,1) permute of 256³ has only 256 outer steps, one
/// tile group: its parts cut the inner loop, 65536 steps.)
const fn split_loop<const K: usize, const L: usize>(
    nest: &Nest<K, L>,
    parts: usize,
) -> (usize, usize, usize) {
    let loops = nest.loops();
    let (outer, inner) = match loops {
        [a, b] => (a.extent, b.extent),
        [a, ..] => (a.extent, 0),
        [] => return (0, 1, 1),
    };
    let Some([ta, tb]) = nest.tile() else {
        return (0, outer, 1);
    };
    if inner == 0 {
        return (0, outer, 1);
    }
    let candidates = [
        (0, outer, ta.saturating_mul(SUPER)),
        (1, inner, tb.saturating_mul(SUPER)),
        (0, outer, ta),
        (1, inner, tb),
    ];
    let mut rest: &[(usize, usize, usize)] = &candidates;
    while let [(axis, steps, grain), tail @ ..] = rest {
        rest = tail;
        if let Some(groups) = steps.checked_div(*grain) {
            if groups >= parts {
                return (*axis, *steps, *grain);
            }
        }
    }
    (0, outer, 1)
}

mod parts;
mod work;

pub use parts::{CopyPart, CopyParts};
#[cfg(feature = "rayon")]
pub(crate) use work::{CopyWork, FillWork, Jobs, MapWork, Work, ZipMapWork};
