#!/usr/bin/env python3
"""Turns the output of `cargo bench -p strided-layout-bench --bench copy` (stdin) into the table of
the `doc::benchmarks` guide (src/doc/benchmarks.rs).

Each group's throughput counts the case's bytes read plus written once each; the
`copy_from_slice` row of a group copies the destination's bytes, so its real throughput is
`2/3` of what criterion prints in the `A + A'` group (three operands), the same elsewhere.
The ratio is the case's GB/s over `copy_from_slice`'s real GB/s, both medians of one run.
"""
import re
import sys

UNITS = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0}
RATE = {"B/s": 1, "KiB/s": 2**10, "MiB/s": 2**20, "GiB/s": 2**30, "TiB/s": 2**40}

text = sys.stdin.read()
rows = {}
name = None
for line in text.splitlines():
    m = re.match(r"^(\S.*?)\s*(time:\s*\[.*)?$", line)
    if m and not line.startswith(" ") and "/" in line and not line.startswith("Benchmarking"):
        name = m.group(1).strip()
    t = re.search(r"time:\s*\[\S+ \S+ (\S+) (\S+) \S+ \S+\]", line)
    if t and name:
        rows.setdefault(name, {})["time"] = float(t.group(1)) * UNITS[t.group(2)]
    r = re.search(r"thrpt:\s*\[\S+ \S+ (\S+) (\S+) \S+ \S+\]", line)
    if r and name:
        rows.setdefault(name, {})["rate"] = float(r.group(1)) * RATE[r.group(2)]

groups = {}
for full, v in rows.items():
    group, _, func = full.rpartition("/")
    groups.setdefault(group, {})[func] = v


def fmt_time(s):
    for unit, k in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if s >= k:
            return f"{s / k:.3g} {unit}"
    return f"{s / 1e-9:.3g} ns"


print("| case | implementation | median | GB/s | ratio to `copy_from_slice` |")
print("| --- | --- | --- | --- | --- |")
for group, funcs in groups.items():
    base = funcs.get("copy_from_slice")
    factor = 2 / 3 if group.startswith("zip_map") else 1.0
    base_rate = base["rate"] * factor if base and "rate" in base else None
    order = ["copy_from_slice", "strided_layout", "strided_layout fill", "naive", "ndarray"]
    for func in sorted(funcs, key=lambda f: order.index(f) if f in order else 99):
        v = funcs[func]
        rate = v.get("rate", 0.0) * (factor if func == "copy_from_slice" else 1.0)
        ratio = f"{rate / base_rate:.2f}" if base_rate else "-"
        print(f"| `{group}` | `{func}` | {fmt_time(v['time'])} | {rate / 1e9:.2f} | {ratio} |")
