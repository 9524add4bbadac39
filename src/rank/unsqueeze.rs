//! [`Layout::unsqueezed`] and [`Layout::unsqueezed_axes`]: insert extent-1 axes.

use crate::algo::checked::{tame_unit_strides, tri};
use crate::algo::unsqueeze::unsqueeze;
use crate::rank::{AddsAxes, OneMore, Rank};
use crate::{Layout, LayoutError};

impl<const N: usize> Layout<N> {
    /// Returns this layout with an extent-1 axis inserted at position `axis` of the result
    /// (`M == N + 1`, checked at compile time); no element moves.
    ///
    /// The new axis gets cuda.core's stride (the stride times the extent of the axis to its
    /// right, or the innermost stride when appended last), so contiguity is kept.
    ///
    /// ```text
    /// (2,3):(3,1)           unsqueezed::<3>(1) -> (2,1,3):(3,3,1)
    ///  0 1 2                 same offsets at [i, 0, j]
    ///  3 4 5
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::AxisOutOfRange`] if `axis > N`.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([2, 3], 4, Order::C)?;
    /// let u: Layout<3> = l.unsqueezed(1)?;
    /// assert_eq!((u.shape(), u.strides()), ([2, 1, 3], [3, 3, 1]));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - `u.offset_of(index with 0 inserted at axis) == self.offset_of(index)` for every index
    /// - `u.volume() == self.volume()`
    pub const fn unsqueezed<const M: usize>(self, axis: usize) -> Result<Layout<M>, LayoutError>
    where
        Rank<N>: OneMore<N, M>,
    {
        self.unsqueezed_unchecked::<1, M>([axis])
    }

    /// Returns this layout with extent-1 axes inserted at the result positions `axes`
    /// (`M == N + K`, checked at compile time).
    ///
    /// ```text
    /// (2,3):(3,1)    unsqueezed_axes([0, 3]) -> (1,2,3,1):(6,3,1,1)
    /// ```
    ///
    /// # Errors
    ///
    /// - [`LayoutError::AxisOutOfRange`] if a position is not less than `M`;
    /// - [`LayoutError::DuplicateAxis`] if a position repeats.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::{Layout, LayoutError, Order};
    /// let l = Layout::dense([2, 3], 4, Order::C)?;
    /// let u = l.unsqueezed_axes::<2, 4>([0, 3])?;
    /// assert_eq!((u.shape(), u.strides()), ([1, 2, 3, 1], [6, 3, 1, 1]));
    /// # Ok::<(), LayoutError>(())
    /// ```
    ///
    /// # Postconditions
    ///
    /// - the offsets in C index order equal `self`'s
    pub const fn unsqueezed_axes<const K: usize, const M: usize>(
        self,
        axes: [usize; K],
    ) -> Result<Layout<M>, LayoutError>
    where
        Rank<N>: AddsAxes<N, K, M>,
    {
        self.unsqueezed_unchecked::<K, M>(axes)
    }

    /// [`unsqueezed_axes`](Layout::unsqueezed_axes) once the caller's bound has checked
    /// `M == N + K` (a wrong `M` is still an error, never a panic: `unsqueeze`
    /// checks the output length).
    const fn unsqueezed_unchecked<const K: usize, const M: usize>(
        self,
        axes: [usize; K],
    ) -> Result<Layout<M>, LayoutError> {
        let mut shape = [0usize; M];
        let mut strides = [0isize; M];
        tri!(unsqueeze(self.parts(), &axes, &mut shape, &mut strides));
        tame_unit_strides(&shape, &mut strides, self.itemsize);
        // The same elements with extent-1 axes added: only the invented strides need checking.
        Layout::from_same_offsets(shape, strides, self.offset, self.itemsize)
    }
}
