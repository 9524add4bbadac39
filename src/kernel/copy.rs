//! [`copy()`] and [`copy_within`]: move elements from one layout to another.

use core::mem::MaybeUninit;

use crate::LayoutError;
use crate::kernel::mapping::Mapping;
use crate::kernel::plan::Plan;
use crate::kernel::proof::{
    Across, Dense, Disjoint, InPlace, ONE_SOURCE, Unique, UniqueBlock, Windows,
};
use crate::kernel::raw;
#[cfg(not(target_os = "none"))]
use crate::kernel::small;

/// Copies every element of `src` (described by `src_layout`) to the same index of `dst`
/// (described by `dst_layout`); elements of `dst` outside `dst_layout` keep their values.
///
/// ```text
/// src (2,3):(3,1)      dst (2,3):(1,2)      dst buffer after the copy
///  0 1 2                0 2 4                a d b e c f
///  3 4 5                1 3 5                (a..f = src values 0..5)
/// ```
///
/// Checks run once, before anything is written, in the order of the errors below; a rejected
/// call leaves `dst` untouched. Offsets count elements of `T`.
///
/// # Cost
///
/// - **Data:** one pass, each element read and written once. Contiguous runs move like
///   `copy_from_slice`; transposes, planar <-> interleaved channels and reversed rows of
///   primitive `T` use SIMD kernels chosen at run time (x86-64: SSE2 to AVX2, detected with
///   `cpuid` in every build; aarch64: NEON); other strides take the planned loops (axes
///   merged where they can be, flipped to run forwards, ordered by the cache lines their steps
///   touch, tiled where the operands disagree on the fastest axis; a run-time copy on a
///   bare-metal target does not tile, a prepared one does). Copies of 32 MiB or more
///   store around the cache (x86-64).
/// - **Per call:** the checks and the planning, independent of the volume: a few dozen
///   instructions for ranks 1 and 2, a few hundred for higher ranks. A copy made again and
///   again on the same layouts is prepared once with [`CopyPlan`](crate::CopyPlan), whose
///   `run` checks only the slices' lengths.
/// - **Stack:** the plan, in the frame (up to [`MAX_NESTS`](crate::plan::MAX_NESTS) nests of
///   [`MAX_LOOPS`](crate::plan::MAX_LOOPS) loops; a copy of rank 2 or less over
///   [`Layout`](crate::Layout)s needs no plan), and on hosts a 32 KiB tile for a transpose of
///   32 MiB or more whose rows are whole 4 KiB pages apart. Operands cut into more pieces
///   than a plan holds keep two plans while their windows are checked against each other.
///
/// Measured figures (time per call, instructions and stack on a Cortex-M4, throughput against
/// `copy_from_slice`) are in [`doc::benchmarks`](crate::doc::benchmarks) and
/// [`doc::firmware`](crate::doc::firmware).
///
/// `T: 'static` lets the kernel decide by type ([`TypeId`](core::any::TypeId)) whether `T`
/// is a primitive integer or float, whose bytes may move through vector registers; any other
/// `T` takes the scalar paths.
///
/// # Errors
///
/// - [`LayoutError::ItemsizeMismatch`] if a layout's itemsize is not `size_of::<T>()`
///   (zero-sized `T` and sizes that are no power of two always are);
/// - [`LayoutError::ShapeMismatch`] if the shapes differ;
/// - [`LayoutError::AxisOutOfRange`], [`LayoutError::FactorZero`],
///   [`LayoutError::OffsetOverflow`] from [`Plan::new`], and
///   [`LayoutError::InterleaveConflict`] for operands blocked so differently that they cut
///   the shape into more than [`MAX_PIECES`](crate::plan::MAX_PIECES) pieces (past
///   [`MAX_NESTS`](crate::plan::MAX_NESTS) pieces, which [`Plan::new`] refuses, the copy
///   plans them a window of [`MAX_NESTS`](crate::plan::MAX_NESTS) at a time, every window
///   checked as below, and against the others, before any is written; operands of a rank
///   past [`MAX_LOOPS`](crate::plan::MAX_LOOPS) whose loops past a nest's are peeled into
///   pieces are planned so too, any number of them, checked whole once);
/// - [`LayoutError::OffsetBelowSlice`] naming
///   [`Operand::Destination`](crate::Operand::Destination) or
///   [`Operand::Source`](crate::Operand::Source) if an offset of that layout is negative
///   (with the lowest offset), then [`LayoutError::OffsetOutsideSlice`] if an offset is not
///   less than its slice's length (with the length needed and the length given);
/// - [`LayoutError::DestinationNotUnique`] if two indices of `dst_layout` share an offset;
/// - [`LayoutError::UniquenessUndecided`] if the search could not decide within its budget
///   whether `dst_layout` is unique (see [`Layout::is_unique_within`](crate::Layout::is_unique_within)):
///   16 steps plus one per 128 elements, about what the copy itself costs, so a unique
///   destination that only the search can tell from a non-unique one (rare: layouts made
///   from a dense one by slicing, permuting or flipping never need it) may be refused;
///   [`Layout::is_unique`](crate::Layout::is_unique) still decides it exactly.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order};
/// let src_layout = Layout::dense([2, 3], 4, Order::C)?;
/// let dst_layout = Layout::dense([2, 3], 4, Order::F)?;
/// let src = [0.0f32, 1.0, 2.0, 3.0, 4.0, 5.0];
/// let mut dst = [0.0f32; 6];
/// strided_layout::copy(&src, &src_layout, &mut dst, &dst_layout)?;
/// assert_eq!(dst, [0.0, 3.0, 1.0, 4.0, 2.0, 5.0]);
/// # Ok::<(), LayoutError>(())
/// ```
///
/// # Postconditions
///
/// - `dst[dst_layout.offset_of(i)] == src[src_layout.offset_of(i)]` for every index `i`
/// - every other element of `dst` is unchanged; on `Err`, `dst` is unchanged
pub fn copy<T, const N: usize, S, D>(
    src: &[T],
    src_layout: &S,
    dst: &mut [T],
    dst_layout: &D,
) -> Result<(), LayoutError>
where
    T: Copy + 'static,
    S: Mapping<N> + ?Sized,
    D: Mapping<N> + ?Sized,
{
    // Specialisations of the planner chosen by the operands' shape, whose nest goes through
    // the one validation of a nest ([`UniqueBlock::check`]): small rank-2 transposes and
    // stereo blocks, then C-contiguous copies. Each lowers the operands for itself, so that
    // only the fields it reads are loaded (lowered once for both, the 2³ permute took 353
    // instructions a call against 341). Hosts only.
    #[cfg(not(target_os = "none"))]
    if small::copy_rank2(dst, &dst_layout.lowered(), src, &src_layout.lowered())?
        || small::copy_into_dense(dst, &dst_layout.lowered(), src, &src_layout.lowered())?
    {
        return Ok(());
    }
    copy_general(src, src_layout, dst, dst_layout)
}

/// [`copy()`] past the small blocks: planned (without a [`Plan`] where one nest of at most two
/// loops does), checked and run. Not inlined on hosts, so that a small block's call does not
/// set up this path's frame (a plan, about 1.8 KB on x86-64, and six saved registers).
#[cfg_attr(not(target_os = "none"), inline(never))]
fn copy_general<T, const N: usize, S, D>(
    src: &[T],
    src_layout: &S,
    dst: &mut [T],
    dst_layout: &D,
) -> Result<(), LayoutError>
where
    T: Copy + 'static,
    S: Mapping<N> + ?Sized,
    D: Mapping<N> + ?Sized,
{
    let (dl, sl) = (dst_layout.lowered(), src_layout.lowered());
    // Rank 2 or less, no operand interleaved (every `Layout`; the test folds away where the
    // operands are built): one nest of at most two loops, planned and run without a plan.
    // Only copies large enough to stream their stores go on to the planner.
    if N <= 2 && dl.blocks.is_empty() && sl.blocks.is_empty() {
        // Borrowed where the planner wrote it: moving the 64-byte nest out of the `Result`
        // copied it word by word (34 instructions per call on a Cortex-M4).
        let planned = UniqueBlock::plan_one_source::<T, T, N>(&dl, &sl);
        let nest = match &planned {
            Ok(Some(nest)) => nest,
            Ok(None) => return Ok(()),
            Err(e) => return Err(*e),
        };
        let block = UniqueBlock::check(nest, [dst.len(), src.len()])?;
        if raw::copy_small(&block, dst, src)? {
            return Ok(());
        }
    }
    let mut plan = Plan::empty();
    let lens = [dst.len(), src.len()];
    match Unique::plan_one_source::<T, T, N>(&mut plan, dl, sl, lens) {
        Ok(unique) => raw::copy(&unique, dst, src),
        // More pieces than one plan holds: planned and run a window at a time.
        Err(e) => Windows::after(e, &[dl, sl], lens, ONE_SOURCE, Across::Unique)?
            .each_unique(|unique| raw::copy(unique, dst, src)),
    }
}

/// Copies every element of `src` into uninitialised memory at `dst_layout`, and returns the
/// part of `dst` the layout covers as initialised elements.
///
/// For a fresh output buffer: no zero-filling first. The destination's offsets must fill one
/// range of `dst` with no gap, each once (a contiguous layout in any axis order, at any offset,
/// flipped or not, or an interleaved one with full blocks), so that every element of the
/// returned slice was written; it starts at the smallest destination offset. (That is wider
/// than [`is_dense`](crate::Layout::is_dense), which also asks for offset 0 and no flip.)
///
/// ```text
/// src (2,3):(3,1)        dst_layout (2,3):(1,2) +1      dst: ? a d b e c f  -> returns [a d b e c f]
/// ```
///
/// Elements of `MaybeUninit<T>` move through the scalar and `memcpy` paths only (no SIMD
/// shuffles: the kernel cannot know such bytes are initialised).
///
/// # Errors
///
/// Everything [`copy()`] returns, and [`LayoutError::DestinationHasGaps`] if the
/// destination's offsets leave a gap (operands cut into more pieces than one plan holds, as
/// [`copy()`] plans them a window at a time, are checked over all windows before any is
/// copied). On `Err`, `dst` is untouched.
///
/// # Examples
///
/// ```
/// use core::mem::MaybeUninit;
/// use strided_layout::{Layout, LayoutError, Order};
/// let src_layout = Layout::dense([2, 3], 4, Order::C)?;
/// let dst_layout = Layout::dense([2, 3], 4, Order::F)?;
/// let src = [0u32, 1, 2, 3, 4, 5];
/// let mut dst = [MaybeUninit::<u32>::uninit(); 6];
/// let out = strided_layout::copy_uninit(&src, &src_layout, &mut dst, &dst_layout)?;
/// assert_eq!(out, [0, 3, 1, 4, 2, 5]);
/// // A layout with gaps would leave slots uninitialised: refused.
/// let gappy = Layout::new([3], [2], 4)?;
/// let mut dst = [MaybeUninit::<u32>::uninit(); 6];
/// assert_eq!(
///     strided_layout::copy_uninit(&src[..3], &Layout::new([3], [1], 4)?, &mut dst, &gappy),
///     Err(LayoutError::DestinationHasGaps)
/// );
/// # Ok::<(), LayoutError>(())
/// ```
///
/// # Postconditions
///
/// - on `Ok(out)`, `out` is `dst[min..=max]` of the destination's offsets (empty for an
///   empty layout), and `out[dst_layout.offset_of(i) - min] == src[src_layout.offset_of(i)]`
pub fn copy_uninit<'d, T, const N: usize, S, D>(
    src: &[T],
    src_layout: &S,
    dst: &'d mut [MaybeUninit<T>],
    dst_layout: &D,
) -> Result<&'d mut [T], LayoutError>
where
    T: Copy + 'static,
    S: Mapping<N> + ?Sized,
    D: Mapping<N> + ?Sized,
{
    let mut plan = Plan::empty();
    let (dl, sl) = (dst_layout.lowered(), src_layout.lowered());
    let lens = [dst.len(), src.len()];
    match Unique::plan_one_source::<T, T, N>(&mut plan, dl, sl, lens) {
        Ok(unique) => raw::copy_uninit(&Dense::check(unique)?, dst, src),
        // More pieces than one plan holds: planned and run a window at a time, the
        // destination checked dense over all of them first.
        Err(e) => {
            let ops = [dl, sl];
            let windows = Windows::after(e, &ops, lens, ONE_SOURCE, Across::Dense)?;
            raw::copy_uninit_windows(&windows, dst, src)
        }
    }
}

/// Copies, inside one buffer, every element at `src_layout` to the same index at
/// `dst_layout`; the two must coincide (nothing moves) or share no element.
///
/// ```text
/// buf 0 1 2 3 4 5     src (3):(1) +0, dst (3):(-1) +5      buf after: 0 1 2 2 1 0
/// ```
///
/// # Errors
///
/// - everything [`copy()`] returns, with both operands checked against `buf`;
/// - [`LayoutError::OperandsOverlap`] if the layouts share an element without coinciding;
/// - [`LayoutError::UniquenessUndecided`] also if the overlap search ran out of budget.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError};
/// let mut buf = [0, 1, 2, 3, 4, 5];
/// let src = Layout::new([3], [1], 4)?;
/// let dst = src.with_offset(5)?.flipped(0)?.with_offset(5)?;
/// assert_eq!(dst.strides(), [-1]);
/// strided_layout::copy_within(&mut buf, &src, &dst)?;
/// assert_eq!(buf, [0, 1, 2, 2, 1, 0]);
/// let shifted = src.with_offset(1)?;
/// assert_eq!(strided_layout::copy_within(&mut buf, &src, &shifted), Err(LayoutError::OperandsOverlap));
/// # Ok::<(), LayoutError>(())
/// ```
///
/// # Postconditions
///
/// - `buf[dst_layout.offset_of(i)]` is the old `buf[src_layout.offset_of(i)]` for every `i`
/// - every other element is unchanged; on `Err`, `buf` is unchanged
pub fn copy_within<T, const N: usize, S, D>(
    buf: &mut [T],
    src_layout: &S,
    dst_layout: &D,
) -> Result<(), LayoutError>
where
    T: Copy + 'static,
    S: Mapping<N> + ?Sized,
    D: Mapping<N> + ?Sized,
{
    let mut plan = Plan::empty();
    let (dl, sl) = (dst_layout.lowered(), src_layout.lowered());
    let lens = [buf.len(), buf.len()];
    match Unique::plan_one_source::<T, T, N>(&mut plan, dl, sl, lens) {
        Ok(unique) => match Disjoint::check(unique)? {
            InPlace::Coincide => Ok(()),
            InPlace::Disjoint(disjoint) => raw::copy_within(&disjoint, buf),
        },
        Err(e) => Windows::after(e, &[dl, sl], lens, ONE_SOURCE, Across::InPlace)?
            .each_disjoint(|disjoint| raw::copy_within(disjoint, buf)),
    }
}
