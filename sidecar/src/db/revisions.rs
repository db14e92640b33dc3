//! The history of every document the panel changed (revisions) and the drafts kept on the
//! server.

use rusqlite::{params, OptionalExtension};
use serde::Serialize;

use super::store::Db;
use crate::error::Error;

/// What a revision did to its document.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ts_rs::TS)]
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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
#[ts(rename = "ServerDraft")]
pub struct Draft {
    pub doc_id: String,
    pub author: String,
    #[ts(type = "number")]
    pub saved_at: i64,
    /// The version of the file the draft was made from.
    pub version: String,
    /// What the panel sent (sections and settings), as JSON.
    #[cfg_attr(feature = "panel", ts(as = "crate::api::preview::DraftBody"))]
    #[cfg_attr(not(feature = "panel"), ts(type = "unknown"))]
    pub body: serde_json::Value,
}

/// The texts of a document on both sides of a revision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Texts {
    pub before: String,
    pub after: String,
}

/// A stored revision of a document, without its text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct Revision {
    #[ts(type = "number")]
    pub id: i64,
    #[ts(type = "number")]
    pub saved_at: i64,
    pub author: String,
    pub action: Action,
    /// What it changed, in the history's words; none for revisions kept before it was.
    #[serde(skip)]
    pub summary: Option<String>,
}

impl Db {
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
                "SELECT id, saved_at, author, action, summary FROM revisions WHERE doc_id = ?1 ORDER BY id DESC LIMIT 100",
            )?;
            let rows = stmt.query_map([doc_id], |r| {
                Ok(Revision {
                    id: r.get(0)?,
                    saved_at: r.get(1)?,
                    author: r.get(2)?,
                    action: Action::parse(&r.get::<_, String>(3)?),
                    summary: r.get(4)?,
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

    /// Records what `action` did to `doc_id`: the text before and after, and what it changed
    /// in the history's words.
    pub fn insert_revision_as(
        &self,
        doc_id: &str,
        author: &str,
        (previous, saved): (&str, &str),
        now: i64,
        action: Action,
        summary: &str,
    ) -> Result<(), Error> {
        self.run(|c| {
            c.execute(
                "INSERT INTO revisions (doc_id, saved_at, author, previous, saved, action, summary) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![doc_id, now, author, previous, saved, action.as_str(), summary],
            )
            .map(|_| ())
        })
    }

    /// One revision of `doc_id`, without its texts.
    pub fn revision(&self, doc_id: &str, id: i64) -> Result<Option<Revision>, Error> {
        self.run(|c| {
            c.query_row(
                "SELECT id, saved_at, author, action, summary FROM revisions WHERE id = ?1 AND doc_id = ?2",
                params![id, doc_id],
                |r| {
                    Ok(Revision {
                        id: r.get(0)?,
                        saved_at: r.get(1)?,
                        author: r.get(2)?,
                        action: Action::parse(&r.get::<_, String>(3)?),
                        summary: r.get(4)?,
                    })
                },
            )
            .optional()
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

    /// The texts a revision of `doc_id` changed: before it and after it (either empty when
    /// the revision made or deleted the file).
    pub fn revision_texts(&self, doc_id: &str, id: i64) -> Result<Option<Texts>, Error> {
        self.run(|c| {
            c.query_row(
                "SELECT previous, saved FROM revisions WHERE id = ?1 AND doc_id = ?2",
                params![id, doc_id],
                |r| {
                    Ok(Texts {
                        before: r.get(0)?,
                        after: r.get(1)?,
                    })
                },
            )
            .optional()
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::testing::db;

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
        db.insert_revision_as(
            "blog/stary",
            "a@b.pl",
            ("tekst", ""),
            DAY,
            Action::Delete,
            "usunięcie",
        )
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
}
