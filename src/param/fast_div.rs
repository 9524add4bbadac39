//! Division by a run-time constant as a multiply-high, an add and a shift (the device math
//! behind [`KernelLayout::offset_of_linear`](crate::gpu::KernelLayout::offset_of_linear)).
//!
//! | item | side | what |
//! | --- | --- | --- |
//! | [`KernelIndex::division_magic`] | host, at packing time | `(multiplier, shift)` for a divisor, checked |
//! | [`KernelIndex::divide_fast`] | device | `n / d` from `n`, the multiplier and the shift |
//!
//! # The method
//!
//! Granlund and Montgomery, "Division by Invariant Integers using Multiplication" (PLDI 1994),
//! figure 4.1, the round-up method with a `W + 1`-bit multiplier whose top bit is implicit
//! (`W` = the bits of `I`, divisor `d` in `1..2^W`):
//!
//! ```text
//! l = ceil(log2 d)                       0 for d = 1
//! m = floor(2^W · (2^l − d) / d) + 1     < 2^W, so it fits W bits
//! t = mulhi(m, n) = (m · n) >> W
//! n / d = (t + n) >> l                   signed I:   n <= I::MAX < 2^(W−1), so t + n < 2^W
//!       = (t + ((n − t) >> s1)) >> s2    unsigned I: s1 = min(l, 1), s2 = l − s1; no overflow
//! ```
//!
//! Why it is exact: `M = 2^W + m = floor(2^(W+l) / d) + 1`, so `M·d = 2^(W+l) + e` with
//! `0 < e <= d <= 2^l`, and `floor(n·M / 2^(W+l)) = floor(n/d + n·e / (d·2^(W+l)))`. The
//! fraction of `n/d` is at most `(d − 1)/d`, and `n·e < 2^W · 2^l`, so the second term adds less
//! than `1/d`: the floor is `floor(n/d)` for every `n < 2^W`. Both device forms compute
//! `floor((t + n) / 2^l) = floor(n·M / 2^(W+l))`: the unsigned form halves `t + n` without
//! forming it (`t <= n`), the signed one adds directly since `n < 2^(W−1)`.
//!
//! It is the method of CUTLASS `FastDivmod` (which special-cases `d = 1` and needs `n < 2^31`)
//! and of libdivide's "branchfree" unsigned divider; here one `(multiplier, shift)` pair serves
//! both forms and every `d >= 1`. The divisor `0` (only in an empty layout, where no linear
//! index is in range) packs as `(0, 0)`, which reads as division by 1.
//!
//! # Cost per division
//!
//! Signed: one multiply-high, one add, one shift (`mul.hi`, `add`, `shr` in PTX). Unsigned:
//! one multiply-high, two subtractions, a `min`, an add and two shifts. A hardware integer
//! division on a GPU is an emulated sequence of about twenty instructions, and on a CPU a
//! `div` with a latency of 10 to 40 cycles.

use super::pack::{IndexRange, magic, word_as};
use num_traits::{CheckedRem, PrimInt, WrappingAdd, WrappingMul, WrappingSub};

mod sealed {
    /// Implemented only for the fixed-width primitive integers below.
    pub trait Sealed {}
}

/// The integer types a [`KernelLayout`](crate::gpu::KernelLayout) can use for its offset math:
/// `i8`, `i16`, `i32`, `i64`, `u8`, `u16`, `u32`, `u64`.
///
/// Sealed: the fixed-width primitive integers only, because the device side
/// (`include/strided_layout.h`) reads the same bytes and must know each field's width. Each
/// type carries its own fast division ([`division_magic`](Self::division_magic) on the host,
/// [`divide_fast`](Self::divide_fast) on the device), exact for every dividend in `0..=MAX`.
///
/// # Examples
///
/// ```
/// use strided_layout::gpu::KernelIndex;
/// // Division by a divisor known on the host, for any index type.
/// fn divide<I: KernelIndex>(n: I, d: I) -> Option<I> {
///     let (multiplier, shift) = I::division_magic(d)?;
///     Some(I::divide_fast(n, multiplier, shift))
/// }
/// assert_eq!(divide(1_000_000i32, 13), Some(76_923));
/// assert_eq!(divide(u16::MAX, 3), Some(21_845));
/// assert_eq!(divide(10i64, -2), None); // negative divisors have no magic
/// ```
pub trait KernelIndex:
    PrimInt + WrappingAdd + WrappingSub + WrappingMul + CheckedRem + sealed::Sealed
{
    /// The multiplier and shift that turn division by `divisor` into
    /// [`divide_fast`](Self::divide_fast), computed with checked arithmetic; `None` for a
    /// negative divisor.
    ///
    /// The multiplier is the `W`-bit pattern of `floor(2^W·(2^l − d)/d) + 1` (for a signed
    /// type, reinterpreted as signed), the shift is `l = ceil(log2 d)`. Divisor `0` gives
    /// `(0, 0)`, which divides by 1.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::LayoutError;
    /// use strided_layout::gpu::KernelIndex;
    /// let (m, s) = u32::division_magic(7).ok_or(LayoutError::IndexTypeOverflow)?;
    /// assert_eq!((m, s), (613_566_757, 3));
    /// assert_eq!(u32::divide_fast(u32::MAX, m, s), u32::MAX / 7);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    fn division_magic(divisor: Self) -> Option<(Self, Self)>;

    /// `n / d` for `n >= 0`, from the `(multiplier, shift)` that
    /// [`division_magic`](Self::division_magic) returned for `d`: a multiply-high, an add and a
    /// shift, no division.
    ///
    /// Wrapping operations only: any argument values give some result, never a panic (a
    /// negative `n` or arbitrary multiplier and shift give an unspecified quotient).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::LayoutError;
    /// use strided_layout::gpu::KernelIndex;
    /// let (m, s) = i32::division_magic(1920).ok_or(LayoutError::IndexTypeOverflow)?;
    /// assert_eq!(i32::divide_fast(1080 * 1920 - 1, m, s), 1079);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    fn divide_fast(n: Self, multiplier: Self, shift: Self) -> Self;

    /// The values the type holds and its width (the packing's view of the type).
    #[doc(hidden)]
    const RANGE: IndexRange;

    /// `word` as the type, for a word of the packing (within [`RANGE`](Self::RANGE), so the
    /// conversion is exact; it wraps otherwise, never panics).
    #[doc(hidden)]
    #[must_use]
    fn from_word(word: i128) -> Self;
}

/// `(multiplier, l)` for `divisor` in `0..2^width`, `width <= 64`, in `u128` with checked
/// steps.
pub(super) const fn magic_u128(divisor: u128, width: u32) -> Option<(u128, u32)> {
    if divisor == 0 {
        return Some((0, 0));
    }
    // log = ceil(log2 divisor): the bit length of divisor - 1 (0 for divisor = 1).
    let log = match divisor.checked_sub(1) {
        Some(v) => match u128::BITS.checked_sub(v.leading_zeros()) {
            Some(log) => log,
            None => return None,
        },
        None => return None,
    };
    let Some(two_log) = 1u128.checked_shl(log) else {
        return None;
    };
    let Some(two_width) = 1u128.checked_shl(width) else {
        return None;
    };
    // 2^log >= divisor, so this does not underflow; 2^width·(2^log − divisor) < 2^64 · 2^64 for width, log <= 64.
    let Some(diff) = two_log.checked_sub(divisor) else {
        return None;
    };
    let Some(num) = diff.checked_mul(two_width) else {
        return None;
    };
    let Some(q) = num.checked_div(divisor) else {
        return None;
    };
    let Some(m) = q.checked_add(1) else {
        return None;
    };
    // Proven < 2^width in the module doc; checked anyway.
    if m >= two_width {
        return None;
    }
    Some((m, log))
}

/// The packing's view of the index type `$t` (the hidden items of [`KernelIndex`]).
macro_rules! packing_items {
    ($t:ty) => {
        const RANGE: IndexRange = IndexRange {
            min: <$t>::MIN as i128,
            max: <$t>::MAX as i128,
            bits: <$t>::BITS,
        };

        #[inline]
        fn from_word(word: i128) -> Self {
            word_as!($t, word)
        }

        // The packing's constants (`pack::magic`): one rule for the packed pitches and factor
        // and for this method.
        #[inline]
        fn division_magic(divisor: Self) -> Option<(Self, Self)> {
            let (m, l) = magic(Self::RANGE, i128::from(divisor))?;
            Some((Self::from_word(m), Self::from_word(l)))
        }
    };
}

macro_rules! kernel_index {
    ($t:ty, $u:ty, $wide:ty, signed) => {
        impl sealed::Sealed for $t {}
        impl KernelIndex for $t {
            packing_items!($t);

            #[inline]
            fn divide_fast(n: Self, multiplier: Self, shift: Self) -> Self {
                let (n, m) = (n.cast_unsigned(), multiplier.cast_unsigned());
                let t = mulhi!($u, $wide, n, m);
                // n <= MAX < 2^(W-1) and t <= n: the sum fits W bits (module doc); wrapping
                // only so that arbitrary bytes cannot panic.
                let sh = u32::try_from(shift.cast_unsigned() & <$u>::from(u8::MAX)).unwrap_or(0);
                t.wrapping_add(n).wrapping_shr(sh).cast_signed()
            }
        }
    };
    ($t:ty, $wide:ty, unsigned) => {
        impl sealed::Sealed for $t {}
        impl KernelIndex for $t {
            packing_items!($t);

            #[inline]
            fn divide_fast(n: Self, multiplier: Self, shift: Self) -> Self {
                let t = mulhi!($t, $wide, n, multiplier);
                // t <= n (the multiplier is below 2^W), so n - t does not wrap and
                // t + (n - t) / 2 <= n does not overflow; wrapping only for arbitrary bytes.
                let s1 = shift.min(1);
                let s2 = shift.wrapping_sub(s1);
                let sh1 = u32::try_from(s1).unwrap_or(0);
                let sh2 = u32::try_from(s2 & <$t>::from(u8::MAX)).unwrap_or(0);
                t.wrapping_add(n.wrapping_sub(t).wrapping_shr(sh1))
                    .wrapping_shr(sh2)
            }
        }
    };
}

/// The high `W` bits of the `2W`-bit product `a·b`, for the unsigned `$u` and its double
/// width `$wide`.
macro_rules! mulhi {
    ($u:ty, $wide:ty, $a:expr, $b:expr) => {{
        // Two W-bit factors: the product is below 2^(2W), no wrap in the double width; after
        // the shift by W it is below 2^W, so the conversion back never takes the fallback.
        let p = <$wide>::from($a).wrapping_mul(<$wide>::from($b));
        <$u>::try_from(p.wrapping_shr(<$u>::BITS)).unwrap_or(0)
    }};
}

kernel_index!(i8, u8, u16, signed);
kernel_index!(i16, u16, u32, signed);
kernel_index!(i32, u32, u64, signed);
kernel_index!(i64, u64, u128, signed);
kernel_index!(u8, u16, unsigned);
kernel_index!(u16, u32, unsigned);
kernel_index!(u32, u64, unsigned);
kernel_index!(u64, u128, unsigned);

#[cfg(test)]
mod tests {
    use super::*;

    /// Every divisor and every dividend of the 8-bit types (under Miri, which interprets this
    /// arithmetic a thousand times slower and has no `unsafe` to check here, every 7th
    /// dividend and the largest).
    #[test]
    fn divide_fast_is_exact_for_every_8_bit_divisor_and_dividend() {
        let step = if cfg!(miri) { 7 } else { 1 };
        for d in 1..=u8::MAX {
            let (m, s) = u8::division_magic(d).unwrap();
            for n in (0..=u8::MAX).step_by(step).chain([u8::MAX]) {
                assert_eq!(u8::divide_fast(n, m, s), n / d, "{n} / {d}");
            }
        }
        for d in 1..=i8::MAX {
            let (m, s) = i8::division_magic(d).unwrap();
            for n in (0..=i8::MAX).step_by(step).chain([i8::MAX]) {
                assert_eq!(i8::divide_fast(n, m, s), n / d, "{n} / {d}");
            }
        }
    }

    #[test]
    fn division_magic_of_zero_divides_by_one_and_negative_is_refused() {
        assert_eq!(i32::division_magic(0), Some((0, 0)));
        assert_eq!(i32::division_magic(-3), None);
        assert_eq!(u64::divide_fast(12345, 0, 0), 12345);
    }

    #[test]
    fn division_magic_of_powers_of_two_is_a_plain_shift() {
        for l in 0..32 {
            assert_eq!(u32::division_magic(1 << l), Some((1, l)));
        }
    }
}
