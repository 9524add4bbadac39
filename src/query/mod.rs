//! Queries: the question set every layout answers (mdspan-style).
//!
//! | question | method |
//! | --- | --- |
//! | axes from largest stride to smallest | [`stride_order`](crate::Layout::stride_order) |
//! | largest itemsize [`repacked`](crate::Layout::repacked) accepts | [`max_compatible_itemsize`](crate::Layout::max_compatible_itemsize) |

mod axes;
mod bounds;
mod contiguity;
mod index_type;
mod inner;
mod itemsize;
mod overlap;
mod stride_order;
mod uniqueness;
