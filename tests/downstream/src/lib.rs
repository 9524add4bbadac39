//! A downstream crate of strided-layout, as a user's GPU crate would be: it reaches the C++
//! header two ways.
//!
//! - **At build time**, through `links` metadata: its build script reads
//!   `DEP_STRIDED_LAYOUT_INCLUDE` and passes it to `g++` / `nvcc` as `-I` (see `build.rs`).
//! - **At run time**, for NVRTC: [`kernel_source`] prefixes a kernel with
//!   [`strided_layout::gpu::KERNEL_HEADER`], so the program needs no file of the crate.
//!
//! `tests/offsets.rs` checks both against the crate's own offsets.

/// A strided copy kernel of rank 3 for NVRTC: the header's text, then the kernel.
///
/// # Examples
///
/// ```
/// let source = strided_layout_downstream::kernel_source();
/// assert!(source.starts_with(strided_layout::gpu::KERNEL_HEADER));
/// assert!(source.contains("grid_stride_offsets"));
/// ```
#[must_use]
pub fn kernel_source() -> String {
    format!(
        "{}\n{}",
        strided_layout::gpu::KERNEL_HEADER,
        r#"extern "C" __global__ void copy_f32_3(const float* src,
    strided_layout::KernelLayout<int, 3> sl, float* dst, strided_layout::KernelLayout<int, 3> dl,
    int n) {
  strided_layout::grid_stride_offsets(dl, sl, n, [&](int d, int s) { dst[d] = src[s]; });
}
"#
    )
}
