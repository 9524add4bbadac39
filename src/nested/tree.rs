//! Walking the modes: the leaves in the order they are written, with the tuples opened
//! before and closed after each; a mode's last leaf, its sub-modes, its size, the offset of a
//! coordinate in it and the bounds of its first `n` coordinates. Each is written once, and
//! every query of [`NestedLayout`] goes through them.

use super::{NestedError, NestedLayout, Node};
use crate::LayoutError;
use crate::algo::access::get;

impl<const L: usize> NestedLayout<L> {
    /// The outermost mode; `None` for the empty tuple.
    pub(super) const fn root(&self) -> Option<Node> {
        if self.leaves == 0 {
            None
        } else {
            Some(Node { leaf: 0, open: 0 })
        }
    }

    /// Whether `n` is a leaf (every tuple opened before its leaf is outside it).
    pub(super) const fn is_leaf(&self, n: Node) -> bool {
        n.open >= self.opens_at(n.leaf)
    }

    /// The index of tuple `n` in the order the tuples open.
    pub(super) const fn tuple_index(&self, n: Node) -> usize {
        let mut t = n.open;
        let mut i = 0;
        while i < n.leaf {
            t = t.saturating_add(self.opens_at(i));
            i = i.saturating_add(1);
        }
        t
    }

    /// The tuple of index `t` (in the order the tuples open), if there is one.
    pub(super) const fn tuple_node(&self, t: usize) -> Option<Node> {
        let mut base = 0usize;
        let mut i = 0;
        while i < self.leaves {
            let o = self.opens_at(i);
            if let Some(open) = t.checked_sub(base) {
                if open < o {
                    return Some(Node { leaf: i, open });
                }
            }
            base = base.saturating_add(o);
            i = i.saturating_add(1);
        }
        None
    }

    /// The last leaf of `n`.
    pub(super) const fn end(&self, n: Node) -> usize {
        if self.is_leaf(n) {
            return n.leaf;
        }
        // The tuples open at leaf `j` counted from `n` itself: `n` ends where they all close.
        let mut level = self.opens_at(n.leaf).saturating_sub(n.open);
        let mut j = n.leaf;
        loop {
            let c = self.closes_at(j);
            if c >= level {
                return j;
            }
            level = level.saturating_sub(c);
            j = j.saturating_add(1);
            if j >= self.leaves {
                // Never on a layout built by this module (every tuple closes).
                return self.leaves.saturating_sub(1);
            }
            level = level.saturating_add(self.opens_at(j));
        }
    }

    /// The first sub-mode of tuple `n`.
    #[expect(
        clippy::unused_self,
        reason = "a step of the walk, called as the others are"
    )]
    pub(super) const fn first_child(&self, n: Node) -> Node {
        Node {
            leaf: n.leaf,
            open: n.open.saturating_add(1),
        }
    }

    /// The sub-mode after `child`, inside a tuple whose last leaf is `end`; `None` after the
    /// last.
    pub(super) const fn next_child(&self, child: Node, end: usize) -> Option<Node> {
        let last = self.end(child);
        if last >= end {
            None
        } else {
            Some(Node {
                leaf: last.saturating_add(1),
                open: 0,
            })
        }
    }

    /// How many sub-modes tuple `n` has.
    pub(super) const fn children(&self, n: Node) -> usize {
        let end = self.end(n);
        let mut child = self.first_child(n);
        let mut k = 1usize;
        while let Some(next) = self.next_child(child, end) {
            child = next;
            k = k.saturating_add(1);
        }
        k
    }

    /// The size of mode `n`: a leaf's extent, a cut tuple's cut, else the product of its
    /// sub-modes' sizes; `None` if that overflows `usize`.
    pub(super) const fn size_of(&self, n: Node) -> Option<usize> {
        if self.is_leaf(n) {
            return get(&self.extents, n.leaf);
        }
        let cut = self.cut_of(self.tuple_index(n));
        if cut != 0 {
            return Some(cut);
        }
        let end = self.end(n);
        let mut child = self.first_child(n);
        let mut product = 1usize;
        loop {
            product = match self.size_of(child) {
                Some(s) => match product.checked_mul(s) {
                    Some(p) => p,
                    None => return None,
                },
                None => return None,
            };
            match self.next_child(child, end) {
                Some(next) => child = next,
                None => return Some(product),
            }
        }
    }

    /// [`size_of`](Self::size_of), 0 on overflow (never on a constructed layout).
    pub(super) const fn size_or_0(&self, n: Node) -> usize {
        match self.size_of(n) {
            Some(s) => s,
            None => 0,
        }
    }

    /// The offset of coordinate `c` of mode `n` (without the layout's offset); `None` on
    /// overflow.
    pub(super) const fn offset_in(&self, n: Node, c: usize) -> Option<isize> {
        if self.is_leaf(n) {
            let (Some(stride), Ok(c)) = (get(&self.strides, n.leaf), isize_of(c)) else {
                return None;
            };
            return stride.checked_mul(c);
        }
        self.offset_seq(self.first_child(n), self.end(n), c)
    }

    /// The offset of coordinate `c` of the sub-modes from `child` to the one ending at leaf
    /// `end`, decomposed first sub-mode fastest (the last one takes what is left).
    pub(super) const fn offset_seq(&self, child: Node, end: usize, c: usize) -> Option<isize> {
        let mut child = child;
        let mut c = c;
        let mut acc = 0isize;
        loop {
            let Some(next) = self.next_child(child, end) else {
                return match self.offset_in(child, c) {
                    Some(o) => acc.checked_add(o),
                    None => None,
                };
            };
            let (here, rest) = match self.size_of(child) {
                Some(0) => (0, 0),
                Some(s) => match (c.checked_rem(s), c.checked_div(s)) {
                    (Some(h), Some(r)) => (h, r),
                    _ => return None,
                },
                None => return None,
            };
            acc = match self.offset_in(child, here) {
                Some(o) => match acc.checked_add(o) {
                    Some(a) => a,
                    None => return None,
                },
                None => return None,
            };
            (child, c) = (next, rest);
        }
    }

    /// The smallest and largest offset (without the layout's offset) of coordinates
    /// `0..count` of mode `n`; `None` when `count` is 0 or on overflow.
    pub(super) const fn bounds_in(&self, n: Node, count: usize) -> Option<(isize, isize)> {
        if count == 0 {
            return None;
        }
        if self.is_leaf(n) {
            let (Some(stride), Ok(last)) = (
                get(&self.strides, n.leaf),
                isize_of(count.saturating_sub(1)),
            ) else {
                return None;
            };
            return match stride.checked_mul(last) {
                Some(far) if far < 0 => Some((far, 0)),
                Some(far) => Some((0, far)),
                None => None,
            };
        }
        self.bounds_seq(self.first_child(n), self.end(n), count)
    }

    /// [`bounds_in`](Self::bounds_in) of coordinates `0..count` of the sub-modes from `child`
    /// to the one ending at leaf `end`. With `s` the first one's size, `count = q·s + r`: the
    /// first `q` steps of the rest run the first sub-mode whole, and step `q` runs its first
    /// `r` coordinates.
    const fn bounds_seq(&self, child: Node, end: usize, count: usize) -> Option<(isize, isize)> {
        let Some(next) = self.next_child(child, end) else {
            return self.bounds_in(child, count);
        };
        let first = match self.size_of(child) {
            Some(0) | None => return None,
            Some(size) => size,
        };
        let (Some(steps), Some(left)) = (count.checked_div(first), count.checked_rem(first)) else {
            return None;
        };
        let whole = if steps > 0 {
            match (
                self.bounds_in(child, first),
                self.bounds_seq(next, end, steps),
            ) {
                (Some(a), Some(b)) => match add_bounds(a, b) {
                    Some(x) => Some(x),
                    None => return None,
                },
                _ => return None,
            }
        } else {
            None
        };
        let part = if left > 0 {
            match (
                self.bounds_in(child, left),
                self.offset_seq(next, end, steps),
            ) {
                (Some(a), Some(o)) => match add_bounds(a, (o, o)) {
                    Some(x) => Some(x),
                    None => return None,
                },
                _ => return None,
            }
        } else {
            None
        };
        match (whole, part) {
            (Some((lo_w, hi_w)), Some((lo_p, hi_p))) => Some((
                if lo_w < lo_p { lo_w } else { lo_p },
                if hi_w > hi_p { hi_w } else { hi_p },
            )),
            (Some(one), None) | (None, Some(one)) => Some(one),
            (None, None) => None,
        }
    }

    /// Checks every tuple's cut: with `P` coordinates in its other sub-modes and `n` in its
    /// last, `P·(n - 1) < cut <= P·n` (only the last block is partial).
    pub(super) const fn check_cuts(&self) -> Result<(), NestedError> {
        let mut t = 0;
        while t < self.tuples {
            let cut = self.cut_of(t);
            if cut != 0 {
                let Some(n) = self.tuple_node(t) else {
                    return Err(NestedError::PartialBlock { mode: t });
                };
                let end = self.end(n);
                let mut child = self.first_child(n);
                let mut inner = 1usize;
                let last = loop {
                    let Some(s) = self.size_of(child) else {
                        return Err(NestedError::Layout(LayoutError::VolumeOverflow));
                    };
                    match self.next_child(child, end) {
                        Some(next) => {
                            inner = match inner.checked_mul(s) {
                                Some(p) => p,
                                None => {
                                    return Err(NestedError::Layout(LayoutError::VolumeOverflow));
                                }
                            };
                            child = next;
                        }
                        None => break s,
                    }
                };
                let (Some(full), Some(below)) = (
                    inner.checked_mul(last),
                    inner.checked_mul(last.saturating_sub(1)),
                ) else {
                    return Err(NestedError::Layout(LayoutError::VolumeOverflow));
                };
                if last == 0 || cut > full || cut <= below {
                    return Err(NestedError::PartialBlock { mode: t });
                }
            }
            t = t.saturating_add(1);
        }
        Ok(())
    }
}

/// `c` as an `isize`, or `Err` past `isize::MAX`.
const fn isize_of(c: usize) -> Result<isize, ()> {
    if c > isize::MAX.unsigned_abs() {
        Err(())
    } else {
        Ok(c.cast_signed())
    }
}

/// The bounds of a sum of one value from each range.
const fn add_bounds(a: (isize, isize), b: (isize, isize)) -> Option<(isize, isize)> {
    match (a.0.checked_add(b.0), a.1.checked_add(b.1)) {
        (Some(lo), Some(hi)) => Some((lo, hi)),
        _ => None,
    }
}
