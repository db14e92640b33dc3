//! Loads the Tera templates, and finds which of them may show the site's collections (the
//! lists of cards), directly or through the templates they extend, include or import.

use regex::Regex;
use sha2::{Digest, Sha256};
use std::collections::{BTreeSet, HashMap, HashSet};
use std::path::Path;
use tera::Tera;

use crate::error::{Error, Result};
use crate::islands::Islands;
use content::walk;

/// The templates, each with whether it may show collections, and one hash of all sources.
pub(crate) struct Templates {
    pub tera: Tera,
    pub uses_collections: HashSet<String>,
    /// Templates that show a page's `image_alt`: its image needs one.
    pub shows_page_alt: HashSet<String>,
    /// The internal addresses the templates link to in their own words (`href="/cennik"`):
    /// pages the navigation, the footer or a page's frame lead to.
    pub links: BTreeSet<String>,
    pub hash: [u8; 32],
    /// The CSP hashes of the inline scripts the sources write (`'sha256-…'`): the only
    /// inline code a public page may hold.
    pub script_hashes: std::collections::BTreeSet<String>,
    /// Each template's file and text: where the publish gate looks for what a page holds
    /// when no content holds it.
    pub sources: Vec<(std::path::PathBuf, String)>,
}

/// Every internal address a template links to literally, without its fragment.
fn literal_links(sources: &[(String, String)]) -> BTreeSet<String> {
    let href = content::constant_regex(r#"href="(/[^"{}#?]*)"#);
    sources
        .iter()
        .flat_map(|(_, source)| href.captures_iter(source))
        .filter_map(|c| c.get(1))
        .map(|m| match m.as_str().trim_end_matches('/') {
            "" => "/".to_string(),
            path => path.to_string(),
        })
        .collect()
}

/// Tera's error with every cause, on one line.
pub(crate) fn message(e: &tera::Error) -> String {
    let mut message = e.to_string();
    let mut source = std::error::Error::source(e);
    while let Some(s) = source {
        message.push_str(": ");
        message.push_str(&s.to_string());
        source = s.source();
    }
    message
}

/// Escapes what HTML needs escaped, in text and in any attribute (the backtick too, which old
/// parsers took for a quote); unlike Tera's default it leaves `/` as it is.
pub(crate) fn escape_html(input: &str) -> String {
    let mut out = String::with_capacity(input.len() + 8);
    for c in input.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            '`' => out.push_str("&#96;"),
            _ => out.push(c),
        }
    }
    out
}

fn collection_users(sources: &[(String, String)]) -> HashSet<String> {
    // The variable's whole name: with the short `c` it had, a loop's `{% for c in … %}` in
    // the breadcrumb trail made every page a user, and every page then had every article's
    // card copied into its context (a build of 3,000 articles took 12 s, of 10,000 minutes).
    let uses = content::constant_regex(r"(^|[^A-Za-z0-9_.])collections\b");
    users(sources, &uses)
}

/// Templates whose source, or a source they extend, include or import, matches `uses`.
fn users(sources: &[(String, String)], uses: &Regex) -> HashSet<String> {
    let reference = content::constant_regex(r#"\{%-?\s*(?:extends|include|import)\s+"([^"]+)""#);
    let by_name: HashMap<&str, &str> = sources
        .iter()
        .map(|(n, s)| (n.as_str(), s.as_str()))
        .collect();
    let mut users = HashSet::new();
    for (name, _) in sources {
        let mut stack = vec![name.as_str()];
        let mut seen = HashSet::new();
        while let Some(current) = stack.pop() {
            if !seen.insert(current) {
                continue;
            }
            let Some(source) = by_name.get(current) else {
                continue;
            };
            if uses.is_match(source) {
                users.insert(name.clone());
                break;
            }
            stack.extend(
                reference
                    .captures_iter(source)
                    .filter_map(|c| c.get(1))
                    .map(|m| m.as_str()),
            );
        }
    }
    users
}

pub(crate) fn load(dir: &Path, islands: &Islands) -> Result<Templates> {
    let mut sources: Vec<(String, String)> = Vec::new();
    for found in walk::files(dir, dir)? {
        if found.relative.ends_with(".html") {
            let bytes = found.read().map_err(|e| Error::read(&found.path, e))?;
            sources.push((found.relative, String::from_utf8_lossy(&bytes).into_owned()));
        }
    }
    let mut hasher = Sha256::new();
    for (name, source) in &sources {
        hasher.update(name.as_bytes());
        hasher.update([0]);
        hasher.update(source.as_bytes());
        hasher.update([0]);
    }
    let script_hashes = crate::headers::template_script_hashes(&sources)
        .map_err(|(name, message)| Error::Template { name, message })?;
    let uses_collections = collection_users(&sources);
    let page_alt = content::constant_regex(r"(^|[^A-Za-z0-9_.])page\.image_alt\b");
    let shows_page_alt = users(&sources, &page_alt);
    let files: Vec<(std::path::PathBuf, String)> = sources
        .iter()
        .map(|(name, text)| (dir.join(name), text.clone()))
        .collect();
    let links = literal_links(&sources);
    let mut tera = Tera::default();
    tera.set_escape_fn(escape_html);
    islands.register(&mut tera);
    tera.add_raw_templates(sources)
        .map_err(|e| Error::Template {
            name: dir.display().to_string(),
            message: message(&e),
        })?;
    Ok(Templates {
        tera,
        uses_collections,
        shows_page_alt,
        links,
        hash: hasher.finalize().into(),
        script_hashes,
        sources: files,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_literal_internal_links_of_templates_are_found() {
        let sources = vec![(
            "footer.html".to_string(),
            r#"<a href="/regulamin">R</a> <a href="/#contact">K</a> <a href="{{ s.href }}">x</a> <a href="https://x.pl/">e</a> <a href="/blog/">B</a>"#.to_string(),
        )];
        let links: Vec<String> = literal_links(&sources).into_iter().collect();
        assert_eq!(links, ["/", "/blog", "/regulamin"]);
    }

    #[test]
    fn escaping_keeps_slashes_and_escapes_markup() {
        assert_eq!(
            escape_html("/a?b=1&c=<\"'>`"),
            "/a?b=1&amp;c=&lt;&quot;&#39;&gt;&#96;"
        );
    }

    #[test]
    fn a_template_uses_collections_through_what_it_extends_or_includes() {
        let sources = vec![
            (
                "base.html".to_string(),
                "{% include \"list.html\" %}".to_string(),
            ),
            (
                "list.html".to_string(),
                "{% for a in collections.articles %}{% endfor %}".to_string(),
            ),
            (
                "page.html".to_string(),
                "{% extends \"base.html\" %}".to_string(),
            ),
            ("plain.html".to_string(), "{{ page.title }}".to_string()),
            (
                "trail.html".to_string(),
                "{% for c in page.trail %}{{ c.name }}{% endfor %}".to_string(),
            ),
            (
                "loop.html".to_string(),
                "{% for a in my_collections.articles %}{% endfor %}".to_string(),
            ),
        ];
        let users = collection_users(&sources);
        assert!(users.contains("page.html") && users.contains("list.html"));
        for plain in ["plain.html", "trail.html", "loop.html"] {
            assert!(!users.contains(plain), "{plain} shows no listing");
        }
    }
}
