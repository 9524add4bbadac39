//! Raspberry Pi RP2040 DMA: a copy as a list of control blocks that a second channel feeds to the
//! data channel.
//!
//! A channel moves `TRANS_COUNT` transfers of 1, 2 or 4 bytes (`CTRL.DATA_SIZE`), each address
//! stepping by the transfer size or not at all (`INCR_READ`, `INCR_WRITE`). So one control block runs one loop of the copy: a run whose steps in
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
//! **`CTRL_TRIG`:** `EN` 0, `HIGH_PRIORITY` 1, `DATA_SIZE` 3:2, `INCR_READ` 4, `INCR_WRITE` 5, `RING_SIZE` 9:6, `RING_SEL` 10, `CHAIN_TO` 14:11, `TREQ_SEL` 20:15, `IRQ_QUIET` 21, `BSWAP` 22, `SNIFF_EN` 23.
//!
//! # Examples
//!
//! ```
//! use strided_layout::dma::rp2040::{self, Descriptor};
//! use strided_layout::{CopyPlan, Layout, LayoutError, Order};
//! // Every third `u16` of 1,024 into a dense buffer: the RP2040 steps by the transfer size
//! // or not at all, so one block per element, and the null block.
//! let src = Layout::new([1024], [3], 2)?;
//! let plan = CopyPlan::new(&src, &Layout::dense([1024], 2, Order::C)?)?;
//! let mut blocks = [Descriptor::NULL; 1025];
//! assert_eq!(rp2040::lower(&plan, 0x2000_0000, 0x2001_0000, &mut blocks), Ok(1025));
//! // A row of 1,024 consecutive ones: one block and the null block.
//! let plan = CopyPlan::new(&Layout::dense([1024], 2, Order::C)?, &Layout::dense([1024], 2, Order::C)?)?;
//! assert_eq!(rp2040::lower(&plan, 0x2000_0000, 0x2001_0000, &mut blocks), Ok(2));
//! assert_eq!((blocks[0].trans_count, blocks[1]), (512, Descriptor::NULL)); // 512 words
//! # Ok::<(), LayoutError>(())
//! ```

use super::DmaError;
use super::rp::{self, RP2040};
use crate::CopyPlan;

/// A control block (`READ_ADDR`, `WRITE_ADDR`, `TRANS_COUNT`, `CTRL_TRIG`), the same 16 bytes
/// on both chips; this chip's `CTRL_TRIG` bits are in the module's docs.
pub use super::rp::ControlBlock as Descriptor;

/// The control channel [`lower`]'s blocks chain to.
///
/// # Examples
///
/// ```
/// assert_eq!(strided_layout::dma::rp2040::CONTROL_CHANNEL, 1);
/// ```
pub const CONTROL_CHANNEL: u8 = 1;

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
/// use strided_layout::dma::rp2040;
/// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
/// // 4 rows of 8 `u8` taken from a 4 × 32 image: a block per row, and the null block.
/// let src = Layout::new([4, 8], [32, 1], 1)?;
/// let plan = CopyPlan::new(&src, &Layout::dense([4, 8], 1, Order::C)?)?;
/// let mut blocks = [rp2040::Descriptor::NULL; 5];
/// assert_eq!(rp2040::lower(&plan, 0x2000_0000, 0x2000_1000, &mut blocks), Ok(5));
/// assert_eq!((blocks[1].read_addr, blocks[1].write_addr), (0x2000_0020, 0x2000_1008));
/// # Ok::<(), LayoutError>(())
/// ```
pub const fn lower<const M: usize, const L: usize>(
    plan: &CopyPlan<M, L>,
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
/// - [`DmaError::Channel`] if `control` is not one of the 12 channels;
/// - [`DmaError::ChainTooLong`] if `out` holds fewer blocks than the list needs (`out` is
///   then untouched).
///
/// # Examples
///
/// ```
/// use strided_layout::dma::{DmaError, rp2040};
/// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
/// let l = Layout::dense([64], 4, Order::C)?;
/// let plan = CopyPlan::new(&l, &l)?;
/// let mut blocks = [rp2040::Descriptor::NULL; 2];
/// assert_eq!(rp2040::lower_chained(&plan, 0x2000_0000, 0x2000_1000, &mut blocks, 5), Ok(2));
/// assert_eq!(blocks[0].ctrl_trig >> 11 & 0xF, 5);
/// assert_eq!(
///     rp2040::lower_chained(&plan, 0x2000_0000, 0x2000_1000, &mut blocks, 12),
///     Err(DmaError::Channel { channels: 12 })
/// );
/// # Ok::<(), LayoutError>(())
/// ```
pub const fn lower_chained<const M: usize, const L: usize>(
    plan: &CopyPlan<M, L>,
    src_addr: u32,
    dst_addr: u32,
    out: &mut [Descriptor],
    control: u8,
) -> Result<usize, DmaError> {
    rp::lower(&RP2040, plan, src_addr, dst_addr, out, control)
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
/// use strided_layout::dma::{const_unwrap, rp2040};
/// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
/// // 4 rows of 8 `u16` from a 4 × 32 image, lowered by the compiler.
/// const SRC: Layout<2> = strided_layout::const_unwrap(Layout::new([4, 8], [32, 1], 2));
/// const DST: Layout<2> = strided_layout::const_unwrap(Layout::dense([4, 8], 2, Order::C));
/// const PLAN: CopyPlan = strided_layout::const_unwrap(CopyPlan::new(&SRC, &DST));
/// const BLOCKS: [rp2040::Descriptor; 5] = {
///     let mut out = [rp2040::Descriptor::NULL; 5];
///     let _ = const_unwrap(rp2040::lower(&PLAN, 0, 0, &mut out));
///     out
/// };
/// let mut blocks = BLOCKS;
/// rp2040::rebase(&PLAN, &mut blocks, 0x2000_0000, 0x2000_1000)
///     .map_err(|_| LayoutError::DestinationNotUnique)?;
/// assert_eq!((blocks[1].read_addr, blocks[1].write_addr, blocks[4]), (0x2000_0040, 0x2000_1010, rp2040::Descriptor::NULL));
/// # Ok::<(), LayoutError>(())
/// ```
pub const fn rebase<const M: usize, const L: usize>(
    plan: &CopyPlan<M, L>,
    chain: &mut [Descriptor],
    src_addr: u32,
    dst_addr: u32,
) -> Result<(), DmaError> {
    rp::rebase(plan, chain, src_addr, dst_addr)
}
