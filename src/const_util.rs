//! Compile-time helpers: [`const_unwrap`] and [`const_layout!`](crate::const_layout).
//!
//! A layout built in a `const` item is checked by the compiler: an `Err` becomes a build
//! error that carries [`LayoutError::as_str`]'s message, and properties can be asserted with
//! a plain `const _: () = assert!(..)`, whose message is printed at its line:
//!
//! ```
//! use strided_layout::{const_unwrap, Layout, Order};
//! const IMG: Layout<3> = const_unwrap(Layout::dense([3, 480, 640], 1, Order::C));
//! const _: () = assert!(IMG.is_contiguous_c(), "the image is planar, C order");
//! const _: () = assert!(IMG.volume() == 3 * 480 * 640, "3 x 480 x 640 pixels");
//! ```

use crate::LayoutError;

/// Unwraps a layout result in a `const` item or `const` block; **panics on `Err`**, which in
/// a `const` item fails the build with the error's full `Display` text.
///
/// At run time, prefer `?` (the non-panicking form) or [`const_layout!`](crate::const_layout),
/// which always evaluates at compile time. This is the one function of the crate that can
/// panic, and only by design: it exists to turn an error into a compile error, which is a
/// panic during const evaluation. The message is the error's `Display` text, payload
/// included ("axis index is not less than the rank (axis 5, rank 2)"), built in a
/// fixed-size buffer because a `const` panic cannot format integers.
///
/// # Panics
///
/// If `result` is an `Err`: at compile time a build error naming the rule and the axis, at
/// run time a panic reported at the caller's line (`#[track_caller]`).
///
/// # Examples
///
/// At run time, use `?`:
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order};
/// let l = Layout::dense([2, 3], 4, Order::C)?;
/// assert_eq!(l.strides(), [3, 1]);
/// # Ok::<(), LayoutError>(())
/// ```
///
/// In a `const` item, `const_unwrap`:
///
/// ```
/// use strided_layout::{const_unwrap, Layout, Order};
/// const L: Layout<2> = const_unwrap(Layout::dense([2, 3], 4, Order::C));
/// assert_eq!(L.strides(), [3, 1]);
/// ```
#[must_use]
#[track_caller]
pub const fn const_unwrap<T: Copy>(result: Result<T, LayoutError>) -> T {
    match result {
        Ok(v) => v,
        Err(e) => {
            let msg = Message::of(&e);
            #[expect(
                clippy::panic,
                reason = "the purpose of this function: a const-eval error"
            )]
            {
                panic!("{}", msg.as_str())
            }
        }
    }
}

/// The `Display` text of a [`LayoutError`], written by a `const fn` into a fixed buffer
/// (a `const` panic can print a `&str` but cannot format an integer).
pub(crate) struct Message {
    buf: [u8; Message::CAP],
    len: usize,
}

impl Message {
    /// Room for the longest text: a rule (under 80 bytes) and a payload of at most 64 axes
    /// ("63, " is 4 bytes) or two 20-digit numbers.
    const CAP: usize = 360;

    /// The text of `e`, as [`LayoutError`]'s `Display` writes it.
    #[expect(
        clippy::arithmetic_side_effects,
        reason = "`axis < 64` before `axis += 1`."
    )]
    pub(crate) const fn of(e: &LayoutError) -> Self {
        let mut m = Self {
            buf: [0; Self::CAP],
            len: 0,
        };
        m.push(e.as_str());
        match *e {
            LayoutError::ItemsizeNotPowerOfTwo { itemsize } => {
                m.push(" (itemsize ");
                m.push_usize(itemsize);
                m.push(")");
            }
            LayoutError::AxisOutOfRange { axis, ndim } => {
                m.push(" (axis ");
                m.push_usize(axis);
                m.push(", rank ");
                m.push_usize(ndim);
                m.push(")");
            }
            LayoutError::IndexOutOfRange { axis }
            | LayoutError::RangeOutOfBounds { axis }
            | LayoutError::ZeroStep { axis }
            | LayoutError::StrideNotMultipleOfItemsize { axis }
            | LayoutError::ExtentZero { axis }
            | LayoutError::StrideNotOne { axis }
            | LayoutError::ExtentNotDivisible { axis }
            | LayoutError::StrideNotDivisible { axis }
            | LayoutError::ExtentInvalid { axis }
            | LayoutError::BroadcastIncompatible { axis }
            | LayoutError::DuplicateAxis { axis } => {
                m.push(" (axis ");
                m.push_usize(axis);
                m.push(")");
            }
            LayoutError::RankMismatch { expected, found } => {
                m.push(" (expected ");
                m.push_usize(expected);
                m.push(", found ");
                m.push_usize(found);
                m.push(")");
            }
            LayoutError::RankOverflow { max } => {
                m.push(" (max ");
                m.push_usize(max);
                m.push(")");
            }
            LayoutError::NeedsCopy { axes } if axes.count() > 0 => {
                m.push(" (axes ");
                let mut first = true;
                let mut axis = 0;
                while axis < 64 {
                    if axes.contains(axis) {
                        if !first {
                            m.push(", ");
                        }
                        m.push_usize(axis);
                        first = false;
                    }
                    axis += 1;
                }
                m.push(")");
            }
            _ => {}
        }
        m
    }

    /// Appends `s`, truncating at the capacity (never reached: see [`Message::CAP`]).
    #[expect(
        clippy::arithmetic_side_effects,
        reason = "`i < bytes.len()` and `self.len < CAP` before each increment."
    )]
    const fn push(&mut self, s: &str) {
        let bytes = s.as_bytes();
        let mut i = 0;
        while i < bytes.len() && self.len < Self::CAP {
            #[expect(
                clippy::indexing_slicing,
                reason = "Both indices are checked by the loop condition."
            )]
            {
                self.buf[self.len] = bytes[i];
            }
            self.len += 1;
            i += 1;
        }
    }

    /// Appends `v` in decimal.
    #[expect(
        clippy::arithmetic_side_effects,
        reason = "`n` counts digits (at most 20), `v / 10` and `v % 10` divide by a nonzero constant, `b'0' + digit` is at most `b'9'`, `n -= 1` runs only when `n > 0`, and `self.len` grows only while below `CAP`."
    )]
    const fn push_usize(&mut self, v: usize) {
        let mut digits = [0u8; 20]; // usize::MAX has at most 20 digits
        let mut n = 0;
        let mut v = v;
        loop {
            if n < digits.len() {
                #[expect(
                    clippy::indexing_slicing,
                    clippy::cast_possible_truncation,
                    reason = "`n` is checked just above; `v % 10 < 10` fits `u8`."
                )]
                {
                    digits[n] = b'0' + (v % 10) as u8;
                }
            }
            n += 1;
            v /= 10;
            if v == 0 {
                break;
            }
        }
        while n > 0 && self.len < Self::CAP {
            n -= 1;
            if n < digits.len() {
                #[expect(
                    clippy::indexing_slicing,
                    reason = "Both indices are checked just above."
                )]
                {
                    self.buf[self.len] = digits[n];
                }
                self.len += 1;
            }
        }
    }

    /// The text written so far.
    pub(crate) const fn as_str(&self) -> &str {
        let live = match self.buf.split_at_checked(self.len) {
            Some((live, _)) => live,
            None => &self.buf,
        };
        match core::str::from_utf8(live) {
            Ok(s) => s,
            // Only whole `&str`s and ASCII digits are written, and the capacity is never
            // reached, so the bytes are UTF-8.
            Err(_) => "",
        }
    }
}

/// Evaluates a `Result<_, LayoutError>` expression at compile time and unwraps it; an `Err`
/// fails the build with the error's message. Never panics at run time: the expression is
/// evaluated in an inline `const` block.
///
/// # Examples
///
/// ```
/// use strided_layout::{const_layout, Layout, Order};
/// let hwc = const_layout!(Layout::dense([480, 640, 3], 1, Order::C));
/// assert_eq!(hwc.strides(), [1920, 3, 1]);
/// ```
#[macro_export]
macro_rules! const_layout {
    ($e:expr) => {
        const { $crate::const_unwrap($e) }
    };
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AxisMask;
    use std::string::ToString;

    /// One value of every variant, payloads at their edges.
    fn every_error() -> [LayoutError; 30] {
        [
            LayoutError::ItemsizeNotPowerOfTwo { itemsize: 0 },
            LayoutError::ItemsizeNotPowerOfTwo {
                itemsize: usize::MAX,
            },
            LayoutError::VolumeOverflow,
            LayoutError::OffsetOverflow,
            LayoutError::AxisOutOfRange { axis: 5, ndim: 2 },
            LayoutError::AxisOutOfRange {
                axis: usize::MAX,
                ndim: 64,
            },
            LayoutError::NotAPermutation,
            LayoutError::IndexOutOfRange { axis: 10 },
            LayoutError::RangeOutOfBounds { axis: 0 },
            LayoutError::ZeroStep { axis: 3 },
            LayoutError::KeepOrderWithoutSource,
            LayoutError::StrideNotMultipleOfItemsize { axis: 1 },
            LayoutError::ExtentZero { axis: 2 },
            LayoutError::StrideNotOne { axis: 2 },
            LayoutError::ExtentNotDivisible { axis: 9 },
            LayoutError::StrideNotDivisible { axis: 19 },
            LayoutError::OffsetNotDivisible,
            LayoutError::PointerMisaligned,
            LayoutError::NegativeOffset,
            LayoutError::MaskOutOfRange,
            LayoutError::RankMismatch {
                expected: 3,
                found: 70,
            },
            LayoutError::RankOverflow { max: 4 },
            LayoutError::VolumeMismatch,
            LayoutError::ExtentInvalid { axis: 1 },
            LayoutError::NeedsCopy {
                axes: AxisMask::from_bits(0b101),
            },
            LayoutError::NeedsCopy {
                axes: AxisMask::from_bits(u64::MAX),
            },
            LayoutError::NeedsCopy {
                axes: AxisMask::EMPTY,
            },
            LayoutError::BroadcastIncompatible { axis: 100 },
            LayoutError::DuplicateAxis { axis: 7 },
            LayoutError::CapacityExceeded,
        ]
    }

    #[test]
    fn message_matches_display_for_every_variant() {
        for e in every_error() {
            assert_eq!(Message::of(&e).as_str(), e.to_string(), "{e:?}");
        }
    }

    #[test]
    fn message_names_the_axis() {
        let e = LayoutError::AxisOutOfRange { axis: 5, ndim: 2 };
        assert_eq!(
            Message::of(&e).as_str(),
            "axis index is not less than the rank (axis 5, rank 2)"
        );
    }

    #[test]
    fn const_unwrap_panics_at_run_time_with_the_payload() {
        let r: Result<u8, LayoutError> = Err(LayoutError::IndexOutOfRange { axis: 12 });
        let caught = std::panic::catch_unwind(|| const_unwrap(r)).unwrap_err();
        let msg = caught
            .downcast_ref::<std::string::String>()
            .map(std::string::String::as_str)
            .or_else(|| caught.downcast_ref::<&str>().copied())
            .unwrap();
        assert_eq!(
            msg,
            "index is not less than the extent of its axis (axis 12)"
        );
    }
}
