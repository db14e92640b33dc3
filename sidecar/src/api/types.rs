//! What the browser and the server share, written once in Rust and generated for TypeScript,
//! so that they cannot disagree: the panel's API types (`islands/src/admin/generated/api.ts`,
//! [`typescript`]) and the shared definitions: the contact form's rules
//! ([`contact_schema`], `islands/src/generated/contact.ts`, apart so that the public form
//! carries nothing of the panel's) and ([`schema`], `islands/src/generated/schema.ts`) the
//! picture limit, the section types, the length of a page's
//! description and the audit log's events in Polish. A unit test fails when a checked-in
//! file differs from what the Rust makes (`make api-types` writes both again).

use ts_rs::{Config, TS};

/// Where the generated files live, from the repository's root.
pub const FILE: &str = "islands/src/admin/generated/api.ts";
pub const SCHEMA_FILE: &str = "islands/src/generated/schema.ts";
/// The contact form's rules on their own: the public form's bundle carries nothing of the
/// panel's definitions.
pub const CONTACT_FILE: &str = "islands/src/generated/contact.ts";

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
        "// Generated from the sidecar's Rust types by `make api-types` (sidecar/src/api/types.rs): do not edit.\n\n",
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
        content::model::ExampleFact,
        editing::data::ServiceLink,
        editing::data::Prices,
        editing::data::Hours,
        editing::data::ClosureFacts,
        editing::data::NoticeFacts,
        content::model::SocialLink,
        editing::data::PracticeFacts,
        editing::data::ExampleLabel,
        editing::data::FactsEditable,
        editing::data::WordsEditable,
        content::wording::Wording,
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
        crate::api::data::WordsBody,
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
        content::problem::Place,
        crate::error::ErrorCode,
        crate::error::ErrorBody,
        crate::api::images::Picture,
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
        crate::changes::compare::Compared,
        crate::changes::sync::Refused,
        crate::changes::sync::Conflict,
        crate::changes::sync::Step,
        crate::changes::sync::StepError,
        crate::changes::sync::Status,
        crate::api::git::panel::GitPanel,
        crate::db::GitToken,
        crate::api::git::tokens::GitTokens,
        crate::api::git::tokens::NewGitToken,
        crate::api::git::tokens::GitTokenCreated,
        crate::alerts::conditions::Level,
        crate::alerts::conditions::Alert,
        crate::api::system::Outbox,
        crate::api::system::Backups,
        crate::metrics::Sample,
        crate::api::system::SystemStatus,
        crate::stats::report::Period,
        crate::stats::report::Totals,
        crate::stats::report::Bucket,
        crate::stats::report::Ranked,
        crate::stats::report::Report,
        crate::serve::launch::Step,
        crate::serve::launch::Item,
        crate::serve::launch::Checklist,
    );
    format!("{}\n", out.trim_end())
}

/// A constant for TypeScript: its documentation, name and value (as JSON).
fn constant(out: &mut String, docs: &str, name: &str, value: &impl serde::Serialize) {
    let json = serde_json::to_string_pretty(value).unwrap_or_default();
    out.push_str(&format!(
        "/** {docs} */\nexport const {name} = {json} as const;\n\n"
    ));
}

/// The contact form's rules, as a TypeScript constant of their own file.
pub fn contact_schema() -> String {
    let mut out = String::from(
        "// Generated from the Rust definitions by `make api-types` (sidecar/src/api/types.rs): do not edit.\n\n",
    );
    constant(
        &mut out,
        "The contact form's rules: labels, country codes, limits, the phone's pattern and messages (content::contact).",
        "CONTACT_RULES",
        &content::contact::RULES,
    );
    format!("{}\n", out.trim_end())
}

/// The shared definitions of the panel, as TypeScript constants.
pub fn schema() -> String {
    let mut out = String::from(
        "// Generated from the Rust definitions by `make api-types` (sidecar/src/api/types.rs): do not edit.\n\n",
    );
    constant(
        &mut out,
        "The largest picture the server takes, in bytes (content::limits).",
        "MAX_IMAGE_BYTES",
        &content::limits::MAX_IMAGE_BYTES,
    );
    constant(
        &mut out,
        "The section types the templates know, by the Polish names the owner picks them by.",
        "SECTION_TYPES",
        &content::sections::TYPES,
    );
    constant(
        &mut out,
        "The type of a new section.",
        "DEFAULT_SECTION_TYPE",
        &content::sections::DEFAULT_TYPE,
    );
    constant(
        &mut out,
        "The length a page's description should have, in characters (content::limits).",
        "DESCRIPTION_LENGTH",
        &serde_json::json!({
            "min": content::limits::DESCRIPTION_MIN,
            "max": content::limits::DESCRIPTION_MAX,
        }),
    );
    constant(
        &mut out,
        "What the footer says of the practice: its limits, a profile's address and the messages (content::footer).",
        "FOOTER_RULES",
        &content::footer::RULES,
    );
    constant(
        &mut out,
        "The check digits of NIP and REGON, with what is said when one is wrong (content::identity).",
        "IDENTITY_RULES",
        &content::identity::RULES,
    );
    let events: serde_json::Map<String, serde_json::Value> = crate::audit::all()
        .into_iter()
        .map(|e| (e.name().to_string(), e.label().into()))
        .collect();
    constant(
        &mut out,
        "The audit log's events, in Polish (accounts::audit and the sidecar's audit).",
        "AUDIT_EVENTS",
        &events,
    );
    format!("{}\n", out.trim_end())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The file `file` holds `made` (written again first under `UPDATE_API_TYPES`).
    fn checked_in(file: &str, made: &str) {
        let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("..")
            .join(file);
        if std::env::var_os("UPDATE_API_TYPES").is_some() {
            std::fs::create_dir_all(path.parent().expect("a folder")).expect("folder");
            std::fs::write(&path, made).expect("written");
        }
        let checked_in = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            checked_in == made,
            "{file} is not what the Rust makes: run `make api-types` and commit it\n{made}"
        );
    }

    #[test]
    fn the_checked_in_typescript_is_what_the_rust_types_make() {
        checked_in(FILE, &typescript());
    }

    #[test]
    fn the_shared_definitions_in_typescript_are_what_the_rust_defines() {
        checked_in(SCHEMA_FILE, &schema());
        checked_in(CONTACT_FILE, &contact_schema());
    }
}
