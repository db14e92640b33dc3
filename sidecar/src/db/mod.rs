//! SQLite: everything that is not content, and all of the sidecar's SQL. WAL mode,
//! `synchronous=FULL` so that a committed message survives a crash or power loss,
//! `secure_delete` so that deleted text does not linger in free pages, and migrations
//! versioned by `user_version`. The database, its WAL and its folder are private to the
//! server's user.
//!
//! The one connection and its lock are here; each concern's tables and queries are a module:
//! `messages` (contact messages, the outbox, form tokens), `sessions` (accounts, sessions,
//! sign-in throttling), `factors` (the second factor, waiting sign-ins, reset codes),
//! `audit` (the audit log), `revisions` (revisions and drafts), `uploads`, `settings`
//! (secrets made once) and `migrations` (the schema).

use rusqlite::Connection;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::{Mutex, MutexGuard};

use crate::error::Error;

mod audit;
mod conflicts;
mod factors;
mod messages;
mod migrations;
mod revisions;
mod sessions;
mod settings;
mod uploads;

pub use audit::AuditEntry;
pub use conflicts::Conflict;
pub use factors::{PasskeyRow, PendingLogin, TotpRow};
pub use messages::{NewMessage, Spam, StoredMessage};
pub use migrations::SCHEMA_VERSION;
pub use revisions::{Action, Deleted, Draft, Revision};
pub use sessions::{LoginCounts, SessionRow};
pub use uploads::Upload;

/// Copies the database at `source` into a new file `target` with SQLite's online backup
/// API, in one step: one read transaction, so the copy is one consistent moment even while
/// a server writes (WAL lets it go on). Returns the copy's schema version.
pub fn backup_into(source: &Path, target: &Path) -> Result<i64, Error> {
    use rusqlite::backup::{Backup, StepResult};
    let named = |e: rusqlite::Error, p: &Path| Error::Database(format!("{}: {e}", p.display()));
    if !source.is_file() {
        return Err(Error::Database(format!(
            "{}: no database",
            source.display()
        )));
    }
    let src = Connection::open_with_flags(source, rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE)
        .map_err(|e| named(e, source))?;
    src.busy_timeout(std::time::Duration::from_secs(5))
        .map_err(db_error)?;
    let mut dst = Connection::open(target).map_err(|e| named(e, target))?;
    {
        let backup = Backup::new(&src, &mut dst).map_err(db_error)?;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
        loop {
            match backup.step(-1).map_err(db_error)? {
                StepResult::Done => break,
                StepResult::More | StepResult::Busy | StepResult::Locked
                    if std::time::Instant::now() < deadline =>
                {
                    std::thread::sleep(std::time::Duration::from_millis(20));
                }
                _ => return Err(Error::Database("the database stayed busy for 30 s".into())),
            }
        }
    }
    let version = dst
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(db_error)?;
    drop(dst);
    private_file(target)?;
    Ok(version)
}

/// Checks a database file page by page; returns its schema version.
pub fn check_file(path: &Path) -> Result<i64, Error> {
    let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE)
        .map_err(|e| Error::Database(format!("{}: {e}", path.display())))?;
    let verdict: String = conn
        .query_row("PRAGMA integrity_check", [], |r| r.get(0))
        .map_err(db_error)?;
    if verdict != "ok" {
        return Err(Error::Database(format!(
            "{}: integrity check: {verdict}",
            path.display()
        )));
    }
    conn.query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(db_error)
}

/// The database: one connection behind one lock, shared by every request.
pub struct Db {
    conn: Mutex<Connection>,
}

fn db_error(e: rusqlite::Error) -> Error {
    Error::Database(e.to_string())
}

/// Makes `path` readable and writable by its owner only (a link is left alone: changing the
/// mode would change what it points at).
pub fn private_file(path: &Path) -> Result<(), Error> {
    let is_file = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file());
    if is_file {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
            .map_err(|e| Error::Database(format!("{}: {e}", path.display())))?;
    }
    Ok(())
}

/// Creates `dir` (and its parents) and makes it private to its owner.
pub fn private_dir(dir: &Path) -> Result<(), Error> {
    std::fs::create_dir_all(dir).map_err(|e| Error::Database(format!("{}: {e}", dir.display())))?;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700))
        .map_err(|e| Error::Database(format!("{}: {e}", dir.display())))
}

impl Db {
    pub fn open(path: &Path) -> Result<Self, Error> {
        if let Some(parent) = path.parent() {
            private_dir(parent)?;
        }
        // Never through a link: the data folder is the server's own ground.
        let flags = rusqlite::OpenFlags::default() | rusqlite::OpenFlags::SQLITE_OPEN_NOFOLLOW;
        let mut conn = Connection::open_with_flags(path, flags)
            .map_err(|e| Error::Database(format!("{}: {e}", path.display())))?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(db_error)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(db_error)?;
        conn.pragma_update(None, "secure_delete", "ON")
            .map_err(db_error)?;
        conn.pragma_update(None, "foreign_keys", "ON")
            .map_err(db_error)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(db_error)?;
        migrations::migrate(&mut conn)?;
        for suffix in ["", "-wal", "-shm"] {
            private_file(Path::new(&format!("{}{suffix}", path.display())))?;
        }
        Ok(Self {
            conn: Mutex::new(conn),
        })
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves SQLite consistent; keep serving.
        self.conn
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    fn run<T>(&self, f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>) -> Result<T, Error> {
        f(&mut self.conn()).map_err(db_error)
    }
}

#[cfg(test)]
pub(crate) mod testing {
    use super::*;

    pub(crate) fn message() -> NewMessage {
        NewMessage {
            name: "Anna".into(),
            email: "anna@example.pl".into(),
            phone: "501234567".into(),
            country_code: "+48".into(),
            full_phone: "+48501234567".into(),
            message: "Dzień dobry".into(),
            spam: None,
        }
    }

    pub(crate) fn db(dir: &tempfile::TempDir) -> Db {
        Db::open(&dir.path().join("data").join("site.sqlite3")).expect("db opens")
    }
}

#[cfg(test)]
mod tests {
    use super::testing::{db, message};
    use std::os::unix::fs::PermissionsExt;
    use std::path::Path;

    #[test]
    fn the_folder_and_files_are_private() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = db(&dir);
        db.insert_message(&message(), 100).expect("stored");
        let mode = |p: &Path| std::fs::metadata(p).expect("exists").permissions().mode() & 0o777;
        assert_eq!(mode(&dir.path().join("data")), 0o700);
        assert_eq!(mode(&dir.path().join("data/site.sqlite3")), 0o600);
        assert_eq!(mode(&dir.path().join("data/site.sqlite3-wal")), 0o600);
    }
}
