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
assert_impl_all!(strided_layout::plan::Lowered<3>: Copy, Send, Sync, Eq, Hash, Debug);
assert_impl_all!(strided_layout::plan::Loop<2>: Copy, Send, Sync, Eq, Hash, Debug);
assert_impl_all!(strided_layout::plan::Nest<3>: Copy, Send, Sync, Eq, Hash, Debug);
assert_impl_all!(strided_layout::plan::Plan<2>: Copy, Send, Sync, Eq, Hash, Debug, core::fmt::Display);
// A plan is its nests, a count and a tag (room for one nest or for all in use), each nest
// under half a kilobyte for two operands: it lives on the stack of every kernel call.
const_assert!(
    size_of::<strided_layout::plan::Plan<2>>()
        <= strided_layout::plan::MAX_NESTS * size_of::<strided_layout::plan::Nest<2>>()
            + 2 * size_of::<usize>()
);
const_assert!(size_of::<strided_layout::plan::Nest<2>>() <= 512 * size_of::<usize>() / 8);

// The error is small: at most three words (a tag and two `usize` payload fields).
const_assert!(size_of::<LayoutError>() <= 3 * size_of::<usize>());
#[cfg(target_pointer_width = "64")]
const_assert!(size_of::<LayoutError>() <= 24);

// Returning `Result` costs at most one word over the layout itself.
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

// The kernel parameter: `#[repr(C)]` extents [I; N], strides [I; N], offset, interleave
// dimension and factor, all of type I, so (2N + 3) words of I with I's alignment and no
// padding, for every rank. Pinned for N = 1..=8 and i32/i64 (a kernel declares the same
// struct on its side, so these numbers are part of the ABI).
mod kernel_layout_abi {
    use core::mem::{align_of, size_of};
    use static_assertions::{assert_impl_all, const_assert_eq};
    use strided_layout::gpu::KernelLayout;

    assert_impl_all!(KernelLayout<i32, 3>: Copy, Send, Sync, Eq, core::hash::Hash, core::fmt::Debug);
    assert_impl_all!(KernelLayout<u64, 0>: Copy, Send, Sync, Eq, core::hash::Hash, core::fmt::Debug);

    macro_rules! pin {
        ($($n:literal),*) => {$(
            const_assert_eq!(size_of::<KernelLayout<i32, $n>>(), (4 * $n + 5) * 4);
            const_assert_eq!(align_of::<KernelLayout<i32, $n>>(), 4);
            const_assert_eq!(size_of::<KernelLayout<i64, $n>>(), (4 * $n + 5) * 8);
            // i64's alignment is 8 on 64-bit targets, 4 on some 32-bit ones (i686).
            const_assert_eq!(align_of::<KernelLayout<i64, $n>>(), align_of::<i64>());
        )*};
    }
    pin!(1, 2, 3, 4, 5, 6, 7, 8);
    #[cfg(target_pointer_width = "64")]
    const_assert_eq!(align_of::<KernelLayout<i64, 4>>(), 8);

    #[cfg(feature = "bytemuck")]
    assert_impl_all!(KernelLayout<i32, 8>: bytemuck::Pod, bytemuck::Zeroable);
    #[cfg(feature = "bytemuck")]
    assert_impl_all!(KernelLayout<u64, 0>: bytemuck::Pod, bytemuck::Zeroable);
    #[cfg(feature = "cudarc")]
    assert_impl_all!(KernelLayout<i32, 4>: cudarc::driver::DeviceRepr);
    #[cfg(feature = "cudarc")]
    assert_impl_all!(KernelLayout<i64, 4>: cudarc::driver::DeviceRepr);
}
