//! The panel's API in TypeScript, made from the Rust types the API reads and answers with,
//! so that the panel and the server cannot disagree on a field: `islands/src/admin/
//! generated/api.ts` holds what [`typescript`] writes, and a unit test fails when it differs
//! (`make api-types` writes it again).

use ts_rs::{Config, TS};

/// Where the generated file lives, from the repository's root.
pub const FILE: &str = "islands/src/admin/generated/api.ts";

fn declare<T: TS + ?Sized>(cfg: &Config, out: &mut String) {
    if let Some(docs) = T::docs() {
        out.push_str(&docs);
    }
    out.push_str("export ");
    out.push_str(&T::decl(cfg));
    out.push_str("\n\n");
}

/// The TypeScript declarations of every type of the panel's API.
pub fn typescript() -> String {
    let cfg = Config::new().with_large_int("number");
    let mut out = String::from(
        "// Generated from the sidecar's Rust types by `make api-types` (sidecar/src/api_types.rs): do not edit.\n\n",
    );
    macro_rules! all {
        ($($t:ty),* $(,)?) => {
            $(declare::<$t>(&cfg, &mut out);)*
        };
    }
    all!(
        content::Section,
        content::Kind,
        content::schedule::Status,
        content::fields::TextField,
        editing::edit::Settings,
        editing::edit::EditableContent,
        editing::edit::Editable,
        editing::data::PriceRow,
        editing::data::ServiceLink,
        editing::data::Prices,
        editing::data::Hours,
        editing::data::NoticeFacts,
        editing::data::PracticeFacts,
        editing::data::FactsEditable,
        crate::api::pages::SaveBody,
        crate::api::VersionBody,
        crate::changes::Changed,
        crate::serve::publishing::Status,
        editing::team::Profile,
        editing::team::TeamMember,
        crate::api::team::ProfileBody,
        crate::api::team::NewProfile,
        crate::api::team::OrderItem,
        crate::api::team::OrderBody,
        crate::api::team::TeamChanged,
        crate::api::articles::NewArticle,
        crate::api::articles::SlugProposal,
        crate::api::articles::ArticleCreated,
        crate::api::articles::DeletedView,
        crate::api::data::PricesBody,
        crate::api::data::FactsBody,
        content::facts::Placeholder,
        crate::api::preview::Unsaved,
        crate::api::preview::DraftBody,
        crate::db::Draft,
        crate::db::Revision,
        crate::db::Action,
        crate::db::Spam,
        crate::db::StoredMessage,
        crate::api::messages::MessageList,
        crate::api::messages::Erased,
        crate::error::ErrorBody,
        crate::api::auth::sign_in::SignedIn,
        crate::api::auth::factors::SecondFactorNeeded,
        crate::api::auth::factors::TotpStatus,
        crate::api::auth::factors::RecoveryCodes,
        crate::api::auth::totp::Enrolment,
        crate::api::auth::sessions::Listed,
        crate::api::auth::account::Ended,
        crate::api::auth::account::Notice,
        crate::api::auth::passkeys::PasskeyInfo,
        crate::api::auth::passkeys::PasskeyAdded,
        accounts::store::AuditEntry,
        crate::changes::restore::Side,
        crate::api::history::Entry,
        crate::api::history::HistoryList,
        crate::api::history::VersionTexts,
        crate::changes::sync::Refused,
        crate::changes::sync::Conflict,
        crate::changes::sync::Status,
        crate::api::git::panel::GitPanel,
    );
    format!("{}\n", out.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checked_in_typescript_is_what_the_rust_types_make() {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(FILE);
        let made = typescript();
        if std::env::var_os("UPDATE_API_TYPES").is_some() {
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("folder");
            std::fs::write(&path, &made).expect("written");
        }
        let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            checked_in == made,
            "{FILE} is not what the Rust types make: run `make api-types` and commit it\n{made}"
        );
    }
}
