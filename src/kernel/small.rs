//! Small copies: a copy whose plan is one untiled 2-D block shaped like a transpose (the
//! destination runs along one loop, the source along the other), classified once into
//! [`Small`], then run by one block kernel with no dispatch search and no loop driver.
//!
//! | block | kernel (x86-64) | elsewhere, and under Miri |
//! | --- | --- | --- |
//! | 2 planar channels -> interleaved frames (stereo), 1-, 2-, 4- or 8-byte elements | SSE2 unpacks, 16 bytes of each channel a step | the same loop, one frame a step |
//! | a transpose of at least 8 × 8 of 1-, 2-, 4- or 8-byte elements | the SIMD transposes of `transpose/` | their portable twins |
//!
//! A prepared [`CopyPlan`](crate::CopyPlan) classifies its plan once ([`Small::of_plan`],
//! `const`) and keeps the answer beside it; the run-time [`copy()`](crate::copy()) tries
//! [`copy_rank2`] before the general planner: two rank-2 operands of a transpose shape are
//! classified, bounds-checked and tested for a unique destination (the nesting test, the
//! one the general validation answers these shapes with) in a few dozen instructions.
//! Anything else, and element types whose bytes may not all be initialised, take the general
//! path unchanged, so the errors and the bytes written are the general path's. Hosts only:
//! bare-metal builds leave this module out and keep the general loops alone (code size).

#![expect(
    clippy::many_single_char_names,
    reason = "`d`, `s`, `l`, `r`, `n`: the destination, source, left and right channel pointers and the frame count, as in the kernels' contracts"
)]
#![cfg_attr(
    all(target_arch = "x86_64", not(miri)),
    expect(
        clippy::inline_always,
        reason = "the vector steps and their loads and stores must inline into their target-feature callers"
    )
)]

use core::mem::size_of;

#[cfg(all(target_arch = "x86_64", not(miri)))]
use crate::kernel::cpu::{self, Features as Cpu};
use crate::kernel::drive::step;
use crate::kernel::element::is_plain;
use crate::kernel::mapping::Lowered;
use crate::kernel::plan::Plan;
use crate::kernel::proof::Unique;
use crate::kernel::transpose;

/// Which block kernel a [`Small`] block runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
enum Kind {
    /// `eb == 2`, `dr == 2`: two planar channels into interleaved frames.
    Interleave2,
    /// `ea, eb >= 8`: a transpose with at least one whole SIMD tile each way.
    Transpose,
    /// A transpose of 4-byte elements made of whole 8 × 8 tiles (`ea`, `eb` multiples of
    /// 8): one AVX tile after another where the CPU has AVX, else as [`Kind::Transpose`].
    Tiles8,
}

/// One block `d[od + i·dr + j] = s[os + i + j·sr]` (`i < ea`, `j < eb`): the destination's
/// rows along `i`, its elements along `j` one apart; the source's the other way round.
///
/// Minted only by [`Small::of_plan`] (from a plan whose one nest is exactly this block) and
/// by [`copy_rank2`] (which checks it itself); a prepared plan keeps it beside that plan, as
/// it keeps the plan's shortest lengths and uniqueness token.
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
        // A transpose narrower than one SIMD tile runs element by element in
        // `transpose_unchecked`: the general path's channel kernels do better there.
        if ea >= 8 && eb >= 8 && sr != 1 {
            if itemsize == 4 && ea.is_multiple_of(8) && eb.is_multiple_of(8) {
                return Some(Kind::Tiles8);
            }
            return Some(Kind::Transpose);
        }
        None
    }

    /// The block of `plan`, when the plan is one untiled nest of two loops, the destination
    /// running along one and the source along the other, with a block kernel for it.
    /// A `const fn`: a plan built at compile time is classified at compile time.
    pub(crate) const fn of_plan(plan: &Plan<2>, itemsize: usize) -> Option<Self> {
        let [nest] = plan.nests() else {
            return None;
        };
        if nest.tile().is_some() {
            return None;
        }
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
        let Some(cpu) = Cpu::known() else {
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
        // SAFETY: `od` and `os` are the block's first offsets (contract).
        let (d, s) = unsafe { (d.offset(od), s.offset(os)) };
        match kind {
            Kind::Interleave2 => {
                // SAFETY: the contract with `eb == 2`, `dr == 2`: `ea` frames of two elements
                // at `d`, the channels `ea` elements each at `s` and `s + sr`.
                unsafe { interleave2(d, s, s.offset(sr), ea, cpu) };
            }
            #[cfg(all(target_arch = "x86_64", not(miri)))]
            Kind::Tiles8 if size_of::<T>() == 4 && cpu.avx() => {
                // SAFETY: the contract, for 4-byte elements (`classify` checked the itemsize,
                // the caller matched it with `size_of::<T>()`, `T` is plain, so its bits move
                // as `f32` bits), `ea` and `eb` multiples of 8 (`classify`); AVX is present.
                unsafe { x86::tiles8_avx(d.cast::<f32>(), dr, s.cast::<f32>(), sr, ea, eb) };
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
    unsafe fn run_detecting<T: Copy + 'static>(&self, d: *mut T, s: *const T) -> bool {
        cpu::detect_now();
        // SAFETY: the contract.
        unsafe { self.run(d, s) }
    }
}

/// Where the CPU's features are not detected (other architectures, Miri): the portable
/// kernels, always known.
#[cfg(not(all(target_arch = "x86_64", not(miri))))]
#[derive(Clone, Copy)]
struct Cpu;

#[cfg(not(all(target_arch = "x86_64", not(miri))))]
impl Cpu {
    /// Always known.
    #[expect(
        clippy::unnecessary_wraps,
        reason = "the same signature as the x86-64 `Features::known`"
    )]
    fn known() -> Option<Self> {
        Some(Self)
    }
}

/// Where the CPU's features are not detected: nothing to detect.
#[cfg(not(all(target_arch = "x86_64", not(miri))))]
mod cpu {
    /// Nothing to detect.
    pub(super) fn detect_now() {}
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

/// Runs `small`, the block of the plan `unique` proves, on `dst` and `src`; `false` (nothing
/// written) when `T` takes the general loops instead.
#[inline]
pub(crate) fn copy_planned<T: Copy + 'static>(
    unique: &Unique<'_, 2>,
    small: &Small,
    dst: &mut [T],
    src: &[T],
) -> bool {
    if unique.bounds().plan_for([dst.len(), src.len()]).is_err() {
        return false;
    }
    // SAFETY: `small` is the one block of the plan (`Small::of_plan`, kept beside it), whose
    // every offset lies inside `dst` and `src` (the `InBounds` witness, for these lengths);
    // the destination is unique (`Unique` witness); `dst` and `src` are distinct borrows.
    unsafe { small.run(dst.as_mut_ptr(), src.as_ptr()) }
}

/// Whether `n` rows `r` apart of `len` consecutive elements each, the first at `o`, lie
/// inside a slice of `slice` elements (`n`, `len` at least 1). Checked arithmetic in
/// `isize`: an overflow answers `false` (the general path then plans the copy and reports
/// it), so no wider type is needed.
#[inline]
fn rows_inside(o: isize, r: isize, n: usize, len: usize, slice: usize) -> bool {
    let Some(last) = isize::try_from(n.saturating_sub(1))
        .ok()
        .and_then(|k| k.checked_mul(r))
    else {
        return false;
    };
    let Some(end) = o.checked_add(last) else {
        return false;
    };
    let (lo, hi) = if last < 0 { (end, o) } else { (o, end) };
    lo >= 0
        && hi
            .unsigned_abs()
            .checked_add(len.saturating_sub(1))
            .is_some_and(|e| e < slice)
}

/// [`copy()`](crate::copy()) of two rank-2 operands that form a [`Small`] block: checks
/// everything the general path would (element sizes, shapes, no interleave, every offset
/// inside its slice, a unique destination) and runs the block kernel; `false`, nothing
/// written, when any check fails or the operands are of another shape, for the general path
/// to plan (and to report the error, the same as without this path).
#[inline]
pub(crate) fn copy_rank2<T: Copy + 'static, const N: usize>(
    dst: &mut [T],
    dl: &Lowered<N>,
    src: &[T],
    sl: &Lowered<N>,
) -> bool {
    if N != 2 || !is_plain::<T>() {
        return false;
    }
    let size = size_of::<T>();
    let (&[e0, e1], &[d0, d1], &[s0, s1]) = (
        dl.shape.as_slice(),
        dl.strides.as_slice(),
        sl.strides.as_slice(),
    ) else {
        return false;
    };
    if dl.interleave.is_some()
        || sl.interleave.is_some()
        || sl.shape != dl.shape
        || dl.itemsize != size
        || sl.itemsize != size
    {
        return false;
    }
    // The axis along which the destination's elements are one apart becomes `j`.
    let (ea, eb, dr, sr) = if d1 == 1 && s0 == 1 {
        (e0, e1, d0, s1)
    } else if d0 == 1 && s1 == 1 {
        (e1, e0, d1, s0)
    } else {
        return false;
    };
    let Some(kind) = Small::classify(ea, eb, dr, sr, size) else {
        return false;
    };
    // A unique destination: rows of `eb` consecutive elements, at least `eb` apart (the
    // nesting test; `ea, eb >= 2` by `classify`). Then every offset inside its slice.
    if dr.unsigned_abs() < eb
        || !rows_inside(dl.offset, dr, ea, eb, dst.len())
        || !rows_inside(sl.offset, sr, eb, ea, src.len())
    {
        return false;
    }
    let small = Small {
        kind,
        ea,
        eb,
        dr,
        sr,
        od: dl.offset,
        os: sl.offset,
    };
    // SAFETY: every destination offset `od + i·dr + j` lies inside `dst` and every source
    // offset `os + i + j·sr` inside `src` (`rows_inside`, checked just above without
    // overflow); destination rows of `eb` consecutive elements `|dr| >= eb` apart never
    // share an element; `dst` and `src` are distinct borrows.
    unsafe { small.run(dst.as_mut_ptr(), src.as_ptr()) }
}

/// `d[2i] = l[i]`, `d[2i + 1] = r[i]` for `i < n`: two planar channels into interleaved
/// frames.
///
/// # Safety
///
/// `T` is a plain 1-, 2-, 4- or 8-byte primitive; `d..d + 2n` and `l..l + n`, `r..r + n`
/// are elements of their allocations, and the destination elements are none of the source
/// ones.
#[inline]
unsafe fn interleave2<T: Copy>(d: *mut T, l: *const T, r: *const T, n: usize, cpu: Cpu) {
    #[cfg(all(target_arch = "x86_64", not(miri)))]
    // SAFETY: the contract.
    unsafe {
        x86::interleave2(d, l, r, n, cpu);
    }
    #[cfg(not(all(target_arch = "x86_64", not(miri))))]
    // SAFETY: the contract (the portable loop needs no feature).
    unsafe {
        let Cpu = cpu;
        interleave2_portable(d, l, r, 0, n);
    }
}

/// The portable twin of the SIMD interleave: frames `from..n`, one a step.
///
/// # Safety
///
/// As [`interleave2`].
#[inline]
unsafe fn interleave2_portable<T: Copy>(
    d: *mut T,
    l: *const T,
    r: *const T,
    from: usize,
    n: usize,
) {
    for i in from..n {
        // SAFETY: frame `i < n`: `d + 2i`, `d + 2i + 1`, `l + i`, `r + i` (contract).
        unsafe {
            let f = d.offset(step(i, 2));
            f.write(l.offset(step(i, 1)).read());
            f.add(1).write(r.offset(step(i, 1)).read());
        }
    }
}

#[cfg(all(target_arch = "x86_64", not(miri)))]
mod x86 {
    use core::mem::size_of;

    use crate::kernel::cpu::Features as Cpu;
    use crate::kernel::drive::step;
    use crate::kernel::transpose::micro_avx;
    use core::arch::x86_64::{
        __m128i, _mm_loadu_si128, _mm_storeu_si128, _mm_unpackhi_epi8, _mm_unpackhi_epi16,
        _mm_unpackhi_epi32, _mm_unpackhi_epi64, _mm_unpacklo_epi8, _mm_unpacklo_epi16,
        _mm_unpacklo_epi32, _mm_unpacklo_epi64,
    };
    use core::arch::x86_64::{
        __m256i, _mm256_loadu_si256, _mm256_permute2x128_si256, _mm256_storeu_si256,
        _mm256_unpackhi_epi8, _mm256_unpackhi_epi16, _mm256_unpackhi_epi32, _mm256_unpackhi_epi64,
        _mm256_unpacklo_epi8, _mm256_unpacklo_epi16, _mm256_unpacklo_epi32, _mm256_unpacklo_epi64,
    };

    /// [`super::interleave2`]: 32 bytes of each channel a step with AVX2, then 16 with
    /// SSE2, then one frame a step; each path whole in one function, so a small block
    /// makes one call after one cached feature test.
    ///
    /// # Safety
    ///
    /// As [`super::interleave2`].
    #[inline]
    pub(super) unsafe fn interleave2<T: Copy>(
        d: *mut T,
        l: *const T,
        r: *const T,
        n: usize,
        cpu: Cpu,
    ) {
        if cpu.avx2() {
            // SAFETY: the contract; AVX2 is present.
            unsafe { interleave2_avx2(d, l, r, n) }
        } else {
            // SAFETY: the contract.
            unsafe { interleave2_sse2(d, l, r, n) }
        }
    }

    /// [`interleave2`] without AVX2: the [`narrow`] steps, not inlined, so that the
    /// dispatch around it needs no saved registers.
    ///
    /// # Safety
    ///
    /// As [`super::interleave2`].
    #[inline(never)]
    unsafe fn interleave2_sse2<T: Copy>(d: *mut T, l: *const T, r: *const T, n: usize) {
        // SAFETY: the contract.
        unsafe { narrow(d, l, r, 0, n) }
    }

    /// Frames `from..n` of [`interleave2`] (`from <= n`): 16-byte SSE2 steps, then one
    /// frame a step.
    ///
    /// # Safety
    ///
    /// As [`super::interleave2`], and `from <= n`.
    #[inline(always)]
    unsafe fn narrow<T: Copy>(d: *mut T, l: *const T, r: *const T, from: usize, n: usize) {
        let size = size_of::<T>();
        // Frames `from..n`: `from <= n`, so the offsets stay inside the channels and the
        // frames (contract).
        let (b, rest) = (from.wrapping_mul(size), n.wrapping_sub(from));
        let (db, lb, rb) = (
            d.cast::<u8>().wrapping_add(b.wrapping_mul(2)),
            l.cast::<u8>().wrapping_add(b),
            r.cast::<u8>().wrapping_add(b),
        );
        // SAFETY: in each arm, the contract for frames `from..n`; the unpacks are SSE2, part
        // of x86-64.
        let done = unsafe {
            match size {
                1 => steps::<__m128i, 16>(db, lb, rb, rest, |a, b| {
                    (_mm_unpacklo_epi8(a, b), _mm_unpackhi_epi8(a, b))
                }),
                2 => steps::<__m128i, 8>(db, lb, rb, rest, |a, b| {
                    (_mm_unpacklo_epi16(a, b), _mm_unpackhi_epi16(a, b))
                }),
                4 => steps::<__m128i, 4>(db, lb, rb, rest, |a, b| {
                    (_mm_unpacklo_epi32(a, b), _mm_unpackhi_epi32(a, b))
                }),
                8 => steps::<__m128i, 2>(db, lb, rb, rest, |a, b| {
                    (_mm_unpacklo_epi64(a, b), _mm_unpackhi_epi64(a, b))
                }),
                _ => 0,
            }
        };
        // SAFETY: frames `from + done..n` (contract; `done <= rest`).
        unsafe { super::interleave2_portable(d, l, r, from.wrapping_add(done), n) };
    }

    /// [`interleave2`] with AVX2: 32-byte steps (the in-lane unpacks, then the two halves
    /// put back in order with `vperm2i128`), then the [`narrow`] tail.
    ///
    /// # Safety
    ///
    /// As [`super::interleave2`]; AVX2 is present.
    #[target_feature(enable = "avx2")]
    unsafe fn interleave2_avx2<T: Copy>(d: *mut T, l: *const T, r: *const T, n: usize) {
        let (db, lb, rb) = (d.cast::<u8>(), l.cast::<u8>(), r.cast::<u8>());
        // The frames of the two unpacked halves in order (a closure: it has AVX2 too).
        let order = |(lo, hi): (__m256i, __m256i)| {
            (
                _mm256_permute2x128_si256::<0x20>(lo, hi),
                _mm256_permute2x128_si256::<0x31>(lo, hi),
            )
        };
        // SAFETY: in each arm, the contract; AVX2 is present.
        let wide = unsafe {
            match size_of::<T>() {
                1 => steps::<__m256i, 32>(db, lb, rb, n, |a, b| {
                    order((_mm256_unpacklo_epi8(a, b), _mm256_unpackhi_epi8(a, b)))
                }),
                2 => steps::<__m256i, 16>(db, lb, rb, n, |a, b| {
                    order((_mm256_unpacklo_epi16(a, b), _mm256_unpackhi_epi16(a, b)))
                }),
                4 => steps::<__m256i, 8>(db, lb, rb, n, |a, b| {
                    order((_mm256_unpacklo_epi32(a, b), _mm256_unpackhi_epi32(a, b)))
                }),
                8 => steps::<__m256i, 4>(db, lb, rb, n, |a, b| {
                    order((_mm256_unpacklo_epi64(a, b), _mm256_unpackhi_epi64(a, b)))
                }),
                _ => 0,
            }
        };
        // SAFETY: frames `wide..n` (`wide <= n`; contract).
        unsafe { narrow(d, l, r, wide, n) }
    }

    /// `n / PER` steps of one vector `V` of each channel, `PER` frames each, interleaved by
    /// `unpack` into two destination vectors; returns the frames done.
    ///
    /// # Safety
    ///
    /// As [`interleave2`], with `PER` frames filling one `V`; the CPU has `V`'s loads.
    #[inline(always)]
    unsafe fn steps<V: Vector, const PER: usize>(
        d: *mut u8,
        l: *const u8,
        r: *const u8,
        n: usize,
        unpack: impl Fn(V, V) -> (V, V),
    ) -> usize {
        let w = size_of::<V>();
        let steps = n.checked_div(PER).unwrap_or(0);
        let mut k = 0usize;
        while k < steps {
            // `k < steps`, so `w·k + w <= n·size` and `2w·k + 2w <= 2n·size`: in bounds.
            let (i, o) = (k.wrapping_mul(w), k.wrapping_mul(w.wrapping_mul(2)));
            // SAFETY: `w` bytes of each channel at byte `w·k`, `2w` destination bytes at
            // `2w·k` (contract, by the bound above); unaligned loads and stores.
            unsafe {
                let (lo, hi) = unpack(V::load(l.add(i)), V::load(r.add(i)));
                lo.store(d.add(o));
                hi.store(d.add(o).add(w));
            }
            k = k.wrapping_add(1);
        }
        steps.wrapping_mul(PER)
    }

    /// A vector register moved with unaligned loads and stores.
    trait Vector: Copy {
        /// # Safety
        ///
        /// `size_of::<Self>()` bytes at `p` are readable; the CPU has the load.
        unsafe fn load(p: *const u8) -> Self;
        /// # Safety
        ///
        /// `size_of::<Self>()` bytes at `p` are writable; the CPU has the store.
        unsafe fn store(self, p: *mut u8);
    }

    #[expect(
        clippy::cast_ptr_alignment,
        reason = "the vector pointers are only used with unaligned loads and stores"
    )]
    impl Vector for __m128i {
        #[inline(always)]
        unsafe fn load(p: *const u8) -> Self {
            // SAFETY: the caller's contract; SSE2 is part of x86-64.
            unsafe { _mm_loadu_si128(p.cast::<__m128i>()) }
        }
        #[inline(always)]
        unsafe fn store(self, p: *mut u8) {
            // SAFETY: the caller's contract; SSE2 is part of x86-64.
            unsafe { _mm_storeu_si128(p.cast::<__m128i>(), self) }
        }
    }

    #[expect(
        clippy::cast_ptr_alignment,
        reason = "the vector pointers are only used with unaligned loads and stores"
    )]
    impl Vector for __m256i {
        #[inline(always)]
        unsafe fn load(p: *const u8) -> Self {
            // SAFETY: the caller's contract (the CPU has AVX).
            unsafe { _mm256_loadu_si256(p.cast::<__m256i>()) }
        }
        #[inline(always)]
        unsafe fn store(self, p: *mut u8) {
            // SAFETY: the caller's contract (the CPU has AVX).
            unsafe { _mm256_storeu_si256(p.cast::<__m256i>(), self) }
        }
    }

    /// `d[i·dr + j] = s[i + j·sr]` for `i < ea`, `j < eb`, in 8 × 8 tiles of `f32` bits
    /// ([`micro_avx`], the large transposes' tile: eight whole-row loads, 24 shuffles and
    /// eight stores, all in registers). Measured against loading half rows into both lanes
    /// (`vinsertf128` from memory, 16 shuffles and 16 loads): as fast where destination rows
    /// start 16 bytes off a 32-byte boundary, about 12% faster where they start on one (AMD
    /// Zen 3).
    ///
    /// # Safety
    ///
    /// AVX is present; `ea` and `eb` are multiples of 8; every `d + i·dr + j` and
    /// `s + i + j·sr` is an element of its slice, no destination element a source one.
    #[target_feature(enable = "avx")]
    pub(super) unsafe fn tiles8_avx(
        d: *mut f32,
        dr: isize,
        s: *const f32,
        sr: isize,
        ea: usize,
        eb: usize,
    ) {
        let mut i = 0usize;
        while i < ea {
            let mut j = 0usize;
            while j < eb {
                // The tile at `(i, j)`: `i + 8 <= ea`, `j + 8 <= eb` (multiples of 8).
                let (dt, st) = (
                    d.wrapping_offset(step(i, dr).wrapping_add(step(j, 1))),
                    s.wrapping_offset(step(i, 1).wrapping_add(step(j, sr))),
                );
                // SAFETY: source rows `j + q` (`q < 8`), 8 elements each from `i`, are
                // elements of the source (contract); destination rows `i + q`, 8 elements
                // each from `j`, of the destination; AVX is present.
                unsafe { micro_avx(dt, dr, st, sr) };
                j = j.wrapping_add(8);
            }
            i = i.wrapping_add(8);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Kind, SMALL_MAX_BYTES, Small, rows_inside};

    /// `rows_inside` against the model (every offset of the rows, in `i128`) over first
    /// offsets -8..=8, row steps -6..=6 (0 included), 1..=4 rows of 1..=4 elements and slices
    /// of 0..=24; then at the edges of `isize`, where the checked arithmetic answers `false`.
    /// Under Miri (safe code: the 32-bit run is what it adds) every fourth offset, row step
    /// and slice length.
    #[test]
    fn rows_inside_matches_the_model_and_refuses_overflow() {
        let step = if cfg!(miri) { 4 } else { 1 };
        let mut checked = 0usize;
        for o in (-8isize..=8).step_by(step) {
            for r in (-6isize..=6).step_by(step) {
                for n in 1usize..=4 {
                    for len in 1usize..=4 {
                        for slice in (0usize..=24).step_by(step) {
                            let inside = (0..n).all(|i| {
                                (0..len).all(|j| {
                                    let off = o as i128 + i as i128 * r as i128 + j as i128;
                                    off >= 0 && off < slice as i128
                                })
                            });
                            assert_eq!(
                                rows_inside(o, r, n, len, slice),
                                inside,
                                "o {o} r {r} n {n} len {len} slice {slice}"
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        let cases = if cfg!(miri) {
            5 * 4 * 4 * 4 * 7
        } else {
            17 * 13 * 4 * 4 * 25
        };
        assert_eq!(checked, cases);
        // (n - 1)·r, o + (n - 1)·r and the last element's offset past `isize` or `usize`.
        assert!(!rows_inside(0, isize::MAX, 3, 1, usize::MAX));
        assert!(!rows_inside(isize::MAX, 1, 2, 1, usize::MAX));
        assert!(!rows_inside(isize::MIN, -1, 2, 1, usize::MAX));
        assert!(!rows_inside(isize::MAX, 0, 1, usize::MAX, usize::MAX));
        assert!(rows_inside(isize::MAX - 1, 0, 1, 1, usize::MAX));
    }

    #[test]
    fn classify_takes_small_blocks_and_leaves_large_ones_to_the_general_kernels() {
        // 16 × 16 and 64 × 64 f32 transposes, 64 stereo frames: block kernels.
        assert_eq!(Small::classify(16, 16, 16, 16, 4), Some(Kind::Tiles8));
        assert_eq!(Small::classify(64, 64, 64, 64, 4), Some(Kind::Tiles8));
        assert_eq!(Small::classify(64, 2, 2, 64, 2), Some(Kind::Interleave2));
        // The largest block taken, and one element more.
        let side = 64usize; // 64 × 128 f32 = 32 KiB
        assert_eq!(side * 2 * side * 4, SMALL_MAX_BYTES);
        assert_eq!(
            Small::classify(side, 2 * side, 128, 64, 4),
            Some(Kind::Tiles8)
        );
        assert_eq!(Small::classify(side + 1, 2 * side, 128, 65, 4), None);
        // A 4096² f32 transpose and a million stereo frames: the general kernels.
        assert_eq!(Small::classify(4096, 4096, 4096, 4096, 4), None);
        assert_eq!(Small::classify(1 << 20, 2, 2, 1 << 20, 2), None);
        // Extents whose product overflows: not taken.
        assert_eq!(Small::classify(usize::MAX, 2, 2, 2, 1), None);
    }
}
