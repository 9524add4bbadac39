//! Compiles `cpp/offsets.cu` against the header the dependency exposes, as a user's build
//! script would: the include directory comes from `DEP_STRIDED_LAYOUT_INCLUDE`, which Cargo sets
//! from strided-layout's `links` metadata.
//!
//! - with `$CXX` (else `g++`) as C++17 (without a compiler the test says SKIP);
//! - with `nvcc` (`$NVCC`, else `nvcc` on PATH), when there is one: the device code for `sm_90`
//!   and the host program, whose offsets the test checks as well. Without it the test says so.

use std::env;
use std::path::{Path, PathBuf};
use std::process::Command;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=cpp/offsets.cu");
    println!("cargo::rerun-if-env-changed=NVCC");
    println!("cargo::rerun-if-env-changed=CXX");
    let include = PathBuf::from(
        env::var_os("DEP_STRIDED_LAYOUT_INCLUDE")
            .expect("strided-layout's `links` metadata sets DEP_STRIDED_LAYOUT_INCLUDE"),
    );
    let out = PathBuf::from(env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    let source = Path::new("cpp/offsets.cu");
    println!(
        "cargo::rerun-if-changed={}",
        include.join("strided_layout.h").display()
    );
    println!("cargo::rustc-env=DOWNSTREAM_INCLUDE={}", include.display());

    let cxx = env::var("CXX").unwrap_or_else(|_| "g++".into());
    let host = out.join("offsets_cxx");
    // No C++ compiler: the test says SKIP (as tests/header.rs does). One that fails on the
    // header fails the build.
    let path = match Command::new(&cxx)
        .args([
            "-std=c++17",
            "-O2",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-x",
            "c++",
        ])
        .arg(source)
        .arg("-I")
        .arg(&include)
        .arg("-o")
        .arg(&host)
        .status()
    {
        Ok(status) => {
            assert!(
                status.success(),
                "{cxx} could not compile {}",
                source.display()
            );
            host.display().to_string()
        }
        Err(_) => String::new(),
    };
    println!("cargo::rustc-env=DOWNSTREAM_OFFSETS_CXX={path}");

    let nvcc = env::var("NVCC").unwrap_or_else(|_| "nvcc".into());
    let device = out.join("offsets_nvcc");
    let built = Command::new(&nvcc)
        .args([
            "-std=c++17",
            "-O2",
            "-arch=sm_90",
            "-Werror",
            "all-warnings",
        ])
        .arg(source)
        .arg("-I")
        .arg(&include)
        .arg("-o")
        .arg(&device)
        .status()
        .is_ok_and(|s| s.success());
    let path = if built {
        device.display().to_string()
    } else {
        String::new()
    };
    println!("cargo::rustc-env=DOWNSTREAM_OFFSETS_NVCC={path}");
}
