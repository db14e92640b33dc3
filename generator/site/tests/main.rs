//! The site's integration tests on copies of the real project, one module per concern.

// Integration tests: a panic is the test failing (clippy.toml allows it only in #[test] code).
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod common;
mod edge;
mod hostile;
mod images;
mod incremental;
mod islands;
mod render;
mod schedule;
mod validation;
