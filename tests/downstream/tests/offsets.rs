//! The header as a dependent compiles it (build.rs: g++, and nvcc when there is one) computes
//! the offsets the crate computes, for plain and interleaved layouts of rank 1-4; and
//! `KERNEL_HEADER` is the file the `links` metadata points at.

use std::io::Write;
use std::process::{Command, Stdio};

use strided_layout::gpu::{KERNEL_HEADER, KernelLayout};
use strided_layout::{InterleaveLayout, InterleavedLayout, Layout, LayoutError, Order};

/// One input line for `cpp/offsets.cu`, and the offsets the crate expects, in C order.
fn case<const N: usize>(k: &KernelLayout<i32, N>, offsets: Vec<isize>) -> (String, Vec<isize>) {
    let words: Vec<String> = k.words().map(|w| w.to_string()).collect();
    (format!("{N} {}\n", words.join(" ")), offsets)
}

fn c_order<const N: usize>(shape: [usize; N]) -> Vec<[usize; N]> {
    let volume: usize = shape.iter().product();
    (0..volume)
        .map(|mut t| {
            let mut ix = [0; N];
            for k in (0..N).rev() {
                ix[k] = t % shape[k];
                t /= shape[k];
            }
            ix
        })
        .collect()
}

fn plain<const N: usize>(l: Layout<N>) -> Result<(String, Vec<isize>), LayoutError> {
    let offsets = c_order(l.shape())
        .into_iter()
        .map(|i| l.offset_of(i))
        .collect::<Result<_, _>>()?;
    Ok(case(&KernelLayout::<i32, N>::from_layout(&l)?, offsets))
}

fn interleaved<const N: usize>(
    l: InterleavedLayout<N>,
) -> Result<(String, Vec<isize>), LayoutError> {
    let offsets = c_order(l.shape())
        .into_iter()
        .map(|i| l.offset_of(i))
        .collect::<Result<_, _>>()?;
    Ok(case(
        &KernelLayout::<i32, N>::from_interleaved(&l)?,
        offsets,
    ))
}

fn cases() -> Result<Vec<(String, Vec<isize>)>, LayoutError> {
    let chw = Layout::dense([3, 4, 5], 4, Order::C)?;
    Ok(vec![
        plain(Layout::new([7], [-2], 4)?.with_offset(12)?)?,
        plain(Layout::dense([4, 6], 4, Order::F)?)?,
        plain(chw.permuted([2, 0, 1])?.flipped(1)?)?,
        plain(Layout::dense([2, 3, 4, 5], 2, Order::C)?.transposed(1, 3)?)?,
        interleaved(InterleavedLayout::dense(
            [3, 4, 5],
            1,
            InterleaveLayout::new(0, 3)?,
        )?)?,
        interleaved(InterleavedLayout::dense(
            [2, 10, 3, 3],
            4,
            InterleaveLayout::new(1, 4)?,
        )?)?,
        interleaved(InterleavedLayout::dense(
            [6, 5],
            4,
            InterleaveLayout::new(1, 2)?,
        )?)?,
    ])
}

/// Runs the program build.rs compiled, or says SKIP when it could not (`program` empty).
fn run_or_skip(program: &str, missing: &str) -> Result<(), LayoutError> {
    if program.is_empty() {
        println!("SKIP: {missing} when build.rs ran");
        return Ok(());
    }
    run(program)
}

fn run(program: &str) -> Result<(), LayoutError> {
    let cases = cases()?;
    let mut child = Command::new(program)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("run the program build.rs compiled");
    let input: String = cases.iter().map(|(line, _)| line.as_str()).collect();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{program} failed");
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), cases.len(), "{program}: one line per layout");
    for ((line, want), got) in cases.iter().zip(lines) {
        let got: Vec<isize> = got.split_whitespace().map(|w| w.parse().unwrap()).collect();
        assert_eq!(&got, want, "{program}: layout {line}");
    }
    Ok(())
}

#[test]
fn the_header_compiled_by_g_plus_plus_agrees_with_the_crate() -> Result<(), LayoutError> {
    run_or_skip(
        env!("DOWNSTREAM_OFFSETS_CXX"),
        "no C++ compiler ($CXX or g++)",
    )
}

#[test]
fn the_header_compiled_by_nvcc_agrees_with_the_crate() -> Result<(), LayoutError> {
    let missing = "no nvcc (set NVCC, or nvcc on PATH: pip install nvidia-cuda-nvcc)";
    run_or_skip(env!("DOWNSTREAM_OFFSETS_NVCC"), missing)
}

#[test]
fn kernel_header_is_the_file_the_links_metadata_names() {
    let dir = std::path::Path::new(env!("DOWNSTREAM_INCLUDE"));
    let file = std::fs::read_to_string(dir.join("strided_layout.h")).unwrap();
    assert_eq!(file, KERNEL_HEADER);
}
