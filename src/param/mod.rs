//! [`KernelLayout<I, N>`]: a layout as a `#[repr(C)]` kernel parameter over an index type `I`.
//!
//! A GPU (or DSP) kernel takes its operands' layouts by value, as plain data, and does its
//! offset math in a narrow integer type (`i32` is the fast one on most GPUs). This module is
//! the bridge: a host-side checked conversion from [`Layout<N>`](crate::Layout) that fails
//! instead of narrowing silently, and device-side offset math that is `#[inline]`, generic over
//! `I`, free of panics and of hardware divisions, and builds for `nvptx64-nvidia-cuda` (CI
//! builds it with `-Zbuild-std=core`). `include/strided_layout.h` is the same math in C++ for
//! CUDA kernels, reading the same bytes.
//!
//! | file | what |
//! | --- | --- |
//! | `kernel_layout.rs` | [`KernelLayout`]: packing (checked), `offset_of`, `offset_of_linear`, accessors |
//! | `kernel_nested.rs` | [`KernelNestedLayout`]: a nested layout (several blocked modes, partial last blocks) packed the same way, one fast division per leaf; [`ABI_VERSION`] |
//! | `pack.rs` | the packing as `const fn`s over `i128` words: which layouts fit a type, and the words |
//! | `fast_div.rs` | [`KernelIndex`]: the index types and their division by multiply-high and shift |
//! | `abi.rs` | the byte layout, asserted at compile time; the `bytemuck` and `cudarc` impls |
//!
//! The packing, the proof that the device math is exact, and the examples are on
//! [`KernelLayout`] itself (this module is private; its items are re-exported at the root);
//! [`doc::gpu`](crate::doc::gpu) is the guide for GPU hosts.

mod fast_div;
mod kernel_layout;
mod kernel_nested;
mod abi;
mod pack;

pub use fast_div::KernelIndex;

/// The text of `include/strided_layout.h`, the C++ side of [`KernelLayout`]: the same struct and
/// the same offset math for CUDA kernels, for NVRTC at run time.
///
/// Prepend it to a kernel's source (the header has no `#include`s of its own, and guards
/// itself); a kernel file that also builds with `nvcc` writes its include as
/// `#ifndef STRIDED_LAYOUT_H` / `#include "strided_layout.h"` / `#endif`. A build script
/// finds the file itself through `links`: `DEP_STRIDED_LAYOUT_INCLUDE` is its directory.
///
/// # Examples
///
/// ```
/// let kernel = r#"
/// extern "C" __global__ void copy2(const float* src, strided_layout::KernelLayout<int, 2> sl,
///                                  float* dst, strided_layout::KernelLayout<int, 2> dl, int n) {
///   strided_layout::grid_stride_offsets(dl, sl, n, [&](int d, int s) { dst[d] = src[s]; });
/// }"#;
/// let source = format!("{}\n{kernel}", strided_layout::gpu::KERNEL_HEADER);
/// assert!(source.contains("struct KernelLayout"));
/// // compile_ptx_with_opts(source, ...) with cudarc, as examples/gpu_host.rs does.
/// ```
pub const KERNEL_HEADER: &str = include_str!("../../include/strided_layout.h");
pub use kernel_layout::KernelLayout;
pub use kernel_nested::{ABI_VERSION, KernelNestedLayout};
pub(crate) use pack::{IndexRange, parts_fit};

/// Whether every coordinate of `index` lies in `0..bound`, its bound: the range check of both
/// kernel parameters' `checked_offset_of`.
#[inline]
fn below<I: KernelIndex>(index: &[I], bounds: &[I]) -> bool {
    index
        .iter()
        .zip(bounds)
        .all(|(&i, &b)| i >= I::zero() && i < b)
}
