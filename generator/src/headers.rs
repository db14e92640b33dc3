//! Security headers for every answer: a Content-Security-Policy that allows our own origin,
//! the hashes of our few inline scripts, and the widget, booking, telephony and analytics
//! hosts of `site.yaml`. Written as `_headers` for static hosts and CDNs; the sidecar serves
//! the same file's headers.

use base64::Engine;
use sha2::{Digest, Sha256};
use std::collections::BTreeSet;

use crate::model::SiteConfig;

pub(crate) const FILE: &str = "_headers";
const ANALYTICS: [&str; 2] = [
    "https://www.googletagmanager.com",
    "https://*.google-analytics.com",
];

/// `https://host` of a full address.
fn origin(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let host = rest.split(['/', '?', '#']).next()?;
    (!host.is_empty()).then(|| format!("{scheme}://{host}"))
}

fn origins<'a>(urls: impl IntoIterator<Item = &'a str>) -> BTreeSet<String> {
    urls.into_iter().filter_map(origin).collect()
}

/// Hashes of the inline scripts of one page (JSON data blocks are not scripts).
pub(crate) fn inline_script_hashes(html: &[u8]) -> BTreeSet<String> {
    let html = String::from_utf8_lossy(html);
    let mut hashes = BTreeSet::new();
    let mut rest = html.as_ref();
    while let Some(start) = rest.find("<script") {
        rest = &rest[start..];
        let Some(tag_end) = rest.find('>') else { break };
        let tag = &rest[..tag_end];
        let Some(close) = rest.find("</script>") else {
            break;
        };
        let body = &rest[tag_end + 1..close];
        if !tag.contains(" src=") && !tag.contains("type=\"application/") {
            let digest = Sha256::digest(body.as_bytes());
            hashes.insert(format!(
                "'sha256-{}'",
                base64::engine::general_purpose::STANDARD.encode(digest)
            ));
        }
        rest = &rest[close..];
    }
    hashes
}

fn join(items: impl IntoIterator<Item = String>) -> String {
    items.into_iter().collect::<Vec<_>>().join(" ")
}

pub(crate) fn content_security_policy(
    site: &SiteConfig,
    script_hashes: &BTreeSet<String>,
) -> String {
    let widgets = origins(
        [
            site.telephony_widget_src.as_str(),
            &site.badge_widget_script,
            &site.doctor_listing.widget_host,
        ]
        .into_iter()
        .chain(site.calendar_widget_scripts.iter().map(String::as_str)),
    );
    let booking = origins([site.booking_url.as_str(), &site.doctor_listing.profile_url]);
    let booking = booking
        .into_iter()
        .chain(site.therapist_booking.values().filter_map(|u| origin(u)));
    let analytics = ANALYTICS.iter().map(|s| s.to_string());
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
    let frames: BTreeSet<String> = widgets.iter().cloned().chain(booking).collect();
    [
        "default-src 'self'".to_string(),
        format!("script-src {}", join(scripts)),
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
        (
            "Permissions-Policy",
            "camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()"
                .into(),
        ),
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

/// The `_headers` file (Netlify, Cloudflare Pages and others read it).
pub(crate) fn headers_file(headers: &[(String, String)]) -> String {
    let mut out = String::from("/*\n");
    for (name, value) in headers {
        out.push_str(&format!("  {name}: {value}\n"));
    }
    out.push_str("  Strict-Transport-Security: max-age=31536000; includeSubDomains\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_inline_code_is_hashed() {
        let hashes = inline_script_hashes(
            b"<script>document.documentElement.classList.add(\"js\")</script><script src=\"/a.js\" defer></script><script type=\"application/json\">{}</script>",
        );
        assert_eq!(hashes.len(), 1);
        let expected = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(
            b"document.documentElement.classList.add(\"js\")",
        ));
        assert!(hashes.contains(&format!("'sha256-{expected}'")));
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

    #[test]
    fn the_headers_file_applies_to_every_path() {
        let file = headers_file(&[("X-Content-Type-Options".to_string(), "nosniff".to_string())]);
        assert!(file.starts_with("/*\n  X-Content-Type-Options: nosniff\n"));
        assert!(file.contains("Strict-Transport-Security"));
    }
}
