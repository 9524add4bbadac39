//! Build script: nothing the language cannot express.
//!
//! The crate reads no custom `cfg` and generates no code (its two per-target constants are
//! `cfg!`-selected in `src/kernel/plan.rs`), so this script only tells Cargo it never needs to
//! re-run. It stays so that a later compiler-version probe (for instance AVX-512 intrinsics,
//! stable from Rust 1.89, while the MSRV is lower) has its place.

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
}
