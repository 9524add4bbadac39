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
//! and check it with an inline `const { assert!(..) }` in the function body, so the wrong
//! rank does not compile: `let l: Layout<4> = l3.selected(0, 1)?;` is rejected because
//! `selected` drops an axis. These are post-monomorphization errors: `cargo build` and
//! `cargo test` report them, `cargo check` does not (rust-lang/rust#99682).
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
//! # Reading a wrong-rank error, and its limits
//!
//! A wrong output rank is an error in the library's inline `const` block, evaluated for the
//! ranks your call instantiated; the compiler's primary span is that block, and your line is
//! in the last note:
//!
//! ```text
//! error[E0080]: evaluation panicked: unsqueezed: the output rank M must be N + 1
//!   = note: evaluation of `<impl Layout<3>>::unsqueezed::<5>::{constant#0}` failed here
//! ...
//! note: the above error was encountered while instantiating `fn <impl Layout<3>>::unsqueezed::<5>`
//!  --> src/main.rs:5:24
//!   |
//! 5 |     let l: Layout<5> = IMG.unsqueezed(0)?;
//!   |                        ^^^^^^^^^^^^^^^^^
//! ```
//!
//! The ranks are in the instantiated name (`Layout<3>`, `unsqueezed::<5>`): a `const`
//! panic cannot format numbers into its message. Stable Rust offers no way to put the
//! primary span on the caller's line: a post-monomorphization error is reported where the
//! constant is, `#[track_caller]` does not apply to constant evaluation, and a bound such
//! as `where [(); N + 1]:` that would make the relation part of the signature (so the error
//! were a type mismatch at the call) needs the unstable `generic_const_exprs`. Each rank
//! change checks its rank once, in the function you called, so a wrong rank is one error
//! that names that function.
