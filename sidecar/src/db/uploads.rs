//! Images uploaded from the panel, with their alternative text.

use rusqlite::params;
use serde::Serialize;

use super::store::Db;
use crate::error::Error;

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

impl Db {
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

    pub fn delete_upload(&self, file: &str) -> Result<(), Error> {
        self.run(|c| {
            c.execute("DELETE FROM images WHERE file = ?1", params![file])
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
}
