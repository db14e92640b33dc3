//! The error type of the site: what failed and where — reading or checking the content, a
//! template, the islands, writing the build.

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
    /// Problems found while building: an image, a link to a file, an alias over a file.
    #[error("{} problem(s) in the content:\n{}", .0.len(), Diagnostic::list(.0))]
    Content(Vec<Diagnostic>),
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
            Error::Content(d) => d,
            _ => &[],
        }
    }

    /// Every problem in Polish, each after its path in the repository (`prefix`, such as
    /// `content/`, then the file under `content_dir`) and line: what an editor reads.
    pub fn polish(&self, content_dir: &Path, prefix: &str) -> Vec<String> {
        let problems: Vec<String> = self
            .diagnostics()
            .iter()
            .map(|d| polish_line(d, content_dir, prefix))
            .collect();
        if problems.is_empty() {
            vec![format!("Strona nie daje się zbudować: {self}")]
        } else {
            problems
        }
    }
}

/// One problem in Polish after `prefix` + its file under `content_dir` and its line.
/// A file outside `content_dir` (a template, which the publish gate may name) is given from
/// the project's folder, without `prefix`.
pub fn polish_line(d: &Diagnostic, content_dir: &Path, prefix: &str) -> String {
    let (prefix, file) = match d.file.strip_prefix(content_dir) {
        Ok(file) => (prefix, file),
        Err(_) => {
            let project = content_dir.parent().unwrap_or(content_dir);
            ("", d.file.strip_prefix(project).unwrap_or(&d.file))
        }
    };
    format!(
        "{prefix}{}:{}: {}",
        file.display(),
        d.line,
        d.polish(content_dir, None)
    )
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
