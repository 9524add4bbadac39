//! Prepared kernels: everything that does not depend on the buffers (shapes, the [`Plan`](crate::plan::Plan),
//! the destination's uniqueness, each buffer's shortest length) checked once, then run many
//! times.
//!
//! | prepared | built by | runs | each run checks |
//! | --- | --- | --- | --- |
//! | [`CopyPlan`] | [`CopyPlan::new`] (`const`, [`Layout`](crate::Layout) operands), [`CopyPlan::from_lowered`] (`const`, any lowered operands), [`CopyPlan::of`] (any [`Mapping`](crate::plan::Mapping)); [`CopyPlan::tuned`] keeps the fastest of its loop orders, timed on the caller's buffers | [`run`](CopyPlan::run) = [`copy()`](crate::copy()), [`run_map`](CopyPlan::run_map) = [`map`](crate::map), [`run_uninit`](CopyPlan::run_uninit) = [`copy_uninit`](crate::copy_uninit) | the two lengths and `size_of::<T>()` |
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

mod copy;
mod fill;
mod within;
mod zip_map;

pub use copy::CopyPlan;
pub use fill::FillPlan;
pub use within::CopyWithinPlan;
pub use zip_map::ZipMapPlan;
