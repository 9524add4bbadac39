//! `KernelLayout<I, N>`: the checked conversion and the device-side offset math, against the
//! reference model, for index types from `i8` (where small layouts already overflow) to `u64`.
use strided_layout::gpu::KernelLayout;
use strided_layout::{Layout, LayoutError, Order};

// Not under Miri: proptest's fixed cost there is ~8 s per test; the i686 Miri run in .ci/run
// takes the focused tests below instead (tests/limits_32bit.rs covers the 32-bit edges).
#[cfg(not(miri))]
mod model {
    use super::*;
    use crate::common;
    use core::fmt::Debug;
    use proptest::prelude::*;
    use strided_layout::gpu::KernelIndex;

    /// Whether the model says `l` fits `I`: every extent, stride, the offset, the volume and every
    /// element offset.
    fn fits_model<I: TryFrom<i128>, const N: usize>(l: &Layout<N>) -> bool {
        let fits = |v: i128| I::try_from(v).is_ok();
        let offs = common::offsets(l);
        // A stride on an axis of extent 0 or 1 never reaches an offset: not checked.
        l.shape().iter().all(|&e| fits(e as i128))
            && l.shape()
                .iter()
                .zip(l.strides())
                .all(|(&e, s)| e <= 1 || fits(s as i128))
            && fits(l.offset() as i128)
            && fits(l.volume() as i128)
            && offs.iter().all(|&o| fits(o))
    }

    fn narrow<I: TryFrom<i128>>(v: i128) -> I {
        match I::try_from(v) {
            Ok(x) => x,
            Err(_) => panic!("{v} does not fit"),
        }
    }

    /// The conversion succeeds exactly when the model says everything fits; then every index,
    /// every linear position and every out-of-range probe agree with the model.
    fn matches_model<I, const N: usize>(l: Layout<N>) -> Result<(), TestCaseError>
    where
        I: KernelIndex + TryFrom<i128> + Into<i128> + Debug,
    {
        let k = KernelLayout::<I, N>::try_from(&l);
        prop_assert_eq!(k.is_ok(), fits_model::<I, N>(&l), "{:?}", l);
        let Ok(k) = k else {
            prop_assert_eq!(k, Err(LayoutError::IndexTypeOverflow));
            return Ok(());
        };
        prop_assert_eq!(KernelLayout::<I, N>::try_from(l), Ok(k));
        prop_assert_eq!(k.interleave(), None);
        prop_assert_eq!(k.volume().into(), l.volume() as i128);
        prop_assert_eq!(k.offset().into(), l.offset() as i128);
        for (t, ix) in common::indices(&l.shape()).iter().enumerate() {
            let want = common::offset_of_model(&l.strides(), l.offset(), ix);
            let index: [I; N] = core::array::from_fn(|a| narrow(ix[a] as i128));
            prop_assert_eq!(k.offset_of(index).into(), want);
            prop_assert_eq!(k.checked_offset_of(index).map(Into::into), Some(want));
            prop_assert_eq!(k.offset_of_linear(narrow(t as i128)).into(), want);
        }
        // One past the end on each axis is rejected by the checked form.
        for axis in 0..N {
            let mut index = [I::zero(); N];
            index[axis] = narrow(l.shape()[axis] as i128);
            prop_assert_eq!(k.checked_offset_of(index), None);
        }
        Ok(())
    }

    fn all_index_types<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
        // The `const fn` of each type is the generic conversion's packing, word for word.
        macro_rules! const_is_generic {
            ($($t:ty),*) => {$(
                prop_assert_eq!(
                    KernelLayout::<$t, N>::from_layout(&l),
                    KernelLayout::<$t, N>::try_from(&l)
                );
            )*};
        }
        const_is_generic!(i8, u8, i16, u16, i32, u32, i64, u64);
        matches_model::<i8, N>(l)?;
        matches_model::<u8, N>(l)?;
        matches_model::<i16, N>(l)?;
        matches_model::<u16, N>(l)?;
        matches_model::<i32, N>(l)?;
        matches_model::<u32, N>(l)?;
        matches_model::<i64, N>(l)?;
        matches_model::<u64, N>(l)?;
        Ok(())
    }
    // Not under Miri: proptest's fixed cost there is ~8 s per test; the i686 Miri run in .ci/run
    // takes the focused tests below instead (tests/limits_32bit.rs covers the 32-bit edges).

    for_ranks!(from_layout_matches_model, layout, all_index_types);
}

/// The layout, or `None` on a 32-bit target where it is refused: `Layout::new` checks the
/// offsets at offset 0 (the next step moves them up by `with_offset`), and there they reach
/// below `isize::MIN`.
fn built_at_offset_0<const N: usize>(r: Result<Layout<N>, LayoutError>) -> Option<Layout<N>> {
    match r {
        Ok(l) => Some(l),
        Err(e) => {
            assert_eq!(usize::BITS, 32, "{e:?}");
            assert_eq!(e, LayoutError::OffsetOverflow);
            None
        }
    }
}

#[test]
fn offset_of_reaches_i32_min_although_the_term_does_not_fit_i32() {
    // Offset i32::MAX, stride -3, extent 1431655766: the last element sits at
    // i32::MAX - 3 * 1431655765 = i32::MIN exactly, but the term 3 * 1431655765 alone does not
    // fit i32. Wrapping math is exact because the result fits.
    let last = 1_431_655_765;
    let Some(l) = built_at_offset_0(Layout::new([last + 1], [-3], 1)) else {
        return;
    };
    let l = l.with_offset(i32::MAX as isize).unwrap();
    let k = KernelLayout::<i32, 1>::from_layout(&l).unwrap();
    assert_eq!(k.offset_of([last as i32]), i32::MIN);
    assert_eq!(k.offset_of_linear(last as i32), i32::MIN);
    assert_eq!(k.offset_of([0]), i32::MAX);
    // One element more would sit below i32::MIN.
    let l = Layout::new([last + 2], [-3], 1)
        .unwrap()
        .with_offset(i32::MAX as isize)
        .unwrap();
    assert_eq!(
        KernelLayout::<i32, 1>::from_layout(&l),
        Err(LayoutError::IndexTypeOverflow)
    );
    assert!(KernelLayout::<i64, 1>::from_layout(&l).is_ok());
}

#[test]
fn offset_of_is_exact_when_a_term_alone_overflows_the_index_type() {
    // 2-d: offset i32::MAX, axis 0 stride -2^30 over 4 rows reaches i32::MAX - 3·2^30 =
    // -2^30 - 1 (fits); axis 1 stride 1 over 1 column. The term 3·(-2^30) = -3·2^30 does not fit
    // i32, yet the wrapped sum is the true offset.
    let Some(l) = built_at_offset_0(Layout::new([4, 1], [-(1 << 30), 1], 1)) else {
        return;
    };
    let l = l.with_offset(i32::MAX as isize).unwrap();
    let k = KernelLayout::<i32, 2>::from_layout(&l).unwrap();
    for i in 0..4i32 {
        let want = i32::MAX as i64 - i as i64 * (1 << 30);
        assert_eq!(k.offset_of([i, 0]) as i64, want);
        assert_eq!(k.offset_of_linear(i) as i64, want);
    }
}

// On 32-bit targets the layout itself is refused (offsets past isize::MAX): see
// tests/limits_32bit.rs.
#[cfg(target_pointer_width = "64")]
#[test]
fn from_layout_accepts_u32_max_extent_in_u32_and_rejects_it_in_i32() {
    let l = Layout::new([u32::MAX as usize], [1], 1).unwrap();
    let k = KernelLayout::<u32, 1>::from_layout(&l).unwrap();
    assert_eq!(k.volume(), u32::MAX);
    assert_eq!(k.offset_of([u32::MAX - 1]), u32::MAX - 1);
    assert_eq!(k.checked_offset_of([u32::MAX]), None);
    assert_eq!(
        KernelLayout::<i32, 1>::from_layout(&l),
        Err(LayoutError::IndexTypeOverflow)
    );
}

#[test]
fn from_layout_accepts_i32_max_stride_on_a_two_element_axis() {
    let l = Layout::new([2, 3], [i32::MAX as isize, 0], 1).unwrap();
    let k = KernelLayout::<i32, 2>::from_layout(&l).unwrap();
    assert_eq!(k.offset_of([1, 2]), i32::MAX);
    // One more element on that axis would sit at 2·i32::MAX (past isize::MAX on 32-bit).
    if let Ok(l) = Layout::new([3], [i32::MAX as isize], 1) {
        assert!(KernelLayout::<i32, 1>::from_layout(&l).is_err());
        assert!(KernelLayout::<u32, 1>::from_layout(&l).is_ok());
    } else {
        assert_eq!(usize::BITS, 32);
    }
}

#[test]
fn from_layout_checks_the_volume_even_when_offsets_are_small() {
    // A broadcast: every offset is 0, but 70000 elements do not fit u16.
    let l = Layout::new([70_000], [0], 4).unwrap();
    assert_eq!(
        KernelLayout::<u16, 1>::from_layout(&l),
        Err(LayoutError::IndexTypeOverflow)
    );
    assert!(KernelLayout::<u32, 1>::from_layout(&l).is_ok());
}

#[test]
fn from_layout_of_an_empty_layout_checks_extents_strides_and_offset_only() {
    let l = Layout::new([0, 5], [1000, 1], 1).unwrap();
    let k = KernelLayout::<i16, 2>::from_layout(&l).unwrap();
    assert_eq!(k.volume(), 0);
    assert_eq!(k.checked_offset_of([0, 0]), None);
    // A stride that does not fit is rejected even with no element, on an axis of extent 2.
    let l = Layout::new([0, 2], [1, 100_000], 1).unwrap();
    assert!(KernelLayout::<i16, 2>::from_layout(&l).is_err());
    // On the extent-0 axis itself it never reaches an offset: packed as 0.
    let l = Layout::new([0], [100_000], 1).unwrap();
    assert_eq!(
        KernelLayout::<i16, 1>::from_layout(&l).unwrap().strides(),
        [0]
    );
}

#[test]
// Strides of 2^31 elements: a layout only a 64-bit `isize` holds.
#[cfg(target_pointer_width = "64")]
fn from_layout_packs_the_stride_of_an_extent_1_axis_as_0_when_it_does_not_fit() {
    // (1, 2^30):(2^31, 1): offsets 0..2^30 fit i32; the stride 2^31 of the extent-1 axis
    // never reaches an offset.
    let l = Layout::new([1, 1 << 30], [1 << 31, 1], 4).unwrap();
    assert!(l.fits_in::<i32>());
    let k = KernelLayout::<i32, 2>::from_layout(&l).unwrap();
    assert_eq!(k.strides(), [0, 1]);
    assert_eq!(k.extents(), [1, 1 << 30]);
    for t in [0, 1, 12345, (1 << 30) - 1] {
        assert_eq!(k.offset_of_linear(t), t);
        assert_eq!(k.offset_of([0, t]), t);
    }
}

#[test]
// Strides of 2^31 elements: a layout only a 64-bit `isize` holds.
#[cfg(target_pointer_width = "64")]
fn from_layout_accepts_an_unsqueezed_axis_whose_stride_does_not_fit() {
    // Every other row of a 2^14 x 2^16 image: the largest offset is below 2^31, but
    // `unsqueezed(0)` gives the new extent-1 axis the stride 2^17 · 2^14 = 2^31.
    let l = Layout::new([1 << 14, 1 << 16], [1 << 17, 1], 1).unwrap();
    let u: Layout<3> = l.unsqueezed(0).unwrap();
    assert_eq!(u.strides()[0], 1 << 31);
    assert!(u.fits_in::<i32>());
    let k = KernelLayout::<i32, 3>::from_layout(&u).unwrap();
    assert_eq!(k.strides(), [0, 1 << 17, 1]);
    let last = (1 << 30) - 1;
    let want = ((1 << 14) - 1) * (1 << 17) + (1 << 16) - 1;
    assert_eq!(k.offset_of_linear(last), want);
    assert_eq!(
        u.offset_of([0, (1 << 14) - 1, (1 << 16) - 1]).unwrap(),
        want as isize
    );
}

#[test]
fn fits_in_ignores_strides_that_never_reach_an_offset() {
    let l = Layout::new([1, 3, 0], [isize::MAX, 1, isize::MAX], 1).unwrap();
    assert!(l.fits_in::<i8>());
    // An extent-2 axis with a large stride is checked (values that fit 32-bit `isize` too).
    let l = Layout::new([2], [1 << 20], 1).unwrap();
    assert!(!l.fits_in::<i16>());
}

#[test]
fn rank_zero_layout_packs_its_offset_only() {
    let l = Layout::<0>::new([], [], 8)
        .unwrap()
        .with_offset(-5)
        .unwrap();
    let k = KernelLayout::<i64, 0>::from_layout(&l).unwrap();
    assert_eq!(
        (k.offset_of([]), k.offset_of_linear(0), k.volume()),
        (-5, -5, 1)
    );
    assert!(KernelLayout::<u64, 0>::from_layout(&l).is_err());
}

#[test]
fn accessors_return_the_packed_parts() {
    let l = Layout::dense([2, 3, 4], 2, Order::F)
        .unwrap()
        .with_offset(9)
        .unwrap();
    let k = KernelLayout::<i32, 3>::from_layout(&l).unwrap();
    assert_eq!(k.extents(), [2, 3, 4]);
    assert_eq!(k.strides(), [1, 2, 6]);
    assert_eq!(k.offset(), 9);
}

#[cfg(feature = "bytemuck")]
mod bytemuck_feature {
    use super::*;

    #[test]
    fn bytes_are_extents_strides_offset_then_interleave() {
        let l = Layout::dense([2, 3], 4, Order::C)
            .unwrap()
            .with_offset(7)
            .unwrap();
        let k = KernelLayout::<i32, 2>::from_layout(&l).unwrap();
        let words: &[i32] = bytemuck::cast_slice(bytemuck::bytes_of(&k));
        // extents, strides, offset, dimension, factor, then the division constants of the
        // pitches 3 and 1 and of the factor 1.
        assert_eq!(words, [2, 3, 3, 1, 7, 0, 1, 1431655766, 1, 2, 0, 1, 0]);
        assert!(k.words().eq(words.iter().copied()));
        let back: KernelLayout<i32, 2> = bytemuck::pod_read_unaligned(bytemuck::bytes_of(&k));
        assert_eq!(back, k);
    }

    #[test]
    fn arbitrary_bytes_never_panic() {
        // Zero extents, zero or negative factors, out-of-range dimensions: any bit pattern is
        // a valid value, and the math must stay total.
        let patterns: [[i32; 13]; 6] = [
            [0; 13],
            [0, 0, 5, 5, 1, 0, 3, 0, 0, 0, 0, 7, 40],
            [
                -1,
                i32::MIN,
                i32::MIN,
                -1,
                i32::MAX,
                1,
                -1,
                -1,
                -1,
                -1,
                -1,
                -1,
                -1,
            ],
            [3, 4, 1, 1, 0, 99, 2, 5, 5, 64, 33, i32::MIN, i32::MAX],
            [
                i32::MIN,
                0,
                -1,
                0,
                0,
                0,
                0,
                i32::MAX,
                i32::MIN,
                31,
                32,
                0,
                -32,
            ],
            [i32::MAX; 13],
        ];
        for p in patterns {
            let k: KernelLayout<i32, 2> = bytemuck::cast(p);
            for i in [i32::MIN, -1, 0, 1, 7, i32::MAX] {
                let _ = k.offset_of([i, i]);
                let _ = k.offset_of_linear(i);
                let _ = k.checked_offset_of([i, 0]);
            }
            let _ = (k.volume(), k.interleave());
        }
        let z: KernelLayout<u64, 3> = bytemuck::Zeroable::zeroed();
        assert_eq!((z.offset_of_linear(5), z.interleave()), (0, None));
    }
}

/// `KernelIndex::division_magic` / `divide_fast` against the hardware division: every divisor
/// up to 2^16 (and every 8-bit pair in the unit tests), random divisors of the full range, each
/// with the dividends where a round-up multiplier fails first (`k·d − 1` near `MAX`, `MAX`).
mod fast_division {
    use strided_layout::gpu::KernelIndex;

    /// The dividends that stress the method for divisor `d`: the ends of the range, the
    /// neighbours of multiples of `d` near 0 and near `max`, and powers of two.
    fn dividends(d: u128, max: u128) -> Vec<u128> {
        let top = max - max % d; // the largest multiple of d that fits
        let mut v = vec![0, 1, max, max - 1, max / 2, max / 2 + 1];
        for base in [d, 2 * d, top, top.saturating_sub(d)] {
            v.extend([base.saturating_sub(1), base, base.saturating_add(1)]);
        }
        for p in 0..128 {
            if let Some(x) = 1u128.checked_shl(p).filter(|&x| x <= max) {
                v.extend([x - 1, x, x.saturating_add(1)]);
            }
        }
        v.retain(|&x| x <= max);
        v
    }

    /// The shift is ceil(log2 d), by search.
    fn ceil_log2(d: u128) -> u128 {
        (0..=64).find(|&l| (1u128 << l) >= d).unwrap()
    }

    macro_rules! check_type {
        ($name:ident, $t:ty, $prop:ident) => {
            fn $name(d: $t, extra: &[$t]) {
                let (m, s) = <$t>::division_magic(d).unwrap();
                assert_eq!(s as u128, ceil_log2(d as u128), "shift of {}", d);
                let max = <$t>::MAX as u128;
                let ns = dividends(d as u128, max)
                    .into_iter()
                    .map(|n| n as $t)
                    .chain(extra.iter().copied());
                for n in ns {
                    assert_eq!(<$t>::divide_fast(n, m, s), n / d, "{} / {}", n, d);
                }
            }

            #[cfg(not(miri))]
            proptest::proptest! {
                #[test]
                fn $prop(d in 1..=<$t>::MAX, n in 0..=<$t>::MAX) {
                    $name(d, &[n]);
                    let (m, s) = <$t>::division_magic(d).unwrap();
                    proptest::prop_assert_eq!(<$t>::divide_fast(n, m, s), n / d);
                }
            }
        };
    }
    check_type!(check_i32, i32, divide_fast_matches_division_for_random_i32);
    check_type!(check_u32, u32, divide_fast_matches_division_for_random_u32);
    check_type!(check_i64, i64, divide_fast_matches_division_for_random_i64);
    check_type!(check_u64, u64, divide_fast_matches_division_for_random_u64);
    check_type!(check_i16, i16, divide_fast_matches_division_for_random_i16);
    check_type!(check_u16, u16, divide_fast_matches_division_for_random_u16);

    #[test]
    fn divide_fast_is_exact_for_every_divisor_up_to_2_pow_16() {
        let limit = if cfg!(miri) { 64 } else { 1 << 16 };
        for d in 1..=limit {
            let d: i32 = d;
            check_i32(d, &[]);
            check_u32(d as u32, &[]);
            check_i64(d as i64, &[]);
            check_u64(d as u64, &[]);
        }
    }

    #[test]
    fn divide_fast_is_exact_for_every_16_bit_divisor_on_a_dividend_grid() {
        let step = if cfg!(miri) { 4099 } else { 1021 };
        for d in (1..=u16::MAX).step_by(if cfg!(miri) { 997 } else { 1 }) {
            let extra: Vec<u16> = (0..=u16::MAX).step_by(step).collect();
            check_u16(d, &extra);
            if let Ok(d) = i16::try_from(d) {
                let extra: Vec<i16> = (0..=i16::MAX).step_by(step).collect();
                check_i16(d, &extra);
            }
        }
    }

    #[test]
    fn divide_fast_is_exact_for_the_largest_divisors() {
        for k in 0..64 {
            check_u32(u32::MAX - k, &[]);
            check_i32(i32::MAX - k as i32, &[]);
            check_u64(u64::MAX - k as u64, &[]);
            check_i64(i64::MAX - k as i64, &[]);
            check_u32((1 << 31) + k, &[]);
            check_u64((1 << 63) + k as u64, &[]);
        }
    }

    #[test]
    fn division_magic_refuses_a_negative_divisor() {
        assert_eq!(i32::division_magic(-1), None);
        assert_eq!(i64::division_magic(i64::MIN), None);
    }
}
