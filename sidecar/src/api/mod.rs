//! The HTTP API, thin handlers by what they serve: the panel's documents (`pages`,
//! `articles`, `team`, `data`, `history`, `preview`, `images`), its inbox (`messages`) and
//! account (`auth`, `audit`), the git webhook and status (`git`), its statistics (`stats`,
//! with the public beacon's endpoint), and the public contact form and health. Each handler takes what it needs (the signed-in administrator as an
//! extractor), asks the crates and modules below, and answers in JSON with Polish messages.

pub mod contact;
pub mod health;
pub mod stats;
panel! {
    pub mod articles;
    pub mod audit;
    pub mod auth;
    pub mod data;
    pub mod git;
    pub mod history;
    pub mod images;
    pub mod launch;
    pub mod messages;
    pub mod pages;
    pub mod preview;
    pub mod system;
    pub mod team;
    pub mod types;
}

panel! {
    use content::DocId;
    use serde::Deserialize;
    use ts_rs::TS;

    use crate::changes::NOT_FOUND;
    use crate::error::ApiError;
}

/// The longest body a save may send: far above the longest document.
#[cfg(feature = "panel")]
pub const MAX_SAVE_BYTES: usize = 1024 * 1024;

/// The document an address's `{kind}/{slug}` names.
#[cfg(feature = "panel")]
pub fn doc_id(kind: &str, slug: &str) -> Result<DocId, ApiError> {
    DocId::parse(&format!("{kind}/{slug}")).ok_or_else(|| ApiError::not_found(NOT_FOUND))
}

/// The version a change (a deletion, a restore) was asked for at.
#[cfg(feature = "panel")]
#[derive(Debug, Deserialize, TS)]
pub struct VersionBody {
    pub version: String,
}
