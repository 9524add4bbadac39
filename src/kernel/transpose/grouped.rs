//! The grouped transpose: a transpose of 2-, 4- or 8-byte elements whose columns come in
//! groups, one contiguous run of columns on one side and scattered on the other. It is the shape of a
//! reorder into (or out of) a blocked format whose block's inner axes are short:
//! `oihw -> OIhw16i16o` of 3 × 3 kernels plans the cube `i (16) × hw (9) × o (16)`, where
//! the source holds the 16 · 9 columns `(i, hw)` as 144 consecutive elements of each `o` row,
//! and the destination writes each column's 16 `o` values as a run, the columns 16 and 256
//! elements apart. Transposed block by block (`hw × o`, nine columns), each block leaves an
//! edge of one column out of nine for the scalar loop; taken as 144 columns, every 8 × 8
//! tile is whole, each tile's eight destination rows stored through their own addresses.
//!
//! | element | tile | x86-64 | other hosts, Miri |
//! | --- | --- | --- | --- |
//! | 2 bytes | 8 × 8 | SSE2 | portable |
//! | 4 bytes | 8 × 8 | AVX2 (without it: not taken) | portable |
//! | 8 bytes | 4 × 4 | AVX (without it: not taken) | portable |
//!
//! aarch64 (NEON) takes the blocks' own transposes, and bare metal does not build this.
//!
//! The tiles go row of tiles by row of tiles, each across every column, unless the
//! scattered columns crowd a few cache sets (a power-of-two number of pages apart:
//! [`crowded`]): then in bands of rows ([`band_rows`]), column tile by column tile, so
//! that each column's lines are finished in one visit.

use core::marker::PhantomData;
use core::mem::size_of;

use crate::kernel::backend::{Backend, Target};
use crate::kernel::drive::step;
use crate::kernel::element::is_plain;
use crate::kernel::plan::{L1_SETS, L1_WAYS, LINE_BYTES, Loop, orbit};

#[cfg(test)]
use super::tile_portable;

/// The most bytes of a scattered column one band of [`Grouped::run_with`] covers
/// ([`band_rows`]): sixteen cache lines, so that each column's lines are written (or read)
/// as a run the hardware's prefetchers follow, not a tile's part of a line per pass over
/// every column.
const BAND_BYTES: usize = 1024;

/// The rows of a band of [`Grouped::run_with`] (a multiple of the tile side `w`, at least
/// one tile): as many as [`BAND_BYTES`] of a scattered column holds, at most as many as the
/// merged operand's rows (`columns · size` bytes each, `row_step · size` apart) whose lines
/// the first-level cache sets they map to hold, since every column tile comes back to the
/// same rows: rows a multiple of 4 KiB apart share one set of [`L1_WAYS`] lines, rows of no
/// whole number of lines spread over all [`L1_SETS`]. Bands of one tile (8 rows of 4-byte
/// elements, 32 bytes of each column) wrote each scattered line in two passes over all the
/// columns, which columns a power-of-two apart evict between passes.
fn band_rows(columns: usize, row_step: isize, size: usize, w: usize) -> usize {
    let w = w.max(1);
    let step = row_step.unsigned_abs().saturating_mul(size);
    let bytes = columns.saturating_mul(size);
    let row_lines = bytes.div_ceil(LINE_BYTES).saturating_add(1);
    let sets = if step <= bytes.saturating_add(LINE_BYTES) {
        // Rows that meet: one run of lines over every set.
        L1_SETS
    } else {
        // The sets a step of `step` bytes starts rows in ([`orbit`]), each row's lines
        // in as many sets on from there.
        orbit(step).saturating_mul(row_lines).min(L1_SETS)
    };
    let fit = sets
        .saturating_mul(L1_WAYS)
        .checked_div(row_lines)
        .unwrap_or(w);
    let want = BAND_BYTES.checked_div(size).unwrap_or(w);
    let rows = want.min(fit).max(w);
    rows.saturating_sub(rows.checked_rem(w).unwrap_or(0))
}

/// More columns than this in one set make [`crowded`] columns: twice a set's [`L1_WAYS`]. At
/// one set's ways, copies of 300 to 500 columns spread over all the sets with some a few
/// over ran 1.14x slower in bands (seed 31's 318 and 759, 3-4 us).
const CROWD: usize = 2 * L1_WAYS;

/// Whether the scattered operand's columns crowd the first-level cache sets: `groups`
/// groups a step of `sg` elements of `size` bytes apart, of `inner` columns `si` apart, put
/// more than [`CROWD`] columns a set on average over the sets their steps reach ([`orbit`]).
/// Then the tiles' pass over every column for a tile's rows evicts the lines the next pass
/// writes on in (columns a multiple of 4 KiB apart all share one set), and [`band_rows`]'
/// bands keep each column's lines to one pass. Columns spread over the sets keep their
/// lines between passes, and bands there only grow the lines a band holds. Found from the
/// steps, not the table: a pass over 500 columns cost small copies a tenth of their time.
fn crowded(groups: usize, sg: isize, inner: usize, si: isize, size: usize) -> bool {
    let reach = |n: usize, s: isize| n.min(orbit(s.unsigned_abs().saturating_mul(size)));
    let sets = reach(groups, sg)
        .saturating_mul(reach(inner, si))
        .min(L1_SETS);
    groups.saturating_mul(inner).checked_div(sets).unwrap_or(0) > CROWD
}

/// The most columns of a grouped transpose, whose offsets it keeps (4 KiB on 64-bit
/// hosts): 16 channels of a 5 × 5 kernel.
const MAX_COLUMNS: usize = 512;

/// The side of [`Grouped`]'s tile for `T`, where it runs (the module's table): plain 2-,
/// 4- and 8-byte elements on hosts, 8 × 8 tiles of 2- and 4-byte ones (4-byte ones on x86-64
/// with AVX2), 4 × 4 of 8-byte ones (with AVX); `None` elsewhere: other types, aarch64,
/// whose NEON blocks the plain transpose takes, bare metal, whose copies are small and whose
/// flash is counted.
#[inline]
pub(crate) fn side<T: 'static>() -> Option<usize> {
    if !is_plain::<T>() {
        return None;
    }
    Target::grouped_side(size_of::<T>())
}

/// A cube `c × a × b` of `T` (operand 0 the destination, `b` innermost) shaped for the
/// grouped transpose: two of its loops are the columns (the *groups*, `ec` steps, and the
/// columns in a group, *inner*, `ei` steps: column `g·ei + r`), the third the rows
/// ([`Cast`]). One operand (*merged*) holds the columns `0..ec·ei` as consecutive elements
/// of each row (its inner stride 1, its groups' stride `ei`); the other (*scattered*) holds
/// each column's rows as consecutive elements (its row stride 1), its columns' offsets in a
/// table found once for every cube of the nest. Minted only by [`Grouped::of`], which checks
/// the shape and that `T` has a tile here; the loops are the nest's, whose every cube
/// [`Grouped::run`] moves.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Grouped<T> {
    /// The scattered operand's offset of each column at row 0 (`columns` of them).
    table: [isize; MAX_COLUMNS],
    /// The columns, `ec·ei` (at most [`MAX_COLUMNS`]).
    columns: usize,
    /// The rows.
    rows: usize,
    /// The merged operand's offset from one row to the next (its row stride).
    row_step: isize,
    /// Whether the destination is the scattered operand (else the source is).
    dst_scattered: bool,
    /// The rows of a band ([`band_rows`]), a multiple of the tile side.
    band: usize,
    /// The element type, whose tile [`side`] found here.
    element: PhantomData<fn() -> T>,
}

/// Operand `source`'s stride of `l` (the destination's when `false`).
#[inline(always)]
fn stride(l: Loop<2>, source: bool) -> isize {
    let [d, s] = l.strides;
    if source { s } else { d }
}

/// The roles of a cube's three loops in a grouped transpose: the columns' groups, the
/// columns in a group (`inner`, fastest) and the rows, with the operand whose columns are
/// scattered. Found by [`Cast::of`], the one rule of the shape.
#[derive(Clone, Copy)]
struct Cast {
    /// The columns' groups (`ec` steps).
    groups: Loop<2>,
    /// The columns in a group (`ei` steps).
    inner: Loop<2>,
    /// The rows.
    rows: Loop<2>,
    /// Whether the source is the scattered operand (else the destination is).
    source: bool,
}

impl Cast {
    /// The first of the six ways to cast the loops `c`, `a`, `b` as groups, columns in a
    /// group and rows that has the shape and pays for tiles of `tile` a side
    /// ([`Cast::roles`]), in whatever order the planner put them: a cube is its set of
    /// offsets, which the grouped transpose visits in its own order. (The loop order weighs
    /// strides by cache lines, so one reorder plans differently by element size: `oihw ->
    /// OIhw16i16o` rows innermost in 4 bytes, `OIhw16i16o -> oihw` in 2 bytes the groups
    /// innermost, 9 and 16 elements a step.)
    fn of(c: Loop<2>, a: Loop<2>, b: Loop<2>, tile: usize) -> Option<Self> {
        [
            [c, a, b],
            [c, b, a],
            [a, c, b],
            [a, b, c],
            [b, c, a],
            [b, a, c],
        ]
        .into_iter()
        .find_map(|[groups, inner, rows]| Self::roles(groups, inner, rows, tile))
    }

    /// The loops in these roles, if they have the shape and it pays: `inner`'s extent not a
    /// multiple of the tile side (else the plain transpose's blocks are whole tiles
    /// already); at least two groups, a whole tile of columns and of rows, at most
    /// [`MAX_COLUMNS`] columns; one operand merged (its columns consecutive: `inner` stride
    /// 1, `groups` stride `ei`) and the other scattered (its rows consecutive: `rows` stride
    /// 1; the merged operand's not, else the block is rows, not a transpose).
    fn roles(groups: Loop<2>, inner: Loop<2>, rows: Loop<2>, tile: usize) -> Option<Self> {
        if inner.extent.checked_rem(tile)? == 0 || groups.extent < 2 || rows.extent < tile {
            return None;
        }
        let columns = groups.extent.checked_mul(inner.extent)?;
        if !(tile..=MAX_COLUMNS).contains(&columns) {
            return None;
        }
        let group = isize::try_from(inner.extent).ok()?;
        let shaped = |scattered: bool| {
            let merged = !scattered;
            stride(rows, scattered) == 1
                && stride(rows, merged) != 1
                && stride(inner, merged) == 1
                && stride(groups, merged) == group
        };
        let source = [false, true].into_iter().find(|&x| shaped(x))?;
        Some(Self {
            groups,
            inner,
            rows,
            source,
        })
    }

    /// The grouped transpose of elements `T` in these roles: the scattered operand's offset
    /// of every column at row 0, in a table.
    fn table<T: 'static>(self) -> Grouped<T> {
        let Self {
            groups,
            inner,
            rows,
            source,
        } = self;
        let mut table = [0isize; MAX_COLUMNS];
        let (sg, si) = (stride(groups, source), stride(inner, source));
        let mut at = table.iter_mut();
        for g in 0..groups.extent {
            let base = step(g, sg);
            for r in 0..inner.extent {
                if let Some(o) = at.next() {
                    // An offset of the nest's cube (every `g < ec`, `r < ei`), inside its
                    // bounds, which the plan computed with checked arithmetic.
                    *o = base.wrapping_add(step(r, si));
                }
            }
        }
        // At most `MAX_COLUMNS` (`roles` multiplied them checked).
        let columns = groups.extent.wrapping_mul(inner.extent);
        let size = size_of::<T>();
        let w = side::<T>().unwrap_or(1);
        // Bands only where the scattered columns crowd a set ([`crowded`]).
        let band = if crowded(groups.extent, sg, inner.extent, si, size) {
            band_rows(columns, stride(rows, !source), size, w)
        } else {
            w
        };
        Grouped {
            table,
            columns,
            rows: rows.extent,
            row_step: stride(rows, !source),
            dst_scattered: !source,
            band,
            element: PhantomData,
        }
    }
}

impl<T: 'static> Grouped<T> {
    /// Whether the cube `c × a × b` of `T` has the grouped transpose's shape and it pays
    /// ([`Cast::of`]): the cheap test, without the table, that a loop driver makes before
    /// [`of`](Self::of) (whose value is 4 KiB: kept out of frames that do not use it).
    #[inline]
    pub(crate) fn fits(c: Loop<2>, a: Loop<2>, b: Loop<2>) -> bool {
        side::<T>()
            .and_then(|tile| Cast::of(c, a, b, tile))
            .is_some()
    }

    /// The grouped transpose of the cube `c × a × b` of `T`, if it has the shape and pays
    /// ([`fits`](Self::fits)), its table of columns found.
    pub(crate) fn of(c: Loop<2>, a: Loop<2>, b: Loop<2>) -> Option<Self> {
        let cast = Cast::of(c, a, b, side::<T>()?)?;
        Some(cast.table())
    }

    /// Copies the cube at `d`/`s` (operand 0 `d`): [`run_with`](Self::run_with) with the
    /// target's tile for the element's size (the module's table; present: [`side`], which
    /// [`of`](Self::of) checked), else the portable twin.
    ///
    /// # Safety
    ///
    /// Every offset `k·c.strides + i·a.strides + j·b.strides` (`k < c.extent`, `i <
    /// a.extent`, `j < b.extent`) of the loops `self` was minted for, from `d` (destination)
    /// and `s` (source), is an element of its allocation; no destination element is a source
    /// element; no two indices share a destination element.
    #[inline]
    pub(crate) unsafe fn run(&self, d: *mut T, s: *const T) {
        match size_of::<T>() {
            // SAFETY: `T` is a plain 2-byte type (`side`, checked by `of`), moved as `u16`
            // bits; the caller's contract is `run_2`'s.
            2 => unsafe { self.run_2(d.cast::<u16>(), s.cast::<u16>()) },
            // SAFETY: likewise for 4-byte elements, as `u32`.
            4 => unsafe { self.run_4(d.cast::<u32>(), s.cast::<u32>()) },
            // SAFETY: likewise for 8-byte elements, as `u64`.
            _ => unsafe { self.run_8(d.cast::<u64>(), s.cast::<u64>()) },
        }
    }

    /// [`run`](Self::run) of 2-byte elements: the backend's 8 × 8 tile
    /// ([`Backend::grouped2`]: SSE2 on x86-64, else the portable one).
    ///
    /// # Safety
    ///
    /// [`run`](Self::run)'s contract, for 2-byte elements.
    #[inline]
    unsafe fn run_2(&self, d: *mut u16, s: *const u16) {
        // SAFETY: the caller's contract.
        unsafe { Target::grouped2(self, d, s) };
    }

    /// [`run`](Self::run) of 4-byte elements: the backend's cube ([`Backend::grouped4`]:
    /// AVX2's tiles on x86-64, where `side` found AVX2, else the portable tiles).
    ///
    /// # Safety
    ///
    /// [`run`](Self::run)'s contract, for 4-byte elements.
    #[inline]
    unsafe fn run_4(&self, d: *mut u32, s: *const u32) {
        // SAFETY: the caller's contract; `of` minted `self` where `side` found a tile.
        unsafe { Target::grouped4(self, d, s) };
    }

    /// [`run`](Self::run) of 8-byte elements: the backend's cube ([`Backend::grouped8`]:
    /// AVX's 4 × 4 tiles on x86-64, where `side` found AVX, else the portable tiles).
    ///
    /// # Safety
    ///
    /// [`run`](Self::run)'s contract, for 8-byte elements.
    #[inline]
    unsafe fn run_8(&self, d: *mut u64, s: *const u64) {
        // SAFETY: the caller's contract; `of` minted `self` where `side` found a tile.
        unsafe { Target::grouped8(self, d, s) };
    }

    /// [`run`](Self::run) with the tile `micro`: for each band of eight rows, every whole
    /// tile of eight columns through `micro`, then the band's last columns element by
    /// element; then the last rows, element by element. Column `col` at row `j` is element
    /// `table[col] + j` of the scattered operand and `col + j·row_step` of the merged one.
    ///
    /// # Safety
    ///
    /// [`run`](Self::run)'s contract for elements `E`, `W` the side `self` was minted for,
    /// and `micro(dst, src)` copies `src[i] + k` to `dst[k] + i` (`i, k < W`), sound
    /// whenever those are elements of the cube.
    #[inline(always)]
    pub(crate) unsafe fn run_with<E: Copy, const W: usize>(
        &self,
        d: *mut E,
        s: *const E,
        mut micro: impl FnMut([*mut E; W], [*const E; W]),
    ) {
        let (cols, eb, row_step) = (self.columns, self.rows, self.row_step);
        let table = self.table.get(..cols).unwrap_or(&[]);
        const { assert!(W > 0) };
        let fb = eb.wrapping_sub(eb.checked_rem(W).unwrap_or(0));
        let tiles = table.chunks_exact(W);
        let last = tiles.remainder();
        let fc = cols.wrapping_sub(last.len());
        // Element `j` of column `col`, whose scattered offset is `o`.
        // SAFETY: every call below is of a column `col < cols` at a row `j < eb`: an element
        // of the cube (the caller's contract is `element`'s).
        let element = |col: usize, o: isize, j: usize| unsafe { self.element(d, s, col, o, j) };
        let band = self.band;
        if band > W && band < fb && band.checked_rem(W) == Some(0) {
            // SAFETY: the caller's contract, which is `banded`'s.
            unsafe { self.banded::<E, W>(d, s, &mut micro, band, fb) };
        } else {
            let mut j0 = 0;
            while j0 < fb {
                // The merged operand's rows `j0..j0 + 8` from column 0.
                let rows: [isize; W] = core::array::from_fn(|i| step(j0.wrapping_add(i), row_step));
                for (t, tile) in tiles.clone().enumerate() {
                    // Columns `8t..8t + 8`: the scattered operand's `j0` elements on, the
                    // merged one's `8t` columns on.
                    let columns: [isize; W] = core::array::from_fn(|k| {
                        tile.get(k).map_or(0, |&o| o.wrapping_add(step(j0, 1)))
                    });
                    let rows = rows.map(|o| o.wrapping_add(step(t.wrapping_mul(W), 1)));
                    let (dst, src) = if self.dst_scattered {
                        (columns, rows)
                    } else {
                        (rows, columns)
                    };
                    micro(
                        dst.map(|o| d.wrapping_offset(o)),
                        src.map(|o| s.wrapping_offset(o)),
                    );
                }
                for (k, &o) in last.iter().enumerate() {
                    for j in j0..j0.wrapping_add(W) {
                        element(fc.wrapping_add(k), o, j);
                    }
                }
                j0 = j0.wrapping_add(W);
            }
        }
        for (col, &o) in table.iter().enumerate() {
            for j in fb..eb {
                element(col, o, j);
            }
        }
    }

    /// Copies element `j` of column `col`, whose scattered offset is `o`: `o + j` of the
    /// scattered operand, `col + j·row_step` of the merged one.
    ///
    /// # Safety
    ///
    /// Column `col < columns` at row `j < rows`, of a cube [`run_with`](Self::run_with)'s
    /// contract covers.
    #[inline(always)]
    unsafe fn element<E: Copy>(&self, d: *mut E, s: *const E, col: usize, o: isize, j: usize) {
        let scattered = o.wrapping_add(step(j, 1));
        let merged = step(col, 1).wrapping_add(step(j, self.row_step));
        let (od, os) = if self.dst_scattered {
            (scattered, merged)
        } else {
            (merged, scattered)
        };
        // SAFETY: an element of the cube, in the source (the caller's contract).
        let value = unsafe { s.wrapping_offset(os).read() };
        // SAFETY: likewise of the destination, not a source element (contract).
        unsafe { d.wrapping_offset(od).write(value) };
    }

    /// [`run_with`](Self::run_with)'s whole tiles in bands of `band` rows (a multiple of
    /// `W`, fewer than `fb`, the rows of whole tiles): in each band, column tile by column
    /// tile, each tile's rows of the band in turn, then the band's last columns element by
    /// element ([`band_rows`], chosen where the scattered columns crowd a set:
    /// [`crowded`]). Not inlined: inlined into the backend's function with `run_with`'s
    /// row-by-row loop, that loop ran short cubes up to 1.3x slower (seed 31's 1146, 324
    /// columns of 10 rows); here the tile `micro` is a call (the backend's target features
    /// are not this function's), which the bands' cache misses outweigh.
    ///
    /// # Safety
    ///
    /// [`run_with`](Self::run_with)'s contract.
    #[inline(never)]
    unsafe fn banded<E: Copy, const W: usize>(
        &self,
        d: *mut E,
        s: *const E,
        micro: &mut impl FnMut([*mut E; W], [*const E; W]),
        band: usize,
        fb: usize,
    ) {
        let (cols, row_step) = (self.columns, self.row_step);
        let table = self.table.get(..cols).unwrap_or(&[]);
        let tiles = table.chunks_exact(W);
        let last = tiles.remainder();
        let fc = cols.wrapping_sub(last.len());
        // The merged operand's offset from one tile's rows to the next's.
        let jump = step(W, row_step);
        let mut j1 = 0;
        while j1 < fb {
            let end = fb.min(j1.wrapping_add(band));
            // The merged operand's rows `j1..j1 + W` from column 0.
            let first: [isize; W] = core::array::from_fn(|i| step(j1.wrapping_add(i), row_step));
            for (t, tile) in tiles.clone().enumerate() {
                // Those rows at columns `W·t..`, the scattered operand's `j1` elements on
                // from those columns; each tile of the band `W` rows on from the last.
                let mut rows = first.map(|o| o.wrapping_add(step(t.wrapping_mul(W), 1)));
                let mut columns: [isize; W] = core::array::from_fn(|k| {
                    tile.get(k).map_or(0, |&o| o.wrapping_add(step(j1, 1)))
                });
                let mut j0 = j1;
                while j0 < end {
                    let (dst, src) = if self.dst_scattered {
                        (columns, rows)
                    } else {
                        (rows, columns)
                    };
                    micro(
                        dst.map(|o| d.wrapping_offset(o)),
                        src.map(|o| s.wrapping_offset(o)),
                    );
                    rows = rows.map(|o| o.wrapping_add(jump));
                    columns = columns.map(|o| o.wrapping_add(step(W, 1)));
                    j0 = j0.wrapping_add(W);
                }
            }
            for (k, &o) in last.iter().enumerate() {
                for j in j1..end {
                    // SAFETY: column `fc + k < cols` at row `j < fb`: an element of
                    // the cube (the caller's contract is `element`'s).
                    unsafe { self.element(d, s, fc.wrapping_add(k), o, j) };
                }
            }
            j1 = end;
        }
    }
}

#[cfg(test)]
#[expect(
    clippy::cast_possible_wrap,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
    clippy::cast_precision_loss,
    clippy::many_single_char_names,
    clippy::panic,
    reason = "small test sizes; the loops' names are the module's; a panic is a failed test"
)]
mod tests {
    use super::*;
    use std::vec::Vec;

    /// The loops of a cube `ec × ea × eb` with the `scattered` operand (0 the destination)
    /// holding each column's rows consecutively (its groups running backwards with `flip`),
    /// and the other merged (rows 3 elements longer than the columns); the two operands'
    /// lengths, and
    /// their offsets of the cube's first element.
    fn cube(
        ec: usize,
        ea: usize,
        eb: usize,
        scattered: usize,
        flip: bool,
    ) -> ([Loop<2>; 3], [usize; 2], [isize; 2]) {
        let cols = ec * ea;
        let row = (cols + 3) as isize;
        // Scattered: column (g, r) at `r·(ec·(eb + 1)) + g·(eb + 1)` (flipped: `g` runs
        // backwards), its rows consecutive.
        let col_len = (eb + 1) as isize;
        let (sc, sa) = (if flip { -col_len } else { col_len }, col_len * ec as isize);
        let x_len = (ea * ec) * (eb + 1);
        let x_first = if flip { (ec as isize - 1) * col_len } else { 0 };
        let y_len = eb * (cols + 3);
        let mut loops = [
            Loop {
                extent: ec,
                strides: [0; 2],
            },
            Loop {
                extent: ea,
                strides: [0; 2],
            },
            Loop {
                extent: eb,
                strides: [0; 2],
            },
        ];
        let (x, y) = (scattered, 1 - scattered);
        loops[0].strides[x] = sc;
        loops[1].strides[x] = sa;
        loops[2].strides[x] = 1;
        loops[0].strides[y] = ea as isize;
        loops[1].strides[y] = 1;
        loops[2].strides[y] = row;
        let mut lens = [0; 2];
        let mut first = [0; 2];
        lens[x] = x_len;
        lens[y] = y_len;
        first[x] = x_first;
        (loops, lens, first)
    }

    /// An element of type `Self`, from an index (distinct for the test sizes).
    trait Elem: Copy + PartialEq + core::fmt::Debug + 'static {
        const SENTINEL: Self;
        fn of(i: usize) -> Self;
    }
    impl Elem for u16 {
        const SENTINEL: Self = u16::MAX;
        fn of(i: usize) -> Self {
            i as u16
        }
    }
    impl Elem for u32 {
        const SENTINEL: Self = u32::MAX;
        fn of(i: usize) -> Self {
            i as u32
        }
    }
    impl Elem for f64 {
        const SENTINEL: Self = -1.0;
        fn of(i: usize) -> Self {
            i as f64
        }
    }

    /// Copies the cube of `E` through the grouped transpose (with the portable tiles of side
    /// `W` when `twin`, or where `E` has no kernel here; else the target's) and checks every
    /// element against the index formula, and every other destination element untouched.
    fn check<E: Elem, const W: usize>(
        [ec, ea, eb]: [usize; 3],
        scattered: usize,
        flip: bool,
        twin: bool,
    ) {
        let (loops, lens, first) = cube(ec, ea, eb, scattered, flip);
        let g = check_cube::<E, W>(loops, lens, first, twin);
        assert_eq!(g.dst_scattered, scattered == 0, "{ec}x{ea}x{eb} ({flip})");
    }

    /// [`check`] of the cube `loops` (buffers `lens` long, the cube's first element at
    /// `first`); returns the grouped transpose it ran.
    fn check_cube<E: Elem, const W: usize>(
        [c, a, b]: [Loop<2>; 3],
        [dl, sl]: [usize; 2],
        [od, os]: [isize; 2],
        twin: bool,
    ) -> Grouped<E> {
        let [ec, ea, eb] = [c.extent, a.extent, b.extent];
        let size = size_of::<E>();
        // Columns `c × a` with rows `b` innermost, or with the loops handed over columns
        // innermost (`c × b × a`: the same cube). (Where `E` has no kernel on this CPU, the
        // shape alone, and the portable tile.)
        let kernel = side::<E>() == Some(W);
        let g = if kernel {
            let g = Grouped::<E>::of(c, a, b);
            assert_eq!(
                g,
                Grouped::<E>::of(c, b, a),
                "{ec}x{ea}x{eb}: the two loop orders"
            );
            g
        } else {
            Cast::of(c, b, a, W).map(Cast::table::<E>)
        };
        let g = g.unwrap_or_else(|| panic!("{ec}x{ea}x{eb} of {size} bytes not grouped"));
        let src: Vec<E> = (0..sl).map(E::of).collect();
        let mut dst = std::vec![E::SENTINEL; dl];
        let (d, s) = (
            dst.as_mut_ptr().wrapping_offset(od),
            src.as_ptr().wrapping_offset(os),
        );
        let tile = |dst, src| {
            // SAFETY: `run_with` hands over tiles of the cube (its contract).
            unsafe { tile_portable::<E, W>(dst, src) };
        };
        if twin || !kernel {
            // SAFETY: every offset of the cube lies in its buffer (built so), distinct buffers.
            unsafe { g.run_with::<E, W>(d, s, tile) };
        } else {
            // SAFETY: as above; `g` was minted for `E`.
            unsafe { g.run(d, s) };
        }
        let mut written = 0;
        for k in 0..ec {
            for i in 0..ea {
                for j in 0..eb {
                    let at = |o: isize, op: usize| {
                        (o + k as isize * c.strides[op]
                            + i as isize * a.strides[op]
                            + j as isize * b.strides[op]) as usize
                    };
                    let (x, y) = (at(od, 0), at(os, 1));
                    assert_eq!(
                        dst[x], src[y],
                        "{size} bytes {ec}x{ea}x{eb} at ({k},{i},{j})"
                    );
                    written += 1;
                }
            }
        }
        let untouched = dst.iter().filter(|&&v| v == E::SENTINEL).count();
        assert_eq!(
            untouched + written,
            dl,
            "{size} bytes {ec}x{ea}x{eb}: an element outside the cube written"
        );
        g
    }

    /// Columns a page apart in the scattered operand, all in one first-level set
    /// (`crowded`), run in bands of rows (`band_rows`), column tile by column tile
    /// (`banded`), and copy what the index formula says, in either orientation, with the
    /// target's tiles and the portable twin; columns spread over the sets, and cubes of
    /// fewer whole-tile rows than a band, run row by row.
    #[test]
    fn bands_of_columns_crowding_a_set_match_the_index_formula() {
        /// The cube `ec × ea × eb` whose `scattered` operand holds column `(g, r)` at
        /// `(r·ec + g)·apart`, its rows consecutive, the other its columns consecutive.
        fn crowd(
            [ec, ea, eb]: [usize; 3],
            apart: usize,
            scattered: usize,
        ) -> ([Loop<2>; 3], [usize; 2], [isize; 2]) {
            let cols = ec * ea;
            let (x, y) = (scattered, 1 - scattered);
            let mut loops = [ec, ea, eb].map(|extent| Loop {
                extent,
                strides: [0; 2],
            });
            loops[0].strides[x] = apart as isize;
            loops[1].strides[x] = (apart * ec) as isize;
            loops[2].strides[x] = 1;
            loops[0].strides[y] = ea as isize;
            loops[1].strides[y] = 1;
            loops[2].strides[y] = cols as isize;
            let mut lens = [0; 2];
            lens[x] = apart * cols + eb;
            lens[y] = cols * eb;
            (loops, lens, [0, 0])
        }
        // 2 x 20 `u32` columns 4 KiB apart, 600 rows: bands of 128 rows (the merged rows
        // meet, over all 64 sets of 8 lines, 4 lines a row counting a straddled one).
        let rows = if cfg!(miri) { 136 } else { 600 };
        // (Under Miri the target's tiles are the portable ones: one pass of each.)
        let twins: &[bool] = if cfg!(miri) { &[false] } else { &[false, true] };
        for scattered in [0, 1] {
            for &twin in twins {
                let (loops, lens, first) = crowd([2, 20, rows], 1024, scattered);
                let g = check_cube::<u32, 8>(loops, lens, first, twin);
                assert_eq!(g.band, 128);
                // `f64`: 6 x 3 columns 8 KiB apart, bands of 4-row tiles.
                let (loops, lens, first) = crowd([6, 3, rows], 1024, scattered);
                let g = check_cube::<f64, 4>(loops, lens, first, twin);
                assert!(g.band > 4 && g.band < rows, "{}", g.band);
                // Spread over the sets (columns 3 elements past their rows apart): rows of
                // tiles (a band of one tile, the target's side: none where the target has
                // no grouped tile, as on aarch64, and the table says 1).
                let (loops, lens, first) = crowd([2, 20, rows], rows + 3, scattered);
                let g = check_cube::<u32, 8>(loops, lens, first, twin);
                assert_eq!(g.band, side::<u32>().unwrap_or(1));
            }
        }
        // 17 columns a page apart in one set, not 16; 16 or 17 pages of groups of 2
        // columns 6 KiB apart (two sets); 64 columns a line apart, a set each; backwards
        // too.
        assert!(crowded(17, 1024, 1, 0, 4));
        assert!(!crowded(16, 1024, 1, 0, 4), "16 in a set of 8 ways");
        assert!(!crowded(16, 1024, 2, 1536, 4));
        assert!(crowded(17, 1024, 2, 1536, 4));
        assert!(!crowded(64, 16, 1, 0, 4), "a set each");
        assert!(crowded(3, -2048, 6, -4096, 8), "backwards");
        assert_eq!(
            [orbit(64), orbit(4096), orbit(8192), orbit(96), orbit(256)],
            [64, 1, 1, 64, 16]
        );
        // The merged rows' lines bound the band: rows 32 KiB apart (one set) of 64
        // `u32` (5 lines) hold 8 rows; rows that meet, 16 KiB of lines, here 1 KiB a
        // column (256 `u32`) first.
        assert_eq!(band_rows(64, 8192, 4, 8), 8);
        assert_eq!(band_rows(80, 80, 4, 8), 80);
        assert_eq!(band_rows(16, 16, 4, 8), 256);
    }

    /// Every orientation, groups of 1-20 (not multiples of the side), 2-17 groups, 4-19
    /// rows; 2-, 4- and 8-byte elements; both tiles (the target's and the portable twin),
    /// flipped groups on the scattered side.
    #[test]
    fn grouped_transpose_matches_the_index_formula() {
        let eas: &[usize] = if cfg!(miri) {
            &[3, 9]
        } else {
            &[1, 2, 3, 5, 7, 9, 12, 15, 17, 20]
        };
        let ecs: &[usize] = if cfg!(miri) {
            &[2, 5]
        } else {
            &[2, 3, 5, 8, 16, 17]
        };
        let ebs: &[usize] = if cfg!(miri) {
            &[8, 11]
        } else {
            &[4, 7, 8, 9, 15, 16, 19]
        };
        // (Under Miri the target's tiles are the portable ones: one pass of each.)
        let twins: &[bool] = if cfg!(miri) { &[false] } else { &[false, true] };
        let mut ran = 0;
        for &ea in eas {
            for &ec in ecs {
                for &eb in ebs {
                    for scattered in [0, 1] {
                        for flip in [false, true] {
                            for &twin in twins {
                                let cube = [ec, ea, eb];
                                let fits = |w: usize| ec * ea >= w && eb >= w && ea % w != 0;
                                if fits(8) {
                                    check::<u16, 8>(cube, scattered, flip, twin);
                                    check::<u32, 8>(cube, scattered, flip, twin);
                                    ran += 1;
                                }
                                if fits(4) {
                                    check::<f64, 4>(cube, scattered, flip, twin);
                                    ran += 1;
                                }
                            }
                        }
                    }
                }
            }
        }
        assert!(ran >= 8 * twins.len(), "{ran}");
    }

    /// What the shape rule refuses: other element sizes, groups a multiple of the tile side,
    /// too few rows, columns, groups or too many columns, a merged side that is not merged,
    /// rows consecutive on both sides.
    #[test]
    fn grouped_transpose_refuses_other_shapes() {
        fn agrees<T: 'static>(c: Loop<2>, a: Loop<2>, b: Loop<2>) -> bool {
            Grouped::<T>::of(c, a, b).is_some() == side::<T>().is_some()
        }
        let ([c, a, b], ..) = cube(16, 9, 16, 0, false);
        // Taken exactly for the element types with a tile here.
        assert!(agrees::<u16>(c, a, b) && agrees::<u32>(c, a, b));
        assert!(agrees::<f32>(c, a, b) && agrees::<f64>(c, a, b));
        assert!(Grouped::<u8>::of(c, a, b).is_none() && side::<u8>().is_none());
        assert!(Grouped::<[u8; 4]>::of(c, a, b).is_none() && side::<[u8; 4]>().is_none());
        assert!(Grouped::<u128>::of(c, a, b).is_none());
        let shape = |[c, a, b]: [Loop<2>; 3], w: usize| Cast::of(c, a, b, w).is_some();
        assert!(shape([c, a, b], 8) && shape([c, b, a], 8) && shape([c, a, b], 4));
        let refused = |ec: usize, ea: usize, eb: usize, w: usize| {
            let (loops, ..) = cube(ec, ea, eb, 1, false);
            !shape(loops, w)
        };
        assert!(refused(16, 8, 16, 8), "a multiple of 8 a group");
        assert!(
            refused(16, 12, 16, 4),
            "a multiple of 4 a group, tiles of 4"
        );
        assert!(!refused(16, 12, 16, 8), "12 a group, tiles of 8");
        assert!(refused(16, 9, 7, 8), "fewer rows than a tile");
        assert!(!refused(16, 9, 7, 4), "7 rows, tiles of 4");
        assert!(refused(1, 9, 16, 8), "one group");
        assert!(refused(2, 3, 16, 8), "fewer columns than a tile");
        assert!(refused(64, 9, 16, 8), "more columns than the table");
        let mut unmerged = [c, a, b];
        unmerged[0].strides[1] += 1;
        assert!(!shape(unmerged, 8), "a gap between groups");
        let mut rows = [c, a, b];
        rows[2].strides = [1, 1];
        assert!(!shape(rows, 8), "rows, not a transpose");
    }
}
