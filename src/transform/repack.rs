//! [`Layout::repacked`]: view the same bytes with a different itemsize (CuTe
//! `recast`/upcast/downcast, cuda.core `repacked`).

use crate::algo::checked::tri;
use crate::algo::repack::repack_into;
use crate::{Layout, LayoutError};

impl<const N: usize> Layout<N> {
    /// Returns the layout of the same bytes seen as elements of `itemsize` bytes, regrouped
    /// along `axis` (negative counts from the end, `-1` is the last); the axis is kept.
    ///
    /// ```text
    /// (2,4):(4,1) x2B        repacked(4, 0, -1) -> (2,2):(2,1) x4B
    ///  0 1 2 3                0 1       (byte offsets 0..16 unchanged)
    ///  4 5 6 7                2 3
    /// ```
    ///
    /// Packing (`itemsize > self.itemsize()`, factor `f = itemsize / self.itemsize()`)
    /// divides the extent at `axis`, the other strides and the offset by `f`; unpacking
    /// multiplies them. The same itemsize returns the layout unchanged (only `itemsize` and
    /// `axis` are checked), as cuda.core does for a factor of 1.
    ///
    /// The rules, and the order they are checked in, are cuda.core's documented ones; the
    /// error of the first rule broken is returned. (cuda.core's sources have checked the
    /// pointer and the axis stride in other orders across versions; this crate follows the
    /// documentation.) `data_ptr` is the address of the buffer the offset counts from; pass
    /// 0 to skip the alignment rule.
    ///
    /// Differences from cuda.core: both itemsizes must be powers of two, so one always
    /// divides the other and the factor is exact (never rounded); a factor of 1 returns the
    /// layout unchanged as in cuda.core, but an out-of-range `axis` is still an error; both
    /// directions are one method and the axis is always kept (cuda.core's
    /// `keep_dim=False` is a squeeze of the result); the offset is part of the layout, so
    /// its divisibility is checked here rather than on a separate sliced view.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::ItemsizeNotPowerOfTwo`] if `itemsize` is 0 or not a power of two;
    /// - [`LayoutError::SignedAxisOutOfRange`] if `axis` is not in `-N..N` (the payload is
    ///   the axis as given, a negative one included);
    /// - [`LayoutError::ExtentZero`] if the extent at `axis` is 0;
    /// - [`LayoutError::StrideNotOne`] if the stride at `axis` is not 1;
    /// - when packing: [`LayoutError::ExtentNotDivisible`] (extent at `axis`),
    ///   [`LayoutError::StrideNotDivisible`] (first other axis whose stride is not a multiple
    ///   of `f`), [`LayoutError::OffsetNotDivisible`], [`LayoutError::PointerMisaligned`]
    ///   (`data_ptr` not a multiple of `itemsize`);
    /// - when unpacking: [`LayoutError::VolumeOverflow`] if the volume times the factor
    ///   overflows `usize` (possible only with large broadcast axes; byte offsets do not
    ///   change, and the last byte of a valid layout ends at most at `isize::MAX`, so no
    ///   offset can overflow).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([5, 4], 4, Order::C)?;
    /// assert_eq!(l.repacked(2, 0, -1)?, Layout::dense([5, 8], 2, Order::C)?);
    /// assert_eq!(l.repacked(8, 0, -1)?, Layout::dense([5, 2], 8, Order::C)?);
    /// assert_eq!(l.repacked(16, 0, -1)?, Layout::dense([5, 1], 16, Order::C)?);
    /// assert_eq!(l.repacked(32, 0, -1), Err(LayoutError::ExtentNotDivisible { axis: 1 }));
    /// assert_eq!(l.repacked(8, 4, -1), Err(LayoutError::PointerMisaligned));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `r.volume() * r.itemsize() == self.volume() * self.itemsize()`;
    /// - the set of bytes covered (each element offset times the itemsize, plus `0..itemsize`)
    ///   is the same before and after;
    /// - when `data_ptr` is a multiple of `self.itemsize()` (always so after a successful
    ///   packing, which checked it): `r.repacked(self.itemsize(), data_ptr, axis)` is `self`
    ///   up to the strides of extent-1 axes, which no offset reads (repacking `(1):(-3) x4B`
    ///   to bytes gives `(4):(1) x1B`, and back `(1):(1) x4B`).
    ///   Unpacking does not read `data_ptr`, so it succeeds on a pointer misaligned for
    ///   `self.itemsize()`, and then the way back is [`LayoutError::PointerMisaligned`].
    pub const fn repacked(
        self,
        itemsize: usize,
        data_ptr: usize,
        axis: isize,
    ) -> Result<Self, LayoutError> {
        let mut shape = [0usize; N];
        let mut strides = [0isize; N];
        let offset = tri!(repack_into(
            self.parts(),
            itemsize,
            data_ptr,
            axis,
            &mut shape,
            &mut strides
        ));
        Self::from_parts(shape, strides, offset, itemsize)
    }
}
