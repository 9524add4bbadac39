//! Build script: tells dependents where the C++ header is.
//!
//! The package declares `links = "strided_layout"`, so what this script prints as
//! `cargo::metadata=include=...` reaches the build script of every crate that depends on
//! this one directly, as the environment variable `DEP_STRIDED_LAYOUT_INCLUDE`: the
//! directory holding `strided_layout.h`, for a dependent that compiles CUDA or C++ against it
//! (`nvcc -I "$DEP_STRIDED_LAYOUT_INCLUDE"`). For NVRTC at run time the header's text is also
//! a constant, [`KERNEL_HEADER`](https://docs.rs/strided-layout/latest/strided_layout/constant.KERNEL_HEADER.html).
//!
//! The crate reads no custom `cfg` and generates no code (its per-target constants are
//! `cfg!`-selected in `src/kernel/plan.rs`).

use std::path::Path;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    let manifest = std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default();
    let include = Path::new(&manifest).join("include");
    println!("cargo::metadata=include={}", include.display());
}
