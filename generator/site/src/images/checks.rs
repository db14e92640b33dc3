//! The image checks that need the images themselves: alt text where a template shows it
//! (an error), a file that cannot be read as an image (a warning, an error where a page
//! shows it), and a source narrower than the smallest width it is shown at (a warning: the
//! page works, the picture is blurry). A missing file is reported with the other links.

use super::catalog::Catalog;
use content::images::{classify, ImageRef};
use content::model::{Content, Document};
use content::problem::DocumentProblem;
use content::Diagnostic;

/// What the checks found: errors stop the build, warnings are printed.
#[derive(Debug, Default)]
pub(crate) struct Findings {
    pub errors: Vec<Diagnostic>,
    pub warnings: Vec<Diagnostic>,
}

struct Checker<'a> {
    catalog: &'a Catalog,
    smallest: u32,
    found: Findings,
}

fn field_line<M>(doc: &Document<M>, field: &str) -> usize {
    doc.field_lines.get(field).copied().unwrap_or(1)
}

impl Checker<'_> {
    fn size<M>(&mut self, doc: &Document<M>, line: usize, value: &str) {
        let ImageRef::Local(path) = classify(value) else {
            return;
        };
        let Some(info) = self.catalog.get(&format!("/images/{path}")) else {
            return;
        };
        if let Some(why) = &info.broken {
            let problem = DocumentProblem::ImageBroken {
                path: path.to_string(),
                error: why.clone(),
            };
            self.found
                .errors
                .push(Diagnostic::new(&doc.file, line, problem));
            return;
        }
        match info.size {
            Some((width, _)) if info.is_raster() && width < self.smallest => {
                let problem = DocumentProblem::Narrow {
                    image: path.to_string(),
                    width,
                    smallest: self.smallest,
                };
                self.found
                    .warnings
                    .push(Diagnostic::new(&doc.file, line, problem));
            }
            _ => {}
        }
    }

    /// A front-matter image and its alt text, which the template shows.
    fn field<M>(
        &mut self,
        doc: &Document<M>,
        image_field: &str,
        alt_field: &str,
        image: &str,
        alt: &str,
    ) {
        let line = field_line(doc, image_field);
        self.size(doc, line, image);
        // No image: one of the stock fallbacks is shown, as decoration (alt="").
        if let Some(problem) = content::validate::alt_problem(alt_field, image, alt) {
            let line = doc.field_lines.get(alt_field).copied().unwrap_or(line);
            self.found
                .errors
                .push(Diagnostic::new(&doc.file, line, problem));
        }
    }

    /// Images written in the Markdown body.
    fn body<M>(&mut self, doc: &Document<M>) {
        for target in doc.links.iter().filter(|t| t.is_image) {
            let line = doc.line_in_body(target.offset);
            self.size(doc, line, &target.url);
            if target.alt.trim().is_empty() {
                let problem = DocumentProblem::NoAltInText {
                    url: target.url.clone(),
                };
                self.found
                    .errors
                    .push(Diagnostic::new(&doc.file, line, problem));
            }
        }
    }
}

/// Checks every image of `content`. `shows_page_alt` says whether a page template shows the
/// page's `image_alt`.
pub(crate) fn check(
    content: &Content,
    catalog: &Catalog,
    shows_page_alt: &dyn Fn(&str) -> bool,
    smallest: u32,
) -> Findings {
    let mut c = Checker {
        catalog,
        smallest,
        found: Findings {
            errors: Vec::new(),
            warnings: catalog.warnings.clone(),
        },
    };
    for doc in &content.pages {
        if let Some(image) = &doc.meta.image {
            if shows_page_alt(&doc.meta.template) {
                let alt = doc.meta.image_alt.as_deref().unwrap_or("");
                c.field(doc.as_ref(), "image", "image_alt", image, alt);
            } else {
                c.size(doc.as_ref(), field_line(doc.as_ref(), "image"), image);
            }
        }
        c.body(doc.as_ref());
    }
    for doc in &content.services {
        let m = &doc.meta;
        c.field(doc.as_ref(), "image", "image_alt", &m.image, &m.image_alt);
        c.body(doc.as_ref());
    }
    for doc in &content.articles {
        let m = &doc.meta;
        c.field(doc.as_ref(), "image", "image_alt", &m.image, &m.image_alt);
        c.body(doc.as_ref());
    }
    for doc in &content.team {
        let m = &doc.meta;
        c.field(doc.as_ref(), "photo", "photo_alt", &m.photo, &m.photo_alt);
        c.body(doc.as_ref());
    }
    c.found.errors.sort();
    c.found.warnings.sort();
    c.found
}
