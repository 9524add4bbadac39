//! [`map`] and [`zip_map`]: element-wise functions from one or two layouts into a third.

use crate::LayoutError;
use crate::kernel::mapping::Mapping;
use crate::kernel::plan::Plan;
use crate::kernel::proof::{Across, ONE_SOURCE, TWO_SOURCES, Unique, Windows};
use crate::kernel::raw;

/// Writes `f(src[i])` at every index `i` of `dst_layout`; other elements of `dst` keep their
/// values.
///
/// `f` is called once per index, in the [`Plan`]'s order (not necessarily C order).
///
/// ```text
/// src (3):(-1) +2   [1 2 3]    map(x -> 10x)    dst (3):(1)   [30 20 10]
/// ```
///
/// # Errors
///
/// As [`copy()`](crate::copy): [`LayoutError::ItemsizeMismatch`] (`dst_layout` against `U`,
/// `src_layout` against `T`), [`LayoutError::ShapeMismatch`], the errors of [`Plan::new`]
/// ([`LayoutError::AxisOutOfRange`], [`LayoutError::FactorZero`],
/// [`LayoutError::InterleaveConflict`], [`LayoutError::OffsetOverflow`],
/// [`LayoutError::RankOverflow`]), [`LayoutError::OffsetBelowSlice`] and
/// [`LayoutError::OffsetOutsideSlice`] naming
/// [`Operand::Destination`](crate::Operand::Destination) (`dst`) or [`Operand::Source`](crate::Operand::Source) (`src`),
/// [`LayoutError::DestinationNotUnique`] and [`LayoutError::UniquenessUndecided`].
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError};
/// let src = [1u8, 2, 3];
/// let mut dst = [0f32; 3];
/// let rev = Layout::new([3], [-1], 1)?.with_offset(2)?;
/// strided_layout::map(&src, &rev, &mut dst, &Layout::new([3], [1], 4)?, |x| f32::from(x) * 10.0)?;
/// assert_eq!(dst, [30.0, 20.0, 10.0]);
/// # Ok::<(), LayoutError>(())
/// ```
///
/// # Postconditions
///
/// - `dst[dst_layout.offset_of(i)] == f(src[src_layout.offset_of(i)])` for every index `i`
/// - every other element of `dst` is unchanged; on `Err`, `dst` is unchanged and `f` was
///   never called
pub fn map<T, U, const N: usize, S, D, F>(
    src: &[T],
    src_layout: &S,
    dst: &mut [U],
    dst_layout: &D,
    f: F,
) -> Result<(), LayoutError>
where
    T: Copy + 'static,
    U: Copy,
    S: Mapping<N> + ?Sized,
    D: Mapping<N> + ?Sized,
    F: FnMut(T) -> U,
{
    let mut plan = Plan::empty();
    let (dl, sl) = (dst_layout.lowered(), src_layout.lowered());
    let lens = [dst.len(), src.len()];
    let mut f = f;
    match Unique::plan_one_source::<U, T, N>(&mut plan, dl, sl, lens) {
        Ok(unique) => raw::map(&unique, dst, src, f),
        // More pieces than one plan holds: planned and run a window at a time.
        Err(e) => Windows::after(e, &[dl, sl], lens, ONE_SOURCE, Across::Unique)?
            .each_unique(|unique| raw::map(unique, dst, src, &mut f)),
    }
}

/// Writes `f(a[i], b[i])` at every index `i` of `dst_layout`; other elements of `dst` keep
/// their values.
///
/// The plan weighs the destination most and tiles when an operand's fastest axis differs
/// (`A + Aᵀ`: transposed source tiles are packed on the stack, so each element is read
/// once). `f` is called once per index, in an order that is the plan's or, for tiled
/// operands, tile by tile; do not rely on the order.
///
/// Stack: on targets with an operating system, `A + Aᵀ` itself (`b` is `a`'s slice with the
/// two axes' strides swapped, one element type) of 2 MiB or more of `a` stages each pair of
/// mirrored tiles in three 64 KiB stack tiles, 192 KiB in all, which page-sized row strides
/// need to reach the memory's speed; call it on a thread with at least 256 KiB of stack (a
/// `std` thread has 2 MiB unless told otherwise). On bare metal the tiles are 512 bytes.
///
/// ```text
/// a (2,2):(2,1)   b = a transposed (2,2):(1,2)   a + b
///  1 2             1 3                            2 5
///  3 4             2 4                            5 8
/// ```
///
/// # Errors
///
/// As [`map`], with [`Operand::Destination`](crate::Operand::Destination) (`dst`, against `U`), [`Operand::Source`](crate::Operand::Source)
/// (`a`, against `A`) and [`Operand::SecondSource`](crate::Operand::SecondSource) (`b`, against `B`).
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order};
/// let l = Layout::dense([2, 2], 4, Order::C)?;
/// let a = [1.0f32, 2.0, 3.0, 4.0];
/// let mut sum = [0.0f32; 4];
/// strided_layout::zip_map(&a, &l, &a, &l.transposed(0, 1)?, &mut sum, &l, |x, y| x + y)?;
/// assert_eq!(sum, [2.0, 5.0, 5.0, 8.0]);
/// # Ok::<(), LayoutError>(())
/// ```
///
/// # Postconditions
///
/// - `dst[dst_layout.offset_of(i)] == f(a[a_layout.offset_of(i)], b[b_layout.offset_of(i)])`
///   for every index `i`
/// - every other element of `dst` is unchanged; on `Err`, `dst` is unchanged
pub fn zip_map<A, B, U, const N: usize, LA, LB, D, F>(
    a: &[A],
    a_layout: &LA,
    b: &[B],
    b_layout: &LB,
    dst: &mut [U],
    dst_layout: &D,
    f: F,
) -> Result<(), LayoutError>
where
    A: Copy + 'static,
    B: Copy + 'static,
    U: Copy,
    LA: Mapping<N> + ?Sized,
    LB: Mapping<N> + ?Sized,
    D: Mapping<N> + ?Sized,
    F: FnMut(A, B) -> U,
{
    let ops = [dst_layout.lowered(), a_layout.lowered(), b_layout.lowered()];
    let mut plan = Plan::empty();
    let lens = [dst.len(), a.len(), b.len()];
    let mut f = f;
    match Unique::plan_two_sources::<U, A, B, N>(&mut plan, ops, lens) {
        Ok(unique) => raw::zip_map(&unique, dst, a, b, f),
        Err(e) => Windows::after(e, &ops, lens, TWO_SOURCES, Across::Unique)?
            .each_unique(|unique| raw::zip_map(unique, dst, a, b, &mut f)),
    }
}
