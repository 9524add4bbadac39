//! Firmware DMA example: 8-slot TDM. A SAI / I2S receive buffer holds 256 frames of 8 `i32`
//! slots, frame by frame; a DMA engine de-interleaves each block into 8 planar channel blocks
//! (slot by slot) and interleaves the planar blocks back into the transmit buffer. The two
//! copies are `const` plans lowered to the engine's descriptor chain at compile time, so the
//! descriptors are flash constants. Features pick the engine, so `run` can price each:
//!
//! | feature | the chains |
//! | --- | --- |
//! | `edma` | NXP eDMA transfer control descriptors (TCDs) |
//! | `gpdma` | STM32 GPDMA 2-D linked-list items |
//! | (neither) | none: the size baseline |
//!
//! For every block the program copies each chain into RAM, adds the buffers' and the RAM
//! chain's bus addresses (`rebase`: the buffers are ping-pong halves, so they change from block
//! to block) and starts it, which is writing the first descriptor to the channel's registers.
//! No engine runs under `qemu-arm`: the registers are a static array here and no sample moves.
//! With `qemu` the program checks instead that each relocated chain equals the chain lowered at
//! run time at the same addresses, that the registers hold its first descriptor, and that the
//! CPU copy of the same layouts round-trips the samples; the exit status says whether all held.
//!
//! No allocator and no panic path: the panic handler calls a symbol that exists nowhere, so
//! the link fails if one survives.
#![no_std]
#![no_main]

use core::hint::black_box;
use core::panic::PanicInfo;
#[cfg(any(feature = "edma", feature = "gpdma"))]
use core::ptr::write_volatile;

use strided_layout::{CopyPlan, Layout, Order, const_unwrap};

unsafe extern "C" {
    /// Defined nowhere, on purpose.
    fn strided_layout_panic_path_found() -> !;
}

#[panic_handler]
fn panic(_: &PanicInfo) -> ! {
    // SAFETY: never runs; the call only exists so a reachable panic fails the link.
    unsafe { strided_layout_panic_path_found() }
}

/// TDM slots in a frame.
const SLOTS: usize = 8;
/// Frames in a block (one half of the ping-pong buffers).
const FRAMES: usize = 256;
/// Samples in a block.
const BLOCK: usize = SLOTS * FRAMES;

/// The receive buffer as the SAI fills it, seen slot by slot: `[slot][frame]` over memory
/// laid out `[frame][slot]` (Fortran order: the slot index moves fastest).
const TDM: Layout<2> = const_unwrap(Layout::dense_of::<i32>([SLOTS, FRAMES], Order::F));
/// The planar channel blocks: `[slot][frame]`, one block of 256 samples per slot.
const PLANAR: Layout<2> = const_unwrap(Layout::dense_of::<i32>([SLOTS, FRAMES], Order::C));
/// Receive buffer -> planar blocks.
const DEINTERLEAVE: CopyPlan = const_unwrap(CopyPlan::new(&TDM, &PLANAR));
/// Planar blocks -> transmit buffer.
const INTERLEAVE: CopyPlan = const_unwrap(CopyPlan::new(&PLANAR, &TDM));
const _: () = assert!(
    DEINTERLEAVE.src_len() == BLOCK
        && DEINTERLEAVE.dst_len() == BLOCK
        && INTERLEAVE.src_len() == BLOCK
        && INTERLEAVE.dst_len() == BLOCK,
    "each copy reads and writes one whole block"
);

/// The SAI's receive and transmit buffers, two blocks each (its own DMA channel fills or
/// drains one half while the program works on the other), and the planar blocks the DSP code
/// works on.
static mut RX: [[i32; BLOCK]; 2] = [[0; BLOCK]; 2];
static mut TX: [[i32; BLOCK]; 2] = [[0; BLOCK]; 2];
static mut PLANES: [i32; BLOCK] = [0; BLOCK];

/// The bus address of `p`: the CPU's address, as on a Cortex-M's system bus.
fn bus<T>(p: *const T) -> Option<u32> {
    u32::try_from(p.addr()).ok()
}

/// The static behind `p`, borrowed exclusively.
///
/// # Safety
///
/// No other reference to it may live while the returned one does.
#[cfg(any(feature = "edma", feature = "gpdma", feature = "qemu"))]
unsafe fn exclusive<T>(p: *mut T) -> &'static mut T {
    // SAFETY: `p` points to a static (valid, aligned, initialised); the caller rules out any
    // other reference.
    unsafe { &mut *p }
}

/// A block's buffers: its receive half, the planar blocks, its transmit half.
#[cfg_attr(not(any(feature = "edma", feature = "gpdma")), allow(dead_code))]
struct Buffers {
    rx: u32,
    planes: u32,
    tx: u32,
}

/// The bus addresses of block `k`'s buffers.
fn buffers(k: usize) -> Option<Buffers> {
    let half = k % 2;
    Some(Buffers {
        rx: bus((&raw const RX).cast::<[i32; BLOCK]>().wrapping_add(half))?,
        planes: bus(&raw const PLANES)?,
        tx: bus((&raw const TX).cast::<[i32; BLOCK]>().wrapping_add(half))?,
    })
}

/// The eDMA chains: lowered at address 0 when the program is compiled, relocated into RAM and
/// started on two channels (0 de-interleaves, 1 interleaves) per block.
#[cfg(feature = "edma")]
mod edma_chain {
    use super::{Buffers, CopyPlan, DEINTERLEAVE, INTERLEAVE, bus, exclusive, write_volatile};
    pub use strided_layout::dma::edma;
    use strided_layout::dma::{self, edma::Descriptor, edma::rebase};

    /// How many TCDs `plan` lowers to.
    const fn len(plan: &CopyPlan) -> usize {
        let mut out = [Descriptor::ZERO; 16];
        dma::const_unwrap(edma::lower_at(plan, 0, 0, &mut out, 0))
    }

    /// `plan`'s `N` TCDs, lowered at address 0: the buffers' and the chain's addresses are
    /// added at run time.
    const fn lowered<const N: usize>(plan: &CopyPlan) -> [Descriptor; N] {
        let mut out = [Descriptor::ZERO; N];
        let n = dma::const_unwrap(edma::lower_at(plan, 0, 0, &mut out, 0));
        assert!(n == N, "the chain fills its array");
        out
    }

    pub const DEINTERLEAVE_LEN: usize = len(&DEINTERLEAVE);
    pub const INTERLEAVE_LEN: usize = len(&INTERLEAVE);
    /// The chains as the compiler lowered them: flash constants.
    pub const DEINTERLEAVE_TCDS: [Descriptor; DEINTERLEAVE_LEN] = lowered(&DEINTERLEAVE);
    pub const INTERLEAVE_TCDS: [Descriptor; INTERLEAVE_LEN] = lowered(&INTERLEAVE);

    /// The chains the engine reads, in RAM (32-byte aligned: a `Descriptor` is, as the
    /// scatter-gather link needs).
    pub static mut EDMA_DEINTERLEAVE: [Descriptor; DEINTERLEAVE_LEN] =
        [Descriptor::ZERO; DEINTERLEAVE_LEN];
    pub static mut EDMA_INTERLEAVE: [Descriptor; INTERLEAVE_LEN] =
        [Descriptor::ZERO; INTERLEAVE_LEN];
    const _: () = assert!(align_of::<Descriptor>() == 32);

    /// Word offsets in a channel's register block: its control word (the request enable, bit
    /// 0) and, from word 8, its TCD in the descriptor's order.
    pub const CSR: usize = 0;
    pub const TCD: usize = 8;
    /// The request enable.
    pub const ERQ: u32 = 1;
    /// Two channels' register blocks; on a chip, the engine's memory-mapped registers.
    pub static mut CHANNELS: [[u32; 16]; 2] = [[0; 16]; 2];

    /// A TCD as the eight 32-bit words the channel's TCD registers take.
    pub fn words(t: &Descriptor) -> [u32; 8] {
        [
            t.saddr,
            u32::from(t.soff.cast_unsigned()) | u32::from(t.attr) << 16,
            t.nbytes,
            t.slast.cast_unsigned(),
            t.daddr,
            u32::from(t.doff.cast_unsigned()) | u32::from(t.citer) << 16,
            t.dlast_sga,
            u32::from(t.csr) | u32::from(t.biter) << 16,
        ]
    }

    /// Starts `chain` on the channel whose registers are `regs`: its first TCD into the
    /// channel's TCD, then the permanent request (memory to memory).
    fn start(chain: &[Descriptor], regs: &mut [u32; 16]) -> bool {
        let Some(first) = chain.first() else {
            return false;
        };
        for (r, w) in regs[TCD..].iter_mut().zip(words(first)) {
            // SAFETY: a valid, aligned pointer to a live register word.
            unsafe { write_volatile(r, w) };
        }
        // SAFETY: as above.
        unsafe { write_volatile(&mut regs[CSR], ERQ) };
        true
    }

    /// Relocates and starts both chains for block `b`.
    pub fn block(b: &Buffers) -> bool {
        // SAFETY: single-threaded; the only references to these statics while they live.
        let (de, inter, channels) = unsafe {
            (
                exclusive(&raw mut EDMA_DEINTERLEAVE),
                exclusive(&raw mut EDMA_INTERLEAVE),
                exclusive(&raw mut CHANNELS),
            )
        };
        *de = DEINTERLEAVE_TCDS;
        *inter = INTERLEAVE_TCDS;
        let (Some(de_at), Some(inter_at)) = (bus(de.as_ptr()), bus(inter.as_ptr())) else {
            return false;
        };
        let [ch0, ch1] = channels;
        rebase(&DEINTERLEAVE, de, b.rx, b.planes, de_at).is_ok()
            && start(de, ch0)
            && rebase(&INTERLEAVE, inter, b.planes, b.tx, inter_at).is_ok()
            && start(inter, ch1)
    }
}

/// The GPDMA chains: lowered at address 0 when the program is compiled, relocated into RAM and
/// started on two 2-D channels (0 de-interleaves, 1 interleaves) per block.
#[cfg(feature = "gpdma")]
mod gpdma_chain {
    use super::{Buffers, CopyPlan, DEINTERLEAVE, INTERLEAVE, bus, exclusive, write_volatile};
    pub use strided_layout::dma::gpdma;
    use strided_layout::dma::{self, gpdma::Descriptor, gpdma::rebase};

    /// How many items `plan` lowers to.
    const fn len(plan: &CopyPlan) -> usize {
        let mut out = [Descriptor::ZERO; 16];
        dma::const_unwrap(gpdma::lower_at(plan, 0, 0, &mut out, 0))
    }

    /// `plan`'s `N` items, lowered at address 0: the buffers' and the list's addresses are
    /// added at run time.
    const fn lowered<const N: usize>(plan: &CopyPlan) -> [Descriptor; N] {
        let mut out = [Descriptor::ZERO; N];
        let n = dma::const_unwrap(gpdma::lower_at(plan, 0, 0, &mut out, 0));
        assert!(n == N, "the list fills its array");
        out
    }

    pub const DEINTERLEAVE_LEN: usize = len(&DEINTERLEAVE);
    pub const INTERLEAVE_LEN: usize = len(&INTERLEAVE);
    /// The lists as the compiler lowered them: flash constants.
    pub const DEINTERLEAVE_ITEMS: [Descriptor; DEINTERLEAVE_LEN] = lowered(&DEINTERLEAVE);
    pub const INTERLEAVE_ITEMS: [Descriptor; INTERLEAVE_LEN] = lowered(&INTERLEAVE);

    /// The lists the engine reads, in RAM (each inside one 64 KiB page, which `rebase`
    /// checks).
    pub static mut GPDMA_DEINTERLEAVE: [Descriptor; DEINTERLEAVE_LEN] =
        [Descriptor::ZERO; DEINTERLEAVE_LEN];
    pub static mut GPDMA_INTERLEAVE: [Descriptor; INTERLEAVE_LEN] =
        [Descriptor::ZERO; INTERLEAVE_LEN];

    /// Word offsets in a channel's register block: `CxLBAR` (0x00), `CxCR` (0x14), `CxTR1` ..
    /// `CxBR2` (0x40 .. 0x58) and `CxLLR` (0x7C).
    pub const LBAR: usize = 0;
    pub const CR: usize = 5;
    pub const TR1: usize = 16;
    pub const LLR: usize = 31;
    /// `CxCR.EN`.
    pub const EN: u32 = 1;
    /// Two channels' register blocks; on a chip, the engine's memory-mapped registers.
    pub static mut CHANNELS: [[u32; 32]; 2] = [[0; 32]; 2];

    /// An item as the words of `CxTR1` .. `CxBR2`, then `CxLLR`.
    pub fn words(item: &Descriptor) -> ([u32; 7], u32) {
        (
            [
                item.tr1, item.tr2, item.br1, item.sar, item.dar, item.tr3, item.br2,
            ],
            item.llr,
        )
    }

    /// Starts the list at bus address `at` on the channel whose registers are `regs`: the
    /// list's page into `CxLBAR`, its first item into the channel's registers, then `EN`.
    fn start(chain: &[Descriptor], at: u32, regs: &mut [u32; 32]) -> bool {
        let Some(first) = chain.first() else {
            return false;
        };
        let (head, llr) = words(first);
        // SAFETY: valid, aligned pointers to live register words.
        unsafe {
            write_volatile(&mut regs[LBAR], at & 0xFFFF_0000);
            for (r, w) in regs[TR1..].iter_mut().zip(head) {
                write_volatile(r, w);
            }
            write_volatile(&mut regs[LLR], llr);
            write_volatile(&mut regs[CR], EN);
        }
        true
    }

    /// Relocates and starts both lists for block `b`.
    pub fn block(b: &Buffers) -> bool {
        // SAFETY: single-threaded; the only references to these statics while they live.
        let (de, inter, channels) = unsafe {
            (
                exclusive(&raw mut GPDMA_DEINTERLEAVE),
                exclusive(&raw mut GPDMA_INTERLEAVE),
                exclusive(&raw mut CHANNELS),
            )
        };
        *de = DEINTERLEAVE_ITEMS;
        *inter = INTERLEAVE_ITEMS;
        let (Some(de_at), Some(inter_at)) = (bus(de.as_ptr()), bus(inter.as_ptr())) else {
            return false;
        };
        let [ch0, ch1] = channels;
        rebase(&DEINTERLEAVE, de, b.rx, b.planes, de_at).is_ok()
            && start(de, de_at, ch0)
            && rebase(&INTERLEAVE, inter, b.planes, b.tx, inter_at).is_ok()
            && start(inter, inter_at, ch1)
    }
}

/// One block: the engines' chains relocated to block `k`'s buffers and started. The SAI has
/// just filled receive half `k % 2`, which the first chain de-interleaves; the second
/// interleaves the planar blocks into transmit half `k % 2` (a real program starts it once
/// the blocks are processed; here both start at once).
#[inline(never)]
fn block(k: usize) -> bool {
    let Some(b) = buffers(k) else {
        return false;
    };
    let ok = true;
    #[cfg(feature = "edma")]
    let ok = ok && edma_chain::block(&b);
    #[cfg(feature = "gpdma")]
    let ok = ok && gpdma_chain::block(&b);
    black_box(&b);
    ok
}

/// With `qemu`: whether the relocated chains of block `k` are the ones the engine needs, and
/// whether the layouts round-trip the samples.
#[cfg(feature = "qemu")]
mod check {
    #[cfg(any(feature = "edma", feature = "gpdma"))]
    use super::{DEINTERLEAVE, INTERLEAVE};
    use super::{FRAMES, PLANAR, PLANES, RX, SLOTS, TDM, TX, exclusive};
    #[cfg(any(feature = "edma", feature = "gpdma"))]
    use core::ptr::read_volatile;
    use core::ptr::write_volatile;

    /// Whether block `k`'s RAM chains equal the chains `lower_at` writes at run time for the
    /// same buffers at the same address, and the registers hold each chain's first
    /// descriptor, started.
    #[cfg(feature = "edma")]
    fn edma_chains(k: usize) -> bool {
        use super::edma_chain::{
            CHANNELS, CSR, EDMA_DEINTERLEAVE, EDMA_INTERLEAVE, ERQ, TCD, edma, words,
        };
        let Some(b) = super::buffers(k) else {
            return false;
        };
        // SAFETY: reads of initialised statics, after the blocks.
        let (de, inter, channels) = unsafe {
            (
                read_volatile(&raw const EDMA_DEINTERLEAVE),
                read_volatile(&raw const EDMA_INTERLEAVE),
                read_volatile(&raw const CHANNELS),
            )
        };
        let (Some(de_at), Some(inter_at)) = (
            super::bus(&raw const EDMA_DEINTERLEAVE),
            super::bus(&raw const EDMA_INTERLEAVE),
        ) else {
            return false;
        };
        let mut fresh_de = [edma::Descriptor::ZERO; 16];
        let mut fresh_inter = [edma::Descriptor::ZERO; 16];
        let n_de = edma::lower_at(&DEINTERLEAVE, b.rx, b.planes, &mut fresh_de, de_at);
        let n_inter = edma::lower_at(&INTERLEAVE, b.planes, b.tx, &mut fresh_inter, inter_at);
        let started = |chain: &[edma::Descriptor], regs: &[u32; 16]| {
            chain
                .first()
                .is_some_and(|t| regs[TCD..] == words(t) && regs[CSR] == ERQ)
        };
        let [ch0, ch1] = channels;
        n_de == Ok(de.len())
            && fresh_de.get(..de.len()) == Some(&de[..])
            && n_inter == Ok(inter.len())
            && fresh_inter.get(..inter.len()) == Some(&inter[..])
            && started(&de, &ch0)
            && started(&inter, &ch1)
    }

    /// As `edma_chains`, for the GPDMA lists.
    #[cfg(feature = "gpdma")]
    fn gpdma_chains(k: usize) -> bool {
        use super::gpdma_chain::{
            CHANNELS, CR, EN, GPDMA_DEINTERLEAVE, GPDMA_INTERLEAVE, LBAR, LLR, TR1, gpdma, words,
        };
        let Some(b) = super::buffers(k) else {
            return false;
        };
        // SAFETY: reads of initialised statics, after the blocks.
        let (de, inter, channels) = unsafe {
            (
                read_volatile(&raw const GPDMA_DEINTERLEAVE),
                read_volatile(&raw const GPDMA_INTERLEAVE),
                read_volatile(&raw const CHANNELS),
            )
        };
        let (Some(de_at), Some(inter_at)) = (
            super::bus(&raw const GPDMA_DEINTERLEAVE),
            super::bus(&raw const GPDMA_INTERLEAVE),
        ) else {
            return false;
        };
        let mut fresh_de = [gpdma::Descriptor::ZERO; 16];
        let mut fresh_inter = [gpdma::Descriptor::ZERO; 16];
        let n_de = gpdma::lower_at(&DEINTERLEAVE, b.rx, b.planes, &mut fresh_de, de_at);
        let n_inter = gpdma::lower_at(&INTERLEAVE, b.planes, b.tx, &mut fresh_inter, inter_at);
        let started = |chain: &[gpdma::Descriptor], at: u32, regs: &[u32; 32]| {
            chain.first().is_some_and(|item| {
                let (head, llr) = words(item);
                regs[TR1..TR1 + 7] == head
                    && regs[LLR] == llr
                    && regs[LBAR] == at & 0xFFFF_0000
                    && regs[CR] == EN
            })
        };
        let [ch0, ch1] = channels;
        n_de == Ok(de.len())
            && fresh_de.get(..de.len()) == Some(&de[..])
            && n_inter == Ok(inter.len())
            && fresh_inter.get(..inter.len()) == Some(&inter[..])
            && started(&de, de_at, &ch0)
            && started(&inter, inter_at, &ch1)
    }

    /// The data the chains would move, moved by the CPU copy of the same layouts: receive
    /// half 0 into the planar blocks (sample `s` of frame `f` at `s·256 + f`) and back into
    /// transmit half 0, which must then equal the receive half.
    fn round_trip() -> bool {
        // SAFETY: single-threaded, after the blocks; the only references while they live.
        let (rx, planes, tx) = unsafe {
            (
                exclusive(&raw mut RX),
                exclusive(&raw mut PLANES),
                exclusive(&raw mut TX),
            )
        };
        let [rx, _] = rx;
        let [tx, _] = tx;
        // Inputs the optimiser cannot see: the SAI writes them.
        for (i, x) in rx.iter_mut().enumerate() {
            // SAFETY: a valid, aligned pointer to a live element.
            unsafe { write_volatile(x, i as i32) };
        }
        if strided_layout::copy(rx, &TDM, planes, &PLANAR).is_err() {
            return false;
        }
        let planar = planes.chunks_exact(FRAMES).enumerate().all(|(s, plane)| {
            plane
                .iter()
                .enumerate()
                .all(|(f, &x)| rx.get(f * SLOTS + s) == Some(&x))
        });
        planar && strided_layout::copy(planes, &PLANAR, tx, &TDM).is_ok() && tx == rx
    }

    /// Everything above, for the engines built in; block `k` was the last one.
    #[inline(never)]
    pub fn all(k: usize) -> bool {
        let _ = k;
        let ok = round_trip();
        #[cfg(feature = "edma")]
        let ok = ok && edma_chains(k);
        #[cfg(feature = "gpdma")]
        let ok = ok && gpdma_chains(k);
        ok
    }
}

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    // The block index comes from the SAI's half-transfer and transfer-complete interrupts:
    // unknown to the compiler.
    let mut k = black_box(0usize);
    let mut ok = block(k);
    if cfg!(feature = "twice") {
        k = black_box(k + 1);
        ok &= block(k);
    }
    black_box(ok);
    #[cfg(feature = "qemu")]
    {
        // The exit status says whether the chains and the layouts are right: `run` fails on
        // any other. (The one-block and the two-block builds check once each, so the checks
        // cancel out of the instructions per block.)
        let status = u32::from(!(ok && check::all(k)));
        // SAFETY: the Linux `exit` system call (r7 = 1) under `qemu-arm`; it does not return.
        unsafe {
            // r7 is the frame pointer on Thumb, so it is set inside the asm (we never return).
            core::arch::asm!("movs r7, #1", "svc 0", in("r0") status, options(noreturn));
        }
    }
    #[cfg(not(feature = "qemu"))]
    loop {
        core::hint::spin_loop();
    }
}
