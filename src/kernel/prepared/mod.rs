//! Prepared kernels: everything that does not depend on the buffers (shapes, the [`Plan`],
//! the destination's uniqueness, each buffer's shortest length) checked once, then run many
//! times.
//!
//! | prepared | built by | runs | each run checks |
//! | --- | --- | --- | --- |
//! | [`CopyPlan`] | [`CopyPlan::new`] (`const`, [`Layout`](crate::Layout) operands), [`CopyPlan::from_lowered`] (`const`, any lowered operands), [`CopyPlan::of`] (any [`Mapping`](crate::Mapping)) | [`run`](CopyPlan::run) = [`copy()`](crate::copy()), [`run_map`](CopyPlan::run_map) = [`map`](crate::map), [`run_uninit`](CopyPlan::run_uninit) = [`copy_uninit`](crate::copy_uninit) | the two lengths and `size_of::<T>()` |
//! | [`CopyWithinPlan`] | [`CopyWithinPlan::new`] (`const`), [`CopyWithinPlan::of`] | [`run`](CopyWithinPlan::run) = [`copy_within`](crate::copy_within) | the buffer's length and `size_of::<T>()` |
//! | [`FillPlan`] | [`FillPlan::new`] (`const`), [`FillPlan::of`] | [`run`](FillPlan::run) = [`fill`](crate::fill) | the length and `size_of::<T>()` |
//! | [`ZipMapPlan`] | [`ZipMapPlan::new`] (`const`), [`ZipMapPlan::of`] | [`run`](ZipMapPlan::run) = [`zip_map`](crate::zip_map) | the three lengths and element sizes |
//!
//! A plan built in a `const` item is planned and validated by the compiler: a bad layout fails
//! the build with the error's message, and the program links no planner and no uniqueness
//! search, only the loops.
//!
//! ```
//! use strided_layout::{CopyPlan, Layout, LayoutError, Order, const_unwrap};
//! // Stereo, 4 frames: planar [2, 4] -> interleaved (frames outer, channels inner).
//! const PLANAR: Layout<2> = const_unwrap(Layout::dense([2, 4], 2, Order::C));
//! const FRAMES: Layout<2> = const_unwrap(Layout::dense([2, 4], 2, Order::F));
//! const PLAN: CopyPlan = const_unwrap(CopyPlan::new(&PLANAR, &FRAMES));
//! let src: [i16; 8] = [0, 1, 2, 3, 10, 11, 12, 13];
//! let mut dst = [0i16; 8];
//! PLAN.run(&src, &mut dst)?;
//! assert_eq!(dst, [0, 10, 1, 11, 2, 12, 3, 13]);
//! # Ok::<(), LayoutError>(())
//! ```

use crate::algo::access::set;
use crate::kernel::element::check_size;
use crate::kernel::mapping::Lowered;
use crate::kernel::plan::Plan;
use crate::kernel::proof::{InBounds, Shortest, first_where};
use crate::{LayoutError, Operand};

/// What every prepared kernel keeps: the plan of its `K` operands (destination first), their
/// names for errors, their itemsizes and the shortest slice each accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
struct Prepared<const K: usize> {
    plan: Plan<K>,
    names: [Operand; K],
    itemsize: [usize; K],
    shortest: Shortest<K>,
}

impl<const K: usize> Prepared<K> {
    /// Plans `ops` and measures each operand's shortest slice (an error naming `names[k]` when
    /// an offset of operand `k` is negative).
    const fn new<const N: usize>(
        ops: &[Lowered<N>; K],
        names: [Operand; K],
    ) -> Result<Self, LayoutError> {
        let plan = match Plan::new(ops) {
            Ok(p) => p,
            Err(e) => return Err(e),
        };
        let shortest = match Shortest::of(&plan, names) {
            Ok(s) => s,
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
        Ok(Self {
            plan,
            names,
            itemsize,
            shortest,
        })
    }

    /// The shortest slice of each operand, operand 0 first.
    const fn lens(&self) -> [usize; K] {
        self.shortest.lens()
    }

    /// Each run's checks: operand `k`'s element size `sizes[k]` against its itemsize, then
    /// its slice's length `lens[k]` against the shortest it accepts (one comparison each).
    #[cfg_attr(not(target_os = "none"), inline)]
    #[cfg_attr(
        target_os = "none",
        expect(
            clippy::inline_always,
            reason = "a `const` plan's run folds into immediates only when inlined into its caller"
        )
    )]
    #[cfg_attr(target_os = "none", inline(always))]
    fn bounds(&self, sizes: [usize; K], lens: [usize; K]) -> Result<InBounds<'_, K>, LayoutError> {
        if let Some(k) = first_where(&self.itemsize, &sizes, |a, b| a != b) {
            if let (Some(&name), Some(&itemsize), Some(&size)) =
                (self.names.get(k), self.itemsize.get(k), sizes.get(k))
            {
                check_size(name, itemsize, size)?;
            }
        }
        InBounds::from_shortest(&self.plan, &self.shortest, lens, self.names)
    }
}

mod copy;
mod fill;
mod within;
mod zip_map;

pub use copy::CopyPlan;
pub use fill::FillPlan;
pub use within::CopyWithinPlan;
pub use zip_map::ZipMapPlan;
