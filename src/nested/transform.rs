//! Transforms of a nested layout's top-level modes, without touching data: permute, select,
//! flip, unsqueeze, flatten a mode into its leaves, and narrow a mode to whole blocks. Most
//! rebuild the layout from its modes (one copy of the leaves, their nesting and their cuts),
//! in the new order; flip and narrow change leaves in place.

#![expect(
    clippy::many_single_char_names,
    clippy::similar_names,
    reason = "index walks over modes, leaves and tuples: `n` a mode, `s` its span, `j` a leaf, `t` a tuple"
)]

use super::{NestedError, NestedLayout, Node};
use crate::LayoutError;
use crate::algo::access::{get, set};

/// A top-level mode as a run of leaves: `first..=last`, the tuples it opens at its first leaf
/// and closes at its last (its own, not the root's), and its tuples' range in opening order.
#[derive(Clone, Copy)]
pub(super) struct Span {
    pub(super) first: usize,
    pub(super) last: usize,
    pub(super) opens: usize,
    pub(super) closes: usize,
    tuple0: usize,
    tuples: usize,
}

/// What to put in the rebuilt layout at one position: a top-level mode of `self`, one leaf of
/// `self` as a mode of its own, or a new unit leaf.
#[derive(Clone, Copy)]
enum Part {
    Mode(usize),
    Leaf(usize),
    Unit,
}

impl<const L: usize> NestedLayout<L> {
    /// Top-level mode `k` (`None` past the rank; an integral layout's one mode is its leaf).
    pub(super) const fn mode(&self, k: usize) -> Option<Node> {
        let Some(root) = self.root() else {
            return None;
        };
        if self.is_leaf(root) {
            return if k == 0 { Some(root) } else { None };
        }
        let end = self.end(root);
        let mut child = self.first_child(root);
        let mut i = 0;
        while i < k {
            child = match self.next_child(child, end) {
                Some(c) => c,
                None => return None,
            };
            i = i.saturating_add(1);
        }
        Some(child)
    }

    /// The [`Span`] of top-level mode `n`.
    pub(super) const fn span(&self, n: Node) -> Span {
        let (first, last) = (n.leaf, self.end(n));
        let opens = self.opens_at(first).saturating_sub(n.open);
        // The leaf's closes beyond the mode's own tuples belong to the root (at the last leaf
        // of the layout).
        let closes = if self.is_leaf(n) {
            0
        } else {
            let mut level = opens;
            let mut j = first;
            let mut own = 0;
            while j <= last {
                if j > first {
                    level = level.saturating_add(self.opens_at(j));
                }
                let c = self.closes_at(j);
                if j == last {
                    own = level;
                }
                level = level.saturating_sub(c);
                j = j.saturating_add(1);
            }
            own
        };
        let tuple0 = self.tuple_index(Node {
            leaf: first,
            open: n.open,
        });
        let mut tuples = opens;
        let mut j = first.saturating_add(1);
        while j <= last {
            tuples = tuples.saturating_add(self.opens_at(j));
            j = j.saturating_add(1);
        }
        Span {
            first,
            last,
            opens,
            closes,
            tuple0,
            tuples,
        }
    }

    /// The layout made of `parts` in order, as a tuple with the cut `root_cut` (0: none), the
    /// offset `offset` and `self`'s itemsize; an empty list is `():()`. The one place the
    /// transforms build their result (then validated).
    const fn rebuild(
        &self,
        parts: &[Part],
        offset: isize,
        root_cut: usize,
    ) -> Result<Self, NestedError> {
        let mut out = Self::EMPTY;
        out.offset = offset;
        out.itemsize = self.itemsize;
        let count = parts.len();
        if count > 0 {
            out.tuples = 1;
            out.set_cut(0, root_cut);
        }
        let mut p = 0;
        while p < count {
            let Some(part) = get(parts, p) else {
                break;
            };
            let root_open: u8 = if p == 0 { 1 } else { 0 };
            let root_close: u8 = if p.saturating_add(1) == count { 1 } else { 0 };
            match part {
                Part::Unit | Part::Leaf(_) => {
                    let i = out.leaves;
                    if i >= L {
                        return Err(NestedError::TooManyLeaves { max: L });
                    }
                    let (e, st) = match part {
                        Part::Leaf(j) => match (get(&self.extents, j), get(&self.strides, j)) {
                            (Some(e), Some(st)) => (e, st),
                            _ => return Err(NestedError::TooManyLeaves { max: L }),
                        },
                        _ => (1, 0),
                    };
                    set(&mut out.extents, i, e);
                    set(&mut out.strides, i, st);
                    set(&mut out.opens, i, root_open);
                    set(&mut out.closes, i, root_close);
                    out.leaves = i.saturating_add(1);
                }
                Part::Mode(k) => {
                    let Some(n) = self.mode(k) else {
                        return Err(NestedError::Layout(LayoutError::AxisOutOfRange {
                            axis: k,
                            ndim: self.rank(),
                        }));
                    };
                    let s = self.span(n);
                    let mut j = s.first;
                    while j <= s.last {
                        let i = out.leaves;
                        if i >= L {
                            return Err(NestedError::TooManyLeaves { max: L });
                        }
                        let (Some(e), Some(st)) = (get(&self.extents, j), get(&self.strides, j))
                        else {
                            break;
                        };
                        set(&mut out.extents, i, e);
                        set(&mut out.strides, i, st);
                        let mut o = if j == s.first {
                            s.opens
                        } else {
                            self.opens_at(j)
                        };
                        let mut c = if j == s.last {
                            s.closes
                        } else {
                            self.closes_at(j)
                        };
                        if j == s.first {
                            o = o.saturating_add(root_open as usize);
                        }
                        if j == s.last {
                            c = c.saturating_add(root_close as usize);
                        }
                        let (Ok(o), Ok(c)) = (byte(o), byte(c)) else {
                            return Err(NestedError::TooDeep { max: 255 });
                        };
                        set(&mut out.opens, i, o);
                        set(&mut out.closes, i, c);
                        out.leaves = i.saturating_add(1);
                        j = j.saturating_add(1);
                    }
                    let mut t = 0;
                    while t < s.tuples {
                        if out.tuples >= L {
                            return Err(NestedError::TooManyModes { max: L });
                        }
                        out.set_cut(out.tuples, self.cut_of(s.tuple0.saturating_add(t)));
                        out.tuples = out.tuples.saturating_add(1);
                        t = t.saturating_add(1);
                    }
                }
            }
            p = p.saturating_add(1);
        }
        match out.validate() {
            Ok(()) => Ok(out),
            Err(e) => Err(e),
        }
    }

    /// The top-level modes in the order `axes` gives: mode `k` of the result is mode
    /// `axes[k]` of `self` (as [`Layout::permuted`](crate::Layout::permuted)).
    ///
    /// ```text
    /// ((2,2),3):((1,6),2)     permuted(&[1, 0])     (3,(2,2)):(2,(1,6))
    ///  offset_of(&[i, j])        ==                  offset_of(&[j, i])
    /// ```
    ///
    /// # Errors
    ///
    /// - [`NestedError::RankMismatch`] if `axes.len() != rank()`;
    /// - [`NestedError::Layout`] with [`LayoutError::NotAPermutation`] if `axes` repeats a
    ///   mode or names one past the rank;
    /// - [`NestedError::CutMode`] (the first mode that moves) if the layout itself is cut.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<3> = "((2,2),3):((1,6),2)".parse()?;
    /// let p = l.permuted(&[1, 0])?;
    /// assert_eq!(p.to_string(), "(3,(2,2)):(2,(1,6))");
    /// assert_eq!(p.offset_of(&[2, 3])?, l.offset_of(&[3, 2])?);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    pub const fn permuted(&self, axes: &[usize]) -> Result<Self, NestedError> {
        let rank = self.rank();
        if axes.len() != rank {
            return Err(NestedError::RankMismatch {
                expected: rank,
                found: axes.len(),
            });
        }
        let mut seen = 0u64;
        let mut k = 0;
        while k < rank {
            let a = match get(axes, k) {
                Some(a) => a,
                None => 0,
            };
            if a >= rank || a >= 64 || seen & (1u64 << a) != 0 {
                return Err(NestedError::Layout(LayoutError::NotAPermutation));
            }
            seen |= 1u64 << a;
            k = k.saturating_add(1);
        }
        if let Some(root) = self.root() {
            if self.is_leaf(root) {
                // An integral layout: its one mode in place.
                return Ok(*self);
            }
        }
        let mut parts = [Part::Unit; 64];
        let mut k = 0;
        while k < rank {
            if let Some(a) = get(axes, k) {
                // A cut layout's coordinates are the first `cut` in its modes' order: moving
                // a mode would change which they are.
                if a != k && self.root_cut() != 0 {
                    return Err(NestedError::CutMode { mode: k });
                }
                set(&mut parts, k, Part::Mode(a));
            }
            k = k.saturating_add(1);
        }
        match parts.split_at_checked(rank) {
            Some((used, _)) => self.rebuild(used, self.offset, self.root_cut()),
            None => Err(NestedError::Layout(LayoutError::NotAPermutation)),
        }
    }

    /// The layout of the coordinates whose mode `mode` is `index`: that mode removed, its
    /// offset added to the layout's (as [`Layout::selected`](crate::Layout::selected)).
    ///
    /// ```text
    /// ((4,3)|10,5):((1,20),4)     selected(0, 9)     (5):(4) +41
    /// ```
    ///
    /// # Errors
    ///
    /// - [`NestedError::Layout`] with [`LayoutError::AxisOutOfRange`] if `mode >= rank()`;
    /// - [`NestedError::IndexOutOfRange`] if `index` is not below the mode's size;
    /// - [`NestedError::CutMode`] if the layout itself is cut.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<3> = "((4,3)|10,5):((1,20),4)".parse()?;
    /// let s = l.selected(0, 9)?;
    /// assert_eq!(s.to_string(), "(5):(4) +41");
    /// assert_eq!(s.offset_of(&[3])?, l.offset_of(&[9, 3])?);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    pub const fn selected(&self, mode: usize, index: usize) -> Result<Self, NestedError> {
        let rank = self.rank();
        let Some(n) = self.mode(mode) else {
            return Err(NestedError::Layout(LayoutError::AxisOutOfRange {
                axis: mode,
                ndim: rank,
            }));
        };
        if index >= self.size_or_0(n) {
            return Err(NestedError::IndexOutOfRange { mode });
        }
        // A cut layout's coordinates with one mode fixed are no product of the others.
        if self.root_cut() != 0 {
            return Err(NestedError::CutMode { mode });
        }
        let Some(at) = self.offset_in(n, index) else {
            return Err(NestedError::Layout(LayoutError::OffsetOverflow));
        };
        let Some(offset) = self.offset.checked_add(at) else {
            return Err(NestedError::Layout(LayoutError::OffsetOverflow));
        };
        let mut parts = [Part::Unit; 64];
        let (mut k, mut p) = (0, 0);
        while k < rank && p < 64 {
            if k != mode {
                set(&mut parts, p, Part::Mode(k));
                p = p.saturating_add(1);
            }
            k = k.saturating_add(1);
        }
        match parts.split_at_checked(p) {
            Some((used, _)) => self.rebuild(used, offset, 0),
            None => Err(NestedError::TooManyModes { max: L }),
        }
    }

    /// The layout with mode `mode`'s coordinates reversed: coordinate `c` of that mode is
    /// coordinate `size - 1 - c` of `self`'s (as [`Layout::flipped`](crate::Layout::flipped)).
    /// A leaf's stride is negated; a tuple with no cut has every leaf flipped.
    ///
    /// ```text
    /// (3,(2,2)):(1,(3,6))     flipped(1)     (3,(2,2)):(1,(-3,-6)) +9
    /// ```
    ///
    /// # Errors
    ///
    /// - [`NestedError::Layout`] with [`LayoutError::AxisOutOfRange`] if `mode >= rank()`;
    /// - [`NestedError::CutMode`] if the mode holds a cut tuple (its reversed coordinates are
    ///   no nested layout: the partial block would come first), or the layout itself is cut.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<3> = "(3,(2,2)):(1,(3,6))".parse()?;
    /// let f = l.flipped(1)?;
    /// assert_eq!(f.to_string(), "(3,(2,2)):(1,(-3,-6)) +9");
    /// assert_eq!(f.offset_of(&[2, 0])?, l.offset_of(&[2, 3])?);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    pub const fn flipped(&self, mode: usize) -> Result<Self, NestedError> {
        let Some(n) = self.mode(mode) else {
            return Err(NestedError::Layout(LayoutError::AxisOutOfRange {
                axis: mode,
                ndim: self.rank(),
            }));
        };
        let s = self.span(n);
        // A cut mode's reversed coordinates would put its partial block first; a cut layout's
        // would be other coordinates.
        if self.any_cut(s) || self.root_cut() != 0 {
            return Err(NestedError::CutMode { mode });
        }
        let mut out = *self;
        let mut j = s.first;
        while j <= s.last {
            let (Some(e), Some(st)) = (get(&self.extents, j), get(&self.strides, j)) else {
                break;
            };
            if e > 0 {
                // `(e - 1)·stride` is a step of the validated layout: it fits `isize`.
                let Some(far) = step(e, st) else {
                    return Err(NestedError::Layout(LayoutError::OffsetOverflow));
                };
                out.offset = match out.offset.checked_add(far) {
                    Some(o) => o,
                    None => return Err(NestedError::Layout(LayoutError::OffsetOverflow)),
                };
            }
            set(&mut out.strides, j, st.wrapping_neg());
            j = j.saturating_add(1);
        }
        match out.validate() {
            Ok(()) => Ok(out),
            Err(e) => Err(e),
        }
    }

    /// The layout with a new mode of one coordinate, `(1):(0)`, at position `at` (modes from
    /// `at` on move one up; as [`Layout::unsqueezed`](crate::Layout::unsqueezed)).
    ///
    /// ```text
    /// ((4,3),5):((1,4),12)     unsqueezed(1)     ((4,3),1,5):((1,4),0,12)
    /// ```
    ///
    /// # Errors
    ///
    /// - [`NestedError::Layout`] with [`LayoutError::AxisOutOfRange`] if `at > rank()`;
    /// - [`NestedError::TooManyLeaves`] / [`NestedError::TooManyModes`] past `L`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<4> = "((4,3),5):((1,4),12)".parse()?;
    /// let u = l.unsqueezed(1)?;
    /// assert_eq!(u.to_string(), "((4,3),1,5):((1,4),0,12)");
    /// assert_eq!(u.offset_of(&[7, 0, 2])?, l.offset_of(&[7, 2])?);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    pub const fn unsqueezed(&self, at: usize) -> Result<Self, NestedError> {
        let rank = self.rank();
        if at > rank {
            return Err(NestedError::Layout(LayoutError::AxisOutOfRange {
                axis: at,
                ndim: rank.saturating_add(1),
            }));
        }
        let mut parts = [Part::Unit; 64];
        let (mut k, mut p) = (0usize, 0usize);
        while k < rank && p < 63 {
            if k == at {
                p = p.saturating_add(1);
            }
            set(&mut parts, p, Part::Mode(k));
            p = p.saturating_add(1);
            k = k.saturating_add(1);
        }
        if at == rank {
            p = p.saturating_add(1);
        }
        // A mode of one coordinate keeps every 1-D coordinate: a cut stays.
        match parts.split_at_checked(p) {
            Some((used, _)) => self.rebuild(used, self.offset, self.root_cut()),
            None => Err(NestedError::TooManyModes { max: L }),
        }
    }

    /// The layout with mode `mode` replaced by its leaves, each a top-level mode, in the order
    /// they are written (the first fastest, so the mode's coordinate `c` is the leaves'
    /// coordinates `(c % e0, c / e0 % e1, ...)`).
    ///
    /// ```text
    /// ((4,(2,3)),5):((1,(4,8)),24)     flattened_mode(0)     (4,2,3,5):(1,4,8,24)
    /// ```
    ///
    /// # Errors
    ///
    /// - [`NestedError::Layout`] with [`LayoutError::AxisOutOfRange`] if `mode >= rank()`;
    /// - [`NestedError::CutMode`] if the mode holds a cut tuple (its coordinates are not every
    ///   combination of its leaves'). A cut of the layout itself stays, as for
    ///   [`unsqueezed`](Self::unsqueezed): the 1-D coordinates do not change.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<4> = "((4,(2,3)),5):((1,(4,8)),24)".parse()?;
    /// let f = l.flattened_mode(0)?;
    /// assert_eq!(f.to_string(), "(4,2,3,5):(1,4,8,24)");
    /// assert_eq!(f.offset_of(&[3, 1, 2, 4])?, l.offset_of(&[3 + 4 * (1 + 2 * 2), 4])?);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    pub const fn flattened_mode(&self, mode: usize) -> Result<Self, NestedError> {
        let rank = self.rank();
        let Some(n) = self.mode(mode) else {
            return Err(NestedError::Layout(LayoutError::AxisOutOfRange {
                axis: mode,
                ndim: rank,
            }));
        };
        let s = self.span(n);
        if self.any_cut(s) {
            return Err(NestedError::CutMode { mode });
        }
        // The other modes as they are, the mode's leaves each a mode; the 1-D coordinates stay
        // (first leaf fastest), so a cut of the layout stays.
        let mut parts = [Part::Unit; 64];
        let (mut k, mut p) = (0, 0);
        while k < rank {
            if k == mode {
                let mut j = s.first;
                while j <= s.last {
                    if p >= 64 {
                        return Err(NestedError::TooManyModes { max: L });
                    }
                    set(&mut parts, p, Part::Leaf(j));
                    p = p.saturating_add(1);
                    j = j.saturating_add(1);
                }
            } else {
                if p >= 64 {
                    return Err(NestedError::TooManyModes { max: L });
                }
                set(&mut parts, p, Part::Mode(k));
                p = p.saturating_add(1);
            }
            k = k.saturating_add(1);
        }
        match parts.split_at_checked(p) {
            Some((used, _)) => self.rebuild(used, self.offset, self.root_cut()),
            None => Err(NestedError::TooManyModes { max: L }),
        }
    }

    /// The layout with mode `mode` narrowed to its whole blocks `start..start + len`: the
    /// coordinates `start·P ..` of the mode, where a block is `P` consecutive coordinates, the
    /// product of every leaf of the mode but its last, and the mode's last leaf counts the
    /// blocks (a leaf mode's blocks are its elements, `P = 1`, as
    /// [`Layout::narrowed`](crate::Layout::narrowed)). The last leaf's extent becomes `len` and
    /// the offset moves by `start` of its strides. A partial last block stays partial when the
    /// range keeps it, and goes when it does not.
    ///
    /// ```text
    /// ((4,3),5):((1,4),12)         narrowed_blocks(0, 1, 2)     ((4,2),5):((1,4),12) +4
    /// ((4,3)|10,5):((1,4),12)      narrowed_blocks(0, 1, 2)     ((4,2)|6,5):((1,4),12) +4
    /// ```
    ///
    /// # Errors
    ///
    /// - [`NestedError::Layout`] with [`LayoutError::AxisOutOfRange`] if `mode >= rank()`;
    /// - [`NestedError::Layout`] with [`LayoutError::RangeOutOfBounds`] if `start + len`
    ///   exceeds the mode's blocks (or overflows);
    /// - [`NestedError::CutMode`] if a tuple inside the mode is cut (its blocks would not be
    ///   alike), the mode is cut and its last sub-mode is a tuple, or the layout itself is cut
    ///   (its coordinates would be others);
    /// - [`NestedError::Layout`] with [`LayoutError::OffsetOverflow`] if the new offset
    ///   overflows (possible only when the result has no coordinate).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// // Channels in blocks of 4, 10 of them (3 blocks, the last partial), then 5 pixels.
    /// let l: NestedLayout<3> = "((4,3)|10,5):((1,4),12)".parse()?;
    /// let n = l.narrowed_blocks(0, 1, 2)?;
    /// assert_eq!(n.to_string(), "((4,2)|6,5):((1,4),12) +4");
    /// assert_eq!(n.offset_of(&[5, 3])?, l.offset_of(&[4 + 5, 3])?);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    pub const fn narrowed_blocks(
        &self,
        mode: usize,
        start: usize,
        len: usize,
    ) -> Result<Self, NestedError> {
        let Some(n) = self.mode(mode) else {
            return Err(NestedError::Layout(LayoutError::AxisOutOfRange {
                axis: mode,
                ndim: self.rank(),
            }));
        };
        if self.root_cut() != 0 {
            return Err(NestedError::CutMode { mode });
        }
        let s = self.span(n);
        // The mode's own tuple may be cut when its last leaf is its last sub-mode (depth 1 in
        // the mode: `s.closes` counts the mode's tuples closing after it); no other tuple.
        let own = if s.tuples == 0 {
            0
        } else {
            self.cut_of(s.tuple0)
        };
        let mut t = 1;
        while t < s.tuples {
            if self.cut_of(s.tuple0.saturating_add(t)) != 0 {
                return Err(NestedError::CutMode { mode });
            }
            t = t.saturating_add(1);
        }
        if own != 0 && s.closes != 1 {
            return Err(NestedError::CutMode { mode });
        }
        let (Some(blocks), Some(stride)) = (get(&self.extents, s.last), get(&self.strides, s.last))
        else {
            return Err(NestedError::Layout(LayoutError::AxisOutOfRange {
                axis: mode,
                ndim: self.rank(),
            }));
        };
        let end = match start.checked_add(len) {
            Some(end) if end <= blocks => end,
            _ => {
                return Err(NestedError::Layout(LayoutError::RangeOutOfBounds {
                    axis: mode,
                }));
            }
        };
        // `P`: the leaves before the last. No tuple inside is cut, so the mode's coordinates
        // are every combination of its leaves' (the last partial where the mode is cut); the
        // product fits, as the validated layout's size does, unless the last leaf is 0.
        let mut block = 1usize;
        let mut j = s.first;
        while j < s.last {
            let e = match get(&self.extents, j) {
                Some(e) => e,
                None => 0,
            };
            block = block.saturating_mul(e);
            j = j.saturating_add(1);
        }
        let mut out = *self;
        set(&mut out.extents, s.last, len);
        if own != 0 {
            // The partial block stays only where the range keeps it: `own - start·P` of the
            // mode's coordinates, within `P·(len - 1) < kept <= P·len` as the cut was within
            // its last block (and no cut at all where it equals `P·len`).
            let cut = if end == blocks && len > 0 {
                let kept = own.saturating_sub(start.saturating_mul(block));
                if kept == len.saturating_mul(block) {
                    0
                } else {
                    kept
                }
            } else {
                0
            };
            out.set_cut(s.tuple0, cut);
        }
        if start > 0 && stride != 0 {
            // `start < blocks`, and a moving leaf's extent times its stride fits `isize`, so
            // `start` does too; checked all the same.
            if start > isize::MAX.unsigned_abs() {
                return Err(NestedError::Layout(LayoutError::OffsetOverflow));
            }
            let Some(far) = stride.checked_mul(start.cast_signed()) else {
                return Err(NestedError::Layout(LayoutError::OffsetOverflow));
            };
            out.offset = match out.offset.checked_add(far) {
                Some(o) => o,
                None => return Err(NestedError::Layout(LayoutError::OffsetOverflow)),
            };
        }
        match out.validate() {
            Ok(()) => Ok(out),
            Err(e) => Err(e),
        }
    }

    /// The cut of the layout itself (its root tuple), 0 where it has none.
    const fn root_cut(&self) -> usize {
        match self.root() {
            Some(root) if !self.is_leaf(root) => self.cut_of(0),
            _ => 0,
        }
    }

    /// Whether a tuple of span `s` is cut.
    const fn any_cut(&self, s: Span) -> bool {
        let mut t = 0;
        while t < s.tuples {
            if self.cut_of(s.tuple0.saturating_add(t)) != 0 {
                return true;
            }
            t = t.saturating_add(1);
        }
        false
    }
}

/// `n` as a byte, for the per-leaf counts.
pub(super) const fn byte(n: usize) -> Result<u8, ()> {
    if n > 255 {
        Err(())
    } else {
        #[expect(clippy::cast_possible_truncation, reason = "checked: n <= 255")]
        Ok(n as u8)
    }
}

/// `(extent - 1)·stride`, the far step of a leaf of `extent >= 1`.
const fn step(extent: usize, stride: isize) -> Option<isize> {
    let last = extent.saturating_sub(1);
    if last > isize::MAX.unsigned_abs() {
        return None;
    }
    stride.checked_mul(last.cast_signed())
}
