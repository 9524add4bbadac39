#!/usr/bin/env python3
"""Fails when a public item of the crate has no example in its docs, when public docs
outside `doc::benchmarks` state a measured figure, or when a public function is missing from
the bare-metal link check (`firmware/panic-check/src/main.rs`).

Reads the rustdoc JSON that `cargo +nightly rustdoc --lib --all-features -- -Z
unstable-options --output-format json` writes to `target/doc/strided_layout.json`, walks the
items reachable from the crate root (modules, re-exports, inherent impls, traits), and lists
every public function, type, trait, constant and macro whose docs hold no code block. Enum
variants, fields, modules and trait impls are not items that need an example of their own;
associated constants are covered by their type's example.

Public docs state contracts; measured figures (timings, instruction or cycle counts,
throughputs, speed-ups) live in the `doc::benchmarks` guide and README only, where the
command that reproduces them and the CPU stand beside them. Every public item's and module's
docs are searched for `FIGURE`; a hit outside `doc::benchmarks` fails the check.

The JSON format is unstable: a format version this script was not written against is
reported and the check skipped (exit 0), so that a new nightly does not break CI; update
`KNOWN` after checking the walk still finds the items.
"""

import json
import pathlib
import re
import sys

KNOWN = range(50, 70)
NEEDS_EXAMPLE = {"function", "struct", "enum", "union", "trait", "constant", "macro", "type_alias"}
# A number with a unit of time, a count of instructions or cycles, a throughput, or a speed-up.
FIGURE = re.compile(
    r"\d(?:[\d.,]*\d)?\s?(?:ns|µs|us|ms|s|seconds?|minutes?)\b"
    r"|\d\s?(?:instructions?|cycles?)\b"
    r"|\d\s?(?:[GM]i?B/s)"
    r"|\d(?:\.\d+)?\s?x (?:faster|slower|the time)"
)
FIGURES_ALLOWED = ("doc", "benchmarks")
# The link check calls every public function but these, for the reason given.
PANIC_CHECK = pathlib.Path("firmware/panic-check/src/main.rs")
NOT_LINK_CHECKED = {
    "const_unwrap": "panics on Err by design (how a bad const item fails the build)",
    "nested::const_unwrap": "panics on Err by design, as const_unwrap",
    "dma::const_unwrap": "panics on Err by design, as const_unwrap",
    "algebra::const_unwrap": "panics on Err by design, as const_unwrap",
    "ndarray::copy_view": "feature ndarray: needs alloc, and the link check has no allocator",
    "Layout::from_view_in": "feature ndarray",
    "Layout::view": "feature ndarray",
    "Layout::view_mut": "feature ndarray",
    "par_copy": "feature rayon: needs std",
    "par_fill": "feature rayon",
    "par_map": "feature rayon",
    "par_zip_map": "feature rayon",
}


def link_checked(path, is_method, source):
    """Whether the link check calls the function `path`: a method as `.name(` (or `.name::<`),
    an associated function as `Type::name` (or `Type::<..>::name`, `<T as Trait>::name`), a
    free function or macro-free item by its name followed by `(`, `::<` or `!`."""
    name = re.escape(path[-1])
    if is_method:
        return re.search(rf"\.{name}\s*(\(|::<)", source) is not None
    if len(path) == 1:
        return re.search(rf"\b{name}\s*(\(|::<)", source) is not None
    owner = re.escape(path[-2])
    return re.search(rf"\b{owner}(::<[^;]*?>)?::{name}\b|\bas {owner}>::{name}\b", source) is not None


def main():
    path = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "target/doc/strided_layout.json")
    doc = json.loads(path.read_text())
    version = doc.get("format_version")
    if version not in KNOWN:
        print(f"rustdoc JSON format {version} is not one this check knows ({KNOWN}): skipped")
        return 0
    index, seen, missing, checked = doc["index"], set(), [], 0
    figures, functions = [], []

    def walk(item_id, path):
        nonlocal checked
        if item_id is None or item_id in seen or str(item_id) not in index:
            return
        seen.add(item_id)
        item = index[str(item_id)]
        kind, inner = next(iter(item["inner"].items()))
        if item.get("visibility") != "public" and kind != "impl" and path[-1:] != ["<trait>"]:
            return
        name = path + ([item["name"]] if item.get("name") else [])
        # The crate root's docs are README (figures allowed there, with their command and CPU).
        if len(name) > 1 and tuple(name[1:3]) != FIGURES_ALLOWED:
            for line in (item.get("docs") or "").splitlines():
                if FIGURE.search(line):
                    shown = "::".join(n for n in name if n != "<trait>")
                    figures.append(f"{kind} {shown}: {line.strip()}")
        if kind == "function":
            inputs = inner.get("sig", {}).get("inputs", [])
            is_method = bool(inputs) and inputs[0][0] == "self"
            functions.append(([n for n in name[1:] if n != "<trait>"], is_method))
        if kind in NEEDS_EXAMPLE:
            checked += 1
            if "```" not in (item.get("docs") or ""):
                missing.append(f"{kind} {'::'.join(n for n in name if n != '<trait>')}")
        if kind == "module":
            for child in inner["items"]:
                walk(child, name)
        elif kind in ("struct", "enum", "union"):
            for imp in inner.get("impls", []):
                walk(imp, name)
        elif kind == "impl":
            if inner.get("trait") is None and not inner.get("is_synthetic") and not inner.get("blanket_impl"):
                for child in inner["items"]:
                    walk(child, path)
        elif kind == "trait":
            for child in inner["items"]:
                walk(child, name + ["<trait>"])
        elif kind == "use":
            walk(inner.get("id"), path)

    walk(doc["root"], [])
    if checked < 100:
        print(f"only {checked} items found: the walk no longer matches the JSON format")
        return 1
    print(f"{checked} public items checked for an example")
    failed = 0
    if not PANIC_CHECK.exists():
        print(f"{PANIC_CHECK} not found: run this from the repository root")
        failed = 1
    else:
        source = PANIC_CHECK.read_text()
        unchecked = sorted(
            "::".join(f)
            for f, is_method in functions
            if "::".join(f) not in NOT_LINK_CHECKED and not link_checked(f, is_method, source)
        )
        print(f"{len(functions)} public functions, {len(functions) - len(unchecked)} in {PANIC_CHECK}")
        if unchecked:
            print(f"public functions {PANIC_CHECK} does not call:\n  " + "\n  ".join(unchecked))
            failed = 1
    if missing:
        print("public items without an example in their docs:\n  " + "\n  ".join(missing))
        failed = 1
    if figures:
        print(
            "measured figures in public docs (they belong in doc::benchmarks or README):\n  "
            + "\n  ".join(figures)
        )
        failed = 1
    return failed


if __name__ == "__main__":
    sys.exit(main())
