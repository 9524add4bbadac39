//! A DMA buffer checked at compile time: an ADC in scan mode writes 4 channels x 64 samples of
//! `u16` interleaved (ch0 ch1 ch2 ch3, ch0 ...) into a static buffer; the DSP code wants them
//! planar. Both layouts are `const` items, and plain `const _: () = assert!(..)` items check,
//! before the program exists, what the DMA engine and the DSP code rely on. No dependency is
//! needed, and a failing check prints its message at its own line:
//!
//! ```text
//! error[E0080]: evaluation panicked: the DMA buffer must be exactly what the ADC writes
//! ```
//!
//! Run: `cargo run --example dma_buffer`

use strided_layout::{
    InterleaveLayout, InterleavedLayout, Layout, LayoutError, Order, const_unwrap, copy,
};

const CHANNELS: usize = 4;
const SAMPLES: usize = 64;

/// What the ADC's DMA writes: the channel axis interleaved by 4.
const DMA: InterleavedLayout<2> = const_unwrap(InterleavedLayout::dense_of::<u16>(
    [CHANNELS, SAMPLES],
    const_unwrap(InterleaveLayout::new(0, CHANNELS)),
));
/// What the DSP code reads: one plane per channel.
const PLANAR: Layout<2> = const_unwrap(Layout::dense_of::<u16>([CHANNELS, SAMPLES], Order::C));

/// The buffer the DMA engine is programmed with (on a board, a `static` in DMA-able RAM).
type DmaBuf = [u16; CHANNELS * SAMPLES];

// The checks. Each is a `const` item: evaluated by `cargo build`, never at run time.
const _: () = assert!(DMA.is_dense(), "the DMA engine writes one gapless run");
const _: () = assert!(
    matches!(DMA.required_len(), Ok(n) if n == CHANNELS * SAMPLES),
    "the DMA buffer must be exactly what the ADC writes"
);
const _: () = assert!(
    matches!(DMA.required_size_in_bytes(), Ok(n) if n == size_of::<DmaBuf>()),
    "the DMA transfer length in bytes is the buffer's size"
);
const _: () = assert!(
    PLANAR.is_contiguous_c(),
    "the DSP code walks each channel as one slice"
);

fn main() -> Result<(), LayoutError> {
    // Stand-in for the DMA transfer: sample `s` of channel `c` is `c * 1000 + s`.
    let mut dma: DmaBuf = [0; CHANNELS * SAMPLES];
    for (i, x) in dma.iter_mut().enumerate() {
        let (s, c) = (i / CHANNELS, i % CHANNELS);
        *x = u16::try_from(c * 1000 + s).unwrap_or(u16::MAX);
    }
    let mut planar = [0u16; CHANNELS * SAMPLES];
    copy(&dma, &DMA, &mut planar, &PLANAR)?;
    for (c, channel) in planar.chunks_exact(SAMPLES).enumerate() {
        let mean = channel.iter().map(|&x| u32::from(x)).sum::<u32>() / 64;
        println!("channel {c}: first {:?}, mean {mean}", &channel[..4]);
        assert_eq!(channel[5], u16::try_from(c * 1000 + 5).unwrap_or(0));
    }
    println!("DMA layout {DMA} ({} bytes)", DMA.required_size_in_bytes()?);
    Ok(())
}
