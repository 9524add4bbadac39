//! Iteration cost per element: `offsets()` (internal iteration via `fold`, and external via
//! `next`), `strided_blocks()` expanded to elements, beside a naive nested loop over the
//! same rank-4 layout. Throughput is reported in elements, so criterion prints elem/s; the
//! ns/element figure is `time / elements`.
//!
//! Run: `cargo bench -p strided-layout-bench --bench blocks`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;
use strided_layout::{Layout, Order};

/// The naive loop: four nested loops, the offset recomputed from the index each time.
fn naive(l: &Layout<4>) -> isize {
    let (sh, st, off) = (l.shape(), l.strides(), l.offset());
    let mut acc = 0isize;
    for i in 0..sh[0] {
        for j in 0..sh[1] {
            for k in 0..sh[2] {
                for m in 0..sh[3] {
                    acc ^= off
                        + i as isize * st[0]
                        + j as isize * st[1]
                        + k as isize * st[2]
                        + m as isize * st[3];
                }
            }
        }
    }
    acc
}

fn cases() -> [(&'static str, Layout<4>); 2] {
    // A view of a wider buffer: rows of 64 contiguous elements that do not merge further.
    let rows = Layout::dense([8, 16, 32, 128], 4, Order::C)
        .unwrap()
        .narrowed(3, 0, 64)
        .unwrap();
    // A permuted layout: no axes merge, the inner axis has stride 32.
    let permuted = Layout::dense([32, 32, 32, 32], 4, Order::C)
        .unwrap()
        .permuted([3, 0, 1, 2])
        .unwrap();
    [("rows_8x16x32x64", rows), ("permuted_32^4", permuted)]
}

fn iterate(c: &mut Criterion) {
    for (name, l) in cases() {
        let mut g = c.benchmark_group(format!("iter/{name}"));
        g.throughput(Throughput::Elements(l.volume() as u64));
        g.bench_function("offsets_fold", |b| {
            b.iter(|| black_box(l).offsets().fold(0isize, |a, o| a ^ o))
        });
        g.bench_function("offsets_next", |b| {
            b.iter(|| {
                let mut acc = 0isize;
                for o in black_box(l).offsets() {
                    acc ^= o;
                }
                acc
            })
        });
        g.bench_function("strided_blocks", |b| {
            b.iter(|| {
                let mut acc = 0isize;
                for blk in black_box(l).strided_blocks() {
                    for k in 0..blk.len as isize {
                        acc ^= blk.start + k;
                    }
                }
                acc
            })
        });
        g.bench_function("naive_nested_loop", |b| b.iter(|| naive(&black_box(l))));
        g.finish();
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .measurement_time(Duration::from_secs(2))
        .warm_up_time(Duration::from_millis(500))
        .sample_size(20);
    targets = iterate
}
criterion_main!(benches);
