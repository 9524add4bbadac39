//! GPU hosts: packing a layout for a kernel, the C++ header, fast division, DLPack and TMA.
