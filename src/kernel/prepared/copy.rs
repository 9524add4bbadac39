//! [`CopyPlan`]: a copy (and a map, and a copy into uninitialised memory) planned and
//! validated once.

use core::mem::MaybeUninit;

use crate::kernel::mapping::{Lowered, Mapping};
use crate::kernel::plan::{MAX_LOOPS, MAX_NESTS, Plan};
use crate::kernel::proof::{Checked, CopyFact, Dense, Unique, UniqueFact};
use crate::kernel::raw;
#[cfg(not(target_os = "none"))]
use crate::kernel::small;
use crate::{Layout, LayoutError, Operand};

/// A copy between two layouts, planned and validated once; [`run`](CopyPlan::run) only checks
/// the buffers, then loops.
///
/// Plain `Copy` data (a few hundred bytes: the [`Plan`] of its loop nests, with room for
/// `M` nests of `L` loops, one nest per strided piece of the shape; `M` is [`MAX_NESTS`] and
/// `L` [`MAX_LOOPS`] for `CopyPlan` without parameters, [`CopyPlan::with_nests`] makes room
/// for more nests and [`CopyPlan::with_loops`] for more or fewer loops). Built in a
/// `const` item, it costs no planning and no validation at run time, and links none. On
/// targets without an operating system, [`run`](CopyPlan::run) and its checks are inlined
/// into each call: for a `const` plan of one nest of at most two loops, the compiler folds
/// the lengths, element sizes and loops into the code, so the plan itself is not stored and
/// the call becomes two length comparisons and the block kernel's call (a plan built at run
/// time, or one of more nests, is read from memory as elsewhere; each call site of `run`
/// then carries its own copy of the checks).
///
/// ```text
/// CopyPlan::new(&src (2,3):(3,1), &dst (2,3):(1,2))   src_len 6, dst_len 6
/// run(src [a b c d e f]) -> dst [a d b e c f]
/// ```
///
/// # Examples
///
/// ```
/// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
/// let src_layout = Layout::dense([2, 3], 4, Order::C)?;
/// let dst_layout = Layout::dense([2, 3], 4, Order::F)?;
/// let plan = CopyPlan::new(&src_layout, &dst_layout)?;
/// assert_eq!((plan.src_len(), plan.dst_len()), (6, 6));
/// let mut dst = [0f32; 6];
/// for frame in 0..3 {
///     let src = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0].map(|x: f32| x + frame as f32);
///     plan.run(&src, &mut dst)?;
/// }
/// assert_eq!(dst, [2.0, 5.0, 3.0, 6.0, 4.0, 7.0]);
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct CopyPlan<const M: usize = MAX_NESTS, const L: usize = MAX_LOOPS> {
    /// The plan with what validation found: a unique destination, and the plan's one block
    /// when it is one nest of at most two loops (decoded once, so `run` hands it to the block
    /// kernel without walking the plan; on hosts also classified for the small-block kernels).
    checked: Checked<2, CopyFact, M, L>,
}

/// How many times [`CopyPlan::tuned`] runs each candidate order; the fastest run is its time.
const TUNE_ROUNDS: usize = 7;

impl CopyPlan {
    /// Plans and validates a copy from `src` to `dst` once.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::ShapeMismatch`], and the other errors of [`Plan::new`];
    /// - [`LayoutError::OffsetBelowSlice`] if an offset of a layout is negative (no slice
    ///   holds it);
    /// - [`LayoutError::DestinationNotUnique`] if two indices of `dst` share an offset;
    /// - [`LayoutError::UniquenessUndecided`] if that could not be decided within the search
    ///   budget (proportional to the volume).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyPlan, Layout, LayoutError};
    /// let src = Layout::new([4], [1], 4)?;
    /// let broadcast = Layout::new([4], [0], 4)?;
    /// assert_eq!(CopyPlan::new(&src, &broadcast), Err(LayoutError::DestinationNotUnique));
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn new<const N: usize>(
        src: &Layout<N>,
        dst: &Layout<N>,
    ) -> Result<Self, LayoutError> {
        Self::from_lowered(&src.lowered(), &dst.lowered())
    }

    /// [`CopyPlan::new`] for any operands, interleaved ones included.
    ///
    /// # Errors
    ///
    /// As [`CopyPlan::new`], and [`LayoutError::AxisOutOfRange`],
    /// [`LayoutError::FactorZero`] or [`LayoutError::InterleaveConflict`] for interleaves the
    /// plan cannot take.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyPlan, InterleaveLayout, InterleavedLayout, Layout, LayoutError, Order};
    /// let chw = Layout::dense([3, 2, 2], 1, Order::C)?;
    /// let hwc = InterleavedLayout::dense([3, 2, 2], 1, InterleaveLayout::new(0, 3)?)?;
    /// let plan = CopyPlan::of(&chw, &hwc)?;
    /// let src: Vec<u8> = (0..12).collect();
    /// let mut dst = vec![0u8; plan.dst_len()];
    /// plan.run(&src, &mut dst)?;
    /// assert_eq!(dst, [0, 4, 8, 1, 5, 9, 2, 6, 10, 3, 7, 11]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn of<const N: usize, S, D>(src: &S, dst: &D) -> Result<Self, LayoutError>
    where
        S: Mapping<N> + ?Sized,
        D: Mapping<N> + ?Sized,
    {
        Self::from_lowered(&src.lowered(), &dst.lowered())
    }

    /// [`CopyPlan::new`] from lowered operands: `const`, for interleaved layouts known at
    /// compile time (through [`InterleavedLayout::lowered`](crate::InterleavedLayout::lowered)).
    ///
    /// # Errors
    ///
    /// As [`CopyPlan::of`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyPlan, InterleaveLayout, InterleavedLayout, Layout, LayoutError, Order, const_unwrap};
    /// const PLANAR: Layout<2> = const_unwrap(Layout::dense([4, 8], 4, Order::C));
    /// const BLOCKS: InterleavedLayout<2> = const_unwrap(InterleavedLayout::dense(
    ///     [4, 8], 4, const_unwrap(InterleaveLayout::new(0, 4)),
    /// ));
    /// const PLAN: CopyPlan = const_unwrap(CopyPlan::from_lowered(&PLANAR.lowered(), &BLOCKS.lowered()));
    /// assert_eq!(PLAN.dst_len(), 32);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn from_lowered<const N: usize>(
        src: &Lowered<N>,
        dst: &Lowered<N>,
    ) -> Result<Self, LayoutError> {
        Self::with_nests_lowered(src, dst)
    }
}

impl<const M: usize> CopyPlan<M> {
    /// [`CopyPlan::of`] with room for `M` nests, one per strided piece of the shape, where
    /// [`CopyPlan::new`] has [`MAX_NESTS`]: for operands blocked so differently, or of a rank
    /// so far past [`MAX_LOOPS`] without merging, that they cut the
    /// shape into more pieces than that (the run-time [`copy()`](crate::copy()) plans them a
    /// few at a time instead). The run is the same; the plan is `M` nests long (plain `Copy`
    /// data, 136 bytes a nest on 32-bit targets and 272 on 64-bit ones).
    ///
    /// # Errors
    ///
    /// As [`CopyPlan::of`], with [`LayoutError::InterleaveConflict`] (differently blocked
    /// operands) or [`LayoutError::RankOverflow`] (peeled loops) when the pieces outnumber
    /// `M` (and [`LayoutError::InterleaveConflict`] past [`MAX_PIECES`](crate::plan::MAX_PIECES),
    /// whatever `M`).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyPlan, InterleaveLayout, InterleavedLayout, LayoutError};
    /// // Blocks of 2 against blocks of 3 on an axis of 13: a piece per phase of their least
    /// // common multiple, six, more than `CopyPlan::of`'s four nests hold.
    /// let a = InterleavedLayout::dense([13, 13], 4, InterleaveLayout::new(0, 2)?)?;
    /// let b = InterleavedLayout::dense([13, 13], 4, InterleaveLayout::new(0, 3)?)?;
    /// assert_eq!(CopyPlan::of(&a, &b), Err(LayoutError::InterleaveConflict));
    /// let plan = CopyPlan::<8>::with_nests(&a, &b)?;
    /// assert_eq!(plan.plan().nests().len(), 6);
    /// let src: Vec<u32> = (0..plan.src_len() as u32).collect();
    /// let mut dst = vec![0u32; plan.dst_len()];
    /// plan.run(&src, &mut dst)?;
    /// let mut expected = vec![0u32; plan.dst_len()];
    /// strided_layout::copy(&src, &a, &mut expected, &b)?;
    /// assert_eq!(dst, expected);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn with_nests<const N: usize, S, D>(src: &S, dst: &D) -> Result<Self, LayoutError>
    where
        S: Mapping<N> + ?Sized,
        D: Mapping<N> + ?Sized,
    {
        Self::with_nests_lowered(&src.lowered(), &dst.lowered())
    }

    /// [`CopyPlan::with_nests`] from lowered operands: `const`, as
    /// [`CopyPlan::from_lowered`].
    ///
    /// # Errors
    ///
    /// As [`CopyPlan::with_nests`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyPlan, Layout, LayoutError, const_unwrap};
    /// // Rank 9, extent 2 on every axis, nothing merges: the outermost loop is peeled into
    /// // two pieces, one nest each; room for 2 is enough.
    /// const S: [isize; 9] = [6561, 2187, 729, 243, 81, 27, 9, 3, 1];
    /// const L: Layout<9> = const_unwrap(Layout::new([2; 9], S, 1));
    /// const PLAN: CopyPlan<2> = const_unwrap(CopyPlan::with_nests_lowered(&L.lowered(), &L.lowered()));
    /// assert_eq!(PLAN.plan().nests().len(), 2);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn with_nests_lowered<const N: usize>(
        src: &Lowered<N>,
        dst: &Lowered<N>,
    ) -> Result<Self, LayoutError> {
        Self::with_loops_lowered(src, dst)
    }
}

impl<const M: usize, const L: usize> CopyPlan<M, L> {
    /// [`CopyPlan::with_nests`] with room for `L` loops a nest where it has
    /// [`MAX_LOOPS`] ([`Plan::with_loops`]): a rank past that
    /// which merges nowhere planned as one nest, or a plan of short nests kept small (a
    /// stereo copy's one nest of two loops: `CopyPlan<1, 2>`). The run is the same.
    ///
    /// # Errors
    ///
    /// As [`CopyPlan::with_nests`], with [`LayoutError::RankOverflow`] `{ max: L }` when the
    /// loops peeled past `L` make more than `M` pieces.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
    /// // 64 stereo frames, planar into interleaved: one nest of two loops.
    /// let planar = Layout::dense([2, 64], 2, Order::C)?;
    /// let frames = Layout::dense([2, 64], 2, Order::F)?;
    /// let small = CopyPlan::<1, 2>::with_loops(&planar, &frames)?;
    /// assert!(core::mem::size_of_val(&small) < core::mem::size_of::<CopyPlan>());
    /// let src: Vec<i16> = (0..128).collect();
    /// let mut dst = vec![0i16; 128];
    /// small.run(&src, &mut dst)?;
    /// assert_eq!(&dst[..4], &[0, 64, 1, 65]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn with_loops<const N: usize, S, D>(src: &S, dst: &D) -> Result<Self, LayoutError>
    where
        S: Mapping<N> + ?Sized,
        D: Mapping<N> + ?Sized,
    {
        Self::with_loops_lowered(&src.lowered(), &dst.lowered())
    }

    /// [`CopyPlan::with_loops`] from lowered operands: `const`, as
    /// [`CopyPlan::from_lowered`].
    ///
    /// # Errors
    ///
    /// As [`CopyPlan::with_loops`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyPlan, Layout, LayoutError, Order, const_unwrap};
    /// // Rank 9, nothing merges: with room for 9 loops, one nest (no pieces).
    /// const S: [isize; 9] = [6561, 2187, 729, 243, 81, 27, 9, 3, 1];
    /// const L9: Layout<9> = const_unwrap(Layout::new([2; 9], S, 1));
    /// const PLAN: CopyPlan<1, 9> = const_unwrap(CopyPlan::with_loops_lowered(&L9.lowered(), &L9.lowered()));
    /// assert_eq!(PLAN.plan().nests().len(), 1);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn with_loops_lowered<const N: usize>(
        src: &Lowered<N>,
        dst: &Lowered<N>,
    ) -> Result<Self, LayoutError> {
        match Self::unique_plan(src, dst) {
            Ok(checked) => Ok(Self {
                checked: checked.for_copy(dst.itemsize),
            }),
            Err(e) => Err(e),
        }
    }

    /// The plan of a copy from `src` to `dst`, with each operand's shortest slice and its
    /// destination checked unique: what every prepared copy keeps.
    pub(super) const fn unique_plan<const N: usize>(
        src: &Lowered<N>,
        dst: &Lowered<N>,
    ) -> Result<Checked<2, UniqueFact, M, L>, LayoutError> {
        match Checked::new(&[*dst, *src], [Operand::Destination, Operand::Source]) {
            Ok(c) => c.unique(),
            Err(e) => Err(e),
        }
    }

    /// The shortest source slice [`run`](CopyPlan::run) accepts, in elements (the largest
    /// source offset plus one; 0 for an empty copy).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
    /// // Every other element of 8, into 4 consecutive ones.
    /// let plan = CopyPlan::new(&Layout::new([4], [2], 4)?, &Layout::dense([4], 4, Order::C)?)?;
    /// assert_eq!((plan.src_len(), plan.dst_len()), (7, 4)); // offsets 0, 2, 4, 6
    /// let src = [0f32, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0];
    /// let mut dst = [0f32; 4];
    /// plan.run(&src[..plan.src_len()], &mut dst)?;
    /// assert_eq!(dst, [0.0, 2.0, 4.0, 6.0]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn src_len(&self) -> usize {
        self.checked.lens()[1]
    }

    /// The shortest destination slice [`run`](CopyPlan::run) accepts, in elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyPlan, Layout, LayoutError, Operand, Order};
    /// // Into the odd slots of a stereo buffer: the last one written is 2·3 + 1.
    /// let right = Layout::new([4], [2], 2)?.with_offset(1)?;
    /// let plan = CopyPlan::new(&Layout::dense([4], 2, Order::C)?, &right)?;
    /// assert_eq!(plan.dst_len(), 8);
    /// let mut short = [0i16; 7];
    /// assert_eq!(
    ///     plan.run(&[1i16, 2, 3, 4], &mut short),
    ///     Err(LayoutError::OffsetOutsideSlice { operand: Operand::Destination, needed: 8, given: 7 })
    /// );
    /// assert_eq!(short, [0; 7]); // untouched
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn dst_len(&self) -> usize {
        self.checked.lens()[0]
    }

    /// The source's element size in bytes (its layout's itemsize).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
    /// let l = Layout::dense([2, 3], 4, Order::C)?;
    /// let plan = CopyPlan::new(&l, &l)?;
    /// assert_eq!((plan.src_itemsize(), plan.dst_itemsize()), (4, 4));
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn src_itemsize(&self) -> usize {
        self.checked.itemsizes()[1]
    }

    /// The destination's element size in bytes (its layout's itemsize). A copy's runs need it
    /// equal to [`src_itemsize`](CopyPlan::src_itemsize); [`run_map`](CopyPlan::run_map) may
    /// convert between sizes.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
    /// // Bytes widened to `f32` by `run_map`: the two sizes differ.
    /// let plan = CopyPlan::new(&Layout::dense([4], 1, Order::C)?, &Layout::dense([4], 4, Order::C)?)?;
    /// assert_eq!((plan.src_itemsize(), plan.dst_itemsize()), (1, 4));
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn dst_itemsize(&self) -> usize {
        self.checked.itemsizes()[0]
    }

    /// The plan the runs follow.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
    /// // A dense 3 × 4 copy merges into one loop of 12 elements.
    /// let l = Layout::dense([3, 4], 4, Order::C)?;
    /// let plan = CopyPlan::new(&l, &l)?;
    /// let nests = plan.plan().nests();
    /// assert_eq!((nests.len(), nests[0].loops().len(), plan.plan().volume()), (1, 1, 12));
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn plan(&self) -> &Plan<2, M, L> {
        self.checked.plan()
    }

    /// The checks of every run: the element sizes, then the lengths; the witness the loops
    /// take.
    #[inline]
    pub(crate) fn unique<S: 'static, D: 'static>(
        &self,
        src_len: usize,
        dst_len: usize,
    ) -> Result<Unique<'_, 2, M, L>, LayoutError> {
        let sizes = [size_of::<D>(), size_of::<S>()];
        self.checked.unique_for(sizes, [dst_len, src_len])
    }

    /// Copies `src` to `dst` as planned: [`copy()`](crate::copy()) without the planning and
    /// validation.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::ItemsizeMismatch`] if `size_of::<T>()` is not a layout's itemsize;
    /// - [`LayoutError::OffsetOutsideSlice`] naming the slice shorter than
    ///   [`src_len`](CopyPlan::src_len) or [`dst_len`](CopyPlan::dst_len).
    ///
    /// On `Err`, `dst` is untouched.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyPlan, Layout, LayoutError, Operand};
    /// let plan = CopyPlan::new(&Layout::new([3], [1], 2)?, &Layout::new([3], [-1], 2)?.with_offset(2)?)?;
    /// let mut dst = [0i16; 3];
    /// plan.run(&[1i16, 2, 3], &mut dst)?;
    /// assert_eq!(dst, [3, 2, 1]);
    /// let short = plan.run(&[1i16, 2], &mut dst);
    /// assert_eq!(
    ///     short,
    ///     Err(LayoutError::OffsetOutsideSlice { operand: Operand::Source, needed: 3, given: 2 })
    /// );
    /// assert!(plan.run(&[1u32, 2, 3], &mut [0u32; 3]).is_err()); // 4-byte elements
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[cfg_attr(
        target_os = "none",
        expect(
            clippy::inline_always,
            reason = "a `const` plan's run folds into immediates only when inlined into its caller"
        )
    )]
    #[cfg_attr(target_os = "none", inline(always))]
    #[cfg_attr(not(target_os = "none"), inline)]
    pub fn run<T: Copy + 'static>(&self, src: &[T], dst: &mut [T]) -> Result<(), LayoutError> {
        #[cfg(not(target_os = "none"))]
        if small::copy_planned(&self.checked, dst, src) {
            return Ok(());
        }
        let size = size_of::<T>();
        let proofs = self
            .checked
            .copy_proofs([size, size], [dst.len(), src.len()])?;
        if let Some(block) = proofs.block() {
            if raw::copy_small_inlined(block, dst, src)? {
                return Ok(());
            }
        }
        raw::copy(proofs.unique(), dst, src)
    }

    /// This copy with the loop order that runs fastest here, measured: the planner's order
    /// and the plain loops that walk the destination, then the source, through memory
    /// (each nest's loops sorted by that operand's strides, merged, untiled), each checked
    /// again as a new plan is, run on `src` and `dst` and timed with `clock`, in turn,
    /// seven times; the fastest of each's runs is its time. A candidate replaces the
    /// planner's order only where it runs more than 1/16 faster.
    ///
    /// The planner chooses its order from the layouts alone, by rules, and on some layouts
    /// (rows a power of two apart, whose cache lines crowd a few sets) a plain loop's order
    /// runs faster on a given machine. Tuning once, where a plan is made for many runs,
    /// keeps whichever is faster there. `clock` is any counter that counts up during a run
    /// (nanoseconds, cycles; a cycle counter that wraps mid-run only spoils that one
    /// timing). On return `dst` holds the copy, as after [`run`](CopyPlan::run).
    ///
    /// ```text
    /// candidates: the planner's order, the destination's, the source's
    /// 7 rounds, each candidate run once a round: time = the fastest of its 7 runs
    /// kept: the planner's, unless another's time is under 15/16 of it
    /// ```
    ///
    /// # Errors
    ///
    /// As [`run`](CopyPlan::run), before anything is timed: no plan is returned for buffers
    /// the plan does not fit.
    ///
    /// # Examples
    ///
    /// ```
    /// use std::time::Instant;
    /// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
    /// let src_layout = Layout::dense([256, 256], 4, Order::C)?;
    /// let dst_layout = Layout::dense([256, 256], 4, Order::F)?; // a transpose
    /// let plan = CopyPlan::new(&src_layout, &dst_layout)?;
    /// let src: Vec<f32> = (0..=u16::MAX).map(f32::from).collect();
    /// let mut dst = vec![0f32; plan.dst_len()];
    /// let t0 = Instant::now();
    /// let clock = || u64::try_from(t0.elapsed().as_nanos()).unwrap_or(u64::MAX);
    /// let tuned = plan.tuned(&src, &mut dst, clock)?;
    /// assert_eq!(dst[1], 256.0); // the copy is done
    /// dst.fill(0.0);
    /// tuned.run(&src, &mut dst)?; // as any plan, with the order kept
    /// assert_eq!((dst[1], dst[256]), (256.0, 1.0));
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn tuned<T: Copy + 'static>(
        &self,
        src: &[T],
        dst: &mut [T],
        mut clock: impl FnMut() -> u64,
    ) -> Result<Self, LayoutError> {
        self.run(src, dst)?;
        // The planner's first: a candidate equal to one before it is not timed again.
        let candidates = [Ok(*self), self.in_order_of(0), self.in_order_of(1)];
        let mut times = [u64::MAX; 3];
        for _ in 0..TUNE_ROUNDS {
            for (i, (candidate, time)) in candidates.iter().zip(&mut times).enumerate() {
                let Ok(c) = candidate else { continue };
                if candidates.iter().take(i).any(|p| p.as_ref() == Ok(c)) {
                    continue;
                }
                let t0 = clock();
                c.run(src, dst)?;
                *time = (*time).min(clock().saturating_sub(t0));
            }
        }
        let mut kept = (*self, times[0]);
        for (candidate, &time) in candidates.iter().zip(&times).skip(1) {
            if let Ok(c) = candidate {
                if time.saturating_mul(16) < kept.1.saturating_mul(15) {
                    kept = (*c, time);
                }
            }
        }
        Ok(kept.0)
    }

    /// This copy walked in operand `k`'s memory order (0 the destination, 1 the source):
    /// [`Checked::in_order_of`](crate::kernel::proof::Checked).
    fn in_order_of(&self, k: usize) -> Result<Self, LayoutError> {
        Ok(Self {
            checked: self.checked.in_order_of(k)?,
        })
    }

    /// Writes `f(src[i])` at every index as planned: [`map`](crate::map) without the planning
    /// and validation (`f` is called once per index, in the plan's order).
    ///
    /// # Errors
    ///
    /// As [`run`](CopyPlan::run), with `dst`'s itemsize checked against `U` and `src`'s
    /// against `T`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyPlan, Layout, LayoutError};
    /// let plan = CopyPlan::new(&Layout::new([3], [1], 1)?, &Layout::new([3], [1], 4)?)?;
    /// let mut dst = [0f32; 3];
    /// plan.run_map(&[1u8, 2, 3], &mut dst, |x| f32::from(x) / 2.0)?;
    /// assert_eq!(dst, [0.5, 1.0, 1.5]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn run_map<T, U, F>(&self, src: &[T], dst: &mut [U], f: F) -> Result<(), LayoutError>
    where
        T: Copy + 'static,
        U: Copy + 'static,
        F: FnMut(T) -> U,
    {
        let unique = self.unique::<T, U>(src.len(), dst.len())?;
        raw::map(&unique, dst, src, f)
    }

    /// Copies into uninitialised memory as planned and returns the written span:
    /// [`copy_uninit`](crate::copy_uninit) without the planning and validation.
    ///
    /// # Errors
    ///
    /// As [`run`](CopyPlan::run), and [`LayoutError::DestinationHasGaps`] if the
    /// destination's offsets leave a gap.
    ///
    /// # Examples
    ///
    /// ```
    /// use core::mem::{MaybeUninit, size_of};
    /// use strided_layout::{CopyPlan, Layout, LayoutError};
    /// let plan = CopyPlan::new(&Layout::new([3], [1], 8)?, &Layout::new([3], [-1], 8)?.with_offset(2)?)?;
    /// let mut dst = [MaybeUninit::<f64>::uninit(); 3];
    /// assert_eq!(plan.run_uninit(&[1.0, 2.0, 3.0], &mut dst)?, [3.0, 2.0, 1.0]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn run_uninit<'d, T: Copy + 'static>(
        &self,
        src: &[T],
        dst: &'d mut [MaybeUninit<T>],
    ) -> Result<&'d mut [T], LayoutError> {
        let unique = self.unique::<T, T>(src.len(), dst.len())?;
        raw::copy_uninit(&Dense::check(unique)?, dst, src)
    }
}
