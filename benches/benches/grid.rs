//! The block grid: small blocks repeated, each kernel (`copy()`, `map`, `zip_map`) against the
//! plain odometer loop a newcomer writes, in one process. Where the randomised sweep
//! (`sweep.rs`) draws layouts at random, this one walks every block shape of 2 to 32 a side
//! in four ways of lying (blocks transposed one by one, read across the blocks, rows with a
//! gap after each, blocks flipped) for 1-, 2-, 4- and 8-byte elements, 16 Ki elements each
//! (in the first-level and second-level caches, so the kernels' per-block and per-row costs
//! show, not the memory's): it finds the cliffs of small blocks, a block kernel whose call
//! costs more than its elements (the 4 x 4 `f64` transposes, 0.55x the loop before their
//! rule) or rows whose set-up does (`map` of 3 x 3 blocks transposed, 0.3x).
//!
//! Run: `cargo bench -p strided-layout-bench --bench grid` (options after `--`: `--reps R`,
//! medians of R runs of ten calls each, 9 by default; `--total N` elements a case). It prints
//! every case where a kernel is slower than 0.91x the loop's speed, then per kernel the
//! geometric mean of the speed-ups, the slowest case and the number under 0.91x.

use std::hint::black_box;
use std::time::Instant;

use strided_layout::{Layout, copy, map, zip_map};

/// The median of `reps` timings (us) of ten calls of `f`.
fn time(reps: usize, mut f: impl FnMut()) -> f64 {
    let mut v: Vec<f64> = (0..reps)
        .map(|_| {
            let t = Instant::now();
            for _ in 0..10 {
                f();
            }
            t.elapsed().as_secs_f64() * 1e5
        })
        .collect();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// Every index of the `n x k1 x k2` shape, as offsets stepped by the plain loops (source,
/// destination).
fn odometer(
    [n, k1, k2]: [usize; 3],
    [so, dof]: [isize; 2],
    ss: [isize; 3],
    ds: [isize; 3],
    mut body: impl FnMut(usize, usize),
) {
    let mut o0 = [so, dof];
    for _ in 0..n {
        let mut o1 = o0;
        for _ in 0..k1 {
            let mut o2 = o1;
            for _ in 0..k2 {
                body(o2[0] as usize, o2[1] as usize);
                o2 = [o2[0] + ss[2], o2[1] + ds[2]];
            }
            o1 = [o1[0] + ss[1], o1[1] + ds[1]];
        }
        o0 = [o0[0] + ss[0], o0[1] + ds[0]];
    }
}

/// One case: its name, the speed-ups over the loop of `copy()`, `map` and `zip_map`.
struct Case {
    name: String,
    speedups: [f64; 3],
}

/// Times the three kernels and their loops on the shape `n x k1 x k2`, the source at `ss`
/// (offset `so`), the destination (and `zip_map`'s second source) at `ds` (offset `dof`).
#[allow(clippy::too_many_arguments)]
fn case<T>(
    name: &str,
    reps: usize,
    shape: [usize; 3],
    ss: [isize; 3],
    so: isize,
    ds: [isize; 3],
    dof: isize,
    len: usize,
) -> Case
where
    T: Copy + 'static + PartialEq + std::fmt::Debug + From<u8> + std::ops::Add<Output = T>,
{
    let size = size_of::<T>();
    let sl = Layout::new(shape, ss, size)
        .unwrap()
        .with_offset(so)
        .unwrap();
    let dl = Layout::new(shape, ds, size)
        .unwrap()
        .with_offset(dof)
        .unwrap();
    // Filled, so no page is the zero page.
    let src: Vec<T> = (0..len).map(|i| T::from((i % 251) as u8)).collect();
    let other: Vec<T> = (0..len).map(|i| T::from((i % 241) as u8)).collect();
    let mut dst = vec![T::from(1); len];
    let one = T::from(1);
    let offs = [so, dof];
    let t_copy = time(reps, || {
        copy(black_box(&src), &sl, black_box(&mut dst[..]), &dl).unwrap();
    });
    let want = dst.clone();
    let t_copy_loop = time(reps, || {
        let (s, d) = (black_box(&src), black_box(&mut dst));
        odometer(shape, offs, ss, ds, |a, b| d[b] = s[a]);
    });
    assert_eq!(dst, want, "{name}: copy");
    let t_map = time(reps, || {
        map(
            black_box(&src),
            &sl,
            black_box(&mut dst[..]),
            &dl,
            |x: T| x + one,
        )
        .unwrap();
    });
    let t_map_loop = time(reps, || {
        let (s, d) = (black_box(&src), black_box(&mut dst));
        odometer(shape, offs, ss, ds, |a, b| d[b] = s[a] + one);
    });
    let t_zip = time(reps, || {
        let (s, o) = (black_box(&src), black_box(&other));
        zip_map(
            s,
            &sl,
            o,
            &dl,
            black_box(&mut dst[..]),
            &dl,
            |x: T, y: T| x + y,
        )
        .unwrap();
    });
    let t_zip_loop = time(reps, || {
        let (s, o, d) = (black_box(&src), black_box(&other), black_box(&mut dst));
        odometer(shape, offs, ss, ds, |a, b| d[b] = s[a] + o[b]);
    });
    let [n, k1, k2] = shape;
    Case {
        name: format!("{name:9} {size}B {n:5} x {k1:2} x {k2:2}"),
        speedups: [t_copy_loop / t_copy, t_map_loop / t_map, t_zip_loop / t_zip],
    }
}

/// Every block shape of `SIDES` in four ways of lying, for `T`.
fn grid<T>(reps: usize, total: usize, out: &mut Vec<Case>)
where
    T: Copy + 'static + PartialEq + std::fmt::Debug + From<u8> + std::ops::Add<Output = T>,
{
    const SIDES: [usize; 9] = [2, 3, 4, 5, 7, 8, 12, 16, 32];
    for k1 in SIDES {
        for k2 in SIDES {
            let n = (total / (k1 * k2)).max(1);
            let (a, b, bb, ni) = (k1 as isize, k2 as isize, (k1 * k2) as isize, n as isize);
            let len = n * k1 * k2;
            let shape = [n, k1, k2];
            let dense = [bb, b, 1];
            // Blocks transposed one by one; read across the blocks (each block's rows `n`
            // apart); rows with a gap of one element after each; blocks flipped both ways.
            out.push(case::<T>(
                "transpose",
                reps,
                shape,
                [bb, 1, a],
                0,
                dense,
                0,
                len,
            ));
            out.push(case::<T>(
                "across",
                reps,
                shape,
                [1, ni, ni * a],
                0,
                dense,
                0,
                len,
            ));
            // A gap of one element after each row: the source spans `n · k1 · (k2 + 1)`.
            let gapped = [bb + a, b + 1, 1];
            let gap_len = n * k1 * (k2 + 1);
            out.push(case::<T>("gap", reps, shape, gapped, 0, dense, 0, gap_len));
            let flip = [bb, -b, -1];
            out.push(case::<T>("flip", reps, shape, flip, bb - 1, dense, 0, len));
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let opt = |name: &str| {
        args.iter()
            .position(|a| a == name)
            .and_then(|i| args.get(i + 1))
            .map(|v| v.parse::<usize>().unwrap())
    };
    let reps = opt("--reps").unwrap_or(9).max(1);
    let total = opt("--total").unwrap_or(16 << 10);
    let mut cases = Vec::new();
    grid::<u8>(reps, total, &mut cases);
    grid::<u16>(reps, total, &mut cases);
    grid::<f32>(reps, total, &mut cases);
    grid::<f64>(reps, total, &mut cases);
    let kernels = ["copy()", "map", "zip_map"];
    for c in &cases {
        for (k, &s) in kernels.iter().zip(&c.speedups) {
            if s < 0.91 {
                println!("{}  {k:8} {s:.2}x the loop's speed", c.name);
            }
        }
    }
    for (i, k) in kernels.iter().enumerate() {
        let v: Vec<f64> = cases.iter().map(|c| c.speedups[i]).collect();
        let geo = (v.iter().map(|s| s.ln()).sum::<f64>() / v.len() as f64).exp();
        let (worst, name) = cases
            .iter()
            .map(|c| (c.speedups[i], &c.name))
            .min_by(|x, y| x.0.total_cmp(&y.0))
            .unwrap();
        let under = v.iter().filter(|&&s| s < 0.91).count();
        println!(
            "{k:8} {} cases: geometric mean {geo:.2}x the loop, slowest {worst:.2}x ({name}), {under} under 0.91x",
            v.len()
        );
    }
}
