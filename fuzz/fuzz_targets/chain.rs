//! A layout from bytes, then a chain of up to 8 transforms and rank changes chosen by the
//! bytes. After each step: the result's shape and every offset (small layouts; corners for
//! large ones) match the model's prediction from the step's input, a refused step is refused
//! for the documented reason, and every query of the result matches the model.
#![no_main]

use arbitrary::{Result, Unstructured};
use libfuzzer_sys::fuzz_target;
use strided_layout::{Layout, LayoutError, Order, Slice};
use strided_layout_fuzz::{
    Any, ENUM_LIMIT, MAX_RANK, View, c_offsets, check_queries, indices, offset_model, parts,
    volume_model, with_any,
};

/// What a step must produce: an error, or a layout of `shape` whose offset at every new index
/// `j` is the input's offset at `map(j)` (the model's index map).
enum Want {
    Err(LayoutError),
    /// Any error is acceptable (the model does not decide the reason).
    SomeErr,
    Map(Vec<usize>, Box<dyn Fn(&[usize]) -> Vec<usize>>),
    /// Same offsets in C order, new shape (reshape, squeeze, flatten).
    SameCOrder,
    /// Dense in C order over the same shape, offset 0.
    DenseC,
    /// Either outcome is acceptable; if `Ok`, same offsets in C order.
    MaybeSameCOrder,
}

/// Python's `slice(start, stop, step).indices(len)` as (first index, step, count).
fn py_slice(
    start: Option<isize>,
    stop: Option<isize>,
    step: isize,
    len: usize,
) -> (i128, i128, usize) {
    let len = len as i128;
    // CPython's PySlice_Unpack clamps the step to -isize::MAX.
    let step = (step as i128).max(-(isize::MAX as i128));
    let (lower, upper) = if step < 0 { (-1, len - 1) } else { (0, len) };
    let norm = |v: Option<isize>, default: i128| match v {
        None => default,
        Some(v) => {
            let v = v as i128;
            if v < 0 {
                (v + len).max(lower)
            } else {
                v.min(upper)
            }
        }
    };
    let start = norm(start, if step < 0 { upper } else { lower });
    let stop = norm(stop, if step < 0 { lower } else { upper });
    let count = if step > 0 {
        if stop > start {
            (stop - start + step - 1) / step
        } else {
            0
        }
    } else if start > stop {
        (start - stop + (-step) - 1) / (-step)
    } else {
        0
    };
    (start, step, count as usize)
}

macro_rules! up {
    ($a:expr, |$l:ident| $body:expr) => {
        match $a {
            Any::R0($l) => $body.map(Any::R1),
            Any::R1($l) => $body.map(Any::R2),
            Any::R2($l) => $body.map(Any::R3),
            Any::R3($l) => $body.map(Any::R4),
            Any::R4($l) => $body.map(Any::R5),
            Any::R5($l) => $body.map(Any::R6),
            Any::R6(_) => return Ok(None),
        }
    };
}

macro_rules! down {
    ($a:expr, |$l:ident| $body:expr) => {
        match $a {
            Any::R0(_) => return Ok(None),
            Any::R1($l) => $body.map(Any::R0),
            Any::R2($l) => $body.map(Any::R1),
            Any::R3($l) => $body.map(Any::R2),
            Any::R4($l) => $body.map(Any::R3),
            Any::R5($l) => $body.map(Any::R4),
            Any::R6($l) => $body.map(Any::R5),
        }
    };
}

/// `DynLayout<N>` back to an `Any` of its rank.
macro_rules! from_dyn {
    ($d:expr) => {{
        let d = $d;
        match d.rank() {
            0 => d.to_layout::<0>().map(Any::R0),
            1 => d.to_layout::<1>().map(Any::R1),
            2 => d.to_layout::<2>().map(Any::R2),
            3 => d.to_layout::<3>().map(Any::R3),
            4 => d.to_layout::<4>().map(Any::R4),
            5 => d.to_layout::<5>().map(Any::R5),
            _ => d.to_layout::<6>().map(Any::R6),
        }
        .expect("a DynLayout converts to a Layout of its own rank")
    }};
}

fn same_rank<const N: usize>(
    l: Layout<N>,
    u: &mut Unstructured<'_>,
) -> Result<(core::result::Result<Layout<N>, LayoutError>, Want)> {
    let shape = l.shape();
    let axis = u.int_in_range(0..=N)?; // N: out of range on purpose
    Ok(match u.int_in_range(0..=5)? {
        0 => {
            let mut axes: [usize; N] = core::array::from_fn(|k| k);
            for k in (1..N).rev() {
                axes.swap(k, u.int_in_range(0..=k)?);
            }
            if N > 0 && u.ratio(1, 8)? {
                axes[0] = u.int_in_range(0..=N)?; // maybe not a permutation
            }
            let mut sorted = axes;
            sorted.sort_unstable();
            let is_perm = sorted.iter().enumerate().all(|(k, &a)| k == a);
            let want = if !is_perm {
                Want::SomeErr
            } else {
                let new_shape = axes.iter().map(|&a| shape[a]).collect();
                Want::Map(
                    new_shape,
                    Box::new(move |j| {
                        let mut i = vec![0; N];
                        for k in 0..N {
                            i[axes[k]] = j[k];
                        }
                        i
                    }),
                )
            };
            (l.permuted(axes), want)
        }
        1 => {
            let want = if axis >= N {
                Want::Err(LayoutError::AxisOutOfRange { axis, ndim: N })
            } else {
                Want::Map(
                    shape.to_vec(),
                    Box::new(move |j| {
                        let mut i = j.to_vec();
                        i[axis] = shape[axis] - 1 - j[axis];
                        i
                    }),
                )
            };
            (l.flipped(axis), want)
        }
        2 => {
            let e = if axis < N { shape[axis] } else { 4 };
            let start = u.int_in_range(0..=e.saturating_add(1))?;
            let len = u.int_in_range(0..=e.saturating_add(1))?;
            let want = if axis >= N {
                Want::Err(LayoutError::AxisOutOfRange { axis, ndim: N })
            } else if start.checked_add(len).is_none_or(|end| end > e) {
                Want::Err(LayoutError::RangeOutOfBounds { axis })
            } else {
                let mut new_shape = shape.to_vec();
                new_shape[axis] = len;
                Want::Map(
                    new_shape,
                    Box::new(move |j| {
                        let mut i = j.to_vec();
                        i[axis] += start;
                        i
                    }),
                )
            };
            (l.narrowed(axis, start, len), want)
        }
        3 => {
            let mut slices = [Slice::new(None, None, 1); N];
            let mut picks: Vec<(i128, i128, usize)> = Vec::with_capacity(N);
            let mut zero_step = None;
            for k in 0..N {
                let bound = |u: &mut Unstructured<'_>| -> Result<Option<isize>> {
                    Ok(if u.ratio(1, 3)? {
                        None
                    } else {
                        Some(u.int_in_range(-6..=6)?)
                    })
                };
                let start = bound(u)?;
                let stop = bound(u)?;
                let step = if u.ratio(1, 16)? {
                    0
                } else {
                    *u.choose(&[1, 2, 3, -1, -2, isize::MAX, isize::MIN])?
                };
                slices[k] = Slice::new(start, stop, step);
                if step == 0 && zero_step.is_none() {
                    zero_step = Some(k);
                }
                picks.push(if step == 0 {
                    (0, 1, 0)
                } else {
                    py_slice(start, stop, step, shape[k])
                });
            }
            let want = match zero_step {
                Some(axis) => Want::Err(LayoutError::ZeroStep { axis }),
                None => {
                    let new_shape = picks.iter().map(|p| p.2).collect();
                    Want::Map(
                        new_shape,
                        Box::new(move |j| {
                            (0..N)
                                .map(|k| (picks[k].0 + j[k] as i128 * picks[k].1) as usize)
                                .collect()
                        }),
                    )
                }
            };
            (l.sliced(slices), want)
        }
        4 => {
            let b = u.int_in_range(0..=N)?;
            let want = if axis >= N || b >= N {
                Want::SomeErr
            } else {
                let mut new_shape = shape.to_vec();
                new_shape.swap(axis, b);
                Want::Map(
                    new_shape,
                    Box::new(move |j| {
                        let mut i = j.to_vec();
                        i.swap(axis, b);
                        i
                    }),
                )
            };
            (l.transposed(axis, b), want)
        }
        _ => (l.to_dense(Order::C), Want::DenseC),
    })
}

/// One step: the result (`None`: the step does not apply at this rank) and what it must be.
fn step(
    a: &Any,
    u: &mut Unstructured<'_>,
) -> Result<Option<(core::result::Result<Any, LayoutError>, Want)>> {
    let v = a.view();
    let n = v.shape.len();
    Ok(Some(match u.int_in_range(0..=5)? {
        0 => {
            let (r, w) = with_any!(*a, |l| {
                let (r, w) = same_rank(l, u)?;
                (r.map(|x| Any::wrap(x).expect("rank <= 6")), w)
            });
            (r, w)
        }
        1 => {
            let axis = u.int_in_range(0..=n + 1)?;
            let r = up!(*a, |l| l.unsqueezed(axis));
            let want = if axis > n {
                Want::SomeErr
            } else {
                let mut s = v.shape.clone();
                s.insert(axis, 1);
                Want::Map(
                    s,
                    Box::new(move |j| {
                        let mut i = j.to_vec();
                        i.remove(axis);
                        i
                    }),
                )
            };
            (r, want)
        }
        2 => {
            let axis = u.int_in_range(0..=n)?;
            let e = v.shape.get(axis).copied().unwrap_or(1);
            let index = u.int_in_range(0..=e)?;
            let r = down!(*a, |l| l.selected(axis, index));
            let want = if axis >= n {
                Want::SomeErr
            } else if index >= e {
                Want::Err(LayoutError::IndexOutOfRange { axis })
            } else {
                let mut s = v.shape.clone();
                s.remove(axis);
                Want::Map(
                    s,
                    Box::new(move |j| {
                        let mut i = j.to_vec();
                        i.insert(axis, index);
                        i
                    }),
                )
            };
            (r, want)
        }
        3 => {
            // Broadcast to rank n or n + 1: each extent 1 may grow, others stay (or mismatch).
            let grow = u.ratio(1, 2)? && n < MAX_RANK;
            let lead = u.int_in_range(0..=3)?;
            let mut target: Vec<usize> = Vec::new();
            if grow {
                target.push(lead);
            }
            for &e in &v.shape {
                target.push(if e == 1 {
                    u.int_in_range(0..=3)?
                } else if u.ratio(1, 8)? {
                    e + 1
                } else {
                    e
                });
            }
            let ok = v
                .shape
                .iter()
                .zip(&target[target.len() - n..])
                .all(|(&e, &t)| e == 1 || e == t);
            let r = if grow {
                up!(*a, |l| l.broadcast_to(target.clone().try_into().unwrap()))
            } else {
                with_any!(*a, |l| bcast_same(l, &target))
            };
            let off = target.len() - n;
            let src = v.shape.clone();
            let want = if !ok {
                Want::SomeErr
            } else {
                Want::Map(
                    target.clone(),
                    Box::new(move |j| {
                        (0..src.len())
                            .map(|k| if src[k] == 1 { 0 } else { j[k + off] })
                            .collect()
                    }),
                )
            };
            (r, want)
        }
        4 => {
            // Reshape to a random factorisation of the volume (rank n or n ± 1), maybe with -1.
            let Some(vol) = volume_model(&v.shape) else {
                return Ok(None);
            };
            let m = (n as isize + u.int_in_range(-1..=1)?).clamp(0, MAX_RANK as isize) as usize;
            let mut target: Vec<isize> = vec![1; m];
            let mut rest = vol;
            for k in 0..m {
                if k + 1 == m {
                    target[k] = rest as isize;
                } else {
                    let d = *u.choose(&[1usize, 2, 3, 4])?;
                    if rest % d == 0 && rest > 0 {
                        target[k] = d as isize;
                        rest /= d;
                    }
                }
            }
            if m == 0 && vol != 1 {
                return Ok(None);
            }
            let infer = m > 0 && vol > 0 && u.ratio(1, 3)?;
            let mut t2 = target.clone();
            if infer {
                let k = u.int_in_range(0..=m - 1)?;
                t2[k] = -1;
            }
            let new_shape: Vec<usize> = target.iter().map(|&x| x as usize).collect();
            let r = match m {
                0 => with_any!(*a, |l| l
                    .reshaped::<0>(t2.clone().try_into().unwrap())
                    .map(Any::R0)),
                1 => with_any!(*a, |l| l
                    .reshaped::<1>(t2.clone().try_into().unwrap())
                    .map(Any::R1)),
                2 => with_any!(*a, |l| l
                    .reshaped::<2>(t2.clone().try_into().unwrap())
                    .map(Any::R2)),
                3 => with_any!(*a, |l| l
                    .reshaped::<3>(t2.clone().try_into().unwrap())
                    .map(Any::R3)),
                4 => with_any!(*a, |l| l
                    .reshaped::<4>(t2.clone().try_into().unwrap())
                    .map(Any::R4)),
                5 => with_any!(*a, |l| l
                    .reshaped::<5>(t2.clone().try_into().unwrap())
                    .map(Any::R5)),
                _ => with_any!(*a, |l| l
                    .reshaped::<6>(t2.clone().try_into().unwrap())
                    .map(Any::R6)),
            };
            // A C-contiguous layout always reshapes; otherwise the model does not decide.
            let c_contig = with_any!(*a, |l| l.is_contiguous_c());
            let want = match &r {
                Ok(got) => {
                    assert_eq!(got.view().shape, new_shape, "reshape {v:?} to {t2:?}");
                    Want::SameCOrder
                }
                Err(_) if c_contig => panic!("C-contiguous {v:?} refused reshape to {t2:?}: {r:?}"),
                Err(_) => Want::MaybeSameCOrder,
            };
            (r, want)
        }
        _ => {
            let squeeze = u.ratio(1, 2)?;
            let r = if squeeze {
                with_any!(*a, |l| from_dyn!(l.squeezed()))
            } else {
                with_any!(*a, |l| from_dyn!(l.flattened()))
            };
            let vol = volume_model(&v.shape).unwrap();
            let rv = r.view();
            assert_eq!(volume_model(&rv.shape), Some(vol), "{v:?} -> {rv:?}");
            if squeeze && vol > 0 {
                let s: Vec<usize> = v.shape.iter().copied().filter(|&e| e != 1).collect();
                assert_eq!(rv.shape, s, "squeezed {v:?}");
            }
            (Ok(r), Want::SameCOrder)
        }
    }))
}

fn bcast_same<const N: usize>(
    l: Layout<N>,
    target: &[usize],
) -> core::result::Result<Any, LayoutError> {
    l.broadcast_to::<N>(target.try_into().unwrap())
        .map(|x| Any::wrap(x).expect("rank <= 6"))
}

/// The input's offset at each index, for the index-map checks.
fn check_map(input: &View, out: &Any, shape: &[usize], map: &dyn Fn(&[usize]) -> Vec<usize>) {
    let ov = out.view();
    assert_eq!(ov.shape, shape, "{input:?} -> {ov:?}");
    let vol = volume_model(shape).unwrap();
    let check = |j: &[usize]| {
        let i = map(j);
        let want = offset_model(&input.strides, input.offset, &i);
        assert_eq!(
            offset_model(&ov.strides, ov.offset, j),
            want,
            "{input:?} -> {ov:?} at {j:?}"
        );
    };
    if vol <= ENUM_LIMIT {
        for j in indices(shape) {
            check(&j);
        }
    } else if vol > 0 {
        check(&vec![0; shape.len()]);
        check(&shape.iter().map(|&e| e - 1).collect::<Vec<_>>());
    }
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(p) = parts(&mut u, 4) else { return };
    let Ok(mut a) = Any::build(&p) else { return };
    check_queries(&a);
    for _ in 0..8 {
        let input = a.view();
        let small = volume_model(&input.shape).is_some_and(|v| v <= ENUM_LIMIT);
        let Ok(Some((r, want))) = step(&a, &mut u) else {
            break;
        };
        let out = match (r, want) {
            (Err(e), Want::Err(w)) => {
                assert_eq!(e, w, "{input:?}");
                continue;
            }
            (Err(_), Want::SomeErr | Want::MaybeSameCOrder) => continue,
            // Any other refusal must be an invariant the result would break.
            (Err(e), _) => {
                assert!(
                    matches!(e, LayoutError::OffsetOverflow | LayoutError::VolumeOverflow),
                    "{input:?}: {e:?}"
                );
                continue;
            }
            (Ok(out), Want::Err(_) | Want::SomeErr) => {
                panic!("{input:?}: expected an error, got {out:?}")
            }
            (Ok(out), Want::Map(shape, map)) => {
                check_map(&input, &out, &shape, &*map);
                out
            }
            (Ok(out), Want::SameCOrder | Want::MaybeSameCOrder) => {
                if small {
                    assert_eq!(
                        c_offsets(&out),
                        c_offsets(&a),
                        "{input:?} -> {:?}",
                        out.view()
                    );
                }
                out
            }
            (Ok(out), Want::DenseC) => {
                let ov = out.view();
                assert_eq!(ov.shape, input.shape);
                if small {
                    let offs = c_offsets(&out);
                    assert!(
                        offs.iter().enumerate().all(|(t, &o)| o == t as i128),
                        "{ov:?}"
                    );
                }
                out
            }
        };
        check_queries(&out);
        a = out;
    }
});
