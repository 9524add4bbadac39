//! Facts about the element type `T` a kernel moves, decided by type (never by name).
//!
//! | fact | how it is decided | who relies on it |
//! | --- | --- | --- |
//! | `T` is *plain*: a primitive integer or float, every byte initialised, no padding | [`TypeId`] of `T` (hence `T: 'static`) against the primitives | the SIMD transposes, the byte-shuffle channel kernels and the streaming stores, which move `T`'s bytes through vector registers |
//! | `T` has the layout's size | `size_of::<T>() == itemsize` of every operand, checked before anything is written | every kernel: the layouts' offsets count elements of `T`, and tiles are sized from the itemsize |
//!
//! A `T` that is not plain (a struct, an array, a type with padding) takes the scalar paths:
//! correct, only slower. A `T` whose size is no itemsize (zero-sized types, and sizes that are
//! no power of two, such as a 3-byte `[u8; 3]` pixel) is refused with
//! [`LayoutError::ItemsizeMismatch`]: describe such data as bytes instead (a `u8` layout
//! with the pixel's bytes as an extra axis).

use core::any::TypeId;
use core::mem::size_of;

use crate::{LayoutError, Operand};

/// Whether `T` is a primitive integer or float: every byte initialised, no padding.
///
/// Decided by [`TypeId`], so a user type is never mistaken for a primitive, whatever its name.
/// The comparisons are of constants, folded away when the kernels are monomorphised.
#[inline]
pub(crate) fn is_plain<T: 'static>() -> bool {
    let t = TypeId::of::<T>();
    t == TypeId::of::<u8>()
        || t == TypeId::of::<i8>()
        || t == TypeId::of::<u16>()
        || t == TypeId::of::<i16>()
        || t == TypeId::of::<u32>()
        || t == TypeId::of::<i32>()
        || t == TypeId::of::<f32>()
        || t == TypeId::of::<u64>()
        || t == TypeId::of::<i64>()
        || t == TypeId::of::<f64>()
        || t == TypeId::of::<usize>()
        || t == TypeId::of::<isize>()
        || t == TypeId::of::<u128>()
        || t == TypeId::of::<i128>()
}

/// Checks that an operand's `itemsize` is `size_of::<T>()`.
///
/// # Errors
///
/// [`LayoutError::ItemsizeMismatch`] naming the operand and both sizes.
#[inline]
pub(crate) const fn check_itemsize<T>(
    operand: Operand,
    itemsize: usize,
) -> Result<(), LayoutError> {
    check_size(operand, itemsize, size_of::<T>())
}

/// Checks that an operand's `itemsize` is `element_size` (the `size_of` its slice's type).
///
/// # Errors
///
/// [`LayoutError::ItemsizeMismatch`] naming the operand and both sizes.
#[inline]
pub(crate) const fn check_size(
    operand: Operand,
    itemsize: usize,
    element_size: usize,
) -> Result<(), LayoutError> {
    if itemsize == element_size {
        Ok(())
    } else {
        Err(LayoutError::ItemsizeMismatch {
            operand,
            itemsize,
            element_size,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Clone, Copy)]
    #[expect(dead_code, reason = "only the type matters")]
    struct Padded(u8, u16);

    /// A user type named like a primitive: `type_name` would print `...::f32`, but a check by
    /// name on the last segment would take it for the float.
    mod lookalike {
        #[derive(Clone, Copy)]
        #[expect(non_camel_case_types, dead_code, reason = "the point of the test")]
        pub(super) struct f32(u8, u32);
    }

    #[test]
    fn plain_types_are_the_primitives_by_type() {
        assert!(is_plain::<f32>() && is_plain::<u8>() && is_plain::<i64>() && is_plain::<u128>());
        assert!(!is_plain::<Padded>() && !is_plain::<lookalike::f32>() && !is_plain::<[u8; 4]>());
        assert!(!is_plain::<bool>() && !is_plain::<char>());
    }

    #[test]
    fn itemsize_check_names_both_sizes() {
        assert_eq!(check_itemsize::<u32>(Operand::Source, 4), Ok(()));
        assert_eq!(
            check_itemsize::<i16>(Operand::Destination, 4),
            Err(LayoutError::ItemsizeMismatch {
                operand: Operand::Destination,
                itemsize: 4,
                element_size: 2,
            })
        );
        assert!(check_itemsize::<()>(Operand::Source, 1).is_err());
        assert!(check_itemsize::<[u8; 3]>(Operand::Source, 4).is_err());
    }
}
