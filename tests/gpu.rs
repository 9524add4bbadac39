//! On a GPU: the strided-copy kernel (`tests/cpp/strided_copy.cu`, which includes
//! `include/strided_layout.h`, compiled by NVRTC) on transposed, permuted, flipped and
//! interleaved layouts, and its nested form (`KernelNestedLayout`) on oneDNN reorders, checked
//! element for element against the host `copy`, and its bandwidth as a fraction of a
//! device-to-device copy of the same bytes.
//!
//! Needs an NVIDIA GPU, its driver and NVRTC, so it is `#[ignore]`d (CI has no GPU). Run:
//!
//! ```text
//! cargo test --release --features cudarc --test gpu -- --ignored --nocapture
//! ```
//!
//! Without a device it prints `SKIP` and passes.
#![cfg(all(feature = "cudarc", not(miri)))]

use std::sync::Arc;

use cudarc::driver::DeviceRepr;
use cudarc::driver::{CudaContext, CudaFunction, CudaStream, LaunchConfig, PushKernelArg, sys};
use cudarc::nvrtc::{CompileOptions, compile_ptx_with_opts};
use strided_layout::gpu::{KernelLayout, KernelNestedLayout};
use strided_layout::nested::NestedLayout;
use strided_layout::{InterleaveLayout, InterleavedLayout, Layout, Order, copy};

/// The context and the compiled module, or `None` (printing `SKIP`) without a device.
fn device() -> Option<(Arc<CudaContext>, Arc<cudarc::driver::CudaModule>)> {
    // SAFETY: only probes whether the libraries can be loaded.
    let present = unsafe {
        cudarc::driver::sys::is_culib_present() && cudarc::nvrtc::sys::is_culib_present()
    };
    if !present {
        println!("SKIP: no CUDA driver or NVRTC library");
        return None;
    }
    let Ok(ctx) = CudaContext::new(0) else {
        println!("SKIP: no CUDA device");
        return None;
    };
    // The header's folder: where this file was built, unless `STRIDED_LAYOUT_INCLUDE` names
    // another (a test binary built on one machine and run on another: `scripts/gpu-check --run`).
    let include = std::env::var("STRIDED_LAYOUT_INCLUDE")
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/include").into());
    let ptx = compile_ptx_with_opts(
        include_str!("cpp/strided_copy.cu"),
        CompileOptions {
            include_paths: vec![include],
            options: vec!["-std=c++17".into()],
            ..Default::default()
        },
    )
    .expect("NVRTC compiles the header and the kernel");
    let module = ctx.load_module(ptx).expect("load the module");
    Some((ctx, module))
}

/// Runs the kernel once (checked against the host copy), then times `reps` runs and as many
/// device-to-device copies of the same bytes; returns (kernel GB/s, fraction of the memcpy).
fn run<P: DeviceRepr>(
    stream: &Arc<CudaStream>,
    f: &CudaFunction,
    host: &[f32],
    (sk, dk, n): (P, P, i32),
    expected: &[f32],
    dst_len: usize,
) -> (f64, f64) {
    let src = stream.clone_htod(host).unwrap();
    let mut dst = stream.alloc_zeros::<f32>(dst_len).unwrap();
    let cfg = LaunchConfig {
        grid_dim: (4 * 132, 1, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    };
    let launch = |dst: &mut cudarc::driver::CudaSlice<f32>| {
        let mut b = stream.launch_builder(f);
        b.arg(&src).arg(&sk).arg(dst).arg(&dk).arg(&n);
        // SAFETY: signature (const float*, P, float*, P, int) as in strided_copy.cu, P a
        // KernelLayout<int, N> or KernelNestedLayout<int, N, B> of the kernel's N (and B); the
        // layouts were validated against the buffer lengths.
        unsafe { b.launch(cfg) }.unwrap();
    };
    launch(&mut dst);
    let got = stream.clone_dtoh(&dst).unwrap();
    assert_eq!(got, expected, "device copy differs from the host copy");

    let reps = 20;
    let timing = Some(sys::CUevent_flags::CU_EVENT_DEFAULT);
    let start = stream.record_event(timing).unwrap();
    for _ in 0..reps {
        launch(&mut dst);
    }
    let end = stream.record_event(timing).unwrap();
    end.synchronize().unwrap();
    let kernel_ms = start.elapsed_ms(&end).unwrap() as f64 / reps as f64;

    let mut plain = stream.alloc_zeros::<f32>(n as usize).unwrap();
    let src_n = src.slice(0..n as usize);
    let start = stream.record_event(timing).unwrap();
    for _ in 0..reps {
        stream.memcpy_dtod(&src_n, &mut plain).unwrap();
    }
    let end = stream.record_event(timing).unwrap();
    end.synchronize().unwrap();
    let memcpy_ms = start.elapsed_ms(&end).unwrap() as f64 / reps as f64;

    let bytes = 2.0 * n as f64 * 4.0; // read + write
    (bytes / kernel_ms / 1e6, memcpy_ms / kernel_ms)
}

#[test]
#[ignore = "needs an NVIDIA GPU, its driver and NVRTC"]
fn gpu_strided_copy_matches_host_copy_and_reports_bandwidth() {
    let Some((ctx, module)) = device() else {
        return;
    };
    let stream = ctx.default_stream();
    let f2 = module.load_function("strided_copy_f32_2").unwrap();
    let f3 = module.load_function("strided_copy_f32_3").unwrap();
    let f4 = module.load_function("strided_copy_f32_4").unwrap();

    let report = |name: &str, (gbs, frac): (f64, f64)| {
        println!(
            "{name:<44} {gbs:8.1} GB/s  {:5.1} % of device-to-device copy",
            frac * 100.0
        );
    };

    // Transposed 8192 x 8192 (read along columns, write rows).
    let (r, c) = (8192, 8192);
    let host: Vec<f32> = (0..r * c).map(|i| i as f32).collect();
    let src = Layout::dense([r, c], 4, Order::C)
        .unwrap()
        .transposed(0, 1)
        .unwrap();
    let dst = Layout::dense(src.shape(), 4, Order::C).unwrap();
    let mut expected = vec![0f32; r * c];
    copy(&host, &src, &mut expected, &dst).unwrap();
    let sk = KernelLayout::<i32, 2>::from_layout(&src).unwrap();
    let dk = KernelLayout::<i32, 2>::from_layout(&dst).unwrap();
    report(
        "transposed 2-d 8192x8192",
        run(&stream, &f2, &host, (sk, dk, sk.volume()), &expected, r * c),
    );

    // Permuted 3-d (2, 0, 1) of 64 x 512 x 1024.
    let src = Layout::dense([64, 512, 1024], 4, Order::C)
        .unwrap()
        .permuted([2, 0, 1])
        .unwrap();
    let dst = Layout::dense(src.shape(), 4, Order::C).unwrap();
    let host: Vec<f32> = (0..src.volume()).map(|i| i as f32).collect();
    let mut expected = vec![0f32; dst.volume()];
    copy(&host, &src, &mut expected, &dst).unwrap();
    let sk = KernelLayout::<i32, 3>::from_layout(&src).unwrap();
    let dk = KernelLayout::<i32, 3>::from_layout(&dst).unwrap();
    report(
        "permuted 3-d (2,0,1) of 64x512x1024",
        run(
            &stream,
            &f3,
            &host,
            (sk, dk, sk.volume()),
            &expected,
            dst.volume(),
        ),
    );

    // Permuted 4-d (0, 2, 3, 1): NCHW -> NHWC, 16 x 64 x 128 x 128.
    let src = Layout::dense([16, 64, 128, 128], 4, Order::C)
        .unwrap()
        .permuted([0, 2, 3, 1])
        .unwrap();
    let dst = Layout::dense(src.shape(), 4, Order::C).unwrap();
    let host: Vec<f32> = (0..src.volume()).map(|i| i as f32).collect();
    let mut expected = vec![0f32; dst.volume()];
    copy(&host, &src, &mut expected, &dst).unwrap();
    let sk = KernelLayout::<i32, 4>::from_layout(&src).unwrap();
    let dk = KernelLayout::<i32, 4>::from_layout(&dst).unwrap();
    report(
        "permuted 4-d NCHW->NHWC 16x64x128x128",
        run(
            &stream,
            &f4,
            &host,
            (sk, dk, sk.volume()),
            &expected,
            dst.volume(),
        ),
    );

    // Flipped on both axes (negative strides), 4096 x 8192.
    let src = Layout::dense([4096, 8192], 4, Order::C)
        .unwrap()
        .flipped(0)
        .unwrap()
        .flipped(1)
        .unwrap();
    let dst = Layout::dense(src.shape(), 4, Order::C).unwrap();
    let host: Vec<f32> = (0..src.volume()).map(|i| i as f32).collect();
    let mut expected = vec![0f32; dst.volume()];
    copy(&host, &src, &mut expected, &dst).unwrap();
    let sk = KernelLayout::<i32, 2>::from_layout(&src).unwrap();
    let dk = KernelLayout::<i32, 2>::from_layout(&dst).unwrap();
    report(
        "flipped 2-d 4096x8192",
        run(
            &stream,
            &f2,
            &host,
            (sk, dk, sk.volume()),
            &expected,
            dst.volume(),
        ),
    );

    // Interleaved: planar CHW (3 x 2048 x 2048) -> HWC (channels interleaved by 3).
    let shape = [3, 2048, 2048];
    let src = Layout::dense(shape, 4, Order::C).unwrap();
    let dst = InterleavedLayout::dense(shape, 4, InterleaveLayout::new(0, 3).unwrap()).unwrap();
    let host: Vec<f32> = (0..src.volume()).map(|i| i as f32).collect();
    let mut expected = vec![0f32; src.volume()];
    copy(&host, &src, &mut expected, &dst).unwrap();
    let sk = KernelLayout::<i32, 3>::from_layout(&src).unwrap();
    let dk = KernelLayout::<i32, 3>::from_interleaved(&dst).unwrap();
    report(
        "interleaved CHW->HWC 3x2048x2048",
        run(
            &stream,
            &f3,
            &host,
            (sk, dk, sk.volume()),
            &expected,
            src.volume(),
        ),
    );
}

/// The nested kernel (`nested_copy_f32_4_B`) on oneDNN reorders, at the sizes of README's
/// reorder table: every element checked against the host copy through the same layouts.
#[test]
#[ignore = "needs an NVIDIA GPU, its driver and NVRTC"]
fn gpu_nested_reorders_match_host_copy_and_report_bandwidth() {
    let Some((ctx, module)) = device() else {
        return;
    };
    let stream = ctx.default_stream();
    let f2 = module.load_function("nested_copy_f32_4_2").unwrap();
    let f3 = module.load_function("nested_copy_f32_4_3").unwrap();
    // The most leaves a mode of either format has: 2 (one blocked level), 3 (`i` twice).
    for (from, to, dims, leaves) in [
        ("nChw8c", "nChw16c", [1, 128, 112, 112], 2),
        ("nchw", "nChw16c", [8, 60, 56, 56], 2),
        ("oihw", "OIhw16i16o", [256, 256, 3, 3], 2),
        ("OIhw16i16o", "OIhw4i16o4i", [258, 262, 3, 3], 3),
    ] {
        let a = NestedLayout::<8>::onednn(from, &dims, 4).unwrap();
        let b = NestedLayout::<8>::onednn(to, &dims, 4).unwrap();
        let host: Vec<f32> = (0..a.required_len().unwrap()).map(|i| i as f32).collect();
        let dst_len = b.required_len().unwrap();
        let mut expected = vec![0f32; dst_len];
        copy(
            &host,
            &a.lowered::<4>().unwrap(),
            &mut expected,
            &b.lowered::<4>().unwrap(),
        )
        .unwrap();
        let name = format!("nested {from} -> {to} {dims:?}");
        let n = i32::try_from(a.size()).unwrap();
        let stats = if leaves == 2 {
            let sk = KernelNestedLayout::<i32, 4, 2>::from_nested(&a).unwrap();
            let dk = KernelNestedLayout::<i32, 4, 2>::from_nested(&b).unwrap();
            run(&stream, &f2, &host, (sk, dk, n), &expected, dst_len)
        } else {
            let sk = KernelNestedLayout::<i32, 4, 3>::from_nested(&a).unwrap();
            let dk = KernelNestedLayout::<i32, 4, 3>::from_nested(&b).unwrap();
            run(&stream, &f3, &host, (sk, dk, n), &expected, dst_len)
        };
        println!(
            "{name:<60} {:8.1} GB/s  {:5.1} % of device-to-device copy",
            stats.0,
            stats.1 * 100.0
        );
    }
}
