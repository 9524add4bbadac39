//! Walking a nested layout: the offsets in CuTe's order, and the offsets of a rank-2 layout
//! as a grid (CuTe's `print_layout`).

use core::fmt::{self, Write};
use core::iter::FusedIterator;

use super::{NestedError, NestedLayout};
use crate::fmt::{decimal_width, write_grid};

/// The offsets of a [`NestedLayout`] in 1-D coordinate order (the first mode fastest, as
/// CuTe's `layout(i)` for `i` in `0..size`): [`NestedLayout::offsets`].
///
/// # Examples
///
/// ```
/// use strided_layout::nested::NestedLayout;
/// let l: NestedLayout<2> = "(2,3):(3,1)".parse()?;
/// let mut it = l.offsets();
/// assert_eq!((it.len(), it.next(), it.next_back()), (6, Some(0), Some(5)));
/// # Ok::<(), strided_layout::nested::NestedError>(())
/// ```
#[derive(Clone, Debug)]
pub struct NestedOffsets<'a, const L: usize> {
    layout: &'a NestedLayout<L>,
    front: usize,
    back: usize,
}

impl<const L: usize> Iterator for NestedOffsets<'_, L> {
    type Item = isize;

    fn next(&mut self) -> Option<isize> {
        if self.front >= self.back {
            return None;
        }
        let o = self.layout.offset_of_linear(self.front).ok();
        self.front = self.front.saturating_add(1);
        o
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.back.saturating_sub(self.front);
        (n, Some(n))
    }
}

impl<const L: usize> DoubleEndedIterator for NestedOffsets<'_, L> {
    fn next_back(&mut self) -> Option<isize> {
        if self.front >= self.back {
            return None;
        }
        self.back = self.back.saturating_sub(1);
        self.layout.offset_of_linear(self.back).ok()
    }
}

impl<const L: usize> ExactSizeIterator for NestedOffsets<'_, L> {}
impl<const L: usize> FusedIterator for NestedOffsets<'_, L> {}

/// The offsets of a rank-2 (or rank-1) [`NestedLayout`] as a grid, mode 0 down the rows and
/// mode 1 across, right-aligned (CuTe's `print_layout`): [`NestedLayout::grid`].
///
/// # Examples
///
/// ```
/// use strided_layout::nested::NestedLayout;
/// let l: NestedLayout<3> = "(2,(2,2)):(1,(4,2))".parse()?;
/// assert_eq!(l.grid()?.to_string(), "0 4 2 6\n1 5 3 7");
/// # Ok::<(), strided_layout::nested::NestedError>(())
/// ```
#[derive(Clone, Copy, Debug)]
pub struct NestedGrid<'a, const L: usize> {
    layout: &'a NestedLayout<L>,
}

impl<const L: usize> NestedLayout<L> {
    /// The offsets in 1-D coordinate order: the first mode fastest, as CuTe's `layout(i)` for
    /// `i` in `0..size()`. Double-ended and exact-size; each step costs a walk of the modes
    /// (`O(leaves)`).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<3> = "((2,2),2):((1,4),2)".parse()?;
    /// assert!(l.offsets().eq([0, 1, 4, 5, 2, 3, 6, 7]));
    /// assert_eq!(l.offsets().next_back(), Some(7));
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    #[must_use]
    pub const fn offsets(&self) -> NestedOffsets<'_, L> {
        NestedOffsets {
            layout: self,
            front: 0,
            back: self.size(),
        }
    }

    /// The offsets of a layout of rank 2 as a grid (mode 0 down the rows, mode 1 across; a
    /// rank-1 layout is one row; `-` past a cut layout's last coordinate), printed by [`Display`](fmt::Display) or
    /// [`to_text`](NestedGrid::to_text) as CuTe's `print_layout` prints them.
    ///
    /// ```text
    /// ((2,2),(2,3)):((1,12),(2,4))     rows: mode 0's 4 coordinates, columns: mode 1's 6
    ///  0  2  4  6  8 10
    ///  1  3  5  7  9 11
    /// 12 14 16 18 20 22
    /// 13 15 17 19 21 23
    /// ```
    ///
    /// # Errors
    ///
    /// - [`NestedError::RankMismatch`] if the rank is not 1 or 2.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<4> = "((2,2),(2,3)):((1,12),(2,4))".parse()?;
    /// assert_eq!(
    ///     l.grid()?.to_string(),
    ///     " 0  2  4  6  8 10\n 1  3  5  7  9 11\n12 14 16 18 20 22\n13 15 17 19 21 23"
    /// );
    /// // 10 coordinates of (4,3): the last column's last two cells do not exist.
    /// let cut: NestedLayout<2> = "(4,3)|10:(1,4)".parse()?;
    /// assert_eq!(cut.grid()?.to_string(), "0 4 8\n1 5 9\n2 6 -\n3 7 -");
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    pub const fn grid(&self) -> Result<NestedGrid<'_, L>, NestedError> {
        match self.rank() {
            1 | 2 => Ok(NestedGrid { layout: self }),
            found => Err(NestedError::RankMismatch { expected: 2, found }),
        }
    }
}

impl<const L: usize> NestedGrid<'_, L> {
    /// Rows and columns.
    fn dims(self) -> (usize, usize) {
        let l = self.layout;
        if l.rank() == 1 {
            return (1, l.size());
        }
        match (l.mode(0), l.mode(1)) {
            (Some(a), Some(b)) => (l.size_or_0(a), l.size_or_0(b)),
            _ => (0, 0),
        }
    }

    /// The offset of cell `(row, col)`; `None` past a cut layout's last coordinate.
    fn cell(self, row: usize, col: usize) -> Option<isize> {
        let l = self.layout;
        if l.rank() == 1 {
            return l.offset_of(&[col]).ok();
        }
        l.offset_of(&[row, col]).ok()
    }

    fn write_to<W: Write + ?Sized>(self, w: &mut W) -> fmt::Result {
        let (rows, cols) = self.dims();
        let width = match self.layout.offset_bounds() {
            Some((lo, hi)) => {
                let (a, b) = (decimal_width(lo), decimal_width(hi));
                if a > b { a } else { b }
            }
            None => 1,
        };
        write_grid(w, rows, cols, width, |r, c| self.cell(r, c))
    }

    /// Renders the grid into a [`heapless::String`] of capacity `CAP` bytes.
    ///
    /// # Errors
    ///
    /// - [`NestedError::Layout`] with
    ///   [`LayoutError::CapacityExceeded`](crate::LayoutError::CapacityExceeded) if the text
    ///   is longer than `CAP` bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::nested::NestedLayout;
    /// let l: NestedLayout<2> = "(2,3):(3,1)".parse()?;
    /// assert_eq!(l.grid()?.to_text::<32>()?.as_str(), "0 1 2\n3 4 5");
    /// # Ok::<(), strided_layout::nested::NestedError>(())
    /// ```
    pub fn to_text<const CAP: usize>(&self) -> Result<heapless::String<CAP>, NestedError> {
        match crate::fmt::render(|s| self.write_to(s)) {
            Ok(s) => Ok(s),
            Err(e) => Err(NestedError::Layout(e)),
        }
    }
}

impl<const L: usize> fmt::Display for NestedGrid<'_, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}
