//! PTX probe: `#[no_mangle]` wrappers around the device math, to read its instruction count.
//!
//! ```text
//! cd tests/ptx
//! cargo +nightly rustc --release -Zbuild-std=core --target nvptx64-nvidia-cuda -- --emit asm
//! less target/nvptx64-nvidia-cuda/release/deps/strided_layout_ptx_probe-*.s
//! ```
//!
//! (`rustup +nightly component add rust-src` once.) Each function is a `.visible .func`; count
//! the instructions between its braces (the figures are in `src/doc/gpu.rs`).
#![no_std]
// Kernels (`extern "ptx-kernel"`) and the thread-index intrinsics are nightly-only; this crate is
// only ever built with the nightly toolchain, for `nvptx64-nvidia-cuda`.
#![feature(abi_ptx, stdarch_nvptx)]

use strided_layout::gpu::{KernelIndex, KernelLayout, KernelNestedLayout};

/// `offset_of_linear` at rank 4, `i32` (the grid-stride loop body).
#[unsafe(no_mangle)]
pub extern "C" fn offset_of_linear_i32_rank4(k: &KernelLayout<i32, 4>, linear: i32) -> i32 {
    k.offset_of_linear(linear)
}

/// `offset_of_linear` at rank 2, `i32`.
#[unsafe(no_mangle)]
pub extern "C" fn offset_of_linear_i32_rank2(k: &KernelLayout<i32, 2>, linear: i32) -> i32 {
    k.offset_of_linear(linear)
}

/// `offset_of_linear` at rank 4, `u32`.
#[unsafe(no_mangle)]
pub extern "C" fn offset_of_linear_u32_rank4(k: &KernelLayout<u32, 4>, linear: u32) -> u32 {
    k.offset_of_linear(linear)
}

/// `offset_of_linear` at rank 4, `i64`.
#[unsafe(no_mangle)]
pub extern "C" fn offset_of_linear_i64_rank4(k: &KernelLayout<i64, 4>, linear: i64) -> i64 {
    k.offset_of_linear(linear)
}

/// `offset_of` at rank 4, `i32`.
#[unsafe(no_mangle)]
pub extern "C" fn offset_of_i32_rank4(k: &KernelLayout<i32, 4>, index: &[i32; 4]) -> i32 {
    k.offset_of(*index)
}

/// The naive loop the fast division replaces: one division and remainder per axis.
#[unsafe(no_mangle)]
pub extern "C" fn naive_division_i32_rank4(k: &KernelLayout<i32, 4>, linear: i32) -> i32 {
    let (e, s) = (k.extents(), k.strides());
    let mut rest = linear;
    let mut acc = k.offset();
    for (&e, &s) in e.iter().zip(&s).rev() {
        // Extents are positive in a packed layout; the test keeps the code free of panics.
        if e <= 0 {
            return acc;
        }
        acc = acc.wrapping_add(rest.wrapping_rem(e).wrapping_mul(s));
        rest = rest.wrapping_div(e);
    }
    acc
}

/// A grid-stride strided copy of `n` elements written in Rust, `src` at `sl` into `dst` at
/// `dl` (`n` is the layouts' volume, which `KernelLayout::from_layout` checked fits `I`).
///
/// The loop never overflows `I`: the first position and the step are computed in 64 bits
/// and the step is capped at `n`; the position only advances while `n - t > step`, so
/// `t + step < n`.
///
/// # Safety
///
/// `src` and `dst` hold every offset of `sl` and `dl` (`required_len()` elements from the
/// pointers), and `dl` is unique.
#[inline(always)]
unsafe fn grid_stride_copy<I: KernelIndex + TryFrom<i64> + Into<i64>, const N: usize>(
    src: *const f32,
    sl: &KernelLayout<I, N>,
    dst: *mut f32,
    dl: &KernelLayout<I, N>,
    n: I,
) {
    use core::arch::nvptx::{_block_dim_x, _block_idx_x, _grid_dim_x, _thread_idx_x};
    // SAFETY: reading special registers has no precondition.
    let (block, dim, grid, thread) =
        unsafe { (_block_idx_x(), _block_dim_x(), _grid_dim_x(), _thread_idx_x()) };
    let first = i64::from(block) * i64::from(dim) + i64::from(thread);
    let step = (i64::from(dim) * i64::from(grid)).min(n.into());
    let (Ok(first), Ok(step)) = (I::try_from(first), I::try_from(step)) else {
        return;
    };
    let run = |sl: &KernelLayout<I, N>, dl: &KernelLayout<I, N>| {
        let mut t = first;
        while t < n {
            let (d, s) = (dl.offset_of_linear(t).into(), sl.offset_of_linear(t).into());
            // SAFETY: `t < n`, the volume, so both offsets lie in the buffers (the contract).
            unsafe { *dst.offset(d as isize) = *src.offset(s as isize) };
            if n - t <= step {
                break;
            }
            t = t + step;
        }
    };
    // Plain layouts (one test per thread, outside the loop): the loop over `as_plain` copies
    // has no interleave tests.
    match (sl.as_plain(), dl.as_plain()) {
        (Some(s), Some(d)) => run(&s, &d),
        _ => run(sl, dl),
    }
}

macro_rules! strided_copy {
    ($name:ident, $i:ty, $n:literal) => {
        /// A grid-stride copy through [`grid_stride_copy`].
        ///
        /// # Safety
        ///
        /// As for [`grid_stride_copy`].
        #[unsafe(no_mangle)]
        pub unsafe extern "ptx-kernel" fn $name(
            src: *const f32,
            sl: KernelLayout<$i, $n>,
            dst: *mut f32,
            dl: KernelLayout<$i, $n>,
            n: $i,
        ) {
            // SAFETY: the caller's contract is this function's.
            unsafe { grid_stride_copy(src, &sl, dst, &dl, n) }
        }
    };
}
strided_copy!(strided_copy_f32_i32_1, i32, 1);
strided_copy!(strided_copy_f32_i32_2, i32, 2);
strided_copy!(strided_copy_f32_i32_3, i32, 3);
strided_copy!(strided_copy_f32_i32_4, i32, 4);
strided_copy!(strided_copy_f32_i64_4, i64, 4);

/// `offset_of_linear` of a nested layout: 4 modes of 3 leaves, `i32` (oneDNN's `OIhw4i16o4i`).
#[unsafe(no_mangle)]
pub extern "C" fn nested_offset_of_linear_i32_4_3(
    k: &KernelNestedLayout<i32, 4, 3>,
    linear: i32,
) -> i32 {
    k.offset_of_linear(linear)
}

/// `offset_of` of a nested layout: 4 modes of 2 leaves, `i32` (oneDNN's `nChw16c`).
#[unsafe(no_mangle)]
pub extern "C" fn nested_offset_of_i32_4_2(
    k: &KernelNestedLayout<i32, 4, 2>,
    index: &[i32; 4],
) -> i32 {
    k.offset_of(*index)
}

/// A grid-stride copy over nested layouts (4 modes of 3 leaves, `i32`): `n` is the size,
/// which `KernelNestedLayout::from_nested` checked fits `i32`.
///
/// # Safety
///
/// `src` and `dst` hold every offset of `sl` and `dl`, and `dl` is unique.
#[unsafe(no_mangle)]
pub unsafe extern "ptx-kernel" fn nested_copy_f32_i32_4_3(
    src: *const f32,
    sl: KernelNestedLayout<i32, 4, 3>,
    dst: *mut f32,
    dl: KernelNestedLayout<i32, 4, 3>,
    n: i32,
) {
    use core::arch::nvptx::{_block_dim_x, _block_idx_x, _grid_dim_x, _thread_idx_x};
    // SAFETY: reading special registers has no precondition.
    let (block, dim, grid, thread) =
        unsafe { (_block_idx_x(), _block_dim_x(), _grid_dim_x(), _thread_idx_x()) };
    let first = i64::from(block) * i64::from(dim) + i64::from(thread);
    let step = (i64::from(dim) * i64::from(grid)).min(n.into());
    let (Ok(mut t), Ok(step)) = (i32::try_from(first), i32::try_from(step)) else {
        return;
    };
    while t < n {
        let (d, s) = (dl.offset_of_linear(t), sl.offset_of_linear(t));
        // SAFETY: `t < n`, the size, so both offsets lie in the buffers (the contract).
        unsafe { *dst.offset(d as isize) = *src.offset(s as isize) };
        if n - t <= step {
            break;
        }
        t += step;
    }
}
