//! Nested layouts against CuTe itself (a corpus its headers wrote, `scripts/cute_nested_cases.sh`)
//! and against a naive model: every coordinate of random nested layouts with partial last
//! blocks, the notation read and written back, the conversions, and every error.

use proptest::prelude::*;

use crate::common::small_scope;
use strided_layout::nested::{NestedError, NestedLayout, RankedNested};
use strided_layout::rank::{OneLess, OneMore, Rank};
use strided_layout::{InterleaveLayout, InterleavedLayout, Layout, LayoutError, Verdict};

/// The model: a mode is a leaf or a tuple, with an optional cut (partial last block).
#[derive(Clone, Debug)]
enum Mode {
    Leaf(usize, isize),
    Tuple(Vec<Mode>, Option<usize>),
}

impl Mode {
    fn size(&self) -> usize {
        match self {
            Mode::Leaf(e, _) => *e,
            Mode::Tuple(_, Some(cut)) => *cut,
            Mode::Tuple(children, None) => children.iter().map(Mode::size).product(),
        }
    }

    /// The offset of coordinate `c`: first sub-mode fastest, the last takes the rest.
    fn offset(&self, c: usize) -> isize {
        match self {
            Mode::Leaf(_, s) => c as isize * s,
            Mode::Tuple(children, _) => {
                let mut c = c;
                let mut acc = 0;
                for (k, child) in children.iter().enumerate() {
                    if k + 1 == children.len() {
                        acc += child.offset(c);
                    } else {
                        let s = child.size();
                        let (here, rest) = if s == 0 { (0, 0) } else { (c % s, c / s) };
                        acc += child.offset(here);
                        c = rest;
                    }
                }
                acc
            }
        }
    }

    fn depth(&self) -> usize {
        match self {
            Mode::Leaf(..) => 0,
            Mode::Tuple(children, _) => 1 + children.iter().map(Mode::depth).max().unwrap_or(0),
        }
    }

    /// Whether a tuple below a top-level mode, or the root tuple itself, is cut (what the
    /// kernels' form refuses).
    fn cut_below_a_mode(&self) -> bool {
        fn cut_inside(m: &Mode) -> bool {
            match m {
                Mode::Leaf(..) => false,
                Mode::Tuple(children, _) => children
                    .iter()
                    .any(|c| matches!(c, Mode::Tuple(_, Some(_))) || cut_inside(c)),
            }
        }
        match self {
            Mode::Leaf(..) => false,
            Mode::Tuple(children, cut) => cut.is_some() || children.iter().any(cut_inside),
        }
    }

    fn leaves(&self) -> usize {
        match self {
            Mode::Leaf(..) => 1,
            Mode::Tuple(children, _) => children.iter().map(Mode::leaves).sum(),
        }
    }

    fn shape_text(&self) -> String {
        match self {
            Mode::Leaf(e, _) => e.to_string(),
            Mode::Tuple(children, cut) => {
                let inner: Vec<_> = children.iter().map(Mode::shape_text).collect();
                let cut = cut.map(|c| format!("|{c}")).unwrap_or_default();
                format!("({}){cut}", inner.join(","))
            }
        }
    }

    fn stride_text(&self) -> String {
        match self {
            Mode::Leaf(_, s) => s.to_string(),
            Mode::Tuple(children, _) => {
                let inner: Vec<_> = children.iter().map(Mode::stride_text).collect();
                format!("({})", inner.join(","))
            }
        }
    }

    fn text(&self) -> String {
        format!("{}:{}", self.shape_text(), self.stride_text())
    }
}

/// A random mode of at most `depth` levels; tuples get a valid cut about a third of the time.
fn mode(depth: u32) -> BoxedStrategy<Mode> {
    let leaf = (0usize..=5, -6isize..=12).prop_map(|(e, s)| Mode::Leaf(e, s));
    leaf.prop_recursive(depth, 8, 3, |inner| {
        (
            prop::collection::vec(inner, 1..=3),
            any::<bool>(),
            any::<u16>(),
        )
            .prop_map(|(children, cut, pick)| {
                let mut t = Mode::Tuple(children.clone(), None);
                if cut {
                    let inner: usize = children[..children.len() - 1]
                        .iter()
                        .map(Mode::size)
                        .product();
                    let last = children[children.len() - 1].size();
                    if inner > 0 && last > 0 {
                        // P·(n - 1) < e <= P·n
                        let e = inner * (last - 1) + 1 + pick as usize % inner;
                        t = Mode::Tuple(children, Some(e));
                    }
                }
                t
            })
    })
    .boxed()
}

/// The multi-index of 1-D coordinate `lin` over modes of `sizes` (the first fastest).
fn multi_index(lin: usize, sizes: &[usize]) -> Vec<usize> {
    let mut c = lin;
    let mut index = vec![];
    for (k, &s) in sizes.iter().enumerate() {
        if k + 1 == sizes.len() {
            index.push(c);
        } else {
            index.push(c % s);
            c /= s;
        }
    }
    index
}

/// Every multi-index over modes of `sizes`, in 1-D order, at most `max`.
fn all_indices(sizes: &[usize], max: usize) -> Vec<Vec<usize>> {
    let total: usize = sizes.iter().product();
    (0..total.min(max))
        .map(|lin| multi_index(lin, sizes))
        .collect()
}

impl Mode {
    /// The top-level modes (an integral layout's one mode is itself).
    fn modes(&self) -> Vec<Mode> {
        match self {
            Mode::Leaf(..) => vec![self.clone()],
            Mode::Tuple(children, _) => children.clone(),
        }
    }

    fn has_cut(&self) -> bool {
        match self {
            Mode::Leaf(..) => false,
            Mode::Tuple(children, cut) => cut.is_some() || children.iter().any(Mode::has_cut),
        }
    }

    fn leaf_extents(&self) -> Vec<usize> {
        match self {
            Mode::Leaf(e, _) => vec![*e],
            Mode::Tuple(children, _) => children.iter().flat_map(Mode::leaf_extents).collect(),
        }
    }
}

/// What `narrowed_blocks` sees in a mode: the coordinates of one block (`P`, every leaf but
/// the last), the blocks (the last leaf's extent) and the mode's own cut; `None` where it
/// refuses (a tuple inside cut, or a cut mode whose last sub-mode is a tuple).
fn blocks_of(m: &Mode) -> Option<(usize, usize, Option<usize>)> {
    match m {
        Mode::Leaf(e, _) => Some((1, *e, None)),
        Mode::Tuple(children, cut) => {
            if children.iter().any(Mode::has_cut)
                || (cut.is_some() && !matches!(children.last(), Some(Mode::Leaf(..))))
            {
                return None;
            }
            let extents = m.leaf_extents();
            let (last, rest) = extents.split_last()?;
            Some((rest.iter().product(), *last, *cut))
        }
    }
}

fn min_max(v: &[isize]) -> Option<(isize, isize)> {
    Some((*v.iter().min()?, *v.iter().max()?))
}

/// Checks every query of `n` against the model `m` (offset `off`).
fn check(n: &NestedLayout<12>, m: &Mode, off: isize) {
    let size = m.size();
    assert_eq!(n.size(), size, "{m:?}");
    assert_eq!(n.depth(), m.depth());
    assert_eq!(n.leaves(), m.leaves());
    let offsets: Vec<isize> = (0..size).map(|c| m.offset(c) + off).collect();
    for (c, &o) in offsets.iter().enumerate() {
        assert_eq!(n.offset_of_linear(c), Ok(o), "{m:?} at {c}");
    }
    assert_eq!(
        n.offset_of_linear(size),
        Err(NestedError::IndexOutOfRange { mode: 0 })
    );
    assert_eq!(n.offset_bounds(), min_max(&offsets), "{}", n);
    // The offsets iterator, both ways.
    assert!(n.offsets().eq(offsets.iter().copied()), "{m:?}");
    assert!(n.offsets().rev().eq(offsets.iter().rev().copied()));
    assert_eq!(n.offsets().len(), size);
    // The kernel parameter: every coordinate where the layout packs, and a refusal by its
    // rule where it does not (`agrees`); a layout without a partial block below a mode's top
    // and of at most four leaves of extent 2 or more (four block levels at most) packs.
    if (1..=4).contains(&n.rank()) {
        let packed = crate::kernel_nested::agrees(n, 300);
        let moving = n.leaf_extents().iter().filter(|&&e| e > 1).count();
        if !m.cut_below_a_mode() && moving <= 4 {
            assert!(packed, "{m:?} packs");
        }
    }
    // The grid of a rank-2 layout: every cell is the offset of its multi-index.
    if n.rank() == 2 && size <= 300 {
        let text = n.grid().unwrap().to_string();
        let sizes: Vec<usize> = match m {
            Mode::Tuple(children, _) => children.iter().map(Mode::size).collect(),
            Mode::Leaf(..) => unreachable!(),
        };
        let rows: Vec<&str> = if text.is_empty() {
            vec![]
        } else {
            text.split('\n').collect()
        };
        if sizes[1] > 0 {
            assert_eq!(rows.len(), sizes[0]);
        }
        for (r, row) in rows.iter().enumerate() {
            let cells: Vec<&str> = row.split_whitespace().collect();
            assert_eq!(cells.len(), sizes[1]);
            for (c, &v) in cells.iter().enumerate() {
                match n.offset_of(&[r, c]) {
                    Ok(o) => assert_eq!(v, o.to_string()),
                    Err(_) => assert_eq!(v, "-"),
                }
            }
        }
    } else if n.rank() > 2 {
        assert!(n.grid().is_err());
    }
    // Uniqueness: exact (decided unless the layout splits into more than 8 pieces).
    let mut sorted = offsets.clone();
    sorted.sort_unstable();
    let distinct = sorted.windows(2).all(|w| w[0] != w[1]);
    match n.is_unique_within(u64::MAX) {
        Verdict::Yes => assert!(distinct, "{m:?}"),
        Verdict::No => assert!(!distinct, "{m:?}"),
        Verdict::Unknown => assert!(!n.is_unique()),
    }
    let cosize = offsets
        .iter()
        .max()
        .map_or(0, |&hi| if hi < 0 { 0 } else { hi as usize + 1 });
    assert_eq!(n.cosize(), cosize);
    // Multi-indices: one coordinate per top-level mode.
    match m {
        Mode::Leaf(..) => {
            assert_eq!(n.rank(), 1);
            for (c, &o) in offsets.iter().enumerate() {
                assert_eq!(n.offset_of(&[c]), Ok(o));
            }
        }
        Mode::Tuple(children, _) => {
            assert_eq!(n.rank(), children.len());
            let sizes: Vec<usize> = children.iter().map(Mode::size).collect();
            // Every multi-index whose linear form is below the size (a cut root counts only those).
            let total = size;
            for lin in 0..total.min(300) {
                let mut c = lin;
                let mut index = vec![];
                for (k, &s) in sizes.iter().enumerate() {
                    if k + 1 == sizes.len() {
                        index.push(c);
                    } else {
                        index.push(c % s);
                        c /= s;
                    }
                }
                let want: isize = children
                    .iter()
                    .zip(&index)
                    .map(|(ch, &i)| ch.offset(i))
                    .sum::<isize>()
                    + off;
                assert_eq!(n.offset_of(&index), Ok(want), "{m:?} {index:?}");
            }
            // A cut layout refuses the multi-indices at or past its cut.
            let product: usize = sizes.iter().product();
            if size < product {
                let index = multi_index(size, &sizes);
                assert!(
                    matches!(
                        n.offset_of(&index),
                        Err(NestedError::IndexOutOfRange { .. })
                    ),
                    "{m:?} {index:?}"
                );
            }
            if let Some(first) = sizes.first() {
                let mut index = vec![0; sizes.len()];
                index[0] = *first;
                assert_eq!(
                    n.offset_of(&index),
                    Err(NestedError::IndexOutOfRange { mode: 0 })
                );
            }
            assert_eq!(
                n.offset_of(&vec![0; sizes.len() + 1]),
                Err(NestedError::RankMismatch {
                    expected: sizes.len(),
                    found: sizes.len() + 1
                })
            );
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: if cfg!(miri) { 8 } else { crate::common::cases(2000) }, max_global_rejects: 1 << 20, ..ProptestConfig::default() })]

    /// Random nested layouts with partial last blocks: every query against the model, and the
    /// text read back to the same layout.
    #[test]
    fn random_layouts_match_the_model(m in mode(3), off in -20isize..20) {
        prop_assume!(m.leaves() <= 12);
        let text = if off == 0 { m.text() } else if off > 0 { format!("{} +{off}", m.text()) } else { format!("{} -{}", m.text(), -off) };
        let n: NestedLayout<12> = match text.parse() {
            Ok(n) => n,
            Err(e) => panic!("{text}: {e}"),
        };
        prop_assert_eq!(n.to_string(), text.clone());
        check(&n, &m, off);
        let again: NestedLayout<12> = n.to_string().parse().unwrap();
        prop_assert_eq!(again, n);
    }

    /// A `Layout<3>` converts losslessly: the same offset for every index, and back.
    #[test]
    fn layouts_convert(shape in prop::array::uniform3(0usize..5), strides in prop::array::uniform3(-7isize..8), off in 0isize..50) {
        let l = Layout::new(shape, strides, 4).unwrap().with_offset(off).unwrap();
        let n = NestedLayout::<3>::from_layout(&l).unwrap();
        for i in 0..shape[0] { for j in 0..shape[1] { for k in 0..shape[2] {
            prop_assert_eq!(n.offset_of(&[i, j, k]), Ok(l.offset_of([i, j, k]).unwrap()));
        }}}
        prop_assert_eq!(n.offset_bounds(), l.offset_bounds());
        prop_assert_eq!(n.to_layout::<3>(), Ok(l));
        prop_assert_eq!(n.size(), l.volume());
    }

    /// An `InterleavedLayout<2>` converts: its blocked axis a cut tuple, the same offsets.
    #[test]
    fn interleaved_layouts_convert(shape in prop::array::uniform2(0usize..11), dim in 0usize..2, factor in 1usize..6) {
        let il = InterleavedLayout::dense(shape, 2, InterleaveLayout::new(dim, factor).unwrap()).unwrap();
        let n = NestedLayout::<3>::from_interleaved(&il).unwrap();
        for i in 0..shape[0] { for j in 0..shape[1] {
            prop_assert_eq!(n.offset_of(&[i, j]), Ok(il.offset_of([i, j]).unwrap()));
        }}
        prop_assert_eq!(n.offset_bounds(), il.offset_bounds());
        prop_assert_eq!(n.size(), il.volume());
        let back = n.to_interleaved::<2>().unwrap();
        for i in 0..shape[0] { for j in 0..shape[1] {
            prop_assert_eq!(back.offset_of([i, j]), il.offset_of([i, j]));
        }}
        let back: NestedLayout<3> = n.to_string().parse().unwrap();
        prop_assert_eq!(back, n);
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: if cfg!(miri) { 8 } else { crate::common::cases(1000) }, max_global_rejects: 1 << 20, ..ProptestConfig::default() })]

    /// Each transform against the layout it came from, on every multi-index: permuted,
    /// selected, flipped, unsqueezed, a mode flattened into its leaves, a mode narrowed to
    /// whole blocks; the cut modes refused where the rule says.
    #[test]
    fn transforms_match_the_source(m in mode(3), pick in any::<u64>()) {
        // Room for the leaf `unsqueezed` adds (capacity 12).
        prop_assume!(m.leaves() <= 11);
        // A cut root has no per-mode transforms worth checking here (its multi-indices are
        // not a product); its modes are checked when they are children of an uncut root.
        prop_assume!(!matches!(m, Mode::Tuple(_, Some(_))));
        let n: NestedLayout<12> = m.text().parse().unwrap();
        let modes = m.modes();
        let rank = modes.len();
        let sizes: Vec<usize> = modes.iter().map(Mode::size).collect();
        prop_assert_eq!(n.rank(), rank);
        let k = (pick % rank as u64) as usize;
        let indices = all_indices(&sizes, 200);
        // permuted: a rotation by k
        let perm: Vec<usize> = (0..rank).map(|i| (i + k) % rank).collect();
        let p = n.permuted(&perm).unwrap();
        for index in &indices {
            let moved: Vec<usize> = perm.iter().map(|&a| index[a]).collect();
            prop_assert_eq!(p.offset_of(&moved), n.offset_of(index));
        }
        // selected: mode k at its last coordinate
        if sizes[k] > 0 {
            let at = sizes[k] - 1;
            let s = n.selected(k, at).unwrap();
            prop_assert_eq!(s.rank(), rank - 1);
            for index in indices.iter().filter(|i| i[k] == at) {
                let mut rest = index.clone();
                rest.remove(k);
                prop_assert_eq!(s.offset_of(&rest), n.offset_of(index));
            }
            prop_assert_eq!(n.selected(k, sizes[k]), Err(NestedError::IndexOutOfRange { mode: k }));
        }
        // flipped
        match n.flipped(k) {
            Ok(f) => {
                prop_assert!(!modes[k].has_cut());
                for index in &indices {
                    let mut r = index.clone();
                    r[k] = sizes[k] - 1 - index[k];
                    prop_assert_eq!(f.offset_of(&r), n.offset_of(index));
                }
            }
            Err(e) => {
                prop_assert_eq!(e, NestedError::CutMode { mode: k });
                prop_assert!(modes[k].has_cut());
            }
        }
        // unsqueezed at k
        let u = n.unsqueezed(k).unwrap();
        prop_assert_eq!(u.rank(), rank + 1);
        for index in &indices {
            let mut wide = index.clone();
            wide.insert(k, 0);
            prop_assert_eq!(u.offset_of(&wide), n.offset_of(index));
        }
        // flattened_mode k
        match n.flattened_mode(k) {
            Ok(f) => {
                prop_assert!(!modes[k].has_cut());
                let leaves = modes[k].leaf_extents();
                prop_assert_eq!(f.rank(), rank - 1 + leaves.len());
                prop_assert_eq!(f.size(), n.size());
                for index in &indices {
                    let mut wide = index[..k].to_vec();
                    wide.extend(multi_index(index[k], &leaves));
                    wide.extend(&index[k + 1..]);
                    prop_assert_eq!(f.offset_of(&wide), n.offset_of(index), "{} {:?}", f, index);
                }
            }
            Err(e) => {
                prop_assert_eq!(e, NestedError::CutMode { mode: k });
                prop_assert!(modes[k].has_cut());
            }
        }
        // narrowed_blocks k: blocks `start..start + len` of the mode's last leaf
        match blocks_of(&modes[k]) {
            Some((block, blocks, cut)) => {
                let start = (pick >> 8) as usize % (blocks + 1);
                let len = (pick >> 16) as usize % (blocks - start + 1);
                let b = n.narrowed_blocks(k, start, len).unwrap();
                // The mode's coordinates kept: `start·P ..` up to the range's end, the
                // partial block's end where the range keeps it.
                let end = if start + len == blocks { cut.unwrap_or(block * blocks) } else { block * (start + len) };
                let lo = block * start;
                let kept = if len == 0 { 0 } else { end - lo };
                prop_assert_eq!(b.size(), n.size() / sizes[k].max(1) * kept, "{} {}", n, b);
                for index in indices.iter().filter(|i| (lo..lo + kept).contains(&i[k])) {
                    let mut r = index.clone();
                    r[k] -= lo;
                    prop_assert_eq!(b.offset_of(&r), n.offset_of(index), "{} {} {:?}", n, b, index);
                }
                let mut past = vec![0; rank];
                past[k] = kept;
                if sizes.iter().enumerate().all(|(a, &e)| a == k || e > 0) {
                    prop_assert_eq!(b.offset_of(&past), Err(NestedError::IndexOutOfRange { mode: k }));
                }
                prop_assert_eq!(
                    n.narrowed_blocks(k, start, blocks - start + 1),
                    Err(NestedError::Layout(LayoutError::RangeOutOfBounds { axis: k }))
                );
            }
            None => prop_assert_eq!(n.narrowed_blocks(k, 0, 0), Err(NestedError::CutMode { mode: k })),
        }
        // Out of range
        prop_assert!(n.selected(rank, 0).is_err() && n.flipped(rank).is_err());
        prop_assert!(n.unsqueezed(rank + 1).is_err() && n.flattened_mode(rank).is_err());
        prop_assert!(n.narrowed_blocks(rank, 0, 0).is_err());
        prop_assert!(n.permuted(&vec![0; rank + 1]).is_err());
    }
}

/// The fixed-rank front against the run-time-rank layout it holds: the same offsets, the same
/// transforms, the rank checked once.
fn check_ranked<const N: usize, const M: usize, const P: usize>(
    n: &NestedLayout<12>,
    k: usize,
) -> Result<(), TestCaseError>
where
    Rank<N>: OneLess<N, M> + OneMore<N, P>,
{
    let r = RankedNested::<N, 12>::new(*n).unwrap();
    prop_assert_eq!(r.layout(), n);
    prop_assert_eq!(r.rank(), N);
    prop_assert_eq!(r.to_string(), n.to_string());
    prop_assert_eq!(RankedNested::<N, 12>::parse(&n.to_string()), Ok(r));
    prop_assert_eq!(NestedLayout::from(r), *n);
    let sizes: Vec<usize> = (0..N)
        .map(|m| {
            (0..)
                .find(|&c| {
                    let mut i = [0; N];
                    i[m] = c;
                    n.offset_of(&i).is_err()
                })
                .unwrap()
        })
        .collect();
    for index in all_indices(&sizes, 100) {
        let a: [usize; N] = index.clone().try_into().unwrap();
        prop_assert_eq!(r.offset_of(a), n.offset_of(&index));
    }
    let mut rotate = [0; N];
    for (i, a) in rotate.iter_mut().enumerate() {
        *a = (i + k) % N;
    }
    prop_assert_eq!(
        r.permuted(rotate).map(RankedNested::into_layout),
        n.permuted(&rotate)
    );
    prop_assert_eq!(
        r.selected::<M>(k, 0).map(RankedNested::into_layout),
        n.selected(k, 0)
    );
    prop_assert_eq!(
        r.unsqueezed::<P>(k).map(RankedNested::into_layout),
        n.unsqueezed(k)
    );
    prop_assert_eq!(r.flipped(k).map(RankedNested::into_layout), n.flipped(k));
    prop_assert_eq!(
        r.narrowed_blocks(k, 0, 1).map(RankedNested::into_layout),
        n.narrowed_blocks(k, 0, 1)
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: if cfg!(miri) { 8 } else { crate::common::cases(1000) }, max_global_rejects: 1 << 20, ..ProptestConfig::default() })]

    /// `RankedNested<N, L>` takes exactly the layouts of rank `N` and answers as they do.
    #[test]
    fn ranked_front_matches_the_layout(m in mode(3), pick in any::<u64>()) {
        prop_assume!(m.leaves() <= 11 && !matches!(m, Mode::Tuple(_, Some(_))));
        let n: NestedLayout<12> = m.text().parse().unwrap();
        let rank = n.rank();
        let k = (pick % rank.max(1) as u64) as usize;
        match rank {
            1 => check_ranked::<1, 0, 2>(&n, k)?,
            2 => check_ranked::<2, 1, 3>(&n, k)?,
            3 => check_ranked::<3, 2, 4>(&n, k)?,
            _ => {}
        }
        prop_assert_eq!(
            RankedNested::<4, 12>::new(n).map(|_| ()),
            if rank == 4 { Ok(()) } else { Err(NestedError::RankMismatch { expected: 4, found: rank }) }
        );
    }
}

/// CuTe's own answers (CUTLASS 4.2's headers, host code): its printed form, size, rank,
/// depth, cosize (where every stride is non-negative), the offset of every 1-D coordinate
/// and of sampled multi-indices, for 10,024 layouts. `scripts/cute_nested_cases.sh`
/// regenerates the file.
#[test]
fn cute_agrees() {
    let text = include_str!("data/cute_nested.tsv");
    let mut cases = 0;
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let [layout, size, cosize, rank, depth, offsets, coords] = f[..] else {
            panic!("bad line {line}");
        };
        let n: NestedLayout<8> = layout.parse().unwrap_or_else(|e| panic!("{layout}: {e}"));
        assert_eq!(n.to_string(), layout, "printed back");
        assert_eq!(n.size(), size.parse::<usize>().unwrap(), "{layout}");
        assert_eq!(n.rank(), rank.parse::<usize>().unwrap(), "{layout}");
        assert_eq!(n.depth(), depth.parse::<usize>().unwrap(), "{layout}");
        if cosize != "-" {
            assert_eq!(n.cosize(), cosize.parse::<usize>().unwrap(), "{layout}");
        }
        let want: Vec<isize> = if offsets == "-" {
            vec![]
        } else {
            offsets.split(',').map(|o| o.parse().unwrap()).collect()
        };
        for (c, &o) in want.iter().enumerate() {
            assert_eq!(n.offset_of_linear(c), Ok(o), "{layout} at {c}");
        }
        assert_eq!(n.offset_bounds(), min_max(&want), "{layout}");
        if coords != "-" {
            for sample in coords.split(',') {
                let (index, o) = sample.split_once('=').unwrap();
                let index: Vec<usize> = index.split(';').map(|c| c.parse().unwrap()).collect();
                assert_eq!(
                    n.offset_of(&index),
                    Ok(o.parse().unwrap()),
                    "{layout} at {index:?}"
                );
            }
        }
        cases += 1;
    }
    assert!(cases >= 10_000, "{cases} cases");
}

/// Every cut of `(4,3)` (P = 4, n = 3): 9..=12 are valid (only the last block partial).
#[test]
fn cuts_leave_only_the_last_block_partial() {
    for cut in 1..=14 {
        let r = NestedLayout::<2>::parse(&format!("(4,3)|{cut}:(1,4)"));
        if (9..=12).contains(&cut) {
            let n = r.unwrap();
            assert_eq!(n.size(), cut);
            assert_eq!(n.offset_bounds(), Some((0, cut as isize - 1)));
        } else {
            assert_eq!(r, Err(NestedError::PartialBlock { mode: 0 }), "cut {cut}");
        }
    }
    // A cut of an inner tuple names that tuple (the second to open).
    assert_eq!(
        NestedLayout::<4>::parse("((4,3)|8,5):((1,20),4)"),
        Err(NestedError::PartialBlock { mode: 1 })
    );
    assert_eq!(
        NestedLayout::<4>::parse("((4,3)|0,5):((1,20),4)"),
        Err(NestedError::Syntax {
            at: 7,
            expected: "a partial extent of at least 1"
        })
    );
}

/// Every refusal of the notation, with the byte where it broke.
#[test]
fn the_notation_refuses_with_the_place() {
    let err = |t: &str| NestedLayout::<4>::parse(t).unwrap_err();
    let syntax = |at, expected| NestedError::Syntax { at, expected };
    assert_eq!(err(""), syntax(0, "an extent or '('"));
    assert_eq!(err("(4,3)"), syntax(5, "':'"));
    assert_eq!(err("(4,3):"), syntax(6, "a stride or '('"));
    assert_eq!(err("(4,3]:(1,4)"), syntax(4, "',' or ')'"));
    assert_eq!(err("(4,):(1,)"), syntax(3, "an extent or '('"));
    assert_eq!(err("(-4):(1)"), syntax(1, "a digit"));
    assert_eq!(err("(4):(1) +"), syntax(9, "a digit"));
    assert_eq!(err("(4):(1) x4"), syntax(10, "'B'"));
    assert_eq!(err("(4):(1) y"), syntax(8, "the end of the text"));
    assert_eq!(
        err("(99999999999999999999):(1)"),
        syntax(20, "a smaller integer")
    );
    assert_eq!(
        err("(4):(9223372036854775808)"),
        syntax(5, "an integer that fits isize")
    );
    assert_eq!(err("(4):(1)|2"), syntax(7, "the end of the text"));
    assert_eq!(err("(4,3):((1,4))"), NestedError::NotCongruent);
    assert_eq!(err("():(1)"), NestedError::NotCongruent);
    assert_eq!(
        err("(1,1,1,1,1):(0,0,0,0,0)"),
        NestedError::TooManyLeaves { max: 4 }
    );
    assert_eq!(
        err("(((((1))))):(((((0)))))"),
        NestedError::TooManyModes { max: 4 }
    );
    assert_eq!(
        err("(4):(1) x3B"),
        NestedError::Layout(LayoutError::ItemsizeNotPowerOfTwo { itemsize: 3 })
    );
    assert_eq!(
        err("(4,4):(4611686018427387904,1)"),
        NestedError::Layout(LayoutError::OffsetOverflow)
    );
    let deep = format!(
        "{}1{}:{}0{}",
        "(".repeat(256),
        ")".repeat(256),
        "(".repeat(256),
        ")".repeat(256)
    );
    assert_eq!(
        NestedLayout::<300>::parse(&deep),
        Err(NestedError::TooDeep { max: 255 })
    );
    // Spaces between tokens, CuTe's static integers and signs are read.
    let n = NestedLayout::<4>::parse(" ( _4 , 3 ) : ( +1 , -_4 ) + 5 x 2 B").unwrap();
    assert_eq!(n.to_string(), "(4,3):(1,-4) +5 x2B");
    assert_eq!(
        err("(4):(1) x3B").to_string(),
        "itemsize is not a power of two (itemsize 3)"
    );
    assert_eq!(
        err("(4,3]:(1,4)").to_string(),
        "the text breaks its notation, CuTe's layout or a oneDNN tag (at byte 4: expected ',' or ')')"
    );
}

/// The empty tuple, integral layouts and extent 0.
#[test]
fn edges() {
    let e: NestedLayout<2> = "():()".parse().unwrap();
    assert_eq!((e.size(), e.rank(), e.depth(), e.cosize()), (1, 0, 1, 1));
    assert_eq!(e.offset_of(&[]), Ok(0));
    assert_eq!(e.offset_of_linear(0), Ok(0));
    assert_eq!(e, NestedLayout::default());
    assert_eq!(e.to_string(), "():()");
    assert_eq!(
        NestedLayout::<2>::from_layout(&Layout::<0>::new([], [], 1).unwrap()),
        Ok(e)
    );
    assert_eq!(e.to_layout::<0>(), Ok(Layout::new([], [], 1).unwrap()));
    let z: NestedLayout<2> = "(3,0):(1,3)".parse().unwrap();
    assert_eq!(
        (z.size(), z.offset_bounds(), z.cosize(), z.required_len()),
        (0, None, 0, Ok(0))
    );
    let i: NestedLayout<1> = "8:-1 +7".parse().unwrap();
    assert_eq!(
        (i.rank(), i.depth(), i.offset_of(&[7]), i.required_len()),
        (1, 0, Ok(0), Ok(8))
    );
    assert_eq!(
        i.to_layout::<1>(),
        Ok(Layout::new([8], [-1], 1).unwrap().with_offset(7).unwrap())
    );
    assert_eq!(
        i.to_layout::<2>(),
        Err(NestedError::RankMismatch {
            expected: 2,
            found: 1
        })
    );
    let cut: NestedLayout<3> = "(4,3)|10:(1,4)".parse().unwrap();
    // A cut layout: transforms that keep its 1-D coordinates keep the cut; the others refuse.
    assert_eq!(cut.permuted(&[1, 0]), Err(NestedError::CutMode { mode: 0 }));
    assert_eq!(cut.permuted(&[0, 1]), Ok(cut));
    assert_eq!(cut.selected(0, 3), Err(NestedError::CutMode { mode: 0 }));
    assert_eq!(cut.flipped(1), Err(NestedError::CutMode { mode: 1 }));
    let u = cut.unsqueezed(2).unwrap();
    assert_eq!(
        (u.to_string(), u.size()),
        ("(4,3,1)|10:(1,4,0)".to_string(), 10)
    );
    let blocks: NestedLayout<4> = "((2,2),3)|10:((1,2),4)".parse().unwrap();
    let f = blocks.flattened_mode(0).unwrap();
    assert_eq!(
        (f.to_string(), f.size()),
        ("(2,2,3)|10:(1,2,4)".to_string(), 10)
    );
    assert!(f.offsets().eq(blocks.offsets()));
    assert_eq!(cut.to_layout::<2>(), Err(NestedError::NotFlat { mode: 0 }));
    assert_eq!(
        cut.to_interleaved::<2>(),
        Err(NestedError::NotFlat { mode: 0 })
    );
    // The interleaved form: one block of lanes one element apart, at most.
    let two = NestedLayout::<8>::onednn("OIhw16i16o", &[16, 16, 1, 1], 4).unwrap();
    assert_eq!(
        two.to_interleaved::<4>(),
        Err(NestedError::NotFlat { mode: 1 })
    );
    let apart: NestedLayout<3> = "((4,3),5):((2,8),24)".parse().unwrap();
    assert_eq!(
        apart.to_interleaved::<2>(),
        Err(NestedError::NotFlat { mode: 0 })
    );
    let deep: NestedLayout<3> = "(((4,3)),5):(((1,4)),12)".parse().unwrap();
    assert_eq!(
        deep.to_interleaved::<2>(),
        Err(NestedError::NotFlat { mode: 0 })
    );
    let three: NestedLayout<4> = "((4,3,2),5):((1,4,12),24)".parse().unwrap();
    assert_eq!(
        three.to_interleaved::<2>(),
        Err(NestedError::NotFlat { mode: 0 })
    );
    assert_eq!(
        three.to_interleaved::<3>(),
        Err(NestedError::RankMismatch {
            expected: 3,
            found: 2
        })
    );
    let plain: NestedLayout<2> = "(3,4):(4,1) +2".parse().unwrap();
    let il = plain.to_interleaved::<2>().unwrap();
    assert_eq!(
        (il.interleave().factor(), il.offset_of([2, 3])),
        (1, Ok(13))
    );
    let blocks: NestedLayout<3> = "(5,(4,3)|10):(20,(1,4))".parse().unwrap();
    let il = blocks.to_interleaved::<2>().unwrap();
    assert_eq!(
        (il.interleave().dimension(), il.interleave().factor()),
        (1, 4)
    );
    assert_eq!(il.offset_of([4, 9]).ok(), blocks.offset_of(&[4, 9]).ok());
}

/// oneDNN's own answers (oneDNN 3.2's reorders from a plain tensor, `scripts/onednn_cases.sh`):
/// for 114 format tags (named, alphabetic, blocked once, twice, padded), the element offset of
/// every logical element, in logical row-major order, and the padded buffer's size.
#[test]
fn onednn_agrees() {
    let text = include_str!("data/onednn_formats.tsv");
    let (mut cases, mut interleaved, mut general) = (0, 0, 0);
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let [tag, dims, size, offsets] = f[..] else {
            panic!("bad line {line}");
        };
        let dims: Vec<usize> = dims.split(',').map(|d| d.parse().unwrap()).collect();
        let size: usize = size.parse().unwrap();
        let n = NestedLayout::<16>::onednn(tag, &dims, 4)
            .unwrap_or_else(|e| panic!("{tag} {dims:?}: {e}"));
        assert_eq!(n.rank(), dims.len(), "{tag}");
        assert_eq!(n.size(), dims.iter().product::<usize>(), "{tag} {dims:?}");
        let want: Vec<isize> = offsets.split(',').map(|o| o.parse().unwrap()).collect();
        // Logical row-major order: the last dimension fastest.
        let mut index = vec![0usize; dims.len()];
        for (k, &o) in want.iter().enumerate() {
            assert_eq!(
                n.offset_of(&index),
                Ok(o),
                "{tag} {dims:?} element {k} {index:?}"
            );
            for d in (0..dims.len()).rev() {
                index[d] += 1;
                if index[d] < dims[d] {
                    break;
                }
                index[d] = 0;
            }
        }
        assert!(n.required_len().unwrap() <= size, "{tag} {dims:?}");
        // Blocked once with lanes one element apart (nChw16c, Ohwi16o, ...): the interleaved
        // form the kernels take; a copy from the planar tensor lands where oneDNN puts it.
        if let (Ok(il), Ok(d4)) = (n.to_interleaved::<4>(), <[usize; 4]>::try_from(&dims[..])) {
            interleaved += 1;
            let planar = Layout::dense(d4, 4, strided_layout::Order::C).unwrap();
            let src: Vec<i32> = (0..planar.volume() as i32).collect();
            let mut dst = vec![-1i32; size];
            strided_layout::copy(&src, &planar, &mut dst, &il).unwrap();
            for (k, &o) in want.iter().enumerate() {
                assert_eq!(dst[o as usize], k as i32, "{tag} {dims:?} element {k}");
            }
        }
        // Every format in the kernels' general form: a copy from the planar tensor lands
        // where oneDNN puts each element (formats blocked on several axes, or twice, too).
        if copy_from_planar(&n, &dims, &want, size) {
            general += 1;
        }
        assert!(n.is_unique(), "{tag} {dims:?}");
        let back: NestedLayout<16> = n.to_string().parse().unwrap();
        assert_eq!(back, n);
        cases += 1;
    }
    assert!(cases >= 200, "{cases} cases");
    assert!(
        interleaved >= 40,
        "{interleaved} copies through the interleaved form"
    );
    assert_eq!(general, cases, "every format copies through `lowered`");
}

/// Copies `0, 1, ..` in logical row-major order into the format `n` through its general
/// kernel form, and checks each lands at oneDNN's offset; padding stays untouched. `false`
/// for a rank the test does not instantiate.
fn copy_from_planar(n: &NestedLayout<16>, dims: &[usize], want: &[isize], size: usize) -> bool {
    fn run<const R: usize>(n: &NestedLayout<16>, dims: &[usize], want: &[isize], size: usize) {
        let d: [usize; R] = dims.try_into().unwrap();
        let planar = Layout::dense(d, 4, strided_layout::Order::C).unwrap();
        let blocked = n.lowered::<R>().unwrap_or_else(|e| panic!("{n}: {e}"));
        let src: Vec<i32> = (0..planar.volume() as i32).collect();
        let mut dst = vec![-1i32; size];
        strided_layout::copy(&src, &planar, &mut dst, &blocked)
            .unwrap_or_else(|e| panic!("{n} {dims:?}: {e}"));
        for (k, &o) in want.iter().enumerate() {
            assert_eq!(dst[o as usize], k as i32, "{n} {dims:?} element {k}");
        }
        let written = dst.iter().filter(|&&v| v >= 0).count();
        assert_eq!(written, want.len(), "{n} {dims:?}: padding written");
    }
    match dims.len() {
        1 => run::<1>(n, dims, want, size),
        2 => run::<2>(n, dims, want, size),
        3 => run::<3>(n, dims, want, size),
        4 => run::<4>(n, dims, want, size),
        5 => run::<5>(n, dims, want, size),
        6 => run::<6>(n, dims, want, size),
        _ => return false,
    }
    true
}

/// Reorders between oneDNN's formats (no planar side): every element of the source lands at
/// the destination's offset of its index, for channel and weight formats of several blocked
/// axes, one axis blocked twice, and extents that are not multiples of the blocks. Where the
/// two sides cut the shape into more pieces than a plan holds (`Plan::new` refuses them), the
/// copy plans them in windows, and lands as well.
#[test]
fn onednn_reorders_land_where_both_formats_say() {
    let activations = ["nchw", "nhwc", "nChw8c", "nChw16c", "chwn"];
    let weights = [
        "oihw",
        "hwio",
        "OIhw8i8o",
        "OIhw16i16o",
        "OIhw4i16o4i",
        "IOhw16o16i",
        "OIhw16o16i",
        "OIhw8i16o2i",
    ];
    let dims: &[[usize; 4]] = if small_scope::quick() {
        &[[2, 40, 3, 2], [20, 20, 3, 3], [3, 17, 2, 2], [18, 22, 1, 2]]
    } else {
        &[
            [2, 40, 3, 2],
            [20, 20, 3, 3],
            [3, 17, 2, 2],
            [18, 22, 1, 2],
            [1, 64, 2, 3],
            [33, 5, 1, 3],
            [16, 32, 3, 3],
        ]
    };
    let (mut copied, mut windowed) = (0, 0);
    for tags in [&activations[..], &weights[..]] {
        for d in dims {
            for a in tags {
                for b in tags {
                    let from = NestedLayout::<16>::onednn(a, d, 4).unwrap();
                    let to = NestedLayout::<16>::onednn(b, d, 4).unwrap();
                    let (fl, tl) = (from.lowered::<4>().unwrap(), to.lowered::<4>().unwrap());
                    let src: Vec<i32> = (0..from.required_len().unwrap() as i32).collect();
                    let mut dst = vec![-1i32; to.required_len().unwrap()];
                    if let Err(e) = strided_layout::copy(&src, &fl, &mut dst, &tl) {
                        panic!("{a} -> {b} {d:?}: {e}");
                    }
                    copied += 1;
                    match strided_layout::plan::Plan::new(&[tl, fl]) {
                        Ok(_) => {}
                        Err(LayoutError::InterleaveConflict) => windowed += 1,
                        Err(e) => panic!("{a} -> {b} {d:?}: {e}"),
                    }
                    let written: usize = d.iter().product();
                    let mut index = [0usize; 4];
                    for _ in 0..d.iter().product::<usize>() {
                        let (x, y) = (from.offset_of(&index).unwrap(), to.offset_of(&index).unwrap());
                        assert_eq!(dst[y as usize], src[x as usize], "{a} -> {b} {d:?} {index:?}");
                        for k in (0..4).rev() {
                            index[k] += 1;
                            if index[k] < d[k] {
                                break;
                            }
                            index[k] = 0;
                        }
                    }
                    let touched = dst.iter().filter(|&&v| v >= 0).count();
                    assert_eq!(touched, written, "{a} -> {b} {d:?}: padding written");
                }
            }
        }
    }
    // The reorders, at sizes that leave partial blocks, all plan.
    for (a, b, d) in [
        ("nChw8c", "nChw16c", [2, 40, 3, 2]),
        ("oihw", "OIhw16i16o", [20, 20, 3, 3]),
        ("OIhw16i16o", "OIhw4i16o4i", [20, 20, 3, 3]),
    ] {
        let from = NestedLayout::<16>::onednn(a, &d, 4).unwrap().lowered::<4>().unwrap();
        let to = NestedLayout::<16>::onednn(b, &d, 4).unwrap().lowered::<4>().unwrap();
        assert!(strided_layout::plan::Plan::new(&[to, from]).is_ok(), "{a} -> {b}");
    }
    // O = 18 and I = 22 against 16o and 4i16o4i: (2 pieces of O) x (3 of I) > MAX_NESTS,
    // more than one plan holds: planned in windows.
    assert!(copied > 100 && windowed > 0, "{copied} copied, {windowed} in windows");
    // copy_uninit in windows: out of `OIhw4i16o4i` (6 pieces) into the dense `oihw`, the
    // whole buffer initialised; into a padded format, a gap, refused with nothing written.
    let d = [18, 22, 3, 3];
    let from = NestedLayout::<16>::onednn("OIhw4i16o4i", &d, 4).unwrap();
    let fl = from.lowered::<4>().unwrap();
    let src: Vec<i32> = (0..from.required_len().unwrap() as i32).collect();
    for (tag, dense) in [("oihw", true), ("OIhw16i16o", false)] {
        let to = NestedLayout::<16>::onednn(tag, &d, 4).unwrap();
        let tl = to.lowered::<4>().unwrap();
        assert_eq!(
            strided_layout::plan::Plan::new(&[tl, fl]).err(),
            Some(LayoutError::InterleaveConflict),
            "{tag}: one plan"
        );
        let mut un = vec![core::mem::MaybeUninit::new(-1i32); to.required_len().unwrap()];
        match strided_layout::copy_uninit(&src, &fl, &mut un, &tl) {
            Ok(got) => {
                assert!(dense, "{tag}");
                let mut want = vec![-1i32; got.len()];
                strided_layout::copy(&src, &fl, &mut want, &tl).unwrap();
                assert_eq!(got, &want[..], "{tag}");
                assert!(got.iter().all(|&x| x >= 0), "{tag}: every element written");
            }
            Err(e) => {
                assert!(!dense && e == LayoutError::DestinationHasGaps, "{tag}: {e}");
                // SAFETY: every element was initialised above and the refused copy wrote none.
                assert!(un.iter().all(|x| unsafe { x.assume_init() } == -1), "{tag}");
            }
        }
        // Prepared: refused by `CopyPlan`'s four nests, planned with room for the six
        // pieces, and copying as the run-time kernel does (padding untouched).
        assert_eq!(
            strided_layout::CopyPlan::from_lowered(&fl, &tl).err(),
            Some(LayoutError::InterleaveConflict),
            "{tag}: CopyPlan"
        );
        let plan = strided_layout::CopyPlan::<6>::with_nests_lowered(&fl, &tl).unwrap();
        assert_eq!(plan.plan().nests().len(), 6, "{tag}");
        assert_eq!(
            strided_layout::CopyPlan::<5>::with_nests_lowered(&fl, &tl).err(),
            Some(LayoutError::InterleaveConflict),
            "{tag}: room for 5"
        );
        let mut got = vec![-1i32; to.required_len().unwrap()];
        plan.run(&src, &mut got).unwrap();
        let mut want = vec![-1i32; got.len()];
        strided_layout::copy(&src, &fl, &mut want, &tl).unwrap();
        assert_eq!(got, want, "{tag}: CopyPlan::<6>");
    }
}

/// The weight reorders between a plain and a blocked format (whose three innermost loops are
/// a grouped transpose on hosts) in 2-, 4- and 8-byte elements, both ways, at sizes with and
/// without partial blocks: every element where both formats say, the padding untouched.
#[test]
fn weight_reorders_of_every_element_size_land_where_both_formats_say() {
    fn reorder<T: Copy + PartialEq + std::fmt::Debug + 'static>(
        a: &str,
        b: &str,
        d: [usize; 4],
        of: fn(usize) -> T,
        pad: T,
    ) {
        let size = core::mem::size_of::<T>();
        let from = NestedLayout::<16>::onednn(a, &d, size).unwrap();
        let to = NestedLayout::<16>::onednn(b, &d, size).unwrap();
        let (fl, tl) = (from.lowered::<4>().unwrap(), to.lowered::<4>().unwrap());
        let src: Vec<T> = (0..from.required_len().unwrap()).map(of).collect();
        let mut dst = vec![pad; to.required_len().unwrap()];
        strided_layout::copy(&src, &fl, &mut dst, &tl).unwrap();
        let mut want = vec![pad; dst.len()];
        small_scope::for_each_index(&d, |ix| {
            let (x, y) = (from.offset_of(ix).unwrap(), to.offset_of(ix).unwrap());
            want[y as usize] = src[x as usize];
        });
        assert!(dst == want, "{a} -> {b} {d:?} in {size} bytes");
    }
    let dims: &[[usize; 4]] = if small_scope::quick() {
        &[[16, 16, 3, 3], [20, 24, 3, 3]]
    } else {
        &[[16, 16, 3, 3], [20, 24, 3, 3], [32, 48, 5, 5], [8, 8, 1, 3], [33, 17, 3, 2]]
    };
    for d in dims {
        for (a, b) in [
            ("oihw", "OIhw16i16o"),
            ("OIhw16i16o", "oihw"),
            ("oihw", "OIhw8i8o"),
            ("OIhw8i8o", "oihw"),
            ("hwio", "OIhw16i16o"),
        ] {
            reorder::<u16>(a, b, *d, |i| (i % 65_521) as u16, u16::MAX);
            reorder::<f32>(a, b, *d, |i| i as f32, -1.0);
            reorder::<f64>(a, b, *d, |i| i as f64, -1.0);
        }
    }
}

/// Tags oneDNN does not have, and dims that do not fit the tag.
#[test]
fn onednn_refuses() {
    let err = |tag: &str, dims: &[usize]| NestedLayout::<8>::onednn(tag, dims, 4).unwrap_err();
    let syntax = |at, expected| NestedError::Syntax { at, expected };
    assert_eq!(
        err("nChw8c", &[1, 8, 2]),
        NestedError::RankMismatch {
            expected: 4,
            found: 3
        }
    );
    assert_eq!(
        err("nChw0c", &[1, 8, 2, 2]),
        syntax(4, "a block of at least 1 of a lower-case dimension")
    );
    assert_eq!(
        err("nChw8C", &[1, 8, 2, 2]),
        syntax(4, "a block of at least 1 of a lower-case dimension")
    );
    assert_eq!(
        err("nchw8", &[1, 8, 2, 2]),
        syntax(5, "a letter after the block size")
    );
    assert_eq!(
        err("ncch", &[1, 8, 2]),
        syntax(2, "each dimension once outside its blocks")
    );
    assert_eq!(
        err("n8c", &[1, 8]),
        syntax(3, "every dimension once outside its blocks")
    );
    assert_eq!(
        err("nq", &[1, 8]),
        syntax(
            0,
            "oneDNN's dimension letters (a, b, c, ... or n, c, d, h, w, x; g, o, i)"
        )
    );
    assert_eq!(err("nc-", &[1, 8]), syntax(2, "a letter or a block size"));
    assert_eq!(
        NestedLayout::<4>::onednn("OIhw4i16o4i", &[16, 16, 1, 1], 4),
        Err(NestedError::TooManyLeaves { max: 4 })
    );
    assert_eq!(
        err("nchw8", &[1, 8, 2, 2]).to_string(),
        "the text breaks its notation, CuTe's layout or a oneDNN tag (at byte 5: expected a letter after the block size)"
    );
    assert_eq!(
        NestedLayout::<8>::onednn("nchw", &[1, 8, 2, 2], 3),
        Err(NestedError::Layout(LayoutError::ItemsizeNotPowerOfTwo {
            itemsize: 3
        }))
    );
}

/// Every nested layout of a small scope against the model: depth at most 2 (the root, and
/// tuples of leaves inside it), at most 3 leaves, every extent in `0..=3` and stride in
/// `-1..=2`, every valid cut of every tuple (partial last blocks), offset 0 (and 5): every
/// query of `check` (each 1-D and multi-index offset, bounds, cosize, uniqueness, the grid,
/// the offsets both ways) and the text read back. The quick scope (a debug build,
/// `small_scope::quick`) takes extents to 2; `STRIDED_LAYOUT_EXHAUSTIVE=wide` takes extents
/// to 4 and strides to `-2..=8`.
#[test]
fn every_small_nested_layout_matches_the_model() {
    let (max_extent, strides): (usize, Vec<isize>) = if small_scope::wide() {
        (4, (-2..=8).collect())
    } else if small_scope::quick() {
        (2, (-1..=2).collect())
    } else {
        (3, (-1..=2).collect())
    };
    // Structures: the root a leaf, or a tuple of children, each a leaf (0) or a tuple of
    // `k >= 1` leaves (k); at most 3 leaves in all.
    let mut structures: Vec<Option<Vec<usize>>> = vec![None];
    let mut stack: Vec<Vec<usize>> = vec![vec![]];
    while let Some(s) = stack.pop() {
        let used: usize = s.iter().map(|&k| k.max(1)).sum();
        if !s.is_empty() {
            structures.push(Some(s.clone()));
        }
        for k in 0..=3 {
            if used + k.max(1) <= 3 {
                let mut t = s.clone();
                t.push(k);
                stack.push(t);
            }
        }
    }
    let mut cases = 0usize;
    for structure in &structures {
        let leaves = structure
            .as_ref()
            .map_or(1, |s| s.iter().map(|&k| k.max(1)).sum());
        let per_leaf: Vec<(usize, isize)> = (0..=max_extent)
            .flat_map(|e| strides.iter().map(move |&s| (e, s)))
            .collect();
        let combos = per_leaf.len().pow(leaves as u32);
        for code_at in 0..combos {
            let mut code = code_at;
            let mut leaf = Vec::with_capacity(leaves);
            for _ in 0..leaves {
                leaf.push(per_leaf[code % per_leaf.len()]);
                code /= per_leaf.len();
            }
            let mut next = leaf.iter().map(|&(e, s)| Mode::Leaf(e, s));
            let base = match structure {
                None => next.next().unwrap(),
                Some(s) => Mode::Tuple(
                    s.iter()
                        .map(|&k| {
                            if k == 0 {
                                next.next().unwrap()
                            } else {
                                Mode::Tuple((0..k).map(|_| next.next().unwrap()).collect(), None)
                            }
                        })
                        .collect(),
                    None,
                ),
            };
            // Offset 5 on one combination in 4 (the offset only shifts every answer).
            let offsets: &[isize] = if code_at % 4 == 0 { &[0, 5] } else { &[0] };
            for m in with_every_cut(&base) {
                for &off in offsets {
                    let text = if off == 0 {
                        m.text()
                    } else {
                        format!("{} +{off}", m.text())
                    };
                    let n: NestedLayout<12> =
                        text.parse().unwrap_or_else(|e| panic!("{text}: {e}"));
                    assert_eq!(n.to_string(), text);
                    check(&n, &m, off);
                    cases += 1;
                }
            }
        }
    }
    let floor = if small_scope::quick() { 40_000 } else { 50_000 };
    assert!(cases > floor, "{cases} cases");
}

/// `m` with every combination of valid cuts on its tuples (none included).
fn with_every_cut(m: &Mode) -> Vec<Mode> {
    match m {
        Mode::Leaf(..) => vec![m.clone()],
        Mode::Tuple(children, _) => {
            // Every combination of the children's own variants.
            let mut combos: Vec<Vec<Mode>> = vec![vec![]];
            for child in children {
                let variants = with_every_cut(child);
                combos = combos
                    .into_iter()
                    .flat_map(|c| {
                        variants.iter().map(move |v| {
                            let mut c = c.clone();
                            c.push(v.clone());
                            c
                        })
                    })
                    .collect();
            }
            let mut out = vec![];
            for c in combos {
                let inner: usize = c[..c.len() - 1].iter().map(Mode::size).product();
                let last = c[c.len() - 1].size();
                out.push(Mode::Tuple(c.clone(), None));
                if inner > 0 && last > 0 {
                    for e in inner * (last - 1) + 1..inner * last {
                        out.push(Mode::Tuple(c.clone(), Some(e)));
                    }
                }
            }
            out
        }
    }
}

/// Every index of `sizes` (row-major, last fastest).
fn row_major(sizes: &[usize]) -> Vec<Vec<usize>> {
    let total: usize = sizes.iter().product();
    let mut out = Vec::with_capacity(total);
    let mut index = vec![0usize; sizes.len()];
    for _ in 0..total {
        out.push(index.clone());
        for k in (0..sizes.len()).rev() {
            index[k] += 1;
            if index[k] < sizes[k] {
                break;
            }
            index[k] = 0;
        }
    }
    out
}

/// Copies between a random nested layout (`m`, shifted so its offsets start at 0) and a dense
/// one of its mode sizes, both ways through `lowered`, checked against the model; `None` when
/// the rank is not `R`.
fn check_lowered_copy<const R: usize>(m: &Mode) -> Result<(), TestCaseError> {
    let modes = m.modes();
    let sizes: Vec<usize> = modes.iter().map(Mode::size).collect();
    let volume: usize = sizes.iter().product();
    let indices = row_major(&sizes);
    // The model's offsets, from the modes (a multi-index is one coordinate per mode).
    let model: Vec<isize> = indices
        .iter()
        .map(|ix| modes.iter().zip(ix).map(|(mode, &c)| mode.offset(c)).sum())
        .collect();
    let shift = model.iter().copied().min().unwrap_or(0).min(0);
    let text = if shift < 0 { format!("{} +{}", m.text(), -shift) } else { m.text() };
    let n: NestedLayout<12> = text.parse::<NestedLayout<12>>().unwrap().with_itemsize(4).unwrap();
    let nested = match n.lowered::<R>() {
        Ok(l) => l,
        Err(e) => {
            // Only a cut inside a mode, or more levels than the form holds, is refused.
            let inner_cut = modes
                .iter()
                .any(|mode| matches!(mode, Mode::Tuple(c, _) if c.iter().any(Mode::has_cut)));
            let levels: usize = modes
                .iter()
                .map(|mode| mode.leaf_extents().iter().filter(|&&e| e != 1).count().saturating_sub(1))
                .sum();
            prop_assert!(
                (inner_cut && matches!(e, NestedError::CutMode { .. }))
                    || (levels > strided_layout::plan::MAX_LEVELS
                        && e == NestedError::Layout(LayoutError::RankOverflow { max: strided_layout::plan::MAX_LEVELS })),
                "{}: {}", text, e
            );
            return Ok(());
        }
    };
    let d: [usize; R] = sizes.clone().try_into().unwrap();
    let dense = Layout::dense(d, 4, strided_layout::Order::C).unwrap();
    let len = n.required_len().unwrap();
    // Nested -> dense: every element read from the model's offset.
    let src: Vec<i32> = (0..len as i32).collect();
    let mut dst = vec![-1i32; volume];
    match strided_layout::copy(&src, &nested, &mut dst, &dense) {
        Ok(()) => {
            for (k, &o) in model.iter().enumerate() {
                prop_assert_eq!(dst[k], (o - shift) as i32, "{} index {:?}", text, indices[k]);
            }
        }
        Err(e) => {
            prop_assert_eq!(e, LayoutError::InterleaveConflict, "{}", text);
            prop_assert!(dst.iter().all(|&v| v == -1));
        }
    }
    // Dense -> nested, where the nested layout writes each element once.
    if n.is_unique() {
        let src: Vec<i32> = (0..volume as i32).collect();
        let mut back = vec![-1i32; len];
        match strided_layout::copy(&src, &dense, &mut back, &nested) {
            Ok(()) => {
                for (k, &o) in model.iter().enumerate() {
                    prop_assert_eq!(back[(o - shift) as usize], k as i32, "{} index {:?}", text, indices[k]);
                }
                prop_assert_eq!(back.iter().filter(|&&v| v >= 0).count(), volume);
            }
            Err(e) => {
                prop_assert_eq!(e, LayoutError::InterleaveConflict, "{}", text);
                prop_assert!(back.iter().all(|&v| v == -1));
            }
        }
    } else {
        let mut back = vec![-1i32; len];
        let src = vec![0i32; volume];
        prop_assert!(strided_layout::copy(&src, &dense, &mut back, &nested).is_err(), "{}", text);
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: if cfg!(miri) { 8 } else { crate::common::cases(2000) }, max_global_rejects: 1 << 20, ..ProptestConfig::default() })]

    /// Random nested layouts (any nesting up to depth 3, partial last blocks, any strides)
    /// through the kernels' general form: copied to and from a dense tensor, every element
    /// where the model puts it; refusals only for the rules `lowered` and the planner state.
    #[test]
    fn random_nested_layouts_copy_through_the_general_form(m in mode(3)) {
        prop_assume!(m.leaves() <= 12 && !matches!(m, Mode::Tuple(_, Some(_))));
        prop_assume!(m.modes().iter().map(Mode::size).product::<usize>() <= 4096);
        match m.modes().len() {
            1 => check_lowered_copy::<1>(&m)?,
            2 => check_lowered_copy::<2>(&m)?,
            3 => check_lowered_copy::<3>(&m)?,
            _ => {}
        }
    }
}
