//! With `defmt`, link defmt's linker script (it places the interned log strings).
fn main() {
    if std::env::var_os("CARGO_FEATURE_DEFMT").is_some() {
        println!("cargo::rustc-link-arg=-Tdefmt.x");
    }
}
