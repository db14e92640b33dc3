//! What an edge in front of the site needs besides the files, written from the same
//! definitions the sidecar serves by: the redirects the content declares (`aliases:`),
//! `_redirects` (Netlify and Cloudflare Pages syntax) with the proxy of `/api/*` to
//! `API_ORIGIN`, and `_nginx.conf`, the locations of an nginx server block (each with all of
//! its headers, since a location with its own `add_header` drops the server's).

use std::path::Path;

use crate::error::Diagnostic;
use crate::headers::{self, HeaderRule};
use crate::model::{Content, Document};

pub(crate) const REDIRECTS_FILE: &str = "_redirects";
pub(crate) const NGINX_FILE: &str = "_nginx.conf";
/// The upstream `deploy/nginx.conf` defines for the sidecar.
pub const NGINX_UPSTREAM: &str = "harmonia_api";
/// The largest request body the edge passes on: above the sidecar's largest (a page save).
const NGINX_BODY_LIMIT: &str = "2m";
/// Path prefixes that belong to files or to the API, never to an alias.
const RESERVED: [&str; 3] = ["/api/", "/assets/", "/images/"];

/// An old address that answers `301 Moved Permanently` with the document's route.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Redirect {
    pub from: String,
    pub to: String,
}

/// One `aliases:` entry with where it was written.
pub(crate) struct Alias<'a> {
    pub(crate) from: &'a str,
    pub(crate) to: &'a str,
    pub(crate) file: &'a Path,
    pub(crate) line: usize,
}

fn aliases_of<'a, M>(doc: &'a Document<M>, aliases: &'a [String], text: &str) -> Vec<Alias<'a>> {
    let field = doc.field_lines.get("aliases").copied().unwrap_or(1);
    let lines: Vec<&str> = text.lines().collect();
    let line_of = |alias: &str| {
        lines
            .iter()
            .enumerate()
            .skip(field - 1)
            .find(|(_, l)| l.contains(alias))
            .map_or(field, |(i, _)| i + 1)
    };
    let route = doc.route.as_deref().unwrap_or("/");
    aliases
        .iter()
        .map(|from| Alias {
            from,
            to: route,
            file: &doc.file,
            line: line_of(from),
        })
        .collect()
}

/// Every alias of pages, services and articles, in the order of the content.
pub(crate) fn aliases(content: &Content) -> Vec<Alias<'_>> {
    let mut out = Vec::new();
    let text = |file: &Path| std::fs::read_to_string(file).unwrap_or_default();
    for doc in &content.pages {
        if !doc.meta.aliases.is_empty() {
            out.extend(aliases_of(
                doc.as_ref(),
                &doc.meta.aliases,
                &text(&doc.file),
            ));
        }
    }
    for doc in &content.services {
        if !doc.meta.aliases.is_empty() {
            out.extend(aliases_of(
                doc.as_ref(),
                &doc.meta.aliases,
                &text(&doc.file),
            ));
        }
    }
    for doc in &content.articles {
        if !doc.meta.aliases.is_empty() {
            out.extend(aliases_of(
                doc.as_ref(),
                &doc.meta.aliases,
                &text(&doc.file),
            ));
        }
    }
    out
}

/// Why `alias` cannot be an old address, if it cannot: it must be a plain absolute path that
/// an nginx `location`, a `_redirects` line and the sidecar all read the same way.
pub(crate) fn alias_problem(alias: &str) -> Option<String> {
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '~');
    let Some(rest) = alias.strip_prefix('/') else {
        return Some(format!("alias '{alias}' must start with '/'"));
    };
    if rest.is_empty() || rest.ends_with('/') {
        return Some(format!(
            "alias '{alias}' must name a page, without a '/' at the end"
        ));
    }
    if let Some(prefix) = RESERVED.iter().find(|p| alias.starts_with(*p)) {
        return Some(format!(
            "alias '{alias}' is under {prefix}, which belongs to files or the API"
        ));
    }
    let bad_segment = rest
        .split('/')
        .any(|s| s.is_empty() || s.starts_with(['.', '_']) || !s.chars().all(plain));
    bad_segment.then(|| {
        format!(
            "alias '{alias}' may hold only letters a-z, A-Z, digits and '-', '_', '.', '~' between single '/', and no part may start with '.' or '_'"
        )
    })
}

/// The redirects of the aliases, by old address.
pub(crate) fn redirects(content: &Content) -> Vec<Redirect> {
    let mut out: Vec<Redirect> = aliases(content)
        .into_iter()
        .map(|a| Redirect {
            from: a.from.to_string(),
            to: a.to.to_string(),
        })
        .collect();
    out.sort_by(|a, b| a.from.cmp(&b.from));
    out
}

/// An alias that would shadow a published file.
pub(crate) fn shadowed(content: &Content, files: &[String]) -> Vec<Diagnostic> {
    aliases(content)
        .into_iter()
        .filter(|a| {
            let path = &a.from[1..];
            files.iter().any(|f| f == path)
        })
        .map(|a| {
            Diagnostic::new(
                a.file,
                a.line,
                format!(
                    "alias '{}' is the address of a published file of the site",
                    a.from
                ),
            )
        })
        .collect()
}

/// `http://host[:port]` or `https://host[:port]`, without a path: where `/api/*` is proxied.
pub fn check_api_origin(text: &str) -> Result<String, String> {
    let text = text.trim().trim_end_matches('/');
    let host = text
        .strip_prefix("https://")
        .or_else(|| text.strip_prefix("http://"));
    match host {
        Some(h)
            if !h.is_empty()
                && h.chars().all(|c| {
                    c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | ':' | '[' | ']')
                }) =>
        {
            Ok(text.to_string())
        }
        _ => Err(format!(
            "'{text}' is not an origin like https://api.example.pl (scheme, host and port only)"
        )),
    }
}

/// `_redirects`: the aliases first (first match wins), then `/api/*` proxied to the API.
pub(crate) fn redirects_file(redirects: &[Redirect], api_origin: Option<&str>) -> String {
    let mut out = String::from(
        "# Generated by the site generator (Netlify / Cloudflare Pages syntax): do not edit.\n",
    );
    for r in redirects {
        out.push_str(&format!("{}  {}  301\n", r.from, r.to));
    }
    match api_origin {
        Some(origin) => out.push_str(&format!("/api/*  {origin}/api/:splat  200\n")),
        None => out.push_str(
            "# API_ORIGIN was not set when this site was built: /api/* is not proxied.\n",
        ),
    }
    out
}

/// The headers of every path a location matches: for a prefix (`/assets/*`), the rules that
/// match every path under it; for one path, that path's.
fn location_headers(rules: &[HeaderRule], rule: &HeaderRule) -> Vec<(String, String)> {
    let covering: Vec<HeaderRule> = match rule.pattern.strip_suffix('*') {
        Some(prefix) => rules
            .iter()
            .filter(|r| {
                r.pattern
                    .strip_suffix('*')
                    .is_some_and(|p| prefix.starts_with(p))
            })
            .cloned()
            .collect(),
        None => rules
            .iter()
            .filter(|r| r.matches(&rule.pattern))
            .cloned()
            .collect(),
    };
    headers::headers_for(&covering, &rule.pattern)
        .into_iter()
        .cloned()
        .collect()
}

/// A header value in nginx's double quotes (the values are policies and cache rules: no `$`).
fn quoted(value: &str) -> String {
    let escaped = value.replace('\\', "\\\\").replace('"', "\\\"");
    format!("\"{escaped}\"")
}

fn add_headers(out: &mut String, headers: &[(String, String)]) {
    for (name, value) in headers {
        // nginx sets the type itself: an `add_header Content-Type` would send a second one.
        if name.eq_ignore_ascii_case("Content-Type") {
            out.push_str(&format!(
                "    types {{ }}\n    default_type {};\n",
                quoted(value)
            ));
            continue;
        }
        out.push_str(&format!(
            "    add_header {name} {} always;\n",
            quoted(value)
        ));
    }
    out.push_str("    add_header Strict-Transport-Security $harmonia_hsts always;\n");
}

/// `_nginx.conf`: to be included inside a `server` block (see `deploy/nginx.conf`) whose
/// `root` is the published site and which defines `upstream harmonia_api`. The same clean
/// addresses as the sidecar: `/uslugi` is `uslugi/index.html`, `/uslugi/` and
/// `/uslugi/index.html` answer 308 to `/uslugi`, hidden files (`_headers`) are not served.
pub(crate) fn nginx_file(rules: &[HeaderRule], redirects: &[Redirect]) -> String {
    let site = rules
        .iter()
        .find(|r| r.pattern == "/*")
        .map(|r| location_headers(rules, r))
        .unwrap_or_default();
    let mut out = String::from(
        "# Generated by the site generator from the rules of _headers and _redirects: do not edit.\n\
         # Include it inside the server block of deploy/nginx.conf, which defines `upstream harmonia_api`.\n\
         # Every location repeats all of its headers: one with its own add_header drops the server's.\n\n\
         set $harmonia_hsts \"\";\n\
         if ($https = on) {\n    set $harmonia_hsts \"max-age=31536000; includeSubDomains\";\n}\n\
         error_page 404 /404.html;\n\
         # Redirects name the path only, as the sidecar's do: right behind any proxy.\n\
         absolute_redirect off;\n\n",
    );
    out.push_str("# Hidden files (_headers, _redirects, this file) are not part of the site; the files\n# of /.well-known/ have exact locations below.\n");
    out.push_str("location ~ /[._] {\n    return 404;\n}\n\n");
    out.push_str(
        "# /uslugi/index.html and /uslugi/ answer 308 with /uslugi, if that page exists.\n",
    );
    out.push_str("location ~ ^(?<harmonia_page>.*)/index\\.html$ {\n");
    add_headers(&mut out, &site);
    out.push_str("    if (!-f $request_filename) {\n        return 404;\n    }\n");
    out.push_str("    if ($harmonia_page = \"\") {\n        return 308 /$is_args$args;\n    }\n");
    out.push_str("    return 308 $harmonia_page$is_args$args;\n}\n");
    out.push_str("location ~ ^(?<harmonia_page>/.+)/$ {\n");
    add_headers(&mut out, &site);
    out.push_str(
        "    if (!-f $document_root$harmonia_page/index.html) {\n        return 404;\n    }\n",
    );
    out.push_str("    return 308 $harmonia_page$is_args$args;\n}\n\n");
    // An exact location (`= /.well-known/security.txt`) wins over the refusal of hidden files.
    for rule in rules {
        let headers = location_headers(rules, rule);
        match rule.pattern.strip_suffix('*') {
            Some("/") => out.push_str("location / {\n"),
            Some(prefix) => out.push_str(&format!("location {prefix} {{\n")),
            None => out.push_str(&format!("location = {} {{\n", rule.pattern)),
        }
        add_headers(&mut out, &headers);
        match rule.pattern.strip_suffix('*') {
            Some(_) => out.push_str("    try_files $uri $uri/index.html =404;\n}\n\n"),
            None => out.push_str("    try_files $uri/index.html $uri =404;\n}\n\n"),
        }
    }
    let mut not_found = site.clone();
    not_found.retain(|(n, _)| !n.eq_ignore_ascii_case("Cache-Control"));
    not_found.push(("Cache-Control".into(), headers::NOT_FOUND_CACHE.into()));
    out.push_str("location = /404.html {\n    internal;\n");
    add_headers(&mut out, &not_found);
    out.push_str("}\n\n");
    if !redirects.is_empty() {
        out.push_str("# Old addresses of pages (aliases: in the content).\n");
    }
    for r in redirects {
        out.push_str(&format!("location = {} {{\n", r.from));
        add_headers(&mut out, &site);
        out.push_str(&format!("    return 301 {}$is_args$args;\n}}\n", r.to));
    }
    out.push_str(&format!(
        "\n# The API: the sidecar, told who the visitor is (TRUSTED_PROXIES must list this edge).\n\
         location ^~ /api/ {{\n\
         \x20   proxy_pass http://{NGINX_UPSTREAM};\n\
         \x20   proxy_http_version 1.1;\n\
         \x20   proxy_set_header Connection \"\";\n\
         \x20   proxy_set_header Host $http_host;\n\
         \x20   proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;\n\
         \x20   proxy_set_header X-Forwarded-Proto $scheme;\n\
         \x20   proxy_set_header Forwarded \"\";\n\
         \x20   client_max_body_size {NGINX_BODY_LIMIT};\n\
         }}\n"
    ));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(pattern: &str, headers: &[(&str, &str)]) -> HeaderRule {
        HeaderRule {
            pattern: pattern.into(),
            headers: headers
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    fn rules() -> Vec<HeaderRule> {
        vec![
            rule(
                "/*",
                &[
                    ("Content-Security-Policy", "default-src 'self'"),
                    ("Cache-Control", "short"),
                ],
            ),
            rule(
                "/administratormagda",
                &[("Content-Security-Policy", "admin")],
            ),
            rule("/assets/*", &[("Cache-Control", "immutable")]),
        ]
    }

    /// The block of `location {head} {` up to its closing line.
    fn block<'a>(conf: &'a str, head: &str) -> &'a str {
        let start = conf
            .find(&format!("location {head} {{"))
            .unwrap_or_else(|| panic!("no location {head}"));
        let end = start + conf[start..].find("\n}\n").expect("closed");
        &conf[start..end]
    }

    #[test]
    fn every_nginx_location_repeats_all_of_its_headers() {
        let redirects = [Redirect {
            from: "/stary-adres".into(),
            to: "/blog/nowy".into(),
        }];
        let conf = nginx_file(&rules(), &redirects);
        let assets = block(&conf, "/assets/");
        assert!(assets.contains("add_header Cache-Control \"immutable\" always;"));
        assert!(
            assets.contains("Content-Security-Policy \"default-src 'self'\""),
            "{assets}"
        );
        assert!(!assets.contains("short"));
        let admin = block(&conf, "= /administratormagda");
        assert!(admin.contains("Content-Security-Policy \"admin\""));
        assert!(!admin.contains("default-src"), "{admin}");
        assert!(admin.contains("Cache-Control \"short\""));
        let alias = block(&conf, "= /stary-adres");
        assert!(alias.contains("return 301 /blog/nowy$is_args$args;"));
        assert!(alias.contains("Content-Security-Policy"));
        let not_found = block(&conf, "= /404.html");
        assert!(not_found.contains("Cache-Control \"no-cache\""));
        assert!(!not_found.contains("short"));
        let api = block(&conf, "^~ /api/");
        assert!(api.contains("proxy_pass http://harmonia_api;"));
        assert!(
            api.contains("proxy_set_header Forwarded \"\";"),
            "a visitor cannot forge who they are"
        );
        assert!(
            !api.contains("add_header"),
            "the sidecar sends its own headers"
        );
        let mut with_headers = 0;
        for location in conf.split("\nlocation ").skip(1) {
            let head = location.lines().next().unwrap_or_default();
            if location.contains("add_header") {
                with_headers += 1;
                for name in [
                    "Content-Security-Policy",
                    "Cache-Control",
                    "Strict-Transport-Security",
                ] {
                    assert!(location.contains(name), "{head} lacks {name}");
                }
            }
        }
        assert_eq!(
            with_headers, 7,
            "two redirects, pages, the panel, assets, 404, an alias"
        );
    }

    #[test]
    fn redirects_file_proxies_the_api_only_with_an_origin() {
        let redirects = [Redirect {
            from: "/stary".into(),
            to: "/nowy".into(),
        }];
        let with = redirects_file(&redirects, Some("https://api.gabinet.pl"));
        assert!(with.contains("/stary  /nowy  301\n"));
        assert!(with.contains("/api/*  https://api.gabinet.pl/api/:splat  200\n"));
        assert!(
            with.find("/stary").expect("alias") < with.find("/api/*").expect("api"),
            "aliases come first"
        );
        let without = redirects_file(&redirects, None);
        assert!(!without.contains("/api/*  "), "{without}");
        assert!(without.contains("API_ORIGIN"));
    }

    #[test]
    fn aliases_are_plain_absolute_paths_outside_files_and_the_api() {
        for good in [
            "/stary-adres",
            "/blog/terapia-cbt-2024",
            "/o-nas.html",
            "/Oferta",
        ] {
            assert_eq!(alias_problem(good), None, "{good}");
        }
        for bad in [
            "stary",
            "/",
            "/stary/",
            "//evil.example",
            "/api/contact",
            "/assets/x.css",
            "/images/a.png",
            "/a b",
            "/a;b",
            "/a{b}",
            "/caf%C3%A9",
            "/.git",
            "/_headers",
            "/a?b=1",
        ] {
            assert!(alias_problem(bad).is_some(), "{bad}");
        }
    }

    #[test]
    fn an_api_origin_is_a_scheme_and_a_host() {
        assert_eq!(
            check_api_origin("https://api.gabinet.pl/").as_deref(),
            Ok("https://api.gabinet.pl")
        );
        assert!(check_api_origin("http://127.0.0.1:8080").is_ok());
        for bad in [
            "api.gabinet.pl",
            "https://",
            "https://a.pl/api",
            "ftp://a.pl",
            "https://a.pl;x",
        ] {
            assert!(check_api_origin(bad).is_err(), "{bad}");
        }
    }
}
