//! The `rayon` feature: [`par_copy`], [`par_map`], [`par_zip_map`] and [`par_fill`], the
//! kernels on every core of rayon's pool.
//!
//! Each runs the checks of its one-thread twin first (the same errors, in the same order,
//! `dst` untouched on `Err`), then splits the plan ([`Plan::part`]) into parts that rayon's
//! threads run by work stealing (`rayon::join`, halving the parts). A call that moves less
//! than [`PAR_BYTES`] runs on the calling thread: below that, waking a second thread costs
//! more than it saves. No `unsafe` here: the parts come from `split/`.

use core::mem::size_of;

use crate::kernel::element::check_itemsize;
use crate::kernel::fill::footprint;
use crate::kernel::mapping::Mapping;
use crate::kernel::plan::Plan;
use crate::kernel::proof::{Across, InBounds, ONE_SOURCE, TWO_SOURCES, Unique, Windows};
use crate::kernel::raw;
use crate::kernel::split::{CopyWork, FillWork, Jobs, MapWork, Work, ZipMapWork};
use crate::{LayoutError, Operand};

/// Calls that move fewer bytes than this (destination plus sources) run on the calling
/// thread: splitting does not pay there.
///
/// Waking rayon's sleeping workers and joining them costs about what one core takes to move
/// this much, so below it a second core's gain is at most that overhead (`benches/par.rs`
/// measures 256², 362² and 512² `f32` transposes, 0.5-2 MiB moved, around it; the
/// [benchmarks guide](crate::doc::benchmarks) has the figures). Under Miri it is 64 bytes, so that
/// its tiny test cases run split.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order, PAR_BYTES};
/// // A 256 × 256 `f32` transpose moves 512 KiB (read plus written): one thread.
/// let bytes = 2 * 256 * 256 * 4;
/// assert!(cfg!(miri) || bytes < PAR_BYTES);
/// let l = Layout::dense([256, 256], 4, Order::C)?;
/// let src = vec![1f32; 256 * 256];
/// let mut dst = vec![0f32; 256 * 256];
/// strided_layout::par_copy(&src, &l.transposed(0, 1)?, &mut dst, &l)?; // runs on this thread
/// assert_eq!(dst, src);
/// # Ok::<(), LayoutError>(())
/// ```
pub const PAR_BYTES: usize = if cfg!(miri) { 64 } else { 1 << 20 };

/// Parts per thread of rayon's pool: more than one, so a thread that finishes early (or
/// another process's thread taking a core) is balanced by stealing.
const PARTS_PER_THREAD: usize = 4;

/// Parts are never smaller than this many bytes moved.
const MIN_PART_BYTES: usize = if cfg!(miri) { 16 } else { 256 << 10 };

/// How many parts a call moving `bytes` splits into: 0 when it should run on one thread.
fn parts_for(bytes: usize) -> usize {
    if bytes < PAR_BYTES {
        return 0;
    }
    let threads = rayon::current_num_threads();
    if threads < 2 {
        return 0;
    }
    threads
        .saturating_mul(PARTS_PER_THREAD)
        .min(bytes / MIN_PART_BYTES)
        .max(2)
}

/// The bytes a plan of `volume` elements moves, `sizes` bytes per element of each operand.
fn bytes(volume: usize, sizes: &[usize]) -> usize {
    sizes.iter().fold(0usize, |acc, &s| {
        acc.saturating_add(volume.saturating_mul(s))
    })
}

/// Runs `jobs` on rayon's pool, halving them until one is left per task.
fn drive<W: Work>(mut jobs: Jobs<W>) {
    if jobs.len() <= 1 {
        if let Some(job) = jobs.next() {
            job.run();
        }
        return;
    }
    let half = jobs.len() / 2;
    let (a, b) = jobs.split_at(half);
    rayon::join(|| drive(a), || drive(b));
}

/// [`copy()`](crate::copy()) on every core of rayon's pool: the same arguments, the same
/// checks and errors, the same bytes in `dst`.
///
/// The copy's plan is split into parts ([`Plan::part`]) that write disjoint destination
/// elements; rayon's threads run them. Copies that move less than [`PAR_BYTES`] (source
/// plus destination) run on the calling thread, as [`copy()`](crate::copy()): splitting does
/// not pay there. Large copies gain as much as the host's memory bandwidth allows beyond
/// one core's: transposes and permutes, which one core runs well below the memory limit,
/// gain most; a contiguous copy that one core already streams near the limit gains little.
/// On a machine whose cores are busy with other work, no split gains anything.
///
/// # Errors
///
/// Those of [`copy()`](crate::copy()), in its order:
/// [`LayoutError::ItemsizeMismatch`], [`LayoutError::ShapeMismatch`],
/// [`LayoutError::AxisOutOfRange`], [`LayoutError::FactorZero`],
/// [`LayoutError::InterleaveConflict`], [`LayoutError::OffsetOverflow`],
/// [`LayoutError::RankOverflow`], [`LayoutError::OffsetBelowSlice`],
/// [`LayoutError::OffsetOutsideSlice`],
/// [`LayoutError::DestinationNotUnique`] and [`LayoutError::UniquenessUndecided`]. On `Err`,
/// `dst` is untouched.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order};
/// let src_layout = Layout::dense([512, 512], 4, Order::C)?;
/// let dst_layout = Layout::dense([512, 512], 4, Order::F)?; // a transpose
/// let src: Vec<f32> = (0..512 * 512).map(|x| x as f32).collect();
/// let mut dst = vec![0f32; 512 * 512];
/// strided_layout::par_copy(&src, &src_layout, &mut dst, &dst_layout)?;
/// assert_eq!((dst[1], dst[512]), (512.0, 1.0));
/// # Ok::<(), LayoutError>(())
/// ```
pub fn par_copy<T, const N: usize, S, D>(
    src: &[T],
    src_layout: &S,
    dst: &mut [T],
    dst_layout: &D,
) -> Result<(), LayoutError>
where
    T: Copy + Send + Sync + 'static,
    S: Mapping<N> + ?Sized,
    D: Mapping<N> + ?Sized,
{
    let mut plan = Plan::empty();
    let (dl, sl) = (dst_layout.lowered(), src_layout.lowered());
    let lens = [dst.len(), src.len()];
    let size = size_of::<T>();
    let mut run = |unique: &Unique<'_, 2>| {
        let volume = unique.bounds().plan_for(lens)?.volume();
        match parts_for(bytes(volume, &[size, size])) {
            0 => raw::copy(unique, dst, src),
            parts => {
                drive(CopyWork::jobs(unique, dst, src, parts)?);
                Ok(())
            }
        }
    };
    match Unique::plan_one_source::<T, T, N>(&mut plan, dl, sl, lens) {
        Ok(unique) => run(&unique),
        // More pieces than one plan holds: a window at a time, each split into parts.
        Err(e) => Windows::after(e, &[dl, sl], lens, ONE_SOURCE, Across::Unique)?.each_unique(run),
    }
}

/// [`map`](crate::map) on every core of rayon's pool: `dst[i] = f(src[i])` at every index,
/// `f` called once per index from any thread, in no particular order.
///
/// Calls that move less than [`PAR_BYTES`] run on the calling thread.
///
/// # Errors
///
/// Those of [`map`](crate::map), in its order: [`LayoutError::ItemsizeMismatch`],
/// [`LayoutError::ShapeMismatch`], [`LayoutError::AxisOutOfRange`],
/// [`LayoutError::FactorZero`], [`LayoutError::InterleaveConflict`],
/// [`LayoutError::OffsetOverflow`], [`LayoutError::RankOverflow`],
/// [`LayoutError::OffsetBelowSlice`], [`LayoutError::OffsetOutsideSlice`],
/// [`LayoutError::DestinationNotUnique`] and
/// [`LayoutError::UniquenessUndecided`]. On `Err`, `dst` is untouched and `f` never called.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError};
/// let n = 1 << 19;
/// let src: Vec<u8> = (0..n).map(|x| x as u8).collect();
/// let mut dst = vec![0f32; n];
/// let rev = Layout::new([n], [-1], 1)?.with_offset(n as isize - 1)?;
/// strided_layout::par_map(&src, &rev, &mut dst, &Layout::new([n], [1], 4)?, |x| f32::from(x))?;
/// assert_eq!((dst[0], dst[n - 1]), (255.0, 0.0));
/// # Ok::<(), LayoutError>(())
/// ```
pub fn par_map<T, U, const N: usize, S, D, F>(
    src: &[T],
    src_layout: &S,
    dst: &mut [U],
    dst_layout: &D,
    f: F,
) -> Result<(), LayoutError>
where
    T: Copy + Sync + 'static,
    U: Copy + Send,
    S: Mapping<N> + ?Sized,
    D: Mapping<N> + ?Sized,
    F: Fn(T) -> U + Sync,
{
    let mut plan = Plan::empty();
    let (dl, sl) = (dst_layout.lowered(), src_layout.lowered());
    let lens = [dst.len(), src.len()];
    let mut run = |unique: &Unique<'_, 2>| {
        let volume = unique.bounds().plan_for(lens)?.volume();
        match parts_for(bytes(volume, &[size_of::<U>(), size_of::<T>()])) {
            0 => raw::map(unique, dst, src, &f),
            parts => {
                drive(MapWork::jobs(unique, dst, src, &f, parts)?);
                Ok(())
            }
        }
    };
    match Unique::plan_one_source::<U, T, N>(&mut plan, dl, sl, lens) {
        Ok(unique) => run(&unique),
        Err(e) => Windows::after(e, &[dl, sl], lens, ONE_SOURCE, Across::Unique)?.each_unique(run),
    }
}

/// [`zip_map`](crate::zip_map) on every core of rayon's pool: `dst[i] = f(a[i], b[i])` at
/// every index, `f` called once per index from any thread, in no particular order.
///
/// Calls that move less than [`PAR_BYTES`] run on the calling thread.
///
/// # Errors
///
/// Those of [`zip_map`](crate::zip_map), in its order: [`LayoutError::ItemsizeMismatch`]
/// naming the operand, [`LayoutError::ShapeMismatch`], [`LayoutError::AxisOutOfRange`],
/// [`LayoutError::FactorZero`], [`LayoutError::InterleaveConflict`],
/// [`LayoutError::OffsetOverflow`], [`LayoutError::RankOverflow`],
/// [`LayoutError::OffsetBelowSlice`] and [`LayoutError::OffsetOutsideSlice`] naming [`Operand::Destination`],
/// [`Operand::Source`] (`a`) or [`Operand::SecondSource`] (`b`),
/// [`LayoutError::DestinationNotUnique`] and [`LayoutError::UniquenessUndecided`]. On
/// `Err`, `dst` is untouched and `f` never called.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order};
/// let l = Layout::dense([512, 512], 4, Order::C)?;
/// let a: Vec<f32> = (0..512 * 512).map(|x| x as f32).collect();
/// let mut sum = vec![0f32; 512 * 512];
/// strided_layout::par_zip_map(&a, &l, &a, &l.transposed(0, 1)?, &mut sum, &l, |x, y| x + y)?;
/// assert_eq!((sum[1], sum[512]), (513.0, 513.0)); // A + Aᵀ is symmetric
/// # Ok::<(), LayoutError>(())
/// ```
pub fn par_zip_map<A, B, U, const N: usize, LA, LB, D, F>(
    a: &[A],
    a_layout: &LA,
    b: &[B],
    b_layout: &LB,
    dst: &mut [U],
    dst_layout: &D,
    f: F,
) -> Result<(), LayoutError>
where
    A: Copy + Sync + 'static,
    B: Copy + Sync + 'static,
    U: Copy + Send,
    LA: Mapping<N> + ?Sized,
    LB: Mapping<N> + ?Sized,
    D: Mapping<N> + ?Sized,
    F: Fn(A, B) -> U + Sync,
{
    let ops = [dst_layout.lowered(), a_layout.lowered(), b_layout.lowered()];
    let mut plan = Plan::empty();
    let lens = [dst.len(), a.len(), b.len()];
    let sizes = [size_of::<U>(), size_of::<A>(), size_of::<B>()];
    let mut run = |unique: &Unique<'_, 3>| match parts_for(bytes(
        unique.bounds().plan_for(lens)?.volume(),
        &sizes,
    )) {
        0 => raw::zip_map(unique, dst, a, b, &f),
        parts => {
            drive(ZipMapWork::jobs(unique, dst, a, b, &f, parts)?);
            Ok(())
        }
    };
    match Unique::plan_two_sources::<U, A, B, N>(&mut plan, ops, lens) {
        Ok(unique) => run(&unique),
        Err(e) => Windows::after(e, &ops, lens, TWO_SOURCES, Across::Unique)?.each_unique(run),
    }
}

/// [`fill`](crate::fill) on every core of rayon's pool: `value` at every element of
/// `layout`.
///
/// Fills that write less than [`PAR_BYTES`], and fills of a layout whose elements are not
/// unique once broadcast axes are cut to one step (two threads must never write one element),
/// run on the calling thread, as [`fill`](crate::fill).
///
/// # Errors
///
/// Those of [`fill`](crate::fill): [`LayoutError::ItemsizeMismatch`],
/// [`LayoutError::AxisOutOfRange`], [`LayoutError::FactorZero`],
/// [`LayoutError::OffsetOverflow`], [`LayoutError::RankOverflow`] and
/// [`LayoutError::OffsetBelowSlice`] and [`LayoutError::OffsetOutsideSlice`]. On `Err`, `dst` is untouched.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError};
/// let mut dst = vec![0u16; 1 << 21];
/// let every_other = Layout::new([1 << 20], [2], 2)?.with_offset(1)?;
/// strided_layout::par_fill(&mut dst, &every_other, 7)?;
/// assert_eq!(&dst[..4], &[0, 7, 0, 7]);
/// assert_eq!(dst.iter().filter(|&&x| x == 7).count(), 1 << 20);
/// # Ok::<(), LayoutError>(())
/// ```
pub fn par_fill<T, const N: usize, D>(
    dst: &mut [T],
    layout: &D,
    value: T,
) -> Result<(), LayoutError>
where
    T: Copy + Send + Sync,
    D: Mapping<N> + ?Sized,
{
    let l = footprint(layout.lowered());
    check_itemsize::<T>(Operand::Destination, l.itemsize)?;
    let mut plan = Plan::empty();
    let (ops, lens, names) = ([l], [dst.len()], [Operand::Destination]);
    let mut run = |bounds: InBounds<'_, 1>| {
        let plan = bounds.plan_for(lens)?;
        let parts = parts_for(bytes(plan.volume(), &[size_of::<T>()]));
        if parts == 0 {
            return raw::fill(&bounds, dst, value);
        }
        if let Ok(unique) = Unique::check(bounds) {
            drive(FillWork::jobs(&unique, dst, value, parts)?);
            return Ok(());
        }
        // Not shown unique: one thread (`fill` allows any layout).
        raw::fill(&InBounds::check(plan, lens, names)?, dst, value)
    };
    match plan.build(&ops) {
        Ok(()) => run(InBounds::check(&plan, lens, names)?),
        // More pieces than one plan holds: a window at a time (the windows of a fill need
        // not be apart: each is split into parts only when its own destination is unique).
        Err(e) => Windows::after(e, &ops, lens, names, Across::Bounds)?.each_bounds(run),
    }
}
