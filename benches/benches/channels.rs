//! Planar -> interleaved channels (the channel rows of README's table): CHW -> HWC of a
//! 3x1080x1920 image in u8 and f32, 8 channels of i16 (8-slot TDM, 7.1 audio) and 6 channels
//! of f32 (5.1 audio) of 1M frames each, beside `copy_from_slice` of the same bytes from a
//! written source (the roofline), a naive index loop and ndarray's `assign` of the permuted
//! view, in the same run; and a sweep of 5 to 16 channels of 1-, 2- and 4-byte elements in
//! both directions (`channels/..` and `channels back/..`).
//!
//! Throughput counts bytes read plus bytes written (`2n` for `n` bytes moved).
//!
//! Run: `cargo bench -p strided-layout-bench --bench channels`

use criterion::{Criterion, criterion_group, criterion_main};
use ndarray::{ArrayView, ArrayViewMut};
use std::hint::black_box;
use strided_layout::{InterleaveLayout, InterleavedLayout, Layout, Order};
use strided_layout_bench::group;

/// A planar `c x pixels` source (`pattern` values, every page written) copied to pixels of `c`
/// interleaved channels, or with `back` the interleaved pixels to planes: `ours`,
/// `copy_from_slice` of the same bytes, `naive` and `ndarray`.
fn channels<T: Copy + Default + 'static>(
    cr: &mut Criterion,
    name: &str,
    c: usize,
    pixels: usize,
    pattern: impl Fn(usize) -> T,
    back: bool,
) {
    let n = c * pixels;
    let size = std::mem::size_of::<T>();
    let mut g = group(cr, name, 2 * n * size);
    let src: Vec<T> = (0..n).map(&pattern).collect();
    let mut dst: Vec<T> = (0..n).map(|i| pattern(i + 1)).collect();
    let planar = Layout::dense([c, pixels], size, Order::C).unwrap();
    let inter =
        InterleavedLayout::dense([c, pixels], size, InterleaveLayout::new(0, c).unwrap()).unwrap();
    // Element `(ch, p)` of the planar (`true`) or the interleaved layout.
    let at = |planar: bool, ch: usize, p: usize| if planar { ch * pixels + p } else { p * c + ch };
    g.bench_function("ours", |b| {
        b.iter(|| {
            if back {
                strided_layout::copy(black_box(&src), &inter, black_box(&mut dst), &planar)
            } else {
                strided_layout::copy(black_box(&src), &planar, black_box(&mut dst), &inter)
            }
            .unwrap()
        })
    });
    g.bench_function("copy_from_slice", |b| {
        b.iter(|| black_box(&mut dst[..]).copy_from_slice(black_box(&src[..])))
    });
    g.bench_function("naive", |b| {
        b.iter(|| {
            let (s, d) = (black_box(&src), black_box(&mut dst));
            for ch in 0..c {
                for p in 0..pixels {
                    d[at(back, ch, p)] = s[at(!back, ch, p)];
                }
            }
        })
    });
    let (planar_shape, inter_shape) = ((c, pixels), (pixels, c));
    let (src_shape, dst_shape) = if back {
        (inter_shape, planar_shape)
    } else {
        (planar_shape, inter_shape)
    };
    g.bench_function("ndarray", |b| {
        b.iter(|| {
            let sv = ArrayView::from_shape(src_shape, black_box(&src[..])).unwrap();
            let mut dv = ArrayViewMut::from_shape(dst_shape, black_box(&mut dst[..])).unwrap();
            dv.assign(&sv.t());
        })
    });
    g.finish();
}

fn table(cr: &mut Criterion) {
    const HW: usize = 1080 * 1920;
    const FRAMES: usize = 1 << 20;
    let name = "table/CHW -> HWC 3x1080x1920";
    channels::<u8>(
        cr,
        &format!("{name} u8"),
        3,
        HW,
        |i| (i * 7 + 1) as u8,
        false,
    );
    channels::<f32>(
        cr,
        &format!("{name} f32"),
        3,
        HW,
        |i| (i % 1000) as f32 + 0.5,
        false,
    );
    channels::<i16>(
        cr,
        "table/8 channels i16 x 1M frames -> interleaved",
        8,
        FRAMES,
        |i| (i % 30000) as i16 + 1,
        false,
    );
    channels::<f32>(
        cr,
        "table/6 channels f32 x 1M frames -> interleaved",
        6,
        FRAMES,
        |i| (i % 1000) as f32 + 0.5,
        false,
    );
}

/// Other channel counts and element sizes (not in the table), both ways: 256K pixels each
/// and planes 64 bytes more than a power of two apart (planes a multiple of 4 KiB apart
/// crowd one cache set; `channels/16 x u8, planes 2^18 apart` shows that case).
fn sweep(cr: &mut Criterion) {
    const PX: usize = (1 << 18) + 64;
    for c in [5, 6, 7, 8, 9, 10, 12, 15, 16] {
        for (way, back) in [("channels", false), ("channels back", true)] {
            channels::<u8>(cr, &format!("{way}/{c} x u8"), c, PX, |i| i as u8, back);
            channels::<i16>(cr, &format!("{way}/{c} x i16"), c, PX, |i| i as i16, back);
            channels::<f32>(cr, &format!("{way}/{c} x f32"), c, PX, |i| i as f32, back);
        }
    }
    channels::<u8>(
        cr,
        "channels/16 x u8, planes 2^18 apart",
        16,
        1 << 18,
        |i| i as u8,
        false,
    );
}

criterion_group!(benches, table, sweep);
criterion_main!(benches);
