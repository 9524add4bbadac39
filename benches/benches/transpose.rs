//! README's transpose and permute rows (`table/<row>`), each beside `copy_from_slice` of the
//! same bytes (the roofline), a naive index loop and ndarray 0.17. Single thread. Also,
//! outside the table, a 3000² transpose, whose rows are not a whole number of cache lines
//! apart (the streaming stack tiles' other case), and 256² and 2000² ones, which stay in
//! the cache.
//!
//! Throughput counts bytes read plus bytes written once each: a copy of `n` bytes is `2n`,
//! `A + Aᵀ` of `n` bytes is `3n` (`a` and `b` read, `dst` written).
//!
//! The roofline of `A + Aᵀ` is `copy_from_slice` of `1.5 n` bytes: it reads and writes the
//! same `3n` bytes as the sum, in the cheapest pattern the machine has.
//!
//! Run: `cargo bench -p strided-layout-bench --bench transpose -- table/`.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, criterion_group, criterion_main};
use ndarray::{ArrayView, ArrayViewMut, Zip, s};
use std::hint::black_box;
use strided_layout::{Layout, Order, Slice};
use strided_layout_bench::group;

/// `copy_from_slice` of `n` `f32`s (`8n` bytes moved), both buffers written first: a zeroed
/// allocation that is only read maps every page to the kernel's one zero page.
fn roofline(g: &mut BenchmarkGroup<'_, WallTime>, n: usize) {
    let src = vec![1f32; n];
    let mut dst = vec![2f32; n];
    g.bench_function("copy_from_slice", |b| {
        b.iter(|| black_box(&mut dst[..]).copy_from_slice(black_box(&src[..])))
    });
}

fn f32s(n: usize) -> Vec<f32> {
    (0..n).map(|i| (i % 1000) as f32).collect()
}

fn contiguous(c: &mut Criterion) {
    let n = (64usize << 20) / 4;
    let mut g = group(c, "table/contiguous 64 MiB f32", 8 * n);
    roofline(&mut g, n);
    let src = f32s(n);
    let mut dst = vec![0f32; n];
    let l = Layout::dense([n], 4, Order::C).unwrap();
    g.bench_function("ours", |b| {
        b.iter(|| strided_layout::copy(black_box(&src), &l, black_box(&mut dst), &l).unwrap())
    });
    #[allow(clippy::manual_memcpy)] // the naive loop is the point
    g.bench_function("naive", |b| {
        b.iter(|| {
            let (s, d) = (black_box(&src), black_box(&mut dst));
            for i in 0..n {
                d[i] = s[i];
            }
        })
    });
    g.bench_function("ndarray", |b| {
        b.iter(|| {
            let sv = ArrayView::from_shape(n, black_box(&src[..])).unwrap();
            let mut dv = ArrayViewMut::from_shape(n, black_box(&mut dst[..])).unwrap();
            dv.assign(&sv);
        })
    });
    g.finish();
}

/// `dst (e, e) C = src (e, e) C transposed`; `name` is the group's.
fn transpose(c: &mut Criterion, e: usize, name: &str) {
    let n = e * e;
    let mut g = group(c, name, 8 * n);
    roofline(&mut g, n);
    let src = f32s(n);
    let mut dst = vec![0f32; n];
    let dl = Layout::dense([e, e], 4, Order::C).unwrap();
    let sl = dl.transposed(0, 1).unwrap();
    g.bench_function("ours", |b| {
        b.iter(|| strided_layout::copy(black_box(&src), &sl, black_box(&mut dst), &dl).unwrap())
    });
    g.bench_function("naive", |b| {
        b.iter(|| {
            let (s, d) = (black_box(&src), black_box(&mut dst));
            for i in 0..e {
                for j in 0..e {
                    d[i * e + j] = s[j * e + i];
                }
            }
        })
    });
    g.bench_function("ndarray", |b| {
        b.iter(|| {
            let sv = ArrayView::from_shape((e, e), black_box(&src[..])).unwrap();
            let mut dv = ArrayViewMut::from_shape((e, e), black_box(&mut dst[..])).unwrap();
            dv.assign(&sv.t());
        })
    });
    g.finish();
}

fn transposes(c: &mut Criterion) {
    transpose(c, 4096, "table/transpose 4096^2 f32");
    transpose(c, 4000, "table/transpose 4000^2 f32");
    // Rows 12,000 bytes apart, not a whole number of cache lines (not a README row).
    transpose(c, 3000, "transpose 3000^2 f32, rows off the lines");
    // Under the streaming threshold: the macro-kernels with plain stores (not README rows).
    transpose(c, 256, "transpose 256^2 f32, in the cache");
    transpose(c, 2000, "transpose 2000^2 f32, in the cache");
}

fn permute(c: &mut Criterion) {
    const E: usize = 256;
    let n = E * E * E;
    let mut g = group(c, "table/permute (2,0,1) 256^3 f32", 8 * n);
    roofline(&mut g, n);
    let src = f32s(n);
    let mut dst = vec![0f32; n];
    let sl = Layout::dense([E, E, E], 4, Order::C)
        .unwrap()
        .permuted([2, 0, 1])
        .unwrap();
    let dl = Layout::dense([E, E, E], 4, Order::C).unwrap();
    g.bench_function("ours", |b| {
        b.iter(|| strided_layout::copy(black_box(&src), &sl, black_box(&mut dst), &dl).unwrap())
    });
    g.bench_function("naive", |b| {
        b.iter(|| {
            let (s, d) = (black_box(&src), black_box(&mut dst));
            // dst[i][j][k] = src[j][k][i]
            for i in 0..E {
                for j in 0..E {
                    for k in 0..E {
                        d[(i * E + j) * E + k] = s[(j * E + k) * E + i];
                    }
                }
            }
        })
    });
    g.bench_function("ndarray", |b| {
        b.iter(|| {
            let sv = ArrayView::from_shape((E, E, E), black_box(&src[..])).unwrap();
            let mut dv = ArrayViewMut::from_shape((E, E, E), black_box(&mut dst[..])).unwrap();
            dv.assign(&sv.permuted_axes([2, 0, 1]));
        })
    });
    g.finish();
}

fn flipped_slice(c: &mut Criterion) {
    const E: usize = 256;
    const R: usize = 120; // 10..250 step 2
    let n = E * R * E;
    let mut g = group(c, "table/a[::-1, 10:250:2, :] 256^3 f32", 8 * n);
    roofline(&mut g, n);
    let src = f32s(E * E * E);
    let mut dst = vec![0f32; n];
    let sl = Layout::dense([E, E, E], 4, Order::C)
        .unwrap()
        .sliced([
            Slice::new(None, None, -1),
            Slice::new(Some(10), Some(250), 2),
            Slice::FULL,
        ])
        .unwrap();
    assert_eq!(sl.shape(), [E, R, E]);
    let dl = Layout::dense([E, R, E], 4, Order::C).unwrap();
    g.bench_function("ours", |b| {
        b.iter(|| strided_layout::copy(black_box(&src), &sl, black_box(&mut dst), &dl).unwrap())
    });
    g.bench_function("naive", |b| {
        b.iter(|| {
            let (s, d) = (black_box(&src), black_box(&mut dst));
            for i in 0..E {
                for j in 0..R {
                    for k in 0..E {
                        d[(i * R + j) * E + k] = s[((E - 1 - i) * E + 10 + 2 * j) * E + k];
                    }
                }
            }
        })
    });
    g.bench_function("ndarray", |b| {
        b.iter(|| {
            let sv = ArrayView::from_shape((E, E, E), black_box(&src[..])).unwrap();
            let mut dv = ArrayViewMut::from_shape((E, R, E), black_box(&mut dst[..])).unwrap();
            dv.assign(&sv.slice(s![..;-1, 10..250;2, ..]));
        })
    });
    g.finish();
}

/// `dst = a + aᵀ` for a 4096 × 4096 `f32` matrix: `3n` bytes (`a` twice, `dst` once).
fn a_plus_at(c: &mut Criterion) {
    const E: usize = 4096;
    let n = E * E;
    let mut g = group(c, "table/A + A^T 4096^2 f32", 12 * n);
    // The roofline: `copy_from_slice` of `1.5 n` elements, `3n` bytes read plus written.
    roofline(&mut g, n + n / 2);
    let a = f32s(n);
    let mut dst = vec![0f32; n];
    let l = Layout::dense([E, E], 4, Order::C).unwrap();
    let t = l.transposed(0, 1).unwrap();
    g.bench_function("ours", |b| {
        b.iter(|| {
            let a = black_box(&a[..]);
            strided_layout::zip_map(a, &l, a, &t, black_box(&mut dst), &l, |x, y| x + y).unwrap()
        })
    });
    g.bench_function("naive", |b| {
        b.iter(|| {
            let (a, d) = (black_box(&a), black_box(&mut dst));
            for i in 0..E {
                for j in 0..E {
                    d[i * E + j] = a[i * E + j] + a[j * E + i];
                }
            }
        })
    });
    g.bench_function("ndarray", |b| {
        b.iter(|| {
            let av = ArrayView::from_shape((E, E), black_box(&a[..])).unwrap();
            let mut dv = ArrayViewMut::from_shape((E, E), black_box(&mut dst[..])).unwrap();
            Zip::from(&mut dv)
                .and(&av)
                .and(&av.t())
                .for_each(|d, &x, &y| *d = x + y);
        })
    });
    g.finish();
}

criterion_group!(
    benches,
    contiguous,
    transposes,
    permute,
    flipped_slice,
    a_plus_at
);
criterion_main!(benches);
