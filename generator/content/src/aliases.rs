//! The old addresses of documents (`aliases:` of pages, services and articles), each with
//! where it was written, and what an alias may be. The site answers them with `301`, from the
//! sidecar, `_redirects` and nginx alike.

use std::path::Path;

use crate::model::{Content, Document};
use crate::problem::DocumentProblem;

/// Path prefixes that belong to files or to the API, never to an alias.
const RESERVED: [&str; 3] = ["/api/", "/assets/", "/images/"];

/// One `aliases:` entry with where it was written.
pub struct Alias<'a> {
    pub from: &'a str,
    pub to: &'a str,
    pub file: &'a Path,
    pub line: usize,
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
pub fn aliases(content: &Content) -> Vec<Alias<'_>> {
    let mut out = Vec::new();
    let root = crate::beneath::Root::new(&content.root);
    let text = |file: &Path| root.read_to_string(file).unwrap_or_default();
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
pub fn alias_problem(alias: &str) -> Option<DocumentProblem> {
    let plain = |c: char| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.' | '~');
    let owned = || alias.to_string();
    let Some(rest) = alias.strip_prefix('/') else {
        return Some(DocumentProblem::AliasNoSlash { alias: owned() });
    };
    if rest.is_empty() || rest.ends_with('/') {
        return Some(DocumentProblem::AliasTrailingSlash { alias: owned() });
    }
    if let Some(prefix) = RESERVED.iter().find(|p| alias.starts_with(*p)) {
        return Some(DocumentProblem::AliasReserved {
            alias: owned(),
            prefix: prefix.to_string(),
        });
    }
    let bad_segment = rest
        .split('/')
        .any(|s| s.is_empty() || s.starts_with(['.', '_']) || !s.chars().all(plain));
    bad_segment.then(|| DocumentProblem::AliasCharacters { alias: owned() })
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
