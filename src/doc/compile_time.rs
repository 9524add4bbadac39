//! Checking layouts at compile time.
//!
//! Every constructor, query and transform of [`Layout`](crate::Layout) is a `const fn`, so a
//! layout can be built in a `const` item, and the compiler evaluates it. Three tools turn
//! that into checks, none of which needs a dependency:
//!
//! | tool | what it does |
//! | --- | --- |
//! | [`const_unwrap`](crate::const_unwrap) | unwraps a `Result` in a `const` item; an `Err` fails the build with the error's `Display` text, payload included (`axis index is not less than the rank (axis 5, rank 2)`); at run time it panics, so use `?` there |
//! | [`const_layout!`](crate::const_layout) | the same inside a function body: the expression is evaluated in an inline `const` block, never at run time |
//! | `const _: () = assert!(cond, "why");` | asserts any `bool` query (`is_contiguous_c`, `is_unique`, `volume() == ..`, `matches!(required_len(), Ok(n) if ..)`) at compile time, with your message |
//!
//! Rank changes whose output rank the operation fixes take that rank as a const parameter
//! bounded by a relation on the input rank ([`rank`](crate::rank)), so the wrong rank is a
//! type error that `cargo check` and rust-analyzer report at your line:
//! `let l: Layout<4> = l3.selected(0, 1)?;` is "expected `4`, found `2`" (`selected` drops an
//! axis, and the bound lets only rank 2 follow from rank 3), `l3.unsqueezed::<5>(0)` is "this
//! transform adds one axis: rank 3 cannot become rank 5". `s!` (whose rank depends on how
//! many of its arguments are indices) and the limit of rank 64 are checked after
//! monomorphization instead: `cargo build` and `cargo test` report them, `cargo check` does
//! not.
//!
//! # A realistic case: image tiles
//!
//! A planar 8-bit image `[3, 480, 640]`, viewed as interleaved HWC by a permutation, then
//! split into 16-row tiles; its contiguity, its tile geometry and the buffer it needs are all
//! checked before the program runs:
//!
//! ```
//! use strided_layout::{const_unwrap, Layout, Order};
//!
//! const CHW: Layout<3> = const_unwrap(Layout::dense_of::<u8>([3, 480, 640], Order::C));
//! const HWC: Layout<3> = const_unwrap(CHW.permuted([1, 2, 0]));
//! const TILES: Layout<4> = const_unwrap(HWC.split_axis(0, 16)); // [30, 16, 640, 3]
//!
//! const _: () = assert!(CHW.is_contiguous_c(), "the camera writes planar CHW");
//! const _: () = assert!(
//!     !HWC.is_contiguous_c() && HWC.is_contiguous_any(),
//!     "HWC is a view of the planar bytes, not a copy"
//! );
//! const _: () = assert!(TILES.shape()[0] == 30 && TILES.shape()[1] == 16, "30 tiles of 16 rows");
//! const _: () = assert!(TILES.is_unique(), "no two tile elements share a byte");
//! const _: () = assert!(
//!     matches!(TILES.required_len(), Ok(n) if n == 3 * 480 * 640),
//!     "the tiles need exactly the image's buffer"
//! );
//!
//! // The same checks hold at run time, of course.
//! assert_eq!(TILES.offset_of([1, 0, 0, 2]), Ok(2 * 480 * 640 + 16 * 640));
//! ```
//!
//! Had the tile height not divided 480, `split_axis` would have returned
//! `ExtentNotDivisible` and the build would have stopped with "extent is not divisible by
//! the factor". The crate's `compile_fail` doctests prove each such case fails the build:
//! a wrong output rank for `unsqueezed`, `unsqueezed_axes`, `selected`, `broadcast_to`,
//! `split_axis` and `merged_axes`; an out-of-range axis and a bad itemsize in a `const`
//! layout; and a non-contiguous layout asserted contiguous:
//!
//! ```compile_fail,E0080
//! use strided_layout::{const_unwrap, Layout, Order};
//! const T: Layout<2> = const_unwrap(Layout::dense([480, 640], 1, Order::C));
//! const TILES: Layout<3> = const_unwrap(T.split_axis(0, 7)); // 7 does not divide 480
//! ```
//!
//! ```compile_fail,E0080
//! use strided_layout::{const_unwrap, Layout, Order};
//! const T: Layout<2> = const_unwrap(Layout::dense([480, 640], 1, Order::F));
//! const _: () = assert!(T.is_contiguous_c(), "the DMA engine reads rows"); // it is F-contiguous
//! ```
//!
//! # What a failed check prints
//!
//! A `const _: () = assert!(..)` that fails points at its own line and prints its message:
//!
//! ```text
//! error[E0080]: evaluation panicked: the DMA engine reads rows
//!  --> src/main.rs:3:15
//!   |
//! 3 | const _: () = assert!(T.is_contiguous_c(), "the DMA engine reads rows");
//!   |               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ evaluation of `_` failed here
//! ```
//!
//! Prefer it to `static_assertions::const_assert!(cond)`, which needs a dependency and
//! reports a failure as an arithmetic overflow ("attempt to compute `0_usize - 1_usize`,
//! which would overflow") with no message. A `const_assert_layout!`-style macro would add
//! nothing to the plain form: the condition is any `bool` query, and the message is yours.
//!
//! A `const_unwrap` that fails prints the error's text at the `const` item:
//!
//! ```text
//! error[E0080]: evaluation panicked: extent is not divisible by the factor (axis 0)
//!  --> src/main.rs:3:26
//! ```
//!
//! # Reading a wrong-rank error
//!
//! A wrong output rank breaks the bound of the transform you called, and the compiler says
//! so at your line, with the rule and both ranks in the message (`cargo check` is enough):
//!
//! ```text
//! error[E0277]: this transform adds one axis: rank 3 cannot become rank 5
//!  --> src/main.rs:5:28
//!   |
//! 5 |     let l: Layout<5> = IMG.unsqueezed::<5>(0)?;
//!   |                            ^^^^^^^^^^ the result's rank must be 3 + 1
//!   |
//!   = note: rank-changing transforms take their output rank as a const parameter; the table in `strided_layout::rank` gives each one's rule
//! help: the trait `OneMore<3, 5>` is not implemented for `Rank<3>`
//!       but trait `OneMore<3, 4>` is implemented for it
//! ```
//!
//! Where the bound allows a single output rank (one axis more or less), the compiler infers
//! it, so an annotation that disagrees reads as a type mismatch instead:
//! `let l: Layout<5> = IMG.unsqueezed(0)?;` is "expected `5`, found `4`". A function that is
//! generic over the rank and calls a rank change states the same bound
//! ([`Rank`](crate::rank::Rank) shows one); the bounds cover every rank up to 64.
//!
//! Two checks stay after monomorphization, where `cargo build` reports them at the library's
//! inline `const` block with your line in the last note ("the above error was encountered
//! while instantiating"): `s!`'s output rank and argument count (how many arguments are
//! indices is a trait's constant, which a bound cannot read on stable Rust) and the limit of
//! rank 64 on `Layout<N>` and `DynLayout<MAX>`.
