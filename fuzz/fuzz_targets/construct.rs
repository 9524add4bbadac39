//! `Layout::new(..)?.with_offset(..)` on arbitrary parts (small and extreme values): it
//! succeeds exactly when the model says both steps keep the invariants, fails with the
//! documented error otherwise, and every query of a built layout matches the model.
#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;
use strided_layout_fuzz::{Any, MAX_RANK, check_queries, new_model, parts};

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(p) = parts(&mut u, MAX_RANK) else {
        return;
    };
    // `new` validates at offset 0, then `with_offset` at the requested offset.
    let want = new_model(&p, 0).and_then(|()| new_model(&p, p.offset));
    let got = Any::build(&p);
    match (&got, want) {
        (Ok(a), Ok(())) => {
            let v = a.view();
            assert_eq!(
                (&v.shape, &v.strides, v.offset, v.itemsize),
                (&p.shape, &p.strides, p.offset, p.itemsize)
            );
            check_queries(a);
        }
        (Err(e), Err(w)) => assert_eq!(*e, w, "{p:?}"),
        _ => panic!("{p:?}: got {got:?}, model says {want:?}"),
    }
});
