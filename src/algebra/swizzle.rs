//! XOR swizzles (CuTe's `Swizzle<B, M, S>`, and the TMA's 32-, 64- and 128-byte modes)
//! composed with a nested layout, and the shared-memory bank conflicts of a warp's access.

use super::AlgebraError;
use crate::algo::checked::tri;
use crate::gpu::TmaSwizzle;
use crate::nested::{NestedError, NestedLayout};

/// CuTe's `Swizzle<B, M, S>`: an offset's `B` bits from bit `M + max(S, 0)` are xor-ed into its
/// bits from `M - min(S, 0)`, so that a column of a shared-memory tile spreads over the banks.
///
/// ```text
/// Swizzle<3,4,3> (the TMA's 128-byte mode, in bytes):   offset ^ ((offset >> 3) & 0b111_0000)
/// bits  ...  9 8 7 | 6 5 4 | 3 2 1 0
///            Y Y Y   Z Z Z   (M = 4 bits kept)      ZZZ ^= YYY
/// ```
///
/// # Examples
///
/// ```
/// use strided_layout::algebra::Swizzle;
/// let s = Swizzle::new(3, 4, 3)?;
/// // Byte 256 starts row 2 of 128-byte rows: its 16-byte chunks move 2 over.
/// assert_eq!(s.apply(256), 256 + 2 * 16);
/// assert_eq!(s.apply(s.apply(1234)), 1234); // an involution
/// # Ok::<(), strided_layout::algebra::AlgebraError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Swizzle {
    bits: u32,
    base: u32,
    shift: i32,
}

impl Swizzle {
    /// CuTe's `Swizzle<bits, base, shift>`: `bits` bits of mask, the `base` lowest bits kept,
    /// the mask's copy `shift` bits up (negative: down).
    ///
    /// # Errors
    ///
    /// [`AlgebraError::Swizzle`] if `|shift| < bits` (CuTe's rule: the two masks would
    /// overlap) or the mask passes bit 62.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::algebra::{AlgebraError, Swizzle};
    /// assert!(Swizzle::new(2, 3, 3).is_ok());
    /// assert_eq!(Swizzle::new(3, 0, 2), Err(AlgebraError::Swizzle));
    /// ```
    pub const fn new(bits: u32, base: u32, shift: i32) -> Result<Self, AlgebraError> {
        let reach = match bits.checked_add(base) {
            Some(r) => match r.checked_add(shift.unsigned_abs()) {
                Some(r) => r,
                None => return Err(AlgebraError::Swizzle),
            },
            None => return Err(AlgebraError::Swizzle),
        };
        if shift.unsigned_abs() < bits || reach > 62 {
            return Err(AlgebraError::Swizzle);
        }
        Ok(Self { bits, base, shift })
    }

    /// The swizzle a TMA copy applies to a shared-memory box of `itemsize`-byte elements, in
    /// element offsets: 32-, 64- and 128-byte modes are CuTe's `Swizzle<1,4,3>`,
    /// `Swizzle<2,4,3>`, `Swizzle<3,4,3>` on bytes (16-byte units within 32-, 64- or 128-byte
    /// rows), so `base` is `4 - log2(itemsize)`; [`TmaSwizzle::None`] is the identity.
    ///
    /// # Errors
    ///
    /// [`AlgebraError::Swizzle`] unless `itemsize` is a power of two up to 16.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::algebra::Swizzle;
    /// use strided_layout::gpu::TmaSwizzle;
    /// // 128-byte swizzle of `f16` elements: CuTe's Swizzle<3,3,3>.
    /// assert_eq!(Swizzle::tma(TmaSwizzle::B128, 2)?, Swizzle::new(3, 3, 3)?);
    /// # Ok::<(), strided_layout::algebra::AlgebraError>(())
    /// ```
    pub const fn tma(mode: TmaSwizzle, itemsize: usize) -> Result<Self, AlgebraError> {
        if !itemsize.is_power_of_two() || itemsize > 16 {
            return Err(AlgebraError::Swizzle);
        }
        let base = 4u32.saturating_sub(itemsize.trailing_zeros());
        let bits = match mode {
            TmaSwizzle::None => 0,
            TmaSwizzle::B32 => 1,
            TmaSwizzle::B64 => 2,
            TmaSwizzle::B128 => 3,
        };
        Self::new(bits, base, 3)
    }

    /// `(bits, base, shift)`: CuTe's `B`, `M`, `S`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::algebra::Swizzle;
    /// assert_eq!(Swizzle::new(3, 4, 3)?.parts(), (3, 4, 3));
    /// # Ok::<(), strided_layout::algebra::AlgebraError>(())
    /// ```
    #[must_use]
    pub const fn parts(self) -> (u32, u32, i32) {
        (self.bits, self.base, self.shift)
    }

    /// The swizzled offset: `offset ^ shift_right(offset & yyy, S)` with `yyy` the `B` bits from
    /// `M + max(S, 0)`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::algebra::Swizzle;
    /// let s = Swizzle::new(1, 0, 1)?; // bit 1 into bit 0
    /// assert_eq!([0, 1, 2, 3].map(|o| s.apply(o)), [0, 1, 3, 2]);
    /// # Ok::<(), strided_layout::algebra::AlgebraError>(())
    /// ```
    #[must_use]
    pub const fn apply(self, offset: usize) -> usize {
        // `new` keeps every shift below 63 bits.
        let ones = match 1usize.checked_shl(self.bits) {
            Some(v) => v.saturating_sub(1),
            None => 0,
        };
        let up = if self.shift > 0 {
            self.shift.unsigned_abs()
        } else {
            0
        };
        let yyy = match ones.checked_shl(self.base.saturating_add(up)) {
            Some(m) => m,
            None => 0,
        };
        let moved = if self.shift >= 0 {
            match (offset & yyy).checked_shr(self.shift.unsigned_abs()) {
                Some(v) => v,
                None => 0,
            }
        } else {
            match (offset & yyy).checked_shl(self.shift.unsigned_abs()) {
                Some(v) => v,
                None => 0,
            }
        };
        offset ^ moved
    }
}

/// A nested layout seen through a swizzle (CuTe's `composition(Swizzle, Layout)`): coordinate
/// `i` lies at `swizzle(layout(i))`. The layout's offsets are non-negative (a swizzle works on
/// the bits of an offset into a shared-memory buffer).
///
/// # Examples
///
/// ```
/// use strided_layout::algebra::{Swizzle, SwizzledLayout};
/// use strided_layout::nested::NestedLayout;
/// // An 8 × 8 tile of 4-byte words, row-major, swizzled so a column spreads over the banks.
/// let tile: NestedLayout<4> = "(8,8):(8,1) x4B".parse()?;
/// let s = SwizzledLayout::new(Swizzle::new(3, 0, 3)?, tile)?;
/// let column: NestedLayout<4> = "8:1".parse()?; // lanes 0..8 read column 0 (coordinates 0..8)
/// assert_eq!(s.bank_conflicts(&column)?, 1);
/// let plain = SwizzledLayout::new(Swizzle::new(0, 0, 3)?, tile)?;
/// // Columns 0..4 of all 8 rows: rows of 32 bytes, so rows r and r + 4 share banks.
/// assert_eq!(plain.bank_conflicts(&"(8,4):(1,8)".parse()?)?, 2);
/// # Ok::<(), Box<dyn core::error::Error>>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SwizzledLayout<const L: usize> {
    swizzle: Swizzle,
    layout: NestedLayout<L>,
}

/// The banks of shared memory, and their width in bytes.
const BANKS: usize = 32;
const BANK_BYTES: usize = 4;

impl<const L: usize> SwizzledLayout<L> {
    /// `layout` seen through `swizzle`.
    ///
    /// # Errors
    ///
    /// [`AlgebraError::NegativeOffset`] if an offset of `layout` is negative.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::algebra::{AlgebraError, Swizzle, SwizzledLayout};
    /// use strided_layout::nested::NestedLayout;
    /// let flipped: NestedLayout<2> = "4:-1 +3".parse()?;
    /// assert!(SwizzledLayout::new(Swizzle::new(1, 0, 1)?, flipped).is_ok());
    /// let below: NestedLayout<2> = "4:-1".parse()?;
    /// assert_eq!(SwizzledLayout::new(Swizzle::new(1, 0, 1)?, below), Err(AlgebraError::NegativeOffset));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub const fn new(swizzle: Swizzle, layout: NestedLayout<L>) -> Result<Self, AlgebraError> {
        if let Some((lo, _)) = layout.offset_bounds() {
            if lo < 0 {
                return Err(AlgebraError::NegativeOffset);
            }
        }
        Ok(Self { swizzle, layout })
    }

    /// The swizzle.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::algebra::{Swizzle, SwizzledLayout};
    /// let s = SwizzledLayout::new(Swizzle::new(1, 0, 1)?, "4:1".parse::<strided_layout::nested::NestedLayout<2>>()?)?;
    /// assert_eq!(s.swizzle(), Swizzle::new(1, 0, 1)?);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[must_use]
    pub const fn swizzle(&self) -> Swizzle {
        self.swizzle
    }

    /// The layout under the swizzle.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::algebra::{Swizzle, SwizzledLayout};
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<2> = "4:1".parse()?;
    /// assert_eq!(SwizzledLayout::new(Swizzle::new(1, 0, 1)?, l)?.layout(), &l);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    #[must_use]
    pub const fn layout(&self) -> &NestedLayout<L> {
        &self.layout
    }

    /// The swizzled offset of the 1-D coordinate `i` (CuTe's order), in elements.
    ///
    /// # Errors
    ///
    /// [`AlgebraError::Nested`] with [`NestedError::IndexOutOfRange`] if `i` is not below the
    /// size.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::algebra::{Swizzle, SwizzledLayout};
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<2> = "(4,4):(4,1)".parse()?;
    /// let s = SwizzledLayout::new(Swizzle::new(2, 0, 2)?, l)?;
    /// // Coordinate 1 is row 1, column 0: offset 4, whose row bits (1) flip column bit 0.
    /// assert_eq!(s.offset_of_linear(1)?, 5);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub const fn offset_of_linear(&self, i: usize) -> Result<usize, AlgebraError> {
        match self.layout.offset_of_linear(i) {
            Ok(o) => Ok(self.swizzle.apply(o.unsigned_abs())),
            Err(e) => Err(AlgebraError::Nested(e)),
        }
    }

    /// The swizzled offset of a multi-index (one coordinate per top-level mode), in elements.
    ///
    /// # Errors
    ///
    /// As [`NestedLayout::offset_of`], in [`AlgebraError::Nested`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::algebra::{Swizzle, SwizzledLayout};
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<2> = "(4,4):(4,1)".parse()?;
    /// let s = SwizzledLayout::new(Swizzle::new(2, 0, 2)?, l)?;
    /// assert_eq!(s.offset_of(&[3, 1])?, 12 + (1 ^ 3));
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub const fn offset_of(&self, index: &[usize]) -> Result<usize, AlgebraError> {
        match self.layout.offset_of(index) {
            Ok(o) => Ok(self.swizzle.apply(o.unsigned_abs())),
            Err(e) => Err(AlgebraError::Nested(e)),
        }
    }

    /// The worst shared-memory bank conflict of one warp-wide access: lane `l` (of at most
    /// 32) reads or writes the element at the 1-D coordinate `lanes(l)`; with 32 banks of 4
    /// bytes, an element at byte `b` covering the words `b / 4 ..= (b + itemsize - 1) / 4`,
    /// word `w` in bank `w % 32`. The answer is the most distinct words any one bank serves
    /// (lanes that share a word are one access, a broadcast): 1 is conflict-free, `n` an `n`-way
    /// conflict. Accesses wider than 4 bytes are counted as one request (the hardware may
    /// split them into phases).
    ///
    /// # Errors
    ///
    /// - [`AlgebraError::Lanes`] if `lanes` has more than 32 coordinates, or an offset of it
    ///   is negative;
    /// - [`AlgebraError::Nested`] if a lane's coordinate is not below the size.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::algebra::{Swizzle, SwizzledLayout};
    /// use strided_layout::nested::NestedLayout;
    /// // 32 × 32 `f32`, row-major: a warp reading a column hits one bank 32 times...
    /// let tile: NestedLayout<2> = "(32,32):(32,1) x4B".parse()?;
    /// let column: NestedLayout<2> = "32:1".parse()?;
    /// let plain = SwizzledLayout::new(Swizzle::new(0, 0, 5)?, tile)?;
    /// assert_eq!(plain.bank_conflicts(&column)?, 32);
    /// // ... unless the row bits are XORed into the column bits.
    /// let swizzled = SwizzledLayout::new(Swizzle::new(5, 0, 5)?, tile)?;
    /// assert_eq!(swizzled.bank_conflicts(&column)?, 1);
    /// # Ok::<(), Box<dyn core::error::Error>>(())
    /// ```
    pub const fn bank_conflicts(&self, lanes: &NestedLayout<L>) -> Result<usize, AlgebraError> {
        let n = lanes.size();
        if n > BANKS {
            return Err(AlgebraError::Lanes);
        }
        let mut count = [0usize; BANKS];
        let mut worst = 0usize;
        let mut l = 0;
        while l < n {
            let (first, last) = tri!(self.words(lanes, l));
            let mut w = first;
            while w <= last {
                // Counted once: skip a word an earlier lane (or an earlier word of this
                // lane) already touched.
                if !tri!(self.touched_before(lanes, l, w)) {
                    let bank = w % BANKS;
                    let c = match crate::algo::access::get(&count, bank) {
                        Some(c) => c.saturating_add(1),
                        None => 0,
                    };
                    crate::algo::access::set(&mut count, bank, c);
                    if c > worst {
                        worst = c;
                    }
                }
                w = w.saturating_add(1);
            }
            l = l.saturating_add(1);
        }
        Ok(worst)
    }

    /// The first and last 4-byte words lane `l`'s element covers.
    const fn words(
        &self,
        lanes: &NestedLayout<L>,
        l: usize,
    ) -> Result<(usize, usize), AlgebraError> {
        let c = match lanes.offset_of_linear(l) {
            Ok(c) if c >= 0 => c.unsigned_abs(),
            Ok(_) => return Err(AlgebraError::Lanes),
            Err(e) => return Err(AlgebraError::Nested(e)),
        };
        let o = tri!(self.offset_of_linear(c));
        let itemsize = self.layout.itemsize();
        let Some(byte) = o.checked_mul(itemsize) else {
            return Err(AlgebraError::Nested(NestedError::Layout(
                crate::LayoutError::OffsetOverflow,
            )));
        };
        let end = byte.saturating_add(itemsize.saturating_sub(1));
        Ok((byte / BANK_BYTES, end / BANK_BYTES))
    }

    /// Whether a lane before `l` touches word `w`.
    const fn touched_before(
        &self,
        lanes: &NestedLayout<L>,
        l: usize,
        w: usize,
    ) -> Result<bool, AlgebraError> {
        let mut k = 0;
        while k < l {
            let (first, last) = tri!(self.words(lanes, k));
            if first <= w && w <= last {
                return Ok(true);
            }
            k = k.saturating_add(1);
        }
        Ok(false)
    }
}
