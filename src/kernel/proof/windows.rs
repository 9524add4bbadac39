//! Operands cut into more pieces than one [`Plan`] holds, for the run-time kernels: the
//! pieces planned [`MAX_NESTS`] at a time (a *window*), every window validated before any is
//! run, each run through the witnesses its own plan mints.
//!
//! A plan holds [`MAX_NESTS`] nests, one per piece of the shape that is strided in every
//! operand (`plan/pieces.rs`); operands blocked differently on two axes, each with a partial
//! last block, cut it into more (oneDNN's `OIhw16i16o -> OIhw4i16o4i` with `O = 18` and
//! `I = 22`: 2 pieces of `O` times 3 of `I`), and so do plain operands of a rank past
//! [`MAX_LOOPS`] whose loops past a nest's are peeled into pieces (`plan/peel.rs`: extent 2
//! on 12 axes that merge nowhere peels 4 loops, 16 pieces). A kernel that was refused
//! ([`LayoutError::InterleaveConflict`], or [`LayoutError::RankOverflow`] for those) asks
//! [`Windows::check`], which, before anything is written:
//!
//! 1. plans every window (so every planning error comes first, as from one plan) and checks
//!    each operand's offsets over all of them against its slice (the error names the whole
//!    layout's lowest offset or needed length, as one plan's does);
//! 2. for a kernel with a unique destination, checks each window's destination
//!    ([`unique::destination_unique`]) and it apart from every later window's
//!    ([`unique::nests_apart`]), the later windows planned again (two plans on the stack at
//!    a time: no more are kept); plain operands (peeled) have their whole destination
//!    checked once instead ([`unique::operand_unique`]: the same search, on the operand);
//!    for `copy_uninit`, the destination's offsets over all windows fill one range
//!    ([`dense_span`], the rule of one plan's [`Dense`](super::Dense) witness), which the
//!    windows checked this way hand back ([`Windows::span`]);
//! 3. in place, the two operands coincide in every window (nothing to move) or share no
//!    element in any two nests of any two windows (plain operands: the two whole operands,
//!    [`unique::operands_apart`]).
//!
//! Then the kernel runs the windows in order ([`Windows::each_bounds`],
//! [`Windows::each_unique`], [`Windows::each_disjoint`]): each is planned once more and its
//! witnesses minted by the one validation of a plan, as for a kernel of one plan, so every
//! unsafe access rests on a witness of the plan it runs. For blocked operands validation
//! costs grow with the square of the pieces, at most [`MAX_PIECES`](crate::plan::MAX_PIECES);
//! for plain ones, linearly with the windows (any number of them: at most the volume over
//! [`MAX_NESTS`]), plus the whole operands' search.
//!
//! ```text
//! copy OIhw16i16o -> OIhw4i16o4i, dims (18, 22, 3, 3): 6 pieces, 2 windows
//!   window 0: pieces 0..4   (O 0..16) x (I 0..16, 16..20, 20..22), (O 16..18) x (I 0..16)
//!   window 1: pieces 4..6   (O 16..18) x (I 16..20, 20..22)
//! ```

use super::{Disjoint, InBounds, InPlace, Unique, dense_span, spans, within};
use crate::kernel::mapping::Lowered;
use crate::kernel::plan::{MAX_LOOPS, MAX_NESTS, Plan, all_strided};
use crate::kernel::unique;
use crate::{LayoutError, Operand};

/// What the windows of one kernel call are checked for, besides their bounds.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Across {
    /// Nothing more: `fill` (any destination) and `fold` (nothing written).
    Bounds,
    /// No two indices of the destination (operand 0) share an element, in one window or
    /// across two: the kernels that hold a [`Unique`] witness.
    Unique,
    /// That, and the destination's offsets over all windows fill one range with no gap
    /// ([`dense_span`]): `copy_uninit`, which hands the range back initialised.
    Dense,
    /// That, and operands 0 and 1 (one buffer) coincide in every window or share no element
    /// anywhere: `copy_within`.
    InPlace,
}

/// A run-time kernel's operands, cut into more pieces than one plan holds, validated window
/// by window and across windows ([`Windows::check`]); only that check makes one.
pub(crate) struct Windows<'o, const N: usize, const K: usize> {
    ops: &'o [Lowered<N>; K],
    lens: [usize; K],
    names: [Operand; K],
    /// The number of windows, at least 2.
    count: usize,
    /// In place: every window's two operands coincide (nothing to move).
    coincide: bool,
    /// With [`Across::Dense`]: the range the destination's offsets fill, every element.
    span: Option<core::ops::Range<usize>>,
}

/// Window `w` of `ops` planned into `plan` (which must be empty).
fn plan_window<const N: usize, const K: usize>(
    plan: &mut Plan<K>,
    ops: &[Lowered<N>; K],
    w: usize,
) -> Result<(), LayoutError> {
    plan.build_window(ops, w.saturating_mul(MAX_NESTS))?;
    Ok(())
}

impl<'o, const N: usize, const K: usize> Windows<'o, N, K> {
    /// The checks above, for operands a kernel's one plan refused: `Ok(None)` when they do
    /// fit one plan or are refused for another reason (the caller returns the error it had),
    /// else the checked windows. `lens[k]` is operand `k`'s slice length and `names[k]` what
    /// an error calls it.
    ///
    /// # Errors
    ///
    /// Those of [`Plan::new`] (for any window), then [`LayoutError::OffsetBelowSlice`] and
    /// [`LayoutError::OffsetOutsideSlice`] over all windows; with [`Across::Unique`],
    /// [`Across::Dense`] or [`Across::InPlace`], [`LayoutError::DestinationNotUnique`] or
    /// [`LayoutError::UniquenessUndecided`]; with [`Across::Dense`],
    /// [`LayoutError::DestinationHasGaps`]; with [`Across::InPlace`],
    /// [`LayoutError::OperandsOverlap`] or [`LayoutError::UniquenessUndecided`].
    pub(crate) fn check(
        ops: &'o [Lowered<N>; K],
        lens: [usize; K],
        names: [Operand; K],
        across: Across,
    ) -> Result<Option<Self>, LayoutError> {
        let mut plan = Plan::empty();
        let pieces = plan.build_window(ops, 0)?;
        // Past `MAX_PIECES` blocked pieces, `build_window` refused already.
        if pieces <= MAX_NESTS {
            return Ok(None);
        }
        let count = pieces.div_ceil(MAX_NESTS);
        // 1. Every window planned, its offsets joined to the others' (and its elements
        // counted: at most the operands' volume, which their layouts' checks bound).
        let mut all = spans(&plan);
        let mut volume = plan.volume();
        for w in 1..count {
            let mut next = Plan::empty();
            plan_window(&mut next, ops, w)?;
            all = join(all, spans(&next));
            volume = volume.saturating_add(next.volume());
        }
        if let Some(all) = all {
            within(&all, &lens, &names)?;
        }
        let mut out = Self {
            ops,
            lens,
            names,
            count,
            coincide: false,
            span: None,
        };
        if across == Across::Bounds {
            return Ok(Some(out));
        }
        // Plain operands are windowed only where their loops past a nest's are peeled
        // (`plan/peel.rs`): they are checked whole, once, rather than window against window.
        let whole = all_strided(ops);
        // 2. Each window's destination, and it apart from every later window's (window 0
        // is still planned from step 1); plain operands: the whole destination.
        if whole {
            if let Some(dst) = ops.first() {
                unique::operand_unique(dst)?;
            }
        } else {
            for a in 0..count {
                let x = if a == 0 { plan } else { out.plan(a)? };
                unique::destination_unique(&x)?;
                for b in a.saturating_add(1)..count {
                    let y = out.plan(b)?;
                    let unique = LayoutError::DestinationNotUnique;
                    unique::nests_apart(x.nests(), 0, y.nests(), 0, unique)?;
                }
            }
        }
        if across == Across::Dense {
            out.span = Some(dense_span(all.and_then(|a| a.first().copied()), volume)?);
            return Ok(Some(out));
        }
        if across == Across::Unique {
            return Ok(Some(out));
        }
        // 3. In place: coinciding everywhere, or apart in every two nests.
        let mut coincide = true;
        for w in 0..count {
            coincide &= unique::same_in_every_nest(out.plan(w)?.nests(), 0, 1);
        }
        if !coincide && whole {
            if let [a, b, ..] = ops.as_slice() {
                unique::operands_apart(a, b)?;
            }
        } else if !coincide {
            for a in 0..count {
                let x = out.plan(a)?;
                for b in 0..count {
                    let y = out.plan(b)?;
                    let overlap = LayoutError::OperandsOverlap;
                    unique::nests_apart(x.nests(), 0, y.nests(), 1, overlap)?;
                }
            }
        }
        out.coincide = coincide;
        Ok(Some(out))
    }

    /// [`Windows::check`] for a kernel whose one plan was refused with `e`: the windows
    /// where `e` is [`LayoutError::InterleaveConflict`] for blocked operands cut into more
    /// than [`MAX_NESTS`] pieces, or [`LayoutError::RankOverflow`] for plain operands of rank
    /// past [`MAX_LOOPS`] whose peeled loops make more, else `e`. Always inlined, so that
    /// where no operand can be interleaved and `N <= MAX_LOOPS` (every [`Layout`](crate::Layout)
    /// of a real rank) the test folds away and none of this is linked (a run-time copy on a
    /// Cortex-M).
    ///
    /// # Errors
    ///
    /// `e`, or those of [`Windows::check`].
    #[expect(
        clippy::inline_always,
        reason = "the operands' interleave must be visible to the test, or this is linked into every kernel"
    )]
    #[inline(always)]
    pub(crate) fn after(
        e: LayoutError,
        ops: &'o [Lowered<N>; K],
        lens: [usize; K],
        names: [Operand; K],
        across: Across,
    ) -> Result<Self, LayoutError> {
        // Blocked operands cut into more pieces than a plan holds, or plain ones of a rank
        // whose loops past a nest's are peeled into as many (`plan/peel.rs`; `N` is a
        // constant, so below `MAX_LOOPS` that arm folds away too).
        let windowed = match e {
            LayoutError::InterleaveConflict => !all_strided(ops),
            LayoutError::RankOverflow { .. } => N > MAX_LOOPS && all_strided(ops),
            _ => false,
        };
        if !windowed {
            return Err(e);
        }
        match Self::check(ops, lens, names, across)? {
            Some(windows) => Ok(windows),
            None => Err(e),
        }
    }

    /// With [`Across::Dense`], the range the destination's offsets over all windows fill,
    /// every element of it written by the windows' copies; `None` for windows checked for
    /// less.
    pub(crate) fn span(&self) -> Option<core::ops::Range<usize>> {
        self.span.clone()
    }

    /// Window `w`, planned.
    fn plan(&self, w: usize) -> Result<Plan<K>, LayoutError> {
        let mut plan = Plan::empty();
        plan_window(&mut plan, self.ops, w)?;
        Ok(plan)
    }

    /// Runs `f` on each window's [`InBounds`] witness, in order (each window planned again).
    ///
    /// # Errors
    ///
    /// The first error of `f` (never one of the window's checks: [`Windows::check`] passed
    /// them).
    pub(crate) fn each_bounds<F>(&self, mut f: F) -> Result<(), LayoutError>
    where
        F: FnMut(InBounds<'_, K>) -> Result<(), LayoutError>,
    {
        self.fold_bounds((), |(), bounds| f(bounds))
    }

    /// [`Windows::each_bounds`] carrying a value from one window to the next (`fold`'s
    /// accumulator): `f(init, window 0)`, then `f` of that and window 1, and so on.
    ///
    /// # Errors
    ///
    /// As [`Windows::each_bounds`].
    pub(crate) fn fold_bounds<A, F>(&self, init: A, mut f: F) -> Result<A, LayoutError>
    where
        F: FnMut(A, InBounds<'_, K>) -> Result<A, LayoutError>,
    {
        let mut acc = init;
        for w in 0..self.count {
            let mut plan = Plan::empty();
            plan_window(&mut plan, self.ops, w)?;
            acc = f(acc, InBounds::check(&plan, self.lens, self.names)?)?;
        }
        Ok(acc)
    }

    /// Runs `f` on each window's [`Unique`] witness, in order.
    ///
    /// # Errors
    ///
    /// As [`Windows::each_bounds`].
    pub(crate) fn each_unique<F>(&self, mut f: F) -> Result<(), LayoutError>
    where
        F: FnMut(&Unique<'_, K>) -> Result<(), LayoutError>,
    {
        // The window's own checks, again: the witness stands for them.
        self.each_bounds(|bounds| f(&Unique::check(bounds)?))
    }
}

impl<const N: usize> Windows<'_, N, 2> {
    /// Runs `f` on each window's [`Disjoint`] witness, in order; nothing when the operands
    /// coincide in every window.
    ///
    /// # Errors
    ///
    /// As [`Windows::each_bounds`].
    pub(crate) fn each_disjoint<F>(&self, mut f: F) -> Result<(), LayoutError>
    where
        F: FnMut(&Disjoint<'_>) -> Result<(), LayoutError>,
    {
        if self.coincide {
            return Ok(());
        }
        self.each_bounds(|bounds| {
            match Disjoint::check(Unique::check(bounds)?)? {
                // Never: a window whose operands coincide shares its elements with itself,
                // which `check` refused.
                InPlace::Coincide => Err(LayoutError::OperandsOverlap),
                InPlace::Disjoint(disjoint) => f(&disjoint),
            }
        })
    }
}

/// The lowest and highest offsets of two sets of spans together.
fn join<const K: usize>(
    a: Option<[(isize, isize); K]>,
    b: Option<[(isize, isize); K]>,
) -> Option<[(isize, isize); K]> {
    match (a, b) {
        (Some(mut x), Some(y)) => {
            for (s, &(lo, hi)) in x.iter_mut().zip(&y) {
                *s = (s.0.min(lo), s.1.max(hi));
            }
            Some(x)
        }
        (x, None) => x,
        (None, y) => y,
    }
}
