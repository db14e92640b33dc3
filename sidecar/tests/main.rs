//! The sidecar's integration tests: the very apps `run()` serves, a real process, and
//! backups, one module per concern.

// Integration tests: a panic is the test failing (clippy.toml allows it only in #[test] code).
#![allow(clippy::unwrap_used, clippy::expect_used)]

// First: the modules after it use its macros.
#[macro_use]
mod common;
mod abuse;
mod account;
mod admin_api;
mod alerts;
mod audit_events;
mod backup;
mod contact_api;
mod contact_delivery;
mod edge;
mod faults;
mod git_default;
mod git_forge;
mod git_hosted;
mod git_receive;
mod git_sync;
mod history;
mod inbox;
mod launch;
mod metrics;
mod origins;
mod panel_api;
mod pre_push;
mod process;
mod restart;
mod restic;
mod serve;
mod static_http;
mod stats_api;
mod team_api;
