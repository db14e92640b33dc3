//! The one way the generator lists a folder: files only, sorted, and anything whose name
//! (or any of whose folders' names) starts with '.' left out — hidden files, editors' swap
//! files and the `.NAME.saving` files of an atomic write in progress. Each file comes with its
//! size and modification time, read from its folder entry (no second lookup of the path).

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use crate::error::{Error, Result};

/// A file found under a folder: its path relative to that folder (with '/'), its path, and
/// its size and modification time.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub relative: String,
    pub path: PathBuf,
    pub len: u64,
    pub modified: Option<SystemTime>,
}

pub fn is_hidden(name: &str) -> bool {
    name.starts_with('.')
}

fn walk_into(dir: &Path, prefix: &str, out: &mut Vec<Found>) -> Result<()> {
    let mut entries: Vec<(String, std::fs::DirEntry)> = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| Error::read(dir, e))? {
        let entry = entry.map_err(|e| Error::read(dir, e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !is_hidden(&name) {
            entries.push((name, entry));
        }
    }
    entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    for (name, entry) in entries {
        let relative = format!("{prefix}{name}");
        // Follows symbolic links, as reading the file will.
        let meta = match entry
            .file_type()
            .map_err(|e| Error::read(&entry.path(), e))?
        {
            t if t.is_symlink() => std::fs::metadata(entry.path()),
            _ => entry.metadata(),
        }
        .map_err(|e| Error::read(&entry.path(), e))?;
        if meta.is_dir() {
            walk_into(&entry.path(), &format!("{relative}/"), out)?;
        } else if meta.is_file() {
            out.push(Found {
                relative,
                path: entry.path(),
                len: meta.len(),
                modified: meta.modified().ok(),
            });
        }
    }
    Ok(())
}

/// Every visible file under `dir`, sorted by relative path; a missing folder is empty.
pub fn files(dir: &Path) -> Result<Vec<Found>> {
    let mut out = Vec::new();
    if dir.is_dir() {
        walk_into(dir, "", &mut out)?;
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
        let found = files(dir.path()).expect("listed");
        let names: Vec<&str> = found.iter().map(|f| f.relative.as_str()).collect();
        assert_eq!(names, vec!["a/c.md", "b.md"]);
        assert_eq!(found[0].len, 1);
        assert!(found[0].modified.is_some());
    }
}
