//! CuTe's layout algebra over [`NestedLayout`]: coalesce, composition, complement, the
//! inverses, the divides and the products, each a `const fn` with CuTe's semantics and names.
//!
//! A layout is a function from coordinates to offsets; the algebra builds new functions from
//! old ones, which is how CuTe tiles a tensor for a GPU kernel (a block tile, its warps,
//! their threads). Here it runs at compile time in `const` items, so a kernel's tiling is
//! computed and checked by the compiler, or at run time without allocating.
//!
//! | function | CuTe | what it gives |
//! | --- | --- | --- |
//! | [`coalesce`] | `coalesce(a)` | the same function with the fewest modes, flat |
//! | [`composition`] | `composition(a, b)`, `a ∘ b` | `i ↦ a(b(i))`, shaped as `b` |
//! | [`complement`] | `complement(a, n)` | the offsets below `n` that `a` skips, as a layout |
//! | [`right_inverse`], [`left_inverse`] | same | `a(r(i)) == i`; `l(a(i)) == i` |
//! | [`logical_divide`] | same | `a` cut into tiles of `b`: `(tile, rest)` |
//! | [`zipped_divide`], [`tiled_divide`], [`flat_divide`] | same | the same, its modes regrouped |
//! | [`logical_product`] | same | `a` repeated as `b` lays out copies: `(a, copies)` |
//! | [`zipped_product`], [`tiled_product`] | same | the same, regrouped |
//! | [`blocked_product`], [`raked_product`] | same | rank-wise: copies side by side, or interleaved |
//! | [`composition_by_mode`], [`logical_divide_by_mode`], .. | with a tiler `make_tile(b0, b1, ..)` | the same, mode `k` by `b_k` |
//! | [`local_tile`], [`local_partition`] | same | a thread block's tile; a thread's elements |
//! | [`Swizzle`], [`SwizzledLayout`] | `Swizzle<B,M,S>`, `composition(Swizzle, Layout)` | XOR-swizzled offsets, a warp's bank conflicts |
//! | [`same_function`] | `a == b` after coalescing | whether two layouts are one function |
//!
//! ```
//! use strided_layout::algebra::{self, const_unwrap};
//! use strided_layout::nested::{self, NestedLayout};
//! // An 8 × 8 column-major tile cut into 2 × 4 blocks (CuTe: logical_divide(a, b)).
//! const A: NestedLayout<8> = nested::const_unwrap(NestedLayout::parse("(8,8):(1,8)"));
//! const B: NestedLayout<8> = nested::const_unwrap(NestedLayout::parse("(2,4):(1,8)"));
//! const D: NestedLayout<8> = const_unwrap(algebra::logical_divide(&A, &B));
//! assert_eq!(D.to_string(), "((2,4),(4,2)):((1,8),(2,32))");
//! ```
//!
//! # Conventions
//!
//! - Results follow CuTe 4.2's (CUTLASS 4.2) forms mode for mode, checked against CuTe's own
//!   answers (`tests/algebra.rs`, a corpus CuTe's headers wrote). Each function's docs give
//!   its CuTe definition.
//! - The layout that holds data (the left operand; a product's block) keeps its offset and
//!   element size in the result. Layouts used as maps of coordinates (a composition's right
//!   operand, a tiler) must have offset 0 ([`AlgebraError::CoordinateOffset`]); their element
//!   size takes no part. Complements and inverses are maps of coordinates: offset 0, element
//!   size 1, computed from the strides alone.
//! - Every result has the operands' capacity `L`; a result with more leaves or tuples is
//!   [`AlgebraError::Nested`] with [`NestedError::TooManyLeaves`](crate::nested::NestedError::TooManyLeaves)
//!   or `TooManyModes`.
//! - Partial last blocks (this crate's cut tuples, `(4,3)|10`) take part where the result is
//!   the same function: [`coalesce`] of a layout cut at its root (its coordinates are the
//!   first of its uncut form's; the result is cut, or shortened, to as many), [`coalesce_modes`]
//!   of modes cut each at their own root, and [`composition`] with a cut right operand (its
//!   cuts kept: each of its leaves becomes a mode of the same size) or a left operand cut at
//!   its root that the right operand stays inside. Everything else divides whole modes, as
//!   CuTe's definitions do, and refuses a cut ([`AlgebraError::PartialBlock`]).
//! - Where CuTe refuses an input at compile time (a `static_assert`), the function returns the
//!   error naming the same rule; where CuTe's weak divisibility condition lets an input through
//!   whose result is not the functional composition (`composition((3,2):(0,1), (2,2):(1,2))`),
//!   the result is CuTe's, as CuTe computes it.
//!
//! The guide [`doc::algebra`](crate::doc::algebra) walks a GEMM's tiling with these.

#![expect(
    clippy::many_single_char_names,
    reason = "CuTe's names: `a` and `b` the operands, `c` a complement, `d` a divide, `e` an extent, `s` a stride"
)]

mod error;
mod flat;
mod tiler;
mod partition;
mod swizzle;

pub use error::{AlgebraError, const_unwrap};
pub use partition::{local_partition, local_tile};
pub use swizzle::{Swizzle, SwizzledLayout};
pub use tiler::{
    composition_by_mode, flat_divide_by_mode, logical_divide_by_mode, logical_product_by_mode,
    tiled_divide_by_mode, tiled_product_by_mode, zipped_divide_by_mode, zipped_product_by_mode,
};

use flat::Flat;

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

/// Refuses operands the algebra does not take: a partial last block, an extent 0.
pub(super) const fn whole<const L: usize>(a: &NestedLayout<L>) -> Result<(), AlgebraError> {
    if a.has_cut() {
        return Err(AlgebraError::PartialBlock);
    }
    no_zero_extent(a)
}

/// Refuses an extent 0: the algebra divides by extents.
const fn no_zero_extent<const L: usize>(a: &NestedLayout<L>) -> Result<(), AlgebraError> {
    let e = a.leaf_extents();
    let mut i = 0;
    while i < e.len() {
        if let Some(0) = crate::algo::access::get(e, i) {
            return Err(AlgebraError::ZeroExtent);
        }
        i = i.saturating_add(1);
    }
    Ok(())
}

/// The cut of `a`'s root (0: none; the layout's coordinates are then the first `cut` of its
/// uncut form, whose function they keep), refusing a cut inside a mode and an extent 0.
const fn root_cut<const L: usize>(a: &NestedLayout<L>) -> Result<usize, AlgebraError> {
    tri!(no_zero_extent(a));
    match a.cuts() {
        (_, true) => Err(AlgebraError::PartialBlock),
        (root, false) => Ok(root),
    }
}

/// [`whole`], and offset 0: a layout used as a map of coordinates.
const fn coordinates<const L: usize>(b: &NestedLayout<L>) -> Result<(), AlgebraError> {
    tri!(whole(b));
    if b.offset() != 0 {
        return Err(AlgebraError::CoordinateOffset);
    }
    Ok(())
}

/// [`whole`], and no negative stride.
const fn non_negative<const L: usize>(a: &NestedLayout<L>) -> Result<(), AlgebraError> {
    tri!(whole(a));
    let s = a.leaf_strides();
    let mut i = 0;
    while i < s.len() {
        if let Some(v) = crate::algo::access::get(s, i) {
            if v < 0 {
                return Err(AlgebraError::NegativeStride);
            }
        }
        i = i.saturating_add(1);
    }
    Ok(())
}

/// One flat layout (an integral one for one mode) with `offset` and `itemsize`.
const fn from_flat<const L: usize>(
    f: &Flat<L>,
    offset: isize,
    itemsize: usize,
) -> Result<NestedLayout<L>, AlgebraError> {
    let mut b = Builder::new();
    f.emit(&mut b);
    Ok(nested!(b.finish(offset, itemsize)))
}

/// Writes `left ∘ right` into `b`: `right`'s nesting and cuts, each of its leaves replaced by
/// the composition of `left` (flattened by [`Flat::coalesced_keeping_last`]) with that leaf
/// (a mode of the same size, so a cut keeps its meaning).
const fn compose_into<const L: usize>(
    b: &mut Builder<L>,
    left: &Flat<L>,
    right: &NestedLayout<L>,
) -> Result<(), AlgebraError> {
    let (e, s) = (right.leaf_extents(), right.leaf_strides());
    let mut tuple = 0;
    let mut i = 0;
    while i < e.len() {
        let (opens, closes) = right.leaf_nesting(i);
        let (Some(rs), Some(rd)) = (
            crate::algo::access::get(e, i),
            crate::algo::access::get(s, i),
        ) else {
            break;
        };
        let mut k = 0;
        while k < opens {
            b.open_cut(right.tuple_cut(tuple));
            tuple = tuple.saturating_add(1);
            k = k.saturating_add(1);
        }
        let part = tri!(left.compose_leaf(rs, rd, i));
        part.emit(b);
        let mut k = 0;
        while k < closes {
            b.close();
            k = k.saturating_add(1);
        }
        i = i.saturating_add(1);
    }
    Ok(())
}

/// CuTe's `coalesce`: the same function of the coordinates `0..size`, with the fewest modes,
/// flat (an integral layout when one mode is left). Extent-1 modes are dropped and a mode
/// whose stride is the previous one's extent times its stride merges into it; `1:0` when
/// nothing is left. The offset and element size are kept.
///
/// ```text
/// ((2,4),(3,2)):((1,2),(16,48))   coalesce   (8,6):(1,16)
/// offset_of_linear(i)                ==      offset_of_linear(i)     for every i < 48
/// ```
///
/// A layout cut at its root (its last block partial) is coalesced uncut, then cut to as many
/// coordinates: `(4,3)|10:(1,4)` is `10:1`, `(4,3)|10:(1,5)` stays `(4,3)|10:(1,5)`.
///
/// # Errors
///
/// [`AlgebraError::PartialBlock`] for a partial last block inside a mode (its coordinates are
/// not those of the uncut layout), [`AlgebraError::ZeroExtent`] for an extent 0.
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<4> = "((2,4),(3,2)):((1,2),(16,48))".parse()?;
/// let c = algebra::coalesce(&a)?;
/// assert_eq!(c.to_string(), "(8,6):(1,16)");
/// assert!((0..48).all(|i| c.offset_of_linear(i) == a.offset_of_linear(i)));
/// // 10 channels in blocks of 4 that follow each other: 10 in a row.
/// let cut: NestedLayout<4> = "(4,3)|10:(1,4)".parse()?;
/// assert_eq!(algebra::coalesce(&cut)?.to_string(), "10:1");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn coalesce<const L: usize>(
    a: &NestedLayout<L>,
) -> Result<NestedLayout<L>, AlgebraError> {
    let cut = tri!(root_cut(a));
    let f = tri!(tri!(Flat::leaves(a)).coalesced());
    let mut b = Builder::new();
    f.emit_cut(&mut b, cut);
    Ok(nested!(b.finish(a.offset(), a.itemsize())))
}

/// CuTe's `coalesce` by mode (a profile of ones, `coalesce(a, Step<_1,_1,..>{})`): each
/// top-level mode coalesced on its own, so the rank is kept.
///
/// ```text
/// ((2,4),(3,2)):((1,2),(16,48))   coalesce_modes   (8,6):(1,16)
/// ((2,2),3):((1,2),8)             coalesce_modes   (4,3):(1,8)
/// ```
///
/// # Errors
///
/// As [`coalesce`] for each mode (a mode cut at its own root is coalesced as [`coalesce`]
/// does); [`AlgebraError::PartialBlock`] if the layout itself is cut (the cut spans its
/// modes); [`AlgebraError::Nested`] if the result does not fit `L`.
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<4> = "((2,2),3):((1,2),4)".parse()?;
/// // Coalesced whole, it is one mode; by mode, it keeps its two.
/// assert_eq!(algebra::coalesce(&a)?.to_string(), "12:1");
/// assert_eq!(algebra::coalesce_modes(&a)?.to_string(), "(4,3):(1,4)");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn coalesce_modes<const L: usize>(
    a: &NestedLayout<L>,
) -> Result<NestedLayout<L>, AlgebraError> {
    if a.depth() == 0 {
        return coalesce(a);
    }
    tri!(no_zero_extent(a));
    if a.cuts().0 != 0 {
        // The cut spans the modes: coalescing one alone would change which coordinates exist.
        return Err(AlgebraError::PartialBlock);
    }
    let mut b = Builder::new();
    b.open();
    let rank = a.rank();
    let mut k = 0;
    while k < rank {
        let m = tri!(mode(a, k));
        let cut = tri!(root_cut(&m));
        let f = tri!(tri!(Flat::leaves(&m)).coalesced());
        f.emit_cut(&mut b, cut);
        k = k.saturating_add(1);
    }
    b.close();
    Ok(nested!(b.finish(a.offset(), a.itemsize())))
}

/// Top-level mode `k` of `a` as a layout of its own (offset 0, element size 1).
pub(super) const fn mode<const L: usize>(
    a: &NestedLayout<L>,
    k: usize,
) -> Result<NestedLayout<L>, AlgebraError> {
    let mut b = Builder::new();
    b.mode_of(a, k);
    Ok(nested!(b.finish(0, 1)))
}

/// CuTe's `composition(a, b)`, `a ∘ b`: the layout whose coordinate `i` has offset
/// `a(b(i))`, shaped as `b` (its nesting kept, each leaf of `b` replaced by the modes of `a`
/// it walks through). `b`'s coordinates past `a`'s size continue along `a`'s last mode.
///
/// ```text
/// a = (4,6):(1,4)  (a 4 × 6 column-major matrix)     b = (2,3):(1,4)
/// a ∘ b = (2,3):(1,4)  (rows 0..2 of columns 0..3)
/// offset_of_linear(i) of a ∘ b  ==  a.offset_of_linear(b.offset_of_linear(i))
/// ```
///
/// # Errors
///
/// - [`AlgebraError::StrideDivisibility`], [`AlgebraError::ShapeDivisibility`]: a leaf of `b`
///   does not walk through `a`'s modes evenly (CuTe's conditions, with the leaf);
/// - [`AlgebraError::CoordinateOffset`] if `b` has an offset;
/// - [`AlgebraError::PartialBlock`] if `a` has a partial last block inside a mode, or is cut
///   at its root and `b` reaches a coordinate past the cut (a cut `b` is fine: its cuts are
///   kept); [`AlgebraError::ZeroExtent`] for either operand;
/// - [`AlgebraError::Nested`] if the result does not fit `L` or its offsets `isize`.
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<4> = "(4,6):(1,4)".parse()?;
/// let b: NestedLayout<4> = "(2,3):(1,4)".parse()?;
/// let c = algebra::composition(&a, &b)?;
/// assert_eq!(c.to_string(), "(2,3):(1,4)");
/// for i in 0..6 {
///     let through_b = b.offset_of_linear(i)?.unsigned_abs();
///     assert_eq!(c.offset_of_linear(i)?, a.offset_of_linear(through_b)?);
/// }
/// // Column-major (4,6) composed with a row-major view of its 24 offsets: a transpose.
/// let t = algebra::composition(&a, &"(6,4):(4,1)".parse()?)?;
/// assert_eq!(t.to_string(), "(6,4):(4,1)");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn composition<const L: usize>(
    a: &NestedLayout<L>,
    b: &NestedLayout<L>,
) -> Result<NestedLayout<L>, AlgebraError> {
    let cut = tri!(root_cut(a));
    tri!(no_zero_extent(b));
    if b.offset() != 0 {
        return Err(AlgebraError::CoordinateOffset);
    }
    if cut != 0 {
        // `a` is its uncut form on its first `cut` coordinates: `b` must stay among them.
        match b.offset_bounds() {
            Some((lo, hi)) if lo >= 0 && hi.unsigned_abs() < cut => {}
            Some(_) => return Err(AlgebraError::PartialBlock),
            None => {}
        }
    }
    let left = tri!(Flat::coalesced_keeping_last(a));
    let mut out = Builder::new();
    tri!(compose_into(&mut out, &left, b));
    Ok(nested!(out.finish(a.offset(), a.itemsize())))
}

/// The extents of `coalesce(a)` and how many there are: the codomain a divide's complement
/// covers.
const fn coalesced_shape<const L: usize>(
    a: &NestedLayout<L>,
) -> Result<([usize; L], usize), AlgebraError> {
    let f = tri!(tri!(Flat::leaves(a)).coalesced());
    let mut s = [1usize; L];
    let mut i = 0;
    while i < f.len() {
        crate::algo::access::set(&mut s, i, f.at(i).0);
        i = i.saturating_add(1);
    }
    Ok((s, f.len()))
}

/// CuTe's `complement(a, cosize)`: the layout of the offsets below `cosize` that `a` does not
/// reach, ordered so that `(a, complement(a, cosize))` reaches each of `0..cosize'` once
/// (`cosize'` the next multiple of `a`'s span): the gaps between `a`'s modes by increasing
/// stride, then copies of the whole up to `cosize`. Coalesced; offset 0, element size 1;
/// `a`'s offset takes no part.
///
/// ```text
/// a = 4:2   (offsets 0 2 4 6)          complement(a, 24) = (2,3):(1,8)
/// (a, complement) = (4,(2,3)):(2,(1,8))  reaches 0..24 once each
/// ```
///
/// # Errors
///
/// - [`AlgebraError::NotInjective`] if two coordinates of `a` share an offset (a stride below
///   the span of the modes under it);
/// - [`AlgebraError::NegativeStride`]; [`AlgebraError::PartialBlock`],
///   [`AlgebraError::ZeroExtent`];
/// - [`AlgebraError::Nested`] if the result does not fit `L`.
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<4> = "4:2".parse()?;
/// let c = algebra::complement(&a, 24)?;
/// assert_eq!(c.to_string(), "(2,3):(1,8)");
/// // Together they reach every offset below 24 once.
/// let mut seen = [0; 24];
/// for i in 0..4 {
///     for j in 0..6 {
///         seen[(a.offset_of_linear(i)? + c.offset_of_linear(j)?) as usize] += 1;
///     }
/// }
/// assert!(seen.iter().all(|&n| n == 1));
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn complement<const L: usize>(
    a: &NestedLayout<L>,
    cosize: usize,
) -> Result<NestedLayout<L>, AlgebraError> {
    tri!(non_negative(a));
    let f = tri!(tri!(Flat::leaves(a)).complement(&[cosize]));
    from_flat(&f, 0, 1)
}

/// CuTe's `right_inverse(a)`: a layout `r` with `a(r(i)) == i` for every `i` below its size,
/// the longest such from 0 (the modes of `coalesce(a)` whose strides, by increasing stride,
/// continue one another's span). Offset 0, element size 1; `a`'s offset takes no part.
///
/// ```text
/// a = (4,2):(2,1)    right_inverse(a) = (2,4):(4,1)
/// a(r(i)) == i for i < 8
/// ```
///
/// # Errors
///
/// [`AlgebraError::NegativeStride`], [`AlgebraError::PartialBlock`],
/// [`AlgebraError::ZeroExtent`].
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<4> = "(4,2):(2,1)".parse()?;
/// let r = algebra::right_inverse(&a)?;
/// assert_eq!(r.to_string(), "(2,4):(4,1)");
/// for i in 0..8 {
///     assert_eq!(a.offset_of_linear(r.offset_of_linear(i)? as usize)?, i as isize);
/// }
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn right_inverse<const L: usize>(
    a: &NestedLayout<L>,
) -> Result<NestedLayout<L>, AlgebraError> {
    tri!(non_negative(a));
    let f = tri!(tri!(tri!(Flat::leaves(a)).coalesced()).right_inverse());
    from_flat(&f, 0, 1)
}

/// CuTe's `left_inverse(a)`: a layout `l` with `l(a(i)) == i` for every coordinate `i` of an
/// injective `a` (for any `a`, `a(l(a(i))) == a(i)`). Offset 0, element size 1; `a`'s offset
/// takes no part.
///
/// ```text
/// a = (4,2):(2,1)    left_inverse(a) = (2,4):(4,1)
/// l(a(i)) == i for i < 8
/// ```
///
/// # Errors
///
/// - [`AlgebraError::LeftInverseDivisibility`]: a stride is not a multiple of the sizes of the
///   modes with smaller strides;
/// - [`AlgebraError::NegativeStride`], [`AlgebraError::PartialBlock`],
///   [`AlgebraError::ZeroExtent`].
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<4> = "(4,2):(3,1)".parse()?; // offsets 0 3 6 9, 1 4 7 10
/// let l = algebra::left_inverse(&a)?;
/// for i in 0..8 {
///     assert_eq!(l.offset_of_linear(a.offset_of_linear(i)? as usize)?, i as isize);
/// }
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn left_inverse<const L: usize>(
    a: &NestedLayout<L>,
) -> Result<NestedLayout<L>, AlgebraError> {
    tri!(non_negative(a));
    let f = tri!(tri!(tri!(Flat::leaves(a)).coalesced()).left_inverse());
    from_flat(&f, 0, 1)
}

/// CuTe's `logical_divide(a, b)`: `a` cut into tiles of `b`, as the rank-2 layout
/// `(tile, rest)`: `composition(a, (b, complement(b, shape(coalesce(a)))))`. Mode 0 walks one
/// tile (shaped as `b`), mode 1 the tiles.
///
/// ```text
/// a = 16:1   b = 4:2          logical_divide(a, b) = (4,(2,2)):(2,(1,8))
///  tile 0: offsets 0 2 4 6, tile 1: 1 3 5 7, tile 2: 8 10 12 14, tile 3: 9 11 13 15
/// ```
///
/// # Errors
///
/// As [`composition`] and [`complement`] (for `b`); [`AlgebraError::CoordinateOffset`] if `b`
/// has an offset.
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<4> = "16:1".parse()?;
/// let d = algebra::logical_divide(&a, &"4:2".parse()?)?;
/// assert_eq!(d.to_string(), "(4,(2,2)):(2,(1,8))");
/// assert_eq!(d.offset_of(&[1, 2])?, 2 + 8);
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn logical_divide<const L: usize>(
    a: &NestedLayout<L>,
    b: &NestedLayout<L>,
) -> Result<NestedLayout<L>, AlgebraError> {
    tri!(whole(a));
    tri!(coordinates(b));
    let left = tri!(Flat::coalesced_keeping_last(a));
    let (target, shape_len) = tri!(coalesced_shape(a));
    let Some((target, _)) = target.split_at_checked(shape_len) else {
        return Err(AlgebraError::Nested(
            crate::nested::NestedError::TooManyLeaves { max: L },
        ));
    };
    let rest = tri!(tri!(Flat::leaves(b)).complement(target));
    let mut out = Builder::new();
    out.open();
    tri!(compose_into(&mut out, &left, b));
    let rest = tri!(from_flat(&rest, 0, 1));
    tri!(compose_into(&mut out, &left, &rest));
    out.close();
    Ok(nested!(out.finish(a.offset(), a.itemsize())))
}

/// CuTe's `zipped_divide(a, b)` for a layout `b`: the same as [`logical_divide`] (CuTe gathers
/// the tiles' modes of each operand mode only for a tuple of tilers).
///
/// # Errors
///
/// As [`logical_divide`].
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<4> = "16:1".parse()?;
/// let b: NestedLayout<4> = "4:2".parse()?;
/// assert_eq!(algebra::zipped_divide(&a, &b)?, algebra::logical_divide(&a, &b)?);
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn zipped_divide<const L: usize>(
    a: &NestedLayout<L>,
    b: &NestedLayout<L>,
) -> Result<NestedLayout<L>, AlgebraError> {
    logical_divide(a, b)
}

/// Writes mode `k` of `d` into `out`: spliced (each of its sub-modes a mode of `out`) when it
/// is a tuple of two or more, else whole (CuTe's slice by `repeat<rank>(_)`).
pub(super) const fn splice<const L: usize>(out: &mut Builder<L>, d: &NestedLayout<L>) {
    if d.depth() > 0 && d.rank() >= 2 {
        out.modes_of(d);
    } else {
        out.whole(d);
    }
}

/// CuTe's `tiled_divide(a, b)`: [`zipped_divide`] with its second mode's sub-modes brought to
/// the top: `(tile, rest0, rest1, ..)`.
///
/// ```text
/// a = (8,8):(1,16)   b = 4:1      tiled_divide(a, b) = (4,2,8):(1,4,16)
/// ```
///
/// # Errors
///
/// As [`logical_divide`].
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// // Rows 16 apart: the two modes do not merge, so the tiles' rest keeps both.
/// let a: NestedLayout<4> = "(8,8):(1,16)".parse()?;
/// let d = algebra::tiled_divide(&a, &"4:1".parse()?)?;
/// assert_eq!(d.to_string(), "(4,2,8):(1,4,16)");
/// // Rows 8 apart: `a` is one mode of 64, and so is the rest.
/// let a: NestedLayout<4> = "(8,8):(1,8)".parse()?;
/// assert_eq!(algebra::tiled_divide(&a, &"4:1".parse()?)?.to_string(), "(4,16):(1,4)");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn tiled_divide<const L: usize>(
    a: &NestedLayout<L>,
    b: &NestedLayout<L>,
) -> Result<NestedLayout<L>, AlgebraError> {
    let d = tri!(zipped_divide(a, b));
    regroup(&d, false, true)
}

/// CuTe's `flat_divide(a, b)`: [`zipped_divide`] with both modes' sub-modes brought to the
/// top: `(tile0, tile1, .., rest0, rest1, ..)`.
///
/// ```text
/// a = (8,8):(1,8)   b = (2,2):(1,8)    flat_divide(a, b) = (2,2,4,4):(1,8,2,16)
/// ```
///
/// # Errors
///
/// As [`logical_divide`].
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<8> = "(8,8):(1,8)".parse()?;
/// let d = algebra::flat_divide(&a, &"(2,2):(1,8)".parse()?)?;
/// assert_eq!(d.to_string(), "(2,2,4,4):(1,8,2,16)");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn flat_divide<const L: usize>(
    a: &NestedLayout<L>,
    b: &NestedLayout<L>,
) -> Result<NestedLayout<L>, AlgebraError> {
    let d = tri!(zipped_divide(a, b));
    regroup(&d, true, true)
}

/// The rank-2 `d` with mode 0 (`first`) and mode 1 (`second`) spliced into the top level, as
/// CuTe's slices `d(_, repeat<R1>(_))` and `d(repeat<R0>(_), repeat<R1>(_))` do.
const fn regroup<const L: usize>(
    d: &NestedLayout<L>,
    first: bool,
    second: bool,
) -> Result<NestedLayout<L>, AlgebraError> {
    joined(&tri!(mode(d, 0)), &tri!(mode(d, 1)), [first, second], d)
}

/// `(x, y)`, each spliced into the top level where `splice_them` says (see [`splice`]), with
/// `like`'s offset and element size.
pub(super) const fn joined<const L: usize>(
    x: &NestedLayout<L>,
    y: &NestedLayout<L>,
    splice_them: [bool; 2],
    like: &NestedLayout<L>,
) -> Result<NestedLayout<L>, AlgebraError> {
    let mut out = Builder::new();
    out.open();
    if splice_them[0] {
        splice(&mut out, x);
    } else {
        out.whole(x);
    }
    if splice_them[1] {
        splice(&mut out, y);
    } else {
        out.whole(y);
    }
    out.close();
    Ok(nested!(out.finish(like.offset(), like.itemsize())))
}

/// `1 + Σ (extent - 1)·|stride|` over the leaves: CuTe 4.2's `cosize`.
const fn cute_cosize<const L: usize>(b: &NestedLayout<L>) -> Result<usize, AlgebraError> {
    const OVERFLOW: AlgebraError = AlgebraError::Nested(crate::nested::NestedError::Layout(
        crate::LayoutError::OffsetOverflow,
    ));
    let (e, s) = (b.leaf_extents(), b.leaf_strides());
    let mut c = 1usize;
    let mut i = 0;
    while i < e.len() {
        if let (Some(e), Some(s)) = (
            crate::algo::access::get(e, i),
            crate::algo::access::get(s, i),
        ) {
            let Some(span) = e.saturating_sub(1).checked_mul(s.unsigned_abs()) else {
                return Err(OVERFLOW);
            };
            let Some(sum) = c.checked_add(span) else {
                return Err(OVERFLOW);
            };
            c = sum;
        }
        i = i.saturating_add(1);
    }
    Ok(c)
}

/// `composition(complement(a, size(a)·cosize(b)), b)`: where the copies of a product go.
const fn copies<const L: usize>(
    a: &NestedLayout<L>,
    b: &NestedLayout<L>,
) -> Result<NestedLayout<L>, AlgebraError> {
    let Some(n) = a.size().checked_mul(tri!(cute_cosize(b))) else {
        return Err(AlgebraError::Nested(crate::nested::NestedError::Layout(
            crate::LayoutError::VolumeOverflow,
        )));
    };
    let c = tri!(tri!(Flat::leaves(a)).complement(&[n]));
    let c = tri!(from_flat(&c, 0, 1));
    let left = tri!(Flat::coalesced_keeping_last(&c));
    let mut out = Builder::new();
    tri!(compose_into(&mut out, &left, b));
    Ok(nested!(out.finish(0, 1)))
}

/// CuTe's `logical_product(a, b)`: `a` repeated as `b` lays out copies of it, as the rank-2
/// layout `(a, composition(complement(a, size(a)·cosize(b)), b))`. Mode 0 walks one copy of
/// `a`, mode 1 the copies.
///
/// ```text
/// a = (2,2):(1,2)   b = 3:1      logical_product(a, b) = ((2,2),3):((1,2),4)
/// ```
///
/// # Errors
///
/// As [`complement`] (for `a`) and [`composition`]; [`AlgebraError::CoordinateOffset`] if `b`
/// has an offset.
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<4> = "(2,2):(1,2)".parse()?;
/// let p = algebra::logical_product(&a, &"3:1".parse()?)?;
/// assert_eq!(p.to_string(), "((2,2),3):((1,2),4)");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn logical_product<const L: usize>(
    a: &NestedLayout<L>,
    b: &NestedLayout<L>,
) -> Result<NestedLayout<L>, AlgebraError> {
    tri!(non_negative(a));
    tri!(coordinates(b));
    let c = tri!(copies(a, b));
    let mut out = Builder::new();
    out.open();
    out.whole(a);
    out.whole(&c);
    out.close();
    Ok(nested!(out.finish(a.offset(), a.itemsize())))
}

/// CuTe's `zipped_product(a, b)` for a layout `b`: the same as [`logical_product`].
///
/// # Errors
///
/// As [`logical_product`].
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<4> = "(2,2):(1,2)".parse()?;
/// let b: NestedLayout<4> = "3:1".parse()?;
/// assert_eq!(algebra::zipped_product(&a, &b)?, algebra::logical_product(&a, &b)?);
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn zipped_product<const L: usize>(
    a: &NestedLayout<L>,
    b: &NestedLayout<L>,
) -> Result<NestedLayout<L>, AlgebraError> {
    logical_product(a, b)
}

/// CuTe's `tiled_product(a, b)`: [`zipped_product`] with its second mode's sub-modes brought
/// to the top: `(a, copies0, copies1, ..)`.
///
/// ```text
/// a = (2,2):(1,2)   b = (3,2):(1,3)    tiled_product(a, b) = ((2,2),3,2):((1,2),4,12)
/// ```
///
/// # Errors
///
/// As [`logical_product`].
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<4> = "(2,2):(1,2)".parse()?;
/// let p = algebra::tiled_product(&a, &"(3,2):(1,3)".parse()?)?;
/// assert_eq!(p.to_string(), "((2,2),3,2):((1,2),4,12)");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn tiled_product<const L: usize>(
    a: &NestedLayout<L>,
    b: &NestedLayout<L>,
) -> Result<NestedLayout<L>, AlgebraError> {
    let p = tri!(zipped_product(a, b));
    regroup(&p, false, true)
}

/// `a` as CuTe's `append<r>(a)`: padded with `1:0` modes to rank `r` (an integral `a` stays
/// one leaf for `r == 1`).
const fn padded<const L: usize>(
    a: &NestedLayout<L>,
    r: usize,
) -> Result<NestedLayout<L>, AlgebraError> {
    let rank = a.rank();
    if a.depth() == 0 && r == 1 {
        return Ok(*a);
    }
    let mut out = Builder::new();
    out.open();
    out.modes_of(a);
    let mut k = rank;
    while k < r {
        out.leaf(1, 0);
        k = k.saturating_add(1);
    }
    out.close();
    Ok(nested!(out.finish(a.offset(), a.itemsize())))
}

/// CuTe's `zip(x, y)` of two layouts: `((x, y))` when `x` is integral, else the tuple of the
/// pairs of their top-level modes (both tuples of one rank).
const fn zip<const L: usize>(
    x: &NestedLayout<L>,
    y: &NestedLayout<L>,
    offset: isize,
    itemsize: usize,
) -> Result<NestedLayout<L>, AlgebraError> {
    let mut out = Builder::new();
    out.open();
    if x.depth() == 0 {
        out.open();
        out.whole(x);
        out.whole(y);
        out.close();
    } else {
        if y.depth() == 0 || x.rank() != y.rank() {
            return Err(AlgebraError::RankMismatch);
        }
        let mut k = 0;
        while k < x.rank() {
            out.open();
            out.mode_of(x, k);
            out.mode_of(y, k);
            out.close();
            k = k.saturating_add(1);
        }
    }
    out.close();
    Ok(nested!(out.finish(offset, itemsize)))
}

/// The operands of a rank-sensitive product: `a` and `b` padded to the larger rank, and where
/// the copies go.
const fn rank_product<const L: usize>(
    a: &NestedLayout<L>,
    b: &NestedLayout<L>,
) -> Result<(NestedLayout<L>, NestedLayout<L>), AlgebraError> {
    tri!(non_negative(a));
    tri!(coordinates(b));
    let r = if a.rank() > b.rank() {
        a.rank()
    } else {
        b.rank()
    };
    let a = tri!(padded(a, r));
    let b = tri!(padded(b, r));
    let c = tri!(copies(&a, &b));
    Ok((a, c))
}

/// CuTe's `blocked_product(a, b)`: copies of the block `a` laid out as `b`, mode by mode:
/// with both padded to the larger rank, the product's mode `k` is `(a_k, copies_k)`, so each
/// block stays whole and the blocks sit side by side.
///
/// ```text
/// a = (2,2):(1,2)   b = (2,3):(1,2)    blocked_product(a, b) = ((2,2),(2,3)):((1,4),(2,8))
/// ```
///
/// # Errors
///
/// As [`logical_product`]; [`AlgebraError::RankMismatch`] where CuTe's zip of the two ranks
/// fails (an integral `b` whose copies take more than one mode, against a rank-1 tuple `a`).
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<8> = "(2,2):(1,2)".parse()?;
/// let p = algebra::blocked_product(&a, &"(2,3):(1,2)".parse()?)?;
/// assert_eq!(p.to_string(), "((2,2),(2,3)):((1,4),(2,8))");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn blocked_product<const L: usize>(
    a: &NestedLayout<L>,
    b: &NestedLayout<L>,
) -> Result<NestedLayout<L>, AlgebraError> {
    let (pa, c) = tri!(rank_product(a, b));
    zip(&pa, &c, a.offset(), a.itemsize())
}

/// CuTe's `raked_product(a, b)`: as [`blocked_product`] with each mode's pair the other way
/// round, `(copies_k, a_k)`: the copies interleave, one element of each in turn.
///
/// ```text
/// a = (2,2):(1,2)   b = (2,3):(1,2)    raked_product(a, b) = ((2,2),(3,2)):((4,1),(8,2))
/// ```
///
/// # Errors
///
/// As [`blocked_product`].
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<8> = "(2,2):(1,2)".parse()?;
/// let p = algebra::raked_product(&a, &"(2,3):(1,2)".parse()?)?;
/// assert_eq!(p.to_string(), "((2,2),(3,2)):((4,1),(8,2))");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn raked_product<const L: usize>(
    a: &NestedLayout<L>,
    b: &NestedLayout<L>,
) -> Result<NestedLayout<L>, AlgebraError> {
    let (pa, c) = tri!(rank_product(a, b));
    zip(&c, &pa, a.offset(), a.itemsize())
}

/// Whether `a` and `b` are the same function of the coordinates `0..size`: the same size, and
/// the same [`coalesce`]d modes (the coalesced form is the function's one flat form). Offsets
/// and element sizes must agree too.
///
/// ```text
/// ((2,2),3):((1,2),4)   same function as   12:1   and as   (4,3):(1,4)
/// ```
///
/// # Errors
///
/// As [`coalesce`], for either layout.
///
/// # Examples
///
/// ```
/// use strided_layout::algebra;
/// use strided_layout::nested::NestedLayout;
/// let a: NestedLayout<4> = "((2,2),3):((1,2),4)".parse()?;
/// assert!(algebra::same_function(&a, &"12:1".parse()?)?);
/// assert!(!algebra::same_function(&a, &"(3,4):(4,1)".parse()?)?);
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
pub const fn same_function<const L: usize>(
    a: &NestedLayout<L>,
    b: &NestedLayout<L>,
) -> Result<bool, AlgebraError> {
    if a.size() != b.size() || a.offset() != b.offset() || a.itemsize() != b.itemsize() {
        return Ok(false);
    }
    let x = tri!(coalesce(a));
    let y = tri!(coalesce(b));
    if x.cuts().0 != y.cuts().0 || x.leaves() != y.leaves() {
        return Ok(false);
    }
    let (xe, xs, ye, ys) = (
        x.leaf_extents(),
        x.leaf_strides(),
        y.leaf_extents(),
        y.leaf_strides(),
    );
    let mut i = 0;
    while i < xe.len() {
        let (Some(e0), Some(s0), Some(e1), Some(s1)) = (
            crate::algo::access::get(xe, i),
            crate::algo::access::get(xs, i),
            crate::algo::access::get(ye, i),
            crate::algo::access::get(ys, i),
        ) else {
            return Ok(false);
        };
        // An extent-1 layout's stride is no part of its function.
        if e0 != e1 || (s0 != s1 && e0 != 1) {
            return Ok(false);
        }
        i = i.saturating_add(1);
    }
    Ok(true)
}
