//! Proof by exhaustion in a small scope: an odometer that enumerates every layout of a
//! bounded scope, and the naive reference model (every index, its offset in `i128`) that
//! each query, transform and kernel is checked against.
//!
//! Three sizes of scope, chosen by [`quick`] and [`wide`]: a debug build (README's
//! `cargo test`) takes the quick scopes, an optimised one (`cargo test --release`, as `.ci/run`
//! runs it) the full scopes that each file's docs list; `STRIDED_LAYOUT_EXHAUSTIVE=full` asks a
//! debug build for the full scopes and `STRIDED_LAYOUT_EXHAUSTIVE=wide` any build for the wide
//! ones.

use strided_layout::{InterleaveLayout, InterleavedLayout, Layout};

/// Whether this run takes the quick scopes: a debug build, unless `STRIDED_LAYOUT_EXHAUSTIVE`
/// is set (`full` or `wide`). The quick scopes are smaller versions of the full ones (fewer
/// extents at the highest rank, fewer proptest cases), still exhaustive where the full ones
/// are, so README's `cargo test` stays a few minutes on two cores.
pub fn quick() -> bool {
    cfg!(debug_assertions) && std::env::var_os("STRIDED_LAYOUT_EXHAUSTIVE").is_none()
}

/// Whether `STRIDED_LAYOUT_EXHAUSTIVE=wide` asks for the wide scopes.
pub fn wide() -> bool {
    std::env::var("STRIDED_LAYOUT_EXHAUSTIVE").is_ok_and(|v| v == "wide")
}

/// Calls `f` with every `[isize; N]` whose entry `k` lies in `lo[k]..=hi[k]`, in
/// lexicographic order (last entry fastest); once with `[]` when `N == 0`, never when some
/// `lo[k] > hi[k]`.
pub fn odometer<const N: usize>(lo: [isize; N], hi: [isize; N], mut f: impl FnMut([isize; N])) {
    if lo.iter().zip(&hi).any(|(l, h)| l > h) {
        return;
    }
    let mut cur = lo;
    loop {
        f(cur);
        let mut k = N;
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            if cur[k] < hi[k] {
                cur[k] += 1;
                break;
            }
            cur[k] = lo[k];
        }
    }
}

/// A scope of strided layouts: every shape with extents `0..=max_extent`, every stride
/// vector with entries `-max_stride..=max_stride`, every offset in `offsets`, and every
/// itemsize in `itemsizes` (or, with `itemsize_by_offset`, the one itemsize
/// `itemsizes[offset % itemsizes.len()]`).
#[derive(Clone, Copy, Debug)]
pub struct Scope {
    /// Largest extent.
    pub max_extent: usize,
    /// Largest `|stride|`.
    pub max_stride: isize,
    /// Smallest and largest offset.
    pub offsets: (isize, isize),
    /// The itemsizes tried for each (shape, strides, offset).
    pub itemsizes: &'static [usize],
    /// Whether each offset gets one itemsize of `itemsizes` (by `offset % len`) instead of
    /// all of them.
    pub itemsize_by_offset: bool,
}

impl Scope {
    /// The number of rank-`N` layouts of the scope.
    pub fn count<const N: usize>(&self) -> u64 {
        let mut n = 0;
        self.for_each::<N>(|_| n += 1);
        n
    }

    /// Calls `f` with every rank-`N` layout of the scope.
    pub fn for_each<const N: usize>(&self, mut f: impl FnMut(Layout<N>)) {
        let e = self.max_extent as isize;
        let s = self.max_stride;
        odometer([0; N], [e; N], |shape| {
            let shape = shape.map(|x| x as usize);
            odometer([-s; N], [s; N], |strides| {
                for offset in self.offsets.0..=self.offsets.1 {
                    let pick = offset.rem_euclid(self.itemsizes.len() as isize) as usize;
                    let items = if self.itemsize_by_offset {
                        &self.itemsizes[pick..=pick]
                    } else {
                        self.itemsizes
                    };
                    for &itemsize in items {
                        let l = Layout::new(shape, strides, itemsize)
                            .and_then(|l| l.with_offset(offset))
                            .expect("a small layout is valid");
                        f(l);
                    }
                }
            });
        });
    }

    /// Calls `f` with every rank-`N` interleaved layout of the scope, for every interleaved
    /// dimension `0..N` and every factor in `factors` (the stride of the interleaved axis is
    /// the block stride).
    pub fn for_each_interleaved<const N: usize>(
        &self,
        factors: (usize, usize),
        mut f: impl FnMut(InterleavedLayout<N>),
    ) {
        for d in 0..N {
            for factor in factors.0..=factors.1 {
                let il = InterleaveLayout::new(d, factor).expect("factor >= 1");
                self.for_each::<N>(|l| {
                    let i = InterleavedLayout::new(l.shape(), l.strides(), l.itemsize(), il)
                        .and_then(|i| i.with_offset(l.offset()))
                        .expect("a small interleaved layout is valid");
                    f(i);
                });
            }
        }
    }
}

/// The naive meaning of a layout: its parts, and the offset of every index in C order,
/// computed in `i128` from the formula so that nothing can overflow.
#[derive(Clone, Debug)]
pub struct Model {
    /// Extents.
    pub shape: Vec<usize>,
    /// Strides (the block stride on an interleaved axis).
    pub strides: Vec<isize>,
    /// Offset of index 0.
    pub offset: isize,
    /// Bytes per element.
    pub itemsize: usize,
    /// `Some((dimension, factor))` for an interleaved layout.
    pub interleave: Option<(usize, usize)>,
    /// The offset of every index, in C order (last axis fastest).
    pub offs: Vec<i128>,
}

impl Model {
    /// The model of a strided layout given by its parts.
    pub fn raw(shape: &[usize], strides: &[isize], offset: isize, itemsize: usize) -> Self {
        Self::build(shape, strides, offset, itemsize, None)
    }

    /// The model of a strided `Layout`.
    pub fn of<const N: usize>(l: &Layout<N>) -> Self {
        Self::raw(&l.shape(), &l.strides(), l.offset(), l.itemsize())
    }

    /// The model of an `InterleavedLayout`.
    pub fn of_il<const N: usize>(l: &InterleavedLayout<N>) -> Self {
        let il = l.interleave();
        Self::build(
            &l.shape(),
            &l.strides(),
            l.offset(),
            l.itemsize(),
            Some((il.dimension(), il.factor())),
        )
    }

    fn build(
        shape: &[usize],
        strides: &[isize],
        offset: isize,
        itemsize: usize,
        interleave: Option<(usize, usize)>,
    ) -> Self {
        assert_eq!(shape.len(), strides.len());
        let mut m = Self {
            shape: shape.to_vec(),
            strides: strides.to_vec(),
            offset,
            itemsize,
            interleave,
            offs: Vec::new(),
        };
        let mut offs = Vec::with_capacity(m.volume());
        for_each_index(shape, |ix| offs.push(m.formula(ix)));
        m.offs = offs;
        m
    }

    /// The formula: `offset + Σ i_k s_k`, or for an interleaved layout
    /// `offset + Σ_{k≠d} i_k s_k + (i_d / f)·s_d + i_d % f`, in `i128`.
    pub fn formula(&self, index: &[usize]) -> i128 {
        let mut o = self.offset as i128;
        for (k, (&i, &s)) in index.iter().zip(&self.strides).enumerate() {
            o += match self.interleave {
                Some((d, f)) if d == k => (i / f) as i128 * s as i128 + (i % f) as i128,
                _ => i as i128 * s as i128,
            };
        }
        o
    }

    /// The rank.
    pub fn rank(&self) -> usize {
        self.shape.len()
    }

    /// The number of elements.
    pub fn volume(&self) -> usize {
        self.shape.iter().product()
    }

    /// The position of `index` in C order.
    pub fn linear(&self, index: &[usize]) -> usize {
        linear(&self.shape, index)
    }

    /// The offset of `index`, read from the table.
    pub fn at(&self, index: &[usize]) -> i128 {
        self.offs[self.linear(index)]
    }

    /// The offsets in F order (first axis fastest).
    pub fn offs_f(&self) -> Vec<i128> {
        let rev: Vec<usize> = self.shape.iter().rev().copied().collect();
        indices(&rev)
            .iter()
            .map(|r| {
                let ix: Vec<usize> = r.iter().rev().copied().collect();
                self.at(&ix)
            })
            .collect()
    }

    /// The smallest and largest offsets, `None` when there is no element.
    pub fn bounds(&self) -> Option<(i128, i128)> {
        Some((*self.offs.iter().min()?, *self.offs.iter().max()?))
    }

    /// Whether no two indices share an offset.
    pub fn unique(&self) -> bool {
        let mut v = self.offs.clone();
        v.sort_unstable();
        v.windows(2).all(|w| w[0] != w[1])
    }

    /// The sorted offsets, without repeats.
    pub fn offset_set(&self) -> Vec<i128> {
        let mut v = self.offs.clone();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// Every byte any element covers (`o * itemsize + b`, `b < itemsize`), sorted, no repeats.
    pub fn byte_set(&self) -> Vec<i128> {
        let item = self.itemsize as i128;
        let mut v: Vec<i128> = self
            .offs
            .iter()
            .flat_map(|&o| (0..item).map(move |b| o * item + b))
            .collect();
        v.sort_unstable();
        v.dedup();
        v
    }

    /// `(max offset + 1) * itemsize`, 0 when empty, `None` when the smallest offset is
    /// negative (the expected `required_size_in_bytes`, `None` for `NegativeOffset`).
    pub fn required_bytes(&self) -> Option<usize> {
        match self.bounds() {
            None => Some(0),
            Some((lo, _)) if lo < 0 => None,
            Some((_, hi)) => Some((hi as usize + 1) * self.itemsize),
        }
    }

    /// Whether the C-order offsets are `offset, offset + 1, ..` (true when empty).
    pub fn contiguous_c(&self) -> bool {
        is_run(&self.offs)
    }

    /// Whether the F-order offsets are a run of consecutive elements (true when empty).
    pub fn contiguous_f(&self) -> bool {
        is_run(&self.offs_f())
    }

    /// Whether some permutation of the axes is C-contiguous.
    pub fn contiguous_any(&self) -> bool {
        permutations(self.rank()).iter().any(|p| {
            let shape: Vec<usize> = p.iter().map(|&k| self.shape[k]).collect();
            let strides: Vec<isize> = p.iter().map(|&k| self.strides[k]).collect();
            Model::raw(&shape, &strides, self.offset, self.itemsize).contiguous_c()
        })
    }
}

/// Whether `offs` is `a, a + 1, a + 2, ..` (true when empty).
pub fn is_run(offs: &[i128]) -> bool {
    offs.windows(2).all(|w| w[1] == w[0] + 1)
}

/// Whether `offs` is an arithmetic progression (true for at most two entries).
pub fn is_progression(offs: &[i128]) -> bool {
    offs.windows(2).all(|w| w[1] - w[0] == offs[1] - offs[0])
}

/// Every index of `shape` in C order (last axis fastest); one empty index for rank 0.
pub fn indices(shape: &[usize]) -> Vec<Vec<usize>> {
    super::indices(shape)
}

/// Calls `f` with every index of `shape` in C order (last axis fastest), in one buffer.
pub fn for_each_index(shape: &[usize], mut f: impl FnMut(&[usize])) {
    if shape.contains(&0) {
        return;
    }
    let mut ix = vec![0usize; shape.len()];
    loop {
        f(&ix);
        let mut k = shape.len();
        loop {
            if k == 0 {
                return;
            }
            k -= 1;
            ix[k] += 1;
            if ix[k] < shape[k] {
                break;
            }
            ix[k] = 0;
        }
    }
}

/// The position of `index` in the C order of `shape`.
pub fn linear(shape: &[usize], index: &[usize]) -> usize {
    index.iter().zip(shape).fold(0, |acc, (&i, &e)| acc * e + i)
}

/// Every permutation of `0..n`, in lexicographic order.
pub fn permutations(n: usize) -> Vec<Vec<usize>> {
    fn go(prefix: &mut Vec<usize>, n: usize, out: &mut Vec<Vec<usize>>) {
        if prefix.len() == n {
            out.push(prefix.clone());
            return;
        }
        for k in 0..n {
            if !prefix.contains(&k) {
                prefix.push(k);
                go(prefix, n, out);
                prefix.pop();
            }
        }
    }
    let mut out = Vec::new();
    go(&mut Vec::new(), n, &mut out);
    out
}

/// The offsets of a layout whose C-order offsets are `offs` (of `shape`) re-indexed by
/// `source`: entry `j` of the result (in the C order of `new_shape`) is `offs` at the
/// index `i` that `source(j, i)` writes (`i` has the rank of `shape`).
pub fn reindexed(
    offs: &[i128],
    shape: &[usize],
    new_shape: &[usize],
    source: impl Fn(&[usize], &mut [usize]),
) -> Vec<i128> {
    let mut out = Vec::with_capacity(new_shape.iter().product());
    let mut i = vec![0usize; shape.len()];
    for_each_index(new_shape, |j| {
        source(j, &mut i);
        out.push(offs[linear(shape, &i)]);
    });
    out
}

/// Counts cases and prints the count when dropped (so each test reports what it checked).
pub struct Tally {
    name: &'static str,
    /// Cases checked.
    pub cases: u64,
}

impl Tally {
    /// A tally named after its test.
    pub fn new(name: &'static str) -> Self {
        Self { name, cases: 0 }
    }

    /// Counts one case.
    pub fn tick(&mut self) {
        self.cases += 1;
    }
}

impl Drop for Tally {
    fn drop(&mut self) {
        let scope = if wide() { "wide" } else { "default" };
        eprintln!(
            "{}: {} cases checked ({scope} scope)",
            self.name, self.cases
        );
    }
}

/// The text of a grid of `rows` x `cols` offsets, CuTe `print_layout` style: every cell
/// right-aligned to the widest, one space apart, rows on separate lines; empty when either
/// count is 0.
pub fn grid_text(rows: usize, cols: usize, at: impl Fn(usize, usize) -> i128) -> String {
    if rows == 0 || cols == 0 {
        return String::new();
    }
    let cells: Vec<Vec<String>> = (0..rows)
        .map(|r| (0..cols).map(|c| at(r, c).to_string()).collect())
        .collect();
    let width = cells.iter().flatten().map(String::len).max().unwrap_or(0);
    cells
        .iter()
        .map(|row| {
            row.iter()
                .map(|c| format!("{c:>width$}"))
                .collect::<Vec<_>>()
                .join(" ")
        })
        .collect::<Vec<_>>()
        .join("\n")
}
