//! The SQL of the accounts' tables, run on the server's one database ([`database`]):
//! `accounts` (accounts, sessions, sign-in failures), `factors` (the app's secret, recovery
//! codes, passkeys, waiting sign-ins, reset codes, wrong codes) and `audit` (the audit log).

mod accounts;
mod audit;
mod factors;
mod handle;

pub use accounts::{LoginCounts, SessionRow};
pub use audit::AuditEntry;
pub use factors::{PasskeyRow, PendingLogin, TotpRow};
pub use handle::Store;

#[cfg(test)]
pub(crate) mod testing {
    use super::handle::Store;

    /// A store on a new database in `dir`.
    pub(crate) fn store(dir: &tempfile::TempDir) -> Store {
        let db = database::Database::open(&dir.path().join("site.sqlite3")).expect("db opens");
        Store::new(db)
    }
}
