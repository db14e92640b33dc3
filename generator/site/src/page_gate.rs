//! The publish gate ([`crate::gate`]) on the pages a build rendered: each checked (in
//! parallel) with the inline scripts its origin may hold, and every finding told as the content
//! file and line that brought it — looked for in the page's own document first (its front
//! matter's fields as parsed, so a text the panel has not yet written is found too), then every
//! document, the YAML files of `content/`, and last the templates.

use std::collections::BTreeSet;

use crate::gate::{check, locate, Finding, Source};
use crate::output::Output;
use crate::render::Job;

/// The texts of one document as sources: each front matter field at its line (from the
/// parsed value, so a text the panel has not yet written is found too), then the body.
fn document_sources<M: serde::Serialize>(doc: &content::Document<M>) -> Vec<Source<'_>> {
    let mut out = Vec::new();
    if let Ok(serde_json::Value::Object(fields)) = serde_json::to_value(&doc.meta) {
        for (key, value) in fields {
            let Some(line) = doc.field_lines.get(&key) else {
                continue;
            };
            let text = match value {
                serde_json::Value::String(s) => s,
                other => other.to_string(),
            };
            out.push(Source {
                file: doc.file.clone(),
                first_line: *line,
                text: text.into(),
                content: true,
            });
        }
    }
    out.push(Source {
        file: doc.file.clone(),
        first_line: doc.body_line,
        text: std::borrow::Cow::Borrowed(&doc.body),
        content: true,
    });
    out
}

/// Every text a page's markup may come from, the page's own document first: the documents,
/// the YAML files of `content/` and the templates.
fn sources<'a>(renderer: &'a crate::render::Renderer, job: &'a Job) -> Vec<Source<'a>> {
    let c = renderer.content();
    let mut out = match job {
        Job::Page(d) => document_sources(d),
        Job::Service(d) => document_sources(d),
        Job::Article(d) => document_sources(d),
        Job::NotFound => Vec::new(),
    };
    out.extend(c.pages.iter().flat_map(|d| document_sources(d)));
    out.extend(c.services.iter().flat_map(|d| document_sources(d)));
    out.extend(c.articles.iter().flat_map(|d| document_sources(d)));
    out.extend(c.team.iter().flat_map(|d| document_sources(d)));
    let root = content::beneath::Root::new(&c.root);
    for file in [
        c.root.join("site.yaml"),
        c.prices_file.clone(),
        c.words_file.clone(),
    ] {
        if let Ok(text) = root.read_to_string(&file) {
            out.push(Source {
                file,
                first_line: 1,
                text: text.into(),
                content: true,
            });
        }
    }
    for (file, text) in renderer.template_sources() {
        out.push(Source {
            file: file.clone(),
            first_line: 1,
            text: std::borrow::Cow::Borrowed(text),
            content: false,
        });
    }
    out
}

/// The file a page is made from: its document's, `site.yaml` for the error page.
fn page_file(renderer: &crate::render::Renderer, job: &Job) -> std::path::PathBuf {
    match job {
        Job::Page(d) => d.file.clone(),
        Job::Service(d) => d.file.clone(),
        Job::Article(d) => d.file.clone(),
        Job::NotFound => renderer.content().root.join("site.yaml"),
    }
}

/// Checks the pages a build rendered (`pages`: each with the job it was rendered from and the
/// inline scripts it may hold) and fails with every finding, each at the file and line of the
/// content (or template) that caused it.
pub(crate) fn pages(
    renderer: &crate::render::Renderer,
    pages: &[(&Job, &Output, &BTreeSet<String>)],
) -> crate::error::Result<()> {
    use rayon::prelude::*;
    let failed: Vec<(&Job, &Output, Vec<Finding>)> = pages
        .par_iter()
        .filter_map(|(job, page, allowed)| {
            let html = std::str::from_utf8(&page.bytes).ok()?;
            let findings = check(html, allowed);
            (!findings.is_empty()).then_some((*job, *page, findings))
        })
        .collect();
    if failed.is_empty() {
        return Ok(());
    }
    let mut problems = Vec::new();
    for (job, page, findings) in failed {
        let texts = sources(renderer, job);
        let address = match job {
            Job::Page(d) => d.route.clone(),
            Job::Service(d) => d.route.clone(),
            Job::Article(d) => d.route.clone(),
            Job::NotFound => None,
        }
        .unwrap_or_else(|| "błędu 404".to_string());
        for finding in findings {
            let (file, line, in_content) = match locate(&finding, &texts) {
                Some((file, line, in_content)) => (file.to_path_buf(), line, in_content),
                None => (page_file(renderer, job), 1, false),
            };
            tracing::warn!(page = %page.path, line = finding.line, ?finding.found, "publish gate");
            let problem = content::problem::DocumentProblem::UnsafeMarkup {
                page: address.clone(),
                found: Box::new(finding.found),
                in_content,
            };
            problems.push(content::Diagnostic::new(&file, line, problem));
        }
    }
    // What a template writes is on every page made with it: said once, for the first page.
    let mut seen = std::collections::HashSet::new();
    problems.retain(|d| {
        let content::Problem::Document(content::problem::DocumentProblem::UnsafeMarkup {
            found,
            in_content: false,
            ..
        }) = &d.problem
        else {
            return true;
        };
        seen.insert((d.file.clone(), d.line, found.as_ref().clone()))
    });
    problems.sort();
    problems.dedup();
    Err(crate::error::Error::Content(problems))
}
