//! The audit log: who signed in (or failed to), who read, exported, erased or released
//! contact messages, who ended sessions and changed the account or the practice's facts,
//! from where and when. An entry names what was done and to what (an e-mail address, a
//! message's number), never what a message says.

use rusqlite::params;
use serde::Serialize;

use super::handle::Store;
use crate::error::Error;

/// One thing that happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct AuditEntry {
    pub id: i64,
    pub at: i64,
    pub event: String,
    pub actor: String,
    pub client: String,
    pub detail: String,
}

impl Store {
    pub fn record(
        &self,
        at: i64,
        event: &str,
        actor: &str,
        client: &str,
        detail: &str,
    ) -> Result<(), Error> {
        self.run(|c| {
            c.execute(
                "INSERT INTO audit (at, event, actor, client, detail) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![at, event, actor, client, detail],
            )
            .map(|_| ())
        })
    }

    /// Like [`Store::record`], and the new entry's id (to add to its detail later).
    pub fn record_entry(
        &self,
        at: i64,
        event: &str,
        actor: &str,
        client: &str,
        detail: &str,
    ) -> Result<i64, Error> {
        self.run(|c| {
            c.execute(
                "INSERT INTO audit (at, event, actor, client, detail) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![at, event, actor, client, detail],
            )?;
            Ok(c.last_insert_rowid())
        })
    }

    /// Replaces the detail of entry `id` (a count that grew after it was written).
    pub fn set_audit_detail(&self, id: i64, detail: &str) -> Result<(), Error> {
        self.run(|c| {
            c.execute(
                "UPDATE audit SET detail = ?2 WHERE id = ?1",
                params![id, detail],
            )
            .map(|_| ())
        })
    }

    /// The newest entries first, at most `limit`, older than entry `before` if given.
    pub fn audit(&self, limit: i64, before: Option<i64>) -> Result<Vec<AuditEntry>, Error> {
        self.run(|c| {
            let mut stmt = c.prepare(
                "SELECT id, at, event, actor, client, detail FROM audit
                 WHERE id < ?2 ORDER BY id DESC LIMIT ?1",
            )?;
            let rows = stmt.query_map(params![limit, before.unwrap_or(i64::MAX)], |r| {
                Ok(AuditEntry {
                    id: r.get(0)?,
                    at: r.get(1)?,
                    event: r.get(2)?,
                    actor: r.get(3)?,
                    client: r.get(4)?,
                    detail: r.get(5)?,
                })
            })?;
            rows.collect()
        })
    }

    /// How many `event`s happened since `since` (for throttling what sends e-mail).
    pub fn audit_count(&self, event: &str, since: i64) -> Result<i64, Error> {
        self.run(|c| {
            c.query_row(
                "SELECT COUNT(*) FROM audit WHERE event = ?1 AND at > ?2",
                params![event, since],
                |r| r.get(0),
            )
        })
    }

    pub fn prune_audit(&self, before: i64) -> Result<usize, Error> {
        self.run(|c| c.execute("DELETE FROM audit WHERE at < ?1", [before]))
    }
}
