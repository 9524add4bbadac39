//! `KernelLayout::offset_of_linear` (fast division: multiply-high, add, shift per axis) against
//! a naive loop of hardware divisions and remainders, at rank 4 `i32` and `i64`, over every
//! position of a permuted layout (the grid-stride loop of a GPU kernel, run on the host).
//!
//! Run: `cargo bench --bench kernel_param`

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use std::hint::black_box;
use strided_layout::gpu::KernelLayout;
use strided_layout::{Layout, Order};

/// A permuted dense layout with extents that are not powers of two (so no division is a
/// shift): 460800 positions.
fn layout() -> Layout<4> {
    Layout::dense([16, 24, 40, 30], 4, Order::C)
        .unwrap()
        .permuted([2, 0, 3, 1])
        .unwrap()
}

/// The naive loop: one hardware division and remainder per axis (what `offset_of_linear` did
/// before it carried division constants).
#[inline(never)]
fn naive_sum<I>(extents: [I; 4], strides: [I; 4], offset: I, volume: I) -> I
where
    I: Copy
        + core::ops::Div<Output = I>
        + core::ops::Rem<Output = I>
        + core::ops::Mul<Output = I>
        + core::ops::Add<Output = I>
        + num_traits::PrimInt
        + num_traits::WrappingAdd,
{
    let mut sum = I::zero();
    let mut t = I::zero();
    while t < volume {
        let mut rest = t;
        let mut acc = offset;
        for k in (0..4).rev() {
            acc = acc + (rest % extents[k]) * strides[k];
            rest = rest / extents[k];
        }
        sum = sum.wrapping_add(&acc);
        t = t + I::one();
    }
    sum
}

#[inline(never)]
fn fast_sum<I: strided_layout::gpu::KernelIndex>(k: &KernelLayout<I, 4>, volume: I) -> I {
    let mut sum = I::zero();
    let mut t = I::zero();
    while t < volume {
        sum = sum.wrapping_add(&k.offset_of_linear(t));
        t = t + I::one();
    }
    sum
}

fn offset_of_linear(c: &mut Criterion) {
    let l = layout();
    let n = l.volume();
    let mut g = c.benchmark_group("offset_of_linear/rank4");
    g.throughput(Throughput::Elements(n as u64));

    let k32 = KernelLayout::<i32, 4>::from_layout(&l).unwrap();
    assert_eq!(
        fast_sum(&k32, n as i32),
        naive_sum(k32.extents(), k32.strides(), k32.offset(), n as i32)
    );
    g.bench_function("i32/fast", |b| {
        b.iter(|| fast_sum(black_box(&k32), black_box(n as i32)))
    });
    g.bench_function("i32/naive_division", |b| {
        b.iter(|| {
            naive_sum(
                black_box(k32.extents()),
                black_box(k32.strides()),
                black_box(k32.offset()),
                black_box(n as i32),
            )
        })
    });

    let k64 = KernelLayout::<i64, 4>::from_layout(&l).unwrap();
    g.bench_function("i64/fast", |b| {
        b.iter(|| fast_sum(black_box(&k64), black_box(n as i64)))
    });
    g.bench_function("i64/naive_division", |b| {
        b.iter(|| {
            naive_sum(
                black_box(k64.extents()),
                black_box(k64.strides()),
                black_box(k64.offset()),
                black_box(n as i64),
            )
        })
    });
    g.finish();
}

criterion_group!(benches, offset_of_linear);
criterion_main!(benches);
