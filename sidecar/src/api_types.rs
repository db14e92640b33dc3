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
        crate::pages::SaveBody,
        crate::pages::VersionBody,
        crate::pages::Changed,
        crate::publishing::Status,
        editing::team::Profile,
        editing::team::TeamMember,
        crate::team::ProfileBody,
        crate::team::NewProfile,
        crate::team::OrderItem,
        crate::team::OrderBody,
        crate::team::TeamChanged,
        crate::articles::NewArticle,
        crate::articles::SlugProposal,
        crate::articles::ArticleCreated,
        crate::articles::DeletedView,
        crate::data::PricesBody,
        crate::data::FactsBody,
        content::facts::Placeholder,
        crate::preview::Unsaved,
        crate::preview::DraftBody,
        crate::db::Draft,
        crate::db::Revision,
        crate::db::Action,
        crate::db::Spam,
        crate::db::StoredMessage,
        crate::messages::MessageList,
        crate::messages::Erased,
        crate::error::ErrorBody,
        crate::auth::SignedIn,
        crate::auth::factors::SecondFactorNeeded,
        crate::auth::factors::TotpStatus,
        crate::auth::factors::RecoveryCodes,
        crate::auth::totp::Enrolment,
        crate::auth::sessions::Listed,
        crate::auth::account::Ended,
        crate::auth::account::Notice,
        crate::auth::passkeys::PasskeyInfo,
        crate::auth::passkeys::PasskeyAdded,
        accounts::store::AuditEntry,
        crate::history::Side,
        crate::history::Entry,
        crate::history::HistoryList,
        crate::history::VersionTexts,
        crate::git::Refused,
        crate::git::Conflict,
        crate::git::Status,
        crate::git::panel::GitPanel,
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
