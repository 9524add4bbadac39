//! Which x86-64 instruction sets the kernels may use, detected once at run time without `std`.
//!
//! | feature | used by | known from |
//! | --- | --- | --- |
//! | AVX | the 8 × 8 `f32` / 4 × 4 `f64` transposes | `target_feature = "avx"` at compile time, else `cpuid` leaf 1 (ECX bit 28) and the OS saving the YMM state (`xgetbv`) |
//! | AVX2 | the 32-byte channel shuffles, the small blocks' 8 × 8 `u32` tiles | `target_feature = "avx2"`, else `cpuid` leaf 7 (EBX bit 5) and AVX's OS check |
//! | SSSE3 | the 16-byte channel shuffles, the small blocks' 16-byte stereo steps | `target_feature = "ssse3"`, else `cpuid` leaf 1 (ECX bit 9) |
//! | an Intel core | whether contiguous rows stream below [`STREAM_BYTES`](super::stream::STREAM_BYTES) of destination | `cpuid` leaf 0's vendor string, `GenuineIntel` |
//! | an AMD core's second-level cache | the longest run the C library's `memcpy` may move with `rep movsb` ([`rep_movsb_below`]) | the vendor string `AuthenticAMD`, then `cpuid` leaf `0x8000_0006` (ECX bits 16-31: KiB) |
//!
//! The answer is cached in one atomic byte (a race only detects twice), so every build, the
//! default `no_std` one included, takes the fastest path the machine has: no feature flag and
//! no `std` needed. Under Miri, and on other architectures, this module is not built.

use core::arch::x86_64::{__cpuid, __cpuid_count, _xgetbv};
use core::sync::atomic::{AtomicU8, Ordering};

/// Bits of [`FEATURES`].
const AVX: u8 = 1;
const AVX2: u8 = 1 << 1;
const SSSE3: u8 = 1 << 2;
const INTEL: u8 = 1 << 3;
/// Bits 4-6: on an AMD core, `k` in 1..=7 where its second-level cache holds at most
/// `128 KiB << k` ([`rep_movsb_below`]); 0 elsewhere or where unknown.
const L2_SHIFT: u32 = 4;
const L2_MASK: u8 = 0b111 << L2_SHIFT;
/// Set once detection has run.
const DETECTED: u8 = 1 << 7;

/// The detected features, `0` until the first query.
static FEATURES: AtomicU8 = AtomicU8::new(0);

/// Reads the CPU's feature bits (`cpuid`, `xgetbv`). Never inlined: `cpuid` writes four
/// registers, and inlined it made every kernel dispatch that asks save them on each call
/// (five pushes and pops around a stereo block's call on x86-64), not just the first.
#[cold]
#[inline(never)]
fn detect() -> u8 {
    // `__cpuid` is a safe function from Rust 1.94 on and `unsafe` before: the block keeps the
    // MSRV building, and `cpuid` itself has no precondition on x86-64.
    #[allow(
        unused_unsafe,
        reason = "__cpuid is unsafe on the MSRV, safe on newer compilers"
    )]
    // SAFETY: `cpuid` exists on every x86-64 CPU and only reads identification registers.
    let (leaf0, leaf1) = unsafe { (__cpuid(0), __cpuid(1)) };
    let max_leaf = leaf0.eax;
    let bit = |reg: u32, n: u32| reg & (1 << n) != 0;
    let mut out = DETECTED;
    // The vendor string "GenuineIntel", four ASCII bytes each in EBX, EDX, ECX (little-endian).
    if (leaf0.ebx, leaf0.edx, leaf0.ecx) == (0x756e_6547, 0x4965_6e69, 0x6c65_746e) {
        out |= INTEL;
    }
    // "AuthenticAMD": the size class of its second-level cache, from the extended leaf
    // 0x8000_0006 where the CPU has it (leaf 0x8000_0000's EAX: the highest extended leaf).
    if (leaf0.ebx, leaf0.edx, leaf0.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163) {
        #[allow(
            unused_unsafe,
            reason = "__cpuid is unsafe on the MSRV, safe on newer compilers"
        )]
        // SAFETY: `cpuid` leaf 0x8000_0000 exists on every x86-64 CPU (long mode is reported
        // through the extended leaves) and only reads identification registers.
        let max_extended = unsafe { __cpuid(0x8000_0000) }.eax;
        if max_extended >= 0x8000_0006 {
            #[allow(
                unused_unsafe,
                reason = "__cpuid is unsafe on the MSRV, safe on newer compilers"
            )]
            // SAFETY: leaf 0x8000_0006 exists (checked); `cpuid` only reads identification.
            let kib = unsafe { __cpuid(0x8000_0006) }.ecx >> 16;
            out |= l2_class(kib) << L2_SHIFT;
        }
    }
    if bit(leaf1.ecx, 9) {
        out |= SSSE3;
    }
    // AVX needs the CPU (bit 28) and the OS, which must save the YMM registers on a context
    // switch: `xgetbv(0)` bits 1 (SSE) and 2 (AVX), readable once OSXSAVE (bit 27) is set.
    let os_ymm = bit(leaf1.ecx, 27) && {
        // SAFETY: OSXSAVE is set, so `xgetbv` is enabled and register 0 (XCR0) exists.
        let xcr0 = unsafe { xgetbv0() };
        xcr0 & 0b110 == 0b110
    };
    if os_ymm && bit(leaf1.ecx, 28) {
        out |= AVX;
        if max_leaf >= 7 {
            #[allow(
                unused_unsafe,
                reason = "__cpuid_count is unsafe on the MSRV, safe on newer compilers"
            )]
            // SAFETY: leaf 7 exists (`max_leaf >= 7`); `cpuid` only reads identification.
            let leaf7 = unsafe { __cpuid_count(7, 0) };
            if bit(leaf7.ebx, 5) {
                out |= AVX2;
            }
        }
    }
    out
}

/// The size class `k` of a second-level cache of `kib` KiB: the least `k` in 1..=7 with
/// `kib <= 128 << k` (7 for larger caches), 0 for `kib == 0` (not reported).
const fn l2_class(kib: u32) -> u8 {
    if kib == 0 {
        return 0;
    }
    let mut k: u8 = 1;
    while k < 7 && kib > 128 << k {
        // Below 7 (the loop's test): no overflow.
        k = k.wrapping_add(1);
    }
    k
}

/// XCR0, the OS-enabled state components.
///
/// # Safety
///
/// `cpuid` leaf 1 reported OSXSAVE.
#[target_feature(enable = "xsave")]
unsafe fn xgetbv0() -> u64 {
    // SAFETY: the caller's contract (OSXSAVE implies XSAVE, which this function enables).
    unsafe { _xgetbv(0) }
}

/// The detected feature bits, detecting on first use.
#[inline]
fn features() -> u8 {
    let known = FEATURES.load(Ordering::Relaxed);
    if known & DETECTED != 0 {
        return known;
    }
    let found = detect();
    FEATURES.store(found, Ordering::Relaxed);
    found
}

/// The detected features, read without a call: what a dispatch on a short path tests, so that
/// no value of its has to live across the (first-call-only) detection. See [`Features::known`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Features(u8);

impl Features {
    /// The features, once detection has run (`None` before: the caller runs
    /// [`detect_now`] on a cold path and asks again).
    #[inline]
    pub(crate) fn known() -> Option<Self> {
        let known = FEATURES.load(Ordering::Relaxed);
        if known & DETECTED != 0 {
            Some(Self(known))
        } else {
            None
        }
    }

    /// Whether AVX2 can be used.
    #[inline]
    pub(crate) fn avx2(self) -> bool {
        cfg!(target_feature = "avx2") || self.0 & AVX2 != 0
    }

    /// Whether SSSE3 can be used.
    #[inline]
    pub(crate) fn ssse3(self) -> bool {
        cfg!(target_feature = "ssse3") || self.0 & SSSE3 != 0
    }
}

/// Runs the detection if it has not run, so that [`Features::known`] answers.
#[cold]
#[inline(never)]
pub(crate) fn detect_now() {
    features();
}

/// Whether AVX can be used (the transposes).
#[inline]
pub(crate) fn has_avx() -> bool {
    cfg!(target_feature = "avx") || features() & AVX != 0
}

/// Whether AVX2 can be used (the channel kernels).
#[inline]
pub(crate) fn has_avx2() -> bool {
    cfg!(target_feature = "avx2") || features() & AVX2 != 0
}

/// Whether the CPU is Intel's (the row streaming rule, [`stream_rows_worthy`]).
///
/// [`stream_rows_worthy`]: super::stream::stream_rows_worthy
#[inline]
pub(crate) fn is_intel() -> bool {
    features() & INTEL != 0
}

/// The run length, in bytes, below which the C library's `memcpy` may move a long run with
/// `rep movsb`, which on AMD Zen cores runs up to 15 times slower when the destination lies
/// 1 to 63 bytes past the source modulo 4096 (`raw::rows::copy_run`). glibc stops using
/// `rep movsb` on AMD cores at the size of the second-level cache (longer runs take its vector
/// loops or non-temporal stores, fast at any distance): on an AMD core with glibc, that size
/// rounded up to a power of two; elsewhere (Intel cores, where glibc uses `rep movsb` up to
/// its non-temporal threshold; other vendors; other C libraries; the cache not reported)
/// `usize::MAX`, every length.
#[inline]
pub(crate) fn rep_movsb_below() -> usize {
    let k = (features() & L2_MASK) >> L2_SHIFT;
    if cfg!(target_env = "gnu") && k != 0 {
        (128usize << 10) << k
    } else {
        usize::MAX
    }
}

/// Whether SSSE3 can be used (the channel kernels without AVX2).
#[inline]
pub(crate) fn has_ssse3() -> bool {
    cfg!(target_feature = "ssse3") || features() & SSSE3 != 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detection_agrees_with_std() {
        assert_eq!(has_avx(), std::is_x86_feature_detected!("avx"));
        assert_eq!(has_avx2(), std::is_x86_feature_detected!("avx2"));
        assert_eq!(has_ssse3(), std::is_x86_feature_detected!("ssse3"));
        // The vendor string from leaf 0's three registers in order (`std` has no query for it).
        // SAFETY: `cpuid` leaf 0 exists on every x86-64 CPU.
        #[allow(unused_unsafe, reason = "__cpuid is unsafe on the MSRV")]
        let leaf0 = unsafe { __cpuid(0) };
        let mut vendor = [0u8; 12];
        for (chunk, reg) in vendor.chunks_mut(4).zip([leaf0.ebx, leaf0.edx, leaf0.ecx]) {
            chunk.copy_from_slice(&reg.to_le_bytes());
        }
        assert_eq!(is_intel(), &vendor == b"GenuineIntel");
        // The second-level cache as Linux reports it, the oracle for `rep_movsb_below`.
        let l2 = std::fs::read_to_string("/sys/devices/system/cpu/cpu0/cache/index2/size");
        let kib = l2
            .ok()
            .and_then(|s| s.trim().strip_suffix('K')?.parse::<usize>().ok());
        match kib {
            Some(kib) if &vendor == b"AuthenticAMD" && cfg!(target_env = "gnu") => {
                assert_eq!(
                    rep_movsb_below(),
                    (kib << 10).next_power_of_two().max(256 << 10)
                );
            }
            _ if &vendor != b"AuthenticAMD" => assert_eq!(rep_movsb_below(), usize::MAX),
            _ => {}
        }
        assert_ne!(FEATURES.load(Ordering::Relaxed) & DETECTED, 0);
        let known = Features::known().unwrap();
        assert_eq!(known.avx2(), std::is_x86_feature_detected!("avx2"));
        assert_eq!(known.ssse3(), std::is_x86_feature_detected!("ssse3"));
    }

    #[test]
    fn l2_classes_round_up_to_a_power_of_two() {
        let stop = |kib| (128usize << 10) << l2_class(kib);
        assert_eq!(l2_class(0), 0);
        for (kib, want) in [(1, 256), (256, 256), (257, 512), (512, 512), (1024, 1024)] {
            assert_eq!(stop(kib), want << 10, "{kib} KiB");
        }
        assert_eq!(stop(1280), 2 << 20);
        assert_eq!(stop(16 << 10), 16 << 20);
        assert_eq!(stop(u32::MAX >> 16), 16 << 20);
    }
}
