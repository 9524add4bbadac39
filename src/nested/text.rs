//! CuTe's notation, read (`const`) and written: `((4,3),4):((1,4),12)`, with `|extent` after
//! a cut tuple, ` +offset` and ` x<itemsize>B` after the layout.

use core::fmt::{self, Write};
use core::str::FromStr;

use super::{NestedError, NestedLayout};
use crate::algo::access::{get, set};

/// Deepest nesting the text may have (the per-leaf counts are bytes).
const MAX_DEPTH: usize = 255;

/// A read position in the text.
struct Cursor<'a> {
    text: &'a [u8],
    at: usize,
}

impl Cursor<'_> {
    /// The next byte that is not a space, without taking it.
    const fn peek(&mut self) -> Option<u8> {
        while let Some(b' ') = get(self.text, self.at) {
            self.at = self.at.saturating_add(1);
        }
        get(self.text, self.at)
    }

    /// Takes `b` if it comes next.
    const fn eat(&mut self, b: u8) -> bool {
        match self.peek() {
            Some(c) if c == b => {
                self.at = self.at.saturating_add(1);
                true
            }
            _ => false,
        }
    }

    /// The error for what is here, `expected` instead.
    const fn expected(&self, expected: &'static str) -> NestedError {
        NestedError::Syntax {
            at: self.at,
            expected,
        }
    }

    /// An unsigned integer, CuTe's static `_` prefix allowed.
    const fn unsigned(&mut self) -> Result<usize, NestedError> {
        let _ = self.eat(b'_');
        let start = self.at;
        match decimal(self.text, self.at) {
            Ok((v, end)) => {
                self.at = end;
                if end == start {
                    return Err(self.expected("a digit"));
                }
                Ok(v)
            }
            Err(at) => Err(NestedError::Syntax {
                at,
                expected: "a smaller integer",
            }),
        }
    }

    /// A signed integer: `-` or `+`, then an unsigned one.
    const fn signed(&mut self) -> Result<isize, NestedError> {
        let negative = if self.eat(b'-') {
            true
        } else {
            let _ = self.eat(b'+');
            false
        };
        let _ = self.eat(b'_');
        let negative = negative || self.eat(b'-');
        let at = self.at;
        let v = match self.unsigned() {
            Ok(v) => v,
            Err(e) => return Err(e),
        };
        let limit = if negative {
            isize::MIN.unsigned_abs()
        } else {
            isize::MAX.unsigned_abs()
        };
        if v > limit {
            return Err(NestedError::Syntax {
                at,
                expected: "an integer that fits isize",
            });
        }
        Ok(if negative {
            0isize.wrapping_sub_unsigned(v)
        } else {
            v.cast_signed()
        })
    }
}

/// The decimal digits of `text` from `at` on: their value and the position after them (`at`
/// itself when there is no digit), or `Err` with the position of the digit at which the value
/// passes `usize`. The one number reader of the layout notation and of oneDNN's tags.
pub(super) const fn decimal(text: &[u8], at: usize) -> Result<(usize, usize), usize> {
    let mut at = at;
    let mut v = 0usize;
    while let Some(d @ b'0'..=b'9') = get(text, at) {
        v = match v.checked_mul(10) {
            Some(x) => match x.checked_add(d.wrapping_sub(b'0') as usize) {
                Some(x) => x,
                None => return Err(at),
            },
            None => return Err(at),
        };
        at = at.saturating_add(1);
    }
    Ok((v, at))
}

/// Which side of the `:` a tree is read for.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Shape,
    Stride,
}

impl<const L: usize> NestedLayout<L> {
    /// Reads a layout in CuTe's notation, `const`: `8:1`, `(8):(1)`,
    /// `((4,3),4):((1,4),12)`, CuTe's static `_4` read as 4; then the crate's extensions:
    /// `|extent` after a tuple of the shape (a partial last block, see the
    /// [module](crate::nested)), ` +offset` or ` -offset`, ` x<itemsize>B`. Spaces between
    /// tokens are ignored; `():()` is the empty layout.
    ///
    /// # Errors
    ///
    /// - [`NestedError::Syntax`] where the text leaves the notation (with the byte position
    ///   and what was expected there);
    /// - [`NestedError::TooManyLeaves`], [`NestedError::TooManyModes`],
    ///   [`NestedError::TooDeep`] past the capacity;
    /// - [`NestedError::NotCongruent`] if the stride nests differently from the shape;
    /// - then [`validate`](Self::with_offset)'s: [`NestedError::PartialBlock`], and
    ///   [`NestedError::Layout`] with `ItemsizeNotPowerOfTwo`, `VolumeOverflow` or
    ///   `OffsetOverflow`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::{const_unwrap, NestedError, NestedLayout};
    /// const A: NestedLayout<3> = const_unwrap(NestedLayout::parse("((_4,3),4):((_1,4),12)"));
    /// assert_eq!(A.to_string(), "((4,3),4):((1,4),12)");
    /// assert_eq!(
    ///     NestedLayout::<3>::parse("((4,3),4):(1,4,12)"),
    ///     Err(NestedError::NotCongruent)
    /// );
    /// assert_eq!(
    ///     NestedLayout::<3>::parse("(4,3]:(1,4)"),
    ///     Err(NestedError::Syntax { at: 4, expected: "',' or ')'" })
    /// );
    /// assert_eq!(NestedLayout::<2>::parse("(1,2,3):(1,1,2)"), Err(NestedError::TooManyLeaves { max: 2 }));
    /// ```
    ///
    /// ```compile_fail
    /// use strided_layout::nested::{const_unwrap, NestedLayout};
    /// // error: evaluation of constant value failed ... the stride nests differently from the shape
    /// const BAD: NestedLayout<3> = const_unwrap(NestedLayout::parse("((4,3),4):(1,4,12)"));
    /// ```
    pub const fn parse(text: &str) -> Result<Self, NestedError> {
        let mut cur = Cursor {
            text: text.as_bytes(),
            at: 0,
        };
        let mut out = Self::EMPTY;
        // The empty tuple, alone on both sides.
        let save = cur.at;
        if cur.eat(b'(') && cur.eat(b')') {
            if !cur.eat(b':') {
                return Err(cur.expected("':'"));
            }
            if !(cur.eat(b'(') && cur.eat(b')')) {
                return Err(NestedError::NotCongruent);
            }
        } else {
            cur.at = save;
            let mut pending = 0usize;
            if let Err(e) = read_tree(&mut out, &mut cur, Side::Shape, &mut pending, 0) {
                return Err(e);
            }
            if !cur.eat(b':') {
                return Err(cur.expected("':'"));
            }
            let mut stride = Self::EMPTY;
            let mut pending = 0usize;
            if let Err(e) = read_tree(&mut stride, &mut cur, Side::Stride, &mut pending, 0) {
                return Err(e);
            }
            if !congruent(&out, &stride) {
                return Err(NestedError::NotCongruent);
            }
            out.strides = stride.strides;
        }
        // ` +offset` / ` -offset`, then ` x<itemsize>B`.
        if let Some(b'+' | b'-') = cur.peek() {
            out.offset = match cur.signed() {
                Ok(v) => v,
                Err(e) => return Err(e),
            };
        }
        if cur.eat(b'x') {
            out.itemsize = match cur.unsigned() {
                Ok(v) => v,
                Err(e) => return Err(e),
            };
            if !cur.eat(b'B') {
                return Err(cur.expected("'B'"));
            }
        }
        if cur.peek().is_some() {
            return Err(cur.expected("the end of the text"));
        }
        match out.validate() {
            Ok(()) => Ok(out),
            Err(e) => Err(e),
        }
    }
}

/// Reads one mode (a leaf, or a tuple of modes) into `out`'s leaves, the tuples it opens
/// counted in `pending` until its first leaf takes them; `depth` tuples enclose it.
const fn read_tree<const L: usize>(
    out: &mut NestedLayout<L>,
    cur: &mut Cursor<'_>,
    side: Side,
    pending: &mut usize,
    depth: usize,
) -> Result<(), NestedError> {
    if cur.eat(b'(') {
        if depth >= MAX_DEPTH {
            return Err(NestedError::TooDeep { max: MAX_DEPTH });
        }
        let t = out.tuples;
        if t >= L {
            return Err(NestedError::TooManyModes { max: L });
        }
        out.tuples = t.saturating_add(1);
        *pending = pending.saturating_add(1);
        let first = out.leaves;
        loop {
            if let Err(e) = read_tree(out, cur, side, pending, depth.saturating_add(1)) {
                return Err(e);
            }
            if cur.eat(b',') {
                continue;
            }
            if cur.eat(b')') {
                break;
            }
            return Err(cur.expected("',' or ')'"));
        }
        let Some(last) = out.leaves.checked_sub(1) else {
            return Err(cur.expected("a mode"));
        };
        if last < first {
            return Err(cur.expected("a mode"));
        }
        let closes = match get(&out.closes, last) {
            Some(c) => c,
            None => 0,
        };
        set(&mut out.closes, last, closes.saturating_add(1));
        if matches!(side, Side::Shape) && cur.eat(b'|') {
            let at = cur.at;
            match cur.unsigned() {
                Ok(0) => {
                    return Err(NestedError::Syntax {
                        at,
                        expected: "a partial extent of at least 1",
                    });
                }
                Ok(e) => out.set_cut(t, e),
                Err(e) => return Err(e),
            }
        }
        return Ok(());
    }
    match cur.peek() {
        Some(b'0'..=b'9' | b'_' | b'-' | b'+') => {}
        _ => {
            return Err(cur.expected(match side {
                Side::Shape => "an extent or '('",
                Side::Stride => "a stride or '('",
            }));
        }
    }
    let i = out.leaves;
    if i >= L {
        return Err(NestedError::TooManyLeaves { max: L });
    }
    match side {
        Side::Shape => match cur.unsigned() {
            Ok(e) => set(&mut out.extents, i, e),
            Err(e) => return Err(e),
        },
        Side::Stride => match cur.signed() {
            Ok(s) => set(&mut out.strides, i, s),
            Err(e) => return Err(e),
        },
    }
    // `pending <= depth <= MAX_DEPTH`, a byte.
    #[expect(
        clippy::cast_possible_truncation,
        reason = "`pending` is at most the depth, at most 255"
    )]
    set(&mut out.opens, i, *pending as u8);
    *pending = 0;
    out.leaves = i.saturating_add(1);
    Ok(())
}

/// Whether two trees nest alike (same leaves, same tuples around them).
const fn congruent<const L: usize>(a: &NestedLayout<L>, b: &NestedLayout<L>) -> bool {
    if a.leaves != b.leaves || a.tuples != b.tuples {
        return false;
    }
    let mut i = 0;
    while i < a.leaves {
        if a.opens_at(i) != b.opens_at(i) || a.closes_at(i) != b.closes_at(i) {
            return false;
        }
        i = i.saturating_add(1);
    }
    true
}

impl<const L: usize> FromStr for NestedLayout<L> {
    type Err = NestedError;

    /// [`NestedLayout::parse`].
    fn from_str(s: &str) -> Result<Self, NestedError> {
        Self::parse(s)
    }
}

impl<const L: usize> NestedLayout<L> {
    /// The tuple closed by the `k`-th close (innermost first) after leaf `j`: of the tuples
    /// opened up to leaf `j`, the last one opened at that close's level.
    const fn closed_tuple(&self, leaf: usize, nth: usize) -> usize {
        // The level (tuples around) after leaf j's opens; the close's tuple is at level
        // `level - k`.
        let mut level = 0usize;
        let mut walk = 0;
        while walk <= leaf && walk < self.leaves {
            level = level.saturating_add(self.opens_at(walk));
            if walk < leaf {
                level = level.saturating_sub(self.closes_at(walk));
            }
            walk = walk.saturating_add(1);
        }
        let target = level.saturating_sub(nth);
        let (mut level, mut base, mut found) = (0usize, 0usize, 0usize);
        walk = 0;
        while walk <= leaf && walk < self.leaves {
            let opened = self.opens_at(walk);
            let mut x = 0;
            while x < opened {
                level = level.saturating_add(1);
                if level == target {
                    found = base.saturating_add(x);
                }
                x = x.saturating_add(1);
            }
            base = base.saturating_add(opened);
            level = level.saturating_sub(self.closes_at(walk));
            walk = walk.saturating_add(1);
        }
        found
    }

    /// Writes one side (`extents` with cuts, or `strides`).
    fn write_side<W: Write + ?Sized>(&self, f: &mut W, side: Side) -> fmt::Result {
        let mut i = 0;
        while i < self.leaves {
            if i > 0 {
                f.write_char(',')?;
            }
            for _ in 0..self.opens_at(i) {
                f.write_char('(')?;
            }
            match side {
                Side::Shape => write!(f, "{}", get(&self.extents, i).unwrap_or(0))?,
                Side::Stride => write!(f, "{}", get(&self.strides, i).unwrap_or(0))?,
            }
            for k in 0..self.closes_at(i) {
                f.write_char(')')?;
                if side == Side::Shape {
                    let cut = self.cut_of(self.closed_tuple(i, k));
                    if cut != 0 {
                        write!(f, "|{cut}")?;
                    }
                }
            }
            i = i.saturating_add(1);
        }
        Ok(())
    }
}

impl<const L: usize> NestedLayout<L> {
    /// Writes the text [`Display`](fmt::Display) shows.
    fn write_text<W: Write + ?Sized>(&self, f: &mut W) -> fmt::Result {
        if self.leaves == 0 {
            f.write_str("():()")?;
        } else {
            self.write_side(f, Side::Shape)?;
            f.write_char(':')?;
            self.write_side(f, Side::Stride)?;
        }
        if self.offset > 0 {
            write!(f, " +{}", self.offset)?;
        } else if self.offset < 0 {
            write!(f, " -{}", self.offset.unsigned_abs())?;
        }
        if self.itemsize != 1 {
            write!(f, " x{}B", self.itemsize)?;
        }
        Ok(())
    }

    /// Renders the [`Display`](fmt::Display) text into a [`heapless::String`] of capacity
    /// `CAP` bytes, for `defmt` logging without `core::fmt`.
    ///
    /// # Errors
    ///
    /// - [`NestedError::Layout`] with [`LayoutError::CapacityExceeded`](crate::LayoutError::CapacityExceeded)
    ///   if the text is longer than `CAP` bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<3> = "((4,3)|10,5):((1,20),4)".parse()?;
    /// assert_eq!(l.to_text::<32>()?.as_str(), "((4,3)|10,5):((1,20),4)");
    /// assert!(l.to_text::<8>().is_err());
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    pub fn to_text<const CAP: usize>(&self) -> Result<heapless::String<CAP>, NestedError> {
        match crate::fmt::render(|s| self.write_text(s)) {
            Ok(s) => Ok(s),
            Err(e) => Err(NestedError::Layout(e)),
        }
    }
}

impl<const L: usize> fmt::Display for NestedLayout<L> {
    /// CuTe's notation (`((4,3),4):((1,4),12)`), `|extent` after a cut tuple, then
    /// ` +offset` / ` -offset` when the offset is not 0 and ` x<itemsize>B` when the itemsize
    /// is not 1: what [`parse`](NestedLayout::parse) reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_text(f)
    }
}
