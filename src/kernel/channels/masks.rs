//! The byte-shuffle masks of the channel kernels, computed at compile time.

/// Byte-shuffle masks for `C` channels of `SIZE`-byte elements.
pub(super) struct Masks<const C: usize, const SIZE: usize>;

impl<const C: usize, const SIZE: usize> Masks<C, SIZE> {
    /// `INTERLEAVE[m][c]`: which byte of plane `c`'s 16-byte vector goes to each byte of
    /// interleaved chunk `m` (`0x80`: none).
    pub(super) const INTERLEAVE: [[[u8; 16]; C]; C] = masks::<C>(SIZE, true);
    /// `DEINTERLEAVE[c][m]`: which byte of interleaved chunk `m` goes to each byte of plane
    /// `c`'s vector (`0x80`: none).
    pub(super) const DEINTERLEAVE: [[[u8; 16]; C]; C] = masks::<C>(SIZE, false);
    /// `EXTRACT[m]`: which byte of interleaved chunk `m` goes to each byte of plane 0's
    /// vector, plane 0's masks alone (one channel gathered from pixels of `C` elements).
    pub(super) const EXTRACT: [[u8; 16]; C] = Self::DEINTERLEAVE[0];
    /// [`Masks::EXTRACT`] with the plane's elements in reverse order within each group.
    pub(super) const EXTRACT_REVERSED: [[u8; 16]; C] = reversed(&Self::EXTRACT, SIZE, true);
    /// `INSERT[m]`: which byte of plane 0's vector goes to each byte of interleaved chunk `m`
    /// (`0x80`: none, a byte of another lane).
    pub(super) const INSERT: [[u8; 16]; C] = plane_zero(&Self::INTERLEAVE);
    /// [`Masks::INSERT`] for a plane vector whose elements are in reverse order within each
    /// group.
    pub(super) const INSERT_REVERSED: [[u8; 16]; C] = reversed(&Self::INSERT, SIZE, false);
    /// `INSERT_SELECT[m]`: `0xFF` where interleaved chunk `m` holds a byte of channel 0.
    pub(super) const INSERT_SELECT: [[u8; 16]; C] = plane_zero(&Self::SELECT);
    /// Whether each plane byte position feeds exactly one chunk (3 channels: `16 % 3 != 0`
    /// rotates the channel from chunk to chunk). Then one shuffle per plane puts every byte
    /// at its final position, and chunks are blends of those: `C` shuffles a group instead
    /// of `C²`.
    pub(super) const BLEND: bool = blendable(&Self::INTERLEAVE);
    /// `SELECT[m][c]`: `0xFF` where interleaved chunk `m` holds a byte of channel `c`.
    pub(super) const SELECT: [[[u8; 16]; C]; C] = select(&Self::INTERLEAVE, false);
    /// `SELECT_BACK[c][m]`: `SELECT[m][c]`.
    pub(super) const SELECT_BACK: [[[u8; 16]; C]; C] = select(&Self::INTERLEAVE, true);
    /// With [`Masks::BLEND`], plane `c` shuffled by `ROTATE[c]` has each byte where its
    /// chunk wants it.
    pub(super) const ROTATE: [[u8; 16]; C] = rotate(&Self::INTERLEAVE, false);
    /// With [`Masks::BLEND`], the blend of the chunks by `SELECT_BACK[c]` shuffled by
    /// `ROTATE_BACK[c]` is plane `c`.
    pub(super) const ROTATE_BACK: [[u8; 16]; C] = rotate(&Self::DEINTERLEAVE, true);
}

/// Each mask of `table` for a vector whose `16 / size` elements of `size` bytes are in
/// reverse order: where `positions`, its bytes moved to the mirrored positions (the masks of
/// a vector stored reversed), else its picked bytes mirrored (the masks of a vector loaded
/// reversed); `0x80` stays.
#[expect(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    reason = "`m < C`, `b < 16` and a picked byte below 16 index arrays of those lengths, and so do their mirrors; `size` is 1, 2, 4 or 8"
)]
pub(super) const fn reversed<const C: usize>(
    table: &[[u8; 16]; C],
    size: usize,
    positions: bool,
) -> [[u8; 16]; C] {
    let mut out = [[0x80u8; 16]; C];
    let mut m = 0;
    while m < C {
        let mut b = 0;
        while b < 16 {
            let x = table[m][b] as usize;
            if positions {
                out[m][mirror(b, size)] = table[m][b];
            } else if x < 16 {
                out[m][b] = mirror(x, size) as u8;
            }
            b += 1;
        }
        m += 1;
    }
    out
}

/// Byte `x`'s mirror in a 16-byte vector of elements of `size` bytes in reverse order: byte
/// `x % size` of element `16 / size - 1 - x / size`.
#[expect(
    clippy::arithmetic_side_effects,
    reason = "`x < 16` and `size` is 1, 2, 4 or 8: every term is below 16"
)]
const fn mirror(x: usize, size: usize) -> usize {
    (16 / size - 1 - x / size) * size + x % size
}

/// `table[m][0]` for every chunk `m`: plane 0's column.
#[expect(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    reason = "`m < C` indexes the table's rows; column 0 exists, as `C >= 2` for every table built; a counter below `C`"
)]
pub(super) const fn plane_zero<const C: usize>(table: &[[[u8; 16]; C]; C]) -> [[u8; 16]; C] {
    let mut out = [[0u8; 16]; C];
    let mut m = 0;
    while m < C {
        out[m] = table[m][0];
        m += 1;
    }
    out
}

/// Whether every `(plane c, position b)` has exactly one chunk `m` with
/// `table[m][c][b] != 0x80`.
#[expect(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    reason = "`m`, `c < C` and `b < 16` index arrays of those lengths; counters below `C` or 16"
)]
pub(super) const fn blendable<const C: usize>(table: &[[[u8; 16]; C]; C]) -> bool {
    let mut c = 0;
    while c < C {
        let mut b = 0;
        while b < 16 {
            let (mut m, mut count) = (0, 0u32);
            while m < C {
                if table[m][c][b] != 0x80 {
                    count = count.saturating_add(1);
                }
                m += 1;
            }
            if count != 1 {
                return false;
            }
            b += 1;
        }
        c += 1;
    }
    true
}

/// `out[m][c]` (or `out[c][m]` when `back`): `0xFF` where `table[m][c]` picks a byte.
#[expect(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    reason = "`m`, `c < C` and `b < 16` index arrays of those lengths; counters below `C` or 16"
)]
pub(super) const fn select<const C: usize>(
    table: &[[[u8; 16]; C]; C],
    back: bool,
) -> [[[u8; 16]; C]; C] {
    let mut out = [[[0u8; 16]; C]; C];
    let mut m = 0;
    while m < C {
        let mut c = 0;
        while c < C {
            let mut b = 0;
            while b < 16 {
                if table[m][c][b] != 0x80 {
                    if back {
                        out[c][m][b] = 0xFF;
                    } else {
                        out[m][c][b] = 0xFF;
                    }
                }
                b += 1;
            }
            c += 1;
        }
        m += 1;
    }
    out
}

/// `out[c][b]`: the byte that picks for position `b` of plane `c` in any chunk, from
/// `table[m][c]` (or `table[c][m]` when `back`); `0x80` where none does.
#[expect(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    reason = "`m`, `c < C` and `b < 16` index arrays of those lengths; counters below `C` or 16"
)]
pub(super) const fn rotate<const C: usize>(
    table: &[[[u8; 16]; C]; C],
    back: bool,
) -> [[u8; 16]; C] {
    let mut out = [[0x80u8; 16]; C];
    let mut m = 0;
    while m < C {
        let mut c = 0;
        while c < C {
            let mut b = 0;
            while b < 16 {
                let x = if back { table[c][m][b] } else { table[m][c][b] };
                if x != 0x80 {
                    out[c][b] = x;
                }
                b += 1;
            }
            c += 1;
        }
        m += 1;
    }
    out
}

/// The masks of [`Masks`]: interleaved byte `o = 16·m + b` of a group is byte `o % SIZE` of
/// element `o / SIZE`, that is of pixel `o / SIZE / C` in channel `o / SIZE % C`.
#[expect(
    clippy::indexing_slicing,
    clippy::arithmetic_side_effects,
    clippy::cast_possible_truncation,
    reason = "`x < C`, `y < C`, `b < 16` index arrays of those lengths; every value is below 16·C·SIZE <= 512; a byte index below 16"
)]
pub(super) const fn masks<const C: usize>(size: usize, interleave: bool) -> [[[u8; 16]; C]; C] {
    let mut out = [[[0x80u8; 16]; C]; C];
    let mut x = 0;
    while x < C {
        let mut y = 0;
        while y < C {
            let mut b = 0;
            while b < 16 {
                if interleave {
                    // Chunk `x`, plane `y`: the element at interleaved byte `16x + b`.
                    let o = 16 * x + b;
                    let e = o / size;
                    if e % C == y {
                        out[x][y][b] = ((e / C) * size + o % size) as u8;
                    }
                } else {
                    // Plane `x`, chunk `y`: byte `b` of the plane vector is byte `b % size`
                    // of pixel `b / size`, channel `x`.
                    let o = ((b / size) * C + x) * size + b % size;
                    if o / 16 == y {
                        out[x][y][b] = (o % 16) as u8;
                    }
                }
                b += 1;
            }
            y += 1;
        }
        x += 1;
    }
    out
}
