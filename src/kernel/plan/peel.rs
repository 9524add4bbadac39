//! Operands that need more loops than a nest holds: the outermost loops peeled off into
//! pieces, one nest per combination of their indices.
//!
//! A nest holds `L` loops (the plan's parameter, [`MAX_LOOPS`] by default). Operands of rank
//! `N > L` whose axes still need
//! more after extent-1 axes are dropped and neighbours merged (a rank-12 view that merges
//! nowhere) are first flipped, ordered and merged again as a nest's loops are (`order` in
//! `plan/order.rs`: an F-order view of rank 12 merges into one loop there); the innermost
//! `L` of what remains are kept in each nest, and the others, the outermost, are
//! *peeled*: each combination of their indices is a piece, a nest of the kept loops starting
//! at that combination's offsets. The pieces are numbered with the first peeled axis slowest, and then planned as
//! the pieces of differently blocked operands are (`plan/pieces.rs`): a [`Plan`] holds `M`
//! of them ([`MAX_NESTS`](super::MAX_NESTS) for [`Plan::new`]; past that
//! [`LayoutError::RankOverflow`]), and the run-time kernels plan any number a window at a
//! time (`proof/windows.rs`), checking the whole operands once rather than piece against
//! piece (as they do for blocked pieces, up to [`MAX_PIECES`](crate::plan::MAX_PIECES)).
//!
//! ```text
//! rank 9, extent 2 on every axis, strides 3^8 .. 3^0 (nothing merges): 9 loops
//!   loop peeled:  extent 2, stride 6561 (the outermost)
//!   piece 0:      offset 0     loops 2:2187, 2:729, .., 2:1 (8)
//!   piece 1:      offset 6561  the same loops
//! ```
//!
//! Only [`Plan::build_nest`] calls this, and only where `N > L`, a test on constants: for
//! the ranks of real layouts it folds away.
//!
//! [`MAX_LOOPS`]: super::MAX_LOOPS

use super::merge::append;
use super::operands::{add, mul, offsets_of, strides_at};
use super::order::order;
use super::{Loop, Plan, item_bounds, line_for};
use crate::LayoutError;
use crate::algo::access::{get, set};
use crate::algo::checked::tri;
use crate::kernel::mapping::Lowered;

impl<const K: usize, const M: usize, const L: usize> Plan<K, M, L> {
    /// The nests of pieces `first..first + M` of operands none of which is blocked,
    /// the outermost loops past `L` (the plan's loops a nest, [`MAX_LOOPS`](super::MAX_LOOPS) by default) peeled; returns the number of pieces in all (1
    /// when nothing is peeled).
    ///
    /// # Errors
    ///
    /// - [`LayoutError::RankOverflow`] if the number of pieces overflows `usize` (never: it
    ///   is at most the volume);
    /// - [`LayoutError::OffsetOverflow`] if an offset overflows `isize` (never for operands
    ///   that keep the invariants of [`Layout`](crate::Layout)).
    pub(super) const fn build_peeled<const N: usize>(
        &mut self,
        ops: &[Lowered<N>; K],
        side: usize,
        first: usize,
    ) -> Result<usize, LayoutError> {
        let Some(head) = ops.first() else {
            return Ok(0);
        };
        let [narrowest, widest] = item_bounds(ops);
        let (shape, line) = (head.shape, line_for(widest));
        // 1. The axes as the builder pushes them (`append`): extent 1 dropped, merged into
        // the previous loop where they merge in every operand. `loops` has room for all `N`.
        let mut loops = [Loop::<K>::UNIT; N];
        let mut depth = 0usize;
        let mut axis = 0;
        while let Some(extent) = get(&shape, axis) {
            if let Some(d) = append(&mut loops, depth, extent, strides_at(ops, axis)) {
                depth = d;
            }
            axis = axis.saturating_add(1);
        }
        // 2. Where more than a nest holds remain: flipped, ordered and merged again as a
        // nest's loops are (`order`), and the outermost past `L` peeled; the pieces
        // are the product of their extents.
        let mut base = offsets_of(ops);
        let mut peel = 0usize;
        if depth > L {
            let Some((used, _)) = loops.split_at_mut_checked(depth) else {
                return Err(LayoutError::RankOverflow { max: L });
            };
            depth = tri!(order(used, &mut base, line));
            peel = depth.saturating_sub(L);
        }
        let mut total = 1usize;
        let mut slot = 0;
        while slot < peel {
            let Some(l) = get(&loops, slot) else {
                break;
            };
            // At most the volume, which fits `usize` (a `Layout` invariant).
            total = match total.checked_mul(l.extent) {
                Some(t) => t,
                None => return Err(LayoutError::RankOverflow { max: L }),
            };
            slot = slot.saturating_add(1);
        }
        // 3. The window's pieces: the peeled loops' indices of piece `p` (the last peeled
        // fastest) moved into the offsets, the kept loops planned as one nest.
        let end = first.saturating_add(M);
        let mut piece = first;
        while piece < end && piece < total {
            let mut offsets = base;
            let mut rest = piece;
            let mut slot = peel;
            while let Some(at) = slot.checked_sub(1) {
                slot = at;
                let Some(l) = get(&loops, at) else {
                    break;
                };
                // `l.extent >= 2`: extent-1 axes were dropped.
                let index = match rest.checked_rem(l.extent) {
                    Some(index) => index,
                    None => 0,
                };
                rest = match rest.checked_div(l.extent) {
                    Some(next) => next,
                    None => 0,
                };
                let mut o = 0;
                while let (Some(start), Some(s)) = (get(&offsets, o), get(&l.strides, o)) {
                    set(&mut offsets, o, tri!(add(start, tri!(mul(s, index)))));
                    o = o.saturating_add(1);
                }
            }
            let mut b = tri!(self.builder(offsets));
            let mut slot = peel;
            while slot < depth {
                if let Some(l) = get(&loops, slot) {
                    tri!(b.push(l.extent, l.strides));
                }
                slot = slot.saturating_add(1);
            }
            tri!(b.finish(side, line, narrowest));
            self.count = self.count.saturating_add(1);
            piece = piece.saturating_add(1);
        }
        Ok(total)
    }
}
