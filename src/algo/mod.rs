//! Slice-level `const fn` cores: every algorithm is written once here, on the [`Parts`]
//! view of a layout (`parts.rs`), and `Layout<N>` and `DynLayout<MAX>` call it.
//!
//! No function here indexes a slice: reads go through `Parts::axis` and `access::get`, writes
//! through `access::set` (the two index only inside the branch that has compared the index
//! with the length), or walk slices with patterns, so no bounds check and no panic path
//! reaches the machine code; `firmware/panic-check` proves it at link time. Arithmetic is
//! checked, or carries an `allow` with the proof that it cannot overflow.
//!
//! [`Parts`]: parts::Parts

#![expect(
    clippy::many_single_char_names,
    reason = "`p`, `e`, `s`, `i`, `j`, `k` are this module's vocabulary (parts, extent, stride, axis counters), used the same way in every file."
)]

pub(crate) mod access;
pub(crate) mod axis;
pub(crate) mod broadcast;
pub(crate) mod bytes;
pub(crate) mod checked;
pub(crate) mod contiguity;
pub(crate) mod dense;
pub(crate) mod flatten;
pub(crate) mod flip;
pub(crate) mod interleave;
pub(crate) mod narrow;
pub(crate) mod offset;
pub(crate) mod overlap;
pub(crate) mod parts;
pub(crate) mod permute;
pub(crate) mod repack;
pub(crate) mod reshape;
pub(crate) mod select;
pub(crate) mod slice;
pub(crate) mod sort;
pub(crate) mod split;
pub(crate) mod squeeze;
pub(crate) mod unique;
pub(crate) mod unsqueeze;
