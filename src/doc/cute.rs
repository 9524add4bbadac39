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
//! Unlike CuTe, shapes are flat (no nested modes such as `((2,2),3)`), strides are signed
//! and counted in elements, and a layout carries an offset and an itemsize; CuTe puts the
//! offset in the pointer of a `Tensor` and the element type in the pointer type.
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
//! CuTe's composition, complement and logical divide have no counterpart here: this crate
//! describes one flat strided layout at a time.
