#!/usr/bin/env python3
"""Times sweep cases alone, two builds (or a build and NumPy) alternating, for a change's figures.

One sweep process's buffers land where they land, and these hosts' speed drifts, so a case
can run 1.5-2.5x slower in one process than in the next (the sweep bench's docs). Comparing
two full sweeps therefore mixes a change's effect with that noise. This script times each
case in processes of its own (`--only I`), the two sides alternating round after round (two
builds: each starting every other round), and
compares medians:

    # the two builds' sweep binaries, copied aside after each build:
    cargo bench -p strided-layout-bench --bench sweep -- --only 0 > /dev/null
    cp "$(ls -t target/release/deps/sweep-* | grep -v '\\.d$' | head -1)" /tmp/sweep-old
    # ... change the crate, build again, copy to /tmp/sweep-new ...

    # the cases whose plan differs (the sweep's `--plans`, diffed), timed alternately:
    python3 benches/sweep_ab.py builds /tmp/sweep-old /tmp/sweep-new --cases 2000 --seed 7 --changed
    # or chosen cases:
    python3 benches/sweep_ab.py builds /tmp/sweep-old /tmp/sweep-new --only "207 15" --rounds 9
    # the sweep's power-of-two cases (its `--pow2`), passed on to every run:
    python3 benches/sweep_ab.py builds /tmp/sweep-old /tmp/sweep-new --pow2 --changed

    # copy() alone against NumPy's copyto alone, alternating, on cases a replay flagged
    # (the TSV the sweep wrote with `--out`; needs NumPy):
    python3 benches/sweep_ab.py numpy /tmp/sweep-new target/sweep.tsv --only "207 130"

In `numpy` mode NumPy's buffers are made afresh each round, on 4 KiB pages as the sweep's are
(as `sweep_numpy.py` by default): with NumPy's own default (huge pages advised for buffers of
4 MiB or more) and one pair of buffers for all rounds, it paid fewer TLB misses than the sweep
and sampled one placement against the sweep's five.

It prints, per case, the medians of both sides and of the plain loop (timed in the same
processes as the copy), the ratio, and the geometric mean over the cases; then the cases where
the second side is slower than the plain loop. A kernel change leaves the plans alone: pass
`--only` with the cases whose kernels it touches.
"""

import argparse
import math
import statistics
import subprocess
import sys
import time


def only_run(binary, case, args, pages=None):
    """copy() and plain-loop medians (us) of `case` timed alone by the sweep binary; where
    `pages` is a dict, the offsets within a page its buffers started at (`src_page`,
    `dst_page`, as the sweep's TSV names them) go there."""
    cmd = [binary, "--bench", "--cases", str(args.cases), "--seed", str(args.seed)]
    cmd += ["--only", str(case), "--reps", str(args.reps)] + (["--pow2"] if args.pow2 else [])
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    timing = None
    for line in out.splitlines():
        fields = line.split()
        if fields[:1] == ["0"] and "/" in fields and timing is None:
            i = fields.index("/")
            timing = float(fields[i - 1]), float(fields[i + 1])
        elif fields[:2] == ["pages:", "source"] and pages is not None:
            pages["src_page"], pages["dst_page"] = fields[2], fields[4]
    if timing is None:
        sys.exit(f"no timing line from {' '.join(cmd)}:\n{out}")
    return timing


def plans(binary, args):
    """Each case's plan, as the sweep's `--plans` prints it."""
    cmd = [binary, "--bench", "--cases", str(args.cases), "--seed", str(args.seed), "--plans"]
    cmd += ["--pow2"] if args.pow2 else []
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    cases, cur = {}, None
    for line in out.splitlines():
        if line.startswith("case "):
            cur = int(line.split()[1])
            cases[cur] = []
        elif cur is not None:
            cases[cur].append(line)
    return cases


class NumpyCase:
    """One recorded case's NumPy views, timed as `sweep_numpy.py` times them."""

    def __init__(self, row):
        import numpy as np

        from sweep_numpy import DTYPES, buffers, ints, view

        isz = int(row["itemsize"])
        dt = DTYPES[isz]
        shape = ints(row["shape"])
        src_buf, dst_buf = buffers(row, dt)
        self.src = view(src_buf, shape, ints(row["src_strides"]), int(row["src_offset"]), isz)
        self.dst = view(dst_buf, shape, ints(row["dst_strides"]), int(row["dst_offset"]), isz)
        self.np = np

    def time_us(self, reps, warm_ms=5):
        from sweep_numpy import settle

        start, runs = time.perf_counter_ns(), 0
        while runs < 8 or time.perf_counter_ns() - start < warm_ms * 1e6:
            self.np.copyto(self.dst, self.src)
            runs += 1
        settle(lambda: self.np.copyto(self.dst, self.src))
        times = []
        for _ in range(reps):
            t0 = time.perf_counter_ns()
            self.np.copyto(self.dst, self.src)
            times.append(time.perf_counter_ns() - t0)
        return statistics.median(times) / 1000


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("mode", choices=["builds", "numpy"])
    ap.add_argument("a", help="the first sweep binary")
    ap.add_argument("b", help="builds: the second sweep binary; numpy: the sweep's TSV")
    ap.add_argument("--cases", type=int, default=240)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--only", default="", help="the cases, separated by spaces")
    ap.add_argument("--changed", action="store_true", help="builds: the cases whose plan differs")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--reps", type=int, default=5)
    ap.add_argument("--pow2", action="store_true", help="the sweep's power-of-two cases (--pow2)")
    args = ap.parse_args()

    cases = [int(c) for c in args.only.split()]
    if args.changed:
        if args.mode != "builds":
            sys.exit("--changed compares two builds' plans")
        pa, pb = plans(args.a, args), plans(args.b, args)
        changed = sorted(c for c in pa if pa[c] != pb.get(c))
        print(f"{len(changed)} of {len(pa)} plans differ: {' '.join(map(str, changed))}")
        cases += changed
    if not cases:
        if args.changed:
            return
        sys.exit("no cases: pass --only or --changed")

    numpy_cases = {}
    if args.mode == "numpy":
        sys.path.insert(0, __file__.rsplit("/", 1)[0] if "/" in __file__ else ".")
        with open(args.b) as f:
            header = f.readline().rstrip("\n").split("\t")
            rows = {int(r["case"]): r for r in
                    (dict(zip(header, line.rstrip("\n").split("\t"))) for line in f)}
        for c in cases:
            if c not in rows:
                sys.exit(f"case {c} is not in {args.b}")
            numpy_cases[c] = rows[c]
        # As `sweep_numpy.py` by default: NumPy's buffers on 4 KiB pages like the sweep's
        # `Vec`s (huge pages would spare NumPy the TLB misses the sweep pays: 2-4x on cases
        # of megabytes spread over many pages).
        from sweep_numpy import huge_pages

        huge_pages(False)
        if args.cases != len(rows):
            print(f"note: {args.b} holds {len(rows)} cases; pass the sweep's --cases/--seed")

    second = "B" if args.mode == "builds" else "NumPy"
    log, behind_loop, rows_out = 0.0, [], []
    for c in cases:
        first, other, loop = [], [], []
        for r in range(args.rounds):
            pages = {}
            if args.mode == "builds":
                # The two builds start rounds in turn: the process run second in a round
                # finds the machine as the first left it (a case of megabytes read 1.35x
                # slower in B with A always first, 0.73x with B first, on identical code).
                for binary, times in (
                    ((args.a, first), (args.b, other)) if r % 2 == 0
                    else ((args.b, other), (args.a, first))
                ):
                    t, lp = only_run(binary, c, args)
                    times.append(t)
                    loop.append(lp)
            else:
                t, lp = only_run(args.a, c, args, pages)
                first.append(t)
                loop.append(lp)
                # Fresh buffers each round, as each sweep process allocates its own, placed
                # within their pages as that round's sweep process placed its own.
                row = dict(numpy_cases[c], **pages)
                other.append(NumpyCase(row).time_us(max(args.reps, 9)))
        a, b, lp = (statistics.median(x) for x in (first, other, loop))
        log += math.log(b / a)
        rows_out.append((b / a, c, a, b, lp))
        slow = b if args.mode == "builds" else a
        if slow > lp:
            behind_loop.append(c)
    for ratio, c, a, b, lp in sorted(rows_out):
        print(f"case {c:>5}  A {a:9.1f} us  {second} {b:9.1f} us  {second}/A {ratio:5.2f}"
              f"  loop {lp:9.1f} us")
    print(f"geometric mean of {second}/A over {len(cases)} cases: "
          f"{math.exp(log / len(cases)):.3f} (medians of {args.rounds} alternating rounds)")
    who = "B" if args.mode == "builds" else "A"
    print(f"cases where {who} is slower than the plain loop: {len(behind_loop)}"
          + (f" ({' '.join(map(str, behind_loop))})" if behind_loop else ""))


if __name__ == "__main__":
    main()
