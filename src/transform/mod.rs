//! Same-rank, zero-copy transforms: each returns a new `Layout<N>` over the same memory.
