//! Admin sessions: a random token in a cookie, only its hash stored. Sessions are kept in
//! memory (loaded from SQLite at start, written through on sign-in and sign-out), so that
//! checking one is a lookup that needs no database and no waiting: the `Admin` extractor can
//! refuse a request before its body is read. A session ends when idle for too long or, busy
//! or not, when it reaches its absolute lifetime.

use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::sync::Mutex;

use crate::db::Db;
use crate::error::Error;

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
        let session = Live {
            email: email.to_string(),
            created_at: now,
            last_seen_at: now,
            persisted_at: now,
        };
        self.map().insert(token_hash, session);
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
