#!/usr/bin/env python3
"""Emit the C++ sources that record CuTe's own answers for its layout algebra.

Driven by scripts/cute_algebra_cases.sh, which compiles and runs what this writes and produces
tests/data/cute_algebra.tsv (and tests/data/cute_algebra_refused.tsv). Pure Python 3 standard
library; no CuTe needed to run it.

What it does:
  * draws random *static* layouts (every extent and stride a `cute::Int<N>`, because CuTe's
    coalesce/composition/complement only merge or drop modes whose values are static) from a
    fixed-seed PRNG (`random.Random(SEED)`), so the output is identical on every run:
    1 to 4 leaves, nested to depth 2 (`(4,(2,3))`, `((2,2),4)`), extents 1..8 (1s included),
    strides 0..64, non-negative, mixing random strides with natural ones (compact column-major,
    row-major, permuted compact, compact with gaps, broadcast stride 0);
  * for every function keeps only the cases CuTe (CUTLASS 4.2.0) accepts, judged by a
    line-by-line Python port of `coalesce`, `coalesce_x`, `filter`, `complement`,
    `composition_impl`, `right_inverse`, `left_inverse`, `logical_divide` and
    `logical_product` in cute/layout.hpp, including their static_asserts (the port also
    predicts the printed result; the shell script compares that prediction with C++);
  * writes `tu_NN.cpp` translation units, one `case_<id>()` function per case so that g++'s
    instantiation backtrace names a case that CuTe refuses after all, a `manifest.txt` listing
    them in output order, `expected.tsv` (the port's predictions), and `refused_<fn>.cpp` +
    `refused.tsv`: up to REFUSED_PER_FN cases per function that the port says CuTe rejects at
    compile time (the shell script keeps only those g++ really rejects).

Functions (CuTe names, B a plain Layout unless noted): coalesce, composition, complement (B is
the static integer cotarget n), right_inverse, left_inverse, logical_divide, zipped_divide,
tiled_divide, flat_divide, logical_product, zipped_product, tiled_product, blocked_product,
raked_product, the by-mode (tiler) forms composition_tile, logical_divide_tile,
zipped_divide_tile, where B is `cute::make_tile(b0, b1)` and written `b0;b1`, and swizzle:
CuTe's `composition(Swizzle<B,M,S>{}, A{})` (cute/swizzle_layout.hpp; a ComposedLayout, or A
itself when B = 0), recorded as `swizzle<TAB>A<TAB>B,M,S<TAB>o0,o1,...`, the offsets sl(i) for
every 1-D coordinate i in 0..size(A), e.g. `swizzle  4:4  1,2,-3  0,36,8,44`.
Its layouts: random ones with 1 to 3 leaves (as above), and in about 15% of cases a realistic
tile, row-major (m,n):(n,1) or column-major (m,n):(1,m), for (m,n) in SWIZZLE_TILES; B in 0..3,
M in 0..4, S in {-5,-4,-3,3,4,5} (so |S| >= B, CuTe's static_assert). The port predicts them
with Swizzle::apply: o ^ shiftr(o & yyy_msk, S), yyy_msk = ((1<<B)-1) << (M + max(0,S)).

Drawing order (one PRNG, so the earlier cases never change when later ones are added):
  pass 0: COUNTS, group by group (the 18,000 cases of the first version of this file, and the
          only pass that collects refused candidates);
  pass 1: EXTRA_COUNTS, 300 more of each cheap group (coalesce, composition, complement,
          right_inverse, left_inverse);
  pass 2: the swizzle group, SWIZZLE_COUNT cases.
Output (case ids, units, TSV lines) follows the same order: pass 0's cases exactly as a pass 0
alone would write them, then pass 1's, then pass 2's.

Usage: cute_algebra_cases.py OUTDIR [EXCLUDE_FILE]
  EXCLUDE_FILE lists case ids (one per line) to leave out, e.g. ones g++ refused.
Takes about 3 s. Writes 20,100 cases in 43 units: 1,800 per unary function, complement and
composition (1,500 in pass 0 + 300 in pass 1); 1,100 per divide, 1,000 per product, 500
composition_tile, 300 per *_divide_tile; 600 swizzle.
"""

import os
import random
import sys

SEED = 20250904
CASES_PER_TU = 300
REFUSED_PER_FN = 50

# How many accepted cases to draw per group of functions. Functions of one group share their
# inputs, so their common sub-instantiations (logical_divide inside zipped/tiled/flat_divide,
# logical_product inside the other products) are compiled once.
COUNTS = {
    "coalesce": 1500,
    "composition": 1500,
    "complement": 1500,
    "right_inverse": 1500,
    "left_inverse": 1500,
    "divide": 1100,      # logical_divide, zipped_divide, tiled_divide, flat_divide
    "product": 1000,     # logical_product, zipped_product, tiled_product, blocked_product, raked_product
    "composition_tile": 500,
    "divide_tile": 300,  # logical_divide_tile, zipped_divide_tile
}
# A second pass, drawn from the same PRNG after every case above (so those stay as they were):
# more cases of the cheap groups. Its cases come after the first pass's in the TSV, and inputs
# it finds refused are not added to the refused candidates (which the first pass alone fills).
EXTRA_COUNTS = {
    "coalesce": 300,
    "composition": 300,
    "complement": 300,
    "right_inverse": 300,
    "left_inverse": 300,
}
# Then, drawn after the second pass and written last: composition(Swizzle<B,M,S>{}, layout).
SWIZZLE_COUNT = 600
# Realistic shared-memory tiles among the swizzle group's layouts, row-major and column-major.
SWIZZLE_TILES = [(8, 8), (16, 16), (8, 32), (8, 64), (32, 32)]
GROUP_FNS = {
    "coalesce": ["coalesce"],
    "composition": ["composition"],
    "complement": ["complement"],
    "right_inverse": ["right_inverse"],
    "left_inverse": ["left_inverse"],
    "divide": ["logical_divide", "zipped_divide", "tiled_divide", "flat_divide"],
    "product": ["logical_product", "zipped_product", "tiled_product", "blocked_product",
                "raked_product"],
    "composition_tile": ["composition_tile"],
    "divide_tile": ["logical_divide_tile", "zipped_divide_tile"],
    "swizzle": ["swizzle"],
}
# C++ expression for each recorded function, given A (and B) as types.
CPP_CALL = {
    "coalesce": "coalesce(A{})",
    "composition": "composition(A{}, B{})",
    "complement": "complement(A{}, B{})",
    "right_inverse": "right_inverse(A{})",
    "left_inverse": "left_inverse(A{})",
    "logical_divide": "logical_divide(A{}, B{})",
    "zipped_divide": "zipped_divide(A{}, B{})",
    "tiled_divide": "tiled_divide(A{}, B{})",
    "flat_divide": "flat_divide(A{}, B{})",
    "logical_product": "logical_product(A{}, B{})",
    "zipped_product": "zipped_product(A{}, B{})",
    "tiled_product": "tiled_product(A{}, B{})",
    "blocked_product": "blocked_product(A{}, B{})",
    "raked_product": "raked_product(A{}, B{})",
    "composition_tile": "composition(A{}, make_tile(B0{}, B1{}))",
    "logical_divide_tile": "logical_divide(A{}, make_tile(B0{}, B1{}))",
    "zipped_divide_tile": "zipped_divide(A{}, make_tile(B0{}, B1{}))",
    "swizzle": "composition(Sw{}, A{})",
}

MAX_STRIDE = 64


class Refused(Exception):
    """CuTe would fail a static_assert on this input."""


# ---------------------------------------------------------------------------------------------
# Int-tuples: an int, or a Python tuple of int-tuples. A layout is a pair (shape, stride).


def flat(t):
    return [t] if isinstance(t, int) else [x for e in t for x in flat(e)]


def prod(xs):
    p = 1
    for x in xs:
        p *= x
    return p


def unflatten(values, profile):
    """Fill `profile`'s leaves, in order, from the iterator `values`."""
    if isinstance(profile, int):
        return next(values)
    return tuple(unflatten(values, p) for p in profile)


def fmt(t):
    if isinstance(t, int):
        return str(t)
    return "(" + ",".join(fmt(e) for e in t) + ")"


def fmt_layout(l):
    return fmt(l[0]) + ":" + fmt(l[1])


def cpp_type(t, kind):
    if isinstance(t, int):
        return "Int<%d>" % t
    return "%s<%s>" % (kind, ",".join(cpp_type(e, kind) for e in t))


def cpp_layout(l):
    return "Layout<%s, %s>" % (cpp_type(l[0], "Shape"), cpp_type(l[1], "Stride"))


def ceil_div(a, b):
    """cute::ceil_div for an int or a tuple `a` over an int `b`."""
    if isinstance(a, int):
        return (a + b - 1) // b
    result = []
    rest = b
    for ai in a:
        result.append(ceil_div(ai, rest))
        rest = ceil_div(rest, ai)
    return tuple(result)


def mode(l, i):
    return (l[0][i], l[1][i])


# ---------------------------------------------------------------------------------------------
# Port of cute/layout.hpp (CUTLASS 4.2.0), static layouts with non-negative strides only.


def _bw_coalesce(fs, fd, ns, nd):
    # ns/nd: an int (single mode) or a list (several modes), as the C++ NewShape/NewStride.
    for i in range(len(fs) - 2, -1, -1):
        if fs[i] == 1:
            continue
        if isinstance(ns, int) and ns == 1:
            ns, nd = fs[i], fd[i]
            continue
        front_d = nd if isinstance(nd, int) else nd[0]
        if fs[i] * fd[i] == front_d:
            if isinstance(ns, int):
                ns, nd = fs[i] * ns, fd[i]
            else:
                ns, nd = [fs[i] * ns[0]] + ns[1:], [fd[i]] + nd[1:]
        else:
            ns = [fs[i]] + (ns if isinstance(ns, list) else [ns])
            nd = [fd[i]] + (nd if isinstance(nd, list) else [nd])
    if isinstance(ns, int):
        return (1, 0) if ns == 1 else (ns, nd)
    return (tuple(ns), tuple(nd))


def coalesce(l):
    fs, fd = flat(l[0]), flat(l[1])
    return _bw_coalesce(fs, fd, fs[-1], fd[-1])


def coalesce_x(l):
    fs, fd = flat(l[0]), flat(l[1])
    return _bw_coalesce(fs, fd, 2 if fs[-1] == 1 else fs[-1], fd[-1])


def filter_layout(l):
    def fz(s, d):
        if isinstance(d, int):
            return 1 if d == 0 else s
        return tuple(fz(a, b) for a, b in zip(s, d))
    return coalesce((fz(l[0], l[1]), l[1]))


def size(l):
    return prod(flat(l[0]))


def cosize(l):
    return 1 + sum((s - 1) * abs(d) for s, d in zip(flat(l[0]), flat(l[1])))


def complement(l, cotarget):
    shape, stride = filter_layout(l)
    if isinstance(stride, int) and stride == 0:
        n = prod(flat(cotarget))
        return (n, 0 if n == 1 else 1)  # make_layout(n): compact, and a static 1 gets stride 0
    sh, st = flat(shape), flat(stride)
    r = len(sh)
    rshape, rstride = [], [1]
    for i in range(r - 1):
        m = min(st)
        idx = st.index(m)
        new_shape = m // rstride[i]
        if new_shape == 0:
            raise Refused("complement: non-injective")
        rshape.append(new_shape)
        rstride.append(m * sh[idx])
        del sh[idx]
        del st[idx]
    new_shape = st[0] // rstride[r - 1]
    if new_shape == 0:
        raise Refused("complement: non-injective")
    rshape.append(new_shape)
    new_stride = st[0] * sh[0]
    rest_shape = prod(flat(ceil_div(cotarget, new_stride)))
    return coalesce((tuple(rshape) + (rest_shape,), tuple(rstride[:r]) + (new_stride,)))


def _composition_impl(ls, ld, rs, rd):
    if not isinstance(rs, int):
        subs = [_composition_impl(ls, ld, s, d) for s, d in zip(rs, rd)]
        return (tuple(s for s, _ in subs), tuple(d for _, d in subs))
    if rd == 0:
        return (rs, rd)
    if isinstance(ls, int):
        return (rs, rd * ld)
    res_s, res_d = [], []
    rest_s, rest_d = rs, rd
    for i in range(len(ls) - 1):
        cs, cd = ls[i], ld[i]
        if not (rest_d % cs == 0 or rest_d < cs):
            raise Refused("composition: stride divisibility")
        next_shape = ceil_div(cs, abs(rest_d))
        next_stride = ceil_div(abs(rest_d), cs)
        if next_shape == 1 or rest_s == 1:
            rest_d = next_stride
        else:
            new_shape = min(next_shape, rest_s)
            if rest_s % new_shape != 0:
                raise Refused("composition: shape divisibility")
            res_s.append(new_shape)
            res_d.append(rest_d * cd)
            rest_s //= new_shape
            rest_d = next_stride
    if not res_s:
        return (rest_s, rest_d * ld[-1])
    if rest_s == 1:
        if len(res_s) == 1:
            return (res_s[0], res_d[0])
        return (tuple(res_s), tuple(res_d))
    return (tuple(res_s) + (rest_s,), tuple(res_d) + (rest_d * ld[-1],))


def composition(a, b):
    ls, ld = coalesce_x(a)
    return _composition_impl(ls, ld, b[0], b[1])


def _sorted_by_stride(lst):
    # detail::SortByKey: an exchange sort (not stable) of (stride, index) pairs by stride.
    a = [(k, v) for v, k in enumerate(lst)]
    n = len(a)
    for i in range(n):
        for j in range(i + 1, n):
            if a[j][0] < a[i][0]:
                a[i], a[j] = a[j], a[i]
    return [v for _, v in a]


def _wrap_coalesced(l):
    c = coalesce(l)
    lsh = [c[0]] if isinstance(c[0], int) else list(c[0])
    lst = [c[1]] if isinstance(c[1], int) else list(c[1])
    pre = [1]
    for s in lsh:
        pre.append(s * pre[-1])
    return lsh, lst, pre


def right_inverse(l):
    lsh, lst, pre = _wrap_coalesced(l)
    rs, rd, curr = [1], [0], 1
    for i in _sorted_by_stride(lst):
        if lst[i] == curr:
            rs.append(lsh[i])
            rd.append(pre[i])
            curr = lsh[i] * lst[i]
    return coalesce((tuple(rs), tuple(rd)))


def left_inverse(l):
    lsh, lst, pre = _wrap_coalesced(l)
    order = _sorted_by_stride(lst)
    rs, rd = [], [0]
    for i in order:
        if lst[i] == 0:
            continue
        sz = prod(rs)
        if lst[i] % sz != 0:
            raise Refused("left_inverse: divisibility")
        rs.append(lst[i] // sz)
        rd.append(pre[i])
    return coalesce((tuple(rs) + (lsh[order[-1]],), tuple(rd)))


def logical_divide(a, b):
    c = complement(b, coalesce(a)[0])
    return composition(a, ((b[0], c[0]), (b[1], c[1])))


def logical_product(a, b):
    c = complement(a, size(a) * cosize(b))
    r = composition(c, b)
    return ((a[0], r[0]), (a[1], r[1]))


def rank(l):
    return 1 if isinstance(l[0], int) else len(l[0])


def _append_to_rank(l, r):
    # append<R>(layout): pad with 1:0 modes up to rank R (an integral layout stays as is if R == 1).
    if isinstance(l[0], int):
        if r == 1:
            return l
        return ((l[0],) + (1,) * (r - 1), (l[1],) + (0,) * (r - 1))
    return (l[0] + (1,) * (r - len(l[0])), l[1] + (0,) * (r - len(l[1])))


def _zip(x, y):
    # cute::zip(Layout, Layout): transposes ((x0,x1,..),(y0,y1,..)) when x is a tuple, which then
    # needs y to be a tuple of the same rank (else "Mismatched Ranks"/incomplete tuple_size);
    # when x is an integral layout the result is ((x,y)).
    def z(a, b):
        if isinstance(a, int):
            return ((a, b),)
        if isinstance(b, int) or len(b) != len(a):
            raise Refused("zip: mismatched ranks")
        return tuple((ai, bi) for ai, bi in zip(a, b))
    return (z(x[0], y[0]), z(x[1], y[1]))


def blocked_raked_product(a, b, raked):
    r = max(rank(a), rank(b))
    res = logical_product(_append_to_rank(a, r), _append_to_rank(b, r))
    m0, m1 = mode(res, 0), mode(res, 1)
    return _zip(m1, m0) if raked else _zip(m0, m1)


def _by_mode(f, a, bs, keep_rest):
    modes = [f(mode(a, i), b) for i, b in enumerate(bs)]
    if keep_rest:
        modes += [mode(a, i) for i in range(len(bs), rank(a))]
    return (tuple(m[0] for m in modes), tuple(m[1] for m in modes))


def offsets(l):
    """l(i) for every 1-D coordinate i in 0..size(l) (colexicographic over the flat leaves)."""
    fs, fd = flat(l[0]), flat(l[1])
    result = []
    for i in range(prod(fs)):
        o, rest = 0, i
        for s, d in zip(fs, fd):
            o += (rest % s) * d
            rest //= s
        result.append(o)
    return result


def swizzle(bms, o):
    """cute::Swizzle<B,M,S>::apply: ZZZ ^= YYY (a shift right by S, left when S < 0)."""
    b, m, s = bms
    yyy_msk = ((1 << b) - 1) << (m + max(0, s))
    y = o & yyy_msk
    return o ^ (y >> s if s >= 0 else y << -s)


def predict(fn, a, b):
    """The port's printed result, '?' when it does not model fn's result, or raise Refused."""
    if fn == "swizzle":
        return ",".join(str(swizzle(b, o)) for o in offsets(a))
    if fn == "coalesce":
        return fmt_layout(coalesce(a))
    if fn == "composition":
        return fmt_layout(composition(a, b))
    if fn == "complement":
        return fmt_layout(complement(a, b))
    if fn == "right_inverse":
        return fmt_layout(right_inverse(a))
    if fn == "left_inverse":
        return fmt_layout(left_inverse(a))
    if fn == "logical_divide":
        return fmt_layout(logical_divide(a, b))
    if fn in ("zipped_divide", "tiled_divide", "flat_divide"):
        logical_divide(a, b)
        return "?"
    if fn == "logical_product":
        return fmt_layout(logical_product(a, b))
    if fn == "blocked_product":
        return fmt_layout(blocked_raked_product(a, b, False))
    if fn == "raked_product":
        return fmt_layout(blocked_raked_product(a, b, True))
    if fn in ("zipped_product", "tiled_product"):
        logical_product(a, b)
        return "?"
    if fn == "composition_tile":
        return fmt_layout(_by_mode(composition, a, b, False))
    if fn == "logical_divide_tile":
        return fmt_layout(_by_mode(logical_divide, a, b, True))
    if fn == "zipped_divide_tile":
        _by_mode(logical_divide, a, b, True)
        return "?"
    raise ValueError(fn)


# ---------------------------------------------------------------------------------------------
# Random layouts.


def rand_extent(rng):
    if rng.random() < 0.14:
        return 1
    return rng.choice([2, 2, 2, 4, 4, 4, 8, 8, 3, 3, 5, 6, 7])


def rand_profile(rng, nleaves):
    """A shape profile with `nleaves` leaves, depth <= 2 (leaves are 0)."""
    if nleaves == 1:
        return 0 if rng.random() < 0.85 else (0,)
    m = rng.randint(1, nleaves)
    if m == 1 or m == nleaves:
        return tuple([0] * nleaves)
    cuts = sorted(rng.sample(range(1, nleaves), m - 1))
    sizes = [b - a for a, b in zip([0] + cuts, cuts + [nleaves])]
    return tuple(0 if s == 1 else tuple([0] * s) for s in sizes)


def compact_strides(extents, order, base=1, gaps=False, rng=None):
    strides = [0] * len(extents)
    cur = base
    for i in order:
        strides[i] = cur
        cur *= extents[i]
        if gaps:
            cur *= rng.choice([1, 1, 2, 3])
    return strides


def rand_layout(rng, max_leaves=4, kind=None):
    while True:
        n = rng.choice([1, 2, 2, 3, 3, 3, 4, 4, 4])
        if n > max_leaves:
            n = rng.randint(1, max_leaves)
        prof = rand_profile(rng, n)
        ext = [rand_extent(rng) for _ in range(n)]
        k = kind or rng.choice(["compact", "compact", "row", "perm", "perm", "gaps", "gaps",
                                "bcast", "random", "random"])
        order = list(range(n))
        if k == "row":
            order.reverse()
        elif k in ("perm", "gaps", "bcast"):
            rng.shuffle(order)
        if k == "random":
            st = [rng.choice([0, 1, 1, 2, 4, 8]) if rng.random() < 0.5 else rng.randint(0, 64)
                  for _ in range(n)]
        elif k == "gaps":
            st = compact_strides(ext, order, base=rng.choice([1, 1, 2, 3]), gaps=True, rng=rng)
        else:
            st = compact_strides(ext, order)
        if k == "bcast":
            for _ in range(rng.randint(1, max(1, n - 1))):
                st[rng.randrange(n)] = 0
        if max(st) > MAX_STRIDE:
            continue
        return (unflatten(iter(ext), prof), unflatten(iter(st), prof))


def rand_tile(rng, a):
    """A tiler / B operand: small, often compact, sized to fit a."""
    l = rand_layout(rng, max_leaves=rng.choice([1, 1, 2, 2, 3]))
    return l


def draw_inputs(rng, group):
    """One random input pair (a, b) for `group`, or None when the draw is to be skipped."""
    if group in ("coalesce", "right_inverse", "left_inverse"):
        return rand_layout(rng), None
    if group == "complement":
        a = rand_layout(rng)
        fl = filter_layout(a)
        b = rng.choice([cosize(a), cosize(fl), cosize(a) * rng.randint(1, 4),
                        size(a) * rng.randint(1, 3), rng.randint(1, 128)])
        return a, max(1, min(b, 512))
    if group in ("composition", "divide", "product"):
        a = rand_layout(rng)
        b = rand_tile(rng, a)
        if group == "composition" and rng.random() < 0.5:
            # b addresses a's domain: a compact/permuted layout of a sub-size of a.
            b = rand_layout(rng, max_leaves=3, kind=rng.choice(["compact", "perm", "row"]))
        if group == "product" and size(a) * cosize(b) > 4096:
            return None
        return a, b
    if group == "swizzle":
        # b = (B, M, S); every such Swizzle passes CuTe's static_asserts (|S| >= 3 >= B).
        b = (rng.randint(0, 3), rng.randint(0, 4), rng.choice([-5, -4, -3, 3, 4, 5]))
        if rng.random() < 0.15:
            m, n = rng.choice(SWIZZLE_TILES)
            a = ((m, n), (n, 1)) if rng.random() < 0.5 else ((m, n), (1, m))
        else:
            a = rand_layout(rng, max_leaves=3)
        return a, b
    # by-mode forms: a of rank >= 2, tiler of two layouts
    a = rand_layout(rng)
    if rank(a) < 2:
        return None
    return a, (rand_layout(rng, max_leaves=2), rand_layout(rng, max_leaves=2))


def gen_cases():
    """(accepted, refused): accepted = [(pass, group, a, b, preds)] in drawing order, pass 0
    for COUNTS, 1 for EXTRA_COUNTS, 2 for the swizzle group; refused = {fn: [(a, b)]}."""
    rng = random.Random(SEED)
    accepted = []
    refused = {}    # fn -> [(a, b)]
    seen = set()

    def try_case(pass_no, group, a, b):
        fns = GROUP_FNS[group]
        key = (group, repr(a), repr(b))
        if key in seen:
            return False
        seen.add(key)
        preds = []
        for fn in fns:
            try:
                preds.append(predict(fn, a, b))
            except Refused:
                preds.append(None)
                lst = refused.setdefault(fn, [])
                if pass_no == 0 and len(lst) < REFUSED_PER_FN:
                    lst.append((a, b))
        if None in preds:  # a group's functions share their inputs: all must accept them
            return False
        accepted.append((pass_no, group, a, b, preds))
        return True

    passes = [(0, COUNTS), (1, EXTRA_COUNTS), (2, {"swizzle": SWIZZLE_COUNT})]
    for pass_no, counts in passes:
        for group, count in counts.items():
            got = 0
            tries = 0
            while got < count and tries < 200 * count:
                tries += 1
                inputs = draw_inputs(rng, group)
                if inputs is not None and try_case(pass_no, group, *inputs):
                    got += 1
    return accepted, refused


def b_text(fn, b):
    if b is None:
        return "-"
    if isinstance(b, int):
        return str(b)
    if fn == "swizzle":
        return "%d,%d,%d" % b
    if fn.endswith("_tile"):
        return fmt_layout(b[0]) + ";" + fmt_layout(b[1])
    return fmt_layout(b)


def case_body(fn, a, b):
    lines = ["  using A = %s;" % cpp_layout(a)]
    if isinstance(b, int):
        lines.append("  using B = Int<%d>;" % b)
    elif fn == "swizzle":
        lines.append("  using Sw = Swizzle<%d,%d,%d>;" % b)
    elif fn.endswith("_tile"):
        lines.append("  using B0 = %s;" % cpp_layout(b[0]))
        lines.append("  using B1 = %s;" % cpp_layout(b[1]))
    elif b is not None:
        lines.append("  using B = %s;" % cpp_layout(b))
    return lines


PRELUDE = """\
// Generated by scripts/cute_algebra_cases.py; do not edit.
#include <cute/layout.hpp>

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <string>

using namespace cute;

// CuTe's printed form (operator<<) without the `_` that marks static integers.
template <class L>
static void emit(const char* fn, const char* a, const char* b, L const& result) {
  std::ostringstream os;
  os << result;
  std::string s = os.str();
  s.erase(std::remove(s.begin(), s.end(), '_'), s.end());
  std::printf("%s\\t%s\\t%s\\t%s\\n", fn, a, b, s.c_str());
}
"""

# PRELUDE of the swizzle group's units only (the other units stay as they were).
SWIZZLE_PRELUDE = PRELUDE.replace("#include <cute/layout.hpp>\n",
                                  "#include <cute/layout.hpp>\n#include <cute/swizzle_layout.hpp>\n")
SWIZZLE_PRELUDE += """
// sl(i) for every 1-D coordinate i in 0..n, comma-separated (sl: a ComposedLayout, or the
// plain layout that composition(Swizzle<0,M,S>, layout) returns).
template <class SL, class N>
static void emit_offsets(const char* fn, const char* a, const char* b, SL const& sl, N const& n) {
  std::string s;
  for (int i = 0; i < int(n); ++i) {
    if (i) s += ',';
    s += std::to_string(int(sl(i)));
  }
  std::printf("%s\\t%s\\t%s\\t%s\\n", fn, a, b, s.c_str());
}
"""


def emit_call(fn, a, b):
    if fn == "swizzle":
        return '  emit_offsets("%s", "%s", "%s", %s, size(A{}));' % (
            fn, fmt_layout(a), b_text(fn, b), CPP_CALL[fn])
    return '  emit("%s", "%s", "%s", %s);' % (fn, fmt_layout(a), b_text(fn, b), CPP_CALL[fn])


def main():
    outdir = sys.argv[1]
    exclude = set()
    if len(sys.argv) > 2 and os.path.exists(sys.argv[2]):
        with open(sys.argv[2]) as f:
            exclude = {int(x) for x in f.read().split()}
    os.makedirs(outdir, exist_ok=True)
    accepted, refused = gen_cases()

    # One case per (function, a, b); ids are stable whatever is excluded. Ordered by pass, then
    # by function, so the first pass's ids, units and output are those of a first pass alone.
    cases = []  # (id, fn, a, b, pred, pass)
    for pass_no, group, a, b, preds in accepted:
        for fn, pred in zip(GROUP_FNS[group], preds):
            cases.append((fn, a, b, pred, pass_no))
    order = [fn for g in GROUP_FNS.values() for fn in g]
    # stable: generation order within a function
    cases.sort(key=lambda c: (c[4], order.index(c[0])))
    cases = [(i,) + c for i, c in enumerate(cases)]

    # Translation units: by pass and group, CASES_PER_TU input pairs per TU, all functions of
    # the group for those pairs in the same TU (they share instantiations).
    by_group = {}
    for c in cases:
        g = next(k for k, v in GROUP_FNS.items() if c[1] in v)
        by_group.setdefault((c[5], g), []).append(c)
    tus = []  # list of lists of cases, printed in case-id order within a TU
    for (_, g), cs in by_group.items():
        fns = GROUP_FNS[g]
        per_fn = [[c for c in cs if c[1] == fn] for fn in fns]
        n = len(per_fn[0])
        for start in range(0, n, CASES_PER_TU):
            tus.append([c for lst in per_fn for c in lst[start:start + CASES_PER_TU]])

    manifest = []
    for k, tu in enumerate(tus):
        name = "tu_%02d" % k
        manifest.append(name)
        if any(c[1] == "swizzle" for c in tu):
            out = [SWIZZLE_PRELUDE]
        else:
            out = [PRELUDE]
        calls = []
        for cid, fn, a, b, _, _ in tu:
            if cid in exclude:
                continue
            out.append("static void case_%d() {" % cid)
            out += case_body(fn, a, b)
            out.append(emit_call(fn, a, b))
            out.append("}")
            calls.append("  case_%d();" % cid)
        out.append("int main() {")
        out += calls
        out.append("  return 0;")
        out.append("}")
        with open(os.path.join(outdir, name + ".cpp"), "w") as f:
            f.write("\n".join(out) + "\n")
    with open(os.path.join(outdir, "manifest.txt"), "w") as f:
        f.write("\n".join(manifest) + "\n")
    with open(os.path.join(outdir, "expected.tsv"), "w") as f:
        for cid, fn, a, b, pred, _ in cases:
            if cid not in exclude:
                f.write("%s\t%s\t%s\t%s\n" % (fn, fmt_layout(a), b_text(fn, b), pred))

    # Refused candidates: one TU per function, checked with g++ -fsyntax-only; ids 1000000+.
    rid = 1000000
    rows = []
    rmanifest = []
    for fn in order:
        cs = refused.get(fn, [])
        if not cs:
            continue
        name = "refused_" + fn
        rmanifest.append(name)
        out = [PRELUDE]
        for a, b in cs:
            out.append("void case_%d() {" % rid)
            out += case_body(fn, a, b)
            out.append(emit_call(fn, a, b))
            out.append("}")
            rows.append("%d\t%s\t%s\t%s\trefused" % (rid, fn, fmt_layout(a), b_text(fn, b)))
            rid += 1
        with open(os.path.join(outdir, name + ".cpp"), "w") as f:
            f.write("\n".join(out) + "\n")
    with open(os.path.join(outdir, "refused.tsv"), "w") as f:
        f.write("\n".join(rows) + "\n")
    with open(os.path.join(outdir, "refused_manifest.txt"), "w") as f:
        f.write("\n".join(rmanifest) + "\n")

    counts = {}
    for c in cases:
        counts[c[1]] = counts.get(c[1], 0) + 1
    sys.stderr.write("cute_algebra_cases.py: %d cases in %d TUs (%s); %d refused candidates\n"
                     % (len(cases), len(tus),
                        ", ".join("%s %d" % (fn, counts.get(fn, 0)) for fn in order), len(rows)))


if __name__ == "__main__":
    main()
