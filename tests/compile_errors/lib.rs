//! The compiler's messages for the mistakes strided-layout turns into compile errors: each
//! file under `cases/` must fail `cargo check` with the message beside it (`.stderr`).
//!
//! Wrong output ranks of rank-changing transforms (a bound of `strided_layout::rank`, or a
//! type mismatch where the bound fixes the rank) and a failed `const` check are reported by
//! `cargo check` at the user's line, with the rule named. The messages are the pinned
//! toolchain's (`rust-toolchain.toml`): another compiler words them differently, so the test
//! runs only there (`STRIDED_LAYOUT_COMPILE_ERRORS=1` forces it elsewhere).
//!
//! It builds strided-layout again in a project of its own, so it lives in a crate of its own,
//! outside README's `cargo test`: `cargo test -p strided-layout-compile-errors` (`.ci/run`
//! runs it). After a deliberate change,
//! `TRYBUILD=overwrite cargo test -p strided-layout-compile-errors` rewrites the `.stderr`
//! files.

#[cfg(test)]
mod tests {
    #[test]
    fn compile_errors_name_the_rule() {
        let pinned = std::env::var("RUSTUP_TOOLCHAIN").map_or(true, |t| t.starts_with("1.95"));
        if !pinned && std::env::var_os("STRIDED_LAYOUT_COMPILE_ERRORS").is_none() {
            eprintln!("SKIP: the messages are checked with the pinned toolchain only");
            return;
        }
        let t = trybuild::TestCases::new();
        t.compile_fail("cases/*.rs");
    }
}
