//! An interpreter of the microcode of one channel thread of the Arm PrimeCell DMA-330 (PL330)
//! DMA controller, for memory-to-memory programs.
//!
//! What it models, from the DMA-330 technical reference manual's instruction set and channel
//! control register descriptions:
//!
//! * The channel thread starts at `pc` and fetches little-endian instructions from the bus:
//!   `DMAMOV` (0xBC, then a register byte, 0 `SAR` / 1 `CCR` / 2 `DAR`, then a 32-bit value),
//!   `DMALP` (0x20 | lc << 1, then the iteration count minus 1), `DMALPEND` (0x38 | lc << 2,
//!   then the backwards jump: the loop body starts that many bytes before the `DMALPEND`; the
//!   loop counter is decremented and the jump taken while it is not 0), `DMALD` (0x04),
//!   `DMAST` (0x08), `DMASTZ` (0x0C), `DMAADDH` (0x54 | ra << 1, then a 16-bit value added to
//!   `SAR` (ra = 0) or `DAR` (ra = 1)), `DMAADNH` (0x5C | ra << 1: the 16-bit value extended with
//!   ones, i.e. a negative offset), `DMANOP` (0x18), `DMARMB` (0x12), `DMAWMB` (0x13), `DMASEV`
//!   (0x34, then the event number: no effect on data) and `DMAEND` (0x00).
//! * `CCR`: `SI` 0, `SB` (source burst size, 2^SB bytes a beat) 3:1, `SL` (source burst length
//!   minus 1) 7:4, `SP` 10:8, `SC` 13:11, `DI` 14, `DB` 17:15, `DL` 21:18, `DP` 24:22, `DC` 27:25,
//!   `ES` (endian swap size) 30:28.
//! * `DMALD` reads one burst of `SL` + 1 beats of 2^`SB` bytes at `SAR` (consecutive addresses if
//!   `SI`, else the same address each beat) into the channel's MFIFO, and then `SAR` has advanced
//!   by the burst's bytes if `SI`. `DMAST` writes one burst of `DL` + 1 beats of 2^`DB` bytes from
//!   the MFIFO at `DAR` likewise; `DMASTZ` writes such a burst of zeros without using the MFIFO.
//! * Address arithmetic wraps at 32 bits.
//!
//! What it refuses ([`EmuError::Config`]): a `DMALD` / `DMAST` before `CCR` was set, a `DMALPEND`
//! whose loop counter was never set, `ES` != 0 (endian swapping is not modelled), beats wider than
//! 16 bytes (beyond the widest data bus), a beat address not aligned to the beat size (the DMAC
//! handles unaligned transfers, but this model does not), an incrementing burst that crosses a
//! 4 KiB boundary (an AXI rule the DMAC leaves to the program), a `DMAST` with fewer bytes in the
//! MFIFO than its burst needs, a `DMAEND` with data still in the MFIFO (data read and never
//! written), the conditional forms (`DMALDS`/`B`, `DMASTS`/`B`, `DMALPENDS`/`B`), the
//! peripheral and event instructions (`DMAWFP`, `DMALDP`, `DMASTP`, `DMAFLUSHP`, `DMAWFE`),
//! `DMAKILL`, the manager-only `DMAGO`, a `DMAMOV` to another register, and undefined opcodes.
//! A `DMALPFE` (a loop ended only by a peripheral's last request) never ends in memory-to-memory
//! use and is reported as [`EmuError::Runaway`], as is a program that passes the step budget.
//!
//! Not modelled: the MFIFO's size (implementation-defined), the protection and cache attributes
//! (`SP`, `SC`, `DP`, `DC`), the manager thread, `DMAGO`'s secure / non-secure start, watchdogs,
//! faults other than the ones above, bus errors other than unmapped accesses.
//!
//! Returns the number of instructions executed, `DMAEND` included.

use std::collections::VecDeque;

use super::bus::{Bus, EmuError, Steps};

/// The most instructions (plus beats) a run may perform before it is reported as
/// [`EmuError::Runaway`].
pub const STEP_BUDGET: u64 = 10_000_000;

/// The widest beat this model allows (a 128-bit data bus).
pub const MAX_BEAT: u32 = 16;

fn config(s: impl Into<String>) -> EmuError {
    EmuError::Config(s.into())
}

/// One side of `CCR`, decoded.
#[derive(Clone, Copy, Debug)]
struct Burst {
    incr: bool,
    beat: u32,
    beats: u32,
}

impl Burst {
    fn decode(ccr: u32, dest: bool) -> Result<Self, EmuError> {
        let (inc_bit, size_lsb, len_lsb) = if dest { (14, 15, 18) } else { (0, 1, 4) };
        let es = (ccr >> 28) & 0x7;
        if es != 0 {
            return Err(config(format!(
                "CCR.ES = {es}: endian swapping is not supported by this model"
            )));
        }
        let beat = 1u32 << ((ccr >> size_lsb) & 0x7);
        if beat > MAX_BEAT {
            return Err(config(format!(
                "CCR burst size of {beat} bytes a beat is wider than this model allows"
            )));
        }
        Ok(Burst {
            incr: ccr & (1 << inc_bit) != 0,
            beat,
            beats: ((ccr >> len_lsb) & 0xF) + 1,
        })
    }

    /// Checks the burst at `addr` and returns the beat addresses' step.
    fn check(&self, addr: u32, what: &str) -> Result<u32, EmuError> {
        if !addr.is_multiple_of(self.beat) {
            return Err(config(format!(
                "{what} {addr:#010x} is not aligned to the beat size ({} bytes): unaligned transfers are not modelled",
                self.beat
            )));
        }
        if self.incr {
            let bytes = u64::from(self.beat) * u64::from(self.beats);
            let first_page = u64::from(addr) >> 12;
            let last_page = (u64::from(addr) + bytes - 1) >> 12;
            if first_page != last_page {
                return Err(config(format!(
                    "the {bytes}-byte burst at {what} {addr:#010x} crosses a 4 KiB boundary (AXI forbids it)"
                )));
            }
            Ok(self.beat)
        } else {
            Ok(0)
        }
    }
}

/// Runs the channel program at `pc` until `DMAEND` and returns how many instructions ran.
pub fn run(bus: &mut Bus, pc: u32) -> Result<usize, EmuError> {
    run_budget(bus, pc, STEP_BUDGET)
}

fn run_budget(bus: &mut Bus, mut pc: u32, budget: u64) -> Result<usize, EmuError> {
    let mut steps = Steps::new(budget);
    let mut sar = 0u32;
    let mut dar = 0u32;
    let mut ccr: Option<u32> = None;
    let mut lc: [Option<u8>; 2] = [None, None];
    let mut mfifo: VecDeque<u8> = VecDeque::new();
    let mut executed = 0usize;
    loop {
        steps.take()?;
        executed += 1;
        let at = pc;
        let op = bus.read(at, 1)?[0];
        match op {
            0x00 => {
                if !mfifo.is_empty() {
                    return Err(config(format!(
                        "DMAEND at {at:#010x} with {} bytes still in the MFIFO (read, never written)",
                        mfifo.len()
                    )));
                }
                return Ok(executed);
            }
            0x12 | 0x13 | 0x18 => pc = pc.wrapping_add(1),
            0x34 => pc = pc.wrapping_add(2),
            0x04 => {
                let c =
                    ccr.ok_or_else(|| config(format!("DMALD at {at:#010x} before CCR was set")))?;
                let b = Burst::decode(c, false)?;
                let step = b.check(sar, "SAR")?;
                let mut addr = sar;
                for _ in 0..b.beats {
                    steps.take()?;
                    mfifo.extend(bus.read(addr, b.beat as usize)?);
                    addr = addr.wrapping_add(step);
                }
                sar = addr;
                pc = pc.wrapping_add(1);
            }
            0x08 | 0x0C => {
                let zero = op == 0x0C;
                let name = if zero { "DMASTZ" } else { "DMAST" };
                let c =
                    ccr.ok_or_else(|| config(format!("{name} at {at:#010x} before CCR was set")))?;
                let b = Burst::decode(c, true)?;
                let step = b.check(dar, "DAR")?;
                let bytes = (b.beat * b.beats) as usize;
                if !zero && mfifo.len() < bytes {
                    return Err(config(format!(
                        "DMAST at {at:#010x} needs {bytes} bytes but the MFIFO holds {}",
                        mfifo.len()
                    )));
                }
                let mut addr = dar;
                for _ in 0..b.beats {
                    steps.take()?;
                    let v: Vec<u8> = if zero {
                        vec![0; b.beat as usize]
                    } else {
                        mfifo.drain(..b.beat as usize).collect()
                    };
                    bus.write(addr, &v)?;
                    addr = addr.wrapping_add(step);
                }
                dar = addr;
                pc = pc.wrapping_add(1);
            }
            0x20 | 0x22 => {
                let n = usize::from(op >> 1 & 1);
                lc[n] = Some(bus.read(at.wrapping_add(1), 1)?[0]);
                pc = pc.wrapping_add(2);
            }
            0x38..=0x3F => {
                if op & 1 != 0 {
                    return Err(config(format!(
                        "conditional DMALPEND{} at {at:#010x} is not supported by this model",
                        if op & 2 != 0 { "B" } else { "S" }
                    )));
                }
                let n = usize::from(op >> 2 & 1);
                let jump = bus.read(at.wrapping_add(1), 1)?[0];
                let count = lc[n].ok_or_else(|| {
                    config(format!(
                        "DMALPEND at {at:#010x} uses loop counter {n}, never set"
                    ))
                })?;
                if count != 0 {
                    lc[n] = Some(count - 1);
                    pc = at.wrapping_sub(u32::from(jump));
                } else {
                    pc = pc.wrapping_add(2);
                }
            }
            0x28 | 0x2A | 0x2C | 0x2E => {
                // DMALPFE: ends only when a peripheral signals its last request.
                return Err(EmuError::Runaway);
            }
            0x54 | 0x56 | 0x5C | 0x5E => {
                let b = bus.read(at.wrapping_add(1), 2)?;
                let imm = u32::from(u16::from_le_bytes([b[0], b[1]]));
                let value = if op & 0x08 != 0 {
                    imm | 0xFFFF_0000
                } else {
                    imm
                };
                if op & 2 == 0 {
                    sar = sar.wrapping_add(value);
                } else {
                    dar = dar.wrapping_add(value);
                }
                pc = pc.wrapping_add(3);
            }
            0xBC => {
                let b = bus.read(at.wrapping_add(1), 5)?;
                let value = u32::from_le_bytes([b[1], b[2], b[3], b[4]]);
                match b[0] {
                    0 => sar = value,
                    1 => ccr = Some(value),
                    2 => dar = value,
                    r => {
                        return Err(config(format!(
                            "DMAMOV at {at:#010x} to register {r}: only SAR, CCR, DAR exist"
                        )));
                    }
                }
                pc = pc.wrapping_add(6);
            }
            0x05 | 0x07 | 0x09 | 0x0B => {
                return Err(config(format!(
                    "conditional DMALD/DMAST (opcode {op:#04x}) at {at:#010x} is not supported by this model"
                )));
            }
            0x25 | 0x27 | 0x29 | 0x2B | 0x2D | 0x2F | 0x30 | 0x31 | 0x32 | 0x35 | 0x36 => {
                return Err(config(format!(
                    "peripheral or event instruction (opcode {op:#04x}) at {at:#010x} is not modelled"
                )));
            }
            0x01 => return Err(config(format!("DMAKILL at {at:#010x}"))),
            0xA0 | 0xA2 => {
                return Err(config(format!(
                    "DMAGO at {at:#010x} is a manager-thread instruction"
                )));
            }
            _ => {
                return Err(config(format!(
                    "undefined instruction {op:#04x} at {at:#010x}"
                )));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: u32 = 0x4000_0000;
    const DST: u32 = 0x4001_0000;
    const CODE: u32 = 0x4002_0000;

    /// A tiny assembler.
    #[derive(Default)]
    struct Asm {
        code: Vec<u8>,
        loops: Vec<usize>,
    }

    impl Asm {
        fn mov(&mut self, reg: u8, v: u32) -> &mut Self {
            self.code.extend([0xBC, reg]);
            self.code.extend(v.to_le_bytes());
            self
        }
        fn sar(&mut self, v: u32) -> &mut Self {
            self.mov(0, v)
        }
        fn ccr(&mut self, v: u32) -> &mut Self {
            self.mov(1, v)
        }
        fn dar(&mut self, v: u32) -> &mut Self {
            self.mov(2, v)
        }
        fn ld(&mut self) -> &mut Self {
            self.code.push(0x04);
            self
        }
        fn st(&mut self) -> &mut Self {
            self.code.push(0x08);
            self
        }
        fn stz(&mut self) -> &mut Self {
            self.code.push(0x0C);
            self
        }
        fn lp(&mut self, lc: u8, iterations: u32) -> &mut Self {
            assert!((1..=256).contains(&iterations));
            self.code.extend([0x20 | lc << 1, (iterations - 1) as u8]);
            self.loops.push(self.code.len());
            self
        }
        fn lpend(&mut self, lc: u8) -> &mut Self {
            let start = self.loops.pop().unwrap();
            let jump = self.code.len() - start;
            self.code.extend([0x38 | lc << 2, jump as u8]);
            self
        }
        fn addh(&mut self, dest: bool, v: u16) -> &mut Self {
            self.code.push(0x54 | u8::from(dest) << 1);
            self.code.extend(v.to_le_bytes());
            self
        }
        fn adnh(&mut self, dest: bool, v: u16) -> &mut Self {
            self.code.push(0x5C | u8::from(dest) << 1);
            self.code.extend(v.to_le_bytes());
            self
        }
        fn raw(&mut self, bytes: &[u8]) -> &mut Self {
            self.code.extend(bytes);
            self
        }
        fn end(&mut self) -> Vec<u8> {
            self.code.push(0x00);
            std::mem::take(&mut self.code)
        }
    }

    /// CCR for incrementing bursts of `len` beats of `1 << size` bytes on both sides.
    fn ccr(size: u32, len: u32) -> u32 {
        1 | (size << 1) | ((len - 1) << 4) | (1 << 14) | (size << 15) | ((len - 1) << 18)
    }

    fn bus_with(code: Vec<u8>, src_len: usize, dst_len: usize) -> Bus {
        let mut bus = Bus::new();
        bus.add(SRC, (0..src_len).map(|i| i as u8).collect());
        bus.add(DST, vec![0; dst_len]);
        bus.add(CODE, code);
        bus
    }

    fn expect_config(code: Vec<u8>, needle: &str) {
        let mut bus = bus_with(code, 256, 256);
        match run(&mut bus, CODE) {
            Err(EmuError::Config(s)) => assert!(s.contains(needle), "{s:?} lacks {needle:?}"),
            other => panic!("expected a configuration error with {needle:?}, got {other:?}"),
        }
    }

    #[test]
    fn one_burst_copy() {
        let code = Asm::default()
            .sar(SRC)
            .dar(DST)
            .ccr(ccr(2, 4))
            .ld()
            .st()
            .end();
        let mut bus = bus_with(code, 16, 16);
        assert_eq!(run(&mut bus, CODE), Ok(6));
        assert_eq!(bus.region(DST), bus.region(SRC));
        assert!(bus.writes(DST).iter().all(|&w| w == 1));
    }

    #[test]
    fn nested_loops_gather_a_sub_block() {
        // Rows 1..4, bytes 4..12 of a 4 x 16-byte matrix: per row 2 bursts of 1 word... as an
        // inner loop of 2 (one 4-byte beat each), then DMAADDH skips the rest of the row.
        let code = Asm::default()
            .sar(SRC + 16 + 4)
            .dar(DST)
            .ccr(ccr(2, 1))
            .lp(1, 3)
            .lp(0, 2)
            .ld()
            .st()
            .lpend(0)
            .addh(false, 8)
            .lpend(1)
            .end();
        let mut bus = bus_with(code, 64, 24);
        assert!(run(&mut bus, CODE).is_ok());
        let src = bus.region(SRC).to_vec();
        let want: Vec<u8> = (1..4)
            .flat_map(|r| src[r * 16 + 4..r * 16 + 12].to_vec())
            .collect();
        assert_eq!(bus.region(DST), &want[..]);
        assert!(bus.writes(DST).iter().all(|&w| w == 1));
    }

    #[test]
    fn loop_of_256_and_instruction_count() {
        // 256 iterations of LD; ST (single bytes): 3 MOVs + LP + 256 * (LD + ST + LPEND) + END.
        let code = Asm::default()
            .sar(SRC)
            .dar(DST)
            .ccr(ccr(0, 1))
            .lp(0, 256)
            .ld()
            .st()
            .lpend(0)
            .end();
        let mut bus = bus_with(code, 256, 256);
        assert_eq!(run(&mut bus, CODE), Ok(3 + 1 + 256 * 3 + 1));
        assert_eq!(bus.region(DST), bus.region(SRC));
    }

    #[test]
    fn negative_offsets_reverse_rows() {
        // Four rows of 4 bytes, last first: after each row's burst, DMAADNH subtracts 8.
        let code = Asm::default()
            .sar(SRC + 12)
            .dar(DST)
            .ccr(ccr(0, 4))
            .lp(0, 4)
            .ld()
            .st()
            .adnh(false, 8u16.wrapping_neg())
            .lpend(0)
            .end();
        let mut bus = bus_with(code, 16, 16);
        assert!(run(&mut bus, CODE).is_ok());
        let src = bus.region(SRC).to_vec();
        let want: Vec<u8> = src.chunks(4).rev().flatten().copied().collect();
        assert_eq!(bus.region(DST), &want[..]);
    }

    #[test]
    fn fixed_addresses_and_different_burst_shapes() {
        // Source fixed (SI = 0): one word read 4 times; destination one burst of 16 bytes.
        let c = (2 << 1) | (3 << 4) | (1 << 14) | (15 << 18);
        let code = Asm::default().sar(SRC + 4).dar(DST).ccr(c).ld().st().end();
        let mut bus = bus_with(code, 16, 16);
        assert!(run(&mut bus, CODE).is_ok());
        assert_eq!(
            bus.region(DST),
            &[4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7, 4, 5, 6, 7]
        );
        // DAR after a burst has advanced; DMAADDH on DAR, then DMASTZ clears a word.
        let code = Asm::default()
            .sar(SRC)
            .dar(DST)
            .ccr(ccr(2, 1))
            .ld()
            .st()
            .addh(true, 4)
            .stz()
            .raw(&[0x18, 0x12, 0x13, 0x34, 0x08])
            .end();
        let mut bus = bus_with(code, 16, 16);
        bus.write(DST + 8, &[9; 4]).unwrap();
        assert!(run(&mut bus, CODE).is_ok());
        assert_eq!(
            &bus.region(DST)[..12],
            &[0, 1, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0]
        );
        assert_eq!(&bus.writes(DST)[4..8], &[0; 4]);
    }

    #[test]
    fn runaways() {
        // DMALPFE.
        let mut bus = bus_with(vec![0x18, 0x28, 0x01], 4, 4);
        assert_eq!(run(&mut bus, CODE), Err(EmuError::Runaway));
        // A budget too small for the program.
        let code = Asm::default()
            .sar(SRC)
            .dar(DST)
            .ccr(ccr(0, 1))
            .lp(0, 256)
            .ld()
            .st()
            .lpend(0)
            .end();
        let mut bus = bus_with(code, 256, 256);
        assert_eq!(run_budget(&mut bus, CODE, 100), Err(EmuError::Runaway));
    }

    #[test]
    fn configuration_errors() {
        let base = || {
            let mut a = Asm::default();
            a.sar(SRC).dar(DST);
            a
        };
        expect_config(base().ld().end(), "before CCR");
        expect_config(base().ccr(ccr(2, 1)).ld().end(), "still in the MFIFO");
        expect_config(base().ccr(ccr(2, 1)).st().end(), "MFIFO holds 0");
        expect_config(base().ccr(ccr(2, 1) | (1 << 28)).ld().st().end(), "ES = 1");
        expect_config(base().ccr(ccr(5, 1)).ld().st().end(), "wider");
        expect_config(base().sar(SRC + 2).ccr(ccr(2, 1)).ld().st().end(), "SAR");
        expect_config(base().dar(DST + 1).ccr(ccr(1, 1)).ld().st().end(), "DAR");
        expect_config(
            base().sar(SRC + 0xFF8).ccr(ccr(2, 4)).ld().st().end(),
            "4 KiB",
        );
        expect_config(base().raw(&[0x38, 0]).end(), "never set");
        expect_config(base().raw(&[0x05]).end(), "conditional");
        expect_config(base().raw(&[0x0B]).end(), "conditional");
        expect_config(base().raw(&[0x3D, 0]).end(), "conditional DMALPENDS");
        expect_config(base().raw(&[0x30, 0]).end(), "peripheral");
        expect_config(base().raw(&[0x29, 0]).end(), "peripheral");
        expect_config(base().raw(&[0x35, 0]).end(), "peripheral");
        expect_config(base().raw(&[0x01]).end(), "DMAKILL");
        expect_config(base().raw(&[0xA0, 0, 0, 0, 0, 0]).end(), "DMAGO");
        expect_config(base().mov(3, 0).end(), "register 3");
        expect_config(base().raw(&[0xFF]).end(), "undefined");
        // A fixed-address burst may sit on a 4 KiB boundary.
        let c = (2 << 1) | (3 << 4) | (1 << 14) | (2 << 15) | (3 << 18);
        let mut bus = bus_with(base().sar(SRC + 0xFFC).ccr(c).ld().st().end(), 0x1000, 16);
        assert!(run(&mut bus, CODE).is_ok());
    }

    #[test]
    fn unmapped_accesses_are_reported() {
        let code = Asm::default()
            .sar(SRC)
            .dar(DST + 12)
            .ccr(ccr(2, 2))
            .ld()
            .st()
            .end();
        let mut bus = bus_with(code, 16, 16);
        assert_eq!(
            run(&mut bus, CODE),
            Err(EmuError::Unmapped {
                addr: DST + 16,
                len: 4
            })
        );
        // A program without DMAEND runs off its region.
        let mut bus = bus_with(vec![0x18], 4, 4);
        assert_eq!(
            run(&mut bus, CODE),
            Err(EmuError::Unmapped {
                addr: CODE + 1,
                len: 1
            })
        );
    }
}
