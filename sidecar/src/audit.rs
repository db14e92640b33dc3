//! The audit log as the panel reads it (`GET /api/audit`), and how handlers write to it:
//! [`record`], never failing the request it describes.
//! Entries are kept `AUDIT_RETENTION_DAYS` (the maintenance task prunes them).

use actix_web::{web, HttpRequest, HttpResponse};
use serde::Deserialize;

use crate::auth::Admin;
use crate::error::ApiError;
use crate::pages::no_store;
use crate::{now, AppState};

/// What can happen, as the log names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    SignIn,
    SignInFailed,
    SignInRefused,
    SecondFactorNeeded,
    SecondFactorFailed,
    CodesThrottled,
    SignOut,
    Reauthenticated,
    ReauthFailed,
    SessionEnded,
    OtherSessionsEnded,
    PasswordChanged,
    ResetRequested,
    PasswordReset,
    ResetFailed,
    TotpEnabled,
    TotpDisabled,
    PasskeyAdded,
    PasskeyRemoved,
    RecoveryCodesRenewed,
    InboxViewed,
    MessageOpened,
    MessageReleased,
    MessageRetried,
    MessageDeleted,
    MessagesExported,
    MessagesErased,
    FactsChanged,
    PricesChanged,
    ImageUploaded,
    ImageDeleted,
    GitApplied,
    GitRefused,
    GitForcePush,
    WebhookRefused,
    BackupMade,
    BackupRestored,
}

impl Event {
    pub fn name(self) -> &'static str {
        match self {
            Event::SignIn => "sign_in",
            Event::SignInFailed => "sign_in_failed",
            Event::SignInRefused => "sign_in_refused",
            Event::SecondFactorNeeded => "second_factor_needed",
            Event::SecondFactorFailed => "second_factor_failed",
            Event::CodesThrottled => "codes_throttled",
            Event::SignOut => "sign_out",
            Event::Reauthenticated => "reauthenticated",
            Event::ReauthFailed => "reauth_failed",
            Event::SessionEnded => "session_ended",
            Event::OtherSessionsEnded => "other_sessions_ended",
            Event::PasswordChanged => "password_changed",
            Event::ResetRequested => "reset_requested",
            Event::PasswordReset => "password_reset",
            Event::ResetFailed => "reset_failed",
            Event::TotpEnabled => "totp_enabled",
            Event::TotpDisabled => "totp_disabled",
            Event::PasskeyAdded => "passkey_added",
            Event::PasskeyRemoved => "passkey_removed",
            Event::RecoveryCodesRenewed => "recovery_codes_renewed",
            Event::InboxViewed => "inbox_viewed",
            Event::MessageOpened => "message_opened",
            Event::MessageReleased => "message_released",
            Event::MessageRetried => "message_retried",
            Event::MessageDeleted => "message_deleted",
            Event::MessagesExported => "messages_exported",
            Event::MessagesErased => "messages_erased",
            Event::FactsChanged => "facts_changed",
            Event::PricesChanged => "prices_changed",
            Event::ImageUploaded => "image_uploaded",
            Event::ImageDeleted => "image_deleted",
            Event::GitApplied => "git_applied",
            Event::GitRefused => "git_refused",
            Event::GitForcePush => "git_force_push",
            Event::WebhookRefused => "webhook_refused",
            Event::BackupMade => "backup_made",
            Event::BackupRestored => "backup_restored",
        }
    }
}

/// Writes an entry before the request is answered: `actor` is who (an e-mail, as given),
/// `detail` what to (a message's number, an address), never what a message says. A failure
/// to write is logged and does not fail the request it describes.
pub async fn record(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    event: Event,
    actor: &str,
    detail: &str,
) {
    let client = state.clients.key(req).to_string();
    let (db, actor, detail) = (state.db.clone(), actor.to_string(), detail.to_string());
    let at = now();
    let written = web::block(move || db.record(at, event.name(), &actor, &client, &detail)).await;
    match written {
        Ok(Err(e)) => tracing::error!(error = %e, event = event.name(), "audit log"),
        Err(e) => tracing::error!(error = %e, event = event.name(), "audit log"),
        Ok(Ok(())) => {}
    }
}

/// Writes an entry of something no request asked for (the git sync, a backup): `actor` is
/// who it is about, `client` where it came from (`repozytorium`, `serwer`).
pub fn record_event(db: &crate::db::Db, event: Event, actor: &str, client: &str, detail: &str) {
    if let Err(e) = db.record(now(), event.name(), actor, client, detail) {
        tracing::error!(error = %e, event = event.name(), "audit log");
    }
}

pub fn configure(cfg: &mut web::ServiceConfig) {
    cfg.route("/api/audit", web::get().to(list));
}

#[derive(Deserialize)]
struct Page {
    before: Option<i64>,
}

/// `GET /api/audit?before=ID`: 100 entries, the newest first.
async fn list(
    _admin: Admin,
    page: web::Query<Page>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let db = state.db.clone();
    let before = page.before;
    let entries = web::block(move || db.audit(100, before)).await??;
    Ok(no_store().json(entries))
}
