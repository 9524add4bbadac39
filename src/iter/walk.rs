//! The one stepping core behind [`Offsets`](super::Offsets), [`Indices`](super::Indices) and
//! [`StridedBlocks`](super::StridedBlocks): an odometer over rows of the last axis.
//!
//! Arithmetic is wrapping, on purpose: every value the walk yields is a true element offset
//! of a valid layout, which fits `isize` (invariant 3), and wrapping arithmetic is exact
//! modulo `2^64` (`2^32`), so a chain of wrapping steps that ends on a value inside `isize`
//! ends on the true value. Intermediate values (one past the end of a row) may wrap; they
//! are never yielded.

use crate::AxisMask;
use crate::algo::flatten::flatten;
use crate::algo::parts::Parts;

/// Odometer state: the current row (all axes but the last) and the position inside it.
///
/// Axes are stored right-aligned: a rank-`r` layout walked with `N > r` has `N - r` leading
/// axes of extent 1 and stride 0, which change no offset and no order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub(crate) struct Walk<const N: usize> {
    shape: [usize; N],
    strides: [isize; N],
    /// Index of the current row on every axis but the last (the last entry is unused).
    pub(crate) idx: [usize; N],
    /// Offset of the first element of the current row.
    row: isize,
    /// Offset of the next element to yield in the current row.
    cur: isize,
    /// Extent and stride of the last axis (1 and 0 at rank 0).
    pub(crate) inner_extent: usize,
    inner_stride: isize,
    /// Elements left in the current row.
    pub(crate) inner_left: usize,
    /// Rows after the current one.
    rows_left: usize,
}

/// Right-aligns `shape`/`strides` (length `<= N`) into rank-`N` arrays, padding the front
/// with extent-1, stride-0 axes; a longer input keeps its last `N` axes (callers never pass
/// one).
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

/// The layout with runs of axes merged where C order allows (offsets in C order unchanged),
/// right-aligned in rank `N` (see [`right_aligned`]).
pub(crate) fn coalesced<const N: usize>(
    shape: &[usize],
    strides: &[isize],
) -> ([usize; N], [isize; N]) {
    let (mut sh, mut st, mut starts) = ([0usize; N], [0isize; N], [0usize; 0]);
    // Every axis may merge into its left neighbour; `flatten` keeps C-order offsets.
    let mask = AxisMask::from_bits(if shape.len() >= 64 {
        !0
    } else {
        !(!0u64 << shape.len())
    });
    let Ok(p) = Parts::new(shape, strides, 0, 1) else {
        return right_aligned(shape, strides);
    };
    match flatten(p, mask, &mut sh, &mut st, &mut starts) {
        Ok((r, _)) => right_aligned(sh.get(..r).unwrap_or(&[]), st.get(..r).unwrap_or(&[])),
        // Unreachable for a valid layout (its volume fits); walking it unmerged is still exact.
        Err(_) => right_aligned(shape, strides),
    }
}

impl<const N: usize> Walk<N> {
    /// A walk over every element of a valid layout given as rank-`N` arrays, in C order.
    pub(crate) fn new(shape: [usize; N], strides: [isize; N], offset: isize) -> Self {
        let (inner_extent, inner_stride) = match (shape.last(), strides.last()) {
            (Some(&e), Some(&s)) => (e, s),
            _ => (1, 0),
        };
        // The volume fits `usize` (invariant 2); `checked_mul` only guards the proof.
        let volume = shape
            .iter()
            .try_fold(1usize, |v, &e| v.checked_mul(e))
            .unwrap_or(0);
        let (inner_left, rows_left) = match volume.checked_div(inner_extent) {
            Some(rows) if rows > 0 => (inner_extent, rows.saturating_sub(1)),
            _ => (0, 0),
        };
        Self {
            shape,
            strides,
            idx: [0; N],
            row: offset,
            cur: offset,
            inner_extent,
            inner_stride,
            inner_left,
            rows_left,
        }
    }

    /// Elements not yet yielded.
    #[inline]
    pub(crate) fn len(&self) -> usize {
        // `rows_left * inner_extent + inner_left` is at most the volume, which fits `usize`.
        self.rows_left
            .wrapping_mul(self.inner_extent)
            .wrapping_add(self.inner_left)
    }

    /// Moves to the next row; `false` when there is none.
    #[inline]
    fn advance_row(&mut self) -> bool {
        if self.rows_left == 0 {
            return false;
        }
        self.rows_left = self.rows_left.wrapping_sub(1);
        let outer = N.saturating_sub(1);
        let mut row = self.row;
        for ((i, &e), &s) in self
            .idx
            .iter_mut()
            .zip(&self.shape)
            .zip(&self.strides)
            .take(outer)
            .rev()
        {
            // `*i < e` and `e` fits `usize`, so `+ 1` cannot wrap.
            *i = i.wrapping_add(1);
            row = row.wrapping_add(s);
            if *i < e {
                break;
            }
            // Back to index 0 on this axis: undo `e` steps (wrapping, see the module doc).
            row = row.wrapping_sub(s.wrapping_mul(e.cast_signed()));
            *i = 0;
        }
        self.row = row;
        self.cur = row;
        self.inner_left = self.inner_extent;
        true
    }

    /// The next element's offset, or `None` at the end.
    #[inline]
    pub(crate) fn next(&mut self) -> Option<isize> {
        if self.inner_left == 0 && !self.advance_row() {
            return None;
        }
        self.inner_left = self.inner_left.wrapping_sub(1);
        let o = self.cur;
        self.cur = self.cur.wrapping_add(self.inner_stride);
        Some(o)
    }

    /// Feeds every remaining offset to `f`, a tight loop per row.
    #[inline]
    pub(crate) fn fold<B, F: FnMut(B, isize) -> B>(mut self, init: B, mut f: F) -> B {
        let mut acc = init;
        loop {
            let (s, mut cur) = (self.inner_stride, self.cur);
            for _ in 0..self.inner_left {
                acc = f(acc, cur);
                cur = cur.wrapping_add(s);
            }
            self.inner_left = 0;
            if !self.advance_row() {
                return acc;
            }
        }
    }
}
