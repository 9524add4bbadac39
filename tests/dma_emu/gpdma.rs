//! An emulator of one 2-D-addressing channel of the STM32 GPDMA (channels 12 to 15 of the
//! STM32U5's GPDMA1, channels 6 and 7 of the STM32H5's GPDMA1/2: reference manuals RM0456 and
//! RM0481), running a software-requested (memory-to-memory) linked list.
//!
//! The convention: the 32-byte item at `first_item_addr` is taken as the channel's registers,
//! in the order `CxTR1`, `CxTR2`, `CxBR1`, `CxSAR`, `CxDAR`, `CxTR3`, `CxBR2`, `CxLLR` (the order
//! of the registers in the channel's map and of the words of a linked-list item in memory), and
//! the channel's linked-list base (`CxLBAR`) is the upper 16 bits of `first_item_addr`.
//!
//! What it models, from the GPDMA chapters (register descriptions and the 2-D addressing /
//! linked-list sections; bit positions and field notes checked against the register
//! descriptions that the stm32-data project extracts from ST's SVD files):
//!
//! * `CxTR1`: `SDW_LOG2` 1:0, `SINC` 3, `SBL_1` 9:4, `PAM` 12:11, `SBX` 13, `SAP` 14, `SSEC` 15,
//!   `DDW_LOG2` 17:16, `DINC` 19, `DBL_1` 25:20, `DBX` 26, `DHX` 27, `DAP` 30, `DSEC` 31.
//!   `CxTR2`: `REQSEL` low bits, `SWREQ` 9, `DREQ` 10, `BREQ` 11, `TRIGM` 15:14, `TRIGSEL` 21:16,
//!   `TRIGPOL` 25:24, `TCEM` 31:30. `CxBR1`: `BNDT` 15:0 (bytes), `BRC` 26:16, `SDEC` 28,
//!   `DDEC` 29, `BRSDEC` 30, `BRDDEC` 31. `CxTR3`: `SAO` 12:0, `DAO` 28:16. `CxBR2`: `BRSAO`
//!   15:0, `BRDAO` 31:16. `CxLLR`: `UT1` 31, `UT2` 30, `UB1` 29, `USA` 28, `UDA` 27, `UT3` 26,
//!   `UB2` 25, `ULL` 16, `LA` 15:2.
//! * A 2-D / repeated block: `BRC` + 1 blocks of `BNDT` bytes. The source side reads beats of
//!   `SDW` bytes at `CxSAR` (advanced by the width after each beat if `SINC`, else constant),
//!   grouped in bursts of `SBL_1` + 1 beats; after each programmed burst `SAO` is added to the
//!   address (subtracted if `SDEC`), on top of the burst's own increment. The destination side
//!   likewise with `DDW`, `DINC`, `DBL_1`, `DAO`, `DDEC`. At the end of each block, `BRSAO` is
//!   added to `CxSAR` (subtracted if `BRSDEC`) and `BRDAO` to `CxDAR` (`BRDDEC`), on top of the
//!   burst offset of the block's last burst (the manual's note under `BRSDEC` / `BRDDEC`).
//! * Data handling: with `SDW` = `DDW` the bytes pass through; with different widths, `PAM` = 1x
//!   packs or unpacks them in little-endian order (the byte stream is unchanged). `SBX` swaps
//!   the middle two bytes of each source word; `DBX` swaps the bytes of each destination
//!   half-word, `DHX` the half-words of each destination word.
//! * The linked list: after the last block, `CxLLR` = 0 ends the list. Otherwise the next item
//!   is read at `CxLBAR` | `LA`, one word for each update bit set, in the register order above;
//!   registers without their update bit keep their value: `CxSAR` / `CxDAR` go on from where the
//!   last block left them, `CxBR1` is restored to its programmed value, `CxLLR` unchanged (so
//!   `ULL` = 0 re-runs the same item). All update bits 0 with `LA` != 0 is the manual's
//!   "infinite last item" (the block repeats forever): [`EmuError::Runaway`], as is a list
//!   that passes the step budget.
//! * A first item with `BNDT` = 0 is the manual's null / void initial item: no data moves and the
//!   next item is loaded; it is not counted.
//! * Address arithmetic wraps at 32 bits.
//!
//! What it refuses ([`EmuError::Config`]), the manual's user setting errors (USEF): a data width
//! code of 3 (8 bytes: not supported by the GPDMA), `BNDT` not a multiple of `SDW` (or of `DDW`
//! when packing/unpacking), `CxSAR` / `CxDAR` not aligned to its width, `SAO` / `BRSAO` not a
//! multiple of `SDW`, `DAO` / `BRDAO` not a multiple of `DDW`. Refused as not modelled:
//! `SWREQ` = 0 (a hardware request paces the transfer), `TRIGPOL` != 0 (triggers), different
//! widths with `PAM` = 0x (truncation / zero or sign padding), a block that is not a whole
//! number of bursts on a side whose burst offset is not 0 (the manual says the shortened last
//! burst gets no offset, but also that the block-end update adds it: ambiguous), a `CxLLR` with
//! update bits but `LA` = 0 (legal only for an item at offset 0 of the 64 KiB linked-list page,
//! and almost surely a mistaken end of list: only `CxLLR` = 0 ends a list), `CxLLR` reserved
//! bits (24:17, 1:0) set, an item after the first with `BNDT` = 0 (the manual's text found
//! covers only a void first item), and a first item not 4-byte aligned.
//!
//! Not modelled: the channel FIFO (each block's source reads all happen before its destination
//! writes, which is the same unless source and destination overlap), burst splitting at 1 KiB
//! boundaries or FIFO size (documented not to change the data), ports, security and privilege
//! attributes, priorities, events and interrupts (`TCEM`), link-step mode, suspension, bus
//! errors other than unmapped accesses.

use super::bus::{Bus, EmuError, Steps, le_u32};

/// The most beats (plus items) a run may perform before it is reported as
/// [`EmuError::Runaway`].
pub const STEP_BUDGET: u64 = 10_000_000;

/// `CxLLR` update bits, in the order of the words of an item in memory.
const UPDATE_BITS: [u32; 8] = [
    1 << 31, // UT1 -> CxTR1
    1 << 30, // UT2 -> CxTR2
    1 << 29, // UB1 -> CxBR1
    1 << 28, // USA -> CxSAR
    1 << 27, // UDA -> CxDAR
    1 << 26, // UT3 -> CxTR3
    1 << 25, // UB2 -> CxBR2
    1 << 16, // ULL -> CxLLR
];
const UPDATE_MASK: u32 = 0xFE01_0000;
const LA_MASK: u32 = 0x0000_FFFC;
const LLR_RESERVED: u32 = !(UPDATE_MASK | LA_MASK);

/// The channel's register file, in item order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Regs {
    tr1: u32,
    tr2: u32,
    br1: u32,
    sar: u32,
    dar: u32,
    tr3: u32,
    br2: u32,
    llr: u32,
}

impl Regs {
    fn from_words(w: [u32; 8]) -> Self {
        Regs {
            tr1: w[0],
            tr2: w[1],
            br1: w[2],
            sar: w[3],
            dar: w[4],
            tr3: w[5],
            br2: w[6],
            llr: w[7],
        }
    }

    fn slot(&mut self, i: usize) -> &mut u32 {
        match i {
            0 => &mut self.tr1,
            1 => &mut self.tr2,
            2 => &mut self.br1,
            3 => &mut self.sar,
            4 => &mut self.dar,
            5 => &mut self.tr3,
            6 => &mut self.br2,
            _ => &mut self.llr,
        }
    }
}

fn config(s: impl Into<String>) -> EmuError {
    EmuError::Config(s.into())
}

fn field(word: u32, lsb: u32, width: u32) -> u32 {
    (word >> lsb) & ((1 << width) - 1)
}

fn bit(word: u32, n: u32) -> bool {
    word & (1 << n) != 0
}

/// One side (source or destination) of a block, decoded.
#[derive(Clone, Copy, Debug)]
struct Side {
    name: &'static str,
    width: u32,
    incr: bool,
    burst: u32,
    /// The signed offset after each programmed burst.
    burst_offset: i64,
    /// The signed offset at the end of each block.
    block_offset: i64,
}

impl Side {
    /// Checks this side's start address and offsets against its data width and the block size.
    fn check(&self, addr: u32, bndt: u32) -> Result<(), EmuError> {
        let n = self.name;
        let w = self.width;
        if !addr.is_multiple_of(w) {
            return Err(config(format!(
                "USEF: {n} address {addr:#010x} is not aligned to its data width ({w} bytes)"
            )));
        }
        if self.burst_offset % i64::from(w) != 0 {
            return Err(config(format!(
                "USEF: {n} burst address offset {} is not a multiple of its data width ({w} bytes)",
                self.burst_offset.abs()
            )));
        }
        if self.block_offset % i64::from(w) != 0 {
            return Err(config(format!(
                "USEF: {n} block repeated address offset {} is not a multiple of its data width ({w} bytes)",
                self.block_offset.abs()
            )));
        }
        let burst_bytes = self.burst * w;
        if self.burst_offset != 0 && !bndt.is_multiple_of(burst_bytes) {
            return Err(config(format!(
                "BNDT {bndt} is not a whole number of {n} bursts ({burst_bytes} bytes) while the {n} \
                 burst offset is {}: the shortened last burst is not supported by this model",
                self.burst_offset.abs()
            )));
        }
        Ok(())
    }
}

fn signed(value: u32, subtract: bool) -> i64 {
    if subtract {
        -i64::from(value)
    } else {
        i64::from(value)
    }
}

fn add(addr: u32, offset: i64) -> u32 {
    // Offsets are at most 16 bits: the sum wraps like the engine's 32-bit adder.
    addr.wrapping_add(offset as u32)
}

fn width(code: u32, which: &str) -> Result<u32, EmuError> {
    match code {
        0 => Ok(1),
        1 => Ok(2),
        2 => Ok(4),
        _ => Err(config(format!(
            "USEF: {which} = 3 (8 bytes) is not supported by the GPDMA"
        ))),
    }
}

/// Checks the register file and runs its `BRC` + 1 blocks, leaving `CxSAR` / `CxDAR` where the
/// engine leaves them.
fn run_blocks(bus: &mut Bus, r: &mut Regs, steps: &mut Steps) -> Result<(), EmuError> {
    let (tr1, tr2, br1) = (r.tr1, r.tr2, r.br1);
    if !bit(tr2, 9) {
        return Err(config(
            "CxTR2.SWREQ = 0: hardware-requested transfers are not modelled (memory-to-memory needs SWREQ = 1)",
        ));
    }
    let trigpol = field(tr2, 24, 2);
    if trigpol != 0 {
        return Err(config(format!(
            "CxTR2.TRIGPOL = {trigpol}: triggered transfers are not modelled"
        )));
    }
    let sdw = width(field(tr1, 0, 2), "CxTR1.SDW_LOG2")?;
    let ddw = width(field(tr1, 16, 2), "CxTR1.DDW_LOG2")?;
    let bndt = field(br1, 0, 16);
    let brc = field(br1, 16, 11);
    if !bndt.is_multiple_of(sdw) {
        return Err(config(format!(
            "USEF: BNDT {bndt} is not a multiple of the source data width ({sdw} bytes)"
        )));
    }
    if sdw != ddw {
        if !bit(tr1, 12) {
            return Err(config(format!(
                "CxTR1.PAM = {} with source width {sdw} != destination width {ddw}: truncation or \
                 padding is not modelled (only PAM = 1x, packing/unpacking)",
                field(tr1, 11, 2)
            )));
        }
        if !bndt.is_multiple_of(ddw) {
            return Err(config(format!(
                "USEF: BNDT {bndt} is not a multiple of the destination data width ({ddw} bytes) when packing"
            )));
        }
    }
    let src = Side {
        name: "source",
        width: sdw,
        incr: bit(tr1, 3),
        burst: field(tr1, 4, 6) + 1,
        burst_offset: signed(field(r.tr3, 0, 13), bit(br1, 28)),
        block_offset: signed(field(r.br2, 0, 16), bit(br1, 30)),
    };
    let dst = Side {
        name: "destination",
        width: ddw,
        incr: bit(tr1, 19),
        burst: field(tr1, 20, 6) + 1,
        burst_offset: signed(field(r.tr3, 16, 13), bit(br1, 29)),
        block_offset: signed(field(r.br2, 16, 16), bit(br1, 31)),
    };
    src.check(r.sar, bndt)?;
    dst.check(r.dar, bndt)?;
    let (sbx, dbx, dhx) = (bit(tr1, 13), bit(tr1, 26), bit(tr1, 27));

    let mut fifo = Vec::with_capacity(bndt as usize);
    for _ in 0..=brc {
        // Source: BNDT bytes in beats of SDW.
        fifo.clear();
        let mut beat = 0;
        while (fifo.len() as u32) < bndt {
            steps.take()?;
            let mut v = bus.read(r.sar, sdw as usize)?;
            if sbx && sdw == 4 {
                v.swap(1, 2);
            }
            fifo.extend_from_slice(&v);
            if src.incr {
                r.sar = r.sar.wrapping_add(sdw);
            }
            beat += 1;
            if beat == src.burst {
                r.sar = add(r.sar, src.burst_offset);
                beat = 0;
            }
        }
        r.sar = add(r.sar, src.block_offset);
        // Destination: the same bytes in beats of DDW.
        let mut beat = 0;
        for chunk in fifo.chunks(ddw as usize) {
            steps.take()?;
            let mut v = chunk.to_vec();
            if dhx && ddw == 4 {
                v.swap(0, 2);
                v.swap(1, 3);
            }
            if dbx && ddw >= 2 {
                for pair in v.chunks_mut(2) {
                    pair.swap(0, 1);
                }
            }
            bus.write(r.dar, &v)?;
            if dst.incr {
                r.dar = r.dar.wrapping_add(ddw);
            }
            beat += 1;
            if beat == dst.burst {
                r.dar = add(r.dar, dst.burst_offset);
                beat = 0;
            }
        }
        r.dar = add(r.dar, dst.block_offset);
    }
    Ok(())
}

/// Runs the linked list whose first item (the channel's registers) is at `first_item_addr` and
/// returns how many items moved data.
pub fn run(bus: &mut Bus, first_item_addr: u32) -> Result<usize, EmuError> {
    run_budget(bus, first_item_addr, STEP_BUDGET)
}

fn run_budget(bus: &mut Bus, first_item_addr: u32, budget: u64) -> Result<usize, EmuError> {
    if !first_item_addr.is_multiple_of(4) {
        return Err(config(format!(
            "the first item {first_item_addr:#010x} is not 32-bit aligned"
        )));
    }
    let lbar = first_item_addr & 0xFFFF_0000;
    let b: [u8; 32] = bus.read_array(first_item_addr)?;
    let mut words = [0u32; 8];
    for (i, w) in words.iter_mut().enumerate() {
        *w = le_u32(&b, 4 * i);
    }
    let mut r = Regs::from_words(words);
    let mut steps = Steps::new(budget);
    let mut items = 0usize;
    let mut first = true;
    loop {
        steps.take()?;
        let bndt = field(r.br1, 0, 16);
        if bndt == 0 {
            if !first {
                return Err(config(
                    "BNDT = 0 in a linked-list item after the first is not supported by this model",
                ));
            }
        } else {
            // The programmed CxBR1 is what the engine restores when an item does not update it.
            let programmed_br1 = r.br1;
            run_blocks(bus, &mut r, &mut steps)?;
            r.br1 = programmed_br1;
            items += 1;
        }
        first = false;
        let llr = r.llr;
        if llr == 0 {
            return Ok(items);
        }
        if llr & LLR_RESERVED != 0 {
            return Err(config(format!("CxLLR {llr:#010x} sets reserved bits")));
        }
        let la = llr & LA_MASK;
        if llr & UPDATE_MASK == 0 {
            // The manual's infinite last item: the block is run again and again.
            return Err(EmuError::Runaway);
        }
        if la == 0 {
            return Err(config(format!(
                "CxLLR {llr:#010x} has update bits set but LA = 0: the engine would load the next item \
                 from offset 0 of the linked-list page (only CxLLR = 0 ends a list)"
            )));
        }
        let mut at = lbar | la;
        for (i, &u) in UPDATE_BITS.iter().enumerate() {
            if llr & u != 0 {
                *r.slot(i) = bus.read_u32(at)?;
                at = at.wrapping_add(4);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: u32 = 0x2000_0000;
    const DST: u32 = 0x2001_0000;
    const LIST: u32 = 0x2003_0000;
    const ALL_UPDATES: u32 = UPDATE_MASK;

    /// The fields of one item, all eight words.
    #[derive(Clone, Copy)]
    struct I {
        sdw: u32,
        sinc: bool,
        sbl: u32,
        pam: u32,
        sbx: bool,
        ddw: u32,
        dinc: bool,
        dbl: u32,
        dbx: bool,
        dhx: bool,
        tr2: u32,
        bndt: u32,
        brc: u32,
        sdec: bool,
        ddec: bool,
        brsdec: bool,
        brddec: bool,
        sar: u32,
        dar: u32,
        sao: u32,
        dao: u32,
        brsao: u32,
        brdao: u32,
        llr: u32,
    }

    const SWREQ: u32 = 1 << 9;

    impl I {
        /// A 1-D copy of `bndt` bytes in single beats of `1 << w` bytes, last item.
        fn copy(w: u32, bndt: u32) -> Self {
            I {
                sdw: w,
                sinc: true,
                sbl: 1,
                pam: 0,
                sbx: false,
                ddw: w,
                dinc: true,
                dbl: 1,
                dbx: false,
                dhx: false,
                tr2: SWREQ,
                bndt,
                brc: 0,
                sdec: false,
                ddec: false,
                brsdec: false,
                brddec: false,
                sar: SRC,
                dar: DST,
                sao: 0,
                dao: 0,
                brsao: 0,
                brdao: 0,
                llr: 0,
            }
        }

        fn words(&self) -> [u32; 8] {
            let b = |x: bool, n: u32| u32::from(x) << n;
            let tr1 = self.sdw
                | b(self.sinc, 3)
                | ((self.sbl - 1) << 4)
                | (self.pam << 11)
                | b(self.sbx, 13)
                | (self.ddw << 16)
                | b(self.dinc, 19)
                | ((self.dbl - 1) << 20)
                | b(self.dbx, 26)
                | b(self.dhx, 27);
            let br1 = self.bndt
                | (self.brc << 16)
                | b(self.sdec, 28)
                | b(self.ddec, 29)
                | b(self.brsdec, 30)
                | b(self.brddec, 31);
            let tr3 = self.sao | (self.dao << 16);
            let br2 = self.brsao | (self.brdao << 16);
            [tr1, self.tr2, br1, self.sar, self.dar, tr3, br2, self.llr]
        }
    }

    /// The list region holds `items` as (offset in the list region, words).
    fn bus_with(items: &[(u32, Vec<u32>)], src_len: usize, dst_len: usize) -> Bus {
        let mut bus = Bus::new();
        bus.add(SRC, (0..src_len).map(|i| i as u8).collect());
        bus.add(DST, vec![0; dst_len]);
        let mut list = vec![0u8; 0x400];
        for (off, words) in items {
            for (i, w) in words.iter().enumerate() {
                let at = *off as usize + 4 * i;
                list[at..at + 4].copy_from_slice(&w.to_le_bytes());
            }
        }
        bus.add(LIST, list);
        bus
    }

    fn one(item: I, src_len: usize, dst_len: usize) -> Bus {
        bus_with(&[(0, item.words().to_vec())], src_len, dst_len)
    }

    fn expect_config(item: I, needle: &str) {
        let mut bus = one(item, 256, 256);
        match run(&mut bus, LIST) {
            Err(EmuError::Config(s)) => assert!(s.contains(needle), "{s:?} lacks {needle:?}"),
            other => panic!("expected a configuration error with {needle:?}, got {other:?}"),
        }
    }

    #[test]
    fn one_block_copy() {
        for w in 0..3 {
            let mut bus = one(I::copy(w, 16), 16, 16);
            assert_eq!(run(&mut bus, LIST), Ok(1));
            assert_eq!(bus.region(DST), bus.region(SRC));
            assert!(bus.writes(DST).iter().all(|&n| n == 1));
        }
    }

    #[test]
    fn burst_offset_gathers_a_sub_block() {
        // Source 4 rows x 16 bytes; copy rows 1..4, bytes 4..12 as bursts of 4 half-words (one
        // row each); SAO = 16 - 8 skips to the next row after each burst.
        let it = I {
            sdw: 1,
            ddw: 1,
            sbl: 4,
            sar: SRC + 16 + 4,
            sao: 8,
            bndt: 24,
            ..I::copy(1, 0)
        };
        let mut bus = one(it, 64, 24);
        assert_eq!(run(&mut bus, LIST), Ok(1));
        let src = bus.region(SRC).to_vec();
        let want: Vec<u8> = (1..4)
            .flat_map(|r| src[r * 16 + 4..r * 16 + 12].to_vec())
            .collect();
        assert_eq!(bus.region(DST), &want[..]);
    }

    #[test]
    fn fixed_address_bursts_with_offset_gather_a_column() {
        // SINC = 0, single-beat bursts: each read at the same address, then + SAO: a column of
        // a 4 x 4 word matrix (stride 16).
        let it = I {
            sinc: false,
            sar: SRC + 8,
            sao: 16,
            ..I::copy(2, 16)
        };
        let mut bus = one(it, 64, 16);
        assert_eq!(run(&mut bus, LIST), Ok(1));
        let src = bus.region(SRC).to_vec();
        let want: Vec<u8> = (0..4)
            .flat_map(|r| src[r * 16 + 8..r * 16 + 12].to_vec())
            .collect();
        assert_eq!(bus.region(DST), &want[..]);
    }

    #[test]
    fn block_repeat_adds_the_burst_offset_and_the_block_offset() {
        // A 2 x 2 x 4-byte box out of a 3 planes x 4 rows x 8 bytes volume: bytes 2..6 of rows
        // 1..3 of planes 0..2. Each block is one plane's 2 rows (bursts of 4 bytes, SAO = 4 to
        // the next row); after the block's last burst SAO is applied too, then BRSAO moves to
        // the next plane: 32 - 2 * 8 = 16 more.
        let it = I {
            sdw: 0,
            ddw: 0,
            sbl: 4,
            sar: SRC + 8 + 2,
            sao: 4,
            bndt: 8,
            brc: 2,
            brsao: 16,
            ..I::copy(0, 0)
        };
        let mut bus = one(it, 96, 24);
        assert_eq!(run(&mut bus, LIST), Ok(1));
        let src = bus.region(SRC).to_vec();
        let mut want = Vec::new();
        for p in 0..3 {
            for r in 1..3 {
                let at = p * 32 + r * 8 + 2;
                want.extend_from_slice(&src[at..at + 4]);
            }
        }
        assert_eq!(bus.region(DST), &want[..]);
        assert!(bus.writes(DST).iter().all(|&n| n == 1));
    }

    #[test]
    fn decrementing_offsets_reverse_rows_and_blocks() {
        // Rows of 4 bytes read last row first: after each 4-byte burst, SDEC subtracts 8
        // (net -4). Destination blocks go backwards too: each block is 2 rows (8 bytes), then
        // BRDDEC subtracts 16 (net -8).
        let it = I {
            sdw: 0,
            ddw: 0,
            sbl: 4,
            sar: SRC + 12,
            sao: 8,
            sdec: true,
            bndt: 8,
            brc: 1,
            dar: DST + 8,
            brdao: 16,
            brddec: true,
            ..I::copy(0, 0)
        };
        let mut bus = one(it, 16, 16);
        assert_eq!(run(&mut bus, LIST), Ok(1));
        let src = bus.region(SRC).to_vec();
        // Block 0 reads rows 3, 2 to DST+8; block 1 reads rows 1, 0 to DST+0.
        let want: Vec<u8> = [&src[4..8], &src[0..4], &src[12..16], &src[8..12]].concat();
        assert_eq!(bus.region(DST), &want[..]);
    }

    #[test]
    fn destination_burst_offset_scatters() {
        // Dense source, destination rows of 2 words with a gap of 8 bytes: DBL = 2, DAO = 8.
        let it = I {
            dbl: 2,
            dao: 8,
            ..I::copy(2, 16)
        };
        let mut bus = one(it, 16, 32);
        assert_eq!(run(&mut bus, LIST), Ok(1));
        let (src, dst) = (bus.region(SRC).to_vec(), bus.region(DST));
        assert_eq!(&dst[0..8], &src[0..8]);
        assert_eq!(&dst[16..24], &src[8..16]);
        assert_eq!(bus.writes(DST).iter().sum::<u32>(), 16);
    }

    #[test]
    fn linked_list_of_two_items() {
        // Item 0 (the registers) copies bytes 0..8 to 8..16 and links to the item at offset
        // 0x100; that one copies 8..16 to 0..8 and ends the list.
        let a = I {
            dar: DST + 8,
            llr: ALL_UPDATES | 0x100,
            ..I::copy(1, 8)
        };
        let b = I {
            sar: SRC + 8,
            ..I::copy(2, 8)
        };
        let mut bus = bus_with(
            &[(0, a.words().to_vec()), (0x100, b.words().to_vec())],
            16,
            16,
        );
        assert_eq!(run(&mut bus, LIST), Ok(2));
        let src = bus.region(SRC).to_vec();
        assert_eq!(bus.region(DST), &[&src[8..16], &src[0..8]].concat()[..]);
    }

    #[test]
    fn partial_update_keeps_the_advanced_source_address() {
        // The second item updates only BR1, DAR and LLR (three words in memory): the source goes
        // on from where the first block left it.
        let a = I {
            llr: (1 << 29) | (1 << 27) | (1 << 16) | 0x40,
            ..I::copy(0, 4)
        };
        let b = I {
            dar: DST + 12,
            bndt: 4,
            ..I::copy(0, 4)
        };
        let bw = b.words();
        let mut bus = bus_with(
            &[(0, a.words().to_vec()), (0x40, vec![bw[2], bw[4], 0])],
            8,
            16,
        );
        assert_eq!(run(&mut bus, LIST), Ok(2));
        let (src, dst) = (bus.region(SRC).to_vec(), bus.region(DST));
        assert_eq!(&dst[0..4], &src[0..4]);
        assert_eq!(&dst[12..16], &src[4..8]);
    }

    #[test]
    fn br1_is_restored_when_not_updated() {
        // The second item updates SAR, DAR and LLR only: BNDT = 4 again.
        let a = I {
            llr: (1 << 28) | (1 << 27) | (1 << 16) | 0x40,
            ..I::copy(0, 4)
        };
        let mut bus = bus_with(
            &[(0, a.words().to_vec()), (0x40, vec![SRC + 8, DST + 8, 0])],
            16,
            16,
        );
        assert_eq!(run(&mut bus, LIST), Ok(2));
        assert_eq!(bus.writes(DST).iter().sum::<u32>(), 8);
        assert_eq!(&bus.region(DST)[8..12], &[8, 9, 10, 11]);
    }

    #[test]
    fn null_first_item_loads_the_next() {
        let a = I {
            llr: ALL_UPDATES | 0x20,
            ..I::copy(2, 0)
        };
        let b = I::copy(2, 8);
        let mut bus = bus_with(&[(0, a.words().to_vec()), (0x20, b.words().to_vec())], 8, 8);
        assert_eq!(run(&mut bus, LIST), Ok(1));
        assert_eq!(bus.region(DST), bus.region(SRC));
        // And a lone null item moves nothing.
        let mut bus = one(I::copy(2, 0), 8, 8);
        assert_eq!(run(&mut bus, LIST), Ok(0));
    }

    #[test]
    fn runaways() {
        // The infinite last item: no update bits, LA != 0.
        let mut bus = one(
            I {
                llr: 0x20,
                ..I::copy(2, 8)
            },
            8,
            8,
        );
        assert_eq!(run(&mut bus, LIST), Err(EmuError::Runaway));
        // ULL = 0: the same item is loaded again and again.
        let a = I {
            llr: (1 << 28) | (1 << 27) | 0x40,
            ..I::copy(0, 4)
        };
        let mut bus = bus_with(&[(0, a.words().to_vec()), (0x40, vec![SRC, DST])], 8, 8);
        assert_eq!(run_budget(&mut bus, LIST, 1000), Err(EmuError::Runaway));
        // A list linking to itself.
        let a = I {
            llr: ALL_UPDATES,
            ..I::copy(0, 4)
        };
        let mut words = a.words();
        words[7] |= 0x40;
        let mut bus = bus_with(&[(0, words.to_vec()), (0x40, words.to_vec())], 8, 8);
        assert_eq!(run_budget(&mut bus, LIST, 1000), Err(EmuError::Runaway));
    }

    #[test]
    fn packing_unpacking_and_byte_exchanges() {
        // Bytes in, words out (PAM = 2): the byte stream is unchanged.
        let it = I {
            sdw: 0,
            ddw: 2,
            pam: 2,
            ..I::copy(0, 8)
        };
        let mut bus = one(it, 8, 8);
        assert_eq!(run(&mut bus, LIST), Ok(1));
        assert_eq!(bus.region(DST), bus.region(SRC));
        // Words in, half-words out (PAM = 3).
        let it = I {
            sdw: 2,
            ddw: 1,
            pam: 3,
            ..I::copy(0, 8)
        };
        let mut bus = one(it, 8, 8);
        assert_eq!(run(&mut bus, LIST), Ok(1));
        assert_eq!(bus.region(DST), bus.region(SRC));
        // SBX, DBX, DHX on words.
        for (sbx, dbx, dhx, want) in [
            (true, false, false, [0, 2, 1, 3]),
            (false, true, false, [1, 0, 3, 2]),
            (false, false, true, [2, 3, 0, 1]),
            (false, true, true, [3, 2, 1, 0]),
        ] {
            let it = I {
                sbx,
                dbx,
                dhx,
                ..I::copy(2, 4)
            };
            let mut bus = one(it, 4, 4);
            assert_eq!(run(&mut bus, LIST), Ok(1));
            assert_eq!(bus.region(DST), &want);
        }
        // On narrower widths they do nothing (DBX swaps half-word bytes).
        let it = I {
            sbx: true,
            dhx: true,
            ..I::copy(1, 4)
        };
        let mut bus = one(it, 4, 4);
        assert_eq!(run(&mut bus, LIST), Ok(1));
        assert_eq!(bus.region(DST), &[0, 1, 2, 3]);
    }

    #[test]
    fn configuration_errors() {
        let w = I::copy(2, 16);
        expect_config(I { sdw: 3, ..w }, "SDW_LOG2 = 3");
        expect_config(I { ddw: 3, ..w }, "DDW_LOG2 = 3");
        expect_config(I { bndt: 6, ..w }, "USEF: BNDT 6");
        expect_config(I { sar: SRC + 2, ..w }, "source address");
        expect_config(I { dar: DST + 1, ..w }, "destination address");
        expect_config(I { sao: 6, ..w }, "source burst address offset");
        expect_config(I { dao: 2, ..w }, "destination burst address offset");
        expect_config(I { brsao: 1, ..w }, "source block repeated");
        expect_config(I { brdao: 2, ..w }, "destination block repeated");
        expect_config(I { tr2: 0, ..w }, "SWREQ = 0");
        expect_config(
            I {
                tr2: SWREQ | (1 << 24),
                ..w
            },
            "TRIGPOL = 1",
        );
        expect_config(
            I {
                ddw: 1,
                pam: 0,
                ..w
            },
            "PAM = 0",
        );
        expect_config(
            I {
                ddw: 1,
                pam: 1,
                ..w
            },
            "PAM = 1",
        );
        expect_config(
            I {
                sdw: 0,
                ddw: 2,
                pam: 2,
                bndt: 6,
                ..w
            },
            "destination data width",
        );
        expect_config(
            I {
                sbl: 4,
                sao: 4,
                bndt: 24,
                ..w
            },
            "whole number of source bursts",
        );
        expect_config(
            I {
                dbl: 4,
                dao: 4,
                bndt: 24,
                ..w
            },
            "whole number of destination bursts",
        );
        expect_config(
            I {
                llr: ALL_UPDATES,
                ..w
            },
            "LA = 0",
        );
        expect_config(
            I {
                llr: ALL_UPDATES | 0x40 | 1,
                ..w
            },
            "reserved",
        );
        expect_config(
            I {
                llr: ALL_UPDATES | 0x40 | (1 << 20),
                ..w
            },
            "reserved",
        );
        // A void item after the first.
        let a = I {
            llr: ALL_UPDATES | 0x40,
            ..w
        };
        let mut bus = bus_with(
            &[
                (0, a.words().to_vec()),
                (0x40, I::copy(2, 0).words().to_vec()),
            ],
            16,
            16,
        );
        assert!(matches!(run(&mut bus, LIST), Err(EmuError::Config(s)) if s.contains("BNDT = 0")));
        // A misaligned first item.
        let mut bus = one(w, 16, 16);
        assert!(matches!(run(&mut bus, LIST + 2), Err(EmuError::Config(_))));
        // With no burst offset a shortened last burst is fine.
        let mut bus = one(
            I {
                sbl: 3,
                dbl: 5,
                ..w
            },
            16,
            16,
        );
        assert_eq!(run(&mut bus, LIST), Ok(1));
        assert_eq!(bus.region(DST), bus.region(SRC));
    }

    #[test]
    fn ignored_fields() {
        // REQSEL, DREQ, BREQ, TRIGM, TRIGSEL, TCEM and the port / security bits change nothing
        // for a software-requested copy.
        let tr2 = SWREQ | 0x7F | (1 << 10) | (1 << 11) | (3 << 14) | (0x3F << 16) | (3 << 30);
        let mut words = I {
            tr2,
            ..I::copy(2, 16)
        }
        .words();
        words[0] |= (1 << 14) | (1 << 15) | (1 << 30) | (1 << 31);
        let mut bus = bus_with(&[(0, words.to_vec())], 16, 16);
        assert_eq!(run(&mut bus, LIST), Ok(1));
        assert_eq!(bus.region(DST), bus.region(SRC));
    }

    #[test]
    fn unmapped_accesses_are_reported() {
        let mut bus = one(
            I {
                dar: DST + 12,
                ..I::copy(2, 8)
            },
            16,
            16,
        );
        assert_eq!(
            run(&mut bus, LIST),
            Err(EmuError::Unmapped {
                addr: DST + 16,
                len: 4
            })
        );
    }
}
