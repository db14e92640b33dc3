//! Accounts, their sessions, and the sign-in throttle's failures.

use rusqlite::{params, OptionalExtension};

use super::handle::Store;
use crate::error::Error;

/// Failures of sign-in within the throttle's window: for this account from this client,
/// and from this client for any account, with the time of the last of each.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct LoginCounts {
    pub pair: i64,
    pub pair_last: i64,
    pub client: i64,
    pub client_last: i64,
}

/// A live session, as kept in memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRow {
    pub token_hash: String,
    pub email: String,
    pub created_at: i64,
    pub last_seen_at: i64,
    /// The address it was made from, and the browser's own name for itself.
    pub client: String,
    pub agent: String,
}

impl Store {
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

    /// Stores a session of the account, if its password is still `password_hash` (the one
    /// just checked): `false` when another process changed the password or deleted the
    /// account meanwhile.
    pub fn insert_session(
        &self,
        row: &SessionRow,
        account_id: i64,
        password_hash: &str,
    ) -> Result<bool, Error> {
        self.run(|c| {
            c.execute(
                "INSERT INTO sessions (token_hash, account_id, created_at, last_seen_at, client, agent)
                 SELECT ?1, id, ?3, ?3, ?5, ?6 FROM accounts WHERE id = ?2 AND password_hash = ?4",
                params![
                    row.token_hash,
                    account_id,
                    row.created_at,
                    password_hash,
                    row.client,
                    row.agent
                ],
            )
            .map(|n| n > 0)
        })
    }

    /// Ends every session of the account of `email` but `keep` (none: all of them); how many.
    pub fn delete_sessions_except(&self, email: &str, keep: Option<&str>) -> Result<usize, Error> {
        self.run(|c| {
            c.execute(
                "DELETE FROM sessions WHERE account_id = (SELECT id FROM accounts WHERE email = ?1)
                 AND token_hash IS NOT ?2",
                params![email, keep],
            )
        })
    }

    /// The hashes of every stored session.
    pub fn session_hashes(&self) -> Result<Vec<String>, Error> {
        self.run(|c| {
            let mut stmt = c.prepare("SELECT token_hash FROM sessions")?;
            let rows = stmt.query_map([], |r| r.get(0))?;
            rows.collect()
        })
    }

    pub fn sessions(&self) -> Result<Vec<SessionRow>, Error> {
        self.run(|c| {
            let mut stmt = c.prepare(
                "SELECT s.token_hash, a.email, s.created_at, s.last_seen_at, s.client, s.agent
                 FROM sessions s JOIN accounts a ON a.id = s.account_id",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok(SessionRow {
                    token_hash: r.get(0)?,
                    email: r.get(1)?,
                    created_at: r.get(2)?,
                    last_seen_at: r.get(3)?,
                    client: r.get(4)?,
                    agent: r.get(5)?,
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

    /// The failures of the window from `client`: one entry per account it tried (with the
    /// client's own count in each), or one empty entry. Nothing is recorded.
    pub fn client_failures(&self, client: &str, since: i64) -> Result<Vec<LoginCounts>, Error> {
        self.run(|c| {
            let (by_client, client_last): (i64, Option<i64>) = c.query_row(
                "SELECT COUNT(*), MAX(at) FROM login_failures WHERE ip = ?1 AND at > ?2",
                params![client, since],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )?;
            let counts = |pair: i64, pair_last: i64| LoginCounts {
                pair,
                pair_last,
                client: by_client,
                client_last: client_last.unwrap_or(0),
            };
            let mut stmt = c.prepare(
                "SELECT COUNT(*), MAX(at) FROM login_failures WHERE ip = ?1 AND at > ?2 GROUP BY email",
            )?;
            let mut pairs = stmt
                .query_map(params![client, since], |r| Ok(counts(r.get(0)?, r.get(1)?)))?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            if pairs.is_empty() {
                pairs.push(counts(0, 0));
            }
            Ok(pairs)
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::testing::store as db;

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
}
