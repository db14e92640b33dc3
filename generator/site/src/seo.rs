//! What search engines read besides the pages' structured data (`structured`): the sitemap
//! with accurate dates, robots.txt and the blog's Atom feed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::views::ArticleCard;
use content::dates::Date;
use content::model::{Content, SiteConfig};

pub(crate) fn absolute(site: &SiteConfig, path: &str) -> String {
    if path.starts_with("http://") || path.starts_with("https://") {
        path.to_string()
    } else {
        format!("{}{}", site.site_url.trim_end_matches('/'), path)
    }
}

/// Whether `dir` is inside a git work tree (a `.git` in it or a folder above it).
fn in_git(dir: &Path) -> bool {
    let dir = std::fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
    dir.ancestors().any(|d| d.join(".git").exists())
}

/// The last commit date of each file under `content_dir`, from one `git log`; kept until the
/// repository's HEAD moves.
#[derive(Default)]
pub(crate) struct GitDates {
    head: Option<String>,
    dates: HashMap<PathBuf, String>,
}

fn git(content_dir: &Path, args: &[&str]) -> Option<String> {
    let output = subprocess::git(content_dir)
        .args(args)
        .output()
        .ok()
        .filter(|o| o.status.success())?;
    Some(String::from_utf8_lossy(&output.stdout).into_owned())
}

impl GitDates {
    pub(crate) fn refresh(&mut self, content_dir: &Path) -> &HashMap<PathBuf, String> {
        if !in_git(content_dir) {
            self.dates.clear();
            return &self.dates;
        }
        let head = git(content_dir, &["rev-parse", "HEAD"]);
        if head.is_some() && head == self.head {
            return &self.dates;
        }
        self.head = head;
        self.dates.clear();
        let log = git(
            content_dir,
            &[
                "log",
                "--relative",
                "--name-only",
                "--format=%x00%cs",
                "--",
                ".",
            ],
        )
        .unwrap_or_default();
        let mut current = String::new();
        for line in log.lines() {
            if let Some(date) = line.strip_prefix('\0') {
                current = date.to_string();
            } else if !line.is_empty() {
                self.dates
                    .entry(content_dir.join(line))
                    .or_insert_with(|| current.clone());
            }
        }
        &self.dates
    }
}

fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Every public route with its file and modification time, noindex pages left out.
fn public_routes(content: &Content) -> Vec<(&str, &Path, Option<std::time::SystemTime>)> {
    let pages = content
        .pages
        .iter()
        .filter(|p| !p.meta.noindex)
        .filter_map(|d| Some((d.route.as_deref()?, d.file.as_path(), d.modified)));
    let services = content
        .services
        .iter()
        .filter_map(|d| Some((d.route.as_deref()?, d.file.as_path(), d.modified)));
    let articles = content
        .articles
        .iter()
        .filter_map(|d| Some((d.route.as_deref()?, d.file.as_path(), d.modified)));
    pages.chain(services).chain(articles).collect()
}

/// The sitemap: every public route with its last commit date, or its modification time.
/// Written straight into one buffer: with thousands of articles it is rebuilt often.
pub(crate) fn sitemap(content: &Content, git_dates: &HashMap<PathBuf, String>) -> String {
    use std::fmt::Write;
    let base = content.site.site_url.trim_end_matches('/');
    let base = xml_escape(base);
    let routes = public_routes(content);
    let mut out = String::with_capacity(64 + routes.len() * (base.len() + 64));
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    let mut day_cache: Option<(u64, String)> = None;
    for (route, file, modified) in routes {
        out.push_str("  <url><loc>");
        out.push_str(&base);
        // Routes are made of slugs: nothing in them needs escaping.
        out.push_str(route);
        out.push_str("</loc>");
        if let Some(date) = git_dates.get(file) {
            let _ = write!(out, "<lastmod>{date}</lastmod>");
        } else if let Some(seconds) = modified
            .and_then(|m| m.duration_since(std::time::UNIX_EPOCH).ok())
            .map(|d| d.as_secs())
        {
            let day = seconds / 86_400;
            if day_cache.as_ref().is_none_or(|(d, _)| *d != day) {
                day_cache = Some((day, Date::from_unix(seconds as i64).iso()));
            }
            if let Some((_, date)) = &day_cache {
                let _ = write!(out, "<lastmod>{date}</lastmod>");
            }
        }
        out.push_str("</url>\n");
    }
    out.push_str("</urlset>\n");
    out
}

pub(crate) fn robots(site: &SiteConfig) -> String {
    format!(
        "User-agent: *\nDisallow: /administratormagda\nDisallow: /api/\n\nSitemap: {}\n",
        absolute(site, "/sitemap.xml")
    )
}

/// How many of the newest articles the feed carries: readers fetch it often, and a feed of
/// every article ever written would grow without end.
pub(crate) const FEED_ENTRIES: usize = 50;

pub(crate) fn atom_feed(site: &SiteConfig, articles: &[std::sync::Arc<ArticleCard>]) -> String {
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
    for a in articles.iter().take(FEED_ENTRIES) {
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
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn xml_is_escaped() {
        assert_eq!(xml_escape("a & <b>"), "a &amp; &lt;b&gt;");
    }
}
