//! A nest under construction: axes pushed (and merged, [`append`]), then flipped, ordered and
//! merged again ([`order`]), tiled ([`tiling`](super::tiling), [`group`]; a long loop taken
//! over short ones into the block, [`long_over_short`], before and after, else a short loop
//! back inside long rows that crowd their sets, or inside a block of one tile or less that
//! loops outside repeat, [`short_back`]; untiled, its short loops
//! moved inside long ones that overflow the second-level sets, [`far_back`], and its long
//! loops into small blocks, [`long_inside`], [`long_cube`]), its block faced
//! ([`face`]), and each operand's bounds measured ([`measure`]): the steps in order, each
//! rule in its own file.

use super::Nest;
use super::flip::face;
use super::group::group;
use super::measure::measure;
use super::merge::append;
use super::order::{crowded_in_destination_order, far_back, long_cube, long_inside, order};
use super::tiling::{TILE_MIN_EXTENT, long_over_short, short_back, tile, untiled_small};
use crate::LayoutError;

/// A nest under construction.
pub(super) struct Builder<'a, const K: usize, const L: usize> {
    pub(super) nest: &'a mut Nest<K, L>,
}

impl<const K: usize, const L: usize> Builder<'_, K, L> {
    /// Appends an axis inside the others: dropped at extent 1, merged into the previous loop
    /// when it merges in every operand.
    pub(super) const fn push(
        &mut self,
        extent: usize,
        strides: [isize; K],
    ) -> Result<(), LayoutError> {
        match append(&mut self.nest.loops, self.nest.depth, extent, strides) {
            Some(depth) => {
                self.nest.depth = depth;
                Ok(())
            }
            None => Err(LayoutError::RankOverflow { max: L }),
        }
    }

    /// Flips, orders and merges ([`order`]), then tiles the pushed loops (an untiled nest of
    /// three operands or more whose rows crowd the destination's cache sets in the
    /// destination's order, [`crowded_in_destination_order`]) and faces their block
    /// ([`face`]), then measures each operand's bounds.
    ///
    /// Each pass walks the loops as a slice where it can (no index to check per step).
    pub(super) const fn finish(
        self,
        side: usize,
        line: usize,
        narrowest: usize,
    ) -> Result<(), LayoutError> {
        let Nest {
            loops: all,
            depth: nest_depth,
            offsets,
            bounds,
            tile: nest_tile,
        } = self.nest;
        let Some((loops, _)) = all.split_at_mut_checked(*nest_depth) else {
            return Err(LayoutError::RankOverflow { max: L });
        };
        let out = match order(loops, offsets, line) {
            Ok(out) => out,
            Err(e) => return Err(e),
        };
        *nest_depth = out;
        let Some((loops, _)) = loops.split_at_mut_checked(out) else {
            return Err(LayoutError::RankOverflow { max: L });
        };
        let tiled = untiled_small(tile(loops, out, side, line), loops, side, line);
        // Untiled, or tiled by a short loop's rows: a long loop may join the rows instead.
        let tiled = match tiled {
            Some([rows, _]) if rows >= TILE_MIN_EXTENT => tiled,
            _ => match untiled_small(long_over_short(loops, side, line), loops, side, line) {
                None => tiled,
                joined => joined,
            },
        };
        // Last, as the two-loop planner: rows of a long loop over a short one may take the
        // short one back inside (never a block of two long loops, as the joined ones are).
        *nest_tile = match loops {
            [.., outer, inner] => {
                short_back(tiled, [outer, inner], out > 2, side, [line, narrowest])
            }
            _ => tiled,
        };
        if nest_tile.is_none() {
            *nest_depth = group(all, out, line);
        }
        let Some((loops, _)) = all.split_at_mut_checked(*nest_depth) else {
            return Err(LayoutError::RankOverflow { max: L });
        };
        if nest_tile.is_none() {
            far_back(loops, line);
            long_inside(loops, line);
            long_cube(loops, line);
        }
        // An untiled nest of three operands or more whose innermost rows crowd the
        // destination's lines out of their sets runs in the destination's order.
        *nest_depth = match crowded_in_destination_order(loops, offsets, nest_tile.is_some(), line)
        {
            Ok(n) => n,
            Err(e) => return Err(e),
        };
        let Some((loops, _)) = loops.split_at_mut_checked(*nest_depth) else {
            return Err(LayoutError::RankOverflow { max: L });
        };
        if let [.., outer, inner] = loops {
            if let Err(e) = face(outer, inner, offsets) {
                return Err(e);
            }
        }
        measure(loops, offsets, bounds)
    }
}
