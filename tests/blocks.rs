//! `strided_blocks`, `offsets` and `indices` against the reference model (tests/common).

use crate::common;

use proptest::prelude::*;
use strided_layout::iter::Block;
use strided_layout::{DynLayout, Layout, LayoutError, Order};

/// The blocks' offsets, concatenated.
fn expand(blocks: impl Iterator<Item = Block>) -> Vec<i128> {
    blocks
        .flat_map(|b| (0..b.len as i128).map(move |k| b.start as i128 + k))
        .collect()
}

/// Every property of the three iterators for one layout; `Err` names the first failure.
fn check<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    let model = common::offsets(&l);
    let model_idx = common::indices(&l.shape());

    // offsets(): the model, with an exact len() at every step.
    let mut it = l.offsets();
    let mut got = Vec::new();
    loop {
        prop_assert_eq!(it.len(), model.len() - got.len());
        match it.next() {
            Some(o) => got.push(o as i128),
            None => break,
        }
    }
    prop_assert_eq!(it.next(), None, "fused");
    prop_assert_eq!(&got, &model);
    // fold (the fast path) after a partial walk agrees with next().
    for skip in 0..=model.len().min(5) {
        let mut it = l.offsets();
        (0..skip).for_each(|_| {
            it.next();
        });
        let rest: Vec<i128> = it.fold(Vec::new(), |mut v, o| {
            v.push(o as i128);
            v
        });
        prop_assert_eq!(&rest[..], &model[skip..]);
    }

    // indices(): lexicographic, exact len().
    let mut it = l.indices();
    let mut idx = Vec::new();
    loop {
        prop_assert_eq!(it.len(), model_idx.len() - idx.len());
        match it.next() {
            Some(i) => idx.push(i.to_vec()),
            None => break,
        }
    }
    prop_assert_eq!(it.next(), None, "fused");
    prop_assert_eq!(&idx, &model_idx);

    // strided_blocks(): concatenation, ascending runs, maximality, the regular triple.
    let blocks: Vec<Block> = l.strided_blocks().collect();
    prop_assert_eq!(expand(blocks.iter().copied()), model.clone());
    prop_assert!(blocks.iter().all(|b| b.len >= 1));
    for w in blocks.windows(2) {
        prop_assert_ne!(
            w[0].start as i128 + w[0].len as i128,
            w[1].start as i128,
            "blocks {:?} and {:?} should have joined",
            w[0],
            w[1]
        );
    }
    let sb = l.strided_blocks();
    prop_assert!(blocks.iter().all(|b| b.len % sb.block_len() == 0));
    prop_assert_eq!(sb.num_blocks() * sb.block_len(), model.len());
    prop_assert!(blocks.len() <= sb.num_blocks());
    let (lo, hi) = sb.size_hint();
    prop_assert!(lo <= blocks.len() && Some(blocks.len()) <= hi);
    if let Some(stride) = sb.block_stride() {
        prop_assert_eq!(blocks.len(), sb.num_blocks());
        for w in blocks.windows(2) {
            prop_assert_eq!(w[1].start - w[0].start, stride);
        }
    }

    // DynLayout walks the same offsets, indices (zero-padded) and blocks.
    let d = DynLayout::<6>::from_layout(&l).expect("rank <= 6");
    prop_assert!(d.offsets().eq(l.offsets()));
    prop_assert!(d.strided_blocks().eq(l.strided_blocks()));
    prop_assert!(d.indices().map(|i| i[..N].to_vec()).eq(idx.iter().cloned()));
    prop_assert!(d.indices().all(|i| i[N..].iter().all(|&z| z == 0)));
    Ok(())
}

for_ranks!(iterators_match_reference_model, layout, check);

#[test]
fn iterators_match_reference_model_exhaustively_up_to_rank_two() {
    let run = |r: Result<(), TestCaseError>| r.expect("property holds");
    run(check(
        Layout::new([], [], 1).unwrap().with_offset(-3).unwrap(),
    ));
    for e0 in 0..=4 {
        for s0 in -6..=6 {
            run(check(
                Layout::new([e0], [s0], 1).unwrap().with_offset(2).unwrap(),
            ));
            for e1 in 0..=4 {
                for s1 in -6..=6 {
                    run(check(Layout::new([e0, e1], [s0, s1], 1).unwrap()));
                }
            }
        }
    }
}

#[test]
fn strided_blocks_join_runs_across_axes_that_do_not_merge() -> Result<(), LayoutError> {
    // Offsets in C order: 0 1 | -1 0 | 1 2 | 0 1: the 2nd and 3rd rows continue by +1.
    let l = Layout::new([2, 2, 2], [1, -1, 1], 1)?;
    let b: Vec<Block> = l.strided_blocks().collect();
    assert_eq!(
        b,
        [
            Block { start: 0, len: 2 },
            Block { start: -1, len: 4 },
            Block { start: 0, len: 2 }
        ]
    );
    assert_eq!(l.strided_blocks().block_stride(), None);
    // (2,2):(3,2): offsets 0 2 3 5; 2 and 3 join although the inner stride is 2.
    let l = Layout::new([2, 2], [3, 2], 1)?;
    let b: Vec<Block> = l.strided_blocks().collect();
    assert_eq!(
        b,
        [
            Block { start: 0, len: 1 },
            Block { start: 2, len: 2 },
            Block { start: 5, len: 1 }
        ]
    );
    Ok(())
}

#[test]
fn strided_blocks_regular_triple_matches_burn() -> Result<(), LayoutError> {
    let c = Layout::dense([4, 5, 6], 4, Order::C)?;
    let b = c.strided_blocks();
    assert_eq!(
        (b.block_len(), b.num_blocks(), b.block_stride()),
        (120, 1, Some(0))
    );
    let t = c.transposed(0, 2)?;
    let b = t.strided_blocks();
    assert_eq!(
        (b.block_len(), b.num_blocks(), b.block_stride()),
        (1, 120, None)
    );
    let rows = c.narrowed(2, 1, 3)?;
    let b = rows.strided_blocks();
    assert_eq!(
        (b.block_len(), b.num_blocks(), b.block_stride()),
        (3, 20, Some(6))
    );
    assert_eq!(b.len_hint(), 20);
    Ok(())
}

trait LenHint {
    fn len_hint(&self) -> usize;
}
impl<I: Iterator> LenHint for I {
    fn len_hint(&self) -> usize {
        self.size_hint().0
    }
}

#[test]
fn iterators_on_zero_and_negative_strides_are_exact() -> Result<(), LayoutError> {
    let bcast = Layout::new([3, 2], [0, 1], 1)?;
    assert!(bcast.offsets().eq([0, 1, 0, 1, 0, 1]));
    assert_eq!(bcast.strided_blocks().count(), 3);
    let flip = Layout::new([4], [-1], 1)?.with_offset(3)?;
    assert!(flip.offsets().eq([3, 2, 1, 0]));
    assert_eq!(flip.strided_blocks().count(), 4);
    let empty = Layout::new([3, 0, 2], [1, 1, 1], 1)?;
    assert_eq!((empty.offsets().len(), empty.indices().len()), (0, 0));
    assert_eq!(empty.strided_blocks().next(), None);
    let scalar = Layout::<0>::new([], [], 8)?.with_offset(5)?;
    assert!(scalar.strided_blocks().eq([Block { start: 5, len: 1 }]));
    assert!(scalar.indices().eq([[]]));
    Ok(())
}

static_assertions::assert_impl_all!(
    strided_layout::iter::StridedBlocks<3>: Copy, Send, Sync, Iterator, core::iter::FusedIterator
);
static_assertions::assert_impl_all!(
    strided_layout::iter::Offsets<3>: Copy, Send, Sync, ExactSizeIterator, core::iter::FusedIterator
);
static_assertions::assert_impl_all!(
    strided_layout::iter::Indices<3>: Copy, Send, Sync, ExactSizeIterator, core::iter::FusedIterator
);

/// Layouts with huge extents, strides and offsets (valid ones only).
fn big_layout<const N: usize>() -> impl Strategy<Value = Layout<N>> {
    let ext = prop_oneof![
        0usize..=5,
        Just(usize::MAX),
        1usize..(1 << 40),
        any::<usize>()
    ];
    let st = prop_oneof![
        -6isize..=6,
        Just(isize::MIN),
        Just(isize::MAX),
        any::<isize>()
    ];
    (
        proptest::array::uniform::<_, N>(ext),
        proptest::array::uniform::<_, N>(st),
        prop_oneof![-40isize..=40, any::<isize>()],
    )
        .prop_filter_map("invalid layout", |(sh, st, off)| {
            Layout::new(sh, st, 1).and_then(|l| l.with_offset(off)).ok()
        })
}

/// The first items of each iterator on a huge layout: no panic, offsets as `offset_of` says.
fn check_big<const N: usize>(l: Layout<N>) -> Result<(), TestCaseError> {
    let mut it = l.offsets();
    prop_assert_eq!(it.len(), l.volume());
    for ix in l.indices().take(40) {
        prop_assert_eq!(it.next(), l.offset_of(ix).ok());
    }
    let b = l.strided_blocks();
    let _ = (
        b.block_len(),
        b.num_blocks(),
        b.block_stride(),
        b.size_hint(),
    );
    let mut prev: Option<Block> = None;
    for blk in b.take(40) {
        prop_assert!(blk.len >= 1);
        if let Some(p) = prev {
            prop_assert_ne!(p.start.checked_add_unsigned(p.len), Some(blk.start));
        }
        prev = Some(blk);
    }
    let d = DynLayout::<5>::from_layout(&l).expect("rank <= 5");
    prop_assert!(d.offsets().take(40).eq(l.offsets().take(40)));
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(crate::common::cases(256)))]
    #[test] fn iterators_on_huge_layouts_never_panic_rank1(l in big_layout::<1>()) { check_big(l)?; }
    #[test] fn iterators_on_huge_layouts_never_panic_rank3(l in big_layout::<3>()) { check_big(l)?; }
    #[test] fn iterators_on_huge_layouts_never_panic_rank5(l in big_layout::<5>()) { check_big(l)?; }
}
