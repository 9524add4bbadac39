//! Interleaved (blocked) layouts: one axis stored in blocks of `factor` consecutive
//! elements, with the semantics of `NDArray.InterleaveLayout` in Apple's Core AI framework
//! (the on-device tensor type's description of channel-interleaved and blocked arrays).
//!
//! | item | what it is |
//! | --- | --- |
//! | [`InterleaveLayout`] | the spec: `dimension` (which axis) and `factor` (elements per block) |
//! | [`InterleavedLayout<N>`] | a layout carrying a spec; `strides[dimension]` is the *block* stride |
//! | [`to_strided`](InterleavedLayout::to_strided) / [`from_strided`](InterleavedLayout::from_strided) | the equivalent rank-`N + 1` strided form (factor divides the extent) |
//! | [`to_strided_padded`](InterleavedLayout::to_strided_padded) | the padded form of a partial last block, with its mask rule |
//! | [`permuted`](InterleavedLayout::permuted), [`narrowed`](InterleavedLayout::narrowed), [`selected`](InterleavedLayout::selected) | transforms that keep it interleaved |
//! | [`is_unique_within`](InterleavedLayout::is_unique_within), [`overlaps_within`](InterleavedLayout::overlaps_within), [`fits_in`](InterleavedLayout::fits_in) | questions answered through the two strided pieces |
//! | [`offsets`](InterleavedLayout::offsets), [`indices`](InterleavedLayout::indices), [`strided_blocks`](InterleavedLayout::strided_blocks) | iteration in logical C order, double-ended |
//! | [`contiguous_axis`](InterleavedLayout::contiguous_axis), [`stride_rank`](InterleavedLayout::stride_rank), [`contiguous_batch_size`](InterleavedLayout::contiguous_batch_size) | ArrayInterface's questions |
//!
//! Blocked vs interleaved (CuTe's `blocked_product` vs `raked_product`), 8 channels of 4
//! pixels, drawn as the offset of `[channel, pixel]`:
//!
//! ```text
//! planar (8,4):(4,1)          interleaved il(0,8): (8,4):(32,8)   blocks of 4: il(0,4): (8,4):(16,4)
//! (channel-major, CHW)        (pixel-major, HWC)                  (nChw4c: 2 blocks of 4 channels)
//!   0  1  2  3                  0  8 16 24                          0  4  8 12
//!   4  5  6  7                  1  9 17 25                          1  5  9 13
//!   8  9 10 11                  2 10 18 26                          2  6 10 14
//!  12 13 14 15                  3 11 19 27                          3  7 11 15
//!  ...                         ...                                 16 20 24 28
//!  28 29 30 31                  7 15 23 31                         ...
//! ```
//!
//! The offset of index `i` is `offset + (i_d / f) * strides[d] + i_d % f + Σ_{k != d} i_k
//! strides[k]`. When `f` divides `shape[d]` this is the strided layout with axis `d` split
//! into `(shape[d] / f, f)` and strides `(strides[d], 1)`, the block axis last; otherwise the
//! last block is partial, its unused slots padding, and no single strided layout has the
//! same offsets (the padded form covers a superset, selected by a mask rule).
//!
//! Kernels see an interleaved layout as at most two strided pieces of rank `N + 1` (the
//! full blocks, and the partial last block), which is what the copy kernels' mapping
//! abstraction lowers it to; [`shape`](InterleavedLayout::shape),
//! [`strides`](InterleavedLayout::strides), [`offset`](InterleavedLayout::offset),
//! [`itemsize`](InterleavedLayout::itemsize) and [`interleave`](InterleavedLayout::interleave)
//! are everything that lowering reads.

mod interleave_layout;
mod interleaved_layout;
mod queries;
mod pieces;
mod strided_form;
mod transform;
mod fmt;

pub use interleave_layout::InterleaveLayout;
pub use interleaved_layout::InterleavedLayout;
