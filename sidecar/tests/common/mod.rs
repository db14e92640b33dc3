//! Helpers shared by the sidecar's integration tests.
#![allow(dead_code)]

use actix_web::web;
use std::path::{Path, PathBuf};

pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A configuration that keeps everything under `dir`, with `extra` variables on top.
pub fn config(dir: &Path, extra: &[(&str, &str)]) -> sidecar::Config {
    let root = repo_root();
    let data = dir.join("var");
    let dist = dir.join("dist");
    sidecar::Config::from_lookup(|key| {
        if let Some((_, v)) = extra.iter().find(|(k, _)| *k == key) {
            return Some(v.to_string());
        }
        match key {
            "SITE_ROOT" => Some(root.to_string_lossy().into_owned()),
            "DATA_DIR" => Some(data.to_string_lossy().into_owned()),
            "DIST_DIR" => Some(dist.to_string_lossy().into_owned()),
            _ => None,
        }
    })
    .expect("test configuration is valid")
}

/// The app state for `config`, with the real site's facts.
pub fn state(config: &sidecar::Config) -> web::Data<sidecar::AppState> {
    let content =
        generator::load(&generator::Project::at(&repo_root())).expect("the real content loads");
    web::Data::new(sidecar::AppState::open(config, &content.site).expect("state opens"))
}

/// Builds the real site into `dir/dist`.
pub fn build_site(dir: &Path) -> PathBuf {
    let dist = dir.join("dist");
    generator::build(&generator::Project::at(&repo_root()), &dist).expect("the real site builds");
    dist
}

pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}
