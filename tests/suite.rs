//! Every integration test in one program: one link and one copy of each generic instance
//! instead of one per file (a fresh `cargo test` on two cores spent most of its time linking
//! and instantiating the crate again for each of about thirty-five test programs). Each file
//! under `tests/` is a module here; run one with a filter, `cargo test --test suite kernels::`.
//! The GPU tests (`tests/gpu.rs`, feature `cudarc`) stay a program of their own; the
//! compiler's messages are the crate `tests/compile_errors` (trybuild).

#[macro_use]
mod common;
mod dma_emu;

mod algebra;
mod api_names;
mod auto_traits;
mod blocks;
mod const_eval;
mod construct;
mod cuda_core;
mod dlpack;
mod dma;
mod edges;
mod elements;
mod exhaustive_copy;
mod exhaustive_interleaved;
mod exhaustive_layout;
mod fmt;
mod header;
mod interleave;
mod interleave_any;
mod interleave_copy;
mod interleave_queries;
mod kernels;
mod limits_32bit;
mod memory_limit;
mod ndarray_views;
mod nested;
mod no_panic;
mod par;
mod param;
mod prepared;
mod queries;
mod rank;
mod review_edges;
mod tma;
mod transforms;
