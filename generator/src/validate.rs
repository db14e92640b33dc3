//! Checks of the content. A document's own problems (house style, unknown facts) are
//! checked when it is read and cached with it; the checks that span files (duplicate slugs,
//! internal links, images, dates, booking links, the facts of `site.yaml`) run every build.

use sha2::{Digest, Sha256};
use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};

use crate::dates::Date;
use crate::error::Diagnostic;
use crate::facts;
use crate::images::{classify, ImageRef};
use crate::kind::DocId;
use crate::model::{Content, Document, SiteConfig};
use crate::walk;

pub(crate) fn line_in_body<M>(doc: &Document<M>, offset: usize) -> usize {
    doc.body_line + doc.body[..offset.min(doc.body.len())].matches('\n').count()
}

/// The problems a document has on its own: unknown facts and the house style.
pub(crate) fn document<M>(doc: &Document<M>, site: &SiteConfig) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for unknown in facts::unknown(&doc.body) {
        let message = format!(
            "'{{{{ {} }}}}' is not a fact of site.yaml; known: {}",
            unknown.name,
            facts::NAMES.join(", ")
        );
        out.push(Diagnostic::new(
            &doc.file,
            line_in_body(doc, unknown.offset),
            message,
        ));
    }
    for p in crate::style::check(&doc.body, site) {
        out.push(Diagnostic::new(
            &doc.file,
            line_in_body(doc, p.offset),
            p.message,
        ));
    }
    out
}

/// What the cross-file checks of one document are made against.
struct Context<'a> {
    content: &'a Content,
    routes: &'a HashSet<String>,
    images: &'a HashSet<String>,
}

impl Context<'_> {
    fn image_exists(&self, relative: &str) -> bool {
        self.images.contains(relative)
    }

    /// Why an internal address does not lead anywhere, if it does not.
    fn broken_link(&self, url: &str) -> Option<String> {
        let external = ["http://", "https://", "mailto:", "tel:", "#"];
        if external.iter().any(|p| url.starts_with(p)) {
            return None;
        }
        if !url.starts_with('/') || url.starts_with("//") {
            return Some(format!(
                "the link '{url}' must be a full address or start with '/'"
            ));
        }
        let path = url.split(['#', '?']).next().unwrap_or(url);
        let trimmed = match path.trim_end_matches('/') {
            "" => "/",
            p => p,
        };
        let ok = match trimmed.strip_prefix("/images/") {
            Some(file) => self.image_exists(file),
            None => self.routes.contains(trimmed),
        };
        (!ok).then(|| format!("the link '{url}' leads to no page of this site"))
    }

    fn check_image<M>(
        &self,
        doc: &Document<M>,
        field: &str,
        value: &str,
        out: &mut Vec<Diagnostic>,
    ) {
        if let ImageRef::Local(path) = classify(value) {
            if !self.image_exists(path) {
                let message = format!(
                    "{field} '{value}' is neither a full address, a 'photo-…' id nor a file under content/images/"
                );
                out.push(Diagnostic::new(&doc.file, field_line(doc, field), message));
            }
        }
    }

    fn check_links<M>(&self, doc: &Document<M>, out: &mut Vec<Diagnostic>) {
        for target in &doc.links {
            let problem = if target.is_image {
                match classify(&target.url) {
                    ImageRef::Local(p) if !self.image_exists(p) => Some(format!(
                        "the image '{}' is not a file under content/images/",
                        target.url
                    )),
                    _ => None,
                }
            } else {
                self.broken_link(&target.url)
            };
            if let Some(message) = problem {
                out.push(Diagnostic::new(
                    &doc.file,
                    line_in_body(doc, target.offset),
                    message,
                ));
            }
        }
    }
}

fn field_line<M>(doc: &Document<M>, field: &str) -> usize {
    doc.field_lines.get(field).copied().unwrap_or(1)
}

/// Cross-file checks of earlier loads: a load re-checks only the documents that changed, or
/// every one when what they are checked against changed (routes, images, team, booking links).
#[derive(Default)]
pub(crate) struct Checks {
    context: [u8; 32],
    routes: HashSet<String>,
    images: HashSet<String>,
    duplicates: Vec<Diagnostic>,
    documents: HashMap<DocId, ([u8; 32], Vec<Diagnostic>)>,
}

/// Two files of one kind with the same name (in different sub-folders) are one document.
fn duplicates(content: &Content) -> Vec<Diagnostic> {
    let mut first: HashMap<&DocId, &PathBuf> = HashMap::new();
    let ids = content
        .pages
        .iter()
        .map(|d| (&d.id, &d.file))
        .chain(content.services.iter().map(|d| (&d.id, &d.file)))
        .chain(content.articles.iter().map(|d| (&d.id, &d.file)))
        .chain(content.team.iter().map(|d| (&d.id, &d.file)));
    let mut out = Vec::new();
    for (id, file) in ids {
        if let Some(earlier) = first.insert(id, file) {
            // Report the file that sorts later, naming the one that sorts first.
            let (a, b) = if earlier <= file {
                (earlier, file)
            } else {
                (file, earlier)
            };
            let message = format!(
                "duplicate slug '{}': {} defines it too",
                id.slug,
                a.display()
            );
            out.push(Diagnostic::new(b, 1, message));
            first.insert(id, a);
        }
    }
    out
}

/// A hash of everything a document's cross-file checks depend on besides the document.
fn context_key(content: &Content, failed_routes: &[String], images: &[String]) -> [u8; 32] {
    let mut h = Sha256::new();
    let ids = content
        .pages
        .iter()
        .map(|d| (&d.id, &d.file))
        .chain(content.services.iter().map(|d| (&d.id, &d.file)))
        .chain(content.articles.iter().map(|d| (&d.id, &d.file)))
        .chain(content.team.iter().map(|d| (&d.id, &d.file)));
    for (id, file) in ids {
        h.update(id.kind.folder().as_bytes());
        h.update(id.slug.as_bytes());
        h.update(file.as_os_str().as_encoded_bytes());
        h.update([0]);
    }
    for text in failed_routes.iter().chain(images) {
        h.update(text.as_bytes());
        h.update([1]);
    }
    for slug in content.site.therapist_booking.keys() {
        h.update(slug.as_bytes());
        h.update([2]);
    }
    h.finalize().into()
}

impl Checks {
    fn refresh(&mut self, content: &Content, failed_routes: &[String]) {
        let images: Vec<String> = walk::files(&content.root.join("images"))
            .unwrap_or_default()
            .into_iter()
            .map(|f| f.relative)
            .collect();
        let key = context_key(content, failed_routes, &images);
        if key == self.context {
            return;
        }
        self.routes = content
            .routes()
            .into_iter()
            .chain(failed_routes.iter().cloned())
            .collect();
        self.images = images.into_iter().collect();
        self.duplicates = duplicates(content);
        self.documents.clear();
        self.context = key;
    }

    /// The problems of one document, checked again only if it changed.
    fn document<M>(
        &mut self,
        content: &Content,
        doc: &Document<M>,
        check: impl FnOnce(&Context<'_>, &mut Vec<Diagnostic>),
        out: &mut Vec<Diagnostic>,
    ) {
        if let Some((hash, problems)) = self.documents.get(&doc.id) {
            if *hash == doc.hash {
                out.extend(problems.iter().cloned());
                return;
            }
        }
        let context = Context {
            content,
            routes: &self.routes,
            images: &self.images,
        };
        let mut problems = Vec::new();
        check(&context, &mut problems);
        context.check_links(doc, &mut problems);
        out.extend(problems.iter().cloned());
        self.documents.insert(doc.id.clone(), (doc.hash, problems));
    }
}

/// Each alias is a plain path that no route, no other alias and no file of the site has.
fn check_aliases(checks: &Checks, content: &Content, out: &mut Vec<Diagnostic>) {
    let mut seen: HashMap<&str, (PathBuf, usize)> = HashMap::new();
    for alias in crate::edge::aliases(content) {
        let problem = if let Some(problem) = crate::edge::alias_problem(alias.from) {
            Some(problem)
        } else if checks.routes.contains(alias.from) {
            Some(format!(
                "alias '{}' is the address of an existing page",
                alias.from
            ))
        } else if let Some((file, line)) = seen.get(alias.from) {
            Some(format!(
                "alias '{}' is already an alias in {}:{line}",
                alias.from,
                file.display()
            ))
        } else {
            seen.insert(alias.from, (alias.file.to_path_buf(), alias.line));
            None
        };
        if let Some(message) = problem {
            out.push(Diagnostic::new(alias.file, alias.line, message));
        }
    }
}

fn check_documents(checks: &mut Checks, content: &Content, out: &mut Vec<Diagnostic>) {
    for doc in &content.pages {
        checks.document(
            content,
            doc.as_ref(),
            |c, p| {
                if let Some(image) = &doc.meta.image {
                    c.check_image(doc.as_ref(), "image", image, p);
                }
            },
            out,
        );
    }
    for doc in &content.services {
        checks.document(
            content,
            doc.as_ref(),
            |c, p| c.check_image(doc.as_ref(), "image", &doc.meta.image, p),
            out,
        );
    }
    for doc in &content.articles {
        checks.document(
            content,
            doc.as_ref(),
            |c, p| {
                c.check_image(doc.as_ref(), "image", &doc.meta.image, p);
                if let Some(therapist) = &doc.meta.therapist {
                    if !c.content.team.iter().any(|t| t.slug() == therapist) {
                        let message =
                            format!("therapist '{therapist}' is not a file under content/team/");
                        p.push(Diagnostic::new(
                            &doc.file,
                            field_line(doc.as_ref(), "therapist"),
                            message,
                        ));
                    }
                }
                if let Err(message) = Date::parse(&doc.meta.date) {
                    p.push(Diagnostic::new(
                        &doc.file,
                        field_line(doc.as_ref(), "date"),
                        format!("date: {message}"),
                    ));
                }
            },
            out,
        );
    }
    for doc in &content.team {
        checks.document(
            content,
            doc.as_ref(),
            |c, p| {
                c.check_image(doc.as_ref(), "photo", &doc.meta.photo, p);
                if !c.content.site.therapist_booking.contains_key(doc.slug()) {
                    let message = format!(
                        "site.yaml has no therapist_booking link for '{}'",
                        doc.slug()
                    );
                    p.push(Diagnostic::new(
                        &doc.file,
                        field_line(doc.as_ref(), "name"),
                        message,
                    ));
                }
            },
            out,
        );
    }
}

/// 1-based line of the first line of `file` that starts with `key:` (after indentation).
fn yaml_line(file: &Path, key: &str) -> usize {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .position(|l| l.trim_start().starts_with(&format!("{key}:")))
        .map_or(1, |i| i + 1)
}

fn check_site_facts(content: &Content, out: &mut Vec<Diagnostic>) {
    let site = &content.site;
    let site_file = content.root.join("site.yaml");
    let mut problems = Vec::new();
    if !crate::style::valid_nip(&site.nip) {
        problems.push((
            "nip",
            format!(
                "nip '{}' is not a valid NIP (10 digits with a check digit)",
                site.nip
            ),
        ));
    }
    if !crate::style::valid_regon(&site.regon) {
        problems.push((
            "regon",
            format!(
                "regon '{}' is not a valid REGON (9 digits with a check digit)",
                site.regon
            ),
        ));
    }
    for slug in &site.online_services {
        if !content.services.iter().any(|s| s.slug() == slug) {
            problems.push((
                "online_services",
                format!("online_services: '{slug}' is not a file under content/services/"),
            ));
        }
    }
    for unknown in facts::unknown(&site.contact_clause) {
        problems.push((
            "contact_clause",
            format!("contact_clause: '{{{{ {} }}}}' is not a fact", unknown.name),
        ));
    }
    if site.cookies.is_empty() {
        problems.push((
            "cookies",
            "cookies: list every cookie the site sets (the privacy policy shows them)".to_string(),
        ));
    }
    let fallback = &site.fallback_images;
    if fallback.len() != 4
        || fallback
            .iter()
            .any(|f| matches!(classify(f), ImageRef::Local(_) | ImageRef::Missing))
    {
        let message = "fallback_images must list exactly four 'photo-…' ids or full addresses";
        problems.push(("fallback_images", message.to_string()));
    }
    for (key, message) in problems {
        out.push(Diagnostic::new(
            &site_file,
            yaml_line(&site_file, key),
            message,
        ));
    }
}

fn check_prices(checks: &Checks, content: &Content, out: &mut Vec<Diagnostic>) {
    let context = Context {
        content,
        routes: &checks.routes,
        images: &checks.images,
    };
    let mut prices_text: Option<String> = None;
    for item in &content.prices.items {
        if let Some(message) = context.broken_link(&item.link) {
            let text = prices_text.get_or_insert_with(|| {
                std::fs::read_to_string(&content.prices_file).unwrap_or_default()
            });
            let line = text
                .lines()
                .position(|l| {
                    let l = l.trim().trim_start_matches("- ");
                    l.starts_with("link:") && l.contains(item.link.as_str())
                })
                .map_or(1, |i| i + 1);
            out.push(Diagnostic::new(&content.prices_file, line, message));
        }
    }
}

/// Every cross-file problem of the loaded content; `failed_routes` are documents that exist
/// but failed to load, so links to them are not reported a second time.
pub(crate) fn validate(
    content: &Content,
    failed_routes: &[String],
    checks: &mut Checks,
) -> Vec<Diagnostic> {
    checks.refresh(content, failed_routes);
    let mut out = checks.duplicates.clone();
    check_documents(checks, content, &mut out);
    check_aliases(checks, content, &mut out);
    check_prices(checks, content, &mut out);
    check_site_facts(content, &mut out);
    out
}
