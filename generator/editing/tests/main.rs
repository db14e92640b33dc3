//! The editing crate's integration tests: every document round-trips, and an edited site
//! still builds and previews.

#[path = "../../site/tests/common/mod.rs"]
mod common;
mod editing;
mod preview;
