//! The loop driver: visits a [`Nest`] as 2-D blocks (the two innermost loops, cut to the
//! tile), keeping the outer loops in an odometer. Safe code: it only computes offsets;
//! the kernels in `raw/` turn them into memory accesses.
//!
//! Every offset it computes is an element offset of the nest (or one of its partial sums
//! between the nest's bounds), and [`Plan::new`](crate::plan::Plan::new) computed those bounds with
//! checked arithmetic, so the wrapping operations below never wrap.

#![expect(
    clippy::inline_always,
    clippy::many_single_char_names,
    reason = "The driver and its helpers must inline into each kernel's closure to keep the loops tight."
)]

use crate::kernel::plan::{Loop, Nest};

/// `i · s` for a step count `i` of a loop with stride `s`: exact for every step of a planned
/// loop (the product is an offset difference inside the nest's bounds); when `s == 0` the
/// cast of `i` may wrap but the product is 0 either way.
#[expect(
    clippy::cast_possible_wrap,
    reason = "exact for every step of a planned loop; 0 whatever the cast when `s == 0`"
)]
#[inline(always)]
pub(crate) const fn step(i: usize, s: isize) -> isize {
    (i as isize).wrapping_mul(s)
}

/// `o + i · s` for every operand: the offsets `i` steps along a loop.
#[inline(always)]
pub(crate) fn stepped<const K: usize>(o: [isize; K], i: usize, s: [isize; K]) -> [isize; K] {
    let mut out = o;
    for (x, &s) in out.iter_mut().zip(&s) {
        *x = x.wrapping_add(step(i, s));
    }
    out
}

/// Calls `f(offsets, a, b)` for every 2-D block of `nest` in its order: `b` is the innermost
/// loop and `a` the one outside it (a one-step loop when the nest has fewer loops), both cut
/// to the tile when the nest is tiled.
#[inline]
pub(crate) fn for_each_block<const K: usize, F, const L: usize>(nest: &Nest<K, L>, f: F)
where
    F: FnMut([isize; K], Loop<K>, Loop<K>),
{
    for_each_block_tiled(nest, nest.tile(), f);
}

/// [`for_each_block`] with the tile given by the caller (`None`: whole blocks), for a
/// kernel that handles a block's locality itself.
#[inline]
pub(crate) fn for_each_block_tiled<const K: usize, F, const L: usize>(
    nest: &Nest<K, L>,
    tile: Option<[usize; 2]>,
    mut f: F,
) where
    F: FnMut([isize; K], Loop<K>, Loop<K>),
{
    let loops = nest.loops();
    let (outer, a, b) = match loops {
        [outer @ .., a, b] => (outer, *a, *b),
        [b] => (&[][..], Loop::UNIT, *b),
        [] => (&[][..], Loop::UNIT, Loop::UNIT),
    };
    // Each outer loop's steps left, counted down: set from the extents rather than zeroed,
    // so no `memset` is linked for it (bare-metal images pay 174 bytes for one).
    let mut left: [usize; L] = core::array::from_fn(|k| outer.get(k).map_or(0, |l| l.extent));
    let mut offs = nest.offsets();
    loop {
        match tile {
            Some([ta, tb]) => tiles(offs, a, b, ta.max(1), tb.max(1), &mut f),
            None => f(offs, a, b),
        }
        // Odometer over the outer loops, innermost fastest.
        let mut k = outer.len();
        loop {
            let Some(kk) = k.checked_sub(1) else { return };
            k = kk;
            let (Some(l), Some(n)) = (outer.get(k), left.get_mut(k)) else {
                return;
            };
            if *n > 1 {
                *n = n.saturating_sub(1);
                offs = stepped(offs, 1, l.strides);
                break;
            }
            // Back to the loop's first step: `extent - 1` steps were taken.
            let back = l.extent.saturating_sub(1);
            for (x, &s) in offs.iter_mut().zip(&l.strides) {
                *x = x.wrapping_sub(step(back, s));
            }
            *n = l.extent;
        }
    }
}

/// Calls `f(offsets, c, a, b)` for every 3-D block of `nest`, its tile ignored: its three
/// innermost loops (`c` the outermost of them, `b` the innermost; one-step loops when the
/// nest has fewer), the outer loops in the one odometer of [`for_each_block_tiled`]. For
/// kernels whose 2-D blocks are a few elements each, too small to pay the odometer and a call
/// per block.
#[inline]
pub(crate) fn for_each_cube<const K: usize, F, const L: usize>(nest: &Nest<K, L>, mut f: F)
where
    F: FnMut([isize; K], Loop<K>, Loop<K>, Loop<K>),
{
    let b = match nest.loops() {
        [.., b] => *b,
        [] => Loop::UNIT,
    };
    for_each_block_tiled(&nest.without_innermost(), None, |offs, c, a| {
        f(offs, c, a, b);
    });
}

/// [`for_each_block_tiled`], with a nest that is one untiled block (at most two loops, the
/// shape nearly every small copy plans to) handed to `f` at once: no odometer to set up.
#[inline]
pub(crate) fn for_each_block_of<const K: usize, F, const L: usize>(
    nest: &Nest<K, L>,
    tile: Option<[usize; 2]>,
    mut f: F,
) where
    F: FnMut([isize; K], Loop<K>, Loop<K>),
{
    match (tile, nest.loops()) {
        (None, [a, b]) => f(nest.offsets(), *a, *b),
        (None, [b]) => f(nest.offsets(), Loop::UNIT, *b),
        (None, []) => f(nest.offsets(), Loop::UNIT, Loop::UNIT),
        _ => for_each_block_tiled(nest, tile, f),
    }
}

/// Tiles per side of a super-tile: the tiles are visited in `SUPER × SUPER` groups, so a
/// group's rows (`SUPER · ta` of each operand, a few hundred pages at most) stay in the L2
/// cache and TLB while its tiles run, instead of one tile row sweeping the whole matrix.
pub(crate) const SUPER: usize = 8;

/// Cuts the block `a × b` at `offs` into `ta × tb` tiles, in groups of `SUPER × SUPER`.
#[inline]
pub(crate) fn tiles<const K: usize, F>(
    offs: [isize; K],
    a: Loop<K>,
    b: Loop<K>,
    ta: usize,
    tb: usize,
    f: &mut F,
) where
    F: FnMut([isize; K], Loop<K>, Loop<K>),
{
    let (ga, gb) = (ta.saturating_mul(SUPER), tb.saturating_mul(SUPER));
    let mut a1 = 0;
    while a1 < a.extent {
        let a_end = a.extent.min(a1.saturating_add(ga));
        let mut b1 = 0;
        while b1 < b.extent {
            let b_end = b.extent.min(b1.saturating_add(gb));
            let mut a0 = a1;
            while a0 < a_end {
                let ea = ta.min(a_end.saturating_sub(a0));
                let row = stepped(offs, a0, a.strides);
                let mut b0 = b1;
                while b0 < b_end {
                    let eb = tb.min(b_end.saturating_sub(b0));
                    f(
                        stepped(row, b0, b.strides),
                        Loop {
                            extent: ea,
                            strides: a.strides,
                        },
                        Loop {
                            extent: eb,
                            strides: b.strides,
                        },
                    );
                    b0 = b0.saturating_add(tb);
                }
                a0 = a0.saturating_add(ta);
            }
            b1 = b_end;
        }
        a1 = a_end;
    }
}

/// Calls `f(offsets, run)` for every innermost run of `nest`, in its (tiled) order.
#[inline]
pub(crate) fn for_each_run<const K: usize, F, const L: usize>(nest: &Nest<K, L>, mut f: F)
where
    F: FnMut([isize; K], Loop<K>),
{
    for_each_block(nest, |offs, a, b| {
        for i in 0..a.extent {
            f(stepped(offs, i, a.strides), b);
        }
    });
}
