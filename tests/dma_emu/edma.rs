//! An emulator of one channel of the NXP eDMA engine of the i.MX RT10xx parts (the 32-byte
//! transfer control descriptor, TCD), for memory-to-memory chains.
//!
//! What it models, from the eDMA chapter of the i.MX RT10xx reference manuals (the TCD register
//! descriptions, the ES error-status bits and the "data flow" description):
//!
//! * The engine's `CR[EMLM]` is taken as 1 (minor-loop mapping on), so the word at 0x08 is
//!   `NBYTES_MLOFFYES` when `SMLOE` (bit 31) or `DMLOE` (bit 30) is set (`MLOFF` = bits 29:10,
//!   a sign-extended 20-bit offset; `NBYTES` = bits 9:0), else `NBYTES_MLOFFNO` (`NBYTES` =
//!   bits 29:0).
//! * The channel is requested permanently (a memory-to-memory channel whose every minor loop is
//!   requested at once). Each minor loop moves `NBYTES` bytes as `NBYTES / size` reads of
//!   `SSIZE` at `SADDR` and writes of `DSIZE` at `DADDR`, adding `SOFF` / `DOFF` after each
//!   access; after the minor loop `MLOFF` is added to `SADDR` (if `SMLOE`) and to `DADDR` (if
//!   `DMLOE`), and `CITER` counts down. When it reaches 0 the major loop is done: `SLAST` is
//!   added to `SADDR`, `DLAST` to `DADDR` unless `CSR[ESG]` is set (then that word is the next
//!   TCD's address), and `CITER` reloads from `BITER`.
//! * After a major loop: `CSR[DREQ]` = 1 clears the request and the chain ends; else `CSR[ESG]`
//!   = 1 loads the 32-byte TCD at `DLAST_SGA` and goes on; else the channel would be served
//!   again and again, which is reported as [`EmuError::Runaway`] (so is a chain that passes the
//!   step budget, e.g. a scatter/gather loop).
//! * Address arithmetic wraps at 32 bits, as the engine's adders do.
//!
//! What it refuses ([`EmuError::Config`]), with the ES bit the manual names where there is one:
//! `SADDR` not a multiple of the source size (SAE), `DADDR` likewise (DAE), `SOFF` / `DOFF` not
//! a multiple of the size (SOE / DOE), `NBYTES` not a multiple of the sizes, `CITER` = 0, or
//! `CITER.ELINK` != `BITER.ELINK` (NCE), `DLAST_SGA` not on a 32-byte boundary when `ESG` is set
//! (SGE, checked when the major loop completes, as the manual says). Refused as unsupported by
//! this model: a size code other than 0..=3 (1, 2, 4, 8 bytes; code 5, the 32-byte burst, and
//! the reserved codes), `SSIZE` != `DSIZE`, `SMOD` / `DMOD` != 0 (modulo addressing), channel
//! linking (`ELINK` in `CITER`/`BITER`, `CSR[MAJORELINK]`), `NBYTES` = 0, and `CITER` !=
//! `BITER` in a TCD as loaded (the manual requires software to load them equal).
//!
//! Not modelled: `CSR[BWC]` (bandwidth control only stalls), `START` / `ACTIVE` / `DONE` /
//! interrupt bits (the channel is always requested; interrupts have no effect on the data),
//! channel arbitration and preemption, bus errors (an unmapped access is reported by the bus),
//! write-back of the channel's TCD (the TCD registers are not on the emulated bus).
//!
//! Assumptions the manual text found did not settle, taken from the register descriptions'
//! plain reading: `MLOFF` is applied after every minor loop, the last one included, and
//! `SLAST` / `DLAST` are added on top of it; with both `DREQ` and `ESG` set the chain is taken
//! to end (the request is cleared, so the loaded TCD would not run without a new request) but the
//! scatter/gather address is still checked for alignment; `NBYTES` = 0 (which older eDMA manuals
//! define as a 4 GiB minor loop) is refused.

use super::bus::{Bus, EmuError, le_u16, le_u32};

/// The most reads-and-writes a run may perform before it is reported as [`EmuError::Runaway`].
pub const STEP_BUDGET: u64 = 10_000_000;

const TCD_LEN: usize = 32;

const CSR_DREQ: u16 = 1 << 3;
const CSR_ESG: u16 = 1 << 4;
const CSR_MAJORELINK: u16 = 1 << 5;
const ITER_ELINK: u16 = 1 << 15;

/// A TCD as the channel holds it, decoded and checked.
#[derive(Clone, Copy, Debug)]
struct Tcd {
    saddr: u32,
    soff: i16,
    size: u32,
    nbytes: u32,
    smloe: bool,
    dmloe: bool,
    mloff: i32,
    slast: i32,
    daddr: u32,
    doff: i16,
    citer: u16,
    dlast_sga: u32,
    csr: u16,
}

fn config(s: impl Into<String>) -> EmuError {
    EmuError::Config(s.into())
}

fn size_of_code(code: u16, which: &str) -> Result<u32, EmuError> {
    match code {
        0 => Ok(1),
        1 => Ok(2),
        2 => Ok(4),
        3 => Ok(8),
        5 => Err(config(format!(
            "{which} = 5 (32-byte burst) is not supported by this model"
        ))),
        _ => Err(config(format!(
            "{which} = {code} is a reserved transfer size"
        ))),
    }
}

/// Decodes and checks the TCD at `addr` as the engine would when it loads it into the channel.
fn load(bus: &Bus, addr: u32) -> Result<Tcd, EmuError> {
    let b: [u8; TCD_LEN] = bus.read_array(addr)?;
    let saddr = le_u32(&b, 0x00);
    let soff = le_u16(&b, 0x04) as i16;
    let attr = le_u16(&b, 0x06);
    let nbytes_word = le_u32(&b, 0x08);
    let slast = le_u32(&b, 0x0C) as i32;
    let daddr = le_u32(&b, 0x10);
    let doff = le_u16(&b, 0x14) as i16;
    let citer_word = le_u16(&b, 0x16);
    let dlast_sga = le_u32(&b, 0x18);
    let csr = le_u16(&b, 0x1C);
    let biter_word = le_u16(&b, 0x1E);

    let smod = attr >> 11;
    let dmod = (attr >> 3) & 0x1F;
    if smod != 0 || dmod != 0 {
        return Err(config(format!(
            "ATTR SMOD = {smod}, DMOD = {dmod}: modulo addressing is not supported by this model"
        )));
    }
    let ssize = size_of_code((attr >> 8) & 0x7, "ATTR SSIZE")?;
    let dsize = size_of_code(attr & 0x7, "ATTR DSIZE")?;
    if ssize != dsize {
        return Err(config(format!(
            "SSIZE ({ssize} bytes) != DSIZE ({dsize} bytes) is not supported by this model"
        )));
    }
    let size = ssize;

    let smloe = nbytes_word & (1 << 31) != 0;
    let dmloe = nbytes_word & (1 << 30) != 0;
    let (nbytes, mloff) = if smloe || dmloe {
        // MLOFF is bits 29:10; shifting it to the top and back sign-extends its 20 bits.
        (nbytes_word & 0x3FF, ((nbytes_word << 2) as i32) >> 12)
    } else {
        (nbytes_word & 0x3FFF_FFFF, 0)
    };

    if !saddr.is_multiple_of(size) {
        return Err(config(format!(
            "SAE: SADDR {saddr:#010x} is not aligned to SSIZE ({size} bytes)"
        )));
    }
    if !daddr.is_multiple_of(size) {
        return Err(config(format!(
            "DAE: DADDR {daddr:#010x} is not aligned to DSIZE ({size} bytes)"
        )));
    }
    if i64::from(soff) % i64::from(size) != 0 {
        return Err(config(format!(
            "SOE: SOFF {soff} is not a multiple of SSIZE ({size} bytes)"
        )));
    }
    if i64::from(doff) % i64::from(size) != 0 {
        return Err(config(format!(
            "DOE: DOFF {doff} is not a multiple of DSIZE ({size} bytes)"
        )));
    }
    if !nbytes.is_multiple_of(size) {
        return Err(config(format!(
            "NCE: NBYTES {nbytes} is not a multiple of the size ({size} bytes)"
        )));
    }
    if nbytes == 0 {
        return Err(config(
            "NBYTES = 0 (a 4 GiB minor loop on older parts) is not supported by this model",
        ));
    }
    if citer_word & ITER_ELINK != biter_word & ITER_ELINK {
        return Err(config("NCE: CITER.ELINK != BITER.ELINK"));
    }
    if citer_word & ITER_ELINK != 0 {
        return Err(config(
            "CITER.ELINK = 1: minor-loop channel linking is not supported by this model",
        ));
    }
    let citer = citer_word & 0x7FFF;
    let biter = biter_word & 0x7FFF;
    if citer == 0 {
        return Err(config("NCE: CITER = 0"));
    }
    if citer != biter {
        return Err(config(format!(
            "CITER ({citer}) != BITER ({biter}): software must load them equal"
        )));
    }
    if csr & CSR_MAJORELINK != 0 {
        return Err(config(
            "CSR.MAJORELINK = 1: major-loop channel linking is not supported by this model",
        ));
    }
    Ok(Tcd {
        saddr,
        soff,
        size,
        nbytes,
        smloe,
        dmloe,
        mloff,
        slast,
        daddr,
        doff,
        citer,
        dlast_sga,
        csr,
    })
}

/// The channel's addresses when the run stopped (for the unit tests).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Finish {
    tcds: usize,
    saddr: u32,
    daddr: u32,
}

fn run_inner(bus: &mut Bus, tcd_addr: u32, budget: u64) -> Result<Finish, EmuError> {
    let mut at = tcd_addr;
    let mut tcds = 0usize;
    let mut steps = 0u64;
    loop {
        let t = load(bus, at)?;
        tcds += 1;
        let mut s = t.saddr;
        let mut d = t.daddr;
        let len = t.size as usize;
        for _ in 0..t.citer {
            for _ in 0..t.nbytes / t.size {
                steps += 1;
                if steps > budget {
                    return Err(EmuError::Runaway);
                }
                let v = bus.read(s, len)?;
                bus.write(d, &v)?;
                s = s.wrapping_add_signed(i32::from(t.soff));
                d = d.wrapping_add_signed(i32::from(t.doff));
            }
            if t.smloe {
                s = s.wrapping_add_signed(t.mloff);
            }
            if t.dmloe {
                d = d.wrapping_add_signed(t.mloff);
            }
        }
        // Major loop done: the last-address adjustments, then what follows.
        s = s.wrapping_add_signed(t.slast);
        let esg = t.csr & CSR_ESG != 0;
        if !esg {
            d = d.wrapping_add_signed(t.dlast_sga as i32);
        }
        if esg && !t.dlast_sga.is_multiple_of(TCD_LEN as u32) {
            return Err(config(format!(
                "SGE: DLAST_SGA {:#010x} is not on a 32-byte boundary",
                t.dlast_sga
            )));
        }
        if t.csr & CSR_DREQ != 0 {
            return Ok(Finish {
                tcds,
                saddr: s,
                daddr: d,
            });
        }
        if !esg {
            // Still requested, no new TCD: the same major loop would run again, forever.
            return Err(EmuError::Runaway);
        }
        at = t.dlast_sga;
    }
}

/// Runs the chain whose first TCD is at `tcd_addr` (copied into the channel, which is then
/// requested permanently) and returns how many TCDs ran.
pub fn run(bus: &mut Bus, tcd_addr: u32) -> Result<usize, EmuError> {
    run_inner(bus, tcd_addr, STEP_BUDGET).map(|f| f.tcds)
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: u32 = 0x2000_0000;
    const DST: u32 = 0x2010_0000;
    const TCDS: u32 = 0x2020_0000;

    /// A TCD's fields, written out as the 32 little-endian bytes the engine reads.
    #[derive(Clone, Copy)]
    struct T {
        saddr: u32,
        soff: i16,
        attr: u16,
        nbytes: u32,
        slast: i32,
        daddr: u32,
        doff: i16,
        citer: u16,
        dlast_sga: u32,
        csr: u16,
        biter: u16,
    }

    impl T {
        /// `count` elements of `size` bytes (code `sz`), one element per minor loop.
        fn simple(sz: u16, count: u16) -> Self {
            let size = 1u32 << sz;
            T {
                saddr: SRC,
                soff: size as i16,
                attr: (sz << 8) | sz,
                nbytes: size,
                slast: 0,
                daddr: DST,
                doff: size as i16,
                citer: count,
                dlast_sga: 0,
                csr: CSR_DREQ,
                biter: count,
            }
        }

        fn bytes(&self) -> [u8; 32] {
            let mut b = [0u8; 32];
            b[0..4].copy_from_slice(&self.saddr.to_le_bytes());
            b[4..6].copy_from_slice(&self.soff.to_le_bytes());
            b[6..8].copy_from_slice(&self.attr.to_le_bytes());
            b[8..12].copy_from_slice(&self.nbytes.to_le_bytes());
            b[12..16].copy_from_slice(&self.slast.to_le_bytes());
            b[16..20].copy_from_slice(&self.daddr.to_le_bytes());
            b[20..22].copy_from_slice(&self.doff.to_le_bytes());
            b[22..24].copy_from_slice(&self.citer.to_le_bytes());
            b[24..28].copy_from_slice(&self.dlast_sga.to_le_bytes());
            b[28..30].copy_from_slice(&self.csr.to_le_bytes());
            b[30..32].copy_from_slice(&self.biter.to_le_bytes());
            b
        }
    }

    /// NBYTES_MLOFFYES: SMLOE / DMLOE, a 20-bit MLOFF and a 10-bit NBYTES.
    fn mloffyes(smloe: bool, dmloe: bool, mloff: i32, nbytes: u32) -> u32 {
        assert!((-(1 << 19)..(1 << 19)).contains(&mloff) && nbytes < 1024);
        (u32::from(smloe) << 31)
            | (u32::from(dmloe) << 30)
            | (((mloff as u32) & 0xF_FFFF) << 10)
            | nbytes
    }

    fn bus_with(tcds: &[T], src_len: usize, dst_len: usize) -> Bus {
        let mut bus = Bus::new();
        bus.add(SRC, (0..src_len).map(|i| i as u8).collect());
        bus.add(DST, vec![0; dst_len]);
        let mut table = Vec::new();
        for t in tcds {
            table.extend_from_slice(&t.bytes());
        }
        bus.add(TCDS, table);
        bus
    }

    fn expect_config(tcd: T, needle: &str) {
        let mut bus = bus_with(&[tcd], 256, 256);
        match run(&mut bus, TCDS) {
            Err(EmuError::Config(s)) => assert!(s.contains(needle), "{s:?} lacks {needle:?}"),
            other => panic!("expected a configuration error with {needle:?}, got {other:?}"),
        }
    }

    #[test]
    fn one_dimensional_copy_of_words() {
        let t = T {
            slast: -16,
            dlast_sga: (-16i32) as u32,
            ..T::simple(2, 4)
        };
        let mut bus = bus_with(&[t], 16, 16);
        let f = run_inner(&mut bus, TCDS, STEP_BUDGET).unwrap();
        assert_eq!(
            f,
            Finish {
                tcds: 1,
                saddr: SRC,
                daddr: DST
            }
        );
        assert_eq!(bus.region(DST), bus.region(SRC));
        assert!(bus.writes(DST).iter().all(|&w| w == 1));
    }

    #[test]
    fn whole_block_in_one_minor_loop() {
        // NBYTES_MLOFFNO: 12 bytes in one minor loop, one major iteration.
        let t = T {
            nbytes: 12,
            ..T::simple(1, 1)
        };
        let mut bus = bus_with(&[t], 16, 16);
        assert_eq!(run(&mut bus, TCDS), Ok(1));
        assert_eq!(&bus.region(DST)[..12], &bus.region(SRC)[..12]);
        assert_eq!(&bus.region(DST)[12..], &[0; 4]);
    }

    #[test]
    fn two_dimensional_sub_block_with_source_minor_loop_offset() {
        // Source: 4 rows of 8 u16 (row pitch 16 bytes). Copy rows 1..4, columns 2..6 (3 x 4
        // elements) to a dense destination. Minor loop = one row of 4 elements (8 bytes); the
        // minor-loop offset moves the source from the row's end to the next row's start.
        let t = T {
            saddr: SRC + 16 + 4,
            soff: 2,
            attr: 0x0101,
            nbytes: mloffyes(true, false, 16 - 8, 8),
            slast: -(3 * 16),
            daddr: DST,
            doff: 2,
            citer: 3,
            dlast_sga: (-24i32) as u32,
            csr: CSR_DREQ,
            biter: 3,
        };
        let mut bus = bus_with(&[t], 64, 24);
        let f = run_inner(&mut bus, TCDS, STEP_BUDGET).unwrap();
        // SLAST and DLAST bring both addresses back to the start (MLOFF applied after the last
        // minor loop too).
        assert_eq!(
            f,
            Finish {
                tcds: 1,
                saddr: SRC + 20,
                daddr: DST
            }
        );
        let src = bus.region(SRC).to_vec();
        let mut want = Vec::new();
        for r in 1..4 {
            want.extend_from_slice(&src[r * 16 + 4..r * 16 + 12]);
        }
        assert_eq!(bus.region(DST), &want[..]);
        assert!(bus.writes(DST).iter().all(|&w| w == 1));
    }

    #[test]
    fn transpose_with_negative_destination_minor_loop_offset() {
        // A 3 x 4 row-major u8 matrix to its 4 x 3 transpose: each minor loop reads a source row
        // (4 bytes) and writes a destination column (DOFF = 3); DMLOE steps back to the next
        // column's top: -(4 * 3) + 1.
        let t = T {
            saddr: SRC,
            soff: 1,
            attr: 0,
            nbytes: mloffyes(false, true, -11, 4),
            slast: 0,
            daddr: DST,
            doff: 3,
            citer: 3,
            dlast_sga: 0,
            csr: CSR_DREQ,
            biter: 3,
        };
        let mut bus = bus_with(&[t], 12, 12);
        let f = run_inner(&mut bus, TCDS, STEP_BUDGET).unwrap();
        assert_eq!(
            f,
            Finish {
                tcds: 1,
                saddr: SRC + 12,
                daddr: DST + 3
            }
        );
        let src = bus.region(SRC).to_vec();
        let want: Vec<u8> = (0..4)
            .flat_map(|c| (0..3).map(move |r| (r, c)))
            .map(|(r, c)| src[r * 4 + c])
            .collect();
        assert_eq!(bus.region(DST), &want[..]);
    }

    #[test]
    fn negative_offsets_reverse_a_buffer() {
        let t = T {
            saddr: SRC + 12,
            soff: -4,
            ..T::simple(2, 4)
        };
        let mut bus = bus_with(&[t], 16, 16);
        assert_eq!(run(&mut bus, TCDS), Ok(1));
        let src = bus.region(SRC).to_vec();
        let want: Vec<u8> = src.chunks(4).rev().flatten().copied().collect();
        assert_eq!(bus.region(DST), &want[..]);
    }

    #[test]
    fn eight_byte_transfers() {
        let t = T::simple(3, 2);
        let mut bus = bus_with(&[t], 16, 16);
        assert_eq!(run(&mut bus, TCDS), Ok(1));
        assert_eq!(bus.region(DST), bus.region(SRC));
    }

    #[test]
    fn scatter_gather_chain_of_two() {
        // TCD 0 copies bytes 0..8 to 8..16, then loads TCD 1 (ESG), which copies 8..16 to 0..8
        // and stops (DREQ).
        let a = T {
            daddr: DST + 8,
            csr: CSR_ESG,
            dlast_sga: TCDS + 32,
            ..T::simple(0, 8)
        };
        let b = T {
            saddr: SRC + 8,
            ..T::simple(1, 4)
        };
        let mut bus = bus_with(&[a, b], 16, 16);
        assert_eq!(run(&mut bus, TCDS), Ok(2));
        let src = bus.region(SRC).to_vec();
        let want: Vec<u8> = src[8..16].iter().chain(&src[0..8]).copied().collect();
        assert_eq!(bus.region(DST), &want[..]);
        assert!(bus.writes(DST).iter().all(|&w| w == 1));
    }

    #[test]
    fn esg_keeps_dlast_as_an_address_and_still_applies_slast() {
        let a = T {
            slast: -8,
            csr: CSR_ESG | CSR_DREQ,
            dlast_sga: TCDS + 32,
            ..T::simple(0, 8)
        };
        let mut bus = bus_with(&[a], 16, 16);
        let f = run_inner(&mut bus, TCDS, STEP_BUDGET).unwrap();
        assert_eq!(
            f,
            Finish {
                tcds: 1,
                saddr: SRC,
                daddr: DST + 8
            }
        );
    }

    #[test]
    fn no_dreq_and_no_esg_is_a_runaway() {
        let t = T {
            csr: 0,
            ..T::simple(0, 4)
        };
        let mut bus = bus_with(&[t], 16, 16);
        assert_eq!(run(&mut bus, TCDS), Err(EmuError::Runaway));
    }

    #[test]
    fn scatter_gather_loop_is_a_runaway() {
        let t = T {
            csr: CSR_ESG,
            dlast_sga: TCDS,
            ..T::simple(0, 4)
        };
        let mut bus = bus_with(&[t], 16, 16);
        assert_eq!(
            run_inner(&mut bus, TCDS, 1000).map(|f| f.tcds),
            Err(EmuError::Runaway)
        );
        assert_eq!(bus.writes(DST)[0], 250);
    }

    #[test]
    fn unmapped_accesses_are_reported() {
        let t = T {
            daddr: DST + 12,
            ..T::simple(2, 2)
        };
        let mut bus = bus_with(&[t], 16, 16);
        assert_eq!(
            run(&mut bus, TCDS),
            Err(EmuError::Unmapped {
                addr: DST + 16,
                len: 4
            })
        );
        assert_eq!(
            run(&mut bus, TCDS + 4),
            Err(EmuError::Unmapped {
                addr: TCDS + 4,
                len: 32
            })
        );
    }

    #[test]
    fn configuration_errors() {
        let w = T::simple(2, 2);
        expect_config(
            T {
                saddr: SRC + 2,
                ..w
            },
            "SAE",
        );
        expect_config(
            T {
                daddr: DST + 1,
                ..w
            },
            "DAE",
        );
        expect_config(T { soff: 2, ..w }, "SOE");
        expect_config(T { doff: -6, ..w }, "DOE");
        expect_config(T { nbytes: 6, ..w }, "NCE");
        expect_config(
            T {
                nbytes: mloffyes(true, false, 4, 6),
                ..w
            },
            "NCE",
        );
        expect_config(T { nbytes: 0, ..w }, "NBYTES = 0");
        expect_config(
            T {
                nbytes: mloffyes(false, true, 4, 0),
                ..w
            },
            "NBYTES = 0",
        );
        expect_config(
            T {
                citer: 0,
                biter: 0,
                ..w
            },
            "NCE: CITER = 0",
        );
        expect_config(
            T {
                citer: 1,
                biter: 2,
                ..w
            },
            "BITER",
        );
        expect_config(T { citer: 0x8002, ..w }, "NCE: CITER.ELINK");
        expect_config(
            T {
                citer: 0x8002,
                biter: 0x8002,
                ..w
            },
            "linking",
        );
        expect_config(
            T {
                csr: CSR_DREQ | CSR_MAJORELINK,
                ..w
            },
            "MAJORELINK",
        );
        expect_config(
            T {
                csr: CSR_ESG,
                dlast_sga: TCDS + 16,
                ..w
            },
            "SGE",
        );
        expect_config(
            T {
                csr: CSR_ESG | CSR_DREQ,
                dlast_sga: TCDS + 8,
                ..w
            },
            "SGE",
        );
        expect_config(
            T { attr: 0x0201, ..w },
            "SSIZE (4 bytes) != DSIZE (2 bytes)",
        );
        expect_config(T { attr: 0x0505, ..w }, "32-byte burst");
        expect_config(T { attr: 0x0404, ..w }, "reserved");
        expect_config(T { attr: 0x0707, ..w }, "reserved");
        expect_config(T { attr: 0x2202, ..w }, "modulo");
        expect_config(T { attr: 0x0212, ..w }, "modulo");
    }

    #[test]
    fn sge_is_checked_after_the_major_loop() {
        // The data moves first; the misaligned scatter/gather address is found at completion.
        let t = T {
            csr: CSR_ESG,
            dlast_sga: TCDS + 4,
            ..T::simple(0, 4)
        };
        let mut bus = bus_with(&[t], 16, 16);
        assert!(matches!(run(&mut bus, TCDS), Err(EmuError::Config(s)) if s.starts_with("SGE")));
        assert_eq!(&bus.writes(DST)[..4], &[1; 4]);
    }

    #[test]
    fn bwc_and_interrupt_bits_are_ignored() {
        let t = T {
            csr: CSR_DREQ | 0xC000 | 0b111,
            ..T::simple(0, 4)
        };
        let mut bus = bus_with(&[t], 16, 16);
        assert_eq!(run(&mut bus, TCDS), Ok(1));
    }
}
