//! Documents the panel and an editor changed at once, kept until the administrator chooses a
//! version: the banner with both texts survives a restart of the server.

use rusqlite::params;

use super::store::Db;
use crate::error::Error;

pub use contentsync::Conflict;

impl Db {
    /// Keeps `conflict`, replacing an older one of the same document.
    pub fn put_conflict(&self, conflict: &Conflict, at: i64) -> Result<(), Error> {
        self.run(|c| {
            c.execute(
                "INSERT OR REPLACE INTO git_conflicts
                   (doc_id, file, commit_id, author, editor_text, panel_text, at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    conflict.doc_id,
                    conflict.file,
                    conflict.commit,
                    conflict.author,
                    conflict.editor_text,
                    conflict.panel_text,
                    at
                ],
            )
            .map(|_| ())
        })
    }

    /// The conflicts not yet settled, oldest first.
    pub fn conflicts(&self) -> Result<Vec<Conflict>, Error> {
        self.run(|c| {
            let mut stmt = c.prepare(
                "SELECT doc_id, file, commit_id, author, editor_text, panel_text
                 FROM git_conflicts ORDER BY at, doc_id",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok(Conflict {
                    doc_id: r.get(0)?,
                    file: r.get(1)?,
                    commit: r.get(2)?,
                    author: r.get(3)?,
                    editor_text: r.get(4)?,
                    panel_text: r.get(5)?,
                })
            })?;
            rows.collect()
        })
    }

    /// Forgets the conflict of `doc_id`; whether there was one.
    pub fn settle_conflict(&self, doc_id: &str) -> Result<bool, Error> {
        self.run(|c| {
            c.execute("DELETE FROM git_conflicts WHERE doc_id = ?1", [doc_id])
                .map(|n| n > 0)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Conflict;
    use crate::db::testing::db;

    fn conflict(doc: &str, panel: &str) -> Conflict {
        Conflict {
            doc_id: doc.into(),
            file: format!("{doc}.md"),
            commit: "8ed94239a2".into(),
            author: "Ewa Redaktorka <ewa@example.pl>".into(),
            editor_text: "tekst redakcji".into(),
            panel_text: panel.into(),
        }
    }

    #[test]
    fn a_conflict_is_kept_across_reopening_until_it_is_settled() {
        let dir = tempfile::tempdir().expect("temp dir");
        db(&dir)
            .put_conflict(&conflict("services/terapia-par", "pierwszy"), 10)
            .expect("kept");
        db(&dir)
            .put_conflict(&conflict("pages/cennik", "cennik"), 20)
            .expect("kept");
        // A newer conflict of the same document replaces the older one.
        db(&dir)
            .put_conflict(&conflict("services/terapia-par", "drugi"), 30)
            .expect("kept");
        let kept = db(&dir).conflicts().expect("read");
        assert_eq!(
            kept,
            vec![
                conflict("pages/cennik", "cennik"),
                conflict("services/terapia-par", "drugi")
            ]
        );
        assert!(db(&dir).settle_conflict("pages/cennik").expect("settled"));
        assert!(!db(&dir)
            .settle_conflict("pages/cennik")
            .expect("already settled"));
        assert_eq!(
            db(&dir).conflicts().expect("read"),
            vec![conflict("services/terapia-par", "drugi")]
        );
    }
}
