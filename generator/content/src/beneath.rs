//! The one way the site touches a file under `content/`, `dist/` or the data folder: through a
//! [`Root`], a directory under which every path is resolved by `cap-std` (the kernel's
//! `openat2` with `RESOLVE_BENEATH` where Linux has it). Neither `..` nor a symbolic link
//! leads outside the root, the last component of a path is never followed when it is a link,
//! and a file is only ever written whole: into a new temporary file with a random name,
//! created exclusively (`O_CREAT|O_EXCL`, which never opens an existing name or a link), then
//! renamed or linked into place. A link planted where a temporary file would go, or where a
//! file is read, is refused instead of written through or read.

use cap_fs_ext::{DirExt, FollowSymlinks, OpenOptionsFollowExt};
use cap_std::fs::{Dir, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

/// A directory that paths are confined beneath.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Root {
    path: Arc<Path>,
}

/// What a path beneath a root is, without following it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stat {
    pub len: u64,
    pub modified: Option<SystemTime>,
    pub is_file: bool,
    pub is_dir: bool,
    pub is_link: bool,
}

/// A file listed beneath a root: its path relative to the listed folder (with '/'), its path
/// (the folder's joined with it), its size and modification time, and the root it is read
/// beneath.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Found {
    pub relative: String,
    pub path: PathBuf,
    pub len: u64,
    pub modified: Option<SystemTime>,
    pub root: Root,
}

impl Found {
    /// The file's bytes, read beneath its root, never through a link.
    pub fn read(&self) -> io::Result<Vec<u8>> {
        self.root.read(&self.path)
    }

    pub fn read_to_string(&self) -> io::Result<String> {
        self.root.read_to_string(&self.path)
    }
}

/// A folder's visible files, and the symbolic links found in it (never followed, never
/// listed as files): relative paths, sorted.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Listing {
    pub files: Vec<Found>,
    pub links: Vec<String>,
    /// Files and folders whose own name the walk's test refused (see [`Root::scan`]).
    pub refused: Vec<String>,
}

/// A test of one visible name of a walk: the name, and whether it is a folder's.
pub type NameTest = fn(&str, bool) -> bool;

/// Whether a file or folder name is hidden: it and everything under it is left out of
/// listings (hidden files, editors' swap files, temporary files of a write in progress).
pub fn is_hidden(name: &str) -> bool {
    name.starts_with('.')
}

fn outside(path: &Path, root: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::PermissionDenied,
        format!("{} is outside {}", path.display(), root.display()),
    )
}

fn not_a_file(path: &Path) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("{} is not a regular file", path.display()),
    )
}

fn no_follow() -> OpenOptions {
    let mut options = OpenOptions::new();
    options.follow(FollowSymlinks::No);
    options
}

impl Root {
    pub fn new(path: impl AsRef<Path>) -> Self {
        Root {
            path: Arc::from(path.as_ref()),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The root itself (which the operator chose: it may be reached through a link).
    fn dir(&self) -> io::Result<Dir> {
        Dir::open_ambient_dir(&self.path, cap_std::ambient_authority())
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", self.path.display())))
    }

    /// `path` relative to the root: a path under the root, or a relative one without `..`.
    fn inside<'p>(&self, path: &'p Path) -> io::Result<&'p Path> {
        let relative = match path.strip_prefix(&self.path) {
            Ok(relative) => relative,
            Err(_) if path.is_relative() => path,
            Err(_) => return Err(outside(path, &self.path)),
        };
        let plain = relative
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir));
        match plain {
            true => Ok(relative),
            false => Err(outside(path, &self.path)),
        }
    }

    /// The folder `path` is in, opened beneath the root without following links, and the
    /// file's name in it.
    fn parent_of<'p>(&self, path: &'p Path) -> io::Result<(Dir, &'p std::ffi::OsStr)> {
        let relative = self.inside(path)?;
        let name = relative.file_name().ok_or_else(|| not_a_file(path))?;
        let root = self.dir()?;
        let parent = match relative.parent() {
            Some(p) if !p.as_os_str().is_empty() => root.open_dir_nofollow(p)?,
            _ => root,
        };
        Ok((parent, name))
    }

    /// Opens the regular file `path` to read, never through a link.
    pub fn open(&self, path: &Path) -> io::Result<std::fs::File> {
        self.open_sized(path).map(|(file, _)| file)
    }

    /// [`Root::open`], with the file's size as opened.
    pub fn open_sized(&self, path: &Path) -> io::Result<(std::fs::File, u64)> {
        let relative = self.inside(path)?;
        let file = self
            .dir()?
            .open_with(relative, no_follow().read(true))
            .map_err(|e| named(path, e))?
            .into_std();
        let meta = file.metadata()?;
        match meta.is_file() {
            true => Ok((file, meta.len())),
            false => Err(not_a_file(path)),
        }
    }

    pub fn read(&self, path: &Path) -> io::Result<Vec<u8>> {
        let mut bytes = Vec::new();
        self.open(path)?.read_to_end(&mut bytes)?;
        Ok(bytes)
    }

    pub fn read_to_string(&self, path: &Path) -> io::Result<String> {
        let mut text = String::new();
        self.open(path)?.read_to_string(&mut text)?;
        Ok(text)
    }

    /// What `path` is, without following it.
    pub fn stat(&self, path: &Path) -> io::Result<Stat> {
        let relative = self.inside(path)?;
        let meta = match relative.as_os_str().is_empty() {
            true => self.dir()?.dir_metadata()?,
            false => self.dir()?.symlink_metadata(relative)?,
        };
        let kind = meta.file_type();
        Ok(Stat {
            len: meta.len(),
            modified: meta.modified().ok().map(|t| t.into_std()),
            is_file: kind.is_file(),
            is_dir: kind.is_dir(),
            is_link: kind.is_symlink(),
        })
    }

    /// Whether `path` is a regular file (a link to one is not).
    pub fn is_file(&self, path: &Path) -> bool {
        self.stat(path).is_ok_and(|s| s.is_file)
    }

    /// Whether anything, a link included, has the name `path`.
    pub fn exists(&self, path: &Path) -> bool {
        self.stat(path).is_ok()
    }

    pub fn create_dir_all(&self, path: &Path) -> io::Result<()> {
        let relative = self.inside(path)?;
        if relative.as_os_str().is_empty() {
            return Ok(());
        }
        self.dir()?.create_dir_all(relative)
    }

    /// Removes the file (or link) `path`; the folder is synced.
    pub fn remove_file(&self, path: &Path) -> io::Result<()> {
        let (parent, name) = self.parent_of(path)?;
        parent.remove_file(name)?;
        sync(&parent);
        Ok(())
    }

    /// Removes the folder `path` with everything in it, links removed, never followed.
    pub fn remove_dir_all(&self, path: &Path) -> io::Result<()> {
        let (parent, name) = self.parent_of(path)?;
        parent.remove_dir_all(name)
    }

    /// Writes `bytes` to `path` so that a crash leaves either the old or the new file, never
    /// half of one; a link at `path` is replaced, never written through.
    pub fn write_atomic(&self, path: &Path, bytes: &[u8]) -> io::Result<()> {
        self.write_atomic_with(path, bytes, None)
    }

    /// As [`Root::write_atomic`], the new file with permissions `mode` (such as `0o600`).
    pub fn write_atomic_with(
        &self,
        path: &Path,
        bytes: &[u8],
        mode: Option<u32>,
    ) -> io::Result<()> {
        self.create_parent(path)?;
        let (parent, name) = self.parent_of(path)?;
        let temp = write_temp(&parent, name, bytes, mode).map_err(|e| named(path, e))?;
        parent
            .rename(&temp, &parent, name)
            .inspect_err(|_| {
                let _ = parent.remove_file(&temp);
            })
            .map_err(|e| named(path, e))?;
        sync(&parent);
        Ok(())
    }

    /// Holds the file `path` (made empty when missing, never through a link) locked for this
    /// process until the file returned is dropped: processes that share a folder take turns.
    pub fn lock(&self, path: &Path) -> io::Result<std::fs::File> {
        self.create_parent(path)?;
        let relative = self.inside(path)?;
        let mut options = no_follow();
        options.create(true).truncate(false).write(true);
        let file = self
            .dir()?
            .open_with(relative, &options)
            .map_err(|e| named(path, e))?
            .into_std();
        file.lock().map_err(|e| named(path, e))?;
        Ok(file)
    }

    /// Creates `path` with `bytes`, whole, never over an existing name (also one another
    /// process made meanwhile): `false` if the name is taken.
    pub fn create_new(&self, path: &Path, bytes: &[u8]) -> io::Result<bool> {
        self.create_parent(path)?;
        let (parent, name) = self.parent_of(path)?;
        let temp = write_temp(&parent, name, bytes, None).map_err(|e| named(path, e))?;
        // A hard link fails if the name exists: created whole, or not at all.
        let linked = parent.hard_link(&temp, &parent, name);
        let _ = parent.remove_file(&temp);
        match linked {
            Ok(()) => {
                sync(&parent);
                Ok(true)
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => Ok(false),
            Err(e) => Err(named(path, e)),
        }
    }

    fn create_parent(&self, path: &Path) -> io::Result<()> {
        match self.inside(path)?.parent() {
            Some(p) if !p.as_os_str().is_empty() => self.dir()?.create_dir_all(p),
            _ => Ok(()),
        }
    }

    /// The visible files under the folder `path` (the root itself when empty), sorted by
    /// relative path, and the links found there; a missing folder is empty. Hidden names
    /// are left out, links are never followed, and a link in place of the folder is refused.
    pub fn list(&self, path: &Path) -> io::Result<Listing> {
        self.walk(path, true, None)
    }

    /// Only the links under the folder `path`, relative to it: what [`Root::list`] finds,
    /// without reading the files' sizes.
    pub fn links(&self, path: &Path) -> io::Result<Vec<String>> {
        self.walk(path, false, None).map(|l| l.links)
    }

    /// The links under the folder `path`, and the files and folders there whose name `test`
    /// refuses (`refused`), without reading the files' sizes.
    pub fn scan(&self, path: &Path, test: NameTest) -> io::Result<Listing> {
        self.walk(path, false, Some(test))
    }

    fn walk(&self, path: &Path, files: bool, test: Option<NameTest>) -> io::Result<Listing> {
        let relative = self.inside(path)?;
        let root = self.dir()?;
        let dir = match relative.as_os_str().is_empty() {
            true => root,
            false => match root.open_dir_nofollow(relative) {
                Ok(dir) => dir,
                Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Listing::default()),
                Err(e) => return Err(named(path, e)),
            },
        };
        let mut walk = Walk {
            root: self,
            base: self.path.join(relative),
            files,
            test,
            out: Listing::default(),
        };
        walk.enter(&dir, "")?;
        walk.out.links.sort_unstable();
        Ok(walk.out)
    }
}

/// A listing in progress.
struct Walk<'a> {
    root: &'a Root,
    base: PathBuf,
    /// Whether files are listed (or only links).
    files: bool,
    /// Which names pass; the others are `refused`.
    test: Option<NameTest>,
    out: Listing,
}

impl Walk<'_> {
    fn enter(&mut self, dir: &Dir, prefix: &str) -> io::Result<()> {
        let mut entries = Vec::new();
        for entry in dir.entries()? {
            let entry = entry?;
            let name = entry.file_name().to_string_lossy().into_owned();
            if !is_hidden(&name) {
                entries.push((name, entry));
            }
        }
        entries.sort_unstable_by(|a, b| a.0.cmp(&b.0));
        for (name, entry) in entries {
            let relative = format!("{prefix}{name}");
            // The entry's own type: a link is a link, whatever it points at.
            let kind = entry.file_type()?;
            if self.test.is_some_and(|test| !test(&name, kind.is_dir())) {
                self.out.refused.push(relative.clone());
            }
            if kind.is_symlink() {
                self.out.links.push(relative);
            } else if kind.is_dir() {
                let below = dir.open_dir_nofollow(&name)?;
                self.enter(&below, &format!("{relative}/"))?;
            } else if kind.is_file() && self.files {
                let meta = entry.metadata()?;
                self.out.files.push(Found {
                    path: self.base.join(&relative),
                    relative,
                    len: meta.len(),
                    modified: meta.modified().ok().map(|t| t.into_std()),
                    root: self.root.clone(),
                });
            }
        }
        Ok(())
    }
}

fn named(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {e}", path.display()))
}

fn sync(dir: &Dir) {
    if let Ok(d) = dir.open(".") {
        let _ = d.sync_all();
    }
}

/// A new hidden file beside `name` in `dir` holding `bytes`, synced; its name.
fn write_temp(
    dir: &Dir,
    name: &std::ffi::OsStr,
    bytes: &[u8],
    mode: Option<u32>,
) -> io::Result<PathBuf> {
    use cap_std::fs::OpenOptionsExt;
    let mut options = no_follow();
    options.write(true).create_new(true);
    options.mode(mode.unwrap_or(0o644));
    for _ in 0..16 {
        let temp = PathBuf::from(format!(
            ".{}.{:016x}.tmp",
            name.to_string_lossy(),
            fastrand::u64(..)
        ));
        let mut file = match dir.open_with(&temp, &options) {
            Ok(file) => file,
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        };
        let written = file.write_all(bytes).and_then(|()| file.sync_all());
        if let Err(e) = written {
            let _ = dir.remove_file(&temp);
            return Err(e);
        }
        return Ok(temp);
    }
    Err(io::Error::new(
        io::ErrorKind::AlreadyExists,
        "no free temporary name",
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::symlink;

    fn root() -> (tempfile::TempDir, Root) {
        let dir = tempfile::tempdir().expect("temp dir");
        let root = Root::new(dir.path().join("content"));
        std::fs::create_dir_all(root.path().join("images")).expect("mkdir");
        (dir, root)
    }

    #[test]
    fn a_link_is_never_read_through() {
        let (dir, root) = root();
        let secret = dir.path().join("site.sqlite3");
        std::fs::write(&secret, "hasła").expect("write");
        let leak = root.path().join("images/leak.svg");
        symlink(&secret, &leak).expect("link");
        let inner = root.path().join("images/inner.svg");
        std::fs::write(root.path().join("images/a.svg"), "<svg/>").expect("write");
        symlink("a.svg", &inner).expect("link");
        assert!(root.read(&leak).is_err(), "a link out of the root");
        assert!(root.read(&inner).is_err(), "a link inside the root");
        assert!(!root.is_file(&leak));
        assert!(root.stat(&leak).expect("stat").is_link);
        assert_eq!(
            root.read(&root.path().join("images/a.svg")).expect("read"),
            b"<svg/>"
        );
        assert!(root.read(Path::new("../site.sqlite3")).is_err(), "`..`");
        assert!(root.read(&secret).is_err(), "a path outside");
    }

    #[test]
    fn a_linked_folder_is_never_entered() {
        let (dir, root) = root();
        let elsewhere = dir.path().join("elsewhere");
        std::fs::create_dir_all(&elsewhere).expect("mkdir");
        std::fs::write(elsewhere.join("passwd"), "root:x").expect("write");
        symlink(&elsewhere, root.path().join("pages")).expect("link");
        assert!(root.read(&root.path().join("pages/passwd")).is_err());
        assert!(root.list(&root.path().join("pages")).is_err());
        let listing = root.list(root.path()).expect("listed");
        assert_eq!(listing.links, vec!["pages".to_string()]);
        assert!(listing.files.is_empty());
        let written = root.write_atomic(&root.path().join("pages/x.md"), b"x");
        assert!(written.is_err(), "a write through a linked folder");
        assert!(!elsewhere.join("x.md").exists());
    }

    #[test]
    fn a_planted_temporary_link_is_never_written_through() {
        let (dir, root) = root();
        let target = dir.path().join("target");
        std::fs::write(&target, "nietknięty").expect("write");
        let file = root.path().join("cennik.yaml");
        std::fs::write(&file, "stary").expect("write");
        // Every name a save once used for its temporary file, planted as a link.
        for planted in [".cennik.yaml.saving", ".cennik.yaml.creating"] {
            symlink(&target, root.path().join(planted)).expect("link");
        }
        root.write_atomic(&file, b"nowy").expect("written");
        assert_eq!(
            std::fs::read_to_string(&target).expect("read"),
            "nietknięty"
        );
        assert_eq!(std::fs::read_to_string(&file).expect("read"), "nowy");
        assert!(!std::fs::symlink_metadata(&file)
            .expect("meta")
            .file_type()
            .is_symlink());
        // A link in place of the file itself is replaced, not written through.
        std::fs::remove_file(&file).expect("remove");
        symlink(&target, &file).expect("link");
        root.write_atomic(&file, b"nowszy").expect("written");
        assert_eq!(
            std::fs::read_to_string(&target).expect("read"),
            "nietknięty"
        );
        assert_eq!(std::fs::read_to_string(&file).expect("read"), "nowszy");
    }

    #[test]
    fn a_new_file_is_created_whole_and_never_over_another_name() {
        let (dir, root) = root();
        let target = dir.path().join("target");
        let path = root.path().join("blog/nowy.md");
        assert!(root.create_new(&path, b"nowy").expect("created"));
        assert!(!root.create_new(&path, b"inny").expect("refused"));
        assert_eq!(std::fs::read_to_string(&path).expect("read"), "nowy");
        let link = root.path().join("blog/link.md");
        symlink(&target, &link).expect("link");
        assert!(!root.create_new(&link, b"x").expect("refused"));
        assert!(!target.exists(), "nothing created through the link");
        let listing = root.list(&root.path().join("blog")).expect("listed");
        let names: Vec<&str> = listing.files.iter().map(|f| f.relative.as_str()).collect();
        assert_eq!(names, vec!["nowy.md"], "no temporary file left");
        assert_eq!(listing.links, vec!["link.md".to_string()]);
    }

    #[test]
    fn hidden_files_and_folders_are_left_out_of_listings() {
        let (_dir, root) = root();
        for f in ["b.md", "a/c.md", ".git/x", "a/.d.md.saving", ".e"] {
            let p = root.path().join(f);
            std::fs::create_dir_all(p.parent().expect("parent")).expect("mkdir");
            std::fs::write(p, "x").expect("write");
        }
        let listing = root.list(root.path()).expect("listed");
        let names: Vec<&str> = listing.files.iter().map(|f| f.relative.as_str()).collect();
        assert_eq!(names, vec!["a/c.md", "b.md"]);
        assert_eq!(listing.files[0].len, 1);
        assert!(listing.files[0].modified.is_some());
        assert_eq!(listing.files[0].path, root.path().join("a/c.md"));
        let missing = root.list(&root.path().join("nie-ma")).expect("empty");
        assert!(missing.files.is_empty());
    }
}
