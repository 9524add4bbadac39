//! Firmware: `const` layouts, compile-time checks, copies on static buffers, code size.
//!
//! | topic | where |
//! | --- | --- |
//! | what the library needs from a target | [Targets](#targets) |
//! | a DMA buffer checked at compile time | [Compile-time checks](#compile-time-checks) |
//! | the firmware example and its `.text` | [The firmware example](#the-firmware-example) |
//!
//! # Targets
//!
//! The library is `#![no_std]` with no `alloc` and no panic path, and layouts are `const`:
//! build them in `const` items, assert their properties at compile time, and nothing runs at
//! start-up. `defmt` logging is behind the `defmt` feature (every public type implements
//! `defmt::Format`). CI builds the library for `thumbv6m-none-eabi`, `thumbv7em-none-eabihf`
//! and `riscv32imac-unknown-none-elf`, and runs the library tests and the index-type tests
//! under Miri on `i686-unknown-linux-gnu`, so arithmetic at the edge of a 32-bit `usize` is
//! exercised.
//!
//! # Compile-time checks
//!
//! A DMA engine that moves one contiguous run needs a C-contiguous buffer of a known size.
//! Build the layout in a `const` item and assert it with a plain `const _: () = assert!(..)`:
//! no dependency, and a failing check prints your message at your line (where
//! `static_assertions::const_assert!` prints "attempt to compute `0_usize - 1_usize`, which
//! would overflow"):
//!
//! ```
//! use strided_layout::{const_unwrap, InterleaveLayout, InterleavedLayout, Layout, Order};
//!
//! /// A stereo `i16` DMA frame: 2 channels x 64 frames, interleaved L R L R.
//! const FRAME: InterleavedLayout<2> = const_unwrap(InterleavedLayout::dense_of::<i16>(
//!     [2, 64],
//!     const_unwrap(InterleaveLayout::new(0, 2)),
//! ));
//! const _: () = assert!(FRAME.is_dense(), "the DMA frame must have no gaps");
//! const _: () = assert!(
//!     matches!(FRAME.required_len(), Ok(128)),
//!     "the DMA frame holds 2 x 64 samples"
//! );
//!
//! /// The planar buffer the DSP code works on.
//! const PLANAR: Layout<2> = const_unwrap(Layout::dense_of::<i16>([2, 64], Order::C));
//! const _: () = assert!(PLANAR.is_contiguous_c(), "the DSP buffer is planar, C order");
//! ```
//!
//! A check that fails stops the build with the message:
//!
//! ```text
//! error[E0080]: evaluation panicked: the DMA frame must have no gaps
//!   --> src/main.rs:9:15
//! ```
//!
//! The compile-time guide, [`doc::compile_time`](super::compile_time), lists the tools (`const_unwrap`,
//! `const_layout!`) and the limits of the rank checks.
//!
//! # The firmware example
//!
//! The repository's `firmware/example` (not part of the published package) is a Cortex-M4F
//! program (`thumbv7em-none-eabihf`, release, `opt-level = "s"`, LTO): `const` layouts checked
//! with `const _: () = assert!(..)`, then CHW → HWC of a 3×8×8 `u8` image into an
//! [`InterleavedLayout`](crate::InterleavedLayout), a strided crop gathered densely and a 4×6
//! `f32` transpose, all with [`copy()`](crate::copy) on static buffers. It links with a panic
//! handler that calls a symbol defined nowhere, so the link fails if any panic path survives
//! optimisation. Its `.text` is **42.9 KB**, almost all of it the library
//! (`bash firmware/example/run` prints the figure against a baseline build without the library
//! calls; CI prints it on every run). About 24 KB of that is the exact uniqueness search the
//! kernels' destination check falls back to (`i128` arithmetic on a 32-bit core); a dense or
//! sliced destination never runs it, but it is linked in.
//!
//! The link check, `firmware/panic-check`, is the same idea applied to every public function:
//! a `no_main` program that calls each with inputs read through `read_volatile`, built for
//! `thumbv7em-none-eabihf` and `riscv32imac-unknown-none-elf` at `opt-level` `s` and `3` with
//! LTO.
