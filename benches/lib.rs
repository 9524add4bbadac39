//! The benchmarks of `strided-layout` live in `benches/` of this crate; this library is
//! empty. Run them with `cargo bench -p strided-layout-bench --bench <name>`.
//!
//! The rows of README's benchmark table are criterion groups named `table/<row>`, each with
//! the functions `ours`, `copy_from_slice` (the roofline: the same bytes, from a written
//! source), `naive` (the obvious index loop) and `ndarray` (where it has the operation).
//! `benches/table.py` runs them in the default build and with `--features std` and prints the
//! table of ratios to `copy_from_slice`.
