#!/usr/bin/env python3
"""Replays the randomised sweep's cases with NumPy's `copyto` and compares with `copy()`.

The sweep bench (`cargo bench -p strided-layout-bench --bench sweep`) writes one line per case
to `target/sweep.tsv`: element size, shape, both operands' strides, offsets and buffer lengths,
and its medians for `copy()`, the plain loop and `copy_from_slice`. This script builds NumPy
views of buffers of the same lengths with the same strides and offsets, each buffer starting
as far past a 4 KiB boundary as the sweep's did (`src_page`, `dst_page`: loads and stores 4 KiB
apart wait on each other, so a strided copy's time depends on where its two buffers start
relative to each other within a page; NumPy's own time for case 29 ran 8.7-18.8 us over 16
such placements), times
`np.copyto(dst_view, src_view)` the same way (warm first: eight runs and `--warm-ms`, then
until steady as the sweep's methods, then the median of `--reps` runs), and prints every case
where NumPy or the plain loop is faster than `copy()`, and the geometric means.

    pip install numpy
    cargo bench -p strided-layout-bench --bench sweep
    python3 benches/sweep_numpy.py [target/sweep.tsv] [--reps 9] [--warm-ms 5] [--slack 1.10] [--hugepages off]

NumPy's buffers stay on 4 KiB pages unless `--hugepages on` (NumPy's own default where the
kernel's transparent huge pages are in madvise mode): the sweep's Rust buffers are plain
`Vec`s, so both sides then pay the same TLB misses.

The two runs are two processes at two times, and these hosts' speed drifts between them (the
same recorded timings replayed a few minutes apart gave 1.95x and 2.20x NumPy in geometric
mean): the last line compares NumPy's contiguous copy of each case's bytes with the sweep's
`copy_from_slice` of them, both the C library's memcpy, to say how far the machine moved.

A case counts as slower when `copy()` takes more than `--slack` times the other's time (the
issue's goal: no case slower than 1.10x the plain loop or NumPy).

`--same-process LIB` times `copy()` here too, through the C function of the bench crate's
`sweep_ffi` example (`cargo build --release -p strided-layout-bench --example sweep_ffi`, then
`target/release/examples/libsweep_ffi.so`), on the very buffers and views NumPy copies, the two
alternating as the sweep's methods do (warm, then each settled and timed in turn, twice), and
checks that both write the same bytes. The comparison with NumPy then takes this run's two
medians: no drift between processes and no placement of their own (the recorded times of a
copy of memcpy's bytes moved 0.55-1.3x NumPy's over replays of the same sweep). Each call
crosses `ctypes` (about 0.6 us for one element, where `copyto`'s own call from Python takes
0.9 us). The plain loop stays the sweep's.
"""

import argparse
import ctypes
import math
import statistics
import sys
import time

try:
    import numpy as np
except ImportError:  # pragma: no cover - told to the user
    sys.exit("sweep_numpy.py needs NumPy: pip install numpy")

DTYPES = {1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}

# The sweep's settling rule (`settle` in `benches/benches/sweep.rs`): before its timed runs, a
# method runs back to back until STEADY_RUNS runs in a row come within STEADY_SLACK of its
# fastest before them, either way, at most MAX_STEADY_RUNS runs (a copy of megabytes takes 5
# to 12 runs to settle after other buffers' traffic).
STEADY_RUNS, STEADY_SLACK, MAX_STEADY_RUNS = 3, 1.15, 48


def settle(run):
    """Runs `run` untimed until it runs steady (the sweep's rule, above)."""
    best, calm = math.inf, 0
    for _ in range(MAX_STEADY_RUNS):
        t0 = time.perf_counter_ns()
        run()
        ns = time.perf_counter_ns() - t0
        calm = calm + 1 if ns * STEADY_SLACK >= best and ns <= best * STEADY_SLACK else 0
        best = min(best, ns)
        if calm >= STEADY_RUNS:
            return


def ints(field):
    return [int(x) for x in field.split(",")] if field else []


def view(buf, shape, strides, offset, itemsize):
    return np.ndarray(
        shape=tuple(shape),
        dtype=buf.dtype,
        buffer=buf,
        offset=offset * itemsize,
        strides=tuple(s * itemsize for s in strides),
    )


def placed(n, dt, page, fill):
    """A buffer of `n` elements of `dt` whose first element lies `page` bytes past a 4 KiB
    boundary (where the sweep's buffer of the case lay: loads and stores 4 KiB apart wait on
    each other, so a strided copy's time depends on where its two buffers start relative to
    each other within a page); `page` None: where NumPy puts it. `fill(k)` gives the values
    of `k` elements."""
    if page is None:
        return fill(n)
    size = np.dtype(dt).itemsize
    room = fill(n + 4096 // size)
    skip = ((page - room.ctypes.data) % 4096) // size
    return room[skip : skip + n]


def buffers(row, dt):
    """The source's and the destination's buffers of a recorded case, placed as the sweep's
    (`src_page`, `dst_page`; older TSVs without them: where NumPy puts them)."""
    page = lambda k: int(float(row[k])) if row.get(k) not in (None, "") else None
    src = placed(
        int(row["src_len"]), dt, page("src_page"),
        lambda k: (np.arange(k, dtype=np.uint64) % 251).astype(dt),
    )
    dst = placed(int(row["dst_len"]), dt, page("dst_page"), lambda k: np.full(k, 7, dtype=dt))
    return src, dst


def huge_pages(on):
    """Sets whether NumPy advises its large buffers onto huge pages (`madvise(MADV_HUGEPAGE)`,
    its default where the kernel's transparent huge pages are in madvise mode). Off puts them
    on 4 KiB pages like the sweep's `Vec`s, so both sides pay the same TLB misses."""
    try:
        from numpy._core import multiarray  # NumPy 2
    except ImportError:  # pragma: no cover - NumPy 1
        from numpy.core import multiarray
    if hasattr(multiarray, "_set_madvise_hugepage"):
        multiarray._set_madvise_hugepage(on)


class Case(ctypes.Structure):
    """examples/sweep_ffi.rs's `Case`: one sweep case, for `sweep_copy`."""

    _fields_ = [
        ("rank", ctypes.c_size_t),
        ("itemsize", ctypes.c_size_t),
        ("shape", ctypes.c_size_t * 5),
        ("src_strides", ctypes.c_ssize_t * 5),
        ("src_offset", ctypes.c_ssize_t),
        ("src", ctypes.c_void_p),
        ("src_len", ctypes.c_size_t),
        ("dst_strides", ctypes.c_ssize_t * 5),
        ("dst_offset", ctypes.c_ssize_t),
        ("dst", ctypes.c_void_p),
        ("dst_len", ctypes.c_size_t),
    ]


def ffi(path):
    """The bench crate's `sweep_copy` (examples/sweep_ffi.rs), loaded from `path`."""
    f = ctypes.CDLL(path).sweep_copy
    f.restype = ctypes.c_int
    return f


def ours_call(f, row, src_buf, dst_buf):
    """A call of `copy()` on the case of `row` over NumPy's buffers: one pointer to a `Case`
    made once, so that a timed call pays `ctypes`' crossing only (eleven declared arguments
    cost about 5 us a call)."""
    pad = lambda v: v + [0] * (5 - len(v))
    shape = ints(row["shape"])
    case = Case(
        len(shape), int(row["itemsize"]),
        (ctypes.c_size_t * 5)(*pad(shape)),
        (ctypes.c_ssize_t * 5)(*pad(ints(row["src_strides"]))), int(row["src_offset"]),
        src_buf.ctypes.data, src_buf.size,
        (ctypes.c_ssize_t * 5)(*pad(ints(row["dst_strides"]))), int(row["dst_offset"]),
        dst_buf.ctypes.data, dst_buf.size,
    )
    ptr = ctypes.pointer(case)

    def call():
        code = f(ptr)
        if code:
            sys.exit(f"sweep_copy refused case {row['case']} (code {code})")

    return call


def timed_in_turn(methods, reps, warm_ms):
    """Medians (ns) of `methods` timed as the sweep times its own: warm (in turn, at least
    four rounds and `warm_ms`), then twice each settled and `reps // 2` runs timed back to back,
    in turn."""
    start, rounds = time.perf_counter_ns(), 0
    while rounds < 4 or time.perf_counter_ns() - start < warm_ms * 1e6:
        for m in methods:
            m()
        rounds += 1
    times = [[] for _ in methods]
    for _ in range(2):
        for m, t in zip(methods, times):
            t.extend(settled_times(m, max(reps // 2, 1)))
    return [statistics.median(t) for t in times]


def numpy_alone(dst, src, args):
    """The median (ns) of `copyto(dst, src)` timed alone, as the sweep times its methods: warm
    (untimed runs, eight, the sweep's four rounds passing over its buffers twice each, and
    until `--warm-ms` have passed: buffers just filled run slower for their first few
    passes), then settled, then `--reps` runs."""
    start, runs = time.perf_counter_ns(), 0
    while runs < 8 or time.perf_counter_ns() - start < args.warm_ms * 1e6:
        np.copyto(dst, src)
        runs += 1
    return settled_median(lambda: np.copyto(dst, src), args.reps)


def settled_times(run, reps):
    """The times (ns) of `reps` runs of `run`, timed back to back once it runs steady."""
    settle(run)
    times = []
    for _ in range(reps):
        t0 = time.perf_counter_ns()
        run()
        times.append(time.perf_counter_ns() - t0)
    return times


def settled_median(run, reps):
    """The median of [`settled_times`]."""
    return statistics.median(settled_times(run, reps))


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("tsv", nargs="?", default="target/sweep.tsv")
    ap.add_argument("--reps", type=int, default=9)
    ap.add_argument(
        "--warm-ms",
        type=float,
        default=5.0,
        help="untimed runs first, until this long has passed (the sweep's own warm-up)",
    )
    ap.add_argument("--slack", type=float, default=1.10)
    ap.add_argument(
        "--hugepages",
        choices=("off", "on"),
        default="off",
        help="NumPy's madvise(MADV_HUGEPAGE) on its buffers (its default is on where the "
        "kernel's transparent huge pages are in madvise mode); off by default, as the sweep's "
        "Rust buffers are plain Vecs on 4 KiB pages, so both sides pay the same TLB misses",
    )
    ap.add_argument(
        "--same-process",
        metavar="LIB",
        help="time copy() here too, through LIB (the sweep_ffi example's shared library), on "
        "NumPy's buffers, and compare the two in this process",
    )
    args = ap.parse_args()
    huge_pages(args.hugepages == "on")
    sweep_copy = ffi(args.same_process) if args.same_process else None

    rows = []
    with open(args.tsv) as f:
        header = f.readline().rstrip("\n").split("\t")
        for line in f:
            rows.append(dict(zip(header, line.rstrip("\n").split("\t"))))
    if not rows:
        sys.exit(f"no cases in {args.tsv}")

    log_np, log_loop, log_drift, drift_n = 0.0, 0.0, 0.0, 0
    behind_np, behind_loop = [], []
    for r in rows:
        isz = int(r["itemsize"])
        shape = ints(r["shape"])
        dt = DTYPES[isz]
        src_buf, dst_buf = buffers(r, dt)
        src = view(src_buf, shape, ints(r["src_strides"]), int(r["src_offset"]), isz)
        dst = view(dst_buf, shape, ints(r["dst_strides"]), int(r["dst_offset"]), isz)
        ours, loop = float(r["copy_ns"]), float(r["loop_ns"])
        if sweep_copy:
            # Both here, on these buffers: first the same bytes written, then timed in turn.
            copy_here = ours_call(sweep_copy, r, src_buf, dst_buf)
            copy_here()
            written = dst_buf.copy()
            dst_buf[:] = 7
            np.copyto(dst, src)
            if not np.array_equal(written, dst_buf):
                sys.exit(f"case {r['case']}: copy() and copyto wrote different bytes")
            numpy_ns, beside_np = timed_in_turn(
                [lambda: np.copyto(dst, src), copy_here], args.reps, args.warm_ms
            )
        else:
            numpy_ns, beside_np = numpy_alone(dst, src, args), ours
        # The machine's drift between the sweep's run and this one (two processes only):
        # NumPy's contiguous copy of the case's bytes against the sweep's `copy_from_slice`
        # of them (both the C library's memcpy), over cases of at least 1 MiB (below it
        # NumPy's call costs count).
        nbytes = src.size * isz
        if not sweep_copy and nbytes >= 1 << 20 and float(r["memcpy_ns"]) > 0:
            flat_src = np.full(src.size, 3, dtype=dt)
            flat_dst = np.full(src.size, 5, dtype=dt)
            flat = settled_median(lambda: np.copyto(flat_dst, flat_src), args.reps)
            log_drift += math.log(flat / float(r["memcpy_ns"]))
            drift_n += 1
        log_np += math.log(numpy_ns / beside_np)
        log_loop += math.log(loop / ours)
        desc = (
            f"case {r['case']:>3} {isz}B ({r['shape']}):({r['src_strides']}) +{r['src_offset']}"
            f" -> ({r['dst_strides']}) +{r['dst_offset']}"
        )
        if beside_np > args.slack * numpy_ns:
            behind_np.append((numpy_ns / beside_np, desc, beside_np, numpy_ns))
        if ours > args.slack * loop:
            behind_loop.append((loop / ours, desc, ours, loop))

    n = len(rows)
    for title, behind in (("NumPy copyto", behind_np), ("the plain loop", behind_loop)):
        print(f"cases where copy() takes more than {args.slack:.2f}x {title}: {len(behind)} of {n}")
        for ratio, desc, ours, other in sorted(behind):
            print(f"  {ratio:5.2f}x  {desc}: copy() {ours / 1e3:.1f} us, other {other / 1e3:.1f} us")
    where = " (timed in this process)" if sweep_copy else ""
    print(
        f"geometric mean of the speed-up of copy(): over NumPy copyto{where}"
        f" {math.exp(log_np / n):.2f}x, over the plain loop {math.exp(log_loop / n):.2f}x"
        f" ({n} cases, NumPy {np.__version__})"
    )
    if drift_n:
        print(
            f"the machine between the two runs: NumPy's contiguous copy of a case's bytes took"
            f" {math.exp(log_drift / drift_n):.2f}x the sweep's copy_from_slice of them in"
            f" geometric mean ({drift_n} cases of 1 MiB or more; 1.00 where both ran alike,"
            f" above 1 where this replay ran on a slower machine, favouring copy())"
        )


if __name__ == "__main__":
    main()
