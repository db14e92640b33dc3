//! What failed in the content's repository.

/// What failed, with git's own words.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// git said no (its standard error, credentials taken out by the caller).
    #[error("{0}")]
    Git(String),
}
