//! Slice access for `const fn`, which cannot call `slice::get`: a read past the end is
//! `None`, a write past the end does nothing. Built on `split_at_checked` and slice patterns,
//! so there is no indexing and no panic path for the optimiser to keep.

/// `s[i]`, or `None` past the end.
pub(crate) const fn get<T: Copy>(s: &[T], i: usize) -> Option<T> {
    match s.split_at_checked(i) {
        Some((_, [x, ..])) => Some(*x),
        _ => None,
    }
}

/// `s[i] = v` when `i < s.len()`.
pub(crate) const fn set<T: Copy>(s: &mut [T], i: usize, v: T) {
    if let Some((_, [x, ..])) = s.split_at_mut_checked(i) {
        *x = v;
    }
}

/// Swaps `s[i]` and `s[j]` when both are in range.
pub(crate) const fn swap<T: Copy>(s: &mut [T], i: usize, j: usize) {
    if let (Some(a), Some(b)) = (get(s, i), get(s, j)) {
        set(s, i, b);
        set(s, j, a);
    }
}

/// Writes `src` reversed into `dst`, as far as both reach from their starts.
pub(crate) const fn reverse_into<T: Copy>(src: &[T], dst: &mut [T]) {
    let n = src.len();
    let mut i = 0;
    while i < n {
        #[expect(
            clippy::arithmetic_side_effects,
            reason = "`i < n`, so `n - 1 - i` cannot wrap."
        )]
        if let Some(v) = get(src, n - 1 - i) {
            set(dst, i, v);
        }
        i = i.saturating_add(1);
    }
}

/// Whether `s` holds `v`.
pub(crate) const fn contains(s: &[usize], v: usize) -> bool {
    let mut rest = s;
    while let [x, tail @ ..] = rest {
        if *x == v {
            return true;
        }
        rest = tail;
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn access_past_the_end_is_none_or_nothing() {
        let mut a = [1usize, 2, 3];
        assert_eq!((get(&a, 2), get(&a, 3)), (Some(3), None));
        set(&mut a, 3, 9);
        swap(&mut a, 0, 2);
        swap(&mut a, 0, 5);
        assert_eq!(a, [3, 2, 1]);
        assert!(contains(&a, 2) && !contains(&a, 7));
    }
}
