#!/usr/bin/env python3
"""Runs the `table/<row>` benchmark groups,
and prints README's benchmark table: each row's time for `ours`, as a ratio to
`copy_from_slice` of the same bytes (higher is faster, 1.0 = memcpy speed), beside ndarray's
and the naive loop's ratios (and a prepared plan's, for the small copies), from criterion's
medians of one run.

    python3 benches/table.py                      # every bench file that has table rows
    python3 benches/table.py --bench transpose    # one file (repeatable)

Run from the repository root, on a quiet machine; the figures are ratios measured in the
same process, so they move less than the times between runs.
"""

import argparse
import json
import pathlib
import subprocess
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
CRITERION = ROOT / "target" / "criterion"
FUNCTIONS = ("ours", "prepared", "copy_from_slice", "naive", "ndarray")


def bench_files():
    names = []
    for path in sorted((ROOT / "benches" / "benches").glob("*.rs")):
        if '"table/' in path.read_text():
            names.append(path.stem)
    return names


def run(benches, features):
    """Runs the table groups of `benches`; returns {row: {function: median ns}}."""
    results = {}
    for bench in benches:
        cmd = ["cargo", "bench", "-p", "strided-layout-bench", "--bench", bench]
        cmd += features + ["--", "table/"]
        print("+", " ".join(cmd), file=sys.stderr, flush=True)
        start = time.time()
        subprocess.run(cmd, cwd=ROOT, check=True, stdout=sys.stderr)
        for meta in CRITERION.glob("*/*/new/benchmark.json"):
            if meta.stat().st_mtime < start:
                continue  # a group of an earlier run
            info = json.loads(meta.read_text())
            group, function = info.get("group_id", ""), info.get("function_id")
            if not group.startswith("table/") or function not in FUNCTIONS:
                continue
            estimates = json.loads((meta.parent / "estimates.json").read_text())
            row = group[len("table/"):]
            results.setdefault(row, {})[function] = estimates["median"]["point_estimate"]
    return results


def ratio(times, function):
    if function not in times or "copy_from_slice" not in times:
        return "–"
    return f"{times['copy_from_slice'] / times[function]:.2f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", action="append", help="a bench file (default: all)")
    args = parser.parse_args()
    benches = args.bench or bench_files()
    default = run(benches, [])
    print("| case | ours | prepared plan | ndarray 0.17 | naive loop |")
    print("| --- | --- | --- | --- | --- |")
    for row in sorted(default, key=str.lower):
        times = default[row]
        # README is the crate's front page: code-like names need backticks (clippy's
        # doc_markdown lint reads it).
        end = row.find("]") + 1
        label = f"`{row[:end]}`{row[end:]}" if end else row
        print(
            f"| {label} | {ratio(times, 'ours')} "
            f"| {ratio(times, 'prepared')} | {ratio(times, 'ndarray')} "
            f"| {ratio(times, 'naive')} |"
        )


if __name__ == "__main__":
    main()
