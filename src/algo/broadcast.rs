//! Broadcasting (NumPy and cuda.core rules), on slices.

use crate::LayoutError;

/// Writes strides for broadcasting `shape`/`strides` to `target` (aligned on the right;
/// `target.len() >= shape.len()`): an extent equal to the target keeps its stride, an
/// extent 1 facing another extent gets stride 0, new leading axes get stride 0; anything
/// else is `BroadcastIncompatible` naming the target axis.
pub(crate) const fn broadcast(
    shape: &[usize],
    strides: &[isize],
    target: &[usize],
    out_strides: &mut [isize],
) -> Result<(), LayoutError> {
    let n = shape.len();
    let m = target.len();
    if m < n {
        return Err(LayoutError::RankMismatch {
            expected: n,
            found: m,
        });
    }
    let diff = m - n;
    let mut j = 0;
    while j < m {
        out_strides[j] = 0;
        if j >= diff {
            let i = j - diff;
            if shape[i] == target[j] {
                out_strides[j] = strides[i];
            } else if shape[i] != 1 {
                return Err(LayoutError::BroadcastIncompatible { axis: j });
            }
        }
        j += 1;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn broadcast_follows_numpy_rules() {
        let mut out = [9; 3];
        broadcast(&[3, 1], &[1, 7], &[2, 3, 4], &mut out).unwrap();
        assert_eq!(out, [0, 1, 0]);
        broadcast(&[1], &[5], &[2, 3, 1], &mut out).unwrap();
        assert_eq!(out, [0, 0, 5]);
        assert_eq!(
            broadcast(&[2], &[1], &[2, 3, 4], &mut out),
            Err(LayoutError::BroadcastIncompatible { axis: 2 })
        );
    }
}
