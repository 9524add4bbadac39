//! [`Builder`]: a nested layout written leaf by leaf, tuple by tuple, for the layout algebra,
//! whose results nest as their operands do. The first error sticks; [`Builder::finish`]
//! reports it, or validates the layout as every constructor does.

#![expect(
    clippy::many_single_char_names,
    reason = "a walk over one mode: `n` the mode, `s` its span, `j` a leaf, `o`, `c` counts"
)]

use super::{NestedError, NestedLayout};
use crate::algo::access::{get, set};

/// A nested layout under construction: leaves appended in order, tuples opened before the
/// next leaf and closed after the last one. No cut is written (the algebra's results have
/// none).
#[derive(Clone, Copy)]
pub(crate) struct Builder<const L: usize> {
    out: NestedLayout<L>,
    /// Tuples opened since the last leaf.
    pending: usize,
    /// Tuples open now.
    level: usize,
    error: Option<NestedError>,
}

impl<const L: usize> Builder<L> {
    /// Nothing written yet.
    pub(crate) const fn new() -> Self {
        Self {
            out: NestedLayout::EMPTY,
            pending: 0,
            level: 0,
            error: None,
        }
    }

    /// Records `e` unless an error is already recorded.
    const fn fail(&mut self, e: NestedError) {
        if self.error.is_none() {
            self.error = Some(e);
        }
    }

    /// Opens a tuple; the next leaf is its first.
    pub(crate) const fn open(&mut self) {
        self.open_cut(0);
    }

    /// Opens a tuple cut to its first `cut` coordinates (0: not cut); the next leaf is its
    /// first. [`finish`](Self::finish) checks the cut against the tuple's sub-modes.
    pub(crate) const fn open_cut(&mut self, cut: usize) {
        if self.out.tuples >= L {
            self.fail(NestedError::TooManyModes { max: L });
            return;
        }
        self.out.set_cut(self.out.tuples, cut);
        self.out.tuples = self.out.tuples.saturating_add(1);
        self.pending = self.pending.saturating_add(1);
        self.level = self.level.saturating_add(1);
    }

    /// Closes the innermost open tuple after the last leaf written (a tuple holds at least
    /// one leaf).
    pub(crate) const fn close(&mut self) {
        let Some(last) = self.out.leaves.checked_sub(1) else {
            self.fail(NestedError::NotCongruent);
            return;
        };
        if self.pending > 0 || self.level == 0 {
            // An empty tuple, or a close without an open: never asked for by the algebra.
            self.fail(NestedError::NotCongruent);
            return;
        }
        let c = self.out.closes_at(last).saturating_add(1);
        let Ok(c) = super::transform::byte(c) else {
            self.fail(NestedError::TooDeep { max: 255 });
            return;
        };
        set(&mut self.out.closes, last, c);
        self.level = self.level.saturating_sub(1);
    }

    /// Appends the leaf `e:s`, inside the tuples opened since the last leaf.
    pub(crate) const fn leaf(&mut self, e: usize, s: isize) {
        let i = self.out.leaves;
        if i >= L {
            self.fail(NestedError::TooManyLeaves { max: L });
            return;
        }
        let Ok(o) = super::transform::byte(self.pending) else {
            self.fail(NestedError::TooDeep { max: 255 });
            return;
        };
        set(&mut self.out.extents, i, e);
        set(&mut self.out.strides, i, s);
        set(&mut self.out.opens, i, o);
        set(&mut self.out.closes, i, 0);
        self.out.leaves = i.saturating_add(1);
        self.pending = 0;
    }

    /// Appends top-level mode `k` of `src` as one mode (a leaf, or a tuple with its nesting and
    /// its tuples' cuts).
    pub(crate) const fn mode_of(&mut self, src: &NestedLayout<L>, k: usize) {
        let Some(n) = src.mode(k) else {
            self.fail(NestedError::IndexOutOfRange { mode: k });
            return;
        };
        let s = src.span(n);
        let mut tuple = src.tuple_index(n);
        let mut j = s.first;
        while j <= s.last {
            let opens = if j == s.first {
                s.opens
            } else {
                src.opens_at(j)
            };
            let closes = if j == s.last {
                s.closes
            } else {
                src.closes_at(j)
            };
            let mut o = 0;
            while o < opens {
                self.open_cut(src.cut_of(tuple));
                tuple = tuple.saturating_add(1);
                o = o.saturating_add(1);
            }
            match (get(&src.extents, j), get(&src.strides, j)) {
                (Some(e), Some(st)) => self.leaf(e, st),
                _ => self.fail(NestedError::TooManyLeaves { max: L }),
            }
            let mut c = 0;
            while c < closes {
                self.close();
                c = c.saturating_add(1);
            }
            j = j.saturating_add(1);
        }
    }

    /// Appends `src` whole as one mode: its leaf if it is integral, else its root tuple (the
    /// empty tuple `()` is refused: the algebra never produces one).
    pub(crate) const fn whole(&mut self, src: &NestedLayout<L>) {
        let rank = src.rank();
        if src.depth() == 0 {
            self.mode_of(src, 0);
            return;
        }
        if rank == 0 {
            self.fail(NestedError::NotCongruent);
            return;
        }
        self.open();
        self.modes_of(src);
        self.close();
    }

    /// Appends each top-level mode of `src` as a mode of its own (an integral `src`: its
    /// leaf).
    pub(crate) const fn modes_of(&mut self, src: &NestedLayout<L>) {
        let rank = src.rank();
        let mut k = 0;
        while k < rank {
            self.mode_of(src, k);
            k = k.saturating_add(1);
        }
    }

    /// The layout written, with `offset` and `itemsize`, validated as every constructor
    /// validates; the first error recorded, if any.
    pub(crate) const fn finish(
        self,
        offset: isize,
        itemsize: usize,
    ) -> Result<NestedLayout<L>, NestedError> {
        if let Some(e) = self.error {
            return Err(e);
        }
        if self.level != 0 || self.pending != 0 {
            return Err(NestedError::NotCongruent);
        }
        let mut out = self.out;
        out.offset = offset;
        out.itemsize = itemsize;
        match out.validate() {
            Ok(()) => Ok(out),
            Err(e) => Err(e),
        }
    }
}

impl<const L: usize> NestedLayout<L> {
    /// Tuples opened just before leaf `i` and closed just after it: the nesting the algebra
    /// walks to keep a right operand's shape.
    pub(crate) const fn leaf_nesting(&self, i: usize) -> (usize, usize) {
        (self.opens_at(i), self.closes_at(i))
    }

    /// The cut of tuple `t` (in the order tuples open; 0: none).
    pub(crate) const fn tuple_cut(&self, t: usize) -> usize {
        self.cut_of(t)
    }

    /// The root tuple's cut (0 for none, or an integral layout), and whether a tuple inside
    /// it is cut.
    pub(crate) const fn cuts(&self) -> (usize, bool) {
        let root = match self.root() {
            Some(r) if !self.is_leaf(r) => self.cut_of(0),
            _ => 0,
        };
        let mut t = if root == 0 { 0 } else { 1 };
        while t < self.tuples {
            if self.cut_of(t) != 0 {
                return (root, true);
            }
            t = t.saturating_add(1);
        }
        (root, false)
    }

    /// Whether some tuple has a partial last block.
    pub(crate) const fn has_cut(&self) -> bool {
        let mut t = 0;
        while t < self.tuples {
            if self.cut_of(t) != 0 {
                return true;
            }
            t = t.saturating_add(1);
        }
        false
    }
}
