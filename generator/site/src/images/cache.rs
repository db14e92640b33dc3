//! Encoded variants on disk, by key: the hash of the source's bytes, the width, the format
//! and the encoder settings. A key names exactly one result, so a file found is a file
//! that would be encoded again byte for byte; a rebuild with nothing changed encodes nothing.

use std::path::{Path, PathBuf};

/// The folder of encoded variants: `IMAGE_CACHE_DIR`, or `ROOT/.cache/images`.
pub(crate) fn default_dir(root: &Path) -> PathBuf {
    match std::env::var_os(super::CACHE_ENV) {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => root.join(".cache").join("images"),
    }
}

#[derive(Debug, Clone)]
pub(crate) struct Cache {
    dir: PathBuf,
}

impl Cache {
    pub(crate) fn new(dir: PathBuf) -> Self {
        Self { dir }
    }

    fn path(&self, key: &str, ext: &str) -> PathBuf {
        let shard = key.get(..2).unwrap_or("00");
        self.dir.join(shard).join(format!("{key}.{ext}"))
    }

    /// The variant under `key`, if it was encoded before.
    pub(crate) fn get(&self, key: &str, ext: &str) -> Option<Vec<u8>> {
        std::fs::read(self.path(key, ext))
            .ok()
            .filter(|b| !b.is_empty())
    }

    /// Keeps a variant. Written to a temporary name and renamed, so that two builds sharing
    /// the folder never read half a file. A cache that cannot be written only costs time.
    pub(crate) fn put(&self, key: &str, ext: &str, bytes: &[u8]) {
        let path = self.path(key, ext);
        let Some(parent) = path.parent() else { return };
        if std::fs::create_dir_all(parent).is_err() {
            tracing::warn!("cannot create the image cache {}", parent.display());
            return;
        }
        let temp = parent.join(format!(
            ".{key}.{}.{:?}.tmp",
            std::process::id(),
            std::thread::current().id()
        ));
        let written = std::fs::write(&temp, bytes).and_then(|()| std::fs::rename(&temp, &path));
        if let Err(e) = written {
            let _ = std::fs::remove_file(&temp);
            tracing::warn!("cannot write {} to the image cache: {e}", path.display());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_variant_put_is_found_by_its_key_and_only_by_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let cache = Cache::new(dir.path().join("c"));
        assert_eq!(cache.get("ab12", "avif"), None);
        cache.put("ab12", "avif", b"bytes");
        assert_eq!(cache.get("ab12", "avif").as_deref(), Some(&b"bytes"[..]));
        assert_eq!(cache.get("ab12", "webp"), None);
        assert_eq!(cache.get("ab13", "avif"), None);
    }

    #[test]
    fn an_unwritable_cache_is_no_error() {
        let dir = tempfile::tempdir().expect("temp dir");
        let file = dir.path().join("file");
        std::fs::write(&file, "x").expect("write");
        let cache = Cache::new(file.join("below-a-file"));
        cache.put("ab12", "avif", b"bytes");
        assert_eq!(cache.get("ab12", "avif"), None);
    }
}
