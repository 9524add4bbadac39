//! Every integration test in one program: one link and one copy of each generic instance
//! instead of one per file (a fresh `cargo test` on two cores spent most of its time linking
//! and instantiating the crate again for each of about thirty-five test programs). Each file
//! under `tests/` is a module here; run one with a filter, `cargo test --test suite kernels::`.
//! The GPU tests (`tests/gpu.rs`, feature `cudarc`) stay a program of their own; the
//! compiler's messages are the crate `tests/compile_errors` (trybuild).
//!
//! On a 32-bit target (CI runs Miri for i686) the program holds `limits_32bit` and `param`,
//! written for a 32-bit `usize`; the other modules state 64-bit values (strides and extents
//! past 2^32) and are built for 64-bit targets only.

#[macro_use]
mod common;
#[cfg(target_pointer_width = "64")]
mod dma_emu;

#[cfg(target_pointer_width = "64")]
mod algebra;
#[cfg(target_pointer_width = "64")]
mod api_names;
#[cfg(target_pointer_width = "64")]
mod auto_traits;
#[cfg(target_pointer_width = "64")]
mod blocks;
#[cfg(target_pointer_width = "64")]
mod const_eval;
#[cfg(target_pointer_width = "64")]
mod construct;
#[cfg(target_pointer_width = "64")]
mod cuda_core;
#[cfg(target_pointer_width = "64")]
mod dlpack;
#[cfg(target_pointer_width = "64")]
mod dma;
#[cfg(target_pointer_width = "64")]
mod edges;
#[cfg(target_pointer_width = "64")]
mod elements;
#[cfg(target_pointer_width = "64")]
mod exhaustive_copy;
#[cfg(target_pointer_width = "64")]
mod exhaustive_interleaved;
#[cfg(target_pointer_width = "64")]
mod exhaustive_layout;
#[cfg(target_pointer_width = "64")]
mod fmt;
#[cfg(target_pointer_width = "64")]
mod header;
#[cfg(target_pointer_width = "64")]
mod interleave;
#[cfg(target_pointer_width = "64")]
mod interleave_any;
#[cfg(target_pointer_width = "64")]
mod interleave_copy;
#[cfg(target_pointer_width = "64")]
mod interleave_queries;
#[cfg(target_pointer_width = "64")]
mod kernels;
mod limits_32bit;
#[cfg(target_pointer_width = "64")]
mod memory_limit;
#[cfg(target_pointer_width = "64")]
mod ndarray_views;
#[cfg(target_pointer_width = "64")]
mod nested;
#[cfg(target_pointer_width = "64")]
mod no_panic;
#[cfg(target_pointer_width = "64")]
mod par;
mod param;
#[cfg(target_pointer_width = "64")]
mod prepared;
#[cfg(target_pointer_width = "64")]
mod queries;
#[cfg(target_pointer_width = "64")]
mod rank;
#[cfg(target_pointer_width = "64")]
mod review_edges;
#[cfg(target_pointer_width = "64")]
mod tma;
#[cfg(target_pointer_width = "64")]
mod transforms;
