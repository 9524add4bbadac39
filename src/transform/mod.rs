//! Same-rank, zero-copy transforms: each returns a new `Layout<N>` over the same memory.

mod permute;
mod flip;
mod narrow;
mod slice;
mod repack;
mod dense;
