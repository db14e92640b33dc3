//! The sidecar's SQL, on the server's one database (the `database` crate: the file, its
//! durability and privacy, the schema's migrations). Each concern's queries are a module:
//! `messages` (contact messages, the outbox, form tokens), `revisions` (revisions and
//! drafts), `conflicts` (the git sync's), `git_tokens` (editors' access to the hosted repository), `uploads`, `settings` (secrets made once) and `stats` (the
//! site's statistics: aggregates only). The
//! accounts' tables are the `accounts` crate's. A handler calls either store through
//! [`Repository`], which makes the call on the blocking pool.

mod git_tokens;
mod messages;
mod repository;
mod revisions;
mod settings;
mod stats;
mod store;
mod uploads;
mod waiting;
panel! {
    mod conflicts;
    pub use conflicts::Conflict;
}

pub use git_tokens::GitToken;
pub use messages::{Arrival, NewMessage, Spam, Stored, StoredMessage};
pub use repository::Repository;
pub use revisions::{Action, Deleted, Draft, Revision};
pub use stats::{Device, Dimension, Event, StatKey, StatRow};
pub use store::Db;
pub use uploads::Upload;

pub use database::{backup_into, check_file, private_dir, private_file, SCHEMA_VERSION};

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
