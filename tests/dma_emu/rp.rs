//! An emulator of the DMA of the Raspberry Pi RP2040 and RP2350 running a control-block chain:
//! a data channel reprogrammed, block after block, by a control channel.
//!
//! The convention: the chain is a list of 16-byte control blocks at `blocks_addr`, each the
//! four words `READ_ADDR`, `WRITE_ADDR`, `TRANS_COUNT`, `CTRL_TRIG` (little-endian). The control
//! channel writes a block into the data channel's alias-0 registers, the `CTRL_TRIG` write last
//! (it is the trigger register, so it starts the data channel); when the data channel's transfer
//! sequence completes, its `CTRL.CHAIN_TO` triggers the control channel, which writes the next
//! block. A block whose `CTRL_TRIG` is 0 is a null trigger: the data channel does not start and
//! the chain ends there.
//!
//! What it models, from the DMA chapters of the RP2040 and RP2350 datasheets (bit positions
//! checked against the register headers of the Raspberry Pi C SDK for both chips):
//!
//! * `CTRL_TRIG`, RP2040: `EN` 0, `HIGH_PRIORITY` 1, `DATA_SIZE` 3:2, `INCR_READ` 4,
//!   `INCR_WRITE` 5, `RING_SIZE` 9:6, `RING_SEL` 10, `CHAIN_TO` 14:11, `TREQ_SEL` 20:15,
//!   `IRQ_QUIET` 21, `BSWAP` 22, `SNIFF_EN` 23, `BUSY` 24 (read-only), 28:25 reserved,
//!   `WRITE_ERROR` 29, `READ_ERROR` 30, `AHB_ERROR` 31. RP2350: `EN` 0, `HIGH_PRIORITY` 1,
//!   `DATA_SIZE` 3:2, `INCR_READ` 4, `INCR_READ_REV` 5, `INCR_WRITE` 6, `INCR_WRITE_REV` 7,
//!   `RING_SIZE` 11:8, `RING_SEL` 12, `CHAIN_TO` 16:13, `TREQ_SEL` 22:17, `IRQ_QUIET` 23,
//!   `BSWAP` 24, `SNIFF_EN` 25, `BUSY` 26 (read-only), 28:27 reserved, error flags 29-31 as on
//!   the RP2040.
//! * `TRANS_COUNT`: the RP2040's is a 32-bit count; the RP2350's has `MODE` in 31:28 (0 normal)
//!   and the count in 27:0.
//! * A transfer sequence: `TRANS_COUNT` transfers of `DATA_SIZE` (0 byte, 1 halfword, 2 word),
//!   each a read at `READ_ADDR` and a write at `WRITE_ADDR`, then the address steps. RP2040:
//!   `INCR_x` = 1 adds the size, 0 keeps the address. RP2350: `INCR_x` = 1 adds the size, or
//!   subtracts it with `INCR_x_REV` = 1; `INCR_x` = 0 with `INCR_x_REV` = 1 adds twice the size;
//!   both 0 keep the address.
//! * Ring wrapping: `RING_SIZE` = n > 0 lets only the low n bits of the read (`RING_SEL` = 0) or
//!   write (`RING_SEL` = 1) address change as it steps.
//! * `BSWAP`: each halfword's two bytes, or each word's four bytes, are reversed on the way
//!   (bytes unchanged).
//! * Address arithmetic wraps at 32 bits.
//!
//! What it refuses ([`EmuError::Config`]): a data channel the chip lacks (12 channels on the
//! RP2040, 16 on the RP2350); in a non-null block: `EN` = 0 (the channel ignores the trigger, so
//! it would never complete and chain: the chain stalls); `TREQ_SEL` other than 0x3F (the
//! permanent request: anything else waits for a peripheral or timer); `CHAIN_TO` = the data
//! channel itself (which disables chaining: the chain would stop before its null block) or a
//! channel the chip lacks; `DATA_SIZE` = 3 (reserved); `READ_ADDR` / `WRITE_ADDR` not aligned to
//! the size (the datasheets require it of software); an RP2350 `MODE` other than 0 (trigger-self
//! and endless modes are not modelled; the rest are reserved); reserved `CTRL_TRIG` bits set (a
//! sign of the other chip's layout); `TRANS_COUNT` = 0 (what a zero-length sequence does is not
//! documented). A chain longer than the step budget is [`EmuError::Runaway`].
//!
//! Not modelled: the control channel's own registers and configuration (it is assumed to write
//! four words to the data channel's alias 0 per block, reading the list in order), pacing,
//! priorities, sniffing, interrupts, the error flags (written bits are ignored), aborts, bus
//! errors other than unmapped accesses.

use super::bus::{Bus, EmuError, le_u32};

/// The most transfers (plus blocks) a run may perform before it is reported as
/// [`EmuError::Runaway`].
pub const STEP_BUDGET: u64 = 10_000_000;

/// A control block's size in bytes.
pub const BLOCK_LEN: u32 = 16;

/// Which chip's DMA (the two `CTRL_TRIG` layouts differ).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Chip {
    Rp2040,
    Rp2350,
}

/// The `CTRL_TRIG` fields, decoded per chip.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Ctrl {
    en: bool,
    data_size: u32,
    read_step: Step,
    write_step: Step,
    ring_size: u32,
    ring_sel_write: bool,
    chain_to: u32,
    treq_sel: u32,
    bswap: bool,
    reserved: u32,
}

/// How an address moves after each transfer, in units of the transfer size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    Keep,
    Up,
    Down,
    UpTwice,
}

impl Step {
    fn from_bits(incr: bool, rev: bool) -> Self {
        match (incr, rev) {
            (false, false) => Step::Keep,
            (true, false) => Step::Up,
            (true, true) => Step::Down,
            (false, true) => Step::UpTwice,
        }
    }

    fn delta(self, size: u32) -> i32 {
        let size = size as i32;
        match self {
            Step::Keep => 0,
            Step::Up => size,
            Step::Down => -size,
            Step::UpTwice => 2 * size,
        }
    }
}

fn bit(word: u32, n: u32) -> bool {
    word & (1 << n) != 0
}

fn field(word: u32, lsb: u32, width: u32) -> u32 {
    (word >> lsb) & ((1 << width) - 1)
}

impl Ctrl {
    fn decode(chip: Chip, w: u32) -> Self {
        match chip {
            Chip::Rp2040 => Ctrl {
                en: bit(w, 0),
                data_size: field(w, 2, 2),
                read_step: Step::from_bits(bit(w, 4), false),
                write_step: Step::from_bits(bit(w, 5), false),
                ring_size: field(w, 6, 4),
                ring_sel_write: bit(w, 10),
                chain_to: field(w, 11, 4),
                treq_sel: field(w, 15, 6),
                bswap: bit(w, 22),
                reserved: field(w, 25, 4),
            },
            Chip::Rp2350 => Ctrl {
                en: bit(w, 0),
                data_size: field(w, 2, 2),
                read_step: Step::from_bits(bit(w, 4), bit(w, 5)),
                write_step: Step::from_bits(bit(w, 6), bit(w, 7)),
                ring_size: field(w, 8, 4),
                ring_sel_write: bit(w, 12),
                chain_to: field(w, 13, 4),
                treq_sel: field(w, 17, 6),
                bswap: bit(w, 24),
                reserved: field(w, 27, 2),
            },
        }
    }
}

fn config(s: impl Into<String>) -> EmuError {
    EmuError::Config(s.into())
}

fn channels(chip: Chip) -> u32 {
    match chip {
        Chip::Rp2040 => 12,
        Chip::Rp2350 => 16,
    }
}

/// The next address: `addr` stepped by `delta`, with only its low `ring` bits changing if
/// `ring` > 0.
fn step(addr: u32, delta: i32, ring: u32) -> u32 {
    let next = addr.wrapping_add_signed(delta);
    if ring == 0 {
        next
    } else {
        let mask = (1u32 << ring) - 1;
        (addr & !mask) | (next & mask)
    }
}

/// Runs the control-block chain at `blocks_addr` through data channel `data_channel` of `chip`
/// and returns how many non-null blocks ran.
pub fn run(
    bus: &mut Bus,
    chip: Chip,
    data_channel: u8,
    blocks_addr: u32,
) -> Result<usize, EmuError> {
    run_budget(bus, chip, data_channel, blocks_addr, STEP_BUDGET)
}

fn run_budget(
    bus: &mut Bus,
    chip: Chip,
    data_channel: u8,
    blocks_addr: u32,
    budget: u64,
) -> Result<usize, EmuError> {
    let data_channel = u32::from(data_channel);
    if data_channel >= channels(chip) {
        return Err(config(format!(
            "{chip:?} has no DMA channel {data_channel}"
        )));
    }
    let mut at = blocks_addr;
    let mut blocks = 0usize;
    let mut steps = 0u64;
    loop {
        let b: [u8; BLOCK_LEN as usize] = bus.read_array(at)?;
        let (mut read_addr, mut write_addr) = (le_u32(&b, 0), le_u32(&b, 4));
        let trans_count = le_u32(&b, 8);
        let ctrl_word = le_u32(&b, 12);
        if ctrl_word == 0 {
            return Ok(blocks);
        }
        steps += 1;
        if steps > budget {
            return Err(EmuError::Runaway);
        }
        let c = Ctrl::decode(chip, ctrl_word);
        let count = match chip {
            Chip::Rp2040 => trans_count,
            Chip::Rp2350 => {
                let mode = trans_count >> 28;
                if mode != 0 {
                    return Err(config(format!(
                        "TRANS_COUNT.MODE = {mode:#x}: only MODE 0 (normal) is supported by this \
                         model (1 trigger-self and 0xf endless are not modelled; the rest are reserved)"
                    )));
                }
                trans_count & 0x0FFF_FFFF
            }
        };
        if c.reserved != 0 {
            return Err(config(format!(
                "CTRL_TRIG {ctrl_word:#010x} sets reserved bits for the {chip:?} layout"
            )));
        }
        if !c.en {
            return Err(config(
                "CTRL.EN = 0: the data channel ignores the trigger, never completes, and the chain stalls",
            ));
        }
        if c.treq_sel != 0x3F {
            return Err(config(format!(
                "CTRL.TREQ_SEL = {:#x}: only 0x3f (permanent request) is modelled; other \
                 values wait for a peripheral or timer",
                c.treq_sel
            )));
        }
        if c.chain_to == data_channel {
            return Err(config(format!(
                "CTRL.CHAIN_TO = {data_channel}, the data channel itself, disables chaining: the \
                 control channel is never triggered again and the chain stops before its null block"
            )));
        }
        if c.chain_to >= channels(chip) {
            return Err(config(format!(
                "CTRL.CHAIN_TO = {}: {chip:?} has no such channel",
                c.chain_to
            )));
        }
        let size = match c.data_size {
            0 => 1u32,
            1 => 2,
            2 => 4,
            _ => return Err(config("CTRL.DATA_SIZE = 3 is reserved")),
        };
        if !read_addr.is_multiple_of(size) {
            return Err(config(format!(
                "READ_ADDR {read_addr:#010x} is not aligned to the transfer size ({size} bytes)"
            )));
        }
        if !write_addr.is_multiple_of(size) {
            return Err(config(format!(
                "WRITE_ADDR {write_addr:#010x} is not aligned to the transfer size ({size} bytes)"
            )));
        }
        if count == 0 {
            return Err(config(
                "TRANS_COUNT = 0: a zero-length transfer sequence is not documented; not supported by this model",
            ));
        }
        blocks += 1;
        let (read_ring, write_ring) = if c.ring_sel_write {
            (0, c.ring_size)
        } else {
            (c.ring_size, 0)
        };
        let (rd, wd) = (c.read_step.delta(size), c.write_step.delta(size));
        for _ in 0..count {
            steps += 1;
            if steps > budget {
                return Err(EmuError::Runaway);
            }
            let mut v = bus.read(read_addr, size as usize)?;
            if c.bswap {
                v.reverse();
            }
            bus.write(write_addr, &v)?;
            read_addr = step(read_addr, rd, read_ring);
            write_addr = step(write_addr, wd, write_ring);
        }
        at = at.wrapping_add(BLOCK_LEN);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: u32 = 0x2000_0000;
    const DST: u32 = 0x2001_0000;
    const BLOCKS: u32 = 0x2002_0000;
    const DATA: u8 = 2;
    const CONTROL: u32 = 3;

    /// A `CTRL_TRIG` word from its fields, in `chip`'s layout.
    #[derive(Clone, Copy)]
    struct C {
        en: bool,
        size: u32,
        incr_read: bool,
        incr_read_rev: bool,
        incr_write: bool,
        incr_write_rev: bool,
        ring_size: u32,
        ring_sel: bool,
        chain_to: u32,
        treq: u32,
        bswap: bool,
    }

    impl C {
        fn copy(size: u32) -> Self {
            C {
                en: true,
                size,
                incr_read: true,
                incr_read_rev: false,
                incr_write: true,
                incr_write_rev: false,
                ring_size: 0,
                ring_sel: false,
                chain_to: CONTROL,
                treq: 0x3F,
                bswap: false,
            }
        }

        fn word(&self, chip: Chip) -> u32 {
            let b = |x: bool, n: u32| u32::from(x) << n;
            match chip {
                Chip::Rp2040 => {
                    assert!(!self.incr_read_rev && !self.incr_write_rev);
                    b(self.en, 0)
                        | (self.size << 2)
                        | b(self.incr_read, 4)
                        | b(self.incr_write, 5)
                        | (self.ring_size << 6)
                        | b(self.ring_sel, 10)
                        | (self.chain_to << 11)
                        | (self.treq << 15)
                        | b(self.bswap, 22)
                }
                Chip::Rp2350 => {
                    b(self.en, 0)
                        | (self.size << 2)
                        | b(self.incr_read, 4)
                        | b(self.incr_read_rev, 5)
                        | b(self.incr_write, 6)
                        | b(self.incr_write_rev, 7)
                        | (self.ring_size << 8)
                        | b(self.ring_sel, 12)
                        | (self.chain_to << 13)
                        | (self.treq << 17)
                        | b(self.bswap, 24)
                }
            }
        }
    }

    /// Blocks (read, write, count, ctrl) followed by a null block.
    fn bus_with(blocks: &[[u32; 4]], src_len: usize, dst_len: usize) -> Bus {
        let mut bus = Bus::new();
        bus.add(SRC, (0..src_len).map(|i| i as u8).collect());
        bus.add(DST, vec![0; dst_len]);
        let mut list = Vec::new();
        for blk in blocks.iter().chain([&[0u32; 4]]) {
            for w in blk {
                list.extend_from_slice(&w.to_le_bytes());
            }
        }
        bus.add(BLOCKS, list);
        bus
    }

    fn expect_config(chip: Chip, block: [u32; 4], needle: &str) {
        let mut bus = bus_with(&[block], 64, 64);
        match run(&mut bus, chip, DATA, BLOCKS) {
            Err(EmuError::Config(s)) => assert!(s.contains(needle), "{s:?} lacks {needle:?}"),
            other => panic!("expected a configuration error with {needle:?}, got {other:?}"),
        }
    }

    const BOTH: [Chip; 2] = [Chip::Rp2040, Chip::Rp2350];

    #[test]
    fn one_block_copies_words() {
        for chip in BOTH {
            let mut bus = bus_with(&[[SRC, DST, 4, C::copy(2).word(chip)]], 16, 16);
            assert_eq!(run(&mut bus, chip, DATA, BLOCKS), Ok(1));
            assert_eq!(bus.region(DST), bus.region(SRC));
            assert!(bus.writes(DST).iter().all(|&w| w == 1));
        }
    }

    #[test]
    fn a_2d_gather_as_one_block_per_row() {
        // Rows 1..3, bytes 2..6 of a 4 x 8 byte matrix as halfwords, one block per row.
        for chip in BOTH {
            let ctrl = C::copy(1).word(chip);
            let rows: Vec<[u32; 4]> = (1..3)
                .map(|r| [SRC + r * 8 + 2, DST + (r - 1) * 4, 2, ctrl])
                .collect();
            let mut bus = bus_with(&rows, 32, 8);
            assert_eq!(run(&mut bus, chip, DATA, BLOCKS), Ok(2));
            let src = bus.region(SRC).to_vec();
            assert_eq!(bus.region(DST), &[&src[10..14], &src[18..22]].concat()[..]);
        }
    }

    #[test]
    fn null_block_first_runs_nothing() {
        for chip in BOTH {
            let mut bus = bus_with(&[], 4, 4);
            assert_eq!(run(&mut bus, chip, DATA, BLOCKS), Ok(0));
        }
    }

    #[test]
    fn rp2350_decrement_and_skip() {
        let chip = Chip::Rp2350;
        // Read words backwards from the last one.
        let rev = C {
            incr_read_rev: true,
            ..C::copy(2)
        }
        .word(chip);
        // Write bytes to every other address (INCR_WRITE = 0, REV = 1: +2 per byte).
        let skip = C {
            incr_write: false,
            incr_write_rev: true,
            ..C::copy(0)
        }
        .word(chip);
        let mut bus = bus_with(&[[SRC + 12, DST, 4, rev], [SRC, DST + 17, 4, skip]], 16, 32);
        assert_eq!(run(&mut bus, chip, DATA, BLOCKS), Ok(2));
        let src = bus.region(SRC).to_vec();
        let dst = bus.region(DST);
        let want: Vec<u8> = src.chunks(4).rev().flatten().copied().collect();
        assert_eq!(&dst[..16], &want[..]);
        for i in 0..4 {
            assert_eq!(dst[17 + 2 * i], src[i]);
            assert_eq!(bus.writes(DST)[18 + 2 * i], 0);
        }
    }

    #[test]
    fn constant_addresses() {
        for chip in BOTH {
            // A constant read fills the destination with one word.
            let fill = C {
                incr_read: false,
                ..C::copy(2)
            }
            .word(chip);
            // A constant write keeps overwriting one halfword: the last one read wins.
            let sink = C {
                incr_write: false,
                ..C::copy(1)
            }
            .word(chip);
            let mut bus = bus_with(&[[SRC + 4, DST, 3, fill], [SRC, DST + 12, 4, sink]], 16, 16);
            assert_eq!(run(&mut bus, chip, DATA, BLOCKS), Ok(2));
            let dst = bus.region(DST);
            assert_eq!(&dst[..12], &[4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7]);
            assert_eq!(&dst[12..14], &[6, 7]);
            assert_eq!(&bus.writes(DST)[12..14], &[4, 4]);
        }
    }

    #[test]
    fn ring_wraps_the_selected_address() {
        for chip in BOTH {
            // Read ring of 8 bytes: 4 words read from SRC + 4 wrap after two: 4, 0, 4, 0 (words).
            let read_ring = C {
                ring_size: 3,
                ..C::copy(2)
            }
            .word(chip);
            // Write ring of 4 bytes (RING_SEL = 1): 4 halfwords land on 2 halfwords.
            let write_ring = C {
                ring_size: 2,
                ring_sel: true,
                ..C::copy(1)
            }
            .word(chip);
            let mut bus = bus_with(
                &[[SRC + 4, DST, 4, read_ring], [SRC, DST + 16, 4, write_ring]],
                16,
                32,
            );
            assert_eq!(run(&mut bus, chip, DATA, BLOCKS), Ok(2));
            let dst = bus.region(DST);
            assert_eq!(
                &dst[..16],
                &[4, 5, 6, 7, 0, 1, 2, 3, 4, 5, 6, 7, 0, 1, 2, 3]
            );
            assert_eq!(&dst[16..20], &[4, 5, 6, 7]);
            assert_eq!(&bus.writes(DST)[16..20], &[2, 2, 2, 2]);
        }
    }

    #[test]
    fn bswap_reverses_each_element() {
        for chip in BOTH {
            let w = C {
                bswap: true,
                ..C::copy(2)
            }
            .word(chip);
            let h = C {
                bswap: true,
                ..C::copy(1)
            }
            .word(chip);
            let b = C {
                bswap: true,
                ..C::copy(0)
            }
            .word(chip);
            let mut bus = bus_with(
                &[[SRC, DST, 1, w], [SRC, DST + 4, 2, h], [SRC, DST + 8, 2, b]],
                4,
                12,
            );
            assert_eq!(run(&mut bus, chip, DATA, BLOCKS), Ok(3));
            assert_eq!(bus.region(DST), &[3, 2, 1, 0, 1, 0, 3, 2, 0, 1, 0, 0]);
        }
    }

    #[test]
    fn long_chain_is_a_runaway() {
        let chip = Chip::Rp2040;
        let ctrl = C::copy(0).word(chip);
        let blocks: Vec<[u32; 4]> = (0..100).map(|_| [SRC, DST, 1, ctrl]).collect();
        let mut bus = bus_with(&blocks, 4, 4);
        assert_eq!(
            run_budget(&mut bus, chip, DATA, BLOCKS, 150),
            Err(EmuError::Runaway)
        );
        assert_eq!(run_budget(&mut bus, chip, DATA, BLOCKS, 200), Ok(100));
    }

    #[test]
    fn unmapped_accesses_are_reported() {
        let chip = Chip::Rp2350;
        let mut bus = bus_with(&[[SRC, DST + 12, 2, C::copy(2).word(chip)]], 16, 16);
        assert_eq!(
            run(&mut bus, chip, DATA, BLOCKS),
            Err(EmuError::Unmapped {
                addr: DST + 16,
                len: 4
            })
        );
        // A list with no null block runs off its region.
        let mut bus = bus_with(&[], 4, 4);
        assert_eq!(
            run(&mut bus, chip, DATA, BLOCKS + 4),
            Err(EmuError::Unmapped {
                addr: BLOCKS + 4,
                len: 16
            })
        );
    }

    #[test]
    fn configuration_errors() {
        for chip in BOTH {
            let ok = C::copy(2);
            expect_config(
                chip,
                [SRC, DST, 4, C { en: false, ..ok }.word(chip)],
                "EN = 0",
            );
            expect_config(
                chip,
                [SRC, DST, 4, C { treq: 0x3B, ..ok }.word(chip)],
                "TREQ_SEL = 0x3b",
            );
            expect_config(
                chip,
                [SRC, DST, 4, C { treq: 0, ..ok }.word(chip)],
                "TREQ_SEL = 0x0",
            );
            expect_config(
                chip,
                [
                    SRC,
                    DST,
                    4,
                    C {
                        chain_to: u32::from(DATA),
                        ..ok
                    }
                    .word(chip),
                ],
                "CHAIN_TO = 2",
            );
            expect_config(
                chip,
                [SRC, DST, 4, C { size: 3, ..ok }.word(chip)],
                "DATA_SIZE = 3",
            );
            expect_config(chip, [SRC + 2, DST, 4, ok.word(chip)], "READ_ADDR");
            expect_config(chip, [SRC, DST + 1, 4, C::copy(1).word(chip)], "WRITE_ADDR");
            expect_config(chip, [SRC, DST, 0, ok.word(chip)], "TRANS_COUNT = 0");
            let mut bus = bus_with(&[], 4, 4);
            assert!(matches!(
                run(&mut bus, chip, 16, BLOCKS),
                Err(EmuError::Config(_))
            ));
        }
        // Channels 12..15 exist on the RP2350 only.
        expect_config(
            Chip::Rp2040,
            [
                SRC,
                DST,
                4,
                C {
                    chain_to: 12,
                    ..C::copy(2)
                }
                .word(Chip::Rp2040),
            ],
            "no such channel",
        );
        let mut bus = bus_with(
            &[[
                SRC,
                DST,
                1,
                C {
                    chain_to: 12,
                    ..C::copy(2)
                }
                .word(Chip::Rp2350),
            ]],
            4,
            4,
        );
        assert_eq!(run(&mut bus, Chip::Rp2350, 13, BLOCKS), Ok(1));
        let mut bus = bus_with(&[], 4, 4);
        assert!(matches!(
            run(&mut bus, Chip::Rp2040, 12, BLOCKS),
            Err(EmuError::Config(_))
        ));
        // RP2350 TRANS_COUNT modes.
        let w = C::copy(2).word(Chip::Rp2350);
        expect_config(Chip::Rp2350, [SRC, DST, (1 << 28) | 4, w], "MODE = 0x1");
        expect_config(Chip::Rp2350, [SRC, DST, (0xF << 28) | 4, w], "MODE = 0xf");
        // The RP2040's count is 32 bits: the same word is a huge count there (runs off the bus).
        let w0 = C::copy(0).word(Chip::Rp2040);
        let mut bus = bus_with(&[[SRC, DST, (1 << 28) | 4, w0]], 64, 64);
        assert!(matches!(
            run(&mut bus, Chip::Rp2040, DATA, BLOCKS),
            Err(EmuError::Unmapped { .. })
        ));
        // Reserved bits: 28:25 on the RP2040 (where the RP2350 has SNIFF_EN and BUSY), 28:27 on
        // the RP2350.
        expect_config(
            Chip::Rp2040,
            [SRC, DST, 4, C::copy(2).word(Chip::Rp2040) | (1 << 25)],
            "reserved",
        );
        expect_config(
            Chip::Rp2350,
            [SRC, DST, 4, C::copy(2).word(Chip::Rp2350) | (1 << 27)],
            "reserved",
        );
    }

    #[test]
    fn the_two_layouts_differ() {
        // An RP2350 word read as RP2040: CHAIN_TO/TREQ land elsewhere and are refused.
        let w = C::copy(2).word(Chip::Rp2350);
        let mut bus = bus_with(&[[SRC, DST, 4, w]], 16, 16);
        assert!(matches!(
            run(&mut bus, Chip::Rp2040, DATA, BLOCKS),
            Err(EmuError::Config(_))
        ));
        // Ignored bits: HIGH_PRIORITY, IRQ_QUIET, SNIFF_EN, BUSY and the error flags.
        let w = C::copy(2).word(Chip::Rp2040)
            | (1 << 1)
            | (1 << 21)
            | (1 << 23)
            | (1 << 24)
            | (7 << 29);
        let mut bus = bus_with(&[[SRC, DST, 4, w]], 16, 16);
        assert_eq!(run(&mut bus, Chip::Rp2040, DATA, BLOCKS), Ok(1));
        let w = C::copy(2).word(Chip::Rp2350)
            | (1 << 1)
            | (1 << 23)
            | (1 << 25)
            | (1 << 26)
            | (7 << 29);
        let mut bus = bus_with(&[[SRC, DST, 4, w]], 16, 16);
        assert_eq!(run(&mut bus, Chip::Rp2350, DATA, BLOCKS), Ok(1));
    }
}
