//! A plan printed: each nest's offsets and volume, then one line per loop.

use core::fmt;

use super::{Loop, Nest, Plan};

struct NestHead<'a, const K: usize, const L: usize>(usize, &'a Nest<K, L>);

impl<const K: usize, const L: usize> fmt::Display for NestHead<'_, K, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "nest {}: offsets {:?}, {} elements",
            self.0,
            self.1.offsets,
            self.1.volume()
        )
    }
}

struct LoopLine<'a, const K: usize, const L: usize>(usize, &'a Loop<K>, &'a Nest<K, L>);

impl<const K: usize, const L: usize> fmt::Display for LoopLine<'_, K, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let LoopLine(j, l, nest) = *self;
        write!(
            f,
            "  loop {j}: extent {}, strides {:?}",
            l.extent, l.strides
        )?;
        if let Some(t) = nest.tile {
            let inner = nest.depth.saturating_sub(2);
            if j >= inner {
                let side = if j == inner { t[0] } else { t[1] };
                write!(f, ", tile {side}")?;
            }
        }
        Ok(())
    }
}

impl<const K: usize, const M: usize, const L: usize> fmt::Display for Plan<K, M, L> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count == 0 {
            return f.write_str("empty plan");
        }
        for (i, nest) in self.nests().iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{}", NestHead(i, nest))?;
            for (j, l) in nest.loops().iter().enumerate() {
                write!(f, "\n{}", LoopLine(j, l, nest))?;
            }
        }
        Ok(())
    }
}
