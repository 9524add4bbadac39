//! README's reorder row (`table/<row>`): oneDNN's nChw8c -> nChw16c, channels in blocks of 8
//! to blocks of 16, for N = 1, C = 64, H = W = 112 `f32` (3 MiB each side), beside
//! `copy_from_slice` of the same bytes (the roofline), a naive index loop computing both
//! offsets, and ndarray 0.17 (the blocked axes as 6-D views, permuted and assigned). Single
//! thread.
//!
//! Throughput counts bytes read plus bytes written (`2n` for `n` bytes moved).
//!
//! `table/onednn sizes`: the reorders of `scripts/onednn_reorder_bench.sh` (oneDNN's own,
//! timed on the same machine), through nested layouts' general kernel form. `table/weights`:
//! the weight reorders in 2 bytes (`bf16`'s size, which that script times in oneDNN too) and
//! 8 bytes.
//!
//! Run: `cargo bench -p strided-layout-bench --bench reorder -- table/`.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, criterion_group, criterion_main};
use ndarray::{ArrayView, ArrayViewMut};
use std::hint::black_box;
use strided_layout::{InterleaveLayout, InterleavedLayout};
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

/// nChw`f`c: `[n, c, h, w]` with `c` in blocks of `f`, the block innermost.
fn blocked(shape: [usize; 4], f: usize) -> InterleavedLayout<4> {
    InterleavedLayout::dense(shape, 4, InterleaveLayout::new(1, f).unwrap()).unwrap()
}

fn nchw8c_to_nchw16c(c: &mut Criterion) {
    const N: usize = 1;
    const C: usize = 64;
    const H: usize = 112;
    const W: usize = 112;
    let n = N * C * H * W;
    let mut g = group(
        c,
        "table/blocks of 8 -> blocks of 16 (nChw8c -> nChw16c)",
        8 * n,
    );
    roofline(&mut g, n);
    let src: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
    let mut dst = vec![0f32; n];
    let (from, to) = (blocked([N, C, H, W], 8), blocked([N, C, H, W], 16));
    // The three ways agree before any is timed.
    let at = |f: usize, ch: usize, y: usize, x: usize| ((ch / f * H + y) * W + x) * f + ch % f;
    strided_layout::copy(&src, &from, &mut dst, &to).unwrap();
    for (ch, y, x) in [(0, 0, 0), (9, 1, 2), (63, 111, 111), (17, 50, 3)] {
        assert_eq!(dst[at(16, ch, y, x)], src[at(8, ch, y, x)]);
    }
    g.bench_function("ours", |b| {
        b.iter(|| strided_layout::copy(black_box(&src), &from, black_box(&mut dst), &to).unwrap())
    });
    g.bench_function("naive", |b| {
        b.iter(|| {
            let (s, d) = (black_box(&src), black_box(&mut dst));
            for i in 0..N {
                for ch in 0..C {
                    for y in 0..H {
                        for x in 0..W {
                            let at =
                                |f: usize| (((i * C / f + ch / f) * H + y) * W + x) * f + ch % f;
                            d[at(16)] = s[at(8)];
                        }
                    }
                }
            }
        })
    });
    g.bench_function("ndarray", |b| {
        b.iter(|| {
            // Source [n, c/16, 2, h, w, 8] (c/8 split in two) permuted to [n, c/16, h, w, 2, 8],
            // the destination [n, c/16, h, w, 16] with its block split the same way.
            let shape = (N, C / 16, 2, H, W, 8);
            let sv = ArrayView::from_shape(shape, black_box(&src[..])).unwrap();
            let mut dv =
                ArrayViewMut::from_shape((N, C / 16, H, W, 2, 8), black_box(&mut dst[..])).unwrap();
            dv.assign(&sv.permuted_axes([0, 1, 3, 4, 2, 5]));
        })
    });
    g.finish();
}

/// The oneDNN formats through `NestedLayout::onednn(..).lowered()`, at the sizes of
/// `scripts/onednn_reorder_bench.sh`, oneDNN's own reorder timed on the same machine (run it
/// beside this: `table/onednn sizes`), with `copy_from_slice` of the same bytes and a naive
/// loop over every logical index calling both layouts' `offset_of`.
fn onednn_sizes(c: &mut Criterion) {
    use strided_layout::nested::NestedLayout;
    for (from, to, dims) in [
        ("nChw8c", "nChw16c", [1, 128, 112, 112]),
        ("oihw", "OIhw16i16o", [256, 256, 3, 3]),
        ("OIhw16i16o", "oihw", [256, 256, 3, 3]),
        ("oihw", "OIhw8i8o", [256, 256, 3, 3]),
        ("OIhw16i16o", "OIhw4i16o4i", [256, 256, 3, 3]),
        // Partial blocks on both blocked axes: six pieces, more than one plan holds
        // (planned in windows).
        ("OIhw16i16o", "OIhw4i16o4i", [258, 262, 3, 3]),
    ] {
        let a = NestedLayout::<8>::onednn(from, &dims, 4).unwrap();
        let b = NestedLayout::<8>::onednn(to, &dims, 4).unwrap();
        let (al, bl) = (a.lowered::<4>().unwrap(), b.lowered::<4>().unwrap());
        let n: usize = dims.iter().product();
        let name = format!("table/onednn sizes {from} -> {to} {dims:?}");
        let mut g = group(c, &name, 8 * n);
        roofline(&mut g, n);
        let src: Vec<f32> = (0..a.required_len().unwrap())
            .map(|i| (i % 1000) as f32)
            .collect();
        let mut dst = vec![2f32; b.required_len().unwrap()];
        strided_layout::copy(&src, &al, &mut dst, &bl).unwrap();
        for index in [[0, 0, 0, 0], [0, 9, 1, 2], [0, 17, 2, 1]] {
            let (x, y) = (a.offset_of(&index).unwrap(), b.offset_of(&index).unwrap());
            assert_eq!(dst[y as usize], src[x as usize]);
        }
        g.bench_function("ours", |bch| {
            bch.iter(|| {
                strided_layout::copy(black_box(&src), &al, black_box(&mut dst), &bl).unwrap()
            })
        });
        g.bench_function("naive", |bch| {
            bch.iter(|| {
                let (s, d) = (black_box(&src), black_box(&mut dst));
                for i in 0..dims[0] {
                    for j in 0..dims[1] {
                        for k in 0..dims[2] {
                            for l in 0..dims[3] {
                                let ix = [i, j, k, l];
                                let (x, y) = (a.offset_of(&ix).unwrap(), b.offset_of(&ix).unwrap());
                                d[y as usize] = s[x as usize];
                            }
                        }
                    }
                }
            })
        });
        g.finish();
    }
}

/// The weight reorders of `table/onednn sizes` in 2 bytes (`bf16`'s size; oneDNN's own bf16
/// reorder is timed by `scripts/onednn_reorder_bench.sh`) and 8 bytes (`f64`, which oneDNN
/// does not reorder), beside `copy_from_slice` of the same bytes.
fn weights_by_size(c: &mut Criterion) {
    use strided_layout::nested::NestedLayout;
    fn run<T: Copy + 'static>(c: &mut Criterion, from: &str, to: &str, of: fn(usize) -> T) {
        let dims = [256, 256, 3, 3];
        let size = std::mem::size_of::<T>();
        let a = NestedLayout::<8>::onednn(from, &dims, size).unwrap();
        let b = NestedLayout::<8>::onednn(to, &dims, size).unwrap();
        let (al, bl) = (a.lowered::<4>().unwrap(), b.lowered::<4>().unwrap());
        let n: usize = dims.iter().product();
        let name = format!("table/weights {from} -> {to} {dims:?} {size} bytes");
        let mut g = group(c, &name, 2 * size * n);
        let src: Vec<T> = (0..a.required_len().unwrap()).map(of).collect();
        let mut dst = vec![of(7); b.required_len().unwrap()];
        let flat = src.clone();
        let mut flat_dst = vec![of(5); flat.len()];
        g.bench_function("copy_from_slice", |bch| {
            bch.iter(|| black_box(&mut flat_dst[..]).copy_from_slice(black_box(&flat)))
        });
        g.bench_function("ours", |bch| {
            bch.iter(|| {
                strided_layout::copy(black_box(&src), &al, black_box(&mut dst), &bl).unwrap()
            })
        });
        g.finish();
    }
    for (from, to) in [("oihw", "OIhw16i16o"), ("OIhw16i16o", "oihw")] {
        run::<u16>(c, from, to, |i| (i % 65_521) as u16);
        run::<f64>(c, from, to, |i| (i % 1000) as f64);
    }
}

criterion_group!(benches, nchw8c_to_nchw16c, onednn_sizes, weights_by_size);
criterion_main!(benches);
