//! `compile_fail` doctests: things the compiler must reject.
