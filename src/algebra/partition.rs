//! The partitions CuTe builds from the divides: the tile a thread block owns
//! ([`local_tile`]) and the elements a thread owns ([`local_partition`]), on layouts: which
//! offsets they are.

use super::{AlgebraError, logical_divide, mode, whole as whole_threads};
use crate::algo::access::get;
use crate::algo::checked::tri;
use crate::nested::{Builder, NestedError, NestedLayout};

/// Unwraps a nested layout's `Result` in a `const fn`, its error as [`AlgebraError::Nested`].
macro_rules! nested {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return Err(AlgebraError::Nested(e)),
        }
    };
}

/// Mode `k` of `a` divided by `t`: its tile and its rest, each a layout of its own.
const fn split_mode<const L: usize>(
    a: &NestedLayout<L>,
    k: usize,
    t: &NestedLayout<L>,
) -> Result<(NestedLayout<L>, NestedLayout<L>), AlgebraError> {
    let m = tri!(mode(a, k));
    let d = tri!(logical_divide(&m, t));
    Ok((tri!(mode(&d, 0)), tri!(mode(&d, 1))))
}

/// `offset + l(c)`, the coordinate `c` of mode `mode` checked against its size.
const fn shifted<const L: usize>(
    offset: isize,
    l: &NestedLayout<L>,
    c: usize,
    mode: usize,
) -> Result<isize, AlgebraError> {
    let Ok(o) = l.offset_of_linear(c) else {
        return Err(AlgebraError::Nested(NestedError::IndexOutOfRange { mode }));
    };
    match offset.checked_add(o) {
        Some(v) => Ok(v),
        None => Err(AlgebraError::Nested(NestedError::Layout(
            crate::LayoutError::OffsetOverflow,
        ))),
    }
}

/// CuTe's `local_tile(a, tiler, coord)` on a layout: `a` divided by mode (mode `k` by
/// `tiler[k]`, as [`zipped_divide_by_mode`](super::zipped_divide_by_mode)), and the tile at
/// `tile` (one coordinate per tiler mode, counting tiles along that mode): its modes are the
/// tile's, its offset the tile's first element; `a`'s modes past the tiler are kept whole.
/// This is what a thread block of a GEMM takes of a matrix.
///
/// ```text
/// a = (8,6):(1,8)   tiler = [4:1, 3:1]   tile = [1, 1]
///  . . . . . .      the tile (4,3):(1,8) at offset 4 + 24 = 28:
///  . . . . . .        rows 4..8 of columns 3..6
///  . . . . . .
///  . . . . . .
///  . . . # # #
///  . . . # # #
///  . . . # # #
///  . . . # # #
/// ```
///
/// # Errors
///
/// - [`AlgebraError::TilerRank`] if the tiler has more layouts than `a` has modes, or `tile`
///   more coordinates than the tiler has layouts;
/// - [`AlgebraError::Nested`] with [`NestedError::IndexOutOfRange`] if a coordinate is not
///   below its mode's tile count (the mode named);
/// - as [`logical_divide`] for each mode.
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<8> = "(8,6):(1,8)".parse()?;
/// let tiler: [NestedLayout<8>; 2] = ["4:1".parse()?, "3:1".parse()?];
/// let t = algebra::local_tile(&a, &tiler, &[1, 1])?;
/// assert_eq!(t.to_string(), "(4,3):(1,8) +28");
/// assert!(algebra::local_tile(&a, &tiler, &[2, 0]).is_err()); // 2 tiles down, not 3
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn local_tile<const L: usize>(
    a: &NestedLayout<L>,
    tiler: &[NestedLayout<L>],
    tile: &[usize],
) -> Result<NestedLayout<L>, AlgebraError> {
    let rank = a.rank();
    if tiler.len() > rank || tile.len() != tiler.len() {
        return Err(AlgebraError::TilerRank {
            modes: if tiler.len() > rank {
                tiler.len()
            } else {
                tile.len()
            },
            rank: if tiler.len() > rank {
                rank
            } else {
                tiler.len()
            },
        });
    }
    let mut out = Builder::new();
    out.open();
    let mut offset = a.offset();
    let mut k = 0;
    while k < tiler.len() {
        let (Some(t), Some(c)) = (get(tiler, k), get(tile, k)) else {
            break;
        };
        let (inner, rest) = tri!(split_mode(a, k, &t));
        offset = tri!(shifted(offset, &rest, c, k));
        out.whole(&inner);
        k = k.saturating_add(1);
    }
    rest_from(out, a, k, offset)
}

/// `out` (an open tuple) with `a`'s modes from `k` on, closed, at `offset` with `a`'s element
/// size.
const fn rest_from<const L: usize>(
    mut out: Builder<L>,
    a: &NestedLayout<L>,
    k: usize,
    offset: isize,
) -> Result<NestedLayout<L>, AlgebraError> {
    let mut k = k;
    while k < a.rank() {
        out.mode_of(a, k);
        k = k.saturating_add(1);
    }
    out.close();
    Ok(nested!(out.finish(offset, a.itemsize())))
}

/// CuTe's `local_partition(a, threads, t)` on a layout: the elements thread `t` owns when the
/// threads (`threads` maps a thread's coordinate to its index, one mode per mode of `a`) tile
/// `a` over and over. Mode `k` of `a` is divided into tiles of `size(threads mode k)`; the
/// thread's coordinate in `threads` picks its element of each tile, and the result walks the
/// tiles: mode `k` of the result is mode `k`'s tile count, with `a`'s modes past the threads'
/// kept whole. Its offset is the thread's first element.
///
/// ```text
/// a = (4,6):(1,4)   threads = (2,3):(3,1)   thread 4 at coordinate (1, 1) (4 = 1·3 + 1·1)
///  . . . . . .       its elements (2,2):(2,12) from offset 1 + 4 = 5:
///  . # . . # .         rows 1, 3 of columns 1, 4
///  . . . . . .
///  . # . . # .
/// ```
///
/// # Errors
///
/// - [`AlgebraError::TilerRank`] if `threads` has more modes than `a`;
/// - [`AlgebraError::ThreadOutOfRange`] if no coordinate of `threads` maps to `t`;
/// - [`AlgebraError::CoordinateOffset`], [`AlgebraError::NegativeStride`],
///   [`AlgebraError::PartialBlock`], [`AlgebraError::ZeroExtent`] for `threads`;
/// - as [`logical_divide`] for each mode (a mode of `a` that the
///   threads' mode does not divide).
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<8> = "(4,6):(1,4)".parse()?;
/// let threads: NestedLayout<8> = "(2,3):(3,1)".parse()?;
/// let mine = algebra::local_partition(&a, &threads, 4)?;
/// assert_eq!(mine.to_string(), "(2,2):(2,12) +5");
/// // The six threads own every element once.
/// let mut seen = [0; 24];
/// for t in 0..6 {
///     let p = algebra::local_partition(&a, &threads, t)?;
///     for i in 0..p.size() {
///         seen[p.offset_of_linear(i)? as usize] += 1;
///     }
/// }
/// assert!(seen.iter().all(|&n| n == 1));
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn local_partition<const L: usize>(
    a: &NestedLayout<L>,
    threads: &NestedLayout<L>,
    t: usize,
) -> Result<NestedLayout<L>, AlgebraError> {
    let rank = a.rank();
    let modes = threads.rank();
    if modes > rank {
        return Err(AlgebraError::TilerRank { modes, rank });
    }
    tri!(whole_threads(threads));
    if !tri!(owns(threads, t)) {
        return Err(AlgebraError::ThreadOutOfRange {
            thread: t,
            threads: threads.size(),
        });
    }
    let mut out = Builder::new();
    out.open();
    let mut offset = a.offset();
    let mut k = 0;
    while k < modes {
        let m = tri!(mode(threads, k));
        let c = coordinate_of(&m, t);
        let mut b = Builder::new();
        b.leaf(m.size(), 1);
        let tile = nested!(b.finish(0, 1));
        let (inner, rest) = tri!(split_mode(a, k, &tile));
        offset = tri!(shifted(offset, &inner, c, k));
        out.whole(&rest);
        k = k.saturating_add(1);
    }
    rest_from(out, a, k, offset)
}

/// Leaf coordinate of `t` under a leaf of extent `e` and stride `s` (CuTe's `idx2crd`:
/// `(t / s) % e`; 0 for a stride 0).
const fn leaf_coordinate(t: usize, e: usize, s: isize) -> usize {
    if s <= 0 {
        return 0;
    }
    match t.checked_div(s.unsigned_abs()) {
        Some(q) => match q.checked_rem(e) {
            Some(r) => r,
            None => 0,
        },
        None => 0,
    }
}

/// Thread `t`'s 1-D coordinate in the mode `m` of the threads: its leaves' coordinates
/// ([`leaf_coordinate`]), the first leaf fastest.
const fn coordinate_of<const L: usize>(m: &NestedLayout<L>, t: usize) -> usize {
    let (e, s) = (m.leaf_extents(), m.leaf_strides());
    let mut c = 0usize;
    let mut scale = 1usize;
    let mut j = 0;
    while j < e.len() {
        let (Some(e), Some(s)) = (get(e, j), get(s, j)) else {
            break;
        };
        c = c.saturating_add(leaf_coordinate(t, e, s).saturating_mul(scale));
        scale = scale.saturating_mul(e);
        j = j.saturating_add(1);
    }
    c
}

/// Whether the coordinate CuTe's `idx2crd` gives thread `t` in `threads` maps back to `t`:
/// `threads` reaches `t`.
const fn owns<const L: usize>(threads: &NestedLayout<L>, t: usize) -> Result<bool, AlgebraError> {
    if threads.offset() != 0 {
        return Err(AlgebraError::CoordinateOffset);
    }
    let (e, s) = (threads.leaf_extents(), threads.leaf_strides());
    let mut back: usize = 0;
    let mut j = 0;
    while j < e.len() {
        let (Some(e), Some(s)) = (get(e, j), get(s, j)) else {
            break;
        };
        if s < 0 {
            return Err(AlgebraError::NegativeStride);
        }
        let x = leaf_coordinate(t, e, s);
        back = back.saturating_add(x.saturating_mul(s.unsigned_abs()));
        j = j.saturating_add(1);
    }
    Ok(back == t)
}
