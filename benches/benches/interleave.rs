//! Planar <-> interleaved copies (issue "Interleaved and blocked layouts"): CHW -> HWC of a
//! 3x1080x1920 image in u8 and f32, stereo 2x1M f32 planar -> interleaved, and 10 channels in
//! blocks of 4 (a partial last block), each beside `copy_from_slice` of the same bytes (the
//! roofline), a naive loop and ndarray's `permuted_axes` + `assign`, in the same run.
//!
//! Throughput counts bytes read plus bytes written (`2n` for `n` bytes moved).
//!
//! Run: `cargo bench -p strided-layout-bench --bench interleave`

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, criterion_group, criterion_main};
use ndarray::{ArrayView, ArrayViewMut};
use std::hint::black_box;
use strided_layout::{InterleaveLayout, InterleavedLayout, Layout, Order};
use strided_layout_bench::group;

/// `copy_from_slice` of `n` elements. Both buffers are filled with non-zero values: a zeroed
/// `vec!` is never written, so its reads all hit the kernel's one shared zero page, which
/// flatters the roofline (by about 1.3x for the 6 MiB case on the reference machine).
fn roofline<T: Copy + From<u8>>(g: &mut BenchmarkGroup<'_, WallTime>, n: usize) {
    let src = vec![T::from(1u8); n];
    let mut dst = vec![T::from(2u8); n];
    g.bench_function("copy_from_slice", |b| {
        b.iter(|| black_box(&mut dst[..]).copy_from_slice(black_box(&src[..])))
    });
}

/// CHW -> HWC: the destination is an `InterleavedLayout` (channels interleaved by C).
fn chw_to_hwc_case<T: Copy + Default + From<u8> + 'static>(c: &mut Criterion, name: &str) {
    const C: usize = 3;
    const H: usize = 1080;
    const W: usize = 1920;
    let n = C * H * W;
    let size = std::mem::size_of::<T>();
    let mut g = group(c, name, 2 * n * size);
    roofline::<T>(&mut g, n);
    let src: Vec<T> = (0..n).map(|i| T::from(i as u8)).collect();
    let mut dst = vec![T::default(); n];
    let planar = Layout::dense([C, H, W], size, Order::C).unwrap();
    let hwc =
        InterleavedLayout::dense([C, H, W], size, InterleaveLayout::new(0, C).unwrap()).unwrap();
    g.bench_function("strided_layout", |b| {
        b.iter(|| {
            strided_layout::copy(black_box(&src), &planar, black_box(&mut dst), &hwc).unwrap()
        })
    });
    g.bench_function("naive", |b| {
        b.iter(|| {
            let (s, d) = (black_box(&src), black_box(&mut dst));
            for ch in 0..C {
                for h in 0..H {
                    for w in 0..W {
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

fn chw_to_hwc(c: &mut Criterion) {
    chw_to_hwc_case::<u8>(c, "interleave/CHW to HWC/6MiB/1");
    chw_to_hwc_case::<f32>(c, "interleave/CHW to HWC/24MiB/4");
}

fn stereo(c: &mut Criterion) {
    const S: usize = 1 << 20;
    let n = 2 * S;
    let mut g = group(c, "interleave/stereo planar to LRLR/8MiB/4", 2 * 4 * n);
    roofline::<f32>(&mut g, n);
    let src: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
    let mut dst = vec![0.0f32; n];
    let planar = Layout::dense([2, S], 4, Order::C).unwrap();
    let lrlr = InterleavedLayout::dense([2, S], 4, InterleaveLayout::new(0, 2).unwrap()).unwrap();
    g.bench_function("strided_layout", |b| {
        b.iter(|| {
            strided_layout::copy(black_box(&src), &planar, black_box(&mut dst), &lrlr).unwrap()
        })
    });
    g.bench_function("naive", |b| {
        b.iter(|| {
            let (s, d) = (black_box(&src), black_box(&mut dst));
            for i in 0..S {
                d[2 * i] = s[i];
                d[2 * i + 1] = s[S + i];
            }
        })
    });
    g.bench_function("ndarray", |b| {
        b.iter(|| {
            let sv = ArrayView::from_shape((2, S), black_box(&src[..])).unwrap();
            let mut dv = ArrayViewMut::from_shape((S, 2), black_box(&mut dst[..])).unwrap();
            dv.assign(&sv.t());
        })
    });
    g.finish();
}

/// 10 channels of 256x256 f32 in blocks of 4 (nChw4c): the last block is half padding.
fn blocked(c: &mut Criterion) {
    const C: usize = 10;
    const P: usize = 256 * 256;
    let n = C * P;
    let mut g = group(
        c,
        "interleave/10 channels in blocks of 4/2.5MiB/4",
        2 * 4 * n,
    );
    roofline::<f32>(&mut g, n);
    let src: Vec<f32> = (0..n).map(|i| (i % 1000) as f32).collect();
    let planar = Layout::dense([C, P], 4, Order::C).unwrap();
    let blocks = InterleavedLayout::dense([C, P], 4, InterleaveLayout::new(0, 4).unwrap()).unwrap();
    // Three whole blocks of P pixels (the layout needs all but the last block's unused tail).
    assert!(blocks.required_size_in_bytes().unwrap() / 4 <= 3 * P * 4);
    let mut dst = vec![0.0f32; 3 * P * 4];
    g.bench_function("strided_layout", |b| {
        b.iter(|| {
            strided_layout::copy(black_box(&src), &planar, black_box(&mut dst), &blocks).unwrap()
        })
    });
    g.bench_function("naive", |b| {
        b.iter(|| {
            let (s, d) = (black_box(&src), black_box(&mut dst));
            for ch in 0..C {
                for p in 0..P {
                    d[(ch / 4) * P * 4 + p * 4 + ch % 4] = s[ch * P + p];
                }
            }
        })
    });
    g.bench_function("ndarray", |b| {
        b.iter(|| {
            // ndarray has no blocked layout: the full blocks as a (2, P, 4) permuted assign,
            // then the tail block's two channels.
            let sv = ArrayView::from_shape((C, P), black_box(&src[..])).unwrap();
            let d = black_box(&mut dst[..]);
            let (full, tail) = d.split_at_mut(2 * P * 4);
            let mut fv = ArrayViewMut::from_shape((2, P, 4), full).unwrap();
            let head = sv
                .slice(ndarray::s![..8, ..])
                .into_shape_with_order((2, 4, P))
                .unwrap();
            fv.assign(&head.permuted_axes([0, 2, 1]));
            let mut tv = ArrayViewMut::from_shape((P, 4), tail).unwrap();
            tv.slice_mut(ndarray::s![.., ..2])
                .assign(&sv.slice(ndarray::s![8.., ..]).t());
        })
    });
    g.finish();
}

criterion_group!(benches, chw_to_hwc, stereo, blocked);
criterion_main!(benches);
