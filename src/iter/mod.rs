//! Iteration: a layout's element offsets, its multi-indices, and its offsets grouped into
//! maximal contiguous runs, each in logical C order (last axis fastest).
//!
//! | iterator | item | made by | exact size |
//! | --- | --- | --- | --- |
//! | [`Offsets<N>`] | `isize` element offset | [`Layout::offsets`](crate::Layout::offsets), [`DynLayout::offsets`](crate::DynLayout::offsets) | yes |
//! | [`Indices<N>`] | `[usize; N]` multi-index | [`Layout::indices`](crate::Layout::indices), [`DynLayout::indices`](crate::DynLayout::indices) | yes |
//! | [`StridedBlocks<N>`] | [`Block`] `{ start, len }` | [`Layout::strided_blocks`](crate::Layout::strided_blocks), [`DynLayout::strided_blocks`](crate::DynLayout::strided_blocks) | when regular |
//!
//! All three share one stepping core (an odometer over rows of the last axis, state on the
//! stack, `Copy`), are fused, and handle zero and negative strides, overlap, extent 0 (no
//! item) and rank 0 (one item). A `DynLayout<MAX>` is walked as a rank-`MAX` layout with
//! leading extent-1 axes, so both rank types use the same code.
//!
//! ```text
//! (2,2,3):(12,3,1) viewed from a (2,4,3) buffer    strided_blocks() -> {0,6} {12,6}
//!  block 0: 0 1 2 3 4 5                            (axes 1 and 2 merge: 3 * 1 == 3)
//!  block 1: 12 13 14 15 16 17
//! ```

mod walk;
mod blocks;
mod offsets;
mod indices;

pub use blocks::{Block, StridedBlocks};
pub use indices::Indices;
pub use offsets::Offsets;
