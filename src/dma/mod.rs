//! DMA engines: a [`CopyPlan`](crate::CopyPlan) lowered to a microcontroller DMA engine's descriptor chain.
//!
//! In firmware the strided copies (audio frames, camera lines, TDM slots) are usually done by
//! a DMA engine while the core sleeps or computes. Each module here writes the chain of one
//! engine's descriptors that performs a planned copy, each descriptor the engine's documented
//! register image (`#[repr(C)]`, the reference manual's field order, widths and bit
//! positions), so it can be checked against the manual field by field:
//!
//! | module | engine | one descriptor moves | counters it has |
//! | --- | --- | --- | --- |
//! | [`edma`] | NXP eDMA (i.MX RT, MCX, Kinetis): a transfer control descriptor (TCD) | a major loop of minor loops | minor loop (`NBYTES`, `SOFF`/`DOFF`), major loop (`CITER`, minor-loop offset `MLOFF`) |
//! | [`edma3`] | TI EDMA3: a PaRAM set | `CCNT` frames of `BCNT` arrays of `ACNT` bytes | `ACNT` (contiguous bytes), `BCNT` (`BIDX`), `CCNT` (`CIDX`) |
//! | [`gpdma`] | STM32 GPDMA, 2-D channels (STM32U5, STM32H5): a linked-list item | `BRC + 1` blocks of `BNDT` bytes, each side in bursts with an offset after each burst and each block | beats in a burst, bursts (`SAO`/`DAO`), blocks (`BRSAO`/`BRDAO`) |
//! | [`pl330`] | Arm DMA-330 (PL330): a block of a channel thread's microcode | bursts of up to 16 beats in two loops of up to 256 | a burst, loop counters 0 and 1 (16-bit adds between) |
//! | [`rp2040`] | Raspberry Pi RP2040: a control block | `TRANS_COUNT` transfers | one, stepping by the transfer size or not at all |
//! | [`rp2350`] | Raspberry Pi RP2350: a control block | `TRANS_COUNT` transfers | one, stepping forwards, backwards, by two or not at all |
//!
//! Every engine follows the same steps, one shared implementation:
//!
//! 1. **Width.** The engine moves beats of the widest size it supports that divides the
//!    element size and both buffers' addresses (an element wider than the widest beat is an
//!    innermost loop of beats).
//! 2. **Loops in bytes.** Each nest of the plan becomes loops in bytes, innermost first; loops
//!    contiguous in both operands merge.
//! 3. **The engine's loop order.** Every assignment of loops to the engine's counters that
//!    its rules accept (a stride inside a signed 16-bit field, a count under the engine's
//!    maximum) is priced by the descriptors it leaves: the product of the extents of the loops
//!    no counter takes. The cheapest is taken, whatever order the CPU plan runs its loops in.
//!    A descriptor of one beat is always possible, so every copy lowers given room enough;
//!    the docs of each `lower` give its count.
//! 4. **The chain.** One descriptor per combination of the remaining loops' indices, each with
//!    its own start addresses, linked as the engine links them. Nothing is written to `out`
//!    unless the whole chain fits.
//!
//! **Fills** are copies from a one-element source: plan the copy from a layout of the same
//! shape with every stride 0 (`Layout::new(shape, [0; N], itemsize)`) and pass the value's
//! address as the source address; every engine then reads the value again for each element
//! (eDMA `SOFF` 0, EDMA3 indices 0, GPDMA and RP2040 without the read increment, PL330 adds
//! that take the source back). A [`FillPlan`](crate::FillPlan) itself is not lowered: it
//! allows a destination that repeats offsets, which a copy plan refuses.
//!
//! ```
//! use strided_layout::dma::edma;
//! use strided_layout::{CopyPlan, Layout, LayoutError};
//! // A 16 × 16 square of a 64-pixel-wide `u32` image set to one colour: one TCD.
//! let value = Layout::new([16, 16], [0, 0], 4)?;
//! let square = Layout::new([16, 16], [64, 1], 4)?;
//! let plan = CopyPlan::new(&value, &square)?;
//! let mut tcds = [edma::Descriptor::ZERO; 1];
//! let n = edma::lower_at(&plan, 0x2000_0000, 0x2001_0000, &mut tcds, 0x2000_4000)
//!     .map_err(|_| LayoutError::DestinationNotUnique)?;
//! assert_eq!((n, tcds[0].soff, tcds[0].citer), (1, 0, 16));
//! # Ok::<(), LayoutError>(())
//! ```
//!
//! The source and destination buffers must not overlap (as for [`CopyPlan::run`](crate::CopyPlan::run), which takes
//! a shared and an exclusive slice). The chain does not depend on the order the engine moves
//! the elements in: the plan's destination is unique, so each destination byte is written
//! once, which the tests check on an emulator of each engine written from its reference
//! manual.
//!
//! # Examples
//!
//! ```
//! use strided_layout::dma::edma3;
//! use strided_layout::{CopyPlan, Layout, LayoutError, Order};
//! // A 64 × 48 `u16` image transposed: one PaRAM set (48 frames of 64 arrays of 2 bytes).
//! let src = Layout::dense([64, 48], 2, Order::C)?;
//! let dst = Layout::dense([48, 64], 2, Order::C)?.transposed(0, 1)?;
//! let plan = CopyPlan::new(&src, &dst)?;
//! let mut sets = [edma3::Descriptor::NULL; 4];
//! let n = edma3::lower_at(&plan, 0x8000_0000, 0x8001_0000, &mut sets, 0x0270_4000)
//!     .map_err(|_| LayoutError::DestinationNotUnique)?;
//! assert_eq!(n, 1);
//! # Ok::<(), LayoutError>(())
//! ```

use core::fmt;

use crate::const_util::Message;

pub mod edma;
pub mod edma3;
pub mod gpdma;
pub mod pl330;
mod rp;
pub mod rp2040;
pub mod rp2350;
mod walk;

/// Why a copy plan does not lower to an engine's descriptor chain: the rule it breaks.
///
/// # Examples
///
/// ```
/// use strided_layout::dma::{DmaError, rp2040};
/// use strided_layout::{CopyPlan, Layout, LayoutError, Order};
/// // 8 elements in 2 runs of 4 (every other row of a 4 × 4 matrix): 2 control blocks and the
/// // null block that ends the chain. Two slots are not enough.
/// let src = Layout::new([2, 4], [8, 1], 4)?;
/// let plan = CopyPlan::new(&src, &Layout::dense([2, 4], 4, Order::C)?)?;
/// let mut out = [rp2040::Descriptor::NULL; 2];
/// let e = rp2040::lower(&plan, 0x2000_0000, 0x2000_1000, &mut out).unwrap_err();
/// assert_eq!(e, DmaError::ChainTooLong { needed: 3 });
/// assert_eq!(e.to_string(), "the chain needs more descriptors than the slice holds (3 needed)");
/// # Ok::<(), LayoutError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[non_exhaustive]
pub enum DmaError {
    /// The source and destination element sizes differ: an engine copies bytes as they are
    /// (convert with [`CopyPlan::run_map`](crate::CopyPlan::run_map) instead).
    ItemsizeMismatch {
        /// The source's itemsize.
        src: usize,
        /// The destination's itemsize.
        dst: usize,
    },
    /// An address the chain would use leaves the 32-bit bus: a byte of the source or the
    /// destination (base address plus the layout's offsets), or a descriptor of the chain.
    Address,
    /// A buffer's address is not aligned to the beats of a chain lowered for aligned buffers
    /// (`rebase`).
    Unaligned {
        /// The alignment a descriptor's beats need, in bytes.
        align: usize,
    },
    /// The chain's own address is not aligned as the engine loads descriptors.
    ChainAlignment {
        /// The alignment the engine needs, in bytes.
        align: usize,
    },
    /// The chain's descriptors are not all in one 64 KiB page, which a 16-bit link field
    /// (EDMA3's `LINK`) needs.
    ChainPage,
    /// A channel number the engine does not have.
    Channel {
        /// How many channels the engine has (numbered from 0).
        channels: u8,
    },
    /// The chain needs more descriptors than the slice holds.
    ChainTooLong {
        /// The descriptors the chain needs (the terminating one included, where the engine
        /// has one).
        needed: usize,
    },
}

impl DmaError {
    /// The rule this error names, without its figures.
    ///
    /// # Examples
    ///
    /// ```
    /// use strided_layout::dma::DmaError;
    /// assert_eq!(
    ///     DmaError::ChainPage.as_str(),
    ///     "a chain linked by 16-bit fields must lie in one 64 KiB page"
    /// );
    /// ```
    #[must_use]
    pub const fn as_str(&self) -> &'static str {
        match self {
            Self::ItemsizeMismatch { .. } => {
                "a DMA copy needs source and destination elements of one size"
            }
            Self::Address => "every address of the copy and of the chain must fit the 32-bit bus",
            Self::Unaligned { .. } => {
                "a buffer's address must be aligned to the beats the chain was lowered for"
            }
            Self::ChainAlignment { .. } => {
                "the chain's address must be aligned as the engine loads descriptors"
            }
            Self::ChainPage => "a chain linked by 16-bit fields must lie in one 64 KiB page",
            Self::Channel { .. } => "the engine has no such channel",
            Self::ChainTooLong { .. } => "the chain needs more descriptors than the slice holds",
        }
    }
}

impl fmt::Display for DmaError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())?;
        match self {
            Self::ItemsizeMismatch { src, dst } => {
                write!(f, " (source {src} B, destination {dst} B)")
            }
            Self::ChainAlignment { align } | Self::Unaligned { align } => {
                write!(f, " ({align} bytes)")
            }
            Self::ChainTooLong { needed } => write!(f, " ({needed} needed)"),
            Self::Channel { channels } => write!(f, " (channels 0..{channels})"),
            Self::Address | Self::ChainPage => Ok(()),
        }
    }
}

impl core::error::Error for DmaError {}

impl DmaError {
    /// The text `Display` writes, in a `const` context.
    const fn message(&self) -> Message {
        let mut m = Message::new();
        m.push(self.as_str());
        match *self {
            Self::ItemsizeMismatch { src, dst } => {
                m.push(" (source ");
                m.push_usize(src);
                m.push(" B, destination ");
                m.push_usize(dst);
                m.push(" B)");
            }
            Self::ChainAlignment { align } | Self::Unaligned { align } => {
                m.push(" (");
                m.push_usize(align);
                m.push(" bytes)");
            }
            Self::ChainTooLong { needed } => {
                m.push(" (");
                m.push_usize(needed);
                m.push(" needed)");
            }
            Self::Channel { channels } => {
                m.push(" (channels 0..");
                m.push_usize(channels as usize);
                m.push(")");
            }
            Self::Address | Self::ChainPage => {}
        }
        m
    }
}

/// The value of `result`, or a compile error with the rule and its figures in a `const` item
/// (at run time, a panic), as [`const_unwrap`](crate::const_unwrap) for [`DmaError`]: a chain
/// lowered at compile time.
///
/// # Panics
///
/// If `result` is an `Err`: in a `const` item the build fails with the error's text.
///
/// # Examples
///
/// ```
/// use strided_layout::dma::{const_unwrap, edma};
/// use strided_layout::{CopyPlan, Layout, Order};
/// const L: Layout<2> = strided_layout::const_unwrap(Layout::dense([8, 8], 4, Order::C));
/// const PLAN: CopyPlan = strided_layout::const_unwrap(CopyPlan::new(&L, &L));
/// const CHAIN: ([edma::Descriptor; 1], usize) = {
///     let mut out = [edma::Descriptor::ZERO; 1];
///     let n = const_unwrap(edma::lower_at(&PLAN, 0, 0, &mut out, 0));
///     (out, n)
/// };
/// assert_eq!((CHAIN.1, CHAIN.0[0].nbytes), (1, 256));
/// ```
///
/// ```compile_fail
/// use strided_layout::dma::{const_unwrap, rp2040};
/// use strided_layout::{CopyPlan, Layout, Order};
/// const L: Layout<2> = strided_layout::const_unwrap(Layout::dense([8, 8], 4, Order::C));
/// const PLAN: CopyPlan = strided_layout::const_unwrap(CopyPlan::new(&L, &L));
/// // error: the chain needs more descriptors than the slice holds (2 needed)
/// const CHAIN: [rp2040::Descriptor; 1] = {
///     let mut out = [rp2040::Descriptor::NULL; 1];
///     let _ = const_unwrap(rp2040::lower(&PLAN, 0, 0, &mut out));
///     out
/// };
/// ```
#[must_use]
#[track_caller]
pub const fn const_unwrap<T: Copy>(result: Result<T, DmaError>) -> T {
    match result {
        Ok(v) => v,
        Err(e) => {
            let msg = e.message();
            #[expect(
                clippy::panic,
                reason = "the purpose of this function: a const-eval error"
            )]
            {
                panic!("{}", msg.as_str())
            }
        }
    }
}

/// The bus address of the slice's first element, for engines whose descriptors link by
/// address.
fn bus_address<D>(out: &[D]) -> Result<u32, DmaError> {
    u32::try_from(out.as_ptr().addr()).map_err(|_| DmaError::Address)
}

/// The bus address of descriptor `k` of a chain at `at` whose descriptors are `size` bytes,
/// or `None` when `k` is past the chain's `count` linked descriptors.
const fn link(at: u32, k: usize, count: usize, size: u32) -> Result<Option<u32>, DmaError> {
    if k >= count {
        return Ok(None);
    }
    // `k < count`, and `place` checked that the whole chain lies on the bus.
    if k > u32::MAX as usize {
        return Err(DmaError::Address);
    }
    #[expect(clippy::cast_possible_truncation, reason = "checked: at most u32::MAX")]
    let k = k as u32;
    match k.checked_mul(size) {
        Some(bytes) => match at.checked_add(bytes) {
            Some(a) => Ok(Some(a)),
            None => Err(DmaError::Address),
        },
        None => Err(DmaError::Address),
    }
}

/// Checks that the buffers of a chain lowered at address 0 stay on the bus from `src_addr` and
/// `dst_addr`: the plan's whole span of each, in bytes.
const fn bus_span<const M: usize, const L: usize>(
    plan: &crate::CopyPlan<M, L>,
    src_addr: u32,
    dst_addr: u32,
) -> Result<(), DmaError> {
    let src = (plan.src_len() as u64).checked_mul(plan.src_itemsize() as u64);
    let dst = (plan.dst_len() as u64).checked_mul(plan.dst_itemsize() as u64);
    match (src, dst) {
        (Some(s), Some(d))
            if s.saturating_add(src_addr as u64) <= 1 << 32
                && d.saturating_add(dst_addr as u64) <= 1 << 32 =>
        {
            Ok(())
        }
        _ => Err(DmaError::Address),
    }
}

/// [`DmaError::Unaligned`] unless both addresses are multiples of `align` (a power of two).
const fn aligned(src_addr: u32, dst_addr: u32, align: u32) -> Result<(), DmaError> {
    if src_addr.is_multiple_of(align) && dst_addr.is_multiple_of(align) {
        Ok(())
    } else {
        Err(DmaError::Unaligned {
            align: align as usize,
        })
    }
}

/// The size of every linked engine's descriptor (eDMA TCD, EDMA3 PaRAM set, GPDMA item).
const LINKED: u32 = 32;

/// Checks where a chain of `count` 32-byte descriptors lies from bus address `at`: a multiple
/// of `align`, on the bus, and with `paged` (a 16-bit link field) inside one 64 KiB page.
///
/// # Errors
///
/// [`DmaError::ChainAlignment`], [`DmaError::Address`], [`DmaError::ChainPage`].
const fn place(at: u32, count: usize, align: u32, paged: bool) -> Result<(), DmaError> {
    if !at.is_multiple_of(align) {
        return Err(DmaError::ChainAlignment {
            align: align as usize,
        });
    }
    let Some(end) = (count as u64).checked_mul(LINKED as u64) else {
        return Err(DmaError::Address);
    };
    let end = end.saturating_add(at as u64);
    if end > 1 << 32 {
        return Err(DmaError::Address);
    }
    // The last descriptor's last byte shares the first one's page.
    if paged && count > 0 && end.saturating_sub(1) >> 16 != (at >> 16) as u64 {
        return Err(DmaError::ChainPage);
    }
    Ok(())
}

/// The body of a linked engine's `lower_at` (`const`, so not a generic function over the
/// engines' descriptor builders): count the chain, check the room and the placement
/// ([`place`] with `align` and `paged`), then write each descriptor, `$descriptor(&step,
/// next)` with the next one's bus address (`None` for the last).
macro_rules! lower_linked {
    ($kind:expr, $plan:expr, $src:expr, $dst:expr, $out:expr, $at:expr, $align:expr, $paged:expr, $descriptor:path) => {{
        let mut chain =
            $crate::algo::checked::tri!($crate::dma::walk::Chain::new($plan, $kind, $src, $dst));
        let needed = $crate::algo::checked::tri!(chain.needed());
        if needed > $out.len() {
            return Err($crate::dma::DmaError::ChainTooLong { needed });
        }
        $crate::algo::checked::tri!($crate::dma::place($at, needed, $align, $paged));
        let mut k = 0usize;
        while let Some(step) = $crate::algo::checked::tri!(chain.next()) {
            let next_k = k.saturating_add(1);
            let next = $crate::algo::checked::tri!($crate::dma::link(
                $at,
                next_k,
                needed,
                $crate::dma::LINKED
            ));
            $crate::algo::access::set($out, k, $descriptor(&step, next));
            k = next_k;
        }
        Ok(k)
    }};
}
pub(crate) use lower_linked;
