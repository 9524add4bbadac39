use super::algorithm::*;
use super::masks::*;
use super::padded::{padded_shape, slack};
use super::*;
use std::vec::Vec;

/// Planar source of `c` planes `plane` elements apart (pattern bytes), interleaved
/// destination of `n·c` elements plus guard bytes, both starting `skew` bytes into their
/// buffers; checks `f` against the formula and the guards. The padded transposes may leave
/// scratch bytes in the pixels they did not do (the caller's loop writes those), never past
/// the run; other shapes write nothing past their pixels.
fn check_interleave(
    c: usize,
    size: usize,
    n: usize,
    plane: usize,
    skew: usize,
    f: impl FnOnce(*mut u8, *const u8, isize) -> usize,
) {
    let src: Vec<u8> = (0..skew + c * plane * size)
        .map(|x| (x * 7 + 3) as u8)
        .collect();
    let mut dst = std::vec![0xEEu8; skew + n * c * size + 32];
    let done = f(
        dst[skew..].as_mut_ptr(),
        src[skew..].as_ptr(),
        (plane * size) as isize,
    );
    assert!(done <= n, "c {c} size {size} n {n}: did {done}");
    for p in 0..done {
        for k in 0..c {
            for t in 0..size {
                assert_eq!(
                    dst[skew + (p * c + k) * size + t],
                    src[skew + (k * plane + p) * size + t],
                    "c {c} size {size} n {n} pixel {p} channel {k} byte {t}"
                );
            }
        }
    }
    let untouched = if padded_shape(c, size, true) { n } else { done };
    assert!(
        dst[..skew]
            .iter()
            .chain(&dst[skew + untouched * c * size..])
            .all(|&b| b == 0xEE),
        "c {c} size {size} n {n}: wrote past pixel {untouched}"
    );
}

/// The way back: interleaved source, planar destination with guard bytes between planes.
fn check_deinterleave(
    c: usize,
    size: usize,
    n: usize,
    plane: usize,
    skew: usize,
    f: impl FnOnce(*mut u8, isize, *const u8) -> usize,
) {
    let src: Vec<u8> = (0..skew + n * c * size)
        .map(|x| (x * 5 + 1) as u8)
        .collect();
    let mut dst = std::vec![0xEEu8; skew + c * plane * size];
    let done = f(
        dst[skew..].as_mut_ptr(),
        (plane * size) as isize,
        src[skew..].as_ptr(),
    );
    assert!(done <= n, "c {c} size {size} n {n}: did {done}");
    for k in 0..c {
        for p in 0..plane {
            for t in 0..size {
                let got = dst[skew + (k * plane + p) * size + t];
                if p < done {
                    assert_eq!(
                        got,
                        src[skew + (p * c + k) * size + t],
                        "c {c} size {size} n {n} pixel {p} channel {k} byte {t}"
                    );
                } else {
                    assert_eq!(got, 0xEE, "c {c} size {size}: wrote past pixel {done}");
                }
            }
        }
    }
}

fn portable_shape<const C: usize, const SIZE: usize>() {
    let per = 16 / SIZE;
    let (lengths, skews): (&[usize], &[usize]) = if cfg!(miri) {
        // Past the padded transposes' slack (at most 2 pixels): one whole step.
        (&[per + 3], &[1])
    } else {
        (&[0, 1, per - 1, per, per + 1, 3 * per + 1, 64], &[0, 1, 5])
    };
    for &n in lengths {
        // Whole groups, short of the padded transposes' slack.
        let (there, back) = (
            n.saturating_sub(slack(C, SIZE, true)),
            n.saturating_sub(slack(C, SIZE, false)),
        );
        let (there, back) = (there - there % per, back - back % per);
        for &skew in skews {
            let plane = n + 3;
            check_interleave(C, SIZE, n, plane, skew, |d, s, pl| {
                // SAFETY: the buffers hold the planes and the pixels (the helper's sizes).
                let done =
                    unsafe { run::<portable::Portable, C, SIZE, true>(d, s, pl, n, false, C) };
                assert_eq!(done, there, "whole groups only");
                done
            });
            check_deinterleave(C, SIZE, n, plane, skew, |d, pl, s| {
                // SAFETY: as above.
                let done =
                    unsafe { run::<portable::Portable, C, SIZE, false>(d, s, pl, n, false, C) };
                assert_eq!(done, back, "whole groups only");
                done
            });
        }
    }
}

/// `portable_shape` for each channel count, for 1-, 2- and 4-byte elements.
macro_rules! portable_shapes {
    ($($c:literal)*) => {
        $(
            portable_shape::<$c, 1>();
            portable_shape::<$c, 2>();
            portable_shape::<$c, 4>();
        )*
    };
}

#[test]
fn portable_twin_moves_every_shape() {
    portable_shapes!(2 3 4 5 6 7 8 9 10 11 12 13 14 15 16);
    portable_shape::<2, 8>();
    portable_shape::<3, 8>();
    portable_shape::<4, 8>();
}

/// `interleave` and `deinterleave` (shuffles and tail loops) for `c` channels of `T` against
/// the index formulas: `n` pixels, planes `plane` elements apart, both slices starting `skew`
/// elements into their buffers, guards around and between.
fn whole_block<T: Copy + PartialEq + core::fmt::Debug + 'static>(
    value: impl Fn(usize) -> T,
    guard: T,
    c: usize,
    n: usize,
    plane: usize,
    skew: usize,
    stream: bool,
) {
    let src: Vec<T> = (0..skew + c * plane).map(&value).collect();
    let mut dst = std::vec![guard; skew + n * c + 40];
    // SAFETY: the source holds `c` planes of `plane >= n` elements, the destination `n` dense
    // pixels of `c` channels; distinct buffers.
    unsafe {
        interleave(
            dst[skew..].as_mut_ptr(),
            c,
            src[skew..].as_ptr(),
            plane as isize,
            c,
            n,
            stream,
        );
    }
    for (i, &x) in dst.iter().enumerate() {
        let want = match i.checked_sub(skew) {
            Some(o) if o < n * c => src[skew + (o % c) * plane + o / c],
            _ => guard,
        };
        assert_eq!(
            x, want,
            "interleave c {c} n {n} plane {plane} skew {skew} at {i}"
        );
    }
    let src: Vec<T> = (0..skew + n * c).map(&value).collect();
    let mut dst = std::vec![guard; skew + c * plane + 40];
    // SAFETY: as above, the roles swapped; the planes are disjoint (`plane >= n`).
    unsafe {
        deinterleave(
            dst[skew..].as_mut_ptr(),
            plane as isize,
            src[skew..].as_ptr(),
            c,
            c,
            n,
            stream,
        );
    }
    for (i, &x) in dst.iter().enumerate() {
        let want = match i.checked_sub(skew) {
            Some(o) if o < c * plane && o % plane < n => src[skew + (o % plane) * c + o / plane],
            _ => guard,
        };
        assert_eq!(
            x, want,
            "deinterleave c {c} n {n} plane {plane} skew {skew} at {i}"
        );
    }
}

/// Every channel count 2..=16 of `T`, every width 1..=70 (a few under Miri), odd and even
/// plane strides, aligned and unaligned slices.
fn every_channel_count<T: Copy + PartialEq + core::fmt::Debug + 'static>(
    value: impl Fn(usize) -> T,
    guard: T,
) {
    let widths: std::vec::Vec<usize> = if cfg!(miri) {
        std::vec![17]
    } else {
        (1..=70).collect()
    };
    // Miri: one multiple of each group width and odd counts of both ways.
    let counts: std::vec::Vec<usize> = if cfg!(miri) {
        std::vec![5, 8, 12, 16]
    } else {
        (2..=16).collect()
    };
    for c in counts {
        for &n in &widths {
            let configs: &[(usize, usize)] = if cfg!(miri) {
                &[(3, 1)]
            } else {
                &[(0, 0), (3, 1), (8, 3)]
            };
            for &(extra, skew) in configs {
                whole_block(&value, guard, c, n, n + extra, skew, false);
            }
        }
    }
}

#[test]
fn every_channel_count_and_width_matches_the_formula() {
    every_channel_count::<u8>(|i| (i * 7 + 3) as u8, 0xEE);
    every_channel_count::<u16>(|i| (i * 7 + 3) as u16, 0xEEEE);
    every_channel_count::<f32>(|i| f32::from(i as u16) + 0.5, -1.0);
}

/// `deinterleave` of a partial interleave block: `c` channels in pixels of `px > c` lanes,
/// from a source that ends at the last pixel's last channel (so reading its other lanes
/// would leave the slice), against the index formula.
fn partial_block<T: Copy + PartialEq + core::fmt::Debug + 'static>(
    value: impl Fn(usize) -> T,
    guard: T,
    c: usize,
    px: usize,
    n: usize,
    stream: bool,
) {
    let plane = n + 1;
    let src: Vec<T> = (0..(n - 1) * px + c).map(&value).collect();
    let mut dst = std::vec![guard; c * plane];
    // SAFETY: every `s + j·px + k` (`j < n`, `k < c`) is in the source, which is exactly that
    // long; the destination holds `c` disjoint planes of `plane >= n` elements.
    unsafe {
        deinterleave(
            dst.as_mut_ptr(),
            plane as isize,
            src.as_ptr(),
            px,
            c,
            n,
            stream,
        );
    }
    for (i, &x) in dst.iter().enumerate() {
        let (k, j) = (i / plane, i % plane);
        let want = if j < n { src[j * px + k] } else { guard };
        assert_eq!(
            x, want,
            "partial c {c} px {px} n {n} at channel {k} pixel {j}"
        );
    }
}

/// `interleave` into a partial interleave block: `c` channels of `T` in pixels of `px >= c`
/// lanes, planes `n + 3` elements apart, both slices starting `skew` elements into their
/// buffers; the lanes `c..px` of every pixel and the guards after the last pixel must keep
/// the guard value.
fn partial_interleave<T: Copy + PartialEq + core::fmt::Debug + 'static>(
    value: impl Fn(usize) -> T,
    guard: T,
    c: usize,
    px: usize,
    n: usize,
    skew: usize,
) {
    let plane = n + 3;
    let src: Vec<T> = (0..skew + c * plane).map(&value).collect();
    let mut dst = std::vec![guard; skew + n * px + 40];
    // SAFETY: the source holds `c` planes of `plane >= n` elements, the destination `n`
    // pixels of `px` lanes; distinct buffers.
    unsafe {
        interleave(
            dst[skew..].as_mut_ptr(),
            px,
            src[skew..].as_ptr(),
            plane as isize,
            c,
            n,
            false,
        );
    }
    for (i, &x) in dst.iter().enumerate() {
        let want = match i.checked_sub(skew) {
            Some(o) if o < n * px && o % px < c => src[skew + (o % px) * plane + o / px],
            _ => guard,
        };
        assert_eq!(
            x, want,
            "partial interleave c {c} px {px} n {n} skew {skew} at {i}"
        );
    }
}

#[test]
fn partial_blocks_interleave_four_byte_elements_keep_padding_lanes() {
    let widths: Vec<usize> = if cfg!(miri) {
        std::vec![0, 9, 18]
    } else {
        (0..=70).collect()
    };
    let skews: &[usize] = if cfg!(miri) { &[1] } else { &[0, 1, 2, 3] };
    for c in 2..=4 {
        for px in c..=8 {
            for &n in &widths {
                for &skew in skews {
                    partial_interleave::<f32>(|i| f32::from(i as u16) + 0.5, -1.0, c, px, n, skew);
                    partial_interleave::<u32>(|i| i as u32 * 7 + 3, 0xEEEE_EEEE, c, px, n, skew);
                }
            }
        }
    }
}

#[test]
fn partial_blocks_deinterleave_every_channel_count() {
    let widths: std::vec::Vec<usize> = if cfg!(miri) {
        std::vec![18]
    } else {
        (1..=70).collect()
    };
    let counts: std::vec::Vec<usize> = if cfg!(miri) {
        std::vec![3, 6]
    } else {
        (2..=15).collect()
    };
    for c in counts {
        let lanes: &[usize] = if cfg!(miri) { &[16] } else { &[c + 1, 8, 16] };
        for &px in lanes.iter().filter(|&&px| px > c) {
            for &n in &widths {
                partial_block::<u8>(|i| (i * 7 + 3) as u8, 0xEE, c, px, n, false);
                partial_block::<u16>(|i| (i * 7 + 3) as u16, 0xEEEE, c, px, n, false);
                partial_block::<f32>(|i| f32::from(i as u16) + 0.5, -1.0, c, px, n, false);
            }
        }
    }
    for (c, px) in [(2, 4), (3, 4)] {
        for n in [1, 5, 17] {
            partial_block::<u64>(|i| i as u64, u64::MAX, c, px, n, false);
        }
    }
}

/// Partial blocks the shuffles leave to the element loop (pixels of 20 `u8` lanes, 17 `u16`,
/// 8 `u64`: no group kernel takes them, checked first) over several of its strips
/// ([`STRIP_BYTES`] of source each) and a partial last strip, against the index formula.
#[test]
fn partial_blocks_past_a_strip_move_plane_by_plane() {
    fn left_to_strips<T: Copy + Default + 'static>(c: usize, px: usize, n: usize) {
        let src = std::vec![T::default(); n * px];
        let mut dst = std::vec![T::default(); c * n];
        // SAFETY: `n` whole pixels of `px` lanes in the source, `c` planes of `n` in the
        // destination, disjoint allocations.
        let done = unsafe {
            deinterleave_groups(dst.as_mut_ptr(), n as isize, src.as_ptr(), px, c, n, false)
        };
        assert_eq!(done, 0, "c {c} px {px}: a group kernel took the block");
    }
    // Miri: one strip boundary each, the fewest pixels that cross it.
    let strips = if cfg!(miri) { 1 } else { 3 };
    let n = |px: usize, size: usize| (STRIP_BYTES / (px * size)) * strips + 5;
    left_to_strips::<u8>(3, 20, n(20, 1));
    partial_block::<u8>(|i| (i * 7 + 3) as u8, 0xEE, 3, 20, n(20, 1), false);
    left_to_strips::<u16>(2, 17, n(17, 2));
    partial_block::<u16>(|i| (i * 7 + 3) as u16, 0xEEEE, 2, 17, n(17, 2), false);
    left_to_strips::<u64>(3, 8, n(8, 8));
    partial_block::<u64>(|i| i as u64, u64::MAX, 3, 8, n(8, 8), false);
}

#[test]
#[cfg_attr(
    miri,
    ignore = "long runs are slow under Miri, and the twin does not stream"
)]
fn many_channels_stream_long_runs() {
    // Runs past `long_run`, every alignment of the destination, odd plane strides.
    for skew in 0..4 {
        whole_block::<u16>(|i| (i * 7 + 3) as u16, 0xEEEE, 8, 3001, 3004, skew, true);
        whole_block::<f32>(|i| f32::from(i as u16), -1.0, 6, 1501, 1502, skew, true);
        whole_block::<u8>(|i| (i * 7 + 3) as u8, 0xEE, 16, 1203, 1210, skew, true);
        whole_block::<f32>(|i| f32::from(i as u16), -1.0, 12, 601, 607, skew, true);
        whole_block::<u8>(|i| (i * 7 + 3) as u8, 0xEE, 5, 4001, 4001, skew, true);
    }
    partial_block::<u16>(|i| (i * 7 + 3) as u16, 0xEEEE, 6, 8, 3001, true);
    partial_block::<f32>(|i| f32::from(i as u16), -1.0, 2, 4, 5003, true);
}

/// Whether this target has a backend for `c` channels (else the entry points do nothing,
/// by design).
fn has_backend(c: usize) -> bool {
    #[cfg(x86_kernels)]
    {
        crate::kernel::cpu::has_avx2() || (c <= 4 && crate::kernel::cpu::has_ssse3())
    }
    #[cfg(not(x86_kernels))]
    {
        let _ = c;
        cfg!(any(miri, neon_kernels))
    }
}

/// The target's backend through the public entry points, with and without streaming.
fn backend<T: Copy + 'static>() {
    let size = size_of::<T>();
    // Miri runs the portable twin, slowly: a few lengths, one skew, no streaming.
    let (lengths, skews, streams): (&[usize], &[usize], &[bool]) = if cfg!(miri) {
        (&[33], &[size], &[false])
    } else {
        (
            &[0, 1, 7, 31, 32, 33, 100, 257],
            &[0, size, 3 * size],
            &[false, true],
        )
    };
    let most = if size == 8 { 4 } else { 16 };
    // Miri runs the portable twin of every shape in `portable_twin_moves_every_shape`.
    let counts: std::vec::Vec<usize> = if cfg!(miri) {
        std::vec![2, 3, 4]
    } else {
        (2..=most).collect()
    };
    for c in counts {
        for &n in lengths {
            for &skew in skews {
                for &stream in streams {
                    let plane = n + 2;
                    // A run of two or more steps is shuffled, not left to the caller.
                    let shuffled = |done: usize| {
                        assert!(!has_backend(c) || n < 64 || done > 0, "c {c} n {n}: none");
                        done
                    };
                    check_interleave(c, size, n, plane, skew, |d, s, pl| {
                        // SAFETY: the buffers hold the planes and the pixels; `T`-sized
                        // steps, and `T` is only moved as bytes.
                        shuffled(unsafe {
                            interleave_groups::<T>(
                                d.cast(),
                                s.cast(),
                                pl / size as isize,
                                c,
                                n,
                                stream,
                            )
                        })
                    });
                    check_deinterleave(c, size, n, plane, skew, |d, pl, s| {
                        // SAFETY: as above.
                        shuffled(unsafe {
                            deinterleave_groups::<T>(
                                d.cast(),
                                pl / size as isize,
                                s.cast(),
                                c,
                                c,
                                n,
                                stream,
                            )
                        })
                    });
                }
            }
        }
    }
}

/// SSSE3 directly (the dispatch prefers AVX2 where both exist).
#[cfg(x86_kernels)]
fn ssse3_shape<const C: usize, const SIZE: usize>() {
    if !crate::kernel::cpu::has_ssse3() {
        return;
    }
    for n in [0, 1, 15, 16, 17, 100] {
        for (skew, stream) in [(0, false), (1, true), (3, true)] {
            check_interleave(C, SIZE, n, n + 1, skew, |d, s, pl| {
                // SAFETY: SSSE3 is present; the buffers hold the planes and the pixels.
                unsafe { x86::ssse3::<C, SIZE, true>(d, s, pl, n, stream, C) }
            });
            check_deinterleave(C, SIZE, n, n + 16, skew, |d, pl, s| {
                // SAFETY: as above.
                unsafe { x86::ssse3::<C, SIZE, false>(d, s, pl, n, stream, C) }
            });
        }
    }
}

#[cfg(x86_kernels)]
#[test]
fn ssse3_backend_moves_every_shape() {
    ssse3_shape::<2, 1>();
    ssse3_shape::<3, 1>();
    ssse3_shape::<4, 1>();
    ssse3_shape::<3, 2>();
    ssse3_shape::<3, 4>();
    ssse3_shape::<2, 8>();
    ssse3_shape::<4, 8>();
    ssse3_shape::<5, 1>();
    ssse3_shape::<16, 1>();
    ssse3_shape::<6, 2>();
    ssse3_shape::<8, 2>();
    ssse3_shape::<16, 2>();
    ssse3_shape::<6, 4>();
    ssse3_shape::<7, 4>();
    ssse3_shape::<8, 4>();
    ssse3_shape::<12, 4>();
}

#[test]
fn backend_moves_every_primitive_size() {
    backend::<u8>();
    backend::<i16>();
    backend::<f32>();
    backend::<u64>();
}

#[test]
#[cfg_attr(
    miri,
    ignore = "the portable twin does not stream; long runs are slow there"
)]
fn streaming_aligns_planes_that_allow_it() {
    // Planes a multiple of 64 bytes apart: every plane can be aligned at once.
    // Runs long enough to stream (`long_run`), with every skew of the destination.
    let n = 6000;
    assert!(long_run(n, 3, 1) && !long_run(100, 3, 4));
    for skew in 0..8 {
        check_deinterleave(3, 1, n, n + 64 - n % 64, skew, |d, pl, s| {
            // SAFETY: the buffers hold the planes and the pixels.
            unsafe { deinterleave_groups::<u8>(d, pl, s, 3, 3, n, true) }
        });
        check_interleave(3, 4, n, n + 1, skew * 4, |d, s, pl| {
            // SAFETY: as above.
            unsafe { interleave_groups::<f32>(d.cast(), s.cast(), pl / 4, 3, n, true) }
        });
    }
}

#[test]
fn other_shapes_and_types_are_left_to_the_caller() {
    #[derive(Clone, Copy)]
    struct Rgb(#[expect(dead_code, reason = "only the type's size matters")] u8);
    let (mut d, s) = ([0u8; 64], [0u8; 64]);
    // SAFETY: 17 channels are not shuffled, so nothing is touched.
    let done = unsafe { interleave_groups::<u8>(d.as_mut_ptr(), s.as_ptr(), 8, 17, 3, false) };
    assert_eq!(done, 0);
    // SAFETY: nor 5 channels of 8 bytes.
    let done = unsafe {
        interleave_groups::<u64>(d.as_mut_ptr().cast(), s.as_ptr().cast(), 1, 5, 1, false)
    };
    assert_eq!(done, 0);
    // SAFETY: a user type is not plain, so nothing is touched.
    let done = unsafe {
        interleave_groups::<Rgb>(d.as_mut_ptr().cast(), s.as_ptr().cast(), 16, 2, 16, false)
    };
    assert_eq!(done, 0);
}

#[test]
fn masks_pick_each_byte_once() {
    // Every interleaved byte of a group comes from exactly one plane byte, and back.
    fn once<const C: usize>(size: usize) {
        let inter = masks::<C>(size, true);
        for chunk in &inter {
            for b in 0..16 {
                assert_eq!(chunk.iter().filter(|m| m[b] != 0x80).count(), 1);
            }
        }
        let de = masks::<C>(size, false);
        for plane in &de {
            for b in 0..16 {
                assert_eq!(plane.iter().filter(|m| m[b] != 0x80).count(), 1);
            }
        }
    }
    for size in [1, 2, 4, 8] {
        once::<2>(size);
        once::<3>(size);
        once::<4>(size);
    }
    for size in [1, 2, 4] {
        once::<5>(size);
        once::<6>(size);
        once::<8>(size);
        once::<15>(size);
        once::<16>(size);
    }
}

#[test]
fn padded_transposes_leave_at_most_two_pixels_and_cover_the_slow_masks() {
    for size in [1, 2, 4] {
        for c in 2..=16 {
            for inter in [true, false] {
                // The Miri lengths above rely on this bound.
                assert!(slack(c, size, inter) <= 2, "c {c} size {size}");
                // Never for the shapes the masks or square transposes serve.
                if c <= 5 || c % (16 / size) == 0 {
                    assert!(!padded_shape(c, size, inter), "c {c} size {size}");
                }
            }
            // More than 9 channels of every size take them towards the interleaved side
            // unless they are square.
            if c >= 10 && c % (16 / size) != 0 {
                assert!(padded_shape(c, size, true), "c {c} size {size}");
            }
        }
    }
}

/// Rows of one channel, gathered (`insert` false) or scattered: `rows` rows of `n` pixels of
/// `px` lanes of `size` bytes on the strided side and of `n` consecutive elements on the
/// other (running down from each row's start when `rev`), pattern bytes in the source and
/// other pattern bytes in the destination, rows apart by more than they hold; checks `f`'s
/// count (the same for every row, below `n`) against the formula, and every other
/// destination byte kept.
fn check_one_channel(
    insert: bool,
    [px, size, rows, n]: [usize; 4],
    rev: bool,
    f: impl FnOnce(*mut u8, isize, *const u8, isize) -> usize,
) {
    let (pixels, run) = (n * px * size + 5 * size, n * size + 3 * size);
    let (sr, dr) = if insert { (run, pixels) } else { (pixels, run) };
    let src: Vec<u8> = (0..rows * sr + 16).map(|x| (x * 7 + 3) as u8).collect();
    let before: Vec<u8> = (0..rows * dr + 16)
        .map(|x| (x * 5 + 1) as u8 | 0x80)
        .collect();
    let mut dst = before.clone();
    // The consecutive side starts at its highest element when it runs down.
    let first = if rev { n.saturating_sub(1) * size } else { 0 };
    let (d, s) = if insert {
        (dst.as_mut_ptr(), src.as_ptr().wrapping_add(first))
    } else {
        (dst.as_mut_ptr().wrapping_add(first), src.as_ptr())
    };
    let done = f(d, dr as isize, s, sr as isize);
    let what = std::format!("insert {insert} px {px} size {size} rows {rows} n {n} rev {rev}");
    assert!(done < n.max(1), "{what}: did {done}");
    let mut expect = before;
    for r in 0..rows {
        for p in 0..done {
            let (run_at, px_at) = (if rev { first - p * size } else { p * size }, p * px * size);
            let (to, from) = if insert {
                (px_at, run_at)
            } else {
                (run_at, px_at)
            };
            for t in 0..size {
                expect[r * dr + to + t] = src[r * sr + from + t];
            }
        }
    }
    assert!(dst == expect, "{what}: wrong or changed bytes");
}

/// [`one_channel`] (the dispatch: AVX2, SSSE3 or NEON where present, the portable twin under
/// Miri) for every pixel it takes of `T`, both ways round, a few rows.
fn one_channel_every_pixel<T: 'static, const INSERT: bool>() {
    let size = size_of::<T>();
    // Under Miri (the portable twin, 16 bytes a step) a few shapes: every other is the
    // same loops with other masks.
    let (lengths, pixels, rows_of): (&[usize], &[usize], &[usize]) = if cfg!(miri) {
        (&[40], &[2, 3], &[2])
    } else {
        (
            &[0, 1, 2, 15, 16, 17, 33, 64, 65, 100],
            &[2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16],
            &[1, 3],
        )
    };
    for &px in pixels {
        for &n in lengths {
            for rev in [false, true] {
                for &rows in rows_of {
                    check_one_channel(INSERT, [px, size, rows, n], rev, |d, dr, s, sr| {
                        // SAFETY: every row's pixels and consecutive elements lie in their
                        // buffers (16 bytes of slack past the last row), distinct buffers
                        // that this test alone uses.
                        let done = unsafe {
                            one_channel::<T, INSERT>(
                                d.cast(),
                                dr / size as isize,
                                s.cast(),
                                sr / size as isize,
                                px,
                                rev,
                                rows,
                                n,
                            )
                        };
                        // Pixels past 16 bytes (past 4 lanes of 8 bytes) are not taken;
                        // where a backend runs (not i686 or bare metal), long rows are.
                        if if size == 8 { px > 4 } else { px * size > 16 } {
                            assert_eq!(done, 0);
                        } else if cfg!(any(x86_kernels, neon_kernels, miri)) && n >= 40 {
                            assert!(done > 0, "px {px} size {size} n {n}");
                        }
                        done
                    });
                }
            }
        }
    }
}

#[test]
fn one_channel_moves_every_pixel_both_ways_keeping_the_rest() {
    one_channel_every_pixel::<u8, false>();
    one_channel_every_pixel::<u16, false>();
    one_channel_every_pixel::<f32, false>();
    one_channel_every_pixel::<u64, false>();
    one_channel_every_pixel::<u8, true>();
    one_channel_every_pixel::<u16, true>();
    one_channel_every_pixel::<f32, true>();
    one_channel_every_pixel::<u64, true>();
}

/// The portable twin (what Miri runs) and SSSE3 (the dispatch prefers AVX2) directly, both
/// ways.
#[test]
#[cfg_attr(miri, ignore = "the dispatch test runs the portable twin under Miri")]
fn one_channel_units_agree_with_the_formula() {
    fn units<const C: usize, const SIZE: usize, const INSERT: bool>() {
        for n in [0, 1, 16, 17, 40, 100] {
            for rev in [false, true] {
                let band = |d, dr, s, sr| Band {
                    d,
                    dr,
                    s,
                    sr,
                    rev,
                    rows: 2,
                    n,
                };
                check_one_channel(INSERT, [C, SIZE, 2, n], rev, |d, dr, s, sr| {
                    // SAFETY: as in `one_channel_every_pixel`; the portable unit needs no
                    // feature.
                    unsafe {
                        one_channel_on::<portable::Portable, C, SIZE, INSERT>(band(d, dr, s, sr))
                    }
                });
                #[cfg(x86_kernels)]
                if C <= 4 && crate::kernel::cpu::has_ssse3() {
                    check_one_channel(INSERT, [C, SIZE, 2, n], rev, |d, dr, s, sr| {
                        // SAFETY: as above; SSSE3 is present.
                        unsafe { x86::ssse3_one::<C, SIZE, INSERT>(band(d, dr, s, sr)) }
                    });
                }
            }
        }
    }
    fn both<const C: usize, const SIZE: usize>() {
        units::<C, SIZE, false>();
        units::<C, SIZE, true>();
    }
    both::<2, 1>();
    both::<3, 1>();
    both::<16, 1>();
    both::<2, 2>();
    both::<3, 2>();
    both::<8, 2>();
    both::<2, 4>();
    both::<4, 4>();
    both::<2, 8>();
    both::<3, 8>();
    both::<4, 8>();
}

#[test]
fn one_channel_masks_pick_plane_zero_in_order_and_reversed() {
    fn plane<const C: usize, const SIZE: usize>() {
        let e = 16 / SIZE;
        for b in 0..16 {
            // Byte `b` of the plane: byte `b % SIZE` of pixel `b / SIZE`, at interleaved
            // byte `(b / SIZE)·C·SIZE + b % SIZE`, in chunk `/ 16`, position `% 16`; the
            // plane reversed has it at `rb`.
            let o = (b / SIZE) * C * SIZE + b % SIZE;
            let rb = (e - 1 - b / SIZE) * SIZE + b % SIZE;
            for m in 0..C {
                let want = if o / 16 == m { (o % 16) as u8 } else { 0x80 };
                assert_eq!(Masks::<C, SIZE>::EXTRACT[m][b], want, "C {C} SIZE {SIZE}");
                assert_eq!(Masks::<C, SIZE>::EXTRACT_REVERSED[m][rb], want);
            }
            let (m, at) = (o / 16, o % 16);
            assert_eq!(
                usize::from(Masks::<C, SIZE>::INSERT[m][at]),
                b,
                "C {C} SIZE {SIZE}"
            );
            assert_eq!(usize::from(Masks::<C, SIZE>::INSERT_REVERSED[m][at]), rb);
            assert_eq!(Masks::<C, SIZE>::INSERT_SELECT[m][at], 0xFF);
        }
        // Nothing else is picked or selected: 16 bytes of plane 0 in all the chunks.
        let picked = Masks::<C, SIZE>::INSERT
            .iter()
            .flatten()
            .filter(|&&x| x != 0x80)
            .count();
        let selected = Masks::<C, SIZE>::INSERT_SELECT
            .iter()
            .flatten()
            .filter(|&&x| x == 0xFF)
            .count();
        assert_eq!((picked, selected), (16, 16), "C {C} SIZE {SIZE}");
    }
    plane::<2, 1>();
    plane::<5, 1>();
    plane::<16, 1>();
    plane::<3, 2>();
    plane::<8, 2>();
    plane::<3, 4>();
    plane::<2, 8>();
    plane::<3, 8>();
    plane::<4, 8>();
}

/// [`shuffles_a_step`] against what the group kernels do, on every shape they take (1-, 2-
/// and 4-byte channels in pixels of 2 to 16 lanes, 8-byte ones of 2 to 4), dense or with
/// lanes past the channels, and into dense pixels: wherever the shuffles move pixels it says
/// they move a step (so `block_kind` never sends a block they would move to the element
/// loop), and where it says so they nearly always do.
#[test]
fn shuffles_a_step_where_the_group_kernels_move_pixels() {
    fn check<T: Copy + Default + 'static>(most_lanes: usize) {
        let (mut moved, mut stepped) = (0usize, 0usize);
        let (mut into_moved, mut into_stepped) = (0usize, 0usize);
        // Miri: the widths about one portable step, a few pixel widths.
        let pixels = if cfg!(miri) { 15..=17 } else { 1..=70 };
        let lanes: std::vec::Vec<usize> = if cfg!(miri) {
            std::vec![2, 3, most_lanes]
        } else {
            (2..=most_lanes).collect()
        };
        for lanes in lanes {
            let counts = if cfg!(miri) { lanes..=lanes } else { 2..=lanes };
            for c in counts {
                for n in pixels.clone() {
                    let dense = c == lanes;
                    // A partial block's source ends at the last pixel's last channel.
                    let src = std::vec![T::default(); (n - 1) * lanes + c];
                    let mut dst = std::vec![T::default(); c * n];
                    let whole = if dense { n } else { n - 1 };
                    // SAFETY: every `s + j·lanes + k` (`j < n`, `k < c`) lies in the source,
                    // `c` planes of `n` in the destination, disjoint allocations.
                    let done = unsafe {
                        deinterleave_groups(
                            dst.as_mut_ptr(),
                            n as isize,
                            src.as_ptr(),
                            lanes,
                            c,
                            whole,
                            false,
                        )
                    };
                    let size = size_of::<T>();
                    let step = shuffles_a_step::<T>(n, lanes, c);
                    assert!(
                        step || done == 0,
                        "size {size} lanes {lanes} c {c} n {n}: {done} moved, no step said"
                    );
                    moved += usize::from(done > 0);
                    stepped += usize::from(step);
                    // The way into dense pixels, which the rule decides (pixels with lanes
                    // past their channels take their kernel, [`interleave_partial`], or its
                    // element loop, whatever the width).
                    if dense {
                        let planar = std::vec![T::default(); c * n];
                        let mut pixels = std::vec![T::default(); n * c];
                        let (d, s, plane) = (pixels.as_mut_ptr(), planar.as_ptr(), n as isize);
                        // SAFETY: `c` planes of `n` in the source, `n·c` elements from `d`,
                        // disjoint allocations.
                        let done = unsafe { interleave_groups(d, s, plane, c, n, false) };
                        assert!(
                            step || done == 0,
                            "into pixels: size {size} c {c} n {n}: {done} moved, no step said"
                        );
                        into_moved += usize::from(done > 0);
                        into_stepped += usize::from(step);
                    }
                }
            }
        }
        // The rule is the step alone: a few shapes take more pixels than a step before their
        // kernels move any (padded transposes of partial blocks), at most 1 in 32 of those
        // it says a step for (2.3 % of `u8`'s on AVX2; Miri's few widths, just past a step,
        // are mostly such).
        // Targets without shuffles (i686, bare metal) move nothing, and it says so.
        assert_eq!(moved > 0, Target::SHUFFLES, "size {}", size_of::<T>());
        assert!(
            cfg!(miri) || stepped - moved <= stepped / 32,
            "size {}: {moved} moved, {stepped} said to",
            size_of::<T>()
        );
        assert_eq!(
            into_moved > 0,
            Target::SHUFFLES,
            "into pixels: size {}",
            size_of::<T>()
        );
        assert!(
            cfg!(miri) || into_stepped - into_moved <= into_stepped / 32,
            "into pixels: size {}: {into_moved} moved, {into_stepped} said to",
            size_of::<T>()
        );
    }
    check::<u8>(16);
    check::<u16>(16);
    check::<u32>(16);
    check::<u64>(4);
}
