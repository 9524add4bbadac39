//! The kernels' memory accesses: every `unsafe` block of the inner loops lives here.
//!
//! Soundness rests on one proof object, [`InBounds`]: its only constructor,
//! [`InBounds::check`], verifies that for every nest of a [`Plan`] and every operand `k` the
//! nest's offset bounds (computed by [`Plan::new`] with checked arithmetic) lie in
//! `0..lens[k]`. The loop driver ([`for_each_block`]) visits only offsets of the nest, so
//! every pointer formed below points at an element of its slice. Each kernel re-checks that
//! it was handed slices of exactly the checked lengths. Source and destination slices are
//! distinct borrows (`&[T]` and `&mut [T]`), so they never overlap; [`copy_within`] works in
//! one buffer and is only called when the operands are disjoint.

use core::mem::{MaybeUninit, align_of, size_of};
use core::ptr;
use core::slice;

use crate::LayoutError;
use crate::kernel::plan::{Loop, Nest, Plan};
use crate::kernel::walk::{for_each_block, for_each_block_tiled, for_each_run, step};
use crate::kernel::{channels, simd};
use crate::tuning::{INNER_UNROLL, TILE_BYTES};

/// Proof that every offset of every nest of `plan` lies inside a slice of `lens[k]` elements
/// for operand `k`.
pub(crate) struct InBounds<'p, const K: usize> {
    plan: &'p Plan<K>,
    lens: [usize; K],
}

impl<'p, const K: usize> InBounds<'p, K> {
    /// Checks that every operand's offsets lie in `0..lens[k]`.
    pub(crate) fn check(plan: &'p Plan<K>, lens: [usize; K]) -> Result<Self, LayoutError> {
        for nest in plan.nests() {
            for (operand, (&(lo, hi), &len)) in nest.bounds().iter().zip(&lens).enumerate() {
                if lo < 0 || hi.unsigned_abs() >= len {
                    return Err(LayoutError::OffsetOutsideSlice { operand });
                }
            }
        }
        Ok(Self { plan, lens })
    }

    /// The plan, when `lens` are the lengths it was checked against.
    fn plan_for(&self, lens: [usize; K]) -> Result<&'p Plan<K>, LayoutError> {
        match self.lens.iter().zip(&lens).position(|(a, b)| a != b) {
            Some(operand) => Err(LayoutError::OffsetOutsideSlice { operand }),
            None => Ok(self.plan),
        }
    }
}

/// `dst[i] = src[i]` over the plan (operand 0 `dst`, operand 1 `src`).
pub(crate) fn copy<T: Copy>(
    ib: &InBounds<'_, 2>,
    dst: &mut [T],
    src: &[T],
) -> Result<(), LayoutError> {
    let plan = ib.plan_for([dst.len(), src.len()])?;
    let (d, s) = (dst.as_mut_ptr(), src.as_ptr());
    let stream = simd::stream_worthy::<T>(|| plan.volume());
    for nest in plan.nests() {
        for_each_block_tiled(nest, untiled_channels(nest), |[od, os], a, b| {
            // SAFETY: `od` and `os` are offsets of the nest, inside `dst` and `src` by
            // `InBounds::check` (and `plan_for` matched the lengths); `copy_block` reads and
            // writes only offsets of the block, which are offsets of the nest too. `dst` and
            // `src` are distinct borrows.
            unsafe { copy_block(d.offset(od), s.offset(os), a, b, stream) }
        });
    }
    if stream {
        simd::stream_fence();
    }
    Ok(())
}

/// `buf[dst(i)] = buf[src(i)]` over the plan, in one buffer whose two operands are disjoint.
pub(crate) fn copy_within<T: Copy>(
    ib: &InBounds<'_, 2>,
    _disjoint: &Disjoint,
    buf: &mut [T],
) -> Result<(), LayoutError> {
    let plan = ib.plan_for([buf.len(), buf.len()])?;
    let p = buf.as_mut_ptr();
    for nest in plan.nests() {
        for_each_block_tiled(nest, untiled_channels(nest), |[od, os], a, b| {
            // SAFETY: as in `copy`, both offsets are inside `buf`; the two operands share no
            // element (`Disjoint` is only made after `overlaps` said so), so the copies of
            // `copy_block` never overlap.
            unsafe {
                copy_block(p.offset(od), p.offset(os).cast_const(), a, b, false);
            }
        });
    }
    Ok(())
}

/// The nest's tile, or `None` when its two innermost loops are a planar <-> interleaved
/// channel block: the channel kernels read and write every line of such a block once, and
/// tiling would only cut their runs short.
fn untiled_channels(nest: &Nest<2>) -> Option<[usize; 2]> {
    match nest.loops() {
        [.., a, b] if channel_block(*a, *b).is_some() => None,
        _ => nest.tile(),
    }
}

/// Which channel kernel takes the block `a × b` (operand 0 the destination): `interleave`
/// when the destination's pixels hold `a.extent` (2 to 4) consecutive channels and the source
/// is planar, `!interleave` the other way round.
fn channel_block(a: Loop<2>, b: Loop<2>) -> Option<Channels> {
    let ([da, sa], [db, sb]) = (a.strides, b.strides);
    if da == 1 && sb == 1 && channels(a.extent, db) {
        Some(Channels::Interleave)
    } else if sa == 1 && db == 1 && channels(a.extent, sb) {
        Some(Channels::Deinterleave)
    } else {
        None
    }
}

/// The direction of a channel block.
#[derive(Clone, Copy)]
enum Channels {
    /// Planar source, interleaved destination.
    Interleave,
    /// Interleaved source, planar destination.
    Deinterleave,
}

/// Witness that the two operands of a [`copy_within`] share no element.
pub(crate) struct Disjoint(());

impl Disjoint {
    /// Made by the overlap check of `validate.rs`, after it found no shared element.
    pub(crate) const fn checked() -> Self {
        Self(())
    }
}

/// Copies the `a × b` block at `d`/`s` (operand 0 the destination); with `stream`,
/// contiguous rows use non-temporal stores.
///
/// # Safety
///
/// Every `d + i·a.strides[0] + j·b.strides[0]` and `s + i·a.strides[1] + j·b.strides[1]`
/// (`i < a.extent`, `j < b.extent`) is an element of the destination and source slices,
/// and no destination element is a source element.
#[inline]
unsafe fn copy_block<T: Copy>(d: *mut T, s: *const T, a: Loop<2>, b: Loop<2>, stream: bool) {
    let [da, sa] = a.strides;
    let [db, sb] = b.strides;
    if db == 1 && sb == 1 {
        for i in 0..a.extent {
            // SAFETY: row `i` of the block, `b.extent` consecutive elements in each slice
            // (caller's contract), disjoint.
            unsafe {
                let (dp, sp) = (d.offset(step(i, da)), s.offset(step(i, sa)));
                if stream {
                    simd::stream_copy_unchecked(dp, sp, b.extent);
                } else {
                    ptr::copy_nonoverlapping(sp, dp, b.extent);
                }
            }
        }
    } else if let Some(Channels::Interleave) = channel_block(a, b) {
        // SAFETY: the caller's contract: `a.extent` source planes of `b.extent` elements,
        // `sa` apart, and `b.extent` destination pixels of `a.extent` consecutive elements.
        unsafe { interleave(d, db.unsigned_abs(), s, sa, a.extent, b.extent, stream) }
    } else if let Some(Channels::Deinterleave) = channel_block(a, b) {
        // SAFETY: as above with the roles swapped; the destination planes are disjoint because
        // the destination is unique (validated), so each is its own exclusive sub-slice.
        unsafe { deinterleave(d, da, s, sb.unsigned_abs(), a.extent, b.extent, stream) }
    } else if da == 1 && sb == 1 && b.extent > 1 && simd::transposes::<T>() {
        // The destination runs along `a` and the source along `b`: a transpose with the roles
        // of the loops swapped (a planar -> blocked copy with 5 or more lanes, say).
        // SAFETY: the caller's contract is `transpose_unchecked`'s, with `dst` rows along `b`
        // and `src` rows along `a`.
        unsafe { simd::transpose_unchecked(d, db, s, sa, b.extent, a.extent) }
    } else if db == 1 && sa == 1 && a.extent > 1 && simd::transposes::<T>() {
        // SAFETY: the caller's contract is `transpose_unchecked`'s, with `dst` rows along `a`
        // and `src` rows along `b`. (Streaming the tile's rows out of a scratch buffer was
        // measured slower: rows of one tile are a few cache lines, rarely line-aligned.)
        unsafe { simd::transpose_unchecked(d, da, s, sb, a.extent, b.extent) }
    } else {
        for i in 0..a.extent {
            // SAFETY: row `i` of the block (caller's contract).
            unsafe {
                strided_copy_unchecked(
                    d.offset(step(i, da)),
                    db,
                    s.offset(step(i, sa)),
                    sb,
                    b.extent,
                );
            }
        }
    }
}

/// Whether a block is a planar <-> interleaved conversion with a channel kernel: `c` (2, 3
/// or 4) channels whose pixels are `stride` elements apart, `c <= stride <= 16` (a pixel
/// wider than its channels is a partial interleave block, whose other lanes stay untouched).
fn channels(c: usize, stride: isize) -> bool {
    matches!(c, 2..=4) && stride > 0 && (c..=16).contains(&stride.unsigned_abs())
}

/// CHW -> HWC for one block: `d[j·px + k] = s[k·plane + j]` for `k < c`, `j < n`; when
/// the pixels are dense (`px == c`), whole vectors of pixels by byte shuffles
/// (`channels.rs`), the rest here. With `stream`, the shuffled part may use non-temporal
/// stores.
///
/// # Safety
///
/// `c` is 2, 3 or 4 and `px >= c`; every `s + k·plane + j` is an element of the source
/// slice and every `d + j·px + k` an element of the destination slice.
#[inline]
unsafe fn interleave<T: Copy>(
    d: *mut T,
    px: usize,
    s: *const T,
    plane: isize,
    c: usize,
    n: usize,
    stream: bool,
) {
    // SAFETY: the caller's contract; `channels::interleave` did the pixels `0..done`
    // (`done <= n`), so the rest is the same contract for the pixels from `done`, whose
    // offsets `done` (planes) and `done·px` (pixels) lie inside the slices.
    unsafe {
        let done = if px == c {
            channels::interleave(d, s, plane, c, n, stream)
        } else {
            0
        };
        let (d, s, n) = (
            d.add(done.wrapping_mul(px)),
            s.add(done),
            n.wrapping_sub(done),
        );
        match c {
            2 => interleave_n::<T, 2>(d, px, s, plane, n),
            3 => interleave_n::<T, 3>(d, px, s, plane, n),
            _ => interleave_n::<T, 4>(d, px, s, plane, n),
        }
    }
}

/// [`interleave`] element by element, with the channel count `C` known to the compiler so
/// that the dense case vectorizes.
///
/// # Safety
///
/// As [`interleave`] with `c == C`.
#[inline]
unsafe fn interleave_n<T: Copy, const C: usize>(
    d: *mut T,
    px: usize,
    s: *const T,
    plane: isize,
    n: usize,
) {
    // SAFETY: the `C` planes are elements of the source slice (contract), cut to exactly
    // `n` elements, and `j < n` (it enumerates the `n` pixels), so `get_unchecked(j)` is in
    // range. Dense pixels: `[T; C]` has the layout of `C` consecutive `T`, and the `n` pixels
    // are elements of the distinct destination borrow, so their exclusive slice aliases no
    // plane. Wider pixels: `d + j·px + k` (`k < C <= px`) is an element of the destination
    // (contract).
    unsafe {
        let planes: [&[T]; C] =
            core::array::from_fn(|k| slice::from_raw_parts(s.offset(step(k, plane)), n));
        if px == C {
            let out = slice::from_raw_parts_mut(d.cast::<[T; C]>(), n);
            for (j, pixel) in out.iter_mut().enumerate() {
                for (slot, p) in pixel.iter_mut().zip(&planes) {
                    *slot = *p.get_unchecked(j);
                }
            }
        } else {
            for j in 0..n {
                let pixel = d.add(j.wrapping_mul(px));
                for (k, p) in planes.iter().enumerate() {
                    *pixel.add(k) = *p.get_unchecked(j);
                }
            }
        }
    }
}

/// HWC -> CHW for one block: `d[k·plane + j] = s[j·px + k]` for `k < c`, `j < n`; when the
/// pixels are dense (`px == c`), whole vectors of pixels by byte shuffles (`channels.rs`),
/// the rest here.
///
/// # Safety
///
/// `c` is 2, 3 or 4 and `px >= c`; every `s + j·px + k` is an element of the source slice;
/// every `d + k·plane + j` is an element of the destination slice, all distinct.
#[inline]
unsafe fn deinterleave<T: Copy>(
    d: *mut T,
    plane: isize,
    s: *const T,
    px: usize,
    c: usize,
    n: usize,
    stream: bool,
) {
    // SAFETY: as in `interleave`, with the roles swapped.
    unsafe {
        let done = if px == c {
            channels::deinterleave(d, plane, s, c, n, stream)
        } else {
            0
        };
        let (d, s, n) = (
            d.add(done),
            s.add(done.wrapping_mul(px)),
            n.wrapping_sub(done),
        );
        match c {
            2 => deinterleave_n::<T, 2>(d, plane, s, px, n),
            3 => deinterleave_n::<T, 3>(d, plane, s, px, n),
            _ => deinterleave_n::<T, 4>(d, plane, s, px, n),
        }
    }
}

/// [`deinterleave`] element by element, with the channel count `C` known to the compiler.
///
/// # Safety
///
/// As [`deinterleave`] with `c == C`.
#[inline]
unsafe fn deinterleave_n<T: Copy, const C: usize>(
    d: *mut T,
    plane: isize,
    s: *const T,
    px: usize,
    n: usize,
) {
    // SAFETY: the planes are pairwise disjoint (distinct destination elements, contract), so
    // each is an exclusive slice, cut to `n` elements; the pixels' elements `s + j·px + k`
    // (`k < C <= px`) are elements of the distinct source borrow (contract).
    unsafe {
        let mut planes: [&mut [T]; C] =
            core::array::from_fn(|k| slice::from_raw_parts_mut(d.offset(step(k, plane)), n));
        if px == C {
            let pixels = slice::from_raw_parts(s.cast::<[T; C]>(), n);
            for (j, pixel) in pixels.iter().enumerate() {
                for (p, &v) in planes.iter_mut().zip(pixel) {
                    if let Some(slot) = p.get_mut(j) {
                        *slot = v;
                    }
                }
            }
        } else {
            for j in 0..n {
                let pixel = s.add(j.wrapping_mul(px));
                for (k, p) in planes.iter_mut().enumerate() {
                    if let Some(slot) = p.get_mut(j) {
                        *slot = *pixel.add(k);
                    }
                }
            }
        }
    }
}

/// `d[j·ds] = s[j·ss]` for `j < n`, `INNER_UNROLL` elements per iteration.
///
/// # Safety
///
/// Every `d + j·ds` and `s + j·ss` (`j < n`) is an element of its slice, and no `d` element
/// is an `s` element.
#[inline]
// `i + u < n` and `i + INNER_UNROLL <= n` bound every counter.
#[allow(clippy::arithmetic_side_effects)]
unsafe fn strided_copy_unchecked<T: Copy>(d: *mut T, ds: isize, s: *const T, ss: isize, n: usize) {
    let mut i = 0;
    while n - i >= INNER_UNROLL {
        for u in 0..INNER_UNROLL {
            // SAFETY: `i + u < n` (contract).
            unsafe { *d.offset(step(i + u, ds)) = *s.offset(step(i + u, ss)) };
        }
        i += INNER_UNROLL;
    }
    while i < n {
        // SAFETY: `i < n` (contract).
        unsafe { *d.offset(step(i, ds)) = *s.offset(step(i, ss)) };
        i += 1;
    }
}

/// `dst[i] = value` over the plan (operand 0).
pub(crate) fn fill<T: Copy>(
    ib: &InBounds<'_, 1>,
    dst: &mut [T],
    value: T,
) -> Result<(), LayoutError> {
    let plan = ib.plan_for([dst.len()])?;
    let d = dst.as_mut_ptr();
    for nest in plan.nests() {
        for_each_run(nest, |[o], run| {
            let [s] = run.strides;
            // SAFETY: the run's `run.extent` elements `o + j·s` are inside `dst`
            // (`InBounds::check`); a unit-stride run is one exclusive sub-slice of it.
            unsafe {
                let p = d.offset(o);
                if s == 1 {
                    slice::from_raw_parts_mut(p, run.extent).fill(value);
                } else {
                    for j in 0..run.extent {
                        *p.offset(step(j, s)) = value;
                    }
                }
            }
        });
    }
    Ok(())
}

/// Scratch for one packed tile: `TILE_BYTES` bytes on the stack, cache-line aligned.
#[repr(C, align(64))]
struct Scratch([MaybeUninit<u8>; TILE_BYTES]);

impl Scratch {
    const fn new() -> Self {
        Self([MaybeUninit::uninit(); TILE_BYTES])
    }
}

/// Whether an `ea × eb` block of `T` fits a [`Scratch`].
fn fits<T>(ea: usize, eb: usize) -> bool {
    ea.checked_mul(eb)
        .and_then(|n| n.checked_mul(size_of::<T>()))
        .is_some_and(|bytes| bytes <= TILE_BYTES)
        && align_of::<T>() <= align_of::<Scratch>()
}

/// Where a block's rows of one source lie: base, row stride, element stride.
type Rows<T> = (*const T, isize, isize);

/// The rows of an `ea × eb` source block at `p` (row stride `sa`, element stride `sb`): when
/// the source runs across the rows (`|sa| < |sb|`, a transposed operand) and the block fits
/// `scratch`, packs it there row-major (a SIMD transpose for 4- and 8-byte primitives) so every row
/// is contiguous; otherwise the block as it lies.
///
/// # Safety
///
/// Every `p + i·sa + j·sb` (`i < ea`, `j < eb`) is an element of the source slice.
#[inline]
unsafe fn packed_rows<T: Copy>(
    scratch: &mut Scratch,
    p: *const T,
    sa: isize,
    sb: isize,
    ea: usize,
    eb: usize,
) -> Rows<T> {
    let Ok(row) = isize::try_from(eb) else {
        return (p, sa, sb);
    };
    if !fits::<T>(ea, eb) || ea < 2 || sb.unsigned_abs() <= sa.unsigned_abs() {
        return (p, sa, sb);
    }
    let buf = scratch.0.as_mut_ptr().cast::<T>();
    if sa == 1 && simd::transposes::<T>() {
        // SAFETY: `buf` holds `ea·eb` elements of `T` (`fits`, aligned), exclusively ours;
        // the source block is the caller's contract; they are distinct memory.
        unsafe { simd::transpose_unchecked(buf, row, p, sb, ea, eb) };
    } else {
        for j in 0..eb {
            for i in 0..ea {
                // SAFETY: as above; `i·eb + j < ea·eb`.
                unsafe {
                    buf.offset(step(i, row).wrapping_add(step(j, 1)))
                        .write(*p.offset(step(i, sa).wrapping_add(step(j, sb))));
                }
            }
        }
    }
    (buf.cast_const(), row, 1)
}

/// `dst[i] = f(src[i])` over the plan (operand 0 `dst`, operand 1 `src`).
pub(crate) fn map<T: Copy, U: Copy, F: FnMut(T) -> U>(
    ib: &InBounds<'_, 2>,
    dst: &mut [U],
    src: &[T],
    mut f: F,
) -> Result<(), LayoutError> {
    let plan = ib.plan_for([dst.len(), src.len()])?;
    let (d, s) = (dst.as_mut_ptr(), src.as_ptr());
    let mut scratch = Scratch::new();
    for nest in plan.nests() {
        for_each_block(nest, |[od, os], a, b| {
            let ([da, sa], [db, sb]) = (a.strides, b.strides);
            // SAFETY: the block's elements are inside `dst` and `src` (`InBounds::check`); a
            // packed source is a copy of its block in `scratch`. The slices are distinct
            // borrows (and `scratch` is ours), so unit-stride rows do not alias.
            unsafe {
                let (sp, sr, se) =
                    packed_rows(&mut scratch, s.offset(os), sa, sb, a.extent, b.extent);
                for i in 0..a.extent {
                    let (dp, sp) = (d.offset(od).offset(step(i, da)), sp.offset(step(i, sr)));
                    if db == 1 && se == 1 {
                        let (dr, srow) = (
                            slice::from_raw_parts_mut(dp, b.extent),
                            slice::from_raw_parts(sp, b.extent),
                        );
                        for (x, &y) in dr.iter_mut().zip(srow) {
                            *x = f(y);
                        }
                    } else {
                        for j in 0..b.extent {
                            *dp.offset(step(j, db)) = f(*sp.offset(step(j, se)));
                        }
                    }
                }
            }
        });
    }
    Ok(())
}

/// `dst[i] = f(a[i], b[i])` over the plan (operands `dst`, `a`, `b`).
pub(crate) fn zip_map<A: Copy, B: Copy, U: Copy, F: FnMut(A, B) -> U>(
    ib: &InBounds<'_, 3>,
    dst: &mut [U],
    a: &[A],
    b: &[B],
    mut f: F,
) -> Result<(), LayoutError> {
    let plan = ib.plan_for([dst.len(), a.len(), b.len()])?;
    let (d, pa, pb) = (dst.as_mut_ptr(), a.as_ptr(), b.as_ptr());
    let (mut scratch_a, mut scratch_b) = (Scratch::new(), Scratch::new());
    for nest in plan.nests() {
        for_each_block(nest, |[od, oa, ob], rows, run| {
            let ([dr, ar, br], [ds, sa, sb]) = (rows.strides, run.strides);
            let (ea, eb) = (rows.extent, run.extent);
            // SAFETY: the block's elements are inside `dst`, `a` and `b`
            // (`InBounds::check`); packed sources are copies in our own scratch. `dst` is a
            // distinct borrow, so its unit-stride rows alias neither source.
            unsafe {
                let (ap, ar, sa) = packed_rows(&mut scratch_a, pa.offset(oa), ar, sa, ea, eb);
                let (bp, br, sb) = packed_rows(&mut scratch_b, pb.offset(ob), br, sb, ea, eb);
                for i in 0..ea {
                    let dp = d.offset(od).offset(step(i, dr));
                    let (ap, bp) = (ap.offset(step(i, ar)), bp.offset(step(i, br)));
                    if ds == 1 && sa == 1 && sb == 1 {
                        let drow = slice::from_raw_parts_mut(dp, eb);
                        let arow = slice::from_raw_parts(ap, eb);
                        let brow = slice::from_raw_parts(bp, eb);
                        for ((x, &y), &z) in drow.iter_mut().zip(arow).zip(brow) {
                            *x = f(y, z);
                        }
                    } else {
                        for j in 0..eb {
                            *dp.offset(step(j, ds)) =
                                f(*ap.offset(step(j, sa)), *bp.offset(step(j, sb)));
                        }
                    }
                }
            }
        });
    }
    Ok(())
}

/// Folds `f` over the elements of operand 0 in the plan's order.
pub(crate) fn fold<T: Copy, A, F: FnMut(A, T) -> A>(
    ib: &InBounds<'_, 1>,
    src: &[T],
    init: A,
    mut f: F,
) -> Result<A, LayoutError> {
    let plan = ib.plan_for([src.len()])?;
    let s = src.as_ptr();
    let mut acc = Some(init);
    for nest in plan.nests() {
        for_each_run(nest, |[o], run| {
            let [ss] = run.strides;
            let Some(mut a) = acc.take() else { return };
            // SAFETY: the run's elements are inside `src` (`InBounds::check`).
            unsafe {
                let p = s.offset(o);
                if ss == 1 {
                    for &x in slice::from_raw_parts(p, run.extent) {
                        a = f(a, x);
                    }
                } else {
                    for j in 0..run.extent {
                        a = f(a, *p.offset(step(j, ss)));
                    }
                }
            }
            acc = Some(a);
        });
    }
    // `acc` is `Some` again after every run.
    acc.ok_or(LayoutError::OffsetOverflow)
}
