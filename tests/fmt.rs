//! Display and offset grids: exact expected strings (snapshots) and every grid error.

use strided_layout::{Layout, LayoutError, Order, Slice};

fn c<const N: usize>(shape: [usize; N]) -> Layout<N> {
    Layout::dense(shape, 4, Order::C).unwrap()
}

#[test]
fn grid_2d_of_c_and_f_layouts() {
    // One width for every column: the widest offset in the grid.
    assert_eq!(c([2, 3]).grid_2d().to_string(), "0 1 2\n3 4 5");
    let f = Layout::dense([3, 4], 1, Order::F).unwrap();
    assert_eq!(
        f.grid_2d().to_string(),
        " 0  3  6  9\n 1  4  7 10\n 2  5  8 11"
    );
}

#[test]
fn grid_right_aligns_negative_offsets() {
    let l = Layout::new([2, 3], [-3, 5], 2).unwrap();
    assert_eq!(l.grid_2d().to_string(), " 0  5 10\n-3  2  7");
}

#[test]
fn grid_of_a_flipped_sliced_layout() {
    let l = c([3, 4])
        .sliced([Slice::new(Some(1), None, 1), Slice::new(None, None, -2)])
        .unwrap();
    assert_eq!(l.to_string(), "(2,2):(4,-2) +7 x4B");
    assert_eq!(l.grid_2d().to_string(), " 7  5\n11  9");
}

#[test]
fn grid_of_a_3d_section() {
    let l = c([2, 3, 4]);
    assert_eq!(
        l.grid(1, 2, [1, 0, 0]).unwrap().to_string(),
        "12 13 14 15\n16 17 18 19\n20 21 22 23"
    );
    // Rows and columns can run in either order; `at` picks index 2 on axis 1.
    assert_eq!(
        l.grid(2, 0, [0, 2, 0]).unwrap().to_string(),
        " 8 20\n 9 21\n10 22\n11 23"
    );
}

#[test]
fn grid_1d_is_one_row() {
    let l = Layout::new([4], [-3], 1).unwrap().with_offset(9).unwrap();
    assert_eq!(l.grid_1d().to_string(), "9 6 3 0");
}

#[test]
fn grid_of_broadcast_layout_repeats_offsets() {
    let l = Layout::new([2, 3], [0, 1], 1).unwrap();
    assert_eq!(l.grid_2d().to_string(), "0 1 2\n0 1 2");
}

#[test]
fn grid_with_an_empty_axis_prints_nothing() {
    assert_eq!(c([0, 3]).grid_2d().to_string(), "");
    assert_eq!(c([3, 0]).grid_2d().to_string(), "");
    assert_eq!(c([0, 3]).grid_2d().to_text::<0>().unwrap().as_str(), "");
}

#[test]
fn grid_rejects_axes_out_of_range() {
    let l = c([2, 3, 4]);
    assert_eq!(
        l.grid(3, 0, [0; 3]),
        Err(LayoutError::AxisOutOfRange { axis: 3, ndim: 3 })
    );
    assert_eq!(
        l.grid(0, 5, [0; 3]),
        Err(LayoutError::AxisOutOfRange { axis: 5, ndim: 3 })
    );
    assert_eq!(
        c([7]).grid(0, 0, [0]),
        Err(LayoutError::DuplicateAxis { axis: 0 })
    );
}

#[test]
fn grid_rejects_duplicate_axis() {
    assert_eq!(
        c([2, 3, 4]).grid(1, 1, [0; 3]),
        Err(LayoutError::DuplicateAxis { axis: 1 })
    );
}

#[test]
fn grid_rejects_index_out_of_range_off_the_section() {
    let l = c([2, 3, 4]);
    assert_eq!(
        l.grid(0, 1, [0, 0, 4]),
        Err(LayoutError::IndexOutOfRange { axis: 2 })
    );
    // Entries along the section's own axes are ignored.
    assert!(l.grid(0, 1, [9, 9, 3]).is_ok());
    // An empty axis off the section has no index to go through.
    assert_eq!(
        c([2, 3, 0]).grid(0, 1, [0; 3]),
        Err(LayoutError::IndexOutOfRange { axis: 2 })
    );
}

#[test]
fn grid_to_text_matches_display_or_reports_capacity() {
    let g = c([2, 3]).grid_2d();
    assert_eq!(g.to_text::<11>().unwrap().as_str(), g.to_string());
    assert_eq!(g.to_text::<10>(), Err(LayoutError::CapacityExceeded));
}

#[test]
fn display_at_the_edge_of_isize() {
    let l = Layout::new([2], [isize::MAX], 1)
        .unwrap()
        .flipped(0)
        .unwrap();
    assert_eq!(
        l.to_string(),
        format!("(2):({}) +{} x1B", -isize::MAX, isize::MAX)
    );
    assert_eq!(
        l.grid_1d().to_string(),
        format!("{} {:>w$}", isize::MAX, 0, w = 19)
    );
    let l = Layout::new([1], [1], 1)
        .unwrap()
        .with_offset(isize::MIN)
        .unwrap();
    assert_eq!(
        l.to_string(),
        format!("(1):(1) -{} x1B", isize::MIN.unsigned_abs())
    );
}

#[test]
fn grid_of_a_huge_section_fails_fast_on_a_small_buffer() {
    // 2^31 x 2^31 cells: measuring column widths cell by cell would never end.
    let l = Layout::new([1 << 31, 1 << 31], [1 << 31, 1], 1).unwrap();
    assert_eq!(
        l.grid_2d().to_text::<64>(),
        Err(LayoutError::CapacityExceeded)
    );
}

// A grid through a broadcast axis longer than `isize::MAX` made `Display` return
// `fmt::Error` (so `format!` panicked) and `to_text` report a capacity problem.
#[test]
fn grid_through_huge_broadcast_axis_formats_without_panicking() {
    let l = Layout::new([usize::MAX, 1, 1], [0, 2, 1], 1).unwrap();
    let g = l.grid(1, 2, [usize::MAX - 1, 0, 0]).unwrap();
    assert_eq!(format!("{g}"), "0");
}

#[test]
fn grid_through_huge_broadcast_axis_to_text_fits_a_one_by_one_grid() {
    let l = Layout::new([usize::MAX, 1, 1], [0, 2, 1], 1).unwrap();
    let g = l.grid(1, 2, [usize::MAX - 1, 0, 0]).unwrap();
    assert_eq!(
        g.to_text::<64>().map(|t| t.as_str().to_owned()),
        Ok("0".to_owned())
    );
}

#[test]
fn grid_along_huge_broadcast_axis_formats_its_corners() {
    let l = Layout::new([usize::MAX, 1], [0, 1], 1)
        .unwrap()
        .with_offset(-1)
        .unwrap();
    let g = l.grid(1, 0, [0, 0]).unwrap();
    assert_eq!(g.to_text::<8>(), Err(LayoutError::CapacityExceeded));
    let g1 = l.grid(0, 1, [0, 0]).unwrap();
    assert_eq!(g1.to_text::<16>(), Err(LayoutError::CapacityExceeded));
}

mod never_panics {
    use proptest::prelude::*;
    use strided_layout::{Layout, LayoutError};

    /// A valid rank-3 layout with extents and strides from the whole range of their types.
    fn big_layout() -> impl Strategy<Value = Layout<3>> {
        (
            proptest::array::uniform3(prop_oneof![0usize..=4, Just(usize::MAX), any::<usize>()]),
            proptest::array::uniform3(prop_oneof![
                -6isize..=6,
                Just(isize::MAX),
                Just(isize::MIN),
                any::<isize>()
            ]),
            prop_oneof![-40isize..=40, any::<isize>()],
            prop_oneof![Just(1usize), Just(8), Just(1 << 20)],
        )
            .prop_filter_map("invalid layout", |(sh, st, off, item)| {
                Layout::new(sh, st, item)
                    .and_then(|l| l.with_offset(off))
                    .ok()
            })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(crate::common::cases(512)))]

        /// A section through a broadcast axis longer than `isize::MAX`, at any index of it:
        /// the case that made `Display` fail. (The volume must fit `usize`, so every other
        /// extent is 1.)
        #[test]
        fn grid_through_a_huge_broadcast_axis_prints_its_offset(
            big in (isize::MAX as usize + 2)..=usize::MAX,
            st in proptest::array::uniform2(any::<isize>()),
            off in any::<isize>(),
            at0 in any::<usize>(),
        ) {
            let at0 = at0 % big;
            let l = Layout::new([big, 1, 1], [0, st[0], st[1]], 1)
                .unwrap()
                .with_offset(off)
                .unwrap();
            let g = l.grid(1, 2, [at0, 0, 0]).unwrap();
            prop_assert_eq!(format!("{g}"), off.to_string());
            prop_assert_eq!(g.to_text::<32>().map(|t| t.as_str().to_owned()), Ok(off.to_string()));
        }

        /// `Display` of a layout and of every small-enough grid section never fails, so
        /// `format!` never panics; `to_text` fails only for lack of capacity.
        #[test]
        fn display_and_to_text_never_panic(
            l in big_layout(),
            rows in 0usize..4,
            cols in 0usize..4,
            at in proptest::array::uniform3(prop_oneof![0usize..=4, any::<usize>()]),
        ) {
            let text = format!("{l}");
            prop_assert_eq!(l.to_text::<256>().map(|t| t.as_str().to_owned()), Ok(text.clone()));
            let short = l.to_text::<8>();
            prop_assert!(short.is_ok() || short == Err(LayoutError::CapacityExceeded));
            let mut at = at;
            for (k, a) in at.iter_mut().enumerate() {
                if *a >= l.shape()[k] {
                    *a = l.shape()[k].saturating_sub(1);
                }
            }
            let Ok(g) = l.grid(rows, cols, at) else { return Ok(()) };
            // Small capacities stop early, whatever the section's size.
            for t in [g.to_text::<1>().map(|_| ()), g.to_text::<16>().map(|_| ())] {
                prop_assert!(t.is_ok() || t == Err(LayoutError::CapacityExceeded));
            }
            let cells = l.shape()[rows].saturating_mul(l.shape()[cols]);
            if cells <= 64 {
                let s = format!("{g}");
                prop_assert_eq!(g.to_text::<4096>().map(|t| t.as_str().to_owned()), Ok(s));
            }
        }
    }
}

// `NeedsCopy` once printed a raw bit mask (`axes mask 0b11`); it lists the axes.
#[test]
fn needs_copy_display_lists_the_axes() {
    let e = Layout::new([2, 3], [1, 2], 1)
        .unwrap()
        .reshaped::<1>([6])
        .unwrap_err();
    assert!(matches!(e, LayoutError::NeedsCopy { .. }), "{e:?}");
    let text = e.to_string();
    assert!(!text.contains("0b") && !text.contains("mask"), "{text}");
    let LayoutError::NeedsCopy { axes } = e else {
        unreachable!()
    };
    let list: Vec<String> = (0..64)
        .filter(|&a| axes.contains(a))
        .map(|a| a.to_string())
        .collect();
    assert_eq!(
        text,
        format!(
            "reshape needs a copy: strides cannot express it (axes {})",
            list.join(", ")
        )
    );
    let two = LayoutError::NeedsCopy {
        axes: strided_layout::AxisMask::from_bits(0b101),
    };
    assert_eq!(
        two.to_string(),
        "reshape needs a copy: strides cannot express it (axes 0, 2)"
    );
}

/// An interleaved grid against the model: every cell is CoreAI's offset, right-aligned to
/// the widest cell (the width now comes from the section's bounds, not a pass over cells).
mod interleaved_grid_model {
    use proptest::prelude::*;
    use strided_layout::{InterleaveLayout, InterleavedLayout};

    fn model_text(l: &InterleavedLayout<2>) -> String {
        let (d, f) = (l.interleave().dimension(), l.interleave().factor());
        let [r, c] = l.shape();
        if r == 0 || c == 0 {
            return String::new(); // a section with an empty axis prints nothing
        }
        let off = |ix: [usize; 2]| -> i128 {
            let mut o = l.offset() as i128;
            for (k, (&i, &s)) in ix.iter().zip(l.strides().iter()).enumerate() {
                let s = s as i128;
                o += if k == d {
                    (i / f) as i128 * s + (i % f) as i128
                } else {
                    i as i128 * s
                };
            }
            o
        };
        let cells: Vec<Vec<String>> = (0..r)
            .map(|i| (0..c).map(|j| off([i, j]).to_string()).collect())
            .collect();
        let w = cells.iter().flatten().map(String::len).max().unwrap_or(0);
        cells
            .iter()
            .map(|row| {
                row.iter()
                    .map(|v| format!("{v:>w$}"))
                    .collect::<Vec<_>>()
                    .join(" ")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(if cfg!(miri) { 4 } else { crate::common::cases(256) }))]
        #[test]
        fn interleaved_grid_2d_prints_the_model_offsets(
            sh in proptest::array::uniform2(0usize..=4),
            st in proptest::array::uniform2(-6isize..=6),
            off in -40isize..=40,
            d in 0usize..2,
            f in 1usize..=4,
        ) {
            let il = InterleaveLayout::new(d, f).unwrap();
            let l = InterleavedLayout::new(sh, st, 1, il).unwrap().with_offset(off).unwrap();
            prop_assert_eq!(l.grid_2d().to_string(), model_text(&l));
        }
    }
}
