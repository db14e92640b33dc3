//! Helpers shared by the sidecar's integration tests.
#![allow(dead_code)]

use actix_web::web;
use std::path::{Path, PathBuf};

pub(crate) fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// A configuration that keeps everything under `dir`, with `extra` variables on top.
pub(crate) fn config(dir: &Path, extra: &[(&str, &str)]) -> sidecar::Config {
    config_for_copy(dir, &repo_root(), extra)
}

/// The app state for `config`, with the real site's facts.
pub(crate) fn state(config: &sidecar::Config) -> web::Data<sidecar::AppState> {
    let content =
        generator::load(&generator::Project::at(&repo_root())).expect("the real content loads");
    let state = sidecar::AppState::open(config, &content.site).expect("state opens");
    state.rebuild().expect("the site builds");
    web::Data::new(state)
}

/// Builds the real site into `dir/dist`.
pub(crate) fn build_site(dir: &Path) -> PathBuf {
    let dist = dir.join("dist");
    generator::build(&generator::Project::at(&repo_root()), &dist).expect("the real site builds");
    dist
}

pub(crate) fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .expect("a free loopback port")
}

fn copy_dir(from: &Path, to: &Path) {
    let walk = walkdir::WalkDir::new(from).into_iter();
    for entry in walk.filter_entry(|e| e.file_name() != "ssr-cache") {
        let entry = entry.expect("walk");
        let target = to.join(entry.path().strip_prefix(from).expect("under source"));
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&target).expect("mkdir");
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// A copy of the project's sources (content, templates, built islands) under `dir/site`,
/// for tests that write content files.
pub(crate) fn site_copy(dir: &Path) -> PathBuf {
    let root = dir.join("site");
    for sub in ["content", "templates", "islands/build"] {
        copy_dir(&repo_root().join(sub), &root.join(sub));
    }
    root
}

/// A configuration over a copy of the site, with `extra` variables first.
pub(crate) fn config_for_copy(dir: &Path, root: &Path, extra: &[(&str, &str)]) -> sidecar::Config {
    let (root, data, dist) = (root.to_path_buf(), dir.join("var"), dir.join("dist"));
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
