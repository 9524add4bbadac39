//! Cache sets: which of the first-level data cache's sets lines a step apart land in, and
//! how many of them those sets hold, and the same of the second-level cache
//! ([`l2_set_lines`]). The one rule the tiling (`tiling::set_room`, `tiling::evicts_far`),
//! the small cubes' strips (`raw::cube_strip`) and the grouped transpose's bands
//! (`transpose::grouped`) read: random strides spread their lines over every set, while
//! images and tensors of power-of-two extents step a power-of-two number of lines and come
//! back to a few.

use super::order::LINE_BYTES;

/// Bytes one way of a first-level data cache spans: 64 sets of 64-byte lines, as the 32 KiB
/// 8-way and 48 KiB 12-way L1Ds of current x86 and Arm cores have. Lines this many bytes
/// apart share a set.
pub(crate) const L1_WAY_BYTES: usize = 4096;

/// The sets of that cache.
pub(crate) const L1_SETS: usize = L1_WAY_BYTES / LINE_BYTES;

/// The ways of a set counted on: the fewer of the caches [`L1_WAY_BYTES`] describes (8 of a
/// 32 KiB L1D; a 48 KiB one has 12).
pub(crate) const L1_WAYS: usize = 8;

/// Bytes one way of a second-level cache spans: a 1 MiB 8-way L2 (Zen 4), where Intel's
/// 1-2 MiB of 16 ways span 64-128 KiB a way. Lines a power-of-two step apart land in sets
/// of the same total size on each: a step of 4 KiB keeps 256 of its lines in either.
pub(crate) const L2_WAY_BYTES: usize = 128 * 1024;

/// The ways of a second-level set counted on (the fewer of the caches [`L2_WAY_BYTES`]
/// describes).
pub(crate) const L2_WAYS: usize = 8;

/// The lines of the second-level cache that lines `apart` bytes apart can keep: all of its
/// sets' where the step is under a line or no power-of-two number of lines, else the sets
/// the step's multiples start lines in (`L2_WAY_BYTES` over the step's largest power-of-two
/// divisor, at least 1) of [`L2_WAYS`] each.
///
/// ```text
/// step      64   512  4096  8192  131072
/// lines  16384  2048   256   128       8
/// ```
pub(crate) const fn l2_set_lines(apart: usize) -> usize {
    let all = L2_WAY_BYTES / LINE_BYTES;
    let sets = if apart < LINE_BYTES {
        all
    } else {
        sets_reached(apart, L2_WAY_BYTES)
    };
    sets.saturating_mul(L2_WAYS)
}

/// Whether `steps` lines `apart` bytes apart crowd the first-level sets they land in:
/// those sets keep at most `most` of their lines ([`set_lines`]: a power-of-two number of
/// lines apart), and there are more steps than they keep. The one test of the rows that
/// evict what a short loop comes back to (`tiling::evicts`, at most 64 lines) and of byte
/// transposes that run whole (`tiling::rows_crowd`, at most 16).
pub(super) const fn crowds(steps: usize, apart: usize, most: usize) -> bool {
    let lines = set_lines(apart);
    lines <= most && steps > lines
}

/// The sets of a cache whose ways span `way` bytes that the multiples of a step of `bytes`
/// start lines in: `way` over the step's largest power-of-two divisor, from 1 to all
/// `way / LINE_BYTES`. The one count of [`orbit`] (the first level) and [`l2_set_lines`]
/// (the second).
const fn sets_reached(bytes: usize, way: usize) -> usize {
    let zeros = bytes.trailing_zeros();
    let top = way.trailing_zeros();
    let sets = way >> if zeros < top { zeros } else { top };
    let all = way / LINE_BYTES;
    if sets > all { all } else { sets }
}

/// The sets the multiples of a step of `bytes` start lines in: [`L1_WAY_BYTES`] over the
/// step's largest power-of-two divisor, from 1 (a multiple of 4 KiB, or no step) to all
/// [`L1_SETS`] (a step of no whole number of lines drifts across them all).
///
/// ```text
/// step  64  96  256  4096  8192
/// sets  64  64   16     1     1
/// ```
pub(crate) const fn orbit(bytes: usize) -> usize {
    sets_reached(bytes, L1_WAY_BYTES)
}

/// The lines of the first-level cache that lines `apart` bytes apart can keep: all of them
/// where the step is under a line (the lines run on), else the [`orbit`] of the step's sets
/// of [`L1_WAYS`] each (a row of `f64` read 1 KiB apart keeps 32 lines, one read a page
/// apart 8, whatever its bytes).
pub(crate) const fn set_lines(apart: usize) -> usize {
    let sets = if apart < LINE_BYTES {
        L1_SETS
    } else {
        orbit(apart)
    };
    sets.saturating_mul(L1_WAYS)
}

#[cfg(test)]
mod tests {
    use super::{L1_SETS, L1_WAYS, l2_set_lines, orbit, set_lines};

    /// The sets and lines of steps of every power of two, and of steps of no whole number
    /// of lines, against the cache's geometry counted by hand.
    #[test]
    fn steps_land_in_the_sets_their_power_of_two_divisor_leaves() {
        for z in 0..20u32 {
            let step = 1usize << z;
            let want = if z <= 6 {
                64
            } else if z >= 12 {
                1
            } else {
                64 >> (z - 6)
            };
            assert_eq!(orbit(step), want, "step {step}");
            let lines = if step < 64 { 512 } else { want * 8 };
            assert_eq!(set_lines(step), lines, "step {step}");
            // An odd multiple lands in the same sets.
            assert_eq!(orbit(step * 3), want, "step {}", step * 3);
        }
        assert_eq!(orbit(0), 1);
        assert_eq!(set_lines(96), L1_SETS * L1_WAYS);
        assert_eq!(set_lines(1 << 10), 32);
    }

    /// The second-level lines of steps of every power of two, and of no whole number of
    /// lines, against a 1 MiB 8-way cache counted by hand.
    #[test]
    fn second_level_steps_keep_the_lines_their_sets_hold() {
        for z in 0..22u32 {
            let step = 1usize << z;
            let sets = if z <= 6 {
                2048
            } else if z >= 17 {
                1
            } else {
                2048 >> (z - 6)
            };
            assert_eq!(l2_set_lines(step), sets * 8, "step {step}");
            assert_eq!(l2_set_lines(step * 3), sets * 8, "step {}", step * 3);
        }
        assert_eq!(l2_set_lines(4096), 256);
        assert_eq!(l2_set_lines(0), 16384);
        assert_eq!(l2_set_lines(96), 16384);
    }
}
