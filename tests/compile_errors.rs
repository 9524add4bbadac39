//! The compiler's messages for the mistakes the crate turns into compile errors: each file
//! under `tests/compile_errors/` must fail `cargo check` with the message beside it (`.stderr`).
//!
//! Wrong output ranks of rank-changing transforms (a bound of `strided_layout::rank`, or a
//! type mismatch where the bound fixes the rank) and a failed `const` check are reported by
//! `cargo check` at the user's line, with the rule named. The messages are the pinned
//! toolchain's (`rust-toolchain.toml`): another compiler words them differently, so the test
//! runs only there (`STRIDED_LAYOUT_COMPILE_ERRORS=1` forces it elsewhere).
//!
//! It builds the crate again in a project of its own (about 10 s), so README's `cargo test`
//! leaves it out (`#[ignore]`) and `.ci/run` runs it:
//! `cargo test --test compile_errors -- --ignored`. After a deliberate change,
//! `TRYBUILD=overwrite cargo test --test compile_errors -- --ignored` rewrites the `.stderr`
//! files.

#[test]
#[ignore = "builds the crate again (about 10 s): run by .ci/run, or with -- --ignored"]
fn compile_errors_name_the_rule() {
    let pinned = std::env::var("RUSTUP_TOOLCHAIN").map_or(true, |t| t.starts_with("1.95"));
    if !pinned && std::env::var_os("STRIDED_LAYOUT_COMPILE_ERRORS").is_none() {
        eprintln!("SKIP: the messages are checked with the pinned toolchain only");
        return;
    }
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/compile_errors/*.rs");
}
