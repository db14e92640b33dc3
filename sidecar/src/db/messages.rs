//! Contact messages and the outbox's delivery state, and the contact form's single-use tokens.

use rusqlite::{params, OptionalExtension};
use serde::Serialize;

use super::store::Db;
use crate::error::Error;

/// Why a message is suspected of being spam.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
#[ts(rename = "SpamReason")]
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "Message")]
pub struct StoredMessage {
    #[ts(type = "number")]
    pub id: i64,
    #[ts(type = "number")]
    pub received_at: i64,
    pub name: String,
    pub email: String,
    pub phone: String,
    pub country_code: String,
    pub full_phone: String,
    pub message: String,
    /// `pending`, `delivered` or `failed`.
    #[ts(type = "\"pending\" | \"delivered\" | \"failed\"")]
    pub status: String,
    #[ts(type = "number")]
    pub attempts: i64,
    pub last_error: Option<String>,
    #[ts(type = "number | null")]
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

/// A message as it came from the form: with the nonce of its token when the token was good.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Arrival {
    pub message: NewMessage,
    pub nonce: Option<String>,
    /// When the token's nonce may be forgotten (its token has expired by then).
    pub nonce_expires_at: i64,
}

/// A stored message: its id and whether it is suspect.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stored {
    pub id: i64,
    pub spam: Option<Spam>,
}

fn insert_arrival(c: &rusqlite::Connection, a: &Arrival, now: i64) -> rusqlite::Result<Stored> {
    let m = &a.message;
    let mut spam = m.spam;
    if let Some(nonce) = &a.nonce {
        let first_use = c.execute(
            "INSERT OR IGNORE INTO used_tokens (nonce, expires_at) VALUES (?1, ?2)",
            params![nonce, a.nonce_expires_at],
        )? > 0;
        if !first_use && spam.is_none() {
            spam = Some(Spam::BadToken);
        }
    }
    let held = spam == Some(Spam::Honeypot);
    c.execute(
        "INSERT INTO messages (received_at, name, email, phone, country_code, full_phone, message, next_attempt_at, spam, held)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?1, ?8, ?9)",
        params![now, m.name, m.email, m.phone, m.country_code, m.full_phone, m.message, spam.map(Spam::as_str), held],
    )?;
    Ok(Stored {
        id: c.last_insert_rowid(),
        spam,
    })
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
    /// Stores a message; when this returns, the message is on disk. A honeypot message is
    /// held: kept, but not e-mailed until released.
    pub fn insert_message(&self, m: &NewMessage, now: i64) -> Result<i64, Error> {
        let arrival = Arrival {
            message: m.clone(),
            nonce: None,
            nonce_expires_at: now,
        };
        self.run(|c| insert_arrival(c, &arrival, now).map(|s| s.id))
    }

    /// Stores messages that came together in one transaction, so they share one fsync: when
    /// this returns, every message it says was stored is on disk. Each message is stored
    /// with its form token spent (a token seen before makes the message suspect); one that
    /// cannot be stored is rolled back alone and answered with its error.
    pub fn insert_arrivals(
        &self,
        arrivals: &[Arrival],
        now: i64,
    ) -> Result<Vec<Result<Stored, String>>, Error> {
        self.run(|c| {
            let mut tx = c.transaction()?;
            tx.execute("DELETE FROM used_tokens WHERE expires_at < ?1", [now])?;
            let mut stored = Vec::with_capacity(arrivals.len());
            for arrival in arrivals {
                let mut one = tx.savepoint()?;
                match insert_arrival(&one, arrival, now) {
                    Ok(s) => {
                        one.commit()?;
                        stored.push(Ok(s));
                    }
                    Err(e) => {
                        one.rollback()?;
                        stored.push(Err(e.to_string()));
                    }
                }
            }
            tx.commit()?;
            Ok(stored)
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

    /// Erases every message of one sender (the right to erasure). `secure_delete` zeroes
    /// the freed pages; the checkpoint then empties the write-ahead log, whose older frames
    /// would still hold the rows.
    pub fn delete_messages_of(&self, email: &str) -> Result<usize, Error> {
        self.run(|c| {
            let deleted = c.execute(
                "DELETE FROM messages WHERE email = ?1 COLLATE NOCASE",
                [email],
            )?;
            c.query_row("PRAGMA wal_checkpoint(TRUNCATE)", [], |_| Ok(()))?;
            Ok(deleted)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing::{db, message};

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

    fn arrival(nonce: &str, expires_at: i64) -> Arrival {
        Arrival {
            message: message(),
            nonce: Some(nonce.into()),
            nonce_expires_at: expires_at,
        }
    }

    #[test]
    fn a_form_token_is_used_once() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = db(&dir);
        let spam = |arrivals: &[Arrival], now| -> Vec<Option<Spam>> {
            let stored = db.insert_arrivals(arrivals, now).expect("stored");
            stored.into_iter().map(|s| s.expect("each").spam).collect()
        };
        assert_eq!(
            spam(&[arrival("n1", 200), arrival("n1", 200)], 100),
            [None, Some(Spam::BadToken)],
            "the second use in the same batch is suspect"
        );
        assert_eq!(spam(&[arrival("n1", 200)], 150), [Some(Spam::BadToken)]);
        assert_eq!(
            spam(&[arrival("n1", 400)], 300),
            [None],
            "expired entries are pruned"
        );
    }

    #[test]
    fn a_batch_is_stored_whole_and_each_message_gets_its_own_id() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = db(&dir);
        let held = Arrival {
            message: NewMessage {
                spam: Some(Spam::Honeypot),
                ..message()
            },
            nonce: None,
            nonce_expires_at: 0,
        };
        let stored = db
            .insert_arrivals(&[arrival("a", 200), held, arrival("b", 200)], 100)
            .expect("stored");
        let ids: Vec<i64> = stored
            .iter()
            .map(|s| s.as_ref().expect("each").id)
            .collect();
        assert_eq!(ids.len(), 3);
        assert!(ids.windows(2).all(|w| w[0] < w[1]));
        let kept = db.messages(None, 10).expect("listed");
        assert_eq!(kept.len(), 3);
        assert!(
            kept.iter().any(|m| m.held),
            "the honeypot's message is held, not dropped"
        );
    }
}
