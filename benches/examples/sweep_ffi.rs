//! `copy()` behind a C function, for the NumPy replay to time in its own process, on its own
//! buffers (`benches/sweep_numpy.py --same-process`): the two sides then share the buffers,
//! their placement and the machine's state, which two processes at two times do not.
//!
//!     cargo build --release -p strided-layout-bench --example sweep_ffi
//!     python3 benches/sweep_numpy.py target/sweep.tsv --same-process \
//!         target/release/examples/libsweep_ffi.so

use strided_layout::Layout;

/// The copy of one case, over `N` axes and elements of `T`; 0 on success, 1 where a layout
/// is refused, 2 where the copy is.
fn go<T: Copy + 'static, const N: usize>(
    shape: &[usize],
    src_strides: &[isize],
    src_offset: isize,
    src: &[T],
    dst_strides: &[isize],
    dst_offset: isize,
    dst: &mut [T],
) -> i32 {
    let (Ok(shape), Ok(ss), Ok(ds)) = (
        <[usize; N]>::try_from(shape),
        <[isize; N]>::try_from(src_strides),
        <[isize; N]>::try_from(dst_strides),
    ) else {
        return 1;
    };
    let size = size_of::<T>();
    let (Ok(sl), Ok(dl)) = (
        Layout::new(shape, ss, size).and_then(|l| l.with_offset(src_offset)),
        Layout::new(shape, ds, size).and_then(|l| l.with_offset(dst_offset)),
    ) else {
        return 1;
    };
    match strided_layout::copy(src, &sl, dst, &dl) {
        Ok(()) => 0,
        Err(_) => 2,
    }
}

/// `go` for rank `rank` (1 to 5) of elements of `T`.
#[allow(clippy::too_many_arguments)]
fn by_rank<T: Copy + 'static>(
    rank: usize,
    shape: &[usize],
    ss: &[isize],
    so: isize,
    src: &[T],
    ds: &[isize],
    dof: isize,
    dst: &mut [T],
) -> i32 {
    match rank {
        1 => go::<T, 1>(shape, ss, so, src, ds, dof, dst),
        2 => go::<T, 2>(shape, ss, so, src, ds, dof, dst),
        3 => go::<T, 3>(shape, ss, so, src, ds, dof, dst),
        4 => go::<T, 4>(shape, ss, so, src, ds, dof, dst),
        5 => go::<T, 5>(shape, ss, so, src, ds, dof, dst),
        _ => 1,
    }
}

/// One sweep case for [`sweep_copy`]: `rank` axes (1 to 5) of `shape`, strides and offsets
/// in elements of `itemsize` bytes (1, 2, 4 or 8), buffers of `src_len` and `dst_len` elements.
/// One pointer to it is the call's only argument, so that Python's `ctypes` converts nothing
/// per call.
#[repr(C)]
pub struct Case {
    rank: usize,
    itemsize: usize,
    shape: [usize; 5],
    src_strides: [isize; 5],
    src_offset: isize,
    src: *const u8,
    src_len: usize,
    dst_strides: [isize; 5],
    dst_offset: isize,
    dst: *mut u8,
    dst_len: usize,
}

/// Copies `case` with `strided_layout::copy`. Returns 0 when copied, 1 for a layout refused,
/// 2 for a copy refused, 3 for another element size or rank.
///
/// # Safety
///
/// `case` points to a [`Case`] whose `src` holds `src_len` and `dst` `dst_len` initialised
/// elements of `itemsize` bytes, aligned to it, the two buffers disjoint.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn sweep_copy(case: *const Case) -> i32 {
    // SAFETY: a valid `Case` (the caller's contract).
    let c = unsafe { &*case };
    if !(1..=5).contains(&c.rank) {
        return 3;
    }
    let r = c.rank;
    let (shape, ss, ds) = (&c.shape[..r], &c.src_strides[..r], &c.dst_strides[..r]);
    macro_rules! typed {
        ($t:ty) => {{
            // SAFETY: `src_len` and `dst_len` aligned elements of this size, disjoint (the
            // caller's contract).
            let (s, d) = unsafe {
                (
                    std::slice::from_raw_parts(c.src.cast::<$t>(), c.src_len),
                    std::slice::from_raw_parts_mut(c.dst.cast::<$t>(), c.dst_len),
                )
            };
            by_rank::<$t>(r, shape, ss, c.src_offset, s, ds, c.dst_offset, d)
        }};
    }
    match c.itemsize {
        1 => typed!(u8),
        2 => typed!(u16),
        4 => typed!(u32),
        8 => typed!(u64),
        _ => 3,
    }
}
