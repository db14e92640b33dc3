//! The error type of the content: every failure says what failed and where; the problems of
//! the content are [`Diagnostic`]s, each a [`crate::problem::Problem`] at a file and line.

use std::path::{Path, PathBuf};

pub use crate::problem::Diagnostic;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("cannot read {}: {source}", path.display())]
    Read {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{} problem(s) in the content:\n{}", .0.len(), Diagnostic::list(.0))]
    Content(Vec<Diagnostic>),
}

impl Error {
    pub fn read(path: &Path, source: std::io::Error) -> Self {
        Error::Read {
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
