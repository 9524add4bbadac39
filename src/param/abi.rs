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

use super::KernelLayout;

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
