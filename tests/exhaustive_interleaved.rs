//! Proof by exhaustion in a small scope: every query and transform of [`InterleavedLayout`]
//! on *every* interleaved layout of a small scope (every interleaved dimension, every factor
//! 1..=3), against the naive model `offset + Σ_{k≠d} i_k s_k + (i_d / f)·s_d + i_d % f` in
//! `i128` (`small_scope::Model`).
//!
//! | test | scope | layouts at rank 1 / 2 / 3 |
//! | --- | --- | --- |
//! | `rankN::queries_and_transforms_match_the_model` | extents 0..=3, strides -3..=3 (the block stride on the interleaved axis), offsets 0..=2 with itemsize 4 at offset 1 else 1, every dimension, factors 1..=3; rank 3: strides -2..=2, offsets 0..=1 | 252 / 14,112 / 144,000 |
//! | `dense_matches_the_model` | every shape of ranks 1..=3 with extents 0..=4, every dimension, factors 1..=4, itemsizes 1 and 4 | 3,440 |
//! | `grids_match_the_model` | the rank-1 and rank-2 layouts above, `grid_1d` / `grid_2d` text | 252 / 14,112 |
//! | `from_strided_matches_the_model` | every strided layout of ranks 2..=4 with extents 0..=3, strides -2..=2 (rank 4: -1..=1), offsets 0..=1, every dimension `0..=N` | 58,272 strided layouts, 63,320 accepted |
//!
//! Each interleaved layout runs every index, both strided forms, every permutation, every
//! narrowing and every selection, and the rank-1 and rank-2 grids: 4 million checked cases,
//! printed per test, in an optimised build. A debug build (README's `cargo test`) takes the
//! quick scope (`small_scope::quick`): extents 0..=2 and strides -1..=1 at rank 3;
//! `STRIDED_LAYOUT_EXHAUSTIVE=full` gives it the table's scope.
//!
//! `STRIDED_LAYOUT_EXHAUSTIVE=wide`: itemsizes 1 and 4 at every offset, strides -3..=3 and
//! offsets 0..=2 at rank 3 too, factors 1..=4 (672 / 37,632 / 1,580,544 interleaved
//! layouts; `dense` extents 0..=5): 41 million cases, 154 s of CPU (341 s at `nice 19` on two
//! busy cores).
#![allow(
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::cast_possible_truncation,
    clippy::too_many_lines
)]

use crate::common;

use common::small_scope::{
    Model, Scope, Tally, for_each_index, grid_text, odometer, permutations, quick, reindexed, wide,
};
use strided_layout::gpu::KernelLayout;
use strided_layout::rank::{OneLess, OneMore, Rank};
use strided_layout::{InterleaveLayout, InterleavedLayout, Layout, LayoutError};

/// The scope: extents 0..=3, strides -3..=3, offsets 0..=2, itemsize 4 at offset 1 else 1;
/// rank 3: strides -2..=2, offsets 0..=1. Wide: itemsizes 1 and 4 at every offset, and
/// strides -3..=3, offsets 0..=2 at rank 3 too.
fn scope(rank: usize) -> Scope {
    if wide() {
        return Scope {
            max_extent: 3,
            max_stride: 3,
            offsets: (0, 2),
            itemsizes: &[1, 4],
            itemsize_by_offset: false,
        };
    }
    let (s, o) = if rank < 3 {
        (3, 2)
    } else if quick() {
        (1, 1)
    } else {
        (2, 1)
    };
    Scope {
        max_extent: if quick() && rank >= 3 { 2 } else { 3 },
        max_stride: s,
        offsets: (0, o),
        itemsizes: &[1, 4],
        itemsize_by_offset: true,
    }
}

/// The factors tried: 1..=3 (wide: 1..=4).
fn factors() -> (usize, usize) {
    if wide() { (1, 4) } else { (1, 3) }
}

fn arr<const N: usize>(v: &[usize]) -> [usize; N] {
    v.try_into().expect("rank N index")
}

fn spec<const N: usize>(l: &InterleavedLayout<N>) -> (usize, usize) {
    (l.interleave().dimension(), l.interleave().factor())
}

fn check_queries<const N: usize>(l: &InterleavedLayout<N>, m: &Model, t: &mut Tally) {
    let (d, f) = spec(l);
    let e = m.shape[d];
    assert_eq!((l.ndim(), l.volume()), (N, m.volume()), "{l}");
    // The same parts rebuild it; an out-of-range dimension is refused.
    let il = l.interleave();
    assert_eq!(
        InterleavedLayout::new(l.shape(), l.strides(), l.itemsize(), il)
            .and_then(|x| x.with_offset(l.offset())),
        Ok(*l)
    );
    let far = InterleaveLayout::new(N, f).unwrap();
    assert_eq!(
        InterleavedLayout::new(l.shape(), l.strides(), l.itemsize(), far),
        Err(LayoutError::AxisOutOfRange { axis: N, ndim: N })
    );

    // offset_of on every index, and the first out-of-range index of each axis.
    for_each_index(&m.shape, |ix| {
        assert_eq!(
            l.offset_of(arr(ix)).map(|o| o as i128),
            Ok(m.at(ix)),
            "{l} {ix:?}"
        );
    });
    for k in 0..N {
        let mut i = [0usize; N];
        i[k] = m.shape[k];
        let axis = (0..N).find(|&j| i[j] >= m.shape[j]).unwrap();
        assert_eq!(
            l.offset_of(i),
            Err(LayoutError::IndexOutOfRange { axis }),
            "{l}"
        );
    }

    // Bounds, size, uniqueness, density.
    let bounds = m.bounds();
    assert_eq!(
        l.offset_bounds().map(|(a, b)| (a as i128, b as i128)),
        bounds,
        "{l}"
    );
    match m.required_bytes() {
        Some(n) => assert_eq!(l.required_size_in_bytes(), Ok(n), "{l}"),
        None => assert_eq!(
            l.required_size_in_bytes(),
            Err(LayoutError::NegativeOffset),
            "{l}"
        ),
    }
    let unique = m.unique();
    assert_eq!(l.is_unique(), unique, "is_unique {l}");
    let dense = match bounds {
        None => m.offset == 0,
        Some(_) => {
            let mut v = m.offs.clone();
            v.sort_unstable();
            v == (0..m.volume() as i128).collect::<Vec<_>>()
        }
    };
    assert_eq!(l.is_dense(), dense, "is_dense {l}");
    let last = if e.is_multiple_of(f) { f } else { e % f };
    assert_eq!(l.last_block_len(), last, "{l}");

    // Contiguous axis, stride rank, batch size (ArrayInterface).
    let axis = if f >= 2 && e >= 2 {
        Some(d)
    } else {
        let s: Vec<isize> = (0..N)
            .map(|k| if k == d && e <= f { 1 } else { m.strides[k] })
            .collect();
        (0..N).rev().find(|&a| m.shape[a] > 1 && s[a] == 1)
    };
    assert_eq!(l.contiguous_axis(), axis, "contiguous_axis {l}");
    let rank = l.stride_rank();
    let mut sorted = rank.to_vec();
    sorted.sort_unstable();
    assert_eq!(sorted, (0..N).collect::<Vec<_>>(), "stride_rank {l}");
    let batch = match axis {
        None => None,
        Some(a) if a == d && 2 <= f && f < e && rank[d] != 0 => Some(f),
        Some(_) => Some(0),
    };
    assert_eq!(
        l.contiguous_batch_size(),
        batch,
        "contiguous_batch_size {l}"
    );

    // The kernel parameter computes the same offsets.
    let k = KernelLayout::<i32, N>::from_interleaved(l).unwrap();
    let mut linear = 0i32;
    for_each_index(&m.shape, |ix| {
        let at = m.at(ix);
        let i: [i32; N] = std::array::from_fn(|k| ix[k] as i32);
        assert_eq!(k.offset_of(i) as i128, at, "{l} {ix:?}");
        assert_eq!(k.offset_of_linear(linear) as i128, at, "{l}");
        linear += 1;
    });
    t.tick();
}

fn check_strided_forms<const N: usize, const UP: usize>(
    l: &InterleavedLayout<N>,
    m: &Model,
    t: &mut Tally,
) where
    Rank<N>: OneMore<N, UP>,
    Rank<UP>: OneLess<UP, N>,
{
    let (d, f) = spec(l);
    let e = m.shape[d];
    // Every element index sits at `[.., i_d / f, .., i_d % f]` of the strided forms.
    let check = |s: &Layout<UP>, what: &str| {
        let sm = Model::of(s);
        for_each_index(&m.shape, |ix| {
            let mut j = [0usize; UP];
            j[..N].copy_from_slice(ix);
            j[d] = ix[d] / f;
            j[N] = ix[d] % f;
            assert_eq!(sm.at(&j), m.at(ix), "{l}.{what} at {ix:?}");
        });
    };
    let padded = l.to_strided_padded::<UP>().unwrap();
    assert_eq!(padded.shape()[d], e.div_ceil(f), "{l}");
    assert_eq!((padded.shape()[N], padded.strides()[N]), (f, 1), "{l}");
    check(&padded, "to_strided_padded()");
    match l.to_strided::<UP>() {
        Ok(s) => {
            assert!(e.is_multiple_of(f), "{l}.to_strided()");
            assert_eq!(s, padded, "{l}");
            check(&s, "to_strided()");
            assert_eq!(
                InterleavedLayout::<N>::from_strided(&s, d),
                Ok(*l),
                "{l} back"
            );
        }
        Err(err) => {
            assert!(!e.is_multiple_of(f), "{l}.to_strided(): {err:?}");
            assert_eq!(err, LayoutError::ExtentNotDivisible { axis: d }, "{l}");
        }
    }
    t.tick();
}

fn check_transforms<const N: usize>(l: &InterleavedLayout<N>, m: &Model, t: &mut Tally) {
    let (d, f) = spec(l);

    // permuted: every permutation; the interleave follows its axis.
    for p in permutations(N) {
        let r = l.permuted(arr(&p)).unwrap();
        assert_eq!(
            spec(&r),
            (p.iter().position(|&a| a == d).unwrap(), f),
            "{l} {p:?}"
        );
        let shape: Vec<usize> = p.iter().map(|&k| m.shape[k]).collect();
        let want = reindexed(&m.offs, &m.shape, &shape, |j, i| {
            for (k, &a) in p.iter().enumerate() {
                i[a] = j[k];
            }
        });
        assert_eq!(Model::of_il(&r).offs, want, "{l}.permuted({p:?})");
        t.tick();
    }
    let bad = if N == 1 { [1; N] } else { [0; N] };
    assert_eq!(l.permuted(bad), Err(LayoutError::NotAPermutation), "{l}");

    // narrowed: every axis, start and length; blocks must stay aligned.
    assert_eq!(
        l.narrowed(N, 0, 0),
        Err(LayoutError::AxisOutOfRange { axis: N, ndim: N })
    );
    for axis in 0..N {
        let e = m.shape[axis];
        for start in 0..=e + 1 {
            for len in 0..=e + 1 {
                let got = l.narrowed(axis, start, len);
                let what = || format!("{l}.narrowed({axis}, {start}, {len})");
                if start + len > e {
                    assert_eq!(
                        got,
                        Err(LayoutError::RangeOutOfBounds { axis }),
                        "{}",
                        what()
                    );
                    continue;
                }
                if axis == d && start % f != 0 {
                    assert_eq!(
                        got,
                        Err(LayoutError::BlockMisaligned { axis }),
                        "{}",
                        what()
                    );
                    continue;
                }
                let r = got.unwrap_or_else(|err| panic!("{}: {err:?}", what()));
                assert_eq!(spec(&r), (d, f), "{}", what());
                let mut shape = m.shape.clone();
                shape[axis] = len;
                assert_eq!(r.shape().to_vec(), shape, "{}", what());
                let want = reindexed(&m.offs, &m.shape, &shape, |j, i| {
                    i.copy_from_slice(j);
                    i[axis] += start;
                });
                assert_eq!(Model::of_il(&r).offs, want, "{}", what());
                t.tick();
            }
        }
    }
    t.tick();
}

fn check_selected<const N: usize, const DOWN: usize>(
    l: &InterleavedLayout<N>,
    m: &Model,
    t: &mut Tally,
) where
    Rank<N>: OneLess<N, DOWN>,
{
    let (d, f) = spec(l);
    assert_eq!(
        l.selected::<DOWN>(N, 0),
        Err(LayoutError::AxisOutOfRange { axis: N, ndim: N })
    );
    for axis in 0..N {
        for index in 0..=m.shape[axis] {
            let got = l.selected::<DOWN>(axis, index);
            let what = || format!("{l}.selected({axis}, {index})");
            if axis == d {
                assert_eq!(
                    got,
                    Err(LayoutError::InterleavedAxis { axis }),
                    "{}",
                    what()
                );
                continue;
            }
            if index >= m.shape[axis] {
                assert_eq!(
                    got,
                    Err(LayoutError::IndexOutOfRange { axis }),
                    "{}",
                    what()
                );
                continue;
            }
            let s = got.unwrap_or_else(|err| panic!("{}: {err:?}", what()));
            assert_eq!(
                spec(&s),
                (if axis < d { d - 1 } else { d }, f),
                "{}",
                what()
            );
            let mut shape = m.shape.clone();
            shape.remove(axis);
            let want = reindexed(&m.offs, &m.shape, &shape, |j, i| {
                i[..axis].copy_from_slice(&j[..axis]);
                i[axis] = index;
                i[axis + 1..].copy_from_slice(&j[axis..]);
            });
            assert_eq!(Model::of_il(&s).offs, want, "{}", what());
            t.tick();
        }
    }
}

macro_rules! rank_tests {
    ($name:ident, $n:literal, $up:literal, $down:literal) => {
        mod $name {
            use super::*;

            /// Every query, strided form and transform against the model, on every rank-N
            /// interleaved layout of [`scope`] (every dimension, every factor).
            #[test]
            fn queries_and_transforms_match_the_model() {
                let mut t = Tally::new(concat!(stringify!($name), "::queries_and_transforms"));
                scope($n).for_each_interleaved::<$n>(factors(), |l| {
                    let m = Model::of_il(&l);
                    check_queries(&l, &m, &mut t);
                    check_strided_forms::<$n, $up>(&l, &m, &mut t);
                    check_transforms(&l, &m, &mut t);
                    check_selected::<$n, $down>(&l, &m, &mut t);
                });
            }
        }
    };
}

rank_tests!(rank1, 1, 2, 0);
rank_tests!(rank2, 2, 3, 1);
rank_tests!(rank3, 3, 4, 2);

fn check_dense<const N: usize>(t: &mut Tally) {
    let (fa, fb) = (1, factors().1 + 1);
    let max_e = if wide() { 5 } else { 4 };
    odometer([0; N], [max_e; N], |shape| {
        let shape = shape.map(|e| e as usize);
        for d in 0..N {
            for f in fa..=fb {
                for itemsize in [1, 4] {
                    let il = InterleaveLayout::new(d, f).unwrap();
                    let l = InterleavedLayout::dense(shape, itemsize, il).unwrap();
                    let m = Model::of_il(&l);
                    let what = format!("dense({shape:?}, {itemsize}, il({d}, {f}))");
                    assert_eq!((l.shape(), l.offset(), l.itemsize()), (shape, 0, itemsize));
                    assert_eq!(spec(&l), (d, f), "{what}");
                    // The strides of `Layout::dense` (C) on the shape with axis d split into
                    // (ceil(e / f), f), without the last; all zero when an extent is 0.
                    let mut split: Vec<usize> = shape.to_vec();
                    split[d] = shape[d].div_ceil(f);
                    split.push(f);
                    let mut want = vec![0isize; N];
                    if !shape.contains(&0) {
                        let mut acc = 1isize;
                        let mut c = vec![0isize; N + 1];
                        for k in (0..=N).rev() {
                            c[k] = acc;
                            acc *= split[k] as isize;
                        }
                        want.copy_from_slice(&c[..N]);
                    }
                    assert_eq!(l.strides().to_vec(), want, "{what}");
                    assert!(m.unique(), "{what}");
                    if shape[d] % f == 0 {
                        assert!(l.is_dense(), "{what}");
                    }
                    if let Some((lo, hi)) = m.bounds() {
                        assert!(
                            lo >= 0 && hi < split.iter().product::<usize>() as i128,
                            "{what}"
                        );
                    }
                    t.tick();
                }
            }
        }
    });
}

/// `InterleavedLayout::dense` on every shape of ranks 1..=3 with extents 0..=4, every
/// dimension, factors 1..=4 and itemsizes 1 and 4 (3,440 layouts): the documented strides,
/// unique, inside the padded volume, dense when the factor divides the extent.
#[test]
fn dense_matches_the_model() {
    let mut t = Tally::new("dense_matches_the_model");
    check_dense::<1>(&mut t);
    check_dense::<2>(&mut t);
    check_dense::<3>(&mut t);
}

fn check_from_strided<const N: usize, const M: usize>(scope: Scope, t: &mut Tally)
where
    Rank<N>: OneMore<N, M>,
    Rank<M>: OneLess<M, N>,
{
    scope.for_each::<M>(|s| {
        let sm = Model::of(&s);
        let (e, last) = (s.shape()[N], s.strides()[N]);
        for d in 0..=N {
            let got = InterleavedLayout::<N>::from_strided(&s, d);
            let what = || format!("from_strided({s}, {d})");
            if d >= N {
                assert_eq!(
                    got,
                    Err(LayoutError::AxisOutOfRange { axis: d, ndim: N }),
                    "{}",
                    what()
                );
                continue;
            }
            if e == 0 {
                assert_eq!(got, Err(LayoutError::FactorZero), "{}", what());
                continue;
            }
            if e > 1 && last != 1 {
                assert_eq!(got, Err(LayoutError::NotABlock { axis: N }), "{}", what());
                continue;
            }
            let r = got.unwrap_or_else(|err| panic!("{}: {err:?}", what()));
            assert_eq!(spec(&r), (d, e), "{}", what());
            let rm = Model::of_il(&r);
            // Index `i` of the result is `[.., i_d / f, .., i_d % f]` of the strided layout.
            for_each_index(&rm.shape, |ix| {
                let mut j = vec![0usize; M];
                j[..N].copy_from_slice(ix);
                j[d] = ix[d] / e;
                j[N] = ix[d] % e;
                assert_eq!(rm.at(ix), sm.at(&j), "{} at {ix:?}", what());
            });
            if last == 1 {
                assert_eq!(r.to_strided::<M>(), Ok(s), "{} round trip", what());
            }
            t.tick();
        }
    });
}

/// `InterleavedLayout::from_strided` on every strided layout of ranks 2..=4 with extents
/// 0..=3, strides -2..=2 (rank 4: -1..=1), offsets 0..=1, every dimension `0..=N` (one out
/// of range): 58,272 layouts; the documented errors, the model's offsets, and the way back.
#[test]
fn from_strided_matches_the_model() {
    let mut t = Tally::new("from_strided_matches_the_model");
    let s = Scope {
        max_extent: 3,
        max_stride: 2,
        offsets: (0, 1),
        itemsizes: &[1, 4],
        itemsize_by_offset: true,
    };
    check_from_strided::<1, 2>(s, &mut t);
    check_from_strided::<2, 3>(s, &mut t);
    check_from_strided::<3, 4>(
        Scope {
            max_stride: if wide() { 2 } else { 1 },
            ..s
        },
        &mut t,
    );
}

/// `grid_2d` and `grid_1d` of every interleaved layout of ranks 1 and 2 of [`scope`] (252 and
/// 14,112 layouts): the offsets the model gives, CuTe `print_layout` style.
#[test]
fn grids_match_the_model() {
    let mut t = Tally::new("grids_match_the_model");
    scope(1).for_each_interleaved::<1>(factors(), |l| {
        let m = Model::of_il(&l);
        let want = grid_text(1, m.shape[0], |_, c| m.at(&[c]));
        assert_eq!(l.grid_1d().to_text::<128>().unwrap().as_str(), want, "{l}");
        assert_eq!(l.grid_1d().to_string(), want, "{l}");
        t.tick();
    });
    scope(2).for_each_interleaved::<2>(factors(), |l| {
        let m = Model::of_il(&l);
        let want = grid_text(m.shape[0], m.shape[1], |r, c| m.at(&[r, c]));
        assert_eq!(l.grid_2d().to_text::<256>().unwrap().as_str(), want, "{l}");
        assert_eq!(l.grid_2d().to_string(), want, "{l}");
        t.tick();
    });
}
