//! TI EDMA3 (KeyStone, Sitara AM335x, OMAP-L1x, DaVinci): a copy as a chain of PaRAM sets
//! linked by `LINK`.
//!
//! A PaRAM set moves `CCNT` frames of `BCNT` arrays of `ACNT` contiguous bytes: array starts
//! `BIDX` bytes apart within a frame and, AB-synchronised (one sync event a frame), frame starts
//! `CIDX` bytes apart, each index signed 16 bits and separate for source and destination, each
//! count at most 65,535. So one set runs three loops of the copy: a contiguous run of bytes in
//! `ACNT` (an element, or a run of elements contiguous in both operands), and any two loops
//! whose steps fit 16 bits in `BCNT` and `CCNT`.
//!
//! **Descriptors:** for each nest of the plan, the product of the extents of the loops the
//! three counters do not take, minimised over every choice of them (a contiguous run longer
//! than 32,767 bytes cut into arrays of a divisor's length first). A transpose of a matrix
//! whose rows are shorter than 32 KiB is one set, in whichever order its strides fit.
//!
//! **Start-up:** `out[k]` sits in PaRAM set `first + k` (`out` is the PaRAM itself, or a copy
//! placed there), the channel's own set being `first`. Each set but the last links to the
//! next (`LINK` = the low 16 bits of its address: PaRAM lies in the channel controller's
//! 64 KiB-aligned space at offset `0x4000`, 32 bytes a set); the last has `LINK = 0xFFFF`, so
//! the channel's set becomes the null set when the copy is done. The sets are AB-synchronised
//! (`OPT.SYNCDIM = 1`), with `TCC` 0 and no completion interrupt or chaining (`OPT` bits
//! 12-23 clear: set `TCC` and `TCINTEN` in the last set for an interrupt); trigger the channel
//! (`ESR`, or chain it to itself) until its set is the null set.
//!
//! # Examples
//!
//! ```
//! use strided_layout::dma::edma3::{self, Descriptor};
//! use strided_layout::{CopyPlan, Layout, LayoutError, Order};
//! // A 3 × 64 × 64 CHW `u8` image into HWC: one set, 3 frames (the channels) of 4,096 arrays
//! // (the pixels) of 1 byte, 3 bytes apart in the destination.
//! let chw = Layout::dense([3, 64, 64], 1, Order::C)?;
//! let hwc = Layout::dense([64, 64, 3], 1, Order::C)?.permuted([2, 0, 1])?;
//! let plan = CopyPlan::new(&chw, &hwc)?;
//! let mut sets = [Descriptor::NULL; 4];
//! let n = edma3::lower_at(&plan, 0x8000_0000, 0x8010_0000, &mut sets, 0x0270_4000)
//!     .map_err(|_| LayoutError::DestinationNotUnique)?;
//! assert_eq!(n, 1);
//! let s = sets[0];
//! assert_eq!((s.acnt, s.bcnt, s.ccnt, s.src_bidx, s.dst_bidx, s.src_cidx, s.dst_cidx), (1, 4096, 3, 1, 3, 4096, 1));
//! assert_eq!(s.link, 0xFFFF);
//! # Ok::<(), LayoutError>(())
//! ```

use super::lower_linked;
use super::walk::{Kind, Levels, Run, Step, i16_of};
use super::{DmaError, bus_address, bus_span, place};
use crate::CopyPlan;
use crate::algo::access::{get, set};
use crate::algo::checked::tri;

/// A PaRAM set as the channel controller reads it (eight 32-bit words, the half-words of
/// each low half first); field names and order as in the reference guide.
///
/// # Examples
///
/// ```
/// use strided_layout::dma::edma3::Descriptor;
/// assert_eq!(size_of::<Descriptor>(), 32);
/// assert_eq!(Descriptor::NULL.link, 0xFFFF);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct Descriptor {
    /// `OPT` (word 0): `SAM` bit 0, `DAM` bit 1, `SYNCDIM` bit 2, `STATIC` bit 3, `FWID`
    /// 10:8, `TCCMODE` bit 11, `TCC` 17:12, `TCINTEN` 20, `ITCINTEN` 21, `TCCHEN` 22,
    /// `ITCCHEN` 23.
    pub opt: u32,
    /// `SRC` (word 1): the source address.
    pub src: u32,
    /// `ACNT` (word 2, bits 15:0): bytes in an array.
    pub acnt: u16,
    /// `BCNT` (word 2, bits 31:16): arrays in a frame.
    pub bcnt: u16,
    /// `DST` (word 3): the destination address.
    pub dst: u32,
    /// `SRCBIDX` (word 4, bits 15:0): bytes between source arrays.
    pub src_bidx: i16,
    /// `DSTBIDX` (word 4, bits 31:16): bytes between destination arrays.
    pub dst_bidx: i16,
    /// `LINK` (word 5, bits 15:0): the set loaded when this one is done (its address's low 16
    /// bits), `0xFFFF` for none.
    pub link: u16,
    /// `BCNTRLD` (word 5, bits 31:16): `BCNT` reloaded at each frame (A-synchronised).
    pub bcntrld: u16,
    /// `SRCCIDX` (word 6, bits 15:0): bytes between source frames.
    pub src_cidx: i16,
    /// `DSTCIDX` (word 6, bits 31:16): bytes between destination frames.
    pub dst_cidx: i16,
    /// `CCNT` (word 7, bits 15:0): frames in the block.
    pub ccnt: u16,
    /// Word 7, bits 31:16: reserved, 0.
    pub reserved: u16,
}

impl Descriptor {
    /// The null set: no counts, no link.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::dma::edma3::Descriptor;
    /// assert_eq!((Descriptor::NULL.acnt, Descriptor::NULL.ccnt), (0, 0));
    /// ```
    pub const NULL: Self = Self {
        opt: 0,
        src: 0,
        acnt: 0,
        bcnt: 0,
        dst: 0,
        src_bidx: 0,
        dst_bidx: 0,
        link: NULL_LINK,
        bcntrld: 0,
        src_cidx: 0,
        dst_cidx: 0,
        ccnt: 0,
        reserved: 0,
    };
}

/// `LINK` of the last set: none.
const NULL_LINK: u16 = 0xFFFF;

/// `OPT.SYNCDIM`: AB-synchronised, a frame per event.
///
/// # Examples
///
/// ```
/// assert_eq!(strided_layout::dma::edma3::OPT_SYNCDIM_AB, 1 << 2);
/// ```
pub const OPT_SYNCDIM_AB: u32 = 1 << 2;

/// The largest count.
const MAX_COUNT: usize = 0xFFFF;

/// One set's counts and indices.
pub(super) struct Fields {
    acnt: u16,
    bcnt: u16,
    ccnt: u16,
    bidx: (i16, i16),
    cidx: (i16, i16),
}

/// A count and its indices for a frame or block level, if they fit.
const fn level(r: Option<Run>) -> Option<(u16, (i16, i16))> {
    let Some(r) = r else {
        return Some((1, (0, 0)));
    };
    let (Some(s), Some(d)) = (i16_of(r.src), i16_of(r.dst)) else {
        return None;
    };
    match count(r.count) {
        Some(c) => Some((c, (s, d))),
        None => None,
    }
}

/// `n` as a 16-bit count, if it is one.
const fn count(n: usize) -> Option<u16> {
    if n >= 1 && n <= MAX_COUNT {
        #[expect(clippy::cast_possible_truncation, reason = "checked: at most 0xFFFF")]
        Some(n as u16)
    } else {
        None
    }
}

/// The counts and indices for `levels` (array, frame, block), if one set can run them.
pub(super) const fn fields(levels: &Levels) -> Option<Fields> {
    let [array, frame, block] = *levels;
    // The array: contiguous bytes in both operands (beats are bytes here).
    let acnt = match array {
        Some(r) if r.src == 1 && r.dst == 1 => match count(r.count) {
            Some(n) => n,
            None => return None,
        },
        Some(_) => return None,
        None => 1,
    };
    let (Some((bcnt, bidx)), Some((ccnt, cidx))) = (level(frame), level(block)) else {
        return None;
    };
    Some(Fields {
        acnt,
        bcnt,
        ccnt,
        bidx,
        cidx,
    })
}

/// The set running `step`; `next` is the next set's bus address, `None` for the last.
const fn descriptor(step: &Step, next: Option<u32>) -> Descriptor {
    // `Chain` only hands out levels that `fields` accepted; one byte a set otherwise.
    let f = match fields(&step.levels) {
        Some(f) => f,
        None => Fields {
            acnt: 1,
            bcnt: 1,
            ccnt: 1,
            bidx: (0, 0),
            cidx: (0, 0),
        },
    };
    // The low 16 bits: the set's offset in the channel controller's space.
    let link = match next {
        Some(a) => (a & 0xFFFF) as u16,
        None => NULL_LINK,
    };
    Descriptor {
        opt: OPT_SYNCDIM_AB,
        src: step.src,
        acnt: f.acnt,
        bcnt: f.bcnt,
        dst: step.dst,
        src_bidx: f.bidx.0,
        dst_bidx: f.bidx.1,
        link,
        bcntrld: f.bcnt,
        src_cidx: f.cidx.0,
        dst_cidx: f.cidx.1,
        ccnt: f.ccnt,
        reserved: 0,
    }
}

/// Writes the PaRAM sets of `plan` into `out`, copying from bus address `src_addr` to
/// `dst_addr` (each the address of its layout's offset 0), and returns how many it wrote.
/// The sets link to each other at `out`'s own address (`out` is the PaRAM); see [`lower_at`]
/// for sets written elsewhere first.
///
/// # Errors
///
/// As [`lower_at`], and [`DmaError::Address`] if `out` does not lie below 4 GiB.
///
/// # Examples
///
/// ```
/// use strided_layout::dma::{DmaError, edma3};
/// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
/// let l = Layout::dense([16, 16], 4, Order::C)?;
/// let plan = CopyPlan::new(&l, &l)?;
/// let mut sets = [edma3::Descriptor::NULL; 1];
/// match edma3::lower(&plan, 0x8000_0000, 0x8000_1000, &mut sets) {
///     Ok(n) => assert_eq!(n, 1),                 // a 32-bit target
///     Err(e) => assert_eq!(e, DmaError::Address), // a host: `sets` lies above 4 GiB
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

/// [`lower`] for sets that the engine reads at bus address `chain_addr` (the PaRAM address
/// of set `first`).
///
/// # Errors
///
/// - [`DmaError::ItemsizeMismatch`] if the plan's two element sizes differ;
/// - [`DmaError::Address`] if a byte of either buffer, or a set of the chain, leaves
///   `0..2^32`;
/// - [`DmaError::ChainTooLong`] if `out` holds fewer sets than the chain needs (`out` is
///   then untouched);
/// - [`DmaError::ChainAlignment`] if `chain_addr` is not a multiple of 32;
/// - [`DmaError::ChainPage`] if the chain crosses a 64 KiB boundary (`LINK` holds 16 bits).
///
/// # Examples
///
/// ```
/// use strided_layout::dma::{DmaError, edma3};
/// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
/// // Rows 40,000 bytes apart: past a 16-bit index, so one set per row.
/// let src = Layout::new([4, 100], [10_000, 1], 4)?;
/// let plan = CopyPlan::new(&src, &Layout::dense([4, 100], 4, Order::C)?)?;
/// let mut sets = [edma3::Descriptor::NULL; 4];
/// assert_eq!(edma3::lower_at(&plan, 0x8000_0000, 0x8100_0000, &mut sets, 0x0270_4000), Ok(4));
/// assert_eq!((sets[0].acnt, sets[0].link, sets[3].link), (400, 0x4020, 0xFFFF));
/// assert_eq!(
///     edma3::lower_at(&plan, 0x8000_0000, 0x8100_0000, &mut sets, 0x0270_FFC0),
///     Err(DmaError::ChainPage)
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
        Kind::Edma3,
        plan,
        src_addr,
        dst_addr,
        out,
        chain_addr,
        32,
        true,
        descriptor
    )
}

/// Adds the buffers' and the chain's addresses to sets lowered at address 0 (by
/// [`lower_at`]`(plan, 0, 0, out, 0)`, typically in a `const` item): `SRC`, `DST`, and the
/// `LINK` of every set that links to the next (`chain_addr`'s low 16 bits added).
///
/// # Errors
///
/// Nothing is changed on error:
/// - [`DmaError::Address`] if a byte of either buffer (the plan's span from its address), or
///   a set, leaves `0..2^32`;
/// - [`DmaError::ChainAlignment`] if `chain_addr` is not a multiple of 32;
/// - [`DmaError::ChainPage`] if the sets cross a 64 KiB boundary from `chain_addr`.
///
/// # Examples
///
/// ```
/// use strided_layout::dma::{const_unwrap, edma3};
/// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
/// // Rows 40,000 bytes apart: a set per row, linked.
/// const SRC: Layout<2> = strided_layout::const_unwrap(Layout::new([3, 100], [10_000, 1], 4));
/// const DST: Layout<2> = strided_layout::const_unwrap(Layout::dense([3, 100], 4, Order::C));
/// const PLAN: CopyPlan = strided_layout::const_unwrap(CopyPlan::new(&SRC, &DST));
/// const SETS: [edma3::Descriptor; 3] = {
///     let mut out = [edma3::Descriptor::NULL; 3];
///     let _ = const_unwrap(edma3::lower_at(&PLAN, 0, 0, &mut out, 0));
///     out
/// };
/// let mut sets = SETS;
/// edma3::rebase(&PLAN, &mut sets, 0x8000_0000, 0x8100_0000, 0x0270_4040)
///     .map_err(|_| LayoutError::DestinationNotUnique)?;
/// assert_eq!((sets[1].src, sets[0].link, sets[1].link, sets[2].link), (0x8000_9C40, 0x4060, 0x4080, 0xFFFF));
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
    tri!(place(chain_addr, chain.len(), 32, true));
    // The low 16 bits of the chain's address: links stay inside its page (checked above).
    let page_offset = (chain_addr & 0xFFFF) as u16;
    let mut k = 0;
    while let Some(mut p) = get(chain, k) {
        // Inside the bus: `bus_span` checked the sums' largest values.
        p.src = p.src.saturating_add(src_addr);
        p.dst = p.dst.saturating_add(dst_addr);
        if p.link != NULL_LINK {
            p.link = p.link.wrapping_add(page_offset);
        }
        set(chain, k, p);
        k = k.saturating_add(1);
    }
    Ok(())
}
