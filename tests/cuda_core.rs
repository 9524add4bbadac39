//! cuda.core itself as the oracle: replays `tests/data/cuda_core_cases.txt` (cuda.core
//! 1.2.2's own answers, written by `scripts/cuda_core_cases.py`; the file format is in that
//! script's docstring) against this crate.
//!
//! Every answer must equal cuda.core's, except where this crate differs on purpose. Each
//! such difference is one named function below (`diff_*`) that maps cuda.core's answer to
//! the one this crate promises (checking our answer by brute force where the promise is a
//! property rather than a value), with a link to its entry in
//! [`strided_layout::doc::cuda_core`]. No case is skipped, and the test fails if a named
//! difference is never exercised by the data.
#![allow(
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::cast_possible_truncation,
    clippy::too_many_lines,
    clippy::similar_names
)]

use crate::common;

use std::collections::BTreeMap;
use std::fmt::Write as _;

use strided_layout::{AxisMask, DynLayout, Layout, LayoutError, Order, Slice};

const DATA: &str = include_str!("data/cuda_core_cases.txt");

// ------------------------------------------------------------------------------------------
// Plain parts, the common currency of cuda.core's answers and ours.

#[derive(Clone, Debug, PartialEq, Eq)]
struct Parts {
    shape: Vec<usize>,
    strides: Vec<isize>,
    offset: isize,
    itemsize: usize,
}

fn list<T: std::str::FromStr>(s: &str) -> Vec<T>
where
    T::Err: std::fmt::Debug,
{
    if s == "-" {
        return Vec::new();
    }
    s.split(',').map(|x| x.parse().expect("integer")).collect()
}

fn parse_parts(s: &str) -> Parts {
    let f: Vec<&str> = s.split('/').collect();
    assert_eq!(f.len(), 4, "layout token {s}");
    Parts {
        shape: list(f[0]),
        strides: list(f[1]),
        offset: f[2].parse().expect("offset"),
        itemsize: f[3].parse().expect("itemsize"),
    }
}

fn volume(p: &Parts) -> usize {
    p.shape.iter().product()
}

fn offsets(p: &Parts) -> Vec<i128> {
    common::offsets_raw(&p.shape, &p.strides, p.offset)
}

// ------------------------------------------------------------------------------------------
// A layout of any rank 0..=6, so that runtime ranks from the data reach the const generics.

#[derive(Clone, Copy, Debug, PartialEq)]
enum Any {
    R0(Layout<0>),
    R1(Layout<1>),
    R2(Layout<2>),
    R3(Layout<3>),
    R4(Layout<4>),
    R5(Layout<5>),
    R6(Layout<6>),
}

macro_rules! from_layout {
    ($($v:ident $n:literal),*) => {$(
        impl From<Layout<$n>> for Any {
            fn from(l: Layout<$n>) -> Self {
                Any::$v(l)
            }
        }
    )*};
}
from_layout!(R0 0, R1 1, R2 2, R3 3, R4 4, R5 5, R6 6);

/// Runs `$e` with `$l` bound to the `Layout<N>` inside `$a`, for whichever `N` it has.
macro_rules! with {
    ($a:expr, $l:ident => $e:expr) => {
        match $a {
            Any::R0($l) => $e,
            Any::R1($l) => $e,
            Any::R2($l) => $e,
            Any::R3($l) => $e,
            Any::R4($l) => $e,
            Any::R5($l) => $e,
            Any::R6($l) => $e,
        }
    };
}

/// Runs `$e` with the const `$m` equal to the runtime `$len` (0..=6).
macro_rules! with_rank {
    ($len:expr, $m:ident => $e:expr) => {
        match $len {
            0 => {
                const $m: usize = 0;
                $e
            }
            1 => {
                const $m: usize = 1;
                $e
            }
            2 => {
                const $m: usize = 2;
                $e
            }
            3 => {
                const $m: usize = 3;
                $e
            }
            4 => {
                const $m: usize = 4;
                $e
            }
            5 => {
                const $m: usize = 5;
                $e
            }
            6 => {
                const $m: usize = 6;
                $e
            }
            r => panic!("rank {r} is outside the replayed ranks 0..=6"),
        }
    };
}

fn arr<T: Copy + std::fmt::Debug, const N: usize>(v: &[T]) -> [T; N] {
    v.try_into()
        .unwrap_or_else(|_| panic!("{v:?} does not have length {N}"))
}

fn build(p: &Parts) -> Result<Any, LayoutError> {
    with_rank!(p.shape.len(), M => {
        let l = Layout::<M>::new(arr(&p.shape), arr(&p.strides), p.itemsize)?.with_offset(p.offset)?;
        Ok(Any::from(l))
    })
}

fn parts_of(a: Any) -> Parts {
    with!(a, l => Parts {
        shape: l.shape().to_vec(),
        strides: l.strides().to_vec(),
        offset: l.offset(),
        itemsize: l.itemsize(),
    })
}

fn parts_of_dyn<const MAX: usize>(d: &DynLayout<MAX>) -> Parts {
    Parts {
        shape: d.shape().to_vec(),
        strides: d.strides().to_vec(),
        offset: d.offset(),
        itemsize: d.itemsize(),
    }
}

// ------------------------------------------------------------------------------------------
// Operations, in our argument conventions (the script translates them for cuda.core).

#[derive(Clone, Debug)]
enum Op {
    Perm(Vec<usize>),
    Flip(usize),
    Slice(Vec<Slice>),
    Narrow(usize, usize, usize),
    Select(usize, usize),
    Bcast(Vec<usize>),
    Repack(usize, usize, isize),
    Dense(char, Vec<usize>),
    Unsq(usize),
    Unsqs(usize, usize),
    RepackDropping(usize, usize, isize),
    Squeeze,
    Flat,
    FlatRange(usize, usize),
    FlatMask(u64),
    Reshape(Vec<isize>),
}

fn parse_op(s: &str) -> Op {
    let (name, arg) = s.split_once('=').unwrap_or((s, ""));
    match name {
        "perm" => Op::Perm(list(arg)),
        "flip" => Op::Flip(arg.parse().expect("axis")),
        "slice" => Op::Slice(if arg == "-" {
            Vec::new()
        } else {
            arg.split(',')
                .map(|part| {
                    let b: Vec<Option<isize>> = part
                        .split(':')
                        .map(|x| (x != "_").then(|| x.parse().expect("bound")))
                        .collect();
                    Slice::new(b[0], b[1], b[2].expect("step"))
                })
                .collect()
        }),
        "narrow" => {
            let v: Vec<usize> = list(arg);
            Op::Narrow(v[0], v[1], v[2])
        }
        "select" => {
            let v: Vec<usize> = list(arg);
            Op::Select(v[0], v[1])
        }
        "bcast" => Op::Bcast(list(arg)),
        "repack" => {
            let v: Vec<isize> = list(arg);
            Op::Repack(v[0] as usize, v[1] as usize, v[2])
        }
        "dense" => match arg {
            "C" | "F" | "K" => Op::Dense(arg.chars().next().expect("order"), Vec::new()),
            p => Op::Dense(
                'P',
                p.split('.').map(|x| x.parse().expect("axis")).collect(),
            ),
        },
        "unsq" => Op::Unsq(arg.parse().expect("axis")),
        "unsqs" => {
            let v: Vec<usize> = list(arg);
            Op::Unsqs(v[0], v[1])
        }
        "repackd" => {
            let v: Vec<isize> = list(arg);
            Op::RepackDropping(v[0] as usize, v[1] as usize, v[2])
        }
        "squeeze" => Op::Squeeze,
        "flat" => Op::Flat,
        "flatr" => {
            let v: Vec<usize> = list(arg);
            Op::FlatRange(v[0], v[1])
        }
        "flatm" => Op::FlatMask(arg.parse().expect("mask")),
        "reshape" => Op::Reshape(list(arg)),
        _ => panic!("unknown operation {s}"),
    }
}

macro_rules! bcast_to {
    ($l:expr, $sh:expr; $($m:literal)*) => {
        match $sh.len() {
            $($m => $l.broadcast_to::<$m>(arr($sh)).map(Any::from),)*
            m => panic!("broadcast from rank {} to rank {m} is not replayed", $l.ndim()),
        }
    };
}

/// Our answer to `op` on `a`.
fn run(a: Any, op: &Op) -> Result<Parts, LayoutError> {
    let any = match op {
        Op::Perm(p) => with!(a, l => l.permuted(arr(p)).map(Any::from)),
        Op::Flip(ax) => with!(a, l => l.flipped(*ax).map(Any::from)),
        Op::Slice(s) => with!(a, l => l.sliced(arr(s)).map(Any::from)),
        Op::Narrow(ax, start, len) => with!(a, l => l.narrowed(*ax, *start, *len).map(Any::from)),
        Op::Select(ax, i) => match a {
            Any::R0(_) => panic!("select on rank 0 is not generated"),
            Any::R1(l) => l.selected::<0>(*ax, *i).map(Any::from),
            Any::R2(l) => l.selected::<1>(*ax, *i).map(Any::from),
            Any::R3(l) => l.selected::<2>(*ax, *i).map(Any::from),
            Any::R4(l) => l.selected::<3>(*ax, *i).map(Any::from),
            Any::R5(l) => l.selected::<4>(*ax, *i).map(Any::from),
            Any::R6(l) => l.selected::<5>(*ax, *i).map(Any::from),
        },
        Op::Bcast(sh) => match a {
            Any::R0(l) => bcast_to!(l, sh; 0 1 2 3 4 5 6),
            Any::R1(l) => bcast_to!(l, sh; 1 2 3 4 5 6),
            Any::R2(l) => bcast_to!(l, sh; 2 3 4 5 6),
            Any::R3(l) => bcast_to!(l, sh; 3 4 5 6),
            Any::R4(l) => bcast_to!(l, sh; 4 5 6),
            Any::R5(l) => bcast_to!(l, sh; 5 6),
            Any::R6(l) => bcast_to!(l, sh; 6),
        },
        Op::Repack(item, ptr, ax) => with!(a, l => l.repacked(*item, *ptr, *ax).map(Any::from)),
        Op::Dense(o, p) => with!(a, l => {
            let order = match o {
                'C' => Order::C,
                'F' => Order::F,
                'K' => Order::Keep,
                _ => Order::Perm(arr(p)),
            };
            l.to_dense(order).map(Any::from)
        }),
        Op::Unsq(ax) => match a {
            Any::R0(l) => l.unsqueezed::<1>(*ax).map(Any::from),
            Any::R1(l) => l.unsqueezed::<2>(*ax).map(Any::from),
            Any::R2(l) => l.unsqueezed::<3>(*ax).map(Any::from),
            Any::R3(l) => l.unsqueezed::<4>(*ax).map(Any::from),
            Any::R4(l) => l.unsqueezed::<5>(*ax).map(Any::from),
            Any::R5(l) => l.unsqueezed::<6>(*ax).map(Any::from),
            Any::R6(_) => panic!("unsqueeze of rank 6 is not generated"),
        },
        Op::Unsqs(x, y) => match a {
            Any::R0(l) => l.unsqueezed_axes::<2, 2>([*x, *y]).map(Any::from),
            Any::R1(l) => l.unsqueezed_axes::<2, 3>([*x, *y]).map(Any::from),
            Any::R2(l) => l.unsqueezed_axes::<2, 4>([*x, *y]).map(Any::from),
            Any::R3(l) => l.unsqueezed_axes::<2, 5>([*x, *y]).map(Any::from),
            Any::R4(l) => l.unsqueezed_axes::<2, 6>([*x, *y]).map(Any::from),
            _ => panic!("two-axis unsqueeze past rank 6 is not generated"),
        },
        Op::RepackDropping(item, ptr, ax) => {
            return with!(a, l => l.repacked_dropping_axis(*item, *ptr, *ax).map(|d| parts_of_dyn(&d)));
        }
        Op::Squeeze => return Ok(with!(a, l => parts_of_dyn(&l.squeezed()))),
        Op::Flat => return Ok(with!(a, l => parts_of_dyn(&l.flattened()))),
        Op::FlatRange(s, e) => {
            return with!(a, l => l.flattened_range(*s, *e).map(|d| parts_of_dyn(&d)));
        }
        Op::FlatMask(m) => {
            return with!(a, l => l.flattened_with_mask(AxisMask::from_bits(*m)).map(|d| parts_of_dyn(&d)));
        }
        Op::Reshape(sh) => with!(a, l => with_rank!(sh.len(), M => {
            l.reshaped::<M>(arr(sh)).map(Any::from)
        })),
    };
    any.map(parts_of)
}

// ------------------------------------------------------------------------------------------
// The deliberate differences, one function each. `Uses` counts how often each one changed
// an answer, so a difference the data never exercises fails the test.

type Uses = BTreeMap<&'static str, usize>;

fn used(uses: &mut Uses, name: &'static str) {
    *uses.entry(name).or_default() += 1;
}

/// Every named difference; each must change at least one answer in the data.
const DIFFERENCES: &[&str] = &[
    "diff_bounds_option",
    "diff_unique_exact",
    "diff_reshape_without_copy",
    "diff_reshape_unit_axis_strides",
    "diff_repack_power_of_two",
    "diff_repack_same_itemsize_checks_axis",
    "diff_zero_d_flattens_to_itself",
    "diff_flatten_merges_unit_and_empty_axes",
    "diff_mask_merges_unit_and_empty_axes",
    "diff_narrow_rejects_past_extent",
    "diff_dense_recomputes_strides",
    "diff_max_itemsize_below_current",
    "diff_max_itemsize_misaligned_pointer",
    "diff_empty_result_keeps_strides",
    "diff_invented_stride_zero_on_overflow",
    // "diff_invariants_checked_in_bytes": every case of it in the data is an unused stride,
    // now difference 16; `invariants_are_checked_in_bytes` below keeps difference 7 tested.
    "diff_repack_ignores_unit_axis_strides",
    "diff_unused_stride_zeroed",
];

/// `offset_bounds`: `None` for an empty layout where cuda.core answers `(0, -1)`.
/// See [`doc::cuda_core`](strided_layout::doc::cuda_core), difference 1.
fn diff_bounds_option(
    uses: &mut Uses,
    input: &Parts,
    cuda: (isize, isize),
) -> Option<(isize, isize)> {
    if volume(input) == 0 {
        assert_eq!(cuda, (0, -1), "cuda.core's empty bounds");
        used(uses, "diff_bounds_option");
        return None;
    }
    Some(cuda)
}

/// `is_unique` is exact: where cuda.core says `true` we must too; where it says `false` we
/// may say `true`, and then no two indices may share an offset (checked by enumeration).
/// See [`doc::cuda_core`](strided_layout::doc::cuda_core), difference 2.
fn diff_unique_exact(uses: &mut Uses, input: &Parts, cuda: bool, ours: bool) -> Result<(), String> {
    let exact = common::unique_model(&offsets(input));
    if ours != exact {
        return Err(format!("is_unique {ours}, enumeration says {exact}"));
    }
    if cuda && !ours {
        return Err("cuda.core says unique, we do not".into());
    }
    if ours != cuda {
        used(uses, "diff_unique_exact");
    }
    Ok(())
}

/// `reshaped` succeeds wherever NumPy reshapes without a copy, so it may succeed where
/// cuda.core fails (extent-1 axes never block it); then the result must have the requested
/// shape and the input's offsets in C order. Where cuda.core succeeds we must give the
/// same shape and the same offsets. Where we fail, cuda.core must fail too.
/// See [`doc::cuda_core`](strided_layout::doc::cuda_core), difference 3.
fn diff_reshape_without_copy(
    uses: &mut Uses,
    input: &Parts,
    target: &[isize],
    cuda: &Option<Parts>,
    ours: &Result<Parts, LayoutError>,
) -> Result<(), String> {
    match (cuda, ours) {
        (None, Err(_)) => Ok(()),
        (Some(c), Err(e)) => Err(format!("cuda.core reshapes to {c:?}, we fail with {e:?}")),
        (Some(c), Ok(o)) => {
            let expected = diff_reshape_unit_axis_strides(uses, c, o);
            if expected == *o {
                Ok(())
            } else {
                Err(format!("ours {o:?}, expected {expected:?}"))
            }
        }
        (None, Ok(o)) => {
            let known: usize = target
                .iter()
                .filter(|&&e| e >= 0)
                .map(|&e| e as usize)
                .product();
            let ok_shape = o.shape.len() == target.len()
                && o.shape
                    .iter()
                    .zip(target)
                    .all(|(&s, &t)| t < 0 || s == t as usize)
                && volume(o) == volume(input)
                && (known != 0 || !target.contains(&-1));
            if !ok_shape || o.offset != input.offset || o.itemsize != input.itemsize {
                return Err(format!(
                    "reshape result {o:?} does not fit target {target:?}"
                ));
            }
            if offsets(o) != offsets(input) {
                return Err(format!("reshape result {o:?} moves elements"));
            }
            used(uses, "diff_reshape_without_copy");
            Ok(())
        }
    }
}

/// Where both reshape, the answers agree except on the stride of an extent-1 axis of the
/// result, which never multiplies a non-zero index: cuda.core keeps the running product
/// of its split (or 1 from a rank-0 source), ours comes from the flatten groups (1 for a
/// group of extent-1 axes, 0 from a rank-0 source). Maps cuda.core's answer to ours by
/// taking those strides from ours; everything else must be cuda.core's.
/// See [`doc::cuda_core`](strided_layout::doc::cuda_core), difference 3.
fn diff_reshape_unit_axis_strides(uses: &mut Uses, cuda: &Parts, ours: &Parts) -> Parts {
    let mut expected = cuda.clone();
    if ours.strides.len() == cuda.strides.len() {
        for (k, &e) in cuda.shape.iter().enumerate() {
            if e == 1 {
                expected.strides[k] = ours.strides[k];
            }
        }
    }
    if expected != *cuda {
        used(uses, "diff_reshape_unit_axis_strides");
    }
    expected
}

/// `repacked` requires both itemsizes to be powers of two (so one divides the other);
/// cuda.core accepts others and silently rounds the factor down.
/// See [`doc::cuda_core`](strided_layout::doc::cuda_core), difference 4.
fn diff_repack_power_of_two(
    uses: &mut Uses,
    new_itemsize: usize,
    cuda: Option<Parts>,
) -> Option<Parts> {
    if new_itemsize.is_power_of_two() {
        return cuda;
    }
    used(uses, "diff_repack_power_of_two");
    None
}

/// `repacked` to the same itemsize still checks the axis (cuda.core returns the layout
/// before looking at it).
/// See [`doc::cuda_core`](strided_layout::doc::cuda_core), difference 4.
fn diff_repack_same_itemsize_checks_axis(
    uses: &mut Uses,
    input: &Parts,
    new_itemsize: usize,
    axis: isize,
    cuda: Option<Parts>,
) -> Option<Parts> {
    let n = input.shape.len() as isize;
    if new_itemsize == input.itemsize && !(-n..n).contains(&axis) {
        used(uses, "diff_repack_same_itemsize_checks_axis");
        return None;
    }
    cuda
}

/// A rank-0 layout flattens to itself; cuda.core answers shape `(1,)`, stride `(1,)`.
/// See [`doc::cuda_core`](strided_layout::doc::cuda_core), difference 9.
fn diff_zero_d_flattens_to_itself(uses: &mut Uses, input: &Parts, cuda: Parts) -> Parts {
    if input.shape.is_empty() {
        assert_eq!(
            (cuda.shape.as_slice(), cuda.strides.as_slice()),
            (&[1][..], &[1][..])
        );
        used(uses, "diff_zero_d_flattens_to_itself");
        return input.clone();
    }
    cuda
}

/// The flatten rule this crate promises, axis by axis: axis `i` (mask bit `i` set) merges
/// into its group when the layout is empty, or its extent is 1, or the group has only
/// extent-1 axes so far, or `strides[i] * shape[i]` equals the stride of the group's last
/// axis of extent > 1. cuda.core's rule is only the last test, made against the stride of
/// axis `i - 1` whatever its extent. Returns the groups as `(first axis, end)` ranges.
fn promised_groups(p: &Parts, mask: u64) -> Vec<(usize, usize)> {
    let n = p.shape.len();
    let empty = volume(p) == 0;
    let mut groups = Vec::new();
    let mut start = 0;
    while start < n {
        let mut last = (!empty && p.shape[start] != 1).then_some(p.strides[start]);
        let mut end = start + 1;
        while end < n && mask >> end & 1 == 1 {
            if !empty && p.shape[end] != 1 {
                if let Some(s) = last {
                    if p.strides[end].checked_mul(p.shape[end] as isize) != Some(s) {
                        break;
                    }
                }
                last = Some(p.strides[end]);
            }
            end += 1;
        }
        groups.push((start, end));
        start = end;
    }
    groups
}

/// Flattening merges extent-1 axes whatever their stride and, in an empty layout, every
/// axis the mask allows (strides 0); cuda.core keeps an extent-1 axis whose stride breaks
/// its rule. Our answer follows [`promised_groups`]: each group's extent is the product of
/// its extents; a group of one axis keeps its stride, a merged group has the stride of its
/// last axis of extent > 1 (0 when empty, 1 for extent-1 axes only). Where neither an extent-1 axis nor an
/// empty layout is involved the rules agree, and we must equal cuda.core exactly; otherwise
/// cuda.core's answer must be a refinement of ours (ours merges whole runs of its axes) and
/// both keep every offset.
/// See [`doc::cuda_core`](strided_layout::doc::cuda_core), difference 10.
fn diff_flatten_merges_unit_and_empty_axes(
    uses: &mut Uses,
    input: &Parts,
    mask: u64,
    cuda: Parts,
) -> Result<Parts, String> {
    if input.shape.is_empty() {
        return Ok(cuda);
    }
    let empty = volume(input) == 0;
    let units = input.shape.contains(&1);
    if !empty && !units {
        return Ok(cuda);
    }
    let mut shape = Vec::new();
    let mut strides = Vec::new();
    for (s, e) in promised_groups(input, mask) {
        shape.push(input.shape[s..e].iter().product());
        let last_big = (s..e).rev().find(|&i| input.shape[i] != 1);
        strides.push(if e == s + 1 {
            input.strides[s]
        } else if empty {
            0
        } else {
            last_big.map_or(1, |i| input.strides[i])
        });
    }
    let ours = Parts {
        shape,
        strides,
        offset: input.offset,
        itemsize: input.itemsize,
    };
    if offsets(&ours) != offsets(&cuda) || offsets(&ours) != offsets(input) {
        return Err(format!("promised flatten {ours:?} moves elements"));
    }
    if !is_merge_of(&ours.shape, &cuda.shape) {
        return Err(format!("{ours:?} is not a merge of cuda.core's {cuda:?}"));
    }
    if ours != cuda {
        used(uses, "diff_flatten_merges_unit_and_empty_axes");
    }
    Ok(ours)
}

/// Whether the extents `coarse` are products of consecutive runs of `fine`.
fn is_merge_of(coarse: &[usize], fine: &[usize]) -> bool {
    let Some((&first, rest)) = coarse.split_first() else {
        return fine.is_empty();
    };
    (1..=fine.len())
        .any(|k| fine[..k].iter().product::<usize>() == first && is_merge_of(rest, &fine[k..]))
}

/// `flattened_axis_mask` follows the same promised rule: an extent-1 axis always has its bit
/// set, an axis after extent-1 axes is compared with the nearest axis of extent > 1 to its
/// left, and an empty layout sets every bit from 1 up. cuda.core compares each axis with
/// its left neighbour only.
/// See [`doc::cuda_core`](strided_layout::doc::cuda_core), difference 10.
fn diff_mask_merges_unit_and_empty_axes(uses: &mut Uses, input: &Parts, cuda: u64) -> u64 {
    let n = input.shape.len();
    if volume(input) != 0 && !input.shape.contains(&1) {
        return cuda;
    }
    let all = if n == 0 { 0 } else { (1u64 << n) - 2 };
    let mut ours = 0u64;
    for (s, e) in promised_groups(input, all) {
        for i in s + 1..e {
            ours |= 1 << i;
        }
    }
    if ours != cuda {
        used(uses, "diff_mask_merges_unit_and_empty_axes");
    }
    ours
}

/// `narrowed(axis, start, len)` rejects `start + len > extent`; cuda.core's slice clamps.
/// See [`doc::cuda_core`](strided_layout::doc::cuda_core), difference 6.
fn diff_narrow_rejects_past_extent(
    uses: &mut Uses,
    input: &Parts,
    axis: usize,
    start: usize,
    len: usize,
    cuda: Option<Parts>,
) -> Option<Parts> {
    if start + len > input.shape[axis] {
        used(uses, "diff_narrow_rejects_past_extent");
        return None;
    }
    cuda
}

/// Python's `slice(start, stop, step).indices(len)` and the length of its range.
fn py_indices(
    len: usize,
    start: Option<isize>,
    stop: Option<isize>,
    step: isize,
) -> (isize, usize) {
    let len = len as isize;
    let (lower, upper) = if step > 0 { (0, len) } else { (-1, len - 1) };
    let clamp = |b: Option<isize>, default: isize| match b {
        None => default,
        Some(v) if v < 0 => (v + len).max(lower),
        Some(v) => v.min(upper),
    };
    let lo = clamp(start, if step < 0 { upper } else { lower });
    let hi = clamp(stop, if step < 0 { lower } else { upper });
    let n = if step < 0 {
        if hi < lo {
            (lo - hi - 1) / -step + 1
        } else {
            0
        }
    } else if lo < hi {
        (hi - lo - 1) / step + 1
    } else {
        0
    };
    (lo, n as usize)
}

/// The answer of `flip`, `narrow`, `select` or `slice` by plain arithmetic (new extents,
/// strides times steps, the offset moved to the first element kept), with our rule for
/// empty results: only `sliced` zeroes the strides, and only when a slice that is not an
/// identity (whole axis, step 1) empties its axis.
fn arithmetic_answer(input: &Parts, op: &Op) -> Option<Parts> {
    let mut r = input.clone();
    match op {
        Op::Flip(a) => {
            let (e, st) = (input.shape[*a], input.strides[*a]);
            r.strides[*a] = -st;
            if e > 1 {
                r.offset += (e as isize - 1) * st;
            }
        }
        Op::Narrow(a, start, len) => {
            r.shape[*a] = *len;
            r.offset += *start as isize * input.strides[*a];
        }
        Op::Select(a, i) => {
            r.offset += *i as isize * input.strides[*a];
            r.shape.remove(*a);
            r.strides.remove(*a);
        }
        Op::Slice(sl) => {
            let mut emptied = false;
            for (k, s) in sl.iter().enumerate() {
                if s.step == 0 {
                    return None;
                }
                let (lo, n) = py_indices(input.shape[k], s.start, s.stop, s.step);
                r.shape[k] = n;
                if n == input.shape[k] && s.step == 1 {
                    continue; // identity: untouched
                }
                emptied |= n == 0;
                // Our rule for a stride no offset uses: 0 where the product overflows
                // (difference 16).
                r.strides[k] = match input.strides[k].checked_mul(s.step) {
                    Some(v) => v,
                    None if n <= 1 => 0,
                    None => return None,
                };
                if n > 0 {
                    r.offset += lo * input.strides[k];
                }
            }
            if emptied {
                r.strides.iter_mut().for_each(|x| *x = 0);
            }
            for (x, &e) in r.strides.iter_mut().zip(&r.shape) {
                if e <= 1 && x.checked_mul(input.itemsize as isize).is_none() {
                    *x = 0;
                }
            }
        }
        _ => return None,
    }
    Some(r)
}

/// An empty result keeps its strides: `flipped`, `narrowed` and `selected` never zero them
/// (and `narrowed` moves the offset to `start` even for `len == 0`), and `sliced` leaves an
/// axis whose slice is an identity (whole axis, step 1) untouched even when its extent is
/// 0. cuda.core zeroes every stride as soon as any slice it is given has length 0, and
/// `flip`, `narrow` and `select` reach it as slices.
/// See [`doc::cuda_core`](strided_layout::doc::cuda_core), difference 13.
fn diff_empty_result_keeps_strides(
    uses: &mut Uses,
    input: &Parts,
    op: &Op,
    cuda: Option<Parts>,
) -> Result<Option<Parts>, String> {
    let Some(c) = cuda else {
        return Ok(None);
    };
    let Some(ours) = arithmetic_answer(input, op) else {
        return Ok(Some(c));
    };
    if ours == c {
        return Ok(Some(c));
    }
    if volume(&c) != 0 || c.strides.iter().any(|&x| x != 0) || ours.shape != c.shape {
        return Err(format!("arithmetic answer {ours:?} vs cuda.core {c:?}"));
    }
    used(uses, "diff_empty_result_keeps_strides");
    Ok(Some(ours))
}

/// A rank change never fails on the stride it invents for a new extent-1 axis: where
/// cuda.core's stride for it (the extent times the stride of the input axis it lands
/// before, the last stride when appended, 1 at rank 0) overflows `isize` in elements or in
/// bytes, ours is 0 (cuda.core raises, or keeps a stride whose byte value overflows).
/// `positions` are the result positions of the new axes.
/// See [`doc::cuda_core`](strided_layout::doc::cuda_core), difference 14.
fn diff_invented_stride_zero_on_overflow(
    uses: &mut Uses,
    input: &Parts,
    positions: &[usize],
    cuda: Option<Parts>,
) -> Option<Parts> {
    let n = input.shape.len();
    let m = n + positions.len();
    let distinct = positions
        .iter()
        .enumerate()
        .all(|(k, p)| !positions[..k].contains(p));
    if !distinct || positions.iter().any(|&p| p >= m) {
        return cuda;
    }
    let fits =
        |x: i128| isize::try_from(x).is_ok() && isize::try_from(x * input.itemsize as i128).is_ok();
    let mut r = Parts {
        shape: Vec::new(),
        strides: Vec::new(),
        ..input.clone()
    };
    let mut overflow = false;
    let mut src = 0;
    for i in 0..m {
        if positions.contains(&i) {
            let wide: i128 = match (input.shape.get(src), input.strides.get(src)) {
                (Some(&e), Some(&st)) => e as i128 * st as i128,
                _ => input.strides.last().map_or(1, |&st| st as i128),
            };
            overflow |= !fits(wide);
            r.shape.push(1);
            r.strides.push(if fits(wide) { wide as isize } else { 0 });
        } else {
            r.shape.push(input.shape[src]);
            r.strides.push(input.strides[src]);
            src += 1;
        }
    }
    if !overflow {
        return cuda;
    }
    used(uses, "diff_invented_stride_zero_on_overflow");
    Some(r)
}

/// The invariants of `Layout` (every stride and offset fits `isize` in bytes too) are
/// checked on every result; cuda.core checks overflow in elements only, so it returns some
/// layouts (say, a stride of 2^62 elements of 2 bytes) that this crate cannot hold, and
/// reports `OffsetOverflow` for.
/// See [`doc::cuda_core`](strided_layout::doc::cuda_core), difference 7.
fn diff_invariants_checked_in_bytes(uses: &mut Uses, cuda: Option<Parts>) -> Option<Parts> {
    let c = cuda?;
    if build(&c) == Err(LayoutError::OffsetOverflow) {
        used(uses, "diff_invariants_checked_in_bytes");
        return None;
    }
    Some(c)
}

/// A stride that no offset uses (the stride of an extent-1 axis of a result) is 0 where
/// the plain product (`stride * step`) overflows `isize` in elements or bytes; cuda.core
/// raises there, or returns a stride whose byte value overflows. Where cuda.core answers,
/// ours is its answer with those strides zeroed; where it raises, ours must pick exactly
/// the elements Python's slices pick.
/// See [`doc::cuda_core`](strided_layout::doc::cuda_core), difference 16.
fn diff_unused_stride_zeroed(
    uses: &mut Uses,
    input: &Parts,
    op: &Op,
    cuda: Option<Parts>,
    ours: &Result<Parts, LayoutError>,
) -> Result<Option<Parts>, String> {
    match (cuda, ours) {
        (Some(c), Ok(o)) if build(&c) == Err(LayoutError::OffsetOverflow) => {
            let mut z = c.clone();
            for (st, &e) in z.strides.iter_mut().zip(&z.shape) {
                if e == 1 {
                    *st = 0;
                }
            }
            if build(&z).is_ok() && &z == o {
                used(uses, "diff_unused_stride_zeroed");
                return Ok(Some(z));
            }
            Ok(Some(c))
        }
        (None, Ok(o)) => {
            let Op::Slice(sl) = op else {
                return Ok(None);
            };
            let picks: Vec<Vec<usize>> = sl
                .iter()
                .enumerate()
                .map(|(k, x)| common::py_indices(input.shape[k], x.start, x.stop, x.step))
                .collect();
            let lens: Vec<usize> = picks.iter().map(Vec::len).collect();
            let want: Vec<i128> = common::indices(&lens)
                .iter()
                .map(|j| {
                    let i: Vec<usize> = j.iter().enumerate().map(|(k, &x)| picks[k][x]).collect();
                    common::offset_of_model(&input.strides, input.offset, &i)
                })
                .collect();
            if o.shape != lens || offsets(o) != want {
                return Err(format!("accepted {o:?}, which is not the sliced view"));
            }
            used(uses, "diff_unused_stride_zeroed");
            Ok(Some(o.clone()))
        }
        (c, _) => Ok(c),
    }
}

/// `to_dense` always computes fresh dense strides; cuda.core returns the input itself when
/// it is already dense in the requested order, keeping whatever strides its extent-1 (or,
/// when empty, all) axes had. The offsets are the same either way; we promise the fresh
/// strides of `Layout::dense(shape, itemsize, order)`.
/// See [`doc::cuda_core`](strided_layout::doc::cuda_core), difference 11.
fn diff_dense_recomputes_strides(
    uses: &mut Uses,
    input: &Parts,
    order: &Op,
    cuda: Parts,
) -> Result<Parts, String> {
    let Op::Dense(o, p) = order else {
        unreachable!()
    };
    let fresh = with_rank!(input.shape.len(), M => {
        let ord = match o {
            'C' => Order::<M>::C,
            'F' => Order::F,
            'K' => {
                let l = Layout::<M>::new(arr(&input.shape), arr(&input.strides), input.itemsize)
                    .map_err(|e| format!("{e:?}"))?;
                Order::Perm(l.stride_order())
            }
            _ => Order::Perm(arr(p)),
        };
        parts_of(Any::from(
            Layout::<M>::dense(arr(&input.shape), input.itemsize, ord).map_err(|e| format!("{e:?}"))?,
        ))
    });
    if fresh == cuda {
        return Ok(cuda);
    }
    if cuda != *input || offsets(&fresh) != offsets(&cuda) || fresh.shape != cuda.shape {
        return Err(format!("dense {fresh:?} vs cuda.core {cuda:?}"));
    }
    used(uses, "diff_dense_recomputes_strides");
    Ok(fresh)
}

/// `max_compatible_itemsize` below the current itemsize: cuda.core refuses a
/// `max_itemsize` smaller than the itemsize; we answer the largest itemsize `repacked`
/// accepts (unpacking), or `repacked`'s error.
/// See [`doc::cuda_core`](strided_layout::doc::cuda_core), difference 12.
fn diff_max_itemsize_below_current(
    uses: &mut Uses,
    input: &Parts,
    max: usize,
    ptr: usize,
    axis: isize,
    cuda: Option<usize>,
    ours: Result<usize, LayoutError>,
) -> Result<Option<usize>, String> {
    if max >= input.itemsize || cuda.is_some() {
        return Ok(cuda);
    }
    let n = input.shape.len() as isize;
    if !(-n..n).contains(&axis) {
        return Ok(None);
    }
    used(uses, "diff_max_itemsize_below_current");
    // The promise: the largest power of two <= max that repacked accepts.
    let a = build(input).map_err(|e| format!("{e:?}"))?;
    let mut m = max;
    let expect = loop {
        if ptr.is_multiple_of(m) && run(a, &Op::Repack(m, ptr, axis)).is_ok() {
            break Some(m);
        }
        if m == 1 {
            break None;
        }
        m /= 2;
    };
    if expect != ours.ok() {
        return Err(format!("expected {expect:?} below the itemsize"));
    }
    Ok(expect)
}

/// `max_compatible_itemsize` with a `data_ptr` not aligned to the current itemsize never
/// answers the current itemsize: cuda.core's gcd answer (below the itemsize) where
/// `repacked` accepts it, else an error (cuda.core answers the itemsize there when the
/// axis cannot be repacked).
/// See [`doc::cuda_core`](strided_layout::doc::cuda_core), difference 12.
fn diff_max_itemsize_misaligned_pointer(
    uses: &mut Uses,
    input: &Parts,
    ptr: usize,
    cuda: Option<usize>,
) -> Option<usize> {
    if ptr.is_multiple_of(input.itemsize) {
        return cuda;
    }
    if cuda == Some(input.itemsize) {
        used(uses, "diff_max_itemsize_misaligned_pointer");
        return None;
    }
    cuda
}

/// Every byte a layout covers (elements enumerated naively), for brute-force checks.
fn byte_set(p: &Parts) -> std::collections::BTreeSet<i128> {
    let mut out = std::collections::BTreeSet::new();
    let n = p.shape.len();
    if p.shape.contains(&0) {
        return out;
    }
    let mut idx = vec![0usize; n];
    loop {
        let off = p.offset as i128
            + idx
                .iter()
                .zip(&p.strides)
                .map(|(&i, &s)| i as i128 * s as i128)
                .sum::<i128>();
        for b in 0..p.itemsize as i128 {
            out.insert(off * p.itemsize as i128 + b);
        }
        let mut k = n;
        loop {
            if k == 0 {
                return out;
            }
            k -= 1;
            idx[k] += 1;
            if idx[k] < p.shape[k] {
                break;
            }
            idx[k] = 0;
        }
    }
}

/// `repacked` never reads the stride of an extent-1 axis (its own axis included), so it
/// accepts views cuda.core refuses: one row of a matrix as complex64, a complex column
/// unpacked to pairs. Where cuda.core refuses and we accept, the layout must have an
/// extent-1 axis and our result must cover exactly the same bytes.
/// See [`doc::cuda_core`](strided_layout::doc::cuda_core), difference 15.
fn diff_repack_ignores_unit_axis_strides(
    uses: &mut Uses,
    input: &Parts,
    cuda: Option<Parts>,
    ours: &Result<Parts, LayoutError>,
) -> Result<Option<Parts>, String> {
    match (&cuda, ours) {
        (None, Ok(o)) if input.shape.contains(&1) => {
            if byte_set(o) != byte_set(input) {
                return Err(format!("accepted {o:?} but it covers other bytes"));
            }
            used(uses, "diff_repack_ignores_unit_axis_strides");
            Ok(Some(o.clone()))
        }
        _ => Ok(cuda),
    }
}

/// `max_compatible_itemsize` is the largest itemsize `repacked` accepts, so the extent-1
/// rule above can raise it above cuda.core's answer; check the promise directly.
/// See [`doc::cuda_core`](strided_layout::doc::cuda_core), difference 15.
fn diff_max_itemsize_unit_axis_strides(
    uses: &mut Uses,
    input: &Parts,
    (max, ptr, axis): (usize, usize, isize),
    cuda: Option<usize>,
    ours: Result<usize, LayoutError>,
) -> Result<Option<usize>, String> {
    if ours.ok() == cuda || !input.shape.contains(&1) || ours.ok() < cuda {
        return Ok(cuda);
    }
    let a = build(input).map_err(|e| format!("{e:?}"))?;
    let mut m = max;
    let expect = loop {
        if ptr.is_multiple_of(m) && run(a, &Op::Repack(m, ptr, axis)).is_ok() {
            break Some(m);
        }
        if m == 1 {
            break None;
        }
        m /= 2;
    };
    if expect != ours.ok() {
        return Err(format!(
            "expected {expect:?}, the largest itemsize repacked accepts"
        ));
    }
    used(uses, "diff_repack_ignores_unit_axis_strides");
    Ok(expect)
}

// ------------------------------------------------------------------------------------------
// The replay.

fn check_query(uses: &mut Uses, f: &[&str]) -> Result<(), String> {
    let input = parse_parts(f[1]);
    let a = build(&input).map_err(|e| format!("building {input:?}: {e:?}"))?;
    let b = |s: &str| s == "1";
    let (lo, hi) = f[7].split_once(',').expect("bounds");
    let cuda_bounds = (lo.parse().expect("min"), hi.parse().expect("max"));
    let cuda_req: Option<usize> = (f[8] != "error").then(|| f[8].parse().expect("size"));
    let cuda_order: Vec<usize> = list(f[9]);
    let cuda_mask: u64 = f[10].parse().expect("mask");

    let mut errs = String::new();
    let mut expect = |what: &str, ours: String, theirs: String| {
        if ours != theirs {
            let _ = write!(errs, "{what}: ours {ours}, expected {theirs}; ");
        }
    };
    with!(a, l => {
        expect("is_contiguous_c", l.is_contiguous_c().to_string(), b(f[2]).to_string());
        expect("is_contiguous_f", l.is_contiguous_f().to_string(), b(f[3]).to_string());
        expect("is_contiguous_any", l.is_contiguous_any().to_string(), b(f[4]).to_string());
        expect("is_dense", l.is_dense().to_string(), b(f[5]).to_string());
        expect(
            "offset_bounds",
            format!("{:?}", l.offset_bounds()),
            format!("{:?}", diff_bounds_option(uses, &input, cuda_bounds)),
        );
        expect(
            "required_size_in_bytes",
            format!("{:?}", l.required_size_in_bytes().ok()),
            format!("{cuda_req:?}"),
        );
        expect("stride_order", format!("{:?}", l.stride_order()), format!("{cuda_order:?}"));
        expect(
            "flattened_axis_mask",
            l.flattened_axis_mask().bits().to_string(),
            diff_mask_merges_unit_and_empty_axes(uses, &input, cuda_mask).to_string(),
        );
        if let Err(e) = diff_unique_exact(uses, &input, b(f[6]), l.is_unique()) {
            let _ = write!(errs, "is_unique: {e}; ");
        }
    });
    if errs.is_empty() { Ok(()) } else { Err(errs) }
}

fn check_max_itemsize(uses: &mut Uses, f: &[&str]) -> Result<(), String> {
    let input = parse_parts(f[1]);
    let a = build(&input).map_err(|e| format!("building {input:?}: {e:?}"))?;
    let max: usize = f[2].parse().expect("max");
    let ptr: usize = f[3].parse().expect("ptr");
    let axis: isize = f[4].parse().expect("axis");
    let cuda: Option<usize> = (f[5] != "error").then(|| f[5].parse().expect("answer"));
    let ours = with!(a, l => l.max_compatible_itemsize(max, ptr, axis));
    let expected = diff_max_itemsize_below_current(uses, &input, max, ptr, axis, cuda, ours)?;
    let expected = diff_max_itemsize_misaligned_pointer(uses, &input, ptr, expected);
    let expected =
        diff_max_itemsize_unit_axis_strides(uses, &input, (max, ptr, axis), expected, ours)?;
    if ours.ok() != expected {
        return Err(format!("ours {ours:?}, expected {expected:?}"));
    }
    // Coherence: whatever we answer, repacked accepts.
    if let Ok(m) = ours {
        run(a, &Op::Repack(m, ptr, axis))
            .map_err(|e| format!("answer {m} but repacked fails with {e:?}"))?;
    }
    Ok(())
}

fn check_step(uses: &mut Uses, input: &Parts, op: &Op, cuda: Option<Parts>) -> Result<(), String> {
    let a = build(input).map_err(|e| format!("building {input:?}: {e:?}"))?;
    let ours = run(a, op);
    if let Op::Reshape(target) = op {
        return diff_reshape_without_copy(uses, input, target, &cuda, &ours);
    }
    let expected = match op {
        Op::Repack(item, _, axis) | Op::RepackDropping(item, _, axis) => {
            let c = diff_repack_power_of_two(uses, *item, cuda);
            let c = diff_repack_same_itemsize_checks_axis(uses, input, *item, *axis, c);
            diff_repack_ignores_unit_axis_strides(uses, input, c, &ours)?
        }
        Op::Narrow(axis, start, len) => {
            let c = diff_narrow_rejects_past_extent(uses, input, *axis, *start, *len, cuda);
            diff_empty_result_keeps_strides(uses, input, op, c)?
        }
        Op::Unsq(axis) => diff_invented_stride_zero_on_overflow(uses, input, &[*axis], cuda),
        Op::Unsqs(x, y) => diff_invented_stride_zero_on_overflow(uses, input, &[*x, *y], cuda),
        Op::Flip(_) | Op::Select(..) | Op::Slice(_) => {
            let c = diff_unused_stride_zeroed(uses, input, op, cuda, &ours)?;
            let c = diff_invariants_checked_in_bytes(uses, c);
            diff_empty_result_keeps_strides(uses, input, op, c)?
        }
        Op::Dense(..) => match cuda {
            Some(c) => Some(diff_dense_recomputes_strides(uses, input, op, c)?),
            None => None,
        },
        Op::Flat | Op::FlatRange(..) | Op::FlatMask(_) => match cuda {
            Some(c) => {
                let n = input.shape.len();
                let mask = match op {
                    Op::Flat => u64::MAX,
                    Op::FlatRange(s, e) if e - s >= 2 => (s + 1..*e).fold(0, |m, i| m | 1 << i),
                    Op::FlatRange(..) => 0,
                    Op::FlatMask(m) => *m,
                    _ => unreachable!(),
                } & if n == 0 { 0 } else { u64::MAX >> (64 - n) };
                let c = diff_zero_d_flattens_to_itself(uses, input, c);
                Some(diff_flatten_merges_unit_and_empty_axes(
                    uses, input, mask, c,
                )?)
            }
            None => None,
        },
        _ => cuda,
    };
    match (&ours, &expected) {
        (Ok(o), Some(e)) if o == e => Ok(()),
        (Err(_), None) => Ok(()),
        _ => Err(format!("ours {ours:?}, expected {expected:?}")),
    }
}

fn check_chain(uses: &mut Uses, f: &[&str]) -> Result<(), String> {
    let mut input = parse_parts(f[1]);
    for step in f[2..].chunks(2) {
        let op = parse_op(step[0]);
        let cuda = (step[1] != "error").then(|| parse_parts(step[1]));
        check_step(uses, &input, &op, cuda.clone()).map_err(|e| format!("{}: {e}", step[0]))?;
        // The next step starts from cuda.core's answer, the input cuda.core itself used,
        // while that is a value this crate can hold (not, say, an itemsize of 6).
        match cuda {
            Some(c) if build(&c).is_ok() => input = c,
            _ => break,
        }
    }
    Ok(())
}

/// `from_byte_strides` against cuda.core's `divide_strides=True`.
fn check_bytes(f: &[&str]) -> Result<(), String> {
    let shape: Vec<usize> = list(f[1]);
    let byte_strides: Vec<isize> = list(f[2]);
    let itemsize: usize = f[3].parse().expect("itemsize");
    let cuda = (f[4] != "error").then(|| parse_parts(f[4]));
    let ours = with_rank!(shape.len(), M => {
        Layout::<M>::from_byte_strides(arr(&shape), arr(&byte_strides), itemsize)
            .map(|l| parts_of(Any::from(l)))
    });
    match (&ours, &cuda) {
        (Ok(o), Some(c)) if o == c => Ok(()),
        (Err(_), None) => Ok(()),
        _ => Err(format!("ours {ours:?}, cuda.core {cuda:?}")),
    }
}

/// NumPy's verdict on a reshape without copy: where NumPy succeeds, so must we (with the
/// same offsets in C order, which `diff_reshape_without_copy` checks on the cuda.core
/// lines); where NumPy needs a copy, so do we.
fn check_numpy(f: &[&str]) -> Result<(), String> {
    let input = parse_parts(f[1]);
    let a = build(&input).map_err(|e| format!("building {input:?}: {e:?}"))?;
    let op = parse_op(f[2]);
    let ours = run(a, &op);
    if let Ok(o) = &ours {
        if offsets(o) != offsets(&input) {
            return Err(format!("reshape result {o:?} moves elements"));
        }
    }
    match (f[3], &ours) {
        ("ok", Ok(_)) | ("error", Err(_)) => Ok(()),
        (np, _) => Err(format!("NumPy says {np}, ours {ours:?}")),
    }
}

#[test]
fn cuda_core_cases_replay_with_every_difference_named() {
    let mut uses = Uses::new();
    let mut failures = Vec::new();
    let mut counts = BTreeMap::<&str, usize>::new();
    for (i, line) in DATA.lines().enumerate() {
        if line.starts_with('#') || line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split(' ').collect();
        *counts.entry(f[0]).or_default() += 1;
        let r = match f[0] {
            "Q" => check_query(&mut uses, &f),
            "M" => check_max_itemsize(&mut uses, &f),
            "C" => check_chain(&mut uses, &f),
            "N" => check_numpy(&f),
            "B" => check_bytes(&f),
            k => panic!("line {}: unknown kind {k}", i + 1),
        };
        if let Err(e) = r {
            failures.push(format!("line {}: {line}\n    {e}", i + 1));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of the cuda.core cases disagree:\n{}",
        failures.len(),
        failures
            .iter()
            .take(4000)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(counts.get("Q").copied().unwrap_or(0) >= 1000, "{counts:?}");
    assert!(counts.get("C").copied().unwrap_or(0) >= 5000, "{counts:?}");
    for d in DIFFERENCES {
        assert!(
            uses.contains_key(d),
            "difference {d} is never exercised: {uses:?}"
        );
    }
}

/// The promise of `doc::cuda_core` entry 10: for any two layouts of one shape, flattening
/// each with the `&` of their masks merges exactly the bits of that mask, so both end with
/// the same shape. cuda.core's test is local (each axis against its neighbour), ours
/// compares with the nearest axis of extent > 1, so this holds only because the bits of
/// extent-1 axes are the same (always set) in every layout of one shape. Exhaustive over
/// rank 3, extents 0..=2 and strides -2..=2.
#[test]
fn flattened_axis_masks_of_one_shape_combine_with_and() {
    let strides: Vec<[isize; 3]> = (0..125)
        .map(|k| [k / 25 - 2, k / 5 % 5 - 2, k % 5 - 2])
        .collect();
    for k in 0..27 {
        let shape = [k / 9, k / 3 % 3, k % 3];
        let layouts: Vec<Layout<3>> = strides
            .iter()
            .map(|&s| Layout::new(shape, s, 1).expect("small layout"))
            .collect();
        for a in &layouts {
            for b in &layouts {
                let m = a.flattened_axis_mask() & b.flattened_axis_mask();
                let (fa, fb) = (
                    a.flattened_with_mask(m).expect("mask in range"),
                    b.flattened_with_mask(m).expect("mask in range"),
                );
                assert_eq!(fa.shape(), fb.shape(), "{a:?} {b:?} mask {m:?}");
                assert_eq!(fa.rank(), 3 - m.bits().count_ones() as usize, "{a:?} {m:?}");
            }
        }
    }
}

/// Difference 7 directly: cuda.core checks overflow in elements only, so it holds a stride
/// of 2^62 elements of 2 bytes; this crate reports `OffsetOverflow` (the data file's cases
/// of it are all unused strides, which difference 16 zeroes instead).
#[test]
fn invariants_are_checked_in_bytes() {
    use strided_layout::Layout;
    assert_eq!(
        Layout::new([2], [1 << 62], 2),
        Err(LayoutError::OffsetOverflow)
    );
    assert!(Layout::new([2], [1 << 62], 1).is_ok());
    assert!(Layout::new([1], [1 << 62], 2).is_err());
}
