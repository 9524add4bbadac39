//! The reference model: the naive meaning of a layout, by enumeration, and proptest
//! strategies for small layouts. Every query and transform is checked against this.
#![allow(dead_code, clippy::cast_possible_wrap, clippy::cast_sign_loss)]

use proptest::prelude::*;
use strided_layout::Layout;

pub mod small_scope;

/// Every index of `shape` in logical C order (last axis fastest).
pub fn indices(shape: &[usize]) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    for_each_index(shape, |ix| out.push(ix.to_vec()));
    out
}

/// Calls `f` with every index of `shape` in logical C order (last axis fastest), as
/// [`indices`] lists them, in one buffer: no allocation an index, which under Miri cost the
/// tests more than the kernels they check.
pub fn for_each_index(shape: &[usize], mut f: impl FnMut(&[usize])) {
    if shape.contains(&0) {
        return;
    }
    let mut idx = vec![0usize; shape.len()];
    loop {
        f(&idx);
        let mut k = shape.len();
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            idx[k] += 1;
            if idx[k] < shape[k] {
                break;
            }
            idx[k] = 0;
        }
    }
}

/// `offset + Σ i_k · s_k` in i128, so the model itself cannot overflow. (A plain loop: the
/// models call it for every element, under Miri too, and an iterator chain took twice the
/// instructions unoptimised.)
pub fn offset_of_model(strides: &[isize], offset: isize, index: &[usize]) -> i128 {
    assert_eq!(
        index.len(),
        strides.len(),
        "offset_of_model: one index per stride"
    );
    let mut off = offset as i128;
    let mut k = 0;
    while k < index.len() {
        off += index[k] as i128 * strides[k] as i128;
        k += 1;
    }
    off
}

/// Every element offset of `shape`/`strides`/`offset`, in logical C order.
pub fn offsets_raw(shape: &[usize], strides: &[isize], offset: isize) -> Vec<i128> {
    let mut out = Vec::new();
    for_each_index(shape, |ix| out.push(offset_of_model(strides, offset, ix)));
    out
}

/// Every element offset of `l`, in logical C order.
pub fn offsets<const N: usize>(l: &Layout<N>) -> Vec<i128> {
    offsets_raw(&l.shape(), &l.strides(), l.offset())
}

/// Whether no two indices share an offset, by sorting every offset.
pub fn unique_model(offs: &[i128]) -> bool {
    let mut v = offs.to_vec();
    v.sort_unstable();
    v.windows(2).all(|w| w[0] != w[1])
}

/// The smallest and largest offsets, `None` when there is no element.
pub fn bounds_model(offs: &[i128]) -> Option<(i128, i128)> {
    Some((*offs.iter().min()?, *offs.iter().max()?))
}

/// Raw parts of a small rank-`N` layout: extents 0..=4, strides -6..=6 (0 included),
/// offset -40..=40, itemsize 1, 2, 4 or 8. Every such combination is a valid layout.
pub fn parts<const N: usize>() -> impl Strategy<Value = ([usize; N], [isize; N], isize, usize)> {
    (
        proptest::array::uniform::<_, N>(0usize..=4),
        proptest::array::uniform::<_, N>(-6isize..=6),
        -40isize..=40,
        prop_oneof![Just(1usize), Just(2), Just(4), Just(8)],
    )
}

/// A small rank-`N` layout (see [`parts`]).
pub fn layout<const N: usize>() -> impl Strategy<Value = Layout<N>> {
    parts::<N>().prop_map(|(sh, st, off, item)| {
        Layout::new(sh, st, item)
            .and_then(|l| l.with_offset(off))
            .expect("small layouts are valid")
    })
}

/// A small rank-`N` layout with extents 1..=4 (no empty axis).
pub fn nonempty_layout<const N: usize>() -> impl Strategy<Value = Layout<N>> {
    (
        proptest::array::uniform::<_, N>(1usize..=4),
        proptest::array::uniform::<_, N>(-6isize..=6),
        -40isize..=40,
    )
        .prop_map(|(sh, st, off)| {
            Layout::new(sh, st, 4)
                .and_then(|l| l.with_offset(off))
                .expect("small layouts are valid")
        })
}

/// Proptest cases for a property that runs `full` cases in the full scope (an optimised
/// build, `cargo test --release` as CI runs it): a quarter of them, at least 16, in the quick
/// scope (a debug build, README's `cargo test`; [`small_scope::quick`]).
/// (`PROPTEST_CASES` still overrides every count, as proptest documents.)
pub fn cases(full: u32) -> u32 {
    if small_scope::quick() {
        (full / 4).max(16)
    } else {
        full
    }
}

/// Instantiates a property `fn check<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError>`
/// for every rank 0..=5 as `#[test]`s named `<name>_rank0` .. `<name>_rank5`.
#[macro_export]
macro_rules! for_ranks {
    ($name:ident, $strategy:ident, $check:ident) => {
        mod $name {
            use super::*;
            proptest::proptest! {
                #![proptest_config(proptest::prelude::ProptestConfig::with_cases(if cfg!(miri) { 4 } else { $crate::common::cases(256) }))]
                #[test] fn rank0(l in common::$strategy::<0>()) { $check(l)?; }
                #[test] fn rank1(l in common::$strategy::<1>()) { $check(l)?; }
                #[test] fn rank2(l in common::$strategy::<2>()) { $check(l)?; }
                #[test] fn rank3(l in common::$strategy::<3>()) { $check(l)?; }
                #[test] fn rank4(l in common::$strategy::<4>()) { $check(l)?; }
                #[test] fn rank5(l in common::$strategy::<5>()) { $check(l)?; }
            }
        }
    };
}

/// Python's `range(*slice(start, stop, step).indices(n))`, written out as CPython does it
/// (`PySlice_Unpack` then `PySlice_AdjustIndices`) in i128 so nothing can overflow.
#[allow(clippy::similar_names)]
pub fn py_indices(n: usize, start: Option<isize>, stop: Option<isize>, step: isize) -> Vec<usize> {
    assert_ne!(step, 0);
    let n = n as i128;
    let (max, min) = (isize::MAX as i128, isize::MIN as i128);
    // PySlice_Unpack: the step is clamped to -PY_SSIZE_T_MAX; None bounds are the extremes.
    let step = (step as i128).max(-max);
    let mut lo = start.map_or(if step < 0 { max } else { 0 }, |v| v as i128);
    let mut hi = stop.map_or(if step < 0 { min } else { max }, |v| v as i128);
    // PySlice_AdjustIndices.
    for b in [&mut lo, &mut hi] {
        if *b < 0 {
            *b += n;
            if *b < 0 {
                *b = if step < 0 { -1 } else { 0 };
            }
        } else if *b >= n {
            *b = if step < 0 { n - 1 } else { n };
        }
    }
    let mut out = Vec::new();
    let mut i = lo;
    while (step > 0 && i < hi) || (step < 0 && i > hi) {
        out.push(i as usize);
        i += step;
    }
    out
}

/// A small layout placed in a slice: the layout, the slice length it was made for, and
/// whether the placement was spoiled on purpose (offset one too low or slice one too short).
#[derive(Clone, Debug)]
pub struct Placed<const N: usize> {
    pub layout: Layout<N>,
    pub len: usize,
}

/// Places `shape`/`strides` in a slice: offset `-min + slack`, length `max + 1 + extra`, then
/// spoils it (`spoil` 1: offset one lower; 2: slice one shorter; else nothing).
pub fn place<const N: usize>(
    shape: [usize; N],
    strides: [isize; N],
    slack: isize,
    extra: usize,
    spoil: u8,
) -> Placed<N> {
    let raw = Layout::new(shape, strides, 4).unwrap();
    let (min, max) = raw.offset_bounds().unwrap_or((0, 0));
    let mut offset = slack - min;
    let mut len = (max - min + slack) as usize + 1 + extra;
    match spoil {
        1 => offset -= 1,
        2 => len = len.saturating_sub(1 + extra),
        _ => {}
    }
    Placed {
        layout: raw.with_offset(offset).unwrap(),
        len,
    }
}

/// The reference model of a [`Lowered`](strided_layout::plan::Lowered) operand: the offset of
/// `ix`, in `i128`, each axis's coordinate decomposed by that axis's levels (fastest first,
/// the last unbounded) as the type's docs state it, written here without the crate's code.
pub fn lowered_offset<const N: usize>(l: &strided_layout::plan::Lowered<N>, ix: &[usize]) -> i128 {
    let mut o = l.offset as i128;
    for (k, &i) in ix.iter().enumerate() {
        let mut q = i as u128;
        for level in l.blocks.levels().iter().filter(|v| v.axis == k) {
            let e = level.extent as u128;
            o += (q % e) as i128 * level.stride as i128;
            q /= e;
        }
        o += q as i128 * l.strides[k] as i128;
    }
    o
}

/// How many coordinates of axis `k` of `l` name distinct offsets when its own stride is 0: one
/// outermost block of its levels (1 without levels), at most the extent.
pub fn broadcast_keep<const N: usize>(l: &strided_layout::plan::Lowered<N>, k: usize) -> usize {
    let block = l
        .blocks
        .levels()
        .iter()
        .filter(|v| v.axis == k)
        .try_fold(1usize, |p, v| p.checked_mul(v.extent))
        .unwrap_or(usize::MAX);
    l.shape[k].min(block)
}
