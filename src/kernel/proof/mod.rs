//! Witnesses: proof objects that only validation mints and that the raw loops demand.
//!
//! Each witness has private fields, so the only way to hold one is through its `check`
//! function below, which runs the check it stands for. A raw loop that relies on a fact takes
//! the witness for it, so "validated first" is a type, not a calling convention. Each witness
//! builds on the one before and borrows the [`Plan`] it was checked against, so all of them
//! speak of the same loops.
//!
//! | witness | minted by | what it proves | who demands it |
//! | --- | --- | --- | --- |
//! | [`InBounds`] | [`InBounds::check`], [`Checked::bounds`] | every offset of every nest of the plan lies in `0..lens[k]` for operand `k` | every raw loop (`fill`, `fold`, and through the others) |
//! | [`Unique`] | [`Unique::check`] | and no two indices of the destination (operand 0) share an element | `copy`, `map`, `zip_map` (a destination plane or row becomes an exclusive slice) |
//! | [`Disjoint`] | [`Disjoint::check`] | and operands 0 and 1, in one buffer, share no element | `copy_within` |
//! | [`Checked`] | its `const` constructors (`checked.rs`) | a plan, each operand's shortest slice for it and the facts found about it (unique destination, disjoint operands, its one block), in one value; it mints the witnesses above for a prepared kernel's run | prepared plans |
//! | [`UniqueBlock`] | [`UniqueBlock::check`], [`Checked::copy_proofs`] | [`Unique`] for one nest of at most two loops | the block kernels of small copies |
//! | [`Dense`] | [`Dense::check`] | and the destination's offsets fill one range with no gap | `copy_uninit` (the range is initialised afterwards) |
//!
//! Distinct slices (`&[T]` beside `&mut [T]`) never overlap: the borrow checker proves that,
//! and no witness is needed for it.

use crate::kernel::element::check_itemsize;
use crate::kernel::mapping::Lowered;
use crate::kernel::plan::block::{SmallNest, copy_nest};
use crate::kernel::plan::line_for;
use crate::kernel::plan::{MAX_LOOPS, MAX_NESTS, Plan};
use crate::kernel::unique;
use crate::{LayoutError, Operand};

mod bounds;
mod checked;
mod windows;

use bounds::within;
pub(crate) use bounds::{inside, needed_len, outside, spans};

pub(crate) use checked::{Checked, CopyFact, UniqueFact, WithinFact};
pub(crate) use windows::{Across, Windows};

/// What an error calls the operands of a one-source kernel.
pub(crate) const ONE_SOURCE: [Operand; 2] = [Operand::Destination, Operand::Source];
/// What an error calls the operands of a two-source kernel.
pub(crate) const TWO_SOURCES: [Operand; 3] =
    [Operand::Destination, Operand::Source, Operand::SecondSource];

/// Proof that every offset of every nest of `plan` lies inside a slice of `lens[k]` elements
/// for operand `k`.
pub(crate) struct InBounds<
    'p,
    const K: usize,
    const M: usize = MAX_NESTS,
    const L: usize = MAX_LOOPS,
> {
    plan: &'p Plan<K, M, L>,
    lens: [usize; K],
    names: [Operand; K],
}

impl<'p, const K: usize, const M: usize, const L: usize> InBounds<'p, K, M, L> {
    /// Checks that every operand's offsets lie in `0..lens[k]`; `names[k]` is what an error
    /// calls operand `k`.
    pub(crate) fn check(
        plan: &'p Plan<K, M, L>,
        lens: [usize; K],
        names: [Operand; K],
    ) -> Result<Self, LayoutError> {
        if let Some(spans) = spans(plan) {
            within(&spans, &lens, &names)?;
        }
        Ok(Self { plan, lens, names })
    }

    /// The plan, when `lens` are the lengths it was checked against (a kernel handed other
    /// slices than the ones checked gets an error, never an out-of-bounds access).
    #[cfg_attr(
        target_os = "none",
        expect(
            clippy::inline_always,
            reason = "a `const` plan's run folds into immediates only when inlined into its caller"
        )
    )]
    #[cfg_attr(target_os = "none", inline(always))]
    pub(crate) fn plan_for(&self, lens: [usize; K]) -> Result<&'p Plan<K, M, L>, LayoutError> {
        match first_where(&self.lens, &lens, |a, b| a != b) {
            Some(k) => Err(outside(&self.names, &self.lens, &lens, k)),
            None => Ok(self.plan),
        }
    }
}

/// Proof of [`Unique`] for a copy of rank `N <= 2` planned without a [`Plan`]: every offset
/// of one [`SmallNest`] lies inside slices of `lens[k]` elements for operand `k`
/// (destination first), and no two indices of the destination share an element. The nest
/// stays where the caller planned it (borrowed), so a run-time copy keeps a 64-byte nest on
/// the stack instead of a plan of [`MAX_LOOPS`] loops (about 140 bytes on
/// a 32-bit target), clears nothing and moves nothing.
pub(crate) struct UniqueBlock<'n> {
    nest: &'n SmallNest<2>,
    lens: [usize; 2],
}

impl<'n> UniqueBlock<'n> {
    /// The checks of [`Unique::plan_one_source`] up to the plan, for operands of rank
    /// `N <= 2` that no interleave splits, in the same order (and so with the same errors):
    /// `D` and `S` have the destination's and the source's itemsize, the shapes agree and
    /// the nest plans. `Ok(None)` when there is nothing to copy (an extent 0); then
    /// [`UniqueBlock::check`] checks the nest.
    #[inline]
    pub(crate) fn plan_one_source<D: 'static, S: 'static, const N: usize>(
        dst: &Lowered<N>,
        src: &Lowered<N>,
    ) -> Result<Option<SmallNest<2>>, LayoutError> {
        check_itemsize::<D>(Operand::Destination, dst.itemsize)?;
        check_itemsize::<S>(Operand::Source, src.itemsize)?;
        copy_nest(dst, src, line_for(size_of::<D>().max(size_of::<S>())))
    }

    /// The rest of [`Unique::plan_one_source`]'s checks, on `nest`: every offset lies in its
    /// slice of `lens` (destination first), and the destination is unique.
    #[cfg_attr(
        not(target_os = "none"),
        expect(
            clippy::inline_always,
            reason = "inlined, the run-time copy's nest stays in registers through the checks"
        )
    )]
    #[cfg_attr(not(target_os = "none"), inline(always))]
    #[cfg_attr(target_os = "none", inline)]
    pub(crate) fn check(nest: &'n SmallNest<2>, lens: [usize; 2]) -> Result<Self, LayoutError> {
        let [(dst_lo, dst_hi), (src_lo, src_hi)] = nest.bounds();
        let [dst_len, src_len] = lens;
        inside(Operand::Destination, dst_lo, dst_hi, dst_len)?;
        inside(Operand::Source, src_lo, src_hi, src_len)?;
        unique::small_loops_unique(nest.loops())?;
        Ok(Self { nest, lens })
    }

    /// The nest, when `lens` are the lengths it was checked against (as
    /// [`InBounds::plan_for`]).
    #[cfg_attr(
        not(target_os = "none"),
        expect(
            clippy::inline_always,
            reason = "inlined where the witness was minted, the lengths compare equal and fold away"
        )
    )]
    #[cfg_attr(not(target_os = "none"), inline(always))]
    pub(crate) fn nest_for(&self, lens: [usize; 2]) -> Result<&'n SmallNest<2>, LayoutError> {
        match first_where(&self.lens, &lens, |a, b| a != b) {
            Some(k) => Err(outside(
                &[Operand::Destination, Operand::Source],
                &self.lens,
                &lens,
                k,
            )),
            None => Ok(self.nest),
        }
    }
}

/// The first operand `k` with `bad(a[k], b[k])`: the per-run checks of a prepared plan.
/// Two operands (a copy) are written out as two comparisons: at `opt-level = "s"` the
/// compiler keeps a loop over the operands as a loop, about 18 instructions a check on a
/// Cortex-M4 where the two comparisons take 6.
#[cfg_attr(not(target_os = "none"), inline)]
#[cfg_attr(
    target_os = "none",
    expect(
        clippy::inline_always,
        reason = "a `const` plan's run folds into immediates only when inlined into its caller"
    )
)]
#[cfg_attr(target_os = "none", inline(always))]
pub(crate) fn first_where<const K: usize>(
    a: &[usize; K],
    b: &[usize; K],
    bad: impl Fn(usize, usize) -> bool,
) -> Option<usize> {
    match (a.as_slice(), b.as_slice()) {
        (&[a0, a1], &[b0, b1]) => {
            if bad(a0, b0) {
                Some(0)
            } else if bad(a1, b1) {
                Some(1)
            } else {
                None
            }
        }
        _ => a.iter().zip(b).position(|(&x, &y)| bad(x, y)),
    }
}

/// Proof of [`InBounds`], and that no two indices of the destination (operand 0) share an
/// element.
pub(crate) struct Unique<'p, const K: usize, const M: usize = MAX_NESTS, const L: usize = MAX_LOOPS>
{
    bounds: InBounds<'p, K, M, L>,
}

impl<'p, const K: usize, const M: usize, const L: usize> Unique<'p, K, M, L> {
    /// Checks that the destination of `bounds`' plan is unique (the kernels' budgeted search,
    /// [`unique::destination_unique`]).
    pub(crate) fn check(bounds: InBounds<'p, K, M, L>) -> Result<Self, LayoutError> {
        unique::destination_unique(bounds.plan)?;
        Ok(Self { bounds })
    }

    /// The bounds this proof builds on.
    pub(crate) const fn bounds(&self) -> &InBounds<'p, K, M, L> {
        &self.bounds
    }
}

impl<'p, const K: usize> Unique<'p, K> {
    /// Plans `ops` into `plan` (which must be empty: [`Plan::EMPTY`] or [`Plan::empty`];
    /// planned in place, never moved), checks every offset against its slice of `lens`
    /// (`names[k]` naming operand `k`) and that the destination is unique. `strided` is
    /// [`all_strided`](crate::kernel::plan::all_strided) of `ops`, which the callers test
    /// operand by operand (a loop over the operands did not fold away).
    ///
    /// Operands none of which is interleaved (every [`Layout`](crate::Layout)) take the
    /// strided planner and the one-nest uniqueness check, and for rank `N <= 2` no search at
    /// all; the test is on values the caller usually sees, so it folds away and the other
    /// path is not linked (the pieces planner and the exact searches: most of a run-time
    /// `copy`'s code on a Cortex-M). The answers are those of the general path.
    #[expect(
        clippy::inline_always,
        reason = "`strided` must fold where the operands are built, or both paths are linked"
    )]
    #[inline(always)]
    fn plan_checked<const N: usize>(
        plan: &'p mut Plan<K>,
        ops: &[Lowered<N>; K],
        lens: [usize; K],
        names: [Operand; K],
        strided: bool,
    ) -> Result<Self, LayoutError> {
        if strided {
            plan.build_strided(ops)?;
            let bounds = InBounds::check(plan, lens, names)?;
            if N <= 2 {
                unique::small_destination_unique(bounds.plan)?;
            } else if N > MAX_LOOPS {
                // Loops past a nest's peeled into pieces (`plan/peel.rs`): several nests.
                unique::destination_unique(bounds.plan)?;
            } else {
                unique::strided_destination_unique(bounds.plan)?;
            }
            Ok(Self { bounds })
        } else {
            plan.build_any(ops)?;
            Unique::check(InBounds::check(plan, lens, names)?)
        }
    }
}

impl<'p> Unique<'p, 2> {
    /// The checks every one-source kernel runs before it writes, in order: `D` and `S` have
    /// the destination's and the source's itemsize, `[dst, src]` plan into `plan` (which must
    /// be empty: [`Plan::empty`] or [`Plan::EMPTY`]; planned in place, never moved), every
    /// offset lies in its slice of `lens` (destination first), and the destination is unique.
    #[expect(
        clippy::inline_always,
        reason = "the operands' interleave must be visible to `plan_checked`'s test"
    )]
    #[inline(always)]
    pub(crate) fn plan_one_source<D, S, const N: usize>(
        plan: &'p mut Plan<2>,
        dst: Lowered<N>,
        src: Lowered<N>,
        lens: [usize; 2],
    ) -> Result<Unique<'p, 2>, LayoutError> {
        check_itemsize::<D>(Operand::Destination, dst.itemsize)?;
        check_itemsize::<S>(Operand::Source, src.itemsize)?;
        let names = ONE_SOURCE;
        let strided = dst.blocks.is_empty() && src.blocks.is_empty();
        Self::plan_checked(plan, &[dst, src], lens, names, strided)
    }
}

impl<'p> Unique<'p, 3> {
    /// [`plan_one_source`](Unique::plan_one_source) for the two-source kernels: `D`, `A` and
    /// `B` have the destination's and the sources' itemsizes, `[dst, a, b]` plan into `plan`
    /// (which must be empty: [`Plan::empty`] or [`Plan::EMPTY`]), every offset lies in its
    /// slice of `lens`, and the destination is unique.
    #[expect(
        clippy::inline_always,
        reason = "the operands' interleave must be visible to `plan_checked`'s test"
    )]
    #[inline(always)]
    pub(crate) fn plan_two_sources<D, A, B, const N: usize>(
        plan: &'p mut Plan<3>,
        [dst, a, b]: [Lowered<N>; 3],
        lens: [usize; 3],
    ) -> Result<Unique<'p, 3>, LayoutError> {
        check_itemsize::<D>(Operand::Destination, dst.itemsize)?;
        check_itemsize::<A>(Operand::Source, a.itemsize)?;
        check_itemsize::<B>(Operand::SecondSource, b.itemsize)?;
        let names = TWO_SOURCES;
        let strided = dst.blocks.is_empty() && a.blocks.is_empty() && b.blocks.is_empty();
        Self::plan_checked(plan, &[dst, a, b], lens, names, strided)
    }
}

/// Proof of [`Unique`], and that operands 0 and 1 (in one buffer) share no element.
pub(crate) struct Disjoint<'p, const M: usize = MAX_NESTS> {
    unique: Unique<'p, 2, M>,
}

/// What an in-place kernel may do with its two operands in one buffer.
pub(crate) enum InPlace<'p, const M: usize = MAX_NESTS> {
    /// Every index has the same offset in both: nothing to move.
    Coincide,
    /// No element is in both.
    Disjoint(Disjoint<'p, M>),
}

impl<'p, const M: usize> Disjoint<'p, M> {
    /// Checks that the two operands of `unique`'s plan coincide or share no element.
    pub(crate) fn check(unique: Unique<'p, 2, M>) -> Result<InPlace<'p, M>, LayoutError> {
        Ok(if unique::operands_coincide(unique.bounds.plan, 0, 1)? {
            InPlace::Coincide
        } else {
            InPlace::Disjoint(Self { unique })
        })
    }

    /// The uniqueness proof this one builds on.
    pub(crate) const fn unique(&self) -> &Unique<'p, 2, M> {
        &self.unique
    }
}

/// The range the destination's offsets fill when they are unique, `volume` of them, from
/// `bounds` (lowest and highest; `None`: no nest): `min..max + 1` when that holds `volume`
/// elements, empty for an empty copy. The one rule of density, for one plan ([`Dense`]) and
/// for windows of them.
///
/// # Errors
///
/// [`LayoutError::DestinationHasGaps`] when the range holds more elements than the offsets.
pub(crate) fn dense_span(
    bounds: Option<(isize, isize)>,
    volume: usize,
) -> Result<core::ops::Range<usize>, LayoutError> {
    let Some((lo, hi)) = bounds.filter(|_| volume > 0) else {
        return Ok(0..0);
    };
    // In bounds (checked before: `0 <= lo <= hi < len`), so the casts are exact.
    let (start, end) = (lo.unsigned_abs(), hi.unsigned_abs());
    match end.checked_sub(start).and_then(|d| d.checked_add(1)) {
        Some(n) if n == volume => Ok(start..end.saturating_add(1)),
        _ => Err(LayoutError::DestinationHasGaps),
    }
}

/// Proof of [`Unique`], and that the destination's offsets fill one range with no gap: every
/// element of `span` is written by the kernel, so after it the range is initialised.
pub(crate) struct Dense<'p, const M: usize = MAX_NESTS, const L: usize = MAX_LOOPS> {
    unique: Unique<'p, 2, M, L>,
    span: core::ops::Range<usize>,
}

impl<'p, const M: usize, const L: usize> Dense<'p, M, L> {
    /// Checks that the destination's offsets, unique by `unique`, cover `min..=max` with no
    /// gap (`max - min + 1` equals the volume).
    ///
    /// # Errors
    ///
    /// [`LayoutError::DestinationHasGaps`] otherwise.
    pub(crate) fn check(unique: Unique<'p, 2, M, L>) -> Result<Self, LayoutError> {
        let plan = unique.bounds.plan;
        let span = dense_span(spans(plan).map(|[d, _]| d), plan.volume())?;
        Ok(Self { unique, span })
    }

    /// The uniqueness proof this one builds on.
    pub(crate) const fn unique(&self) -> &Unique<'p, 2, M, L> {
        &self.unique
    }

    /// The range of destination elements the kernel writes, every one of them.
    pub(crate) fn span(&self) -> core::ops::Range<usize> {
        self.span.clone()
    }
}
