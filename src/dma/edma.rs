//! NXP eDMA (i.MX RT, MCX, Kinetis): a copy as a chain of transfer control descriptors (TCDs)
//! linked by scatter-gather.
//!
//! A TCD runs a *major loop* of `CITER` *minor loops*. A minor loop moves `NBYTES` bytes in
//! beats of the transfer size (`ATTR.SSIZE`/`DSIZE`), the source address moving by `SOFF` and
//! the destination by `DOFF` after each beat (signed 16 bits). After each minor loop the
//! minor-loop offset `MLOFF` (signed 20 bits, with `NBYTES` then at most 1,023) is added to
//! the source (`SMLOE`), the destination (`DMLOE`) or both. So one TCD runs two loops of the
//! copy: the inner one in the minor loop, the outer one in the major loop, whose step per
//! operand must be `NBYTES / size · OFF` plus `MLOFF` or nothing, one `MLOFF` for both.
//!
//! **Descriptors:** for each nest of the plan, the product of the extents of the loops the
//! two counters do not take, minimised over every choice of those two loops (beats of the
//! widest of 1, 2, 4 and 8 bytes that divides the element size and both addresses; an element
//! wider is a loop of beats). A copy whose loops merge into two is one TCD.
//!
//! **Start-up** (memory to memory): the engine's minor-loop mapping is on (`CR.EMLM = 1`),
//! `out[0]` is copied into the channel's TCD and the channel is requested permanently
//! (`ERQ` with an always-on request, or `TCD.CSR.START` for each minor loop). Each TCD but the
//! last has `ESG` set and its `DLAST_SGA` holds the next TCD's bus address (the chain's own
//! address plus 32 bytes a TCD, so the chain must be 32-byte aligned: [`Descriptor`] is); the
//! last sets `DREQ`, so the request is cleared when the copy is done and the channel's
//! `CSR.DONE` is set. `INTMAJOR` is clear: set it in the last TCD for an interrupt.
//!
//! # Examples
//!
//! ```
//! use strided_layout::dma::edma::{self, Descriptor};
//! use strided_layout::{CopyPlan, Layout, LayoutError, Order};
//! // The left channel of 256 stereo `i16` frames into a mono buffer: one TCD, a minor loop of
//! // 256 beats reading every other sample.
//! let frames = Layout::dense([256, 2], 2, Order::C)?.selected(1, 0)?;
//! let mono = Layout::dense([256], 2, Order::C)?;
//! let plan = CopyPlan::new(&frames, &mono)?;
//! let mut tcds = [Descriptor::ZERO; 2];
//! let n = edma::lower_at(&plan, 0x2020_0000, 0x2020_4000, &mut tcds, 0x2000_0000)
//!     .map_err(|_| LayoutError::DestinationNotUnique)?;
//! assert_eq!(n, 1);
//! assert_eq!((tcds[0].soff, tcds[0].doff, tcds[0].nbytes, tcds[0].citer), (4, 2, 512, 1));
//! assert_eq!(tcds[0].csr, edma::CSR_DREQ);
//! # Ok::<(), LayoutError>(())
//! ```

use super::lower_linked;
use super::walk::{Kind, Levels, Run, Step, i16_of, i64_of};
use super::{DmaError, aligned, bus_address, bus_span, place};
use crate::CopyPlan;
use crate::algo::access::{get, set};
use crate::algo::checked::tri;

/// A transfer control descriptor, as the engine reads it (32 bytes, 32-byte aligned for
/// scatter-gather); field names and order as in the reference manual.
///
/// # Examples
///
/// ```
/// use strided_layout::dma::edma::Descriptor;
/// assert_eq!((size_of::<Descriptor>(), align_of::<Descriptor>()), (32, 32));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C, align(32))]
pub struct Descriptor {
    /// `SADDR` (0x00): the source address.
    pub saddr: u32,
    /// `SOFF` (0x04): added to the source address after each beat.
    pub soff: i16,
    /// `ATTR` (0x06): `SMOD` 15:11, `SSIZE` 10:8, `DMOD` 7:3, `DSIZE` 2:0.
    pub attr: u16,
    /// `NBYTES_MLOFFYES` / `MLOFFNO` (0x08): `SMLOE` bit 31, `DMLOE` bit 30, then `MLOFF`
    /// 29:10 and `NBYTES` 9:0 when either is set, else `NBYTES` 29:0.
    pub nbytes: u32,
    /// `SLAST` (0x0C): added to the source address when the major loop ends.
    pub slast: i32,
    /// `DADDR` (0x10): the destination address.
    pub daddr: u32,
    /// `DOFF` (0x14): added to the destination address after each beat.
    pub doff: i16,
    /// `CITER` (0x16): the major loop count, `ELINK` bit 15 clear.
    pub citer: u16,
    /// `DLAST_SGA` (0x18): with `CSR.ESG`, the next TCD's address.
    pub dlast_sga: u32,
    /// `CSR` (0x1C): `ESG` bit 4, `DREQ` bit 3, `INTMAJOR` bit 1, `START` bit 0, ...
    pub csr: u16,
    /// `BITER` (0x1E): the major loop count reloaded into `CITER`, `ELINK` bit 15 clear.
    pub biter: u16,
}

impl Descriptor {
    /// A TCD of zeros.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::dma::edma::Descriptor;
    /// assert_eq!(Descriptor::ZERO.citer, 0);
    /// ```
    pub const ZERO: Self = Self {
        saddr: 0,
        soff: 0,
        attr: 0,
        nbytes: 0,
        slast: 0,
        daddr: 0,
        doff: 0,
        citer: 0,
        dlast_sga: 0,
        csr: 0,
        biter: 0,
    };
}

/// `CSR.DREQ`: the channel's request is cleared when the major loop ends.
///
/// # Examples
///
/// ```
/// assert_eq!(strided_layout::dma::edma::CSR_DREQ, 1 << 3);
/// ```
pub const CSR_DREQ: u16 = 1 << 3;

/// `CSR.ESG`: the next TCD is loaded from `DLAST_SGA` when the major loop ends.
///
/// # Examples
///
/// ```
/// assert_eq!(strided_layout::dma::edma::CSR_ESG, 1 << 4);
/// ```
pub const CSR_ESG: u16 = 1 << 4;

/// The largest major loop count (`CITER` with `ELINK` clear: 15 bits).
const MAX_CITER: usize = 0x7FFF;
/// The largest minor loop byte count without a minor-loop offset (30 bits).
const MAX_NBYTES: usize = (1 << 30) - 1;
/// The largest minor loop byte count beside a minor-loop offset (10 bits).
const MAX_NBYTES_MLOFF: usize = (1 << 10) - 1;
/// The range of the signed 20-bit minor-loop offset.
const MLOFF_MIN: i64 = -(1 << 19);
const MLOFF_MAX: i64 = (1 << 19) - 1;

/// The fields one TCD's two loops give: `SOFF`, `DOFF`, `NBYTES` (with its offset bits),
/// `CITER`.
pub(super) struct Fields {
    soff: i16,
    doff: i16,
    nbytes: u32,
    citer: u16,
}

/// The fields for `levels` (minor loop, major loop) with beats of `width` bytes, if one TCD
/// can run them.
pub(super) const fn fields(width: usize, levels: &Levels) -> Option<Fields> {
    let [minor, major, _] = *levels;
    let major = match major {
        Some(r) => r,
        None => Run::ONE,
    };
    let Some(citer) = u16_of(major.count, MAX_CITER) else {
        return None;
    };
    // The minor loop: its run, or one beat stepping as the major loop does (where that fits
    // `SOFF` / `DOFF`, else not at all, the major loop's step then all minor-loop offset).
    let minor = match minor {
        Some(r) => r,
        None if i16_of(major.src).is_some() && i16_of(major.dst).is_some() => Run {
            count: 1,
            src: major.src,
            dst: major.dst,
        },
        None => Run::ONE,
    };
    let (Some(soff), Some(doff)) = (i16_of(minor.src), i16_of(minor.dst)) else {
        return None;
    };
    let Some(bytes) = minor.count.checked_mul(width) else {
        return None;
    };
    let Some(n) = i64_of(minor.count) else {
        return None;
    };
    // What the major loop's step leaves after the minor loop's own progress.
    let (Some(ps), Some(pd)) = (n.checked_mul(minor.src), n.checked_mul(minor.dst)) else {
        return None;
    };
    let (Some(rest_s), Some(rest_d)) = (major.src.checked_sub(ps), major.dst.checked_sub(pd))
    else {
        return None;
    };
    let (smloe, dmloe, mloff) = if citer <= 1 {
        (false, false, 0)
    } else {
        match (rest_s, rest_d) {
            (0, 0) => (false, false, 0),
            (s, 0) => (true, false, s),
            (0, d) => (false, true, d),
            (s, d) if s == d => (true, true, s),
            _ => return None,
        }
    };
    let nbytes = if smloe || dmloe {
        if bytes > MAX_NBYTES_MLOFF || mloff < MLOFF_MIN || mloff > MLOFF_MAX {
            return None;
        }
        // Two's complement in 20 bits, at bits 29:10; `bytes` fits 10 bits.
        #[expect(
            clippy::cast_possible_truncation,
            clippy::cast_sign_loss,
            reason = "20 bits of two's complement, and a count checked below 2^10"
        )]
        let field = ((mloff & 0xF_FFFF) as u32) << 10 | bytes as u32;
        (smloe as u32) << 31 | (dmloe as u32) << 30 | field
    } else {
        if bytes > MAX_NBYTES {
            return None;
        }
        #[expect(clippy::cast_possible_truncation, reason = "checked below 2^30")]
        let nbytes = bytes as u32;
        nbytes
    };
    Some(Fields {
        soff,
        doff,
        nbytes,
        citer,
    })
}

/// `count` as a 16-bit count field, if it is at least 1 and at most `max`.
const fn u16_of(count: usize, max: usize) -> Option<u16> {
    if count >= 1 && count <= max {
        #[expect(
            clippy::cast_possible_truncation,
            reason = "checked: at most a 16-bit max"
        )]
        Some(count as u16)
    } else {
        None
    }
}

/// `SSIZE` / `DSIZE` for beats of `width` bytes: 0, 1, 2, 3 for 1, 2, 4, 8.
const fn size_code(width: usize) -> u16 {
    match width {
        2 => 1,
        4 => 2,
        8 => 3,
        _ => 0,
    }
}

/// The TCD running `step`; `next` is the next TCD's bus address, `None` for the last.
const fn descriptor(step: &Step, next: Option<u32>) -> Descriptor {
    // `Chain` only hands out levels that `fields` accepted; a beat a TCD otherwise.
    let f = match fields(step.width, &step.levels) {
        Some(f) => f,
        None => Fields {
            soff: 0,
            doff: 0,
            nbytes: 0,
            citer: 1,
        },
    };
    let size = size_code(step.width);
    let (dlast_sga, csr) = match next {
        Some(a) => (a, CSR_ESG),
        None => (0, CSR_DREQ),
    };
    Descriptor {
        saddr: step.src,
        soff: f.soff,
        attr: size << 8 | size,
        nbytes: f.nbytes,
        slast: 0,
        daddr: step.dst,
        doff: f.doff,
        citer: f.citer,
        dlast_sga,
        csr,
        biter: f.citer,
    }
}

/// Writes the TCD chain of `plan` into `out`, copying from bus address `src_addr` to
/// `dst_addr` (each the address of its layout's offset 0), and returns how many it wrote.
/// The chain links to itself at `out`'s own address; see [`lower_at`] for a chain that the
/// engine reads elsewhere.
///
/// # Errors
///
/// As [`lower_at`], and [`DmaError::Address`] if `out` does not lie below 4 GiB.
///
/// # Examples
///
/// ```
/// use strided_layout::dma::{DmaError, edma};
/// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
/// let l = Layout::dense([16, 16], 4, Order::C)?;
/// let plan = CopyPlan::new(&l, &l)?;
/// let mut tcds = [edma::Descriptor::ZERO; 1];
/// match edma::lower(&plan, 0x2000_0000, 0x2000_1000, &mut tcds) {
///     Ok(n) => assert_eq!(n, 1),                 // a 32-bit target
///     Err(e) => assert_eq!(e, DmaError::Address), // a host: `tcds` lies above 4 GiB
/// }
/// # Ok::<(), LayoutError>(())
/// ```
pub fn lower<const M: usize, const L: usize>(
    plan: &CopyPlan<M, L>,
    src_addr: u32,
    dst_addr: u32,
    out: &mut [Descriptor],
) -> Result<usize, DmaError> {
    let at = bus_address(out)?;
    lower_at(plan, src_addr, dst_addr, out, at)
}

/// [`lower`] for a chain the engine reads at bus address `chain_addr` (where the TCDs are
/// copied to, or `out`'s address as the engine sees it).
///
/// # Errors
///
/// - [`DmaError::ItemsizeMismatch`] if the plan's two element sizes differ;
/// - [`DmaError::Address`] if a byte of either buffer, or a TCD of the chain, leaves
///   `0..2^32`;
/// - [`DmaError::ChainTooLong`] if `out` holds fewer TCDs than the chain needs (`out` is
///   then untouched);
/// - [`DmaError::ChainAlignment`] if `chain_addr` is not a multiple of 32.
///
/// # Examples
///
/// ```
/// use strided_layout::dma::{DmaError, edma};
/// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
/// // A 3-D permutation whose loops cannot all fit one TCD: one TCD per outer index.
/// let src = Layout::dense([4, 8, 16], 4, Order::C)?;
/// let dst = Layout::dense([16, 8, 4], 4, Order::C)?.permuted([2, 1, 0])?;
/// let plan = CopyPlan::new(&src, &dst)?;
/// let mut tcds = [edma::Descriptor::ZERO; 8];
/// let n = edma::lower_at(&plan, 0x2000_0000, 0x2000_1000, &mut tcds, 0x2000_4000)
///     .map_err(|_| LayoutError::DestinationNotUnique)?;
/// assert_eq!(n, 4);
/// assert_eq!(tcds[0].dlast_sga, 0x2000_4020); // the next TCD
/// assert_eq!(
///     edma::lower_at(&plan, 0x2000_0000, 0x2000_1000, &mut tcds, 0x2000_4010),
///     Err(DmaError::ChainAlignment { align: 32 })
/// );
/// # Ok::<(), LayoutError>(())
/// ```
pub const fn lower_at<const M: usize, const L: usize>(
    plan: &CopyPlan<M, L>,
    src_addr: u32,
    dst_addr: u32,
    out: &mut [Descriptor],
    chain_addr: u32,
) -> Result<usize, DmaError> {
    lower_linked!(
        Kind::Edma,
        plan,
        src_addr,
        dst_addr,
        out,
        chain_addr,
        32,
        false,
        descriptor
    )
}

/// Adds the buffers' and the chain's bus addresses to a chain lowered at address 0 (by
/// [`lower_at`]`(plan, 0, 0, out, 0)`, typically in a `const` item): `SADDR`, `DADDR`, and the
/// `DLAST_SGA` of every TCD that links to the next. The TCDs' beats were chosen for buffers
/// aligned to them, so both addresses must be.
///
/// # Errors
///
/// Nothing is changed on error:
/// - [`DmaError::Address`] if a byte of either buffer (the plan's span from its address), or
///   a TCD, leaves `0..2^32`;
/// - [`DmaError::ChainAlignment`] if `chain_addr` is not a multiple of 32;
/// - [`DmaError::Unaligned`] if `src_addr` or `dst_addr` is not a multiple of a TCD's beat.
///
/// # Examples
///
/// ```
/// use strided_layout::dma::{DmaError, const_unwrap, edma};
/// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
/// // Planned and lowered by the compiler: every other `f32` of 64 into 32.
/// const SRC: Layout<1> = strided_layout::const_unwrap(Layout::new([32], [2], 4));
/// const DST: Layout<1> = strided_layout::const_unwrap(Layout::dense([32], 4, Order::C));
/// const PLAN: CopyPlan = strided_layout::const_unwrap(CopyPlan::new(&SRC, &DST));
/// const CHAIN: ([edma::Descriptor; 1], usize) = {
///     let mut out = [edma::Descriptor::ZERO; 1];
///     let n = const_unwrap(edma::lower_at(&PLAN, 0, 0, &mut out, 0));
///     (out, n)
/// };
/// // At run time: the buffers' addresses, a few instructions a TCD.
/// let mut tcds = CHAIN.0;
/// edma::rebase(&PLAN, &mut tcds[..CHAIN.1], 0x2020_0000, 0x2020_4000, 0x2000_0000)
///     .map_err(|_| LayoutError::DestinationNotUnique)?;
/// assert_eq!((tcds[0].saddr, tcds[0].daddr, tcds[0].soff), (0x2020_0000, 0x2020_4000, 8));
/// assert_eq!(
///     edma::rebase(&PLAN, &mut tcds[..1], 0x2020_0002, 0x2020_4000, 0x2000_0000),
///     Err(DmaError::Unaligned { align: 4 })
/// );
/// # Ok::<(), LayoutError>(())
/// ```
pub const fn rebase<const M: usize, const L: usize>(
    plan: &CopyPlan<M, L>,
    chain: &mut [Descriptor],
    src_addr: u32,
    dst_addr: u32,
    chain_addr: u32,
) -> Result<(), DmaError> {
    tri!(bus_span(plan, src_addr, dst_addr));
    tri!(place(chain_addr, chain.len(), 32, false));
    let mut rest: &[Descriptor] = chain;
    while let [t, tail @ ..] = rest {
        // `DSIZE` (bits 2:0) is 0 to 3 in a lowered TCD: beats of 1 to 8 bytes.
        let align = match 1u32.checked_shl((t.attr & 7) as u32) {
            Some(a) => a,
            None => 1,
        };
        tri!(aligned(src_addr, dst_addr, align));
        rest = tail;
    }
    let mut k = 0;
    while let Some(mut t) = get(chain, k) {
        // Inside the bus: `bus_span` and `place` checked the sums' largest values.
        t.saddr = t.saddr.saturating_add(src_addr);
        t.daddr = t.daddr.saturating_add(dst_addr);
        if t.csr & CSR_ESG != 0 {
            t.dlast_sga = t.dlast_sga.saturating_add(chain_addr);
        }
        set(chain, k, t);
        k = k.saturating_add(1);
    }
    Ok(())
}
