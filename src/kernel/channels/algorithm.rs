//! The one channel algorithm, generic over a vector [`Unit`]: whole groups of pixels per step.

use super::masks::Masks;
use super::padded::{deinterleave_step, interleave_padded, padded, pixel_stores, reach};
use crate::kernel::drive::step;

/// [`interleave_on`] or [`deinterleave_on`] (storing planes `0..used` only) by `INTER`.
///
/// # Safety
///
/// `U`'s target feature is enabled, and [`by_shape`](super::by_shape)'s contract holds in bytes.
#[inline(always)]
pub(crate) unsafe fn run<U: Unit, const C: usize, const SIZE: usize, const INTER: bool>(
    d: *mut u8,
    s: *const u8,
    plane: isize,
    n: usize,
    stream: bool,
    used: usize,
) -> usize {
    if INTER {
        // SAFETY: the caller's contract, for an interleave.
        unsafe { interleave_on::<U, C, SIZE>(d, s, plane, n, stream) }
    } else {
        // SAFETY: the caller's contract, for a deinterleave.
        unsafe { deinterleave_on::<U, C, SIZE>(d, plane, s, n, stream, used) }
    }
}

/// How the pixels `0..n` split for a backend that moves `per` pixels a step: `head` pixels
/// one by one (so that a streaming destination is aligned), then `steps` steps.
#[derive(Clone, Copy)]
pub(super) struct Split {
    head: usize,
    steps: usize,
}

impl Split {
    /// Starts at once, or, when `align` is given, after the fewest pixels that make
    /// `dst + p·stride` `align`-aligned (none when no head of at most `n - per` pixels does).
    fn new(n: usize, per: usize, dst: usize, stride: usize, align: Option<usize>) -> Self {
        let head = align
            .and_then(|a| {
                (0..a).find(|&p| {
                    dst.wrapping_add(p.wrapping_mul(stride))
                        .checked_rem(a)
                        .is_some_and(|r| r == 0)
                })
            })
            .filter(|&h| n.saturating_sub(h) >= per)
            .unwrap_or(0);
        Self {
            head,
            steps: n.saturating_sub(head).checked_div(per).unwrap_or(0),
        }
    }

    /// The pixels done by the head and the steps: `head + steps·per <= n`.
    #[expect(
        clippy::arithmetic_side_effects,
        reason = "`steps·per <= n - head` by construction."
    )]
    const fn done(self, per: usize) -> usize {
        self.head + self.steps * per
    }
}

/// Pixels a step of `U` moves: `16·GROUPS / SIZE` (2 at least: `SIZE <= 8`).
pub(super) const fn pixels_per<U: Unit, const SIZE: usize>() -> usize {
    pixels_a_step(U::GROUPS, SIZE)
}

/// Pixels of `size`-byte channels a step of `groups` 16-byte groups a plane moves (0 for no
/// groups or a zero size).
pub(super) const fn pixels_a_step(groups: usize, size: usize) -> usize {
    match groups.wrapping_mul(16).checked_div(size) {
        Some(p) => p,
        None => 0,
    }
}

/// Whether `addr + off` is a multiple of `align`.
pub(super) fn aligned(addr: usize, off: isize, align: usize) -> bool {
    addr.wrapping_add_signed(off).checked_rem(align) == Some(0)
}

/// The byte offsets of pixel `p` in a plane of `SIZE`-byte elements and in the interleaved
/// run of `C` channels: exact for every pixel of a run, whose bytes lie in a slice.
#[inline(always)]
pub(super) const fn at<const C: usize, const SIZE: usize>(p: usize) -> (isize, isize) {
    let planar = step(p, step(SIZE, 1));
    (planar, planar.wrapping_mul(step(C, 1)))
}

/// A vector unit with a byte shuffle: one vector is `GROUPS` 16-byte groups side by side,
/// shuffled lane by lane, and a mask byte `0x80` yields zero.
///
/// Every method is `unsafe`: the backend's target feature must be enabled in the caller
/// (they are only called from the backend's `#[target_feature]` entry points), and the
/// memory ones read or write the bytes they name.
pub(crate) trait Unit {
    /// The vector.
    type V: Copy;
    /// 16-byte groups per vector.
    const GROUPS: usize;
    /// Whether `stream` stores are non-temporal (else they are plain stores).
    const STREAMS: bool;
    /// The alignment streaming stores need (and plain stores like).
    const ALIGN: usize;
    /// All zeros.
    unsafe fn zero() -> Self::V;
    /// The 16-byte mask in every group.
    unsafe fn mask(m: &[u8; 16]) -> Self::V;
    /// `16·GROUPS` consecutive bytes at `p`.
    unsafe fn load_plane(p: *const u8) -> Self::V;
    /// `16·GROUPS` consecutive bytes to `p` (`ALIGN`-aligned when `stream`).
    unsafe fn store_plane(p: *mut u8, v: Self::V, stream: bool);
    /// Group `g`'s 16 bytes at `p + g·gap`.
    unsafe fn load_chunk(p: *const u8, gap: isize) -> Self::V;
    /// Group `g`'s 16 bytes of `v` to `p` (plain stores).
    unsafe fn store_group(p: *mut u8, v: Self::V, g: usize);
    /// The low (`hi` false) or high 8 bytes of group `g` of `v` to `p` (plain stores).
    unsafe fn store_half_group(p: *mut u8, v: Self::V, g: usize, hi: bool);
    /// A step's `16·C·GROUPS` interleaved bytes to `p`: chunk `m` of group `g` (lane `g` of
    /// `chunks[m]`) at `p + 16·(g·C + m)` (`p` is `ALIGN`-aligned when `stream`).
    unsafe fn store_chunks<const C: usize>(p: *mut u8, chunks: [Self::V; C], stream: bool);
    /// Byte `b` of each group is byte `m[b]` of `v`'s group, or zero when `m[b] >= 0x80`.
    unsafe fn shuffle(v: Self::V, m: Self::V) -> Self::V;
    /// `a | b`.
    unsafe fn or(a: Self::V, b: Self::V) -> Self::V;
    /// `b` where `sel`'s byte is `0xFF`, `a` where it is zero.
    unsafe fn blend(a: Self::V, b: Self::V, sel: Self::V) -> Self::V;
    /// In each group, the `g`-byte blocks (`g` is 1, 2, 4 or 8) of the low (`hi` false) or
    /// high half of `a` and `b`, alternated: `a0 b0 a1 b1 ..` (`unpacklo` / `zip1`).
    unsafe fn zip(a: Self::V, b: Self::V, g: usize, hi: bool) -> Self::V;
}

/// Whether `C` channels of `SIZE` bytes interleave by square transposes: `C` is a multiple
/// of the `E = 16 / SIZE` elements of a group (and more than 4, which the masks serve).
pub(super) const fn transposes<const C: usize, const SIZE: usize>() -> bool {
    let e = elements::<SIZE>();
    C > 4 && e > 1 && matches!(C.checked_rem(e), Some(0))
}

/// `E = 16 / SIZE`, the elements of `SIZE` bytes in a 16-byte group.
pub(super) const fn elements<const SIZE: usize>() -> usize {
    match 16usize.checked_div(SIZE) {
        Some(e) => e,
        None => 0,
    }
}

/// In each group, the `E × E` matrix of `SIZE`-byte elements (`E = 16 / SIZE`, 4 to 16)
/// whose row `k` is `rows[k]`, transposed: row `k` of the result is column `k`. Rows `E..`
/// are unused.
///
/// # Safety
///
/// `U`'s target feature is enabled.
#[inline(always)]
pub(super) unsafe fn transpose_square<U: Unit, const SIZE: usize>(rows: [U::V; 16]) -> [U::V; 16] {
    // SAFETY: the caller's contract; `E` is a power of two of at most 16.
    unsafe { interleave_rows::<U, SIZE>(rows, elements::<SIZE>()) }
}

/// In each group, the first `count` rows (a power of two, at most `E = 16 / SIZE`)
/// interleaved element by element: the `count` vectors of the result hold, in order, the
/// `E·count` elements `rows[0][0], rows[1][0], .., rows[count − 1][0], rows[0][1], ..`, so
/// vector `t` is the `E / count` columns `t·E / count ..` of the rows, each `count`
/// elements (for `count == E`, column `t`: the transpose). Rows `count..` are unused.
///
/// `log2 count` rounds of zips: round `r` zips the streams `2i` and `2i + 1` (each `2^r`
/// vectors) in blocks of `2^r` elements, and after the last round the one stream is the
/// rows' interleave (`count·log2 count` zips).
///
/// # Safety
///
/// `U`'s target feature is enabled.
#[inline(always)]
#[expect(
    clippy::arithmetic_side_effects,
    clippy::indexing_slicing,
    reason = "`r < log2 count <= 4`, `t < count / 2`, `i = t / run`, `l < run`: every index is below `count <= 16`"
)]
pub(super) unsafe fn interleave_rows<U: Unit, const SIZE: usize>(
    rows: [U::V; 16],
    count: usize,
) -> [U::V; 16] {
    // `log2 count` rounds, counted (not a doubling loop, which the compiler would not unroll).
    let rounds = count.min(16).trailing_zeros();
    let mut v = rows;
    for r in 0..rounds {
        let (run, g) = (1 << r, SIZE << r);
        let mut out = v;
        // Pair `t` is vector `l` of streams `2i` and `2i + 1`.
        for t in 0..count.min(16) / 2 {
            let (i, l) = (t >> r, t & (run - 1));
            let (a, b) = (v[2 * i * run + l], v[(2 * i + 1) * run + l]);
            // SAFETY: the caller's contract (`U`'s target feature is enabled).
            out[2 * t] = unsafe { U::zip(a, b, g, false) };
            // SAFETY: the caller's contract (`U`'s target feature is enabled).
            out[2 * t + 1] = unsafe { U::zip(a, b, g, true) };
        }
        v = out;
    }
    v
}

/// The `C` interleaved chunks of a step from its `C` plane vectors (`TO_CHUNKS`), or the way
/// back, by `C / E` square transposes ([`transposes`]): block `j` (channels `jE..jE + E`) of
/// pixel `p` is chunk `p·(C/E) + j`. A square transpose is its own inverse, so the two
/// directions differ only in which side is gathered by plane and which by chunk.
///
/// # Safety
///
/// `U`'s target feature is enabled; [`transposes`] holds.
#[inline(always)]
#[expect(
    clippy::arithmetic_side_effects,
    clippy::indexing_slicing,
    reason = "`j < C / E`, `k < E`: `j·E + k < C` and `k·(C/E) + j < C`"
)]
unsafe fn regroup_by_transposes<
    U: Unit,
    const C: usize,
    const SIZE: usize,
    const TO_CHUNKS: bool,
>(
    v: &[U::V; C],
) -> [U::V; C] {
    let e = 16 / SIZE;
    let q = C / e;
    // Block `j`, row `k`: on the chunk side chunk `k·(C/E) + j`, on the plane side plane
    // `j·E + k`.
    let at = |chunk_side: bool, j: usize, k: usize| if chunk_side { k * q + j } else { j * e + k };
    // SAFETY: the caller's contract.
    let zero = unsafe { U::zero() };
    let mut out = [zero; C];
    for j in 0..q {
        let mut rows = [zero; 16];
        for k in 0..e {
            rows[k] = v[at(!TO_CHUNKS, j, k)];
        }
        // SAFETY: the caller's contract.
        let t = unsafe { transpose_square::<U, SIZE>(rows) };
        for k in 0..e {
            out[at(TO_CHUNKS, j, k)] = t[k];
        }
    }
    out
}

/// [`Unit::store_chunks`] for a one-group unit: chunk `m` at `p + 16·m`.
///
/// # Safety
///
/// As [`Unit::store_chunks`], with `store(q, v)` storing one 16-byte vector at `q`.
#[inline(always)]
pub(super) unsafe fn store_each<V: Copy, const C: usize>(
    p: *mut u8,
    chunks: [V; C],
    mut store: impl FnMut(*mut u8, V),
) {
    for (m, v) in chunks.into_iter().enumerate() {
        store(p.wrapping_offset(step(m, 16)), v);
    }
}

/// The masks as vectors of `U`.
///
/// # Safety
///
/// `U`'s target feature is enabled.
#[inline(always)]
pub(super) unsafe fn vectors<U: Unit, const C: usize>(
    table: &[[[u8; 16]; C]; C],
) -> [[U::V; C]; C] {
    // SAFETY: the caller's contract.
    let mut out = [[unsafe { U::zero() }; C]; C];
    for (row, masks) in out.iter_mut().zip(table) {
        for (v, m) in row.iter_mut().zip(masks) {
            // SAFETY: the caller's contract.
            *v = unsafe { U::mask(m) };
        }
    }
    out
}

/// The masks as vectors of `U`, one per plane.
///
/// # Safety
///
/// `U`'s target feature is enabled.
#[inline(always)]
pub(super) unsafe fn vector_row<U: Unit, const C: usize>(table: &[[u8; 16]; C]) -> [U::V; C] {
    // SAFETY: the caller's contract.
    let mut out = [unsafe { U::zero() }; C];
    for (v, m) in out.iter_mut().zip(table) {
        // SAFETY: the caller's contract.
        *v = unsafe { U::mask(m) };
    }
    out
}

/// `out[x] = OR over y of shuffle(inp[y], masks[x][y])`.
///
/// # Safety
///
/// `U`'s target feature is enabled.
#[inline(always)]
pub(super) unsafe fn mix_or<U: Unit, const C: usize>(
    inp: &[U::V; C],
    masks: &[[U::V; C]; C],
) -> [U::V; C] {
    // SAFETY: the caller's contract.
    let mut out = [unsafe { U::zero() }; C];
    for (o, row) in out.iter_mut().zip(masks) {
        for (v, m) in inp.iter().zip(row) {
            // SAFETY: the caller's contract (`U`'s target feature is enabled).
            let shuffled = unsafe { U::shuffle(*v, *m) };
            // SAFETY: the caller's contract (`U`'s target feature is enabled).
            *o = unsafe { U::or(*o, shuffled) };
        }
    }
    out
}

/// `out[x]`: `inp[0]`, then `inp[y]` blended in where `select[x][y]` is set, `y = 1..C`.
///
/// # Safety
///
/// `U`'s target feature is enabled.
#[inline(always)]
pub(super) unsafe fn mix_blend<U: Unit, const C: usize>(
    inp: &[U::V; C],
    select: &[[U::V; C]; C],
) -> [U::V; C] {
    // SAFETY: the caller's contract.
    let mut out = [unsafe { U::zero() }; C];
    if let Some((first, rest)) = inp.split_first() {
        for (o, row) in out.iter_mut().zip(select) {
            *o = *first;
            for (v, sel) in rest.iter().zip(row.iter().skip(1)) {
                // SAFETY: the caller's contract.
                *o = unsafe { U::blend(*o, *v, *sel) };
            }
        }
    }
    out
}

/// Each `inp[y]` shuffled by `masks[y]`.
///
/// # Safety
///
/// `U`'s target feature is enabled.
#[inline(always)]
pub(super) unsafe fn shuffle_each<U: Unit, const C: usize>(
    mut inp: [U::V; C],
    masks: &[U::V; C],
) -> [U::V; C] {
    for (v, m) in inp.iter_mut().zip(masks) {
        // SAFETY: the caller's contract.
        *v = unsafe { U::shuffle(*v, *m) };
    }
    inp
}

/// [`interleave`](super::interleave) for `C` channels of `SIZE` bytes on the unit `U`.
///
/// # Safety
///
/// `U`'s target feature is enabled, and [`interleave`](super::interleave)'s contract holds
/// in bytes.
#[inline(always)]
pub(super) unsafe fn interleave_on<U: Unit, const C: usize, const SIZE: usize>(
    d: *mut u8,
    s: *const u8,
    plane: isize,
    n: usize,
    stream: bool,
) -> usize {
    if pixel_stores::<C, SIZE>(stream && U::STREAMS) {
        // SAFETY: the caller's contract.
        return unsafe { interleave_padded::<U, C, SIZE>(d, s, plane, n) };
    }
    let per = pixels_per::<U, SIZE>();
    let stride = C.wrapping_mul(SIZE);
    let stream = stream && U::STREAMS;
    // Aligned stores when streaming (they must be) or when the run is long (they are
    // cheaper, and the head is short beside the run).
    let align = (stream || n >= per.saturating_mul(8)).then_some(U::ALIGN);
    let split = Split::new(n, per, d.addr(), stride, align);
    // The stores are aligned when pixel `head` is: a step advances `16·C·GROUPS` bytes.
    let stream = stream && aligned(d.addr(), at::<C, SIZE>(split.head).1, U::ALIGN);
    for p in 0..split.head {
        // SAFETY: `p < head <= n` (contract).
        unsafe { interleave_pixel::<C, SIZE>(d, s, plane, p) };
    }
    let blend = Masks::<C, SIZE>::BLEND;
    // SAFETY: the caller's contract (`U`'s feature is enabled).
    let masks = unsafe { vectors::<U, C>(&Masks::<C, SIZE>::INTERLEAVE) };
    // SAFETY: the caller's contract (`U`'s feature is enabled).
    let select = unsafe { vectors::<U, C>(&Masks::<C, SIZE>::SELECT) };
    // SAFETY: the caller's contract (`U`'s feature is enabled).
    let rotate = unsafe { vector_row::<U, C>(&Masks::<C, SIZE>::ROTATE) };
    let mut p = split.head;
    for _ in 0..split.steps {
        let (planar, inter) = at::<C, SIZE>(p);
        // SAFETY: the caller's contract.
        let mut v = [unsafe { U::zero() }; C];
        for (k, vk) in v.iter_mut().enumerate() {
            // SAFETY: pixel `p < n` of plane `k < C` is a source byte (contract).
            let at = unsafe { s.offset(step(k, plane).wrapping_add(planar)) };
            // SAFETY: plane `k`'s pixels `p..p + per` are in the source (`p + per <= n`).
            *vk = unsafe { U::load_plane(at) };
        }
        let chunks = if transposes::<C, SIZE>() {
            // SAFETY: the caller's contract (`U`'s feature is enabled); `transposes` holds.
            unsafe { regroup_by_transposes::<U, C, SIZE, true>(&v) }
        } else if blend {
            // SAFETY: the caller's contract (`U`'s feature is enabled).
            let rotated = unsafe { shuffle_each::<U, C>(v, &rotate) };
            // SAFETY: the caller's contract (`U`'s feature is enabled).
            unsafe { mix_blend::<U, C>(&rotated, &select) }
        } else {
            // SAFETY: the caller's contract (`U`'s feature is enabled).
            unsafe { mix_or::<U, C>(&v, &masks) }
        };
        // SAFETY: pixel `p < n`'s interleaved bytes start a destination element (contract).
        let out = unsafe { d.offset(inter) };
        // SAFETY: the `per` pixels' `16·C·GROUPS` interleaved bytes are in the destination;
        // aligned when streaming.
        unsafe { U::store_chunks::<C>(out, chunks, stream) };
        p = p.wrapping_add(per);
    }
    split.done(per)
}

/// [`deinterleave`](super::deinterleave) for pixels of `C` lanes of `SIZE` bytes on the unit
/// `U`, storing the planes of lanes `0..used` (all `C` for dense pixels; fewer for a partial
/// interleave block, whose other lanes are read and dropped).
///
/// # Safety
///
/// `U`'s target feature is enabled, and [`deinterleave`](super::deinterleave)'s contract
/// holds in bytes for `used` channels in pixels of `C` elements, all `C` of which are in the
/// source for every pixel.
#[inline(always)]
pub(super) unsafe fn deinterleave_on<U: Unit, const C: usize, const SIZE: usize>(
    d: *mut u8,
    plane: isize,
    s: *const u8,
    n: usize,
    stream: bool,
    used: usize,
) -> usize {
    let per = pixels_per::<U, SIZE>();
    // Streaming needs every plane aligned at once: only when the planes are a multiple of
    // the alignment apart.
    let stream = stream && U::STREAMS && plane.unsigned_abs().checked_rem(U::ALIGN) == Some(0);
    // The padded transposes' loads read past a step's last pixel: their steps stop short.
    let split = Split::new(
        reach::<C, SIZE, false>(n),
        per,
        d.addr(),
        SIZE,
        stream.then_some(U::ALIGN),
    );
    let stream = stream && aligned(d.addr(), at::<C, SIZE>(split.head).0, U::ALIGN);
    for p in 0..split.head {
        // SAFETY: `p < head <= n` (contract).
        unsafe { deinterleave_pixel::<C, SIZE>(d, plane, s, p, used) };
    }
    let blend = Masks::<C, SIZE>::BLEND;
    // SAFETY: the caller's contract (`U`'s feature is enabled).
    let masks = unsafe { vectors::<U, C>(&Masks::<C, SIZE>::DEINTERLEAVE) };
    // SAFETY: the caller's contract (`U`'s feature is enabled).
    let select = unsafe { vectors::<U, C>(&Masks::<C, SIZE>::SELECT_BACK) };
    // SAFETY: the caller's contract (`U`'s feature is enabled).
    let rotate = unsafe { vector_row::<U, C>(&Masks::<C, SIZE>::ROTATE_BACK) };
    let gap = step(C, 16);
    let mut p = split.head;
    for _ in 0..split.steps {
        let (planar, inter) = at::<C, SIZE>(p);
        let planes = if padded::<C, SIZE, false>() {
            // SAFETY: pixel `p < n`'s interleaved bytes start a source element (contract).
            let at = unsafe { s.offset(inter) };
            // SAFETY: the step's pixels and the bytes after them that its last pixel's
            // loads reach are source bytes (the steps stop `slack` pixels short of the
            // run's end).
            unsafe { deinterleave_step::<U, C, SIZE>(at) }
        } else {
            // SAFETY: the caller's contract.
            let mut u = [unsafe { U::zero() }; C];
            for (m, um) in u.iter_mut().enumerate() {
                // SAFETY: chunk `m < C` of the step's first group lies among the `per`
                // pixels' `16·C·GROUPS` interleaved source bytes.
                let at = unsafe { s.offset(inter.wrapping_add(step(m, 16))) };
                // SAFETY: chunk `m` of each of the step's groups, among the `per` pixels'
                // `16·C·GROUPS` interleaved source bytes.
                *um = unsafe { U::load_chunk(at, gap) };
            }
            if transposes::<C, SIZE>() {
                // SAFETY: the caller's contract (`U`'s feature is enabled); `transposes`
                // holds.
                unsafe { regroup_by_transposes::<U, C, SIZE, false>(&u) }
            } else if blend {
                // SAFETY: the caller's contract (`U`'s feature is enabled).
                let blended = unsafe { mix_blend::<U, C>(&u, &select) };
                // SAFETY: the caller's contract (`U`'s feature is enabled).
                unsafe { shuffle_each::<U, C>(blended, &rotate) }
            } else {
                // SAFETY: the caller's contract (`U`'s feature is enabled).
                unsafe { mix_or::<U, C>(&u, &masks) }
            }
        };
        for (k, t) in planes.into_iter().enumerate().take(used) {
            // SAFETY: pixel `p < n` of plane `k < used` is a destination element (contract).
            let at = unsafe { d.offset(step(k, plane).wrapping_add(planar)) };
            // SAFETY: plane `k`'s pixels `p..p + per` in the destination; aligned when
            // streaming (every plane is aligned after the head, and a step advances
            // `16·GROUPS` bytes, a multiple of `ALIGN`).
            unsafe { U::store_plane(at, t, stream) };
        }
        p = p.wrapping_add(per);
    }
    split.done(per)
}

/// Two planes interleaved into pairs by zips (stereo), whole steps of `16·GROUPS` bytes a
/// plane: `d[2p] = l[p]`, `d[2p + 1] = r[p]` (elements of `SIZE` bytes) for the returned
/// number of pairs `p` (a prefix of `0..n`). One load a plane, two zips and the two chunks'
/// stores a step: the 2-channel interleave of a small block, without the masks.
///
/// # Safety
///
/// `U`'s target feature is enabled; the `n·SIZE` bytes from `l` and from `r` are source
/// elements, the `2n·SIZE` bytes from `d` destination elements written by nothing else,
/// none a source element.
#[cfg(any(x86_kernels, neon_kernels, miri))]
#[inline(always)]
pub(crate) unsafe fn zip_pairs<U: Unit, const SIZE: usize>(
    d: *mut u8,
    l: *const u8,
    r: *const u8,
    n: usize,
) -> usize {
    let per = pixels_per::<U, SIZE>();
    let steps = n.checked_div(per).unwrap_or(0);
    for k in 0..steps {
        // Pairs `p = k·per..(k + 1)·per` (`(k + 1)·per <= n`): their plane bytes from `p·SIZE`,
        // their interleaved bytes from `2p·SIZE`, all inside the operands (contract).
        let (planar, inter) = at::<2, SIZE>(k.wrapping_mul(per));
        // SAFETY: the step's left bytes (above).
        let lp = unsafe { l.offset(planar) };
        // SAFETY: the step's `16·GROUPS` left bytes (above); `U`'s feature is enabled.
        let a = unsafe { U::load_plane(lp) };
        // SAFETY: the step's right bytes (above).
        let rp = unsafe { r.offset(planar) };
        // SAFETY: the step's `16·GROUPS` right bytes (above).
        let b = unsafe { U::load_plane(rp) };
        // SAFETY: `U`'s feature is enabled (contract); register zips.
        let lo = unsafe { U::zip(a, b, SIZE, false) };
        // SAFETY: as above.
        let hi = unsafe { U::zip(a, b, SIZE, true) };
        // SAFETY: the step's interleaved bytes (above).
        let dp = unsafe { d.offset(inter) };
        // SAFETY: the step's `32·GROUPS` destination bytes: chunk 0 of each group is the
        // group's first pairs (`lo`), chunk 1 the rest (`hi`), plain stores.
        unsafe { U::store_chunks::<2>(dp, [lo, hi], false) };
    }
    steps.wrapping_mul(per)
}

/// Pairs `from..n` of [`zip_pairs`] one by one (`from <= n`): the frames a vector step
/// leaves.
///
/// # Safety
///
/// [`zip_pairs`]'s contract (no feature needed).
#[cfg(any(x86_kernels, neon_kernels, miri))]
#[inline(always)]
pub(crate) unsafe fn pairs_one_by_one<const SIZE: usize>(
    d: *mut u8,
    l: *const u8,
    r: *const u8,
    from: usize,
    n: usize,
) {
    for p in from..n {
        // Pair `p < n`: its plane bytes from `p·SIZE`, its interleaved ones from `2p·SIZE`,
        // inside the operands (contract).
        let (planar, inter) = at::<2, SIZE>(p);
        let d = d.wrapping_offset(inter);
        // SAFETY: the left element of pair `p` to the first of its frame (above), distinct
        // allocations' bytes.
        unsafe { core::ptr::copy_nonoverlapping(l.wrapping_offset(planar), d, SIZE) };
        let (right, second) = (r.wrapping_offset(planar), d.wrapping_add(SIZE));
        // SAFETY: the right element to the second (above).
        unsafe { core::ptr::copy_nonoverlapping(right, second, SIZE) };
    }
}

/// Rows of one channel ([`one_channel`](super::one_channel)): for each row `r < rows`, the
/// whole steps of `per` pixels short of its last (the returned count of pixels, the same
/// for every row: the last pixel's lanes past its first may lie past the slice) by
/// [`extract_on`] (`INSERT` false) or [`insert_on`], with plane 0's masks for the direction
/// (`rev`: the consecutive side runs backwards).
///
/// # Safety
///
/// `U`'s target feature is enabled, and the contract of the function `INSERT` names holds
/// for `rev`.
#[inline(always)]
pub(crate) unsafe fn one_channel_on<
    U: Unit,
    const C: usize,
    const SIZE: usize,
    const INSERT: bool,
>(
    band: Band,
) -> usize {
    let per = pixels_per::<U, SIZE>();
    let steps = band.n.saturating_sub(1).checked_div(per).unwrap_or(0);
    let table = match (INSERT, band.rev) {
        (false, false) => &Masks::<C, SIZE>::EXTRACT,
        (false, true) => &Masks::<C, SIZE>::EXTRACT_REVERSED,
        (true, false) => &Masks::<C, SIZE>::INSERT,
        (true, true) => &Masks::<C, SIZE>::INSERT_REVERSED,
    };
    // SAFETY: the caller's contract (`U`'s feature is enabled).
    let masks = unsafe { vector_row::<U, C>(table) };
    match (INSERT, band.rev) {
        // SAFETY: the caller's contract for a gather, `steps·per <= n - 1`.
        (false, false) => unsafe { extract_on::<U, C, SIZE, false>(band, steps, &masks) },
        // SAFETY: as above, the destination running backwards.
        (false, true) => unsafe { extract_on::<U, C, SIZE, true>(band, steps, &masks) },
        // SAFETY: the caller's contract for a scatter, `steps·per <= n - 1`.
        (true, false) => unsafe { insert_on::<U, C, SIZE, false>(band, steps, &masks) },
        // SAFETY: as above, the source running backwards.
        (true, true) => unsafe { insert_on::<U, C, SIZE, true>(band, steps, &masks) },
    }
    steps.wrapping_mul(per)
}

/// A block of rows of one channel in bytes ([`one_channel`](super::one_channel)'s operands):
/// the destination's and the source's first bytes and row strides, whether the consecutive
/// side runs backwards, the rows, and their pixels.
#[derive(Clone, Copy)]
pub(crate) struct Band {
    pub(super) d: *mut u8,
    pub(super) dr: isize,
    pub(super) s: *const u8,
    pub(super) sr: isize,
    pub(super) rev: bool,
    pub(super) rows: usize,
    pub(super) n: usize,
}

impl Band {
    /// Row `r`'s first destination and source bytes.
    #[inline(always)]
    fn row(self, r: usize) -> (*mut u8, *const u8) {
        (
            self.d.wrapping_offset(step(r, self.dr)),
            self.s.wrapping_offset(step(r, self.sr)),
        )
    }
}

/// Rows of one channel gathered: for each row `r` and pixel `p` of its `steps` steps, the
/// element at `d + r·dr ± p·SIZE` (`-` when `REV`) becomes the one at `s + r·sr + p·C·SIZE`,
/// by `C` shuffles and ORs of a step's chunks (`masks`: plane 0's, [`Masks::EXTRACT`] or
/// reversed). Plain stores (a run a row: streaming would mix store kinds on each row's
/// lines).
///
/// # Safety
///
/// `U`'s target feature is enabled; for every row and pixel `p` of its steps, the `SIZE`
/// bytes at `s + r·sr + p·C·SIZE` are a source element and the `C·SIZE` bytes from there
/// lie in the source allocation; the `SIZE` bytes at `d + r·dr ± p·SIZE` are a destination
/// element, no source element, and written by nothing else.
#[inline(always)]
unsafe fn extract_on<U: Unit, const C: usize, const SIZE: usize, const REV: bool>(
    band: Band,
    steps: usize,
    masks: &[U::V; C],
) {
    let per = pixels_per::<U, SIZE>();
    let gap = step(C, 16);
    // A step's pixels `p..p + per` span `per·SIZE = 16·GROUPS` destination bytes; reversed,
    // they end at pixel `p`'s, so they start `(per - 1)·SIZE` bytes below it.
    let back = step(per.saturating_sub(1), step(SIZE, 1));
    for r in 0..band.rows {
        let (to, from) = band.row(r);
        for k in 0..steps {
            let (planar, inter) = at::<C, SIZE>(k.wrapping_mul(per));
            // SAFETY: the caller's contract.
            let mut plane = unsafe { U::zero() };
            for (m, mask) in masks.iter().enumerate() {
                // SAFETY: chunk `m < C` of the step's first group lies among the step's
                // `16·C·GROUPS` source bytes, in the source allocation (contract).
                let at = unsafe { from.offset(inter.wrapping_add(step(m, 16))) };
                // SAFETY: chunk `m` of each of the step's groups, `16·C` bytes apart, among
                // the step's source bytes (above).
                let chunk = unsafe { U::load_chunk(at, gap) };
                // SAFETY: the caller's contract (`U`'s target feature is enabled).
                let picked = unsafe { U::shuffle(chunk, *mask) };
                // SAFETY: the caller's contract (`U`'s target feature is enabled).
                plane = unsafe { U::or(plane, picked) };
            }
            if REV {
                // SAFETY: pixel `p + per - 1`'s element, the step's lowest (below `to` by
                // `planar + back` bytes), is a destination element (contract).
                let low = unsafe { to.offset(planar.wrapping_add(back).wrapping_neg()) };
                for g in 0..U::GROUPS {
                    // Group `g` holds pixels `p + g·E..`, reversed: they lie at the step's
                    // lowest bytes plus `16·(GROUPS - 1 - g)`.
                    let up = step(U::GROUPS.wrapping_sub(1).wrapping_sub(g), 16);
                    // SAFETY: 16 of the step's destination bytes (above, contract).
                    let at = unsafe { low.offset(up) };
                    // SAFETY: the step's pixels of group `g`, destination elements written by
                    // nothing else (contract).
                    unsafe { U::store_group(at, plane, g) };
                }
            } else {
                // SAFETY: pixel `p`'s element, the step's lowest, is a destination element
                // (contract).
                let at = unsafe { to.offset(planar) };
                // SAFETY: the step's `per` destination elements from `at` (contract).
                unsafe { U::store_plane(at, plane, false) };
            }
        }
    }
}

/// Rows of one channel scattered, the way back: for each row `r` and pixel `p` of its
/// `steps` steps, the element at `d + r·dr + p·C·SIZE` becomes the one at `s + r·sr ± p·SIZE`
/// (`-` when `REV`), by a shuffle of the step's source elements into each chunk (`masks`:
/// plane 0's, [`Masks::INSERT`] or reversed) blended into the chunk as it was (lanes `1..C`
/// of every pixel written back unchanged). Plain stores.
///
/// # Safety
///
/// `U`'s target feature is enabled; for every row and pixel `p` of its steps, the `SIZE`
/// bytes at `s + r·sr ± p·SIZE` are a source element; the `SIZE` bytes at `d + r·dr +
/// p·C·SIZE` are a destination element, no source element, and the `C·SIZE` bytes from there
/// are initialised bytes of the destination allocation that nothing else reads or writes
/// while this runs (their values are kept).
#[inline(always)]
unsafe fn insert_on<U: Unit, const C: usize, const SIZE: usize, const REV: bool>(
    band: Band,
    steps: usize,
    masks: &[U::V; C],
) {
    let per = pixels_per::<U, SIZE>();
    // SAFETY: the caller's contract (`U`'s feature is enabled).
    let select = unsafe { vector_row::<U, C>(&Masks::<C, SIZE>::INSERT_SELECT) };
    let gap = step(C, 16);
    // Reversed, a step's group `g` (pixels `p + g·E..`) is the 16 bytes ending at pixel `p +
    // g·E`'s element: group 0 starts `16 - SIZE` bytes below pixel `p`'s, group `g` 16·g
    // below that.
    let (down, group_gap) = if REV {
        (step(16_usize.wrapping_sub(SIZE), 1), -16)
    } else {
        (0, 16)
    };
    for r in 0..band.rows {
        let (to, from) = band.row(r);
        for k in 0..steps {
            let (planar, inter) = at::<C, SIZE>(k.wrapping_mul(per));
            let first = if REV {
                planar.wrapping_add(down).wrapping_neg()
            } else {
                planar
            };
            // SAFETY: group 0's 16 source bytes, pixels `p..p + E` of the row (either way),
            // source elements (contract).
            let at = unsafe { from.offset(first) };
            // SAFETY: the step's `per` source elements, group `g` 16 bytes on (or back).
            let plane = unsafe { U::load_chunk(at, group_gap) };
            // SAFETY: the caller's contract.
            let mut chunks = [unsafe { U::zero() }; C];
            for (m, (out, (mask, sel))) in
                chunks.iter_mut().zip(masks.iter().zip(&select)).enumerate()
            {
                // SAFETY: chunk `m < C` of the step's first group lies among the step's
                // `16·C·GROUPS` destination bytes, in the destination allocation (contract).
                let at = unsafe { to.offset(inter.wrapping_add(step(m, 16))) };
                // SAFETY: chunk `m` of each group, `16·C` bytes apart, initialised bytes
                // nothing else accesses (contract).
                let old = unsafe { U::load_chunk(at, gap) };
                // SAFETY: the caller's contract (`U`'s target feature is enabled).
                let moved = unsafe { U::shuffle(plane, *mask) };
                // SAFETY: the caller's contract (`U`'s target feature is enabled).
                *out = unsafe { U::blend(old, moved, *sel) };
            }
            // SAFETY: pixel `p`'s first byte, the step's lowest destination byte (contract).
            let at = unsafe { to.offset(inter) };
            // SAFETY: the step's `16·C·GROUPS` destination bytes, channel 0's elements new and
            // the other lanes as they were, nothing else accessing them (contract).
            unsafe { U::store_chunks(at, chunks, false) };
        }
    }
}

/// Pixel `p`'s `C` elements, one by one, for an interleave.
///
/// # Safety
///
/// As [`interleave`](super::interleave) for a pixel `p < n`, in bytes.
#[inline(always)]
pub(super) unsafe fn interleave_pixel<const C: usize, const SIZE: usize>(
    d: *mut u8,
    s: *const u8,
    plane: isize,
    p: usize,
) {
    let (planar, inter) = at::<C, SIZE>(p);
    for k in 0..C {
        // SAFETY: element `k` of pixel `p` in the source slice (contract).
        let from = unsafe { s.offset(step(k, plane).wrapping_add(planar)) };
        // SAFETY: element `k` of pixel `p` in the destination slice (contract).
        let to = unsafe { d.offset(inter.wrapping_add(step(k, step(SIZE, 1)))) };
        // SAFETY: element `k` of pixel `p` in each slice (contract), `SIZE` bytes each,
        // distinct slices.
        unsafe { core::ptr::copy_nonoverlapping(from, to, SIZE) };
    }
}

/// Pixel `p`'s first `used` elements, one by one, for a deinterleave.
///
/// # Safety
///
/// As [`deinterleave_on`] for a pixel `p < n`.
#[inline(always)]
pub(super) unsafe fn deinterleave_pixel<const C: usize, const SIZE: usize>(
    d: *mut u8,
    plane: isize,
    s: *const u8,
    p: usize,
    used: usize,
) {
    let (planar, inter) = at::<C, SIZE>(p);
    for k in 0..used.min(C) {
        // SAFETY: element `k` of pixel `p` in the source slice (contract).
        let from = unsafe { s.offset(inter.wrapping_add(step(k, step(SIZE, 1)))) };
        // SAFETY: element `k` of pixel `p` in the destination slice (contract).
        let to = unsafe { d.offset(step(k, plane).wrapping_add(planar)) };
        // SAFETY: element `k` of pixel `p` in each slice (contract), `SIZE` bytes each,
        // distinct slices.
        unsafe { core::ptr::copy_nonoverlapping(from, to, SIZE) };
    }
}
