//! No public function panics on any input: every API called on layouts and arguments drawn
//! from the whole range of their types (run in debug, where arithmetic overflow panics too).
//! Results may be errors; only a panic fails these tests.
#![allow(clippy::cast_possible_wrap, clippy::cast_sign_loss)]

use proptest::prelude::*;

/// Cases per property: 512 in the full scope (`common::cases`), 4 under Miri.
fn cases() -> u32 {
    if cfg!(miri) {
        4
    } else {
        crate::common::cases(512)
    }
}
use strided_layout::rank::{Merged, NotLower, OneLess, OneMore, Rank};
use strided_layout::{AxisMask, DynLayout, Layout, Order, Slice};

/// Any `usize`, biased towards the edges and small values where bugs live.
fn any_usize() -> BoxedStrategy<usize> {
    prop_oneof![
        0usize..=8,
        Just(usize::MAX),
        Just(usize::MAX / 2),
        Just(usize::MAX / 2 + 1),
        Just(isize::MAX as usize),
        (1usize << 20)..(1usize << 40),
        any::<usize>(),
    ]
    .boxed()
}

/// Any `isize`, biased likewise.
fn any_isize() -> BoxedStrategy<isize> {
    prop_oneof![
        -8isize..=8,
        Just(isize::MAX),
        Just(isize::MIN),
        Just(isize::MAX / 2),
        Just(isize::MIN / 2),
        any::<isize>(),
    ]
    .boxed()
}

/// A valid layout with large extents and strides (built by filtering `Layout::new`).
fn big_layout<const N: usize>() -> BoxedStrategy<Layout<N>> {
    (
        proptest::array::uniform::<_, N>(prop_oneof![0usize..=5, any_usize()]),
        proptest::array::uniform::<_, N>(prop_oneof![-6isize..=6, any_isize()]),
        any_isize(),
        prop_oneof![Just(1usize), Just(2), Just(8), Just(1 << 20)],
    )
        .prop_filter_map("invalid layout", |(sh, st, off, item)| {
            Layout::new(sh, st, item)
                .and_then(|l| l.with_offset(off))
                .ok()
        })
        .boxed()
}

fn slice() -> BoxedStrategy<Slice> {
    (
        proptest::option::of(any_isize()),
        proptest::option::of(any_isize()),
        any_isize(),
    )
        .prop_map(|(a, b, c)| Slice::new(a, b, c))
        .boxed()
}

#[allow(clippy::too_many_arguments)] // one argument per kind of input
fn exercise<const N: usize, const P: usize, const Q: usize>(
    l: Layout<N>,
    a: usize,
    b: usize,
    i: isize,
    s: [Slice; N],
    shape_i: [isize; N],
    shape_p: [usize; P],
    bits: u64,
) where
    Rank<N>: NotLower<N, P> + OneMore<N, P>,
{
    let idx = [a; N];
    let _ = (
        l.offset_of(idx),
        l.offset_bounds(),
        l.required_size_in_bytes(),
    );
    let _ = (
        l.is_contiguous_c(),
        l.is_contiguous_f(),
        l.is_contiguous_any(),
        l.is_dense(),
    );
    let _ = (
        l.is_unique(),
        l.stride_order(),
        l.stride_rank(),
        l.flattened_axis_mask(),
    );
    let _ = (
        l.contiguous_axis(),
        l.contiguous_offsets(),
        l.inner_stride(),
        l.has_contiguous_inner(),
    );
    let _ = (
        l.as_2d_strides(),
        l.has_positive_strides(),
        l.fits_in::<i32>(),
        l.fits_in::<u8>(),
    );
    let _ = l.overlaps(&l.flipped(a % (N + 1)).unwrap_or(l));
    let _ = (
        l.max_compatible_itemsize(b, a, i),
        l.repacked(b, a, i),
        l.repacked_dropping_axis(b, a, i),
    );
    let _ = (
        l.permuted(idx),
        l.transposed(a, b),
        l.flipped(a),
        l.narrowed(a, b, a),
    );
    let _ = (
        l.narrowed(a % (N + 1), b, a),
        l.sliced(s),
        l.to_dense(Order::Keep),
        l.to_dense(Order::F),
    );
    let _ = (
        l.with_offset(i),
        Layout::dense(l.shape(), l.itemsize(), Order::Perm(idx)),
    );
    let _ = Layout::<N>::from_byte_strides(l.shape(), l.strides(), b);
    let _ = (
        l.reshaped(shape_i),
        l.reshaped_f(shape_i),
        l.broadcast_to(shape_p),
    );
    let _ = (
        l.unsqueezed::<P>(a),
        l.split_axis::<P>(a, b),
        l.split_axis::<P>(a % (N + 1), b),
    );
    let _ = (
        l.squeezed(),
        l.flattened(),
        l.flattened_range(a, b),
        l.flattened_with_mask(AxisMask::from_bits(bits)),
    );
    let _ = (l.grid(a, b, idx), l.to_text::<64>(), std::format!("{l}"));
    if N == 2 {
        let _ = l.grid(0, 1, idx).map(|g| g.to_text::<32>());
    }
    let d = DynLayout::<6>::from_layout(&l).unwrap();
    let _ = (
        d.offset_of(&idx),
        d.required_size_in_bytes(),
        d.is_unique(),
        d.stride_order(),
    );
    let _ = (d.to_layout::<Q>(), d.with_offset(i), std::format!("{d}"));
}

fn exercise_lower<const N: usize, const Q: usize>(l: Layout<N>, a: usize, b: usize)
where
    Rank<N>: Merged<N, Q> + OneLess<N, Q>,
{
    let _ = (
        l.selected::<Q>(a, b),
        l.selected::<Q>(a % N, b),
        l.merged_axes::<Q>(a),
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]
    #[test]
    fn rank1_never_panics(l in big_layout::<1>(), a in any_usize(), b in any_usize(), i in any_isize(),
                          s in proptest::array::uniform::<_, 1>(slice()),
                          t in proptest::array::uniform::<_, 1>(any_isize()),
                          p in proptest::array::uniform::<_, 2>(any_usize()), bits in any::<u64>()) {
        exercise::<1, 2, 1>(l, a, b, i, s, t, p, bits);
    }
    #[test]
    fn rank2_never_panics(l in big_layout::<2>(), a in any_usize(), b in any_usize(), i in any_isize(),
                          s in proptest::array::uniform::<_, 2>(slice()),
                          t in proptest::array::uniform::<_, 2>(any_isize()),
                          p in proptest::array::uniform::<_, 3>(any_usize()), bits in any::<u64>()) {
        exercise::<2, 3, 1>(l, a, b, i, s, t, p, bits);
        exercise_lower::<2, 1>(l, a, b);
    }
    #[test]
    fn rank3_never_panics(l in big_layout::<3>(), a in any_usize(), b in any_usize(), i in any_isize(),
                          s in proptest::array::uniform::<_, 3>(slice()),
                          t in proptest::array::uniform::<_, 3>(any_isize()),
                          p in proptest::array::uniform::<_, 4>(any_usize()), bits in 0u64..16) {
        exercise::<3, 4, 2>(l, a, b, i, s, t, p, bits);
        exercise_lower::<3, 2>(l, a, b);
    }
    #[test]
    fn rank4_never_panics(l in big_layout::<4>(), a in 0usize..6, b in any_usize(), i in any_isize(),
                          s in proptest::array::uniform::<_, 4>(slice()),
                          t in proptest::array::uniform::<_, 4>(prop_oneof![-1isize..=4, any_isize()]),
                          p in proptest::array::uniform::<_, 5>(any_usize()), bits in 0u64..32) {
        exercise::<4, 5, 3>(l, a, b, i, s, t, p, bits);
        exercise_lower::<4, 3>(l, a, b);
    }
}

/// The user surface: byte helpers, `DynLayout`'s transforms and queries, range
/// conversions, `s!`'s `indexed`; every argument from the whole range of its type.
fn exercise_surface<const N: usize>(
    l: Layout<N>,
    a: usize,
    b: usize,
    i: isize,
    j: isize,
    s: [Slice; N],
    axes: &[usize],
) where
    Rank<N>: NotLower<N, 6>,
{
    let idx = [a; N];
    let _ = (
        l.offset_of_in_bytes(idx),
        l.byte_span(),
        l.is_empty(),
        l.fits_in_bytes::<i32>(),
        l.fits_in_bytes::<u8>(),
        l.fits_in_bytes::<i64>(),
        l.fits_in_bytes::<u64>(),
    );
    let _ = (
        Slice::from(i..j),
        Slice::from(i..),
        Slice::from(..j),
        Slice::from(i..=j),
        Slice::from(..=j),
        Slice::stepped(i..j, i),
        Slice::stepped(.., j),
    );
    let d: DynLayout<6> = l.into();
    let e = DynLayout::<6>::from_layout(&l.flipped(a % (N + 1)).unwrap_or(l)).unwrap();
    let _ = (
        d.ndim(),
        d.permuted(axes),
        d.permuted(&idx),
        d.transposed(a, b),
        d.transposed(a % (N + 1), b % (N + 1)),
        d.flipped(a),
        d.flipped(a % (N + 1)),
    );
    let _ = (
        d.narrowed(a, b, a),
        d.narrowed(a % (N + 1), b, a),
        d.sliced(&s),
        d.sliced(&s[..N.saturating_sub(1)]),
        d.with_offset(i),
    );
    let _ = (
        d.overlaps(&e),
        d.offset_in_bytes(),
        d.strides_in_bytes(),
        d.offset_of_in_bytes(&idx),
        d.offset_of_in_bytes(axes),
        d.byte_span(),
    );
    let _ = (
        d.fits_in::<i32>(),
        d.fits_in::<u8>(),
        d.fits_in_bytes::<i16>(),
        d.fits_in_bytes::<u64>(),
        d.is_empty(),
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]
    #[test]
    fn surface_rank1_never_panics(l in big_layout::<1>(), a in any_usize(), b in any_usize(),
                                  i in any_isize(), j in any_isize(),
                                  s in proptest::array::uniform::<_, 1>(slice()),
                                  axes in proptest::collection::vec(any_usize(), 0..8)) {
        exercise_surface::<1>(l, a, b, i, j, s, &axes);
        let _: Result<Layout<0>, _> = l.indexed((i, ()));
        let _: Result<Layout<1>, _> = l.indexed((s[0], ()));
        let _: Result<Layout<1>, _> = l.indexed((i..=j, ()));
    }
    #[test]
    fn surface_rank2_never_panics(l in big_layout::<2>(), a in any_usize(), b in any_usize(),
                                  i in any_isize(), j in any_isize(),
                                  s in proptest::array::uniform::<_, 2>(slice()),
                                  axes in proptest::collection::vec(any_usize(), 0..8)) {
        exercise_surface::<2>(l, a, b, i, j, s, &axes);
        let _: Result<Layout<0>, _> = l.indexed((i, (j, ())));
        let _: Result<Layout<1>, _> = l.indexed((s[0], (j, ())));
        let _: Result<Layout<1>, _> = l.indexed((i, (s[1], ())));
        let _: Result<Layout<0>, _> = l.indexed((a, (b, ())));
        let _: Result<Layout<1>, _> = l.indexed((a, (s[1], ())));
        let _: Result<Layout<2>, _> = l.indexed((i.., (..j, ())));
    }
    #[test]
    fn surface_rank3_never_panics(l in big_layout::<3>(), a in any_usize(), b in any_usize(),
                                  i in any_isize(), j in any_isize(),
                                  s in proptest::array::uniform::<_, 3>(slice()),
                                  axes in proptest::collection::vec(any_usize(), 0..8)) {
        exercise_surface::<3>(l, a, b, i, j, s, &axes);
        let _: Result<Layout<1>, _> = l.indexed((i, (s[1], (j, ()))));
        let _: Result<Layout<2>, _> = l.indexed((s[0], (j, (s[2], ()))));
        let _: Result<Layout<0>, _> = l.indexed((j, (i, (j, ()))));
    }
    #[test]
    fn surface_rank5_never_panics(l in big_layout::<5>(), a in 0usize..7, b in any_usize(),
                                  i in any_isize(), j in any_isize(),
                                  s in proptest::array::uniform::<_, 5>(slice()),
                                  axes in proptest::collection::vec(0usize..6, 0..7)) {
        exercise_surface::<5>(l, a, b, i, j, s, &axes);
    }
}
