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

use crate::{AxisMask, LayoutError};

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
    /// ("63, " is 4 bytes) or two 20-digit numbers and an operand's name.
    const CAP: usize = 360;

    /// An empty text.
    pub(crate) const fn new() -> Self {
        Self {
            buf: [0; Self::CAP],
            len: 0,
        }
    }

    /// The text of `e`: the rule, then its payload in parentheses. [`LayoutError`]'s
    /// `Display` writes this text, and [`const_unwrap`] panics with it.
    #[expect(
        clippy::too_many_lines,
        reason = "one arm per kind of payload, each a few pushes: splitting it would scatter the format"
    )]
    pub(crate) const fn of(e: &LayoutError) -> Self {
        let mut m = Self::new();
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
            | LayoutError::DuplicateAxis { axis }
            | LayoutError::BlockMisaligned { axis }
            | LayoutError::InterleavedAxis { axis }
            | LayoutError::NotABlock { axis }
            | LayoutError::ShapeMismatch { axis } => {
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
            LayoutError::SignedAxisOutOfRange { axis, ndim } => {
                m.push(" (axis ");
                if axis < 0 {
                    m.push("-");
                }
                m.push_usize(axis.unsigned_abs());
                m.push(", rank ");
                m.push_usize(ndim);
                m.push(")");
            }
            LayoutError::AxisRangeInvalid { start, end } => {
                m.push(" (range ");
                m.push_usize(start);
                m.push("..");
                m.push_usize(end);
                m.push(")");
            }
            LayoutError::ItemsizeMismatch {
                operand,
                itemsize,
                element_size,
            } => {
                m.push(" (");
                m.push(operand.as_str());
                m.push(": itemsize ");
                m.push_usize(itemsize);
                m.push(", element size ");
                m.push_usize(element_size);
                m.push(")");
            }
            LayoutError::OffsetOutsideSlice { needed, given, .. } => {
                m.push(" (needs ");
                m.push_usize(needed);
                m.push(" elements, given ");
                m.push_usize(given);
                m.push(")");
            }
            LayoutError::OffsetBelowSlice { lowest, .. } => {
                m.push(" (lowest offset ");
                if lowest < 0 {
                    m.push("-");
                }
                m.push_usize(lowest.unsigned_abs());
                m.push(")");
            }
            LayoutError::NeedsCopy { axes } | LayoutError::AxesNotMergeable { axes }
                if axes.count() > 0 =>
            {
                m.push(" (axes ");
                m.push_axes(axes);
                m.push(")");
            }
            _ => {}
        }
        m
    }

    /// Appends the axes of `axes` as a list ("0, 2"), not a bit mask.
    #[expect(
        clippy::arithmetic_side_effects,
        reason = "`axis < 64` before each increment."
    )]
    const fn push_axes(&mut self, mask: AxisMask) {
        let mut first = true;
        let mut axis = 0;
        while axis < 64 {
            if mask.contains(axis) {
                if !first {
                    self.push(", ");
                }
                self.push_usize(axis);
                first = false;
            }
            axis += 1;
        }
    }

    /// Appends `s`, truncating at the capacity (never reached: see [`Message::CAP`]).
    #[expect(
        clippy::arithmetic_side_effects,
        reason = "`i < bytes.len()` and `self.len < CAP` before each increment."
    )]
    pub(crate) const fn push(&mut self, s: &str) {
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
    pub(crate) const fn push_usize(&mut self, v: usize) {
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

/// Chains fallible transforms in a `const` context, as `?` does at run time (which `const`
/// code cannot use): `start => step(args) => step(args) ...` calls each step on the value the
/// previous one returned, and the first `Err` is the chain's result.
///
/// `start` is an expression giving a `Result<_, LayoutError>`; each step is a method of the
/// value so far returning a `Result` (the transforms of [`Layout`](crate::Layout),
/// [`InterleavedLayout`](crate::InterleavedLayout) and [`DynLayout`](crate::DynLayout) are
/// `const fn`s). Wrap the chain in [`const_unwrap`] to get the value, or a build error naming
/// the rule and the axis.
///
/// ```text
/// const_chain!(a => f(x) => g(y))   is   match a { Ok(v) => match v.f(x) { Ok(w) => w.g(y),
///                                                                     Err(e) => Err(e) },
///                                              Err(e) => Err(e) }
/// ```
///
/// # Errors
///
/// The chain evaluates to the first `Err` of its start or any step (the steps after it do not
/// run).
///
/// # Examples
///
/// ```
/// use strided_layout::{const_chain, const_unwrap, Layout, LayoutError, Order};
/// // A CHW image seen as HWC and mirrored left to right, at compile time.
/// const HWC: Layout<3> = const_unwrap(const_chain!(
///     Layout::dense([3, 480, 640], 4, Order::C) => permuted([1, 2, 0]) => flipped(1)
/// ));
/// assert_eq!((HWC.shape(), HWC.strides()), ([480, 640, 3], [640, -1, 307_200]));
/// // The first error stops the chain.
/// const BAD: Result<Layout<3>, LayoutError> = const_chain!(
///     Layout::dense([3, 480, 640], 4, Order::C) => flipped(3) => permuted([1, 2, 0])
/// );
/// assert_eq!(BAD, Err(LayoutError::AxisOutOfRange { axis: 3, ndim: 3 }));
/// ```
#[macro_export]
macro_rules! const_chain {
    ($start:expr $(=> $step:ident ( $($arg:expr),* $(,)? ))* $(,)?) => {
        $crate::const_chain!(@from ($start) $(=> $step ($($arg),*))*)
    };
    (@from ($acc:expr)) => {
        $acc
    };
    (@from ($acc:expr) => $step:ident ($($arg:expr),*) $(=> $rest:ident ($($rarg:expr),*))*) => {
        $crate::const_chain!(
            @from (match $acc {
                ::core::result::Result::Ok(value) => value.$step($($arg),*),
                ::core::result::Result::Err(error) => ::core::result::Result::Err(error),
            })
            $(=> $rest ($($rarg),*))*
        )
    };
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

    use std::format;
    use std::string::String;
    use std::vec;
    use std::vec::Vec;

    /// One value of every variant (several for some), payloads at their edges.
    #[expect(clippy::too_many_lines, reason = "one value per variant, one per line")]
    fn every_error() -> Vec<LayoutError> {
        use crate::Operand::{Destination, SecondSource, Source};
        use LayoutError as E;
        vec![
            E::ItemsizeNotPowerOfTwo { itemsize: 0 },
            E::ItemsizeNotPowerOfTwo {
                itemsize: usize::MAX,
            },
            E::VolumeOverflow,
            E::OffsetOverflow,
            E::AxisOutOfRange { axis: 5, ndim: 2 },
            E::AxisOutOfRange {
                axis: usize::MAX,
                ndim: 64,
            },
            E::NotAPermutation,
            E::IndexOutOfRange { axis: 10 },
            E::RangeOutOfBounds { axis: 0 },
            E::ZeroStep { axis: 3 },
            E::KeepOrderWithoutSource,
            E::StrideNotMultipleOfItemsize { axis: 1 },
            E::ExtentZero { axis: 2 },
            E::StrideNotOne { axis: 2 },
            E::ExtentNotDivisible { axis: 9 },
            E::StrideNotDivisible { axis: 19 },
            E::OffsetNotDivisible,
            E::PointerMisaligned,
            E::NegativeOffset,
            E::MaskOutOfRange,
            E::RankMismatch {
                expected: 3,
                found: 70,
            },
            E::RankOverflow { max: 4 },
            E::VolumeMismatch,
            E::ExtentInvalid { axis: 1 },
            E::NeedsCopy {
                axes: AxisMask::from_bits(0b101),
            },
            E::NeedsCopy {
                axes: AxisMask::from_bits(u64::MAX),
            },
            E::NeedsCopy {
                axes: AxisMask::EMPTY,
            },
            E::BroadcastIncompatible { axis: 100 },
            E::DuplicateAxis { axis: 7 },
            E::CapacityExceeded,
            E::SignedAxisOutOfRange { axis: -4, ndim: 3 },
            E::SignedAxisOutOfRange {
                axis: isize::MIN,
                ndim: 0,
            },
            E::SignedAxisOutOfRange {
                axis: isize::MAX,
                ndim: 2,
            },
            E::AxesNotMergeable {
                axes: AxisMask::from_bits(0b110),
            },
            E::AxesNotMergeable {
                axes: AxisMask::EMPTY,
            },
            E::AxisRangeInvalid { start: 3, end: 1 },
            E::FactorZero,
            E::BlockMisaligned { axis: 1 },
            E::InterleavedAxis { axis: 2 },
            E::NotABlock { axis: 3 },
            E::IndexTypeOverflow,
            E::ShapeMismatch { axis: 11 },
            E::InterleaveConflict,
            E::OffsetOutsideSlice {
                operand: Destination,
                needed: 6,
                given: 5,
            },
            E::OffsetOutsideSlice {
                operand: Source,
                needed: usize::MAX,
                given: 0,
            },
            E::OffsetOutsideSlice {
                operand: SecondSource,
                needed: 1,
                given: 0,
            },
            E::OffsetBelowSlice {
                operand: Source,
                lowest: -3,
            },
            E::OffsetBelowSlice {
                operand: Destination,
                lowest: isize::MIN,
            },
            E::ItemsizeMismatch {
                operand: Source,
                itemsize: 8,
                element_size: 4,
            },
            E::ItemsizeMismatch {
                operand: SecondSource,
                itemsize: usize::MAX,
                element_size: 0,
            },
            E::DestinationNotUnique,
            E::DestinationHasGaps,
            E::OperandsOverlap,
            E::UniquenessUndecided,
        ]
    }

    /// The payload each variant's text must end with, written here with `format!`, apart from
    /// `Message`: one arm per variant and no wildcard, so a new variant does not compile until
    /// its text is decided here (and added to `every_error`).
    fn payload(e: &LayoutError) -> String {
        use LayoutError as E;
        let axes = |m: AxisMask| {
            let list: Vec<String> = (0..64)
                .filter(|&a| m.contains(a))
                .map(|a| format!("{a}"))
                .collect();
            if list.is_empty() {
                String::new()
            } else {
                format!(" (axes {})", list.join(", "))
            }
        };
        match *e {
            E::ItemsizeNotPowerOfTwo { itemsize } => format!(" (itemsize {itemsize})"),
            E::AxisOutOfRange { axis, ndim } => format!(" (axis {axis}, rank {ndim})"),
            E::SignedAxisOutOfRange { axis, ndim } => format!(" (axis {axis}, rank {ndim})"),
            E::IndexOutOfRange { axis }
            | E::RangeOutOfBounds { axis }
            | E::ZeroStep { axis }
            | E::StrideNotMultipleOfItemsize { axis }
            | E::ExtentZero { axis }
            | E::StrideNotOne { axis }
            | E::ExtentNotDivisible { axis }
            | E::StrideNotDivisible { axis }
            | E::ExtentInvalid { axis }
            | E::BroadcastIncompatible { axis }
            | E::DuplicateAxis { axis }
            | E::BlockMisaligned { axis }
            | E::InterleavedAxis { axis }
            | E::NotABlock { axis }
            | E::ShapeMismatch { axis } => format!(" (axis {axis})"),
            E::RankMismatch { expected, found } => {
                format!(" (expected {expected}, found {found})")
            }
            E::RankOverflow { max } => format!(" (max {max})"),
            E::NeedsCopy { axes: m } | E::AxesNotMergeable { axes: m } => axes(m),
            E::AxisRangeInvalid { start, end } => format!(" (range {start}..{end})"),
            E::OffsetOutsideSlice { needed, given, .. } => {
                format!(" (needs {needed} elements, given {given})")
            }
            E::OffsetBelowSlice { lowest, .. } => format!(" (lowest offset {lowest})"),
            E::ItemsizeMismatch {
                operand,
                itemsize,
                element_size,
            } => format!(
                " ({}: itemsize {itemsize}, element size {element_size})",
                operand.as_str()
            ),
            // The rule alone (an operand is named by the rule's own words).
            E::VolumeOverflow
            | E::OffsetOverflow
            | E::NotAPermutation
            | E::KeepOrderWithoutSource
            | E::OffsetNotDivisible
            | E::PointerMisaligned
            | E::NegativeOffset
            | E::MaskOutOfRange
            | E::VolumeMismatch
            | E::CapacityExceeded
            | E::FactorZero
            | E::IndexTypeOverflow
            | E::InterleaveConflict
            | E::DestinationNotUnique
            | E::DestinationHasGaps
            | E::OperandsOverlap
            | E::UniquenessUndecided => String::new(),
        }
    }

    /// `const_unwrap`'s panic text of `e`, caught.
    fn const_unwrap_text(e: LayoutError) -> String {
        let r: Result<u8, LayoutError> = Err(e);
        let caught = std::panic::catch_unwind(|| const_unwrap(r)).unwrap_err();
        caught
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| caught.downcast_ref::<&str>().map(|s| String::from(*s)))
            .unwrap()
    }

    #[test]
    fn const_unwrap_and_display_give_the_rule_and_its_payload_for_every_variant() {
        let all = every_error();
        let kinds: std::collections::BTreeSet<String> = all
            .iter()
            .map(|e| {
                let debug = format!("{e:?}");
                String::from(debug.split([' ', '{']).next().unwrap_or(""))
            })
            .collect();
        assert_eq!(
            kinds.len(),
            43,
            "every variant of LayoutError, at least once"
        );
        for e in all {
            let want = format!("{}{}", e.as_str(), payload(&e));
            assert_eq!(e.to_string(), want, "Display of {e:?}");
            assert_eq!(const_unwrap_text(e), want, "const_unwrap of {e:?}");
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
}
