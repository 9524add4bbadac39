#!/usr/bin/env python3
"""Instructions per element of the strided copy kernels, read from the GPU machine code.

Compiles `tests/cpp/sass_kernels.cu` (and, if given, assembles the Rust kernels' PTX) for one
architecture with `nvcc`, disassembles it with `cuobjdump -sass`, and counts the instructions of
each kernel's grid-stride loop on the path one element takes:

- `plain`: the layout's own kernel (`copy_*`), on the shortest path through its loop (a plain
  strided layout skips every interleave correction);
- `interleaved`: the same kernel with the interleave axis known (`interleaved_*`), on the
  longest path (the correction of the one interleaved axis taken, for both operands);
- `nested B=b`: the copy over `KernelNestedLayout<int, 4, b>` (`nested_int_4_b`: every mode of
  `b` leaves, each leaf one fast division), in the `plain` column;
- `naive`: a kernel dividing by every extent with the division operator (`naive_*`), on its
  shortest path (for `long long`, the 32-bit fast path of the 64-bit division, which skips the
  division subroutine: the count most favourable to the naive kernel).

Each count is the path's instructions divided by the global stores on it (elements per
iteration). Usage:

    scripts/gpu_sass.py [--arch sm_90] [--rust PTX] [--check scripts/gpu_sass.expected]
                        [--write scripts/gpu_sass.expected]

`nvcc` and `cuobjdump` are taken from PATH (pip: nvidia-cuda-nvcc, nvidia-cuda-cuobjdump; no
GPU needed). `--check` fails (exit 1) if a count rises above the committed figure, or if the
rank-4 `int` plain count is more than a third of the naive one; `--write` records the figures.
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = os.path.join(ROOT, "tests", "cpp", "sass_kernels.cu")
INCLUDE = os.path.join(ROOT, "include")

LINE = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P[T0-9]+\s+)?([A-Z0-9_.]+)([^;]*);")


def sass(cubin, function):
    """[(address, predicated, opcode, operands)] of one function."""
    out = subprocess.run(
        ["cuobjdump", "-sass", "-fun", function, cubin],
        check=True, capture_output=True, text=True,
    ).stdout
    code = []
    for m in LINE.finditer(out):
        code.append((int(m.group(1), 16), m.group(2) is not None, m.group(3), m.group(4).strip()))
    if not code:
        raise SystemExit(f"gpu_sass: no machine code for {function} in {cubin}")
    return code


def target(operands):
    """The address a branch goes to: its last hexadecimal operand (`BRA 0x730`, or with a
    second predicate `BRA P1, 0x1140`)."""
    m = re.findall(r"0x[0-9a-f]+", operands)
    return int(m[-1], 16) if m else None


def loop_paths(code):
    """(shortest, longest) per element over the kernel's grid-stride loops (a kernel may run
    one loop for plain layouts and another for interleaved ones): the shortest path of any
    loop and the longest of any, each from a loop's head to its back edge. A loop is a
    backward branch not inside another one."""
    backs = []
    for addr, _, op, operands in code:
        if op.startswith("BRA"):
            t = target(operands)
            if t is not None and t < addr:
                backs.append((addr, t))
    outer = [b for b in backs if not any(o != b and o[1] <= b[1] and b[0] <= o[0] for o in backs)]
    if not outer:
        raise SystemExit("gpu_sass: no loop found")
    paths = [one_loop(code, end, head) for end, head in outer]
    return min(p[0] for p in paths), max(p[1] for p in paths)


def one_loop(code, end, head):
    body = [c for c in code if head <= c[0] <= end]
    index = {c[0]: i for i, c in enumerate(body)}
    # (instructions, stores) of the best path reaching each instruction, counting it.
    short = [None] * len(body)
    long_ = [None] * len(body)
    short[0] = long_[0] = (1, 1 if body[0][2].startswith("STG") else 0)

    def relax(j, via):
        """The path `via` extended by instruction `j`."""
        return (via[0] + 1, via[1] + (1 if body[j][2].startswith("STG") else 0))

    for i, (addr, pred, op, operands) in enumerate(body):
        if short[i] is None or addr == end:
            continue
        succ = []
        if op.startswith("BRA"):
            t = target(operands)
            if t is not None and t in index and t > addr:
                succ.append(index[t])
            # Conditional: a guard predicate, or a predicate operand (`BRA P1, 0x1140`).
            if pred or re.match(r"!?U?P[0-9T]", operands):
                succ.append(i + 1)
        elif op == "EXIT" and not pred:
            pass
        else:
            succ.append(i + 1)
        for j in succ:
            s, l = relax(j, short[i]), relax(j, long_[i])
            if short[j] is None or s[0] < short[j][0]:
                short[j] = s
            if long_[j] is None or l[0] > long_[j][0]:
                long_[j] = l
    last = index[end]
    if short[last] is None:
        raise SystemExit("gpu_sass: the loop's back edge is unreachable from its head")
    per = lambda p: p[0] / max(p[1], 1)
    return per(short[last]), per(long_[last])


def compile_cu(arch, out):
    subprocess.run(
        ["nvcc", f"-arch={arch}", "-cubin", "-O3", "-Werror", "all-warnings", "-I", INCLUDE,
         "-o", out, KERNELS],
        check=True,
    )


def assemble_ptx(arch, ptx, out):
    subprocess.run(["ptxas", f"-arch={arch}", "-O3", "-o", out, ptx], check=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--rust", help="PTX of tests/ptx (the Rust kernels strided_copy_f32_*)")
    ap.add_argument("--check", help="fail if a count rises above this file's")
    ap.add_argument("--write", help="record the counts in this file")
    args = ap.parse_args()
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        cubin = os.path.join(tmp, "k.cubin")
        compile_cu(args.arch, cubin)
        for name, index in (("int", "int"), ("longlong", "long long")):
            for n in range(1, 5):
                plain, _ = loop_paths(sass(cubin, f"copy_{name}_{n}"))
                _, inter = loop_paths(sass(cubin, f"interleaved_{name}_{n}"))
                naive, _ = loop_paths(sass(cubin, f"naive_{name}_{n}"))
                rows[(f"C++ {index}", n)] = (plain, inter, naive)
        for b in range(1, 4):
            nested, _ = loop_paths(sass(cubin, f"nested_int_4_{b}"))
            rows[(f"C++ int nested B={b}", 4)] = (nested, None, None)
        if args.rust:
            rcubin = os.path.join(tmp, "r.cubin")
            assemble_ptx(args.arch, args.rust, rcubin)
            for index, n in (("i32", 1), ("i32", 2), ("i32", 3), ("i32", 4), ("i64", 4)):
                plain, _ = loop_paths(sass(rcubin, f"strided_copy_f32_{index}_{n}"))
                rows[(f"Rust {index}", n)] = (plain, None, None)
            nested, _ = loop_paths(sass(rcubin, "nested_copy_f32_i32_4_3"))
            rows[("Rust i32 nested B=3", 4)] = (nested, None, None)
    fmt = lambda v: "-" if v is None else f"{v:.0f}"
    print(f"instructions per element, grid-stride strided copy, {args.arch} "
          "(two offsets, a load and a store, the loop)")
    print(f"{'kernel':<14} {'rank':>4} {'plain':>6} {'interl.':>7} {'naive':>6} {'plain/naive':>11}")
    for (kind, n), (p, i, v) in rows.items():
        ratio = "-" if v is None else f"{p / v:.2f}"
        print(f"{kind:<14} {n:>4} {fmt(p):>6} {fmt(i):>7} {fmt(v):>6} {ratio:>11}")
    failed = False
    if args.check:
        with open(args.check) as f:
            for line in f:
                if not line.strip() or line.startswith("#"):
                    continue
                kind, n, column, limit = line.rsplit(None, 3)
                got = rows.get((kind, int(n)))
                col = {"plain": 0, "interleaved": 1}[column]
                if got is None or got[col] is None:
                    print(f"gpu_sass: no count for {kind} rank {n} {column}")
                    failed = True
                elif got[col] > float(limit):
                    print(f"gpu_sass: {kind} rank {n} {column}: {got[col]:.0f} instructions per "
                          f"element, above the committed {limit}")
                    failed = True
        p, _, v = rows[("C++ int", 4)]
        if p * 3 > v:
            print(f"gpu_sass: C++ int rank 4 plain: {p:.0f} per element, more than a third of "
                  f"the naive kernel's {v:.0f}")
            failed = True
    if args.write:
        with open(args.write, "w") as f:
            f.write(f"# scripts/gpu_sass.py --arch {args.arch}: instructions per element, the "
                    "most CI accepts\n# (kernel, rank, path, count); regenerate with --write.\n")
            for (kind, n), (p, i, _) in rows.items():
                f.write(f"{kind} {n} plain {p:.0f}\n")
                if i is not None:
                    f.write(f"{kind} {n} interleaved {i:.0f}\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
