//! Proof by exhaustion in a small scope: every query and every transform of [`Layout`],
//! on *every* layout of a small scope, against the naive model of `tests/common`
//! (`small_scope::Model`: every index, its offset `offset + Σ i_k s_k` in `i128`).
//!
//! | test (per rank `N`) | scope | layouts at rank 0 / 1 / 2 / 3 |
//! | --- | --- | --- |
//! | `rankN::queries_match_the_model` | extents 0..=3, strides -3..=3, offsets 0..=2, itemsize 4 at offset 1 else 1 | 3 / 84 / 2,352 / 65,856 |
//! | `rankN::same_rank_transforms_match_the_model`, `rankN::rank_changes_match_the_model` | the same; rank 3: strides -2..=2, offsets 0..=1 | 3 / 84 / 2,352 / 16,000 |
//! | `rankN::repack_matches_the_rules` | the same; rank 3: extents 0..=2 | 3 / 84 / 2,352 / 6,750 |
//! | `overlaps_match_the_byte_sets_on_every_pair` | ranks 0..=2, extents 0..=2, strides -2..=2, offsets 0..=2, itemsize 1 and 2 | 1,446 layouts, 2,090,916 pairs |
//! | `indexed_matches_the_model` | rank 2: the query scope; rank 3: extents 0..=3, strides -1..=1, offset 0 | 2,352 + 1,728 layouts |
//!
//! Each layout runs every argument of every operation (every index, axis, permutation,
//! start and length, 14 slices per axis, every reshape target of ranks 0..=3, every 2-D
//! grid section, ...), and every `DynLayout` a rank change returns runs the queries too:
//! 6.1 million checked cases, printed per test, in an optimised build. A debug build
//! (README's `cargo test`) takes the quick scope (`small_scope::quick`): extents 0..=2 at
//! rank 3, and itemsize 1 alone for the overlaps; `STRIDED_LAYOUT_EXHAUSTIVE=full` gives it
//! the table's scope.
//!
//! `STRIDED_LAYOUT_EXHAUSTIVE=wide`: queries on extents 0..=4, every transform on the full
//! rank-3 scope (extents 0..=3, strides -3..=3, offsets 0..=2), itemsizes 1 and 4 at every
//! offset, overlaps with itemsizes 1, 2 and 4 (6 / 210 / 7,350 / 257,250 layouts for the
//! queries, 131,712 at rank 3 for the transforms and repacks, 4.7 million overlap pairs):
//! 33 million cases, 220 s of CPU (439 s at `nice 19` on two busy cores).
#![allow(
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::cast_possible_truncation,
    clippy::too_many_lines
)]

use crate::common;

use common::small_scope::{
    Model, Scope, Tally, for_each_index, grid_text, indices, is_progression, is_run, linear,
    permutations, quick, reindexed, wide,
};
use strided_layout::gpu::KernelLayout;
use strided_layout::rank::{AddsAxes, Merged, NotLower, OneLess, OneMore, Rank};
use strided_layout::{AxisMask, DynLayout, Layout, LayoutError, Order, Slice, Verdict};

/// The scope of the query tests: extents 0..=3, strides -3..=3, offsets 0..=2, itemsize 4
/// at offset 1 and 1 at offsets 0 and 2 (wide: extents 0..=4, itemsizes 1 and 4 at every
/// offset).
fn query_scope(rank: usize) -> Scope {
    Scope {
        max_extent: if wide() {
            4
        } else if quick() && rank >= 3 {
            2
        } else {
            3
        },
        max_stride: 3,
        offsets: (0, 2),
        itemsizes: &[1, 4],
        itemsize_by_offset: !wide(),
    }
}

/// The scope of the transform tests: the query scope up to rank 2; at rank 3 strides
/// -2..=2 and offsets 0..=1 (a debug build spends about half a millisecond on each rank-3
/// layout's few hundred transforms). Wide: extents 0..=3, strides -3..=3, offsets 0..=2,
/// itemsizes 1 and 4 at every offset, at every rank.
fn transform_scope(rank: usize) -> Scope {
    if wide() {
        return Scope {
            max_extent: 3,
            ..query_scope(rank)
        };
    }
    let s = query_scope(rank);
    if rank < 3 {
        return s;
    }
    Scope {
        max_stride: 2,
        offsets: (0, 1),
        ..s
    }
}

/// The scope of the repack tests: the transform scope, with extents 0..=2 at rank 3
/// (each layout tries about two hundred repacks); wide: the wide transform scope.
fn repack_scope(rank: usize) -> Scope {
    let s = transform_scope(rank);
    if wide() || rank < 3 {
        return s;
    }
    Scope { max_extent: 2, ..s }
}

fn arr<const N: usize>(v: &[usize]) -> [usize; N] {
    v.try_into().expect("rank N index")
}

fn offsets_of<const N: usize>(l: &Layout<N>) -> Vec<i128> {
    Model::of(l).offs
}

// ---------------------------------------------------------------------------------------
// Queries
// ---------------------------------------------------------------------------------------

/// cuda.core's stride order: sort key `(-|stride|, -extent, axis)`.
fn stride_order_model(m: &Model) -> Vec<usize> {
    let mut axes: Vec<usize> = (0..m.rank()).collect();
    axes.sort_by_key(|&k| {
        (
            std::cmp::Reverse(m.strides[k].unsigned_abs()),
            std::cmp::Reverse(m.shape[k]),
            k,
        )
    });
    axes
}

/// The flatten mask by its postcondition: bit `i` is set iff the C-order offsets of the
/// current group extended by axis `i` form an arithmetic progression (the group restarting
/// at each clear bit); every bit but 0 when the layout has no element.
fn mask_model(m: &Model) -> u64 {
    let n = m.rank();
    if m.volume() == 0 {
        return (1..n).fold(0, |b, i| b | 1 << i);
    }
    let mut bits = 0;
    let mut start = 0;
    for i in 1..n {
        let g = Model::raw(&m.shape[start..=i], &m.strides[start..=i], 0, 1);
        if is_progression(&g.offs) {
            bits |= 1 << i;
        } else {
            start = i;
        }
    }
    bits
}

fn check_queries<const N: usize>(l: &Layout<N>, t: &mut Tally) {
    let m = Model::of(l);
    let item = l.itemsize() as i128;
    assert_eq!(l.volume(), m.volume(), "{l}");
    assert_eq!(l.ndim(), N);
    assert_eq!(l.is_empty(), m.volume() == 0, "{l}");

    // Iteration.
    assert_eq!(l.offsets().len(), m.volume(), "{l}");
    let offs: Vec<i128> = l.offsets().map(|o| o as i128).collect();
    assert_eq!(offs, m.offs, "offsets {l}");
    let idx: Vec<Vec<usize>> = l.indices().map(|i| i.to_vec()).collect();
    assert_eq!(idx, indices(&m.shape), "indices {l}");

    // offset_of on every index, and the first out-of-range index of each axis.
    for ix in indices(&m.shape) {
        let i = arr::<N>(&ix);
        assert_eq!(
            l.offset_of(i).map(|o| o as i128),
            Ok(m.at(&ix)),
            "{l} {ix:?}"
        );
        assert_eq!(
            l.offset_of_in_bytes(i).map(|o| o as i128),
            Ok(m.at(&ix) * item),
            "{l} {ix:?}"
        );
    }
    for k in 0..N {
        let mut i = [0usize; N];
        i[k] = m.shape[k];
        let axis = (0..N).find(|&j| i[j] >= m.shape[j]).unwrap();
        assert_eq!(
            l.offset_of(i),
            Err(LayoutError::IndexOutOfRange { axis }),
            "{l}"
        );
        assert_eq!(
            l.offset_of_in_bytes(i),
            Err(LayoutError::IndexOutOfRange { axis })
        );
    }

    // Bounds and sizes.
    let bounds = m.bounds();
    assert_eq!(
        l.offset_bounds().map(|(a, b)| (a as i128, b as i128)),
        bounds,
        "{l}"
    );
    assert_eq!(
        l.byte_span().map(|(a, b)| (a as i128, b as i128)),
        bounds.map(|(a, b)| (a * item, b * item + item - 1)),
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
    // Whether an index type of range `lo..=hi` holds the layout: `Some(true)` when it holds
    // every extent, stride, the offset and both bounds (what the docs say); `Some(false)`
    // when it misses an extent, a bound, or the stride of an axis that steps (extent >= 2);
    // `None` when it misses only values no element offset is built from (the stride of an
    // extent-1 axis, the strides or offset of an empty layout), which the conversions are
    // allowed to accept, so that either answer passes here.
    let holds = |lo: i128, hi: i128| {
        let fits = |v: i128| (lo..=hi).contains(&v);
        let all = m.shape.iter().all(|&e| fits(e as i128))
            && m.strides.iter().all(|&s| fits(s as i128))
            && fits(m.offset as i128)
            && bounds.is_none_or(|(a, b)| fits(a) && fits(b));
        let stepping = (0..N).all(|k| m.shape[k] < 2 || fits(m.strides[k] as i128));
        let core = m.shape.iter().all(|&e| fits(e as i128))
            && bounds.is_none_or(|(a, b)| fits(a) && fits(b))
            && (m.volume() == 0 || stepping);
        if all {
            Some(true)
        } else if !core {
            Some(false)
        } else {
            None
        }
    };
    for (got, want) in [
        (l.fits_in::<u8>(), holds(0, 255)),
        (l.fits_in::<i8>(), holds(-128, 127)),
        (KernelLayout::<u8, N>::from_layout(l).is_ok(), holds(0, 255)),
        (
            KernelLayout::<i8, N>::from_layout(l).is_ok(),
            holds(-128, 127),
        ),
    ] {
        if let Some(want) = want {
            assert_eq!(got, want, "fits_in / from_layout {l}");
        }
    }

    let k = KernelLayout::<i32, N>::from_layout(l).unwrap();
    assert_eq!(k.interleave(), None);
    let mut linear = 0i32;
    for_each_index(&m.shape, |ix| {
        let i: [i32; N] = std::array::from_fn(|a| ix[a] as i32);
        assert_eq!(k.offset_of(i) as i128, m.at(ix), "{l} {ix:?}");
        assert_eq!(k.offset_of_linear(linear) as i128, m.at(ix), "{l} {ix:?}");
        linear += 1;
    });

    // Built again from its parts: from byte strides and from all four parts.
    let item = l.itemsize() as isize;
    let bytes = l.strides().map(|s| s * item);
    assert_eq!(l.strides_in_bytes(), bytes, "{l}");
    assert_eq!(l.offset_in_bytes(), l.offset() * item, "{l}");
    assert_eq!(
        Layout::from_byte_strides(l.shape(), bytes, l.itemsize())
            .and_then(|x| x.with_offset(l.offset())),
        Ok(*l)
    );
    assert_eq!(
        Layout::from_parts(l.shape(), l.strides(), l.offset(), l.itemsize()),
        Ok(*l)
    );
    if N > 0 && item > 1 {
        let mut odd = bytes;
        odd[N - 1] += 1;
        assert_eq!(
            Layout::from_byte_strides(l.shape(), odd, l.itemsize()),
            Err(LayoutError::StrideNotMultipleOfItemsize { axis: N - 1 }),
            "{l}"
        );
    }

    // Uniqueness, exact and budgeted.
    let unique = m.unique();
    assert_eq!(l.is_unique(), unique, "is_unique {l}");
    for budget in [0, 1, 2, 3, 5, 8, 64] {
        match l.is_unique_within(budget) {
            Verdict::Unknown => {}
            v => assert_eq!(v.known(), Some(unique), "is_unique_within({budget}) {l}"),
        }
    }
    assert_eq!(l.is_unique_within(1 << 20).known(), Some(unique), "{l}");

    // Contiguity.
    let (c, f, any) = (m.contiguous_c(), m.contiguous_f(), m.contiguous_any());
    assert_eq!(l.is_contiguous_c(), c, "is_contiguous_c {l}");
    assert_eq!(l.is_contiguous_f(), f, "is_contiguous_f {l}");
    assert_eq!(l.is_contiguous_any(), any, "is_contiguous_any {l}");
    assert_eq!(l.is_dense(), any && m.offset == 0, "is_dense {l}");
    if m.volume() > 0 {
        // Dense means exactly `0..volume`, once each, when no stride is negative.
        let covers = unique && bounds == Some((0, m.volume() as i128 - 1));
        if l.is_dense() {
            assert!(covers, "{l}");
        }
    }
    assert_eq!(
        l.contiguous_offsets(),
        (c && m.offset >= 0).then(|| (m.offset as usize, m.offset as usize + m.volume())),
        "{l}"
    );

    // Stride order, rank, contiguous axis.
    let order = l.stride_order();
    assert_eq!(order.to_vec(), stride_order_model(&m), "stride_order {l}");
    let rank = l.stride_rank();
    for (j, &a) in order.iter().enumerate() {
        assert_eq!(rank[a], N - 1 - j, "stride_rank {l}");
    }
    let axis = (0..N).rev().find(|&a| m.shape[a] > 1 && m.strides[a] == 1);
    assert_eq!(l.contiguous_axis(), axis, "contiguous_axis {l}");
    assert_eq!(l.contiguous_batch_size(), axis.map(|_| 0), "{l}");
    let inner = if N == 0 {
        1
    } else {
        m.strides[N - 1].unsigned_abs()
    };
    assert_eq!(l.inner_stride(), inner, "{l}");
    assert_eq!(l.has_contiguous_inner(), inner == 1, "{l}");
    assert_eq!(l.has_positive_strides(), m.strides.iter().all(|&s| s >= 0));
    assert_eq!(
        l.as_2d_strides(),
        (N == 2).then(|| (m.shape[0], m.shape[1], m.strides[0], m.strides[1])),
        "{l}"
    );

    // Flatten mask: the merged axes really merge, and only they.
    let mask = l.flattened_axis_mask();
    assert_eq!(mask.bits(), mask_model(&m), "flattened_axis_mask {l}");
    let flat = l.flattened();
    assert_eq!(flat.rank(), N - mask.count() as usize, "flattened rank {l}");
    assert_eq!(
        flat.flattened_axis_mask().bits(),
        0,
        "flattened merges all {l}"
    );
    let fm = Model::raw(flat.shape(), flat.strides(), flat.offset(), flat.itemsize());
    assert_eq!(fm.offs, m.offs, "flattened offsets {l}");
    let wm = l.flattened_with_mask(mask).unwrap();
    assert_eq!(wm.rank(), flat.rank(), "{l}");

    // The text: `Display` and `to_text` agree; grids of every 2-D section through index 0
    // of the other axes (every index of the last axis at rank 3), both ways round.
    assert_eq!(l.to_text::<64>().unwrap().as_str(), l.to_string());
    if N >= 2 {
        let sections = if N == 3 { m.shape[2] } else { 1 };
        for (rows, cols) in [(0, 1), (1, 0)] {
            for k in 0..sections {
                let mut at = [0usize; N];
                if N == 3 {
                    at[2] = k;
                }
                let g = l.grid(rows, cols, at).unwrap();
                let want = grid_text(m.shape[rows], m.shape[cols], |r, c| {
                    let mut ix = at;
                    ix[rows] = r;
                    ix[cols] = c;
                    m.at(&ix)
                });
                assert_eq!(
                    g.to_text::<256>().unwrap().as_str(),
                    want,
                    "{l}.grid({rows}, {cols}, {at:?})"
                );
                assert_eq!(g.to_string(), want, "{l}.grid({rows}, {cols}, {at:?})");
            }
        }
        assert_eq!(
            l.grid(1, 1, [0; N]),
            Err(LayoutError::DuplicateAxis { axis: 1 })
        );
        assert_eq!(
            l.grid(N, 0, [0; N]),
            Err(LayoutError::AxisOutOfRange { axis: N, ndim: N })
        );
        assert_eq!(
            l.grid(0, N, [0; N]),
            Err(LayoutError::AxisOutOfRange { axis: N, ndim: N })
        );
        if N == 3 {
            let mut at = [0usize; N];
            at[2] = m.shape[2];
            assert_eq!(
                l.grid(0, 1, at),
                Err(LayoutError::IndexOutOfRange { axis: 2 }),
                "{l}"
            );
        }
    }

    // Strided blocks: concatenated they are the offsets; each is maximal.
    let it = l.strided_blocks();
    let (block_len, num_blocks, block_stride) =
        (it.block_len(), it.num_blocks(), it.block_stride());
    let blocks: Vec<_> = it.collect();
    let mut cat = Vec::new();
    for b in &blocks {
        assert!(b.len >= 1, "{l}");
        assert_eq!(b.len % block_len, 0, "block_len {l}");
        cat.extend((0..b.len).map(|j| b.start as i128 + j as i128));
    }
    assert_eq!(cat, m.offs, "strided_blocks {l}");
    for w in blocks.windows(2) {
        assert_ne!(
            w[0].start + w[0].len as isize,
            w[1].start,
            "not maximal {l}"
        );
    }
    assert_eq!(block_len * num_blocks, m.volume(), "{l}");
    assert!(blocks.len() <= num_blocks, "{l}");
    if let Some(s) = block_stride {
        assert_eq!(blocks.len(), num_blocks, "{l}");
        for w in blocks.windows(2) {
            assert_eq!(w[1].start - w[0].start, s, "block_stride {l}");
        }
    }
    t.tick();
}

// ---------------------------------------------------------------------------------------
// Same-rank transforms
// ---------------------------------------------------------------------------------------

/// The slices tried on each axis: steps ±1, ±2, `None` bounds, negative and out-of-range
/// bounds, and a zero step (an error).
const SLICES: [Slice; 14] = [
    Slice::FULL,
    Slice::new(None, None, -1),
    Slice::new(None, None, 2),
    Slice::new(None, None, -2),
    Slice::new(Some(1), None, 1),
    Slice::new(None, Some(-1), 1),
    Slice::new(Some(-1), None, -1),
    Slice::new(Some(1), Some(3), 1),
    Slice::new(Some(2), Some(0), -1),
    Slice::new(Some(-2), None, 2),
    Slice::new(Some(5), None, 1),
    Slice::new(Some(-5), Some(5), -2),
    Slice::new(Some(1), Some(1), 1),
    Slice::new(None, None, 0),
];

fn check_sliced<const N: usize>(l: &Layout<N>, m: &Model, slices: [Slice; N]) {
    let got = l.sliced(slices);
    if let Some(axis) = slices.iter().position(|s| s.step == 0) {
        assert_eq!(got, Err(LayoutError::ZeroStep { axis }), "{l} {slices:?}");
        return;
    }
    let s = got.unwrap();
    let ranges: Vec<Vec<usize>> = (0..N)
        .map(|k| common::py_indices(m.shape[k], slices[k].start, slices[k].stop, slices[k].step))
        .collect();
    let shape: Vec<usize> = ranges.iter().map(Vec::len).collect();
    assert_eq!(s.shape().to_vec(), shape, "{l} {slices:?}");
    assert_eq!(s.itemsize(), l.itemsize());
    let want = reindexed(&m.offs, &m.shape, &shape, |j, i| {
        for k in 0..N {
            i[k] = ranges[k][j[k]];
        }
    });
    assert_eq!(offsets_of(&s), want, "sliced {l} {slices:?}");
    let whole = |k: usize| slices[k].step == 1 && ranges[k] == (0..m.shape[k]).collect::<Vec<_>>();
    let emptied = (0..N).any(|k| ranges[k].is_empty() && !whole(k));
    let offset = m.offset as i128
        + (0..N)
            .filter(|&k| !ranges[k].is_empty())
            .map(|k| ranges[k][0] as i128 * m.strides[k] as i128)
            .sum::<i128>();
    if emptied {
        assert_eq!(s.strides(), [0; N], "emptied {l} {slices:?}");
        assert_eq!(s.offset() as i128, offset, "emptied offset {l} {slices:?}");
    } else {
        for k in 0..N {
            let want = if whole(k) {
                m.strides[k]
            } else {
                m.strides[k] * slices[k].step
            };
            assert_eq!(s.strides()[k], want, "stride {k} {l} {slices:?}");
        }
        assert_eq!(s.offset() as i128, offset, "offset {l} {slices:?}");
    }
}

/// cuda.core's documented repack rules, in their order (extent-1 axes never block: their
/// stride is never read), `Ok(())` when `repacked` must succeed.
fn repack_rule<const N: usize>(
    l: &Layout<N>,
    new: usize,
    ptr: usize,
    ax: usize,
) -> Result<(), LayoutError> {
    if !new.is_power_of_two() {
        return Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: new });
    }
    let old = l.itemsize();
    if new == old {
        return Ok(());
    }
    let (shape, strides) = (l.shape(), l.strides());
    if shape[ax] == 0 {
        return Err(LayoutError::ExtentZero { axis: ax });
    }
    if strides[ax] != 1 && shape[ax] != 1 {
        return Err(LayoutError::StrideNotOne { axis: ax });
    }
    if new > old {
        let f = new / old;
        if !shape[ax].is_multiple_of(f) {
            return Err(LayoutError::ExtentNotDivisible { axis: ax });
        }
        for i in 0..N {
            if i != ax && shape[i] != 1 && strides[i].rem_euclid(f as isize) != 0 {
                return Err(LayoutError::StrideNotDivisible { axis: i });
            }
        }
        if l.offset().rem_euclid(f as isize) != 0 {
            return Err(LayoutError::OffsetNotDivisible);
        }
        if !ptr.is_multiple_of(new) {
            return Err(LayoutError::PointerMisaligned);
        }
    }
    Ok(())
}

/// `l` with the stride of every extent-1 axis set to 0 (a stride no offset reads).
fn unit_strides_zeroed<const N: usize>(l: &Layout<N>) -> Layout<N> {
    let mut strides = l.strides();
    for (s, e) in strides.iter_mut().zip(l.shape()) {
        if e == 1 {
            *s = 0;
        }
    }
    Layout::new(l.shape(), strides, l.itemsize())
        .and_then(|x| x.with_offset(l.offset()))
        .unwrap()
}

fn check_repacked<const N: usize>(l: &Layout<N>, m: &Model) {
    if N == 0 {
        return;
    }
    let bytes = m.byte_set();
    for ptr in [0, 2, 4] {
        // ptr 4 only for `max_compatible_itemsize` below.
        let news: &[usize] = if ptr == 4 { &[] } else { &[1, 2, 3, 4, 8] };
        for &new in news {
            for axis in -(N as isize)..N as isize {
                let ax = axis.rem_euclid(N as isize) as usize;
                let got = l.repacked(new, ptr, axis);
                let what = || format!("{l}.repacked({new}, {ptr}, {axis})");
                let dropped = l.repacked_dropping_axis(new, ptr, axis);
                match (repack_rule(l, new, ptr, ax), got) {
                    (Err(e), g) => {
                        assert_eq!(g, Err(e), "{}", what());
                        assert_eq!(dropped, Err(e), "{} dropping", what());
                    }
                    (Ok(()), Err(e)) => panic!("{}: {e:?}", what()),
                    (Ok(()), Ok(r)) => {
                        assert_eq!(r.itemsize(), new, "{}", what());
                        assert_eq!(r.volume() * new, l.volume() * l.itemsize(), "{}", what());
                        assert_eq!(Model::of(&r).byte_set(), bytes, "{}", what());
                        let mut shape = l.shape();
                        shape[ax] = shape[ax] * l.itemsize() / new;
                        assert_eq!(r.shape(), shape, "{}", what());
                        if ptr.is_multiple_of(l.itemsize()) {
                            // Back again; an extent-1 axis may not get its unread stride
                            // back (`repacked_round_trip_keeps_an_extent_one_stride`).
                            let back = r.repacked(l.itemsize(), ptr, axis).unwrap();
                            assert_eq!(
                                unit_strides_zeroed(&back),
                                unit_strides_zeroed(l),
                                "{}",
                                what()
                            );
                        }
                        let d = dropped.unwrap();
                        let mut shape = r.shape().to_vec();
                        if new > l.itemsize() && shape[ax] == 1 {
                            shape.remove(ax);
                        }
                        assert_eq!(d.shape(), &shape[..], "{} dropping", what());
                        let dm = Model::raw(d.shape(), d.strides(), d.offset(), d.itemsize());
                        assert_eq!(dm.byte_set(), bytes, "{} dropping", what());
                    }
                }
            }
        }
        {
            // max_compatible_itemsize by its postconditions.
            for axis in -(N as isize)..N as isize {
                for max in [2, 8] {
                    let what = || format!("{l}.max_compatible_itemsize({max}, {ptr}, {axis})");
                    let accepted =
                        |p: usize| l.repacked(p, ptr, axis).is_ok() && ptr.is_multiple_of(p);
                    let (from, k) = match l.max_compatible_itemsize(max, ptr, axis) {
                        Ok(k) => {
                            assert!(accepted(k), "{} = {k}", what());
                            (k * 2, Some(k))
                        }
                        Err(_) => (1, None),
                    };
                    let mut p = from;
                    while p <= max {
                        assert!(!accepted(p), "{} = {k:?}, but {p} works", what());
                        p *= 2;
                    }
                }
            }
        }
    }
}

fn check_dense<const N: usize>(l: &Layout<N>, m: &Model) {
    let mut orders: Vec<(Order<N>, Vec<usize>)> = vec![
        (Order::C, (0..N).collect()),
        (Order::F, (0..N).rev().collect()),
        (Order::Keep, l.stride_order().to_vec()),
    ];
    for p in permutations(N) {
        orders.push((Order::Perm(arr(&p)), p));
    }
    for (order, perm) in orders {
        let d = l.to_dense(order).unwrap();
        assert_eq!(Layout::dense_like(l, order), Ok(d), "{l} {order:?}");
        assert_eq!(d.shape(), l.shape());
        assert_eq!(
            (d.offset(), d.itemsize()),
            (0, l.itemsize()),
            "{l} {order:?}"
        );
        // Walking the axes in `perm` order (its last axis fastest) reads 0, 1, 2, ...
        let shape: Vec<usize> = perm.iter().map(|&k| m.shape[k]).collect();
        let strides: Vec<isize> = perm.iter().map(|&k| d.strides()[k]).collect();
        let walk = Model::raw(&shape, &strides, 0, 1).offs;
        assert_eq!(
            walk,
            (0..m.volume() as i128).collect::<Vec<_>>(),
            "{l} {order:?}"
        );
        if m.volume() == 0 {
            assert_eq!(d.strides(), [0; N], "{l} {order:?}");
        }
        if !matches!(order, Order::Keep) {
            assert_eq!(Layout::dense(l.shape(), l.itemsize(), order), Ok(d));
        }
    }
    if N >= 2 {
        let bad = Order::Perm([0; N]);
        assert_eq!(l.to_dense(bad), Err(LayoutError::NotAPermutation));
        assert_eq!(
            Layout::dense_like(l, bad),
            Err(LayoutError::NotAPermutation)
        );
    }
}

fn check_same_rank<const N: usize>(l: &Layout<N>, n: usize, t: &mut Tally) {
    let m = Model::of(l);

    // permuted: every permutation, and a repeated axis.
    for p in permutations(N) {
        let r = l.permuted(arr(&p)).unwrap();
        let shape: Vec<usize> = p.iter().map(|&k| m.shape[k]).collect();
        let want = reindexed(&m.offs, &m.shape, &shape, |j, i| {
            for (k, &a) in p.iter().enumerate() {
                i[a] = j[k];
            }
        });
        assert_eq!(offsets_of(&r), want, "{l}.permuted({p:?})");
        assert_eq!((r.offset(), r.itemsize()), (l.offset(), l.itemsize()));
        t.tick();
    }
    if N >= 1 {
        let bad = if N == 1 { [1; N] } else { [0; N] };
        assert_eq!(l.permuted(bad), Err(LayoutError::NotAPermutation), "{l}");
    }

    // transposed: every pair of axes, out-of-range ones included.
    for a in 0..=N {
        for b in 0..=N {
            let got = l.transposed(a, b);
            if a >= N || b >= N {
                let axis = if a >= N { a } else { b };
                assert_eq!(
                    got,
                    Err(LayoutError::AxisOutOfRange { axis, ndim: N }),
                    "{l}"
                );
                continue;
            }
            let r = got.unwrap();
            let mut shape = m.shape.clone();
            shape.swap(a, b);
            let want = reindexed(&m.offs, &m.shape, &shape, |j, i| {
                i.copy_from_slice(j);
                i.swap(a, b);
            });
            assert_eq!(offsets_of(&r), want, "{l}.transposed({a}, {b})");
            t.tick();
        }
    }

    // flipped: every axis, twice gives back the layout.
    for axis in 0..=N {
        let got = l.flipped(axis);
        if axis >= N {
            assert_eq!(
                got,
                Err(LayoutError::AxisOutOfRange { axis, ndim: N }),
                "{l}"
            );
            continue;
        }
        let r = got.unwrap();
        let e = m.shape[axis];
        let want = reindexed(&m.offs, &m.shape, &m.shape, |j, i| {
            i.copy_from_slice(j);
            i[axis] = e - 1 - j[axis];
        });
        assert_eq!(offsets_of(&r), want, "{l}.flipped({axis})");
        assert_eq!(r.strides()[axis], -m.strides[axis], "{l}.flipped({axis})");
        if e <= 1 {
            assert_eq!(r.offset(), l.offset(), "{l}.flipped({axis})");
        }
        assert_eq!(r.flipped(axis), Ok(*l), "{l}.flipped({axis}) twice");
        t.tick();
    }

    // narrowed: every start and length, out-of-range ones included.
    for axis in 0..=N {
        if axis == N {
            assert_eq!(
                l.narrowed(axis, 0, 0),
                Err(LayoutError::AxisOutOfRange { axis, ndim: N })
            );
            continue;
        }
        let e = m.shape[axis];
        for start in 0..=e + 1 {
            for len in 0..=e + 1 {
                let got = l.narrowed(axis, start, len);
                if start + len > e {
                    assert_eq!(got, Err(LayoutError::RangeOutOfBounds { axis }), "{l}");
                    continue;
                }
                let r = got.unwrap();
                let mut shape = m.shape.clone();
                shape[axis] = len;
                assert_eq!(r.shape().to_vec(), shape);
                assert_eq!(r.strides(), l.strides());
                assert_eq!(
                    r.offset() as i128,
                    m.offset as i128 + start as i128 * m.strides[axis] as i128
                );
                let want = reindexed(&m.offs, &m.shape, &shape, |j, i| {
                    i.copy_from_slice(j);
                    i[axis] += start;
                });
                assert_eq!(offsets_of(&r), want, "{l}.narrowed({axis}, {start}, {len})");
                t.tick();
            }
        }
    }
    assert_eq!(
        l.narrowed(0, usize::MAX, 2).map(|_| ()),
        Err(if N == 0 {
            LayoutError::AxisOutOfRange { axis: 0, ndim: 0 }
        } else {
            LayoutError::RangeOutOfBounds { axis: 0 }
        })
    );

    // sliced: each slice of the set on each axis alone, and one mixed combination.
    for k in 0..N {
        for s in SLICES {
            let mut slices = [Slice::FULL; N];
            slices[k] = s;
            check_sliced(l, &m, slices);
            t.tick();
        }
    }
    if N > 0 {
        let slices: [Slice; N] = std::array::from_fn(|k| SLICES[(n + 5 * k) % (SLICES.len() - 1)]);
        check_sliced(l, &m, slices);
        t.tick();
    } else {
        check_sliced(l, &m, [Slice::FULL; N]);
    }

    check_dense(l, &m);
    t.tick();
}

// ---------------------------------------------------------------------------------------
// Rank changes
// ---------------------------------------------------------------------------------------

/// The queries of a `DynLayout` (the result of a rank change) against the model of its
/// parts; returns that model.
fn check_dyn<const MAX: usize>(d: &DynLayout<MAX>, what: &dyn Fn() -> String) -> Model {
    let m = Model::raw(d.shape(), d.strides(), d.offset(), d.itemsize());
    let r = d.rank();
    assert_eq!((d.ndim(), d.volume()), (r, m.volume()), "{}", what());
    let offs: Vec<i128> = d.offsets().map(|o| o as i128).collect();
    assert_eq!(offs, m.offs, "{} offsets", what());
    let idx: Vec<Vec<usize>> = d.indices().map(|i| i[..r].to_vec()).collect();
    assert_eq!(idx, indices(&m.shape), "{} indices", what());
    assert!(
        d.indices().all(|i| i[r..].iter().all(|&x| x == 0)),
        "{}",
        what()
    );
    let mut cat = Vec::new();
    for b in d.strided_blocks() {
        cat.extend((0..b.len).map(|j| b.start as i128 + j as i128));
    }
    assert_eq!(cat, m.offs, "{} strided_blocks", what());
    for_each_index(&m.shape, |ix| {
        assert_eq!(
            d.offset_of(ix).map(|o| o as i128),
            Ok(m.at(ix)),
            "{}",
            what()
        );
    });
    assert_eq!(
        d.offset_bounds().map(|(a, b)| (a as i128, b as i128)),
        m.bounds(),
        "{}",
        what()
    );
    assert_eq!(
        d.required_size_in_bytes().ok(),
        m.required_bytes(),
        "{}",
        what()
    );
    assert_eq!(d.is_unique(), m.unique(), "{} is_unique", what());
    assert_eq!(
        d.is_contiguous_c(),
        m.contiguous_c(),
        "{} is_contiguous_c",
        what()
    );
    assert_eq!(
        d.is_contiguous_f(),
        m.contiguous_f(),
        "{} is_contiguous_f",
        what()
    );
    let any = m.contiguous_any();
    assert_eq!(d.is_contiguous_any(), any, "{} is_contiguous_any", what());
    assert_eq!(d.is_dense(), any && m.offset == 0, "{} is_dense", what());
    assert_eq!(
        d.flattened_axis_mask().bits(),
        mask_model(&m),
        "{} mask",
        what()
    );
    assert_eq!(
        d.stride_order().to_vec(),
        stride_order_model(&m),
        "{}",
        what()
    );
    m
}

/// Every shape of rank `r` with volume `v` (extents dividing `v`), or, for `v == 0`, every
/// shape with extents 0..=3 and at least one 0.
fn shapes_of_volume(r: usize, v: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    let mut cur = Vec::new();
    fn go(r: usize, v: usize, cur: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if cur.len() == r {
            let p: usize = cur.iter().product();
            if p == v {
                out.push(cur.clone());
            }
            return;
        }
        let cands: Vec<usize> = if v == 0 {
            (0..=3).collect()
        } else {
            (1..=v).filter(|d| v.is_multiple_of(*d)).collect()
        };
        for d in cands {
            cur.push(d);
            go(r, v, cur, out);
            cur.pop();
        }
    }
    go(r, v, &mut cur, &mut out);
    out
}

/// Whether some strides put the C-order offsets `offs` on `shape`: the stride of each axis
/// of extent >= 2 is the offset step to its index 1; then every offset must match.
fn affine_fits(offs: &[i128], shape: &[usize]) -> bool {
    if offs.is_empty() {
        return true;
    }
    let base = offs[0];
    let steps: Vec<i128> = (0..shape.len())
        .map(|k| {
            if shape[k] < 2 {
                return 0;
            }
            let mut u = vec![0; shape.len()];
            u[k] = 1;
            offs[linear(shape, &u)] - base
        })
        .collect();
    indices(shape).iter().all(|j| {
        offs[linear(shape, j)]
            == base
                + j.iter()
                    .zip(&steps)
                    .map(|(&i, s)| i as i128 * s)
                    .sum::<i128>()
    })
}

fn check_reshaped<const N: usize, const M: usize>(l: &Layout<N>, m: &Model, t: &mut Tally) {
    let v = m.volume();
    let offs_f = m.offs_f();
    let targets = shapes_of_volume(M, v);
    for (n, target) in targets.iter().enumerate() {
        let mut signed: Vec<[isize; M]> = vec![std::array::from_fn(|k| target[k] as isize)];
        if n == 0 && v > 0 {
            for k in 0..M {
                let mut s = signed[0];
                s[k] = -1;
                signed.push(s);
            }
        }
        let fits = affine_fits(&m.offs, target);
        for s in signed {
            let got = l.reshaped::<M>(s);
            let what = || format!("{l}.reshaped({s:?})");
            if fits {
                let r = got.unwrap_or_else(|e| panic!("{}: {e:?}", what()));
                assert_eq!(r.shape().to_vec(), *target, "{}", what());
                assert_eq!(offsets_of(&r), m.offs, "{}", what());
                assert_eq!(
                    (r.offset(), r.itemsize()),
                    (l.offset(), l.itemsize()),
                    "{}",
                    what()
                );
                if v == 0 {
                    assert_eq!(r.strides(), [0; M], "{}", what());
                }
            } else {
                assert!(
                    matches!(got, Err(LayoutError::NeedsCopy { .. })),
                    "{}: {got:?}",
                    what()
                );
            }
            t.tick();
        }
        // reshaped_f: the same in F order.
        let s: [isize; M] = std::array::from_fn(|k| target[k] as isize);
        let got = l.reshaped_f::<M>(s);
        let fits = {
            // Offsets in F order of the target must be the source's F-order offsets.
            let rev: Vec<usize> = target.iter().rev().copied().collect();
            let mut by_c = vec![0i128; v];
            for (p, r) in indices(&rev).iter().enumerate() {
                let ix: Vec<usize> = r.iter().rev().copied().collect();
                by_c[linear(target, &ix)] = offs_f[p];
            }
            (affine_fits(&by_c, target), by_c)
        };
        if fits.0 {
            let r = got.unwrap_or_else(|e| panic!("{l}.reshaped_f({s:?}): {e:?}"));
            assert_eq!(offsets_of(&r), fits.1, "{l}.reshaped_f({s:?})");
        } else {
            assert!(
                matches!(got, Err(LayoutError::NeedsCopy { .. })),
                "{l} {got:?}"
            );
        }
        t.tick();
    }
    // Errors of the target shape.
    if M >= 1 {
        let mut s: [isize; M] = [1; M];
        s[0] = v as isize + 1;
        assert_eq!(
            l.reshaped::<M>(s),
            Err(LayoutError::VolumeMismatch),
            "{l} {s:?}"
        );
        s[0] = -2;
        assert_eq!(
            l.reshaped::<M>(s),
            Err(LayoutError::ExtentInvalid { axis: 0 }),
            "{l}"
        );
    }
    if M >= 2 {
        let mut s: [isize; M] = [1; M];
        s[0] = -1;
        s[1] = -1;
        assert_eq!(
            l.reshaped::<M>(s),
            Err(LayoutError::ExtentInvalid { axis: 1 }),
            "{l}"
        );
        s[1] = 0;
        // A -1 beside a 0 is ambiguous for volume 0, and can never match another volume.
        let want = if v == 0 {
            LayoutError::ExtentInvalid { axis: 0 }
        } else {
            LayoutError::VolumeMismatch
        };
        assert_eq!(l.reshaped::<M>(s), Err(want), "{l} {s:?}");
    }
}

fn check_broadcast<const N: usize, const M: usize>(l: &Layout<N>, m: &Model, t: &mut Tally)
where
    Rank<N>: NotLower<N, M>,
{
    // Each source axis stays, or asks for another extent (3 for an extent-1 axis, which
    // stretches; e + 1 for another, which is incompatible); leading axes get extent 2.
    for choice in 0..1usize << N {
        let mut target = [2usize; M];
        for k in 0..N {
            let e = m.shape[k];
            target[M - N + k] = if choice >> k & 1 == 0 {
                e
            } else if e == 1 {
                3
            } else {
                e + 1
            };
        }
        let got = l.broadcast_to::<M>(target);
        let bad = (0..N).find(|&k| target[M - N + k] != m.shape[k] && m.shape[k] != 1);
        if let Some(k) = bad {
            assert_eq!(
                got,
                Err(LayoutError::BroadcastIncompatible { axis: M - N + k }),
                "{l}.broadcast_to({target:?})"
            );
            continue;
        }
        let b = got.unwrap();
        assert_eq!(b.shape(), target);
        let want = reindexed(&m.offs, &m.shape, &target, |j, i| {
            for k in 0..N {
                i[k] = if m.shape[k] == 1 { 0 } else { j[M - N + k] };
            }
        });
        assert_eq!(offsets_of(&b), want, "{l}.broadcast_to({target:?})");
        t.tick();
    }
}

fn check_rank_up<const N: usize, const UP: usize>(l: &Layout<N>, m: &Model, t: &mut Tally)
where
    Rank<N>: OneMore<N, UP> + NotLower<N, UP>,
{
    // unsqueezed: every position.
    for axis in 0..=N + 1 {
        let got = l.unsqueezed::<UP>(axis);
        if axis > N {
            assert!(
                matches!(got, Err(LayoutError::AxisOutOfRange { axis: a, .. }) if a == axis),
                "{l}.unsqueezed({axis}): {got:?}"
            );
            continue;
        }
        let u = got.unwrap();
        let mut shape = m.shape.clone();
        shape.insert(axis, 1);
        assert_eq!(u.shape().to_vec(), shape);
        assert_eq!(offsets_of(&u), m.offs, "{l}.unsqueezed({axis})");
        if l.is_contiguous_c() {
            assert!(u.is_contiguous_c(), "{l}.unsqueezed({axis})");
        }
        t.tick();
    }
    // split_axis: every axis, every inner extent 0..=4.
    for axis in 0..=N {
        for inner in 0..=4 {
            let got = l.split_axis::<UP>(axis, inner);
            if axis >= N {
                assert_eq!(
                    got,
                    Err(LayoutError::AxisOutOfRange { axis, ndim: N }),
                    "{l}"
                );
                continue;
            }
            let e = m.shape[axis];
            if inner == 0 || !e.is_multiple_of(inner) {
                assert_eq!(got, Err(LayoutError::ExtentNotDivisible { axis }), "{l}");
                continue;
            }
            let s = got.unwrap();
            let mut shape = m.shape.clone();
            shape[axis] = e / inner;
            shape.insert(axis + 1, inner);
            assert_eq!(s.shape().to_vec(), shape, "{l}.split_axis({axis}, {inner})");
            assert_eq!(offsets_of(&s), m.offs, "{l}.split_axis({axis}, {inner})");
            t.tick();
        }
    }
    check_broadcast::<N, N>(l, m, t);
    check_broadcast::<N, UP>(l, m, t);
}

fn check_rank_down<const N: usize, const DOWN: usize>(l: &Layout<N>, m: &Model, t: &mut Tally)
where
    Rank<N>: OneLess<N, DOWN>,
{
    // selected: every axis and index, out-of-range ones included.
    for axis in 0..=N {
        if axis == N {
            assert_eq!(
                l.selected::<DOWN>(axis, 0),
                Err(LayoutError::AxisOutOfRange { axis, ndim: N })
            );
            continue;
        }
        for index in 0..=m.shape[axis] {
            let got = l.selected::<DOWN>(axis, index);
            if index >= m.shape[axis] {
                assert_eq!(got, Err(LayoutError::IndexOutOfRange { axis }), "{l}");
                continue;
            }
            let s = got.unwrap();
            let mut shape = m.shape.clone();
            shape.remove(axis);
            assert_eq!(s.shape().to_vec(), shape);
            let want = reindexed(&m.offs, &m.shape, &shape, |j, i| {
                i[..axis].copy_from_slice(&j[..axis]);
                i[axis] = index;
                i[axis + 1..].copy_from_slice(&j[axis..]);
            });
            assert_eq!(offsets_of(&s), want, "{l}.selected({axis}, {index})");
            if want.is_empty() {
                let mut at = vec![0; N];
                at[axis] = index;
                assert_eq!(
                    s.offset() as i128,
                    m.formula(&at),
                    "{l}.selected({axis}, {index})"
                );
            }
            t.tick();
        }
    }
}

/// `merged_axes` of two neighbours at every start (needs `N >= 2`).
fn check_merged<const N: usize, const DOWN: usize>(l: &Layout<N>, m: &Model, t: &mut Tally)
where
    Rank<N>: Merged<N, DOWN>,
{
    for start in 0..=N {
        let got = l.merged_axes::<DOWN>(start);
        let end = start + 2;
        if end > N {
            assert_eq!(
                got,
                Err(LayoutError::AxisRangeInvalid { start, end }),
                "{l}"
            );
            continue;
        }
        let g = Model::raw(&m.shape[start..end], &m.strides[start..end], 0, 1);
        match got {
            Ok(r) => {
                assert!(
                    is_progression(&g.offs) || m.volume() == 0,
                    "{l}.merged_axes({start})"
                );
                assert_eq!(offsets_of(&r), m.offs, "{l}.merged_axes({start})");
            }
            Err(e) => {
                assert!(!is_progression(&g.offs), "{l}.merged_axes({start}): {e:?}");
                let axes = AxisMask::from_bits(0b11 << start);
                assert_eq!(e, LayoutError::AxesNotMergeable { axes }, "{l}");
            }
        }
        t.tick();
    }
}

/// `unsqueezed_axes` with two positions: every pair of positions `0..=N + 2`, repeated and
/// out-of-range ones included (errors in the order the positions are given).
fn check_unsqueezed_axes<const N: usize, const UP2: usize>(l: &Layout<N>, m: &Model, t: &mut Tally)
where
    Rank<N>: AddsAxes<N, 2, UP2>,
{
    for a in 0..=UP2 {
        for b in 0..=UP2 {
            let got = l.unsqueezed_axes::<2, UP2>([a, b]);
            let what = || format!("{l}.unsqueezed_axes([{a}, {b}])");
            let want = if a >= UP2 {
                Err(LayoutError::AxisOutOfRange { axis: a, ndim: UP2 })
            } else if a == b {
                Err(LayoutError::DuplicateAxis { axis: a })
            } else if b >= UP2 {
                Err(LayoutError::AxisOutOfRange { axis: b, ndim: UP2 })
            } else {
                Ok(())
            };
            match (want, got) {
                (Err(e), g) => assert_eq!(g, Err(e), "{}", what()),
                (Ok(()), g) => {
                    let u = g.unwrap_or_else(|e| panic!("{}: {e:?}", what()));
                    let mut shape = vec![0; UP2];
                    let mut rest = m.shape.iter();
                    for (k, e) in shape.iter_mut().enumerate() {
                        *e = if k == a || k == b {
                            1
                        } else {
                            *rest.next().unwrap()
                        };
                    }
                    assert_eq!(u.shape().to_vec(), shape, "{}", what());
                    assert_eq!(offsets_of(&u), m.offs, "{}", what());
                    t.tick();
                }
            }
        }
    }
}

fn check_rank_changes<const N: usize>(l: &Layout<N>, t: &mut Tally) {
    let m = Model::of(l);
    check_reshaped::<N, 0>(l, &m, t);
    check_reshaped::<N, 1>(l, &m, t);
    check_reshaped::<N, 2>(l, &m, t);
    check_reshaped::<N, 3>(l, &m, t);
    let fm = check_dyn(&l.flattened(), &|| format!("{l}.flattened()"));
    assert_eq!(fm.offs, m.offs, "{l}.flattened()");
    let dm = check_dyn(&DynLayout::<N>::from_layout(l).unwrap(), &|| {
        format!("{l} as DynLayout")
    });
    assert_eq!(dm.offs, m.offs, "{l} as DynLayout");

    // squeezed.
    let s = l.squeezed();
    let sm = check_dyn(&s, &|| format!("{l}.squeezed()"));
    if m.volume() == 0 {
        assert_eq!(
            (s.shape(), s.strides()),
            (&[0][..], &[0][..]),
            "{l}.squeezed()"
        );
    } else {
        let shape: Vec<usize> = m.shape.iter().copied().filter(|&e| e != 1).collect();
        assert_eq!(s.shape(), &shape[..], "{l}.squeezed()");
        assert_eq!(sm.offs, m.offs, "{l}.squeezed()");
    }

    // flattened_range: every range, invalid ones included.
    for start in 0..=N + 1 {
        for end in 0..=N + 1 {
            let got = l.flattened_range(start, end);
            if !(start <= end && end <= N) {
                assert_eq!(
                    got,
                    Err(LayoutError::AxisRangeInvalid { start, end }),
                    "{l}"
                );
                continue;
            }
            let f = got.unwrap();
            let fm = Model::raw(f.shape(), f.strides(), f.offset(), f.itemsize());
            assert_eq!(fm.offs, m.offs, "{l}.flattened_range({start}, {end})");
            if end - start < 2 {
                assert_eq!(
                    f.shape(),
                    &m.shape[..],
                    "{l}.flattened_range({start}, {end})"
                );
                assert_eq!(
                    f.strides(),
                    &m.strides[..],
                    "{l}.flattened_range({start}, {end})"
                );
            }
            t.tick();
        }
    }
    // flattened_with_mask: every mask of N + 1 bits.
    let full = l.flattened_axis_mask();
    for bits in 0..1u64 << (N + 1) {
        let mask = AxisMask::from_bits(bits);
        let got = l.flattened_with_mask(mask);
        if bits >> N != 0 {
            assert_eq!(got, Err(LayoutError::MaskOutOfRange), "{l} {bits:b}");
            continue;
        }
        let f = got.unwrap();
        let fm = Model::raw(f.shape(), f.strides(), f.offset(), f.itemsize());
        assert_eq!(fm.offs, m.offs, "{l}.flattened_with_mask({bits:b})");
        let merges = (mask & full).count() as usize;
        assert!(
            f.rank() <= N - merges.min(N),
            "{l}.flattened_with_mask({bits:b})"
        );
        assert!(
            f.rank() >= N - ((bits & !1).count_ones() as usize),
            "{l} {bits:b}"
        );
        t.tick();
    }
}

// ---------------------------------------------------------------------------------------
// The tests, one per rank (they run in parallel).
// ---------------------------------------------------------------------------------------

macro_rules! rank_tests {
    (
        $name:ident, $n:literal, $up:literal, $up2:literal $(, $down:literal)?
        $(; merge $merge:literal)?; docs $q:literal, $tr:literal, $rp:literal
    ) => {
        mod $name {
            use super::*;

            /// Every query against the model, on every layout of this rank in
            /// [`query_scope`]:
            #[doc = $q]
            #[test]
            fn queries_match_the_model() {
                let mut t = Tally::new(concat!(stringify!($name), "::queries_match_the_model"));
                query_scope($n).for_each::<$n>(|l| check_queries(&l, &mut t));
            }

            /// Every same-rank transform against the model, on every layout of this rank in
            /// [`transform_scope`]:
            #[doc = $tr]
            #[test]
            fn same_rank_transforms_match_the_model() {
                let mut t = Tally::new(concat!(stringify!($name), "::same_rank_transforms"));
                let mut n = 0;
                transform_scope($n).for_each::<$n>(|l| {
                    check_same_rank(&l, n, &mut t);
                    n += 1;
                });
            }

            /// `repacked`, `repacked_dropping_axis` and `max_compatible_itemsize` against
            /// cuda.core's rules and the byte model, on every layout of this rank in
            /// [`repack_scope`]:
            #[doc = $rp]
            #[test]
            fn repack_matches_the_rules() {
                let mut t = Tally::new(concat!(stringify!($name), "::repack"));
                repack_scope($n).for_each::<$n>(|l| {
                    check_repacked(&l, &Model::of(&l));
                    t.tick();
                });
            }

            /// Every rank change against the model, on every layout of this rank in
            /// [`transform_scope`] (the same layouts as the same-rank transforms).
            #[test]
            fn rank_changes_match_the_model() {
                let mut t = Tally::new(concat!(stringify!($name), "::rank_changes"));
                transform_scope($n).for_each::<$n>(|l| {
                    let m = Model::of(&l);
                    check_rank_changes(&l, &mut t);
                    check_rank_up::<$n, $up>(&l, &m, &mut t);
                    check_unsqueezed_axes::<$n, $up2>(&l, &m, &mut t);
                    $(check_rank_down::<$n, $down>(&l, &m, &mut t);)?
                    $(check_merged::<$n, $merge>(&l, &m, &mut t);)?
                });
            }
        }
    };
}

rank_tests!(
    rank0, 0, 1, 2;
    docs "3 layouts (wide: 6).", "3 layouts (wide: 6).", "3 layouts (wide: 6)."
);
rank_tests!(
    rank1, 1, 2, 3, 0;
    docs "84 layouts (wide: 210).", "84 layouts (wide: 168).", "84 layouts (wide: 168)."
);
rank_tests!(
    rank2, 2, 3, 4, 1; merge 1;
    docs "2,352 layouts (wide: 7,350).", "2,352 layouts (wide: 4,704).",
    "2,352 layouts (wide: 4,704)."
);
rank_tests!(
    rank3, 3, 4, 5, 2; merge 2;
    docs "65,856 layouts (wide: 257,250).", "16,000 layouts (wide: 131,712).",
    "6,750 layouts (wide: 131,712)."
);

// ---------------------------------------------------------------------------------------
// Pairs: overlaps
// ---------------------------------------------------------------------------------------

/// Every layout of the overlap scope, as a `Layout<2>` (ranks 0 and 1 unsqueezed with an
/// extent-1 axis, which covers the same bytes) with its byte set.
fn overlap_scope() -> Vec<(String, Layout<2>, Vec<i128>)> {
    let s = Scope {
        max_extent: 2,
        max_stride: 2,
        offsets: (0, 2),
        itemsizes: if wide() {
            &[1, 2, 4]
        } else if quick() {
            &[1]
        } else {
            &[1, 2]
        },
        itemsize_by_offset: false,
    };
    let mut out = Vec::new();
    s.for_each::<0>(|l| {
        let m = Model::of(&l);
        out.push((
            l.to_string(),
            l.unsqueezed::<1>(0).unwrap().unsqueezed(0).unwrap(),
            m.byte_set(),
        ));
    });
    s.for_each::<1>(|l| {
        let m = Model::of(&l);
        out.push((l.to_string(), l.unsqueezed::<2>(0).unwrap(), m.byte_set()));
    });
    s.for_each::<2>(|l| {
        let m = Model::of(&l);
        out.push((l.to_string(), l, m.byte_set()));
    });
    out
}

/// `overlaps` and `overlaps_within` on every pair of the overlap scope: ranks 0..=2,
/// extents 0..=2, strides -2..=2, offsets 0..=2, itemsize 1 or 2: 1,446 layouts, 2,090,916
/// ordered pairs. Exact on every pair; the budgeted form never contradicts it, and decides
/// with a budget above its documented bound.
#[test]
fn overlaps_match_the_byte_sets_on_every_pair() {
    let mut t = Tally::new("overlaps_match_the_byte_sets_on_every_pair");
    let all = overlap_scope();
    for (na, a, ba) in &all {
        for (nb, b, bb) in &all {
            let model = intersect(ba, bb);
            assert_eq!(a.overlaps(b), model, "{na} overlaps {nb}");
            match a.overlaps_within(b, 4) {
                Verdict::Unknown => {}
                v => assert_eq!(v.known(), Some(model), "{na} overlaps_within {nb}"),
            }
            // A budget above the documented bound always decides.
            let v = a.overlaps_within(b, 1 << 20);
            assert_eq!(v.known(), Some(model), "{na} overlaps_within {nb}");
            t.tick();
        }
    }
}

/// Whether two sorted lists share an entry.
fn intersect(a: &[i128], b: &[i128]) -> bool {
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => return true,
        }
    }
    false
}

/// The run, `offsets` and the model agree on what a run is (a self-check of the model).
#[test]
fn model_run_and_progression_helpers_are_exact() {
    assert!(is_run(&[]) && is_run(&[4]) && is_run(&[-1, 0, 1]) && !is_run(&[0, 2]));
    assert!(is_progression(&[3, 1, -1]) && !is_progression(&[0, 1, 3]));
    assert_eq!(
        stride_order_model(&Model::raw(&[2, 3, 4], &[0, 0, 0], 0, 1)),
        [2, 1, 0]
    );
    assert_eq!(
        mask_model(&Model::raw(&[4, 5, 3], &[1, 12, 4], 0, 1)),
        0b100
    );
    assert_eq!(mask_model(&Model::raw(&[2, 1, 3], &[3, 7, 1], 0, 1)), 0b110);
    assert!(affine_fits(&[0, 1, 2, 3, 4, 5], &[3, 2]) && !affine_fits(&[0, 2, 1, 3], &[4]));
}

/// `repacked`'s round trip comes back to the original up to the strides of extent-1 axes:
/// the exhaustive scope found that the stride of an extent-1 repack axis (which no offset
/// reads) does not come back, and the postcondition now says so.
#[test]
fn repacked_round_trip_is_exact_up_to_extent_one_strides() {
    // The documented postcondition: back to the original up to the stride of an extent-1
    // axis, which no offset reads.
    let l = Layout::new([1], [-3], 4).unwrap();
    let r = l.repacked(1, 0, -1).unwrap();
    assert_eq!((r.shape(), r.strides(), r.itemsize()), ([4], [1], 1));
    let back = r.repacked(4, 0, -1).unwrap();
    assert_eq!((back.shape(), back.itemsize(), back.offset()), ([1], 4, 0));
    assert_eq!(back.strides(), [1]);
    assert_ne!(back, l);
}

/// The expected `indexed` result: an integer index per `Some(i)` axis (Python's negative
/// rule), a slice per `None` axis; `Err` as documented (indices first, then slices).
fn indexed_model<const N: usize>(
    m: &Model,
    index: [Option<isize>; N],
    slices: [Slice; N],
) -> Result<Vec<i128>, LayoutError> {
    let mut at = [0usize; N];
    for k in 0..N {
        if let Some(i) = index[k] {
            let e = m.shape[k] as isize;
            let p = if i < 0 { i + e } else { i };
            if p < 0 || p >= e {
                return Err(LayoutError::IndexOutOfRange { axis: k });
            }
            at[k] = p as usize;
        }
    }
    if let Some(axis) = (0..N).find(|&k| index[k].is_none() && slices[k].step == 0) {
        return Err(LayoutError::ZeroStep { axis });
    }
    let ranges: Vec<Vec<usize>> = (0..N)
        .map(|k| match index[k] {
            Some(_) => vec![at[k]],
            None => common::py_indices(m.shape[k], slices[k].start, slices[k].stop, slices[k].step),
        })
        .collect();
    let kept: Vec<usize> = (0..N).filter(|&k| index[k].is_none()).collect();
    let shape: Vec<usize> = kept.iter().map(|&k| ranges[k].len()).collect();
    Ok(reindexed(&m.offs, &m.shape, &shape, |j, i| {
        let mut jj = j.iter();
        for k in 0..N {
            i[k] = if index[k].is_some() {
                at[k]
            } else {
                ranges[k][*jj.next().unwrap()]
            };
        }
    }))
}

/// The index values and slices `indexed` is tried with.
const INDEX_VALUES: [isize; 5] = [-4, -1, 0, 2, 3];
const INDEX_SLICES: [Slice; 6] = [
    Slice::FULL,
    Slice::new(None, None, -1),
    Slice::new(Some(1), None, 1),
    Slice::new(None, None, 2),
    Slice::new(Some(-1), Some(0), -2),
    Slice::new(None, None, 0),
];

/// `indexed` (NumPy basic indexing, what `s!` expands to) against sliced-then-selected
/// offsets: rank 2 on the query scope (2,352 layouts) as `x[i, s]` and `x[s, i]`; rank 3 on
/// extents 0..=3, strides -1..=1, offset 0 (1,728 layouts) as `x[i, s, s]` and
/// `x[s, s, i]`; index values -4, -1, 0, 2, 3 and six slices (a zero step among them).
#[test]
fn indexed_matches_the_model() {
    let mut t = Tally::new("indexed_matches_the_model");
    let check = |got: Result<Vec<i128>, LayoutError>,
                 want: Result<Vec<i128>, LayoutError>,
                 what: &dyn Fn() -> String| {
        assert_eq!(got, want, "{}", what());
    };
    query_scope(2).for_each::<2>(|l| {
        let m = Model::of(&l);
        for i in INDEX_VALUES {
            for s in INDEX_SLICES {
                let got = l.indexed::<1, _>((i, (s, ()))).map(|r| offsets_of(&r));
                let want = indexed_model(&m, [Some(i), None], [Slice::FULL, s]);
                check(got, want, &|| format!("{l}.indexed(({i}, {s:?}))"));
                let got = l.indexed::<1, _>((s, (i, ()))).map(|r| offsets_of(&r));
                let want = indexed_model(&m, [None, Some(i)], [s, Slice::FULL]);
                check(got, want, &|| format!("{l}.indexed(({s:?}, {i}))"));
                t.tick();
            }
        }
    });
    let s3 = Scope {
        max_extent: 3,
        max_stride: 1,
        offsets: (0, 0),
        itemsizes: &[1, 4],
        itemsize_by_offset: true,
    };
    s3.for_each::<3>(|l| {
        let m = Model::of(&l);
        for i in INDEX_VALUES {
            for a in INDEX_SLICES {
                for b in INDEX_SLICES {
                    let got = l.indexed::<2, _>((i, (a, (b, ())))).map(|r| offsets_of(&r));
                    let want = indexed_model(&m, [Some(i), None, None], [Slice::FULL, a, b]);
                    check(got, want, &|| format!("{l}.indexed(({i}, {a:?}, {b:?}))"));
                    let got = l.indexed::<2, _>((a, (b, (i, ())))).map(|r| offsets_of(&r));
                    let want = indexed_model(&m, [None, None, Some(i)], [a, b, Slice::FULL]);
                    check(got, want, &|| format!("{l}.indexed(({a:?}, {b:?}, {i}))"));
                    t.tick();
                }
            }
        }
    });
}

/// The signed axis arguments (`normalized_axis`, `repacked`, `repacked_dropping_axis`,
/// `max_compatible_itemsize`) out of `-N..N` on every layout of ranks 0..=3 with extents
/// 0..=2, strides -1..=1: the docs promise [`LayoutError::AxisOutOfRange`].
#[test]
fn signed_axis_out_of_range_is_signed_axis_out_of_range() {
    // A review's edge: the docs promise `SignedAxisOutOfRange` (the axis as given,
    // negatives counting from the end), which these functions return.
    fn check<const N: usize>(l: &Layout<N>) {
        for axis in [-(N as isize) - 1, N as isize] {
            let is_axis = |r: Result<(), LayoutError>| {
                matches!(r, Err(LayoutError::SignedAxisOutOfRange { .. }))
            };
            assert!(
                is_axis(l.normalized_axis(axis).map(|_| ())),
                "{l}.normalized_axis({axis})"
            );
            assert!(
                is_axis(l.repacked(2, 0, axis).map(|_| ())),
                "{l}.repacked(2, 0, {axis})"
            );
            assert!(
                is_axis(l.repacked_dropping_axis(2, 0, axis).map(|_| ())),
                "{l}"
            );
            assert!(
                is_axis(l.max_compatible_itemsize(8, 0, axis).map(|_| ())),
                "{l}"
            );
        }
    }
    let s = Scope {
        max_extent: 2,
        max_stride: 1,
        offsets: (0, 0),
        itemsizes: &[4],
        itemsize_by_offset: false,
    };
    s.for_each::<0>(|l| check(&l));
    s.for_each::<1>(|l| check(&l));
    s.for_each::<2>(|l| check(&l));
    s.for_each::<3>(|l| check(&l));
}
