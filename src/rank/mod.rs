//! Rank changes: the rank stays part of the type on stable Rust.
//!
//! When the operation fixes the output rank, the caller names it (or lets inference supply
//! it) as the const parameter `M`, and a trait bound on `Rank<N>` (the input rank as a type)
//! states the relation: a wrong rank is a type error that `cargo check` reports at the
//! caller's line, with the rule in its message ("this transform adds one axis: rank 2 cannot
//! become rank 4"), and where the relation allows one rank only, inference finds it. A
//! function generic over ranks that calls these transforms carries the same bound (see
//! [`Rank`]). When the output rank depends on the data, the result is a
//! [`DynLayout<N>`](crate::DynLayout), rank at most `N`, stored inline.
//!
//! | operation | output rank | bound | method |
//! | --- | --- | --- | --- |
//! | insert an extent-1 axis | `M == N + 1` | [`OneMore`] | [`unsqueezed`](crate::Layout::unsqueezed) |
//! | insert `K` extent-1 axes | `M == N + K` | [`AddsAxes`] | [`unsqueezed_axes`](crate::Layout::unsqueezed_axes) |
//! | pick one index of an axis | `M == N - 1` | [`OneLess`] | [`selected`](crate::Layout::selected), [`InterleavedLayout::selected`](crate::InterleavedLayout::selected) |
//! | reshape without copy (C / F index order) | any `M` | none | [`reshaped`](crate::Layout::reshaped), [`reshaped_f`](crate::Layout::reshaped_f) |
//! | broadcast to a shape | `M >= N` | [`NotLower`] | [`broadcast_to`](crate::Layout::broadcast_to) |
//! | split an axis into outer × inner | `M == N + 1` | [`OneMore`] | [`split_axis`](crate::Layout::split_axis) |
//! | merge `N - M + 1` consecutive axes | `1 <= M <= N` | [`Merged`] | [`merged_axes`](crate::Layout::merged_axes) |
//! | a blocked axis as two strided axes, and back | `M == N + 1` | [`OneMore`], [`OneLess`] | [`InterleavedLayout::to_strided`](crate::InterleavedLayout::to_strided), [`InterleavedLayout::from_strided`](crate::InterleavedLayout::from_strided) |
//! | into a bounded-rank layout | `N <= MAX` | [`NotLower`] | `From<Layout<N>> for DynLayout<MAX>` |
//! | index with `s!` (NumPy `x[1, :, 2:5]`) | `M == N` minus the indices | [`Indexes`] | [`indexed`](crate::Layout::indexed), [`s!`](crate::s) |
//! | drop extent-1 axes | data | [`squeezed`](crate::Layout::squeezed) |
//! | repack, dropping the axis if its extent becomes 1 | data | [`repacked_dropping_axis`](crate::Layout::repacked_dropping_axis) |
//! | merge every mergeable run | data | [`flattened`](crate::Layout::flattened), [`flattened_range`](crate::Layout::flattened_range), [`flattened_with_mask`](crate::Layout::flattened_with_mask) |
//!
//! ```
//! use strided_layout::{Layout, LayoutError, Order};
//! let l3 = Layout::dense([3, 480, 640], 1, Order::C)?;
//! let l4: Layout<4> = l3.unsqueezed(0)?;          // M inferred from the annotation
//! let l2 = l3.selected::<2>(0, 1)?;               // M named by the caller
//! let row = l2.selected(0, 0)?;                   // M inferred from the bound: rank 1
//! assert_eq!((l4.shape(), l2.shape(), l2.offset()), ([1, 3, 480, 640], [480, 640], 307200));
//! assert_eq!(row.shape(), [640]);
//! # Ok::<(), LayoutError>(())
//! ```

mod unsqueeze;
mod select;
mod reshape;
mod broadcast;
mod split;
mod merge;
mod squeeze;
mod flatten;
mod repack;
mod relations;

pub use relations::{AddsAxes, Indexes, Merged, NotLower, OneLess, OneMore, Rank};
