//! Questions an [`InterleavedLayout`] answers through its two strided pieces (the full
//! blocks and the partial last block, rank `N + 1`, from the interleave core): uniqueness,
//! overlap, and whether an integer type holds its index math.
//!
//! ```text
//! (10):(4) il(0,4)     full (2,4):(4,1)   0 1 2 3 | 4 5 6 7
//!                      tail (1,2):(4,1)   8 9
//! unique   <=> full unique, tail unique, full and tail disjoint
//! overlaps <=> some piece of one shares a byte with some piece of the other
//! ```

use num_traits::PrimInt;

use crate::algo::bytes::fits_in_bytes_of;
use crate::algo::interleave::Piece;
use crate::algo::overlap::overlaps;
use crate::algo::parts::Parts;
use crate::algo::unique::is_unique;
use crate::query::index_type::parts_fit_in;
use crate::{InterleavedLayout, Verdict};

/// Room for the two pieces of a rank-`N` interleaved layout: rank `N + 1` each, carved out
/// of `2 * N` slots (no `[_; N + 1]` on stable; an `InterleavedLayout<0>` cannot exist).
struct PieceBuf<const N: usize> {
    full_shape: [[usize; N]; 2],
    full_strides: [[isize; N]; 2],
    tail_shape: [[usize; N]; 2],
    tail_strides: [[isize; N]; 2],
}

/// Scratch for the axis orders the searches sort, rank `N + 1` each.
struct OrderBuf<const N: usize> {
    a: [[usize; N]; 2],
    b: [[usize; N]; 2],
}

impl<const N: usize> OrderBuf<N> {
    const NEW: Self = Self {
        a: [[0; N]; 2],
        b: [[0; N]; 2],
    };

    /// The two order slices, `N + 1` long; `None` only at `N == 0`.
    const fn slices(&mut self) -> Option<(&mut [usize], &mut [usize])> {
        match (
            self.a
                .as_flattened_mut()
                .split_at_mut_checked(N.saturating_add(1)),
            self.b
                .as_flattened_mut()
                .split_at_mut_checked(N.saturating_add(1)),
        ) {
            (Some((a, _)), Some((b, _))) => Some((a, b)),
            _ => None,
        }
    }
}

/// `Yes` when every part is `Yes`, `No` when some part is `No`, else `Unknown`.
const fn all(parts: &[Verdict]) -> Verdict {
    let mut out = Verdict::Yes;
    let mut rest = parts;
    while let [v, tail @ ..] = rest {
        match v {
            Verdict::No => return Verdict::No,
            Verdict::Unknown => out = Verdict::Unknown,
            Verdict::Yes => {}
        }
        rest = tail;
    }
    out
}

/// The opposite answer (`Unknown` stays).
const fn not(v: Verdict) -> Verdict {
    match v {
        Verdict::Yes => Verdict::No,
        Verdict::No => Verdict::Yes,
        Verdict::Unknown => Verdict::Unknown,
    }
}

impl<const N: usize> InterleavedLayout<N> {
    /// The full-block and tail pieces, written into `buf`; `None` only at `N == 0`.
    const fn pieces<'a>(&self, buf: &'a mut PieceBuf<N>) -> Option<(Parts<'a>, Parts<'a>)> {
        let m = N.saturating_add(1);
        let (Some((fs, _)), Some((ft, _)), Some((ts, _)), Some((tt, _))) = (
            buf.full_shape.as_flattened_mut().split_at_mut_checked(m),
            buf.full_strides.as_flattened_mut().split_at_mut_checked(m),
            buf.tail_shape.as_flattened_mut().split_at_mut_checked(m),
            buf.tail_strides.as_flattened_mut().split_at_mut_checked(m),
        ) else {
            return None;
        };
        // Neither piece of a valid interleaved layout can fail (the core's contract).
        let (Ok(full_offset), Ok(tail_offset)) = (
            self.piece(Piece::Full, fs, ft),
            self.piece(Piece::Tail, ts, tt),
        ) else {
            return None;
        };
        let (fs, ft, ts, tt): (&[usize], &[isize], &[usize], &[isize]) = (fs, ft, ts, tt);
        match (
            Parts::new(fs, ft, full_offset, self.itemsize),
            Parts::new(ts, tt, tail_offset, self.itemsize),
        ) {
            (Ok(full), Ok(tail)) => Some((full, tail)),
            _ => None,
        }
    }

    /// Whether no two indices share an offset (exact).
    ///
    /// The layout is the union of its full blocks (a strided layout of rank `N + 1`) and,
    /// when `f` does not divide the extent, the partial last block (another one); it is
    /// unique iff both are and they do not overlap, each decided by the exact tests behind
    /// [`Layout::is_unique`](crate::Layout::is_unique) and
    /// [`Layout::overlaps`](crate::Layout::overlaps), with their cost bounds.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let il = InterleaveLayout::new(0, 4)?;
    /// assert!(InterleavedLayout::dense([10, 3], 1, il)?.is_unique());
    /// // Block stride 2 < factor 4: blocks overlap.
    /// assert!(!InterleavedLayout::new([8], [2], 1, il)?.is_unique());
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `true` iff `offset_of` is injective over every index
    #[must_use]
    pub const fn is_unique(&self) -> bool {
        // With an unbounded budget every search answers.
        matches!(self.is_unique_within(u64::MAX), Verdict::Yes)
    }

    /// Whether no two distinct indices map to the same offset, deciding with at most
    /// `budget` search steps for each of the (at most three) questions it asks;
    /// [`Verdict::Unknown`] when that is not enough.
    ///
    /// The questions are [`Layout::is_unique_within`](crate::Layout::is_unique_within) of
    /// the full-block piece and of the tail piece, and
    /// [`Layout::overlaps_within`](crate::Layout::overlaps_within) of the two, so the same
    /// fast tests and budget bounds apply, over rank `N + 1`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError, Verdict};
    /// let il = InterleaveLayout::new(0, 4)?;
    /// assert_eq!(InterleavedLayout::dense([10, 3], 1, il)?.is_unique_within(100), Verdict::Yes);
    /// assert_eq!(InterleavedLayout::new([8], [2], 1, il)?.is_unique_within(100), Verdict::No);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `Yes` iff `is_unique()`, `No` iff not, whenever the answer is not `Unknown`
    #[must_use]
    pub const fn is_unique_within(&self, budget: u64) -> Verdict {
        if self.volume() == 0 {
            return Verdict::Yes;
        }
        let mut buf = PieceBuf {
            full_shape: [[0; N]; 2],
            full_strides: [[0; N]; 2],
            tail_shape: [[0; N]; 2],
            tail_strides: [[0; N]; 2],
        };
        let mut orders = OrderBuf::<N>::NEW;
        let (Some((full, tail)), Some((oa, ob))) = (self.pieces(&mut buf), orders.slices()) else {
            return Verdict::Unknown;
        };
        all(&[
            Verdict::from_option(is_unique(full, oa, budget)),
            Verdict::from_option(is_unique(tail, ob, budget)),
            not(Verdict::from_option(overlaps(full, tail, oa, ob, budget))),
        ])
    }

    /// Whether some element of `self` and some element of `other`, over the same buffer,
    /// share a byte (exact, as [`Layout::overlaps`](crate::Layout::overlaps)).
    ///
    /// A plain [`Layout`](crate::Layout) takes part as an interleaved layout of factor 1
    /// (`InterleavedLayout::new(shape, strides, itemsize, InterleaveLayout::new(0, 1)?)`).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let il = InterleaveLayout::new(0, 2)?;
    /// // Offsets 0 1 4 5 and 2 3 6 7: interleaved, disjoint.
    /// let a = InterleavedLayout::new([4], [4], 4, il)?;
    /// assert!(!a.overlaps(&a.with_offset(2)?));
    /// assert!(a.overlaps(&a.with_offset(1)?));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `true` iff the byte sets `{o * itemsize + b : o an element offset, b < itemsize}` of
    ///   the two layouts intersect
    #[must_use]
    pub const fn overlaps<const M: usize>(&self, other: &InterleavedLayout<M>) -> bool {
        // With an unbounded budget every search answers.
        matches!(self.overlaps_within(other, u64::MAX), Verdict::Yes)
    }

    /// Whether some element of `self` shares a byte with some element of `other`, deciding
    /// with at most `budget` search steps for each of the (at most four) pairs of pieces;
    /// [`Verdict::Unknown`] when that is not enough.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError, Verdict};
    /// let a = InterleavedLayout::new([4], [4], 4, InterleaveLayout::new(0, 2)?)?;
    /// assert_eq!(a.overlaps_within(&a.with_offset(2)?, 100), Verdict::No);
    /// assert_eq!(a.overlaps_within(&a.with_offset(5)?, 100), Verdict::Yes);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `Yes` iff `overlaps(other)`, `No` iff not, whenever the answer is not `Unknown`
    #[must_use]
    pub const fn overlaps_within<const M: usize>(
        &self,
        other: &InterleavedLayout<M>,
        budget: u64,
    ) -> Verdict {
        if self.volume() == 0 || other.volume() == 0 {
            return Verdict::No;
        }
        let mut buf_a = PieceBuf {
            full_shape: [[0; N]; 2],
            full_strides: [[0; N]; 2],
            tail_shape: [[0; N]; 2],
            tail_strides: [[0; N]; 2],
        };
        let mut buf_b = PieceBuf {
            full_shape: [[0; M]; 2],
            full_strides: [[0; M]; 2],
            tail_shape: [[0; M]; 2],
            tail_strides: [[0; M]; 2],
        };
        let (mut orders_a, mut orders_b) = (OrderBuf::<N>::NEW, OrderBuf::<M>::NEW);
        let (Some((a1, a2)), Some((b1, b2)), Some((oa, _)), Some((ob, _))) = (
            self.pieces(&mut buf_a),
            other.pieces(&mut buf_b),
            orders_a.slices(),
            orders_b.slices(),
        ) else {
            return Verdict::Unknown;
        };
        // Disjoint iff every pair of pieces is.
        not(all(&[
            not(Verdict::from_option(overlaps(a1, b1, oa, ob, budget))),
            not(Verdict::from_option(overlaps(a1, b2, oa, ob, budget))),
            not(Verdict::from_option(overlaps(a2, b1, oa, ob, budget))),
            not(Verdict::from_option(overlaps(a2, b2, oa, ob, budget))),
        ]))
    }

    /// Whether every extent, every stride, the offset and every element offset fit the
    /// integer type `I` (as [`Layout::fits_in`](crate::Layout::fits_in), through
    /// [`offset_bounds`](InterleavedLayout::offset_bounds)), so that a kernel can compute
    /// offsets in `I`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let l = InterleavedLayout::dense([8, 1024, 1024], 4, InterleaveLayout::new(0, 4)?)?;
    /// assert!(l.fits_in::<i32>() && !l.fits_in::<i16>());
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `true` iff `I` holds every extent, stride, the offset, and both offset bounds
    #[must_use]
    pub fn fits_in<I: PrimInt>(&self) -> bool {
        parts_fit_in::<I>(
            &self.shape,
            &self.strides,
            self.offset,
            self.offset_bounds(),
        )
    }

    /// Whether byte-offset index math in `I` suffices: every extent, every stride in bytes,
    /// the offset in bytes and both ends of the byte span fit `I` (as
    /// [`Layout::fits_in_bytes`](crate::Layout::fits_in_bytes)).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    /// let l = InterleavedLayout::dense([8, 1024, 1024], 4, InterleaveLayout::new(0, 4)?)?;
    /// assert!(l.fits_in_bytes::<i32>() && !l.fits_in_bytes::<i16>());
    /// let big = InterleavedLayout::dense([4, 1024, 1024, 256], 4, InterleaveLayout::new(0, 4)?)?;
    /// assert!(big.fits_in::<i32>() && !big.fits_in_bytes::<i32>());
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `true` iff `I` holds every extent, every `stride * itemsize`, `offset * itemsize`
    ///   and both ends of the byte span `(lo * itemsize, hi * itemsize + itemsize - 1)`
    #[must_use]
    pub fn fits_in_bytes<I: PrimInt>(&self) -> bool {
        fits_in_bytes_of::<I>(self.parts(), self.offset_bounds())
    }
}
