//! The one stepping core behind [`Offsets`](super::Offsets), [`Indices`](super::Indices) and
//! [`StridedBlocks`](super::StridedBlocks), for every layout kind: a double-ended odometer
//! over the indices of a [`Lowered`] description, carrying each index's offset.
//!
//! Two cursors, one from each end, and a count of the indices between them: `next` reads
//! the front cursor and moves it up by one index, `next_back` reads the back cursor and
//! moves it down, and the count stops them where they meet, so each index is yielded once.
//! On a plain layout a cursor moves by strides (`+s_k` along axis `k`, `-s_k (e_k - 1)` where
//! the axis wraps back to 0); with an interleaved axis the interleave core
//! ([`offset_of`]) places each index, so the formula is not written again here.
//!
//! Arithmetic is wrapping, on purpose: every value the odometer yields is a true element
//! offset of a valid layout, which fits `isize` (invariant 3), and wrapping arithmetic is
//! exact modulo `2^64` (`2^32`), so a chain of wrapping steps that ends on a value inside
//! `isize` ends on the true value. A cursor that has run past its end may hold any value;
//! it is never read again.
//!
//! [`offset_of`]: crate::algo::interleave::offset_of

use crate::algo::flatten::flatten;
use crate::algo::interleave::offset_of;
use crate::algo::parts::Parts;
use crate::plan::Blocks;
use crate::{AxisMask, InterleaveLayout, Lowered};

/// One end of the odometer: an index and its offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
struct Cursor<const N: usize> {
    index: [usize; N],
    offset: isize,
}

/// Double-ended odometer state over the indices of a rank-`N` layout, in C order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub(crate) struct Odometer<const N: usize> {
    shape: [usize; N],
    strides: [isize; N],
    /// The offset of index `[0; N]`.
    origin: isize,
    /// The interleaved axis and factor ([`InterleaveLayout::PLAIN`] when none).
    il: InterleaveLayout,
    /// The next index to yield from the front.
    front: Cursor<N>,
    /// The next index to yield from the back.
    back: Cursor<N>,
    /// Indices not yet yielded (from `front` to `back`, both included).
    left: usize,
}

/// The lowered form of a layout with runs of axes merged where C order allows (offsets in
/// C order unchanged), right-aligned in rank `N` behind extent-1, stride-0 axes; an
/// interleaved description (factor >= 2) is returned as it is (its interleaved axis does
/// not merge), and a factor of 1 is dropped.
pub(crate) fn coalesced<const N: usize>(low: &Lowered<N>) -> Lowered<N> {
    if matches!(low.blocks.as_interleave(), Some((_, f)) if f > 1) {
        return *low;
    }
    let (mut sh, mut st, mut starts) = ([0usize; N], [0isize; N], [0usize; 0]);
    // Every axis may merge into its left neighbour; `flatten` keeps C-order offsets.
    let mask = AxisMask::from_bits(if N >= 64 { !0 } else { !(!0u64 << N) });
    let p = Parts::from_arrays(&low.shape, &low.strides, low.offset, low.itemsize);
    let Ok((r, _)) = flatten(p, mask, &mut sh, &mut st, &mut starts) else {
        // Unreachable for a valid layout (its volume fits); walking it unmerged is exact.
        return Lowered {
            blocks: Blocks::NONE,
            ..*low
        };
    };
    let (shape, strides) = right_aligned(sh.get(..r).unwrap_or(&[]), st.get(..r).unwrap_or(&[]));
    // A factor of 1 interleaves nothing: the result is a plain description.
    Lowered {
        shape,
        strides,
        blocks: Blocks::NONE,
        ..*low
    }
}

/// Right-aligns `shape`/`strides` (length `<= N`) into rank-`N` arrays, padding the front
/// with extent-1, stride-0 axes, which change no offset and no order; a longer input keeps
/// its last `N` axes (callers never pass one).
pub(crate) fn right_aligned<const N: usize>(
    shape: &[usize],
    strides: &[isize],
) -> ([usize; N], [isize; N]) {
    let mut sh = [1usize; N];
    let mut st = [0isize; N];
    let pad = N.saturating_sub(shape.len());
    for ((o, s), (e, t)) in sh
        .iter_mut()
        .zip(st.iter_mut())
        .skip(pad)
        .zip(shape.iter().zip(strides))
    {
        *o = *e;
        *s = *t;
    }
    (sh, st)
}

impl<const N: usize> Odometer<N> {
    /// An odometer over every index of the valid layout `low`, in C order.
    pub(crate) fn new(low: &Lowered<N>) -> Self {
        let il = match low.blocks.as_interleave() {
            Some((d, f)) if d < N => match InterleaveLayout::new(d, f) {
                Ok(il) => il,
                Err(_) => InterleaveLayout::PLAIN,
            },
            _ => InterleaveLayout::PLAIN,
        };
        // The volume fits `usize` (invariant 2); `checked_mul` only guards the proof.
        let left = low
            .shape
            .iter()
            .try_fold(1usize, |v, &e| v.checked_mul(e))
            .unwrap_or(0);
        let start = Cursor {
            index: [0; N],
            offset: low.offset,
        };
        let mut odo = Self {
            shape: low.shape,
            strides: low.strides,
            origin: low.offset,
            il,
            front: start,
            back: start,
            left,
        };
        if left > 0 {
            // The back cursor starts at the last index, `shape - 1` on every axis.
            let mut back = start;
            for (i, &e) in back.index.iter_mut().zip(&low.shape) {
                *i = e.wrapping_sub(1);
            }
            odo.locate(&mut back);
            odo.back = back;
        }
        odo
    }

    /// Indices not yet yielded.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.left
    }

    /// Whether an axis is interleaved (factor >= 2): its offsets come from the core.
    #[inline]
    fn interleaved(&self) -> bool {
        self.il.factor() > 1
    }

    /// Sets the offset of `c` from its index by the interleave core, when the index is one
    /// of the layout's (otherwise it is past an end and never read).
    #[inline]
    fn locate(&self, c: &mut Cursor<N>) {
        let p = Parts::from_arrays(&self.shape, &self.strides, self.origin, 1);
        if let Ok(o) = offset_of(p, self.il, &c.index) {
            c.offset = o;
        }
    }

    /// Moves `c` to the next index in C order (past the end: anything, never read).
    ///
    /// The offset follows by strides: `+s` along an axis, `-s * (e - 1)` where an axis
    /// wraps back to 0 (an interleaved walk then places the index by the core).
    #[inline]
    fn increment(shape: &[usize; N], strides: &[isize; N], c: &mut Cursor<N>) {
        for ((i, &e), &s) in c.index.iter_mut().zip(shape).zip(strides).rev() {
            if i.wrapping_add(1) < e {
                *i = i.wrapping_add(1);
                c.offset = c.offset.wrapping_add(s);
                return;
            }
            // Back to index 0 on this axis, then carry.
            c.offset = c.offset.wrapping_sub(s.wrapping_mul(i.cast_signed()));
            *i = 0;
        }
    }

    /// Moves `c` to the previous index in C order (before the start: anything).
    #[inline]
    fn decrement(shape: &[usize; N], strides: &[isize; N], c: &mut Cursor<N>) {
        for ((i, &e), &s) in c.index.iter_mut().zip(shape).zip(strides).rev() {
            if let Some(prev) = i.checked_sub(1) {
                *i = prev;
                c.offset = c.offset.wrapping_sub(s);
                return;
            }
            // To the last index on this axis, then borrow from the next one out.
            let last = e.wrapping_sub(1);
            c.offset = c.offset.wrapping_add(s.wrapping_mul(last.cast_signed()));
            *i = last;
        }
    }

    /// Moves the front cursor one index on: the last axis by its stride when the row goes
    /// on (the common case, one add), else the general carry.
    #[inline]
    fn step_front(&mut self) {
        if !self.interleaved() {
            if let (Some(i), Some(&e), Some(&s)) = (
                self.front.index.last_mut(),
                self.shape.last(),
                self.strides.last(),
            ) {
                if i.wrapping_add(1) < e {
                    *i = i.wrapping_add(1);
                    self.front.offset = self.front.offset.wrapping_add(s);
                    return;
                }
            }
        }
        self.carry_front();
    }

    /// The general move of the front cursor: a carry into outer axes, or an interleaved
    /// walk's placement by the core (off the hot path of a row).
    #[inline]
    fn carry_front(&mut self) {
        self.front = carried(
            self.shape,
            self.strides,
            self.origin,
            self.il,
            self.front,
            true,
        );
    }

    /// Moves the back cursor one index back, as [`step_front`](Odometer::step_front).
    #[inline]
    fn step_back(&mut self) {
        if !self.interleaved() {
            if let (Some(i), Some(&s)) = (self.back.index.last_mut(), self.strides.last()) {
                if let Some(prev) = i.checked_sub(1) {
                    *i = prev;
                    self.back.offset = self.back.offset.wrapping_sub(s);
                    return;
                }
            }
        }
        self.carry_back();
    }

    /// The general move of the back cursor, as [`carry_front`](Odometer::carry_front).
    #[inline]
    fn carry_back(&mut self) {
        self.back = carried(
            self.shape,
            self.strides,
            self.origin,
            self.il,
            self.back,
            false,
        );
    }

    /// The front offset, and moves the front past it; `None` at the end.
    #[inline]
    pub(crate) fn next_offset(&mut self) -> Option<isize> {
        self.left = self.left.checked_sub(1)?;
        let o = self.front.offset;
        // Past the last index the front holds anything; `left` keeps it from being read.
        self.step_front();
        Some(o)
    }

    /// The back offset, and moves the back before it; `None` at the end.
    #[inline]
    pub(crate) fn next_back_offset(&mut self) -> Option<isize> {
        self.left = self.left.checked_sub(1)?;
        let o = self.back.offset;
        // Before the first index the back holds anything; `left` keeps it from being read.
        self.step_back();
        Some(o)
    }

    /// The front offset without moving the front; `None` at the end.
    #[inline]
    pub(crate) fn peek_offset(&self) -> Option<isize> {
        (self.left > 0).then_some(self.front.offset)
    }

    /// The back offset without moving the back; `None` at the end.
    #[inline]
    pub(crate) fn peek_back_offset(&self) -> Option<isize> {
        (self.left > 0).then_some(self.back.offset)
    }

    /// The front index, and moves the front past it; `None` at the end.
    #[inline]
    pub(crate) fn next_index(&mut self) -> Option<[usize; N]> {
        let index = self.front.index;
        self.next_offset().map(|_| index)
    }

    /// The back index, and moves the back before it; `None` at the end.
    #[inline]
    pub(crate) fn next_back_index(&mut self) -> Option<[usize; N]> {
        let index = self.back.index;
        self.next_back_offset().map(|_| index)
    }

    /// Whether the front cursor starts a row of the last axis (or the walk is over): only
    /// there can a plain layout's block join the one before it.
    #[inline]
    pub(crate) fn front_at_row_start(&self) -> bool {
        self.left == 0 || self.interleaved() || self.front.index.last().is_none_or(|&i| i == 0)
    }

    /// Whether the back cursor ends a row of the last axis (or the walk is over).
    #[inline]
    pub(crate) fn back_at_row_end(&self) -> bool {
        self.left == 0
            || self.interleaved()
            || match (self.back.index.last(), self.shape.last()) {
                (Some(&i), Some(&e)) => i.wrapping_add(1) == e,
                _ => true,
            }
    }

    /// Feeds every remaining offset to `f`, front to back, the rest of each row of a plain
    /// last axis as a tight loop.
    #[inline]
    pub(crate) fn fold<B, F: FnMut(B, isize) -> B>(mut self, init: B, mut f: F) -> B {
        let mut acc = init;
        let last = N.wrapping_sub(1);
        let (e, s) = (
            self.shape.get(last).copied().unwrap_or(1),
            self.strides.get(last).copied().unwrap_or(0),
        );
        let plain_rows = N > 0 && !self.interleaved();
        while self.left > 0 {
            if plain_rows {
                // The rest of the current row: `e - i` indices, at most `left`.
                let i = self.front.index.get(last).copied().unwrap_or(0);
                let run = e.wrapping_sub(i).min(self.left);
                let mut cur = self.front.offset;
                for _ in 1..run {
                    acc = f(acc, cur);
                    cur = cur.wrapping_add(s);
                }
                // The run's last index goes through `next`, which moves to the next row.
                if let Some(slot) = self.front.index.get_mut(last) {
                    *slot = i.wrapping_add(run).wrapping_sub(1);
                }
                self.front.offset = cur;
                self.left = self.left.wrapping_sub(run.saturating_sub(1));
            }
            match self.next_offset() {
                Some(o) => acc = f(acc, o),
                None => break,
            }
        }
        acc
    }
}

/// `c` moved one index on (`forward`) or back, placed by the interleave core on an
/// interleaved walk: the odometer's cold path. It takes the odometer's parts by value, so
/// the odometer itself never escapes into the call and a `for` loop over it keeps its state
/// in registers.
#[cold]
#[inline(never)]
fn carried<const N: usize>(
    shape: [usize; N],
    strides: [isize; N],
    origin: isize,
    il: InterleaveLayout,
    mut c: Cursor<N>,
    forward: bool,
) -> Cursor<N> {
    if forward {
        Odometer::increment(&shape, &strides, &mut c);
    } else {
        Odometer::decrement(&shape, &strides, &mut c);
    }
    if il.factor() > 1 {
        let p = Parts::from_arrays(&shape, &strides, origin, 1);
        if let Ok(o) = offset_of(p, il, &c.index) {
            c.offset = o;
        }
    }
    c
}
