//! [`InterleaveLayout`]: the spec of an interleave (which axis, how many elements per block).

use crate::LayoutError;

/// The spec of an interleave (not a layout): axis `dimension` is stored in blocks of `factor`
/// consecutive elements. An [`InterleavedLayout`](crate::InterleavedLayout), the layout, carries
/// one: `InterleaveLayout` says *how* an axis is blocked, `InterleavedLayout` is the shape,
/// strides, offset and itemsize blocked that way.
///
/// The name and the semantics are those of `NDArray.InterleaveLayout` in Apple's Core AI
/// framework (its on-device tensor type describes channel-interleaved images and blocked
/// weights this way), kept so that code and documentation written for it read the same here.
///
/// It knows nothing of a rank: `dimension < N` is checked when an `InterleavedLayout<N>` is
/// built. `factor >= 1` always holds (factor 1 is a plain strided axis).
///
/// ```text
/// InterleaveLayout::new(1, 2) on (2,4):(4,2)    offset = 4*i0 + (i1/2)*2 + i1%2
///   0 1 2 3     block stride 2, blocks of 2:    0 1 | 2 3
///   4 5 6 7                                      4 5 | 6 7
/// ```
///
/// # Examples
///
/// ```
/// use strided_layout::{InterleaveLayout, LayoutError};
/// let il = InterleaveLayout::new(0, 4)?;
/// assert_eq!((il.dimension(), il.factor()), (0, 4));
/// assert_eq!(InterleaveLayout::new(0, 0), Err(LayoutError::FactorZero));
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[doc(alias("Interleave", "InterleaveSpec", "blocking"))]
pub struct InterleaveLayout {
    dimension: usize,
    factor: usize,
}

impl InterleaveLayout {
    /// Builds the spec "axis `dimension` in blocks of `factor` consecutive elements".
    ///
    /// # Errors
    ///
    /// - [`LayoutError::FactorZero`] if `factor == 0`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, LayoutError};
    /// const RGB: InterleaveLayout = strided_layout::const_unwrap(InterleaveLayout::new(0, 3));
    /// assert_eq!(RGB.factor(), 3);
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub const fn new(dimension: usize, factor: usize) -> Result<Self, LayoutError> {
        if factor == 0 {
            return Err(LayoutError::FactorZero);
        }
        Ok(Self { dimension, factor })
    }

    /// The interleaved axis.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, LayoutError};
    /// assert_eq!(InterleaveLayout::new(2, 8)?.dimension(), 2);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn dimension(&self) -> usize {
        self.dimension
    }

    /// Elements per block, at least 1.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, LayoutError};
    /// assert_eq!(InterleaveLayout::new(2, 8)?.factor(), 8);
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn factor(&self) -> usize {
        self.factor
    }

    /// `(i / factor, i % factor)`: the block of index `i` and its lane in the block.
    ///
    /// `factor >= 1` is an invariant of [`new`](InterleaveLayout::new); the checked forms
    /// leave no division-by-zero panic path in the machine code.
    pub(crate) const fn split(&self, i: usize) -> (usize, usize) {
        match (i.checked_div(self.factor), i.checked_rem(self.factor)) {
            (Some(b), Some(lane)) => (b, lane),
            _ => (i, 0),
        }
    }

    /// The number of blocks, the last one possibly partial, that hold `extent` indices.
    pub(crate) const fn blocks(&self, extent: usize) -> usize {
        let (b, lane) = self.split(extent);
        if lane > 0 { b.saturating_add(1) } else { b }
    }

    /// No interleave: factor 1 on axis 0, under which the interleave formula is the plain
    /// strided one (`(i / 1) * s + i % 1 == i * s`).
    pub(crate) const PLAIN: Self = Self {
        dimension: 0,
        factor: 1,
    };

    /// The spec that axis `k` is read under: this one on its own axis, factor 1 elsewhere.
    pub(crate) const fn factor_at(self, k: usize) -> Self {
        if k == self.dimension {
            self
        } else {
            Self::PLAIN
        }
    }

    /// The same factor on another axis (the spec of a transformed layout).
    pub(crate) const fn on(self, dimension: usize) -> Self {
        Self {
            dimension,
            factor: self.factor,
        }
    }
}
