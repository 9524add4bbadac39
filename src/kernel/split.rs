//! Splitting a plan into disjoint parts that any runtime can run: threads, an embedded
//! executor's tasks, GPU blocks.
//!
//! [`Plan::part`] is plain data (`const`, no allocation): part `i` of `parts` is a
//! sub-range of the outermost loop of each nest, the cut points placed so that every part
//! visits about `volume / parts` elements (whole tile rows where the outer loop is tiled). The
//! parts of a plan visit disjoint sets of its indices and, together, every index once; since
//! a kernel's destination is validated unique before it runs (the `Unique` witness of
//! `proof.rs`), their destination elements are disjoint too.
//!
//! [`CopyParts`] turns that into work a runtime can schedule safely: built from one exclusive
//! borrow of the destination (after the checks of [`CopyPlan::run`]), it yields each part once
//! as a `Send` [`CopyPart`] that runs by value; [`CopyParts::split_at`] halves the set for
//! fork-join runtimes. The parallel kernels of the `rayon` feature drive the same parts.
//!
//! The only `unsafe` here runs one part through a raw destination pointer: the parts of one
//! borrow write disjoint elements, so no two of them ever touch one element, whichever thread
//! runs them.

use core::fmt;
use core::marker::PhantomData;
use core::ops::Range;

use crate::algo::access::{get, set};
use crate::kernel::drive::SUPER;
use crate::kernel::plan::{Nest, Plan};
use crate::kernel::proof::Unique;
use crate::kernel::{raw, stream};
use crate::{CopyPlan, LayoutError};

impl<const K: usize> Plan<K> {
    /// Part `i` of `parts` of this plan: a sub-range of one loop of each nest, so that the
    /// parts `0..parts` visit disjoint sets of the plan's indices, together every index once,
    /// each about `volume / parts` of them.
    ///
    /// The loop cut is the outermost, at whole steps; in a tiled nest of two loops, the one
    /// that splits into whole groups of tiles (the loop driver's visiting order, so each
    /// part keeps the whole copy's locality), else into whole tile rows, for every part. A
    /// part may be empty (more parts than steps); parts are balanced to within one step (or
    /// grain). `i >= parts` (and every `i` when `parts` is 0) gives the empty plan. A
    /// `const fn` of the plan alone: a GPU host can size one block per part from
    /// [`nests`](Plan::nests), a firmware executor can hand part `i` to task `i`. Where the plan
    /// is a kernel's whose destination was validated unique, the parts write disjoint
    /// destination elements.
    ///
    /// ```text
    /// 4 x 3 copy, one loop nest: loop 0 (rows) extent 4, loop 1 extent 3
    /// part(0, 2): rows 0..2     part(1, 2): rows 2..4
    /// part(0, 3): row 0..1      part(1, 3): rows 1..3      part(2, 3): row 3..4
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Mapping, Order, Plan};
    /// let dst = Layout::dense([4, 3], 4, Order::C)?;
    /// let src = Layout::dense([4, 3], 4, Order::F)?;
    /// let plan = Plan::new(&[dst.lowered(), src.lowered()])?;
    /// let (a, b) = (plan.part(0, 2), plan.part(1, 2));
    /// assert_eq!((a.volume(), b.volume()), (6, 6));
    /// assert_eq!(b.nests()[0].offsets(), [6, 2]); // row 2 of dst, column 2 of src
    /// assert_eq!(plan.part(2, 2).volume(), 0);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn part(&self, i: usize, parts: usize) -> Self {
        if i >= parts {
            return Self::EMPTY;
        }
        let (from, to) = (self.cut(i, parts), self.cut(i.saturating_add(1), parts));
        let mut nests: [Option<Nest<K>>; 2] = [None, None];
        let mut j = 0;
        let mut rest = self.nests();
        while let [nest, tail @ ..] = rest {
            rest = tail;
            let (lo, hi) = match (get(&from, j), get(&to, j)) {
                (Some(lo), Some(hi)) => (lo, hi),
                _ => (0, 0),
            };
            if lo < hi {
                let (axis, _, _) = split_loop(nest, parts);
                set(&mut nests, j, Some(nest.range(axis, lo, hi)));
            }
            j = j.saturating_add(1);
            if j >= 2 {
                break;
            }
        }
        Self::from_nests(nests)
    }

    /// Where part `i` of `parts` starts: for each nest, the steps of the loop it cuts that
    /// come before (`i == parts`: every step). Non-decreasing in `i` in each nest, so the
    /// parts `[cut(i), cut(i + 1))` are disjoint and cover every step.
    #[expect(
        clippy::many_single_char_names,
        reason = "`i`, `j`, `t`, `k`, `g`: part and nest counters, target, step count, grain"
    )]
    const fn cut(&self, i: usize, parts: usize) -> [usize; 2] {
        let total = self.volume() as u128;
        // `i <= parts`, so the target is at most the volume.
        let target = div((i as u128).saturating_mul(total), parts as u128);
        let mut out = [0usize; 2];
        let mut before = 0u128;
        let mut j = 0;
        let mut rest = self.nests();
        while let [nest, tail @ ..] = rest {
            rest = tail;
            let (_, steps, grain) = split_loop(nest, parts);
            let volume = nest.volume() as u128;
            let t = target.saturating_sub(before);
            let cut = if i >= parts || t >= volume {
                steps
            } else {
                // Elements per step (a planned nest has at least one), the nearest whole
                // step, then the nearest whole grain; at most `steps`.
                let per = div(volume, steps as u128);
                let k = div(t.saturating_add(per / 2), per);
                let g = grain as u128;
                let k = div(k.saturating_add(g / 2), g).saturating_mul(g);
                // `k < steps`, a `usize`, when it is cast.
                if k >= steps as u128 {
                    steps
                } else {
                    k as usize
                }
            };
            set(&mut out, j, cut);
            before = before.saturating_add(volume);
            j = j.saturating_add(1);
            if j >= 2 {
                break;
            }
        }
        out
    }
}

/// `a / b`, 1 when `b` is 0 (an empty nest or no grain: never in a planned one).
const fn div(a: u128, b: u128) -> u128 {
    match a.checked_div(b) {
        Some(v) => v,
        None => 1,
    }
}

/// The loop of `nest` that `parts` parts cut, its steps, and the grain the cuts keep to.
///
/// The outermost loop, at whole steps, except in a tiled nest of two loops, whose parts
/// keep to whole groups of tiles as the loop driver visits them (`SUPER × SUPER` tiles; so a
/// part's traversal is a piece of the whole one's, with its cache and TLB behaviour), else
/// to whole tile rows: the first of (outer loop, tile groups), (inner loop, tile groups),
/// (outer, tile rows), (inner, tile rows) with at least one grain for every part, else the
/// outer loop at single steps. (A (2,0,1) permute of 256³ has only 256 outer steps, one
/// tile group: its parts cut the inner loop, 65536 steps.)
const fn split_loop<const K: usize>(nest: &Nest<K>, parts: usize) -> (usize, usize, usize) {
    let loops = nest.loops();
    let (outer, inner) = match loops {
        [a, b] => (a.extent, b.extent),
        [a, ..] => (a.extent, 0),
        [] => return (0, 1, 1),
    };
    let Some([ta, tb]) = nest.tile() else {
        return (0, outer, 1);
    };
    if inner == 0 {
        return (0, outer, 1);
    }
    let candidates = [
        (0, outer, ta.saturating_mul(SUPER)),
        (1, inner, tb.saturating_mul(SUPER)),
        (0, outer, ta),
        (1, inner, tb),
    ];
    let mut rest: &[(usize, usize, usize)] = &candidates;
    while let [(axis, steps, grain), tail @ ..] = rest {
        rest = tail;
        if let Some(groups) = steps.checked_div(*grain) {
            if groups >= parts {
                return (*axis, *steps, *grain);
            }
        }
    }
    (0, outer, 1)
}

/// A destination pointer that may cross threads.
struct SendPtr<T>(*mut T);

impl<T> Clone for SendPtr<T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for SendPtr<T> {}

// SAFETY: a `SendPtr` is only built from an exclusive borrow `&'a mut [T]` held (as
// `PhantomData`) by the work that carries it, and each part writes only its own destination
// elements (disjoint: the `Unique` witness the work was built from); sending it is sending
// `&mut [T]`'s right to write `T`s, sound when `T: Send`.
unsafe impl<T: Send> Send for SendPtr<T> {}

/// The work of one split kernel: what every part needs (the whole plan, the pointers), `Copy`
/// so that each part carries its own.
pub(crate) trait Work: Copy + Send {
    /// Runs part `i` of `parts` of the plan.
    ///
    /// # Safety
    ///
    /// For one value of the work (and its copies), each `i` runs at most once for one
    /// `parts`, and every run has the same `parts`.
    unsafe fn run(&self, i: usize, parts: usize);
}

/// The parts `range` of `parts` of one work, not yet handed out; each is handed out once.
pub(crate) struct Jobs<W> {
    work: W,
    range: Range<usize>,
    parts: usize,
}

impl<W: Work> Jobs<W> {
    /// All `parts` parts of `work`. Private: only the constructors of the works below call
    /// it, once for each work they build, so a work's parts are handed out by one `Jobs`.
    const fn new(work: W, parts: usize) -> Self {
        Self {
            work,
            range: 0..parts,
            parts,
        }
    }

    /// The parts not yet handed out.
    pub(crate) fn len(&self) -> usize {
        self.range.len()
    }

    /// The first `mid` parts left and the rest (`mid` clamped to [`len`](Jobs::len)).
    pub(crate) fn split_at(self, mid: usize) -> (Self, Self) {
        let at = self.range.start.saturating_add(mid).min(self.range.end);
        let (a, b) = (self.range.start..at, at..self.range.end);
        (Self { range: a, ..self }, Self { range: b, ..self })
    }

    /// Hands out the next part.
    pub(crate) fn next(&mut self) -> Option<Job<W>> {
        let index = self.range.next()?;
        Some(Job {
            work: self.work,
            index,
            parts: self.parts,
        })
    }

    /// Hands out the last part.
    pub(crate) fn next_back(&mut self) -> Option<Job<W>> {
        let index = self.range.next_back()?;
        Some(Job {
            work: self.work,
            index,
            parts: self.parts,
        })
    }
}

/// One part, handed out once by its [`Jobs`]; not `Clone`.
pub(crate) struct Job<W> {
    work: W,
    index: usize,
    parts: usize,
}

impl<W: Work> Job<W> {
    /// Runs the part.
    pub(crate) fn run(self) {
        // SAFETY: a `Job` is only made by `Jobs::next`/`next_back`, which hand out each index
        // of the range once; `split_at` divides the range; each work is built inside the one
        // `jobs` constructor that wraps it in its only `Jobs` (`Jobs::new` is private to this
        // module), and `parts` is the same in all. `run` consumes the job.
        unsafe { self.work.run(self.index, self.parts) }
    }
}

/// A split copy: the plan, the destination and source, and whether the stores stream.
pub(crate) struct CopyWork<'a, T> {
    plan: &'a Plan<2>,
    dst: SendPtr<T>,
    src: &'a [T],
    stream: bool,
    _dst: PhantomData<&'a mut [T]>,
}

impl<T> Clone for CopyWork<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T> Copy for CopyWork<'_, T> {}

impl<'a, T: Copy + Send + Sync + 'static> CopyWork<'a, T> {
    /// The `parts` parts of copying `src` to `dst` as `unique`'s plan says.
    ///
    /// # Errors
    ///
    /// [`LayoutError::OffsetOutsideSlice`] if the slices are not the lengths `unique` was
    /// checked for.
    pub(crate) fn jobs(
        unique: &Unique<'a, 2>,
        dst: &'a mut [T],
        src: &'a [T],
        parts: usize,
    ) -> Result<Jobs<Self>, LayoutError> {
        let plan = unique.bounds().plan_for([dst.len(), src.len()])?;
        let work = Self {
            plan,
            dst: SendPtr(dst.as_mut_ptr()),
            src,
            stream: stream::stream_worthy::<T>(|| plan.volume()),
            _dst: PhantomData,
        };
        Ok(Jobs::new(work, parts))
    }
}

impl<T: Copy + Send + Sync + 'static> Work for CopyWork<'_, T> {
    unsafe fn run(&self, i: usize, parts: usize) {
        let part = self.plan.part(i, parts);
        // SAFETY: the plan's offsets lie inside `dst` and `src` (the `InBounds` witness under
        // the `Unique` one `new` took, lengths matched by `plan_for`), and so do the part's,
        // a subset of them. `dst` is borrowed exclusively for `'a` and `src` shared: they do
        // not overlap, and nobody else writes either. The destination is unique (the `Unique`
        // witness), so the disjoint index sets of the parts (`Plan::part`) write disjoint
        // elements, and each part runs once (this method's contract): no other part touches
        // this part's destination elements while it runs.
        unsafe { raw::copy_nests(&part, self.dst.0, self.src.as_ptr(), self.stream) };
        if self.stream {
            stream::stream_fence();
        }
    }
}

#[cfg(feature = "rayon")]
/// A split `map`: the plan, the destination, the source and the function.
pub(crate) struct MapWork<'a, T, U, F> {
    plan: &'a Plan<2>,
    dst: SendPtr<U>,
    src: &'a [T],
    f: &'a F,
    _dst: PhantomData<&'a mut [U]>,
}

#[cfg(feature = "rayon")]
impl<T, U, F> Clone for MapWork<'_, T, U, F> {
    fn clone(&self) -> Self {
        *self
    }
}
#[cfg(feature = "rayon")]
impl<T, U, F> Copy for MapWork<'_, T, U, F> {}

#[cfg(feature = "rayon")]
impl<'a, T, U, F> MapWork<'a, T, U, F>
where
    T: Copy + Sync + 'static,
    U: Copy + Send,
    F: Fn(T) -> U + Sync,
{
    /// The `parts` parts of `dst[i] = f(src[i])` as `unique`'s plan says.
    ///
    /// # Errors
    ///
    /// As [`CopyWork::jobs`].
    pub(crate) fn jobs(
        unique: &Unique<'a, 2>,
        dst: &'a mut [U],
        src: &'a [T],
        f: &'a F,
        parts: usize,
    ) -> Result<Jobs<Self>, LayoutError> {
        let plan = unique.bounds().plan_for([dst.len(), src.len()])?;
        let work = Self {
            plan,
            dst: SendPtr(dst.as_mut_ptr()),
            src,
            f,
            _dst: PhantomData,
        };
        Ok(Jobs::new(work, parts))
    }
}

#[cfg(feature = "rayon")]
impl<T, U, F> Work for MapWork<'_, T, U, F>
where
    T: Copy + Sync + 'static,
    U: Copy + Send,
    F: Fn(T) -> U + Sync,
{
    unsafe fn run(&self, i: usize, parts: usize) {
        let part = self.plan.part(i, parts);
        let mut g = |x| (self.f)(x);
        // SAFETY: as in `CopyWork::run`: in bounds (`InBounds`), distinct borrows, and the
        // part's destination elements disjoint from every other part's (`Unique` witness,
        // each part run once).
        unsafe { raw::map_nests(&part, self.dst.0, self.src.as_ptr(), &mut g) };
    }
}

#[cfg(feature = "rayon")]
/// A split `zip_map`: the plan, the destination, the two sources and the function.
pub(crate) struct ZipMapWork<'a, A, B, U, F> {
    plan: &'a Plan<3>,
    dst: SendPtr<U>,
    a: &'a [A],
    b: &'a [B],
    f: &'a F,
    _dst: PhantomData<&'a mut [U]>,
}

#[cfg(feature = "rayon")]
impl<A, B, U, F> Clone for ZipMapWork<'_, A, B, U, F> {
    fn clone(&self) -> Self {
        *self
    }
}
#[cfg(feature = "rayon")]
impl<A, B, U, F> Copy for ZipMapWork<'_, A, B, U, F> {}

#[cfg(feature = "rayon")]
impl<'a, A, B, U, F> ZipMapWork<'a, A, B, U, F>
where
    A: Copy + Sync + 'static,
    B: Copy + Sync + 'static,
    U: Copy + Send,
    F: Fn(A, B) -> U + Sync,
{
    /// The `parts` parts of `dst[i] = f(a[i], b[i])` as `unique`'s plan says.
    ///
    /// # Errors
    ///
    /// As [`CopyWork::jobs`].
    pub(crate) fn jobs(
        unique: &Unique<'a, 3>,
        dst: &'a mut [U],
        a: &'a [A],
        b: &'a [B],
        f: &'a F,
        parts: usize,
    ) -> Result<Jobs<Self>, LayoutError> {
        let plan = unique.bounds().plan_for([dst.len(), a.len(), b.len()])?;
        let work = Self {
            plan,
            dst: SendPtr(dst.as_mut_ptr()),
            a,
            b,
            f,
            _dst: PhantomData,
        };
        Ok(Jobs::new(work, parts))
    }
}

#[cfg(feature = "rayon")]
impl<A, B, U, F> Work for ZipMapWork<'_, A, B, U, F>
where
    A: Copy + Sync + 'static,
    B: Copy + Sync + 'static,
    U: Copy + Send,
    F: Fn(A, B) -> U + Sync,
{
    unsafe fn run(&self, i: usize, parts: usize) {
        let part = self.plan.part(i, parts);
        let mut g = |x, y| (self.f)(x, y);
        let (a, b) = (self.a.as_ptr(), self.b.as_ptr());
        // SAFETY: as in `CopyWork::run`, for both sources.
        unsafe { raw::zip_map_nests(&part, self.dst.0, a, b, &mut g) };
    }
}

#[cfg(feature = "rayon")]
/// A split `fill` of a destination validated unique.
#[derive(Clone, Copy)]
pub(crate) struct FillWork<'a, T> {
    plan: &'a Plan<1>,
    dst: SendPtr<T>,
    value: T,
    _dst: PhantomData<&'a mut [T]>,
}

#[cfg(feature = "rayon")]
impl<'a, T: Copy + Send + Sync> FillWork<'a, T> {
    /// The `parts` parts of writing `value` at every offset of `unique`'s plan.
    ///
    /// # Errors
    ///
    /// As [`CopyWork::jobs`].
    pub(crate) fn jobs(
        unique: &Unique<'a, 1>,
        dst: &'a mut [T],
        value: T,
        parts: usize,
    ) -> Result<Jobs<Self>, LayoutError> {
        let plan = unique.bounds().plan_for([dst.len()])?;
        let work = Self {
            plan,
            dst: SendPtr(dst.as_mut_ptr()),
            value,
            _dst: PhantomData,
        };
        Ok(Jobs::new(work, parts))
    }
}

#[cfg(feature = "rayon")]
impl<T: Copy + Send + Sync> Work for FillWork<'_, T> {
    unsafe fn run(&self, i: usize, parts: usize) {
        let part = self.plan.part(i, parts);
        // SAFETY: in bounds (`InBounds` under the `Unique` witness `new` took); the
        // destination is unique, so the parts, each run once, write disjoint elements.
        unsafe { raw::fill_nests(&part, self.dst.0, self.value) };
    }
}

/// The parts of a [`CopyPlan`] run on two slices, each handed out once: iterate (or
/// [`split_at`](CopyParts::split_at)) and [`run`](CopyPart::run) each part on any thread, in
/// any order. The copy is complete when every part has run.
///
/// Made by [`CopyPlan::parts`], which runs the checks of [`CopyPlan::run`] once. It holds the
/// exclusive borrow of the destination until the last part is dropped; a part that is never
/// run leaves its destination elements unchanged.
///
/// # Examples
///
/// ```
/// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
/// let src_layout = Layout::dense([64, 48], 4, Order::C)?;
/// let dst_layout = Layout::dense([64, 48], 4, Order::F)?; // a transpose
/// let plan = CopyPlan::new(&src_layout, &dst_layout)?;
/// let src: Vec<f32> = (0..64 * 48).map(|x| x as f32).collect();
/// let mut dst = vec![0f32; plan.dst_len()];
/// let parts = plan.parts(&src, &mut dst, 4)?;
/// std::thread::scope(|s| {
///     for part in parts {
///         s.spawn(move || part.run());
///     }
/// });
/// let mut want = vec![0f32; plan.dst_len()];
/// plan.run(&src, &mut want)?;
/// assert_eq!(dst, want);
/// # Ok::<(), LayoutError>(())
/// ```
pub struct CopyParts<'a, T> {
    jobs: Jobs<CopyWork<'a, T>>,
}

impl<T: Copy + Send + Sync + 'static> CopyParts<'_, T> {
    /// The first `mid` parts left and the rest (`mid` clamped to the number left): two
    /// halves for a fork-join runtime.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyPlan, Layout, LayoutError};
    /// let l = Layout::new([8], [1], 1)?;
    /// let plan = CopyPlan::new(&l, &l)?;
    /// let (src, mut dst) = ([7u8; 8], [0u8; 8]);
    /// let (a, b) = plan.parts(&src, &mut dst, 3)?.split_at(1);
    /// assert_eq!((a.len(), b.len()), (1, 2));
    /// std::thread::scope(|s| {
    ///     s.spawn(move || a.for_each(|p| p.run()));
    ///     b.for_each(|p| p.run());
    /// });
    /// assert_eq!(dst, [7; 8]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub fn split_at(self, mid: usize) -> (Self, Self) {
        let (a, b) = self.jobs.split_at(mid);
        (Self { jobs: a }, Self { jobs: b })
    }
}

impl<'a, T: Copy + Send + Sync + 'static> Iterator for CopyParts<'a, T> {
    type Item = CopyPart<'a, T>;

    fn next(&mut self) -> Option<Self::Item> {
        self.jobs.next().map(|job| CopyPart { job })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.jobs.len(), Some(self.jobs.len()))
    }
}

impl<T: Copy + Send + Sync + 'static> DoubleEndedIterator for CopyParts<'_, T> {
    fn next_back(&mut self) -> Option<Self::Item> {
        self.jobs.next_back().map(|job| CopyPart { job })
    }
}

impl<T: Copy + Send + Sync + 'static> ExactSizeIterator for CopyParts<'_, T> {}

impl<T> fmt::Debug for CopyParts<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CopyParts")
            .field("left", &self.jobs.range)
            .field("parts", &self.jobs.parts)
            .finish_non_exhaustive()
    }
}

impl<T> fmt::Debug for CopyPart<'_, T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CopyPart")
            .field("index", &self.job.index)
            .field("parts", &self.job.parts)
            .finish_non_exhaustive()
    }
}

/// One part of a split copy ([`CopyParts`]): `Send`, run once, by value.
///
/// # Examples
///
/// ```
/// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
/// let plan = CopyPlan::new(&Layout::dense([4, 2], 1, Order::C)?, &Layout::dense([4, 2], 1, Order::F)?)?;
/// let (src, mut dst) = ([0u8, 1, 2, 3, 4, 5, 6, 7], [9u8; 8]);
/// let mut parts = plan.parts(&src, &mut dst, 2)?;
/// let last = parts.next_back().ok_or(LayoutError::FactorZero)?;
/// assert_eq!((last.index(), last.plan().volume()), ((1, 2), 4));
/// last.run(); // column 1 of the source only
/// drop(parts); // part 0 never runs: its elements keep their values
/// assert_eq!(dst, [9, 9, 9, 9, 1, 3, 5, 7]);
/// # Ok::<(), LayoutError>(())
/// ```
pub struct CopyPart<'a, T> {
    job: Job<CopyWork<'a, T>>,
}

impl<T: Copy + Send + Sync + 'static> CopyPart<'_, T> {
    /// Which part this is, and of how many: the `i` and `parts` of [`Plan::part`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyPlan, Layout, LayoutError};
    /// let l = Layout::new([6], [1], 4)?;
    /// let plan = CopyPlan::new(&l, &l)?;
    /// let (src, mut dst) = ([1f32; 6], [0f32; 6]);
    /// let got: Vec<_> = plan.parts(&src, &mut dst, 3)?.map(|p| p.index()).collect();
    /// assert_eq!(got, [(0, 3), (1, 3), (2, 3)]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn index(&self) -> (usize, usize) {
        (self.job.index, self.job.parts)
    }

    /// The loops this part runs ([`Plan::part`] of the copy's plan).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyPlan, Layout, LayoutError};
    /// let l = Layout::new([6], [1], 4)?;
    /// let plan = CopyPlan::new(&l, &l)?;
    /// let (src, mut dst) = ([1f32; 6], [0f32; 6]);
    /// let part = plan.parts(&src, &mut dst, 2)?.nth(1).ok_or(LayoutError::FactorZero)?;
    /// assert_eq!(part.plan().nests()[0].offsets(), [3, 3]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn plan(&self) -> Plan<2> {
        self.job.work.plan.part(self.job.index, self.job.parts)
    }

    /// Copies this part's elements; no other part writes any of them.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyPlan, Layout, LayoutError};
    /// let l = Layout::new([4], [1], 2)?;
    /// let plan = CopyPlan::new(&l, &l)?;
    /// let (src, mut dst) = ([5i16; 4], [0i16; 4]);
    /// plan.parts(&src, &mut dst, 2)?.for_each(|p| p.run());
    /// assert_eq!(dst, [5; 4]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn run(self) {
        self.job.run();
    }
}

impl CopyPlan {
    /// Checks `src` and `dst` as [`run`](CopyPlan::run) does, then hands out the copy as
    /// `parts` disjoint parts ([`Plan::part`]) for any runtime to run, each once.
    ///
    /// No allocation, and no thread of its own: the caller runs the parts (threads, an
    /// executor's tasks); the copy is complete when all have run. Splitting pays only when a
    /// part's work outweighs handing it to another thread: the `rayon` feature's `par_copy`
    /// keeps copies under 1 MiB on one thread (`PAR_BYTES`), and spawning a thread per call
    /// (as in the example of [`CopyParts`]) costs far more than waking a pooled one. Planning
    /// a part is a few dozen integer operations.
    ///
    /// # Errors
    ///
    /// As [`run`](CopyPlan::run): [`LayoutError::ItemsizeMismatch`] if `size_of::<T>()` is
    /// not a layout's itemsize, [`LayoutError::OffsetOutsideSlice`] naming the slice that is
    /// too short. On `Err`, `dst` is untouched.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyPlan, Layout, LayoutError};
    /// let src_layout = Layout::new([6], [1], 2)?;
    /// let dst_layout = Layout::new([6], [-1], 2)?.with_offset(5)?;
    /// let plan = CopyPlan::new(&src_layout, &dst_layout)?;
    /// let (src, mut dst) = ([1i16, 2, 3, 4, 5, 6], [0i16; 6]);
    /// for part in plan.parts(&src, &mut dst, 2)?.rev() {
    ///     part.run(); // any order, any thread
    /// }
    /// assert_eq!(dst, [6, 5, 4, 3, 2, 1]);
    /// assert!(plan.parts(&src[..5], &mut dst, 2).is_err());
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn parts<'a, T: Copy + Send + Sync + 'static>(
        &'a self,
        src: &'a [T],
        dst: &'a mut [T],
        parts: usize,
    ) -> Result<CopyParts<'a, T>, LayoutError> {
        let unique = self.unique::<T, T>(src.len(), dst.len())?;
        let jobs = CopyWork::jobs(&unique, dst, src, parts)?;
        Ok(CopyParts { jobs })
    }
}
