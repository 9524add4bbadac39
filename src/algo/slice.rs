//! Python slice normalisation and strided slicing, on scalars and slices.
//!
//! [`normalize`] is `CPython`'s `PySlice_Unpack` + `PySlice_AdjustIndices` for one axis,
//! written with `usize` positions so that extents above `isize::MAX` (legal on broadcast
//! axes) need no wider integer. [`slice_into`] applies one [`Slice`] per axis the way
//! cuda.core's `base_layout_slice` does.

use super::access::{get, set};
use super::checked::{offset_after_or_keep, tri};
use super::parts::Parts;
use crate::{LayoutError, Slice};

/// One axis after normalisation: the picked indices are `start + k * step` for `k < len`.
///
/// `start` is 0 when `len` is 0 (Python's own `start` for an empty slice may be `-1` or
/// the extent; it picks nothing, so it is not kept).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SliceRange {
    /// First picked index (`< extent` when `len > 0`).
    pub(crate) start: usize,
    /// Number of picked indices (`<= extent`).
    pub(crate) len: usize,
    /// Distance between picked indices (never 0, never `isize::MIN`).
    pub(crate) step: isize,
}

/// A bound clamped into `0..=extent` for a positive step (`CPython`: negative counts from the
/// end, then clamp to `[0, extent]`).
const fn clamp_forward(bound: isize, extent: usize) -> usize {
    if bound < 0 {
        let back = bound.unsigned_abs();
        extent.saturating_sub(back)
    } else {
        #[expect(
            clippy::cast_sign_loss,
            reason = "`bound >= 0`, so the cast is lossless."
        )]
        let b = bound as usize;
        if b > extent { extent } else { b }
    }
}

/// A bound for a negative step, as `index + 1` in `0..=extent` (so `CPython`'s `-1`, "before
/// the first element", is 0): negative counts from the end, then clamp to `[-1, extent-1]`.
const fn clamp_backward(bound: isize, extent: usize) -> usize {
    if bound < 0 {
        let back = bound.unsigned_abs();
        #[expect(
            clippy::arithmetic_side_effects,
            reason = "index = extent - back, which is -1 or less when back > extent. Otherwise `1 <= back <= extent`, so `extent - back + 1 <= extent`: nothing wraps."
        )]
        if back > extent { 0 } else { extent - back + 1 }
    } else {
        #[expect(
            clippy::cast_sign_loss,
            reason = "`bound >= 0`, so the cast is lossless."
        )]
        let b = bound as usize;
        #[expect(
            clippy::arithmetic_side_effects,
            reason = "index = min(b, extent - 1); as index + 1 that is min(b + 1, extent). `b < extent` in the second arm, so `b + 1` cannot overflow."
        )]
        if b >= extent { extent } else { b + 1 }
    }
}

/// How many of `lo, lo + by, ..` lie below `hi`, for `lo < hi` and `by >= 1`:
/// `(hi - lo - 1) / by + 1`, which is at most `hi - lo`, so nothing can overflow.
const fn count(lo: usize, hi: usize, by: usize) -> usize {
    match (hi.saturating_sub(lo).saturating_sub(1)).checked_div(by) {
        Some(q) => q.saturating_add(1),
        None => 0,
    }
}

/// Normalises `start:stop:step` against an axis of `extent` with Python's rules; `None`
/// when `step == 0`.
///
/// `None` bounds are the ends in the step's direction, negative bounds count from the end,
/// out-of-range bounds clamp, and a step of `isize::MIN` is read as `-isize::MAX` (`CPython`
/// clamps the step the same way so that it can be negated).
#[expect(
    clippy::similar_names,
    reason = "`start`/`stop`/`step` are Python's names"
)]
pub(crate) const fn normalize(
    extent: usize,
    start: Option<isize>,
    stop: Option<isize>,
    step: isize,
) -> Option<SliceRange> {
    if step == 0 {
        return None;
    }
    if step > 0 {
        let lo = match start {
            Some(b) => clamp_forward(b, extent),
            None => 0,
        };
        let hi = match stop {
            Some(b) => clamp_forward(b, extent),
            None => extent,
        };
        #[expect(
            clippy::cast_sign_loss,
            reason = "`step > 0`, so the cast is lossless and nonzero."
        )]
        let by = step as usize;
        if lo < hi {
            return Some(SliceRange {
                start: lo,
                len: count(lo, hi, by),
                step,
            });
        }
        return Some(SliceRange {
            start: 0,
            len: 0,
            step,
        });
    }
    let step = if step == isize::MIN {
        -isize::MAX
    } else {
        step
    };
    // Positions are `index + 1`: `hi` is the first picked index + 1, `lo` the stop + 1.
    let hi = match start {
        Some(b) => clamp_backward(b, extent),
        None => extent,
    };
    let lo = match stop {
        Some(b) => clamp_backward(b, extent),
        None => 0,
    };
    let by = step.unsigned_abs();
    if lo < hi {
        return Some(SliceRange {
            // `lo < hi`, so `hi - 1` cannot wrap.
            start: hi.saturating_sub(1),
            len: count(lo, hi, by),
            step,
        });
    }
    Some(SliceRange {
        start: 0,
        len: 0,
        step,
    })
}

/// Slices a layout given as slices, one [`Slice`] per axis, writing the new shape and
/// strides into `out_shape` / `out_strides` (same length as `shape`); returns the new offset.
///
/// Follows cuda.core's `base_layout_slice`:
/// - an axis whose slice keeps every index in order (`len == extent`, `step == 1`) keeps its
///   stride and does not move the offset;
/// - otherwise the stride becomes `stride * step` and, when the axis keeps at least one
///   index, the offset moves by `start * stride`;
/// - if some axis is emptied that way, every stride of the result is 0 (the emptied axis
///   does not move the offset; the others still do).
///
/// Errors: `RankMismatch` for slices of the wrong length, `ZeroStep { axis }`, and
/// `OffsetOverflow` if a new stride or the offset overflows `isize` (the strides of an
/// emptied result are never computed, so they cannot overflow).
pub(crate) const fn slice_into(
    p: Parts<'_>,
    slices: &[Slice],
    out_shape: &mut [usize],
    out_strides: &mut [isize],
) -> Result<isize, LayoutError> {
    let n = p.rank();
    if slices.len() != n {
        return Err(LayoutError::RankMismatch {
            expected: n,
            found: slices.len(),
        });
    }
    if out_shape.len() != n || out_strides.len() != n {
        return Err(LayoutError::RankMismatch {
            expected: n,
            found: out_shape.len(),
        });
    }
    // Pass 1: normalise every axis (so a zero step anywhere is reported first) and find
    // whether the result is emptied by a slice.
    let mut emptied = false;
    let mut i = 0;
    while let Some(s) = get(slices, i) {
        let extent = p.extent(i);
        let Some(r) = normalize(extent, s.start, s.stop, s.step) else {
            return Err(LayoutError::ZeroStep { axis: i });
        };
        set(out_shape, i, r.len);
        let identity = r.len == extent && r.step == 1;
        if !identity && r.len == 0 {
            emptied = true;
        }
        i = i.saturating_add(1);
    }
    // Pass 2: strides and offset.
    let mut off = p.offset();
    i = 0;
    while let Some(s) = get(slices, i) {
        let (extent, stride) = p.axis(i);
        let Some(r) = normalize(extent, s.start, s.stop, s.step) else {
            return Err(LayoutError::ZeroStep { axis: i });
        };
        let identity = r.len == extent && r.step == 1;
        let new_stride = if emptied {
            0
        } else if identity {
            stride
        } else {
            match stride.checked_mul(r.step) {
                Some(v) => v,
                // A stride an axis of one element never uses: any value is right.
                None if r.len <= 1 => 0,
                None => return Err(LayoutError::OffsetOverflow),
            }
        };
        set(out_strides, i, new_stride);
        if !identity && r.len > 0 {
            // The offset of an element of the result: it fits `isize` on a valid layout. With
            // no element anywhere it is never read, and stays where the move would overflow.
            off = tri!(offset_after_or_keep(
                off,
                r.start,
                stride,
                emptied || p.has_zero_extent(),
                p.itemsize()
            ));
        }
        i = i.saturating_add(1);
    }
    Ok(off)
}

#[cfg(test)]
#[expect(
    clippy::cast_sign_loss,
    clippy::cast_possible_wrap,
    clippy::similar_names,
    reason = "the model casts small test extents and steps; `start`/`stop` read as Python names them"
)]
mod tests {
    use super::*;
    use std::{vec, vec::Vec};

    fn picks(extent: usize, start: Option<isize>, stop: Option<isize>, step: isize) -> Vec<usize> {
        let r = normalize(extent, start, stop, step).unwrap();
        (0..r.len)
            .map(|k| (r.start as isize + k as isize * r.step) as usize)
            .collect()
    }

    /// Python's `range(*slice(start, stop, step).indices(n))`, as `CPython` computes it
    /// (`PySlice_Unpack`, then `PySlice_AdjustIndices`), in i128.
    fn py_range(n: usize, start: Option<isize>, stop: Option<isize>, step: isize) -> Vec<usize> {
        let n = n as i128;
        let (max, min) = (isize::MAX as i128, isize::MIN as i128);
        let step = (step as i128).max(-max);
        let mut lo = start.map_or(if step < 0 { max } else { 0 }, |v| v as i128);
        let mut hi = stop.map_or(if step < 0 { min } else { max }, |v| v as i128);
        for b in [&mut lo, &mut hi] {
            if *b < 0 {
                *b += n;
                if *b < 0 {
                    *b = if step < 0 { -1 } else { 0 };
                }
            } else if *b >= n {
                *b = if step < 0 { n - 1 } else { n };
            }
        }
        let mut out = Vec::new();
        let mut i = lo;
        while (step > 0 && i < hi) || (step < 0 && i > hi) {
            out.push(i as usize);
            i += step;
        }
        out
    }

    #[test]
    // ~70k cases: minutes under Miri, which adds nothing here (no `unsafe`); runs natively.
    #[cfg_attr(miri, ignore)]
    fn normalize_matches_python_model_exhaustively() {
        let mut bounds = vec![
            None,
            Some(isize::MIN),
            Some(isize::MAX),
            Some(isize::MIN + 1),
        ];
        bounds.extend((-10..=10).map(Some));
        let steps = [
            isize::MIN,
            isize::MIN + 1,
            -9,
            -4,
            -3,
            -2,
            -1,
            1,
            2,
            3,
            4,
            9,
            isize::MAX,
        ];
        for n in 0..=8 {
            for &start in &bounds {
                for &stop in &bounds {
                    for &step in &steps {
                        let want = py_range(n, start, stop, step);
                        assert_eq!(
                            picks(n, start, stop, step),
                            want,
                            "{n} {start:?}:{stop:?}:{step}"
                        );
                        let r = normalize(n, start, stop, step).unwrap();
                        assert!(r.step != 0 && r.step != isize::MIN);
                        if r.len == 0 {
                            assert_eq!(r.start, 0);
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn normalize_matches_python_examples() {
        assert_eq!(picks(5, None, None, 1), [0, 1, 2, 3, 4]);
        assert_eq!(picks(5, None, None, -1), [4, 3, 2, 1, 0]);
        assert_eq!(picks(5, Some(10), None, 1), Vec::<usize>::new());
        assert_eq!(picks(5, Some(-100), Some(2), 1), [0, 1]);
        assert_eq!(picks(5, Some(3), Some(1), -1), [3, 2]);
        assert_eq!(picks(5, Some(1), Some(-1), 1), [1, 2, 3]);
        assert_eq!(picks(5, None, None, -2), [4, 2, 0]);
        assert_eq!(picks(5, Some(-100), None, -1), Vec::<usize>::new());
        assert_eq!(picks(5, Some(100), None, -1), [4, 3, 2, 1, 0]);
        assert_eq!(picks(0, None, None, -1), Vec::<usize>::new());
        assert_eq!(normalize(3, None, None, 0), None);
    }

    #[test]
    fn normalize_handles_extreme_steps_and_extents() {
        assert_eq!(picks(5, None, None, isize::MIN), [4]);
        assert_eq!(picks(5, None, None, isize::MAX), [0]);
        let r = normalize(usize::MAX, None, None, 1).unwrap();
        assert_eq!((r.start, r.len), (0, usize::MAX));
        let r = normalize(usize::MAX, None, None, -1).unwrap();
        assert_eq!((r.start, r.len), (usize::MAX - 1, usize::MAX));
        // -2^63 from the end of 2^64 - 1 is index 2^63 - 1, the same as the stop.
        let r = normalize(usize::MAX, Some(isize::MIN), Some(isize::MAX), 1).unwrap();
        assert_eq!(r.len, 0);
        let r = normalize(usize::MAX, Some(isize::MIN), None, 1).unwrap();
        assert_eq!(
            (r.start, r.len),
            (isize::MAX as usize, usize::MAX - isize::MAX as usize)
        );
    }

    #[test]
    fn slice_into_zeroes_strides_of_an_emptied_result() {
        let (mut sh, mut st) = ([0usize; 2], [0isize; 2]);
        let off = slice_into(
            Parts::from_arrays(&[4, 5], &[5, 1], 0, 1),
            &[Slice::range(1, 3), Slice::range(4, 4)],
            &mut sh,
            &mut st,
        )
        .unwrap();
        assert_eq!((sh, st, off), ([2, 0], [0, 0], 5));
    }

    #[test]
    fn slice_into_reports_the_first_zero_step() {
        let (mut sh, mut st) = ([0usize; 2], [0isize; 2]);
        let r = slice_into(
            Parts::from_arrays(&[4, 5], &[5, 1], 0, 1),
            &[Slice::new(None, None, 0), Slice::new(None, None, 0)],
            &mut sh,
            &mut st,
        );
        assert_eq!(r, Err(LayoutError::ZeroStep { axis: 0 }));
    }
}
