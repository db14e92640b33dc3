//! Encoded variants on disk, by key: the hash of the source's bytes, the width, the format
//! and the encoder settings. A key names exactly one result, so a file found is a file
//! that would be encoded again byte for byte; a rebuild with nothing changed encodes nothing.

use std::path::{Path, PathBuf};

use content::beneath::Root;

/// The environment variable that moves the cache of encoded variants.
pub const CACHE_ENV: &str = "IMAGE_CACHE_DIR";

/// The folder of encoded variants: `IMAGE_CACHE_DIR`, or `ROOT/.cache/images`.
pub(crate) fn default_dir(root: &Path) -> PathBuf {
    match std::env::var_os(CACHE_ENV) {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => root.join(".cache").join("images"),
    }
}

/// The extension of a picture's lock file, beside its variants.
const LOCK: &str = "lock";

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

    /// The variant under `key`, if it was encoded before (read beneath the cache's folder,
    /// never through a link).
    pub(crate) fn get(&self, key: &str, ext: &str) -> Option<Vec<u8>> {
        Root::new(&self.dir)
            .read(&self.path(key, ext))
            .ok()
            .filter(|b| !b.is_empty())
    }

    /// This process's turn to encode the pictures of `sources` (their keys): a build in
    /// another process sharing the folder that encodes one of them (the tests side by side on
    /// a fresh clone) is waited for, and its variants are then found here instead of encoded
    /// again; other pictures go on at once. Taken in the keys' order, so that two processes
    /// never wait for each other. A turn the folder cannot hold is left out: encoding goes on,
    /// and only costs time.
    pub(crate) fn turns(&self, sources: impl IntoIterator<Item = String>) -> Vec<std::fs::File> {
        let mut keys: Vec<String> = sources.into_iter().collect();
        keys.sort();
        keys.dedup();
        if let Err(e) = std::fs::create_dir_all(&self.dir) {
            tracing::warn!("cannot make the image cache's folder: {e}");
            return Vec::new();
        }
        let root = Root::new(&self.dir);
        keys.iter()
            .filter_map(|key| {
                root.lock(&self.path(key, LOCK))
                    .inspect_err(|e| tracing::warn!("cannot take the image cache's lock: {e}"))
                    .ok()
            })
            .collect()
    }

    /// Keeps a variant. Written to a new temporary file and renamed, so that two builds
    /// sharing the folder never read half a file. A cache that cannot be written only costs
    /// time.
    pub(crate) fn put(&self, key: &str, ext: &str, bytes: &[u8]) {
        let path = self.path(key, ext);
        let root = Root::new(&self.dir);
        let written =
            std::fs::create_dir_all(&self.dir).and_then(|()| root.write_atomic(&path, bytes));
        if let Err(e) = written {
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
    fn one_process_encodes_a_picture_at_a_time_and_a_link_is_never_the_lock() {
        let dir = tempfile::tempdir().expect("temp dir");
        let cache = Cache::new(dir.path().join("c"));
        let other = |key: &str| std::fs::File::open(cache.path(key, LOCK)).expect("the lock");
        let turns = cache.turns(["cd34".to_string(), "ab12".into(), "cd34".into()]);
        assert_eq!(turns.len(), 2, "one turn a picture");
        // Another open of the file stands for another process: it must wait for that picture.
        assert!(
            other("ab12").try_lock().is_err(),
            "taken while the turn is held"
        );
        assert!(
            other("cd34").try_lock().is_err(),
            "taken while the turn is held"
        );
        let free = cache.turns(["ef56".to_string()]);
        assert_eq!(free.len(), 1, "another picture goes on at once");
        drop(turns);
        assert!(other("ab12").try_lock().is_ok(), "free once the turn ends");

        let target = dir.path().join("elsewhere");
        std::fs::create_dir_all(dir.path().join("c").join("99")).expect("mkdir");
        std::os::unix::fs::symlink(&target, cache.path("9999", LOCK)).expect("link");
        assert!(
            cache.turns(["9999".to_string()]).is_empty(),
            "a link in place of the lock is refused"
        );
        assert!(!target.exists(), "nothing is made through the link");
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
