//! oneDNN's format tags (`nChw16c`, `OIhw16i16o`, `OIhw4i16o4i`, `aBcd16b`, ...) as nested
//! layouts, padded as oneDNN pads.

use super::text::decimal;
use super::{NestedError, NestedLayout};
use crate::algo::access::{get, set};

/// Most elements a tag may have (letters and blocks).
const MAX_ELEMENTS: usize = 16;
/// Most dimensions a tag may name.
const MAX_DIMS: usize = 12;

/// One element of a tag: the dimension it steps, its extent in memory (a block's size, or 0
/// for the dimension's outer part, sized later), in the tag's order (outermost first).
#[derive(Clone, Copy)]
struct Element {
    dim: usize,
    block: usize,
}

/// The named tags' letters in oneDNN's logical order: weights (with `o` or `i`), then
/// activations.
const WEIGHTS: &[u8] = b"goidhw";
const ACTIVATIONS: &[u8] = b"ncdhw";

impl<const L: usize> NestedLayout<L> {
    /// The layout oneDNN gives a tensor of logical `dims` (in oneDNN's order: `N, C, (D,) H,
    /// W` for activations, `(G,) O, I, (D,) H, W` for weights, `a, b, c, ...` for the
    /// alphabetic tags) stored in format `tag`, with elements of `itemsize` bytes.
    ///
    /// The tag lists the memory order from the outermost dimension in: a lower-case letter
    /// is a dimension stored whole, an upper-case one the blocks of a blocked dimension, and
    /// `16c` a block of 16 of dimension `c` (the last such block the innermost). Each top-level
    /// mode is one logical dimension: a leaf where it is not blocked, else the tuple of its
    /// blocks (innermost first) and its block count, cut to the dimension's extent where the
    /// blocks do not divide it: oneDNN pads the dimension to a multiple of its blocks, and
    /// the padding lies in the strides, so the offsets of the real elements are oneDNN's.
    ///
    /// Tags: named (`nchw`, `nhwc`, `nChw8c`, `nChw16c`, `NChw16n16c`, `OIhw16i16o`,
    /// `OIhw4i16o4i`, `IOhw16o16i`, `Ohwi16o`, `gOIhw2i8o4i`, ..., with `x` for a 1-D tensor)
    /// or alphabetic (`abcd`, `acdb`, `aBcd16b`, `ABcd4b16a4b`, ...).
    ///
    /// # Errors
    ///
    /// - [`NestedError::Syntax`] if the tag is not a format tag (a letter outside the named or
    ///   alphabetic sets, a dimension stored whole twice or never, a block of 0 or of an
    ///   upper-case letter);
    /// - [`NestedError::RankMismatch`] if `dims.len()` is not the number of dimensions the
    ///   tag names;
    /// - [`NestedError::TooManyLeaves`] / [`NestedError::TooManyModes`] past `L`;
    /// - [`NestedError::Layout`] with `ItemsizeNotPowerOfTwo`, `VolumeOverflow` or
    ///   `OffsetOverflow`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// // 10 channels in blocks of 8 (padded to 16), 2 x 2 pixels: channel 9 of pixel (0, 0)
    /// // is lane 1 of block 1, after block 0's 8 x 2 x 2 elements.
    /// let l = NestedLayout::<5>::onednn("nChw8c", &[1, 10, 2, 2], 4)?;
    /// assert_eq!(l.to_string(), "(1,(8,2)|10,2,2):(64,(1,32),16,8) x4B");
    /// assert_eq!(l.offset_of(&[0, 9, 0, 0])?, 33);
    /// // The input channel split twice: i = 16·block + 4·middle + inner.
    /// let w = NestedLayout::<8>::onednn("OIhw4i16o4i", &[16, 16, 1, 1], 2)?;
    /// assert_eq!(w.offset_of(&[1, 6, 0, 0])?, 1 * 4 + 1 * 64 + 2);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    #[expect(
        clippy::many_single_char_names,
        reason = "loop indices over the tag's elements, the leaves and the dimensions"
    )]
    #[expect(
        clippy::too_many_lines,
        reason = "one pass each: block products, memory strides, the modes"
    )]
    pub const fn onednn(tag: &str, dims: &[usize], itemsize: usize) -> Result<Self, NestedError> {
        let text = tag.as_bytes();
        let (elements, count, rank) = match elements_of(text) {
            Ok(x) => x,
            Err(e) => return Err(e),
        };
        if dims.len() != rank {
            return Err(NestedError::RankMismatch {
                expected: rank,
                found: dims.len(),
            });
        }
        // Each dimension's blocks' product, and its outer count (the padded extent over it).
        let mut per_block = [1usize; MAX_DIMS];
        let mut i = 0;
        while i < count {
            if let Some(e) = get(&elements, i) {
                if e.block != 0 {
                    let p = match get(&per_block, e.dim) {
                        Some(p) => p,
                        None => 1,
                    };
                    match p.checked_mul(e.block) {
                        Some(p) => set(&mut per_block, e.dim, p),
                        None => {
                            return Err(NestedError::Layout(crate::LayoutError::VolumeOverflow));
                        }
                    }
                }
            }
            i = i.saturating_add(1);
        }
        // Each element's extent in memory, and its stride (the product of the extents after
        // it).
        let mut extent = [0usize; MAX_ELEMENTS];
        let mut stride = [0isize; MAX_ELEMENTS];
        let mut run = 1usize;
        let mut k = count;
        while let Some(j) = k.checked_sub(1) {
            k = j;
            let Some(e) = get(&elements, j) else {
                break;
            };
            let size = if e.block != 0 {
                e.block
            } else {
                let (Some(d), Some(p)) = (get(dims, e.dim), get(&per_block, e.dim)) else {
                    return Err(NestedError::RankMismatch {
                        expected: rank,
                        found: dims.len(),
                    });
                };
                // `p >= 1` (a product of blocks of at least 1); `checked_*` leaves no panic path.
                match (d.checked_div(p), d.checked_rem(p)) {
                    (Some(q), Some(0)) => q,
                    (Some(q), Some(_)) => q.saturating_add(1),
                    _ => 0,
                }
            };
            set(&mut extent, j, size);
            if run > isize::MAX.unsigned_abs() {
                return Err(NestedError::Layout(crate::LayoutError::OffsetOverflow));
            }
            set(&mut stride, j, run.cast_signed());
            run = match run.checked_mul(size) {
                Some(r) => r,
                None => return Err(NestedError::Layout(crate::LayoutError::VolumeOverflow)),
            };
        }
        // The modes, one per dimension in logical order: its blocks innermost first (the tag's
        // last first), then its outer part; cut to the extent when the blocks do not divide it.
        let mut out = Self::EMPTY;
        out.itemsize = itemsize;
        let mut pending = 1usize; // the root tuple
        out.tuples = 1;
        let mut dim = 0;
        while dim < rank {
            let blocked = match get(&per_block, dim) {
                Some(p) => p != 1 || has_block(&elements, count, dim),
                None => false,
            };
            let d = match get(dims, dim) {
                Some(d) => d,
                None => 0,
            };
            if blocked {
                if out.tuples >= L {
                    return Err(NestedError::TooManyModes { max: L });
                }
                let t = out.tuples;
                out.tuples = t.saturating_add(1);
                pending = pending.saturating_add(1);
                let p = match get(&per_block, dim) {
                    Some(p) => p,
                    None => 1,
                };
                if d != 0 && !matches!(d.checked_rem(p), Some(0)) {
                    out.set_cut(t, d);
                }
            }
            // The dimension's elements, from the tag's last to its first.
            let mut j = count;
            while let Some(prev) = j.checked_sub(1) {
                j = prev;
                let Some(e) = get(&elements, j) else {
                    break;
                };
                if e.dim != dim {
                    continue;
                }
                let i = out.leaves;
                if i >= L {
                    return Err(NestedError::TooManyLeaves { max: L });
                }
                set(
                    &mut out.extents,
                    i,
                    match get(&extent, j) {
                        Some(x) => x,
                        None => 0,
                    },
                );
                set(
                    &mut out.strides,
                    i,
                    match get(&stride, j) {
                        Some(s) => s,
                        None => 0,
                    },
                );
                // `pending` is at most 2 (the root and this dimension's tuple).
                #[expect(clippy::cast_possible_truncation, reason = "at most 2")]
                set(&mut out.opens, i, pending as u8);
                pending = 0;
                out.leaves = i.saturating_add(1);
            }
            if let Some(last) = out.leaves.checked_sub(1) {
                let mut closes = match get(&out.closes, last) {
                    Some(c) => c,
                    None => 0,
                };
                if blocked {
                    closes = closes.saturating_add(1);
                }
                if dim.saturating_add(1) == rank {
                    closes = closes.saturating_add(1);
                }
                set(&mut out.closes, last, closes);
            }
            dim = dim.saturating_add(1);
        }
        match out.validate() {
            Ok(()) => Ok(out),
            Err(e) => Err(e),
        }
    }
}

/// Whether dimension `dim` has a block element (a block of 1 counts).
const fn has_block(elements: &[Element; MAX_ELEMENTS], count: usize, dim: usize) -> bool {
    let mut i = 0;
    while i < count {
        if let Some(e) = get(elements, i) {
            if e.dim == dim && e.block != 0 {
                return true;
            }
        }
        i = i.saturating_add(1);
    }
    false
}

/// The tag's elements (outermost first), how many, and how many dimensions it names; each
/// dimension stored whole exactly once (upper case where it also has blocks).
#[expect(
    clippy::too_many_lines,
    reason = "the naming, then one walk over the elements, then the per-dimension rules"
)]
const fn elements_of(text: &[u8]) -> Result<([Element; MAX_ELEMENTS], usize, usize), NestedError> {
    const NONE: Element = Element { dim: 0, block: 0 };
    let mut elements = [NONE; MAX_ELEMENTS];
    // The letters used (lower case), to decide the naming.
    let mut used = [false; 26];
    let mut at = 0;
    while let Some(b) = get(text, at) {
        if b.is_ascii_alphabetic() {
            set(
                &mut used,
                b.to_ascii_lowercase().wrapping_sub(b'a') as usize,
                true,
            );
        } else if !b.is_ascii_digit() {
            return Err(NestedError::Syntax {
                at,
                expected: "a letter or a block size",
            });
        }
        at = at.saturating_add(1);
    }
    // Alphabetic when the letters are a, b, c, ... without a gap.
    let mut rank = 0;
    while rank < 26 && matches!(get(&used, rank), Some(true)) {
        rank = rank.saturating_add(1);
    }
    let mut alphabetic = rank > 0;
    let mut k = rank;
    while k < 26 {
        if matches!(get(&used, k), Some(true)) {
            alphabetic = false;
        }
        k = k.saturating_add(1);
    }
    if alphabetic && rank > MAX_DIMS {
        return Err(NestedError::Syntax {
            at: 0,
            expected: "at most 12 dimensions",
        });
    }
    // Named: the letters in logical order.
    let weights = used_letter(&used, b'o') || used_letter(&used, b'i') || used_letter(&used, b'g');
    let order: &[u8] = if weights { WEIGHTS } else { ACTIVATIONS };
    if !alphabetic {
        rank = 0;
        let mut k = 0;
        while k < 26 {
            if matches!(get(&used, k), Some(true)) {
                #[expect(clippy::cast_possible_truncation, reason = "k < 26")]
                let letter = b'a'.wrapping_add(k as u8);
                if !contains(order, letter) && (letter != b'x' || weights) {
                    return Err(NestedError::Syntax {
                        at: 0,
                        expected: "oneDNN's dimension letters (a, b, c, ... or n, c, d, h, w, x; g, o, i)",
                    });
                }
                rank = rank.saturating_add(1);
            }
            k = k.saturating_add(1);
        }
    }
    // Walk the elements: digits then a letter.
    let (mut count, mut at) = (0usize, 0usize);
    let mut whole = [false; MAX_DIMS];
    while at < text.len() {
        let start = at;
        let (block, digits) = match decimal(text, at) {
            Ok((block, end)) => {
                let digits = end != at;
                at = end;
                (block, digits)
            }
            Err(at) => {
                return Err(NestedError::Syntax {
                    at,
                    expected: "a smaller block",
                });
            }
        };
        let Some(letter) = get(text, at) else {
            return Err(NestedError::Syntax {
                at,
                expected: "a letter after the block size",
            });
        };
        let lower = letter.to_ascii_lowercase();
        let dim = if alphabetic {
            lower.wrapping_sub(b'a') as usize
        } else {
            match position(order, lower) {
                Some(p) => rank_below(&used, order, p),
                // `x`: the one dimension of a 1-D tensor.
                None => 0,
            }
        };
        if digits {
            if block == 0 || letter.is_ascii_uppercase() {
                return Err(NestedError::Syntax {
                    at: start,
                    expected: "a block of at least 1 of a lower-case dimension",
                });
            }
        } else {
            if matches!(get(&whole, dim), Some(true)) {
                return Err(NestedError::Syntax {
                    at,
                    expected: "each dimension once outside its blocks",
                });
            }
            set(&mut whole, dim, true);
        }
        if count >= MAX_ELEMENTS {
            return Err(NestedError::Syntax {
                at,
                expected: "at most 16 letters and blocks",
            });
        }
        set(
            &mut elements,
            count,
            Element {
                dim,
                block: if digits { block } else { 0 },
            },
        );
        count = count.saturating_add(1);
        at = at.saturating_add(1);
    }
    // Every dimension once outside its blocks. (Upper case marks the blocked ones, but oneDNN
    // does not hold to it: `OhwI32o` is `Ohwi32o`, so the case is not checked.)
    let mut d = 0;
    while d < rank {
        if !matches!(get(&whole, d), Some(true)) {
            return Err(NestedError::Syntax {
                at: text.len(),
                expected: "every dimension once outside its blocks",
            });
        }
        d = d.saturating_add(1);
    }
    Ok((elements, count, rank))
}

/// Whether the lower-case `letter` is used.
const fn used_letter(used: &[bool; 26], letter: u8) -> bool {
    matches!(get(used, letter.wrapping_sub(b'a') as usize), Some(true))
}

/// Whether `s` holds `b`.
const fn contains(s: &[u8], b: u8) -> bool {
    position(s, b).is_some()
}

/// Where `b` is in `s`.
const fn position(s: &[u8], b: u8) -> Option<usize> {
    let mut i = 0;
    while let Some(c) = get(s, i) {
        if c == b {
            return Some(i);
        }
        i = i.saturating_add(1);
    }
    None
}

/// The logical index of the letter at `order[p]`: how many used letters come before it in
/// `order`.
const fn rank_below(used: &[bool; 26], order: &[u8], p: usize) -> usize {
    let mut r = 0usize;
    let mut i = 0;
    while i < p {
        if let Some(letter) = get(order, i) {
            if used_letter(used, letter) {
                r = r.saturating_add(1);
            }
        }
        i = i.saturating_add(1);
    }
    r
}
