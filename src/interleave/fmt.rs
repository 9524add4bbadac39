//! `Display` of an [`InterleavedLayout`] (CuTe notation plus ` il(d,f)`) and its offset
//! grids, which show where the blocks lie.

use core::fmt;

#[cfg(doc)]
use crate::Layout;
use crate::fmt::{write_layout_head, write_tail};
use crate::{Grid, InterleavedLayout};

impl<const N: usize> fmt::Display for InterleavedLayout<N> {
    /// `(8,256,256):(262144,1024,4) il(0,4) x4B`: shape and strides (the block stride on the
    /// interleaved axis), ` il(dimension,factor)`, then the offset when not 0 and the
    /// itemsize, as for [`Layout`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_layout_head(f, &self.shape, &self.strides)?;
        write!(
            f,
            " il({},{})",
            self.interleave.dimension(),
            self.interleave.factor()
        )?;
        write_tail(f, self.offset, self.itemsize)
    }
}

impl InterleavedLayout<2> {
    /// The whole rank-2 layout as a [`Grid`] of element offsets: axis 0 down, axis 1 across.
    ///
    /// ```text
    /// (2,6):(4,8) il(1,4), two rows of 6 in blocks of 4 (block stride 8, row stride 4):
    ///  0  1  2  3  8  9
    ///  4  5  6  7 12 13
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let l = InterleavedLayout::new([2, 6], [4, 8], 1, InterleaveLayout::new(1, 4)?)?;
    /// assert_eq!(
    ///     l.grid_2d().to_text::<64>()?.as_str(),
    ///     " 0  1  2  3  8  9\n 4  5  6  7 12 13"
    /// );
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn grid_2d(&self) -> Grid<2> {
        Grid::new(self.parts(), self.interleave, Some(0), 1, [0, 0])
    }
}

impl InterleavedLayout<1> {
    /// The whole rank-1 layout as a one-row [`Grid`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let l = InterleavedLayout::new([5], [3], 1, InterleaveLayout::new(0, 2)?)?;
    /// assert_eq!(l.grid_1d().to_text::<32>()?.as_str(), "0 1 3 4 6");
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn grid_1d(&self) -> Grid<1> {
        Grid::new(self.parts(), self.interleave, None, 0, [0])
    }
}
