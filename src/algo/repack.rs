//! Repacking (changing the itemsize, CuTe upcast/downcast) and the largest compatible
//! itemsize, on slices.
//!
//! [`repack_into`] runs cuda.core's rules in the order its documentation lists them;
//! [`max_compatible_itemsize`] tries the powers of two from the largest down through that
//! same function plus the invariant check, so it returns exactly the largest itemsize that
//! `repacked` accepts.

use super::checked::{mul, mul_volume, to_isize, tri};
use super::offset::validate;
use crate::LayoutError;

/// Normalises a possibly negative axis (`-1` is the last) against rank `n`.
///
/// An out-of-range axis is `AxisOutOfRange`; its payload is the axis for a non-negative
/// one, and its magnitude for a negative one (`axis` is a `usize`).
pub(crate) const fn normalize_axis(axis: isize, n: usize) -> Result<usize, LayoutError> {
    let mag = axis.unsigned_abs();
    if axis >= 0 {
        if mag < n {
            return Ok(mag);
        }
    } else if mag <= n {
        // `1 <= mag <= n`, so `n - mag` cannot wrap.
        return Ok(n - mag);
    }
    Err(LayoutError::AxisOutOfRange { axis: mag, ndim: n })
}

/// Repacks a layout given as slices from `old` to `new` bytes per element along `axis`,
/// writing the result into `out_shape` / `out_strides` (same length); returns the new offset.
///
/// Checks, in this order (cuda.core's documented order):
/// 1. `new` is a power of two (`ItemsizeNotPowerOfTwo`); `old` is one by the invariants;
/// 2. `axis` is in `-n..n` (`AxisOutOfRange`);
/// 3. `new == old` is the identity: the layout is copied unchanged;
/// 4. the extent at `axis` is positive (`ExtentZero`), its stride is 1 (`StrideNotOne`);
/// 5. packing (`new > old`, factor `f = new / old`): the extent at `axis` is divisible by `f`
///    (`ExtentNotDivisible`), every other stride is (`StrideNotDivisible`, first axis
///    first), the offset is (`OffsetNotDivisible`), and `data_ptr` is a multiple of `new`
///    (`PointerMisaligned`);
/// 6. unpacking (`new < old`, `f = old / new`): the extent at `axis`, the other strides
///    and the offset are multiplied by `f` (`VolumeOverflow` / `OffsetOverflow` if that
///    overflows).
///
/// The caller re-checks the layout invariants on the result.
#[allow(clippy::too_many_arguments)]
pub(crate) const fn repack_into(
    shape: &[usize],
    strides: &[isize],
    offset: isize,
    old: usize,
    new: usize,
    data_ptr: usize,
    axis: isize,
    out_shape: &mut [usize],
    out_strides: &mut [isize],
) -> Result<isize, LayoutError> {
    let n = shape.len();
    if strides.len() != n || out_shape.len() != n || out_strides.len() != n {
        return Err(LayoutError::RankMismatch {
            expected: n,
            found: out_shape.len(),
        });
    }
    if !new.is_power_of_two() {
        return Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: new });
    }
    if !old.is_power_of_two() {
        return Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: old });
    }
    let ax = tri!(normalize_axis(axis, n));
    let mut i = 0;
    while i < n {
        out_shape[i] = shape[i];
        out_strides[i] = strides[i];
        i += 1;
    }
    if new == old {
        return Ok(offset);
    }
    if shape[ax] == 0 {
        return Err(LayoutError::ExtentZero { axis: ax });
    }
    if strides[ax] != 1 {
        return Err(LayoutError::StrideNotOne { axis: ax });
    }
    if new > old {
        // Both are powers of two and `new > old >= 1`: the quotient is exact and >= 2.
        let f = new / old;
        if !shape[ax].is_multiple_of(f) {
            return Err(LayoutError::ExtentNotDivisible { axis: ax });
        }
        let fi = tri!(to_isize(f));
        i = 0;
        while i < n {
            if i != ax && strides[i] % fi != 0 {
                return Err(LayoutError::StrideNotDivisible { axis: i });
            }
            i += 1;
        }
        if offset % fi != 0 {
            return Err(LayoutError::OffsetNotDivisible);
        }
        if !data_ptr.is_multiple_of(new) {
            return Err(LayoutError::PointerMisaligned);
        }
        // Every division below is exact (checked above) by `fi >= 2`, so none overflows.
        i = 0;
        while i < n {
            if i != ax {
                out_strides[i] = strides[i] / fi;
            }
            i += 1;
        }
        out_shape[ax] = shape[ax] / f;
        return Ok(offset / fi);
    }
    // Unpacking: `old > new >= 1`, both powers of two, so the quotient is exact and >= 2.
    let f = old / new;
    let fi = tri!(to_isize(f));
    out_shape[ax] = tri!(mul_volume(shape[ax], f));
    i = 0;
    while i < n {
        if i != ax {
            out_strides[i] = tri!(mul(strides[i], fi));
        }
        i += 1;
    }
    mul(offset, fi)
}

/// The largest power of two `<= max_itemsize` that [`repack_into`] followed by the
/// invariant check accepts; `out_shape` / `out_strides` are scratch of the layout's rank.
///
/// `max_itemsize` must be a power of two (`ItemsizeNotPowerOfTwo`) and `axis` in range
/// (`AxisOutOfRange`). Candidates start at cuda.core's `gcd(max_itemsize, data_ptr)`, so a
/// `data_ptr` not aligned to `old` is never answered `old`. When `max_itemsize >= old` and
/// `data_ptr` is aligned to `old`, the answer is at least `old` (the identity always
/// succeeds). When no candidate is accepted (the axis cannot be unpacked, and
/// `max_itemsize < old` or `data_ptr` is misaligned for `old`), the error is
/// `PointerMisaligned` for a misaligned pointer, else the error of the last candidate
/// tried, 1.
#[allow(clippy::too_many_arguments)]
pub(crate) const fn max_compatible_itemsize(
    shape: &[usize],
    strides: &[isize],
    offset: isize,
    old: usize,
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
    tri!(normalize_axis(axis, shape.len()));
    // cuda.core's gcd rule: no itemsize above `data_ptr`'s alignment is compatible. For a
    // power-of-two `max_itemsize`, gcd(max_itemsize, data_ptr) is the smaller of it and
    // the lowest set bit of `data_ptr` (0 has every bit clear: no limit). With a pointer
    // misaligned for `old` this starts below `old`, so the identity (which checks no
    // pointer) is never the answer; only unpacking can be.
    let align = data_ptr & data_ptr.wrapping_neg();
    let mut cand = if align != 0 && align < max_itemsize {
        align
    } else {
        max_itemsize
    };
    loop {
        let r = repack_into(
            shape,
            strides,
            offset,
            old,
            cand,
            data_ptr,
            axis,
            out_shape,
            out_strides,
        );
        let err = match r {
            Ok(off) => match validate(out_shape, out_strides, off, cand) {
                Ok(_) => return Ok(cand),
                Err(e) => e,
            },
            Err(e) => e,
        };
        if cand == 1 {
            if !data_ptr.is_multiple_of(old) {
                return Err(LayoutError::PointerMisaligned);
            }
            return Err(err);
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
        let off = repack_into(
            shape, strides, offset, old, new, ptr, axis, &mut sh, &mut st,
        )?;
        Ok((sh, st, off))
    }

    #[test]
    fn normalize_axis_counts_negatives_from_the_end() {
        assert_eq!(normalize_axis(-1, 3), Ok(2));
        assert_eq!(normalize_axis(-3, 3), Ok(0));
        assert_eq!(normalize_axis(2, 3), Ok(2));
        assert_eq!(
            normalize_axis(3, 3),
            Err(LayoutError::AxisOutOfRange { axis: 3, ndim: 3 })
        );
        assert_eq!(
            normalize_axis(-4, 3),
            Err(LayoutError::AxisOutOfRange { axis: 4, ndim: 3 })
        );
        assert_eq!(
            normalize_axis(-1, 0),
            Err(LayoutError::AxisOutOfRange { axis: 1, ndim: 0 })
        );
        assert_eq!(
            normalize_axis(isize::MIN, 3),
            Err(LayoutError::AxisOutOfRange {
                axis: isize::MIN.unsigned_abs(),
                ndim: 3
            })
        );
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
            Err(LayoutError::AxisOutOfRange { axis: 5, ndim: 2 })
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
            max_compatible_itemsize(&[3, 8], &[8, 1], 0, 2, max, ptr, -1, sh, st)
        };
        assert_eq!(m(0, 64, &mut sh, &mut st), Ok(16));
        assert_eq!(m(4, 64, &mut sh, &mut st), Ok(4));
        // A pointer misaligned for the itemsize 2: only unpacking to 1 is compatible.
        assert_eq!(m(1, 64, &mut sh, &mut st), Ok(1));
        assert_eq!(m(6, 64, &mut sh, &mut st), Ok(2));
        assert_eq!(m(0, 1, &mut sh, &mut st), Ok(1));
        assert_eq!(
            max_compatible_itemsize(&[3, 8], &[1, 3], 0, 2, 1, 0, -1, &mut sh, &mut st),
            Err(LayoutError::StrideNotOne { axis: 1 })
        );
        // Misaligned for the itemsize 2 and an axis that cannot unpack: no answer at all
        // (cuda.core answers the itemsize 2 here).
        assert_eq!(
            max_compatible_itemsize(&[3, 8], &[1, 3], 0, 2, 16, 1, -1, &mut sh, &mut st),
            Err(LayoutError::PointerMisaligned)
        );
    }
}
