//! Where a problem is, as the panel says it: in the document being saved, its section or its
//! settings; elsewhere, the document by its kind and name ("Artykuł blog/x, sekcja 3"), the
//! facts ("Dane gabinetu") or the price list.

use std::path::Path;

use super::diagnostic::{Diagnostic, Edited, Place};
use super::edit::EditProblem;
use super::value::Problem;
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

/// The YAML key a 1-based line belongs to (its own, or that of the value it continues), as
/// the panel names it: `card_title` is `cardTitle`. Keys are indented at most `indent` spaces
/// (a value's own lines, indented further, may hold colons too).
fn key_at(text: &str, line: usize, indent: usize) -> Option<String> {
    text.lines()
        .take(line)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .filter(|l| l.len() - l.trim_start().len() <= indent)
        .map(|l| l.trim_start().trim_start_matches("- "))
        .find_map(|l| {
            let (key, _) = l.split_once(':')?;
            let plain =
                !key.is_empty() && key.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            plain.then(|| camel(key))
        })
}

fn camel(key: &str) -> String {
    let mut parts = key.split('_');
    let mut out = parts.next().unwrap_or_default().to_string();
    for part in parts {
        let mut chars = part.chars();
        if let Some(first) = chars.next() {
            out.extend(first.to_uppercase());
            out.push_str(chars.as_str());
        }
    }
    out
}

/// The row (from 1) of a YAML list of mappings (the price list) a 1-based line is in.
fn row_at(text: &str, line: usize) -> Option<usize> {
    let rows = text
        .lines()
        .take(line)
        .filter(|l| l.trim_start().starts_with("- "))
        .count();
    (rows > 0).then_some(rows)
}

/// Where a line of a file is, in the panel's terms, when that file is the one being saved.
#[derive(Debug, PartialEq, Eq)]
enum Spot {
    Section(usize),
    Settings(Option<String>),
    Row(usize, Option<String>),
    Line(Option<String>),
}

fn spot(name: &str, text: &str, line: usize) -> Spot {
    match frontmatter::split(text) {
        Ok(_) => match section_at(text, line) {
            Some(n) => Spot::Section(n),
            None => Spot::Settings(key_at(text, line, 0)),
        },
        Err(_) if name == "cennik.yaml" => match row_at(text, line) {
            Some(row) => Spot::Row(row, key_at(text, line, 4)),
            None => Spot::Line(None),
        },
        Err(_) => Spot::Line(key_at(text, line, 0)),
    }
}

impl Problem {
    /// The problem as the panel gets it, where what it names is known without a file: a
    /// section of the text sent, a field or a row of a form.
    pub fn place(&self) -> Place {
        let mut place = Place {
            text: self.sentence(),
            ..Place::default()
        };
        match self {
            Problem::InSection {
                section, problem, ..
            } => {
                place.section = Some(*section);
                let is_type = matches!(**problem, Problem::Edit(EditProblem::SectionType));
                place.field = Some(if is_type { "type" } else { "content" }.to_string());
            }
            Problem::Edit(edit) => {
                if let Some((field, row)) = edit.field() {
                    place.field = Some(field.to_string());
                    place.row = row;
                }
            }
            _ => {}
        }
        place
    }
}

impl Diagnostic {
    /// The file from `content_dir`; one outside it (a template the publish gate names) from
    /// the project's folder that holds `content_dir`.
    fn relative<'a>(&'a self, content_dir: &Path) -> std::borrow::Cow<'a, str> {
        let project = content_dir.parent().unwrap_or(content_dir);
        self.file
            .strip_prefix(content_dir)
            .or_else(|_| self.file.strip_prefix(project))
            .unwrap_or(&self.file)
            .to_string_lossy()
    }

    /// Where the problem is in `edited` (the document being saved), if it is in that file.
    fn spot(&self, content_dir: &Path, edited: Edited<'_>) -> Option<Spot> {
        let (path, text) = edited.filter(|(p, _)| *p == self.file)?;
        let name = path
            .strip_prefix(content_dir)
            .unwrap_or(path)
            .to_string_lossy();
        Some(spot(&name, text, self.line))
    }

    /// The problem in Polish, with where it is: in `edited` (the document being saved) as its
    /// section, its settings or its row, elsewhere by the file.
    pub fn polish(&self, content_dir: &Path, edited: Edited<'_>) -> String {
        let name = self.relative(content_dir);
        let location = match self.spot(content_dir, edited) {
            Some(Spot::Section(n)) => format!("Sekcja {n}"),
            Some(Spot::Settings(_)) => "Ustawienia".to_string(),
            Some(Spot::Row(row, _)) => format!("Pozycja {row}"),
            Some(Spot::Line(_)) | None if name == "site.yaml" => {
                "Dane gabinetu (site.yaml)".to_string()
            }
            Some(Spot::Line(_)) | None if name == "cennik.yaml" => "Cennik".to_string(),
            Some(Spot::Line(_)) => format!("Wiersz {}", self.line),
            None => {
                let place = match crate::beneath::Root::new(content_dir)
                    .read_to_string(&self.file)
                    .ok()
                    .filter(|t| frontmatter::split(t).is_ok())
                    .map(|t| section_at(&t, self.line))
                {
                    Some(Some(n)) => format!("sekcja {n}"),
                    Some(None) => "ustawienia".to_string(),
                    None => format!("wiersz {}", self.line),
                };
                let folder = Path::new(name.as_ref())
                    .parent()
                    .and_then(|p| p.to_str())
                    .and_then(Kind::from_folder);
                let label = folder.map_or("Plik", Kind::label);
                format!("{label} {}, {place}", name.trim_end_matches(".md"))
            }
        };
        format!("{location}: {}", self.problem.polish())
    }

    /// The problem as the panel gets it: its sentence, its file and line, and, in the document
    /// being saved, its section, row or field.
    pub fn place(&self, content_dir: &Path, edited: Edited<'_>) -> Place {
        let mut place = self.problem.place();
        place.text = self.polish(content_dir, edited);
        place.file = Some(self.relative(content_dir).into_owned());
        place.line = Some(self.line);
        match self.spot(content_dir, edited) {
            Some(Spot::Section(n)) => {
                place.section = Some(n);
                place.field.get_or_insert_with(|| "content".to_string());
            }
            Some(Spot::Settings(key) | Spot::Line(key)) => place.field = place.field.or(key),
            Some(Spot::Row(row, key)) => {
                place.row = Some(row);
                place.field = place.field.or(key);
            }
            None => {}
        }
        place
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
    use crate::problem::{EditProblem, StyleProblem};

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

    #[test]
    fn a_problem_of_the_file_being_saved_says_its_section_row_or_field_as_data() {
        let page =
            "---\ntitle: a\ncard_title: >\n  Karta: 5zł\n---\nA\n<!-- section: text -->\nB\n";
        let problem = StyleProblem::GluedUnit {
            text: "5zł".into()
        };
        let file = Path::new("/c/uslugi/a.md");
        let edited = Some((file, page));
        let in_settings = Diagnostic::new(file, 4, problem.clone()).place(Path::new("/c"), edited);
        assert_eq!(in_settings.field.as_deref(), Some("cardTitle"));
        assert_eq!((in_settings.section, in_settings.line), (None, Some(4)));
        assert_eq!(in_settings.file.as_deref(), Some("uslugi/a.md"));
        assert!(
            in_settings.text.starts_with("Ustawienia: "),
            "{}",
            in_settings.text
        );
        let in_body = Diagnostic::new(file, 8, problem.clone()).place(Path::new("/c"), edited);
        assert_eq!(in_body.section, Some(2));
        assert_eq!(in_body.field.as_deref(), Some("content"));

        let prices = "items:\n  - name: a\n    price: 1\n  - name: b\n    note: 5zł\n";
        let list = Path::new("/c/cennik.yaml");
        let row = Diagnostic::new(list, 5, problem).place(Path::new("/c"), Some((list, prices)));
        assert_eq!((row.row, row.field.as_deref()), (Some(2), Some("note")));
        assert!(row.text.starts_with("Pozycja 2: "), "{}", row.text);
    }

    #[test]
    fn a_refusal_before_writing_names_its_section_row_or_field() {
        let typed = Problem::from(EditProblem::SectionType)
            .in_section(3, None)
            .place();
        assert_eq!(
            (typed.section, typed.field.as_deref()),
            (Some(3), Some("type"))
        );
        assert!(typed.text.starts_with("Sekcja 3: typ"), "{}", typed.text);
        let price = Problem::from(EditProblem::PriceLink {
            row: 4,
            link: "/x".into(),
        })
        .place();
        assert_eq!((price.row, price.field.as_deref()), (Some(4), Some("link")));
        let role = Problem::from(EditProblem::Empty {
            field: crate::problem::Field::Role,
        })
        .place();
        assert_eq!((role.row, role.field.as_deref()), (None, Some("role")));
    }
}
