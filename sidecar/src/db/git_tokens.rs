//! Editors' access tokens for the hosted repository (`GIT_HOSTED`): each kept only as the
//! SHA-256 of its random bytes, with its name and when it was made and last used.

use rusqlite::{params, OptionalExtension};
use serde::Serialize;

use super::store::Db;
use crate::error::Error;

/// A token as the panel lists it: never the token itself.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct GitToken {
    pub id: i64,
    pub name: String,
    pub created_at: i64,
    pub last_used_at: Option<i64>,
}

impl Db {
    /// Keeps a new token named `name` by its hash; its id.
    pub fn add_git_token(&self, name: &str, hash: &str, at: i64) -> Result<i64, Error> {
        self.run(|c| {
            c.execute(
                "INSERT INTO git_tokens (name, token_hash, created_at) VALUES (?1, ?2, ?3)",
                params![name, hash, at],
            )?;
            Ok(c.last_insert_rowid())
        })
    }

    /// Every token, newest first.
    pub fn git_tokens(&self) -> Result<Vec<GitToken>, Error> {
        self.run(|c| {
            let mut stmt = c.prepare(
                "SELECT id, name, created_at, last_used_at FROM git_tokens
                 ORDER BY created_at DESC, id DESC",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok(GitToken {
                    id: r.get(0)?,
                    name: r.get(1)?,
                    created_at: r.get(2)?,
                    last_used_at: r.get(3)?,
                })
            })?;
            rows.collect()
        })
    }

    /// Forgets the token `id`: its name, if there was one.
    pub fn revoke_git_token(&self, id: i64) -> Result<Option<String>, Error> {
        self.run(|c| {
            c.query_row(
                "DELETE FROM git_tokens WHERE id = ?1 RETURNING name",
                [id],
                |r| r.get(0),
            )
            .optional()
        })
    }

    /// The name of the token whose hash is `hash`, marked as used at `at`; `None` when no
    /// token has it (never made, or revoked). A wrong token is only read for, never written:
    /// a burst of guesses takes no write lock from the server's other work.
    pub fn use_git_token(&self, hash: &str, at: i64) -> Result<Option<String>, Error> {
        self.run(|c| {
            let name: Option<String> = c
                .query_row(
                    "SELECT name FROM git_tokens WHERE token_hash = ?1",
                    [hash],
                    |r| r.get(0),
                )
                .optional()?;
            if name.is_some() {
                c.execute(
                    "UPDATE git_tokens SET last_used_at = ?2 WHERE token_hash = ?1",
                    params![hash, at],
                )?;
            }
            Ok(name)
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::db::testing;

    #[test]
    fn a_token_is_found_by_its_hash_until_revoked() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = testing::db(&dir);
        let id = db.add_git_token("Anna", "abc", 10).expect("added");
        assert_eq!(
            db.use_git_token("abc", 20).expect("used"),
            Some("Anna".into())
        );
        assert_eq!(db.use_git_token("abd", 20).expect("used"), None);
        let listed = db.git_tokens().expect("listed");
        assert_eq!(listed.len(), 1);
        assert_eq!(listed[0].last_used_at, Some(20));
        assert_eq!(
            db.revoke_git_token(id).expect("revoked"),
            Some("Anna".into())
        );
        assert_eq!(db.use_git_token("abc", 30).expect("used"), None);
        assert_eq!(db.revoke_git_token(id).expect("revoked"), None);
    }
}
