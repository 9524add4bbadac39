//! [`NestedError`]: why a nested layout could not be read, built or queried.

use core::fmt;

use crate::LayoutError;
use crate::const_util::Message;

/// Why a [`NestedLayout`](super::NestedLayout) could not be read, built, converted or queried.
///
/// Its own causes (the notation, the capacity, the nesting, partial blocks) and, in
/// [`Layout`](Self::Layout), the rules it shares with [`Layout`](crate::Layout) (itemsize,
/// overflow, negative offsets), kept whole.
///
/// # Examples
///
/// ```
/// use strided_layout::nested::{NestedError, NestedLayout};
/// let err = NestedLayout::<4>::parse("(4,3)|13:(1,4)").unwrap_err();
/// assert_eq!(err, NestedError::PartialBlock { mode: 0 });
/// assert_eq!(
///     err.to_string(),
///     "a cut mode's extent leaves more than its last block partial, or exceeds its sub-modes (mode 0)"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum NestedError {
    /// The text (CuTe's layout notation, or a oneDNN format tag) breaks its notation at byte
    /// `at`, where `expected` was expected.
    Syntax {
        /// Byte position in the text.
        at: usize,
        /// What the notation allows there.
        expected: &'static str,
    },
    /// The stride nests differently from the shape (CuTe: the two are not congruent).
    NotCongruent,
    /// More leaves than the capacity `L`.
    TooManyLeaves {
        /// The capacity.
        max: usize,
    },
    /// More tuples than the capacity `L`.
    TooManyModes {
        /// The capacity.
        max: usize,
    },
    /// Tuples nest deeper than `max`.
    TooDeep {
        /// The deepest nesting allowed.
        max: usize,
    },
    /// A cut tuple's extent is not within `P·(n - 1) < extent <= P·n` (`P` coordinates in
    /// its other sub-modes, `n` in its last): more than the last block would be partial, or
    /// the extent exceeds the sub-modes.
    PartialBlock {
        /// The tuple, counted in the order tuples open in the text (0 the outermost first).
        mode: usize,
    },
    /// A multi-index has a different length from the rank.
    RankMismatch {
        /// The rank.
        expected: usize,
        /// The index's length.
        found: usize,
    },
    /// A coordinate is not below its mode's size.
    IndexOutOfRange {
        /// The top-level mode (0 for a 1-D coordinate).
        mode: usize,
    },
    /// A mode is a tuple, or cut, where the target holds only leaves (a flat
    /// [`Layout`](crate::Layout)).
    NotFlat {
        /// The top-level mode.
        mode: usize,
    },
    /// A transform needs a mode without a partial block (a flip would put the partial block
    /// first; flattening would claim every combination of its leaves' coordinates; narrowing
    /// to whole blocks needs its blocks alike, a partial one only last), or a layout that is
    /// not cut itself (its coordinates are the first of its modes' in their order: permuting,
    /// selecting, flipping or narrowing a mode would make them others).
    CutMode {
        /// The top-level mode.
        mode: usize,
    },
    /// A rule shared with [`Layout`](crate::Layout).
    Layout(LayoutError),
}

impl NestedError {
    /// The rule this error names, as a short lower-case message (`const`, as
    /// [`LayoutError::as_str`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedError;
    /// assert_eq!(NestedError::NotCongruent.as_str(), "the stride nests differently from the shape");
    /// ```
    #[must_use]
    pub const fn as_str(&self) -> &'static str {
        match self {
            Self::Syntax { .. } => "the text breaks its notation, CuTe's layout or a oneDNN tag",
            Self::NotCongruent => "the stride nests differently from the shape",
            Self::TooManyLeaves { .. } => "more leaves than the layout's capacity",
            Self::TooManyModes { .. } => "more tuples than the layout's capacity",
            Self::TooDeep { .. } => "tuples nest too deeply",
            Self::PartialBlock { .. } => {
                "a cut mode's extent leaves more than its last block partial, or exceeds its sub-modes"
            }
            Self::RankMismatch { .. } => "the index has a different length from the rank",
            Self::IndexOutOfRange { .. } => "a coordinate is not below its mode's size",
            Self::NotFlat { .. } => "a mode is nested or cut where only leaves fit",
            Self::CutMode { .. } => "the transform needs a mode without a partial block",
            Self::Layout(e) => e.as_str(),
        }
    }

    /// The rule and its payload, as [`Display`](fmt::Display) writes it, built by a `const fn`.
    pub(crate) const fn message(&self) -> Message {
        if let Self::Layout(e) = self {
            return Message::of(e);
        }
        let mut m = Message::new();
        m.push(self.as_str());
        match *self {
            Self::Syntax { at, expected } => {
                m.push(" (at byte ");
                m.push_usize(at);
                m.push(": expected ");
                m.push(expected);
                m.push(")");
            }
            Self::TooManyLeaves { max } | Self::TooManyModes { max } | Self::TooDeep { max } => {
                m.push(" (max ");
                m.push_usize(max);
                m.push(")");
            }
            Self::PartialBlock { mode }
            | Self::IndexOutOfRange { mode }
            | Self::NotFlat { mode }
            | Self::CutMode { mode } => {
                m.push(" (mode ");
                m.push_usize(mode);
                m.push(")");
            }
            Self::RankMismatch { expected, found } => {
                m.push(" (expected ");
                m.push_usize(expected);
                m.push(", found ");
                m.push_usize(found);
                m.push(")");
            }
            Self::NotCongruent | Self::Layout(_) => {}
        }
        m
    }
}

impl fmt::Display for NestedError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message().as_str())
    }
}

impl core::error::Error for NestedError {}

impl From<LayoutError> for NestedError {
    fn from(e: LayoutError) -> Self {
        Self::Layout(e)
    }
}

/// The value of `result`, or a compile error with the rule and its payload in a `const` item
/// (at run time, a panic), as [`const_unwrap`](crate::const_unwrap) for [`NestedError`].
///
/// # Panics
///
/// If `result` is an `Err`: in a `const` item the build fails with the error's text.
///
/// # Examples
///
/// ```
/// use strided_layout::nested::{const_unwrap, NestedLayout};
/// const A: NestedLayout<3> = const_unwrap(NestedLayout::parse("((4,3),4):((1,4),12)"));
/// assert_eq!(A.size(), 48);
/// ```
///
/// ```compile_fail
/// use strided_layout::nested::{const_unwrap, NestedLayout};
/// // error: the text breaks its notation, CuTe's layout or a oneDNN tag (at byte 4: expected ',' or ')')
/// const A: NestedLayout<3> = const_unwrap(NestedLayout::parse("(4,3]:(1,4)"));
/// ```
#[must_use]
#[track_caller]
pub const fn const_unwrap<T: Copy>(result: Result<T, NestedError>) -> T {
    match result {
        Ok(v) => v,
        Err(e) => {
            let msg = e.message();
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
