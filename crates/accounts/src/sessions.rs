//! Admin sessions: a random token in a cookie, only its hash stored. Sessions are kept in
//! memory (loaded from SQLite at start, written through on sign-in and sign-out), so that
//! checking one is a lookup that needs no database and no waiting: the `Admin` extractor can
//! refuse a request before its body is read. A session ends when idle for too long or, busy
//! or not, when it reaches its absolute lifetime, and at once when another process deletes
//! it from SQLite (`sidecar set-password`, `delete-account`): the server notices within
//! [`SYNC_EVERY`] and forgets it ([`Sessions::sync`]).
//!
//! Idle time is the administrator's own: a request the panel makes by itself (refreshing a
//! status, waiting for a picture's variants) says so, and is checked without counting as
//! use, so an open tab alone never keeps the inbox of health data open. A session ended from
//! another device (or by a change of the password or the second factor) is remembered for a
//! while, so that the browser holding it is told why it was signed out.

use sha2::{Digest, Sha256};
use std::collections::{HashMap, HashSet};
use std::sync::Mutex;
use std::time::Duration;

use crate::error::Error;
use crate::password::Verified;
use crate::store::{SessionRow, Store as Db};

/// How often the server looks whether another process changed the stored sessions.
pub const SYNC_EVERY: Duration = Duration::from_millis(250);

/// A touch is written to SQLite at most this often, so that a restart keeps live sessions.
const PERSIST_EVERY_SECONDS: i64 = 60;
/// Sessions ended elsewhere that are remembered (the oldest forgotten first).
const ENDED_REMEMBERED: usize = 1024;

pub fn token_hash(token: &str) -> String {
    crate::tokens::hex(&Sha256::digest(token.as_bytes()))
}

#[derive(Debug, Clone)]
struct Live {
    email: String,
    created_at: i64,
    last_seen_at: i64,
    persisted_at: i64,
    client: String,
    agent: String,
    /// When the administrator last confirmed who they are in this session (0: not since
    /// sign-in); kept in memory only, so a restart asks again.
    reauth_at: i64,
}

impl Live {
    fn of(row: &SessionRow) -> Self {
        Live {
            email: row.email.clone(),
            created_at: row.created_at,
            last_seen_at: row.last_seen_at,
            persisted_at: row.last_seen_at,
            client: row.client.clone(),
            agent: row.agent.clone(),
            reauth_at: 0,
        }
    }
}

/// A session as the panel lists it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "SessionInfo")]
pub struct Listed {
    /// The start of the token's hash: names the session without giving it away.
    pub id: String,
    pub created_at: i64,
    pub last_seen_at: i64,
    /// The address the session signed in from, as it is (no geolocation).
    pub client: String,
    pub agent: String,
    /// The device in words: 'Safari na iPhonie'.
    pub device: String,
    pub current: bool,
}

/// The first characters of a token's hash that name a session in the panel.
const ID_CHARS: usize = 16;

/// What checking a session token found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Check {
    /// A live session; `persist` is set when its last use should be written to SQLite.
    Valid {
        email: String,
        hash: String,
        reauth_at: i64,
        persist: Option<String>,
    },
    /// It existed but ended; its hash, to delete it from SQLite too.
    Expired(String),
    /// It was ended from another device, or by a change of the password or second factor
    /// made there.
    EndedElsewhere,
    /// It was ended because the account's password was set anew outside the panel (the
    /// server started with a different `ADMIN_PASSWORD`).
    PasswordChanged,
    Unknown,
}

/// Whether a request is the administrator's own action, or one the panel made by itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Use {
    Action,
    Background,
}

/// Why a session ended before its time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ended {
    Elsewhere,
    PasswordChanged,
}

pub struct Sessions {
    live: Mutex<HashMap<String, Live>>,
    /// Sessions ended before their time, by hash: when, and why.
    ended: Mutex<HashMap<String, (i64, Ended)>>,
    idle_seconds: i64,
    max_seconds: i64,
}

impl Sessions {
    pub fn load(db: &Db, idle_seconds: i64, max_seconds: i64) -> Result<Self, Error> {
        let live = db
            .sessions()?
            .into_iter()
            .map(|row| (row.token_hash.clone(), Live::of(&row)))
            .collect();
        Ok(Self {
            live: Mutex::new(live),
            ended: Mutex::new(HashMap::new()),
            idle_seconds,
            max_seconds,
        })
    }

    fn map(&self) -> std::sync::MutexGuard<'_, HashMap<String, Live>> {
        self.live.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Remembers that the sessions `hashes` were ended elsewhere at `now`.
    fn remember_ended(&self, hashes: impl IntoIterator<Item = String>, now: i64) {
        self.remember(hashes, now, Ended::Elsewhere);
    }

    fn remember(&self, hashes: impl IntoIterator<Item = String>, now: i64, why: Ended) {
        let mut ended = self.ended.lock().unwrap_or_else(|p| p.into_inner());
        ended.extend(hashes.into_iter().map(|h| (h, (now, why))));
        ended.retain(|_, (at, _)| now - *at <= self.max_seconds);
        while ended.len() > ENDED_REMEMBERED {
            let oldest = ended
                .iter()
                .min_by_key(|(_, (at, _))| *at)
                .map(|(h, _)| h.clone());
            match oldest {
                Some(hash) => ended.remove(&hash),
                None => break,
            };
        }
    }

    fn ended_because(&self, hash: &str) -> Option<Ended> {
        self.ended
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(hash)
            .map(|(_, why)| *why)
    }

    /// Ends every session of `email` because its password was set anew (the server started
    /// with another `ADMIN_PASSWORD`): each browser is told so when it next asks; how many.
    pub fn password_changed(&self, email: &str, now: i64) -> usize {
        let mut map = self.map();
        let gone: Vec<String> = map
            .iter()
            .filter(|(_, s)| s.email.eq_ignore_ascii_case(email))
            .map(|(hash, _)| hash.clone())
            .collect();
        for hash in &gone {
            map.remove(hash);
        }
        drop(map);
        self.remember(gone.iter().cloned(), now, Ended::PasswordChanged);
        gone.len()
    }

    /// Makes a session for an account that is already stored in SQLite.
    pub fn insert(&self, token_hash: String, email: &str, now: i64) {
        let row = SessionRow {
            token_hash: token_hash.clone(),
            email: email.to_string(),
            created_at: now,
            last_seen_at: now,
            client: String::new(),
            agent: String::new(),
        };
        self.map().insert(token_hash, Live::of(&row));
    }

    /// Stores the session `row` for `verified` in SQLite and keeps it, unless its password
    /// changed since it was checked (`false`). Both happen under the lock [`Sessions::sync`]
    /// takes, so a revocation cannot fall between them.
    pub fn create(&self, db: &Db, row: &SessionRow, verified: &Verified) -> Result<bool, Error> {
        let mut map = self.map();
        if !db.insert_session(row, verified.id, &verified.password_hash)? {
            return Ok(false);
        }
        map.insert(row.token_hash.clone(), Live::of(row));
        Ok(true)
    }

    /// Every live session of `email` at `now`, newest first; `current` is the asking one's
    /// hash. One that has ended is never listed, even before `prune` forgets it.
    pub fn list(&self, email: &str, current: &str, now: i64) -> Vec<Listed> {
        let (idle_before, made_before) = self.cutoffs(now);
        let mut listed: Vec<Listed> = self
            .map()
            .iter()
            .filter(|(_, s)| s.email.eq_ignore_ascii_case(email))
            .filter(|(hash, s)| {
                *hash == current || (s.last_seen_at >= idle_before && s.created_at >= made_before)
            })
            .map(|(hash, s)| Listed {
                id: hash.chars().take(ID_CHARS).collect(),
                created_at: s.created_at,
                last_seen_at: s.last_seen_at,
                client: s.client.clone(),
                agent: s.agent.clone(),
                device: crate::devices::describe(&s.agent),
                current: hash == current,
            })
            .collect();
        listed.sort_by(|a, b| b.created_at.cmp(&a.created_at).then(a.id.cmp(&b.id)));
        listed
    }

    /// The full hash of `email`'s session named `id` in the panel.
    pub fn find(&self, email: &str, id: &str) -> Option<String> {
        if id.len() != ID_CHARS {
            return None;
        }
        self.map()
            .iter()
            .find(|(hash, s)| hash.starts_with(id) && s.email.eq_ignore_ascii_case(email))
            .map(|(hash, _)| hash.clone())
    }

    /// Records that the administrator confirmed who they are in session `hash` at `now`.
    pub fn reauthenticated(&self, hash: &str, now: i64) {
        if let Some(session) = self.map().get_mut(hash) {
            session.reauth_at = now;
        }
    }

    /// Ends every session of `email` but `keep`, telling each browser why when it next
    /// asks; how many.
    pub fn remove_others(&self, email: &str, keep: Option<&str>, now: i64) -> usize {
        let mut map = self.map();
        let gone: Vec<String> = map
            .iter()
            .filter(|(hash, s)| s.email.eq_ignore_ascii_case(email) && Some(hash.as_str()) != keep)
            .map(|(hash, _)| hash.clone())
            .collect();
        for hash in &gone {
            map.remove(hash);
        }
        drop(map);
        self.remember_ended(gone.iter().cloned(), now);
        gone.len()
    }

    /// Ends the session `hash` from another of the administrator's devices.
    pub fn end(&self, hash: &str, now: i64) {
        self.map().remove(hash);
        self.remember_ended([hash.to_string()], now);
    }

    /// Forgets the sessions SQLite no longer holds; how many.
    pub fn sync(&self, db: &Db, now: i64) -> Result<usize, Error> {
        let mut map = self.map();
        let stored: HashSet<String> = db.session_hashes()?.into_iter().collect();
        let gone: Vec<String> = map
            .keys()
            .filter(|hash| !stored.contains(*hash))
            .cloned()
            .collect();
        for hash in &gone {
            map.remove(hash);
        }
        drop(map);
        self.remember_ended(gone.iter().cloned(), now);
        Ok(gone.len())
    }

    /// Checks the session of `token` at `now`; an [`Use::Action`] counts as its use.
    pub fn check(&self, token: &str, now: i64, used: Use) -> Check {
        let hash = token_hash(token);
        let mut map = self.map();
        let Some(session) = map.get_mut(&hash) else {
            drop(map);
            return match self.ended_because(&hash) {
                Some(Ended::Elsewhere) => Check::EndedElsewhere,
                Some(Ended::PasswordChanged) => Check::PasswordChanged,
                None => Check::Unknown,
            };
        };
        let idle = now - session.last_seen_at > self.idle_seconds;
        let too_old = now - session.created_at > self.max_seconds;
        if idle || too_old {
            map.remove(&hash);
            return Check::Expired(hash);
        }
        if used == Use::Background {
            return Check::Valid {
                email: session.email.clone(),
                hash: hash.clone(),
                reauth_at: session.reauth_at,
                persist: None,
            };
        }
        session.last_seen_at = now;
        let persist = (now - session.persisted_at >= PERSIST_EVERY_SECONDS).then(|| {
            session.persisted_at = now;
            hash.clone()
        });
        Check::Valid {
            email: session.email.clone(),
            hash: hash.clone(),
            reauth_at: session.reauth_at,
            persist,
        }
    }

    pub fn remove(&self, token_hash: &str) {
        self.map().remove(token_hash);
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
            ended: Mutex::new(HashMap::new()),
            idle_seconds: 600,
            max_seconds: 3600,
        }
    }

    const ACT: Use = Use::Action;

    #[test]
    fn requests_the_panel_makes_by_itself_never_keep_a_session_alive() {
        let s = sessions();
        s.insert(token_hash("t"), "a@b.pl", 1000);
        for at in (1060..=1600).step_by(60) {
            assert!(matches!(
                s.check("t", at, Use::Background),
                Check::Valid { .. }
            ));
        }
        assert!(matches!(
            s.check("t", 1601, Use::Background),
            Check::Expired(_)
        ));
    }

    #[test]
    fn a_session_ended_from_another_device_says_so() {
        let s = sessions();
        for token in ["a", "b", "c"] {
            s.insert(token_hash(token), "a@b.pl", 10);
        }
        s.end(&token_hash("a"), 20);
        assert_eq!(s.check("a", 21, ACT), Check::EndedElsewhere);
        assert_eq!(s.remove_others("a@b.pl", Some(&token_hash("b")), 22), 1);
        assert_eq!(s.check("c", 23, ACT), Check::EndedElsewhere);
        assert!(matches!(s.check("b", 23, ACT), Check::Valid { .. }));
        assert_eq!(s.check("nigdy", 23, ACT), Check::Unknown);
    }

    fn row(token: &str, now: i64) -> SessionRow {
        SessionRow {
            token_hash: token_hash(token),
            email: "a@b.pl".into(),
            created_at: now,
            last_seen_at: now,
            client: "127.0.0.1".into(),
            agent: "test".into(),
        }
    }

    #[test]
    fn other_sessions_end_and_the_list_names_each_by_a_prefix_of_its_hash() {
        let s = sessions();
        for (token, at) in [("a", 10), ("b", 20), ("c", 30)] {
            s.insert(token_hash(token), "a@b.pl", at);
        }
        s.insert(token_hash("x"), "x@b.pl", 40);
        let listed = s.list("a@b.pl", &token_hash("b"), 40);
        assert_eq!(listed.len(), 3);
        assert!(listed[1].current && !listed[0].current);
        assert_eq!(s.find("a@b.pl", &listed[0].id), Some(token_hash("c")));
        assert_eq!(s.find("x@b.pl", &listed[0].id), None, "only one's own");
        assert_eq!(s.remove_others("a@b.pl", Some(&token_hash("b")), 41), 2);
        assert_eq!(s.check("a", 41, ACT), Check::EndedElsewhere);
        assert!(matches!(s.check("b", 41, ACT), Check::Valid { .. }));
        assert!(matches!(s.check("x", 41, ACT), Check::Valid { .. }));
    }

    #[test]
    fn the_list_names_devices_in_words_and_leaves_out_sessions_that_ended() {
        let s = sessions();
        let iphone = SessionRow {
            agent: "Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1".into(),
            client: "203.0.113.7".into(),
            ..row("phone", 1000)
        };
        s.map().insert(iphone.token_hash.clone(), Live::of(&iphone));
        s.insert(token_hash("old"), "a@b.pl", 100);
        s.insert(token_hash("here"), "a@b.pl", 1000);
        let listed = s.list("a@b.pl", &token_hash("here"), 1100);
        let seen: Vec<(&str, &str, bool)> = listed
            .iter()
            .map(|l| (l.device.as_str(), l.client.as_str(), l.current))
            .collect();
        assert_eq!(seen.len(), 2, "the idle one ended: {seen:?}");
        assert!(seen.contains(&("Safari na iPhonie", "203.0.113.7", false)));
        assert!(seen.iter().any(|(_, _, current)| *current));
    }

    #[test]
    fn a_session_ends_when_idle() {
        let s = sessions();
        s.insert(token_hash("t"), "a@b.pl", 1000);
        assert!(matches!(s.check("t", 1500, ACT), Check::Valid { .. }));
        assert!(
            matches!(s.check("t", 2000, ACT), Check::Valid { .. }),
            "touched at 1500"
        );
        assert!(matches!(s.check("t", 2601, ACT), Check::Expired(_)));
        assert_eq!(s.check("t", 2602, ACT), Check::Unknown);
    }

    #[test]
    fn a_busy_session_still_ends_at_its_absolute_lifetime() {
        let s = sessions();
        s.insert(token_hash("t"), "a@b.pl", 0);
        for minute in 1..60 {
            assert!(matches!(
                s.check("t", minute * 60, ACT),
                Check::Valid { .. }
            ));
        }
        assert!(matches!(s.check("t", 3601, ACT), Check::Expired(_)));
    }

    #[test]
    fn sessions_deleted_by_another_process_end_and_a_stale_check_makes_none() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join("db");
        let open = || Db::new(database::Database::open(&path).expect("db"));
        let db = open();
        crate::password::add_account(&db, "a@b.pl", "bardzo-dlugie-haslo").expect("added");
        let checked = crate::password::check_credentials(&db, "a@b.pl", "bardzo-dlugie-haslo")
            .expect("checked")
            .expect("right password");
        let s = sessions();
        assert!(s.create(&db, &row("t", 10), &checked).expect("created"));
        let before = db.data_version().expect("version");
        // Another process: `sidecar set-password`.
        let cli = open();
        crate::password::set_password(&cli, "a@b.pl", "zupelnie-nowe-haslo").expect("set");
        assert_ne!(
            db.data_version().expect("version"),
            before,
            "the change is seen"
        );
        assert!(
            matches!(s.check("t", 11, ACT), Check::Valid { .. }),
            "not yet synced"
        );
        assert_eq!(s.sync(&db, 12).expect("synced"), 1);
        assert_eq!(s.check("t", 12, ACT), Check::EndedElsewhere);
        assert!(
            !s.create(&db, &row("u", 13), &checked).expect("refused"),
            "a check of the old password makes no session"
        );
        assert_eq!(s.check("u", 14, ACT), Check::Unknown);
    }

    #[test]
    fn only_hashes_are_kept_and_touches_are_written_at_most_every_minute() {
        let s = sessions();
        s.insert(token_hash("secret"), "a@b.pl", 0);
        assert!(!s.map().contains_key("secret"));
        assert_eq!(
            s.check("secret", 30, ACT),
            Check::Valid {
                email: "a@b.pl".into(),
                hash: token_hash("secret"),
                reauth_at: 0,
                persist: None
            }
        );
        assert!(matches!(
            s.check("secret", 61, ACT),
            Check::Valid {
                persist: Some(_),
                ..
            }
        ));
    }

    #[test]
    fn sessions_ended_by_a_new_password_say_so_not_elsewhere() {
        let s = sessions();
        s.insert(token_hash("a"), "a@b.pl", 10);
        s.insert(token_hash("b"), "x@b.pl", 10);
        assert_eq!(s.password_changed("a@b.pl", 11), 1);
        assert_eq!(s.check("a", 12, ACT), Check::PasswordChanged);
        assert!(matches!(s.check("b", 12, ACT), Check::Valid { .. }));
    }
}
