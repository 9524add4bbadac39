//! The algebra by mode: a tiler (CuTe's `Tile<L0, L1, ..>`, here a slice of layouts) applies
//! its layout `k` to mode `k` of the left operand; the divides and products then gather the
//! tiles' modes and the rests' modes as CuTe's `zip2_by` does.

use super::{AlgebraError, composition, joined, logical_divide, logical_product, mode};
use crate::algo::access::get;
use crate::algo::checked::tri;
use crate::nested::{Builder, NestedLayout};

/// Unwraps a nested layout's `Result` in a `const fn`, its error as [`AlgebraError::Nested`].
macro_rules! nested {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(e) => return Err(AlgebraError::Nested(e)),
        }
    };
}

/// The operation applied to each mode.
#[derive(Clone, Copy)]
enum Op {
    Compose,
    Divide,
    Product,
}

/// `(op(a_0, t_0), .., op(a_{k-1}, t_{k-1}))`, then `a`'s other modes when `keep_rest` (CuTe's
/// `transform_layout` of the two, which composition calls dropping them); a tuple even of one
/// mode, with `a`'s offset and element size.
const fn by_mode<const L: usize>(
    a: &NestedLayout<L>,
    tiler: &[NestedLayout<L>],
    op: Op,
    keep_rest: bool,
) -> Result<NestedLayout<L>, AlgebraError> {
    let rank = a.rank();
    if tiler.len() > rank {
        return Err(AlgebraError::TilerRank {
            modes: tiler.len(),
            rank,
        });
    }
    let mut out = Builder::new();
    out.open();
    let mut k = 0;
    while k < tiler.len() {
        let Some(t) = get(tiler, k) else {
            break;
        };
        let m = tri!(mode(a, k));
        let r = tri!(match op {
            Op::Compose => composition(&m, &t),
            Op::Divide => logical_divide(&m, &t),
            Op::Product => logical_product(&m, &t),
        });
        out.whole(&r);
        k = k.saturating_add(1);
    }
    if keep_rest {
        while k < rank {
            out.mode_of(a, k);
            k = k.saturating_add(1);
        }
    }
    out.close();
    Ok(nested!(out.finish(a.offset(), a.itemsize())))
}

/// CuTe's `composition(a, make_tile(b_0, b_1, ..))`: mode `k` of `a` composed with `b_k`, each
/// as [`composition`]; `a`'s modes past the tiler are dropped, as CuTe
/// drops them. The result is a tuple of `tiler.len()` modes.
///
/// ```text
/// a = (8,6):(1,8)   tiler = [4:2, 3:1]    (4:2 ∘ mode 0, 3:1 ∘ mode 1) = (4,3):(2,8)
/// ```
///
/// # Errors
///
/// [`AlgebraError::TilerRank`] if the tiler has more layouts than `a` has modes; as
/// [`composition`] for each mode.
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<4> = "(8,6):(1,8)".parse()?;
/// let tiler: [NestedLayout<4>; 2] = ["4:2".parse()?, "3:1".parse()?];
/// let c = algebra::composition_by_mode(&a, &tiler)?;
/// assert_eq!(c.to_string(), "(4,3):(2,8)"); // every other row of the first 3 columns
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn composition_by_mode<const L: usize>(
    a: &NestedLayout<L>,
    tiler: &[NestedLayout<L>],
) -> Result<NestedLayout<L>, AlgebraError> {
    by_mode(a, tiler, Op::Compose, false)
}

/// CuTe's `logical_divide(a, make_tile(b_0, b_1, ..))`: mode `k` of `a` divided by `b_k`, each
/// as [`logical_divide`] (a rank-2 `(tile, rest)` mode); `a`'s other
/// modes kept.
///
/// ```text
/// a = (8,6):(1,8)   tiler = [2:1, 3:1]    ((2,4),(3,2)):((1,2),(8,24))
/// ```
///
/// # Errors
///
/// [`AlgebraError::TilerRank`]; as [`logical_divide`] for each mode.
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<8> = "(8,6):(1,8)".parse()?;
/// let tiler: [NestedLayout<8>; 2] = ["2:1".parse()?, "3:1".parse()?];
/// let d = algebra::logical_divide_by_mode(&a, &tiler)?;
/// assert_eq!(d.to_string(), "((2,4),(3,2)):((1,2),(8,24))");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn logical_divide_by_mode<const L: usize>(
    a: &NestedLayout<L>,
    tiler: &[NestedLayout<L>],
) -> Result<NestedLayout<L>, AlgebraError> {
    by_mode(a, tiler, Op::Divide, true)
}

/// CuTe's `logical_product(a, make_tile(b_0, b_1, ..))`: mode `k` of `a` times `b_k`, each as
/// [`logical_product`]; `a`'s other modes kept.
///
/// ```text
/// a = (2,3):(1,2)   tiler = [4:1]     ((2,4),3):((1,2),2)  (mode 0's copies; mode 1 as it was)
/// ```
///
/// # Errors
///
/// [`AlgebraError::TilerRank`]; as [`logical_product`] for each mode.
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<8> = "(2,3):(1,2)".parse()?;
/// let p = algebra::logical_product_by_mode(&a, &["4:1".parse()?])?;
/// assert_eq!(p.to_string(), "((2,4),3):((1,2),2)");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn logical_product_by_mode<const L: usize>(
    a: &NestedLayout<L>,
    tiler: &[NestedLayout<L>],
) -> Result<NestedLayout<L>, AlgebraError> {
    by_mode(a, tiler, Op::Product, true)
}

/// `d` (a by-mode divide or product of `k` modes, each `(tile, rest)`, then the rest of the
/// operand) gathered as CuTe's `zip2_by`: `((tile_0, .., tile_{k-1}), (rest_0, .., rest_{k-1},
/// a_k, ..))`, then with the first or second of the two spliced into the top level.
const fn gather<const L: usize>(
    d: &NestedLayout<L>,
    k: usize,
    splice_first: bool,
    splice_second: bool,
) -> Result<NestedLayout<L>, AlgebraError> {
    let rank = d.rank();
    let mut tiles = Builder::new();
    let mut rests = Builder::new();
    tiles.open();
    rests.open();
    let mut i = 0;
    while i < rank {
        let m = tri!(mode(d, i));
        if i < k {
            tiles.mode_of(&m, 0);
            rests.mode_of(&m, 1);
        } else {
            rests.whole(&m);
        }
        i = i.saturating_add(1);
    }
    tiles.close();
    rests.close();
    let tiles = nested!(tiles.finish(0, 1));
    let rests = nested!(rests.finish(0, 1));
    joined(&tiles, &rests, [splice_first, splice_second], d)
}

/// CuTe's `zipped_divide(a, make_tile(b_0, ..))`: [`logical_divide_by_mode`] with the tiles
/// gathered in mode 0 and the rests (and `a`'s other modes) in mode 1:
/// `((tile_0, tile_1, ..), (rest_0, rest_1, .., a_k, ..))`. Mode 0 walks one tile, mode 1 the
/// tiles.
///
/// ```text
/// a = (8,6):(1,8)   tiler = [2:1, 3:1]    ((2,3),(4,2)):((1,8),(2,24))
/// ```
///
/// # Errors
///
/// As [`logical_divide_by_mode`].
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<8> = "(8,6):(1,8)".parse()?;
/// let tiler: [NestedLayout<8>; 2] = ["2:1".parse()?, "3:1".parse()?];
/// let d = algebra::zipped_divide_by_mode(&a, &tiler)?;
/// assert_eq!(d.to_string(), "((2,3),(4,2)):((1,8),(2,24))");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn zipped_divide_by_mode<const L: usize>(
    a: &NestedLayout<L>,
    tiler: &[NestedLayout<L>],
) -> Result<NestedLayout<L>, AlgebraError> {
    let d = tri!(logical_divide_by_mode(a, tiler));
    gather(&d, tiler.len(), false, false)
}

/// CuTe's `tiled_divide(a, make_tile(b_0, ..))`: [`zipped_divide_by_mode`] with mode 1's modes
/// brought to the top: `((tile_0, tile_1, ..), rest_0, rest_1, .., a_k, ..)`.
///
/// ```text
/// a = (8,6):(1,8)   tiler = [2:1, 3:1]    ((2,3),4,2):((1,8),2,24)
/// ```
///
/// # Errors
///
/// As [`logical_divide_by_mode`].
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<8> = "(8,6):(1,8)".parse()?;
/// let tiler: [NestedLayout<8>; 2] = ["2:1".parse()?, "3:1".parse()?];
/// let d = algebra::tiled_divide_by_mode(&a, &tiler)?;
/// assert_eq!(d.to_string(), "((2,3),4,2):((1,8),2,24)");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn tiled_divide_by_mode<const L: usize>(
    a: &NestedLayout<L>,
    tiler: &[NestedLayout<L>],
) -> Result<NestedLayout<L>, AlgebraError> {
    let d = tri!(logical_divide_by_mode(a, tiler));
    gather(&d, tiler.len(), false, true)
}

/// CuTe's `flat_divide(a, make_tile(b_0, ..))`: [`zipped_divide_by_mode`] with both modes'
/// modes brought to the top: `(tile_0, tile_1, .., rest_0, rest_1, .., a_k, ..)`.
///
/// ```text
/// a = (8,6):(1,8)   tiler = [2:1, 3:1]    (2,3,4,2):(1,8,2,24)
/// ```
///
/// # Errors
///
/// As [`logical_divide_by_mode`].
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<8> = "(8,6):(1,8)".parse()?;
/// let tiler: [NestedLayout<8>; 2] = ["2:1".parse()?, "3:1".parse()?];
/// let d = algebra::flat_divide_by_mode(&a, &tiler)?;
/// assert_eq!(d.to_string(), "(2,3,4,2):(1,8,2,24)");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn flat_divide_by_mode<const L: usize>(
    a: &NestedLayout<L>,
    tiler: &[NestedLayout<L>],
) -> Result<NestedLayout<L>, AlgebraError> {
    let d = tri!(logical_divide_by_mode(a, tiler));
    gather(&d, tiler.len(), true, true)
}

/// CuTe's `zipped_product(a, make_tile(b_0, ..))`: [`logical_product_by_mode`] gathered as
/// [`zipped_divide_by_mode`] gathers: `((a_0, a_1, ..), (copies_0, copies_1, .., a_k, ..))`.
/// Each mode's copies lie in that mode's own codomain, as CuTe's product by mode computes them
/// (mode 1 of `(2,3):(1,2)` is `3:2`, whose copies by `2:1` fill its gaps: `2:1`).
///
/// ```text
/// a = (2,3):(1,2)   tiler = [2:1, 2:1]    ((2,3),(2,2)):((1,2),(2,1))
/// ```
///
/// # Errors
///
/// As [`logical_product_by_mode`].
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<8> = "(2,3):(1,2)".parse()?;
/// let tiler: [NestedLayout<8>; 2] = ["2:1".parse()?, "2:1".parse()?];
/// let p = algebra::zipped_product_by_mode(&a, &tiler)?;
/// assert_eq!(p.to_string(), "((2,3),(2,2)):((1,2),(2,1))");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn zipped_product_by_mode<const L: usize>(
    a: &NestedLayout<L>,
    tiler: &[NestedLayout<L>],
) -> Result<NestedLayout<L>, AlgebraError> {
    let p = tri!(logical_product_by_mode(a, tiler));
    gather(&p, tiler.len(), false, false)
}

/// CuTe's `tiled_product(a, make_tile(b_0, ..))`: [`zipped_product_by_mode`] with mode 1's
/// modes brought to the top: `((a_0, a_1, ..), copies_0, copies_1, .., a_k, ..)`.
///
/// ```text
/// a = (2,3):(1,2)   tiler = [2:1, 2:1]    ((2,3),2,2):((1,2),2,1)
/// ```
///
/// # Errors
///
/// As [`logical_product_by_mode`].
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<8> = "(2,3):(1,2)".parse()?;
/// let tiler: [NestedLayout<8>; 2] = ["2:1".parse()?, "2:1".parse()?];
/// let p = algebra::tiled_product_by_mode(&a, &tiler)?;
/// assert_eq!(p.to_string(), "((2,3),2,2):((1,2),2,1)");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn tiled_product_by_mode<const L: usize>(
    a: &NestedLayout<L>,
    tiler: &[NestedLayout<L>],
) -> Result<NestedLayout<L>, AlgebraError> {
    let p = tri!(logical_product_by_mode(a, tiler));
    gather(&p, tiler.len(), false, true)
}
