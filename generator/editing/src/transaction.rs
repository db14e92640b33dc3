//! The one way a content file changes: under one lock, the file's current text is read and
//! its version compared with the one the panel loaded; only if they agree is the new text
//! made from the current one, and written atomically (a new file is created whole, never
//! over another; a file is removed). Every change of the panel — a document's save, restore,
//! creation and deletion, the price list, the facts — is one such transaction.

use sha2::{Digest, Sha256};
use std::fs;
use std::io::Write;
use std::path::Path;
use std::sync::Mutex;

use crate::error::{Error, Result};
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

/// Runs one transaction on `path`: `next` makes the new text from the current one (empty for
/// a new document), or `None` to remove the file. A text equal to the current one is not
/// written again.
/// Writes what `make` makes of the text of the content file `path` if it is still at
/// `version`: how the panel's history puts any file back (a page, the price list, the facts).
pub fn replace_file(
    path: &Path,
    version: &str,
    make: impl FnOnce(&str) -> Result<String>,
) -> Result<Saved> {
    if !path.is_file() {
        return Ok(Saved::NotFound);
    }
    transaction(path, Expect::Version(version), |text| make(text).map(Some))
}

pub(crate) fn transaction(
    path: &Path,
    expect: Expect<'_>,
    next: impl FnOnce(&str) -> Result<Option<String>>,
) -> Result<Saved> {
    let _guard = WRITE_LOCK.lock().unwrap_or_else(|p| p.into_inner());
    let previous = match (fs::read_to_string(path), expect) {
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
            remove(path)?;
            String::new()
        }
        Some(text) if matches!(expect, Expect::Nothing) => match create_new(path, &text)? {
            true => text,
            false => {
                let current = fs::read(path).map(|b| version_of(&b)).unwrap_or_default();
                return Ok(Saved::Conflict { current });
            }
        },
        Some(text) => {
            if text != previous {
                write_atomic(path, &text)?;
            }
            text
        }
    };
    let version = match saved.is_empty() && !path.exists() {
        true => String::new(),
        false => version_of(saved.as_bytes()),
    };
    Ok(Saved::Written {
        previous,
        saved,
        version,
    })
}

fn sync_dir(dir: &Path) {
    if let Ok(d) = fs::File::open(dir) {
        let _ = d.sync_all();
    }
}

/// `text` written and synced to a hidden file beside `path` (`.NAME.ending`), which
/// listings leave out; its path.
fn write_beside(path: &Path, ending: &str, text: &str) -> Result<std::path::PathBuf> {
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map_or_else(|| "file".into(), |n| n.to_string_lossy().into_owned());
    let temp = dir.join(format!(".{name}.{ending}"));
    let mut file = fs::File::create(&temp).map_err(|e| Error::write(&temp, e))?;
    file.write_all(text.as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(|e| Error::write(&temp, e))?;
    Ok(temp)
}

/// Writes a file so that a crash leaves either the old or the new text, never half of one.
pub fn write_atomic(path: &Path, text: &str) -> Result<()> {
    let temp = write_beside(path, "saving", text)?;
    fs::rename(&temp, path).map_err(|e| Error::write(path, e))?;
    sync_dir(path.parent().unwrap_or(Path::new(".")));
    Ok(())
}

/// Creates `path` with `text`, whole, never over an existing file (also one another process
/// made meanwhile): `false` if one is there.
fn create_new(path: &Path, text: &str) -> Result<bool> {
    let dir = path.parent().unwrap_or(Path::new("."));
    fs::create_dir_all(dir).map_err(|e| Error::write(dir, e))?;
    let temp = write_beside(path, "creating", text)?;
    // A hard link fails if the name exists: created whole, or not at all.
    let linked = fs::hard_link(&temp, path);
    let _ = fs::remove_file(&temp);
    match linked {
        Ok(()) => {
            sync_dir(dir);
            Ok(true)
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(false),
        Err(e) => Err(Error::write(path, e)),
    }
}

fn remove(path: &Path) -> Result<()> {
    fs::remove_file(path).map_err(|e| Error::write(path, e))?;
    sync_dir(path.parent().unwrap_or(Path::new(".")));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_needs_the_version_it_was_made_from() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.md");
        fs::write(&path, "jeden").unwrap();
        let v1 = version_of(b"jeden");
        let stale = transaction(&path, Expect::Version("stara"), |_| Ok(Some("x".into())));
        assert_eq!(
            stale.unwrap(),
            Saved::Conflict {
                current: v1.clone()
            }
        );
        let done = transaction(&path, Expect::Version(&v1), |t| {
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
        let missing = transaction(&gone, Expect::Version(&v1), |_| Ok(None));
        assert_eq!(missing.unwrap(), Saved::NotFound);
    }

    #[test]
    fn a_new_file_is_never_written_over_another_and_a_removed_one_keeps_its_text() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("blog/nowy.md");
        let made = transaction(&path, Expect::Nothing, |t| {
            assert_eq!(t, "");
            Ok(Some("nowy".into()))
        });
        assert!(matches!(made.unwrap(), Saved::Written { ref saved, .. } if saved == "nowy"));
        let again = transaction(&path, Expect::Nothing, |_| Ok(Some("inny".into())));
        assert!(matches!(again.unwrap(), Saved::Conflict { .. }));
        assert_eq!(fs::read_to_string(&path).unwrap(), "nowy");
        let removed = transaction(&path, Expect::Version(&version_of(b"nowy")), |_| Ok(None));
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
}
