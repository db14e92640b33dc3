//! The site's integration tests on copies of the real project, one module per concern.

mod common;
mod edge;
mod hostile;
mod images;
mod incremental;
mod islands;
mod render;
mod schedule;
mod validation;
