//! The administrator's account, without HTTP: passwords (argon2id, checked on two threads of
//! their own), sessions (kept in memory, written through to SQLite, idle by the
//! administrator's own actions), the sign-in throttle, the second factor (an authenticator
//! app's codes, recovery codes, passkeys), reset codes, and the audit log — with the SQL of
//! their tables ([`store`]). The sidecar's handlers ask it; it answers in types and
//! [`Error`]s, never in HTTP.
//!
//! It uses the `database` crate (the server's one SQLite connection), argon2, totp-rs,
//! qrcode, ring and cbor4ii (passkeys' WebAuthn) and woothee (devices in words); never actix, nor the sidecar or the
//! generator's crates.

pub mod audit;
pub mod devices;
mod error;
pub mod hashing;
pub mod passkeys;
pub mod password;
pub mod sessions;
pub mod store;
pub mod throttle;
pub mod tokens;
pub mod totp;
pub mod webauthn;

pub use error::{Error, Result};
pub use store::Store;
pub use tokens::random_token;

/// argon2 needs 19 MiB per check: at most this many run at once, the others wait.
pub const ARGON2_AT_ONCE: usize = 2;

/// Everything the accounts keep: the tables, the live sessions, the hashing threads, the
/// passkey ceremonies, and who the administrator is.
pub struct Accounts {
    pub store: Store,
    /// The one account that may use the panel.
    pub admin_email: String,
    pub sessions: sessions::Sessions,
    pub hasher: hashing::Hasher,
    /// Entries of the audit log are kept this many days.
    pub audit_retention_days: i64,
    pub passkeys: passkeys::Passkeys,
}

impl Accounts {
    /// The accounts of `store`, the panel being at `admin_origin` (passkeys need its host).
    pub fn new(
        store: Store,
        admin_email: String,
        sessions: sessions::Sessions,
        admin_origin: &str,
    ) -> Self {
        let passkeys = passkeys::Passkeys::new(admin_origin, store.clock().clone());
        Accounts {
            store,
            admin_email,
            sessions,
            hasher: hashing::Hasher::new(ARGON2_AT_ONCE),
            audit_retention_days: 365,
            passkeys,
        }
    }

    /// Whether `email` is the administrator's (as addresses compare: without case).
    pub fn is_admin(&self, email: &str) -> bool {
        email.eq_ignore_ascii_case(&self.admin_email)
    }

    /// Writes an entry of the audit log ([`audit::record`]).
    pub fn audit(&self, event: impl Into<audit::Event>, actor: &str, client: &str, detail: &str) {
        audit::record(&self.store, event, actor, client, detail);
    }
}
