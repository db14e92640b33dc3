//! Security headers for every answer: a Content-Security-Policy that allows our own origin,
//! the hashes of the inline scripts the templates write (read from the templates' sources,
//! never from a built page, so nothing a page came to hold can allow itself), and the hosts
//! of the providers `site.yaml` names, whose addresses are the code's
//! ([`content::providers`]). Written as `_headers` for static hosts and CDNs; the sidecar
//! serves the same file's headers.

use base64::Engine;
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;

use content::model::SiteConfig;
use content::providers::ANALYTICS_ORIGINS;

pub(crate) const FILE: &str = "_headers";
/// Content-hashed files (everything under `/assets/`): a new content is a new name.
pub const IMMUTABLE_CACHE: &str = "public, max-age=31536000, immutable";
/// Pages, feeds and every other file whose name stays: a browser keeps it a minute, a shared
/// cache (the CDN) an hour — `PURGE_CMD` drops the changed ones at once — and either may
/// answer with the stale copy for a minute more while it fetches the new one.
pub const SHORT_CACHE: &str = "public, max-age=60, s-maxage=3600, stale-while-revalidate=60";
/// The error page answers any unknown address: revalidated every time.
pub const NOT_FOUND_CACHE: &str = "no-cache";
const PERMISSIONS: &str =
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()";

/// `https://host` of a full address.
fn origin(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let host = rest.split(['/', '?', '#']).next()?;
    (!host.is_empty()).then(|| format!("{scheme}://{host}"))
}

fn origins<'a>(urls: impl IntoIterator<Item = &'a str>) -> BTreeSet<String> {
    urls.into_iter().filter_map(origin).collect()
}

/// The CSP source of an inline script's text: `'sha256-…'`.
pub(crate) fn script_hash(body: &str) -> String {
    let digest = Sha256::digest(body.as_bytes());
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(digest)
    )
}

/// Types of `<script>` that hold data, never code.
pub(crate) const DATA_SCRIPT_TYPES: [&str; 2] = ["application/json", "application/ld+json"];

/// The value of attribute `name` in the text of an opening tag (`<script type="x">`), when
/// written with double quotes, as the templates write them.
fn tag_attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let lower = tag.to_ascii_lowercase();
    let at = lower.find(&format!(" {name}="))? + name.len() + 2;
    let rest = tag.get(at..)?;
    match rest.strip_prefix('"') {
        Some(quoted) => quoted.split('"').next(),
        None => rest.split([' ', '>']).next(),
    }
}

/// The hashes of the inline scripts the templates' sources write (`sources`: name and text),
/// for `script-src`. An inline script must be written out in full in its template: one with a
/// Tera expression in it could not be known before a page is rendered, and is refused
/// (`Err`: the template's name and why). Scripts with `src` and data blocks
/// (`application/json`, `application/ld+json`) are not inline code.
pub(crate) fn template_script_hashes(
    sources: &[(String, String)],
) -> Result<BTreeSet<String>, (String, String)> {
    let mut hashes = BTreeSet::new();
    for (name, source) in sources {
        let lower = source.to_ascii_lowercase();
        let mut from = 0;
        while let Some(start) = lower[from..].find("<script").map(|i| i + from) {
            let Some(tag_end) = lower[start..].find('>').map(|i| i + start) else {
                break;
            };
            let Some(close) = lower[tag_end..].find("</script").map(|i| i + tag_end) else {
                return Err((name.clone(), "a <script> is never closed".into()));
            };
            let tag = &source[start..tag_end];
            let body = &source[tag_end + 1..close];
            from = close;
            let data = tag_attribute(tag, "type")
                .is_some_and(|t| DATA_SCRIPT_TYPES.contains(&t.to_ascii_lowercase().as_str()));
            if tag_attribute(tag, "src").is_some() || data {
                continue;
            }
            if ["{{", "{%", "{#"].iter().any(|t| body.contains(t)) || tag.contains("{{") {
                return Err((
                    name.clone(),
                    "an inline <script> must be written out in full, without {{ … }} or {% … %}: its hash goes into the Content-Security-Policy before any page is rendered".into(),
                ));
            }
            hashes.insert(script_hash(body));
        }
    }
    Ok(hashes)
}

fn join(items: impl IntoIterator<Item = String>) -> String {
    items.into_iter().collect::<Vec<_>>().join(" ")
}

/// The hosts the providers `site.yaml` names load their scripts from, and those their
/// widgets open frames of: all the code's, none content's.
fn provider_origins(site: &SiteConfig) -> (BTreeSet<String>, BTreeSet<String>) {
    let listing = site.booking.doctor_listing.platform();
    let scripts = listing.calendar_scripts.iter().copied().chain([
        listing.badge_script,
        listing.widget_host,
        site.telephony.script(),
    ]);
    let widgets = origins(scripts);
    let frames = widgets
        .iter()
        .cloned()
        .chain([format!("https://{}", listing.host)])
        .collect();
    (widgets, frames)
}

/// The public site's policy: its own files, the templates' inline scripts (`script_hashes`),
/// the providers' hosts and the analytics host, all fixed before any page is rendered.
pub(crate) fn content_security_policy(
    site: &SiteConfig,
    script_hashes: &BTreeSet<String>,
) -> String {
    let (widgets, frames) = provider_origins(site);
    let analytics = ANALYTICS_ORIGINS.iter().map(|s| s.to_string());
    let stock = origins([site.stock_photo_base.as_str()]);
    let self_ = || std::iter::once("'self'".to_string());
    let scripts = self_()
        .chain(script_hashes.iter().cloned())
        .chain(widgets.iter().cloned())
        .chain(analytics.clone());
    let images = self_()
        .chain(["data:".to_string()])
        .chain(stock)
        .chain(widgets.iter().cloned())
        .chain(analytics.clone());
    [
        "default-src 'self'".to_string(),
        format!("script-src {}", join(scripts)),
        "script-src-attr 'none'".to_string(),
        "style-src 'self'".to_string(),
        format!("img-src {}", join(images)),
        "font-src 'self'".to_string(),
        format!(
            "connect-src {}",
            join(self_().chain(widgets.iter().cloned()).chain(analytics))
        ),
        format!("frame-src {}", join(frames)),
        "object-src 'none'".to_string(),
        "base-uri 'self'".to_string(),
        "form-action 'self'".to_string(),
        "frame-ancestors 'none'".to_string(),
    ]
    .join("; ")
}

/// The admin panel's policy: its own scripts and nothing from anywhere else — no widgets,
/// no analytics, no booking frames. The panel is served on its own origin, so `'self'` is
/// the panel and nothing of the public site.
pub(crate) fn admin_content_security_policy(script_hashes: &BTreeSet<String>) -> String {
    let scripts = std::iter::once("'self'".to_string()).chain(script_hashes.iter().cloned());
    [
        "default-src 'self'".to_string(),
        format!("script-src {}", join(scripts)),
        "style-src 'self'".to_string(),
        "img-src 'self' data:".to_string(),
        "font-src 'self'".to_string(),
        "connect-src 'self'".to_string(),
        "frame-src 'none'".to_string(),
        "object-src 'none'".to_string(),
        "base-uri 'self'".to_string(),
        "form-action 'self'".to_string(),
        "frame-ancestors 'none'".to_string(),
    ]
    .join("; ")
}

/// Where the panel's origin answers with a preview of unsaved text (the sidecar's route).
pub const PREVIEW_PATH: &str = "/api/preview/";

/// Every other document of the panel's origin (an API answer or a picture opened as a page):
/// sandboxed, allowed nothing.
const PANEL_OTHER_POLICY: &str =
    "default-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'; sandbox";

/// A preview is a public page rendered on the panel's origin: sandboxed without
/// `allow-same-origin` or `allow-scripts`, its origin is opaque and no script of it runs,
/// so nothing in it can reach the panel's API or cookie. Its islands are prerendered HTML:
/// styles and pictures are all it needs.
pub(crate) fn preview_content_security_policy(site: &SiteConfig) -> String {
    let images = std::iter::once("'self' data:".to_string())
        .chain(origins([site.stock_photo_base.as_str()]))
        .collect::<Vec<_>>();
    format!(
        "sandbox; default-src 'none'; style-src 'self'; img-src {}; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
        join(images)
    )
}

/// The rules of every answer of the panel's origin, which the sidecar serves itself (no edge
/// file repeats them): the headers of the public site's frame, but a policy that allows
/// nothing for every path, the panel's own policy for its pages (`pages`: route and inline
/// script hashes), the sandbox for previews; no referrer to another origin, no index, no
/// embedding, and API answers only for the panel's own documents
/// (`Cross-Origin-Resource-Policy`).
pub(crate) fn panel_rules(
    site: &SiteConfig,
    pages: &[(String, BTreeSet<String>)],
) -> Vec<HeaderRule> {
    let pairs = |items: &[(&str, String)]| -> Vec<(String, String)> {
        items
            .iter()
            .map(|(k, v)| (k.to_string(), v.clone()))
            .collect()
    };
    let csp = "Content-Security-Policy";
    let mut rules = vec![
        HeaderRule {
            pattern: "/*".into(),
            headers: pairs(&[
                (csp, PANEL_OTHER_POLICY.into()),
                ("X-Content-Type-Options", "nosniff".into()),
                // Not `no-referrer`: with it, a form posted to a preview says `Origin: null`.
                ("Referrer-Policy", "same-origin".into()),
                ("Permissions-Policy", PERMISSIONS.into()),
                ("X-Frame-Options", "DENY".into()),
                ("Cross-Origin-Opener-Policy", "same-origin".into()),
                ("X-Robots-Tag", "noindex, nofollow".into()),
                // The panel's page is revalidated on every visit: a new build's panel at once.
                ("Cache-Control", NOT_FOUND_CACHE.into()),
            ]),
        },
        HeaderRule {
            pattern: "/api/*".into(),
            headers: pairs(&[("Cross-Origin-Resource-Policy", "same-origin".into())]),
        },
        HeaderRule {
            pattern: format!("{PREVIEW_PATH}*"),
            headers: pairs(&[(csp, preview_content_security_policy(site))]),
        },
    ];
    for (route, hashes) in pages {
        rules.push(HeaderRule {
            pattern: route.clone(),
            headers: pairs(&[(csp, admin_content_security_policy(hashes))]),
        });
    }
    rules.push(cache_rules().1);
    rules
}

/// Headers for the paths a pattern matches: `/*` is every path, `/assets/*` everything
/// under a folder, anything else one path. Rules apply in order; a later rule's header
/// replaces the same header of an earlier one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeaderRule {
    pub pattern: String,
    pub headers: Vec<(String, String)>,
}

impl HeaderRule {
    pub fn matches(&self, path: &str) -> bool {
        match self.pattern.strip_suffix('*') {
            Some(prefix) => path.starts_with(prefix),
            None => path == self.pattern || path.strip_suffix('/') == Some(&self.pattern),
        }
    }
}

/// The rule of `security.txt` (RFC 9116), the one file of `/.well-known/` (RFC 8615): plain
/// text in UTF-8, as the RFC requires (some static hosts send `.txt` without a charset).
pub(crate) fn security_txt_rule() -> HeaderRule {
    HeaderRule {
        pattern: format!("/{}", crate::security_txt::PATH),
        headers: vec![(
            "Content-Type".to_string(),
            "text/plain; charset=utf-8".to_string(),
        )],
    }
}

/// The caching rules: short for every path, immutable for the content-hashed assets. They
/// come after the security rules, so `/assets/*` replaces the `Cache-Control` of `/*`.
pub(crate) fn cache_rules() -> (HeaderRule, HeaderRule) {
    let cache = |value: &str| vec![("Cache-Control".to_string(), value.to_string())];
    (
        HeaderRule {
            pattern: "/*".into(),
            headers: cache(SHORT_CACHE),
        },
        HeaderRule {
            pattern: "/assets/*".into(),
            headers: cache(IMMUTABLE_CACHE),
        },
    )
}

/// The value of header `name` for `path` under `rules`.
pub fn header_value<'a>(rules: &'a [HeaderRule], path: &str, name: &str) -> Option<&'a str> {
    headers_for(rules, path)
        .into_iter()
        .find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v.as_str())
}

/// The headers of `path` under `rules`.
pub fn headers_for<'a>(rules: &'a [HeaderRule], path: &str) -> Vec<&'a (String, String)> {
    let mut out: Vec<&(String, String)> = Vec::new();
    for rule in rules.iter().filter(|r| r.matches(path)) {
        for header in &rule.headers {
            out.retain(|(name, _)| !name.eq_ignore_ascii_case(&header.0));
            out.push(header);
        }
    }
    out
}

/// Every header but HSTS, which the server adds only when it is reached over HTTPS.
pub(crate) fn security_headers(
    site: &SiteConfig,
    script_hashes: &BTreeSet<String>,
) -> Vec<(String, String)> {
    let headers: Vec<(&str, String)> = vec![
        (
            "Content-Security-Policy",
            content_security_policy(site, script_hashes),
        ),
        ("X-Content-Type-Options", "nosniff".into()),
        ("Referrer-Policy", "strict-origin-when-cross-origin".into()),
        ("Permissions-Policy", PERMISSIONS.into()),
        ("X-Frame-Options", "DENY".into()),
        (
            "Cross-Origin-Opener-Policy",
            "same-origin-allow-popups".into(),
        ),
    ];
    headers
        .into_iter()
        .map(|(k, v)| (k.to_string(), v))
        .collect()
}

/// The `_headers` file (Netlify, Cloudflare Pages and others read it). A header a later rule
/// replaces is first detached with `! Name` (Cloudflare Pages' syntax), so the rule means
/// what it means in the sidecar.
pub(crate) fn headers_file(rules: &[HeaderRule]) -> String {
    let mut out = String::new();
    for (i, rule) in rules.iter().enumerate() {
        out.push_str(&rule.pattern);
        out.push('\n');
        let earlier: Vec<&HeaderRule> = rules[..i]
            .iter()
            .filter(|r| {
                r.pattern == "/*" || rule.pattern.starts_with(r.pattern.trim_end_matches('*'))
            })
            .collect();
        for (name, value) in &rule.headers {
            let replaces = earlier
                .iter()
                .any(|r| r.headers.iter().any(|(n, _)| n == name));
            if replaces {
                out.push_str(&format!("  ! {name}\n"));
            }
            out.push_str(&format!("  {name}: {value}\n"));
        }
        if i == 0 {
            out.push_str("  Strict-Transport-Security: max-age=31536000; includeSubDomains\n");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sources(text: &str) -> Vec<(String, String)> {
        vec![("base.html".to_string(), text.to_string())]
    }

    #[test]
    fn only_the_templates_inline_code_is_hashed() {
        let hashes = template_script_hashes(&sources(
            "<script>document.documentElement.classList.add(\"js\")</script><script type=\"module\" src=\"{{ assets['site.js'] }}\"></script><script type=\"application/json\" id=\"c\">{{ c | safe }}</script><script type=\"application/ld+json\">{{ j }}</script>",
        ))
        .expect("hashed");
        assert_eq!(hashes.len(), 1);
        let expected = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(
            b"document.documentElement.classList.add(\"js\")",
        ));
        assert!(hashes.contains(&format!("'sha256-{expected}'")));
    }

    #[test]
    fn an_inline_script_made_at_render_time_is_refused() {
        let (name, why) = template_script_hashes(&sources("<script>var x = {{ x }};</script>"))
            .expect_err("refused");
        assert_eq!(name, "base.html");
        assert!(why.contains("written out in full"), "{why}");
    }

    #[test]
    fn the_policy_names_only_the_code_s_hosts() {
        let yaml = std::fs::read_to_string(
            std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../content/site.yaml"),
        )
        .expect("site.yaml");
        let site: SiteConfig = content::yaml::parse(&yaml).expect("parses");
        let hashes = BTreeSet::from(["'sha256-abc'".to_string()]);
        let csp = content_security_policy(&site, &hashes);
        let scripts = csp
            .split("; ")
            .find(|d| d.starts_with("script-src "))
            .expect("script-src");
        assert_eq!(
            scripts,
            "script-src 'self' 'sha256-abc' https://cdn-widget.callpage.io https://platform.docplanner.com https://www.googletagmanager.com https://*.google-analytics.com"
        );
        assert!(csp.contains("script-src-attr 'none'"), "{csp}");
        assert!(!csp.contains("unsafe"), "{csp}");
    }

    #[test]
    fn origins_drop_paths_and_queries() {
        assert_eq!(
            origin("https://cdn-widget.callpage.io/js/callpage.js").as_deref(),
            Some("https://cdn-widget.callpage.io")
        );
        assert_eq!(
            origin("https://images.unsplash.com/").as_deref(),
            Some("https://images.unsplash.com")
        );
        assert_eq!(origin("not a url"), None);
    }

    fn rule(pattern: &str, headers: &[(&str, &str)]) -> HeaderRule {
        HeaderRule {
            pattern: pattern.into(),
            headers: headers
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        }
    }

    #[test]
    fn a_later_rule_replaces_a_header_for_the_paths_it_matches() {
        let rules = [
            rule(
                "/*",
                &[
                    ("Content-Security-Policy", "wide"),
                    ("X-Content-Type-Options", "nosniff"),
                ],
            ),
            rule(
                "/administratormagda",
                &[("Content-Security-Policy", "narrow")],
            ),
            rule("/assets/*", &[("Cache-Control", "immutable")]),
        ];
        let admin: Vec<_> = headers_for(&rules, "/administratormagda")
            .into_iter()
            .cloned()
            .collect();
        assert!(admin.contains(&("Content-Security-Policy".into(), "narrow".into())));
        assert_eq!(
            admin
                .iter()
                .filter(|(n, _)| n == "Content-Security-Policy")
                .count(),
            1
        );
        assert!(admin.contains(&("X-Content-Type-Options".into(), "nosniff".into())));
        let home: Vec<_> = headers_for(&rules, "/").into_iter().cloned().collect();
        assert!(home.contains(&("Content-Security-Policy".into(), "wide".into())));
        assert!(headers_for(&rules, "/assets/site.css")
            .iter()
            .any(|(n, _)| n == "Cache-Control"));
        let file = headers_file(&rules);
        assert!(file.starts_with("/*\n  Content-Security-Policy: wide\n"));
        assert!(file.contains(
            "/administratormagda\n  ! Content-Security-Policy\n  Content-Security-Policy: narrow\n"
        ));
        assert!(file.contains("Strict-Transport-Security"));
    }

    #[test]
    fn the_admin_policy_allows_no_other_host() {
        let csp = admin_content_security_policy(&BTreeSet::new());
        assert!(csp.contains("script-src 'self'"));
        assert!(!csp.contains("https://"), "{csp}");
    }
}
