//! The error type of editing: what failed and where — reading a file, writing it, or a change
//! that cannot be made.

use std::path::{Path, PathBuf};

use content::Diagnostic;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading the content failed, or it has problems of its own.
    #[error(transparent)]
    Load(#[from] content::Error),
    #[error("cannot write {}: {source}", path.display())]
    Write {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("editing: {0}")]
    Edit(String),
    /// A change the rules of the content refuse (a required text left empty).
    #[error("refused: {0}")]
    Refused(content::Problem),
}

impl Error {
    pub fn read(path: &Path, source: std::io::Error) -> Self {
        Error::Load(content::Error::read(path, source))
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
            Error::Load(e) => e.diagnostics(),
            _ => &[],
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
