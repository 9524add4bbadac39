//! The benchmarks of `strided-layout` live in `benches/` of this crate; this library is
//! empty. Run them with `cargo bench -p strided-layout-bench --bench <name>`.
//!
//! The rows of README's benchmark table are criterion groups named `table/<row>`, each with
//! the functions `ours`, `copy_from_slice` (the roofline: the same bytes, from a written
//! source), `naive` (the obvious index loop) and `ndarray` (where it has the operation).
//! `benches/table.py` runs them and prints the table of ratios to `copy_from_slice`.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput};
use std::time::Duration;

/// A criterion group of the memory-bound cases: throughput in `bytes` (read plus written),
/// 10 samples after a 0.5 s warm-up, about 2 s of measurement (each case moves megabytes,
/// so that is a few hundred iterations).
pub fn group<'a>(c: &'a mut Criterion, name: &str, bytes: usize) -> BenchmarkGroup<'a, WallTime> {
    let mut g = c.benchmark_group(name);
    g.throughput(Throughput::Bytes(bytes as u64));
    g.sample_size(10);
    g.warm_up_time(Duration::from_millis(500));
    g.measurement_time(Duration::from_secs(2));
    g
}
