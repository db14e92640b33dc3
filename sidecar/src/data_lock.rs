//! The data folder's lock: a running server holds it for as long as it lives (an exclusive
//! `flock`, released by the kernel even if the server crashes), so a restore never replaces
//! the database under a server, and no server starts during one (see [`crate::backup`]).

use std::fs::{self, File};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::Path;

use crate::db;
use crate::error::Error;

pub const LOCK_FILE: &str = "sidecar.lock";

fn failed(what: impl std::fmt::Display, path: &Path, e: impl std::fmt::Display) -> Error {
    Error::Backup(format!("{what} {}: {e}", path.display()))
}

/// The data folder's lock, held while this value lives.
#[derive(Debug)]
pub struct DataLock {
    _file: File,
}

/// Takes the exclusive lock of `data_dir` (creating the private folder), or says who holds it.
pub fn lock_data_dir(data_dir: &Path) -> Result<DataLock, Error> {
    db::private_dir(data_dir)?;
    let path = data_dir.join(LOCK_FILE);
    let file = try_lock(&path)?;
    // Made by a restore run as root, it must stay openable by the service's user.
    let _ = own_like(&path, data_dir);
    let file = file.ok_or_else(|| {
        Error::Backup(format!(
            "{} is in use by a running sidecar (or a restore): stop it first",
            data_dir.display()
        ))
    })?;
    Ok(DataLock { _file: file })
}

/// Opens the lock file `path` (0600, made when missing) and takes its exclusive lock, held
/// while the file is open: `None` when another process holds it.
pub fn try_lock(path: &Path) -> Result<Option<File>, Error> {
    let file = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(0o600)
        .open(path)
        .map_err(|e| failed("cannot open", path, e))?;
    match file.try_lock() {
        Ok(()) => Ok(Some(file)),
        Err(fs::TryLockError::WouldBlock) => Ok(None),
        Err(fs::TryLockError::Error(e)) => Err(failed("cannot lock", path, e)),
    }
}

/// Gives `path` the owner of `like`, when they differ (a restore run as root).
pub(crate) fn own_like(path: &Path, like: &Path) -> Result<(), Error> {
    let want = fs::metadata(like).map_err(|e| failed("cannot read", like, e))?;
    let have = fs::symlink_metadata(path).map_err(|e| failed("cannot read", path, e))?;
    if (have.uid(), have.gid()) != (want.uid(), want.gid()) {
        std::os::unix::fs::lchown(path, Some(want.uid()), Some(want.gid()))
            .map_err(|e| failed("cannot give the folder's owner to", path, e))?;
    }
    Ok(())
}
