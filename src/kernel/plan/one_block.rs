//! A plan's one block, decoded once: what a prepared copy keeps beside its [`Plan`] so that
//! each run hands the block to the block kernel at once, without walking the plan's nests.

use super::{Loop, Plan};

/// The block of a plan that is one untiled nest of at most two loops (nearly every small
/// copy): the destination and source offsets of its first element and the two loops, `a`
/// outside `b` (one-step loops where the nest has fewer), as the loop drivers hand it to the
/// block kernel.
///
/// Minted only by [`OneBlock::of_plan`], from the plan it is kept beside: its offsets are
/// offsets of that plan, so the plan's bounds witness covers them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub(crate) struct OneBlock {
    /// The destination's and the source's offset of the first element.
    pub(crate) offsets: [isize; 2],
    /// The outer loop.
    pub(crate) a: Loop<2>,
    /// The inner loop.
    pub(crate) b: Loop<2>,
}

impl OneBlock {
    /// The block of `plan`, when the plan is one untiled nest of at most two loops (the block
    /// the drivers would hand the kernel); `None` for any other plan, an empty one included.
    /// A `const fn`: a plan built at compile time is decoded at compile time.
    pub(crate) const fn of_plan(plan: &Plan<2>) -> Option<Self> {
        let [nest] = plan.nests() else {
            return None;
        };
        if nest.tile().is_some() {
            return None;
        }
        let (a, b) = match nest.loops() {
            [a, b] => (*a, *b),
            [b] => (Loop::UNIT, *b),
            [] => (Loop::UNIT, Loop::UNIT),
            _ => return None,
        };
        Some(Self {
            offsets: nest.offsets(),
            a,
            b,
        })
    }

    /// The number of elements the block visits.
    pub(crate) const fn volume(&self) -> usize {
        self.a.extent.saturating_mul(self.b.extent)
    }
}

#[cfg(test)]
mod tests {
    use super::OneBlock;
    use crate::kernel::plan::{Loop, Plan};
    use crate::{Layout, Order};

    fn plan<const N: usize>(src: &Layout<N>, dst: &Layout<N>) -> Plan<2> {
        Plan::new(&[dst.lowered(), src.lowered()]).unwrap()
    }

    #[test]
    fn the_block_of_a_one_nest_plan_is_its_loops_and_offsets() {
        // Stereo planar -> interleaved: frames outside, channels inside.
        let planar = Layout::dense([2, 64], 2, Order::C).unwrap();
        let frames = Layout::dense([2, 64], 2, Order::F).unwrap();
        let p = plan(&planar, &frames);
        let one = OneBlock::of_plan(&p).unwrap();
        assert!(matches!(
            p.nests(),
            [n] if n.offsets() == one.offsets && n.loops() == [one.a, one.b]
        ));
        assert_eq!(one.volume(), 128);
    }

    #[test]
    fn fewer_loops_become_one_step_loops() {
        // A contiguous copy merges to one loop; a 0-d copy has none.
        let dense = Layout::dense([3, 4], 4, Order::C).unwrap();
        let one = OneBlock::of_plan(&plan(&dense, &dense)).unwrap();
        assert_eq!(one.a, Loop::UNIT);
        assert_eq!(one.b.extent, 12);
        let scalar = Layout::<0>::new([], [], 4).unwrap().with_offset(3).unwrap();
        let one = OneBlock::of_plan(&plan(&scalar, &scalar)).unwrap();
        assert_eq!(
            (one.a, one.b, one.offsets, one.volume()),
            (Loop::UNIT, Loop::UNIT, [3, 3], 1)
        );
    }

    #[test]
    fn other_plans_have_no_one_block() {
        // Empty: no nest.
        let empty = Layout::dense([0, 4], 4, Order::C).unwrap();
        assert_eq!(OneBlock::of_plan(&plan(&empty, &empty)), None);
        // Three loops that do not merge.
        let src = Layout::dense([3, 4, 5], 4, Order::C).unwrap();
        let dst = Layout::dense([3, 4, 5], 4, Order::Perm([0, 2, 1])).unwrap();
        let p = plan(&src, &dst);
        assert!(p.nests().iter().any(|n| n.loops().len() > 2));
        assert_eq!(OneBlock::of_plan(&p), None);
        // A transpose large enough to tile.
        let c = Layout::dense([256, 256], 4, Order::C).unwrap();
        let f = Layout::dense([256, 256], 4, Order::F).unwrap();
        let p = plan(&c, &f);
        assert!(matches!(p.nests(), [n] if n.loops().len() == 2 && n.tile().is_some()));
        assert_eq!(OneBlock::of_plan(&p), None);
    }
}
