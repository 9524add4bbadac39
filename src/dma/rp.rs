//! What the RP2040 and RP2350 DMA share: the control block, and one lowering and one
//! relocation parameterised by the chip's `CTRL_TRIG` layout and limits ([`Chip`]).

use super::walk::{Chain, Kind, Levels, Step, i64_of};
use super::{DmaError, aligned, bus_span};
use crate::CopyPlan;
use crate::algo::access::{get, set};
use crate::algo::checked::tri;

/// A control block: the data channel's `READ_ADDR`, `WRITE_ADDR`, `TRANS_COUNT` and
/// `CTRL_TRIG`, in that order (the channel's first register alias), 16 bytes. `CTRL_TRIG`'s
/// bits are the chip's: see [`rp2040`](super::rp2040) and [`rp2350`](super::rp2350).
///
/// # Examples
///
/// ```
/// use strided_layout::dma::rp2040::Descriptor;
/// assert_eq!(size_of::<Descriptor>(), 16);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct ControlBlock {
    /// `READ_ADDR`: the first transfer's source address.
    pub read_addr: u32,
    /// `WRITE_ADDR`: the first transfer's destination address.
    pub write_addr: u32,
    /// `TRANS_COUNT`: the number of transfers.
    pub trans_count: u32,
    /// `CTRL_TRIG`: enable, transfer size, increments, `CHAIN_TO`, `TREQ_SEL`, `IRQ_QUIET`, ...
    /// (0: the null trigger that ends a list).
    pub ctrl_trig: u32,
}

impl ControlBlock {
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

/// One chip's `CTRL_TRIG` layout and limits.
pub(super) struct Chip {
    /// The engine, for the shared steps.
    pub(super) kind: Kind,
    /// `CHAIN_TO`'s lowest bit.
    chain_to: u32,
    /// `TREQ_SEL`'s lowest bit.
    treq_sel: u32,
    /// `IRQ_QUIET`'s bit.
    irq_quiet: u32,
    /// `INCR_READ`'s bit (and `INCR_READ_REV` the next, where the chip has it).
    incr_read: u32,
    /// `INCR_WRITE`'s bit (and `INCR_WRITE_REV` the next).
    incr_write: u32,
    /// Whether the chip steps backwards and by twice the size (`INCR_*_REV`).
    reverse: bool,
    /// The channels (`CHAIN_TO` names one of them).
    pub(super) channels: u8,
    /// The largest `TRANS_COUNT`.
    max_count: usize,
}

/// The RP2040: `INCR_READ` 4, `INCR_WRITE` 5, `CHAIN_TO` 14:11, `TREQ_SEL` 20:15, `IRQ_QUIET`
/// 21; 12 channels; a 32-bit count.
pub(super) const RP2040: Chip = Chip {
    kind: Kind::Rp2040,
    chain_to: 11,
    treq_sel: 15,
    irq_quiet: 21,
    incr_read: 4,
    incr_write: 5,
    reverse: false,
    channels: 12,
    max_count: u32::MAX as usize,
};

/// The RP2350: `INCR_READ` 4, `INCR_READ_REV` 5, `INCR_WRITE` 6, `INCR_WRITE_REV` 7,
/// `CHAIN_TO` 16:13, `TREQ_SEL` 22:17, `IRQ_QUIET` 23; 16 channels; a 28-bit count
/// (`TRANS_COUNT.MODE` 0, normal).
pub(super) const RP2350: Chip = Chip {
    kind: Kind::Rp2350,
    chain_to: 13,
    treq_sel: 17,
    irq_quiet: 23,
    incr_read: 4,
    incr_write: 6,
    reverse: true,
    channels: 16,
    max_count: (1 << 28) - 1,
};

/// `CTRL_TRIG` without its increment bits: enabled, the transfer size, the control channel,
/// a permanent request (`TREQ_SEL` `0x3F`), quiet.
const fn ctrl(chip: &Chip, width: usize, control: u8) -> u32 {
    let size: u32 = match width {
        2 => 1,
        4 => 2,
        _ => 0,
    };
    1 | size << 2 | (control as u32) << chip.chain_to | 0x3F << chip.treq_sel | 1 << chip.irq_quiet
}

/// The increment bits (`INCR`, then `INCR_REV` where the chip has it) for a step of `x`
/// bytes with transfers of `w`: `w` (1, 0), `-w` (1, 1), `2w` (0, 1), none (0, 0).
const fn step(chip: &Chip, w: i64, x: i64) -> Option<u32> {
    if x == w {
        Some(0b01)
    } else if x == 0 {
        Some(0b00)
    } else if chip.reverse && x == w.saturating_neg() {
        Some(0b11)
    } else if chip.reverse && x == w.saturating_mul(2) {
        Some(0b10)
    } else {
        None
    }
}

/// The increment bits of `CTRL_TRIG` for `levels`' one run, if the channel can step so.
pub(super) const fn increments(chip: &Chip, width: usize, levels: &Levels) -> Option<u32> {
    let [run, ..] = *levels;
    let Some(run) = run else { return Some(0) };
    if run.count > chip.max_count {
        return None;
    }
    let Some(w) = i64_of(width) else {
        return None;
    };
    match (step(chip, w, run.src), step(chip, w, run.dst)) {
        (Some(s), Some(d)) => Some(s << chip.incr_read | d << chip.incr_write),
        _ => None,
    }
}

/// The block running `step`, chained to `control`.
const fn descriptor(chip: &Chip, step: &Step, control: u8) -> ControlBlock {
    let [run, ..] = step.levels;
    // `Chain` only hands out runs `increments` accepted, whose counts fit `TRANS_COUNT`.
    #[expect(clippy::cast_possible_truncation, reason = "checked against max_count")]
    let count = match run {
        Some(r) => r.count as u32,
        None => 1,
    };
    let incr = match increments(chip, step.width, &step.levels) {
        Some(i) => i,
        None => 0,
    };
    ControlBlock {
        read_addr: step.src,
        write_addr: step.dst,
        trans_count: count,
        ctrl_trig: ctrl(chip, step.width, control) | incr,
    }
}

/// The blocks of `plan` for `chip`, chained to `control`, and the null block.
pub(super) const fn lower<const M: usize, const L: usize>(
    chip: &Chip,
    plan: &CopyPlan<M, L>,
    src_addr: u32,
    dst_addr: u32,
    out: &mut [ControlBlock],
    control: u8,
) -> Result<usize, DmaError> {
    if control >= chip.channels {
        return Err(DmaError::Channel {
            channels: chip.channels,
        });
    }
    let mut chain = tri!(Chain::new(plan, chip.kind, src_addr, dst_addr));
    let needed = tri!(chain.needed());
    if needed > out.len() {
        return Err(DmaError::ChainTooLong { needed });
    }
    let mut k = 0usize;
    while let Some(step) = tri!(chain.next()) {
        set(out, k, descriptor(chip, &step, control));
        k = k.saturating_add(1);
    }
    set(out, k, ControlBlock::NULL);
    Ok(k.saturating_add(1))
}

/// Adds the buffers' addresses to blocks lowered at address 0 (both chips: `DATA_SIZE` is
/// bits 3:2 in each).
pub(super) const fn rebase<const M: usize, const L: usize>(
    plan: &CopyPlan<M, L>,
    chain: &mut [ControlBlock],
    src_addr: u32,
    dst_addr: u32,
) -> Result<(), DmaError> {
    tri!(bus_span(plan, src_addr, dst_addr));
    let mut rest: &[ControlBlock] = chain;
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
