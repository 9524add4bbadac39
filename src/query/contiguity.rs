//! [`Layout::is_contiguous_c`], [`is_contiguous_f`](Layout::is_contiguous_f),
//! [`is_contiguous_any`](Layout::is_contiguous_any), [`is_dense`](Layout::is_dense) and
//! [`flattened_axis_mask`](Layout::flattened_axis_mask), with cuda.core's semantics.
//!
//! Edge cases, the same for every query here:
//! - a layout with an extent-0 axis is contiguous in every order whatever its strides, and its
//!   flatten mask has every bit but bit 0;
//! - an extent-1 axis never matters: its stride is not read;
//! - a zero or negative stride on an axis of extent > 1 is never contiguous;
//! - contiguity ignores the offset; [`is_dense`](Layout::is_dense) requires offset 0.

use crate::algo::contiguity::{flattened_axis_mask, is_contiguous_any, is_contiguous_in};
use crate::{AxisMask, Layout};

impl<const N: usize> Layout<N> {
    /// Whether the offsets in C index order (last axis fastest) are `offset, offset + 1, ..`.
    ///
    /// Equivalently: skipping extent-1 axes, the last stride is 1 and each stride to its left
    /// is the stride to its right times that axis's extent. `true` for rank 0 and for every
    /// layout with no element; the offset is not read (as in cuda.core).
    ///
    /// ```text
    /// (2,1,3):(3,99,1)   C-contiguous: offsets 0 1 2 / 3 4 5 (the extent-1 stride is ignored)
    /// (2,3):(0,1)        not: offsets 0 1 2 / 0 1 2
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// assert!(Layout::dense([2, 5, 3], 1, Order::C)?.is_contiguous_c());
    /// assert!(Layout::new([2, 1, 3], [3, 99, 1], 1)?.is_contiguous_c());
    /// assert!(!Layout::new([2, 3], [0, 1], 1)?.is_contiguous_c());
    /// assert!(Layout::dense([2, 5, 3], 1, Order::C)?.with_offset(7)?.is_contiguous_c());
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `true` iff the offsets in C index order are `offset, offset + 1, ..`
    #[must_use]
    pub const fn is_contiguous_c(&self) -> bool {
        is_contiguous_in(self.parts(), false)
    }

    /// Whether the offsets in F index order (first axis fastest) are `offset, offset + 1, ..`.
    ///
    /// The mirror image of [`is_contiguous_c`](Layout::is_contiguous_c), with the same edge
    /// cases.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// assert!(Layout::dense([2, 5, 3], 1, Order::F)?.is_contiguous_f());
    /// assert!(!Layout::dense([2, 5, 3], 1, Order::C)?.is_contiguous_f());
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `true` iff the offsets in F index order are `offset, offset + 1, ..`
    #[must_use]
    pub const fn is_contiguous_f(&self) -> bool {
        is_contiguous_in(self.parts(), true)
    }

    /// Whether some permutation of the axes is C-contiguous (the elements fill
    /// `offset..offset + volume` once each, with non-negative strides).
    ///
    /// Edge cases as [`is_contiguous_c`](Layout::is_contiguous_c). Like cuda.core, negative
    /// strides make it `false` even when the elements fill a range (flip the axis first).
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([5, 3, 7], 1, Order::Perm([2, 0, 1]))?;
    /// assert!(l.is_contiguous_any() && !l.is_contiguous_c() && !l.is_contiguous_f());
    /// assert!(!Layout::new([2], [-1], 1)?.is_contiguous_any());
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `true` iff some axis permutation of the layout is C-contiguous
    #[must_use]
    pub const fn is_contiguous_any(&self) -> bool {
        is_contiguous_any(self.parts())
    }

    /// Whether the elements fill `0..volume` once each: contiguous in some axis order
    /// ([`is_contiguous_any`](Layout::is_contiguous_any)) with offset 0.
    ///
    /// cuda.core's `is_dense` (its layouts have no offset; ours must be 0). A layout with no
    /// element is dense iff its offset is 0.
    ///
    /// The rule is about strides, not only about which offsets are covered: every axis of
    /// extent > 1 needs a positive stride. So a reversed dense view (a
    /// [`flipped`](Layout::flipped) axis) is **not** dense although it covers `0..volume`
    /// once each, because its stride is negative and its offset is not 0. To ask "covers
    /// exactly `0..volume`, once each" whatever the signs, test
    /// `is_unique() && offset_bounds() == Some((0, volume - 1))`.
    ///
    /// ```text
    /// (2,3):(3,1) +0    0 1 2 / 3 4 5    dense
    /// (2,3):(-3,1) +3   3 4 5 / 0 1 2    not dense (negative stride, offset 3)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([5, 3, 7], 1, Order::F)?;
    /// assert!(l.is_dense());
    /// assert!(!l.with_offset(1)?.is_dense());
    /// let reversed = l.flipped(0)?; // covers 0..105 once each, but stride -1
    /// assert!(!reversed.is_dense());
    /// assert!(reversed.is_unique() && reversed.offset_bounds() == Some((0, 104)));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `true` iff `is_contiguous_any() && offset() == 0`
    #[must_use]
    pub const fn is_dense(&self) -> bool {
        self.offset == 0 && self.is_contiguous_any()
    }

    /// Which axes merge into their left neighbour when flattening in C order: bit `i` set
    /// means axis `i` merges into axis `i - 1` (cuda.core's order).
    ///
    /// Greedy from axis 0, a group of adjacent axes grows while its offsets in C index order
    /// stay an arithmetic progression: axis `i` merges when its extent is 1, when the group has
    /// only extent-1 axes so far, or when `strides[i] * shape[i]` equals the stride of the
    /// group's last axis of extent > 1. Bit 0 is never set; a layout with no element has every
    /// other bit set; zero strides merge with zero strides (`(2,3):(0,0)` flattens to
    /// `(6):(0)`). Axes from 64 on cannot be named by an [`AxisMask`] and never appear.
    ///
    /// **Extent-1 axes:** the bit of an extent-1 axis is always set, whatever its stride, and
    /// the axis after it is compared with the nearest axis of extent > 1 to its left. So the
    /// bits of extent-1 axes depend on the shape alone, and the masks of several layouts of
    /// one shape combine with `&`: [`flattened_with_mask`](Layout::flattened_with_mask) with
    /// the combined mask merges exactly its bits in each layout, giving them all the same
    /// shape. (cuda.core compares each axis with its left neighbour whatever the extents, so
    /// it clears the bit of an extent-1 axis whose stride breaks that test: a deliberate
    /// difference, [`doc::cuda_core`](crate::doc::cuda_core) entry 10.)
    ///
    /// ```text
    /// (4,5,3):(15,3,1)  -> 0b110   (all three merge: (60):(1))
    /// (4,5,3):(1,12,4)  -> 0b100   (axis 2 merges into axis 1: (4,15):(1,4))
    /// (2,1,3):(3,7,1)   -> 0b110   (extent 1 always merges: (6):(1); cuda.core: 0)
    /// ```
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let a = Layout::dense([4, 5, 3], 4, Order::C)?;
    /// let b = Layout::new([4, 5, 3], [1, 12, 4], 4)?;
    /// assert_eq!(a.flattened_axis_mask().bits(), 0b110);
    /// assert_eq!(b.flattened_axis_mask().bits(), 0b100);
    /// assert_eq!((a.flattened_axis_mask() & b.flattened_axis_mask()).bits(), 0b100);
    /// // An extent-1 axis always has its bit, whatever its stride:
    /// let c = Layout::new([4, 1, 3], [3, 9, 1], 4)?;
    /// let d = Layout::new([4, 1, 3], [1, 0, 4], 4)?;
    /// assert_eq!((c.flattened_axis_mask().bits(), d.flattened_axis_mask().bits()), (0b110, 0b010));
    /// let m = c.flattened_axis_mask() & d.flattened_axis_mask();
    /// assert_eq!(c.flattened_with_mask(m)?.shape(), &[4, 3]);
    /// assert_eq!(d.flattened_with_mask(m)?.shape(), &[4, 3]);
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - bit 0 is clear; bit `i` is set iff the C-order offsets of the current group extended by
    ///   axis `i` form an arithmetic progression (the group restarting at each clear bit)
    #[must_use]
    pub const fn flattened_axis_mask(&self) -> AxisMask {
        AxisMask::from_bits(flattened_axis_mask(self.parts()))
    }
}
