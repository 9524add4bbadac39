//! Iteration: a layout's element offsets, its multi-indices, and its offsets grouped into
//! maximal contiguous runs, each in logical C order (last axis fastest).
//!
//! | iterator | item | made by | exact size |
//! | --- | --- | --- | --- |
//! | [`Offsets<N>`] | `isize` element offset | `offsets()` of [`Layout`](crate::Layout::offsets), [`DynLayout`](crate::DynLayout::offsets), [`InterleavedLayout`](crate::InterleavedLayout::offsets) | yes |
//! | [`Indices<N>`] | `[usize; N]` multi-index | `indices()` of [`Layout`](crate::Layout::indices), [`DynLayout`](crate::DynLayout::indices), [`InterleavedLayout`](crate::InterleavedLayout::indices) | yes |
//! | [`StridedBlocks<N>`] | [`Block`] `{ start, len }` | `strided_blocks()` of [`Layout`](crate::Layout::strided_blocks), [`DynLayout`](crate::DynLayout::strided_blocks), [`InterleavedLayout`](crate::InterleavedLayout::strided_blocks) | when regular |
//!
//! All three are built once, over the [`Lowered`](crate::plan::Lowered) description every layout
//! kind gives the kernels, and share one stepping core (a double-ended odometer, state on
//! the stack, `Copy`); they are fused and double-ended (`rev()` yields the same items in
//! reverse), and handle zero and negative strides, overlap, interleaved axes with a partial
//! last block, extent 0 (no item) and rank 0 (one item). A `DynLayout<MAX>` is walked as a
//! rank-`MAX` layout with leading extent-1 axes, so every rank type uses the same code.
//!
//! ```text
//! (2,2,3):(12,3,1) viewed from a (2,4,3) buffer    strided_blocks() -> {0,6} {12,6}
//!  block 0: 0 1 2 3 4 5                            (axes 1 and 2 merge: 3 * 1 == 3)
//!  block 1: 12 13 14 15 16 17
//! ```

mod odometer;
mod blocks;
mod offsets;
mod indices;

pub use blocks::{Block, StridedBlocks};
pub use indices::Indices;
pub use offsets::Offsets;

pub(crate) use odometer::right_aligned;
