//! Display: CuTe `shape:stride` notation, offset grids, and fixed-capacity text for `defmt`.
//!
//! | value | text |
//! | --- | --- |
//! | `Layout::dense([2, 3], 4, Order::C)?` | `(2,3):(3,1) x4B` |
//! | the same `.with_offset(4)?` / `.with_offset(-4)?` | `(2,3):(3,1) +4 x4B` / `(2,3):(3,1) -4 x4B` |
//! | rank 1, `Layout::new([5], [1], 1)?` | `(5):(1) x1B` |
//! | rank 0, `Layout::<0>::new([], [], 8)?` | `():() x8B` |
//!
//! The notation is CuTe's `shape:stride` with every shape and stride tuple parenthesised
//! (CuTe prints a rank-1 layout without parentheses; here rank 1 keeps them so that the
//! text always says the rank), then the offset in elements when it is not 0 (`+4`, `-4`),
//! then the itemsize in bytes (`x4B`). A [`Grid`] prints the element offsets of a 2-D
//! section, CuTe `print_layout` style, one row per line with right-aligned columns.
//!
//! `defmt` cannot use `core::fmt`, so firmware renders into a fixed-capacity
//! [`heapless::String`] with [`Layout::to_text`] / [`Grid::to_text`] and logs the `&str`.

use core::fmt::{self, Write};

use crate::{InterleaveLayout, Layout, LayoutError};

/// Writes `(e0,e1,..):(s0,s1,..)`, then ` +off` / ` -off` when the offset is not 0, then
/// ` x<itemsize>B`; shared by every layout type's `Display` and `to_text`.
pub(crate) fn write_layout<W: Write + ?Sized>(
    w: &mut W,
    shape: &[usize],
    strides: &[isize],
    offset: isize,
    itemsize: usize,
) -> fmt::Result {
    write_layout_head(w, shape, strides)?;
    write_tail(w, offset, itemsize)
}

/// Writes `(e0,e1,..):(s0,s1,..)`.
pub(crate) fn write_layout_head<W: Write + ?Sized>(
    w: &mut W,
    shape: &[usize],
    strides: &[isize],
) -> fmt::Result {
    w.write_char('(')?;
    for (i, e) in shape.iter().enumerate() {
        if i > 0 {
            w.write_char(',')?;
        }
        write!(w, "{e}")?;
    }
    w.write_str("):(")?;
    for (i, s) in strides.iter().enumerate() {
        if i > 0 {
            w.write_char(',')?;
        }
        write!(w, "{s}")?;
    }
    w.write_char(')')
}

/// Writes ` +off` / ` -off` when the offset is not 0, then ` x<itemsize>B`.
pub(crate) fn write_tail<W: Write + ?Sized>(
    w: &mut W,
    offset: isize,
    itemsize: usize,
) -> fmt::Result {
    if offset > 0 {
        write!(w, " +{offset}")?;
    } else if offset < 0 {
        write!(w, " -{}", offset.unsigned_abs())?;
    }
    write!(w, " x{itemsize}B")
}

/// Renders `value` into a fixed-capacity string, `CapacityExceeded` if it does not fit.
fn render<const CAP: usize>(
    value: impl FnOnce(&mut heapless::String<CAP>) -> fmt::Result,
) -> Result<heapless::String<CAP>, LayoutError> {
    let mut s = heapless::String::new();
    match value(&mut s) {
        Ok(()) => Ok(s),
        Err(fmt::Error) => Err(LayoutError::CapacityExceeded),
    }
}

/// CuTe `shape:stride` notation, then the offset when it is not 0, then the itemsize.
///
/// | value | text |
/// | --- | --- |
/// | `Layout::dense([2, 3], 4, Order::C)?` | `(2,3):(3,1) x4B` |
/// | the same `.with_offset(4)?` / `.with_offset(-4)?` | `(2,3):(3,1) +4 x4B` / `(2,3):(3,1) -4 x4B` |
/// | rank 1, `Layout::new([5], [1], 1)?` | `(5):(1) x1B` |
/// | rank 0, `Layout::<0>::new([], [], 8)?` | `():() x8B` |
///
/// Every shape and stride tuple is parenthesised, rank 1 included (CuTe prints a rank-1
/// layout bare; here the text always shows the rank). The offset is in elements, the
/// itemsize in bytes. [`Layout::to_text`] renders the same text into a fixed-capacity
/// string (for `defmt` firmware); [`Layout::grid`] prints the offsets themselves.
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order};
/// let l = Layout::dense([2, 3], 4, Order::C)?.with_offset(4)?;
/// assert_eq!(format!("{l}"), "(2,3):(3,1) +4 x4B");
/// # Ok::<(), LayoutError>(())
/// ```
impl<const N: usize> fmt::Display for Layout<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_layout(f, &self.shape, &self.strides, self.offset, self.itemsize)
    }
}

impl<const N: usize> Layout<N> {
    /// Renders the [`Display`](fmt::Display) text (`(2,3):(3,1) +4 x4B`) into a
    /// [`heapless::String`] of capacity `CAP` bytes, for `defmt` logging without `core::fmt`.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::CapacityExceeded`] if the text is longer than `CAP` bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([2, 3], 4, Order::C)?.with_offset(4)?;
    /// assert_eq!(l.to_text::<32>()?.as_str(), "(2,3):(3,1) +4 x4B");
    /// assert_eq!(l.to_text::<8>(), Err(LayoutError::CapacityExceeded));
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn to_text<const CAP: usize>(&self) -> Result<heapless::String<CAP>, LayoutError> {
        render(|s| write_layout(s, &self.shape, &self.strides, self.offset, self.itemsize))
    }

    /// The offsets of the 2-D section through index `at` along axes `rows` × `cols`, as a
    /// printable [`Grid`] (CuTe `print_layout` style).
    ///
    /// ```text
    /// Layout::dense([2, 3, 2], 1, C)      grid(0, 1, [0, 0, 1])
    ///                                      1  3  5
    ///                                      7  9 11
    /// ```
    ///
    /// The entries of `at` along `rows` and `cols` are ignored; every other entry picks the
    /// index the section goes through. A section with an empty axis prints nothing.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::AxisOutOfRange`] if `rows >= N` (checked first) or `cols >= N`;
    /// - [`LayoutError::DuplicateAxis`] if `rows == cols`;
    /// - [`LayoutError::IndexOutOfRange`] if `at[k] >= shape[k]` for an axis `k` other than
    ///   `rows` and `cols`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([2, 3, 2], 1, Order::C)?;
    /// let g = l.grid(0, 1, [0, 0, 1])?;
    /// assert_eq!(g.to_text::<32>()?.as_str(), " 1  3  5\n 7  9 11");
    /// assert_eq!(l.grid(2, 2, [0; 3]), Err(LayoutError::DuplicateAxis { axis: 2 }));
    /// # Ok::<(), LayoutError>(())
    /// ```
    // Indexing is bounded: `k < N` in the loop, `rows`/`cols` checked `< N` above.
    #[allow(clippy::indexing_slicing, clippy::arithmetic_side_effects)]
    pub const fn grid(
        &self,
        rows: usize,
        cols: usize,
        at: [usize; N],
    ) -> Result<Grid<N>, LayoutError> {
        if rows >= N {
            return Err(LayoutError::AxisOutOfRange {
                axis: rows,
                ndim: N,
            });
        }
        if cols >= N {
            return Err(LayoutError::AxisOutOfRange {
                axis: cols,
                ndim: N,
            });
        }
        if rows == cols {
            return Err(LayoutError::DuplicateAxis { axis: rows });
        }
        let mut k = 0;
        while k < N {
            if k != rows && k != cols && at[k] >= self.shape[k] {
                return Err(LayoutError::IndexOutOfRange { axis: k });
            }
            k += 1;
        }
        Ok(Grid {
            layout: *self,
            rows: Some(rows),
            cols,
            at,
            interleave: None,
        })
    }
}

impl Layout<2> {
    /// The whole rank-2 layout as a [`Grid`]: axis 0 down, axis 1 across.
    ///
    /// ```text
    /// (2,3):(1,2)            0 2 4
    ///                        1 3 5
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let g = Layout::dense([2, 3], 1, Order::F)?.grid_2d();
    /// assert_eq!(g.to_text::<16>()?.as_str(), "0 2 4\n1 3 5");
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn grid_2d(&self) -> Grid<2> {
        Grid {
            layout: *self,
            rows: Some(0),
            cols: 1,
            at: [0, 0],
            interleave: None,
        }
    }
}

impl Layout<1> {
    /// The whole rank-1 layout as a one-row [`Grid`].
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError};
    /// let g = Layout::new([4], [-3], 1)?.with_offset(9)?.grid_1d();
    /// assert_eq!(g.to_text::<16>()?.as_str(), "9 6 3 0");
    /// # Ok::<(), LayoutError>(())
    /// ```
    #[must_use]
    pub const fn grid_1d(&self) -> Grid<1> {
        Grid {
            layout: *self,
            rows: None,
            cols: 0,
            at: [0],
            interleave: None,
        }
    }
}

/// The element offsets of a 2-D section of a [`Layout`], printable CuTe `print_layout`
/// style: one row per line, columns right-aligned to the widest offset, one space apart,
/// no trailing newline.
///
/// Built by [`Layout::grid`], [`Layout::grid_2d`] or [`Layout::grid_1d`]; print it with
/// `Display` or render it with [`Grid::to_text`].
///
/// # Examples
///
/// ```
/// use strided_layout::{Layout, LayoutError, Order};
/// let g = Layout::dense([2, 3], 1, Order::C)?.flipped(0)?.grid_2d();
/// assert_eq!(g.to_text::<16>()?.as_str(), "3 4 5\n0 1 2");
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Grid<const N: usize> {
    layout: Layout<N>,
    /// The axis down the rows; `None` for a single row.
    rows: Option<usize>,
    /// The axis across the columns.
    cols: usize,
    /// The index the section goes through (entries along `rows`/`cols` ignored).
    at: [usize; N],
    /// The interleave of an [`InterleavedLayout`](crate::InterleavedLayout)'s grid; `layout`
    /// then holds its parts (shape, block strides), read only through this formula.
    interleave: Option<InterleaveLayout>,
}

impl<const N: usize> Grid<N> {
    /// Renders the grid into a [`heapless::String`] of capacity `CAP` bytes, for `defmt`
    /// logging without `core::fmt`.
    ///
    /// # Errors
    ///
    /// - [`LayoutError::CapacityExceeded`] if the text is longer than `CAP` bytes.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let g = Layout::dense([2, 2], 1, Order::C)?.grid_2d();
    /// assert_eq!(g.to_text::<8>()?.as_str(), "0 1\n2 3");
    /// assert_eq!(g.to_text::<6>(), Err(LayoutError::CapacityExceeded));
    /// # Ok::<(), LayoutError>(())
    /// ```
    pub fn to_text<const CAP: usize>(&self) -> Result<heapless::String<CAP>, LayoutError> {
        render(|s| self.write_to(s))
    }

    /// The number of rows and columns.
    fn dims(&self) -> (usize, usize) {
        let rows = match self.rows {
            Some(r) => self.layout.shape.get(r).copied().unwrap_or(0),
            None => 1,
        };
        (rows, self.layout.shape.get(self.cols).copied().unwrap_or(0))
    }

    /// The offset of cell `(r, c)`, computed in `i128` so that it cannot fail: `Display`
    /// may return `fmt::Error` only when the writer does.
    ///
    /// `Grid`'s constructors checked every index against its extent, and every element
    /// offset of a layout fits `isize` (invariant 3), so the sum is that offset exactly.
    /// Each term `i_k * s_k` has `|i_k| < 2^64` and `|s_k| < 2^63`, so it fits `i128`; the
    /// running sum stays within `isize` bounds plus one term, since the partial sums are
    /// element offsets too. The saturating operations are never reached, only proved so.
    // `as i128` widens `usize`/`isize` losslessly.
    #[allow(clippy::cast_lossless)]
    fn cell(&self, row: usize, col: usize) -> i128 {
        let layout = &self.layout;
        let mut sum = layout.offset as i128;
        for (k, (&at, &stride)) in self.at.iter().zip(layout.strides.iter()).enumerate() {
            let i = if Some(k) == self.rows {
                row
            } else if k == self.cols {
                col
            } else {
                at
            };
            // On the interleaved axis `i` sits at `(i / f) * stride + i % f` (`f >= 1`).
            let term = match self.interleave {
                Some(il) if il.dimension() == k => {
                    let factor = il.factor() as i128;
                    let (block, lane) = match (
                        (i as i128).checked_div(factor),
                        (i as i128).checked_rem(factor),
                    ) {
                        (Some(b), Some(lane)) => (b, lane),
                        _ => (i as i128, 0),
                    };
                    block.saturating_mul(stride as i128).saturating_add(lane)
                }
                _ => (i as i128).saturating_mul(stride as i128),
            };
            sum = sum.saturating_add(term);
        }
        sum
    }

    /// Writes the rows, right-aligned to the widest cell.
    fn write_to<W: Write + ?Sized>(&self, w: &mut W) -> fmt::Result {
        let (rows, cols) = self.dims();
        if rows == 0 || cols == 0 {
            return Ok(());
        }
        // A cell's offset is affine in (r, c), so the smallest and largest offsets, and with
        // them the widest decimal, sit at the corners: O(1) instead of a pass over every cell
        // (which never ends in practice for a huge section rendered into a small buffer).
        let (last_r, last_c) = (rows.saturating_sub(1), cols.saturating_sub(1));
        let mut width = 0;
        for (r, c) in [(0, 0), (0, last_c), (last_r, 0), (last_r, last_c)] {
            width = width.max(decimal_width(self.cell(r, c)));
        }
        if self.interleave.is_some() {
            // Not affine along the interleaved axis: the extremes may sit at a block's last
            // lane, so measure every cell (interleaved grids are small pictures).
            for r in 0..rows {
                for c in 0..cols {
                    width = width.max(decimal_width(self.cell(r, c)));
                }
            }
        }
        for r in 0..rows {
            if r > 0 {
                w.write_char('\n')?;
            }
            for c in 0..cols {
                if c > 0 {
                    w.write_char(' ')?;
                }
                // Padding by hand: the formatter's `{:>width$}` machinery keeps a panic path
                // on bare-metal targets (firmware/panic-check finds it).
                let v = self.cell(r, c);
                for _ in decimal_width(v)..width {
                    w.write_char(' ')?;
                }
                write!(w, "{v}")?;
            }
        }
        Ok(())
    }
}

impl<const N: usize> Grid<N> {
    /// The grid of an interleaved layout given by its parts (never exposed as a `Layout`).
    pub(crate) const fn of_interleaved(
        parts: Layout<N>,
        interleave: InterleaveLayout,
        rows: Option<usize>,
        cols: usize,
    ) -> Self {
        Self {
            layout: parts,
            rows,
            cols,
            at: [0; N],
            interleave: Some(interleave),
        }
    }
}

impl<const N: usize> fmt::Display for Grid<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

/// The number of characters `x` takes in decimal, sign included.
// `w` counts at most 39 digits plus a sign; `m /= 10` divides by a nonzero constant.
#[allow(clippy::arithmetic_side_effects)]
const fn decimal_width(x: i128) -> usize {
    let mut m = x.unsigned_abs();
    let mut w = if x < 0 { 2 } else { 1 };
    while m >= 10 {
        m /= 10;
        w += 1;
    }
    w
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::string::ToString;

    #[test]
    fn decimal_width_counts_sign_and_digits() {
        assert_eq!(decimal_width(0), 1);
        assert_eq!(decimal_width(9), 1);
        assert_eq!(decimal_width(10), 2);
        assert_eq!(decimal_width(-10), 3);
        assert_eq!(
            decimal_width(isize::MIN as i128),
            isize::MIN.to_string().len()
        );
        assert_eq!(
            decimal_width(isize::MAX as i128),
            isize::MAX.to_string().len()
        );
        assert_eq!(decimal_width(i128::MIN), i128::MIN.to_string().len());
    }
}
