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
pub mod iter;
mod interleave;
pub mod nested;
pub mod algebra;
mod elements;
mod fmt;
mod const_util;
pub mod index;
mod algo;
mod kernel;
#[cfg(doctest)]
mod compile_fail;
pub mod doc;
mod param;
#[cfg(feature = "ndarray")]
pub mod ndarray;
#[cfg(feature = "dlpack")]
pub mod dlpack;
mod tma;
pub mod dma;

// The everyday names: layout types, their arguments and answers, the kernels and prepared
// plans, the error. The rest is grouped by who uses it (the modules below and `rank`,
// `iter`, `index`, `dlpack`, `ndarray`, `doc`).
pub use axis_mask::AxisMask;
pub use const_util::const_unwrap;
pub use dyn_layout::DynLayout;
pub use error::{LayoutError, Operand};
pub use fmt::Grid;
pub use interleave::{InterleaveLayout, InterleavedLayout};
pub use kernel::{
    CopyPlan, CopyWithinPlan, FillPlan, ZipMapPlan, copy, copy_uninit, copy_within, fill, fold,
    map, zip_map,
};
#[cfg(feature = "rayon")]
pub use kernel::{PAR_BYTES, par_copy, par_fill, par_map, par_zip_map};
pub use layout::Layout;
pub use order::Order;
pub use slice::Slice;
pub use verdict::Verdict;

// The crate's own code names these from the root.
pub(crate) use kernel::{Lowered, Mapping};

pub mod plan {
    //! The copy planner's vocabulary: what the kernels see of a layout, and the plan they run.
    //!
    //! Everyday code never names these: [`copy`](crate::copy), [`fill`](crate::fill) and the prepared plans
    //! ([`CopyPlan`](crate::CopyPlan), ...) lower their operands, plan and validate by themselves. They are for
    //! code that goes further:
    //!
    //! | you want to | use |
    //! | --- | --- |
    //! | make your own layout type a kernel operand | implement [`Mapping`] (its [`Lowered`] form) |
    //! | look at a plan: its nests, loops, tiles and offset bounds | [`Plan`], [`Nest`], [`Loop`] |
    //! | split a copy across threads or tasks yourself | [`Plan::part`], [`CopyPlan::parts`](crate::CopyPlan::parts) ([`CopyParts`], [`CopyPart`]) |
    //! | size storage for a plan | [`MAX_LOOPS`], [`MAX_NESTS`] |
    //!
    //! # Examples
    //!
    //! ```
    //! use strided_layout::plan::{Mapping, Plan};
    //! use strided_layout::{Layout, LayoutError, Order};
    //! let src = Layout::dense([4, 8], 4, Order::C)?;
    //! let dst = src.transposed(0, 1)?.to_dense(Order::C)?.transposed(0, 1)?;
    //! let plan = Plan::<2>::new(&[dst.lowered(), src.lowered()])?;
    //! assert_eq!(plan.volume(), 32);
    //! # Ok::<(), LayoutError>(())
    //! ```

    pub use crate::kernel::{
        Blocks, CopyPart, CopyParts, Level, Loop, Lowered, MAX_LEVELS, MAX_LOOPS, MAX_NESTS,
        MAX_PIECES, Mapping, Nest, Plan,
    };
}

pub mod gpu {
    //! GPU kernels: the layout as a kernel parameter, the C++ / CUDA header that reads it, and
    //! Hopper's tensor-memory-accelerator descriptors.
    //!
    //! | item | what |
    //! | --- | --- |
    //! | [`KernelLayout`] | a layout packed for a kernel, with its index type `I` (`i32`, `u32`, `i64`, ...) and fast division; `#[repr(C)]`, `const` constructors |
    //! | [`KernelNestedLayout`] | a nested layout packed for a kernel: several blocked modes, an axis blocked twice, partial last blocks (oneDNN's formats, CuTe's tiles), one fast division per leaf; its first word is [`ABI_VERSION`] |
    //! | [`KernelIndex`] | the index types a [`KernelLayout`] packs into |
    //! | [`KERNEL_HEADER`] | the text of `include/strided_layout.h`, for NVRTC (a build script reads its directory as `DEP_STRIDED_LAYOUT_INCLUDE`) |
    //! | [`TmaTiled`], [`TmaSwizzle`], [`TmaError`] | the fields of a `cuTensorMapEncodeTiled` call for a layout, checked against the hardware's rules, or the rule it breaks |
    //!
    //! The [GPU guide](crate::doc::gpu) walks a kernel launch from a DLPack tensor.
    //!
    //! # Examples
    //!
    //! ```
    //! use strided_layout::gpu::KernelLayout;
    //! use strided_layout::{Layout, LayoutError, Order};
    //! let l = Layout::dense([4, 8], 4, Order::C)?.transposed(0, 1)?;
    //! let k = KernelLayout::<i32, 2>::from_layout(&l)?;
    //! assert_eq!(k.offset_of([1, 2]), 17); // row 2, column 1 of the 4 × 8 buffer: 2 · 8 + 1
    //! # Ok::<(), LayoutError>(())
    //! ```

    pub use crate::param::{
        ABI_VERSION, KERNEL_HEADER, KernelIndex, KernelLayout, KernelNestedLayout,
    };
    pub use crate::tma::{TmaError, TmaSwizzle, TmaTiled};
}
