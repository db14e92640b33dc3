//! Backups that restore. `sidecar backup DIR` copies the database with SQLite's online backup
//! API while the server serves (one read transaction: one consistent moment), then
//! `content/` (its visible files, as the generator reads them), then writes `manifest.json` — every file with its size and SHA-256, the
//! schema version and the build id — last, so a backup without a manifest is an unfinished
//! one. The database is copied first: a save that lands in between is then in the copied
//! file, at worst without its revision, never a revision without its file.
//!
//! `sidecar restore DIR` takes the data folder's lock — which a running server holds for as
//! long as it lives (an exclusive `flock`, released by the kernel even if the server
//! crashes), so a restore never replaces the database under a server, and no server starts
//! during one — verifies every file against the manifest before replacing anything, then
//! swaps the database and `content/` in (keeping the hidden entries of the one it replaces,
//! like `.git`). A backup is data, never instructions: it may hold only regular files (no
//! symbolic link, at any depth), the database and visible files under `content/` (no hidden
//! part such as `.git/config`, whose settings would run programs); each is copied from the
//! very file that was checked and checked again as copied. The data folder stays 0700, the
//! database and every restored file 0600, their folders 0700; restored files get the owner
//! of the folder they are restored into (a restore run as root for a service's user).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::fs::{self, File};
use std::io::{Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Component, Path, PathBuf};

pub mod restic;
pub mod schedule;
pub mod status;

use crate::audit::Server;
use crate::config::Config;
use crate::db;
use crate::error::Error;
pub use crate::data_lock::{lock_data_dir, DataLock, LOCK_FILE};
use crate::data_lock::own_like;

pub const DB_FILE: &str = "site.sqlite3";
pub const MANIFEST_FILE: &str = "manifest.json";
const FORMAT: u32 = 1;
const CONTENT: &str = "content";

fn failed(what: impl std::fmt::Display, path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Backup(format!("{what} {}: {e}", path.display()))
}

/// One file of a backup.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FileEntry {
    /// Relative to the backup folder: `site.sqlite3` or `content/…`.
    pub path: String,
    pub bytes: u64,
    pub sha256: String,
}

/// `manifest.json`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Manifest {
    pub format: u32,
    pub created_at: i64,
    /// The database's `user_version`: its migrations.
    pub schema_version: i64,
    /// The build the server was serving (`_build` of `DIST_DIR`), if one was published.
    pub build: Option<String>,
    pub files: Vec<FileEntry>,
}

fn sha256_of(path: &Path) -> Result<(u64, String), Error> {
    let bytes = fs::read(path).map_err(|e| failed("cannot read", path, e))?;
    Ok((
        bytes.len() as u64,
        content::encoding::hex(&Sha256::digest(&bytes)),
    ))
}

fn write_private(path: &Path, bytes: &[u8]) -> Result<(), Error> {
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).map_err(|e| failed("cannot create", parent, e))?;
        fs::set_permissions(parent, std::os::unix::fs::PermissionsExt::from_mode(0o700))
            .map_err(|e| failed("cannot protect", parent, e))?;
    }
    let mut file = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
        .map_err(|e| failed("cannot create", path, e))?;
    file.write_all(bytes)
        .and_then(|()| file.sync_all())
        .map_err(|e| failed("cannot write", path, e))
}

/// The files of `content/`, sorted: as the generator reads it (beneath `content/`, links
/// never followed), without hidden ones (`.git`, editors' swap files, temporary files).
fn content_files(content: &Path) -> Result<Vec<content::walk::Found>, Error> {
    content::walk::files(content, content)
        .map_err(|e| Error::Backup(format!("cannot list {}: {e}", content.display())))
}

/// Writes a backup of `config`'s database and content into `dir`, which must not exist or
/// be empty, and says so in the audit log.
pub fn backup(config: &Config, dir: &Path) -> Result<Manifest, Error> {
    let manifest = copy_into(config, dir)?;
    let files = content::polish::count(manifest.files.len(), content::polish::FILES);
    let detail = format!("{} ({files})", dir.display());
    audit_in(&config.data_dir.join(DB_FILE), Server::BackupMade, &detail);
    Ok(manifest)
}

/// The consistent copy of [`backup`], without its audit entry (a scheduled backup reports
/// in its status file instead of adding an entry each hour).
pub fn copy_into(config: &Config, dir: &Path) -> Result<Manifest, Error> {
    if fs::read_dir(dir).is_ok_and(|mut d| d.next().is_some()) {
        return Err(Error::Backup(format!(
            "{} is not empty: back up into a new folder",
            dir.display()
        )));
    }
    db::private_dir(dir)?;
    let db_copy = dir.join(DB_FILE);
    let schema_version = db::backup_into(&config.data_dir.join(DB_FILE), &db_copy)?;
    let (bytes, sha256) = sha256_of(&db_copy)?;
    let mut files = vec![FileEntry {
        path: DB_FILE.into(),
        bytes,
        sha256,
    }];
    let content = config.root.join(CONTENT);
    for found in content_files(&content)? {
        let bytes = match found.read() {
            Ok(bytes) => bytes,
            // Deleted since it was listed: it is not part of the content any more.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(failed("cannot read", &found.path, e)),
        };
        let path = format!("{CONTENT}/{}", found.relative);
        write_private(&dir.join(&path), &bytes)?;
        files.push(FileEntry {
            path,
            bytes: bytes.len() as u64,
            sha256: content::encoding::hex(&Sha256::digest(&bytes)),
        });
    }
    let build = fs::read_to_string(config.dist.join(site::BUILD_ID_FILE))
        .ok()
        .map(|s| s.trim().to_string());
    let manifest = Manifest {
        format: FORMAT,
        created_at: config.clock.now(),
        schema_version,
        build,
        files,
    };
    let json = serde_json::to_vec_pretty(&manifest)
        .map_err(|e| Error::Backup(format!("manifest: {e}")))?;
    write_private(&dir.join(MANIFEST_FILE), &json)?;
    Ok(manifest)
}

/// Writes `event` to the audit log of the database at `path` (a backup or a restore is done
/// by a command, beside or instead of a server); a failure is only logged.
fn audit_in(path: &Path, event: Server, detail: &str) {
    match db::Db::open(path) {
        Ok(db) => accounts::audit::record(&db.accounts(), event, "", "serwer", detail),
        Err(e) => tracing::error!(error = %e, event = event.name(), "audit log"),
    }
}

/// Why a path of the manifest may not be restored, if it may not: only `site.sqlite3` and
/// visible files under `content/`, each part a plain name.
fn path_problem(path: &str) -> Option<&'static str> {
    let p = Path::new(path);
    if !p.components().all(|c| matches!(c, Component::Normal(_))) {
        return Some("outside the backup");
    }
    if path != DB_FILE && !(path.starts_with("content/") && p.components().count() > 1) {
        return Some("neither the database nor a file of content/");
    }
    if p.components()
        .any(|c| c.as_os_str().to_string_lossy().starts_with('.'))
    {
        return Some("hidden (a part starts with '.'): such files are no content");
    }
    None
}

/// Opens `relative` under `dir` only if it is a regular file reached through folders, none
/// of them (nor it) a symbolic link; the file opened is the one that was checked.
fn open_regular(dir: &Path, relative: &str) -> Result<File, Error> {
    let refuse = |what: &str| {
        Error::Backup(format!(
            "{} is {what}: a backup holds only regular files",
            dir.join(relative).display()
        ))
    };
    let mut path = dir.to_path_buf();
    let parts: Vec<&str> = relative.split('/').collect();
    for (i, part) in parts.iter().enumerate() {
        path.push(part);
        let meta = fs::symlink_metadata(&path).map_err(|e| failed("cannot read", &path, e))?;
        let last = i + 1 == parts.len();
        if meta.file_type().is_symlink() {
            return Err(refuse("a symbolic link or under one"));
        }
        if (last && !meta.is_file()) || (!last && !meta.is_dir()) {
            return Err(refuse("not a regular file"));
        }
    }
    let expected = fs::symlink_metadata(&path).map_err(|e| failed("cannot read", &path, e))?;
    let file = File::open(&path).map_err(|e| failed("cannot read", &path, e))?;
    let opened = file
        .metadata()
        .map_err(|e| failed("cannot read", &path, e))?;
    if (opened.dev(), opened.ino()) != (expected.dev(), expected.ino()) || !opened.is_file() {
        return Err(refuse("changing while it is read"));
    }
    Ok(file)
}

/// Size and SHA-256 of what `from` holds, copied into `to` on the way if given.
fn digest(mut from: File, mut to: Option<&mut File>, path: &Path) -> Result<(u64, String), Error> {
    let mut hasher = Sha256::new();
    let mut buffer = vec![0_u8; 64 * 1024];
    let mut total = 0_u64;
    loop {
        let n = from
            .read(&mut buffer)
            .map_err(|e| failed("cannot read", path, e))?;
        if n == 0 {
            break;
        }
        hasher.update(&buffer[..n]);
        total += n as u64;
        if let Some(to) = to.as_deref_mut() {
            to.write_all(&buffer[..n])
                .map_err(|e| failed("cannot write a copy of", path, e))?;
        }
    }
    Ok((total, content::encoding::hex(&hasher.finalize())))
}

/// Checks one file of the backup against its manifest entry, copying it to `to` (a new
/// private file) if given.
fn check_entry(dir: &Path, entry: &FileEntry, to: Option<&Path>) -> Result<(), Error> {
    let file = open_regular(dir, &entry.path)?;
    let source = dir.join(&entry.path);
    let mut copy = match to {
        Some(to) => Some(
            fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o600)
                .open(to)
                .map_err(|e| failed("cannot create", to, e))?,
        ),
        None => None,
    };
    let (bytes, sha256) = digest(file, copy.as_mut(), &source)?;
    if let Some(copy) = &copy {
        copy.sync_all()
            .map_err(|e| failed("cannot write", &source, e))?;
    }
    if (bytes, sha256.as_str()) != (entry.bytes, entry.sha256.as_str()) {
        return Err(Error::Backup(format!(
            "{} differs from the manifest (size or SHA-256): the backup is damaged",
            source.display()
        )));
    }
    Ok(())
}

/// Reads `dir`'s manifest and checks every file it lists; nothing is changed.
pub fn verify(dir: &Path) -> Result<Manifest, Error> {
    let path = dir.join(MANIFEST_FILE);
    let text = fs::read(&path).map_err(|e| {
        failed(
            "no manifest (an unfinished backup, or not a backup)",
            &path,
            e,
        )
    })?;
    let manifest: Manifest =
        serde_json::from_slice(&text).map_err(|e| failed("unreadable manifest", &path, e))?;
    if manifest.format != FORMAT {
        return Err(Error::Backup(format!(
            "backup format {} is not {FORMAT}",
            manifest.format
        )));
    }
    if manifest.schema_version > db::SCHEMA_VERSION as i64 {
        return Err(Error::Backup(format!(
            "the database has schema version {}, newer than this sidecar's {}: restore it with a newer sidecar",
            manifest.schema_version,
            db::SCHEMA_VERSION
        )));
    }
    if !manifest.files.iter().any(|f| f.path == DB_FILE) {
        return Err(Error::Backup("the manifest lists no database".into()));
    }
    for entry in &manifest.files {
        if let Some(problem) = path_problem(&entry.path) {
            return Err(Error::Backup(format!(
                "the manifest names '{}', which is {problem}: nothing was restored",
                entry.path
            )));
        }
        check_entry(dir, entry, None)?;
    }
    Ok(manifest)
}

/// Creates `path` as a folder only its owner may enter, or makes an existing one so.
fn private_folder(path: &Path) -> Result<(), Error> {
    match fs::create_dir(path) {
        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
            return Err(failed("cannot create", path, e));
        }
        _ => {}
    }
    fs::set_permissions(path, std::os::unix::fs::PermissionsExt::from_mode(0o700))
        .map_err(|e| failed("cannot protect", path, e))
}

fn remove_if_present(path: &Path) -> Result<(), Error> {
    match fs::remove_file(path) {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(failed("cannot remove", path, e)),
        _ => Ok(()),
    }
}

/// Restores the backup in `dir` into `config`'s data folder and `content/`, refusing while
/// a server runs there, and replacing nothing unless every file matches the manifest.
pub fn restore(config: &Config, dir: &Path) -> Result<Manifest, Error> {
    let lock = lock_data_dir(&config.data_dir)?;
    restore_locked(config, dir, &lock)
}

/// [`restore`], under the data folder's lock already taken.
pub fn restore_locked(config: &Config, dir: &Path, _lock: &DataLock) -> Result<Manifest, Error> {
    let manifest = verify(dir)?;
    // The database: copied beside the live one, checked, then renamed over it. The old one's
    // WAL must go first: SQLite would replay it into the new file.
    let target = config.data_dir.join(DB_FILE);
    let staged = config.data_dir.join(format!("{DB_FILE}.restoring"));
    remove_if_present(&staged)?;
    let database = manifest
        .files
        .iter()
        .find(|f| f.path == DB_FILE)
        .ok_or_else(|| Error::Backup("the manifest lists no database".into()))?;
    check_entry(dir, database, Some(&staged))?;
    db::private_file(&staged)?;
    db::check_file(&staged)?;
    for suffix in ["-wal", "-shm"] {
        remove_if_present(&PathBuf::from(format!("{}{suffix}", staged.display())))?;
    }
    // Content: assembled beside the live folder, keeping its git history, then swapped.
    fs::create_dir_all(&config.root).map_err(|e| failed("cannot create", &config.root, e))?;
    let content = config.root.join(CONTENT);
    let incoming = config.root.join("content.restoring");
    let outgoing = config.root.join("content.replaced");
    for old in [&incoming, &outgoing] {
        if old.exists() {
            fs::remove_dir_all(old).map_err(|e| failed("cannot remove", old, e))?;
        }
    }
    private_folder(&incoming)?;
    for entry in manifest.files.iter().filter(|f| f.path != DB_FILE) {
        let relative = entry.path.trim_start_matches("content/");
        let to = incoming.join(relative);
        let mut folder = incoming.clone();
        for part in Path::new(relative)
            .parent()
            .into_iter()
            .flat_map(Path::components)
        {
            folder.push(part);
            private_folder(&folder)?;
        }
        check_entry(dir, entry, Some(&to))?;
    }
    // What a backup leaves out stays: `.git`, `.gitignore` and other hidden entries.
    for entry in fs::read_dir(&content).into_iter().flatten().flatten() {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') && !name.ends_with(".saving") {
            fs::rename(entry.path(), incoming.join(&name))
                .map_err(|e| failed("cannot keep", &entry.path(), e))?;
        }
    }
    for entry in walkdir::WalkDir::new(&incoming) {
        let entry = entry.map_err(|e| failed("cannot list", &incoming, e))?;
        own_like(entry.path(), &config.root)?;
    }
    for suffix in ["-wal", "-shm"] {
        remove_if_present(&PathBuf::from(format!("{}{suffix}", target.display())))?;
    }
    own_like(&staged, &config.data_dir)?;
    fs::rename(&staged, &target).map_err(|e| failed("cannot replace", &target, e))?;
    if content.exists() {
        fs::rename(&content, &outgoing).map_err(|e| failed("cannot move aside", &content, e))?;
    }
    fs::rename(&incoming, &content).map_err(|e| failed("cannot replace", &content, e))?;
    if outgoing.exists() {
        fs::remove_dir_all(&outgoing).map_err(|e| failed("cannot remove", &outgoing, e))?;
    }
    db::private_dir(&config.data_dir)?;
    let detail = format!("{} (kopia z {})", dir.display(), manifest.created_at);
    audit_in(&target, Server::BackupRestored, &detail);
    Ok(manifest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_of_one_data_folder_is_refused_until_the_first_ends() {
        let dir = tempfile::tempdir().expect("temp dir");
        let first = lock_data_dir(dir.path()).expect("first");
        let err = lock_data_dir(dir.path()).expect_err("second");
        assert!(
            err.to_string().contains("in use by a running sidecar"),
            "{err}"
        );
        drop(first);
        lock_data_dir(dir.path()).expect("free again");
    }

    #[test]
    fn manifest_paths_are_the_database_and_visible_content_files() {
        assert_eq!(path_problem("site.sqlite3"), None);
        assert_eq!(path_problem("content/blog/a.md"), None);
        for bad in [
            "../etc/passwd",
            "content/../../x",
            "/etc/passwd",
            "var/x",
            "content",
            "content/.git/config",
            "content/.gitattributes",
            "content/blog/.a.md.saving",
            "content/.hooks/x/a.md",
        ] {
            assert!(path_problem(bad).is_some(), "{bad}");
        }
    }
}
