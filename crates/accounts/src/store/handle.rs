//! The accounts' handle on the server's database.

use database::Database;

use crate::error::Error;

/// The accounts' tables in the server's database.
#[derive(Debug, Clone)]
pub struct Store {
    db: Database,
}

impl Store {
    pub fn new(db: Database) -> Self {
        Store { db }
    }

    pub(super) fn run<T>(
        &self,
        f: impl FnOnce(&mut rusqlite::Connection) -> rusqlite::Result<T>,
    ) -> Result<T, Error> {
        Ok(self.db.run(f)?)
    }

    /// Seconds since the Unix epoch, by the server's clock (the database's).
    pub fn now(&self) -> i64 {
        self.db.now()
    }

    /// The server's clock.
    pub fn clock(&self) -> &database::Clock {
        self.db.clock()
    }

    /// Whether another process committed to the database since `data_version` last said so.
    pub fn data_version(&self) -> Result<i64, Error> {
        Ok(self.db.data_version()?)
    }
}
