//! Benchmarks: what transforms, iteration and the kernels cost, measured.
//!
//! The benches are the `strided-layout-bench` crate in `benches/` (a workspace member, so
//! criterion and ndarray never build for users or for `cargo test`). Run one file with `cargo
//! bench -p strided-layout-bench --bench <file>` (or the alias `cargo bench-all --bench
//! <file>`). They measure the library with its default features, what a user gets without
//! asking (the kernels detect AVX, AVX2 and SSSE3 at run time). `python3 benches/table.py`
//! runs every group named `table/<row>` and prints README's table of ratios to
//! `copy_from_slice`.
//!
//! | section | bench file | what it measures |
//! | --- | --- | --- |
//! | [Transforms](#transforms) | `transforms.rs` | each transform at rank 4 beside the bare arithmetic |
//! | [Iteration](#iteration) | `blocks.rs` | `offsets`, `strided_blocks` per element |
//! | [Kernels](#kernels) | `copy.rs` | copy, fill and `zip_map` beside `copy_from_slice`, a naive loop and ndarray |
//! | [Interleaved layouts](#interleaved-layouts) | `interleave.rs` | planar to interleaved copies |
//! | [Small copies, prepared](#small-copies-prepared) | `prepared.rs` | the run-time `copy()` and a `const` [`CopyPlan`](crate::CopyPlan) beside `copy_from_slice`, a naive loop, ndarray and a hand loop |
//! | [Random strided copies](#random-strided-copies) | `sweep.rs`, `sweep_numpy.py` | 240 random copies beside the plain loop, `copy_from_slice` and NumPy's `copyto` |
//!
//! # Transforms
//!
//! Transforms and queries cost tens of nanoseconds: they touch only `N` extents and strides.
//! `benches/benches/transforms.rs` (criterion, in the `strided-layout-bench` workspace member)
//! times each transform at rank 4 beside a hand-written baseline that does the bare arithmetic
//! of that one case without validation or error paths. Reproduce with `cargo bench -p
//! strided-layout-bench --bench transforms -- transform/` (criterion's medians are in
//! `target/criterion/transform_rank4/*/new/estimates.json`). One run on the 2-core CI machine
//! (`x86_64`, Rust 1.95); the black-boxed copies of the inputs cost every row about 35 ns, the
//! baselines included, so compare the ratio:
//!
//! | transform (rank 4, `[8, 16, 32, 64]` C-dense) | median | hand-written baseline | ratio |
//! | --- | --- | --- | --- |
//! | `permuted` | 63.3 ns | 37.1 ns | 1.71 |
//! | `transposed` | 74.3 ns | 71.6 ns | 1.04 |
//! | `flipped` | 77.2 ns | 65.1 ns | 1.19 |
//! | `narrowed` | 52.5 ns | 44.9 ns | 1.17 |
//! | `sliced` (`[:, 1::2, :, ::-1]`) | 95.9 ns | 37.0 ns | 2.59 |
//! | `selected` | 60.5 ns | 38.0 ns | 1.59 |
//! | `unsqueezed` | 63.9 ns | 46.8 ns | 1.37 |
//! | `broadcast_to` | 55.2 ns | 70.6 ns | 0.78 |
//! | `squeezed` | 51.6 ns | 48.7 ns | 1.06 |
//! | `flattened` | 58.6 ns | 36.5 ns | 1.60 |
//! | `reshaped` (`[128, -1]`) | 124.3 ns | 38.3 ns | 3.25 |
//! | `to_dense(F)` | 112.8 ns | 38.1 ns | 2.96 |
//! | `new` (validation of all three invariants) | 38.5 ns | 14.0 ns | 2.75 |
//!
//! Every same-rank transform but `sliced`, and every rank change but `reshaped`, is within 2x
//! of its baseline: the transforms that provably keep the invariants skip re-validation, and
//! the rank changes check only what they can break. `sliced` normalises each Python slice twice
//! (a zero step anywhere is reported first, as cuda.core does) against a baseline that
//! hard-codes one slice pattern; `reshaped` flattens and re-splits the general case against a
//! baseline that knows the source is C-contiguous; `to_dense` validates its dense result in
//! bytes.
//!
//! # Iteration
//!
//! `benches/benches/blocks.rs` (`cargo bench -p strided-layout-bench --bench blocks`): every
//! offset of a rank-4 layout costs 0.08-0.13 ns per element through `offsets().fold` (0.33 ns
//! through a `for` loop's `next`), against 0.52 ns for a naive nested loop; `strided_blocks`
//! 0.15 ns per element of a layout of rows, 2 ns on a permuted layout with no contiguous run
//! (it is the exact primitive; the kernels use the plan).
//!
//! # Kernels
//!
//! `benches/benches/copy.rs` (criterion) runs each case of the kernels issue beside
//! `copy_from_slice` of the destination's bytes (the roofline), a naive nested loop and ndarray
//! 0.17 (`assign`, `Zip`). Throughput counts the bytes read plus the bytes written, each once
//! (a copy of `n` bytes is `2n`, `A + Aᵀ` is `3n`); the ratio is GB/s over `copy_from_slice`'s
//! GB/s in the same run. Besides the `table/<row>` groups that make README's table (the
//! current figures, from one run of `python3 benches/table.py`), the file has groups the table
//! leaves out: a 1 MiB contiguous copy (a `memcpy` plus planning), a broadcast source (a fill,
//! faster than any copy), the 1 KiB transpose through the run-time `copy()`, and a 3 KiB `u8`
//! CHW → HWC image. To see every group with its ratios:
//!
//! ```text
//! cargo bench -p strided-layout-bench --bench copy | tee bench.txt
//! python3 benches/summary.py < bench.txt
//! ```
//!
//! What the kernels do, case by case: a contiguous copy larger than the last-level cache
//! streams its stores (non-temporal, so the destination is not read first, which is why it
//! beats `copy_from_slice`); transposes and permutes move square register tiles (AVX2 8 × 8
//! for 4-byte elements, SSE2 for 1 and 2 bytes) and stream whole destination lines through a
//! small buffer; `A + Aᵀ` packs each transposed tile of the second operand once, so every
//! element is read once; planar ↔ interleaved conversions of 2 to 16 channels take the
//! byte-shuffle or register-transpose channel kernels below. Every case is at least as fast as
//! the naive loop and ndarray at every size the table measures.
//!
//! Transposes past the streaming threshold whose destination rows are not a whole number of
//! cache lines apart (`transpose 3000^2 f32, rows off the lines` in
//! `benches/benches/transpose.rs`, outside the table) write through the stack tiles, each
//! row's whole lines streamed and its first and last partial ones stored plainly; before,
//! they took the cached tiles. One criterion run each on the Intel server core: 3000² `f32`
//! 6.94 -> 3.89 ms, 0.37 -> 0.64 of `copy_from_slice` (2.5 ms; naive loop 40-46 ms, ndarray
//! 53-59 ms). Alternating runs of the two builds outside criterion, whose buffers leave the
//! cache between runs: 3000² 13.3 -> 4.0 ms, 5000² 33.4 -> 18.5 ms, 8184² 134 -> 70 ms
//! (8176², whose rows are whole lines, takes 28 ms through the line kernels: rows off the
//! lines still cost about twice as much at that size).
//!
//! Transposes that stay in the cache, from 64 × 64 up, take the same macro-kernels with
//! plain stores (before, the plan's 32 × 32 tiles, one block-kernel call each). The groups
//! `transpose 256^2 f32, in the cache` and `transpose 2000^2 f32, in the cache` of
//! `benches/benches/transpose.rs`, one criterion run each way: 256² 13.4 -> 9.3 µs (0.43 ->
//! 0.62 of `copy_from_slice`, 5.8 µs), 2000² 2.10 -> 1.55 ms (0.54 -> 0.73; naive loop
//! 8.7-10.3 ms, ndarray 12.4-14.6 ms). Alternating runs of the two builds outside criterion,
//! ratio to `copy_from_slice` in the same process: `f32` 128²
//! 0.37-0.47 -> 0.50-0.51, 192² 0.30 -> 0.53, 256² 0.28-0.33 -> 0.46-0.49, 512² 0.32-0.33
//! -> 0.40-0.41, 1024² 0.45-0.47 -> 0.55, 1536² 0.39 -> 0.57-0.58, 2000² 0.44-0.45 -> 0.70-0.71,
//! 2047² 0.35-0.41 -> 0.49-0.50; 1000² and 1500², whose rows are not whole lines, within
//! 0.05 either way. `f64` 1000² 0.96 -> 0.74 ms, 1024² 1.15 -> 0.97 ms, 2000² 3.23 ->
//! 3.27-3.38 ms; the (2, 0, 1) permute of `f32` cubes 64³ 0.092 -> 0.060 ms, 128³ 1.00 ->
//! 0.74 ms, 160³ 1.97 -> 1.49 ms.
//!
//! # Interleaved layouts
//!
//! `benches/benches/interleave.rs` (`cargo bench -p strided-layout-bench --bench interleave`):
//! planar to interleaved through `copy` with an [`InterleavedLayout`](crate::InterleavedLayout)
//! destination, beside `copy_from_slice` of the same bytes (from a written source: a zeroed
//! `vec!` is read from the kernel's shared zero page and runs about 1.3x faster), a naive loop
//! and ndarray's `permuted_axes` + `assign`, in one run (same machine):
//!
//! ```text
//! cargo bench -p strided-layout-bench --bench interleave | tee bench.txt
//! python3 benches/summary.py < bench.txt
//! ```
//!
//! | case | `strided_layout` | naive | ndarray | `copy_from_slice` | ratio (ours) | target |
//! | --- | --- | --- | --- | --- | --- | --- |
//! | CHW → HWC 3×1080×1920 `u8` | 0.224 ms | 6.21 ms | 11.6 ms | 0.262 ms | 1.17 | 0.7 (≤ 0.2 ms) |
//! | CHW → HWC 3×1080×1920 `f32` | 1.90 ms | 8.75 ms | 10.2 ms | 3.41 ms | 1.80 | 1.0 |
//! | stereo 2×1M `f32` → LRLR | 0.593 ms | 1.89 ms | 4.99 ms | 0.616 ms | 1.04 | - |
//! | 10 channels of 256² `f32` in blocks of 4 | 0.148 ms | 0.692 ms | 0.979 ms | 0.082 ms | 0.55 | - |
//!
//! The channel kernels (`kernel/channels/`) move 2 to 16 channels of 1-, 2- or 4-byte
//! primitives (2 to 4 of 8-byte ones) a vector at a time with byte shuffles: `vpshufb` (AVX2)
//! or `pshufb` (SSSE3, 2 to 4 channels), chosen at run time in every build, and `tbl` on
//! NEON; channel counts that are a multiple of a vector's elements (8 and 16 `i16`, 16 `u8`,
//! 8, 12 and 16 `f32`) use square register transposes instead, and counts the masks serve
//! slowly (6 to 15 `u8`, ...) padded transposes with overlapping pixel stores. The figures of
//! this paragraph are from before the many-channel kernels; README's table and the sweep
//! below have the current ones. Masks are computed at compile
//! time; for 3 channels each plane is shuffled once and the output chunks are blends, so a
//! 32-pixel step of the `u8` image is 3 loads, 3 shuffles, 6 blends and 3 stores. Copies past
//! 32 MiB stream their stores (the `f32` image). Against the previous kernel (one byte per
//! store) the `u8` image went from 2.39 ms to 0.22 ms; the way back (HWC → CHW) runs at the
//! same speed. Over several runs the `u8` ratio stayed between 0.99 and 1.17; measured against
//! the old zero-page roofline it is 0.75-0.79, still above the 0.7 target. The absolute 0.2 ms
//! is not reached on this machine, where `copy_from_slice` of the same written bytes itself
//! takes 0.21-0.31 ms. Ten channels in blocks of 4 is two whole blocks (at `copy_from_slice`
//! speed) and a partial block of 2 lanes in 4, which runs pixel by pixel with scalar stores
//! (0.35 of the roofline alone); planar → blocks of 8 or 16 `f32` take the SIMD transposes
//! (about 0.5).
//!
//! ## 5 to 16 channels, both ways
//!
//! `cargo bench -p strided-layout-bench --bench channels -- '^channels'` (one run, 256 Ki
//! pixels, planes 64 bytes past a power of two apart; ratio to `copy_from_slice` of the same
//! bytes; → planar to interleaved, ← the way back). On a 2-core share of an Intel Xeon server
//! (AVX-512 present but not used, 2 MiB of L2 per core, about 28 GB/s of copy traffic for one
//! core at these sizes), every count runs at the memory's speed:
//!
//! | channels | `u8` → | `u8` ← | `i16` → | `i16` ← | `f32` → | `f32` ← |
//! | --- | --- | --- | --- | --- | --- | --- |
//! | 5 | 0.77 | 0.73 | 1.03 | 0.94 | 1.03 | 1.01 |
//! | 6 | 0.94 | 0.92 | 0.99 | 0.95 | 1.03 | 1.00 |
//! | 7 | 0.96 | 0.88 | 1.00 | 0.95 | 1.02 | 1.03 |
//! | 8 | 1.10 | 0.94 | 1.01 | 1.01 | 0.98 | 1.03 |
//! | 9 | 1.02 | 1.03 | 0.97 | 1.01 | 1.03 | 1.02 |
//! | 10 | 0.99 | 1.00 | 0.98 | 1.02 | 1.00 | 1.02 |
//! | 12 | 0.98 | 0.90 | 1.01 | 1.03 | 0.99 | 1.02 |
//! | 15 | 0.98 | 1.04 | 1.01 | 1.03 | 1.00 | 1.03 |
//! | 16 | 1.00 | 1.03 | 1.01 | 1.02 | 0.91 | 0.77 |
//!
//! (16 `u8` with planes 2^18 apart: 0.95.) On a 2-core share of an AMD EPYC (Zen 3, 32 MiB
//! of L3, whose cache copies faster than these kernels shuffle) the same sweep, in an earlier
//! session (`u8` → 5 to 9 from a second run after the pair stores):
//!
//! | channels | `u8` → | `u8` ← | `i16` → | `i16` ← | `f32` → | `f32` ← |
//! | --- | --- | --- | --- | --- | --- | --- |
//! | 5 | 0.73 | 0.54 | 1.00 | 0.77 | 0.98 | 1.09 |
//! | 6 | 0.69 | 0.57 | 0.87 | 0.86 | 0.95 | 0.87 |
//! | 7 | 0.83 | 0.69 | 0.80 | 0.82 | 1.03 | 0.94 |
//! | 8 | 0.97 | 0.71 | 0.95 | 0.88 | 0.92 | 1.11 |
//! | 9 | 0.41 | 0.68 | 0.69 | 0.68 | 1.22 | 1.07 |
//! | 10 | 0.47 | 0.65 | 0.71 | 0.82 | 0.76 | 0.94 |
//! | 12 | 0.55 | 0.76 | 0.85 | 0.87 | 0.98 | 0.81 |
//! | 15 | 0.61 | 0.63 | 0.78 | 1.13 | 1.06 | 0.78 |
//! | 16 | 1.05 | 0.86 | 1.09 | 0.84 | 1.07 | 1.59 |
//!
//! With the byte-shuffle masks alone (the same machine, a standalone loop, two runs) 10 to 15
//! channels had run at 0.12-0.36 (`u8`), 0.19-0.41 (`i16`) and 0.35-0.63 (`f32`) both ways,
//! and 16 `u8` and `i16` towards the interleaved side at 0.34 and 0.64 (chunk stores). Where
//! the planes lie a multiple of 4 KiB apart, 16 `u8` drops to 0.46 (`channels/16 x u8, planes
//! 2^18 apart`): the planes' lines share one cache set. A stack tile that copied each plane's
//! lines before the kernel read them did not help (0.26 against 0.20, with the chunk stores
//! of then), so the cause is not the first-level cache alone; the case is left as it is.
//! On that machine `u8` from 9 to 15 channels towards the interleaved side (0.41-0.61) and 5
//! to 15 the way back (0.54-0.76) are bound by the shuffles: a 16-row byte transpose is 64
//! zips per 32 pixels whatever the count.
//!
//! # Small copies, prepared
//!
//! Cost per call of [`copy`](crate::copy()) besides the data (every call checks, and most
//! plan), on an x86-64 server core in an earlier round: about 2-3 ns into a C-contiguous
//! destination from a C-contiguous source, 8-20 ns for other copies of rank 1 and 2, 55-60 ns
//! at rank 3 and up past 64 elements, which a hand loop over a few dozen elements does not
//! pay; a prepared [`CopyPlan`](crate::CopyPlan)'s `run` costs 4-10 ns on top of the data.
//! On a Cortex-M4 the plan takes about 1 KB of stack, 288 B for a copy of rank 2 or less over
//! `Layout`s (see [`doc::firmware`](crate::doc::firmware)).
//!
//! `cargo bench -p strided-layout-bench --bench prepared` (groups `table/small 16x16 f32
//! transpose`, the same on 64-byte-aligned buffers, and `table/small 64-frame stereo i16`), on
//! the 2-core x86-64 host (times swing 2-3x between runs on this shared machine; the ratios, to
//! `copy_from_slice` of the same bytes, are what to read), and the instructions per call
//! counted by callgrind (each with the harness's loop, about 20), which load does not change:
//!
//! | case | `const` `CopyPlan::run` | run-time `copy()` | before the block kernels (prepared / run-time) |
//! | --- | --- | --- | --- |
//! | 16 × 16 `f32` transpose (1 KiB) | 0.32-0.49 of `copy_from_slice` on the allocator's buffers, 0.55-0.91 on 64-byte-aligned ones (a standalone loop in one process: 0.51-0.53 on 32-byte-aligned destination rows, 0.45-0.48 on rows 16 bytes off); 320 instr. (364 before this round) | 0.31-0.48; 474 instr. (494) | 0.18 / 0.09; 667 / 1,384 instr. |
//! | 64-frame stereo `i16` interleave (256 B) | 0.68-1.13 × the time of a `chunks_exact_mut` hand loop; 107 instr. (162), the hand loop 142 | 0.28-0.69 of `copy_from_slice`; 250 instr. (275) | 5.3 × the hand loop / 0.05; 394 / 1,046 instr. |
//!
//! The run-time column is from the round before the run-time `copy()`'s fast paths went
//! through the one validation of a nest (a transpose block, one contiguous run, a tiny copy
//! into a C-contiguous destination, each checked and run through the witness that check
//! mints). That costs each call 17 to 63 instructions more; timed in one process (300,000
//! calls, medians of three, the same 2-core AMD EPYC share), before -> after: 4 × 4 `f32`
//! transpose 12.3 -> 14.8 ns, 64-frame stereo `i16` 16.6 -> 19.3 ns, 16 × 16 `f32` 26.4 ->
//! 28.2 ns, 16 contiguous `f32` of rank 3 17.4 -> 19.1 ns, 1,024 contiguous `f32` 51.5 ->
//! 50.9 ns, a (2, 0, 1) permute of 2³ `f32` 23.4 -> 26.2 ns, CHW -> HWC 3 × 4 × 4 `u8` 47.4
//! -> 51.7 ns. Prepared plans and firmware builds are unchanged. In criterion's `small sizes`
//! group on that host, after the change: 2 × 2 `copy()` 14.1 ns (prepared 6.3, naive loop
//! 4.4), 4 × 4 14.1 ns (6.2, 14.1: a tie with the naive loop, where it won by 8% before),
//! 8 × 8 19.0 ns (12.2, 49.7).
//!
//! A small copy shaped like a transpose (two planar channels into interleaved frames, or a
//! transpose of at most 32 KiB, at least 8 × 8 or under it both ways) runs one block kernel:
//! a prepared plan knows its block from when it was built (in a `const`, at compile time),
//! and the run-time `copy()` writes the block's nest down from the two rank-2 operands'
//! shape instead of ordering loops, then checks it with the one validation of a nest
//! (bounds, the destination's uniqueness). The 16 × 16 transpose is four
//! AVX2 8 × 8 tiles in straight-line code, the stereo block 32-byte AVX2 unpacks. Each tile
//! loads half rows into both 128-bit lanes (`vinserti128` from memory, so no lane swap is
//! left) and needs 16 integer unpacks, which the Intel Xeon server core of the later sessions
//! (Golden Cove) issues two a cycle, where the `f32` forms of the same shuffles issue one;
//! the 16 × 16 block runs its tiles two side by side and stores each destination row's
//! halves back to back, so consecutive stores fill one cache line (two stores a cycle retire
//! that way, one a cycle to different lines; in the tile loop of larger blocks, pairs
//! measured slower, so they go one tile at a time). On one 16 × 16 block alone (4 KiB-aligned
//! buffers, run-time strides) that took the kernel from 20 ns to 14.2 ns; through
//! `CopyPlan::run`, medians of three alternating runs with the destination 64-byte aligned /
//! 16 bytes off: 8 × 8 8.0 -> 7.2 / 8.2 -> 7.1 ns, 16 × 16 17.1 -> 16.1 / 18.4 -> 17.5 ns,
//! 32 × 32 62.8 -> 59.0 / 72.2 -> 69.1 ns, 64 × 64 238.7 -> 227.2 / 278.8 -> 260.2 ns.
//! The kernel before it needed 12 instructions of the shuffle port a tile (24
//! before that, which bound it on Intel cores): on an Intel Xeon server
//! core the prepared transpose went from 25.8 ns to 19.0-19.4 ns, 0.70-0.72 of
//! `copy_from_slice` in two runs where that took 13.3-13.8 ns on the allocator's buffers,
//! 0.34-0.40 where it took 6.5-7.9 ns (it varies from process to process with where the
//! buffers lie), 0.37-0.38 on 64-byte-aligned buffers. Instructions per call in one harness
//! (a loop of `run` on the 16 × 16 block, callgrind): prepared 336 -> 297, run-time `copy()`
//! 365 -> 326. The table above is from the AMD host of earlier sessions. The dispatch between the
//! block kernels saves no registers (each kernel is a call, the CPU's features are read
//! without one), so it inlines into `run`, and `run` into its caller. The tiles' 32-byte
//! stores straddle a cache line where a destination row starts 16 bytes off one, which costs
//! the transpose about 4 ns of its 22-28. Before, each run
//! dispatched between the channel kernels and the transposes again, and the transpose went
//! through the 16-channel kernel.
//!
//! ### Throughput of the instructions involved
//!
//! The tile kernel's choices rest on loops of one instruction, eight independent copies a
//! step, timed on the same Intel Xeon server core (Golden Cove, about 4 GHz; cycles for eight):
//!
//! | instruction (256-bit unless said) | cycles / 8 | | instruction | cycles / 8 |
//! | --- | --- | --- | --- | --- |
//! | `vunpcklps`, `vunpcklpd`, `vpermilps` | 7.8 | | `vpunpckldq`, `vpunpcklqdq`, `vshufps`, `vpshufd` | 3.9 |
//! | `vperm2f128`, `vinsertf128` from a register | 7.8 | | `vinsertf128` from memory | 4.3 |
//! | `vblendps`, `vpblendd` | 2.6 | | `vpsllq` | 3.9 |
//! | `vpunpckldq` 512-bit | 8.8 | | `vshufi32x4` 512-bit | 9.0 |
//! | 32 × 32-byte stores, two a line back to back | 15.6 (for 32) | | the same stores a line apart | 39 (for 32) |
//!
//! So the `f32` forms of the unpacks run at half the integer forms' rate, a tile's stores
//! retire twice as fast when each line's halves follow each other, and 512-bit shuffles
//! move no more bytes a cycle than two 256-bit ones (with 512-bit instructions in flight,
//! 256-bit shuffles beside them also drop to one a cycle). A 16 × 16 block written as a loop
//! of the instructions alone (no call, no checks) takes 44-46 cycles, against about 22-28
//! for `copy_from_slice` of its 1 KiB; the kernel in the crate takes about 52, a prepared `run` about
//! 65 on 64-byte-aligned buffers.
//!
//! ## Every side from 2 to 64
//!
//! The group `small sizes` of the same file sweeps square `f32` transposes, the plans built
//! at run time and the naive loop's side hidden from the compiler (`cargo bench -p
//! strided-layout-bench --bench prepared -- "small sizes"`; two runs after `copy()`'s
//! small-block checks were trimmed, the range of the two medians; an Intel Xeon server core,
//! which ran the unchanged prepared plans 5-15% slower this time than in the previous
//! round's run):
//!
//! | side | `copy_from_slice` | `copy()` | prepared | naive loop | ndarray |
//! | --- | --- | --- | --- | --- | --- |
//! | 2 × 2 | 1.8-2.0 ns | 7.6-7.8 ns | 4.9 ns | 3.3-3.4 ns | 34.7-35.6 ns |
//! | 4 × 4 | 1.7 ns | 8.2-8.5 ns | 4.0-4.3 ns | 9.4-10.0 ns | 38.7-40.5 ns |
//! | 8 × 8 | 3.0-3.1 ns | 11.9-12.0 ns | 8.0-8.3 ns | 41.4-41.6 ns | 51.0-54.8 ns |
//! | 16 × 16 | 5.6-5.7 ns | 21.4-22.1 ns | 17.7-18.2 ns | 144-154 ns | 96.7-107 ns |
//! | 32 × 32 | 28.7-31.0 ns | 75.5-76.1 ns | 70.8-75.2 ns | 552 ns | 248-252 ns |
//! | 64 × 64 | 99.7-103 ns | 278-282 ns | 266-283 ns | 2,684-2,875 ns | 783-869 ns |
//!
//! The previous round's run (one run, the 64 × 64 row from two) had `copy()` at 8.6, 9.0,
//! 12.7 and 21.4 ns for the four smallest sides: trimming the checks (a 2 × 2 call 220 ->
//! 186 instructions, a 64-frame stereo block 251 -> 220) took 0.5-1 ns off the three
//! smallest; the 16 × 16 call moved less than the noise here (23.5 -> 22.2 ns in alternating
//! runs of the two builds, outside criterion).
//!
//! From 4 × 4 up both forms beat the naive loop and ndarray; a 2 × 2 block (four elements)
//! is the one size where a loop written for it wins, by the checks every call makes (about
//! 100 instructions: lengths, element size, the block's kind; a prepared plan's 2 × 2 went
//! from 5.3 to 4.9 ns when two channels under 16 bytes stopped setting up the vector loops).
//! Below 8 × 8 the blocks go element by element, except 4 × 4 of 4-byte elements, one SSE2
//! or NEON block, and blocks two wide, a two-channel interleave. Before this
//! sweep, a 4 × 4 transpose took the general planner and the channel kernels' dispatch (42.8
//! ns through `copy()`), and a prepared 64 × 64 one the plan's tiles (0.47-0.70 us).
//!
//! Other small copies: the group `small shapes` (`-- "small shapes"`, one run; naive loops
//! with their extents hidden from the compiler; `copy_from_slice` of the same bytes beside
//! each; times vary by up to a quarter between runs, the 3 × 16 × 16 image's by 2x with
//! where its buffers lie) measured
//!
//! | copy | `copy()` | prepared | naive loop | `copy_from_slice` |
//! | --- | --- | --- | --- | --- |
//! | contiguous, 4 / 16 / 64 `f32` | 3.4 / 3.4 / 7.9 ns | 4.3 / 4.5 / 9.9 ns | 2.5 / 3.8 / 6.8 ns | 1.8 / 2.0 / 2.7 ns |
//! | permute (2, 0, 1) of 2³ / 4³ / 8³ `f32` | 13.0 / 43.6 / 86.7 ns | 8.8 / 17.5 / 32.5 ns | 6.0 / 34.3 / 283 ns | 2.0 / 2.9 / 17.1 ns |
//! | CHW -> HWC, 3 × 2 × 2 / 3 × 4 × 4 / 3 × 16 × 16 `u8` | 14.5 / 31.1 / 98.4 ns | 9.1 / 16.6 / 58.9 ns | 5.8 / 17.1 / 240 ns | 1.6 / 1.8 / 6.1 ns |
//!
//! Into a C-contiguous destination `copy()` plans nothing: from a C-contiguous source it
//! checks both operands and moves one run (before, 18.6-20.6 ns through the planner's nest),
//! and at rank 3 and up from any source of at most 64 elements it checks the bounds and
//! copies element by element, an odometer over the source (before, 57.5 and 61.2 ns for the
//! 2³ and 4³ permutes, 57.9 and 62.0 ns for the 3 × 2 × 2 and 3 × 4 × 4 images, nearly all
//! of it the general planner: about 1,300 instructions a call for the 4³ permute, a third of
//! them ordering and merging the loops, which a prepared plan pays once). So a one-off copy
//! of a few dozen elements is still cheaper as a hand loop, by 5-10 ns, and one made again
//! and again is as cheap prepared from about 50 elements up and cheaper past that.
//!
//! # Uniqueness and threads
//!
//! [`Layout::is_unique`](crate::Layout::is_unique) answers layouts made from a dense one by
//! permuting, slicing with steps, flipping, selecting or squeezing with its mixed-radix pass,
//! about 50 ns at rank 4 on the reference machine, before any search.
//!
//! `PAR_BYTES` (1 MiB, feature `rayon`) is where a second core starts to pay: one core moves
//! 1 MiB in about 40-100 µs (a transpose at 0.4 of `copy_from_slice`), while waking rayon's
//! sleeping workers and joining them costs microseconds to tens of microseconds, more when the
//! cores are shared with other processes (`cargo bench -p strided-layout-bench --features
//! rayon --bench par`: 256², 362² and 512² `f32` transposes, 0.5-2 MiB moved).
//!
//! # Firmware (Cortex-M4F)
//!
//! `bash firmware/audio/run` and `bash firmware/example/run` (the programs the
//! [firmware guide](crate::doc::firmware) describes), `thumbv7em-none-eabihf`, `opt-level =
//! "s"`, LTO. Flash is `.text + .rodata + .data` (`.text` alone in parentheses); instructions
//! are counted by `qemu-arm` executing the real ELF, per 64-frame copy; frames are the largest
//! in the call tree of one copy.
//!
//! | audio, planar → interleaved | flash, stereo | flash, stereo + 5.1 | instructions per copy | largest frames |
//! | --- | --- | --- | --- | --- |
//! | hand loops (`chunks_exact_mut`) | 1,568 B (1,568 B) | 7,190 B (7,190 B) | 582 | - |
//! | `const` [`CopyPlan`](crate::CopyPlan) | 1,932 B (1,932 B) | 7,510 B (7,510 B) | 576 | 36 B (the caller, `run` inlined) + 48 B (the block copy) |
//! | run-time [`copy()`](crate::copy) | 3,492 B (3,432 B) | 9,164 B (9,056 B) | 881 | 240 B (`copy`) + 48 B (the block copy) |
//!
//! The `const` plan costs 364 bytes over the hand loops and 6 instructions fewer per copy; it
//! stores no plan (the two plans of the stereo build were 1,216 bytes of `.rodata`, and `run`
//! 1,130 bytes of `.text`, before `run` was inlined on bare metal), and links no `memcpy` (730
//! bytes) or `memclr` (174 bytes). The run-time `copy()` costs 1,924 bytes over the hand loops
//! (2,456 while it tiled large blocks on bare metal too: the tile driver was 496 bytes; 17.2 KB while it linked the general planner and the searches, 35.0 KB when the search
//! used `i128`). Everything but its inner loop (the call, planning, validation and the block's
//! set-up: the library's instructions in a `qemu-arm` trace, attributed per source line) is
//! about 335 instructions a call (348 with the tile decision), where a `const` plan's run spends about 45 (84 before its
//! run was inlined; the run-time figure was 374, 457 and about 2,150 in earlier rounds, the
//! last when each call cleared and walked a [`Plan`](crate::plan::Plan) of
//! [`MAX_LOOPS`](crate::plan::MAX_LOOPS) loops). Its stack high-water is 288 B (240 B + 48 B; 352 B with tiles), where
//! the general planner's plan took 1,004 B; a run-time copy that plans in full adds 736 B for
//! the overlap test of two nests, 272 B plus 208 B per level of the search for one nest, and
//! about 830 B for the pieces planner of an interleaved operand.
//!
//! `firmware/example` (CHW → HWC into an interleaved layout, a strided crop, a 4×6 `f32`
//! transpose, all `const` plans) takes 3.7 KB of flash, all of it `.text`: 5.4 KB before its
//! plans' runs were inlined, 42.1 KB of `.text` with run-time [`copy()`](crate::copy) calls
//! (about 24 KB of that the exact uniqueness search the destination check falls back to).
//!
//! # Random strided copies
//!
//! `benches/benches/sweep.rs` (no criterion: its own timer, medians of warm runs) generates
//! 240 copies from a fixed seed: rank 1 to 5, elements of 1, 2, 4 and 8 bytes, 16 Ki to 1 Mi
//! elements, each operand a dense buffer in a random axis order, cropped, stepped and flipped
//! at random (plain C order about a third of the time). Each case runs `copy()`, the odometer
//! loop a newcomer writes (indices in C order, offsets kept incrementally, safe indexing) and
//! `copy_from_slice` of the same element count, first in turn untimed (four rounds, and until
//! 5 ms have passed: on these virtual hosts a buffer just filled runs 2-3x slower for its
//! first four or five passes, however long it rests, and the method timed first paid for it
//! alone before), then each settled (run back to back, untimed, until three runs in a row
//! come within 1.15x of its fastest before them) and timed back to back, the three in turn,
//! twice; it checks that `copy()` and the loop write the same bytes, prints every case
//! slower than the loop and the geometric means, and writes the cases and times to
//! `target/sweep.tsv`. `python3 benches/sweep_numpy.py` replays that file with NumPy's
//! `copyto` on views with the same strides and offsets over buffers of the same lengths, timed
//! the same way, and prints the cases where `copy()` takes more than 1.10x NumPy's or the
//! loop's time. `--only I` runs case `I` alone and prints its plan; `SWEEP_PREPARED=1` times a
//! [`CopyPlan`](crate::CopyPlan) run instead of `copy()`, `SWEEP_TUNED=1` one made
//! [`tuned`](crate::CopyPlan::tuned) on the case's buffers (with `SWEEP_SHOW_TUNED=1` it
//! prints the plan it keeps where that is not the planner's). With `--same-process LIB` (`LIB` the
//! bench crate's `sweep_ffi` example, a shared library: `cargo build --release -p
//! strided-layout-bench --example sweep_ffi`) the replay times `copy()` too, through a C
//! function, on NumPy's buffers and views, the two alternating as the sweep's methods do,
//! after checking that both write the same bytes: no drift between two processes and no
//! placement of their own in the comparison (one `ctypes` crossing, about 0.6 us, against
//! `copyto`'s 0.9 us from Python).
//!
//! One run on a 2-core share of an AMD EPYC (32 MiB of L3), NumPy 2.4, replayed three times:
//! `copy()` was 4.04x the loop and 1.71-1.75x NumPy in geometric mean; 3-4 cases took more
//! than 1.10x the loop's time and 18-20 more than 1.10x NumPy's. Flipped rows of 16 elements
//! or more now copy as reversed runs the compiler vectorises (they were element loops): a
//! reversed run of 685,283 bytes took 24 us against 213 us for NumPy and 423 us for the loop,
//! and the geometric means rose from 3.59x / 1.60x. The round before had 3.58x / 1.61x, with 3
//! and 18 cases (37 and 1.38x before that round). The loop order weighs strides
//! past a cache line alike (a plain `2·|dst stride| + |src stride|` put a 3-D transpose's
//! destination stride-1 axis outermost: 0.42x NumPy); weighed so, nChw8c -> nChw16c first
//! became 3.8x slower (its blocks became two rows of 8 elements, each paying a block's call),
//! which the small-block path (three loops a step, in strips) undid. What remains behind NumPy:
//! copies whose two operands' fast axes differ over several loops each (a rank-4 `u8` copy
//! reading the source 21 bytes apart per destination element, 0.60x; a rank-5 `u64` copy,
//! 0.72x the loop), which want tiles spanning several loops per side, and single `memcpy` runs
//! that vary from one process to the next.
//!
//! The latest round (same host kind, one sweep run, NumPy replayed three times): `copy()`
//! 4.27x the loop and 1.78-1.81x NumPy in geometric mean, 1 case over 1.10x the loop's time (a
//! rank-1 gather of every third `u64`, 0.80x, which moves between runs) and 2-6 over 1.10x
//! NumPy's (worst 0.78x, a copy that is one `memcpy` on either side). The replay now leaves
//! NumPy's buffers on 4 KiB pages as the Rust ones are (`--hugepages off`, the default):
//! NumPy asks the kernel for huge pages on its large buffers, which took time off its copies
//! whose strides cross a page each step (a rank-5 `u64` copy, sweep case 127: 1.65 against
//! 1.90 ms) and was not a difference of the copy itself; with `--hugepages on` the same run
//! gives 1.74-1.80x and 9-13 cases. Two planner changes made it: the one tiling rule no longer
//! cuts a block with a loop shorter than 8 into tiles while a row's cache lines stay cached
//! (4 rows of 566 `u64` 66 KiB apart: 2.79 -> 1.82 ms; `(2875,6,2):(1,2875,51750) ->
//! (12,-2,1)` of `f32`: 0.93x -> 1.60x the loop), and reversed rows shorter than 128 bytes
//! stay in the element loops (27 `u16` a row: 43.5 -> 26.3 us, NumPy 25.8 us).
//!
//! This round (same host kind, one sweep run, NumPy replayed five times): `copy()` 3.94x the
//! loop and 1.68-2.34x NumPy in geometric mean (NumPy's side moved that much between
//! replays), 4 cases over 1.10x the loop's time and 5-18 over 1.10x NumPy's. A run before the
//! round's two planner rules gave 3.86x and 1.92x the same day, so the rules are judged case
//! by case, old and new builds alternating (`--only I --reps 11`, the two binaries in turn,
//! three or four pairs each, loop time over `copy()`'s):
//!
//! - Rows shorter than 8 in an untiled block swap with a source's fastest loop outside them
//!   (`rows_swap`): rows of 3 `f32` into a 16 x 7 x 1012 block (case 217) 0.82-1.17x ->
//!   1.40-1.56x; of the 7 cases whose plans change, 5 are faster and 2 within the noise.
//! - Blocks of two long loops that only element loops take (no operand steps one element in
//!   one of them) are tiled only when a row's lines overflow half an L1
//!   (`ELEMENT_ROW_BYTES`): `f64` 960 x 175 read 2 apart (case 60) a median of 0.79x ->
//!   1.06x, `u16` 3856 x 46 (case 90) 1.18x -> 2.26x, `(5,142,48)` `f64` (case 30) about
//!   1.10x -> 1.15-1.60x; one case of 7, a 31 x 16 `f64` block (case 54), about 15 % slower.
//!
//! What remains: case 106 (0.67-0.96x, `f64` `(4,7018,1,2,10)`): the source's fast loops
//! and the destination's are two groups of two, and its 40 source streams want a tile
//! spanning both groups, where the planner tiles the two innermost loops only; case 153
//! (a rank-1 gather of every third `u64`, 0.80-1.04x in the sweep, 1.2-1.4x when copy and
//! loop alternate call by call); cases 178 and 61 (0.86-0.89x, within the host's noise of
//! 1.0 in other runs).
//!
//! What the sweep found and this round fixed (before / after, loop time over `copy()`'s):
//! rows of 2 to 4 bytes went through a `memcpy` call a row (`(12126,2):(-2,1) -> (2,1)` of
//! `u8`: 0.42x, now above 1); blocks of a few elements paid the block kernel's call and
//! dispatch (now element loops inlined into the driver); channel kernels and SIMD transposes
//! ran on blocks thinner than one vector (2 channels × 11 pixels: 0.62x; 5 × 7076 `u8`:
//! 0.77x); and a 128 KiB contiguous `f64` copy whose destination lay 8 bytes past the source
//! modulo 4096 took 43 us through the C library's `rep movsb` against 2.7 us at other
//! distances (now 3.2 us, in 1 KiB pieces).
//!
//! A later round (same host kind, each build timed against the one before case by case, in
//! several processes alternating, the sweep's timing of one case at a time, loop time over
//! `copy()`'s) took two of the cases that remained:
//!
//! - Group tiling (`group`, beside the tiling rule): case 106's loops, fast in the source
//!   (7018 and 2 steps) and fast in the destination (4 and 10), run as tiles of the
//!   destination's 40 elements around runs of 22 of the source's (its 7018-step loop cut at
//!   11): 0.73-0.93x -> 2.0-2.5x alone, 3.48x in the next sweep. Of 24 variants of its shape
//!   (2, 4 or 8 destination elements in the first loop; 5 to 20 in the last; 6000, 7018 or
//!   8192 steps; 4- and 8-byte elements) 19 regroup, and those below the loop before
//!   (0.57-0.90x) now run at 1.0-4.0x. The first version regrouped more: a destination
//!   group of 10 elements (10 source streams, which the prefetchers follow) ran 1.25x slower
//!   regrouped, and so did source groups short enough to run whole (0.7-1.1x): both are
//!   left to the builder's order. Over 2,000 more random cases (seed 7) one more plan
//!   changes (a 0.67x case to 0.82-0.91x).
//! - The tiling rule counts a row's pages (`ROW_PAGES`, 96): case 60's rows of 175 `f64`
//!   read 15 KB apart touch 176 pages, past the TLB's first levels, row after row; tiled in
//!   16s they ran 1.2-1.5x the loop against 0.84-1.07x whole over six alternating processes
//!   (the round above measured that block 0.79x tiled in one process: the processes'
//!   placement moves this case by 1.5x either way). A first threshold of 48 pages tiled
//!   rows of 61 `f64` 197 KB apart (case 741 of the seed-7 sweep) at 0.68x the loop against
//!   1.1x whole; across that sweep 13 of 14 blocks of 49 to 96 pages a row ran faster whole
//!   and 6 of 7 of 97 to 160 faster tiled, so 96 it is.
//! - A second sweep of 2,000 cases (`-- --cases 2000 --seed 7`) found what the 240 do not
//!   hold: three or four short axes around a long one. Their nests end in cubes of a few
//!   elements (`(2,2,3466,2)` of `u16`: cubes of 2 x 2 x 2), and each cube chose its path
//!   (strips, short rows, the row's length) itself, at 0.23-0.43x the loop. Cubes of at most
//!   64 elements in rows of 2 to 8 now take one loop per row length, chosen once a nest
//!   (`tiny_cubes`): 63-97 -> 22 us (the loop 20), `(2,5484,2,3)` of `u16` 106-158 -> 45 us
//!   (45), `(2,2,6957,7)` of `u8` 146 -> 76 us (100); all 13 such nests of the 2,000 faster.
//!   Where the short loops sit innermost and a long loop of strides below a line sits
//!   outside them (`(2,200,2,2,44)` of `u32`: cubes of 8 inside a loop of 44), the long loop
//!   runs innermost (`long_inside`): 171 -> 28 us (the loop 35); of the 2,000, 6 plans
//!   change, 5 faster, one from 1.49x to 1.12x the loop. That sweep gives 4.07x the loop in
//!   geometric mean after these rules, with 24 cases slower than the loop on their own, 17
//!   past 1.10x (the worst `f64` rows of 61 elements 197 KB apart: 0.55x in the sweep's
//!   processes, 1.1x in a scratch program's buffers).
//!
//! The round after (same host kind; the sweep's `--plans` lists every case's plan, so two
//! builds' plans are diffed over thousands of cases and only the cases that differ are timed,
//! each alone, the two builds alternating, five runs each):
//!
//! - Swapped rows in tiles (`swap_rows`): `rows_swap` swaps an untiled block's rows of under 8
//!   elements for its long loop, but the tiling rule had only been asked about the short
//!   rows; the long ones now are too, and a block whose long rows' lines overflow what the
//!   next row finds cached runs in tiles of the short loop whole and runs of `side² /
//!   extent` (fewer where a run's lines would leave the L1). `(8886,4)` `f64` written a line
//!   apart (seed 7, case 1474): 24.7 -> 14.4 us, the loop 19-22. Over seeds 7, 11 and 12
//!   (8,000 cases) 34 plans change: the 12 of them below the loop before (0.54-0.97x) run
//!   1.11-2.0x it, 31 of 34 are faster and 2 about 10 % slower (1.33x -> 1.23x, 1.89x ->
//!   1.72x the loop). Two shapes measured slower in tiles and are left whole: a short loop
//!   that is the consecutive channels of the long loop's pixels (planar into 7 interleaved
//!   `f64`: 0.85-1.2x the loop tiled, 1.6x whole: `interleaves`), and cubes the grouped
//!   transpose takes (3 x 26 `u16` channels in pixels of 78: 327 us in the plan's tiles, 120
//!   whole), which the grouped transpose now takes tiled or not.
//! - The 2,000-case sweep after it: 4.03x the loop (4.11x in a run before it), 27 cases
//!   slower than the loop on their own, 12 past 1.10x; its slowest cases move between runs by
//!   as much as the loop's time (case 741: 0.44x on its own in one run, 0.96x in the next),
//!   so they are judged by alternating builds, not by one sweep. Of the others, `(239,2973)`
//!   `f64` read 3 apart backwards (case 1285, the loop's order) runs 0.78-0.84x the loop in
//!   the sweep's process and 1.28x it in a scratch program's best of 30.
//!
//! The round after that (a 2-core share of an AMD EPYC; the same method: plans diffed
//! over the 2,000 cases of seed 7, the cases that differ timed alone, the builds alternating):
//!
//! - Transposes with a short side run whole (`short_whole`): a transpose block of 2-byte or
//!   8-byte (and wider) elements with one side of 16 to 64 elements runs untiled, its short
//!   loop innermost. 33 plans change. The 14 of 8 bytes each ran 0.72-1.00x their time in
//!   tiles over five runs (geometric mean 0.83x: `f64` `55 x 1344` 24.1 -> 19.2 us, the loop
//!   37; `16 x 47678` 279 -> 214 us, the loop 421; `26 x 70` blocks in a 4-loop nest 204 ->
//!   158 us); the 19 of 2 bytes 0.63-1.22x (0.88x: `u16` `18 x 31704` 162 -> 103 us; the
//!   one slower, `38 x 4249`, still 3.2x the loop). The same rule for 1- and 4-byte
//!   elements changed 48 more plans, which ran 0.69-1.62x (4-byte blocks of two loops with a
//!   long side past 800 slower: AVX2's 8 x 8 tiles move them faster than rows), so those
//!   keep their tiles.
//! - The plain loop's order as a candidate: the planner's order replaced by the order the
//!   axes come in (the plain loop's, flipped and merged as before) changes 452 of the 2,000
//!   plans; timed alone, 40 of them run more than 1.2x faster in that order (the 8-byte
//!   `(321,2,40)` of case 1360 0.51x the time, case 1048's 4-loop nest 0.64x) and 205 more
//!   than 1.2x slower (up to 8x). Taking the faster of the two on each would make those 452
//!   cases 0.96x their time in geometric mean and lift 7 of the cases below the loop above
//!   it. A model of the cache lines and pages each order touches (per operand, a level's
//!   capacity deciding whether the lines of one step of a loop are still cached at the
//!   next), fitted to the 904 timings with per-run and per-element terms, predicts them
//!   within 1.4x in median but picks the wrong order in 59 of the 234 cases where they
//!   differ by more than 1.2x (1.03x the time overall): the kernels' costs (cubes, channel
//!   shuffles, grouped tiles) decide more than the lines do. So the order stays the rule's.
//!
//! The next round (same host kind and method; the sweep now warms its buffers first, above):
//!
//! - Merge through a turn (`merge_turned`): two loops whose outer stride is minus the inner's
//!   times its extent in every operand merge once one is turned round, as NumPy's `copyto`
//!   merges them after turning every axis the destination runs backwards. NumPy's replay
//!   found the shape: `f64` `(145,73,3):(-219,3,-1)` into `(219,-3,1)` (seed 7, case 680),
//!   12-18 us against NumPy's 9.4, is one reversed run of 31,755 elements; 5.7-7.4 us now.
//!   Of 8,000 cases (seeds 7, 11 and 12) 41 plans change, 0.71x the time in geometric mean,
//!   15 more than 1.2x faster (`u8` `(5,329,2,14)` 17.4 -> 1.3 us; seed 7's case 1272, a
//!   `u8` gather 2 apart, 80 -> 8.3 us, the loop 94) and none slower when timed again (two
//!   that read 1.36x slower in one pass: 271 -> 251 and 61.1 -> 60.9 us over five).
//! - The same plans extended to a short side of 128 for 8-byte transposes (NumPy's order on
//!   `f64` `69 x 1942` written transposed and flipped, case 114: 47 us against 57-62 tiled)
//!   changed 14 plans of the 2,000 at 1.06x the time in geometric mean (case 114 itself 62 ->
//!   78 us in the sweep's medians, 46 us in a scratch program's best of 50), so the short side
//!   stays 16 to 64.
//! - Reversed rows a block at a time, in vector chunks (`reverse_rows`): NumPy's replay had
//!   `f64` rows of 16 and 19 flipped (`(34293,16):(16,-1) -> (16,1)`: 358 us against
//!   NumPy's 246 and the loop's 307) at 0.67-0.73x its time. The compiler's vector loop over
//!   a whole row kept a scalar step for its end, so rows up to 128 bytes ran element by
//!   element, and each row paid a call; now each row is reversed in 32-byte chunks (a
//!   fixed-size array reversed each), a block in one call, and rows of elements under 8
//!   bytes of 32 to 127 bytes take it in blocks of 8 rows or more (in blocks of 8, 16 and 64
//!   rows they ran 0.54-0.81x the element loops' time; of 2 rows 1.07-2.0x). Of the 2,000
//!   cases, the 258 whose innermost loop is a flip run 0.77x their time in geometric mean,
//!   92 more than 1.2x faster (the case above 106-116 us, rows of 19 `f64` 84 -> 26 us),
//!   none slower on a second timing. A first version took 8-byte rows from 32 bytes too:
//!   two sweep cases of them (rows of 4 and 8 `f64`) ran 1.1-3x slower by placement (32-byte
//!   moves splitting lines), so 8-byte rows keep the element loops below 128 bytes; its
//!   chunks as a loop over each chunk's elements moved 1-byte elements one at a time (a
//!   346,741-byte reversal 9 -> 86 us), so the chunks are arrays.
//!
//! The round after (same host kind and method):
//!
//! - Transposes whose walk stays cached run whole (`walk_whole`, called by
//!   `raw::block_tile` when the copy runs): a tiled transpose block of 2-, 4- or 8-byte
//!   primitives (not of the channel kernels' shape) whose walk, the transposes' band along
//!   the destination's rows, touches at most 512 KiB of lines runs as one block. Found by
//!   planning the 2,000 cases in the order their axes come in (the plain loop's): of the
//!   72 blocks whose loops were the same in both orders and tiled in one only, the
//!   transposes of 2 to 8 bytes ran faster whole in nearly every case (`f32` `547 x 59`
//!   1.7x the plain loop's speed-up in the sweep), bytes and blocks that are not transposes
//!   either way. As a planner rule (the plan untiled) it changed 76 plans, 0.88x their time
//!   in geometric mean timed alone; as the kernel's choice by type (the plan keeps its tile
//!   for the element loops of other types, `[u8; 4]` pixels, whose rows would leave the
//!   first-level cache), the same 76 blocks run whole, timed alone with the builds
//!   alternating (medians of five): 0.85x their time, 40 more than 1.1x faster (`f64` `28 x
//!   60` blocks of a rank-3 copy 933 -> 386 us; `u16` `8 x 896` 92 -> 38 us; `f32` `1563 x
//!   499` 265 -> 157 us), 12 more than 1.1x slower in that pass; the six slowest timed again
//!   over nine runs: five even or faster, `u32` `29019 x 23` 1.31x (its old time bimodal,
//!   141-229 us). None is slower than the plain loop. No bound on the walk changed 4 plans
//!   more (walks of 580 KB to 1.6 MB: 0.62-1.27x), so it stays at 512 KiB; blocks of the
//!   channel kernels' shape, 7 more (0.60-1.54x), so they keep their tiles. The 240-case
//!   sweep, the builds alternating twice: `copy()` 0.95x its old time in geometric mean,
//!   the sweep's plain loop 0.92x (the same code, placed elsewhere in the binary), so the
//!   loop ratio reads 4.98-5.05x against the old build's 5.17x.
//! - The longest loop into a tiny cube (`long_cube`): an untiled nest whose three innermost
//!   loops make at most 64 elements (the cube's outer loop under 16 steps) moves its longest
//!   loop of 64 steps or more to the cube's outer place. Found in the same experiment (the
//!   plain loop's order): `u16` `(2,2,3466,2)` (case 146) ran 4x faster with its 3466-step
//!   loop second, 2 cubes of 13,864 elements instead of 3466 of 8. 12 plans of seed 7's
//!   2,000 change, 14 of seeds 11 and 12; timed alone, the builds alternating (medians of
//!   five): 0.79x the time in geometric mean, 13 more than 1.2x faster, seed 7's cases 146
//!   and 397 and seed 11's 96 lifted from 0.97x, 0.79x and 0.69x the loop to 1.78x, 1.78x
//!   and 2.28x; the three that read more than 1.1x slower timed again over nine runs: 0.85x,
//!   0.93x and 1.20x (seed 12's case 857, cubes of 45 elements whose destination runs the
//!   moved loop's passing splits; 1.58x the loop). None of the 240 cases' plans change.
//! - Tried and dropped: an untiled block whose outer loop is short (under 8) and whose rows
//!   overflow the first-level cache (16 KB of lines) with that loop innermost instead (rows
//!   of a few elements, the long loop outside): 47 plans of seed 7's change, 1.22x the time
//!   (rows that a row kernel took became element rows, up to 11x slower); limited to rows no
//!   operand steps one element along, 16 plans, 0.95x, but rows of 2 to 5 elements up to
//!   1.6x slower. The rule stays as it is.
//! - Tried and dropped: the rows of case 741 (61 `f64` 197 KB apart, 0.5-0.9x the loop on
//!   their own) cut into tiles by a lower page bound (56 pages a row, the first-level TLB's
//!   64 entries less the destination's and the stack's): 2.4x slower; 12 plans changed, the
//!   others 0.74-1.15x.
//!
//! The round after (same host kind and method, now a committed script,
//! `benches/sweep_ab.py`: `builds OLD NEW --changed` diffs two sweep binaries' plans and
//! times the cases that differ, alone, the builds alternating; `numpy BIN TSV --only ...`
//! times `copy()` alone against NumPy's `copyto` alone, alternating; NumPy's replay run
//! three times, the cases behind it timed that way to tell the steady from the noisy):
//!
//! - Strided element rows of 9 to 16 elements run unrolled (`strided_block`), as rows of 2
//!   to 8 did: each row one straight run of moves, not a loop of four and its tail. The one
//!   case of the 240 behind NumPy in every replay, `u32` `(393,11,4,2)` read 15 apart in rows
//!   of 11 (case 207), ran 24.4 us against NumPy's 19.5; now 19.0-19.5. Of seed 7's 2,000,
//!   the 68 whose innermost loop is such a row, timed alone with the builds alternating
//!   (medians of five, two passes): 0.81x and 0.82x the time in geometric mean (`u8` rows of
//!   10 written 2 apart 12.5 -> 4.9 us). These cases move by up to 1.7x between processes
//!   (where the buffers fall), so a case can read 1.4x slower in one pass and faster in the
//!   next. The moves by pointer bumps instead of offsets: 0.83x, the same within that
//!   noise; rows past 16 in chunks of 8 and a row of the rest: 264 cases at 0.98x, spread
//!   0.39-1.73x. Both dropped.
//! - The block's face, mirrored (`face`): a destination stepping one element forwards along
//!   one loop while a source steps one backwards along the other has that loop turned, so
//!   the transposes take the block. Of seeds 7, 11 and 12, 175 plans change, 0.62x their
//!   time in geometric mean (119 more than 1.1x faster, `u32` `(212,293)` read backwards
//!   21 -> 6.5 us); the slowest, timed again: blocks of 50 to 182 elements that now pay a
//!   transpose's set-up (`f64` `10 x 5`: 1.9x) and thin blocks whose destination now steps
//!   backwards (`5 x 6841`: 1.23x). Guards tried on paper against these 175 timings: only
//!   the outer loop turned would lose the thin blocks' best gains (`4 x 3494`: 0.22x), only
//!   blocks the transposes take whole likewise; the rule stays whole.
//! - Blocks handed to the block kernel find their kind once per block shape, and the
//!   channel kernels' padded reach is a compile-time constant: 19% of a 2-channel `u16`
//!   deinterleave in blocks of 16 pixels (seed 7, case 1046, 0.70x NumPy), now at NumPy's
//!   speed (313 -> 219 us, NumPy 221); over 154 sampled cases, 0.996x.
//! - Tried and dropped: rows of consecutive elements copied by the C library's `memmove`
//!   (seed 7's case 997, `f64` rows of 405, 0.36x NumPy timed alone, whose own loop copies
//!   them) in 1 KiB pieces wherever the two rows are not 64-byte co-aligned: 1.5x slower; in
//!   a 16-byte vector loop: 0.74x on that case, 1.72x slower on another of long rows; and
//!   NumPy's turn of every loop the destination runs backwards, as a rule for the innermost
//!   loop (a destination stepping -2 or less, no source stepping one): 35 plans of seed 7's
//!   2,000 at 1.04x, up to 1.6x slower; without the second condition, 37 at 0.95x, up to
//!   1.37x slower. None kept (but see the next round: those copies were timed unsettled).
//!
//! The next round, on the same host kind:
//!
//! - The sweep settles each method before timing it. The cases still behind NumPy in the
//!   last round (seed 7's 205, 997 and 454, megabytes each way) were a timing artefact in
//!   large part: such a copy after another method's runs over other buffers starts 3-5x
//!   slower and takes 5 to 12 runs to get its lines back into the last level cache (205:
//!   1519, 1242, 925, 756, ... 264, 240 us; with a 4.3 MB `copy_from_slice` between runs,
//!   1200-1300 us throughout; sleeping after the fill changes nothing), and the sweep timed
//!   the copy after one untimed run while `sweep_ab.py numpy` timed `copyto` on buffers it
//!   kept. Settled, 205 went from 0.30x to 0.67x NumPy and 997 from 0.41x to 0.80x, 102
//!   and 653 ran 2x faster than NumPy; in a harness of its own (the case's two buffers, 40
//!   rounds), every way of moving 205's rows (`copy()`, `copy_from_slice` a row, an element
//!   loop a row, chunks of four) took the same 220-450 us, moving together with the
//!   machine, against NumPy's 250-540 us. Seed 7's 1294 and 653, below the loop alone: in
//!   that harness the loop in each of three orders (the shape's, the destination's, the
//!   source's) ran 0.9-1.15x `copy()`'s time on 1294 and 1.1-1.8x on 653.
//! - Rows written forwards (`forwards`, in `face`): the innermost loop turned where the
//!   destination steps -2 or less and no source +1, the rule the last round dropped, timed
//!   settled this time. 107 plans of seeds 7, 11 and 12 change: 0.97x, 0.99x and 0.99x the
//!   time in geometric mean (medians of five rounds); seed 7's case 454 (`f64` rows of 29
//!   written 2 apart backwards from a source 36,265 apart) 0.54x and 0.84x in two passes
//!   (in its own harness 315-435 us against 204-216 us; NumPy 242-341 us), seed 7's 1235
//!   0.56x / 0.94x, seed 12's 1298 0.64x / 0.93x; the five slowest of the first pass
//!   (1.2-1.9x) 0.97-1.05x over nine rounds. Kept.
//! - Figures, settled: the 240 cases in two runs, each replayed with NumPy: 5.06x and 5.38x
//!   the loop, 2.50x and 2.12x NumPy, 0-2 past 1.10x the loop in the sweep (alone: case 79
//!   0.99x, 178 1.65x), 8 and 34 past 1.10x NumPy (the machine at 1.03x and 0.99x); seed 7's
//!   2,000: 4.81x the loop, 2.06x NumPy, 17 below the loop in the sweep, 8 past 1.10x.
//! - Left: seed 7's case 741 (`f64` rows of 61 read 197 KB apart, written 2 apart; 0.70x
//!   the loop alone) runs in the loop's own order, and in a harness of its own (the case's two
//!   buffers, methods in turn, medians) the bounds-checked index loop took 430-670 us, the same
//!   loop with `get_unchecked` 1000-1230 us, the crate's `copy()` 830-1400 us and a pointer
//!   loop unrolled by 1, 4 or 8 (loads of a group first or not) 450-1750 us, each moving with
//!   the destination's offset by 8 or 32 elements (the bounds-checked loop barely), and a
//!   pointer loop kept from unrolling (its counter through `black_box`) ran as the
//!   bounds-checked one. Minutes later every one of them ran alike (`copy()` 441-540 us, the
//!   bounds-checked loop 470-533, the unchecked 415-767). Unrolled loops losing only at
//!   times, with the destination's offset, points at the machine (false store-to-load
//!   dependences, 4 KiB aliasing, or a busy sibling thread's share of the load and store
//!   queues), not at the plan; left for a quieter host. 1504 (0.74x), 653 and
//!   1294 (0.81x) stay below the loop alone; in their own harness the loop in three orders
//!   ran 0.9-1.15x `copy()`'s time on 1294 and 1.1-1.8x on 653.
//! - Tried and dropped: `forwards` for a destination stepping -1 too (no source +1): 26
//!   plans of seed 7 change, 1.04x the time, 1504 itself 1.15x slower and case 1513 4.2x
//!   (its element rows then read the source backwards).
//!
//! The next round, on the same host kind:
//!
//! - Channel blocks turned take the channel kernels (`turned_channels` in `raw/mod.rs`). The
//!   loop order weighs strides, and a planar -> interleaved block of 9 to 16 channels of 4
//!   bytes comes out with its channel loop inside (the pixel loop weighs `2 · 9 + 1 = 19`
//!   against the channel loop's `2 + 16`), a block the channel kernels did not take that way
//!   round: the transposes took it in tiles. Found by profiling seed 7's case 1567 (`u32`
//!   `9 x 164` blocks): 77 us in `transpose_avx2` against 32 us in the channel kernel with
//!   the loops the other way. Alone, the builds alternating (medians of seven): 1567 0.49x the
//!   time, seed 11's 646 and 1743 0.34x and 0.38x, seed 12's 1058, 1796 and 1530 0.40x, 0.46x
//!   and 0.74x, seed 2026's 437 0.46x; none of the 20 such cases of the four seeds more than
//!   1.08x slower (a 6 us copy). The channels bench's `f32` planar -> interleaved copies of 9
//!   to 16 channels (262,208 pixels) are such blocks too: in a harness of their own, two runs
//!   alternating, 0.43-0.63x `copy_from_slice`'s speed before and 0.63-0.93x after.
//! - Transposes of 8-byte elements with a short side of 8 to 15 run whole (`short_whole`,
//!   whose bound for them was 16): seeds 7, 11 and 12's 42 plans that change, alone with the
//!   builds alternating (medians of five), 0.92x the time, 18 more than 1.1x faster (seed 7's
//!   `f64` `8 x 4402` 0.52x, seed 11's 1946 0.62x, seed 12's 1730 0.62x); the four past 1.1x
//!   in that pass ran 1.02-1.11x over nine rounds. A bound of 4 changed 78 plans, 0.94x: the
//!   sides of 4 to 7 at 0.98x, so it stays at 8, two rows of the 4 x 4 micro-kernel.
//! - Tried and dropped: tiling a block with a short loop from 64 KiB of lines a row (the
//!   bound is 256 KiB, `ROW_CACHE_BYTES`), so that the short loop's passes find the row in
//!   the first-level cache: seed 7's 33 plans that change 1.03x, seed 11's 28 0.79x. The
//!   losers are the channel kernels' rows (`u8` rows of one channel gathered 3 and 6 apart,
//!   cut into tiles of 64: 3.7x and 2.7x); sparing rows of one channel (either side stepping
//!   one element, the other 2 to 16 of at most 16 bytes, elements of at most 4 bytes), 28, 26
//!   and 23 plans of seeds 7, 11 and 12 ran 0.94x, 0.88x and 1.01x, with rows of 8-byte
//!   elements one side consecutive now losing (seed 12's `1 x 448`-strided rows 2.2x, seed
//!   11's rows 6 apart 1.6x). Not kept.
//! - Tried and dropped, toward a priced loop order: the source-led order (sources weighed `K`,
//!   the destination 1, the mirror of the rule above) against the destination-led one. Of seed
//!   7's 2,000 cases, 528 plans change; timed alone, the builds alternating (medians of three),
//!   1.074x the time in geometric mean, and the better of the two orders case by case would be
//!   0.93x. Timed again (five rounds), the 25 best of that pass mostly fell back toward 1.0x
//!   (607 0.39x -> 0.88x, 203 0.48x -> 1.11x) while the 25 worst held (152 4.2x -> 4.4x, 1248
//!   3.1x -> 3.5x). Steady winners: 1567 (above; now taken by the channel kernel), 242 (`u32`,
//!   rows gathering 114 lines 29 KB apart that the next loop advances 8 bytes: 0.42x), 330
//!   (`f64`, six passes over a 132 KB source from the second-level cache: 0.56x), 1855, 331, 79,
//!   102, and 1504 (0.57x, 0.83x; the case below the loop: in a harness of its own the
//!   destination-led order took 1.66 ms, the source-led 1.11-1.19 ms, the loop's order 1.2-1.35
//!   ms). A cost model chose between the two: line fetches per operand with reuse in a first-
//!   and a second-level cache (8-32 KiB, 256 KiB-1 MiB), the destination weighed 1 or 2, a
//!   per-run cost, and the source-led order taken only where both orders' innermost blocks
//!   are of one kernel class (rows, transpose block, element loops) and its price is under
//!   0.5-0.8 of the other's. Fitted over 288 parameter sets on the first pass, the best took
//!   121 plans; timed again (five rounds) they ran 0.985x the time, 33 more than 1.1x faster
//!   and 28 more than 1.1x slower (up to 2.2x). Line counts do not tell these apart: the
//!   losers give up the transposes' vector moves (152: single-byte stores a line apart, all
//!   in the first-level cache, 4.3x the transposes' time) or scatter stores the model counts as
//!   cached (628: 0.12 of the price, 1.29x the time), and the winners win on load latency
//!   (1504's rows gather 44 lines a page apart, each an eighth used per visit), which counts no
//!   lines. A narrower feature (a destination row of 16 or more elements gathering its source a
//!   page or more apart, the next loop stepping less than a line): 96 plans at 1.08x. None
//!   kept: the loop order stays the destination-led rule, and the model that prices it needs
//!   the kernels' costs and the loads' latency, not line counts alone.
//!
//! The next round, on the same host kind (seeds 7, 11, 13, 17, 19, 23, 29, 31, 37 and 41,
//! 2,000 cases each; seed 12 draws seed 13's cases):
//!
//! - A small cube's strip (`raw::cube_strip`: the third loop run inside the second, a strip of
//!   its steps at a time, so the second loop's next step finds the strip's lines) is bounded by
//!   the first-level cache's sets its rows map to, for an operand whose lines the second loop
//!   reuses (its steps at most 16 bytes apart, at least 8 of them): steps of the third loop
//!   `2^z` bytes apart come back to `64 >> (z - 6)` of its 64 sets, which hold 8 lines each.
//!   Seed 13's case 211 (`u32` `(5,3081,32)`, 5 planes 788 KB apart into pixels 15 apart) ran
//!   strips of 48 rows of 5 lines 256 bytes apart, 240 lines in 16 sets reused by 32 steps:
//!   0.42x the plain loop alone, 0.78x alternating (587 against 458 us); in strips of 25,
//!   312 us. The bound never leaves fewer than 8 steps: seed 7's case 1390 (rows of 17 lines
//!   47 KB apart) ran strips of 3 at 950 us against 330 us for strips of 5 to 14, and shorter
//!   strips of a second loop of 2 to 4 steps ran up to 1.6x slower (the few steps cannot repay
//!   what they save). Of the ten sweeps, 14 strips change; alone, the builds alternating
//!   (medians of seven): 0.83x the time in geometric mean, 211, seed 17's 1578 (1560 -> 860
//!   us, the loop 1386) and seed 41's 1950 (226 -> 153 us, the loop 235) lifted above the
//!   loop, seed 37's 969 0.66x, two slower (seed 17's 1222 1.39x, 109 us against the loop's 166;
//!   seed 37's 381 1.19x, 3.2 ms against 4.8). Four of the fourteen are from the held-out seeds
//!   29-41, chosen after the rule: 0.86x.
//! - Tiles whose rows are a short loop whole (fewer than 8 steps: `run_side`) hold as many
//!   elements as a square tile, in longer rows: tiles of 2 rows of 64 `u8` (2 x 16 of `f64`)
//!   paid a block's set-up per 128 (32) elements, where NumPy's loops ran the long loop whole
//!   (seed 7's 1480, `f64` 2 rows of 195,365 read 4 apart: 0.57x NumPy alternating). The first
//!   version, for every tile with a side under its square side: of seeds 7, 11 and 13's 206
//!   plans that change, 0.95x the time, those of rows 8 and more apart from the side 1.01x
//!   with losers to 1.5x (tiles of 14 x 18 where 14 x 16 had been); rows under 8 only: 0.89x;
//!   less two interleaved channels (the channel kernels' blocks, 1.1-1.2x slower long) and
//!   `f64` rows gathering the source 48 to 336 bytes apart (1.3-1.7x slower in runs of 42 to
//!   128 than of 16, while `u8` to `u32` gathers gained, and `f64` ones 32 bytes apart or
//!   less: 1480 0.65x): the 86 plans of eleven sweeps (seeds 7 to 43) that change, 0.85x (seed
//!   23's 572 0.23x, seed 19's 1310 0.30x, seed 37's 315 0.46x, seed 7's 78 0.48x, seed 11's
//!   1091 0.49x); the slowest at five rounds, timed over nine, 0.78-1.03x.
//!   Of the 240-case sweep, two plans change (0.97x, 1.07x). Interleaved channels whose
//!   pixels run backwards in one operand are no channel kernel's block, so they take long
//!   tiles too: seed 13's 847 (`f64` stereo read backwards into planes, 31 us in tiles of 2 x
//!   16 against NumPy's 12) 0.53x, the 14 plans of eleven sweeps that change 0.60x (seed 31's
//!   1831 0.27x); the one slower in that pass (seed 11's 336, 1.23x) 0.52x over nine rounds.
//!   Tried and dropped: runs of 32 (twice the side) for the `f64` gathers the rule leaves at
//!   16: the 42 plans of nine sweeps that change, 0.97x in geometric mean, but seed 37's 265
//!   1.45x, 1152 1.33x and seed 13's 1317 1.30x (below the plain loop).
//! - Blocks whose rows each read more than 16 source elements a page or more apart, the next
//!   row reading on less than a line from each, run in strips of 8 rows along the whole outer
//!   loop (`stream_strip`): untiled, a row read one stream per element, more than the
//!   prefetchers follow. Seed 7's 1504 (`u32` rows of 44 read 63 KB apart, 7933 rows 8 bytes
//!   on) ran 2.7 ms untiled against the loop's 2.1 (its order reads 3 streams), 1.3 ms in
//!   strips (nine rounds alternating); in a harness of its own, strips of 2 to 16 rows took
//!   0.5-0.7x the untiled time and tiles of 16 x 16 1.1-1.4x, as a tile stops each stream
//!   before its prefetch pays. The first version, every such block: seeds 7, 11 and 13's 93
//!   plans that change, 0.99x the time in geometric mean; its losers were streams under
//!   1,024 bytes (40 plans 1.14x, most along a loop of 2 to 9 steps: seed 11's 308 2.8x) and
//!   destinations written rows side by side with gaps between the elements (12 plans 1.20x,
//!   seed 7's 454, `f64` rows of 29 written 2 apart, 2.5x), so the rule leaves both. The 41
//!   plans left, 0.83x; seeds 17, 19 and 23, drawn after the rule, 47 plans 0.91x (seed 23's
//!   226 0.25x, seed 19's 163 0.58x); the slowest over nine rounds seed 19's 751 (`f64` rows
//!   of 25, 1.5x, 50 -> 76 us against the loop's 111), 421 (`u8`, 1.4x) and seed 11's 655
//!   (1.18x). No plan of the 240-case sweep changes. The strips then came before the rule
//!   of a row's pages, which had cut such blocks of more than 96 pages a row into tiles of
//!   16 x 16: seed 29's 1916 (`f64` rows of 268 read 105 KB apart) ran 0.5 to 2.6 ms from one
//!   process to the next, and so did the loop (0.46 to 3.5), the loop faster in most; in a
//!   harness of its own, from a flushed cache, strips of 4 ran 0.75x the tiles' time and the
//!   untiled order 0.93x. Over nine alternating rounds 1916 ran 1.5 ms in tiles, 0.5 ms in
//!   strips, against the loop's 0.6. The 42 plans of seeds 7, 13 and 29 that change: 0.94x
//!   (seed 13's 1755 0.73x, lifted above the loop; seed 29's 1136 0.62x), the slowest over
//!   nine rounds seed 29's 884 (1.32x, 1.4 -> 1.8 ms against the loop's 5.2) and seed 7's
//!   1193 (1.16x); one plan of the 240-case sweep, 0.87x. Seeds 11, 17 and 19, drawn after
//!   the change: 34 plans 0.91x (seed 17's 942 2.6 -> 1.3 ms against the loop's 2.0, 1147
//!   and 1252 also lifted above it); the slowest over nine rounds seed 19's 128 (`f64`
//!   rows of 263 read 63 KB apart, 47 rows 24 bytes on: 1.21x, below the loop before and
//!   after, 1.7 and 2.1 ms against 1.5) and seed 17's 54 (1.13x).
//! - Small cubes whose rows run on (rows of consecutive elements in both operands, each
//!   within 256 bytes of the last) keep their order where the second loop has 32 steps or
//!   more (`cube_strip`), rather than strips of the outer loop: seed 29's 973 (`f64` rows of 7
//!   written 56 and read 168 bytes apart, 117 rows a step of 1106) ran 2.4 ms in strips of 64
//!   against the plain loop's 1.4 (the loop's order, one stream an operand), 1.1 ms in its
//!   order. For every such cube (111 in seeds 7, 13 and 29): 1.08x; those of fewer than 32
//!   rows 1.20x (seed 29's 1221, 2 rows of 8 `u8`: 3.7x, a call per 16 elements where a
//!   strip's call moves 1,024), those of 32 or more 0.85x (33 cubes), and 0.78x on seeds 11,
//!   17, 19 and 23 (33 cubes, seed 19's 778 0.61x over nine rounds, lifted above the loop).
//!   Slowest over nine rounds: seed 13's 1770 (`f64` rows of 2 written 64 bytes apart) 1.5x,
//!   seed 29's 130 1.3x. One cube of the 240-case sweep changes (193: 1.06x over nine).
//!   Rows of strided elements that end before the next row starts (`|b stride| · b extent
//!   <= |a stride|` in each operand) joined later: seed 19's 1964 (`f64` rows of 2 written
//!   16 bytes apart backwards, each 64 bytes on from the last; 426 steps of 144 rows) ran
//!   213 us in strips of 64, against the plain loop's 147, and 52 us in its order. The cubes
//!   this adds (28 in seeds 7, 11, 13, 17, 19 and 23, timed alone with the builds
//!   alternating, medians of five): 0.83x the time in geometric mean, the slowest seed 7's
//!   703 (`f64` rows of 2 written 24 bytes apart, 144 bytes on) 1.39x over nine rounds,
//!   still 2.6x faster than the loop (seed 17's 4, 1.34x over five rounds, 0.85x over
//!   nine). On the power-of-two cases (seeds 7 and 13): 11 cubes at 0.61x, none slower;
//!   seed 13's 823 83 -> 12 us and seed 7's 411 45 -> 9 us, lifted above the loop (19 and
//!   17 us). The 240 cases' 111 and the power-of-two 240's 116: 0.91x and 0.84x.
//! - A long loop moves inside a block of a few elements (`long_inside`) only where its
//!   strides are at most half a line (they were below a line): seed 29's 1272 (`u32`, rows
//!   of 1153 written 56 and read 48 bytes apart, outside them 2 far steps of 4 channels)
//!   ran 14.2 us in those rows, against the plain loop's 9.8, and 5.7 us with the channels
//!   inside. The 25 plans it changes in ten 2,000-case sweeps (seeds 7-41): 0.68x the time
//!   in geometric mean, none slower; seed 29's 957, 504 and 1796 and seed 17's 1818 also
//!   lifted above the loop. Tried alongside and dropped: pricing a destination stride of a
//!   page or more as two lines in the loop order (the prefetchers stop at a page): seed
//!   29's 975 (`f64` rows of 1303 written 5 KB apart, one element a line) 401 -> 81 us,
//!   NumPy 116, but of the 46 plans it changes 0.97x in geometric mean with losers to 2.2x
//!   (902, far steps of 4 x 17 blocks moved outside, below the loop); pricing every
//!   operand's such strides, 177 plans at 1.04x.
//! - The grouped transpose in bands where its scattered columns crowd a few sets
//!   (`crowded`, `band_rows`): seed 31's 1874 (`u32` `(4,20,4096)` deinterleaved from 20
//!   channels into planes 16 KiB a row: 80 columns in one set) ran 580 us, 3.4x the plain
//!   loop, each band of 8 rows writing 32 bytes of all 80 columns' lines and the next band
//!   finding them evicted; in bands of 80 rows of 1 KiB a column, column tile by column
//!   tile, 41 us. Bands of 16 rows (a line of each column) gave 318 us, of 64 and 256 rows
//!   46 and 36 us. Bands sized by the scattered side alone lost where the merged rows share
//!   a set (power-of-two seed 13's 1040, 64 rows 32 KiB apart: 95 -> 827 us), hence
//!   `band_rows`' bound; bands for columns merely over one set's ways (8) lost 1.14x on
//!   small copies of 300-500 spread columns, hence 16 a set; the set count from a pass over
//!   the table cost 0.3-0.4 us a copy (small copies 1.15x), hence from the steps; and the
//!   banded loop inlined beside the row-by-row one slowed short cubes 1.3x (seed 31's
//!   1146), hence not inlined. Grouped cubes of three random 2,000-case sweeps (seeds 7, 29
//!   and 31, 97 cubes, medians of three, the slowest retimed over seven to nine): 0.94-1.03x
//!   per seed; of two power-of-two sweeps (40 cubes): 0.63x and 0.84x (seed 13's 251, 60,
//!   829, 402 and 1269 at 0.10-0.20x; seed 7's 1816 189 -> 21 us).
//! - Small cubes keep their order where strips would cut their calls at most 3 times
//!   (`cube_strip`: `c.extent <= 3 · a.extent · ⌈c.extent / steps⌉`) and their rows are at
//!   most 32 bytes, unless the steps of `a` reuse an operand's lines or some operand's lines
//!   overflow their cache sets (rows of `b`, or the destination's rows of `a`). Strips were
//!   taken wherever `a` was the shorter loop, though their point is fewer, longer calls: seed
//!   37's 999 (`f64` 2675 steps of 11 x 5 x 4, rows of 4 read 24 bytes apart, the source one
//!   stream with gaps) made 5 calls of 11 rows a step, writing each destination block in 5
//!   passes, and ran 1.4 ms against the loop's 0.74; in its order (11 calls of 5 rows) 0.72
//!   ms. Drawn from 496 cubes of seeds 7, 13, 29 and 37 timed strips against order (three
//!   rounds): of single features the calls' ratio separated best (0.974 of the time in
//!   geometric mean at a ratio of 3.4, against 0.948 for the per-cube best); with the rows'
//!   bound, no cube past 1.25x. Timed on eight sweeps (seeds 37, 7, 11, 19, 23, 13, 29, 41;
//!   seven rounds), the 49 cubes the rule orders: 0.78-0.98x per sweep, the slowest seed 13's
//!   111 1.23x (1.6x faster than the loop). Without the reuse guard, the cubes of seeds 11,
//!   19 and 23 (drawn afterwards) had losers to 1.54x (seed 19's 189, `u8` rows read 70 KB
//!   apart from lines 139 steps of `a` share); without the sets' guards, power-of-two cubes
//!   whose destination rows of `a` are 32-128 KiB apart ran up to 2.6x slower (2026's 1188).
//!   Tried first and dropped: order wherever the destination's `a × b` block is one run
//!   (seeds 37, 7, 13, 29: 0.97, 1.00, 1.05 and 1.14x, losers to 2.1x).
//! - Blocks of one tile's elements or fewer are tiled where their rows' lines overflow
//!   their sets (`tile_worth`: both loops long, rows longer than a tile's side), as larger
//!   blocks already were. The power-of-two 240's 72 (`u8` 32 rows of 128 read 1 KiB apart,
//!   2 bytes on: 128 lines in sets that hold 32) ran 26 us against the loop's 24, each row
//!   missing every line the last row left; in tiles of 32 x 32, 7.8 us. 77 (`f64` rows of 32
//!   read 32 KiB apart, one set) 73 -> 35 us against 75. Of six 2,000-case power-of-two
//!   sweeps (seeds 7, 11, 13, 17, 19, 23; five rounds) the 26 plans that change: 0.50-0.75x
//!   per sweep, 0.13-1.09x per plan, five more lifted above the loop (seed 23's 451 1155 ->
//!   150 us against 355, seed 19's 1683 1096 -> 297 against 434). No plan of the random
//!   sweeps changes (seeds 7, 13, 29, 37).
//! - Rows of elements under 8 bytes that overflow their sets are tiled where they are no
//!   longer than a tile's side too (`cuts_rows`): a tile's row there is the lines the sets
//!   hold (`set_room`), so it is shorter than the row, which the side alone did not say. The
//!   power-of-two 240's 95 (`u16`, 2048 rows of 32 read 4 KiB apart, one set of 8 lines, 2
//!   bytes on, written every other element) ran 241 us against the loop's 197 and NumPy's
//!   174; in tiles of 32 x 8, 47 us. Of five 2,000-case power-of-two sweeps (seeds 7, 13,
//!   11, 17, 19; five rounds) the 59 plans that change: 0.29-0.39x per sweep, the slowest
//!   0.76x, none below the loop (seed 7's 632 101 -> 25 us against 51, seed 11's 1684 946 ->
//!   110 against 828). No plan of the random sweeps changes (seeds 7, 13, 23).
//! - A long loop joins the innermost rows over the short loops between them where the rows'
//!   lines crowd a few sets (`long_over_short`): seed 13's power-of-two 1508 (`f32` `(2,
//!   256, 256)`, rows of 256 read 4 KiB apart, the 2 steps outside them 4 bytes on, the 256
//!   beyond 8) missed the first-level cache on every read, 489 us against the loop's 258;
//!   with the 256 steps in the block, in strips of 8 rows, 87 us. Of six 2,000-case
//!   power-of-two sweeps (seeds 7, 13, 11, 17, 19, 23; five rounds) the 60 plans that
//!   change: 0.23-0.45x per sweep, 21 lifted above the loop (seed 7's 962 107 -> 15 us
//!   against 100), the slowest seed 17's 79 2.4x and seed 13's 1269 1.6x (blocks of 2 and 4
//!   short rows the cube strips already ran at 2.7-5x the loop; still 2.2x and 2.1x it).
//!   At any set room the rule changed 10 plans of three random sweeps, 8 of them 1.3-2.4x
//!   slower (rows 2 or 4 lines apart times an odd number, whose lines spread over 16 or 32
//!   sets): bounded at 8 sets, 5 plans of eight random sweeps (seed 11's 557 0.48x, seed 13's
//!   1874 1.57x, 8 -> 13 us against the loop's 48). The first version refused tiles of
//!   8-byte rows longer than their sets hold and tiles whose columns overflowed theirs in
//!   any operand, and was asked only before the tiling moved loops; seed 7's 838 (`f64`
//!   rows written 16 KiB apart, 0.31x the loop) fell through all three. Rows clamped,
//!   columns bound only where they come back to lines (`columns_fit`), and asked again on
//!   the nest left untiled: 57 more plans of the six sweeps at 0.36-0.64x per sweep, none
//!   below the loop (838 827 -> 179 us against 267, seed 13's 1959 222 -> 36 against 94),
//!   the slowest seed 11's 264 and 17's 1944 at 1.47x. Bounding the strips' columns as well
//!   (a strip runs a whole loop) refused the rule's best cases: 1508 back at 5.6x. Asked a
//!   third time, where the tiling's tile has the rows of a short loop (seed 7's 477, `f64`
//!   rows written 16 KiB apart in tiles of 2 x 128, 0.43x the loop): 14 plans of the six
//!   sweeps at 0.73x in geometric mean, 477 (3.5 -> 1.3 ms against 2.1), seed 13's 1149
//!   and seed 17's 667 among five lifted above the loop; the slowest seed 17's 1711 2.6x and
//!   1839 1.9x (rows 512 bytes apart, 64 lines of sets; still 3-4x faster than the loop).
//! - Where no long loop joins them, long rows that a swap made of short ones (`rows_swap`)
//!   take the short loop back inside when they crowd a few sets, 64 lines or fewer, in an
//!   operand the short loop steps within a line (`short_back`): seed 13's power-of-two 1497
//!   (`f64` rows of 256 written 8 KiB apart, one set, the 4 steps outside them one element
//!   on) missed every destination line, 419 us against the loop's 252; with the 4 steps
//!   inside, 76 us; in tiles cut to the set's 8 lines, 222. Of seven 2,000-case power-of-two
//!   sweeps (seeds 7, 13, 11, 17, 19, 23, 29; three rounds) the 39 plans that change:
//!   0.46-0.92x per sweep, 15 lifted above the loop (seed 13's 1154 2,217 -> 421 us against
//!   2,264, seed 11's 1081 797 -> 152 against 802, seed 29's 1160 65 -> 24 against 31), seed
//!   23's 328 still below it (917 -> 366 us against 241), the slowest seed 29's 1978 1.25x
//!   and seed 17's 1583 1.22x (2.2x and 2.9x faster than the loop). Bounded at one set (4
//!   KiB), 10 plans at 0.13-1.22x; each doubling of the bound to 8 sets lifted more (two
//!   sets: 8 plans, all faster; four: 2, 0.39x and 0.42x; eight: 9, one 1.24x). Never
//!   swapping rows that overflow their sets at all changed 85 plans of five sweeps and lost
//!   the long loops that `long_over_short` joins (seed 7's 838 2.0x, below the loop).
//!   3 plans of four random sweeps change (seed 13's 585 58 -> 28 us against 56).
//! - A block of one tile or less (which `rows_swap` leaves to the block kernels) takes its
//!   short loop back inside the same way where loops outside repeat it and its rows hold more
//!   than twice the lines their sets keep (`small_back`): seed 11's power-of-two 409 (`u16`,
//!   2 rows of 256 read 8 KiB apart, 1,024 times) 1,484 -> 332 us against the loop's 558;
//!   131 (`f64` rows of 64 read 8 KiB apart under 2 steps 16 bytes on) 42 -> 20, still below
//!   the loop's 15. Of eleven 2,000-case power-of-two sweeps (seeds 7, 11, 13, 17, 19, 23;
//!   drawn after the bound, 29, 31, 37, 41, 43) the 35 plans that change: 0.19-0.77x per
//!   sweep (medians of five, builds alternating), ten lifted above the loop (seed 23's 1736
//!   1,509 -> 400 us against 783), the slowest seed 29's 105 1.21x (`f64` rows of 32 read 64
//!   KiB apart, 4 MB; 1.27x faster than the loop). At any overflow (rows of 16 in one set,
//!   twice its lines, too), seed 37's 1471 (`u32`) ran 2.0x slower and below the loop, seed
//!   13's 618 and seed 7's 1867 (`f64`) 1.58x and 1.23x. No plan of the random sweeps or
//!   either 240 changes, nor of the table's rows.
//! - Tried and dropped: a long loop that steps within a line, outside loops whose lines
//!   crowd a few sets in that operand (64 lines or fewer kept, more in the group), moved
//!   just outside a short innermost loop, as the plain loop runs it (seed 11's 528 and 1041,
//!   rows of 2 under 16-32 steps read 4-16 KiB apart: 400 -> 175 us and 412 -> 86 against
//!   the loop's 209 and 242; seed 7's 1298 1,019 -> 196). 73 plans of the power-of-two 240
//!   and seeds 7-23 changed; seeds 7, 11 and 13's 34 ran 0.96-1.00x per sweep, seed 13's 757
//!   7x and seed 11's 1063 6x slower (the moved loop split a transpose's block or a run).
//!   Keeping such blocks together left 19 plans of seeds 7-31, still up to 2.4x slower (seed
//!   29's 105, seed 17's 76), five below the loop (medians of three, builds alternating).
//! - Tried and dropped: `tile` leaving a source's fastest loop where it is when its rows
//!   (up to a tile's side) would evict the lines a loop it passes comes back to (`evicts`)
//!   and the innermost loop is short (under 8 steps). Seed 11's power-of-two 1757 (`u8`, 32
//!   rows written 4 KiB apart inside 4 x 512 steps of 1 and 8 bytes) 236 -> 55 us against
//!   the loop's 87, seed 11's 150 743 -> 282. But 11 to 27 plans change in each of the
//!   eleven 2,000-case power-of-two sweeps (seeds 7-43; none of the random ones or either
//!   240). Seed 11's 19 ran 1.13x and seed 7's 17 1.15x in geometric mean. Seed 11's 1331 ran
//!   5.2x slower: left in place, its source's 128 rows crowd one set in turn. Seed 7's 477
//!   and 838 ran 3.3x and 2.8x slower, below the loop: they lost their tile from
//!   `long_over_short`'s second asking. Without the short-innermost bound, twice the plans
//!   change. Counting lines does not tell 1757 from seed 11's 173 (1.56x slower): both trade
//!   the same number of first-level misses, stores in one set for loads in a stream (medians
//!   of three to five, builds alternating).
//! - A probe toward the cost model: the plain loop's own order (no reorder, no tiling, no
//!   group, the same kernels) as the only plan, against the head on the power-of-two cases
//!   still below or level with the loop (medians of five, builds alternating):
//!   - Above or level with the loop in that order: seed 7's 310 72 -> 34 us (loop 42), 334
//!     151 -> 82 (158), 378 352 -> 247 (274) and 1006 133 -> 103 (151); seed 11's 1041
//!     409 -> 87 (242), 1757 238 -> 62 (87), 528 400 -> 173 (207) and 680 142 -> 120 (163).
//!   - Still below the loop: seed 11's 1838 (143 -> 96, loop 88), 459 (27 -> 25, loop 23) and
//!     131 (20 -> 24, loop 15), and seed 7's 1261 (64 -> 50, loop 44).
//!   - Seed 7's 1864 (`u32`, 2-element rows read 2 MiB apart, 32 steps 32 KiB apart
//!     outside them, 2,048 steps 16 bytes back outside those) is planned in that order
//!     already: 787 against the loop's 551 us. Its cubes run in strips (`cube_strip`: the 32
//!     steps under each of the 4 rows), another order. Without strips it ran 560-600 us.
//!     The plan's order written out by hand ran 480-500 us (one program, three runs).
//!   - Seed 7's 1261 is bimodal from process to process, both times in the same process:
//!     50 against the loop's 44 us in some, 60 against 69 in others.
//!
//!   As the only order, the plain one runs the power-of-two 240 at 4.85x the loop (the
//!   head 6.05x, one run each), 13 cases below it. So the model's first choice is between
//!   the two orders, priced, not the plain order alone.
//! - Tried and dropped: no strips for cubes like 1864's. With strips off everywhere, about
//!   320 of each 2,000-case power-of-two sweep's cases (seeds 7 and 11) ran more than 1.15x
//!   faster and about 600 more than 1.15x slower (one run each, against the plain loop of
//!   the same run). Off only where a strip's rows crowd their sets in an operand whose second
//!   loop steps a line or more, the split was the same. Capping the strip at what the sets
//!   keep, as the reuse case does, also split the same way.
//! - Byte transposes whose destination's rows crowd their sets run whole (`rows_crowd`, in
//!   `walk_whole`; this round's change). Found by planning the power-of-two cases in the
//!   plain loop's order: two-loop byte transposes ran up to 2.6x faster untiled (seed 11's
//!   548, 979, 1907). Let every byte transpose whose walk fits run whole, and the power-of-two
//!   cases gained. Rows 512 bytes or 1 KiB apart lost: seed 7's 869, 893 and 1718 1.26x,
//!   1908 1.64x. Rows at least 2 KiB apart by a raw byte count let random strides through,
//!   1.15-1.68x slower (seed 7's 321, 599 and 978). Counting the sets those rows land in
//!   (`set_lines` at most 16, more rows than that) keeps both out.
//!   - Power-of-two sweeps, medians of five, builds alternating: seeds 7, 11, 13 and 17 ran
//!     0.92, 0.91, 0.94 and 0.93x per sweep; 19, 23 and 41, drawn after the rule, 0.85, 0.89
//!     and 0.94x. The slowest case was 1.09x.
//!   - Biggest gains: seed 7's 402, 16.3 -> 6.2 us; seed 41's 1425, 30.5 -> 12.4, and 1365,
//!     167 -> 70.
//!   - Random sweeps: seeds 7 and 11, 1.00x; none of their 95 tiled byte transposes takes
//!     it. The power-of-two 240's 121 ran 53 -> 44 us.
//!   - README's table benches: no block takes it (run with `-- --test` and a temporary panic
//!     where it does, which fired on seed 7's 402).
//!   - Why tiles lose there is not established. Both walk each destination line once, in
//!     bands of 8 rows.
//! - A one-block copy's tiles find their kind once per block shape (`raw::Kinds`, this
//!   round's first change), as a plan's nests' blocks did. Case 152 of the power-of-two 240
//!   (`u8` 2048 x 8 read backwards in 8-byte rows, written 2 apart) ran 32 tiles of 8 x 64,
//!   and `block_kind` with the channel kernels' shape test took about 6 % of its time: 5.2 ->
//!   4.9 us (NumPy 4.6), no longer past 1.10x NumPy's time. Of the 37 one-block tiled cases
//!   of the two 240s, timed alone with the builds alternating, none ran slower past the noise
//!   (random 61 1.03x on fifteen rounds); random 103 7.4 -> 6.6 us.
//! - Strided rows as a plain loop, out of line (`strided_rows`, this round's second change).
//!   Case 222 (`u16`, 4 planes of 4435 written 3 apart from 4-channel pixels) ran 6.1 us
//!   against NumPy's 5.5, while the same rows in a hand loop of runtime strides took 4.3.
//!   The block kernel's rows loop, inlined into its dispatch, kept some of its pointers and
//!   strides on the stack, and the hand unroll (four elements an iteration, offsets `u·ds`
//!   from the bumped pointers) was slower than the loop the compiler unrolls itself: over
//!   140 shapes in a harness of its own (1- to 8-byte elements, rows of 17 to 4,435, five
//!   stride pairs) 0.90x in geometric mean, 0.78-0.82x on bytes and short rows, none slower
//!   than 1.01x. Out of line with the hand unroll kept, 222 ran slower (5.3 us), so it is
//!   both. A temporary panic in the rows loop found the cases that reach it: 45 of the
//!   random 240 and 33 of the power-of-two 240, and no README table bench. Timed alone, the
//!   builds alternating, medians of five: 0.94x and 0.98x in geometric mean (random 10 22.1
//!   -> 15.3 us, 143 63 -> 49, 120 187 -> 151, 222 5.5 -> 4.5; power-of-two 59 49 -> 33);
//!   the cases past 1.05x in that run (random 27, 1.26x; power-of-two 214, 1.49x; 123,
//!   1.26x) came back level on nine rounds (0.96x, 1.02x, 1.00x; random 1 1.05x).
//!   - The two 240s after both changes (one run each, the previous head alternating in the
//!     same minutes): random 5.13-5.14x the loop (previous head 5.04-5.05x), 0 slower;
//!     power-of-two 6.04x (5.99-6.10x). NumPy in one process, two replays: random 2.02-2.03x
//!     (1.99-2.00x before), power-of-two 2.31-2.34x; past 1.10x NumPy's time, random case 69
//!     in one replay (`f32` 28 rows of 2,997 elements, the C library's `memcpy` for each on
//!     both sides) and power-of-two 27 in one (one 64 KiB run), none in the other.
//! - Scattered channel blocks take the kernel from 256 elements (`channels::INSERT_BLOCK`,
//!   this round's third change). The power-of-two seed 11's 753 (`f32` rows of 16 scattered
//!   into 2-float pixels, 2 rows a block under 16,384 steps) ran 2.5x the plain loop's time
//!   in a harness of its own: per block, a call into the channel kernel, its masks and its
//!   blends for 32 elements. Bounded at 64, 128, 256 and 512 elements a block, 753 ran at the
//!   loop's time. The bound on gathered blocks too made seed 7's 14 (`u8`, 2 rows of 64
//!   gathered 2 apart) 1.83x and 670 (`f32`, 4 rows of 32 gathered 2 apart) 1.31x slower,
//!   so it bounds scattered blocks only. A temporary panic where the bound decides found the
//!   cases: the random 240's 55, seven each of the power-of-two seeds 7 and 11 (2,000 cases),
//!   none of the power-of-two 240 or of README's table benches. Timed alone, builds
//!   alternating, medians of five: 753 440 -> 139 us (loop 312), 1552 58 -> 37, 906 294 ->
//!   209, 880 6.8 -> 5.1, seed 7's 30 25 -> 18, random 55 100 -> 73; the rest 0.98-1.07x
//!   (seed 7's 1474, 0.95x on nine rounds of an earlier build of the same rule).
//! - Tried and dropped: the strided blocks (rows of 2 to 16 elements too) out of line from
//!   the block kernel. Of the 11 cases that reach them, random 179 (`u8` rows of 2 written
//!   backwards) ran 1.13x slower on eleven rounds, the rest 0.93-0.97x.
//! - The same test keeps a tiny cube's long loop out where its pass evicts the lines the
//!   cube's outer loop comes back to (`long_cube`, `evicts`): seed 13's power-of-two 564
//!   (`f32`, cubes of 8 x 2 x 2, the 512-step loop written 8 KiB apart) 4.2 -> 2.7 ms, the
//!   plain loop's time, with the 64-step loop moved in instead. Of seven 2,000-case
//!   power-of-two sweeps the 21 plans that change: 0.60-0.95x per sweep but seed 11's
//!   1.15x (its 152 1.33x, 49 -> 65 us against the loop's 118); seed 29's 1960 4.1 -> 3.0
//!   ms, still below the loop's 2.1. No plan of four random sweeps changes; the
//!   power-of-two 240's 173 does, at its time (1.01x, five rounds).
//! - A short loop outside a long one (not the innermost) whose pass evicts its lines from
//!   the second-level sets too moves inside it (`far_back`, `evicts_far`, `l2_set_lines`:
//!   a step of 4 KiB keeps 256 lines there): seed 23's power-of-two 328 (`f64`, rows of 512
//!   written 4 KiB apart, the 4 steps outside them 32 bytes on) 354 -> 296 us. Of seven
//!   2,000-case power-of-two sweeps (five rounds) the 11 plans that change: 0.80-1.01x per
//!   sweep, the slowest seed 23's 1382 1.04x. Every adjacent pair, the innermost too, and
//!   long loops that make a transposes' block with the innermost: 30 plans, seed 13's 652
//!   (`u8`, its 256 x 16 transposes cut into 2 x 16 rows) 2.1x slower, seed 29's 1242 1.45x,
//!   seed 7's 1867 1.36x, beside seed 7's 1361 0.43x and seed 23's 53 0.30x (innermost
//!   pairs, left out with the losses). No plan of four random sweeps changes.
//! - The innermost pair, guarded: moved where the two make no kernel's block (a run in
//!   every operand) and the short loop's steps use up the lines they come back to (they
//!   cover a line, or no loop further out steps within one: `uses_up`), in nests of three
//!   loops or more. Of eighteen 2,000-case power-of-two sweeps (seeds 7-41 and the primes
//!   43-73) six plans change, 0.27-0.89x the time (medians of five, builds alternating):
//!   seed 7's 1856 (`f64` rows of 32 read 64 KiB apart under 4 steps 16 bytes on) 262 ->
//!   154 us, the loop 211; seed 23's 53 257 -> 68; seed 31's 478 111 -> 54; seed 73's 1444
//!   664 -> 434, the loop 461; seed 11's 1975 586 -> 385, the loop 375. Without `uses_up`,
//!   seed 37's 1471 (`u32`: the 4 steps cover half a line, a loop of 2 further out the
//!   other half) ran 1.43x slower and seed 29's 105 1.29x. No plan of the ten random sweeps
//!   of seeds 7-41 or of the two 240-case sweeps changes, nor of the table's rows.
//! - A loop of 8 steps (`TILE_MIN_EXTENT`, which `far_back` left as long) moves the same way
//!   where its steps use up the lines they come back to (`goes_back`): seed 7's 1976
//!   (`u16`, 8 steps of 4 elements outside rows of 256 read 8 KiB apart) 369 -> 169 us
//!   against the loop's 261; seed 37's random 1409 299 -> 147; of the eighteen power-of-two
//!   and ten random 2,000-case sweeps nine plans change, 0.43-0.85x the time, none slower
//!   (medians of five, builds alternating). No table row's plan changes.
//! - The cube that move leaves (`c` 512 steps written 4 KiB apart, `a` 4 steps 32 bytes
//!   on, `b` 2) ran in strips of 64 steps of `c` (`cube_strip`), each step of `a` coming
//!   back to 64 lines of one set: 300 us; in strips of 8, 220; in its order, 195; the
//!   plain loop in the same order, 167-200 (`f64`, one process, medians of 15). A cube
//!   whose few steps of `a` come back within a line in an operand whose rows touch 4 lines
//!   or fewer, whose sets hold no more than 8 steps' rows and whose pass of `c` overflows
//!   the second level's sets runs in its order, unless its block `a × b` overflows its own
//!   sets. With it 328 runs 153 us against the loop's 175, above it. Of seven power-of-two
//!   sweeps (five rounds), 12 cubes at 0.52-1.05x (seed 13's 162 1,268 -> 662 us against
//!   1,086; 1768 and seed 19's 142 lifted above the loop too). Without the second level's
//!   bound, 35-39 cubes a sweep, small copies up to 1.5x slower; without the block's, seed
//!   11's 280 (`f64` 4 x 4 blocks written 16 and 64 KiB apart) 2.8x; without the rows' 4
//!   lines, three cubes of rows of 8 to 16 lines 1.13-1.27x (random seed 13's 1348).
//! - Blocks of a short loop (2 to 7 rows) whose rows touch more than 32 KiB of lines are
//!   tiled (`SHORT_ROW_BYTES`; the bound had been 256 KiB, `ROW_CACHE_BYTES`), so that the
//!   rows' shared lines stay in the first-level cache from row to row, unless the rows are
//!   interleaved channels (`interleaves`) or already stream (`rows_stream`: the destination
//!   written one element a step from sources read within lines; 8-byte elements written one
//!   a step or read a page or more apart). The round that tried 64 KiB (below) lost on
//!   exactly those. The 240-case sweep's 79 (`f64` `(555, 8, 4)` read in order, written 4
//!   apart backwards into planes; 4 rows of 555 read 256 bytes apart) ran 14.0 us against
//!   the plain loop's 11.5, 8.8 us in tiles of 4 x 16; 217 (`u32`, 3 rows of 1012) 229 ->
//!   171 us; its two other plans that change 0.98x (nine rounds alternating). Seeds 7 and 13,
//!   from which the rule was drawn: 23 and 23 plans at 0.85x and 0.88x the time in geometric
//!   mean. Seeds 11, 17, 19 and 23, drawn afterwards: 21, 27, 29 and 19 plans at 0.78x,
//!   0.83x, 0.81x and 0.79x (seed 23's 1956 0.49x, seed 19's 1778 0.55x), none below the
//!   plain loop that was above it but seed 19's 289 (`f64` 5 rows of 840 read in order and
//!   written 240 bytes apart, 8.4 MB: 1.18-1.6x from one pass to the next, 2.1 -> 2.7 ms
//!   over nine rounds against the loop's 3.0). Before the exclusions: the channel kernels'
//!   rows, 25 plans of three sweeps, 1.05x in tiles (seed 7's 1574, `f64` 5 channels into
//!   planes, 1.45x); rows written in order from sources read within lines, 11 plans 1.02x
//!   (seed 7's 231 1.21x); `f64` rows written in order from sources read a line or more
//!   apart, seed 13's 1467 1.75x (2 rows read 3.5 KB apart, 1.6 ms); `f64` rows read a page
//!   or more apart, seed 17's 180 1.23x (`u32` rows read 4.4 KB apart, seed 13's 1433, ran
//!   0.84x in tiles of 2 x 215, as `u32` tiles of a short loop run 146 to 240 a row where
//!   `f64` ones gather 16). A bound of 16 KiB changed 24 more plans at 0.98x: kept at 32.
//! - Where no source's fastest loop lies outside the innermost, the tile is cut around the
//!   destination's fastest loop (`tile`, `tile2`), if it steps within a line and the
//!   innermost a line or more: seed 19's 43 (`f64` rows of 461 read in order and written 3
//!   KB apart, 64 rows 48 bytes on) ran 96 us untiled, each row writing 461 lines the next
//!   row writes again 48 bytes on, against the plain loop's 15 (its order writes the rows'
//!   lines in turn); 16 us in tiles of 16 x 16. Of eight 2,000-case sweeps (seeds 7, 11, 13,
//!   17, 19, 23, 29, 31), the 11 plans that change ran 0.79x the time in geometric mean over
//!   nine alternating rounds, 0.92x without 43 (seed 13's 141, `f64` rows read 16 bytes
//!   apart and written 44 KB apart, 1077 -> 772 us against the loop's 837, and seed 31's
//!   1031 lifted above the loop), the slowest seed 17's 1466 (1.09x); no plan of the
//!   240-case sweep changes. Without the line bounds, any destination's fastest loop: seed
//!   19's 36 plans 0.99x, the channel kernels' rows and rows written within lines losing up
//!   to 1.6x (`u8` rows of 12 channels, 1003).
//! - Power-of-two strides (the sweep's `--pow2`: every extent a power of two, no padding,
//!   steps of 2; `python3 benches/sweep_ab.py builds OLD NEW --pow2 --changed`). On the
//!   head before the rule below, the 240 cases ran 5.78x the plain loop and 2.36x NumPy,
//!   with cases 0, 111, 219, 72 and 31 below the loop alone; seed 7's 2,000 cases 6.26x,
//!   21 below the loop alone (838 0.11x, 755 0.28x, 477 0.33x). A row of `f64` read 1 KiB
//!   apart maps its lines to 4 of the 64 first-level sets, 32 lines in all, whatever its
//!   bytes, so the next row, a few bytes on, misses them again; blocks of long loops whose
//!   rows overflow their sets are now tiled where a tile is shorter than a row
//!   (`sets_overflow`): the 240 cases' 3 plans that change 0.43x the time (21: 50 -> 15 us
//!   against the loop's 63; 219 lifted above the loop), seeds 7, 13, 11 and 17's 33 plans
//!   0.42-0.48x per sweep, none slower. A 240-case run after it: 5.80x the loop, 2.55x
//!   NumPy, cases 0 (`f64` rows of 2048 read a line apart backwards, 0.73x), 111 (0.82x) and
//!   77 (0.91x) below the loop. Without the bound on the row, rows of 16 read 8 KiB apart
//!   were cut into tiles as long as the rows: set-up for nothing, five plans at 1.2-1.3x.
//!   Tiles' rows then overflowed their sets too (32 `u16` read 8 KiB apart, one set of 8
//!   lines), so a row of elements under 8 bytes in such a block is now at most the lines its
//!   sets hold (`set_room`): seeds 7 and 13's 13 and 12 plans that change 0.45x and 0.42x,
//!   seeds 11 and 17's 22 and 10 0.39x and 0.38x (seed 7's 755 174 -> 38 us against the
//!   loop's 71; seed 17's 1826 536 -> 89 against 152), the slowest seed 13's 278 1.08x; the
//!   240 cases' 2 plans 0.49x. A run after it: 5.81x the loop, 2.48x NumPy, cases 0, 111
//!   and 95 below the loop alone (0.76-0.85x). The same bound on 8-byte rows (tiles of 16 x
//!   8 for 16 x 16) ran seed 13's 1147 4.1x, 233 3.7x and 1919 3.0x slower: not kept.
//! - Tried and dropped: rows of 129 to 256 bytes in two overlapping 128-byte moves, as the
//!   shorter rows are (`copy_short_rows`), rather than a `memcpy` call a row: of seeds 7 and
//!   13's 47 cases whose blocks are such rows, 0.95x and 0.98x the time (seed 13's 1714, `f64`
//!   rows of 22, 0.53x), but over nine rounds seed 13's 993 (`f64` rows of 20, 1.4 ms) ran
//!   1.28x, 1130 (rows of 18) 1.23x and two of `u8` rows of 139 and 143 bytes 1.3x: the
//!   moves of rows a little past 128 bytes double their bytes, and the portable build's moves
//!   are 16-byte ones where the C library's are 64.
//! - Tried and dropped: strips only where the second loop has at most 4 steps (the case the
//!   strips were made for, two rows of 8 channels): seed 13's 102 strips that change 0.97x
//!   (211 0.19x) and seed 7's 109 1.03x (seed 13's 334 2.8x, 1564 2.1x: strips of a long second
//!   loop win as often). The same bound by sets without the second loop's reuse, or with a
//!   floor of 2: 211 0.58x but 1390 2.5-2.8x, seed 11's 528 1.4-1.6x and 680 1.3-1.5x (strips
//!   of 64 steps past the sets' room, their lines reused by two steps, faster than 32 that
//!   fit).
//! - Tried and dropped: no strip where no operand's steps of the second loop share a line
//!   (each at least 64 bytes apart), as the strip then saves no fetch and breaks the
//!   destination's runs (seed 13's 296, `u32` rows of 4 with a second loop of 75 steps 64 and
//!   96 bytes apart: 1003 -> 292 us, the loop 762; 965 0.69x): seeds 13, 7 and 11's 43 strips
//!   that change 0.96x, 1.07x and 0.99x, short second loops losing their calls' amortisation
//!   (rows of 33 `u16` by 5: 1.6x). With a second loop of 16 or more steps only, the held-out
//!   seeds 17 to 31's 28 strips ran 0.87x (31's 1846 0.38x, 882 0.43x), but three came to the
//!   plain loop's time or below it (seed 23's 1461, `u32` rows of 16 read in order: 541 -> 761
//!   us, the loop 608). Of 211 strips timed with and without (seeds 7 and 13, second loops of
//!   5 or more), no one feature (the lines shared, the rows' steps, the loops' lengths) tells
//!   which run faster.
//! - Tried and dropped: tiling blocks whose rows touch 49 to 96 pages (`ROW_PAGES` 96 -> 48),
//!   for seed 13's 1302 (`u32` rows of 66 elements each from a page of its own): seeds 7 and
//!   13's 14 and 8 plans that change 1.04x and 1.04x (1302 0.75x, seed 7's 741 1.68x).
//! - Some cases swing from process to process far more than between builds: seed 7's 1946
//!   (`u16` `(4338,4,26,2)`) copies in 0.5-0.74 ms in some processes and 2.5-3.0 ms in others
//!   (eight processes of one harness, the buffers at the same addresses modulo 4096 and the
//!   same distance apart), the plain loop in 0.7-1.4 ms; 741, and seed 13's 302 and 1939, swing
//!   likewise. One process's recheck of a flagged case can flag or clear such a case by chance;
//!   only builds alternating over many processes (`sweep_ab.py`) compare them. 1946's plan
//!   takes its 4 planes outermost (a tie of the capped weights broken by the source's 1.35 MB
//!   plane step), walking the destination's pages four times where the loop's order walks them
//!   once.
//! - `sweep_ab.py numpy` compared the sweep's buffers on 4 KiB pages, fresh each process, with
//!   NumPy's on huge pages (NumPy advises them for buffers of 4 MiB or more), one pair for all
//!   rounds. On 4 KiB pages and fresh each round, as now, the 60 cases of seed 7 furthest behind
//!   NumPy in one replay came to 0.96 of NumPy's speed in geometric mean where they had shown
//!   0.82 (medians of five alternating rounds). Still behind: seed 7's 205 (`f64`, rows of 46
//!   copied in blocks written backwards, 0.29: in a harness of its own `copy()` matches a loop
//!   of `copy_from_slice` rows, and both swing 330-1100 us from process to process, NumPy
//!   270-730 us) and 997 (`f64` rows of 405, 0.48).
//! - Tried and dropped: ties of the capped loop weights (every stride past a line) broken by
//!   the destination's stride before the uncapped sum, so that the destination runs in order
//!   where the source's far strides decided (seed 13's 925, `f64` `(619,9,2,14,5)`, whose loop
//!   of 2 steps 70 destination elements apart went outside the loop of 9 steps 140 apart,
//!   0.64x the loop; 0.74x the time this way): of seed 13's 68 plans that change, 1.09x in
//!   geometric mean, 447 6.9x (its loop of 2 went inside, a block of 2 reversed rows the
//!   strips took where the reversed-row kernel had taken 1556 of them). Not kept.
//! - Still behind the plain loop alone in these sweeps: 1-D copies of `f64` with a step of 3
//!   on one side (seed 13's 302 and 1939, 0.8-0.9x: the same loads and stores as the loop's;
//!   in a harness of their own the speed of a plain indexed loop's 0.83-0.97x for 302, whose
//!   source runs backwards, and 0.95-1.14x for 1939), seed 13's 1302 (`u32`, rows of 66
//!   elements each from a page of its own, untiled as 67 pages a row is under `ROW_PAGES`:
//!   0.6x) and 925 (above).
//! - Rows of one channel of 8-byte elements, 2 to 4 apart, are gathered by the channel
//!   shuffles from 512 elements a row (`channels::one_channel_worth`): the random 240's case
//!   110 (`f64` read 3 apart, 174,113 of them) 64.0 -> 56.3 us against NumPy's 57, 40 and
//!   130 (read 2 apart backwards) 0.85x and 0.83x; the 2,000-case seeds 7, 11 and 13 at
//!   0.944x, 0.938x and 0.954x over their 43, 37 and 47 cases with such rows. Rows of 100 to
//!   258 ran level or up to 1.14x slower (rows of 128 `f64` 4 apart), hence the bound.
//! - A short innermost loop (2 or 3 steps, no run in every operand, no kernel's block with
//!   the loop outside it) under a long loop of near strides takes that loop inside, in nests
//!   of three loops or more (`long_inside`): random 111 (`u16` rows of 2 pixels 3 apart under
//!   136 steps of 6 and 2 elements) 103 -> 74 us; 84 plans of twelve sweeps 0.71-0.88x per
//!   sweep, the slowest 1.08x; four sweeps drawn after it (random and power-of-two seeds 23
//!   and 29), 27 plans at 0.77-0.83x, none past 1.07x. Each refusal is a measured loss:
//!   pairs that are runs in both operands (about 2x), a kernel's block (seed 11's 785,
//!   1.21x), a long loop two loops out (power-of-two seed 11's 1100, 1.43x), two-loop nests
//!   (the two-loop path's unrolled short rows; rank-2 cases 1.2-1.6x).
//! - Tried and dropped: a cost model choosing the order of an untiled nest's innermost loops
//!   (all orders of up to four, nests of 65,536 elements or more) by the lines each operand
//!   fetches into the first two cache levels, set-aware (lines a power-of-two number of
//!   pages apart share a set), with streams (the next line of at most 16 runs) priced at 0.3
//!   of a lone fetch and the destination's fetches twice a source's. Over plain element loops
//!   it ranks orders well (power-of-two seed 7's 1261, `f64` 8 x 8 blocks of rows 64 KiB
//!   apart: the rules' order 97 us, the model's 47), but the crate's kernels are not plain
//!   loops: of the plans it changed (about 1 % of each sweep, taken where priced under 0.7x
//!   the rules' order), 35-45 % ran faster and 30-40 % slower (to 2.6x), and the price ratio
//!   told them apart no better than chance (predicted 0.26-0.70x, measured 0.24-2.58x). A
//!   model that chooses must price the kernels' own costs (the cube strips, the unrolled
//!   short rows, the transposes' blocks), not the loop order alone.
//! - Tried and dropped, two probes of the same question (which of two orders is cheaper).
//!   `tile` moves a source's fastest loop next to the innermost before asking whether the block
//!   is worth a tile, and keeps the move when it is not. Undoing the move then changes 8, 10,
//!   90 and 119 plans of the random 240, the power-of-two 240 and the power-of-two seeds 7 and
//!   11 (2,000 cases): 1.10x, 1.15x, 1.19x and 1.07x the time in geometric mean, one sweep
//!   each, builds alternating. Some cases win big (seed 11's 1757, 32 rows written 4 KiB apart
//!   under a loop coming back within the line, 0.23x the time; seed 11's 150 and seed 7's 1001
//!   and 1959 0.45x), others lose as much (seed 7's 409 3.5x, 1066 3.7x; seed 11's 1214 3.9x).
//!   No count of misses tells them apart. A line-count model like the entry above's (without
//!   its streams), fed both orders, calls 2 to 7 of the 227 pairs, half of them wrong. An exact
//!   simulation of both orders' accesses through 64 x 8 and 2,048 x 8 least-recently-used sets
//!   (the first two levels here) picks the faster order in 55-60 of the 85-97 pairs whose
//!   misses differ by more than 10 %, and the slower in 29-38. Equal counts hide both ways
//!   round: 1757's two orders miss the first level about 67,600 times each (stores one line a
//!   step in one set in one order, loads a line a step in the other), and the faster is the one
//!   whose misses follow a stride the prefetchers run ahead of, not the one thrashing a set. A
//!   model that chooses must price the prefetchers' streams and a set's thrashing, not misses.
//!   The cheaper next step is to measure: prepared plans, planned once, could time their
//!   candidate orders when they are made.
//! - Group tiles where the source's streams crowd their sets (`group.rs`, `streams_crowd`: more
//!   streams than the first-level sets their source strides reach can hold). Two copies the
//!   group tiling refused now take it there. An innermost run of both operands (`u16` pairs)
//!   counts with the source's group (`run_of_both`): power-of-two seed 11's 528, 32 streams 16
//!   KiB apart, each read 4 bytes a visit while the 32 crowd one set, 468 -> 123 us against the
//!   plain loop's 308; 1041 456 -> 62 (loop 246); seed 13's 202 17 -> 7.7; seed 43's 1719 and
//!   1248 0.57x and 0.74x the time. A tile whose 4 source lines a stream pass the tile's 512
//!   lines is cut to 2 or 1 line: seed 47's 203 (`f32`, 256 streams 8 and 64 KiB apart) 1,496
//!   -> 192 us against the loop's 1,680; seed 53's 1203 592 -> 122 (loop 245) and 1107 803 ->
//!   214 (loop 206); seed 29's 1355 192 -> 57; seed 19's 87 802 -> 231. Of 52,480 cases (both
//!   240s, and 2,000-case sweeps of the primes 7 to 53, random and power-of-two) 17 plans
//!   change, none in either 240 or in README's table benches (a temporary panic where each rule
//!   decides); alone, builds alternating, medians of nine: 0.13-1.12x, 0.43x in geometric mean,
//!   the slowest seed 17's 923 (`u8`, 128 streams in 4 sets: 139 -> 156 us, the loop 145).
//!   Without the crowding test both rules lose on random strides, whose streams reach every set
//!   and which the prefetchers follow: random seeds 37, 43 and 53's 1575, 1022 and 1778
//!   1.5-1.8x slower with runs regrouped, random seed 7's 53 2.2x and seed 53's 789 1.8x in
//!   tiles cut smaller.
//! - Still below the plain loop at this round's head, one 2,000-case power-of-two sweep each of
//!   seeds 7, 11, 13, 17 and 19 (8 to 15 cases under 0.91x a sweep, before retiming): the worst
//!   are seed 11's 1757 and seed 17's 384 (`u8`, 32 rows written 4 and 8 KiB apart in a block
//!   that a loop coming back within the line repeats: 0.42x and 0.41-0.47x; the entry above on
//!   `tile`'s kept move), seed 19's 118 (0.40-0.75x across runs), 91 and 188 (`f64`, 0.46-0.64x
//!   and 0.50x), seed 7's 310 (0.53x), seed 17's 1804 (0.60-0.84x), 174 (0.64x) and 18 (`f64` 8
//!   MiB scattered 2 apart, 0.69x).
//! - Tuned prepared copies ([`CopyPlan::tuned`](crate::CopyPlan::tuned)): the planner's order
//!   and the plain loops' that walk the destination and the source through memory, each timed
//!   seven times on the caller's buffers, the fastest kept where it beats the planner's by
//!   more than 1/16. The sweep's `SWEEP_TUNED=1` against `SWEEP_PREPARED=1`, each case alone,
//!   the two alternating, medians of five:
//!   - the random 240: tuning kept another order in 15-16 cases (two sweeps), and each of the
//!     16 ran 0.66-0.91x the planner's time, 0.82x in geometric mean (case 62, `f64` planes
//!     read backwards: 121 -> 81 us, the loop 261);
//!   - the power-of-two 240: 13-15 cases, 0.67-1.01x, 0.81x (case 0: 405 -> 283 us, the loop
//!     417);
//!   - the 55 cases of the power-of-two seeds 7, 11, 13, 17 and 19 that ran under 0.91x the
//!     loop in this round's sweeps: 39 prepared plans slower than the loop, 18 tuned ones, 0.63
//!     to 0.81x the time per seed in geometric mean. Lifted: seed 11's 1757 226 -> 75 us (the
//!     loop 121), seed 17's 384 514 -> 142 (191) and 174 773 -> 118 (472), seed 13's 393 273 ->
//!     82 (246), seed 7's 1864 752 -> 415 (554). Ten of the 18 are one loop (a scattered or
//!     reversed run, no order to choose) within the sweep's noise of the loop, 0.80-1.00x.
//!     Below it still: seed 19's 91, 118, 128, 188, 1776, 1964 and seed 17's 1804 (0.60-0.80x).
//!     On 91 (`f64`, 2-element rows under a loop reading 8 KiB apart) the plan's order
//!     (the 128-step loop outside the 4 steps that come back within its lines) runs, written
//!     as four plain loops, in 18.5 us; the crate's cube kernel ran the last three loops in
//!     strips of 64 steps of the 128-step loop, which is the plain loop's order (50-62 us as
//!     four indexed loops, 72-74 us with pointers as `rows_of_n` writes them): each of the 4
//!     steps came back to 128 lines that one first-level set and 16 second-level sets hold.
//!     A later round keeps such a cube in its order where a pass of the long loop fills the
//!     second level's sets, not only where it overflows them (`raw::cube_strip`): 82 -> 48
//!     us against the loop's 53.
//!   - the orders tuning keeps say where the rules fall short: in the random 240's 62 and 98
//!     (`u8` planes 68 KB apart, 33 of them, and `f64` planes 0.9 MB apart, 6 of them, each
//!     written interleaved) the source's order, one plane at a time outermost, runs 1.5x and
//!     1.3x faster than the planner's, which writes each destination line once and reads
//!     every plane's stream at each step (121 -> 81 and 49 -> 38 us). A rule drawn from them
//!     (a loop of at most 64 steps that is an operand's largest stride, past everything else
//!     it spans, moved outermost where the other operands step within a line in it and span
//!     at most 512 KiB) changed 14 plans of the random 240: 62, 98, 165, 66 and 201 ran
//!     0.55-0.88x the time, and 33, 185, 135, 50 and 175 1.47-3.88x (33 lost the channel
//!     kernel's blocks of 5 planes by 1,383 elements); 1.19x in geometric mean, not kept.
//!   - whole sweeps, one each: the random 240 at 5.11x the loop prepared and 5.18x tuned,
//!     the power-of-two 240 at 6.00x and 6.08x.
//! - Cubes kept in their order (`raw::cube_strip`), a later round: where a pass of the long
//!   loop fills the second level's sets (not only overflows them), and where the few steps
//!   that come back, 4 or more, come back to lines whose long loop's steps all land in one
//!   first-level set (a page apart or a multiple). Seed 19's 91 82 -> 48 us (the loop 53),
//!   seed 23's 240 260 -> 109 (100), seed 19's 1776 123 -> 73 (72); 33 cubes of thirteen
//!   2,000-case power-of-two sweeps change, none of the random sweeps or either 240 (the
//!   figures are `cube_strip`'s). One sweep each of seeds 7, 11, 13, 17 and 19 after them
//!   (one process each, so within the sweep's noise): 7, 4, 12, 12 and 12 cases under 0.91x
//!   the loop, against 55 over the five at the round before's head; the worst, seed 19's
//!   118 (0.38x), seed 17's 384 (0.39x), seed 11's 1757 (0.44x), seed 19's 128 and 188
//!   (0.50x), seed 13's 93 (0.52x). 188 (`f64` 4 x 4 transposes written 256 KiB a row, 2,048
//!   of them) spends its time in the 4 x 4 transpose kernel, a call a block.
//! - 8-byte transposes only of four whole 4 x 4 blocks or more (`transpose::worth`), a later
//!   round: 188 above, and a grid of repeated small blocks (`f64` `n x 4 x 4` transposed
//!   block by block: 0.55x the plain loop), showed the 4 x 4 `f64` transpose cost its call
//!   and strip set-up, about 20 ns a block, where the element loops inlined three loops at a
//!   time take 8; blocks of one to three whole 4 x 4 blocks with edges (6 x 12, 12 x 7) ran
//!   1.4-1.7x the element loops' time, timed in one process against the rule before (two
//!   builds of the crate linked side by side, alternating), every other block shape of 4 to
//!   32 a side within 1.05x. The 24 copies of the sweeps whose blocks change (the random and
//!   power-of-two 240s, five 2,000-case sweeps of each kind, seeds 7-19), each alone with the
//!   builds alternating (medians of seven): 0.31-1.06x their time, 0.61x in geometric mean;
//!   of the 9 of them slower than the loop before, one still is (seed 11's 1252, 84 us
//!   against 80). 188 114 -> 36 us against the loop's 40. The oneDNN weight reorders of
//!   `f64` run as before or faster (`oihw -> OIhw4i16o4i` 458 -> 381 us).
//!   - Tried in the same round and not kept: a transpose-like block of 8-byte elements whose
//!     second loop steps two elements (`f64` `59 x 13113` written 16 bytes a step, the
//!     random seed 19's 440 at 0.45-0.6x the loop) run whole, its short loop innermost as
//!     `short_whole` runs a transpose's: 440 was no faster (its cubes then run in strips)
//!     and the power-of-two 240's 21 ran 4.6x slower. A short loop moved inside the long
//!     loop where the two make one run of the source (random seed 17's 1380, `f32`, 4 steps
//!     of 48 under rows of 192): 1380 was no faster either (1.10x, within the noise below).
//!   - One sweep each after it (one process each, so within the sweep's noise, which was
//!     larger this round: the same binary's copies of megabytes moved 0.7-1.3x between
//!     processes): power-of-two seeds 7, 11, 13, 17 and 19, 49 cases under 0.91x the loop,
//!     the real ones among them, timed again alone, of the classes above (118, 384, 1757,
//!     1261); the random seeds' cases under 0.91x mostly copies of megabytes within that
//!     noise, the real ones seed 7's 741, seed 19's 440, seed 17's 1380 and seed 11's 974
//!     (0.4-0.7x).
//! - `map` and `zip_map` of short rows as plain loops (`raw::elementwise`'s `short_rows`), the
//!   same round, found by the block grid (`benches/benches/grid.rs`): of blocks transposed
//!   one by one, read across, or in rows with gaps, `map` and `zip_map` ran under 0.91x the
//!   plain loop's speed in most shapes under 16 a row (3 x 3 `f64` transposed: 0.3x), paying
//!   a row's set-up per row and a transposed source's packing per block. Timed in one process
//!   against the code before (two builds of the crate linked side by side, alternating), 768
//!   copies of 16 Ki elements: `map` under 0.91x in 29 from 224 (worst 0.58x from 0.17x;
//!   geometric mean over the loop 1.62x from 1.13x), `zip_map` in 24 from 250 (0.63x from
//!   0.19x; 1.81x from 1.21x). All short rows as plain loops first: `map` of rows of 8 to 15
//!   `f32` read backwards then took 95 against 67 us a MiB (its reversed chunks vectorise),
//!   so `map` keeps those; `zip_map`'s were even or faster (rows of 2: 182 against 522 us).
//!   An order effect misled one measurement: of two kernels timed in turn on the same
//!   buffers, the first after the loop's pass ran 10-70% slower, so compare both orders.
//!   The grid then (one run): `copy()` 4.44x the loop in geometric mean, 3 of 1,296 under
//!   0.91x; `map` 2.19x, 18 under; `zip_map` 2.30x, 20 under: rows of 16 or more of thin
//!   transposed blocks (2 x 16 to 5 x 32), which kept the rows' path, and `zip_map`'s 16 x 2
//!   and 16 x 3, whose rows the plan makes the 16. Strided rows under fewer than 8 rows as
//!   plain loops too (`THIN_ROWS`), the grid two runs each way: `map` 5 and 7 under 0.91x
//!   against 21 and 17, `zip_map` 7 and 9 against 24 and 20, geometric means 2.33x against
//!   2.20-2.23x and 2.38-2.41x against 2.32-2.35x. After it: `copy()` 4.19x, 6 under (its
//!   path unchanged: the grid's noise); `map` 2.29x, 6; `zip_map` 2.33x, 7.
//! - `map` and `zip_map` of blocks read across in tiles (`raw::elementwise`'s `crowded_tile`
//!   and `zip_tiled`), the next round, found by the block grid: `f64` read across blocks of 2
//!   to 8 x 16 and 32 ran at 0.6-0.85x the loop in both kernels. The plan leaves such blocks
//!   whole (`short_whole`: `copy()`'s transposes take them whole faster than in tiles), and
//!   a block of 256 x 32 `f64` does not fit the kernels' 4 KiB scratch, so their rows read
//!   the source as it lies, 32 elements 4 KiB apart a row: 8 lines of one first-level set,
//!   none left for the next row. Timed in one process against the code before (two builds
//!   linked side by side, alternating, medians of 11; two runs agreeing), over the grid's
//!   1,296 cases: `map` of those blocks 0.20-0.32x the time in packed tiles of 16, `zip_map`
//!   0.26-0.34x in its 32 x 32 `A + Aᵀ` tiles. A first version tiled `map` for every such
//!   block: 3 to 12 x 16 and 32 `f64` read 4,080-8,160 bytes a step (their lines spread over
//!   the sets) ran 1.3-1.6x slower, and `u16` blocks 1.17-1.2x, so `map` tiles only rows whose
//!   lines crowd their sets (`sets_overflow`, the planner's rule). `zip_map` gained on all of
//!   them (`u16` 0.32-0.43x, `f64` 0.64-0.86x) and takes its tiles for every such block. The
//!   rows' path moved into a function of its own (`map_block`), the tiled walk out of line:
//!   other shapes' `map` then ran 0.8-0.9x or 1.1-1.35x from build to build (flipped rows
//!   faster, `u32` short transposed rows slower), as the same binary's unchanged functions
//!   do when code moves. The grid after it, two runs: `map` 2.40-2.41x, 0 and 1 under 0.91x;
//!   `zip_map` 2.43-2.45x, 3 and 4 (`f64` read across 32 x 3 and 32 x 5, 0.73-0.80x).
//! - Tried and dropped, the same round (one process, two builds alternating, medians of 11):
//!   - `map_cube` and `zip_cube` (and `map_short`, `zip_short`) folded into one walker over a
//!     tuple of pointers stepped together, the element's reads and write a closure: `u8` and
//!     `u16` `zip_map` ran 0.6-0.85x the time, but `map` of `u64` short rows 1.2-2.2x slower
//!     (gap 2 x 3: 21 against 15 us), also with the function passed as a local borrow beside a
//!     closure that captures nothing, and with the walker inlined into each cube's function
//!     (`u64` `map` 1.4-1.8x slower, `zip_map` 0.75-0.9x). The twins stay.
//!   - `f64` read across blocks of 32 x 3 and 32 x 5 in `zip_map` (0.73-0.80x the loop): the
//!     plan puts the source's 170 consecutive elements innermost, the destination and the
//!     second source 768 bytes a step, and `short_rows` runs that order as plain loops. The
//!     rows' path instead (no `THIN_ROWS` test for `zip_map`): those two 0.67-0.8x the time,
//!     but `zip_map` of thin transposed blocks 1.3-2.8x slower. The cube's two inner loops
//!     swapped where the destination steps one element along the short one: 0.81-0.92x for
//!     those two, `map` of `u8` and `u16` short transposes 1.2-3x slower. Neither kept: the
//!     order is the planner's, which weighs the two sources against the destination for
//!     all the kernels at once.
//! - Channel blocks of fewer pixels than one step of the target's shuffles, into pixels
//!   (`channels::takes`, the one rule the block kinds, the turned blocks and their tiles
//!   read), the next round, found by the block grid: `copy()` of `u8` blocks of 16 x 5
//!   transposed (five planes of 16 pixels into pixels of five) ran at 0.75x the loop, 16 x 7
//!   at 0.90-0.94x. AVX2's channel kernels move 32 `u8` pixels a step, so a block of 16 went
//!   whole through the kernel's element loop after its call and dispatch; the way back
//!   already asked for a step. Timed in one process against the code before (two builds
//!   linked side by side, alternating, medians of 11), the grid's `copy()` of `u8` blocks of
//!   16 x 2 to 16 x 16 transposed ran 0.37-0.75x the time (16 x 5: 0.82x -> 2.18x the loop;
//!   16 x 16: 1.60x -> 4.28x), every other shape within the noise of code placement (`f32`
//!   flipped blocks 0.74-1.13x the speed, build to build, at 4.5-9x the loop). Of the
//!   random and power-of-two 240 sweeps, no case slower alone (`benches/sweep_ab.py`, 7 rounds: random
//!   179, `u8` pairs written backwards, 0.80x the time). The grid after it, three runs:
//!   `copy()` 4.20-4.24x, 0 cases under 0.91x (from 2).
//! - `zip_map` of `f64` read across blocks of 32 x 3 and 32 x 5 (0.73-0.88x the loop, the
//!   round before), the next round: an untiled nest of three operands whose innermost rows
//!   step the destination a line or more and, with the second source's, touch half again
//!   the lines their first-level sets hold runs in the destination's order
//!   (`crowds_destination`, in the planner: the order is the planner's, and `copy()`'s and
//!   `map`'s two operands never ask). One process, two builds alternating, medians of 9:
//!   the grid's three plans that change (32 x 3, 32 x 5, 16 x 5) 0.45-0.58x the time; a
//!   harness of random rank-3 `zip_map` calls (shapes of 2 to 41 a side, 16 Ki to 256 Ki
//!   elements, the source permuted, stepped and padded, the destination and second source
//!   permuted; 14,000 calls over four seeds) found 7 plans that change, each 0.05-0.54x
//!   the time, and 5 of them 0.21-0.42x the plain loop before (`f64` `[240, 34, 32]`
//!   written 60 KB apart a row, 2,966 -> 223 us against the loop's 674; `u16` `[512, 16,
//!   32]`, 2,197 -> 140 against 669). With the bound at the room itself (not half again),
//!   blocks of 16 x 7 and 32 x 7 (1.13x the room) changed too, 1.03-1.1x slower. The grid
//!   after it, two runs: `zip_map` 2.43x, 1-2 under 0.91x, the slowest 0.87-0.88x, cases
//!   that differ from run to run.
//! - `map` of blocks written across their rows in turned tiles (`crowded_tile`, `across`,
//!   `map_tiled`), the round the sweep first timed `map` (`SWEEP_KERNEL=map`): the
//!   power-of-two 240's 222 (`f64` 32 x 1024, its rows of 32 written 8 KiB apart into one
//!   first-level set) ran at 0.22x the loop, and 29, 75, 184 at 0.30-0.48x. Each case alone,
//!   builds alternating (`benches/sweep_ab.py`, medians of 5): those four 0.06-0.15x the
//!   time, all above the loop; cases on paths the change leaves alone moved 0.9-1.43x from
//!   build to build with the code's placement (214, `u16` rows written 32 bytes a step, 9.8
//!   -> 12.7 us, still 1.4x the loop; 238, `f64` transposed in tiles, 449 -> 645 us against
//!   the loop's 13,676). No random case's path changes (3.28x and 3.30x the loop, one run
//!   each).
//! - `map` of rows read backwards shorter than one reversed chunk (32 bytes) as plain loops
//!   (`chunked`), the same round: the random sweep's 179 (`u8` rows of 2 written backwards)
//!   0.40x the time, 62, 73, 82, 32 and 80 0.56-0.70x (each alone, builds alternating,
//!   medians of 5), all above the loop. A first cut at rows under 8 elements ran the grid's
//!   `f64` rows of 4 and 6 reversed (32 and 48 bytes, a chunk or more) 1.18x slower. The
//!   sweeps after both `map` changes, one run each: random 3.42x the loop, 5 slower alone
//!   (27, `u8` `(2,58118,6)` read 4 apart under a flip, 0.52x; 148, 0.77x; 79, 80, 91,
//!   0.87-0.99x); power-of-two 3.81x, 5 (66 0.71x, 193 0.74x, 42, 101, 0 0.87-0.97x).
//! - `map` and `zip_map` of blocks written a strided element at a time whose source's rows step
//!   within their lines read that source as it lies (`packs`), the next round: packing it copied
//!   each element once more for rows that run element by element either way. The cases the rule
//!   changes were found by counting its calls over the random and power-of-two sweeps of 240 and
//!   2,000 (none in the block grid) and timed alone, builds alternating, medians of 5: `map` random
//!   27 (`u8` `(2,58118,6):(-1,4,232472)` into a dense buffer, blocks of 2 x 1,638 written 6 bytes
//!   apart) 674 -> 234 us against the loop's 410; power-of-two 50, 193, 152 0.18x, 0.43x, 0.82x the
//!   time (193 190 us against 438 before, the loop 285); of the 2,000s (seed 2026), random 1972 and
//!   power-of-two 1153, 1698 0.31-0.60x. `zip_map`: random 27 0.45x, power-of-two 50, 231, 193, 152
//!   0.46-0.69x (231: 43 -> 21 us against the loop's 27), the 2,000s' eleven 0.34-0.72x. None
//!   slower, none below the loop after.
//! - Then the same rule for sources whose rows step a line or more (they packed whatever
//!   their lines did): packed only where the run's lines, in every operand stepping a line or
//!   more, fill their first-level sets (`set_shares` >= `SET_ROOM`, the count
//!   `crowds_destination` makes). The random sweep's 217 (`f32` `(3,16,7,1012)` into
//!   `(2,121440,12,120)`, `zip_map` in tiles of 3 x 124 whose rows step 480 bytes in the
//!   destination and the second source, packed) ran at 0.33-0.8x the loop. The cases it
//!   changes, counted as above, each alone, builds alternating, medians of 5: `map` 15, 14 of
//!   them 0.19-0.86x the time (power-of-two 1587 1,963 -> 376 us), random 759 1.0-1.15x;
//!   `zip_map` 31, 27 of them 0.35-0.94x (217 2,679 -> 941 us against the loop's 851),
//!   1399, 1764 and 888 0.97-1.09x, and the power-of-two 1805 (`f64` tiles of 4 x 64 whose
//!   rows step exactly a line) 1.5-1.65x, 1,161 -> 1,738 us against the loop's 11,230. A
//!   first cut that never packed such sources (only for unit destination rows or the SIMD
//!   transpose) ran the power-of-two 175 (`f64` rows of 16 stepping 2 KiB in the destination
//!   and the second source, two sets) 1.8x slower, below the loop, and 220 (`u32` rows of 8
//!   read 8 KiB apart, one set) 1.2x. The grid's two blocks it changes (`zip_map` of `f64`
//!   read across, 256 x 16 x 4 and 256 x 32 x 2): 0.74-0.75x the time (one process, two
//!   builds linked side by side, alternating, medians of 11). The grid after both steps, one
//!   run: `copy()` 4.63x the loop, 0 under 0.91x; `map` 2.36x, 2; `zip_map` 2.33x, 4 (none
//!   of them a block either step changes).
//! - `zip_map` of rank-2 operands in the destination's order where their rows crowd its sets,
//!   the same round: the rank-<= 2 planner (`small_nest`) lacked the general builder's
//!   `crowds_destination` step, so transposes whose second source lies as the destination ran
//!   in the source's order, every row's destination and second-source lines in one or two
//!   first-level sets. The plans that change (the sweep's plans for three operands, two builds
//!   diffed): power-of-two 156 of 240 and eleven of the 2,000 (seed 2026), none random. Each
//!   alone, builds alternating, medians of 5: 156 (`f64` `(8, 65536)` read `(1, 16)`) 2,114
//!   -> 986 us against the loop's 1,381; of the 2,000, 0.02-0.28x the time but 156's 0.54x
//!   (809, `u16` `(4096, 64)` read `(-64, 1)`: 3,205 -> 54 us against 2,621; 336, `f64`
//!   `(16, 2048)`: 278 -> 14 us against 25).
//! - `map` and `zip_map` of short rows in turned cubes (`cube_turns`), the next round: the
//!   plain loops' cube `c × a × b` runs as `a × c × b` where `a`'s pass evicts from their
//!   few first-level sets the lines the next step of `c` comes back to, and a pass of `c ×
//!   b` keeps its own (a few lines, or streams of at most two lines a step in at most 4 rows,
//!   at most half the second-level cache in all). The power-of-two 240's 66 (`u8`
//!   `(32,2,1024,2):(16384,1,4,8192)` written `(-2,-1,64,-65536)`, 32 rows 16 KiB apart in
//!   the source) ran `map` at 0.62x the loop. The cases it changes, counted as above, each
//!   alone, builds alternating, medians of 5, on a 2-core share of an AMD EPYC (Zen 3 class,
//!   512 KiB of L2 a core): the power-of-two 2,000 of seed 2026, from which the bounds were
//!   drawn, 11 `map` cases 0.88x the time in geometric mean (66 163 -> 110 us against the
//!   loop's 188; 1038 0.59x) and 11 `zip_map` 0.87x (1038 625 -> 289 us); of seeds 7, 13, 11
//!   and 17, drawn after, 27 `map` cases 0.75-0.96x per sweep and 25 `zip_map` 0.47-0.96x,
//!   the slowest 1.40x (seed 11's 103, `map`, 2.4x the loop still), none put below the loop.
//!   No random case turns, nor any block of the grid. The tiles' turn test (`tile_back`) on `c` and `a` alone, tried
//!   first, turned 20 cases of seed 2026 at 1.12x and 1.01x the time: passes of `c × b`
//!   that crowd their own sets (`f32` 64 steps 512 bytes apart by 8 rows 32 KiB apart:
//!   2.3x) or stream megabytes of the destination (`f64` 2,048 steps 256 bytes apart: 2.9x).
//!   The sweeps after it on that host, one run each: `map` random 3.39x the loop, 8 cases
//!   slower in the sweep, 5 alone (61 0.80x, 79 0.77x, 80 0.72x, 148 0.80x, 178 0.67x);
//!   power-of-two 3.82x, 3 and 1 (135 0.99x); `zip_map` random 3.30x, 8 and 3 (60 0.46x, 61
//!   0.68x, 93 0.90x), power-of-two 3.60x, 8 and 2 (43 0.99x, 173 0.79x); `copy()` 5.60x
//!   and 6.42x, 2 and 1 in the sweep, 1 and 1 alone (61 and the power-of-two 0, 0.92x). The
//!   Zen 3 host finds cliffs the Zen 4 one did not: 61 (`f64` `(817,198,4)` dense into four
//!   planes 11.6 MB apart, written 24 bytes a step; `map` 0.50-0.61x in six processes) ran
//!   tiles of 4 x 64 whose source the SIMD transpose packed.
//! - `map` and `zip_map` no longer pack a source read across its rows for the SIMD transpose
//!   alone where the destination's rows are strided (`packs`), the same round: those rows
//!   are written element by element either way, and the transpose into the scratch only
//!   moved each element once more. The cases it changes (counted as above: 218 of the
//!   random and power-of-two sweeps of 240 and 2,000, and 118 blocks of the grid, all read
//!   across), each alone, the two rules alternating in one binary, medians of 3, on the Zen
//!   3 host while a CI run shared its cores: 0.71-0.85x the time per sweep and kernel, 190
//!   of 218 faster (61 0.56-0.67x, still below the loop; 148, 79, 132 and the power-of-two
//!   135 lifted above it), the slowest the power-of-two 2,000's 1737 at 1.55x (`map`, 4x
//!   the loop still); the random 2,000's 250 and 1637 went below the loop in that run
//!   (1.23-1.28x). The grid's 118 blocks, three runs each way: `map` 0.99x the time in
//!   geometric mean (0.84-1.23x), `zip_map` 0.78x (0.56-1.16x), none under 0.91x the loop.
//! - `zip_map`'s random 60 (`f64` `(30,32,2,175)` read `(64,2,336000,1920)`, written and
//!   read a second time in planes 2,800 bytes a row apart), measured and not yet fixed, on
//!   a 2-core share of an AMD EPYC (Zen 3 class). Its one block, `960 x 175`, runs in the
//!   planner's strips of 960 rows by 8 (`stream_strip`), each row 8 elements of the
//!   destination and of the second source: 0.27-0.60x the loop, 0.63-3.8 ms from process to
//!   process. The tile forced by hand, three to five processes each: strips of 240 rows (a
//!   quarter of the pages) 0.42-0.49x, so the translations are not the cost; strips of 16
//!   and 32 columns 0.51-0.86x and 0.71-0.78x; `16 x 16` (the tile of the row-pages and
//!   crowded-sets rules) 0.42-0.53x; `32 x 32` 0.80-1.04x; `16 x 64` 1.18-1.26x; `8 x 175`
//!   1.08-1.52x; untiled 1.19-1.30x. `copy()` and `map` of the same block (one operand in
//!   rows) run the strips at 2.1x and 1.4x the loop. A rule that gives no strip, and
//!   neither of those two tiles, to a block whose operands in consecutive rows outnumber
//!   those that cross them (only three-operand plans) changed 2, 6, 22, 27 and 14 plans of
//!   the random 240, power-of-two 240, random and power-of-two 2,000 of seed 7 and random
//!   2,000 of seed 11 (each alone, builds alternating, medians of 5): 0.54x, 1.32x, 0.65x,
//!   0.98x and 0.69x the time in geometric mean (random 60 4,093 -> 954 us against the
//!   loop's 1,260; the random 2,000 of seed 7's 1400 740 -> 223 us), but power-of-two
//!   strips, each stream in one first-level set, lost (the power-of-two 64, `f64`
//!   `(16,32,2,128)` read `(64,2,131072,1024)`, the same kind of block, `512 x 128`, its
//!   rows a line each: 379 -> 558 us against the loop's 395; 13 of seed 7's 27 1.08-2.22x,
//!   6 below the loop). Without the crowded-sets part the random 60 keeps its `16 x 16`
//!   tiles. Sparing blocks whose crossing rows' lines all map to one set left the
//!   power-of-two 64 alone, but still changed blocks of two to four sets that had lost (the
//!   power-of-two 240's 219 and 237, 1.7-1.8x; the random 60's lines lie in four sets too).
//!   Not in: the rule needs what the random and power-of-two strips differ in. The random
//!   60's rows of 8 straddle two lines of each operand in rows where the power-of-two 64's
//!   lie a line each, but its wider strips, straddling fewer, closed only part of the gap.
//! - The short rows' loops of `map`, `zip_map`, `fill` and `fold` compile once per row length
//!   from 2 to 8 (the rows unrolled whole), which costs the release build of the test program
//!   68-83 s (+20-23%). One copy of each kernel's loops instead, its rows of 8 or fewer as
//!   eight steps written out, each behind a test of the row's length that goes the same way
//!   at every row of a nest, ran slower: over the cases whose nests take those loops (their
//!   innermost loop untiled and 2 to 8 long, from `--plans`), each alone, builds alternating,
//!   medians of 5, on the Zen 3 host, `map` 1.06x the time in geometric mean on the random 240
//!   (21 cases) and 1.05x on the power-of-two 240 (22), the slowest the random 106 at 1.73x
//!   (894 -> 1,547 us); `zip_map` 1.01x (26) and 1.02x (23), two power-of-two cases put below
//!   the loop (23: 661 -> 1,320 us against the loop's 776; 173). Not in. The likely cause,
//!   not checked in the machine code: a row of a known length lets the compiler unroll and
//!   schedule the loop around it too.
//! - `map` and `zip_map` of untiled nests whose rows are strided in some operand and
//!   shorter than 32 elements run as plain loops where no source's block would be packed
//!   (`loose_rows`); the rows' path had run them element by element, a row's set-up each.
//!   Every sweep case whose nest has such rows (from `--plans`), each alone, builds
//!   alternating, medians of 5, on the Zen 3 host, geometric mean of the time: random 240
//!   `map` 0.90x (19 cases), `zip_map` 0.83x (16); power-of-two 240 0.94x (12) and 0.84x
//!   (9); `map_cast` 0.87x (19) and 0.84x (12); the 2,000-case sweeps of seed 7 0.93x (68)
//!   and 0.95x (69), power-of-two 0.92x (47) and 0.89x (41). `zip_map`'s random 114 (`f32`
//!   `(1084,19):(30,1)` written `(38,-2)`) 31 -> 20 us against the loop's 30, 176 70 -> 48
//!   us against 75. Those rounds' slowest (seed 7's `map` 454 2.9x, `zip_map` 1497 2.4x,
//!   1046 1.6x; the power-of-two `zip_map` 4 1.7x) ran 0.76-1.09x over 9 rounds, 1046 1.39x
//!   and then 1.08x: single processes on these hosts move that much. The first form, every
//!   such nest as plain loops (the rule in `short_rows`), lost where the rows' path packs a
//!   transposed source: the power-of-two 184 (`map` of `512 x 16` transposed blocks, 7.1 ->
//!   49.8 us against the loop's 43), 132 (2.9x) and 51 (1.8x), the random `zip_map` 164
//!   (1.6x); and on `fill` (the random 21, strided runs of 21: 615 -> 1,366 us) and `fold`
//!   (1.1-1.2x), which keep their runs.
//! - `map` and `zip_map` of tiled nests whose tiles hold fewer than 8 strided rows run them
//!   as plain loops, tile by tile (`map_plain`, `zip_plain`), as untiled thin blocks ran. The
//!   cases were picked from each kernel's own plan: `map` into another size plans with its
//!   destination's element size, and its tiles were not in the plan the sweep printed then
//!   (the power-of-two 210, `u16` `(4,8192):(-1,8)` into `u64`, runs in tiles of 4 x 16, the
//!   source packed by the SIMD transpose and each row set up for 16 elements: 34 us against
//!   the loop's 22; as plain loops 20 us). Every such tile as plain loops (first form), each
//!   case alone, builds alternating, medians of 3: tiles of rows up to 32 elements 0.68x and
//!   0.75x the time in geometric mean (30 and 6 cases over all sweeps and kernels), longer
//!   ones 0.89-0.98x with losers: `zip_map` of `u16` tiles packed by the transpose into rows
//!   of 32 to 512 (the 2,000 of seed 7's 94, 515, 1478, 1768: 1.1-1.8x), `map` from `u8`
//!   into `u32` so packed (231, 496, 629, 1482: 1.2-1.4x), and `map`'s tiles of rows longer
//!   than 32 strided in both operands (1.1x over 34 cases, up to 1.5x; strided in the
//!   destination alone, 0.99x over 51). Those keep the rows' path (`narrow_packed`,
//!   `long_strided_tiles`). Tiles of wider elements packed the same way ran faster as plain
//!   loops (`f64` rows of 16 to 128: 0.47-0.76x), and so did `map` from `u16` into `u64` in
//!   rows of 16 (0.38-0.71x): the narrow elements' transpose packs many a step and the packed
//!   rows vectorise, where a row of 16 does not pay for its set-up. The final form, each case
//!   alone, medians of 5, twice with the builds' order swapped (the script can favour the
//!   build that runs first on a case: the 2,000's `map` 971, whose path this leaves alone,
//!   1.35x and, swapped, 0.73x; the script now starts every other round with B), geometric
//!   mean of the two: the random 240 `map` 1.00x (8),
//!   `zip_map` 0.85x (10), `map_cast` 0.98x (10); the power-of-two 240 1.01x (7), 0.83x (10),
//!   0.81x (7); the 2,000 of seed 7 0.94x (44), 0.81x (66), 0.88x (57). The tiles' loops run
//!   out of line (`map_thin`, `zip_thin`): inside the untiled nests' function, the
//!   power-of-two 119 (untiled, `u32` rows of 16 written backwards 2 apart) timed 1.17x once.
//!   Still below the loop among those cases, none faster before: `map` from `u8` of the
//!   2,000's 1890 (tiles of 4 x 32 so packed, 0.80x), `zip_map`'s random 61 (0.76x) and the
//!   2,000's 43 (0.92x); the last two run at the loop's speed or faster since `zip_map`'s
//!   tiles of a whole short loop plan untiled (the next item).
//! - `zip_map`'s random 61 (its tiles of 4 x 64 the whole short loop, 4 rows of the
//!   destination and of the second source 11.6 MB apart) ran below the plain loop, which
//!   walks the four rows innermost. Runs of 204 ran 1.32x the time, of 16 0.87x, strips of
//!   64 with the short loop inside 1.10x; such tiles of three operands dropped, the short
//!   loop moved inside and the untiled nest's rules left to order the rest, 0.64x (1,927 ->
//!   1,237 us against the loop's 1,165); dropped without moving the short loop, the same
//!   cases split both ways (random 124 0.51x, but 61 1.20x and 39 1.41x against the short
//!   loop inside). For every element size, seed 7's 2,000-case sweeps' 66 random and 50
//!   power-of-two plans ran 0.85x and 0.87x, but `u8` and `u16` ones up to 1.78x (the
//!   random 94, 515, 1478, 1768: tiles of `u16` packed by the transposes, 1.34-1.74x; the
//!   power-of-two 1173, 1117, 842 1.54-1.78x, 1117 below the loop), so elements of 4 bytes
//!   or more alone take it (`few_rows_inside`): each case whose plan changes alone, medians
//!   of 5, the builds starting rounds in turn: random 240 0.77x (6 cases), power-of-two 240
//!   0.85x (6), seed 7's 2,000 0.82x (36) and 0.86x (29, 459 1.27x), seed 13's, drawn
//!   after, 0.84x (36) and 0.89x (22, the slowest 1.16x); none below the loop. The block
//!   grid's `zip_map`: 2.98-3.03x the loop before, 3.06x after, two runs each.
//! - Still below the plain loop, the power-of-two seed 7 (each timed alone, builds
//!   alternating): 1261 (`f64` 8 x 8 transposes of rows 64 KiB apart in both operands, 16
//!   lines in one first-level set: 65 against 45 us), 1864 (`f32`, 0.70x), 378 (`f32` 32 x 32
//!   element blocks read 2 and 64 apart, 0.83x), 1856 (`f64` rows of 32 read 64 KiB apart, 4
//!   steps 16 bytes on coming back to them: 0.84x), 1976 and 1130 (0.91x).
//!
//! ## Earlier rounds
//!
//! README keeps the latest figures; these are the rounds before them, in the words and the
//! order README had them when they were taken ("this round" is the round of the paragraph's
//! own figures, "the round before" the one before it). Each run names its host.
//!
//! ### The copy table's runs
//!
//! README's table of copies, as it stood with the notes of the runs it came from:
//!
//! Copies on one thread of a 2-core share of an Intel Xeon server (2 MiB of L2 per core; AVX2
//! detected at run time in every build; the core has AVX-512, which no kernel uses: its 512-bit
//! shuffles and stores move no more bytes a cycle there than AVX2's), as throughput relative to
//! `copy_from_slice` of the same bytes from a written source: 1.00 is `memcpy` speed, higher is
//! faster. Criterion medians from `python3 benches/table.py`, which runs every `table/<row>`
//! group of `benches/` with the default features (a column for a `std` build, which ran the
//! same kernels, is gone with that feature): the six rows of `benches/benches/transpose.rs`
//! (contiguous, the two transposes, the permute, the strided slice, `A + A^T`) from a run of
//! `--bench transpose` after this round's streaming-transpose changes, the others from a full
//! run just before them (their code unchanged since). Read a row against its own
//! `copy_from_slice`, not across rows. On this host `copy_from_slice` of 61-64 MiB took 5.0 to
//! 8.6 ms from one run to the next (the 480 MiB last-level cache, shared with other tenants,
//! keeps its buffers between iterations or not), while the streaming kernels, which write past
//! the cache, took the same time in every run (the 64 MiB contiguous copy 4.9 ms, the 4000²
//! transpose 6.8 ms): the large rows' ratios move with `copy_from_slice`'s (the previous
//! round's table, with `copy_from_slice` at about 8 ms there, had 1.59 / 1.60 and 1.12 / 1.15
//! on those two rows). CHW -> HWC runs at `copy_from_slice` speed stored plainly or streamed.
//! The small rows come from the full run: their calls take 4 to 23 ns; `copy_from_slice` of the
//! 16×16 transpose's 1 KiB took 5.9-6.1 ns on 64-byte-aligned buffers and 12.1-12.7 ns on the
//! allocator's in this round's three runs (7.3-14.9 ns in earlier sessions': it moves from one
//! process to the next with where the two buffers lie relative to each other); the prepared
//! 16×16 transpose took 17.1-19.2 ns, 0.34-0.36 of `copy_from_slice` on the aligned buffers and
//! 0.67-0.69 on the allocator's. The table of an earlier session, on a 2-core share of an AMD
//! EPYC (Zen 3, 32 MiB of L3), differed most in CHW -> HWC `f32` (1.76-2.24, streamed stores
//! against a `copy_from_slice` slowed by its reads for ownership) and in the many-channel
//! copies (see below).
//!
//! ### Small blocks repeated
//!
//! The grid's (`--bench grid`) changes before its current figures:
//!
//! `map` and `zip_map` of blocks the plan leaves whole but too large for their scratch, read
//! across, now run in tiles (`f64` 2 x 32 read 4 KiB a step: 0.7x the loop before). Before the
//! round before's two changes (8-byte transposes only of four 4 x 4 blocks or more; `map` and
//! `zip_map` of rows under 16 elements, or strided under fewer than 8 rows, as plain loops), 64
//! blocks of 4 x 4 `f64` transposed ran at 0.55x the loop in `copy()`, and `map` and `zip_map`
//! of blocks of 3 x 3 at 0.2-0.3x (17-24 cases of the grid under 0.91x after the first half of
//! the change).
//!
//! ### `map`, `zip_map`, `map` into another size, `fill` and `fold`
//!
//! The same random layouts through `map` and `zip_map` (`SWEEP_KERNEL=map` or
//! `SWEEP_KERNEL=zip_map cargo bench -p strided-layout-bench --bench sweep -- --bench
//! [--pow2]`, each against the plain loop doing the same per element) still find cliffs that
//! the block grid does not. On a 2-core share of an AMD EPYC (Zen 3 class, 512 KiB of L2 a
//! core), one run each: `map` 3.39x the loop in geometric mean on the random 240, 5 cases
//! slower than the loop alone (0.67-0.80x, the slowest `f32` `(81,3,139,20)` written
//! `(550,44550,3,356400)`), 3.82x on the power-of-two 240, 1 slower alone (0.99x); `zip_map`
//! 3.30x and 3.60x, 3 and 2 slower alone (0.46-0.90x, the slowest `f64` `(30,32,2,175)` read
//! `(64,2,336000,1920)`; 0.79-0.99x). `copy()` of the same layouts: 5.60x and 6.42x, one case
//! each at 0.92x alone (these runs came between this round's two changes). The first runs short
//! rows as turned cubes where their rows crowd the first-level sets the loop outside them comes
//! back to: the power-of-two 240's 66 (`u8` `(32,2,1024,2):(16384,1,4,8192)` written
//! `(-2,-1,64,-65536)`), 0.62x the loop in `map` on a Zen 4 host, ran in 0.67x the time; of
//! five power-of-two 2,000-case sweeps, the 74 `map` and `zip_map` cases it changes 0.47-0.96x
//! the time per sweep, none put below the loop. The second reads a source across its rows as it
//! lies where the destination's rows are strided, even where the SIMD transpose could pack it:
//! of the 218 sweep cases it changes, 190 ran faster, 0.71-0.85x the time per sweep (timed
//! while a CI run shared the cores). The Zen 4 host's figures before both: `map` 3.31x and
//! 3.80x, `zip_map` 3.14x and 3.57x, `copy()` 5.04x and 5.78x. The two hosts' cliffs differ:
//! the random 61 (`f64` `(817,198,4)` dense into four planes 11.6 MB apart) ran `map` and
//! `zip_map` at 0.5-0.7x the loop on the Zen 3 one, and 0.56-0.67x that time after the second
//! change.
//!
//! `map` into elements of another size (`SWEEP_KERNEL=map_cast`: `u8` -> `u32`, `u16` -> `u64`,
//! `u32` -> `u8`, `u64` -> `u16`, the same strides in elements), on a 2-core share of an AMD
//! EPYC (Zen 3 class), one run each: 2.68x the loop in geometric mean on the random 240, none
//! slower; 2.84x on the power-of-two 240, 5 slower alone (0.67-0.92x; the slowest `u16`
//! `(4,8192)` read `(-1,8)` into four rows of `u64`, whose source is packed element by element
//! before rows that then run no faster, and `(128,1,128,2)` read `(256,256,-2,1)`). The same
//! host's same-size runs that day: `map` 3.24x and 3.73x, 1 and 0 slower alone (random 199,
//! `f64` `(91,552,5,1,2)` into `(40,4960,2,-1,20)`, 0.86x, where `copy()` of it runs 1.3-1.6x
//! the loop); `zip_map` 3.21x and 3.35x, 1 and 3 slower alone (0.79-0.97x); `copy()` 4.89x on
//! the random 240. Then `map` and `zip_map` took `copy()`'s unrolled rows for their short rows
//! of 2 to 8 elements (the cases that take them 0.56-0.75x the time in geometric mean, per
//! kernel and sweep): `map` 3.58x and 3.86x, `zip_map` 3.68x and 3.64x, `map_cast` 2.82x and
//! 3.06x (the power-of-two 42 lifted above the loop, its 210 still 0.84x alone). `fill` and
//! `fold`, swept the same day for the first time (`SWEEP_KERNEL=fill`, `SWEEP_KERNEL=fold`,
//! each against the plain loop walking one layout): `fill` 6.78x and 7.36x, `fold` 2.99x and
//! 3.55x, with 4 and 9 cases slower alone (0.42-0.94x, runs of 2 to 5 elements); after they
//! took the same short rows' cubes, `fill` 7.05x and 7.91x (2 and 0 slower alone, 0.94x and
//! 0.99x), `fold` 3.62x and 3.94x (none). Cliffs older than the change still show alone:
//! `zip_map`'s random 60 (`f64` `(30,32,2,175)` read `(64,2,336000,1920)`, 0.24-0.58x), 61 and
//! 48, and its power-of-two 111 (0.68-0.81x). The random 60 runs 1.2x the loop untiled and
//! 0.3-0.6x in its strips (of 960 rows or 240: not the TLB); a rule that takes strips and tiles
//! from such three-operand blocks lifted it and most random cases it changed, but lost on
//! power-of-two ones, so it is not in (the benchmarks guide has the figures).
//!
//! ### `copy()` and NumPy
//!
//! Replayed from another process, the recorded times of copies that are one `memcpy` on either
//! side moved 0.55-1.3x NumPy's from replay to replay. On a 2-core share of an AMD EPYC (Zen 4
//! class, 1 MiB of L2 a core), at the latest head (whose 8-byte transposes of fewer than four 4
//! x 4 blocks run as element loops, one case of each 240 changed: random 98 74 -> 40 us,
//! power-of-two 103 20 -> 16 us): the random 240 at 4.98x the loop in the sweep and 2.04x NumPy
//! in one process, the power-of-two 240 at 5.92x and 2.32x, no case of either past 1.10x the
//! loop's time, two of the random 240 past 1.10x NumPy's in that replay (case 148, `f64` rows
//! of 367 scattered 2 apart, at 0.76x, and a `memcpy` of bytes at 0.77x; in three replays of
//! the two alone, 148 once at 0.82x, the `memcpy` never). The round before, on the same plans
//! but for those two (so the drop is this round's noisier machine, not the change): 5.43x and
//! 2.04x, 6.13x and 2.35x, none flagged (earlier replays of the same plans flagged one to
//! three: copies that are one `memcpy` on both sides, and case 148 at 0.74-0.81x NumPy's speed
//! there and 1.09x it alone with the two alternating); its power-of-two 2,000-case sweeps'
//! cubes whose long loop's pass fills the second level's sets, or lands in one first-level set,
//! run in their order (the benchmarks guide's power-of-two entries; seed 19's 91, 82 -> 48 us
//! against the loop's 53), and the 8-byte transposes of a few blocks of this round lift seed
//! 19's 188 (114 -> 36 us against the loop's 40). The rounds before that: 4.98x and 2.03x,
//! 5.92x and 2.34-2.36x; before those: 5.13-5.14x and 2.02-2.03x, 6.04x and 2.31-2.34x, the
//! same plans on another day. That round's changes: case 152 (`u8` 2048 x 8 read backwards in
//! 8-byte rows, written 2 apart), 0.89-0.90x NumPy before, and cases 148 and 222 (`u16` 4
//! planes written 3 apart), 0.91x, are no longer flagged: a one-block copy's tiles find their
//! kernel once per tile shape (152: 5.2 -> 4.9 us), and strided rows copy in a plain loop the
//! compiler unrolls, out of line (222: 5.5 -> 4.5 us against NumPy's 5.5). A third gives the
//! channel kernel only blocks of 256 elements or more scattered into pixels (the power-of-two
//! seed 11's 753, 2 rows of 16 `f32` a block: 440 -> 139 us against the loop's 312). Those
//! changes' figures are in the benchmarks guide. This round's: copies whose source streams
//! crowd their first-level sets (tensors of power-of-two extents) take group tiles in two more
//! shapes, an innermost run of both operands counted with the source's loops (the power-of-two
//! seed 11's 528, `u16` pairs read from 32 streams 16 KiB apart: 468 -> 123 us against the
//! loop's 308) and tiles cut to 2 or 1 source lines a stream where 4 would pass a tile's 512
//! lines (seed 47's 203, `f32`, 256 streams: 1,496 -> 192 us against 1,680); 17 plans of 52,480
//! cases change, 0.43x the time in geometric mean. Two rounds before: random 5.09x the loop and
//! 2.00x NumPy, power-of-two 6.03x and 2.32-2.38x (case 223, one 8 MB `memcpy` on both sides,
//! in one). That round's change: two loops that merge in every operand but lie apart in the
//! loop order merge where that lengthens a kernel's block or the loop under one (case 203, `u8`
//! 16 channels of 1 KiB rows gathered backwards, 334 -> 152 us against NumPy's 276; the
//! power-of-two seed 13's 1049, 26.5 -> 5.7 us; 32 plans of eleven 2,000-case and 240-case
//! sweeps at 0.47-0.99x the time per sweep, none past 1.06x). The 2x NumPy mean of the random
//! sweep is met by a little: most of the cases that run less than 1.05x faster than NumPy are
//! one `memcpy` or rows that both sides hand to the C library. A 2,000-case power-of-two sweep
//! (`-- --pow2 --seed 7 --cases 2000`) still has copies slower than the plain loop: four
//! confirmed alone with the builds alternating, 0.57-0.73x the loop, most of them blocks whose
//! rows step a power-of-two number of pages, so that a block's lines crowd one first-level set
//! (case 1261, `f64` 8 x 8 transposes of rows 64 KB apart in both operands: 64 against 46 us;
//! case 310, `u16`, 74 against 42 us). Its cases 1856 (`f64` rows of 32 read 64 KiB apart under
//! 4 steps 16 bytes on) and 1976 (`u16` rows of 256 read 8 KiB apart under 8 steps of 4
//! elements) were a fifth and sixth until this round's last changes, the short loop moved
//! inside those rows: 262 -> 154 us against the loop's 211, and 369 -> 169 against 261. Since
//! then, blocks of one tile or less, repeated by a loop outside them, take their short loop
//! inside where their rows crowd their cache sets more than twice over (the power-of-two seed
//! 11's 409, `u16` 2 rows of 256 read 8 KiB apart: 1,484 -> 332 us against the loop's 558): 35
//! plans of eleven 2,000-case power-of-two sweeps at 0.19-0.77x the time per sweep, ten lifted
//! above the loop, the slowest 1.21x (still 1.27x faster than the loop); no plan of the random
//! sweeps or either 240 changes. Seed 11's sweep still has five cases below the loop (131,
//! `f64` rows of 64 read 8 KiB apart: 42 -> 20 us against 15; 459; and 528, 1041 and 1757, rows
//! of 2 elements whose loops outside crowd one set, 0.37-0.59x). A probe toward the cost model
//! ran these in the plain loop's own order, through the same kernels. 528, 1041 and 1757 then
//! run above the loop, and so do seed 7's 310 and 378. Seed 11's 1838 stays below it. Seed 7's
//! 1864 already has that order. Its cubes run in strips, another order: 787 us against the
//! loop's 551, 560-600 without strips. Seed 7's 1261 is bimodal from process to process.
//! Figures are in the benchmarks guide. This round lifted 528 and 1041 (2.5x and 4x faster than
//! the loop now, above); 1757 and seed 17's 384 (`u8`, 32 rows 4-8 KiB apart in one set,
//! repeated within the line by a loop outside) stay below it, with a handful more a sweep under
//! 0.91x (listed in the guide). Pricing that choice by misses failed: an exact simulation of
//! both orders' caches picked the faster order in about two pairs of three.
//!
//! Since then, a tiled byte transpose runs whole where its destination's rows crowd their
//! first-level cache sets (rows a power-of-two 2 KiB or more apart, more of them than those
//! sets keep), as 2- to 8-byte transposes already did. Seed 7's 402 (`u8`, 32 rows written 4
//! KiB apart) went 16.3 -> 6.2 us. Timed alone with the builds alternating, the tiled byte
//! transposes of seven 2,000-case power-of-two sweeps ran 0.85-0.94x the time per sweep, the
//! slowest case 1.09x. No random sweep's block changes. On a 2-core share of an AMD EPYC (Zen 4
//! class), against the previous build in the same hour, `copy()` took 0.99-1.00x the time per
//! case on both 240s in geometric mean (the power-of-two 240's 121: 53 -> 44 us). The plain
//! loop in this build's sweep binary ran 4% faster (0.96x) though its code is unchanged, so the
//! sweep's ratios to it drop by about as much: the random 240 at 4.92x the loop, the
//! power-of-two 240 at 5.87-5.89x, none slower than 1.10x the loop (`cargo bench -p
//! strided-layout-bench --bench sweep -- --bench [--pow2]`).
//!
//! On a 2-core share of an AMD EPYC (Zen 4 class, 32 MiB of L3), replayed with NumPy (its
//! buffers on 4 KiB pages, as the sweep's are: the replay's default `--hugepages off`), three
//! runs of this round's last builds (the 240 random cases' plans the same in each): `copy()` is
//! 5.49-6.09x the plain loop and 1.89-2.40x NumPy in geometric mean, no case slower than 1.10x
//! the loop. The replay flagged 21-41 cases past 1.10x NumPy's time; timed alone with NumPy
//! alternating, most are contiguous copies of 0.5-4 MB, which `copy()` hands to the same C
//! library `memcpy` as NumPy and which run as fast as `copy_from_slice` in the sweep's process
//! (NumPy's process ran them 0.7-0.8x that time on this machine, its memcpy's speed moving by
//! 1.3x from process to process), and five strided ones at 0.77-0.90x (`u8` `(24,66,3,4)`
//! gathered 1152 apart backwards: 18 against 14 us). The machine slowed through the session
//! (the plain loop 1.28x, `copy()` 1.16x between the first run and the last), which the replay,
//! run after the sweep, measures as NumPy gaining. The sweep's power-of-two cases (`-- --pow2`:
//! every extent a power of two, unpadded, as images' and tensors' are): 6.41-6.42x the loop and
//! 3.18-3.55x NumPy, none slower than the loop on its own (case 95, `u16` rows of 32 read 4 KiB
//! apart, was: 241 -> 47 us against the loop's 197). This round's rules (the benchmarks guide
//! has their figures): rows of elements under 8 bytes that overflow their cache sets are tiled
//! where no longer than a tile's side too, and a long loop joins the innermost rows over the
//! short loops between them where the rows' lines crowd a few cache sets (`f32` rows read 4 KiB
//! apart, the 2 steps outside them 4 bytes on: 489 -> 87 us against the loop's 258); on six
//! 2,000-case power-of-two sweeps the plans they change ran 0.23-0.64x their time per sweep,
//! none below the loop (21 lifted above it by the second rule's first version alone); no plan
//! of the random 240 changes. Since then, where no long loop joins them, long rows that a swap
//! made of short ones take the short loop back inside when their lines crowd a few sets (`f64`
//! rows written 8 KiB apart, the 4 steps outside them one element on: 419 -> 76 us against the
//! loop's 252): 39 plans of seven 2,000-case power-of-two sweeps at 0.46-0.92x per sweep, 15
//! lifted above the loop; no plan of either 240 changes. Last, a short loop moves inside a long
//! one whose pass evicts its lines from the second-level cache, and a small cube whose few
//! steps come back to lines its strips would crowd out runs in its order (`f64` blocks written
//! 4 KiB a step: 354 -> 153 us against the loop's 175; 12 cubes of seven 2,000-case
//! power-of-two sweeps at 0.52-1.05x). After it, one run: 5.44x the loop and 2.04x NumPy,
//! power-of-two 6.02x and 3.23x, no case past 1.10x the loop. The round before: 5.14x the loop
//! and 2.26x NumPy, power-of-two 5.66x and 2.41x, cases 0, 111, 72 and 77 below the loop
//! (lifted by tiling blocks of one tile or fewer whose rows overflow their sets); the one
//! before that 5.19-6.21x and 2.06-2.31x, case 79 lifted by tiling blocks of a short loop whose
//! rows pass 32 KiB of lines. Since an earlier round the sweep and the replay settle each
//! method before timing it (back to back until three runs in a row stop getting faster): a copy
//! of megabytes after other buffers' traffic starts 3-5x slower and takes 5 to 12 runs to
//! settle, and the sweep had timed `copy()` after one untimed run against NumPy settled, so the
//! cases of megabytes behind NumPy in the rounds before were largely unsettled timings (`f64`
//! rows of 405 read in pairs backwards: 0.41x NumPy before, 0.80x settled; a rank-5 permutation
//! of 4.3 MB each way: 0.30x before, 0.67x settled and even in a harness of its own). The
//! innermost loop is now turned where the destination steps two or more backwards in it (rows
//! written forwards, as NumPy does): over the 2,000-case sweeps of seeds 7, 11 and 12, the 107
//! plans that change run 0.97-0.99x their time (`f64` rows of 29 written 2 apart backwards from
//! a source 36,265 apart: 0.54-0.84x, now level with NumPy), timed alone with the builds
//! alternating (`python3 benches/sweep_ab.py builds OLD NEW --changed`). The 2,000-case sweep
//! of seed 7: 4.81x the loop and 2.06x NumPy, 17 cases slower than the loop in the sweep, 8
//! past 1.10x of it; below the loop on their own still: case 741 (`f64` rows of 61 read 197 KB
//! apart, 0.70x: the loop's own order; in a harness of its own the unrolled loops, the crate's
//! and the same index loop without its bounds checks alike, ran 2x slower than the
//! bounds-checked loop for a while, moving with the destination's offset, then level with it
//! minutes later: an effect of the machine to chase, not of the plan), 1504 (0.74x), 653 and
//! 1294 (0.81x). The round before gave 5.11-5.32x and 2.02-2.26x on the 240 cases, timed
//! unsettled; the one before it 4.98-5.05x and 2.00-2.16x. The loop's figure moves with the
//! build as much as with the planner: in that round's runs, the two builds alternating,
//! `copy()` took 0.95x the time of the round before's over the 240 cases in geometric mean,
//! while the sweep's plain loop, the same code placed elsewhere in the binary, took 0.92x; and
//! the same recorded timings replayed minutes apart have moved from 1.95x to 2.20x NumPy. The
//! round before's rule: a tiled transpose of 2-, 4- or 8-byte primitives runs whole where one
//! walk of the transposes' band along the destination's rows touches at most 512 KiB of lines
//! (`walk_whole`, chosen by type when the copy runs): the bands reuse the lines the last band
//! read, and each tile paid a call and a kernel choice. Of the 2,000-case sweep (`-- --cases
//! 2000 --seed 7`) 76 blocks run whole; timed alone, the builds alternating, they take 0.85x
//! their time in geometric mean (`f64` `28 x 60` blocks of a rank-3 copy 933 -> 386 us, `u16`
//! `8 x 896` 92 -> 38 us), 40 more than 1.1x faster, the slowest on a second timing 1.31x
//! (`u32` `29019 x 23`, whose old time is bimodal), none slower than the loop. And an untiled
//! nest whose three innermost loops make a cube of at most 64 elements moves its longest loop
//! (64 steps or more) into the cube (`long_cube`), so the driver pays a cube's set-up per step
//! of the loops still outside, not per few elements: over the 2,000-case sweeps of seeds 7, 11
//! and 12 the 26 cases that plan differently take 0.79x their time timed alone, three of them
//! lifted from below the loop (seed 11's case 96: 0.69x -> 2.28x it), one 1.20x slower (still
//! 1.58x the loop). The 240-case figures above were taken before this second rule, which
//! changes none of their plans. The round before: a block whose destination steps one element
//! backwards along one loop while the source steps one forwards along the other (a transpose
//! into rows written backwards) has that loop turned round, so the destination steps forwards
//! and the vector transposes take it (`face`): `f64` `(832,690):(1,832) -> (690,-1)` ran
//! element by element at 0.5-0.8x the loop, now 2-2.9x; its 2,000-case sweep gave 4.42x the
//! loop and 2.24x NumPy, 22 cases slower than the loop in the sweep, 10 past 1.10x of it (case
//! 741, rows of 61 `f64` 197 KB apart, at 0.5-0.9x on its own: one row touches 61 pages, at the
//! edge of the first-level TLB; this round, the same rows cut into tiles ran 2.4x slower, and a
//! hand loop in the same order ran 1.1-1.8x faster than `copy()` in some processes and alike in
//! others). The sweep times each case slower than the loop again in a process of its own and
//! prints both ratios, as one process's buffers can make a case 1.5-2.5x slower (case 64, a
//! contiguous `u16` copy: 11.7 or 21.5 us by process). In an earlier round's run one case took
//! more than 1.10x the loop's time, case 199 (0.78x in the sweep, 0.94x on its own); 4 took
//! more than 1.10x NumPy's (case 64 above; `f64` `(32,3,347)` flipped in its middle axis: 9.1
//! against 6.6 us). That round's rule: a block whose rows of fewer than 8 elements the planner
//! swaps for its long loop is tiled when those long rows' cache lines overflow what the next
//! row finds cached (the swapped block is asked the one tiling rule's question, which only the
//! short rows had been asked): `(8886,4)` `f64` written a line apart ran 4 passes over 568 KB
//! of lines, 0.77x the loop, now 1.51x. Timed alone against the build before, case by case, the
//! 34 cases of 8,000 random ones (seeds 7, 11 and 12 of 2,000-3,000 cases) whose plans change
//! include 12 that ran below the loop (0.54-0.97x) and now run 1.11-2.0x it; 31 of 34 are
//! faster, 2 about 10 % slower (1.2x and 1.7x the loop). The 2,000-case sweep (`-- --cases 2000
//! --seed 7`) gives 4.03x the loop in geometric mean after it (4.11x in a run before it), 40
//! cases slower than the loop in the sweep, 27 on their own and 12 past 1.10x of it; single
//! cases there move between runs by as much as the loop's time (case 741, rows of 61 `f64` 197
//! KB apart: 0.44x on its own in this run, 0.96x in the one before, 1.1x in another program's
//! buffers). The latest round changed no plan and no code path (the SIMD kernels behind one
//! backend trait, the planner's rules one per file); a run at its end gave 4.61x the loop and
//! 2.00-2.04x NumPy over three replays (the machine at 0.99-1.02x), one case past 1.10x the
//! loop in the sweep (79: 0.90x, 0.97x on its own) and 3 past 1.10x NumPy (`u32` `(393,11,4,2)`
//! with rows of 11 read 15 apart: 24.1 against 19.5 us; rows of 593 `u16`: 4.4 against 3.6 us;
//! an `f64` transpose written 2 apart: 42 against 37 us); the 2,000-case sweep 4.11x the loop,
//! 33 cases slower in the sweep, 24 on their own, 12 past 1.10x (case 741 at 0.46x there,
//! 0.8-1.2x in another program's buffers on the same host an hour apart, the loop's own time
//! moving 1.5-2x between such runs). The round before, transposes of 2- and 8-byte elements
//! with a short side (16 to 64 elements) run whole, the short loop innermost: of the 2,000
//! cases 33 plans change, 32 of them 0.63-1.00x their time and one 1.22x (still 3.2x the loop),
//! and five of the 240 (0.68-1.00x). Two runs at its end gave 4.62-4.71x the loop and
//! 1.89-1.99x NumPy (the machine at 0.95-0.98x; the plans NumPy lost ground on are unchanged,
//! so the difference is the host's), one or two cases past 1.10x the loop in the sweep (199:
//! 0.87x, 0.92x on its own); the 2,000-case sweep 4.14x the loop, 29 slower in the sweep, 20 on
//! their own, 9 past 1.10x. This round the sweep warms every method's buffers before timing
//! (four untimed rounds of the three and 5 ms; the replay eight runs of `copyto` and 5 ms): on
//! these virtual hosts a buffer just filled ran 2-3x slower for its first passes, and `copy()`,
//! timed first, paid for it alone (case 130: 601 us in the sweep, 207 us on its own). Two
//! changes to the copies: loops that merge once one of them is turned round now merge (blocks
//! of a row flipped in one operand, their elements in the other: one reversed run; `f64`
//! `(145,73,3):(-219,3,-1) -> (219,-3,1)` 12-18 -> 6-7 us, NumPy 9.4; of 8,000 random cases 41
//! plans change, 0.71x the time in geometric mean), and flipped rows are reversed a block at a
//! time in 32-byte chunks (rows of 16 `f64`: 358 -> 106-116 us, NumPy 246, the loop 307; the
//! 258 flipped-row cases of the 2,000 0.77x their time). A run at its end: 4.65x the loop and
//! 2.07x NumPy over two replays, one case past 1.10x the loop in the sweep (189: 0.88x, 1.24x
//! on its own), 14-16 past 1.10x NumPy (the worst, case 189, `f64` scattered 3 apart: 13.8
//! against 8.4-8.8 us); the 2,000-case sweep 4.37x the loop and 1.92x NumPy (the machine at
//! 0.87x), 49 cases slower than the loop in the sweep, 18 on their own, 9 past 1.10x. Three
//! planner rules of the round before moved the slowest cases: a copy whose loops fall into two
//! groups, fast in the destination and fast in the source, runs in group tiles (case 106, `f64`
//! `(4,7018,1,2,10)`, a transposition between two groups of two loops: 0.73-0.93x the loop ->
//! 3.48x); a block of element loops whose rows touch more than 96 pages is tiled (case 60,
//! `f64` read 15 KB apart in rows of 175: 0.78-1.07x -> 1.41x); and nests of a few elements a
//! cube run one loop per row length chosen once a nest, with a long loop of short strides moved
//! inside blocks of a few elements. Those last two came from a second sweep of 2,000 cases (`--
//! --cases 2000 --seed 7`), whose shapes of three or four short axes around a long one ran at
//! 0.23-0.43x the loop (`(2,2,3466,2)` of `u16`: 63-97 -> 22 us, the loop 20); that sweep now
//! gives 4.07x the loop in geometric mean, 50 cases slower than the loop in the sweep and 24 on
//! their own, 17 past 1.10x of it (the worst, case 741, `f64` rows of 61 elements 197 KB apart:
//! 0.55x there, 1.1x in another program's buffers). 6-12 cases take more than 1.10x NumPy's
//! time in the three replays: cases the sweep's process left slow (169, rows of 893 `f64`:
//! 0.46x there, 63 us on its own against NumPy's 71), `f64` gathers bound by memory (130, a
//! source read 2 apart backwards: 0.70x, 200-222 us on its own against NumPy's 175) and
//! same-layout contiguous copies where both call memcpy (0.88x: the noise between the two
//! processes). Before rows of one channel moved by byte shuffles (the last round) the figures
//! were 4.19x and 1.76-1.79x: those were element loops at NumPy's speed, 10-20x a memcpy's time
//! (the `u8` rows two apart of case 183: 272 -> 32 us, NumPy 253 us). Earlier rounds' runs had
//! 3.94x / 1.68-2.34x, 3.86x / 1.92x (the geometric means move more between runs than planner
//! rules move them), with NumPy's default huge pages (`--hugepages on`) 1.74-1.80x against
//! 1.78-1.81x without: copies whose strides cross a page each step take less time on them (the
//! rank-5 `u64` copy of case 127: 1.65 against 1.90 ms), a difference of the buffers, not of
//! the copy. Flipped rows move as reversed vector runs from 128 bytes a row (elements under 8
//! bytes from 32 in blocks of 8 rows or more): reversals of 1-byte elements take a seventh to a
//! twelfth of NumPy's time, of 2-byte ones a quarter, of 4-byte ones half (8-byte ones are at
//! par, bound by memory). Earlier rounds' runs had 4.27x / 1.78-1.81x, 4.04x / 1.71-1.75x (with
//! huge pages on NumPy's side) and 3.58x / 1.61x.
