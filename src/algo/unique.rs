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
//! All search arithmetic is in `i128`. On a validated layout every `|stride| * itemsize` fits
//! `isize`, so every coefficient is < 2^63 (also in units of the smaller itemsize, which only
//! divides it); every box end is at most an extent, < 2^64; the spans of the axes of one layout
//! add up to the width of its byte bounds, < 2^64, so `rmin`, `rmax` and every target that
//! survives the range test are < 2^66 in magnitude; and each product `c_k x_k` is < 2^127. The
//! extended-gcd step reduces both factors below `c / g` < 2^63 before multiplying. So no `i128`
//! operation here can overflow, which is why this file uses plain operators (the `algo` module
//! lifts `arithmetic_side_effects`).

use super::contiguity::has_zero_extent;
use super::sort::stride_order;

/// One set of axes of a search: `order[..len]` lists the active axes of `shape`/`strides`
/// (extent >= 2, stride != 0), by ascending `|stride|`.
#[derive(Clone, Copy)]
pub(crate) struct Side<'a> {
    pub(crate) shape: &'a [usize],
    pub(crate) strides: &'a [isize],
    pub(crate) order: &'a [usize],
    pub(crate) len: usize,
    /// Coefficient of axis `k` is `|stride| * scale`.
    pub(crate) scale: i128,
    /// The side's sum is subtracted (flips the sign of every axis).
    pub(crate) negate: bool,
    /// Boxes `[-n, n]` (index differences) instead of `[0, n]` or `[-n, 0]`.
    pub(crate) symmetric: bool,
}

impl Side<'_> {
    /// A side with no axis.
    pub(crate) const EMPTY: Side<'static> = Side {
        shape: &[],
        strides: &[],
        order: &[],
        len: 0,
        scale: 1,
        negate: false,
        symmetric: false,
    };

    /// Coefficient and box `(c, l, u)` of the `k`-th smallest active axis.
    const fn axis(&self, k: usize) -> (i128, i128, i128) {
        let ax = self.order[k];
        let stride = self.strides[ax];
        let coef = stride.unsigned_abs() as i128 * self.scale;
        // Active axes have extent >= 2, so `- 1` cannot wrap.
        let n = (self.shape[ax] - 1) as i128;
        if self.symmetric {
            (coef, -n, n)
        } else if (stride > 0) != self.negate {
            (coef, 0, n)
        } else {
            (coef, -n, 0)
        }
    }

    /// The gcd of `g` and every coefficient of the side (`g` itself when it has no axis).
    pub(crate) const fn gcd_with(&self, g: i128) -> i128 {
        let mut g = g;
        let mut k = 0;
        while k < self.len {
            g = gcd(g, self.axis(k).0);
            k += 1;
        }
        g
    }

    /// Sums of the lower and upper box ends times the coefficients, over all active axes.
    pub(crate) const fn range(&self) -> (i128, i128) {
        let (mut lo, mut hi) = (0i128, 0i128);
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

/// Lists in `order` the active axes (extent >= 2, stride != 0) by ascending `|stride|`;
/// returns how many there are. `order` is as long as `shape`.
///
/// The sort is the crate's one stride sort ([`stride_order`], largest first), reversed; how
/// it breaks ties does not matter here, only that equal `|stride|`s end up adjacent.
pub(crate) const fn sort_active(shape: &[usize], strides: &[isize], order: &mut [usize]) -> usize {
    stride_order(shape, strides, order);
    let n = order.len();
    let mut i = 0;
    while i < n / 2 {
        let t = order[i];
        order[i] = order[n - 1 - i];
        order[n - 1 - i] = t;
        i += 1;
    }
    // Keep the active axes, in place: the write position never passes the read position.
    let mut len = 0;
    i = 0;
    while i < n {
        let ax = order[i];
        if shape[ax] >= 2 && strides[ax] != 0 {
            order[len] = ax;
            len += 1;
        }
        i += 1;
    }
    len
}

/// A search problem: the axes of `a` and `b`, and the slack interval `[w_lo, w_hi]`.
pub(crate) struct Problem<'a> {
    pub(crate) a: Side<'a>,
    pub(crate) b: Side<'a>,
    pub(crate) w_lo: i128,
    pub(crate) w_hi: i128,
}

/// `⌊a / b⌋` for `b > 0`.
const fn floor_div(a: i128, b: i128) -> i128 {
    a.div_euclid(b)
}

/// `⌈a / b⌉` for `b > 0`.
const fn ceil_div(a: i128, b: i128) -> i128 {
    -((-a).div_euclid(b))
}

const fn max(a: i128, b: i128) -> i128 {
    if a > b { a } else { b }
}

const fn min(a: i128, b: i128) -> i128 {
    if a < b { a } else { b }
}

/// `gcd(a, b)` for `a, b >= 0` (`gcd(0, b) = b`).
const fn gcd(a: i128, b: i128) -> i128 {
    let (mut a, mut b) = (a, b);
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// Whether some `x` in `[lo, hi]` is a multiple of `g > 0`.
pub(crate) const fn has_multiple(g: i128, lo: i128, hi: i128) -> bool {
    ceil_div(lo, g) <= floor_div(hi, g)
}

/// `(g, p, q)` with `g = gcd(a, b) = a p + b q`, for `a, b > 0`; `|p| <= b`, `|q| <= a`.
const fn ext_gcd(a: i128, b: i128) -> (i128, i128, i128) {
    let (mut r0, mut r1) = (a, b);
    let (mut p0, mut p1) = (1i128, 0i128);
    let (mut q0, mut q1) = (0i128, 1i128);
    while r1 != 0 {
        let k = r0 / r1;
        (r0, r1) = (r1, r0 - k * r1);
        (p0, p1) = (p1, p0 - k * p1);
        (q0, q1) = (q1, q0 - k * q1);
    }
    (r0, p0, q0)
}

/// Whether `c x = t` for some `x` in `[l, u]` (with `x >= 1` when `positive`).
const fn solve1(c: i128, l: i128, u: i128, t: i128, positive: bool) -> bool {
    let l = if positive { max(l, 1) } else { l };
    t % c == 0 && l <= t / c && t / c <= u
}

/// Whether `c1 x1 + c0 x0 = t` for some `x1` in `[l1, u1]`, `x0` in `[l0, u0]`.
///
/// With `g = gcd(c0, c1)`, the solutions are `x0 = x0b + (c1/g) k`, `x1 = x1b - (c0/g) k`; each
/// box bounds `k` to an interval, and the two intervals must meet. O(log min(c0, c1)).
const fn solve2(c1: i128, l1: i128, u1: i128, c0: i128, l0: i128, u0: i128, t: i128) -> bool {
    if l1 > u1 || l0 > u0 {
        return false;
    }
    let (g, p, _) = ext_gcd(c0, c1);
    if t % g != 0 {
        return false;
    }
    let (m1, m0) = (c1 / g, c0 / g);
    // x0b ≡ p (t/g) (mod m1), in [0, m1): both factors reduced first, so the product < 2^126.
    let x0b = (p.rem_euclid(m1) * (t / g).rem_euclid(m1)).rem_euclid(m1);
    let x1b = (t - c0 * x0b) / c1;
    let k_lo = max(ceil_div(l0 - x0b, m1), ceil_div(x1b - u1, m0));
    let k_hi = min(floor_div(u0 - x0b, m1), floor_div(x1b - l1, m0));
    k_lo <= k_hi
}

/// The largest coefficient among the axes `a[..ka]` and `b[..kb]` (not both empty), merged
/// with every other remaining axis of that coefficient: `(c, l, u)` with the summed box, and
/// the counts left.
///
/// Merging is exact: `c x + c y` with `x` in `[l1, u1]` and `y` in `[l2, u2]` takes exactly the
/// values `c z`, `z` in `[l1 + l2, u1 + u2]`. Two views with the same strides (a matrix and a
/// shifted copy) so search one merged axis per distinct stride. [`is_unique`] never merges:
/// equal strides of extent > 1 are not unique and are rejected before the search.
const fn top(p: &Problem<'_>, ka: usize, kb: usize) -> (i128, i128, i128, usize, usize) {
    let ca = if ka > 0 { p.a.axis(ka - 1).0 } else { 0 };
    let cb = if kb > 0 { p.b.axis(kb - 1).0 } else { 0 };
    let c = max(ca, cb);
    let (mut l, mut u, mut ka, mut kb) = (0i128, 0i128, ka, kb);
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

/// Whether `Σ c x + w = t` has a solution with `x` in the boxes of `a[..ka]`, `b[..kb]` and
/// `w` in `[w_lo, w_hi]`; `rmin`/`rmax` are the smallest/largest values that sum can take.
///
/// With `fresh` (all axes visited so far chose 0), the solution must also have `x != 0`, and
/// only solutions whose first nonzero `x` (largest coefficient first) is positive are searched:
/// enough when the problem is symmetric under `x -> -x` (`t = 0`, symmetric boxes, `w = 0`),
/// the only way [`is_unique`] uses it.
pub(crate) const fn search(
    p: &Problem<'_>,
    ka: usize,
    kb: usize,
    t: i128,
    rmin: i128,
    rmax: i128,
    fresh: bool,
) -> bool {
    if t < rmin || t > rmax {
        return false;
    }
    if ka + kb == 0 {
        return !fresh && p.w_lo <= t && t <= p.w_hi;
    }
    let (cx, lx, ux, ka1, kb1) = top(p, ka, kb);
    let point = p.w_lo == p.w_hi;
    if point && ka1 + kb1 == 0 {
        return solve1(cx, lx, ux, t - p.w_lo, fresh);
    }
    let (rmin1, rmax1) = (rmin - cx * lx, rmax - cx * ux);
    let lo = max(if fresh { max(lx, 0) } else { lx }, ceil_div(t - rmax1, cx));
    let hi = min(ux, floor_div(t - rmin1, cx));
    let (c0, l0, u0, ka2, kb2) = top(p, ka1, kb1);
    if ka2 + kb2 == 0 {
        // Two (merged) axes left: solve each point problem in O(log c) instead of trying
        // every `x`, when there are fewer slack values than values of `x`.
        if point {
            let t = t - p.w_lo;
            if fresh {
                // First nonzero positive: x >= 1, or x == 0 (if allowed) and x0 >= 1.
                return solve2(cx, max(lx, 1), ux, c0, l0, u0, t)
                    || (lx <= 0 && 0 <= ux && solve1(c0, l0, u0, t, true));
            }
            return solve2(cx, lx, ux, c0, l0, u0, t);
        }
        if !fresh && hi - lo > p.w_hi - p.w_lo {
            let mut w = p.w_lo;
            while w <= p.w_hi {
                if solve2(cx, lx, ux, c0, l0, u0, t - w) {
                    return true;
                }
                w += 1;
            }
            return false;
        }
    }
    let mut x = lo;
    while x <= hi {
        if search(p, ka1, kb1, t - cx * x, rmin1, rmax1, fresh && x == 0) {
            return true;
        }
        x += 1;
    }
    false
}

/// Whether no two indices of `shape`/`strides` share an offset; exact.
///
/// `order` is scratch as long as `shape`. After the pigeonhole test (more elements than
/// offsets in the span: not unique), asks [`search`] for a nonzero index difference `d`,
/// `|d_k| <= extent_k - 1`, with `Σ d_k stride_k = 0`.
pub(crate) const fn is_unique(shape: &[usize], strides: &[isize], order: &mut [usize]) -> bool {
    if has_zero_extent(shape) {
        return true;
    }
    let mut i = 0;
    let mut volume: u128 = 1;
    let mut span: u128 = 0;
    while i < shape.len() {
        if shape[i] >= 2 && strides[i] == 0 {
            return false;
        }
        // No extent is 0, so every partial product is at most the volume, which fits `usize`
        // (invariant 2); the span is at most 2^64 (invariant 3).
        volume *= shape[i] as u128;
        span += (shape[i] - 1) as u128 * strides[i].unsigned_abs() as u128;
        i += 1;
    }
    if volume <= 1 {
        return true;
    }
    if volume > span + 1 {
        return false;
    }
    let len = sort_active(shape, strides, order);
    i = 1;
    while i < len {
        // Two axes of extent >= 2 with equal `|stride|`: d = (1, ∓1) repeats an offset.
        if strides[order[i]].unsigned_abs() == strides[order[i - 1]].unsigned_abs() {
            return false;
        }
        i += 1;
    }
    // Mixed-radix fast path (cuda.core's sufficient test): when each `|stride|`, ascending,
    // exceeds the span of all smaller axes, different indices cannot collide. It settles every
    // layout made from a dense one by permuting, slicing or flipping with adds and multiplies
    // only, before the search's `i128` divisions. The sums are bounded by `span` above.
    let mut covered: u128 = 0;
    i = 0;
    while i < len {
        let ax = order[i];
        let stride = strides[ax].unsigned_abs() as u128;
        if stride <= covered {
            break;
        }
        covered += stride * (shape[ax] - 1) as u128;
        i += 1;
    }
    if i == len {
        return true;
    }
    let side = Side {
        shape,
        strides,
        order,
        len,
        scale: 1,
        negate: false,
        symmetric: true,
    };
    let (rmin, rmax) = side.range();
    let p = Problem {
        a: side,
        b: Side::EMPTY,
        w_lo: 0,
        w_hi: 0,
    };
    !search(&p, len, 0, 0, rmin, rmax, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unique<const N: usize>(shape: [usize; N], strides: [isize; N]) -> bool {
        let mut order = [0; N];
        is_unique(&shape, &strides, &mut order)
    }

    #[test]
    fn ext_gcd_gives_bezout_coefficients() {
        for (a, b) in [(12, 18), (1, 7), (1_000_000, 1_000_001), (5, 5)] {
            let (g, p, q) = ext_gcd(a, b);
            assert_eq!(a * p + b * q, g);
            assert_eq!(a % g, 0);
            assert_eq!(b % g, 0);
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
}
