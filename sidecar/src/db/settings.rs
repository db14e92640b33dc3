//! Settings and secrets the server makes once and keeps (the contact form's token secret).

use rusqlite::{params, OptionalExtension};

use super::store::Db;
use crate::error::Error;

impl Db {
    /// A setting, created by `make` the first time it is asked for.
    pub fn setting_or(&self, key: &str, make: impl FnOnce() -> Vec<u8>) -> Result<Vec<u8>, Error> {
        self.run(|c| {
            let found: Option<Vec<u8>> = c
                .query_row("SELECT value FROM settings WHERE key = ?1", [key], |r| {
                    r.get(0)
                })
                .optional()?;
            if let Some(value) = found {
                return Ok(value);
            }
            let value = make();
            c.execute(
                "INSERT INTO settings (key, value) VALUES (?1, ?2)",
                params![key, value],
            )?;
            Ok(value)
        })
    }
}

#[cfg(test)]
mod tests {
    use crate::db::testing::db;

    #[test]
    fn a_setting_is_made_once() {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = db(&dir);
        let first = db.setting_or("k", || vec![1, 2]).expect("made");
        assert_eq!(first, db.setting_or("k", || vec![9]).expect("kept"));
    }
}
