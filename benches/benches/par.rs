//! `par_copy` (the `rayon` feature) against `copy` on one thread and `copy_from_slice` of the
//! same bytes, for the large cases of the benchmark table: the 4096² and 4000² `f32` transposes
//! and the (2,0,1) permute of a 256³ `f32` cube; plus a 1 MiB and a 256 KiB transpose, where
//! the threshold `PAR_BYTES` is decided (`par_copy` runs one thread below it).
//!
//! Run: `cargo bench -p strided-layout-bench --features rayon --bench par` (without the
//! feature this file measures nothing). Throughput counts bytes read plus bytes written.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

#[cfg(feature = "rayon")]
use strided_layout::{CopyPlan, Layout, Order};

#[cfg(feature = "rayon")]
fn f32s(n: usize) -> Vec<f32> {
    (0..n).map(|i| (i % 1000) as f32).collect()
}

/// One group: `copy` (one thread), `par_copy`, `copy_from_slice` of the same bytes, and the
/// parts of a `CopyPlan` driven on two scoped threads (the runtime-neutral split).
#[cfg(feature = "rayon")]
fn case(c: &mut Criterion, name: &str, src_layout: &Layout<3>, dst_layout: &Layout<3>) {
    let n = dst_layout.volume();
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(2 * 4 * n as u64));
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(3));
    let src = f32s(n);
    let mut dst = vec![1f32; n];
    g.bench_function("copy", |b| {
        b.iter(|| {
            strided_layout::copy(black_box(&src), src_layout, black_box(&mut dst), dst_layout)
                .unwrap()
        })
    });
    let want = dst.clone();
    g.bench_function("par_copy", |b| {
        b.iter(|| {
            strided_layout::par_copy(black_box(&src), src_layout, black_box(&mut dst), dst_layout)
                .unwrap()
        })
    });
    assert!(dst == want, "par_copy wrote other bytes than copy");
    let plan = CopyPlan::new(src_layout, dst_layout).unwrap();
    g.bench_function("parts on 2 threads", |b| {
        b.iter(|| {
            let (a, rest) = plan
                .parts(black_box(&src), black_box(&mut dst), 2)
                .unwrap()
                .split_at(1);
            std::thread::scope(|s| {
                s.spawn(move || a.for_each(|p| p.run()));
                rest.for_each(|p| p.run());
            });
        })
    });
    assert!(dst == want, "the parts wrote other bytes than copy");
    let mut flat = vec![2f32; n];
    g.bench_function("copy_from_slice", |b| {
        b.iter(|| black_box(&mut flat[..]).copy_from_slice(black_box(&src[..])))
    });
    g.finish();
}

/// `dst (r, c) C = src (c, r) C transposed`, as rank 3 with a leading 1.
#[cfg(feature = "rayon")]
fn transpose(c: &mut Criterion, name: &str, r: usize, cols: usize) {
    let dst = Layout::dense([1, r, cols], 4, Order::C).unwrap();
    let src = Layout::dense([1, cols, r], 4, Order::C)
        .unwrap()
        .permuted([0, 2, 1])
        .unwrap();
    case(c, name, &src, &dst);
}

#[cfg(feature = "rayon")]
fn benches(c: &mut Criterion) {
    transpose(c, "par/transpose 4096^2 f32", 4096, 4096);
    transpose(c, "par/transpose 4000^2 f32", 4000, 4000);
    let cube = Layout::dense([256, 256, 256], 4, Order::C).unwrap();
    let dst = Layout::dense([256, 256, 256], 4, Order::C).unwrap();
    case(
        c,
        "par/permute (2,0,1) 256^3 f32",
        &cube.permuted([2, 0, 1]).unwrap(),
        &dst,
    );
    transpose(c, "par/transpose 362^2 f32 (1 MiB moved)", 362, 362);
    transpose(c, "par/transpose 256^2 f32 (512 KiB moved)", 256, 256);
    transpose(c, "par/transpose 512^2 f32 (2 MiB moved)", 512, 512);
}

#[cfg(not(feature = "rayon"))]
fn benches(_: &mut Criterion) {
    let _ = (black_box(()), Duration::ZERO, Throughput::Bytes(0));
}

criterion_group!(par, benches);
criterion_main!(par);
