//! Things the compiler must reject; each item's doc is a `compile_fail` doctest with the
//! error code, and `tests/compile_errors` (a crate of its own) checks the messages themselves.
//!
//! A wrong output rank of a rank-changing transform breaks a trait bound of
//! [`crate::rank`] (`E0277`, with the rule in the message) or, where the bound fixes the
//! rank and inference took it, mismatches the caller's annotation (`E0308`): both are type
//! errors, reported by `cargo check` at the caller's line. A `const` item whose evaluation
//! fails (`const_unwrap` of an `Err`, a failed `assert!`) is `E0080`, reported by `cargo check`
//! too. `s!`'s rank and argument count are a bound of [`crate::rank`] as well
//! ([`Indexes`](crate::rank::Indexes)). The ranks above 64 and `DynLayout`'s capacity are
//! inline `const` blocks evaluated after monomorphization: `cargo build` and `cargo test`
//! report them at the library's line with the caller's in a note, `cargo check` does not.

/// `unsqueezed` must return rank `N + 1`: an annotation that disagrees is a type mismatch
/// ("expected `4`, found `3`"), and a rank named in the call breaks the `OneMore` bound
/// ("this transform adds one axis: rank 2 cannot become rank 4").
///
/// ```compile_fail,E0308
/// use strided_layout::{Layout, Order};
/// let l = Layout::dense([2, 3], 4, Order::C).unwrap();
/// let _wrong: Layout<4> = l.unsqueezed(0).unwrap();
/// ```
///
/// ```compile_fail,E0277
/// use strided_layout::{Layout, Order};
/// let l = Layout::dense([2, 3], 4, Order::C).unwrap();
/// let _wrong = l.unsqueezed::<4>(0).unwrap();
/// ```
///
/// The same call with the right rank compiles, and so does one that names none:
///
/// ```
/// use strided_layout::{Layout, Order};
/// let l = Layout::dense([2, 3], 4, Order::C).unwrap();
/// let _right: Layout<3> = l.unsqueezed(0).unwrap();
/// let inferred = l.unsqueezed(0).unwrap();
/// assert_eq!(inferred.shape(), [1, 2, 3]);
/// ```
pub struct UnsqueezedWrongRank;

/// `unsqueezed_axes` must return rank `N + K` ("inserting 2 axes into rank 2 cannot give
/// rank 3").
///
/// ```compile_fail,E0277
/// use strided_layout::{Layout, Order};
/// let l = Layout::dense([2, 3], 4, Order::C).unwrap();
/// let _wrong = l.unsqueezed_axes::<2, 3>([0, 1]).unwrap();
/// ```
pub struct UnsqueezedAxesWrongRank;

/// `selected` must return rank `N - 1`.
///
/// ```compile_fail,E0308
/// use strided_layout::{Layout, Order};
/// let l = Layout::dense([2, 3], 4, Order::C).unwrap();
/// let _wrong: Layout<2> = l.selected(0, 1).unwrap();
/// ```
///
/// ```compile_fail,E0277
/// use strided_layout::{Layout, Order};
/// let l = Layout::dense([2, 3], 4, Order::C).unwrap();
/// let _wrong = l.selected::<2>(0, 1).unwrap();
/// ```
pub struct SelectedWrongRank;

/// `broadcast_to` cannot lower the rank ("this transform cannot lower the rank: rank 2
/// cannot become rank 1").
///
/// ```compile_fail,E0277
/// use strided_layout::{Layout, Order};
/// let l = Layout::dense([2, 3], 4, Order::C).unwrap();
/// let _wrong = l.broadcast_to([6]).unwrap();
/// ```
pub struct BroadcastToLowerRank;

/// `split_axis` must return rank `N + 1`.
///
/// ```compile_fail,E0308
/// use strided_layout::{Layout, Order};
/// let l = Layout::dense([6], 4, Order::C).unwrap();
/// let _wrong: Layout<3> = l.split_axis(0, 2).unwrap();
/// ```
pub struct SplitAxisWrongRank;

/// `merged_axes` must return a rank in `1..=N` ("merging axes of rank 2 gives a rank from
/// 1 to 2, not 3").
///
/// ```compile_fail,E0277
/// use strided_layout::{Layout, Order};
/// let l = Layout::dense([2, 3], 4, Order::C).unwrap();
/// let _wrong: Layout<3> = l.merged_axes(0).unwrap();
/// ```
pub struct MergedAxesWrongRank;

/// `to_strided` must return rank `N + 1`.
///
/// ```compile_fail,E0308
/// use strided_layout::{InterleaveLayout, InterleavedLayout, Layout};
/// let l = InterleavedLayout::dense([8, 4], 4, InterleaveLayout::new(0, 4).unwrap()).unwrap();
/// let _wrong: Layout<2> = l.to_strided().unwrap();
/// ```
///
/// The same call with the right rank compiles:
///
/// ```
/// use strided_layout::{InterleaveLayout, InterleavedLayout, Layout};
/// let l = InterleavedLayout::dense([8, 4], 4, InterleaveLayout::new(0, 4).unwrap()).unwrap();
/// let _right: Layout<3> = l.to_strided().unwrap();
/// ```
pub struct ToStridedWrongRank;

/// `from_strided` must read rank `N + 1` ("this transform removes one axis: rank 3 cannot
/// become rank 3").
///
/// ```compile_fail,E0277
/// use strided_layout::{InterleavedLayout, Layout, Order};
/// let s = Layout::dense([2, 4, 4], 4, Order::C).unwrap();
/// let _wrong = InterleavedLayout::<3>::from_strided(&s, 0).unwrap();
/// ```
pub struct FromStridedWrongRank;

/// An interleaved layout's `selected` must return rank `N - 1`.
///
/// ```compile_fail,E0308
/// use strided_layout::{InterleaveLayout, InterleavedLayout};
/// let l = InterleavedLayout::dense([8, 4], 4, InterleaveLayout::new(0, 4).unwrap()).unwrap();
/// let _wrong: InterleavedLayout<2> = l.selected(1, 0).unwrap();
/// ```
pub struct InterleavedSelectedWrongRank;

/// A `const` layout with an out-of-range axis fails the build with the error's message.
///
/// ```compile_fail,E0080
/// use strided_layout::{const_unwrap, Layout, Order};
/// const ROW: Layout<1> = const_unwrap(
///     const_unwrap(Layout::dense([2, 3], 4, Order::C)).selected(5, 0),
/// );
/// ```
pub struct ConstAxisOutOfRange;

/// A `const` layout that breaks an invariant fails the build.
///
/// ```compile_fail,E0080
/// use strided_layout::{const_layout, Layout};
/// let _l = const_layout!(Layout::new([2, 3], [3, 1], 3));
/// ```
pub struct ConstBadItemsize;

/// A non-contiguous layout asserted contiguous at compile time fails the build.
///
/// ```compile_fail,E0080
/// use strided_layout::{const_unwrap, Layout};
/// const T: Layout<2> = const_unwrap(Layout::new([2, 3], [1, 2], 4));
/// const _: () = assert!(T.is_contiguous_c(), "rows must be contiguous");
/// ```
///
/// The same assertion on a C-contiguous layout compiles:
///
/// ```
/// use strided_layout::{const_unwrap, Layout};
/// const C: Layout<2> = const_unwrap(Layout::new([2, 3], [3, 1], 4));
/// const _: () = assert!(C.is_contiguous_c(), "rows must be contiguous");
/// ```
pub struct ConstNotContiguous;

/// A rank above 64 is rejected at compile time (the 64-bit [`AxisMask`](crate::AxisMask) and
/// cuda.core's limit): no `Layout<70>` can be built, so none flattens or reshapes wrongly.
///
/// ```compile_fail,E0080
/// use strided_layout::{Layout, Order};
/// let _l = Layout::<70>::dense([1; 70], 4, Order::C);
/// ```
///
/// ```compile_fail,E0080
/// use strided_layout::Layout;
/// let _l = Layout::<65>::new([1; 65], [0; 65], 1);
/// ```
///
/// Rank 64 itself is fine, and a C-contiguous one flattens to rank 1:
///
/// ```
/// use strided_layout::{Layout, Order};
/// let l = Layout::<64>::dense([1; 64], 4, Order::C).unwrap();
/// let flat: Layout<1> = l.reshaped([-1]).unwrap();
/// assert_eq!(flat.shape(), [1]);
/// assert_eq!(l.flattened().ndim(), 1);
/// ```
pub struct RankAbove64;

/// A `DynLayout<MAX>` with `MAX > 64` is rejected at compile time, and so is converting a
/// bounded-rank layout to a `Layout<M>` with `M > 64`.
///
/// ```compile_fail,E0080
/// use strided_layout::DynLayout;
/// let _d = DynLayout::<70>::new(&[2], &[1], 1);
/// ```
///
/// ```compile_fail,E0080
/// use strided_layout::{DynLayout, Layout};
/// let d = DynLayout::<4>::new(&[2], &[1], 1).unwrap();
/// let _l: Result<Layout<65>, _> = d.to_layout();
/// ```
pub struct DynRankAbove64;

/// A plan with room for no nest (`M = 0`) is rejected at compile time ("M must be at least
/// 1"), through [`Plan::with_nests`](crate::plan::Plan::with_nests) or any
/// prepared plan made `with_nests`.
///
/// ```compile_fail,E0080
/// use strided_layout::{CopyPlan, Layout, Order};
/// let l = Layout::dense([2, 3], 4, Order::C).unwrap();
/// let _p = CopyPlan::<0>::with_nests(&l, &l);
/// ```
///
/// Room for one is fine:
///
/// ```
/// use strided_layout::{CopyPlan, Layout, Order};
/// let l = Layout::dense([2, 3], 4, Order::C).unwrap();
/// assert_eq!(CopyPlan::<1>::with_nests(&l, &l).unwrap().plan().nests().len(), 1);
/// ```
pub struct PlanOfNoNests;

/// A plan with room for no loop a nest (`L = 0`) is rejected at compile time ("L must be at
/// least 1"), through [`Plan::with_loops`](crate::plan::Plan::with_loops) or
/// [`CopyPlan::with_loops`](crate::CopyPlan::with_loops).
///
/// ```compile_fail,E0080
/// use strided_layout::{CopyPlan, Layout, Order};
/// let l = Layout::dense([2, 3], 4, Order::C).unwrap();
/// let _p = CopyPlan::<1, 0>::with_loops(&l, &l);
/// ```
///
/// Room for one is fine (the rank-2 copy's two loops peeled into two nests of one):
///
/// ```
/// use strided_layout::{CopyPlan, Layout, Order};
/// let l = Layout::dense([2, 3], 4, Order::C).unwrap();
/// let f = Layout::dense([2, 3], 4, Order::F).unwrap();
/// assert_eq!(CopyPlan::<4, 1>::with_loops(&l, &f).unwrap().plan().nests().len(), 2);
/// ```
pub struct PlanOfNoLoops;

/// The DMA lowerings take plans of at most [`MAX_LOOPS`](crate::plan::MAX_LOOPS) loops a nest
/// (the runs of a descriptor chain are held for that many): a plan made with room for more is
/// rejected at compile time ("the DMA lowerings take plans of at most MAX_LOOPS loops a
/// nest"), whatever its nests hold.
///
/// ```compile_fail,E0080
/// use strided_layout::dma::rp2040;
/// use strided_layout::{CopyPlan, Layout, Order};
/// let l = Layout::dense([4, 8], 1, Order::C).unwrap();
/// let plan = CopyPlan::<1, 12>::with_loops(&l, &l).unwrap();
/// let mut out = [rp2040::Descriptor::NULL; 4];
/// let _ = rp2040::lower(&plan, 0, 0, &mut out);
/// ```
///
/// Room for fewer is fine:
///
/// ```
/// use strided_layout::dma::rp2040;
/// use strided_layout::{CopyPlan, Layout, Order};
/// let l = Layout::dense([4, 8], 1, Order::C).unwrap();
/// let plan = CopyPlan::<1, 2>::with_loops(&l, &l).unwrap();
/// let mut out = [rp2040::Descriptor::NULL; 4];
/// assert!(rp2040::lower(&plan, 0, 0, &mut out).is_ok());
/// ```
pub struct DmaPlanPastMaxLoops;

/// `const_unwrap`'s build error carries the payload: this one stops the build with
/// "evaluation panicked: axis index is not less than the rank (axis 5, rank 2)" (the text
/// itself is checked at run time by `const_util`'s unit tests, which share the code).
///
/// ```compile_fail,E0080
/// use strided_layout::{const_unwrap, Layout, Order};
/// const L: Layout<2> = const_unwrap(Layout::dense([2, 3], 4, Order::C));
/// const T: Layout<2> = const_unwrap(L.transposed(0, 5));
/// ```
pub struct ConstUnwrapNamesTheAxis;

/// `s!` must return rank `N` minus the number of integer indices: the argument types count
/// the indices ([`AxisArgs::Count`](crate::index::AxisArgs::Count)) and the
/// [`Indexes`](crate::rank::Indexes) bound compares the count with the ranks ("`s!` on a
/// rank-2 layout with a rank-2 result: the arguments count as `ArgCount<2, 1>`").
///
/// ```compile_fail,E0277
/// use strided_layout::{s, Layout, Order};
/// let l = Layout::dense([2, 3], 4, Order::C).unwrap();
/// let _wrong: Layout<2> = s![l; 1, ..].unwrap();
/// ```
///
/// The same call with the right rank compiles:
///
/// ```
/// use strided_layout::{s, Layout, Order};
/// let l = Layout::dense([2, 3], 4, Order::C).unwrap();
/// let _right: Layout<1> = s![l; 1, ..].unwrap();
/// ```
pub struct SMacroWrongRank;

/// `s!` needs one argument per axis (the same bound).
///
/// ```compile_fail,E0277
/// use strided_layout::{s, Layout, Order};
/// let l = Layout::dense([2, 3], 4, Order::C).unwrap();
/// let _wrong: Layout<1> = s![l; ..].unwrap();
/// ```
pub struct SMacroWrongArgumentCount;

/// `From<Layout<N>> for DynLayout<MAX>` needs `N <= MAX` (the `NotLower` bound: "this
/// transform cannot lower the rank: rank 3 cannot become rank 2").
///
/// ```compile_fail,E0277
/// use strided_layout::{DynLayout, Layout, Order};
/// let l = Layout::dense([2, 3, 4], 4, Order::C).unwrap();
/// let _d: DynLayout<2> = l.into();
/// ```
pub struct FromLayoutAboveMax;

/// A `const` interleaved layout with a factor of zero fails the build.
///
/// ```compile_fail,E0080
/// use strided_layout::{const_unwrap, InterleaveLayout};
/// const IL: InterleaveLayout = const_unwrap(InterleaveLayout::new(0, 0));
/// ```
pub struct ConstFactorZero;

/// A `const` chain whose step breaks a rule fails the build (the message names the rule and
/// the axis: "axis index is not less than the rank (axis 3, rank 3)").
///
/// ```compile_fail,E0080
/// use strided_layout::{const_chain, const_unwrap, Layout, Order};
/// const BAD: Layout<3> = const_unwrap(const_chain!(
///     Layout::dense([3, 4, 5], 4, Order::C) => permuted([2, 0, 1]) => flipped(3)
/// ));
/// ```
pub struct ConstChainStepFails;
