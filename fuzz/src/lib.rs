//! Shared pieces of the fuzz targets: decoding a layout from bytes, the naive reference model
//! (every offset by enumeration, in i128 so the model cannot overflow), and a rank-erased
//! layout (`Any`) so one op chain can cross rank changes.
#![allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)]

use arbitrary::{Result, Unstructured};
use strided_layout::{Layout, LayoutError};

/// Enumerate offsets only up to this many elements; larger layouts get the corner model.
pub const ENUM_LIMIT: usize = 4096;
/// The largest rank the chain reaches.
pub const MAX_RANK: usize = 6;

/// Raw parts of a layout, before validation.
#[derive(Clone, Debug)]
pub struct Parts {
    pub shape: Vec<usize>,
    pub strides: Vec<isize>,
    pub offset: isize,
    pub itemsize: usize,
}

/// Small parts (extents 0..=4, strides -6..=6, offset -40..=40) or, one time in four, wide
/// ones (any extent up to 2^16 or any `usize`, any stride, any offset, any itemsize).
pub fn parts(u: &mut Unstructured<'_>, max_rank: usize) -> Result<Parts> {
    let rank = u.int_in_range(0..=max_rank)?;
    let wide = u.ratio(1, 4)?;
    let mut shape = Vec::with_capacity(rank);
    let mut strides = Vec::with_capacity(rank);
    for _ in 0..rank {
        if wide {
            shape.push(match u.int_in_range(0..=3)? {
                0 => u.int_in_range(0..=4)?,
                1 => u.int_in_range(0..=1 << 16)?,
                2 => usize::MAX - u.int_in_range(0..=2)?,
                _ => u.arbitrary()?,
            });
            strides.push(match u.int_in_range(0..=3)? {
                0 => u.int_in_range(-6..=6)?,
                1 => u.int_in_range(-(1 << 20)..=1 << 20)?,
                2 => [isize::MAX, isize::MIN, isize::MIN + 1, isize::MAX / 2][u.choose_index(4)?],
                _ => u.arbitrary()?,
            });
        } else {
            shape.push(u.int_in_range(0..=4)?);
            strides.push(u.int_in_range(-6..=6)?);
        }
    }
    let (offset, itemsize) = if wide {
        let off = match u.int_in_range(0..=2)? {
            0 => u.int_in_range(-40..=40)?,
            1 => {
                [isize::MAX, isize::MIN, i32::MAX as isize, i32::MIN as isize][u.choose_index(4)?]
            }
            _ => u.arbitrary()?,
        };
        let item = match u.int_in_range(0..=1)? {
            0 => 1usize << u.int_in_range(0..=6)?,
            _ => u.arbitrary()?,
        };
        (off, item)
    } else {
        (u.int_in_range(-40..=40)?, 1usize << u.int_in_range(0..=3)?)
    };
    Ok(Parts {
        shape,
        strides,
        offset,
        itemsize,
    })
}

/// The volume, `None` when it does not fit `usize` (0 whenever an extent is 0).
pub fn volume_model(shape: &[usize]) -> Option<usize> {
    if shape.contains(&0) {
        return Some(0);
    }
    shape.iter().try_fold(1usize, |v, &e| v.checked_mul(e))
}

/// The smallest and largest offsets from the corners (each axis at 0 or at its last index),
/// `None` when empty. Exact for any volume.
pub fn bounds_model(shape: &[usize], strides: &[isize], offset: isize) -> Option<(i128, i128)> {
    if shape.contains(&0) {
        return None;
    }
    let (mut lo, mut hi) = (offset as i128, offset as i128);
    for (&e, &s) in shape.iter().zip(strides) {
        let span = (e as i128 - 1) * s as i128;
        if span < 0 {
            lo += span;
        } else {
            hi += span;
        }
    }
    Some((lo, hi))
}

fn fits_isize(v: i128) -> bool {
    isize::try_from(v).is_ok()
}

/// What `Layout::new(shape, strides, itemsize)` must return (as `Ok(())` or the error): the
/// three invariants in the documented check order.
pub fn new_model(p: &Parts, offset: isize) -> core::result::Result<(), LayoutError> {
    if !p.itemsize.is_power_of_two() {
        return Err(LayoutError::ItemsizeNotPowerOfTwo {
            itemsize: p.itemsize,
        });
    }
    if volume_model(&p.shape).is_none() {
        return Err(LayoutError::VolumeOverflow);
    }
    let item = p.itemsize as i128;
    let strides_ok = p.strides.iter().all(|&s| fits_isize(s as i128 * item));
    let offset_ok = fits_isize(offset as i128 * item);
    let bounds_ok = bounds_model(&p.shape, &p.strides, offset)
        .is_none_or(|(lo, hi)| fits_isize(lo * item) && fits_isize(hi * item));
    if strides_ok && offset_ok && bounds_ok {
        Ok(())
    } else {
        Err(LayoutError::OffsetOverflow)
    }
}

/// Every index of `shape` in C order (last axis fastest).
pub fn indices(shape: &[usize]) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    if shape.contains(&0) {
        return out;
    }
    let mut idx = vec![0usize; shape.len()];
    loop {
        out.push(idx.clone());
        let mut k = shape.len();
        loop {
            if k == 0 {
                return out;
            }
            k -= 1;
            idx[k] += 1;
            if idx[k] < shape[k] {
                break;
            }
            idx[k] = 0;
        }
    }
}

/// `offset + Σ i_k s_k` in i128.
pub fn offset_model(strides: &[isize], offset: isize, index: &[usize]) -> i128 {
    offset as i128
        + index
            .iter()
            .zip(strides)
            .map(|(&i, &s)| i as i128 * s as i128)
            .sum::<i128>()
}

/// A layout of any rank 0..=MAX_RANK.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Any {
    R0(Layout<0>),
    R1(Layout<1>),
    R2(Layout<2>),
    R3(Layout<3>),
    R4(Layout<4>),
    R5(Layout<5>),
    R6(Layout<6>),
}

/// Runs `$body` with `$l` bound to the layout inside an `Any`, whatever its rank.
#[macro_export]
macro_rules! with_any {
    ($any:expr, |$l:ident| $body:expr) => {
        match $any {
            $crate::Any::R0($l) => $body,
            $crate::Any::R1($l) => $body,
            $crate::Any::R2($l) => $body,
            $crate::Any::R3($l) => $body,
            $crate::Any::R4($l) => $body,
            $crate::Any::R5($l) => $body,
            $crate::Any::R6($l) => $body,
        }
    };
}

/// The parts of an `Any` as vectors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct View {
    pub shape: Vec<usize>,
    pub strides: Vec<isize>,
    pub offset: isize,
    pub itemsize: usize,
}

impl Any {
    pub fn view(&self) -> View {
        with_any!(self, |l| View {
            shape: l.shape().to_vec(),
            strides: l.strides().to_vec(),
            offset: l.offset(),
            itemsize: l.itemsize(),
        })
    }

    pub fn rank(&self) -> usize {
        with_any!(self, |l| l.ndim())
    }

    /// Builds a rank-`parts.shape.len()` layout with `new` then `with_offset`.
    pub fn build(p: &Parts) -> core::result::Result<Any, LayoutError> {
        fn mk<const N: usize>(p: &Parts) -> core::result::Result<Layout<N>, LayoutError> {
            let shape: [usize; N] = p.shape.clone().try_into().unwrap();
            let strides: [isize; N] = p.strides.clone().try_into().unwrap();
            Layout::new(shape, strides, p.itemsize)?.with_offset(p.offset)
        }
        Ok(match p.shape.len() {
            0 => Any::R0(mk(p)?),
            1 => Any::R1(mk(p)?),
            2 => Any::R2(mk(p)?),
            3 => Any::R3(mk(p)?),
            4 => Any::R4(mk(p)?),
            5 => Any::R5(mk(p)?),
            6 => Any::R6(mk(p)?),
            r => panic!("rank {r} above MAX_RANK"),
        })
    }

    /// Wraps a layout of any rank 0..=MAX_RANK (`None` above).
    pub fn wrap<const N: usize>(l: Layout<N>) -> Option<Any> {
        let b: &dyn core::any::Any = &l;
        Some(match N {
            0 => Any::R0(*b.downcast_ref()?),
            1 => Any::R1(*b.downcast_ref()?),
            2 => Any::R2(*b.downcast_ref()?),
            3 => Any::R3(*b.downcast_ref()?),
            4 => Any::R4(*b.downcast_ref()?),
            5 => Any::R5(*b.downcast_ref()?),
            6 => Any::R6(*b.downcast_ref()?),
            _ => return None,
        })
    }

    /// `offset_of` through the rank-erased front.
    pub fn offset_of(&self, index: &[usize]) -> core::result::Result<isize, LayoutError> {
        with_any!(self, |l| l.offset_of(index.to_vec().try_into().unwrap()))
    }
}

/// Checks every query this crate answers against the model, for any `Any`.
///
/// Enumerates every offset when the volume is at most [`ENUM_LIMIT`], otherwise checks the
/// corner model only.
pub fn check_queries(a: &Any) {
    let v = a.view();
    let vol = volume_model(&v.shape).expect("a built layout has a usize volume");
    assert_eq!(with_any!(a, |l| l.volume()), vol);
    let bounds = bounds_model(&v.shape, &v.strides, v.offset);
    let got = with_any!(a, |l| l.offset_bounds());
    assert_eq!(
        got.map(|(lo, hi)| (lo as i128, hi as i128)),
        bounds,
        "{v:?}"
    );
    let req = with_any!(a, |l| l.required_size_in_bytes());
    match bounds {
        None => assert_eq!(req, Ok(0)),
        Some((lo, _)) if lo < 0 => assert_eq!(req, Err(LayoutError::NegativeOffset)),
        Some((_, hi)) => {
            let want = (hi + 1) * v.itemsize as i128;
            match req {
                Ok(n) => assert_eq!(n as i128, want, "{v:?}"),
                Err(e) => assert!(usize::try_from(want).is_err(), "{v:?}: {e:?}"),
            }
        }
    }
    // Out-of-range index on each axis.
    for k in 0..v.shape.len() {
        if v.shape[k] == usize::MAX {
            continue;
        }
        let mut idx = vec![0; v.shape.len()];
        idx[k] = v.shape[k];
        let first = (0..idx.len()).find(|&a| idx[a] >= v.shape[a]).unwrap();
        assert_eq!(
            a.offset_of(&idx),
            Err(LayoutError::IndexOutOfRange { axis: first })
        );
    }
    if vol > ENUM_LIMIT {
        // Corners only: the last index of every axis (an index past isize::MAX on a stride-0
        // axis included: the bug the first run found is fixed in `checked::advance`).
        if vol > 0 {
            let last: Vec<usize> = v.shape.iter().map(|&e| e - 1).collect();
            let want = offset_model(&v.strides, v.offset, &last);
            assert_eq!(a.offset_of(&last).map(|o| o as i128), Ok(want), "{v:?}");
        }
        return;
    }
    let idx = indices(&v.shape);
    let offs: Vec<i128> = idx
        .iter()
        .map(|i| offset_model(&v.strides, v.offset, i))
        .collect();
    for (i, &o) in idx.iter().zip(&offs) {
        assert_eq!(a.offset_of(i).map(|x| x as i128), Ok(o), "{v:?} at {i:?}");
    }
    let mut sorted = offs.clone();
    sorted.sort_unstable();
    let unique = sorted.windows(2).all(|w| w[0] != w[1]);
    assert_eq!(with_any!(a, |l| l.is_unique()), unique, "is_unique {v:?}");
    let c_contig = offs
        .iter()
        .enumerate()
        .all(|(t, &o)| o == v.offset as i128 + t as i128);
    assert_eq!(
        with_any!(a, |l| l.is_contiguous_c()),
        c_contig,
        "is_contiguous_c {v:?}"
    );
}

/// The C-order offsets of `a` (only call when the volume is small).
pub fn c_offsets(a: &Any) -> Vec<i128> {
    let v = a.view();
    indices(&v.shape)
        .iter()
        .map(|i| offset_model(&v.strides, v.offset, i))
        .collect()
}
