//! The layout algebra, walked through a GEMM's tiling: the block tile, the warp tile, each
//! thread's elements and a swizzled shared-memory tile, built in `const` items and checked
//! against the grids CuTe prints, with CuTe's expression for each step beside the Rust one.
//!
//! Every function is in [`algebra`](crate::algebra); the layouts are
//! [`NestedLayout`](crate::nested::NestedLayout)s, whose text is CuTe's. The steps below run
//! at compile time: a mistake (a tile that does not divide the matrix, a thread layout that
//! skips a thread) fails the build with the rule's text.
//!
//! # 1. The matrix and the block tile
//!
//! `C` is a 64 × 64 `f32` matrix, column-major. Thread block `(1, 2)` of a grid of 16 × 16
//! tiles takes rows 16..32 of columns 32..48.
//!
//! | step | CuTe | here |
//! | --- | --- | --- |
//! | the matrix | `make_layout(make_shape(64, 64))` | `"(64,64):(1,64) x4B"` |
//! | its tile | `local_tile(C, Shape<_16,_16>{}, make_coord(1, 2))` | [`local_tile`](crate::algebra::local_tile)`(&C, &[16:1, 16:1], &[1, 2])` |
//!
//! ```
//! use strided_layout::algebra::{self, const_unwrap};
//! use strided_layout::nested::{self, NestedLayout};
//! type N = NestedLayout<8>;
//! const C: N = nested::const_unwrap(N::parse("(64,64):(1,64) x4B"));
//! const T16: N = nested::const_unwrap(N::parse("16:1"));
//! const BLOCK: N = const_unwrap(algebra::local_tile(&C, &[T16, T16], &[1, 2]));
//! // 16 × 16 at row 16, column 32: offset 16 + 32·64.
//! assert_eq!(BLOCK.to_string(), "(16,16):(1,64) +2064 x4B");
//! ```
//!
//! # 2. Tiles as a divide
//!
//! `local_tile` is a divide by mode, then one tile picked. The divide itself keeps every tile:
//! mode 0 walks one tile, mode 1 the tiles. An 8 × 8 matrix in 2 × 4 tiles, printed as CuTe's
//! `print_layout` prints it (row: the coordinate in the tile; column: the tile):
//!
//! | CuTe | here |
//! | --- | --- |
//! | `zipped_divide(A, make_tile(Layout<_2>{}, Layout<_4>{}))` | [`zipped_divide_by_mode`](crate::algebra::zipped_divide_by_mode)`(&A, &[2:1, 4:1])` |
//!
//! ```
//! use strided_layout::algebra::{self, const_unwrap};
//! use strided_layout::nested::{self, NestedLayout};
//! type N = NestedLayout<8>;
//! const A: N = nested::const_unwrap(N::parse("(8,8):(1,8)"));
//! const TILER: [N; 2] = [
//!     nested::const_unwrap(N::parse("2:1")),
//!     nested::const_unwrap(N::parse("4:1")),
//! ];
//! const TILES: N = const_unwrap(algebra::zipped_divide_by_mode(&A, &TILER));
//! assert_eq!(TILES.to_string(), "((2,4),(4,2)):((1,8),(2,32))");
//! assert_eq!(
//!     TILES.grid()?.to_string(),
//!     " 0  2  4  6 32 34 36 38
//!  1  3  5  7 33 35 37 39
//!  8 10 12 14 40 42 44 46
//!  9 11 13 15 41 43 45 47
//! 16 18 20 22 48 50 52 54
//! 17 19 21 23 49 51 53 55
//! 24 26 28 30 56 58 60 62
//! 25 27 29 31 57 59 61 63"
//! );
//! # Ok::<(), strided_layout::nested::NestedError>(())
//! ```
//!
//! Column 0 is tile 0 (rows 0, 1 of columns 0..4: offsets 0, 1, 8, 9, ...), column 1 the tile
//! below it.
//!
//! # 3. Each thread's elements
//!
//! A warp of 32 threads covers the block tile as a 4 × 8 grid of threads, thread `t` at row
//! `t / 8`, column `t % 8` (the thread layout maps a thread's coordinate to its index). Thread
//! 9 owns every fourth row from row 1 and every eighth column from column 1: a 4 × 2 layout.
//!
//! | CuTe | here |
//! | --- | --- |
//! | `local_partition(block, Layout<Shape<_4,_8>, Stride<_8,_1>>{}, 9)` | [`local_partition`](crate::algebra::local_partition)`(&BLOCK, &(4,8):(8,1), 9)` |
//!
//! ```
//! use strided_layout::algebra::{self, const_unwrap};
//! use strided_layout::nested::{self, NestedLayout};
//! type N = NestedLayout<8>;
//! const BLOCK: N = nested::const_unwrap(N::parse("(16,16):(1,64) +2064 x4B"));
//! const THREADS: N = nested::const_unwrap(N::parse("(4,8):(8,1)"));
//! const MINE: N = const_unwrap(algebra::local_partition(&BLOCK, &THREADS, 9));
//! // Row 1, column 1 of the tile first; then 4 rows on, and 8 columns (8·64) on.
//! assert_eq!(MINE.to_string(), "(4,2):(4,512) +2129 x4B");
//! ```
//!
//! A thread layout that skips threads is refused: with `(4,8):(16,1)`, thread 9's coordinate
//! would be row 0, column 9, past the 8 columns.
//!
//! ```compile_fail
//! use strided_layout::algebra::{self, const_unwrap};
//! use strided_layout::nested::{self, NestedLayout};
//! type N = NestedLayout<8>;
//! const BLOCK: N = nested::const_unwrap(N::parse("(16,16):(1,64) x4B"));
//! const THREADS: N = nested::const_unwrap(N::parse("(4,8):(16,1)"));
//! // error: no coordinate of the thread layout maps to the thread (thread 9 of a layout of 32)
//! const MINE: N = const_unwrap(algebra::local_partition(&BLOCK, &THREADS, 9));
//! ```
//!
//! # 4. The shared-memory tile and its swizzle
//!
//! A tile of `A` staged in shared memory: 8 rows of 128 bytes, read as 16-byte vectors (8 a
//! row). When the 8 lanes of a phase read one column of vectors, every row's vector sits in
//! banks 0..4: an 8-way conflict. The TMA's 128-byte swizzle (CuTe's `Swizzle<3,4,3>` on
//! bytes: `Swizzle<3,0,3>` on 16-byte vectors) XORs the row into the vector's column, and the
//! column spreads over all 32 banks.
//!
//! | CuTe | here |
//! | --- | --- |
//! | `composition(Swizzle<3,0,3>{}, Layout<Shape<_8,_8>, Stride<_8,_1>>{})` | [`SwizzledLayout::new`](crate::algebra::SwizzledLayout::new)`(`[`Swizzle::tma`](crate::algebra::Swizzle::tma)`(B128, 16), (8,8):(8,1) x16B)` |
//!
//! ```text
//! (8,8):(8,1) through Swizzle<3,0,3>: row i's vectors XOR i
//!  0  1  2  3  4  5  6  7
//!  9  8 11 10 13 12 15 14
//! 18 19 16 17 22 23 20 21
//! 27 26 25 24 31 30 29 28
//! 36 37 38 39 32 33 34 35
//! 45 44 47 46 41 40 43 42
//! 54 55 52 53 50 51 48 49
//! 63 62 61 60 59 58 57 56
//! ```
//!
//! ```
//! use strided_layout::algebra::{Swizzle, SwizzledLayout};
//! use strided_layout::gpu::TmaSwizzle;
//! use strided_layout::nested::NestedLayout;
//! let tile: NestedLayout<4> = "(8,8):(8,1) x16B".parse()?;
//! let column: NestedLayout<4> = "8:1".parse()?; // lane l reads row l, vector 0
//! let plain = SwizzledLayout::new(Swizzle::new(0, 0, 3)?, tile)?;
//! assert_eq!(plain.bank_conflicts(&column)?, 8);
//! let swizzled = SwizzledLayout::new(Swizzle::tma(TmaSwizzle::B128, 16)?, tile)?;
//! assert_eq!(swizzled.bank_conflicts(&column)?, 1);
//! assert_eq!(swizzled.offset_of(&[1, 0])?, 9); // row 1's vector 0 moved to column 1
//! # Ok::<(), Box<dyn core::error::Error>>(())
//! ```
//!
//! # What each function is
//!
//! | CuTe | here | gives |
//! | --- | --- | --- |
//! | `coalesce(a)` | [`coalesce`](crate::algebra::coalesce) | the same function, fewest modes |
//! | `composition(a, b)` | [`composition`](crate::algebra::composition), [`composition_by_mode`](crate::algebra::composition_by_mode) | `a(b(i))` shaped as `b` |
//! | `complement(a, n)` | [`complement`](crate::algebra::complement) | what `a` leaves of `0..n` |
//! | `right_inverse`, `left_inverse` | [`right_inverse`](crate::algebra::right_inverse), [`left_inverse`](crate::algebra::left_inverse) | the inverses |
//! | `logical_divide`, `zipped_divide`, `tiled_divide`, `flat_divide` | the same names, and `_by_mode` for a tiler | tiles and the tiles' layout |
//! | `logical_product`, `zipped_product`, `tiled_product`, `blocked_product`, `raked_product` | the same names | copies of a block |
//! | `local_tile`, `local_partition` | [`local_tile`](crate::algebra::local_tile), [`local_partition`](crate::algebra::local_partition) | a block's tile, a thread's elements |
//! | `Swizzle<B,M,S>`, `composition(Swizzle, Layout)` | [`Swizzle`](crate::algebra::Swizzle), [`SwizzledLayout`](crate::algebra::SwizzledLayout) | XOR-swizzled offsets, bank conflicts |
