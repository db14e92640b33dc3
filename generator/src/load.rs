//! Reads `content/` into the typed model, collecting every problem instead of stopping at one.

use serde::de::DeserializeOwned;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use walkdir::WalkDir;

use crate::error::{Diagnostic, Error, Result};
use crate::model::{Content, Document, PriceList, SiteConfig};
use crate::{frontmatter, sections, yaml};

/// A Markdown document together with where each front-matter field was written.
pub struct Loaded<M> {
    pub doc: Document<M>,
    pub field_lines: BTreeMap<String, usize>,
}

/// Line of each top-level key in a YAML text, offset to file lines.
fn top_level_keys(yaml_text: &str, first_line: usize) -> BTreeMap<String, usize> {
    yaml_text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.starts_with(|c: char| c.is_ascii_alphabetic()))
        .filter_map(|(i, l)| Some((l.split_once(':')?.0.trim().to_string(), first_line + i)))
        .collect()
}

fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|e| Error::read(path, e))
}

fn valid_slug(slug: &str) -> bool {
    !slug.is_empty()
        && slug
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// Parses one Markdown document with front matter of type `M`.
pub fn parse_document<M: DeserializeOwned>(
    file: &Path,
    text: &str,
) -> std::result::Result<Loaded<M>, Diagnostic> {
    let slug = file
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or_default()
        .to_string();
    if !valid_slug(&slug) {
        return Err(Diagnostic::new(
            file,
            1,
            format!("the file name '{slug}' is not a slug: use lowercase letters, digits and '-'"),
        ));
    }
    let split = frontmatter::split(text).map_err(|(line, msg)| Diagnostic::new(file, line, msg))?;
    let meta: M = yaml::parse(split.yaml).map_err(|e| {
        let line = e.line.map_or(1, |l| split.yaml_line + l - 1);
        Diagnostic::new(file, line, format!("front matter: {}", e.message))
    })?;
    Ok(Loaded {
        field_lines: top_level_keys(split.yaml, split.yaml_line),
        doc: Document {
            slug,
            file: file.to_path_buf(),
            meta,
            sections: sections::parse(split.body).sections,
            body: split.body.to_string(),
            body_line: split.body_line,
            hash: sha2::Digest::finalize(<sha2::Sha256 as sha2::Digest>::new_with_prefix(
                text.as_bytes(),
            ))
            .into(),
        },
    })
}

/// Loads every `.md` file under `dir`, sorted by slug; the slugs of files that failed to
/// load go to `failed`, so that links to them are not reported a second time.
fn load_kind<M: DeserializeOwned>(
    dir: &Path,
    problems: &mut Vec<Diagnostic>,
    failed: &mut Vec<String>,
) -> Vec<Loaded<M>> {
    let mut out = Vec::new();
    for entry in WalkDir::new(dir).sort_by_file_name() {
        let entry = match entry {
            Ok(e) => e,
            Err(e) => {
                problems.push(Diagnostic::new(
                    dir,
                    1,
                    format!("cannot list the folder: {e}"),
                ));
                continue;
            }
        };
        let path = entry.path();
        let hidden = entry.file_name().to_string_lossy().starts_with('.');
        if !entry.file_type().is_file() || hidden {
            continue;
        }
        if path.extension().and_then(|e| e.to_str()) != Some("md") {
            problems.push(Diagnostic::new(
                path,
                1,
                "only Markdown files (.md) belong in this folder",
            ));
            continue;
        }
        match read(path).map_err(|e| Diagnostic::new(path, 1, e.to_string())) {
            Ok(text) => match parse_document(path, &text) {
                Ok(doc) => out.push(doc),
                Err(d) => {
                    problems.push(d);
                    let stem = path.file_stem().unwrap_or_default();
                    failed.push(stem.to_string_lossy().into_owned());
                }
            },
            Err(d) => problems.push(d),
        }
    }
    out.sort_by(|a, b| a.doc.slug.cmp(&b.doc.slug));
    out
}

fn load_yaml<T: DeserializeOwned>(path: &Path, problems: &mut Vec<Diagnostic>) -> Option<T> {
    let text = match read(path) {
        Ok(t) => t,
        Err(e) => {
            problems.push(Diagnostic::new(path, 1, e.to_string()));
            return None;
        }
    };
    yaml::parse(&text)
        .map_err(|e| problems.push(Diagnostic::new(path, e.line.unwrap_or(1), e.message)))
        .ok()
}

/// The loaded content with where each front-matter field was written.
pub struct Raw {
    pub content: Content,
    pub field_lines: BTreeMap<PathBuf, BTreeMap<String, usize>>,
    /// Routes of documents that exist but failed to load.
    pub failed_routes: Vec<String>,
}

fn split_loaded<M>(
    loaded: Vec<Loaded<M>>,
    lines: &mut BTreeMap<PathBuf, BTreeMap<String, usize>>,
) -> Vec<Document<M>> {
    loaded
        .into_iter()
        .map(|l| {
            lines.insert(l.doc.file.clone(), l.field_lines);
            l.doc
        })
        .collect()
}

/// Loads all of `content_dir`. Returns the content when `site.yaml` and the price list
/// could be read (documents that failed are left out), and every problem found.
pub fn load(content_dir: &Path) -> (Option<Raw>, Vec<Diagnostic>) {
    let mut problems = Vec::new();
    let (mut failed_pages, mut failed_services, mut failed_articles) = (vec![], vec![], vec![]);
    let site: Option<SiteConfig> = load_yaml(&content_dir.join("site.yaml"), &mut problems);
    let prices_file = content_dir.join("cennik.yaml");
    let prices: Option<PriceList> = load_yaml(&prices_file, &mut problems);
    let pages = load_kind(&content_dir.join("pages"), &mut problems, &mut failed_pages);
    let services = load_kind(
        &content_dir.join("services"),
        &mut problems,
        &mut failed_services,
    );
    let articles = load_kind(
        &content_dir.join("blog"),
        &mut problems,
        &mut failed_articles,
    );
    let team = load_kind(&content_dir.join("team"), &mut problems, &mut Vec::new());
    let (Some(site), Some(prices)) = (site, prices) else {
        return (None, problems);
    };
    let mut field_lines = BTreeMap::new();
    let failed_routes = failed_pages
        .iter()
        .map(|s| crate::model::page_route(s))
        .chain(failed_services.iter().map(|s| format!("/uslugi/{s}")))
        .chain(failed_articles.iter().map(|s| format!("/blog/{s}")))
        .collect();
    let content = Content {
        root: content_dir.to_path_buf(),
        site,
        pages: split_loaded(pages, &mut field_lines),
        services: split_loaded(services, &mut field_lines),
        articles: split_loaded(articles, &mut field_lines),
        team: split_loaded(team, &mut field_lines),
        prices,
        prices_file,
    };
    let raw = Raw {
        content,
        field_lines,
        failed_routes,
    };
    (Some(raw), problems)
}
