//! Slice access for `const fn`, which cannot call `slice::get`: a read past the end is
//! `None`, a write past the end does nothing. An index is used only inside the branch that
//! has just compared it with the length, so the optimiser drops its bounds check and no
//! panic path is left (the bare-metal link check proves it at every optimisation level);
//! unoptimised (debug builds, Miri) each access costs a comparison and a load, where
//! `split_at_checked` cost two slice constructions with their precondition checks, on every
//! axis of every query and plan.

/// `s[i]`, or `None` past the end.
#[expect(
    clippy::indexing_slicing,
    reason = "indexed only where `i < s.len()`, the bounds check's own condition"
)]
pub(crate) const fn get<T: Copy>(s: &[T], i: usize) -> Option<T> {
    if i < s.len() { Some(s[i]) } else { None }
}

/// `s[i] = v` when `i < s.len()`.
#[expect(
    clippy::indexing_slicing,
    reason = "indexed only where `i < s.len()`, the bounds check's own condition"
)]
pub(crate) const fn set<T: Copy>(s: &mut [T], i: usize, v: T) {
    if i < s.len() {
        s[i] = v;
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
