//! Where a problem is, as the panel says it: in the document being saved, its section or its
//! settings; elsewhere, the document by its kind and name ("Artykuł blog/x, sekcja 3"), the
//! facts ("Dane gabinetu") or the price list.

use std::path::Path;

use super::diagnostic::{Diagnostic, Edited};
use super::texts::capitalised;
use crate::kind::Kind;
use crate::{frontmatter, sections};

/// Where in a document a 1-based file line is: `None` in the front matter, else the 1-based
/// section.
pub(crate) fn section_at(text: &str, line: usize) -> Option<usize> {
    let split = frontmatter::split(text).ok()?;
    if line < split.body_line {
        return None;
    }
    let before: String = split
        .body
        .lines()
        .take(line - split.body_line + 1)
        .map(|l| format!("{l}\n"))
        .collect();
    Some(sections::parse(&before).sections.len().max(1))
}

impl Diagnostic {
    /// The problem in Polish, with where it is: in `edited` (the document being saved) as its
    /// section or its settings, elsewhere by the file.
    pub fn polish(&self, content_dir: &Path, edited: Edited<'_>) -> String {
        let text_of = |path: &Path| -> Option<String> {
            match edited {
                Some((p, text)) if p == path => Some(text.to_string()),
                _ => crate::beneath::Root::new(content_dir)
                    .read_to_string(path)
                    .ok(),
            }
        };
        let place = |text: Option<String>| match text.and_then(|t| {
            frontmatter::split(&t).ok()?;
            Some(section_at(&t, self.line))
        }) {
            Some(Some(n)) => format!("sekcja {n}"),
            Some(None) => "ustawienia".to_string(),
            None => format!("wiersz {}", self.line),
        };
        let relative = self.file.strip_prefix(content_dir).unwrap_or(&self.file);
        let name = relative.to_string_lossy();
        let is_edited = edited.is_some_and(|(p, _)| p == self.file);
        let location = if is_edited {
            capitalised(&place(text_of(&self.file)))
        } else if name == "site.yaml" {
            "Dane gabinetu (site.yaml)".to_string()
        } else if name == "cennik.yaml" {
            "Cennik".to_string()
        } else {
            let folder = relative
                .parent()
                .and_then(|p| p.to_str())
                .and_then(Kind::from_folder);
            let slug = name.trim_end_matches(".md");
            let label = folder.map_or("Plik", Kind::label);
            format!("{label} {slug}, {}", place(text_of(&self.file)))
        };
        format!("{location}: {}", self.problem.polish())
    }

    /// Every problem in Polish with where it is, one after another.
    pub fn polish_all(
        diagnostics: &[Diagnostic],
        content_dir: &Path,
        edited: Edited<'_>,
    ) -> String {
        diagnostics
            .iter()
            .map(|d| d.polish(content_dir, edited))
            .collect::<Vec<_>>()
            .join(" ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::problem::StyleProblem;

    #[test]
    fn lines_are_placed_in_sections_or_the_settings() {
        let text =
            "---\ntitle: a\n---\nA\n\n<!-- section: callout -->\nB\n<!-- section: text -->\nC\n";
        assert_eq!(section_at(text, 2), None);
        assert_eq!(section_at(text, 4), Some(1));
        assert_eq!(section_at(text, 7), Some(2));
        assert_eq!(section_at(text, 9), Some(3));
        let d = Diagnostic::new(
            Path::new("/c/blog/a.md"),
            7,
            StyleProblem::GluedUnit {
                text: "5zł".into()
            },
        );
        assert_eq!(
            d.polish(Path::new("/c"), Some((Path::new("/c/blog/a.md"), text))),
            "Sekcja 2: „5zł”: między liczbą a jednostką potrzebna jest spacja (zasady stylu)."
        );
        assert!(d
            .polish(Path::new("/c"), None)
            .starts_with("Artykuł blog/a, wiersz 7: "));
    }
}
