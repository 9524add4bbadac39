//! Same-rank, zero-copy transforms: each returns a new `Layout<N>` over the same memory.

mod dense;
mod flip;
mod narrow;
mod permute;
mod repack;
mod slice;
