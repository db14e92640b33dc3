//! Every problem, of whatever area, as one value, with its texts in both languages.

use std::fmt;

use super::booking::BookingProblem;
use super::document::DocumentProblem;
use super::edit::EditProblem;
use super::file::FileProblem;
use super::site::SiteProblem;
use super::style::StyleProblem;
use super::texts::{capitalised, texts, Texts};
use super::wording::WordingProblem;
use crate::limits::{Excess, Found};

/// One problem of the content, or of what the panel sent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Problem {
    File(FileProblem),
    Document(DocumentProblem),
    Style(StyleProblem),
    Site(SiteProblem),
    Booking(BookingProblem),
    Wording(WordingProblem),
    Edit(EditProblem),
    /// A problem inside one section of a document (from 1), at a line of that section (from
    /// 1) when it is known: how the panel's sections are checked before they are written.
    InSection {
        section: usize,
        line: Option<usize>,
        problem: Box<Problem>,
    },
}

impl Problem {
    fn texts(&self) -> Texts {
        match self {
            Problem::File(p) => p.texts(),
            Problem::Document(p) => p.texts(),
            Problem::Style(p) => p.texts(),
            Problem::Site(p) => p.texts(),
            Problem::Booking(p) => p.texts(),
            Problem::Wording(p) => p.texts(),
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

    /// What a section of the panel's text holds too much of: `section` is the section's
    /// number (from 1); a nesting problem also says its line in that section.
    pub fn excess_in_section(found: &Found, section: usize) -> Problem {
        let line = (found.excess == Excess::Nesting).then_some(found.line + 1);
        Problem::from(FileProblem::excess(found)).in_section(section, line)
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

impl From<WordingProblem> for Problem {
    fn from(p: WordingProblem) -> Self {
        Problem::Wording(p)
    }
}

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
