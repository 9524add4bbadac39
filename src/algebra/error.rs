//! [`AlgebraError`]: why an operation of the layout algebra has no answer.

use core::fmt;

use crate::const_util::Message;
use crate::nested::NestedError;

/// Why an operation of the layout [`algebra`](super) has no answer: CuTe's preconditions
/// (its divisibility conditions, an injective layout for a complement), what this crate adds
/// (whole blocks, operands that are coordinate maps), and, in [`Nested`](Self::Nested), the
/// result's own rules (the capacity `L`, offsets that fit `isize`).
///
/// # Examples
///
/// ```
/// use strided_layout::algebra::{self, AlgebraError};
/// use strided_layout::nested::NestedLayout;
/// // Columns 5 apart: the two modes stay apart.
/// let a: NestedLayout<4> = "(4,6):(1,5)".parse()?;
/// // Stride 6 is neither a multiple of a's first mode (4) nor below it.
/// let err = algebra::composition(&a, &"2:6".parse()?).unwrap_err();
/// assert_eq!(err, AlgebraError::StrideDivisibility { leaf: 0 });
/// // 6 coordinates do not split into a's first mode's 4 and a whole rest.
/// let err = algebra::composition(&a, &"6:1".parse()?).unwrap_err();
/// assert_eq!(err, AlgebraError::ShapeDivisibility { leaf: 0 });
/// assert_eq!(err.to_string(), "an extent of the right operand does not split evenly over the left operand's modes (leaf 0 of the right operand)");
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum AlgebraError {
    /// Composition: a stride of the right operand's leaf `leaf`, after the left operand's
    /// earlier modes, is neither a multiple of the next mode's size nor below it (CuTe's
    /// stride divisibility condition).
    StrideDivisibility {
        /// The right operand's leaf, in the order leaves are written.
        leaf: usize,
    },
    /// Composition: the right operand's leaf `leaf` does not split evenly over the left
    /// operand's modes (CuTe's shape divisibility condition).
    ShapeDivisibility {
        /// The right operand's leaf, in the order leaves are written.
        leaf: usize,
    },
    /// Complement: two coordinates of the layout share an offset (a stride falls below the
    /// span of the modes under it), so nothing can complete it.
    NotInjective,
    /// Left inverse: a stride is not a multiple of the sizes of the modes whose strides are
    /// smaller (CuTe's left inverse divisibility condition).
    LeftInverseDivisibility,
    /// A stride is negative where the operation needs non-negative ones (a complement, or
    /// the block of a product, which takes one).
    NegativeStride,
    /// A leaf has extent 0: the algebra divides by extents.
    ZeroExtent,
    /// An operand has a partial last block where the operation needs whole blocks (everywhere
    /// but [`coalesce`](super::coalesce), [`coalesce_modes`](super::coalesce_modes) and
    /// [`composition`](super::composition), which say which cuts they take), or a
    /// composition's right operand reaches past the left's partial last block.
    PartialBlock,
    /// A layout used as a map of coordinates (the right operand of a composition, a tiler)
    /// has an offset: it would shift the coordinates, which no layout of the result can
    /// express.
    CoordinateOffset,
    /// A rank-sensitive product pairs modes of different ranks (CuTe refuses to zip them).
    RankMismatch,
    /// No coordinate of the thread layout maps to the thread (it is past the threads, or the
    /// thread layout skips it).
    ThreadOutOfRange {
        /// The thread.
        thread: usize,
        /// The thread layout's size.
        threads: usize,
    },
    /// A tiler (one layout per mode, CuTe's `Tile<..>`) has more layouts than the layout it
    /// applies to has modes.
    TilerRank {
        /// The tiler's layouts.
        modes: usize,
        /// The layout's rank.
        rank: usize,
    },
    /// A swizzle's parameters: its two masks overlap (`|shift| < bits`, CuTe's rule), it
    /// reaches past bit 62, or a TMA swizzle's element size is not a power of two up to 16.
    Swizzle,
    /// A swizzled layout has a negative offset (a swizzle works on the bits of an offset into
    /// a buffer).
    NegativeOffset,
    /// A warp's access pattern has more than 32 lanes, or a lane's coordinate is negative.
    Lanes,
    /// The result breaks a rule of [`NestedLayout`](crate::nested::NestedLayout): more
    /// leaves or tuples than its capacity `L`, or an offset or size past `isize`.
    Nested(NestedError),
}

impl AlgebraError {
    /// The rule this error names, as a short lower-case message (`const`).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::algebra::AlgebraError;
    /// assert_eq!(AlgebraError::NotInjective.as_str(), "two coordinates of the layout share an offset");
    /// ```
    #[must_use]
    pub const fn as_str(&self) -> &'static str {
        match self {
            Self::StrideDivisibility { .. } => {
                "a stride of the right operand is neither a multiple of the left operand's mode nor below it"
            }
            Self::ShapeDivisibility { .. } => {
                "an extent of the right operand does not split evenly over the left operand's modes"
            }
            Self::NotInjective => "two coordinates of the layout share an offset",
            Self::LeftInverseDivisibility => {
                "a stride is not a multiple of the sizes of the modes with smaller strides"
            }
            Self::NegativeStride => "the operation needs non-negative strides",
            Self::ZeroExtent => "a leaf has extent 0",
            Self::PartialBlock => {
                "an operand has a partial last block where the operation needs whole blocks"
            }
            Self::CoordinateOffset => "a layout used as a coordinate map has an offset",
            Self::RankMismatch => "the product pairs modes of different ranks",
            Self::TilerRank { .. } => {
                "the tiler has more layouts than the layout has modes, or the tile index not one coordinate per layout"
            }
            Self::ThreadOutOfRange { .. } => {
                "no coordinate of the thread layout maps to the thread"
            }
            Self::Swizzle => {
                "a swizzle's masks overlap or pass bit 62, or its element size is not 1, 2, 4, 8 or 16"
            }
            Self::NegativeOffset => "a swizzled layout needs non-negative offsets",
            Self::Lanes => "a warp has at most 32 lanes, each at a non-negative coordinate",
            Self::Nested(e) => e.as_str(),
        }
    }

    /// The rule and its payload, as [`Display`](fmt::Display) writes it, built by a `const fn`.
    pub(crate) const fn message(&self) -> Message {
        if let Self::Nested(e) = self {
            return e.message();
        }
        let mut m = Message::new();
        m.push(self.as_str());
        if let Self::StrideDivisibility { leaf } | Self::ShapeDivisibility { leaf } = *self {
            m.push(" (leaf ");
            m.push_usize(leaf);
            m.push(" of the right operand)");
        }
        if let Self::ThreadOutOfRange { thread, threads } = *self {
            m.push(" (thread ");
            m.push_usize(thread);
            m.push(" of a layout of ");
            m.push_usize(threads);
            m.push(")");
        }
        if let Self::TilerRank { modes, rank } = *self {
            m.push(" (");
            m.push_usize(modes);
            m.push(" layouts, rank ");
            m.push_usize(rank);
            m.push(")");
        }
        m
    }
}

impl fmt::Display for AlgebraError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message().as_str())
    }
}

impl core::error::Error for AlgebraError {}

impl From<NestedError> for AlgebraError {
    fn from(e: NestedError) -> Self {
        Self::Nested(e)
    }
}

/// The value of `result`, or a compile error with the rule and its payload in a `const` item
/// (at run time, a panic), as [`const_unwrap`](crate::const_unwrap) for [`AlgebraError`].
///
/// # Panics
///
/// If `result` is an `Err`: in a `const` item the build fails with the error's text.
///
/// # Examples
///
/// ```
/// use strided_layout::algebra::{self, const_unwrap};
/// use strided_layout::nested::{self, NestedLayout};
/// const A: NestedLayout<4> = nested::const_unwrap(NestedLayout::parse("(4,8):(8,1)"));
/// const B: NestedLayout<4> = nested::const_unwrap(NestedLayout::parse("4:1"));
/// const D: NestedLayout<4> = const_unwrap(algebra::logical_divide(&A, &B));
/// assert_eq!(D.to_string(), "(4,8):(8,1)");
/// ```
///
/// ```compile_fail
/// use strided_layout::algebra::{self, const_unwrap};
/// use strided_layout::nested::{self, NestedLayout};
/// // error: two coordinates of the layout share an offset
/// const A: NestedLayout<4> = nested::const_unwrap(NestedLayout::parse("(2,4):(2,1)"));
/// const C: NestedLayout<4> = const_unwrap(algebra::complement(&A, 16));
/// ```
#[must_use]
#[track_caller]
pub const fn const_unwrap<T: Copy>(result: Result<T, AlgebraError>) -> T {
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
