//! Every page search engines may index is linked from at least one other page: by a text (a
//! page, a service, an article, a profile, the price list), by a listing (the services' and
//! the blog's lists, the home page's teasers) or by a template (the navigation, the footer).
//! A page nothing links to is found only by its address, and search engines treat it as one
//! the site itself does not stand behind.

use std::collections::{BTreeSet, HashSet};

use crate::error::Diagnostic;
use crate::model::{Content, Document, PANEL_TEMPLATE};
use crate::problem::DocumentProblem;

/// The path an internal link leads to: without its fragment, query and trailing slash.
fn path_of(url: &str) -> Option<&str> {
    if !url.starts_with('/') || url.starts_with("//") {
        return None;
    }
    let path = url.split(['#', '?']).next().unwrap_or(url);
    Some(match path.trim_end_matches('/') {
        "" => "/",
        p => p,
    })
}

/// The routes the links of `doc`'s text lead to, but its own.
fn links_of<'a, M>(doc: &'a Document<M>, into: &mut HashSet<&'a str>) {
    for target in doc.links.iter().filter(|t| !t.is_image) {
        if let Some(path) = path_of(&target.url) {
            if doc.route.as_deref() != Some(path) {
                into.insert(path);
            }
        }
    }
}

/// The public pages of `content` (as the public sees it) that no other page links to, each
/// at the line of its title. `template_links`: the internal addresses the templates link to
/// in their own words (`href="/cennik"`). A listed service or article is linked by its list:
/// it is not looked up (nor its route added to the set: thousands of articles are listed).
pub fn orphans(content: &Content, template_links: &BTreeSet<String>) -> Vec<Diagnostic> {
    let mut linked: HashSet<&str> = template_links.iter().map(String::as_str).collect();
    for doc in &content.pages {
        links_of(doc, &mut linked);
    }
    for doc in &content.services {
        links_of(doc, &mut linked);
    }
    for doc in &content.articles {
        links_of(doc, &mut linked);
    }
    for doc in &content.team {
        links_of(doc, &mut linked);
    }
    linked.extend(content.prices.items.iter().filter_map(|i| path_of(&i.link)));
    let mut out = Vec::new();
    let mut check = |route: Option<&str>, file, line| {
        if let Some(route) = route.filter(|r| *r != "/" && !linked.contains(r)) {
            let route = route.to_string();
            out.push(Diagnostic::new(
                file,
                line,
                DocumentProblem::Orphan { route },
            ));
        }
    };
    for doc in &content.pages {
        if doc.meta.template != PANEL_TEMPLATE && !doc.meta.noindex {
            check(doc.route.as_deref(), &doc.file, title_line(doc));
        }
    }
    for doc in &content.services {
        if !(doc.meta.listed || doc.meta.featured) {
            check(doc.route.as_deref(), &doc.file, title_line(doc));
        }
    }
    for doc in &content.articles {
        if !doc.meta.listed {
            check(doc.route.as_deref(), &doc.file, title_line(doc));
        }
    }
    out
}

fn title_line<M>(doc: &Document<M>) -> usize {
    doc.field_lines.get("title").copied().unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_links_lead_to_their_paths() {
        assert_eq!(
            path_of("/uslugi/terapia-par#faq"),
            Some("/uslugi/terapia-par")
        );
        assert_eq!(path_of("/blog/?strona=2"), Some("/blog"));
        assert_eq!(path_of("/"), Some("/"));
        assert_eq!(path_of("https://example.pl/x"), None);
        assert_eq!(path_of("//example.pl/x"), None);
        assert_eq!(path_of("tel:112"), None);
    }
}
