//! `DynLayout<MAX>` as a kernel operand: [`Mapping<MAX>`](crate::plan::Mapping).

use crate::iter::right_aligned;
use crate::plan::Blocks;
use crate::{DynLayout, Lowered, Mapping};

/// A bounded-rank layout of rank `r <= MAX` lowers to rank `MAX` with `MAX - r` leading
/// axes of extent 1 and stride 0 (which add nothing to any offset and change no order), so
/// it is a kernel operand beside any `Mapping<MAX>`, and its iterators are those of a
/// rank-`MAX` layout.
///
/// ```text
/// DynLayout::<3> (2,3):(1,2)    lowered() -> (1,2,3):(0,1,2)
/// ```
///
/// # Examples
///
/// ```
/// use strided_layout::{DynLayout, Layout, LayoutError, Order};
/// use strided_layout::plan::Mapping;
/// // A transposed 2 x 3 view, as a rank-bounded layout, copied into a C-order buffer.
/// let src_layout = DynLayout::<3>::new(&[2, 3], &[1, 2], 4)?;
/// assert_eq!(src_layout.lowered().shape, [1, 2, 3]);
/// let dst_layout = Layout::dense([1, 2, 3], 4, Order::C)?;
/// let src = [0u32, 1, 2, 3, 4, 5];
/// let mut dst = [0u32; 6];
/// strided_layout::copy(&src, &src_layout, &mut dst, &dst_layout)?;
/// assert_eq!(dst, [0, 2, 4, 1, 3, 5]);
/// # Ok::<(), LayoutError>(())
/// ```
impl<const MAX: usize> Mapping<MAX> for DynLayout<MAX> {
    fn lowered(&self) -> Lowered<MAX> {
        let (shape, strides) = right_aligned::<MAX>(self.shape(), self.strides());
        Lowered {
            shape,
            strides,
            offset: self.offset(),
            itemsize: self.itemsize(),
            blocks: Blocks::NONE,
        }
    }
}
