//! Firmware example: a 3x8x8 u8 image in CHW order becomes HWC, a strided crop of it is
//! gathered, and a 4x6 f32 matrix is transposed, all on static buffers with `const` layouts
//! checked at compile time. No allocator, no panic path (the panic handler calls a symbol
//! that exists nowhere, so the link fails if one survives), `defmt` logging behind a feature.
#![no_std]
#![no_main]

use core::panic::PanicInfo;
#[cfg(not(feature = "baseline"))]
use core::ptr::{read_volatile, write_volatile};

#[cfg(not(feature = "baseline"))]
use strided_layout::{InterleaveLayout, InterleavedLayout, Layout, Order, Slice, const_unwrap};

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
    use super::{InterleaveLayout, InterleavedLayout, Layout, Order, const_unwrap};

    /// The camera's 8-bit CHW image, and the same pixels as HWC (channels interleaved by 3).
    pub const CHW: Layout<3> = const_unwrap(Layout::dense_of::<u8>([3, 8, 8], Order::C));
    pub const HWC: InterleavedLayout<3> = const_unwrap(InterleavedLayout::dense_of::<u8>(
        [3, 8, 8],
        const_unwrap(InterleaveLayout::new(0, 3)),
    ));
    /// A 4x6 f32 matrix and its transpose (6x4, dense).
    pub const M: Layout<2> = const_unwrap(Layout::dense_of::<f32>([4, 6], Order::C));
    pub const MT: Layout<2> = const_unwrap(Layout::dense_of::<f32>([6, 4], Order::C));
    /// A 4x4 crop, every second row and column, gathered densely.
    pub const CROP: Layout<2> = const_unwrap(Layout::dense_of::<u8>([4, 4], Order::C));

    const _: () = assert!(CHW.is_contiguous_c(), "the camera writes planar CHW");
    const _: () = assert!(HWC.is_dense(), "the HWC buffer has no gaps");
    const _: () = assert!(
        matches!(HWC.required_len(), Ok(192)),
        "HWC_BUF holds 3 x 8 x 8 bytes"
    );
    const _: () = assert!(MT.is_unique(), "a transpose destination is written once");
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
    use layouts::{CHW, CROP, HWC, M, MT};
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

    // CHW -> HWC.
    strided_layout::copy(image, &CHW, hwc, &HWC)?;
    // Channel 1 (green), rows 0, 2, 4, 6 and columns 1, 3, 5, 7, as a dense 4x4 crop.
    let view = CHW
        .selected::<2>(1, 1)?
        .sliced([Slice::new(None, None, 2), Slice::new(Some(1), None, 2)])?;
    strided_layout::copy(image, &view, crop, &CROP)?;
    // Transpose: read M through its transposed view, write MT densely.
    strided_layout::copy(mat, &M.transposed(0, 1)?, mat_t, &MT)?;

    #[cfg(feature = "defmt")]
    defmt::info!(
        "hwc[0..3] = {=[u8]}, crop[0] = {=u8}, mat_t[1] = {=f32}, layout {}",
        hwc[..3],
        crop[0],
        mat_t[1],
        HWC
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
