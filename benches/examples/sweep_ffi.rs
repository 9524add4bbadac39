//! `copy()` behind a C function, for the NumPy replay to time in its own process, on its own
//! buffers (`benches/sweep_numpy.py --same-process`): the two sides then share the buffers,
//! their placement and the machine's state, which two processes at two times do not.
//!
//!     cargo build --release -p strided-layout-bench --example sweep_ffi
//!     python3 benches/sweep_numpy.py target/sweep.tsv --same-process \
//!         target/release/examples/libsweep_ffi.so

use strided_layout::Layout;

/// The copy of `c` over `N` axes and elements of `T` (`src` and `dst` its buffers); 0 on
/// success, 1 where a layout is refused, 2 where the copy is.
fn go<T: Copy + 'static, const N: usize>(c: &Case, src: &[T], dst: &mut [T]) -> i32 {
    let (Some(shape), Some(ss), Some(ds)) = (
        c.shape.first_chunk::<N>(),
        c.src_strides.first_chunk::<N>(),
        c.dst_strides.first_chunk::<N>(),
    ) else {
        return 1;
    };
    let size = size_of::<T>();
    let (Ok(sl), Ok(dl)) = (
        Layout::new(*shape, *ss, size).and_then(|l| l.with_offset(c.src_offset)),
        Layout::new(*shape, *ds, size).and_then(|l| l.with_offset(c.dst_offset)),
    ) else {
        return 1;
    };
    match strided_layout::copy(src, &sl, dst, &dl) {
        Ok(()) => 0,
        Err(_) => 2,
    }
}

/// `go` for `c.rank` (1 to 5) axes; 3 for another rank.
fn by_rank<T: Copy + 'static>(c: &Case, src: &[T], dst: &mut [T]) -> i32 {
    match c.rank {
        1 => go::<T, 1>(c, src, dst),
        2 => go::<T, 2>(c, src, dst),
        3 => go::<T, 3>(c, src, dst),
        4 => go::<T, 4>(c, src, dst),
        5 => go::<T, 5>(c, src, dst),
        _ => 3,
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
            by_rank::<$t>(c, s, d)
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
