//! A GPU host in Rust: a tensor handed over through DLPack, its layout packed into
//! `KernelLayout<i32, 2>`, and a strided-copy kernel compiled by NVRTC (its source prefixed with
//! the header's text, `strided_layout::gpu::KERNEL_HEADER`, so nothing depends on where the crate's
//! files are) and launched with cudarc on buffers checked against `required_len()`. The result
//! is checked against the host `strided_layout::copy`.
//!
//! ```text
//! cargo run --example gpu_host --features cudarc,dlpack
//! ```
//!
//! It needs an NVIDIA driver and NVRTC at run time (loaded dynamically); without them it prints
//! that no device was found and exits successfully.

use std::error::Error;

use cudarc::driver::{CudaContext, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::{CompileOptions, compile_ptx_with_opts};
use strided_layout::dlpack::{DLDataType, DLDevice, DLTensor, DlpackView};
use strided_layout::gpu::KernelLayout;
use strided_layout::{Layout, LayoutError, Operand, Order, copy};

const ROWS: usize = 1080;
const COLS: usize = 1920;

fn main() -> Result<(), Box<dyn Error>> {
    // 1. A producer (PyTorch, CuPy, ...) hands over the transposed view of a 1080 x 1920 f32
    //    image as a DLTensor: shape [1920, 1080], strides [1, 1920] elements.
    let host: Vec<f32> = (0..ROWS * COLS).map(|i| i as f32).collect();
    let (mut shape, mut strides) = ([COLS as i64, ROWS as i64], [1i64, COLS as i64]);
    let tensor = DLTensor {
        data: host.as_ptr().cast_mut().cast(),
        device: DLDevice {
            device_type: DLDevice::CPU,
            device_id: 0,
        },
        ndim: 2,
        dtype: DLDataType {
            code: DLDataType::FLOAT,
            bits: 32,
            lanes: 1,
        },
        shape: shape.as_mut_ptr(),
        strides: strides.as_mut_ptr(),
        byte_offset: 0,
    };
    // SAFETY: `shape` and `strides` hold `ndim` values each and outlive `view`.
    let view = unsafe { DlpackView::from_tensor(&tensor) }?;
    let src_layout: Layout<2> = view.to_layout()?;
    let dst_layout = Layout::dense(src_layout.shape(), 4, Order::C)?;

    // 2. Pack both layouts for 32-bit device math (refused, not wrapped, if they do not fit).
    let src_param = KernelLayout::<i32, 2>::from_layout(&src_layout)?;
    let dst_param = KernelLayout::<i32, 2>::from_layout(&dst_layout)?;
    let n = i32::try_from(src_layout.volume()).map_err(|_| LayoutError::IndexTypeOverflow)?;
    println!("source {src_layout}, destination {dst_layout}");
    println!(
        "KernelLayout<i32, 2>: {} bytes per parameter",
        size_of_val(&src_param)
    );

    // The expected result, on the host.
    let mut expected = vec![0f32; dst_layout.volume()];
    copy(&host, &src_layout, &mut expected, &dst_layout)?;

    // 3. The device: the driver and NVRTC are loaded at run time.
    // SAFETY: only probes whether the libraries can be loaded.
    let have_driver = unsafe { cudarc::driver::sys::is_culib_present() };
    // SAFETY: as above.
    let have_nvrtc = unsafe { cudarc::nvrtc::sys::is_culib_present() };
    if !have_driver || !have_nvrtc {
        println!("no CUDA device found (driver or NVRTC library missing): nothing launched");
        return Ok(());
    }
    let ctx = match CudaContext::new(0) {
        Ok(ctx) => ctx,
        Err(e) => {
            println!("no CUDA device found ({e}): nothing launched");
            return Ok(());
        }
    };
    let stream = ctx.default_stream();

    // 4. Compile the kernel: the header's text, then the kernel (whose include is guarded).
    let source = format!(
        "{}\n{}",
        strided_layout::gpu::KERNEL_HEADER,
        include_str!("../tests/cpp/strided_copy.cu")
    );
    let ptx = compile_ptx_with_opts(
        source,
        CompileOptions {
            options: vec!["-std=c++17".into()],
            ..Default::default()
        },
    )?;
    let module = ctx.load_module(ptx)?;
    let kernel = module.load_function("strided_copy_f32_2")?;

    // 5. Upload, launch (KernelLayout is passed by value: it is `DeviceRepr`), download. The
    //    kernel does no bounds checks: each device buffer must hold its layout's
    //    `required_len()` elements, checked here before the launch.
    let src_dev = stream.clone_htod(&host)?;
    let mut dst_dev = stream.alloc_zeros::<f32>(dst_layout.volume())?;
    for (len, layout, operand) in [
        (src_dev.len(), &src_layout, Operand::Source),
        (dst_dev.len(), &dst_layout, Operand::Destination),
    ] {
        let needed = layout.required_len()?;
        if len < needed {
            return Err(LayoutError::OffsetOutsideSlice {
                operand,
                needed,
                given: len,
            }
            .into());
        }
    }
    let mut launch = stream.launch_builder(&kernel);
    launch
        .arg(&src_dev)
        .arg(&src_param)
        .arg(&mut dst_dev)
        .arg(&dst_param)
        .arg(&n);
    let cfg = LaunchConfig {
        grid_dim: (1024, 1, 1),
        block_dim: (256, 1, 1),
        shared_mem_bytes: 0,
    };
    // SAFETY: the kernel's signature is (const float*, KernelLayout<int, 2>, float*,
    // KernelLayout<int, 2>, int), matching the arguments; every offset it computes lies in the
    // buffers because both layouts were validated and packed by the crate.
    unsafe { launch.launch(cfg) }?;
    let got = stream.clone_dtoh(&dst_dev)?;
    if got == expected {
        println!("device copy of the transposed view matches the host copy");
        Ok(())
    } else {
        Err("the device copy differs from the host copy".into())
    }
}
