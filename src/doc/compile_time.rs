//! Checking layouts at compile time.
//!
//! Every constructor, query and transform of [`Layout`](crate::Layout) is a `const fn`, so a
//! layout can be built in a `const` item, and the compiler evaluates it. Three tools turn
//! that into checks:
//!
//! | tool | what it does |
//! | --- | --- |
//! | [`const_unwrap`](crate::const_unwrap) | unwraps a `Result` in a `const` item; an `Err` fails the build with the error's `Display` text, payload included (`axis index is not less than the rank (axis 5, rank 2)`); at run time it panics, so use `?` there |
//! | [`const_layout!`](crate::const_layout) | the same inside a function body: the expression is evaluated in an inline `const` block, never at run time |
//! | `static_assertions::const_assert!` | asserts any `bool` query (`is_contiguous_c`, `is_unique`, `volume() == ..`) at compile time |
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
//! use static_assertions::const_assert;
//! use strided_layout::{const_unwrap, Layout, Order};
//!
//! const CHW: Layout<3> = const_unwrap(Layout::dense([3, 480, 640], 1, Order::C));
//! const HWC: Layout<3> = const_unwrap(CHW.permuted([1, 2, 0]));
//! const TILES: Layout<4> = const_unwrap(HWC.split_axis(0, 16)); // [30, 16, 640, 3]
//!
//! const_assert!(CHW.is_contiguous_c());
//! const_assert!(!HWC.is_contiguous_c() && HWC.is_contiguous_any()); // a view, not a copy
//! const_assert!(TILES.shape()[0] == 30 && TILES.shape()[1] == 16);
//! const_assert!(TILES.is_unique());
//! const_assert!(match TILES.required_size_in_bytes() {
//!     Ok(bytes) => bytes == 3 * 480 * 640,
//!     Err(_) => false,
//! });
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
//! static_assertions::const_assert!(T.is_contiguous_c()); // it is F-contiguous
//! ```
