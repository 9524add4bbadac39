//! The benchmarks of `strided-layout` live in `benches/` of this crate; this library is
//! empty. Run them with `cargo bench -p strided-layout-bench --bench <name>`.
