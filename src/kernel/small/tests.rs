use super::{Kind, SMALL_MAX_BYTES, Small, inside};

/// Whether `n` rows `r` apart of `len` consecutive elements each, the first at `o`, lie
/// inside a slice of `slice` elements: [`inside`] on the two axes `copy_rank2` gives it.
fn rows_inside(o: isize, r: isize, n: usize, len: usize, slice: usize) -> bool {
    inside(o, [(n, r), (len, 1)], slice)
}

/// `rows_inside` against the model (every offset of the rows, in `i128`) over first
/// offsets -8..=8, row steps -6..=6 (0 included), 1..=4 rows of 1..=4 elements and slices
/// of 0..=24; then at the edges of `isize`, where the checked arithmetic answers `false`.
/// Under Miri (safe code: the 32-bit run is what it adds) every fourth offset, row step
/// and slice length.
#[test]
fn rows_inside_matches_the_model_and_refuses_overflow() {
    let step = if cfg!(miri) { 4 } else { 1 };
    let mut checked = 0usize;
    for o in (-8isize..=8).step_by(step) {
        for r in (-6isize..=6).step_by(step) {
            for n in 1usize..=4 {
                for len in 1usize..=4 {
                    for slice in (0usize..=24).step_by(step) {
                        let inside = (0..n).all(|i| {
                            (0..len).all(|j| {
                                let off = o as i128 + i as i128 * r as i128 + j as i128;
                                off >= 0 && off < slice as i128
                            })
                        });
                        assert_eq!(
                            rows_inside(o, r, n, len, slice),
                            inside,
                            "o {o} r {r} n {n} len {len} slice {slice}"
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    let cases = if cfg!(miri) {
        5 * 4 * 4 * 4 * 7
    } else {
        17 * 13 * 4 * 4 * 25
    };
    assert_eq!(checked, cases);
    // (n - 1)·r, o + (n - 1)·r and the last element's offset past `isize` or `usize`.
    assert!(!rows_inside(0, isize::MAX, 3, 1, usize::MAX));
    assert!(!rows_inside(isize::MAX, 1, 2, 1, usize::MAX));
    assert!(!rows_inside(isize::MIN, -1, 2, 1, usize::MAX));
    assert!(!rows_inside(isize::MAX, 0, 1, usize::MAX, usize::MAX));
    assert!(rows_inside(isize::MAX - 1, 0, 1, 1, usize::MAX));
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
