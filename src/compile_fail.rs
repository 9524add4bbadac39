//! Things the compiler must reject; each item's doc is a `compile_fail,E0080` doctest.
//!
//! Rank relations are inline `const` blocks evaluated after monomorphization, so these are
//! reported by `cargo build` and `cargo test`, not by `cargo check` (rust-lang/rust#99682),
//! and trybuild cannot see them; doctests can.

/// `unsqueezed` must return rank `N + 1`.
///
/// ```compile_fail,E0080
/// use strided_layout::{Layout, Order};
/// let l = Layout::dense([2, 3], 4, Order::C).unwrap();
/// let _wrong: Layout<4> = l.unsqueezed(0).unwrap();
/// ```
///
/// The same call with the right rank compiles:
///
/// ```
/// use strided_layout::{Layout, Order};
/// let l = Layout::dense([2, 3], 4, Order::C).unwrap();
/// let _right: Layout<3> = l.unsqueezed(0).unwrap();
/// ```
pub struct UnsqueezedWrongRank;

/// `unsqueezed_axes` must return rank `N + K`.
///
/// ```compile_fail,E0080
/// use strided_layout::{Layout, Order};
/// let l = Layout::dense([2, 3], 4, Order::C).unwrap();
/// let _wrong = l.unsqueezed_axes::<2, 3>([0, 1]).unwrap();
/// ```
pub struct UnsqueezedAxesWrongRank;

/// `selected` must return rank `N - 1`.
///
/// ```compile_fail,E0080
/// use strided_layout::{Layout, Order};
/// let l = Layout::dense([2, 3], 4, Order::C).unwrap();
/// let _wrong: Layout<2> = l.selected(0, 1).unwrap();
/// ```
pub struct SelectedWrongRank;

/// `broadcast_to` cannot lower the rank.
///
/// ```compile_fail,E0080
/// use strided_layout::{Layout, Order};
/// let l = Layout::dense([2, 3], 4, Order::C).unwrap();
/// let _wrong = l.broadcast_to([6]).unwrap();
/// ```
pub struct BroadcastToLowerRank;

/// `split_axis` must return rank `N + 1`.
///
/// ```compile_fail,E0080
/// use strided_layout::{Layout, Order};
/// let l = Layout::dense([6], 4, Order::C).unwrap();
/// let _wrong: Layout<3> = l.split_axis(0, 2).unwrap();
/// ```
pub struct SplitAxisWrongRank;

/// `merged_axes` must return a rank in `1..=N`.
///
/// ```compile_fail,E0080
/// use strided_layout::{Layout, Order};
/// let l = Layout::dense([2, 3], 4, Order::C).unwrap();
/// let _wrong: Layout<3> = l.merged_axes(0).unwrap();
/// ```
pub struct MergedAxesWrongRank;

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
/// static_assertions::const_assert!(T.is_contiguous_c());
/// ```
///
/// The same assertion on a C-contiguous layout compiles:
///
/// ```
/// use strided_layout::{const_unwrap, Layout};
/// const C: Layout<2> = const_unwrap(Layout::new([2, 3], [3, 1], 4));
/// static_assertions::const_assert!(C.is_contiguous_c());
/// ```
pub struct ConstNotContiguous;

/// `to_strided` must return rank `N + 1`.
///
/// ```compile_fail,E0080
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

/// `from_strided` must read rank `N + 1`.
///
/// ```compile_fail,E0080
/// use strided_layout::{InterleavedLayout, Layout, Order};
/// let s = Layout::dense([2, 4, 4], 4, Order::C).unwrap();
/// let _wrong = InterleavedLayout::<3>::from_strided(&s, 0).unwrap();
/// ```
pub struct FromStridedWrongRank;

/// An interleaved layout's `selected` must return rank `N - 1`.
///
/// ```compile_fail,E0080
/// use strided_layout::{InterleaveLayout, InterleavedLayout};
/// let l = InterleavedLayout::dense([8, 4], 4, InterleaveLayout::new(0, 4).unwrap()).unwrap();
/// let _wrong: InterleavedLayout<2> = l.selected(1, 0).unwrap();
/// ```
pub struct InterleavedSelectedWrongRank;

/// A `const` interleaved layout with a factor of zero fails the build.
///
/// ```compile_fail,E0080
/// use strided_layout::{const_unwrap, InterleaveLayout};
/// const IL: InterleaveLayout = const_unwrap(InterleaveLayout::new(0, 0));
/// ```
pub struct ConstFactorZero;
