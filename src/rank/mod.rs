//! Rank changes: the rank stays part of the type on stable Rust.
//!
//! When the operation fixes the output rank, the caller names it (or lets inference supply
//! it) as the const parameter `M`, and an inline `const { assert!(..); }` in the function body
//! checks the relation, so a wrong rank fails the build (a post-monomorphization error,
//! reported by `cargo build`/`test`, not by `cargo check`). When the output rank depends on
//! the data, the result is a [`DynLayout<N>`](crate::DynLayout), rank at most `N`, stored inline.
//!
//! | operation | output rank | method |
//! | --- | --- | --- |
//! | insert an extent-1 axis | `M == N + 1` | [`unsqueezed`](crate::Layout::unsqueezed) |
//! | insert `K` extent-1 axes | `M == N + K` | [`unsqueezed_axes`](crate::Layout::unsqueezed_axes) |
//! | pick one index of an axis | `M == N - 1` | [`selected`](crate::Layout::selected) |
//! | reshape without copy (C / F index order) | any `M` | [`reshaped`](crate::Layout::reshaped), [`reshaped_f`](crate::Layout::reshaped_f) |
//! | broadcast to a shape | `M >= N` | [`broadcast_to`](crate::Layout::broadcast_to) |
//! | split an axis into outer × inner | `M == N + 1` | [`split_axis`](crate::Layout::split_axis) |
//! | merge `N - M + 1` consecutive axes | `1 <= M <= N` | [`merged_axes`](crate::Layout::merged_axes) |
//! | drop extent-1 axes | data | [`squeezed`](crate::Layout::squeezed) |
//! | repack, dropping the axis if its extent becomes 1 | data | [`repacked_dropping_axis`](crate::Layout::repacked_dropping_axis) |
//! | merge every mergeable run | data | [`flattened`](crate::Layout::flattened), [`flattened_range`](crate::Layout::flattened_range), [`flattened_with_mask`](crate::Layout::flattened_with_mask) |
//!
//! ```
//! use strided_layout::{Layout, LayoutError, Order};
//! let l3 = Layout::dense([3, 480, 640], 1, Order::C)?;
//! let l4: Layout<4> = l3.unsqueezed(0)?;          // M inferred from the annotation
//! let l2 = l3.selected::<2>(0, 1)?;               // M named by the caller
//! assert_eq!((l4.shape(), l2.shape(), l2.offset()), ([1, 3, 480, 640], [480, 640], 307200));
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
