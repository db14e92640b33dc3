//! The one way a content file changes: under one lock, the file's current text is read and
//! its version compared with the one the panel loaded; only if they agree is the new text
//! made from the current one, and written atomically (a new file is created whole, never
//! over another; a file is removed), beneath `content/` and never through a link
//! ([`content::beneath`]). Every change of the panel — a document's save, restore,
//! creation and deletion, the price list, the facts — is one such transaction.

use sha2::{Digest, Sha256};
use std::path::Path;
use std::sync::Mutex;

use crate::error::{Error, Result};
use content::beneath::Root;
use content::encoding::hex;

/// One write of content files at a time, so a version check and its write are one step.
static WRITE_LOCK: Mutex<()> = Mutex::new(());

/// What a file's text is known as: changes whenever the file changes, whoever changed it.
pub(crate) fn version_of(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes)[..10])
}

/// What a transaction expects to find.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Expect<'a> {
    /// The file at this version.
    Version(&'a str),
    /// No file: a new document.
    Nothing,
}

/// What a transaction did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Saved {
    /// Written: the text before and after (both empty where there was, or is, no file), and
    /// the new version (empty for a removed file).
    Written {
        previous: String,
        saved: String,
        version: String,
    },
    /// The file is not at the expected version (or, for a new document, exists): nothing
    /// written. `current` is its version.
    Conflict { current: String },
    /// The file to change does not exist.
    NotFound,
}

/// Writes what `make` makes of the text of the content file `path` (beneath `root`) if it is
/// still at `version`: how the panel's history puts any file back (a page, the price list,
/// the facts).
pub fn replace_file(
    root: &Root,
    path: &Path,
    version: &str,
    make: impl FnOnce(&str) -> Result<String>,
) -> Result<Saved> {
    if !root.is_file(path) {
        return Ok(Saved::NotFound);
    }
    transaction(root, path, Expect::Version(version), |text| {
        make(text).map(Some)
    })
}

/// Runs one transaction on `path` beneath `root`: `next` makes the new text from the current
/// one (empty for a new document), or `None` to remove the file. A text equal to the current
/// one is not written again. Nothing is read or written through a link.
pub(crate) fn transaction(
    root: &Root,
    path: &Path,
    expect: Expect<'_>,
    next: impl FnOnce(&str) -> Result<Option<String>>,
) -> Result<Saved> {
    let _guard = WRITE_LOCK.lock().unwrap_or_else(|p| p.into_inner());
    let previous = match (root.read_to_string(path), expect) {
        (Ok(text), Expect::Version(v)) if version_of(text.as_bytes()) == v => text,
        (Ok(text), _) => {
            let current = version_of(text.as_bytes());
            return Ok(Saved::Conflict { current });
        }
        (Err(e), Expect::Version(_)) if e.kind() == std::io::ErrorKind::NotFound => {
            return Ok(Saved::NotFound);
        }
        (Err(e), Expect::Version(_)) => return Err(Error::read(path, e)),
        (Err(_), Expect::Nothing) => String::new(),
    };
    let saved = match next(&previous)? {
        None => {
            root.remove_file(path).map_err(|e| Error::write(path, e))?;
            String::new()
        }
        Some(text) if matches!(expect, Expect::Nothing) => {
            match root.create_new(path, text.as_bytes()) {
                Ok(true) => text,
                Ok(false) => {
                    let current = root.read(path).map(|b| version_of(&b)).unwrap_or_default();
                    return Ok(Saved::Conflict { current });
                }
                Err(e) => return Err(Error::write(path, e)),
            }
        }
        Some(text) => {
            if text != previous {
                write_atomic(root, path, &text)?;
            }
            text
        }
    };
    let version = match saved.is_empty() && !root.exists(path) {
        true => String::new(),
        false => version_of(saved.as_bytes()),
    };
    Ok(Saved::Written {
        previous,
        saved,
        version,
    })
}

/// Writes a file beneath `root` so that a crash leaves either the old or the new text, never
/// half of one: a new temporary file with a random name, renamed over it.
pub fn write_atomic(root: &Root, path: &Path, text: &str) -> Result<()> {
    root.write_atomic(path, text.as_bytes())
        .map_err(|e| Error::write(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn a_change_needs_the_version_it_was_made_from() {
        let dir = tempfile::tempdir().unwrap();
        let root = Root::new(dir.path());
        let path = dir.path().join("a.md");
        fs::write(&path, "jeden").unwrap();
        let v1 = version_of(b"jeden");
        let stale = transaction(&root, &path, Expect::Version("stara"), |_| {
            Ok(Some("x".into()))
        });
        assert_eq!(
            stale.unwrap(),
            Saved::Conflict {
                current: v1.clone()
            }
        );
        let done = transaction(&root, &path, Expect::Version(&v1), |t| {
            Ok(Some(format!("{t} dwa")))
        });
        assert_eq!(
            done.unwrap(),
            Saved::Written {
                previous: "jeden".into(),
                saved: "jeden dwa".into(),
                version: version_of(b"jeden dwa"),
            }
        );
        let gone = dir.path().join("b.md");
        let missing = transaction(&root, &gone, Expect::Version(&v1), |_| Ok(None));
        assert_eq!(missing.unwrap(), Saved::NotFound);
    }

    #[test]
    fn a_new_file_is_never_written_over_another_and_a_removed_one_keeps_its_text() {
        let dir = tempfile::tempdir().unwrap();
        let root = Root::new(dir.path());
        let path = dir.path().join("blog/nowy.md");
        let made = transaction(&root, &path, Expect::Nothing, |t| {
            assert_eq!(t, "");
            Ok(Some("nowy".into()))
        });
        assert!(matches!(made.unwrap(), Saved::Written { ref saved, .. } if saved == "nowy"));
        let again = transaction(&root, &path, Expect::Nothing, |_| Ok(Some("inny".into())));
        assert!(matches!(again.unwrap(), Saved::Conflict { .. }));
        assert_eq!(fs::read_to_string(&path).unwrap(), "nowy");
        let removed = transaction(&root, &path, Expect::Version(&version_of(b"nowy")), |_| {
            Ok(None)
        });
        assert_eq!(
            removed.unwrap(),
            Saved::Written {
                previous: "nowy".into(),
                saved: String::new(),
                version: String::new(),
            }
        );
        assert!(!path.exists());
    }

    #[test]
    fn a_planted_link_is_never_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let content = dir.path().join("content");
        fs::create_dir_all(&content).unwrap();
        let root = Root::new(&content);
        let target = dir.path().join("site.sqlite3");
        fs::write(&target, "baza").unwrap();
        let path = content.join("cennik.yaml");
        fs::write(&path, "ceny").unwrap();
        for planted in [".cennik.yaml.saving", ".cennik.yaml.creating"] {
            std::os::unix::fs::symlink(&target, content.join(planted)).unwrap();
        }
        let v = version_of(b"ceny");
        transaction(&root, &path, Expect::Version(&v), |_| {
            Ok(Some("nowe".into()))
        })
        .unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "baza");
        assert_eq!(fs::read_to_string(&path).unwrap(), "nowe");
        // The file itself a link to the database: neither read nor written.
        fs::remove_file(&path).unwrap();
        std::os::unix::fs::symlink(&target, &path).unwrap();
        let through = transaction(&root, &path, Expect::Version(&version_of(b"baza")), |_| {
            Ok(Some("x".into()))
        });
        assert!(through.is_err(), "{through:?}");
        assert_eq!(fs::read_to_string(&target).unwrap(), "baza");
    }
}
