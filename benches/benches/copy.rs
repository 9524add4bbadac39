//! Kernel throughput: each case beside `copy_from_slice` of the same bytes (the roofline), a
//! naive nested loop (what we must beat) and ndarray (the best existing Rust library).
//!
//! Throughput counts bytes read plus bytes written once each (a copy of `n` bytes is `2n`;
//! `A + Aᵀ` is `3n`). Case names follow `<op>/<layout kind>/<bytes>/<itemsize>`.
//!
//! Run: `cargo bench -p strided-layout-bench --bench copy` (the bench crate turns on the
//! library's `std` feature: run-time AVX detection). `benches/summary.py` turns criterion's
//! medians into the tables of the `doc::benchmarks` guide.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, criterion_group, criterion_main};
use ndarray::{ArrayView, ArrayViewMut, Axis, Zip, s};
use std::hint::black_box;
use strided_layout::{Layout, Order, Slice};
use strided_layout_bench::group;

/// `copy_from_slice` of `n` elements of `T` (`2n` bytes moved). Both buffers are written
/// with a non-zero value first: a zeroed allocation that is only read maps every page to the
/// kernel's one zero page, which would make the roofline a write-only copy.
fn roofline<T: Copy + From<u8>>(g: &mut BenchmarkGroup<'_, WallTime>, n: usize) {
    let src = vec![T::from(1u8); n];
    let mut dst = vec![T::from(2u8); n];
    g.bench_function("copy_from_slice", |b| {
        b.iter(|| black_box(&mut dst[..]).copy_from_slice(black_box(&src[..])))
    });
}

fn f32s(n: usize) -> Vec<f32> {
    (0..n).map(|i| (i % 1000) as f32).collect()
}

fn contiguous(c: &mut Criterion) {
    for (label, bytes) in [("64MiB", 64usize << 20), ("1MiB", 1 << 20)] {
        let n = bytes / 4;
        let mut g = group(c, &format!("copy/contiguous C/{label}/4"), 2 * bytes);
        roofline::<f32>(&mut g, n);
        let src = f32s(n);
        let mut dst = vec![0f32; n];
        let l = Layout::dense([n], 4, Order::C).unwrap();
        g.bench_function("strided_layout", |b| {
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
}

/// `dst (r, c) C = src (c, r) C transposed`.
fn transpose_case(c: &mut Criterion, name: &str, rows: usize, cols: usize) {
    let n = rows * cols;
    let mut g = group(c, name, 2 * 4 * n);
    roofline::<f32>(&mut g, n);
    let src = f32s(n);
    let mut dst = vec![0f32; n];
    let sl = Layout::dense([cols, rows], 4, Order::C)
        .unwrap()
        .transposed(0, 1)
        .unwrap();
    let dl = Layout::dense([rows, cols], 4, Order::C).unwrap();
    g.bench_function("strided_layout", |b| {
        b.iter(|| strided_layout::copy(black_box(&src), &sl, black_box(&mut dst), &dl).unwrap())
    });
    g.bench_function("naive", |b| {
        b.iter(|| {
            let (s, d) = (black_box(&src), black_box(&mut dst));
            for i in 0..rows {
                for j in 0..cols {
                    d[i * cols + j] = s[j * rows + i];
                }
            }
        })
    });
    g.bench_function("ndarray", |b| {
        b.iter(|| {
            let sv = ArrayView::from_shape((cols, rows), black_box(&src[..])).unwrap();
            let mut dv = ArrayViewMut::from_shape((rows, cols), black_box(&mut dst[..])).unwrap();
            dv.assign(&sv.t());
        })
    });
    g.finish();
}

fn transposes(c: &mut Criterion) {
    transpose_case(c, "copy/transposed 2-D/64MiB/4", 4096, 4096);
    transpose_case(c, "copy/transposed 2-D/61MiB/4", 4000, 4000);
    transpose_case(c, "copy/transposed 2-D/1KiB/4", 16, 16);
}

fn permute(c: &mut Criterion) {
    const E: usize = 256;
    let n = E * E * E;
    let mut g = group(c, "copy/permuted (2,0,1)/64MiB/4", 2 * 4 * n);
    roofline::<f32>(&mut g, n);
    let src = f32s(n);
    let mut dst = vec![0f32; n];
    let sl = Layout::dense([E, E, E], 4, Order::C)
        .unwrap()
        .permuted([2, 0, 1])
        .unwrap();
    let dl = Layout::dense([E, E, E], 4, Order::C).unwrap();
    g.bench_function("strided_layout", |b| {
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
    let mut g = group(c, "copy/negative stride step-2 slice/30MiB/4", 2 * 4 * n);
    roofline::<f32>(&mut g, n);
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
    g.bench_function("strided_layout", |b| {
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

/// `map` (`x + 1`) from rows read backwards into dense rows: short rows (8 `f32`, one 32-byte
/// chunk) and long ones (256), 1 MiB of `f32`.
fn map_flipped_rows(c: &mut Criterion) {
    for row in [8usize, 256] {
        let n = (1 << 20) / 4;
        let rows = n / row;
        let mut g = group(c, &format!("map/flipped rows of {row}/1MiB/4"), 2 * 4 * n);
        roofline::<f32>(&mut g, n);
        let src = f32s(n);
        let mut dst = vec![0f32; n];
        let sl = Layout::dense([rows, row], 4, Order::C)
            .unwrap()
            .flipped(1)
            .unwrap();
        let dl = Layout::dense([rows, row], 4, Order::C).unwrap();
        g.bench_function("strided_layout", |b| {
            b.iter(|| {
                strided_layout::map(black_box(&src), &sl, black_box(&mut dst), &dl, |x| x + 1.0)
                    .unwrap();
            })
        });
        g.bench_function("naive", |b| {
            b.iter(|| {
                let (s, d) = (black_box(&src), black_box(&mut dst));
                for i in 0..rows {
                    for j in 0..row {
                        d[i * row + j] = s[i * row + row - 1 - j] + 1.0;
                    }
                }
            })
        });
        g.bench_function("ndarray", |b| {
            b.iter(|| {
                let sv = ArrayView::from_shape((rows, row), black_box(&src[..])).unwrap();
                let dv = ArrayViewMut::from_shape((rows, row), black_box(&mut dst[..])).unwrap();
                Zip::from(dv)
                    .and(sv.slice(s![.., ..;-1]))
                    .for_each(|d, &s| *d = s + 1.0);
            })
        });
        g.finish();
    }
}

/// `zip_map` (`a + b`) of a dense source and one read backwards into dense rows: short rows
/// (8 `f32`, one 32-byte chunk) and long ones (256), 1 MiB of `f32` each.
fn zip_map_flipped_rows(c: &mut Criterion) {
    for row in [8usize, 256] {
        let n = (1 << 20) / 4;
        let rows = n / row;
        let mut g = group(
            c,
            &format!("zip_map/flipped rows of {row}/1MiB/4"),
            3 * 4 * n,
        );
        roofline::<f32>(&mut g, n);
        let (a, b) = (f32s(n), f32s(n));
        let mut dst = vec![0f32; n];
        let dense = Layout::dense([rows, row], 4, Order::C).unwrap();
        let back = dense.flipped(1).unwrap();
        g.bench_function("strided_layout", |bn| {
            bn.iter(|| {
                strided_layout::zip_map(
                    black_box(&a),
                    &dense,
                    black_box(&b),
                    &back,
                    black_box(&mut dst),
                    &dense,
                    |x, y| x + y,
                )
                .unwrap();
            })
        });
        g.bench_function("naive", |bn| {
            bn.iter(|| {
                let (x, y, d) = (black_box(&a), black_box(&b), black_box(&mut dst));
                for i in 0..rows {
                    for j in 0..row {
                        d[i * row + j] = x[i * row + j] + y[i * row + row - 1 - j];
                    }
                }
            })
        });
        g.bench_function("ndarray", |bn| {
            bn.iter(|| {
                let av = ArrayView::from_shape((rows, row), black_box(&a[..])).unwrap();
                let bv = ArrayView::from_shape((rows, row), black_box(&b[..])).unwrap();
                let dv = ArrayViewMut::from_shape((rows, row), black_box(&mut dst[..])).unwrap();
                Zip::from(dv)
                    .and(av)
                    .and(bv.slice(s![.., ..;-1]))
                    .for_each(|d, &x, &y| *d = x + y);
            })
        });
        g.finish();
    }
}

fn broadcast(c: &mut Criterion) {
    const E: usize = 4096;
    let n = E * E;
    let mut g = group(c, "copy/broadcast source/64MiB/4", 2 * 4 * n);
    roofline::<f32>(&mut g, n);
    let row = f32s(E);
    let mut dst = vec![0f32; n];
    let sl = Layout::new([E, E], [0, 1], 4).unwrap();
    let dl = Layout::dense([E, E], 4, Order::C).unwrap();
    g.bench_function("strided_layout", |b| {
        b.iter(|| strided_layout::copy(black_box(&row), &sl, black_box(&mut dst), &dl).unwrap())
    });
    g.bench_function("naive", |b| {
        b.iter(|| {
            let (s, d) = (black_box(&row), black_box(&mut dst));
            for i in 0..E {
                for j in 0..E {
                    d[i * E + j] = s[j];
                }
            }
        })
    });
    g.bench_function("ndarray", |b| {
        b.iter(|| {
            let sv = ArrayView::from_shape(E, black_box(&row[..])).unwrap();
            let mut dv = ArrayViewMut::from_shape((E, E), black_box(&mut dst[..])).unwrap();
            dv.assign(&sv.insert_axis(Axis(0)).broadcast((E, E)).unwrap());
        })
    });
    g.bench_function("strided_layout fill", |b| {
        b.iter(|| strided_layout::fill(black_box(&mut dst), &dl, black_box(1.5f32)).unwrap())
    });
    g.finish();
}

fn a_plus_at(c: &mut Criterion) {
    const E: usize = 4096;
    let n = E * E;
    let mut g = group(c, "zip_map/A + A' 2-D/64MiB/4", 3 * 4 * n);
    roofline::<f32>(&mut g, n);
    let a = f32s(n);
    let mut dst = vec![0f32; n];
    let l = Layout::dense([E, E], 4, Order::C).unwrap();
    let t = l.transposed(0, 1).unwrap();
    g.bench_function("strided_layout", |b| {
        b.iter(|| {
            strided_layout::zip_map(
                black_box(&a),
                &l,
                &a,
                &t,
                black_box(&mut dst),
                &l,
                |x, y| x + y,
            )
            .unwrap()
        })
    });
    g.bench_function("naive", |b| {
        b.iter(|| {
            let (s, d) = (black_box(&a), black_box(&mut dst));
            for i in 0..E {
                for j in 0..E {
                    d[i * E + j] = s[i * E + j] + s[j * E + i];
                }
            }
        })
    });
    g.bench_function("ndarray", |b| {
        b.iter(|| {
            let av = ArrayView::from_shape((E, E), black_box(&a[..])).unwrap();
            let dv = ArrayViewMut::from_shape((E, E), black_box(&mut dst[..])).unwrap();
            Zip::from(dv)
                .and(&av)
                .and(&av.t())
                .for_each(|d, &x, &y| *d = x + y);
        })
    });
    g.finish();
}

fn chw_to_hwc(c: &mut Criterion) {
    const C: usize = 3;
    const H: usize = 32;
    const W: usize = 32;
    let n = C * H * W;
    let mut g = group(c, "copy/CHW to HWC/3KiB/1", 2 * n);
    roofline::<u8>(&mut g, n);
    let src: Vec<u8> = (0..n).map(|i| i as u8).collect();
    let mut dst = vec![0u8; n];
    // The source viewed as (H, W, C); the destination dense HWC.
    let sl = Layout::dense([C, H, W], 1, Order::C)
        .unwrap()
        .permuted([1, 2, 0])
        .unwrap();
    let dl = Layout::dense([H, W, C], 1, Order::C).unwrap();
    g.bench_function("strided_layout", |b| {
        b.iter(|| strided_layout::copy(black_box(&src), &sl, black_box(&mut dst), &dl).unwrap())
    });
    g.bench_function("naive", |b| {
        b.iter(|| {
            let (s, d) = (black_box(&src), black_box(&mut dst));
            for h in 0..H {
                for w in 0..W {
                    for ch in 0..C {
                        d[(h * W + w) * C + ch] = s[(ch * H + h) * W + w];
                    }
                }
            }
        })
    });
    g.bench_function("ndarray", |b| {
        b.iter(|| {
            let sv = ArrayView::from_shape((C, H, W), black_box(&src[..])).unwrap();
            let mut dv = ArrayViewMut::from_shape((H, W, C), black_box(&mut dst[..])).unwrap();
            dv.assign(&sv.permuted_axes([1, 2, 0]));
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
    map_flipped_rows,
    zip_map_flipped_rows,
    broadcast,
    a_plus_at,
    chw_to_hwc
);
criterion_main!(benches);
