//! Raspberry Pi RP2350 DMA: a copy as a list of control blocks that a second channel feeds to the
//! data channel.
//!
//! A channel moves `TRANS_COUNT` transfers of 1, 2 or 4 bytes (`CTRL.DATA_SIZE`), each address
//! stepping forwards or backwards by the transfer size (`INCR_*` with `INCR_*_REV`), forwards by twice the transfer size (`INCR_*_REV` alone), or not at all. So one control block runs one loop of the copy: a run whose steps in
//! both operands are among those.
//!
//! **Descriptors:** for each nest of the plan, the product of the extents of the loops other
//! than the one the block runs (chosen to leave the fewest), plus the null block that ends the
//! list (transfers of the widest of 1, 2 and 4 bytes that divides the element size and both
//! addresses; a wider element is a run of transfers).
//!
//! **Start-up:** `out` is a list of 16-byte control blocks (`READ_ADDR`, `WRITE_ADDR`,
//! `TRANS_COUNT`, `CTRL_TRIG`, the order of the channel's first register alias). A control
//! channel, the one each block's `CHAIN_TO` names ([`CONTROL_CHANNEL`] for [`lower`], any for
//! [`lower_chained`]), copies one block at a time into the data channel's four registers (a
//! write ring of 16 bytes, reading `out` forwards, 4 transfers each time it is triggered); the
//! write of `CTRL_TRIG` starts the data channel, whose completion triggers the control
//! channel again. The last block is all zeros: writing 0 to `CTRL_TRIG` is a null trigger,
//! which does not start the channel and raises its interrupt (the blocks set `IRQ_QUIET`, so
//! that is the only one). The blocks request permanently (`TREQ_SEL` = `0x3F`).
//!
//! # Examples
//!
//! ```
//! use strided_layout::dma::rp2350::{self, Descriptor};
//! use strided_layout::{CopyPlan, Layout, LayoutError, Order};
//! // The right channel of 1,024 stereo `i16` frames, reversed, into a mono buffer: the
//! // RP2350 reads every other sample backwards... no: it steps by twice the size forwards
//! // only; reversed, the destination steps backwards instead. One block, and the null block.
//! let right = Layout::dense([1024, 2], 2, Order::C)?.selected(1, 1)?;
//! let mono = Layout::dense([1024], 2, Order::C)?.flipped(0)?;
//! let plan = CopyPlan::new(&right, &mono)?;
//! let mut blocks = [Descriptor::NULL; 4];
//! assert_eq!(rp2350::lower(&plan, 0x2000_0000, 0x2001_0000, &mut blocks), Ok(2));
//! assert_eq!((blocks[0].write_addr, blocks[0].trans_count), (0x2001_07FE, 1024));
//! # Ok::<(), LayoutError>(())
//! ```

use super::walk::{Chain, Kind, Levels, Step, i64_of};
use super::{DmaError, aligned, bus_span};
use crate::CopyPlan;
use crate::algo::access::{get, set};
use crate::algo::checked::tri;

/// A control block: the data channel's `READ_ADDR`, `WRITE_ADDR`, `TRANS_COUNT` and
/// `CTRL_TRIG`, in that order.
///
/// # Examples
///
/// ```
/// use strided_layout::dma::rp2350::Descriptor;
/// assert_eq!(size_of::<Descriptor>(), 16);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct Descriptor {
    /// `READ_ADDR`: the first transfer's source address.
    pub read_addr: u32,
    /// `WRITE_ADDR`: the first transfer's destination address.
    pub write_addr: u32,
    /// `TRANS_COUNT`: the number of transfers.
    pub trans_count: u32,
    /// `CTRL_TRIG`: `EN` 0, `HIGH_PRIORITY` 1, `DATA_SIZE` 3:2, `INCR_READ` 4, `INCR_READ_REV` 5, `INCR_WRITE` 6, `INCR_WRITE_REV` 7, `RING_SIZE` 11:8, `RING_SEL` 12, `CHAIN_TO` 16:13, `TREQ_SEL` 22:17, `IRQ_QUIET` 23, `BSWAP` 24, `SNIFF_EN` 25.
    pub ctrl_trig: u32,
}

impl Descriptor {
    /// The null block that ends a list (a null trigger).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::dma::rp2350::Descriptor;
    /// assert_eq!(Descriptor::NULL.ctrl_trig, 0);
    /// ```
    pub const NULL: Self = Self {
        read_addr: 0,
        write_addr: 0,
        trans_count: 0,
        ctrl_trig: 0,
    };
}

/// The control channel [`lower`]'s blocks chain to.
///
/// # Examples
///
/// ```
/// assert_eq!(strided_layout::dma::rp2350::CONTROL_CHANNEL, 1);
/// ```
pub const CONTROL_CHANNEL: u8 = 1;

/// The channels: `CHAIN_TO` names one of them.
const CHANNELS: u8 = 16;

/// The largest `TRANS_COUNT`: 2^28 − 1 (`TRANS_COUNT.MODE` 0, normal).
const MAX_COUNT: usize = (1 << 28) - 1;

/// `CTRL_TRIG` without its increment bits: enabled, the transfer size, the control channel,
/// a permanent request, quiet.
const fn ctrl(width: usize, control: u8) -> u32 {
    let size: u32 = match width {
        2 => 1,
        4 => 2,
        _ => 0,
    };
    1 | size << 2 | (control as u32) << 13 | 0x3F << 17 | 1 << 23
}

/// The increment bits of `CTRL_TRIG` for `levels`' one run, if the channel can step so.
pub(super) const fn increments(width: usize, levels: &Levels) -> Option<u32> {
    let [run, ..] = *levels;
    let Some(run) = run else { return Some(0) };
    if run.count > MAX_COUNT {
        return None;
    }
    let Some(w) = i64_of(width) else {
        return None;
    };
    match (step(w, run.src), step(w, run.dst)) {
        (Some(s), Some(d)) => Some(s << 4 | d << 6),
        _ => None,
    }
}

/// `INCR` (bit 0) and `INCR_REV` (bit 1) for a step of `x` bytes with transfers of `w`:
/// `w` (1, 0), `-w` (1, 1), `2w` (0, 1), none (0, 0).
const fn step(w: i64, x: i64) -> Option<u32> {
    if x == w {
        Some(0b01)
    } else if x == w.saturating_neg() {
        Some(0b11)
    } else if x == w.saturating_mul(2) {
        Some(0b10)
    } else if x == 0 {
        Some(0b00)
    } else {
        None
    }
}

/// The block running `step`, chained to `control`.
const fn descriptor(step: &Step, control: u8) -> Descriptor {
    let [run, ..] = step.levels;
    // `Chain` only hands out runs `increments` accepted, whose counts fit `TRANS_COUNT`.
    #[expect(clippy::cast_possible_truncation, reason = "checked against MAX_COUNT")]
    let count = match run {
        Some(r) => r.count as u32,
        None => 1,
    };
    let incr = match increments(step.width, &step.levels) {
        Some(i) => i,
        None => 0,
    };
    Descriptor {
        read_addr: step.src,
        write_addr: step.dst,
        trans_count: count,
        ctrl_trig: ctrl(step.width, control) | incr,
    }
}

/// Writes the control blocks of `plan` into `out`, copying from bus address `src_addr` to
/// `dst_addr` (each the address of its layout's offset 0), chained to [`CONTROL_CHANNEL`],
/// and returns how many it wrote, the null block included.
///
/// # Errors
///
/// As [`lower_chained`].
///
/// # Examples
///
/// ```
/// use strided_layout::dma::rp2350;
/// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
/// // 4 rows of 8 `u8` taken from a 4 × 32 image: a block per row, and the null block.
/// let src = Layout::new([4, 8], [32, 1], 1)?;
/// let plan = CopyPlan::new(&src, &Layout::dense([4, 8], 1, Order::C)?)?;
/// let mut blocks = [rp2350::Descriptor::NULL; 5];
/// assert_eq!(rp2350::lower(&plan, 0x2000_0000, 0x2000_1000, &mut blocks), Ok(5));
/// assert_eq!((blocks[1].read_addr, blocks[1].write_addr), (0x2000_0020, 0x2000_1008));
/// # Ok::<(), LayoutError>(())
/// ```
pub const fn lower(
    plan: &CopyPlan,
    src_addr: u32,
    dst_addr: u32,
    out: &mut [Descriptor],
) -> Result<usize, DmaError> {
    lower_chained(plan, src_addr, dst_addr, out, CONTROL_CHANNEL)
}

/// [`lower`] with the blocks chained to control channel `control`.
///
/// # Errors
///
/// - [`DmaError::ItemsizeMismatch`] if the plan's two element sizes differ;
/// - [`DmaError::Address`] if a byte of either buffer leaves `0..2^32`;
/// - [`DmaError::Channel`] if `control` is not one of the 16 channels;
/// - [`DmaError::ChainTooLong`] if `out` holds fewer blocks than the list needs (`out` is
///   then untouched).
///
/// # Examples
///
/// ```
/// use strided_layout::dma::{DmaError, rp2350};
/// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
/// let l = Layout::dense([64], 4, Order::C)?;
/// let plan = CopyPlan::new(&l, &l)?;
/// let mut blocks = [rp2350::Descriptor::NULL; 2];
/// assert_eq!(rp2350::lower_chained(&plan, 0x2000_0000, 0x2000_1000, &mut blocks, 5), Ok(2));
/// assert_eq!(blocks[0].ctrl_trig >> 13 & 0xF, 5);
/// assert_eq!(
///     rp2350::lower_chained(&plan, 0x2000_0000, 0x2000_1000, &mut blocks, 16),
///     Err(DmaError::Channel { channels: 16 })
/// );
/// # Ok::<(), LayoutError>(())
/// ```
pub const fn lower_chained(
    plan: &CopyPlan,
    src_addr: u32,
    dst_addr: u32,
    out: &mut [Descriptor],
    control: u8,
) -> Result<usize, DmaError> {
    if control >= CHANNELS {
        return Err(DmaError::Channel { channels: CHANNELS });
    }
    let mut chain = tri!(Chain::new(plan, Kind::Rp2350, src_addr, dst_addr));
    let needed = tri!(chain.needed());
    if needed > out.len() {
        return Err(DmaError::ChainTooLong { needed });
    }
    let mut k = 0usize;
    while let Some(step) = tri!(chain.next()) {
        set(out, k, descriptor(&step, control));
        k = k.saturating_add(1);
    }
    set(out, k, Descriptor::NULL);
    Ok(k.saturating_add(1))
}

/// Adds the buffers' addresses to blocks lowered at address 0 (by [`lower`]`(plan, 0, 0,
/// out)`, typically in a `const` item): `READ_ADDR` and `WRITE_ADDR` of every block but the
/// null one. The blocks' transfer sizes were chosen for buffers aligned to them, so both
/// addresses must be.
///
/// # Errors
///
/// Nothing is changed on error:
/// - [`DmaError::Address`] if a byte of either buffer (the plan's span from its address)
///   leaves `0..2^32`;
/// - [`DmaError::Unaligned`] if `src_addr` or `dst_addr` is not a multiple of a block's
///   transfer size.
///
/// # Examples
///
/// ```
/// use strided_layout::dma::{const_unwrap, rp2350};
/// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
/// // 4 rows of 8 `u16` from a 4 × 32 image, lowered by the compiler.
/// const SRC: Layout<2> = strided_layout::const_unwrap(Layout::new([4, 8], [32, 1], 2));
/// const DST: Layout<2> = strided_layout::const_unwrap(Layout::dense([4, 8], 2, Order::C));
/// const PLAN: CopyPlan = strided_layout::const_unwrap(CopyPlan::new(&SRC, &DST));
/// const BLOCKS: [rp2350::Descriptor; 5] = {
///     let mut out = [rp2350::Descriptor::NULL; 5];
///     let _ = const_unwrap(rp2350::lower(&PLAN, 0, 0, &mut out));
///     out
/// };
/// let mut blocks = BLOCKS;
/// rp2350::rebase(&PLAN, &mut blocks, 0x2000_0000, 0x2000_1000)
///     .map_err(|_| LayoutError::DestinationNotUnique)?;
/// assert_eq!((blocks[1].read_addr, blocks[1].write_addr, blocks[4]), (0x2000_0040, 0x2000_1010, rp2350::Descriptor::NULL));
/// # Ok::<(), LayoutError>(())
/// ```
pub const fn rebase(
    plan: &CopyPlan,
    chain: &mut [Descriptor],
    src_addr: u32,
    dst_addr: u32,
) -> Result<(), DmaError> {
    tri!(bus_span(plan, src_addr, dst_addr));
    let mut rest: &[Descriptor] = chain;
    while let [b, tail @ ..] = rest {
        // `DATA_SIZE` (bits 3:2) is 0 to 2 in a lowered block: transfers of 1 to 4 bytes.
        let align = match 1u32.checked_shl((b.ctrl_trig >> 2) & 3) {
            Some(a) => a,
            None => 1,
        };
        if b.ctrl_trig != 0 {
            tri!(aligned(src_addr, dst_addr, align));
        }
        rest = tail;
    }
    let mut k = 0;
    while let Some(mut b) = get(chain, k) {
        if b.ctrl_trig != 0 {
            // Inside the bus: `bus_span` checked the sums' largest values.
            b.read_addr = b.read_addr.saturating_add(src_addr);
            b.write_addr = b.write_addr.saturating_add(dst_addr);
            set(chain, k, b);
        }
        k = k.saturating_add(1);
    }
    Ok(())
}
