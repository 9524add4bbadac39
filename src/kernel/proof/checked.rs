//! [`Checked`]: a plan checked once for a prepared kernel, kept together with what its checks
//! found, so that each run mints its witnesses from the plan they were found for.
//!
//! | fact `F` | minted by | what it adds | kept by | each run mints |
//! | --- | --- | --- | --- | --- |
//! | `()` | [`Checked::new`] | each operand's shortest slice | [`FillPlan`](crate::FillPlan) | [`InBounds`] ([`Checked::bounds`]) |
//! | [`UniqueFact`] | [`Checked::unique`] | the destination is unique | [`ZipMapPlan`](crate::ZipMapPlan) | [`Unique`] ([`Checked::unique_for`]) |
//! | [`CopyFact`] | [`Checked::for_copy`] | the plan's one block, decoded for the block kernels | [`CopyPlan`](crate::CopyPlan) | [`CopyProofs`]: a [`Unique`], and from it the block's [`UniqueBlock`]; on hosts first the block's small-block kernel ([`Checked::small_for`]) |
//! | [`WithinFact`] | [`Checked::in_place`] | the two operands coincide, or share no element | [`CopyWithinPlan`](crate::CopyWithinPlan) | [`InPlace`] ([`Checked::in_place_for`]) |
//!
//! Every field is private to this module, and each fact is found by a `const` check of the
//! plan beside it in the same value, so no fact can be paired with another plan, and a
//! prepared kernel holds no witness or token of its own: "kept beside the plan" is a type,
//! not a calling convention.

use super::{InBounds, InPlace, Unique, UniqueBlock, first_where, needed_len, outside, spans};
use crate::algo::access::{get, set};
use crate::algo::checked::tri;
use crate::kernel::element::check_size;
use crate::kernel::mapping::Lowered;
use crate::kernel::plan::block::SmallNest;
use crate::kernel::plan::{MAX_LOOPS, MAX_NESTS, Plan};
#[cfg(not(target_os = "none"))]
use crate::kernel::small::Small;
use crate::kernel::unique;
use crate::{LayoutError, Operand};

/// A plan checked once, the operands' names and itemsizes, the shortest slice of each
/// operand, and the fact `F` validation found about that plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub(crate) struct Checked<const K: usize, F, const M: usize = MAX_NESTS, const L: usize = MAX_LOOPS>
{
    plan: Plan<K, M, L>,
    names: [Operand; K],
    itemsize: [usize; K],
    /// One past each operand's largest offset over every nest (0 for an empty plan).
    shortest: [usize; K],
    fact: F,
}

/// The destination (operand 0) of the plan beside it is unique.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub(crate) struct UniqueFact(());

/// A copy's facts: the destination is unique, and the plan's one nest when it has at most two
/// loops, decoded for the block kernels (on hosts also classified for the small-block
/// kernels).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub(crate) struct CopyFact {
    block: Option<SmallNest<2>>,
    #[cfg(not(target_os = "none"))]
    small: Option<Small>,
}

/// An in-place copy's facts: the destination is unique, and the operands share no element
/// (`disjoint`) or coincide (nothing to move).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub(crate) struct WithinFact {
    disjoint: bool,
}

/// What a prepared copy's run may use: the uniqueness proof of its plan for the run's
/// lengths, and through it the plan's one block, when the plan has one.
pub(crate) struct CopyProofs<'p, const M: usize = MAX_NESTS, const L: usize = MAX_LOOPS> {
    unique: Unique<'p, 2, M, L>,
    block: Option<UniqueBlock<'p>>,
}

impl<'p, const M: usize, const L: usize> CopyProofs<'p, M, L> {
    /// The plan's proof, for the general loops.
    pub(crate) const fn unique(&self) -> &Unique<'p, 2, M, L> {
        &self.unique
    }

    /// The plan's one nest of at most two loops, proved for the same lengths.
    pub(crate) const fn block(&self) -> Option<&UniqueBlock<'p>> {
        self.block.as_ref()
    }
}

impl<const K: usize, const M: usize, const L: usize> Checked<K, (), M, L> {
    /// Plans `ops` and measures each operand's shortest slice (an error naming `names[k]`
    /// when an offset of operand `k` is negative: no slice holds it).
    ///
    /// # Errors
    ///
    /// Those of [`Plan::new`], and [`LayoutError::OffsetOutsideSlice`].
    pub(crate) const fn new<const N: usize>(
        ops: &[Lowered<N>; K],
        names: [Operand; K],
    ) -> Result<Self, LayoutError> {
        let plan = match Plan::with_loops(ops) {
            Ok(p) => p,
            Err(e) => return Err(e),
        };
        let mut itemsize = [0usize; K];
        let mut k = 0;
        while k < K {
            let Some((_, [op, ..])) = ops.split_at_checked(k) else {
                break;
            };
            set(&mut itemsize, k, op.itemsize);
            k = k.saturating_add(1);
        }
        Self::of_plan(plan, names, itemsize)
    }

    /// `plan` (of operands named `names`, of `itemsize`-byte elements) with each operand's
    /// shortest slice measured: [`new`](Checked::new)'s last step, and the first of a plan
    /// walked in another order ([`Checked::in_order_of`]).
    ///
    /// # Errors
    ///
    /// [`LayoutError::OffsetOutsideSlice`].
    const fn of_plan(
        plan: Plan<K, M, L>,
        names: [Operand; K],
        itemsize: [usize; K],
    ) -> Result<Self, LayoutError> {
        match shortest(&plan, names) {
            Ok(shortest) => Ok(Self {
                plan,
                names,
                itemsize,
                shortest,
                fact: (),
            }),
            Err(e) => Err(e),
        }
    }

    /// Checks that the destination (operand 0) of the plan is unique.
    ///
    /// # Errors
    ///
    /// [`LayoutError::DestinationNotUnique`], [`LayoutError::UniquenessUndecided`].
    pub(crate) const fn unique(self) -> Result<Checked<K, UniqueFact, M, L>, LayoutError> {
        match unique::destination_unique(&self.plan) {
            Ok(()) => Ok(Checked {
                plan: self.plan,
                names: self.names,
                itemsize: self.itemsize,
                shortest: self.shortest,
                fact: UniqueFact(()),
            }),
            Err(e) => Err(e),
        }
    }
}

impl<const M: usize, const L: usize> Checked<2, UniqueFact, M, L> {
    /// A copy's facts: the plan's one nest of at most two loops, and (hosts) its small-block
    /// kernel for `itemsize`-byte elements.
    pub(crate) const fn for_copy(self, itemsize: usize) -> Checked<2, CopyFact, M, L> {
        #[cfg(target_os = "none")]
        let _ = itemsize;
        let fact = CopyFact {
            block: SmallNest::of_plan(&self.plan),
            #[cfg(not(target_os = "none"))]
            small: Small::of_plan(&self.plan, itemsize),
        };
        Checked {
            plan: self.plan,
            names: self.names,
            itemsize: self.itemsize,
            shortest: self.shortest,
            fact,
        }
    }

    /// Checks that the two operands, in one buffer, coincide or share no element.
    ///
    /// # Errors
    ///
    /// [`LayoutError::OperandsOverlap`], [`LayoutError::UniquenessUndecided`].
    pub(crate) const fn in_place(self) -> Result<Checked<2, WithinFact, M, L>, LayoutError> {
        match unique::operands_coincide(&self.plan, 0, 1) {
            Ok(coincide) => Ok(Checked {
                plan: self.plan,
                names: self.names,
                itemsize: self.itemsize,
                shortest: self.shortest,
                fact: WithinFact {
                    disjoint: !coincide,
                },
            }),
            Err(e) => Err(e),
        }
    }
}

impl<const K: usize, F, const M: usize, const L: usize> Checked<K, F, M, L> {
    /// The plan.
    pub(crate) const fn plan(&self) -> &Plan<K, M, L> {
        &self.plan
    }

    /// The shortest slice of each operand, operand 0 first.
    pub(crate) const fn lens(&self) -> [usize; K] {
        self.shortest
    }

    /// Each operand's itemsize (bytes), operand 0 first.
    pub(crate) const fn itemsizes(&self) -> [usize; K] {
        self.itemsize
    }

    /// Each run's checks: operand `k`'s element size `sizes[k]` against its itemsize, then
    /// its slice's length `lens[k]` against the shortest it accepts (one comparison each).
    ///
    /// # Errors
    ///
    /// [`LayoutError::ItemsizeMismatch`], then [`LayoutError::OffsetOutsideSlice`], naming
    /// the first operand that fails.
    #[cfg_attr(not(target_os = "none"), inline)]
    #[cfg_attr(
        target_os = "none",
        expect(
            clippy::inline_always,
            reason = "a `const` plan's run folds into immediates only when inlined into its caller"
        )
    )]
    #[cfg_attr(target_os = "none", inline(always))]
    pub(crate) fn bounds(
        &self,
        sizes: [usize; K],
        lens: [usize; K],
    ) -> Result<InBounds<'_, K, M, L>, LayoutError> {
        if let Some(k) = first_where(&self.itemsize, &sizes, |a, b| a != b) {
            if let (Some(&name), Some(&itemsize), Some(&size)) =
                (self.names.get(k), self.itemsize.get(k), sizes.get(k))
            {
                check_size(name, itemsize, size)?;
            }
        }
        match first_where(&self.shortest, &lens, |need, len| len < need) {
            // Every offset of operand `k` lies in `0..shortest[k]` (measured on this plan),
            // so in `0..lens[k]`.
            None => Ok(InBounds {
                plan: &self.plan,
                lens,
                names: self.names,
            }),
            Some(k) => Err(outside(&self.names, &self.shortest, &lens, k)),
        }
    }
}

impl<const K: usize, const M: usize, const L: usize> Checked<K, UniqueFact, M, L> {
    /// [`bounds`](Checked::bounds), and the destination's uniqueness this value was checked
    /// for.
    ///
    /// # Errors
    ///
    /// As [`bounds`](Checked::bounds).
    #[inline]
    pub(crate) fn unique_for(
        &self,
        sizes: [usize; K],
        lens: [usize; K],
    ) -> Result<Unique<'_, K, M, L>, LayoutError> {
        Ok(Unique {
            bounds: self.bounds(sizes, lens)?,
        })
    }
}

impl<const M: usize, const L: usize> Checked<2, CopyFact, M, L> {
    /// This copy with its plan walked in operand `k`'s memory order ([`Plan::in_order_of`]),
    /// checked again from the start as any new plan is: shortest slices, the destination's
    /// uniqueness, the block decoded. What [`CopyPlan::tuned`](crate::CopyPlan::tuned) times.
    ///
    /// # Errors
    ///
    /// Those of [`Plan::in_order_of`], of the shortest slices and of
    /// [`unique`](Checked::unique) (none for a plan this value holds: the reordered plan
    /// visits the same offsets).
    pub(crate) const fn in_order_of(&self, k: usize) -> Result<Self, LayoutError> {
        let plan = match self.plan.in_order_of(k) {
            Ok(p) => p,
            Err(e) => return Err(e),
        };
        let checked = match Checked::of_plan(plan, self.names, self.itemsize) {
            Ok(c) => c,
            Err(e) => return Err(e),
        };
        let [dst_itemsize, _] = self.itemsize;
        match checked.unique() {
            Ok(c) => Ok(c.for_copy(dst_itemsize)),
            Err(e) => Err(e),
        }
    }

    /// [`bounds`](Checked::bounds) of a copy, and what its destination's uniqueness and its
    /// decoded block prove for these lengths.
    ///
    /// # Errors
    ///
    /// As [`bounds`](Checked::bounds).
    #[cfg_attr(not(target_os = "none"), inline)]
    #[cfg_attr(
        target_os = "none",
        expect(
            clippy::inline_always,
            reason = "a `const` plan's run folds into immediates only when inlined into its caller"
        )
    )]
    #[cfg_attr(target_os = "none", inline(always))]
    pub(crate) fn copy_proofs(
        &self,
        sizes: [usize; 2],
        lens: [usize; 2],
    ) -> Result<CopyProofs<'_, M, L>, LayoutError> {
        let unique = Unique {
            bounds: self.bounds(sizes, lens)?,
        };
        // The block is the plan's one nest (`SmallNest::of_plan` of this plan), so its
        // offsets are the plan's, inside `lens` as `bounds` proves, and its destination is
        // the plan's, unique.
        let block = self
            .fact
            .block
            .as_ref()
            .map(|nest| UniqueBlock { nest, lens });
        Ok(CopyProofs { unique, block })
    }

    /// [`bounds`](Checked::bounds) of a copy, and its destination's uniqueness, without the
    /// block ([`copy_proofs`](Checked::copy_proofs) for the kernels that take no block).
    ///
    /// # Errors
    ///
    /// As [`bounds`](Checked::bounds).
    #[inline]
    pub(crate) fn unique_for(
        &self,
        sizes: [usize; 2],
        lens: [usize; 2],
    ) -> Result<Unique<'_, 2, M, L>, LayoutError> {
        // The plan's destination is unique (`CopyFact` is minted only by `for_copy`, which
        // checked it); `bounds` proves the offsets for these lengths.
        Ok(Unique {
            bounds: self.bounds(sizes, lens)?,
        })
    }
}

impl<const M: usize, const L: usize> Checked<2, CopyFact, M, L> {
    /// The plan's one block classified for a small-block kernel, when it has one and slices
    /// of `lens` elements of `sizes` bytes pass [`bounds`](Checked::bounds): then every
    /// offset of the block lies inside such slices and its destination is unique. Checked
    /// before [`copy_proofs`](Checked::copy_proofs) builds anything, so that a small copy's
    /// run is the two comparisons and the kernel.
    #[cfg(not(target_os = "none"))]
    #[inline]
    pub(crate) fn small_for(&self, sizes: [usize; 2], lens: [usize; 2]) -> Option<&Small> {
        let small = self.fact.small.as_ref()?;
        self.bounds(sizes, lens).ok().map(|_| small)
    }
}

impl<const M: usize> Checked<2, WithinFact, M> {
    /// [`bounds`](Checked::bounds) of an in-place copy with one buffer of `len` elements of
    /// `size` bytes, and what its operands' check proves.
    ///
    /// # Errors
    ///
    /// As [`bounds`](Checked::bounds).
    #[inline]
    pub(crate) fn in_place_for(
        &self,
        size: usize,
        len: usize,
    ) -> Result<InPlace<'_, M>, LayoutError> {
        let bounds = self.bounds([size, size], [len, len])?;
        Ok(if self.fact.disjoint {
            InPlace::Disjoint(super::Disjoint {
                unique: Unique { bounds },
            })
        } else {
            InPlace::Coincide
        })
    }

    /// Whether the operands coincide (nothing to move).
    pub(crate) const fn coincide(&self) -> bool {
        !self.fact.disjoint
    }
}

/// Measures the shortest slice of each operand of `plan`: one past its largest offset over
/// every nest (0 for an empty plan); `names[k]` names operand `k` in the error when an offset
/// is negative (no slice holds it).
const fn shortest<const K: usize, const M: usize, const L: usize>(
    plan: &Plan<K, M, L>,
    names: [Operand; K],
) -> Result<[usize; K], LayoutError> {
    let mut lens = [0usize; K];
    let Some(spans) = spans(plan) else {
        return Ok(lens);
    };
    let mut k = 0;
    while k < K {
        let (Some((lo, hi)), Some(name)) = (get(&spans, k), get(&names, k)) else {
            break;
        };
        set(&mut lens, k, tri!(needed_len(name, lo, hi)));
        k = k.saturating_add(1);
    }
    Ok(lens)
}

#[cfg(test)]
mod tests {
    use super::Checked;
    use crate::kernel::plan::MAX_NESTS;
    use crate::kernel::plan::block::SmallNest;
    use crate::{Layout, LayoutError, Operand, Order};

    fn copy<const N: usize>(src: &Layout<N>, dst: &Layout<N>) -> Checked<2, super::CopyFact> {
        let names = [Operand::Destination, Operand::Source];
        Checked::new(&[dst.lowered(), src.lowered()], names)
            .and_then(Checked::unique)
            .map(|c| c.for_copy(dst.itemsize()))
            .unwrap()
    }

    #[test]
    fn the_block_of_a_one_nest_plan_is_its_nest() {
        // Stereo planar -> interleaved: one nest of two loops, untiled.
        let planar = Layout::dense([2, 64], 2, Order::C).unwrap();
        let frames = Layout::dense([2, 64], 2, Order::F).unwrap();
        let c = copy(&planar, &frames);
        assert_eq!(c.plan().nests().len(), 1);
        let (nest, block) = (c.plan().nests()[0], c.fact.block.unwrap());
        assert_eq!(block.loops(), nest.loops());
        assert_eq!(
            (block.offsets(), block.bounds()),
            (nest.offsets(), nest.bounds())
        );
        assert_eq!((block.tile(), block.volume()), (None, 128));
        // A tiled transpose keeps its tile; a contiguous copy is one loop; a 0-d copy none.
        let m = Layout::dense([64, 64], 4, Order::C).unwrap();
        let t = copy(&m, &m.transposed(0, 1).unwrap());
        assert_eq!(t.fact.block.unwrap().tile(), t.plan().nests()[0].tile());
        assert!(t.fact.block.unwrap().tile().is_some());
        assert_eq!(copy(&m, &m).fact.block.unwrap().loops().len(), 1);
        let scalar = Layout::<0>::new([], [], 4).unwrap();
        assert_eq!(copy(&scalar, &scalar).fact.block.unwrap().volume(), 1);
    }

    #[test]
    fn plans_of_more_nests_or_loops_have_no_block() {
        // Three loops that merge nowhere: no block, the general loops run.
        let l = Layout::new([2, 2, 2], [9, 3, 1], 4).unwrap();
        let f = Layout::new([2, 2, 2], [1, 3, 9], 4).unwrap();
        let c = copy(&l, &f);
        assert_eq!(c.plan().nests()[0].loops().len(), 3);
        assert!(c.fact.block.is_none());
        assert_eq!(SmallNest::of_plan(c.plan()), None);
    }

    #[test]
    fn each_run_checks_element_sizes_then_lengths() {
        let src = Layout::new([3], [2], 4).unwrap();
        let dst = Layout::dense([3], 4, Order::C).unwrap();
        let c = copy(&src, &dst);
        assert_eq!(c.lens(), [3, 5]);
        let size = |operand, element_size| LayoutError::ItemsizeMismatch {
            operand,
            itemsize: 4,
            element_size,
        };
        let short = |operand, needed, given| LayoutError::OffsetOutsideSlice {
            operand,
            needed,
            given,
        };
        // A wrong element size is reported before a short slice, the destination first.
        assert_eq!(
            c.bounds([8, 8], [0, 0]).err(),
            Some(size(Operand::Destination, 8))
        );
        assert_eq!(
            c.bounds([4, 2], [0, 0]).err(),
            Some(size(Operand::Source, 2))
        );
        assert_eq!(
            c.bounds([4, 4], [2, 5]).err(),
            Some(short(Operand::Destination, 3, 2))
        );
        assert_eq!(
            c.bounds([4, 4], [3, 4]).err(),
            Some(short(Operand::Source, 5, 4))
        );
        assert!(c.bounds([4, 4], [3, 5]).is_ok());
        // The block proofs are for the lengths checked: longer slices are fine.
        let proofs = c.copy_proofs([4, 4], [7, 9]).unwrap();
        let block = proofs.block().unwrap();
        assert!(block.nest_for([7, 9]).is_ok());
        assert!(block.nest_for([3, 5]).is_err());
    }

    #[test]
    fn in_place_plans_know_whether_the_operands_coincide() {
        let l = Layout::new([3], [1], 4).unwrap();
        let names = [Operand::Destination, Operand::Source];
        let within = |src: &Layout<1>, dst: &Layout<1>| {
            Checked::<2, (), MAX_NESTS>::new(&[dst.lowered(), src.lowered()], names)
                .and_then(Checked::unique)
                .and_then(Checked::in_place)
        };
        assert!(within(&l, &l).unwrap().coincide());
        assert!(!within(&l, &l.with_offset(3).unwrap()).unwrap().coincide());
        assert_eq!(
            within(&l, &l.with_offset(1).unwrap()).err(),
            Some(LayoutError::OperandsOverlap)
        );
    }
}
