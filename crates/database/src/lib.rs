//! The server's SQLite file: everything that is not content. WAL mode, `synchronous=FULL` so
//! that a committed message survives a crash or power loss, `secure_delete` so that deleted
//! text does not linger in free pages, foreign keys on, and the schema versioned by
//! `user_version` ([`migrations`]). The file, its WAL and its folder are private to the
//! server's user, and the file is never opened through a link.
//!
//! One connection behind one lock, shared: each concern that keeps tables here (the
//! `accounts` crate, the sidecar's messages, revisions and uploads) owns the SQL of its
//! tables and runs it through [`Database::run`]. The schema is versioned in one list, the
//! one order in which the file's tables came to be.
//!
//! It uses rusqlite, and nothing of the other crates.

mod error;
pub mod migrations;

use rusqlite::Connection;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

pub use clock::Clock;
pub use error::{Error, Result};
pub use migrations::SCHEMA_VERSION;
pub use rusqlite;

/// The database: one connection behind one lock, shared by every concern that keeps tables,
/// and the clock whose moments it keeps (the server's, handed down: a test may set it).
#[derive(Clone)]
pub struct Database {
    conn: Arc<Mutex<Connection>>,
    clock: Clock,
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Database")
    }
}

fn io(path: &Path) -> impl FnOnce(std::io::Error) -> Error + '_ {
    move |source| Error::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// Makes `path` readable and writable by its owner only (a link is left alone: changing the
/// mode would change what it points at).
pub fn private_file(path: &Path) -> Result<()> {
    let is_file = std::fs::symlink_metadata(path).is_ok_and(|m| m.is_file());
    if is_file {
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600)).map_err(io(path))?;
    }
    Ok(())
}

/// Creates `dir` (and its parents) and makes it private to its owner.
pub fn private_dir(dir: &Path) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(io(dir))?;
    std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o700)).map_err(io(dir))
}

impl Database {
    /// Opens (or creates) the file at `path`, private, durable, migrated to this build's
    /// schema.
    pub fn open(path: &Path) -> Result<Self> {
        if let Some(parent) = path.parent() {
            private_dir(parent)?;
        }
        let opened = |source| Error::Open {
            path: path.to_path_buf(),
            source,
        };
        // Never through a link: the data folder is the server's own ground.
        let flags = rusqlite::OpenFlags::default() | rusqlite::OpenFlags::SQLITE_OPEN_NOFOLLOW;
        let mut conn = Connection::open_with_flags(path, flags).map_err(opened)?;
        conn.pragma_update(None, "journal_mode", "WAL")?;
        conn.pragma_update(None, "synchronous", "FULL")?;
        conn.pragma_update(None, "secure_delete", "ON")?;
        conn.pragma_update(None, "foreign_keys", "ON")?;
        conn.busy_timeout(Duration::from_secs(5))?;
        migrations::migrate(&mut conn)?;
        for suffix in ["", "-wal", "-shm"] {
            private_file(Path::new(&format!("{}{suffix}", path.display())))?;
        }
        Ok(Self {
            conn: Arc::new(Mutex::new(conn)),
            clock: Clock::system(),
        })
    }

    /// The same database, its moments read from `clock`.
    pub fn with_clock(self, clock: Clock) -> Self {
        Self { clock, ..self }
    }

    /// The clock of the moments kept here.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// Seconds since the Unix epoch by [`Database::clock`]: how every moment is kept.
    pub fn now(&self) -> i64 {
        self.clock.now()
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves SQLite consistent; keep serving.
        self.conn
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Runs `f` on the connection, under the lock: one statement or transaction at a time.
    pub fn run<T>(&self, f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>) -> Result<T> {
        f(&mut self.conn()).map_err(Error::from)
    }

    /// SQLite's `data_version`: changes whenever another connection (another process)
    /// committed to the file.
    pub fn data_version(&self) -> Result<i64> {
        self.run(|c| c.query_row("PRAGMA data_version", [], |r| r.get(0)))
    }
}

/// Copies the database at `source` into a new file `target` with SQLite's online backup
/// API, in one step: one read transaction, so the copy is one consistent moment even while
/// a server writes (WAL lets it go on). Returns the copy's schema version.
pub fn backup_into(source: &Path, target: &Path) -> Result<i64> {
    use rusqlite::backup::{Backup, StepResult};
    let named = |path: &Path| {
        let path = path.to_path_buf();
        move |source| Error::Open { path, source }
    };
    if !source.is_file() {
        return Err(Error::Missing(source.to_path_buf()));
    }
    let src = Connection::open_with_flags(source, rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE)
        .map_err(named(source))?;
    src.busy_timeout(Duration::from_secs(5))?;
    let mut dst = Connection::open(target).map_err(named(target))?;
    {
        let backup = Backup::new(&src, &mut dst)?;
        let deadline = Instant::now() + Duration::from_secs(30);
        loop {
            match backup.step(-1)? {
                StepResult::Done => break,
                StepResult::More | StepResult::Busy | StepResult::Locked
                    if Instant::now() < deadline =>
                {
                    clock::sleep(Duration::from_millis(20));
                }
                _ => return Err(Error::Busy),
            }
        }
    }
    let version = dst.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    drop(dst);
    private_file(target)?;
    Ok(version)
}

/// Checks a database file page by page; returns its schema version.
pub fn check_file(path: &Path) -> Result<i64> {
    let conn = Connection::open_with_flags(path, rusqlite::OpenFlags::SQLITE_OPEN_READ_WRITE)
        .map_err(|source| Error::Open {
            path: path.to_path_buf(),
            source,
        })?;
    let verdict: String = conn.query_row("PRAGMA integrity_check", [], |r| r.get(0))?;
    if verdict != "ok" {
        return Err(Error::Damaged {
            path: path.to_path_buf(),
            verdict,
        });
    }
    Ok(conn.query_row("PRAGMA user_version", [], |r| r.get(0))?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folder_and_files_are_private_and_a_link_is_never_opened() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("data").join("site.sqlite3");
        let db = Database::open(&path).expect("opens");
        db.run(|c| c.execute("INSERT INTO settings (key, value) VALUES ('k', x'00')", []))
            .expect("written");
        let mode = |p: &Path| std::fs::metadata(p).expect("exists").permissions().mode() & 0o777;
        assert_eq!(mode(&dir.path().join("data")), 0o700);
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(&dir.path().join("data/site.sqlite3-wal")), 0o600);
        let link = dir.path().join("link.sqlite3");
        std::os::unix::fs::symlink(&path, &link).expect("link");
        assert!(Database::open(&link).is_err(), "never through a link");
    }

    /// The bundled SQLite is compiled as `.cargo/config.toml` (`LIBSQLITE3_FLAGS`) says: no
    /// query can load an extension, and what the databases never use is not there.
    #[test]
    fn sqlite_is_compiled_without_extensions_or_full_text_search() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = Database::open(&dir.path().join("site.sqlite3")).expect("opens");
        let options: Vec<String> = db
            .run(|c| {
                let mut statement = c.prepare("PRAGMA compile_options")?;
                let rows = statement.query_map([], |row| row.get(0))?;
                rows.collect()
            })
            .expect("read");
        assert!(
            options.iter().any(|o| o == "OMIT_LOAD_EXTENSION"),
            "{options:?}"
        );
        for absent in ["ENABLE_FTS3", "ENABLE_FTS5", "ENABLE_RTREE", "ENABLE_STAT4"] {
            assert!(
                !options.iter().any(|o| o == absent),
                "{absent} in {options:?}"
            );
        }
        let loaded = db.run(|c| c.query_row("SELECT load_extension('/tmp/x.so')", [], |_| Ok(())));
        assert!(
            format!("{loaded:?}").contains("no such function: load_extension"),
            "{loaded:?}"
        );
        assert!(db
            .run(|c| c.execute_batch("CREATE VIRTUAL TABLE t USING fts5(x)"))
            .is_err());
        assert!(db
            .run(|c| c.execute_batch("CREATE TABLE j (v TEXT CHECK (json_valid(v)))"))
            .is_ok());
    }
}
