//! The work of one split kernel, `Copy` and `Send`, which each part carries; the jobs that
//! hand out its parts, each once, and halve for fork-join runtimes.

use core::marker::PhantomData;
use core::ops::Range;

use crate::LayoutError;
use crate::kernel::plan::{MAX_LOOPS, MAX_NESTS, Plan};
use crate::kernel::proof::Unique;
use crate::kernel::{raw, stream};

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
    pub(super) range: Range<usize>,
    pub(super) parts: usize,
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
    pub(super) work: W,
    pub(super) index: usize,
    pub(super) parts: usize,
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

/// A split copy: the plan, the destination and source, and whether the stores stream
/// (`[transposes and channel blocks, contiguous rows]`, as `raw::copy_nests` takes them; a
/// part never owns the destination's bytes between its elements: other parts' elements lie
/// there).
pub(crate) struct CopyWork<'a, T, const M: usize = MAX_NESTS, const L: usize = MAX_LOOPS> {
    pub(super) plan: &'a Plan<2, M, L>,
    dst: SendPtr<T>,
    src: &'a [T],
    stream: [bool; 2],
    _dst: PhantomData<&'a mut [T]>,
}

impl<T, const M: usize, const L: usize> Clone for CopyWork<'_, T, M, L> {
    fn clone(&self) -> Self {
        *self
    }
}
impl<T, const M: usize, const L: usize> Copy for CopyWork<'_, T, M, L> {}

impl<'a, T: Copy + Send + Sync + 'static, const M: usize, const L: usize> CopyWork<'a, T, M, L> {
    /// The `parts` parts of copying `src` to `dst` as `unique`'s plan says.
    ///
    /// # Errors
    ///
    /// [`LayoutError::OffsetOutsideSlice`] if the slices are not the lengths `unique` was
    /// checked for.
    pub(crate) fn jobs(
        unique: &Unique<'a, 2, M, L>,
        dst: &'a mut [T],
        src: &'a [T],
        parts: usize,
    ) -> Result<Jobs<Self>, LayoutError> {
        let plan = unique.bounds().plan_for([dst.len(), src.len()])?;
        let stream = stream::stream_worthy::<T>(|| plan.volume());
        let work = Self {
            plan,
            dst: SendPtr(dst.as_mut_ptr()),
            src,
            stream: [
                stream,
                stream && stream::stream_rows_worthy::<T>(|| plan.volume()),
            ],
            _dst: PhantomData,
        };
        Ok(Jobs::new(work, parts))
    }
}

impl<T: Copy + Send + Sync + 'static, const M: usize, const L: usize> Work
    for CopyWork<'_, T, M, L>
{
    unsafe fn run(&self, i: usize, parts: usize) {
        let part = self.plan.part(i, parts);
        // A part never owns the lanes between its elements (`false`): its neighbours may
        // write them.
        let (dst, src, flags) = (
            self.dst.0,
            self.src.as_ptr(),
            [self.stream[0], self.stream[1], false],
        );
        // The part's offsets are a subset of the plan's, which lie inside `dst` and `src` (the
        // `InBounds` witness under the `Unique` one `new` took, lengths matched by
        // `plan_for`); `dst` is borrowed exclusively for `'a` and `src` shared, so they do not
        // overlap and nobody else writes either.
        // SAFETY: the above; the destination is unique (the `Unique` witness), so the
        // disjoint index sets of the parts (`Plan::part`) write disjoint elements, and each
        // part runs once (this method's contract): no other part touches its elements.
        unsafe { raw::copy_nests(&part, dst, src, flags) };
        if self.stream[0] {
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
