//! Arm DMA-330 (PL330: Zynq-7000, Exynos, many SoCs): a copy as a channel thread's
//! microcode.
//!
//! A channel thread runs a program: `DMAMOV` sets the source and destination addresses and
//! the channel control register (`CCR`: beat size, burst length up to 16 beats, increments),
//! `DMALD` / `DMAST` move one burst through the channel's FIFO, `DMAADDH` / `DMAADNH` add a
//! 16-bit offset to an address (`DMAADNH` a negative one), and `DMALP` / `DMALPEND` repeat a
//! body with one of two loop counters, at most 256 times each. So one block of the program
//! runs three loops of the copy: a burst of consecutive beats (where every burst it starts
//! stays inside a 4 KiB page, as AXI needs: a power-of-two burst at addresses its multiple),
//! and two loops whose steps the 16-bit adds reach; loops longer than 256 are cut first.
//!
//! **Descriptors:** a block per combination of the indices of the loops the three do not
//! take (minimised over every choice, as for the other engines), each block `DMAMOV SAR`,
//! `DMAMOV DAR` (and `DMAMOV CCR` where it changes), the loops and their adds, at most 45
//! bytes; the program ends with `DMAWMB` and `DMAEND`. `out` holds bytes: [`lower`] returns
//! how many it wrote, and [`DmaError::ChainTooLong`] counts bytes.
//!
//! **Start-up:** the program starts at `out[0]` (`DMAGO`'s PC, through the manager thread or
//! the debug registers). Beats are at most 4 bytes (any data bus width), bursts at most 16
//! beats; `CCR`'s cache and protection fields are 0 (normal, secure, unprivileged data
//! accesses on `AxCACHE`/`AxPROT`: set them in the `DMAMOV CCR` immediates if a system needs
//! others).
//!
//! # Examples
//!
//! ```
//! use strided_layout::dma::pl330;
//! use strided_layout::{CopyPlan, Layout, LayoutError, Order};
//! // A 64 × 64 `f32` transpose: one block, two loops of single beats.
//! let src = Layout::dense([64, 64], 4, Order::C)?;
//! let plan = CopyPlan::new(&src, &src.transposed(0, 1)?.to_dense(Order::C)?.transposed(0, 1)?)?;
//! let mut code = [0u8; 64];
//! let n = pl330::lower(&plan, 0x1000_0000, 0x1010_0000, &mut code)
//!     .map_err(|_| LayoutError::DestinationNotUnique)?;
//! assert_eq!(&code[n - 2..n], &[0x13, 0x00]); // DMAWMB, DMAEND
//! assert_eq!(code[0], 0xBC); // DMAMOV CCR, ...
//! # Ok::<(), LayoutError>(())
//! ```

use super::walk::{Chain, Kind, Levels, Run, Step, i64_of};
use super::{DmaError, aligned, bus_span};
use crate::CopyPlan;
use crate::algo::access::{get, set};
use crate::algo::checked::tri;

/// A byte of the channel's microcode.
///
/// # Examples
///
/// ```
/// let code: [strided_layout::dma::pl330::Descriptor; 1] = [0x00]; // DMAEND
/// assert_eq!(code, [0]);
/// ```
pub type Descriptor = u8;

/// The most beats in a burst.
const MAX_BURST: usize = 16;
/// The most iterations of a loop counter.
const MAX_LOOP: usize = 256;
/// The range of one add (`DMAADDH`: 0 to 65,535; `DMAADNH`: -65,536 to -1).
const ADD_MIN: i64 = -0x1_0000;
const ADD_MAX: i64 = 0xFFFF;

/// One block's burst and loops: beats a burst, and each loop's count and the adds after
/// each iteration (source, destination).
pub(super) struct Fields {
    burst: usize,
    inner: Option<(usize, i64, i64)>,
    outer: Option<(usize, i64, i64)>,
}

/// Whether `x` is one add's reach.
const fn reach(x: i64) -> bool {
    x >= ADD_MIN && x <= ADD_MAX
}

/// The block's fields for `levels` (burst, inner loop, outer loop) with beats of `width`
/// bytes and block starts at multiples of `align`, if one block can run them.
pub(super) const fn fields(width: usize, align: u64, levels: &Levels) -> Option<Fields> {
    let [burst, inner, outer] = *levels;
    let Some(w) = i64_of(width) else {
        return None;
    };
    let burst = match burst {
        None => 1,
        // Consecutive beats, a power-of-two burst whose starts are its multiples: it never
        // crosses a 4 KiB page.
        Some(r) if r.src == w && r.dst == w && r.count <= MAX_BURST => {
            let bytes = r.count.saturating_mul(width);
            if !bytes.is_power_of_two() || !align.is_multiple_of(bytes as u64) {
                return None;
            }
            r.count
        }
        Some(_) => return None,
    };
    let Some(burst_bytes) = i64_of(burst.saturating_mul(width)) else {
        return None;
    };
    // A burst moves both addresses by its bytes; each loop adds the rest of its step.
    let inner = match inner {
        None => None,
        Some(r) => {
            let (gs, gd) = (
                r.src.saturating_sub(burst_bytes),
                r.dst.saturating_sub(burst_bytes),
            );
            if r.count > MAX_LOOP || !reach(gs) || !reach(gd) {
                return None;
            }
            Some((r.count, gs, gd))
        }
    };
    let moved = match inner {
        Some((n, _, _)) => {
            let Some(n) = i64_of(n) else {
                return None;
            };
            let step = match levels[1] {
                Some(r) => r,
                None => Run::ONE,
            };
            (n.saturating_mul(step.src), n.saturating_mul(step.dst))
        }
        None => (burst_bytes, burst_bytes),
    };
    let outer = match outer {
        None => None,
        Some(r) => {
            let (gs, gd) = (r.src.saturating_sub(moved.0), r.dst.saturating_sub(moved.1));
            if r.count > MAX_LOOP || !reach(gs) || !reach(gd) {
                return None;
            }
            Some((r.count, gs, gd))
        }
    };
    Some(Fields {
        burst,
        inner,
        outer,
    })
}

/// `CCR` for bursts of `burst` beats of `width` bytes, both addresses incrementing.
const fn ccr(width: usize, burst: usize) -> u32 {
    let size: u32 = match width {
        2 => 1,
        4 => 2,
        _ => 0,
    };
    // `burst` is 1 to 16 (checked in `fields`).
    #[expect(clippy::cast_possible_truncation, reason = "a burst is 1 to 16 beats")]
    let len = (burst as u32).saturating_sub(1) & 0xF;
    1 | size << 1 | len << 4 | 1 << 14 | size << 15 | len << 18
}

/// Writes `bytes` at `at` (as far as `out` reaches) and returns the position after them.
const fn put(out: &mut [u8], at: usize, bytes: &[u8]) -> usize {
    let mut i = 0;
    let mut at = at;
    while let Some(b) = get(bytes, i) {
        set(out, at, b);
        at = at.saturating_add(1);
        i = i.saturating_add(1);
    }
    at
}

/// `DMAMOV rd, value` (`rd`: 0 `SAR`, 1 `CCR`, 2 `DAR`).
const fn mov(out: &mut [u8], at: usize, rd: u8, value: u32) -> usize {
    let v = value.to_le_bytes();
    put(out, at, &[0xBC, rd, v[0], v[1], v[2], v[3]])
}

/// `DMAADDH` / `DMAADNH` of `x` (in reach) to `SAR` (`ra` 0) or `DAR` (`ra` 1); nothing for 0.
const fn add(out: &mut [u8], at: usize, ra: u8, x: i64) -> usize {
    if x == 0 {
        return at;
    }
    let op = if x < 0 { 0x5C } else { 0x54 } | ra << 1;
    // The low 16 bits: `DMAADNH` extends them with ones.
    #[expect(clippy::cast_sign_loss, reason = "the low 16 bits, on purpose")]
    let imm = (x & 0xFFFF) as u16;
    let v = imm.to_le_bytes();
    put(out, at, &[op, v[0], v[1]])
}

/// `DMALP lc, count` (`count` 1 to 256).
const fn lp(out: &mut [u8], at: usize, lc: u8, count: usize) -> usize {
    #[expect(clippy::cast_possible_truncation, reason = "a count of 1 to 256")]
    let n = count.saturating_sub(1) as u8;
    put(out, at, &[0x20 | lc << 1, n])
}

/// `DMALPEND lc` back to the body at `start`.
const fn lpend(out: &mut [u8], at: usize, lc: u8, start: usize) -> usize {
    // A body is at most a few adds and a burst: far below 256 bytes.
    #[expect(
        clippy::cast_possible_truncation,
        reason = "a body of fewer than 256 bytes"
    )]
    let jump = at.saturating_sub(start) as u8;
    put(out, at, &[0x38 | lc << 2, jump])
}

/// Writes the block running `step` at `at` (as far as `out` reaches), `DMAMOV CCR` first
/// when it differs from `*last`, and returns the position after it.
const fn block(out: &mut [u8], at: usize, step: &Step, last: &mut Option<u32>) -> usize {
    // `Chain` only hands out levels that `fields` accepted; single beats otherwise.
    // (Alignment 0: the choice already checked the bursts' starts.)
    let f = match fields(step.width, 0, &step.levels) {
        Some(f) => f,
        None => Fields {
            burst: 1,
            inner: None,
            outer: None,
        },
    };
    let c = ccr(step.width, f.burst);
    let mut at = at;
    let same = matches!(*last, Some(prev) if prev == c);
    if !same {
        at = mov(out, at, 1, c);
        *last = Some(c);
    }
    at = mov(out, at, 0, step.src);
    at = mov(out, at, 2, step.dst);
    let mut outer_start = at;
    if let Some((n, _, _)) = f.outer {
        at = lp(out, at, 1, n);
        outer_start = at;
    }
    let mut inner_start = at;
    if let Some((n, _, _)) = f.inner {
        at = lp(out, at, 0, n);
        inner_start = at;
    }
    at = put(out, at, &[0x04]); // DMALD
    if let Some((_, gs, _)) = f.inner {
        at = add(out, at, 0, gs);
    }
    at = put(out, at, &[0x08]); // DMAST
    if let Some((_, _, gd)) = f.inner {
        at = add(out, at, 1, gd);
        at = lpend(out, at, 0, inner_start);
    }
    if let Some((_, gs, gd)) = f.outer {
        at = add(out, at, 0, gs);
        at = add(out, at, 1, gd);
        at = lpend(out, at, 1, outer_start);
    }
    at
}

/// The program of `plan` written at `at` (as far as `out` reaches), ending with `DMAWMB` and
/// `DMAEND`; returns its length.
const fn program<const M: usize, const L: usize>(
    plan: &CopyPlan<M, L>,
    src_addr: u32,
    dst_addr: u32,
    out: &mut [u8],
) -> Result<usize, DmaError> {
    let mut chain = tri!(Chain::new(plan, Kind::Pl330, src_addr, dst_addr));
    let mut at = 0;
    let mut last = None;
    while let Some(step) = tri!(chain.next()) {
        at = block(out, at, &step, &mut last);
    }
    Ok(put(out, at, &[0x13, 0x00]))
}

/// Writes the microcode of `plan` into `out`, copying from bus address `src_addr` to
/// `dst_addr` (each the address of its layout's offset 0), and returns how many bytes it
/// wrote. The program has no absolute address of its own: it runs wherever it is placed.
///
/// # Errors
///
/// - [`DmaError::ItemsizeMismatch`] if the plan's two element sizes differ;
/// - [`DmaError::Address`] if a byte of either buffer leaves `0..2^32`;
/// - [`DmaError::ChainTooLong`] if `out` holds fewer bytes than the program (`out` is then
///   untouched).
///
/// # Examples
///
/// ```
/// use strided_layout::dma::{DmaError, pl330};
/// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
/// // 4,096 consecutive `u32`: bursts of 16 beats, 256 bursts: one block.
/// let l = Layout::dense([4096], 4, Order::C)?;
/// let plan = CopyPlan::new(&l, &l)?;
/// let mut code = [0u8; 40];
/// assert_eq!(pl330::lower(&plan, 0x1000_0000, 0x1010_0000, &mut code), Ok(26));
/// assert_eq!(pl330::lower(&plan, 0x1000_0000, 0x1010_0000, &mut code[..20]), Err(DmaError::ChainTooLong { needed: 26 }));
/// # Ok::<(), LayoutError>(())
/// ```
pub const fn lower<const M: usize, const L: usize>(
    plan: &CopyPlan<M, L>,
    src_addr: u32,
    dst_addr: u32,
    out: &mut [Descriptor],
) -> Result<usize, DmaError> {
    let needed = tri!(program(plan, src_addr, dst_addr, &mut []));
    if needed > out.len() {
        return Err(DmaError::ChainTooLong { needed });
    }
    program(plan, src_addr, dst_addr, out)
}

/// Adds the buffers' addresses to a program lowered at address 0 (by [`lower`]`(plan, 0, 0,
/// out)`, typically in a `const` item): the immediates of its `DMAMOV SAR` and `DMAMOV DAR`.
/// Its bursts were chosen for buffers aligned to them, so both addresses must be.
///
/// # Errors
///
/// Nothing is changed on error:
/// - [`DmaError::Address`] if a byte of either buffer (the plan's span from its address)
///   leaves `0..2^32`;
/// - [`DmaError::Unaligned`] if `src_addr` or `dst_addr` is not a multiple of a burst's bytes.
///
/// # Examples
///
/// ```
/// use strided_layout::dma::{const_unwrap, pl330};
/// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
/// const L: Layout<1> = strided_layout::const_unwrap(Layout::dense([4096], 4, Order::C));
/// const PLAN: CopyPlan = strided_layout::const_unwrap(CopyPlan::new(&L, &L));
/// const CODE: [u8; 26] = {
///     let mut out = [0u8; 26];
///     let _ = const_unwrap(pl330::lower(&PLAN, 0, 0, &mut out));
///     out
/// };
/// let mut code = CODE;
/// pl330::rebase(&PLAN, &mut code, 0x1000_0000, 0x1010_0000).map_err(|_| LayoutError::DestinationNotUnique)?;
/// let mut direct = [0u8; 26];
/// pl330::lower(&PLAN, 0x1000_0000, 0x1010_0000, &mut direct).map_err(|_| LayoutError::DestinationNotUnique)?;
/// assert_eq!(code, direct);
/// # Ok::<(), LayoutError>(())
/// ```
pub const fn rebase<const M: usize, const L: usize>(
    plan: &CopyPlan<M, L>,
    code: &mut [Descriptor],
    src_addr: u32,
    dst_addr: u32,
) -> Result<(), DmaError> {
    tri!(bus_span(plan, src_addr, dst_addr));
    tri!(patch(code, src_addr, dst_addr, false));
    patch(code, src_addr, dst_addr, true)
}

/// Walks the program's instructions (those [`lower`] writes) up to `DMAEND`: checks each
/// `CCR`'s bursts against the addresses' alignment, and with `apply` adds the addresses to
/// the `DMAMOV SAR` / `DAR` immediates.
const fn patch(code: &mut [u8], src_addr: u32, dst_addr: u32, apply: bool) -> Result<(), DmaError> {
    let mut at = 0;
    while let Some(op) = get(code, at) {
        let len = match op {
            0xBC => {
                let rd = get(code, at.saturating_add(1));
                let mut v = [0u8; 4];
                let mut i = 0;
                while i < 4 {
                    if let Some(b) = get(code, at.saturating_add(2).saturating_add(i)) {
                        set(&mut v, i, b);
                    }
                    i = i.saturating_add(1);
                }
                let value = u32::from_le_bytes(v);
                match rd {
                    Some(1) => {
                        // Beats of 2^SB bytes, bursts of SL + 1 beats.
                        let beat = match 1u32.checked_shl((value >> 1) & 7) {
                            Some(b) => b,
                            None => 1,
                        };
                        let bytes = beat.saturating_mul(((value >> 4) & 0xF).saturating_add(1));
                        tri!(aligned(src_addr, dst_addr, bytes));
                    }
                    Some(0 | 2) if apply => {
                        let base = if matches!(rd, Some(0)) {
                            src_addr
                        } else {
                            dst_addr
                        };
                        // Inside the bus: `bus_span` checked the largest sum.
                        let new = value.saturating_add(base).to_le_bytes();
                        let mut i = 0;
                        while let Some(b) = get(&new, i) {
                            set(code, at.saturating_add(2).saturating_add(i), b);
                            i = i.saturating_add(1);
                        }
                    }
                    _ => {}
                }
                6
            }
            0x00 => return Ok(()),
            0x20..=0x23 | 0x38..=0x3F => 2,
            0x54 | 0x56 | 0x5C | 0x5E => 3,
            _ => 1,
        };
        at = at.saturating_add(len);
    }
    Ok(())
}
