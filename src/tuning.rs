//! Per-target tuning constants for the copy kernels, chosen by `build.rs`.
//!
//! `build.rs` reads the *target's* `cfg`s (arch, OS, pointer width, atomics) and writes
//! `$OUT_DIR/tuning.rs`, included below. The constants never change what a kernel computes,
//! only how it walks memory; every kernel must be correct for any value in the documented
//! range, and the `const` assertions below pin those ranges for every target built.
//!
//! | constant | meaning | range | chosen |
//! | --- | --- | --- | --- |
//! | `TILE_BYTES` | bytes of *source* data one tile of a tiled copy covers when source and destination disagree on the fastest axis (a tile of `itemsize`-byte elements is about `sqrt(TILE_BYTES / itemsize)` on a side); source plus destination tiles should sit in L1 | power of two, 64..=16384 | 4096 on x86_64/aarch64 hosts (32 KiB+ L1D holds both tiles with room); 512 on `thumbv7em`/`riscv32` MCUs (a few KiB of cache or none, tight SRAM, short loops keep code small); 256 on ARMv6-M (no cache, 8 low registers); 1024 elsewhere |
//! | `INNER_UNROLL` | elements copied per inner-loop iteration on a strided (non-contiguous) run; contiguous runs use `copy_from_slice` and ignore it | 1..=8 | 4 on hosts (wide out-of-order cores hide the address math); 2 on `thumbv7em`/`riscv32`; 1 on ARMv6-M (code size first) and on GPUs (one element per thread) |
//! | `PREFER_I32_INDEX` | do per-element index math in `i32`/`u32` when the plan proves every offset fits, converting to `isize` only at the pointer | `bool` | `true` on 32-bit targets (it is the native width) and on `nvptx64`/`amdgpu` (64-bit integer multiply is emulated there); `false` on 64-bit CPUs |
//! | `TARGET_CLASS` | which row of `build.rs`'s table was used: `"mcu-small"`, `"mcu"`, `"gpu"`, `"host"` or `"generic"`; also set as `cfg(strided_layout_tuning = "..")` | | |

include!(concat!(env!("OUT_DIR"), "/tuning.rs"));

// The class is also exported as a cfg; the two must agree.
const _: () = {
    let cfg_class = if cfg!(strided_layout_tuning = "mcu-small") {
        "mcu-small"
    } else if cfg!(strided_layout_tuning = "mcu") {
        "mcu"
    } else if cfg!(strided_layout_tuning = "gpu") {
        "gpu"
    } else if cfg!(strided_layout_tuning = "host") {
        "host"
    } else {
        "generic"
    };
    assert!(
        str_eq(cfg_class, TARGET_CLASS),
        "tuning: cfg and TARGET_CLASS disagree"
    );
};

/// `a == b` for `&str` in a const context (`PartialEq` is not const on stable).
#[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)] // `i < a.len() == b.len()`
const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

// The documented ranges, checked at compile time for whichever target is being built.
const _: () = assert!(
    TILE_BYTES.is_power_of_two() && TILE_BYTES >= 64 && TILE_BYTES <= 16384,
    "TILE_BYTES must be a power of two in 64..=16384"
);
const _: () = assert!(
    INNER_UNROLL >= 1 && INNER_UNROLL <= 8,
    "INNER_UNROLL must be in 1..=8"
);
const _: () = assert!(
    usize::BITS > 32 || PREFER_I32_INDEX,
    "32-bit targets index in 32 bits"
);

#[cfg(test)]
mod tests {
    use super::TARGET_CLASS;

    #[test]
    fn class_matches_the_target_the_tests_run_on() {
        let expected = if cfg!(target_os = "none") {
            ["mcu", "mcu-small"].as_slice()
        } else if cfg!(any(target_arch = "x86_64", target_arch = "aarch64")) {
            ["host"].as_slice()
        } else if cfg!(any(target_arch = "nvptx64", target_arch = "amdgpu")) {
            ["gpu"].as_slice()
        } else {
            ["generic"].as_slice()
        };
        assert!(expected.contains(&TARGET_CLASS), "class {TARGET_CLASS}");
    }
}
