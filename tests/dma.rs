//! DMA lowering against emulators of the engines written from their reference manuals
//! (`tests/dma_emu/`): random copies (permuted, flipped, stepped and cropped operands of 1- to
//! 16-byte elements, buffers at aligned and unaligned addresses) are lowered for each engine,
//! the chain's bytes (the descriptors' memory image, as a little-endian core would hand it to
//! the engine) run on the engine's emulator, and the destination must hold the model's result,
//! every destination byte written exactly once and nothing else written. Then each engine's
//! counts on copies whose fewest descriptors are known, and every refusal.
#![allow(
    clippy::cast_possible_wrap,
    clippy::cast_sign_loss,
    clippy::cast_possible_truncation
)]

use crate::dma_emu;

use dma_emu::bus::Bus;
use dma_emu::rp::Chip;
use dma_emu::{
    edma as emu_edma, edma3 as emu_edma3, gpdma as emu_gpdma, pl330 as emu_pl330, rp as emu_rp,
};
use proptest::prelude::*;
use strided_layout::dma::{DmaError, edma, edma3, gpdma, pl330, rp2040, rp2350};
use strided_layout::{CopyPlan, InterleaveLayout, InterleavedLayout, Layout, LayoutError, Order};

/// The largest extent of the random rank-3 and rank-4 cases (smaller under Miri, which
/// interprets every beat of the emulators).
const E: usize = if cfg!(miri) { 3 } else { 9 };
const E4: usize = if cfg!(miri) { 2 } else { 5 };

/// Where the tests put things on the emulated bus.
const SRC: u32 = 0x2000_0000;
const DST: u32 = 0x3000_0000;
const CHAIN: u32 = 0x0270_4000; // an EDMA3 PaRAM address: set 0 of a controller at 0x0270_0000

/// The memory image of `out[..n]` (the descriptors as the engine reads them).
fn image<D>(out: &[D], n: usize) -> Vec<u8> {
    let out = &out[..n];
    // SAFETY: the descriptors are `#[repr(C)]` structs of integers with no padding (the tests
    // below check their sizes); reading their bytes is reading initialised memory.
    unsafe { std::slice::from_raw_parts(out.as_ptr().cast::<u8>(), size_of_val(out)) }.to_vec()
}

/// A copy case: the plan, the byte offset pairs the model copies (source, destination), the
/// element size, the two buffers' lengths and addresses.
#[derive(Clone, Debug)]
struct Case {
    plan: CopyPlan,
    pairs: Vec<(usize, usize)>,
    itemsize: usize,
    src_len: usize,
    dst_len: usize,
    src_addr: u32,
    dst_addr: u32,
}

/// Every index of `shape` (an odometer), for the model.
fn indices(shape: &[usize]) -> Vec<Vec<usize>> {
    let mut out = Vec::new();
    if shape.contains(&0) {
        return out;
    }
    let mut idx = vec![0usize; shape.len()];
    'outer: loop {
        out.push(idx.clone());
        for k in (0..shape.len()).rev() {
            idx[k] += 1;
            if idx[k] < shape[k] {
                continue 'outer;
            }
            idx[k] = 0;
        }
        return out;
    }
}

impl Case {
    /// A case between two layouts of rank `N`.
    fn new<const N: usize>(src: Layout<N>, dst: Layout<N>, src_addr: u32, dst_addr: u32) -> Self {
        let plan = CopyPlan::new(&src, &dst).unwrap();
        let dst_len = dst.required_size_in_bytes().unwrap();
        Self::of(
            plan,
            src,
            dst_len,
            |i| dst.offset_of(i).unwrap(),
            [src_addr, dst_addr],
        )
    }

    /// A case from a layout into an interleaved one.
    fn interleaved<const N: usize>(
        src: Layout<N>,
        dst: InterleavedLayout<N>,
        src_addr: u32,
        dst_addr: u32,
    ) -> Self {
        let plan = CopyPlan::of(&src, &dst).unwrap();
        let dst_len = dst.required_size_in_bytes().unwrap();
        Self::of(
            plan,
            src,
            dst_len,
            |i| dst.offset_of(i).unwrap(),
            [src_addr, dst_addr],
        )
    }

    /// The model of `plan`: every index of `src`'s shape, its source offset and the
    /// destination offset `dst` gives, in bytes.
    fn of<const N: usize>(
        plan: CopyPlan,
        src: Layout<N>,
        dst_len: usize,
        dst: impl Fn([usize; N]) -> isize,
        [src_addr, dst_addr]: [u32; 2],
    ) -> Self {
        let g = src.itemsize();
        let pairs = indices(&src.shape())
            .iter()
            .map(|i| {
                let i: [usize; N] = i.as_slice().try_into().unwrap();
                (src.offset_of(i).unwrap() as usize * g, dst(i) as usize * g)
            })
            .collect();
        Self {
            plan,
            pairs,
            itemsize: g,
            src_len: src.required_size_in_bytes().unwrap().max(g),
            dst_len: dst_len.max(g),
            src_addr,
            dst_addr,
        }
    }

    fn plan(&self) -> CopyPlan {
        self.plan
    }

    fn volume(&self) -> usize {
        self.pairs.len()
    }

    /// The bus: the source filled with a pattern, the destination zeroed, and room for the
    /// chain (`chain` bytes at [`CHAIN`]).
    fn bus(&self, chain: Vec<u8>) -> Bus {
        let mut bus = Bus::new();
        bus.add(
            self.src_addr,
            (0..self.src_len).map(|i| (i * 7 + 1) as u8).collect(),
        );
        bus.add(self.dst_addr, vec![0; self.dst_len]);
        bus.add(CHAIN, chain);
        bus
    }

    /// The model: the destination's bytes and which were written.
    fn expected(&self, bus: &Bus) -> (Vec<u8>, Vec<u32>) {
        let g = self.itemsize;
        let src = bus.region(self.src_addr).to_vec();
        let mut dst = vec![0u8; bus.region(self.dst_addr).len()];
        let mut writes = vec![0u32; dst.len()];
        for &(s, d) in &self.pairs {
            dst[d..d + g].copy_from_slice(&src[s..s + g]);
            for w in &mut writes[d..d + g] {
                *w += 1;
            }
        }
        (dst, writes)
    }

    /// Checks the destination and every region's write counts after a run.
    fn check(&self, bus: &Bus) {
        let (dst, writes) = self.expected(bus);
        assert_eq!(bus.region(self.dst_addr), &dst[..], "destination bytes");
        assert_eq!(
            bus.writes(self.dst_addr),
            &writes[..],
            "writes per destination byte"
        );
        assert!(
            bus.writes(self.src_addr).iter().all(|&w| w == 0),
            "the source written"
        );
    }
}

/// A layout of `shape` over a dense buffer of a larger shape, its axes permuted, some flipped
/// and some stepped.
fn operand<const N: usize>(
    shape: [usize; N],
    pad: [usize; N],
    step: [isize; N],
    perm: [usize; N],
    flips: [bool; N],
    itemsize: usize,
) -> Layout<N> {
    // The buffer: `shape · step + pad` per axis, in order `perm`.
    let mut full = [0usize; N];
    for a in 0..N {
        full[a] = shape[a] * step[a] as usize + pad[a];
    }
    let mut base_shape = [0usize; N];
    for a in 0..N {
        base_shape[a] = full[perm[a]];
    }
    let base = Layout::dense(base_shape, itemsize, Order::C).unwrap();
    let mut inv = [0usize; N];
    for a in 0..N {
        inv[perm[a]] = a;
    }
    let mut l = base.permuted(inv).unwrap();
    for a in 0..N {
        l = l
            .narrowed(a, pad[a] / 2, shape[a] * step[a] as usize)
            .unwrap();
        if step[a] > 1 {
            let s = strided_layout::Slice::new(None, None, step[a]);
            let mut slices = [strided_layout::Slice::FULL; N];
            slices[a] = s;
            l = l.sliced(slices).unwrap();
        }
        if flips[a] {
            l = l.flipped(a).unwrap();
        }
    }
    l
}

/// A permutation of `0..N`.
fn perm<const N: usize>() -> impl Strategy<Value = [usize; N]> {
    Just((0..N).collect::<Vec<_>>())
        .prop_shuffle()
        .prop_map(|v| v.try_into().unwrap())
}

/// Random rank-4 cases (extents 1-5), and planar into interleaved (a random axis blocked by
/// 2 to 8 lanes, a partial last block where the factor does not divide the extent).
fn case4() -> impl Strategy<Value = Case> {
    (
        [1usize..=E4, 1usize..=E4, 1usize..=E4, 1usize..=E4],
        prop::sample::select(vec![1usize, 2, 4, 8]),
        (
            [0usize..=2, 0usize..=2, 0usize..=2, 0usize..=2],
            [1isize..=2, 1isize..=2, 1isize..=2, 1isize..=2],
            perm::<4>(),
            any::<[bool; 4]>(),
        ),
        (
            [0usize..=2, 0usize..=2, 0usize..=2, 0usize..=2],
            [1isize..=2, 1isize..=2, 1isize..=2, 1isize..=2],
            perm::<4>(),
            any::<[bool; 4]>(),
        ),
        prop::option::of((0usize..4, 2usize..=8)),
        prop::sample::select(vec![0u32, 0, 2, 4]),
    )
        .prop_map(|(shape, itemsize, s, d, blocked, skew)| {
            let src = operand(shape, s.0, s.1, s.2, s.3, itemsize);
            match blocked {
                None => Case::new(
                    src,
                    operand(shape, d.0, d.1, d.2, d.3, itemsize),
                    SRC + skew,
                    DST,
                ),
                Some((axis, factor)) => {
                    let il = InterleaveLayout::new(axis, factor).unwrap();
                    let dst = InterleavedLayout::dense(shape, itemsize, il).unwrap();
                    Case::interleaved(src, dst, SRC, DST + skew)
                }
            }
        })
}

fn case() -> impl Strategy<Value = Case> {
    (
        [1usize..=E, 1usize..=E, 1usize..=E],
        prop::sample::select(vec![1usize, 2, 4, 8, 16]),
        (
            [0usize..=3, 0usize..=3, 0usize..=3],
            [1isize..=3, 1isize..=3, 1isize..=3],
            perm::<3>(),
            any::<[bool; 3]>(),
        ),
        (
            [0usize..=2, 0usize..=2, 0usize..=2],
            [1isize..=2, 1isize..=2, 1isize..=2],
            perm::<3>(),
            any::<[bool; 3]>(),
        ),
        prop::sample::select(vec![0u32, 0, 0, 1, 2, 4]),
        prop::sample::select(vec![0u32, 0, 0, 1, 2, 4]),
    )
        .prop_map(|(shape, itemsize, s, d, src_skew, dst_skew)| {
            Case::new(
                operand(shape, s.0, s.1, s.2, s.3, itemsize),
                operand(shape, d.0, d.1, d.2, d.3, itemsize),
                SRC + src_skew,
                DST + dst_skew,
            )
        })
}

/// A fill: a random destination, the source one element (every stride 0).
fn fill_case() -> impl Strategy<Value = Case> {
    (
        [1usize..=E, 1usize..=E, 1usize..=E],
        prop::sample::select(vec![1usize, 2, 4, 8]),
        (
            [0usize..=2, 0usize..=2, 0usize..=2],
            [1isize..=2, 1isize..=2, 1isize..=2],
            perm::<3>(),
            any::<[bool; 3]>(),
        ),
        prop::sample::select(vec![0u32, 0, 2]),
    )
        .prop_map(|(shape, itemsize, d, skew)| {
            let value = Layout::new(shape, [0; 3], itemsize).unwrap();
            Case::new(
                value,
                operand(shape, d.0, d.1, d.2, d.3, itemsize),
                SRC,
                DST + skew,
            )
        })
}

/// Room for any chain of `case`: one descriptor a byte, and the terminator.
fn room(case: &Case) -> usize {
    case.volume() * case.itemsize + 1
}

fn run_edma(case: &Case) -> usize {
    let plan = case.plan();
    let mut out = vec![edma::Descriptor::ZERO; room(case)];
    let n = edma::lower_at(&plan, case.src_addr, case.dst_addr, &mut out, CHAIN).unwrap();
    // The same chain lowered at address 0 (as in a `const` item) and rebased.
    // Aligned buffers give the same chain; others may need narrower beats (`Unaligned`).
    let mut at0 = vec![edma::Descriptor::ZERO; room(case)];
    let n0 = edma::lower_at(&plan, 0, 0, &mut at0, 0).unwrap();
    match edma::rebase(&plan, &mut at0[..n0], case.src_addr, case.dst_addr, CHAIN) {
        Ok(()) if n0 > 0 => {
            // The same chain where the buffers allow the same beats; it may be narrower than
            // a chain lowered at the buffers' own addresses (which can widen a run whose
            // start they align): either way it copies.
            let mut bus = case.bus(image(&at0, n0));
            assert_eq!(emu_edma::run(&mut bus, CHAIN), Ok(n0), "rebased TCDs run");
            case.check(&bus);
        }
        Ok(()) => {}
        Err(DmaError::Unaligned { align }) => {
            assert!(
                !case.src_addr.is_multiple_of(align as u32)
                    || !case.dst_addr.is_multiple_of(align as u32)
            );
        }
        Err(e) => panic!("{e}"),
    }
    let mut bus = case.bus(image(&out, n).into_iter().chain([0; 32]).collect());
    if n == 0 {
        return 0;
    }
    let ran = emu_edma::run(&mut bus, CHAIN).unwrap_or_else(|e| panic!("{e}: {:?}", &out[..n]));
    assert_eq!(ran, n, "TCDs run");
    case.check(&bus);
    n
}

fn run_edma3(case: &Case) -> usize {
    let plan = case.plan();
    let mut out = vec![edma3::Descriptor::NULL; room(case).min(2040)];
    let n = match edma3::lower_at(&plan, case.src_addr, case.dst_addr, &mut out, CHAIN) {
        Ok(n) => n,
        // A chain of more sets than the PaRAM page holds: not this test's subject.
        Err(DmaError::ChainTooLong { .. } | DmaError::ChainPage) => return 0,
        Err(e) => panic!("{e}"),
    };
    let mut at0 = vec![edma3::Descriptor::NULL; n];
    assert_eq!(edma3::lower_at(&plan, 0, 0, &mut at0, 0), Ok(n));
    edma3::rebase(&plan, &mut at0, case.src_addr, case.dst_addr, CHAIN).unwrap();
    assert_eq!(at0[..], out[..n], "rebased");
    let mut bus = case.bus(image(&out, n).into_iter().chain([0; 32]).collect());
    if n == 0 {
        return 0;
    }
    let ran = emu_edma3::run(&mut bus, CHAIN).unwrap_or_else(|e| panic!("{e}: {:?}", &out[..n]));
    assert_eq!(ran, n, "PaRAM sets run");
    case.check(&bus);
    n
}

fn run_gpdma(case: &Case) -> usize {
    let plan = case.plan();
    let mut out = vec![gpdma::Descriptor::ZERO; room(case).min(2047)];
    let n = match gpdma::lower_at(&plan, case.src_addr, case.dst_addr, &mut out, CHAIN) {
        Ok(n) => n,
        // A list of more items than its 64 KiB page holds: not this test's subject.
        Err(DmaError::ChainTooLong { .. } | DmaError::ChainPage) => return 0,
        Err(e) => panic!("{e}"),
    };
    let mut at0 = vec![gpdma::Descriptor::ZERO; room(case).min(2047)];
    if let Ok(n0) = gpdma::lower_at(&plan, 0, 0, &mut at0, 0) {
        match gpdma::rebase(&plan, &mut at0[..n0], case.src_addr, case.dst_addr, CHAIN) {
            Ok(()) if n0 > 0 => {
                let mut bus = case.bus(image(&at0, n0));
                assert_eq!(emu_gpdma::run(&mut bus, CHAIN), Ok(n0), "rebased items run");
                case.check(&bus);
            }
            Ok(()) => {}
            Err(DmaError::Unaligned { .. }) => {}
            Err(e) => panic!("{e}"),
        }
    }
    let mut bus = case.bus(image(&out, n));
    if n == 0 {
        return 0;
    }
    let ran = emu_gpdma::run(&mut bus, CHAIN).unwrap_or_else(|e| panic!("{e}: {:?}", &out[..n]));
    assert_eq!(ran, n, "items run");
    case.check(&bus);
    n
}

/// The PL330 program's length in bytes.
fn run_pl330(case: &Case) -> usize {
    let plan = case.plan();
    let mut code = vec![0u8; room(case) * 48 + 2];
    let n = pl330::lower(&plan, case.src_addr, case.dst_addr, &mut code).unwrap();
    assert_eq!(
        pl330::lower(&plan, case.src_addr, case.dst_addr, &mut code[..n - 1]),
        Err(DmaError::ChainTooLong { needed: n })
    );
    // At address 0 the runs may align differently, so the program may be longer than `n` (four
    // times, for runs of 8 bytes aligned at the buffers and 2 bytes off at 0): the same room.
    let mut at0 = vec![0u8; room(case) * 48 + 2];
    let n0 = pl330::lower(&plan, 0, 0, &mut at0).unwrap();
    match pl330::rebase(&plan, &mut at0[..n0], case.src_addr, case.dst_addr) {
        Ok(()) => {
            let mut bus = case.bus(at0[..n0].to_vec());
            emu_pl330::run(&mut bus, CHAIN).unwrap_or_else(|e| panic!("rebased: {e}"));
            case.check(&bus);
        }
        Err(DmaError::Unaligned { .. }) => {}
        Err(e) => panic!("{e}"),
    }
    let mut bus = case.bus(code[..n].to_vec());
    emu_pl330::run(&mut bus, CHAIN).unwrap_or_else(|e| panic!("{e}: {:02x?}", &code[..n]));
    case.check(&bus);
    n
}

fn run_rp(case: &Case, chip: Chip) -> usize {
    let plan = case.plan();
    let mut out = vec![rp2040::Descriptor::NULL; room(case)];
    let n = match chip {
        Chip::Rp2040 => {
            let n = rp2040::lower(&plan, case.src_addr, case.dst_addr, &mut out).unwrap();
            let mut at0 = vec![rp2040::Descriptor::NULL; room(case)];
            let n0 = rp2040::lower(&plan, 0, 0, &mut at0).unwrap();
            match rp2040::rebase(&plan, &mut at0[..n0], case.src_addr, case.dst_addr) {
                Ok(()) => {
                    let mut bus = case.bus(image(&at0, n0));
                    assert_eq!(emu_rp::run(&mut bus, Chip::Rp2040, 0, CHAIN), Ok(n0 - 1));
                    case.check(&bus);
                }
                Err(DmaError::Unaligned { .. }) => {}
                Err(e) => panic!("{e}"),
            }
            n
        }
        Chip::Rp2350 => {
            let mut o2 = vec![rp2350::Descriptor::NULL; room(case)];
            let n = rp2350::lower(&plan, case.src_addr, case.dst_addr, &mut o2).unwrap();
            let mut at0 = vec![rp2350::Descriptor::NULL; room(case)];
            let n0 = rp2350::lower(&plan, 0, 0, &mut at0).unwrap();
            match rp2350::rebase(&plan, &mut at0[..n0], case.src_addr, case.dst_addr) {
                Ok(()) => {
                    let mut bus = case.bus(image(&at0, n0));
                    assert_eq!(emu_rp::run(&mut bus, Chip::Rp2350, 0, CHAIN), Ok(n0 - 1));
                    case.check(&bus);
                }
                Err(DmaError::Unaligned { .. }) => {}
                Err(e) => panic!("{e}"),
            }
            let mut bus = case.bus(image(&o2, n));
            let ran = emu_rp::run(&mut bus, chip, 0, CHAIN)
                .unwrap_or_else(|e| panic!("{e}: {:?}", &o2[..n]));
            assert_eq!(ran + 1, n, "blocks run (and the null block)");
            case.check(&bus);
            return n;
        }
    };
    let mut bus = case.bus(image(&out, n));
    let ran =
        emu_rp::run(&mut bus, chip, 0, CHAIN).unwrap_or_else(|e| panic!("{e}: {:?}", &out[..n]));
    assert_eq!(ran + 1, n, "blocks run (and the null block)");
    case.check(&bus);
    n
}

/// 400 cases a property; under Miri (which runs the emulators' and the image's code) 4, with
/// no failure file (Miri isolates the file system).
fn config() -> ProptestConfig {
    let mut c = ProptestConfig {
        cases: if cfg!(miri) {
            4
        } else {
            crate::common::cases(400)
        },
        ..ProptestConfig::default()
    };
    if cfg!(miri) {
        c.failure_persistence = None;
    }
    c
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn edma_chains_copy(case in case()) {
        run_edma(&case);
    }

    #[test]
    fn edma3_chains_copy(case in case()) {
        run_edma3(&case);
    }

    #[test]
    fn gpdma_chains_copy(case in case()) {
        run_gpdma(&case);
    }

    #[test]
    fn pl330_programs_copy(case in case()) {
        run_pl330(&case);
    }

    #[test]
    fn rp2040_chains_copy(case in case()) {
        run_rp(&case, Chip::Rp2040);
    }

    #[test]
    fn rp2350_chains_copy(case in case()) {
        run_rp(&case, Chip::Rp2350);
    }

    /// Fills: a copy from a one-element source (every stride 0), the value's address as the
    /// source address, on every engine.
    #[test]
    fn fills(case in fill_case()) {
        run_edma(&case);
        run_edma3(&case);
        run_gpdma(&case);
        run_pl330(&case);
        run_rp(&case, Chip::Rp2040);
        run_rp(&case, Chip::Rp2350);
    }

    /// Rank 4, and planar into interleaved, on every engine.
    #[test]
    fn rank4_and_interleaved_chains_copy(case in case4()) {
        run_edma(&case);
        run_edma3(&case);
        run_gpdma(&case);
        run_pl330(&case);
        run_rp(&case, Chip::Rp2040);
        run_rp(&case, Chip::Rp2350);
    }
}

/// A rank-4 case found by the property above: the inner runs flip in both operands and merge
/// into runs of four 2-byte elements that start 16-byte aligned at the test's addresses and 2
/// bytes off at address 0, so the PL330 program lowered at 0 for rebasing (144 bytes) is four
/// times the one lowered at the buffers (36 bytes). Every engine copies it.
#[test]
fn runs_aligned_only_at_the_buffers_copy_on_every_engine() {
    let src = Layout::from_parts([1, 4, 4, 5], [288, 72, -1, -12], 58, 2).unwrap();
    let dst = Layout::from_parts([1, 4, 4, 5], [80, 20, -1, 4], 3, 2).unwrap();
    let case = Case::new(src, dst, SRC + 2, DST);
    run_edma(&case);
    run_edma3(&case);
    run_gpdma(&case);
    assert_eq!(run_pl330(&case), 36);
    let mut code = [0u8; 256];
    assert_eq!(pl330::lower(&case.plan(), 0, 0, &mut code), Ok(144));
    run_rp(&case, Chip::Rp2040);
    run_rp(&case, Chip::Rp2350);
}

#[test]
fn descriptor_images() {
    assert_eq!(
        (
            size_of::<edma::Descriptor>(),
            align_of::<edma::Descriptor>()
        ),
        (32, 32)
    );
    assert_eq!(size_of::<edma3::Descriptor>(), 32);
    assert_eq!(size_of::<rp2040::Descriptor>(), 16);
    assert_eq!(size_of::<gpdma::Descriptor>(), 32);
    assert_eq!(size_of::<rp2350::Descriptor>(), 16);
    // Field offsets as the manuals give them.
    let t = edma::Descriptor {
        saddr: 0x1111_1111,
        soff: 0x2222,
        attr: 0x3333,
        nbytes: 0x4444_4444,
        slast: 0x5555_5555,
        daddr: 0x6666_6666,
        doff: 0x7777,
        citer: 0x0888,
        dlast_sga: 0x9999_9999,
        csr: 0x0AAA,
        biter: 0x0BBB,
    };
    let b = image(&[t], 1);
    let at = |o: usize| u32::from_le_bytes(b[o..o + 4].try_into().unwrap());
    assert_eq!(
        [
            at(0x00),
            at(0x04),
            at(0x08),
            at(0x0C),
            at(0x10),
            at(0x14),
            at(0x18),
            at(0x1C)
        ],
        [
            0x1111_1111,
            0x3333_2222,
            0x4444_4444,
            0x5555_5555,
            0x6666_6666,
            0x0888_7777,
            0x9999_9999,
            0x0BBB_0AAA
        ]
    );
    let p = edma3::Descriptor {
        opt: 1,
        src: 2,
        acnt: 3,
        bcnt: 4,
        dst: 5,
        src_bidx: 6,
        dst_bidx: 7,
        link: 8,
        bcntrld: 9,
        src_cidx: 10,
        dst_cidx: 11,
        ccnt: 12,
        reserved: 0,
    };
    let b = image(&[p], 1);
    let at = |o: usize| u32::from_le_bytes(b[o..o + 4].try_into().unwrap());
    assert_eq!(
        (0..8).map(|w| at(4 * w)).collect::<Vec<_>>(),
        [
            1,
            2,
            4 << 16 | 3,
            5,
            7 << 16 | 6,
            9 << 16 | 8,
            11 << 16 | 10,
            12
        ]
    );
}

/// The lowering's counts on copies whose fewest descriptors are known.
#[test]
#[cfg_attr(
    miri,
    ignore = "large copies: minutes under Miri; the properties cover the same code"
)]
fn fewest_descriptors() {
    let case = |src: Layout<3>, dst: Layout<3>| Case::new(src, dst, SRC, DST);
    let c = |shape: [usize; 3], g| Layout::dense(shape, g, Order::C).unwrap();
    // A dense copy: one descriptor (and the RP null block).
    let dense = case(c([4, 8, 16], 4), c([4, 8, 16], 4));
    assert_eq!(
        (
            run_edma(&dense),
            run_edma3(&dense),
            run_rp(&dense, Chip::Rp2040)
        ),
        (1, 1, 2)
    );
    assert_eq!(run_gpdma(&dense), 1);
    // A dense 64 KiB: past `BNDT`, so blocks of 16 KiB (one item).
    let big = case(c([16, 64, 16], 4), c([16, 64, 16], 4));
    assert_eq!(run_gpdma(&big), 1);
    // PL330: one block of 16-beat bursts in a loop of 32 (`CCR`, `SAR`, `DAR`, `DMALP`,
    // `DMALD`, `DMAST`, `DMALPEND`), then `DMAWMB`, `DMAEND`: 26 bytes.
    assert_eq!(run_pl330(&dense), 26);
    // A 2-D transpose with small strides: one TCD (minor loop down a column, major loop across
    // with a minor-loop offset), one PaRAM set; on the RP2040 one block per element.
    let t = case(
        c([1, 16, 24], 2),
        c([1, 24, 16], 2).permuted([0, 2, 1]).unwrap(),
    );
    assert_eq!(
        (run_edma(&t), run_edma3(&t), run_rp(&t, Chip::Rp2040)),
        (1, 1, 16 * 24 + 1)
    );
    assert_eq!(run_gpdma(&t), 1);
    // PL330: one block of two loops of single beats with their adds (fewer than 48 bytes).
    assert!(run_pl330(&t) < 48);
    // CHW -> HWC: the pixels merge into one loop; one TCD (minor loop over the pixels, major
    // loop over the channels with a destination minor-loop offset), one PaRAM set.
    let hwc = case(
        c([3, 8, 8], 1),
        c([8, 8, 3], 1).permuted([2, 0, 1]).unwrap(),
    );
    assert_eq!((run_edma(&hwc), run_edma3(&hwc)), (1, 1));
    // Three loops that do not merge: two counters each (EDMA3's `ACNT` holds one element, no
    // loop being contiguous in both), the shortest loop left to the chain.
    let perm = case(
        c([4, 8, 16], 4),
        c([16, 8, 4], 4).permuted([2, 1, 0]).unwrap(),
    );
    // (The GPDMA's bursts need runs of consecutive beats on a side that jumps between them.)
    assert_eq!(
        (run_edma(&perm), run_edma3(&perm), run_gpdma(&perm)),
        (4, 4, 4)
    );
    // The GPDMA's three counters: a crop's rows as bursts of consecutive beats with a source
    // gap after each, the planes as blocks: one item.
    let crop = case(
        Layout::new([3, 12, 16], [2048, 64, 1], 2).unwrap(),
        c([3, 12, 16], 2),
    );
    assert_eq!(
        (run_gpdma(&crop), run_edma(&crop), run_edma3(&crop)),
        (1, 3, 1)
    );
    // The engine's loop order, not the plan's: rows 40,000 bytes apart cannot be an EDMA3
    // index, so the set runs the other two loops whatever order the plan chose.
    let far = case(
        Layout::new([4, 3, 100], [10_000, 100, 1], 4).unwrap(),
        c([4, 3, 100], 4),
    );
    assert_eq!(run_edma3(&far), 4);
    // RP2350 steps backwards and by two: a reversed stereo channel is one block.
    let right = Layout::dense([1, 64, 2], 2, Order::C)
        .unwrap()
        .narrowed(2, 1, 1)
        .unwrap();
    let rev = case(right, c([1, 64, 1], 2).flipped(1).unwrap());
    assert_eq!(
        (run_rp(&rev, Chip::Rp2350), run_rp(&rev, Chip::Rp2040)),
        (2, 65)
    );
    // The engine turns a loop its counter takes only the other way round: the right channel
    // read backwards (the source steps -2, which the RP2350 cannot) into a forward buffer is
    // the same block run from its other end (the source +2, the destination -1).
    let back = Layout::dense([1, 64, 2], 2, Order::C)
        .unwrap()
        .narrowed(2, 1, 1)
        .unwrap()
        .flipped(1)
        .unwrap();
    let turned = case(back, c([1, 64, 1], 2));
    assert_eq!(
        (run_rp(&turned, Chip::Rp2350), run_rp(&turned, Chip::Rp2040)),
        (2, 65)
    );
    // Unaligned buffers: narrower beats, the same chain lengths.
    let skew = Case {
        src_addr: SRC + 2,
        ..dense.clone()
    };
    assert_eq!(
        (
            run_edma(&skew),
            run_edma3(&skew),
            run_rp(&skew, Chip::Rp2040)
        ),
        (1, 1, 2)
    );
}

/// Interleaved operands (a plan of several nests): planar channels into blocks of 8 lanes,
/// 20 channels (a partial last block), each engine's chain against the model.
#[test]
#[cfg_attr(
    miri,
    ignore = "large copies: minutes under Miri; the properties cover the same code"
)]
fn interleaved_operands() {
    use strided_layout::{InterleaveLayout, InterleavedLayout};
    let planar = Layout::dense([20, 6], 2, Order::C).unwrap();
    let blocked =
        InterleavedLayout::dense([20, 6], 2, InterleaveLayout::new(0, 8).unwrap()).unwrap();
    let plan = CopyPlan::of(&planar, &blocked).unwrap();
    let src: Vec<u8> = (0..240).map(|i| (i * 5 + 3) as u8).collect();
    lowers_on_every_engine(&plan, &src);
    // Several nests: the full blocks and the partial one.
    assert!(plan.plan().nests().len() > 1);
}

/// A plan made with room for more nests than `CopyPlan::new`'s four (blocks of 2 against
/// blocks of 3 on an axis of 13: six pieces) lowers on every engine, each chain against the
/// CPU copy.
#[test]
fn plans_of_more_nests_lower_on_every_engine() {
    use strided_layout::{InterleaveLayout, InterleavedLayout, LayoutError};
    let il = |f| InterleavedLayout::dense([13, 5], 2, InterleaveLayout::new(0, f).unwrap()).unwrap();
    let (from, to) = (il(2), il(3));
    assert_eq!(CopyPlan::of(&from, &to), Err(LayoutError::InterleaveConflict));
    let plan = CopyPlan::<8>::with_nests(&from, &to).unwrap();
    assert_eq!(plan.plan().nests().len(), 6);
    let src: Vec<u8> = (0..plan.src_len() * 2).map(|i| (i * 5 + 3) as u8).collect();
    lowers_on_every_engine(&plan, &src);
}

/// Lowers `plan` (2-byte elements) on every engine, runs each chain on the emulated bus
/// with `src` at [`SRC`], and checks the destination against the CPU copy.
fn lowers_on_every_engine<const M: usize>(plan: &CopyPlan<M>, src: &[u8]) {
    let dst_len = plan.dst_len() * 2;
    let src16: Vec<u16> = src.chunks(2).map(|c| u16::from_le_bytes([c[0], c[1]])).collect();
    let mut want = vec![0u16; plan.dst_len()];
    plan.run(&src16, &mut want).unwrap();
    let want: Vec<u8> = want.iter().flat_map(|v| v.to_le_bytes()).collect();
    let plan = *plan;
    let src = src.to_vec();
    let bus = |chain: Vec<u8>| {
        let mut bus = Bus::new();
        bus.add(SRC, src.clone());
        bus.add(DST, vec![0; dst_len]);
        bus.add(CHAIN, chain);
        bus
    };
    let mut tcds = vec![edma::Descriptor::ZERO; 256];
    let n = edma::lower_at(&plan, SRC, DST, &mut tcds, CHAIN).unwrap();
    let mut b = bus(image(&tcds, n));
    assert_eq!(emu_edma::run(&mut b, CHAIN), Ok(n));
    assert_eq!(b.region(DST), &want[..]);
    let mut items = vec![gpdma::Descriptor::ZERO; 256];
    let n = gpdma::lower_at(&plan, SRC, DST, &mut items, CHAIN).unwrap();
    let mut b = bus(image(&items, n));
    assert_eq!(emu_gpdma::run(&mut b, CHAIN), Ok(n));
    assert_eq!(b.region(DST), &want[..]);
    let mut code = vec![0u8; 4096];
    let n = pl330::lower(&plan, SRC, DST, &mut code).unwrap();
    let mut b = bus(code[..n].to_vec());
    emu_pl330::run(&mut b, CHAIN).unwrap();
    assert_eq!(b.region(DST), &want[..]);
    let mut sets = vec![edma3::Descriptor::NULL; 256];
    let n = edma3::lower_at(&plan, SRC, DST, &mut sets, CHAIN).unwrap();
    let mut b = bus(image(&sets, n));
    assert_eq!(emu_edma3::run(&mut b, CHAIN), Ok(n));
    assert_eq!(b.region(DST), &want[..]);
    let mut blocks = vec![rp2350::Descriptor::NULL; 256];
    let n = rp2350::lower(&plan, SRC, DST, &mut blocks).unwrap();
    let mut b = bus(image(&blocks, n));
    assert_eq!(emu_rp::run(&mut b, Chip::Rp2350, 0, CHAIN), Ok(n - 1));
    assert_eq!(b.region(DST), &want[..]);
}

/// Every refusal, and the destination untouched by each.
#[test]
fn refusals() -> Result<(), LayoutError> {
    let l = Layout::dense([4, 8], 4, Order::C)?;
    let plan = CopyPlan::new(&l, &l)?;
    let mut tcds = [edma::Descriptor::ZERO; 2];
    // Element sizes that differ (a `run_map` plan).
    let widen = CopyPlan::new(
        &Layout::dense([4], 1, Order::C)?,
        &Layout::dense([4], 4, Order::C)?,
    )?;
    assert_eq!(
        edma::lower_at(&widen, 0, 0, &mut tcds, CHAIN),
        Err(DmaError::ItemsizeMismatch { src: 1, dst: 4 })
    );
    // Buffers past the 32-bit bus.
    assert_eq!(
        edma::lower_at(&plan, u32::MAX - 64, 0, &mut tcds, CHAIN),
        Err(DmaError::Address)
    );
    assert_eq!(
        edma::lower_at(&plan, 0, u32::MAX - 126, &mut tcds, CHAIN),
        Err(DmaError::Address)
    );
    assert_eq!(
        edma::lower_at(&plan, 0, u32::MAX - 127, &mut tcds, CHAIN),
        Ok(1)
    ); // the last byte at 2^32 - 1
    // A chain past the bus, misaligned, across a page; too short a slice.
    assert_eq!(
        edma::lower_at(&plan, 0, 0x1000, &mut tcds, 0xFFFF_FFE0),
        Ok(1)
    );
    let perm = CopyPlan::new(
        &Layout::dense([4, 8, 16], 4, Order::C)?,
        &Layout::dense([16, 8, 4], 4, Order::C)?.permuted([2, 1, 0])?,
    )?;
    let mut four = [edma::Descriptor::ZERO; 4];
    assert_eq!(
        edma::lower_at(&perm, 0, 0x1000, &mut four, 0x2000_0000),
        Ok(4)
    );
    assert_eq!(
        edma::lower_at(&perm, 0, 0x1000, &mut four, 0xFFFF_FFC0),
        Err(DmaError::Address)
    );
    let gather = CopyPlan::new(
        &Layout::new([3, 4], [100, 2], 4)?,
        &Layout::dense([3, 4], 4, Order::C)?,
    )?;
    let mut many = [edma3::Descriptor::NULL; 8];
    assert_eq!(
        edma3::lower_at(&gather, 0, 0x1_0000, &mut many, 0x0270_4008),
        Err(DmaError::ChainAlignment { align: 32 })
    );
    let rows = CopyPlan::new(
        &Layout::new([3, 4], [40_000, 1], 4)?,
        &Layout::dense([3, 4], 4, Order::C)?,
    )?;
    assert_eq!(
        edma3::lower_at(&rows, 0, 0x1_0000, &mut many, 0x0270_FFE0),
        Err(DmaError::ChainPage)
    );
    assert_eq!(many, [edma3::Descriptor::NULL; 8], "untouched");
    let mut one = [edma3::Descriptor::NULL; 2];
    assert_eq!(
        edma3::lower_at(&rows, 0, 0x1_0000, &mut one, CHAIN),
        Err(DmaError::ChainTooLong { needed: 3 })
    );
    assert_eq!(one, [edma3::Descriptor::NULL; 2], "untouched");
    let mut blocks = [rp2040::Descriptor::NULL; 3];
    assert_eq!(
        rp2040::lower(&rows, 0, 0x1_0000, &mut blocks),
        Err(DmaError::ChainTooLong { needed: 4 })
    );
    assert_eq!(
        rp2040::lower_chained(&plan, 0, 0x1000, &mut blocks, 12),
        Err(DmaError::Channel { channels: 12 })
    );
    assert_eq!(
        rp2350::lower_chained(&plan, 0, 0x1000, &mut [rp2350::Descriptor::NULL; 2], 16),
        Err(DmaError::Channel { channels: 16 })
    );
    assert_eq!(blocks, [rp2040::Descriptor::NULL; 3], "untouched");
    let mut code = [0u8; 4];
    assert_eq!(
        pl330::lower(&widen, 0, 0, &mut code),
        Err(DmaError::ItemsizeMismatch { src: 1, dst: 4 })
    );
    assert_eq!(
        pl330::lower(&plan, 0, 0, &mut code),
        Err(DmaError::ChainTooLong { needed: 26 })
    );
    assert_eq!(code, [0; 4], "untouched");
    // GPDMA items: 4-byte aligned, one 64 KiB page (`LA` holds 16 bits).
    let mut items = [gpdma::Descriptor::ZERO; 8];
    assert_eq!(
        gpdma::lower_at(&rows, 0, 0x1_0000, &mut items, 0x2003_0002),
        Err(DmaError::ChainAlignment { align: 4 })
    );
    assert_eq!(
        gpdma::lower_at(&rows, 0, 0x1_0000, &mut items, 0x2003_FFE0),
        Err(DmaError::ChainPage)
    );
    assert_eq!(
        gpdma::lower_at(&rows, 0, 0x1_0000, &mut items, 0x2003_FF80),
        Ok(3)
    );
    // Messages name the rule.
    assert_eq!(
        DmaError::ItemsizeMismatch { src: 1, dst: 4 }.to_string(),
        "a DMA copy needs source and destination elements of one size (source 1 B, destination 4 B)"
    );
    assert_eq!(
        DmaError::Channel { channels: 12 }.to_string(),
        "the engine has no such channel (channels 0..12)"
    );
    // An empty copy needs no descriptor (the RP list is its null block alone).
    let empty = Layout::dense([0, 4], 4, Order::C)?;
    let none = CopyPlan::new(&empty, &empty)?;
    assert_eq!(edma::lower_at(&none, 0, 0x1000, &mut tcds, CHAIN), Ok(0));
    assert_eq!(rp2040::lower(&none, 0, 0x1000, &mut blocks), Ok(1));
    Ok(())
}
