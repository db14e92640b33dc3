//! Serves the built site from memory with clean URLs: `/uslugi` is `uslugi/index.html`, and
//! `/uslugi/` or `/uslugi/index.html` redirect to `/uslugi` — only ever to a page that exists,
//! built from the checked path, never from what the request wrote. An old address of a page
//! (`aliases:`) answers 301 with its route. Each file carries the `Cache-Control` of the
//! build's rules, the same the edge's `_headers` and nginx locations send: the sidecar is
//! the origin a CDN or nginx would fetch from.
//!
//! The HTTP of a file follows RFC 9110 as nginx does, with actix-web's typed headers for every
//! request header it reads: the coding by the q-values of `Accept-Encoding`, a strong ETag per
//! coding, `Last-Modified`, `If-None-Match` (weak comparison, lists, `*`) before
//! `If-Modified-Since`, and one byte range of an uncompressed body (`Range`, `If-Range`).

use actix_web::http::header::{
    self, AcceptEncoding, ContentEncoding, ContentRange, ContentRangeSpec, Encoding, EntityTag,
    Header, HeaderValue, HttpDate, IfModifiedSince, IfNoneMatch, IfRange, Range,
};
use actix_web::http::{Method, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use std::sync::Arc;
use std::time::SystemTime;

use crate::config::Origins;
use crate::serve::dev::Dev;
use crate::serve::site::SiteState;
use crate::serve::site::{Site, StaticFile};

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

/// The coding the client prefers among brotli, gzip and none, by the q-values of its
/// `Accept-Encoding` (`q=0` refuses one; names in any letter case); none when it accepts none.
fn negotiate(req: &HttpRequest) -> ContentEncoding {
    const OFFERED: [Encoding; 3] = [Encoding::brotli(), Encoding::gzip(), Encoding::identity()];
    match AcceptEncoding::parse(req)
        .ok()
        .and_then(|accepted| accepted.negotiate(OFFERED.iter()))
    {
        Some(Encoding::Known(coding)) => coding,
        _ => ContentEncoding::Identity,
    }
}

/// Whether the client's copy is the body it would get (RFC 9110 13.1.1, 13.1.3): a tag of
/// `If-None-Match` equal to `etag` by weak comparison (as a CDN that weakens tags sends it),
/// or `*`; without that header, an `If-Modified-Since` not before `modified`.
fn unchanged(req: &HttpRequest, etag: &EntityTag, modified: SystemTime) -> bool {
    if req.headers().contains_key(header::IF_NONE_MATCH) {
        return match IfNoneMatch::parse(req) {
            Ok(IfNoneMatch::Any) => true,
            Ok(IfNoneMatch::Items(tags)) => tags.iter().any(|tag| tag.weak_eq(etag)),
            Err(_) => false,
        };
    }
    IfModifiedSince::parse(req)
        .is_ok_and(|IfModifiedSince(since)| SystemTime::from(since) >= modified)
}

/// What a GET asks for of a body.
#[derive(Debug, PartialEq, Eq)]
enum Part {
    Whole,
    /// The bytes from the first to the last, both included.
    Bytes(u64, u64),
    Unsatisfiable,
}

/// The part of a `length`-byte body `req` asks for with `Range` (RFC 9110 14.2). One range of
/// bytes is served; several ranges, another unit, nonsense or an `If-Range` that is not this
/// body get the whole body, which the RFC allows.
fn requested_part(req: &HttpRequest, length: u64, etag: &EntityTag, modified: SystemTime) -> Part {
    if req.method() != Method::GET || !req.headers().contains_key(header::RANGE) {
        return Part::Whole;
    }
    let Ok(Range::Bytes(ranges)) = Range::parse(req) else {
        return Part::Whole;
    };
    let [range] = ranges.as_slice() else {
        return Part::Whole;
    };
    if !if_range_holds(req, etag, modified) {
        return Part::Whole;
    }
    match range.to_satisfiable_range(length) {
        Some((first, last)) => Part::Bytes(first, last),
        None => Part::Unsatisfiable,
    }
}

/// `If-Range` names this body: its strong tag, or exactly its date (RFC 9110 13.1.5).
fn if_range_holds(req: &HttpRequest, etag: &EntityTag, modified: SystemTime) -> bool {
    if !req.headers().contains_key(header::IF_RANGE) {
        return true;
    }
    match IfRange::parse(req) {
        Ok(IfRange::EntityTag(tag)) => tag.strong_eq(etag),
        Ok(IfRange::Date(date)) => SystemTime::from(date) == modified,
        Err(_) => false,
    }
}

/// The answer with `file`'s body in `coding`, or the part of it the request asks for.
fn body_response(
    req: &HttpRequest,
    file: &StaticFile,
    coding: ContentEncoding,
    etag: &EntityTag,
    modified: SystemTime,
) -> HttpResponse {
    let body = file.body(coding);
    let length = body.len() as u64;
    // A part of a compressed body is of little use: it is sent whole, as nginx does.
    let part = match coding {
        ContentEncoding::Identity => requested_part(req, length, etag, modified),
        _ => Part::Whole,
    };
    let mut builder = match part {
        Part::Whole => HttpResponse::Ok(),
        Part::Bytes(..) => HttpResponse::PartialContent(),
        Part::Unsatisfiable => {
            return HttpResponse::RangeNotSatisfiable()
                .insert_header(ContentRange(ContentRangeSpec::Bytes {
                    range: None,
                    instance_length: Some(length),
                }))
                .finish()
        }
    };
    builder.content_type(file.content_type.as_str());
    match coding {
        ContentEncoding::Identity => builder.insert_header((header::ACCEPT_RANGES, "bytes")),
        _ => builder.insert_header((header::CONTENT_ENCODING, coding.as_str())),
    };
    match part {
        Part::Bytes(first, last) => builder
            .insert_header(ContentRange(ContentRangeSpec::Bytes {
                range: Some((first, last)),
                instance_length: Some(length),
            }))
            .body(body.slice(first as usize..=last as usize)),
        _ => builder.body(body),
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
    let with_client = dev_client && file.content_type.starts_with("text/html");
    let coding = match with_client {
        true => ContentEncoding::Identity,
        false => file.coding(negotiate(req)),
    };
    let etag = file.etag(coding);
    let modified = file.last_modified();
    let mut response = if unchanged(req, &etag, modified) {
        HttpResponse::NotModified().finish()
    } else if with_client {
        HttpResponse::Ok()
            .content_type(file.content_type.as_str())
            .body(crate::serve::dev::inject(&file.raw))
    } else {
        body_response(req, file, coding, &etag, modified)
    };
    if response.status() == StatusCode::RANGE_NOT_SATISFIABLE {
        // Nothing of the file was sent: nothing for a cache to keep or revalidate.
        return response;
    }
    let headers = response.headers_mut();
    for (name, value) in [
        (header::CACHE_CONTROL, cache.to_string()),
        (header::ETAG, etag.to_string()),
        (header::LAST_MODIFIED, HttpDate::from(modified).to_string()),
    ] {
        if let Ok(value) = HeaderValue::try_from(value) {
            headers.insert(name, value);
        }
    }
    headers.insert(header::VARY, HeaderValue::from_static("accept-encoding"));
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

pub async fn serve(
    req: HttpRequest,
    live: web::Data<SiteState>,
    origins: web::Data<Origins>,
    dev: Option<web::Data<Dev>>,
) -> HttpResponse {
    if req.method() != Method::GET && req.method() != Method::HEAD {
        return HttpResponse::MethodNotAllowed()
            .insert_header((header::ALLOW, "GET, HEAD"))
            .body("Ta metoda nie jest obsługiwana.");
    }
    let site: Arc<Site> = live.live.current();
    let panel = req.path().trim_end_matches('/');
    if site.panel.contains_key(panel) {
        // The panel lives on its own origin: nothing of it is served here (also while the
        // site is held back: the owner finds her panel from the site's address).
        return HttpResponse::Found()
            .insert_header((header::LOCATION, format!("{}{panel}", origins.admin)))
            .insert_header((header::CACHE_CONTROL, site::headers::NOT_FOUND_CACHE))
            .finish();
    }
    if !site.held.is_empty() {
        return crate::serve::launch::not_published();
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
            Some(file) => match dev {
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
            held: Vec::new(),
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

    use actix_web::body::MessageBody;
    use actix_web::http::header::{HeaderName, HttpDate};
    use std::io::Read;
    use std::time::{Duration, SystemTime};

    const CACHE: &str = "public, max-age=60";

    fn file(path: &str, bytes: Vec<u8>) -> StaticFile {
        StaticFile::new(&site::Output::new(path, bytes))
    }

    /// A page long enough to be worth compressing.
    fn page() -> StaticFile {
        file(
            "cennik/index.html",
            "<p>Cennik gabinetu</p>\n".repeat(300).into_bytes(),
        )
    }

    /// A picture: never compressed, and large enough to be asked for in parts.
    fn picture() -> StaticFile {
        file(
            "images/gabinet.jpg",
            (0..=255u8).cycle().take(10_000).collect(),
        )
    }

    fn get(file: &StaticFile, headers: &[(&str, &str)]) -> HttpResponse {
        let mut req = actix_web::test::TestRequest::get().uri("/x");
        for (name, value) in headers {
            req = req.insert_header((*name, *value));
        }
        file_response(&req.to_http_request(), file, CACHE, false)
    }

    fn header(resp: &HttpResponse, name: HeaderName) -> Option<String> {
        let value = resp.headers().get(name)?;
        Some(value.to_str().expect("ASCII header").to_string())
    }

    fn body(resp: HttpResponse) -> Vec<u8> {
        resp.into_body()
            .try_into_bytes()
            .expect("a whole body")
            .to_vec()
    }

    fn decoded(coding: Option<&str>, bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        match coding {
            Some("gzip") => flate2::read::GzDecoder::new(bytes).read_to_end(&mut out),
            Some("br") => brotli::Decompressor::new(bytes, 4096).read_to_end(&mut out),
            _ => return bytes.to_vec(),
        }
        .expect("decodes");
        out
    }

    #[test]
    fn a_weak_tag_a_list_or_a_star_in_if_none_match_answers_304() {
        let page = page();
        let etag = header(&get(&page, &[]), header::ETAG).expect("an ETag");
        for tags in [
            etag.clone(),
            format!("W/{etag}"),
            format!("\"inny\", {etag}"),
            format!("W/\"inny\",W/{etag}"),
            "*".to_string(),
        ] {
            let resp = get(&page, &[("if-none-match", &tags)]);
            assert_eq!(resp.status(), StatusCode::NOT_MODIFIED, "{tags}");
            assert_eq!(header(&resp, header::ETAG).as_ref(), Some(&etag), "{tags}");
            assert_eq!(header(&resp, header::CACHE_CONTROL).as_deref(), Some(CACHE));
            assert!(body(resp).is_empty());
        }
        for tags in ["\"inny\"", "W/\"inny\", \"drugi\"", "nie-znacznik"] {
            let resp = get(&page, &[("if-none-match", tags)]);
            assert_eq!(resp.status(), StatusCode::OK, "{tags}");
        }
    }

    #[test]
    fn each_coding_of_a_file_has_its_own_tag_and_revalidates_with_it() {
        let page = page();
        let codings = ["identity", "gzip", "br"];
        let tags: Vec<String> = codings
            .iter()
            .map(|c| header(&get(&page, &[("accept-encoding", c)]), header::ETAG).expect("tag"))
            .collect();
        for (i, tag) in tags.iter().enumerate() {
            assert!(!tag.starts_with("W/"), "{tag}");
            assert!(tags[..i].iter().all(|t| t != tag), "{tags:?}");
        }
        for (coding, tag) in codings.iter().zip(&tags) {
            let same = get(
                &page,
                &[("accept-encoding", coding), ("if-none-match", tag)],
            );
            assert_eq!(same.status(), StatusCode::NOT_MODIFIED, "{coding}");
            assert_eq!(header(&same, header::ETAG).as_ref(), Some(tag), "{coding}");
            // A cache holding another coding's body has not got this one.
            for other in codings.iter().filter(|o| *o != coding) {
                let resp = get(&page, &[("accept-encoding", other), ("if-none-match", tag)]);
                assert_eq!(
                    resp.status(),
                    StatusCode::OK,
                    "{other} with the tag of {coding}"
                );
            }
        }
        let picture = picture();
        let plain = header(&get(&picture, &[]), header::ETAG);
        let resp = get(&picture, &[("accept-encoding", "br, gzip")]);
        assert_eq!(header(&resp, header::CONTENT_ENCODING), None);
        assert_eq!(header(&resp, header::ETAG), plain, "one body, one tag");
    }

    #[test]
    fn codings_follow_the_q_values_in_any_letter_case() {
        let page = page();
        for (accepted, sent) in [
            ("gzip;q=0", None),
            ("GZIP", Some("gzip")),
            ("Gzip;Q=0.5", Some("gzip")),
            ("gzip, BR", Some("br")),
            ("br;q=0, gzip", Some("gzip")),
            ("br;q=0.5, gzip;q=0.8", Some("gzip")),
            ("gzip;q=0, br;q=0", None),
            ("gzip;q=0.000", None),
            ("deflate", None),
            ("", None),
        ] {
            let resp = get(&page, &[("accept-encoding", accepted)]);
            assert_eq!(resp.status(), StatusCode::OK, "{accepted}");
            let coding = header(&resp, header::CONTENT_ENCODING);
            assert_eq!(coding.as_deref(), sent, "Accept-Encoding: {accepted}");
            assert_eq!(
                header(&resp, header::VARY).as_deref(),
                Some("accept-encoding")
            );
            assert!(decoded(sent, &body(resp)) == page.raw, "{accepted}");
        }
    }

    fn date(text: &str) -> SystemTime {
        text.parse::<HttpDate>().expect("an HTTP date").into()
    }

    fn http_date(time: SystemTime) -> String {
        HttpDate::from(time).to_string()
    }

    #[test]
    fn last_modified_answers_if_modified_since() {
        let page = page();
        let first = get(&page, &[]);
        let modified = date(&header(&first, header::LAST_MODIFIED).expect("Last-Modified"));
        assert!(modified <= clock::wall(), "never later than the answer");
        for since in [modified, modified + Duration::from_secs(3600)] {
            let resp = get(&page, &[("if-modified-since", &http_date(since))]);
            assert_eq!(
                resp.status(),
                StatusCode::NOT_MODIFIED,
                "{}",
                http_date(since)
            );
            assert!(header(&resp, header::LAST_MODIFIED).is_some());
        }
        let day_before = http_date(modified - Duration::from_secs(86_400));
        for headers in [
            vec![("if-modified-since", day_before.as_str())],
            vec![("if-modified-since", "wczoraj")],
            // If-None-Match decides when both are sent (RFC 9110 13.2.2).
            vec![
                ("if-none-match", "\"inny\""),
                ("if-modified-since", &http_date(modified)),
            ],
        ] {
            assert_eq!(get(&page, &headers).status(), StatusCode::OK, "{headers:?}");
        }
    }

    #[test]
    fn a_byte_range_answers_206_and_a_range_past_the_end_416() {
        let picture = picture();
        let whole = get(&picture, &[]);
        assert_eq!(
            header(&whole, header::ACCEPT_RANGES).as_deref(),
            Some("bytes")
        );
        let etag = header(&whole, header::ETAG).expect("tag");
        let modified = header(&whole, header::LAST_MODIFIED).expect("date");
        for (range, first, last) in [
            ("bytes=0-99", 0, 99),
            ("bytes=9990-", 9990, 9999),
            ("bytes=-10", 9990, 9999),
            ("bytes=100-99999", 100, 9999),
            ("bytes=-20000", 0, 9999),
        ] {
            let resp = get(&picture, &[("range", range)]);
            assert_eq!(resp.status(), StatusCode::PARTIAL_CONTENT, "{range}");
            assert_eq!(
                header(&resp, header::CONTENT_RANGE),
                Some(format!("bytes {first}-{last}/10000")),
                "{range}"
            );
            assert_eq!(header(&resp, header::ETAG).as_ref(), Some(&etag));
            assert_eq!(header(&resp, header::CACHE_CONTROL).as_deref(), Some(CACHE));
            assert!(body(resp) == picture.raw[first..=last], "{range}");
        }
        for range in ["bytes=10000-", "bytes=20000-30000"] {
            let resp = get(&picture, &[("range", range)]);
            assert_eq!(resp.status(), StatusCode::RANGE_NOT_SATISFIABLE, "{range}");
            assert_eq!(
                header(&resp, header::CONTENT_RANGE).as_deref(),
                Some("bytes */10000")
            );
        }
        // Several ranges, another unit or nonsense: the whole file (RFC 9110 14.2 lets a
        // server ignore Range).
        for range in ["bytes=0-1,5-6", "items=0-1", "bytes=abc"] {
            let resp = get(&picture, &[("range", range)]);
            assert_eq!(resp.status(), StatusCode::OK, "{range}");
            assert_eq!(body(resp).len(), 10_000, "{range}");
        }
        for (if_range, status) in [
            (etag.as_str(), StatusCode::PARTIAL_CONTENT),
            (modified.as_str(), StatusCode::PARTIAL_CONTENT),
            ("\"inny\"", StatusCode::OK),
            (&format!("W/{etag}"), StatusCode::OK),
            ("Mon, 01 Jan 2001 00:00:00 GMT", StatusCode::OK),
        ] {
            let resp = get(&picture, &[("range", "bytes=0-9"), ("if-range", if_range)]);
            assert_eq!(resp.status(), status, "If-Range: {if_range}");
        }
    }

    #[test]
    fn a_compressed_body_is_sent_whole_and_a_plain_one_in_parts() {
        let page = page();
        let resp = get(
            &page,
            &[("range", "bytes=0-9"), ("accept-encoding", "gzip")],
        );
        assert_eq!(resp.status(), StatusCode::OK);
        assert_eq!(
            header(&resp, header::CONTENT_ENCODING).as_deref(),
            Some("gzip")
        );
        assert!(decoded(Some("gzip"), &body(resp)) == page.raw);
        let resp = get(&page, &[("range", "bytes=0-9")]);
        assert_eq!(resp.status(), StatusCode::PARTIAL_CONTENT);
        assert!(body(resp) == page.raw[..10]);
    }
}
