//! Admin sessions: a random token in a cookie, only its hash stored. Sessions are kept in
//! memory (loaded from SQLite at start, written through on sign-in and sign-out), so that
//! checking one is a lookup that needs no database and no waiting: the `Admin` extractor can
//! refuse a request before its body is read. A session ends when idle for too long or, busy
//! or not, when it reaches its absolute lifetime, and at once when another process deletes
//! it from SQLite (`sidecar set-password`, `delete-account`): the server notices within
//! [`SYNC_EVERY`] and forgets it ([`Sessions::sync`]).

use sha2::{Digest, Sha256};
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::time::Duration;

use super::password::Verified;
use crate::db::Db;
use crate::error::Error;

/// How often the server looks whether another process changed the stored sessions.
pub const SYNC_EVERY: Duration = Duration::from_millis(250);

/// A touch is written to SQLite at most this often, so that a restart keeps live sessions.
const PERSIST_EVERY_SECONDS: i64 = 60;

pub fn token_hash(token: &str) -> String {
    content::encoding::hex(&Sha256::digest(token.as_bytes()))
}

#[derive(Debug, Clone)]
struct Live {
    email: String,
    created_at: i64,
    last_seen_at: i64,
    persisted_at: i64,
}

impl Live {
    fn new(email: &str, now: i64) -> Self {
        Live {
            email: email.to_string(),
            created_at: now,
            last_seen_at: now,
            persisted_at: now,
        }
    }
}

/// What checking a session token found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    /// A live session; `persist` is set when its last use should be written to SQLite.
    Valid {
        email: String,
        persist: Option<String>,
    },
    /// It existed but ended; its hash, to delete it from SQLite too.
    Expired(String),
    Unknown,
}

pub struct Sessions {
    live: Mutex<HashMap<String, Live>>,
    idle_seconds: i64,
    max_seconds: i64,
}

impl Sessions {
    pub fn load(db: &Db, idle_seconds: i64, max_seconds: i64) -> Result<Self, Error> {
        let live = db
            .sessions()?
            .into_iter()
            .map(|row| {
                let session = Live {
                    email: row.email,
                    created_at: row.created_at,
                    last_seen_at: row.last_seen_at,
                    persisted_at: row.last_seen_at,
                };
                (row.token_hash, session)
            })
            .collect();
        Ok(Self {
            live: Mutex::new(live),
            idle_seconds,
            max_seconds,
        })
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Live>> {
        self.live.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Makes a session for an account that is already stored in SQLite.
    pub fn insert(&self, token_hash: String, email: &str, now: i64) {
        self.map().insert(token_hash, Live::new(email, now));
    }

    /// Stores a session for `verified` in SQLite and keeps it, unless its password changed
    /// since it was checked (`false`). Both happen under the lock [`Sessions::sync`] takes,
    /// so a revocation cannot fall between them.
    pub fn create(
        &self,
        db: &Db,
        token_hash: String,
        email: &str,
        verified: &Verified,
        now: i64,
    ) -> Result<bool, Error> {
        let mut map = self.map();
        if !db.insert_session(&token_hash, verified.id, &verified.password_hash, now)? {
            return Ok(false);
        }
        map.insert(token_hash, Live::new(email, now));
        Ok(true)
    }

    /// Forgets the sessions SQLite no longer holds; how many.
    pub fn sync(&self, db: &Db) -> Result<usize, Error> {
        let mut map = self.map();
        let stored: HashSet<String> = db.session_hashes()?.into_iter().collect();
        let before = map.len();
        map.retain(|hash, _| stored.contains(hash));
        Ok(before - map.len())
    }

    pub fn check(&self, token: &str, now: i64) -> Check {
        let hash = token_hash(token);
        let mut map = self.map();
        let Some(session) = map.get_mut(&hash) else {
            return Check::Unknown;
        };
        let idle = now - session.last_seen_at > self.idle_seconds;
        let too_old = now - session.created_at > self.max_seconds;
        if idle || too_old {
            map.remove(&hash);
            return Check::Expired(hash);
        }
        session.last_seen_at = now;
        let persist = (now - session.persisted_at >= PERSIST_EVERY_SECONDS).then(|| {
            session.persisted_at = now;
            hash.clone()
        });
        Check::Valid {
            email: session.email.clone(),
            persist,
        }
    }

    pub fn remove(&self, token_hash: &str) {
        self.map().remove(token_hash);
    }

    /// Forgets every session of an account (after its password changed or it was deleted).
    pub fn remove_account(&self, email: &str) {
        self.map()
            .retain(|_, s| !s.email.eq_ignore_ascii_case(email));
    }

    /// A session last used before the first time, or made before the second, has ended.
    pub fn cutoffs(&self, now: i64) -> (i64, i64) {
        (now - self.idle_seconds, now - self.max_seconds)
    }

    /// Removes the sessions that ended; how many.
    pub fn prune(&self, now: i64) -> usize {
        let mut map = self.map();
        let before = map.len();
        map.retain(|_, s| {
            now - s.last_seen_at <= self.idle_seconds && now - s.created_at <= self.max_seconds
        });
        before - map.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sessions() -> Sessions {
        Sessions {
            live: Mutex::new(HashMap::new()),
            idle_seconds: 600,
            max_seconds: 3600,
        }
    }

    #[test]
    fn a_session_ends_when_idle() {
        let s = sessions();
        s.insert(token_hash("t"), "a@b.pl", 1000);
        assert!(matches!(s.check("t", 1500), Check::Valid { .. }));
        assert!(
            matches!(s.check("t", 2000), Check::Valid { .. }),
            "touched at 1500"
        );
        assert!(matches!(s.check("t", 2601), Check::Expired(_)));
        assert_eq!(s.check("t", 2602), Check::Unknown);
    }

    #[test]
    fn a_busy_session_still_ends_at_its_absolute_lifetime() {
        let s = sessions();
        s.insert(token_hash("t"), "a@b.pl", 0);
        for minute in 1..60 {
            assert!(matches!(s.check("t", minute * 60), Check::Valid { .. }));
        }
        assert!(matches!(s.check("t", 3601), Check::Expired(_)));
    }

    #[test]
    fn sessions_deleted_by_another_process_end_and_a_stale_check_makes_none() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("db");
        let db = Db::open(&path).expect("db");
        super::super::password::add_account(&db, "a@b.pl", "bardzo-dlugie-haslo").expect("added");
        let checked =
            super::super::password::check_credentials(&db, "a@b.pl", "bardzo-dlugie-haslo")
                .expect("checked")
                .expect("right password");
        let s = sessions();
        assert!(s
            .create(&db, token_hash("t"), "a@b.pl", &checked, 10)
            .expect("created"));
        let before = db.data_version().expect("version");
        // Another process: `sidecar set-password`.
        let cli = Db::open(&path).expect("second connection");
        super::super::password::set_password(&cli, "a@b.pl", "zupelnie-nowe-haslo").expect("set");
        assert_ne!(
            db.data_version().expect("version"),
            before,
            "the change is seen"
        );
        assert!(
            matches!(s.check("t", 11), Check::Valid { .. }),
            "not yet synced"
        );
        assert_eq!(s.sync(&db).expect("synced"), 1);
        assert_eq!(s.check("t", 12), Check::Unknown);
        assert!(
            !s.create(&db, token_hash("u"), "a@b.pl", &checked, 13)
                .expect("refused"),
            "a check of the old password makes no session"
        );
        assert_eq!(s.check("u", 14), Check::Unknown);
    }

    #[test]
    fn only_hashes_are_kept_and_touches_are_written_at_most_every_minute() {
        let s = sessions();
        s.insert(token_hash("secret"), "a@b.pl", 0);
        assert!(!s.map().contains_key("secret"));
        assert_eq!(
            s.check("secret", 30),
            Check::Valid {
                email: "a@b.pl".into(),
                persist: None
            }
        );
        assert!(matches!(
            s.check("secret", 61),
            Check::Valid {
                persist: Some(_),
                ..
            }
        ));
    }
}
