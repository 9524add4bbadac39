//! STM32 GPDMA with 2-D addressing (STM32U5 channels 12-15, STM32H5 channels 6-7): a copy as a
//! linked list of items, each a full image of the channel's eight registers.
//!
//! A 2-D channel moves `BRC + 1` blocks of `BNDT` bytes (at most 65,535) in beats of 1, 2 or 4
//! bytes, each side in bursts of its own length (`SBL_1` / `DBL_1`, 1 to 64 beats) with an
//! address offset after each burst (`CxTR3.SAO` / `DAO`, 13 bits, subtracted when
//! `CxBR1.SDEC` / `DDEC`) and another after each block (`CxBR2.BRSAO` / `BRDAO`, 16 bits,
//! `BRSDEC` / `BRDDEC`). So one item runs three loops of the copy: beats within a burst (steps
//! of one beat, or none), bursts within a block, and blocks, each side either in runs of
//! consecutive beats with a gap after each (the burst offset) or as one progression of any
//! step (bursts of one beat, the offset after each).
//!
//! **Descriptors:** for each nest of the plan, the product of the extents of the loops the
//! three counters do not take, minimised over every choice of them (a contiguous run longer
//! than `BNDT` allows cut into blocks first).
//!
//! **Start-up:** `out[0]` is written to a 2-D channel's registers (`CxTR1` .. `CxLLR`, the
//! order of the item's words), `CxLBAR` holding the upper 16 bits of the chain's address (all
//! items lie in one 64 KiB page), then `CxCR.EN` is set. Each item requests by software
//! (`CxTR2.SWREQ`); each but the last updates all eight registers from the next item
//! (`CxLLR`'s update bits, `LA` = the next item's address); the last has `CxLLR = 0`. Source
//! and destination use port 0, and `CxTR2` requests no trigger or event (`TCEM` 0: set it
//! with `CxCR.TCIE` for an interrupt).
//!
//! # Examples
//!
//! ```
//! use strided_layout::dma::gpdma::{self, Descriptor};
//! use strided_layout::{CopyPlan, Layout, LayoutError, Order};
//! // A 32 × 24 `u16` crop of a 640-pixel-wide frame into a dense buffer: one item, one block
//! // of 24 bursts of 32 beats, a source gap of 1,216 bytes after each burst.
//! let crop = Layout::new([24, 32], [640, 1], 2)?;
//! let plan = CopyPlan::new(&crop, &Layout::dense([24, 32], 2, Order::C)?)?;
//! let mut items = [Descriptor::ZERO; 2];
//! let n = gpdma::lower_at(&plan, 0x2000_0000, 0x2004_0000, &mut items, 0x2003_0000)
//!     .map_err(|_| LayoutError::DestinationNotUnique)?;
//! assert_eq!(n, 1);
//! assert_eq!((items[0].br1 & 0xFFFF, items[0].tr3 & 0x1FFF, items[0].llr), (1536, 1216, 0));
//! # Ok::<(), LayoutError>(())
//! ```

use super::lower_linked;
use super::walk::{Kind, Levels, Run, Step, i64_of};
use super::{DmaError, aligned, bus_address, bus_span, place};
use crate::CopyPlan;
use crate::algo::access::{get, set};
use crate::algo::checked::tri;

/// A linked-list item: the channel's eight registers in their map's order (32 bytes, 4-byte
/// aligned).
///
/// # Examples
///
/// ```
/// use strided_layout::dma::gpdma::Descriptor;
/// assert_eq!((size_of::<Descriptor>(), align_of::<Descriptor>()), (32, 4));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct Descriptor {
    /// `CxTR1`: `SDW_LOG2` 1:0, `SINC` 3, `SBL_1` 9:4, `PAM` 12:11, `DDW_LOG2` 17:16, `DINC`
    /// 19, `DBL_1` 25:20, ...
    pub tr1: u32,
    /// `CxTR2`: `REQSEL`, `SWREQ` 9, `DREQ` 10, `BREQ` 11, `TRIGM` 15:14, `TRIGSEL`, `TRIGPOL`
    /// 25:24, `TCEM` 31:30.
    pub tr2: u32,
    /// `CxBR1`: `BNDT` 15:0, `BRC` 26:16, `SDEC` 28, `DDEC` 29, `BRSDEC` 30, `BRDDEC` 31.
    pub br1: u32,
    /// `CxSAR`: the source address.
    pub sar: u32,
    /// `CxDAR`: the destination address.
    pub dar: u32,
    /// `CxTR3`: `SAO` 12:0, `DAO` 28:16.
    pub tr3: u32,
    /// `CxBR2`: `BRSAO` 15:0, `BRDAO` 31:16.
    pub br2: u32,
    /// `CxLLR`: `UT1` 31, `UT2` 30, `UB1` 29, `USA` 28, `UDA` 27, `UT3` 26, `UB2` 25, `ULL` 16,
    /// `LA` 15:2.
    pub llr: u32,
}

impl Descriptor {
    /// An item of zeros.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::dma::gpdma::Descriptor;
    /// assert_eq!(Descriptor::ZERO.llr, 0);
    /// ```
    pub const ZERO: Self = Self {
        tr1: 0,
        tr2: 0,
        br1: 0,
        sar: 0,
        dar: 0,
        tr3: 0,
        br2: 0,
        llr: 0,
    };
}

/// `CxTR2.SWREQ`: requested by software (memory to memory).
///
/// # Examples
///
/// ```
/// assert_eq!(strided_layout::dma::gpdma::TR2_SWREQ, 1 << 9);
/// ```
pub const TR2_SWREQ: u32 = 1 << 9;

/// `CxLLR`'s update bits, all eight registers (`UT1`, `UT2`, `UB1`, `USA`, `UDA`, `UT3`,
/// `UB2`, `ULL`).
///
/// # Examples
///
/// ```
/// assert_eq!(strided_layout::dma::gpdma::LLR_UPDATE_ALL, 0xFE01_0000);
/// ```
pub const LLR_UPDATE_ALL: u32 = 0xFE01_0000;

/// The largest block, in bytes (`BNDT`, 16 bits).
const MAX_BNDT: usize = 0xFFFF;
/// The most blocks (`BRC + 1`, `BRC` 11 bits).
const MAX_BLOCKS: usize = 0x800;
/// The most beats in a burst (`SBL_1 + 1`, 6 bits).
const MAX_BURST: usize = 64;
/// The largest burst offset (`SAO` / `DAO`, 13 bits).
const MAX_BURST_OFFSET: u64 = 0x1FFF;
/// The largest block offset (`BRSAO` / `BRDAO`, 16 bits).
const MAX_BLOCK_OFFSET: u64 = 0xFFFF;

/// One side's part of an item: increment, burst length, burst and block offsets (signed).
#[derive(Clone, Copy)]
struct Side {
    incr: bool,
    burst: usize,
    burst_offset: i64,
    block_offset: i64,
}

/// One side of a block of `beats × bursts` beats of `w` bytes, stepping `step` within a burst
/// and `gap` from burst to burst (`bursts == 1`: none), blocks `block` apart (`blocks == 1`:
/// none), if the channel can address it.
const fn side(
    w: i64,
    beats: usize,
    step: i64,
    bursts: usize,
    gap: i64,
    block: i64,
    blocks: usize,
) -> Option<Side> {
    let (Some(beats64), Some(bursts64)) = (i64_of(beats), i64_of(bursts)) else {
        return None;
    };
    let Some(run) = beats64.checked_mul(step) else {
        return None;
    };
    // With one burst a block, the bursts' step is free: the run's own progress.
    let gap = if bursts == 1 { run } else { gap };
    // Runs: `beats` beats one beat apart (or at one address), the gap after each.
    let runs = if beats > 1 && beats <= MAX_BURST && (step == w || step == 0) {
        match gap.checked_sub(run) {
            Some(off) if off.unsigned_abs() <= MAX_BURST_OFFSET => Some(Side {
                incr: step == w,
                burst: beats,
                burst_offset: off,
                block_offset: 0,
            }),
            _ => None,
        }
    } else {
        None
    };
    // Or one progression of step `each`: bursts of one beat, the offset after each.
    let progression = if beats == 1 || gap == run {
        let each = if beats == 1 { gap } else { step };
        let past = each.saturating_sub(w);
        if each >= w && past.unsigned_abs() <= MAX_BURST_OFFSET {
            Some(Side {
                incr: true,
                burst: 1,
                burst_offset: past,
                block_offset: 0,
            })
        } else if each.unsigned_abs() <= MAX_BURST_OFFSET {
            Some(Side {
                incr: false,
                burst: 1,
                burst_offset: each,
                block_offset: 0,
            })
        } else {
            None
        }
    } else {
        None
    };
    let ((Some(mut found), _) | (None, Some(mut found))) = (runs, progression) else {
        return None;
    };
    // A block moves the address `bursts` bursts' steps (the last burst's offset included); the
    // block offset takes it to the next block's start.
    if blocks > 1 {
        let Some(moved) = bursts64.checked_mul(gap) else {
            return None;
        };
        match block.checked_sub(moved) {
            Some(off) if off.unsigned_abs() <= MAX_BLOCK_OFFSET => found.block_offset = off,
            _ => return None,
        }
    }
    Some(found)
}

/// The registers one item's three loops give, with beats of `width` bytes: `CxTR1` (without
/// the widths), `CxBR1`, `CxTR3`, `CxBR2`.
pub(super) struct Fields {
    tr1: u32,
    br1: u32,
    tr3: u32,
    br2: u32,
}

/// The fields for `levels` (beats in a burst, bursts in a block, blocks), if one item can run
/// them.
pub(super) const fn fields(width: usize, levels: &Levels) -> Option<Fields> {
    let [beats, bursts, blocks] = *levels;
    let (a, b, c) = (
        match beats {
            Some(r) => r,
            None => Run::ONE,
        },
        match bursts {
            Some(r) => r,
            None => Run::ONE,
        },
        match blocks {
            Some(r) => r,
            None => Run::ONE,
        },
    );
    let Some(bndt) = a.count.checked_mul(b.count) else {
        return None;
    };
    let Some(bndt) = bndt.checked_mul(width) else {
        return None;
    };
    if bndt > MAX_BNDT || c.count > MAX_BLOCKS || c.count == 0 {
        return None;
    }
    let Some(w) = i64_of(width) else {
        return None;
    };
    let (Some(src), Some(dst)) = (
        side(w, a.count, a.src, b.count, b.src, c.src, c.count),
        side(w, a.count, a.dst, b.count, b.dst, c.dst, c.count),
    ) else {
        return None;
    };
    let code = match width {
        2 => 1,
        4 => 2,
        _ => 0,
    };
    // Burst lengths 1..=64 (checked in `side`), offsets inside their fields.
    #[expect(
        clippy::cast_possible_truncation,
        reason = "every value checked against its field's width above"
    )]
    {
        let tr1 = code
            | (src.incr as u32) << 3
            | ((src.burst as u32).saturating_sub(1)) << 4
            | code << 16
            | (dst.incr as u32) << 19
            | ((dst.burst as u32).saturating_sub(1)) << 20;
        let br1 = bndt as u32
            | ((c.count as u32).saturating_sub(1)) << 16
            | ((src.burst_offset < 0) as u32) << 28
            | ((dst.burst_offset < 0) as u32) << 29
            | ((src.block_offset < 0) as u32) << 30
            | ((dst.block_offset < 0) as u32) << 31;
        let tr3 =
            src.burst_offset.unsigned_abs() as u32 | (dst.burst_offset.unsigned_abs() as u32) << 16;
        let br2 =
            src.block_offset.unsigned_abs() as u32 | (dst.block_offset.unsigned_abs() as u32) << 16;
        Some(Fields { tr1, br1, tr3, br2 })
    }
}

/// The item running `step`; `next` is the next item's bus address, `None` for the last.
const fn descriptor(step: &Step, next: Option<u32>) -> Descriptor {
    // `Chain` only hands out levels that `fields` accepted; a beat an item otherwise.
    let f = match fields(step.width, &step.levels) {
        Some(f) => f,
        None => Fields {
            tr1: 0,
            br1: 1,
            tr3: 0,
            br2: 0,
        },
    };
    Descriptor {
        tr1: f.tr1,
        tr2: TR2_SWREQ,
        br1: f.br1,
        sar: step.src,
        dar: step.dst,
        tr3: f.tr3,
        br2: f.br2,
        llr: match next {
            Some(a) => LLR_UPDATE_ALL | (a & 0xFFFC),
            None => 0,
        },
    }
}

/// Writes the linked-list items of `plan` into `out`, copying from bus address `src_addr` to
/// `dst_addr` (each the address of its layout's offset 0), and returns how many it wrote.
/// The items link to each other at `out`'s own address; see [`lower_at`] for items the
/// engine reads elsewhere.
///
/// # Errors
///
/// As [`lower_at`], and [`DmaError::Address`] if `out` does not lie below 4 GiB.
///
/// # Examples
///
/// ```
/// use strided_layout::dma::{DmaError, gpdma};
/// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
/// let l = Layout::dense([16, 16], 4, Order::C)?;
/// let plan = CopyPlan::new(&l, &l)?;
/// let mut items = [gpdma::Descriptor::ZERO; 1];
/// match gpdma::lower(&plan, 0x2000_0000, 0x2000_1000, &mut items) {
///     Ok(n) => assert_eq!(n, 1),                 // a 32-bit target
///     Err(e) => assert_eq!(e, DmaError::Address), // a host: `items` lies above 4 GiB
/// }
/// # Ok::<(), LayoutError>(())
/// ```
pub fn lower<const M: usize, const L: usize>(
    plan: &CopyPlan<M, L>,
    src_addr: u32,
    dst_addr: u32,
    out: &mut [Descriptor],
) -> Result<usize, DmaError> {
    let at = tri!(bus_address(out));
    lower_at(plan, src_addr, dst_addr, out, at)
}

/// [`lower`] for items the engine reads at bus address `chain_addr`.
///
/// # Errors
///
/// - [`DmaError::ItemsizeMismatch`] if the plan's two element sizes differ;
/// - [`DmaError::Address`] if a byte of either buffer, or an item, leaves `0..2^32`;
/// - [`DmaError::ChainTooLong`] if `out` holds fewer items than the list needs (`out` is
///   then untouched);
/// - [`DmaError::ChainAlignment`] if `chain_addr` is not a multiple of 4;
/// - [`DmaError::ChainPage`] if the items cross a 64 KiB boundary (`LA` holds 16 bits).
///
/// # Examples
///
/// ```
/// use strided_layout::dma::gpdma;
/// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
/// // 5 planes 80,000 bytes apart: past the 16-bit block offset, so an item per plane (each
/// // plane's rows as bursts with a source gap after each, in one block).
/// let src = Layout::new([5, 12, 16], [40_000, 64, 1], 2)?;
/// let plan = CopyPlan::new(&src, &Layout::dense([5, 12, 16], 2, Order::C)?)?;
/// let mut items = [gpdma::Descriptor::ZERO; 8];
/// assert_eq!(gpdma::lower_at(&plan, 0x2000_0000, 0x2010_0000, &mut items, 0x2003_0000), Ok(5));
/// assert_eq!(items[0].llr, gpdma::LLR_UPDATE_ALL | 0x0020); // the next item
/// assert_eq!(items[4].llr, 0); // the last
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
        Kind::Gpdma,
        plan,
        src_addr,
        dst_addr,
        out,
        chain_addr,
        4,
        true,
        descriptor
    )
}

/// Adds the buffers' and the list's bus addresses to items lowered at address 0 (by
/// [`lower_at`]`(plan, 0, 0, out, 0)`, typically in a `const` item): `CxSAR`, `CxDAR`, and the
/// `LA` of every item that links to the next. The items' beats were chosen for buffers aligned
/// to them, so both addresses must be.
///
/// # Errors
///
/// Nothing is changed on error:
/// - [`DmaError::Address`] if a byte of either buffer (the plan's span from its address), or
///   an item, leaves `0..2^32`;
/// - [`DmaError::ChainAlignment`] if `chain_addr` is not a multiple of 4;
/// - [`DmaError::ChainPage`] if the items cross a 64 KiB boundary from `chain_addr`;
/// - [`DmaError::Unaligned`] if `src_addr` or `dst_addr` is not a multiple of an item's beat.
///
/// # Examples
///
/// ```
/// use strided_layout::dma::{const_unwrap, gpdma};
/// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
/// const SRC: Layout<2> = strided_layout::const_unwrap(Layout::new([24, 32], [640, 1], 2));
/// const DST: Layout<2> = strided_layout::const_unwrap(Layout::dense([24, 32], 2, Order::C));
/// const PLAN: CopyPlan = strided_layout::const_unwrap(CopyPlan::new(&SRC, &DST));
/// const ITEMS: [gpdma::Descriptor; 1] = {
///     let mut out = [gpdma::Descriptor::ZERO; 1];
///     let _ = const_unwrap(gpdma::lower_at(&PLAN, 0, 0, &mut out, 0));
///     out
/// };
/// let mut items = ITEMS;
/// gpdma::rebase(&PLAN, &mut items, 0x2000_0000, 0x2004_0000, 0x2003_0000)
///     .map_err(|_| LayoutError::DestinationNotUnique)?;
/// assert_eq!((items[0].sar, items[0].dar), (0x2000_0000, 0x2004_0000));
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
    tri!(place(chain_addr, chain.len(), 4, true));
    let mut rest: &[Descriptor] = chain;
    while let [item, tail @ ..] = rest {
        // `SDW_LOG2` (bits 1:0) is 0 to 2 in a lowered item: beats of 1 to 4 bytes.
        let align = match 1u32.checked_shl(item.tr1 & 3) {
            Some(a) => a,
            None => 1,
        };
        tri!(aligned(src_addr, dst_addr, align));
        rest = tail;
    }
    let page_offset = chain_addr & 0xFFFF;
    let mut k = 0;
    while let Some(mut item) = get(chain, k) {
        // Inside the bus and the page: `bus_span` and `place` checked the largest sums.
        item.sar = item.sar.saturating_add(src_addr);
        item.dar = item.dar.saturating_add(dst_addr);
        if item.llr != 0 {
            let la = (item.llr & 0xFFFC).saturating_add(page_offset) & 0xFFFC;
            item.llr = (item.llr & !0xFFFC) | la;
        }
        set(chain, k, item);
        k = k.saturating_add(1);
    }
    Ok(())
}
