//! Serves the built site from memory with clean URLs: `/uslugi` is `uslugi/index.html`, and
//! `/uslugi/` or `/uslugi/index.html` redirect to `/uslugi` — only ever to a page that exists,
//! built from the checked path, never from what the request wrote. An old address of a page
//! (`aliases:`) answers 301 with its route. Each file carries the `Cache-Control` of the
//! build's rules, the same the edge's `_headers` and nginx locations send: the sidecar is
//! the origin a CDN or nginx would fetch from, and its own ETag makes a revalidation cheap.

use actix_web::http::header::{self, HeaderValue};
use actix_web::http::{Method, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use std::sync::Arc;

use crate::site::{Encoding, Site, StaticFile};
use crate::AppState;

#[derive(Debug, PartialEq, Eq)]
pub enum Resolved {
    /// The file's path in the build.
    File(String),
    Redirect(String),
    NotFound,
}

/// A path segment a visitor may ask for: no hidden or server files (`.x`, `_headers`), no
/// `.`/`..`, no control characters, whitespace or backslashes.
fn allowed(segment: &str) -> bool {
    !segment.is_empty()
        && !segment.starts_with('.')
        && !segment.starts_with('_')
        && !segment
            .chars()
            .any(|c| c.is_control() || c.is_whitespace() || c == '\\')
}

/// Maps a URL path to a file of `site`, a redirect to another of its files, or nothing.
pub fn resolve(site: &Site, url_path: &str) -> Resolved {
    let Ok(decoded) = percent_encoding::percent_decode_str(url_path).decode_utf8() else {
        return Resolved::NotFound;
    };
    if decoded == "/" {
        return Resolved::File("index.html".into());
    }
    let Some(rest) = decoded.strip_prefix('/') else {
        return Resolved::NotFound;
    };
    let trailing = rest.ends_with('/');
    let segments: Vec<&str> = rest.strip_suffix('/').unwrap_or(rest).split('/').collect();
    // `/.well-known/` (RFC 8615: `security.txt`) is the one hidden folder that is served.
    let well_known = segments.len() > 1 && segments[0] == ".well-known";
    let checked = if well_known {
        &segments[1..]
    } else {
        &segments[..]
    };
    if !checked.iter().all(|s| allowed(s)) {
        return Resolved::NotFound;
    }
    let has = |path: &str| site.files.contains_key(path);
    let index_of = |segments: &[&str]| match segments {
        [] => "index.html".to_string(),
        _ => format!("{}/index.html", segments.join("/")),
    };
    let clean = |segments: &[&str]| format!("/{}", segments.join("/"));
    if segments.last() == Some(&"index.html") && !trailing {
        let dir = &segments[..segments.len() - 1];
        return match has(&index_of(dir)) {
            true => Resolved::Redirect(clean(dir)),
            false => Resolved::NotFound,
        };
    }
    if trailing {
        return match has(&index_of(&segments)) {
            true => Resolved::Redirect(clean(&segments)),
            false => Resolved::NotFound,
        };
    }
    let path = segments.join("/");
    if has(&path) {
        Resolved::File(path)
    } else if has(&index_of(&segments)) {
        Resolved::File(index_of(&segments))
    } else {
        Resolved::NotFound
    }
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

fn not_found(site: &Site) -> HttpResponse {
    let body = site.files.get("404.html").map_or_else(
        || bytes::Bytes::from_static(b"404 Not Found"),
        |f| f.raw.clone(),
    );
    HttpResponse::NotFound()
        .content_type("text/html; charset=utf-8")
        .insert_header((header::CACHE_CONTROL, site::headers::NOT_FOUND_CACHE))
        .body(body)
}

/// The answer with `file`, kept by caches as `cache` says; `dev_client`: a page gets the
/// reloading client of `make dev`.
pub(crate) fn file_response(
    req: &HttpRequest,
    file: &StaticFile,
    cache: &str,
    dev_client: bool,
) -> HttpResponse {
    let fresh = req
        .headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        == Some(file.etag.as_str());
    let mut response = if fresh {
        HttpResponse::NotModified().finish()
    } else {
        let (body, encoding) = match dev_client && file.content_type.starts_with("text/html") {
            true => (bytes::Bytes::from(crate::dev::inject(&file.raw)), None),
            false => file.body(negotiate(req)),
        };
        let mut builder = HttpResponse::Ok();
        builder.content_type(file.content_type.as_str());
        if let Some(encoding) = encoding {
            builder.insert_header((header::CONTENT_ENCODING, encoding));
        }
        builder.body(body)
    };
    let headers = response.headers_mut();
    if let Ok(value) = HeaderValue::from_str(cache) {
        headers.insert(header::CACHE_CONTROL, value);
    }
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
    if let Ok(value) = HeaderValue::from_str(&file.etag) {
        headers.insert(header::ETAG, value);
    }
    response
}

/// The route an old address of a page answers with.
fn alias<'a>(site: &'a Site, url_path: &str) -> Option<&'a str> {
    if site.redirects.is_empty() {
        return None;
    }
    let decoded = percent_encoding::percent_decode_str(url_path)
        .decode_utf8()
        .ok()?;
    site.redirects.get(decoded.as_ref()).map(String::as_str)
}

pub async fn serve(req: HttpRequest, state: web::Data<AppState>) -> HttpResponse {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return HttpResponse::MethodNotAllowed()
            .insert_header((header::ALLOW, "GET, HEAD"))
            .body("Ta metoda nie jest obsługiwana.");
    }
    let site: Arc<Site> = state.site.live.current();
    let panel = req.path().trim_end_matches('/');
    if site.panel.contains_key(panel) {
        // The panel lives on its own origin: nothing of it is served here.
        return HttpResponse::Found()
            .insert_header((header::LOCATION, format!("{}{panel}", state.origins.admin)))
            .insert_header((header::CACHE_CONTROL, site::headers::NOT_FOUND_CACHE))
            .finish();
    }
    if let Some(to) = alias(&site, req.path()) {
        let location = match req.uri().query() {
            Some(query) => format!("{to}?{query}"),
            None => to.to_string(),
        };
        return HttpResponse::MovedPermanently()
            .insert_header((header::LOCATION, location))
            .insert_header((header::CACHE_CONTROL, site.cache_control(req.path())))
            .finish();
    }
    match resolve(&site, req.path()) {
        Resolved::File(path) => match site.files.get(&path) {
            // `make dev` reloads tabs after every change: nothing may be kept there.
            Some(file) => match state.dev {
                Some(_) => file_response(&req, file, "no-cache", true),
                None => file_response(&req, file, site.cache_control(req.path()), false),
            },
            None => not_found(&site),
        },
        Resolved::Redirect(mut location) => {
            if let Some(query) = req.uri().query() {
                location = format!("{location}?{query}");
            }
            HttpResponse::build(StatusCode::PERMANENT_REDIRECT)
                .insert_header((header::LOCATION, location))
                .finish()
        }
        Resolved::NotFound => not_found(&site),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn site() -> Site {
        let files: HashMap<String, Arc<StaticFile>> = [
            "index.html",
            "uslugi/index.html",
            "uslugi/terapia-par/index.html",
            "assets/style.abc.css",
            "_headers",
            ".well-known/security.txt",
            ".well-known/.hidden",
            ".git/config",
        ]
        .iter()
        .map(|p| {
            let output = site::Output::new(*p, *p);
            (p.to_string(), Arc::new(StaticFile::new(&output)))
        })
        .collect();
        Site {
            files,
            headers: Vec::new(),
            renderer: None,
            number: 1,
            id: "test".into(),
            redirects: [("/stary-adres".to_string(), "/uslugi".to_string())].into(),
            panel: HashMap::new(),
            panel_headers: Vec::new(),
        }
    }

    #[test]
    fn clean_urls_map_to_index_files() {
        let s = site();
        assert_eq!(resolve(&s, "/"), Resolved::File("index.html".into()));
        assert_eq!(
            resolve(&s, "/uslugi"),
            Resolved::File("uslugi/index.html".into())
        );
        assert_eq!(
            resolve(&s, "/uslugi/"),
            Resolved::Redirect("/uslugi".into())
        );
        assert_eq!(
            resolve(&s, "/uslugi/index.html"),
            Resolved::Redirect("/uslugi".into())
        );
        assert_eq!(resolve(&s, "/index.html"), Resolved::Redirect("/".into()));
        assert_eq!(
            resolve(&s, "/assets/style.abc.css"),
            Resolved::File("assets/style.abc.css".into())
        );
        assert_eq!(
            resolve(&s, "/.well-known/security.txt"),
            Resolved::File(".well-known/security.txt".into())
        );
    }

    #[test]
    fn nothing_outside_the_site_is_served_or_redirected_to() {
        let s = site();
        for bad in [
            "/../etc/passwd",
            "/%2e%2e/etc/passwd",
            "/uslugi/..",
            "/.hidden",
            "/_headers",
            "/.git/config",
            "/.well-known/.hidden",
            "/.well-known/",
            "/.well-known",
            "/%2ewell-known/../.git/config",
            "/nie-ma",
            "/nie-ma/",
            "/%09/evil.example/index.html",
            "//evil.example/index.html",
            "/%2F%2Fevil.example/index.html",
            "/uslugi%0d%0aLocation:%20x/",
            "/ uslugi/",
            "/evil.example/",
        ] {
            assert_eq!(resolve(&s, bad), Resolved::NotFound, "{bad}");
        }
    }

    #[test]
    fn an_old_address_is_found_written_or_encoded_and_nothing_else_is() {
        let s = site();
        assert_eq!(alias(&s, "/stary-adres"), Some("/uslugi"));
        assert_eq!(alias(&s, "/stary%2Dadres"), Some("/uslugi"));
        assert_eq!(alias(&s, "/stary-adres/"), None);
        assert_eq!(alias(&s, "/uslugi"), None);
    }
}
