//! [`CopyParts`]: the parts of one copy on two slices, each handed out once to any runtime.

use core::fmt;

use super::work::{CopyWork, Job, Jobs};
use crate::kernel::plan::{MAX_LOOPS, MAX_NESTS, Plan};
use crate::{CopyPlan, LayoutError};

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
pub struct CopyParts<'a, T, const M: usize = MAX_NESTS, const L: usize = MAX_LOOPS> {
    jobs: Jobs<CopyWork<'a, T, M, L>>,
}

impl<T: Copy + Send + Sync + 'static, const M: usize, const L: usize> CopyParts<'_, T, M, L> {
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

impl<'a, T: Copy + Send + Sync + 'static, const M: usize, const L: usize> Iterator
    for CopyParts<'a, T, M, L>
{
    type Item = CopyPart<'a, T, M, L>;

    fn next(&mut self) -> Option<Self::Item> {
        self.jobs.next().map(|job| CopyPart { job })
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.jobs.len(), Some(self.jobs.len()))
    }
}

impl<T: Copy + Send + Sync + 'static, const M: usize, const L: usize> DoubleEndedIterator
    for CopyParts<'_, T, M, L>
{
    fn next_back(&mut self) -> Option<Self::Item> {
        self.jobs.next_back().map(|job| CopyPart { job })
    }
}

impl<T: Copy + Send + Sync + 'static, const M: usize, const L: usize> ExactSizeIterator
    for CopyParts<'_, T, M, L>
{
}

impl<T, const M: usize, const L: usize> fmt::Debug for CopyParts<'_, T, M, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("CopyParts")
            .field("left", &self.jobs.range)
            .field("parts", &self.jobs.parts)
            .finish_non_exhaustive()
    }
}

impl<T, const M: usize, const L: usize> fmt::Debug for CopyPart<'_, T, M, L> {
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
pub struct CopyPart<'a, T, const M: usize = MAX_NESTS, const L: usize = MAX_LOOPS> {
    job: Job<CopyWork<'a, T, M, L>>,
}

impl<T: Copy + Send + Sync + 'static, const M: usize, const L: usize> CopyPart<'_, T, M, L> {
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
    pub const fn plan(&self) -> Plan<2, M, L> {
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

impl<const M: usize, const L: usize> CopyPlan<M, L> {
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
    ) -> Result<CopyParts<'a, T, M, L>, LayoutError> {
        let unique = self.unique::<T, T>(src.len(), dst.len())?;
        let jobs = CopyWork::jobs(&unique, dst, src, parts)?;
        Ok(CopyParts { jobs })
    }
}
