//! The grouped transpose: a transpose of 4-byte elements whose columns come in groups, one
//! contiguous run of columns on one side and scattered on the other. It is the shape of a
//! reorder into (or out of) a blocked format whose block's inner axes are short:
//! `oihw -> OIhw16i16o` of 3 × 3 kernels plans the cube `i (16) × hw (9) × o (16)`, where
//! the source holds the 16 · 9 columns `(i, hw)` as 144 consecutive elements of each `o` row,
//! and the destination writes each column's 16 `o` values as a run, the columns 16 and 256
//! elements apart. Transposed block by block (`hw × o`, nine columns), each block leaves an
//! edge of one column out of nine for the scalar loop; taken as 144 columns, every 8 × 8
//! tile is whole, each tile's eight destination rows stored through their own addresses.

use core::mem::size_of;

#[cfg(x86_kernels)]
use crate::kernel::cpu::has_avx2;
use crate::kernel::drive::step;
use crate::kernel::element::is_plain;
use crate::kernel::plan::Loop;

/// The side of a tile.
const W: usize = 8;

/// The most columns of a grouped transpose, whose offsets it keeps (4 KiB on 64-bit
/// hosts): 16 channels of a 5 × 5 kernel.
const MAX_COLUMNS: usize = 512;

/// Whether [`Grouped`] runs for `T`: plain 4-byte elements on hosts, where the 8 × 8 tile
/// is AVX2's (x86-64 with AVX2) or the portable twin's (targets with no SIMD kernels, and
/// Miri); not on aarch64, whose 4 × 4 NEON blocks the plain transpose takes, nor on bare
/// metal, whose copies are small and whose flash is counted.
#[inline]
pub(crate) fn runs<T: 'static>() -> bool {
    if size_of::<T>() != 4 || !is_plain::<T>() || cfg!(target_os = "none") {
        return false;
    }
    #[cfg(x86_kernels)]
    {
        has_avx2()
    }
    #[cfg(not(x86_kernels))]
    {
        !cfg!(neon_kernels)
    }
}

/// A cube `c × a × b` (operand 0 the destination, `b` innermost) shaped for the grouped
/// transpose: its columns are `c` and one of `a` and `b` (*inner*, `ei` steps), column
/// `g·ei + r` step `g` of `c` and step `r` of the inner loop, its rows `j` the steps of the
/// other loop. One operand (*merged*) holds the columns `0..ec·ei` as consecutive elements of
/// each row (its inner stride 1, its `c` stride `ei`); the other (*scattered*) holds each
/// column's rows as consecutive elements (its row stride 1), its columns' offsets in a table
/// found once for every cube of the nest. Minted only by [`Grouped::of`], which checks the
/// shape; the loops are the nest's, whose every cube [`Grouped::run`] moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Grouped {
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
}

/// Operand `source`'s stride of `l` (the destination's when `false`).
#[inline(always)]
fn stride(l: Loop<2>, source: bool) -> isize {
    let [d, s] = l.strides;
    if source { s } else { d }
}

impl Grouped {
    /// The grouped transpose of the cube `c × a × b` of `T`, if it has the shape and pays:
    /// [`runs`] for `T`, and the columns `c × a` with rows `b`, or `c × b` with rows `a`
    /// ([`columns`](Self::columns)). The planner puts the destination's consecutive loop
    /// innermost, so a scattered destination plans as rows innermost (`oihw ->
    /// OIhw16i16o`), a scattered source as columns innermost (`OIhw16i16o -> oihw`).
    pub(crate) fn of<T: 'static>(c: Loop<2>, a: Loop<2>, b: Loop<2>) -> Option<Self> {
        if !runs::<T>() {
            return None;
        }
        Self::shape(c, a, b)
    }

    /// [`of`](Self::of)'s rule on the loops alone, whatever the element type.
    fn shape(c: Loop<2>, a: Loop<2>, b: Loop<2>) -> Option<Self> {
        Self::columns(c, a, b).or_else(|| Self::columns(c, b, a))
    }

    /// The grouped transpose of the columns `c × inner` (`inner` fastest) and the rows
    /// `rows`, if it pays: `inner`'s extent not a multiple of the tile side (else the plain
    /// transpose's blocks are whole tiles already); at least two groups, a whole tile of
    /// columns and of rows, at most [`MAX_COLUMNS`] columns; one operand merged and the
    /// other scattered (a row of the merged one not itself consecutive: that block is rows,
    /// not a transpose).
    fn columns(c: Loop<2>, inner: Loop<2>, rows: Loop<2>) -> Option<Self> {
        if inner.extent.is_multiple_of(W) || c.extent < 2 || rows.extent < W {
            return None;
        }
        let columns = c.extent.checked_mul(inner.extent)?;
        if !(W..=MAX_COLUMNS).contains(&columns) {
            return None;
        }
        let group = isize::try_from(inner.extent).ok()?;
        let shaped = |scattered: bool| {
            let merged = !scattered;
            stride(rows, scattered) == 1
                && stride(rows, merged) != 1
                && stride(inner, merged) == 1
                && stride(c, merged) == group
        };
        // `true`: the source is scattered.
        let source = [false, true].into_iter().find(|&x| shaped(x))?;
        let mut table = [0isize; MAX_COLUMNS];
        let (sc, si) = (stride(c, source), stride(inner, source));
        let mut at = table.iter_mut();
        for g in 0..c.extent {
            let base = step(g, sc);
            for r in 0..inner.extent {
                if let Some(o) = at.next() {
                    // An offset of the nest's cube (every `g < ec`, `r < ei`), inside its
                    // bounds, which the plan computed with checked arithmetic.
                    *o = base.wrapping_add(step(r, si));
                }
            }
        }
        Some(Self {
            table,
            columns,
            rows: rows.extent,
            row_step: stride(rows, !source),
            dst_scattered: !source,
        })
    }

    /// Copies the cube at `d`/`s` (operand 0 `d`): [`run_with`](Self::run_with) with the
    /// target's tile, AVX2's on x86-64 (present: [`runs`], which [`of`](Self::of) checked),
    /// else the portable twin.
    ///
    /// # Safety
    ///
    /// Every offset `k·c.strides + i·a.strides + j·b.strides` (`k < c.extent`, `i <
    /// a.extent`, `j < b.extent`) of the loops `self` was minted for, from `d` (destination)
    /// and `s` (source), is an element of its allocation; no destination element is a
    /// source element; no two indices share a destination element.
    #[inline]
    pub(crate) unsafe fn run<T>(&self, d: *mut T, s: *const T) {
        let (d, s) = (d.cast::<u32>(), s.cast::<u32>());
        #[cfg(x86_kernels)]
        // SAFETY: `of` minted `self` only where `runs` holds, so AVX2 is present and `T` is a
        // plain 4-byte type (moved as `u32` bits); the caller's contract is `run_with`'s.
        unsafe {
            super::x86::grouped_avx2(self, d, s);
        }
        #[cfg(not(x86_kernels))]
        {
            let tile = |dst, src| {
                // SAFETY: `run_with` hands over tiles of the cube (its contract).
                unsafe { portable(dst, src) };
            };
            // SAFETY: `T` is a plain 4-byte type (`runs`, checked by `of`), moved as `u32`
            // bits; the caller's contract is `run_with`'s, and the portable tile copies
            // exactly the tile it is handed.
            unsafe { self.run_with(d, s, tile) };
        }
    }

    /// [`run`](Self::run) with the tile `micro`: for each band of eight rows, every whole
    /// tile of eight columns through `micro`, then the band's last columns element by
    /// element; then the last rows, element by element. Column `col` at row `j` is element
    /// `table[col] + j` of the scattered operand and `col + j·row_step` of the merged one.
    ///
    /// # Safety
    ///
    /// [`run`](Self::run)'s contract, and `micro(dst, src)` copies `src[i] + k` to
    /// `dst[k] + i` (`i, k < 8`), sound whenever those are elements of the cube.
    #[inline(always)]
    pub(super) unsafe fn run_with(
        &self,
        d: *mut u32,
        s: *const u32,
        mut micro: impl FnMut([*mut u32; W], [*const u32; W]),
    ) {
        let (cols, eb, row_step) = (self.columns, self.rows, self.row_step);
        let table = self.table.get(..cols).unwrap_or(&[]);
        let fb = eb.wrapping_sub(eb % W);
        let tiles = table.chunks_exact(W);
        let last = tiles.remainder();
        let fc = cols.wrapping_sub(last.len());
        // Element `j` of column `col`, whose scattered offset is `o`.
        let element = |col: usize, o: isize, j: usize| {
            let scattered = o.wrapping_add(step(j, 1));
            let merged = step(col, 1).wrapping_add(step(j, row_step));
            let (od, os) = if self.dst_scattered {
                (scattered, merged)
            } else {
                (merged, scattered)
            };
            // SAFETY: column `col < cols` at row `j < eb` is an element of the cube, in the
            // source (the caller's contract; every call below stays inside the cube).
            let x = unsafe { s.wrapping_offset(os).read() };
            // SAFETY: likewise of the destination, not a source element (contract).
            unsafe { d.wrapping_offset(od).write(x) };
        };
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
        for (col, &o) in table.iter().enumerate() {
            for j in fb..eb {
                element(col, o, j);
            }
        }
    }
}

/// The portable twin of the tile: `dst[k] + i = src[i] + k` (`i, k < 8`), element by element.
///
/// # Safety
///
/// Every `src[i] + k` and `dst[k] + i` (`i, k < 8`) is an element of its allocation, no
/// destination element a source one.
#[cfg_attr(
    all(x86_kernels, not(test)),
    expect(
        dead_code,
        reason = "the portable twin runs only where no SIMD unit does, and under Miri"
    )
)]
#[inline(always)]
unsafe fn portable(dst: [*mut u32; W], src: [*const u32; W]) {
    for (i, &sp) in src.iter().enumerate() {
        for (k, &dp) in dst.iter().enumerate() {
            // SAFETY: element `k` of source row `i` (contract).
            let x = unsafe { sp.wrapping_add(k).read() };
            // SAFETY: element `i` of destination row `k`, not a source element (contract).
            unsafe { dp.wrapping_add(i).write(x) };
        }
    }
}

#[cfg(test)]
#[expect(
    clippy::cast_possible_wrap,
    clippy::cast_possible_truncation,
    clippy::cast_sign_loss,
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

    /// Copies the cube through `g` (with `portable` tiles, or the target's) and checks every
    /// element against the index formula, and every other destination element untouched.
    fn check(ec: usize, ea: usize, eb: usize, scattered: usize, flip: bool, twin: bool) {
        let ([c, a, b], [dl, sl], [od, os]) = cube(ec, ea, eb, scattered, flip);
        // Columns `c × a` with rows `b` innermost, or with the loops handed over columns
        // innermost (`c × b × a`: the same cube).
        // (Where `runs` does not hold for `u32`, a CPU without AVX2, the shape alone, and the
        // portable tile.)
        let g = if runs::<u32>() {
            let g = Grouped::of::<u32>(c, a, b);
            assert_eq!(
                g,
                Grouped::of::<u32>(c, b, a),
                "{ec}x{ea}x{eb}: the two loop orders"
            );
            g
        } else {
            Grouped::shape(c, b, a)
        };
        let g = g.unwrap_or_else(|| panic!("{ec}x{ea}x{eb} not grouped"));
        assert_eq!(g.dst_scattered, scattered == 0);
        let src: Vec<u32> = (0..sl as u32).collect();
        let mut dst = std::vec![u32::MAX; dl];
        let (d, s) = (
            dst.as_mut_ptr().wrapping_offset(od),
            src.as_ptr().wrapping_offset(os),
        );
        let tile = |dst, src| {
            // SAFETY: `run_with` hands over tiles of the cube (its contract).
            unsafe { portable(dst, src) };
        };
        if twin || !runs::<u32>() {
            // SAFETY: every offset of the cube lies in its buffer (built so), distinct buffers.
            unsafe { g.run_with(d, s, tile) };
        } else {
            // SAFETY: as above.
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
                        "{ec}x{ea}x{eb} ({scattered}, {flip}) at ({k},{i},{j})"
                    );
                    written += 1;
                }
            }
        }
        let untouched = dst.iter().filter(|&&v| v == u32::MAX).count();
        assert_eq!(
            untouched + written,
            dl,
            "{ec}x{ea}x{eb}: an element outside the cube written"
        );
    }

    /// Every orientation, groups of 1-20 (not multiples of 8), 2-17 groups, 8-19 rows; both
    /// tiles (the target's and the portable twin), flipped groups on the scattered side.
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
            &[8, 9, 15, 16, 19]
        };
        let mut ran = 0;
        for &ea in eas {
            for &ec in ecs {
                if ec * ea < W {
                    continue;
                }
                for &eb in ebs {
                    for scattered in [0, 1] {
                        for flip in [false, true] {
                            for twin in [false, true] {
                                check(ec, ea, eb, scattered, flip, twin);
                                ran += 1;
                            }
                        }
                    }
                }
            }
        }
        assert!(ran >= 16, "{ran}");
    }

    /// What the shape rule refuses: other element sizes, groups a multiple of the tile side,
    /// too few rows, columns, groups or too many columns, a merged side that is not merged,
    /// rows consecutive on both sides.
    #[test]
    fn grouped_transpose_refuses_other_shapes() {
        let ([c, a, b], ..) = cube(16, 9, 16, 0, false);
        if runs::<u32>() {
            assert!(Grouped::of::<u32>(c, a, b).is_some());
            assert!(Grouped::of::<f32>(c, a, b).is_some());
        }
        assert!(Grouped::of::<u16>(c, a, b).is_none());
        assert!(Grouped::of::<f64>(c, a, b).is_none());
        assert!(Grouped::shape(c, a, b).is_some() && Grouped::shape(c, b, a).is_some());
        let refused = |ec: usize, ea: usize, eb: usize| {
            let ([c, a, b], ..) = cube(ec, ea, eb, 1, false);
            Grouped::shape(c, a, b).is_none() && Grouped::shape(c, b, a).is_none()
        };
        assert!(refused(16, 8, 16), "a multiple of 8 a group");
        assert!(refused(16, 9, 7), "fewer rows than a tile");
        assert!(refused(1, 9, 16), "one group");
        assert!(refused(2, 3, 16), "fewer columns than a tile");
        assert!(refused(64, 9, 16), "more columns than the table");
        let mut unmerged = [c, a, b];
        unmerged[0].strides[1] += 1;
        assert!(
            Grouped::shape(unmerged[0], unmerged[1], unmerged[2]).is_none(),
            "a gap between groups"
        );
        let mut rows = [c, a, b];
        rows[2].strides = [1, 1];
        assert!(
            Grouped::shape(rows[0], rows[1], rows[2]).is_none(),
            "rows, not a transpose"
        );
    }
}
