//! The PL330 lowering run on QEMU's DMA-330 (`qemu-system-arm -M xilinx-zynq-a9`).
//!
//! For each copy below: the layouts and their [`CopyPlan`], the source filled with a pattern
//! of non-zero values, the destination zeroed, the plan lowered by [`pl330::lower`] into a
//! buffer in RAM, the program started on channel 0 through the controller's debug registers
//! (`DMAGO`), the channel polled until it stops or faults, and the destination compared,
//! whole, with what [`strided_layout::copy`] writes into a second zeroed buffer. One line
//! per copy goes out through semihosting; the program exits with status 0 only if every
//! copy matched.
//!
//! Bare metal on the board's Cortex-A9, left in the state QEMU starts an ELF image in (its
//! reset state: a privileged mode, MMU and caches off, so the engine and the core see the
//! same bytes at the same addresses): a vector table and `_start` below, no other start-up
//! code.
#![no_std]
#![no_main]

use core::arch::{asm, global_asm};
use core::fmt::{self, Write};
use core::panic::PanicInfo;

use strided_layout::dma::pl330;
use strided_layout::{CopyPlan, Layout, LayoutError, Order, Slice};

// Start-up: the exception vectors (any exception past reset is a failure: it names itself
// through semihosting and exits with a failure status, using no stack), then `_start`:
// interrupts masked, the vectors' base in VBAR, the stack pointer, `.bss` zeroed, and the
// Rust entry point.
global_asm!(
    ".section .vectors, \"ax\"",
    ".arm",
    ".balign 32",
    "vectors:",
    "    b _start",
    "    b trap_undef",
    "    b trap_svc",
    "    b trap_prefetch",
    "    b trap_data",
    "    b trap_reserved",
    "    b trap_irq",
    "    b trap_fiq",
    "trap_undef:     ldr r1, =msg_undef",
    "                b trap",
    "trap_svc:       ldr r1, =msg_svc",
    "                b trap",
    "trap_prefetch:  ldr r1, =msg_prefetch",
    "                b trap",
    "trap_data:      ldr r1, =msg_data",
    "                b trap",
    "trap_reserved:  ldr r1, =msg_reserved",
    "                b trap",
    "trap_irq:       ldr r1, =msg_irq",
    "                b trap",
    "trap_fiq:       ldr r1, =msg_fiq",
    "trap:",
    "    mov r0, #0x04", // SYS_WRITE0 of the message
    "    svc 0x123456",
    "    mov r0, #0x18",    // SYS_EXIT
    "    ldr r1, =0x20023", // ADP_Stopped_RunTimeErrorUnknown: QEMU exits with status 1
    "    svc 0x123456",
    "1:  b 1b",
    ".ltorg",
    "",
    ".section .text.start, \"ax\"",
    ".arm",
    ".global _start",
    "_start:",
    "    cpsid if",
    "    ldr r0, =vectors",
    "    mcr p15, 0, r0, c12, c0, 0", // VBAR
    "    isb",
    "    ldr sp, =__stack_top",
    "    ldr r0, =__bss_start",
    "    ldr r1, =__bss_end",
    "    mov r2, #0",
    "2:  cmp r0, r1",
    "    strlo r2, [r0], #4",
    "    blo 2b",
    "    bl pl330_check_main",
    "3:  b 3b",
    ".ltorg",
    "",
    ".section .rodata.trap_messages, \"a\"",
    "msg_undef:    .asciz \"CPU exception: undefined instruction\\n\"",
    "msg_svc:      .asciz \"CPU exception: supervisor call\\n\"",
    "msg_prefetch: .asciz \"CPU exception: prefetch abort\\n\"",
    "msg_data:     .asciz \"CPU exception: data abort\\n\"",
    "msg_reserved: .asciz \"CPU exception: reserved vector\\n\"",
    "msg_irq:      .asciz \"CPU exception: IRQ\\n\"",
    "msg_fiq:      .asciz \"CPU exception: FIQ\\n\"",
);

/// Arm semihosting, as QEMU serves it with `-semihosting` (`SVC 0x123456` in the A32
/// instruction set, from a privileged mode).
mod semihosting {
    use core::arch::asm;

    /// `SYS_WRITE0`: writes a NUL-terminated string to the debugger's console.
    const SYS_WRITE0: u32 = 0x04;
    /// `SYS_EXIT`: ends the program; in A32 `r1` holds the reason code itself.
    const SYS_EXIT: u32 = 0x18;
    /// The normal end of the program (QEMU exits with status 0).
    const ADP_STOPPED_APPLICATION_EXIT: usize = 0x2_0026;
    /// Any other reason: QEMU exits with status 1.
    const ADP_STOPPED_RUN_TIME_ERROR_UNKNOWN: usize = 0x2_0023;

    /// Writes `text` (whose last byte is NUL) to the console.
    pub fn write0(text: &[u8]) {
        if text.last() != Some(&0) {
            return;
        }
        // SAFETY: the semihosting call reads the string up to its NUL, which `text` holds;
        // it writes no memory the program owns. QEMU takes the call at the SVC instead of
        // entering the exception vector, and returns with r0 changed.
        unsafe {
            asm!(
                "svc 0x123456",
                inout("r0") SYS_WRITE0 => _,
                in("r1") text.as_ptr(),
                options(nostack, readonly),
            );
        }
    }

    /// Ends the program: status 0 for `success`, 1 otherwise.
    pub fn exit(success: bool) -> ! {
        let reason = if success {
            ADP_STOPPED_APPLICATION_EXIT
        } else {
            ADP_STOPPED_RUN_TIME_ERROR_UNKNOWN
        };
        // SAFETY: `SYS_EXIT` reads no memory; QEMU stops the machine inside the call.
        unsafe {
            asm!(
                "svc 0x123456",
                in("r0") SYS_EXIT,
                in("r1") reason,
                options(nostack, nomem),
            );
        }
        // Only without a semihosting host does the call return.
        loop {
            core::hint::spin_loop();
        }
    }
}

/// The Zynq-7000's DMA controller (a DMA-330 with 8 channels; its secure register page),
/// reached through its debug registers: no manager program is needed to start a channel.
mod dmac {
    use core::ptr::{read_volatile, with_exposed_provenance_mut, write_volatile};

    /// The controller's registers (the Zynq-7000 TRM's `dmac0_s`; QEMU maps its model here).
    const BASE: usize = 0xF800_3000;
    /// `FTRD`: the manager thread's fault type.
    const FTRD: usize = 0x038;
    /// `FTR0`: channel 0's fault type.
    const FTR0: usize = 0x040;
    /// `CSR0`: channel 0's status, the state in bits 3:0.
    const CSR0: usize = 0x100;
    /// `CPC0`: channel 0's program counter.
    const CPC0: usize = 0x104;
    /// `DBGSTATUS`: bit 0 set while a debug instruction is being executed.
    const DBGSTATUS: usize = 0xD00;
    /// `DBGCMD`: writing 0 executes the instruction in `DBGINST0`/`DBGINST1`.
    const DBGCMD: usize = 0xD04;
    /// `DBGINST0`: instruction bytes 0 and 1 (bits 23:16 and 31:24), the channel (bits
    /// 10:8) and the thread (bit 0: 0 the manager, 1 a channel).
    const DBGINST0: usize = 0xD08;
    /// `DBGINST1`: instruction bytes 2 to 5.
    const DBGINST1: usize = 0xD0C;

    /// `DMAGO` for the secure state (bit 1, `ns`, clear).
    const DMAGO: u32 = 0xA0;
    /// `DMAKILL`: stops a thread, and takes a faulting one out of its fault state.
    const DMAKILL: u32 = 0x01;
    /// `DBGINST0` bit 0: the instruction is for a channel thread, not the manager.
    const CHANNEL_THREAD: u32 = 1;
    /// Channel states in `CSRn` bits 3:0.
    const STOPPED: u32 = 0x0;
    const FAULT_COMPLETING: u32 = 0xE;
    const FAULTING: u32 = 0xF;
    /// Polls before giving up on a register (QEMU's model runs a whole program inside the
    /// write to `DBGCMD`, so the first poll normally sees it done).
    const POLLS: u32 = 10_000_000;

    fn read(offset: usize) -> u32 {
        // SAFETY: `BASE + offset` is one of the controller's 32-bit registers (the offsets
        // above), mapped as device memory; reading it has no side effect.
        unsafe { read_volatile(with_exposed_provenance_mut::<u32>(BASE + offset)) }
    }

    fn write(offset: usize, value: u32) {
        // SAFETY: `BASE + offset` is one of the controller's debug registers above; the
        // engine it starts only touches memory the caller lent it (see `run`).
        unsafe { write_volatile(with_exposed_provenance_mut::<u32>(BASE + offset), value) }
    }

    /// How a channel program ended.
    pub enum Outcome {
        /// Channel 0 stopped with no fault.
        Done,
        /// The channel (or the manager, for the `DMAGO`) faulted: the fault type
        /// registers, the channel's status and its program counter.
        Fault {
            ftr0: u32,
            ftrd: u32,
            csr0: u32,
            cpc0: u32,
        },
        /// A register never reached the state polled for.
        Timeout {
            what: &'static str,
            csr0: u32,
            cpc0: u32,
        },
    }

    /// Waits until no debug instruction is executing.
    fn debug_idle() -> bool {
        (0..POLLS).any(|_| read(DBGSTATUS) & 1 == 0)
    }

    /// Executes one debug instruction (`inst0`: bytes 0 and 1 and the thread; `inst1`: bytes 2
    /// to 5) once the debug interface is idle; false if it never was.
    fn debug(inst0: u32, inst1: u32) -> bool {
        if !debug_idle() {
            return false;
        }
        write(DBGINST0, inst0);
        write(DBGINST1, inst1);
        write(DBGCMD, 0);
        debug_idle()
    }

    /// Stops the manager and channel 0 after a fault (`DMAKILL` on each), so that the next
    /// program starts from a stopped channel.
    fn kill() {
        debug(DMAKILL << 16, 0);
        debug(DMAKILL << 16 | CHANNEL_THREAD, 0);
    }

    /// Runs the channel program at bus address `pc` on channel 0 and waits for its end.
    ///
    /// The caller must have written the program and the source, and must neither read nor
    /// write the destination, until this returns.
    pub fn run(pc: u32) -> Outcome {
        let status = || (read(CSR0), read(CPC0));
        if read(CSR0) & 0xF != STOPPED {
            let (csr0, cpc0) = status();
            return Outcome::Timeout {
                what: "channel 0 not stopped before DMAGO",
                csr0,
                cpc0,
            };
        }
        // DMAGO C0, pc: from the manager thread, channel 0 in byte 1, the PC in bytes 2..5.
        if !debug(DMAGO << 16, pc) {
            let (csr0, cpc0) = status();
            return Outcome::Timeout {
                what: "DBGSTATUS never idle around DMAGO",
                csr0,
                cpc0,
            };
        }
        let ftrd = read(FTRD);
        if ftrd != 0 {
            let (csr0, cpc0) = status();
            let ftr0 = read(FTR0);
            kill();
            return Outcome::Fault {
                ftr0,
                ftrd,
                csr0,
                cpc0,
            };
        }
        for _ in 0..POLLS {
            let state = read(CSR0) & 0xF;
            if state == STOPPED || state == FAULTING || state == FAULT_COMPLETING {
                let (csr0, cpc0) = status();
                let ftr0 = read(FTR0);
                if state == STOPPED && ftr0 == 0 {
                    return Outcome::Done;
                }
                let ftrd = read(FTRD);
                kill();
                return Outcome::Fault {
                    ftr0,
                    ftrd,
                    csr0,
                    cpc0,
                };
            }
        }
        let (csr0, cpc0) = status();
        Outcome::Timeout {
            what: "channel 0 still running",
            csr0,
            cpc0,
        }
    }
}

/// The longest line printed, in bytes (the rest is cut).
const LINE: usize = 320;

/// One line of console output, cut at its capacity; sent with [`Line::send`].
struct Line {
    buf: [u8; LINE],
    len: usize,
}

impl Line {
    const fn new() -> Self {
        Self {
            buf: [0; LINE],
            len: 0,
        }
    }

    /// Writes the line, a newline and the NUL the call needs, and empties it.
    fn send(&mut self) {
        let end = self.len.min(self.buf.len() - 2);
        self.buf[end] = b'\n';
        self.buf[end + 1] = 0;
        semihosting::write0(&self.buf[..end + 2]);
        self.len = 0;
    }
}

impl Write for Line {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        // Two bytes stay free for the newline and the NUL.
        let room = self.buf.len() - 2 - self.len.min(self.buf.len() - 2);
        let take = s.len().min(room);
        self.buf[self.len..self.len + take].copy_from_slice(&s.as_bytes()[..take]);
        self.len += take;
        Ok(())
    }
}

/// Prints `code` in hex, 32 bytes a line.
fn dump(code: &[u8]) {
    let mut line = Line::new();
    for chunk in code.chunks(32) {
        let _ = line.write_str("    ");
        for b in chunk {
            let _ = write!(line, "{b:02x} ");
        }
        line.send();
    }
}

/// The bus address of a buffer: its pointer's value (32-bit target, MMU off), exposed,
/// since the engine reads or writes through it.
fn bus<T>(p: *const T) -> u32 {
    // A pointer on this target is 32 bits wide.
    u32::try_from(p.expose_provenance()).unwrap_or(u32::MAX)
}

/// Tells the compiler that memory reachable from these pointers may be read or written by
/// an agent it cannot see (the DMA engine), and orders the core's accesses before and after
/// it on the bus (`DSB`).
fn dma_barrier(code: *const u8, src: *const u8, dst: *mut u8) {
    // SAFETY: `dsb` has no effect on the program's state but ordering; the pointers are only
    // named so that the compiler treats their memory as touched here.
    unsafe {
        asm!(
            "dsb sy @ {0} {1} {2}",
            in(reg) code,
            in(reg) src,
            in(reg) dst,
            options(nostack, preserves_flags),
        );
    }
}

/// The buffers of one copy: the source, the engine's destination and the CPU's.
struct Buffers<'a, T> {
    src: &'a mut [T],
    dst: &'a mut [T],
    cpu: &'a mut [T],
}

/// What one copy checks: its name, layouts, and the source's values.
struct Case<'a, T, const N: usize> {
    name: &'a str,
    src: Result<Layout<N>, LayoutError>,
    dst: Result<Layout<N>, LayoutError>,
    fill: fn(usize) -> T,
}

/// Runs one copy on the engine and on the CPU and prints its line; true if they agree.
fn check<T, const N: usize>(
    number: usize,
    case: &Case<'_, T, N>,
    bufs: Buffers<'_, T>,
    code: &mut [u8],
) -> bool
where
    T: Copy + PartialEq + Default + 'static,
{
    let mut line = Line::new();
    let _ = write!(line, "case {}: ", case.name);
    let (src_layout, dst_layout) = match (case.src, case.dst) {
        (Ok(s), Ok(d)) => (s, d),
        (Err(e), _) | (_, Err(e)) => {
            let _ = write!(line, "FAILED (layout: {e})");
            line.send();
            return false;
        }
    };
    let plan = match CopyPlan::new(&src_layout, &dst_layout) {
        Ok(p) => p,
        Err(e) => {
            let _ = write!(line, "FAILED (plan: {e})");
            line.send();
            return false;
        }
    };
    let Buffers { src, dst, cpu } = bufs;
    if plan.src_len() > src.len() || plan.dst_len() > dst.len() {
        let _ = write!(line, "FAILED (buffers shorter than the plan)");
        line.send();
        return false;
    }
    for (i, x) in src.iter_mut().enumerate() {
        *x = (case.fill)(i);
    }
    dst.fill(T::default());
    cpu.fill(T::default());

    let (src_at, dst_at, code_at) = (bus(src.as_ptr()), bus(dst.as_ptr()), bus(code.as_ptr()));
    let len = match pl330::lower(&plan, src_at, dst_at, code) {
        Ok(n) => n,
        Err(e) => {
            let _ = write!(line, "FAILED (lowering: {e})");
            line.send();
            return false;
        }
    };
    let _ = write!(line, "{len} program bytes: ");
    #[cfg(feature = "sabotage")]
    {
        let what = sabotage(code.get_mut(..len).unwrap_or_default(), number);
        let _ = write!(line, "(sabotaged: {what}) ");
    }
    #[cfg(not(feature = "sabotage"))]
    let _ = number;

    dma_barrier(code.as_ptr(), src.as_ptr().cast(), dst.as_mut_ptr().cast());
    let outcome = dmac::run(code_at);
    dma_barrier(code.as_ptr(), src.as_ptr().cast(), dst.as_mut_ptr().cast());

    let ok = match outcome {
        dmac::Outcome::Done => match strided_layout::copy(src, &src_layout, cpu, &dst_layout) {
            Err(e) => {
                let _ = write!(line, "FAILED (CPU copy: {e})");
                false
            }
            Ok(()) => match dst.iter().zip(cpu.iter()).position(|(a, b)| a != b) {
                None => {
                    let _ = write!(line, "ok");
                    true
                }
                Some(i) => {
                    let wrong = dst.iter().zip(cpu.iter()).filter(|(a, b)| a != b).count();
                    let _ = write!(
                        line,
                        "FAILED ({wrong} of {} destination elements differ from the CPU copy, the first at element {i})",
                        dst.len()
                    );
                    false
                }
            },
        },
        dmac::Outcome::Fault {
            ftr0,
            ftrd,
            csr0,
            cpc0,
        } => {
            let _ = write!(
                line,
                "FAILED (fault: FTR0 {ftr0:#010x}, FTRD {ftrd:#010x}, CSR0 {csr0:#010x}, CPC0 {cpc0:#010x}, program at {code_at:#010x})"
            );
            false
        }
        dmac::Outcome::Timeout { what, csr0, cpc0 } => {
            let _ = write!(
                line,
                "FAILED ({what}: CSR0 {csr0:#010x}, CPC0 {cpc0:#010x})"
            );
            false
        }
    };
    line.send();
    if !ok {
        let _ = write!(
            line,
            "  program ({len} bytes at {code_at:#010x}; source at {src_at:#010x}, destination at {dst_at:#010x}):"
        );
        line.send();
        dump(code.get(..len).unwrap_or(code));
    }
    ok
}

/// With the feature `sabotage`, spoils the program of case `number` before it runs, so that
/// `run` can show that a wrong program is caught: odd cases run their first loop once fewer
/// (the data differ), even ones meet an undefined instruction where `DMAWMB` was (the
/// channel faults). Returns what it did.
#[cfg(feature = "sabotage")]
fn sabotage(code: &mut [u8], number: usize) -> &'static str {
    let mut at = 0;
    while let Some(&op) = code.get(at) {
        let len = match op {
            0xBC => 6,
            0x20 | 0x22 | 0x38 | 0x3C => 2,
            0x54 | 0x56 | 0x5C | 0x5E => 3,
            _ => 1,
        };
        if number % 2 == 1
            && (op == 0x20 || op == 0x22)
            && let Some(count) = code.get_mut(at + 1)
            && *count > 0
        {
            *count -= 1;
            return "one loop iteration fewer";
        }
        if op == 0x13 {
            code[at] = 0xFF;
            return "an undefined instruction for DMAWMB";
        }
        at += len;
    }
    "nothing to spoil"
}

/// A buffer aligned as the longest burst (16 beats of 4 bytes), so that the lowering may
/// choose whole bursts.
#[repr(C, align(64))]
struct Aligned<T>(T);

/// Room for the longest program below.
const CODE_BYTES: usize = 16 * 1024;

// The buffers, in `.bss`. Each is referenced once, in `pl330_check_main`.
static mut CODE: Aligned<[u8; CODE_BYTES]> = Aligned([0; CODE_BYTES]);

const T_N: usize = 64;
static mut T_SRC: Aligned<[u32; T_N * T_N]> = Aligned([0; T_N * T_N]);
static mut T_DST: Aligned<[u32; T_N * T_N]> = Aligned([0; T_N * T_N]);
static mut T_CPU: Aligned<[u32; T_N * T_N]> = Aligned([0; T_N * T_N]);

const G_LEN: usize = 3000;
static mut G_SRC: Aligned<[u16; G_LEN]> = Aligned([0; G_LEN]);
static mut G_DST: Aligned<[u16; G_LEN / 3]> = Aligned([0; G_LEN / 3]);
static mut G_CPU: Aligned<[u16; G_LEN / 3]> = Aligned([0; G_LEN / 3]);

/// The image the crop is cut from (rows, columns, channels), and the crop.
const IMG: [usize; 3] = [40, 64, 3];
const CROP: [usize; 3] = [32, 48, 3];
static mut F_SRC: Aligned<[u8; IMG[0] * IMG[1] * IMG[2]]> = Aligned([0; IMG[0] * IMG[1] * IMG[2]]);
static mut F_DST: Aligned<[u8; CROP[0] * CROP[1] * CROP[2]]> =
    Aligned([0; CROP[0] * CROP[1] * CROP[2]]);
static mut F_CPU: Aligned<[u8; CROP[0] * CROP[1] * CROP[2]]> =
    Aligned([0; CROP[0] * CROP[1] * CROP[2]]);

const FRAMES: usize = 1024;
static mut S_SRC: Aligned<[i16; 2 * FRAMES]> = Aligned([0; 2 * FRAMES]);
static mut S_DST: Aligned<[i16; 2 * FRAMES]> = Aligned([0; 2 * FRAMES]);
static mut S_CPU: Aligned<[i16; 2 * FRAMES]> = Aligned([0; 2 * FRAMES]);

/// 64 KiB of `u32`.
const D_LEN: usize = 64 * 1024 / 4;
static mut D_SRC: Aligned<[u32; D_LEN]> = Aligned([0; D_LEN]);
static mut D_DST: Aligned<[u32; D_LEN]> = Aligned([0; D_LEN]);
static mut D_CPU: Aligned<[u32; D_LEN]> = Aligned([0; D_LEN]);

const V_ROWS: usize = 64;
const V_COLS: usize = 64;
static mut V_SRC: Aligned<[u32; V_ROWS * V_COLS]> = Aligned([0; V_ROWS * V_COLS]);
static mut V_DST: Aligned<[u32; V_ROWS * V_COLS]> = Aligned([0; V_ROWS * V_COLS]);
static mut V_CPU: Aligned<[u32; V_ROWS * V_COLS]> = Aligned([0; V_ROWS * V_COLS]);

const CHW: [usize; 3] = [3, 16, 16];
static mut P_SRC: Aligned<[f32; CHW[0] * CHW[1] * CHW[2]]> =
    Aligned([0.0; CHW[0] * CHW[1] * CHW[2]]);
static mut P_DST: Aligned<[f32; CHW[0] * CHW[1] * CHW[2]]> =
    Aligned([0.0; CHW[0] * CHW[1] * CHW[2]]);
static mut P_CPU: Aligned<[f32; CHW[0] * CHW[1] * CHW[2]]> =
    Aligned([0.0; CHW[0] * CHW[1] * CHW[2]]);

/// The array inside `*buffer`, for the rest of the program.
///
/// # Safety
///
/// `buffer` points to a static, and no other reference to it exists now or later.
unsafe fn own<T>(buffer: *mut Aligned<T>) -> &'static mut T {
    // SAFETY: the caller's promise: a static lives for the whole program, and this is its one
    // reference.
    unsafe { &mut (*buffer).0 }
}

/// How many copies `pl330_check_main` checks.
const CASES: usize = 9;

/// An 8-slot TDM receive buffer of 256 frames of `i32` (slot `c` of frame `f` at `8 f + c`),
/// de-interleaved into 8 planar channel blocks.
const SLOTS: usize = 8;
const TDM_FRAMES: usize = 256;
static mut M_SRC: Aligned<[i32; SLOTS * TDM_FRAMES]> = Aligned([0; SLOTS * TDM_FRAMES]);
static mut M_DST: Aligned<[i32; SLOTS * TDM_FRAMES]> = Aligned([0; SLOTS * TDM_FRAMES]);
static mut M_CPU: Aligned<[i32; SLOTS * TDM_FRAMES]> = Aligned([0; SLOTS * TDM_FRAMES]);

/// A 16 × 16 square of a 64-pixel-wide `u32` image, filled from one value.
const SQUARE: usize = 16;
const WIDTH: usize = 64;
static mut K_SRC: Aligned<[u32; 1]> = Aligned([0; 1]);
static mut K_DST: Aligned<[u32; SQUARE * WIDTH]> = Aligned([0; SQUARE * WIDTH]);
static mut K_CPU: Aligned<[u32; SQUARE * WIDTH]> = Aligned([0; SQUARE * WIDTH]);

/// The entry point `_start` calls.
#[unsafe(no_mangle)]
extern "C" fn pl330_check_main() -> ! {
    // SAFETY: this function runs once (from `_start`, which never returns to it), on the one
    // core, with interrupts masked; each `static mut` is named only here, so each of these
    // references is the only one to its buffer for the rest of the program.
    let (code, t, g, f, s, d, v, p, k, m) = unsafe {
        (
            own(&raw mut CODE),
            [
                own(&raw mut T_SRC),
                own(&raw mut T_DST),
                own(&raw mut T_CPU),
            ],
            (
                own(&raw mut G_SRC),
                own(&raw mut G_DST),
                own(&raw mut G_CPU),
            ),
            (
                own(&raw mut F_SRC),
                own(&raw mut F_DST),
                own(&raw mut F_CPU),
            ),
            [
                own(&raw mut S_SRC),
                own(&raw mut S_DST),
                own(&raw mut S_CPU),
            ],
            [
                own(&raw mut D_SRC),
                own(&raw mut D_DST),
                own(&raw mut D_CPU),
            ],
            [
                own(&raw mut V_SRC),
                own(&raw mut V_DST),
                own(&raw mut V_CPU),
            ],
            [
                own(&raw mut P_SRC),
                own(&raw mut P_DST),
                own(&raw mut P_CPU),
            ],
            (
                own(&raw mut K_SRC),
                own(&raw mut K_DST),
                own(&raw mut K_CPU),
            ),
            [
                own(&raw mut M_SRC),
                own(&raw mut M_DST),
                own(&raw mut M_CPU),
            ],
        )
    };
    let mut all = true;

    // 1. A 64 × 64 `u32` transpose: the destination written column by column.
    let [src, dst, cpu] = t;
    let square = Layout::dense([T_N, T_N], 4, Order::C);
    all &= check(
        1,
        &Case {
            name: "transpose 64x64 u32",
            src: square,
            dst: square.and_then(|l| l.transposed(0, 1)),
            fill: |i| (i as u32).wrapping_mul(0x9E37_79B1) | 1,
        },
        Buffers { src, dst, cpu },
        code,
    );

    // 2. A gather: every third `u16` of 3,000 into a dense buffer of 1,000.
    let (src, dst, cpu) = g;
    all &= check(
        2,
        &Case {
            name: "gather every 3rd u16 of 3000",
            src: Layout::new([G_LEN / 3], [3], 2),
            dst: Layout::dense([G_LEN / 3], 2, Order::C),
            fill: |i| (i + 1) as u16,
        },
        Buffers { src, dst, cpu },
        code,
    );

    // 3. A 32 × 48 × 3 `u8` crop (rows 4.., columns 8..56) of a 40 × 64 × 3 HWC image,
    //    flipped left to right: a negative stride between pixels.
    let (src, dst, cpu) = f;
    let crop = Layout::dense(IMG, 1, Order::C)
        .and_then(|l| {
            l.sliced([
                Slice::new(Some(4), Some(4 + CROP[0] as isize), 1),
                Slice::new(Some(8), Some(8 + CROP[1] as isize), 1),
                Slice::FULL,
            ])
        })
        .and_then(|l| l.flipped(1));
    all &= check(
        3,
        &Case {
            name: "hflip crop 32x48x3 u8 of 40x64x3",
            src: crop,
            dst: Layout::dense(CROP, 1, Order::C),
            fill: |i| (i % 251 + 1) as u8,
        },
        Buffers { src, dst, cpu },
        code,
    );

    // 4. Planar stereo to interleaved frames: 2 × 1024 `i16` to 1024 × 2.
    let [src, dst, cpu] = s;
    all &= check(
        4,
        &Case {
            name: "planar->interleaved stereo 2x1024 i16",
            src: Layout::dense([2, FRAMES], 2, Order::C),
            dst: Layout::dense([2, FRAMES], 2, Order::F),
            fill: |i| (i as i16).wrapping_mul(3).wrapping_sub(3001),
        },
        Buffers { src, dst, cpu },
        code,
    );

    // 5. A dense 64 KiB copy of `u32`: bursts of 16 beats.
    let [src, dst, cpu] = d;
    let dense = Layout::dense([D_LEN], 4, Order::C);
    all &= check(
        5,
        &Case {
            name: "dense 64 KiB u32",
            src: dense,
            dst: dense,
            fill: |i| ((i as u32) ^ 0xA5A5_0000) | 1,
        },
        Buffers { src, dst, cpu },
        code,
    );

    // 6. A vertical flip of a 64 × 64 `u32` image: bursts along each row, a negative step
    //    from row to row.
    let [src, dst, cpu] = v;
    all &= check(
        6,
        &Case {
            name: "vflip 64x64 u32",
            src: Layout::dense([V_ROWS, V_COLS], 4, Order::C).and_then(|l| l.flipped(0)),
            dst: Layout::dense([V_ROWS, V_COLS], 4, Order::C),
            fill: |i| (i as u32).wrapping_mul(0x0101_0101) | 0x8000_0000,
        },
        Buffers { src, dst, cpu },
        code,
    );

    // 7. CHW to HWC, 3 × 16 × 16 `f32`: the destination is the HWC buffer seen in CHW order.
    let [src, dst, cpu] = p;
    all &= check(
        7,
        &Case {
            name: "CHW->HWC 3x16x16 f32",
            src: Layout::dense(CHW, 4, Order::C),
            dst: Layout::dense([CHW[1], CHW[2], CHW[0]], 4, Order::C)
                .and_then(|l| l.permuted([2, 0, 1])),
            fill: |i| i as f32 + 0.5,
        },
        Buffers { src, dst, cpu },
        code,
    );

    // 8. A fill: a 16 × 16 square of a 64-pixel-wide `u32` image set to one value, as a copy
    //    from a source whose strides are all 0 (the engine reads the value again each time).
    let (src, dst, cpu) = k;
    all &= check(
        8,
        &Case {
            name: "fill 16x16 of a 64-wide u32 image",
            src: Layout::new([SQUARE, SQUARE], [0, 0], 4),
            dst: Layout::new([SQUARE, SQUARE], [WIDTH as isize, 1], 4),
            fill: |_| 0xC0FF_EE01,
        },
        Buffers { src, dst, cpu },
        code,
    );

    // 9. An 8-slot TDM frame de-interleaved: 256 frames of 8 `i32` slots into 8 planar
    //    channel blocks.
    let [src, dst, cpu] = m;
    all &= check(
        9,
        &Case {
            name: "TDM 8-slot de-interleave 256 frames i32",
            src: Layout::dense([SLOTS, TDM_FRAMES], 4, Order::F),
            dst: Layout::dense([SLOTS, TDM_FRAMES], 4, Order::C),
            fill: |i| (i as i32).wrapping_mul(-7919).wrapping_add(12345),
        },
        Buffers { src, dst, cpu },
        code,
    );

    let mut line = Line::new();
    if all {
        let _ = write!(line, "pl330: all {CASES} cases ok");
    } else {
        let _ = write!(line, "pl330: FAILED (not every one of the {CASES} cases)");
    }
    line.send();
    semihosting::exit(all)
}

#[panic_handler]
fn panic(info: &PanicInfo) -> ! {
    let mut line = Line::new();
    let _ = write!(line, "panic: {}", info.message());
    if let Some(at) = info.location() {
        let _ = write!(line, " at {}:{}", at.file(), at.line());
    }
    line.send();
    semihosting::exit(false)
}
