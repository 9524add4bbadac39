//! Nested layouts: every mode a leaf `(extent):(stride)` or a tuple of modes, nested as in
//! CuTe, with a partial last block per blocked mode (Core AI's interleave, generalised).
//!
//! A [`NestedLayout<L>`] holds at most `L` leaves (no allocation); its rank (top-level modes)
//! and depth are known at run time, because the ranks of CuTe's results depend on their
//! inputs. [`Layout<N>`](crate::Layout) and [`InterleavedLayout<N>`](crate::InterleavedLayout)
//! convert to it losslessly.
//!
//! | item | what it is |
//! | --- | --- |
//! | [`NestedLayout::parse`] (`const`), [`FromStr`](core::str::FromStr) | reads CuTe's notation `((4,3),4):((1,4),12)`, and the crate's extension below |
//! | [`Display`](core::fmt::Display) | prints it back: exactly CuTe's text where no block is partial, the offset is 0 and the itemsize 1 |
//! | [`size`](NestedLayout::size), [`cosize`](NestedLayout::cosize), [`rank`](NestedLayout::rank), [`depth`](NestedLayout::depth) | CuTe's queries |
//! | [`offset_of_linear`](NestedLayout::offset_of_linear), [`offset_of`](NestedLayout::offset_of) | a 1-D coordinate (first mode fastest) or one coordinate per top-level mode |
//! | [`offset_bounds`](NestedLayout::offset_bounds), [`required_len`](NestedLayout::required_len), [`is_unique`](NestedLayout::is_unique) | as for [`Layout`](crate::Layout) |
//! | [`permuted`](NestedLayout::permuted), [`selected`](NestedLayout::selected), [`flipped`](NestedLayout::flipped), [`unsqueezed`](NestedLayout::unsqueezed), [`flattened_mode`](NestedLayout::flattened_mode), [`narrowed_blocks`](NestedLayout::narrowed_blocks) | transforms of the top-level modes, as for [`Layout`](crate::Layout); a mode narrowed to whole blocks |
//! | [`offsets`](NestedLayout::offsets), [`grid`](NestedLayout::grid) | the offsets in CuTe's order; a rank-2 layout's offsets as CuTe's `print_layout` grid |
//! | [`onednn`](NestedLayout::onednn) | oneDNN's format tags (`nChw16c`, `OIhw4i16o4i`, `aBcd16b`, ...), padded as oneDNN pads |
//! | [`RankedNested<N, L>`] | the fixed-rank front: the rank checked once, multi-indices as `[usize; N]`, rank changes in the types |
//! | [`lowered`](NestedLayout::lowered) | the kernels' general form: every kernel and prepared plan takes it, so a nested layout (oneDNN's formats, blocked on several axes or twice) is copied, filled, mapped or reordered through the one planner |
//! | [`from_layout`](NestedLayout::from_layout), [`from_interleaved`](NestedLayout::from_interleaved), [`to_layout`](NestedLayout::to_layout), [`to_interleaved`](NestedLayout::to_interleaved) | conversions |
//!
//! # CuTe's conventions
//!
//! A coordinate of a mode is decomposed *colexicographically*: the first sub-mode runs
//! fastest. In `((4,3),4):((1,4),12)` the 1-D coordinate 17 is `17 = 1 + 4·(4 + 3·1)`: mode 0
//! gets `17 % 12 = 5`, which is `(5 % 4, 5 / 4) = (1, 1)` inside it, and mode 1 gets
//! `17 / 12 = 1`, so the offset is `1·1 + 1·4 + 1·12 = 17`. A multi-index (one coordinate per
//! top-level mode, [`offset_of`](NestedLayout::offset_of)) means what it means for
//! [`Layout<N>`](crate::Layout): `offset_of(&[5, 1])` is the same 17.
//!
//! An integral layout `8:1` has rank 1 and depth 0; a tuple of one mode `(8):(1)` rank 1 and
//! depth 1 (CuTe's `rank` and `depth`). The empty tuple `():()` has rank 0, size 1, and depth 1.
//!
//! # Partial last blocks
//!
//! Core AI stores an axis of extent `e` in blocks of `f` with the last block partial when `f`
//! does not divide `e`. Here any tuple mode may say its extent: `(4,3)|10` is the mode of the
//! leaves `(4,3)` cut to its first 10 coordinates, so its last block (the outermost leaf's
//! last step) holds 2 of 4. Coordinates decompose as without the cut; only those below the
//! extent exist. A cut `e` of a tuple whose other sub-modes hold `P` coordinates and whose
//! outermost sub-mode holds `n` must satisfy `P·(n - 1) < e <= P·n` (only the last block is
//! partial). CuTe has no such modes; the notation is this crate's.
//!
//! ```
//! use strided_layout::nested::NestedLayout;
//! // 10 channels in blocks of 4 (3 blocks, the last one half empty) by 5 pixels: nChw4c.
//! let l: NestedLayout<4> = "((4,3)|10,5):((1,20),4)".parse()?;
//! assert_eq!((l.size(), l.rank(), l.depth()), (50, 2, 2));
//! assert_eq!(l.offset_of(&[9, 0])?, 1 + 2 * 20); // channel 9: block 2, lane 1
//! assert_eq!(l.cosize(), 58); // offsets 0..=57 (block 2's lanes 2, 3 unused)
//! # Ok::<(), strided_layout::nested::NestedError>(())
//! ```
//!
//! # Text
//!
//! `shape:stride`, then ` +offset` (or ` -offset`) when the offset is not 0 and ` x<itemsize>B`
//! when the itemsize is not 1, as [`Layout`](crate::Layout) prints. The shape and the stride
//! have the same nesting (CuTe: congruent); a tuple of the shape may carry `|extent`. Spaces
//! between tokens are ignored, and CuTe's static integers (`_4`) read as their values.

mod error;
mod text;
mod tree;
mod convert;
mod onednn;
mod pieces;
mod transform;
mod iter;
mod build;
mod ranked;

pub(crate) use build::Builder;
pub use error::{NestedError, const_unwrap};
pub use iter::{NestedGrid, NestedOffsets};
pub use ranked::RankedNested;

use crate::LayoutError;
use crate::algo::access::{get, set};

/// A layout whose modes nest, as CuTe's: at most `L` leaves `(extent):(stride)` in tuples of
/// any depth up to 255, a partial last block per tuple, an offset and an itemsize.
///
/// Built from text ([`parse`](Self::parse), `const`), from a [`Layout`](crate::Layout) or an
/// [`InterleavedLayout`](crate::InterleavedLayout); every offset of every coordinate fits
/// `isize`, in elements and in bytes (checked once, at construction).
///
/// # Examples
///
/// ```
/// use strided_layout::nested::{const_unwrap, NestedLayout};
/// const TV: NestedLayout<4> = const_unwrap(NestedLayout::parse("((4,8),(2,16)):((1,64),(4,8))"));
/// assert_eq!((TV.size(), TV.rank(), TV.depth()), (1024, 2, 2));
/// assert_eq!(TV.offset_of_linear(5)?, 1 + 64);
/// assert_eq!(TV.to_string(), "((4,8),(2,16)):((1,64),(4,8))");
/// # Ok::<(), strided_layout::nested::NestedError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NestedLayout<const L: usize> {
    /// Leaf extents, in the order they are written (unused slots 0).
    extents: [usize; L],
    /// Leaf strides, in elements.
    strides: [isize; L],
    /// Tuples opened just before each leaf.
    opens: [u8; L],
    /// Tuples closed just after each leaf.
    closes: [u8; L],
    /// Each tuple's extent, in the order the tuples open; 0 where it is the product of its
    /// sub-modes' (no partial block).
    cuts: [usize; L],
    /// Leaves in use; 0 is the empty tuple `()`.
    leaves: usize,
    /// Tuples in use.
    tuples: usize,
    offset: isize,
    itemsize: usize,
}

/// A mode: the leaf `leaf` itself when `open` equals the tuples opened before that leaf, else
/// the tuple opened there after `open` others (outermost first).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Node {
    leaf: usize,
    open: usize,
}

impl<const L: usize> NestedLayout<L> {
    /// The empty layout `():()`: rank 0, one coordinate at offset 0, itemsize 1.
    const EMPTY: Self = Self {
        extents: [0; L],
        strides: [0; L],
        opens: [0; L],
        closes: [0; L],
        cuts: [0; L],
        leaves: 0,
        tuples: 0,
        offset: 0,
        itemsize: 1,
    };

    /// How many coordinates the layout has: the product of its top-level modes' sizes (a cut
    /// mode counts its extent).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<4> = "((4,3)|10,5):((1,20),4)".parse()?;
    /// assert_eq!(l.size(), 50);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    #[must_use]
    pub const fn size(&self) -> usize {
        match self.root() {
            // Checked at construction: the size fits `usize`.
            Some(root) => match self.size_of(root) {
                Some(s) => s,
                None => 0,
            },
            None => 1,
        }
    }

    /// One past the largest offset (0 when it is negative or there are no coordinates):
    /// CuTe's `cosize` for layouts whose strides are all non-negative, the offset included.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<4> = "((4,3),4):((1,4),12)".parse()?;
    /// assert_eq!(l.cosize(), 48);
    /// let cut: NestedLayout<4> = "(4,3)|10:(1,4)".parse()?;
    /// assert_eq!(cut.cosize(), 10);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    #[must_use]
    pub const fn cosize(&self) -> usize {
        match self.offset_bounds() {
            Some((_, hi)) if hi >= 0 => hi.unsigned_abs().saturating_add(1),
            _ => 0,
        }
    }

    /// How many top-level modes: 1 for an integral layout (`8:1`), the tuple's length
    /// otherwise (`(8):(1)` has 1, `((4,3),4):((1,4),12)` has 2, `():()` has 0).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<4> = "((4,3),4):((1,4),12)".parse()?;
    /// assert_eq!(l.rank(), 2);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    #[must_use]
    pub const fn rank(&self) -> usize {
        match self.root() {
            None => 0,
            Some(root) => {
                if self.is_leaf(root) {
                    1
                } else {
                    self.children(root)
                }
            }
        }
    }

    /// How deeply the modes nest: 0 for an integral layout, 1 for a tuple of leaves, one more
    /// per level of tuples (CuTe's `depth`).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<4> = "((4,3),4):((1,4),12)".parse()?;
    /// assert_eq!(l.depth(), 2);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    #[must_use]
    pub const fn depth(&self) -> usize {
        if self.leaves == 0 {
            return 1;
        }
        // The deepest leaf's count of enclosing tuples.
        let (mut level, mut deepest, mut i) = (0usize, 0usize, 0usize);
        while i < self.leaves {
            level = level.saturating_add(self.opens_at(i));
            if level > deepest {
                deepest = level;
            }
            level = level.saturating_sub(self.closes_at(i));
            i = i.saturating_add(1);
        }
        deepest
    }

    /// How many leaves (the innermost `(extent):(stride)` modes).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<4> = "((4,3),4):((1,4),12)".parse()?;
    /// assert_eq!(l.leaves(), 3);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    #[must_use]
    pub const fn leaves(&self) -> usize {
        self.leaves
    }

    /// The leaves' extents, in the order they are written.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<4> = "((4,3),4):((1,4),12)".parse()?;
    /// assert_eq!((l.leaf_extents(), l.leaf_strides()), (&[4, 3, 4][..], &[1, 4, 12][..]));
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    #[must_use]
    pub const fn leaf_extents(&self) -> &[usize] {
        match self.extents.split_at_checked(self.leaves) {
            Some((used, _)) => used,
            None => &self.extents,
        }
    }

    /// The leaves' strides, in elements, in the order they are written.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<2> = "(3,2):(-2,1) +4".parse()?;
    /// assert_eq!(l.leaf_strides(), &[-2, 1]);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    #[must_use]
    pub const fn leaf_strides(&self) -> &[isize] {
        match self.strides.split_at_checked(self.leaves) {
            Some((used, _)) => used,
            None => &self.strides,
        }
    }

    /// The offset of coordinate 0, in elements.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<2> = "(3,2):(-2,1) +4".parse()?;
    /// assert_eq!(l.offset(), 4);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    #[must_use]
    pub const fn offset(&self) -> isize {
        self.offset
    }

    /// Bytes per element (1 unless built from a typed layout or given as ` xNB`).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<2> = "(3,2):(2,1) x4B".parse()?;
    /// assert_eq!(l.itemsize(), 4);
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    #[must_use]
    pub const fn itemsize(&self) -> usize {
        self.itemsize
    }

    /// The offset of the 1-D coordinate `i`, decomposed colexicographically (the first mode
    /// fastest, as CuTe's `layout(i)`), plus the layout's offset.
    ///
    /// # Errors
    ///
    /// - [`NestedError::IndexOutOfRange`] (mode 0) if `i >= size()`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::{NestedError, NestedLayout};
    /// let l: NestedLayout<4> = "((4,3),4):((1,4),12)".parse()?;
    /// assert_eq!(l.offset_of_linear(17)?, 17);
    /// let t: NestedLayout<2> = "(2,3):(3,1)".parse()?; // a transpose
    /// assert_eq!(t.offset_of_linear(1)?, 3);
    /// assert_eq!(t.offset_of_linear(6), Err(NestedError::IndexOutOfRange { mode: 0 }));
    /// # Ok::<(), NestedError>(())
    /// ```
    pub const fn offset_of_linear(&self, i: usize) -> Result<isize, NestedError> {
        if i >= self.size() {
            return Err(NestedError::IndexOutOfRange { mode: 0 });
        }
        let Some(root) = self.root() else {
            return Ok(self.offset);
        };
        match self.offset_in(root, i) {
            // Every offset fits `isize` (checked at construction).
            Some(o) => match o.checked_add(self.offset) {
                Some(o) => Ok(o),
                None => Err(NestedError::Layout(LayoutError::OffsetOverflow)),
            },
            None => Err(NestedError::Layout(LayoutError::OffsetOverflow)),
        }
    }

    /// The offset of the multi-index `index`: one coordinate per top-level mode, each
    /// decomposed colexicographically inside its mode, plus the layout's offset. On a layout
    /// converted from a [`Layout<N>`](crate::Layout) it is that layout's
    /// [`offset_of`](crate::Layout::offset_of).
    ///
    /// # Errors
    ///
    /// - [`NestedError::RankMismatch`] if `index.len() != rank()`;
    /// - [`NestedError::IndexOutOfRange`] if a coordinate is not below its mode's size (the
    ///   first such mode), or, where the layout itself is cut, the multi-index's 1-D
    ///   coordinate is not below the cut (the mode where it passes it).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::{NestedError, NestedLayout};
    /// let l: NestedLayout<4> = "((4,3),4):((1,4),12)".parse()?;
    /// assert_eq!(l.offset_of(&[5, 1])?, 17);
    /// assert_eq!(l.offset_of(&[12, 0]), Err(NestedError::IndexOutOfRange { mode: 0 }));
    /// assert_eq!(l.offset_of(&[1]), Err(NestedError::RankMismatch { expected: 2, found: 1 }));
    /// # Ok::<(), NestedError>(())
    /// ```
    pub const fn offset_of(&self, index: &[usize]) -> Result<isize, NestedError> {
        let rank = self.rank();
        if index.len() != rank {
            return Err(NestedError::RankMismatch {
                expected: rank,
                found: index.len(),
            });
        }
        let Some(root) = self.root() else {
            return Ok(self.offset);
        };
        if self.is_leaf(root) {
            return match get(index, 0) {
                Some(c) => self.offset_of_linear(c),
                None => Err(NestedError::RankMismatch {
                    expected: 1,
                    found: 0,
                }),
            };
        }
        let end = self.end(root);
        let mut child = self.first_child(root);
        let mut acc = self.offset;
        let mut k = 0;
        // A cut root holds only the multi-indices whose 1-D coordinate is below its cut.
        let cut = self.cut_of(0);
        let (mut linear, mut place) = (0usize, 1usize);
        loop {
            let Some(c) = get(index, k) else {
                return Ok(acc);
            };
            let size = self.size_or_0(child);
            if c >= size {
                return Err(NestedError::IndexOutOfRange { mode: k });
            }
            if cut != 0 {
                linear = linear.saturating_add(c.saturating_mul(place));
                place = place.saturating_mul(size);
                if linear >= cut {
                    return Err(NestedError::IndexOutOfRange { mode: k });
                }
            }
            // Every offset fits `isize` (checked at construction); the sum of one
            // coordinate's per-mode offsets is that coordinate's offset.
            acc = match self.offset_in(child, c) {
                Some(o) => match acc.checked_add(o) {
                    Some(a) => a,
                    None => return Err(NestedError::Layout(LayoutError::OffsetOverflow)),
                },
                None => return Err(NestedError::Layout(LayoutError::OffsetOverflow)),
            };
            let last = self.end(child);
            if last >= end {
                return Ok(acc);
            }
            child = Node {
                leaf: last.saturating_add(1),
                open: 0,
            };
            k = k.saturating_add(1);
        }
    }

    /// The smallest and the largest offset over every coordinate, the layout's offset
    /// included; `None` when there is no coordinate (`size() == 0`).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<2> = "(3,2):(-2,1) +4".parse()?;
    /// assert_eq!(l.offset_bounds(), Some((0, 5)));
    /// let cut: NestedLayout<4> = "((4,3)|9,2):((10,1),100)".parse()?;
    /// // Coordinates 0..9 of (4,3): blocks 0 and 1 whole (lanes up to 30 + 1), block 2 lane 0.
    /// assert_eq!(cut.offset_bounds(), Some((0, 131)));
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    #[must_use]
    pub const fn offset_bounds(&self) -> Option<(isize, isize)> {
        let Some(root) = self.root() else {
            return Some((self.offset, self.offset));
        };
        let n = self.size();
        match self.bounds_in(root, n) {
            Some((lo, hi)) => match (lo.checked_add(self.offset), hi.checked_add(self.offset)) {
                (Some(lo), Some(hi)) => Some((lo, hi)),
                // Checked at construction: the bounds fit `isize`.
                _ => None,
            },
            None => None,
        }
    }

    /// The shortest slice, in elements, that holds every offset: the largest offset plus
    /// one (0 for a layout with no coordinates).
    ///
    /// # Errors
    ///
    /// - [`NestedError::Layout`] with [`LayoutError::NegativeOffset`] if an offset is below 0
    ///   (no slice holds it).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{LayoutError, nested::{NestedError, NestedLayout}};
    /// let l: NestedLayout<4> = "((4,3)|10,5):((1,20),4)".parse()?;
    /// assert_eq!(l.required_len()?, 58);
    /// let below: NestedLayout<1> = "(3):(-1)".parse()?;
    /// assert_eq!(below.required_len(), Err(NestedError::Layout(LayoutError::NegativeOffset)));
    /// # Ok::<(), NestedError>(())
    /// ```
    pub const fn required_len(&self) -> Result<usize, NestedError> {
        match self.offset_bounds() {
            None => Ok(0),
            Some((lo, _)) if lo < 0 => Err(NestedError::Layout(LayoutError::NegativeOffset)),
            Some((_, hi)) => Ok(hi.unsigned_abs().saturating_add(1)),
        }
    }

    /// The same layout with `offset` as the offset of coordinate 0.
    ///
    /// # Errors
    ///
    /// - [`NestedError::Layout`] with [`LayoutError::OffsetOverflow`] if an offset, in
    ///   elements or in bytes, would not fit `isize`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<2> = "(3,2):(2,1)".parse::<NestedLayout<2>>()?.with_offset(7)?;
    /// assert_eq!(l.to_string(), "(3,2):(2,1) +7");
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    pub const fn with_offset(&self, offset: isize) -> Result<Self, NestedError> {
        let mut out = *self;
        out.offset = offset;
        match out.validate() {
            Ok(()) => Ok(out),
            Err(e) => Err(e),
        }
    }

    /// The same layout with elements of `itemsize` bytes.
    ///
    /// # Errors
    ///
    /// - [`NestedError::Layout`] with [`LayoutError::ItemsizeNotPowerOfTwo`] if `itemsize` is
    ///   not a power of two;
    /// - [`NestedError::Layout`] with [`LayoutError::OffsetOverflow`] if an offset in bytes
    ///   would not fit `isize`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// let l = "(3,2):(2,1)".parse::<NestedLayout<2>>()?.with_itemsize(4)?;
    /// assert_eq!(l.to_string(), "(3,2):(2,1) x4B");
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    pub const fn with_itemsize(&self, itemsize: usize) -> Result<Self, NestedError> {
        let mut out = *self;
        out.itemsize = itemsize;
        match out.validate() {
            Ok(()) => Ok(out),
            Err(e) => Err(e),
        }
    }

    /// Checks what every constructor must: the itemsize, each tuple's cut
    /// (`P·(n - 1) < e <= P·n`), the size fits `usize`, and every offset, in elements and in
    /// bytes, fits `isize`.
    const fn validate(&self) -> Result<(), NestedError> {
        if !self.itemsize.is_power_of_two() {
            return Err(NestedError::Layout(LayoutError::ItemsizeNotPowerOfTwo {
                itemsize: self.itemsize,
            }));
        }
        if let Err(e) = self.check_cuts() {
            return Err(e);
        }
        let Some(root) = self.root() else {
            return match self.offset.checked_mul(self.itemsize.cast_signed()) {
                Some(_) => Ok(()),
                None => Err(NestedError::Layout(LayoutError::OffsetOverflow)),
            };
        };
        let Some(n) = self.size_of(root) else {
            return Err(NestedError::Layout(LayoutError::VolumeOverflow));
        };
        let (lo, hi) = match self.bounds_in(root, n) {
            Some(b) => b,
            None if n == 0 => (0, 0),
            None => return Err(NestedError::Layout(LayoutError::OffsetOverflow)),
        };
        // Each leaf's largest step, in bytes, must fit too (the kernels step by strides).
        let mut i = 0;
        while i < self.leaves {
            let s = match get(&self.strides, i) {
                Some(s) => s,
                None => 0,
            };
            if s.checked_mul(self.itemsize.cast_signed()).is_none() {
                return Err(NestedError::Layout(LayoutError::OffsetOverflow));
            }
            i = i.saturating_add(1);
        }
        let size = self.itemsize.cast_signed();
        match (lo.checked_add(self.offset), hi.checked_add(self.offset)) {
            (Some(lo), Some(hi)) => match (lo.checked_mul(size), hi.checked_mul(size)) {
                (Some(_), Some(_)) => Ok(()),
                _ => Err(NestedError::Layout(LayoutError::OffsetOverflow)),
            },
            _ => Err(NestedError::Layout(LayoutError::OffsetOverflow)),
        }
    }

    /// Tuples opened before leaf `i`.
    const fn opens_at(&self, i: usize) -> usize {
        match get(&self.opens, i) {
            Some(o) => o as usize,
            None => 0,
        }
    }

    /// Tuples closed after leaf `i`.
    const fn closes_at(&self, i: usize) -> usize {
        match get(&self.closes, i) {
            Some(c) => c as usize,
            None => 0,
        }
    }

    /// The cut of tuple `t` (its extent), 0 where it has none.
    const fn cut_of(&self, t: usize) -> usize {
        match get(&self.cuts, t) {
            Some(c) => c,
            None => 0,
        }
    }

    /// Sets a tuple's cut (construction only).
    const fn set_cut(&mut self, t: usize, e: usize) {
        set(&mut self.cuts, t, e);
    }
}

impl<const L: usize> Default for NestedLayout<L> {
    /// The empty layout `():()` (rank 0, size 1, offset 0, itemsize 1).
    fn default() -> Self {
        Self::EMPTY
    }
}

#[cfg(feature = "defmt")]
impl<const L: usize> defmt::Format for NestedLayout<L> {
    fn format(&self, f: defmt::Formatter<'_>) {
        defmt::write!(
            f,
            "NestedLayout {{ extents: {=[?]}, strides: {=[?]}, offset: {=isize}, itemsize: {=usize} }}",
            self.leaf_extents(),
            self.leaf_strides(),
            self.offset,
            self.itemsize
        );
    }
}
