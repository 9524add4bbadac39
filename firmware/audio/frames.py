#!/usr/bin/env python3
"""Largest stack frames of a Thumb-2 ELF, read from each function's prologue.

Usage: frames.py DISASSEMBLY [N]: reads `llvm-objdump -d --no-show-raw-insn -C` output and
prints the N largest frames (pushed registers plus `sub sp`), largest first. A frame is what one
call of the function takes; the deepest call chain's sum is the stack high-water mark.
"""
import re
import sys

frames = {}
fn = None
seen = 0
for line in open(sys.argv[1]):
    m = re.match(r'^[0-9a-f]+ <(.*)>:$', line)
    if m:
        fn, seen = re.sub(r'::h[0-9a-f]{16}$', '', m.group(1)), 0
        frames[fn] = 0
        continue
    if fn is None:
        continue
    seen += 1
    if seen > 12:  # the prologue is over
        continue
    ins = line.split('\t')
    if len(ins) < 3:
        continue
    op, args = ins[1].strip(), ins[2].strip()
    if op in ('push', 'push.w', 'stmdb'):
        frames[fn] += 4 * len(re.findall(r'\b(?:r\d+|lr)\b', args))
    elif op == 'vpush':
        frames[fn] += 8 * len(re.findall(r'\bd\d+\b', args))
    elif op.startswith('sub') and args.startswith('sp'):
        m = re.search(r'#(\d+)', args)
        if m:
            frames[fn] += int(m.group(1))
n = int(sys.argv[2]) if len(sys.argv) > 2 else 6
for name, size in sorted(frames.items(), key=lambda kv: -kv[1])[:n]:
    print(f'{size:8} B  {name}')
