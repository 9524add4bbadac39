//! Dropping extent-1 axes.

use super::access::set;
use super::parts::Parts;

/// Writes the axes of `p` with extent other than 1 into `out_shape`/`out_strides` (as long
/// as the rank) and returns how many there are; an empty layout squeezes to the single axis
/// `(0,):(0,)`, as cuda.core does.
pub(crate) const fn squeeze(
    p: Parts<'_>,
    out_shape: &mut [usize],
    out_strides: &mut [isize],
) -> usize {
    if p.has_zero_extent() {
        set(out_shape, 0, 0);
        set(out_strides, 0, 0);
        return 1;
    }
    let mut r = 0usize;
    let mut rest = p;
    while let Some(((e, s), tail)) = rest.split_first() {
        rest = tail;
        if e != 1 {
            set(out_shape, r, e);
            set(out_strides, r, s);
            r = r.saturating_add(1);
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squeeze_drops_unit_axes_and_keeps_one_empty_axis() {
        let (mut sh, mut st) = ([9; 3], [9; 3]);
        let r = squeeze(
            Parts::from_arrays(&[2, 1, 3], &[3, 7, 1], 0, 1),
            &mut sh,
            &mut st,
        );
        assert_eq!((r, &sh[..r], &st[..r]), (2, &[2, 3][..], &[3, 1][..]));
        let r = squeeze(
            Parts::from_arrays(&[2, 0, 1], &[3, 7, 1], 0, 1),
            &mut sh,
            &mut st,
        );
        assert_eq!((r, sh[0], st[0]), (1, 0, 0));
    }
}
