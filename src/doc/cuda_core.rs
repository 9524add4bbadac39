//! Name by name: NVIDIA cuda.core's `StridedLayout` and this crate, and where they differ on
//! purpose.
//!
//! cuda.core (`cuda.core.experimental.utils.StridedLayout`, Python) is the model this crate
//! follows wherever it defines a behaviour: Python slice clamping, stride-order ties, flatten
//! mask bits, repack rules and the order of their checks, broadcast rules, squeeze of an
//! empty layout. Names are kept; Python properties become methods; exceptions become
//! [`LayoutError`](crate::LayoutError) values.
//!
//! # Construction
//!
//! | cuda.core | this crate |
//! | --- | --- |
//! | `StridedLayout(shape, strides, itemsize)` | [`Layout::new(shape, strides, itemsize)`](crate::Layout::new) |
//! | `StridedLayout(shape, strides, itemsize, divide_strides=True)` | [`Layout::from_byte_strides`](crate::Layout::from_byte_strides) |
//! | `StridedLayout(shape, None, itemsize)` (implicit C strides, `strides` is `None`) | [`Layout::dense(shape, itemsize, Order::C)`](crate::Layout::dense): strides are always explicit |
//! | `StridedLayout.dense(shape, itemsize, stride_order)` with `"C"`, `"F"` or a tuple | [`Layout::dense`](crate::Layout::dense) with [`Order::C`](crate::Order::C), [`Order::F`](crate::Order::F), [`Order::Perm`](crate::Order::Perm) |
//! | `StridedLayout.dense_like(other, stride_order="K")` | [`Layout::dense_like(&other, order)`](crate::Layout::dense_like) with [`Order::Keep`](crate::Order::Keep) for `"K"` |
//! | `layout.to_dense(stride_order="K")` | `layout.to_dense(order)` |
//! | setting `slice_offset` by slicing | [`with_offset`](crate::Layout::with_offset) (sets it) or `sliced` |
//!
//! # Properties and queries
//!
//! | cuda.core | this crate |
//! | --- | --- |
//! | `shape`, `strides`, `strides_in_bytes`, `itemsize`, `ndim`, `volume` | [`shape()`](crate::Layout::shape), [`strides()`](crate::Layout::strides), [`strides_in_bytes()`](crate::Layout::strides_in_bytes), [`itemsize()`](crate::Layout::itemsize), [`ndim()`](crate::Layout::ndim), [`volume()`](crate::Layout::volume) |
//! | `slice_offset`, `slice_offset_in_bytes` | [`offset()`](crate::Layout::offset), [`offset_in_bytes()`](crate::Layout::offset_in_bytes) |
//! | `is_contiguous_c`, `is_contiguous_f`, `is_contiguous_any`, `is_dense` | `is_contiguous_c()`, `is_contiguous_f()`, `is_contiguous_any()`, `is_dense()` |
//! | `is_unique` | `is_unique()`, exact (see below) |
//! | `offset_bounds`, `min_offset`, `max_offset` | `offset_bounds() -> Option<(isize, isize)>` |
//! | `required_size_in_bytes()` | `required_size_in_bytes() -> Result<usize, LayoutError>` |
//! | `stride_order` | [`stride_order()`](crate::Layout::stride_order), same tie rules |
//! | `flattened_axis_mask()` (an `int`) | `flattened_axis_mask() -> AxisMask`; same bit meaning: bit `i` set means axis `i` merges into axis `i - 1`; combine with `&` |
//! | `max_compatible_itemsize(max_itemsize=16, data_ptr=0, axis=-1)` | `max_compatible_itemsize(max_itemsize, data_ptr, axis)`, all arguments explicit |
//!
//! # Transforms
//!
//! | cuda.core | this crate |
//! | --- | --- |
//! | `permuted(axis_order)` | `permuted(axes)`; plus `transposed(a, b)` |
//! | `sliced(slices)`, `layout[...]` | `sliced([Slice; N])` with [`Slice::new(start, stop, step)`](crate::Slice::new) (same clamping), `narrowed(axis, start, len)` (no clamping), `selected::<M>(axis, index)` for an integer index |
//! | (negative-step slice of one axis) | `flipped(axis)` |
//! | `broadcast_to(shape)` | `broadcast_to::<M>(shape)` |
//! | `repacked(itemsize, data_ptr=0, axis=-1, keep_dim=True)` | `repacked(itemsize, data_ptr, axis)` (keeps the axis) |
//! | `reshaped(shape)` with one `-1` | `reshaped::<M>(shape)` with one `-1` |
//! | `flattened()`, `flattened(start_axis, end_axis)`, `flattened(mask=...)` | `flattened()`, `flattened_range(start, end)` (**end exclusive**), `flattened_with_mask(mask)`, all returning `DynLayout<N>` |
//! | `squeezed()` | `squeezed() -> DynLayout<N>` |
//! | `unsqueezed(axis)` (one axis or a tuple) | `unsqueezed::<M>(axis)` (one axis; chain for more) |
//!
//! # Deliberate differences
//!
//! 1. **`Option` instead of `(0, -1)`, `Result` instead of exceptions, strides always
//!    explicit.** An empty layout's `offset_bounds()` is `None`. Every failure is a
//!    [`LayoutError`](crate::LayoutError) value with the rule that failed; nothing panics.
//!    There is no "strides are `None`" state: a C-contiguous layout stores its C strides.
//! 2. **`is_unique()` is exact**: `true` if and only if no two valid indices share an offset.
//!    cuda.core's check is sufficient only, and reports `false` for some unique layouts built
//!    by hand (its docs say so for `stride_tricks` layouts). The worst-case cost is bounded
//!    and documented on the method.
//! 3. **`reshaped` succeeds on every layout NumPy could reshape without a copy.** An extent-1
//!    axis with any stride never blocks it, and when it fails,
//!    [`LayoutError::NeedsCopy`](crate::LayoutError::NeedsCopy) carries an
//!    [`AxisMask`](crate::AxisMask) of the axes that blocked.
//! 4. **`repacked` requires the two itemsizes to divide one another** and reports the rule
//!    that failed, where cuda.core silently keeps a factor of 1. It always keeps the axis
//!    (cuda.core's `keep_dim=True`); drop it with `squeezed`. And a 0-d layout flattens to
//!    itself.
//! 5. **Fixed rank in the type.** Rank changes whose result rank follows from the operation
//!    (`unsqueezed`, `selected`, `reshaped`, `broadcast_to`) name it as a const parameter `M`,
//!    checked at compile time; the ones whose rank depends on the data (`squeezed`,
//!    `flattened*`) return [`DynLayout<MAX>`](crate::DynLayout), stored inline.
//! 6. **Ranges are half-open**: `flattened_range(start, end)` merges `start..end`; cuda.core's
//!    `flattened(start_axis, end_axis)` is inclusive. `narrowed(axis, start, len)` rejects a
//!    range past the extent instead of clamping (`sliced` clamps, like Python).
//! 7. **Offsets and strides fit `isize` in bytes, checked once.** cuda.core checks overflow as
//!    it computes; here the invariants of [`Layout`](crate::Layout) are checked when a value is
//!    built, so later queries cannot overflow.
//! 8. **`with_offset` sets the offset.** cuda.core changes `slice_offset` only through
//!    slicing.
