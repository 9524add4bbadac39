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
//! Each entry below is checked against cuda.core itself: `tests/cuda_core.rs` replays
//! about 15,000 answers that cuda.core 1.2.2 gave (`tests/data/cuda_core_cases.txt`,
//! written by `scripts/cuda_core_cases.py`; [regenerating](#regenerating-the-cases) says how), and
//! maps cuda.core's answer to ours with one named function per difference, named after
//! the entry (`diff_bounds_option` for 1, ...). Everything not listed here gives cuda.core's
//! answer exactly: contiguity, density, offset bounds, required size, stride order (sort
//! key `(-|stride|, -extent, axis)`, zero strides included), permute, broadcast, repack,
//! squeeze, unsqueeze, and slicing (clamping, and all-zero strides when a slice empties
//! the result).
//!
//! ## 1. `Option`, `Result`, explicit strides
//!
//! An empty layout's `offset_bounds()` is `None`, where cuda.core answers `(0, -1)`. Every
//! failure is a [`LayoutError`](crate::LayoutError) value naming the rule that failed;
//! nothing panics. There is no "strides are `None`" state: a C-contiguous layout stores its
//! C strides.
//!
//! ```
//! use strided_layout::{Layout, LayoutError};
//! assert_eq!(Layout::new([2, 0], [1, 1], 4)?.offset_bounds(), None);
//! assert_eq!(Layout::new([2, 3], [3, 1], 4)?.offset_bounds(), Some((0, 5)));
//! # Ok::<(), LayoutError>(())
//! ```
//!
//! ## 2. `is_unique()` is exact
//!
//! `true` if and only if no two valid indices share an offset. cuda.core's check is
//! sufficient only (it sorts by stride and needs each stride to exceed the span of the
//! smaller ones), and reports `false` for some unique layouts built by hand (its docs say so
//! for `stride_tricks` layouts). So ours is `true` wherever cuda.core's is, and sometimes
//! where it is not; never the reverse. The worst-case cost is bounded and documented on
//! [`is_unique`](crate::Layout::is_unique).
//!
//! ```
//! use strided_layout::{Layout, LayoutError};
//! // Offsets 0, 3, 2, 5, 4, 7: unique, though stride 3 is below the span 4 of stride 2.
//! let l = Layout::new([3, 2], [2, 3], 1)?;
//! assert!(l.is_unique()); // cuda.core: False
//! assert!(!Layout::new([2, 2], [1, 1], 1)?.is_unique()); // offset 1 twice
//! # Ok::<(), LayoutError>(())
//! ```
//!
//! ## 3. `reshaped` succeeds wherever NumPy reshapes without a copy
//!
//! An extent-1 axis with any stride never blocks it, and when it fails,
//! [`LayoutError::NeedsCopy`](crate::LayoutError::NeedsCopy) carries an
//! [`AxisMask`](crate::AxisMask) of the axes that blocked. (The replay also checks NumPy's
//! own `reshape(copy=False)` verdict on every reshape: ours succeeds exactly where NumPy's
//! does.) Where both succeed, the answers agree except on the stride of an extent-1 axis of
//! the result, which never multiplies a non-zero index: ours is 1 for a run of extent-1
//! axes and 0 from a rank-0 source, where cuda.core keeps a running product.
//!
//! ```
//! use strided_layout::{Layout, LayoutError};
//! let odd = Layout::new([2, 1, 3], [3, 99, 1], 4)?;
//! assert_eq!(odd.reshaped([6])?.strides(), [1]); // cuda.core: incompatible strides
//! # Ok::<(), LayoutError>(())
//! ```
//!
//! ## 4. `repacked` requires the itemsizes to divide one another
//!
//! Both must be powers of two, so the factor is exact; cuda.core accepts others and
//! silently keeps a factor of 1 (`2 -> 3` bytes). The same itemsize still checks the axis
//! (cuda.core returns the layout before looking at it). It always keeps the axis
//! (cuda.core's `keep_dim=True`); drop it with `squeezed`.
//!
//! ```
//! use strided_layout::{Layout, LayoutError, Order};
//! let l = Layout::dense([2, 4], 2, Order::C)?;
//! assert_eq!(l.repacked(3, 0, -1), Err(LayoutError::ItemsizeNotPowerOfTwo { itemsize: 3 }));
//! assert!(matches!(l.repacked(2, 0, 5), Err(LayoutError::SignedAxisOutOfRange { .. })));
//! # Ok::<(), LayoutError>(())
//! ```
//!
//! ## 5. Fixed rank in the type
//!
//! Rank changes whose result rank follows from the operation (`unsqueezed`, `selected`,
//! `reshaped`, `broadcast_to`) name it as a const parameter `M`, checked at compile time;
//! the ones whose rank depends on the data (`squeezed`, `flattened*`) return
//! [`DynLayout<MAX>`](crate::DynLayout), stored inline.
//!
//! ```
//! use strided_layout::{Layout, LayoutError, Order};
//! let l = Layout::dense([2, 3], 4, Order::C)?;
//! let u: Layout<3> = l.unsqueezed(0)?;
//! assert_eq!(u.squeezed().rank(), 2);
//! # Ok::<(), LayoutError>(())
//! ```
//!
//! ## 6. Half-open ranges, no clamping in `narrowed`
//!
//! `flattened_range(start, end)` merges `start..end`; cuda.core's
//! `flattened(start_axis, end_axis)` is inclusive. `narrowed(axis, start, len)` rejects a
//! range past the extent instead of clamping (`sliced` clamps, like Python).
//!
//! ```
//! use strided_layout::{Layout, LayoutError, Order, Slice};
//! let l = Layout::dense([2, 3, 4], 4, Order::C)?;
//! assert_eq!(l.flattened_range(0, 2)?.shape(), &[6, 4]); // cuda.core: flattened(0, 1)
//! assert!(l.narrowed(2, 2, 3).is_err());
//! assert_eq!(l.sliced([Slice::FULL, Slice::FULL, Slice::new(Some(2), Some(5), 1)])?.shape(), [2, 3, 2]);
//! # Ok::<(), LayoutError>(())
//! ```
//!
//! ## 7. Offsets and strides fit `isize` in bytes, checked once
//!
//! cuda.core checks overflow as it computes, in elements; here the invariants of
//! [`Layout`](crate::Layout) (every offset and stride fits `isize` in elements *and in
//! bytes*) are checked whenever a value is built, so later queries cannot overflow. A
//! result that cuda.core returns with a stride whose byte value overflows is
//! [`LayoutError::OffsetOverflow`](crate::LayoutError::OffsetOverflow) here, unless no offset
//! uses that stride (an extent-1 axis): then it is 0 (difference 16).
//!
//! ```
//! use strided_layout::{Layout, LayoutError, Slice};
//! assert_eq!(Layout::new([3], [isize::MAX / 2], 2), Err(LayoutError::OffsetOverflow));
//! let l = Layout::new([3, 2], [1, 1 << 61], 2)?;
//! // cuda.core's l[:, ::2] has stride 2^62 elements of 2 bytes on an axis of one element.
//! let s = l.sliced([Slice::FULL, Slice::new(None, None, 2)])?;
//! assert_eq!((s.shape(), s.strides()), ([3, 1], [1, 0]));
//! # Ok::<(), LayoutError>(())
//! ```
//!
//! ## 8. `with_offset` sets the offset
//!
//! cuda.core changes `slice_offset` only through slicing.
//!
//! ```
//! use strided_layout::{Layout, LayoutError, Order};
//! let l = Layout::dense([2, 2], 4, Order::C)?.with_offset(3)?.with_offset(5)?;
//! assert_eq!(l.offset(), 5);
//! # Ok::<(), LayoutError>(())
//! ```
//!
//! ## 9. A rank-0 layout flattens to itself
//!
//! cuda.core's `flattened()` of a 0-d layout is shape `(1,)`, strides `(1,)`; ours keeps
//! rank 0 (the element keeps its offset either way).
//!
//! ```
//! use strided_layout::{Layout, LayoutError};
//! let scalar = Layout::<0>::new([], [], 4)?.with_offset(7)?;
//! let f = scalar.flattened();
//! assert_eq!((f.rank(), f.offset()), (0, 7));
//! # Ok::<(), LayoutError>(())
//! ```
//!
//! ## 10. Flattening merges extent-1 axes, and every axis of an empty layout
//!
//! cuda.core merges axis `i` into axis `i - 1` when `strides[i - 1] == strides[i] *
//! shape[i]`, whatever the extents, so an extent-1 axis whose stride breaks that test
//! stays, and so does every axis of an empty layout whose strides do not chain. Here an
//! extent-1 axis merges whatever its stride (its stride never reaches an offset), the axis
//! after it is compared with the nearest axis of extent > 1 on its left, and an empty layout
//! merges every axis the mask allows (a merged group of an empty layout has stride 0; a
//! merged group of extent-1 axes only, stride 1; an axis that merges with nothing keeps its
//! stride). Fewer loop levels, and the same rule as `reshaped`.
//!
//! [`flattened_axis_mask`](crate::Layout::flattened_axis_mask) follows the same rule, so
//! the bit of an extent-1 axis is always set. Those bits depend on the shape alone, so the
//! masks of several layouts of one shape still combine with `&`: flattening each with the
//! combined mask gives them all the same shape.
//!
//! ```
//! use strided_layout::{Layout, LayoutError};
//! let l = Layout::new([2, 1, 3], [3, 7, 1], 4)?; // cuda.core keeps (2,1,3)
//! assert_eq!(l.flattened().shape(), &[6]);
//! assert_eq!(l.flattened_axis_mask().bits(), 0b110); // cuda.core: 0
//! let empty = Layout::new([2, 0, 3], [1, 5, 1], 4)?;
//! let f = empty.flattened();
//! assert_eq!((f.shape(), f.strides()), (&[0][..], &[0][..]));
//! // Of one shape, combined with `&`: the same shape after flattening.
//! let (a, b) = (Layout::new([4, 1, 3], [3, 9, 1], 4)?, Layout::new([4, 1, 3], [1, 0, 4], 4)?);
//! let m = a.flattened_axis_mask() & b.flattened_axis_mask();
//! assert_eq!(a.flattened_with_mask(m)?.shape(), b.flattened_with_mask(m)?.shape());
//! # Ok::<(), LayoutError>(())
//! ```
//!
//! ## 11. `to_dense` and `dense_like` always compute fresh strides
//!
//! cuda.core returns the input itself when it is already dense in the requested order,
//! keeping whatever strides its extent-1 axes (or, when empty, all axes) had; ours are the
//! strides [`Layout::dense`](crate::Layout::dense) gives for that order. The offsets are the
//! same.
//!
//! ```
//! use strided_layout::{Layout, LayoutError, Order};
//! let l = Layout::new([2, 1], [1, 5], 4)?; // dense; cuda.core's to_dense("C") returns it
//! assert_eq!(l.to_dense(Order::C)?.strides(), [1, 1]);
//! # Ok::<(), LayoutError>(())
//! ```
//!
//! ## 12. `max_compatible_itemsize`: a misaligned pointer, or a maximum below the itemsize
//!
//! With a `data_ptr` not aligned to the current itemsize, cuda.core answers the current
//! itemsize when the axis cannot be repacked (stride not 1, or extent 0), inviting
//! misaligned reads; ours is then [`LayoutError::PointerMisaligned`](crate::LayoutError::PointerMisaligned)
//! (where the axis can be unpacked, both answer cuda.core's gcd value, below the itemsize).
//! A `max_itemsize` below the current itemsize is an error in cuda.core; ours answers the
//! largest itemsize `repacked` accepts there (unpacking).
//!
//! ```
//! use strided_layout::{Layout, LayoutError, Order};
//! let l = Layout::dense([3, 8], 2, Order::C)?;
//! assert_eq!(l.max_compatible_itemsize(16, 0x1001, -1)?, 1); // as cuda.core
//! assert_eq!(l.max_compatible_itemsize(16, 0x1001, 0), Err(LayoutError::PointerMisaligned)); // cuda.core: 2
//! assert_eq!(l.max_compatible_itemsize(1, 0, -1)?, 1); // cuda.core: error
//! # Ok::<(), LayoutError>(())
//! ```
//!
//! ## 13. An empty result keeps its strides, except from `sliced`
//!
//! cuda.core zeroes every stride as soon as one slice it is given has length 0, and our
//! `flipped`, `narrowed` and `selected` reach it only as slices. They keep the strides
//! (`flipped` twice is the identity; `narrowed` with `len == 0` still moves the offset by
//! `start * stride`, as `torch.narrow` does). `sliced` zeroes them like cuda.core, except
//! that an identity slice (whole axis, step 1, as [`Slice::FULL`](crate::Slice::FULL))
//! leaves its axis untouched even when its extent is 0, as an omitted trailing slice does in
//! cuda.core.
//!
//! ```
//! use strided_layout::{Layout, LayoutError, Slice};
//! let l = Layout::new([4, 0], [1, 4], 2)?;
//! assert_eq!(l.flipped(1)?.strides(), [1, -4]); // cuda.core: (0, 0)
//! // cuda.core's l[::2] keeps (2, 4) too, but l[::2, :] is (0, 0).
//! assert_eq!(l.sliced([Slice::new(None, None, 2), Slice::FULL])?.strides(), [2, 4]);
//! assert_eq!(l.sliced([Slice::new(Some(1), Some(1), 1), Slice::FULL])?.strides(), [0, 0]);
//! # Ok::<(), LayoutError>(())
//! ```
//!
//! ## 14. An invented stride that would overflow is 0
//!
//! A rank change never fails on the stride it invents for a new extent-1 axis: where
//! cuda.core's (the extent times the stride of the axis it lands before) overflows `isize`
//! in elements or in bytes, ours is 0. cuda.core raises, or keeps a stride whose byte value
//! overflows.
//!
//! ```
//! use strided_layout::{Layout, LayoutError};
//! let l = Layout::new([2], [1 << 62], 1)?;
//! let u: Layout<2> = l.unsqueezed(0)?; // cuda.core: overflow error
//! assert_eq!(u.strides(), [0, 1 << 62]);
//! # Ok::<(), LayoutError>(())
//! ```
//!
//! ## 15. `repacked` never reads the stride of an extent-1 axis
//!
//! An extent-1 axis never moves an offset, so its stride does not block a repack: the
//! repack axis may have any stride when its extent is 1 (it becomes 1), and another axis
//! of extent 1 whose stride the packing factor does not divide gets stride 0. cuda.core
//! checks those strides and raises. One row of a 5x7 `f32` matrix views as `complex64`; a
//! complex column unpacks to `f32` pairs. `max_compatible_itemsize`, the largest itemsize
//! `repacked` accepts, follows.
//!
//! ```
//! use strided_layout::{Layout, LayoutError};
//! let row = Layout::new([1, 6], [7, 1], 4)?; // row 0 of a 5x7 f32 matrix, 6 columns
//! let c = row.repacked(8, 0, -1)?; // cuda.core: stride 7 not divisible by 2
//! assert_eq!((c.shape(), c.strides()), ([1, 3], [0, 1]));
//! let col = Layout::new([4, 1], [3, 3], 8)?; // a complex64 column
//! let pairs = col.repacked(4, 0, -1)?; // cuda.core: stride at the axis is not 1
//! assert_eq!((pairs.shape(), pairs.strides()), ([4, 2], [6, 1]));
//! # Ok::<(), LayoutError>(())
//! ```
//!
//! ## 16. A stride no offset uses is 0 where its product overflows
//!
//! `sliced` with a step that keeps at most one element of an axis never fails on that
//! axis's `stride * step` (which no offset uses): it is 0 where the product overflows in
//! elements or bytes. cuda.core raises. (With two or more kept elements the product is the
//! distance between two of the layout's offsets, which fits unless they are more than
//! `isize::MAX` apart; then the view is `OffsetOverflow`.)
//!
//! ```
//! use strided_layout::{Layout, LayoutError, Slice};
//! let l = Layout::new([2], [1 << 62], 1)?;
//! let s = l.sliced([Slice::new(None, None, 2)])?; // cuda.core: overflow error
//! assert_eq!((s.shape(), s.strides()), ([1], [0]));
//! # Ok::<(), LayoutError>(())
//! ```
//!
//! # Regenerating the cases
//!
//! CI needs no Python: the answers are committed in `tests/data/cuda_core_cases.txt`. To
//! regenerate the file (no GPU needed):
//!
//! ```text
//! pip install cuda-core==1.2.2 "cuda-bindings>=12,<13" numpy
//! python3 scripts/cuda_core_cases.py > tests/data/cuda_core_cases.txt
//! ```
