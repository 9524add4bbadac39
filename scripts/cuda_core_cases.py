#!/usr/bin/env python3
"""Generate `tests/data/cuda_core_cases.txt`: cuda.core's own answers, replayed by
`tests/cuda_core.rs`.

    pip install cuda-core==1.2.2 cuda-bindings==12.* numpy   # no GPU needed
    python3 scripts/cuda_core_cases.py > tests/data/cuda_core_cases.txt

`StridedLayout` is pure host code (`cuda.core._layout._StridedLayout` in 1.2.2, public as
`cuda.core.experimental.utils.StridedLayout` in older releases). The RNG seed is fixed,
so the output is deterministic for one cuda.core version.

Line format (one case per line, fields separated by single spaces, `#` starts a comment):

    layout  L = shape/strides/offset/itemsize, lists comma-separated, `-` for an empty list
            (rank 0), e.g. `2,3/3,1/0/4` or `-/-/5/8`
    Q L cc cf ca dense unique bounds req order mask
            queries: booleans 0/1; bounds `min,max` exactly as cuda.core returns them
            ((0,-1) when empty); req the required size in bytes or `error`; order the
            stride order (`-` at rank 0); mask the flattened-axis mask as an integer
    M L max ptr axis answer
            max_compatible_itemsize(max, ptr, axis): an integer or `error`
    C L op1 R1 [op2 R2 [op3 R3]]
            a chain: op1 applied to L gives R1 (a layout or `error`), op2 applied to R1
            gives R2, ... A chain stops at its first `error`.
    B shape bytestrides itemsize L|error
            Layout::from_byte_strides (cuda.core: divide_strides=True)
    N L reshape=e,e,.. ok|error
            NumPy's verdict on the same reshape with `copy=False` (a second oracle:
            our `reshaped` promises to succeed wherever NumPy reshapes without a copy).
            One line for every reshape step of every chain, input L being that step's.

Operations (our argument conventions; the script translates them for cuda.core):

    perm=a,b,c          permuted
    flip=a              flipped (cuda.core: slice ::-1 on axis a)
    slice=S,S,..        sliced, S = start:stop:step with `_` for None (`-` at rank 0)
    narrow=a,start,len  narrowed (cuda.core: start:start+len on axis a, which clamps)
    select=a,i          selected (cuda.core: integer index i on axis a)
    bcast=e,e,..        broadcast_to (`-` for rank 0)
    repack=item,ptr,ax  repacked (keep_dim=True)
    dense=C|F|K|p.p.p   to_dense with Order C, F, Keep or Perm
    unsq=a              unsqueezed
    unsqs=a,b           unsqueezed_axes with two result positions (cuda.core: a tuple)
    repackd=item,ptr,ax repacked_dropping_axis (cuda.core: keep_dim=False)
    squeeze             squeezed
    flat                flattened()
    flatr=s,e           flattened_range(s, e), end exclusive (cuda.core: inclusive end e-1)
    flatm=bits          flattened_with_mask
    reshape=e,e,..      reshaped (one -1 allowed; `-` for rank 0)
"""

import random

import numpy as np

try:
    from cuda.core._layout import _StridedLayout as SL
except ImportError:  # older releases
    from cuda.core.experimental.utils import StridedLayout as SL

SEED = 20251123
MAX_RANK = 6  # ranks of inputs are 0..=5; unsqueeze and broadcast may reach 6
ITEMSIZES = [1, 2, 4, 8, 16]
PTRS = [0, 0, 0, 1, 2, 4, 6, 8, 12, 16, 32, 0x1000, 0x1004, 0x1002]


def lst(xs):
    return ",".join(str(x) for x in xs) if len(xs) else "-"


def fmt_layout(l):
    strides = l.strides
    if strides is None:  # implicit C strides; never produced by our inputs, but be safe
        strides = SL.dense(l.shape, l.itemsize).strides
    return f"{lst(l.shape)}/{lst(strides)}/{l.slice_offset}/{l.itemsize}"


def make(shape, strides, offset, itemsize):
    """A cuda.core layout with a slice offset (only reachable through slicing there)."""
    l = SL(tuple(shape), tuple(strides), itemsize)
    if offset:
        # Prepend an axis of extent offset+1 (or flip it for negatives) and select the
        # last index: the only public way to set slice_offset. Simpler: a 1-d helper.
        base = SL((abs(offset) + 1,) + tuple(shape), (1 if offset > 0 else -1,) + tuple(strides), itemsize)
        l = base[abs(offset)]
        assert l.slice_offset == offset and l.shape == tuple(shape) and l.strides == tuple(strides), (l, offset)
    return l


# ---------------------------------------------------------------- layouts


def random_layout(rng):
    n = rng.choice([0, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5])
    item = rng.choice(ITEMSIZES)
    kind = rng.random()
    shape = [rng.choice([0, 1, 1, 2, 2, 3, 3, 4, 4] if rng.random() < 0.15 else [1, 1, 2, 2, 3, 3, 4, 4]) for _ in range(n)]
    if kind < 0.45:
        strides = [rng.choice([-6, -5, -4, -3, -2, -1, 0, 0, 1, 1, 2, 3, 4, 5, 6]) for _ in range(n)]
        offset = rng.choice([0, 0, 0, rng.randint(-10, 40)])
    else:
        # dense in some order, then maybe a step, a flip, a unit-axis stride change, an offset
        order = list(range(n))
        rng.shuffle(order)
        strides = [0] * n
        s = 1
        for ax in reversed(order):
            strides[ax] = s
            s *= max(shape[ax], 1)
        if n and rng.random() < 0.3:
            a = rng.randrange(n)
            strides[a] *= rng.choice([2, 3, -1, -2])
        if n and rng.random() < 0.3:
            a = rng.randrange(n)
            if shape[a] == 1:
                strides[a] = rng.randint(-6, 6)
        offset = rng.choice([0, 0, 0, rng.randint(0, 30)])
    return make(shape, strides, offset, item)


EDGE = [
    ([], [], 0, 1),
    ([], [], 7, 8),
    ([0], [1], 0, 4),
    ([0], [5], 3, 4),
    ([1], [9], 0, 2),
    ([1], [-3], 4, 2),
    ([2, 3, 4], [0, 0, 0], 0, 4),
    ([2, 3, 4], [12, 4, 1], 0, 4),
    ([2, 3, 4], [1, 2, 6], 0, 4),
    ([2, 3, 4], [-12, -4, -1], 23, 4),
    ([3, 3], [1, 1], 0, 1),
    ([3, 3], [3, 3], 0, 1),
    ([4, 5, 3], [15, 3, 1], 0, 4),
    ([4, 5, 3], [1, 12, 4], 0, 4),
    ([5, 3, 7], [21, 7, 1], 0, 1),
    ([5, 3, 7], [3, 1, 15], 0, 1),
    ([2, 1, 3], [3, 7, 1], 0, 4),
    ([2, 1, 3], [3, 3, 1], 0, 4),
    ([1, 2], [5, 1], 0, 4),
    ([2, 1], [1, 5], 0, 4),
    ([1, 1, 1], [4, -2, 0], 2, 2),
    ([2, 0, 3], [3, 1, 1], 0, 4),
    ([2, 0, 3], [0, 0, 0], 0, 4),
    ([0, 2], [2, 1], 5, 1),
    ([3, 2], [2, 1], 0, 1),
    ([3, 2], [1, 3], 0, 1),
    ([2, 2, 2], [4, 2, 1], 0, 16),
    ([4, 4], [4, 1], 2, 2),
    ([4, 4], [8, 2], 0, 2),
    ([2, 3, 2, 2], [12, 4, 2, 1], 0, 1),
    ([2, 2, 2, 2, 2], [16, 8, 4, 2, 1], 0, 1),
    ([2, 2, 2, 2, 2], [1, 2, 4, 8, 16], 0, 1),
    ([3, 1, 1, 4, 1], [4, 0, 5, 1, 9], 0, 2),
    # Huge strides: cuda.core's invented unsqueeze stride (extent * stride) overflows.
    ([2], [2**62], 0, 1),
    ([2], [-(2**62)], 2**62, 1),
    ([2, 3], [2**62, 1], 0, 1),
    ([3, 2], [1, 2**61], 0, 2),
]


# ---------------------------------------------------------------- operations


def rand_perm(rng, n):
    p = list(range(n))
    rng.shuffle(p)
    if n >= 2 and rng.random() < 0.08:
        p[0] = p[1]  # not a permutation
    return p


def rand_slice(rng, e):
    def bound():
        return rng.choice([None, None, rng.randint(-6, 6)])

    if rng.random() < 0.35:
        return (None, None, 1)
    step = rng.choice([1, 1, 2, 3, -1, -1, -2, -3] + ([0] if rng.random() < 0.03 else []))
    return (bound(), bound(), step)


def rand_reshape(rng, vol):
    m = rng.choice([0, 1, 1, 2, 2, 3, 3, 4, 5])
    if vol == 0:
        shape = [rng.choice([0, 1, 2, 3]) for _ in range(m)]
        if m and 0 not in shape:
            shape[rng.randrange(m)] = 0
    else:
        shape = [1] * m
        v = vol
        # split v's prime factors over the m axes
        f = 2
        factors = []
        while v > 1:
            while v % f == 0:
                factors.append(f)
                v //= f
            f += 1
        if m == 0:
            shape = [] if vol == 1 else [vol]
        else:
            for p in factors:
                shape[rng.randrange(m)] *= p
    if shape and rng.random() < 0.3:
        shape[rng.randrange(len(shape))] = -1
    if rng.random() < 0.07:
        shape = shape + [2]  # volume mismatch (usually)
    return shape[:MAX_RANK]


def rand_bcast(rng, shape):
    n = len(shape)
    m = min(MAX_RANK, n + rng.choice([0, 0, 1, 1, 2]))
    new = [rng.choice([1, 2, 3]) for _ in range(m - n)]
    for e in shape:
        if e == 1:
            new.append(rng.choice([0, 1, 2, 3, 4]))
        else:
            new.append(e if rng.random() > 0.08 else e + 1)
    return new


def rand_op(rng, l):
    n = l.ndim
    shape = l.shape
    kinds = ["perm", "flip", "slice", "slice", "narrow", "select", "bcast", "repack", "repack", "dense",
             "unsq", "squeeze", "flat", "flatr", "flatm", "reshape", "reshape", "reshape",
             "unsqs", "repackd"]
    while True:
        k = rng.choice(kinds)
        if k in ("flip", "narrow", "select") and n == 0:
            continue
        if k == "unsq" and n >= MAX_RANK:
            continue
        if k == "unsqs" and n + 2 > MAX_RANK:
            continue
        break
    if k == "perm":
        return f"perm={lst(rand_perm(rng, n))}"
    if k == "flip":
        return f"flip={rng.randrange(n)}"
    if k == "slice":
        parts = []
        for e in shape:
            s = rand_slice(rng, e)
            parts.append(":".join("_" if x is None else str(x) for x in s))
        return "slice=" + (",".join(parts) if parts else "-")
    if k == "narrow":
        a = rng.randrange(n)
        e = shape[a]
        start = rng.randint(0, e)
        ln = rng.randint(0, e + 1 - start) if rng.random() < 0.9 else rng.randint(0, e + 2)
        return f"narrow={a},{start},{ln}"
    if k == "select":
        a = rng.randrange(n)
        return f"select={a},{rng.randint(0, shape[a])}"
    if k == "bcast":
        return f"bcast={lst(rand_bcast(rng, shape))}"
    if k == "repack":
        item = rng.choice([1, 2, 4, 8, 16, 32] + ([3, 6, 12] if rng.random() < 0.1 else []))
        axis = rng.choice([-1, -1, -1] + list(range(-n, n)) + [n])
        return f"repack={item},{rng.choice(PTRS)},{axis}"
    if k == "dense":
        o = rng.choice(["C", "F", "K", "K", "P"])
        if o == "P":
            p = list(range(n))
            rng.shuffle(p)
            o = ".".join(str(x) for x in p) if p else "C"
        return f"dense={o}"
    if k == "unsq":
        return f"unsq={rng.randint(0, n + (1 if rng.random() < 0.05 else 0))}"
    if k == "unsqs":
        a = rng.randint(0, n + 1)
        b = rng.randint(0, n + 1) if rng.random() < 0.1 else rng.choice([x for x in range(n + 2) if x != a])
        return f"unsqs={a},{b}"
    if k == "repackd":
        item = rng.choice([1, 2, 4, 8, 16, 32])
        axis = rng.choice([-1, -1, -1] + list(range(-n, n)))
        return f"repackd={item},{rng.choice(PTRS)},{axis}"
    if k == "squeeze":
        return "squeeze"
    if k == "flat":
        return "flat"
    if k == "flatr":
        s = rng.randint(0, n)
        return f"flatr={s},{rng.randint(s, n)}"
    if k == "flatm":
        return f"flatm={rng.randrange(1 << n) if n else 0}"
    if k == "reshape":
        return f"reshape={lst(rand_reshape(rng, l.volume))}"
    raise AssertionError(k)


def ints(s):
    return [] if s == "-" else [int(x) for x in s.split(",")]


def apply(l, op):
    """cuda.core's answer to our `op` on `l`; raises on cuda.core's errors."""
    name, _, arg = op.partition("=")
    n = l.ndim
    if name == "perm":
        return l.permuted(tuple(ints(arg)))
    if name == "flip":
        a = int(arg)
        return l[tuple([slice(None)] * a + [slice(None, None, -1)])]
    if name == "slice":
        sl = []
        for part in ([] if arg == "-" else arg.split(",")):
            a, b, c = (None if x == "_" else int(x) for x in part.split(":"))
            sl.append(slice(a, b, c))
        # Our Slice::FULL passes an axis through untouched, as an omitted trailing slice
        # does in cuda.core, so trailing full slices are left out of the tuple.
        while sl and sl[-1] == slice(None, None, 1):
            sl.pop()
        return l[tuple(sl)]
    if name == "narrow":
        a, start, ln = ints(arg)
        return l[tuple([slice(None)] * a + [slice(start, start + ln)])]
    if name == "select":
        a, i = ints(arg)
        return l[tuple([slice(None)] * a + [i])]
    if name == "bcast":
        return l.broadcast_to(tuple(ints(arg)))
    if name == "repack":
        item, ptr, axis = ints(arg)
        return l.repacked(item, data_ptr=ptr, axis=axis)
    if name == "dense":
        if arg in ("C", "F", "K"):
            return l.to_dense(arg)
        return l.to_dense(tuple(int(x) for x in arg.split(".")))
    if name == "unsq":
        return l.unsqueezed(int(arg))
    if name == "unsqs":
        return l.unsqueezed(tuple(ints(arg)))
    if name == "repackd":
        item, ptr, axis = ints(arg)
        return l.repacked(item, data_ptr=ptr, axis=axis, keep_dim=False)
    if name == "squeeze":
        return l.squeezed()
    if name == "flat":
        return l.flattened()
    if name == "flatr":
        s, e = ints(arg)
        if e - s >= 2:
            return l.flattened(s, e - 1)
        return l.flattened(mask=0)
    if name == "flatm":
        return l.flattened(mask=int(arg))
    if name == "reshape":
        return l.reshaped(tuple(ints(arg)))
    raise AssertionError(op)


def safe(f):
    try:
        return f()
    except (ValueError, TypeError, OverflowError, IndexError, AssertionError) as e:
        if isinstance(e, AssertionError) and "Cannot trim" not in str(e):
            raise
        return "error"


def query_line(l):
    b = lambda x: "1" if x else "0"
    lo, hi = l.offset_bounds
    req = safe(lambda: l.required_size_in_bytes())
    return " ".join([
        "Q", fmt_layout(l), b(l.is_contiguous_c), b(l.is_contiguous_f), b(l.is_contiguous_any),
        b(l.is_dense), b(l.is_unique), f"{lo},{hi}", str(req), lst(l.stride_order),
        str(l.flattened_axis_mask()),
    ])


def mci_line(rng, l):
    n = l.ndim
    mx = rng.choice([1, 2, 4, 8, 16, 16, 32, 64])
    ptr = rng.choice(PTRS)
    axis = rng.choice([-1, -1] + list(range(-n, n)) + [n])
    return f"M {fmt_layout(l)} {mx} {ptr} {axis} {safe(lambda: l.max_compatible_itemsize(mx, ptr, axis))}"


def numpy_reshape(l, target):
    """NumPy's verdict on reshaping the same memory to `target` without a copy."""
    shape, strides, item = l.shape, l.strides, l.itemsize
    lo, hi = l.offset_bounds
    if l.volume == 0:
        lo = hi = l.slice_offset
    buf = np.zeros(hi - lo + 1, dtype=f"V{item}")
    a = np.lib.stride_tricks.as_strided(
        buf[l.slice_offset - lo:], shape, tuple(s * item for s in strides)
    )
    try:
        np.reshape(a, tuple(target), copy=False)
        return "ok"
    except ValueError:
        return "error"


NUMPY_LINES = []


def chain_line(rng, l, steps):
    out = ["C", fmt_layout(l)]
    cur = l
    for _ in range(steps):
        op = rand_op(rng, cur)
        if op.startswith("reshape=") and max(abs(x) for x in (cur.strides or (0,))) < 2**40:
            NUMPY_LINES.append(f"N {fmt_layout(cur)} {op} {numpy_reshape(cur, ints(op[8:]))}")
        r = safe(lambda: apply(cur, op))
        if r != "error" and r.ndim > MAX_RANK:
            break
        out += [op, r if r == "error" else fmt_layout(r)]
        if r == "error":
            break
        cur = r
    return " ".join(out) if len(out) > 2 else None


def chain_line_fixed(l, op):
    r = safe(lambda: apply(l, op))
    return f"C {fmt_layout(l)} {op} {r if r == 'error' else fmt_layout(r)}"


def bytes_line(rng):
    n = rng.randint(0, 4)
    item = rng.choice(ITEMSIZES)
    shape = [rng.randint(0, 4) for _ in range(n)]
    strides = [rng.randint(-6, 6) * (item if rng.random() < 0.8 else 1) for _ in range(n)]
    r = safe(lambda: SL(tuple(shape), tuple(strides), item, divide_strides=True))
    return f"B {lst(shape)} {lst(strides)} {item} {r if r == 'error' else fmt_layout(r)}"


def main():
    rng = random.Random(SEED)
    layouts = [make(*e) for e in EDGE] + [random_layout(rng) for _ in range(1500)]
    print("# cuda.core StridedLayout answers, generated by scripts/cuda_core_cases.py; do not edit.")
    print(f"# seed {SEED}; format described in the script's docstring.")
    for l in layouts:
        print(query_line(l))
        for _ in range(2):
            print(mci_line(rng, l))
        for steps in (1, 1, 1, 2, 3):
            line = chain_line(rng, l, steps)
            if line:
                print(line)
            for n in NUMPY_LINES:
                print(n)
            NUMPY_LINES.clear()
    for _ in range(300):
        print(bytes_line(rng))
    # Every op on every edge layout, one step each, for the corner cases.
    for e in EDGE:
        l = make(*e)
        for _ in range(12):
            line = chain_line(rng, l, 1)
            if line:
                print(line)
            for n in NUMPY_LINES:
                print(n)
            NUMPY_LINES.clear()
        for a in range(l.ndim + 1):
            print(chain_line_fixed(l, f"unsq={a}"))


if __name__ == "__main__":
    main()
