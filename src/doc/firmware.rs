//! Firmware: `const` layouts, compile-time checks, copies on static buffers, code size.
//!
//! | topic | where |
//! | --- | --- |
//! | what the library needs from a target | [Targets](#targets) |
//! | a DMA buffer checked at compile time | [Compile-time checks](#compile-time-checks) |
//! | copies planned and validated by the compiler | [Const plans](#const-plans) |
//! | the firmware example and its flash | [The firmware example](#the-firmware-example) |
//! | the audio example: flash, instructions and stack against hand loops | [The audio example](#the-audio-example) |
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
//! On these targets the run-time [`copy()`](crate::copy()) does not tile a large block (on
//! hosts it does, for the caches): most microcontrollers have no data cache, and the tile
//! driver would cost every firmware that calls `copy()` flash. A core with a data cache
//! (Cortex-M7) that transposes blocks larger than its cache can prepare the copy instead: a
//! [`CopyPlan`](crate::CopyPlan) keeps its planner's tiles.
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
//! # Const plans
//!
//! A copy whose layouts are known when the program is written is planned and validated when it
//! is compiled: [`CopyPlan::new`](crate::CopyPlan::new) is a `const fn`. The program then links
//! only the loops (no planner, no uniqueness search), and each run checks the two slices'
//! lengths and the element size, then moves the data:
//!
//! ```
//! use strided_layout::{const_unwrap, CopyPlan, Layout, LayoutError, Order};
//!
//! const PLANAR: Layout<2> = const_unwrap(Layout::dense_of::<i16>([2, 64], Order::C));
//! const FRAMES: Layout<2> = const_unwrap(Layout::dense_of::<i16>([2, 64], Order::F));
//! /// Planar -> interleaved stereo, planned and validated at compile time.
//! const INTERLEAVE: CopyPlan = const_unwrap(CopyPlan::new(&PLANAR, &FRAMES));
//! const _: () = assert!(INTERLEAVE.dst_len() == 128, "one DMA frame");
//!
//! fn on_dma_half_complete(planar: &[i16], dma: &mut [i16]) -> Result<(), LayoutError> {
//!     INTERLEAVE.run(planar, dma)
//! }
//! # let mut dma = [0i16; 128];
//! # on_dma_half_complete(&[1; 128], &mut dma)?;
//! # assert_eq!(dma, [1; 128]);
//! # Ok::<(), LayoutError>(())
//! ```
//!
//! Interleaved layouts plan through [`CopyPlan::from_lowered`](crate::CopyPlan::from_lowered)
//! and [`InterleavedLayout::lowered`](crate::InterleavedLayout::lowered), both `const`.
//! [`CopyWithinPlan`](crate::CopyWithinPlan), [`FillPlan`](crate::FillPlan) and
//! [`ZipMapPlan`](crate::ZipMapPlan) do the same for `copy_within`, `fill` and `zip_map`, and
//! [`CopyPlan::run_map`](crate::CopyPlan::run_map) for `map`.
//!
//! # The firmware example
//!
//! The repository's `firmware/example` (not part of the published package) is a Cortex-M4F
//! program (`thumbv7em-none-eabihf`, release, `opt-level = "s"`, LTO): `const` layouts and
//! `const` [`CopyPlan`](crate::CopyPlan)s checked with `const _: () = assert!(..)`, then
//! CHW → HWC of a 3×8×8 `u8` image into an [`InterleavedLayout`](crate::InterleavedLayout), a
//! strided crop gathered densely and a 4×6 `f32` transpose, on static buffers. It links with a
//! panic handler that calls a symbol defined nowhere, so the link fails if any panic path
//! survives optimisation. `bash firmware/example/run` prints its flash (`.text + .rodata +
//! .data`); CI prints it on every run, and the
//! [benchmarks guide](crate::doc::benchmarks#firmware-cortex-m4f) records it.
//!
//! # The audio example
//!
//! `firmware/audio` converts stereo (2 × 64 frames of `i16`) and 5.1 (6 channels in 64-frame
//! DMA blocks) from planar to interleaved, built three ways: `const` plans, the run-time
//! [`copy()`](crate::copy) of the same buffers, and loops written by hand. `bash
//! firmware/audio/run` (CI runs it) prints each build's flash (`.text + .rodata + .data`), the
//! instructions per 64-frame copy counted by `qemu-arm` executing the real ELF, and the largest
//! stack frames; the [benchmarks guide](crate::doc::benchmarks#firmware-cortex-m4f) has the
//! table. What makes the figures what they are:
//!
//! - **A `const` plan costs no stored plan.** A plan is constant data (room for every nest
//!   and loop it may hold), but on bare metal `run` and its checks are inlined into the
//!   caller, so the compiler reads the plan while compiling: the element sizes, the two
//!   lengths and the block's loops become immediates, the routes the plan does not take fold
//!   away, and no plan is stored. What runs is two length comparisons and the block kernel's
//!   call with its loops in registers; its inner loops move two rows of a block per pass,
//!   four instructions a sample, as hand loops do.
//! - **No `memcpy`, no `memclr`.** On bare metal the loops link neither: contiguous rows move
//!   in 4-byte words through the same pair loop, and the loop counters count down from the
//!   extents instead of clearing arrays, so a plan that never copies contiguous rows does not
//!   pay `compiler_builtins`' `memcpy` and `memclr` for them.
//! - **A run-time `copy()` of rank 2 or less plans small.** Over [`Layout`](crate::Layout)s of
//!   rank 2 or less (no operand interleaved, which the compiler sees) it plans without a
//!   [`Plan`](crate::plan::Plan): a planner written for two operands and two axes builds the one nest
//!   of at most two loops (the nest the general planner builds, checked against it on every
//!   small rank-2 pair), the bounds and the two-loop uniqueness test (a gcd test, exact) check
//!   it, and the block runs. It links neither the general planner, nor the planner of operands
//!   interleaved differently, nor the overlap search between nests, nor the exact uniqueness
//!   search; its stack is its own frame (the nest inside it) plus the block copy's.
//! - **Anything else plans in full.** A run-time copy of rank 3 or more, or with an
//!   interleaved operand, plans into a [`Plan`](crate::plan::Plan) (about 1 KB of stack with its
//!   loops) and links the search, which adds its own frames when it runs (the overlap test of
//!   two nests whose offset ranges meet, a frame per level of the search for one nest), and an
//!   interleaved operand adds the pieces planner's: give those a few kilobytes of stack or use
//!   a plan.
//!
//! The link check, `firmware/panic-check`, is the same idea applied to every public function:
//! a `no_main` program that calls each with inputs read through `read_volatile`, built for
//! `thumbv7em-none-eabihf` and `riscv32imac-unknown-none-elf` at `opt-level` `1`, `s` and
//! `3` with LTO.
