//! GPU hosts: packing a layout for a kernel, the C++ header, fast division, DLPack and TMA.
//!
//! | you have | you want | call |
//! | --- | --- | --- |
//! | a [`Layout<N>`](crate::Layout) / [`InterleavedLayout<N>`](crate::InterleavedLayout) | a kernel parameter | [`KernelLayout::<i32, N>::from_layout`](crate::gpu::KernelLayout::from_layout) / [`from_interleaved`](crate::gpu::KernelLayout::from_interleaved) |
//! | a layout known at compile time | a kernel parameter in a `const` item | the same `from_layout` (a `const fn` for each index type) |
//! | a `KernelLayout` in a CUDA C++ kernel | its offsets | `#include "strided_layout.h"`: `offset_of`, `offset_of_linear`, `checked_offset_of`, `grid_stride_offsets` |
//! | the header from another crate | its directory, or its text | `DEP_STRIDED_LAYOUT_INCLUDE` in a build script; [`KERNEL_HEADER`](crate::gpu::KERNEL_HEADER) for NVRTC |
//! | a `DLTensor` from `PyTorch`, JAX, `CuPy`, cuda.core | a `Layout` | `DlpackView::from_tensor` then `to_layout` (feature `dlpack`) |
//! | a `Layout` | a `DLTensor` for a consumer | `DlpackView::from_layout` then `to_tensor` |
//! | a `Layout` and a tile shape | `cuTensorMapEncodeTiled` arguments | [`TmaTiled::new`](crate::gpu::TmaTiled::new) |
//!
//! # Packing
//!
//! [`KernelLayout<I, N>`](crate::gpu::KernelLayout) is `#[repr(C)]`, `Copy`, `bytemuck::Pod`
//! (feature `bytemuck`) and `cudarc::driver::DeviceRepr` (feature `cudarc`): pass it by value
//! (`builder.arg(&param)`). Packing checks that `I` holds every extent, every stride that
//! reaches an offset, the offset, the volume and both offset bounds, so 32-bit device math is
//! exact; a layout that does not fit is refused, never wrapped.
//!
//! ```
//! use strided_layout::{Layout, LayoutError, Order};
//! use strided_layout::gpu::KernelLayout;
//! let img = Layout::dense([1080, 1920], 4, Order::C)?.transposed(0, 1)?;
//! let k = KernelLayout::<i32, 2>::from_layout(&img)?;
//! assert_eq!(k.offset_of_linear(1), 1920); // second element of the transposed view
//! let huge = Layout::dense([3000, 3000, 300], 4, Order::C)?;
//! assert_eq!(KernelLayout::<i32, 3>::from_layout(&huge), Err(LayoutError::IndexTypeOverflow));
//! # Ok::<(), LayoutError>(())
//! ```
//!
//! # What exactly is packed
//!
//! `4N + 5` values of `I`, in this order, no padding (asserted on both sides: `offset_of!` in
//! const items in Rust, `static_assert` on `offsetof` in the header):
//!
//! ```text
//! extents[N] strides[N] offset interleave_dimension interleave_factor
//! pitch_multipliers[N] pitch_shifts[N] factor_multiplier factor_shift
//! ```
//!
//! | `N` | 1 | 2 | 3 | 4 | 5 | 6 | 8 |
//! | --- | --- | --- | --- | --- | --- | --- | --- |
//! | `i32` / `u32` (bytes) | 36 | 52 | 68 | 84 | 100 | 116 | 148 |
//! | `i64` / `u64` (bytes) | 72 | 104 | 136 | 168 | 200 | 232 | 296 |
//!
//! ```
//! use strided_layout::gpu::KernelLayout;
//! assert_eq!(size_of::<KernelLayout<i32, 4>>(), 84);
//! assert_eq!(size_of::<KernelLayout<i64, 4>>(), 168);
//! ```
//!
//! Strides on axes of extent 0 or 1 are packed as 0 (they never reach an offset). Factor 1
//! means plain strided.
//!
//! This is the crate's own packing. It is **not** byte-compatible with CCCL's
//! [`cuda::layout_stride_relaxed`](https://nvidia.github.io/cccl/unstable/libcudacxx/extended_api/mdspan/layout_stride_relaxed.html):
//! that mapping's offset type defaults to `ptrdiff_t` whatever the index type (so with `int`
//! extents and strides its offset is 8 bytes where ours is 4), it asserts that the offset and
//! every mapped offset are non-negative, its members are private, and it has no interleave or
//! division constants. The first `2N + 1` values here are what a kernel passes to
//! `cuda::layout_stride_relaxed::mapping<cuda::std::dextents<I, N>, cuda::dstrides<I, N>, I>`
//! to build that mapping on the device (for a layout whose offsets are all non-negative). `CuPy`
//! passes its own `CArray` (data pointer, size, shape, byte strides); nothing here is `CuPy`'s
//! layout either.
//!
//! # The header
//!
//! `include/strided_layout.h` (shipped in the package) is C++17 with no dependencies, so nvcc,
//! NVRTC and host compilers take it as is; under `__CUDACC__` / `__CUDACC_RTC__` every function
//! is `__host__ __device__`. It declares `strided_layout::KernelLayout<I, N>` field for field
//! and does the same math as the Rust methods, modulo `2^bits` in the unsigned type, so the two
//! agree bit for bit on every value (also on out-of-range indices). `tests/header.rs` compiles
//! it with the host C++ compiler and compares 4800 random plain and interleaved layouts (`i32`
//! and `i64`, ranks 1 to 4; 102867 queries of six answers each) with the crate.
//!
//! Under CUDA the header also has the grid-stride loop a copy kernel needs,
//! `grid_stride_offsets(a, b, n, f)`: it calls `f(a_offset, b_offset)` for every position of
//! `0..n` the thread owns, cannot overflow `I` for any `n` the packing accepts (the first
//! position and the step are taken in 64 bits, the step capped at `n`, and a position advances
//! only while `n - t > step`), and runs plain layouts over `as_plain()` copies, whose constant
//! interleave factor removes the interleave tests from the loop:
//!
//! ```text
//! #include "strided_layout.h"
//! extern "C" __global__ void copy2(const float* src, strided_layout::KernelLayout<int, 2> sl,
//!                                  float* dst, strided_layout::KernelLayout<int, 2> dl, int n) {
//!   strided_layout::grid_stride_offsets(dl, sl, n, [&](int d, int s) { dst[d] = src[s]; });
//! }
//! ```
//!
//! A kernel written in Rust does the same with
//! [`KernelLayout::as_plain`](crate::gpu::KernelLayout::as_plain) (`tests/ptx/src/lib.rs` has the
//! grid-stride copy).
//!
//! **Device buffers.** A kernel does no bounds checks: before a launch, check that each device
//! buffer holds its layout's [`required_len()`](crate::Layout::required_len) elements (offsets
//! count elements, so `required_len` is in elements too), and pass the volume as `n`;
//! `examples/gpu_host.rs` does both. The packing already checked that the volume and every
//! offset fit `I`.
//!
//! **From another crate.** The package declares `links = "strided_layout"`, so the build
//! script of a crate that depends on it reads the header's directory from
//! `DEP_STRIDED_LAYOUT_INCLUDE` (`nvcc -I "$DEP_STRIDED_LAYOUT_INCLUDE"`, or `cc::Build::include`);
//! for NVRTC at run time, prefix the kernel's source with [`KERNEL_HEADER`](crate::gpu::KERNEL_HEADER)
//! (a file that also builds with nvcc guards its include with `#ifndef STRIDED_LAYOUT_H`).
//! `tests/downstream` is such a crate: its build script compiles a program with `g++` (and with
//! `nvcc`, device code included, when there is one) and its test compares the offsets with the
//! crate's.

//! # Fast division
//!
//! `offset_of_linear(t)` turns a linear position into an offset without a division
//! instruction: per axis it divides `t` by the axis pitch (the product of the extents after
//! it) with a multiply-high, an add and a shift, using constants computed at packing time
//! ([`KernelIndex::division_magic`](crate::gpu::KernelIndex::division_magic), the Granlund–Montgomery
//! round-up method, exact for every dividend of the type: the proof is in its module, the tests
//! check every divisor up to 2^16 and random ones for `i32`, `u32`, `i64`, `u64`, and every
//! 8-bit pair). Dividing `t` by each pitch directly keeps the divisions independent.
//!
//! ```
//! use strided_layout::LayoutError;
//! use strided_layout::gpu::KernelIndex;
//! let (m, s) = i32::division_magic(1920).ok_or(LayoutError::IndexTypeOverflow)?;
//! assert_eq!(i32::divide_fast(2_073_599, m, s), 2_073_599 / 1920);
//! # Ok::<(), LayoutError>(())
//! ```
//!
//! Per axis the index terms regroup: with `i_k = q_k - e_k·q_{k-1}` (`q_k` the position
//! divided by axis `k`'s pitch), `Σ i_k·s_k = Σ q_k·(s_k - e_{k+1}·s_{k+1})`, so each axis
//! costs one multiply-add by a coefficient that depends on the layout only, which a
//! grid-stride loop computes once.
//!
//! # What it costs on the device
//!
//! Counted from the machine code, with no GPU needed: `bash scripts/gpu-device-check` installs
//! NVIDIA's compilers with pip, compiles `tests/cpp/sass_kernels.cu` (grid-stride copies of
//! `f32` over two layouts through `grid_stride_offsets`, and the same copy dividing by every
//! extent with `/` and `%`), and `scripts/gpu_sass.py` counts the instructions one element
//! takes through each loop in `cuobjdump -sass` (two offsets, a load, a store and the loop
//! itself). `sm_90`, CUDA 13.5:
//!
//! | rank | `int` plain | `int` interleaved | `int` naive | `long long` plain | `long long` naive |
//! | --- | --- | --- | --- | --- | --- |
//! | 1 | 10 | 27 | 41 | 21 | 43 |
//! | 2 | 20 | 46 | 103 | 51 | 94 |
//! | 3 | 24 | 53 | 152 | 81 | 162 |
//! | 4 | **30** | 61 | **205** | 112 | 216 |
//!
//! At rank 4 `int` a plain layout costs 0.15 of the naive loop's instructions per element. The
//! `long long` naive count is its best case (the 32-bit fast path of the 64-bit division,
//! which skips the division subroutine), so the 64-bit ratios (about 0.5) understate the gain.
//! The same copy written in Rust (`tests/ptx`, assembled by `ptxas`) takes 38 per element at
//! rank 4 `i32`. Every kernel keeps the layouts in registers: CI refuses any spill or
//! local-memory use on `sm_75`, `sm_80`, `sm_90` and `sm_100`, and any count above
//! `scripts/gpu_sass.expected`. (Before the interleave test left the per-axis arrays' dynamic
//! indexing, the copy kernel copied both layouts to a 168-byte local-memory frame at rank 4.)

//! # Nested layouts: several blocked modes
//!
//! [`KernelLayout`](crate::gpu::KernelLayout) blocks one axis once. A nested layout (CuTe's
//! tiled modes; oneDNN's `OIhw16i16o`, blocked on two axes, or `OIhw4i16o4i`, `i` blocked
//! twice; a partial last block on any mode) packs into
//! [`KernelNestedLayout<I, N, B>`](crate::gpu::KernelNestedLayout): `N` top-level modes of at
//! most `B` leaves each, `3 + 3N + 5NB` values of `I`. Its first word is
//! [`ABI_VERSION`](crate::gpu::ABI_VERSION) (the header's `STRIDED_LAYOUT_ABI_VERSION`), so a
//! kernel built against another header can refuse the parameter (`is_current()`). Each leaf
//! carries its pitch's division constants and a *weight* (`s_b - e_{b-1}·s_{b-1}`), so a
//! coordinate's digits `(c / p_b) % e_b` regroup into one multiply-high and one multiply-add
//! per leaf; the first leaf of every mode needs no division, and the 1-D form regroups the
//! modes as `KernelLayout` regroups axes.
//!
//! ```
//! use strided_layout::gpu::KernelNestedLayout;
//! use strided_layout::nested::NestedLayout;
//! // A reorder kernel's two parameters: planar weights and oneDNN's OIhw16i16o, 40 x 24 x 3 x 3
//! // (O padded to 48, I to 32: partial last blocks on both blocked axes).
//! let dims = [40, 24, 3, 3];
//! let oihw = NestedLayout::<8>::onednn("oihw", &dims, 4)?;
//! let blocked = NestedLayout::<8>::onednn("OIhw16i16o", &dims, 4)?;
//! let src = KernelNestedLayout::<i32, 4, 1>::from_nested(&oihw)?; // plain: one leaf a mode
//! let dst = KernelNestedLayout::<i32, 4, 2>::from_nested(&blocked)?;
//! let t = 1000; // a grid-stride position, the first mode fastest
//! assert_eq!(src.offset_of_linear(t) as isize, oihw.offset_of_linear(1000)?);
//! assert_eq!(dst.offset_of_linear(t) as isize, blocked.offset_of_linear(1000)?);
//! assert_eq!(dst.size(), 40 * 24 * 9); // pass it as the loop's n
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! In C++ the header declares `KernelNestedLayout<I, N, B>` field for field, and
//! `grid_stride_offsets` takes two of them (their `B` may differ):
//!
//! ```text
//! extern "C" __global__ void reorder(const float* src,
//!                                    strided_layout::KernelNestedLayout<int, 4, 1> sl,
//!                                    float* dst,
//!                                    strided_layout::KernelNestedLayout<int, 4, 2> dl, int n) {
//!   if (!dl.is_current()) return;  // packed by another version of the crate
//!   strided_layout::grid_stride_offsets(dl, sl, n, [&](int d, int s) { dst[d] = src[s]; });
//! }
//! ```
//!
//! `tests/header.rs` compares the header with the crate on every layout of the CuTe corpus
//! and every oneDNN format of rank 1 to 4 that packs (9,901 in `i32` and in `i64`, 12 queries
//! each); `tests/kernel_nested.rs` compares the Rust side with [`NestedLayout`](crate::nested::NestedLayout)
//! on every coordinate of those and of every small nested layout. `scripts/gpu-device-check`
//! compiles the nested copies (`nested_int_4_B` in `tests/cpp/sass_kernels.cu`, `B` = 1 to 3,
//! and a Rust one in `tests/ptx`) for every architecture CI names, refuses any spill or
//! local-memory use, and holds their instructions per element to `scripts/gpu_sass.expected`
//! (README has the figures).
//!
//! # DLPack (feature `dlpack`)
//!
//! `#[repr(C)]` `DLTensor`, `DLDevice` and `DLDataType` match `dlpack.h` (v0.8 / 1.x).
//! `DlpackView` is the checked, borrowed middle: strides in elements
//! (`None` = C-contiguous), `byte_offset` a multiple of the itemsize, itemsize
//! `bits * lanes / 8` (a power of two). Conversions write into caller buffers: no allocation.
//! Reading a raw `DLTensor` is the one `unsafe fn`
//! (`DlpackView::from_tensor`, with a `# Safety` section; it runs under Miri in
//! `tests/dlpack.rs`); everything else is safe. These items exist with the `dlpack` feature.
//!
//! # TMA
//!
//! [`TmaTiled::new`](crate::gpu::TmaTiled::new) gives the arguments of `cuTensorMapEncodeTiled`
//! (innermost dimension first, strides in bytes for dimensions 1..) or names the rule a layout
//! breaks (rank 1..=5, stride 1 innermost, strides positive multiples of 16 bytes below 2^40,
//! dimensions 1..=2^32, a 16-byte aligned address, box sizes 1..=256 with a 16-byte-multiple
//! inner row within the swizzle span, element strides 1..=8). Flipped or permuted layouts:
//! flip or permute back first and mirror or swap the tile coordinates in the kernel.
//!
//! ```
//! use strided_layout::{Layout, Order};
//! use strided_layout::gpu::{TmaSwizzle, TmaTiled};
//! let l = Layout::dense([4096, 4096], 2, Order::C)?;
//! let t = TmaTiled::new(&l, 0, [64, 64], [1, 1], TmaSwizzle::B128)?;
//! assert_eq!((t.global_dim(), t.global_strides()), (&[4096, 4096][..], &[8192][..]));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Running on a GPU
//!
//! `cargo run --example gpu_host --features cudarc,dlpack` takes a DLPack tensor to a kernel
//! launch (NVRTC compiles `tests/cpp/strided_copy.cu` after [`KERNEL_HEADER`](crate::gpu::KERNEL_HEADER)). The GPU
//! test compares transposed, permuted, flipped and interleaved copies with the host
//! [`copy`](crate::copy) and prints bandwidth as a fraction of a device-to-device copy:
//!
//! ```text
//! cargo test --release --features cudarc --test gpu -- --ignored --nocapture
//! ```
//!
//! It is `#[ignore]`d (no GPU in CI) and prints `SKIP` without a device. On a GPU machine,
//! `bash scripts/gpu-check` runs both (the example, then the test) and fails if either could
//! not reach the device. On a GPU machine without a Rust toolchain, build the two programs on an
//! x86-64 host with `bash scripts/gpu-check --build DIR`, take `DIR` and the repository there,
//! and run `bash scripts/gpu-check --run DIR`.
