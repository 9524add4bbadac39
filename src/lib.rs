#![doc = include_str!("../README.md")]
#![no_std]
// docs.rs (nightly, `--cfg docsrs`): mark items that need a feature.
#![cfg_attr(docsrs, feature(doc_cfg))]
// `unsafe` is allowed, with `#[expect(unsafe_code)]` and a reason, only on the kernel modules
// that touch memory or intrinsics (`kernel/mod.rs` lists them), on `DlpackView::from_tensor`
// (reads a raw `DLTensor`) and on the `unsafe impl`s of the bytemuck and cudarc features.
#![deny(unsafe_code)]
#![deny(
    missing_docs,
    rustdoc::broken_intra_doc_links,
    rustdoc::private_intra_doc_links
)]
#![deny(
    clippy::panic,
    clippy::unwrap_used,
    clippy::expect_used,
    clippy::indexing_slicing,
    clippy::unreachable,
    clippy::todo,
    clippy::unimplemented,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_wrap,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::missing_errors_doc,
    clippy::missing_panics_doc,
    clippy::must_use_candidate,
    clippy::std_instead_of_core,
    clippy::alloc_instead_of_core,
    clippy::undocumented_unsafe_blocks
)]
#![warn(clippy::pedantic)]
#![cfg_attr(
    test,
    expect(
        clippy::unwrap_used,
        clippy::indexing_slicing,
        clippy::arithmetic_side_effects,
        reason = "unit tests may panic: a panic is a failed test"
    )
)]

#[cfg(test)]
extern crate std; // unit tests only: the library itself is no_std, no alloc
#[cfg(all(feature = "rayon", not(test)))]
extern crate std; // the `rayon` feature: rayon's thread pool needs `std`

// Reading order: the value type, its queries, same-rank transforms, rank changes, then
// display and compile-time helpers. rustdoc shows `impl` blocks in this order, so
// rustfmt.toml keeps it (`reorder_modules = false`).
mod error;
mod axis_mask;
mod order;
mod slice;
mod layout;
mod verdict;
mod query;
mod transform;
pub mod rank;
mod dyn_layout;
mod iter;
mod interleave;
mod elements;
mod fmt;
mod const_util;
mod index;
mod algo;
mod kernel;
#[cfg(doctest)]
mod compile_fail;
pub mod doc;
mod param;
#[cfg(feature = "ndarray")]
mod ndarray;
#[cfg(feature = "dlpack")]
mod dlpack;
mod tma;

#[cfg(feature = "ndarray")]
pub use crate::ndarray::copy_view;
pub use axis_mask::AxisMask;
pub use const_util::const_unwrap;
#[cfg(feature = "dlpack")]
pub use dlpack::{DLDataType, DLDevice, DLTensor, DlpackView};
pub use dyn_layout::DynLayout;
pub use error::{LayoutError, Operand};
pub use fmt::Grid;
pub use index::{AxisArg, AxisArgs, IntoAxisArg};
pub use interleave::{InterleaveLayout, InterleavedLayout};
pub use iter::{Block, Indices, Offsets, StridedBlocks};
pub use kernel::{
    CopyPart, CopyParts, CopyPlan, CopyWithinPlan, FillPlan, Loop, Lowered, MAX_LOOPS, MAX_NESTS,
    Mapping, Nest, Plan, ZipMapPlan, copy, copy_uninit, copy_within, fill, fold, map, zip_map,
};
#[cfg(feature = "rayon")]
pub use kernel::{PAR_BYTES, par_copy, par_fill, par_map, par_zip_map};
pub use layout::Layout;
pub use order::Order;
pub use param::{KERNEL_HEADER, KernelIndex, KernelLayout};
pub use slice::Slice;
pub use tma::{TmaSwizzle, TmaTiled};
pub use verdict::Verdict;
