//! Guides: documentation modules with no code, read in this order.
//!
//! | guide | what it answers |
//! | --- | --- |
//! | [`semantics`] | what every query and transform does on the edge cases: extent 0, extent 1 with any stride, stride 0, negative strides, overlap, empty layouts, rank 0 |
//! | [`cuda_core`] | how each name maps to NVIDIA cuda.core's `StridedLayout`, and where this crate deliberately differs |
//! | [`compile_time`] | checking layouts at compile time: `const` items, `const_unwrap`, `const_layout!`, `const _: () = assert!(..)`, and the ranks the compiler rejects |
//! | [`cute`] | CuTe's `shape:stride` notation, how `Display` prints a layout, and CuTe's names for our operations |
//! | [`firmware`] | `no_std` targets, a DMA buffer checked at compile time, the firmware example and its code size |
//! | [`benchmarks`] | what transforms, iteration and the kernels cost, against `copy_from_slice`, a naive loop and ndarray |
//! | [`fuzzing`] | the `cargo fuzz` targets, how to run them, what they found |
//! | [`semver`] | which types may grow (`#[non_exhaustive]`) and why the others do not, public dependencies, MSRV |
//! | [`related`] | how cuda.core's, CuTe's, `std::mdspan`'s, ndarray's and burn's names map to ours |
//! | [`algebra`] | CuTe's layout algebra, walked through a GEMM's tiling: block tile, thread partition, swizzled shared-memory tile |
//! | [`gpu`] | GPU hosts: `KernelLayout` and what it packs, `include/strided_layout.h`, fast division, DLPack, TMA descriptors, the GPU test |
//!
//! These modules contain no items; they exist so the guides live next to the API in
//! rustdoc and their examples build with the crate.

pub mod semantics;
pub mod cuda_core;
pub mod compile_time;
pub mod cute;
pub mod firmware;
pub mod benchmarks;
pub mod fuzzing;
pub mod semver;
pub mod related;
pub mod gpu;
pub mod algebra;
