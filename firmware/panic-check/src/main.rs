//! Calls every public function of `strided-layout` with inputs read through
//! `read_volatile`, so the optimiser must keep every check that could fail. The panic handler
//! calls `strided_layout_panic_path_found`, which is defined nowhere: if any panic path is
//! still reachable after optimisation, linking fails with that name.
//!
//! Deliberately not called: `const_unwrap`, `nested::const_unwrap`, `algebra::const_unwrap` and
//! `dma::const_unwrap`
//! (they panic on `Err` by design: that is how a bad `const` item fails the build;
//! `const_layout!` is the first's never-at-runtime form); the
//! `ndarray` conversions (ndarray needs `alloc`, and this program has no allocator) and the
//! `rayon` kernels (`std`). CI compares this file with the crate's public functions
//! (`.ci/doc_examples.py`), so a new one cannot be forgotten here.
#![no_std]
#![no_main]

use core::hint::black_box;
use core::panic::PanicInfo;
use core::ptr::read_volatile;

use strided_layout::algebra::{self, AlgebraError, Swizzle, SwizzledLayout};
use strided_layout::dlpack::{DLDataType, DLDevice, DlpackView};
use strided_layout::gpu::{KernelIndex, KernelLayout, KernelNestedLayout, TmaSwizzle, TmaTiled};
use strided_layout::index::{AxisArgs, IntoAxisArg};
use strided_layout::nested::{NestedError, NestedLayout, RankedNested};
use strided_layout::plan::{Blocks, Level, Lowered, Plan};
use strided_layout::rank::{AddsAxes, Merged, NotLower, OneLess, OneMore, Rank};
use strided_layout::{
    AxisMask, DynLayout, InterleaveLayout, InterleavedLayout, Layout, Order, Slice, s,
};

unsafe extern "C" {
    /// Defined nowhere, on purpose.
    fn strided_layout_panic_path_found() -> !;
}

#[panic_handler]
fn panic(_: &PanicInfo) -> ! {
    // SAFETY: never runs; the call only exists so a reachable panic fails the link.
    unsafe { strided_layout_panic_path_found() }
}

static mut SHAPE: [usize; 8] = [2, 3, 4, 5, 1, 2, 3, 4];
static mut STRIDES: [isize; 8] = [60, 20, 5, 1, 7, -3, 0, 2];
static mut SCALARS: [isize; 8] = [0, 1, 2, 3, 4, -1, 8, 16];
static mut USIZES: [usize; 8] = [0, 1, 2, 3, 4, 5, 0x1000, usize::MAX];
static mut BITS: u64 = 0b0110;
static mut SRC: [u8; 256] = [0; 256];
static mut DST: [u8; 256] = [0; 256];
static mut SRC32: [f32; 64] = [0.0; 64];
static mut TEXT: [u8; 32] = *b"((4,3)|10,5):((1,20),4) +3 x4B  ";
static mut DST32: [f32; 64] = [0.0; 64];

/// `PANIC_CHECK_ONLY=<line>` at build time keeps only the `keep!` call on that source line
/// (how `run --each` finds which call reaches a panic); unset, every call is kept.
const ONLY: u32 = match option_env!("PANIC_CHECK_ONLY") {
    Some(s) => parse(s.as_bytes()),
    None => 0,
};

const fn parse(b: &[u8]) -> u32 {
    let mut v = 0u32;
    let mut rest = b;
    while let [d, tail @ ..] = rest {
        v = v
            .wrapping_mul(10)
            .wrapping_add((*d).wrapping_sub(b'0') as u32);
        rest = tail;
    }
    v
}

/// Keeps the value of an expression alive (so the call cannot be optimised away).
macro_rules! keep {
    ($e:expr) => {
        if ONLY == 0 || ONLY == line!() {
            let _ = black_box($e);
        }
    };
}

/// A value the optimiser cannot predict.
fn us(i: usize) -> usize {
    // SAFETY: a plain read of a `static mut` of `Copy` data; nothing writes it concurrently
    // (the program is single-threaded and never writes these statics).
    unsafe {
        read_volatile(&raw const USIZES)
            .get(i & 7)
            .copied()
            .unwrap_or(0)
    }
}

fn is(i: usize) -> isize {
    // SAFETY: as in `us`.
    unsafe {
        read_volatile(&raw const SCALARS)
            .get(i & 7)
            .copied()
            .unwrap_or(0)
    }
}

fn arr_u<const N: usize>(base: usize) -> [usize; N] {
    // SAFETY: as in `us`.
    let src = unsafe { read_volatile(&raw const SHAPE) };
    let mut out = [0usize; N];
    for (k, o) in out.iter_mut().enumerate() {
        *o = src.get((base + k) & 7).copied().unwrap_or(1);
    }
    out
}

fn arr_i<const N: usize>(base: usize) -> [isize; N] {
    // SAFETY: as in `us`.
    let src = unsafe { read_volatile(&raw const STRIDES) };
    let mut out = [0isize; N];
    for (k, o) in out.iter_mut().enumerate() {
        *o = src.get((base + k) & 7).copied().unwrap_or(1);
    }
    out
}

fn slice_of(i: usize) -> Slice {
    let step = is(i + 3);
    Slice::new(
        Some(is(i)),
        if us(i) & 1 == 1 {
            Some(is(i + 1))
        } else {
            None
        },
        step,
    )
}

fn order<const N: usize>(i: usize) -> Order<N> {
    match us(i) & 3 {
        0 => Order::C,
        1 => Order::F,
        2 => Order::Keep,
        _ => Order::Perm(arr_u::<N>(i)),
    }
}

/// The kernels over the static buffers, each operand a layout the optimiser cannot see.
fn kernels<
    const N: usize,
    L: strided_layout::plan::Mapping<N>,
    M: strided_layout::plan::Mapping<N>,
>(
    a: &L,
    b: &M,
) {
    // SAFETY: single-threaded, and these are the only references to the statics while they
    // live (each kernel call below ends before the next begins).
    let (src, dst) = unsafe { (&*(&raw const SRC), &mut *(&raw mut DST)) };
    // SAFETY: as above.
    let (src32, dst32) = unsafe { (&*(&raw const SRC32), &mut *(&raw mut DST32)) };
    keep!(strided_layout::copy(src, a, dst, b));
    keep!(strided_layout::copy(src32, a, dst32, b));
    keep!(strided_layout::fill(dst, b, 7u8));
    keep!(strided_layout::map(src, a, dst32, b, f32::from));
    keep!(strided_layout::zip_map(
        src,
        a,
        src32,
        a,
        dst32,
        b,
        |x, y| f32::from(x) + y
    ));
    keep!(strided_layout::fold(src32, a, 0.0f32, |acc, x| acc + x));
    keep!(strided_layout::copy_within(dst, a, b));
    {
        // SAFETY: a reborrow of `dst32` as `MaybeUninit` (same layout; every `f32` is a valid
        // `MaybeUninit<f32>`), alive only for this call.
        let uninit = unsafe {
            &mut *(core::ptr::from_mut::<[f32]>(dst32) as *mut [core::mem::MaybeUninit<f32>])
        };
        keep!(strided_layout::copy_uninit(src32, a, uninit, b).map(|s| s.len()));
    }
    if let Ok(plan) = strided_layout::CopyPlan::of(a, b) {
        keep!((plan.src_len(), plan.dst_len()));
        keep!((plan.src_itemsize(), plan.dst_itemsize()));
        exercise_dma(&plan);
        keep!(plan.run(src32, dst32));
        keep!(plan.run_map(src, dst32, f32::from));
        keep!(
            plan.tuned(src32, dst32, || u64::try_from(us(7)).unwrap_or(0))
                .map(|p| p.src_len())
        );
        // SAFETY: as above.
        let uninit = unsafe {
            &mut *(core::ptr::from_mut::<[f32]>(dst32) as *mut [core::mem::MaybeUninit<f32>])
        };
        keep!(plan.run_uninit(src32, uninit).map(|s| s.len()));
        if let Ok(parts) = plan.parts(src32, dst32, us(5)) {
            let (head, tail) = parts.split_at(us(2));
            for part in head.chain(tail) {
                keep!((part.index(), part.plan().volume()));
                keep!(part.run());
            }
        }
    }
    if let Ok(plan) = strided_layout::CopyWithinPlan::of(a, b) {
        keep!((plan.len(), plan.is_empty()));
        keep!(plan.run(dst));
    }
    if let Ok(plan) = strided_layout::FillPlan::of(b) {
        keep!((plan.len(), plan.is_empty()));
        keep!(plan.run(dst, 3u8));
    }
    if let Ok(plan) = strided_layout::ZipMapPlan::of(a, a, b) {
        keep!(plan.lens());
        keep!(plan.run(src, src32, dst32, |x, y| f32::from(x) * y));
    }
    // The prepared plans with room for more nests than `MAX_NESTS`: the same runs.
    if let Ok(plan) = strided_layout::CopyPlan::<8>::with_nests(a, b) {
        exercise_copy_plan(&plan, src32, dst32);
    }
    // Room for fewer loops a nest than `MAX_LOOPS` (and for more, in a `Plan`): the same runs.
    if let Ok(plan) = strided_layout::CopyPlan::<8, 2>::with_loops(a, b) {
        exercise_copy_plan(&plan, src32, dst32);
    }
    if let Ok(plan) = strided_layout::CopyWithinPlan::<8>::with_nests(a, b) {
        keep!(plan.run(dst));
    }
    if let Ok(plan) = strided_layout::FillPlan::<8>::with_nests(b) {
        keep!(plan.run(dst, 3u8));
    }
    if let Ok(plan) = strided_layout::ZipMapPlan::<8>::with_nests(a, a, b) {
        keep!(plan.run(src, src32, dst32, |x, y| f32::from(x) * y));
    }
    let lowered: [Lowered<N>; 2] = [b.lowered(), a.lowered()];
    keep!(
        strided_layout::CopyPlan::<8>::with_nests_lowered(&lowered[1], &lowered[0])
            .map(|p| p.src_len())
    );
    keep!(
        strided_layout::CopyWithinPlan::<8>::with_nests_lowered(&lowered[1], &lowered[0])
            .map(|p| p.len())
    );
    keep!(strided_layout::FillPlan::<8>::with_nests_lowered(&lowered[0]).map(|p| p.len()));
    keep!(
        strided_layout::ZipMapPlan::<8>::with_nests_lowered(&lowered[1], &lowered[1], &lowered[0])
            .map(|p| p.lens())
    );
    if let Ok(plan) = Plan::<2, 8>::with_nests(&lowered) {
        keep!((plan.volume(), plan.part(us(1), us(3)).volume()));
    }
    keep!(
        strided_layout::CopyPlan::<8, 2>::with_loops_lowered(&lowered[1], &lowered[0])
            .map(|p| p.src_len())
    );
    if let Ok(plan) = Plan::<2, 8, 12>::with_loops(&lowered) {
        keep!((plan.volume(), plan.part(us(1), us(3)).volume()));
    }
    keep!(strided_layout::CopyPlan::from_lowered(&lowered[1], &lowered[0]).map(|p| p.src_len()));
    keep!(strided_layout::CopyWithinPlan::from_lowered(&lowered[1], &lowered[0]).map(|p| p.len()));
    keep!(strided_layout::FillPlan::from_lowered(&lowered[0]).map(|p| p.len()));
    keep!(
        strided_layout::ZipMapPlan::from_lowered(&lowered[1], &lowered[1], &lowered[0])
            .map(|p| p.lens())
    );
    if let Ok(plan) = Plan::<2>::new(&lowered) {
        keep!((plan.volume(), plan.nests().len()));
        for nest in plan.nests() {
            keep!((
                nest.loops().len(),
                nest.bounds(),
                nest.tile(),
                nest.volume()
            ));
        }
        keep!(plan.part(us(2), us(3)).volume());
        let mut text: heapless::String<512> = heapless::String::new();
        keep!(core::fmt::write(&mut text, format_args!("{plan}")));
    }
}

/// Every query and same-rank transform of a `Layout<N>`, and the rank changes to `N - 1`,
/// `N + 1` and `M`.
fn exercise<const N: usize, const NM1: usize, const NP1: usize>()
where
    Rank<N>:
        OneLess<N, NM1> + OneMore<N, NP1> + NotLower<N, NP1> + AddsAxes<N, 1, NP1> + Merged<N, NM1>,
    Rank<NP1>: OneLess<NP1, N>,
{
    let item = us(2);
    let Ok(l) = Layout::<N>::new(arr_u(0), arr_i(0), item) else {
        return;
    };
    let l = l.with_offset(is(4)).unwrap_or(l);
    keep!(Layout::<N>::from_byte_strides(arr_u(1), arr_i(1), us(3)));
    keep!(Layout::<N>::dense(arr_u(2), us(1), order(5)));
    keep!(Layout::<N>::dense_of::<u16>(arr_u(2), order(5)));
    keep!(Layout::<N>::new_of::<f32>(arr_u(0), arr_i(0)));
    keep!(Layout::<N>::dense_like(&l, order(6)));
    keep!(l.to_dense(order(7)));

    keep!((
        l.shape(),
        l.strides(),
        l.itemsize(),
        l.offset(),
        l.ndim(),
        l.volume()
    ));
    keep!((l.offset_in_bytes(), l.strides_in_bytes()));
    keep!((
        l.is_contiguous_c(),
        l.is_contiguous_f(),
        l.is_contiguous_any()
    ));
    keep!((l.is_dense(), l.is_unique(), l.offset_bounds()));
    keep!((l.required_size_in_bytes(), l.required_len()));
    keep!(l.stride_order());
    keep!(l.flattened_axis_mask());
    keep!(l.max_compatible_itemsize(us(6), us(5), is(5)));
    keep!(l.offset_of(arr_u(3)));
    keep!((l.contiguous_axis(), l.stride_rank()));
    keep!((
        l.contiguous_offsets(),
        l.inner_stride(),
        l.has_contiguous_inner()
    ));
    keep!((l.as_2d_strides(), l.has_positive_strides()));
    keep!(l.fits_in::<i32>());
    keep!(l.overlaps(&l));

    keep!(l.permuted(arr_u(4)));
    keep!(l.transposed(us(1), us(2)));
    keep!(l.flipped(us(3)));
    keep!(l.narrowed(us(1), us(2), us(3)));
    let mut slices = [Slice::FULL; N];
    for (k, s) in slices.iter_mut().enumerate() {
        *s = slice_of(k);
    }
    keep!(l.sliced(slices));
    keep!(l.repacked(us(6), us(4), is(5)));
    keep!(l.repacked_dropping_axis(us(6), us(4), is(5)));

    keep!(l.broadcast_to::<NP1>(arr_u(5)));
    keep!(l.broadcast_to::<N>(arr_u(6)));
    keep!(l.unsqueezed::<NP1>(us(3)));
    keep!(l.unsqueezed_axes::<1, NP1>([us(2)]));
    keep!(l.selected::<NM1>(us(1), us(2)));
    keep!(l.reshaped::<NM1>(arr_i(2)));
    keep!(l.reshaped::<NP1>(arr_i(3)));
    keep!(l.reshaped_f::<NP1>(arr_i(4)));
    keep!(l.split_axis::<NP1>(us(1), us(2)));
    keep!(l.merged_axes::<NM1>(us(1)));
    keep!(l.squeezed());
    keep!(l.flattened());
    keep!(l.flattened_range(us(1), us(3)));
    // SAFETY: as in `us`.
    let bits = unsafe { read_volatile(&raw const BITS) };
    keep!(l.flattened_with_mask(AxisMask::from_bits(bits)));
    let m = AxisMask::from_bits(bits);
    keep!((m.bits(), m.contains(us(2)), m.with(us(3)), m.count(), m & m));

    keep!(l.is_unique_within(us(6) as u64));
    keep!(l.is_unique_within(us(6) as u64).known());
    keep!(strided_layout::CopyPlan::new(&l, &l).map(|p| p.src_len()));
    keep!(strided_layout::CopyWithinPlan::new(&l, &l).map(|p| p.len()));
    keep!(strided_layout::FillPlan::new(&l).map(|p| p.len()));
    keep!(strided_layout::ZipMapPlan::new(&l, &l, &l).map(|p| p.lens()));
    keep!(l.overlaps_within(&l, us(6) as u64));
    keep!(Layout::<N>::from_parts(arr_u(1), arr_i(3), is(5), us(2)));
    keep!((l.offset_of_in_bytes(arr_u(2)), l.byte_span(), l.is_empty()));
    keep!((l.fits_in_bytes::<i32>(), l.normalized_axis(is(6))));
    keep!(l.contiguous_batch_size());
    keep!(l.offsets().fold(0isize, |a, o| a.wrapping_add(o)));
    keep!(l.indices().fold(0usize, |a, i| a.wrapping_add(i[0])));
    keep!(
        l.strided_blocks()
            .fold(0usize, |a, b| a.wrapping_add(b.len))
    );
    let blocks = l.strided_blocks();
    keep!((
        blocks.block_len(),
        blocks.num_blocks(),
        blocks.block_stride()
    ));
    keep!(l.offsets().len());
    keep!(l.offsets().rev().fold(0isize, |a, o| a.wrapping_add(o)));
    keep!(l.indices().next_back());
    keep!(
        l.strided_blocks()
            .rev()
            .fold(0usize, |a, b| a.wrapping_add(b.len))
    );
    if let Ok(il) = InterleaveLayout::new(us(1), us(4)) {
        keep!((il.dimension(), il.factor()));
        if let Ok(i) = InterleavedLayout::<N>::new(arr_u(0), arr_i(0), us(2), il) {
            let i = i.with_offset(is(2)).unwrap_or(i);
            keep!((
                i.shape(),
                i.strides(),
                i.offset(),
                i.itemsize(),
                i.interleave()
            ));
            keep!((
                i.ndim(),
                i.volume(),
                i.offset_of(arr_u(3)),
                i.last_block_len()
            ));
            keep!((
                i.offset_bounds(),
                i.required_size_in_bytes(),
                i.required_len()
            ));
            keep!((i.is_unique(), i.is_dense()));
            keep!((
                i.is_unique_within(us(6) as u64),
                i.overlaps_within(&i, us(6) as u64)
            ));
            keep!((i.overlaps(&i), i.fits_in::<i32>(), i.fits_in_bytes::<i32>()));
            keep!(i.offsets().fold(0isize, |a, o| a.wrapping_add(o)));
            keep!(i.offsets().rev().fold(0isize, |a, o| a.wrapping_add(o)));
            keep!(i.indices().next_back());
            keep!(
                i.strided_blocks()
                    .rev()
                    .fold(0usize, |a, b| a.wrapping_add(b.len))
            );
            keep!((
                i.contiguous_axis(),
                i.stride_rank(),
                i.contiguous_batch_size()
            ));
            keep!(i.to_strided::<NP1>());
            keep!(i.to_strided_padded::<NP1>());
            keep!(i.permuted(arr_u(4)));
            keep!(i.narrowed(us(1), us(2), us(3)));
            keep!(i.selected::<NM1>(us(1), us(2)));
            kernels(&l, &i);
            kernels(&i, &l);
            keep!(KernelLayout::<u32, N>::from_interleaved(&i));
        }
        keep!(InterleavedLayout::<N>::dense(arr_u(1), us(2), il));
        keep!(InterleavedLayout::<N>::dense_of::<u32>(arr_u(1), il));
        keep!(InterleavedLayout::<N>::new_of::<u8>(arr_u(0), arr_i(0), il));
        if let Ok(st) = Layout::<NP1>::new(arr_u(2), arr_i(2), 4) {
            keep!(InterleavedLayout::<N>::from_strided::<NP1>(&st, us(1)));
        }
    }
    if let Ok(d) = Layout::<N>::new(arr_u(3), arr_i(4), 1) {
        kernels(&l, &d);
    }
    keep!(KernelLayout::<i32, N>::from_layout(&l));
    if let Ok(k) = KernelLayout::<i64, N>::from_layout(&l) {
        let ix = arr_u::<N>(2).map(|i| i as i64);
        keep!((
            k.offset_of(ix),
            k.checked_offset_of(ix),
            k.offset_of_linear(is(3) as i64)
        ));
        keep!(k.as_plain().map(|p| p.offset_of_linear(is(3) as i64)));
        keep!((
            k.volume(),
            k.interleave(),
            k.extents(),
            k.strides(),
            k.offset()
        ));
        keep!(k.words().fold(0i64, |a, w| a.wrapping_add(w)));
    }
    if let Some((m, sh)) = <u32 as KernelIndex>::division_magic(us(3) as u32) {
        keep!(<u32 as KernelIndex>::divide_fast(us(7) as u32, m, sh));
    }
    keep!(
        TmaTiled::<N>::new(&l, us(7) as u64, [us(1) as u32; N], [1; N], TmaSwizzle::B32)
            .map_err(|e| (e.axis(), e.as_str()))
    );
    if let Ok(t) = TmaTiled::<N>::new(&l, us(6) as u64, [us(2) as u32; N], [1; N], TmaSwizzle::B64)
    {
        keep!((
            t.global_address(),
            t.global_dim().len(),
            t.global_strides().len(),
            t.box_dim().len(),
            t.element_strides().len()
        ));
    }
    keep!(TmaSwizzle::B128.span());
    dlpack(&l);
    keep!(l.grid(us(1), us(2), arr_u(3)));
    keep!(l.to_text::<96>());
    if let Ok(g) = l.grid(us(1), us(2), arr_u(3)) {
        keep!(g.to_text::<256>());
    }
}

/// DLPack both ways over a static buffer: a view of `l`, its tensor, and the view read back.
fn dlpack<const N: usize>(l: &Layout<N>) {
    let f32x1 = DLDataType {
        code: DLDataType::FLOAT,
        bits: us(32) as u8,
        lanes: 1,
    };
    let (mut shape, mut strides) = ([0i64; N], [0i64; N]);
    let Ok(v) = DlpackView::from_layout(l, f32x1, &mut shape, &mut strides) else {
        return;
    };
    let cpu = DLDevice {
        device_type: DLDevice::CPU,
        device_id: 0,
    };
    // A pointer into the static buffer, never dereferenced here.
    let data = (&raw mut DST32).cast::<core::ffi::c_void>();
    let Ok(t) = v.to_tensor(data, cpu) else {
        return;
    };
    // SAFETY: `t` was built by `to_tensor` from a view whose shape and strides live in
    // `shape` and `strides`, which outlive this call.
    let Ok(back) = (unsafe { DlpackView::from_tensor(&t) }) else {
        return;
    };
    keep!(back.to_layout::<N>());
    keep!(back.to_dyn_layout::<4>());
    if let Ok(d) = DynLayout::<4>::from_layout(l) {
        let (mut shape, mut strides) = ([0i64; 4], [0i64; 4]);
        keep!(DlpackView::from_dyn_layout(&d, f32x1, &mut shape, &mut strides).is_ok());
    }
}

fn exercise_dyn<const MAX: usize>()
where
    Rank<3>: NotLower<3, MAX>,
{
    let shape = arr_u::<MAX>(1);
    let strides = arr_i::<MAX>(2);
    let n = us(4) & 3;
    let (Some(sh), Some(st)) = (shape.get(..n), strides.get(..n)) else {
        return;
    };
    let Ok(d) = DynLayout::<MAX>::new(sh, st, us(2)) else {
        return;
    };
    let d = d.with_offset(is(3)).unwrap_or(d);
    keep!((
        d.rank(),
        d.shape(),
        d.strides(),
        d.itemsize(),
        d.offset(),
        d.volume()
    ));
    keep!((
        d.offset_bounds(),
        d.required_size_in_bytes(),
        d.required_len(),
        d.offset_of(&arr_u::<MAX>(3))
    ));
    keep!((
        d.is_contiguous_c(),
        d.is_contiguous_f(),
        d.is_contiguous_any()
    ));
    keep!((d.is_dense(), d.is_unique(), d.flattened_axis_mask()));
    keep!(d.stride_order());
    keep!(d.to_layout::<3>());
    keep!(d.ndim());
    keep!(d.permuted(&arr_u::<MAX>(4)[..n]));
    keep!(d.transposed(us(1), us(2)));
    keep!(d.flipped(us(1)));
    keep!(d.narrowed(us(1), us(2), us(3)));
    let mut slices = [Slice::FULL; MAX];
    for (k, sl) in slices.iter_mut().enumerate() {
        *sl = slice_of(k);
    }
    keep!(d.sliced(&slices[..n]));
    keep!((d.overlaps(&d), d.offset_in_bytes(), d.strides_in_bytes()));
    keep!((d.offset_of_in_bytes(&arr_u::<MAX>(3)[..n]), d.byte_span()));
    keep!((d.fits_in::<i32>(), d.fits_in_bytes::<i64>(), d.is_empty()));
    keep!(d.normalized_axis(is(6)));
    keep!(d.offsets().fold(0isize, |a, o| a.wrapping_add(o)));
    keep!(
        d.strided_blocks()
            .fold(0usize, |a, b| a.wrapping_add(b.len))
    );
    keep!(d.indices().count());
    keep!(d.offsets().rev().fold(0isize, |a, o| a.wrapping_add(o)));
    keep!((
        d.is_unique_within(us(6) as u64),
        d.overlaps_within(&d, us(6) as u64)
    ));
    keep!(strided_layout::plan::Mapping::lowered(&d));
    if let Ok(l) = Layout::<3>::new(arr_u(0), arr_i(0), 4) {
        keep!(DynLayout::<MAX>::from_layout(&l));
        keep!(DynLayout::<MAX>::from(l));
    }
    let sl = slice_of(2);
    keep!(Slice::stepped(sl, is(3)));
    keep!(Slice::range(is(1), is(2)));
}

/// Every function of a nested layout, read from text the optimiser cannot see and converted
/// from a layout and an interleaved one.
fn nested() {
    // SAFETY: as in `us`.
    let bytes = unsafe { read_volatile(&raw const TEXT) };
    let text = bytes.get(..us(6) & 31).unwrap_or(&bytes);
    if let Ok(text) = core::str::from_utf8(text) {
        keep!(NestedLayout::<8>::parse(text).map(|n| n.size()));
        if let Ok(n) = NestedLayout::<8>::parse(text) {
            keep!((n.size(), n.cosize(), n.rank(), n.depth(), n.leaves()));
            keep!((
                n.leaf_extents().len(),
                n.leaf_strides().len(),
                n.offset(),
                n.itemsize()
            ));
            keep!((n.offset_of_linear(us(3)), n.offset_of(&arr_u::<2>(1))));
            keep!((n.offset_bounds(), n.required_len()));
            keep!((n.with_offset(is(2)), n.with_itemsize(us(2))));
            keep!(n.to_layout::<2>());
            keep!(n.to_interleaved::<2>());
            keep!((n.is_unique(), n.is_unique_within(us(6) as u64)));
            keep!((n.permuted(&arr_u::<2>(1)), n.selected(us(1), us(2))));
            keep!((
                n.flipped(us(1)),
                n.unsqueezed(us(2)),
                n.flattened_mode(us(0))
            ));
            keep!(n.narrowed_blocks(us(0), us(1), us(2)));
            let f32x1 = DLDataType {
                code: DLDataType::FLOAT,
                bits: us(32) as u8,
                lanes: 1,
            };
            let (mut shape, mut strides) = ([0i64; 2], [0i64; 2]);
            keep!(DlpackView::from_nested(&n, f32x1, &mut shape, &mut strides).is_ok());
            // The kernels' general form: its blocks' functions, and the kernels over it.
            if let Ok(low) = n.lowered::<2>() {
                let b = low.blocks;
                keep!((b.levels().len(), b.is_empty(), b.offset_on(us(0), us(3), is(2), is(1))));
                keep!(b.with(Level {
                    axis: us(0),
                    extent: us(2),
                    stride: is(1)
                }));
                keep!(Blocks::interleave(us(0), us(2)));
                kernels(&low, &low);
            }
            if let Ok(r) = RankedNested::<2, 8>::new(n) {
                keep!((r.rank(), r.layout().size(), r.offset_of(arr_u::<2>(1))));
                keep!((r.permuted(arr_u::<2>(1)), r.flipped(us(1))));
                keep!(r.narrowed_blocks(us(0), us(1), us(2)));
                keep!(r.lowered());
                keep!(KernelNestedLayout::<i32, 2, 2>::try_from(&r).map(|k| k.size()));
                keep!(r.selected::<1>(us(1), us(2)).map(RankedNested::into_layout));
                keep!(r.unsqueezed::<3>(us(2)).map(RankedNested::into_layout));
                let mut out: heapless::String<64> = heapless::String::new();
                keep!(core::fmt::write(&mut out, format_args!("{r}")));
            }
            // The kernel parameter: packed in two index types, and its device math.
            keep!(KernelNestedLayout::<u16, 2, 2>::from_nested(&n).map(|k| k.size()));
            if let Ok(k) = KernelNestedLayout::<i32, 2, 3>::try_from(&n) {
                let ix = arr_u::<2>(1).map(|i| i as i32);
                keep!((k.offset_of(ix), k.checked_offset_of(ix)));
                keep!((k.offset_of_linear(us(5) as i32), k.is_current()));
                keep!((k.sizes(), k.extents(), k.strides(), k.offset()));
                keep!(k.words().fold(0i32, |a, w| a.wrapping_add(w)));
            }
            keep!(RankedNested::<2, 8>::parse(text).map(|r| r.into_layout().size()));
            keep!(n.to_text::<64>());
            keep!(n.offsets().rev().fold(0isize, |a, o| a.wrapping_add(o)));
            if let Ok(g) = n.grid() {
                keep!(g.to_text::<256>());
            }
            let mut out: heapless::String<64> = heapless::String::new();
            keep!(core::fmt::write(&mut out, format_args!("{n}")));
        }
    }
    if let Ok(l) = Layout::<3>::new(arr_u(0), arr_i(0), 4) {
        keep!(NestedLayout::<4>::from_layout(&l).map(|n| n.offset_of_linear(us(3))));
    }
    if let Ok(il) = InterleaveLayout::new(us(1), us(4)) {
        if let Ok(i) = InterleavedLayout::<2>::new(arr_u(1), arr_i(2), 4, il) {
            keep!(NestedLayout::<4>::from_interleaved(&i).map(|n| n.offset_bounds()));
        }
    }
    if let Ok(tag) = core::str::from_utf8(bytes.get(..us(2) & 15).unwrap_or(&bytes)) {
        keep!(NestedLayout::<8>::onednn(tag, &arr_u::<4>(1), us(2)).map(|n| n.size()));
    }
    keep!(NestedError::NotCongruent.as_str());
}

/// Every function of the layout algebra, on two layouts read from text the optimiser cannot
/// see.
fn algebra() {
    // SAFETY: as in `us`.
    let bytes = unsafe { read_volatile(&raw const TEXT) };
    let (x, y) = bytes.split_at(us(6) & 31);
    let (Ok(x), Ok(y)) = (core::str::from_utf8(x), core::str::from_utf8(y)) else {
        return;
    };
    let (Ok(a), Ok(b)) = (NestedLayout::<8>::parse(x), NestedLayout::<8>::parse(y)) else {
        return;
    };
    keep!((algebra::coalesce(&a), algebra::coalesce_modes(&a)));
    keep!((
        algebra::composition(&a, &b),
        algebra::complement(&a, us(24))
    ));
    keep!((algebra::right_inverse(&a), algebra::left_inverse(&a)));
    keep!((
        algebra::logical_divide(&a, &b),
        algebra::zipped_divide(&a, &b)
    ));
    keep!((algebra::tiled_divide(&a, &b), algebra::flat_divide(&a, &b)));
    keep!((
        algebra::logical_product(&a, &b),
        algebra::zipped_product(&a, &b)
    ));
    keep!((
        algebra::tiled_product(&a, &b),
        algebra::blocked_product(&a, &b)
    ));
    keep!((
        algebra::raked_product(&a, &b),
        algebra::same_function(&a, &b)
    ));
    keep!(AlgebraError::NotInjective.as_str());
    let tiler = [b, a];
    let tiler = tiler.get(..us(1) & 1).unwrap_or(&tiler);
    keep!((
        algebra::composition_by_mode(&a, tiler),
        algebra::logical_divide_by_mode(&a, tiler)
    ));
    keep!((
        algebra::zipped_divide_by_mode(&a, tiler),
        algebra::tiled_divide_by_mode(&a, tiler)
    ));
    keep!((
        algebra::flat_divide_by_mode(&a, tiler),
        algebra::logical_product_by_mode(&a, tiler)
    ));
    keep!((
        algebra::zipped_product_by_mode(&a, tiler),
        algebra::tiled_product_by_mode(&a, tiler)
    ));
    keep!(algebra::local_tile(&a, tiler, &arr_u::<1>(0)));
    keep!(algebra::local_partition(&a, &b, us(5)));
    let swizzles = (
        Swizzle::new(us(2) as u32, us(3) as u32, is(3) as i32),
        Swizzle::tma(TmaSwizzle::B64, us(2)),
    );
    keep!(swizzles);
    if let Ok(sw) = swizzles.0 {
        keep!((sw.apply(us(100)), sw.parts()));
        if let Ok(s) = SwizzledLayout::new(sw, a) {
            keep!((
                s.swizzle(),
                s.layout().size(),
                s.offset_of_linear(us(3)),
                s.offset_of(&arr_u::<2>(1))
            ));
            keep!(s.bank_conflicts(&b));
        }
    }
}

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    nested();
    algebra();
    exercise::<2, 1, 3>();
    exercise::<3, 2, 4>();
    exercise::<4, 3, 5>();
    exercise_dyn::<4>();
    if let Ok(l) = Layout::<2>::new(arr_u(1), arr_i(2), 4) {
        keep!(l.grid_2d().to_text::<256>());
    }
    if let Ok(l) = Layout::<1>::new(arr_u(1), arr_i(2), 4) {
        keep!(l.grid_1d().to_text::<256>());
    }
    if let Ok(l) = Layout::<3>::new(arr_u(0), arr_i(0), 4) {
        let v: Result<Layout<2>, _> = s![l; is(1), .., is(2)..is(3); is(5)];
        keep!(v);
        let w: Result<Layout<1>, _> = l.indexed((is(2), (.., (is(1), ()))));
        keep!(w);
        keep!(is(1).into_axis_arg());
        let mut items = [strided_layout::index::AxisArg::Index(0); 2];
        (is(1), (.., ())).write(&mut items);
        keep!(items);
    }
    if let Ok(il) = InterleaveLayout::new(us(0), us(4)) {
        if let Ok(i) = InterleavedLayout::<2>::new(arr_u(1), arr_i(2), 4, il) {
            keep!(i.grid_2d().to_text::<256>());
        }
        if let Ok(i) = InterleavedLayout::<1>::new(arr_u(1), arr_i(2), 4, il) {
            keep!(i.grid_1d().to_text::<256>());
        }
    }
    keep!(strided_layout::LayoutError::OffsetOverflow.as_str());
    loop {
        core::hint::spin_loop();
    }
}

/// A prepared copy with room for other than the default nests or loops: its lengths, a run,
/// its parts and every engine's lowering.
fn exercise_copy_plan<const M: usize, const L: usize>(
    plan: &strided_layout::CopyPlan<M, L>,
    src: &[f32],
    dst: &mut [f32],
) {
    keep!((plan.src_len(), plan.dst_len(), plan.plan().nests().len()));
    exercise_dma(plan);
    keep!(plan.run(src, dst));
    if let Ok(parts) = plan.parts(src, dst, us(3)) {
        for part in parts {
            keep!(part.run());
        }
    }
}

/// Every engine's lowering of `plan`, at addresses read at run time.
fn exercise_dma<const M: usize, const L: usize>(plan: &strided_layout::CopyPlan<M, L>) {
    use strided_layout::dma::{DmaError, edma, edma3, gpdma, pl330, rp2040, rp2350};
    let (src, dst, at) = (us(6) as u32, us(6) as u32 ^ 0x100, us(6) as u32 & !31);
    let mut tcds = [edma::Descriptor::ZERO; 8];
    keep!(edma::lower(plan, src, dst, &mut tcds));
    keep!(edma::lower_at(plan, src, dst, &mut tcds, at));
    keep!(edma::rebase(plan, &mut tcds, src, dst, at));
    let mut sets = [edma3::Descriptor::NULL; 8];
    keep!(edma3::lower(plan, src, dst, &mut sets));
    keep!(edma3::lower_at(plan, src, dst, &mut sets, at));
    keep!(edma3::rebase(plan, &mut sets, src, dst, at));
    let mut items = [gpdma::Descriptor::ZERO; 8];
    keep!(gpdma::lower(plan, src, dst, &mut items));
    keep!(gpdma::lower_at(plan, src, dst, &mut items, at));
    keep!(gpdma::rebase(plan, &mut items, src, dst, at));
    let mut code = [0u8; 256];
    keep!(pl330::lower(plan, src, dst, &mut code));
    keep!(pl330::rebase(plan, &mut code, src, dst));
    let mut blocks = [rp2040::Descriptor::NULL; 8];
    keep!(rp2040::lower(plan, src, dst, &mut blocks));
    keep!(rp2040::lower_chained(
        plan,
        src,
        dst,
        &mut blocks,
        us(3) as u8
    ));
    keep!(rp2040::rebase(plan, &mut blocks, src, dst));
    let mut blocks = [rp2350::Descriptor::NULL; 8];
    keep!(rp2350::lower(plan, src, dst, &mut blocks));
    keep!(rp2350::lower_chained(
        plan,
        src,
        dst,
        &mut blocks,
        us(3) as u8
    ));
    keep!(rp2350::rebase(plan, &mut blocks, src, dst));
    keep!(DmaError::Address.as_str());
}
