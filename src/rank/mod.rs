//! Rank changes.
