//! Every micro-kernel and the streaming macro-kernel against an element-by-element transpose:
//! widths 1..=70, odd strides, flipped and page-strided rows.

use super::stream::{LINE, PAGE, aliasing, has_line_kernel, line_blocks, tile_blocks, whole_lines};
use super::*;
use std::vec::Vec;

/// Whether this run takes the quick scopes: a debug build (README's `cargo test`), unless
/// `STRIDED_LAYOUT_EXHAUSTIVE` is set; an optimised one (`cargo test --release`, as CI runs it)
/// takes the full ones. The integration tests read the same variable the same way.
fn quick() -> bool {
    cfg!(debug_assertions) && std::env::var_os("STRIDED_LAYOUT_EXHAUSTIVE").is_none()
}

/// Every width 1..=70 (under Miri, which is slow: one element, a vector and a tail, four
/// vectors and a tail).
fn widths() -> &'static [usize] {
    const ALL: [usize; 70] = {
        let mut w = [0; 70];
        let mut i = 0;
        while i < 70 {
            w[i] = i + 1;
            i += 1;
        }
        w
    };
    if cfg!(miri) { &[1, 9, 33] } else { &ALL }
}

fn check(ea: usize, eb: usize) {
    // dst (ea, eb) C order, src the transpose: src[i + j·ea].
    let src: Vec<f32> = (0..ea * eb).map(|x| x as f32).collect();
    let mut dst = std::vec![-1f32; ea * eb];
    // SAFETY: both buffers hold `ea·eb` elements and are distinct.
    unsafe {
        transpose_unchecked(
            dst.as_mut_ptr(),
            eb as isize,
            src.as_ptr(),
            ea as isize,
            ea,
            eb,
        );
    }
    for i in 0..ea {
        for j in 0..eb {
            assert_eq!(dst[i * eb + j], src[i + j * ea], "{ea}x{eb} at ({i},{j})");
        }
    }
}

#[test]
fn transpose_matches_scalar_for_widths_1_to_70() {
    for &ea in widths() {
        for &eb in widths() {
            check(ea, eb);
            check64(ea, eb);
            check_small(ea, eb, 3, |x| u8::try_from(x % 251).unwrap());
            check_small(ea, eb, 1, |x| u16::try_from(x % 65521).unwrap());
            check_small(ea, eb, 1, |x| x as f32);
            check_small(ea, eb, 2, |x| x as u64);
        }
    }
}

/// A transpose with padded row strides (`eb + pad`, `ea + pad + 2`), against
/// the index formula; the padding stays untouched.
fn check_small<E: Copy + PartialEq + core::fmt::Debug + Default + 'static>(
    ea: usize,
    eb: usize,
    pad: usize,
    val: fn(usize) -> E,
) {
    let (dr, sr) = (eb + pad, ea + pad + 2);
    let src: Vec<E> = (0..sr * eb).map(val).collect();
    let mut dst = std::vec![E::default(); dr * ea];
    // SAFETY: the block's offsets `i·dr + j < dr·ea` and `i + j·sr < sr·eb` lie in the
    // buffers, which are distinct.
    unsafe {
        transpose_unchecked(
            dst.as_mut_ptr(),
            dr as isize,
            src.as_ptr(),
            sr as isize,
            ea,
            eb,
        );
    }
    for i in 0..ea {
        for j in 0..dr {
            let want = if j < eb {
                src[i + j * sr]
            } else {
                E::default()
            };
            assert_eq!(dst[i * dr + j], want, "{ea}x{eb} at ({i},{j})");
        }
    }
}

fn check64(ea: usize, eb: usize) {
    let src: Vec<u64> = (0..ea * eb).map(|x| x as u64 * 0x1_0000_0001).collect();
    let mut dst = std::vec![0u64; ea * eb];
    // SAFETY: both buffers hold `ea·eb` elements and are distinct.
    unsafe {
        transpose_unchecked(
            dst.as_mut_ptr(),
            eb as isize,
            src.as_ptr(),
            ea as isize,
            ea,
            eb,
        );
    }
    for i in 0..ea {
        for j in 0..eb {
            assert_eq!(dst[i * eb + j], src[i + j * ea], "{ea}x{eb} at ({i},{j})");
        }
    }
}

/// The streaming transpose of an `ea × eb` block against the index formula: destination
/// rows `dr` apart (a whole number of lines), the destination starting `shift` elements
/// into a 64-byte-aligned buffer, source rows `sr = ea + pad` apart (odd pads included);
/// elements outside the block stay untouched.
fn check_stream<E: Copy + PartialEq + core::fmt::Debug + 'static>(
    ea: usize,
    eb: usize,
    shift: usize,
    pad: usize,
    rev: bool,
    val: impl Fn(usize) -> E,
    fill: E,
) {
    let line = LINE / size_of::<E>();
    let dr = eb.div_ceil(line) * line + line;
    let sr = ea + pad;
    let src: Vec<E> = (0..sr * eb).map(&val).collect();
    // A 64-byte-aligned destination: over-allocate and start at the aligned element.
    let mut buf = std::vec![fill; dr * ea + 2 * line + shift];
    let aligned = buf.as_ptr().align_offset(LINE);
    if aligned >= line {
        // No element of the buffer starts a line: `E`'s alignment is below its size (`f64`
        // on i686 is 4-aligned) and the allocation landed between lines. Nothing to test
        // with this buffer.
        return;
    }
    let base = aligned + shift;
    let dst = &mut buf[base..];
    let ok = streams::<E>(dr as isize, ea, eb);
    // With `rev`, the source's rows run backwards: row `j` of the block is row
    // `eb - 1 - j` of `src`.
    let (sp, srs) = if rev {
        // From the whole buffer's pointer: the block reads rows before this one.
        (src.as_ptr().wrapping_add((eb - 1) * sr), -(sr as isize))
    } else {
        (src.as_ptr(), sr as isize)
    };
    assert_eq!(
        ok,
        has_line_kernel(size_of::<E>()) && ea >= line && eb >= 2 * line
    );
    // Streamed (non-temporal stores) and cached (plain stores), each into a fresh buffer.
    for nt in [true, false] {
        dst.fill(fill);
        // The block's destination `i·dr + j < ea·dr` lies in `dst`, its source `i ± j·sr`
        // in `src` (`i + j·sr < sr·eb` either way round); distinct buffers. Without a line
        // kernel, the cached transpose runs instead.
        if ok {
            // SAFETY: the block (above); `streams` holds (`ok`).
            unsafe {
                transpose_stream_unchecked(dst.as_mut_ptr(), dr as isize, sp, srs, ea, eb, nt);
            }
            crate::kernel::stream::stream_fence();
        } else {
            let micro = |d: *mut E, s: *const E| {
                // SAFETY: `line_blocks` hands over a 4 × 4 block of the block (above).
                unsafe { micro_portable::<E, 4>(d, dr as isize, s, srs) };
            };
            let edge = |d: *mut E, s: *const E, a: usize, b: usize| {
                // SAFETY: `line_blocks` hands over a sub-block of the block (above).
                unsafe { portable_block(d, dr as isize, s, srs, a, b) };
            };
            // SAFETY: the block (above); `micro` and `edge` are sound for its blocks.
            unsafe {
                line_blocks::<E, 4>(
                    dst.as_mut_ptr(),
                    dr as isize,
                    sp,
                    srs,
                    [ea, eb],
                    micro,
                    edge,
                    |_| {},
                );
            }
        }
        for i in 0..ea {
            for j in 0..dr {
                let want = match (j < eb, rev) {
                    (false, _) => fill,
                    (true, false) => src[i + j * sr],
                    (true, true) => src[i + (eb - 1 - j) * sr],
                };
                assert_eq!(
                    dst[i * dr + j],
                    want,
                    "{ea}x{eb} shift {shift} pad {pad} nt {nt} at ({i},{j})"
                );
            }
        }
    }
}

/// The portable edge: element by element.
unsafe fn portable_block<E: Copy>(
    d: *mut E,
    dr: isize,
    s: *const E,
    sr: isize,
    ea: usize,
    eb: usize,
) {
    for i in 0..ea {
        for j in 0..eb {
            // SAFETY: `i < ea`, `j < eb`: an element of the caller's source block.
            let from = unsafe { s.offset(i as isize + j as isize * sr) };
            // SAFETY: `from` is a source element (above).
            let x = unsafe { *from };
            // SAFETY: `i < ea`, `j < eb`: an element of the caller's destination block.
            let to = unsafe { d.offset(i as isize * dr + j as isize) };
            // SAFETY: `to` is a destination element (above).
            unsafe { *to = x };
        }
    }
}

#[test]
fn transpose_stream_matches_scalar_for_widths_1_to_70() {
    for &ea in widths() {
        for &eb in widths() {
            let (shift, pad) = ((ea + eb) % 17, (ea * 3 + eb) % 4);
            let rev = (ea + eb) % 3 == 0;
            check_stream(ea, eb, shift % 16, pad, rev, |x| x as f32, -1.0);
            check_stream(
                ea,
                eb,
                shift % 8,
                pad + 1,
                rev,
                |x| x as u64 * 0x1_0000_0001,
                0,
            );
        }
    }
}

/// The streaming transpose of 4-byte elements whose source rows are a multiple of 2 KiB
/// apart (the line kernel reads whole lines then, stored plainly too), against the index
/// formula, at line-kernel sizes and past them.
#[test]
fn transpose_stream_with_source_rows_2_kib_apart_matches_scalar() {
    for (k, ea) in [16, 17, 32, 45].into_iter().enumerate() {
        for (l, eb) in [32, 33, 48, 70].into_iter().enumerate() {
            // Under Miri six of the sixteen pairs: each size and both directions.
            if cfg!(miri) && (k + l) % 3 != 0 {
                continue;
            }
            let pad = if cfg!(miri) { 512 } else { 1024 } - ea;
            check_stream(
                ea,
                eb,
                (k + l) % 16,
                pad,
                (k + l) % 2 == 1,
                |x| x as f32,
                -1.0,
            );
        }
    }
}

/// The streaming transpose through the stack tiles (on x86-64 with AVX) against the index
/// formula: an `ea × eb` block whose destination starts `shift` elements into a line, both
/// row strides two pages (one under Miri, which is slow) plus `extra` elements, the source
/// rows backwards with `rev`, stored non-temporally with `nt` (plainly without); elements
/// outside the block stay untouched. With `extra` 0 the strides are whole pages
/// ([`aliasing`]); otherwise the destination rows are not a whole number of lines apart
/// ([`whole_lines`]) and meet the tiles at every alignment.
fn check_tiled<E: Copy + PartialEq + core::fmt::Debug + 'static>(
    [ea, eb]: [usize; 2],
    shift: usize,
    extra: usize,
    rev: bool,
    nt: bool,
    val: impl Fn(usize) -> E,
    fill: E,
) {
    let stride = if cfg!(miri) { PAGE } else { 2 * PAGE } / size_of::<E>() + extra;
    assert!(ea <= stride && eb + shift <= stride);
    let (dr, sr) = (stride as isize, stride as isize);
    assert_eq!(aliasing::<E>(dr, sr), extra == 0);
    assert_eq!(
        whole_lines::<E>(dr),
        (extra * size_of::<E>()).is_multiple_of(LINE)
    );
    let src: Vec<E> = (0..stride * eb).map(&val).collect();
    let line = LINE / size_of::<E>();
    let mut buf = std::vec![fill; stride * ea + 2 * line];
    let aligned = buf.as_ptr().align_offset(LINE);
    if aligned >= line {
        return; // no element starts a line (see `check_stream`)
    }
    let dst = &mut buf[aligned + shift..];
    let (sp, srs) = if rev {
        (src.as_ptr().wrapping_add((eb - 1) * stride), -sr)
    } else {
        (src.as_ptr(), sr)
    };
    let ok = streams::<E>(dr, ea, eb);
    assert_eq!(
        ok,
        has_line_kernel(size_of::<E>()) && ea >= line && eb >= 2 * line
    );
    // The block's destination `i·dr + j < ea·dr` lies in `dst`, its source `i ± j·sr` in
    // `src`; distinct buffers. Without a line kernel, the portable tiles run instead.
    if ok {
        // SAFETY: the block (above); `streams` holds (`ok`).
        unsafe { transpose_stream_unchecked(dst.as_mut_ptr(), dr, sp, srs, ea, eb, nt) };
        crate::kernel::stream::stream_fence();
    } else {
        let micro = |t: *mut E, s: *const E| {
            // SAFETY: `tile_blocks` hands over a 2 × 2 block inside the tile and the block.
            unsafe { micro_portable::<E, 2>(t, 8, s, srs) };
        };
        let edge = |d: *mut E, s: *const E, a: usize, b: usize| {
            // SAFETY: `tile_blocks` hands over a sub-block of the block (above).
            unsafe { portable_block(d, dr, s, srs, a, b) };
        };
        let out = |d: *mut E, t: *const E| {
            // SAFETY: `tile_blocks` hands over 8 elements of a tile row and of a destination
            // row, distinct memory.
            unsafe { core::ptr::copy_nonoverlapping(t, d, 8) };
        };
        // SAFETY: the block (above); the kernels are sound for what they are handed.
        unsafe {
            tile_blocks::<E, 8, 4, 2>(
                dst.as_mut_ptr(),
                dr,
                sp,
                srs,
                [ea, eb],
                micro,
                edge,
                |_| {},
                out,
            );
        }
    }
    for i in 0..ea {
        for j in 0..stride - shift {
            let want = match (j < eb, rev) {
                (false, _) => fill,
                (true, false) => src[i + j * stride],
                (true, true) => src[i + (eb - 1 - j) * stride],
            };
            assert_eq!(
                dst[i * stride + j],
                want,
                "{ea}x{eb} shift {shift} rev {rev} nt {nt} at ({i},{j})"
            );
        }
    }
}

#[test]
fn transpose_stream_with_page_strides_matches_scalar_around_the_tiles() {
    // The f32 tile is 64 destination rows by 128 columns, the f64 one 32 by 64: sizes
    // below, at and past one and two tiles, with heads and tails of odd widths.
    let sizes: &[usize] = if cfg!(miri) {
        &[1, 21]
    } else if quick() {
        &[1, 7, 32, 33, 64, 65, 128, 129, 257]
    } else {
        &[
            1, 7, 31, 32, 33, 63, 64, 65, 70, 127, 128, 129, 200, 257, 300,
        ]
    };
    for (k, &ea) in sizes.iter().enumerate() {
        for (l, &eb) in sizes.iter().enumerate() {
            let rev = (k + l) % 3 == 0;
            let nt = (k + l) % 2 == 0;
            check_tiled([ea, eb], (k * 5 + l) % 16, 0, rev, nt, |x| x as f32, -1.0);
            check_tiled(
                [ea, eb],
                (k + l * 3) % 8,
                0,
                rev,
                !nt,
                |x| x as u64 * 0x1_0000_0001,
                0,
            );
        }
    }
    // Every width 1..=70 on one side, a tile and a half on the other (not under Miri:
    // the portable tiles ran above).
    if cfg!(miri) {
        return;
    }
    for &w in widths() {
        check_tiled([w, 200], w % 16, 0, w % 2 == 0, true, |x| x as f32, -1.0);
        check_tiled([100, w], w % 16, 0, w % 3 == 0, false, |x| x as f32, -1.0);
        check_tiled(
            [w, 100],
            w % 8,
            0,
            false,
            w % 2 == 0,
            |x| x as u64,
            u64::MAX,
        );
        check_tiled([50, w], w % 8, 0, true, w % 2 == 1, |x| x as u64, u64::MAX);
    }
}

/// The stack tiles where the destination rows are not a whole number of lines apart (a
/// 3000² `f32` transpose, say): each row meets the tiles at its own alignment, so every
/// row's first and last partial lines are written apart from its whole ones. Strides of
/// two pages plus 1 to 17 elements (every alignment of a row start in a line, for each
/// element size), sizes below, at and past one and two tiles. A row written from a wrong
/// offset, or a partial line left unwritten or overwritten, fails it.
#[test]
fn transpose_stream_with_rows_off_the_lines_matches_scalar() {
    let sizes: &[usize] = if cfg!(miri) {
        &[1, 21]
    } else {
        &[1, 31, 64, 65, 127, 128, 129, 257]
    };
    let extras: &[usize] = if cfg!(miri) {
        &[3]
    } else if quick() {
        &[1, 3, 8, 17]
    } else {
        &[1, 2, 3, 5, 7, 8, 9, 13, 15, 17]
    };
    for &extra in extras {
        for (k, &ea) in sizes.iter().enumerate() {
            for (l, &eb) in sizes.iter().enumerate() {
                let rev = (k + l + extra) % 3 == 0;
                let shift = (k * 5 + l + extra) % 16;
                let nt = (k + l) % 2 == 1;
                check_tiled([ea, eb], shift, extra, rev, nt, |x| x as f32, -1.0);
                check_tiled([ea, eb], shift % 8, extra, rev, !nt, |x| x as u64, u64::MAX);
            }
        }
    }
}

#[test]
fn tile_blocks_portable_matches_scalar_at_odd_sizes() {
    // Under Miri a tile and a tail, and tiles and a tail, one shift.
    let (ebs, shifts): (&[usize], &[usize]) = if cfg!(miri) {
        (&[9, 33], &[1])
    } else {
        (&[1, 9, 17, 33, 70], &[0, 1, 3])
    };
    for &ea in widths() {
        for &eb in ebs {
            for &shift in shifts {
                check_tile_portable(ea, eb, shift);
            }
        }
    }
}

/// `tile_blocks` with portable 2 × 2 micro-kernels in 8 × 4 tiles, on `u128` rows
/// (lines of 4 elements), against the index formula; every tile row written out starts
/// on a line.
fn check_tile_portable(ea: usize, eb: usize, shift: usize) {
    let dr = eb.div_ceil(4) * 4 + 4;
    let sr = ea + 3;
    let src: Vec<u128> = (0..sr * eb).map(|x| x as u128).collect();
    let mut buf = std::vec![u128::MAX; dr * ea + 8 + shift];
    let base = buf.as_ptr().align_offset(LINE) + shift;
    let dst = &mut buf[base..];
    let micro = |t: *mut u128, s: *const u128| {
        // SAFETY: as in `check_stream`: a 2 × 2 block inside the tile and the block.
        unsafe { micro_portable::<u128, 2>(t, 8, s, sr as isize) };
    };
    let edge = |d: *mut u128, s: *const u128, a: usize, b: usize| {
        // SAFETY: as in `check_stream`: a sub-block of the block.
        unsafe { portable_block(d, dr as isize, s, sr as isize, a, b) };
    };
    let out = |d: *mut u128, t: *const u128| {
        assert_eq!(d.align_offset(LINE), 0, "tile row not line-aligned");
        // SAFETY: as in `check_stream`: 8 elements of a tile row and of a destination row.
        unsafe { core::ptr::copy_nonoverlapping(t, d, 8) };
    };
    // SAFETY: as in `check_stream`.
    unsafe {
        tile_blocks::<u128, 8, 4, 2>(
            dst.as_mut_ptr(),
            dr as isize,
            src.as_ptr(),
            sr as isize,
            [ea, eb],
            micro,
            edge,
            |_| {},
            out,
        );
    }
    for i in 0..ea {
        for j in 0..dr {
            let want = if j < eb { src[i + j * sr] } else { u128::MAX };
            assert_eq!(
                dst[i * dr + j],
                want,
                "{ea}x{eb} shift {shift} at ({i},{j})"
            );
        }
    }
}

#[test]
fn line_blocks_portable_matches_scalar_at_odd_sizes() {
    for (ea, eb) in [
        (1, 1),
        (4, 4),
        (5, 9),
        (12, 70),
        (33, 17),
        (64, 64),
        (70, 3),
    ] {
        for shift in [0, 1, 3] {
            check_portable(ea, eb, shift);
        }
    }
    // Past one macro-tile (`MACRO · 4` = 128 elements here) each way, with partial ones.
    if !cfg!(miri) {
        for (ea, eb) in [(150, 270), (270, 131), (257, 257)] {
            check_portable(ea, eb, 1);
        }
    }
}

/// `line_blocks` with the portable 4 × 4 micro-kernel, on a buffer whose lines hold 4
/// elements (16-byte elements are not needed: the kernel only aligns to `LINE` bytes, so
/// `u128` rows of 4 are lines).
fn check_portable(ea: usize, eb: usize, shift: usize) {
    let dr = eb.div_ceil(4) * 4 + 4;
    let sr = ea + 1;
    let src: Vec<u128> = (0..sr * eb).map(|x| x as u128).collect();
    let mut buf = std::vec![u128::MAX; dr * ea + 8 + shift];
    let base = buf.as_ptr().align_offset(LINE) + shift;
    let dst = &mut buf[base..];
    let micro = |d: *mut u128, s: *const u128| {
        assert_eq!(d.align_offset(LINE), 0, "micro-kernel row not line-aligned");
        // SAFETY: as in `check_stream`: a 4 × 4 block of the block.
        unsafe { micro_portable::<u128, 4>(d, dr as isize, s, sr as isize) };
    };
    let edge = |d: *mut u128, s: *const u128, a: usize, b: usize| {
        // SAFETY: as in `check_stream`: a sub-block of the block.
        unsafe { portable_block(d, dr as isize, s, sr as isize, a, b) };
    };
    // SAFETY: as in `check_stream`.
    unsafe {
        line_blocks::<u128, 4>(
            dst.as_mut_ptr(),
            dr as isize,
            src.as_ptr(),
            sr as isize,
            [ea, eb],
            micro,
            edge,
            |_| {},
        );
    }
    for i in 0..ea {
        for j in 0..dr {
            let want = if j < eb { src[i + j * sr] } else { u128::MAX };
            assert_eq!(
                dst[i * dr + j],
                want,
                "{ea}x{eb} shift {shift} at ({i},{j})"
            );
        }
    }
}

#[test]
fn portable_micro_kernel_transposes_a_block() {
    let src: Vec<f32> = (0..16).map(|x| x as f32).collect();
    let mut dst = [0f32; 16];
    // SAFETY: 4 × 4 elements in each buffer.
    unsafe { micro_portable::<f32, 4>(dst.as_mut_ptr(), 4, src.as_ptr(), 4) };
    for i in 0..4 {
        for j in 0..4 {
            assert_eq!(dst[i * 4 + j], src[i + j * 4]);
        }
    }
}
