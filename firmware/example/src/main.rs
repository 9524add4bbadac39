//! Firmware example: a 3x8x8 u8 image in CHW order becomes HWC, a strided crop of it is
//! gathered, and a 4x6 f32 matrix is transposed, all on static buffers. The layouts and the
//! copy plans are `const`: planned and validated by the compiler, so the program links only
//! the loops (no planner, no uniqueness search). No allocator, no panic path (the panic
//! handler calls a symbol that exists nowhere, so the link fails if one survives), `defmt`
//! logging behind a feature.
#![no_std]
#![no_main]

use core::panic::PanicInfo;
#[cfg(not(feature = "baseline"))]
use core::ptr::{read_volatile, write_volatile};

#[cfg(not(feature = "baseline"))]
use strided_layout::{
    CopyPlan, InterleaveLayout, InterleavedLayout, Layout, Order, Slice, const_unwrap,
};

unsafe extern "C" {
    /// Defined nowhere, on purpose.
    fn strided_layout_panic_path_found() -> !;
}

#[panic_handler]
fn panic(_: &PanicInfo) -> ! {
    // SAFETY: never runs; the call only exists so a reachable panic fails the link.
    unsafe { strided_layout_panic_path_found() }
}

/// A logger that writes nowhere: a real board uses `defmt-rtt` or a UART.
#[cfg(feature = "defmt")]
mod log {
    #[defmt::global_logger]
    struct Nowhere;

    // SAFETY: single-threaded firmware: acquire/release bracket every frame, nothing else
    // writes, and the writes go nowhere.
    unsafe impl defmt::Logger for Nowhere {
        fn acquire() {}
        unsafe fn flush() {}
        unsafe fn release() {}
        unsafe fn write(_bytes: &[u8]) {}
    }

    defmt::timestamp!("{=u32}", 0);
}

#[cfg(not(feature = "baseline"))]
mod layouts {
    use super::{
        CopyPlan, InterleaveLayout, InterleavedLayout, Layout, Order, Slice, const_unwrap,
    };

    /// The camera's 8-bit CHW image, and the same pixels as HWC (channels interleaved by 3).
    pub const CHW: Layout<3> = const_unwrap(Layout::dense([3, 8, 8], 1, Order::C));
    pub const HWC: InterleavedLayout<3> = const_unwrap(InterleavedLayout::dense(
        [3, 8, 8],
        1,
        const_unwrap(InterleaveLayout::new(0, 3)),
    ));
    /// Channel 1 (green), rows 0, 2, 4, 6 and columns 1, 3, 5, 7 of the image, and the dense
    /// 4x4 crop it is gathered into.
    pub const GREEN: Layout<2> = const_unwrap(
        const_unwrap(CHW.selected::<2>(0, 1))
            .sliced([Slice::new(None, None, 2), Slice::new(Some(1), None, 2)]),
    );
    pub const CROP: Layout<2> = const_unwrap(Layout::dense([4, 4], 1, Order::C));
    /// A 4x6 f32 matrix read through its transposed view, and the dense 6x4 transpose.
    pub const M_T: Layout<2> =
        const_unwrap(const_unwrap(Layout::dense([4, 6], 4, Order::C)).transposed(0, 1));
    pub const MT: Layout<2> = const_unwrap(Layout::dense([6, 4], 4, Order::C));

    /// The three copies, planned and validated at compile time.
    pub const TO_HWC: CopyPlan =
        const_unwrap(CopyPlan::from_lowered(&CHW.lowered(), &HWC.lowered()));
    pub const GATHER: CopyPlan = const_unwrap(CopyPlan::new(&GREEN, &CROP));
    pub const TRANSPOSE: CopyPlan = const_unwrap(CopyPlan::new(&M_T, &MT));

    // Compile-time checks that read as sentences when they fail.
    const _: () = assert!(CHW.is_contiguous_c(), "the camera writes CHW contiguously");
    const _: () = assert!(HWC.is_dense(), "the HWC buffer has no padding");
    const _: () = assert!(TO_HWC.dst_len() == 192 && GATHER.dst_len() == 16);
    const _: () = assert!(TRANSPOSE.src_len() == 24 && TRANSPOSE.dst_len() == 24);
}

#[cfg(not(feature = "baseline"))]
static mut IMAGE: [u8; 192] = [0; 192];
#[cfg(not(feature = "baseline"))]
static mut HWC_BUF: [u8; 192] = [0; 192];
#[cfg(not(feature = "baseline"))]
static mut CROP_BUF: [u8; 16] = [0; 16];
#[cfg(not(feature = "baseline"))]
static mut MAT: [f32; 24] = [0.0; 24];
#[cfg(not(feature = "baseline"))]
static mut MAT_T: [f32; 24] = [0.0; 24];

#[cfg(not(feature = "baseline"))]
fn run() -> Result<(), strided_layout::LayoutError> {
    use layouts::{GATHER, TO_HWC, TRANSPOSE};
    // SAFETY: single-threaded; these are the only references to the buffers while they live.
    let (image, hwc, crop, mat, mat_t) = unsafe {
        (
            &mut *(&raw mut IMAGE),
            &mut *(&raw mut HWC_BUF),
            &mut *(&raw mut CROP_BUF),
            &mut *(&raw mut MAT),
            &mut *(&raw mut MAT_T),
        )
    };
    // Inputs the optimiser cannot see: the "sensor" writes them.
    for (i, px) in image.iter_mut().enumerate() {
        // SAFETY: a valid, aligned pointer to a live element.
        unsafe { write_volatile(px, (i as u8).wrapping_mul(3)) };
    }
    for (i, x) in mat.iter_mut().enumerate() {
        // SAFETY: as above.
        unsafe { write_volatile(x, i as f32) };
    }

    // CHW -> HWC, the green crop, the transpose: each run checks only the buffers' lengths
    // and element size, then loops.
    TO_HWC.run(image, hwc)?;
    GATHER.run(image, crop)?;
    TRANSPOSE.run(mat, mat_t)?;

    #[cfg(feature = "defmt")]
    defmt::info!(
        "hwc[0..3] = {=[u8]}, crop[0] = {=u8}, mat_t[1] = {=f32}, layout {}",
        hwc[..3],
        crop[0],
        mat_t[1],
        layouts::HWC
    );
    Ok(())
}

#[unsafe(no_mangle)]
pub extern "C" fn _start() -> ! {
    #[cfg(not(feature = "baseline"))]
    {
        let ok = run().is_ok();
        // SAFETY: reads of initialised statics, to keep the results observable.
        let (a, b) = unsafe {
            (
                read_volatile(&raw const HWC_BUF),
                read_volatile(&raw const MAT_T),
            )
        };
        core::hint::black_box((ok, a, b));
    }
    loop {
        core::hint::spin_loop();
    }
}
