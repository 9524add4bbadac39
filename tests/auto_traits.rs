//! Auto traits and sizes of the public plain-data types, checked at compile time.
//!
//! Every assertion here is a `const` item: if a type loses `Send`, `Copy`, `Hash`, ... or
//! grows past its size budget, this file stops compiling. The single `#[test]` only makes
//! the file show up in `cargo test` output.

use core::fmt::Debug;
use core::hash::Hash;
use core::mem::size_of;

use static_assertions::{assert_impl_all, const_assert};
use strided_layout::{AxisMask, Layout, LayoutError, Order, Slice};

assert_impl_all!(Layout<0>: Copy, Send, Sync, Eq, Hash, Debug);
assert_impl_all!(Layout<1>: Copy, Send, Sync, Eq, Hash, Debug);
assert_impl_all!(Layout<4>: Copy, Send, Sync, Eq, Hash, Debug);
assert_impl_all!(LayoutError: Copy, Send, Sync, Eq, Hash, Debug, core::fmt::Display, core::error::Error);
assert_impl_all!(AxisMask: Copy, Send, Sync, Eq, Hash, Debug, Default);
assert_impl_all!(Order<0>: Copy, Send, Sync, Eq, Hash, Debug);
assert_impl_all!(Order<3>: Copy, Send, Sync, Eq, Hash, Debug);
assert_impl_all!(Slice: Copy, Send, Sync, Eq, Hash, Debug);
// Kernel plans and operands are plain data too (a GPU host keeps and ships them).
assert_impl_all!(strided_layout::Lowered<3>: Copy, Send, Sync, Eq, Hash, Debug);
assert_impl_all!(strided_layout::Loop<2>: Copy, Send, Sync, Eq, Hash, Debug);
assert_impl_all!(strided_layout::Nest<3>: Copy, Send, Sync, Eq, Hash, Debug);
assert_impl_all!(strided_layout::Plan<2>: Copy, Send, Sync, Eq, Hash, Debug, core::fmt::Display);
// A plan stays around a kilobyte for two operands: it lives on the stack of every kernel call.
const_assert!(size_of::<strided_layout::Plan<2>>() <= 1024 * size_of::<usize>() / 8);

// The error is small: at most three words (a tag and two `usize` payload fields).
const_assert!(size_of::<LayoutError>() <= 3 * size_of::<usize>());
#[cfg(target_pointer_width = "64")]
const_assert!(size_of::<LayoutError>() <= 24);

// Returning `Result` costs at most one word over the layout itself (STYLE 2.4).
const_assert!(
    size_of::<Result<Layout<4>, LayoutError>>() <= size_of::<Layout<4>>() + size_of::<usize>()
);
const_assert!(size_of::<Result<Layout<0>, LayoutError>>() <= 4 * size_of::<usize>());

// A layout is exactly its four parts: shape, strides, offset, itemsize, no hidden fields.
const_assert!(size_of::<Layout<4>>() == 2 * 4 * size_of::<usize>() + 2 * size_of::<usize>());
const_assert!(size_of::<AxisMask>() == size_of::<u64>());

#[test]
fn auto_traits_and_sizes_hold_at_compile_time() {
    // Everything above is checked by the compiler; print the sizes for the record.
    std::println!(
        "Layout<4> {} B, LayoutError {} B, Result<Layout<4>, LayoutError> {} B",
        size_of::<Layout<4>>(),
        size_of::<LayoutError>(),
        size_of::<Result<Layout<4>, LayoutError>>()
    );
}
