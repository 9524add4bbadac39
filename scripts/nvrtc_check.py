#!/usr/bin/env python3
"""NVRTC, as the GPU example and test use it, without a GPU: compiles tests/cpp/strided_copy.cu
the two ways the crate documents, for each architecture given, failing on any error or
warning in the log (NVRTC has no warnings-as-errors option):

- prefixed with the header's text (what `KERNEL_HEADER` holds: examples/gpu_host.rs);
- with the crate's include/ directory as an include path (tests/gpu.rs).

Usage: scripts/nvrtc_check.py LIBNVRTC compute_75 compute_90 ...
"""

import ctypes
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def compile_one(lib, source, options):
    prog = ctypes.c_void_p()
    if lib.nvrtcCreateProgram(ctypes.byref(prog), source.encode(), b"strided_copy.cu", 0, None, None):
        raise SystemExit("nvrtc_check: nvrtcCreateProgram failed")
    opts = (ctypes.c_char_p * len(options))(*[o.encode() for o in options])
    result = lib.nvrtcCompileProgram(prog, len(options), opts)
    size = ctypes.c_size_t()
    lib.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    lib.nvrtcGetProgramLog(prog, log)
    lib.nvrtcDestroyProgram(ctypes.byref(prog))
    text = log.value.decode(errors="replace").strip()
    if result != 0 or text:
        raise SystemExit(f"nvrtc_check: {' '.join(options)}: result {result}\n{text}")


def main():
    lib = ctypes.CDLL(sys.argv[1])
    major, minor = ctypes.c_int(), ctypes.c_int()
    lib.nvrtcVersion(ctypes.byref(major), ctypes.byref(minor))
    version = f"NVRTC {major.value}.{minor.value}"
    header = open(os.path.join(ROOT, "include", "strided_layout.h")).read()
    kernel = open(os.path.join(ROOT, "tests", "cpp", "strided_copy.cu")).read()
    for arch in sys.argv[2:]:
        base = ["-std=c++17", f"--gpu-architecture={arch}"]
        compile_one(lib, header + "\n" + kernel, base)
        compile_one(lib, kernel, base + [f"--include-path={os.path.join(ROOT, 'include')}"])
        print(f"{arch}: {version} compiles the kernel after KERNEL_HEADER and through the include path")


if __name__ == "__main__":
    main()
