//! The schema of the whole file, versioned by `user_version`: each migration runs once, in
//! order. The tables of every concern are here, in the order they came to be; the SQL that
//! reads and writes them lives with each concern.

use rusqlite::Connection;

use crate::error::Result;

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
    // Sign-in like a bank's: a session says where it was made, an account may have a TOTP
    // second factor with single-use recovery codes, a password step waits for the second
    // factor, passkeys sign in on their own (WebAuthn), a forgotten password is reset with a
    // code sent by e-mail, and an audit log
    // records who did what to the inbox and the account (never a message's text).
    "ALTER TABLE sessions ADD COLUMN client TEXT NOT NULL DEFAULT '';
     ALTER TABLE sessions ADD COLUMN agent TEXT NOT NULL DEFAULT '';
     CREATE TABLE totp (
       account_id INTEGER PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
       secret BLOB NOT NULL,
       confirmed_at INTEGER,
       last_step INTEGER NOT NULL DEFAULT 0
     );
     CREATE TABLE recovery_codes (
       id INTEGER PRIMARY KEY,
       account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
       code_hash TEXT NOT NULL,
       used_at INTEGER
     );
     CREATE TABLE pending_logins (
       token_hash TEXT PRIMARY KEY,
       account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
       password_hash TEXT NOT NULL,
       created_at INTEGER NOT NULL
     );
     CREATE TABLE reset_codes (
       account_id INTEGER PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
       code_hash TEXT NOT NULL,
       created_at INTEGER NOT NULL,
       attempts INTEGER NOT NULL DEFAULT 0
     );
     CREATE TABLE audit (
       id INTEGER PRIMARY KEY,
       at INTEGER NOT NULL,
       event TEXT NOT NULL,
       actor TEXT NOT NULL,
       client TEXT NOT NULL,
       detail TEXT NOT NULL DEFAULT ''
     );
     CREATE INDEX audit_at ON audit (at);
     CREATE INDEX audit_event ON audit (event, at);
     CREATE TABLE passkeys (
       id INTEGER PRIMARY KEY,
       account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
       name TEXT NOT NULL,
       credential_id TEXT NOT NULL UNIQUE,
       passkey TEXT NOT NULL,
       created_at INTEGER NOT NULL,
       last_used_at INTEGER
     );",
    "CREATE TABLE git_conflicts (
       doc_id TEXT PRIMARY KEY,
       file TEXT NOT NULL,
       commit_id TEXT NOT NULL,
       author TEXT NOT NULL,
       editor_text TEXT NOT NULL,
       panel_text TEXT NOT NULL,
       at INTEGER NOT NULL
     );",
    "ALTER TABLE pending_logins ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
     CREATE TABLE code_failures (
       id INTEGER PRIMARY KEY,
       account_id INTEGER NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
       at INTEGER NOT NULL,
       kind TEXT NOT NULL
     );
     CREATE INDEX code_failures_account ON code_failures (account_id, at);",
    // What a revision changed, in the history's words ('Terapia indywidualna 190 → 200 zł').
    "ALTER TABLE revisions ADD COLUMN summary TEXT;",
    // The site as a git remote (`GIT_HOSTED`): editors push with access tokens made in the
    // panel, kept only as their SHA-256 (random 32 bytes: no slow hash is needed).
    "CREATE TABLE git_tokens (
       id INTEGER PRIMARY KEY,
       name TEXT NOT NULL,
       token_hash TEXT NOT NULL UNIQUE,
       created_at INTEGER NOT NULL,
       last_used_at INTEGER
     );",
    // The site's own statistics (issue 47): aggregates only, counts per Warsaw day, event,
    // route, referrer host, device class and label, the strings kept once in `stat_names`.
    // No address, user agent or identifier of a visitor has a column here.
    "CREATE TABLE stat_names (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
     CREATE TABLE stat_counts (
       day INTEGER NOT NULL,
       event INTEGER NOT NULL,
       route INTEGER NOT NULL REFERENCES stat_names (id),
       source INTEGER NOT NULL REFERENCES stat_names (id),
       device INTEGER NOT NULL,
       label INTEGER NOT NULL REFERENCES stat_names (id),
       count INTEGER NOT NULL,
       PRIMARY KEY (day, event, route, source, device, label)
     ) WITHOUT ROWID;",
];

/// The schema version this build migrates to.
pub const SCHEMA_VERSION: usize = MIGRATIONS.len();

pub(super) fn migrate(conn: &mut Connection) -> Result<()> {
    let version: i64 = conn.query_row("PRAGMA user_version", [], |r| r.get(0))?;
    let done = usize::try_from(version)
        .map_err(|_| rusqlite::Error::IntegralValueOutOfRange(0, version))?;
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(done) {
        let tx = conn.transaction()?;
        tx.execute_batch(sql)?;
        tx.pragma_update(
            None,
            "user_version",
            i64::try_from(i + 1).unwrap_or(i64::MAX),
        )?;
        tx.commit()?;
        tracing::info!(version = i + 1, "database migrated");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::Database;

    #[test]
    fn migrations_run_once_and_survive_reopening() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("site.sqlite3");
        let version = |db: &Database| {
            let v = db.run(|c| c.query_row("PRAGMA user_version", [], |r| r.get::<_, i64>(0)));
            usize::try_from(v.expect("version")).expect("not negative")
        };
        let first = Database::open(&path).expect("opens");
        first
            .run(|c| c.execute("INSERT INTO settings (key, value) VALUES ('k', x'01')", []))
            .expect("written");
        assert_eq!(version(&first), super::SCHEMA_VERSION);
        drop(first);
        let again = Database::open(&path).expect("opens again");
        assert_eq!(version(&again), super::SCHEMA_VERSION);
        let kept: i64 = again
            .run(|c| c.query_row("SELECT COUNT(*) FROM settings", [], |r| r.get(0)))
            .expect("counted");
        assert_eq!(kept, 1);
    }
}
