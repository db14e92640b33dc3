//! Atomic publish: the output path is a symbolic link to a complete build, swapped in one
//! rename, so that a visitor, a CDN sync or a crash mid-build never sees half a site.
//!
//! A [`Publisher`] remembers what the live build holds (path → fingerprint), learned only
//! after a swap succeeded, and hard-links from it exactly the files whose fingerprint is
//! unchanged. A publish that fails leaves that manifest as it was, so the next one can
//! never link a file the live build did not receive. Without a manifest (the first publish
//! of a process) a file is linked when the live build holds the very same bytes, so that a
//! restart does not give every unchanged file a new modification time (nginx's
//! `Last-Modified` and `ETag`).

use rayon::prelude::*;
use std::collections::HashMap;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use crate::error::{Error, Result};
use crate::output::Output;
use content::beneath::Root;

/// `dist` keeps its builds in the sibling folder `dist.builds/`.
pub(crate) fn builds_dir(out: &Path) -> PathBuf {
    let name = out
        .file_name()
        .map_or_else(|| "dist".into(), |n| n.to_string_lossy().into_owned());
    out.with_file_name(format!("{name}.builds"))
}

fn next_build_number(builds: &Path) -> Result<u64> {
    let entries = fs::read_dir(builds).map_err(|e| Error::read(builds, e))?;
    let max = entries
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<u64>().ok())
        .max()
        .unwrap_or(0);
    Ok(max + 1)
}

/// Writes a file of a build in progress: a new name in a folder only this build writes, so it
/// is created exclusively (`O_EXCL`, which never opens a link or an existing file).
fn write_file(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path)
        .map_err(|e| Error::write(path, e))?;
    file.write_all(bytes).map_err(|e| Error::write(path, e))
}

/// What the live build at one output path holds.
#[derive(Debug, Default)]
struct Live {
    out: PathBuf,
    dir: PathBuf,
    files: HashMap<String, [u8; 32]>,
}

/// Publishes builds at an output path, reusing unchanged files of the live build.
#[derive(Debug, Default)]
pub(crate) struct Publisher {
    live: Option<Live>,
    pins: Pins,
}

/// Build folders a reader outside the builder holds (a CDN sync copying one, however long
/// it takes): never removed while pinned, so what it copies is one whole build.
#[derive(Debug, Clone, Default)]
pub struct Pins(Arc<Mutex<HashMap<PathBuf, usize>>>);

/// A pinned build folder; unpinned when dropped.
#[derive(Debug)]
pub struct Pin {
    pins: Pins,
    dir: PathBuf,
}

impl Pins {
    /// Pins the build `out` points at now; `None` if it points at none.
    pub fn pin(&self, out: &Path) -> Option<Pin> {
        let mut pinned = self.0.lock().unwrap_or_else(|p| p.into_inner());
        let dir = fs::canonicalize(out).ok()?;
        *pinned.entry(dir.clone()).or_default() += 1;
        Some(Pin {
            pins: self.clone(),
            dir,
        })
    }
}

impl Pin {
    /// The pinned build folder.
    pub fn dir(&self) -> &Path {
        &self.dir
    }
}

impl Drop for Pin {
    fn drop(&mut self) {
        let mut pinned = self.pins.0.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(n) = pinned.get_mut(&self.dir) {
            *n -= 1;
            if *n == 0 {
                pinned.remove(&self.dir);
            }
        }
    }
}

impl Publisher {
    /// Writes `outputs` as a new build and makes `out` point at it; returns the build folder.
    pub(crate) fn publish(&mut self, out: &Path, outputs: &[Output]) -> Result<PathBuf> {
        let builds = builds_dir(out);
        fs::create_dir_all(&builds).map_err(|e| Error::write(&builds, e))?;
        let number = next_build_number(&builds)?;
        let staging = builds.join(format!("{number}.partial"));
        let _ = fs::remove_dir_all(&staging);
        // Only a manifest of this very output path, whose build is still what `out` points
        // at, says which files may be linked.
        let current = fs::canonicalize(out).ok();
        let on_disk;
        let live = match self
            .live
            .as_ref()
            .filter(|l| l.out == out && current.as_ref() == Some(&l.dir))
        {
            Some(live) => Some(live),
            None => {
                on_disk = current.as_deref().and_then(|dir| read_manifest(out, dir));
                on_disk.as_ref()
            }
        };
        fs::create_dir_all(&staging).map_err(|e| Error::write(&staging, e))?;
        // Thousands of small files, most in a folder of their own: folders made and files
        // written (or linked) in parallel. Folder after folder in one pass first left a core
        // idle (each `mkdir` in `blog/` waits for the one before); made beside the files, one
        // thread's `mkdir` overlaps the other's writes. A thread makes a folder once for the
        // outputs it meets in a row there; one made by the other thread first is no error.
        outputs
            .par_iter()
            .try_for_each_init(PathBuf::new, |made, output| {
                let target = staging.join(&output.path);
                if let Some(parent) = target.parent().filter(|p| *p != made.as_path()) {
                    fs::create_dir_all(parent).map_err(|e| Error::write(parent, e))?;
                    *made = parent.to_path_buf();
                }
                let source = match (live, &current) {
                    (Some(l), _) => (l.files.get(&output.path) == Some(&output.fingerprint))
                        .then(|| l.dir.join(&output.path)),
                    (None, Some(dir)) => Some(dir.join(&output.path))
                        .filter(|path| same_bytes(dir, path, &output.bytes)),
                    (None, None) => None,
                };
                let linked = source.is_some_and(|from| fs::hard_link(from, &target).is_ok());
                match linked {
                    true => Ok(()),
                    false => write_file(&target, &output.bytes),
                }
            })?;
        let build = builds.join(number.to_string());
        fs::rename(&staging, &build).map_err(|e| Error::write(&build, e))?;
        write_manifest(&builds, number, outputs)?;
        swap_link(out, &builds, number)?;
        prune(&builds, number, &self.pins);
        self.live = Some(Live {
            out: out.to_path_buf(),
            dir: fs::canonicalize(&build).unwrap_or_else(|_| build.clone()),
            files: outputs
                .iter()
                .map(|o| (o.path.clone(), o.fingerprint))
                .collect(),
        });
        Ok(build)
    }
}

/// Where the manifest of build `number` is: beside its folder, never served.
fn manifest_path(builds: &Path, number: u64) -> PathBuf {
    builds.join(format!("{number}.manifest"))
}

/// Writes what build `number` holds (a fingerprint and a path a line), so that the first
/// publish of a later process links its unchanged files without reading them.
fn write_manifest(builds: &Path, number: u64, outputs: &[Output]) -> Result<()> {
    let mut text = String::with_capacity(outputs.len() * 96);
    for o in outputs {
        text.push_str(&content::encoding::hex(&o.fingerprint));
        text.push('\t');
        text.push_str(&o.path);
        text.push('\n');
    }
    write_file(&manifest_path(builds, number), text.as_bytes())
}

/// The manifest of the build folder `dir` that `out` points at, if it has a whole one.
fn read_manifest(out: &Path, dir: &Path) -> Option<Live> {
    let number: u64 = dir.file_name()?.to_str()?.parse().ok()?;
    let builds = dir.parent()?;
    let text = Root::new(builds)
        .read_to_string(&manifest_path(builds, number))
        .ok()?;
    let mut files = HashMap::new();
    for line in text.lines() {
        let (hex, path) = line.split_once('\t')?;
        files.insert(path.to_string(), unhex(hex)?);
    }
    Some(Live {
        out: out.to_path_buf(),
        dir: dir.to_path_buf(),
        files,
    })
}

fn unhex(text: &str) -> Option<[u8; 32]> {
    let mut out = [0u8; 32];
    if text.len() != 64 {
        return None;
    }
    for (i, byte) in out.iter_mut().enumerate() {
        *byte = u8::from_str_radix(text.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

/// Whether the file at `path` in the live build `dir` holds exactly `bytes` (a link holds
/// nothing).
fn same_bytes(dir: &Path, path: &Path, bytes: &[u8]) -> bool {
    let live = Root::new(dir);
    live.stat(path)
        .is_ok_and(|m| m.is_file && m.len == bytes.len() as u64)
        && live.read(path).is_ok_and(|on_disk| on_disk == bytes)
}

#[cfg(test)]
fn publish(out: &Path, outputs: &[Output]) -> Result<PathBuf> {
    Publisher::default().publish(out, outputs)
}

fn swap_link(out: &Path, builds: &Path, number: u64) -> Result<()> {
    let builds_name = builds.file_name().unwrap_or_default();
    let target = Path::new(builds_name).join(number.to_string());
    let temp_link = builds.join(format!("{number}.link"));
    let _ = fs::remove_file(&temp_link);
    std::os::unix::fs::symlink(&target, &temp_link).map_err(|e| Error::write(&temp_link, e))?;
    // A real folder left from an older layout cannot be replaced by rename.
    if out.is_dir() && !out.is_symlink() {
        fs::remove_dir_all(out).map_err(|e| Error::write(out, e))?;
    }
    fs::rename(&temp_link, out).map_err(|e| Error::write(out, e))
}

impl Publisher {
    /// What pins the build folders this publisher would otherwise remove.
    pub(crate) fn pins(&self) -> Pins {
        self.pins.clone()
    }
}

/// Keeps the current build, the one before it (requests may still be reading it) and the
/// pinned ones.
fn prune(builds: &Path, current: u64, pins: &Pins) {
    let Ok(entries) = fs::read_dir(builds) else {
        return;
    };
    let pinned = pins.0.lock().unwrap_or_else(|p| p.into_inner());
    let is_pinned = |path: &Path| fs::canonicalize(path).is_ok_and(|p| pinned.contains_key(&p));
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        let stale = match name.parse::<u64>() {
            Ok(n) => n + 1 < current,
            Err(_) => !name.starts_with(&current.to_string()),
        };
        if stale && !is_pinned(&entry.path()) {
            remove(&entry.path());
        }
    }
}

/// Removes a file, or a folder and everything in it, the parts of a folder in parallel (an
/// old build holds thousands of small folders).
fn remove(path: &Path) {
    let is_folder = fs::symlink_metadata(path).is_ok_and(|m| m.is_dir());
    let entries = match fs::read_dir(path) {
        Ok(entries) if is_folder => entries,
        _ => {
            let _ = fs::remove_file(path);
            return;
        }
    };
    let paths: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
    paths.par_iter().for_each(|p| remove(p));
    let _ = fs::remove_dir(path);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn publish_swaps_the_link_and_keeps_one_previous_build() {
        let dir = tempfile::tempdir().expect("temp dir");
        let dist = dir.path().join("dist");
        for i in 1..=3 {
            publish(&dist, &[Output::new("index.html", format!("build {i}"))]).expect("published");
            assert_eq!(
                fs::read_to_string(dist.join("index.html")).expect("read"),
                format!("build {i}")
            );
        }
        let mut left: Vec<String> = fs::read_dir(builds_dir(&dist))
            .expect("builds")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .collect();
        left.sort();
        assert_eq!(left, vec!["2", "3", "3.manifest"]);
    }

    #[test]
    fn a_pinned_build_outlives_later_publishes_until_it_is_unpinned() {
        let dir = tempfile::tempdir().expect("temp dir");
        let dist = dir.path().join("dist");
        let mut publisher = Publisher::default();
        publisher
            .publish(&dist, &[Output::new("index.html", "build 1")])
            .expect("published");
        let pin = publisher.pins().pin(&dist).expect("a build to pin");
        for i in 2..=4 {
            let text = format!("build {i}");
            publisher
                .publish(&dist, &[Output::new("index.html", text)])
                .expect("published");
        }
        let synced = fs::read_to_string(pin.dir().join("index.html")).expect("still there");
        assert_eq!(synced, "build 1");
        let first = pin.dir().to_path_buf();
        drop(pin);
        publisher
            .publish(&dist, &[Output::new("index.html", "build 5")])
            .expect("published");
        assert!(!first.exists(), "unpinned, it goes with the next publish");
    }

    #[test]
    fn a_new_publisher_trusts_the_manifest_of_the_live_build() {
        let dir = tempfile::tempdir().expect("temp dir");
        let dist = dir.path().join("dist");
        publish(
            &dist,
            &[Output::new("a.html", "A"), Output::new("b.html", "B")],
        )
        .expect("first");
        assert!(builds_dir(&dist).join("1.manifest").is_file());
        // A restart: the manifest says what the live build holds; no file is read.
        publish(
            &dist,
            &[Output::new("a.html", "A"), Output::new("b.html", "B2")],
        )
        .expect("second");
        use std::os::unix::fs::MetadataExt;
        assert_eq!(fs::metadata(dist.join("a.html")).expect("a").nlink(), 2);
        assert_eq!(fs::metadata(dist.join("b.html")).expect("b").nlink(), 1);
        let left: Vec<String> = fs::read_dir(builds_dir(&dist))
            .expect("builds")
            .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
            .filter(|n| n.ends_with(".manifest"))
            .collect();
        assert_eq!(
            left,
            vec!["2.manifest"],
            "only the live build's manifest stays"
        );
    }

    #[test]
    fn a_real_folder_is_replaced() {
        let dir = tempfile::tempdir().expect("temp dir");
        let dist = dir.path().join("dist");
        fs::create_dir_all(dist.join("old")).expect("mkdir");
        publish(&dist, &[Output::new("a/index.html", "new")]).expect("published");
        assert!(dist.is_symlink());
        assert!(!dist.join("old").exists());
        assert_eq!(
            fs::read_to_string(dist.join("a/index.html")).expect("read"),
            "new"
        );
    }

    #[test]
    fn unchanged_files_are_linked_and_changed_ones_written() {
        let dir = tempfile::tempdir().expect("temp dir");
        let dist = dir.path().join("dist");
        let mut publisher = Publisher::default();
        publisher
            .publish(
                &dist,
                &[Output::new("a.html", "A"), Output::new("b.html", "B")],
            )
            .expect("first");
        let before = fs::canonicalize(dist.join("a.html")).expect("a");
        publisher
            .publish(
                &dist,
                &[Output::new("a.html", "A"), Output::new("b.html", "B2")],
            )
            .expect("second");
        use std::os::unix::fs::MetadataExt;
        let a = fs::metadata(dist.join("a.html")).expect("a");
        assert_eq!(a.nlink(), 2, "a.html is a link into the previous build");
        assert_ne!(fs::canonicalize(dist.join("a.html")).expect("a"), before);
        assert_eq!(fs::read_to_string(dist.join("b.html")).expect("b"), "B2");
    }

    #[test]
    fn a_new_publisher_links_the_files_whose_bytes_the_live_build_has() {
        let dir = tempfile::tempdir().expect("temp dir");
        let dist = dir.path().join("dist");
        publish(
            &dist,
            &[Output::new("a.html", "A"), Output::new("b.html", "B")],
        )
        .expect("first");
        // A restart without a manifest (a build of an older version): only what `dist` holds.
        fs::remove_file(builds_dir(&dist).join("1.manifest")).expect("no manifest");
        publish(
            &dist,
            &[Output::new("a.html", "A"), Output::new("b.html", "B2")],
        )
        .expect("second");
        use std::os::unix::fs::MetadataExt;
        let a = fs::metadata(dist.join("a.html")).expect("a");
        assert_eq!(a.nlink(), 2, "a.html keeps its file, and so its time");
        let b = fs::metadata(dist.join("b.html")).expect("b");
        assert_eq!(b.nlink(), 1);
        assert_eq!(fs::read_to_string(dist.join("b.html")).expect("b"), "B2");
    }
}
