//! Broadcasting (NumPy and cuda.core rules), on slices.

use super::access::{get, set};
use super::parts::Parts;
use crate::LayoutError;

/// Writes strides for broadcasting `shape`/`strides` to `target` (aligned on the right;
/// `target.len() >= shape.len()`): an extent equal to the target keeps its stride, an
/// extent 1 facing another extent gets stride 0, new leading axes get stride 0; anything
/// else is `BroadcastIncompatible` naming the target axis.
pub(crate) const fn broadcast(
    p: Parts<'_>,
    target: &[usize],
    out_strides: &mut [isize],
) -> Result<(), LayoutError> {
    let n = p.rank();
    let m = target.len();
    let Some(diff) = m.checked_sub(n) else {
        return Err(LayoutError::RankMismatch {
            expected: n,
            found: m,
        });
    };
    let mut j = 0;
    while let Some(want) = get(target, j) {
        let mut stride = 0;
        if let Some(i) = j.checked_sub(diff) {
            let (extent, s) = p.axis(i);
            if extent == want {
                stride = s;
            } else if extent != 1 {
                return Err(LayoutError::BroadcastIncompatible { axis: j });
            }
        }
        set(out_strides, j, stride);
        j = j.saturating_add(1);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broadcast_follows_numpy_rules() {
        let mut out = [9; 3];
        broadcast(
            Parts::from_arrays(&[3, 1], &[1, 7], 0, 1),
            &[2, 3, 4],
            &mut out,
        )
        .unwrap();
        assert_eq!(out, [0, 1, 0]);
        broadcast(Parts::from_arrays(&[1], &[5], 0, 1), &[2, 3, 1], &mut out).unwrap();
        assert_eq!(out, [0, 0, 5]);
        assert_eq!(
            broadcast(Parts::from_arrays(&[2], &[1], 0, 1), &[2, 3, 4], &mut out),
            Err(LayoutError::BroadcastIncompatible { axis: 2 })
        );
    }
}
