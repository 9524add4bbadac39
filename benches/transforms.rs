//! ns per query and per transform at rank 4, each beside a hand-written baseline that does
//! the bare arithmetic without validation; a transform that costs far more than its baseline
//! has accidental extra work (quadratic loops, repeated validation).
//!
//! Run: `cargo bench --bench transforms`

use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use strided_layout::{Layout, Order, Slice};

fn layout() -> Layout<4> {
    Layout::dense([8, 16, 32, 64], 4, Order::C).unwrap()
}

/// The bare offset sum the crate's `offset_of` validates and computes.
fn baseline_offset(shape: [usize; 4], strides: [isize; 4], ix: [usize; 4]) -> isize {
    let _ = shape;
    ix.iter().zip(strides).map(|(&i, s)| i as isize * s).sum()
}

fn queries(c: &mut Criterion) {
    let l = layout();
    let mut g = c.benchmark_group("query/rank4");
    g.bench_function("offset_of", |b| {
        b.iter(|| black_box(l).offset_of(black_box([7, 15, 31, 63])))
    });
    g.bench_function("offset_of/baseline", |b| {
        b.iter(|| {
            baseline_offset(
                black_box(l.shape()),
                black_box(l.strides()),
                black_box([7, 15, 31, 63]),
            )
        })
    });
    g.bench_function("is_contiguous_c", |b| {
        b.iter(|| black_box(l).is_contiguous_c())
    });
    g.bench_function("is_contiguous_any", |b| {
        b.iter(|| black_box(l).is_contiguous_any())
    });
    g.bench_function("is_unique", |b| b.iter(|| black_box(l).is_unique()));
    let odd = Layout::new([8, 16, 32, 64], [9, 1, 7, 3], 4).unwrap();
    g.bench_function("is_unique/overlapping", |b| {
        b.iter(|| black_box(odd).is_unique())
    });
    g.bench_function("offset_bounds", |b| b.iter(|| black_box(l).offset_bounds()));
    g.bench_function("stride_order", |b| b.iter(|| black_box(l).stride_order()));
    g.bench_function("flattened_axis_mask", |b| {
        b.iter(|| black_box(l).flattened_axis_mask())
    });
    g.finish();
}

fn transforms(c: &mut Criterion) {
    let l = layout();
    let mut g = c.benchmark_group("transform/rank4");
    g.bench_function("new", |b| {
        b.iter(|| {
            Layout::new(
                black_box([8, 16, 32, 64]),
                black_box([32768, 2048, 64, 1]),
                4,
            )
        })
    });
    g.bench_function("new/baseline", |b| {
        b.iter(|| {
            let (s, t) = (
                black_box([8usize, 16, 32, 64]),
                black_box([32768isize, 2048, 64, 1]),
            );
            (s, t, s.iter().product::<usize>())
        })
    });
    g.bench_function("permuted", |b| {
        b.iter(|| black_box(l).permuted(black_box([3, 1, 2, 0])))
    });
    g.bench_function("permuted/baseline", |b| {
        b.iter(|| {
            let (s, t, p) = (
                black_box(l.shape()),
                black_box(l.strides()),
                black_box([3usize, 1, 2, 0]),
            );
            (p.map(|a| s[a]), p.map(|a| t[a]))
        })
    });
    g.bench_function("flipped", |b| b.iter(|| black_box(l).flipped(black_box(2))));
    g.bench_function("sliced", |b| {
        b.iter(|| {
            black_box(l).sliced(black_box([
                Slice::FULL,
                Slice::new(Some(1), None, 2),
                Slice::FULL,
                Slice::new(None, None, -1),
            ]))
        })
    });
    g.bench_function("reshaped", |b| {
        b.iter(|| black_box(l).reshaped::<2>(black_box([128, -1])))
    });
    g.bench_function("flattened", |b| b.iter(|| black_box(l).flattened()));
    g.bench_function("squeezed", |b| b.iter(|| black_box(l).squeezed()));
    g.bench_function("unsqueezed", |b| {
        b.iter(|| black_box(l).unsqueezed::<5>(black_box(2)))
    });
    g.bench_function("broadcast_to", |b| {
        b.iter(|| black_box(l).broadcast_to(black_box([2, 8, 16, 32, 64])))
    });
    g.bench_function("to_dense/F", |b| b.iter(|| black_box(l).to_dense(Order::F)));
    g.finish();
}

criterion_group!(benches, queries, transforms);
criterion_main!(benches);
