//! Small copies: a copy whose plan is one 2-D block of at most 32 KiB shaped like a
//! transpose (the destination runs along one loop, the source along the other), classified
//! once into [`Small`], then run whole by one block kernel with no dispatch search and no
//! loop driver.
//!
//! Every kernel is the target's backend's ([`Backend`], `backend/`): this module has no
//! vector code and names no architecture.
//!
//! | block | kernel (x86-64) | elsewhere, and under Miri |
//! | --- | --- | --- |
//! | 2 planar channels -> interleaved frames (stereo), 1-, 2-, 4- or 8-byte elements | the channel kernels' zips (AVX2 32 then 16 bytes of each channel a step, SSSE3 16), the last frames one a step | NEON's zips on aarch64, the portable twin's under Miri; elsewhere the channel kernels' two-channel loop |
//! | a transpose of at least 8 × 8 of 1-, 2-, 4- or 8-byte elements | the SIMD transposes of `transpose/` | their portable twins |
//! | a transpose under 8 × 8 both ways of those elements | element by element; a 4 × 4 block of 4-byte elements, SSE2 | the same; NEON for the 4 × 4 block on aarch64 |
//!
//! A prepared [`CopyPlan`](crate::CopyPlan) classifies its plan once ([`Small::of_plan`],
//! `const`) and keeps the answer beside it. The run-time [`copy()`](crate::copy()) first
//! tries the planner's specialisations chosen by the operands' shape, each of which writes
//! its nest down directly and passes it through the one validation of a nest
//! ([`UniqueBlock::check`]) or the one bounds rule, holding the result as a witness that
//! runs only the block it checked:
//!
//! | shape | nest | witness | runs |
//! | --- | --- | --- | --- |
//! | two rank-2 operands of a transpose shape with a block kernel ([`copy_rank2`]) | the block's two loops | [`CheckedBlock`] | the block kernel |
//! | two C-contiguous operands of one shape, any rank ([`copy_into_dense`]) | one run | [`Run`] | one move |
//! | a C-contiguous destination of at most 64 elements, rank 3 and up ([`copy_into_dense`]) | the destination's run, the source's axes | [`Tiny`] | element by element |
//!
//! Any other copy, and element types whose bytes may not all be initialised, take the
//! planned path unchanged; the errors and the bytes written are the planned path's (a test
//! forces each specialisation against the model). Hosts only: bare-metal builds leave this
//! module out and keep the general loops alone (code size).

use core::mem::size_of;

use crate::kernel::backend::{Backend, Target};
use crate::kernel::drive::step;
use crate::kernel::element::is_plain;
use crate::kernel::mapping::Lowered;
use crate::kernel::plan::Plan;
use crate::kernel::plan::block::SmallNest;
use crate::kernel::plan::{Loop, measure};
use crate::kernel::proof;
use crate::kernel::proof::{Checked, CopyFact, UniqueBlock};
use crate::kernel::{raw, stream, transpose};
use crate::{LayoutError, Operand};

/// Which block kernel a [`Small`] block runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
enum Kind {
    /// `eb == 2`, `dr == 2`: two planar channels into interleaved frames.
    Interleave2,
    /// `ea, eb >= 8`: a transpose with at least one whole SIMD tile each way.
    Transpose,
    /// `ea, eb < 8`: a transpose under one SIMD tile each way, element by element.
    Elements,
    /// `ea = eb = 4` of 4-byte elements (a 4 × 4 matrix): one micro-kernel block.
    Square4,
    /// A transpose of 4-byte elements made of whole 8 × 8 tiles (`ea`, `eb` multiples of
    /// 8): one AVX2 tile after another where the CPU has AVX2, else as [`Kind::Transpose`].
    Tiles8,
}

/// One block `d[od + i·dr + j] = s[os + i + j·sr]` (`i < ea`, `j < eb`): the destination's
/// rows along `i`, its elements along `j` one apart; the source's the other way round.
///
/// Built by [`Small::of_plan`] (from a plan whose one nest is exactly this block; a prepared
/// plan keeps it beside that plan, as it keeps the plan's shortest lengths and uniqueness
/// token) and by [`copy_rank2`] (whose [`CheckedBlock`] validates the block's own nest).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub(crate) struct Small {
    kind: Kind,
    ea: usize,
    eb: usize,
    dr: isize,
    sr: isize,
    od: isize,
    os: isize,
}

/// The largest block (bytes of the destination) a block kernel takes. Larger copies take the
/// general kernels, whose planning is then small beside the data and which block for the
/// caches and stream their stores (a 4096² `f32` transpose through whole-matrix 8 × 8 tiles
/// ran at a third of their speed).
const SMALL_MAX_BYTES: usize = 32 << 10;

impl Small {
    /// The block kernel for `ea × eb` with row strides `dr`, `sr` and `itemsize`-byte
    /// elements, if one is worth taking: small blocks only ([`SMALL_MAX_BYTES`]).
    const fn classify(ea: usize, eb: usize, dr: isize, sr: isize, itemsize: usize) -> Option<Kind> {
        if !matches!(itemsize, 1 | 2 | 4 | 8) || ea < 2 {
            return None;
        }
        let bytes = match ea.checked_mul(eb) {
            Some(v) => v.checked_mul(itemsize),
            None => None,
        };
        match bytes {
            Some(b) if b <= SMALL_MAX_BYTES => {}
            _ => return None,
        }
        if eb == 2 && dr == 2 {
            return Some(Kind::Interleave2);
        }
        if sr == 1 || eb < 2 {
            return None;
        }
        if ea >= 8 && eb >= 8 {
            if itemsize == 4 && ea.is_multiple_of(8) && eb.is_multiple_of(8) {
                return Some(Kind::Tiles8);
            }
            return Some(Kind::Transpose);
        }
        // Under one SIMD tile both ways (at most 7 × 7), element by element: the general
        // path's planning and channel dispatch cost more than the elements (a 4 × 4 `f32`
        // transpose: 919 instructions a call through it). A block under a tile one way only
        // (4 channels of many pixels) is the general path's channel kernels' to vectorise.
        if ea == 4 && eb == 4 && itemsize == 4 {
            return Some(Kind::Square4);
        }
        if ea < 8 && eb < 8 {
            return Some(Kind::Elements);
        }
        None
    }

    /// The block of `plan`, when the plan is one nest of two loops (tiled or not), the destination
    /// running along one and the source along the other, with a block kernel for it
    /// ([`Small::of_nest`] of the plan's one nest). A `const fn`: a plan built at compile time
    /// is classified at compile time.
    pub(crate) const fn of_plan<const M: usize, const L: usize>(
        plan: &Plan<2, M, L>,
        itemsize: usize,
    ) -> Option<Self> {
        match SmallNest::of_plan(plan) {
            Some(nest) => Self::of_nest(&nest, itemsize),
            None => None,
        }
    }

    /// The block of `nest` when it has two loops (tiled or not), the destination running along
    /// one and the source along the other, with a block kernel for it.
    const fn of_nest(nest: &SmallNest<2>, itemsize: usize) -> Option<Self> {
        // A tile only orders the block's steps for the caches: a block small enough for a
        // block kernel runs whole, as the run-time copy runs it (a 64 × 64 `f32` transpose in
        // 8 × 8 tiles: 0.26 us, against 0.47 us through the plan's 32 × 32 tiles).
        let [a, b] = nest.loops() else {
            return None;
        };
        let ([da, sa], [db, sb]) = (a.strides, b.strides);
        let (ea, eb, dr, sr) = if db == 1 && sa == 1 {
            (a.extent, b.extent, da, sb)
        } else if da == 1 && sb == 1 {
            (b.extent, a.extent, db, sa)
        } else {
            return None;
        };
        let [od, os] = nest.offsets();
        match Self::classify(ea, eb, dr, sr, itemsize) {
            Some(kind) => Some(Self {
                kind,
                ea,
                eb,
                dr,
                sr,
                od,
                os,
            }),
            None => None,
        }
    }

    /// The block's two loops, as a nest holds them: `i` (the destination's rows) outside `j`
    /// (its elements one apart).
    const fn loops(&self) -> [Loop<2>; 2] {
        [
            Loop {
                extent: self.ea,
                strides: [self.dr, 1],
            },
            Loop {
                extent: self.eb,
                strides: [1, self.sr],
            },
        ]
    }

    /// Runs the block; `false` (nothing written) when `T` is not a plain primitive of the
    /// block's kind, for which the caller runs the general loops.
    ///
    /// # Safety
    ///
    /// Every `d + od + i·dr + j` and `s + os + i + j·sr` (`i < ea`, `j < eb`) is an element
    /// of the destination and source allocations, no destination element is a source
    /// element, and no two destination indices share an element.
    #[expect(
        clippy::inline_always,
        reason = "a dozen instructions of dispatch, every kernel a call: inlined, the caller \
                  keeps the block in registers instead of storing it for the call"
    )]
    #[inline(always)]
    unsafe fn run<T: Copy + 'static>(&self, d: *mut T, s: *const T) -> bool {
        if !is_plain::<T>() {
            return false;
        }
        // The CPU's features, known after the first call: before, a cold detour detects them
        // and comes back, so that no value lives across a call here and the dispatch saves no
        // registers.
        let Some(cpu) = Target::known() else {
            // SAFETY: the contract.
            return unsafe { self.run_detecting(d, s) };
        };
        let Self {
            kind,
            ea,
            eb,
            dr,
            sr,
            od,
            os,
        } = *self;
        // SAFETY: `od` is the block's first destination offset, an element of the
        // destination allocation (contract).
        let d = unsafe { d.offset(od) };
        // SAFETY: `os` is the block's first source offset, an element of the source
        // allocation (contract).
        let s = unsafe { s.offset(os) };
        match kind {
            Kind::Interleave2 => {
                // SAFETY: the contract with `eb == 2`, `dr == 2`: `ea` frames of two elements
                // at `d`, the channels `ea` elements each at `s` and `s + sr`.
                unsafe { Target::interleave2(cpu, d, s, sr, ea) };
            }
            Kind::Tiles8 if size_of::<T>() == 4 && Target::has_tiles8(cpu) => {
                // SAFETY: the contract, for 4-byte elements (`classify` checked the itemsize,
                // the caller matched it with `size_of::<T>()`, `T` is plain, so its bits move
                // as `u32` bits), `ea` and `eb` multiples of 8 (`classify`); the backend has
                // its tile kernel for this CPU (`has_tiles8`).
                unsafe { Target::tiles8(d.cast::<u32>(), dr, s.cast::<u32>(), sr, ea, eb) };
            }
            Kind::Square4 => {
                // SAFETY: the contract, for one 4 × 4 block of 4-byte elements (`classify`
                // checked the itemsize, the caller matched it with `size_of::<T>()`, `T` is
                // plain, so its bits move as `f32` bits).
                unsafe { Target::square4(d.cast::<f32>(), dr, s.cast::<f32>(), sr) };
            }
            Kind::Elements => {
                // SAFETY: the contract.
                unsafe { elements(d, dr, s, sr, ea, eb) };
            }
            Kind::Transpose | Kind::Tiles8 => {
                // SAFETY: the contract is `transpose_unchecked`'s; `T` is a plain 1-, 2-, 4-
                // or 8-byte primitive (`classify` checked the itemsize, the caller matched
                // it with `size_of::<T>()`, and `is_plain` above).
                unsafe { transpose_block(d, dr, s, sr, ea, eb) };
            }
        }
        true
    }

    /// [`Small::run`] on its first call, before the CPU's features are known: detects them,
    /// then runs the block.
    ///
    /// # Safety
    ///
    /// As [`Small::run`].
    #[cold]
    #[inline(never)]
    unsafe fn run_detecting<T: Copy + 'static>(self, d: *mut T, s: *const T) -> bool {
        Target::detect_now();
        // SAFETY: the contract.
        unsafe { self.run(d, s) }
    }
}

/// [`transpose::transpose_unchecked`], not inlined: with its SIMD loops inlined,
/// [`Small::run`] saved six registers on every call, whichever kernel it ran (on x86-64 it
/// was then not inlined either: 38 instructions of dispatch for a stereo block, now about a
/// dozen).
///
/// # Safety
///
/// As [`transpose::transpose_unchecked`].
#[inline(never)]
unsafe fn transpose_block<T: 'static>(
    d: *mut T,
    dr: isize,
    s: *const T,
    sr: isize,
    ea: usize,
    eb: usize,
) {
    // SAFETY: the caller's contract.
    unsafe { transpose::transpose_unchecked(d, dr, s, sr, ea, eb) }
}

/// `d[i·dr + j] = s[i + j·sr]` for `i < ea`, `j < eb`, element by element: a pointer a
/// side, stepped (about seven instructions an element on x86-64).
///
/// # Safety
///
/// Every `d + i·dr + j` and `s + i + j·sr` is an element of its allocation, no destination
/// element a source one.
#[inline]
unsafe fn elements<T: Copy>(d: *mut T, dr: isize, s: *const T, sr: isize, ea: usize, eb: usize) {
    let (mut row, mut col) = (d, s);
    for _ in 0..ea {
        let (mut dp, mut sp) = (row, col);
        for _ in 0..eb {
            // `dp` is `d + i·dr + j` and `sp` is `s + i + j·sr` for this `(i, j)` (contract);
            // the steps below only form the next ones, with wrapping arithmetic.
            // SAFETY: `sp` is an element of the source allocation (above).
            let x = unsafe { sp.read() };
            // SAFETY: `dp` is an element of the destination allocation, no source element
            // (above).
            unsafe { dp.write(x) };
            (dp, sp) = (dp.wrapping_add(1), sp.wrapping_offset(sr));
        }
        (row, col) = (row.wrapping_offset(dr), col.wrapping_add(1));
    }
}

/// Runs the small-block kernel of `checked`'s plan, when it has one, on `dst` and `src`;
/// `false` (nothing written) when it has none, the slices or element size do not pass the
/// plan's checks (the caller's general path reports why), or `T` takes the general loops.
#[inline]
pub(crate) fn copy_planned<T: Copy + 'static, const M: usize, const L: usize>(
    checked: &Checked<2, CopyFact, M, L>,
    dst: &mut [T],
    src: &[T],
) -> bool {
    let size = size_of::<T>();
    let Some(small) = checked.small_for([size, size], [dst.len(), src.len()]) else {
        return false;
    };
    // SAFETY: `small` is the one block of `checked`'s plan, whose every offset lies inside
    // slices of these lengths and whose destination is unique (`small_for` checked them);
    // `dst` and `src` are distinct borrows.
    unsafe { small.run(dst.as_mut_ptr(), src.as_ptr()) }
}

/// [`copy()`](crate::copy()) of two rank-2 operands whose plan is one transpose-shaped block
/// (the destination's elements one apart along one axis, the source's along the other) that
/// a small-block kernel takes: a specialisation of the planner chosen by that shape, which
/// writes the block's nest down directly ([`SmallNest::of_loops`]) instead of ordering the
/// loops (the kernel runs the block whole, in any order), then the one validation of such a
/// nest ([`UniqueBlock::check`]: every offset inside its slice, a unique destination), whose
/// errors are the planned path's. `Ok(false)`, nothing written, for any other copy.
///
/// # Errors
///
/// [`UniqueBlock::check`]'s.
#[inline]
pub(crate) fn copy_rank2<T: Copy + 'static, const N: usize>(
    dst: &mut [T],
    dl: &Lowered<N>,
    src: &[T],
    sl: &Lowered<N>,
) -> Result<bool, LayoutError> {
    if N != 2 || !is_plain::<T>() || !strided_pair::<T, N>(dl, sl) {
        return Ok(false);
    }
    let (&[e0, e1], &[d0, d1], &[s0, s1]) = (
        dl.shape.as_slice(),
        dl.strides.as_slice(),
        sl.strides.as_slice(),
    ) else {
        return Ok(false);
    };
    // The axis along which the destination's elements are one apart becomes `j`: tested,
    // then the four values chosen (written as an `if` / `else if` / `else` returning them,
    // a stereo `copy()` took 12 instructions more, each side spilling its four values).
    let rows_first = d1 == 1 && s0 == 1;
    if !(rows_first || d0 == 1 && s1 == 1) {
        return Ok(false);
    }
    let (ea, eb, dr, sr) = if rows_first {
        (e0, e1, d0, s1)
    } else {
        (e1, e0, d1, s0)
    };
    let Some(kind) = Small::classify(ea, eb, dr, sr, size_of::<T>()) else {
        return Ok(false);
    };
    let small = Small {
        kind,
        ea,
        eb,
        dr,
        sr,
        od: dl.offset,
        os: sl.offset,
    };
    match CheckedBlock::check(small, [dst.len(), src.len()])? {
        Some(block) => Ok(block.run(dst, src)),
        None => Ok(false),
    }
}

/// Proof that every offset of a [`Small`] block lies inside slices of `lens` elements
/// (destination first) and that no two of its destination indices share an element: the
/// block's nest ([`SmallNest::of_loops`] of its loops and first offsets) passed the one
/// validation of a nest ([`UniqueBlock::check`]). Minted only by [`CheckedBlock::check`], so a
/// block run through it is the block that was checked.
struct CheckedBlock {
    small: Small,
    lens: [usize; 2],
}

impl CheckedBlock {
    /// Checks `small`'s nest against slices of `lens`; `Ok(None)` when a bound of the nest
    /// overflows `isize` (the planned path then reports it).
    #[expect(
        clippy::inline_always,
        reason = "inlined, the block's values stay in registers from the planner to the kernel"
    )]
    #[inline(always)]
    fn check(small: Small, lens: [usize; 2]) -> Result<Option<Self>, LayoutError> {
        let Some(nest) = SmallNest::of_loops(&small.loops(), [small.od, small.os]) else {
            return Ok(None);
        };
        UniqueBlock::check(&nest, lens)?;
        Ok(Some(Self { small, lens }))
    }

    /// Runs the block on `dst` and `src`; `false` (nothing written) when they are not the
    /// slices it was checked against, or `T` takes the general loops.
    #[expect(
        clippy::inline_always,
        reason = "inlined, the block's values stay in registers from the planner to the kernel"
    )]
    #[inline(always)]
    fn run<T: Copy + 'static>(&self, dst: &mut [T], src: &[T]) -> bool {
        if [dst.len(), src.len()] != self.lens {
            return false;
        }
        // SAFETY: every offset of the block lies inside slices of these lengths and its
        // destination is unique (the witness: `check` validated exactly this block's nest);
        // `dst` and `src` are distinct borrows.
        unsafe { self.small.run(dst.as_mut_ptr(), src.as_ptr()) }
    }
}

/// The largest volume [`copy_into_dense`] copies element by element: past it, the general
/// planner's vector loops are worth their planning (a (2, 0, 1) permute of 8³ `f32`: 87 ns
/// planned, where an element-by-element loop would take about twice that).
const TINY_MAX: usize = 64;

/// [`copy()`](crate::copy()) into a C-contiguous destination, specialisations of the planner
/// chosen by the operands' shape:
///
/// - from a C-contiguous source of the same shape, any rank (the commonest copy of all): the
///   plan is one run each side ([`SmallNest::of_loops`]), checked by the one validation of a
///   nest ([`UniqueBlock::check`]) and moved at once, unless large enough to stream its
///   stores, which the planned path does;
/// - from any source of rank 3 or more of at most [`TINY_MAX`] elements: element by element
///   in the destination's order, the source's bounds measured by the planner's rule
///   ([`measure`]; the destination's are its run) and both checked by the one bounds rule
///   ([`proof::inside`]); a C-contiguous destination is unique.
///
/// `Ok(false)`, nothing written, for any other copy; the errors are the planned path's.
///
/// # Errors
///
/// [`LayoutError::OffsetBelowSlice`], [`LayoutError::OffsetOutsideSlice`]: the bounds rule's.
#[inline]
pub(crate) fn copy_into_dense<T: Copy + 'static, const N: usize>(
    dst: &mut [T],
    dl: &Lowered<N>,
    src: &[T],
    sl: &Lowered<N>,
) -> Result<bool, LayoutError> {
    if !strided_pair::<T, N>(dl, sl) {
        return Ok(false);
    }
    let Some(volume) = c_contiguous(dl) else {
        return Ok(false);
    };
    let lens = [dst.len(), src.len()];
    if c_contiguous(sl).is_some() {
        if volume < 2 || stream::stream_worthy::<T>(|| volume) {
            return Ok(false);
        }
        return match Run::check(volume, [dl.offset, sl.offset], lens)? {
            Some(run) => Ok(run.run(dst, src)),
            None => Ok(false),
        };
    }
    if N < 3 || volume > TINY_MAX {
        return Ok(false);
    }
    match Tiny::check(dl, sl, volume, lens)? {
        Some(tiny) => Ok(tiny.run(dst, src)),
        None => Ok(false),
    }
}

/// Proof that a run of `len` consecutive elements from `offsets[0]` and from `offsets[1]`
/// lies inside slices of `lens` elements (destination first): the run's nest
/// ([`SmallNest::of_loops`] of one loop of stride 1 each side) passed the one validation of a
/// nest ([`UniqueBlock::check`]). Minted only by [`Run::check`].
struct Run {
    len: usize,
    offsets: [isize; 2],
    lens: [usize; 2],
}

impl Run {
    /// Checks the run's nest against slices of `lens`; `Ok(None)` when a bound overflows
    /// `isize` (the planned path then reports it).
    #[expect(
        clippy::inline_always,
        reason = "inlined, the run's values stay in registers from the planner to the move"
    )]
    #[inline(always)]
    fn check(
        len: usize,
        offsets: [isize; 2],
        lens: [usize; 2],
    ) -> Result<Option<Self>, LayoutError> {
        let run = Loop {
            extent: len,
            strides: [1, 1],
        };
        let Some(nest) = SmallNest::of_loops(&[run], offsets) else {
            return Ok(None);
        };
        UniqueBlock::check(&nest, lens)?;
        Ok(Some(Self { len, offsets, lens }))
    }

    /// Moves the run from `src` to `dst`; `false` (nothing written) when they are not the
    /// slices it was checked against.
    #[expect(
        clippy::inline_always,
        reason = "inlined, the run's values stay in registers from the planner to the move"
    )]
    #[inline(always)]
    fn run<T: Copy>(&self, dst: &mut [T], src: &[T]) -> bool {
        if [dst.len(), src.len()] != self.lens {
            return false;
        }
        let [od, os] = self.offsets;
        // The run's `len` elements from `od` and from `os` lie inside `dst` and `src` (the
        // witness, checked against these lengths); distinct borrows.
        // SAFETY: `od` is inside `dst` (above).
        let dp = unsafe { dst.as_mut_ptr().offset(od) };
        // SAFETY: `os` is inside `src` (above).
        let sp = unsafe { src.as_ptr().offset(os) };
        // SAFETY: the run's elements from `dp` and `sp` (above), distinct borrows.
        unsafe { raw::copy_run(dp, sp, self.len) };
        true
    }
}

/// Proof that every offset of a copy into a C-contiguous destination of `volume` elements
/// lies inside slices of `lens` elements (destination first): the source's offsets are
/// the offsets of `source`'s axes, and the destination, being C-contiguous, is unique.
/// Minted only by [`Tiny::check`].
struct Tiny<'l, const N: usize> {
    source: &'l Lowered<N>,
    first: isize,
    volume: usize,
    lens: [usize; 2],
}

impl<'l, const N: usize> Tiny<'l, N> {
    /// Measures the source's bounds over its `N` axes (the planner's [`measure`]; the
    /// destination's are its run) and checks both against `lens` ([`proof::inside`]); `Ok(None)` when a bound overflows
    /// `isize` (the planned path then reports it). `dl` is C-contiguous with `volume`
    /// elements; `sl` has its shape.
    fn check(
        dl: &Lowered<N>,
        sl: &'l Lowered<N>,
        volume: usize,
        lens: [usize; 2],
    ) -> Result<Option<Self>, LayoutError> {
        // The destination's offsets are one run of `volume` elements from its offset; the
        // source's are measured over its axes.
        let dst_lo = dl.offset;
        let Some(dst_hi) = isize::try_from(volume.saturating_sub(1))
            .ok()
            .and_then(|n| dst_lo.checked_add(n))
        else {
            return Ok(None);
        };
        let mut loops = [Loop::<1>::UNIT; N];
        for ((l, &extent), &s) in loops.iter_mut().zip(&sl.shape).zip(&sl.strides) {
            *l = Loop {
                extent,
                strides: [s],
            };
        }
        let mut bounds = [(0, 0); 1];
        if measure(&loops, &[sl.offset], &mut bounds).is_err() {
            return Ok(None);
        }
        let [(src_lo, src_hi)] = bounds;
        let [dst_len, src_len] = lens;
        proof::inside(Operand::Destination, dst_lo, dst_hi, dst_len)?;
        proof::inside(Operand::Source, src_lo, src_hi, src_len)?;
        Ok(Some(Self {
            source: sl,
            first: dl.offset,
            volume,
            lens,
        }))
    }

    /// The copy on `dst` and `src`; `false` (nothing written) when they are not the slices it
    /// was checked against.
    fn run<T: Copy>(&self, dst: &mut [T], src: &[T]) -> bool {
        if [dst.len(), src.len()] != self.lens {
            return false;
        }
        // SAFETY: the destination's `volume` elements from `first` lie inside `dst` (the
        // witness: its bounds checked against this length).
        let d = unsafe { dst.as_mut_ptr().offset(self.first) };
        // SAFETY: `d..d + volume` are elements of `dst` (above); every offset of the source
        // layout lies inside `src` (the witness); the destination's offsets are distinct
        // (C-contiguous); `dst` and `src` are distinct borrows.
        unsafe { tiny(d, src.as_ptr(), self.source, self.volume) };
        true
    }
}

/// Whether `dl` and `sl` are plain strided operands of one shape with `T`'s itemsize: the
/// operands every small-block path takes (anything else plans, and errs there).
#[inline]
fn strided_pair<T, const N: usize>(dl: &Lowered<N>, sl: &Lowered<N>) -> bool {
    let size = size_of::<T>();
    dl.blocks.is_empty()
        && sl.blocks.is_empty()
        && dl.shape == sl.shape
        && dl.itemsize == size
        && sl.itemsize == size
}

/// The volume of `l` when it is C-contiguous (each axis of more than one step moves by the
/// volume of the axes after it, forwards) and not empty; `None` otherwise. The `algo`
/// layer's `is_contiguous_in` answers the same on slices, but its loop over a runtime rank
/// with checked accesses cost this path 232 instructions a call for a 16-element copy where
/// this one, unrolled over `N`, costs 34.
fn c_contiguous<const N: usize>(l: &Lowered<N>) -> Option<usize> {
    let mut volume = 1usize;
    for (&e, &st) in l.shape.iter().zip(&l.strides).rev() {
        if e != 1 && (st < 0 || st.unsigned_abs() != volume) {
            return None;
        }
        volume = volume.checked_mul(e)?;
    }
    (volume != 0).then_some(volume)
}

/// The element-by-element loop of [`copy_into_dense`]: `d[i]` from the source offset of the
/// `i`-th index in C order (`i < volume`), an odometer over `sl`'s axes. (The last axis as a
/// loop of its own measured faster where it is long, slower where it is short: 3-channel
/// pixels, 2³ blocks.)
///
/// # Safety
///
/// `d..d + volume` are elements of the destination allocation, every offset of `sl` an
/// element of the source allocation behind `s`, none a destination element; `volume` is
/// `sl`'s volume.
#[inline(never)]
unsafe fn tiny<T: Copy, const N: usize>(d: *mut T, s: *const T, sl: &Lowered<N>, volume: usize) {
    let mut index = [0usize; N];
    let mut at = sl.offset;
    for i in 0..volume {
        // SAFETY: `at` is the source offset of the `i`-th index (contract), an element of the
        // source allocation.
        let from = unsafe { s.offset(at) };
        // SAFETY: `from` is an element of the source allocation (above).
        let x = unsafe { from.read() };
        // SAFETY: `i < volume`: `d + i` is an element of the destination (contract).
        let to = unsafe { d.add(i) };
        // SAFETY: `to` is an element of the destination allocation, no source element
        // (contract).
        unsafe { to.write(x) };
        // The next index: the last axis steps; an axis at its extent goes back to 0 and the
        // one before it steps. Wrapping arithmetic: an offset one step past an axis's end
        // is never read, and every offset kept is an offset of `sl`.
        for ((k, &e), &st) in index.iter_mut().zip(&sl.shape).zip(&sl.strides).rev() {
            *k = k.wrapping_add(1);
            at = at.wrapping_add(st);
            if *k < e {
                break;
            }
            *k = 0;
            at = at.wrapping_sub(step(e, st));
        }
    }
}

#[cfg(test)]
mod tests;
