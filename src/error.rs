//! [`LayoutError`]: why a layout could not be built, transformed or copied.
//!
//! Nothing in this crate panics; every fallible function returns a `Result` whose error names
//! the violated rule, with a small payload saying *where* (an axis, an operand, the lengths
//! involved) when that helps. [`LayoutError::as_str`] is a `const fn`, so a layout built in a
//! `const` item fails the build with the rule's message.
//!
//! # One error per domain
//!
//! | who calls | error |
//! | --- | --- |
//! | layouts, their transforms and queries, the kernels and prepared plans, [`KernelLayout`](crate::gpu::KernelLayout) | [`LayoutError`] (the kernels' own causes name their [`Operand`]) |
//! | [`TmaTiled::new`](crate::gpu::TmaTiled::new) | [`TmaError`](crate::gpu::TmaError): the `cuTensorMapEncodeTiled` rule broken |
//! | the nested layouts ([`nested`](crate::nested)) | [`NestedError`](crate::nested::NestedError): the notation's, CuTe's and the cut's rules, or the [`LayoutError`] a leaf breaks |
//! | the DMA lowerings ([`dma`](crate::dma)) | [`DmaError`](crate::dma::DmaError): the engine rule that stops a chain (the bus, the chain's room and placement) |
//! | the DLPack conversions (feature `dlpack`) | [`DlpackError`](crate::dlpack::DlpackError): DLPack's causes, or the [`LayoutError`] the tensor's layout would break |
//!
//! Why not one enum for the whole crate: a firmware caller of [`copy`](crate::copy) would match,
//! or wildcard past, causes that only a TMA descriptor or a foreign tensor can have. Why not
//! an `ErrorKind` as embedded-hal's, a short list of categories over opaque driver errors:
//! those serve code generic over many drivers, which want to know "retry or give up"; here a
//! caller wants the rule itself and where it broke (which axis, which operand, how long the
//! slice had to be), because what fixes it is a different layout, and a category would hide
//! exactly that. Layouts and kernels share [`LayoutError`] because a kernel's failure is very
//! often a layout's (a shape, an offset, an overflow the transform or the plan found), and the
//! kernels build layouts internally; the domains whose causes nobody else meets have their own
//! types, each converting nothing away: [`DlpackError::Layout`](crate::dlpack::DlpackError::Layout)
//! keeps the layout's rule whole.
//!
//! | operation | variants it can return, in the order the checks run |
//! | --- | --- |
//! | [`Layout::new`](crate::Layout::new), [`from_byte_strides`](crate::Layout::from_byte_strides) | `ItemsizeNotPowerOfTwo`, `StrideNotMultipleOfItemsize` (byte strides only), `VolumeOverflow`, `OffsetOverflow` |
//! | [`Layout::dense`](crate::Layout::dense) | `ItemsizeNotPowerOfTwo`, `KeepOrderWithoutSource`, `NotAPermutation`, `VolumeOverflow`, `OffsetOverflow` |
//! | axis-taking transforms | `AxisOutOfRange` first, then the transform's own rule, then `OffsetOverflow` |
//! | [`offset_of`](crate::Layout::offset_of) | `IndexOutOfRange` |
//! | [`repacked`](crate::Layout::repacked) | in cuda.core's order: `ItemsizeNotPowerOfTwo`, `SignedAxisOutOfRange`, `ExtentZero`, `StrideNotOne`, then (packing only) `ExtentNotDivisible`, `StrideNotDivisible`, `OffsetNotDivisible`, `PointerMisaligned` |
//! | rank changes | `AxisOutOfRange`, `AxisRangeInvalid`, `RankMismatch`, `RankOverflow`, `VolumeMismatch`, `NeedsCopy`, `AxesNotMergeable`, `BroadcastIncompatible` |
//! | [`repacked`](crate::Layout::repacked) axis argument, any signed axis | `SignedAxisOutOfRange` (the axis as given, negatives counting from the end) |
//! | [`InterleaveLayout::new`](crate::InterleaveLayout::new), [`InterleavedLayout`](crate::InterleavedLayout) | `FactorZero`; then as `Layout` (`AxisOutOfRange` for the interleaved axis first); `ExtentNotDivisible` (`to_strided`), `NotABlock` (`from_strided`), `BlockMisaligned`, `InterleavedAxis` (transforms) |
//! | [`KernelLayout::from_layout`](crate::gpu::KernelLayout::from_layout) | `IndexTypeOverflow` |
//! | [`is_unique_within`](crate::Layout::is_unique_within), [`overlaps_within`](crate::Layout::overlaps_within) | none: a spent budget is [`Verdict::Unknown`](crate::Verdict::Unknown), not an error |
//!
//! The transforms re-check the invariants of [`Layout`](crate::Layout) on their result, so
//! `VolumeOverflow` and `OffsetOverflow` can come from any function that builds a layout.

use core::fmt;

use crate::AxisMask;
use crate::const_util::Message;

/// Why a layout could not be built, queried or transformed.
///
/// `Copy`, 24 bytes on 64-bit targets, and `#[non_exhaustive]`: later releases may add causes.
/// The payloads say which axis or value broke the rule.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError};
/// let err = Layout::new([2, 3], [3, 1], 3).unwrap_err();
/// assert_eq!(err, LayoutError::ItemsizeNotPowerOfTwo { itemsize: 3 });
/// assert_eq!(err.as_str(), "itemsize is not a power of two");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum LayoutError {
    /// The itemsize is zero or not a power of two.
    ItemsizeNotPowerOfTwo {
        /// The rejected itemsize, in bytes.
        itemsize: usize,
    },
    /// The product of the extents does not fit in `usize`.
    VolumeOverflow,
    /// An element offset or a stride does not fit in `isize`, in elements or in bytes.
    OffsetOverflow,
    /// An axis argument is not less than the rank it indexes.
    AxisOutOfRange {
        /// The rejected axis.
        axis: usize,
        /// The rank it was checked against.
        ndim: usize,
    },
    /// The axes given are not a permutation of `0..N` (an axis repeats or is out of range).
    NotAPermutation,
    /// An index is not less than the extent of its axis.
    IndexOutOfRange {
        /// The axis whose extent the index reached.
        axis: usize,
    },
    /// A range `start..start + len` does not fit inside the extent of its axis.
    RangeOutOfBounds {
        /// The axis that was narrowed.
        axis: usize,
    },
    /// A slice step is zero.
    ZeroStep {
        /// The axis whose slice has step 0.
        axis: usize,
    },
    /// `Order::Keep` was used where there is no source layout to keep the order of.
    KeepOrderWithoutSource,
    /// A byte stride is not a multiple of the itemsize.
    StrideNotMultipleOfItemsize {
        /// The axis whose byte stride is not a multiple.
        axis: usize,
    },
    /// The extent at the repack axis is zero.
    ExtentZero {
        /// The repack axis.
        axis: usize,
    },
    /// The stride at the repack axis is not 1.
    StrideNotOne {
        /// The repack axis.
        axis: usize,
    },
    /// An extent is not divisible by the packing or split factor.
    ExtentNotDivisible {
        /// The axis whose extent is not divisible.
        axis: usize,
    },
    /// A stride is not divisible by the packing factor.
    StrideNotDivisible {
        /// The axis whose stride is not divisible.
        axis: usize,
    },
    /// The offset is not divisible by the packing factor.
    OffsetNotDivisible,
    /// The data pointer is not aligned to the new itemsize.
    PointerMisaligned,
    /// The offset range starts below zero, so no buffer starting at offset 0 holds it.
    NegativeOffset,
    /// An axis mask names an axis that is not less than the rank.
    MaskOutOfRange,
    /// A rank does not match the rank the caller asked for.
    RankMismatch {
        /// The rank asked for.
        expected: usize,
        /// The rank found.
        found: usize,
    },
    /// A result would have more axes than its bounded storage holds; from the kernels and
    /// plans, operands that need more loops than a nest holds
    /// ([`MAX_LOOPS`](crate::plan::MAX_LOOPS)) and whose loops past it, peeled into a nest
    /// per combination of their indices, make more pieces than a plan holds
    /// ([`MAX_NESTS`](crate::plan::MAX_NESTS), or the `M` of a plan made `with_nests`, such
    /// as [`CopyPlan::with_nests`](crate::CopyPlan::with_nests); a run-time kernel plans them
    /// a window at a time instead).
    RankOverflow {
        /// The storage bound.
        max: usize,
    },
    /// Two shapes that must hold the same number of elements do not.
    VolumeMismatch,
    /// A target extent is negative (only one `-1` may stand for an inferred extent).
    ExtentInvalid {
        /// The position of the rejected extent in the target shape.
        axis: usize,
    },
    /// The reshape cannot be expressed with strides over the same memory; a copy is needed.
    NeedsCopy {
        /// The source axes whose strides block the reshape.
        axes: AxisMask,
    },
    /// An extent can not be broadcast to the target extent (it is neither 1 nor equal).
    BroadcastIncompatible {
        /// The target axis where the extents disagree.
        axis: usize,
    },
    /// The same axis is named twice.
    DuplicateAxis {
        /// The repeated axis.
        axis: usize,
    },
    /// A fixed-capacity text buffer is too small for the rendering.
    CapacityExceeded,
    /// A signed axis argument is outside `-rank..rank` (negative axes count from the end).
    SignedAxisOutOfRange {
        /// The rejected axis, as given.
        axis: isize,
        /// The rank it was checked against.
        ndim: usize,
    },
    /// Consecutive axes asked to merge into one have strides that do not chain.
    AxesNotMergeable {
        /// The axes asked to merge.
        axes: AxisMask,
    },
    /// An axis range `start..end` does not satisfy `start <= end <= rank`.
    AxisRangeInvalid {
        /// The first axis of the range.
        start: usize,
        /// One past the last axis of the range.
        end: usize,
    },
    /// An interleave factor is zero (a block holds at least one element).
    FactorZero,
    /// A start on the interleaved axis is not a multiple of the interleave factor.
    BlockMisaligned {
        /// The interleaved axis.
        axis: usize,
    },
    /// The operation does not apply to the interleaved axis (it would split a block).
    InterleavedAxis {
        /// The interleaved axis.
        axis: usize,
    },
    /// The last axis of a strided layout is not a block (stride 1) to interleave.
    NotABlock {
        /// The last axis.
        axis: usize,
    },
    /// An extent, stride, offset, element offset or the volume does not fit the index type of
    /// a [`KernelLayout`](crate::gpu::KernelLayout).
    IndexTypeOverflow,
    /// The operands of a kernel have different shapes.
    ShapeMismatch {
        /// The first axis whose extents differ.
        axis: usize,
    },
    /// The operands of a kernel are blocked so differently that they cut the shape into more
    /// strided pieces than the kernel plans: more than [`MAX_NESTS`](crate::plan::MAX_NESTS)
    /// for one [`Plan`](crate::plan::Plan) (and so for a prepared plan and its parts), or
    /// than the `M` of a plan made `with_nests` (such as
    /// [`CopyPlan::with_nests`](crate::CopyPlan::with_nests), which holds as many as its
    /// `M`); more than [`MAX_PIECES`](crate::plan::MAX_PIECES) for any kernel (a run-time
    /// one plans [`MAX_NESTS`](crate::plan::MAX_NESTS) pieces at a time).
    ///
    /// Operands blocked on different axes, by sizes that divide one another (blocks of 8 and
    /// of 16: nChw8c -> nChw16c), with partial last blocks or by factor 1 fit one plan, as
    /// does any empty copy. Past one plan of four nests (the run-time kernels, and the plans
    /// made `with_nests` with room for them): two block sizes on one
    /// axis neither of which divides the other (3 and 4, 4 and 6), on an axis long enough
    /// that its pieces (one per phase of their least common multiple) outnumber the nests,
    /// and partial last blocks on several blocked axes (oneDNN's `OIhw16i16o` against
    /// `OIhw4i16o4i` with neither `O` nor `I` a multiple of 16). Refused by every kernel:
    /// more than [`MAX_PIECES`](crate::plan::MAX_PIECES) pieces (block sizes such as 7 and 11
    /// on an axis of 100), and more than four distinct block sizes on one axis or four
    /// blocked axes in one copy. Copy through an intermediate layout in two steps instead.
    InterleaveConflict,
    /// A kernel operand's slice is shorter than its layout needs: its highest offset is
    /// `needed - 1`, and the slice holds `given` elements. Pass a slice of at least `needed`
    /// elements (the layout's `required_len()`), or narrow the layout.
    OffsetOutsideSlice {
        /// The argument whose layout reaches past the end of its slice.
        operand: Operand,
        /// The length the layout needs: its highest offset plus one.
        needed: usize,
        /// The length of the slice given.
        given: usize,
    },
    /// A kernel operand's layout has a negative offset, before the first element of any
    /// slice (a flip or a negative stride without the offset that brings its elements back
    /// to `0..`). A kernel reads and writes offsets from the slice's start: move the layout
    /// with `with_offset` (by `-lowest` or more) and the slice with it.
    OffsetBelowSlice {
        /// The argument whose layout reaches below its slice.
        operand: Operand,
        /// The layout's lowest offset (negative).
        lowest: isize,
    },
    /// A kernel's element type does not have the size its layout's itemsize says (this also
    /// refuses zero-sized types and sizes that are no power of two, which no itemsize
    /// describes).
    ItemsizeMismatch {
        /// The argument whose layout disagrees with its element type.
        operand: Operand,
        /// The layout's itemsize, in bytes.
        itemsize: usize,
        /// `size_of` the slice's element type, in bytes.
        element_size: usize,
    },
    /// Two indices of a kernel's destination share an element.
    DestinationNotUnique,
    /// A kernel writing into uninitialised memory was given a destination layout whose
    /// offsets leave gaps, so part of the slice it returns would stay uninitialised.
    DestinationHasGaps,
    /// The two operands of an in-place kernel share elements without coinciding.
    OperandsOverlap,
    /// A kernel could not decide, within a search budget proportional to the elements it was
    /// about to touch, whether its destination is unique (or its in-place operands disjoint);
    /// see [`Layout::is_unique_within`](crate::Layout::is_unique_within).
    UniquenessUndecided,
}

impl LayoutError {
    /// The rule this error names, as a short lower-case message.
    ///
    /// A `const fn`, so a layout that fails in a `const` item reports this text.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::LayoutError;
    /// const MSG: &str = LayoutError::VolumeOverflow.as_str();
    /// assert_eq!(MSG, "the product of the extents does not fit in usize");
    /// ```
    #[must_use]
    pub const fn as_str(&self) -> &'static str {
        match self {
            Self::ItemsizeNotPowerOfTwo { .. } => "itemsize is not a power of two",
            Self::VolumeOverflow => "the product of the extents does not fit in usize",
            Self::OffsetOverflow => {
                "an element offset or stride does not fit in isize, in elements or bytes"
            }
            Self::AxisOutOfRange { .. } => "axis index is not less than the rank",
            Self::NotAPermutation => "axes are not a permutation of 0..rank",
            Self::IndexOutOfRange { .. } => "index is not less than the extent of its axis",
            Self::RangeOutOfBounds { .. } => "start + len exceeds the extent of the axis",
            Self::ZeroStep { .. } => "slice step is zero",
            Self::KeepOrderWithoutSource => {
                "Order::Keep needs a source layout (use dense_like or to_dense)"
            }
            Self::StrideNotMultipleOfItemsize { .. } => {
                "byte stride is not a multiple of the itemsize"
            }
            Self::ExtentZero { .. } => "extent at the repack axis is zero",
            Self::StrideNotOne { .. } => "stride at the repack axis is not 1",
            Self::ExtentNotDivisible { .. } => "extent is not divisible by the factor",
            Self::StrideNotDivisible { .. } => "stride is not divisible by the packing factor",
            Self::OffsetNotDivisible => "offset is not divisible by the packing factor",
            Self::PointerMisaligned => "data pointer is not aligned to the new itemsize",
            Self::NegativeOffset => "minimum offset is negative",
            Self::MaskOutOfRange => "axis mask names an axis not less than the rank",
            Self::RankMismatch { .. } => "rank does not match the requested rank",
            Self::RankOverflow { .. } => "rank exceeds the bounded capacity",
            Self::VolumeMismatch => "shapes hold different numbers of elements",
            Self::ExtentInvalid { .. } => "target extent is negative or a second -1",
            Self::NeedsCopy { .. } => "reshape needs a copy: strides cannot express it",
            Self::BroadcastIncompatible { .. } => "extent is neither 1 nor the target extent",
            Self::DuplicateAxis { .. } => "the same axis is named twice",
            Self::CapacityExceeded => "text buffer capacity exceeded",
            Self::SignedAxisOutOfRange { .. } => "signed axis is not in -rank..rank",
            Self::AxisRangeInvalid { .. } => "axis range is not start <= end <= rank",
            Self::AxesNotMergeable { .. } => "axes cannot merge: their strides do not chain",
            Self::FactorZero => "interleave factor is zero",
            Self::BlockMisaligned { .. } => {
                "start on the interleaved axis is not a multiple of the factor"
            }
            Self::InterleavedAxis { .. } => "the operation does not apply to the interleaved axis",
            Self::NotABlock { .. } => "the last axis does not have stride 1",
            Self::IndexTypeOverflow => {
                "an extent, stride, offset or the volume does not fit the kernel index type"
            }
            Self::ShapeMismatch { .. } => "kernel operands have different shapes",
            Self::InterleaveConflict => {
                "kernel operands are interleaved too differently to plan together"
            }
            Self::OffsetOutsideSlice { operand, .. } => match operand {
                Operand::Destination => "a destination offset lies past the end of its slice",
                Operand::Source => "a source offset lies past the end of its slice",
                Operand::SecondSource => "a second-source offset lies past the end of its slice",
            },
            Self::OffsetBelowSlice { operand, .. } => match operand {
                Operand::Destination => "a destination offset is negative, before its slice",
                Operand::Source => "a source offset is negative, before its slice",
                Operand::SecondSource => "a second-source offset is negative, before its slice",
            },
            Self::ItemsizeMismatch { .. } => "the element type's size is not the layout's itemsize",
            Self::DestinationNotUnique => "two destination indices share an element",
            Self::OperandsOverlap => "in-place operands overlap without coinciding",
            Self::DestinationHasGaps => {
                "the destination layout leaves gaps that would stay uninitialised"
            }
            Self::UniquenessUndecided => {
                "uniqueness not decided within a budget proportional to the volume"
            }
        }
    }
}

impl fmt::Display for LayoutError {
    /// The rule ([`as_str`](LayoutError::as_str)) and the payload in parentheses (axis,
    /// operand, sizes), as the `const` [`const_unwrap`](crate::const_unwrap) prints it: both
    /// write one text, built by a `const fn`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(Message::of(self).as_str())
    }
}

impl core::error::Error for LayoutError {}

/// Which argument of a kernel an error is about.
///
/// | kernel | [`Destination`](Operand::Destination) | [`Source`](Operand::Source) | [`SecondSource`](Operand::SecondSource) |
/// | --- | --- | --- | --- |
/// | [`copy()`](crate::copy()), [`map`](crate::map) | `dst`, `dst_layout` | `src`, `src_layout` | - |
/// | [`copy_within`](crate::copy_within) | `dst_layout` in `buf` | `src_layout` in `buf` | - |
/// | [`zip_map`](crate::zip_map) | `dst`, `dst_layout` | `a`, `a_layout` | `b`, `b_layout` |
/// | [`fill`](crate::fill) | `dst`, `layout` | - | - |
/// | [`fold`](crate::fold) | - | `src`, `layout` | - |
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Operand, Order};
/// let l = Layout::dense([2, 3], 4, Order::C)?;
/// let mut dst = [0f32; 6];
/// let err = strided_layout::copy(&[0f32; 5], &l, &mut dst, &l).unwrap_err();
/// assert_eq!(err, LayoutError::OffsetOutsideSlice { operand: Operand::Source, needed: 6, given: 5 });
/// assert_eq!(err.to_string(), "a source offset lies past the end of its slice (needs 6 elements, given 5)");
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum Operand {
    /// The layout written to.
    Destination,
    /// The layout read from (the first one, for kernels that read two).
    Source,
    /// The second layout read from ([`zip_map`](crate::zip_map)'s `b`).
    SecondSource,
}

impl Operand {
    /// The argument's role in lower case: `"destination"`, `"source"`, `"second source"`.
    ///
    /// # Examples
    ///
    /// ```
    /// assert_eq!(strided_layout::Operand::Destination.as_str(), "destination");
    /// ```
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Destination => "destination",
            Self::Source => "source",
            Self::SecondSource => "second source",
        }
    }
}

// The error stays small (24 bytes on 64-bit targets, 16 on 32-bit ones), so
// `Result<Layout<N>, LayoutError>` costs about one word over `Layout<N>`, and it stays plain
// data that can cross threads.
const _: () = assert!(
    size_of::<LayoutError>() <= 24,
    "LayoutError must stay within 24 bytes"
);
const _: () = {
    const fn plain_data<T: Copy + Send + Sync + Eq + core::hash::Hash>() {}
    plain_data::<LayoutError>();
};
