//! The byte layout of [`KernelLayout`], asserted at compile time, and the trait impls that
//! rest on it (`bytemuck::Pod`, `cudarc::driver::DeviceRepr`).
//!
//! `include/strided_layout.h` declares the same struct and asserts the same numbers with
//! `static_assert`; `tests/header.rs` compiles it and compares offsets on random layouts.
//!
//! | field | offset in units of `size_of::<I>()` |
//! | --- | --- |
//! | `extents` | 0 |
//! | `strides` | `N` |
//! | `offset` | `2N` |
//! | `interleave_dimension` | `2N + 1` |
//! | `interleave_factor` | `2N + 2` |
//! | `pitch_multipliers` | `2N + 3` |
//! | `pitch_shifts` | `3N + 3` |
//! | `factor_multiplier` | `4N + 3` |
//! | `factor_shift` | `4N + 4` |
//! | (size) | `4N + 5` |

use core::mem::{align_of, offset_of, size_of};

use super::{KernelLayout, KernelNestedLayout};

/// Asserts the table above for `KernelLayout<$i, $n>` (evaluated: a free `const` item).
macro_rules! assert_abi {
    ($i:ty; $($n:literal),*) => {$(
        #[expect(
            clippy::arithmetic_side_effects,
            reason = "const evaluation: an overflow is a compile error, never a wrap"
        )]
        const _: () = {
            type K = KernelLayout<$i, $n>;
            let w = size_of::<$i>();
            assert!(size_of::<K>() == (4 * $n + 5) * w, "KernelLayout size");
            assert!(align_of::<K>() == align_of::<$i>(), "KernelLayout alignment");
            assert!(offset_of!(K, extents) == 0);
            assert!(offset_of!(K, strides) == $n * w);
            assert!(offset_of!(K, offset) == 2 * $n * w);
            assert!(offset_of!(K, interleave_dimension) == (2 * $n + 1) * w);
            assert!(offset_of!(K, interleave_factor) == (2 * $n + 2) * w);
            assert!(offset_of!(K, pitch_multipliers) == (2 * $n + 3) * w);
            assert!(offset_of!(K, pitch_shifts) == (3 * $n + 3) * w);
            assert!(offset_of!(K, factor_multiplier) == (4 * $n + 3) * w);
            assert!(offset_of!(K, factor_shift) == (4 * $n + 4) * w);
        };
    )*};
}

assert_abi!(i32; 0, 1, 2, 3, 4, 5, 6, 7, 8);
assert_abi!(u32; 0, 1, 2, 3, 4, 5, 6, 7, 8);
assert_abi!(i64; 0, 1, 2, 3, 4, 5, 6, 7, 8);
assert_abi!(u64; 0, 1, 2, 3, 4, 5, 6, 7, 8);
assert_abi!(i16; 1, 4);
assert_abi!(u8; 1, 4);

#[cfg(feature = "bytemuck")]
#[expect(unsafe_code, reason = "an unsafe impl of a marker trait, proven below")]
// SAFETY: `KernelLayout<I, N>` is `#[repr(C)]` and every field is `I` or `[I; N]`. A type's
// size is a multiple of its alignment, so each field ends on a multiple of `align_of::<I>()`
// and the next starts right there: no padding, for every `N` (including 0) and every `I` (the
// table above, asserted). The all-zero value is valid when `I`'s is (`Zeroable`), and every
// bit pattern is valid when `I`'s are (`Pod`): no field has a validity invariant beyond `I`'s
// own, and the methods are total over all values (see `KernelLayout`).
unsafe impl<I: bytemuck::Zeroable, const N: usize> bytemuck::Zeroable for KernelLayout<I, N> {}

#[cfg(feature = "bytemuck")]
#[expect(unsafe_code, reason = "an unsafe impl of a marker trait, proven below")]
// SAFETY: as for `Zeroable` just above: `#[repr(C)]`, no padding, every field an `I: Pod`.
unsafe impl<I: bytemuck::Pod, const N: usize> bytemuck::Pod for KernelLayout<I, N> {}

#[cfg(feature = "cudarc")]
#[expect(unsafe_code, reason = "an unsafe impl of a marker trait, proven below")]
// SAFETY: cudarc copies a `DeviceRepr` value's bytes into the kernel's parameter buffer, so the
// type must be plain data with a C layout; `KernelLayout` is `#[repr(C)]`, padding-free (see
// above) and made only of `I`, which is `DeviceRepr` itself. `include/strided_layout.h`
// declares the matching struct, field for field.
unsafe impl<I: cudarc::driver::DeviceRepr, const N: usize> cudarc::driver::DeviceRepr
    for KernelLayout<I, N>
{
}

/// Asserts the byte layout of `KernelNestedLayout<$i, N, B>` (its doc's table: `version`,
/// `offset`, `size`, then `sizes`, `mode_multipliers`, `mode_shifts` of `N` values each, then
/// `extents`, `strides`, `weights`, `leaf_multipliers`, `leaf_shifts` of `N·B` each).
macro_rules! assert_nested_abi {
    ($i:ty; $(($n:literal, $b:literal)),*) => {$(
        #[expect(
            clippy::arithmetic_side_effects,
            reason = "const evaluation: an overflow is a compile error, never a wrap"
        )]
        const _: () = {
            type K = KernelNestedLayout<$i, $n, $b>;
            let w = size_of::<$i>();
            let (n, nb) = ($n, $n * $b);
            assert!(size_of::<K>() == (3 + 3 * n + 5 * nb) * w, "KernelNestedLayout size");
            assert!(align_of::<K>() == align_of::<$i>(), "KernelNestedLayout alignment");
            assert!(offset_of!(K, version) == 0);
            assert!(offset_of!(K, offset) == w);
            assert!(offset_of!(K, size) == 2 * w);
            assert!(offset_of!(K, sizes) == 3 * w);
            assert!(offset_of!(K, mode_multipliers) == (3 + n) * w);
            assert!(offset_of!(K, mode_shifts) == (3 + 2 * n) * w);
            assert!(offset_of!(K, extents) == (3 + 3 * n) * w);
            assert!(offset_of!(K, strides) == (3 + 3 * n + nb) * w);
            assert!(offset_of!(K, weights) == (3 + 3 * n + 2 * nb) * w);
            assert!(offset_of!(K, leaf_multipliers) == (3 + 3 * n + 3 * nb) * w);
            assert!(offset_of!(K, leaf_shifts) == (3 + 3 * n + 4 * nb) * w);
        };
    )*};
}

assert_nested_abi!(i32; (1, 1), (2, 2), (4, 3), (5, 4));
assert_nested_abi!(u32; (1, 1), (4, 3));
assert_nested_abi!(i64; (1, 1), (2, 2), (4, 3));
assert_nested_abi!(u64; (4, 3));
assert_nested_abi!(i16; (3, 2));
assert_nested_abi!(u8; (2, 2));

#[cfg(feature = "bytemuck")]
#[expect(unsafe_code, reason = "an unsafe impl of a marker trait, proven below")]
// SAFETY: `KernelNestedLayout<I, N, B>` is `#[repr(C)]` and every field is `I`, `[I; N]` or
// `[[I; B]; N]`: as for `KernelLayout` above, each field ends on a multiple of
// `align_of::<I>()`, so there is no padding (the table above, asserted); no field has a
// validity invariant beyond `I`'s own, and the methods are total over all values.
unsafe impl<I: bytemuck::Zeroable, const N: usize, const B: usize> bytemuck::Zeroable
    for KernelNestedLayout<I, N, B>
{
}

#[cfg(feature = "bytemuck")]
#[expect(unsafe_code, reason = "an unsafe impl of a marker trait, proven below")]
// SAFETY: as for `Zeroable` just above: `#[repr(C)]`, no padding, every field made of `I: Pod`.
unsafe impl<I: bytemuck::Pod, const N: usize, const B: usize> bytemuck::Pod
    for KernelNestedLayout<I, N, B>
{
}

#[cfg(feature = "cudarc")]
#[expect(unsafe_code, reason = "an unsafe impl of a marker trait, proven below")]
// SAFETY: cudarc copies a `DeviceRepr` value's bytes into the kernel's parameter buffer; the
// type is `#[repr(C)]`, padding-free and made only of `I: DeviceRepr`, and the header declares
// the matching struct, field for field.
unsafe impl<I: cudarc::driver::DeviceRepr, const N: usize, const B: usize>
    cudarc::driver::DeviceRepr for KernelNestedLayout<I, N, B>
{
}
