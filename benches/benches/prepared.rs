//! Small copies: the run-time `copy()` (`ours`) and the same copy prepared once as a `const`
//! [`CopyPlan`] (`prepared`), against `copy_from_slice` of the same bytes (the roofline), a
//! naive index loop and ndarray 0.17's `assign`: a 16 x 16 `f32` transpose (1 KiB) and a
//! 64-frame stereo `i16` planar -> interleaved block (256 bytes), which also has the
//! `chunks_exact_mut` hand loop a firmware author would write.
//!
//! The 16 × 16 transpose runs twice: on buffers from the allocator (16-byte aligned) and on
//! 64-byte aligned ones, since its 32-byte stores cost more where they straddle cache lines.
//!
//! `small sizes/...` sweeps the side of a square `f32` transpose from 2 to 64 (plans built at
//! run time, the naive loop's side unknown to the compiler) to show where a call's fixed cost
//! stops mattering; `small shapes/...` does the same for small copies that go through the
//! general planner (contiguous runs, a rank-3 permute, a 3-channel CHW -> HWC image).
//!
//! The groups `table/small ...` are the README table's rows. Throughput counts bytes read
//! plus bytes written. Run: `cargo bench -p strided-layout-bench --bench prepared`.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use ndarray::{ArrayView, ArrayViewMut};
use std::hint::black_box;
use std::time::Duration;
use strided_layout::{CopyPlan, Layout, Order, const_unwrap};

fn group<'a>(c: &'a mut Criterion, name: &str, bytes: usize) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(bytes as u64));
    g.sample_size(20);
    g.warm_up_time(Duration::from_millis(300));
    g.measurement_time(Duration::from_secs(1));
    g
}

const N: usize = 16;
const M: Layout<2> = const_unwrap(Layout::dense([N, N], 4, Order::C));
const MT: Layout<2> = const_unwrap(Layout::dense([N, N], 4, Order::F));
/// The 16 x 16 transpose, planned and validated at compile time.
const TRANSPOSE: CopyPlan = const_unwrap(CopyPlan::new(&M, &MT));

const FRAMES: usize = 64;
const PLANAR: Layout<2> = const_unwrap(Layout::dense([2, FRAMES], 2, Order::C));
const STEREO: Layout<2> = const_unwrap(Layout::dense([2, FRAMES], 2, Order::F));
/// Planar -> interleaved stereo, planned and validated at compile time.
const INTERLEAVE: CopyPlan = const_unwrap(CopyPlan::new(&PLANAR, &STEREO));

fn transpose_16(c: &mut Criterion) {
    let src: Vec<f32> = (0..N * N).map(|i| i as f32).collect();
    let mut dst = vec![0f32; N * N];
    let mut g = group(c, "table/small 16x16 f32 transpose", 2 * 4 * N * N);
    let mut flat = vec![1f32; N * N];
    g.bench_function("copy_from_slice", |b| {
        b.iter(|| black_box(&mut flat[..]).copy_from_slice(black_box(&src[..])))
    });
    g.bench_function("ours", |b| {
        b.iter(|| strided_layout::copy(black_box(&src), &M, black_box(&mut dst), &MT).unwrap())
    });
    g.bench_function("prepared", |b| {
        b.iter(|| TRANSPOSE.run(black_box(&src), black_box(&mut dst)).unwrap())
    });
    g.bench_function("naive", |b| {
        b.iter(|| {
            let (s, d) = (black_box(&src), black_box(&mut dst));
            for i in 0..N {
                for j in 0..N {
                    d[i + j * N] = s[i * N + j];
                }
            }
        })
    });
    g.bench_function("ndarray", |b| {
        b.iter(|| {
            let sv = ArrayView::from_shape((N, N), black_box(&src[..])).unwrap();
            let mut dv = ArrayViewMut::from_shape((N, N), black_box(&mut dst[..])).unwrap();
            dv.assign(&sv.t());
        })
    });
    g.finish();
}

/// 16 × 16 `f32`, 64-byte aligned: each a whole number of cache lines.
#[repr(C, align(64))]
struct Lines([f32; N * N]);

/// The 16 × 16 transpose with both buffers 64-byte aligned (the row above has what the
/// allocator gives, 16-byte aligned): the 8 × 8 tiles' 32-byte stores then never straddle a
/// cache line, which about half of them do when a destination row starts 16 bytes off one.
fn transpose_16_aligned(c: &mut Criterion) {
    let mut src = Box::new(Lines([0.0; N * N]));
    for (i, x) in src.0.iter_mut().enumerate() {
        *x = i as f32;
    }
    let mut dst = Box::new(Lines([0.0; N * N]));
    let mut flat = Box::new(Lines([1.0; N * N]));
    let mut g = group(
        c,
        "table/small 16x16 f32 transpose, 64-byte-aligned buffers",
        2 * 4 * N * N,
    );
    g.bench_function("copy_from_slice", |b| {
        b.iter(|| black_box(&mut flat.0[..]).copy_from_slice(black_box(&src.0[..])))
    });
    g.bench_function("ours", |b| {
        b.iter(|| {
            strided_layout::copy(black_box(&src.0[..]), &M, black_box(&mut dst.0[..]), &MT).unwrap()
        })
    });
    g.bench_function("prepared", |b| {
        b.iter(|| {
            TRANSPOSE
                .run(black_box(&src.0[..]), black_box(&mut dst.0[..]))
                .unwrap()
        })
    });
    g.finish();
}

fn stereo_64(c: &mut Criterion) {
    let src: Vec<i16> = (0..2 * FRAMES as i16).collect();
    let mut dst = vec![0i16; 2 * FRAMES];
    let mut g = group(c, "table/small 64-frame stereo i16", 2 * 2 * 2 * FRAMES);
    let mut flat = vec![1i16; 2 * FRAMES];
    g.bench_function("copy_from_slice", |b| {
        b.iter(|| black_box(&mut flat[..]).copy_from_slice(black_box(&src[..])))
    });
    g.bench_function("ours", |b| {
        b.iter(|| {
            strided_layout::copy(black_box(&src), &PLANAR, black_box(&mut dst), &STEREO).unwrap()
        })
    });
    g.bench_function("prepared", |b| {
        b.iter(|| {
            INTERLEAVE
                .run(black_box(&src), black_box(&mut dst))
                .unwrap()
        })
    });
    g.bench_function("naive", |b| {
        b.iter(|| {
            let (s, d) = (black_box(&src), black_box(&mut dst));
            for j in 0..FRAMES {
                for ch in 0..2 {
                    d[2 * j + ch] = s[ch * FRAMES + j];
                }
            }
        })
    });
    g.bench_function("hand (chunks_exact_mut)", |b| {
        b.iter(|| {
            let s = black_box(&src);
            let (left, right) = s.split_at(FRAMES);
            for ((f, &l), &r) in black_box(&mut dst).chunks_exact_mut(2).zip(left).zip(right) {
                f[0] = l;
                f[1] = r;
            }
        })
    });
    g.bench_function("ndarray", |b| {
        b.iter(|| {
            // Planar [channel, frame] viewed as [frame, channel] (its transpose), assigned to
            // the interleaved [frame, channel] buffer.
            let sv = ArrayView::from_shape((2, FRAMES), black_box(&src[..])).unwrap();
            let mut dv = ArrayViewMut::from_shape((FRAMES, 2), black_box(&mut dst[..])).unwrap();
            dv.assign(&sv.t());
        })
    });
    g.finish();
}

/// Square `f32` transposes of side 2 to 64: the run-time `copy()`, a `CopyPlan` built once at
/// run time, the naive loop (its side hidden from the compiler, as a side known only at run
/// time is) and ndarray, beside `copy_from_slice` of the same bytes.
fn small_sizes(c: &mut Criterion) {
    for n in [2usize, 4, 8, 16, 32, 64] {
        let src: Vec<f32> = (0..n * n).map(|i| i as f32).collect();
        let mut dst = vec![0f32; n * n];
        let mut flat = vec![1f32; n * n];
        let m = Layout::dense([n, n], 4, Order::C).unwrap();
        let mt = Layout::dense([n, n], 4, Order::F).unwrap();
        let plan = CopyPlan::new(&m, &mt).unwrap();
        let mut g = group(
            c,
            &format!("small sizes/transpose {n}x{n} f32"),
            2 * 4 * n * n,
        );
        g.bench_function("copy_from_slice", |b| {
            b.iter(|| black_box(&mut flat[..]).copy_from_slice(black_box(&src[..])))
        });
        g.bench_function("ours", |b| {
            b.iter(|| strided_layout::copy(black_box(&src), &m, black_box(&mut dst), &mt).unwrap())
        });
        g.bench_function("prepared", |b| {
            b.iter(|| plan.run(black_box(&src), black_box(&mut dst)).unwrap())
        });
        g.bench_function("naive", |b| {
            b.iter(|| {
                let (s, d, n) = (black_box(&src), black_box(&mut dst), black_box(n));
                for i in 0..n {
                    for j in 0..n {
                        d[i + j * n] = s[i * n + j];
                    }
                }
            })
        });
        g.bench_function("ndarray", |b| {
            b.iter(|| {
                let sv = ArrayView::from_shape((n, n), black_box(&src[..])).unwrap();
                let mut dv = ArrayViewMut::from_shape((n, n), black_box(&mut dst[..])).unwrap();
                dv.assign(&sv.t());
            })
        });
        g.finish();
    }
}

/// One small copy in the `small shapes` group: `copy()`, a run-time `CopyPlan`, the naive
/// loop `naive` (its extents hidden from the compiler) and `copy_from_slice` of the bytes.
fn small_shape<T: Copy + Default + 'static, const N: usize>(
    c: &mut Criterion,
    name: &str,
    src_l: Layout<N>,
    dst_l: Layout<N>,
    naive: impl Fn(&[T], &mut [T]),
    mk: impl Fn(usize) -> T,
) {
    let n = src_l.volume();
    let plan = CopyPlan::new(&src_l, &dst_l).unwrap();
    let src: Vec<T> = (0..plan.src_len()).map(mk).collect();
    let mut dst = vec![T::default(); plan.dst_len()];
    let mut flat = vec![T::default(); n];
    let mut g = group(c, &format!("small shapes/{name}"), 2 * size_of::<T>() * n);
    g.bench_function("copy_from_slice", |b| {
        b.iter(|| black_box(&mut flat[..]).copy_from_slice(black_box(&src[..n])))
    });
    g.bench_function("ours", |b| {
        b.iter(|| {
            strided_layout::copy(black_box(&src), &src_l, black_box(&mut dst), &dst_l).unwrap()
        })
    });
    g.bench_function("prepared", |b| {
        b.iter(|| plan.run(black_box(&src), black_box(&mut dst)).unwrap())
    });
    g.bench_function("naive", |b| {
        b.iter(|| naive(black_box(&src), black_box(&mut dst)))
    });
    g.finish();
}

/// Small copies of other shapes, through the general planner: contiguous, a rank-3 permute
/// and a 3-channel CHW -> HWC image.
fn small_shapes(c: &mut Criterion) {
    for n in [4usize, 16, 64] {
        let l = Layout::dense([n], 4, Order::C).unwrap();
        let naive = move |s: &[f32], d: &mut [f32]| {
            for (d, &s) in d.iter_mut().zip(s).take(black_box(n)) {
                *d = s;
            }
        };
        small_shape(c, &format!("contiguous {n} f32"), l, l, naive, |i| i as f32);
    }
    for e in [2usize, 4, 8] {
        let src_l = Layout::dense([e, e, e], 4, Order::C)
            .unwrap()
            .permuted([2, 0, 1])
            .unwrap();
        let dst_l = Layout::dense([e, e, e], 4, Order::C).unwrap();
        let naive = move |s: &[f32], d: &mut [f32]| {
            let e = black_box(e);
            for k in 0..e {
                for i in 0..e {
                    for j in 0..e {
                        d[(k * e + i) * e + j] = s[(i * e + j) * e + k];
                    }
                }
            }
        };
        small_shape(
            c,
            &format!("permute (2,0,1) {e}^3 f32"),
            src_l,
            dst_l,
            naive,
            |i| i as f32,
        );
    }
    for side in [2usize, 4, 16] {
        let src_l = Layout::dense([3, side, side], 1, Order::C)
            .unwrap()
            .permuted([1, 2, 0])
            .unwrap();
        let dst_l = Layout::dense([side, side, 3], 1, Order::C).unwrap();
        let naive = move |s: &[u8], d: &mut [u8]| {
            let w = black_box(side);
            for y in 0..w {
                for x in 0..w {
                    for k in 0..3 {
                        d[(y * w + x) * 3 + k] = s[(k * w + y) * w + x];
                    }
                }
            }
        };
        small_shape(
            c,
            &format!("CHW -> HWC 3x{side}x{side} u8"),
            src_l,
            dst_l,
            naive,
            |i| i as u8,
        );
    }
}

criterion_group!(
    benches,
    small_shapes,
    transpose_16,
    transpose_16_aligned,
    stereo_64,
    small_sizes
);
criterion_main!(benches);
