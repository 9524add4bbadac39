//! [`Plan`]: the loops a kernel runs for `K` operands of one shape, chosen once.
//!
//! Planning turns the operands' [`Lowered`] forms into at most `M` loop nests (one per piece
//! of the shape that is strided in every operand; `M` is [`MAX_NESTS`] unless a plan is
//! made [`with_nests`](Plan::with_nests)). For each nest, in this order:
//!
//! 1. each blocked axis (an axis with [`Level`](crate::plan::Level)s in some operand) is
//!    cut (`plan/pieces.rs`) into runs that every operand reads as strided loops, by the
//!    place values of all operands' levels on it: with one interleave by `f`, a block axis
//!    and a lane axis (the interleaved operands step `strides[d]` and 1, the others
//!    `f·strides[d]` and `strides[d]`) and a partial last block as a second nest; operands
//!    blocked differently (other factors, other axes, an axis blocked twice) cut the shape
//!    into more pieces, one nest each;
//! 2. extent-1 axes are dropped, and neighbours that merge in every operand
//!    (`outer stride == inner stride · inner extent`) are merged (`plan/merge.rs`); where more loops remain
//!    than a nest holds ([`MAX_LOOPS`], a rank past it), the outermost in the order of step 4
//!    are peeled (`plan/peel.rs`): each combination of their indices is a piece, one nest
//!    each;
//! 3. axes whose strides are negative (or zero) in every operand are flipped, so runs ascend
//!    (`plan/flip.rs`);
//! 4. the loops are ordered by the cache lines their steps touch, most outermost:
//!    `Σ w_k min(|stride_k|, line)`, the destination (operand 0) weighted `K` and every
//!    source 1 (Strided.jl's rule, with every stride of a 64-byte line or more counting
//!    alike), ties broken by the uncapped sum (`plan/order.rs`, `outer_first`), then
//!    merged again, two neighbours also where one of them turned round lets them merge
//!    (the outer's stride minus the inner's times its extent in every operand: blocks of a
//!    row flipped in one operand, the blocks' elements flipped in the other, one reversed
//!    run; `merge_turned`, the loop turned the one the destination runs backwards);
//! 5. when a source's fastest axis is not the innermost loop (a transpose, `A + A'`), that
//!    axis moves just outside the innermost loop and both are tiled: `p × p` tiles with `p`
//!    the largest power of two such that `p² · itemsize <= TILE_BYTES` (4096 bytes where
//!    there is an OS, 512 on bare metal: 32 × 32 for `f32` on hosts); a block of the two
//!    innermost loops of at most `p²` elements is not tiled (the loops still move), nor is
//!    a block of 2-byte elements with one side of 16 to 64 elements, or of 8-byte (and
//!    wider) ones with one of 8 to 64, which runs whole with its short loop innermost
//!    (`short_whole`); the one rule for
//!    whether a block is worth tiles, and the other cuts, in `plan/tiling.rs` and
//!    `plan/group.rs` (where the transposes take a tiled block whole when it runs, by its
//!    element type: `walk_whole`, beside them); an untiled nest of small blocks, or of a short
//!    innermost loop, has a long loop moved into them (`long_inside`, `long_cube` in
//!    `plan/order.rs`), and a block
//!    written backwards against a forward source is turned (`face`, `plan/flip.rs`);
//! 6. each operand's bounds are measured (`plan/measure.rs`), for the validation.
//!
//! `plan/builder.rs` runs the steps in this order for a nest; each rule is written once, in
//! the file named after it, and called from there by the builder, the peeler
//! (`plan/peel.rs`) and the small nests' planners (`plan/block.rs`, whose `copy_nest` calls
//! the two-operand forms each rule's file keeps beside its general one, on the same
//! per-operand step: `merge2`, `turn2` and `backwards2`, `measure2`; a Cortex-M4 copy's
//! instructions, tested equal to the generic steps).
//!
//! ```text
//! copy of a 4096 x 4096 f32 transpose          Plan::new(&[dst.lowered(), src.lowered()])
//! dst (4096,4096):(4096,1)                     nest 0: offsets [0, 0], 16777216 elements
//! src (4096,4096):(1,4096)                       loop 0: extent 4096, strides [4096, 1], tile 32
//!                                                loop 1: extent 4096, strides [1, 4096], tile 32
//! ```
//!
//! The plan is plain stack data (about `M · 8 · (K + 1)` words), so firmware can keep one
//! and a GPU host can read its loops to size a launch.

use crate::LayoutError;
use crate::algo::access::{get, set};
use crate::kernel::mapping::Lowered;

pub(crate) mod block;
mod builder;
mod display;
mod flip;
mod group;
mod measure;
mod merge;
mod operands;
mod order;
mod peel;
mod pieces;
mod sets;
mod storage;
mod tiling;

use builder::Builder;
use flip::{backwards2, face, flip, turn2};
pub(crate) use measure::measure;
use measure::measure2;
use merge::{merge, merge_turned, merge2};
pub(crate) use operands::{all_strided, check_operands};
use operands::{at, item_bounds, itemsize_of, offsets_of, stride_at, stride_or_0, strides_at};
pub(crate) use order::{LINE_BYTES, TINY_CUBE, line_for};
use order::{by_operand, crowded_in_destination_order, outer_first, outer_first2};
#[cfg(not(target_os = "none"))]
pub(crate) use sets::{L1_SETS, orbit};
pub(crate) use sets::{L1_WAYS, l2_set_lines, set_lines};
use storage::Nests;
pub(crate) use tiling::{SET_ROOM, cube_turns, set_shares, sets_overflow, side_for, walk_whole};
use tiling::{short_back, tile2, untiled_small};

/// Bytes of *source* data one tile of a tiled copy covers (a tile of `itemsize`-byte
/// elements is about `sqrt(TILE_BYTES / itemsize)` on a side): 4096 on targets with an OS
/// (a 32 KiB+ L1D holds the source and destination tiles with room), 512 on bare metal (a
/// few KiB of cache or none, tight SRAM; the packed-tile scratch of `map` and `zip_map` is
/// this big on the stack).
pub(crate) const TILE_BYTES: usize = if cfg!(target_os = "none") { 512 } else { 4096 };

const _: () = assert!(TILE_BYTES.is_power_of_two() && TILE_BYTES >= 64);

/// The most loop nests one [`Plan`] holds: one per piece of the shape that is strided in
/// every operand.
///
/// Operands interleaved alike (or not at all) need one nest, and a second for a partial last
/// block; operands interleaved differently cut the shape into more pieces: blocks of 8 and
/// of 16 on one axis (nChw8c -> nChw16c) three at most, two different axes four at most.
/// Every plan carries room for this many nests unless it is made with more (it is plain
/// stack data), so it is kept to what those cases need; [`Plan::new`] (and the prepared
/// plans' `new`, `of` and `from_lowered`) refuses operands that need more with
/// [`LayoutError::InterleaveConflict`] (see there for when that happens), or
/// [`LayoutError::RankOverflow`] for loops peeled past [`MAX_LOOPS`]. A plan made
/// [`with_nests`](Plan::with_nests) (and a prepared plan, [`CopyPlan::with_nests`](crate::CopyPlan::with_nests))
/// holds its own number `M` of them; the run-time kernels plan such operands [`MAX_NESTS`]
/// pieces at a time ([`MAX_PIECES`]).
///
/// # Examples
///
/// ```
/// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
/// use strided_layout::plan::{Mapping, Plan, MAX_NESTS};
/// // nChw8c -> nChw16c with 24 channels: blocks of 8 against blocks of 16, the last partial.
/// let blocked = |f| InterleavedLayout::dense([1, 24, 2, 2], 4, InterleaveLayout::new(1, f)?);
/// let plan = Plan::new(&[blocked(16)?.lowered(), blocked(8)?.lowered()])?;
/// assert!(plan.nests().len() > 1 && plan.nests().len() <= MAX_NESTS);
/// assert_eq!(plan.volume(), 96);
/// # Ok::<(), LayoutError>(())
/// ```
pub const MAX_NESTS: usize = 4;

/// The most pieces the run-time kernels cut one copy's shape into: operands blocked so
/// differently that they need more than [`MAX_NESTS`] nests (oneDNN's `OIhw16i16o` and
/// `OIhw4i16o4i` with partial blocks on both blocked axes need six) are planned
/// [`MAX_NESTS`] pieces at a time, each window validated (and every pair of windows checked
/// for a shared destination element) before anything is written. Past this the kernels
/// refuse with [`LayoutError::InterleaveConflict`]; a [`Plan`] (and so a prepared plan or
/// split parts) holds [`MAX_NESTS`], or the `M` it is made [`with_nests`](Plan::with_nests),
/// at most this many of them blocked pieces. Plain operands whose loops past [`MAX_LOOPS`] are
/// peeled into pieces have no such bound: they are checked whole, once.
///
/// 64: validation compares every two pieces, and windows are planned again for it, so its
/// cost grows with the square of the pieces; the named formats of oneDNN reorder into one
/// another in at most 10.
///
/// # Examples
///
/// ```
/// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
/// use strided_layout::plan::{Mapping, Plan, MAX_PIECES};
/// // Blocks of 2 against blocks of 3 on an axis of 13: a piece per phase of their least
/// // common multiple (6), more than one plan holds.
/// let a = InterleavedLayout::dense([13, 13], 4, InterleaveLayout::new(0, 2)?)?;
/// let b = InterleavedLayout::dense([13, 13], 4, InterleaveLayout::new(0, 3)?)?;
/// assert_eq!(Plan::new(&[a.lowered(), b.lowered()]), Err(LayoutError::InterleaveConflict));
/// let src: Vec<u32> = (0..a.required_len()? as u32).collect();
/// let mut dst = vec![0u32; b.required_len()?];
/// strided_layout::copy(&src, &a, &mut dst, &b)?; // planned in windows
/// for i in 0..13 {
///     for j in 0..13 {
///         let (x, y) = (a.offset_of([i, j])?, b.offset_of([i, j])?);
///         assert_eq!(dst[y as usize], src[x as usize]);
///     }
/// }
/// assert!(MAX_PIECES > 6);
/// # Ok::<(), LayoutError>(())
/// ```
pub const MAX_PIECES: usize = 64;

/// The most loops one nest holds: after extent-1 axes are dropped and mergeable axes merged,
/// the loops past this many (the outermost in the loop order) are *peeled*: each combination
/// of their indices becomes a nest of its own, a *piece* (`plan/peel.rs`). A plan holds
/// [`MAX_NESTS`] pieces (past that [`Plan::new`] is [`LayoutError::RankOverflow`]), or the
/// `M` it is made [`with_nests`](Plan::with_nests); the run-time kernels plan any number, a
/// window of [`MAX_NESTS`] at a time, the whole operands checked once.
///
/// 8: a rank-7 layout that merges nowhere, plus the block axis of an interleave split. It is
/// the default of a plan's third parameter `L`, the loops each of its nests has room for:
/// every [`Plan`] (and every prepared plan) without that parameter carries this many loops
/// per nest (a nest of a [`Plan<2>`] is 136 bytes on 32-bit targets, 272 on 64-bit ones), so
/// it is kept no larger than real layouts need; only a rank past it plans the pieces (a test
/// on `N`, folded away below). A plan made [`with_loops`](Plan::with_loops) (or a
/// [`CopyPlan`](crate::CopyPlan) made [`with_loops`](crate::CopyPlan::with_loops)) has room
/// for its own `L`: more, so that a rank-12 copy that merges nowhere is one nest, or fewer,
/// so that a plan of short nests takes less memory. The other prepared plans and the
/// run-time kernels keep this default, and the DMA lowerings take plans of at most this many
/// loops a nest (a plan made with room for more does not compile there).
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError};
/// use strided_layout::plan::{Mapping, Plan, MAX_LOOPS};
/// // Extent 2 on every axis, strides 3^k: no two axes merge, each is a loop of its own.
/// let fits = Layout::new([2; 8], [2187, 729, 243, 81, 27, 9, 3, 1], 4)?.lowered();
/// assert_eq!(Plan::new(&[fits, fits])?.nests()[0].loops().len(), MAX_LOOPS);
/// // One loop more: the outermost is peeled, two nests of 8 loops (offsets 0 and 6561).
/// let more = Layout::new([2; 9], [6561, 2187, 729, 243, 81, 27, 9, 3, 1], 4)?.lowered();
/// let plan = Plan::new(&[more, more])?;
/// assert_eq!(plan.nests().len(), 2);
/// assert_eq!(plan.nests()[1].offsets(), [6561, 6561]);
/// // Three more: 2 x 2 x 2 pieces, more than a plan holds (a run-time `copy` plans them).
/// let s: [isize; 11] = core::array::from_fn(|k| 3isize.pow(10 - k as u32));
/// let most = Layout::new([2; 11], s, 4)?.lowered();
/// assert_eq!(Plan::new(&[most, most]), Err(LayoutError::RankOverflow { max: MAX_LOOPS }));
/// let src: Vec<u32> = (0..88_574).collect();
/// let mut dst = vec![0u32; 88_574];
/// strided_layout::copy(&src, &Layout::new([2; 11], s, 4)?, &mut dst, &Layout::new([2; 11], s, 4)?)?;
/// assert_eq!(dst[88_573], 88_573);
/// # Ok::<(), LayoutError>(())
/// ```
pub const MAX_LOOPS: usize = 8;

/// One loop of a nest: how many steps, and how far each operand moves per step (elements).
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order};
/// use strided_layout::plan::{Loop, Mapping, Plan};
/// let dst = Layout::dense([4, 3], 4, Order::C)?;
/// let plan = Plan::new(&[dst.lowered(), dst.lowered()])?;
/// assert_eq!(plan.nests()[0].loops(), &[Loop { extent: 12, strides: [1, 1] }]);
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Loop<const K: usize> {
    /// Number of steps (at least 2 in a planned nest).
    pub extent: usize,
    /// Stride of each operand, in elements, operand 0 first.
    pub strides: [isize; K],
}

impl<const K: usize> Loop<K> {
    /// A loop of one step, which moves nothing.
    pub(crate) const UNIT: Self = Self {
        extent: 1,
        strides: [0; K],
    };
}

/// One loop nest of a [`Plan`]: loops outermost first, each operand's starting offset, and
/// the tile of the two innermost loops when the operands disagree on the fastest axis. It has
/// room for `L` loops, the plan's ([`MAX_LOOPS`] unless the plan is made
/// [`with_loops`](Plan::with_loops)).
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order};
/// use strided_layout::plan::{Mapping, Plan};
/// let dst = Layout::dense([64, 64], 4, Order::C)?;
/// let src = dst.transposed(0, 1)?;
/// let plan = Plan::new(&[dst.lowered(), src.lowered()])?;
/// let nest = &plan.nests()[0];
/// assert_eq!((nest.loops().len(), nest.tile(), nest.volume()), (2, Some([32, 32]), 4096));
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Nest<const K: usize, const L: usize = MAX_LOOPS> {
    loops: [Loop<K>; L],
    depth: usize,
    offsets: [isize; K],
    bounds: [(isize, isize); K],
    tile: Option<[usize; 2]>,
}

impl<const K: usize, const L: usize> Nest<K, L> {
    // All zeros (unused loops have extent 0), so it is built with a memset.
    const EMPTY: Self = Self {
        loops: [Loop {
            extent: 0,
            strides: [0; K],
        }; L],
        depth: 0,
        offsets: [0; K],
        bounds: [(0, 0); K],
        tile: None,
    };

    /// The loops, outermost first; empty for a nest of one element.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::plan::{Loop, Mapping, Plan};
    /// // Every other column of a 3 × 4 matrix, into a dense 3 × 2 one.
    /// let src = Layout::dense([3, 4], 4, Order::C)?.narrowed(1, 0, 2)?;
    /// let dst = Layout::dense([3, 2], 4, Order::C)?;
    /// let plan = Plan::new(&[dst.lowered(), src.lowered()])?;
    /// let loops = plan.nests()[0].loops();
    /// assert_eq!(loops, [Loop { extent: 3, strides: [2, 4] }, Loop { extent: 2, strides: [1, 1] }]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn loops(&self) -> &[Loop<K>] {
        match self.loops.split_at_checked(self.depth) {
            Some((used, _)) => used,
            None => &self.loops,
        }
    }

    /// Each operand's offset at the first element, in elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::plan::{Mapping, Plan};
    /// // A flipped source starts at its last element.
    /// let dst = Layout::dense([4], 4, Order::C)?;
    /// let plan = Plan::new(&[dst.lowered(), dst.flipped(0)?.lowered()])?;
    /// assert_eq!(plan.nests()[0].offsets(), [0, 3]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn offsets(&self) -> [isize; K] {
        self.offsets
    }

    /// Each operand's smallest and largest offset over the nest, in elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::plan::{Mapping, Plan};
    /// let dst = Layout::dense([2, 3], 4, Order::C)?;
    /// let src = Layout::new([2, 3], [-10, 2], 4)?.with_offset(10)?; // offsets 10 12 14 | 0 2 4
    /// let plan = Plan::new(&[dst.lowered(), src.lowered()])?;
    /// assert_eq!(plan.nests()[0].bounds(), [(0, 5), (0, 14)]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn bounds(&self) -> [(isize, isize); K] {
        self.bounds
    }

    /// `Some([ta, tb])` when the two innermost loops run in `ta × tb` tiles. Two block
    /// kernels take a tiled block whole instead, chosen by the element type when the copy
    /// runs: the channel kernels their planar <-> interleaved blocks, and on hosts the
    /// transposes their blocks of 2-, 4- and 8-byte primitives whose band along the
    /// destination's rows touches at most 512 KiB of cache lines.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::plan::{Mapping, Plan};
    /// // A transpose is tiled for the caches; a plain copy is not.
    /// let dst = Layout::dense([64, 64], 4, Order::C)?;
    /// let transpose = Plan::new(&[dst.lowered(), dst.transposed(0, 1)?.lowered()])?;
    /// assert_eq!(transpose.nests()[0].tile(), Some([32, 32]));
    /// let copy = Plan::new(&[dst.lowered(), dst.lowered()])?;
    /// assert_eq!(copy.nests()[0].tile(), None);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn tile(&self) -> Option<[usize; 2]> {
        self.tile
    }

    /// The number of elements the nest visits (the product of its extents).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::plan::{Mapping, Plan};
    /// let l = Layout::dense([3, 5], 4, Order::C)?.lowered();
    /// assert_eq!(Plan::new(&[l, l])?.nests()[0].volume(), 15);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn volume(&self) -> usize {
        // Each nest is a part of the operands' shape, whose volume fits `usize`.
        let mut v = 1usize;
        let mut rest = self.loops();
        while let [l, tail @ ..] = rest {
            v = v.saturating_mul(l.extent);
            rest = tail;
        }
        v
    }

    /// This nest without its innermost loop and untiled (its offsets and bounds kept): the
    /// nest the loop driver walks to hand out 3-D blocks, the innermost loop added by the
    /// caller. Every offset of the result is an offset of `self`.
    pub(crate) const fn without_innermost(&self) -> Self {
        let mut out = *self;
        out.depth = self.depth.saturating_sub(1);
        out.tile = None;
        out
    }

    /// This nest walked in operand `k`'s memory order, untiled: its loops sorted by operand
    /// `k`'s `|stride|`, largest outermost, merged again ([`order::by_operand`]) and faced
    /// as every nest is ([`face`]). The same elements at the same offsets, in another order:
    /// a candidate [`CopyPlan::tuned`](crate::CopyPlan::tuned) times against the planner's.
    ///
    /// # Errors
    ///
    /// [`LayoutError::OffsetOverflow`] if a turned loop's offset overflows `isize` (a nest
    /// inside the bounds [`Plan::new`] checked has none).
    pub(crate) const fn in_order_of(&self, k: usize) -> Result<Self, LayoutError> {
        let mut out = *self;
        out.tile = None;
        let Some((loops, _)) = out.loops.split_at_mut_checked(out.depth) else {
            return Ok(out);
        };
        out.depth = match by_operand(loops, &mut out.offsets, k) {
            Ok(n) => n,
            Err(e) => return Err(e),
        };
        if let Some(([.., outer, inner], _)) = out.loops.split_at_mut_checked(out.depth) {
            if let Err(e) = face(outer, inner, &mut out.offsets) {
                return Err(e);
            }
        }
        Ok(out)
    }

    /// Steps `lo..hi` of loop `axis` with the other loops whole (`lo < hi <= extent`): one
    /// part of the nest (`split/`). A one-step remainder is dropped (its offset moves to
    /// the start), and the tile is kept while two loops remain, cut to the new extent.
    ///
    /// Every offset of the result is an offset of `self`, inside the bounds [`Plan::new`]
    /// checked, so the wrapping operations below are exact.
    #[expect(
        clippy::many_single_char_names,
        reason = "`n`, `o`, `i`, `l`, `d`: step count, operand and loop counters, loop, span"
    )]
    pub(crate) const fn range(&self, axis: usize, lo: usize, hi: usize) -> Self {
        let mut out = *self;
        if axis >= self.depth {
            return out;
        }
        let Some(cut) = get(&self.loops, axis) else {
            return out;
        };
        let n = hi.saturating_sub(lo);
        let mut o = 0;
        while o < K {
            let s = stride_or_0(get(&cut.strides, o));
            let start = stride_or_0(get(&out.offsets, o));
            #[expect(
                clippy::cast_possible_wrap,
                reason = "`lo < extent`: `lo · s` is an offset difference inside the nest's bounds"
            )]
            set(
                &mut out.offsets,
                o,
                start.wrapping_add((lo as isize).wrapping_mul(s)),
            );
            o = o.saturating_add(1);
        }
        if n == 1 {
            let mut i = axis.saturating_add(1);
            while i < self.depth {
                if let Some(l) = get(&self.loops, i) {
                    set(&mut out.loops, i.saturating_sub(1), l);
                }
                i = i.saturating_add(1);
            }
            out.depth = self.depth.saturating_sub(1);
            set(
                &mut out.loops,
                out.depth,
                Loop {
                    extent: 0,
                    strides: [0; K],
                },
            );
            if out.depth < 2 {
                out.tile = None;
            }
        } else {
            set(
                &mut out.loops,
                axis,
                Loop {
                    extent: n,
                    strides: cut.strides,
                },
            );
            // The tile covers the two innermost loops: cut its side along `axis`.
            if let Some([ta, tb]) = out.tile {
                let inner = self.depth.saturating_sub(1);
                if axis == inner {
                    out.tile = Some([ta, if tb < n { tb } else { n }]);
                } else if axis.saturating_add(1) == inner {
                    out.tile = Some([if ta < n { ta } else { n }, tb]);
                }
            }
        }
        let mut o = 0;
        while o < K {
            let start = stride_or_0(get(&out.offsets, o));
            let (mut lo, mut hi) = (start, start);
            let mut i = 0;
            while i < out.depth {
                let Some(l) = get(&out.loops, i) else { break };
                #[expect(
                    clippy::cast_possible_wrap,
                    reason = "`extent - 1` steps stay inside the nest's bounds"
                )]
                let d = (l.extent.saturating_sub(1) as isize)
                    .wrapping_mul(stride_or_0(get(&l.strides, o)));
                if d < 0 {
                    lo = lo.wrapping_add(d);
                } else {
                    hi = hi.wrapping_add(d);
                }
                i = i.saturating_add(1);
            }
            set(&mut out.bounds, o, (lo, hi));
            o = o.saturating_add(1);
        }
        out
    }
}

/// The loops a kernel runs over `K` operands of one shape, operand 0 the destination.
///
/// Built once by [`Plan::new`]; plain `Copy` data on the stack, with room for `M` nests
/// ([`MAX_NESTS`] unless made [`with_nests`](Plan::with_nests)) of `L` loops each
/// ([`MAX_LOOPS`] unless made [`with_loops`](Plan::with_loops)). `Display` lists the loops.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order};
/// use strided_layout::plan::{Mapping, Plan};
/// let dst = Layout::dense([2, 3], 4, Order::C)?;
/// let src = Layout::dense([2, 3], 4, Order::C)?.flipped(1)?;
/// let plan = Plan::new(&[dst.lowered(), src.lowered()])?;
/// assert_eq!(
///     plan.to_string(),
///     "nest 0: offsets [0, 2], 6 elements\n  loop 0: extent 2, strides [3, 3]\n  loop 1: extent 3, strides [1, -1]"
/// );
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Plan<const K: usize, const M: usize = MAX_NESTS, const L: usize = MAX_LOOPS> {
    nests: Nests<K, M, L>,
    count: usize,
}

impl<const K: usize> Plan<K> {
    /// Plans the loops for operands `ops` (operand 0 the destination), all of one shape, in
    /// at most [`MAX_NESTS`] nests: [`Plan::with_nests`] with the default room.
    ///
    /// # Errors
    ///
    /// As [`Plan::with_nests`], with `M` = [`MAX_NESTS`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::plan::{Mapping, Plan};
    /// let dst = Layout::dense([3, 4], 4, Order::C)?;
    /// let src = Layout::dense([3, 4], 4, Order::F)?;
    /// let plan = Plan::new(&[dst.lowered(), src.lowered()])?;
    /// assert_eq!(plan.nests().len(), 1);
    /// assert_eq!(plan.volume(), 12);
    /// let bad = Layout::dense([4, 3], 4, Order::C)?;
    /// assert_eq!(Plan::new(&[dst.lowered(), bad.lowered()]), Err(LayoutError::ShapeMismatch { axis: 0 }));
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn new<const N: usize>(ops: &[Lowered<N>; K]) -> Result<Self, LayoutError> {
        Self::with_nests(ops)
    }

    /// [`Plan::EMPTY`] for a kernel planning at run time: built as a value, so only the room
    /// for one nest is cleared (a `const` is copied or cleared whole, all [`MAX_NESTS`] nests:
    /// about 230 instructions a call on a Cortex-M4 for a copy's plan, against about 80).
    /// The planner makes room for more nests when a plan needs them.
    #[expect(
        clippy::inline_always,
        reason = "a call would return the plan through memory: the value is what saves the clear"
    )]
    #[inline(always)]
    pub(crate) const fn empty() -> Self {
        Self {
            nests: Nests::One([Nest::EMPTY]),
            count: 0,
        }
    }
}

impl<const K: usize, const M: usize> Plan<K, M> {
    /// Plans the loops for operands `ops` (operand 0 the destination), all of one shape, in
    /// at most `M` nests: one per strided piece of the shape ([`MAX_NESTS`], the room of
    /// [`Plan::new`], holds every piece but those of operands blocked very differently, or of
    /// a rank past [`MAX_LOOPS`] that peels loops). `M` is at least 1, checked at compile
    /// time.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::ShapeMismatch`] if an operand's shape differs from operand 0's (the
    ///   first differing axis);
    /// - [`LayoutError::AxisOutOfRange`] if an interleave names an axis `>= N`;
    /// - [`LayoutError::FactorZero`] if an interleave factor is 0;
    /// - [`LayoutError::InterleaveConflict`] if the operands' interleaves cut the shape into
    ///   more than `M` strided pieces (or more than [`MAX_PIECES`], whatever `M`);
    /// - [`LayoutError::OffsetOverflow`] if an offset or stride the plan needs overflows
    ///   `isize` (never for operands that keep the invariants of [`Layout`](crate::Layout));
    /// - [`LayoutError::RankOverflow`] if the operands need more than [`MAX_LOOPS`] loops and
    ///   the loops past them, peeled, make more than `M` pieces.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// use strided_layout::plan::{Mapping, Plan};
    /// // Blocks of 2 against blocks of 3 on an axis of 13: six pieces, more than `Plan::new`'s
    /// // four nests hold, planned in a plan with room for eight.
    /// let a = InterleavedLayout::dense([13, 13], 4, InterleaveLayout::new(0, 2)?)?.lowered();
    /// let b = InterleavedLayout::dense([13, 13], 4, InterleaveLayout::new(0, 3)?)?.lowered();
    /// assert_eq!(Plan::new(&[a, b]), Err(LayoutError::InterleaveConflict));
    /// let plan = Plan::<2, 8>::with_nests(&[a, b])?;
    /// assert_eq!((plan.nests().len(), plan.volume()), (6, 169));
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn with_nests<const N: usize>(ops: &[Lowered<N>; K]) -> Result<Self, LayoutError> {
        Self::with_loops(ops)
    }
}

impl<const K: usize, const M: usize, const L: usize> Plan<K, M, L> {
    /// The plan of nothing; [`Plan::build`] fills it in place.
    pub(crate) const EMPTY: Self = Self {
        nests: Nests::EMPTY,
        count: 0,
    };

    /// [`Plan::with_nests`] with room for `L` loops a nest where [`Plan::new`] has
    /// [`MAX_LOOPS`]: the operands' loops past `L` (after merging, the outermost in the
    /// loop order) are peeled into pieces, one nest each, as past [`MAX_LOOPS`]. A larger `L`
    /// keeps a rank past [`MAX_LOOPS`] in one nest (no pieces, each piece a loop start); a
    /// smaller one makes a plan that never needs as many loops smaller (`L` loops of
    /// `K` strides and an extent a nest). `L` is at least 1, checked at compile time.
    ///
    /// # Errors
    ///
    /// As [`Plan::with_nests`], with [`LayoutError::RankOverflow`] `{ max: L }` when the
    /// loops peeled past `L` make more than `M` pieces.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError};
    /// use strided_layout::plan::{Mapping, Plan, MAX_LOOPS};
    /// // Rank 11, extent 2 on every axis, strides 3^k: nothing merges. `Plan::new` would peel
    /// // three loops into eight pieces, more than its four nests; room for 11 loops: one nest.
    /// let s: [isize; 11] = core::array::from_fn(|k| 3isize.pow(10 - k as u32));
    /// let l = Layout::new([2; 11], s, 4)?.lowered();
    /// assert_eq!(Plan::new(&[l, l]), Err(LayoutError::RankOverflow { max: MAX_LOOPS }));
    /// let plan = Plan::<2, 1, 11>::with_loops(&[l, l])?;
    /// assert_eq!(plan.nests().len(), 1);
    /// assert_eq!(plan.nests()[0].loops().len(), 11);
    /// // Room for 2 loops a nest: a rank-3 copy whose axes do not merge is 2 nests of 2 loops.
    /// let small = Layout::new([2, 3, 5], [100, 10, 1], 4)?.lowered();
    /// let two = Plan::<2, 4, 2>::with_loops(&[small, small])?;
    /// assert_eq!((two.nests().len(), two.volume()), (2, 30));
    /// assert!(two.nests().iter().all(|n| n.loops().len() == 2));
    /// assert!(core::mem::size_of_val(&two) < core::mem::size_of::<Plan<2, 4>>());
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn with_loops<const N: usize>(ops: &[Lowered<N>; K]) -> Result<Self, LayoutError> {
        const { assert!(M >= 1, "Plan<K, M, L>: M must be at least 1") };
        const { assert!(L >= 1, "Plan<K, M, L>: L must be at least 1") };
        let mut plan = Self::EMPTY;
        match plan.build(ops) {
            Ok(()) => Ok(plan),
            Err(e) => Err(e),
        }
    }

    /// [`Plan::new`] into `self`, which must be empty ([`Plan::EMPTY`] or [`Plan::empty`]);
    /// the kernels plan in place so that the plan (about a kilobyte on 64-bit targets) is
    /// never moved. A `const fn`, so a plan of layouts known at compile time is built by the
    /// compiler.
    ///
    /// Operands none of which is interleaved go to [`Plan::build_strided`], the others to
    /// [`Plan::build_any`]. Always inlined: where the operands are visible (a kernel over
    /// [`Layout`](crate::Layout)s, whose `interleave` is `None`), the test folds away and the
    /// pieces planner of interleaved operands is not linked (about 3.7 KB on a Cortex-M).
    #[expect(
        clippy::inline_always,
        reason = "the test must fold where the operands are built, or both planners are linked"
    )]
    #[inline(always)]
    pub(crate) const fn build<const N: usize>(
        &mut self,
        ops: &[Lowered<N>; K],
    ) -> Result<(), LayoutError> {
        if all_strided(ops) {
            self.build_strided(ops)
        } else {
            self.build_any(ops)
        }
    }

    /// [`Plan::build`] for operands none of which is interleaved (every `interleave` is
    /// `None`; [`all_strided`]): one nest of at most `N` loops and never the pieces planner
    /// of blocked operands; rank `N <= 2` takes [`Plan::build_small`], and a rank past
    /// [`MAX_LOOPS`] may peel loops into up to `M` nests (`plan/peel.rs`).
    ///
    /// Never inlined: the planner's scratch then lives in its own stack frame, popped before
    /// the kernel's loops run, so the deepest call chain of a run-time copy is the kernel's
    /// frame and its loops', not the planner's on top (a 1 KB stack holds it on a Cortex-M).
    #[inline(never)]
    pub(crate) const fn build_strided<const N: usize>(
        &mut self,
        ops: &[Lowered<N>; K],
    ) -> Result<(), LayoutError> {
        match check_operands(ops) {
            Err(e) => Err(e),
            Ok(None) => Ok(()),
            Ok(Some((false, side))) if N <= 2 && L >= 2 => self.build_small(ops, side),
            Ok(Some((false, side))) => match self.build_nest(ops, side, 0) {
                Ok(pieces) if pieces <= M => Ok(()),
                Ok(_) => Err(LayoutError::RankOverflow { max: L }),
                Err(e) => Err(e),
            },
            // Never: the caller checked that no operand is interleaved, so nothing splits.
            Ok(Some((true, _))) => Err(LayoutError::InterleaveConflict),
        }
    }

    /// [`Plan::build_nest`] for operands of rank `N <= 2`: [`block::small_nest`]'s two-loop
    /// nest, stored as the plan's one nest. Its steps are the general builder's on the
    /// nest's first two slots, named once, where the general builder walks its
    /// [`MAX_LOOPS`] slots with a checked index at each step (`const` plans, and the
    /// run-time kernels other than `copy()`, which plans rank 2 without a plan:
    /// [`block::copy_nest`]). It plans exactly what [`Plan::build_nest`] plans, down to the
    /// slot a merged-away loop leaves (tested over every small rank-2 pair).
    const fn build_small<const N: usize>(
        &mut self,
        ops: &[Lowered<N>; K],
        side: usize,
    ) -> Result<(), LayoutError> {
        if K == 0 {
            return Ok(());
        }
        let small = match block::small_nest(ops, side) {
            Ok(small) => small,
            Err(e) => return Err(e),
        };
        // Slot 0: a plan starts as room for one nest and only grows (`storage.rs`).
        let Some(nest) = self.nests.first_mut() else {
            return Err(LayoutError::InterleaveConflict);
        };
        let loops: &mut [Loop<K>] = &mut nest.loops;
        let [outer, inner, ..] = loops else {
            return Err(LayoutError::RankOverflow { max: L });
        };
        [*outer, *inner] = small.loops;
        nest.depth = small.depth;
        nest.offsets = small.offsets;
        nest.bounds = small.bounds;
        nest.tile = small.tile;
        self.count = 1;
        Ok(())
    }

    /// [`Plan::build`] for any operands: interleaved ones cut the shape into pieces
    /// (`plan/pieces.rs`), one nest each.
    pub(crate) const fn build_any<const N: usize>(
        &mut self,
        ops: &[Lowered<N>; K],
    ) -> Result<(), LayoutError> {
        match self.build_window(ops, 0) {
            Ok(pieces) if pieces <= M => Ok(()),
            Ok(_) => Err(LayoutError::InterleaveConflict),
            Err(e) => Err(e),
        }
    }

    /// [`Plan::build_any`] of pieces `first..first + M` only (a window: the run-time
    /// kernels plan operands cut into more pieces than a plan holds one window at a time),
    /// returning the number of pieces in all (0 for an empty shape, 1 where nothing cuts it).
    pub(crate) const fn build_window<const N: usize>(
        &mut self,
        ops: &[Lowered<N>; K],
        first: usize,
    ) -> Result<usize, LayoutError> {
        match check_operands(ops) {
            Err(e) => Err(e),
            Ok(None) => Ok(0),
            Ok(Some((true, side))) => self.build_pieces(ops, offsets_of(ops), side, first),
            Ok(Some((false, side))) => self.build_nest(ops, side, first),
        }
    }

    /// The one nest of operands that no interleave splits: every axis pushed in order, then
    /// flipped, ordered, merged and tiled ([`Builder::finish`]); the nests of pieces
    /// `first..first + M` and the number of pieces, which is 1 (nothing planned for
    /// `first > 0`) unless a rank past [`MAX_LOOPS`] needs more loops than a nest holds
    /// (`plan/peel.rs`: a test on `N`, which folds away below it).
    const fn build_nest<const N: usize>(
        &mut self,
        ops: &[Lowered<N>; K],
        side: usize,
        first: usize,
    ) -> Result<usize, LayoutError> {
        if N > L {
            return self.build_peeled(ops, side, first);
        }
        if first > 0 {
            return Ok(1);
        }
        let Some(first) = ops.first() else {
            return Ok(0);
        };
        let shape = first.shape;
        // Slot 0 of an empty plan: no room to make, so the growing path is not called here
        // (`None` never: a plan starts as room for one nest and only grows).
        let Some(nest) = self.nests.first_mut() else {
            return Err(LayoutError::InterleaveConflict);
        };
        nest.offsets = offsets_of(ops);
        let mut b = Builder { nest };
        let mut k = 0;
        while k < N {
            let extent = match get(&shape, k) {
                Some(e) => e,
                None => 1,
            };
            if let Err(e) = b.push(extent, strides_at(ops, k)) {
                return Err(e);
            }
            k = k.saturating_add(1);
        }
        let [narrowest, widest] = item_bounds(ops);
        if let Err(e) = b.finish(side, line_for(widest), narrowest) {
            return Err(e);
        }
        self.count = 1;
        Ok(1)
    }

    /// A builder writing the next nest in place (the plan is built without moving nests).
    const fn builder(&mut self, offsets: [isize; K]) -> Result<Builder<'_, K, L>, LayoutError> {
        let Some(nest) = self.nests.slot_mut(self.count) else {
            return Err(LayoutError::InterleaveConflict);
        };
        nest.offsets = offsets;
        Ok(Builder { nest })
    }

    /// The loop nests, run one after the other (none when the shape has an extent 0).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::plan::{Mapping, Plan};
    /// let l = Layout::dense([3, 5], 4, Order::C)?.lowered();
    /// assert_eq!(Plan::new(&[l, l])?.nests().len(), 1);
    /// let empty = Layout::dense([3, 0], 4, Order::C)?.lowered();
    /// assert!(Plan::new(&[empty, empty])?.nests().is_empty());
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn nests(&self) -> &[Nest<K, L>] {
        let slots = self.nests.slots();
        match slots.split_at_checked(self.count) {
            Some((done, _)) => done,
            None => slots,
        }
    }

    /// Every nest walked in operand `k`'s memory order, untiled ([`Nest::in_order_of`]).
    ///
    /// # Errors
    ///
    /// As [`Nest::in_order_of`].
    pub(crate) const fn in_order_of(&self, k: usize) -> Result<Self, LayoutError> {
        let mut out = *self;
        let mut i = 0;
        while i < out.count {
            if let Some(n) = out.nests.slot_mut(i) {
                *n = match n.in_order_of(k) {
                    Ok(m) => m,
                    Err(e) => return Err(e),
                };
            }
            i = i.saturating_add(1);
        }
        Ok(out)
    }

    /// A plan of `nests` in order, `None`s left out (the parts of `split/`).
    pub(crate) const fn from_nests(nests: [Option<Nest<K, L>>; M]) -> Self {
        let mut plan = Self::EMPTY;
        let mut rest: &[Option<Nest<K, L>>] = &nests;
        while let [n, tail @ ..] = rest {
            rest = tail;
            if let Some(n) = n {
                if let Some(slot) = plan.nests.slot_mut(plan.count) {
                    *slot = *n;
                }
                plan.count = plan.count.saturating_add(1);
            }
        }
        plan
    }

    /// The number of elements the plan visits.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::plan::{Mapping, Plan};
    /// let dst = Layout::dense([2, 3, 4], 4, Order::C)?;
    /// let src = Layout::dense([4, 2, 3], 4, Order::C)?.permuted([1, 2, 0])?; // shape (2, 3, 4)
    /// let plan = Plan::new(&[dst.lowered(), src.lowered()])?;
    /// assert_eq!(plan.volume(), 24);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn volume(&self) -> usize {
        let mut v = 0usize;
        let mut rest = self.nests();
        while let [n, tail @ ..] = rest {
            v = v.saturating_add(n.volume());
            rest = tail;
        }
        v
    }
}

#[cfg(test)]
#[expect(
    clippy::unwrap_used,
    reason = "tests of layouts that are valid by construction"
)]
mod tests {
    use super::tiling::tile_worth;
    use super::{Loop, Plan, block, outer_first, outer_first2};
    use crate::{Layout, Lowered, Order};

    #[test]
    #[cfg_attr(
        miri,
        ignore = "safe code only, no unsafe on its path: the native x86-64 and i686 runs check it"
    )]
    fn outer_first2_is_outer_first_of_two_operands() {
        // Strides around every cap (a line of 1- to 8-byte elements, and 1), their negatives,
        // and the largest, where the uncapped sums need the double-width weight.
        let vals: &[isize] = &[
            0,
            1,
            2,
            7,
            8,
            9,
            16,
            31,
            32,
            33,
            63,
            64,
            65,
            1000,
            isize::MAX,
            isize::MIN + 1,
        ];
        let caps: &[usize] = &[1, 8, 16, 32, 64];
        let signed = || vals.iter().flat_map(|&v| [v, v.wrapping_neg()]);
        let mut cases = 0usize;
        for &cap in caps {
            for ad in signed() {
                for as_ in signed() {
                    for bd in signed() {
                        for &bs in vals {
                            let a = Loop {
                                extent: 2,
                                strides: [ad, as_],
                            };
                            let b = Loop {
                                extent: 3,
                                strides: [bd, bs],
                            };
                            assert_eq!(
                                outer_first2(&a, &b, cap),
                                outer_first(&a, &b, cap),
                                "{a:?} {b:?} cap {cap}"
                            );
                            cases += 1;
                        }
                    }
                }
            }
        }
        assert_eq!(cases, caps.len() * (2 * vals.len()).pow(3) * vals.len());
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "safe code only, no unsafe on its path: the native x86-64 and i686 runs check it"
    )]
    fn build_strided_plans_what_build_any_plans() {
        // Plain operands: the strided planner (what the kernels over `Layout`s link) and the
        // general one give the same plan, or the same error, from a run-time empty plan and
        // from the constant one.
        let dst = Layout::dense([3, 4, 2], 4, Order::C).unwrap();
        let strides: &[isize] = &[-3, -2, -1, 0, 1, 2, 3];
        let mut cases = 0;
        for &s0 in strides {
            for &s1 in strides {
                for s2 in [-12isize, -1, 0, 1, 5, 8] {
                    let src = Layout::new([3, 4, 2], [s0, s1, s2], 4).unwrap();
                    let src = src.with_offset(60).unwrap();
                    let ops = [dst.lowered(), src.lowered()];
                    let (mut a, mut b) = (Plan::empty(), Plan::<2>::EMPTY);
                    let (ra, rb) = (a.build_strided(&ops), b.build_any(&ops));
                    assert_eq!(ra, rb);
                    assert_eq!(a, b, "{src:?}");
                    assert_eq!(Plan::new(&ops).unwrap(), a);
                    cases += 1;
                }
            }
        }
        assert_eq!(cases, strides.len().pow(2) * 6);
        let bad = Layout::dense([3, 2, 4], 4, Order::C).unwrap();
        let ops = [dst.lowered(), bad.lowered()];
        let (mut a, mut b) = (Plan::empty(), Plan::<2>::EMPTY);
        let err = b.build_any(&ops);
        assert_eq!(a.build_strided(&ops), err);
        assert!(err.is_err());
    }

    /// An 8-byte copy `src -> dst` through `copy()` and its prepared plan against the model
    /// (every other destination element left as it was), and a parallel copy's three parts
    /// covering the plan's volume.
    fn copies_as_the_model<const N: usize>(dst: &Layout<N>, src: &Layout<N>) {
        copies_as_the_model_of(dst, src, u64::MAX, |i| u64::try_from(i).unwrap());
    }

    /// [`copies_as_the_model`] in elements of `T`: source element `i` holds `value(i)`, the
    /// destination starts as `fill`.
    fn copies_as_the_model_of<T, const N: usize>(
        dst: &Layout<N>,
        src: &Layout<N>,
        fill: T,
        value: impl Fn(usize) -> T,
    ) where
        T: Copy + PartialEq + core::fmt::Debug + 'static,
    {
        let input: std::vec::Vec<T> = (0..src.required_len().unwrap()).map(value).collect();
        let mut model = std::vec![fill; dst.required_len().unwrap()];
        for (s, d) in src.offsets().zip(dst.offsets()) {
            model[d.unsigned_abs()] = input[s.unsigned_abs()];
        }
        let mut out = std::vec![fill; model.len()];
        crate::copy(&input, src, &mut out, dst).unwrap();
        assert_eq!(out, model);
        let mut out = std::vec![fill; model.len()];
        crate::CopyPlan::new(src, dst)
            .unwrap()
            .run(&input, &mut out)
            .unwrap();
        assert_eq!(out, model);
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        let seen: usize = (0..3).map(|i| plan.part(i, 3).volume()).sum();
        assert_eq!(seen, plan.volume());
    }

    /// The rank-<= 2 planner's plan and the general one's, from an empty run-time plan:
    /// equal results, and equal plans when planned.
    fn small_matches_general<const N: usize>(dst: &Layout<N>, src: &Layout<N>) -> bool {
        lowered_small_matches_general(&[dst.lowered(), src.lowered()])
    }

    /// [`small_matches_general`] for lowered operands; also the run-time copy's planner
    /// (`copy_nest`): the same error, no nest where the plan has none, else the plan's nest
    /// down to its first two slots.
    fn lowered_small_matches_general<const N: usize>(ops: &[Lowered<N>; 2]) -> bool {
        let (rb, b) = planners_agree(ops);
        let [dst, src] = ops;
        match (
            block::copy_nest(dst, src, super::line_for(dst.itemsize.max(src.itemsize))),
            rb,
            b.nests(),
        ) {
            (Err(e), Err(f), _) => assert_eq!(e, f, "{ops:?}"),
            (Ok(None), Ok(()), []) => {}
            (Ok(Some(small)), Ok(()), [nest]) => {
                assert_eq!(small.loops, [nest.loops[0], nest.loops[1]], "{ops:?}");
                assert_eq!(
                    (small.depth, small.offsets, small.bounds, small.tile),
                    (nest.depth, nest.offsets, nest.bounds, nest.tile),
                    "{ops:?}"
                );
                assert_eq!(small.loops(), nest.loops(), "{ops:?}");
                assert_eq!(small.volume(), nest.volume(), "{ops:?}");
            }
            (got, want, nests) => assert_eq!(
                (got.map(|n| n.is_some()), nests.len()),
                (want.map(|()| !nests.is_empty()), usize::from(want.is_ok())),
                "{ops:?}: the run-time planner disagrees with the general one"
            ),
        }
        rb.is_ok()
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "safe code only, no unsafe on its path: the native x86-64 and i686 runs check it"
    )]
    fn build_small_of_every_small_rank_two_pair_plans_what_build_nest_plans() {
        // Every rank-2 destination and source of one shape, extents 0..=4, strides -6..=6
        // (0 included), offsets that keep every offset in range; different itemsizes.
        let (extents, strides): (&[usize], &[isize]) = (
            &[0, 1, 2, 3, 4],
            &[-6, -5, -4, -3, -2, -1, 0, 1, 2, 3, 4, 5, 6],
        );
        let mut planned = 0usize;
        for &e0 in extents {
            for &e1 in extents {
                for &d0 in strides {
                    for &d1 in strides {
                        let dst = Layout::new([e0, e1], [d0, d1], 4).unwrap();
                        let dst = dst.with_offset(48).unwrap();
                        for &s0 in strides {
                            for &s1 in strides {
                                let src = Layout::new([e0, e1], [s0, s1], 2).unwrap();
                                let src = src.with_offset(50).unwrap();
                                planned += usize::from(small_matches_general(&dst, &src));
                            }
                        }
                    }
                }
            }
        }
        // Shapes with an extent 0 plan no nest (Ok too): every pair plans.
        assert_eq!(planned, extents.len().pow(2) * strides.len().pow(4));
        // Rank 1 and rank 0.
        for e in 0..=4usize {
            for d in -6..=6isize {
                for s in -6..=6isize {
                    let dst = Layout::new([e], [d], 4).unwrap().with_offset(30).unwrap();
                    let src = Layout::new([e], [s], 4).unwrap().with_offset(30).unwrap();
                    assert!(small_matches_general(&dst, &src));
                }
            }
        }
        let scalar = Layout::new([], [], 4).unwrap().with_offset(3).unwrap();
        assert!(small_matches_general(&scalar, &scalar));
        // Blocks large enough to tile (transposes, flipped), and a shape mismatch.
        for (shape, d, s) in [
            ([64, 48], [48, 1], [1, 64]),
            ([64, 48], [-48, 1], [1, -64]),
            ([48, 64], [1, 48], [64, 1]),
            ([64, 64], [64, 1], [-1, 64]),
            ([64, 2], [1, 64], [2, 1]),
            // A short loop: rows cached (untiled), and rows too long for the cache (tiled).
            ([4, 566], [566, 1], [1, 8]),
            ([4, 70_000], [70_000, 1], [1, 8]),
        ] {
            let dst = Layout::new(shape, d, 4).unwrap().with_offset(5000).unwrap();
            let src = Layout::new(shape, s, 4).unwrap().with_offset(5000).unwrap();
            assert!(small_matches_general(&dst, &src));
        }
        let (dst, bad) = (
            Layout::new([3, 4], [4, 1], 4).unwrap(),
            Layout::new([4, 3], [3, 1], 4).unwrap(),
        );
        assert!(!small_matches_general(&dst, &bad));
        let tiled = Layout::new([64, 48], [48, 1], 4).unwrap();
        let src = Layout::new([64, 48], [1, 64], 4).unwrap();
        let plan = Plan::new(&[tiled.lowered(), src.lowered()]).unwrap();
        assert!(plan.nests()[0].tile().is_some());
    }

    /// The rank-<= 2 planner's plan (`build_strided`, from an empty run-time plan) and the
    /// general one's for `ops`: the same plan, or the same error (asserted). Returns the
    /// general one's result and plan.
    fn planners_agree<const N: usize, const K: usize>(
        ops: &[Lowered<N>; K],
    ) -> (Result<(), crate::LayoutError>, Plan<K>) {
        let (mut a, mut b) = (Plan::empty(), Plan::<K>::EMPTY);
        let (ra, rb) = (a.build_strided(ops), b.build_any(ops));
        assert_eq!(ra, rb, "{ops:?}");
        if ra.is_ok() {
            assert_eq!(a, b, "{ops:?}");
        }
        (rb, b)
    }

    /// The rank-<= 2 planner and the general one on three operands (`zip_map`'s): the same
    /// plan, or the same error ([`planners_agree`]). Returns whether it planned.
    fn small_matches_general3<const N: usize>(ops: &[Lowered<N>; 3]) -> bool {
        planners_agree(ops).0.is_ok()
    }

    /// The three-operand rule of tiles whose rows are a whole short loop
    /// (`tiling::few_rows_inside`): `zip_map`'s operands of 4 bytes or more (the random
    /// sweep's 61, a dense `(n, 4)` source into four rows far apart, written 3 apart; the
    /// second source laid out as the destination) plan untiled, the four rows innermost, in
    /// the small planner (rank 2) and the general one (a loop outside) alike; a copy's two
    /// operands, and 2-byte elements, keep the tiles. `zip_map` writes what the model does.
    #[test]
    fn three_operands_run_a_whole_short_loop_inside_untiled() {
        let rows: usize = 20_000;
        let far = isize::try_from(3 * rows + 5).unwrap();
        for size in [8, 4, 2] {
            let src = Layout::new([rows, 4], [4, 1], size).unwrap();
            let dst = Layout::new([rows, 4], [3, far], size).unwrap();
            let src3 = Layout::new(
                [2, rows, 4],
                [isize::try_from(4 * rows).unwrap(), 4, 1],
                size,
            );
            let dst3 = Layout::new([2, rows, 4], [4 * far, 3, far], size);
            let (src3, dst3) = (src3.unwrap(), dst3.unwrap());
            let copy = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
            assert_eq!(copy.nests()[0].tile().map(|[a, _]| a), Some(4), "{size}");
            for (zip, what) in [
                (
                    Plan::new(&[dst.lowered(), src.lowered(), dst.lowered()]),
                    "rank 2",
                ),
                (
                    Plan::new(&[dst3.lowered(), src3.lowered(), dst3.lowered()]),
                    "rank 3",
                ),
            ] {
                let zip = zip.unwrap();
                let nest = &zip.nests()[0];
                if size >= 4 {
                    assert_eq!(nest.tile(), None, "{size}, {what}");
                    assert_eq!(
                        nest.loops().last().map(|l| l.extent),
                        Some(4),
                        "{size}, {what}"
                    );
                } else {
                    assert_eq!(nest.tile().map(|[a, _]| a), Some(4), "{size}, {what}");
                }
            }
            assert!(small_matches_general3(&[
                dst.lowered(),
                src.lowered(),
                dst.lowered()
            ]));
        }
        if cfg!(miri) {
            return;
        }
        let (src, dst) = (
            Layout::new([rows, 4], [4, 1], 8).unwrap(),
            Layout::new([rows, 4], [3, far], 8).unwrap(),
        );
        let len = dst.required_len().unwrap();
        let first: std::vec::Vec<u64> = (0..u64::try_from(4 * rows).unwrap()).collect();
        let second: std::vec::Vec<u64> =
            (0..u64::try_from(len).unwrap()).map(|k| k << 20).collect();
        let mut out = std::vec![7u64; len];
        crate::zip_map(
            &first,
            &src,
            &second,
            &dst,
            &mut out,
            &dst,
            |x: u64, y: u64| x + y,
        )
        .unwrap();
        let mut want = std::vec![7u64; len];
        for (at_src, at_dst) in src.offsets().zip(dst.offsets()) {
            let (at_src, at_dst) = (at_src.unsigned_abs(), at_dst.unsigned_abs());
            want[at_dst] = first[at_src] + second[at_dst];
        }
        assert!(out == want);
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "safe code only, no unsafe on its path: the native x86-64 and i686 runs check it"
    )]
    fn build_small_of_three_operands_plans_what_build_nest_plans() {
        // Every rank-2 destination, source and second source of one shape, extents 0..=3,
        // strides -2..=2 (0 included), offsets that keep every offset in range.
        let (extents, strides): (&[usize], &[isize]) = (&[0, 1, 2, 3], &[-2, -1, 0, 1, 2]);
        let mut planned = 0usize;
        for &e0 in extents {
            for &e1 in extents {
                let each = |a: isize, b: isize, size: usize| {
                    let l = Layout::new([e0, e1], [a, b], size).unwrap();
                    l.with_offset(8).unwrap().lowered()
                };
                for &d0 in strides {
                    for &d1 in strides {
                        for &s0 in strides {
                            for &s1 in strides {
                                for (t0, t1) in [(d0, d1), (s1, s0), (-1, 2), (2, -1)] {
                                    let ops = [each(d0, d1, 4), each(s0, s1, 2), each(t0, t1, 4)];
                                    planned += usize::from(small_matches_general3(&ops));
                                }
                            }
                        }
                    }
                }
            }
        }
        assert_eq!(planned, extents.len().pow(2) * strides.len().pow(4) * 4);
        // Rows that crowd the destination's sets (`crowds_destination`): transposes whose
        // second source lies as the destination, from the power-of-two sweeps (156: `f64`
        // `(8, 65536)` read `(1, 16)`; 1240: `u16` `(32, 512)` read `(1, -32)` into `(-512,
        // -1)`; 809: `u16` `(4096, 64)` read `(-64, 1)`), run in the destination's order in
        // both planners, their rows the destination's runs; 156 read in order merges whole.
        let crowded = [
            ([8_usize, 65536], [1_isize, 16], [65536_isize, 1], 8_usize),
            ([32, 512], [1, -32], [-512, -1], 2),
            ([4096, 64], [-64, 1], [1, 4096], 2),
            ([8, 65536], [65536, 1], [65536, 1], 8),
        ];
        for (shape, read, written, size) in crowded {
            let side = |strides: [isize; 2]| {
                let l = Layout::new(shape, strides, size).unwrap();
                let low: isize = shape
                    .iter()
                    .zip(strides)
                    .map(|(&e, s)| s.min(0) * (e.cast_signed() - 1))
                    .sum();
                l.with_offset(-low).unwrap().lowered()
            };
            let (dst, src) = (side(written), side(read));
            let ops = [dst, src, dst];
            assert!(small_matches_general3(&ops), "{shape:?}");
            let plan = Plan::new(&ops).unwrap();
            let nest = &plan.nests()[0];
            let inner = nest.loops().last().unwrap();
            assert_eq!(
                (nest.tile(), inner.strides[0].unsigned_abs()),
                (None, 1),
                "{shape:?}: {plan}"
            );
            assert_eq!(nest.loops().len(), if read == written { 1 } else { 2 });
        }
    }

    /// Swapped rows in tiles (`swap_rows`): a block whose short rows were swapped for long
    /// ones is tiled when the long rows' lines overflow the cache (`tile_worth`), its short
    /// loop whole in each tile and runs of `side² / extent` elements (fewer where a run's
    /// lines would leave the first-level cache), in every planner; not where the short loop
    /// is the consecutive channels of pixels the long one steps over (`interleaves`), nor
    /// where the long rows stay cached. Each copies as the model does.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "large blocks; the tiled drivers run under Miri elsewhere"
    )]
    fn swapped_rows_that_overflow_the_cache_run_in_tiles() {
        let check = |dst: &Layout<2>, src: &Layout<2>| {
            let input: std::vec::Vec<u64> = (0..src.required_len().unwrap() as u64).collect();
            let mut out = std::vec![0u64; dst.required_len().unwrap()];
            crate::copy(&input, src, &mut out, dst).unwrap();
            for i in 0..dst.shape()[0] {
                for j in 0..dst.shape()[1] {
                    let (d, s) = (
                        dst.offset_of([i, j]).unwrap(),
                        src.offset_of([i, j]).unwrap(),
                    );
                    assert_eq!(
                        out[usize::try_from(d).unwrap()],
                        input[usize::try_from(s).unwrap()]
                    );
                }
            }
        };
        // The sweep's (8886, 4) `f64`: rows of 8886 written a line apart, 4 of them (568 KB
        // of lines a row): tiles of 4 x 64 (16 a side; 256 / 4).
        let src = Layout::new([8886, 4], [1, -8886], 8)
            .unwrap()
            .with_offset(26_658)
            .unwrap();
        let dst = Layout::new([8886, 4], [-8, 2], 8)
            .unwrap()
            .with_offset(71_080)
            .unwrap();
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        let nest = &plan.nests()[0];
        assert_eq!((nest.loops[0].extent, nest.loops[1].extent), (4, 8886));
        assert_eq!(nest.tile(), Some([4, 64]));
        assert!(small_matches_general(&dst, &src));
        check(&dst, &src);
        // Rows a line apart in 1-byte elements: a run of 4096 / 4 would leave the first-level
        // cache; runs of 252, the 256 lines of 16 KiB over the 65 bytes of lines an element
        // touches (a line of the destination, a byte of the source).
        let src = Layout::new([5397, 4], [1, 5397], 1).unwrap();
        let dst = Layout::new([5397, 4], [1104, 3], 1).unwrap();
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        assert_eq!(plan.nests()[0].tile(), Some([4, 252]));
        assert!(small_matches_general(&dst, &src));
        // Planar into 7 interleaved channels: the rows fill the destination's lines between
        // them; untiled.
        let src = Layout::new([24_045, 7], [1, 24_045], 8).unwrap();
        let dst = Layout::new([24_045, 7], [7, 1], 8).unwrap();
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        assert_eq!(
            (plan.nests()[0].loops[1].extent, plan.nests()[0].tile()),
            (24_045, None)
        );
        assert!(small_matches_general(&dst, &src));
        check(&dst, &src);
        // Rows whose lines stay in the first-level cache (400 elements 12 apart, 29 KB of
        // lines): untiled, as before.
        let dst = Layout::new([400, 3], [12, 2], 8).unwrap();
        let src = Layout::new([400, 3], [1, 400], 8).unwrap();
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        assert_eq!(
            (plan.nests()[0].loops[1].extent, plan.nests()[0].tile()),
            (400, None)
        );
        // The general planner (rank 3, a loop outside the block) tiles as the small ones.
        let src = Layout::new([2, 8886, 4], [35_544, 1, 8886], 8).unwrap();
        let dst = Layout::new([2, 8886, 4], [71_088, 8, 2], 8).unwrap();
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        let nest = &plan.nests()[0];
        assert_eq!(nest.loops[nest.depth - 1].extent, 8886);
        assert_eq!(nest.tile(), Some([4, 64]));
    }

    /// Copies `src` into `dst` (rank 2) in `T`, checks the copy against the model and the
    /// two planners against each other, and returns the tile the general planner gives.
    fn copied_tile<T: Copy + PartialEq + core::fmt::Debug + TryFrom<usize> + 'static>(
        dst: &Layout<2>,
        src: &Layout<2>,
    ) -> Option<[usize; 2]> {
        assert!(small_matches_general(dst, src));
        let input: std::vec::Vec<T> = (0..src.required_len().unwrap())
            .map(|i| T::try_from(i % 251).ok().unwrap())
            .collect();
        let fill = T::try_from(255).ok().unwrap();
        let mut out = std::vec![fill; dst.required_len().unwrap()];
        crate::copy(&input, src, &mut out, dst).unwrap();
        let mut model = std::vec![fill; out.len()];
        for i in 0..dst.shape()[0] {
            for j in 0..dst.shape()[1] {
                let (d, s) = (
                    dst.offset_of([i, j]).unwrap(),
                    src.offset_of([i, j]).unwrap(),
                );
                model[usize::try_from(d).unwrap()] = input[usize::try_from(s).unwrap()];
            }
        }
        assert_eq!(out, model);
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        plan.nests()[0].tile()
    }

    /// A `size`-byte layout of `shape` and `strides` at `offset`.
    fn at(shape: [usize; 2], strides: [isize; 2], size: usize, offset: isize) -> Layout<2> {
        Layout::new(shape, strides, size)
            .unwrap()
            .with_offset(offset)
            .unwrap()
    }

    /// A tile's row side (`run_side`): tiles cut from a block whose rows are a short loop
    /// whole hold as many elements as a square tile, in longer rows, in every planner; not
    /// where the rows are the channel kernels' (two interleaved channels, the pixels the same
    /// way in both operands and one element a step in the other), nor for 8-byte
    /// elements whose rows gather the source a line or more a step. Each copies as the model
    /// does.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "large blocks; the tiled drivers run under Miri elsewhere"
    )]
    fn tiles_of_a_short_loop_run_as_long_as_a_square_tile_holds() {
        let (src, dst) = (
            at([9893, 4], [6, 1], 4, 0),
            at([9893, 4], [-2, -26_720], 4, 101_883),
        );
        assert_eq!(copied_tile::<u32>(&dst, &src), Some([4, 256]));
        // 2 rows of `u8` read 4 apart (seed 19's 1310): 2 x 2048 (64 a side).
        let (src, dst) = (
            at([2, 60_000], [2, 4], 1, 0),
            at([2, 60_000], [60_000, 1], 1, 0),
        );
        assert_eq!(copied_tile::<u8>(&dst, &src), Some([2, 2048]));
        // Two interleaved channels (the channel kernels' block): 2 x 32 as before.
        let (src, dst) = (
            at([2, 50_000], [1, 2], 2, 0),
            at([2, 50_000], [50_000, 1], 2, 0),
        );
        assert_eq!(copied_tile::<u16>(&dst, &src), Some([2, 32]));
        // The same channels into planes written every other element (the power-of-two
        // sweep's 54), which no channel kernel takes: 2 x 512.
        let (src, dst) = (
            at([2, 50_000], [1, 2], 2, 0),
            at([2, 50_000], [100_000, 2], 2, 0),
        );
        assert_eq!(copied_tile::<u16>(&dst, &src), Some([2, 512]));
        // `f64` rows gathering the source 96 bytes apart (seed 17's 1730): 4 x 16 as before.
        let (src, dst) = (
            at([4, 5000], [-3, 12], 8, 9),
            at([4, 5000], [5000, 1], 8, 0),
        );
        assert_eq!(copied_tile::<u64>(&dst, &src), Some([4, 16]));
        // `f64` rows gathering the source 32 bytes apart (seed 7's 1480), two elements a
        // line: 2 x 128.
        let (src, dst) = (
            at([2, 8000], [1, -4], 8, 31_996),
            at([2, 8000], [8000, 1], 8, 0),
        );
        assert_eq!(copied_tile::<u64>(&dst, &src), Some([2, 128]));
        // Two interleaved `f64` channels read backwards into planes (seed 13's 847), which no
        // channel kernel takes: 2 x 128.
        let (src, dst) = (
            at([20_000, 2], [2, 1], 8, 0),
            at([20_000, 2], [-1, -20_000], 8, 39_999),
        );
        assert_eq!(copied_tile::<u64>(&dst, &src), Some([2, 128]));
        // The general planner (rank 3, a loop outside the block) sizes them alike.
        let src = Layout::new([3, 9893, 4], [60_000, 6, 1], 4).unwrap();
        let dst = Layout::new([3, 9893, 4], [4 * 9893, 1, 9893], 4).unwrap();
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        assert_eq!(plan.nests()[0].tile(), Some([4, 256]));
    }

    /// A block whose rows each read more than `STREAMS` source elements a page or more
    /// apart, the next row reading on in the same lines (`stream_strip`), runs in strips of
    /// `STREAM_STRIP` rows along its whole outer loop, in every planner, even where its
    /// rows' pages would have it tiled (`tile_worth`); not where the
    /// source's streams run under `STREAM_RUN` bytes, the rows are `STREAMS` or fewer, their
    /// elements less than a page apart, or the destination writes its rows side by side with
    /// gaps between their elements. Each copies as the model does.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "blocks of pages; the tiled drivers run under Miri elsewhere"
    )]
    fn rows_of_many_far_streams_run_in_strips() {
        use super::tiling::{STREAM_RUN, STREAM_STRIP, STREAMS};
        let dense = |shape: [usize; 2]| at(shape, [isize::try_from(shape[1]).unwrap(), 1], 4, 0);
        // Seed 7's 1504 in two axes: 20 `u32` rows read 4800 bytes apart, each row 8 bytes
        // on from the last (streams of 4800 bytes): strips of 600 x 8.
        let src = at([600, 20], [2, 1200], 4, 0);
        assert_eq!(
            copied_tile::<u32>(&dense([600, 20]), &src),
            Some([600, STREAM_STRIP])
        );
        // 100 rows, a page each: past `ROW_PAGES`, which would tile the block 16 x 16,
        // strips still (seed 29's 1916).
        let src = at([600, 100], [2, 1200], 4, 0);
        assert!(super::tiling::tile_worth(
            &super::Loop {
                extent: 600,
                strides: [100, 2]
            },
            &super::Loop {
                extent: 100,
                strides: [1, 1200]
            },
            16,
            16
        ));
        assert_eq!(
            copied_tile::<u32>(&dense([600, 100]), &src),
            Some([600, STREAM_STRIP])
        );
        // Read backwards, written backwards: the same strips.
        let src = at([600, 20], [-2, -1200], 4, 2 * 599 + 1200 * 19);
        let dst = at([600, 20], [-20, -1], 4, 20 * 600 - 1);
        assert_eq!(copied_tile::<u32>(&dst, &src), Some([600, STREAM_STRIP]));
        // Streams shorter than `STREAM_RUN` (100 steps of 8 bytes): untiled.
        const { assert!(100 * 8 < STREAM_RUN) };
        let src = at([100, 20], [2, 1200], 4, 0);
        assert_eq!(copied_tile::<u32>(&dense([100, 20]), &src), None);
        // `STREAMS` rows: untiled.
        let src = at([600, STREAMS], [2, 1200], 4, 0);
        assert_eq!(copied_tile::<u32>(&dense([600, STREAMS]), &src), None);
        // Rows read 4000 bytes apart, less than a page: untiled.
        let src = at([600, 20], [2, 1000], 4, 0);
        assert_eq!(copied_tile::<u32>(&dense([600, 20]), &src), None);
        // The destination's rows side by side, its elements 2 apart: untiled.
        let src = at([600, 20], [2, 1200], 4, 0);
        let dst = at([600, 20], [40, 2], 4, 0);
        assert_eq!(copied_tile::<u32>(&dst, &src), None);
        // The general planner (rank 3, a loop outside the block) strips alike.
        let src = Layout::new([3, 600, 20], [24_000, 2, 1200], 4).unwrap();
        let dst = Layout::new([3, 600, 20], [12_000, 20, 1], 4).unwrap();
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        assert_eq!(plan.nests()[0].tile(), Some([600, STREAM_STRIP]));
    }

    /// One rank-2 case of a tiling rule: elements of `size` bytes, the shape, the source's
    /// and the destination's strides, and the tile the planners cut.
    type TileCase = (
        usize,
        [usize; 2],
        [isize; 2],
        [isize; 2],
        Option<[usize; 2]>,
    );

    /// Checks that every planner cuts each case's tile and copies it as the model does
    /// (`copied_tile`).
    fn tiles_as_given(cases: &[TileCase]) {
        for &(size, shape, s, d, want) in cases {
            let (src, dst) = (at(shape, s, size, 0), at(shape, d, size, 0));
            let got = match size {
                1 => copied_tile::<u8>(&dst, &src),
                2 => copied_tile::<u16>(&dst, &src),
                4 => copied_tile::<u32>(&dst, &src),
                _ => copied_tile::<u64>(&dst, &src),
            };
            assert_eq!(got, want, "{size}-byte {shape:?}: {s:?} -> {d:?}");
        }
    }

    /// A copy's loops: extent and strides, outermost first.
    type CopyLoops = std::vec::Vec<(usize, [isize; 2])>;

    /// The first nest's loops and tile of the plan of a copy from `src` to `dst`.
    fn nest_of<const N: usize>(
        dst: &Layout<N>,
        src: &Layout<N>,
    ) -> (CopyLoops, Option<[usize; 2]>) {
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        let nest = &plan.nests()[0];
        let loops = nest.loops().iter().map(|l| (l.extent, l.strides)).collect();
        (loops, nest.tile())
    }

    /// The general planner's tile of `src` into `dst`, which copies as the model does.
    fn general_tile<const N: usize>(dst: &Layout<N>, src: &Layout<N>) -> Option<[usize; 2]> {
        copies_as_the_model(dst, src);
        Plan::new(&[dst.lowered(), src.lowered()]).unwrap().nests()[0].tile()
    }

    /// The short loop's tiling rule (`SHORT_ROW_BYTES`): a block of a few rows whose rows'
    /// lines overflow the first-level cache is tiled, in every planner, and copies as the
    /// model does; not where its rows stay there, nor where they are interleaved channels,
    /// nor where they already stream (the destination written one element a step from
    /// sources read within lines, or 8-byte elements written one a step or read a page or
    /// more apart).
    #[test]
    #[cfg_attr(
        miri,
        ignore = "large blocks; the tiled drivers run under Miri elsewhere"
    )]
    fn rows_of_a_short_loop_past_the_first_level_cache_run_in_tiles() {
        use super::tiling::SHORT_ROW_BYTES;
        const { assert!(555 * 96 > SHORT_ROW_BYTES && 300 * 96 < SHORT_ROW_BYTES) };
        tiles_as_given(&[
            // 4 rows of 555 `f64` read 64 bytes apart and written 32 apart (53 KB of lines
            // a row): tiles of 4 x 16; rows of 300 (29 KB): untiled.
            (8, [555, 4], [8, 1], [4, 2220], Some([4, 16])),
            (8, [300, 4], [8, 1], [4, 1200], None),
            // Three interleaved channels of `u32` into planes written 2 apart: untiled; the
            // same pixels 4 apart (not the channels' own): tiled.
            (4, [3000, 3], [3, 1], [2, 6000], None),
            (4, [3000, 3], [4, 1], [2, 6000], Some([3, 341])),
            // Written one element a step, read 5 apart: untiled; read 20 apart (more than a
            // line a step), tiled.
            (4, [3000, 4], [5, 1], [1, 3000], None),
            (4, [3000, 4], [20, 1], [1, 3000], Some([4, 240])),
            // `f64` written one a step, read 16 apart: untiled.
            (8, [1000, 2], [16, 1], [1, 1000], None),
            // `f64` written 2 apart, read 4800 bytes apart (seed 17's 180): untiled; the same
            // of `u32` (4400 bytes apart), tiled.
            (8, [459, 2], [600, 3], [2, 918], None),
            (4, [2000, 2], [1100, 1], [3, 6000], Some([2, 215])),
        ]);
        // The general planner: the sweep's case 79 (`f64` `(555, 8, 4)` read in order,
        // written 4 apart backwards into planes): tiles of 4 x 16.
        let src = Layout::new([555, 8, 4], [32, 4, 1], 8).unwrap();
        let dst = Layout::new([555, 8, 4], [-4, 2220, -17_760], 8)
            .unwrap()
            .with_offset(55_496)
            .unwrap();
        assert_eq!(general_tile(&dst, &src), Some([4, 16]));
    }

    /// The destination's tile (`tile`, `tile2`): where no source's fastest loop is outside the
    /// innermost, a block whose innermost loop writes a new destination line a step while
    /// the destination's fastest loop steps within a line is tiled around that loop, in every
    /// planner, and copies as the model does; not where the innermost writes within lines, nor
    /// where the destination's fastest loop steps a line or more.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "large blocks; the tiled drivers run under Miri elsewhere"
    )]
    fn the_destinations_fastest_loop_is_tiled_where_no_sources_is() {
        tiles_as_given(&[
            // Seed 19's 43: `f64` rows of 461 read in order, written 3 KB apart, 64 rows 48
            // bytes on (`dst[i][k]` at `384 i + 6 k`): tiles of 16 x 16.
            (8, [461, 64], [1, 2766], [384, 6], Some([16, 16])),
            // `u8` rows written 30 bytes apart (within lines), 10 rows 3 bytes on: untiled.
            (1, [2000, 10], [1, 2766], [30, 3], None),
            // The destination's fastest loop 10 elements apart (more than a line): untiled.
            (8, [461, 64], [1, 2766], [700, 10], None),
        ]);
        // The general planner (rank 3, a loop outside the block) tiles alike.
        let src = Layout::new([2, 461, 64], [177_024, 1, 2766], 8).unwrap();
        let dst = Layout::new([2, 461, 64], [177_024, 384, 6], 8).unwrap();
        assert_eq!(general_tile(&dst, &src), Some([16, 16]));
    }

    /// The cache-set rule (`sets_overflow`, `set_room`): a block of long loops whose rows
    /// touch, in some operand stepping a whole number of lines, more lines than the
    /// first-level cache sets they map to hold is tiled, in every planner, and copies as the
    /// model does; not where the stride is no whole number of lines, nor where a tile would
    /// not shorten the rows (`cuts_rows`); the rows of a tile of elements under 8 bytes are
    /// at most the lines their sets hold, so such rows no longer than a tile's side are
    /// tiled too.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "large blocks; the tiled drivers run under Miri elsewhere"
    )]
    fn rows_whose_lines_share_few_cache_sets_run_in_tiles() {
        tiles_as_given(&[
            // Seed 23's 558: `f64` 129 x 128 read down its columns (rows of 129 read 1 KiB
            // apart: 4 sets, 32 lines, 11 KB of lines), written 3 apart: tiles of 16 x 16;
            // read 1040 bytes apart (no whole number of lines): untiled.
            (8, [129, 128], [128, 1], [3, 387], Some([16, 16])),
            (8, [129, 128], [130, 1], [3, 387], None),
            // Rows of 64 read 8 KiB apart (one set): tiles of 16 x 16; rows of 16, no longer
            // than a tile's: untiled.
            (8, [64, 1024], [1024, 1], [2, 128], Some([16, 16])),
            (8, [16, 1024], [1024, 1], [2, 32], None),
            // `u16` 64 x 2048 read 8 KiB apart down its columns (one set, 8 lines), written
            // 2 apart: tiles of 32 x 8, not 32 x 32; of `f64`, 16 x 16 as before.
            (2, [64, 2048], [4096, 1], [2, 128], Some([32, 8])),
            (8, [64, 2048], [4096, 1], [2, 128], Some([16, 16])),
            // Blocks of one tile's elements or fewer, tiled all the same (the power-of-two
            // sweep's 72 and 77): `u8` rows of 128 read 1 KiB apart (32 lines), 32 rows 2
            // bytes on: tiles of 32 x 32; `f64` rows of 32 read 32 KiB apart (8 lines), 8
            // rows 16 bytes on: 8 x 16, turned to 16 x 8 (`tile_back`: the rows read 32 KiB
            // apart inside crowd one set). Untiled: `f64` rows no longer than a tile's side
            // (16), 7 rows (a short loop), rows 1040 bytes apart (no whole number of lines).
            (1, [128, 32], [1024, 2], [1, 128], Some([32, 32])),
            (8, [32, 8], [4096, 2], [1, 32], Some([16, 8])),
            (8, [16, 8], [4096, 2], [1, 16], None),
            (1, [128, 7], [1024, 2], [1, 128], None),
            (1, [128, 32], [1040, 2], [1, 128], None),
            // Rows of elements under 8 bytes no longer than a tile's side are tiled where
            // their sets hold fewer of their lines, a tile row those lines: `u8` rows of 64
            // read 1 KiB apart (32 lines), 32 x 32; the power-of-two sweep's 95, `u16` rows
            // of 32 read 4 KiB apart (one set, 8 lines), 2048 rows 2 bytes on, written every
            // other element: 32 x 8 (241 -> 47 us against the plain loop's 197).
            (1, [64, 32], [1024, 2], [1, 64], Some([32, 32])),
            (2, [32, 2048], [2048, 1], [2, 64], Some([32, 8])),
        ]);
        // The general planner (rank 3, a loop outside the block) tiles alike.
        let src = Layout::new([2, 129, 128], [16_512, 128, 1], 8).unwrap();
        let dst = Layout::new([2, 129, 128], [49_536, 3, 387], 8).unwrap();
        assert_eq!(general_tile(&dst, &src), Some([16, 16]));
    }

    /// The short-back rule (`short_back`): a block of long rows over a short loop (the
    /// swap of `rows_swap`) takes the short loop back inside, untiled, in every planner,
    /// where in some operand the rows step a power-of-two number of lines whose sets hold
    /// at most `CROWDED_LINES` lines, fewer than the row has, while the short loop steps
    /// within a line; each case copies as the model does (`f64`).
    #[test]
    #[cfg_attr(
        miri,
        ignore = "large blocks; the drivers of short rows run under Miri elsewhere"
    )]
    fn short_loops_come_back_inside_rows_that_crowd_their_sets() {
        use super::tiling::CROWDED_LINES;
        // The innermost loop's extent and the tile of a rank-2 copy of `f64`, the same in
        // both planners, copying as the model does.
        let inside = |shape: [usize; 2], s: [isize; 2], d: [isize; 2]| {
            let (src, dst) = (at(shape, s, 8, 0), at(shape, d, 8, 0));
            let tile = copied_tile::<u64>(&dst, &src);
            let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
            let nest = &plan.nests()[0];
            (nest.loops[nest.depth - 1].extent, tile)
        };
        // 256 rows read 2 apart (the source's fastest loop), written 8 KiB apart (one set,
        // 8 lines), 4 short steps written one apart and read 64 KiB apart: the short loop
        // inside; 1 KiB apart (4 sets, 32 lines) too.
        const { assert!(32 <= CROWDED_LINES && 128 > CROWDED_LINES) };
        assert_eq!(inside([256, 4], [2, 8192], [1024, 1]), (4, None));
        assert_eq!(inside([256, 4], [2, 8192], [128, 1]), (4, None));
        // Written 256 bytes apart (16 sets, 128 lines): swapped, the long rows inside.
        assert_eq!(inside([256, 4], [2, 8192], [32, 1]), (256, None));
        // Rows of 64 written 512 bytes apart (8 sets, 64 lines), no more than their sets
        // hold: swapped; rows of 128, more: the short loop inside.
        assert_eq!(inside([64, 5], [2, 8192], [64, 1]), (64, None));
        assert_eq!(inside([128, 5], [2, 8192], [64, 1]), (5, None));
        // The short loop written a line a step (no line to come back to): swapped.
        assert_eq!(inside([256, 4], [2, 8192], [1024, 8]), (256, None));
        // A long outer loop, 100 rows written one apart: no short loop to take back; the
        // block runs in strips of 8 of the source's streams (`stream_strip`), the same in
        // both planners.
        assert_eq!(
            inside([256, 100], [2, 8192], [1024, 1]),
            (100, Some([256, 8]))
        );
        // The general planner, loops outside the block (the power-of-two sweep's seed 13
        // case 1497): the short loop inside, untiled.
        let src = Layout::new([256, 4, 16, 4], [2, 32768, 512, 8192], 8).unwrap();
        let dst = Layout::new([256, 4, 16, 4], [1024, 128, 8, 1], 8).unwrap();
        copies_as_the_model(&dst, &src);
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        let nest = &plan.nests()[0];
        assert_eq!(
            (
                nest.loops[nest.depth - 1].extent,
                nest.loops[nest.depth - 2].extent,
                nest.tile()
            ),
            (4, 256, None)
        );
    }

    /// The short-back rule's small blocks (`small_back`): a block of one tile or less
    /// whose rows crowd their first-level sets, repeated by a loop outside it, takes its
    /// short loop back inside where the rows hold more than twice the lines their sets
    /// keep; not a block alone (the two-loop planner's, its block kernel's), not rows of
    /// twice those lines or fewer, not a short loop of `TILE_MIN_EXTENT` steps. Each case
    /// copies as the model does.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "large blocks; the drivers of short rows run under Miri elsewhere"
    )]
    fn repeated_small_blocks_take_their_short_loop_back_inside() {
        use super::tiling::TILE_MIN_EXTENT;
        // The layout of `|strides|`, flipped (`Layout::flipped`) along each negative one.
        fn flipped<const N: usize>(
            shape: [usize; N],
            strides: [isize; N],
            size: usize,
        ) -> Layout<N> {
            let mut layout = Layout::new(shape, strides.map(isize::abs), size).unwrap();
            for (axis, s) in strides.into_iter().enumerate() {
                if s < 0 {
                    layout = layout.flipped(axis).unwrap();
                }
            }
            layout
        }
        // `u16` rows of `r` read 8 KiB apart (one set, 8 lines) and written in order, `sh`
        // short steps read one element apart and written 512 bytes apart, under 64 steps
        // that read on past them and write `sh` rows back: the copy and its nest.
        let nest = |r: usize, sh: usize| {
            let sh_i = isize::try_from(sh).unwrap();
            let src = flipped([r, 64, sh], [-4096, -2 * sh_i, 1], 2);
            let dst = flipped([r, 64, sh], [1, -512 * sh_i, 256], 2);
            copies_as_the_model_of(&dst, &src, u16::MAX, |i| u16::try_from(i % 65_521).unwrap());
            nest_of(&dst, &src)
        };
        // The power-of-two seed 11's 409 (its 1,024 steps outside cut to 64): 2 rows of 256,
        // the short loop inside.
        let outside = (64, [1024, 4]);
        assert_eq!(
            nest(256, 2),
            (std::vec![outside, (256, [1, -4096]), (2, [256, 1])], None)
        );
        // Rows of 18, more than twice the 8 lines: the same; of 17, as they were.
        assert_eq!(
            nest(18, 2),
            (std::vec![outside, (18, [1, -4096]), (2, [256, 1])], None)
        );
        assert_eq!(
            nest(17, 2),
            (std::vec![outside, (2, [256, 1]), (17, [1, -4096])], None)
        );
        // A short loop of 8 steps: a tile of the block as before.
        const { assert!(TILE_MIN_EXTENT == 8) };
        assert_eq!(nest(64, 8).1, Some([8, 32]));
        // The block alone (two loops: the two-loop planner's; or the general builder's, its
        // rows from rank 3 split in two and merged back): its rows inside.
        let alone = (std::vec![(2, [256, 1]), (256, [1, -4096])], None);
        let src = flipped([256, 2], [-4096, 1], 2);
        let dst = flipped([256, 2], [1, 256], 2);
        copies_as_the_model_of(&dst, &src, u16::MAX, |i| u16::try_from(i % 65_521).unwrap());
        assert_eq!(nest_of(&dst, &src), alone);
        let src = flipped([2, 128, 2], [-524_288, -4096, 1], 2);
        let dst = flipped([2, 128, 2], [128, 1, 256], 2);
        copies_as_the_model_of(&dst, &src, u16::MAX, |i| u16::try_from(i % 65_521).unwrap());
        assert_eq!(nest_of(&dst, &src), alone);
        // The power-of-two seed 37's 1471: `u32` rows of 16 read 128 KiB apart (one set,
        // twice its lines) over 4 steps 8 bytes on, which ran 2x slower swapped: as it was.
        let src = flipped([2, 4, 2048, 1, 16], [8, 2, 16, 524_288, 32_768], 4);
        let dst = flipped([2, 4, 2048, 1, 16], [-262_144, 65_536, 16, -16, 1], 4);
        copies_as_the_model_of(&dst, &src, u32::MAX, |i| u32::try_from(i).unwrap());
        assert_eq!(nest_of(&dst, &src).0.last(), Some(&(16, [1, 32_768])));
    }

    /// The tile-back rule (`tile_back`): a tile of element loops whose row reads a source's
    /// lines a power-of-two number of lines apart, more than their first-level sets hold,
    /// while the next row comes back to them, runs with its two loops swapped (the source's
    /// fastest loop inside), in every planner, where the swapped row's lines fit their sets
    /// and the row's do not crowd the second-level sets too; not a transpose's block. Each
    /// case copies as the model does (`f64`).
    #[test]
    #[cfg_attr(
        miri,
        ignore = "large blocks; the tiled drivers run under Miri elsewhere"
    )]
    fn tiles_turn_where_a_row_crowds_the_sources_sets() {
        // The innermost loop's strides and the tile of a rank-2 copy, the same in both
        // planners, copying as the model does.
        let inner = |shape: [usize; 2], s: [isize; 2], so: isize, d: [isize; 2], off: isize| {
            let (src, dst) = (at(shape, s, 8, so), at(shape, d, 8, off));
            let tile = copied_tile::<u64>(&dst, &src);
            let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
            let nest = &plan.nests()[0];
            (nest.loops[nest.depth - 1].strides, tile)
        };
        // The power-of-two sweep's 21: 32 rows of 1024 read in order (8 KiB apart, one
        // set), written 2 elements and 512 bytes a step. The destination's fastest loop
        // inside made rows read 8 KiB apart; turned, the source's rows inside, their
        // destination's lines 512 bytes apart (8 sets, 64 lines).
        assert_eq!(
            inner([32, 1024], [-1024, 1], 31_744, [2, -64], 65_472),
            ([-64, 1], Some([16, 16]))
        );
        // Read 2 KiB apart (2 sets, 16 lines, as many as a row has): as it was.
        assert_eq!(
            inner([32, 1024], [-256, 1], 7936, [2, -64], 65_472),
            ([2, -256], Some([16, 16]))
        );
        // Read 256 KiB apart (the second-level sets crowded too): as it was.
        assert_eq!(
            inner([32, 1024], [32_768, 1], 0, [2, 64], 0),
            ([2, 32_768], Some([16, 16]))
        );
        // Turned, the destination written 8 KiB apart (one set too): as it was (in strips
        // of 8 of the source's streams, `stream_strip`).
        assert_eq!(
            inner([32, 1024], [1024, 1], 0, [2, 1024], 0),
            ([2, 1024], Some([1024, 8]))
        );
        // A transpose's block (one element a step in both loops): the transposes' order.
        let (src, dst) = (
            at([32, 1024], [1024, 1], 8, 0),
            at([32, 1024], [1, 32], 8, 0),
        );
        copied_tile::<u64>(&dst, &src);
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        let nest = &plan.nests()[0];
        assert_eq!(nest.loops[nest.depth - 1].strides, [1, 1024]);
        // The general planner, a loop outside the block (the power-of-two sweep's seed 11
        // case 194, its first axes dropped): turned too.
        let src = Layout::new([2, 512, 64], [262_144, 1, 2048], 8).unwrap();
        let dst = Layout::new([2, 512, 64], [65_536, 128, 2], 8).unwrap();
        assert_eq!(general_tile(&dst, &src), Some([16, 16]));
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        let nest = &plan.nests()[0];
        assert_eq!(nest.loops[nest.depth - 1].strides, [128, 1]);
    }

    /// The far-back rule (`far_back`): in an untiled nest, a short loop outside a long one
    /// (not the innermost) whose pass evicts the short loop's lines from the second-level
    /// sets too (`evicts_far`) moves inside it; not where the long loop's lines fit those
    /// sets or it steps less than a line, nor where the short loop steps a line, nor a
    /// loop of 8 steps unless its steps use up the lines they come back to (`uses_up`), nor
    /// a long loop that makes a transposes' block with the innermost; the innermost pair
    /// only where it makes no kernel's block and the short loop uses up its lines, in a
    /// nest of three loops or more. The power-of-two sweep's seed 23 case 328 and seed 7
    /// case 1856 copy as the model does with their loops so ordered.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "a 2 MiB destination; cubes kept in their order run under Miri in the raw tests"
    )]
    fn short_loops_move_inside_loops_that_overflow_the_second_level() {
        use super::order::far_back;
        let l = |extent: usize, strides: [isize; 2]| Loop { extent, strides };
        // `f64`: 8 a line. The short loop outside the long one, the innermost last.
        let moved = |loops: [Loop<2>; 4]| {
            let mut loops = loops;
            far_back(&mut loops, 8);
            loops.map(|l| l.extent)
        };
        // Case 328's loops as the order put them: 4 steps written 32 bytes on, outside 512
        // written 4 KiB apart (256 lines in the second-level sets), the innermost 2.
        let (outer, inner) = (l(32, [16, 4096]), l(2, [2, 2048]));
        let case = [outer, l(4, [4, -512]), l(512, [512, -1]), inner];
        assert_eq!(moved(case), [32, 512, 4, 2]);
        // 256 steps 4 KiB apart: the sets hold them.
        assert_eq!(
            moved([outer, l(4, [4, -512]), l(256, [512, -1]), inner]),
            [32, 4, 256, 2]
        );
        // The short loop a line a step in both operands: nothing to come back to.
        assert_eq!(
            moved([outer, l(4, [8, -512]), l(512, [512, -1]), inner]),
            [32, 4, 512, 2]
        );
        // A loop of 8 steps (`TILE_MIN_EXTENT`) moves where its steps use up the lines they
        // come back to (`uses_up`: 8 steps of 4 cover a line); one of 9 does not.
        assert_eq!(
            moved([outer, l(8, [4, -512]), l(512, [512, -1]), inner]),
            [32, 512, 8, 2]
        );
        assert_eq!(
            moved([outer, l(9, [4, -512]), l(512, [512, -1]), inner]),
            [32, 9, 512, 2]
        );
        // `u32`, 16 a line: 8 steps of one element cover half a line. Moved where no loop
        // further out comes back to the other half; left where one does (8 elements a
        // step), while 7 steps move all the same.
        let rows = l(1024, [1024, -1]);
        let with = |outer: Loop<2>, back: Loop<2>| {
            let mut loops = [outer, back, rows, inner];
            far_back(&mut loops, 16);
            loops.map(|l| l.extent)
        };
        assert_eq!(with(l(32, [16, 4096]), l(8, [1, -1024])), [32, 1024, 8, 2]);
        assert_eq!(with(l(32, [8, 4096]), l(8, [1, -1024])), [32, 8, 1024, 2]);
        assert_eq!(with(l(32, [8, 4096]), l(7, [1, -1024])), [32, 1024, 7, 2]);
        // Rows 32 bytes a step: their lines run on, however many (20,000 steps).
        assert_eq!(
            moved([outer, l(4, [1, -512]), l(20_000, [4, -1]), inner]),
            [32, 4, 20_000, 2]
        );
        // The innermost pair, which makes no kernel's block: the short loop moves inside
        // where its steps use up the lines they come back to (the power-of-two seed 7's
        // 1856: 4 steps 16 bytes on, outside rows of 32 read 64 KiB apart, 16 lines to a
        // second-level set).
        let (back, rows) = (l(4, [65_536, 2]), l(32, [1, 8192]));
        assert_eq!(
            moved([outer, l(1024, [64, 8]), back, rows]),
            [32, 1024, 32, 4]
        );
        // A kernel's block (the source one element a step of the short loop): left to the
        // block's own rules.
        let block = l(4, [65_536, 1]);
        assert_eq!(
            moved([outer, l(1024, [64, 8]), block, rows]),
            [32, 1024, 4, 32]
        );
        // The short loop's steps half a line (`u32`, 16 a line) and a loop further out
        // coming back to the other half (seed 37's 1471): left; with that loop a line a
        // step, moved.
        let (back, rows) = (l(4, [65_536, 2]), l(16, [1, 32_768]));
        let mut case = [l(2048, [16, 16]), l(2, [-262_144, 8]), back, rows];
        far_back(&mut case, 16);
        assert_eq!(case.map(|l| l.extent), [2048, 2, 4, 16]);
        let mut case = [l(2048, [16, 16]), l(2, [-262_144, 16]), back, rows];
        far_back(&mut case, 16);
        assert_eq!(case.map(|l| l.extent), [2048, 2, 16, 4]);
        // A nest of two loops: the two-loop planner's order.
        let mut two = [l(4, [65_536, 2]), l(32, [1, 8192])];
        far_back(&mut two, 8);
        assert_eq!(two.map(|l| l.extent), [4, 32]);
        // The long loop and the innermost a transposes' block (the destination one element
        // a step of the innermost, the source one of the long loop).
        let walk = l(2, [1, 2048]);
        assert_eq!(
            moved([outer, l(4, [4, -512]), l(512, [512, 1]), walk]),
            [32, 4, 512, 2]
        );
        // The same without the transposes' walk (the source 2 a step of the long loop).
        assert_eq!(
            moved([outer, l(4, [4, -512]), l(512, [512, 2]), walk]),
            [32, 512, 4, 2]
        );
        // The other way round: the destination one element a step of the long loop, the
        // source one of the innermost; the short loop read 16 bytes on.
        let (back, rows) = (l(4, [4096, 2]), l(512, [1, 512]));
        assert_eq!(moved([outer, back, rows, l(2, [8192, 1])]), [32, 4, 512, 2]);
        assert_eq!(moved([outer, back, rows, l(2, [8192, 2])]), [32, 512, 4, 2]);
        // The copy of case 328, planned with the short loop inside.
        let src = Layout::from_parts(
            [2, 32, 512, 1, 4],
            [-2048, 4096, -1, 262_144, -512],
            4095,
            8,
        )
        .unwrap();
        let dst = Layout::from_parts([2, 32, 512, 1, 4], [-2, 16, 512, 512, 4], 2, 8).unwrap();
        copies_as_the_model(&dst, &src);
        let (loops, tile) = nest_of(&dst, &src);
        let extents: std::vec::Vec<usize> = loops.iter().map(|l| l.0).collect();
        assert_eq!((extents, tile), (std::vec![32, 512, 4, 2], None));
        // The copy of seed 7's 1856, its short loop innermost.
        let src = Layout::new([1, 4, 1024, 32], [1, 2, 8, 8192], 8).unwrap();
        let dst = Layout::new([1, 4, 1024, 32], [-262_144, 65_536, 64, 1], 8).unwrap();
        copies_as_the_model(&dst, &src);
        let (loops, tile) = nest_of(&dst, &src);
        let extents: std::vec::Vec<usize> = loops.iter().map(|l| l.0).collect();
        assert_eq!((extents, tile), (std::vec![1024, 32, 4], None));
    }

    /// The long-over-short rule (`long_over_short`): a nest whose innermost rows' lines crowd
    /// a few cache sets (`CROWDED_LINES`) in an operand that short loops and the next long
    /// loop out step within lines takes that long loop into its block, the short ones
    /// outside, and tiles the block; not where the rows' lines are spread over more sets.
    /// Each case copies as the model does (`u32` elements).
    #[test]
    #[cfg_attr(
        miri,
        ignore = "large blocks; the tiled drivers run under Miri elsewhere"
    )]
    fn long_loops_over_short_ones_join_rows_that_crowd_their_sets() {
        // `[i, j, k]` of `2 x 256 x 256` `u32` read `i + y j + x k`, written `256 w i + w j +
        // k`: the rows (`k`) read `x` apart, the 2 steps of `i` one element on, `j` `y`.
        let case = |x: isize, y: isize, w: isize| {
            let shape = [2, 256, 256];
            let src = Layout::new(shape, [1, y, x], 4).unwrap();
            let dst = Layout::new(shape, [256 * w, w, 1], 4).unwrap();
            let input: std::vec::Vec<u32> = (0u32..).take(src.required_len().unwrap()).collect();
            let mut out = std::vec![u32::MAX; dst.required_len().unwrap()];
            let mut model = out.clone();
            for (s, d) in src.offsets().zip(dst.offsets()) {
                model[d.unsigned_abs()] = input[s.unsigned_abs()];
            }
            crate::copy(&input, &src, &mut out, &dst).unwrap();
            assert_eq!(out, model, "read {x} apart");
            let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
            let nest = &plan.nests()[0];
            let loops = &nest.loops[..nest.depth];
            (loops[0].extent, nest.tile())
        };
        // 2 KiB apart (16 lines in 2 sets): `i` outside, `j x k` in tiles of 32 x 16 (a
        // row the lines its sets hold).
        assert_eq!(case(512, 2, 256), (2, Some([32, 16])));
        // 2,560 bytes apart (40 lines, 8 sets: 64 lines): tiles of 32 x 32.
        assert_eq!(case(640, 2, 256), (2, Some([32, 32])));
        // `j` writing 4 KiB a step (a tile's 32 steps of it in one set of 8 lines), the
        // tile's rows of 16 covering whole destination lines, each written once: tiled.
        assert_eq!(case(512, 2, 1024), (2, Some([32, 16])));
        // The loops as before, `j` outermost, untiled: rows 2,304 bytes (36 lines, 16 sets:
        // 128 lines) and 2,112 apart (33 lines, every set); `j` reading a line a step (no
        // line of the rows reused); rows 8 KiB apart (8 lines: tile rows of 8, 32 bytes)
        // with `j` writing 4 KiB a step, the tile's 32 partial lines in one set.
        assert_eq!(case(576, 2, 256), (256, None));
        assert_eq!(case(528, 2, 256), (256, None));
        assert_eq!(case(4096, 16, 256), (256, None));
        assert_eq!(case(2048, 2, 1024), (256, None));
        // `f64` rows read 32 KiB apart (one set, 8 lines): rows of 8, the lines their sets
        // hold, here in strips (`stream_strip`: the rows read far streams); 2 KiB apart (16
        // lines): tiles of 16 x 16.
        let f64_tile = |x: isize| {
            let shape = [2, 256, 256];
            let src = Layout::new(shape, [1, 2, x], 8).unwrap();
            let dst = Layout::new(shape, [65_536, 256, 1], 8).unwrap();
            general_tile(&dst, &src)
        };
        assert_eq!(f64_tile(4096), Some([256, 8]));
        assert_eq!(f64_tile(256), Some([16, 16]));
        // The loops as the tiling left them, untiled (the short loop's rows swapped for the
        // long source loop: `swap_rows`), asked again: the power-of-two sweep's seed 7's 838,
        // `f64` rows written 16 KiB apart (one set), 2 steps outside them 16 bytes on and 256
        // beyond 32: tiles of 16 x 8 (827 -> 179 us against the plain loop's 267).
        let shape = [2, 128, 256, 2];
        let src = Layout::new(shape, [128, 1, 512, 256], 8).unwrap();
        let dst = Layout::new(shape, [262_144, 2048, 4, -2], 8)
            .unwrap()
            .with_offset(2)
            .unwrap();
        assert_eq!(general_tile(&dst, &src), Some([16, 8]));
        // Asked again where the tiling's tile has rows of a short loop: seed 7's 477, `f64`
        // rows of 512 written 16 KiB apart, tiled 2 x 128 by a loop of 2 steps one element
        // on (3.5 ms against the plain loop's 2.1): the long loop over it, tiles of 16 x 8
        // (1.3 ms).
        let shape = [512, 512, 1, 2];
        let src = Layout::new(shape, [1, 1024, 512, 512], 8).unwrap();
        let dst = Layout::new(shape, [2048, 4, -4, 1], 8).unwrap();
        assert_eq!(general_tile(&dst, &src), Some([16, 8]));
    }

    /// An untiled nest of three operands (`zip_map`'s) whose innermost rows crowd the
    /// destination's first-level sets with the second source's (`crowds_destination`: half
    /// again the lines the sets hold) runs in the destination's order, and `zip_map` writes
    /// what the model does; rows that crowd them less, and a copy's two operands, keep the
    /// planner's order.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "the planner's safe code; the plain loops it hands these nests to \
                  (`raw::elementwise`'s cubes) run under Miri in their own tests"
    )]
    fn zip_nests_whose_rows_crowd_the_destinations_sets_run_in_its_order() {
        use super::tiling::crowds_destination;
        // `f64` read across blocks of `k1 x k2` (the block grid's): the source's `n`
        // consecutive, the destination and the second source dense, `k1 · k2` apart.
        let layouts = |n: usize, k1: usize, k2: usize| {
            let (ni, k1i, k2i) = (n.cast_signed(), k1.cast_signed(), k2.cast_signed());
            let src = Layout::new([n, k1, k2], [1, ni, ni * k1i], 8).unwrap();
            let dst = Layout::new([n, k1, k2], [k1i * k2i, k2i, 1], 8).unwrap();
            (src, dst)
        };
        let extents =
            |loops: &[Loop<3>]| loops.iter().map(|l| l.extent).collect::<std::vec::Vec<_>>();
        // (n, k1, k2, in the destination's order): 170 rows 768 bytes apart in 16 sets (128
        // lines) twice over, 102 rows 1,280 bytes apart in 16 sets, 204 rows 640 bytes apart
        // in 32 (256 lines); 146 rows 896 bytes apart in 32 sets, and 73 rows 1,792 bytes
        // apart in 16, 1.13x the room: the planner's order.
        let cases = [
            (170usize, 32usize, 3usize, true),
            (102, 32, 5, true),
            (204, 16, 5, true),
            (146, 16, 7, false),
            (73, 32, 7, false),
        ];
        for (n, k1, k2, ordered) in cases {
            let (src, dst) = layouts(n, k1, k2);
            let plan = Plan::new(&[dst.lowered(), src.lowered(), dst.lowered()]).unwrap();
            let nest = &plan.nests()[0];
            assert!(nest.tile().is_none(), "{n} x {k1} x {k2}");
            let got = extents(nest.loops());
            if ordered {
                assert_eq!(got, [n, k1, k2], "{n} x {k1} x {k2}");
            } else {
                assert_eq!(
                    got.last(),
                    Some(&n),
                    "{n} x {k1} x {k2}: the source's run inside"
                );
            }
            // The planner's innermost rows, asked directly: crowded where the order turned.
            let two = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
            let row = two.nests()[0].loops().last().map(|l| Loop {
                extent: l.extent,
                strides: [l.strides[0], l.strides[1], l.strides[0]],
            });
            assert_eq!(
                row.is_some_and(|r| crowds_destination(&r, 8)),
                ordered,
                "{n} x {k1} x {k2}"
            );
            // A copy's two operands keep the planner's order (the source's run inside).
            assert_eq!(two.nests()[0].loops().last().map(|l| l.extent), Some(n));
            let len = n * k1 * k2;
            let a: std::vec::Vec<f64> = (0..len)
                .map(|i| f64::from(u32::try_from(i).unwrap()))
                .collect();
            let b: std::vec::Vec<f64> = (0..len)
                .map(|i| f64::from(u32::try_from(7 * i).unwrap()))
                .collect();
            let mut out = std::vec![-1.0f64; len];
            crate::zip_map(&a, &src, &b, &dst, &mut out, &dst, |x: f64, y: f64| x - y).unwrap();
            for ((s, d), i) in src.offsets().zip(dst.offsets()).zip(0..) {
                let (s, d) = (s.unsigned_abs(), d.unsigned_abs());
                assert_eq!(
                    out[d].to_bits(),
                    (a[s] - b[d]).to_bits(),
                    "{n} x {k1} x {k2} at {i}"
                );
            }
        }
        // The destination alone crowding its sets (170 rows 768 bytes apart: 1.33x the
        // room), or stepping within a line: not crowded.
        let row = |extent: usize, strides: [isize; 3]| Loop { extent, strides };
        assert!(!crowds_destination(&row(170, [96, 1, 1]), 8));
        assert!(!crowds_destination(&row(170, [1, 96, 96]), 8));
        assert!(crowds_destination(&row(170, [96, 1, 96]), 8));
    }

    /// The short-rows rule (`rows_swap`): an untiled block whose rows are shorter than 8 while
    /// its outer loop, a source's fastest, is longer runs with the two swapped, in the
    /// general planner and the small ones alike, and copies as the model does; otherwise the
    /// order stays.
    #[test]
    fn short_rows_swap_with_the_sources_fastest_loop() {
        let innermost = |d: &Layout<4>, s: &Layout<4>| {
            let plan = Plan::new(&[d.lowered(), s.lowered()]).unwrap();
            let nest = &plan.nests()[0];
            let loops = &nest.loops[..nest.depth];
            (
                loops[loops.len() - 2].extent,
                loops[loops.len() - 1].extent,
                nest.tile(),
            )
        };
        // 3 elements a row into a 16 x 7 x 1012 block: the 1012 source elements in a row
        // are consecutive, so they run innermost (and, a row's 67 KB of lines past the
        // first-level cache, in tiles of 3 x 240: `SHORT_ROW_BYTES`).
        let shape = [3, 16, 7, 1012];
        let src = Layout::new(shape, [113_344, 7084, 1012, 1], 4).unwrap();
        let dst = Layout::new(shape, [2, 121_440, 12, 120], 4).unwrap();
        assert_eq!(innermost(&dst, &src), (3, 1012, Some([3, 240])));
        // Rows of 8 stay innermost (as before the rule).
        let shape = [8, 16, 7, 1012];
        let src = Layout::new(shape, [113_344, 7084, 1012, 1], 4).unwrap();
        let dst = Layout::new(shape, [2, 121_440, 16, 160], 4).unwrap();
        assert_eq!(innermost(&dst, &src).1, 8);
        // Rank 2: the run-time copy's planner and the small one swap as the general does
        // (rows of 400, 21 KB of lines, stay in the first-level cache: untiled).
        let dst = Layout::new([400, 3], [12, 2], 4).unwrap();
        let src = Layout::new([400, 3], [1, 400], 4).unwrap();
        assert!(small_matches_general(&dst, &src));
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        let nest = &plan.nests()[0];
        assert_eq!((nest.loops[1].extent, nest.tile()), (400, None));
        let input: std::vec::Vec<u32> = (0..1200).collect();
        let mut out = std::vec![0u32; 4800];
        crate::copy(&input, &src, &mut out, &dst).unwrap();
        for i in 0..400 {
            for j in 0..3 {
                assert_eq!(out[12 * i + 2 * j], input[i + 400 * j]);
            }
        }
        // A block of one tile or less (a 6 x 4 transpose) keeps its order.
        let dst = Layout::new([6, 4], [4, 1], 4).unwrap();
        let src = Layout::new([6, 4], [1, 6], 4).unwrap();
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        assert_eq!(plan.nests()[0].loops[1].extent, 4);
        assert!(small_matches_general(&dst, &src));
        // A source whose fastest loop is innermost already: nothing moves.
        let dst = Layout::new([1000, 3], [3, 1], 4).unwrap();
        let src = Layout::new([1000, 3], [1, 1000], 4).unwrap();
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        assert_eq!(plan.nests()[0].loops[1].extent, 1000);
        assert!(small_matches_general(&dst, &src));
    }

    /// The short-side rule (`short_whole`): a transpose block of 2-byte elements with one
    /// side of 16 to 64 elements, or of 8-byte (or wider) ones with one of 8 to 64, and the
    /// other longer runs whole, its short loop innermost, in the general planner and the
    /// small ones alike, and copies as the model does (the run-time copy, a prepared plan, a
    /// parallel copy's parts); 1- and 4-byte elements, a side past 64, a side under 16 of 2
    /// bytes and the channel kernels' blocks of `u16` keep their tiles.
    #[test]
    fn wide_transposes_with_a_short_side_run_whole() {
        let shape = |d: &Layout<2>, s: &Layout<2>| {
            let plan = Plan::new(&[d.lowered(), s.lowered()]).unwrap();
            let nest = &plan.nests()[0];
            (nest.loops[0].extent, nest.loops[1].extent, nest.tile())
        };
        // f64 55 x 1344, read row by row, written transposed (the sweep's case 1319): the
        // short loop, the source's fastest, moves innermost, untiled.
        let src = Layout::new([55, 1344], [1344, 1], 8).unwrap();
        let dst = Layout::new([55, 1344], [1, 55], 8).unwrap();
        assert_eq!(shape(&dst, &src), (1344, 55, None));
        assert!(small_matches_general(&dst, &src));
        // The short loop the destination's fastest: it stays innermost, untiled.
        assert_eq!(shape(&src, &dst), (1344, 55, None));
        assert!(small_matches_general(&src, &dst));
        // Copied, both ways round, at a size Miri runs (20 x 70).
        let src = Layout::new([20, 70], [70, 1], 8).unwrap();
        let dst = Layout::new([20, 70], [1, 20], 8).unwrap();
        assert_eq!(shape(&dst, &src), (70, 20, None));
        copies_as_the_model(&dst, &src);
        copies_as_the_model(&src, &dst);
        // The bounds of the rule: sides of 8 (8 bytes and wider), 16 (2 bytes) and 64 run
        // whole, 65 and 15 (2 bytes) keep their tiles; 1- and 4-byte elements keep theirs.
        // (A side under 8 is never tiled: `TILE_MIN_EXTENT`.)
        // (Plans only: safe code, which the native runs check; Miri's time goes to the
        // copies.)
        let bounds: &[(usize, usize, bool)] = if cfg!(miri) {
            &[]
        } else {
            &[
                (16usize, 8, true),
                (64, 8, true),
                (65, 8, false),
                (15, 8, true),
                (8, 8, true),
                (8, 16, true),
                (55, 4, false),
                (32, 16, true),
                (20, 2, true),
                (15, 2, false),
                (20, 1, false),
            ]
        };
        for &(short, itemsize, whole) in bounds {
            // Written row by row, read down the columns: the source's fastest loop (the
            // short one) is not innermost.
            let n = short.cast_signed();
            let src = Layout::new([short, 700], [1, n], itemsize).unwrap();
            let dst = Layout::new([short, 700], [700, 1], itemsize).unwrap();
            let (_, inner, tile) = shape(&dst, &src);
            assert_eq!(tile.is_none(), whole, "{short} x 700 of {itemsize} bytes");
            if whole {
                assert_eq!(inner, short);
            }
            assert!(small_matches_general(&dst, &src));
        }
        // 16 channels of `u16` from pixels into planes: the channel kernels' block (the
        // channels outside), as before; of `f64`, which no channel kernel takes, whole.
        for (itemsize, channels_outside) in [(2, true), (8, false)] {
            let src = Layout::new([16, 1000], [1, 16], itemsize).unwrap();
            let dst = Layout::new([16, 1000], [1000, 1], itemsize).unwrap();
            let (outer, inner, tile) = shape(&dst, &src);
            assert_eq!(outer == 16, channels_outside, "{itemsize} bytes");
            assert_eq!(tile.is_some(), channels_outside, "{itemsize} bytes");
            assert_eq!(inner == 16, !channels_outside, "{itemsize} bytes");
            assert!(small_matches_general(&dst, &src));
        }
        // In a nest of three loops (a loop outside the block) the general planner does the
        // same, and the copy agrees with the model.
        let src = Layout::new([3, 26, 70], [1820, 70, 1], 8).unwrap();
        let dst = Layout::new([3, 26, 70], [1820, 1, 26], 8).unwrap();
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        let nest = &plan.nests()[0];
        assert_eq!((nest.loops[nest.depth - 1].extent, nest.tile()), (26, None));
        copies_as_the_model(&dst, &src);
    }

    /// The merge through a turn (`merge_turned`): two loops whose outer stride is minus the
    /// inner's times its extent in every operand (blocks of a row that is flipped in one
    /// operand and whose blocks are flipped in the other) merge into one loop once one of
    /// them is turned round, the one the destination runs backwards, so the merged loop runs
    /// forwards in the destination. The general planner, the small ones and the run-time
    /// copy's agree, and the copies agree with the model; loops that are reversed blocks in one
    /// operand only, or blocks of another length, do not merge.
    #[test]
    fn flipped_blocks_merge_through_a_turn() {
        let loops = |d: &Layout<2>, s: &Layout<2>| {
            let plan = Plan::new(&[d.lowered(), s.lowered()]).unwrap();
            assert_eq!(plan.nests().len(), 1);
            let nest = &plan.nests()[0];
            let loops: std::vec::Vec<_> =
                nest.loops().iter().map(|l| (l.extent, l.strides)).collect();
            (loops, nest.offsets())
        };
        // 73 blocks of 3 `f64`: the destination's blocks run backwards, its elements forwards;
        // the source's the other way round. Each is one run of 219 backwards of the other:
        // the outer loop turned (the destination steps +1 inside).
        let dst = Layout::new([73, 3], [-3, 1], 8)
            .unwrap()
            .with_offset(216)
            .unwrap();
        let src = Layout::new([73, 3], [3, -1], 8)
            .unwrap()
            .with_offset(2)
            .unwrap();
        assert_eq!(loops(&dst, &src), (std::vec![(219, [1, -1])], [0, 218]));
        assert!(small_matches_general(&dst, &src));
        copies_as_the_model(&dst, &src);
        // Operands swapped: the inner loop turned, the destination again forwards.
        assert_eq!(loops(&src, &dst), (std::vec![(219, [1, -1])], [0, 218]));
        assert!(small_matches_general(&src, &dst));
        copies_as_the_model(&src, &dst);
        // Rank 3 (the sweep's case 680 scaled down): 5 rows of 7 flipped blocks of 3, all one
        // run of 105 backwards.
        let src3 = Layout::new([5, 7, 3], [-21, 3, -1], 8)
            .unwrap()
            .with_offset(86)
            .unwrap();
        let dst3 = Layout::new([5, 7, 3], [21, -3, 1], 8)
            .unwrap()
            .with_offset(18)
            .unwrap();
        assert_eq!(nest_of(&dst3, &src3).0, [(105, [1, -1])]);
        copies_as_the_model(&dst3, &src3);
        // Three operands (a `zip_map`'s), each reversed blocks against the destination.
        let three = Plan::new(&[dst.lowered(), src.lowered(), src.lowered()]).unwrap();
        assert_eq!(three.nests()[0].loops().len(), 1);
        // Not so in every operand: the source's blocks run forwards too, or its blocks are
        // of another length (2 of 3 elements): two loops, as before.
        for src in [
            Layout::new([73, 3], [3, 1], 8).unwrap(),
            Layout::new([73, 3], [2, -1], 8)
                .unwrap()
                .with_offset(2)
                .unwrap(),
        ] {
            assert_eq!(loops(&dst, &src).0.len(), 2, "{src:?}");
            assert!(small_matches_general(&dst, &src));
        }
    }

    /// Flipped rows of one to four 32-byte chunks in blocks of 7 to 9 rows, at rank 2 and 3:
    /// of 4 to 17 `u64` (element loops below 16, reversed runs from 16) the copy, its prepared
    /// plan and a parallel copy's parts agree with the model; of 8 to 34 `u32` (element loops
    /// below 8 rows, reversed runs from 8; from 32 elements at any row count) the copy does.
    #[test]
    fn flipped_rows_of_a_few_chunks_copy_as_the_model() {
        // Under Miri, one row count each side of 8 and one row length each side of a path's
        // edge.
        let (rows_of, words, longs): (&[usize], &[usize], &[usize]) = if cfg!(miri) {
            (&[7, 8], &[9, 32], &[5, 16])
        } else {
            (&[7, 8, 9], &[8, 9, 16, 32, 34], &[4, 5, 8, 16, 17])
        };
        for &rows in rows_of {
            for &n in words {
                let c = n.cast_signed();
                let dst = Layout::new([rows, n], [c, 1], 4).unwrap();
                let src = Layout::new([rows, n], [c + 1, -1], 4)
                    .unwrap()
                    .with_offset(c - 1)
                    .unwrap();
                let input: std::vec::Vec<u32> =
                    (0u32..).take(src.required_len().unwrap()).collect();
                let mut model = std::vec![u32::MAX; dst.required_len().unwrap()];
                for (s, d) in src.offsets().zip(dst.offsets()) {
                    model[d.unsigned_abs()] = input[s.unsigned_abs()];
                }
                let mut out = std::vec![u32::MAX; model.len()];
                crate::copy(&input, &src, &mut out, &dst).unwrap();
                assert_eq!(out, model, "{rows} x {n}");
            }
        }
        for &rows in rows_of {
            for &n in longs {
                let (r, c) = (rows.cast_signed(), n.cast_signed());
                let dst = Layout::new([rows, n], [c, 1], 8).unwrap();
                let src = Layout::new([rows, n], [c + 1, -1], 8)
                    .unwrap()
                    .with_offset(c - 1)
                    .unwrap();
                copies_as_the_model(&dst, &src);
                copies_as_the_model(&src, &dst);
                let dst3 = Layout::new([2, rows, n], [r * c + 3, c, 1], 8).unwrap();
                let src3 = Layout::new([2, rows, n], [r * (c + 1), c + 1, -1], 8)
                    .unwrap()
                    .with_offset(c - 1)
                    .unwrap();
                copies_as_the_model(&dst3, &src3);
            }
        }
    }

    /// The one untiled nest `dst` and `src` plan, as (extent, strides) loops, outermost first.
    fn untiled_loops<const N: usize>(
        dst: &Layout<N>,
        src: &Layout<N>,
    ) -> std::vec::Vec<(usize, [isize; 2])> {
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        let nest = plan.nests()[0];
        assert_eq!(nest.tile(), None);
        nest.loops().iter().map(|l| (l.extent, l.strides)).collect()
    }

    /// Group tiling: a transposition between two groups of loops (the sweep's case 106
    /// scaled down: 8-byte elements, the destination fast in two loops of 4 and 5 steps, the
    /// source in one of 66 and one of 2) runs as tiles of the destination's group around runs of the
    /// source's, its long loop cut at a divisor (11 of 66, the nearest to 16 found); the copy,
    /// its prepared plan and a parallel copy's parts agree with the model. Groups of at most
    /// 16 destination elements, source groups short enough to run whole, and loops without a
    /// divisor near the aim keep the builder's order.
    #[test]
    fn transpositions_between_groups_of_loops_run_as_group_tiles() {
        // (4, n, 1, 2, a4): src 1 + 2n·i0 + 2·i1 - i3 + 8n·i4 (fully contiguous);
        // dst 128 + 4·(a4 - 1) + i0 + 384·i1 - 128·i3 - 4·i4 (runs of 4·a4).
        let layouts = |n: usize, a4: usize| {
            let (ni, ai) = (n.cast_signed(), a4.cast_signed());
            let src = Layout::new([4, n, 1, 2, a4], [2 * ni, 2, 8 * ni * ai, -1, 8 * ni], 8)
                .unwrap()
                .with_offset(1)
                .unwrap();
            let dst = Layout::new([4, n, 1, 2, a4], [1, 384, 1, -128, -4], 8)
                .unwrap()
                .with_offset(128 + 4 * (ai - 1))
                .unwrap();
            (dst, src)
        };
        let (dst, src) = layouts(66, 5);
        assert_eq!(
            untiled_loops(&dst, &src),
            [
                (6, [4224, 22]),
                (5, [-4, 528]),
                (4, [1, 132]),
                (11, [384, 2]),
                (2, [128, 1]),
            ]
        );
        copies_as_the_model(&dst, &src);
        // A destination group of 4 · 4 = 16 elements: the builder's order.
        let (dst, src) = layouts(66, 4);
        assert_eq!(untiled_loops(&dst, &src).len(), 4);
        // A source's loop of 32 steps (twice the aim or less) runs whole: the builder's order.
        let (dst, src) = layouts(32, 10);
        assert_eq!(untiled_loops(&dst, &src)[0].0, 32);
        // 67 has no divisor near 16: the builder's order.
        let (dst, src) = layouts(67, 10);
        assert_eq!(untiled_loops(&dst, &src)[0].0, 67);
    }

    /// An innermost run of both operands joins the source's group (`group.rs`,
    /// `run_of_both`) where the source's streams crowd their sets: power-of-two seed 11's
    /// 528, `u16` pairs, the destination's 32 pairs a chunk read from 32 streams 16 KiB
    /// apart in one first-level set, runs in group tiles; the same copy with streams
    /// 16 KiB + 2 elements apart (every set reached) keeps the builder's order, as does a
    /// run of one operand only.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "large blocks; group tiles run under Miri in the test of group tiles above"
    )]
    fn runs_of_both_join_the_sources_group_where_its_streams_crowd() {
        let layouts = |apart: isize, pair: isize| {
            let src = Layout::new([2, 16, 4096, 2], [16 * apart, apart, 2, 1], 2).unwrap();
            let dst = Layout::new([2, 16, 4096, 2], [4, 8, 256, pair], 2).unwrap();
            (dst, src)
        };
        let (dst, src) = layouts(8192, 1);
        assert_eq!(
            untiled_loops(&dst, &src),
            [
                (64, [16384, 128]),
                (16, [8, 8192]),
                (2, [4, 131_072]),
                (64, [256, 2]),
                (2, [1, 1]),
            ]
        );
        copies_as_the_model_of(&dst, &src, u16::MAX, |i| u16::try_from(i % 65_521).unwrap());
        // Streams in every set: the builder's order, the run innermost.
        let (dst, src) = layouts(8194, 1);
        let order = untiled_loops(&dst, &src);
        assert_eq!(order.len(), 4);
        assert_eq!(order[0], (4096, [256, 2]));
        copies_as_the_model_of(&dst, &src, u16::MAX, |i| u16::try_from(i % 65_521).unwrap());
        // A pair two apart in the destination is no run of both: the builder's order.
        let (dst, src) = layouts(8192, 2);
        assert_eq!(untiled_loops(&dst, &src)[0].0, 4096);
    }

    /// Group tiles past the lines a tile may touch are cut smaller where the source's
    /// streams crowd their sets (`group.rs`, `group_cut`): power-of-two seed 29's 1355,
    /// `u16`, 128 streams of the source 4 KiB and 128 KiB apart in one set, would touch
    /// 1,024 lines in tiles of 4 source lines; it runs in tiles of 1 (its 256-step loop cut
    /// to 16 x 16). The same copy with the source's streams 4,100 and 131,076 bytes apart
    /// (every set reached) keeps the builder's order.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "large blocks; group tiles run under Miri in the test of group tiles above"
    )]
    fn crowded_streams_cut_their_group_tiles_smaller() {
        let layouts = |rows: isize| {
            let src = Layout::new([256, 2, 32, 4], [-4, 2, -rows, 32 * rows], 2)
                .unwrap()
                .with_offset(31 * rows + 1020)
                .unwrap();
            let dst = Layout::new([256, 2, 32, 4], [1024, 512, 16, 2], 2).unwrap();
            (dst, src)
        };
        let (dst, src) = layouts(2048);
        assert_eq!(
            untiled_loops(&dst, &src),
            [
                (16, [16384, -64]),
                (32, [16, -2048]),
                (4, [2, 65536]),
                (16, [1024, -4]),
                (2, [512, 2]),
            ]
        );
        copies_as_the_model_of(&dst, &src, u16::MAX, |i| u16::try_from(i % 65_521).unwrap());
        let (dst, src) = layouts(2050);
        assert_eq!(untiled_loops(&dst, &src).len(), 4);
        copies_as_the_model_of(&dst, &src, u16::MAX, |i| u16::try_from(i % 65_521).unwrap());
    }

    /// Long loops inside blocks of a few elements (`long_inside`): the random sweep's
    /// `(2,200,2,2,44)` of `u32` planned three loops of 2 innermost, cubes of 8 elements
    /// (0.23x the plain loop, 0.65x with tiny cubes); its 44-step loop, whose strides are
    /// below half a line in both operands, now runs innermost (faster than the loop). A long
    /// loop whose stride reaches a line, or passes half of one, stays where the order put it.
    #[test]
    #[cfg_attr(
        miri,
        ignore = "plans only under Miri (its model alone took minutes): no unsafe code to check"
    )]
    fn long_loops_of_near_strides_run_inside_blocks_of_a_few_elements() {
        let src = Layout::new([2, 200, 2, 2, 44], [-4, -424, 1, 2, 8], 4)
            .unwrap()
            .with_offset(84396)
            .unwrap();
        let dst = Layout::new([2, 200, 2, 2, 44], [-1, 176, 39072, 2, -4], 4)
            .unwrap()
            .with_offset(1581)
            .unwrap();
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        let loops = plan.nests()[0].loops();
        assert_eq!(loops.last().map(|l| l.extent), Some(44), "{plan}");
        let mut model = std::vec![u32::MAX; dst.required_len().unwrap()];
        let input: std::vec::Vec<u32> = (0u32..).take(src.required_len().unwrap()).collect();
        for (s, d) in src.offsets().zip(dst.offsets()) {
            model[d.unsigned_abs()] = input[s.unsigned_abs()];
        }
        if !cfg!(miri) {
            let mut out = std::vec![u32::MAX; model.len()];
            crate::copy(&input, &src, &mut out, &dst).unwrap();
            assert_eq!(out, model);
        }
        // The same with the long loop 16 elements (a line of `u32`) apart in the source, and
        // 9 (36 bytes, past half a line): the builder's order.
        for far in [16, 9] {
            let src = Layout::new([2, 200, 2, 2, 44], [-4, -1424, 1, 2, far], 4)
                .unwrap()
                .with_offset(284_796)
                .unwrap();
            let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
            assert_ne!(
                plan.nests()[0].loops().last().map(|l| l.extent),
                Some(44),
                "{far}: {plan}"
            );
        }
    }

    /// A long loop of near strides inside a short innermost loop (`long_inside`): the random
    /// sweep's `u16` case 111 planned rows of 2 pixels `[3, 1]` apart under its 136-step loop
    /// (6 and 2 elements a step); the 136 steps now run innermost, and the copy matches the
    /// model. Refused: a short loop that is a run in both operands (pairs of `f32`, seed 11's
    /// 1148), a long loop not just outside it (`u8`, the power-of-two seed 11's 1100, an
    /// 8-step loop between), strides past half a line (18 `u16` in the destination), and a
    /// nest of two loops (the power-of-two seed 13's 396).
    #[test]
    fn long_loops_of_near_strides_run_inside_a_short_innermost_loop() {
        fn last<const N: usize>(dst: &Layout<N>, src: &Layout<N>) -> Option<usize> {
            let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
            plan.nests()[0].loops().last().map(|l| l.extent)
        }
        let src = Layout::new([2, 810, 136], [1, 272, -2], 2)
            .unwrap()
            .with_offset(270)
            .unwrap();
        let dst = Layout::new([2, 810, 136], [3, 816, 6], 2).unwrap();
        assert_eq!(last(&dst, &src), Some(136));
        if !cfg!(miri) {
            copies_as_the_model_of(&dst, &src, u16::MAX, |i| u16::try_from(i % 65_521).unwrap());
        }
        let far = Layout::new([2, 810, 136], [3, 2448, 18], 2).unwrap();
        assert_eq!(last(&far, &src), Some(2), "past half a line");
        let pairs_src = Layout::new([22, 512, 2], [1024, 2, 1], 4).unwrap();
        let pairs_dst = Layout::new([22, 512, 2], [1024, -2, 1], 4)
            .unwrap()
            .with_offset(1022)
            .unwrap();
        assert_eq!(last(&pairs_dst, &pairs_src), Some(2), "a run in both");
        // Two loops (a rank-3 copy merged into the loops of a rank-2 one, whose short rows
        // the two-loop path runs as fast): the order kept, as the two-loop planner keeps it.
        let two_src = Layout::new([2, 16384, 2], [-65536, -4, 1], 8)
            .unwrap()
            .with_offset(131_068)
            .unwrap();
        let two_dst = Layout::new([2, 16384, 2], [65536, 4, 2], 8).unwrap();
        let plan = Plan::new(&[two_dst.lowered(), two_src.lowered()]).unwrap();
        assert_eq!(plan.nests()[0].loops().len(), 2, "{plan}");
        assert_eq!(last(&two_dst, &two_src), Some(2), "two loops");
        let between_src = Layout::new([4096, 8, 2], [32, -4, 1], 1)
            .unwrap()
            .with_offset(28)
            .unwrap();
        let between_dst = Layout::new([4096, 8, 2], [32, 4, 2], 1).unwrap();
        assert_eq!(last(&between_dst, &between_src), Some(2), "a loop between");
    }

    /// Loops apart in the order that merge into a kernel's block (`merge::merge_apart`):
    /// the power-of-two seed 13's 1049 (`u32`, 8 planar channels of 2 × 4096 pixels
    /// interleaved) planned blocks of 8 channels × 2 pixels under the 4096-step loop, the
    /// destination's channel loop sorting between the two pixel loops; its two pixel loops
    /// now run as one of 8192, inside the channels' loop, one block. Seed 11's 45, whose
    /// loops apart merge too but the loop beside the inner one makes no kernel's block with
    /// it, keeps its four loops. The power-of-two 240's 203 (`u8`) merges innermost, under
    /// a transpose, and is tiled with it; its loops without the transpose's run in the
    /// source, or with a loop under the inner one, keep theirs. The copies agree with the
    /// model.
    #[test]
    fn loops_apart_merge_into_a_kernels_block() {
        use super::merge::merge_apart;
        let src = Layout::new([8, 4096, 2], [16384, -2, 1], 4)
            .unwrap()
            .with_offset(8190)
            .unwrap();
        let dst = Layout::new([8, 4096, 2], [1, -16, 8], 4)
            .unwrap()
            .with_offset(65520)
            .unwrap();
        assert_eq!(nest_of(&dst, &src).0, [(8, [1, 16384]), (8192, [8, 1])]);
        if !cfg!(miri) {
            copies_as_the_model_of(&dst, &src, u32::MAX, |i| u32::try_from(i).unwrap());
        }
        let src = Layout::new([32, 4, 8, 2, 16], [16, 2, 16384, -8192, 512], 4)
            .unwrap()
            .with_offset(8192)
            .unwrap();
        let dst = Layout::new([32, 4, 8, 2, 16], [2048, 512, 64, -32, 2], 4)
            .unwrap()
            .with_offset(32)
            .unwrap();
        assert_eq!(nest_of(&dst, &src).0.len(), 4, "no kernel's block");
        if !cfg!(miri) {
            copies_as_the_model_of(&dst, &src, u32::MAX, |i| u32::try_from(i).unwrap());
        }
        // The power-of-two 240's 203: `[a][m][b] -> [b][m][a]` with `m` split in two around
        // `a`; `m` merged innermost, under the transpose of `a` and `b`, tiled with it.
        let src = Layout::new([4, 8, 1024, 16], [16, 65536, 64, -1], 1)
            .unwrap()
            .with_offset(15)
            .unwrap();
        let dst = Layout::new([4, 8, 1024, 16], [8, 1, 32, -32768], 1)
            .unwrap()
            .with_offset(491_520)
            .unwrap();
        let (loops, tile) = nest_of(&dst, &src);
        assert_eq!(loops, [(8, [1, 65536]), (16, [32768, 1]), (4096, [8, 16])]);
        assert_eq!(tile, Some([16, 64]));
        if !cfg!(miri) {
            copies_as_the_model_of(&dst, &src, u8::MAX, |i| u8::try_from(i % 251).unwrap());
        }
        let l = |extent: usize, strides: [isize; 2]| Loop { extent, strides };
        // The loops `merge_apart` leaves of `loops`.
        let merged = |loops: &[Loop<2>]| {
            let mut loops = loops.to_vec();
            let len = loops.len();
            let count = merge_apart(&mut loops, len);
            loops.truncate(count);
            loops
        };
        // 203's loops as the order put them: `a` (1024 steps) and `b` (4) merge, a loop
        // between; `b` innermost under the transpose of the outermost and the third.
        let (a, b) = (l(1024, [32, 64]), l(4, [8, 16]));
        let (transpose, third) = (l(16, [32768, 1]), l(8, [1, 65536]));
        assert_eq!(
            merged(&[transpose, a, third, b]),
            [transpose, third, l(4096, [8, 16])]
        );
        // No run in the source's strides of the outermost: no block over `b`, no merge.
        let no_run = [l(16, [32768, 2]), a, third, b];
        assert_eq!(merged(&no_run), no_run);
        // `b` not innermost (a loop of 2 under it, no block with it): no merge.
        let under = [transpose, a, third, b, l(2, [131_072, 1_048_576])];
        assert_eq!(merged(&under), under);
        // 1049's loops with one more outside: the 4096-step loop taken into the 2-step one,
        // in its place, the channels' loop moving out by one.
        let (outside, channels) = (l(3, [200_000, 300_000]), l(8, [1, 16384]));
        assert_eq!(
            merged(&[outside, l(4096, [16, 2]), channels, l(2, [8, 1])]),
            [outside, channels, l(8192, [8, 1])]
        );
    }

    /// The longest loop into a tiny cube (`long_cube`): the random sweep's `u16`
    /// `(2,2,3466,2)` (seed 7, case 146) planned 3466 cubes of `2 x 2 x 2` (the plain loop's
    /// speed); its 3466-step loop now runs as the cube's outer loop, 2 cubes. A cube of more
    /// than 64 elements, a cube whose outer loop has 16 steps or more, and a loop of fewer
    /// than 64 steps stay where the order put them; of two longest, the outer moves. The
    /// copy agrees with the model.
    #[test]
    fn the_longest_loop_moves_into_a_tiny_cube() {
        use super::order::long_cube;
        let l = |extent: usize, strides: [isize; 2]| Loop { extent, strides };
        let extents =
            |loops: &[Loop<2>]| loops.iter().map(|l| l.extent).collect::<std::vec::Vec<_>>();
        let cube = [l(2, [8, 1]), l(2, [1, -4])];
        // 4-byte elements: 16 a line.
        let moved = |mut loops: std::vec::Vec<Loop<2>>| {
            long_cube(&mut loops, 16);
            extents(&loops)
        };
        // Case 146's loops, as the order put them.
        let case = std::vec![l(3466, [-16, 96]), l(2, [4, -16]), cube[0], cube[1]];
        assert_eq!(moved(case), [2, 3466, 2, 2]);
        // Past the bounds: a cube of 68 elements, a cube's outer loop of 16, a loop of 63.
        let big = std::vec![l(3466, [-16, 96]), l(2, [4, -16]), cube[0], l(17, [1, -4])];
        assert_eq!(moved(big), [3466, 2, 2, 17]);
        let outer = std::vec![l(3466, [-16, 96]), l(16, [4, -16]), cube[0], l(2, [1, -4])];
        assert_eq!(moved(outer), [3466, 16, 2, 2]);
        let short = std::vec![l(63, [-16, 96]), l(2, [4, -16]), cube[0], cube[1]];
        assert_eq!(moved(short), [63, 2, 2, 2]);
        // The longest of two moves; of two as long, the outer.
        let two = std::vec![
            l(100, [9, 9]),
            l(200, [-16, 96]),
            l(2, [4, -16]),
            cube[0],
            cube[1]
        ];
        assert_eq!(moved(two), [100, 2, 200, 2, 2]);
        let equal = std::vec![
            l(100, [9, 9]),
            l(100, [-16, 96]),
            l(2, [4, -16]),
            cube[0],
            cube[1]
        ];
        let mut loops = equal;
        long_cube(&mut loops, 16);
        assert_eq!(loops[2].strides, [9, 9]);
        // Not a loop whose pass evicts the lines the cube's outer loop comes back to (its
        // destination 8 KiB a step, one set, the cube's outer loop 16 bytes; the power-of-two
        // sweep's seed 13 case 564): the next longest moves (its destination 128 bytes a
        // step, 32 sets).
        let crowded = std::vec![
            l(512, [2048, 256]),
            l(64, [32, -4]),
            l(8, [4, -524_288]),
            l(2, [2, 131_072]),
            l(2, [1, 2])
        ];
        assert_eq!(moved(crowded), [512, 8, 64, 2, 2]);
        // Through the planner and the copy (70 steps, 8-byte elements, against the model).
        let src = Layout::new([2, 2, 70, 2], [-16, 1, 96, -4], 8)
            .unwrap()
            .with_offset(20)
            .unwrap();
        let dst = Layout::new([2, 2, 70, 2], [4, 8, -16, 1], 8)
            .unwrap()
            .with_offset(16 * 69)
            .unwrap();
        let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
        let loops = plan.nests()[0].loops();
        assert_eq!(extents(loops), [2, 70, 2, 2], "{plan}");
        copies_as_the_model(&dst, &src);
    }

    /// The divisor `group` cuts a loop at: the nearest to the aim within half and twice it,
    /// the smaller of two as near, none for a prime or past the tries.
    #[test]
    fn the_group_cut_is_the_nearest_divisor() {
        use super::group::divisor_near;
        assert_eq!(divisor_near(66, 16), Some(11));
        assert_eq!(divisor_near(64, 16), Some(16));
        assert_eq!(divisor_near(7018, 16), Some(11));
        assert_eq!(divisor_near(7018, 32), Some(29));
        assert_eq!(divisor_near(60, 16), Some(15));
        assert_eq!(divisor_near(36, 16), Some(18));
        assert_eq!(divisor_near(252, 16), Some(14));
        assert_eq!(divisor_near(67, 16), None);
        assert_eq!(divisor_near(2 * 67, 16), None);
        // Below two nothing is a cut.
        assert_eq!(divisor_near(9, 1), None);
    }

    /// Blocks of long loops that no transpose kernel takes (a loop where no operand steps one
    /// element) are tiled only when a row's lines overflow `ELEMENT_ROW_BYTES` (half an L1)
    /// or its pages `ROW_PAGES`: below both the next row finds them cached and tiles of
    /// element loops add their set-up alone; transposable blocks are tiled as before.
    #[test]
    fn element_blocks_tile_only_past_the_first_level_cache() {
        let l = |extent: usize, strides: [isize; 2]| Loop { extent, strides };
        let (side, line) = (16, 8); // 8-byte elements
        // Rows of 175, 9 elements of lines each (12.6 KB) on 23 pages: whole.
        assert!(!tile_worth(&l(960, [350, 2]), &l(175, [1, 65]), side, line));
        // Read 512 bytes apart, their lines in 8 of the 64 cache sets (room for 64): tiled
        // (`sets_overflow`).
        assert!(tile_worth(&l(960, [350, 2]), &l(175, [1, 64]), side, line));
        // The same lines, each on a page of its own (176 pages a row): tiled.
        assert!(tile_worth(
            &l(960, [350, 2]),
            &l(175, [1, 1920]),
            side,
            line
        ));
        // 96 pages a row (95 one an element, one for the destination's span): whole; one
        // more: tiled. (Read 4104 bytes apart, the lines drift across the cache sets.)
        assert!(!tile_worth(&l(960, [350, 2]), &l(95, [1, 513]), side, line));
        assert!(tile_worth(&l(960, [350, 2]), &l(96, [1, 513]), side, line));
        // A short outer loop is not tiled for pages (no rows to reuse them).
        assert!(!tile_worth(&l(4, [350, 2]), &l(175, [1, 1920]), side, line));
        // Rows of 400 (28.8 KB): tiled.
        assert!(tile_worth(
            &l(960, [350, 2]),
            &l(400, [1, 1920]),
            side,
            line
        ));
        // A unit step in both loops (a transpose): tiled whatever the rows.
        assert!(tile_worth(
            &l(960, [350, 1]),
            &l(175, [1, 1920]),
            side,
            line
        ));
        // Through the planner and the copy: 2-byte elements, rows of 46 (3 KB of lines),
        // 3856 of them and (copied against the model, few elements for Miri) 40.
        let block = |rows: u16| {
            let (n, r) = (usize::from(rows), isize::from(rows.cast_signed()));
            let dst = Layout::new([n, 46], [-138, 3], 2).unwrap();
            let dst = dst.with_offset(138 * (r - 1)).unwrap();
            let src = Layout::new([n, 46], [1, r], 2).unwrap();
            let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
            assert_eq!(plan.nests()[0].tile(), None);
            assert!(small_matches_general(&dst, &src));
            (dst, src)
        };
        block(3856);
        let (dst, src) = block(40);
        let input: std::vec::Vec<u16> = (0..1840).collect();
        let mut out = std::vec![0u16; dst.required_len().unwrap()];
        crate::copy(&input, &src, &mut out, &dst).unwrap();
        for i in 0..40 {
            for j in 0..46 {
                let (d, s) = (
                    dst.offset_of([i, j]).unwrap(),
                    src.offset_of([i, j]).unwrap(),
                );
                let (d, s) = (usize::try_from(d).unwrap(), usize::try_from(s).unwrap());
                assert_eq!(out[d], input[s]);
            }
        }
    }

    /// The one tiling rule: a block with a loop shorter than 8 runs whole while a row's lines
    /// stay cached, and is tiled when they do not; blocks of one tile or less run whole.
    #[test]
    fn short_loops_tile_only_past_the_cache() {
        let tile = |shape: [usize; 3], d: [isize; 3], s: [isize; 3]| {
            let dst = Layout::new(shape, d, 8).unwrap();
            let src = Layout::new(shape, s, 8).unwrap();
            let plan = Plan::new(&[dst.lowered(), src.lowered()]).unwrap();
            plan.nests()[0].tile()
        };
        // 4 rows of 566 elements, each a source line (36 KiB of lines a row): whole.
        assert_eq!(
            tile([377, 4, 566], [1698, 566 * 377, 1], [12, -3, 8292]),
            None
        );
        // The same with 8 rows: tiled.
        assert_eq!(
            tile([377, 8, 566], [1698, 566 * 377, 1], [12, -3, 8292]),
            Some([8, 16])
        );
        // 2 rows (the source's fastest loop) of 40,000 elements, 2.7 MiB of lines a row:
        // tiled.
        assert_eq!(
            tile([2, 4, 40_000], [160_000, 40_000, 1], [1, 2, 8]),
            Some([2, 16])
        );
        let l = |extent: usize, strides: [isize; 2]| Loop { extent, strides };
        let (side, line) = (16, 8);
        assert!(!tile_worth(&l(16, [16, 1]), &l(16, [1, 16]), side, line));
        assert!(tile_worth(&l(16, [17, 1]), &l(17, [1, 16]), side, line));
        assert!(!tile_worth(&l(7, [1000, 1]), &l(1000, [1, 8]), side, line));
        assert!(tile_worth(
            &l(7, [40_000, 1]),
            &l(40_000, [1, 8]),
            side,
            line
        ));
        assert!(!tile_worth(
            &l(1000, [1, 1000]),
            &l(7, [1000, 1]),
            side,
            line
        ));
        // Offsets and steps at the edge of `isize` (operands no `Layout` accepts; the
        // planners must still agree, overflow included), and a second-axis mismatch.
        let op = |shape: [usize; 2], strides: [isize; 2], offset: isize| Lowered {
            shape,
            strides,
            offset,
            itemsize: 4,
            blocks: crate::plan::Blocks::NONE,
        };
        let (max, min) = (isize::MAX, isize::MIN);
        for (d, s) in [
            (op([2, 3], [-1, -4], 0), op([2, 3], [3, 1], 0)),
            (op([2, 3], [-1, -4], min + 8), op([2, 3], [-1, -4], min + 8)),
            (op([2, 3], [1, 4], max - 8), op([2, 3], [3, 1], 0)),
            (op([2, 3], [3, 1], 0), op([2, 3], [max, 1], 0)),
            (op([2, 3], [3, 1], 0), op([2, 3], [min, -1], max)),
            (op([2, 3], [min, -1], max), op([2, 3], [-1, -2], 10)),
            (
                op([usize::MAX, 1], [0, 1], 0),
                op([usize::MAX, 1], [0, 1], 0),
            ),
            (
                op([2, usize::MAX], [1, 0], 0),
                op([2, usize::MAX], [0, 0], 0),
            ),
            (op([2, 3], [3, 1], 0), op([2, 4], [4, 1], 0)),
        ] {
            lowered_small_matches_general(&[d, s]);
        }
    }
}
