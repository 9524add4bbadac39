//! [`s!`](crate::s): NumPy-style basic indexing, `x[1, :, 2:5:2]`, in one call:
//! integer indices drop their axis, ranges slice it.
//!
//! ```text
//! s![l; 1, .., 2..5;2]          NumPy  x[1, :, 2:5:2]
//!       |  |   '-- range;step: Python's start:stop:step (Slice::stepped)
//!       |  '------ a range: .., a.., ..b, a..b, a..=b (From<Range..> for Slice)
//!       '--------- an integer index (a negative isize counts from the end): drops the axis
//! ```
//!
//! The macro expands to [`Layout::indexed`], which takes the arguments as a nested tuple
//! `(a0, (a1, (a2, ())))` of [`IntoAxisArg`] values. The number of integer indices is a
//! property of the argument *types* ([`AxisArgs::Count`]), so the output rank `M` (named by
//! the caller or inferred) is checked against `N` minus that number by a trait bound
//! ([`Indexes`]) at `cargo check`, like every rank change here.

use crate::algo::axis::normalize_axis;
use crate::rank::Indexes;
use crate::{DynLayout, Layout, LayoutError, Slice};

/// One argument of [`s!`](crate::s) after conversion: an index, which drops its axis, or a
/// [`Slice`], which keeps it.
///
/// # Examples
///
/// ```
/// use strided_layout::Slice;
/// use strided_layout::index::{AxisArg, IntoAxisArg};
/// assert_eq!((-1isize).into_axis_arg(), AxisArg::Index(-1));
/// assert_eq!((1..3).into_axis_arg(), AxisArg::Slice(Slice::range(1, 3)));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive] // NumPy's `np.newaxis` and `...` may become arguments; a `match` needs a `_` arm
pub enum AxisArg {
    /// Python's `x[i]` on one axis: `i >= 0` counts from the start, `i < 0` from the end.
    Index(isize),
    /// Python's `x[start:stop:step]` on one axis.
    Slice(Slice),
    /// The position `i` from the start, for a `usize` index (any value: an extent can exceed
    /// `isize::MAX` on a broadcast axis).
    At(usize),
}

/// Whether an argument of [`s!`](crate::s) drops its axis ([`DropsAxis`]) or keeps it
/// ([`KeepsAxis`]): the kind of an [`IntoAxisArg`], known from its type.
///
/// # Examples
///
/// ```
/// use strided_layout::index::{ArgKind, DropsAxis, KeepsAxis};
/// const { assert!(DropsAxis::DROPS_AXIS && !KeepsAxis::DROPS_AXIS) };
/// ```
pub trait ArgKind {
    /// Whether an argument of this kind drops its axis.
    const DROPS_AXIS: bool;
}

/// The kind of an integer index: it picks one position and drops the axis.
///
/// # Examples
///
/// ```
/// use strided_layout::index::{DropsAxis, IntoAxisArg};
/// fn kind<A: IntoAxisArg<Kind = DropsAxis>>(_: A) {}
/// kind(-1isize);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DropsAxis;

/// The kind of a range or [`Slice`]: it keeps the axis.
///
/// # Examples
///
/// ```
/// use strided_layout::index::{IntoAxisArg, KeepsAxis};
/// fn kind<A: IntoAxisArg<Kind = KeepsAxis>>(_: A) {}
/// kind(1..3);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct KeepsAxis;

impl ArgKind for DropsAxis {
    const DROPS_AXIS: bool = true;
}

impl ArgKind for KeepsAxis {
    const DROPS_AXIS: bool = false;
}

/// What [`s!`](crate::s) accepts for one axis: an integer index (`isize`, or an `i32`
/// literal) or anything that converts into a [`Slice`] (a `Slice`, `..`, `a..`, `..b`,
/// `a..b`, `a..=b`, `..=b` over `isize`).
///
/// `Kind` says, in the type, whether the argument drops its axis, so the output rank of
/// [`Layout::indexed`] is checked by the compiler. A `usize` index is a position from the
/// start ([`AxisArg::At`]); signed indices are Python's (negative from the end). Ranges are
/// over `isize` only, so that literal ranges infer their type.
///
/// # Examples
///
/// ```
/// use strided_layout::index::IntoAxisArg;
/// const { assert!(<isize as IntoAxisArg>::IS_INDEX && !<core::ops::RangeFull as IntoAxisArg>::IS_INDEX) };
/// ```
pub trait IntoAxisArg {
    /// [`DropsAxis`] for an index, [`KeepsAxis`] for a slice.
    type Kind: ArgKind;
    /// Whether this argument is an index (drops its axis) rather than a slice.
    const IS_INDEX: bool = <Self::Kind as ArgKind>::DROPS_AXIS;
    /// The argument as an [`AxisArg`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::Slice;
    /// use strided_layout::index::{AxisArg, IntoAxisArg};
    /// assert_eq!((-1isize).into_axis_arg(), AxisArg::Index(-1));
    /// assert_eq!((1isize..3).into_axis_arg(), AxisArg::Slice(Slice::new(Some(1), Some(3), 1)));
    /// ```
    fn into_axis_arg(self) -> AxisArg;
}

impl IntoAxisArg for isize {
    type Kind = DropsAxis;
    fn into_axis_arg(self) -> AxisArg {
        AxisArg::Index(self)
    }
}

impl IntoAxisArg for usize {
    type Kind = DropsAxis;
    fn into_axis_arg(self) -> AxisArg {
        AxisArg::At(self)
    }
}

/// An unsuffixed integer literal defaults to `i32`, so `s![l; 1, ..]` takes this impl.
impl IntoAxisArg for i32 {
    type Kind = DropsAxis;
    fn into_axis_arg(self) -> AxisArg {
        // `isize` is at least 32 bits on every target this crate builds for (the 16-bit targets Rust supports have no use for it), so the cast is lossless there.
        AxisArg::Index(self as isize)
    }
}

/// Implements [`IntoAxisArg`] as a slice for each type that converts into a [`Slice`].
macro_rules! slice_args {
    ($($t:ty),*) => {$(
        impl IntoAxisArg for $t {
            type Kind = KeepsAxis;
            fn into_axis_arg(self) -> AxisArg {
                AxisArg::Slice(Slice::from(self))
            }
        }
    )*};
}
slice_args!(
    core::ops::Range<isize>,
    core::ops::RangeFrom<isize>,
    core::ops::RangeTo<isize>,
    core::ops::RangeFull,
    core::ops::RangeInclusive<isize>,
    core::ops::RangeToInclusive<isize>
);

/// A [`Slice`] value, as built by [`Slice::new`] or [`Slice::stepped`].
impl IntoAxisArg for Slice {
    type Kind = KeepsAxis;
    fn into_axis_arg(self) -> AxisArg {
        AxisArg::Slice(self)
    }
}

/// The count of an argument list of [`s!`](crate::s) as a type: `GIVEN` arguments, `KEPT`
/// of them slices (the axes the result keeps). [`Layout::indexed`] requires
/// `ArgCount<N, M>` for a rank-`N` layout and a rank-`M` result (the bound
/// [`Indexes`]), so a wrong count or rank is a type error at
/// `cargo check`, and `M` is inferred.
///
/// # Examples
///
/// ```
/// use strided_layout::index::{ArgCount, AxisArgs};
/// type Args = (isize, (core::ops::RangeFull, (core::ops::Range<isize>, ())));
/// let _: ArgCount<3, 2> = <<Args as AxisArgs>::Count as Default>::default();
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ArgCount<const GIVEN: usize, const KEPT: usize>;

/// One more argument of kind `K` in front of a list counted by `Self`: `Out` is the new
/// count. Implemented for lists of up to 64 arguments (the largest rank).
///
/// # Examples
///
/// ```
/// use strided_layout::index::{ArgCount, DropsAxis, KeepsAxis, WithArg};
/// let _: ArgCount<3, 2> = <<ArgCount<2, 1> as WithArg<KeepsAxis>>::Out as Default>::default();
/// let _: ArgCount<3, 1> = <<ArgCount<2, 1> as WithArg<DropsAxis>>::Out as Default>::default();
/// ```
#[diagnostic::on_unimplemented(
    message = "`s!` takes at most 64 arguments, one per axis",
    label = "one argument too many"
)]
pub trait WithArg<K> {
    /// The count with the argument added.
    type Out;
}

// The impls of `WithArg` for every count of up to 63 arguments (generated by build.rs: a
// declarative macro has no arithmetic to enumerate them).
include!(concat!(env!("OUT_DIR"), "/arg_counts.rs"));

/// The arguments of [`s!`](crate::s), one per axis, as a nested tuple `(a0, (a1, ()))`, with
/// their count and the number of indices known at compile time.
///
/// # Examples
///
/// ```
/// use strided_layout::index::AxisArgs;
/// type Args = (isize, (core::ops::RangeFull, (core::ops::Range<isize>, ())));
/// const { assert!(<Args as AxisArgs>::LEN == 3 && <Args as AxisArgs>::INDICES == 1) };
/// ```
pub trait AxisArgs {
    /// The number of arguments.
    const LEN: usize;
    /// The number of integer indices among them (the axes the result drops).
    const INDICES: usize;
    /// The count as a type, [`ArgCount<LEN, LEN - INDICES>`](ArgCount).
    type Count;
    /// Writes the arguments into `out`, in order (stops at the end of `out`).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::Slice;
    /// use strided_layout::index::{AxisArg, AxisArgs};
    /// let mut out = [AxisArg::At(0); 2];
    /// (0isize, (.., ())).write(&mut out);
    /// assert_eq!(out, [AxisArg::Index(0), AxisArg::Slice(Slice::FULL)]);
    /// ```
    fn write(self, out: &mut [AxisArg]);
}

impl AxisArgs for () {
    const LEN: usize = 0;
    const INDICES: usize = 0;
    type Count = ArgCount<0, 0>;
    fn write(self, _: &mut [AxisArg]) {}
}

// The counts are bounded by the nesting depth, far below `usize::MAX` (and an overflow in a `const` item is a compile error, not a run-time one).
impl<H: IntoAxisArg, T: AxisArgs> AxisArgs for (H, T)
where
    T::Count: WithArg<H::Kind>,
{
    const LEN: usize = T::LEN + 1;
    const INDICES: usize = T::INDICES + H::IS_INDEX as usize;
    type Count = <T::Count as WithArg<H::Kind>>::Out;
    fn write(self, out: &mut [AxisArg]) {
        if let Some((first, rest)) = out.split_first_mut() {
            *first = self.0.into_axis_arg();
            self.1.write(rest);
        }
    }
}

/// The position `i` names on an axis of extent `e`, Python-style, or `None` when outside.
const fn index_position(i: isize, e: usize) -> Option<usize> {
    if i >= 0 {
        let p = i.unsigned_abs();
        if p < e { Some(p) } else { None }
    } else {
        e.checked_sub(i.unsigned_abs())
    }
}

impl<const N: usize> Layout<N> {
    /// The axis `axis` names under Python's rule: `0..N` as is, `-N..0` counted from the end
    /// (`-1` is the last axis); the one bridge from a negative axis to the `usize` axis
    /// arguments of the transforms (see [`doc::semantics`](crate::doc::semantics)).
    ///
    /// # Errors
    ///
    /// - [`LayoutError::SignedAxisOutOfRange`] if `axis` is not in `-N..N` (the payload is
    ///   the axis as given).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([2, 3, 4], 4, Order::C)?;
    /// assert_eq!(l.normalized_axis(-1)?, 2);
    /// let f = l.flipped(l.normalized_axis(-1)?)?;
    /// assert_eq!(f.strides(), [12, 4, -1]);
    /// assert!(l.normalized_axis(3).is_err() && l.normalized_axis(-4).is_err());
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn normalized_axis(&self, axis: isize) -> Result<usize, LayoutError> {
        normalize_axis(axis, N)
    }

    /// NumPy basic indexing: the layout of `x[a0, a1, ..]` where each argument is an integer
    /// index (drops its axis) or a slice (keeps it); what [`s!`](crate::s) calls.
    ///
    /// ```text
    /// (2,3,4):(12,4,1)      indexed((1, (.., (Slice::stepped(0..4, 2), ()))))    x[1, :, 0:4:2]
    ///                       -> (3,2):(4,2) +12
    /// ```
    ///
    /// The output rank `M` must be `N` minus the number of integer indices, and there must be
    /// one argument per axis: the bound [`Indexes`] checks both at `cargo check`, and infers
    /// `M` where the caller does not name it. Indices are applied first
    /// (each one narrows its axis to one position, as [`narrowed`](Layout::narrowed)), then
    /// the slices (as [`sliced`](Layout::sliced), Python's clamping rules), then the indexed
    /// axes are dropped.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::IndexOutOfRange`] for the first index outside `-e..e` (a signed
    ///   index) or `0..e` (a `usize` index) on an axis of extent `e`;
    /// - [`LayoutError::ZeroStep`] for the first slice with step 0;
    /// - [`LayoutError::OffsetOverflow`] if a new stride or offset overflows `isize`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order, Slice};
    /// let l = Layout::dense([2, 3, 4], 4, Order::C)?;
    /// let v: Layout<2> = l.indexed((1, (.., (Slice::stepped(0..4, 2), ()))))?;
    /// assert_eq!((v.shape(), v.strides(), v.offset()), ([3, 2], [4, 2], 12));
    /// let last: Layout<2> = l.indexed((-1, (.., (.., ()))))?;
    /// assert_eq!(last.offset(), 12);
    /// let bad: Result<Layout<2>, _> = l.indexed((2, (.., (.., ()))));
    /// assert_eq!(bad, Err(LayoutError::IndexOutOfRange { axis: 0 }));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `v.offset_of(j) == self.offset_of(i)` where `i` takes the index positions on the
    ///   indexed axes and, on the others, element `j[k']` of the slice's Python range
    pub fn indexed<const M: usize, A: AxisArgs>(self, args: A) -> Result<Layout<M>, LayoutError>
    where
        A::Count: Indexes<N, M>,
    {
        let mut items = [AxisArg::Slice(Slice::FULL); N];
        args.write(&mut items);
        let mut narrowed = self;
        let mut slices = [Slice::FULL; N];
        for (k, (item, slot)) in items.iter().zip(slices.iter_mut()).enumerate() {
            match *item {
                AxisArg::Index(_) | AxisArg::At(_) => {
                    let extent = narrowed.shape.get(k).copied().unwrap_or(0);
                    let p = match *item {
                        AxisArg::Index(i) => index_position(i, extent),
                        AxisArg::At(p) if p < extent => Some(p),
                        _ => None,
                    };
                    let Some(p) = p else {
                        return Err(LayoutError::IndexOutOfRange { axis: k });
                    };
                    narrowed = narrowed.narrowed(k, p, 1)?;
                }
                AxisArg::Slice(s) => *slot = s,
            }
        }
        let cut = narrowed.sliced(slices)?;
        let mut shape = [0usize; M];
        let mut strides = [0isize; M];
        let kept = items
            .iter()
            .zip(cut.shape.iter().zip(cut.strides.iter()))
            .filter(|(item, _)| matches!(item, AxisArg::Slice(_)))
            .map(|(_, axis)| axis);
        for ((e, s), (&ke, &ks)) in shape.iter_mut().zip(strides.iter_mut()).zip(kept) {
            (*e, *s) = (ke, ks);
        }
        // Dropping extent-1 axes moves no element: every offset is one of `cut`'s.
        Layout::from_parts(shape, strides, cut.offset, cut.itemsize)
    }
}

impl<const MAX: usize> DynLayout<MAX> {
    /// The axis `axis` names under Python's rule, against this layout's rank (as
    /// [`Layout::normalized_axis`]).
    ///
    /// # Errors
    ///
    /// - [`LayoutError::SignedAxisOutOfRange`] if `axis` is not in `-ndim..ndim` (the
    ///   payload is the axis as given).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// let d = DynLayout::<4>::new(&[2, 3], &[3, 1], 4)?;
    /// assert_eq!(d.normalized_axis(-2)?, 0);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn normalized_axis(&self, axis: isize) -> Result<usize, LayoutError> {
        normalize_axis(axis, self.ndim())
    }
}

/// NumPy-style indexing of a [`Layout`]: `s![l; 1, .., 2..5;2]` is `x[1, :, 2:5:2]`, a
/// `Result<Layout<M>, LayoutError>` (see [`Layout::indexed`]).
///
/// After the layout and a `;`, one argument per axis, separated by commas:
///
/// | argument | meaning | Python |
/// | --- | --- | --- |
/// | `i` (an `isize`, a `usize`, or an integer literal) | the index `i` (a negative one counts from the end); drops the axis | `i` |
/// | `..`, `a..`, `..b`, `a..b`, `a..=b`, `..=b` | a range of `isize` (negative bounds count from the end) | `:`, `a:`, `:b`, `a:b`, `a:b+1` |
/// | `range;step` | the range with a step (negative: backwards) | `a:b:step` |
/// | a [`Slice`] value | itself | |
///
/// The output rank is `N` minus the number of integer indices; name it (`let v: Layout<2> =
/// s![..]?;`) or let inference supply it. A wrong rank or a wrong number of arguments does
/// not compile. Indices and bounds are Python's; a `usize` index counts from the start.
///
/// ```text
/// l = (2,3,4):(12,4,1)       s![l; 1, .., 1..;2]  ->  (3,2):(4,2) +13
///                            s![l; .., -1, ..;-1] ->  (2,4):(12,-1) +11
/// ```
///
/// # Examples
///
/// ```
/// use strided_layout::{s, Layout, LayoutError, Order};
/// let l = Layout::dense([2, 3, 4], 4, Order::C)?;
/// let v: Layout<2> = s![l; 1, .., 1..;2]?;
/// assert_eq!((v.shape(), v.strides(), v.offset()), ([3, 2], [4, 2], 13));
/// let w: Layout<2> = s![l; .., -1, ..;-1]?;
/// assert_eq!((w.shape(), w.strides(), w.offset()), ([2, 4], [12, -1], 11));
/// let same: Layout<3> = s![l; .., .., ..]?;
/// assert_eq!(same, l);
/// let one: Layout<0> = s![l; 1, 2, 3]?;
/// assert_eq!(one.offset(), l.offset_of([1, 2, 3])?);
/// let row = s![l; 1, 2, ..]?; // rank 1, inferred from the two indices
/// assert_eq!(row.shape(), [4]);
/// # Ok::<(), LayoutError>(())
/// ```
#[macro_export]
macro_rules! s {
    ($layout:expr; $($arg:expr $(; $step:expr)?),* $(,)?) => {
        $layout.indexed($crate::__s_list!($( ($crate::__s_item!($arg $(; $step)?)) )*))
    };
}

/// One argument of [`s!`]: the argument itself, or a stepped [`Slice`].
#[doc(hidden)]
#[macro_export]
macro_rules! __s_item {
    ($arg:expr) => {
        $arg
    };
    ($arg:expr; $step:expr) => {
        $crate::Slice::stepped($arg, $step)
    };
}

/// The arguments of [`s!`] as a nested tuple `(a0, (a1, ()))`.
#[doc(hidden)]
#[macro_export]
macro_rules! __s_list {
    () => {
        ()
    };
    ($head:tt $($tail:tt)*) => {
        ($head, $crate::__s_list!($($tail)*))
    };
}
