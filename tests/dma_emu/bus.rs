//! A 32-bit bus for the DMA emulators: a few byte regions at bus addresses, with a count of
//! the writes each byte received (so a test sees every element written exactly once, and
//! nothing written outside the destination).

use std::fmt;

/// Why an emulated engine stopped short.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EmuError {
    /// An access to an address no region holds.
    Unmapped { addr: u32, len: usize },
    /// The engine's documented rules refuse the descriptor (the text says which).
    Config(String),
    /// The chain would not stop by itself (the emulator gave up after its step budget, or the
    /// channel would restart).
    Runaway,
}

impl fmt::Display for EmuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Unmapped { addr, len } => {
                write!(f, "unmapped access of {len} bytes at {addr:#010x}")
            }
            Self::Config(s) => write!(f, "configuration error: {s}"),
            Self::Runaway => f.write_str("the chain does not stop"),
        }
    }
}

/// Byte regions at bus addresses, each byte with its write count.
#[derive(Clone, Debug, Default)]
pub struct Bus {
    regions: Vec<Region>,
}

#[derive(Clone, Debug)]
struct Region {
    base: u32,
    bytes: Vec<u8>,
    writes: Vec<u32>,
}

impl Bus {
    pub fn new() -> Self {
        Self::default()
    }

    /// Maps `bytes` at `base` (regions must not overlap).
    pub fn add(&mut self, base: u32, bytes: Vec<u8>) {
        let end = u64::from(base) + bytes.len() as u64;
        assert!(end <= 1 << 32, "region past the 32-bit bus");
        for r in &self.regions {
            let r_end = u64::from(r.base) + r.bytes.len() as u64;
            assert!(
                end <= u64::from(r.base) || r_end <= u64::from(base),
                "regions overlap"
            );
        }
        let writes = vec![0; bytes.len()];
        self.regions.push(Region {
            base,
            bytes,
            writes,
        });
    }

    fn find(&self, addr: u32, len: usize) -> Result<(usize, usize), EmuError> {
        for (i, r) in self.regions.iter().enumerate() {
            if addr >= r.base {
                let at = (addr - r.base) as usize;
                if at.checked_add(len).is_some_and(|e| e <= r.bytes.len()) {
                    return Ok((i, at));
                }
            }
        }
        Err(EmuError::Unmapped { addr, len })
    }

    /// The bytes of the region mapped at `base`.
    pub fn region(&self, base: u32) -> &[u8] {
        &self
            .regions
            .iter()
            .find(|r| r.base == base)
            .expect("no region there")
            .bytes
    }

    /// How many times each byte of the region at `base` was written.
    pub fn writes(&self, base: u32) -> &[u32] {
        &self
            .regions
            .iter()
            .find(|r| r.base == base)
            .expect("no region there")
            .writes
    }

    /// Reads `len` bytes at `addr` (all in one region).
    pub fn read(&self, addr: u32, len: usize) -> Result<Vec<u8>, EmuError> {
        let (i, at) = self.find(addr, len)?;
        Ok(self.regions[i].bytes[at..at + len].to_vec())
    }

    /// Writes `bytes` at `addr` (all in one region), counting the writes.
    pub fn write(&mut self, addr: u32, bytes: &[u8]) -> Result<(), EmuError> {
        let (i, at) = self.find(addr, bytes.len())?;
        let r = &mut self.regions[i];
        r.bytes[at..at + bytes.len()].copy_from_slice(bytes);
        for w in &mut r.writes[at..at + bytes.len()] {
            *w += 1;
        }
        Ok(())
    }

    /// A little-endian `u16` at `addr`.
    pub fn read_u16(&self, addr: u32) -> Result<u16, EmuError> {
        let b = self.read(addr, 2)?;
        Ok(u16::from_le_bytes([b[0], b[1]]))
    }

    /// A little-endian `u32` at `addr`.
    pub fn read_u32(&self, addr: u32) -> Result<u32, EmuError> {
        let b = self.read(addr, 4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

impl Bus {
    /// Writes a little-endian `u16` at `addr` (counted like any write).
    pub fn write_u16(&mut self, addr: u32, value: u16) -> Result<(), EmuError> {
        self.write(addr, &value.to_le_bytes())
    }

    /// Writes a little-endian `u32` at `addr` (counted like any write).
    pub fn write_u32(&mut self, addr: u32, value: u32) -> Result<(), EmuError> {
        self.write(addr, &value.to_le_bytes())
    }

    /// A little-endian `i16` at `addr`.
    pub fn read_i16(&self, addr: u32) -> Result<i16, EmuError> {
        Ok(self.read_u16(addr)? as i16)
    }

    /// The `N` bytes at `addr` as an array (a whole descriptor, say).
    pub fn read_array<const N: usize>(&self, addr: u32) -> Result<[u8; N], EmuError> {
        let b = self.read(addr, N)?;
        let mut out = [0; N];
        out.copy_from_slice(&b);
        Ok(out)
    }
}

/// Little-endian field readers over a descriptor's bytes (`at` must lie inside `bytes`).
pub fn le_u16(bytes: &[u8], at: usize) -> u16 {
    u16::from_le_bytes([bytes[at], bytes[at + 1]])
}

/// See [`le_u16`].
pub fn le_u32(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// Counts an emulator's steps (transfers, instructions) against its budget: past it, the chain
/// is taken not to stop by itself.
#[derive(Clone, Copy, Debug)]
pub struct Steps {
    done: u64,
    budget: u64,
}

impl Steps {
    pub fn new(budget: u64) -> Self {
        Self { done: 0, budget }
    }

    /// One more step, or [`EmuError::Runaway`] past the budget.
    pub fn take(&mut self) -> Result<(), EmuError> {
        self.done += 1;
        if self.done > self.budget {
            Err(EmuError::Runaway)
        } else {
            Ok(())
        }
    }
}
