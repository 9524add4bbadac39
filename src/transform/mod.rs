//! Same-rank, zero-copy transforms: each returns a new `Layout<N>` over the same memory.
//!
//! Every transform takes `self` by value (a [`Layout`](crate::Layout) is `Copy`), is a
//! `const fn`, and builds its result through the one validating constructor, so the result
//! keeps the three invariants or the call returns a [`LayoutError`](crate::LayoutError).
//!
//! | transform | what changes | errors | picture, from `(2,3):(3,1)` = `0 1 2 / 3 4 5` |
//! | --- | --- | --- | --- |
//! | [`permuted(axes)`](crate::Layout::permuted) | shape and strides reordered: axis `i` is old axis `axes[i]` | `NotAPermutation` | `permuted([1, 0])` -> `(3,2):(1,3)`: `0 3 / 1 4 / 2 5` |
//! | [`transposed(a, b)`](crate::Layout::transposed) | axes `a` and `b` swapped | `AxisOutOfRange` | `transposed(0, 1)` -> `(3,2):(1,3)`: `0 3 / 1 4 / 2 5` |
//! | [`flipped(axis)`](crate::Layout::flipped) | stride negated, offset to the old last element | `AxisOutOfRange`, `OffsetOverflow` | `flipped(1)` -> `(2,3):(3,-1) +2`: `2 1 0 / 5 4 3` |
//! | [`narrowed(axis, start, len)`](crate::Layout::narrowed) | extent `len`, offset `+ start * stride`; no clamping | `AxisOutOfRange`, `RangeOutOfBounds`, `OffsetOverflow` | `narrowed(1, 1, 2)` -> `(2,2):(3,1) +1`: `1 2 / 4 5` |
//! | [`sliced(slices)`](crate::Layout::sliced) | Python `start:stop:step` per axis: extents, `stride * step`, offset; clamps | `ZeroStep`, `OffsetOverflow` | `sliced([::-1, ::2])` -> `(2,2):(-3,2) +3`: `3 5 / 0 2` |
//! | [`repacked(itemsize, ptr, axis)`](crate::Layout::repacked) | itemsize; extent at `axis`, other strides and offset divided (pack) or multiplied (unpack) by the factor | `ItemsizeNotPowerOfTwo`, `AxisOutOfRange`, `ExtentZero`, `StrideNotOne`, `ExtentNotDivisible`, `StrideNotDivisible`, `OffsetNotDivisible`, `PointerMisaligned` | `x4B` `repacked(2, 0, -1)` -> `(2,6):(6,1) x2B`: `0 1 2 3 4 5 / 6 7 8 9 10 11` |
//! | [`to_dense(order)`](crate::Layout::to_dense) | dense strides in `order`, offset 0 (`Order::Keep` keeps the stride order) | `NotAPermutation` | `flipped(1)` then `to_dense(Keep)` -> `(2,3):(3,1)`: `0 1 2 / 3 4 5` |
//!
//! Empty results: [`sliced`](crate::Layout::sliced) follows cuda.core (a slice that empties
//! an axis zeroes every stride, and that axis does not move the offset), while
//! [`narrowed`](crate::Layout::narrowed) and [`flipped`](crate::Layout::flipped) never
//! change a stride except the one they are about. [`Grid`](crate::Grid) prints the offset
//! pictures used here:
//!
//! ```
//! use strided_layout::{Layout, LayoutError, Order, Slice};
//! let l = Layout::dense([2, 3], 4, Order::C)?;
//! let s = l.sliced([Slice::new(None, None, -1), Slice::new(None, None, 2)])?;
//! assert_eq!(s.to_text::<32>()?.as_str(), "(2,2):(-3,2) +3 x4B");
//! assert_eq!(s.grid_2d().to_text::<8>()?.as_str(), "3 5\n0 2");
//! # Ok::<(), LayoutError>(())
//! ```

mod permute;
mod flip;
mod narrow;
mod slice;
mod repack;
mod dense;
