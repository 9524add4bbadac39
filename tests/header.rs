//! `include/strided_layout.h` against the crate: a C++ program (`tests/cpp/header_check.cpp`)
//! includes the header, reads thousands of random `KernelLayout<i32 | i64, 1..=4>` values as the
//! raw bytes Rust lays out (plain and interleaved, some at the edges of `i32`), and answers
//! `volume`, `offset_of`, `offset_of_linear` and `checked_offset_of` queries; every answer must
//! equal the Rust `KernelLayout`'s, and for in-range indices the `Layout` /
//! `InterleavedLayout` offset.
//!
//! Needs a C++17 compiler (`$CXX`, else `g++`, `clang++` or `c++`); without one the test prints
//! `SKIP` and passes. Run: `cargo test --test suite -- header:: --nocapture` (prints the case
//! counts).
#![cfg(not(miri))]

use std::path::{Path, PathBuf};
use std::process::Command;

use strided_layout::gpu::{KernelLayout, KernelNestedLayout};
use strided_layout::nested::NestedLayout;
use strided_layout::{InterleaveLayout, InterleavedLayout, Layout};

/// A C++ compiler that answers `--version`, or `None`.
fn compiler() -> Option<String> {
    let env = std::env::var("CXX").ok();
    let candidates = env
        .into_iter()
        .chain(["g++", "clang++", "c++"].map(String::from));
    candidates.into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    })
}

/// Compiles the checker with warnings as errors into `name` (one binary per test: the tests
/// run in parallel); returns the binary's path.
fn build(cxx: &str, name: &str) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let exe = Path::new(env!("CARGO_TARGET_TMPDIR")).join(name);
    let out = Command::new(cxx)
        .args([
            "-std=c++17",
            "-O2",
            "-Wall",
            "-Wextra",
            "-Wpedantic",
            "-Werror",
            "-I",
        ])
        .arg(root.join("include"))
        .arg(root.join("tests/cpp/header_check.cpp"))
        .arg("-o")
        .arg(&exe)
        .output()
        .expect("run the C++ compiler");
    assert!(
        out.status.success(),
        "the header does not compile:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    exe
}

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo + 1) as u64) as i64
    }
}

/// `bytemuck::Pod` when the feature is on (to compare `words()` with the struct's bytes).
#[cfg(feature = "bytemuck")]
trait PodIf: bytemuck::Pod {}
#[cfg(feature = "bytemuck")]
impl<T: bytemuck::Pod> PodIf for T {}
#[cfg(not(feature = "bytemuck"))]
trait PodIf {}
#[cfg(not(feature = "bytemuck"))]
impl<T> PodIf for T {}

/// The index types the header test covers.
trait Word: Copy + PartialEq + std::fmt::Debug + strided_layout::gpu::KernelIndex + PodIf {
    const CODE: u32;
    fn put(self, out: &mut Vec<u8>);
    fn get(bytes: &[u8]) -> Self;
    fn of(v: i128) -> Option<Self>;
    fn wide(self) -> i128;
}
macro_rules! word {
    ($t:ty, $code:expr) => {
        impl Word for $t {
            const CODE: u32 = $code;
            fn put(self, out: &mut Vec<u8>) {
                out.extend_from_slice(&self.to_ne_bytes());
            }
            fn get(bytes: &[u8]) -> Self {
                <$t>::from_ne_bytes(bytes.try_into().unwrap())
            }
            fn of(v: i128) -> Option<Self> {
                <$t>::try_from(v).ok()
            }
            fn wide(self) -> i128 {
                self.into()
            }
        }
    };
}
word!(i32, 0);
word!(i64, 1);

/// One packed layout with its queries and the answers Rust expects.
struct Case<I> {
    volume: I,
    /// offset_of, offset_of_linear, checked flag, checked offset.
    answers: Vec<[I; 6]>,
}

/// Appends the record of `k` and its queries to `input`; returns what the header must answer.
/// `model(index)` is the crate's offset for an in-range index.
fn record<I: Word, const N: usize>(
    rng: &mut Rng,
    k: &KernelLayout<I, N>,
    shape: [usize; N],
    model: impl Fn([usize; N]) -> isize,
    input: &mut Vec<u8>,
) -> Case<I> {
    let volume: usize = shape.iter().product();
    // In-range queries: every index of a small layout, else 48 random ones; then out-of-range
    // probes (an index at the extent or at -1 on one axis), whose answers must still match
    // Rust bit for bit.
    let mut queries: Vec<([i128; N], i128)> = Vec::new();
    let c_order = |ix: [usize; N]| ix.iter().zip(&shape).fold(0usize, |t, (&i, &e)| t * e + i);
    if volume > 0 {
        let n = volume.min(48);
        for q in 0..n {
            let t = if volume <= 48 {
                q
            } else {
                rng.below(volume as u64) as usize
            };
            let mut ix = [0usize; N];
            let mut rest = t;
            for a in (0..N).rev() {
                ix[a] = rest % shape[a];
                rest /= shape[a];
            }
            assert_eq!(c_order(ix), t);
            queries.push((ix.map(|i| i as i128), t as i128));
        }
    }
    for a in 0..N {
        for bad in [shape[a] as i128, -1] {
            let mut ix = [0i128; N];
            ix[a] = bad;
            queries.push((ix, rng.below(volume.max(1) as u64) as i128));
        }
    }
    let queries: Vec<([I; N], I)> = queries
        .into_iter()
        .filter_map(|(ix, t)| {
            let mut out = [I::zero(); N];
            for (o, v) in out.iter_mut().zip(ix) {
                *o = I::of(v)?;
            }
            Some((out, I::of(t)?))
        })
        .collect();

    input.extend_from_slice(&I::CODE.to_ne_bytes());
    input.extend_from_slice(&(N as u32).to_ne_bytes());
    input.extend_from_slice(&(queries.len() as u32).to_ne_bytes());
    let start = input.len();
    for w in k.words() {
        w.put(input);
    }
    assert_eq!(
        input.len() - start,
        std::mem::size_of::<KernelLayout<I, N>>()
    );
    #[cfg(feature = "bytemuck")]
    assert_eq!(
        &input[start..],
        bytemuck::bytes_of(k),
        "words() are the struct's bytes"
    );

    let mut answers = Vec::new();
    for (ix, t) in &queries {
        ix.iter().for_each(|&i| i.put(input));
        t.put(input);
        let checked = k.checked_offset_of(*ix);
        let in_range = ix
            .iter()
            .zip(&shape)
            .all(|(&i, &e)| i >= I::zero() && i.wide() < e as i128);
        if in_range {
            let want = model(ix.map(|i| i.wide() as usize)) as i128;
            assert_eq!(k.offset_of(*ix).wide(), want, "Rust offset_of");
            assert_eq!(k.offset_of_linear(*t).wide(), want, "Rust offset_of_linear");
            assert_eq!(checked.map(Word::wide), Some(want));
        } else {
            assert_eq!(checked, None);
        }
        answers.push([
            k.offset_of(*ix),
            k.offset_of_linear(*t),
            if checked.is_some() {
                I::one()
            } else {
                I::zero()
            },
            checked.unwrap_or_else(I::zero),
            // `is_plain()`, and `as_plain().offset_of_linear(t)` for a plain layout (0 else).
            if k.as_plain().is_some() {
                I::one()
            } else {
                I::zero()
            },
            k.as_plain()
                .map_or_else(I::zero, |p| p.offset_of_linear(*t)),
        ]);
    }
    Case {
        volume: k.volume(),
        answers,
    }
}

/// Random parts: mostly small extents and strides, sometimes large ones (near the `i32` edge).
fn parts<const N: usize>(rng: &mut Rng) -> ([usize; N], [isize; N], isize) {
    let big = rng.below(5) == 0;
    let shape = std::array::from_fn(|_| {
        if big && rng.below(2) == 0 {
            rng.range(1, 3000) as usize
        } else {
            rng.range(0, 6) as usize
        }
    });
    let strides = std::array::from_fn(|_| {
        if big {
            rng.range(-(1 << 20), 1 << 20) as isize
        } else {
            rng.range(-12, 12) as isize
        }
    });
    let offset = if big && rng.below(2) == 0 {
        // Near i32::MAX or i32::MIN: only layouts whose offsets all fit i32 pack into i32.
        let edge = if rng.below(2) == 0 {
            i32::MAX as i64
        } else {
            i32::MIN as i64
        };
        (edge - rng.range(-(1 << 22), 1 << 22)) as isize
    } else {
        rng.range(-1000, 1000) as isize
    };
    (shape, strides, offset)
}

#[derive(Default)]
struct Counts {
    layouts: usize,
    interleaved: usize,
    refused: usize,
    queries: usize,
}

fn cases<I: Word, const N: usize>(
    rng: &mut Rng,
    count: usize,
    input: &mut Vec<u8>,
    expected: &mut Vec<Case<I>>,
    counts: &mut Counts,
) {
    let mut made = 0;
    while made < count {
        let (shape, strides, offset) = parts::<N>(rng);
        if rng.below(2) == 0 {
            let Ok(l) = Layout::new(shape, strides, 4).and_then(|l| l.with_offset(offset)) else {
                continue;
            };
            let Ok(k) = KernelLayout::<I, N>::try_from(&l) else {
                counts.refused += 1;
                continue;
            };
            let case = record(rng, &k, shape, |ix| l.offset_of(ix).unwrap(), input);
            counts.queries += case.answers.len();
            expected.push(case);
        } else {
            let d = rng.below(N as u64) as usize;
            let f = rng.range(2, 5) as usize;
            let il = InterleaveLayout::new(d, f).unwrap();
            let built = if rng.below(3) == 0 {
                InterleavedLayout::dense(shape, 4, il)
            } else {
                InterleavedLayout::new(shape, strides, 4, il)
            };
            let Ok(l) = built.and_then(|l| l.with_offset(offset)) else {
                continue;
            };
            let Ok(k) = KernelLayout::<I, N>::try_from(&l) else {
                counts.refused += 1;
                continue;
            };
            let case = record(rng, &k, shape, |ix| l.offset_of(ix).unwrap(), input);
            counts.queries += case.answers.len();
            counts.interleaved += 1;
            expected.push(case);
        }
        counts.layouts += 1;
        made += 1;
    }
}

fn compare<I: Word>(out: &[u8], pos: &mut usize, expected: &[Case<I>]) -> usize {
    let w = std::mem::size_of::<I>();
    let mut take = || {
        let v = I::get(&out[*pos..*pos + w]);
        *pos += w;
        v
    };
    let mut n = 0;
    for (c, case) in expected.iter().enumerate() {
        assert_eq!(take(), case.volume, "volume of case {c}");
        for (q, want) in case.answers.iter().enumerate() {
            let got = [take(), take(), take(), take(), take(), take()];
            assert_eq!(
                &got, want,
                "case {c}, query {q}: [offset_of, linear, checked?, checked, plain?, plain linear]"
            );
            n += 1;
        }
    }
    n
}

#[test]
fn header_matches_the_crate_on_random_plain_and_interleaved_layouts() {
    let Some(cxx) = compiler() else {
        println!("SKIP: no C++ compiler ($CXX, g++, clang++, c++); strided_layout.h not checked");
        return;
    };
    let exe = build(&cxx, "header_check");
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut counts = Counts::default();
    // One input file per index type keeps the expected answers typed; ranks 1..=4 in each.
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    let per_rank = 600;
    macro_rules! run {
        ($t:ty) => {{
            let (mut input, mut expected) = (Vec::new(), Vec::<Case<$t>>::new());
            // Interleave `cases` for the four ranks into one file of typed records.
            let mut e1 = Vec::new();
            let mut e2 = Vec::new();
            let mut e3 = Vec::new();
            let mut e4 = Vec::new();
            let (mut i1, mut i2, mut i3, mut i4) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            cases::<$t, 1>(&mut rng, per_rank, &mut i1, &mut e1, &mut counts);
            cases::<$t, 2>(&mut rng, per_rank, &mut i2, &mut e2, &mut counts);
            cases::<$t, 3>(&mut rng, per_rank, &mut i3, &mut e3, &mut counts);
            cases::<$t, 4>(&mut rng, per_rank, &mut i4, &mut e4, &mut counts);
            for (i, e) in [(i1, e1), (i2, e2), (i3, e3), (i4, e4)] {
                input.extend(i);
                expected.extend(e);
            }
            let name = stringify!($t);
            let (inp, outp) = (
                dir.join(format!("header_{name}.in")),
                dir.join(format!("header_{name}.out")),
            );
            std::fs::write(&inp, &input).unwrap();
            let run = Command::new(&exe).arg(&inp).arg(&outp).output().unwrap();
            assert!(
                run.status.success(),
                "{}",
                String::from_utf8_lossy(&run.stderr)
            );
            let out = std::fs::read(&outp).unwrap();
            let mut pos = 0;
            let n = compare(&out, &mut pos, &expected);
            assert_eq!(pos, out.len(), "the header wrote more than expected");
            n
        }};
    }
    let n32 = run!(i32);
    let n64 = run!(i64);
    println!(
        "header ({cxx}): {} layouts ({} interleaved, {} refused by the index type), \
         {} queries x 6 answers compared (i32: {n32}, i64: {n64})",
        counts.layouts, counts.interleaved, counts.refused, counts.queries
    );
    assert_eq!(counts.layouts, 2 * 4 * per_rank);
    assert!(
        counts.interleaved > 1000 && counts.refused > 10,
        "the generator covers both kinds"
    );
}

/// One packed nested layout with its queries and the answers Rust gives.
struct NestedCase<I> {
    size: I,
    /// offset_of, offset_of_linear, checked flag, checked offset, is_current.
    answers: Vec<[I; 5]>,
}

/// Appends the record of `n` packed as `KernelNestedLayout<I, N, B>` (if it packs) and 12
/// queries (coordinates in range, some past a mode's size or negative; 1-D coordinates in
/// range); returns the answers Rust gives, each in-range one checked against the layout's own.
fn nested_record<I: Word, const N: usize, const B: usize>(
    rng: &mut Rng,
    n: &NestedLayout<8>,
    input: &mut Vec<u8>,
) -> Option<NestedCase<I>> {
    let k = KernelNestedLayout::<I, N, B>::try_from(n).ok()?;
    let size = n.size();
    if size == 0 {
        return None;
    }
    input.extend_from_slice(&(I::CODE + 2).to_ne_bytes());
    input.extend_from_slice(&(N as u32 | (B as u32) << 8).to_ne_bytes());
    input.extend_from_slice(&12u32.to_ne_bytes());
    let words: Vec<I> = k.words().collect();
    #[cfg(feature = "bytemuck")]
    {
        let mut raw = Vec::new();
        words.iter().for_each(|w| w.put(&mut raw));
        assert_eq!(bytemuck::bytes_of(&k), &raw[..], "words() are the bytes");
    }
    words.iter().for_each(|w| w.put(input));
    let sizes: Vec<i128> = k.sizes().iter().map(|s| s.wide()).collect();
    let mut answers = Vec::new();
    for q in 0..12 {
        let index: [I; N] = std::array::from_fn(|j| {
            let s = sizes[j] as i64;
            let v = match (q % 6, rng.below(4)) {
                (5, 0) => s,
                (5, 1) => -1,
                _ => rng.range(0, s - 1),
            };
            I::of(v as i128).unwrap()
        });
        let linear = I::of(rng.below(size as u64) as i128).unwrap();
        index.iter().for_each(|i| i.put(input));
        linear.put(input);
        let checked = k.checked_offset_of(index);
        if let Some(o) = checked {
            let ix: Vec<usize> = index.iter().map(|i| i.wide() as usize).collect();
            if let Ok(want) = n.offset_of(&ix) {
                assert_eq!(o.wide(), want as i128, "{n} at {ix:?}");
            }
        }
        let want = n.offset_of_linear(linear.wide() as usize).unwrap();
        assert_eq!(k.offset_of_linear(linear).wide(), want as i128, "{n}");
        let bit = |b: bool| I::of(i128::from(b)).unwrap();
        answers.push([
            k.offset_of(index),
            k.offset_of_linear(linear),
            bit(checked.is_some()),
            checked.unwrap_or(I::of(0).unwrap()),
            bit(k.is_current()),
        ]);
    }
    Some(NestedCase {
        size: k.size(),
        answers,
    })
}

/// `KernelNestedLayout` in the header against the crate: every layout of the CuTe corpus and
/// every oneDNN format of rank 1 to 4 (several blocked modes, an axis blocked twice, partial
/// last blocks), packed in `i32` and `i64` with as few leaves per mode as fit (1 to 3), 12
/// queries each.
#[test]
fn header_matches_the_crate_on_nested_layouts() {
    let Some(cxx) = compiler() else {
        println!("SKIP: no C++ compiler ($CXX, g++, clang++, c++); strided_layout.h not checked");
        return;
    };
    let exe = build(&cxx, "header_check_nested");
    let mut layouts: Vec<NestedLayout<8>> = include_str!("data/cute_nested.tsv")
        .lines()
        .skip(1)
        .map(|l| l.split('\t').next().unwrap().parse().unwrap())
        .collect();
    let cute = layouts.len();
    for line in include_str!("data/onednn_formats.tsv").lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let dims: Vec<usize> = f[1].split(',').map(|d| d.parse().unwrap()).collect();
        if let Ok(n) = NestedLayout::<8>::onednn(f[0], &dims, 4) {
            layouts.push(n);
        }
    }
    let mut rng = Rng(0x2545_f491_4f6c_dd1d);
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
    macro_rules! run {
        ($t:ty) => {{
            let (mut input, mut expected) = (Vec::new(), Vec::<NestedCase<$t>>::new());
            for n in &layouts {
                macro_rules! leaves {
                    ($r:literal) => {
                        nested_record::<$t, $r, 1>(&mut rng, n, &mut input)
                            .or_else(|| nested_record::<$t, $r, 2>(&mut rng, n, &mut input))
                            .or_else(|| nested_record::<$t, $r, 3>(&mut rng, n, &mut input))
                    };
                }
                let case = match n.rank() {
                    1 => leaves!(1),
                    2 => leaves!(2),
                    3 => leaves!(3),
                    4 => leaves!(4),
                    _ => None,
                };
                expected.extend(case);
            }
            let name = stringify!($t);
            let (inp, outp) = (
                dir.join(format!("header_nested_{name}.in")),
                dir.join(format!("header_nested_{name}.out")),
            );
            std::fs::write(&inp, &input).unwrap();
            let run = Command::new(&exe).arg(&inp).arg(&outp).output().unwrap();
            assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
            let out = std::fs::read(&outp).unwrap();
            let w = std::mem::size_of::<$t>();
            let mut pos = 0;
            let mut take = || {
                let v = <$t as Word>::get(&out[pos..pos + w]);
                pos += w;
                v
            };
            for (c, case) in expected.iter().enumerate() {
                assert_eq!(take(), case.size, "size of case {c}");
                for (q, want) in case.answers.iter().enumerate() {
                    let got = [take(), take(), take(), take(), take()];
                    assert_eq!(
                        &got, want,
                        "case {c}, query {q}: [offset_of, linear, checked?, checked, current?]"
                    );
                }
            }
            assert_eq!(pos, out.len(), "the header wrote more than expected");
            expected.len()
        }};
    }
    let n32 = run!(i32);
    let n64 = run!(i64);
    println!(
        "nested header ({cxx}): {} layouts ({cute} CuTe's, the rest oneDNN formats), \
         packed and compared: i32 {n32}, i64 {n64}",
        layouts.len()
    );
    assert!(n64 >= 9_800 && n32 >= 9_800, "{n32} / {n64} packed");
}
