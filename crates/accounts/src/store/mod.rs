//! The SQL of the accounts' tables, run on the server's one database ([`database`]):
//! `accounts` (accounts, sessions, sign-in failures), `factors` (the app's secret, recovery
//! codes, passkeys, waiting sign-ins, reset codes, wrong codes) and `audit` (the audit log).

use database::Database;

use crate::error::Error;

mod accounts;
mod audit;
mod factors;

pub use accounts::{LoginCounts, SessionRow};
pub use audit::AuditEntry;
pub use factors::{PasskeyRow, PendingLogin, TotpRow};

/// The accounts' tables in the server's database.
#[derive(Debug, Clone)]
pub struct Store {
    db: Database,
}

impl Store {
    pub fn new(db: Database) -> Self {
        Store { db }
    }

    fn run<T>(
        &self,
        f: impl FnOnce(&mut rusqlite::Connection) -> rusqlite::Result<T>,
    ) -> Result<T, Error> {
        Ok(self.db.run(f)?)
    }

    /// Whether another process committed to the database since `data_version` last said so.
    pub fn data_version(&self) -> Result<i64, Error> {
        Ok(self.db.data_version()?)
    }
}

#[cfg(test)]
pub(crate) mod testing {
    use super::Store;

    /// A store on a new database in `dir`.
    pub(crate) fn store(dir: &tempfile::TempDir) -> Store {
        let db = database::Database::open(&dir.path().join("site.sqlite3")).expect("db opens");
        Store::new(db)
    }
}
