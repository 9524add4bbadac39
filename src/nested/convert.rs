//! Conversions: a [`Layout<N>`] is a tuple of `N` leaves; an [`InterleavedLayout<N>`] the same
//! with its blocked axis a tuple `(factor, blocks)` cut to the axis's extent; back to a
//! [`Layout<N>`] where every mode is a leaf.

use super::{NestedError, NestedLayout};
use crate::algo::access::{get, set};
use crate::plan::{Blocks, Level, Lowered};
use crate::{InterleaveLayout, InterleavedLayout, Layout};

impl<const L: usize> NestedLayout<L> {
    /// The layout `(e0,e1,..):(s0,s1,..)` with `layout`'s offset and itemsize: a tuple of `N`
    /// leaves (rank `N`, depth 1; rank 0 is `():()`), so
    /// [`offset_of`](Self::offset_of)`(&i)` is `layout.offset_of(i)` for every index.
    ///
    /// # Errors
    ///
    /// - [`NestedError::TooManyLeaves`] if `N > L`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, Order, nested::NestedLayout};
    /// let chw = Layout::dense([3, 4, 5], 4, Order::C)?.with_offset(2)?;
    /// let n = NestedLayout::<3>::from_layout(&chw)?;
    /// assert_eq!(n.to_string(), "(3,4,5):(20,5,1) +2 x4B");
    /// assert_eq!(n.offset_of(&[1, 2, 3])?, chw.offset_of([1, 2, 3])?);
    /// assert_eq!(n.to_layout::<3>()?, chw);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn from_layout<const N: usize>(layout: &Layout<N>) -> Result<Self, NestedError> {
        let mut out = Self::EMPTY;
        out.offset = layout.offset();
        out.itemsize = layout.itemsize();
        if N == 0 {
            return Ok(out);
        }
        if N > L {
            return Err(NestedError::TooManyLeaves { max: L });
        }
        let (shape, strides) = (layout.shape(), layout.strides());
        let mut axis = 0;
        while axis < N {
            if let (Some(e), Some(s)) = (get(&shape, axis), get(&strides, axis)) {
                set(&mut out.extents, axis, e);
                set(&mut out.strides, axis, s);
            }
            axis = axis.saturating_add(1);
        }
        set(&mut out.opens, 0, 1);
        set(&mut out.closes, N.saturating_sub(1), 1);
        out.leaves = N;
        out.tuples = 1;
        // No `validate`: a tuple of `layout`'s axes has its offsets, which `Layout`'s
        // invariants already keep inside `isize` (in elements and bytes), its volume inside
        // `usize` and its itemsize a power of two; there is no cut.
        Ok(out)
    }

    /// The nested form of an interleaved layout: each axis a leaf, except the blocked axis
    /// `d` (factor `f > 1`, extent `e`), which is the tuple `(f, ⌈e / f⌉):(1, strides[d])`,
    /// cut to `e` when `f` does not divide it (a partial last block, Core AI's semantics).
    /// [`offset_of`](Self::offset_of)`(&i)` is `layout.offset_of(i)` for every index.
    ///
    /// # Errors
    ///
    /// - [`NestedError::TooManyLeaves`] if the leaves (`N`, one more with a blocked axis) are
    ///   more than `L`; [`NestedError::TooManyModes`] if `L < 2` with a blocked axis.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, nested::NestedLayout};
    /// // 10 channels in blocks of 4 by 5 pixels (nChw4c with a partial last block).
    /// let il = InterleavedLayout::dense([10, 5], 1, InterleaveLayout::new(0, 4)?)?;
    /// let n = NestedLayout::<3>::from_interleaved(&il)?;
    /// assert_eq!(n.to_string(), "((4,3)|10,5):((1,20),4)");
    /// assert_eq!(n.offset_of(&[9, 3])?, il.offset_of([9, 3])?);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn from_interleaved<const N: usize>(
        layout: &InterleavedLayout<N>,
    ) -> Result<Self, NestedError> {
        let il = layout.interleave();
        let (blocked, factor) = (il.dimension(), il.factor());
        if factor <= 1 || N == 0 {
            // Factor 1: the plain strided layout (the block stride is the element stride).
            return match Layout::new(layout.shape(), layout.strides(), layout.itemsize()) {
                Ok(plain) => match plain.with_offset(layout.offset()) {
                    Ok(plain) => Self::from_layout(&plain),
                    Err(e) => Err(NestedError::Layout(e)),
                },
                Err(e) => Err(NestedError::Layout(e)),
            };
        }
        let Some(leaves) = N.checked_add(1) else {
            return Err(NestedError::TooManyLeaves { max: L });
        };
        if leaves > L {
            return Err(NestedError::TooManyLeaves { max: L });
        }
        if L < 2 {
            return Err(NestedError::TooManyModes { max: L });
        }
        let mut out = Self::EMPTY;
        out.offset = layout.offset();
        out.itemsize = layout.itemsize();
        let (shape, strides) = (layout.shape(), layout.strides());
        let (mut axis, mut slot) = (0, 0);
        while axis < N {
            let (extent, stride) = match (get(&shape, axis), get(&strides, axis)) {
                (Some(e), Some(s)) => (e, s),
                _ => (0, 0),
            };
            if axis == blocked {
                // `factor > 1`: the lane leaf, then the block leaf, in one tuple.
                let blocks = extent.div_ceil(factor);
                set(&mut out.extents, slot, factor);
                set(&mut out.strides, slot, 1);
                set(&mut out.opens, slot, if axis == 0 { 2 } else { 1 });
                slot = slot.saturating_add(1);
                set(&mut out.extents, slot, blocks);
                set(&mut out.strides, slot, stride);
                set(
                    &mut out.closes,
                    slot,
                    if axis.saturating_add(1) == N { 2 } else { 1 },
                );
                if !matches!(extent.checked_rem(factor), Some(0)) {
                    // The block tuple opens second (after the root).
                    out.set_cut(1, extent);
                }
            } else {
                set(&mut out.extents, slot, extent);
                set(&mut out.strides, slot, stride);
                if axis == 0 {
                    set(&mut out.opens, slot, 1);
                }
                if axis.saturating_add(1) == N {
                    set(&mut out.closes, slot, 1);
                }
            }
            slot = slot.saturating_add(1);
            axis = axis.saturating_add(1);
        }
        out.leaves = leaves;
        out.tuples = 2;
        match out.validate() {
            Ok(()) => Ok(out),
            Err(e) => Err(e),
        }
    }

    /// The flat layout with the same offsets, where every top-level mode is a leaf and none
    /// is cut: a tuple of `N` leaves, or (`N == 1`) an integral layout.
    ///
    /// # Errors
    ///
    /// - [`NestedError::RankMismatch`] if the rank is not `N`;
    /// - [`NestedError::NotFlat`] if a top-level mode is a tuple (other than `(1, n):(1, s)`,
    ///   which is the leaf `n:s`), or the layout is cut;
    /// - [`NestedError::Layout`] with what [`Layout::new`] and
    ///   [`with_offset`](Layout::with_offset) say.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, nested::{NestedError, NestedLayout}};
    /// let n: NestedLayout<3> = "(4,5):(5,1) +1".parse()?;
    /// assert_eq!(n.to_layout::<2>()?, Layout::new([4, 5], [5, 1], 1)?.with_offset(1)?);
    /// let tiled: NestedLayout<3> = "((4,3),5):((1,20),4)".parse()?;
    /// assert_eq!(tiled.to_layout::<2>(), Err(NestedError::NotFlat { mode: 0 }));
    /// assert_eq!(n.to_layout::<3>(), Err(NestedError::RankMismatch { expected: 3, found: 2 }));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn to_layout<const N: usize>(&self) -> Result<Layout<N>, NestedError> {
        if N == 0 && self.leaves == 0 {
            // `():()`: rank 0, which has no interleaved form.
            return match Layout::new([0; N], [0; N], self.itemsize) {
                Ok(l) => match l.with_offset(self.offset) {
                    Ok(l) => Ok(l),
                    Err(e) => Err(NestedError::Layout(e)),
                },
                Err(e) => Err(NestedError::Layout(e)),
            };
        }
        // The interleaved form, with the one rule for which modes fit; a block of lanes is
        // not flat (unless its lanes are 1, which is the plain layout).
        let il = match self.to_interleaved::<N>() {
            Ok(il) => il,
            Err(e) => return Err(e),
        };
        let spec = il.interleave();
        if spec.factor() != 1 {
            return Err(NestedError::NotFlat {
                mode: spec.dimension(),
            });
        }
        match Layout::new(il.shape(), il.strides(), il.itemsize()) {
            Ok(l) => match l.with_offset(il.offset()) {
                Ok(l) => Ok(l),
                Err(e) => Err(NestedError::Layout(e)),
            },
            Err(e) => Err(NestedError::Layout(e)),
        }
    }

    /// The interleaved layout with the same offsets, where every top-level mode is a leaf but
    /// at most one, which is a block of lanes one element apart: `(f, blocks):(1, stride)`,
    /// cut to the axis's extent or not (Core AI's `InterleaveLayout`, the form the kernels
    /// take; [`from_interleaved`](Self::from_interleaved) the other way). A layout with no
    /// tuple mode is interleaved by 1 on axis 0.
    ///
    /// (Every nested layout reaches the kernels through [`lowered`](Self::lowered); this is the
    /// conversion to the interleaved type.)
    ///
    /// # Errors
    ///
    /// - [`NestedError::RankMismatch`] if the rank is not `N`;
    /// - [`NestedError::NotFlat`] for a mode that is none of these (deeper, lanes not one
    ///   element apart, a second block), or a cut layout;
    /// - [`NestedError::Layout`] with what [`InterleavedLayout::new`] says (rank 0 has no
    ///   interleaved form: `AxisOutOfRange`).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, Order, nested::NestedLayout};
    /// // nChw16c with 20 channels (padded to 32), from planar nchw.
    /// let dims = [1, 20, 2, 3];
    /// let blocked = NestedLayout::<5>::onednn("nChw16c", &dims, 4)?;
    /// let il = blocked.to_interleaved::<4>()?;
    /// let planar = Layout::dense(dims, 4, Order::C)?;
    /// let src: Vec<f32> = (0..120).map(|i| i as f32).collect();
    /// let mut dst = vec![0f32; blocked.required_len()?];
    /// strided_layout::copy(&src, &planar, &mut dst, &il)?;
    /// let at = |c: usize, h: usize, w: usize| blocked.offset_of(&[0, c, h, w]).map(|o| o as usize);
    /// assert_eq!(dst[at(17, 1, 2)?], planar.offset_of([0, 17, 1, 2])? as f32);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn to_interleaved<const N: usize>(
        &self,
    ) -> Result<InterleavedLayout<N>, NestedError> {
        let rank = self.rank();
        if rank != N {
            return Err(NestedError::RankMismatch {
                expected: N,
                found: rank,
            });
        }
        let mut shape = [0usize; N];
        let mut strides = [0isize; N];
        let mut spec = (0usize, 1usize);
        if let Some(root) = self.root() {
            if self.is_leaf(root) {
                set(&mut shape, 0, self.size_or_0(root));
                if let Some(s) = get(&self.strides, 0) {
                    set(&mut strides, 0, s);
                }
            } else {
                if self.cut_of(0) != 0 {
                    return Err(NestedError::NotFlat { mode: 0 });
                }
                let end = self.end(root);
                let mut child = self.first_child(root);
                let mut k = 0;
                let mut blocked = false;
                loop {
                    let size = self.size_or_0(child);
                    set(&mut shape, k, size);
                    if self.is_leaf(child) {
                        if let Some(s) = get(&self.strides, child.leaf) {
                            set(&mut strides, k, s);
                        }
                    } else {
                        // `(f, blocks):(1, stride)`: two leaves, one tuple, lanes 1 apart.
                        let lanes = child.leaf;
                        let blocks = lanes.saturating_add(1);
                        let two = self.end(child) == blocks
                            && self.opens_at(lanes).saturating_sub(child.open) == 1
                            && self.opens_at(blocks) == 0;
                        let (Some(f), Some(one), Some(s)) = (
                            get(&self.extents, lanes),
                            get(&self.strides, lanes),
                            get(&self.strides, blocks),
                        ) else {
                            return Err(NestedError::NotFlat { mode: k });
                        };
                        if blocked || !two || one != 1 || f == 0 {
                            return Err(NestedError::NotFlat { mode: k });
                        }
                        blocked = true;
                        spec = (k, f);
                        set(&mut strides, k, s);
                    }
                    match self.next_child(child, end) {
                        Some(next) => child = next,
                        None => break,
                    }
                    k = k.saturating_add(1);
                }
            }
        }
        let il = match InterleaveLayout::new(spec.0, spec.1) {
            Ok(il) => il,
            Err(e) => return Err(NestedError::Layout(e)),
        };
        match InterleavedLayout::new(shape, strides, self.itemsize, il) {
            Ok(l) => match l.with_offset(self.offset) {
                Ok(l) => Ok(l),
                Err(e) => Err(NestedError::Layout(e)),
            },
            Err(e) => Err(NestedError::Layout(e)),
        }
    }
}

impl<const L: usize> NestedLayout<L> {
    /// The kernels' form of this layout, rank `N`: each top-level mode an axis, its leaves
    /// (fastest first) the axis's inner [`Level`]s and, last, its own
    /// stride, its size (a cut included: the partial last block) the axis's extent. Every
    /// kernel and prepared plan takes it (it is a [`Mapping`](crate::plan::Mapping)): copies
    /// between any two blocked formats (reorders such as `OIhw16i16o -> OIhw4i16o4i`) go
    /// through the one planner, which cuts the blocked axes into strided pieces.
    ///
    /// ```text
    /// ((4,2)|7, 3):((1,12), 4)      axis 0: extent 7, level (4, 1), stride 12
    ///                               axis 1: extent 3, stride 4
    /// ```
    ///
    /// # Errors
    ///
    /// - [`NestedError::RankMismatch`] if the rank is not `N`;
    /// - [`NestedError::CutMode`] for a partial block below the top of a mode (a cut sub-mode
    ///   inside a mode), or a cut layout: the kernels' form has partial blocks only at an
    ///   axis's outermost level;
    /// - [`NestedError::Layout`] with [`LayoutError::RankOverflow`](crate::LayoutError::RankOverflow)
    ///   when the modes' leaves beyond their last need more than
    ///   [`MAX_LEVELS`](crate::plan::MAX_LEVELS) levels (leaves of extent 1 need none).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// // A reorder of a weight tensor, 20 x 20 x 3 x 3 (O and I padded to 32 in both):
    /// // OIhw16i16o -> OIhw4i16o4i, blocked axes on both sides, `i` twice in the destination.
    /// let dims = [20, 20, 3, 3];
    /// let from = NestedLayout::<8>::onednn("OIhw16i16o", &dims, 4)?;
    /// let to = NestedLayout::<8>::onednn("OIhw4i16o4i", &dims, 4)?;
    /// let src: Vec<f32> = (0..from.required_len()?).map(|i| i as f32).collect();
    /// let mut dst = vec![0f32; to.required_len()?];
    /// strided_layout::copy(&src, &from.lowered::<4>()?, &mut dst, &to.lowered::<4>()?)?;
    /// let index = [17, 6, 2, 1];
    /// let (a, b) = (from.offset_of(&index)?, to.offset_of(&index)?);
    /// assert_eq!(dst[b as usize], src[a as usize]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    ///
    /// Planned at compile time, where the formats and dims are known: a prepared reorder
    /// whose planning and checks cost nothing at run time.
    ///
    /// ```
    /// use strided_layout::{CopyPlan, const_unwrap};
    /// use strided_layout::nested::{self, NestedLayout};
    /// const DIMS: [usize; 4] = [1, 40, 3, 3];
    /// const FROM: NestedLayout<8> = nested::const_unwrap(NestedLayout::onednn("nChw8c", &DIMS, 4));
    /// const TO: NestedLayout<8> = nested::const_unwrap(NestedLayout::onednn("nChw16c", &DIMS, 4));
    /// const PLAN: CopyPlan = const_unwrap(CopyPlan::from_lowered(
    ///     &nested::const_unwrap(FROM.lowered::<4>()),
    ///     &nested::const_unwrap(TO.lowered::<4>()),
    /// ));
    /// let src: Vec<f32> = (0..PLAN.src_len()).map(|i| i as f32).collect();
    /// let mut dst = vec![0f32; PLAN.dst_len()];
    /// PLAN.run(&src, &mut dst)?;
    /// let (a, b) = (FROM.offset_of(&[0, 37, 2, 1])?, TO.offset_of(&[0, 37, 2, 1])?);
    /// assert_eq!(dst[b as usize], src[a as usize]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub const fn lowered<const N: usize>(&self) -> Result<Lowered<N>, NestedError> {
        let rank = self.rank();
        if rank != N {
            return Err(NestedError::RankMismatch {
                expected: N,
                found: rank,
            });
        }
        let mut shape = [0usize; N];
        let mut strides = [0isize; N];
        let mut blocks = Blocks::NONE;
        if let Some(root) = self.root() {
            if self.is_leaf(root) {
                // An integral layout `n:s`: one axis, one leaf.
                set(&mut shape, 0, self.size_or_0(root));
                if let Some(s) = get(&self.strides, 0) {
                    set(&mut strides, 0, s);
                }
            } else {
                if self.cut_of(0) != 0 {
                    return Err(NestedError::CutMode { mode: 0 });
                }
                let end = self.end(root);
                let mut child = self.first_child(root);
                let mut k = 0;
                loop {
                    set(&mut shape, k, self.size_or_0(child));
                    blocks = match self.mode_levels(child, k, blocks) {
                        Ok((b, outer)) => {
                            set(&mut strides, k, outer);
                            b
                        }
                        Err(e) => return Err(e),
                    };
                    match self.next_child(child, end) {
                        Some(next) => child = next,
                        None => break,
                    }
                    k = k.saturating_add(1);
                }
            }
        }
        Ok(Lowered {
            shape,
            strides,
            offset: self.offset,
            itemsize: self.itemsize,
            blocks,
        })
    }

    /// The levels of top-level mode `m` (axis `k`) added to `blocks`, and the stride of its
    /// last leaf of extent other than 1 (0 when there is none: the axis then has one
    /// coordinate; none either for a mode of no coordinate). Refuses a cut below the mode's
    /// own top.
    const fn mode_levels(
        &self,
        m: super::Node,
        k: usize,
        blocks: Blocks,
    ) -> Result<(Blocks, isize), NestedError> {
        let last = self.end(m);
        // The tuples inside the mode are numbered after its own, in the order they open.
        let own = if self.is_leaf(m) {
            None
        } else {
            Some(self.tuple_index(m))
        };
        let mut inner = 0usize;
        let mut j = m.leaf;
        while j <= last {
            inner = inner.saturating_add(self.opens_at(j));
            j = j.saturating_add(1);
        }
        // `m.open` tuples open at the mode's first leaf before it (outer ones), and the mode's
        // own tuple is one more.
        inner = inner.saturating_sub(m.open);
        if let Some(t) = own {
            let mut i = 1;
            while i < inner {
                if self.cut_of(t.saturating_add(i)) != 0 {
                    return Err(NestedError::CutMode { mode: k });
                }
                i = i.saturating_add(1);
            }
        }
        // A mode of no coordinate (a leaf of extent 0) needs no level: its axis has extent 0.
        if self.size_or_0(m) == 0 {
            return Ok((blocks, 0));
        }
        // Leaves of extent 1 move nothing; of the others, every one but the last is a level.
        let mut out = blocks;
        let mut pending: Option<(usize, isize)> = None;
        let mut j = m.leaf;
        while j <= last {
            if let (Some(e), Some(s)) = (get(&self.extents, j), get(&self.strides, j)) {
                if e != 1 {
                    if let Some((pe, ps)) = pending {
                        let level = Level {
                            axis: k,
                            extent: pe,
                            stride: ps,
                        };
                        out = match out.with(level) {
                            Ok(b) => b,
                            Err(e) => return Err(NestedError::Layout(e)),
                        };
                    }
                    pending = Some((e, s));
                }
            }
            j = j.saturating_add(1);
        }
        let outer = match pending {
            Some((_, s)) => s,
            None => 0,
        };
        Ok((out, outer))
    }
}
