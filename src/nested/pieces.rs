//! A nested layout as a union of flat strided pieces (one where nothing is cut; a cut tuple
//! splits into its whole blocks and its partial last block), and the uniqueness question
//! answered over them with the exact tests behind [`Layout::is_unique`](crate::Layout::is_unique).

use super::{NestedLayout, Node};
use crate::Verdict;
use crate::algo::access::{get, set};
use crate::algo::overlap::overlaps;
use crate::algo::parts::Parts;
use crate::algo::unique::is_unique;

/// Most pieces a layout is split into for its uniqueness (three cut tuples side by side); not
/// the kernels' [`plan::MAX_PIECES`](crate::plan::MAX_PIECES), which bounds the pieces of a
/// copy between differently blocked operands.
pub(super) const MAX_FLAT_PIECES: usize = 8;

/// A flat piece: axes `(extent, stride)` over a base offset.
#[derive(Clone, Copy)]
struct Piece<const L: usize> {
    extents: [usize; L],
    strides: [isize; L],
    axes: usize,
    base: isize,
}

/// At most [`MAX_FLAT_PIECES`] pieces.
#[derive(Clone, Copy)]
struct Pieces<const L: usize> {
    list: [Piece<L>; MAX_FLAT_PIECES],
    count: usize,
}

impl<const L: usize> Piece<L> {
    const EMPTY: Self = Self {
        extents: [0; L],
        strides: [0; L],
        axes: 0,
        base: 0,
    };

    /// The piece's axes and base, as the uniqueness search reads them.
    const fn parts(&self, itemsize: usize) -> Option<Parts<'_>> {
        match (
            self.extents.split_at_checked(self.axes),
            self.strides.split_at_checked(self.axes),
        ) {
            (Some((e, _)), Some((s, _))) => match Parts::new(e, s, self.base, itemsize) {
                Ok(p) => Some(p),
                Err(_) => None,
            },
            _ => None,
        }
    }
}

impl<const L: usize> Pieces<L> {
    const NONE: Self = Self {
        list: [Piece::EMPTY; MAX_FLAT_PIECES],
        count: 0,
    };

    /// Adds `p`; `false` when full.
    const fn push(&mut self, p: Piece<L>) -> bool {
        if self.count >= MAX_FLAT_PIECES {
            return false;
        }
        set(&mut self.list, self.count, p);
        self.count = self.count.saturating_add(1);
        true
    }

    /// Every piece of `self` and of `other`; `None` past [`MAX_FLAT_PIECES`].
    const fn union(mut self, other: &Self) -> Option<Self> {
        let mut i = 0;
        while i < other.count {
            if let Some(p) = get(&other.list, i) {
                if !self.push(p) {
                    return None;
                }
            }
            i = i.saturating_add(1);
        }
        Some(self)
    }

    /// Each piece of `self` with each of `other`: axes side by side, bases added.
    #[expect(
        clippy::many_single_char_names,
        reason = "loop indices over the two lists and the axes"
    )]
    const fn product(&self, other: &Self) -> Option<Self> {
        let mut out = Self::NONE;
        let mut i = 0;
        while i < self.count {
            let Some(a) = get(&self.list, i) else {
                return None;
            };
            let mut j = 0;
            while j < other.count {
                let Some(b) = get(&other.list, j) else {
                    return None;
                };
                let mut p = a;
                let Some(base) = a.base.checked_add(b.base) else {
                    return None;
                };
                p.base = base;
                let mut k = 0;
                while k < b.axes {
                    if p.axes >= L {
                        return None;
                    }
                    if let (Some(e), Some(s)) = (get(&b.extents, k), get(&b.strides, k)) {
                        set(&mut p.extents, p.axes, e);
                        set(&mut p.strides, p.axes, s);
                    }
                    p.axes = p.axes.saturating_add(1);
                    k = k.saturating_add(1);
                }
                if !out.push(p) {
                    return None;
                }
                j = j.saturating_add(1);
            }
            i = i.saturating_add(1);
        }
        Some(out)
    }

    /// Every base moved by `by`.
    const fn shifted(mut self, by: isize) -> Option<Self> {
        let mut i = 0;
        while i < self.count {
            if let Some(mut p) = get(&self.list, i) {
                p.base = match p.base.checked_add(by) {
                    Some(b) => b,
                    None => return None,
                };
                set(&mut self.list, i, p);
            }
            i = i.saturating_add(1);
        }
        Some(self)
    }
}

impl<const L: usize> NestedLayout<L> {
    /// The pieces of coordinates `0..count` of mode `n`; `None` past [`MAX_FLAT_PIECES`] or on
    /// overflow.
    const fn pieces_in(&self, n: Node, count: usize) -> Option<Pieces<L>> {
        let mut out = Pieces::NONE;
        if count == 0 {
            return Some(out);
        }
        if self.is_leaf(n) {
            let mut p = Piece::EMPTY;
            let Some(stride) = get(&self.strides, n.leaf) else {
                return None;
            };
            set(&mut p.extents, 0, count);
            set(&mut p.strides, 0, stride);
            p.axes = 1;
            let _ = out.push(p);
            return Some(out);
        }
        self.pieces_seq(self.first_child(n), self.end(n), count)
    }

    /// [`pieces_in`](Self::pieces_in) over the sub-modes from `child` to the one ending at
    /// leaf `end`, split as [`bounds_seq`](Self::bounds_seq) splits: the first sub-mode whole
    /// under `count / s` steps of the rest, and its first `count % s` coordinates at the next.
    const fn pieces_seq(&self, child: Node, end: usize, count: usize) -> Option<Pieces<L>> {
        let Some(next) = self.next_child(child, end) else {
            return self.pieces_in(child, count);
        };
        let first = match self.size_of(child) {
            Some(0) => return Some(Pieces::NONE),
            Some(s) => s,
            None => return None,
        };
        let (Some(steps), Some(left)) = (count.checked_div(first), count.checked_rem(first)) else {
            return None;
        };
        let mut out = Pieces::NONE;
        if steps > 0 {
            let (Some(whole), Some(rest)) = (
                self.pieces_in(child, first),
                self.pieces_seq(next, end, steps),
            ) else {
                return None;
            };
            out = match whole.product(&rest) {
                Some(p) => p,
                None => return None,
            };
        }
        if left > 0 {
            let (Some(part), Some(at)) = (
                self.pieces_in(child, left),
                self.offset_seq(next, end, steps),
            ) else {
                return None;
            };
            let Some(part) = part.shifted(at) else {
                return None;
            };
            out = match out.union(&part) {
                Some(u) => u,
                None => return None,
            };
        }
        Some(out)
    }

    /// Whether no two distinct coordinates share an offset, exactly, as
    /// [`Layout::is_unique`](crate::Layout::is_unique) decides it.
    ///
    /// The layout is split into flat strided pieces (one where nothing is cut; a cut tuple
    /// adds its partial last block as a piece of its own), each decided by the exact test
    /// behind [`Layout::is_unique`](crate::Layout::is_unique) and each pair by the one behind
    /// [`Layout::overlaps`](crate::Layout::overlaps). A layout that splits into more than 8
    /// pieces (four cut tuples side by side) is not decided: `false` here, `Unknown` from
    /// [`is_unique_within`](Self::is_unique_within).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// let blocks: NestedLayout<4> = "((4,3)|10,5):((1,20),4)".parse()?;
    /// assert!(blocks.is_unique());
    /// // Blocks 4 apart with 8 lanes each: lanes 4-7 of a block are lanes 0-3 of the next.
    /// let overlapping: NestedLayout<4> = "((8,3)|20,5):((1,4),40)".parse()?;
    /// assert!(!overlapping.is_unique());
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    #[must_use]
    pub const fn is_unique(&self) -> bool {
        matches!(self.is_unique_within(u64::MAX), Verdict::Yes)
    }

    /// [`is_unique`](Self::is_unique) with at most `budget` search steps for each question
    /// (the uniqueness of each piece and the overlap of each pair), as
    /// [`Layout::is_unique_within`](crate::Layout::is_unique_within); `Unknown` when a
    /// question needs more, or the layout splits into more than 8 pieces.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Verdict, nested::NestedLayout};
    /// let l: NestedLayout<4> = "((4,3)|10,5):((1,20),4)".parse()?;
    /// assert_eq!(l.is_unique_within(1000), Verdict::Yes);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `Yes` iff `is_unique()`, `No` iff not, whenever the answer is not `Unknown`
    #[must_use]
    pub const fn is_unique_within(&self, budget: u64) -> Verdict {
        let Some(root) = self.root() else {
            return Verdict::Yes;
        };
        let size = self.size();
        if size <= 1 {
            return Verdict::Yes;
        }
        let Some(pieces) = self.pieces_in(root, size) else {
            return Verdict::Unknown;
        };
        let mut orders = [[0usize; L]; 2];
        let [oa, ob] = &mut orders;
        let mut verdict = Verdict::Yes;
        let mut i = 0;
        while i < pieces.count {
            let Some(a) = get(&pieces.list, i) else {
                return Verdict::Unknown;
            };
            let Some(pa) = a.parts(self.itemsize) else {
                return Verdict::Unknown;
            };
            let Some((oa, _)) = oa.split_at_mut_checked(a.axes) else {
                return Verdict::Unknown;
            };
            match Verdict::from_option(is_unique(pa, oa, budget)) {
                Verdict::No => return Verdict::No,
                Verdict::Unknown => verdict = Verdict::Unknown,
                Verdict::Yes => {}
            }
            let mut j = i.saturating_add(1);
            while j < pieces.count {
                let Some(b) = get(&pieces.list, j) else {
                    return Verdict::Unknown;
                };
                let Some(pb) = b.parts(self.itemsize) else {
                    return Verdict::Unknown;
                };
                let Some((ob, _)) = ob.split_at_mut_checked(b.axes) else {
                    return Verdict::Unknown;
                };
                match Verdict::from_option(overlaps(pa, pb, oa, ob, budget)) {
                    Verdict::Yes => return Verdict::No,
                    Verdict::Unknown => verdict = Verdict::Unknown,
                    Verdict::No => {}
                }
                j = j.saturating_add(1);
            }
            i = i.saturating_add(1);
        }
        verdict
    }
}
