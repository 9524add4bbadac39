//! Test-only emulators of microcontroller DMA engines, written from the engines' reference
//! manuals, that run a descriptor chain over an emulated bus ([`bus::Bus`]) so the tests can
//! check the chains the crate lowers copies into against an independent model of the hardware.
//!
//! Each engine's module documents what it models, what it refuses and what it assumes.

// Each test program uses only some of the engines and helpers.
#![allow(dead_code)]

pub mod bus;
pub mod edma;
pub mod edma3;
pub mod rp;
pub mod gpdma;
pub mod pl330;
