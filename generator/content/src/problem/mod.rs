//! Every problem a check can find, as a value: it says what is wrong in English (for `make
//! check`, read by the developers and editors of the files) and in Polish (for the panel),
//! both made from the same fields, so a reworded English message can never leave its Polish
//! behind. Where a problem is — a file and a line — is carried beside it, in a [`Diagnostic`].
//!
//! The problems are grouped by what they are about, one module each: a file and its front
//! matter, what a document refers to, the house style, the facts of `site.yaml`, and what the
//! panel sends.

mod booking;
mod document;
mod edit;
mod file;
mod place;
mod site;
mod style;

use std::fmt;
use std::path::{Path, PathBuf};

pub use booking::BookingProblem;
pub use document::{DateField, DocumentProblem};
pub use edit::{EditProblem, Field};
pub use file::FileProblem;
pub use place::Edited;
pub(crate) use site::WEEKDAYS;
pub use site::{BookingKey, OffPlatform, SiteProblem};
pub use style::StyleProblem;

/// One problem of the content, or of what the panel sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    File(FileProblem),
    Document(DocumentProblem),
    Style(StyleProblem),
    Site(SiteProblem),
    Booking(BookingProblem),
    Edit(EditProblem),
    /// A problem inside one section of a document (from 1), at a line of that section (from
    /// 1) when it is known: how the panel's sections are checked before they are written.
    InSection {
        section: usize,
        line: Option<usize>,
        problem: Box<Problem>,
    },
}

/// A problem's two texts, written side by side where the problem is defined.
pub(crate) struct Texts {
    pub english: String,
    /// As it reads after the place it is at ("Sekcja 2: …"): a lowercase start, unless the
    /// first word is a name.
    pub polish: String,
}

pub(crate) fn texts(english: String, polish: String) -> Texts {
    Texts { english, polish }
}

impl Problem {
    fn texts(&self) -> Texts {
        match self {
            Problem::File(p) => p.texts(),
            Problem::Document(p) => p.texts(),
            Problem::Style(p) => p.texts(),
            Problem::Site(p) => p.texts(),
            Problem::Booking(p) => p.texts(),
            Problem::Edit(p) => p.texts(),
            Problem::InSection {
                section,
                line,
                problem,
            } => {
                let inner = problem.texts();
                match line {
                    Some(l) => texts(
                        format!("section {section}, line {l}: {}", inner.english),
                        format!("sekcja {section}, wiersz {l}: {}", inner.polish),
                    ),
                    None => texts(
                        format!("section {section}: {}", inner.english),
                        format!("sekcja {section}: {}", inner.polish),
                    ),
                }
            }
        }
    }

    /// What is wrong, in English.
    pub fn english(&self) -> String {
        self.texts().english
    }

    /// What is wrong, in Polish, as it reads after a place ("Sekcja 2: link „/x” …").
    pub fn polish(&self) -> String {
        self.texts().polish
    }

    /// What is wrong, in Polish, as a sentence of its own (a refusal the panel shows).
    pub fn sentence(&self) -> String {
        capitalised(&self.polish())
    }

    /// This problem at a place in a section of the panel's text.
    pub fn in_section(self, section: usize, line: Option<usize>) -> Problem {
        Problem::InSection {
            section,
            line,
            problem: Box::new(self),
        }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.english())
    }
}

impl std::error::Error for Problem {}

/// Each area's problems read as their English too.
macro_rules! english_display {
    ($($area:ty),*) => {$(
        impl fmt::Display for $area {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.texts().english)
            }
        }
    )*};
}

english_display!(
    FileProblem,
    DocumentProblem,
    StyleProblem,
    SiteProblem,
    EditProblem
);

impl From<FileProblem> for Problem {
    fn from(p: FileProblem) -> Self {
        Problem::File(p)
    }
}

impl From<DocumentProblem> for Problem {
    fn from(p: DocumentProblem) -> Self {
        Problem::Document(p)
    }
}

impl From<StyleProblem> for Problem {
    fn from(p: StyleProblem) -> Self {
        Problem::Style(p)
    }
}

impl From<SiteProblem> for Problem {
    fn from(p: SiteProblem) -> Self {
        Problem::Site(p)
    }
}

impl From<BookingProblem> for Problem {
    fn from(p: BookingProblem) -> Self {
        Problem::Booking(p)
    }
}

impl From<EditProblem> for Problem {
    fn from(p: EditProblem) -> Self {
        Problem::Edit(p)
    }
}

pub(crate) fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A problem in the content, at a file and a 1-based line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    pub file: PathBuf,
    pub line: usize,
    pub problem: Problem,
}

impl Diagnostic {
    pub fn new(file: &Path, line: usize, problem: impl Into<Problem>) -> Self {
        Self {
            file: file.to_path_buf(),
            line: line.max(1),
            problem: problem.into(),
        }
    }

    /// The problem in English (what `make check` prints after the file and line).
    pub fn english(&self) -> String {
        self.problem.english()
    }

    /// Problems one to a line, indented, as an error message lists them.
    pub fn list(diagnostics: &[Diagnostic]) -> String {
        diagnostics
            .iter()
            .map(|d| format!("  {d}"))
            .collect::<Vec<_>>()
            .join("\n")
    }
}

impl Ord for Diagnostic {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (&self.file, self.line)
            .cmp(&(&other.file, other.line))
            .then_with(|| self.english().cmp(&other.english()))
    }
}

impl PartialOrd for Diagnostic {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}: {}",
            self.file.display(),
            self.line,
            self.problem.english()
        )
    }
}
