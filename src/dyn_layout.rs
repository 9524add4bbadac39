//! [`DynLayout<MAX>`]: a layout whose rank is known only at run time, bounded by `MAX`.

/// A layout of rank at most `MAX`, stored inline (placeholder).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct DynLayout<const MAX: usize> {
    shape: [usize; MAX],
}
