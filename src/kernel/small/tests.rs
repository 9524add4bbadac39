use super::{Kind, SMALL_MAX_BYTES, Small};

use std::format;
use std::vec::Vec;

use crate::kernel::mapping::Lowered;
use crate::{Layout, LayoutError, Operand};

/// The model of the run-time copy: `dst` after copying every index of `src_l` in `src` to
/// the same index of `dst_l`, or the error its contract gives (each operand in turn,
/// destination first: a negative offset, then an offset past the slice's end).
fn model<const N: usize>(
    src: &[u32],
    src_l: &Layout<N>,
    dst: &[u32],
    dst_l: &Layout<N>,
) -> Result<Vec<u32>, LayoutError> {
    let offsets =
        |l: &Layout<N>| -> Vec<isize> { l.indices().map(|i| l.offset_of(i).unwrap()).collect() };
    let (d, s) = (offsets(dst_l), offsets(src_l));
    for (operand, offs, len) in [
        (Operand::Destination, &d, dst.len()),
        (Operand::Source, &s, src.len()),
    ] {
        let (Some(&lo), Some(&hi)) = (offs.iter().min(), offs.iter().max()) else {
            continue;
        };
        if lo < 0 {
            return Err(LayoutError::OffsetBelowSlice {
                operand,
                lowest: lo,
            });
        }
        let needed = usize::try_from(hi).unwrap() + 1;
        if needed > len {
            return Err(LayoutError::OffsetOutsideSlice {
                operand,
                needed,
                given: len,
            });
        }
    }
    let mut out = dst.to_vec();
    for (&o, &i) in d.iter().zip(&s) {
        out[usize::try_from(o).unwrap()] = src[usize::try_from(i).unwrap()];
    }
    Ok(out)
}

/// Runs a specialisation `special` of the run-time copy on the pair, forced, and checks it
/// against the model: where it takes the copy, the model's bytes or the model's error with
/// `dst` untouched; where it does not, nothing written. Returns whether it took the copy.
/// A specialisation of the run-time copy: `Ok(true)` when it took the copy.
type Special<const N: usize> =
    fn(&mut [u32], &Lowered<N>, &[u32], &Lowered<N>) -> Result<bool, LayoutError>;

fn agrees<const N: usize>(
    special: Special<N>,
    src_l: &Layout<N>,
    dst_l: &Layout<N>,
    src_len: usize,
    dst_len: usize,
) -> bool {
    let src: Vec<u32> = (1000..).take(src_len).collect();
    let before: Vec<u32> = (0..).take(dst_len).collect();
    let mut got = before.clone();
    let taken = special(&mut got, &dst_l.lowered(), &src, &src_l.lowered());
    let want = model(&src, src_l, &before, dst_l);
    let ctx = format!("{src_l:?} -> {dst_l:?}, slices {src_len} -> {dst_len}");
    match taken {
        Ok(true) => {
            assert_eq!(Ok(got), want, "{ctx}");
            true
        }
        Ok(false) => {
            assert_eq!(got, before, "{ctx}: declined, but wrote");
            false
        }
        Err(e) => {
            assert_eq!(Err(e), want, "{ctx}");
            assert_eq!(got, before, "{ctx}: refused, but wrote");
            true
        }
    }
}

/// Whether case `k` runs: every one, or every 53rd under Miri (slow: about a quarter of a
/// second a copy).
fn sampled(k: usize) -> bool {
    !cfg!(miri) || k.is_multiple_of(53)
}

/// The fewest copies a specialisation must take in its test (a test that it ever runs).
fn least() -> usize {
    if cfg!(miri) { 2 } else { 50 }
}

/// `copy_rank2`, forced on rank-2 pairs of extents 1 to 4 (and 2 × 8, 8 × 8: SIMD tiles),
/// strides in both axis orders, flipped or not, shifted by -1, 0 and 3, on slices just
/// long enough, one element short and longer: where it takes the copy, the model's bytes and
/// errors. It must take the transposes (a test that it ever runs).
#[test]
fn rank2_specialisation_matches_the_model() {
    let (mut taken, mut case) = (0usize, 0usize);
    for (e0, e1) in [
        (1, 1),
        (1, 4),
        (2, 2),
        (2, 3),
        (3, 2),
        (4, 4),
        (2, 8),
        (8, 8),
    ] {
        let (s0, s1) = (isize::try_from(e0).unwrap(), isize::try_from(e1).unwrap());
        let c = Layout::new([e0, e1], [s1, 1], 4).unwrap();
        let f = Layout::new([e0, e1], [1, s0], 4).unwrap();
        let views = [
            c,
            f,
            c.flipped(1).unwrap(),
            f.flipped(0).unwrap(),
            f.flipped(1).unwrap(),
        ];
        for (src_l, dst_l) in views
            .iter()
            .flat_map(|a| views.iter().map(move |b| (*a, *b)))
        {
            // An offset of -1 puts the lowest offset of an unflipped layout below the slice.
            for off in [-1isize, 0, 3] {
                let shift = |l: Layout<2>| l.with_offset(l.offset() + off).unwrap();
                let (src_l, dst_l) = (shift(src_l), shift(dst_l));
                let need = |l: &Layout<2>| l.required_len().unwrap_or(4);
                let (s, d) = (need(&src_l), need(&dst_l));
                for (sl, dl) in [(s, d), (s - 1, d), (s, d - 1), (s + 5, d + 2)] {
                    case += 1;
                    if sampled(case) {
                        taken += usize::from(agrees(
                            super::copy_rank2::<u32, 2>,
                            &src_l,
                            &dst_l,
                            sl,
                            dl,
                        ));
                    }
                }
            }
        }
    }
    assert!(taken > least(), "the specialisation took {taken} copies");
}

/// `copy_into_dense`, forced: C-contiguous pairs of rank 1 to 4 (one run), and sources of
/// rank 3 permuted and flipped into a C-contiguous destination (element by element), shifted
/// by -1, 0 and 2, on slices just long enough, one element short and longer.
#[test]
fn dense_specialisations_match_the_model() {
    let (mut taken, mut case) = (0usize, 0usize);
    let lens = |s: usize, d: usize| [(s, d), (s - 1, d), (s, d - 1), (s + 3, d + 1)];
    for shape in [[1usize, 1, 5], [2, 3, 4], [4, 4, 4], [1, 2, 1]] {
        let c = Layout::dense(shape, 4, crate::Order::C).unwrap();
        for off in [-1isize, 0, 2] {
            let (a, b) = (
                c.with_offset(off).unwrap(),
                c.with_offset(1 - off.min(1)).unwrap(),
            );
            let need = |l: &Layout<3>| l.required_len().unwrap_or(4);
            for (sl, dl) in lens(need(&a), need(&b)) {
                case += 1;
                if sampled(case) {
                    taken += usize::from(agrees(super::copy_into_dense::<u32, 3>, &a, &b, sl, dl));
                }
            }
            let dst = c.with_offset(off).unwrap();
            for perm in [[0, 1, 2], [2, 0, 1], [1, 2, 0], [2, 1, 0]] {
                let dense = Layout::dense(
                    [shape[perm[0]], shape[perm[1]], shape[perm[2]]],
                    4,
                    crate::Order::C,
                )
                .unwrap();
                let mut inverse = [0usize; 3];
                for (k, &p) in perm.iter().enumerate() {
                    inverse[p] = k;
                }
                let src = dense.permuted(inverse).unwrap();
                for src in [src, src.flipped(0).unwrap(), src.flipped(2).unwrap()] {
                    let src = src.with_offset(src.offset() + off).unwrap();
                    let need = |l: &Layout<3>| l.required_len().unwrap_or(4);
                    for (sl, dl) in lens(need(&src), need(&dst)) {
                        case += 1;
                        if sampled(case) {
                            taken += usize::from(agrees(
                                super::copy_into_dense::<u32, 3>,
                                &src,
                                &dst,
                                sl,
                                dl,
                            ));
                        }
                    }
                }
            }
        }
    }
    for n in [2usize, 7] {
        let one = Layout::dense([n], 4, crate::Order::C).unwrap();
        taken += usize::from(agrees(super::copy_into_dense::<u32, 1>, &one, &one, n, n));
        let four = Layout::dense([2, 1, n, 2], 4, crate::Order::C).unwrap();
        taken += usize::from(agrees(
            super::copy_into_dense::<u32, 4>,
            &four,
            &four,
            4 * n,
            4 * n,
        ));
    }
    assert!(taken > least(), "the specialisations took {taken} copies");
}

#[test]
fn classify_takes_small_blocks_and_leaves_large_ones_to_the_general_kernels() {
    // 16 × 16 and 64 × 64 f32 transposes, 64 stereo frames: block kernels.
    assert_eq!(Small::classify(16, 16, 16, 16, 4), Some(Kind::Tiles8));
    assert_eq!(Small::classify(64, 64, 64, 64, 4), Some(Kind::Tiles8));
    assert_eq!(Small::classify(64, 2, 2, 64, 2), Some(Kind::Interleave2));
    // The largest block taken, and one element more.
    let side = 64usize; // 64 × 128 f32 = 32 KiB
    assert_eq!(side * 2 * side * 4, SMALL_MAX_BYTES);
    assert_eq!(
        Small::classify(side, 2 * side, 128, 64, 4),
        Some(Kind::Tiles8)
    );
    assert_eq!(Small::classify(side + 1, 2 * side, 128, 65, 4), None);
    // A 4096² f32 transpose and a million stereo frames: the general kernels.
    assert_eq!(Small::classify(4096, 4096, 4096, 4096, 4), None);
    assert_eq!(Small::classify(1 << 20, 2, 2, 1 << 20, 2), None);
    // Extents whose product overflows: not taken.
    assert_eq!(Small::classify(usize::MAX, 2, 2, 2, 1), None);
}
