//! Kernels: move data between layouts, validated once, then tight loops.
//!
//! Every kernel takes slices with a layout each (anything that is a [`Mapping`]: a
//! [`Layout`](crate::Layout) today, an interleaved layout through the same trait) and follows
//! one contract:
//!
//! 1. **Plan** ([`Plan::new`]): check the shapes agree, drop extent-1 axes, merge axes that
//!    merge in every operand, flip axes that run backwards in all, order the loops by stride
//!    (destination weighted most) and tile the two innermost when the operands disagree on
//!    the fastest axis.
//! 2. **Validate**, before anything is written: every offset of every operand lies inside its
//!    slice; the destination is unique; in place, the two operands coincide or are disjoint.
//!    Each failure is its own [`LayoutError`](crate::LayoutError), and the destination is
//!    untouched.
//! 3. **Loop**: for each contiguous run a `copy_from_slice`-like move, for strided runs an
//!    unrolled loop, for tiles of 4- and 8-byte primitives SIMD transposes (SSE2, AVX, NEON),
//!    for planar <-> interleaved blocks of 2 to 4 channels byte shuffles (SSSE3, AVX2, NEON
//!    `tbl`), for copies larger than the last-level cache non-temporal stores.
//!
//! | kernel | operands (0 is written) | what it does |
//! | --- | --- | --- |
//! | [`copy()`](crate::copy()) | dst, src | `dst[i] = src[i]` |
//! | [`copy_within`](crate::copy_within) | one buffer: dst, src | same, in place |
//! | [`fill`](crate::fill) | dst | `dst[i] = value` |
//! | [`map`](crate::map) | dst, src | `dst[i] = f(src[i])` |
//! | [`zip_map`](crate::zip_map) | dst, a, b | `dst[i] = f(a[i], b[i])` |
//! | [`fold`](crate::fold) | src (read only) | `acc = f(acc, src[i])` in plan order |
//!
//! `unsafe` lives in `raw.rs`, `simd.rs` and `channels.rs` only; planning, validation and the
//! loop driver are safe code.

mod mapping;
mod plan;
mod walk;
mod validate;
#[allow(unsafe_code)]
mod raw;
#[allow(unsafe_code)]
mod simd;
#[allow(unsafe_code)]
mod channels;
mod copy;
mod fill;
mod map;
mod fold;

pub use copy::{copy, copy_within};
pub use fill::fill;
pub use fold::fold;
pub use map::{map, zip_map};
pub use mapping::{Lowered, Mapping};
pub use plan::{Loop, MAX_LOOPS, Nest, Plan};
