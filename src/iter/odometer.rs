//! The one stepping core behind [`Offsets`](super::Offsets), [`Indices`](super::Indices) and
//! [`StridedBlocks`](super::StridedBlocks), for every layout kind: a double-ended odometer
//! over the indices of a [`Lowered`] description, carrying each index's offset.
//!
//! Two cursors, one from each end, and a count of the indices between them: `next` reads
//! the front cursor and moves it up by one index, `next_back` reads the back cursor and
//! moves it down, and the count stops them where they meet, so each index is yielded once.
//! Moving a cursor along axis `k` from index `i` to `i + 1` adds the difference of the
//! interleave core's term ([`step`]): `s_k` on a plain axis, and on the interleaved axis 1
//! inside a block or `s_d - (f - 1)` into the next block.
//!
//! Arithmetic is wrapping, on purpose: every value the odometer yields is a true element
//! offset of a valid layout, which fits `isize` (invariant 3), and wrapping arithmetic is
//! exact modulo `2^64` (`2^32`), so a chain of wrapping steps that ends on a value inside
//! `isize` ends on the true value. A cursor that has run past its end may hold any value;
//! it is never read again.
//!
//! [`step`]: crate::algo::interleave::step

use crate::algo::flatten::flatten;
use crate::algo::parts::Parts;
use crate::{AxisMask, InterleaveLayout, Lowered};

/// One end of the odometer: an index and its offset.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub(crate) struct Cursor<const N: usize> {
    pub(crate) index: [usize; N],
    pub(crate) offset: isize,
}

/// Double-ended odometer state over the indices of a rank-`N` layout, in C order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub(crate) struct Odometer<const N: usize> {
    shape: [usize; N],
    strides: [isize; N],
    /// The interleaved axis and factor ([`InterleaveLayout::PLAIN`] when none).
    il: InterleaveLayout,
    /// The next index to yield from the front.
    pub(crate) front: Cursor<N>,
    /// The next index to yield from the back.
    pub(crate) back: Cursor<N>,
    /// Indices not yet yielded (from `front` to `back`, both included).
    left: usize,
}

/// The lowered form of a layout with runs of axes merged where C order allows (offsets in
/// C order unchanged), right-aligned in rank `N` behind extent-1, stride-0 axes; an
/// interleaved description is returned as it is (its interleaved axis does not merge).
pub(crate) fn coalesced<const N: usize>(low: &Lowered<N>) -> Lowered<N> {
    if low.interleave.is_some() {
        return *low;
    }
    let (mut sh, mut st, mut starts) = ([0usize; N], [0isize; N], [0usize; 0]);
    // Every axis may merge into its left neighbour; `flatten` keeps C-order offsets.
    let mask = AxisMask::from_bits(if N >= 64 { !0 } else { !(!0u64 << N) });
    let p = Parts::from_arrays(&low.shape, &low.strides, low.offset, low.itemsize);
    let Ok((r, _)) = flatten(p, mask, &mut sh, &mut st, &mut starts) else {
        // Unreachable for a valid layout (its volume fits); walking it unmerged is exact.
        return *low;
    };
    let (shape, strides) = right_aligned(sh.get(..r).unwrap_or(&[]), st.get(..r).unwrap_or(&[]));
    Lowered {
        shape,
        strides,
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
        let il = match low.interleave {
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
        let mut odo = Self {
            shape: low.shape,
            strides: low.strides,
            il,
            front: Cursor {
                index: [0; N],
                offset: low.offset,
            },
            back: Cursor {
                index: [0; N],
                offset: low.offset,
            },
            left,
        };
        if left > 0 {
            // The back cursor starts at the last index, `shape - 1` on every axis.
            for k in 0..N {
                let last = odo.extent(k).wrapping_sub(1);
                odo.back.offset = odo.back.offset.wrapping_add(odo.term(k, last));
                if let Some(i) = odo.back.index.get_mut(k) {
                    *i = last;
                }
            }
        }
        odo
    }

    /// Indices not yet yielded.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.left
    }

    /// The extent of axis `k` (1 past the rank).
    #[inline]
    fn extent(&self, k: usize) -> usize {
        self.shape.get(k).copied().unwrap_or(1)
    }

    /// The factor axis `k` is read under (1 except on the interleaved axis).
    #[inline]
    fn factor(&self, k: usize) -> usize {
        self.il.factor_at(k).factor()
    }

    /// `(i / f) * s + i % f` on axis `k`, wrapping (the interleave core's term).
    #[inline]
    fn term(&self, k: usize, i: usize) -> isize {
        let s = self.strides.get(k).copied().unwrap_or(0);
        let (block, lane) = self.il.factor_at(k).split(i);
        s.wrapping_mul(block.cast_signed())
            .wrapping_add(lane.cast_signed())
    }

    /// `term(k, i + 1) - term(k, i)`: the move from index `i` to `i + 1` on axis `k`.
    #[inline]
    fn up(&self, k: usize, i: usize) -> isize {
        let s = self.strides.get(k).copied().unwrap_or(0);
        let f = self.factor(k);
        if f == 1 {
            return s;
        }
        match i.wrapping_add(1).checked_rem(f) {
            // Into the next block: `s - (f - 1)`.
            Some(0) => s.wrapping_sub(f.wrapping_sub(1).cast_signed()),
            _ => 1,
        }
    }

    /// Moves `c` to the next index in C order (past the end: anything, never read).
    #[inline]
    fn increment(&self, c: &mut Cursor<N>) {
        let mut k = N;
        while let Some(a) = k.checked_sub(1) {
            k = a;
            let Some(i) = c.index.get(a).copied() else {
                return;
            };
            let e = self.extent(a);
            if i.wrapping_add(1) < e {
                c.offset = c.offset.wrapping_add(self.up(a, i));
                if let Some(slot) = c.index.get_mut(a) {
                    *slot = i.wrapping_add(1);
                }
                return;
            }
            // Back to index 0 on this axis: undo its whole term, then carry.
            c.offset = c.offset.wrapping_sub(self.term(a, i));
            if let Some(slot) = c.index.get_mut(a) {
                *slot = 0;
            }
        }
    }

    /// Moves `c` to the previous index in C order (before the start: anything).
    #[inline]
    fn decrement(&self, c: &mut Cursor<N>) {
        let mut k = N;
        while let Some(a) = k.checked_sub(1) {
            k = a;
            let Some(i) = c.index.get(a).copied() else {
                return;
            };
            if let Some(prev) = i.checked_sub(1) {
                c.offset = c.offset.wrapping_sub(self.up(a, prev));
                if let Some(slot) = c.index.get_mut(a) {
                    *slot = prev;
                }
                return;
            }
            // To the last index on this axis, then borrow from the next one out.
            let last = self.extent(a).wrapping_sub(1);
            c.offset = c.offset.wrapping_add(self.term(a, last));
            if let Some(slot) = c.index.get_mut(a) {
                *slot = last;
            }
        }
    }

    /// The front index and offset, and moves the front past it; `None` at the end.
    #[inline]
    pub(crate) fn next(&mut self) -> Option<Cursor<N>> {
        self.left = self.left.checked_sub(1)?;
        let c = self.front;
        if self.left > 0 {
            let mut f = self.front;
            self.increment(&mut f);
            self.front = f;
        }
        Some(c)
    }

    /// The back index and offset, and moves the back before it; `None` at the end.
    #[inline]
    pub(crate) fn next_back(&mut self) -> Option<Cursor<N>> {
        self.left = self.left.checked_sub(1)?;
        let c = self.back;
        if self.left > 0 {
            let mut b = self.back;
            self.decrement(&mut b);
            self.back = b;
        }
        Some(c)
    }

    /// Feeds every remaining offset to `f`, front to back, the rest of each row of a plain
    /// last axis as a tight loop.
    #[inline]
    pub(crate) fn fold<B, F: FnMut(B, isize) -> B>(mut self, init: B, mut f: F) -> B {
        let mut acc = init;
        let last = N.wrapping_sub(1);
        let (e, s) = (
            self.extent(last),
            self.strides.get(last).copied().unwrap_or(0),
        );
        let plain_rows = N > 0 && self.factor(last) == 1;
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
            match self.next() {
                Some(c) => acc = f(acc, c.offset),
                None => break,
            }
        }
        acc
    }
}
