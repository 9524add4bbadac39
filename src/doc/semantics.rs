//! Edge cases, defined once: what each query and transform does with extent 0, extent 1,
//! stride 0, negative strides, overlap, empty layouts and rank 0.
//!
//! Item docs link here instead of restating these rules. Where cuda.core's `StridedLayout`
//! defines a case, this crate gives the same answer (see [`cuda_core`](super::cuda_core) for
//! the few deliberate differences).
//!
//! # The model
//!
//! A [`Layout<N>`](crate::Layout) maps an index `[i0, .., i(N-1)]` with `0 <= ik < shape[k]`
//! to the element offset `offset + Σ ik · strides[k]`. Everything below follows from taking
//! that formula literally over the set of *valid* indices:
//!
//! - the **offsets** of a layout are the multiset `{ offset + Σ ik · strides[k] }` over all
//!   valid indices, listed in *logical C order* (last index fastest);
//! - a property that talks about "every element" is **vacuously true** when there are no
//!   elements;
//! - a stride only matters if its axis has at least two valid index values.
//!
//! [`Layout::new`](crate::Layout::new) stores shape and strides exactly as given, so the
//! strides of extent-0 and extent-1 axes survive; the queries below say which ones read them.
//!
//! # Extent 0 (an empty layout)
//!
//! If any extent is 0 the volume is 0: no valid index exists and the layout has no offsets.
//!
//! | query / transform | result on an empty layout |
//! | --- | --- |
//! | [`volume`](crate::Layout::volume) | `0` |
//! | `offset_bounds()` | `None` (cuda.core returns `(0, -1)`) |
//! | `required_size_in_bytes()` | `Ok(0)` |
//! | `is_contiguous_c`, `is_contiguous_f`, `is_contiguous_any` | `true`, whatever the strides (vacuous, as cuda.core) |
//! | `is_dense` | `is_contiguous_any() && offset() == 0`, so `true` unless the offset is non-zero (as cuda.core) |
//! | `is_unique` | `true` (no two indices exist) |
//! | `offset_of(index)` | `Err(IndexOutOfRange { axis })`: no index is valid, so some axis always fails the `index[k] < shape[k]` check |
//! | [`stride_order`](crate::Layout::stride_order) | computed from the stored strides as for any layout (the order is a property of the strides, not of the elements) |
//! | `flattened_axis_mask()` | as cuda.core: computed from the stored strides |
//! | `offsets()`, `indices()`, `strided_blocks()` | yield nothing |
//! | `squeezed()` | rank 1, shape `[0]`, stride `[0]` (as cuda.core: an empty layout squeezes to `(0,):(0,)`) |
//! | transforms (`permuted`, `flipped`, `sliced`, ...) | defined as usual; they keep the volume 0; `flipped` on an extent-0 axis leaves the offset unchanged |
//! | `repacked` at an axis of extent 0 | `Err(ExtentZero { axis })` (as cuda.core) |
//! | kernels (`copy`, `fill`, `map`, ...) | touch no element |
//!
//! # Extent 1, with any stride
//!
//! An axis of extent 1 has the single index 0, so its stride never contributes to an offset.
//! Two layouts that differ only in the stride of an extent-1 axis have the same offsets.
//!
//! - **Contiguity** (`is_contiguous_c/f/any`, `is_dense`) ignores the stride of an extent-1
//!   axis, as cuda.core does (ndarray's `is_standard_layout` does the same; NumPy flags do
//!   since 1.12). So `Layout::new([1, 3], [99, 1], 4)` is C-contiguous.
//! - **`is_unique`** ignores it too.
//! - **`reshaped`** is never blocked by an extent-1 axis, whatever its stride (a deliberate
//!   difference from cuda.core, see [`cuda_core`](super::cuda_core)).
//! - **[`stride_order`](crate::Layout::stride_order)** *does* read the stored stride: it sorts
//!   all axes by `|stride|`, ties broken by the larger extent, then the lower axis number
//!   (cuda.core's rule). Use it as a hint for a good loop order, not as a property of the
//!   element set.
//! - **`squeezed`** removes every extent-1 axis; **`unsqueezed`** inserts one. The stride
//!   it gets is documented on `unsqueezed` and, by the rule above, changes no offset.
//!
//! # Stride 0 (broadcast)
//!
//! A zero stride on an axis of extent `>= 2` makes distinct indices share an offset:
//!
//! - `is_unique()` is `false`, and so are `is_contiguous_*` and `is_dense` (a contiguous
//!   layout maps its elements one-to-one onto a range);
//! - `offset_bounds()` and `required_size_in_bytes()` count the shared element once;
//! - `broadcast_to` creates such axes. A broadcast layout is a fine kernel *source*; as a
//!   *destination* it would write one element several times (see the kernels' docs).
//!
//! A zero stride on an extent-0 or extent-1 axis is harmless, by the two sections above.
//!
//! # Negative strides (flips)
//!
//! Negative strides are ordinary values: `flipped(axis)` negates one and moves the offset to
//! the old last element, so the same memory is walked backwards.
//!
//! - `offset_bounds()` takes the minimum over the index `shape[k] - 1` on negative-stride
//!   axes and `0` elsewhere (and the reverse for the maximum), as cuda.core does;
//! - `required_size_in_bytes()` is `(max offset + 1) · itemsize` and an error
//!   (`NegativeOffset`) if the minimum offset is negative: such a layout needs a base
//!   pointer inside the buffer, not at its start;
//! - `is_contiguous_c/f/any` and `is_dense` are `false` when an axis of extent `>= 2` has a
//!   negative stride (cuda.core: "the strides are non-negative" in a contiguous layout);
//!   `is_unique` is unaffected by signs;
//! - [`stride_order`](crate::Layout::stride_order) sorts by `|stride|`.
//!
//! # Overlap (non-unique layouts)
//!
//! A layout *overlaps* when two valid indices share an offset. Stride 0 is the obvious
//! case; the subtle one is strides that collide without being 0, such as `[1, 1]` on shape
//! `[2, 2]`: indices `[0, 1]` and `[1, 0]` both give offset 1.
//!
//! - `is_unique()` is **exact**: `true` if and only if no two valid indices share an offset.
//!   (cuda.core's test is sufficient only, and says `false` for some unique layouts.) Its
//!   worst-case cost is bounded and documented on the method.
//! - Overlapping layouts are legal values; every query and transform works on them. Only
//!   kernel destinations care (see the kernels' docs).
//!
//! ```text
//! (2,2):(1,1)        offsets     0 1      index [0,1] and [1,0] share offset 1
//!                                1 2      -> is_unique() == false
//! ```
//!
//! # Rank 0
//!
//! A `Layout<0>` has one element, at `offset`. Its volume is 1 (the empty product), it is
//! C-, F- and any-contiguous and unique, `offset_bounds()` is `Some((offset, offset))`,
//! `offset_of([])` is `Ok(offset)`, and it flattens and squeezes to itself.
//!
//! # The offset and the invariants
//!
//! The offset (cuda.core's `slice_offset`) is counted in elements and may be negative.
//! [`with_offset`](crate::Layout::with_offset) *sets* it. Every layout keeps three
//! invariants (see [`Layout`](crate::Layout)); every element offset fits `isize` in elements
//! and in bytes, so none of the queries above can overflow, and a transform whose result
//! would break an invariant returns [`LayoutError::OffsetOverflow`](crate::LayoutError::OffsetOverflow)
//! or [`LayoutError::VolumeOverflow`](crate::LayoutError::VolumeOverflow) instead.
//!
//! # Negative axes and indices (one rule)
//!
//! Python counts from the end with negative numbers; this crate does so wherever a value is
//! *signed*, and nowhere else:
//!
//! - **Axis arguments typed `isize`** follow Python: `-1` is the last axis, `-N..N` is the
//!   valid range. These are the axis arguments of [`repacked`](crate::Layout::repacked),
//!   `repacked_dropping_axis` and [`max_compatible_itemsize`](crate::Layout::max_compatible_itemsize),
//!   the places cuda.core documents a negative axis for a fixed-rank call.
//! - **Axis arguments typed `usize`** (`permuted`, `transposed`, `flipped`, `narrowed`,
//!   `selected`, `unsqueezed`, `flattened_range`, `grid`, ...) take `0..N` only; their
//!   signatures are fixed by the design. To pass a Python axis, convert it once with
//!   [`normalized_axis`](crate::Layout::normalized_axis): `l.flipped(l.normalized_axis(-1)?)`.
//!   There are no `*_neg` twins.
//! - **Slice bounds and signed `s!` indices** are `isize` and follow Python: negative bounds
//!   count from the end of the axis (and clamp, for slices), `s![l; -1, ..]` is the last row;
//!   an index outside `-e..e` is [`IndexOutOfRange`](crate::LayoutError::IndexOutOfRange).
//!   A `usize` index in `s!` is a position from the start, in `0..e`.
//! - **Element indices** of [`offset_of`](crate::Layout::offset_of) are `usize` in
//!   `0..extent`: they address memory, so there is no "from the end" there.
//!
//! # Rank
//!
//! Ranks go up to 64 (cuda.core's limit, and the width of an [`AxisMask`](crate::AxisMask)):
//! `Layout<N>` with `N > 64` and `DynLayout<MAX>` with `MAX > 64` do not compile (an inline
//! `const` assertion in their constructors), so no mask can silently drop an axis.
