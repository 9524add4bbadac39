//! Queries: the question set every layout answers (mdspan-style).
//!
//! Every query takes `&self`, allocates nothing and, except
//! [`fits_in`](crate::Layout::fits_in), is a `const fn`. Edge cases follow cuda.core: a layout
//! with no element is contiguous, dense when its offset is 0, and unique; the stride of an
//! extent-1 axis is never read by contiguity, uniqueness or the flatten mask; a zero stride on
//! an axis of extent > 1 is never contiguous and never unique.
//!
//! | question | method | mdspan / cuda.core / other name |
//! | --- | --- | --- |
//! | where does index `i` live? | [`offset_of`](crate::Layout::offset_of) | mdspan `mapping(i...)` |
//! | smallest and largest element offset (`None` if empty) | [`offset_bounds`](crate::Layout::offset_bounds) | cuda.core `offset_bounds` (`(0, -1)` if empty) |
//! | bytes a buffer from offset 0 needs | [`required_size_in_bytes`](crate::Layout::required_size_in_bytes) | mdspan `required_span_size`, CuTe `cosize` |
//! | C order fills `offset..offset + volume`? | [`is_contiguous_c`](crate::Layout::is_contiguous_c) | cuda.core `is_contiguous_c` |
//! | F order fills it? | [`is_contiguous_f`](crate::Layout::is_contiguous_f) | cuda.core `is_contiguous_f` |
//! | some axis order fills it? | [`is_contiguous_any`](crate::Layout::is_contiguous_any) | cuda.core `is_contiguous_any` |
//! | fills exactly `0..volume`? | [`is_dense`](crate::Layout::is_dense) | mdspan `is_exhaustive` (and offset 0) |
//! | no two indices share an offset? (exact) | [`is_unique`](crate::Layout::is_unique) | mdspan `is_unique`; cuda.core's is only sufficient |
//! | does it share a byte with another layout? (exact) | [`overlaps`](crate::Layout::overlaps) | `NumPy` `may_share_memory` (exact: `shares_memory`) |
//! | which axes merge when flattened? | [`flattened_axis_mask`](crate::Layout::flattened_axis_mask) | cuda.core `flattened_axis_mask` |
//! | largest itemsize [`repacked`](crate::Layout::repacked) accepts | [`max_compatible_itemsize`](crate::Layout::max_compatible_itemsize) | cuda.core `max_compatible_itemsize` |
//! | axes from largest stride to smallest | [`stride_order`](crate::Layout::stride_order) | cuda.core `stride_order` |
//! | rank of each axis's stride (smallest 0) | [`stride_rank`](crate::Layout::stride_rank) | ArrayInterface `stride_rank` (1-based) |
//! | which axis has stride 1? | [`contiguous_axis`](crate::Layout::contiguous_axis) | ArrayInterface `contiguous_axis` |
//! | how many contiguous elements before another axis moves? | [`contiguous_batch_size`](crate::Layout::contiguous_batch_size) | ArrayInterface `contiguous_batch_size` |
//! | slice range of a C-contiguous layout | [`contiguous_offsets`](crate::Layout::contiguous_offsets) | burn `contiguous_offsets` |
//! | `|stride|` of the last axis | [`inner_stride`](crate::Layout::inner_stride) | burn `inner_stride` |
//! | last axis steps by one element? | [`has_contiguous_inner`](crate::Layout::has_contiguous_inner) | burn `has_contiguous_inner` |
//! | rank-2 extents and strides | [`as_2d_strides`](crate::Layout::as_2d_strides) | burn `as_2d_strides` |
//! | no negative stride? | [`has_positive_strides`](crate::Layout::has_positive_strides) | burn `has_positive_strides` |
//! | does 32-bit (any `I`) index math suffice? | [`fits_in`](crate::Layout::fits_in) | (kernel parameters) |
//! | the same in bytes? | [`fits_in_bytes`](crate::Layout::fits_in_bytes) | (kernel parameters) |
//! | where does index `i` live, in bytes? | [`offset_of_in_bytes`](crate::Layout::offset_of_in_bytes) | `NumPy` byte offsets |
//! | first and last byte any element covers | [`byte_span`](crate::Layout::byte_span) | `NumPy` `byte_bounds` (exclusive end) |
//! | no element at all? | [`is_empty`](crate::Layout::is_empty) | `size == 0` |

mod bounds;
mod contiguity;
mod uniqueness;
mod overlap;
mod stride_order;
mod axes;
mod inner;
mod itemsize;
pub(crate) mod index_type;
pub(crate) mod bytes;
