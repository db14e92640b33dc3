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

/// The file whose lock is the turn to encode, in the cache's folder.
const LOCK: &str = ".encoding.lock";

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

    /// The turn of this process to encode: builds in other processes sharing the folder
    /// (the tests side by side on a fresh clone) wait, then find in it what this one made,
    /// instead of encoding the same pictures again. `None` when the folder cannot hold the
    /// lock: encoding goes on, and only costs time.
    pub(crate) fn turn(&self) -> Option<std::fs::File> {
        let lock = std::fs::create_dir_all(&self.dir)
            .and_then(|()| Root::new(&self.dir).lock(&self.dir.join(LOCK)));
        lock.inspect_err(|e| tracing::warn!("cannot take the image cache's lock: {e}"))
            .ok()
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
    fn one_process_encodes_at_a_time_and_a_link_is_never_the_lock() {
        let dir = tempfile::tempdir().expect("temp dir");
        let cache = Cache::new(dir.path().join("c"));
        let other = || std::fs::File::open(dir.path().join("c").join(LOCK)).expect("the lock");
        let turn = cache.turn().expect("the first turn");
        // Another open of the file stands for another process: it must wait.
        assert!(other().try_lock().is_err(), "taken while the turn is held");
        drop(turn);
        assert!(other().try_lock().is_ok(), "free once the turn ends");

        let linked = Cache::new(dir.path().join("linked"));
        std::fs::create_dir_all(dir.path().join("linked")).expect("mkdir");
        let target = dir.path().join("elsewhere");
        std::os::unix::fs::symlink(&target, dir.path().join("linked").join(LOCK)).expect("link");
        assert!(
            linked.turn().is_none(),
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
