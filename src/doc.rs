//! Guides: documentation modules with no code.
