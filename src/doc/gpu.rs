//! GPU hosts: packing a layout for a kernel, the C++ header, fast division, DLPack and TMA.
//!
//! | you have | you want | call |
//! | --- | --- | --- |
//! | a [`Layout<N>`](crate::Layout) / [`InterleavedLayout<N>`](crate::InterleavedLayout) | a kernel parameter | [`KernelLayout::<i32, N>::from_layout`](crate::KernelLayout::from_layout) / [`from_interleaved`](crate::KernelLayout::from_interleaved) |
//! | a `KernelLayout` in a CUDA C++ kernel | its offsets | `#include "strided_layout.h"`: `offset_of`, `offset_of_linear`, `checked_offset_of` |
//! | a `DLTensor` from `PyTorch`, JAX, `CuPy`, cuda.core | a `Layout` | `DlpackView::from_tensor` then `to_layout` (feature `dlpack`) |
//! | a `Layout` | a `DLTensor` for a consumer | `DlpackView::from_layout` then `to_tensor` |
//! | a `Layout` and a tile shape | `cuTensorMapEncodeTiled` arguments | [`TmaTiled::new`](crate::TmaTiled::new) |
//!
//! # Packing
//!
//! [`KernelLayout<I, N>`](crate::KernelLayout) is `#[repr(C)]`, `Copy`, `bytemuck::Pod`
//! (feature `bytemuck`) and `cudarc::driver::DeviceRepr` (feature `cudarc`): pass it by value
//! (`builder.arg(&param)`). Packing checks that `I` holds every extent, every stride that
//! reaches an offset, the offset, the volume and both offset bounds, so 32-bit device math is
//! exact; a layout that does not fit is refused, never wrapped.
//!
//! ```
//! use strided_layout::{KernelLayout, Layout, LayoutError, Order};
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
//! use strided_layout::KernelLayout;
//! assert_eq!(size_of::<KernelLayout<i32, 4>>(), 84);
//! assert_eq!(size_of::<KernelLayout<i64, 4>>(), 168);
//! ```
//!
//! Strides on axes of extent 0 or 1 are packed as 0 (they never reach an offset). Factor 1
//! means plain strided. The first `2N + 3` values are the earlier packing of this type.
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
//! and `i64`, ranks 1 to 4; 102867 queries of four answers each) with the crate.
//!
//! ```text
//! #include "strided_layout.h"
//! extern "C" __global__ void copy2(const float* src, strided_layout::KernelLayout<int, 2> sl,
//!                                  float* dst, strided_layout::KernelLayout<int, 2> dl, int n) {
//!   for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < n; t += blockDim.x * gridDim.x)
//!     dst[dl.offset_of_linear(t)] = src[sl.offset_of_linear(t)];
//! }
//! ```
//!
//! # Fast division
//!
//! `offset_of_linear(t)` turns a linear position into an offset without a division
//! instruction: per axis it divides `t` by the axis pitch (the product of the extents after
//! it) with a multiply-high, an add and a shift, using constants computed at packing time
//! ([`KernelIndex::division_magic`](crate::KernelIndex::division_magic), the Granlund–Montgomery
//! round-up method, exact for every dividend of the type: the proof is in its module, the tests
//! check every divisor up to 2^16 and random ones for `i32`, `u32`, `i64`, `u64`, and every
//! 8-bit pair). Dividing `t` by each pitch directly keeps the divisions independent.
//!
//! ```
//! use strided_layout::{KernelIndex, LayoutError};
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
//! Measured (`cargo bench -p strided-layout-bench --bench kernel_param`, rank 4, 460800
//! positions of a permuted `[16, 24, 40, 30]` layout, on a shared 2-core x86-64 host):
//! `i32` `offset_of_linear` 0.88 and 0.90 ms against 3.57 and 3.53 ms for the naive loop of
//! hardware divisions, **4.1x and 3.9x** in two runs (before the regrouping: 2.6x to 3.1x);
//! `i64` 2.4x and 2.6x (a 64-bit `div` is fast here). The division-free form matters most
//! on a GPU, below.
//!
//! On `nvptx64-nvidia-cuda` (the probe crate `tests/ptx`: `cd tests/ptx && cargo +nightly rustc
//! --release -Zbuild-std=core --target nvptx64-nvidia-cuda -- --emit asm`), `offset_of_linear`
//! at rank 4 `i32` is straight-line code with no `div` or `rem`: 46 instructions per call
//! on the plain path, of which 22 arithmetic (3 `mul.hi.u32`, 3 `add`, 3 `shr`, 4 `mad`, and 9
//! that depend on the layout only: 3 `mul.lo`, 3 `sub`, 3 `and`), 18 loads of the parameter,
//! and 4 for the uniform interleave test (`setp`, `or`, `bra`) and return. In a grid-stride
//! loop the loads and the 9 layout-only operations are loop-invariant, leaving **13
//! arithmetic instructions per position**. The naive loop it replaces has 3 `div.s32` and a
//! `rem.s32` (each an emulated sequence of about 20 SASS instructions) and divide-by-zero
//! traps.
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
//! [`TmaTiled::new`](crate::TmaTiled::new) gives the arguments of `cuTensorMapEncodeTiled`
//! (innermost dimension first, strides in bytes for dimensions 1..) or names the rule a layout
//! breaks (rank 1..=5, stride 1 innermost, strides positive multiples of 16 bytes below 2^40,
//! dimensions 1..=2^32, a 16-byte aligned address, box sizes 1..=256 with a 16-byte-multiple
//! inner row within the swizzle span, element strides 1..=8). Flipped or permuted layouts:
//! flip or permute back first and mirror or swap the tile coordinates in the kernel.
//!
//! ```
//! use strided_layout::{Layout, LayoutError, Order, TmaSwizzle, TmaTiled};
//! let l = Layout::dense([4096, 4096], 2, Order::C)?;
//! let t = TmaTiled::new(&l, 0, [64, 64], [1, 1], TmaSwizzle::B128)?;
//! assert_eq!((t.global_dim(), t.global_strides()), (&[4096, 4096][..], &[8192][..]));
//! # Ok::<(), LayoutError>(())
//! ```
//!
//! # Running on a GPU
//!
//! `cargo run --example gpu_host --features cudarc,dlpack` takes a DLPack tensor to a kernel
//! launch (NVRTC compiles `tests/cpp/strided_copy.cu`, which includes the header). The GPU
//! test compares transposed, permuted, flipped and interleaved copies with the host
//! [`copy`](crate::copy) and prints bandwidth as a fraction of a device-to-device copy:
//!
//! ```text
//! cargo test --release --features cudarc --test gpu -- --ignored --nocapture
//! ```
//!
//! It is `#[ignore]`d (no GPU in CI) and prints `SKIP` without a device.
