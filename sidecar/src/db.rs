//! SQLite: what is not content. WAL mode, `synchronous=FULL` so that a committed message
//! survives a crash or power loss, and migrations versioned by `user_version`.

use rusqlite::{params, Connection, OptionalExtension};
use std::path::Path;
use std::sync::{Mutex, MutexGuard};

use crate::error::Error;

/// Each entry moves the schema one version up; never edit one that has shipped.
const MIGRATIONS: &[&str] = &[
    "CREATE TABLE settings (key TEXT PRIMARY KEY, value BLOB NOT NULL);
     CREATE TABLE messages (
       id INTEGER PRIMARY KEY,
       received_at INTEGER NOT NULL,
       name TEXT NOT NULL,
       email TEXT NOT NULL,
       phone TEXT NOT NULL,
       country_code TEXT NOT NULL,
       full_phone TEXT NOT NULL,
       message TEXT NOT NULL,
       status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'delivered', 'failed')),
       attempts INTEGER NOT NULL DEFAULT 0,
       next_attempt_at INTEGER NOT NULL,
       last_error TEXT,
       delivered_at INTEGER
     );
     CREATE INDEX messages_due ON messages (status, next_attempt_at);",
    "CREATE TABLE accounts (
       id INTEGER PRIMARY KEY,
       email TEXT NOT NULL UNIQUE COLLATE NOCASE,
       password_hash TEXT NOT NULL,
       created_at INTEGER NOT NULL,
       updated_at INTEGER NOT NULL
     );
     CREATE TABLE sessions (
       token_hash TEXT PRIMARY KEY,
       account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
       created_at INTEGER NOT NULL,
       last_seen_at INTEGER NOT NULL
     );
     CREATE TABLE login_failures (
       id INTEGER PRIMARY KEY,
       ip TEXT NOT NULL,
       email TEXT NOT NULL COLLATE NOCASE,
       at INTEGER NOT NULL
     );
     CREATE INDEX login_failures_ip ON login_failures (ip, at);
     CREATE INDEX login_failures_email ON login_failures (email, at);
     CREATE TABLE revisions (
       id INTEGER PRIMARY KEY,
       page TEXT NOT NULL,
       saved_at INTEGER NOT NULL,
       author TEXT NOT NULL,
       previous TEXT NOT NULL,
       saved TEXT NOT NULL
     );
     CREATE INDEX revisions_page ON revisions (page, id);",
];

pub struct Db {
    conn: Mutex<Connection>,
}

/// A contact message as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StoredMessage {
    pub id: i64,
    pub received_at: i64,
    pub name: String,
    pub email: String,
    pub phone: String,
    pub country_code: String,
    pub full_phone: String,
    pub message: String,
    pub attempts: i64,
}

/// A message to store, already validated.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewMessage {
    pub name: String,
    pub email: String,
    pub phone: String,
    pub country_code: String,
    pub full_phone: String,
    pub message: String,
}

fn db_error(e: rusqlite::Error) -> Error {
    Error::Database(e.to_string())
}

fn migrate(conn: &mut Connection) -> Result<(), Error> {
    let version: usize = conn
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .map_err(db_error)?;
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(version) {
        let tx = conn.transaction().map_err(db_error)?;
        tx.execute_batch(sql).map_err(db_error)?;
        tx.pragma_update(None, "user_version", i + 1)
            .map_err(db_error)?;
        tx.commit().map_err(db_error)?;
        tracing::info!(version = i + 1, "database migrated");
    }
    Ok(())
}

impl Db {
    pub fn open(path: &Path) -> Result<Self, Error> {
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| Error::Database(format!("{}: {e}", parent.display())))?;
        }
        let mut conn = Connection::open(path)
            .map_err(|e| Error::Database(format!("{}: {e}", path.display())))?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .map_err(db_error)?;
        conn.pragma_update(None, "synchronous", "FULL")
            .map_err(db_error)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(db_error)?;
        migrate(&mut conn)?;
        Ok(Self {
            conn: Mutex::new(conn),
        })
    }

    /// Runs `f` on the connection, for modules that keep their own SQL.
    pub fn with<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>,
    ) -> Result<T, Error> {
        f(&mut self.conn()).map_err(db_error)
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves SQLite consistent; keep serving.
        self.conn
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// A setting, created by `make` the first time it is asked for.
    pub fn setting_or(&self, key: &str, make: impl FnOnce() -> Vec<u8>) -> Result<Vec<u8>, Error> {
        let conn = self.conn();
        let found: Option<Vec<u8>> = conn
            .query_row("SELECT value FROM settings WHERE key = ?1", [key], |r| {
                r.get(0)
            })
            .optional()
            .map_err(db_error)?;
        if let Some(value) = found {
            return Ok(value);
        }
        let value = make();
        conn.execute(
            "INSERT INTO settings (key, value) VALUES (?1, ?2)",
            params![key, value],
        )
        .map_err(db_error)?;
        Ok(value)
    }

    /// Stores a message; when this returns, the message is on disk.
    pub fn insert_message(&self, m: &NewMessage, now: i64) -> Result<i64, Error> {
        let conn = self.conn();
        conn.execute(
            "INSERT INTO messages (received_at, name, email, phone, country_code, full_phone, message, next_attempt_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?1)",
            params![now, m.name, m.email, m.phone, m.country_code, m.full_phone, m.message],
        )
        .map_err(db_error)?;
        Ok(conn.last_insert_rowid())
    }

    pub fn due_messages(&self, now: i64, limit: usize) -> Result<Vec<StoredMessage>, Error> {
        let conn = self.conn();
        let mut stmt = conn
            .prepare(
                "SELECT id, received_at, name, email, phone, country_code, full_phone, message, attempts
                 FROM messages WHERE status = 'pending' AND next_attempt_at <= ?1
                 ORDER BY next_attempt_at, id LIMIT ?2",
            )
            .map_err(db_error)?;
        let rows = stmt
            .query_map(params![now, limit as i64], |r| {
                Ok(StoredMessage {
                    id: r.get(0)?,
                    received_at: r.get(1)?,
                    name: r.get(2)?,
                    email: r.get(3)?,
                    phone: r.get(4)?,
                    country_code: r.get(5)?,
                    full_phone: r.get(6)?,
                    message: r.get(7)?,
                    attempts: r.get(8)?,
                })
            })
            .map_err(db_error)?;
        rows.collect::<Result<_, _>>().map_err(db_error)
    }

    pub fn mark_delivered(&self, id: i64, now: i64) -> Result<(), Error> {
        self.conn()
            .execute(
                "UPDATE messages SET status = 'delivered', delivered_at = ?2, attempts = attempts + 1, last_error = NULL WHERE id = ?1",
                params![id, now],
            )
            .map(|_| ())
            .map_err(db_error)
    }

    /// Records a failed attempt: retried at `next_attempt_at`, or given up as failed.
    pub fn mark_attempt_failed(
        &self,
        id: i64,
        error: &str,
        next_attempt_at: Option<i64>,
    ) -> Result<(), Error> {
        let conn = self.conn();
        let result = match next_attempt_at {
            Some(at) => conn.execute(
                "UPDATE messages SET attempts = attempts + 1, last_error = ?2, next_attempt_at = ?3 WHERE id = ?1",
                params![id, error, at],
            ),
            None => conn.execute(
                "UPDATE messages SET attempts = attempts + 1, last_error = ?2, status = 'failed' WHERE id = ?1",
                params![id, error],
            ),
        };
        result.map(|_| ()).map_err(db_error)
    }

    /// Deletes delivered messages older than `before`: they may hold health data.
    pub fn delete_delivered_before(&self, before: i64) -> Result<usize, Error> {
        self.conn()
            .execute(
                "DELETE FROM messages WHERE status = 'delivered' AND delivered_at < ?1",
                [before],
            )
            .map_err(db_error)
    }

    /// Number of messages in each status, for tests and the benchmark.
    pub fn count(&self, status: &str) -> Result<i64, Error> {
        self.conn()
            .query_row(
                "SELECT COUNT(*) FROM messages WHERE status = ?1",
                [status],
                |r| r.get(0),
            )
            .map_err(db_error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message() -> NewMessage {
        NewMessage {
            name: "Anna".into(),
            email: "anna@example.pl".into(),
            phone: "501234567".into(),
            country_code: "+48".into(),
            full_phone: "+48501234567".into(),
            message: "Dzień dobry".into(),
        }
    }

    #[test]
    fn migrations_run_once_and_survive_reopening() {
        let dir = tempfile::tempdir().expect("test setup");
        let path = dir.path().join("site.sqlite3");
        let id = Db::open(&path)
            .expect("test setup")
            .insert_message(&message(), 100)
            .expect("test setup");
        let db = Db::open(&path).expect("test setup");
        assert_eq!(db.due_messages(100, 10).expect("test setup")[0].id, id);
    }

    #[test]
    fn a_message_moves_from_pending_to_delivered_to_deleted() {
        let dir = tempfile::tempdir().expect("test setup");
        let db = Db::open(&dir.path().join("db")).expect("test setup");
        let id = db.insert_message(&message(), 100).expect("test setup");
        db.mark_attempt_failed(id, "timeout", Some(200))
            .expect("test setup");
        assert!(
            db.due_messages(150, 10).expect("test setup").is_empty(),
            "not due before its retry time"
        );
        assert_eq!(db.due_messages(200, 10).expect("test setup")[0].attempts, 1);
        db.mark_delivered(id, 300).expect("test setup");
        assert_eq!(db.count("delivered").expect("test setup"), 1);
        assert_eq!(db.delete_delivered_before(301).expect("test setup"), 1);
    }

    #[test]
    fn a_message_given_up_is_failed_not_deleted() {
        let dir = tempfile::tempdir().expect("test setup");
        let db = Db::open(&dir.path().join("db")).expect("test setup");
        let id = db.insert_message(&message(), 100).expect("test setup");
        db.mark_attempt_failed(id, "refused", None)
            .expect("test setup");
        assert_eq!(db.count("failed").expect("test setup"), 1);
        assert_eq!(db.delete_delivered_before(i64::MAX).expect("test setup"), 0);
    }

    #[test]
    fn a_setting_is_made_once() {
        let dir = tempfile::tempdir().expect("test setup");
        let db = Db::open(&dir.path().join("db")).expect("test setup");
        let first = db.setting_or("k", || vec![1, 2]).expect("test setup");
        let second = db.setting_or("k", || vec![9]).expect("test setup");
        assert_eq!(first, second);
    }
}
