//! On a GPU: the strided-copy kernel (`tests/cpp/strided_copy.cu`, which includes
//! `include/strided_layout.h`, compiled by NVRTC) on transposed, permuted, flipped and
//! interleaved layouts, checked element for element against the host `copy`, and its bandwidth
//! as a fraction of a device-to-device copy of the same bytes.
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

use cudarc::driver::{CudaContext, CudaFunction, CudaStream, LaunchConfig, PushKernelArg, sys};
use cudarc::nvrtc::{CompileOptions, compile_ptx_with_opts};
use strided_layout::gpu::KernelLayout;
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
    let include = concat!(env!("CARGO_MANIFEST_DIR"), "/include");
    let ptx = compile_ptx_with_opts(
        include_str!("cpp/strided_copy.cu"),
        CompileOptions {
            include_paths: vec![include.into()],
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
fn run<const N: usize>(
    stream: &Arc<CudaStream>,
    f: &CudaFunction,
    host: &[f32],
    sk: KernelLayout<i32, N>,
    dk: KernelLayout<i32, N>,
    expected: &[f32],
    dst_len: usize,
) -> (f64, f64) {
    let n = sk.volume();
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
        // SAFETY: signature (const float*, KernelLayout<int, N>, float*, KernelLayout<int, N>,
        // int) as in strided_copy.cu; the layouts were validated against the buffer lengths.
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
        run(&stream, &f2, &host, sk, dk, &expected, r * c),
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
        run(&stream, &f3, &host, sk, dk, &expected, dst.volume()),
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
        run(&stream, &f4, &host, sk, dk, &expected, dst.volume()),
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
        run(&stream, &f2, &host, sk, dk, &expected, dst.volume()),
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
        run(&stream, &f3, &host, sk, dk, &expected, src.volume()),
    );
}
