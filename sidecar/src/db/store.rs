//! The sidecar's handle on the server's database.

use database::rusqlite::Connection;
use database::{rusqlite, Database};
use std::path::Path;

use crate::error::Error;

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

    /// The same database, its moments read from `clock` (the server's).
    pub fn with_clock(self, clock: clock::Clock) -> Self {
        Self {
            db: self.db.with_clock(clock),
        }
    }

    /// Seconds since the Unix epoch by the server's clock: how the database keeps every moment.
    pub fn now(&self) -> i64 {
        self.db.now()
    }

    /// The server's clock.
    pub fn clock(&self) -> &clock::Clock {
        self.db.clock()
    }

    pub(super) fn run<T>(
        &self,
        f: impl FnOnce(&mut Connection) -> rusqlite::Result<T>,
    ) -> Result<T, Error> {
        Ok(self.db.run(f)?)
    }

    /// The accounts' tables, on the same connection.
    #[cfg(feature = "panel")]
    pub fn accounts(&self) -> accounts::Store {
        accounts::Store::new(self.db.clone())
    }
}
