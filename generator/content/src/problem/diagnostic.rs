//! Where a problem is: a file and a line, with the problem.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::value::Problem;

/// A document being saved: its file and the text it would have.
pub type Edited<'a> = Option<(&'a Path, &'a str)>;

/// One problem of a refused change, as the panel gets it: the sentence it shows and, as data,
/// where the problem is, so the panel marks that section, row or field and says the sentence
/// there (nothing is read back out of the sentence).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct Place {
    /// The problem in Polish, with where it is ("Sekcja 2: …", "Pozycja 3, nazwa: …").
    pub text: String,
    /// The file it was found in, from `content/`, when a build found it.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub file: Option<String>,
    /// The line of that file (from 1).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub line: Option<usize>,
    /// The section (from 1) of the body of the document being saved.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub section: Option<usize>,
    /// The row (from 1) of the price list being saved.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional, type = "number")]
    pub row: Option<usize>,
    /// The field, by the panel's name of it: a setting or a text of the page (`title`,
    /// `cardTitle`), a section's `type` or `content`, a price row's `name`, `price`,
    /// `duration`, `note` or `link`, a profile's `name`, `role`, `photo`, `photoAlt` or
    /// `qualifications`, a new article's `title` or `slug`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub field: Option<String>,
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
