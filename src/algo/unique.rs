//! Exact uniqueness, and the bounded lattice search it shares with the overlap test.
//!
//! # The search
//!
//! Both questions reduce to one: given positive coefficients `c_k`, integer boxes
//! `l_k <= x_k <= u_k` and a target `t`, is there an integer point `x` in the box with
//! `Σ c_k x_k + w = t` for some `w` in a small interval `[w_lo, w_hi]`? (The uniqueness test
//! also asks for `x != 0`; see [`search`].) Axes are visited from the largest coefficient
//! down. At axis `k`, the axes still to visit can add any value in `[rmin, rmax]` (the sums of
//! their box ends, plus `w`), so only the `x_k` with `t - c_k x_k` in that range are tried:
//! `x_k` in `[⌈(t - rmax) / c_k⌉, ⌊(t - rmin) / c_k⌋] ∩ [l_k, u_k]`. When `c_k` is larger than
//! the spread `rmax - rmin`, at most one value is tried (the mixed-radix case of every layout
//! made from a dense one by slicing, permuting or flipping). The last two axes are solved in
//! O(log c) with the extended Euclidean algorithm: the solutions of `c_1 x_1 + c_0 x_0 = t`
//! form one arithmetic progression, and the box cuts it to an interval of its parameter.
//! Axes with equal coefficients merge into one (see [`top`]). The public docs of
//! `Layout::is_unique` and `Layout::overlaps` state the resulting cost bounds.
//!
//! # Arithmetic bounds
//!
//! All search arithmetic is in [`Wide`]: `i128` where `isize` has 64 bits, `i64` where it has
//! 32 or 16 (every bound below halves its exponent there: coefficients < 2^31, box ends
//! < 2^32, targets < 2^34, products < 2^63, so `i64` holds them, and a 32-bit core does no
//! 128-bit multiplication or division: the search is about a tenth of the code on a
//! Cortex-M). The 64-bit bounds: on a validated layout every `|stride| * itemsize` fits
//! `isize`, so every coefficient is < 2^63 (also in units of the smaller itemsize, which only
//! divides it); every box end is at most an extent, < 2^64; the spans of the axes of one layout
//! add up to the width of its byte bounds, < 2^64, so `rmin`, `rmax` and every target that
//! survives the range test are < 2^66 in magnitude; and each product `c_k x_k` is < 2^127. The
//! extended-gcd step reduces both factors below `c / g` < 2^63 before multiplying. So no `i128`
//! operation here can overflow, which is why the functions of this file use plain `+ - *`
//! (each carries `#[expect(clippy::arithmetic_side_effects, reason = ..)]` citing this
//! paragraph). Every
//! divisor is a coefficient or a gcd of coefficients, all positive, and every dividend is far
//! from `i128::MIN`, so no division can fault; the divisions still go through [`div`] and
//! [`rem`], whose `checked_*` form leaves no panic path in the machine code.
//!
//! # The budget
//!
//! Each call of [`search`] is one step. A search given a [`Budget`] stops when the budget is
//! spent and answers `None` ("unknown"). Without pruning, the number of steps is at most
//! `1 + Σ_j Π_{k<j} w_k` over the active axes taken from the largest coefficient down, with
//! `w_k` the number of values axis `k` can take (`2e - 1` for the symmetric uniqueness
//! problem, `e` for overlaps), the last two axes counted once (they are solved by the
//! extended Euclidean step), times the slack width `w_hi - w_lo + 1` where it is looped.
//! `Layout::is_unique_within` documents the bound; `tests/edges.rs` checks that a budget of
//! that size always answers.

use super::access::{get, set, swap};
use super::parts::Parts;
use super::sort::stride_order;

/// The search's integer: `i128` on 64-bit targets, `i64` on narrower ones (the module doc
/// derives both bounds).
#[cfg(target_pointer_width = "64")]
pub(crate) type Wide = i128;
/// The search's integer: `i128` on 64-bit targets, `i64` on narrower ones (the module doc
/// derives both bounds).
#[cfg(not(target_pointer_width = "64"))]
pub(crate) type Wide = i64;

/// `x` as a [`Wide`], exactly: `Wide` is wider than `usize` on every target (`i128` where
/// `usize` has 64 bits, `i64` where it has 32 or 16), so no value wraps.
#[cfg_attr(
    not(target_pointer_width = "64"),
    expect(
        clippy::cast_possible_wrap,
        reason = "`i64` is wider than a 32- or 16-bit `usize`: no value wraps"
    )
)]
pub(crate) const fn wide(x: usize) -> Wide {
    x as Wide
}
/// The unsigned twin of [`Wide`] for the fast tests' volumes and spans (`u128`, or `u64` on
/// narrower targets, where a span is < 2^33 and each `(extent - 1)·|stride|` < 2^63).
#[cfg(target_pointer_width = "64")]
type UWide = u128;
/// The unsigned twin of [`Wide`] (see above).
#[cfg(not(target_pointer_width = "64"))]
type UWide = u64;
const ZERO: Wide = 0;
const ONE: Wide = 1;

/// The steps a bounded search may still take; `u64::MAX` is, in practice, unbounded.
pub(crate) type Budget = u64;

/// `a / b` rounded toward zero; `b > 0` at every call (see the module doc).
const fn div(a: Wide, b: Wide) -> Wide {
    match a.checked_div(b) {
        Some(q) => q,
        None => 0,
    }
}

/// `a % b`; `b > 0` at every call (see the module doc).
const fn rem(a: Wide, b: Wide) -> Wide {
    match a.checked_rem(b) {
        Some(r) => r,
        None => 0,
    }
}

/// One layout's side of a search problem: the active axes of `p` in `order[..len]`
/// (ascending coefficient), each scaled by `scale` (an itemsize ratio).
#[derive(Clone, Copy)]
pub(crate) struct Side<'a> {
    /// The layout.
    pub(crate) p: Parts<'a>,
    /// Active axes (extent >= 2, stride != 0), ascending `|stride|`, in `order[..len]`.
    pub(crate) order: &'a [usize],
    /// How many axes of `order` are active.
    pub(crate) len: usize,
    /// Factor applied to every coefficient (an itemsize ratio, >= 1).
    pub(crate) scale: Wide,
    /// Whether this side's terms are subtracted (`b` in the overlap problem).
    pub(crate) negate: bool,
    /// Whether index differences range over `[-(e-1), e-1]` (uniqueness) instead of one sign.
    pub(crate) symmetric: bool,
}

impl Side<'_> {
    /// A side with no axes.
    pub(crate) const EMPTY: Side<'static> = Side {
        p: Parts::EMPTY,
        order: &[],
        len: 0,
        scale: 1,
        negate: false,
        symmetric: false,
    };

    /// Coefficient and box `(c, l, u)` of the `k`-th active axis (ascending coefficient):
    /// the term is `c * x` with `l <= x <= u`. The sign of the stride (and `negate`) picks
    /// which side of 0 the box lies on.
    #[expect(
        clippy::arithmetic_side_effects,
        reason = "Bounds of the module doc: `|stride| * scale < 2^63`, `extent - 1 < 2^64`."
    )]
    const fn axis(&self, k: usize) -> (Wide, Wide, Wide) {
        let ax = match get(self.order, k) {
            Some(a) => a,
            None => usize::MAX,
        };
        let (extent, stride) = self.p.axis(ax);
        let coef = wide(stride.unsigned_abs()) * self.scale;
        let n = wide(extent.saturating_sub(1));
        if self.symmetric {
            (coef, -n, n)
        } else if (stride > 0) != self.negate {
            (coef, 0, n)
        } else {
            (coef, -n, 0)
        }
    }

    /// `gcd(g, c_0, .., c_len)`.
    pub(crate) const fn gcd_with(&self, g: Wide) -> Wide {
        let mut g = g;
        let mut k = 0;
        while k < self.len {
            g = gcd(g, self.axis(k).0);
            k = k.saturating_add(1);
        }
        g
    }

    /// The smallest and largest value of `Σ c_k x_k` over the box.
    #[expect(
        clippy::arithmetic_side_effects,
        reason = "Bounds of the module doc: each sum is < 2^66 in magnitude."
    )]
    pub(crate) const fn range(&self) -> (Wide, Wide) {
        let (mut lo, mut hi) = (ZERO, ZERO);
        let mut k = 0;
        while k < self.len {
            let (c, l, u) = self.axis(k);
            lo += c * l;
            hi += c * u;
            k += 1;
        }
        (lo, hi)
    }
}

/// Writes into `order` (as long as the rank) the axes with extent >= 2 and a non-zero
/// stride, by ascending `|stride|`; returns how many there are.
pub(crate) const fn sort_active(p: Parts<'_>, order: &mut [usize]) -> usize {
    stride_order(p, order);
    // Reverse: `stride_order` is descending.
    let n = order.len();
    let mut i = 0;
    while i < n / 2 {
        #[expect(
            clippy::arithmetic_side_effects,
            reason = "`i < n / 2`, so `n - 1 - i` cannot wrap."
        )]
        swap(order, i, n - 1 - i);
        i = i.saturating_add(1);
    }
    let mut len = 0;
    i = 0;
    while let Some(ax) = get(order, i) {
        let (extent, stride) = p.axis(ax);
        if extent >= 2 && stride != 0 {
            set(order, len, ax);
            len = len.saturating_add(1);
        }
        i = i.saturating_add(1);
    }
    len
}

/// Whether two axes of extents `e0, e1 >= 2` and strides of magnitudes `s0, s1` are unique,
/// exactly, in O(log s) with `usize` arithmetic: what [`is_unique`] answers for two active
/// axes (its search takes one step there), without the search's wide arithmetic.
///
/// Two indices collide when `i·s0 = j·s1` for some `(i, j) != 0` with `|i| < e0`,
/// `|j| < e1`. With `g = gcd(s0, s1)` the smallest such pair is `(s1 / g, s0 / g)`, so the
/// axes are unique when `s1 / g >= e0` or `s0 / g >= e1`. A zero stride (`g` is the other
/// stride, or 0 for both) is never unique.
pub(crate) const fn two_axes_unique(e0: usize, s0: usize, e1: usize, s1: usize) -> bool {
    if s0 == 0 || s1 == 0 {
        return false;
    }
    // Nested axes first (nearly every copy's): a stride at least the other axis's whole span
    // is unique, and the gcd test below agrees (`g <= s0`, so `s1 / g >= s1 / s0 >= e0`).
    // Two multiplies where the gcd loop divides (a planar <-> interleaved copy's nest on a
    // Cortex-M4: 13 instructions fewer).
    if let Some(span) = e0.checked_mul(s0) {
        if s1 >= span {
            return true;
        }
    }
    if let Some(span) = e1.checked_mul(s1) {
        if s0 >= span {
            return true;
        }
    }
    let (mut a, mut b) = (s0, s1);
    while b != 0 {
        (a, b) = (
            b,
            match a.checked_rem(b) {
                Some(r) => r,
                None => 0,
            },
        );
    }
    // `a = gcd(s0, s1) >= 1`: both strides are non-zero.
    let (Some(q0), Some(q1)) = (s0.checked_div(a), s1.checked_div(a)) else {
        return false;
    };
    q1 >= e0 || q0 >= e1
}

/// The problem [`search`] solves: is there a point of `a`'s and `b`'s boxes with
/// `Σ a + Σ b + w = t` for some slack `w` in `[w_lo, w_hi]`?
pub(crate) struct Problem<'a> {
    pub(crate) a: Side<'a>,
    pub(crate) b: Side<'a>,
    pub(crate) w_lo: Wide,
    pub(crate) w_hi: Wide,
}

/// `⌊a / b⌋` for `b > 0`.
#[expect(
    clippy::arithmetic_side_effects,
    reason = "`b > 0` (see the module doc), so the adjustment cannot overflow."
)]
const fn floor_div(a: Wide, b: Wide) -> Wide {
    let q = div(a, b);
    if rem(a, b) < 0 { q - 1 } else { q }
}

/// `⌈a / b⌉` for `b > 0`.
#[expect(
    clippy::arithmetic_side_effects,
    reason = "`b > 0` (see the module doc), so the adjustment cannot overflow."
)]
const fn ceil_div(a: Wide, b: Wide) -> Wide {
    let q = div(a, b);
    if rem(a, b) > 0 { q + 1 } else { q }
}

/// `a mod b` in `0..b`, for `b > 0`.
#[expect(
    clippy::arithmetic_side_effects,
    reason = "`b > 0`, so `r + b` cannot overflow for `-b < r < 0`."
)]
const fn rem_euclid(a: Wide, b: Wide) -> Wide {
    let r = rem(a, b);
    if r < 0 { r + b } else { r }
}

const fn max(a: Wide, b: Wide) -> Wide {
    if a > b { a } else { b }
}

const fn min(a: Wide, b: Wide) -> Wide {
    if a < b { a } else { b }
}

/// The greatest common divisor (of magnitudes below 2^127).
const fn gcd(a: Wide, b: Wide) -> Wide {
    let (mut a, mut b) = (a, b);
    while b != 0 {
        (a, b) = (b, rem(a, b));
    }
    a.saturating_abs()
}

/// Whether some multiple of `g > 0` lies in `[lo, hi]`.
pub(crate) const fn has_multiple(g: Wide, lo: Wide, hi: Wide) -> bool {
    ceil_div(lo, g) <= floor_div(hi, g)
}

/// `(g, p, q)` with `g = gcd(a, b) = a p + b q`, for `a, b > 0`.
#[expect(
    clippy::arithmetic_side_effects,
    reason = "The Bézout coefficients stay below `max(a, b)` in magnitude (module doc)."
)]
const fn ext_gcd(a: Wide, b: Wide) -> (Wide, Wide, Wide) {
    let (mut r0, mut r1) = (a, b);
    let (mut p0, mut p1) = (ONE, ZERO);
    let (mut q0, mut q1) = (ZERO, ONE);
    while r1 != 0 {
        let k = div(r0, r1);
        (r0, r1) = (r1, r0 - k * r1);
        (p0, p1) = (p1, p0 - k * p1);
        (q0, q1) = (q1, q0 - k * q1);
    }
    (r0, p0, q0)
}

/// Whether `c x = t` has a solution with `l <= x <= u` (and `x >= 1` when `positive`).
const fn solve1(c: Wide, l: Wide, u: Wide, t: Wide, positive: bool) -> bool {
    let l = if positive { max(l, 1) } else { l };
    rem(t, c) == 0 && l <= div(t, c) && div(t, c) <= u
}

/// Whether `c1 x1 + c0 x0 = t` has a solution in the box, in O(log c): the solutions form
/// one progression `(x1b - m0 k, x0b + m1 k)`, and the box bounds `k` to an interval.
#[expect(
    clippy::arithmetic_side_effects,
    reason = "Bounds of the module doc: the residues are reduced below `c / g` before multiplying."
)]
const fn solve2(c1: Wide, l1: Wide, u1: Wide, c0: Wide, l0: Wide, u0: Wide, t: Wide) -> bool {
    if l1 > u1 || l0 > u0 {
        return false;
    }
    let (g, p, _) = ext_gcd(c0, c1);
    if g <= 0 || rem(t, g) != 0 {
        return false;
    }
    let (m1, m0) = (div(c1, g), div(c0, g));
    // x0b: the solution of c0 x0 ≡ t (mod c1) in 0..m1.
    let x0b = rem_euclid(rem_euclid(p, m1) * rem_euclid(div(t, g), m1), m1);
    let x1b = div(t - c0 * x0b, c1);
    let k_lo = max(ceil_div(l0 - x0b, m1), ceil_div(x1b - u1, m0));
    let k_hi = min(floor_div(u0 - x0b, m1), floor_div(x1b - l1, m0));
    k_lo <= k_hi
}

/// Merges the axes with the largest remaining coefficient, from both sides, into one:
/// returns `(c, l, u, ka', kb')` with `ka'`, `kb'` the axes left below it.
#[expect(clippy::arithmetic_side_effects, reason = "Bounds of the module doc.")]
const fn top(p: &Problem<'_>, ka: usize, kb: usize) -> (Wide, Wide, Wide, usize, usize) {
    let ca = if ka > 0 { p.a.axis(ka - 1).0 } else { 0 };
    let cb = if kb > 0 { p.b.axis(kb - 1).0 } else { 0 };
    let c = max(ca, cb);
    let (mut l, mut u, mut ka, mut kb) = (ZERO, ZERO, ka, kb);
    while ka > 0 && p.a.axis(ka - 1).0 == c {
        let (_, la, ua) = p.a.axis(ka - 1);
        (l, u, ka) = (l + la, u + ua, ka - 1);
    }
    while kb > 0 && p.b.axis(kb - 1).0 == c {
        let (_, lb, ub) = p.b.axis(kb - 1);
        (l, u, kb) = (l + lb, u + ub, kb - 1);
    }
    (c, l, u, ka, kb)
}

/// Whether the problem has a solution using only `a`'s axes `..ka` and `b`'s `..kb`, with
/// the chosen terms summing to `t` and the free axes' sum in `[rmin, rmax]`; `fresh` asks for
/// a non-zero point (uniqueness: some axis differs). `None` when `budget` ran out first; each
/// call costs one step.
#[expect(
    clippy::arithmetic_side_effects,
    clippy::too_many_arguments,
    reason = "Bounds of the module doc."
)]
pub(crate) const fn search(
    p: &Problem<'_>,
    ka: usize,
    kb: usize,
    t: Wide,
    rmin: Wide,
    rmax: Wide,
    fresh: bool,
    budget: &mut Budget,
) -> Option<bool> {
    if *budget == 0 {
        return None;
    }
    *budget -= 1;
    if t < rmin || t > rmax {
        return Some(false);
    }
    if ka + kb == 0 {
        return Some(!fresh && p.w_lo <= t && t <= p.w_hi);
    }
    let (cx, lx, ux, ka1, kb1) = top(p, ka, kb);
    let point = p.w_lo == p.w_hi;
    if point && ka1 + kb1 == 0 {
        return Some(solve1(cx, lx, ux, t - p.w_lo, fresh));
    }
    let (rmin1, rmax1) = (rmin - cx * lx, rmax - cx * ux);
    let lo = max(if fresh { max(lx, 0) } else { lx }, ceil_div(t - rmax1, cx));
    let hi = min(ux, floor_div(t - rmin1, cx));
    let (c0, l0, u0, ka2, kb2) = top(p, ka1, kb1);
    if ka2 + kb2 == 0 {
        if point {
            let t = t - p.w_lo;
            if fresh {
                return Some(
                    solve2(cx, max(lx, 1), ux, c0, l0, u0, t)
                        || (lx <= 0 && 0 <= ux && solve1(c0, l0, u0, t, true)),
                );
            }
            return Some(solve2(cx, lx, ux, c0, l0, u0, t));
        }
        if !fresh && hi - lo > p.w_hi - p.w_lo {
            let mut w = p.w_lo;
            while w <= p.w_hi {
                if *budget == 0 {
                    return None;
                }
                *budget -= 1;
                if solve2(cx, lx, ux, c0, l0, u0, t - w) {
                    return Some(true);
                }
                w += 1;
            }
            return Some(false);
        }
    }
    let mut x = lo;
    while x <= hi {
        match search(
            p,
            ka1,
            kb1,
            t - cx * x,
            rmin1,
            rmax1,
            fresh && x == 0,
            budget,
        ) {
            Some(true) => return Some(true),
            Some(false) => {}
            None => return None,
        }
        x += 1;
    }
    Some(false)
}

/// Whether no two indices of `p` share an offset; `order` is scratch as long as the rank.
/// `None` when the search needed more than `budget` steps.
///
/// Fast tests first: an empty layout is unique; a broadcast axis of extent >= 2 is not; more
/// elements than offsets in the span is not (pigeonhole); two axes of equal `|stride|` are
/// not; strides that each exceed the span of the smaller axes are (mixed radix). Only what
/// is left goes to [`search`].
#[expect(
    clippy::arithmetic_side_effects,
    reason = "`volume` and `span` are bounded as said inline; the other sums by the module doc."
)]
pub(crate) const fn is_unique(p: Parts<'_>, order: &mut [usize], budget: Budget) -> Option<bool> {
    if p.has_zero_extent() {
        return Some(true);
    }
    let mut volume: UWide = 1;
    let mut span: UWide = 0;
    let mut rest = p;
    while let Some(((extent, stride), tail)) = rest.split_first() {
        rest = tail;
        if extent >= 2 && stride == 0 {
            return Some(false);
        }
        // Both stay below 2^127 (2^63 where `UWide` is `u64`) on a valid layout: the volume
        // fits `usize` (invariant 2) and the span is the width of the offset bounds, which
        // fit `isize` (invariant 3).
        volume = volume.saturating_mul(extent as UWide);
        span = span.saturating_add((extent - 1) as UWide * stride.unsigned_abs() as UWide);
    }
    if volume <= 1 {
        return Some(true);
    }
    if volume > span.saturating_add(1) {
        return Some(false);
    }
    let len = sort_active(p, order);
    let mut i = 1;
    while i < len {
        // Two axes of extent >= 2 with equal `|stride|`: d = (1, ∓1) repeats an offset.
        let (Some(a), Some(b)) = (get(order, i), get(order, i - 1)) else {
            break;
        };
        if p.stride(a).unsigned_abs() == p.stride(b).unsigned_abs() {
            return Some(false);
        }
        i += 1;
    }
    // Mixed-radix fast path (cuda.core's sufficient test): when each `|stride|`, ascending,
    // exceeds the span of all smaller axes, different indices cannot collide. It settles every
    // layout made from a dense one by permuting, slicing or flipping with adds and multiplies
    // only, before the search's wide divisions. The sums are bounded by `span` above.
    let mut covered: UWide = 0;
    i = 0;
    while i < len {
        let (extent, stride) = match get(order, i) {
            Some(ax) => p.axis(ax),
            None => (1, 0),
        };
        let stride = stride.unsigned_abs() as UWide;
        if stride <= covered {
            break;
        }
        covered += stride * (extent.saturating_sub(1)) as UWide;
        i += 1;
    }
    if i == len {
        return Some(true);
    }
    let side = Side {
        p,
        order,
        len,
        scale: 1,
        negate: false,
        symmetric: true,
    };
    let (rmin, rmax) = side.range();
    let prob = Problem {
        a: side,
        b: Side::EMPTY,
        w_lo: 0,
        w_hi: 0,
    };
    let mut budget = budget;
    match search(&prob, len, 0, 0, rmin, rmax, true, &mut budget) {
        Some(found) => Some(!found),
        None => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unique<const N: usize>(shape: [usize; N], strides: [isize; N]) -> bool {
        let mut order = [0; N];
        is_unique(
            Parts::from_arrays(&shape, &strides, 0, 1),
            &mut order,
            Budget::MAX,
        )
        .unwrap()
    }

    #[test]
    fn ext_gcd_gives_bezout_coefficients() {
        for (a, b) in [(12, 18), (1, 7), (1_000_000, 1_000_001), (5, 5)] {
            let (g, p, q) = ext_gcd(a, b);
            assert_eq!(a * p + b * q, g);
            assert_eq!(a % g, 0);
            assert_eq!(b % g, 0);
            assert_eq!(
                (floor_div(-7, 2), ceil_div(-7, 2), rem_euclid(-7, 2)),
                (-4, -3, 1)
            );
        }
    }

    #[test]
    fn solve2_finds_points_in_the_box() {
        // 3 x1 + 5 x0 = 7: (x1, x0) = (4, -1) or (-1, 2).
        assert!(solve2(3, -1, -1, 5, 0, 5, 7));
        assert!(!solve2(3, 0, 3, 5, 0, 0, 7));
        assert!(solve2(4, 0, 1, 6, 0, 1, 10));
        assert!(!solve2(4, 0, 10, 6, 0, 10, 5));
    }

    #[test]
    fn uniqueness_examples() {
        assert!(unique([2, 3], [3, 1]));
        assert!(!unique([2, 3], [1, 1]));
        assert!(unique([3, 3], [3, 4]));
        assert!(unique([4, 4], [3, 4]));
        assert!(!unique([5, 4], [3, 4]));
        assert!(unique([2, 2, 2], [3, 4, 5]));
        assert!(!unique([4, 2, 2], [3, 4, 5]));
        assert!(unique([0, 5], [0, 0]));
        assert!(!unique([1, 5], [0, 0]));
        assert!(unique([1, 1], [0, 0]));
        assert!(unique([], []));
    }

    #[test]
    #[cfg_attr(
        miri,
        ignore = "safe code only, no unsafe on its path: the native x86-64 and i686 runs check it"
    )]
    fn two_axes_unique_agrees_with_the_search() {
        for e0 in 2..=6usize {
            for e1 in 2..=6usize {
                for s0 in 0..=13usize {
                    for s1 in 0..=13usize {
                        #[expect(clippy::cast_possible_wrap, reason = "small test strides")]
                        let want = unique([e0, e1], [s0 as isize, -(s1 as isize)]);
                        assert_eq!(two_axes_unique(e0, s0, e1, s1), want, "{e0} {s0} {e1} {s1}");
                    }
                }
            }
        }
    }

    #[test]
    fn a_spent_budget_answers_unknown() {
        // Extent-2 axes with strides B + 3^k defeat every fast test.
        let shape = [2usize; 6];
        let strides = [1001isize, 1003, 1009, 1027, 1081, 1243];
        let p = Parts::from_arrays(&shape, &strides, 0, 1);
        let mut order = [0; 6];
        assert_eq!(is_unique(p, &mut order, 1), None);
        assert_eq!(is_unique(p, &mut order, Budget::MAX), Some(true));
    }
}
