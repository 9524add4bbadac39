//! Prepared kernels: everything that does not depend on the buffers (shapes, the [`Plan`],
//! the destination's uniqueness, each buffer's shortest length) checked once, then run many
//! times.
//!
//! | prepared | built by | runs | each run checks |
//! | --- | --- | --- | --- |
//! | [`CopyPlan`] | [`CopyPlan::new`] (`const`, [`Layout`] operands), [`CopyPlan::from_lowered`] (`const`, any lowered operands), [`CopyPlan::of`] (any [`Mapping`]) | [`run`](CopyPlan::run) = [`copy()`](crate::copy()), [`run_map`](CopyPlan::run_map) = [`map`](crate::map), [`run_uninit`](CopyPlan::run_uninit) = [`copy_uninit`](crate::copy_uninit) | the two lengths and `size_of::<T>()` |
//! | [`CopyWithinPlan`] | [`CopyWithinPlan::new`] (`const`), [`CopyWithinPlan::of`] | [`run`](CopyWithinPlan::run) = [`copy_within`](crate::copy_within) | the buffer's length and `size_of::<T>()` |
//! | [`FillPlan`] | [`FillPlan::new`] (`const`), [`FillPlan::of`] | [`run`](FillPlan::run) = [`fill`](crate::fill) | the length and `size_of::<T>()` |
//! | [`ZipMapPlan`] | [`ZipMapPlan::new`] (`const`), [`ZipMapPlan::of`] | [`run`](ZipMapPlan::run) = [`zip_map`](crate::zip_map) | the three lengths and element sizes |
//!
//! A plan built in a `const` item is planned and validated by the compiler: a bad layout fails
//! the build with the error's message, and the program links no planner and no uniqueness
//! search, only the loops.
//!
//! ```
//! use strided_layout::{CopyPlan, Layout, LayoutError, Order, const_unwrap};
//! // Stereo, 4 frames: planar [2, 4] -> interleaved (frames outer, channels inner).
//! const PLANAR: Layout<2> = const_unwrap(Layout::dense([2, 4], 2, Order::C));
//! const FRAMES: Layout<2> = const_unwrap(Layout::dense([2, 4], 2, Order::F));
//! const PLAN: CopyPlan = const_unwrap(CopyPlan::new(&PLANAR, &FRAMES));
//! let src: [i16; 8] = [0, 1, 2, 3, 10, 11, 12, 13];
//! let mut dst = [0i16; 8];
//! PLAN.run(&src, &mut dst)?;
//! assert_eq!(dst, [0, 10, 1, 11, 2, 12, 3, 13]);
//! # Ok::<(), LayoutError>(())
//! ```

use core::mem::{MaybeUninit, size_of};

use crate::algo::access::set;
use crate::kernel::element::check_size;
use crate::kernel::fill::footprint;
use crate::kernel::mapping::{Lowered, Mapping};
use crate::kernel::plan::{OneBlock, Plan};
use crate::kernel::proof::{
    Dense, Disjoint, DisjointToken, InBounds, Shortest, Unique, UniqueToken, first_where,
};
use crate::kernel::raw;
#[cfg(not(target_os = "none"))]
use crate::kernel::small::{self, Small};
use crate::{Layout, LayoutError, Operand};

/// What every prepared kernel keeps: the plan of its `K` operands (destination first), their
/// names for errors, their itemsizes and the shortest slice each accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
struct Prepared<const K: usize> {
    plan: Plan<K>,
    names: [Operand; K],
    itemsize: [usize; K],
    shortest: Shortest<K>,
}

impl<const K: usize> Prepared<K> {
    /// Plans `ops` and measures each operand's shortest slice (an error naming `names[k]` when
    /// an offset of operand `k` is negative).
    const fn new<const N: usize>(
        ops: &[Lowered<N>; K],
        names: [Operand; K],
    ) -> Result<Self, LayoutError> {
        let plan = match Plan::new(ops) {
            Ok(p) => p,
            Err(e) => return Err(e),
        };
        let shortest = match Shortest::of(&plan, names) {
            Ok(s) => s,
            Err(e) => return Err(e),
        };
        let mut itemsize = [0usize; K];
        let mut k = 0;
        while k < K {
            let Some((_, [op, ..])) = ops.split_at_checked(k) else {
                break;
            };
            set(&mut itemsize, k, op.itemsize);
            k = k.saturating_add(1);
        }
        Ok(Self {
            plan,
            names,
            itemsize,
            shortest,
        })
    }

    /// The shortest slice of each operand, operand 0 first.
    const fn lens(&self) -> [usize; K] {
        self.shortest.lens()
    }

    /// Each run's checks: operand `k`'s element size `sizes[k]` against its itemsize, then
    /// its slice's length `lens[k]` against the shortest it accepts (one comparison each).
    #[inline]
    fn bounds(&self, sizes: [usize; K], lens: [usize; K]) -> Result<InBounds<'_, K>, LayoutError> {
        if let Some(k) = first_where(&self.itemsize, &sizes, |a, b| a != b) {
            if let (Some(&name), Some(&itemsize), Some(&size)) =
                (self.names.get(k), self.itemsize.get(k), sizes.get(k))
            {
                check_size(name, itemsize, size)?;
            }
        }
        InBounds::from_shortest(&self.plan, &self.shortest, lens, self.names)
    }
}

/// A copy between two layouts, planned and validated once; [`run`](CopyPlan::run) only checks
/// the buffers, then loops.
///
/// Plain `Copy` data (a few hundred bytes: the [`Plan`] of at most two loop nests of [`MAX_LOOPS`](crate::MAX_LOOPS) loops). Built in a
/// `const` item, it costs no planning and no validation at run time, and links none.
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
pub struct CopyPlan {
    core: Prepared<2>,
    unique: UniqueToken,
    /// The plan's one block and its kernel, when it is a small copy of a transpose shape
    /// (classified once, here, so `run` goes straight to the kernel). Hosts only: on bare
    /// metal the plan stays as small as the loops need.
    #[cfg(not(target_os = "none"))]
    small: Option<Small>,
    /// The plan's one block, when the plan is one untiled nest of at most two loops (decoded
    /// once, here, so `run` hands it to the block kernel without walking the plan).
    one: Option<OneBlock>,
}

impl CopyPlan {
    /// Plans and validates a copy from `src` to `dst` once.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::ShapeMismatch`], and the other errors of [`Plan::new`];
    /// - [`LayoutError::OffsetOutsideSlice`] if an offset of a layout is negative (no slice
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
        let core = match Prepared::new(&[*dst, *src], [Operand::Destination, Operand::Source]) {
            Ok(c) => c,
            Err(e) => return Err(e),
        };
        match UniqueToken::check(&core.plan) {
            Ok(unique) => Ok(Self {
                #[cfg(not(target_os = "none"))]
                small: Small::of_plan(&core.plan, dst.itemsize),
                one: OneBlock::of_plan(&core.plan),
                core,
                unique,
            }),
            Err(e) => Err(e),
        }
    }

    /// The shortest source slice [`run`](CopyPlan::run) accepts, in elements (the largest
    /// source offset plus one; 0 for an empty copy).
    #[must_use]
    pub const fn src_len(&self) -> usize {
        self.core.lens()[1]
    }

    /// The shortest destination slice [`run`](CopyPlan::run) accepts, in elements.
    #[must_use]
    pub const fn dst_len(&self) -> usize {
        self.core.lens()[0]
    }

    /// The plan the runs follow.
    #[must_use]
    pub const fn plan(&self) -> &Plan<2> {
        &self.core.plan
    }

    /// The checks of every run: the element sizes, then the lengths; the witness the loops
    /// take.
    pub(crate) fn unique<S: 'static, D: 'static>(
        &self,
        src_len: usize,
        dst_len: usize,
    ) -> Result<Unique<'_, 2>, LayoutError> {
        let bounds = self
            .core
            .bounds([size_of::<D>(), size_of::<S>()], [dst_len, src_len])?;
        Ok(Unique::from_token(bounds, self.unique))
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
    /// assert_eq!(short, Err(LayoutError::OffsetOutsideSlice { operand: Operand::Source }));
    /// assert!(plan.run(&[1u32, 2, 3], &mut [0u32; 3]).is_err()); // 4-byte elements
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[inline]
    pub fn run<T: Copy + 'static>(&self, src: &[T], dst: &mut [T]) -> Result<(), LayoutError> {
        let unique = self.unique::<T, T>(src.len(), dst.len())?;
        #[cfg(not(target_os = "none"))]
        if let Some(block) = &self.small {
            if small::copy_planned(&unique, block, dst, src) {
                return Ok(());
            }
        }
        if let Some(one) = &self.one {
            // `one` is the block of this plan (`OneBlock::of_plan`, kept beside it).
            if raw::copy_one(&unique, one, dst, src)? {
                return Ok(());
            }
        }
        raw::copy(&unique, dst, src)
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
    /// As [`run`](CopyPlan::run), and [`LayoutError::DestinationNotDense`] if the
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

/// A copy inside one buffer, planned and validated once (the destination unique, the two
/// layouts coinciding or disjoint); [`run`](CopyWithinPlan::run) only checks the buffer.
///
/// ```text
/// buf 0 1 2 3 4 5     src (3):(1) +0, dst (3):(-1) +5      buf after: 0 1 2 2 1 0
/// ```
///
/// # Examples
///
/// ```
/// use strided_layout::{CopyWithinPlan, Layout, LayoutError, const_unwrap};
/// const FRONT: Layout<1> = const_unwrap(Layout::new([3], [1], 4));
/// const BACK_REVERSED: Layout<1> = const_unwrap(const_unwrap(Layout::new([3], [-1], 4)).with_offset(5));
/// const MIRROR: CopyWithinPlan = const_unwrap(CopyWithinPlan::new(&FRONT, &BACK_REVERSED));
/// let mut buf = [0, 1, 2, 3, 4, 5];
/// MIRROR.run(&mut buf)?;
/// assert_eq!(buf, [0, 1, 2, 2, 1, 0]);
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct CopyWithinPlan {
    copy: CopyPlan,
    /// `None`: the layouts coincide, nothing moves.
    disjoint: Option<DisjointToken>,
}

impl CopyWithinPlan {
    /// Plans and validates a copy from `src` to `dst` inside one buffer, once.
    ///
    /// # Errors
    ///
    /// As [`CopyPlan::new`], and [`LayoutError::OperandsOverlap`] if the layouts share an
    /// element without coinciding ([`LayoutError::UniquenessUndecided`] if the search could
    /// not tell within its budget).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyWithinPlan, Layout, LayoutError};
    /// let a = Layout::new([3], [1], 4)?;
    /// assert_eq!(
    ///     CopyWithinPlan::new(&a, &a.with_offset(1)?),
    ///     Err(LayoutError::OperandsOverlap)
    /// );
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn new<const N: usize>(
        src: &Layout<N>,
        dst: &Layout<N>,
    ) -> Result<Self, LayoutError> {
        Self::from_lowered(&src.lowered(), &dst.lowered())
    }

    /// [`CopyWithinPlan::new`] for any operands.
    ///
    /// # Errors
    ///
    /// As [`CopyWithinPlan::new`], and the interleave errors of [`Plan::new`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyWithinPlan, Layout, LayoutError};
    /// let l = Layout::new([2], [1], 1)?;
    /// assert_eq!(CopyWithinPlan::of(&l, &l)?.len(), 2);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn of<const N: usize, S, D>(src: &S, dst: &D) -> Result<Self, LayoutError>
    where
        S: Mapping<N> + ?Sized,
        D: Mapping<N> + ?Sized,
    {
        Self::from_lowered(&src.lowered(), &dst.lowered())
    }

    /// [`CopyWithinPlan::new`] from lowered operands (`const`).
    ///
    /// # Errors
    ///
    /// As [`CopyWithinPlan::of`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyWithinPlan, Layout, LayoutError};
    /// let l = Layout::new([2], [1], 1)?.lowered();
    /// assert_eq!(CopyWithinPlan::from_lowered(&l, &l)?.len(), 2);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn from_lowered<const N: usize>(
        src: &Lowered<N>,
        dst: &Lowered<N>,
    ) -> Result<Self, LayoutError> {
        let copy = match CopyPlan::from_lowered(src, dst) {
            Ok(c) => c,
            Err(e) => return Err(e),
        };
        let disjoint = match DisjointToken::check(&copy.core.plan) {
            Ok(t) => t,
            Err(e) => return Err(e),
        };
        Ok(Self { copy, disjoint })
    }

    /// The shortest buffer [`run`](CopyWithinPlan::run) accepts, in elements.
    #[must_use]
    pub const fn len(&self) -> usize {
        let [dst, src] = self.copy.core.lens();
        if dst > src { dst } else { src }
    }

    /// Whether the plan moves nothing (an extent is 0, or the layouts coincide).
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.disjoint.is_none() || self.copy.core.plan.volume() == 0
    }

    /// Copies inside `buf` as planned: [`copy_within`](crate::copy_within) without the
    /// planning and validation.
    ///
    /// # Errors
    ///
    /// [`LayoutError::ItemsizeMismatch`] or [`LayoutError::OffsetOutsideSlice`], `buf`
    /// untouched.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{CopyWithinPlan, Layout, LayoutError};
    /// let plan = CopyWithinPlan::new(&Layout::new([2], [1], 2)?, &Layout::new([2], [1], 2)?.with_offset(2)?)?;
    /// let mut buf = [1i16, 2, 0, 0];
    /// plan.run(&mut buf)?;
    /// assert_eq!(buf, [1, 2, 1, 2]);
    /// assert!(plan.run(&mut buf[..3]).is_err());
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn run<T: Copy + 'static>(&self, buf: &mut [T]) -> Result<(), LayoutError> {
        let size = size_of::<T>();
        let bounds = self
            .copy
            .core
            .bounds([size, size], [buf.len(), buf.len()])?;
        match self.disjoint {
            None => Ok(()),
            Some(token) => {
                let unique = Unique::from_token(bounds, self.copy.unique);
                raw::copy_within(&Disjoint::from_token(unique, token), buf)
            }
        }
    }
}

/// A fill of one layout, planned once; [`run`](FillPlan::run) only checks the buffer.
///
/// # Examples
///
/// ```
/// use strided_layout::{FillPlan, Layout, LayoutError, const_unwrap};
/// const EVERY_OTHER: FillPlan = const_unwrap(FillPlan::new(&const_unwrap(Layout::new([3], [2], 1))));
/// let mut buf = [0u8; 6];
/// EVERY_OTHER.run(&mut buf, 9)?;
/// assert_eq!(buf, [9, 0, 9, 0, 9, 0]);
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct FillPlan {
    core: Prepared<1>,
}

impl FillPlan {
    /// Plans a fill of `layout` once.
    ///
    /// # Errors
    ///
    /// - the errors of [`Plan::new`];
    /// - [`LayoutError::OffsetOutsideSlice`] if an offset is negative.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{FillPlan, Layout, LayoutError};
    /// let plan = FillPlan::new(&Layout::new([2, 2], [4, 1], 4)?)?;
    /// assert_eq!(plan.len(), 6);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn new<const N: usize>(layout: &Layout<N>) -> Result<Self, LayoutError> {
        Self::from_lowered(&layout.lowered())
    }

    /// [`FillPlan::new`] for any operand.
    ///
    /// # Errors
    ///
    /// As [`FillPlan::new`], and the interleave errors of [`Plan::new`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{FillPlan, InterleaveLayout, InterleavedLayout, LayoutError};
    /// let il = InterleavedLayout::dense([3, 2], 4, InterleaveLayout::new(0, 2)?)?;
    /// let plan = FillPlan::of(&il)?;
    /// let mut buf = [0f32; 8];
    /// plan.run(&mut buf, 1.0)?;
    /// assert_eq!(buf, [1.0, 1.0, 1.0, 1.0, 1.0, 0.0, 1.0, 0.0]); // padding lanes untouched
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn of<const N: usize, L: Mapping<N> + ?Sized>(layout: &L) -> Result<Self, LayoutError> {
        Self::from_lowered(&layout.lowered())
    }

    /// [`FillPlan::new`] from a lowered operand (`const`).
    ///
    /// # Errors
    ///
    /// As [`FillPlan::of`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{FillPlan, Layout, LayoutError};
    /// let plan = FillPlan::from_lowered(&Layout::new([4], [1], 2)?.lowered())?;
    /// assert_eq!(plan.len(), 4);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn from_lowered<const N: usize>(layout: &Lowered<N>) -> Result<Self, LayoutError> {
        match Prepared::new(&[footprint(*layout)], [Operand::Destination]) {
            Ok(core) => Ok(Self { core }),
            Err(e) => Err(e),
        }
    }

    /// The shortest slice [`run`](FillPlan::run) accepts, in elements.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.core.lens()[0]
    }

    /// Whether the plan writes nothing (an extent is 0).
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.core.plan.volume() == 0
    }

    /// Writes `value` at every offset as planned: [`fill`](crate::fill) without the planning.
    ///
    /// # Errors
    ///
    /// [`LayoutError::ItemsizeMismatch`] or [`LayoutError::OffsetOutsideSlice`], `dst`
    /// untouched.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{FillPlan, Layout, LayoutError};
    /// let plan = FillPlan::new(&Layout::new([2], [1], 4)?)?;
    /// assert!(plan.run(&mut [0u8; 2], 1).is_err()); // 1-byte elements, itemsize 4
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn run<T: Copy>(&self, dst: &mut [T], value: T) -> Result<(), LayoutError> {
        let bounds = self.core.bounds([size_of::<T>()], [dst.len()])?;
        raw::fill(&bounds, dst, value)
    }
}

/// An element-wise function of two layouts into a third, planned and validated once.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order, ZipMapPlan};
/// let a = Layout::dense([2, 2], 4, Order::C)?;
/// let plan = ZipMapPlan::new(&a, &a.transposed(0, 1)?, &a)?; // A + Aᵀ
/// let m = [1.0f32, 2.0, 3.0, 4.0];
/// let mut out = [0f32; 4];
/// plan.run(&m, &m, &mut out, |x, y| x + y)?;
/// assert_eq!(out, [2.0, 5.0, 5.0, 8.0]);
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct ZipMapPlan {
    core: Prepared<3>,
    unique: UniqueToken,
}

impl ZipMapPlan {
    /// Plans and validates `dst[i] = f(a[i], b[i])` once.
    ///
    /// # Errors
    ///
    /// As [`CopyPlan::new`], for three operands.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, ZipMapPlan};
    /// let l = Layout::new([3], [1], 4)?;
    /// let plan = ZipMapPlan::new(&l, &l, &l)?;
    /// assert_eq!(plan.lens(), [3, 3, 3]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn new<const N: usize>(
        a: &Layout<N>,
        b: &Layout<N>,
        dst: &Layout<N>,
    ) -> Result<Self, LayoutError> {
        Self::from_lowered(&a.lowered(), &b.lowered(), &dst.lowered())
    }

    /// [`ZipMapPlan::new`] for any operands.
    ///
    /// # Errors
    ///
    /// As [`CopyPlan::of`], for three operands.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, ZipMapPlan};
    /// let l = Layout::new([3], [1], 4)?;
    /// assert!(ZipMapPlan::of(&l, &l, &Layout::new([3], [0], 4)?).is_err());
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn of<const N: usize, LA, LB, D>(a: &LA, b: &LB, dst: &D) -> Result<Self, LayoutError>
    where
        LA: Mapping<N> + ?Sized,
        LB: Mapping<N> + ?Sized,
        D: Mapping<N> + ?Sized,
    {
        Self::from_lowered(&a.lowered(), &b.lowered(), &dst.lowered())
    }

    /// [`ZipMapPlan::new`] from lowered operands (`const`).
    ///
    /// # Errors
    ///
    /// As [`ZipMapPlan::of`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, ZipMapPlan};
    /// let l = Layout::new([3], [1], 4)?.lowered();
    /// assert_eq!(ZipMapPlan::from_lowered(&l, &l, &l)?.lens(), [3, 3, 3]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn from_lowered<const N: usize>(
        a: &Lowered<N>,
        b: &Lowered<N>,
        dst: &Lowered<N>,
    ) -> Result<Self, LayoutError> {
        let names = [Operand::Destination, Operand::Source, Operand::SecondSource];
        let core = match Prepared::new(&[*dst, *a, *b], names) {
            Ok(c) => c,
            Err(e) => return Err(e),
        };
        match UniqueToken::check(&core.plan) {
            Ok(unique) => Ok(Self { core, unique }),
            Err(e) => Err(e),
        }
    }

    /// The shortest `dst`, `a` and `b` slices [`run`](ZipMapPlan::run) accepts, in elements.
    #[must_use]
    pub const fn lens(&self) -> [usize; 3] {
        self.core.lens()
    }

    /// Writes `f(a[i], b[i])` at every index as planned: [`zip_map`](crate::zip_map) without
    /// the planning and validation.
    ///
    /// # Errors
    ///
    /// [`LayoutError::ItemsizeMismatch`] or [`LayoutError::OffsetOutsideSlice`] naming the
    /// argument, `dst` untouched and `f` never called.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Operand, ZipMapPlan};
    /// let l = Layout::new([2], [1], 4)?;
    /// let plan = ZipMapPlan::new(&l, &l, &l)?;
    /// let got = plan.run(&[1i32, 2], &[3i32], &mut [0i32; 2], |x, y| x * y);
    /// assert_eq!(got, Err(LayoutError::OffsetOutsideSlice { operand: Operand::SecondSource }));
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn run<A, B, U, F>(&self, a: &[A], b: &[B], dst: &mut [U], f: F) -> Result<(), LayoutError>
    where
        A: Copy + 'static,
        B: Copy + 'static,
        U: Copy,
        F: FnMut(A, B) -> U,
    {
        let sizes = [size_of::<U>(), size_of::<A>(), size_of::<B>()];
        let bounds = self.core.bounds(sizes, [dst.len(), a.len(), b.len()])?;
        raw::zip_map(&Unique::from_token(bounds, self.unique), dst, a, b, f)
    }
}
