//! The one way the generator lists a folder: files only, sorted, and anything whose name
//! (or any of whose folders' names) starts with '.' left out — hidden files, editors' swap
//! files and the temporary files of an atomic write in progress. A folder is listed beneath
//! a root it cannot leave ([`crate::beneath`]): symbolic links are never followed, and are
//! reported apart from the files. Each file comes with its size and modification time, read
//! from its folder entry.

use std::path::Path;

use crate::beneath::Root;
pub use crate::beneath::{is_hidden, Found, Listing};
use crate::error::{Error, Result};

/// The visible files under `dir`, and the links there, listed beneath `root` (a link in
/// place of `dir` itself is refused); a missing folder is empty.
pub fn list(root: &Path, dir: &Path) -> Result<Listing> {
    Root::new(root).list(dir).map_err(|e| Error::read(dir, e))
}

/// Every visible file under `dir` (beneath `root`), sorted by relative path; links left out.
pub fn files(root: &Path, dir: &Path) -> Result<Vec<Found>> {
    list(root, dir).map(|l| l.files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_files_and_links_are_left_out() {
        let dir = tempfile::tempdir().expect("temp dir");
        for f in ["b.md", "a/c.md", ".git/x", "a/.d.md.saving", ".e"] {
            let p = dir.path().join(f);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, "x").expect("write");
        }
        std::os::unix::fs::symlink("/etc/passwd", dir.path().join("a/passwd.md")).expect("link");
        let listing = list(dir.path(), dir.path()).expect("listed");
        let names: Vec<&str> = listing.files.iter().map(|f| f.relative.as_str()).collect();
        assert_eq!(names, vec!["a/c.md", "b.md"]);
        assert_eq!(listing.links, vec!["a/passwd.md".to_string()]);
        assert_eq!(listing.files[0].len, 1);
        assert!(listing.files[0].modified.is_some());
        assert_eq!(listing.files[0].read().expect("read"), b"x");
    }
}
