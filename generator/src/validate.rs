//! Checks that span files: duplicate slugs, internal links, images, dates, booking links.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

use crate::dates::Date;
use crate::error::Diagnostic;
use crate::facts;
use crate::images::{classify, ImageRef};
use crate::load::Raw;
use crate::markdown;
use crate::model::{page_route, Content, Document};

struct Checker<'a> {
    raw: &'a Raw,
    routes: BTreeSet<String>,
    problems: Vec<Diagnostic>,
}

impl Checker<'_> {
    fn field_line(&self, file: &Path, field: &str) -> usize {
        self.raw
            .field_lines
            .get(file)
            .and_then(|f| f.get(field))
            .copied()
            .unwrap_or(1)
    }

    fn push(&mut self, file: &Path, line: usize, message: String) {
        self.problems.push(Diagnostic::new(file, line, message));
    }

    fn image_exists(&self, relative: &str) -> bool {
        let images = self.raw.content.root.join("images");
        !relative.contains("..") && images.join(relative).is_file()
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

    fn check_image(&mut self, file: &Path, field: &str, value: &str) {
        if let ImageRef::Local(path) = classify(value) {
            if !self.image_exists(path) {
                let line = self.field_line(file, field);
                self.push(
                    file,
                    line,
                    format!(
                        "{field} '{value}' is neither a full address, a 'photo-…' id nor a file under content/images/"
                    ),
                );
            }
        }
    }

    fn line_in_body<M>(doc: &Document<M>, offset: usize) -> usize {
        doc.body_line + doc.body[..offset.min(doc.body.len())].matches('\n').count()
    }

    fn check_body<M>(&mut self, doc: &Document<M>) {
        for unknown in facts::unknown(&doc.body) {
            let line = Self::line_in_body(doc, unknown.offset);
            let message = format!(
                "'{{{{ {} }}}}' is not a fact of site.yaml; known: {}",
                unknown.name,
                facts::NAMES.join(", ")
            );
            self.push(&doc.file, line, message);
        }
        for p in crate::style::check(&doc.body, &self.raw.content.site) {
            let line = Self::line_in_body(doc, p.offset);
            self.push(&doc.file, line, p.message);
        }
        for target in markdown::targets(&doc.body) {
            let line = doc.body_line + doc.body[..target.offset].matches('\n').count();
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
                self.push(&doc.file, line, message);
            }
        }
    }
}

/// Each route with the files that define it.
fn route_files(content: &Content) -> BTreeMap<String, Vec<PathBuf>> {
    let mut map: BTreeMap<String, Vec<PathBuf>> = BTreeMap::new();
    let pages = content.pages.iter().map(|d| (page_route(&d.slug), &d.file));
    let services = content
        .services
        .iter()
        .map(|d| (format!("/uslugi/{}", d.slug), &d.file));
    let articles = content
        .articles
        .iter()
        .map(|d| (format!("/blog/{}", d.slug), &d.file));
    for (route, file) in pages.chain(services).chain(articles) {
        map.entry(route).or_default().push(file.clone());
    }
    let team = content
        .team
        .iter()
        .map(|d| (format!("team:{}", d.slug), &d.file));
    for (key, file) in team {
        map.entry(key).or_default().push(file.clone());
    }
    map
}

fn check_duplicates(c: &mut Checker<'_>) {
    for (route, files) in route_files(&c.raw.content) {
        for file in files.iter().skip(1) {
            let slug = route
                .rsplit(['/', ':'])
                .next()
                .unwrap_or(&route)
                .to_string();
            let first = files[0].display().to_string();
            c.push(
                file,
                1,
                format!("duplicate slug '{slug}': {first} defines it too"),
            );
        }
    }
}

fn check_documents(c: &mut Checker<'_>) {
    let content = &c.raw.content;
    for doc in &content.pages {
        if let Some(image) = &doc.meta.image {
            c.check_image(&doc.file, "image", image);
        }
        c.check_body(doc);
    }
    for doc in &content.services {
        c.check_image(&doc.file, "image", &doc.meta.image);
        c.check_body(doc);
    }
    for doc in &content.articles {
        c.check_image(&doc.file, "image", &doc.meta.image);
        if let Some(therapist) = &doc.meta.therapist {
            if !content.team.iter().any(|t| &t.slug == therapist) {
                let line = c.field_line(&doc.file, "therapist");
                let message = format!("therapist '{therapist}' is not a file under content/team/");
                c.push(&doc.file, line, message);
            }
        }
        if let Err(message) = Date::parse(&doc.meta.date) {
            let line = c.field_line(&doc.file, "date");
            c.push(&doc.file, line, format!("date: {message}"));
        }
        c.check_body(doc);
    }
    for doc in &content.team {
        c.check_image(&doc.file, "photo", &doc.meta.photo);
        if !content.site.therapist_booking.contains_key(&doc.slug) {
            let line = c.field_line(&doc.file, "name");
            let message = format!("site.yaml has no therapist_booking link for '{}'", doc.slug);
            c.push(&doc.file, line, message);
        }
        c.check_body(doc);
    }
}

fn check_site_files(c: &mut Checker<'_>) {
    let content = &c.raw.content;
    let prices_text = std::fs::read_to_string(&content.prices_file).unwrap_or_default();
    for item in &content.prices.items {
        if let Some(message) = c.broken_link(&item.link) {
            let line = prices_text
                .lines()
                .position(|l| {
                    let l = l.trim().trim_start_matches("- ");
                    l.starts_with("link:") && l.contains(item.link.as_str())
                })
                .map_or(1, |i| i + 1);
            let file = content.prices_file.clone();
            c.push(&file, line, message);
        }
    }
    let site_file = content.root.join("site.yaml");
    check_site_facts(c, &site_file);
    let fallback = &content.site.fallback_images;
    if fallback.len() != 4
        || fallback
            .iter()
            .any(|f| matches!(classify(f), ImageRef::Local(_) | ImageRef::Missing))
    {
        c.push(
            &site_file,
            1,
            "fallback_images must list exactly four 'photo-…' ids or full addresses".into(),
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

fn check_site_facts(c: &mut Checker<'_>, site_file: &Path) {
    let site = &c.raw.content.site;
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
        if !c.raw.content.services.iter().any(|s| &s.slug == slug) {
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
    for (key, message) in problems {
        let line = yaml_line(site_file, key);
        c.push(site_file, line, message);
    }
}

/// Every cross-file problem of the loaded content.
pub fn validate(raw: &Raw) -> Vec<Diagnostic> {
    let mut routes: BTreeSet<String> = raw.content.routes().into_iter().collect();
    routes.extend(raw.failed_routes.iter().cloned());
    let mut checker = Checker {
        raw,
        routes,
        problems: Vec::new(),
    };
    check_duplicates(&mut checker);
    check_documents(&mut checker);
    check_site_files(&mut checker);
    checker.problems
}
