//! The one error type of the generator: every failure says what failed and where.

use std::fmt;
use std::path::{Path, PathBuf};

/// One problem found in the content, pointing at a file and a 1-based line.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Diagnostic {
    pub file: PathBuf,
    pub line: usize,
    pub message: String,
}

impl Diagnostic {
    pub fn new(file: &Path, line: usize, message: impl Into<String>) -> Self {
        Self {
            file: file.to_path_buf(),
            line: line.max(1),
            message: message.into(),
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.file.display(), self.line, self.message)
    }
}

fn list(diagnostics: &[Diagnostic]) -> String {
    diagnostics
        .iter()
        .map(|d| format!("  {d}"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} problem(s) in the content:\n{}", .0.len(), list(.0))]
    Content(Vec<Diagnostic>),
    #[error("editing: {0}")]
    Edit(String),
    #[error("islands: {0}")]
    Islands(String),
    #[error("template {name}: {message}")]
    Template { name: String, message: String },
    /// A render given a deadline (a preview) did not finish by it.
    #[error("rendering did not finish within its deadline")]
    Deadline,
}

impl Error {
    pub fn read(path: &Path, source: std::io::Error) -> Self {
        Error::Read {
            path: path.to_path_buf(),
            source,
        }
    }

    pub fn write(path: &Path, source: std::io::Error) -> Self {
        Error::Write {
            path: path.to_path_buf(),
            source,
        }
    }

    /// The content diagnostics, if this is a content error.
    pub fn diagnostics(&self) -> &[Diagnostic] {
        match self {
            Error::Content(d) => d,
            _ => &[],
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
