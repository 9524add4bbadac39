//! 5.1 surround audio: a decoder hands out planar `i16` channels (all of the front left
//! channel, then all of the front right, ...), the sound card takes interleaved frames
//! (FL FR C LFE SL SR, FL FR ...) in fixed-size blocks. Each block is one `copy` from a
//! window of the planar track into an interleaved block buffer; the last, shorter block gets a
//! shorter layout.
//!
//! Run: `cargo run --example audio_blocks`

use strided_layout::{
    InterleaveLayout, InterleavedLayout, Layout, LayoutError, Order, const_unwrap, copy,
};

/// Front left, front right, centre, low-frequency effects, surround left, surround right.
const CHANNELS: usize = 6;
/// Frames per block: what the sound card's DMA takes at a time.
const BLOCK: usize = 256;
/// Frames in the decoded track: three whole blocks and a partial one of 232 frames.
const FRAMES: usize = 1000;

/// The decoded track: one plane of `FRAMES` samples per channel.
const TRACK: Layout<2> = const_unwrap(Layout::dense_of::<i16>([CHANNELS, FRAMES], Order::C));
/// The sound card's block: channels interleaved by 6 (CoreAI's `InterleaveLayout` on axis 0).
const OUT: InterleavedLayout<2> = const_unwrap(InterleavedLayout::dense_of::<i16>(
    [CHANNELS, BLOCK],
    const_unwrap(InterleaveLayout::new(0, CHANNELS)),
));
const _: () = assert!(OUT.is_dense(), "a block has no gaps between frames");
const _: () = assert!(
    matches!(OUT.required_len(), Ok(n) if n == CHANNELS * BLOCK),
    "a block buffer holds 6 x 256 samples"
);

/// A recognisable sample: channel in the thousands, frame below.
fn sample(channel: usize, frame: usize) -> i16 {
    i16::try_from(channel * 5000 + frame % 4096).unwrap_or(i16::MAX)
}

fn main() -> Result<(), LayoutError> {
    let planar: Vec<i16> = (0..CHANNELS)
        .flat_map(|c| (0..FRAMES).map(move |f| sample(c, f)))
        .collect();
    let mut block = [0i16; CHANNELS * BLOCK];

    let mut start = 0;
    while start < FRAMES {
        let frames = BLOCK.min(FRAMES - start);
        // The window of the track this block plays: the same strides, an offset of `start`.
        let window = TRACK.narrowed(1, start, frames)?;
        if frames == BLOCK {
            copy(&planar, &window, &mut block, &OUT)?;
        } else {
            // The last block: `frames` interleaved frames at the front of the buffer.
            let out = OUT.narrowed(1, 0, frames)?;
            copy(&planar, &window, &mut block[..CHANNELS * frames], &out)?;
        }
        for (f, frame) in block.chunks_exact(CHANNELS).take(frames).enumerate() {
            for (c, &s) in frame.iter().enumerate() {
                assert_eq!(s, sample(c, start + f), "channel {c}, frame {}", start + f);
            }
        }
        println!(
            "block at frame {start:4}: {frames:3} frames, first frame {:?}",
            &block[..CHANNELS]
        );
        start += frames;
    }
    println!("track layout {TRACK}, block layout {OUT}");
    Ok(())
}
