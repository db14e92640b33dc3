//! `make dev`'s watcher: `content/`, `templates/` and `islands/src/`, debounced, rebuilt on
//! change (the whole server only: the public site's server alone has no `make dev`).

use actix_web::web;
use notify_debouncer_mini::{new_debouncer, notify::RecursiveMode, DebounceEventResult};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::serve::dev::Dev;
use crate::serve::site::SiteState;

fn rebuild_islands(root: &Path) -> Result<(), String> {
    let out = subprocess::command(site::islands::node_binary())
        .arg("build.mjs")
        .current_dir(root.join("islands"))
        .output()
        .map_err(|e| format!("cannot run node islands/build.mjs: {e}"))?;
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).into_owned())
    }
}

fn touches_islands(paths: &[PathBuf], root: &Path) -> bool {
    let src = root.join("islands").join("src");
    paths.iter().any(|p| p.starts_with(&src))
}

/// Size and modification time of a path, or `None` if it is gone.
type Stamp = Option<(u64, std::time::SystemTime)>;

fn stamp(path: &Path) -> Stamp {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.len(), meta.modified().ok()?))
}

/// Keeps the paths whose size, time or existence changed since they were last seen: reading
/// a file (as every build does) raises events too, and must not start another build.
fn really_changed(seen: &Mutex<HashMap<PathBuf, Stamp>>, paths: Vec<PathBuf>) -> Vec<PathBuf> {
    let Ok(mut seen) = seen.lock() else {
        return paths;
    };
    paths
        .into_iter()
        .filter(|p| {
            let now = stamp(p);
            seen.insert(p.clone(), now) != Some(now)
        })
        .collect()
}

fn stamps_under(root: &Path) -> HashMap<PathBuf, Stamp> {
    ["content", "templates", "islands/src"]
        .iter()
        .flat_map(|dir| walkdir::WalkDir::new(root.join(dir)).into_iter().flatten())
        .map(|e| (e.path().to_path_buf(), stamp(e.path())))
        .collect()
}

/// Watches `content/`, `templates/` and `islands/src/` (debounced) and rebuilds on change.
pub fn watch(
    site: web::Data<SiteState>,
    dev: Arc<Dev>,
    root: PathBuf,
) -> Result<impl Drop, String> {
    let root_for_events = root.clone();
    let seen = Mutex::new(stamps_under(&root));
    let mut debouncer = new_debouncer(
        Duration::from_millis(150),
        move |result: DebounceEventResult| {
            let Ok(events) = result else { return };
            let paths: Vec<PathBuf> = events
                .into_iter()
                .map(|e| e.path)
                .filter(|p| !p.to_string_lossy().contains(".saving"))
                .collect();
            let paths = really_changed(&seen, paths);
            if paths.is_empty() {
                return;
            }
            let islands = if touches_islands(&paths, &root_for_events) {
                rebuild_islands(&root_for_events)
            } else {
                Ok(())
            };
            let result =
                islands.and_then(|()| site.rebuild().map(|_| ()).map_err(|e| e.to_string()));
            match &result {
                Ok(()) => tracing::info!(changed = paths.len(), "rebuilt after a change"),
                Err(e) => tracing::warn!("build failed: {e}"),
            }
            dev.report(result);
        },
    )
    .map_err(|e| e.to_string())?;
    for dir in ["content", "templates", "islands/src"]
        .iter()
        .filter(|d| root.join(d).is_dir())
    {
        debouncer
            .watcher()
            .watch(&root.join(dir), RecursiveMode::Recursive)
            .map_err(|e| format!("cannot watch {dir}: {e}"))?;
    }
    Ok(debouncer)
}
