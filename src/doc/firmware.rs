//! Firmware: `const` layouts, compile-time checks, copies on static buffers, code size.
//!
//! | topic | where |
//! | --- | --- |
//! | what the library needs from a target | [Targets](#targets) |
//! | a DMA buffer checked at compile time | [Compile-time checks](#compile-time-checks) |
//! | copies planned and validated by the compiler | [Const plans](#const-plans) |
//! | the firmware example and its flash | [The firmware example](#the-firmware-example) |
//! | the audio example: flash, instructions and stack against hand loops | [The audio example](#the-audio-example) |
//! | copies as DMA descriptor chains, lowered at compile time | [DMA](#dma) |
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
//!
//! # DMA
//!
//! In firmware the strided copies are usually a DMA engine's work, not the core's. The
//! [`dma`](crate::dma) module lowers a [`CopyPlan`](crate::CopyPlan) to one engine's
//! descriptor chain: each descriptor is the engine's register image as its reference manual
//! lays it out, and the chain performs the plan's copy. One module per engine ([`edma`] for
//! NXP eDMA, [`gpdma`] for STM32 GPDMA 2-D channels, and the others the module lists), one
//! shared lowering:
//!
//! - **The engine's own loop order.** The plan's loops become loops in bytes, and every way
//!   of giving them to the engine's counters that its fields accept (a stride in a signed
//!   16-bit field, a count under its maximum) is priced by the descriptors it leaves; the
//!   fewest win, whatever order the CPU plan runs its loops in. An eDMA TCD takes two loops
//!   (minor and major), a GPDMA item three (beats in a burst, bursts, blocks).
//! - **`const` chains in flash.** `lower_at` is a `const fn`: lowered at address 0 in a
//!   `const` item, a chain is checked and built by the compiler and stored as flash
//!   constants; [`dma::const_unwrap`](crate::dma::const_unwrap) turns a chain that does not
//!   lower (longer than its array, an address off the 32-bit bus) into a compile error that
//!   names the rule.
//! - **`rebase` at run time.** The buffers' addresses are known only when the program runs
//!   (ping-pong halves change every block), so the program copies the chain into RAM and
//!   `rebase` adds the source, destination and chain addresses: a few instructions a
//!   descriptor, no planning, no search. `rebase` adds to what it finds, so relocate a fresh
//!   copy of the `const` chain each time, never a chain already rebased.
//!
//! ## The TDM example
//!
//! `firmware/dma` is 8-slot TDM on a Cortex-M4F (`thumbv7em-none-eabihf`, release,
//! `opt-level = "s"`, LTO). A SAI or I2S receive buffer holds 256 frames of 8 `i32` slots,
//! frame by frame; a DMA chain de-interleaves each block into 8 planar channel blocks (slot by
//! slot) for the DSP code, and a second chain interleaves the planar blocks back into the
//! transmit buffer. Step by step:
//!
//! 1. **Layouts.** The receive buffer seen as `[slot][frame]` is
//!    `Layout::dense_of::<i32>([8, 256], Order::F)` (the slot moves fastest in memory); the
//!    planar blocks are the same shape in `Order::C`.
//! 2. **Plans.** `const` [`CopyPlan`](crate::CopyPlan)s for receive → planar and planar →
//!    transmit, as in [Const plans](#const-plans).
//! 3. **Chains.** Each plan lowered for the engine at address 0 in a `const` item, into an
//!    array exactly as long as the chain: the descriptors are `.rodata`.
//! 4. **Per block.** Copy each chain into a RAM static (for eDMA 32-byte aligned, which
//!    [`edma::Descriptor`](crate::dma::edma::Descriptor) is), `rebase` it with the block's
//!    buffers and the RAM chain's address, and start the channel (below).
//!
//! The chain the compiler lowers, relocated at run time, is the chain lowered for those
//! addresses directly. The eDMA chain is one TCD whose minor loop moves the 8 slots of a frame
//! and whose major loop steps through the 256 frames; the GPDMA chain is one item of 8
//! blocks, one slot's 256 samples each. The same copy, two loop orders:
//!
//! ```
//! use strided_layout::dma::{self, DmaError, edma, gpdma};
//! use strided_layout::{const_unwrap, CopyPlan, Layout, Order};
//!
//! /// 256 TDM frames of 8 `i32` slots, seen `[slot][frame]`, and 8 planar blocks.
//! const TDM: Layout<2> = const_unwrap(Layout::dense_of::<i32>([8, 256], Order::F));
//! const PLANAR: Layout<2> = const_unwrap(Layout::dense_of::<i32>([8, 256], Order::C));
//! const DEINTERLEAVE: CopyPlan = const_unwrap(CopyPlan::new(&TDM, &PLANAR));
//! /// Lowered by the compiler at address 0: flash constants.
//! const TCDS: [edma::Descriptor; 1] = {
//!     let mut out = [edma::Descriptor::ZERO; 1];
//!     let _ = dma::const_unwrap(edma::lower_at(&DEINTERLEAVE, 0, 0, &mut out, 0));
//!     out
//! };
//!
//! // At run time: a RAM copy, relocated to the block's buffers and the copy's own address.
//! let (rx, planar, chain) = (0x2000_8000, 0x2000_C000, 0x2000_0000);
//! let mut tcds = TCDS;
//! edma::rebase(&DEINTERLEAVE, &mut tcds, rx, planar, chain)?;
//! let mut direct = [edma::Descriptor::ZERO; 1];
//! assert_eq!(edma::lower_at(&DEINTERLEAVE, rx, planar, &mut direct, chain), Ok(1));
//! assert_eq!(tcds, direct);
//! // A minor loop of the 8 slots (4-byte beats, 1,024 bytes apart in the planar blocks),
//! // a major loop of the 256 frames.
//! assert_eq!((tcds[0].saddr, tcds[0].soff, tcds[0].doff, tcds[0].citer), (rx, 4, 1024, 256));
//!
//! // GPDMA: one item, 8 blocks (`BRC + 1`) of one slot's 1,024 bytes (`BNDT`).
//! let mut items = [gpdma::Descriptor::ZERO; 1];
//! assert_eq!(gpdma::lower_at(&DEINTERLEAVE, rx, planar, &mut items, chain), Ok(1));
//! assert_eq!((items[0].br1 & 0xFFFF, (items[0].br1 >> 16) & 0x7FF), (1024, 7));
//! # Ok::<(), DmaError>(())
//! ```
//!
//! ## Starting the chain
//!
//! Each module's docs give its engine's start-up; in short:
//!
//! - **eDMA** (memory to memory): minor-loop mapping on once (`CR.EMLM = 1`, which the
//!   minor-loop offsets need); per chain, the first TCD copied into the channel's TCD
//!   registers, then the channel requested permanently (`ERQ` with an always-on request).
//!   Each TCD but the last has `ESG` set and links to the next by `DLAST_SGA`; the last sets
//!   `DREQ`, so the request clears and `CSR.DONE` is set when the copy is done. Set
//!   `INTMAJOR` in the last TCD for an interrupt.
//! - **GPDMA** (a 2-D channel: 12 to 15 on STM32U5, 6 and 7 on STM32H5): `CxLBAR` set to the
//!   upper 16 bits of the list's address (every item lies in one 64 KiB page, which `rebase`
//!   checks), the first item written to `CxTR1` .. `CxBR2` and `CxLLR`, then `CxCR.EN` set.
//!   Items are requested by software; the last has `CxLLR = 0`. Set `CxTR2.TCEM` and
//!   `CxCR.TCIE` for an interrupt.
//!
//! The addresses are the ones the engine sees: on most Cortex-M parts the CPU's, but a
//! tightly coupled memory may have another on the bus. In the example no engine exists (it
//! runs under `qemu-arm`), so the start is volatile writes of the first descriptor to a static
//! standing for the channel's registers: the CPU's side of the cost, which is what the
//! example measures. Built with its `qemu` feature, the program checks that each relocated
//! chain equals the chain `lower_at` writes at run time for the same addresses and that the
//! CPU [`copy()`](crate::copy()) of the same layouts round-trips the samples; it exits
//! non-zero otherwise. Its panic handler calls a symbol defined nowhere, as in the other
//! examples, so the link fails if a panic path survives.
//!
//! The figures (descriptors in each chain, flash of the eDMA and the GPDMA builds and over a
//! baseline with neither, and the CPU instructions a block spends relocating and starting
//! both chains, counted by `qemu-arm`) are printed by `bash firmware/dma/run`; CI runs it.
//!
//! ## An engine nobody here wrote
//!
//! The tests run every engine's chains on emulators written from the manuals; `firmware/pl330`
//! runs the [`pl330`](crate::dma::pl330) microcode on QEMU's own model of the DMA-330 (the
//! `xilinx-zynq-a9` machine of `qemu-system-arm`). A bare-metal Cortex-A9 program
//! (`armv7a-none-eabi`) lowers a transpose, a strided gather, a flipped crop, planar to
//! interleaved stereo, a dense copy in bursts, a vertical flip, CHW to HWC, a fill and an 8-slot
//! TDM de-interleave into microcode in RAM, starts channel 0 with `DMAGO` through the
//! controller's debug registers (`DBGINST0`, `DBGINST1`, `DBGCMD`), waits until the channel
//! stops, and compares the destination with the crate's [`copy()`](crate::copy()). A build
//! that spoils each program before it runs must fail every case (wrong data or a channel
//! fault). `bash firmware/pl330/run` does both; CI runs it.
//!
//! [`edma`]: crate::dma::edma
//! [`gpdma`]: crate::dma::gpdma
