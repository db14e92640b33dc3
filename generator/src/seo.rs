//! What search engines read: the sitemap with accurate dates, robots.txt, the blog's Atom
//! feed, and structured data (JSON-LD).

use serde_json::{json, Value};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::dates::Date;
use crate::markdown::FaqItem;
use crate::model::{page_route, Content, SiteConfig};
use crate::views::{ArticleCard, Collections};

pub fn absolute(site: &SiteConfig, path: &str) -> String {
    if path.starts_with("http://") || path.starts_with("https://") {
        path.to_string()
    } else {
        format!("{}{}", site.site_url.trim_end_matches('/'), path)
    }
}

/// The last commit date of each file under `content_dir`, from one `git log`.
fn git_dates(content_dir: &Path) -> HashMap<PathBuf, String> {
    let output = Command::new("git")
        .arg("-C")
        .arg(content_dir)
        .args([
            "log",
            "--relative",
            "--name-only",
            "--format=%x00%cs",
            "--",
            ".",
        ])
        .output();
    let Some(output) = output.ok().filter(|o| o.status.success()) else {
        return HashMap::new();
    };
    let mut dates = HashMap::new();
    let mut current = String::new();
    for line in String::from_utf8_lossy(&output.stdout).lines() {
        if let Some(date) = line.strip_prefix('\0') {
            current = date.to_string();
        } else if !line.is_empty() {
            dates
                .entry(content_dir.join(line))
                .or_insert_with(|| current.clone());
        }
    }
    dates
}

fn modified_date(path: &Path) -> Option<String> {
    let modified = std::fs::metadata(path).ok()?.modified().ok()?;
    let seconds = modified
        .duration_since(std::time::UNIX_EPOCH)
        .ok()?
        .as_secs();
    Some(Date::from_unix(seconds as i64).iso())
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Every public route with the file it comes from, noindex pages left out.
fn public_routes(content: &Content) -> Vec<(String, &Path)> {
    let pages = content
        .pages
        .iter()
        .filter(|p| !p.meta.noindex)
        .map(|p| (page_route(&p.slug), p.file.as_path()));
    let services = content
        .services
        .iter()
        .map(|s| (format!("/uslugi/{}", s.slug), s.file.as_path()));
    let articles = content
        .articles
        .iter()
        .map(|a| (format!("/blog/{}", a.slug), a.file.as_path()));
    pages.chain(services).chain(articles).collect()
}

pub fn sitemap(content: &Content) -> String {
    let git = git_dates(&content.root);
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    for (route, file) in public_routes(content) {
        out.push_str(&format!(
            "  <url><loc>{}</loc>",
            xml_escape(&absolute(&content.site, &route))
        ));
        if let Some(date) = git.get(file).cloned().or_else(|| modified_date(file)) {
            out.push_str(&format!("<lastmod>{date}</lastmod>"));
        }
        out.push_str("</url>\n");
    }
    out.push_str("</urlset>\n");
    out
}

pub fn robots(site: &SiteConfig) -> String {
    format!(
        "User-agent: *\nDisallow: /administratormagda\nDisallow: /api/\n\nSitemap: {}\n",
        absolute(site, "/sitemap.xml")
    )
}

pub fn atom_feed(site: &SiteConfig, articles: &[ArticleCard]) -> String {
    let updated = articles
        .iter()
        .map(|a| a.date_iso.as_str())
        .max()
        .unwrap_or("2025-01-01");
    let mut out = format!(
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<feed xmlns=\"http://www.w3.org/2005/Atom\" xml:lang=\"pl\">\n  <title>{} – blog</title>\n  <id>{}</id>\n  <link rel=\"self\" href=\"{}\"/>\n  <link rel=\"alternate\" type=\"text/html\" href=\"{}\"/>\n  <updated>{updated}T00:00:00Z</updated>\n",
        xml_escape(&site.name),
        absolute(site, "/blog"),
        absolute(site, "/blog/atom.xml"),
        absolute(site, "/blog"),
    );
    for a in articles {
        let url = absolute(site, &a.href);
        out.push_str(&format!(
            "  <entry>\n    <title>{}</title>\n    <link rel=\"alternate\" type=\"text/html\" href=\"{url}\"/>\n    <id>{url}</id>\n    <published>{d}T00:00:00Z</published>\n    <updated>{d}T00:00:00Z</updated>\n    <author><name>{}</name></author>\n    <summary>{}</summary>\n  </entry>\n",
            xml_escape(&a.title),
            xml_escape(&a.author),
            xml_escape(&a.excerpt.replace('\u{a0}', " ")),
            d = a.date_iso,
        ));
    }
    out.push_str("</feed>\n");
    out
}

/// The practice's profiles elsewhere: social networks and booking platforms, each once.
fn same_as(site: &SiteConfig) -> Vec<String> {
    let mut urls: Vec<String> = Vec::new();
    let candidates = site
        .social
        .iter()
        .map(|s| s.url.as_str())
        .chain([site.booking_url.as_str(), &site.doctor_listing.profile_url])
        .chain(site.therapist_booking.values().map(String::as_str));
    for url in candidates {
        if !urls.iter().any(|u| u == url) {
            urls.push(url.to_string());
        }
    }
    urls
}

/// The questions and answers of a page's FAQ sections.
pub fn faq_page(items: &[FaqItem]) -> Value {
    let questions: Vec<Value> = items
        .iter()
        .map(|i| {
            json!({
                "@type": "Question",
                "name": i.question.replace('\u{a0}', " "),
                "acceptedAnswer": { "@type": "Answer", "text": i.answer.replace('\u{a0}', " ") },
            })
        })
        .collect();
    json!({ "@context": "https://schema.org", "@type": "FAQPage", "mainEntity": questions })
}

fn business_id(site: &SiteConfig) -> String {
    absolute(site, "/#gabinet")
}

/// The practice as a `MedicalBusiness`, with its price list as offers in PLN.
pub fn business(site: &SiteConfig, collections: &Collections, with_offers: bool) -> Value {
    let hours: Vec<Value> = site
        .opening_hours
        .iter()
        .map(|h| json!({ "@type": "OpeningHoursSpecification", "dayOfWeek": h.days, "opens": h.opens, "closes": h.closes }))
        .collect();
    let mut business = json!({
        "@context": "https://schema.org",
        "@type": "MedicalBusiness",
        "@id": business_id(site),
        "name": site.name,
        "description": site.description,
        "url": absolute(site, "/"),
        "image": absolute(site, &format!("/images/{}", site.og_image)),
        "logo": absolute(site, "/favicon.svg"),
        "telephone": site.phone,
        "email": site.email,
        "priceRange": site.price_range,
        "address": {
            "@type": "PostalAddress",
            "streetAddress": site.address.street,
            "postalCode": site.address.postal_code,
            "addressLocality": site.address.city,
            "addressCountry": site.address.country,
        },
        "openingHoursSpecification": hours,
        "sameAs": same_as(site),
    });
    if with_offers {
        let offers: Vec<Value> = collections
            .prices
            .iter()
            .map(|p| {
                let mut offer = json!({
                    "@type": "Offer",
                    "name": p.name,
                    "price": p.amount.to_string(),
                    "priceCurrency": "PLN",
                    "url": absolute(site, &p.href),
                    "itemOffered": { "@type": "Service", "name": p.name },
                });
                if p.from {
                    offer["priceSpecification"] = json!({
                        "@type": "PriceSpecification",
                        "minPrice": p.amount.to_string(),
                        "priceCurrency": "PLN",
                    });
                }
                offer
            })
            .collect();
        business["hasOfferCatalog"] =
            json!({ "@type": "OfferCatalog", "name": "Cennik", "itemListElement": offers });
    }
    business
}

pub fn people(site: &SiteConfig, collections: &Collections) -> Vec<Value> {
    collections
        .team
        .iter()
        .map(|t| {
            json!({
                "@context": "https://schema.org",
                "@type": "Person",
                "name": t.name,
                "jobTitle": t.role,
                "image": absolute(site, &t.photo),
                "url": absolute(site, &format!("/o-mnie#{}", t.slug)),
                "worksFor": { "@id": business_id(site) },
            })
        })
        .collect()
}

pub fn blog_posting(site: &SiteConfig, a: &ArticleCard) -> Value {
    json!({
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        "headline": a.title,
        "description": a.excerpt.replace('\u{a0}', " "),
        "datePublished": a.date_iso,
        "dateModified": a.date_iso,
        "image": absolute(site, &a.image),
        "url": absolute(site, &a.href),
        "mainEntityOfPage": absolute(site, &a.href),
        "inLanguage": "pl-PL",
        "author": { "@type": "Person", "name": a.author },
        "publisher": { "@id": business_id(site) },
    })
}

/// Home, then each step down to the page: `(name, route)`.
pub fn breadcrumbs(site: &SiteConfig, trail: &[(&str, &str)]) -> Value {
    let items: Vec<Value> = std::iter::once(("Strona główna", "/"))
        .chain(trail.iter().copied())
        .enumerate()
        .map(|(i, (name, route))| json!({ "@type": "ListItem", "position": i + 1, "name": name, "item": absolute(site, route) }))
        .collect();
    json!({ "@context": "https://schema.org", "@type": "BreadcrumbList", "itemListElement": items })
}

/// JSON-LD blocks as one JSON text that is safe inside a `<script>` element.
pub fn script_json(blocks: &[Value]) -> String {
    Value::Array(blocks.to_vec())
        .to_string()
        .replace('<', "\\u003c")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_cannot_close_its_script_element() {
        assert!(!script_json(&[json!({ "a": "</script>" })]).contains("</script>"));
    }

    #[test]
    fn xml_is_escaped() {
        assert_eq!(xml_escape("a & <b>"), "a &amp; &lt;b&gt;");
    }
}
