//! The copy kernels with an interleaved layout on either side (issue "Interleaved and blocked
//! layouts"): planar <-> interleaved, partial last blocks, small factors, against an
//! element-by-element reference through `offset_of`.

use proptest::prelude::*;
use strided_layout::{InterleaveLayout, InterleavedLayout, Layout, LayoutError, Order};

/// Few cases under Miri, and no failure files there (they need `getcwd`, which Miri's
/// isolation refuses).
fn config(cases: u32) -> ProptestConfig {
    let mut c = ProptestConfig::with_cases(if cfg!(miri) {
        4
    } else {
        crate::common::cases(cases)
    });
    if cfg!(miri) {
        c.failure_persistence = None;
    }
    c
}

/// A dense interleaved layout of `shape` on a random axis and factor (partial blocks
/// included), with a random permutation of its axes so block strides are not always outer.
fn interleaved<const N: usize>() -> impl Strategy<Value = InterleavedLayout<N>> {
    (
        proptest::array::uniform::<_, N>(1usize..=7),
        0..N.max(1),
        1usize..=9,
    )
        .prop_filter_map("valid", |(shape, d, f)| {
            let il = InterleaveLayout::new(d, f).ok()?;
            InterleavedLayout::dense(shape, 4, il).ok()
        })
}

fn dst_len<const N: usize>(l: &InterleavedLayout<N>) -> usize {
    l.offset_bounds().map_or(0, |(_, hi)| hi as usize + 1)
}

fn check<const N: usize>(il: InterleavedLayout<N>) -> Result<(), TestCaseError> {
    let planar = Layout::dense(il.shape(), 4, Order::C).unwrap();
    let src: Vec<u32> = (0..planar.volume() as u32).map(|x| x * 7 + 1).collect();
    let len = dst_len(&il);
    // Planar -> interleaved: padding slots keep their sentinel.
    let mut dst = vec![u32::MAX; len];
    strided_layout::copy(&src, &planar, &mut dst, &il).unwrap();
    let mut touched = vec![false; len];
    for ix in crate::common::indices(&il.shape()) {
        let ixa: [usize; N] = ix.clone().try_into().unwrap();
        let o = il.offset_of(ixa).unwrap() as usize;
        let p = planar.offset_of(ixa).unwrap() as usize;
        prop_assert_eq!(dst[o], src[p], "index {:?}", ix);
        touched[o] = true;
    }
    for (o, t) in touched.iter().enumerate() {
        if !t {
            prop_assert_eq!(dst[o], u32::MAX, "padding slot {} was written", o);
        }
    }
    // Interleaved -> planar: the round trip gives the source back.
    let mut back = vec![0u32; src.len()];
    strided_layout::copy(&dst, &il, &mut back, &planar).unwrap();
    prop_assert_eq!(back, src);
    Ok(())
}

proptest! {
    #![proptest_config(config(256))]
    #[test] fn interleaved_copy_rank1(l in interleaved::<1>()) { check(l)?; }
    #[test] fn interleaved_copy_rank2(l in interleaved::<2>()) { check(l)?; }
    #[test] fn interleaved_copy_rank3(l in interleaved::<3>()) { check(l)?; }
}

#[test]
fn chw_to_hwc_and_back() -> Result<(), LayoutError> {
    let chw = Layout::dense([3, 4, 5], 1, Order::C)?;
    let hwc = InterleavedLayout::dense([3, 4, 5], 1, InterleaveLayout::new(0, 3)?)?;
    let src: Vec<u8> = (0..60).collect();
    let mut dst = vec![0u8; 60];
    strided_layout::copy(&src, &chw, &mut dst, &hwc)?;
    // Pixel (h, w) holds its three channels side by side.
    assert_eq!(&dst[..6], &[0, 20, 40, 1, 21, 41]);
    let mut back = vec![0u8; 60];
    strided_layout::copy(&dst, &hwc, &mut back, &chw)?;
    assert_eq!(back, src);
    Ok(())
}

#[test]
fn ten_channels_in_blocks_of_four_pad_the_last_block() -> Result<(), LayoutError> {
    let planar = Layout::dense([10, 2], 4, Order::C)?;
    let blocked = InterleavedLayout::dense([10, 2], 4, InterleaveLayout::new(0, 4)?)?;
    // Offsets 8 * block + lane + 4 * column: the last element (channel 9, column 1) is at 21.
    assert_eq!(blocked.strides(), [8, 4]);
    assert_eq!(blocked.required_size_in_bytes()?, 22 * 4);
    let src: Vec<f32> = (0..20).map(|x| x as f32).collect();
    let mut dst = vec![-1.0f32; blocked.required_size_in_bytes()? / 4];
    strided_layout::copy(&src, &planar, &mut dst, &blocked)?;
    // Block 2 holds channels 8 and 9, then two padding lanes, for each of the 2 columns.
    assert_eq!(&dst[16..], &[16.0, 18.0, -1.0, -1.0, 17.0, 19.0]);
    Ok(())
}

/// The channel kernels at vector lengths, through `copy`: planar -> interleaved and back for
/// `c` channels in blocks of `f` (whole blocks, and partial last blocks whose padding lanes
/// must stay untouched; 2 to 16 dense channels take the channel kernels, partial blocks of 5
/// or more the transposes), rows long enough for whole vectors plus a tail, and slices that
/// start `skew` elements into their buffers (so the vectors are not aligned).
fn channel_sweep<T: Copy + PartialEq + 'static + std::fmt::Debug + From<u8>>() {
    let size = std::mem::size_of::<T>();
    let widths: &[usize] = if cfg!(miri) {
        &[37]
    } else {
        &[1, 33, 200, 517]
    };
    let skews: &[usize] = if cfg!(miri) { &[1] } else { &[0, 1, 3] };
    let shapes: &[(usize, usize)] = if cfg!(miri) {
        &[(3, 3), (4, 4), (2, 4), (9, 8), (6, 6)]
    } else {
        &[
            (2, 2),
            (3, 3),
            (4, 4),
            (2, 4),
            (3, 4),
            (5, 4),
            (6, 3),
            (4, 2),
            (8, 8),
            (11, 8),
            (16, 16),
            (5, 5),
            (6, 6),
            (7, 7),
            (10, 10),
            (12, 12),
            (13, 13),
            (15, 16),
        ]
    };
    // Not 0 (a kernel that loads zeros for missing channels and writes them to padding
    // lanes would pass) and none of the values, which are 1..=251.
    let sentinel = T::from(255);
    for &(c, f) in shapes {
        for &w in widths {
            for &skew in skews {
                let shape = [c, 2, w];
                let planar = Layout::dense(shape, size, Order::C).unwrap();
                let il =
                    InterleavedLayout::dense(shape, size, InterleaveLayout::new(0, f).unwrap())
                        .unwrap();
                let n = planar.volume();
                let src: Vec<T> = (0..skew + n)
                    .map(|i| T::from((i % 251) as u8 + 1))
                    .collect();
                let len = dst_len(&il);
                let mut dst = vec![sentinel; skew + len];
                strided_layout::copy(&src[skew..], &planar, &mut dst[skew..], &il).unwrap();
                let mut touched = vec![false; len];
                // The model's offsets (not the crate's `offset_of`, which under Miri took
                // most of this test's time).
                let (il_low, planar_low) = (il.lowered(), planar.lowered());
                crate::common::for_each_index(&shape, |ix| {
                    let o = crate::common::lowered_offset(&il_low, ix) as usize;
                    let p = crate::common::lowered_offset(&planar_low, ix) as usize;
                    assert_eq!(
                        dst[skew + o],
                        src[skew + p],
                        "{c}/{f} w {w} skew {skew} at {ix:?}"
                    );
                    touched[o] = true;
                });
                for (o, t) in touched.iter().enumerate() {
                    if !t {
                        assert_eq!(
                            dst[skew + o],
                            sentinel,
                            "{c}/{f} w {w}: padding {o} written"
                        );
                    }
                }
                assert!(dst[..skew].iter().all(|&x| x == sentinel));
                let mut back = vec![sentinel; skew + n];
                strided_layout::copy(&dst[skew..], &il, &mut back[skew..], &planar).unwrap();
                assert_eq!(
                    &back[skew..],
                    &src[skew..],
                    "{c}/{f} w {w} skew {skew}: round trip"
                );
                assert!(back[..skew].iter().all(|&x| x == sentinel));
            }
        }
    }
}

#[test]
fn channel_kernels_at_vector_lengths() {
    channel_sweep::<u8>();
    channel_sweep::<f32>();
    // (Under Miri the 1- and 4-byte ones: the library's channel tests run each element size's
    // kernels there.)
    if !cfg!(miri) {
        channel_sweep::<u16>();
        channel_sweep::<u64>();
    }
}

/// The kernel-parameter type packs an interleaved layout; its device math agrees everywhere.
fn check_param<const N: usize>(il: InterleavedLayout<N>) -> Result<(), TestCaseError> {
    use strided_layout::gpu::KernelLayout;
    let k = KernelLayout::<i32, N>::from_interleaved(&il).unwrap();
    // The `const fn` packs exactly as the generic conversion, for every index type.
    macro_rules! const_is_generic {
        ($($t:ty),*) => {$(
            prop_assert_eq!(
                KernelLayout::<$t, N>::from_interleaved(&il),
                KernelLayout::<$t, N>::try_from(&il)
            );
        )*};
    }
    const_is_generic!(i8, u8, i16, u16, i32, u32, i64, u64);
    for ix in crate::common::indices(&il.shape()) {
        let ixa: [usize; N] = ix.clone().try_into().unwrap();
        let ki: [i32; N] = ixa.map(|i| i as i32);
        prop_assert_eq!(k.offset_of(ki) as isize, il.offset_of(ixa).unwrap());
    }
    Ok(())
}

proptest! {
    #![proptest_config(config(128))]
    #[test] fn interleaved_param_rank2(l in interleaved::<2>()) { check_param(l)?; }
    #[test] fn interleaved_param_rank3(l in interleaved::<3>()) { check_param(l)?; }
}

/// Planar -> one partial interleave block of 4-byte elements through `copy`: `c` channels
/// (2 to 4) in blocks of `px` (`c..=8`) lanes, every pixel count 0..=70 (whole vectors of 8
/// pixels, then a tail), slices `skew` elements into buffers with guards after: the lanes
/// `c..px` of every pixel and the guards keep the sentinel.
fn partial_sweep<T: Copy + PartialEq + 'static + std::fmt::Debug + From<u8>>() {
    let widths: Vec<usize> = if cfg!(miri) {
        vec![0, 9]
    } else {
        (0..=70).collect()
    };
    let skews: &[usize] = if cfg!(miri) { &[1] } else { &[0, 1, 2, 3] };
    // Not 0: the vector path loads zeros for missing channels, so a zero sentinel would
    // hide a padding lane written with them. The values are 1..=251.
    let sentinel = T::from(255);
    for c in 2..=4 {
        for px in c..=8 {
            for &w in &widths {
                for &skew in skews {
                    let shape = [c, w];
                    let planar = Layout::dense(shape, 4, Order::C).unwrap();
                    let il =
                        InterleavedLayout::dense(shape, 4, InterleaveLayout::new(0, px).unwrap())
                            .unwrap();
                    let src: Vec<T> = (0..skew + c * w)
                        .map(|i| T::from((i % 251) as u8 + 1))
                        .collect();
                    let len = dst_len(&il);
                    let mut dst = vec![sentinel; skew + len + 8];
                    strided_layout::copy(&src[skew..], &planar, &mut dst[skew..skew + len], &il)
                        .unwrap();
                    let mut want = vec![sentinel; skew + len + 8];
                    crate::common::for_each_index(&shape, |ix| {
                        let ixa: [usize; 2] = ix.try_into().unwrap();
                        let o = il.offset_of(ixa).unwrap() as usize;
                        let p = planar.offset_of(ixa).unwrap() as usize;
                        want[skew + o] = src[skew + p];
                    });
                    assert_eq!(dst, want, "{c}/{px} w {w} skew {skew}");
                }
            }
        }
    }
}

#[test]
fn partial_blocks_of_four_byte_elements_keep_padding_lanes() {
    partial_sweep::<f32>();
    partial_sweep::<u32>();
}
