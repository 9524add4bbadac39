//! CuTe's `shape:stride` notation, how `Display` prints a layout, and CuTe's names for this
//! crate's operations.
//!
//! CuTe (CUTLASS 3) writes a layout as its shape and its stride, each a tuple, joined by a
//! colon: `(2,3):(3,1)` is a 2 × 3 layout whose index `(i, j)` lives at `3·i + 1·j`. This
//! crate uses the same notation in its docs, in its offset grids and in `Display`.
//!
//! # Reading the notation
//!
//! ```text
//! (2,3):(3,1)     row-major 2 x 3          (2,3):(1,2)     column-major 2 x 3
//!   0 1 2                                     0 2 4
//!   3 4 5                                     1 3 5
//!
//! (2,3):(0,1)     row broadcast            (2,3):(3,-1) +2  columns reversed
//!   0 1 2                                     2 1 0
//!   0 1 2                                     5 4 3
//! ```
//!
//! Each grid prints, at row `i` and column `j`, the element offset of index `[i, j]`
//! (CuTe's `print_layout`). Higher ranks print one 2-D grid per index of the leading axes.
//!
//! # What `Display` prints
//!
//! `Display` for [`Layout<N>`](crate::Layout) prints, in this order:
//!
//! | part | form | example |
//! | --- | --- | --- |
//! | shape | `(e0,e1,..)`, no spaces | `(2,3)` |
//! | stride | `:(s0,s1,..)`, signed, in elements | `:(3,1)` |
//! | offset | ` +k` or ` -k`, in elements, omitted when 0 | ` +4` |
//! | itemsize | ` xNB`, in bytes | ` x4B` |
//!
//! So `Layout::new([2, 3], [3, 1], 4)` with offset 4 prints `(2,3):(3,1) +4 x4B`, and the
//! same layout with offset 0 prints `(2,3):(3,1) x4B`. A rank-1 layout prints `(5):(1) x1B`
//! and a rank-0 layout `():() x1B`. The text is built without allocation, so it also works
//! on `no_std` targets (and through `defmt` with the `defmt` feature). `Debug` is the derived
//! struct form, for when you want field names.
//!
//! Unlike CuTe, a [`Layout<N>`](crate::Layout)'s shape is flat (nested modes such as
//! `((2,2),3)` are [`NestedLayout`](crate::nested::NestedLayout)'s, below), strides are signed
//! and counted in elements, and a layout carries an offset and an itemsize; CuTe puts the
//! offset in the pointer of a `Tensor` and the element type in the pointer type.
//!
//! # Nested modes
//!
//! [`NestedLayout<L>`](crate::nested::NestedLayout) reads what CuTe prints. A thread-value
//! layout of 32 threads by 4 values, from a CUTLASS kernel's debug output, pasted as it is
//! (static `_N` integers included):
//!
//! ```
//! use strided_layout::nested::{const_unwrap, NestedLayout};
//! const TV: NestedLayout<4> = const_unwrap(NestedLayout::parse("((_4,_8),(_2,_2)):((_16,_1),(_8,_64))"));
//! assert_eq!((TV.size(), TV.rank(), TV.depth(), TV.cosize()), (128, 2, 2, 128));
//! // Thread 5 (mode 0), value 3 (mode 1): 5 = 1 + 4·1, 3 = 1 + 2·1.
//! assert_eq!(TV.offset_of(&[5, 3])?, 16 + 1 + 8 + 64);
//! assert!(TV.is_unique());
//! # Ok::<(), strided_layout::nested::NestedError>(())
//! ```
//!
//! Its grid is CuTe's `print_layout` (threads down, values across):
//!
//! ```
//! use strided_layout::nested::NestedLayout;
//! let tv: NestedLayout<4> = "((4,2),(2,2)):((8,1),(2,16))".parse()?;
//! assert_eq!(
//!     tv.grid()?.to_string(),
//!     " 0  2 16 18\n 8 10 24 26\n16 18 32 34\n24 26 40 42\n 1  3 17 19\n 9 11 25 27\n17 19 33 35\n25 27 41 43"
//! );
//! assert!(!tv.is_unique()); // offset 16 twice: thread 2's value 0 and thread 0's value 2
//! # Ok::<(), strided_layout::nested::NestedError>(())
//! ```
//!
//! | CuTe | [`NestedLayout`](crate::nested::NestedLayout) |
//! | --- | --- |
//! | `size`, `cosize`, `rank`, `depth` | the same names (`cosize`: one past the largest offset) |
//! | `layout(i)` (1-D, first mode fastest) | [`offset_of_linear`](crate::nested::NestedLayout::offset_of_linear) |
//! | `layout(make_coord(c0, c1, ..))` | [`offset_of`](crate::nested::NestedLayout::offset_of) |
//! | `print(layout)` | [`Display`](core::fmt::Display) (the same text) |
//! | `print_layout(layout)` | [`grid`](crate::nested::NestedLayout::grid) |
//! | `select<I...>(layout)` | [`permuted`](crate::nested::NestedLayout::permuted) |
//! | `flatten` of a mode | [`flattened_mode`](crate::nested::NestedLayout::flattened_mode) |
//! | `append` / `prepend` a mode of size 1 | [`unsqueezed`](crate::nested::NestedLayout::unsqueezed) |
//!
//! What CuTe has no word for: a mode whose last block is partial, `(4,3)|10` (10 coordinates
//! of `(4,3)`, Core AI's interleave with 10 channels in blocks of 4), and oneDNN's format tags
//! ([`onednn`](crate::nested::NestedLayout::onednn)), which are nested layouts whose padded
//! blocks are such modes. The type's answers are checked against CuTe's own headers
//! (`tests/data/cute_nested.tsv`, 10,024 layouts) and oneDNN's reorders.
//!
//! # CuTe names for this crate's operations
//!
//! | CuTe | this crate |
//! | --- | --- |
//! | `size(layout)` | [`volume()`](crate::Layout::volume) |
//! | `cosize(layout)` (one past the largest offset) | `required_size_in_bytes() / itemsize()` for layouts whose minimum offset is not negative |
//! | `rank(layout)` | [`ndim()`](crate::Layout::ndim), or the type's `N` |
//! | `layout(coord)` | `offset_of(index)` (checked: an out-of-range index is an error, not UB) |
//! | `make_layout(shape, LayoutRight{})` / `LayoutLeft{}` | [`Layout::dense`](crate::Layout::dense) with [`Order::C`](crate::Order::C) / [`Order::F`](crate::Order::F) |
//! | `select<I...>(layout)` / `make_layout(get<I>(layout)...)` | `permuted(axes)` |
//! | `coalesce(layout)` | `flattened()` (merges axes whose strides allow it, in C order) and `coalesced` |
//! | `upcast<N>` / `downcast<N>` | `repacked(itemsize, ..)` (the itemsize grows / shrinks) |
//! | `append` / `prepend` a mode of size 1 | `unsqueezed::<M>(axis)` |
//! | slicing a `Tensor` with `_` | `sliced`, `narrowed`, `selected` |
//! | `blocked_product` vs `raked_product` | a blocked layout (the factor axis outermost) vs an interleaved one (`InterleavedLayout`, the factor innermost) |
//! | `print_layout(layout)` | the ` ```text ` offset grids in this crate's docs |
//!
//! CuTe's composition, complement and logical divide have no counterpart here yet.
