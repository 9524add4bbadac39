//! Compile-time helpers.

use crate::{Layout, LayoutError};

/// Unwraps a layout result in a `const` item; an error fails the build with its message.
///
/// # Panics
///
/// Meant for `const` evaluation only, where a panic is a compile error.
#[must_use]
pub const fn const_unwrap<const N: usize>(r: Result<Layout<N>, LayoutError>) -> Layout<N> {
    match r {
        Ok(l) => l,
        #[allow(clippy::panic)]
        Err(e) => panic!("{}", e.as_str()),
    }
}
