//! Where a problem is: a file and a line, with the problem.

use std::fmt;
use std::path::{Path, PathBuf};

use super::value::Problem;

/// A document being saved: its file and the text it would have.
pub type Edited<'a> = Option<(&'a Path, &'a str)>;

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
