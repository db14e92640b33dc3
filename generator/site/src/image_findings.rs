//! The image checks of the last build (alt text, photographs too small): a build whose
//! documents are the same ones, in the same order, with the same images and templates,
//! checks again only the documents whose file changed (whose shared copy is another one).

use sha2::{Digest, Sha256};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::Arc;

use crate::images::{self, Catalog};
use content::model::{Content, Document};
use content::Diagnostic;

/// The image checks' answer: errors stop the build, warnings are printed.
#[derive(Debug, Clone, Default)]
pub(crate) struct Findings {
    pub errors: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
}

#[derive(Default)]
pub(crate) struct ImageFindings {
    /// The images and templates the findings were made with, the content they were made
    /// for, and what they found.
    last: Option<([u8; 32], Content, Findings)>,
}

/// The documents of `now` whose shared copy differs from the one at the same place in
/// `before`, as a content of their own; `None` when the lists differ in length or order.
fn changed(before: &Content, now: &Content) -> Option<Content> {
    fn kind<M>(a: &[Arc<Document<M>>], b: &[Arc<Document<M>>]) -> Option<Vec<Arc<Document<M>>>> {
        if a.len() != b.len() {
            return None;
        }
        let mut out = Vec::new();
        for (x, y) in a.iter().zip(b) {
            if x.id != y.id {
                return None;
            }
            if !Arc::ptr_eq(x, y) {
                out.push(Arc::clone(y));
            }
        }
        Some(out)
    }
    Some(Content {
        root: now.root.clone(),
        site: now.site.clone(),
        pages: kind(&before.pages, &now.pages)?,
        services: kind(&before.services, &now.services)?,
        articles: kind(&before.articles, &now.articles)?,
        team: kind(&before.team, &now.team)?,
        prices: now.prices.clone(),
        prices_file: now.prices_file.clone(),
        words: now.words.clone(),
        words_file: now.words_file.clone(),
        measurement: now.measurement.clone(),
    })
}

fn files(content: &Content) -> BTreeSet<PathBuf> {
    let pages = content.pages.iter().map(|d| d.file.clone());
    let services = content.services.iter().map(|d| d.file.clone());
    let articles = content.articles.iter().map(|d| d.file.clone());
    let team = content.team.iter().map(|d| d.file.clone());
    pages.chain(services).chain(articles).chain(team).collect()
}

impl ImageFindings {
    /// The findings for `content`. `templates` is the hash of the templates (they say which
    /// alt texts are shown).
    pub(crate) fn check(
        &mut self,
        content: &Content,
        catalog: &Catalog,
        templates: &[u8; 32],
        shows_page_alt: &dyn Fn(&str) -> bool,
        smallest: u32,
    ) -> Findings {
        let mut key = Sha256::new();
        key.update(catalog.fingerprint());
        key.update(templates);
        key.update(smallest.to_le_bytes());
        let key: [u8; 32] = key.finalize().into();
        let again = self
            .last
            .as_ref()
            .filter(|(k, _, _)| *k == key)
            .and_then(|(_, before, found)| Some((changed(before, content)?, found)));
        let found = match again {
            Some((changed, before)) => {
                let gone = files(&changed);
                let fresh = images::check(&changed, catalog, shows_page_alt, smallest);
                let keep = |list: &[Diagnostic], add: Vec<Diagnostic>| {
                    let mut out: Vec<Diagnostic> = list
                        .iter()
                        .filter(|d| !gone.contains(&d.file))
                        .cloned()
                        .chain(add)
                        .collect();
                    out.sort();
                    out
                };
                Findings {
                    errors: keep(&before.errors, fresh.errors),
                    warnings: keep(&before.warnings, fresh.warnings),
                }
            }
            None => {
                let all = images::check(content, catalog, shows_page_alt, smallest);
                Findings {
                    errors: all.errors,
                    warnings: all.warnings,
                }
            }
        };
        self.last = Some((key, content.clone(), found.clone()));
        found
    }
}
