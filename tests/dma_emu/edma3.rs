//! An emulator of one DMA channel of TI's EDMA3 channel controller (EDMA3CC, as in the KeyStone,
//! AM335x and OMAP-L138 / AM1808 technical reference manuals) with its 32-byte PaRAM sets, for
//! memory-to-memory chains of linked sets.
//!
//! The PaRAM lives on the emulated bus: the channel controller's 64 KiB-aligned address space
//! has its PaRAM at offset 0x4000, set `n` at 0x4000 + 32 n. The channel's own set is the one at
//! `set_addr`; the controller reads it at every sync event and writes its updates back there, as
//! the hardware does, so a test sees the set in its final state (the null set after a chain
//! that ends normally).
//!
//! What it models, from the manuals' PaRAM, "parameter set updates" and "linking transfers"
//! sections:
//!
//! * Set layout (little-endian words): 0 `OPT`, 1 `SRC`, 2 `ACNT` (15:0) / `BCNT` (31:16),
//!   3 `DST`, 4 `SRCBIDX` / `DSTBIDX` (signed 16-bit halves), 5 `LINK` (15:0) / `BCNTRLD`
//!   (31:16), 6 `SRCCIDX` / `DSTCIDX` (signed halves), 7 `CCNT` (15:0). `OPT`: `SAM` 0, `DAM` 1,
//!   `SYNCDIM` 2, `STATIC` 3, `FWID` 10:8, `TCCMODE` 11, `TCC` 17:12, `TCINTEN` 20, `ITCINTEN`
//!   21, `TCCHEN` 22, `ITCCHEN` 23.
//! * Sync events keep coming (a memory-to-memory channel triggered again and again) until the
//!   channel's set is a null set (`ACNT` = `BCNT` = `CCNT` = 0): an event on a null set is not
//!   serviced (the manual's event-missed error), so the chain ends there.
//! * A-synchronised (`SYNCDIM` = 0): each event moves one array of `ACNT` bytes from `SRC` to
//!   `DST`. Then, while `BCNT` > 1: `SRC += SRCBIDX`, `DST += DSTBIDX`, `BCNT -= 1`; at the end of
//!   a frame (`BCNT` = 1) with `CCNT` > 1: `SRC += SRCCIDX`, `DST += DSTCIDX` (from the start of
//!   the frame's last array), `BCNT = BCNTRLD`, `CCNT -= 1`; with `BCNT` = `CCNT` = 1 the set is
//!   exhausted. So every frame after the first has `BCNTRLD` arrays.
//! * AB-synchronised (`SYNCDIM` = 1): each event moves one frame, `BCNT` arrays whose starts are
//!   `SRCBIDX` / `DSTBIDX` apart; then, while `CCNT` > 1, `SRC += SRCCIDX`, `DST += DSTCIDX`
//!   (from the start of the frame's first array) and `CCNT -= 1`; at `CCNT` = 1 the set is
//!   exhausted. `BCNTRLD` is not used.
//! * A dummy set (some, not all, of the counts 0) is a legal transfer of 0 bytes that exhausts
//!   the set at once (one event).
//! * When a set is exhausted and `STATIC` = 0, the link update: `LINK` = 0xFFFF writes the null
//!   set (all zeros, `LINK` = 0xFFFF) over the channel's set; any other `LINK` copies the eight
//!   words of the set at that PaRAM address (the upper 16 bits of the bus address are those of
//!   `set_addr`) into the channel's set, and events go on with it.
//! * Address arithmetic wraps at 32 bits; the indexes are sign-extended.
//! * Each array moves as one read and one write of `ACNT` bytes (the transfer controller's own
//!   burst splitting does not change what lands where in increment mode).
//!
//! What it refuses ([`EmuError::Config`]): `SAM` / `DAM` = 1 (constant addressing, with its
//! alignment and FIFO-width rules, is not modelled); `STATIC` = 1 on a set that events reach is
//! reported as [`EmuError::Runaway`], because the set is then never updated nor linked and the
//! next event repeats the same transfer; a `LINK` that is not 32-byte aligned or lies below the
//! PaRAM (offset < 0x4000), and a `set_addr` likewise (the manual asks that `LINK` name a PaRAM
//! set; what the hardware does otherwise is not documented); intermediate or final chaining
//! (`ITCCHEN` / `TCCHEN`) to a channel other than this one, taking the default mapping of DMA
//! channel `n` to PaRAM set `n` (chaining to another channel would start transfers outside this
//! chain; chaining to itself only adds the events this model already assumes).
//!
//! Not modelled: completion codes and interrupts (`TCC`, `TCCMODE`, `TCINTEN`, `ITCINTEN`:
//! they change no data), `FWID` (constant addressing only), `PRIVID`, event queues, priorities
//! and transfer-controller bursts, QDMA trigger words, the event-missed error register.
//! Chaining events are otherwise ignored.

use super::bus::{Bus, EmuError, Steps, le_u16, le_u32};

/// The most arrays a run may move (plus events serviced) before it is reported as
/// [`EmuError::Runaway`].
pub const STEP_BUDGET: u64 = 10_000_000;

/// The PaRAM's offset in the channel controller's 64 KiB address space.
pub const PARAM_OFFSET: u32 = 0x4000;
/// A PaRAM set's size in bytes.
pub const SET_LEN: u32 = 32;
/// The null link.
pub const NULL_LINK: u16 = 0xFFFF;

const OPT_SAM: u32 = 1 << 0;
const OPT_DAM: u32 = 1 << 1;
const OPT_SYNCDIM: u32 = 1 << 2;
const OPT_STATIC: u32 = 1 << 3;
const OPT_TCCHEN: u32 = 1 << 22;
const OPT_ITCCHEN: u32 = 1 << 23;

/// A PaRAM set, decoded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Set {
    opt: u32,
    src: u32,
    acnt: u16,
    bcnt: u16,
    dst: u32,
    src_bidx: i16,
    dst_bidx: i16,
    link: u16,
    bcnt_rld: u16,
    src_cidx: i16,
    dst_cidx: i16,
    ccnt: u16,
    /// Bits 31:16 of word 7 (reserved; kept as read).
    w7_hi: u16,
}

impl Set {
    fn decode(b: &[u8; 32]) -> Self {
        Set {
            opt: le_u32(b, 0),
            src: le_u32(b, 4),
            acnt: le_u16(b, 8),
            bcnt: le_u16(b, 10),
            dst: le_u32(b, 12),
            src_bidx: le_u16(b, 16) as i16,
            dst_bidx: le_u16(b, 18) as i16,
            link: le_u16(b, 20),
            bcnt_rld: le_u16(b, 22),
            src_cidx: le_u16(b, 24) as i16,
            dst_cidx: le_u16(b, 26) as i16,
            ccnt: le_u16(b, 28),
            w7_hi: le_u16(b, 30),
        }
    }

    fn encode(&self) -> [u8; 32] {
        let mut b = [0u8; 32];
        b[0..4].copy_from_slice(&self.opt.to_le_bytes());
        b[4..8].copy_from_slice(&self.src.to_le_bytes());
        b[8..10].copy_from_slice(&self.acnt.to_le_bytes());
        b[10..12].copy_from_slice(&self.bcnt.to_le_bytes());
        b[12..16].copy_from_slice(&self.dst.to_le_bytes());
        b[16..18].copy_from_slice(&self.src_bidx.to_le_bytes());
        b[18..20].copy_from_slice(&self.dst_bidx.to_le_bytes());
        b[20..22].copy_from_slice(&self.link.to_le_bytes());
        b[22..24].copy_from_slice(&self.bcnt_rld.to_le_bytes());
        b[24..26].copy_from_slice(&self.src_cidx.to_le_bytes());
        b[26..28].copy_from_slice(&self.dst_cidx.to_le_bytes());
        b[28..30].copy_from_slice(&self.ccnt.to_le_bytes());
        b[30..32].copy_from_slice(&self.w7_hi.to_le_bytes());
        b
    }

    fn is_null(&self) -> bool {
        self.acnt == 0 && self.bcnt == 0 && self.ccnt == 0
    }

    fn is_dummy(&self) -> bool {
        !self.is_null() && (self.acnt == 0 || self.bcnt == 0 || self.ccnt == 0)
    }

    /// What a null link writes: all zeros, `LINK` = 0xFFFF.
    fn null() -> Self {
        Set::decode(&[0; 32]).with_link(NULL_LINK)
    }

    fn with_link(mut self, link: u16) -> Self {
        self.link = link;
        self
    }
}

fn config(s: impl Into<String>) -> EmuError {
    EmuError::Config(s.into())
}

fn check_set_address(what: &str, addr: u32) -> Result<(), EmuError> {
    let off = addr & 0xFFFF;
    if off < PARAM_OFFSET || !(off - PARAM_OFFSET).is_multiple_of(SET_LEN) {
        return Err(config(format!(
            "{what} {off:#06x} does not name a PaRAM set (32-byte sets from offset 0x4000)"
        )));
    }
    Ok(())
}

/// Checks the `OPT` word of a set about to be serviced.
fn check_opt(opt: u32, channel: u32) -> Result<(), EmuError> {
    if opt & (OPT_SAM | OPT_DAM) != 0 {
        return Err(config(
            "OPT.SAM/DAM = 1: constant addressing mode is not supported by this model",
        ));
    }
    if opt & (OPT_TCCHEN | OPT_ITCCHEN) != 0 {
        let tcc = (opt >> 12) & 0x3F;
        if tcc != channel {
            return Err(config(format!(
                "OPT.TCCHEN/ITCCHEN chain to channel {tcc}, not this one ({channel}): \
                 transfers of another channel are not modelled"
            )));
        }
    }
    Ok(())
}

/// Moves one array of `acnt` bytes.
fn move_array(
    bus: &mut Bus,
    src: u32,
    dst: u32,
    acnt: u16,
    steps: &mut Steps,
) -> Result<(), EmuError> {
    steps.take()?;
    let v = bus.read(src, usize::from(acnt))?;
    bus.write(dst, &v)
}

fn add(addr: u32, idx: i16) -> u32 {
    addr.wrapping_add_signed(i32::from(idx))
}

/// Runs the channel whose PaRAM set is at `set_addr` (on the bus) with sync events until its
/// set is the null set, and returns how many sets it serviced (the channel's first set and each
/// set linked in, dummy sets included; a null set at the start gives 0).
pub fn run(bus: &mut Bus, set_addr: u32) -> Result<usize, EmuError> {
    run_budget(bus, set_addr, STEP_BUDGET)
}

fn run_budget(bus: &mut Bus, set_addr: u32, budget: u64) -> Result<usize, EmuError> {
    check_set_address("the channel's set address", set_addr)?;
    let channel = ((set_addr & 0xFFFF) - PARAM_OFFSET) / SET_LEN;
    let mut sets = 0usize;
    // Whether the set in the channel has had no transfer request yet.
    let mut fresh = true;
    let mut steps = Steps::new(budget);
    loop {
        let mut p = Set::decode(&bus.read_array(set_addr)?);
        if p.is_null() {
            return Ok(sets);
        }
        steps.take()?;
        check_opt(p.opt, channel)?;
        if fresh {
            sets += 1;
            fresh = false;
        }
        let exhausted = if p.is_dummy() {
            true
        } else if p.opt & OPT_SYNCDIM == 0 {
            // A-synchronised: one array per event.
            move_array(bus, p.src, p.dst, p.acnt, &mut steps)?;
            if p.bcnt > 1 {
                p.src = add(p.src, p.src_bidx);
                p.dst = add(p.dst, p.dst_bidx);
                p.bcnt -= 1;
                false
            } else if p.ccnt > 1 {
                p.src = add(p.src, p.src_cidx);
                p.dst = add(p.dst, p.dst_cidx);
                p.bcnt = p.bcnt_rld;
                p.ccnt -= 1;
                false
            } else {
                true
            }
        } else {
            // AB-synchronised: one frame per event.
            let (mut s, mut d) = (p.src, p.dst);
            for _ in 0..p.bcnt {
                move_array(bus, s, d, p.acnt, &mut steps)?;
                s = add(s, p.src_bidx);
                d = add(d, p.dst_bidx);
            }
            if p.ccnt > 1 {
                p.src = add(p.src, p.src_cidx);
                p.dst = add(p.dst, p.dst_cidx);
                p.ccnt -= 1;
                false
            } else {
                true
            }
        };
        if p.opt & OPT_STATIC != 0 {
            // Never updated nor linked: the next event would repeat this transfer.
            return Err(EmuError::Runaway);
        }
        if exhausted {
            let next = if p.link == NULL_LINK {
                Set::null()
            } else {
                let at = (set_addr & 0xFFFF_0000) | u32::from(p.link);
                check_set_address("LINK", at)?;
                fresh = true;
                Set::decode(&bus.read_array(at)?)
            };
            bus.write(set_addr, &next.encode())?;
        } else {
            bus.write(set_addr, &p.encode())?;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CC: u32 = 0x01C0_0000;
    const PARAM: u32 = CC + PARAM_OFFSET;
    const SRC: u32 = 0x8000_0000;
    const DST: u32 = 0x8010_0000;

    fn set_at(n: u32) -> u32 {
        PARAM + SET_LEN * n
    }

    fn link_to(n: u32) -> u16 {
        (set_at(n) & 0xFFFF) as u16
    }

    /// A set moving `acnt` x `bcnt` x `ccnt` bytes densely, null-linked.
    fn dense(sync_ab: bool, acnt: u16, bcnt: u16, ccnt: u16) -> Set {
        Set {
            opt: if sync_ab { OPT_SYNCDIM } else { 0 },
            src: SRC,
            acnt,
            bcnt,
            dst: DST,
            src_bidx: acnt as i16,
            dst_bidx: acnt as i16,
            link: NULL_LINK,
            bcnt_rld: bcnt,
            src_cidx: if sync_ab {
                (acnt * bcnt) as i16
            } else {
                acnt as i16
            },
            dst_cidx: if sync_ab {
                (acnt * bcnt) as i16
            } else {
                acnt as i16
            },
            ccnt,
            w7_hi: 0,
        }
    }

    /// PaRAM of 64 sets with `sets` at (set number, set); source bytes 0, 1, 2, ...
    fn bus_with(sets: &[(u32, Set)], src_len: usize, dst_len: usize) -> Bus {
        let mut bus = Bus::new();
        let mut param = vec![0u8; 64 * SET_LEN as usize];
        for (n, s) in sets {
            let at = (n * SET_LEN) as usize;
            param[at..at + 32].copy_from_slice(&s.encode());
        }
        bus.add(PARAM, param);
        bus.add(SRC, (0..src_len).map(|i| i as u8).collect());
        bus.add(DST, vec![0; dst_len]);
        bus
    }

    fn param_set(bus: &Bus, n: u32) -> Set {
        Set::decode(&bus.read_array(set_at(n)).unwrap())
    }

    fn expect_config(bus: &mut Bus, set: u32, needle: &str) {
        match run(bus, set) {
            Err(EmuError::Config(s)) => assert!(s.contains(needle), "{s:?} lacks {needle:?}"),
            other => panic!("expected a configuration error with {needle:?}, got {other:?}"),
        }
    }

    #[test]
    fn one_array() {
        let mut bus = bus_with(&[(3, dense(false, 16, 1, 1))], 16, 16);
        assert_eq!(run(&mut bus, set_at(3)), Ok(1));
        assert_eq!(bus.region(DST), bus.region(SRC));
        assert!(bus.writes(DST).iter().all(|&w| w == 1));
        assert_eq!(param_set(&bus, 3), Set::null());
    }

    #[test]
    fn a_synchronised_2d_sub_block() {
        // Source 4 rows x 8 bytes; copy rows 1..4, bytes 2..6 as 3 frames of 2 arrays of 2 bytes,
        // arrays 2 bytes apart. A frame's last array starts at byte 4 of its row, and the next
        // frame at byte 2 of the next row: SRCCIDX = 6; in the dense destination, DSTCIDX = 2.
        let s = Set {
            src: SRC + 8 + 2,
            src_bidx: 2,
            src_cidx: 8 - 2,
            dst_bidx: 2,
            dst_cidx: 2,
            ..dense(false, 2, 2, 3)
        };
        let mut bus = bus_with(&[(0, s)], 32, 12);
        assert_eq!(run(&mut bus, set_at(0)), Ok(1));
        let src = bus.region(SRC).to_vec();
        let want: Vec<u8> = (1..4)
            .flat_map(|r| src[r * 8 + 2..r * 8 + 6].to_vec())
            .collect();
        assert_eq!(bus.region(DST), &want[..]);
        assert!(bus.writes(DST).iter().all(|&w| w == 1));
    }

    #[test]
    fn a_synchronised_frames_after_the_first_use_bcntrld() {
        // BCNT = 1 for the first frame, BCNTRLD = 3 for the two that follow: 1 + 3 + 3 arrays.
        let s = Set {
            bcnt: 1,
            bcnt_rld: 3,
            ..dense(false, 1, 3, 3)
        };
        let mut bus = bus_with(&[(0, s)], 16, 16);
        assert_eq!(run(&mut bus, set_at(0)), Ok(1));
        assert_eq!(&bus.region(DST)[..7], &bus.region(SRC)[..7]);
        assert_eq!(&bus.writes(DST)[7..], &[0; 9]);
    }

    #[test]
    fn a_synchronised_bcntrld_zero_makes_a_dummy_set() {
        // After the first frame BCNT reloads to 0: the set is a dummy set, which the next event
        // exhausts without moving data.
        let s = Set {
            bcnt_rld: 0,
            ..dense(false, 1, 2, 3)
        };
        let mut bus = bus_with(&[(0, s)], 16, 16);
        assert_eq!(run(&mut bus, set_at(0)), Ok(1));
        assert_eq!(bus.writes(DST).iter().sum::<u32>(), 2);
    }

    #[test]
    fn ab_synchronised_3d_with_cidx_from_the_frame_start() {
        // A 2 x 3 matrix of u16 (row pitch 6 bytes) transposed: a frame = one source column
        // (BCNT = 2 arrays of 2 bytes, SRCBIDX = 6) written as a destination row (DSTBIDX = 2);
        // the next frame starts 2 bytes after this frame's first source array, 4 bytes after it
        // in the destination.
        let s = Set {
            src_bidx: 6,
            dst_bidx: 2,
            src_cidx: 2,
            dst_cidx: 4,
            ..dense(true, 2, 2, 3)
        };
        let mut bus = bus_with(&[(5, s)], 12, 12);
        assert_eq!(run(&mut bus, set_at(5)), Ok(1));
        let src = bus.region(SRC).to_vec();
        let el = |r: usize, c: usize| [src[r * 6 + c * 2], src[r * 6 + c * 2 + 1]];
        let want: Vec<u8> = (0..3)
            .flat_map(|c| (0..2).flat_map(move |r| el(r, c)))
            .collect();
        assert_eq!(bus.region(DST), &want[..]);
    }

    #[test]
    fn negative_indexes_reverse() {
        // 4 arrays of 4 bytes read from the end backwards (A-sync, one frame).
        let s = Set {
            src: SRC + 12,
            src_bidx: -4,
            ..dense(false, 4, 4, 1)
        };
        let mut bus = bus_with(&[(0, s)], 16, 16);
        assert_eq!(run(&mut bus, set_at(0)), Ok(1));
        let src = bus.region(SRC).to_vec();
        let want: Vec<u8> = src.chunks(4).rev().flatten().copied().collect();
        assert_eq!(bus.region(DST), &want[..]);
        // And AB-sync with a negative CIDX: frames of 2 x 2 bytes, the second frame 4 bytes
        // before the first in the destination.
        let s = Set {
            dst: DST + 4,
            dst_cidx: -4,
            ..dense(true, 2, 2, 2)
        };
        let mut bus = bus_with(&[(0, s)], 8, 8);
        assert_eq!(run(&mut bus, set_at(0)), Ok(1));
        let src = bus.region(SRC).to_vec();
        assert_eq!(bus.region(DST), &[&src[4..8], &src[0..4]].concat()[..]);
    }

    #[test]
    fn chain_of_two_linked_sets_and_the_channel_set_is_updated() {
        // Channel set 2 copies bytes 0..4 to 4..8 and links to set 40, which copies 4..8 to 0..4
        // (AB-sync) and ends with the null link.
        let a = Set {
            dst: DST + 4,
            link: link_to(40),
            ..dense(false, 4, 1, 1)
        };
        let b = Set {
            src: SRC + 4,
            ..dense(true, 2, 2, 1)
        };
        let mut bus = bus_with(&[(2, a), (40, b)], 8, 8);
        assert_eq!(run(&mut bus, set_at(2)), Ok(2));
        let src = bus.region(SRC).to_vec();
        assert_eq!(bus.region(DST), &[&src[4..8], &src[0..4]].concat()[..]);
        assert_eq!(param_set(&bus, 2), Set::null());
        // The link source is left as it was.
        assert_eq!(param_set(&bus, 40), b);
    }

    #[test]
    fn dummy_set_in_a_chain_moves_nothing_and_links_on() {
        let a = Set {
            link: link_to(10),
            ..dense(false, 0, 1, 1)
        };
        let b = Set {
            link: link_to(11),
            ..dense(true, 4, 0, 7)
        };
        let c = dense(false, 4, 1, 1);
        let mut bus = bus_with(&[(0, a), (10, b), (11, c)], 4, 4);
        assert_eq!(run(&mut bus, set_at(0)), Ok(3));
        assert_eq!(bus.region(DST), bus.region(SRC));
    }

    #[test]
    fn null_set_at_the_start_runs_nothing() {
        let mut bus = bus_with(&[(0, Set::null())], 4, 4);
        assert_eq!(run(&mut bus, set_at(0)), Ok(0));
        // All counts zero is null whatever the other fields hold.
        let s = Set {
            acnt: 0,
            bcnt: 0,
            ccnt: 0,
            opt: OPT_SAM,
            ..dense(false, 4, 1, 1)
        };
        let mut bus = bus_with(&[(0, s)], 4, 4);
        assert_eq!(run(&mut bus, set_at(0)), Ok(0));
        assert!(bus.writes(DST).iter().all(|&w| w == 0));
    }

    #[test]
    fn static_set_is_a_runaway() {
        let s = Set {
            opt: OPT_STATIC,
            ..dense(false, 4, 1, 1)
        };
        let mut bus = bus_with(&[(0, s)], 4, 4);
        assert_eq!(run(&mut bus, set_at(0)), Err(EmuError::Runaway));
    }

    #[test]
    fn link_loop_is_a_runaway() {
        let a = Set {
            link: link_to(9),
            ..dense(false, 4, 1, 1)
        };
        let mut bus = bus_with(&[(0, a), (9, a)], 4, 4);
        assert_eq!(
            run_budget(&mut bus, set_at(0), 1000),
            Err(EmuError::Runaway)
        );
        assert_eq!(bus.writes(DST)[0], 500);
    }

    #[test]
    fn self_chaining_is_accepted_and_other_chaining_refused() {
        let own = Set {
            opt: OPT_TCCHEN | OPT_ITCCHEN | (7 << 12),
            ..dense(false, 4, 1, 1)
        };
        let mut bus = bus_with(&[(7, own)], 4, 4);
        assert_eq!(run(&mut bus, set_at(7)), Ok(1));
        let other = Set {
            opt: OPT_TCCHEN | (8 << 12),
            ..dense(false, 4, 1, 1)
        };
        let mut bus = bus_with(&[(7, other)], 4, 4);
        expect_config(&mut bus, set_at(7), "chain to channel 8");
        // Completion codes and interrupts alone are ignored.
        let irq = Set {
            opt: (1 << 20) | (1 << 21) | (1 << 11) | (0x3F << 12),
            ..dense(false, 4, 1, 1)
        };
        let mut bus = bus_with(&[(7, irq)], 4, 4);
        assert_eq!(run(&mut bus, set_at(7)), Ok(1));
    }

    #[test]
    fn configuration_errors() {
        let mut bus = bus_with(
            &[(
                0,
                Set {
                    opt: OPT_SAM,
                    ..dense(false, 4, 1, 1)
                },
            )],
            4,
            4,
        );
        expect_config(&mut bus, set_at(0), "constant addressing");
        let mut bus = bus_with(
            &[(
                0,
                Set {
                    opt: OPT_DAM,
                    ..dense(true, 4, 1, 1)
                },
            )],
            4,
            4,
        );
        expect_config(&mut bus, set_at(0), "constant addressing");
        // A LINK that is not a set's address: misaligned, or below the PaRAM.
        let mut bus = bus_with(
            &[(
                0,
                Set {
                    link: link_to(3) + 4,
                    ..dense(false, 4, 1, 1)
                },
            )],
            4,
            4,
        );
        expect_config(&mut bus, set_at(0), "LINK");
        let mut bus = bus_with(
            &[(
                0,
                Set {
                    link: 0x0100,
                    ..dense(false, 4, 1, 1)
                },
            )],
            4,
            4,
        );
        expect_config(&mut bus, set_at(0), "LINK");
        let mut bus = bus_with(&[], 4, 4);
        expect_config(&mut bus, set_at(0) + 8, "channel's set address");
        expect_config(&mut bus, CC, "channel's set address");
    }

    #[test]
    fn unmapped_accesses_are_reported() {
        let s = Set {
            dst: DST + 2,
            ..dense(false, 4, 1, 1)
        };
        let mut bus = bus_with(&[(0, s)], 4, 4);
        assert_eq!(
            run(&mut bus, set_at(0)),
            Err(EmuError::Unmapped {
                addr: DST + 2,
                len: 4
            })
        );
    }
}
