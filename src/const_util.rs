//! Compile-time helpers: [`const_unwrap`] and [`const_layout!`](crate::const_layout).
//!
//! A layout built in a `const` item is checked by the compiler: an `Err` becomes a build
//! error that carries [`LayoutError::as_str`]'s message, and properties can be asserted with
//! `static_assertions::const_assert!`:
//!
//! ```
//! use strided_layout::{const_unwrap, Layout, Order};
//! const IMG: Layout<3> = const_unwrap(Layout::dense([3, 480, 640], 1, Order::C));
//! static_assertions::const_assert!(IMG.is_contiguous_c());
//! static_assertions::const_assert!(IMG.volume() == 3 * 480 * 640);
//! ```

use crate::LayoutError;

/// Unwraps a layout result in a `const` item or `const` block; an `Err` fails the build
/// with the error's message.
///
/// This is the one function of the crate that can panic, and only by design: it exists to
/// turn an error into a compile error, which is a panic during const evaluation. Called at
/// run time with an `Err`, it panics like `Result::unwrap`; there, use `?` instead, or the
/// [`const_layout!`](crate::const_layout) macro, which is always evaluated at compile time.
///
/// # Panics
///
/// If `result` is an `Err` (at compile time: a build error naming the rule).
///
/// # Examples
///
/// ```
/// use strided_layout::{const_unwrap, Layout, Order};
/// const L: Layout<2> = const_unwrap(Layout::dense([2, 3], 4, Order::C));
/// assert_eq!(L.strides(), [3, 1]);
/// ```
#[must_use]
#[track_caller]
pub const fn const_unwrap<T: Copy>(result: Result<T, LayoutError>) -> T {
    match result {
        Ok(v) => v,
        #[allow(clippy::panic)] // the purpose of this function: a const-eval error
        Err(e) => panic!("{}", e.as_str()),
    }
}

/// Evaluates a `Result<_, LayoutError>` expression at compile time and unwraps it; an `Err`
/// fails the build with the error's message. Never panics at run time: the expression is
/// evaluated in an inline `const` block.
///
/// # Examples
///
/// ```
/// use strided_layout::{const_layout, Layout, Order};
/// let hwc = const_layout!(Layout::dense([480, 640, 3], 1, Order::C));
/// assert_eq!(hwc.strides(), [1920, 3, 1]);
/// ```
#[macro_export]
macro_rules! const_layout {
    ($e:expr) => {
        const { $crate::const_unwrap($e) }
    };
}
