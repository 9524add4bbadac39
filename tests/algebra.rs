//! The layout algebra against CuTe itself (a corpus its headers wrote,
//! `scripts/cute_algebra_cases.sh`) and against its laws, exhaustively over small layouts:
//! coalescing keeps the function, composition is `a(b(i))` and associative, a layout and its
//! complement reach each offset once, the inverses invert, the divides and products rearrange
//! the coordinates they should. Every refusal is checked to name its rule.

use std::collections::HashSet;

use crate::common::small_scope;

use strided_layout::algebra::{self, AlgebraError};
use strided_layout::nested::{NestedError, NestedLayout};

type N = NestedLayout<8>;
type W = NestedLayout<16>;

/// The strides of the exhaustive scope: every stride up to 8 that the extents up to 4 make
/// interesting in the full scope (an optimised build, CI's `--release` run), about half of
/// them in the quick one (a debug build, README's `cargo test`; `small_scope::quick`).
fn strides() -> &'static [isize] {
    pick(&[0, 1, 2, 3, 4, 6, 8], &[0, 1, 3])
}

/// `full` in the full scope, `quick` (a subset) in the quick one (`small_scope::quick`).
fn pick<'a, T>(full: &'a [T], quick: &'a [T]) -> &'a [T] {
    if small_scope::quick() { quick } else { full }
}

fn parse(t: &str) -> N {
    t.parse().unwrap_or_else(|e| panic!("{t}: {e}"))
}

/// Every offset of `l`, coordinate `0..size` in CuTe's order.
fn offsets(l: &N) -> Vec<isize> {
    (0..l.size())
        .map(|i| l.offset_of_linear(i).unwrap())
        .collect()
}

/// The text of every layout with at most `max_leaves` leaves, extents from `extents` and
/// strides from `strides`, nested every way up to depth 2 for three leaves.
fn small_layouts(max_leaves: usize, extents: &[usize], strides: &[isize]) -> Vec<String> {
    let leaves: Vec<String> = extents
        .iter()
        .flat_map(|&e| strides.iter().map(move |&s| format!("{e}:{s}")))
        .collect();
    let split = |l: &String| {
        let (e, s) = l.split_once(':').unwrap();
        (e.to_owned(), s.to_owned())
    };
    let mut out = Vec::new();
    for a in &leaves {
        out.push(a.clone());
        out.push({
            let (e, s) = split(a);
            format!("({e}):({s})")
        });
    }
    if max_leaves >= 2 {
        for a in &leaves {
            for b in &leaves {
                let ((ea, sa), (eb, sb)) = (split(a), split(b));
                out.push(format!("({ea},{eb}):({sa},{sb})"));
                if max_leaves >= 3 {
                    for c in &leaves {
                        let (ec, sc) = split(c);
                        out.push(format!("({ea},{eb},{ec}):({sa},{sb},{sc})"));
                        out.push(format!("(({ea},{eb}),{ec}):(({sa},{sb}),{sc})"));
                        out.push(format!("({ea},({eb},{ec})):({sa},({sb},{sc}))"));
                    }
                }
            }
        }
    }
    out
}

/// `l`'s offsets as a set, if no two coincide.
fn unique(l: &N) -> Option<HashSet<isize>> {
    let o = offsets(l);
    let set: HashSet<isize> = o.iter().copied().collect();
    (set.len() == o.len()).then_some(set)
}

/// `(x, y)` as one rank-2 layout (CuTe's `make_layout(x, y)`).
fn pair(x: &N, y: &N) -> N {
    let (xs, ys) = (x.to_string(), y.to_string());
    let (xe, xd) = xs.split_once(':').unwrap();
    let (ye, yd) = ys.split_once(':').unwrap();
    parse(&format!("({xe},{ye}):({xd},{yd})"))
}

/// Coalescing keeps the function on its domain, leaves at most as many modes, and is
/// idempotent; `coalesce_modes` keeps the rank and the function.
#[test]
fn coalesce_keeps_the_function() {
    let all = small_layouts(3, &[1, 2, 3, 4], strides());
    assert!(all.len() > if small_scope::quick() { 5_000 } else { 60_000 });
    for t in &all {
        let a = parse(t);
        let c = algebra::coalesce(&a).unwrap();
        assert_eq!(offsets(&c), offsets(&a), "{t} -> {c}");
        assert!(c.depth() <= 1 && c.leaves() <= a.leaves(), "{t} -> {c}");
        assert_eq!(algebra::coalesce(&c).unwrap(), c, "{t}: idempotent");
        assert!(algebra::same_function(&a, &c).unwrap());
        let m = algebra::coalesce_modes(&a).unwrap();
        assert_eq!(
            (m.rank(), offsets(&m)),
            (a.rank(), offsets(&a)),
            "{t} -> {m}"
        );
    }
}

/// `composition(a, b)(i) == a(b(i))` wherever `b(i)` is a coordinate of `a` and `b` is
/// injective, shaped as `b`. (CuTe composes by `b`'s modes, `a(b_0(i_0)) + a(b_1(i_1)) + ..`,
/// which is `a(b(i))` when `b`'s modes land on `a`'s without carries: an injective `b` whose
/// leaves pass CuTe's strong divisibility conditions does.)
#[test]
fn composition_is_a_of_b() {
    // Powers of two in `a`'s extents and `b`'s strides: CuTe's weak stride condition (a
    // stride below the mode's size) is then the strong one (a stride divides it), under
    // which composing by modes is composing the functions.
    let lefts = small_layouts(2, &[1, 2, 4, 8], &[0, 1, 2, 4, 5]);
    let rights = small_layouts(2, &[1, 2, 3, 4], &[0, 1, 2, 4]);
    let mut composed = 0;
    for ta in &lefts {
        let a = parse(ta);
        for tb in &rights {
            let b = parse(tb);
            let Ok(c) = algebra::composition(&a, &b) else {
                continue;
            };
            assert_eq!(c.size(), b.size(), "{ta} o {tb} = {c}");
            if b.depth() > 0 {
                assert_eq!(c.rank(), b.rank(), "{ta} o {tb} = {c}");
            }
            if unique(&b).is_none() {
                continue;
            }
            for i in 0..b.size() {
                let j = b.offset_of_linear(i).unwrap().unsigned_abs();
                if j < a.size() {
                    assert_eq!(
                        c.offset_of_linear(i).unwrap(),
                        a.offset_of_linear(j).unwrap(),
                        "{ta} o {tb} = {c} at {i}"
                    );
                }
            }
            composed += 1;
        }
    }
    assert!(composed > 40_000, "{composed}");
}

/// `(a o b) o c` and `a o (b o c)` are the same function where both are defined and every
/// intermediate coordinate stays inside its layout's domain.
#[test]
fn composition_is_associative() {
    let all = small_layouts(2, &[2, 4], &[1, 2, 4]);
    let mut checked = 0;
    for ta in &all {
        let a = parse(ta);
        for tb in &all {
            let b = parse(tb);
            if b.offset_bounds().unwrap().1.unsigned_abs() >= a.size() {
                continue;
            }
            for tc in &all {
                let c = parse(tc);
                if c.offset_bounds().unwrap().1.unsigned_abs() >= b.size() {
                    continue;
                }
                let (Ok(ab), Ok(bc)) = (algebra::composition(&a, &b), algebra::composition(&b, &c))
                else {
                    continue;
                };
                let (Ok(l), Ok(r)) = (algebra::composition(&ab, &c), algebra::composition(&a, &bc))
                else {
                    continue;
                };
                assert_eq!(offsets(&l), offsets(&r), "({ta} o {tb}) o {tc}");
                checked += 1;
            }
        }
    }
    assert!(checked > 1_000, "{checked}");
}

/// A layout and its complement reach disjoint offsets (each once); where every stride of `a`
/// is a multiple of the span below it, together they reach exactly `0..n` for an `n` of at
/// least the cosize asked for.
#[test]
fn complement_completes() {
    let all = small_layouts(3, &[1, 2, 3, 4], strides());
    let mut exact = 0;
    for t in &all {
        let a = parse(t);
        for &m in pick(&[1, 8, 24, 64], &[24]) {
            match algebra::complement(&a, m) {
                Ok(c) => {
                    let both = pair(&a, &c);
                    let filtered = algebra::coalesce(&a).unwrap();
                    let stride0 = filtered.leaf_strides().iter().all(|&s| s == 0);
                    if stride0 {
                        continue;
                    }
                    let Some(set) = unique(&both) else {
                        // Only where `a` repeats offsets (a stride-0 leaf): the complement
                        // takes `a`'s distinct offsets.
                        assert!(
                            a.leaf_strides().contains(&0) || unique(&a).is_none(),
                            "{t}, {m}: {c}"
                        );
                        continue;
                    };
                    if compact_with_gaps(&a) {
                        let n = set.len();
                        assert!(n >= m, "{t}, {m}: {c}");
                        assert!((0..n as isize).all(|o| set.contains(&o)), "{t}, {m}: {c}");
                        exact += 1;
                    }
                    assert_eq!(c.offset(), 0);
                }
                Err(AlgebraError::NotInjective) => {
                    assert!(unique(&a).is_none() || !compact_with_gaps(&a), "{t}")
                }
                Err(e) => panic!("{t}, {m}: {e}"),
            }
        }
    }
    assert!(
        exact > if small_scope::quick() { 100 } else { 10_000 },
        "{exact}"
    );
}

/// Whether `a`'s non-trivial modes, by increasing stride, each start at a multiple of the
/// span of those below (the layouts CuTe's complement completes exactly).
fn compact_with_gaps(a: &N) -> bool {
    let mut modes: Vec<(isize, usize)> = a
        .leaf_strides()
        .iter()
        .zip(a.leaf_extents())
        .filter(|(s, e)| **s != 0 && **e != 1)
        .map(|(s, e)| (*s, *e))
        .collect();
    modes.sort_unstable();
    let mut span = 1isize;
    for (s, e) in modes {
        if s % span != 0 || s < span {
            return false;
        }
        span = s * e as isize;
    }
    true
}

/// `a(r(i)) == i` for every coordinate of the right inverse; `l(a(i)) == i` for every
/// coordinate of an injective `a` whose left inverse exists.
#[test]
fn inverses_invert() {
    let all = small_layouts(3, &[1, 2, 3, 4], strides());
    let mut left = 0;
    for t in &all {
        let a = parse(t);
        let r = algebra::right_inverse(&a).unwrap();
        for i in 0..r.size() {
            let j = r.offset_of_linear(i).unwrap().unsigned_abs();
            assert!(j < a.size(), "{t}: {r}");
            assert_eq!(
                a.offset_of_linear(j).unwrap(),
                i as isize,
                "{t}: {r} at {i}"
            );
        }
        if unique(&a).is_some() {
            if let Ok(l) = algebra::left_inverse(&a) {
                for i in 0..a.size() {
                    let o = a.offset_of_linear(i).unwrap().unsigned_abs();
                    assert_eq!(
                        l.offset_of_linear(o).ok(),
                        Some(i as isize),
                        "{t}: {l} at {i}"
                    );
                }
                left += 1;
            }
        }
    }
    assert!(
        left > if small_scope::quick() { 100 } else { 5_000 },
        "{left}"
    );
}

/// `logical_divide(a, b)` is `composition(a, (b, complement(b, size(a))))` for a coalesced
/// `a` of one mode, and a divide that keeps the size is a reordering of `a`'s coordinates:
/// the same offsets, each as often. Tiled and flat divides are the same function.
#[test]
fn divides_reorder() {
    let lefts = small_layouts(2, &[2, 4, 6], pick(&[1, 2, 3, 8], &[1, 8]));
    let tilers = small_layouts(2, &[1, 2, 3], pick(&[0, 1, 2, 4], &[0, 1, 2]));
    let mut kept = 0;
    for ta in &lefts {
        let a = parse(ta);
        for tb in &tilers {
            let b = parse(tb);
            let Ok(d) = algebra::logical_divide(&a, &b) else {
                continue;
            };
            assert_eq!(d.rank(), 2, "{ta} / {tb} = {d}");
            let flat = algebra::coalesce(&a).unwrap();
            if flat.depth() == 0 {
                let c = algebra::complement(&b, a.size()).unwrap();
                let want = algebra::composition(&a, &pair(&b, &c)).unwrap();
                assert_eq!(d, want, "{ta} / {tb}");
            }
            if d.size() == a.size() && unique(&b).is_some() && compact_with_gaps(&b) {
                let (mut x, mut y) = (offsets(&a), offsets(&d));
                x.sort_unstable();
                y.sort_unstable();
                assert_eq!(x, y, "{ta} / {tb} = {d}");
                kept += 1;
            }
            for other in [
                algebra::zipped_divide(&a, &b).unwrap(),
                algebra::tiled_divide(&a, &b).unwrap(),
                algebra::flat_divide(&a, &b).unwrap(),
            ] {
                assert_eq!(offsets(&other), offsets(&d), "{ta} / {tb}: {other}");
            }
        }
    }
    assert!(kept > pick(&[1_000], &[50])[0], "{kept}");
}

/// `logical_product(a, b)` is `(a, copies)`, its copies disjoint from `a` for a compact
/// injective block; the blocked and raked products are the same offsets per mode pair,
/// rearranged, and every product has `size(a)·size(b)` coordinates.
#[test]
fn products_repeat_the_block() {
    let blocks = small_layouts(2, &[1, 2, 3, 4], pick(&[0, 1, 2, 3, 4], &[0, 1, 2]));
    let tilers = small_layouts(2, &[1, 2, 3], pick(&[0, 1, 2, 3], &[0, 1]));
    let mut disjoint = 0;
    for ta in &blocks {
        let a = parse(ta);
        for tb in &tilers {
            let b = parse(tb);
            let Ok(p) = algebra::logical_product(&a, &b) else {
                continue;
            };
            assert_eq!(p.rank(), 2, "{ta} x {tb} = {p}");
            assert_eq!(p.size(), a.size() * b.size(), "{ta} x {tb} = {p}");
            // CuTe's definition: (a, composition(complement(a, size(a)·cosize(b)), b)).
            let c = algebra::complement(&a, a.size() * b.cosize()).unwrap();
            assert_eq!(
                p,
                pair(&a, &algebra::composition(&c, &b).unwrap()),
                "{ta} x {tb}"
            );
            for i in 0..a.size() {
                assert_eq!(
                    p.offset_of(&[i, 0]),
                    a.offset_of_linear(i),
                    "{ta} x {tb} = {p} at {i}"
                );
            }
            // Copies laid out contiguously (`b` one mode of stride 1 once coalesced) of a
            // block of powers of two take whole, distinct copies. (Where `b`'s strides pass
            // only CuTe's weak divisibility condition they may not: `2:3 x (2,2):(1,2)`
            // repeats offset 3, as CuTe's own product does.)
            let contiguous = algebra::coalesce(&b).unwrap().leaf_strides() == [1];
            let pow2 = a
                .leaf_extents()
                .iter()
                .chain(b.leaf_extents())
                .all(|e| e.is_power_of_two())
                && a.leaf_strides()
                    .iter()
                    .all(|s| *s == 0 || s.unsigned_abs().is_power_of_two());
            if unique(&a).is_some() && contiguous && pow2 && compact_with_gaps(&a) {
                assert!(unique(&p).is_some(), "{ta} x {tb} = {p}");
                disjoint += 1;
            }
            let t = algebra::tiled_product(&a, &b).unwrap();
            assert_eq!(offsets(&t), offsets(&p), "{ta} x {tb}: {t}");
            for q in [
                algebra::blocked_product(&a, &b),
                algebra::raked_product(&a, &b),
            ] {
                match q {
                    Ok(q) => {
                        let (mut x, mut y) = (offsets(&q), offsets(&p));
                        x.sort_unstable();
                        y.sort_unstable();
                        assert_eq!(x, y, "{ta} x {tb}: {q}");
                        assert_eq!(q.rank(), a.rank().max(b.rank()), "{ta} x {tb}: {q}");
                    }
                    Err(e) => assert_eq!(e, AlgebraError::RankMismatch, "{ta} x {tb}"),
                }
            }
        }
    }
    assert!(disjoint > pick(&[1_000], &[50])[0], "{disjoint}");
}

/// Every refusal names its rule, and the text of each is the `Display` the docs give.
#[test]
fn refusals_name_the_rule() {
    let a = parse("(4,6):(1,5)");
    assert_eq!(
        algebra::composition(&a, &parse("2:6")),
        Err(AlgebraError::StrideDivisibility { leaf: 0 })
    );
    assert_eq!(
        algebra::composition(&a, &parse("(2,6):(1,1)")),
        Err(AlgebraError::ShapeDivisibility { leaf: 1 })
    );
    assert_eq!(
        algebra::composition(&a, &parse("4:1 +1")),
        Err(AlgebraError::CoordinateOffset)
    );
    assert_eq!(
        algebra::complement(&parse("(2,4):(2,1)"), 16),
        Err(AlgebraError::NotInjective)
    );
    assert_eq!(
        algebra::complement(&parse("4:-1"), 16),
        Err(AlgebraError::NegativeStride)
    );
    assert_eq!(
        algebra::left_inverse(&parse("(2,2):(2,3)")),
        Err(AlgebraError::LeftInverseDivisibility)
    );
    assert_eq!(
        algebra::coalesce(&parse("((4,3)|10,5):((1,20),4)")),
        Err(AlgebraError::PartialBlock)
    );
    assert_eq!(
        algebra::coalesce(&parse("(0,3):(1,4)")),
        Err(AlgebraError::ZeroExtent)
    );
    assert_eq!(
        algebra::blocked_product(&parse("(4):(1)"), &parse("3:5")),
        Err(AlgebraError::RankMismatch)
    );
    let small: NestedLayout<2> = "(4,4):(1,8)".parse().unwrap();
    assert_eq!(
        algebra::logical_divide(&small, &"2:1".parse().unwrap()),
        Err(AlgebraError::Nested(NestedError::TooManyLeaves { max: 2 }))
    );
    assert_eq!(
        AlgebraError::ShapeDivisibility { leaf: 1 }.to_string(),
        "an extent of the right operand does not split evenly over the left operand's modes (leaf 1 of the right operand)"
    );
}

/// Offsets and element sizes: the data layout's pass to the result, coordinate maps have none.
#[test]
fn offsets_and_element_sizes() {
    let a = parse("(4,4):(1,8) +3 x4B");
    let d = algebra::logical_divide(&a, &parse("2:1")).unwrap();
    assert_eq!((d.offset(), d.itemsize()), (3, 4));
    assert_eq!(d.offset_of(&[0, 0]).unwrap(), 3);
    let c = algebra::complement(&a, 64).unwrap();
    assert_eq!((c.offset(), c.itemsize()), (0, 1));
    let r = algebra::right_inverse(&a).unwrap();
    assert_eq!((r.offset(), r.itemsize()), (0, 1));
    assert_eq!(
        algebra::coalesce(&a).unwrap().to_string(),
        "(4,4):(1,8) +3 x4B"
    );
}

/// By mode: mode `k` of the result is the whole-layout operation on mode `k` of `a` and
/// `tiler[k]`; the zipped, tiled and flat divides and products regroup the same modes (the
/// same offsets, each as often), and a tiler longer than the rank is refused.
#[test]
fn by_mode_is_mode_by_mode() {
    let lefts = [
        "(8,6):(1,8)",
        "(4,(2,3)):(2,(1,8))",
        "((2,4),6):((1,16),2) +3",
        "(6,4,2):(1,6,24)",
    ];
    let tilers = [
        vec!["2:1", "3:1"],
        vec!["4:2"],
        vec!["(2,2):(1,4)", "2:3"],
        vec!["2:1", "2:2", "2:1"],
        vec!["1:0", "3:2"],
    ];
    let mut checked = 0;
    for ta in lefts {
        let a = parse(ta);
        for t in &tilers {
            let tiler: Vec<N> = t.iter().map(|x| parse(x)).collect();
            if tiler.len() > a.rank() {
                assert_eq!(
                    algebra::logical_divide_by_mode(&a, &tiler),
                    Err(AlgebraError::TilerRank {
                        modes: tiler.len(),
                        rank: a.rank()
                    })
                );
                continue;
            }
            let mode = |k: usize| parse(&mode_text(&a, k));
            let sort = |mut v: Vec<isize>| {
                v.sort_unstable();
                v
            };
            if let Ok(c) = algebra::composition_by_mode(&a, &tiler) {
                assert_eq!(c.rank(), tiler.len(), "{ta} o {t:?}");
                for (k, b) in tiler.iter().enumerate() {
                    let want = algebra::composition(&mode(k), b).unwrap();
                    assert_eq!(mode_text(&c, k), whole_text(&want), "{ta} o {t:?} mode {k}");
                }
            }
            for (by, whole, op) in [
                (
                    algebra::logical_divide_by_mode(&a, &tiler),
                    algebra::logical_divide as fn(&N, &N) -> Result<N, AlgebraError>,
                    "/",
                ),
                (
                    algebra::logical_product_by_mode(&a, &tiler),
                    algebra::logical_product as fn(&N, &N) -> Result<N, AlgebraError>,
                    "x",
                ),
            ] {
                let Ok(d) = by else {
                    continue;
                };
                assert_eq!(
                    (d.rank(), d.offset()),
                    (a.rank(), a.offset()),
                    "{ta} {op} {t:?}"
                );
                for k in 0..a.rank() {
                    let want = if k < tiler.len() {
                        whole_text(&whole(&mode(k), &tiler[k]).unwrap())
                    } else {
                        mode_text(&a, k)
                    };
                    assert_eq!(mode_text(&d, k), want, "{ta} {op} {t:?} mode {k}");
                }
                let regrouped = if op == "/" {
                    [
                        algebra::zipped_divide_by_mode(&a, &tiler).unwrap(),
                        algebra::tiled_divide_by_mode(&a, &tiler).unwrap(),
                        algebra::flat_divide_by_mode(&a, &tiler).unwrap(),
                    ]
                } else {
                    let z = algebra::zipped_product_by_mode(&a, &tiler).unwrap();
                    [z, algebra::tiled_product_by_mode(&a, &tiler).unwrap(), z]
                };
                for r in regrouped {
                    assert_eq!(sort(offsets(&r)), sort(offsets(&d)), "{ta} {op} {t:?}: {r}");
                }
                checked += 1;
            }
        }
    }
    assert!(checked >= 20, "{checked}");
}

/// Mode `k` of `l` as text, as a layout of its own (offset and element size dropped).
fn mode_text(l: &N, k: usize) -> String {
    let s = l.to_string();
    let body = s.split(' ').next().unwrap();
    let (shape, stride) = body.split_once(':').unwrap();
    if l.depth() == 0 {
        assert_eq!(k, 0);
        return body.to_owned();
    }
    let pick = |t: &str| top_level(t)[k].to_owned();
    format!("{}:{}", pick(shape), pick(stride))
}

/// `l`'s text without offset and element size.
fn whole_text(l: &N) -> String {
    l.to_string().split(' ').next().unwrap().to_owned()
}

/// The top-level parts of a tuple's text `(x,(y,z),w)`.
fn top_level(t: &str) -> Vec<&str> {
    let inner = &t[1..t.len() - 1];
    let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, ch) in inner.char_indices() {
        match ch {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
}

/// The tiles of `local_tile` cover `a` once when the tiler divides it, each tile shaped as the
/// tiler; the threads of `local_partition` own each element once; bad coordinates and threads
/// are refused with their rule.
#[test]
fn partitions_cover_once() {
    for (ta, tiles, threads) in [
        ("(8,6):(1,8)", ["4:1", "3:1"], "(2,3):(3,1)"),
        ("(8,6):(6,1) x2B", ["2:1", "6:1"], "(4,2):(1,4)"),
        (
            "(4,(2,3)):(6,(1,2)) +5",
            ["2:1", "(2,3):(1,2)"],
            "(2,2):(1,2)",
        ),
        ("(16,8):(1,16)", ["8:2", "4:1"], "(4,8):(8,1)"),
    ] {
        let a = parse(ta);
        let tiler = [parse(tiles[0]), parse(tiles[1])];
        let counts: Vec<usize> = (0..2)
            .map(|k| {
                let m = parse(&mode_text(&a, k));
                m.size() / tiler[k].size()
            })
            .collect();
        let mut seen = std::collections::HashMap::<isize, usize>::new();
        for i in 0..counts[0] {
            for j in 0..counts[1] {
                let t = algebra::local_tile(&a, &tiler, &[i, j]).unwrap();
                assert_eq!(
                    t.size(),
                    tiler[0].size() * tiler[1].size(),
                    "{ta} tile {i},{j}: {t}"
                );
                for o in offsets(&t) {
                    *seen.entry(o).or_default() += 1;
                }
            }
        }
        let mut all = offsets(&a);
        all.sort_unstable();
        let mut got: Vec<isize> = seen.keys().copied().collect();
        got.sort_unstable();
        assert_eq!(got, all, "{ta}: tiles");
        assert!(seen.values().all(|&n| n == 1), "{ta}: tiles overlap");
        assert!(matches!(
            algebra::local_tile(&a, &tiler, &[counts[0], 0]),
            Err(AlgebraError::Nested(NestedError::IndexOutOfRange {
                mode: 0
            }))
        ));
        assert!(matches!(
            algebra::local_tile(&a, &tiler, &[0]),
            Err(AlgebraError::TilerRank { .. })
        ));

        let th = parse(threads);
        let mut owner = std::collections::HashMap::<isize, usize>::new();
        for t in 0..th.size() {
            let p = algebra::local_partition(&a, &th, t).unwrap();
            assert_eq!(p.size() * th.size(), a.size(), "{ta} thread {t}: {p}");
            for o in offsets(&p) {
                assert!(owner.insert(o, t).is_none(), "{ta}: offset {o} owned twice");
            }
        }
        assert_eq!(owner.len(), a.size(), "{ta}: threads");
        assert_eq!(
            algebra::local_partition(&a, &th, th.size()),
            Err(AlgebraError::ThreadOutOfRange {
                thread: th.size(),
                threads: th.size()
            })
        );
    }
}

/// Swizzles: an involution that keeps the `base` low bits and moves only the mask's bits;
/// offsets through a swizzled layout; bank conflicts against a brute-force count over the
/// lanes, for every swizzle up to 3 bits on tiles of 1- to 16-byte elements.
#[test]
fn swizzles_and_bank_conflicts() {
    use strided_layout::algebra::{Swizzle, SwizzledLayout};
    for bits in 0..=3u32 {
        for base in 0..=4u32 {
            for shift in [-5i32, -4, -3, 3, 4, 5] {
                let Ok(s) = Swizzle::new(bits, base, shift) else {
                    assert!(shift.unsigned_abs() < bits);
                    continue;
                };
                for o in 0..4096usize {
                    let x = s.apply(o);
                    assert_eq!(s.apply(x), o, "{bits},{base},{shift} at {o}");
                    assert_eq!(x & ((1 << base) - 1), o & ((1 << base) - 1));
                }
            }
        }
    }
    let tiles = [
        "(32,32):(32,1)",
        "(8,64):(64,1)",
        "(16,16):(1,16)",
        "((8,4),8):((8,1),64)",
    ];
    let lane_maps = [
        "32:1",
        "32:32",
        "(8,4):(1,8)",
        "(4,8):(8,1)",
        "16:2",
        "(2,16):(16,1)",
    ];
    let mut cases = 0;
    for tile in tiles {
        for itemsize in [1usize, 2, 4, 8, 16] {
            let l = parse(&format!("{tile} x{itemsize}B"));
            for (bits, base, shift) in [
                (0, 0, 3),
                (3, 0, 3),
                (5, 0, 5),
                (3, 4, 3),
                (2, 1, 4),
                (3, 3, -3),
            ] {
                let s = SwizzledLayout::new(Swizzle::new(bits, base, shift).unwrap(), l).unwrap();
                for i in 0..l.size() {
                    let plain = l.offset_of_linear(i).unwrap() as usize;
                    assert_eq!(s.offset_of_linear(i).unwrap(), s.swizzle().apply(plain));
                }
                for lanes in lane_maps {
                    let lanes = parse(lanes);
                    if lanes.offset_bounds().unwrap().1 as usize >= l.size() {
                        assert!(matches!(
                            s.bank_conflicts(&lanes),
                            Err(AlgebraError::Nested(_))
                        ));
                        continue;
                    }
                    // Brute force: the distinct 4-byte words each bank serves.
                    let mut banks = vec![HashSet::new(); 32];
                    for lane in 0..lanes.size() {
                        let c = lanes.offset_of_linear(lane).unwrap() as usize;
                        let byte = s.offset_of_linear(c).unwrap() * itemsize;
                        for w in byte / 4..=(byte + itemsize - 1) / 4 {
                            banks[w % 32].insert(w);
                        }
                    }
                    let want = banks.iter().map(HashSet::len).max().unwrap();
                    assert_eq!(
                        s.bank_conflicts(&lanes).unwrap(),
                        want,
                        "{tile} x{itemsize}B {bits},{base},{shift}"
                    );
                    cases += 1;
                }
            }
        }
    }
    assert!(cases > 500, "{cases}");
    let l = parse("(32,32):(32,1) x4B");
    let s = SwizzledLayout::new(Swizzle::new(0, 0, 3).unwrap(), l).unwrap();
    assert_eq!(s.bank_conflicts(&parse("33:1")), Err(AlgebraError::Lanes));
    assert_eq!(Swizzle::new(3, 0, 2), Err(AlgebraError::Swizzle));
    assert_eq!(Swizzle::new(3, 60, 3), Err(AlgebraError::Swizzle));
}

/// CuTe's own answers (CUTLASS 4.2's headers, host code, every layout static so that CuTe
/// merges and drops modes as it does at compile time): the same printed result for every
/// function, operand for operand, and the same offsets through every swizzle
/// (`composition(Swizzle<B,M,S>, a)`). `scripts/cute_algebra_cases.sh` regenerates the file.
/// `*_tile` cases pass a tiler of two layouts (`b0;b1`, CuTe's `make_tile(b0, b1)`). Results
/// have up to 9 leaves, so the layouts hold 16.
#[test]
fn cute_agrees() {
    let text = include_str!("data/cute_algebra.tsv");
    let mut per: std::collections::BTreeMap<&str, usize> = Default::default();
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let [function, a, b, want] = f[..] else {
            panic!("bad line {line}");
        };
        if function == "swizzle" {
            assert_eq!(swizzled(a, b), want, "swizzle({a}, {b})");
        } else {
            let got = run(function, a, b);
            let got = got.unwrap_or_else(|e| panic!("{function}({a}, {b}): {e}, CuTe: {want}"));
            assert_eq!(got.to_string(), want, "{function}({a}, {b})");
        }
        *per.entry(function).or_default() += 1;
    }
    let total: usize = per.values().sum();
    assert!(total >= 20_000 && per["swizzle"] >= 600, "{per:?}");
}

/// The inputs CuTe refuses at compile time (a `static_assert`: a divisibility condition, a
/// non-injective complement, ranks its `zip` cannot pair), each confirmed by g++: refused here
/// too, with an error.
#[test]
fn cute_refuses() {
    let text = include_str!("data/cute_algebra_refused.tsv");
    let mut cases = 0;
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let [function, a, b, "refused"] = f[..] else {
            panic!("bad line {line}");
        };
        if let Ok(got) = run(function, a, b) {
            panic!("{function}({a}, {b}) = {got}, CuTe refuses it");
        }
        cases += 1;
    }
    assert!(cases >= 700, "{cases}");
}

/// The offsets of `composition(Swizzle<B,M,S>, a)` for every coordinate, as CuTe's corpus
/// writes them (`b` is `B,M,S`).
fn swizzled(a: &str, b: &str) -> String {
    use strided_layout::algebra::{Swizzle, SwizzledLayout};
    let p: Vec<i64> = b.split(',').map(|x| x.parse().unwrap()).collect();
    let [bits, base, shift] = p[..] else {
        panic!("bad swizzle {b}");
    };
    let sw = Swizzle::new(bits as u32, base as u32, shift as i32).unwrap();
    let l: W = a.parse().unwrap();
    let s = SwizzledLayout::new(sw, l).unwrap();
    let o: Vec<String> = (0..l.size())
        .map(|i| s.offset_of_linear(i).unwrap().to_string())
        .collect();
    o.join(",")
}

/// CuTe's `function` of the operands' texts, by this crate's name for it.
fn run(function: &str, a: &str, b: &str) -> Result<W, AlgebraError> {
    let parse = |t: &str| -> W { t.parse().unwrap_or_else(|e| panic!("{t}: {e}")) };
    let x = parse(a);
    let tiler = || -> Vec<W> { b.split(';').map(parse).collect() };
    match function {
        "coalesce" => algebra::coalesce(&x),
        "composition" => algebra::composition(&x, &parse(b)),
        "complement" => algebra::complement(&x, b.parse().unwrap()),
        "right_inverse" => algebra::right_inverse(&x),
        "left_inverse" => algebra::left_inverse(&x),
        "logical_divide" => algebra::logical_divide(&x, &parse(b)),
        "zipped_divide" => algebra::zipped_divide(&x, &parse(b)),
        "tiled_divide" => algebra::tiled_divide(&x, &parse(b)),
        "flat_divide" => algebra::flat_divide(&x, &parse(b)),
        "logical_product" => algebra::logical_product(&x, &parse(b)),
        "zipped_product" => algebra::zipped_product(&x, &parse(b)),
        "tiled_product" => algebra::tiled_product(&x, &parse(b)),
        "blocked_product" => algebra::blocked_product(&x, &parse(b)),
        "raked_product" => algebra::raked_product(&x, &parse(b)),
        "composition_tile" => algebra::composition_by_mode(&x, &tiler()),
        "logical_divide_tile" => algebra::logical_divide_by_mode(&x, &tiler()),
        "zipped_divide_tile" => algebra::zipped_divide_by_mode(&x, &tiler()),
        other => panic!("unknown function {other}"),
    }
}

/// Partial last blocks: every layout cut at its root coalesces to the same function on its
/// coordinates; a cut right operand composes keeping its cuts (`c(i) == a(b(i))`); a left
/// operand cut at its root composes with a right operand inside it, and refuses one that
/// reaches past the cut; every other operation refuses a cut, naming the rule.
#[test]
fn partial_blocks() {
    let leaves: Vec<(usize, isize)> = [2usize, 3, 4]
        .iter()
        .flat_map(|&e| [0isize, 1, 2, 3, 4, 6].map(|s| (e, s)))
        .collect();
    let mut cut_layouts = Vec::new();
    for &(e0, s0) in &leaves {
        for &(e1, s1) in &leaves {
            for cut in e0 * (e1 - 1) + 1..e0 * e1 {
                cut_layouts.push(format!("({e0},{e1})|{cut}:({s0},{s1})"));
                cut_layouts.push(format!("(({e0},{e1})|{cut},2):(({s0},{s1}),7)"));
            }
        }
    }
    let mut coalesced = 0;
    for t in &cut_layouts {
        let a = parse(t);
        let inside = t.starts_with("((");
        match algebra::coalesce(&a) {
            Ok(c) => {
                assert!(!inside, "{t}");
                assert_eq!(offsets(&c), offsets(&a), "{t} -> {c}");
                coalesced += 1;
            }
            Err(e) => {
                assert!(inside, "{t}: {e}");
                assert_eq!(e, AlgebraError::PartialBlock);
                // By mode, each mode is cut at its own root: fine.
                let m = algebra::coalesce_modes(&a).unwrap();
                assert_eq!(offsets(&m), offsets(&a), "{t} -> {m}");
            }
        }
        for other in [
            algebra::complement(&a, 64).map(|_| ()),
            algebra::right_inverse(&a).map(|_| ()),
            algebra::logical_divide(&a, &parse("2:1")).map(|_| ()),
            algebra::logical_product(&a, &parse("2:1")).map(|_| ()),
        ] {
            assert_eq!(other, Err(AlgebraError::PartialBlock), "{t}");
        }
    }
    assert!(coalesced > 100, "{coalesced}");
    // A cut right operand: its cuts kept, the function a(b(i)).
    let lefts = ["16:1", "(4,4):(1,8)", "(2,8):(8,1)", "(4,(2,4)):(1,(16,4))"];
    let mut composed = 0;
    for ta in lefts {
        let a = parse(ta);
        for tb in cut_layouts
            .iter()
            .filter(|t| !t.contains("),2)") && !t.contains(":(0") && !t.contains(",0)"))
        {
            let b = parse(tb);
            let Ok(c) = algebra::composition(&a, &b) else {
                continue;
            };
            assert_eq!(c.size(), b.size(), "{ta} o {tb} = {c}");
            if unique(&b).is_none() {
                continue;
            }
            for i in 0..b.size() {
                let j = b.offset_of_linear(i).unwrap().unsigned_abs();
                // Strong divisibility (powers of two), as in `composition_is_a_of_b`.
                let strong = b
                    .leaf_strides()
                    .iter()
                    .all(|s| s.unsigned_abs().is_power_of_two());
                if j < a.size() && strong {
                    assert_eq!(
                        c.offset_of_linear(i),
                        a.offset_of_linear(j),
                        "{ta} o {tb} = {c} at {i}"
                    );
                }
            }
            composed += 1;
        }
    }
    assert!(composed > 20, "{composed}");
    // A left operand cut at its root: the right one must stay inside the cut.
    let a = parse("(4,3)|10:(1,16)");
    let inside = algebra::composition(&a, &parse("(2,2):(1,8)")).unwrap();
    assert_eq!(offsets(&inside), [0, 1, 32, 33]); // coordinates 0, 1, 8, 9 of a
    assert_eq!(
        algebra::composition(&a, &parse("6:2")),
        Err(AlgebraError::PartialBlock)
    );
    assert_eq!(
        algebra::coalesce(&parse("(4,3)|10:(1,5)"))
            .unwrap()
            .to_string(),
        "(4,3)|10:(1,5)"
    );
    assert_eq!(
        algebra::coalesce(&parse("(2,2,3)|10:(1,5,10)"))
            .unwrap()
            .to_string(),
        "(2,5):(1,5)"
    );
}
