//! PTX probe: `#[no_mangle]` wrappers around the device math, to read its instruction count.
//!
//! ```text
//! cd tests/ptx
//! cargo +nightly rustc --release -Zbuild-std=core --target nvptx64-nvidia-cuda -- --emit asm
//! less target/nvptx64-nvidia-cuda/release/deps/strided_layout_ptx_probe-*.s
//! ```
//!
//! (`rustup +nightly component add rust-src` once.) Each function is a `.visible .func`; count
//! the instructions between its braces (the figures are in `src/doc/gpu.rs`).
#![no_std]

use strided_layout::KernelLayout;

/// `offset_of_linear` at rank 4, `i32` (the grid-stride loop body).
#[unsafe(no_mangle)]
pub extern "C" fn offset_of_linear_i32_rank4(k: &KernelLayout<i32, 4>, linear: i32) -> i32 {
    k.offset_of_linear(linear)
}

/// `offset_of_linear` at rank 2, `i32`.
#[unsafe(no_mangle)]
pub extern "C" fn offset_of_linear_i32_rank2(k: &KernelLayout<i32, 2>, linear: i32) -> i32 {
    k.offset_of_linear(linear)
}

/// `offset_of_linear` at rank 4, `u32`.
#[unsafe(no_mangle)]
pub extern "C" fn offset_of_linear_u32_rank4(k: &KernelLayout<u32, 4>, linear: u32) -> u32 {
    k.offset_of_linear(linear)
}

/// `offset_of_linear` at rank 4, `i64`.
#[unsafe(no_mangle)]
pub extern "C" fn offset_of_linear_i64_rank4(k: &KernelLayout<i64, 4>, linear: i64) -> i64 {
    k.offset_of_linear(linear)
}

/// `offset_of` at rank 4, `i32`.
#[unsafe(no_mangle)]
pub extern "C" fn offset_of_i32_rank4(k: &KernelLayout<i32, 4>, index: &[i32; 4]) -> i32 {
    k.offset_of(*index)
}

/// The naive loop the fast division replaces: one division and remainder per axis.
#[unsafe(no_mangle)]
pub extern "C" fn naive_division_i32_rank4(k: &KernelLayout<i32, 4>, linear: i32) -> i32 {
    let (e, s) = (k.extents(), k.strides());
    let mut rest = linear;
    let mut acc = k.offset();
    for (&e, &s) in e.iter().zip(&s).rev() {
        acc = acc.wrapping_add((rest % e).wrapping_mul(s));
        rest /= e;
    }
    acc
}
