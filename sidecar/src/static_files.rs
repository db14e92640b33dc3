//! Serves the published `dist/` with clean URLs: `/uslugi` is `dist/uslugi/index.html`,
//! `/uslugi/` and `/uslugi/index.html` redirect to `/uslugi`.

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::UNIX_EPOCH;

/// Published files kept in memory, each compressed at most once per encoding. The key holds
/// size and modification time, so a new build's files are new entries.
#[derive(Default)]
pub struct FileCache {
    entries: Mutex<HashMap<(PathBuf, u64, u128), Arc<Cached>>>,
}

/// A site this small fits in memory many times over; old builds' entries are dropped past this.
const MAX_CACHED: usize = 4096;

pub struct Cached {
    raw: web::Bytes,
    gzip: OnceLock<web::Bytes>,
    brotli: OnceLock<web::Bytes>,
    etag: String,
    content_type: String,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Encoding {
    Brotli,
    Gzip,
    Identity,
}

fn compressible(content_type: &str) -> bool {
    content_type.starts_with("text/")
        || ["javascript", "json", "xml", "svg"]
            .iter()
            .any(|t| content_type.contains(t))
}

/// The best encoding the client accepts (brotli, then gzip).
fn negotiate(req: &HttpRequest) -> Encoding {
    let accepted = req
        .headers()
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
    let has = |name: &str| {
        accepted
            .split(',')
            .any(|e| e.split(';').next().is_some_and(|n| n.trim() == name))
    };
    if has("br") {
        Encoding::Brotli
    } else if has("gzip") {
        Encoding::Gzip
    } else {
        Encoding::Identity
    }
}

impl Cached {
    fn body(&self, encoding: Encoding) -> (web::Bytes, Option<&'static str>) {
        if !compressible(&self.content_type) {
            return (self.raw.clone(), None);
        }
        match encoding {
            Encoding::Brotli => {
                let bytes = self.brotli.get_or_init(|| {
                    let mut out = Vec::new();
                    let params = brotli::enc::BrotliEncoderParams {
                        quality: 9,
                        ..Default::default()
                    };
                    let _ = brotli::BrotliCompress(&mut self.raw.as_ref(), &mut out, &params);
                    web::Bytes::from(out)
                });
                (bytes.clone(), Some("br"))
            }
            Encoding::Gzip => {
                let bytes = self.gzip.get_or_init(|| {
                    let mut encoder =
                        flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::new(9));
                    let _ = encoder.write_all(&self.raw);
                    web::Bytes::from(encoder.finish().unwrap_or_default())
                });
                (bytes.clone(), Some("gzip"))
            }
            Encoding::Identity => (self.raw.clone(), None),
        }
    }
}

impl FileCache {
    /// The file from memory, reading it if it is new or changed.
    async fn get(&self, path: PathBuf) -> Option<Arc<Cached>> {
        let meta = std::fs::metadata(&path).ok()?;
        let modified = meta
            .modified()
            .ok()?
            .duration_since(UNIX_EPOCH)
            .ok()?
            .as_nanos();
        let key = (path.clone(), meta.len(), modified);
        if let Some(hit) = self.entries.lock().ok()?.get(&key) {
            return Some(Arc::clone(hit));
        }
        let raw = web::block(move || std::fs::read(&path)).await.ok()?.ok()?;
        let cached = Arc::new(Cached {
            content_type: content_type(&key.0),
            etag: format!("\"{:x}-{:x}\"", key.1, key.2),
            raw: web::Bytes::from(raw),
            gzip: OnceLock::new(),
            brotli: OnceLock::new(),
        });
        let mut entries = self.entries.lock().ok()?;
        if entries.len() >= MAX_CACHED {
            entries.clear();
        }
        entries.insert(key, Arc::clone(&cached));
        Some(cached)
    }
}

/// The folder the site is served from (a link that publishing swaps).
#[derive(Debug, Clone)]
pub struct Root(pub PathBuf);

#[derive(Debug, PartialEq, Eq)]
pub enum Resolved {
    File(PathBuf),
    Redirect(String),
    NotFound,
}

/// Maps a URL path to a file under `root`, a redirect, or nothing.
pub fn resolve(root: &Path, url_path: &str) -> Resolved {
    let Ok(decoded) = percent_encoding::percent_decode_str(url_path).decode_utf8() else {
        return Resolved::NotFound;
    };
    let segments: Vec<&str> = decoded.split('/').filter(|s| !s.is_empty()).collect();
    // `.hidden` files and `_headers` are for the server and CDNs, not for visitors.
    let unsafe_segment = |s: &&str| {
        *s == "."
            || *s == ".."
            || s.contains(['\\', '\0'])
            || s.starts_with('.')
            || s.starts_with('_')
    };
    if !decoded.starts_with('/') || segments.iter().any(unsafe_segment) {
        return Resolved::NotFound;
    }
    let clean = |segments: &[&str]| format!("/{}", segments.join("/"));
    if segments.last() == Some(&"index.html") {
        return Resolved::Redirect(clean(&segments[..segments.len() - 1]));
    }
    let path = segments.iter().fold(root.to_path_buf(), |p, s| p.join(s));
    let index = path.join("index.html");
    if decoded.len() > 1 && decoded.ends_with('/') {
        return if index.is_file() {
            Resolved::Redirect(clean(&segments))
        } else {
            Resolved::NotFound
        };
    }
    if path.is_file() {
        Resolved::File(path)
    } else if index.is_file() {
        Resolved::File(index)
    } else {
        Resolved::NotFound
    }
}

/// Content-hashed assets never change; everything else is revalidated.
fn cache_control(url_path: &str) -> &'static str {
    if url_path.starts_with("/assets/") {
        "public, max-age=31536000, immutable"
    } else {
        "public, max-age=0, must-revalidate"
    }
}

fn content_type(path: &Path) -> String {
    let mime = mime_guess::from_path(path).first_or_octet_stream();
    match mime.type_() {
        mime_guess::mime::TEXT | mime_guess::mime::APPLICATION
            if mime.subtype() != mime_guess::mime::OCTET_STREAM =>
        {
            format!("{mime}; charset=utf-8")
        }
        _ => mime.to_string(),
    }
}

async fn read(path: PathBuf) -> Option<(Vec<u8>, std::fs::Metadata)> {
    web::block(move || {
        let meta = std::fs::metadata(&path).ok()?;
        let bytes = std::fs::read(&path).ok()?;
        Some((bytes, meta))
    })
    .await
    .ok()
    .flatten()
}

async fn not_found(root: &Path) -> HttpResponse {
    let page = read(root.join("404.html")).await;
    let body = page.map_or_else(|| b"404 Not Found".to_vec(), |(bytes, _)| bytes);
    HttpResponse::NotFound()
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, "no-cache"))
        .body(body)
}

pub async fn serve(req: HttpRequest, root: web::Data<Root>) -> HttpResponse {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return HttpResponse::MethodNotAllowed()
            .insert_header((header::ALLOW, "GET, HEAD"))
            .body("Ta metoda nie jest obsługiwana.");
    }
    let file = match resolve(&root.0, req.path()) {
        Resolved::File(file) => file,
        Resolved::Redirect(mut location) => {
            if let Some(query) = req.uri().query() {
                location = format!("{location}?{query}");
            }
            return HttpResponse::build(StatusCode::PERMANENT_REDIRECT)
                .insert_header((header::LOCATION, location))
                .finish();
        }
        Resolved::NotFound => return not_found(&root.0).await,
    };
    let cache = req
        .app_data::<web::Data<crate::AppState>>()
        .map(|s| Arc::clone(&s.files));
    let cached = match cache {
        Some(cache) => cache.get(file.clone()).await,
        None => FileCache::default().get(file.clone()).await,
    };
    let Some(cached) = cached else {
        return not_found(&root.0).await;
    };
    let mut response = if req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        == Some(cached.etag.as_str())
    {
        HttpResponse::NotModified().finish()
    } else {
        let dev = req.app_data::<web::Data<Arc<crate::dev::Dev>>>().is_some();
        let (body, encoding) = if dev && file.extension().is_some_and(|e| e == "html") {
            (web::Bytes::from(crate::dev::inject(&cached.raw)), None)
        } else {
            cached.body(negotiate(&req))
        };
        let mut builder = HttpResponse::Ok();
        builder.content_type(cached.content_type.as_str());
        if let Some(encoding) = encoding {
            builder.insert_header((header::CONTENT_ENCODING, encoding));
        }
        builder.body(body)
    };
    let headers = response.headers_mut();
    headers.insert(
        header::CACHE_CONTROL,
        HeaderValue::from_static(cache_control(req.path())),
    );
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if let Ok(value) = HeaderValue::from_str(&cached.etag) {
        headers.insert(header::ETAG, value);
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    fn site() -> tempfile::TempDir {
        let dir = tempfile::tempdir().expect("test setup");
        for f in [
            "index.html",
            "uslugi/index.html",
            "uslugi/terapia-par/index.html",
            "assets/style.abc.css",
        ] {
            let p = dir.path().join(f);
            std::fs::create_dir_all(p.parent().expect("test setup")).expect("test setup");
            std::fs::write(p, f).expect("test setup");
        }
        dir
    }

    #[test]
    fn clean_urls_map_to_index_files() {
        let d = site();
        assert_eq!(
            resolve(d.path(), "/"),
            Resolved::File(d.path().join("index.html"))
        );
        assert_eq!(
            resolve(d.path(), "/uslugi"),
            Resolved::File(d.path().join("uslugi/index.html"))
        );
        assert_eq!(
            resolve(d.path(), "/uslugi/"),
            Resolved::Redirect("/uslugi".into())
        );
        assert_eq!(
            resolve(d.path(), "/uslugi/index.html"),
            Resolved::Redirect("/uslugi".into())
        );
        assert_eq!(
            resolve(d.path(), "/index.html"),
            Resolved::Redirect("/".into())
        );
    }

    #[test]
    fn paths_cannot_leave_the_root() {
        let d = site();
        for bad in [
            "/../etc/passwd",
            "/%2e%2e/etc/passwd",
            "/uslugi/..",
            "/.hidden",
            "/_headers",
            "/nie-ma",
            "/nie-ma/",
        ] {
            assert_eq!(resolve(d.path(), bad), Resolved::NotFound, "{bad}");
        }
    }

    #[test]
    fn hashed_assets_are_immutable_and_pages_revalidate() {
        assert!(cache_control("/assets/style.abc.css").contains("immutable"));
        assert!(cache_control("/uslugi").contains("must-revalidate"));
    }
}
