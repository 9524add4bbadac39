//! Repacking (changing the itemsize, CuTe upcast/downcast) and the largest compatible
//! itemsize, on slices.
//!
//! [`repack_into`] runs cuda.core's rules in the order its documentation lists them;
//! [`max_compatible_itemsize`] tries the powers of two from the largest down through that
//! same function plus the invariant check, so it returns exactly the largest itemsize that
//! `repacked` accepts.

use super::access::set;
use super::axis::normalize_axis;
use super::checked::{mul, mul_volume, to_isize, tri};
use super::offset::validate;
use super::parts::Parts;
use crate::LayoutError;

/// Writes the layout `p` (itemsize `p.itemsize()`) re-described with itemsize `new` into
/// `out_shape`/`out_strides` (both as long as the rank) and returns the new offset.
///
/// Checks, in cuda.core's order: `new`, then the current itemsize, are powers of two
/// (`ItemsizeNotPowerOfTwo`); `axis` names an axis, negatives counting from the end
/// (`SignedAxisOutOfRange`); with equal itemsizes nothing else is checked. Then the axis has
/// elements (`ExtentZero`) and stride 1 (`StrideNotOne`; an extent-1 axis passes, its stride is
/// never used). Packing (`new > old`, factor `f = new / old`) also needs the axis extent, every
/// other stride and the offset divisible by `f` (`ExtentNotDivisible`, `StrideNotDivisible`,
/// `OffsetNotDivisible`; strides of extent-1 axes are exempt and become 0 when `f` does not
/// divide them) and `data_ptr` aligned to `new` (`PointerMisaligned`). Unpacking multiplies.
pub(crate) const fn repack_into(
    p: Parts<'_>,
    new: usize,
    data_ptr: usize,
    axis: isize,
    out_shape: &mut [usize],
    out_strides: &mut [isize],
) -> Result<isize, LayoutError> {
    let n = p.rank();
    if out_shape.len() != n || out_strides.len() != n {
        return Err(LayoutError::RankMismatch {
            expected: n,
            found: out_shape.len(),
        });
    }
    let old = p.itemsize();
    if !new.is_power_of_two() {
        return Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: new });
    }
    if !old.is_power_of_two() {
        return Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: old });
    }
    let ax = tri!(normalize_axis(axis, n));
    let mut i = 0;
    while i < n {
        let (extent, stride) = p.axis(i);
        set(out_shape, i, extent);
        set(out_strides, i, stride);
        i = i.saturating_add(1);
    }
    let offset = p.offset();
    if new == old {
        return Ok(offset);
    }
    let (extent, stride) = p.axis(ax);
    if extent == 0 {
        return Err(LayoutError::ExtentZero { axis: ax });
    }
    if stride != 1 && extent != 1 {
        return Err(LayoutError::StrideNotOne { axis: ax });
    }
    set(out_strides, ax, 1);
    if new > old {
        // Both are powers of two and `new > old >= 1`: the quotient is exact and >= 2.
        let Some(f) = new.checked_div(old) else {
            return Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: old });
        };
        if !extent.is_multiple_of(f) {
            return Err(LayoutError::ExtentNotDivisible { axis: ax });
        }
        let fi = tri!(to_isize(f));
        i = 0;
        while i < n {
            let (e, s) = p.axis(i);
            // `fi >= 2`: the checked `%` and `/` cannot fail, and `/` is exact where used.
            if i != ax {
                if let (Some(0), Some(q)) = (s.checked_rem(fi), s.checked_div(fi)) {
                    set(out_strides, i, q);
                } else if e == 1 {
                    // Never read: any stride describes the same offsets.
                    set(out_strides, i, 0);
                } else {
                    return Err(LayoutError::StrideNotDivisible { axis: i });
                }
            }
            i = i.saturating_add(1);
        }
        let (Some(0), Some(off)) = (offset.checked_rem(fi), offset.checked_div(fi)) else {
            return Err(LayoutError::OffsetNotDivisible);
        };
        if !data_ptr.is_multiple_of(new) {
            return Err(LayoutError::PointerMisaligned);
        }
        if let Some(q) = extent.checked_div(f) {
            set(out_shape, ax, q);
        }
        return Ok(off);
    }
    // Unpacking: `old > new >= 1`, both powers of two, so the quotient is exact and >= 2.
    let Some(f) = old.checked_div(new) else {
        return Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: new });
    };
    let fi = tri!(to_isize(f));
    set(out_shape, ax, tri!(mul_volume(extent, f)));
    i = 0;
    while i < n {
        if i != ax {
            set(out_strides, i, tri!(mul(p.stride(i), fi)));
        }
        i = i.saturating_add(1);
    }
    mul(offset, fi)
}

/// The largest itemsize, a power of two at most `max_itemsize`, that [`repack_into`] accepts
/// and whose result keeps the invariants; `out_*` are scratch as long as the rank.
///
/// A candidate `data_ptr` is not aligned to is skipped, the current itemsize included, so a
/// misaligned pointer never gets an answer that invites misaligned reads: the answer is then
/// the largest alignment of the pointer that unpacking reaches (cuda.core's gcd rule), or
/// `PointerMisaligned` when there is none (where cuda.core answers the current itemsize).
/// With an aligned pointer and no accepted candidate, the error is that of candidate 1.
pub(crate) const fn max_compatible_itemsize(
    p: Parts<'_>,
    max_itemsize: usize,
    data_ptr: usize,
    axis: isize,
    out_shape: &mut [usize],
    out_strides: &mut [isize],
) -> Result<usize, LayoutError> {
    if !max_itemsize.is_power_of_two() {
        return Err(LayoutError::ItemsizeNotPowerOfTwo {
            itemsize: max_itemsize,
        });
    }
    tri!(normalize_axis(axis, p.rank()));
    let mut cand = max_itemsize;
    let mut last = LayoutError::PointerMisaligned;
    loop {
        if data_ptr.is_multiple_of(cand) {
            let r = repack_into(p, cand, data_ptr, axis, out_shape, out_strides);
            last = match r {
                Ok(off) => match Parts::new(out_shape, out_strides, off, cand) {
                    Ok(q) => match validate(q) {
                        Ok(_) => return Ok(cand),
                        Err(e) => e,
                    },
                    Err(e) => e,
                },
                Err(e) => e,
            };
        }
        if cand <= 1 {
            if !data_ptr.is_multiple_of(p.itemsize()) {
                return Err(LayoutError::PointerMisaligned);
            }
            return Err(last);
        }
        cand /= 2;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::{vec, vec::Vec};

    fn repack(
        shape: &[usize],
        strides: &[isize],
        offset: isize,
        old: usize,
        new: usize,
        ptr: usize,
        axis: isize,
    ) -> Result<(Vec<usize>, Vec<isize>, isize), LayoutError> {
        let mut sh = vec![0; shape.len()];
        let mut st = vec![0; shape.len()];
        let p = Parts::new(shape, strides, offset, old)?;
        let off = repack_into(p, new, ptr, axis, &mut sh, &mut st)?;
        Ok((sh, st, off))
    }

    #[test]
    fn repack_matches_cuda_core_examples() {
        // dense (5, 4) of 4-byte items as 2, 8 and 16 bytes.
        assert_eq!(
            repack(&[5, 4], &[4, 1], 0, 4, 2, 0, -1),
            Ok((vec![5, 8], vec![8, 1], 0))
        );
        assert_eq!(
            repack(&[5, 4], &[4, 1], 0, 4, 8, 0, -1),
            Ok((vec![5, 2], vec![2, 1], 0))
        );
        assert_eq!(
            repack(&[5, 4], &[4, 1], 0, 4, 16, 0, -1),
            Ok((vec![5, 1], vec![1, 1], 0))
        );
    }

    #[test]
    fn repack_checks_run_in_documented_order() {
        // Everything wrong at once: the itemsize is reported first, then each later rule.
        let (sh, st) = (&[0usize, 3][..], &[3isize, 2][..]);
        assert_eq!(
            repack(sh, st, 1, 1, 3, 1, 5),
            Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: 3 })
        );
        assert_eq!(
            repack(sh, st, 1, 1, 4, 1, 5),
            Err(LayoutError::SignedAxisOutOfRange { axis: 5, ndim: 2 })
        );
        assert_eq!(
            repack(&[0, 3], &[3, 2], 1, 1, 4, 1, 1),
            Err(LayoutError::StrideNotOne { axis: 1 })
        );
        assert_eq!(
            repack(&[3, 0], &[3, 2], 1, 1, 4, 1, 1),
            Err(LayoutError::ExtentZero { axis: 1 })
        );
        assert_eq!(
            repack(&[3, 3], &[3, 1], 1, 1, 4, 1, 1),
            Err(LayoutError::ExtentNotDivisible { axis: 1 })
        );
        assert_eq!(
            repack(&[3, 4], &[3, 1], 1, 1, 4, 1, 1),
            Err(LayoutError::StrideNotDivisible { axis: 0 })
        );
        assert_eq!(
            repack(&[3, 4], &[4, 1], 1, 1, 4, 1, 1),
            Err(LayoutError::OffsetNotDivisible)
        );
        assert_eq!(
            repack(&[3, 4], &[4, 1], 4, 1, 4, 1, 1),
            Err(LayoutError::PointerMisaligned)
        );
        assert_eq!(
            repack(&[3, 4], &[4, 1], 4, 1, 4, 8, 1),
            Ok((vec![3, 1], vec![1, 1], 1))
        );
    }

    #[test]
    fn max_compatible_tries_down_to_the_current_itemsize() {
        let (mut sh, mut st) = ([0usize; 2], [0isize; 2]);
        let m = |ptr, max, sh: &mut [usize], st: &mut [isize]| {
            max_compatible_itemsize(
                Parts::from_arrays(&[3, 8], &[8, 1], 0, 2),
                max,
                ptr,
                -1,
                sh,
                st,
            )
        };
        assert_eq!(m(0, 64, &mut sh, &mut st), Ok(16));
        assert_eq!(m(4, 64, &mut sh, &mut st), Ok(4));
        // A pointer misaligned for the itemsize 2: only unpacking to 1 is compatible.
        assert_eq!(m(1, 64, &mut sh, &mut st), Ok(1));
        assert_eq!(m(6, 64, &mut sh, &mut st), Ok(2));
        assert_eq!(m(0, 1, &mut sh, &mut st), Ok(1));
        assert_eq!(
            max_compatible_itemsize(
                Parts::from_arrays(&[3, 8], &[1, 3], 0, 2),
                1,
                0,
                -1,
                &mut sh,
                &mut st
            ),
            Err(LayoutError::StrideNotOne { axis: 1 })
        );
        // Misaligned for the itemsize 2 and an axis that cannot unpack: no answer at all
        // (cuda.core answers the itemsize 2 here).
        assert_eq!(
            max_compatible_itemsize(
                Parts::from_arrays(&[3, 8], &[1, 3], 0, 2),
                16,
                1,
                -1,
                &mut sh,
                &mut st
            ),
            Err(LayoutError::PointerMisaligned)
        );
    }
}
