//! DLPack interop (feature `dlpack`): `#[repr(C)]` [`DLTensor`] and friends, converted to and
//! from [`Layout<N>`] and [`DynLayout<MAX>`] without allocation.
//!
//! DLPack is how `PyTorch`, JAX, `CuPy`, `NumPy` and cuda.core hand tensors to each other. Its
//! `DLTensor` (the C header `dlpack.h`, v0.8 and 1.x, which agree on these structs) carries a data
//! pointer, a device, `ndim`, a dtype, `shape` and `strides` pointers (strides in elements), and
//! a `byte_offset`.
//!
//! | item | what |
//! | --- | --- |
//! | [`DLDevice`], [`DLDataType`], [`DLTensor`] | the C structs, field for field |
//! | [`DlpackView`] | a checked, borrowed view: `shape`, `strides` (`None`: C-contiguous), `byte_offset`, dtype |
//! | [`DlpackView::from_tensor`] | the one `unsafe fn`: reads `ndim` values behind `shape` / `strides` |
//! | [`DlpackView::to_layout`], [`DlpackView::to_dyn_layout`] | DLPack to this crate |
//! | [`DlpackView::from_layout`], [`DlpackView::from_dyn_layout`], [`DlpackView::to_tensor`] | this crate to DLPack, into caller buffers |
//! | [`DlpackError`] | why a conversion failed: a DLPack cause, or the layout rule broken |
//!
//! ```text
//! DLTensor { shape [2, 3], strides [1, 2], byte_offset 8, dtype f32 }
//!   -> Layout (2,3):(1,2) +2 x4B        offsets  2 4 6
//!                                                3 5 7
//! ```
//!
//! What a [`Layout`] cannot express is an error, never a silent change: a [`DlpackError`],
//! whose DLPack causes are its own variants and whose layout causes are
//! [`DlpackError::Layout`] around the [`LayoutError`] the layout would break:
//!
//! | DLPack value | error |
//! | --- | --- |
//! | `bits * lanes` zero or not a multiple of 8 | [`DlpackError::DtypeInvalid`] |
//! | `bits * lanes / 8` not a power of two (e.g. 3 lanes of f32) | [`LayoutError::ItemsizeNotPowerOfTwo`] |
//! | `byte_offset` not a multiple of the itemsize | [`DlpackError::ByteOffsetNotMultiple`] |
//! | `ndim` not the rank asked for / strides of another length | [`LayoutError::RankMismatch`] |
//! | `ndim` above a `DynLayout`'s bound | [`LayoutError::RankOverflow`] |
//! | a negative extent | [`LayoutError::ExtentInvalid`] |
//! | null `shape` with `ndim > 0`, negative `ndim` | [`DlpackError::ShapeUnreadable`] |
//! | an offset, stride or their bytes beyond `isize` | [`LayoutError::OffsetOverflow`], [`LayoutError::VolumeOverflow`] |
//!
//! And back: a dtype whose size is not the layout's itemsize is
//! [`DlpackError::DtypeSizeMismatch`]; a negative layout offset (no `u64` byte offset holds it)
//! is `DlpackError::Layout(`[`LayoutError::NegativeOffset`]`)` (move the data pointer
//! instead).

use core::ffi::c_void;
use core::fmt;

use crate::nested::{NestedError, NestedLayout};
use crate::{DynLayout, Layout, LayoutError};

/// `DLDevice`: where the tensor's memory is (`device_type` is the C enum `DLDeviceType`, kept as
/// `i32` so that any value read from C is a valid Rust value).
///
/// # Examples
///
/// ```
/// use strided_layout::dlpack::DLDevice;
/// let gpu0 = DLDevice { device_type: DLDevice::CUDA, device_id: 0 };
/// assert_eq!(core::mem::size_of_val(&gpu0), 8);
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct DLDevice {
    /// `kDLCPU` = 1, `kDLCUDA` = 2, ... (see the associated constants).
    pub device_type: i32,
    /// The device ordinal.
    pub device_id: i32,
}

impl DLDevice {
    /// `kDLCPU`.
    pub const CPU: i32 = 1;
    /// `kDLCUDA`.
    pub const CUDA: i32 = 2;
    /// `kDLCUDAHost` (pinned host memory).
    pub const CUDA_HOST: i32 = 3;
    /// `kDLROCM`.
    pub const ROCM: i32 = 10;
    /// `kDLCUDAManaged`.
    pub const CUDA_MANAGED: i32 = 13;
}

/// `DLDataType`: type code, bits per lane and lanes; one element is `bits * lanes / 8` bytes.
///
/// # Examples
///
/// ```
/// use strided_layout::LayoutError;
/// use strided_layout::dlpack::{DLDataType, DlpackError};
/// let f32x1 = DLDataType { code: DLDataType::FLOAT, bits: 32, lanes: 1 };
/// assert_eq!(f32x1.itemsize()?, 4);
/// let bad = DLDataType { code: DLDataType::INT, bits: 4, lanes: 1 };
/// assert_eq!(bad.itemsize(), Err(DlpackError::DtypeInvalid));
/// # Ok::<(), DlpackError>(())
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct DLDataType {
    /// `kDLInt` = 0, `kDLUInt` = 1, `kDLFloat` = 2, ... (see the associated constants).
    pub code: u8,
    /// Bits per lane.
    pub bits: u8,
    /// Lanes (1 for a scalar element).
    pub lanes: u16,
}

impl DLDataType {
    /// `kDLInt`.
    pub const INT: u8 = 0;
    /// `kDLUInt`.
    pub const UINT: u8 = 1;
    /// `kDLFloat`.
    pub const FLOAT: u8 = 2;
    /// `kDLBfloat`.
    pub const BFLOAT: u8 = 4;
    /// `kDLComplex`.
    pub const COMPLEX: u8 = 5;
    /// `kDLBool`.
    pub const BOOL: u8 = 6;

    /// The size of one element in bytes, `bits * lanes / 8`.
    ///
    /// # Errors
    ///
    /// - [`DlpackError::DtypeInvalid`] if `bits * lanes` is zero or not a multiple of 8.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::LayoutError;
    /// use strided_layout::dlpack::{DLDataType, DlpackError};
    /// let c64 = DLDataType { code: DLDataType::COMPLEX, bits: 64, lanes: 1 };
    /// assert_eq!(c64.itemsize()?, 8);
    /// # Ok::<(), DlpackError>(())
    /// ```
    pub const fn itemsize(self) -> Result<usize, DlpackError> {
        // 255 * 65535 < 2^24: no overflow in u32 (checked anyway, const-friendly).
        let Some(bits) = (self.bits as u32).checked_mul(self.lanes as u32) else {
            return Err(DlpackError::DtypeInvalid);
        };
        if bits == 0 || bits % 8 != 0 {
            return Err(DlpackError::DtypeInvalid);
        }
        Ok((bits / 8) as usize)
    }
}

/// `DLTensor`, field for field (`dlpack.h` v0.8 / 1.x): a plain C struct of raw pointers.
///
/// Build one for a consumer with [`DlpackView::to_tensor`]; read one from a producer with the
/// `unsafe` [`DlpackView::from_tensor`].
///
/// # Examples
///
/// ```
/// use strided_layout::dlpack::DLTensor;
/// assert_eq!(core::mem::size_of::<DLTensor>(), if cfg!(target_pointer_width = "64") { 48 } else { 40 });
/// ```
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct DLTensor {
    /// The data pointer (for CUDA, a device pointer); element `[0, ..]` is at `data + byte_offset`.
    pub data: *mut c_void,
    /// Where the memory is.
    pub device: DLDevice,
    /// The rank.
    pub ndim: i32,
    /// The element type.
    pub dtype: DLDataType,
    /// `ndim` extents.
    pub shape: *mut i64,
    /// `ndim` strides in elements, or null for C-contiguous.
    pub strides: *mut i64,
    /// Bytes from `data` to element `[0, ..]`.
    pub byte_offset: u64,
}

/// A DLPack tensor's layout part, borrowed: `shape`, `strides` (in elements, `None` meaning
/// C-contiguous), `byte_offset` and dtype.
///
/// The safe front: build it from slices (or with [`from_tensor`](Self::from_tensor) from a raw
/// [`DLTensor`]) and convert with [`to_layout`](Self::to_layout).
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError};
/// use strided_layout::dlpack::{DLDataType, DlpackError, DlpackView};
/// let f32x1 = DLDataType { code: DLDataType::FLOAT, bits: 32, lanes: 1 };
/// let view = DlpackView { shape: &[2, 3], strides: Some(&[1, 2]), byte_offset: 8, dtype: f32x1 };
/// let l: Layout<2> = view.to_layout()?;
/// assert_eq!((l.shape(), l.strides(), l.offset(), l.itemsize()), ([2, 3], [1, 2], 2, 4));
/// # Ok::<(), DlpackError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct DlpackView<'a> {
    /// The extents.
    pub shape: &'a [i64],
    /// The strides in elements; `None` means C-contiguous (DLPack's null strides pointer).
    pub strides: Option<&'a [i64]>,
    /// Bytes from the data pointer to element `[0, ..]`.
    pub byte_offset: u64,
    /// The element type; its size is the layout's itemsize.
    pub dtype: DLDataType,
}

impl<'a> DlpackView<'a> {
    /// Reads the layout part of a raw [`DLTensor`]: `ndim` values behind `shape` and, unless
    /// null, `strides`.
    ///
    /// # Safety
    ///
    /// If `tensor.ndim > 0`, `tensor.shape` must be null or point to `ndim` initialised `i64`
    /// values, and `tensor.strides` must be null or point to `ndim` initialised `i64` values,
    /// both valid for reads and not written for the lifetime `'a` (the DLPack contract for a
    /// tensor the producer keeps alive).
    ///
    /// # Errors
    ///
    /// - [`DlpackError::ShapeUnreadable`] if `ndim < 0`, or `ndim > 0` and `shape` is null.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError};
    /// use strided_layout::dlpack::{DLDataType, DLDevice, DLTensor, DlpackError, DlpackView};
    /// let mut shape = [4i64, 5];
    /// let t = DLTensor {
    ///     data: core::ptr::null_mut(),
    ///     device: DLDevice { device_type: DLDevice::CPU, device_id: 0 },
    ///     ndim: 2,
    ///     dtype: DLDataType { code: DLDataType::FLOAT, bits: 64, lanes: 1 },
    ///     shape: shape.as_mut_ptr(),
    ///     strides: core::ptr::null_mut(), // C-contiguous
    ///     byte_offset: 0,
    /// };
    /// // SAFETY: `shape` holds `ndim` values and outlives the view; strides are null.
    /// let view = unsafe { DlpackView::from_tensor(&t)? };
    /// assert_eq!(view.to_layout::<2>()?.strides(), [5, 1]);
    /// # Ok::<(), DlpackError>(())
    /// ```
    #[expect(
        unsafe_code,
        reason = "reads ndim values behind the DLPack shape and strides pointers, as the caller promises"
    )]
    pub unsafe fn from_tensor(tensor: &'a DLTensor) -> Result<Self, DlpackError> {
        let Ok(ndim) = usize::try_from(tensor.ndim) else {
            return Err(DlpackError::ShapeUnreadable);
        };
        let read = |ptr: *mut i64| -> &'a [i64] {
            if ndim == 0 {
                return &[];
            }
            // SAFETY: `ptr` is non-null (checked by the callers below) and, by this function's
            // contract, points to `ndim` initialised i64 values readable and unchanged for 'a;
            // `ndim <= i32::MAX`, so `ndim * 8` bytes fit `isize`.
            unsafe { core::slice::from_raw_parts(ptr.cast_const(), ndim) }
        };
        if ndim > 0 && tensor.shape.is_null() {
            return Err(DlpackError::ShapeUnreadable);
        }
        let shape = read(tensor.shape);
        let strides = if tensor.strides.is_null() {
            None
        } else {
            Some(read(tensor.strides))
        };
        Ok(Self {
            shape,
            strides,
            byte_offset: tensor.byte_offset,
            dtype: tensor.dtype,
        })
    }

    /// The [`Layout<N>`] this view describes: element strides as given (C-contiguous ones when
    /// `strides` is `None`), offset `byte_offset / itemsize`, itemsize from the dtype.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::RankMismatch`] if `shape.len() != N` or `strides` has another length.
    /// - [`DlpackError::DtypeInvalid`], [`LayoutError::ItemsizeNotPowerOfTwo`] for the dtype.
    /// - [`DlpackError::ByteOffsetNotMultiple`] if `byte_offset % itemsize != 0`.
    /// - [`LayoutError::ExtentInvalid`] for a negative extent.
    /// - [`LayoutError::VolumeOverflow`], [`LayoutError::OffsetOverflow`] if a value or the
    ///   layout does not fit `usize` / `isize` (the [`Layout`] invariants).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError};
    /// use strided_layout::dlpack::{DLDataType, DlpackError, DlpackView};
    /// let u8x1 = DLDataType { code: DLDataType::UINT, bits: 8, lanes: 1 };
    /// let chw = DlpackView { shape: &[3, 4, 5], strides: None, byte_offset: 0, dtype: u8x1 };
    /// assert_eq!(chw.to_layout::<3>()?.strides(), [20, 5, 1]);
    /// assert_eq!(
    ///     chw.to_layout::<2>(),
    ///     Err(DlpackError::Layout(LayoutError::RankMismatch { expected: 2, found: 3 }))
    /// );
    /// # Ok::<(), DlpackError>(())
    /// ```
    pub fn to_layout<const N: usize>(&self) -> Result<Layout<N>, DlpackError> {
        let mut shape = [0usize; N];
        let mut strides = [0isize; N];
        if self.shape.len() != N {
            return Err(DlpackError::Layout(LayoutError::RankMismatch {
                expected: N,
                found: self.shape.len(),
            }));
        }
        let (itemsize, offset) = self.parts(&mut shape, &mut strides)?;
        Ok(Layout::new(shape, strides, itemsize)?.with_offset(offset)?)
    }

    /// The [`DynLayout<MAX>`] this view describes, as [`to_layout`](Self::to_layout) for a rank
    /// known only at run time.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::RankOverflow`] if `shape.len() > MAX`; otherwise as
    ///   [`to_layout`](Self::to_layout).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// use strided_layout::dlpack::{DLDataType, DlpackError, DlpackView};
    /// let f16 = DLDataType { code: DLDataType::FLOAT, bits: 16, lanes: 1 };
    /// let v = DlpackView { shape: &[8, 2], strides: Some(&[-2, 1]), byte_offset: 28, dtype: f16 };
    /// let d: DynLayout<4> = v.to_dyn_layout()?;
    /// assert_eq!((d.shape(), d.strides(), d.offset()), (&[8, 2][..], &[-2, 1][..], 14));
    /// # Ok::<(), DlpackError>(())
    /// ```
    pub fn to_dyn_layout<const MAX: usize>(&self) -> Result<DynLayout<MAX>, DlpackError> {
        let rank = self.shape.len();
        let mut shape = [0usize; MAX];
        let mut strides = [0isize; MAX];
        let (Some(shape), Some(strides)) = (shape.get_mut(..rank), strides.get_mut(..rank)) else {
            return Err(DlpackError::Layout(LayoutError::RankOverflow { max: MAX }));
        };
        let (itemsize, offset) = self.parts(shape, strides)?;
        Ok(DynLayout::new(shape, strides, itemsize)?.with_offset(offset)?)
    }

    /// Checks and converts the parts into `shape` / `strides` (of length `self.shape.len()`);
    /// returns `(itemsize, offset in elements)`.
    fn parts(
        &self,
        shape: &mut [usize],
        strides: &mut [isize],
    ) -> Result<(usize, isize), DlpackError> {
        let rank = self.shape.len();
        let itemsize = self.dtype.itemsize()?;
        if !itemsize.is_power_of_two() {
            return Err(DlpackError::Layout(LayoutError::ItemsizeNotPowerOfTwo {
                itemsize,
            }));
        }
        for (axis, (dst, &e)) in shape.iter_mut().zip(self.shape).enumerate() {
            if e < 0 {
                return Err(DlpackError::Layout(LayoutError::ExtentInvalid { axis }));
            }
            *dst = usize::try_from(e).map_err(|_| LayoutError::VolumeOverflow)?;
        }
        if let Some(given) = self.strides {
            if given.len() != rank {
                return Err(DlpackError::Layout(LayoutError::RankMismatch {
                    expected: rank,
                    found: given.len(),
                }));
            }
            for (dst, &s) in strides.iter_mut().zip(given) {
                *dst = isize::try_from(s).map_err(|_| LayoutError::OffsetOverflow)?;
            }
        } else {
            // C-contiguous: each stride is the product of the extents after it. A product past
            // isize saturates; `Layout::new` then refuses it unless the layout is empty.
            let mut run: isize = 1;
            for (dst, &e) in strides.iter_mut().zip(shape.iter()).rev() {
                *dst = run;
                let e = isize::try_from(e).map_err(|_| LayoutError::VolumeOverflow)?;
                run = run.checked_mul(e).unwrap_or(isize::MAX);
            }
        }
        let size = u64::try_from(itemsize).map_err(|_| LayoutError::OffsetOverflow)?;
        if self.byte_offset.checked_rem(size) != Some(0) {
            return Err(DlpackError::ByteOffsetNotMultiple);
        }
        let elements = self.byte_offset.checked_div(size).unwrap_or(0);
        let offset = isize::try_from(elements).map_err(|_| LayoutError::OffsetOverflow)?;
        Ok((itemsize, offset))
    }

    /// The view of `layout` with `dtype`, writing its extents and element strides into the
    /// caller's `shape` and `strides` buffers (which the view then borrows).
    ///
    /// # Errors
    ///
    /// - [`DlpackError::DtypeInvalid`] for the dtype.
    /// - [`DlpackError::DtypeSizeMismatch`] if the dtype's size is not `layout.itemsize()`.
    /// - [`LayoutError::NegativeOffset`] if `layout.offset() < 0` (a DLPack byte offset is
    ///   unsigned: move the data pointer back instead, and pass the layout with offset 0).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::dlpack::{DLDataType, DlpackError, DlpackView};
    /// let f32x1 = DLDataType { code: DLDataType::FLOAT, bits: 32, lanes: 1 };
    /// let t = Layout::dense([1080, 1920], 4, Order::C)?.transposed(0, 1)?;
    /// let (mut shape, mut strides) = ([0; 2], [0; 2]);
    /// let v = DlpackView::from_layout(&t, f32x1, &mut shape, &mut strides)?;
    /// assert_eq!((v.shape, v.strides, v.byte_offset), (&[1920, 1080][..], Some(&[1, 1920][..]), 0));
    /// assert_eq!(v.to_layout::<2>()?, t);
    /// # Ok::<(), DlpackError>(())
    /// ```
    pub fn from_layout<const N: usize>(
        layout: &Layout<N>,
        dtype: DLDataType,
        shape: &'a mut [i64; N],
        strides: &'a mut [i64; N],
    ) -> Result<Self, DlpackError> {
        let (byte_offset, shape, strides) = Self::write(
            &layout.shape(),
            &layout.strides(),
            layout.offset(),
            layout.itemsize(),
            dtype,
            shape,
            strides,
        )?;
        Ok(Self {
            shape,
            strides: Some(strides),
            byte_offset,
            dtype,
        })
    }

    /// The view of a nested layout of rank `N` whose modes are all leaves (a blocked one has no
    /// DLPack form), as [`from_layout`](Self::from_layout).
    ///
    /// # Errors
    ///
    /// - [`DlpackError::Blocked`] for the first top-level mode that is a tuple or cut (a
    ///   oneDNN format such as `nChw16c`: reorder it to a plain layout first, with
    ///   [`copy()`](crate::copy()) over [`NestedLayout::lowered`]);
    /// - [`LayoutError::RankMismatch`] if the rank is not `N`; otherwise as
    ///   [`from_layout`](Self::from_layout).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// use strided_layout::dlpack::{DLDataType, DlpackError, DlpackView};
    /// let f32x1 = DLDataType { code: DLDataType::FLOAT, bits: 32, lanes: 1 };
    /// let (mut shape, mut strides) = ([0; 4], [0; 4]);
    /// let nhwc = NestedLayout::<8>::onednn("nhwc", &[1, 3, 2, 2], 4)?;
    /// let v = DlpackView::from_nested(&nhwc, f32x1, &mut shape, &mut strides)?;
    /// assert_eq!((v.shape, v.strides), (&[1, 3, 2, 2][..], Some(&[12, 1, 6, 3][..])));
    /// let blocked = NestedLayout::<8>::onednn("nChw16c", &[1, 20, 2, 2], 4)?;
    /// let (mut shape, mut strides) = ([0; 4], [0; 4]);
    /// assert_eq!(
    ///     DlpackView::from_nested(&blocked, f32x1, &mut shape, &mut strides).map(|_| ()),
    ///     Err(DlpackError::Blocked { mode: 1 })
    /// );
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn from_nested<const N: usize, const L: usize>(
        layout: &NestedLayout<L>,
        dtype: DLDataType,
        shape: &'a mut [i64; N],
        strides: &'a mut [i64; N],
    ) -> Result<Self, DlpackError> {
        let flat = match layout.to_layout::<N>() {
            Ok(l) => l,
            Err(NestedError::NotFlat { mode }) => return Err(DlpackError::Blocked { mode }),
            Err(NestedError::RankMismatch { expected, found }) => {
                return Err(DlpackError::Layout(LayoutError::RankMismatch {
                    expected,
                    found,
                }));
            }
            Err(NestedError::Layout(e)) => return Err(DlpackError::Layout(e)),
            // `to_layout` names no other rule; a cut layout is not flat.
            Err(_) => return Err(DlpackError::Blocked { mode: 0 }),
        };
        Self::from_layout(&flat, dtype, shape, strides)
    }

    /// The view of a [`DynLayout`], as [`from_layout`](Self::from_layout); the buffers need at
    /// least `layout.rank()` entries.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::RankOverflow`] if a buffer is shorter than the rank; otherwise as
    ///   [`from_layout`](Self::from_layout).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{DynLayout, LayoutError};
    /// use strided_layout::dlpack::{DLDataType, DlpackError, DlpackView};
    /// let i8x1 = DLDataType { code: DLDataType::INT, bits: 8, lanes: 1 };
    /// let d = DynLayout::<4>::new(&[3], &[2], 1)?;
    /// let (mut shape, mut strides) = ([0; 4], [0; 4]);
    /// let v = DlpackView::from_dyn_layout(&d, i8x1, &mut shape, &mut strides)?;
    /// assert_eq!((v.shape, v.strides), (&[3][..], Some(&[2][..])));
    /// # Ok::<(), DlpackError>(())
    /// ```
    pub fn from_dyn_layout<const MAX: usize>(
        layout: &DynLayout<MAX>,
        dtype: DLDataType,
        shape: &'a mut [i64],
        strides: &'a mut [i64],
    ) -> Result<Self, DlpackError> {
        let rank = layout.rank();
        let max = shape.len().min(strides.len());
        let (Some(shape), Some(strides)) = (shape.get_mut(..rank), strides.get_mut(..rank)) else {
            return Err(DlpackError::Layout(LayoutError::RankOverflow { max }));
        };
        let (byte_offset, shape, strides) = Self::write(
            layout.shape(),
            layout.strides(),
            layout.offset(),
            layout.itemsize(),
            dtype,
            shape,
            strides,
        )?;
        Ok(Self {
            shape,
            strides: Some(strides),
            byte_offset,
            dtype,
        })
    }

    /// Writes extents and strides as `i64`; returns the byte offset and the filled buffers.
    fn write(
        shape: &[usize],
        strides: &[isize],
        offset: isize,
        itemsize: usize,
        dtype: DLDataType,
        shape_out: &'a mut [i64],
        strides_out: &'a mut [i64],
    ) -> Result<(u64, &'a [i64], &'a [i64]), DlpackError> {
        let found = dtype.itemsize()?;
        if found != itemsize {
            return Err(DlpackError::DtypeSizeMismatch {
                expected: itemsize,
                found,
            });
        }
        let Ok(offset) = u64::try_from(offset) else {
            return Err(DlpackError::Layout(LayoutError::NegativeOffset));
        };
        let size = u64::try_from(itemsize).map_err(|_| LayoutError::OffsetOverflow)?;
        // Invariant 3 of `Layout`: the offset in bytes fits isize, so it fits u64.
        let byte_offset = offset
            .checked_mul(size)
            .ok_or(LayoutError::OffsetOverflow)?;
        for (dst, &e) in shape_out.iter_mut().zip(shape) {
            *dst = i64::try_from(e).map_err(|_| LayoutError::VolumeOverflow)?;
        }
        for (dst, &s) in strides_out.iter_mut().zip(strides) {
            *dst = i64::try_from(s).map_err(|_| LayoutError::OffsetOverflow)?;
        }
        Ok((byte_offset, shape_out, strides_out))
    }

    /// A [`DLTensor`] for a consumer: `data`, `device`, this view's dtype and byte offset, and
    /// pointers to this view's `shape` and `strides` (null strides for `None`).
    ///
    /// The pointers borrow this view's slices: keep them alive while the consumer reads.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::RankOverflow`] if the rank does not fit `i32` (DLPack's `ndim`).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// use strided_layout::dlpack::{DLDataType, DLDevice, DlpackError, DlpackView};
    /// let f32x1 = DLDataType { code: DLDataType::FLOAT, bits: 32, lanes: 1 };
    /// let l = Layout::dense([2, 3], 4, Order::C)?;
    /// let (mut shape, mut strides) = ([0; 2], [0; 2]);
    /// let v = DlpackView::from_layout(&l, f32x1, &mut shape, &mut strides)?;
    /// let mut data = [0f32; 6];
    /// let cpu = DLDevice { device_type: DLDevice::CPU, device_id: 0 };
    /// let t = v.to_tensor(data.as_mut_ptr().cast(), cpu)?;
    /// assert_eq!((t.ndim, t.byte_offset), (2, 0));
    /// # Ok::<(), DlpackError>(())
    /// ```
    pub fn to_tensor(&self, data: *mut c_void, device: DLDevice) -> Result<DLTensor, DlpackError> {
        let ndim = i32::try_from(self.shape.len()).map_err(|_| LayoutError::RankOverflow {
            max: usize::try_from(i32::MAX).unwrap_or(usize::MAX),
        })?;
        Ok(DLTensor {
            data,
            device,
            ndim,
            dtype: self.dtype,
            // DLPack declares `int64_t*`; consumers only read through it.
            shape: self.shape.as_ptr().cast_mut(),
            strides: self
                .strides
                .map_or(core::ptr::null_mut(), |s| s.as_ptr().cast_mut()),
            byte_offset: self.byte_offset,
        })
    }
}

/// Why a DLPack conversion failed: a `dtype`, `shape` or `byte_offset` that DLPack allows and a
/// layout cannot take, or the rule the resulting layout would break.
///
/// A type of its own, not variants of [`LayoutError`]: code that reads tensors from other
/// frameworks matches DLPack's causes here, and the layout's rules through
/// [`DlpackError::Layout`]; the kernels' callers never see DLPack's. A [`LayoutError`]
/// converts into it (`?` works on both in one function), and `Display` gives the rule with its
/// payload.
///
/// # Examples
///
/// ```
/// use strided_layout::dlpack::{DLDataType, DlpackError};
/// let bad = DLDataType { code: DLDataType::INT, bits: 4, lanes: 1 };
/// assert_eq!(bad.itemsize(), Err(DlpackError::DtypeInvalid));
/// assert_eq!(
///     DlpackError::DtypeSizeMismatch { expected: 4, found: 2 }.to_string(),
///     "dtype size (bits * lanes / 8) is not the itemsize (expected 4, found 2)"
/// );
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum DlpackError {
    /// A `dtype` describes no whole number of bytes (`bits * lanes` is zero or not a multiple
    /// of 8).
    DtypeInvalid,
    /// A `dtype`'s size (`bits * lanes / 8`) is not the layout's itemsize.
    DtypeSizeMismatch {
        /// The layout's itemsize, in bytes.
        expected: usize,
        /// The dtype's size, in bytes.
        found: usize,
    },
    /// A `byte_offset` is not a multiple of the itemsize, so it is no element offset.
    ByteOffsetNotMultiple,
    /// A tensor's `shape` pointer is null while `ndim > 0`, or `ndim` is negative.
    ShapeUnreadable,
    /// The layout the tensor describes breaks one of its rules (a rank other than the one
    /// asked for, a negative extent, an offset past `isize`, ...).
    Layout(LayoutError),
    /// A nested layout's top-level mode `mode` is blocked (a tuple, or cut): DLPack describes
    /// one extent and one stride per axis, with no blocks.
    Blocked {
        /// The top-level mode.
        mode: usize,
    },
}

impl DlpackError {
    /// The rule this error names, without its payload (the layout rule's text for
    /// [`DlpackError::Layout`]).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::dlpack::DlpackError;
    /// use strided_layout::LayoutError;
    /// assert_eq!(DlpackError::ShapeUnreadable.as_str(), "shape pointer is null with ndim > 0, or ndim is negative");
    /// assert_eq!(DlpackError::Layout(LayoutError::NegativeOffset).as_str(), "minimum offset is negative");
    /// ```
    #[must_use]
    pub const fn as_str(&self) -> &'static str {
        match self {
            Self::DtypeInvalid => "dtype bits * lanes is zero or not a whole number of bytes",
            Self::DtypeSizeMismatch { .. } => "dtype size (bits * lanes / 8) is not the itemsize",
            Self::ByteOffsetNotMultiple => "byte offset is not a multiple of the itemsize",
            Self::ShapeUnreadable => "shape pointer is null with ndim > 0, or ndim is negative",
            Self::Layout(e) => e.as_str(),
            Self::Blocked { .. } => {
                "a blocked mode has no DLPack form (one extent and stride an axis)"
            }
        }
    }
}

impl From<LayoutError> for DlpackError {
    fn from(e: LayoutError) -> Self {
        Self::Layout(e)
    }
}

impl fmt::Display for DlpackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::DtypeSizeMismatch { expected, found } => {
                write!(f, "{} (expected {expected}, found {found})", self.as_str())
            }
            Self::Layout(e) => fmt::Display::fmt(e, f),
            Self::Blocked { mode } => write!(f, "{} (mode {mode})", self.as_str()),
            _ => f.write_str(self.as_str()),
        }
    }
}

impl core::error::Error for DlpackError {}
