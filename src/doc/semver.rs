//! Semver: what a minor release may add, and what it may not change.
//!
//! # Types that may grow
//!
//! `#[non_exhaustive]` marks the types a minor release may extend. Outside this crate an
//! exhaustive `match` on them needs a `_` arm; building their values is unaffected.
//!
//! | type | non-exhaustive | why |
//! | --- | --- | --- |
//! | [`LayoutError`](crate::LayoutError) | yes | every new rule or kernel check is a new variant |
//! | [`Order`](crate::Order) | yes | more dense orders may come (blocked, Morton); `Order::Perm([..])` is still built by hand |
//! | [`AxisArg`](crate::index::AxisArg) | yes | NumPy's `np.newaxis` and `...` may become arguments of [`s!`](crate::s) |
//! | [`Verdict`](crate::Verdict) | no | yes / no / unknown is complete by construction (a budgeted yes-or-no question); exhaustive matches on it are the point |
//! | [`Block`](crate::iter::Block) `{ start, len }` | no | a run of consecutive elements is exactly these two numbers; users build blocks to compare against |
//! | [`Lowered`](crate::plan::Lowered) | no | outside implementors of [`Mapping`](crate::plan::Mapping) build it by struct literal; a new field would come with a constructor first |
//! | [`Loop`](crate::plan::Loop) `{ extent, strides }` | no | a loop of a plan is exactly these; users compare plans against literals |
//!
//! The other public types have private fields and grow without breaking anyone.
//!
//! # Traits
//!
//! [`Mapping`](crate::plan::Mapping) is open for implementation (its contract is on the trait);
//! a method added to it in a minor release has a default body. [`KernelIndex`](crate::gpu::KernelIndex)
//! and [`IntoAxisArg`](crate::index::IntoAxisArg) are implemented by this crate for the listed types.
//!
//! # Public dependencies
//!
//! Types of these crates appear in this crate's API, so raising their major version is a
//! major (0.x: minor) version of this crate: `heapless` 0.9 (`to_text` returns a
//! `heapless::String`, `DynLayout::strides_in_bytes` a `heapless::Vec`), `num-traits` 0.2
//! (`PrimInt` bounds `fits_in`, `fits_in_bytes` and [`KernelIndex`](crate::gpu::KernelIndex)),
//! and behind their features `defmt` 1, `bytemuck` 1, `cudarc` 0.19 and `ndarray` 0.16.
//!
//! # MSRV
//!
//! Rust 1.87, checked in CI by building and testing the library with it (the `cudarc`
//! feature needs 1.88 and is left out of that check). Raising it is a minor-version change,
//! announced in the changelog.
