//! Byte-level answers for a GPU or DMA host: offsets, spans and index-type fits in bytes.

use num_traits::{NumCast, PrimInt};

use super::checked::{add, mul, to_isize, tri};
use super::offset::{bounds, offset_of};
use super::parts::Parts;
use crate::LayoutError;

/// `offset * itemsize`, for an offset that is an element offset of a valid layout.
///
/// Invariant 3: every element offset in bytes fits `isize`, so the checked product always
/// succeeds; `OffsetOverflow` is kept for checked arithmetic only.
pub(crate) const fn to_bytes(offset: isize, itemsize: usize) -> Result<isize, LayoutError> {
    mul(offset, tri!(to_isize(itemsize)))
}

/// The byte offset of `index`: [`offset_of`] times the itemsize.
pub(crate) const fn offset_of_in_bytes(
    p: Parts<'_>,
    index: &[usize],
) -> Result<isize, LayoutError> {
    to_bytes(tri!(offset_of(p, index)), p.itemsize())
}

/// `Ok` value of a result, or `return None`.
macro_rules! tri_opt {
    ($e:expr) => {
        match $e {
            Ok(v) => v,
            Err(_) => return None,
        }
    };
}

/// The first and the last byte (inclusive) that any element covers, `None` when empty.
///
/// The last byte is `max * itemsize + itemsize - 1`. It fits `isize`: `max * itemsize` does
/// (invariant 3) and is a multiple of the itemsize, a power of two `p`, and the largest
/// multiple of `p` not above `isize::MAX = 2^k - 1` is `2^k - p`, so adding `p - 1` stays at
/// most `isize::MAX`. The checked steps therefore never fail on a valid layout.
pub(crate) const fn byte_span(p: Parts<'_>) -> Option<(isize, isize)> {
    match bounds(p) {
        Ok(b) => byte_span_of(b, p.itemsize()),
        Err(_) => None,
    }
}

/// [`byte_span`] from the element offset bounds of any layout kind.
pub(crate) const fn byte_span_of(
    bounds: Option<(isize, isize)>,
    itemsize: usize,
) -> Option<(isize, isize)> {
    let Some((lo, hi)) = bounds else {
        return None;
    };
    let (Ok(first), Ok(last_start)) = (to_bytes(lo, itemsize), to_bytes(hi, itemsize)) else {
        return None;
    };
    let Ok(last) = add(last_start, tri_opt!(to_isize(itemsize.saturating_sub(1)))) else {
        return None;
    };
    Some((first, last))
}

/// Whether `I` holds every extent, every byte stride, the byte offset and both ends of the
/// byte span.
pub(crate) fn fits_in_bytes<I: PrimInt>(p: Parts<'_>) -> bool {
    fits_in_bytes_of::<I>(p, bounds(p).ok().flatten())
}

/// [`fits_in_bytes`] for the parts of any layout kind and its element offset `bounds`.
pub(crate) fn fits_in_bytes_of<I: PrimInt>(p: Parts<'_>, bounds: Option<(isize, isize)>) -> bool {
    let itemsize = p.itemsize();
    let fits_i = |v: isize| <I as NumCast>::from(v).is_some();
    let fits_u = |v: usize| <I as NumCast>::from(v).is_some();
    let bytes_fit = |v: isize| to_bytes(v, itemsize).is_ok_and(fits_i);
    p.shape().iter().all(|&e| fits_u(e))
        && p.strides().iter().all(|&s| bytes_fit(s))
        && bytes_fit(p.offset())
        && byte_span_of(bounds, itemsize).is_none_or(|(lo, hi)| fits_i(lo) && fits_i(hi))
}
