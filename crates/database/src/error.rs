//! What failed in the database, and with which file.

use std::path::PathBuf;

/// What failed, and with which file.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{}: {source}", path.display())]
    Open {
        path: PathBuf,
        source: rusqlite::Error,
    },
    #[error("{0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{}: no database", .0.display())]
    Missing(PathBuf),
    #[error("{}: integrity check: {verdict}", path.display())]
    Damaged { path: PathBuf, verdict: String },
    #[error("the database stayed busy for 30 s")]
    Busy,
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
