//! [`Plan`]: the loops a kernel runs for `K` operands of one shape, chosen once.
//!
//! Planning turns the operands' [`Lowered`] forms into at most two loop nests (two when an
//! interleaved operand has a partial last block). For each nest, in this order:
//!
//! 1. an interleaved axis `d` with factor `f` is split into a block axis and a lane axis (the
//!    interleaved operands step `strides[d]` and 1, the others `f·strides[d]` and
//!    `strides[d]`); a partial last block becomes the second nest;
//! 2. extent-1 axes are dropped, and neighbours that merge in every operand
//!    (`outer stride == inner stride · inner extent`) are merged;
//! 3. axes whose strides are negative (or zero) in every operand are flipped, so runs ascend;
//! 4. the loops are ordered by `Σ w_k |stride_k|`, largest outermost, the destination
//!    (operand 0) weighted `K` and every source 1 (Strided.jl's rule), then merged again;
//! 5. when a source's fastest axis is not the innermost loop (a transpose, `A + A'`), that
//!    axis moves just outside the innermost loop and both are tiled: `p × p` tiles with `p`
//!    the largest power of two such that `p² · itemsize <= TILE_BYTES` (4096 bytes where
//!    there is an OS, 512 on bare metal: 32 × 32 for `f32` on hosts).
//!
//! ```text
//! copy of a 4096 x 4096 f32 transpose          Plan::new(&[dst.lowered(), src.lowered()])
//! dst (4096,4096):(4096,1)                     nest 0: offsets [0, 0], 16777216 elements
//! src (4096,4096):(1,4096)                       loop 0: extent 4096, strides [4096, 1], tile 32
//!                                                loop 1: extent 4096, strides [1, 4096], tile 32
//! ```
//!
//! The plan is plain stack data (about `2 · 16 · (K + 1)` words), so firmware can keep one
//! and a GPU host can read its loops to size a launch.

use core::fmt;

use crate::LayoutError;
use crate::kernel::mapping::Lowered;

/// Bytes of *source* data one tile of a tiled copy covers (a tile of `itemsize`-byte
/// elements is about `sqrt(TILE_BYTES / itemsize)` on a side): 4096 on targets with an OS
/// (a 32 KiB+ L1D holds the source and destination tiles with room), 512 on bare metal (a
/// few KiB of cache or none, tight SRAM; the packed-tile scratch of `map` and `zip_map` is
/// this big on the stack).
pub(crate) const TILE_BYTES: usize = if cfg!(target_os = "none") { 512 } else { 4096 };

/// Elements per iteration of the strided inner loop (contiguous runs ignore it): 4 where wide
/// out-of-order cores hide the address math, 1 on bare metal, where code size comes first.
pub(crate) const INNER_UNROLL: usize = if cfg!(target_os = "none") { 1 } else { 4 };

const _: () = assert!(TILE_BYTES.is_power_of_two() && TILE_BYTES >= 64);
const _: () = assert!(INNER_UNROLL >= 1);

/// The most loops one nest holds: after extent-1 axes are dropped and mergeable axes merged,
/// a plan with more loops than this is [`LayoutError::RankOverflow`].
pub const MAX_LOOPS: usize = 16;

/// One loop of a nest: how many steps, and how far each operand moves per step (elements).
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Loop, Mapping, Order, Plan};
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
/// the tile of the two innermost loops when the operands disagree on the fastest axis.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Mapping, Order, Plan};
/// let dst = Layout::dense([64, 64], 4, Order::C)?;
/// let src = dst.transposed(0, 1)?;
/// let plan = Plan::new(&[dst.lowered(), src.lowered()])?;
/// let nest = &plan.nests()[0];
/// assert_eq!((nest.loops().len(), nest.tile(), nest.volume()), (2, Some([32, 32]), 4096));
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Nest<const K: usize> {
    loops: [Loop<K>; MAX_LOOPS],
    depth: usize,
    offsets: [isize; K],
    bounds: [(isize, isize); K],
    tile: Option<[usize; 2]>,
}

impl<const K: usize> Nest<K> {
    // All zeros (unused loops have extent 0), so it is built with a memset.
    const EMPTY: Self = Self {
        loops: [Loop {
            extent: 0,
            strides: [0; K],
        }; MAX_LOOPS],
        depth: 0,
        offsets: [0; K],
        bounds: [(0, 0); K],
        tile: None,
    };

    /// The loops, outermost first; empty for a nest of one element.
    #[must_use]
    pub fn loops(&self) -> &[Loop<K>] {
        self.loops.get(..self.depth).unwrap_or(&[])
    }

    /// Each operand's offset at the first element, in elements.
    #[must_use]
    pub const fn offsets(&self) -> [isize; K] {
        self.offsets
    }

    /// Each operand's smallest and largest offset over the nest, in elements.
    #[must_use]
    pub const fn bounds(&self) -> [(isize, isize); K] {
        self.bounds
    }

    /// `Some([ta, tb])` when the two innermost loops run in `ta × tb` tiles.
    #[must_use]
    pub const fn tile(&self) -> Option<[usize; 2]> {
        self.tile
    }

    /// The number of elements the nest visits (the product of its extents).
    #[must_use]
    pub fn volume(&self) -> usize {
        // Each nest is a part of the operands' shape, whose volume fits `usize`.
        self.loops()
            .iter()
            .fold(1usize, |v, l| v.saturating_mul(l.extent))
    }
}

/// The loops a kernel runs over `K` operands of one shape, operand 0 the destination.
///
/// Built once by [`Plan::new`]; plain `Copy` data on the stack. `Display` lists the loops.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Mapping, Order, Plan};
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
pub struct Plan<const K: usize> {
    nests: [Nest<K>; 2],
    count: usize,
}

impl<const K: usize> Plan<K> {
    /// The plan of nothing; [`Plan::build`] fills it in place.
    pub(crate) const EMPTY: Self = Self {
        nests: [Nest::EMPTY; 2],
        count: 0,
    };

    /// Plans the loops for operands `ops` (operand 0 the destination), all of one shape.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::ShapeMismatch`] if an operand's shape differs from operand 0's (the
    ///   first differing axis);
    /// - [`LayoutError::AxisOutOfRange`] if an interleave names an axis `>= N`;
    /// - [`LayoutError::FactorZero`] if an interleave factor is 0;
    /// - [`LayoutError::InterleaveConflict`] if two operands are interleaved differently;
    /// - [`LayoutError::OffsetOverflow`] if an offset or stride the plan needs overflows
    ///   `isize` (never for operands that keep the invariants of [`Layout`](crate::Layout));
    /// - [`LayoutError::RankOverflow`] if a nest needs more than [`MAX_LOOPS`] loops.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Mapping, Order, Plan};
    /// let dst = Layout::dense([3, 4], 4, Order::C)?;
    /// let src = Layout::dense([3, 4], 4, Order::F)?;
    /// let plan = Plan::new(&[dst.lowered(), src.lowered()])?;
    /// assert_eq!(plan.nests().len(), 1);
    /// assert_eq!(plan.volume(), 12);
    /// let bad = Layout::dense([4, 3], 4, Order::C)?;
    /// assert_eq!(Plan::new(&[dst.lowered(), bad.lowered()]), Err(LayoutError::ShapeMismatch { axis: 0 }));
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn new<const N: usize>(ops: &[Lowered<N>; K]) -> Result<Self, LayoutError> {
        let mut plan = Self::EMPTY;
        plan.build(ops)?;
        Ok(plan)
    }

    /// [`Plan::new`] into `self`, which must be [`Plan::EMPTY`]; the kernels plan in place so
    /// that the plan (about a kilobyte) is never moved.
    pub(crate) fn build<const N: usize>(
        &mut self,
        ops: &[Lowered<N>; K],
    ) -> Result<(), LayoutError> {
        let plan = self;
        let Some(first) = ops.first() else {
            return Ok(());
        };
        let shape = first.shape;
        let mut split: Option<(usize, usize)> = None;
        let mut itemsize = 1;
        for op in ops {
            if let Some(axis) = (0..N).find(|&k| op.shape.get(k) != shape.get(k)) {
                return Err(LayoutError::ShapeMismatch { axis });
            }
            if let Some((d, f)) = op.interleave {
                if d >= N {
                    return Err(LayoutError::AxisOutOfRange { axis: d, ndim: N });
                }
                if f == 0 {
                    return Err(LayoutError::FactorZero);
                }
                match split {
                    None => split = Some((d, f)),
                    Some(s) if s == (d, f) => {}
                    Some(_) => return Err(LayoutError::InterleaveConflict),
                }
            }
            itemsize = itemsize.max(op.itemsize);
        }
        if shape.contains(&0) {
            return Ok(());
        }
        let side = tile_side(itemsize);
        let Some((d, f)) = split else {
            let mut b = plan.builder(ops.each_ref().map(|op| op.offset))?;
            for k in 0..N {
                let extent = shape.get(k).copied().unwrap_or(1);
                b.push(extent, ops.each_ref().map(|op| stride_at(op, k)))?;
            }
            b.finish(side)?;
            plan.count = 1;
            return Ok(());
        };
        let extent = shape.get(d).copied().unwrap_or(1);
        let (blocks, tail) = (
            extent.checked_div(f).unwrap_or(0),
            extent.checked_rem(f).unwrap_or(0),
        );
        // Per operand: (block stride, lane stride) on the split axis.
        let mut outer = [0isize; K];
        let mut lane = [0isize; K];
        for ((op, o), l) in ops.iter().zip(&mut outer).zip(&mut lane) {
            let s = stride_at(op, d);
            (*o, *l) = if op.interleave.is_some() {
                (s, 1)
            } else if blocks >= 2 || (blocks == 1 && tail > 0) {
                // `f` steps of the axis, an offset difference of two elements (index `f`
                // exists), needed by the block loop or to shift the partial block.
                (mul(s, f)?, s)
            } else {
                (0, s)
            };
        }
        for piece in [Piece::Blocks(blocks), Piece::Tail(blocks, tail)] {
            let (count, lanes) = match piece {
                Piece::Blocks(q) => (q, f),
                Piece::Tail(_, r) => (1, r),
            };
            if count == 0 || lanes == 0 {
                continue;
            }
            let mut offsets = ops.each_ref().map(|op| op.offset);
            if let Piece::Tail(q, _) = piece {
                for (o, &s) in offsets.iter_mut().zip(&outer) {
                    *o = add(*o, mul(s, q)?)?;
                }
            }
            let mut b = plan.builder(offsets)?;
            for k in 0..N {
                if k == d {
                    b.push(count, outer)?;
                    b.push(lanes, lane)?;
                } else {
                    let extent = shape.get(k).copied().unwrap_or(1);
                    b.push(extent, ops.each_ref().map(|op| stride_at(op, k)))?;
                }
            }
            b.finish(side)?;
            plan.count = plan.count.saturating_add(1);
        }
        Ok(())
    }

    /// A builder writing the next nest in place (the plan is built without moving nests).
    fn builder(&mut self, offsets: [isize; K]) -> Result<Builder<'_, K>, LayoutError> {
        let nest = self
            .nests
            .get_mut(self.count)
            .ok_or(LayoutError::RankOverflow { max: MAX_LOOPS })?;
        nest.offsets = offsets;
        Ok(Builder { nest })
    }

    /// The loop nests, run one after the other (none when the shape has an extent 0).
    #[must_use]
    pub fn nests(&self) -> &[Nest<K>] {
        self.nests.get(..self.count).unwrap_or(&[])
    }

    /// The number of elements the plan visits.
    #[must_use]
    pub fn volume(&self) -> usize {
        self.nests()
            .iter()
            .fold(0usize, |v, n| v.saturating_add(n.volume()))
    }
}

/// Which part of a split axis a nest covers.
#[derive(Clone, Copy)]
enum Piece {
    /// The whole blocks: their count.
    Blocks(usize),
    /// The partial last block: the number of whole blocks before it, and its lanes.
    Tail(usize, usize),
}

fn stride_at<const N: usize>(op: &Lowered<N>, k: usize) -> isize {
    op.strides.get(k).copied().unwrap_or(0)
}

/// `s · n`, exact or an error. A zero stride is 0 for any `n`: an axis of more than
/// `isize::MAX` elements (legal when it never moves the offset) must not fail here.
fn mul(s: isize, n: usize) -> Result<isize, LayoutError> {
    if s == 0 {
        return Ok(0);
    }
    isize::try_from(n)
        .ok()
        .and_then(|n| s.checked_mul(n))
        .ok_or(LayoutError::OffsetOverflow)
}

fn add(a: isize, b: isize) -> Result<isize, LayoutError> {
    a.checked_add(b).ok_or(LayoutError::OffsetOverflow)
}

/// The largest power of two `p` with `p² · itemsize <= TILE_BYTES` (at least 1).
const fn tile_side(itemsize: usize) -> usize {
    let item = if itemsize == 0 { 1 } else { itemsize };
    let mut p: usize = 1;
    while p < TILE_BYTES {
        let q = p.saturating_mul(2);
        if q.saturating_mul(q).saturating_mul(item) > TILE_BYTES {
            break;
        }
        p = q;
    }
    p
}

/// A nest under construction.
struct Builder<'a, const K: usize> {
    nest: &'a mut Nest<K>,
}

impl<const K: usize> Builder<'_, K> {
    /// Appends an axis inside the others: dropped at extent 1, merged into the previous loop
    /// when it merges in every operand.
    fn push(&mut self, extent: usize, strides: [isize; K]) -> Result<(), LayoutError> {
        if extent == 1 {
            return Ok(());
        }
        let depth = self.nest.depth;
        let inner = Loop { extent, strides };
        if let Some(prev) = depth
            .checked_sub(1)
            .and_then(|i| self.nest.loops.get_mut(i))
        {
            if let Some(merged) = merge(*prev, inner) {
                *prev = merged;
                return Ok(());
            }
        }
        let slot = self
            .nest
            .loops
            .get_mut(depth)
            .ok_or(LayoutError::RankOverflow { max: MAX_LOOPS })?;
        *slot = inner;
        self.nest.depth = depth.saturating_add(1);
        Ok(())
    }

    fn finish(self, side: usize) -> Result<(), LayoutError> {
        let Nest {
            loops: all,
            depth,
            offsets,
            bounds,
            tile: tiled,
        } = self.nest;
        let loops = all.get_mut(..*depth).unwrap_or(&mut []);
        // Flip axes that go backwards (or stand still) in every operand.
        for l in loops.iter_mut() {
            if l.strides.iter().all(|&s| s <= 0) && l.strides.iter().any(|&s| s < 0) {
                for (o, s) in offsets.iter_mut().zip(&mut l.strides) {
                    *o = add(*o, mul(*s, l.extent.saturating_sub(1))?)?;
                    *s = s.checked_neg().ok_or(LayoutError::OffsetOverflow)?;
                }
            }
        }
        // Order by weighted stride, largest outermost (stable insertion sort).
        for i in 1..loops.len() {
            let mut j = i;
            while let Some(p) = j.checked_sub(1) {
                let (Some(a), Some(b)) = (loops.get(p), loops.get(j)) else {
                    break;
                };
                if weight(a) >= weight(b) {
                    break;
                }
                loops.swap(p, j);
                j = p;
            }
        }
        // Merge again in the new order.
        let mut out = 0usize;
        for i in 0..loops.len() {
            let Some(&cur) = loops.get(i) else { break };
            let merged = out
                .checked_sub(1)
                .and_then(|p| loops.get(p))
                .and_then(|&prev| merge(prev, cur));
            if let (Some(m), Some(p)) = (merged, out.checked_sub(1)) {
                if let Some(slot) = loops.get_mut(p) {
                    *slot = m;
                }
            } else {
                if let Some(slot) = loops.get_mut(out) {
                    *slot = cur;
                }
                out = out.saturating_add(1);
            }
        }
        let loops = loops.get_mut(..out).unwrap_or(&mut []);
        *tiled = tile(loops, side);
        *depth = out;
        *bounds = offsets.map(|o| (o, o));
        for l in loops.iter() {
            let span = l.extent.saturating_sub(1);
            for (b, &s) in bounds.iter_mut().zip(&l.strides) {
                let d = mul(s, span)?;
                if d < 0 {
                    b.0 = add(b.0, d)?;
                } else {
                    b.1 = add(b.1, d)?;
                }
            }
        }
        Ok(())
    }
}

/// `outer` and `inner` as one loop, when `outer`'s stride is `inner`'s times its extent in
/// every operand.
fn merge<const K: usize>(outer: Loop<K>, inner: Loop<K>) -> Option<Loop<K>> {
    let ok = outer
        .strides
        .iter()
        .zip(&inner.strides)
        .all(|(&o, &i)| mul(i, inner.extent).is_ok_and(|p| p == o));
    Some(Loop {
        extent: outer.extent.checked_mul(inner.extent)?,
        strides: inner.strides,
    })
    .filter(|_| ok)
}

/// `Σ w_k |stride_k|` with the destination (operand 0) weighted `K`.
fn weight<const K: usize>(l: &Loop<K>) -> u128 {
    l.strides.iter().enumerate().fold(0u128, |acc, (k, &s)| {
        let w = if k == 0 { K } else { 1 } as u128;
        acc.saturating_add(w.saturating_mul(u128::from(s.unsigned_abs() as u64)))
    })
}

/// When a source's fastest loop is not the innermost one, moves it just outside the
/// innermost and returns the tile.
fn tile<const K: usize>(loops: &mut [Loop<K>], side: usize) -> Option<[usize; 2]> {
    let inner = loops.len().checked_sub(1)?;
    let second = inner.checked_sub(1)?;
    for k in 1..K {
        let fastest = loops
            .iter()
            .enumerate()
            .filter(|(_, l)| l.strides.get(k).is_some_and(|&s| s != 0))
            .min_by_key(|&(i, l)| {
                (
                    l.strides.get(k).map_or(0, |s| s.unsigned_abs()),
                    core::cmp::Reverse(i),
                )
            })
            .map(|(i, _)| i)?;
        let at = |i: usize| {
            loops
                .get(i)
                .and_then(|l| l.strides.get(k))
                .map_or(0, |s| s.unsigned_abs())
        };
        if fastest != inner && at(inner) != 0 && at(fastest) < at(inner) {
            loops.get_mut(fastest..=second)?.rotate_left(1);
            let (a, b) = (loops.get(second)?, loops.get(inner)?);
            return Some([side.min(a.extent), side.min(b.extent)]);
        }
    }
    None
}

struct NestHead<'a, const K: usize>(usize, &'a Nest<K>);

impl<const K: usize> fmt::Display for NestHead<'_, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "nest {}: offsets {:?}, {} elements",
            self.0,
            self.1.offsets,
            self.1.volume()
        )
    }
}

struct LoopLine<'a, const K: usize>(usize, &'a Loop<K>, &'a Nest<K>);

impl<const K: usize> fmt::Display for LoopLine<'_, K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let LoopLine(j, l, nest) = *self;
        write!(
            f,
            "  loop {j}: extent {}, strides {:?}",
            l.extent, l.strides
        )?;
        if let Some(t) = nest.tile {
            let inner = nest.depth.saturating_sub(2);
            if j >= inner {
                let side = if j == inner { t[0] } else { t[1] };
                write!(f, ", tile {side}")?;
            }
        }
        Ok(())
    }
}

impl<const K: usize> fmt::Display for Plan<K> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count == 0 {
            return f.write_str("empty plan");
        }
        for (i, nest) in self.nests().iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{}", NestHead(i, nest))?;
            for (j, l) in nest.loops().iter().enumerate() {
                write!(f, "\n{}", LoopLine(j, l, nest))?;
            }
        }
        Ok(())
    }
}
