//! Firmware audio example: planar <-> interleaved stereo (2 x 64 frames of `i16`) and 5.1
//! (6 channels x 256 frames) converted in DMA-sized blocks of 64 frames, from `const` copy
//! plans. Features pick the implementation, so `run` can price each against the others:
//!
//! | feature | what moves the samples |
//! | --- | --- |
//! | (none) | `const` [`CopyPlan`]s: planned and validated by the compiler, only loops linked |
//! | `runtime` | [`strided_layout::copy`] with the same `const` layouts, planned at each call |
//! | `hand` | loops written by hand (the baseline) |
//!
//! No allocator and no panic path: the panic handler calls a symbol that exists nowhere, so
//! the link fails if one survives.
#![no_std]
#![no_main]

use core::hint::black_box;
use core::panic::PanicInfo;
use core::ptr::{read_volatile, write_volatile};

#[cfg(not(feature = "hand"))]
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

/// Frames per DMA block.
const BLOCK: usize = 64;
/// Frames of the 5.1 buffer: four DMA blocks.
const FRAMES_51: usize = 4 * BLOCK;
const _: () = assert!(FRAMES_51 % BLOCK == 0, "the 5.1 buffer is whole DMA blocks");

#[cfg(not(feature = "hand"))]
mod layouts {
    use super::{BLOCK, CopyPlan, FRAMES_51, Layout, Order, const_unwrap};

    /// Stereo: two planes of 64 frames, and the same samples interleaved (frame-major).
    pub const STEREO_PLANAR: Layout<2> = const_unwrap(Layout::dense([2, BLOCK], 2, Order::C));
    pub const STEREO_FRAMES: Layout<2> = const_unwrap(Layout::dense([2, BLOCK], 2, Order::F));
    /// One DMA block of 5.1: 64 frames of each of the 6 planes of 256 frames, and the block's
    /// 64 interleaved frames of 6 samples.
    pub const SURROUND_PLANAR: Layout<2> =
        const_unwrap(Layout::new([6, BLOCK], [FRAMES_51 as isize, 1], 2));
    pub const SURROUND_FRAMES: Layout<2> = const_unwrap(Layout::dense([6, BLOCK], 2, Order::F));

    pub const INTERLEAVE_STEREO: CopyPlan =
        const_unwrap(CopyPlan::new(&STEREO_PLANAR, &STEREO_FRAMES));
    pub const DEINTERLEAVE_STEREO: CopyPlan =
        const_unwrap(CopyPlan::new(&STEREO_FRAMES, &STEREO_PLANAR));
    pub const INTERLEAVE_51: CopyPlan =
        const_unwrap(CopyPlan::new(&SURROUND_PLANAR, &SURROUND_FRAMES));

    const _: () = assert!(INTERLEAVE_STEREO.dst_len() == 2 * BLOCK);
    const _: () = assert!(DEINTERLEAVE_STEREO.dst_len() == 2 * BLOCK);
    const _: () = assert!(
        INTERLEAVE_51.src_len() == 5 * FRAMES_51 + BLOCK && INTERLEAVE_51.dst_len() == 6 * BLOCK,
        "a 5.1 block reads 64 frames of each plane and writes 64 interleaved frames"
    );
}

static mut STEREO_IN: [i16; 2 * BLOCK] = [0; 2 * BLOCK];
static mut STEREO_OUT: [i16; 2 * BLOCK] = [0; 2 * BLOCK];
static mut STEREO_BACK: [i16; 2 * BLOCK] = [0; 2 * BLOCK];
#[cfg(not(feature = "stereo-only"))]
static mut SURROUND_IN: [i16; 6 * FRAMES_51] = [0; 6 * FRAMES_51];
#[cfg(not(feature = "stereo-only"))]
static mut SURROUND_DMA: [i16; 6 * BLOCK] = [0; 6 * BLOCK];

/// Stereo planar -> interleaved, and back.
#[inline(never)]
fn stereo(planar: &[i16], frames: &mut [i16], back: &mut [i16]) -> bool {
    #[cfg(not(any(feature = "hand", feature = "runtime")))]
    {
        use layouts::{DEINTERLEAVE_STEREO, INTERLEAVE_STEREO};
        INTERLEAVE_STEREO.run(planar, frames).is_ok()
            && DEINTERLEAVE_STEREO.run(frames, back).is_ok()
    }
    #[cfg(feature = "runtime")]
    {
        use layouts::{STEREO_FRAMES, STEREO_PLANAR};
        strided_layout::copy(planar, &STEREO_PLANAR, frames, &STEREO_FRAMES).is_ok()
            && strided_layout::copy(frames, &STEREO_FRAMES, back, &STEREO_PLANAR).is_ok()
    }
    #[cfg(feature = "hand")]
    {
        let (left, right) = planar.split_at(BLOCK);
        for ((f, &l), &r) in frames.chunks_exact_mut(2).zip(left).zip(right) {
            f[0] = l;
            f[1] = r;
        }
        let (left, right) = back.split_at_mut(BLOCK);
        for ((f, l), r) in frames.chunks_exact(2).zip(left).zip(right) {
            *l = f[0];
            *r = f[1];
        }
        true
    }
}

/// One 5.1 DMA block: frames `block·64 ..` of the six planes, interleaved into `dma`.
#[cfg(not(feature = "stereo-only"))]
#[inline(never)]
fn surround_block(planar: &[i16], block: usize, dma: &mut [i16]) -> bool {
    let Some(src) = planar.get(block * BLOCK..) else {
        return false;
    };
    #[cfg(not(any(feature = "hand", feature = "runtime")))]
    {
        layouts::INTERLEAVE_51.run(src, dma).is_ok()
    }
    #[cfg(feature = "runtime")]
    {
        use layouts::{SURROUND_FRAMES, SURROUND_PLANAR};
        strided_layout::copy(src, &SURROUND_PLANAR, dma, &SURROUND_FRAMES).is_ok()
    }
    #[cfg(feature = "hand")]
    {
        for (f, frame) in dma.chunks_exact_mut(6).enumerate() {
            for (c, slot) in frame.iter_mut().enumerate() {
                *slot = src.get(c * FRAMES_51 + f).copied().unwrap_or(0);
            }
        }
        true
    }
}

/// Whether the buffers hold what the copies should have written: the interleaved stereo
/// frames, the stereo planes back, and the last 5.1 block's interleaved frames (built with
/// `qemu`, whose exit status reports it).
#[cfg(feature = "qemu")]
#[inline(never)]
fn written() -> bool {
    // SAFETY: reads of initialised statics, after the copies.
    let (input, frames, back) = unsafe {
        (
            read_volatile(&raw const STEREO_IN),
            read_volatile(&raw const STEREO_OUT),
            read_volatile(&raw const STEREO_BACK),
        )
    };
    let (left, right) = input.split_at(BLOCK);
    let stereo = frames
        .chunks_exact(2)
        .zip(left.iter().zip(right))
        .all(|(f, (&l, &r))| matches!(f, &[a, b] if a == l && b == r));
    #[cfg(not(feature = "stereo-only"))]
    let surround = {
        // SAFETY: as above.
        let (planes, dma) = unsafe {
            (
                read_volatile(&raw const SURROUND_IN),
                read_volatile(&raw const SURROUND_DMA),
            )
        };
        let first = FRAMES_51 - BLOCK;
        dma.chunks_exact(6).enumerate().all(|(f, frame)| {
            frame
                .iter()
                .enumerate()
                .all(|(c, &x)| planes.get(c * FRAMES_51 + first + f) == Some(&x))
        })
    };
    #[cfg(feature = "stereo-only")]
    let surround = true;
    stereo && back == input && surround
}

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    // SAFETY: single-threaded; these are the only references to the buffers while they live.
    let (stereo_in, stereo_out, stereo_back) = unsafe {
        (
            &mut *(&raw mut STEREO_IN),
            &mut *(&raw mut STEREO_OUT),
            &mut *(&raw mut STEREO_BACK),
        )
    };
    // Inputs the optimiser cannot see: the "codec" writes them.
    for (i, s) in stereo_in.iter_mut().enumerate() {
        // SAFETY: a valid, aligned pointer to a live element.
        unsafe { write_volatile(s, i as i16) };
    }
    let mut ok = stereo(stereo_in, stereo_out, stereo_back);
    if cfg!(feature = "twice") {
        ok &= stereo(stereo_in, stereo_out, stereo_back);
    }
    #[cfg(not(feature = "stereo-only"))]
    {
        // SAFETY: as above.
        let (surround, dma) =
            unsafe { (&mut *(&raw mut SURROUND_IN), &mut *(&raw mut SURROUND_DMA)) };
        for (i, s) in surround.iter_mut().enumerate() {
            // SAFETY: as above.
            unsafe { write_volatile(s, i as i16) };
        }
        for block in 0..FRAMES_51 / BLOCK {
            ok &= surround_block(surround, block, dma);
            // The DMA engine would take the block here.
            // SAFETY: a read of an initialised static.
            black_box(unsafe { read_volatile(&raw const SURROUND_DMA) });
        }
    }
    // SAFETY: reads of initialised statics, to keep the results observable.
    black_box((ok, unsafe { read_volatile(&raw const STEREO_BACK) }));
    #[cfg(feature = "qemu")]
    {
        // The exit status says whether every copy returned `Ok` and wrote what it should:
        // `run` fails on any other, so the bare-metal loops are checked on an emulated
        // Cortex-M. (Both the one-call and the two-call builds check, once each, so the
        // checks cancel out of the instructions per copy.)
        let status = u32::from(!(ok && written()));
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
