//! Display: CuTe `shape:stride` notation, offset grids, and fixed-capacity text for `defmt`.
//!
//! | value | text |
//! | --- | --- |
//! | `Layout::dense([2, 3], 4, Order::C)?` | `(2,3):(3,1) x4B` |
//! | the same `.with_offset(4)?` / `.with_offset(-4)?` | `(2,3):(3,1) +4 x4B` / `(2,3):(3,1) -4 x4B` |
//! | rank 1, `Layout::new([5], [1], 1)?` | `(5):(1) x1B` |
//! | rank 0, `Layout::<0>::new([], [], 8)?` | `():() x8B` |
//!
//! The notation is CuTe's `shape:stride` with every shape and stride tuple parenthesised, as
//! CuTe prints a tuple (its rank-1 tuple is `(5):(1)` too; only an integral layout, `5:1`,
//! is bare, and a [`Layout`] is always a tuple), then the offset in elements when it is not 0 (`+4`, `-4`),
//! then the itemsize in bytes (`x4B`). A [`Grid`] prints the element offsets of a 2-D
//! section, CuTe `print_layout` style, one row per line with right-aligned columns.
//!
//! `defmt` cannot use `core::fmt`, so firmware renders into a fixed-capacity
//! [`heapless::String`] with [`Layout::to_text`] / [`Grid::to_text`] and logs the `&str`.

use core::fmt::{self, Write};

use crate::algo::access::set;
use crate::algo::interleave::{bounds, offset_of};
use crate::algo::parts::Parts;
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
pub(crate) fn render<const CAP: usize>(
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
/// Every shape and stride tuple is parenthesised, rank 1 included, as CuTe prints a tuple
/// (only its integral layouts, `5:1`, are bare). The offset is in elements, the
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
    #[expect(
        clippy::indexing_slicing,
        clippy::arithmetic_side_effects,
        reason = "Indexing is bounded: `k < N` in the loop, `rows`/`cols` checked `< N` above."
    )]
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
        Ok(Grid::new(
            self.parts(),
            InterleaveLayout::PLAIN,
            Some(rows),
            cols,
            at,
        ))
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
        Grid::new(self.parts(), InterleaveLayout::PLAIN, Some(0), 1, [0, 0])
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
        Grid::new(self.parts(), InterleaveLayout::PLAIN, None, 0, [0])
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
    shape: [usize; N],
    /// Element strides; on the interleaved axis, the block stride.
    strides: [isize; N],
    offset: isize,
    /// The interleave the offsets are read under (factor 1 for a plain [`Layout`]).
    interleave: InterleaveLayout,
    /// The axis down the rows; `None` for a single row.
    rows: Option<usize>,
    /// The axis across the columns.
    cols: usize,
    /// The index the section goes through (entries along `rows`/`cols` ignored).
    at: [usize; N],
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

    /// A grid of the layout `p` read under `interleave`; `p` has rank `N` (its parts are
    /// copied; a shorter view is padded with unit axes, as `Parts::axis` reads it).
    pub(crate) const fn new(
        p: Parts<'_>,
        interleave: InterleaveLayout,
        rows: Option<usize>,
        cols: usize,
        at: [usize; N],
    ) -> Self {
        let (mut shape, mut strides) = ([1usize; N], [0isize; N]);
        let mut k = 0;
        while k < N {
            let (e, s) = p.axis(k);
            set(&mut shape, k, e);
            set(&mut strides, k, s);
            k = k.saturating_add(1);
        }
        Self {
            shape,
            strides,
            offset: p.offset(),
            interleave,
            rows,
            cols,
            at,
        }
    }

    /// The number of rows and columns.
    fn dims(&self) -> (usize, usize) {
        let rows = match self.rows {
            Some(r) => self.shape.get(r).copied().unwrap_or(0),
            None => 1,
        };
        (rows, self.shape.get(self.cols).copied().unwrap_or(0))
    }

    /// The index of cell `(row, col)`: `at` with the row and column axes replaced.
    fn index(&self, row: usize, col: usize) -> [usize; N] {
        let mut index = self.at;
        for (k, i) in index.iter_mut().enumerate() {
            if Some(k) == self.rows {
                *i = row;
            } else if k == self.cols {
                *i = col;
            }
        }
        index
    }

    /// The offset of cell `(row, col)`, by the interleave core.
    ///
    /// `Grid`'s constructors checked every index of the section against its extent, and
    /// every element offset of a valid layout fits `isize` (invariant 3), so the core
    /// answers `Ok`; `Display` may return `fmt::Error` only when the writer does, so the
    /// unreachable `Err` prints as 0 rather than failing.
    fn cell(&self, row: usize, col: usize) -> isize {
        let p = Parts::from_arrays(&self.shape, &self.strides, self.offset, 1);
        offset_of(p, self.interleave, &self.index(row, col)).unwrap_or(0)
    }

    /// The widest cell, in decimal characters: the wider of the section's least and
    /// greatest offsets, which the core's bounds give in O(N) (no pass over the cells, so a
    /// huge section rendered into a small buffer fails at once with `CapacityExceeded`).
    fn width(&self) -> usize {
        // The section: the row and column axes as they are, every other axis fixed at `at`
        // (extent 1, starting at the offset of cell (0, 0)).
        let mut shape = [1usize; N];
        for (k, e) in shape.iter_mut().enumerate() {
            if Some(k) == self.rows || k == self.cols {
                *e = self.shape.get(k).copied().unwrap_or(1);
            }
        }
        let p = Parts::from_arrays(&shape, &self.strides, self.cell(0, 0), 1);
        match bounds(p, self.interleave) {
            Ok(Some((lo, hi))) => decimal_width(lo).max(decimal_width(hi)),
            _ => 1,
        }
    }

    /// Writes the rows, right-aligned to the widest cell.
    fn write_to<W: Write + ?Sized>(&self, w: &mut W) -> fmt::Result {
        let (rows, cols) = self.dims();
        if rows == 0 || cols == 0 {
            return Ok(());
        }
        write_grid(w, rows, cols, self.width(), |r, c| Some(self.cell(r, c)))
    }
}

/// Writes a grid of `rows × cols` cells, each right-aligned to `width` characters, `-` where
/// `cell` has no offset: the one grid writer of [`Grid`] and the nested layouts' grid.
pub(crate) fn write_grid<W: Write + ?Sized>(
    w: &mut W,
    rows: usize,
    cols: usize,
    width: usize,
    cell: impl Fn(usize, usize) -> Option<isize>,
) -> fmt::Result {
    for r in 0..rows {
        if r > 0 {
            w.write_char('\n')?;
        }
        for c in 0..cols {
            if c > 0 {
                w.write_char(' ')?;
            }
            // Padding by hand: the formatter's `{:>width$}` machinery keeps a panic path on
            // bare-metal targets (firmware/panic-check finds it).
            if let Some(v) = cell(r, c) {
                for _ in decimal_width(v)..width {
                    w.write_char(' ')?;
                }
                write!(w, "{v}")?;
            } else {
                for _ in 1..width {
                    w.write_char(' ')?;
                }
                w.write_char('-')?;
            }
        }
    }
    Ok(())
}

impl<const N: usize> fmt::Display for Grid<N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(f)
    }
}

/// The number of characters `x` takes in decimal, sign included.
#[expect(
    clippy::arithmetic_side_effects,
    reason = "`w` counts at most 20 digits plus a sign; `m /= 10` divides by a nonzero constant"
)]
pub(crate) const fn decimal_width(x: isize) -> usize {
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
        assert_eq!(decimal_width(isize::MIN), isize::MIN.to_string().len());
        assert_eq!(decimal_width(isize::MAX), isize::MAX.to_string().len());
    }
}
