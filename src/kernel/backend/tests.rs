//! Every method `Target` overrides against the trait's default (the portable twin, or the
//! plain loop), on blocks with edges on every side: a backend may only be faster.

use std::vec;
use std::vec::Vec;

use super::{Backend, Target};

/// Every default body: the portable twins, no channel shuffles, plain stores.
struct Defaults;

impl Backend for Defaults {
    type Cpu = ();

    fn known() -> Option<()> {
        Some(())
    }
}

/// The backend's CPU facts, detected.
#[cfg_attr(
    not(x86_kernels),
    expect(
        clippy::semicolon_if_nothing_returned,
        reason = "the facts are `()` where no backend detects any (i686, aarch64, Miri)"
    )
)]
fn cpu() -> <Target as Backend>::Cpu {
    Target::detect_now();
    Target::known().expect("detected")
}

/// Distinct values for a buffer of `n` elements.
fn values<T: TryFrom<u64>>(n: usize, seed: u64) -> Vec<T> {
    (0..n as u64)
        .map(|i| {
            let v = i.wrapping_mul(2_654_435_761).wrapping_add(seed) % 251;
            T::try_from(v).ok().expect("fits")
        })
        .collect()
}

/// An `ea × eb` transpose through `f`, into a padded destination.
fn run_transpose<T: Copy + Default>(
    ea: usize,
    eb: usize,
    src: &[T],
    f: impl Fn(*mut T, isize, *const T, isize),
) -> Vec<T> {
    let (dr, sr) = (eb + 3, ea + 5);
    let mut dst = vec![T::default(); ea * dr + 1];
    f(dst.as_mut_ptr(), dr as isize, src.as_ptr(), sr as isize);
    dst
}

#[test]
fn transposes_match_the_portable_twins() {
    let sizes: &[usize] = if cfg!(miri) {
        &[0, 3, 8, 9, 17]
    } else {
        &[0, 1, 3, 4, 7, 8, 9, 15, 16, 17, 31, 33, 64, 70]
    };
    for &ea in sizes {
        for &eb in sizes {
            let sr = ea + 5;
            let n = eb * sr + ea + 1;
            macro_rules! both {
                ($t:ty, $m:ident) => {{
                    let src = values::<$t>(n, 7);
                    // SAFETY: `d + i·dr + j` (`i < ea`, `j < eb`) lies in the padded
                    // destination and `s + i + j·sr` in the source, which are distinct.
                    let ours = run_transpose(ea, eb, &src, |d, dr, s, sr| unsafe {
                        Target::$m(d.cast(), dr, s.cast(), sr, ea, eb)
                    });
                    // SAFETY: as above.
                    let twin = run_transpose(ea, eb, &src, |d, dr, s, sr| unsafe {
                        Defaults::$m(d.cast(), dr, s.cast(), sr, ea, eb)
                    });
                    assert_eq!(ours, twin, "{} {ea} × {eb}", stringify!($m));
                    // And the model: `dst[i·dr + j] = src[i + j·sr]`.
                    let dr = eb + 3;
                    for i in 0..ea {
                        for j in 0..eb {
                            assert_eq!(ours[i * dr + j], src[i + j * sr]);
                        }
                    }
                }};
            }
            both!(u8, transpose1);
            both!(u16, transpose2);
            both!(u32, transpose4);
            both!(u64, transpose8);
            #[cfg_attr(
                not(x86_kernels),
                expect(clippy::unit_arg, reason = "the CPU facts are `()` there (`cpu`)")
            )]
            let tiles8 = Target::has_tiles8(cpu());
            if ea % 8 == 0 && eb % 8 == 0 && tiles8 {
                both!(u32, tiles8);
            }
        }
    }
}

#[test]
fn the_stereo_interleave_matches_the_plain_loop() {
    for n in [0, 1, 2, 3, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 100] {
        macro_rules! both {
            ($t:ty) => {{
                let sr = n as isize + 3;
                let src = values::<$t>(2 * n + 3, 11);
                let mut ours = vec![<$t>::default(); 2 * n];
                let mut plain = ours.clone();
                // SAFETY: `d..d + 2n`, `s..s + n` and `s + sr..s + sr + n` lie in the
                // buffers, which are distinct; the elements are plain primitives.
                unsafe { Target::interleave2(cpu(), ours.as_mut_ptr(), src.as_ptr(), sr, n) };
                // SAFETY: as above.
                unsafe { Defaults::interleave2((), plain.as_mut_ptr(), src.as_ptr(), sr, n) };
                assert_eq!(ours, plain, "{} n = {n}", stringify!($t));
                for i in 0..n {
                    assert_eq!(ours[2 * i], src[i]);
                    assert_eq!(ours[2 * i + 1], src[i + n + 3]);
                }
            }};
        }
        both!(u8);
        both!(u16);
        both!(u32);
        both!(u64);
    }
}

#[test]
fn reversed_runs_and_streaming_copies_match_the_defaults() {
    let lengths: &[usize] = if cfg!(miri) {
        &[0, 1, 33, 100]
    } else {
        &[0, 1, 5, 31, 32, 33, 100, 1000, 5000]
    };
    for &n in lengths {
        // Three rows of `n`, the destination's 2 apart past their end, the source's 5.
        let (rows, dr, sr) = (3usize, n + 2, n + 5);
        let src = values::<u32>(rows * sr, 3);
        let (mut ours, mut twin) = (vec![0u32; rows * dr], vec![0u32; rows * dr]);
        let (dri, sri) = (dr.cast_signed(), sr.cast_signed());
        // SAFETY: row `i`'s `n` elements from `i·dr` and `i·sr` of two distinct buffers.
        unsafe { Target::reverse_rows(ours.as_mut_ptr(), dri, src.as_ptr(), sri, rows, n) };
        // SAFETY: as above.
        unsafe { Defaults::reverse_rows(twin.as_mut_ptr(), dri, src.as_ptr(), sri, rows, n) };
        assert_eq!(ours, twin);
        for i in 0..rows {
            assert!(
                ours[i * dr..i * dr + n]
                    .iter()
                    .eq(src[i * sr..i * sr + n].iter().rev())
            );
            assert!(ours[i * dr + n..(i + 1) * dr].iter().all(|&x| x == 0));
        }
        let (mut ours, mut twin) = (vec![0u8; n * 4 + 1], vec![0u8; n * 4 + 1]);
        let bytes = values::<u8>(n * 4 + 1, 5);
        // Misaligned by one byte, so the streaming head and tail run.
        // SAFETY: `4n` bytes of two distinct buffers, from their second byte.
        unsafe { Target::stream_copy(ours[1..].as_mut_ptr(), bytes[1..].as_ptr(), n * 4) };
        Target::fence();
        // SAFETY: as above.
        unsafe { Defaults::stream_copy(twin[1..].as_mut_ptr(), bytes[1..].as_ptr(), n * 4) };
        assert_eq!(ours, twin);
        assert_eq!(ours[1..], bytes[1..]);
    }
}
