//! [`AxisMask`]: a set of axes as a 64-bit bitset.

use core::ops::{BitAnd, BitOr};

/// A set of axes, bit `i` standing for axis `i` (axes 0..64).
///
/// The flatten mask of [`Layout::flattened_axis_mask`](crate::Layout::flattened_axis_mask)
/// uses cuda.core's convention: bit `i` set means axis `i` merges into axis `i - 1`. Masks of
/// layouts with the same rank combine with `&`.
///
/// # Examples
///
/// ```
/// use strided_layout::AxisMask;
/// let m = AxisMask::from_bits(0b110) & AxisMask::from_bits(0b011);
/// assert_eq!(m.bits(), 0b010);
/// assert!(m.contains(1) && !m.contains(2));
/// ```
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct AxisMask(u64);

impl AxisMask {
    /// The empty set.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::AxisMask;
    /// let m = AxisMask::EMPTY.with(2);
    /// assert!(m.contains(2) && !AxisMask::EMPTY.contains(2));
    /// assert_eq!(AxisMask::EMPTY.count(), 0);
    /// ```
    pub const EMPTY: Self = Self(0);

    /// Builds a mask from its bits, bit `i` standing for axis `i`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::AxisMask;
    /// assert_eq!(AxisMask::from_bits(5).bits(), 5);
    /// ```
    #[must_use]
    pub const fn from_bits(bits: u64) -> Self {
        Self(bits)
    }

    /// The mask's bits, bit `i` standing for axis `i`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::AxisMask;
    /// assert_eq!(AxisMask::EMPTY.with(3).bits(), 8);
    /// ```
    #[must_use]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// Whether axis `axis` is in the set (always `false` for `axis >= 64`).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::AxisMask;
    /// assert!(AxisMask::from_bits(2).contains(1));
    /// assert!(!AxisMask::from_bits(2).contains(64));
    /// ```
    #[must_use]
    pub const fn contains(self, axis: usize) -> bool {
        axis < 64 && (self.0 >> axis) & 1 == 1
    }

    /// This set with `axis` added (unchanged for `axis >= 64`, which a mask cannot name).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::AxisMask;
    /// assert_eq!(AxisMask::EMPTY.with(0).with(2).bits(), 0b101);
    /// ```
    #[must_use]
    pub const fn with(self, axis: usize) -> Self {
        if axis < 64 {
            Self(self.0 | (1 << axis))
        } else {
            self
        }
    }

    /// The number of axes in the set.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::AxisMask;
    /// assert_eq!(AxisMask::from_bits(0b1011).count(), 3);
    /// ```
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }
}

impl BitAnd for AxisMask {
    type Output = Self;
    fn bitand(self, rhs: Self) -> Self {
        Self(self.0 & rhs.0)
    }
}

impl BitOr for AxisMask {
    type Output = Self;
    fn bitor(self, rhs: Self) -> Self {
        Self(self.0 | rhs.0)
    }
}
