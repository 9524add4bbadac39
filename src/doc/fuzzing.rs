//! Fuzzing: the three `cargo fuzz` targets, how to run them, and what they found.
//!
//! `fuzz/` is a separate crate (its own workspace, outside CI and outside `cargo test`) with three
//! [`cargo fuzz`](https://github.com/rust-fuzz/cargo-fuzz) targets, each checking every result
//! against a naive reference model (offsets by enumeration in `i128`; corners for large layouts):
//!
//! | target | what it does |
//! | --- | --- |
//! | `construct` | `Layout::new(..)?.with_offset(..)` on small and extreme parts: succeeds exactly when the invariants hold (else the documented error, in check order); every query of the result matches the model |
//! | `chain` | a layout, then up to 8 steps among `permuted`, `transposed`, `flipped`, `narrowed`, `sliced`, `to_dense`, `unsqueezed`, `selected`, `broadcast_to`, `reshaped`, `squeezed`, `flattened`: each result's shape and offsets match the model's index map, each refusal has the documented cause |
//! | `kernel_param` | `KernelLayout::<I, N>::try_from` (the `from_layout` packing) for `I` in `i8`..`u64`: accepted exactly when everything fits `I`; `offset_of`, `offset_of_linear`, `checked_offset_of` match the model; arbitrary bytes never panic the device math |
//!
//! ```text
//! cargo install cargo-fuzz                      # once; the targets need nightly
//! cd fuzz
//! cargo +nightly fuzz run -O construct    -- -max_total_time=60
//! cargo +nightly fuzz run -O chain        -- -max_total_time=90
//! cargo +nightly fuzz run -O kernel_param -- -max_total_time=60
//! ```
//!
//! Last run (one core each, `x86_64`, nightly 2026-05-19, the commands above): `construct`
//! ran 291,584 inputs, `chain` 197,076, `kernel_param` 254,799; one finding, in `construct`:
//! `offset_of` (and `selected`) refused an index past `isize::MAX` on a stride-0 axis with
//! `OffsetOverflow`. Fixed (`checked::advance` skips zero strides and sums in `i128`);
//! `tests/limits_32bit.rs` and `tests/edges.rs` keep it fixed, and the harness checks that case
//! again.
