//! The randomised sweep: random strided copies, each timed against the plain odometer loop a
//! newcomer writes and `copy_from_slice` of the same bytes, in one process; it finds the
//! cliffs, the layouts where `copy()` is slower than the loop.
//!
//! Cases (fixed seed, so every run times the same copies): rank 1-5; 1-, 2-, 4- and 8-byte
//! elements; 16 Ki to 1 Mi elements; on either side a dense buffer in a random axis order,
//! cropped (padding on an axis), stepped (every second or third element) and flipped at random.
//!
//! Run: `cargo bench -p strided-layout-bench --bench sweep` (options after `--`: `--cases N`,
//! `--seed S`, `--reps R`, `--warm-ms W`, `--out FILE`; `--only I` times case I alone and
//! prints its plan, `--plans` prints every case's plan and times nothing (with
//! `SWEEP_KERNEL=zip_map`, `map_cast`, `fill` or `fold` also that kernel's plan); `--pow2` draws
//! every extent a power of two and pads nothing, so that strides are powers of two, as
//! images' and tensors' often are). It prints every case slower than the loop, the
//! geometric mean of the speed-ups, and writes one line per case to `--out` (default
//! `target/sweep.tsv` of the workspace), which `benches/sweep_numpy.py` replays with NumPy's
//! `copyto` on views of buffers of the same lengths, for the comparison with NumPy.
//! Environment: `SWEEP_KERNEL=map` or `SWEEP_KERNEL=zip_map` times that kernel on the same
//! layouts in place of `copy()` (`map` doubling each element, `zip_map` adding a second
//! source laid out as the destination), against the plain loop doing the same per element
//! (and writes no file for the NumPy replay); `SWEEP_KERNEL=map_cast` times `map` into a
//! destination of elements a quarter or four times the source's size, on the same strides
//! (`u8` -> `u32`, `u16` -> `u64`, `u32` -> `u8`, `u64` -> `u16`); `SWEEP_KERNEL=fill` fills the
//! destination's layout and `SWEEP_KERNEL=fold` sums the source's, each against the plain
//! loop walking that one layout; `SWEEP_PREPARED=1` times a `CopyPlan` run in place of `copy()`,
//! `SWEEP_TUNED=1` a `CopyPlan` made `tuned` on the case's buffers first (and
//! `SWEEP_SHOW_TUNED=1` prints its plan where tuning kept another order than the planner's).
//!
//! Each case first runs `copy()`, the loop and `copy_from_slice` in turn, untimed, four times
//! and until `--warm-ms` (5 ms) have passed: buffers just filled run slower for their first
//! few passes on a virtual machine's share, whichever method touches them. Then each method
//! settled (run back to back, untimed, until its times stop falling: a copy of megabytes
//! after another method's traffic takes 5 to 12 runs to get its lines back into the last
//! level cache) and `reps / 2` runs back to back, the three in turn, twice, keeping each
//! one's median (the NumPy replay warms, settles and times `copyto` the same way).
//!
//! One process's buffers land where they land: a case can run 1.5-2.5x slower, the copy or
//! the loop or both, than the same case in another process (physical placement, cache sets).
//! So each case slower than the loop is timed again in a process of its own (`--only I`), and
//! both ratios are printed; `--no-recheck` leaves that out. To compare two builds (or a build
//! and NumPy) case by case, `benches/sweep_ab.py` times cases alone, the two sides
//! alternating, and diffs the two builds' `--plans` to find the cases a planner change moves.

use std::hint::black_box;
use std::time::{Duration, Instant};
use strided_layout::Layout;
#[allow(unused_imports)]
use strided_layout::plan::Mapping as _;

/// A small deterministic generator (xorshift64*), so the cases are the same on every machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    /// Uniform in `lo..=hi`.
    fn range(&mut self, lo: usize, hi: usize) -> usize {
        lo + (self.next() % (hi - lo + 1) as u64) as usize
    }
    /// True with probability `p` percent.
    fn chance(&mut self, p: u64) -> bool {
        self.next() % 100 < p
    }
    fn shuffle(&mut self, v: &mut [usize]) {
        for i in (1..v.len()).rev() {
            let j = self.range(0, i);
            v.swap(i, j);
        }
    }
}

/// One operand: strides and offset in elements, and the length of its buffer.
#[derive(Clone, Debug)]
struct Side {
    strides: Vec<isize>,
    offset: isize,
    len: usize,
}

/// One case: element size in bytes, the shape, source and destination.
#[derive(Clone, Debug)]
struct Case {
    itemsize: usize,
    shape: Vec<usize>,
    src: Side,
    dst: Side,
}

/// A random shape of `rank` axes with a volume between 16 Ki and 1 Mi elements (with `pow2`,
/// each extent a power of two: the largest not past the one drawn).
fn shape(rng: &mut Rng, rank: usize, pow2: bool) -> Vec<usize> {
    loop {
        let target = 1usize << rng.range(14, 20);
        let target = target + rng.range(0, target / 2);
        // Split log2(target) among the axes at random, then fix the last axis to approach it.
        let mut s: Vec<usize> = Vec::with_capacity(rank);
        let mut left = target;
        for k in 0..rank {
            if k + 1 == rank {
                s.push(left.max(1));
            } else {
                let max_log = (usize::BITS - left.leading_zeros()) as usize;
                let e = 1 + rng.range(0, max_log.saturating_sub(1).min(12));
                let ext = rng.range(1 << (e - 1), (1 << e).min(left.max(1)));
                let ext = ext.max(1);
                s.push(ext);
                left = (left / ext).max(1);
            }
        }
        rng.shuffle(&mut s);
        if pow2 {
            for x in &mut s {
                *x = 1 << (usize::BITS - 1 - x.leading_zeros());
            }
        }
        let vol: usize = s.iter().product();
        if (1 << 14..=1 << 20).contains(&vol) {
            return s;
        }
    }
}

/// An operand of `shape`: a dense buffer of a padded, stepped shape in a random axis order,
/// viewed at a crop, with some axes flipped. Plain dense C order about a third of the time.
/// With `pow2`, no padding and steps of 2 only, so that every stride is a power of two where
/// the shape's extents are.
fn side(rng: &mut Rng, shape: &[usize], pow2: bool) -> Side {
    let rank = shape.len();
    if rng.chance(30) {
        let mut strides = vec![0isize; rank];
        let mut acc = 1isize;
        for k in (0..rank).rev() {
            strides[k] = acc;
            acc *= shape[k] as isize;
        }
        return Side {
            strides,
            offset: 0,
            len: acc as usize,
        };
    }
    let mut step = vec![1usize; rank];
    let mut pad = vec![0usize; rank];
    for k in 0..rank {
        if rng.chance(20) {
            step[k] = rng.range(2, 3);
        }
        if rng.chance(25) {
            pad[k] = rng.range(1, shape[k].max(2));
        }
        if pow2 {
            (step[k], pad[k]) = (step[k].min(2), 0);
        }
    }
    let base: Vec<usize> = (0..rank).map(|k| shape[k] * step[k] + pad[k]).collect();
    let mut order: Vec<usize> = (0..rank).collect();
    if rng.chance(60) {
        rng.shuffle(&mut order);
    }
    // `order` lists the axes outermost first; the last one has base stride 1.
    let mut base_strides = vec![0isize; rank];
    let mut acc = 1isize;
    for &k in order.iter().rev() {
        base_strides[k] = acc;
        acc *= base[k] as isize;
    }
    let len = acc as usize;
    let mut strides = vec![0isize; rank];
    let mut offset = 0isize;
    for k in 0..rank {
        let start = rng.range(0, pad[k]);
        strides[k] = base_strides[k] * step[k] as isize;
        offset += start as isize * base_strides[k];
        if rng.chance(25) {
            // Flipped: the view starts at its last element along this axis.
            offset += (shape[k] as isize - 1) * strides[k];
            strides[k] = -strides[k];
        }
    }
    Side {
        strides,
        offset,
        len,
    }
}

fn cases(seed: u64, n: usize, pow2: bool) -> Vec<Case> {
    let mut rng = Rng(seed | 1);
    (0..n)
        .map(|_| {
            let rank = rng.range(1, 5);
            let itemsize = 1 << rng.range(0, 3);
            let shape = shape(&mut rng, rank, pow2);
            let src = side(&mut rng, &shape, pow2);
            let dst = side(&mut rng, &shape, pow2);
            Case {
                itemsize,
                shape,
                src,
                dst,
            }
        })
        .collect()
}

/// The loop a newcomer writes: indices in C order, offsets kept incrementally, safe indexing
/// ([`walk`]).
fn plain<T: Copy, const N: usize>(src: &[T], sl: &Layout<N>, dst: &mut [T], dl: &Layout<N>) {
    walk(sl, dl, |s, d| dst[d] = src[s]);
}

/// The kernel a sweep times (`SWEEP_KERNEL`): `copy()` by default, or `map` or `zip_map` on
/// the same layouts, or `map` into elements of another size (`map_cast`, [`by_size`]), or
/// `fill` of the destination's layout or `fold` of the source's.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kernel {
    Copy,
    Map,
    ZipMap,
    MapCast,
    Fill,
    Fold,
}

impl Kernel {
    fn from_env() -> Self {
        match std::env::var("SWEEP_KERNEL").as_deref() {
            Ok("map") => Self::Map,
            Ok("zip_map") => Self::ZipMap,
            Ok("map_cast") => Self::MapCast,
            Ok("fill") => Self::Fill,
            Ok("fold") => Self::Fold,
            Ok("copy") | Err(_) => Self::Copy,
            Ok(other) => {
                panic!("SWEEP_KERNEL: copy, map, zip_map, map_cast, fill or fold, not {other}")
            }
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::Copy => "copy()",
            Self::Map => "map",
            Self::ZipMap => "zip_map",
            Self::MapCast => "map_cast",
            Self::Fill => "fill",
            Self::Fold => "fold",
        }
    }
}

/// The elements the sweep draws, with the per-element work of `map` and `zip_map`.
trait Lane: Copy + PartialEq + 'static + From<u8> {
    /// `map`'s and `zip_map`'s element: `self + other`, wrapping.
    fn mix(self, other: Self) -> Self;
    /// `self` as another lane type, truncated or zero-extended (`as`): `map_cast`'s element.
    fn cast<D: Lane>(self) -> D;
    /// `as u64`.
    fn wide(self) -> u64;
    /// `v as Self`.
    fn narrow(v: u64) -> Self;
}

macro_rules! lanes {
    ($($t:ty)*) => {$(
        impl Lane for $t {
            fn mix(self, other: Self) -> Self {
                self.wrapping_add(other)
            }
            fn cast<D: Lane>(self) -> D {
                D::narrow(self.wide())
            }
            #[allow(clippy::cast_lossless)]
            fn wide(self) -> u64 {
                self as u64
            }
            #[allow(clippy::cast_possible_truncation)]
            fn narrow(v: u64) -> Self {
                v as $t
            }
        }
    )*};
}
lanes!(u8 u16 u32 u64);

/// The plain loop's walk ([`plain`], and `map`'s and `zip_map`'s): every index in C order,
/// its source and destination offsets kept incrementally, handed to `f`.
#[allow(clippy::cast_sign_loss)]
fn walk<const N: usize>(sl: &Layout<N>, dl: &Layout<N>, mut f: impl FnMut(usize, usize)) {
    let shape = sl.shape();
    if shape.contains(&0) {
        return;
    }
    let (ss, ds) = (sl.strides(), dl.strides());
    let (mut so, mut d) = (sl.offset(), dl.offset());
    let mut idx = [0usize; N];
    loop {
        f(so as usize, d as usize);
        let mut k = N;
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            idx[k] += 1;
            so += ss[k];
            d += ds[k];
            if idx[k] < shape[k] {
                break;
            }
            so -= ss[k] * shape[k] as isize;
            d -= ds[k] * shape[k] as isize;
            idx[k] = 0;
        }
    }
}

/// Untimed rounds of the three methods before any is timed (see `time_case`); the NumPy
/// replay's `copyto` runs twice as many, alone on its buffers.
const WARM_ROUNDS: usize = 4;

/// Before its timed runs, each method runs back to back, untimed, until [`STEADY_RUNS`] runs
/// in a row come within [`STEADY_SLACK`] of its fastest before them, either way (no longer
/// getting faster), at most [`MAX_STEADY_RUNS`] runs. A copy of megabytes just after another
/// method's runs over other buffers starts 3-5x slower and takes 5 to 12 runs to settle
/// (measured on seed 7's case 205, 4.3 MB each way: 1519, 1242, 925, 756, 665, ... 264, 240
/// us; interleaved with a `copy_from_slice` of 4.3 MB it stayed at 1200-1300), as the last
/// level cache takes the buffers' lines back pass by pass. One untimed run left the sweep
/// timing the copy's unsettled runs against NumPy's `copyto` timed settled (case 205: 0.3x
/// NumPy; settled, even).
const STEADY_RUNS: usize = 3;
/// See [`STEADY_RUNS`].
const STEADY_SLACK: f64 = 1.15;
/// See [`STEADY_RUNS`]: noise past this many runs is the machine's, not the caches'.
const MAX_STEADY_RUNS: usize = 48;

/// Runs `run` untimed until it runs steady ([`STEADY_RUNS`]).
fn settle(mut run: impl FnMut()) {
    let (mut best, mut calm) = (f64::INFINITY, 0);
    for _ in 0..MAX_STEADY_RUNS {
        let t0 = Instant::now();
        run();
        let ns = t0.elapsed().as_nanos() as f64;
        calm = if ns * STEADY_SLACK >= best && ns <= best * STEADY_SLACK {
            calm + 1
        } else {
            0
        };
        best = best.min(ns);
        if calm >= STEADY_RUNS {
            return;
        }
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Times `copy()`, the plain loop and `copy_from_slice` on one case; nanoseconds, medians;
/// then the bytes past a 4 KiB boundary at which the source's and the destination's buffers
/// start ([`PAGE`]), for the NumPy replay to place its buffers alike.
fn time_case<T: Lane, D: Lane, const N: usize>(
    c: &Case,
    reps: usize,
    warm: Duration,
    kernel: Kernel,
) -> [f64; 5] {
    let arr = |v: &[isize]| -> [isize; N] { v.try_into().unwrap() };
    let shape: [usize; N] = c.shape.as_slice().try_into().unwrap();
    let sl = Layout::new(shape, arr(&c.src.strides), c.itemsize)
        .and_then(|l| l.with_offset(c.src.offset))
        .unwrap();
    let dl = Layout::new(shape, arr(&c.dst.strides), size_of::<D>())
        .and_then(|l| l.with_offset(c.dst.offset))
        .unwrap();
    let src: Vec<T> = (0..c.src.len).map(|i| T::from((i % 251) as u8)).collect();
    let mut dst: Vec<D> = vec![D::from(7); c.dst.len];
    let vol = sl.volume();
    let flat_src: Vec<T> = vec![T::from(3); vol];
    let mut flat_dst: Vec<T> = vec![T::from(5); vol];
    // `zip_map`'s second source, laid out as the destination.
    let other: Vec<D> = (0..c.dst.len).map(|i| D::from((i % 241) as u8)).collect();
    // `map`'s and `map_cast`'s element (`D` is `T` but for `map_cast`).
    let mapped = |src: &[T], dst: &mut [D]| {
        strided_layout::map(src, &sl, dst, &dl, |x: T| x.mix(x).cast::<D>()).unwrap();
    };
    let zipped = |src: &[T], other: &[D], dst: &mut [D]| {
        strided_layout::zip_map(src, &sl, other, &dl, dst, &dl, |x: T, y: D| {
            x.cast::<D>().mix(y)
        })
        .unwrap();
    };
    let map_loop = |src: &[T], dst: &mut [D]| {
        walk(&sl, &dl, |s, d| dst[d] = src[s].mix(src[s]).cast::<D>());
    };
    let zip_loop = |src: &[T], other: &[D], dst: &mut [D]| {
        walk(&sl, &dl, |s, d| dst[d] = src[s].cast::<D>().mix(other[d]));
    };
    // `copy()`'s destination, of `T` (`D` is `T` for `copy()`, [`by_size`]).
    let same = same::<T, D>;
    // `fill`'s value, and `fold`'s sum of the source's elements (as the plain loops do both,
    // walking one layout).
    let value = D::from(9);
    let filled = |dst: &mut [D]| strided_layout::fill(dst, &dl, value).unwrap();
    let fill_loop = |dst: &mut [D]| walk(&dl, &dl, |_, d| dst[d] = value);
    let folded = |src: &[T]| {
        strided_layout::fold(src, &sl, 0u64, |acc, x: T| acc.wrapping_add(x.wide())).unwrap()
    };
    let fold_loop = |src: &[T]| {
        let mut acc = 0u64;
        walk(&sl, &sl, |s, _| acc = acc.wrapping_add(src[s].wide()));
        acc
    };
    // Correctness first: the loop's bytes are the kernel's.
    let mut check = dst.clone();
    match kernel {
        Kernel::Copy => {
            plain(&src, &sl, same(&mut check), &dl);
            strided_layout::copy(&src, &sl, same(&mut dst), &dl).unwrap();
        }
        Kernel::Map | Kernel::MapCast => {
            map_loop(&src, &mut check);
            mapped(&src, &mut dst);
        }
        Kernel::ZipMap => {
            zip_loop(&src, &other, &mut check);
            zipped(&src, &other, &mut dst);
        }
        Kernel::Fill => {
            fill_loop(&mut check);
            filled(&mut dst);
        }
        Kernel::Fold => assert_eq!(folded(&src), fold_loop(&src), "fold differs on {c:?}"),
    }
    assert!(
        check == dst,
        "{} differs from the loop on {c:?}",
        kernel.name()
    );
    // `copy()`'s plan; the other kernels, whose destination may hold another element size,
    // plan the source onto itself and never run it.
    let plan_dst = if kernel == Kernel::Copy { &dl } else { &sl };
    let mut plan = strided_layout::CopyPlan::new(&sl, plan_dst).unwrap();
    // A prepared or tuned plan is `copy()`'s alone: `map` and `zip_map` time the kernel.
    let tuned = kernel == Kernel::Copy && std::env::var_os("SWEEP_TUNED").is_some();
    if tuned {
        let t0 = Instant::now();
        let clock = || u64::try_from(t0.elapsed().as_nanos()).unwrap_or(u64::MAX);
        let planned = plan;
        plan = plan.tuned(&src, same(&mut dst), clock).unwrap();
        if plan != planned && std::env::var_os("SWEEP_SHOW_TUNED").is_some() {
            eprintln!("tuned:\n{}", plan.plan());
        }
    }
    let prepared =
        tuned || (kernel == Kernel::Copy && std::env::var_os("SWEEP_PREPARED").is_some());
    let mut run = |m: usize| match (m, kernel) {
        (0, Kernel::Copy) if prepared => {
            plan.run(black_box(&src), same(black_box(&mut dst)))
                .unwrap();
        }
        (0, Kernel::Copy) => {
            strided_layout::copy(black_box(&src), &sl, same(black_box(&mut dst)), &dl).unwrap();
        }
        (0, Kernel::Map | Kernel::MapCast) => mapped(black_box(&src), black_box(&mut dst)),
        (0, Kernel::ZipMap) => zipped(black_box(&src), black_box(&other), black_box(&mut dst)),
        (1, Kernel::Copy) => plain(black_box(&src), &sl, same(black_box(&mut dst)), &dl),
        (1, Kernel::Map | Kernel::MapCast) => map_loop(black_box(&src), black_box(&mut dst)),
        (1, Kernel::ZipMap) => zip_loop(black_box(&src), black_box(&other), black_box(&mut dst)),
        (0, Kernel::Fill) => filled(black_box(&mut dst)),
        (1, Kernel::Fill) => fill_loop(black_box(&mut dst)),
        (0, Kernel::Fold) => {
            black_box(folded(black_box(&src)));
        }
        (1, Kernel::Fold) => {
            black_box(fold_loop(black_box(&src)));
        }
        _ => black_box(&mut flat_dst[..]).copy_from_slice(black_box(&flat_src[..])),
    };
    // Warm first: the three in turn, untimed, four times and until `warm` has passed. On a
    // virtual machine's share, buffers just filled run 2-3x slower for their first four or
    // five passes, however long they rest between (pages the host maps or moves as they are
    // used), and without this the method timed first, `copy()`, paid for it alone.
    let start = Instant::now();
    let mut rounds = 0;
    while rounds < WARM_ROUNDS || start.elapsed() < warm {
        (0..3).for_each(&mut run);
        rounds += 1;
    }
    // Then each method settled (back to back until steady, [`STEADY_RUNS`]), `reps / 2` runs
    // back to back, as the NumPy replay times `copyto`; the three methods in turn, twice, so
    // drift on the machine hits all.
    let mut t = [vec![], vec![], vec![]];
    for _ in 0..2 {
        for (m, times) in t.iter_mut().enumerate() {
            settle(|| run(m));
            for _ in 0..reps / 2 {
                let t0 = Instant::now();
                run(m);
                times.push(t0.elapsed().as_nanos() as f64);
            }
        }
    }
    let page = |p: usize| (p % PAGE) as f64;
    [
        median(&mut t[0]),
        median(&mut t[1]),
        median(&mut t[2]),
        page(src.as_ptr() as usize),
        page(dst.as_ptr() as usize),
    ]
}

/// `dst` as a buffer of `T`, which it is for `copy()` ([`by_size`]).
#[allow(
    clippy::ptr_arg,
    reason = "a `Vec` downcasts, a slice of unknown length is not `Any`"
)]
fn same<T: 'static, D: 'static>(dst: &mut Vec<D>) -> &mut Vec<T> {
    (dst as &mut dyn std::any::Any)
        .downcast_mut::<Vec<T>>()
        .expect("copy() of one element type")
}

/// The span whose offset the buffers' start addresses are recorded in: loads and stores
/// whose addresses agree in their low 12 bits wait on each other (4 KiB aliasing), so a
/// strided copy can run 2x slower or faster by where its two buffers start, relative to
/// each other, within a page (NumPy's `copyto` of the sweep's case 29 took 8.7-18.8 us over
/// 16 relative offsets).
const PAGE: usize = 4096;

fn by_rank<T: Lane, D: Lane>(c: &Case, reps: usize, warm: Duration, kernel: Kernel) -> [f64; 5] {
    match c.shape.len() {
        1 => time_case::<T, D, 1>(c, reps, warm, kernel),
        2 => time_case::<T, D, 2>(c, reps, warm, kernel),
        3 => time_case::<T, D, 3>(c, reps, warm, kernel),
        4 => time_case::<T, D, 4>(c, reps, warm, kernel),
        _ => time_case::<T, D, 5>(c, reps, warm, kernel),
    }
}

/// [`by_rank`] of the case's element type; for `map_cast` into elements of another size, a
/// quarter or four times the source's: `u8` -> `u32`, `u16` -> `u64`, `u32` -> `u8`, `u64` ->
/// `u16` (the destination's strides, in elements, the case's).
fn by_size(c: &Case, reps: usize, warm: Duration, kernel: Kernel) -> [f64; 5] {
    match (c.itemsize, kernel) {
        (1, Kernel::MapCast) => by_rank::<u8, u32>(c, reps, warm, kernel),
        (2, Kernel::MapCast) => by_rank::<u16, u64>(c, reps, warm, kernel),
        (4, Kernel::MapCast) => by_rank::<u32, u8>(c, reps, warm, kernel),
        (_, Kernel::MapCast) => by_rank::<u64, u16>(c, reps, warm, kernel),
        (1, _) => by_rank::<u8, u8>(c, reps, warm, kernel),
        (2, _) => by_rank::<u16, u16>(c, reps, warm, kernel),
        (4, _) => by_rank::<u32, u32>(c, reps, warm, kernel),
        _ => by_rank::<u64, u64>(c, reps, warm, kernel),
    }
}

/// The size of `map_cast`'s destination element for a source's of `itemsize` bytes, as
/// [`by_size`] picks its types.
fn cast_size(itemsize: usize) -> usize {
    match itemsize {
        1 => 4,
        2 => 8,
        4 => 1,
        _ => 2,
    }
}

/// Prints the copy's plan (`--only`).
fn print_plan(c: &Case) {
    fn go<const N: usize>(c: &Case) {
        let arr = |v: &[isize]| -> [isize; N] { v.try_into().unwrap() };
        let shape: [usize; N] = c.shape.as_slice().try_into().unwrap();
        let mk = |s: &Side| {
            Layout::new(shape, arr(&s.strides), c.itemsize)
                .and_then(|l| l.with_offset(s.offset))
                .unwrap()
        };
        let (sl, dl) = (mk(&c.src), mk(&c.dst));
        match strided_layout::plan::Plan::new(&[dl.lowered(), sl.lowered()]) {
            Ok(p) => println!("{p}"),
            Err(e) => println!("no plan: {e}"),
        }
        // `zip_map`'s plan of three operands (the second source laid out as the
        // destination), which may order and tile its loops otherwise.
        if matches!(std::env::var("SWEEP_KERNEL").as_deref(), Ok("zip_map")) {
            match strided_layout::plan::Plan::new(&[dl.lowered(), sl.lowered(), dl.lowered()]) {
                Ok(p) => println!("zip_map's plan:\n{p}"),
                Err(e) => println!("no zip_map plan: {e}"),
            }
        }
        // `map_cast`'s plan, its destination's elements of another size ([`by_size`]), which
        // may order and tile its loops otherwise (the planner prices lines in bytes).
        if matches!(std::env::var("SWEEP_KERNEL").as_deref(), Ok("map_cast")) {
            let cast = Layout::new(shape, arr(&c.dst.strides), cast_size(c.itemsize))
                .and_then(|l| l.with_offset(c.dst.offset))
                .unwrap();
            match strided_layout::plan::Plan::new(&[cast.lowered(), sl.lowered()]) {
                Ok(p) => println!("map_cast's plan:\n{p}"),
                Err(e) => println!("no map_cast plan: {e}"),
            }
        }
        // `fill`'s plan of the destination alone and `fold`'s of the source alone, which
        // merge and order their loops for that one operand.
        let one = match std::env::var("SWEEP_KERNEL").as_deref() {
            Ok("fill") => Some(("fill", &dl)),
            Ok("fold") => Some(("fold", &sl)),
            _ => None,
        };
        if let Some((kernel, l)) = one {
            match strided_layout::plan::Plan::new(&[l.lowered()]) {
                Ok(p) => println!("{kernel}'s plan:\n{p}"),
                Err(e) => println!("no {kernel} plan: {e}"),
            }
        }
    }
    match c.shape.len() {
        1 => go::<1>(c),
        2 => go::<2>(c),
        3 => go::<3>(c),
        4 => go::<4>(c),
        _ => go::<5>(c),
    }
}

fn fmt_side(shape: &[usize], s: &Side) -> String {
    let sh: Vec<String> = shape.iter().map(ToString::to_string).collect();
    let st: Vec<String> = s.strides.iter().map(ToString::to_string).collect();
    format!("({}):({}) +{}", sh.join(","), st.join(","), s.offset)
}

fn join<T: ToString>(v: &[T]) -> String {
    v.iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(",")
}

/// Case `i` timed again in a new process of this bench (`--only i`, the same seed, cases and
/// reps): its loop/`copy()` ratio as printed there, or why there is none.
fn alone(args: &[String], i: usize, cases: usize, reps: usize) -> String {
    let Ok(exe) = std::env::current_exe() else {
        return "(not rerun: no path to this program)".into();
    };
    let mut cmd = std::process::Command::new(exe);
    cmd.arg("--bench").args([
        "--only",
        &i.to_string(),
        "--cases",
        &cases.to_string(),
        "--reps",
        &reps.to_string(),
    ]);
    for name in ["--seed", "--warm-ms"] {
        if let Some(p) = args.iter().position(|a| a == name) {
            cmd.args(&args[p..(p + 2).min(args.len())]);
        }
    }
    if args.iter().any(|a| a == "--pow2") {
        cmd.arg("--pow2");
    }
    match cmd.output() {
        Ok(o) => String::from_utf8_lossy(&o.stdout)
            .lines()
            .rev()
            .find_map(|l| {
                l.split_whitespace()
                    .rev()
                    .find(|w| w.ends_with('x') && w[..w.len() - 1].parse::<f64>().is_ok())
                    .map(str::to_string)
            })
            .unwrap_or_else(|| "(no ratio in its output)".into()),
        Err(e) => format!("(not rerun: {e})"),
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let opt = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let n: usize = opt("--cases").map_or(240, |v| v.parse().unwrap());
    let seed: u64 = opt("--seed").map_or(2026, |v| v.parse().unwrap());
    // At least 2: each of the two passes times `reps / 2` runs after settling.
    let reps: usize = opt("--reps").map_or(9, |v| v.parse().unwrap()).max(2);
    let warm = Duration::from_millis(opt("--warm-ms").map_or(5, |v| v.parse().unwrap()));
    let out = opt("--out").unwrap_or_else(|| {
        // The workspace's `target/` wherever the binary runs from (cargo runs it in
        // `benches/`; `sweep_ab.py` and hand runs from anywhere).
        let dir = std::env::var("CARGO_TARGET_DIR")
            .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../target").into());
        format!("{dir}/sweep.tsv")
    });
    // Under `cargo test --benches` (CI's compile check runs it as a test) only a few cases;
    // `--only` and `--plans` name or print cases of the whole sweep, with `--bench` or not.
    let n = if ["--bench", "--only", "--plans"]
        .iter()
        .any(|flag| args.iter().any(|a| a == flag))
    {
        n
    } else {
        n.min(4)
    };
    // `--pow2`: every extent a power of two, no padding (strides of images and tensors).
    let pow2 = args.iter().any(|a| a == "--pow2");
    let mut cases = cases(seed, n, pow2);
    // `--only I`: case I alone, with its plan printed (for looking into one cliff).
    let only: Option<usize> = opt("--only").map(|v| v.parse().unwrap());
    if let Some(i) = only {
        let Some(case) = cases.get(i).cloned() else {
            eprintln!(
                "--only {i}: the sweep has cases 0 to {} (--cases)",
                n.saturating_sub(1)
            );
            std::process::exit(2);
        };
        cases = vec![case];
    }
    // `--plans`: every case's plan, nothing timed (to compare the planner's choices of two
    // builds: a rule's change shows as the lines that differ).
    if args.iter().any(|a| a == "--plans") {
        for (i, c) in cases.iter().enumerate() {
            println!("case {} itemsize {}", only.unwrap_or(i), c.itemsize);
            print_plan(c);
        }
        return;
    }
    let recheck = only.is_none()
        && args.iter().any(|a| a == "--bench")
        && !args.iter().any(|a| a == "--no-recheck");
    let mut flagged: Vec<(usize, f64)> = Vec::new();
    let mut tsv = String::from(
        "case\titemsize\tshape\tsrc_strides\tsrc_offset\tsrc_len\tdst_strides\tdst_offset\tdst_len\tcopy_ns\tloop_ns\tmemcpy_ns\tsrc_page\tdst_page\n",
    );
    let (mut log_sum, mut log_mem, mut slower) = (0f64, 0f64, 0usize);
    let kernel = Kernel::from_env();
    let name = kernel.name();
    println!("case  itemsize  src -> dst  {name} / loop / copy_from_slice (us)  loop/{name}");
    for (i, c) in cases.iter().enumerate() {
        if only.is_some() {
            print_plan(c);
        }
        let [ours, lp, mem, src_page, dst_page] = by_size(c, reps, warm, kernel);
        let speedup = lp / ours;
        log_sum += speedup.ln();
        log_mem += (mem / ours).ln();
        let mark = if speedup < 1.0 {
            slower += 1;
            flagged.push((i, speedup));
            "  SLOWER THAN THE LOOP"
        } else {
            ""
        };
        println!(
            "{i:4}  {}  {} -> {}  {:.1} / {:.1} / {:.1}  {speedup:.2}x{mark}",
            c.itemsize,
            fmt_side(&c.shape, &c.src),
            fmt_side(&c.shape, &c.dst),
            ours / 1e3,
            lp / 1e3,
            mem / 1e3,
        );
        if only.is_some() {
            // For `sweep_ab.py numpy`, which places NumPy's buffers alike.
            println!("pages: source {src_page} destination {dst_page}");
        }
        tsv += &format!(
            "{i}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{ours:.0}\t{lp:.0}\t{mem:.0}\t{src_page}\t{dst_page}\n",
            c.itemsize,
            join(&c.shape),
            join(&c.src.strides),
            c.src.offset,
            c.src.len,
            join(&c.dst.strides),
            c.dst.offset,
            c.dst.len,
        );
    }
    let count = cases.len().max(1) as f64;
    println!(
        "{} cases: geometric mean loop/{name} {:.2}x, copy_from_slice/{name} {:.2}; {} slower than the loop",
        cases.len(),
        (log_sum / count).exp(),
        (log_mem / count).exp(),
        slower
    );
    if only.is_some() {
        return;
    }
    if recheck {
        for &(i, speedup) in &flagged {
            println!(
                "case {i}: {speedup:.2}x the loop in the sweep, {} in a process of its own",
                alone(&args, i, n, reps)
            );
        }
    }
    if kernel != Kernel::Copy {
        // The NumPy replay times `copyto`: a file of `map`'s or `zip_map`'s times would
        // compare them with a copy.
        return;
    }
    if let Err(e) = std::fs::write(&out, tsv) {
        eprintln!("could not write {out}: {e}");
    } else {
        println!("cases and times written to {out} (replay with benches/sweep_numpy.py)");
    }
}
