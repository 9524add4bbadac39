//! Slice-level `const fn` cores: every algorithm is written once here, on `&[usize]` and
//! `&[isize]`, and `Layout<N>` and `DynLayout<MAX>` call it.
//!
//! Indexing in these functions is bounded by the loop condition (`i < len` of the slice
//! indexed, or of a slice checked to be as long); `const fn` cannot use `slice::get`, so the
//! crate-wide `clippy::indexing_slicing` denial is lifted for this module only.

pub(crate) mod broadcast;
pub(crate) mod checked;
pub(crate) mod coalesce;
pub(crate) mod contiguity;
pub(crate) mod dense;
pub(crate) mod offset;
pub(crate) mod overlap;
pub(crate) mod repack;
pub(crate) mod reshape;
pub(crate) mod slice;
pub(crate) mod sort;
pub(crate) mod unique;
