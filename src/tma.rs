//! TMA lowering: the arguments of `cuTensorMapEncodeTiled` for a [`Layout<N>`], or the rule it
//! breaks (plain data, no CUDA dependency).
//!
//! Hopper-class GPUs copy tiles between global and shared memory with the tensor memory
//! accelerator, driven by a descriptor that the host encodes with
//! [`cuTensorMapEncodeTiled`](https://docs.nvidia.com/cuda/cuda-driver-api/group__CUDA__TENSOR__MEMORY.html).
//! Its rules are strict; [`TmaTiled::new`] checks each (with interleave
//! `CU_TENSOR_MAP_INTERLEAVE_NONE`) and names the one a layout breaks:
//!
//! | rule (driver API) | error |
//! | --- | --- |
//! | `tensorRank` in `1..=5` | [`TmaError::TensorRank`] |
//! | element size 1, 2, 4 or 8 bytes (the `CUtensorMapDataType`s) | [`TmaError::Itemsize`] |
//! | every `globalDim[i]` in `1..=2^32` | [`TmaError::Dim`] |
//! | dimension 0 is contiguous (its stride is the element size, implicit) | [`TmaError::InnerStride`] |
//! | strides describe memory forward (positive) | [`TmaError::StrideNotPositive`] |
//! | every `globalStrides[i]` a multiple of 16 and below 2^40 | [`TmaError::Stride`] |
//! | `globalAddress` 16-byte aligned | [`TmaError::Alignment`] |
//! | every `boxDim[i]` in `1..=256`; `boxDim[0] · elementSize` a multiple of 16; within the swizzle span (32, 64, 128 bytes) when swizzled | [`TmaError::Box`] |
//! | every `elementStrides[i]` in `1..=8` | [`TmaError::ElementStride`] |
//!
//! TMA orders dimensions innermost first, so `globalDim[i]` is the extent of layout axis
//! `N - 1 - i` (the last axis, stride 1, is dimension 0), and `globalStrides[i - 1]` is the byte
//! stride of dimension `i` (dimension 0 has none). An axis of extent 1 never moves the address,
//! so its stride is replaced by a valid one (the span of the dimensions inside it, rounded up to
//! 16 bytes, or `2^40 − 16` if that span reaches 2^40).
//!
//! ```text
//! Layout (64,256):(512,1) f16 at base 0x1000    globalDim     [256, 64]
//!                                               globalStrides [1024]        (512 · 2 bytes)
//! box (32, 64), element strides (1, 1)          boxDim        [64, 32]      (inner row 128 B)
//! ```
//!
//! A layout with a negative stride (flipped) or whose stride-1 axis is not last (permuted) is
//! refused: TMA addresses memory forward only. Lower the un-flipped layout (`flipped` again) and
//! mirror the tile coordinates in the kernel (`extent − box − c`), reversing the tile in shared
//! memory; permute the axes so that the stride-1 axis is last (`permuted`) and swap the tile
//! coordinates to match.

use core::fmt;

use crate::Layout;

/// The shared-memory swizzle of the descriptor (`CUtensorMapSwizzle`); a swizzled box row must
/// fit its span.
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order};
/// use strided_layout::gpu::{TmaError, TmaSwizzle, TmaTiled};
/// // A box of 32 `f32` a row: 128 bytes, too wide for the 64-byte swizzle.
/// let l = Layout::dense([64, 64], 4, Order::C)?;
/// assert!(TmaTiled::new(&l, 0, [8, 32], [1, 1], TmaSwizzle::B128).is_ok());
/// assert_eq!(
///     TmaTiled::new(&l, 0, [8, 32], [1, 1], TmaSwizzle::B64),
///     Err(TmaError::Box { axis: 1 })
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum TmaSwizzle {
    /// `CU_TENSOR_MAP_SWIZZLE_NONE`: no span limit.
    None,
    /// `CU_TENSOR_MAP_SWIZZLE_32B`: inner box row at most 32 bytes.
    B32,
    /// `CU_TENSOR_MAP_SWIZZLE_64B`: at most 64 bytes.
    B64,
    /// `CU_TENSOR_MAP_SWIZZLE_128B`: at most 128 bytes.
    B128,
}

impl TmaSwizzle {
    /// The span in bytes a swizzled inner box row may not exceed, or `None`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::gpu::TmaSwizzle;
    /// assert_eq!(TmaSwizzle::B128.span(), Some(128));
    /// ```
    #[must_use]
    pub const fn span(self) -> Option<u64> {
        match self {
            Self::None => None,
            Self::B32 => Some(32),
            Self::B64 => Some(64),
            Self::B128 => Some(128),
        }
    }
}

/// The arguments of `cuTensorMapEncodeTiled` for a layout, innermost dimension first; build
/// with [`TmaTiled::new`].
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order};
/// use strided_layout::gpu::{TmaError, TmaSwizzle, TmaTiled};
/// let l = Layout::dense([64, 256], 2, Order::C)?;
/// let t = TmaTiled::new(&l, 0x1000, [32, 64], [1, 1], TmaSwizzle::B128)?;
/// assert_eq!((t.rank(), t.global_dim(), t.global_strides()), (2, &[256, 64][..], &[512][..]));
/// assert_eq!((t.box_dim(), t.element_strides()), (&[64, 32][..], &[1, 1][..]));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TmaTiled<const N: usize> {
    global_address: u64,
    global_dim: [u64; N],
    global_strides: [u64; N],
    box_dim: [u32; N],
    element_strides: [u32; N],
}

const TWO_POW_32: u64 = 1 << 32;
const TWO_POW_40: u64 = 1 << 40;

/// `v` rounded up to a multiple of 16, checked.
const fn round_up_16(v: u64) -> Option<u64> {
    match v.checked_add(15) {
        Some(x) => Some(x & !15),
        None => None,
    }
}

impl<const N: usize> TmaTiled<N> {
    /// The `cuTensorMapEncodeTiled` arguments for `layout` over the buffer at address `base`,
    /// with `box_shape` and `element_strides` given per layout axis (C order, like the shape).
    ///
    /// `globalAddress` is `base + layout.offset_in_bytes()`. Checks every rule of the module
    /// table, in that order, then that the address fits in 64 bits; within one rule, the
    /// innermost axis first (TMA's dimension 0). The error is the first rule broken.
    ///
    /// # Errors
    ///
    /// - [`TmaError::TensorRank`] if `N` is not in `1..=5`.
    /// - [`TmaError::Itemsize`] if the itemsize is not 1, 2, 4 or 8.
    /// - [`TmaError::Dim`] if an extent is not in `1..=2^32`.
    /// - [`TmaError::InnerStride`] if the last axis's stride is not 1 (and its extent
    ///   above 1).
    /// - [`TmaError::StrideNotPositive`] if another axis of extent above 1 has a stride
    ///   of 0 or below.
    /// - [`TmaError::Stride`] if such a stride in bytes is not a multiple of 16 or not
    ///   below 2^40.
    /// - [`TmaError::Alignment`] if `base + offset` is not a multiple of 16 (whether or
    ///   not it fits in 64 bits).
    /// - [`TmaError::Box`] if a box size is not in `1..=256`, or the inner one times the
    ///   itemsize is not a multiple of 16 or exceeds the swizzle span.
    /// - [`TmaError::ElementStride`] if an element stride is not in `1..=8`.
    /// - [`TmaError::AddressOverflow`] if `base + offset` leaves `0..2^64`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::gpu::{TmaError, TmaSwizzle, TmaTiled};
    /// let img = Layout::dense([1080, 1920], 4, Order::C)?;
    /// let t = TmaTiled::new(&img, 0, [8, 32], [1, 1], TmaSwizzle::B128)?;
    /// assert_eq!(t.global_strides(), &[7680]);
    /// // The transposed view has its stride-1 axis first: TMA cannot read it as is.
    /// let tr = img.transposed(0, 1)?;
    /// let e = TmaTiled::new(&tr, 0, [8, 32], [1, 1], TmaSwizzle::None);
    /// assert_eq!(e, Err(TmaError::InnerStride));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn new(
        layout: &Layout<N>,
        base: u64,
        box_shape: [u32; N],
        element_strides: [u32; N],
        swizzle: TmaSwizzle,
    ) -> Result<Self, TmaError> {
        if N == 0 || N > 5 {
            return Err(TmaError::TensorRank);
        }
        let itemsize = layout.itemsize();
        if !matches!(itemsize, 1 | 2 | 4 | 8) {
            return Err(TmaError::Itemsize);
        }
        let size = u64::try_from(itemsize).map_err(|_| TmaError::Itemsize)?;
        let shape = layout.shape();
        let strides = layout.strides();
        let mut out = Self {
            global_address: 0,
            global_dim: [0; N],
            global_strides: [0; N],
            box_dim: [0; N],
            element_strides: [0; N],
        };
        // Dimensions, innermost first.
        for ((axis, &e), dst) in shape.iter().enumerate().rev().zip(&mut out.global_dim) {
            let e = u64::try_from(e).map_err(|_| TmaError::Dim { axis })?;
            if e == 0 || e > TWO_POW_32 {
                return Err(TmaError::Dim { axis });
            }
            *dst = e;
        }
        // The innermost axis: stride 1 element (its stride is implicit in TMA).
        if let (Some(&e), Some(&s)) = (shape.last(), strides.last()) {
            if e > 1 && s != 1 {
                return Err(TmaError::InnerStride);
            }
        }
        // Strides of dimensions 1.. in bytes; `span` is the byte span of the dimensions inside.
        let mut span = u64::try_from(shape.last().copied().unwrap_or(1))
            .unwrap_or(u64::MAX)
            .saturating_mul(size);
        let outer = shape.iter().zip(&strides).enumerate().rev().skip(1);
        // Every moving axis's stride positive first, then each stride's bytes (the table's
        // order of the two rules).
        for (axis, (&e, &s)) in outer.clone() {
            if e > 1 && s <= 0 {
                return Err(TmaError::StrideNotPositive { axis });
            }
        }
        for ((axis, (&e, &s)), dst) in outer.zip(&mut out.global_strides) {
            let bytes = if e <= 1 {
                // Never moves the address: any valid stride will do. Take the span of the
                // dimensions inside, rounded up to 16 bytes, if that is below 2^40, else the
                // largest valid one.
                round_up_16(span.max(16))
                    .filter(|&b| b < TWO_POW_40)
                    .unwrap_or(TWO_POW_40 - 16)
            } else {
                // Positive: checked above.
                let s = u64::try_from(s).map_err(|_| TmaError::StrideNotPositive { axis })?;
                let bytes = s.checked_mul(size).ok_or(TmaError::Stride { axis })?;
                if bytes % 16 != 0 || bytes >= TWO_POW_40 {
                    return Err(TmaError::Stride { axis });
                }
                bytes
            };
            *dst = bytes;
            // Only guides the stride chosen for an extent-1 axis: saturating is fine.
            span = bytes.saturating_mul(u64::try_from(e).unwrap_or(u64::MAX));
        }
        // The alignment is the address modulo 16, defined whether or not the sum fits (16
        // divides 2^64); that it fits is checked last, after the box rules.
        let offset =
            i64::try_from(layout.offset_in_bytes()).map_err(|_| TmaError::AddressOverflow)?;
        if base.wrapping_add_signed(offset) % 16 != 0 {
            return Err(TmaError::Alignment);
        }
        // Box and element strides, innermost first.
        let per_axis = box_shape.iter().zip(&element_strides).enumerate().rev();
        let slots = out.box_dim.iter_mut().zip(&mut out.element_strides);
        for (i, ((axis, (&b, &es)), (bd, ed))) in per_axis.zip(slots).enumerate() {
            if b == 0 || b > 256 {
                return Err(TmaError::Box { axis });
            }
            if i == 0 {
                let row = u64::from(b)
                    .checked_mul(size)
                    .ok_or(TmaError::Box { axis })?;
                let too_wide = swizzle.span().is_some_and(|span| row > span);
                if row % 16 != 0 || too_wide {
                    return Err(TmaError::Box { axis });
                }
            }
            *bd = b;
            *ed = es;
        }
        for (axis, &es) in element_strides.iter().enumerate().rev() {
            if es == 0 || es > 8 {
                return Err(TmaError::ElementStride { axis });
            }
        }
        out.global_address = base
            .checked_add_signed(offset)
            .ok_or(TmaError::AddressOverflow)?;
        Ok(out)
    }

    /// `tensorRank`: `N`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::gpu::{TmaError, TmaSwizzle, TmaTiled};
    /// let t = TmaTiled::new(&Layout::dense([4, 4, 16], 4, Order::C)?, 0, [1, 1, 4], [1; 3], TmaSwizzle::None)?;
    /// assert_eq!(t.rank(), 3);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn rank(&self) -> u32 {
        u32::try_from(N).unwrap_or(0)
    }

    /// `globalAddress`: the base plus the layout offset in bytes, 16-byte aligned.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::gpu::{TmaError, TmaSwizzle, TmaTiled};
    /// let l = Layout::dense([16], 4, Order::C)?.with_offset(4)?;
    /// assert_eq!(TmaTiled::new(&l, 0x100, [4], [1], TmaSwizzle::None)?.global_address(), 0x110);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub const fn global_address(&self) -> u64 {
        self.global_address
    }

    /// `globalDim`, innermost first (`N` values).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::gpu::{TmaError, TmaSwizzle, TmaTiled};
    /// let l = Layout::dense([3, 8], 4, Order::C)?;
    /// assert_eq!(TmaTiled::new(&l, 0, [1, 4], [1, 1], TmaSwizzle::None)?.global_dim(), &[8, 3]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn global_dim(&self) -> &[u64] {
        &self.global_dim
    }

    /// `globalStrides` in bytes for dimensions `1..N`, innermost first (`N - 1` values).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::gpu::{TmaError, TmaSwizzle, TmaTiled};
    /// let l = Layout::dense([3, 8], 4, Order::C)?;
    /// assert_eq!(TmaTiled::new(&l, 0, [1, 4], [1, 1], TmaSwizzle::None)?.global_strides(), &[32]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn global_strides(&self) -> &[u64] {
        self.global_strides
            .get(..N.saturating_sub(1))
            .unwrap_or(&[])
    }

    /// `boxDim`, innermost first.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::gpu::{TmaError, TmaSwizzle, TmaTiled};
    /// let l = Layout::dense([3, 8], 4, Order::C)?;
    /// assert_eq!(TmaTiled::new(&l, 0, [2, 4], [1, 1], TmaSwizzle::None)?.box_dim(), &[4, 2]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn box_dim(&self) -> &[u32] {
        &self.box_dim
    }

    /// `elementStrides`, innermost first.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::gpu::{TmaError, TmaSwizzle, TmaTiled};
    /// let l = Layout::dense([3, 8], 4, Order::C)?;
    /// let t = TmaTiled::new(&l, 0, [2, 4], [2, 1], TmaSwizzle::None)?;
    /// assert_eq!(t.element_strides(), &[1, 2]);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    #[must_use]
    pub fn element_strides(&self) -> &[u32] {
        &self.element_strides
    }
}

/// Why [`TmaTiled::new`] refused a layout: the `cuTensorMapEncodeTiled` rule it breaks. The
/// rules, in the order they are checked:
///
/// | rule (driver API) | error |
/// | --- | --- |
/// | `tensorRank` in `1..=5` | [`TensorRank`](TmaError::TensorRank) |
/// | element size 1, 2, 4 or 8 bytes (the `CUtensorMapDataType`s) | [`Itemsize`](TmaError::Itemsize) |
/// | every `globalDim[i]` in `1..=2^32` | [`Dim`](TmaError::Dim) |
/// | dimension 0 is contiguous (its stride is the element size, implicit) | [`InnerStride`](TmaError::InnerStride) |
/// | strides describe memory forward (positive) | [`StrideNotPositive`](TmaError::StrideNotPositive) |
/// | every `globalStrides[i]` a multiple of 16 and below 2^40 | [`Stride`](TmaError::Stride) |
/// | `globalAddress` 16-byte aligned | [`Alignment`](TmaError::Alignment) |
/// | every `boxDim[i]` in `1..=256`; `boxDim[0] · elementSize` a multiple of 16; within the swizzle span (32, 64, 128 bytes) when swizzled | [`Box`](TmaError::Box) |
/// | every `elementStrides[i]` in `1..=8` | [`ElementStride`](TmaError::ElementStride) |
/// | `globalAddress` (base plus offset) fits 64 bits | [`AddressOverflow`](TmaError::AddressOverflow) |
///
/// A type of its own, not variants of [`LayoutError`](crate::LayoutError): code that builds
/// TMA descriptors matches these causes and nothing else, and the kernels' callers never see
/// them. `Display` gives the rule and the axis (`TMA needs the innermost (last) axis to have
/// stride 1`, `a TMA box size must be 1..=256, ... (axis 1)`).
///
/// # Examples
///
/// ```
/// use strided_layout::gpu::{TmaError, TmaSwizzle, TmaTiled};
/// use strided_layout::{Layout, Order};
/// let l = Layout::dense([64, 64], 4, Order::C).unwrap().transposed(0, 1).unwrap();
/// let e = TmaTiled::new(&l, 0, [8, 32], [1, 1], TmaSwizzle::None).unwrap_err();
/// assert_eq!(e, TmaError::InnerStride);
/// assert_eq!(e.to_string(), "TMA needs stride 1 on the innermost (last) axis");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum TmaError {
    /// A TMA descriptor needs a rank in `1..=5`.
    TensorRank,
    /// A TMA element is 1, 2, 4 or 8 bytes.
    Itemsize,
    /// A TMA global dimension is outside `1..=2^32`.
    Dim {
        /// The layout axis.
        axis: usize,
    },
    /// TMA needs the innermost (last) axis to have stride 1 element.
    InnerStride,
    /// A TMA global stride is zero or negative (permute, flip or select first).
    StrideNotPositive {
        /// The layout axis.
        axis: usize,
    },
    /// A TMA global stride in bytes is not a multiple of 16 or not below 2^40.
    Stride {
        /// The layout axis.
        axis: usize,
    },
    /// The TMA global address (base plus offset) is not 16-byte aligned.
    Alignment,
    /// A TMA box size is outside `1..=256`, or the inner box row is not a multiple of 16 bytes
    /// or exceeds the swizzle span.
    Box {
        /// The layout axis.
        axis: usize,
    },
    /// A TMA element stride is outside `1..=8`.
    ElementStride {
        /// The layout axis.
        axis: usize,
    },
    /// The global address, the base plus the layout's offset in bytes, leaves `0..2^64`.
    AddressOverflow,
}

impl TmaError {
    /// The rule this error names, without its axis.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::gpu::TmaError;
    /// assert_eq!(TmaError::TensorRank.as_str(), "a TMA descriptor needs rank 1..=5");
    /// ```
    #[must_use]
    pub const fn as_str(&self) -> &'static str {
        match self {
            Self::TensorRank => "a TMA descriptor needs rank 1..=5",
            Self::Itemsize => "a TMA element is 1, 2, 4 or 8 bytes",
            Self::Dim { .. } => "a TMA global dimension must be 1..=2^32",
            Self::InnerStride => "TMA needs stride 1 on the innermost (last) axis",
            Self::StrideNotPositive { .. } => {
                "a TMA global stride must be positive (permute, flip or select first)"
            }
            Self::Stride { .. } => {
                "a TMA global stride must be a multiple of 16 bytes and below 2^40"
            }
            Self::Alignment => "the TMA global address must be 16-byte aligned",
            Self::Box { .. } => {
                "a TMA box size must be 1..=256, its inner row a multiple of 16 bytes within the swizzle span"
            }
            Self::ElementStride { .. } => "a TMA element stride must be 1..=8",
            Self::AddressOverflow => "the TMA global address (base plus offset) leaves 0..2^64",
        }
    }

    /// The layout axis the rule is about, if it is about one.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::gpu::TmaError;
    /// assert_eq!(TmaError::Box { axis: 1 }.axis(), Some(1));
    /// assert_eq!(TmaError::Alignment.axis(), None);
    /// ```
    #[must_use]
    pub const fn axis(&self) -> Option<usize> {
        match *self {
            Self::Dim { axis }
            | Self::StrideNotPositive { axis }
            | Self::Stride { axis }
            | Self::Box { axis }
            | Self::ElementStride { axis } => Some(axis),
            _ => None,
        }
    }
}

impl fmt::Display for TmaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())?;
        match self.axis() {
            Some(axis) => write!(f, " (axis {axis})"),
            None => Ok(()),
        }
    }
}

impl core::error::Error for TmaError {}
