//! The editing crate's integration tests: every document round-trips, and an edited site
//! still builds and previews.

// Integration tests: a panic is the test failing (clippy.toml allows it only in #[test] code).
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../../site/tests/common/mod.rs"]
mod common;
mod editing;
mod preview;
