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
mod limits_32bit;
mod param;

/// Modules built for 64-bit targets only (see above).
macro_rules! on_64_bit {
    ($($m:ident),* $(,)?) => { $( #[cfg(target_pointer_width = "64")] mod $m; )* };
}

on_64_bit!(
    dma_emu,
    algebra,
    api_names,
    auto_traits,
    blocks,
    const_eval,
    construct,
    cuda_core,
    dlpack,
    dma,
    edges,
    elements,
    exhaustive_copy,
    exhaustive_interleaved,
    exhaustive_layout,
    fmt,
    header,
    interleave,
    interleave_any,
    interleave_copy,
    interleave_queries,
    kernels,
    kernel_nested,
    memory_limit,
    ndarray_views,
    nested,
    no_panic,
    par,
    peel,
    prepared,
    queries,
    rank,
    review_edges,
    tma,
    transforms,
);
