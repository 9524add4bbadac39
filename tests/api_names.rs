//! Calls every name that external conformance tests call, with its exact signature, so a
//! rename or a changed parameter type breaks this file before it breaks a conformance test.
//! This file is the record of those names: the first test lists the fixed ones, the second the
//! ones added since (changing either is a deliberate API change).

use strided_layout::{AxisMask, DynLayout, Layout, LayoutError, Order, Slice};

#[test]
fn construction_names() -> Result<(), LayoutError> {
    let a: Result<Layout<2>, LayoutError> = Layout::<2>::new([2, 3], [3, 1], 4);
    let a = a?;
    let b: Layout<2> = a.with_offset(5)?;
    let c: Layout<2> = Layout::<2>::from_byte_strides([2, 3], [12, 4], 4)?;
    let d: Layout<2> = Layout::<2>::dense([2, 3], 4, Order::C)?;
    let _ = Layout::<2>::dense([2, 3], 4, Order::F)?;
    let _ = Layout::<2>::dense([2, 3], 4, Order::Perm([1, 0]))?;
    let e: Layout<2> = Layout::<2>::dense_like(&b, Order::Keep)?;
    let f: Layout<2> = b.to_dense(Order::Keep)?;
    assert_eq!((c, d, e, f), (a, a, a, a));
    Ok(())
}

#[test]
fn accessor_and_query_names() -> Result<(), LayoutError> {
    let l = Layout::<3>::new([2, 3, 4], [12, 4, 1], 4)?.with_offset(1)?;
    let _: [usize; 3] = l.shape();
    let _: [isize; 3] = l.strides();
    let _: usize = l.itemsize();
    let _: isize = l.offset();
    let _: isize = l.offset_in_bytes();
    let _: [isize; 3] = l.strides_in_bytes();
    let _: usize = l.ndim();
    let _: usize = l.volume();
    let _: [bool; 5] = [
        l.is_contiguous_c(),
        l.is_contiguous_f(),
        l.is_contiguous_any(),
        l.is_dense(),
        l.is_unique(),
    ];
    let _: Option<(isize, isize)> = l.offset_bounds();
    let _: Result<usize, LayoutError> = l.required_size_in_bytes();
    let _: [usize; 3] = l.stride_order();
    let m: AxisMask = l.flattened_axis_mask();
    let m2: AxisMask = AxisMask::from_bits(0b110) & m;
    let _: u64 = m2.bits();
    let _: Result<usize, LayoutError> = l.max_compatible_itemsize(16, 0, -1);
    let _: Result<isize, LayoutError> = l.offset_of([1, 2, 3]);
    Ok(())
}

#[test]
fn same_rank_transform_names() -> Result<(), LayoutError> {
    let l = Layout::<3>::dense([2, 3, 4], 4, Order::C)?;
    let _: Layout<3> = l.permuted([2, 0, 1])?;
    let _: Layout<3> = l.transposed(0, 2)?;
    let _: Layout<3> = l.flipped(1)?;
    let _: Layout<3> = l.narrowed(2, 1, 2)?;
    let s: Slice = Slice::new(Some(1), None, -1);
    let _: Layout<3> = l.sliced([
        s,
        Slice::new(None, None, 1),
        Slice::new(Some(-2), Some(-1), 1),
    ])?;
    let _: Layout<3> = l.repacked(2, 0, -1)?;
    Ok(())
}

#[test]
fn rank_change_names() -> Result<(), LayoutError> {
    let l = Layout::<3>::dense([2, 1, 4], 4, Order::C)?;
    let _: Layout<4> = l.broadcast_to::<4>([5, 2, 3, 4])?;
    let _: Layout<4> = l.unsqueezed::<4>(3)?;
    let _: Layout<2> = l.selected::<2>(0, 1)?;
    let _: Layout<2> = l.reshaped::<2>([-1, 4])?;
    let sq: DynLayout<3> = l.squeezed();
    let fl: DynLayout<3> = l.flattened();
    let _: Result<DynLayout<3>, LayoutError> = l.flattened_range(0, 2);
    let _: Result<DynLayout<3>, LayoutError> = l.flattened_with_mask(AxisMask::from_bits(0b10));
    let _: usize = sq.rank();
    let _: &[usize] = sq.shape();
    let _: &[isize] = sq.strides();
    let _: usize = sq.itemsize();
    let _: isize = sq.offset();
    let _: Layout<1> = fl.to_layout::<1>()?;
    Ok(())
}

#[test]
fn error_names() {
    let e = LayoutError::NotAPermutation;
    let _: &'static str = e.as_str();
    let _: &dyn core::error::Error = &e;
    let _ = std::format!("{e}");
}

// Names added later (the user surface: byte helpers, range flattening, `DynLayout`'s
// transforms); not called by the conformance tests, listed so a rename is a deliberate change.
#[test]
fn surface_names() -> Result<(), LayoutError> {
    use strided_layout::index::{ArgCount, AxisArg, AxisArgs, IntoAxisArg};
    use strided_layout::s;
    let l = Layout::<2>::dense([2, 3], 4, Order::C)?;
    let _: isize = l.offset_of_in_bytes([1, 2])?;
    let _: Option<(isize, isize)> = l.byte_span();
    let _: bool = l.fits_in_bytes::<i32>();
    let _: bool = l.is_empty();
    let _: usize = l.normalized_axis(-1)?;
    let _: Layout<1> = l.indexed::<1, (isize, (core::ops::RangeFull, ()))>((1, (.., ())))?;
    let _: Layout<1> = s![l; 1, ..]?;
    let _: AxisArg = 1isize.into_axis_arg();
    let _: usize = <(isize, ()) as AxisArgs>::LEN;
    let _: ArgCount<1, 0> = <(isize, ()) as AxisArgs>::Count::default();
    let _: Slice = Slice::from(1..2);
    let _: Slice = Slice::from(1..);
    let _: Slice = Slice::from(..2);
    let _: Slice = Slice::from(..);
    let _: Slice = Slice::from(1..=2);
    let _: Slice = Slice::from(..=2);
    let _: Slice = Slice::stepped(.., -1);
    let d: DynLayout<4> = l.into();
    let _: usize = d.ndim();
    let _: DynLayout<4> = d.permuted(&[1, 0])?;
    let _: DynLayout<4> = d.transposed(0, 1)?;
    let _: DynLayout<4> = d.flipped(0)?;
    let _: DynLayout<4> = d.narrowed(1, 0, 2)?;
    let _: DynLayout<4> = d.sliced(&[Slice::FULL, Slice::from(1..)])?;
    let _: DynLayout<4> = d.with_offset(1)?;
    let _: bool = d.overlaps(&d);
    let _: isize = d.offset_in_bytes();
    let _: heapless::Vec<isize, 4> = d.strides_in_bytes();
    let _: isize = d.offset_of_in_bytes(&[1, 2])?;
    let _: Option<(isize, isize)> = d.byte_span();
    let _: bool = d.fits_in::<i32>();
    let _: bool = d.fits_in_bytes::<i32>();
    let _: bool = d.is_empty();
    let _: usize = d.normalized_axis(-1)?;
    Ok(())
}

#[test]
fn iteration_names() -> Result<(), LayoutError> {
    let l = Layout::<2>::dense([2, 3], 4, Order::C)?;
    let blocks: strided_layout::iter::StridedBlocks<2> = l.strided_blocks();
    for strided_layout::iter::Block { start, len } in blocks {
        let _: (isize, usize) = (start, len);
    }
    Ok(())
}

#[test]
fn interleave_names() -> Result<(), LayoutError> {
    use strided_layout::{InterleaveLayout, InterleavedLayout};
    let il: InterleaveLayout = InterleaveLayout::new(0, 4)?;
    let a: InterleavedLayout<2> = InterleavedLayout::<2>::new([8, 3], [12, 4], 4, il)?;
    let d: InterleavedLayout<2> = InterleavedLayout::<2>::dense([8, 3], 4, il)?;
    let _: Result<isize, LayoutError> = a.offset_of([1, 2]);
    let _: Option<(isize, isize)> = a.offset_bounds();
    let _: Result<usize, LayoutError> = a.required_size_in_bytes();
    let s: Layout<3> = d.to_strided::<3>()?;
    let _: InterleavedLayout<2> = InterleavedLayout::<2>::from_strided::<3>(&s, 0)?;
    let _: ([usize; 2], [isize; 2], usize, isize, usize) =
        (a.shape(), a.strides(), a.itemsize(), a.offset(), a.volume());
    let _: InterleaveLayout = a.interleave();
    Ok(())
}

#[test]
fn kernel_names() -> Result<(), LayoutError> {
    let src_layout: Layout<2> = Layout::<2>::dense([2, 3], 4, Order::C)?;
    let dst_layout: Layout<2> = Layout::<2>::dense([2, 3], 4, Order::F)?;
    let src = [1.0f32; 6];
    let mut dst = [0.0f32; 6];
    let r: Result<(), LayoutError> = strided_layout::copy(&src, &src_layout, &mut dst, &dst_layout);
    r?;
    let r: Result<(), LayoutError> = strided_layout::fill(&mut dst, &dst_layout, 2.0f32);
    r?;
    Ok(())
}

/// The nested layouts' names (`NestedLayout<L>`: text both ways, CuTe's queries, the two
/// coordinate forms, the conversions). `onednn` is not there yet.
#[test]
fn nested_names() -> Result<(), Box<dyn std::error::Error>> {
    use strided_layout::nested::{NestedError, NestedLayout};
    use strided_layout::{InterleaveLayout, InterleavedLayout};
    let a: NestedLayout<4> = "((4,3),4):((1,4),12)".parse()?;
    let _: Result<NestedLayout<4>, NestedError> = "((4,3),4):((1,4),12)".parse::<NestedLayout<4>>();
    let _: String = a.to_string();
    let (_, _, _, _): (usize, usize, usize, usize) = (a.size(), a.cosize(), a.rank(), a.depth());
    let _: Result<isize, NestedError> = a.offset_of_linear(5);
    let _: Result<isize, NestedError> = a.offset_of(&[5, 1]);
    let l = Layout::<2>::new([2, 3], [3, 1], 4)?;
    let _: Result<NestedLayout<4>, NestedError> = NestedLayout::<4>::from_layout(&l);
    let il = InterleavedLayout::<2>::dense([10, 3], 4, InterleaveLayout::new(0, 4)?)?;
    let _: Result<NestedLayout<4>, NestedError> = NestedLayout::<4>::from_interleaved(&il);
    Ok(())
}

/// The layout algebra's names, CuTe's, each `-> Result<NestedLayout<L>, _>`.
#[test]
fn algebra_names() -> Result<(), Box<dyn std::error::Error>> {
    use strided_layout::algebra;
    use strided_layout::nested::NestedLayout;
    let a: NestedLayout<8> = "(8,8):(1,8)".parse()?;
    let b: NestedLayout<8> = "(2,4):(1,8)".parse()?;
    let _: NestedLayout<8> = algebra::coalesce(&a)?;
    let _: NestedLayout<8> = algebra::composition(&a, &b)?;
    let _: NestedLayout<8> = algebra::complement(&b, 64usize)?;
    let _: NestedLayout<8> = algebra::right_inverse(&a)?;
    let _: NestedLayout<8> = algebra::left_inverse(&a)?;
    let _: NestedLayout<8> = algebra::logical_divide(&a, &b)?;
    let _: NestedLayout<8> = algebra::zipped_divide(&a, &b)?;
    let _: NestedLayout<8> = algebra::logical_product(&b, &a)?;
    let _: NestedLayout<8> = algebra::blocked_product(&b, &a)?;
    let _: NestedLayout<8> = algebra::raked_product(&b, &a)?;
    Ok(())
}

/// The DMA engines' names: each module's `Descriptor` and `lower(plan, src_addr, dst_addr,
/// out) -> Result<usize, _>`, the element size from the plan.
#[test]
fn dma_names() -> Result<(), Box<dyn std::error::Error>> {
    use strided_layout::dma::{DmaError, edma, edma3, gpdma, pl330, rp2040, rp2350};
    let l = Layout::<1>::new([4], [1], 4)?;
    let plan = strided_layout::CopyPlan::new(&l, &l)?;
    let _: usize = plan.src_itemsize();
    let mut tcds = [edma::Descriptor::ZERO; 2];
    let _: Result<usize, DmaError> = edma::lower(&plan, 0x2000_0000, 0x2000_1000, &mut tcds);
    let mut sets = [edma3::Descriptor::NULL; 2];
    let _: Result<usize, DmaError> = edma3::lower(&plan, 0x2000_0000, 0x2000_1000, &mut sets);
    let mut items = [gpdma::Descriptor::ZERO; 2];
    let _: Result<usize, DmaError> = gpdma::lower(&plan, 0x2000_0000, 0x2000_1000, &mut items);
    let mut code: [pl330::Descriptor; 64] = [0; 64];
    let _: Result<usize, DmaError> = pl330::lower(&plan, 0x2000_0000, 0x2000_1000, &mut code);
    let mut blocks = [rp2040::Descriptor::NULL; 2];
    let _: Result<usize, DmaError> = rp2040::lower(&plan, 0x2000_0000, 0x2000_1000, &mut blocks);
    let mut blocks = [rp2350::Descriptor::NULL; 2];
    let _: Result<usize, DmaError> = rp2350::lower(&plan, 0x2000_0000, 0x2000_1000, &mut blocks);
    Ok(())
}
