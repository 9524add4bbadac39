//! The steps every engine shares (`const`): one nest of a copy plan as an engine sees it (loops
//! in bytes, the engine's beat width), the choice of which loops the engine's hardware
//! counters take, and the chain of descriptor starts that the other loops leave.
//!
//! A DMA engine moves *beats* of a width it supports (1, 2, 4 or 8 bytes), so an element wider
//! than the engine's widest beat becomes an innermost loop of beats, and the width shrinks
//! until both buffers' addresses are aligned to it; a run contiguous in both operands moves in
//! the widest beats its length and alignment allow. Loops that are contiguous in both operands
//! merge. An engine has up to [`LEVELS`] hardware counters, innermost first, each with its own
//! rules (an eDMA minor loop, an EDMA3 `BCNT`); [`Walk::choose`] tries every assignment of
//! loops to counters, keeps the ones the engine's rule accepts, and takes the one that leaves
//! the fewest descriptors: the product of the extents of the loops no counter takes, one
//! descriptor per combination of their indices. The loop order is the engine's, not the CPU
//! plan's, and so is a loop's direction: a loop the engine's counter cannot run as the plan
//! gives it but can run turned round starts from its other end ([`Walk::facing`]).

use crate::CopyPlan;
use crate::algo::access::{get, set};
use crate::algo::checked::tri;
use crate::kernel::{MAX_LOOPS, Nest};

use super::DmaError;

/// Hardware counters an engine may have, innermost first.
pub(crate) const LEVELS: usize = 3;

/// Room for a nest's loops, the beat loop and one split.
const MAX_RUNS: usize = MAX_LOOPS + 2;

/// One loop in bytes: `count` steps, each moving the source by `src` and the destination by
/// `dst` bytes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Run {
    pub(crate) count: usize,
    pub(crate) src: i64,
    pub(crate) dst: i64,
}

impl Run {
    /// A loop of one step.
    pub(crate) const ONE: Self = Self {
        count: 1,
        src: 0,
        dst: 0,
    };
}

/// What the counters take: for each level, a run or none (a count of 1).
pub(crate) type Levels = [Option<Run>; LEVELS];

/// The engines, for the steps that depend on them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Edma,
    Edma3,
    Gpdma,
    Pl330,
    Rp2040,
    Rp2350,
}

impl Kind {
    /// How many hardware counters one descriptor has.
    const fn levels(self) -> usize {
        match self {
            Self::Edma => 2,
            Self::Edma3 | Self::Gpdma | Self::Pl330 => 3,
            Self::Rp2040 | Self::Rp2350 => 1,
        }
    }

    /// The widest beat, in bytes (EDMA3 counts bytes: its arrays are any length).
    const fn max_width(self) -> usize {
        match self {
            Self::Edma => 8,
            Self::Edma3 => 1,
            Self::Rp2040 | Self::Rp2350 | Self::Gpdma | Self::Pl330 => 4,
        }
    }

    /// Loops of more than this many beats of `width` bytes are cut in two where a divisor
    /// allows (EDMA3: an array and its step both fit, `ACNT` and a 16-bit `BIDX`; GPDMA: a
    /// block fits `BNDT`).
    const fn split(self, width: usize) -> usize {
        match self {
            Self::Edma3 => 0x7FFF,
            Self::Gpdma => match 0xFFFF_usize.checked_div(width) {
                Some(n) => n,
                None => 0xFFFF,
            },
            // A loop counter runs at most 256 iterations.
            Self::Pl330 => 256,
            Self::Edma | Self::Rp2040 | Self::Rp2350 => usize::MAX,
        }
    }

    /// Runs of consecutive beats longer than this are cut first (PL330: a burst is at most
    /// 16 beats).
    const fn split_contiguous(self) -> usize {
        match self {
            Self::Pl330 => 16,
            Self::Edma | Self::Edma3 | Self::Gpdma | Self::Rp2040 | Self::Rp2350 => usize::MAX,
        }
    }

    /// Whether the chain ends with a terminating descriptor (RP2040's null trigger).
    pub(crate) const fn terminated(self) -> bool {
        matches!(self, Self::Rp2040 | Self::Rp2350)
    }

    /// Whether one descriptor can run `levels` with beats of `width` bytes, every run of the
    /// innermost level starting at addresses that are multiples of `align`.
    const fn fits(self, width: usize, align: u64, levels: &Levels) -> bool {
        match self {
            Self::Pl330 => super::pl330::fields(width, align, levels).is_some(),
            Self::Edma => super::edma::fields(width, levels).is_some(),
            Self::Edma3 => super::edma3::fields(levels).is_some(),
            Self::Gpdma => super::gpdma::fields(width, levels).is_some(),
            Self::Rp2040 => super::rp::increments(&super::rp::RP2040, width, levels).is_some(),
            Self::Rp2350 => super::rp::increments(&super::rp::RP2350, width, levels).is_some(),
        }
    }
}

/// `x` in `i64`, if it fits.
pub(crate) const fn i64_of(x: usize) -> Option<i64> {
    if (x as u64) <= i64::MAX.unsigned_abs() {
        #[expect(clippy::cast_possible_wrap, reason = "checked: at most i64::MAX")]
        Some(x as i64)
    } else {
        None
    }
}

/// `x` in `i64` (lossless: `isize` has at most 64 bits on every target Rust supports).
const fn i64_of_isize(x: isize) -> i64 {
    x as i64
}

/// `x` as an engine's signed 16-bit field, if it fits.
pub(crate) const fn i16_of(x: i64) -> Option<i16> {
    if x >= i16::MIN as i64 && x <= i16::MAX as i64 {
        #[expect(clippy::cast_possible_truncation, reason = "checked: inside i16")]
        Some(x as i16)
    } else {
        None
    }
}

/// `x` as a bus address, if it is one.
pub(crate) const fn u32_of(x: i64) -> Option<u32> {
    if x >= 0 && x <= u32::MAX as i64 {
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "checked: inside u32"
        )]
        Some(x as u32)
    } else {
        None
    }
}

/// `base + offset · itemsize` as a bus address, or [`DmaError::Address`].
const fn address(base: u32, offset: isize, itemsize: i64) -> Result<i64, DmaError> {
    let Some(bytes) = i64_of_isize(offset).checked_mul(itemsize) else {
        return Err(DmaError::Address);
    };
    match (base as i64).checked_add(bytes) {
        Some(at) if at >= 0 && at <= u32::MAX as i64 => Ok(at),
        _ => Err(DmaError::Address),
    }
}

/// The widest power of two at most `max` that divides `itemsize` and both addresses.
const fn width(itemsize: usize, max: usize, src: u32, dst: u32) -> usize {
    let mut w = if itemsize < max { itemsize } else { max };
    // `w` is a power of two (itemsizes are, and the engines' widths are).
    while w > 1 {
        let mask = (w as u64).wrapping_sub(1);
        if (src as u64) & mask == 0 && (dst as u64) & mask == 0 {
            break;
        }
        w /= 2;
    }
    if w == 0 { 1 } else { w }
}

/// Whether `x` is a multiple of `m` (`m > 0`).
const fn divides(m: usize, x: i64) -> bool {
    x.unsigned_abs().is_multiple_of(m as u64)
}

/// One nest's loops in bytes, innermost first, from its first element's addresses.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Walk {
    runs: [Run; MAX_RUNS],
    len: usize,
    /// Address of the first element's first byte in the source.
    src: i64,
    /// Address of the first element's first byte in the destination.
    dst: i64,
    /// The beat width in bytes.
    width: usize,
}

impl Walk {
    /// The nest's loops in bytes for engine `kind`.
    ///
    /// # Errors
    ///
    /// [`DmaError::Address`] if a byte of either operand leaves the 32-bit bus.
    pub(crate) const fn new<const L: usize>(
        nest: &Nest<2, L>,
        itemsize: usize,
        kind: Kind,
        src_addr: u32,
        dst_addr: u32,
    ) -> Result<Self, DmaError> {
        // The walk holds the runs of a nest of `MAX_LOOPS` loops and the beats' run.
        const {
            assert!(
                L <= MAX_LOOPS,
                "the DMA lowerings take plans of at most MAX_LOOPS loops a nest"
            );
        };
        let Some(g) = i64_of(itemsize) else {
            return Err(DmaError::Address);
        };
        // Every byte of each operand stays on the bus: the lowest offset's first byte and the
        // highest offset's last byte.
        let [(dlo, dhi), (slo, shi)] = nest.bounds();
        tri!(address(src_addr, slo, g));
        tri!(address(dst_addr, dlo, g));
        let last_s = tri!(address(src_addr, shi, g));
        let last_d = tri!(address(dst_addr, dhi, g));
        // `g >= 1` (an itemsize), so `g - 1` does not wrap.
        let tail = g.saturating_sub(1);
        if last_s.saturating_add(tail) > u32::MAX as i64
            || last_d.saturating_add(tail) > u32::MAX as i64
        {
            return Err(DmaError::Address);
        }
        let [doff, soff] = nest.offsets();
        let mut walk = Self {
            runs: [Run::ONE; MAX_RUNS],
            len: 0,
            src: tri!(address(src_addr, soff, g)),
            dst: tri!(address(dst_addr, doff, g)),
            width: width(itemsize, kind.max_width(), src_addr, dst_addr),
        };
        // `width` divides `itemsize` (both powers of two, `width <= itemsize`).
        let beats = match itemsize.checked_div(walk.width) {
            Some(b) => b,
            None => 1,
        };
        if beats > 1 {
            let Some(w) = i64_of(walk.width) else {
                return Err(DmaError::Address);
            };
            walk.push(Run {
                count: beats,
                src: w,
                dst: w,
            });
        }
        let mut rest = nest.loops();
        while let [outer @ .., l] = rest {
            let [d, s] = l.strides;
            let (Some(src), Some(dst)) = (
                i64_of_isize(s).checked_mul(g),
                i64_of_isize(d).checked_mul(g),
            ) else {
                return Err(DmaError::Address);
            };
            let run = Run {
                count: l.extent,
                src,
                dst,
            };
            let run = walk.facing(kind, run);
            walk.push(run);
            rest = outer;
        }
        walk.widen(kind.max_width());
        walk.split_long(kind.split_contiguous(), true);
        walk.split_long(kind.split(walk.width), false);
        Ok(walk)
    }

    /// `run` as engine `kind` takes it: turned round (each step negated, the start addresses
    /// moved to its last step) when the engine's counter cannot run it as it is but can run
    /// it turned (the RP2350 steps a source by twice the transfer size forwards, never
    /// backwards), else as it is. The plan orders a loop's direction for the CPU's kernels
    /// (consecutive elements forwards); the engine's rules decide here.
    const fn facing(&mut self, kind: Kind, run: Run) -> Run {
        let turned = Run {
            count: run.count,
            src: run.src.saturating_neg(),
            dst: run.dst.saturating_neg(),
        };
        let align = self.width as u64;
        if kind.fits(self.width, align, &[Some(run), None, None])
            || !kind.fits(self.width, align, &[Some(turned), None, None])
        {
            return run;
        }
        // The last step's addresses are elements of the operands, which `new` checked lie on
        // the bus: the products and sums fit `i64`; should one not, the run stays as it is.
        let Some(back) = i64_of(run.count.saturating_sub(1)) else {
            return run;
        };
        match (back.checked_mul(run.src), back.checked_mul(run.dst)) {
            (Some(s), Some(d)) => match (self.src.checked_add(s), self.dst.checked_add(d)) {
                (Some(src), Some(dst)) => {
                    (self.src, self.dst) = (src, dst);
                    turned
                }
                _ => run,
            },
            _ => run,
        }
    }

    /// The largest power of two (at most 4 KiB) dividing both start addresses and the steps
    /// of every run but `except`: the addresses where each of `except`'s runs starts are its
    /// multiples.
    const fn alignment(&self, except: Option<usize>) -> u64 {
        let mut bits = self.src.unsigned_abs() | self.dst.unsigned_abs() | 4096;
        let mut i = 0;
        while i < self.len {
            if let Some(r) = get(&self.runs, i) {
                if !matches!(except, Some(e) if e == i) {
                    bits |= r.src.unsigned_abs() | r.dst.unsigned_abs();
                }
            }
            i = i.saturating_add(1);
        }
        // The lowest set bit (`bits` has bit 12 set, so it is not zero).
        bits & bits.wrapping_neg()
    }

    /// Appends `outer`, merged into the innermost-so-far run where both operands continue it.
    const fn push(&mut self, outer: Run) {
        if let Some(i) = self.len.checked_sub(1) {
            if let Some(last) = get(&self.runs, i) {
                if let Some(n) = i64_of(last.count) {
                    let continues = match (n.checked_mul(last.src), n.checked_mul(last.dst)) {
                        (Some(s), Some(d)) => s == outer.src && d == outer.dst,
                        _ => false,
                    };
                    if continues {
                        if let Some(count) = last.count.checked_mul(outer.count) {
                            set(&mut self.runs, i, Run { count, ..last });
                            return;
                        }
                    }
                }
            }
        }
        if self.len < MAX_RUNS {
            set(&mut self.runs, self.len, outer);
            self.len = self.len.saturating_add(1);
        }
    }

    /// Moves a run contiguous in both operands in wider beats than its elements (up to
    /// `max`) where its length, both start addresses and every other run's steps allow: each
    /// descriptor then starts aligned to the wider beat.
    const fn widen(&mut self, max: usize) {
        let Some(inner) = get(&self.runs, 0) else {
            return;
        };
        let Some(w) = i64_of(self.width) else {
            return;
        };
        if self.len == 0 || inner.src != w || inner.dst != w {
            return;
        }
        let bytes = inner.count.saturating_mul(self.width);
        let mut wide = max;
        while wide > self.width {
            let mut aligned =
                bytes.is_multiple_of(wide) && divides(wide, self.src) && divides(wide, self.dst);
            let mut i = 1;
            while i < self.len {
                if let Some(r) = get(&self.runs, i) {
                    if !(divides(wide, r.src) && divides(wide, r.dst)) {
                        aligned = false;
                    }
                }
                i = i.saturating_add(1);
            }
            let step = if aligned { i64_of(wide) } else { None };
            if let Some(step) = step {
                let count = match bytes.checked_div(wide) {
                    Some(c) => c,
                    None => 0,
                };
                set(
                    &mut self.runs,
                    0,
                    Run {
                        count,
                        src: step,
                        dst: step,
                    },
                );
                self.width = wide;
                return;
            }
            wide /= 2;
        }
    }

    /// Run `i`, the divisor `k` it is cut at and the outer run's steps, where `split_long`
    /// cuts it.
    const fn split_at(
        &self,
        i: usize,
        cap: usize,
        contiguous: bool,
        w: i64,
    ) -> Option<(Run, usize, i64, i64)> {
        let Some(r) = get(&self.runs, i) else {
            return None;
        };
        if r.count <= cap || (contiguous && (r.src != w || r.dst != w)) || self.len >= MAX_RUNS {
            return None;
        }
        let Some(k) = divisor_at_most(r.count, cap) else {
            return None;
        };
        let Some(k64) = i64_of(k) else {
            return None;
        };
        match (r.src.checked_mul(k64), r.dst.checked_mul(k64)) {
            (Some(src), Some(dst)) => Some((r, k, src, dst)),
            _ => None,
        }
    }

    /// Cuts each run longer than `cap` (with `contiguous`, only runs of consecutive beats) into
    /// an inner run of at most `cap` steps and an outer one, where the count has such a
    /// divisor and there is room; the outer one is cut again where it is still too long.
    const fn split_long(&mut self, cap: usize, contiguous: bool) {
        let Some(w) = i64_of(self.width) else {
            return;
        };
        let mut i = 0;
        while i < self.len {
            if let Some((r, k, src, dst)) = self.split_at(i, cap, contiguous, w) {
                // Shift the runs outside `i` out by one.
                let mut j = self.len;
                while j > i.saturating_add(1) {
                    if let Some(prev) = get(&self.runs, j.saturating_sub(1)) {
                        set(&mut self.runs, j, prev);
                    }
                    j = j.saturating_sub(1);
                }
                // `k` divides the count and is at least 2.
                let outer = match r.count.checked_div(k) {
                    Some(n) => n,
                    None => 1,
                };
                set(&mut self.runs, i, Run { count: k, ..r });
                set(
                    &mut self.runs,
                    i.saturating_add(1),
                    Run {
                        count: outer,
                        src,
                        dst,
                    },
                );
                self.len = self.len.saturating_add(1);
            }
            i = i.saturating_add(1);
        }
    }

    /// Whether run `i` is among `choice`'s.
    const fn taken(choice: &[Option<usize>; LEVELS], i: usize) -> bool {
        let mut l = 0;
        while l < LEVELS {
            if let Some(Some(c)) = get(choice, l) {
                if c == i {
                    return true;
                }
            }
            l = l.saturating_add(1);
        }
        false
    }

    /// The levels `choice` names.
    const fn levels(&self, choice: &[Option<usize>; LEVELS]) -> Levels {
        let mut out = [None; LEVELS];
        let mut l = 0;
        while l < LEVELS {
            if let Some(Some(i)) = get(choice, l) {
                if i < self.len {
                    set(&mut out, l, get(&self.runs, i));
                }
            }
            l = l.saturating_add(1);
        }
        out
    }

    /// The descriptors left when `choice` is taken: the product of the other runs' counts.
    const fn left(&self, choice: &[Option<usize>; LEVELS]) -> usize {
        let mut n = 1usize;
        let mut i = 0;
        while i < self.len {
            if let Some(r) = get(&self.runs, i) {
                if !Self::taken(choice, i) {
                    n = n.saturating_mul(r.count);
                }
            }
            i = i.saturating_add(1);
        }
        n
    }

    /// Whether the innermost counter takes a run of consecutive beats in both operands.
    const fn contiguous(&self, levels: &Levels) -> bool {
        match (levels[0], i64_of(self.width)) {
            (Some(r), Some(w)) => r.src == w && r.dst == w && r.count > 1,
            _ => false,
        }
    }

    /// The assignment of runs to the engine's counters (innermost first) that the engine
    /// accepts and that leaves the fewest descriptors (ties: consecutive beats innermost, then
    /// the longest counters, innermost first), and that number. Taking no run at all, one beat a descriptor, is always among
    /// the candidates, and every engine accepts it.
    pub(crate) const fn choose(&self, kind: Kind) -> Choice {
        let levels = kind.levels();
        let options = self.len.saturating_add(1); // a run's index, or none (`len`)
        let mut best = Choice {
            runs: [None; LEVELS],
            descriptors: self.left(&[None; LEVELS]),
        };
        let mut best_counts = [0usize; LEVELS];
        let mut best_contiguous = false;
        let mut digits = [0usize; LEVELS];
        loop {
            // The candidate: distinct runs, levels past the engine's empty.
            let mut choice = [None; LEVELS];
            let mut valid = true;
            let mut l = 0;
            while l < LEVELS {
                if let Some(d) = get(&digits, l) {
                    if d < self.len {
                        if l >= levels || Self::taken(&choice, d) {
                            valid = false;
                        }
                        set(&mut choice, l, Some(d));
                    }
                }
                l = l.saturating_add(1);
            }
            if valid {
                let left = self.left(&choice);
                let chosen = self.levels(&choice);
                let counts = counts(&chosen);
                let contiguous = self.contiguous(&chosen);
                let better = left < best.descriptors
                    || (left == best.descriptors
                        && ((contiguous && !best_contiguous)
                            || (contiguous == best_contiguous && longer(&counts, &best_counts))));
                if better && kind.fits(self.width, self.alignment(choice[0]), &chosen) {
                    best = Choice {
                        runs: choice,
                        descriptors: left,
                    };
                    best_counts = counts;
                    best_contiguous = contiguous;
                }
            }
            // The next candidate: an odometer over `options^LEVELS`.
            let mut l = 0;
            loop {
                let Some(d) = get(&digits, l) else {
                    return best;
                };
                let d = d.saturating_add(1);
                if d < options {
                    set(&mut digits, l, d);
                    break;
                }
                set(&mut digits, l, 0);
                l = l.saturating_add(1);
            }
        }
    }
}

/// Each level's count (1 for none).
const fn counts(levels: &Levels) -> [usize; LEVELS] {
    let mut out = [1usize; LEVELS];
    let mut l = 0;
    while l < LEVELS {
        if let Some(Some(r)) = get(levels, l) {
            set(&mut out, l, r.count);
        }
        l = l.saturating_add(1);
    }
    out
}

/// Whether `a` is lexicographically greater than `b`.
const fn longer(a: &[usize; LEVELS], b: &[usize; LEVELS]) -> bool {
    let mut l = 0;
    while l < LEVELS {
        if let (Some(x), Some(y)) = (get(a, l), get(b, l)) {
            if x != y {
                return x > y;
            }
        }
        l = l.saturating_add(1);
    }
    false
}

/// Which run each level takes, and how many descriptors that leaves.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Choice {
    runs: [Option<usize>; LEVELS],
    pub(crate) descriptors: usize,
}

/// The largest divisor of `n` in `2..=cap`, if any (searching at most 65,536 candidates).
const fn divisor_at_most(n: usize, cap: usize) -> Option<usize> {
    let mut k = if cap < n { cap } else { n };
    let mut tries = 0u32;
    while k >= 2 && tries < 1 << 16 {
        if n.is_multiple_of(k) {
            return Some(k);
        }
        k = k.saturating_sub(1);
        tries = tries.saturating_add(1);
    }
    None
}

/// One descriptor's work: the counters' runs, the beat width and the start addresses.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Step {
    pub(crate) levels: Levels,
    pub(crate) width: usize,
    pub(crate) src: u32,
    pub(crate) dst: u32,
}

/// The descriptors of a whole plan, in order: each nest's, one per combination of the
/// indices of the loops its engine's counters leave.
pub(crate) struct Chain<'p, const M: usize, const L: usize> {
    plan: &'p CopyPlan<M, L>,
    kind: Kind,
    src_addr: u32,
    dst_addr: u32,
    /// The next nest to start.
    nest: usize,
    /// The nest being walked, its choice and where its odometer stands.
    walk: Walk,
    choice: Choice,
    index: [usize; MAX_RUNS],
    src: i64,
    dst: i64,
    live: bool,
}

impl<'p, const M: usize, const L: usize> Chain<'p, M, L> {
    /// The chain of `plan` for engine `kind` between buffers at `src_addr` and `dst_addr`.
    ///
    /// # Errors
    ///
    /// [`DmaError::ItemsizeMismatch`] if the plan's two element sizes differ.
    pub(crate) const fn new(
        plan: &'p CopyPlan<M, L>,
        kind: Kind,
        src_addr: u32,
        dst_addr: u32,
    ) -> Result<Self, DmaError> {
        let (src, dst) = (plan.src_itemsize(), plan.dst_itemsize());
        if src != dst {
            return Err(DmaError::ItemsizeMismatch { src, dst });
        }
        Ok(Self {
            plan,
            kind,
            src_addr,
            dst_addr,
            nest: 0,
            walk: Walk {
                runs: [Run::ONE; MAX_RUNS],
                len: 0,
                src: 0,
                dst: 0,
                width: 1,
            },
            choice: Choice {
                runs: [None; LEVELS],
                descriptors: 0,
            },
            index: [0; MAX_RUNS],
            src: 0,
            dst: 0,
            live: false,
        })
    }

    /// How many descriptors the chain needs, the terminating one included.
    ///
    /// # Errors
    ///
    /// [`DmaError::Address`] if a byte of either buffer leaves the 32-bit bus.
    pub(crate) const fn needed(&self) -> Result<usize, DmaError> {
        let mut needed: usize = if self.kind.terminated() { 1 } else { 0 };
        let mut rest = self.plan.plan().nests();
        while let [nest, tail @ ..] = rest {
            let w = tri!(Walk::new(
                nest,
                self.plan.src_itemsize(),
                self.kind,
                self.src_addr,
                self.dst_addr
            ));
            needed = needed.saturating_add(w.choose(self.kind).descriptors);
            rest = tail;
        }
        Ok(needed)
    }

    /// The next descriptor's work, `None` after the last.
    ///
    /// # Errors
    ///
    /// [`DmaError::Address`] if a byte of either buffer leaves the 32-bit bus.
    pub(crate) const fn next(&mut self) -> Result<Option<Step>, DmaError> {
        while !self.live {
            let nests = self.plan.plan().nests();
            let Some(nest) = nests.split_at_checked(self.nest) else {
                return Ok(None);
            };
            let [nest, ..] = nest.1 else {
                return Ok(None);
            };
            self.walk = tri!(Walk::new(
                nest,
                self.plan.src_itemsize(),
                self.kind,
                self.src_addr,
                self.dst_addr
            ));
            self.choice = self.walk.choose(self.kind);
            self.index = [0; MAX_RUNS];
            self.src = self.walk.src;
            self.dst = self.walk.dst;
            self.live = self.choice.descriptors > 0;
            self.nest = self.nest.saturating_add(1);
        }
        // `Walk::new` checked that every byte of both operands lies on the bus.
        let (Some(src), Some(dst)) = (u32_of(self.src), u32_of(self.dst)) else {
            return Err(DmaError::Address);
        };
        let step = Step {
            levels: self.walk.levels(&self.choice.runs),
            width: self.walk.width,
            src,
            dst,
        };
        tri!(self.advance());
        Ok(Some(step))
    }

    /// Moves the odometer over the runs no counter takes, innermost first; past the last
    /// combination the nest is done.
    const fn advance(&mut self) -> Result<(), DmaError> {
        let mut i = 0;
        while i < self.walk.len {
            let free = match (get(&self.walk.runs, i), get(&self.index, i)) {
                (Some(r), Some(k)) if !Walk::taken(&self.choice.runs, i) => Some((r, k)),
                _ => None,
            };
            if let Some((r, k)) = free {
                let k = k.saturating_add(1);
                if k < r.count {
                    set(&mut self.index, i, k);
                    let (Some(s), Some(d)) =
                        (self.src.checked_add(r.src), self.dst.checked_add(r.dst))
                    else {
                        return Err(DmaError::Address);
                    };
                    self.src = s;
                    self.dst = d;
                    return Ok(());
                }
                // Back to this run's start: `count - 1` steps.
                set(&mut self.index, i, 0);
                let Some(back) = i64_of(r.count.saturating_sub(1)) else {
                    return Err(DmaError::Address);
                };
                let (Some(bs), Some(bd)) = (back.checked_mul(r.src), back.checked_mul(r.dst))
                else {
                    return Err(DmaError::Address);
                };
                let (Some(s), Some(d)) = (self.src.checked_sub(bs), self.dst.checked_sub(bd))
                else {
                    return Err(DmaError::Address);
                };
                self.src = s;
                self.dst = d;
            }
            i = i.saturating_add(1);
        }
        self.live = false;
        Ok(())
    }
}
