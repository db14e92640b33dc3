//! `make dev`: watch the sources, rebuild what changed, reload open tabs, and show a build
//! error over the page instead of stopping; the next good save clears it.

use actix_web::http::header;
use actix_web::{web, HttpResponse};
use notify_debouncer_mini::{new_debouncer, notify::RecursiveMode, DebounceEventResult};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::sync::broadcast;

use crate::serve::site::SiteState;

/// The script added to every page in dev mode.
pub const CLIENT_PATH: &str = "/__dev/client.js";

const CLIENT_JS: &str = r#"(function () {
  var overlay;
  function show(text) {
    if (!overlay) {
      overlay = document.createElement("pre");
      overlay.id = "dev-overlay";
      overlay.setAttribute("role", "alert");
      overlay.style.cssText = "position:fixed;inset:0;z-index:9999;margin:0;padding:2rem;overflow:auto;background:rgba(30,20,20,.94);color:#ffd7d7;font:14px/1.5 ui-monospace,monospace;white-space:pre-wrap";
      document.body.appendChild(overlay);
    }
    overlay.textContent = "Błąd budowania strony:\n\n" + text;
  }
  fetch("/__dev/status").then(function (r) { return r.json(); }).then(function (s) { if (s.error) show(s.error); });
  var events = new EventSource("/__dev/events");
  events.addEventListener("reload", function () { location.reload(); });
  events.addEventListener("build-error", function (e) { show(JSON.parse(e.data)); });
})();
"#;

/// What the dev server tells open tabs.
#[derive(Clone, Debug)]
pub enum Event {
    Reload,
    Error(String),
}

pub struct Dev {
    pub events: broadcast::Sender<Event>,
    pub last_error: Mutex<Option<String>>,
}

impl Dev {
    pub fn new() -> Arc<Self> {
        Arc::new(Self {
            events: broadcast::channel(16).0,
            last_error: Mutex::new(None),
        })
    }

    fn report(&self, result: Result<(), String>) {
        let event = match result {
            Ok(()) => Event::Reload,
            Err(e) => Event::Error(e),
        };
        if let Ok(mut last) = self.last_error.lock() {
            *last = match &event {
                Event::Error(e) => Some(e.clone()),
                Event::Reload => None,
            };
        }
        let _ = self.events.send(event);
    }
}

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

async fn client() -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/javascript; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .body(CLIENT_JS)
}

/// The last build's error, if it failed: what the page script of `make dev` shows.
#[derive(serde::Serialize)]
struct DevStatus {
    error: Option<String>,
}

async fn status(dev: web::Data<Arc<Dev>>) -> HttpResponse {
    let error = dev.last_error.lock().ok().and_then(|e| e.clone());
    HttpResponse::Ok()
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .json(DevStatus { error })
}

async fn events(dev: web::Data<Arc<Dev>>) -> HttpResponse {
    let receiver = dev.events.subscribe();
    let stream = futures_util::stream::unfold(receiver, |mut rx| async move {
        loop {
            let chunk = match rx.recv().await {
                Ok(Event::Reload) => "event: reload\ndata: {}\n\n".to_string(),
                Ok(Event::Error(e)) => format!(
                    "event: build-error\ndata: {}\n\n",
                    serde_json::Value::String(e)
                ),
                Err(broadcast::error::RecvError::Lagged(_)) => continue,
                Err(broadcast::error::RecvError::Closed) => return None,
            };
            return Some((Ok::<_, actix_web::Error>(web::Bytes::from(chunk)), rx));
        }
    });
    HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header((header::CACHE_CONTROL, "no-store"))
        .streaming(stream)
}

pub fn configure(dev: Arc<Dev>) -> impl FnOnce(&mut web::ServiceConfig) {
    move |cfg| {
        cfg.app_data(web::Data::new(dev))
            .route(CLIENT_PATH, web::get().to(client))
            .route("/__dev/status", web::get().to(status))
            .route("/__dev/events", web::get().to(events));
    }
}

/// Adds the dev client to an HTML page.
pub fn inject(html: &[u8]) -> Vec<u8> {
    let text = String::from_utf8_lossy(html);
    let tag = format!("<script src=\"{CLIENT_PATH}\" defer></script></body>");
    text.replacen("</body>", &tag, 1).into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_client_is_added_before_the_end_of_the_body() {
        let html =
            String::from_utf8(inject(b"<html><body><p>x</p></body></html>")).expect("test setup");
        assert!(html.ends_with("<script src=\"/__dev/client.js\" defer></script></body></html>"));
    }

    #[test]
    fn a_failed_build_is_remembered_until_a_good_one() {
        let dev = Dev::new();
        dev.report(Err(
            "content/blog/a.md:3: front matter: unknown field".into()
        ));
        assert!(dev
            .last_error
            .lock()
            .expect("test setup")
            .as_deref()
            .expect("test setup")
            .contains("a.md:3"));
        dev.report(Ok(()));
        assert!(dev.last_error.lock().expect("test setup").is_none());
    }
}
