//! Display: CuTe `shape:stride` notation and offset grids.
