//! Kernels: move data between layouts, validated once, then tight loops.
//!
//! Every kernel takes slices with a layout each (anything that is a [`Mapping`]: a
//! [`Layout`](crate::Layout) today, an interleaved layout through the same trait) and follows
//! one contract:
//!
//! 1. **Plan** ([`Plan::new`]): check the shapes agree, drop extent-1 axes, merge axes that
//!    merge in every operand, flip axes that run backwards in all, order the loops by stride
//!    (destination weighted most), merge again (also two loops that merge once one is turned
//!    round: blocks flipped in one operand and rows flipped in the other, `merge_turned`;
//!    on hosts also two loops apart, one or more sorted between them, where the inner one
//!    and the loop just outside it make a kernel's block, or the inner one is innermost
//!    under such a block, the merged loop in the inner one's place: `merge_apart`)
//!    and tile the two innermost when the operands disagree on the fastest axis (first
//!    taking a long loop over short ones into the block where the innermost rows' lines
//!    crowd a few cache sets: `long_over_short`) and the block is worth it (longer than a
//!    tile both ways and taken by a transpose kernel, or rows whose cache lines would not stay cached: `plan/tiling.rs`'s
//!    `tile_worth`, the one rule; a block of 2-byte elements with one side of 16 to 64
//!    elements, or of 8-byte (and wider) ones with one of 8 to 64, runs whole, its short loop
//!    innermost: `short_whole`; when
//!    the copy runs, a tiled transpose of 2-, 4- or 8-byte primitives whose band along the
//!    destination's rows touches at most 512 KiB of lines runs whole too, `walk_whole`,
//!    and one of bytes where its destination's rows crowd their cache sets, `rows_crowd`,
//!    chosen by type as the kernel is, `raw::block_tile`);
//!    an untiled block of rows shorter than 8 whose outer loop is a source's fastest runs
//!    with the two swapped (`rows_swap`, beside it), unless no long loop joins the new
//!    rows and they step, in an operand the short loop steps within a line, lines whose
//!    cache sets hold 64 of them or fewer (`short_back`, asked last; a block of one tile or
//!    less too, where loops outside repeat it and its rows hold more than twice the lines
//!    their sets keep, `small_back`), and a tile of element loops
//!    whose rows read a source's lines crowded into a few first-level sets (not the
//!    second-level ones) runs turned, the source's fastest loop inside, where the turned rows'
//!    lines fit their sets (`tile_back`, asked with it); on hosts, a nest of three operands
//!    or more (`zip_map`'s), every element of 4 bytes or more, whose tiles' rows are a whole
//!    loop of fewer than 8 steps runs untiled, that loop moved inside the rows'
//!    (`few_rows_inside`, asked first); a copy whose loops fall into two
//!    disjoint groups, fast in the destination and fast in the source, with blocks of a few
//!    elements and more than 16 of the destination's (each a stream of the source), runs in
//!    group tiles: the source's long loop cut at a divisor, the destination's group around
//!    runs of the source's (`group`, beside them; an innermost run of both operands counts
//!    with the source's group where those streams crowd their first-level sets; the tiling
//!    rule counts pages as well as lines); in an untiled nest, a loop of fewer than 8 steps
//!    (or 8 that use up the lines they come back to) moves inside the long loop just inside
//!    it (the innermost only where the two make no kernel's block and the short loop's
//!    steps use up the lines they come back to, `uses_up`; not one making a transposes'
//!    block with the innermost) whose pass evicts its lines from the second-level cache's
//!    sets too, in an operand it steps within a line (`far_back`, in `order.rs`;
//!    `evicts_far`, in `tiling.rs`); an untiled nest whose two innermost loops make at most
//!    8 elements runs its innermost loop of 16 or more steps whose strides are at most half
//!    a line innermost, and on hosts so does a nest of three loops or more whose innermost
//!    loop of at most 3 steps sits under such a loop, the two no kernel's block
//!    (`long_inside`), and one whose three innermost make a cube of at most 64 elements
//!    (its outer loop under 16 steps) moves its longest loop of 64 steps or more into the
//!    cube's outer place, on hosts, unless its pass evicts the lines the cube's outer loop
//!    comes back to (`long_cube`, beside it; `evicts`, in `tiling.rs`); an untiled nest of
//!    three operands or more (`zip_map`'s) whose innermost rows step the destination a line
//!    or more, and with the other operands that do touch half again as many lines as their
//!    first-level sets hold, runs in the destination's order instead (`crowds_destination`,
//!    in `tiling.rs`; `by_operand`, in `order.rs`); last, a block whose
//!    destination steps one element backwards in one loop (forwards in neither) while a
//!    source steps one forwards in the other has that loop turned round, so its destination
//!    runs forwards and a transpose takes it, and likewise a block whose source steps one
//!    element backwards in one loop (forwards in neither) while the destination steps one
//!    forwards in the other (`face`, in `flip.rs`). A prepared copy made
//!    [`tuned`](CopyPlan::tuned) also has each nest's loops sorted by one operand's strides,
//!    merged again and faced (`by_operand`, in `order.rs`: the destination's order, then the
//!    source's), validates each such plan as any other, times them against the planner's on
//!    the caller's buffers and keeps the fastest.
//! 2. **Validate**, before anything is written: every offset of every operand lies inside its
//!    slice; the destination is unique; in place, the two operands coincide or are disjoint.
//!    Each failure is its own [`LayoutError`](crate::LayoutError), and the destination is
//!    untouched.
//! 3. **Loop**: the driver (`drive.rs`) walks each nest's outer loops and hands its 2-D
//!    blocks (the two innermost loops, cut to the tile) to the block kernel, which one rule
//!    (`raw::block_kind`, found once per nest or per block shape, not per block) sends to:
//!    rows of consecutive elements (one or two fixed-size moves a row up to 128 bytes, else
//!    `copy_from_slice`-like moves), planar
//!    <-> interleaved blocks of 2 to 16 channels, at least 16 pixels and one step of the
//!    target's shuffles (byte shuffles and register transposes: SSSE3, AVX2, NEON;
//!    `channels::takes`, the one rule for both ways and the blocks turned), rows of one channel (the source's elements 2
//!    to 16 apart, a pixel of at most 16 bytes, or 2 to 4 apart of 8-byte elements in rows
//!    of 512 or more, the destination's consecutive, either way round) gathered by the same shuffles a whole block at a time, SIMD transposes of 1-, 2-, 4- and 8-byte
//!    primitives holding at least one whole micro-kernel block (on hosts, four of 8-byte
//!    ones) (SSE2, AVX, AVX2, NEON; past the last-level cache with whole-line non-temporal
//!    stores), rows running forwards in one operand and backwards in the other (a flip,
//!    hosts: 128 bytes or more a row, or of elements under 8 bytes 32 in blocks of 8 rows or
//!    more) as reversed runs in 32-byte
//!    vector chunks, one call a block, and element loops for the rest (rows of 2 to 16
//!    elements unrolled on hosts, 2 to 4 on bare metal).
//!    Blocks of short rows or of elements, often a few elements each, run inlined into the
//!    driver instead, three loops at a time (`drive::for_each_cube`, `raw::small_cube`), and
//!    so do blocks of longer rows (not streamed), each row one run (`raw::Inline::Runs`);
//!    cubes of at most 64 elements in rows of 2 to 8 strided elements take one loop per row
//!    length, chosen once a nest (`raw::tiny_cubes`). [`map`](crate::map) and [`zip_map`]
//!    run an untiled nest whose rows are shorter than 16 elements, or strided under fewer
//!    than 8 rows, or (on hosts) strided and shorter than 32 where no source's block would
//!    be packed (`loose_rows`), as plain loops, three at a time, and a tiled one whose tiles
//!    hold fewer than 8 strided rows as plain loops tile by tile (`map_plain`, `zip_plain`),
//!    unless the rows' path packs a source of 1- or 2-byte elements into rows of 32 or more
//!    (`narrow_packed`) or, for `map`, the tiles' rows are longer than 32 and strided in the
//!    destination (`long_strided_tiles`); a pointer an operand, rows of 2 to 8
//!    elements compiled for their length on hosts, as the tiny cubes' (`row_len`)
//!    (`raw::elementwise`'s `short_rows`; `map` keeps its
//!    vectorised reversed chunks for rows read backwards one element a step, of 32 bytes or
//!    more, `chunked`): a row's set-up
//!    and a transposed source's packing would cost more than its few elements. [`fill`](crate::fill)
//!    and [`fold`](crate::fold) run such nests the same way on hosts (`short_cubes`), but
//!    for runs of 9 to 15 consecutive elements, which a slice takes faster.
//!    A transpose of 2-, 4- or 8-byte elements whose columns come in groups, consecutive on
//!    one side (the three innermost loops of `oihw -> OIhw16i16o`: 16 channels × 9
//!    positions, in whatever order the planner put them) runs three loops at a time too,
//!    each cube in whole tiles (8 × 8, 4 × 4 of 8-byte elements) through a table of its
//!    scattered columns (`transpose::Grouped`, hosts), where the blocks' own transposes
//!    would leave an edge in every block, or element loops run.
//!    Copies larger than the last-level cache store non-temporally.
//!
//! | kernel | operands (0 is written) | what it does |
//! | --- | --- | --- |
//! | [`copy()`](crate::copy()) | dst, src | `dst[i] = src[i]` |
//! | [`copy_uninit`] | dst (uninitialised), src | same, then the written span as `&mut [T]` |
//! | [`copy_within`] | one buffer: dst, src | same, in place |
//! | [`fill`](crate::fill) | dst | `dst[i] = value` |
//! | [`map`](crate::map) | dst, src | `dst[i] = f(src[i])` |
//! | [`zip_map`] | dst, a, b | `dst[i] = f(a[i], b[i])` |
//! | [`fold`](crate::fold) | src (read only) | `acc = f(acc, src[i])` in plan order |
//!
//! | file | what it does | `unsafe` |
//! | --- | --- | --- |
//! | `mapping.rs` | [`Mapping`] and [`Lowered`]: what an operand lowers to | no |
//! | `plan.rs`, `plan/` | [`Plan`]: the loops, chosen once: the steps in order (`builder.rs`), each rule in the file named after it (`merge.rs`, `flip.rs`, `order.rs`, `tiling.rs`, `sets.rs` the cache sets the tiling, the small cubes' strips and the grouped transpose's bands read, `group.rs`, `measure.rs` the bounds, `pieces.rs` the block pieces, `peel.rs` the loops past a nest's), the operands' readers (`operands.rs`), the small-nest form of one nest of at most two loops (`block.rs`) | no |
//! | `element.rs` | facts about the element type, decided by type (`TypeId`) | no |
//! | `unique.rs` | uniqueness: the destination's search (no two indices share an element), and the same search for two operands of one buffer (in place: they coincide or share no element) | no |
//! | `proof/` | bounds (`proof/bounds.rs`: the one rule for offsets inside a slice, and the shortest slice that holds them); the witnesses `InBounds`, `Unique`, `Disjoint`, `Dense`, `UniqueBlock`, minted only by validation; `Checked`: a prepared kernel's plan with the facts found about it (shortest slices, unique destination, disjoint operands, its one block), from which each run mints its witnesses; `Windows`: a run-time kernel's operands cut (blocked differently, or a rank past [`MAX_LOOPS`] peeled) into more pieces than a plan holds (blocked ones up to [`MAX_PIECES`], every window checked against the others; peeled ones any number, the whole operands checked once), all validated before any runs, each run through its own plan's witnesses | no |
//! | `prepared/` | one file per prepared kernel: [`CopyPlan`], [`CopyWithinPlan`], [`FillPlan`], [`ZipMapPlan`]: planned and validated once (`const` for [`Layout`](crate::Layout) operands), run many times; each with room for [`MAX_NESTS`] nests, or the `M` it is made `with_nests` (operands cut into more pieces: blocked very differently, a rank past [`MAX_LOOPS`] peeled) | no |
//! | `split/` | [`Plan::part`]: a plan cut into disjoint parts; the work each part carries; [`CopyParts`]: the parts of one copy, each handed out once to any runtime | yes (one part runs through a raw destination pointer) |
//! | `par.rs` | the `rayon` feature: `par_copy`, `par_map`, `par_zip_map`, `par_fill` drive the parts on rayon's pool | no |
//! | `drive.rs` | the loop driver: a nest's 2-D blocks (or 3-D, for small blocks) and runs, as offsets | no |
//! | `raw/` | the loops' memory accesses, each demanding the witnesses it relies on: copies, the block kinds and their kernel, the inlined small blocks, the row loops (short rows, runs that avoid the C library's slow `memcpy` case), fill / map / zip-map / fold | yes |
//! | `transpose/` | SIMD transposes of 1-, 2-, 4- and 8-byte elements (dispatch and blocks; the streaming macro-kernel for large ones; the grouped transpose of columns in groups; one file per backend) | yes |
//! | `channels/` | byte-shuffle planar <-> interleaved kernels, and one channel gathered from its pixels (masks, algorithm, padded transposes, one file per backend) | yes |
//! | `stream.rs` | non-temporal stores for copies past the last-level cache | yes |
//! | `small/` | small copies: a one-block plan of a transpose shape classified once, run by one block kernel (2-channel interleave, SIMD transpose); the run-time [`copy()`](crate::copy())'s planner specialisations chosen by the operands' shape (a transpose block, one contiguous run, a tiny copy into a C-contiguous destination), each checked by the one validation of a nest and run through the witness it mints; hosts only (bare-metal builds keep the general loops alone, for code size) | yes |
//! | `zip_tiles.rs` | `zip_map` over transposed sources in packed tiles (`A + Aᵀ`) | yes |
//! | `backend/` | the one place a target's SIMD kernels are chosen: the `Backend` trait (the transposes, the channel shuffles, the small blocks' stereo interleave, the streaming stores, the reversed runs; default bodies the portable twins) and one implementation per target (x86-64, aarch64 NEON, Miri's portable twins, plain loops elsewhere), `Target` the one this build runs; inside a backend, the channel shuffles' vector unit is the `channels::Unit` trait | yes (calls into the kernels under their contracts) |
//! | `cpu.rs` | x86-64 feature detection with `cpuid`, no `std` needed | yes (`cpuid`, `xgetbv`) |
//!
//! Planning, validation and the loop driver are safe code.

// One unsafe operation per block, each with its own SAFETY line.
#![deny(clippy::multiple_unsafe_ops_per_block)]

mod mapping;
mod plan;
mod element;
mod drive;
mod unique;
mod proof;
#[expect(
    unsafe_code,
    reason = "the kernels' memory accesses; each block has a SAFETY argument"
)]
mod raw;
#[expect(
    unsafe_code,
    reason = "SIMD intrinsics; each block has a SAFETY argument"
)]
mod transpose;
#[expect(
    unsafe_code,
    reason = "SIMD intrinsics; each block has a SAFETY argument"
)]
mod channels;
#[expect(
    unsafe_code,
    reason = "non-temporal store intrinsics; each block has a SAFETY argument"
)]
mod stream;
#[expect(
    unsafe_code,
    reason = "packed tiles of `zip_map` through raw pointers; each block has a SAFETY argument"
)]
mod zip_tiles;
#[cfg(x86_kernels)]
#[expect(unsafe_code, reason = "cpuid and xgetbv intrinsics")]
mod cpu;
#[expect(
    unsafe_code,
    reason = "the backends' SIMD kernels, called under their contracts; each block has a SAFETY argument"
)]
mod backend;
#[cfg(not(target_os = "none"))]
#[expect(
    unsafe_code,
    reason = "the block kernels of small copies; each block has a SAFETY argument"
)]
mod small;
mod copy;
mod prepared;
#[expect(
    unsafe_code,
    reason = "one part of a split plan runs through a raw destination pointer; SAFETY argued"
)]
mod split;
#[cfg(feature = "rayon")]
mod par;
mod fill;
mod map;
mod fold;

pub use copy::{copy, copy_uninit, copy_within};
pub use fill::fill;
pub use fold::fold;
pub use map::{map, zip_map};
pub use mapping::{Blocks, Level, Lowered, MAX_LEVELS, Mapping};
#[cfg(feature = "rayon")]
pub use par::{PAR_BYTES, par_copy, par_fill, par_map, par_zip_map};
pub use plan::{Loop, MAX_LOOPS, MAX_NESTS, MAX_PIECES, Nest, Plan};
pub use prepared::{CopyPlan, CopyWithinPlan, FillPlan, ZipMapPlan};
pub use split::{CopyPart, CopyParts};
