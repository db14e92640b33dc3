//! What failed in an account's work, with its cause.

/// The error of the accounts: the database, the system's randomness, a password's hash, the
/// second factor's secret, or an account command that makes no sense (with why, in words).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("accounts' database: {0}")]
    Database(#[from] database::Error),
    #[error("no randomness: {0}")]
    Randomness(String),
    #[error("cannot hash the password: {0}")]
    Hash(String),
    #[error("authenticator app: {0}")]
    Totp(String),
    #[error("the password hashing threads: {0}")]
    Hashing(&'static str),
    /// An account command refused: what is wrong with it.
    #[error("{0}")]
    Refused(String),
}

impl Error {
    /// A refusal, saying what is wrong.
    pub(crate) fn refused(why: impl Into<String>) -> Self {
        Error::Refused(why.into())
    }
}

impl From<rusqlite::Error> for Error {
    fn from(e: rusqlite::Error) -> Self {
        Error::Database(database::Error::Sqlite(e))
    }
}

impl From<getrandom::Error> for Error {
    fn from(e: getrandom::Error) -> Self {
        Error::Randomness(e.to_string())
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
