//! The flat lists of modes the algebra computes with, and the steps CuTe writes once each:
//! coalescing, composing with one leaf, the complement's sort and fold, the inverses.
//! Every step is `const` and checked; the public functions (`super`) give them their
//! operands and build the nested results.

#![expect(
    clippy::many_single_char_names,
    reason = "mode walks in CuTe's own names: `e` an extent, `s` a stride, `i`, `k` indices, `f` a filtered list"
)]

use super::AlgebraError;
use crate::algo::access::{get, set};
use crate::algo::checked::tri;
use crate::nested::{Builder, NestedError, NestedLayout};

/// At most `L` modes `(extent):(stride)`, in order.
#[derive(Clone, Copy)]
pub(super) struct Flat<const L: usize> {
    e: [usize; L],
    s: [isize; L],
    n: usize,
}

/// Room for the modes of a layout of capacity `L` is exceeded.
const fn full<const L: usize>() -> AlgebraError {
    AlgebraError::Nested(NestedError::TooManyLeaves { max: L })
}

/// An overflow of `isize` in a stride or size the algebra computes.
const OVERFLOW: AlgebraError =
    AlgebraError::Nested(NestedError::Layout(crate::LayoutError::OffsetOverflow));

/// `e` as an `isize`, or the overflow.
const fn signed(e: usize) -> Result<isize, AlgebraError> {
    if e > isize::MAX.unsigned_abs() {
        Err(OVERFLOW)
    } else {
        Ok(e.cast_signed())
    }
}

/// `a * b`, or the overflow.
const fn mul(a: isize, b: isize) -> Result<isize, AlgebraError> {
    match a.checked_mul(b) {
        Some(p) => Ok(p),
        None => Err(OVERFLOW),
    }
}

/// `a * b` for sizes, or the overflow.
const fn mul_u(a: usize, b: usize) -> Result<usize, AlgebraError> {
    match a.checked_mul(b) {
        Some(p) => Ok(p),
        None => Err(OVERFLOW),
    }
}

/// `⌈a / b⌉` for `b > 0` (0 for `b == 0`, never asked for).
const fn ceil_div(a: usize, b: usize) -> usize {
    match (a.checked_div(b), a.checked_rem(b)) {
        (Some(q), Some(0)) => q,
        (Some(q), Some(_)) => q.saturating_add(1),
        _ => 0,
    }
}

impl<const L: usize> Flat<L> {
    /// No modes.
    pub(super) const EMPTY: Self = Self {
        e: [0; L],
        s: [0; L],
        n: 0,
    };

    /// How many modes.
    pub(super) const fn len(&self) -> usize {
        self.n
    }

    /// Mode `i` (`(0, 0)` past the end).
    pub(super) const fn at(&self, i: usize) -> (usize, isize) {
        match (get(&self.e, i), get(&self.s, i)) {
            (Some(e), Some(s)) if i < self.n => (e, s),
            _ => (0, 0),
        }
    }

    /// Appends `e:s` as a mode of its own.
    pub(super) const fn push(&mut self, e: usize, s: isize) -> Result<(), AlgebraError> {
        if self.n >= L {
            return Err(full::<L>());
        }
        set(&mut self.e, self.n, e);
        set(&mut self.s, self.n, s);
        self.n = self.n.saturating_add(1);
        Ok(())
    }

    /// Appends `e:s` as CuTe's `coalesce` takes the next mode: an extent 1 is dropped, a mode
    /// whose stride is the last mode's extent times its stride merges into it, any other is
    /// appended.
    pub(super) const fn push_coalesced(&mut self, e: usize, s: isize) -> Result<(), AlgebraError> {
        if e == 1 {
            return Ok(());
        }
        if let Some(last) = self.n.checked_sub(1) {
            let (le, ls) = self.at(last);
            let span = tri!(mul(tri!(signed(le)), ls));
            if span == s {
                set(&mut self.e, last, tri!(mul_u(le, e)));
                return Ok(());
            }
        }
        self.push(e, s)
    }

    /// The modes coalesced, as CuTe's `coalesce`; `1:0` when nothing is left.
    pub(super) const fn coalesced(&self) -> Result<Self, AlgebraError> {
        let mut out = Self::EMPTY;
        let mut i = 0;
        while i < self.n {
            let (e, s) = self.at(i);
            tri!(out.push_coalesced(e, s));
            i = i.saturating_add(1);
        }
        if out.n == 0 {
            tri!(out.push(1, 0));
        }
        Ok(out)
    }

    /// The leaves of `a`, in order.
    pub(super) const fn leaves(a: &NestedLayout<L>) -> Result<Self, AlgebraError> {
        let mut out = Self::EMPTY;
        let (e, s) = (a.leaf_extents(), a.leaf_strides());
        let mut i = 0;
        while i < e.len() {
            if let (Some(e), Some(s)) = (get(e, i), get(s, i)) {
                tri!(out.push(e, s));
            }
            i = i.saturating_add(1);
        }
        Ok(out)
    }

    /// `a` coalesced as CuTe's composition flattens its left operand (`coalesce_x`): as
    /// `coalesce`, except that a last leaf of extent 1 stands as extent 2, so that its stride,
    /// the one coordinates past the domain step by, survives.
    pub(super) const fn coalesced_keeping_last(a: &NestedLayout<L>) -> Result<Self, AlgebraError> {
        let leaves = tri!(Self::leaves(a));
        let mut out = Self::EMPTY;
        let Some(last) = leaves.n.checked_sub(1) else {
            tri!(out.push(1, 0));
            return Ok(out);
        };
        let mut i = 0;
        while i < last {
            let (e, s) = leaves.at(i);
            tri!(out.push_coalesced(e, s));
            i = i.saturating_add(1);
        }
        let (e, s) = leaves.at(last);
        tri!(out.push_coalesced(if e == 1 { 2 } else { e }, s));
        Ok(out)
    }

    /// Writes the modes as one mode of `b`: a leaf when there is one, else a tuple.
    pub(super) const fn emit(&self, b: &mut Builder<L>) {
        if self.n == 1 {
            let (e, s) = self.at(0);
            b.leaf(e, s);
            return;
        }
        b.open();
        let mut i = 0;
        while i < self.n {
            let (e, s) = self.at(i);
            b.leaf(e, s);
            i = i.saturating_add(1);
        }
        b.close();
    }

    /// Writes the modes cut to their first `cut` coordinates (0: all) as one mode of `b`: the
    /// last mode shortened to the blocks the cut reaches (`⌈cut / P⌉`, `P` the other modes'
    /// coordinates), and the tuple cut where its last block is partial; a leaf is shortened to
    /// `cut` itself.
    pub(super) const fn emit_cut(&self, b: &mut Builder<L>, cut: usize) {
        let Some(last) = self.n.checked_sub(1) else {
            return;
        };
        if cut == 0 {
            self.emit(b);
            return;
        }
        let mut inner = 1usize;
        let mut i = 0;
        while i < last {
            inner = inner.saturating_mul(self.at(i).0);
            i = i.saturating_add(1);
        }
        let blocks = ceil_div(cut, inner);
        let exact = blocks.saturating_mul(inner) == cut;
        if last == 0 {
            b.leaf(cut, self.at(0).1);
            return;
        }
        if exact {
            b.open();
        } else {
            b.open_cut(cut);
        }
        let mut i = 0;
        while i <= last {
            let (e, s) = self.at(i);
            b.leaf(if i == last { blocks } else { e }, s);
            i = i.saturating_add(1);
        }
        b.close();
    }

    /// CuTe's composition of the flattened left operand `self` (from
    /// [`coalesced_keeping_last`](Self::coalesced_keeping_last)) with the one leaf `rs:rd` of
    /// the right operand, leaf `leaf` (named in errors): the leaf's coordinates walked through
    /// `self`'s modes, each mode taking the part of the leaf its size allows, the last mode
    /// the rest.
    pub(super) const fn compose_leaf(
        &self,
        rs: usize,
        rd: isize,
        leaf: usize,
    ) -> Result<Self, AlgebraError> {
        let mut out = Self::EMPTY;
        if rd == 0 {
            tri!(out.push(rs, 0));
            return Ok(out);
        }
        let Some(last) = self.n.checked_sub(1) else {
            tri!(out.push(rs, rd));
            return Ok(out);
        };
        let last_stride = self.at(last).1;
        if last == 0 {
            tri!(out.push(rs, tri!(mul(rd, last_stride))));
            return Ok(out);
        }
        let (mut rest_shape, mut rest_stride) = (rs, rd);
        let mut i = 0;
        while i < last {
            let (cs, cd) = self.at(i);
            let cs_signed = tri!(signed(cs));
            // The stride divisibility condition, as CuTe checks it.
            let divides = match rest_stride.checked_rem(cs_signed) {
                Some(r) => r == 0,
                None => false,
            };
            if !(divides || rest_stride < cs_signed) {
                return Err(AlgebraError::StrideDivisibility { leaf });
            }
            let abs = rest_stride.unsigned_abs();
            let next_shape = ceil_div(cs, abs);
            let next_stride = tri!(mul(tri!(signed(ceil_div(abs, cs))), rest_stride.signum()));
            if next_shape != 1 && rest_shape != 1 {
                let new_shape = if next_shape < rest_shape {
                    next_shape
                } else {
                    rest_shape
                };
                // The shape divisibility condition.
                match rest_shape.checked_rem(new_shape) {
                    Some(0) => {}
                    _ => return Err(AlgebraError::ShapeDivisibility { leaf }),
                }
                tri!(out.push(new_shape, tri!(mul(rest_stride, cd))));
                rest_shape = match rest_shape.checked_div(new_shape) {
                    Some(q) => q,
                    None => 0,
                };
            }
            rest_stride = next_stride;
            i = i.saturating_add(1);
        }
        if out.n == 0 || rest_shape != 1 {
            tri!(out.push(rest_shape, tri!(mul(rest_stride, last_stride))));
        }
        Ok(out)
    }

    /// CuTe's complement of the modes `self` (a layout's leaves) in a codomain of
    /// `cotarget` (the extents of a shape, multiplied out as CuTe's `ceil_div` of a shape by
    /// the complement's last stride does): the modes with stride 0 or extent 1 dropped, the
    /// rest taken by increasing stride, each gap between one mode's span and the next stride
    /// a mode of the result, then the rest of the codomain; coalesced.
    pub(super) const fn complement(&self, cotarget: &[usize]) -> Result<Self, AlgebraError> {
        // CuTe's `filter`: stride-0 modes become extent 1, then coalesce.
        let mut f = Self::EMPTY;
        let mut i = 0;
        while i < self.n {
            let (e, s) = self.at(i);
            if s < 0 {
                return Err(AlgebraError::NegativeStride);
            }
            tri!(f.push_coalesced(if s == 0 { 1 } else { e }, s));
            i = i.saturating_add(1);
        }
        let mut out = Self::EMPTY;
        if f.n == 0 {
            // The layout is one offset: its complement is the whole codomain.
            let mut n = 1usize;
            let mut k = 0;
            while k < cotarget.len() {
                if let Some(c) = get(cotarget, k) {
                    n = tri!(mul_u(n, c));
                }
                k = k.saturating_add(1);
            }
            tri!(out.push_coalesced(n, 1));
            if out.n == 0 {
                tri!(out.push(1, 0));
            }
            return Ok(out);
        }
        // Take the modes by increasing stride (the first of equal strides first).
        let mut bound: isize = 1;
        let mut left = f;
        while left.n > 0 {
            let mut min = 0;
            let mut k = 1;
            while k < left.n {
                if left.at(k).1 < left.at(min).1 {
                    min = k;
                }
                k = k.saturating_add(1);
            }
            let (e, s) = left.at(min);
            let gap = match s.checked_div(bound) {
                Some(g) => g,
                None => 0,
            };
            if gap == 0 {
                return Err(AlgebraError::NotInjective);
            }
            tri!(out.push_coalesced(gap.unsigned_abs(), bound));
            bound = tri!(mul(s, tri!(signed(e))));
            left.remove(min);
        }
        // The rest of the codomain, from `bound` on, in CuTe's `ceil_div` of the cotarget.
        let mut rest = 1usize;
        let mut d = bound.unsigned_abs();
        let mut k = 0;
        while k < cotarget.len() {
            if let Some(c) = get(cotarget, k) {
                rest = tri!(mul_u(rest, ceil_div(c, d)));
                d = ceil_div(d, c);
            }
            k = k.saturating_add(1);
        }
        tri!(out.push_coalesced(rest, bound));
        if out.n == 0 {
            tri!(out.push(1, 0));
        }
        Ok(out)
    }

    /// Removes mode `i`, keeping the order of the rest.
    const fn remove(&mut self, i: usize) {
        let mut k = i;
        while k.saturating_add(1) < self.n {
            let (e, s) = self.at(k.saturating_add(1));
            set(&mut self.e, k, e);
            set(&mut self.s, k, s);
            k = k.saturating_add(1);
        }
        self.n = self.n.saturating_sub(1);
    }

    /// The indices of the modes by increasing stride, in the order CuTe's inverses fold in: its
    /// exchange sort (for each position, every later mode with a smaller stride swapped in),
    /// which does not keep equal strides in order.
    const fn by_stride(&self) -> [usize; L] {
        let mut order = [0usize; L];
        let mut i = 0;
        while i < self.n {
            set(&mut order, i, i);
            i = i.saturating_add(1);
        }
        let mut i = 0;
        while i < self.n {
            let mut j = i.saturating_add(1);
            while j < self.n {
                if let (Some(a), Some(b)) = (get(&order, i), get(&order, j)) {
                    if self.at(b).1 < self.at(a).1 {
                        set(&mut order, i, b);
                        set(&mut order, j, a);
                    }
                }
                j = j.saturating_add(1);
            }
            i = i.saturating_add(1);
        }
        order
    }

    /// The exclusive prefix products of the extents: the coordinate stride of each mode.
    const fn prefix(&self) -> Result<[usize; L], AlgebraError> {
        let mut p = [0usize; L];
        let mut acc = 1usize;
        let mut i = 0;
        while i < self.n {
            set(&mut p, i, acc);
            acc = tri!(mul_u(acc, self.at(i).0));
            i = i.saturating_add(1);
        }
        Ok(p)
    }

    /// CuTe's right inverse of the coalesced modes `self`: by increasing stride, each mode
    /// whose stride is the span of those taken before it maps back to its coordinates.
    pub(super) const fn right_inverse(&self) -> Result<Self, AlgebraError> {
        let order = self.by_stride();
        let pre = tri!(self.prefix());
        let mut out = Self::EMPTY;
        let mut curr: isize = 1;
        let mut k = 0;
        while k < self.n {
            let i = match get(&order, k) {
                Some(i) => i,
                None => 0,
            };
            let (e, s) = self.at(i);
            if s == curr {
                let p = match get(&pre, i) {
                    Some(p) => p,
                    None => 0,
                };
                tri!(out.push_coalesced(e, tri!(signed(p))));
                curr = tri!(mul(tri!(signed(e)), s));
            }
            k = k.saturating_add(1);
        }
        if out.n == 0 {
            tri!(out.push(1, 0));
        }
        Ok(out)
    }

    /// CuTe's left inverse of the coalesced modes `self`: by increasing stride (stride 0
    /// skipped), each stride divided by the coordinates taken before it is a mode of the
    /// result with the coordinate stride of the mode before it; the last mode's extent is the
    /// extent of the mode with the largest stride.
    pub(super) const fn left_inverse(&self) -> Result<Self, AlgebraError> {
        let order = self.by_stride();
        let pre = tri!(self.prefix());
        let mut out = Self::EMPTY;
        // The result's strides run one mode behind its extents: stride 0 first.
        let mut stride: isize = 0;
        let mut taken = 1usize;
        let mut k = 0;
        let mut last = 0;
        while k < self.n {
            let i = match get(&order, k) {
                Some(i) => i,
                None => 0,
            };
            last = i;
            let s = self.at(i).1;
            if s != 0 {
                let t = tri!(signed(taken));
                let e = match (s.checked_rem(t), s.checked_div(t)) {
                    (Some(0), Some(q)) if q > 0 => q.unsigned_abs(),
                    _ => return Err(AlgebraError::LeftInverseDivisibility),
                };
                tri!(out.push_coalesced(e, stride));
                taken = tri!(mul_u(taken, e));
                stride = match get(&pre, i) {
                    Some(p) => tri!(signed(p)),
                    None => 0,
                };
            }
            k = k.saturating_add(1);
        }
        tri!(out.push_coalesced(self.at(last).0, stride));
        if out.n == 0 {
            tri!(out.push(1, 0));
        }
        Ok(out)
    }
}
