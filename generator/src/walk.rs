//! The one way the generator lists a folder: files only, sorted, and anything whose name
//! (or any of whose folders' names) starts with '.' left out — hidden files, editors' swap
//! files and the `.NAME.saving` files of an atomic write in progress.

use std::path::{Path, PathBuf};
use walkdir::WalkDir;

use crate::error::{Error, Result};

/// A file found under a folder: its path relative to that folder (with '/') and its path.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Found {
    pub relative: String,
    pub path: PathBuf,
}

pub(crate) fn is_hidden(name: &str) -> bool {
    name.starts_with('.')
}

/// Every visible file under `dir`, sorted by relative path; a missing folder is empty.
pub(crate) fn files(dir: &Path) -> Result<Vec<Found>> {
    if !dir.is_dir() {
        return Ok(Vec::new());
    }
    let mut out = Vec::new();
    let walk = WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_entry(|e| e.depth() == 0 || !is_hidden(&e.file_name().to_string_lossy()));
    for entry in walk {
        let entry = entry.map_err(|e| Error::read(dir, e.into()))?;
        if !entry.file_type().is_file() {
            continue;
        }
        let relative = entry
            .path()
            .strip_prefix(dir)
            .unwrap_or(entry.path())
            .components()
            .map(|c| c.as_os_str().to_string_lossy())
            .collect::<Vec<_>>()
            .join("/");
        out.push(Found {
            relative,
            path: entry.into_path(),
        });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_files_and_folders_are_left_out() {
        let dir = tempfile::tempdir().expect("temp dir");
        for f in ["b.md", "a/c.md", ".git/x", "a/.d.md.saving", ".e"] {
            let p = dir.path().join(f);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, "x").expect("write");
        }
        let found: Vec<String> = files(dir.path())
            .expect("listed")
            .into_iter()
            .map(|f| f.relative)
            .collect();
        assert_eq!(found, vec!["a/c.md", "b.md"]);
    }
}
