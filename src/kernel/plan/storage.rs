//! Where a [`Plan`](super::Plan) keeps its nests: room for one, or for its `M` (by default
//! [`MAX_NESTS`](super::MAX_NESTS)).
//!
//! | variant | holds | used by |
//! | --- | --- | --- |
//! | `One` | one nest | every plan of operands that no interleave splits (the run-time kernels over [`Layout`](crate::Layout)s) |
//! | `Many` | `M` nests | plans of interleaved operands (or of loops peeled past a nest's), split parts |
//!
//! Only the variant in use is initialised, so a kernel planning at run time
//! ([`Plan::empty`](super::Plan::empty)) clears one nest (136 bytes for a copy on a 32-bit
//! target) instead of four: on a Cortex-M4 that is about 150 instructions less per call.
//! The plan's size is that of `Many` (and a tag) either way; equality, hashing and `Debug`
//! read both variants as the `M` nests they stand for (unused ones empty), so
//! nothing outside this file can tell them apart.

use core::fmt;
use core::hash::{Hash, Hasher};

use super::Nest;
use crate::algo::access::set;

/// The nests of a plan; `One` until a second nest is needed. An explicit tag (no niche in
/// a nest's fields), so that the empty `One` is all zero bytes: cleared, not copied from a
/// constant.
#[derive(Clone, Copy)]
#[repr(u32)]
pub(super) enum Nests<const K: usize, const M: usize, const L: usize> {
    /// Room for one nest.
    One([Nest<K, L>; 1]),
    /// Room for `M` nests ([`MAX_NESTS`](super::MAX_NESTS) unless a plan asks for more).
    Many([Nest<K, L>; M]),
}

impl<const K: usize, const M: usize, const L: usize> Nests<K, M, L> {
    /// No nest written yet: room for one, cleared.
    pub(super) const EMPTY: Self = Self::One([Nest::EMPTY]);

    /// Room for every nest, all empty.
    const EMPTY_MANY: Self = Self::Many([Nest::EMPTY; M]);

    /// Every slot.
    pub(super) const fn slots(&self) -> &[Nest<K, L>] {
        match self {
            Self::One(n) => n,
            Self::Many(n) => n,
        }
    }

    /// Slot 0 (no room is made); `None` never: a `Many` is made only where `M >= 2`
    /// ([`grow`](Self::grow)), and `Plan` refuses `M == 0` at compile time.
    pub(super) const fn first_mut(&mut self) -> Option<&mut Nest<K, L>> {
        match self {
            Self::One([n]) => Some(n),
            Self::Many(many) => many.first_mut(),
        }
    }

    /// Slot `i`, making room for `M` first when `i` is past the first (nest 0 kept); `None`
    /// past `M` (and past the first when `M <= 1`).
    pub(super) const fn slot_mut(&mut self, i: usize) -> Option<&mut Nest<K, L>> {
        if i >= 1 {
            if let Self::One(_) = self {
                self.grow();
            }
        }
        let slots: &mut [Nest<K, L>] = match self {
            Self::One(n) => n,
            Self::Many(n) => n,
        };
        match slots.split_at_mut_checked(i) {
            Some((_, [x, ..])) => Some(x),
            _ => None,
        }
    }

    /// `One` to `Many`, nest 0 kept. Never inlined: only plans of interleaved operands grow,
    /// and the callers' frames do not carry its scratch.
    #[inline(never)]
    const fn grow(&mut self) {
        if M < 2 {
            return;
        }
        if let Self::One([first]) = *self {
            // A constant, stored in place (a `Many([..])` expression is built on the stack
            // first: 550 bytes more of frame).
            *self = Self::EMPTY_MANY;
            if let Self::Many(many) = self {
                set(many, 0, first);
            }
        }
    }

    /// The `M` nests this stands for, unused ones empty.
    const fn padded(&self) -> [Nest<K, L>; M] {
        match *self {
            Self::Many(n) => n,
            Self::One([first]) => {
                let mut all = [Nest::EMPTY; M];
                set(&mut all, 0, first);
                all
            }
        }
    }
}

impl<const K: usize, const M: usize, const L: usize> PartialEq for Nests<K, M, L> {
    fn eq(&self, other: &Self) -> bool {
        self.padded() == other.padded()
    }
}

impl<const K: usize, const M: usize, const L: usize> Eq for Nests<K, M, L> {}

impl<const K: usize, const M: usize, const L: usize> Hash for Nests<K, M, L> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.padded().hash(state);
    }
}

impl<const K: usize, const M: usize, const L: usize> fmt::Debug for Nests<K, M, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.padded().fmt(f)
    }
}

#[cfg(feature = "defmt")]
impl<const K: usize, const M: usize, const L: usize> defmt::Format for Nests<K, M, L> {
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::write!(f, "{}", self.padded());
    }
}

#[cfg(test)]
#[expect(
    clippy::unwrap_used,
    reason = "tests of layouts that are valid by construction"
)]
mod tests {
    use std::format;

    use super::Nests;
    use crate::kernel::plan::{MAX_LOOPS, MAX_NESTS, Nest};

    #[test]
    fn nests_one_and_many_holding_the_same_nest_compare_equal() {
        let mut one = Nests::<2, MAX_NESTS, MAX_LOOPS>::EMPTY;
        let mut nest = Nest::EMPTY;
        nest.offsets = [3, 4];
        *one.slot_mut(0).unwrap() = nest;
        let mut many = one;
        // Asking for slot 1 makes room for all, keeping slot 0.
        assert!(many.slot_mut(1).is_some());
        assert!(matches!(many, Nests::Many(_)));
        assert!(matches!(one, Nests::One(_)));
        assert_eq!(one, many);
        assert_eq!(format!("{one:?}"), format!("{many:?}"));
        assert_eq!(many.slots().first().unwrap().offsets, [3, 4]);
        assert!(many.slot_mut(MAX_NESTS).is_none());
        many.slot_mut(1).unwrap().offsets = [1, 1];
        assert_ne!(one, many);
    }
}
