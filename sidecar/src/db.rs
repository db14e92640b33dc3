//! SQLite: everything that is not content, and all of the sidecar's SQL. WAL mode,
//! `synchronous=FULL` so that a committed message survives a crash or power loss,
//! `secure_delete` so that deleted text does not linger in free pages, and migrations
//! versioned by `user_version`. The database, its WAL and its folder are private to the
//! server's user.

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;
use std::os::unix::fs::PermissionsExt;
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
    // A document is named by its id (`blog/terapia-cbt`) everywhere.
    "ALTER TABLE revisions RENAME COLUMN page TO doc_id;",
    // Every message is kept, with the spam check's verdict; a held one is not e-mailed until
    // released. Login failures are keyed by client and pruned by time; form tokens are
    // single-use.
    "ALTER TABLE messages ADD COLUMN spam TEXT CHECK (spam IN ('honeypot', 'too_fast', 'bad_token'));
     ALTER TABLE messages ADD COLUMN held INTEGER NOT NULL DEFAULT 0;
     CREATE INDEX messages_email ON messages (email COLLATE NOCASE);
     CREATE INDEX login_failures_at ON login_failures (at);
     CREATE TABLE used_tokens (nonce TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);",
    // The panel creates and deletes articles and edits the data files: each revision says
    // what it did. A draft is the unsaved state of one document, shared by every device the
    // administrator uses; an uploaded image keeps its alternative text.
    "ALTER TABLE revisions ADD COLUMN action TEXT NOT NULL DEFAULT 'save'
       CHECK (action IN ('save', 'create', 'delete', 'restore'));
     CREATE TABLE drafts (
       doc_id TEXT PRIMARY KEY,
       author TEXT NOT NULL,
       saved_at INTEGER NOT NULL,
       version TEXT NOT NULL,
       body TEXT NOT NULL
     );
     CREATE TABLE images (
       file TEXT PRIMARY KEY,
       alt TEXT NOT NULL,
       author TEXT NOT NULL,
       uploaded_at INTEGER NOT NULL,
       bytes INTEGER NOT NULL
     );",
];

/// The schema version this build of the sidecar migrates to.
pub const SCHEMA_VERSION: usize = MIGRATIONS.len();

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

/// What a revision did to its document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Action {
    Save,
    Create,
    /// The file was removed; the revision keeps the text it had.
    Delete,
    /// A deleted file was made again from its last text.
    Restore,
}

impl Action {
    fn as_str(self) -> &'static str {
        match self {
            Action::Save => "save",
            Action::Create => "create",
            Action::Delete => "delete",
            Action::Restore => "restore",
        }
    }

    fn parse(text: &str) -> Action {
        match text {
            "create" => Action::Create,
            "delete" => Action::Delete,
            "restore" => Action::Restore,
            _ => Action::Save,
        }
    }
}

/// A document deleted from the panel, restorable from its last revision.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Deleted {
    pub doc_id: String,
    pub revision: i64,
    pub deleted_at: i64,
    pub author: String,
    /// The text the file had.
    #[serde(skip)]
    pub text: String,
}

/// The unsaved state of a document, kept on the server until saved or discarded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Draft {
    pub doc_id: String,
    pub author: String,
    pub saved_at: i64,
    /// The version of the file the draft was made from.
    pub version: String,
    /// What the panel sent (sections and settings), as JSON.
    pub body: serde_json::Value,
}

/// An image uploaded from the panel.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Upload {
    pub file: String,
    pub alt: String,
    pub author: String,
    pub uploaded_at: i64,
    pub bytes: i64,
}

/// Why a message is suspected of being spam.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Spam {
    /// The hidden field people never see was filled: kept, not e-mailed.
    Honeypot,
    /// Sent sooner after the form was shown than a person types: e-mailed, marked.
    TooFast,
    /// The form's token was missing, forged, expired or used before: e-mailed, marked.
    BadToken,
}

impl Spam {
    fn as_str(self) -> &'static str {
        match self {
            Spam::Honeypot => "honeypot",
            Spam::TooFast => "too_fast",
            Spam::BadToken => "bad_token",
        }
    }

    fn parse(text: &str) -> Option<Spam> {
        match text {
            "honeypot" => Some(Spam::Honeypot),
            "too_fast" => Some(Spam::TooFast),
            "bad_token" => Some(Spam::BadToken),
            _ => None,
        }
    }

    /// The reason in Polish, for the e-mail and the inbox.
    pub fn label(self) -> &'static str {
        match self {
            Spam::Honeypot => "wypełnione ukryte pole (pułapka na boty)",
            Spam::TooFast => "wysłana szybciej, niż człowiek zdąży wypełnić formularz",
            Spam::BadToken => "brak, błąd lub ponowne użycie znacznika formularza",
        }
    }
}

/// A contact message as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StoredMessage {
    pub id: i64,
    pub received_at: i64,
    pub name: String,
    pub email: String,
    pub phone: String,
    pub country_code: String,
    pub full_phone: String,
    pub message: String,
    pub status: String,
    pub attempts: i64,
    pub last_error: Option<String>,
    pub delivered_at: Option<i64>,
    pub spam: Option<Spam>,
    pub held: bool,
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
    pub spam: Option<Spam>,
}

/// Failures of sign-in within the throttle's window: for this account from this client,
/// and from this client for any account, with the time of the last of each.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LoginCounts {
    pub pair: i64,
    pub pair_last: i64,
    pub client: i64,
    pub client_last: i64,
}

/// A stored revision of a document, without its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Revision {
    pub id: i64,
    pub saved_at: i64,
    pub author: String,
    pub action: Action,
}

/// A live session, as kept in memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRow {
    pub token_hash: String,
    pub email: String,
    pub created_at: i64,
    pub last_seen_at: i64,
}

pub struct Db {
    conn: Mutex<Connection>,
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

/// Makes `path` readable and writable by its owner only.
pub fn private_file(path: &Path) -> Result<(), Error> {
    if path.exists() {
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

const MESSAGE_COLUMNS: &str = "id, received_at, name, email, phone, country_code, full_phone, message, status, attempts, last_error, delivered_at, spam, held";

fn message_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<StoredMessage> {
    Ok(StoredMessage {
        id: r.get(0)?,
        received_at: r.get(1)?,
        name: r.get(2)?,
        email: r.get(3)?,
        phone: r.get(4)?,
        country_code: r.get(5)?,
        full_phone: r.get(6)?,
        message: r.get(7)?,
        status: r.get(8)?,
        attempts: r.get(9)?,
        last_error: r.get(10)?,
        delivered_at: r.get(11)?,
        spam: r
            .get::<_, Option<String>>(12)?
            .as_deref()
            .and_then(Spam::parse),
        held: r.get::<_, i64>(13)? != 0,
    })
}

impl Db {
    pub fn open(path: &Path) -> Result<Self, Error> {
        if let Some(parent) = path.parent() {
            private_dir(parent)?;
        }
        let mut conn = Connection::open(path)
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
        migrate(&mut conn)?;
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

    /// A setting, created by `make` the first time it is asked for.
    pub fn setting_or(&self, key: &str, make: impl FnOnce() -> Vec<u8>) -> Result<Vec<u8>, Error> {
        self.run(|c| {
            let found: Option<Vec<u8>> = c
                .query_row("SELECT value FROM settings WHERE key = ?1", [key], |r| {
                    r.get(0)
                })
                .optional()?;
            if let Some(value) = found {
                return Ok(value);
            }
            let value = make();
            c.execute(
                "INSERT INTO settings (key, value) VALUES (?1, ?2)",
                params![key, value],
            )?;
            Ok(value)
        })
    }

    // --- contact messages -------------------------------------------------------------

    /// Stores a message; when this returns, the message is on disk. A honeypot message is
    /// held: kept, but not e-mailed until released.
    pub fn insert_message(&self, m: &NewMessage, now: i64) -> Result<i64, Error> {
        let held = m.spam == Some(Spam::Honeypot);
        self.run(|c| {
            c.execute(
                "INSERT INTO messages (received_at, name, email, phone, country_code, full_phone, message, next_attempt_at, spam, held)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?1, ?8, ?9)",
                params![now, m.name, m.email, m.phone, m.country_code, m.full_phone, m.message, m.spam.map(Spam::as_str), held],
            )?;
            Ok(c.last_insert_rowid())
        })
    }

    /// Messages waiting for delivery whose next attempt is due.
    pub fn due_messages(&self, now: i64, limit: usize) -> Result<Vec<StoredMessage>, Error> {
        self.run(|c| {
            let mut stmt = c.prepare(&format!(
                "SELECT {MESSAGE_COLUMNS} FROM messages
                 WHERE status = 'pending' AND held = 0 AND next_attempt_at <= ?1
                 ORDER BY next_attempt_at, id LIMIT ?2"
            ))?;
            let rows = stmt.query_map(params![now, limit as i64], message_row)?;
            rows.collect()
        })
    }

    pub fn mark_delivered(&self, id: i64, now: i64) -> Result<(), Error> {
        self.run(|c| {
            c.execute(
                "UPDATE messages SET status = 'delivered', delivered_at = ?2, attempts = attempts + 1, last_error = NULL WHERE id = ?1",
                params![id, now],
            )
            .map(|_| ())
        })
    }

    /// Records a failed attempt: retried at `next_attempt_at`, or given up as failed.
    pub fn mark_attempt_failed(
        &self,
        id: i64,
        error: &str,
        next_attempt_at: Option<i64>,
    ) -> Result<(), Error> {
        self.run(|c| {
            match next_attempt_at {
                Some(at) => c.execute(
                    "UPDATE messages SET attempts = attempts + 1, last_error = ?2, next_attempt_at = ?3 WHERE id = ?1",
                    params![id, error, at],
                ),
                None => c.execute(
                    "UPDATE messages SET attempts = attempts + 1, last_error = ?2, status = 'failed' WHERE id = ?1",
                    params![id, error],
                ),
            }
            .map(|_| ())
        })
    }

    /// Deletes what the retention period allows: delivered messages `before` their delivery,
    /// failed and held ones `before` they arrived. They may hold health data.
    pub fn delete_messages_before(&self, before: i64) -> Result<usize, Error> {
        self.run(|c| {
            c.execute(
                "DELETE FROM messages WHERE (status = 'delivered' AND delivered_at < ?1)
                   OR (status = 'failed' AND received_at < ?1)
                   OR (held = 1 AND received_at < ?1)",
                [before],
            )
        })
    }

    /// Number of messages in a delivery state (held ones aside).
    pub fn count(&self, status: &str) -> Result<i64, Error> {
        self.run(|c| {
            c.query_row(
                "SELECT COUNT(*) FROM messages WHERE status = ?1 AND held = 0",
                [status],
                |r| r.get(0),
            )
        })
    }

    /// Messages newest first; only those from `email` when it is given.
    pub fn messages(&self, email: Option<&str>, limit: usize) -> Result<Vec<StoredMessage>, Error> {
        self.run(|c| {
            let mut stmt = c.prepare(&format!(
                "SELECT {MESSAGE_COLUMNS} FROM messages
                 WHERE ?1 IS NULL OR email = ?1 COLLATE NOCASE
                 ORDER BY received_at DESC, id DESC LIMIT ?2"
            ))?;
            let rows = stmt.query_map(params![email, limit as i64], message_row)?;
            rows.collect()
        })
    }

    pub fn message(&self, id: i64) -> Result<Option<StoredMessage>, Error> {
        self.run(|c| {
            c.query_row(
                &format!("SELECT {MESSAGE_COLUMNS} FROM messages WHERE id = ?1"),
                [id],
                message_row,
            )
            .optional()
        })
    }

    /// Sends a failed or held message again: due now, counted from zero attempts.
    pub fn requeue(&self, id: i64, now: i64) -> Result<bool, Error> {
        self.run(|c| {
            c.execute(
                "UPDATE messages SET status = 'pending', held = 0, attempts = 0, last_error = NULL, next_attempt_at = ?2, received_at = CASE WHEN status = 'failed' THEN ?2 ELSE received_at END
                 WHERE id = ?1 AND (status = 'failed' OR held = 1)",
                params![id, now],
            )
            .map(|n| n > 0)
        })
    }

    pub fn delete_message(&self, id: i64) -> Result<bool, Error> {
        self.run(|c| {
            c.execute("DELETE FROM messages WHERE id = ?1", [id])
                .map(|n| n > 0)
        })
    }

    /// Erases every message of one sender (the right to erasure).
    pub fn delete_messages_of(&self, email: &str) -> Result<usize, Error> {
        self.run(|c| {
            c.execute(
                "DELETE FROM messages WHERE email = ?1 COLLATE NOCASE",
                [email],
            )
        })
    }

    /// Records the first use of a form token; `false` if it was used before.
    pub fn use_token(&self, nonce: &str, expires_at: i64, now: i64) -> Result<bool, Error> {
        self.run(|c| {
            c.execute("DELETE FROM used_tokens WHERE expires_at < ?1", [now])?;
            c.execute(
                "INSERT OR IGNORE INTO used_tokens (nonce, expires_at) VALUES (?1, ?2)",
                params![nonce, expires_at],
            )
            .map(|n| n > 0)
        })
    }

    // --- accounts and sessions --------------------------------------------------------

    pub fn account(&self, email: &str) -> Result<Option<(i64, String)>, Error> {
        self.run(|c| {
            c.query_row(
                "SELECT id, password_hash FROM accounts WHERE email = ?1",
                [email],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
        })
    }

    /// Adds an account; `false` if one with this e-mail exists.
    pub fn insert_account(&self, email: &str, hash: &str, now: i64) -> Result<bool, Error> {
        self.run(|c| {
            c.execute(
                "INSERT OR IGNORE INTO accounts (email, password_hash, created_at, updated_at) VALUES (?1, ?2, ?3, ?3)",
                params![email, hash, now],
            )
            .map(|n| n > 0)
        })
    }

    /// Gives an account a new password and signs out its sessions; `false` if there is none.
    pub fn update_password(&self, email: &str, hash: &str, now: i64) -> Result<bool, Error> {
        self.run(|c| {
            let tx = c.transaction()?;
            let changed = tx.execute(
                "UPDATE accounts SET password_hash = ?2, updated_at = ?3 WHERE email = ?1",
                params![email, hash, now],
            )?;
            tx.execute(
                "DELETE FROM sessions WHERE account_id = (SELECT id FROM accounts WHERE email = ?1)",
                [email],
            )?;
            tx.commit()?;
            Ok(changed > 0)
        })
    }

    /// Deletes an account with its sessions; `false` if there is none.
    pub fn delete_account(&self, email: &str) -> Result<bool, Error> {
        self.run(|c| {
            c.execute("DELETE FROM accounts WHERE email = ?1", [email])
                .map(|n| n > 0)
        })
    }

    pub fn insert_session(&self, token_hash: &str, account_id: i64, now: i64) -> Result<(), Error> {
        self.run(|c| {
            c.execute(
                "INSERT INTO sessions (token_hash, account_id, created_at, last_seen_at) VALUES (?1, ?2, ?3, ?3)",
                params![token_hash, account_id, now],
            )
            .map(|_| ())
        })
    }

    pub fn sessions(&self) -> Result<Vec<SessionRow>, Error> {
        self.run(|c| {
            let mut stmt = c.prepare(
                "SELECT s.token_hash, a.email, s.created_at, s.last_seen_at FROM sessions s JOIN accounts a ON a.id = s.account_id",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok(SessionRow {
                    token_hash: r.get(0)?,
                    email: r.get(1)?,
                    created_at: r.get(2)?,
                    last_seen_at: r.get(3)?,
                })
            })?;
            rows.collect()
        })
    }

    pub fn touch_session(&self, token_hash: &str, now: i64) -> Result<(), Error> {
        self.run(|c| {
            c.execute(
                "UPDATE sessions SET last_seen_at = ?2 WHERE token_hash = ?1",
                params![token_hash, now],
            )
            .map(|_| ())
        })
    }

    pub fn delete_session(&self, token_hash: &str) -> Result<(), Error> {
        self.run(|c| {
            c.execute("DELETE FROM sessions WHERE token_hash = ?1", [token_hash])
                .map(|_| ())
        })
    }

    /// Deletes sessions idle since `idle_before` or made before `made_before`.
    pub fn delete_expired_sessions(
        &self,
        idle_before: i64,
        made_before: i64,
    ) -> Result<usize, Error> {
        self.run(|c| {
            c.execute(
                "DELETE FROM sessions WHERE last_seen_at < ?1 OR created_at < ?2",
                params![idle_before, made_before],
            )
        })
    }

    // --- sign-in throttle ---------------------------------------------------------------

    /// Counts the failures of the window and, if `decide` allows another attempt, records it
    /// at once as a failure (cleared again on success): one locked step, so that concurrent
    /// attempts each see the ones before them. Returns the attempt's id, or the seconds to
    /// wait that `decide` gave.
    pub fn reserve_login(
        &self,
        email: &str,
        client: &str,
        now: i64,
        since: i64,
        decide: impl FnOnce(LoginCounts) -> Option<i64>,
    ) -> Result<Result<i64, i64>, Error> {
        self.run(|c| {
            let tx = c.transaction()?;
            tx.execute("DELETE FROM login_failures WHERE at <= ?1", [since])?;
            let (pair, pair_last): (i64, Option<i64>) = tx.query_row(
                "SELECT COUNT(*), MAX(at) FROM login_failures WHERE email = ?1 AND ip = ?2",
                params![email, client],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            let (by_client, client_last): (i64, Option<i64>) = tx.query_row(
                "SELECT COUNT(*), MAX(at) FROM login_failures WHERE ip = ?1",
                [client],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            let counts = LoginCounts {
                pair,
                pair_last: pair_last.unwrap_or(0),
                client: by_client,
                client_last: client_last.unwrap_or(0),
            };
            if let Some(wait) = decide(counts) {
                tx.commit()?;
                return Ok(Err(wait));
            }
            tx.execute(
                "INSERT INTO login_failures (ip, email, at) VALUES (?1, ?2, ?3)",
                params![client, email, now],
            )?;
            let id = tx.last_insert_rowid();
            tx.commit()?;
            Ok(Ok(id))
        })
    }

    /// A successful sign-in clears the failures of that account from that client only.
    pub fn clear_login_failures(&self, email: &str, client: &str) -> Result<(), Error> {
        self.run(|c| {
            c.execute(
                "DELETE FROM login_failures WHERE email = ?1 AND ip = ?2",
                params![email, client],
            )
            .map(|_| ())
        })
    }

    pub fn prune_login_failures(&self, before: i64) -> Result<usize, Error> {
        self.run(|c| c.execute("DELETE FROM login_failures WHERE at <= ?1", [before]))
    }

    /// Number of stored failures, for tests.
    pub fn login_failures(&self) -> Result<i64, Error> {
        self.run(|c| c.query_row("SELECT COUNT(*) FROM login_failures", [], |r| r.get(0)))
    }

    // --- revisions ----------------------------------------------------------------------

    pub fn insert_revision(
        &self,
        doc_id: &str,
        author: &str,
        previous: &str,
        saved: &str,
        now: i64,
    ) -> Result<(), Error> {
        self.run(|c| {
            c.execute(
                "INSERT INTO revisions (doc_id, saved_at, author, previous, saved) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![doc_id, now, author, previous, saved],
            )
            .map(|_| ())
        })
    }

    pub fn revisions(&self, doc_id: &str) -> Result<Vec<Revision>, Error> {
        self.run(|c| {
            let mut stmt = c.prepare(
                "SELECT id, saved_at, author, action FROM revisions WHERE doc_id = ?1 ORDER BY id DESC LIMIT 100",
            )?;
            let rows = stmt.query_map([doc_id], |r| {
                Ok(Revision {
                    id: r.get(0)?,
                    saved_at: r.get(1)?,
                    author: r.get(2)?,
                    action: Action::parse(&r.get::<_, String>(3)?),
                })
            })?;
            rows.collect()
        })
    }

    /// Deletes the revisions saved before `before`, but the `keep` newest of each document
    /// (a deleted article stays restorable from its last one); how many went.
    pub fn prune_revisions(&self, before: i64, keep: usize) -> Result<usize, Error> {
        self.run(|c| {
            c.execute(
                "DELETE FROM revisions WHERE saved_at < ?1 AND id NOT IN (
                   SELECT id FROM (
                     SELECT id, ROW_NUMBER() OVER (PARTITION BY doc_id ORDER BY id DESC) AS newer
                     FROM revisions
                   ) WHERE newer <= ?2
                 )",
                params![before, keep as i64],
            )
        })
    }

    /// Records what `action` did to `doc_id`: the text before and after.
    pub fn insert_revision_as(
        &self,
        doc_id: &str,
        author: &str,
        previous: &str,
        saved: &str,
        now: i64,
        action: Action,
    ) -> Result<(), Error> {
        self.run(|c| {
            c.execute(
                "INSERT INTO revisions (doc_id, saved_at, author, previous, saved, action) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                params![doc_id, now, author, previous, saved, action.as_str()],
            )
            .map(|_| ())
        })
    }

    /// Documents whose last revision deleted them, newest first, with the text they had.
    pub fn deleted(&self) -> Result<Vec<Deleted>, Error> {
        self.run(|c| {
            let mut stmt = c.prepare(
                "SELECT r.doc_id, r.id, r.saved_at, r.author, r.previous FROM revisions r
                 WHERE r.action = 'delete'
                   AND r.id = (SELECT MAX(id) FROM revisions WHERE doc_id = r.doc_id)
                 ORDER BY r.id DESC LIMIT 200",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok(Deleted {
                    doc_id: r.get(0)?,
                    revision: r.get(1)?,
                    deleted_at: r.get(2)?,
                    author: r.get(3)?,
                    text: r.get(4)?,
                })
            })?;
            rows.collect()
        })
    }

    // --- drafts -------------------------------------------------------------------------

    pub fn put_draft(&self, draft: &Draft) -> Result<(), Error> {
        self.run(|c| {
            c.execute(
                "INSERT INTO drafts (doc_id, author, saved_at, version, body) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (doc_id) DO UPDATE SET author = ?2, saved_at = ?3, version = ?4, body = ?5",
                params![draft.doc_id, draft.author, draft.saved_at, draft.version, draft.body.to_string()],
            )
            .map(|_| ())
        })
    }

    pub fn drafts(&self) -> Result<Vec<Draft>, Error> {
        self.run(|c| {
            let mut stmt = c.prepare(
                "SELECT doc_id, author, saved_at, version, body FROM drafts ORDER BY doc_id",
            )?;
            let rows = stmt.query_map([], |r| {
                let body: String = r.get(4)?;
                Ok(Draft {
                    doc_id: r.get(0)?,
                    author: r.get(1)?,
                    saved_at: r.get(2)?,
                    version: r.get(3)?,
                    body: serde_json::from_str(&body).unwrap_or(serde_json::Value::Null),
                })
            })?;
            rows.collect()
        })
    }

    /// Forgets the draft of `doc_id`; whether there was one.
    pub fn delete_draft(&self, doc_id: &str) -> Result<bool, Error> {
        self.run(|c| c.execute("DELETE FROM drafts WHERE doc_id = ?1", [doc_id]))
            .map(|n| n > 0)
    }

    // --- uploaded images ----------------------------------------------------------------

    pub fn put_upload(&self, upload: &Upload) -> Result<(), Error> {
        self.run(|c| {
            c.execute(
                "INSERT INTO images (file, alt, author, uploaded_at, bytes) VALUES (?1, ?2, ?3, ?4, ?5)
                 ON CONFLICT (file) DO UPDATE SET alt = ?2, author = ?3, uploaded_at = ?4, bytes = ?5",
                params![upload.file, upload.alt, upload.author, upload.uploaded_at, upload.bytes],
            )
            .map(|_| ())
        })
    }

    pub fn uploads(&self) -> Result<Vec<Upload>, Error> {
        self.run(|c| {
            let mut stmt = c.prepare(
                "SELECT file, alt, author, uploaded_at, bytes FROM images ORDER BY file",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok(Upload {
                    file: r.get(0)?,
                    alt: r.get(1)?,
                    author: r.get(2)?,
                    uploaded_at: r.get(3)?,
                    bytes: r.get(4)?,
                })
            })?;
            rows.collect()
        })
    }

    /// The text a revision saved (empty for a deletion).
    pub fn revision_text(&self, doc_id: &str, id: i64) -> Result<Option<String>, Error> {
        self.run(|c| {
            c.query_row(
                "SELECT saved FROM revisions WHERE id = ?1 AND doc_id = ?2",
                params![id, doc_id],
                |r| r.get(0),
            )
            .optional()
        })
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
            spam: None,
        }
    }

    fn db(dir: &tempfile::TempDir) -> Db {
        Db::open(&dir.path().join("data").join("site.sqlite3")).expect("db opens")
    }

    #[test]
    fn migrations_run_once_and_survive_reopening() {
        let dir = tempfile::tempdir().expect("temp dir");
        let id = db(&dir).insert_message(&message(), 100).expect("stored");
        assert_eq!(db(&dir).due_messages(100, 10).expect("due")[0].id, id);
    }

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

    #[test]
    fn a_message_moves_from_pending_to_delivered_to_deleted() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = db(&dir);
        let id = db.insert_message(&message(), 100).expect("stored");
        db.mark_attempt_failed(id, "timeout", Some(200))
            .expect("marked");
        assert!(
            db.due_messages(150, 10).expect("due").is_empty(),
            "not due before its retry time"
        );
        assert_eq!(db.due_messages(200, 10).expect("due")[0].attempts, 1);
        db.mark_delivered(id, 300).expect("marked");
        assert_eq!(db.count("delivered").expect("count"), 1);
        assert_eq!(db.delete_messages_before(301).expect("deleted"), 1);
    }

    #[test]
    fn retention_covers_failed_and_held_messages_too() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = db(&dir);
        let failed = db.insert_message(&message(), 100).expect("stored");
        db.mark_attempt_failed(failed, "refused", None)
            .expect("failed");
        let held = NewMessage {
            spam: Some(Spam::Honeypot),
            ..message()
        };
        db.insert_message(&held, 100).expect("held");
        db.insert_message(&message(), 100).expect("pending");
        assert!(
            db.due_messages(100, 10)
                .expect("due")
                .iter()
                .all(|m| !m.held),
            "held ones wait"
        );
        assert_eq!(
            db.delete_messages_before(101).expect("deleted"),
            2,
            "failed and held"
        );
        assert_eq!(
            db.count("pending").expect("count"),
            1,
            "a pending one is still being delivered"
        );
    }

    #[test]
    fn a_held_or_failed_message_can_be_sent_again() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = db(&dir);
        let held = NewMessage {
            spam: Some(Spam::Honeypot),
            ..message()
        };
        let id = db.insert_message(&held, 100).expect("held");
        assert!(db.due_messages(1000, 10).expect("due").is_empty());
        assert!(db.requeue(id, 500).expect("released"));
        assert_eq!(db.due_messages(500, 10).expect("due")[0].id, id);
        assert!(
            !db.requeue(id, 600).expect("not again"),
            "a pending message is not requeued"
        );
    }

    #[test]
    fn a_form_token_is_used_once() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = db(&dir);
        assert!(db.use_token("n1", 200, 100).expect("first"));
        assert!(!db.use_token("n1", 200, 150).expect("again"));
        assert!(db
            .use_token("n1", 400, 300)
            .expect("expired entries are pruned"));
    }

    #[test]
    fn concurrent_reservations_each_see_the_ones_before() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = db(&dir);
        let allow_three = |c: LoginCounts| (c.pair >= 3).then_some(60);
        let results: Vec<_> = (0..5)
            .map(|_| {
                db.reserve_login("a@b.pl", "1.2.3.4", 100, 0, allow_three)
                    .expect("reserved")
            })
            .collect();
        assert_eq!(results.iter().filter(|r| r.is_ok()).count(), 3);
        db.clear_login_failures("a@b.pl", "9.9.9.9")
            .expect("cleared");
        assert_eq!(
            db.login_failures().expect("count"),
            3,
            "another client clears nothing"
        );
    }

    #[test]
    fn old_revisions_go_but_the_newest_of_each_document_stay() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = db(&dir);
        const DAY: i64 = 86_400;
        for day in 0..8 {
            db.insert_revision(
                "pages/cennik",
                "a@b.pl",
                "",
                &format!("cennik {day}"),
                day * DAY,
            )
            .expect("insert");
        }
        db.insert_revision_as("blog/stary", "a@b.pl", "tekst", "", DAY, Action::Delete)
            .expect("insert");
        db.insert_revision("pages/home", "a@b.pl", "", "świeży", 20 * DAY)
            .expect("insert");
        assert_eq!(db.prune_revisions(10 * DAY, 3).expect("prune"), 5);
        let saved = |id: &str| -> Vec<i64> {
            db.revisions(id)
                .expect("list")
                .into_iter()
                .map(|r| r.saved_at / DAY)
                .collect()
        };
        assert_eq!(saved("pages/cennik"), [7, 6, 5], "the three newest stay");
        assert_eq!(
            saved("blog/stary"),
            [1],
            "a deleted article stays restorable"
        );
        assert_eq!(saved("pages/home"), [20]);
        assert_eq!(db.deleted().expect("deleted").len(), 1);
        assert_eq!(db.prune_revisions(10 * DAY, 3).expect("again"), 0);
    }

    #[test]
    fn a_setting_is_made_once() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = db(&dir);
        let first = db.setting_or("k", || vec![1, 2]).expect("made");
        assert_eq!(first, db.setting_or("k", || vec![9]).expect("kept"));
    }
}
