//! Queries: the question set every layout answers (mdspan-style).
//!
//! | question | method |
//! | --- | --- |
//! | axes from largest stride to smallest | [`stride_order`](crate::Layout::stride_order) |

mod stride_order;
