//! `KernelLayout::<I, N>::try_from` (the `from_layout` packing) for `I` in i8, i16, u16, i32, u32, i64, u64: it succeeds
//! exactly when the model says every extent, stride, the offset, the volume and both offset
//! bounds fit `I`, and then `offset_of`, `offset_of_linear` and `checked_offset_of` agree with
//! the model at every index (small layouts) or at the corners and a few indices from the
//! input (large ones). Also feeds arbitrary bytes to the device math (must not panic).
#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use strided_layout::{Layout, LayoutError};
use strided_layout::gpu::{KernelIndex, KernelLayout};
use strided_layout_fuzz::{Any, ENUM_LIMIT, bounds_model, indices, offset_model, parts, with_any};

fn fits<I: TryFrom<i128>>(v: i128) -> bool {
    I::try_from(v).is_ok()
}

fn check<I, const N: usize>(l: &Layout<N>, probes: &[Vec<usize>])
where
    I: KernelIndex + TryFrom<i128> + Into<i128> + core::fmt::Debug,
{
    let (shape, strides, offset) = (l.shape(), l.strides(), l.offset());
    let want_ok = shape.iter().all(|&e| fits::<I>(e as i128))
        && strides.iter().all(|&s| fits::<I>(s as i128))
        && fits::<I>(offset as i128)
        && fits::<I>(l.volume() as i128)
        && bounds_model(&shape, &strides, offset)
            .is_none_or(|(lo, hi)| fits::<I>(lo) && fits::<I>(hi));
    let k = KernelLayout::<I, N>::try_from(l);
    let k = match k {
        Ok(k) => {
            assert!(
                want_ok,
                "{l:?} accepted for {}",
                core::any::type_name::<I>()
            );
            k
        }
        Err(e) => {
            assert!(
                !want_ok,
                "{l:?} refused for {}",
                core::any::type_name::<I>()
            );
            assert_eq!(e, LayoutError::IndexTypeOverflow);
            return;
        }
    };
    assert_eq!(k.volume().into(), l.volume() as i128);
    let to_i = |v: usize| I::try_from(v as i128).ok().unwrap();
    let one = |ix: &[usize]| {
        let want = offset_model(&strides, offset, ix);
        let index: [I; N] = core::array::from_fn(|a| to_i(ix[a]));
        assert_eq!(k.offset_of(index).into(), want, "{l:?} at {ix:?}");
        assert_eq!(k.checked_offset_of(index).map(Into::into), Some(want));
        // The C-order position of `ix`.
        let mut t: u128 = 0;
        for (a, &i) in ix.iter().enumerate() {
            t = t * shape[a] as u128 + i as u128;
        }
        let t = I::try_from(t as i128).ok().unwrap();
        assert_eq!(k.offset_of_linear(t).into(), want, "{l:?} linear at {ix:?}");
    };
    if l.volume() <= ENUM_LIMIT {
        for ix in indices(&shape) {
            one(&ix);
        }
    } else {
        for ix in probes {
            one(ix);
        }
    }
}

fn all<const N: usize>(l: &Layout<N>, probes: &[Vec<usize>]) {
    check::<i8, N>(l, probes);
    check::<i16, N>(l, probes);
    check::<u16, N>(l, probes);
    check::<i32, N>(l, probes);
    check::<u32, N>(l, probes);
    check::<i64, N>(l, probes);
    check::<u64, N>(l, probes);
}

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(p) = parts(&mut u, 6) else { return };
    let Ok(a) = Any::build(&p) else { return };
    let shape = a.view().shape;
    let mut probes = Vec::new();
    if !shape.contains(&0) {
        probes.push(vec![0; shape.len()]);
        probes.push(shape.iter().map(|&e| e - 1).collect());
        for _ in 0..4 {
            let ix: Option<Vec<usize>> = shape
                .iter()
                .map(|&e| u.int_in_range(0..=e - 1).ok())
                .collect();
            if let Some(ix) = ix {
                probes.push(ix);
            }
        }
    }
    with_any!(&a, |l| all(l, &probes));
    // Arbitrary words as a rank-2 i32 parameter: the device math must stay total.
    let words: [i32; 13] = core::array::from_fn(|_| u.arbitrary().unwrap_or(0));
    let idx: [i32; 2] = core::array::from_fn(|_| u.arbitrary().unwrap_or(0));
    let lin: i32 = u.arbitrary().unwrap_or(0);
    let raw = raw_param(words);
    let _ = (
        raw.offset_of(idx),
        raw.offset_of_linear(lin),
        raw.checked_offset_of(idx),
        raw.volume(),
        raw.interleave(),
    );
});

/// A `KernelLayout<i32, 2>` with arbitrary fields, through its byte representation (the way a
/// kernel receives it). Uses the `bytemuck` feature.
fn raw_param(words: [i32; 13]) -> KernelLayout<i32, 2> {
    bytemuck::cast(words)
}
