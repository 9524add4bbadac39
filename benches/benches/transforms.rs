//! ns per query and per transform at rank 4, each beside a hand-written baseline that does
//! the bare arithmetic without validation; a transform that costs far more than its baseline
//! has accidental extra work (quadratic loops, repeated validation).
//!
//! Run: `cargo bench -p strided-layout-bench --bench transforms`

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

/// Hand-written baselines: the bare arithmetic of each transform on a C-contiguous rank-4
/// layout, without validation or error paths; what a user writing it inline would pay.
#[allow(clippy::needless_range_loop, clippy::cast_possible_wrap)]
mod baseline {
    pub type L = ([usize; 4], [isize; 4], isize);

    pub fn permuted(l: L, p: [usize; 4]) -> L {
        (p.map(|a| l.0[a]), p.map(|a| l.1[a]), l.2)
    }
    pub fn transposed(l: L, a: usize, b: usize) -> L {
        let (mut s, mut t) = (l.0, l.1);
        s.swap(a, b);
        t.swap(a, b);
        (s, t, l.2)
    }
    pub fn flipped(l: L, a: usize) -> L {
        let mut t = l.1;
        let off = l.2 + (l.0[a] as isize - 1) * t[a];
        t[a] = -t[a];
        (l.0, t, off)
    }
    pub fn narrowed(l: L, a: usize, start: usize, len: usize) -> L {
        let mut s = l.0;
        s[a] = len;
        (s, l.1, l.2 + start as isize * l.1[a])
    }
    /// `[:, 1::2, :, ::-1]`, the case the bench slices.
    pub fn sliced(l: L) -> L {
        let (mut s, mut t) = (l.0, l.1);
        s[1] = (s[1] - 1).div_ceil(2);
        t[1] *= 2;
        let off = l.2 + l.1[1] + (s[3] as isize - 1) * t[3];
        t[3] = -t[3];
        (s, t, off)
    }
    pub fn selected(l: L, a: usize, i: usize) -> ([usize; 3], [isize; 3], isize) {
        let (mut s, mut t) = ([0; 3], [0; 3]);
        let mut o = 0;
        for k in 0..4 {
            if k != a {
                s[o] = l.0[k];
                t[o] = l.1[k];
                o += 1;
            }
        }
        (s, t, l.2 + i as isize * l.1[a])
    }
    pub fn unsqueezed(l: L, a: usize) -> ([usize; 5], [isize; 5], isize) {
        let (mut s, mut t) = ([1; 5], [0; 5]);
        for k in 0..5 {
            if k < a {
                (s[k], t[k]) = (l.0[k], l.1[k]);
            } else if k > a {
                (s[k], t[k]) = (l.0[k - 1], l.1[k - 1]);
            }
        }
        t[a] = if a < 4 { l.1[a] * l.0[a] as isize } else { 1 };
        (s, t, l.2)
    }
    pub fn broadcast_to(l: L, shape: [usize; 5]) -> ([usize; 5], [isize; 5], isize) {
        let mut t = [0; 5];
        for k in 0..4 {
            t[k + 1] = if l.0[k] == shape[k + 1] { l.1[k] } else { 0 };
        }
        (shape, t, l.2)
    }
    /// C-contiguous source: strides of the target are its dense strides.
    pub fn reshaped(l: L, shape: [usize; 2]) -> ([usize; 2], [isize; 2], isize) {
        (shape, [shape[1] as isize, 1], l.2)
    }
    pub fn flattened(l: L) -> (usize, isize, isize) {
        (l.0.iter().product(), l.1[3], l.2)
    }
    pub fn squeezed(l: L) -> ([usize; 4], [isize; 4], usize) {
        let (mut s, mut t, mut r) = ([0; 4], [0; 4], 0);
        for k in 0..4 {
            if l.0[k] != 1 {
                (s[r], t[r]) = (l.0[k], l.1[k]);
                r += 1;
            }
        }
        (s, t, r)
    }
    pub fn to_dense_f(l: L) -> L {
        let mut t = [0; 4];
        let mut acc = 1isize;
        for k in 0..4 {
            t[k] = acc;
            acc *= l.0[k] as isize;
        }
        (l.0, t, 0)
    }
}

/// One transform beside its baseline: `<name>` and `<name>/baseline`.
macro_rules! pair {
    ($g:expr, $name:literal, $l:ident, $b:ident, $ours:expr, $base:expr) => {
        $g.bench_function($name, |bn| {
            bn.iter(|| {
                let $l = black_box(layout());
                $ours
            })
        });
        $g.bench_function(concat!($name, "/baseline"), |bn| {
            bn.iter(|| {
                let l = layout();
                let $b = black_box((l.shape(), l.strides(), l.offset()));
                $base
            })
        });
    };
}

fn transforms(c: &mut Criterion) {
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
    pair!(
        g,
        "permuted",
        l,
        b,
        l.permuted(black_box([3, 1, 2, 0])),
        baseline::permuted(b, black_box([3, 1, 2, 0]))
    );
    pair!(
        g,
        "transposed",
        l,
        b,
        l.transposed(black_box(0), black_box(3)),
        baseline::transposed(b, black_box(0), black_box(3))
    );
    pair!(
        g,
        "flipped",
        l,
        b,
        l.flipped(black_box(2)),
        baseline::flipped(b, black_box(2))
    );
    pair!(
        g,
        "narrowed",
        l,
        b,
        l.narrowed(black_box(1), black_box(3), black_box(5)),
        baseline::narrowed(b, black_box(1), black_box(3), black_box(5))
    );
    pair!(
        g,
        "sliced",
        l,
        b,
        l.sliced(black_box([
            Slice::FULL,
            Slice::new(Some(1), None, 2),
            Slice::FULL,
            Slice::new(None, None, -1),
        ])),
        baseline::sliced(b)
    );
    pair!(
        g,
        "selected",
        l,
        b,
        l.selected::<3>(black_box(1), black_box(3)),
        baseline::selected(b, black_box(1), black_box(3))
    );
    pair!(
        g,
        "unsqueezed",
        l,
        b,
        l.unsqueezed::<5>(black_box(2)),
        baseline::unsqueezed(b, black_box(2))
    );
    pair!(
        g,
        "broadcast_to",
        l,
        b,
        l.broadcast_to(black_box([2, 8, 16, 32, 64])),
        baseline::broadcast_to(b, black_box([2, 8, 16, 32, 64]))
    );
    pair!(
        g,
        "reshaped",
        l,
        b,
        l.reshaped::<2>(black_box([128, -1])),
        baseline::reshaped(b, black_box([128, 8192]))
    );
    pair!(g, "flattened", l, b, l.flattened(), baseline::flattened(b));
    pair!(g, "squeezed", l, b, l.squeezed(), baseline::squeezed(b));
    pair!(
        g,
        "to_dense/F",
        l,
        b,
        l.to_dense(Order::F),
        baseline::to_dense_f(b)
    );
    g.finish();
}

criterion_group! {
    name = benches;
    // Short runs: the machine is small and shared; ratios within one run are what count.
    config = Criterion::default()
        .warm_up_time(std::time::Duration::from_millis(300))
        .measurement_time(std::time::Duration::from_secs(1));
    targets = queries, transforms
}
criterion_main!(benches);
