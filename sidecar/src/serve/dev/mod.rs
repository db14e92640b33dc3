//! `make dev`: watch the sources, rebuild what changed, reload open tabs, and show a build
//! error over the page instead of stopping; the next good save clears it.

use actix_web::http::header;
use actix_web::{web, HttpResponse};
use std::sync::{Arc, Mutex};
use tokio::sync::broadcast;

#[cfg(feature = "panel")]
pub mod watch;

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

    #[cfg(feature = "panel")]
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
