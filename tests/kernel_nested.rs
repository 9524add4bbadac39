//! `KernelNestedLayout`, the kernel parameter of a nested layout, against `NestedLayout`
//! itself (which the CuTe and oneDNN corpora check): every coordinate of the CuTe corpus's
//! layouts, of every oneDNN format of that corpus, and of every small nested layout of
//! `nested::every_small_nested_layout_matches_the_model` (through `agrees`), in `i64` and in
//! narrow types where they pack; every refusal by its rule.

use strided_layout::LayoutError;
use strided_layout::gpu::{ABI_VERSION, KernelIndex, KernelNestedLayout};
use strided_layout::nested::{NestedError, NestedLayout, RankedNested};

/// The multi-index of 1-D coordinate `lin` (the first mode fastest) over modes of `sizes`.
fn colex(mut lin: usize, sizes: &[usize]) -> Vec<usize> {
    let mut index = Vec::with_capacity(sizes.len());
    for (k, &s) in sizes.iter().enumerate() {
        if k + 1 == sizes.len() || s == 0 {
            index.push(lin);
            lin = 0;
        } else {
            index.push(lin % s);
            lin /= s;
        }
    }
    index
}

/// Packs `n` for `I` with rank `R` and `B` leaves per mode and, where it packs, compares every
/// coordinate (at most `limit`, 1-D and multi-index) with the nested layout's own answer;
/// returns whether it packed. A refusal must be the lowering's, a mode of more than `B`
/// leaves, or `I` too narrow (then `i64` packs).
fn agrees_as<I, const R: usize, const B: usize, const L: usize>(
    n: &NestedLayout<L>,
    limit: usize,
) -> bool
where
    I: KernelIndex + TryFrom<usize> + Into<i128> + core::fmt::Debug,
{
    let k = match KernelNestedLayout::<I, R, B>::try_from(n) {
        Ok(k) => k,
        Err(NestedError::Layout(LayoutError::IndexTypeOverflow)) => {
            let wide = KernelNestedLayout::<i64, R, B>::try_from(n);
            assert!(wide.is_ok(), "{n}: refused for the type, and for i64: {wide:?}");
            return false;
        }
        Err(NestedError::TooManyLeaves { max }) => {
            assert_eq!(max, B);
            return false;
        }
        Err(e) => {
            assert_eq!(n.lowered::<R>().err(), Some(e), "{n}");
            return false;
        }
    };
    assert!(k.is_current());
    assert_eq!(k.words().count(), 3 + 3 * R + 5 * R * B);
    let size = n.size();
    assert_eq!(k.size().into(), size as i128, "{n}");
    let sizes: Vec<usize> = k.sizes().iter().map(|&s| s.into() as usize).collect();
    let conv = |v: usize| I::try_from(v).ok().unwrap();
    for c in 0..size.min(limit) {
        let want = n.offset_of_linear(c).unwrap() as i128;
        assert_eq!(k.offset_of_linear(conv(c)).into(), want, "{n} at {c}");
        let index = colex(c, &sizes);
        let arr: [I; R] = core::array::from_fn(|j| conv(index[j]));
        assert_eq!(n.offset_of(&index).unwrap() as i128, want, "{n} {index:?}");
        assert_eq!(k.offset_of(arr).into(), want, "{n} {index:?}");
        assert_eq!(k.checked_offset_of(arr).map(Into::into), Some(want));
    }
    // Past a mode's size, and a negative coordinate where the type has one: refused.
    if let Some(&s0) = sizes.first() {
        let mut arr = [I::zero(); R];
        arr[0] = conv(s0);
        assert_eq!(k.checked_offset_of(arr), None, "{n}");
        if I::min_value() < I::zero() {
            arr[0] = I::zero() - I::one();
            assert_eq!(k.checked_offset_of(arr), None, "{n}");
        }
    }
    true
}

/// [`agrees_as`] in `i64` (which must pack unless the lowering or `B` refuses) and in `i8`,
/// `u16` and `i32`, for the layout's rank (0 to 4); whether `i64` packed.
pub fn agrees<const L: usize>(n: &NestedLayout<L>, limit: usize) -> bool {
    fn all<const R: usize, const L: usize>(n: &NestedLayout<L>, limit: usize) -> bool {
        // The `const fn` of each type packs what the generic conversion does.
        assert_eq!(
            KernelNestedLayout::<i64, R, 4>::from_nested(n),
            KernelNestedLayout::<i64, R, 4>::try_from(n)
        );
        assert_eq!(
            KernelNestedLayout::<i8, R, 2>::from_nested(n),
            KernelNestedLayout::<i8, R, 2>::try_from(n)
        );
        assert_eq!(
            KernelNestedLayout::<u32, R, 3>::from_nested(n),
            KernelNestedLayout::<u32, R, 3>::try_from(n)
        );
        let wide = agrees_as::<i64, R, 4, L>(n, limit);
        let narrow = [
            agrees_as::<i8, R, 4, L>(n, limit),
            agrees_as::<u16, R, 3, L>(n, limit),
            agrees_as::<i32, R, 4, L>(n, limit),
        ];
        if !wide {
            assert!(!narrow.iter().any(|&p| p), "{n}: a narrow type packs, i64 not");
        }
        wide
    }
    match n.rank() {
        1 => all::<1, L>(n, limit),
        2 => all::<2, L>(n, limit),
        3 => all::<3, L>(n, limit),
        4 => all::<4, L>(n, limit),
        _ => false,
    }
}

/// Every layout of the CuTe corpus (`tests/data/cute_nested.tsv`, 10,024 layouts CuTe's
/// headers answered; `nested::cute_agrees` checks `NestedLayout` against it): packed and every
/// coordinate compared. CuTe's modes nest to depth 3 and mix leaves freely, so some need more
/// than four block levels in all or more than four leaves in a mode; the rest must pack.
#[test]
fn the_cute_corpus_packs_and_agrees() {
    let text = include_str!("data/cute_nested.tsv");
    let (mut cases, mut packed) = (0usize, 0usize);
    for line in text.lines().skip(1) {
        let layout = line.split('\t').next().unwrap();
        let n: NestedLayout<8> = layout.parse().unwrap();
        if agrees(&n, 256) {
            packed += 1;
        }
        cases += 1;
    }
    assert!(cases >= 10_000, "{cases} cases");
    println!("{packed} of {cases} CuTe layouts packed");
    assert!(packed >= 10_000, "{packed} of {cases} packed");
}

/// Every oneDNN format of `tests/data/onednn_formats.tsv` (two blocked axes, an axis blocked
/// twice, padded channels): packed with `B = 3`, and every element's offset, in logical
/// row-major order, is oneDNN's own.
#[test]
fn every_onednn_format_packs_at_onednn_offsets() {
    fn run<const R: usize>(n: &NestedLayout<16>, dims: &[usize], want: &[isize]) {
        let k = KernelNestedLayout::<i32, R, 3>::from_nested(n).unwrap();
        let mut index = [0i32; R];
        for (e, &o) in want.iter().enumerate() {
            assert_eq!(k.offset_of(index) as isize, o, "{n} element {e} {index:?}");
            for d in (0..R).rev() {
                index[d] += 1;
                if (index[d] as usize) < dims[d] {
                    break;
                }
                index[d] = 0;
            }
        }
        assert!(agrees(n, 4096) || R > 4, "{n}");
    }
    let text = include_str!("data/onednn_formats.tsv");
    let mut cases = 0;
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let [tag, dims, _, offsets] = f[..] else {
            panic!("bad line {line}");
        };
        let dims: Vec<usize> = dims.split(',').map(|d| d.parse().unwrap()).collect();
        let n = NestedLayout::<16>::onednn(tag, &dims, 4).unwrap();
        let want: Vec<isize> = offsets.split(',').map(|o| o.parse().unwrap()).collect();
        match dims.len() {
            1 => run::<1>(&n, &dims, &want),
            2 => run::<2>(&n, &dims, &want),
            3 => run::<3>(&n, &dims, &want),
            4 => run::<4>(&n, &dims, &want),
            5 => run::<5>(&n, &dims, &want),
            6 => run::<6>(&n, &dims, &want),
            r => panic!("{tag}: rank {r}"),
        }
        cases += 1;
    }
    assert!(cases >= 200, "{cases} cases");
}

/// Each refusal, by its rule.
#[test]
fn refusals_name_their_rule() {
    let parse = |t: &str| t.parse::<NestedLayout<8>>().unwrap();
    // The rank.
    assert_eq!(
        KernelNestedLayout::<i32, 3, 2>::from_nested(&parse("(4,8):(8,1)")),
        Err(NestedError::RankMismatch {
            expected: 3,
            found: 2
        })
    );
    // A partial block below the top of a mode, or a cut layout: the kernels' form has none.
    assert_eq!(
        KernelNestedLayout::<i32, 1, 4>::from_nested(&parse("(((2,3)|5,4)):(((1,2),10))")),
        Err(NestedError::CutMode { mode: 0 })
    );
    assert_eq!(
        KernelNestedLayout::<i32, 2, 2>::from_nested(&parse("(4,3)|10:(1,4)")),
        Err(NestedError::CutMode { mode: 0 })
    );
    // A mode of three leaves in a parameter of two.
    let twice = parse("((2,3,4),5):((1,2,6),24)");
    assert_eq!(
        KernelNestedLayout::<i32, 2, 2>::from_nested(&twice),
        Err(NestedError::TooManyLeaves { max: 2 })
    );
    assert!(KernelNestedLayout::<i32, 2, 3>::from_nested(&twice).is_ok());
    // Leaves of extent 1 take no slot.
    let ones = parse("((1,4,1),(1,1)):((7,1,9),(3,3))");
    let k = KernelNestedLayout::<i32, 2, 1>::from_nested(&ones).unwrap();
    assert_eq!(k.extents(), [[4], [1]]);
    // Each value that must fit the type: an extent, a stride that reaches an offset, the
    // offset, an offset bound, the size, the offset of a layout with a partial block.
    let overflow = Err(NestedError::Layout(LayoutError::IndexTypeOverflow));
    for text in [
        "200:1",
        "(2,2):(1,200)",
        "(2,2):(1,2) +200",
        "(2,(2,2)):(100,(1,30))",
        "(12,12):(1,12)",
        "((2,2)|3,1):((1,-100),0) +150",
    ] {
        let l = parse(text);
        let rank_ok = match l.rank() {
            1 => KernelNestedLayout::<i8, 1, 2>::from_nested(&l).map(|_| ()),
            _ => KernelNestedLayout::<i8, 2, 2>::from_nested(&l).map(|_| ()),
        };
        assert_eq!(rank_ok, overflow, "{text}");
        assert!(agrees(&l, 1000), "{text} packs in i64");
    }
    // A stride on a leaf of extent 1 never reaches an offset: it need not fit.
    assert!(KernelNestedLayout::<i8, 2, 1>::from_nested(&parse("(1,4):(1000,1)")).is_ok());
}

/// A leaf's weight may wrap the index type while every offset fits: the sum is exact.
#[test]
fn weights_that_wrap_still_give_exact_offsets() {
    // Leaves (2, 2) with strides 60 and -60: weights 60 and -60 - 2·60 = -180 (past i8).
    let l: NestedLayout<4> = "((2,2)):((60,-60)) +60".parse().unwrap();
    assert!(agrees_as::<i8, 1, 2, 4>(&l, 100));
    let k = KernelNestedLayout::<i8, 1, 2>::from_nested(&l).unwrap();
    let got: Vec<i8> = (0..4).map(|c| k.offset_of_linear(c)).collect();
    assert_eq!(got, [60, 120, 0, 60]);
}

/// The fixed-rank front packs the same, and the version is the header's.
#[test]
fn ranked_layouts_pack_and_the_version_is_the_headers() {
    let r = RankedNested::<2, 8>::new("((8,3)|20,5):((1,40),8)".parse().unwrap()).unwrap();
    let a = KernelNestedLayout::<u32, 2, 2>::try_from(&r).unwrap();
    let b = KernelNestedLayout::<u32, 2, 2>::try_from(r.layout()).unwrap();
    assert_eq!(a, b);
    let header = strided_layout::gpu::KERNEL_HEADER;
    assert!(header.contains(&format!("#define STRIDED_LAYOUT_ABI_VERSION {ABI_VERSION}")));
    assert_eq!(a.words().next(), Some(ABI_VERSION));
}
