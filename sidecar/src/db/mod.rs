//! The sidecar's SQL, on the server's one database (the `database` crate: the file, its
//! durability and privacy, the schema's migrations). Each concern's queries are a module:
//! `messages` (contact messages, the outbox, form tokens), `revisions` (revisions and
//! drafts), `conflicts` (the git sync's), `uploads` and `settings` (secrets made once). The
//! accounts' tables are the `accounts` crate's.

use database::rusqlite::Connection;
use database::{rusqlite, Database};
use std::path::Path;

use crate::error::Error;

mod conflicts;
mod messages;
mod revisions;
mod settings;
mod uploads;

pub use conflicts::Conflict;
pub use messages::{NewMessage, Spam, StoredMessage};
pub use revisions::{Action, Deleted, Draft, Revision};
pub use uploads::Upload;

pub use database::{backup_into, check_file, private_dir, private_file, SCHEMA_VERSION};

/// The sidecar's tables in the server's database (messages, revisions, drafts, conflicts,
/// uploads, settings); the accounts' tables are the `accounts` crate's ([`Db::accounts`]).
#[derive(Debug, Clone)]
pub struct Db {
    db: Database,
}

impl Db {
    pub fn open(path: &Path) -> Result<Self, Error> {
        Ok(Self {
            db: Database::open(path)?,
        })
    }

    fn run<T>(&self, f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>) -> Result<T, Error> {
        Ok(self.db.run(f)?)
    }

    /// The accounts' tables, on the same connection.
    pub fn accounts(&self) -> accounts::Store {
        accounts::Store::new(self.db.clone())
    }
}

#[cfg(test)]
pub(crate) mod testing {
    use super::*;

    pub(crate) fn message() -> NewMessage {
        NewMessage {
            name: "Anna".into(),
            email: "anna@example.pl".into(),
            phone: "501234567".into(),
            country_code: "+48".into(),
            full_phone: "+48501234567".into(),
            message: "Dzień dobry".into(),
            spam: None,
        }
    }

    pub(crate) fn db(dir: &tempfile::TempDir) -> Db {
        Db::open(&dir.path().join("data").join("site.sqlite3")).expect("db opens")
    }
}
